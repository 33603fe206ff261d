"""The build's pictures are drawn again only when what they are drawn from changed
(``docs_tools/pictures.py``: a cache keyed by a digest of the page and every input)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docs_tools import pictures


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """A fresh cache; what ``draw`` was called for."""
    monkeypatch.setattr(pictures, "CACHE", tmp_path / "pictures")
    return []


def _draw(drawn: list[str], svg: str):
    def draw() -> dict[str, str]:
        drawn.append(svg)
        return {"assets/plots/x.svg": svg}
    return draw


def test_a_second_build_reads_the_pictures_back(drawn: list[str]) -> None:
    first = pictures.page_pictures("performance.md", _draw(drawn, "<svg>1</svg>"))
    again = pictures.page_pictures("performance.md", _draw(drawn, "<svg>2</svg>"))
    assert first == again == {"assets/plots/x.svg": "<svg>1</svg>"} and drawn == ["<svg>1</svg>"]


def test_a_changed_input_draws_them_anew(drawn: list[str], monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    pictures.page_pictures("performance.md", _draw(drawn, "<svg>1</svg>"))
    monkeypatch.setattr(pictures, "_inputs_digest", lambda: "the package changed")
    again = pictures.page_pictures("performance.md", _draw(drawn, "<svg>2</svg>"))
    assert again == {"assets/plots/x.svg": "<svg>2</svg>"} and drawn == ["<svg>1</svg>",
                                                                         "<svg>2</svg>"]
    assert len(list((tmp_path / "pictures").iterdir())) == 1  # the older one is gone
    page = tmp_path / "page.md"
    page.write_text("a page")
    monkeypatch.setattr(pictures, "DOCS", tmp_path)
    pictures.page_pictures("page.md", _draw(drawn, "<svg>3</svg>"))
    page.write_text("the page, edited")
    pictures.page_pictures("page.md", _draw(drawn, "<svg>4</svg>"))
    assert drawn[2:] == ["<svg>3</svg>", "<svg>4</svg>"]


def test_every_input_folder_exists() -> None:
    """A renamed folder would silently leave the digest."""
    assert all((pictures.ROOT / folder).is_dir() for folder in pictures.INPUTS)
    assert len(pictures._inputs_digest()) == 64
