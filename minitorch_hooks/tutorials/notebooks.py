"""Reading a learner's exercise notebook, for ``minitorch-hooks check``.

An exercise file opens as a notebook through jupytext. Paired
(``jupytext --set-formats ipynb,py:percent exNN_name.py``), Jupyter saves every edit into
both ``exNN_name.ipynb`` and ``exNN_name.py``. Unpaired (``jupytext --to notebook``),
the edits stay in the ``.ipynb`` alone, and an editor that does not know jupytext (VS
Code's notebook view, for one) updates only the ``.ipynb`` even when it is paired. So
``check`` must be able to read the notebook itself: a notebook is JSON, and its code
cells, in order, are the program. No jupytext is needed for that.
"""

from __future__ import annotations

import json
from pathlib import Path

PAIR_COMMAND = "jupytext --set-formats ipynb,py:percent {name}"


def _notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def is_paired(path: Path) -> bool:
    """Whether the notebook at ``path`` is paired with a percent-format ``.py`` file."""
    formats = _notebook(path).get("metadata", {}).get("jupytext", {}).get("formats", "")
    return any(fmt.split(":")[0].lstrip(".") == "py" for fmt in formats.split(","))


def notebook_code(path: Path) -> str:
    """The notebook's code cells as one percent-format script (text cells left out)."""
    cells = []
    for cell in _notebook(path).get("cells", []):
        if cell.get("cell_type") == "code":
            source = cell.get("source", "")
            cells.append("# %%\n" + ("".join(source) if isinstance(source, list) else source))
    return "\n\n".join(cells) + "\n"
