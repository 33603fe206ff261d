"""The site's pictures, drawn at build time from the pages' own code.

Each picture belongs to a page. The build runs that page's Python blocks (as the tests
do, with :class:`docs_tools.blocks.PageRun`) and hands the namespace they leave behind to
a drawing function, so a picture always shows what the page's code computes today and
cannot go stale. Plots are drawn with matplotlib (the ``docs`` extra); hook timelines are
drawn by ``minitorch_hooks.hook_trace``.

``PICTURES`` maps the picture's path in the site to its page and its drawing function;
``docs_tools/hooks.py`` adds them to the build as generated files.

Running the pages is most of a build's time (half a minute), so each page's pictures are
kept in ``.cache/pictures/`` under a digest of everything they are drawn from: the page,
the package's files, this folder's code, the benchmark results and the versions of Python,
NumPy and matplotlib. A build whose inputs did not change reads them back (``mkdocs serve``
starts in seconds the second time); any change to an input draws them anew. The folder can
be deleted at any time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import platform
import textwrap
from collections.abc import Callable
from typing import Any

from .blocks import DOCS, PageRun

Namespace = dict[str, Any]


def _figure_svg(figure: Any) -> str:
    """A matplotlib figure as SVG text, byte for byte the same on every build."""
    import matplotlib.pyplot as plt

    out = io.StringIO()
    figure.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    return out.getvalue()


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "minitorch_hooks"  # stable ids inside the SVG
    import matplotlib.pyplot as plt

    return plt


def activation_frequency(page: Namespace) -> str:
    """One bar per ReLU unit: how often it fired; dead units (never) shaded red."""
    plt = _pyplot()
    frequency = page["frequency"]
    figure, axes = plt.subplots(1, len(frequency), figsize=(9, 2.8), sharey=True)
    for ax, (name, values) in zip(axes, frequency.items()):
        ax.bar(range(len(values)), values, color="#1f77b4")
        dead = [unit for unit, value in enumerate(values) if value == 0]
        for unit in dead:  # a dead unit has no bar to colour: shade its column instead
            ax.axvspan(unit - 0.45, unit + 0.45, color="#d62728", alpha=0.25)
        ax.plot(dead, [0.02] * len(dead), "x", color="#d62728")
        ax.set_title(f"ReLU {name}: {len(dead)} dead unit(s), in red")
        ax.set_xlabel("unit")
        ax.set_xticks(range(len(values)))
    axes[0].set_ylabel("fraction of samples > 0")
    axes[0].set_ylim(0, 1)
    figure.tight_layout()
    return _figure_svg(figure)


def gradient_norms(page: Namespace) -> str:
    """The norm of each weight's gradient at every training step, on a log scale."""
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(7, 3.2))
    for name, norms in sorted(page["param_norms"].items()):
        if name.endswith("weight"):
            ax.plot(range(len(norms)), norms, label=name)
    ax.set_yscale("log")
    ax.set_xlabel("training step")
    ax.set_ylabel("gradient norm")
    ax.legend()
    ax.grid(alpha=0.3)
    figure.tight_layout()
    return _figure_svg(figure)


def grad_cam(page: Namespace) -> str:
    """Each test digit of ``how-to/grad-cam.md``, titled with the label and the model's
    answer, above its Grad-CAM heatmap (red the peak, blue zero) with the digit's outline
    drawn over it in white. Four digits a row, so that a phone shows them large enough
    to read."""
    plt = _pyplot()
    digits, cam = page["examples"][:, 0].numpy(), page["cam"].numpy()
    labels, predicted = page["y_test"].tolist(), page["predicted"].tolist()
    per_row = 4
    rows = 2 * -(-len(digits) // per_row)
    figure, axes = plt.subplots(rows, per_row, figsize=(1.3 * per_row, 1.45 * rows))
    for ax in axes.flat:
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_frame_on(False)
    for index, (digit, heat) in enumerate(zip(digits, cam)):
        row, column = 2 * (index // per_row), index % per_row
        top, bottom = axes[row, column], axes[row + 1, column]
        top.imshow(digit, cmap="gray_r", vmin=0, vmax=1)
        top.set_title(f"{labels[index]} → {predicted[index]}", fontsize=12)
        bottom.imshow(heat, cmap="jet", vmin=0, vmax=1)
        bottom.contour(digit, levels=[0.5], colors="white", linewidths=1.5)
    for row in range(0, rows, 2):
        axes[row, 0].set_ylabel("digit", fontsize=11)
        axes[row + 1, 0].set_ylabel("Grad-CAM", fontsize=11)
    figure.tight_layout()
    return _figure_svg(figure)


def feature_maps(page: Namespace) -> str:
    """The digit of ``how-to/feature-maps.md``, then each convolution's maps, eight a row;
    red is positive, blue negative, on one scale per layer."""
    plt = _pyplot()
    rows = [("input", page["digit"][0].numpy(), "gray_r")]
    for name, maps in page["feature_maps"].items():
        for start in range(0, maps.shape[1], 8):
            rows.append((name if start == 0 else "", maps[0, start:start + 8].numpy(),
                         "RdBu_r"))
    figure, axes = plt.subplots(len(rows), 8, figsize=(8, 1.05 * len(rows)))
    for row_axes, (name, maps, cmap) in zip(axes, rows):
        scale = abs(maps).max() or 1.0
        low = 0 if cmap == "gray_r" else -scale
        for column, ax in enumerate(row_axes):
            ax.set_xticks([])
            ax.set_yticks([])
            if column < len(maps):
                ax.imshow(maps[column], cmap=cmap, vmin=low, vmax=scale)
            else:
                ax.axis("off")
        row_axes[0].set_ylabel(name)
    figure.tight_layout()
    return _figure_svg(figure)


def attention_maps(page: Namespace) -> str:
    """One heatmap per layer and head of the reversing model: rows are the positions that
    look, columns the positions looked at, darker is more weight."""
    plt = _pyplot()
    maps, digits = page["maps"], page["sequence"][0].tolist()
    heads = next(iter(maps.values())).shape[1]
    figure, axes = plt.subplots(len(maps), heads, figsize=(3.2 * heads, 3.1 * len(maps)),
                                squeeze=False)
    for row, (name, weights) in zip(axes, maps.items()):
        for head, ax in enumerate(row):
            ax.imshow(weights[0, head].numpy(), cmap="Blues", vmin=0, vmax=1)
            ax.set_title(f"{name}, head {head}")
            ax.set_xticks(range(len(digits)), [str(d) for d in digits])
            ax.set_yticks(range(len(digits)))
            ax.set_xlabel("key (input digit)")
            ax.set_ylabel("query position")
    figure.tight_layout()
    return _figure_svg(figure)


def _timeline(roots: tuple, names: dict[str, Any], run: Callable[[], Any]) -> str:
    """The SVG timeline of every hook that fires while ``run()`` runs; what the page's
    hooks print is not part of the picture."""
    import minitorch_hooks

    with contextlib.redirect_stdout(io.StringIO()):
        with minitorch_hooks.hook_trace(*roots, names=names) as timeline:
            run()
    return timeline.svg()


def nested_modules_timeline(page: Namespace) -> str:
    """The hooks of ``explanation/module-call.md``'s nested model, forward and backward."""
    model, x = page["model"], page["x"]
    return _timeline((model,), {"x": x}, lambda: model(x).sum().backward())


def one_backward_timeline(page: Namespace) -> str:
    """Every hook of ``explanation/hook-kinds.md``'s single backward pass, its tensors
    named as the page names them."""
    with contextlib.redirect_stdout(io.StringIO()):
        y, loss = page["forward_once"]()
    return _timeline((page["layer"],), {"the input x": page["x"], "the output y": y},
                     loss.backward)


def peer_ratios(page: Namespace) -> str:
    """``benchmarks/results/peers.json`` as bars: each library's median time on each
    workload as a multiple of PyTorch's (the line at 1), on a log scale."""
    import matplotlib.ticker

    plt = _pyplot()
    results = json.loads((DOCS.parent / "benchmarks" / "results" / "peers.json").read_text())
    names = [name for name in results["libraries"] if name != "torch"]
    rows = results["workloads"]
    width = 0.8 / len(names)
    figure, ax = plt.subplots(figsize=(8, 3.6))
    for i, name in enumerate(names):
        ratios = [row["ratios"].get(name) for row in rows]
        places = [j + (i - (len(names) - 1) / 2) * width for j, r in enumerate(ratios) if r]
        ax.bar(places, [r for r in ratios if r], width, label=name)
    ax.axhline(1, color="black", linewidth=1, label="torch")
    ax.set_yscale("log")
    # Plain decimals on the log axis (0.5, 1, 2, 4), not 4x10^0.
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}"))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ratios = [ratio for row in rows for ratio in row["ratios"].values() if ratio]
    ax.set_yticks([tick for tick in (0.25, 0.5, 1, 2, 4, 8, 16)
                   if min(ratios) / 1.5 <= tick <= max(ratios) * 1.5])
    ax.set_xticks(range(len(rows)))
    ax.set_xlim(-0.7, len(rows) - 0.3)  # room for the outer labels inside the frame
    # Each label on lines of its own words, so that the last one stays inside the frame.
    ax.set_xticklabels([textwrap.fill(row["name"].split(",")[0], 14) for row in rows],
                       fontsize="small")
    ax.set_ylabel("time / PyTorch's time")
    # The legend above the bars, where it hides none of them.
    ax.legend(fontsize="small", ncol=len(names) + 1, loc="lower center",
              bbox_to_anchor=(0.5, 1.0), frameon=False)
    ax.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return _figure_svg(figure)


# picture path in the site -> (page that computes its data, drawing function)
PICTURES: dict[str, tuple[str, Callable[[Namespace], str]]] = {
    "assets/plots/activation-frequency.svg":
        ("how-to/activation-statistics.md", activation_frequency),
    "assets/plots/gradient-norms.svg": ("how-to/gradient-norms.md", gradient_norms),
    "assets/plots/grad-cam.svg": ("how-to/grad-cam.md", grad_cam),
    "assets/plots/feature-maps.svg": ("how-to/feature-maps.md", feature_maps),
    "assets/plots/attention-maps.svg": ("how-to/attention-maps.md", attention_maps),
    "assets/traces/nested-modules.svg":
        ("explanation/module-call.md", nested_modules_timeline),
    "assets/traces/one-backward.svg": ("explanation/hook-kinds.md", one_backward_timeline),
    "assets/plots/peer-ratios.svg": ("performance.md", peer_ratios),
}


ROOT = DOCS.parent
CACHE = ROOT / ".cache" / "pictures"
# What every picture is drawn with, besides its page (folders: every file in them).
INPUTS = ["minitorch_hooks", "docs_tools", "benchmarks/results"]


@functools.cache
def _inputs_digest() -> str:
    import matplotlib
    import numpy

    digest = hashlib.sha256(f"{platform.python_version()} numpy {numpy.__version__} "
                            f"matplotlib {matplotlib.__version__}".encode())
    for folder in INPUTS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def forget_digests() -> None:
    """Read the inputs again on the next build (``mkdocs serve`` rebuilds in one process)."""
    _inputs_digest.cache_clear()


def page_pictures(page: str, draw: Callable[[], dict[str, str]]) -> dict[str, str]:
    """``draw()``, the pictures of ``page``, or what it gave when the page and every input
    were the same (read from :data:`CACHE`)."""
    digest = hashlib.sha256(_inputs_digest().encode() + (DOCS / page).read_bytes()).hexdigest()
    name = page.replace("/", "--").removesuffix(".md")
    cached = CACHE / f"{name}-{digest[:20]}.json"
    if cached.exists():
        return json.loads(cached.read_text(encoding="utf-8"))
    pictures = draw()
    CACHE.mkdir(parents=True, exist_ok=True)
    for older in CACHE.glob(f"{name}-{'?' * 20}.json"):  # this page's, from other inputs
        older.unlink()
    cached.write_text(json.dumps(pictures), encoding="utf-8")
    return pictures


def _draw_page(page: str) -> dict[str, str]:
    """Run ``page`` and draw each of its pictures from what it leaves."""
    with contextlib.redirect_stdout(io.StringIO()):
        namespace = PageRun(DOCS / page).run_all()
    return {path: draw(namespace) for path, (of, draw) in PICTURES.items() if of == page}


def draw_all() -> dict[str, str]:
    """Every picture's SVG text by its site path; each page runs once, if at all."""
    pictures: dict[str, str] = {}
    for page in dict.fromkeys(page for page, _ in PICTURES.values()):
        pictures |= page_pictures(page, functools.partial(_draw_page, page))
    return pictures
