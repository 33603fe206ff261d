"""Generate the API coverage page, ``docs/reference/coverage.md``: how many of PyTorch
2.13's public names minitorch_hooks implements, namespace by namespace, each name with a
mark, and for a missing name whether a hook learner is likely to meet it.

    python -m docs_tools.api_coverage           # write the page
    python -m docs_tools.api_coverage --check   # fail if the page is not current

PyTorch's names come from the shipped data (``minitorch_hooks/pytorch_names.txt``, see
``docs_tools/pytorch_names.py``), so PyTorch need not be installed. What counts as
implemented is what can be read here: ``getattr`` on our namespace, or ``import`` of a
module. ``tests/docs/test_api_coverage.py`` runs the check and checks the marks.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import minitorch_hooks
from minitorch_hooks._missing import MODULES, pytorch_names

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "reference" / "coverage.md"
NAMESPACES = ["torch", "torch.Tensor", "torch.nn", "torch.nn.functional", "torch.optim",
              "torch.autograd", "torch.distributions", "torch.distributions.constraints",
              "torch.multiprocessing", "torch.nn.parallel"]
IMPLEMENTED, LIKELY, RARE = "✓", "✗", "○"

# The missing names a learner of hooks is likely to meet: what hook tutorials, Grad-CAM and
# feature-extraction libraries, model summaries, activation statistics and the models they
# are shown on use. Every other missing name is marked as rarely met.
LIKELY_NAMES = {
    "torch": """
        DoubleTensor FloatTensor IntTensor LongTensor ByteTensor BoolTensor HalfTensor
        allclose amax amin argsort baddbmm bmm clamp_max clamp_min compile cuda cumprod
        cumsum diag dstack einsum flip gather histc hstack inference_mode is_floating_point
        isclose jit kron linspace log1p logsumexp masked_scatter masked_select meshgrid
        minimum nan_to_num prod repeat_interleave roll scatter set_default_dtype set_printoptions
        sort std_mean topk tril triu unique var_mean vstack
        """,
    "torch.Tensor": """
        addcmul_ amax amin argsort baddbmm bmm clamp_ cpu cuda cumprod cumsum diag
        element_size exponential_ flip gather histc index_add_ index_fill_ index_select
        is_cuda is_floating_point is_sparse log1p logsumexp masked_scatter masked_select nan_to_num
        nbytes new normal_ prod random_ repeat_interleave roll scatter scatter_ scatter_add
        scatter_add_ sort squeeze_ t_ topk transpose_ tril triu type uniform_ unique
        unsqueeze_
        """,
    "torch.nn": """
        AdaptiveAvgPool1d AdaptiveMaxPool1d AdaptiveMaxPool2d AvgPool1d BCELoss
        BCEWithLogitsLoss BatchNorm3d Conv3d ConvTranspose1d ConvTranspose2d DataParallel
        Dropout1d Dropout2d Dropout3d ELU GRU GRUCell Hardswish Hardsigmoid Hardtanh
        InstanceNorm1d InstanceNorm2d KLDivLoss LSTM LSTMCell LogSoftmax MaxPool1d Mish
        PReLU PixelShuffle RNN RNNCell ReLU6 ReflectionPad2d SmoothL1Loss Softplus
        SyncBatchNorm Upsample UpsamplingBilinear2d UpsamplingNearest2d ZeroPad2d parallel
        """,
    "torch.nn.functional": """
        adaptive_max_pool2d avg_pool1d binary_cross_entropy binary_cross_entropy_with_logits
        cosine_similarity elu fold hardswish hardtanh kl_div max_pool1d normalize one_hot
        pixel_shuffle relu6 smooth_l1_loss softplus unfold
        """,
    "torch.optim": "AdamW Adagrad RMSprop lr_scheduler",
    "torch.autograd": "forward_ad functional",
    "torch.distributions": "Normal",
    "torch.distributions.constraints": "",
    "torch.multiprocessing": "",
    "torch.nn.parallel": "",
}


def likely_names() -> dict[str, frozenset[str]]:
    return {namespace: frozenset(text.split()) for namespace, text in LIKELY_NAMES.items()}


def namespace_object(namespace: str) -> Any:
    """Our object that stands for one of PyTorch's namespaces."""
    if namespace == "torch.Tensor":
        return minitorch_hooks.Tensor
    return importlib.import_module("minitorch_hooks" + namespace[len("torch"):])


def implemented(namespace: str, name: str) -> bool:
    """Whether ``namespace.name`` can be read here (a missing one raises)."""
    return hasattr(namespace_object(namespace), name)


def module_implemented(module: str) -> bool:
    """Whether ``import module`` (PyTorch's name) works here."""
    try:
        importlib.import_module("minitorch_hooks" + module[len("torch"):])
    except ImportError:
        return False
    return True


def marks() -> dict[str, dict[str, str]]:
    """Each namespace's names with their marks (modules: PyTorch's one-dot modules)."""
    names, likely = pytorch_names(), likely_names()
    result = {}
    for namespace in NAMESPACES:
        result[namespace] = {
            name: IMPLEMENTED if implemented(namespace, name) else
            LIKELY if name in likely[namespace] else RARE
            for name in sorted(names[namespace], key=lambda n: (n.lower(), n))}
    result[MODULES] = {module: IMPLEMENTED if module_implemented(module) else RARE
                       for module in sorted(names[MODULES]) if module.count(".") == 1}
    return result


def _count(marked: dict[str, str], mark: str) -> int:
    return sum(1 for m in marked.values() if m == mark)


def render() -> str:
    table = marks()
    lines = [
        "# API coverage",
        "",
        "<!-- Generated by `python -m docs_tools.api_coverage` from what minitorch_hooks can "
        "import and PyTorch 2.13's public names (`minitorch_hooks/pytorch_names.txt`); do "
        "not edit by hand. -->",
        "",
        "How much of PyTorch 2.13's public API minitorch_hooks has, namespace by namespace. "
        "A name of PyTorch's that is missing here raises an error saying so, which is both "
        "an `AttributeError` (so `hasattr` and `getattr(obj, name, default)` still work) "
        "and a `NotImplementedError`; [What the library leaves out]"
        "(../explanation/left-out.md) says why whole areas are left out.",
        "",
        f"Marks: {IMPLEMENTED} implemented; {LIKELY} missing, and a learner of hooks is "
        f"likely to meet it (hook tutorials, Grad-CAM, model summaries and the models they "
        f"run on use it); {RARE} missing, rarely met in hook code.",
        "",
        "| namespace | implemented | of PyTorch's | missing, likely met | missing, rarely met |",
        "| --- | --- | --- | --- | --- |",
    ]
    titles = {namespace: f"`{namespace}`" for namespace in NAMESPACES}
    titles[MODULES] = "modules `torch.X`"
    for key, marked in table.items():
        lines.append(f"| [{titles[key]}](#{_anchor(key)}) | {_count(marked, IMPLEMENTED)} | "
                     f"{len(marked)} | {_count(marked, LIKELY)} | {_count(marked, RARE)} |")
    total = {mark: sum(_count(m, mark) for k, m in table.items() if k != MODULES)
             for mark in (IMPLEMENTED, LIKELY, RARE)}
    lines += [f"| names, all {len(NAMESPACES)} namespaces | {total[IMPLEMENTED]} | "
              f"{sum(total.values())} | {total[LIKELY]} | {total[RARE]} |", ""]
    for key, marked in table.items():
        lines += [f"## {titles[key]} {{#{_anchor(key)}}}", ""]
        likely = [name for name, mark in marked.items() if mark == LIKELY]
        if likely:
            lines += ["Missing, and likely to be met: " +
                      ", ".join(f"`{name}`" for name in likely) + ".", ""]
        lines += [", ".join(f"{mark} `{name}`" for name, mark in marked.items()), ""]
    return "\n".join(lines)


def _anchor(key: str) -> str:
    return key.replace(".", "-").lower()


def main(argv: list[str]) -> int:
    new = render()
    if "--check" in argv:
        if not PAGE.exists() or PAGE.read_text() != new:
            print(f"{PAGE.relative_to(ROOT)} is not current; run: python -m "
                  "docs_tools.api_coverage", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new)
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
