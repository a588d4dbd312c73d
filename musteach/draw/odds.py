"""The odds of every lance as a bar chart, an SVG string (rendering only; the numbers come from :mod:`musteach.odds`,
their wording from :mod:`musteach.numbers`, re-exported here).

Each lance gets one bar, split into who wins it over every deal of the unseen cards: you, your partner,
the opponents, and "nobody" (nobody holds pares; nobody has juego; Punto not played because somebody
has juego: RULES.md §4, §5). The team's share (you + partner) is printed at the end of the bar. A
dashed line marks one chance in two.

>>> from musteach.odds import hand_odds
>>> svg = odds_bars_svg(hand_odds("12o 3c 11e 1b", seat=0, mano=0).as_dict())
>>> svg.startswith("<svg") and 'role="img"' in svg and " id=" not in svg
True
>>> svg.count('class="musteach-odds-row"')
5
>>> odds_label(hand_odds("12o 3c 11e 1b").as_dict()).split(";")[0]
"Your team's chances per lance: Grande 95% (you 92%, partner 3%, opponents 5%)"
>>> percent_text(0.947), percent_text(0.0004), percent_text(0.9996), percent_text(0), percent_text(1)
('95%', 'under 1%', 'over 99%', '0%', '100%')

Like :mod:`musteach.draw.cards`, no element carries an ``id``, so any number of charts fit in one page.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..i18n import N_, Text, translator
from ..numbers import decimal_text, percent_text, probability
from ..rules.errors import MusError
from ..rules.lances import Lance
from .cards import TEXT_FONT
from .xml import SVG_NS, escaped, number

__all__ = ["BAR_COLORS", "NOBODY_WORDS", "decimal_text", "odds_bars_svg", "odds_label", "percent_text"]

#: Fill colours of the bar segments (Okabe-Ito blues and orange, safe for the common colour-vision
#: deficiencies), and the ink of the text.
BAR_COLORS: dict[str, str] = {
    "you": "#0072B2",
    "partner": "#56B4E9",
    "opponents": "#E69F00",
    "nobody": "#D9D4C7",
}
_INK = "#1F2A24"
_MUTED = "#5F6B64"
_PAPER = "#FFFDF6"

#: What "nobody" means in each lance (RULES.md §4, §5).
NOBODY_WORDS: dict[str, str] = {
    "grande": N_("nobody"),
    "chica": N_("nobody"),
    "pares": N_("nobody holds pares"),
    "juego": N_("nobody has juego"),
    "punto": N_("not played: somebody has juego"),
}
"""English msgids, marked for the catalogs: translate them where they are used (``translator()(NOBODY_WORDS[name])``)."""

#: The segments' names in a bar's ``<title>``.
_SEGMENT_WORDS = {"you": N_("you"), "partner": N_("partner"), "opponents": N_("opponents")}
#: The legend's words, segment by segment.
_LEGEND_WORDS = (N_("you"), N_("your partner"), N_("opponents"), N_("nobody / not played"))

_ORDER = ("grande", "chica", "pares", "juego", "punto")
_SEGMENTS = ("you", "partner", "opponents", "nobody")


def _rows(odds: Mapping[str, Any] | Any, lances: Sequence[str] | None) -> tuple[int, list[dict[str, Any]]]:
    """(seat, one dict per lance: name, title, you, partner, opponents, nobody, team) from an odds dict."""
    if hasattr(odds, "as_dict") and callable(odds.as_dict):
        odds = odds.as_dict()
    if not isinstance(odds, Mapping) or not isinstance(odds.get("lances"), Mapping):
        raise MusError(
            Text(
                "odds must be HandOdds.as_dict() (a mapping with 'seat' and 'lances'), not {kind}",
                kind=type(odds).__name__,
            )
        )
    seat = odds.get("seat", 0)
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):
        raise MusError(Text("odds['seat'] must be a seat 0, 1, 2 or 3, not {seat}", seat=repr(seat)))
    names = list(_ORDER) if lances is None else [Lance.parse(x).value for x in lances]
    if not names:
        raise MusError(Text("lances must name at least one lance"))
    rows: list[dict[str, Any]] = []
    for name in names:
        lo = odds["lances"].get(name)
        if not isinstance(lo, Mapping):
            raise MusError(Text("odds['lances'] has no {name} entry", name=repr(name)))
        seats = lo.get("seats")
        if not isinstance(seats, Sequence) or len(seats) != 4:
            raise MusError(Text("odds['lances'][{name}]['seats'] must hold 4 probabilities, one per seat", name=repr(name)))
        s = [probability(x, f"{name} seat {i}") for i, x in enumerate(seats)]
        you, partner = s[seat], s[(seat + 2) % 4]
        opponents = s[(seat + 1) % 4] + s[(seat + 3) % 4]
        nobody = probability(lo.get("nobody", 0.0), f"{name} nobody")
        total = you + partner + opponents + nobody
        if abs(total - 1) > 1e-6:
            raise MusError(Text("the {name} shares add up to {total}, not 1", name=name, total=format(total, ".6f")))
        rows.append({
            "name": name,
            "title": Lance.parse(name).title,
            "you": you,
            "partner": partner,
            "opponents": opponents,
            "nobody": nobody,
            "team": you + partner,
        })
    return seat, rows


def odds_label(odds: Mapping[str, Any] | Any, lances: Sequence[str] | None = None, *, lang: str | None = None) -> str:
    """The chart's accessible name: every lance's team share, split, and the "nobody" share, in words, in
    ``lang`` (None: the language being spoken).

    odds: :meth:`HandOdds.as_dict` (or a :class:`~musteach.odds.HandOdds`). lances: names to include
    (default all five). Raises :class:`~musteach.rules.errors.MusError` like :func:`odds_bars_svg`.
    """
    _ = translator(lang)
    _seat, rows = _rows(odds, lances)
    parts = []
    for r in rows:
        shares = {k: percent_text(r[k], lang=_.lang) for k in ("you", "partner", "opponents", "nobody", "team")}
        if r["nobody"] > 0 or r["name"] in ("pares", "juego", "punto"):
            parts.append(
                _(
                    "{lance} {team} (you {you}, partner {partner}, opponents {opponents}, {nobody_words} {nobody})",
                    lance=r["title"],
                    nobody_words=_(NOBODY_WORDS[r["name"]]),
                    **shares,
                )
            )
        else:
            del shares["nobody"]
            parts.append(_("{lance} {team} (you {you}, partner {partner}, opponents {opponents})", lance=r["title"], **shares))
    return _("Your team's chances per lance: {lances}.", lances="; ".join(parts))


def odds_bars_svg(
    odds: Mapping[str, Any] | Any,
    *,
    width: float = 560,
    lances: Sequence[str] | None = None,
    title: str | None = None,
    legend: bool = True,
    row_height: float = 30,
    lang: str | None = None,
) -> str:
    """One stacked bar per lance (you, partner, opponents, nobody) with the team's share at its end.

    odds: the JSON-ready dict of :meth:`HandOdds.as_dict` (``seat`` and ``lances`` -> name -> ``seats``
    (4 probabilities by absolute seat) and ``nobody``), or a :class:`~musteach.odds.HandOdds`.
    width: CSS pixels (at least 240). lances: lance names to draw, in order (default all five).
    title: an optional heading drawn above the bars. legend: draw the colour key below.
    row_height: CSS pixels per bar row (at least 14). lang: the language of the chart's words (None: the
    language being spoken).

    Each row is ``<g class="musteach-odds-row" data-lance=... data-team=... data-nobody=...>`` with one
    ``<rect class="musteach-bar-<segment>">`` per share (each with a ``<title>``) and the team's share as
    ``<text class="musteach-odds-team">``. The root has ``role="img"`` and the numbers in ``aria-label``
    (see :func:`odds_label`), ``class="musteach-odds-bars"`` and no ``id`` anywhere.
    Raises :class:`~musteach.rules.errors.MusError` for a malformed odds dict (a missing lance, shares that
    are not probabilities or do not add up to 1, a bad seat) or a bad size.
    """
    for value, what, least in ((width, "width", 240), (row_height, "row_height", 14)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < least:
            raise MusError(
                Text("{what} must be a number of pixels, at least {least}, not {value}", what=what, least=least, value=repr(value))
            )
    _ = translator(lang)
    _seat, rows = _rows(odds, lances)
    label = odds_label(odds, lances, lang=_.lang)
    w, rh = float(width), float(row_height)
    fs = max(10.0, rh * 0.45)
    label_w = fs * 4.6
    value_w = fs * 5.2
    x0, x1 = label_w, w - value_w
    bar_h = rh * 0.62
    # A header line: the optional title on the left, "your team" over the column of team shares.
    head = fs * 1.5
    your_team = escaped(_("your team"))
    parts: list[str] = [
        f'<text x="{number(x1 + fs * 0.5)}" y="{number(head - fs * 0.45)}" font-family="{TEXT_FONT}" '
        f'font-size="{number(fs * 0.8)}" fill="{_MUTED}">{your_team}</text>'
    ]
    if title:
        parts.append(
            f'<text x="0" y="{number(head - fs * 0.45)}" font-family="{TEXT_FONT}" font-size="{number(fs * 1.05)}" '
            f'font-weight="bold" fill="{_INK}">{escaped(title)}</text>'
        )
    top = head
    for i, r in enumerate(rows):
        y = top + i * rh
        by = y + (rh - bar_h) / 2
        cells = [
            f'<g class="musteach-odds-row" data-lance="{r["name"]}" data-team="{r["team"]!r}" '
            f'data-nobody="{r["nobody"]!r}">',
            f'<text x="0" y="{number(by + bar_h / 2 + fs * 0.36)}" font-family="{TEXT_FONT}" font-size="{number(fs)}" '
            f'font-weight="bold" fill="{_INK}">{r["title"]}</text>',
            f'<rect x="{number(x0)}" y="{number(by)}" width="{number(x1 - x0)}" height="{number(bar_h)}" rx="3" '
            f'fill="{_PAPER}" stroke="#B9B2A3" stroke-width="1"/>',
        ]
        x = x0
        for seg in _SEGMENTS:
            share = r[seg]
            sw = share * (x1 - x0)
            if sw <= 0:
                continue
            who = _(NOBODY_WORDS[r["name"]] if seg == "nobody" else _SEGMENT_WORDS[seg])
            tip = _("{lance}, {who}: {share}", lance=r["title"], who=who, share=percent_text(share, lang=_.lang))
            cells.append(
                f'<rect class="musteach-bar-{seg}" data-share="{share!r}" x="{number(x)}" y="{number(by)}" '
                f'width="{number(sw)}" height="{number(bar_h)}" fill="{BAR_COLORS[seg]}">'
                f"<title>{escaped(tip)}</title></rect>"
            )
            x += sw
        cells.append(
            f'<text class="musteach-odds-team" x="{number(x1 + fs * 0.5)}" y="{number(by + bar_h / 2 + fs * 0.36)}" '
            f'font-family="{TEXT_FONT}" font-size="{number(fs)}" font-weight="bold" fill="{_INK}">'
            f"{escaped(percent_text(r['team'], lang=_.lang))}</text>"
        )
        cells.append("</g>")
        parts.append("".join(cells))
    bottom = top + len(rows) * rh
    mid = (x0 + x1) / 2
    parts.append(
        f'<line x1="{number(mid)}" y1="{number(top)}" x2="{number(mid)}" y2="{number(bottom)}" stroke="{_INK}" '
        f'stroke-opacity="0.45" stroke-width="1" stroke-dasharray="3 3"/>'
    )
    height = bottom + 4
    if legend:
        ly = bottom + fs * 0.6
        lx = x0
        key = []
        for seg, msgid in zip(_SEGMENTS, _LEGEND_WORDS, strict=True):
            text = _(msgid)
            key.append(
                f'<rect x="{number(lx)}" y="{number(ly)}" width="{number(fs)}" height="{number(fs)}" rx="2" fill="{BAR_COLORS[seg]}"/>'
                f'<text x="{number(lx + fs * 1.3)}" y="{number(ly + fs * 0.85)}" font-family="{TEXT_FONT}" '
                f'font-size="{number(fs * 0.85)}" fill="{_MUTED}">{escaped(text)}</text>'
            )
            lx += fs * 1.3 + len(text) * fs * 0.52 + fs
        parts.append(f'<g class="musteach-odds-legend">{"".join(key)}</g>')
        height = ly + fs * 1.5
    return (
        f'<svg xmlns="{SVG_NS}" width="{number(w)}" height="{number(height)}" viewBox="0 0 {number(w)} {number(height)}" '
        f'role="img" aria-label="{escaped(label)}" class="musteach-odds-bars">'
        f"<title>{escaped(label)}</title>{''.join(parts)}</svg>"
    )
