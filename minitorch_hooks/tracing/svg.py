"""The timeline as a self-contained SVG drawing: one swim lane per owner, one row per call.

Each module, tensor or node that owns a hook gets a vertical lane; each hook call is a row,
tinted by its phase, with a dot in its owner's lane (filled when the hook replaced the
value, a cross when it raised) and the call written out on the right. The file needs
nothing else to display: no fonts, scripts or style sheets from elsewhere, only the
generic ``monospace`` family every viewer has.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .events import HookEvent

_CHAR = 7.2  # the width of one character of 12px monospace, near enough
_ROW = 22
_TOP = 64  # room for the title and the lane names
_PHASE_COLOURS = {"forward": "#dbeafe", "backward": "#ffedd5", "state_dict": "#dcfce7",
                  "registration": "#f3e8ff", "step": "#fef9c3"}
_INK = "#1f2937"


def _text(x: float, y: float, text: str, **attributes: str) -> str:
    extra = "".join(f' {name.replace("_", "-")}="{value}"' for name, value in attributes.items())
    return f'<text x="{x:.1f}" y="{y:.1f}"{extra}>{escape(text)}</text>'


def render_svg(events: list[HookEvent]) -> str:
    owners = list(dict.fromkeys(event.where for event in events))
    lane = max([12, *(len(where) + 2 for where in owners)]) * _CHAR
    first_lane = 12 * _CHAR  # the number and the phase
    text_x = first_lane + lane * len(owners) + 16
    rows = [f"{e.index}. {e.kind}: {e.call()}" + (f"  ({e.result()})" if e.result() else "")
            for e in events] or ["no hook fired"]
    width = text_x + max(len(row) for row in rows) * _CHAR + 16
    height = _TOP + _ROW * len(rows) + 12
    lane_x = {where: first_lane + lane * (i + 0.5) for i, where in enumerate(owners)}

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
             f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'font-family="monospace" font-size="12" fill="{_INK}">',
             '<rect width="100%" height="100%" fill="white"/>',
             _text(8, 20, f"Hook timeline: {len(events)} call(s)", font_size="14",
                   font_weight="bold")]
    for where, x in lane_x.items():
        parts.append(_text(x, _TOP - 12, where, text_anchor="middle", font_weight="bold"))
        parts.append(f'<line x1="{x:.1f}" y1="{_TOP - 6}" x2="{x:.1f}" y2="{height - 8:.0f}" '
                     'stroke="#9ca3af" stroke-dasharray="4 3"/>')
    for row, (event, label) in enumerate(zip(events, rows)):
        y = _TOP + _ROW * row
        middle = y + _ROW / 2
        parts.append(f'<rect x="4" y="{y}" width="{width - 8:.0f}" height="{_ROW - 2}" '
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
        parts.append(_text(text_x, _TOP + _ROW / 2 + 4, rows[0]))
    parts.append(_text(8, 40, "filled dot: the hook replaced the value; cross: it raised"))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
