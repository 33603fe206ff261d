"""A translated page's blocks reuse the verdict of the English page's run only when they
are the same code (comments aside) and show the same output, from the page's start.

``docs_tools/blocks.py`` keys each block by a digest of the page's code up to it, without
comments, and of its output blocks; these tests run small pages of their own and count
how often each block's code really ran.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docs_tools import blocks
from docs_tools.blocks import PageRun, code_tokens


def _page(folder: Path, name: str, *blocks_and_outputs: tuple[str, str]) -> Path:
    """A page of ``(code, output)`` blocks; each block appends its label to ``runs``."""
    text = ""
    for code, output in blocks_and_outputs:
        text += f"Some prose.\n\n```python\n{code}\n```\n\n```output\n{output}\n```\n\n"
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What ran, as the blocks below log it (and a fresh table of verdicts)."""
    monkeypatch.setattr(blocks, "_VERDICTS", {})
    log: list[str] = []
    monkeypatch.setattr("builtins.RUNS", log, raising=False)
    return log


FIRST = ("x = 2  # a number\nRUNS.append('first')\nprint(x)", "2")
SECOND = ("# doubled\nRUNS.append('second')\nprint(x * 2)", "4")


def _run(path: Path) -> PageRun:
    run = PageRun(path)
    run.run_through(len(run.examples) - 1)
    return run


def test_translated_comments_reuse_the_run(tmp_path: Path, runs: list[str]) -> None:
    _run(_page(tmp_path, "page.md", FIRST, SECOND))
    translated = (FIRST[0].replace("# a number", "# 一个数"),
                  FIRST[1]), (SECOND[0].replace("# doubled", "# 두 배"), SECOND[1])
    again = _run(_page(tmp_path, "page.zh.md", *translated))
    assert runs == ["first", "second"]  # the translation's blocks did not run again
    assert again.reused == {0, 1}


def test_a_difference_in_code_runs_the_page_from_its_start(tmp_path: Path,
                                                           runs: list[str]) -> None:
    _run(_page(tmp_path, "page.md", FIRST, SECOND))
    changed = ("RUNS.append('second')\nprint(x + x)", "4")
    _run(_page(tmp_path, "page.ru.md", FIRST, changed))
    # the first block ran again, for real, so that the changed one sees its own page's x
    assert runs == ["first", "second", "first", "second"]


@pytest.mark.parametrize("other", [
    ("x = 2  # a number\nRUNS.append('first')\nprint('#', x)", "# 2"),  # a '#' in a string
    ("x = 2\nRUNS.append('first')\nprint(x)", "2.0"),  # another output block
])
def test_a_hash_in_a_string_or_another_output_is_a_difference(
        tmp_path: Path, runs: list[str], other: tuple[str, str]) -> None:
    _run(_page(tmp_path, "page.md", ("x = 2\nRUNS.append('first')\nprint(x)", "2")))
    run = PageRun(_page(tmp_path, "page.ko.md", other))
    try:
        run.run_through(0)
    except Exception:  # noqa: BLE001, S110 - the wrong output fails; that is not the point here
        pass
    assert runs == ["first", "first"] and run.reused == set()


def test_a_reused_failure_names_where_it_ran(tmp_path: Path, runs: list[str]) -> None:
    wrong = ("RUNS.append('wrong')\nprint(3)", "4")
    with pytest.raises(Exception, match="differs from the output block"):
        _run(_page(tmp_path, "page.md", wrong))
    with pytest.raises(AssertionError, match=r"page\.md:\d+ \(comments aside\), which failed"):
        _run(_page(tmp_path, "page.ko.md", (wrong[0] + "  # 틀림", wrong[1])))
    assert runs == ["wrong"]


def test_run_all_gives_the_page_its_own_namespace(tmp_path: Path, runs: list[str]) -> None:
    _run(_page(tmp_path, "page.md", FIRST))
    assert PageRun(_page(tmp_path, "page.ru.md", FIRST)).run_all()["x"] == 2
    assert runs == ["first", "first"]


def test_comments_are_told_apart_from_code_by_the_tokenizer() -> None:
    assert code_tokens("a = 1  # one\n# more\n\nb = '#x'\n") == \
        code_tokens("a = 1  # один\nb = '#x'\n")
    assert code_tokens("b = '#x'\n") != code_tokens("b = '#y'\n")
