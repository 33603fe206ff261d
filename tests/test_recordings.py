"""The recordings of PyTorch's answers (``tests/recordings/``): well formed, exact, and
none left behind by a test that no longer exists.

Whether each answer is still what PyTorch says is checked where it is asked, by the
cross-check itself in the live mode (``recording.answer``).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import recording
from harness import Raised, TensorValue, assert_close

FILES = sorted(recording.RECORDINGS.rglob("*.jsonl"))


def test_there_are_recordings():
    assert len(FILES) > 50


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(recording.RECORDINGS)))
def test_a_recording_is_sorted_json_lines_of_one_test_module(path):
    lines = path.read_text().splitlines()
    keys = [json.loads(line)[0] for line in lines]
    assert keys == sorted(set(keys)), "keys out of order or repeated: rewrite it with " \
        f"`{recording.REGENERATE}`"
    module = recording.TESTS / path.relative_to(recording.RECORDINGS).with_suffix(".py")
    assert module.exists(), f"{path} records answers for {module}, which does not exist"


def test_no_recording_is_left_by_a_test_that_no_longer_exists():
    """Only for the modules this session collected (all of them, in a full run)."""
    orphans = []
    for path in FILES:
        module = "tests/" + path.relative_to(recording.RECORDINGS).with_suffix(".py").as_posix()
        tests = {n.split("::", 1)[1] for n in recording.collected if n.startswith(module + "::")}
        if tests:
            orphans += [f"{path.name}: {key}" for key in recording.read(path)
                        if key.rsplit("#", 1)[0] not in tests]
    assert not orphans, (f"answers of tests that no longer exist; run `{recording.REGENERATE}`:"
                         f"\n" + "\n".join(orphans[:20]))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int64",
                                   "uint8", "bool"])
def test_a_tensor_reads_back_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    array = (rng.standard_normal(50) * 10.0 ** rng.integers(-8, 8, 50)).astype(dtype)
    if dtype.startswith("float"):
        array[:4] = [np.nan, np.inf, -np.inf, -0.0]
    value = TensorValue.of(f"torch.{dtype}", array.reshape(5, 10))
    back = recording.decode(json.loads(json.dumps(recording.encode(value))))
    assert (back.dtype, back.shape) == (f"torch.{dtype}", (5, 10))
    assert back.array.dtype == array.dtype
    assert back.array.tobytes() == array.reshape(5, 10).tobytes() or dtype.startswith("float")
    np.testing.assert_array_equal(back.array, array.reshape(5, 10))  # nan == nan here
    if dtype.startswith("float"):
        assert math.copysign(1.0, float(back.array.flat[3])) == -1.0  # -0.0 kept


def test_other_answers_read_back_as_the_comparison_sees_them():
    answer = {"error": Raised.of("RuntimeError", "it failed"), (1, "a"): {2, 3},
              "values": (1.5, b"\x00\xff", 2 + 1j, np.float32(0.25), None, True)}
    back = recording.decode(json.loads(json.dumps(recording.encode(answer))))
    assert_close(back, answer, rtol=0, atol=0)
    assert back[(1, "a")] == {2, 3} and back["values"][1] == b"\x00\xff"


def test_what_cannot_be_recorded_is_refused_with_a_reason():
    with pytest.raises(TypeError, match="cannot record a object"):
        recording.encode([object()])


def test_the_header_says_which_mode_runs():
    assert recording.header().startswith(f"conformance: {recording.MODE},")


def _ask(monkeypatch, mode: str, recorded: dict, live_answer: object) -> object:
    """``recording.answer`` for this test, in ``mode``, over the ``recorded`` entries."""
    monkeypatch.setattr(recording, "MODE", mode)
    monkeypatch.setattr(recording, "RECORDING", False)
    path = recording.recording_file(recording.current_test())
    monkeypatch.setitem(recording._files, path, recorded)
    monkeypatch.setattr(recording, "_answers_so_far", recording.defaultdict(int))
    return recording.answer(lambda: live_answer,
                            lambda live, old: assert_close(live, old, 1e-5, 1e-6))


KEY = "test_an_answer_comes_from_where_the_mode_says[{}]#0"


@pytest.mark.parametrize("mode", ["live", "recorded"])
def test_an_answer_comes_from_where_the_mode_says(monkeypatch, mode):
    recorded = {KEY.format(mode): ["recorded", 1.0]}
    answer = _ask(monkeypatch, mode, recorded, ["recorded", 1.0000001] if mode == "live"
                  else "never asked")
    assert answer == (["recorded", 1.0000001] if mode == "live" else ["recorded", 1.0])


def test_a_stale_recording_fails_naming_itself_and_the_command(monkeypatch):
    with pytest.raises(pytest.fail.Exception) as failure:
        _ask(monkeypatch, "live", {KEY.replace("an_answer_comes_from_where_the_mode_says[{}]",
                                               "a_stale_recording_fails_naming_itself_and_the"
                                               "_command"): ["old", 1.0]}, ["new", 1.0])
    assert "is stale" in str(failure.value) and recording.REGENERATE in str(failure.value)
    assert "test_recordings.jsonl" in str(failure.value)


@pytest.mark.parametrize("mode", ["live", "recorded"])
def test_a_missing_recording_fails_telling_how_to_record_it(monkeypatch, mode):
    with pytest.raises(pytest.fail.Exception) as failure:
        _ask(monkeypatch, mode, {}, "an answer")
    assert "no recording" in str(failure.value) and recording.REGENERATE in str(failure.value)
