"""The recordings of PyTorch's answers (``tests/recordings/``): well formed, exact, and
none left behind by a test that no longer exists.

Whether each answer is still what PyTorch says is checked where it is asked, by the
cross-check itself in the live mode (``recording.answer``).
"""

from __future__ import annotations

import base64
import json
import math
import re
import zlib

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
    assert not [key for key in keys if re.search(r"#\d+$", key)], "a line per answer, the " \
        f"older form: rewrite it with `{recording.REGENERATE}`"
    assert not [line for line in lines if '"__zlib85__"' in line], "answers compressed " \
        f"without the dictionary, the older form: rewrite it with `{recording.REGENERATE}`"
    module = recording.TESTS / path.relative_to(recording.RECORDINGS).with_suffix(".py")
    assert module.exists(), f"{path} records answers for {module}, which does not exist"


def test_no_recording_is_left_by_a_test_that_no_longer_exists():
    """Only for the modules this session collected (all of them, in a full run)."""
    orphans = []
    for path in FILES:
        module = "tests/" + path.relative_to(recording.RECORDINGS).with_suffix(".py").as_posix()
        tests = {recording.key_of(n) for n in recording.collected if n.startswith(module + "::")}
        if tests:
            orphans += [f"{path.name}: {key}" for key in recording.read(path)
                        if key.rsplit("#", 1)[0] not in tests]
    assert not orphans, (f"answers of tests that no longer exist; run `{recording.REGENERATE}`:"
                         f"\n" + "\n".join(orphans[:20]))


@pytest.mark.parametrize("size", [8, 50], ids=["decimals", "bytes"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int64",
                                   "uint8", "bool"])
def test_a_tensor_reads_back_bit_for_bit(dtype, size):
    rng = np.random.default_rng(0)
    array = (rng.standard_normal(size) * 10.0 ** rng.integers(-8, 8, size)).astype(dtype)
    if dtype.startswith("float"):
        array[:4] = [np.nan, np.inf, -np.inf, -0.0]
    shape = (2, size // 2)
    value = TensorValue.of(f"torch.{dtype}", array.reshape(shape))
    stored = recording.encode(value)
    assert ("base64" in stored) == (size > recording.READABLE_VALUES)
    back = recording.decode(json.loads(json.dumps(stored)))
    assert (back.dtype, back.shape) == (f"torch.{dtype}", shape)
    assert back.array.dtype == array.dtype and back.array.flags.writeable
    assert back.array.tobytes() == array.reshape(shape).tobytes() or dtype.startswith("float")
    np.testing.assert_array_equal(back.array, array.reshape(shape))  # nan == nan here
    if dtype.startswith("float"):
        assert math.copysign(1.0, float(back.array.flat[3])) == -1.0  # -0.0 kept


def test_a_scenario_is_one_line_its_long_answers_compressed(tmp_path):
    long = ["tensor([" + ", ".join(["0.5000"] * 400) + "])", list(range(300))]
    entries = {"test_y[n=2]#0": long, "test_y[n=2]#1": [1.5, "short"],
               "test_y[n=1]#0": [1.5, "short"], "test_y[n=1]#1": None}
    path = tmp_path / "test_x.jsonl"
    recording.write(path, entries)
    first, second = path.read_text().splitlines()
    assert first == '["test_y[n=1]",[[1.5,"short"],null]]'  # short: readable in a diff
    key, packed = json.loads(second)
    assert key == "test_y[n=2]" and list(packed) == ["__deflate85__"]
    assert len(second) < 1000 < len(json.dumps(long))
    assert recording.read(path) == entries


def test_the_dictionary_makes_short_answers_shorter_and_guards_its_bytes(monkeypatch):
    """The preset dictionary holds what answers repeat (here the JSON of a tensor), so a
    short answer compresses to less than it would alone; and changed bytes are refused,
    since no compressed answer could be read with them."""
    tensor = TensorValue.of("torch.float32", np.arange(12.0, dtype="float32").reshape(3, 4))
    answers = [recording.encode(tensor), "RuntimeError", [3, 4], "torch.float32"]
    text = json.dumps(answers, separators=(",", ":")).encode()
    assert len(text) > recording.READABLE_CHARACTERS  # long enough to be compressed
    alone = len(base64.b85encode(zlib.compress(text, 9)))
    assert len(recording._packed(answers)["__deflate85__"]) < alone
    assert recording._unpacked(recording._packed(answers)) == answers
    monkeypatch.setattr(recording, "DICTIONARY_SHA256", "0" * 64)
    recording._dictionary.cache_clear()
    with pytest.raises(RuntimeError, match="has changed"):
        recording._dictionary()
    recording._dictionary.cache_clear()


def test_answers_compressed_before_the_dictionary_read_back():
    packed = base64.b85encode(zlib.compress(b'["a long answer",2]', 9)).decode()
    assert recording._unpacked({"__zlib85__": packed}) == ["a long answer", 2]


def test_answers_numbered_with_a_gap_are_refused():
    with pytest.raises(ValueError, match="not numbered 0, 1, 2"):
        recording.lines({"test_y#0": 1, "test_y#2": 3})


def test_the_older_form_one_answer_a_line_reads_back(tmp_path):
    path = tmp_path / "test_x.jsonl"
    packed = base64.b64encode(zlib.compress(b'["a long answer"]')).decode()
    path.write_text(f'["test_y[n=1]#0",{{"__zlib__":"{packed}"}}]\n["test_y[n=1]#1",2]\n')
    entries = recording.read(path)
    assert [recording.decode(entries[f"test_y[n=1]#{n}"]) for n in (0, 1)] == \
        [["a long answer"], 2]


def test_a_tensor_in_the_older_decimal_form_reads_back():
    old = {"__tensor__": "torch.float32", "shape": [2, 5], "data": [0.1] * 10}
    back = recording.decode(old)
    assert back.array.dtype == np.float32 and back.array.tolist() == [[np.float32(0.1)] * 5] * 2


def test_a_scenario_is_keyed_by_its_parameters_values_not_pytest_ids():
    def key(**params):
        return recording.scenario_key("tests/conformance/test_x.py::test_y[any-id]", params)

    assert key() == "test_y"
    assert key(shape=(2,), bias=True, dtype=np.float32) == \
        "test_y[shape=(2,), bias=True, dtype=float32]"
    assert key(op=lambda t: t.relu()) == "test_y[op=lambda t: t.relu()]"
    assert key(op=[lambda t, p=p: t * p for p in (2,)][0]) == \
        "test_y[op=lambda t, p=p: t * p with [2]]"
    assert key(thing=object()) is None  # no stable name: keyed by its pytest id instead
    assert len(key(text="x" * 500)) == recording.LONGEST_KEY


def test_keys_are_unique_in_a_module_or_fall_back_to_pytest_ids(monkeypatch):
    monkeypatch.setattr(recording, "_candidate_keys", {
        "tests/a.py::test_y[1]": "test_y[n=1]", "tests/a.py::test_y[one]": "test_y[n=1]",
        "tests/a.py::test_y[2]": "test_y[n=2]", "tests/a.py::test_y[o]": None})
    monkeypatch.setattr(recording, "keys", {})
    recording.resolve_keys()
    assert recording.keys == {"tests/a.py::test_y[1]": "test_y[1]",
                              "tests/a.py::test_y[one]": "test_y[one]",
                              "tests/a.py::test_y[2]": "test_y[n=2]",
                              "tests/a.py::test_y[o]": "test_y[o]"}


def test_recording_rewrites_an_older_file_whole(monkeypatch, tmp_path):
    """After a merge, a file in the older form (decimals, keys by pytest id, conflict
    markers) is rewritten in the current form by ``record.py``, answers kept."""
    import record

    monkeypatch.setattr(recording, "RECORDINGS", tmp_path / "recordings")
    monkeypatch.setattr(recording, "answered", recording.defaultdict(dict))
    monkeypatch.setattr(record, "ROOT", tmp_path)
    path = tmp_path / "recordings" / "conformance" / "test_x.jsonl"
    path.parent.mkdir(parents=True)
    tensor = {"__tensor__": "torch.float32", "shape": [10], "data": [0.5] * 10}
    path.write_text(f'<<<<<<< ours\n["test_y[n=1]#0",{json.dumps(tensor)}]\n=======\n'
                    '["test_y[id]#0",1]\n>>>>>>> theirs\n')
    monkeypatch.setattr(recording, "keys", {"tests/conformance/test_x.py::test_y[1]":
                                            "test_y[n=1]"})
    test = "tests/conformance/test_x.py::test_y[1]"
    lines = record.save({test}, ran={test}, passed=set())
    assert lines[0].endswith("0 added, 0 changed, 1 removed")  # the key by pytest id
    [line] = path.read_text().splitlines()
    key, [value] = json.loads(line)
    assert key == "test_y[n=1]" and "base64" in value
    assert recording.decode(value).array.tolist() == [0.5] * 10


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


def _first_key() -> str:
    """The key of the running test's first answer (its scenario, ``test_x[mode='live']``)."""
    return recording.key_of(recording.current_test()) + "#0"


@pytest.mark.parametrize("mode", ["live", "recorded"])
def test_an_answer_comes_from_where_the_mode_says(monkeypatch, mode):
    assert _first_key() == f"test_an_answer_comes_from_where_the_mode_says[mode={mode!r}]#0"
    recorded = {_first_key(): ["recorded", 1.0]}
    answer = _ask(monkeypatch, mode, recorded, ["recorded", 1.0000001] if mode == "live"
                  else "never asked")
    assert answer == (["recorded", 1.0000001] if mode == "live" else ["recorded", 1.0])


def test_a_stale_recording_fails_naming_itself_and_the_command(monkeypatch):
    with pytest.raises(pytest.fail.Exception) as failure:
        _ask(monkeypatch, "live", {_first_key(): ["old", 1.0]}, ["new", 1.0])
    assert "is stale" in str(failure.value) and recording.REGENERATE in str(failure.value)
    assert "test_recordings.jsonl" in str(failure.value)


@pytest.mark.parametrize("mode", ["live", "recorded"])
def test_a_missing_recording_fails_telling_how_to_record_it(monkeypatch, mode):
    with pytest.raises(pytest.fail.Exception) as failure:
        _ask(monkeypatch, mode, {}, "an answer")
    assert "no recording" in str(failure.value) and recording.REGENERATE in str(failure.value)
