"""PyTorch 2.13's outcomes, recorded, so the cross-checks prove something without PyTorch.

Every cross-check asks real PyTorch what a scenario does. With PyTorch installed (the
*live* mode) it is asked, and its answer must also equal the recording checked into
``tests/recordings/``: a recording that no longer says what PyTorch does is stale and
fails. Without PyTorch (the *recorded* mode) the recording answers instead, and the
scenario runs on minitorch_hooks only, compared with the same comparison.

A recording is one JSON line per PyTorch answer, ``[key, value]``, sorted by key, one file
per test module (``tests/recordings/conformance/test_nn_layers.jsonl`` for
``tests/conformance/test_nn_layers.py``). The key is the test's pytest id and the number of
the answer within the test (``test_linear[bias]#0``). ``python -m tests.conformance.record``
asks PyTorch again and rewrites them (see ``record.py``).
"""

from __future__ import annotations

import json
import os
import pathlib
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from minitorch_hooks.cli.pytorch import pytorch_installed

TESTS = pathlib.Path(__file__).resolve().parents[1]
RECORDINGS = TESTS / "recordings"
REGENERATE = "python -m tests.conformance.record"

# MTH_CONFORMANCE=recorded forces the recorded mode even where PyTorch is installed (to try
# it); MTH_RECORD=1 (set by record.py) rewrites the recordings from the live answers.
MODE = os.environ.get("MTH_CONFORMANCE") or ("live" if pytorch_installed() else "recorded")
RECORDING = os.environ.get("MTH_RECORD") == "1"
if MODE not in ("live", "recorded") or (RECORDING and MODE != "live"):
    raise RuntimeError(f"MTH_CONFORMANCE={MODE!r}: expected 'live' or 'recorded' (and "
                       "recording needs the live mode)")


def live() -> bool:
    """Whether PyTorch itself answers (else its recording does)."""
    return MODE == "live"


# -- encoding: normalised outcomes (see harness.normalise) as JSON, exactly ----------------

def encode(value: Any) -> Any:
    """A JSON form of a normalised value. Floats keep the shortest text that reads back to
    the same number of their dtype, so a float32 tensor costs a few characters a value."""
    from harness import Raised, TensorValue

    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, complex):
        return {"__complex__": [value.real, value.imag]}
    if isinstance(value, TensorValue):
        flat = value.array.reshape(-1)
        if flat.dtype.kind == "c":
            flat = np.stack([flat.real, flat.imag], axis=-1)
        data = [_shortest(x) for x in flat] if flat.dtype.kind == "f" else flat.tolist()
        return {"__tensor__": value.dtype, "shape": list(value.shape), "data": data}
    if isinstance(value, Raised):
        return {"__raised__": value.type, "message": value.message}
    if isinstance(value, bytes):
        return {"__bytes__": value.decode("latin-1")}
    if isinstance(value, np.generic):
        return {"__numpy__": value.dtype.name, "value": value.item()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("__") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"__dict__": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, (set, frozenset)):
        return {"__set__": sorted(encode(v) for v in value)}
    raise TypeError(f"cannot record a {type(value).__name__}: {value!r}; make the scenario "
                    "return plain values (tensors, numbers, strings, containers)")


def _shortest(x: np.floating | np.ndarray) -> Any:
    """The shortest decimal that reads back as ``x`` in its own dtype (pairs, for complex)."""
    if isinstance(x, np.ndarray):
        return [_shortest(part) for part in x]
    return float(str(x))


def decode(data: Any) -> Any:
    """The normalised value :func:`encode` wrote (lists stand for lists and tuples alike:
    the comparison walks both the same way)."""
    from harness import Raised, TensorValue

    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "__tensor__" in data:
        numpy_dtype = np.dtype(data["__tensor__"].removeprefix("torch."))
        values = data["data"]
        if numpy_dtype.kind == "c":
            values = [complex(real, imag) for real, imag in values]
        array = np.array(values, dtype=numpy_dtype).reshape(data["shape"])
        return TensorValue.of(data["__tensor__"], array)
    if "__raised__" in data:
        return Raised.of(data["__raised__"], data["message"])
    if "__complex__" in data:
        return complex(*data["__complex__"])
    if "__bytes__" in data:
        return data["__bytes__"].encode("latin-1")
    if "__numpy__" in data:
        return np.dtype(data["__numpy__"]).type(data["value"])
    if "__dict__" in data:
        return {_hashable(decode(k)): decode(v) for k, v in data["__dict__"]}
    if "__set__" in data:
        return {_hashable(decode(v)) for v in data["__set__"]}
    return {k: decode(v) for k, v in data.items()}


def _hashable(value: Any) -> Any:
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


# -- where an answer is recorded ---------------------------------------------------------

def current_test() -> str:
    """The running test's pytest id, ``tests/conformance/test_x.py::test_y[param]``."""
    return os.environ["PYTEST_CURRENT_TEST"].rsplit(" (", 1)[0]


def recording_file(nodeid: str) -> pathlib.Path:
    """``tests/a/test_b.py::...`` is recorded in ``tests/recordings/a/test_b.jsonl``."""
    module = pathlib.Path(nodeid.split("::", 1)[0])
    return RECORDINGS / module.relative_to("tests").with_suffix(".jsonl")


def read(path: pathlib.Path) -> dict[str, Any]:
    """A recording file as ``{key: encoded value}`` (empty when there is none).

    Git's conflict markers are passed over, keeping both sides' answers: after merging
    branches that each recorded new answers, ``record.py`` rewrites the file whole (and
    ``test_recordings.py`` fails until it has)."""
    if not path.exists():
        return {}
    return dict(json.loads(line) for line in path.read_text().splitlines()
                if not line.startswith(("<<<<<<<", "=======", ">>>>>>>", "|||||||")))


def write(path: pathlib.Path, entries: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps([key, entries[key]], separators=(",", ":")) + "\n"
                            for key in sorted(entries)))


_files: dict[pathlib.Path, dict[str, Any]] = {}
_answers_so_far: dict[str, int] = defaultdict(int)
# What the live run answered, for record.py: {file: {key: encoded}}; and the id of every
# test pytest found, selected or not (tests/conftest.py adds them).
answered: dict[pathlib.Path, dict[str, Any]] = defaultdict(dict)
collected: set[str] = set()


def _recorded(path: pathlib.Path) -> dict[str, Any]:
    if path not in _files:
        _files[path] = read(path)
    return _files[path]


def next_key() -> tuple[pathlib.Path, str]:
    """Where the running test's next answer from PyTorch is recorded: under the test's id
    and the answer's number."""
    nodeid = current_test()
    test = nodeid.split("::", 1)[1]
    number = _answers_so_far[test]
    _answers_so_far[test] += 1
    return recording_file(nodeid), f"{test}#{number}"


def missing(path: pathlib.Path, key: str) -> str:
    return (f"no recording of PyTorch's answer {key!r} in {path.relative_to(TESTS.parent)}: "
            f"with torch==2.13.0 installed, run `{REGENERATE}` and commit the recordings")


def answer(ask: Callable[[], Any], compare: Callable[[Any, Any], None]) -> Any:
    """PyTorch's answer to the running test's next question, normalised.

    Live: ``ask()`` (already normalised) is returned, as it reads back from JSON, after
    ``compare(live, recorded)`` checked that the recording still says the same (or, when
    recording, it is stored).
    Recorded: the recording's answer, or a failure telling how to record it.
    """
    import pytest

    path, key = next_key()
    entries = _recorded(path)
    if not live():
        if key not in entries:
            pytest.fail(missing(path, key), pytrace=False)
        return decode(entries[key])
    value = decode(encode(ask()))  # the same form in both modes (tuples read as lists)
    if RECORDING:
        answered[path][key] = encode(value)
        return value
    if key not in entries:
        pytest.fail(missing(path, key), pytrace=False)
    try:
        compare(value, decode(entries[key]))
    except AssertionError as error:
        pytest.fail(f"the recording {key!r} in {path.relative_to(TESTS.parent)} is stale, "
                    f"PyTorch now answers otherwise ({error}); run `{REGENERATE}`",
                    pytrace=False)
    return value


def add_to_corpus(example: Any) -> None:
    """Keep one example a fuzz test drew, with PyTorch's answer, when recording (else
    nothing: a live fuzz test draws examples of its own, which need not be those recorded)."""
    if RECORDING:
        path, key = next_key()
        answered[path][key] = encode(example)


def corpus(test: str) -> list[Any]:
    """The examples recorded by the fuzz test ``test`` (``tests/x/test_y.py::test_z``), in
    the order it drew them (see :func:`add_to_corpus`)."""
    import pytest

    path = recording_file(test)
    test = test.split("::", 1)[1]
    keys = [key for key in _recorded(path) if key.rsplit("#", 1)[0] == test]
    if not keys:
        pytest.fail(missing(path, f"{test}#0"), pytrace=False)
    keys.sort(key=lambda key: int(key.rsplit("#", 1)[1]))
    return [decode(_recorded(path)[key]) for key in keys]


def header() -> str:
    """pytest's header line: which mode runs, so a summary says what it proved."""
    if live():
        return ("conformance: live, against the installed PyTorch (and its recordings "
                f"checked against it{'; recording them anew' if RECORDING else ''})")
    why = "MTH_CONFORMANCE=recorded" if pytorch_installed() else "PyTorch is not installed"
    return (f"conformance: recorded, against PyTorch 2.13's recorded answers in "
            f"{RECORDINGS.relative_to(TESTS.parent)}/ ({why})")
