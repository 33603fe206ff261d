"""PyTorch 2.13's outcomes, recorded, so the cross-checks prove something without PyTorch.

Every cross-check asks real PyTorch what a scenario does. With PyTorch installed (the
*live* mode) it is asked, and its answer must also equal the recording checked into
``tests/recordings/``: a recording that no longer says what PyTorch does is stale and
fails. Without PyTorch (the *recorded* mode) the recording answers instead, and the
scenario runs on minitorch_hooks only, compared with the same comparison.

A recording is one JSON line per scenario, ``[key, [answer #0, answer #1, ...]]``, sorted
by key, one file per test module (``tests/recordings/conformance/test_nn_layers.jsonl`` for
``tests/conformance/test_nn_layers.py``). The key names the scenario: the test function
and the *values* of its parameters (``test_linear[bias=True]``, :func:`scenario_key`), not
pytest's ids, so renaming an id keeps the recording; an answer is named by the key and its
number (``test_linear[bias=True]#0``). Tensors of more than a few values are stored as
their raw little-endian bytes in base64 (:func:`encode`), and a scenario's long list of
answers as JSON compressed with a dictionary of what answers repeat (:func:`lines`,
``make_dictionary.py``): the recordings stay under 4 megabytes.
``python -m tests.conformance.record`` asks PyTorch again and rewrites them
(see ``record.py``).
"""

from __future__ import annotations

import ast
import base64
import functools
import hashlib
import json
import os
import pathlib
import re
import zlib
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
# The variable is taken out of the environment: a pytest that a test starts in a process of
# its own (the conformance page's check collects the suite) must not rewrite the recordings
# from the few answers it saw.
RECORDING = os.environ.pop("MTH_RECORD", None) == "1"
if MODE not in ("live", "recorded") or (RECORDING and MODE != "live"):
    raise RuntimeError(f"MTH_CONFORMANCE={MODE!r}: expected 'live' or 'recorded' (and "
                       "recording needs the live mode)")


def live() -> bool:
    """Whether PyTorch itself answers (else its recording does)."""
    return MODE == "live"


# -- encoding: normalised outcomes (see harness.normalise) as JSON, exactly ----------------

# A tensor of more values than this is stored as bytes (base64): a float32 costs 5.3
# characters, not the 11 of its shortest decimal. Smaller ones stay readable in a diff.
READABLE_VALUES = 8
# A scenario whose answers' JSON is longer than this is stored compressed (deflate with a
# dictionary, then base85) when that is shorter: printed tensors, graphs, random draws and
# the fuzzers' sequences repeat themselves, and the keys (which record.py lists) say what
# changed, not a diff of such a line.
READABLE_CHARACTERS = 150


def encode(value: Any) -> Any:
    """A JSON form of a normalised answer (see harness.normalise), exact. A small tensor's
    floats keep the shortest text that reads back to the same number of their dtype; a
    larger tensor keeps its bytes."""
    from harness import Raised, TensorValue

    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, complex):
        return {"__complex__": [value.real, value.imag]}
    if isinstance(value, TensorValue):
        flat = value.array.reshape(-1)
        if flat.size > READABLE_VALUES:
            little_endian = flat.astype(flat.dtype.newbyteorder("<"), copy=False)
            return {"__tensor__": value.dtype, "shape": list(value.shape),
                    "base64": base64.b64encode(little_endian.tobytes()).decode()}
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
    the comparison walks both the same way). Tensors written as decimals, as all were
    before the bytes form, and answers compressed one by one, as they were before a line
    held a scenario, read back too."""
    from harness import Raised, TensorValue

    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "__zlib__" in data:
        return decode(json.loads(zlib.decompress(base64.b64decode(data["__zlib__"]))))
    if "__tensor__" in data and "base64" in data:
        numpy_dtype = np.dtype(data["__tensor__"].removeprefix("torch.")).newbyteorder("<")
        array = np.frombuffer(base64.b64decode(data["base64"]), dtype=numpy_dtype)
        array = array.astype(array.dtype.newbyteorder("="), copy=True)  # native, writable
        return TensorValue.of(data["__tensor__"], array.reshape(data["shape"]))
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


# -- keys: a test's scenario, named by the values of its parameters ----------------------

def value_name(value: Any) -> str | None:
    """A parameter's value as text that is the same in every run, or ``None``.

    Plain values by their ``repr``; functions and classes by their qualified name; a lambda
    by its source text (and the values it captures); other objects by their ``repr``
    unless it shows an address (``<... at 0x...>``), which changes from run to run."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return repr(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        parts = [value_name(v) for v in value]
        if None in parts:
            return None
        items = sorted(parts) if isinstance(value, (set, frozenset)) else parts
        text = ", ".join(items) + ("," if isinstance(value, tuple) and len(parts) == 1 else "")
        return {list: "[{}]", tuple: "({})"}.get(type(value), "{{{}}}").format(text)
    if isinstance(value, dict):
        parts = [(value_name(k), value_name(v)) for k, v in value.items()]
        return None if any(None in pair for pair in parts) else \
            "{" + ", ".join(f"{k}: {v}" for k, v in parts) + "}"
    if isinstance(value, pathlib.PurePath):
        path = pathlib.Path(value)
        return repr(path.relative_to(TESTS.parent).as_posix() if path.is_relative_to(TESTS.parent)
                    else path.as_posix())
    if getattr(value, "__name__", None) == "<lambda>" and hasattr(value, "__code__"):
        return _lambda_source(value)
    qualname = getattr(value, "__qualname__", None)
    if isinstance(qualname, str):
        return None if "<" in qualname else qualname
    text = repr(value)
    return None if " at 0x" in text or text.startswith("<") else text


@functools.cache
def _lambdas_in(filename: str) -> dict[int, list[tuple[tuple[str, ...], str]]]:
    """The lambdas of a file by first line: their arguments' names and their source text,
    on one line. The file is read and split once (``ast.get_source_segment`` splits the
    whole file again for each lambda, which made collection take seconds)."""
    source = pathlib.Path(filename).read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    found: dict[int, list[tuple[tuple[str, ...], str]]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Lambda):
            # the offsets count bytes of UTF-8; the end is cut first, in case both are
            # on one line
            piece = [line.encode("utf-8") for line in lines[node.lineno - 1:node.end_lineno]]
            piece[-1] = piece[-1][:node.end_col_offset]
            piece[0] = piece[0][node.col_offset:]
            arguments = tuple(a.arg for a in (*node.args.posonlyargs, *node.args.args,
                                              *node.args.kwonlyargs))
            text = " ".join(b"".join(piece).decode("utf-8").split())
            found.setdefault(node.lineno, []).append((arguments, text))
    return found


def _lambda_source(function: Any) -> str | None:
    """``lambda t: t.relu()`` as written (found by its line and arguments), with the values
    it captures; ``None`` when its line has two such lambdas."""
    code = function.__code__
    try:
        lambdas = _lambdas_in(code.co_filename)
    except (OSError, SyntaxError, ValueError):
        return None
    arguments = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    found = [text for names, text in lambdas.get(code.co_firstlineno, ())
             if names == arguments]
    if len(found) != 1:
        return None
    captured = [*(function.__defaults__ or ()), *(function.__kwdefaults__ or {}).values(),
                *(cell.cell_contents for cell in function.__closure__ or ())]
    names = value_name(captured) if captured else None
    if captured and names is None:
        return None
    return found[0] + (f" with {names}" if names else "")


# Longer keys keep their start and a digest of the whole, to stay readable in a diff.
LONGEST_KEY = 80


def scenario_key(nodeid: str, params: dict[str, Any] | None) -> str | None:
    """The key of a test case's answers: ``test_linear[bias=True]``, from its function's
    name and its parameters' values (:func:`value_name`); ``None`` when a value has no
    stable name. A test without parameters keeps its name, as pytest writes it."""
    name = nodeid.split("::", 1)[1].split("[", 1)[0]
    if not params:
        return name
    names = {argument: value_name(value) for argument, value in params.items()}
    if None in names.values():
        return None
    key = f"{name}[{', '.join(f'{a}={v}' for a, v in names.items())}]"
    if len(key) > LONGEST_KEY:
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
        key = f"{key[:LONGEST_KEY - 20]}...{digest}]"
    return key


# Every collected test's key, by pytest id (tests/conftest.py fills it: see resolve_keys).
_candidate_keys: dict[str, str | None] = {}
keys: dict[str, str] = {}


def collect_key(item: Any) -> None:
    """Note the key a collected test case would have (its scenario, :func:`scenario_key`)."""
    callspec = getattr(item, "callspec", None)
    _candidate_keys[item.nodeid] = scenario_key(item.nodeid, callspec.params if callspec
                                                else None)


def resolve_keys() -> None:
    """Every collected test's key, unique within its module: a case whose values have no
    stable name, or whose key another case of its module has too, is keyed by its pytest
    id instead (``test_x[id]``), which then is what names it."""
    uses: dict[tuple[str, str | None], int] = defaultdict(int)
    for nodeid, key in _candidate_keys.items():
        uses[nodeid.split("::", 1)[0], key] += 1
    keys.clear()
    for nodeid, key in _candidate_keys.items():
        unique = key is not None and uses[nodeid.split("::", 1)[0], key] == 1
        keys[nodeid] = key if unique else nodeid.split("::", 1)[1]


def key_of(nodeid: str) -> str:
    """The key of the test ``nodeid`` (its pytest name, if it was not collected)."""
    return keys.get(nodeid) or nodeid.split("::", 1)[1]


# -- where an answer is recorded ---------------------------------------------------------

def current_test() -> str:
    """The running test's pytest id, ``tests/conformance/test_x.py::test_y[param]``."""
    return os.environ["PYTEST_CURRENT_TEST"].rsplit(" (", 1)[0]


def recording_file(nodeid: str) -> pathlib.Path:
    """``tests/a/test_b.py::...`` is recorded in ``tests/recordings/a/test_b.jsonl``."""
    module = pathlib.Path(nodeid.split("::", 1)[0])
    return RECORDINGS / module.relative_to("tests").with_suffix(".jsonl")


def read(path: pathlib.Path) -> dict[str, Any]:
    """A recording file as ``{answer's key: encoded answer}`` (empty when there is none).

    Git's conflict markers are passed over, keeping both sides' answers: after merging
    branches that each recorded new answers, ``record.py`` rewrites the file whole (and
    ``test_recordings.py`` fails until it has). A line of the older form, one answer
    ``[key#number, answer]``, reads back too."""
    if not path.exists():
        return {}
    entries = {}
    for line in path.read_text().splitlines():
        if line.startswith(("<<<<<<<", "=======", ">>>>>>>", "|||||||")):
            continue
        key, stored = json.loads(line)
        if re.search(r"#\d+$", key):
            entries[key] = stored
        else:
            entries |= {f"{key}#{number}": answer
                        for number, answer in enumerate(_unpacked(stored))}
    return entries


def lines(entries: dict[str, Any]) -> str:
    """A recording file's text: one ``[key, [answer #0, #1, ...]]`` line per scenario, by
    key, the answers compressed when their JSON is long (:data:`READABLE_CHARACTERS`)."""
    scenarios: dict[str, dict[int, Any]] = defaultdict(dict)
    for key, answer in entries.items():
        scenario, number = key.rsplit("#", 1)
        scenarios[scenario][int(number)] = answer
    text = ""
    for scenario in sorted(scenarios):
        numbered = scenarios[scenario]
        if sorted(numbered) != list(range(len(numbered))):
            raise ValueError(f"the answers of {scenario!r} are not numbered 0, 1, 2...: "
                             f"{sorted(numbered)}")
        answers = [numbered[number] for number in range(len(numbered))]
        text += json.dumps([scenario, _packed(answers)], separators=(",", ":")) + "\n"
    return text


# The preset dictionary of the compressed answers: the fragments that recur in them (the
# JSON of a tensor, dtypes, errors and their messages), made once by make_dictionary.py.
# An answer compressed with it reads back only with the same bytes, so they never change.
DICTIONARY = RECORDINGS / "answers.zdict"
DICTIONARY_SHA256 = "5c4b5f177a225c86d2e56863f3636b5675f4f2ccd0753d232cd23100403ba5aa"


@functools.cache
def _dictionary() -> bytes:
    dictionary = DICTIONARY.read_bytes()
    if hashlib.sha256(dictionary).hexdigest() != DICTIONARY_SHA256:
        raise RuntimeError(f"{DICTIONARY} has changed: every compressed answer needs the "
                           "bytes it was compressed with (see make_dictionary.py)")
    return dictionary


def _packed(answers: list[Any]) -> Any:
    text = json.dumps(answers, separators=(",", ":"))
    if len(text) <= READABLE_CHARACTERS:
        return answers
    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS, zdict=_dictionary())
    deflated = deflate.compress(text.encode("utf-8")) + deflate.flush()
    packed = base64.b85encode(deflated).decode()
    return {"__deflate85__": packed} if len(packed) < len(text) else answers


def _unpacked(stored: Any) -> list[Any]:
    if not isinstance(stored, dict):
        return stored
    if "__zlib85__" in stored:  # the form before the dictionary, read for merges
        return json.loads(zlib.decompress(base64.b85decode(stored["__zlib85__"])))
    inflate = zlib.decompressobj(-zlib.MAX_WBITS, zdict=_dictionary())
    deflated = base64.b85decode(stored["__deflate85__"])
    return json.loads(inflate.decompress(deflated) + inflate.flush())


def write(path: pathlib.Path, entries: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(lines(entries))


_files: dict[pathlib.Path, dict[str, Any]] = {}
# Answers counted per recording file and key: two modules may have a test of one name.
_answers_so_far: dict[tuple[pathlib.Path, str], int] = defaultdict(int)
# What the live run answered, for record.py: {file: {key: encoded}}; and the id of every
# test pytest found, selected or not (tests/conftest.py adds them).
answered: dict[pathlib.Path, dict[str, Any]] = defaultdict(dict)
collected: set[str] = set()


def _recorded(path: pathlib.Path) -> dict[str, Any]:
    if path not in _files:
        _files[path] = read(path)
    return _files[path]


def next_key() -> tuple[pathlib.Path, str]:
    """Where the running test's next answer from PyTorch is recorded: under the test's key
    (:func:`key_of`) and the answer's number."""
    nodeid = current_test()
    test, path = key_of(nodeid), recording_file(nodeid)
    number = _answers_so_far[path, test]
    _answers_so_far[path, test] += 1
    return path, f"{test}#{number}"


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
    test = key_of(test)
    found = [key for key in _recorded(path) if key.rsplit("#", 1)[0] == test]
    if not found:
        pytest.fail(missing(path, f"{test}#0"), pytrace=False)
    found.sort(key=lambda key: int(key.rsplit("#", 1)[1]))
    return [decode(_recorded(path)[key]) for key in found]


def header() -> str:
    """pytest's header line: which mode runs, so a summary says what it proved."""
    if live():
        return ("conformance: live, against the installed PyTorch (and its recordings "
                f"checked against it{'; recording them anew' if RECORDING else ''})")
    why = "MTH_CONFORMANCE=recorded" if pytorch_installed() else "PyTorch is not installed"
    return (f"conformance: recorded, against PyTorch 2.13's recorded answers in "
            f"{RECORDINGS.relative_to(TESTS.parent)}/ ({why})")
