"""Record PyTorch 2.13's answers anew: ``python -m tests.conformance.record [pytest args]``.

Without arguments it regenerates every recording of PyTorch's answers, in three steps: the
tests' recordings (``tests/recordings/``, below), the exercises' answers
(``python -m minitorch_hooks.tutorials.record_answers``) and the conformance page
(``python -m docs_tools.conformance``). With arguments (files, ``-k``) it records the tests
selected only.

Runs the tests (all of ``tests/`` by default, or the files and ``-k`` given) on the live
PyTorch with ``MTH_RECORD=1``: every answer PyTorch gives is kept, and at the end of the
session each recording file of a test module that ran is rewritten and what changed is
printed. A test that ran and passed has its answers replaced (so answers it no longer asks
for go); one that failed keeps its older answers beside the new ones (PyTorch's answers
do not depend on minitorch_hooks, but a failure may stop a test before it asks them all);
the answers of tests that no longer exist go. Read the diff of ``tests/recordings/``
before committing it: a changed answer means PyTorch now does something else.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))  # for `python -m tests.conformance...`
import recording  # noqa: E402

ROOT = recording.TESTS.parent


def save(collected: set[str], ran: set[str], passed: set[str]) -> list[str]:
    """Write the answers of this process into the recordings; lines saying what changed.

    ``collected`` holds the ids of every test pytest found (selected or not), ``ran`` those
    that ran in this process (a pytest-xdist worker runs whole modules: their files are its
    own to write) and ``passed`` those that ran and passed. Each file is written whole, in
    the current form: answers kept from it are read and written again, so a file in an
    older form (decimal tensors, keys by pytest id) or with conflict markers is rewritten
    even where no answer changed."""
    modules = {nodeid.split("::", 1)[0] for nodeid in ran}
    lines = []
    for path in sorted({recording.recording_file(m + "::") for m in modules}
                       | set(recording.answered)):
        module = path.relative_to(recording.RECORDINGS).with_suffix(".py")
        tests = {recording.key_of(n) for n in collected if n.startswith(f"tests/{module}::")}
        old = {key: recording.encode(recording.decode(value))
               for key, value in recording.read(path).items()}
        new = {key: value for key, value in old.items()
               if _test_of(key) in tests and _test_of(key) not in passed_here(passed, module)}
        new |= recording.answered.get(path, {})
        if not new and not old:
            continue
        added = sorted(new.keys() - old.keys())
        removed = sorted(old.keys() - new.keys())
        changed = sorted(k for k in new.keys() & old.keys()
                         if json.dumps(new[k]) != json.dumps(old[k]))  # (nan != nan)
        text = recording.lines(new)
        if text != (path.read_text() if path.exists() else ""):
            recording.write(path, new) if new else path.unlink()
            where = path.relative_to(ROOT)
            lines.append(f"{where}: {len(added)} added, {len(changed)} changed, "
                         f"{len(removed)} removed" + ("" if added or changed or removed
                                                      else " (rewritten in the current form)"))
            lines += [f"  {sign} {key}" for sign, keys in (("+", added), ("~", changed),
                                                            ("-", removed))
                      for key in keys[:20]]
    return lines


def _test_of(key: str) -> str:
    """``test_x[p]#2`` -> ``test_x[p]`` (a named answer keeps its name)."""
    return key.rsplit("#", 1)[0]


def passed_here(passed: set[str], module: pathlib.Path) -> set[str]:
    prefix = f"tests/{module.as_posix()}::"
    return {recording.key_of(n) for n in passed if n.startswith(prefix)}


def main(argv: list[str]) -> int:
    if not recording.pytorch_installed():
        sys.exit("error: recording needs real PyTorch 2.13.0 installed")
    env = dict(os.environ, MTH_RECORD="1", MTH_CONFORMANCE="live")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               *(argv or ["tests"])]
    tests = subprocess.run(command, cwd=ROOT, env=env).returncode
    if argv:
        return tests
    others = [subprocess.run([sys.executable, "-m", module], cwd=ROOT).returncode
              for module in EVERY_OTHER_RECORDING]
    return max([tests, *others])


# What the command without arguments regenerates after the tests' recordings (each asks
# PyTorch itself): the exercises' answers shipped with the package, and the conformance page.
EVERY_OTHER_RECORDING = ["minitorch_hooks.tutorials.record_answers", "docs_tools.conformance"]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
