"""The table: four hands around a green felt, and a judged deal (RULES.md §0, §2), as SVG and HTML strings.

Seat 0 sits at the bottom, 1 on the right, 2 at the top and 3 on the left, so play runs counter-clockwise.
The only rule facts used are those :mod:`musteach.rules.lances` provides (seats, teams, mano and postre) or
that a :class:`~musteach.rules.lances.DealResult` already holds.

>>> 'data-hands="12o 3c 7e 5b|12c 11o 11c 4e|1o 1c 4o 5o|6c 6e 10o 2b"' in table_svg(
...     ["12o 3c 7e 5b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 2b"], mano=0)
True

No element carries an ``id``, so any number of tables can be inlined in one page.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..i18n import N_, Text, speaking, translator
from ..rules.cards import Card, Hand, parse_hands
from ..rules.errors import MusError, RulesError, SeatError
from ..rules.lances import DealResult, check_seat, seat_roles, speaking_order, team_of
from ..rules.options import Rules
from .cards import (
    CARD_RATIO,
    CARD_WIDTH,
    FELT,
    FELT_EDGE,
    HIGHLIGHT,
    PANEL_FILL,
    TEAM_COLORS,
    TEXT_FONT,
    check_width,
    hand_grid,
    hand_row,
    hand_row_width,
)
from .xml import SVG_NS, escaped, number

__all__ = ["deal_html", "table_svg"]

_TEAM_LEGEND = (("A", N_("Team A (seats 0 & 2)")), ("B", N_("Team B (seats 1 & 3)")))


def _highlight_seats(highlight: int | Iterable[int] | None) -> frozenset[int]:
    if highlight is None:
        return frozenset()
    if isinstance(highlight, int) and not isinstance(highlight, bool):
        return frozenset((check_seat(highlight, "highlight"),))
    if isinstance(highlight, str | bytes) or not isinstance(highlight, Iterable):
        raise SeatError(Text("highlight must be a seat 0-3 or a set of seats, not {value}", value=repr(highlight)))
    return frozenset(check_seat(s, "highlight") for s in highlight)


def _role_text(seat: int, mano: int) -> str:
    roles = seat_roles(seat, mano)
    return roles[0] if roles else ""


def _rules_note(rules: Rules | None) -> str:
    if rules is None:
        return ""
    if not isinstance(rules, Rules):
        raise RulesError(Text("rules must be a musteach Rules, not {rules}", rules=repr(rules)))
    _ = translator()
    if rules.kings == 8:
        return _("8 reyes (3 = rey, 2 = as) · game to {target}", target=rules.target)
    return _("4 reyes · game to {target}", target=rules.target)


@dataclass(frozen=True)
class _Layout:
    """The table's geometry for cards ``w`` pixels wide: every length scales with ``s = w / 60``.

    Seats 0 (bottom) and 2 (top) hold their cards in a row; seats 1 (right) and 3 (left) in two rows of two,
    so the table is narrow enough for a phone: about 5.9 card widths across, where four in a row on each
    side took 10.4 (a phone scaled the cards down to about 0.6, and their corner indices to about 7 px).
    """

    w: float
    caption: bool
    note: str
    team_legend: tuple[tuple[str, str], ...] = _TEAM_LEGEND  # the teams' legend words, in the picture's language

    @property
    def s(self) -> float:
        return self.w / 60.0

    @property
    def pad(self) -> float:  # inside a seat panel
        return 9 * self.s

    @property
    def band(self) -> float:  # the label band on top of a seat panel
        return 26 * self.s

    @property
    def gap(self) -> float:  # between two cards of a hand
        return self.w * 0.08

    @staticmethod
    def is_side(seat: int) -> bool:
        """Seats 1 and 3 sit at the sides: two rows of two cards, the mano/postre pill under the name."""
        return seat in (1, 3)

    def band_of(self, seat: int) -> float:
        return self.band + (20 * self.s if self.is_side(seat) else 0.0)

    def panel_w(self, seat: int) -> float:
        cards = 2 * self.w + self.gap if self.is_side(seat) else hand_row_width(self.w)
        return cards + 2 * self.pad

    def panel_h(self, seat: int) -> float:
        h = self.w * CARD_RATIO
        cards = 2 * h + self.gap if self.is_side(seat) else h
        return self.band_of(seat) + cards + 2 * self.pad

    @property
    def margin(self) -> float:  # felt edge to panels
        return 13 * self.s

    @property
    def felt_w(self) -> float:
        middle = 2 * self.panel_w(1) + 34 * self.s  # 34: the gap between the side panels (the arrow)
        return 2 * self.margin + max(self.panel_w(0), middle)

    @property
    def felt_h(self) -> float:
        return 2 * self.margin + self.panel_h(0) + self.panel_h(1) + self.panel_h(2) + 2 * 10 * self.s

    @property
    def cap_h(self) -> float:  # the caption line; also the felt's top
        return 28 * self.s if self.caption else 0.0

    @property
    def fs(self) -> float:  # legend text
        return 12.5 * self.s

    def legend_items(self) -> list[tuple[str | None, str, float]]:
        """The legend's items: (team or None for the note, text, width)."""
        s, fs = self.s, self.fs
        items: list[tuple[str | None, str, float]] = [
            (team, text, 12 * s + 5 * s + len(text) * fs * 0.6) for team, text in self.team_legend
        ]
        items.extend((None, part, len(part) * fs * 0.6) for part in self.note.split(" · ", 1))
        return items

    def legend_lines(self) -> list[list[tuple[str | None, str, float]]]:
        """The legend's items packed into lines no wider than the felt."""
        lines: list[list[tuple[str | None, str, float]]] = [[]]
        used = 0.0
        for item in self.legend_items():
            extra = item[2] + (16 * self.s if lines[-1] else 0.0)
            if lines[-1] and used + extra > self.felt_w - 12 * self.s:
                lines.append([])
                used, extra = 0.0, item[2]
            lines[-1].append(item)
            used += extra
        return lines

    @property
    def total_h(self) -> float:
        return self.cap_h + self.felt_h + (12 + 18 * len(self.legend_lines())) * self.s

    def seat_xy(self, seat: int) -> tuple[float, float]:
        """The top left corner of a seat's panel: 0 bottom, 1 right, 2 top, 3 left."""
        fy = self.cap_h
        side_y = fy + self.margin + self.panel_h(2) + 10 * self.s
        return {
            0: ((self.felt_w - self.panel_w(0)) / 2, fy + self.felt_h - self.margin - self.panel_h(0)),
            1: (self.felt_w - self.margin - self.panel_w(1), side_y),
            2: ((self.felt_w - self.panel_w(2)) / 2, fy + self.margin),
            3: (self.margin, side_y),
        }[seat]


def _pill(x_right: float, y: float, h: float, text: str, fill: str, ink: str, stroke: str) -> str:
    """A rounded label ending at x_right, vertically centred on y."""
    fs = h * 0.62
    w = len(text) * fs * 0.62 + h * 0.9
    return (
        f'<rect x="{number(x_right - w)}" y="{number(y - h / 2)}" width="{number(w)}" height="{number(h)}" '
        f'rx="{number(h / 2)}" fill="{fill}" stroke="{stroke}" stroke-width="{number(h * 0.07)}"/>'
        f'<text x="{number(x_right - w / 2)}" y="{number(y + fs * 0.36)}" text-anchor="middle" '
        f'font-family="{TEXT_FONT}" font-size="{number(fs)}" font-weight="bold" fill="{ink}">{text}</text>'
    )


def _ccw_arrow(cx: float, cy: float, r: float) -> str:
    """A circular arrow turning counter-clockwise (the way play goes)."""
    # Screen angles (y points down), so counter-clockwise on screen means a decreasing angle: start low
    # right (60°) and go up through the right, the top and the left to low left (-200°): 260° with sweep 0.
    a0, a1 = math.radians(60), math.radians(-200)
    x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
    x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
    d = f"M{number(x0)},{number(y0)} A{number(r)},{number(r)} 0 1 0 {number(x1)},{number(y1)}"
    # arrowhead at the end point, pointing along the counter-clockwise tangent
    t = a1 - math.pi / 2
    hx, hy = math.cos(t), math.sin(t)  # direction of travel
    px, py = -hy, hx
    s = r * 0.45
    tip = (x1 + hx * s * 0.6, y1 + hy * s * 0.6)
    b1 = (x1 - hx * s * 0.4 + px * s * 0.5, y1 - hy * s * 0.4 + py * s * 0.5)
    b2 = (x1 - hx * s * 0.4 - px * s * 0.5, y1 - hy * s * 0.4 - py * s * 0.5)
    head = f"M{number(tip[0])},{number(tip[1])} L{number(b1[0])},{number(b1[1])} L{number(b2[0])},{number(b2[1])} Z"
    return (
        f'<g class="musteach-direction"><title>play runs counter-clockwise</title>'
        f'<path d="{d}" fill="none" stroke="#E8F3EC" stroke-width="{number(r * 0.16)}" stroke-linecap="round"/>'
        f'<path d="{head}" fill="#E8F3EC"/></g>'
    )


def _seat_group(
    lay: _Layout, seat: int, hand: Hand, mano: int, speaks: int, lit: bool, marked: Iterable[int] = ()
) -> str:
    """One seat's panel: the team band with "Seat n · team X", the mano/postre pill and the 4 cards."""
    _ = translator()
    x, y = lay.seat_xy(seat)
    s, band, panel_w, panel_h = lay.s, lay.band_of(seat), lay.panel_w(seat), lay.panel_h(seat)
    side = lay.is_side(seat)
    # the pill: at the right end of the name band, or on its own line under the name in a side panel
    pill_y = y + lay.band + 10 * s if side else y + band / 2
    team = team_of(seat)
    tfill, tink = TEAM_COLORS[team]
    role = _role_text(seat, mano)
    seat_name, team_name = escaped(_("Seat {seat}", seat=seat)), escaped(_("· team {team}", team=team))
    g = [
        f'<g class="musteach-seat" data-seat="{seat}" data-team="{team}" data-role="{role}" '
        f'data-highlight="{"true" if lit else "false"}" data-speaks="{speaks}">'
    ]
    if lit:
        g.append(
            f'<rect x="{number(x - 5 * s)}" y="{number(y - 5 * s)}" width="{number(panel_w + 10 * s)}" '
            f'height="{number(panel_h + 10 * s)}" rx="{number(14 * s)}" fill="{HIGHLIGHT}" fill-opacity="0.35" '
            f'stroke="{HIGHLIGHT}" stroke-width="{number(4 * s)}" class="musteach-glow"/>'
        )
    r = 9 * s
    g.append(
        f'<rect class="musteach-panel" x="{number(x)}" y="{number(y)}" width="{number(panel_w)}" '
        f'height="{number(panel_h)}" rx="{number(r)}" fill="{PANEL_FILL}" stroke="{tfill}" stroke-width="{number(3 * s)}"/>'
        f'<path d="M{number(x)},{number(y + band)} V{number(y + r)} A{number(r)},{number(r)} 0 0 1 {number(x + r)},{number(y)} '
        f"H{number(x + panel_w - r)} A{number(r)},{number(r)} 0 0 1 {number(x + panel_w)},{number(y + r)} "
        f'V{number(y + band)} Z" fill="{tfill}"/>'
        f'<text x="{number(x + r)}" y="{number(y + lay.band * 0.7)}" font-family="{TEXT_FONT}" font-size="{number(14 * s)}" '
        f'font-weight="bold" fill="{tink}">{seat_name} '
        f'<tspan font-weight="normal">{team_name}</tspan></text>'
    )
    if role == "mano":
        g.append(_pill(x + panel_w - 5 * s, pill_y, 19 * s, "MANO", "#FFFFFF", "#111111", "#111111"))
    elif role == "postre":
        g.append(_pill(x + panel_w - 5 * s, pill_y, 19 * s, "POSTRE", "#222222", "#FFFFFF", "#FFFFFF"))
    top = y + band + lay.pad
    if side:  # two rows of two cards: indexes 0, 1 above, 2, 3 below
        g.append(hand_grid(hand, x + lay.pad, top, lay.w, marked=marked))
    else:
        g.append(hand_row(hand, x + lay.pad, top, lay.w, marked=marked))
    g.append("</g>")
    return "".join(g)


def _legend(lay: _Layout) -> str:
    """The team swatches below the felt, and the note (play direction, rules), on as many lines as the width needs."""
    s, fs = lay.s, lay.fs
    sw = 12 * s
    legend = []
    for i, line in enumerate(lay.legend_lines()):
        ly = lay.cap_h + lay.felt_h + (19 + 18 * i) * s
        lx = 6 * s
        for team, text, width in line:
            if team is None:
                legend.append(
                    f'<text x="{number(lx)}" y="{number(ly)}" font-family="{TEXT_FONT}" '
                    f'font-size="{number(fs)}" fill="#444">{escaped(text)}</text>'
                )
            else:
                tfill, _ = TEAM_COLORS[team]
                legend.append(
                    f'<rect class="musteach-swatch" data-team="{team}" x="{number(lx)}" y="{number(ly - sw * 0.85)}" '
                    f'width="{number(sw)}" height="{number(sw)}" rx="{number(2 * s)}" fill="{tfill}"/>'
                    f'<text x="{number(lx + sw + 5 * s)}" y="{number(ly)}" font-family="{TEXT_FONT}" font-size="{number(fs)}" '
                    f'fill="#222">{escaped(text)}</text>'
                )
            lx += width + 16 * s
    return f'<g class="musteach-legend">{"".join(legend)}</g>'


def _seat_label(seat: int, hand: Hand, mano: int) -> str:
    """A seat's text alternative: "Seat 1, team B, postre: rey de oros, …"."""
    _ = translator()
    role = _role_text(seat, mano)
    cards = ", ".join(c.name for c in hand)
    if role:
        return _("Seat {seat}, team {team}, {role}: {cards}", seat=seat, team=team_of(seat), role=role, cards=cards)
    return _("Seat {seat}, team {team}: {cards}", seat=seat, team=team_of(seat), cards=cards)


def table_svg(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    *,
    highlight: int | Iterable[int] | None = None,
    card_width: float = CARD_WIDTH,
    caption: str | None = None,
    rules: Rules | None = None,
    marks: Mapping[int, Iterable[int]] | None = None,
    lang: str | None = None,
) -> str:
    """The four hands around a green table, as a standalone SVG document (RULES.md §0, §2), its words in
    ``lang`` (None: the language being spoken).

    hands: 4 hands of 4 cards, indexed by seat. Seat 0 sits at the bottom, 1 on the right, 2 at the top,
    3 on the left, so play (0, 1, 2, 3) runs counter-clockwise.
    mano: the seat 0..3 that speaks first; it is marked "mano", and mano+3 (the dealer) "postre".
    highlight: a seat or a set of seats drawn with a glowing ring (e.g. a lance's winner).
    card_width: CSS pixels per card; the whole picture scales with it.
    caption: optional title line above the table. rules: a :class:`~musteach.rules.Rules`, named in the legend.
    marks: per seat, indexes 0..3 of cards to ring (a hint's deciding cards; ``data-marked`` on each).

    Team A (seats 0 and 2) and team B (seats 1 and 3) have their own colour, with a legend.
    The root ``<svg class="musteach-table">`` carries ``data-hands`` (codes, seats 0..3 joined by ``|``) and
    ``data-mano``; each seat is a ``<g class="musteach-seat" data-seat data-team data-role data-highlight>``.
    Raises :class:`~musteach.rules.errors.HandSizeError`, :class:`~musteach.rules.errors.UnknownCardError`,
    :class:`~musteach.rules.errors.DuplicateCardError`, :class:`~musteach.rules.errors.SeatError` (mano, highlight),
    :class:`~musteach.rules.errors.RulesError` (rules), :class:`~musteach.rules.errors.MusError` (card_width).
    """
    with speaking(lang):
        return _table_svg(hands, mano, highlight, card_width, caption, rules, marks)


def _table_svg(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    highlight: int | Iterable[int] | None,
    card_width: float,
    caption: str | None,
    rules: Rules | None,
    marks: Mapping[int, Iterable[int]] | None,
) -> str:
    _ = translator()
    hs = parse_hands(hands)
    m = check_seat(mano, "mano")
    lit = _highlight_seats(highlight)
    w = check_width(card_width, "card_width")
    rules_note = _rules_note(rules)
    direction = _("↺ play runs counter-clockwise")
    note = f"{direction} · {rules_note}" if rules_note else direction  # the legend splits its items at " · "
    lay = _Layout(w=w, caption=bool(caption), note=note, team_legend=tuple((t, _(text)) for t, text in _TEAM_LEGEND))
    s, fy = lay.s, lay.cap_h
    order = speaking_order(m)

    parts: list[str] = []
    if caption:
        parts.append(
            f'<text x="{number(4 * s)}" y="{number(lay.cap_h * 0.7)}" font-family="{TEXT_FONT}" '
            f'font-size="{number(16 * s)}" font-weight="bold" fill="#222">{escaped(str(caption))}</text>'
        )
    parts.append(
        f'<rect x="{number(2 * s)}" y="{number(fy + 2 * s)}" width="{number(lay.felt_w - 4 * s)}" '
        f'height="{number(lay.felt_h - 4 * s)}" rx="{number(34 * s)}" fill="{FELT}" stroke="{FELT_EDGE}" '
        f'stroke-width="{number(4 * s)}"/>'
    )
    parts.append(_ccw_arrow(lay.felt_w / 2, fy + lay.felt_h / 2, 13 * s))
    parts.extend(
        _seat_group(lay, seat, hs[seat], m, order.index(seat) + 1, seat in lit, (marks or {}).get(seat, ()))
        for seat in range(4)
    )
    parts.append(_legend(lay))

    data_hands = "|".join(" ".join(h.codes()) for h in hs)
    aria = _("Mus table, seat {seat} is mano. {seats}.", seat=m, seats=". ".join(_seat_label(seat, hs[seat], m) for seat in range(4)))
    if caption:
        aria = _("{caption}. {table}", caption=caption, table=aria)
    return (
        f'<svg xmlns="{SVG_NS}" width="{number(lay.felt_w)}" height="{number(lay.total_h)}" '
        f'viewBox="0 0 {number(lay.felt_w)} {number(lay.total_h)}" role="group" aria-label="{escaped(aria)}" '
        f'class="musteach-table" data-hands="{data_hands}" data-mano="{m}">'
        f"<title>{escaped(aria)}</title>{''.join(parts)}</svg>"
    )


# ----------------------------------------------------------------------------------------------
# A judged deal
# ----------------------------------------------------------------------------------------------

_DEAL_CSS = """
.musteach-deal{font-family:DejaVu Sans,Verdana,Arial,sans-serif;color:#222;max-width:100%;line-height:1.35}
.musteach-deal .musteach-table{max-width:100%;height:auto}
.musteach-deal table.musteach-lances{border-collapse:collapse;margin-top:.5em;font-size:14px;min-width:60%}
.musteach-lances th,.musteach-lances td{text-align:left;vertical-align:top;padding:.3em .7em;border-bottom:1px solid #ddd}
.musteach-lances th{background:#f1f5f2;font-weight:600}
.musteach-lances td.musteach-lance{font-weight:600;white-space:nowrap}
.musteach-lances td.musteach-winner{white-space:nowrap}
.musteach-lances tr.musteach-unplayed td{color:#777}
.musteach-dot{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.35em;vertical-align:-.05em}
"""


def _winner_cell(winner: int | None, team: str | None) -> str:
    _ = translator()
    if winner is None:
        return escaped(_("nobody"))
    fill, _ink = TEAM_COLORS.get(team or "", ("#888", ""))
    who = escaped(_("Seat {seat} (team {team})", seat=winner, team=team))
    return f'<span class="musteach-dot" style="background:{fill}"></span>{who}'


def deal_html(result: DealResult, *, card_width: float = CARD_WIDTH, lang: str | None = None) -> str:
    """A judged deal as HTML: the table (nothing highlighted) and the five lances with winner and reason, in
    ``lang`` (None: the language being spoken).

    result: a :class:`~musteach.rules.lances.DealResult` from :func:`~musteach.rules.lances.evaluate`; nothing is
    recomputed, the winners and sentences are the result's own. Raises :class:`~musteach.rules.errors.MusError`
    when ``result`` is not a DealResult.
    """
    if not isinstance(result, DealResult):
        raise MusError(Text("deal_html needs a DealResult from musteach.evaluate, not {kind}", kind=type(result).__name__))
    with speaking(lang):
        return _deal_html(result, card_width)


def _deal_html(result: DealResult, card_width: float) -> str:
    _ = translator()
    heads = [escaped(_(word)) for word in (N_("Lance"), N_("Winner"), N_("Why"))]
    table = table_svg(result.hands, result.mano, card_width=card_width, rules=result.rules)
    rows = []
    for r in result.results():
        cls = "" if r.winner is not None else ' class="musteach-unplayed"'
        rows.append(
            f'<tr{cls} data-lance="{r.lance.value}" data-winner="{"" if r.winner is None else r.winner}">'
            f'<td class="musteach-lance">{r.lance.title}</td>'
            f'<td class="musteach-winner">{_winner_cell(r.winner, r.team)}</td>'
            f"<td>{escaped(r.explanation)}</td></tr>"
        )
    return (
        f'<div class="musteach-deal"><style>{_DEAL_CSS}</style>{table}'
        f'<table class="musteach-lances"><thead><tr><th>{heads[0]}</th><th>{heads[1]}</th><th>{heads[2]}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
