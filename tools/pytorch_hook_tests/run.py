"""Runs PyTorch's own hook tests on minitorch_hooks installed as ``torch``.

    python tools/pytorch_hook_tests/run.py PATH/TO/PYTORCH [-k SUBSTRING] [-v]

PATH/TO/PYTORCH is a checkout of PyTorch's repository (only its ``test/`` files are read).
For each file in :data:`SELECTION` the runner takes the tests that :func:`selected` names,
runs them with ``unittest`` and prints one line a test (``PASS``, ``FAIL``, ``ERROR``,
``SKIP``), the reason of each failure, and a summary per file.

A test file is not imported whole: it is run statement by statement, so that one import
of something minitorch_hooks does not have (``torch.autograd.forward_ad``, the profiler,
PyTorch's device-generic test machinery) does not stop the hook tests beside it. A name
whose import fails is bound to :class:`Unavailable`, which raises, naming the import and
its error, at the first test that uses it. ``torch.testing._internal.common_utils`` and
``common_nn`` are this folder's small stand-ins (``common_utils.py``, ``common_nn.py``).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import pathlib
import re
import sys
import time
import types
import unittest
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

HERE = pathlib.Path(__file__).resolve().parent
REPOSITORY = HERE.parent.parent
SHIMS = {f"torch.testing._internal.{name}": HERE / f"{name}.py"
         for name in ("common_utils", "common_nn", "common_device_type", "common_optimizers")}

# PyTorch's test files and which of their tests are hook tests: every test of the files
# about hooks, and the tests of test_autograd.py whose names say hook or retain_grad
# (retains_grad is a tensor hook in PyTorch's engine) or that save tensors through
# saved-tensor hooks (save_on_cpu, to disk).
SELECTION: dict[str, str] = {
    "test/nn/test_module_hooks.py": r"",
    "test/nn/test_optimizer_hooks.py": r"",
    "test/test_autograd.py": r"hook|retain|save_on_cpu|saving_variable",
    "test/test_optim.py": r"hook",
}


def selected(file: str, test_name: str, keyword: str | None) -> bool:
    return (re.search(SELECTION[file], test_name) is not None
            and (keyword is None or keyword in test_name))


class Unavailable:
    """Stands for a name whose import failed; using it raises, naming the import."""

    def __init__(self, statement: str, error: BaseException) -> None:
        self._reason = f"{statement!r} failed: {type(error).__name__}: {error}"

    def _raise(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"unavailable: {self._reason}")

    __call__ = __getattr__ = __iter__ = __enter__ = _raise

    def __repr__(self) -> str:
        return f"<unavailable: {self._reason}>"


def install_torch(real_torch: bool) -> None:
    """minitorch_hooks as ``torch`` (or PyTorch itself, to see what a test does there), and
    the two stand-ins under PyTorch's names."""
    if not real_torch:
        sys.path.insert(0, str(REPOSITORY))
        import minitorch_hooks

        minitorch_hooks.install_as_torch()
    for name, path in SHIMS.items():
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)


def _statement(node: ast.stmt, source: str) -> str:
    return ast.get_source_segment(source, node) or ast.dump(node)


def _run_import(node: ast.Import | ast.ImportFrom, namespace: dict, source: str) -> list[str]:
    """Runs an import one name at a time; a name that fails becomes Unavailable."""
    problems = []
    for alias in node.names:
        single = (ast.ImportFrom(module=node.module, names=[alias], level=node.level)
                  if isinstance(node, ast.ImportFrom) else ast.Import(names=[alias]))
        ast.copy_location(single, node)
        text = ast.unparse(single)
        try:
            exec(compile(ast.Module([single], []), "<import>", "exec"), namespace)
        except Exception as error:  # ImportError, or minitorch's NotImplementedError
            bound = alias.asname or alias.name.split(".")[0]
            if bound not in namespace:  # ``import torch.x`` leaves ``torch`` as it was
                namespace[bound] = Unavailable(text, error)
            problems.append(f"{text}: {type(error).__name__}: {error}")
    return problems


GUARD = "__pytorch_hook_tests_guarded__"


def guarded(make_decorator: Callable[[], Any], text: str) -> Callable[[Any], Any]:
    """A test's decorator, made and applied; if either fails (``@scoped_load_inline``,
    which compiles C++ for PyTorch, say), only that test errors, naming the decorator."""

    def failing(fn: Callable, error: Exception) -> Callable:
        def test(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError(f"decorator @{text} is unavailable: "
                               f"{type(error).__name__}: {error}") from error
        test.__name__, test.__qualname__ = fn.__name__, fn.__qualname__
        return test

    try:
        decorator = make_decorator()
    except Exception as error:
        failure = error
        return lambda fn: failing(fn, failure)

    def apply(fn: Callable) -> Any:
        try:
            return decorator(fn)
        except Exception as error:
            return failing(fn, error)
    return apply


class _GuardDecorators(ast.NodeTransformer):
    """``@d`` on a function becomes ``@guarded(lambda: d, "d")``."""

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:  # noqa: N802
        self.generic_visit(node)
        node.decorator_list = [
            ast.Call(func=ast.Name(GUARD, ast.Load()),
                     args=[ast.Lambda(ast.arguments([], [], None, [], [], None, []), d),
                           ast.Constant(ast.unparse(d))], keywords=[])
            for d in node.decorator_list]
        return node


def _is_main_guard(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)


@dataclass
class LoadedFile:
    namespace: dict
    import_problems: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)  # test name -> why it cannot run


def load(path: pathlib.Path) -> LoadedFile:
    """Runs a test file's top-level statements one by one in a fresh namespace."""
    source = path.read_text()
    tree = ast.parse(source)
    # A real module, so that pickle finds the file's functions by their qualified name.
    module = types.ModuleType(path.stem)
    module.__file__ = str(path)
    sys.modules[module.__name__] = module
    loaded = LoadedFile(module.__dict__)
    loaded.namespace[GUARD] = guarded
    tree = ast.fix_missing_locations(_GuardDecorators().visit(tree))
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            loaded.import_problems += _run_import(node, loaded.namespace, source)
        elif _is_main_guard(node):
            continue
        else:
            code = compile(ast.Module([node], []), str(path), "exec")
            try:
                exec(code, loaded.namespace)
            except Exception as error:
                names = [n.name for n in ast.walk(node)
                         if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]
                reason = f"defining it failed: {type(error).__name__}: {error}"
                loaded.errors.update(dict.fromkeys(names, reason))
    instantiate = loaded.namespace["instantiate_parametrized_tests"] \
        if "instantiate_parametrized_tests" in loaded.namespace else None
    for value in list(loaded.namespace.values()):
        if isinstance(value, type) and issubclass(value, unittest.TestCase) and callable(
                instantiate):
            instantiate(value)
    return loaded


def collect(file: str, loaded: LoadedFile, keyword: str | None) -> list[unittest.TestCase]:
    tests: list[unittest.TestCase] = []
    module_name = loaded.namespace["__name__"]
    for name, value in loaded.namespace.items():
        if isinstance(value, type) and issubclass(value, unittest.TestCase) \
                and value.__module__ == module_name:
            for method in unittest.TestLoader().getTestCaseNames(value):
                if selected(file, method, keyword):
                    tests.append(value(method))
        elif name.startswith("test") and callable(value) and selected(file, name, keyword):
            tests.append(unittest.FunctionTestCase(value, description=name))
    return tests


def test_name(test: unittest.TestCase) -> str:
    if isinstance(test, unittest.FunctionTestCase):
        return test.shortDescription()
    return f"{type(test).__name__}.{test._testMethodName}"


class Outcomes(unittest.TestResult):
    """Keeps one outcome a test, with its traceback, in the order the tests ran."""

    def __init__(self) -> None:
        super().__init__()
        self.outcomes: dict[str, tuple[str, str]] = {}

    def addSuccess(self, test: unittest.TestCase) -> None:  # noqa: N802
        self.outcomes.setdefault(test_name(test), ("PASS", ""))

    def addFailure(self, test: unittest.TestCase, err: Any) -> None:  # noqa: N802
        self.outcomes[test_name(test)] = ("FAIL", self._exc_info_to_string(err, test))

    def addError(self, test: unittest.TestCase, err: Any) -> None:  # noqa: N802
        self.outcomes[test_name(test)] = ("ERROR", self._exc_info_to_string(err, test))

    def addSkip(self, test: unittest.TestCase, reason: str) -> None:  # noqa: N802
        self.outcomes[test_name(test)] = ("SKIP", reason)


def _last_line(report: str) -> str:
    lines = [line for line in report.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def run_file(checkout: pathlib.Path, file: str, keyword: str | None, verbose: bool,
             out: Callable[[str], None]) -> dict[str, int]:
    path = checkout / file
    out(f"== {file}")
    if not path.exists():
        out("   (not in this checkout)")
        return {}
    loaded = load(path)
    for problem in loaded.import_problems:
        out(f"   unavailable: {problem}")
    results = Outcomes()
    for test in collect(file, loaded, keyword):
        started = time.perf_counter()
        test.run(results)
        name = test_name(test)
        status, report = results.outcomes.get(name, ("ERROR", "no outcome was reported"))
        results.outcomes[name] = (status, report)
        seconds = time.perf_counter() - started
        out(f"{status:5} {name} ({seconds:.2f}s)" + (f": {_last_line(report)}" if report else ""))
        if verbose and status in ("FAIL", "ERROR"):
            out("      " + report.strip().replace("\n", "\n      "))
    for name, reason in loaded.errors.items():
        if selected(file, name, keyword):
            results.outcomes[name] = ("ERROR", reason)
            out(f"ERROR {name}: {reason}")
    counts = {status: 0 for status in ("PASS", "FAIL", "ERROR", "SKIP")}
    for status, _ in results.outcomes.values():
        counts[status] += 1
    out(f"   {file}: {counts['PASS']} passed, {counts['FAIL']} failed, "
        f"{counts['ERROR']} errored, {counts['SKIP']} skipped")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=pathlib.Path, help="a checkout of PyTorch's repository")
    parser.add_argument("-k", dest="keyword", help="only tests whose name contains this")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print the traceback of each failure")
    parser.add_argument("--real-torch", action="store_true",
                        help="run the same tests on PyTorch itself, with the same stand-ins")
    args = parser.parse_args(argv)
    install_torch(args.real_torch)
    totals = {status: 0 for status in ("PASS", "FAIL", "ERROR", "SKIP")}
    for file in SELECTION:
        for status, count in run_file(args.checkout, file, args.keyword, args.verbose,
                                      print).items():
            totals[status] += count
    print(f"{totals['PASS']} passed, {totals['FAIL']} failed, {totals['ERROR']} errored, "
          f"{totals['SKIP']} skipped")
    return 0 if totals["FAIL"] == totals["ERROR"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
