"""The timeline as a self-contained SVG drawing: one swim lane per owner, one row per call.

Each module, tensor or node that owns a hook gets a vertical lane, in the order of the
model; each hook call is a row, tinted by its phase, with a dot in its owner's lane (filled
when the hook replaced the value, a cross when it raised) and the call written out just
right of the lanes. The file needs
nothing else to display: no fonts, scripts or style sheets from elsewhere, only the
generic ``monospace`` family every viewer has.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

from .events import HookEvent

_CHAR = 7.2  # the width of one character of 12px monospace, near enough
_ROW = 22
_LANE = 34  # lanes are narrow: their titles are written slanting upwards
_SLANT = 35  # degrees
_PHASE_WIDTH = 9 * _CHAR + 8  # "backward", and a margin
_HEADER = 56  # the title and the legend, above the lane titles
_PHASE_COLOURS = {"forward": "#dbeafe", "backward": "#ffedd5", "state_dict": "#dcfce7",
                  "registration": "#f3e8ff", "step": "#fef9c3"}
_INK = "#1f2937"


def _text(x: float, y: float, text: str, **attributes: str) -> str:
    extra = "".join(f' {name.replace("_", "-")}="{value}"' for name, value in attributes.items())
    return f'<text x="{x:.1f}" y="{y:.1f}"{extra}>{escape(text)}</text>'


def lane_order(events: list[HookEvent], modules: Sequence[str] = ()) -> list[str]:
    """The owners, left to right in the order of the model rather than of the calls.

    An owner first seen in forward keeps that place (forward runs in model order); one
    seen only in backward, which runs the other way, is placed by its last-to-first
    appearance. Then the modules among them are put in ``modules``' order (the order of
    ``named_modules()``), keeping the places the other owners hold.
    """
    seen = list(dict.fromkeys(e.where for e in events))
    forward = list(dict.fromkeys(e.where for e in events if e.phase != "backward"))
    lanes = forward + [where for where in reversed(seen) if where not in forward]
    rank = {name: i for i, name in enumerate(modules)}
    ranked = iter(sorted((w for w in lanes if w in rank), key=rank.__getitem__))
    return [next(ranked) if where in rank else where for where in lanes]


def render_svg(events: list[HookEvent], modules: Sequence[str] = ()) -> str:
    """One narrow lane per owner, in model order, with each call written just right of
    the lanes, beside its dot; the width is what the text needs, so that a page can
    scale the drawing down to its column and keep every label next to its mark."""
    owners = lane_order(events, modules)
    longest = max([0, *(len(where) for where in owners)]) * _CHAR
    rise = longest * math.sin(math.radians(_SLANT))
    top = _HEADER + rise + 14
    lane_x = {where: _PHASE_WIDTH + _LANE * (i + 0.5) for i, where in enumerate(owners)}
    text_x = _PHASE_WIDTH + _LANE * len(owners) + 10
    rows = [f"{e.index}. {e.kind}: {e.call()}" + (f"  ({e.result()})" if e.result() else "")
            for e in events] or ["no hook fired"]
    legend = "filled dot: the hook replaced the value; cross: it raised"
    width = max(text_x + max(len(row) for row in rows) * _CHAR + 12,
                _PHASE_WIDTH + _LANE * len(owners) + longest * math.cos(math.radians(_SLANT)),
                8 + len(legend) * _CHAR + 8)
    height = top + _ROW * len(rows) + 12

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
             f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'font-family="monospace" font-size="12" fill="{_INK}">',
             '<rect width="100%" height="100%" fill="white"/>',
             _text(8, 20, f"Hook timeline: {len(events)} call(s)", font_size="14",
                   font_weight="bold"),
             _text(8, 40, legend)]
    for where, x in lane_x.items():
        y = top - 10
        parts.append(_text(x - 4, y, where, font_weight="bold",
                           transform=f"rotate(-{_SLANT} {x - 4:.1f} {y:.1f})"))
        parts.append(f'<line x1="{x:.1f}" y1="{top - 6:.1f}" x2="{x:.1f}" '
                     f'y2="{height - 8:.0f}" stroke="#9ca3af" stroke-dasharray="4 3"/>')
    for row, (event, label) in enumerate(zip(events, rows)):
        y = top + _ROW * row
        middle = y + _ROW / 2
        parts.append(f'<rect x="4" y="{y:.1f}" width="{width - 8:.0f}" height="{_ROW - 2}" '
                     f'rx="3" fill="{_PHASE_COLOURS.get(event.phase, "#f3f4f6")}"/>')
        parts.append(_text(8, middle + 4, event.phase))
        x = lane_x[event.where]
        if event.raised is not None:
            parts.append(f'<path d="M{x - 5:.1f} {middle - 5:.1f} l10 10 m0 -10 l-10 10" '
                         'stroke="#dc2626" stroke-width="2.5"/>')
        else:
            fill = _INK if event.replaced else "white"
            parts.append(f'<circle cx="{x:.1f}" cy="{middle:.1f}" r="5" fill="{fill}" '
                         f'stroke="{_INK}" stroke-width="1.5"/>')
        parts.append(_text(text_x, middle + 4, label))
    if not events:
        parts.append(_text(text_x, top + _ROW / 2 + 4, rows[0]))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
