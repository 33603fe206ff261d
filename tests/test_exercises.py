"""The tutorial exercises are honest, and ``minitorch-hooks start`` / ``check`` work.

Honest means: every check passes on the reference solution and fails on the untouched
starter file, where it reaches a gap that still raises ``NotImplementedError``; with the
gaps of steps 1..K filled in, exactly the checks of steps 1..K pass, so no check depends
on a later step. The starter is the solution with its gaps emptied
(``tests/exercise_gaps.py``), character for character. The solutions also run on real
PyTorch, with their ``import minitorch_hooks as torch`` line swapped for ``import torch``:
what the exercises teach is PyTorch's behaviour. Without PyTorch, ``check`` compares with
PyTorch's answers recorded in ``pytorch_answers.json``: they must still be what PyTorch
answers, every solution must pass against them, and a value that differs must fail. Each
exercise file also runs as a script, which is how its notebook cells run, and one is
converted and executed as a notebook.
"""

from __future__ import annotations

import copy
import io
import re
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from exercise_gaps import GAP_START, fill, split_gaps, starter_text
from harness import pytorch_answer, real_torch

import minitorch_hooks
from minitorch_hooks.__main__ import main
from minitorch_hooks.cli.hint_memory import FILENAME
from minitorch_hooks.tutorials import EXERCISE_FOLDERS, EXERCISES, answers, record_answers
from minitorch_hooks.tutorials.checking import (
    TORCH_IMPORT,
    CheckFailed,
    check_source,
    load,
    run_check,
    run_exercise,
)

IDS = [exercise.name for exercise in EXERCISES]
CHECKS = [(exercise, check) for exercise in EXERCISES for check in exercise.checks()]
CHECK_IDS = [f"{exercise.name}-step{check.step}-{check.function.__name__}"
             for exercise, check in CHECKS]
COMPARED = [(exercise, check) for exercise, check in CHECKS if check.compare_with_pytorch]
COMPARED_IDS = [id_ for (_, check), id_ in zip(CHECKS, CHECK_IDS) if check.compare_with_pytorch]
RECORDED = "recorded PyTorch 2.13"


def results(exercise, path, torch=minitorch_hooks, library="minitorch_hooks"):
    module = load(path, library)
    return [run_check(check, module, torch, exercise.number) for check in exercise.checks()]


# -- the layout --------------------------------------------------------------------------
def test_the_exercises_are_numbered_folders_in_order():
    assert len(EXERCISES) >= 10
    for exercise in EXERCISES:
        assert exercise.name.startswith(f"ex{exercise.number:02d}_")
        for path in (exercise.text, exercise.starter, exercise.solution,
                     exercise.folder / "checks.py"):
            assert path.is_file(), path
    folders = {path.name for path in EXERCISES[0].folder.parent.glob("ex*_*") if path.is_dir()}
    assert folders == set(EXERCISE_FOLDERS)


def test_the_top_level_tutorials_folder_is_the_package_s():
    linked = Path(__file__).parents[1] / "tutorials"
    assert linked.resolve() == EXERCISES[0].folder.parent.resolve()


def test_the_index_lists_every_exercise():
    index = (EXERCISES[0].folder.parent / "README.md").read_text(encoding="utf-8")
    for exercise in EXERCISES:
        assert (f"| {exercise.number} | [{exercise.title}]({exercise.name}/README.md) | "
                f"`{exercise.starter.name}` |") in index


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_the_text_names_the_file_the_functions_and_the_command(exercise):
    text = exercise.text.read_text(encoding="utf-8")
    assert text.startswith(f"# Exercise {exercise.number}: {exercise.title}\n")
    assert f"**File:** `{exercise.starter.name}`" in text
    assert "**fill in:**" in text
    assert f"`minitorch-hooks check {exercise.number}`" in text


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_the_starter_is_the_solution_with_its_gaps_emptied(exercise):
    assert exercise.starter.read_text(encoding="utf-8") == starter_text(exercise), (
        "the starter differs from its solution outside the gaps: after editing "
        "solution.py, run 'python tests/exercise_gaps.py'")


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_every_step_has_a_gap_and_checks_in_order(exercise):
    steps = {step for step, _ in split_gaps(exercise.solution.read_text(encoding="utf-8"))
             if step is not None}
    checked = [check.step for check in exercise.checks()]
    assert checked == sorted(checked)
    assert steps == set(checked) == set(range(1, max(steps) + 1))
    for check in exercise.checks():
        assert check.title


def clauses(solution):
    """The pieces of a solution line that would give it away: its clauses of 12 characters
    or more, split at '; ', ': ' and ', '."""
    return [piece for piece in re.split(r"; |: |, ", solution) if len(piece) >= 12]


@pytest.mark.parametrize(("exercise", "check"), CHECKS, ids=CHECK_IDS)
def test_every_check_has_a_nudge_a_pointer_and_a_solution_that_differ(exercise, check):
    """The help comes in stages, and a stage must not give the next away: a nudge says
    which value or rule to look at, never the line to type."""
    help_ = (check.nudge, check.pointer, check.solution)
    assert all(text.strip() for text in help_) and len(set(help_)) == 3
    assert check.solution not in check.nudge and check.solution not in check.pointer
    for piece in clauses(check.solution):
        assert piece not in check.nudge, (piece, check.nudge)


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_the_files_are_notebooks_whose_code_cells_stand_alone(exercise):
    """Jupytext's percent format: ``# %%`` starts a code cell, ``# %% [markdown]`` a
    text cell. Each code cell must compile by itself (a cell boundary inside a class
    would not), and the last one is the demonstration, run only as ``__main__``."""
    for path in (exercise.starter, exercise.solution):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# %% [markdown]\n")
        cells = re.split(r"^# %%(.*)\n", text, flags=re.MULTILINE)[1:]
        code = [body for kind, body in zip(cells[::2], cells[1::2]) if kind == ""]
        assert len(code) >= 2
        for body in code:
            compile(body, str(path), "exec")
        assert code[-1].lstrip().startswith('if __name__ == "__main__":')


# -- honesty -------------------------------------------------------------------------------
@pytest.mark.parametrize(("exercise", "check"), CHECKS, ids=CHECK_IDS)
def test_the_check_passes_on_the_solution(exercise, check):
    result = run_check(check, load(exercise.solution), minitorch_hooks, exercise.number)
    assert (result.status, result.detail) == ("pass", "")


@pytest.mark.parametrize(("exercise", "check"), CHECKS, ids=CHECK_IDS)
def test_the_check_passes_on_the_solution_run_on_pytorch(exercise, check):
    """The check's scenario is PyTorch code too: on real PyTorch (live, or as it answered
    when recorded) the solution passes it."""
    def outcome(torch):
        result = run_check(check, load(exercise.solution, "torch"), torch, exercise.number)
        return [result.status, result.detail]

    assert pytorch_answer(outcome) == ["pass", ""]


# -- PyTorch's recorded answers ------------------------------------------------------------
def stale_answers(shipped: dict, live: dict) -> list[str]:
    """The checks whose shipped answers are not what PyTorch answered live, by the same
    comparison ``check`` makes with them (``answers.Compare``), each with the reason."""
    stale = []
    for exercise, checks in live["answers"].items():
        for name, asked in checks.items():
            recorded = shipped["answers"].get(exercise, {}).get(name)
            compare = answers.Compare(recorded or [], "the recording")
            try:
                for answer in asked:
                    if "close" in answer:
                        value = np.array(answer["close"], dtype=float).reshape(answer["shape"])
                        compare.close(value, value, answer["what"])
                    else:
                        compare.equal(answer["equal"], answer["equal"], answer["what"])
                if recorded is None or compare.used != len(recorded):
                    raise CheckFailed(f"{len(recorded or [])} answers recorded, "
                                      f"{len(asked)} given")
            except CheckFailed as failure:
                stale.append(f"{exercise}.{name}: {failure}")
    stale += [f"{exercise}.{name}: recorded, but no longer a comparison check"
              for exercise, checks in shipped["answers"].items() for name in checks
              if name not in live["answers"].get(exercise, {})]
    return stale


def test_the_recorded_answers_are_what_pytorch_answers_now():
    torch = real_torch()
    shipped, live = answers.read(), record_answers.ask_pytorch()
    assert shipped["pytorch"] == torch.__version__.split("+")[0]
    stale = stale_answers(shipped, live)
    assert not stale, (f"{answers.ANSWERS.name} is stale; run "
                       f"`{answers.REGENERATE}`:\n" + "\n".join(stale))


def test_a_stale_answer_is_named():
    shipped = answers.read()
    live = copy.deepcopy(shipped)
    live["answers"]["ex16_grad_cam"]["maps_of_the_predicted_classes"][1]["close"][5] += 0.5
    live["answers"]["ex09_module_call"]["the_whole_call"][0]["equal"][1][1] = 16
    del live["answers"]["ex17_attention_maps"]["rollout_matches"]
    stale = stale_answers(shipped, live)
    assert [line.split(":")[0] for line in stale] == [
        "ex09_module_call.the_whole_call", "ex16_grad_cam.maps_of_the_predicted_classes",
        "ex17_attention_maps.rollout_matches"]
    assert stale_answers(shipped, shipped) == []


def test_the_answers_file_is_small_and_written_one_answer_a_line():
    text = answers.ANSWERS.read_text(encoding="utf-8")
    assert len(text.encode()) < 300_000
    assert record_answers.dumps(answers.read()) == text


@pytest.mark.parametrize(("exercise", "check"), COMPARED, ids=COMPARED_IDS)
def test_the_solution_passes_against_pytorch_s_recorded_answers(exercise, check):
    result = answers.run_recorded(check, load(exercise.solution), exercise.number,
                                  answers.read())
    assert (result.status, result.detail, result.library) == ("pass", "", RECORDED)


def run_recorded_with(exercise_number, name, change):
    """The recorded comparison of a check on its solution, after ``change(its answers)``."""
    exercise = EXERCISES[exercise_number - 1]
    check = next(check for check in exercise.checks() if check.function.__name__ == name)
    recorded = copy.deepcopy(answers.read())
    change(recorded["answers"][exercise.name])
    return answers.run_recorded(check, load(exercise.solution), exercise.number, recorded)


def test_a_value_unlike_pytorch_s_recorded_one_fails():
    def nudge(checks):
        checks["captures_the_last_convolution"][1]["close"][3] += 1e-3

    result = run_recorded_with(16, "captures_the_last_convolution", nudge)
    assert result.status == "fail"
    assert result.detail.startswith("the stored gradients differs from what PyTorch 2.13 "
                                    "computed (recorded): at [0, 0, 0, 3] yours is ")
    assert len(result.detail) < 200, "a failure names one element, not the whole tensor"


def test_an_outcome_unlike_pytorch_s_recorded_one_fails():
    def other_warning(checks):
        checks["always_call_after_a_failing_forward"][2]["equal"] = []

    result = run_recorded_with(9, "always_call_after_a_failing_forward", other_warning)
    assert result.status == "fail"
    assert result.detail.startswith("the warnings differ from what PyTorch 2.13 gave "
                                    "(recorded): yours are [\"UserWarning: module forward")


def test_a_solution_that_computes_otherwise_fails_against_the_recording(tmp_path, monkeypatch):
    """minitorch_hooks' own answer is made wrong the same way as the learner's, so only the
    comparison with PyTorch's recorded answers can see it."""
    import minitorch_hooks.nn.functional as functional

    relu = functional.relu
    monkeypatch.setattr(functional, "relu", lambda x, *args, **kwargs: relu(x) * 1.01)
    exercise = EXERCISES[15]
    check = next(check for check in exercise.checks()
                 if check.function.__name__ == "maps_of_the_predicted_classes")
    module = load(exercise.solution)
    assert run_check(check, module, minitorch_hooks, exercise.number).status == "pass"
    result = answers.run_recorded(check, module, exercise.number, answers.read())
    assert result.status == "fail" and "computed (recorded)" in result.detail, result.detail


@pytest.mark.parametrize(("change", "says"), [
    (lambda checks: checks.pop("captures_the_last_convolution"),
     "PyTorch 2.13's answers to ex16_grad_cam's captures_the_last_convolution are missing"),
    (lambda checks: checks["captures_the_last_convolution"].pop(),
     "comparison 2 (the stored gradients) has no recorded answer of PyTorch 2.13"),
    (lambda checks: checks["captures_the_last_convolution"].append(
        checks["captures_the_last_convolution"][0]),
     "the check made 2 comparisons, and PyTorch 2.13 answered 3 when it was recorded"),
    (lambda checks: checks["captures_the_last_convolution"][0].update(what="renamed"),
     "comparison 1 (the stored activations) has no recorded answer of PyTorch 2.13"),
], ids=["check", "answer", "extra-answer", "renamed"])
def test_a_missing_or_extra_answer_fails_and_says_so(change, says):
    result = run_recorded_with(16, "captures_the_last_convolution", change)
    assert result.status == "fail"
    assert result.detail.startswith(f"{says}: the recordings in pytorch_answers.json do not "
                                    "fit this check, so it cannot be compared with PyTorch")
    assert answers.REGENERATE in result.detail


def test_recorded_mode_can_be_asked_for_where_pytorch_is_installed(monkeypatch):
    monkeypatch.setenv("MTH_CONFORMANCE", "recorded")
    exercise = EXERCISES[10]
    results = run_exercise(exercise.number, exercise.checks(), exercise.solution)
    assert [r.library for r in results] == ["minitorch_hooks", RECORDED] * len(exercise.checks())
    assert {r.status for r in results} == {"pass"}


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_every_check_fails_on_the_untouched_starter(exercise):
    for result in results(exercise, exercise.starter):
        assert result.status == "todo", (result.check.title, result.detail)
        assert re.fullmatch(rf"Exercise {exercise.number}, step \d+: .+", result.detail)


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_filling_steps_one_by_one_passes_their_checks_and_no_others(exercise, tmp_path):
    solution = exercise.solution.read_text(encoding="utf-8")
    last = max(check.step for check in exercise.checks())
    for done in range(1, last):
        path = tmp_path / f"{exercise.name}_to_step{done}.py"
        path.write_text(fill(exercise, solution, lambda step, done=done: step <= done))
        for result in results(exercise, path):
            expected = "pass" if result.check.step <= done else "todo"
            assert result.status == expected, (done, result.check.title, result.detail)


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_each_gap_of_the_starter_raises_with_the_exercise_s_name(exercise):
    pieces = split_gaps(exercise.starter.read_text(encoding="utf-8"))
    for index, (step, text) in enumerate(pieces):
        if step is not None:
            marker = GAP_START.match(pieces[index - 1][1].splitlines()[-1])
            assert " ".join(text.split()) == (
                f'raise NotImplementedError( "Exercise {exercise.number}, step {step}: '
                f'{marker["task"]}")')


# -- as scripts and notebooks ----------------------------------------------------------------
# Exercise 6's demonstration shows this warning on purpose (its first layer's input needs
# no gradient); the tests do not need to see it.
quiet = pytest.mark.filterwarnings("ignore:Full backward hook is firing")


_SOLUTION_PRINTED: dict[str, str] = {}


def solution_printed(exercise, capsys) -> str:
    """What the solution prints, run as a script in the current folder: run once in a
    session, for the two tests below that read it (some solutions train for seconds)."""
    if exercise.name not in _SOLUTION_PRINTED:
        capsys.readouterr()
        runpy.run_path(str(exercise.solution), run_name="__main__")
        _SOLUTION_PRINTED[exercise.name] = capsys.readouterr().out
    return _SOLUTION_PRINTED[exercise.name]


@quiet
@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_the_solution_runs_as_a_script(exercise, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert solution_printed(exercise, capsys).strip()


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_the_starter_run_as_a_script_stops_at_a_gap(exercise, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NotImplementedError, match=rf"^Exercise {exercise.number}, step"):
        runpy.run_path(str(exercise.starter), run_name="__main__")


@quiet
@pytest.mark.parametrize("exercise", [e for e in EXERCISES
                                      if TORCH_IMPORT in e.solution.read_text()],
                         ids=lambda e: e.name)
def test_the_solution_runs_unchanged_on_pytorch(exercise, tmp_path, monkeypatch, capsys):
    """On PyTorch (live, or as recorded) the solution runs and prints what it prints on
    minitorch_hooks."""
    monkeypatch.chdir(tmp_path)

    def printed(source: str) -> str:
        script = tmp_path / "solution.py"
        script.write_text(source)
        capsys.readouterr()
        runpy.run_path(str(script), run_name="__main__")
        return capsys.readouterr().out

    source = exercise.solution.read_text()
    theirs = pytorch_answer(lambda torch: printed(source.replace(TORCH_IMPORT, "import torch")))
    assert "Traceback" not in theirs
    ours = solution_printed(exercise, capsys)
    if exercise.name not in DIVERGING:
        assert ours == theirs


# Solutions whose printed numbers may differ from PyTorch's, and why.
DIVERGING = {"ex04_activation_stats": "it trains at learning rates up to 4.0, where the "
             "libraries' last-bit rounding differences grow into different losses"}


TRAINING = EXERCISES[3]


def test_the_training_exercise_draws_a_progress_bar_and_saves_its_plots(
        tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed")
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(TRAINING.solution), run_name="__main__")
    out = capsys.readouterr().out
    assert "\rlr 0.1  [##############################] 15/15  loss" in out
    plots = sorted(path.name for path in tmp_path.glob("*.png"))
    assert plots == ["ex04_accuracy.png", "ex04_dead_units.png", "ex04_mean_activation.png"]
    assert all(path.stat().st_size > 10_000 for path in tmp_path.glob("*.png"))


def test_without_matplotlib_the_plots_are_skipped_with_a_message(
        tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    runpy.run_path(str(TRAINING.solution), run_name="__main__")
    out = capsys.readouterr().out
    assert "(no plot of 'dead ReLU units': matplotlib is not installed" in out
    assert not list(tmp_path.glob("*.png"))


def test_the_training_exercise_runs_as_a_jupyter_notebook(tmp_path):
    jupytext = pytest.importorskip("jupytext", reason="jupytext is not installed")
    nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed")
    pytest.importorskip("ipykernel", reason="ipykernel is not installed")
    pytest.importorskip("matplotlib", reason="matplotlib is not installed")
    notebook = jupytext.read(TRAINING.solution, fmt="py:percent")
    assert [cell.cell_type for cell in notebook.cells][:2] == ["markdown", "code"]
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=120,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code"
               for output in cell.get("outputs", [])]
    assert not [output for output in outputs if output.output_type == "error"]
    images = [output for output in outputs if "image/png" in output.get("data", {})]
    assert len(images) == 3
    assert any("15/15" in output.get("text", "") for output in outputs)


# -- minitorch-hooks start / check ------------------------------------------------------------
FIRST = EXERCISES[0]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(capsys, *argv):
    """``main(argv)``'s exit code and what it printed on stdout and stderr."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


class Terminal(io.StringIO):
    """A stdout that says it is a UTF-8 terminal, as a person's shell would."""

    encoding = "utf-8"

    def isatty(self):
        return True


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """An empty current directory, where a learner would work."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_check_on_the_untouched_starter_reports_every_step_as_not_done(capsys, workdir):
    code, out, err = run(capsys, "check", "1")
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0] == f"Exercise 1: {FIRST.title}"
    assert lines[1] == (f"checking {FIRST.starter} (the starter in place; "
                        "'minitorch-hooks start 1' copies it here for you to edit)")
    steps = [line for line in lines if line.startswith("  TODO step ")]
    assert len(steps) == len(FIRST.checks())
    assert steps[0] == "  TODO step 1: register_hook keeps each hook under its handle's id: " \
                       "not done yet"
    assert "      next: Exercise 1, step 1: store the hook under a new handle's id" in lines
    assert not any(line.startswith("      nudge: ") for line in lines)  # think first
    assert lines[-1] == f"  0 of {len(FIRST.checks())} checks pass (5 not done yet)."
    assert not ANSI.search(out) and "✓" not in out
    assert not (workdir / FILENAME).exists()  # the starter in place: nothing remembered
    _, out, _ = run(capsys, "check", "1", "--hint")
    hints = [line for line in out.splitlines() if line.startswith("      nudge: ")]
    assert len(hints) == 1 and "the handle is made first" in hints[0]  # the next gap's only
    assert "Handle(self.hooks)" not in out  # the nudge, not the solution line


def test_check_solution_passes_and_says_which_file_it_checked(capsys, workdir):
    code, out, _ = run(capsys, "check", "5", "--solution")
    assert code == 0
    assert f"checking {EXERCISES[4].solution} (the reference solution)" in out
    assert out.count("  PASS step ") == len(EXERCISES[4].checks())
    assert f"All {len(EXERCISES[4].checks())} checks pass." in out


def test_check_all_solutions_pass_with_the_pytorch_comparisons(capsys, workdir):
    real_torch()
    code, out, _ = run(capsys, "check", "--all", "--solution")
    assert code == 0
    assert out.rstrip().endswith(f"{len(EXERCISES)} of {len(EXERCISES)} exercises pass "
                                 "every check.")
    assert "FAIL" not in out and "(vs " not in out and "live PyTorch" not in out
    assert out.count("  PASS step ") == len(CHECKS)  # one line per check, not per library
    solutions = [line for line in out.splitlines() if line.startswith("      solution: ")]
    assert len(solutions) == len(CHECKS)


@pytest.mark.parametrize("without", ["torch", "MTH_CONFORMANCE"])
def test_without_pytorch_the_comparisons_use_its_recorded_answers(
        capsys, workdir, monkeypatch, without):
    if without == "torch":
        monkeypatch.setitem(sys.modules, "torch", None)  # import torch now fails
    else:
        monkeypatch.setenv("MTH_CONFORMANCE", "recorded")
    code, out, _ = run(capsys, "check", "11", "--solution")
    assert code == 0
    compared = len(EXERCISES[10].checks())
    assert out.count("  PASS step ") == compared
    assert "minitorch_hooks)" not in out and RECORDED not in out and "live" not in out
    assert f"All {compared} checks pass." in out


def test_a_learner_s_value_unlike_pytorch_s_recording_fails_the_recorded_line(
        capsys, workdir, monkeypatch):
    recorded = copy.deepcopy(answers.read())
    recorded["answers"]["ex11_full_backward_hook"]["identity_is_an_identity"][2]["close"] = [4, 3]
    monkeypatch.setattr(answers, "read", lambda: recorded)
    monkeypatch.setenv("MTH_CONFORMANCE", "recorded")
    code, out, _ = run(capsys, "check", "11", "--solution")
    assert code == 1
    assert ("  FAIL step 1: Identity keeps the values and puts one node in the graph "
            f"(minitorch_hooks: PASS; {RECORDED}: FAIL)\n      x.grad through Identity differs "
            "from what PyTorch 2.13 computed (recorded): yours\n      is [3.0, 3.0], PyTorch "
            "2.13's is [4.0, 3.0]\n") in out
    assert out.count("step 1: Identity keeps") == 1  # one line for the check
    assert "  4 of 5 checks pass (1 failed)." in out


def test_check_all_on_the_starters_fails(capsys, workdir):
    code, out, _ = run(capsys, "check", "--all")
    assert code == 1
    assert out.count("checking ") == len(EXERCISES)
    assert out.rstrip().endswith(f"0 of {len(EXERCISES)} exercises pass every check.")


def test_start_copies_the_starter_and_its_text_and_never_overwrites(capsys, workdir):
    code, out, err = run(capsys, "start", "3")
    copy = workdir / EXERCISES[2].starter.name
    text = workdir / "ex03_feature_extractor.md"
    assert (code, err) == (0, "")
    assert copy.read_bytes() == EXERCISES[2].starter.read_bytes()
    assert text.read_bytes() == EXERCISES[2].text.read_bytes()
    assert "    minitorch-hooks check 3" in out and "ex03_feature_extractor.md" in out
    assert "    jupytext --set-formats ipynb,py:percent ex03_feature_extractor.py" in out
    copy.write_text("# my work\n")
    text.write_text("my notes\n")
    code, out, err = run(capsys, "start", "3")
    assert (code, out) == (1, "")
    assert "already here" in err and "never overwrites" in err
    assert copy.read_text() == "# my work\n" and text.read_text() == "my notes\n"
    copy.unlink()  # starting afresh keeps the notes
    code, out, _ = run(capsys, "start", "3")
    assert code == 0 and "(kept: one is here already)" in out
    assert text.read_text() == "my notes\n"


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_show_prints_the_exercise_s_text(capsys, exercise):
    code, out, err = run(capsys, "show", str(exercise.number))
    assert (code, err) == (0, "")
    assert out == exercise.text.read_text(encoding="utf-8").rstrip("\n") + "\n"


def learner_copy(workdir, exercise, text):
    path = workdir / exercise.starter.name
    path.write_text(text, encoding="utf-8")
    return path


def test_check_uses_the_copy_here_and_reports_each_step(capsys, workdir):
    solution = FIRST.solution.read_text(encoding="utf-8")
    learner_copy(workdir, FIRST, fill(FIRST, solution, lambda step: step <= 2))
    code, out, _ = run(capsys, "check", "1")
    assert code == 1
    assert (f"checking {FIRST.starter.name} (your copy, in the current directory)"
            in out.splitlines())
    assert out.count("  PASS step 1:") == 1 and out.count("  PASS step 2:") == 3
    assert "  TODO step 3: handle.remove() takes the hook out, and twice is harmless: " \
           "not done yet" in out
    assert "  4 of 5 checks pass (1 not done yet)." in out
    learner_copy(workdir, FIRST, solution)
    assert run(capsys, "check", "1")[0] == 0


def test_a_wrong_step_fails_with_the_reason_and_what_it_printed(capsys, workdir):
    # `if result:` ignores a hook that returns 0.
    wrong = FIRST.solution.read_text(encoding="utf-8").replace(
        "                if result is not None:\n",
        "                print('result', result)\n                if result:\n")
    learner_copy(workdir, FIRST, wrong)
    code, out, _ = run(capsys, "check", "1")
    assert code == 1
    lines = out.splitlines()
    failed = lines.index("  FAIL step 2: a result that is not None replaces the value, "
                         "even 0")
    assert lines[failed + 1].startswith("      the second hook saw [10, 9], expected [0, -1]")
    assert OFFER in lines[failed:]  # the hint itself waits: see the tests below
    assert "      your code printed:" in lines and "        result 0" in lines
    assert "  4 of 5 checks pass (1 failed)." in lines


def test_an_error_names_the_line_of_the_learner_s_file(capsys, workdir):
    broken = FIRST.solution.read_text(encoding="utf-8").replace(
        "self.hooks.pop(self.id, None)", "del self.hooks[self.id]")
    learner_copy(workdir, FIRST, broken)
    code, out, _ = run(capsys, "check", "1")
    line = broken.splitlines().index("        del self.hooks[self.id]") + 1
    assert code == 1
    assert re.search(rf"^      KeyError: \d+ \(line {line}, in remove\)$", out, re.MULTILINE)


def test_a_file_that_does_not_load_is_reported(capsys, workdir):
    learner_copy(workdir, FIRST, "def broken(:\n")
    code, out, _ = run(capsys, "check", "1")
    assert code == 1
    assert f"  FAIL could not run {FIRST.starter.name}: SyntaxError" in out


def test_in_the_exercise_s_folder_the_starter_is_the_starter(capsys, monkeypatch):
    monkeypatch.chdir(FIRST.folder)
    _, out, _ = run(capsys, "check", "1")
    assert f"checking {FIRST.starter.name} (the starter in place;" in out


def test_on_a_terminal_the_report_has_symbols_and_colour(monkeypatch, workdir):
    monkeypatch.setenv("PAGER", "")  # the pager has a test of its own
    for no_color in (False, True):
        terminal = Terminal()
        monkeypatch.setattr(sys, "stdout", terminal)
        main(["check", "1", "--solution"] + (["--no-color"] if no_color else []))
        out = terminal.getvalue()
        assert ("✓ step 1:" in ANSI.sub("", out) and bool(ANSI.search(out))) is not no_color
        assert ("PASS step 1:" in out) is no_color
    monkeypatch.setenv("NO_COLOR", "1")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    main(["check", "1"])
    assert "TODO step 1:" in terminal.getvalue() and not ANSI.search(terminal.getvalue())


def test_check_list_names_every_exercise_and_its_file(capsys):
    code, out, _ = run(capsys, "check", "--list")
    lines = out.splitlines()
    assert code == 0
    for exercise, line in zip(EXERCISES, lines):
        assert line.startswith(f"{exercise.number:2}. {exercise.title}")
        assert line.endswith(exercise.starter.name)
    assert f"Their texts and files: {FIRST.folder.parent}" in lines


AFTER_THE_LAST = str(EXERCISES[-1].number + 1)


@pytest.mark.parametrize("argv", [["check"], ["check", "0"], ["check", AFTER_THE_LAST],
                                  ["check", "1", "--all"], ["start"], ["start", AFTER_THE_LAST],
                                  ["check", "--list", "--solution", "--all"]])
def test_usage_errors_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert "error:" in err


def test_check_runs_as_a_learner_would_type_it(tmp_path):
    done = subprocess.run([sys.executable, "-m", "minitorch_hooks", "check", "2",
                           "--solution"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert "PASS step 4: guard registers the validator, then the standardiser" in done.stdout


# -- progressive hints ---------------------------------------------------------------------
def wrong_first_exercise(workdir):
    """Exercise 1 as the article it corrects wrote it: `if result:` ignores a hook that
    returns 0, so step 2 fails."""
    return learner_copy(workdir, FIRST, FIRST.solution.read_text(encoding="utf-8").replace(
        "                if result is not None:\n", "                if result:\n"))


NUDGE_STEP_2 = next(c for c in FIRST.checks()
                    if c.function.__name__ == "results_replace_the_value")
NUDGE = "      nudge: " + " ".join(NUDGE_STEP_2.nudge.split()[:6])
POINTER = "      look at: " + " ".join(NUDGE_STEP_2.pointer.split()[:4])
OFFER = ("      (a nudge: run 'minitorch-hooks check 1 --hint', or run check again)")
MORE = ("      (where to look: run 'minitorch-hooks check 1 --hint', or run check again)")
ASK = "      (the solution lines: 'minitorch-hooks check 1 --solution')"


def solution_lines(exercise):
    return {" ".join(check.solution.split()[:5]) for check in exercise.checks()}


def test_help_comes_in_stages_across_runs_and_never_the_solution(capsys, workdir):
    """1st failure: the reason and an offer; 2nd: the nudge; 3rd and later: the pointer
    too; the solution line never, unasked. A pass forgets, and it starts again."""
    wrong_first_exercise(workdir)
    _, first, _ = run(capsys, "check", "1")
    assert "      the second hook saw [10, 9], expected [0, -1]" in first
    assert NUDGE not in first and OFFER in first.splitlines()
    assert (workdir / FILENAME).is_file()  # remembered beside the learner's file
    _, second, _ = run(capsys, "check", "1")
    assert NUDGE in second and POINTER not in second and MORE in second.splitlines()
    for _ in range(2):  # the third run, and any later one
        _, later, _ = run(capsys, "check", "1")
        assert NUDGE in later and POINTER in later and ASK in later.splitlines()
    for out in (first, second, later):
        assert not any(line in out for line in solution_lines(FIRST))
        assert "solution: " not in out
    learner_copy(workdir, FIRST, FIRST.solution.read_text(encoding="utf-8"))
    assert run(capsys, "check", "1")[0] == 0  # passing forgets the failure
    wrong_first_exercise(workdir)
    _, again, _ = run(capsys, "check", "1")
    assert NUDGE not in again and OFFER in again.splitlines()


def test_hint_option_moves_one_stage_ahead(capsys, workdir):
    wrong_first_exercise(workdir)
    _, out, _ = run(capsys, "check", "1", "--hint")
    assert NUDGE in out and POINTER not in out and OFFER not in out
    _, out, _ = run(capsys, "check", "1", "--hint")  # the second failure, one ahead
    assert NUDGE in out and POINTER in out and ASK in out.splitlines()
    assert "solution: " not in out


def test_solution_prints_each_check_s_solution_line_under_it(capsys, workdir):
    code, out, _ = run(capsys, "check", "1", "--solution")
    assert code == 0
    lines = out.splitlines()
    for check in FIRST.checks():
        title = lines.index(f"  PASS step {check.step}: {check.title}")
        words = " ".join(lines[title + 1:title + 4]).split()
        assert words[:len(check.solution.split()) + 1] == ["solution:", *check.solution.split()]


def test_an_unreadable_memory_is_no_memory(capsys, workdir):
    wrong_first_exercise(workdir)
    (workdir / FILENAME).write_text("not json")
    _, out, _ = run(capsys, "check", "1")
    assert OFFER in out.splitlines()


def test_when_every_check_passes_check_points_to_the_next_exercise(capsys, workdir):
    learner_copy(workdir, FIRST, FIRST.solution.read_text(encoding="utf-8"))
    _, out, _ = run(capsys, "check", "1")
    assert f"Next: exercise 2, {EXERCISES[1].title}:" in out
    assert [e.number for e in EXERCISES] == sorted({e.number for e in EXERCISES})
    assert "    minitorch-hooks start 2" in out
    last = EXERCISES[-1]
    learner_copy(workdir, last, last.solution.read_text(encoding="utf-8"))
    _, out, _ = run(capsys, "check", str(last.number))
    assert out.rstrip().endswith("That was the last exercise: well done.")


# -- notebooks -------------------------------------------------------------------------------
def notebook(workdir, exercise, code: str, paired: bool):
    """A notebook with one text cell and ``code`` as its one code cell, as Jupyter saves."""
    import json

    metadata = {"jupytext": {"formats": "ipynb,py:percent"}} if paired else {}
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# my notes"]},
             {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
              "source": code.splitlines(keepends=True)}]
    path = workdir / exercise.starter.with_suffix(".ipynb").name
    path.write_text(json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4,
                                "nbformat_minor": 5}), encoding="utf-8")
    return path


def saved_later(path, than):
    import os

    stamp = than.stat().st_mtime + 10
    os.utime(path, (stamp, stamp))


def test_check_reads_a_paired_notebook_saved_after_its_py_file(capsys, workdir):
    copy = learner_copy(workdir, FIRST, FIRST.starter.read_text(encoding="utf-8"))
    solved = notebook(workdir, FIRST, FIRST.solution.read_text(encoding="utf-8"), paired=True)
    saved_later(solved, copy)  # an editor that saved the notebook only
    code, out, _ = run(capsys, "check", "1")
    assert code == 0
    assert ("checking ex01_package_pattern.ipynb (your notebook's code cells, saved after "
            "ex01_package_pattern.py)") in out
    assert "warning" not in out
    saved_later(copy, solved)  # Jupyter with jupytext saves both; the .py is then read
    code, out, _ = run(capsys, "check", "1")
    assert code == 1
    assert ("checking ex01_package_pattern.py (your copy, paired with "
            "ex01_package_pattern.ipynb)") in out


def test_an_unpaired_notebook_is_checked_with_a_clear_warning(capsys, workdir):
    notebook(workdir, FIRST, FIRST.solution.read_text(encoding="utf-8"), paired=False)
    code, out, _ = run(capsys, "check", "1")
    assert code == 0  # not the untouched starter in place
    assert "checking ex01_package_pattern.ipynb (your notebook's code cells)" in out
    warning = " ".join(out.split("warning: ", 1)[1].split("\n\n")[0].split())
    assert warning.startswith("ex01_package_pattern.ipynb is not paired with "
                              "ex01_package_pattern.py")
    assert "'jupytext --set-formats ipynb,py:percent ex01_package_pattern.ipynb'" in warning


def test_an_unpaired_notebook_older_than_the_copy_is_named_in_a_warning(capsys, workdir):
    old = notebook(workdir, FIRST, FIRST.starter.read_text(encoding="utf-8"), paired=False)
    copy = learner_copy(workdir, FIRST, FIRST.solution.read_text(encoding="utf-8"))
    saved_later(copy, old)
    code, out, _ = run(capsys, "check", "1")
    assert code == 0
    assert "checking ex01_package_pattern.py (your copy, in the current directory)" in out
    assert "Checked now: ex01_package_pattern.py, saved after the notebook." in " ".join(
        out.split())


def test_a_notebook_that_is_not_json_is_named_and_skipped(capsys, workdir):
    (workdir / "ex01_package_pattern.ipynb").write_text("{ not json")
    learner_copy(workdir, FIRST, FIRST.solution.read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "check", "1")
    assert code == 0
    assert "ex01_package_pattern.ipynb is here but is not a notebook that can be read" in " ".join(
        out.split())


def test_a_real_jupytext_pairing_is_read(capsys, workdir):
    jupytext = pytest.importorskip("jupytext", reason="jupytext is not installed")
    copy = learner_copy(workdir, FIRST, FIRST.solution.read_text(encoding="utf-8"))
    subprocess.run([sys.executable, "-m", "jupytext", "--set-formats", "ipynb,py:percent",
                    str(copy)], cwd=workdir, check=True, capture_output=True)
    assert jupytext.read(copy.with_suffix(".ipynb")).metadata["jupytext"]["formats"]
    code, out, _ = run(capsys, "check", "1")
    assert code == 0
    assert "paired with ex01_package_pattern.ipynb" in out or "your notebook's" in out


def test_a_failure_names_its_check_s_line_not_its_code(capsys, workdir):
    """The message may name what the check built ("the second hook"): one line says where
    the check is written, without its code (the screen is for the reason) and without an
    absolute path."""
    wrong_first_exercise(workdir)
    _, out, _ = run(capsys, "check", "1")
    check = next(c for c in FIRST.checks() if c.function.__name__ ==
                 "results_replace_the_value")
    _, line, code = check_source(check)
    assert f"      (the check: checks.py:{line})" in out.splitlines()
    assert code.splitlines()[1] not in out and str(FIRST.folder) not in out


@pytest.mark.parametrize(("exercise", "check"), CHECKS, ids=CHECK_IDS)
def test_every_check_s_code_can_be_shown_without_its_help(exercise, check):
    _, line, code = check_source(check)
    assert code.startswith(f"def {check.function.__name__}(")
    assert check.solution not in code and check.nudge not in code and line > 1


def grad_input_instead_of_grad_output(workdir):
    """The commonest Grad-CAM mistake: the full backward hook stores grad_input[0]."""
    exercise = EXERCISES[15]
    wrong = exercise.solution.read_text(encoding="utf-8").replace(
        'captured["gradients"] = grad_output[0].detach()',
        'captured["gradients"] = grad_input[0].detach()')
    assert 'captured["gradients"] = grad_input[0]' in wrong
    return learner_copy(workdir, exercise, wrong)


@pytest.mark.parametrize("mode", ["recorded", "live"])
def test_a_planted_mistake_fails_in_a_few_lines_once_per_check(capsys, workdir, monkeypatch,
                                                                mode):
    """One wrong index in ex16: the first failure says the shapes in a line or two, is
    shown once though it fails on both libraries, fits 15 lines, and dumps no tensor."""
    if mode == "live":
        real_torch()
    else:
        monkeypatch.setenv("MTH_CONFORMANCE", "recorded")
    grad_input_instead_of_grad_output(workdir)
    code, out, _ = run(capsys, "check", "16")
    assert code == 1
    lines = out.splitlines()
    first = lines.index("  FAIL step 1: capture_last_conv stores the last convolution's "
                        "output and gradient")
    following = next(i for i in range(first + 1, len(lines))
                     if lines[i].startswith("  ") and not lines[i].startswith("    "))
    failure = lines[first:following]
    assert len(failure) <= 15
    assert " ".join(" ".join(failure).split()).startswith(
        "FAIL step 1: capture_last_conv stores the last convolution's output and gradient "
        "the stored gradient has 4 channels where the last convolution has 6")
    assert "[[" not in out and len(out) < 3000  # no tensor dumped
    titles = [line for line in lines if line.startswith(("  PASS ", "  FAIL ", "  TODO "))]
    assert len(titles) == len(EXERCISES[15].checks())  # one line per check
    assert "(vs " not in out and "minitorch_hooks:" not in out  # both verdicts agree
    assert "      (step 1 fails too: fix it first, this may follow from it)" in lines
    assert lines[-1] == "  3 of 6 checks pass (3 failed)."


def test_large_values_are_described_not_dumped():
    from minitorch_hooks.tutorials.checking import describe, expect_close

    big = minitorch_hooks.arange(384.0).reshape(6, 4, 4, 4) / 100
    assert describe(big) == ("shape [6, 4, 4, 4], float32, from 0 to 3.83, first 0, 0.01, "
                             "0.02, ...")
    assert describe(minitorch_hooks.tensor([1.0, 2.5])) == "[1.0, 2.5]"
    assert describe(None) == "None"
    with pytest.raises(CheckFailed, match=r"^x has shape \[6, 4, 4, 4\], expected \[4\]$"):
        expect_close(big, [1, 2, 3, 4], "x")
    with pytest.raises(CheckFailed) as failure:  # where a large value differs, in one line
        expect_close(big, big + 1, "x")
    assert str(failure.value) == "x at [0, 0, 0, 0] is 0, expected 1 (384 of 384 values differ)"


def test_a_report_taller_than_the_terminal_goes_through_the_pager(monkeypatch, workdir):
    paged = workdir / "paged.txt"
    monkeypatch.setenv("PAGER", f"cat > {paged}")
    monkeypatch.setenv("LINES", "10")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    main(["check", "1", "--solution", "--no-color"])
    assert "Exercise 1:" in paged.read_text() and "Exercise 1:" not in terminal.getvalue()
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    paged.unlink()
    main(["check", "1", "--solution", "--no-color", "--no-pager"])
    assert "Exercise 1:" in terminal.getvalue() and not paged.exists()


# -- exercise 10: the order of leaves ready together ---------------------------------------------
def test_exercise_10_s_leaf_orders_are_what_pytorch_does():
    """The check holds PyTorch's order as numbers (it must work without PyTorch); here real
    PyTorch is asked again, so they cannot go stale."""
    from minitorch_hooks.tutorials.ex10_backward_engine.checks import PYTORCH_LEAF_ORDER

    def leaf_orders(torch) -> dict[int, list[int]]:
        orders = {}
        for count in PYTORCH_LEAF_ORDER:
            order = orders[count] = []
            leaves = [torch.tensor([float(i)], requires_grad=True) for i in range(count)]
            for i, leaf in enumerate(leaves):
                leaf.register_hook(lambda grad, i=i, order=order: order.append(i))
            torch.stack(leaves).sum().backward()
        return orders

    assert pytorch_answer(leaf_orders) == PYTORCH_LEAF_ORDER
    assert any(order != sorted(order) for order in PYTORCH_LEAF_ORDER.values())


def test_exercise_10_rejects_an_engine_that_breaks_ties_by_arrival(tmp_path):
    """A heap with an arrival counter (first ready, first run) passes every check but the
    one on tied leaves."""
    exercise = EXERCISES[9]
    fifo = exercise.solution.read_text(encoding="utf-8").replace(
        "    ready = [Ready(-root.sequence_nr, root)]",
        "    tick = iter(range(10**9))\n    ready = [Ready((-root.sequence_nr, -1), root)]")
    fifo = fifo.replace("Ready(-parent.sequence_nr, parent)",
                        "Ready((-parent.sequence_nr, next(tick)), parent)")
    path = tmp_path / exercise.starter.name
    path.write_text(fifo, encoding="utf-8")
    failed = [r.check.function.__name__ for r in results(exercise, path) if r.status != "pass"]
    assert failed == ["tied_leaves_follow_the_heap"]


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_help_is_wrapped_between_calls_never_inside_one(exercise):
    from minitorch_hooks.cli.exercises import _note

    for check in exercise.checks():
        for label, text in (("nudge: ", check.nudge), ("look at: ", check.pointer),
                            ("solution: ", check.solution)):
            lines = _note(label, text).splitlines()
            assert " ".join(" ".join(lines).split()) == " ".join(f"{label}{text}".split())
            for line in lines:
                assert line.count("(") == line.count(")"), (text, line)
                assert line.count("[") == line.count("]"), (text, line)
