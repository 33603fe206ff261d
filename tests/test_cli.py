"""The ``minitorch-hooks`` command line and its tour.

Most tests call ``main([...])`` in-process and read what it printed with capsys; two run
``python -m minitorch_hooks`` in a subprocess, as a learner would. The expected gradients
below were worked out by hand, so these tests can fail without PyTorch; the conformance
tests at the end run every chapter's example on real PyTorch too and check that the tour
prints exactly PyTorch's values.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import os
import pathlib
import re
import subprocess
import sys

import pytest
from harness import pytorch_answer

import minitorch_hooks
from minitorch_hooks.__main__ import main
from minitorch_hooks.tour import CHAPTER_MODULES, chapters
from minitorch_hooks.tour.render import WIDTH, Style, render_chapter, render_next
from minitorch_hooks.tracing.registration import NOT_SEEN

CHAPTERS = chapters()
NUMBERS = [str(number) for number in range(1, len(CHAPTERS) + 1)]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)``'s exit code and what it printed on stdout and stderr."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


class Terminal(io.StringIO):
    """A stdout that says it is a terminal, as a person's shell would."""

    def isatty(self) -> bool:
        return True


def run_on_terminal(monkeypatch: pytest.MonkeyPatch, *argv: str) -> str:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main([*argv, "--no-pager"]) == 0
    return terminal.getvalue()


def unwrapped(number: str) -> str:
    """Chapter ``number`` as the tour renders it, without wrapping wide lines to fit the
    terminal: every line the example printed is one line here."""
    chapter = CHAPTERS[int(number) - 1]
    return render_chapter(int(number), len(CHAPTERS), chapter, minitorch_hooks,
                          Style(False), width=None)


# -- help and usage errors ------------------------------------------------------------------
def test_help_describes_the_tour_subcommand(capsys):
    code, out, err = run(capsys, "--help")
    assert (code, err) == (0, "")
    assert out.startswith("usage: minitorch-hooks")
    assert "tour" in out and "guided walk" in out


def test_tour_help_describes_every_option(capsys):
    code, out, _ = run(capsys, "tour", "--help")
    assert code == 0
    assert out.startswith("usage: minitorch-hooks tour")
    for option in ("--list", "--chapter N", "--all", "--no-color", "NO_COLOR", "--no-pager",
                   "PAGER"):
        assert option in out
    assert f"1 to {len(CHAPTERS)}" in out


def test_no_subcommand_prints_the_help_on_stderr_and_exits_2(capsys):
    code, out, err = run(capsys)
    assert (code, out) == (2, "")
    assert err.startswith("usage: minitorch-hooks") and "tour" in err


@pytest.mark.parametrize("argv", [
    ["--bogus"],
    ["bogus"],
    ["tour", "--bogus"],
    ["tour", "--chapter"],
    ["tour", "--chapter", "two"],
    ["tour", "--chapter", "0"],
    ["tour", "--chapter", str(len(CHAPTERS) + 1)],
    ["tour", "--list", "--chapter", "1"],
    ["tour", "--all", "--chapter", "1"],
])
def test_a_usage_error_prints_usage_on_stderr_and_exits_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("usage: minitorch-hooks")
    assert "error:" in err


# -- what the tour prints -------------------------------------------------------------------
def test_list_prints_the_numbered_chapter_titles(capsys):
    code, out, err = run(capsys, "tour", "--list")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines == [f"{n}. {chapter.title}" for n, chapter in enumerate(CHAPTERS, start=1)]
    subjects = ["plain Python", "register_hook", "retain_grad",
                "post_accumulate_grad", "graph nodes", "RemovableHandle",
                "register_forward_pre_hook", "register_forward_hook", "full backward",
                "Global module hooks", "inspecting module hooks", "register_backward_hook",
                "state_dict", "Registration hooks", "Saved-tensor hooks",
                "register_multi_grad_hook", "Optimizer hooks"]
    assert len(lines) == len(subjects)
    for line, subject in zip(lines, subjects):
        assert subject in line


@pytest.mark.parametrize("number", NUMBERS)
def test_chapter_prints_its_prose_its_code_and_that_code_s_output(number):
    chapter = CHAPTERS[int(number) - 1]
    out = unwrapped(number)
    assert out.startswith(f"Chapter {number} of {len(CHAPTERS)}: {chapter.title}\n")
    assert len(re.findall(r"^Chapter \d+ of", out, re.MULTILINE)) == 1
    shown = [line.removeprefix("    ") for line in out.splitlines()]
    code_lines = chapter.code().splitlines()
    start = shown.index(code_lines[0])
    assert shown[start:start + len(code_lines)] == code_lines
    printed = chapter.run(minitorch_hooks)
    assert printed, "the example printed nothing"
    start = shown.index(printed[0], start + len(code_lines))
    assert shown[start:start + len(printed)] == printed


@pytest.mark.parametrize("number", NUMBERS)
def test_the_code_shown_runs_on_its_own_and_prints_what_the_tour_shows(number):
    """Pasted into a fresh interpreter, the code on screen prints the tour's output."""
    chapter = CHAPTERS[int(number) - 1]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(chapter.code(), f"<chapter {number}>", "exec"), {})
    assert printed.getvalue().splitlines() == chapter.run(minitorch_hooks)


@pytest.mark.parametrize("number", NUMBERS)
def test_the_chapter_command_prints_the_chapter_then_the_way_on(capsys, number):
    code, out, err = run(capsys, "tour", "--chapter", number)
    assert (code, err) == (0, "")
    chapter = render_chapter(int(number), len(CHAPTERS), CHAPTERS[int(number) - 1],
                             minitorch_hooks, Style(False))
    assert out.startswith(chapter + "\n\n\n")
    if number == NUMBERS[-1]:
        assert "That is the tour." in out
    else:
        assert f"Next: minitorch-hooks tour --chapter {int(number) + 1}" in out


def test_the_tour_starts_with_the_chapter_list_and_chapter_1_only(capsys):
    code, out, err = run(capsys, "tour")
    assert (code, err) == (0, "")
    assert out.startswith("A tour of PyTorch's hooks")
    titles = [f"    {n}. {chapter.title}" for n, chapter in enumerate(CHAPTERS, start=1)]
    lines = out.splitlines()
    first = lines.index(titles[0])
    assert lines[first:first + len(titles)] == titles
    assert out.count(f"Chapter 1 of {len(CHAPTERS)}: ") == 1
    assert f"Chapter 2 of {len(CHAPTERS)}" not in out
    assert out.rstrip().endswith("--all for all of them)")
    assert "Next: minitorch-hooks tour --chapter 2" in lines


@pytest.mark.parametrize("argv", [["tour"], ["tour", "--all"], ["tour", "--list"],
                                  *(["tour", "--chapter", n] for n in NUMBERS)],
                         ids=lambda argv: "-".join(argv[1:]) or "default")
def test_every_line_fits_88_columns_and_wrapping_only_moves_words(capsys, argv):
    _, out, _ = run(capsys, *argv)
    too_wide = [line for line in out.splitlines() if len(line) > WIDTH]
    assert not too_wide
    if "--chapter" in argv:
        number = argv[-1]
        chapter = render_chapter(int(number), len(CHAPTERS), CHAPTERS[int(number) - 1],
                                 minitorch_hooks, Style(False))
        # Only whitespace differs (a URL longer than a line is cut where it must be).
        assert "".join(chapter.split()) == "".join(unwrapped(number).split())


def test_the_code_shown_fits_without_wrapping():
    """Code is never wrapped (it must stay runnable when pasted), so each line must fit
    inside the indented block as it is written."""
    for chapter in CHAPTERS:
        for line in chapter.code().splitlines():
            assert len(line) <= WIDTH - 4, (chapter.title, line)


def test_the_whole_tour_prints_every_chapter_in_order(capsys):
    code, out, err = run(capsys, "tour", "--all")
    assert (code, err) == (0, "")
    positions = [out.index(f"Chapter {n} of {len(CHAPTERS)}: {chapter.title}\n")
                 for n, chapter in enumerate(CHAPTERS, start=1)]
    assert positions == sorted(positions)


# Worked out by hand from each example's code, so they do not depend on PyTorch.
EXPECTED_LINES = {
    "package_pattern": [
        "pipeline(5) = 9",
        "  log:  after minus_one, the value is -1",
        "  late: after minus_one, 0",
        "pipeline(0) = 0",
    ],
    "leaf_hooks": [  # d/dx sum(x * x) = 2x = [2, 4, 6]; double() doubles what accumulates
        "watch  receives tensor([2., 4., 6.]) while x.grad is None",
        "after the first backward:  x.grad = tensor([ 4.,  8., 12.])",
        "watch  receives tensor([2., 4., 6.]) while x.grad is tensor([ 4.,  8., 12.])",
        "after the second backward: x.grad = tensor([ 8., 16., 24.])",
    ],
    "non_leaf_hooks": [  # y = 3x = [3, 6]; 2y = [6, 12], halved [3, 6]; x gets 3 * that
        "y.is_leaf = False   y.grad_fn.name() = MulBackward0",
        "halve receives tensor([ 6., 12.])",
        "y.grad = tensor([3., 6.])",
        "x.grad = tensor([ 9., 18.])",
    ],
    "post_accumulate_grad_hooks": [  # grad 2w = [2, -2]; w - 0.1 * grad = [0.8, -0.8]
        "sgd_step receives the tensor itself, with param.grad = tensor([ 2., -2.])",
        "after backward: w = tensor([ 0.8000, -0.8000], requires_grad=True) and w.grad = None",
        "on a non-leaf: post accumulate grad hooks cannot be registered on non-leaf tensors",
    ],
    "node_hooks": [  # y = 3x, loss = sum(y): dloss/dy = 1, dloss/dx = 3
        "1. y's tensor hook:          grad = tensor([1., 1.])",
        "2. MulBackward0's prehook:   grad_outputs = (tensor([1., 1.]),)",
        "3. MulBackward0's hook:      grad_inputs = (tensor([3., 3.]), None)",
        "4. x's tensor hook:          grad = tensor([3., 3.])",
        "5. x's post-accumulate hook: x.grad = tensor([3., 3.])",
    ],
    "removing_hooks": [  # d/dx sum(x) = 1, tripled while the hook is registered
        "with the hook: tensor([3., 3.])",
        "after remove(): tensor([1., 1.])",
        "inside the with block: tensor([3., 3.])",
        "after the with block: tensor([1., 1.])",
    ],
    "forward_pre_hooks": [  # 11 + 2 + 3; [1, 2] doubled; [1, 2] + [0.5, -0.25]
        "add_ten_to_a receives SumNet and args = (tensor(1.), tensor(2.), tensor(3.))",
        "model(1, 2, 3) = tensor(16.)",
        "with double: tensor([2., 4.])",
        "three_params: TypeError: ... missing 1 required positional argument: "
        "'input_kwargs'",
        "input shape: torch.Size([2])",
        "RuntimeError: forward pre-hook must return None or a tuple of (new_args, "
        "new_kwargs), but got (tensor([1.5000, 1.7500]),).",
        "noise_with_kwargs receives args = (tensor([1., 2.]),) and kwargs = {}",
        "with noise_with_kwargs: tensor([1.5000, 1.7500])",
    ],
    "forward_hooks": [  # SumNet: (1 + 10) + 2 + 3 + 100; then 1 + 2 + 3, plus 100
        "forward_pre_hook",
        "forward",
        "forward_hook",
        "tensor(116., grad_fn=<AddBackward0>)",
        "forward",
        "runs_first sees output = tensor(6., grad_fn=<AddBackward0>)",
        "forward_hook",
        "sees_kwargs sees 2 args and kwargs = {'c': tensor(3., requires_grad=True)}",
        "sees_kwargs sees output = tensor(106., grad_fn=<AddBackward0>)",
        "tensor(106., grad_fn=<AddBackward0>)",
        "cleanup runs, with output = None",
        "and then the error propagates: ValueError: forward failed",
    ],
    "backward_hooks": [  # out = x1 * x2 * W: grads (x2 * W, x1 * W) = (15, 5), W's x1 * x2
        "output = tensor([15.], grad_fn=<BackwardHookFunctionBackward>)",
        "pre-hook: grad_output = (tensor([1.]),)",
        "hook:     grad_input = (tensor([15.]), tensor([5.]))",
        *["UserWarning: To copy construct from a tensor, it is recommended to use "
          "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
          ".requires_grad_(True), rather than torch.tensor(sourceTensor)."] * 2,
        "x1.grad = tensor([0.7500])  x2.grad = tensor([0.2500])  W.grad = tensor([3.])",
        "pre-hook: grad_output = (tensor([1.]),)",
        "hook:     grad_input = (tensor([15.]), None)",
        "pre-hook: grad_output = (tensor([1.]),)",
        "hook:     grad_input = (None, None)",
        "UserWarning: Full backward hook is firing when gradients are computed with respect "
        "to module outputs since no inputs require gradients. See https://docs.pytorch.org/"
        "docs/main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook"
        " for more details.",
    ],
    "global_hooks": [  # forward nests like the calls; backward runs from the output back
        "forward pre-hook   global model (Sequential)",
        "forward pre-hook   global 0 (Linear)",
        "forward pre-hook   local  0 (Linear)",
        "forward hook       global 0 (Linear)",
        "forward hook       local  0 (Linear)",
        "forward pre-hook   global 1 (ReLU)",
        "forward hook       global 1 (ReLU)",
        "forward hook       global model (Sequential)",
        "-- backward --",
        "backward pre-hook  global model (Sequential)",
        "backward pre-hook  global 1 (ReLU)",
        "backward hook      global 1 (ReLU)",
        "backward pre-hook  global 0 (Linear)",
        "backward pre-hook  local  0 (Linear)",
        "backward hook      global 0 (Linear)",
        "backward hook      local  0 (Linear)",
        "backward hook      global model (Sequential)",
    ],
    "removing_module_hooks": [  # ones(4, 10) -> Linear(10, 20) -> ReLU -> Linear(20, 5)
        "model[0] keeps its hooks in dictionaries:",
        "  _forward_pre_hooks: OrderedDict of ['logging_hook']",
        "  _forward_hooks: OrderedDict of ['count']",
        "  _backward_hooks: OrderedDict of ['on_grads']",
        "keyed by the handle's id: True",
        "model(x) with the hooks:",
        "  Linear: input shape torch.Size([4, 10])",
        "  ReLU: input shape torch.Size([4, 20])",
        "  Linear: input shape torch.Size([4, 20])",
        "after remove():",
        "  _forward_pre_hooks: OrderedDict of []",
        "  _forward_hooks: OrderedDict of []",
        "  _backward_hooks: OrderedDict of []",
        "model(x) without them prints nothing",
        *[f"epoch {n}: {n} forward hook(s) on model[2], count ran {n} time(s)"
          for n in (1, 2, 3)],
        *[f"epoch {n}: 1 forward hook(s) on model[2], count ran 1 time(s)" for n in (1, 2, 3)],
    ],
    "legacy_backward_hooks": [  # the last op is (x1 * x2) * W: its grads are W and x1 * x2
        "FutureWarning: Using a non-full backward hook when the forward contains multiple "
        "autograd Nodes is deprecated and will be removed in future versions. This hook will "
        "be missing some grad_input. Please use register_full_backward_hook to get the "
        "documented behavior.",
        "the hook is on output.grad_fn: MulBackward0",
        "legacy hook: grad_input = (tensor([5.]), tensor([3.]))",
        "full hook:   grad_input = (tensor([15.]), tensor([5.]))",
        "RuntimeError: Cannot use both regular backward hooks and full backward hooks on a "
        "single Module. Please use only one of them.",
    ],
    "state_dict_hooks": [  # model[0] sits at prefix "0."; the checkpoint's 3 replaces 2
        "state_dict pre-hook:  prefix = '0.'",
        "state_dict post-hook: keys = ['0.weight'], metadata = {'version': 1}",
        "saved: {'0.weight': tensor([2.])}",
        'without the pre-hook: Missing key(s) in state_dict: "0.weight". Unexpected key(s) '
        'in state_dict: "0.scale".',
        "load post-hook: <All keys matched successfully>",
        "loaded: model[0].weight = Parameter containing:",
        "tensor([3.], requires_grad=True)",
    ],
    "registration_hooks": [  # children are built (and register theirs) before Sequential
        "buffer mean registered on a Normalise",
        "parameter weight [2, 3] registered on a Linear",
        "parameter bias [2] registered on a Linear",
        "module 2: a ReLU, registered as a Tanh instead",
        "Sequential(",
        "  (0): Normalise()",
        "  (1): Linear(in_features=3, out_features=2, bias=True)",
        "  (2): Tanh()",
        ")",
    ],
    "saved_tensor_hooks": [  # mul saves w (for x's gradient), then x; x.grad = 10w
        "pack:   a tensor of shape [2] kept as number 0",
        "pack:   a tensor of shape [2] kept as number 1",
        "forward is over; backward starts",
        "unpack: number 0, tensor([3., 4.])",
        "unpack: number 1, tensor([1., 2.])",
        "x.grad = tensor([30., 40.])  w.grad = tensor([10., 20.])",
    ],
    "multi_grad_hooks": [  # d(a * b)/da = b = 3 (broadcast), d/db = sum(a) = 3
        "any: tensor([3., 3.])",
        "all: [tensor([3., 3.]), tensor([3.]), None]",
        "a.grad = tensor([3., 3.])  b.grad = tensor([3.])",
        "all: [tensor([2., 2.]), None, None]",
        "any: tensor([2., 2.])",
        "after remove(): no hook ran",
    ],
    "optimizer_hooks": [  # SGD: weight - 0.1 * grad, grad = 2 * weight; the buffer = grad
        "step pre-hook:  weight = tensor([ 1., -2.]), args[0] is the optimizer: True, "
        "kwargs = {}",
        "step post-hook: weight = tensor([ 0.8000, -1.6000])",
        "state_dict post-hook: keys = ['state', 'param_groups', 'epoch']",
        "state: {0: {'momentum_buffer': tensor([ 2., -4.])}}",
        "load_state_dict pre-hook: epoch = 1",
    ],
}

# Timelines worked out by hand where PyTorch cannot check them (its graph nodes cannot be
# watched), or where the order is the lesson. Each row: phase, kind, where, the call.
EXPECTED_TIMELINES = {
    "node_hooks": [  # y = x * 3, both of shape [2]; the number 3 gets no gradient (None)
        "backward: tensor hook on output of MulBackward0: on_y(grad=[2])",
        "backward: node pre-hook on MulBackward0: before_mul(grad_outputs=([2],))",
        "backward: node hook on MulBackward0: after_mul(grad_inputs=([2], None), "
        "grad_outputs=([2],))",
        "backward: tensor hook on leaf tensor [2]: on_x(grad=[2])",
        "backward: post-accumulate-grad hook on leaf tensor [2]: after_accumulate(tensor=[2])",
    ],
    "forward_pre_hooks": [  # the three-parameter hook raises; the others replace
        "forward: forward pre-hook on SumNet: add_ten_to_a(args=([], [], [])) -> replaced",
        "forward: forward pre-hook on Identity: double(args=([2],)) -> replaced",
        "forward: forward pre-hook on Identity: three_params(args=([2],)) -> raised TypeError",
        "forward: forward pre-hook on Identity: log_shape(args=([2],))",
        "forward: forward pre-hook on Identity: noise_args_only(args=([2],), kwargs={}) "
        "-> replaced",
        "forward: forward pre-hook on Identity: noise_with_kwargs(args=([2],), kwargs={}) "
        "-> replaced",
    ],
    "global_hooks": [  # chapter 10's printed order, now with what each hook received
        "forward: global forward pre-hook on Sequential: hook(args=([1, 2],))",
        "forward: global forward pre-hook on 0 (Linear): hook(args=([1, 2],))",
        "forward: forward pre-hook on 0 (Linear): hook(args=([1, 2],))",
        "forward: global forward hook on 0 (Linear): hook(args=([1, 2],), output=[1, 2])",
        "forward: forward hook on 0 (Linear): hook(args=([1, 2],), output=[1, 2])",
        "forward: global forward pre-hook on 1 (ReLU): hook(args=([1, 2],))",
        "forward: global forward hook on 1 (ReLU): hook(args=([1, 2],), output=[1, 2])",
        "forward: global forward hook on Sequential: hook(args=([1, 2],), output=[1, 2])",
        "backward: global backward pre-hook on Sequential: hook(grad_output=([1, 2],))",
        "backward: global backward pre-hook on 1 (ReLU): hook(grad_output=([1, 2],))",
        "backward: global backward hook on 1 (ReLU): hook(grad_input=([1, 2],), "
        "grad_output=([1, 2],))",
        "backward: global backward pre-hook on 0 (Linear): hook(grad_output=([1, 2],))",
        "backward: backward pre-hook on 0 (Linear): hook(grad_output=([1, 2],))",
        "backward: global backward hook on 0 (Linear): hook(grad_input=([1, 2],), "
        "grad_output=([1, 2],))",
        "backward: backward hook on 0 (Linear): hook(grad_input=([1, 2],), "
        "grad_output=([1, 2],))",
        "backward: global backward hook on Sequential: hook(grad_input=([1, 2],), "
        "grad_output=([1, 2],))",
    ],
    "registration_hooks": [  # what each hook was handed, and which one answered
        "registration: buffer registration hook on Normalise: log_buffer(name='mean', "
        "buffer=[3])",
        "registration: parameter registration hook on Linear: log_parameter(name='weight', "
        "param=[2, 3])",
        "registration: parameter registration hook on Linear: log_parameter(name='bias', "
        "param=[2])",
        "registration: module registration hook on Sequential: swap_relu(name='0', "
        "module=Normalise)",
        "registration: module registration hook on Sequential: swap_relu(name='1', "
        "module=Linear)",
        "registration: module registration hook on Sequential: swap_relu(name='2', "
        "module=ReLU) -> replaced",
    ],
}


def test_every_chapter_has_hand_computed_expectations():
    assert sorted(EXPECTED_LINES) == sorted(CHAPTER_MODULES)


@pytest.mark.parametrize("name", CHAPTER_MODULES)
def test_chapter_prints_the_hand_computed_values_in_order(name):
    number = str(CHAPTER_MODULES.index(name) + 1)
    out = unwrapped(number)
    shown = [line.removeprefix("    ") for line in out.splitlines()]
    position = -1
    for line in EXPECTED_LINES[name]:  # a line may repeat: look for each after the last
        assert line in shown[position + 1:], f"missing, or out of order: {line!r}"
        position = shown.index(line, position + 1)


@pytest.mark.parametrize("name", sorted(EXPECTED_TIMELINES))
def test_chapter_traces_the_hand_computed_timeline(name):
    chapter = CHAPTERS[CHAPTER_MODULES.index(name)]
    _, recorded = chapter.run_traced(minitorch_hooks)
    assert [event.line() for event in recorded.events] == EXPECTED_TIMELINES[name]


def test_each_chapter_prints_its_timeline_after_its_output():
    number = CHAPTER_MODULES.index("node_hooks") + 1
    out = unwrapped(str(number))
    output_at = out.index("What it printed, run just now:")
    timeline_at = out.index(
        "The hooks that fired, in order, as minitorch_hooks.hook_trace saw them:")
    assert output_at < timeline_at < out.index(inspect.cleandoc(CHAPTERS[number - 1].outro))
    rows = [line.strip() for line in out[timeline_at:].splitlines()[2:8]]
    assert rows[0].split() == ["#", "phase", "kind", "where", "hook(what", "it",
                               "received)", "->", "result"]
    assert [row.split()[0] for row in rows[1:]] == ["1", "2", "3", "4", "5"]
    assert rows[3].endswith("after_mul(grad_inputs=([2], None), grad_outputs=([2],))")


def test_a_chapter_without_hooks_says_so():
    _, recorded = CHAPTERS[CHAPTER_MODULES.index("package_pattern")].run_traced(minitorch_hooks)
    assert recorded.text() == "(no hook fired)"
    number = str(CHAPTER_MODULES.index("package_pattern") + 1)
    assert "trace sees only the library's hooks" in unwrapped(number)
    assert "The hooks that fired" not in unwrapped(number)


def _global_module_hooks(torch) -> list:
    """Every hook registered with torch.nn.modules.module.register_module_*."""
    registry = torch.nn.modules.module
    return [*registry._global_forward_pre_hooks.values(),
            *registry._global_forward_hooks.values(),
            *registry._global_backward_pre_hooks.values(),
            *registry._global_backward_hooks.values()]


@pytest.mark.parametrize("library", ["minitorch_hooks", "torch"])
def test_the_global_hooks_chapter_leaves_no_global_hook_behind(library):
    """Global hooks would fire in every later chapter (and test) if the example kept them."""
    def leaves_none(torch) -> bool:
        before = _global_module_hooks(torch)
        CHAPTERS[CHAPTER_MODULES.index("global_hooks")].run(torch)
        return _global_module_hooks(torch) == before

    if library == "minitorch_hooks":
        assert leaves_none(minitorch_hooks)
    else:
        assert pytorch_answer(leaves_none)


# -- colour and determinism -----------------------------------------------------------------
def test_no_colour_when_stdout_is_not_a_terminal(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    _, out, _ = run(capsys, "tour")
    assert "\x1b" not in out


def test_colour_on_a_terminal_changes_nothing_but_the_colour(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    coloured = run_on_terminal(monkeypatch, "tour")
    assert ANSI.search(coloured)
    monkeypatch.undo()
    _, plain, _ = run(capsys, "tour")
    assert ANSI.sub("", coloured) == plain


@pytest.mark.parametrize(("argv", "no_color"), [
    (["tour", "--no-color"], None),
    (["tour"], "1"),
])
def test_no_colour_on_a_terminal_when_asked(monkeypatch, argv, no_color):
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert "\x1b" not in run_on_terminal(monkeypatch, *argv)


def test_an_empty_no_color_variable_does_not_turn_colour_off(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: only a non-empty value counts
    assert ANSI.search(run_on_terminal(monkeypatch, "tour", "--chapter", "1"))


def test_the_tour_prints_the_same_text_every_time(capsys):
    _, first, _ = run(capsys, "tour", "--all")
    _, second, _ = run(capsys, "tour", "--all")
    assert first == second
    assert not re.search(r"0x[0-9a-f]{4,}", first), "a memory address leaked into the tour"


# -- as a learner runs it -------------------------------------------------------------------
def _module_command(*argv: str) -> tuple[list[str], dict[str, str]]:
    """``python -m minitorch_hooks argv``, importing the same copy of the package as
    these tests, with colour settings left to the command."""
    source_root = str(pathlib.Path(minitorch_hooks.__file__).resolve().parent.parent)
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = os.pathsep.join([source_root, *filter(None, [env.get("PYTHONPATH")])])
    return [sys.executable, "-m", "minitorch_hooks", *argv], env


def test_python_dash_m_prints_the_same_tour_as_main(capsys):
    _, in_process, _ = run(capsys, "tour")
    command, env = _module_command("tour")
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120,
                            check=False)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == in_process


def test_a_reader_that_stops_early_gets_no_traceback():
    """``minitorch-hooks tour | head -1``: the pipe closes before the tour is printed."""
    command, env = _module_command("tour")
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with EPIPE, as it does once head has quit
    try:
        result = subprocess.run(command, stdout=write_end, stderr=subprocess.PIPE, text=True,
                                env=env, timeout=120, check=False)
    finally:
        os.close(write_end)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr


# -- conformance: the tour prints what real PyTorch prints ------------------------------------
@pytest.mark.parametrize("number", NUMBERS)
def test_chapter_prints_what_pytorch_prints_and_fires_the_same_hooks(capsys, number):
    """The output and the timeline, against PyTorch traced by wrapping its hooks at
    registration. That cannot see graph-node hooks, so they are left out of the timeline
    comparison (EXPECTED_TIMELINES checks chapter 5's by hand), and the whole text is
    compared only where there are none."""
    chapter = CHAPTERS[int(number) - 1]

    def on_pytorch(torch) -> tuple:
        lines, trace = chapter.run_traced(torch)
        rendered = render_chapter(int(number), len(CHAPTERS), chapter, torch, Style(False))
        return lines, [e.line() for e in trace.events], rendered

    their_lines, their_timeline, their_chapter = pytorch_answer(on_pytorch)
    our_lines, ours = chapter.run_traced(minitorch_hooks)
    assert our_lines == their_lines
    assert [e.line() for e in ours.events if e.kind not in NOT_SEEN] == their_timeline
    if all(e.kind not in NOT_SEEN for e in ours.events):
        _, out, _ = run(capsys, "tour", "--chapter", number)
        way_on = render_next(int(number), len(CHAPTERS), Style(False))
        assert out == their_chapter + "\n\n\n" + way_on + "\n"


# -- the pager --------------------------------------------------------------------------------
def run_paged(monkeypatch, tmp_path, pager: str | None, *argv: str, rows: int = 24):
    """Run ``argv`` at a pretend terminal of ``rows`` lines with ``PAGER`` set to
    ``pager`` (``None``: unset); return what reached the terminal and the pager's file."""
    paged = tmp_path / "paged.txt"
    if pager is None:
        monkeypatch.delenv("PAGER", raising=False)
    else:
        monkeypatch.setenv("PAGER", pager.format(file=paged))
    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((88, rows)))
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(list(argv)) == 0
    return terminal.getvalue(), paged.read_text() if paged.exists() else None


def test_long_text_at_a_terminal_goes_through_pager(monkeypatch, tmp_path):
    """The pager's first screen says how to page and quit; the way on is shown at the
    end and printed again after the pager closes, so quitting early does not lose it."""
    from minitorch_hooks.cli.pager import KEYS

    on_screen, paged = run_paged(monkeypatch, tmp_path, "cat > {file}", "tour", "--chapter", "2")
    way_on = ANSI.sub("", render_next(2, len(CHAPTERS), Style(False)))
    assert ANSI.sub("", on_screen) == way_on + "\n"
    keys, _, text = ANSI.sub("", paged).partition("\n\n")
    assert keys == KEYS and "q: quit" in keys
    assert text.startswith(f"Chapter 2 of {len(CHAPTERS)}:")
    assert text.rstrip("\n").endswith(way_on)


def test_text_that_fits_the_window_is_not_paged(monkeypatch, tmp_path):
    on_screen, paged = run_paged(monkeypatch, tmp_path, "cat > {file}", "tour", "--list",
                                 rows=100)
    assert paged is None and on_screen.startswith("1. ")


@pytest.mark.parametrize("how", ["--no-pager", "PAGER=", "PAGER=missing", "piped"])
def test_no_pager_when_asked_empty_missing_or_piped(monkeypatch, tmp_path, capsys, how):
    if how == "piped":
        monkeypatch.setenv("PAGER", f"cat > {tmp_path / 'paged.txt'}")
        code, out, _ = run(capsys, "tour", "--chapter", "2")
        assert code == 0 and out.startswith("Chapter 2 of")
        assert not (tmp_path / "paged.txt").exists()
        return
    pager = {"--no-pager": "cat > {file}", "PAGER=": "",
             "PAGER=missing": "no-such-pager-here -R"}[how]
    argv = ["tour", "--chapter", "2"] + (["--no-pager"] if how == "--no-pager" else [])
    on_screen, paged = run_paged(monkeypatch, tmp_path, pager, *argv)
    assert paged is None
    assert ANSI.sub("", on_screen).startswith("Chapter 2 of")


def test_the_default_pager_is_less_keeping_colours(monkeypatch):
    from minitorch_hooks.cli.pager import pager_command

    monkeypatch.delenv("PAGER", raising=False)
    monkeypatch.setattr("shutil.which", lambda name: f"/usr/bin/{name}")
    assert pager_command() == "less -R"
