"""The score on the table: each team's amarracos and stones (*piedras*), as an SVG string (RULES.md §9).

Rendering only, kept apart from the rules as :mod:`musteach.draw.cards` is: the numbers come from
:func:`musteach.rules.count.to_amarracos` and :func:`musteach.rules.count.is_dentro`.

One amarraco stands for 5 stones. Each team's row shows its amarracos (tall counters marked 5) in the
slots a game holds (8 for a game of 40, 6 for 30), then its loose stones (0 to 4), then the total. A team
5 or fewer stones from the target is *dentro* ("inside") and must say so (RULES.md §9).

>>> svg = stones_svg(13, 37)
>>> svg.startswith("<svg") and 'role="img"' in svg and " id=" not in svg
True
>>> stones_label(13, 37)
'Team A: 2 amarracos and 3 stones (13); Team B: 7 amarracos and 2 stones (37), dentro, 3 to go. Game to 40.'
>>> svg.count('class="musteach-amarraco"'), svg.count('class="musteach-piedra"')
(9, 5)
"""

from __future__ import annotations

from ..i18n import Text, Translator, translator
from ..rules.betting import TEAMS
from ..rules.count import is_dentro, to_amarracos
from ..rules.errors import BettingError, RulesError
from ..rules.options import Rules
from .cards import TEAM_COLORS, TEXT_FONT
from .xml import SVG_NS, escaped, number

__all__ = ["stones_label", "stones_svg", "team_stones_text"]

#: Colours of the counters: amarraco (fill, edge, text), piedra (fill, edge, shine), empty slot outline.
AMARRACO_COLORS = ("#8A5A2B", "#4E3115", "#FFF3E0")
PIEDRA_COLORS = ("#9AA3A8", "#4F5A60", "#E9EEF0")
SLOT_INK = "#B9B2A3"
DENTRO_COLORS = ("#C62828", "#FFFFFF")
WON_COLORS = ("#2E7D32", "#FFFFFF")
PAPER = "#FFFDF6"

#: Beyond this many amarracos a row shows one counter with "× n" instead of a long line of them.
_MAX_DRAWN = 16


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise RulesError(Text("rules must be a musteach Rules, not {rules}", rules=repr(rules)))
    return rules


def team_stones_text(stones: int, rules: Rules | None = None, *, lang: str | None = None) -> str:
    """One team's score in words: ``"2 amarracos and 3 stones (13)"``, plus ``", dentro, 3 to go"`` or
    ``", game won"`` (RULES.md §9). Raises :class:`~musteach.rules.errors.BettingError` for a score that is not a
    whole number ≥ 0, :class:`~musteach.rules.errors.RulesError` for bad rules. lang: the language (None: the
    language being spoken).

    >>> team_stones_text(6), team_stones_text(36), team_stones_text(41)
    ('1 amarraco and 1 stone (6)', '7 amarracos and 1 stone (36), dentro, 4 to go', '8 amarracos and 1 stone (41), game won')
    """
    _ = translator(lang)
    r = _rules(rules)
    a, p = to_amarracos(stones)
    text = _(
        "{amarracos} and {stones} ({total})",
        amarracos=_.ngettext("{n} amarraco", "{n} amarracos", a),
        stones=_.ngettext("{n} stone", "{n} stones", p),
        total=stones,
    )
    if stones >= r.target:
        return _("{score}, game won", score=text)
    if is_dentro(stones, r):
        return _("{score}, dentro, {left} to go", score=text, left=r.target - stones)
    return text


def stones_label(score_a: int, score_b: int, rules: Rules | None = None, *, lang: str | None = None) -> str:
    """The accessible name of :func:`stones_svg`: both teams' scores in words and the target, in ``lang``
    (None: the language being spoken)."""
    _ = translator(lang)
    r = _rules(rules)
    a, b = team_stones_text(score_a, r, lang=_.lang), team_stones_text(score_b, r, lang=_.lang)
    return _("Team A: {a}; Team B: {b}. Game to {target}.", a=a, b=b, target=r.target)


def _pill(x: float, y: float, h: float, text: str, fill: str, ink: str, cls: str) -> tuple[str, float]:
    """A rounded label starting at x, vertically centred on y; returns (svg, width)."""
    fs = h * 0.6
    w = len(text) * fs * 0.74 + h * 0.9
    svg = (
        f'<g class="{cls}"><rect x="{number(x)}" y="{number(y - h / 2)}" width="{number(w)}" height="{number(h)}" rx="{number(h / 2)}" '
        f'fill="{fill}"/><text x="{number(x + w / 2)}" y="{number(y + fs * 0.36)}" text-anchor="middle" '
        f'font-family="{TEXT_FONT}" font-size="{number(fs)}" font-weight="bold" fill="{ink}">{escaped(text)}</text></g>'
    )
    return svg, w


def _amarraco(x: float, y: float, w: float, h: float, times: int | None = None) -> str:
    fill, edge, ink = AMARRACO_COLORS
    label = "5" if times is None else f"×{times}"
    fs = w * (0.62 if times is None else 0.42)
    return (
        f'<g class="musteach-amarraco"><rect x="{number(x)}" y="{number(y)}" width="{number(w)}" height="{number(h)}" '
        f'rx="{number(w * 0.3)}" fill="{fill}" stroke="{edge}" stroke-width="1.5"/>'
        f'<rect x="{number(x + w * 0.18)}" y="{number(y + h * 0.08)}" width="{number(w * 0.16)}" height="{number(h * 0.5)}" '
        f'rx="{number(w * 0.08)}" fill="#FFFFFF" fill-opacity="0.22"/>'
        f'<text x="{number(x + w / 2)}" y="{number(y + h * 0.66)}" text-anchor="middle" font-family="{TEXT_FONT}" '
        f'font-size="{number(fs)}" font-weight="bold" fill="{ink}">{label}</text></g>'
    )


def _piedra(cx: float, cy: float, r: float) -> str:
    fill, edge, shine = PIEDRA_COLORS
    return (
        f'<g class="musteach-piedra"><ellipse cx="{number(cx)}" cy="{number(cy)}" rx="{number(r)}" ry="{number(r * 0.86)}" '
        f'fill="{fill}" stroke="{edge}" stroke-width="1.5"/>'
        f'<ellipse cx="{number(cx - r * 0.3)}" cy="{number(cy - r * 0.32)}" rx="{number(r * 0.34)}" ry="{number(r * 0.22)}" '
        f'fill="{shine}" fill-opacity="0.8"/></g>'
    )


def _slot_rect(x: float, y: float, w: float, h: float) -> str:
    return (
        f'<rect class="musteach-slot" x="{number(x)}" y="{number(y)}" width="{number(w)}" height="{number(h)}" rx="{number(w * 0.3)}" '
        f'fill="none" stroke="{SLOT_INK}" stroke-width="1.2" stroke-dasharray="3 3"/>'
    )


def _slot_circle(cx: float, cy: float, r: float) -> str:
    return (
        f'<ellipse class="musteach-slot" cx="{number(cx)}" cy="{number(cy)}" rx="{number(r)}" ry="{number(r * 0.86)}" fill="none" '
        f'stroke="{SLOT_INK}" stroke-width="1.2" stroke-dasharray="3 3"/>'
    )


def _checked_scores(width: float, score_a: int, score_b: int) -> dict[str, int]:
    """Both teams' scores by team, once the width and the scores are checked (see :func:`stones_svg`)."""
    if isinstance(width, bool) or not isinstance(width, int | float) or not 120 <= width <= 4000:
        raise BettingError(Text("width must be a number of CSS pixels from 120 to 4000, not {value}", value=repr(width)))
    scores = {"A": score_a, "B": score_b}
    for t in TEAMS:
        v = scores[t]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise BettingError(
                Text("team {team}'s score must be a whole number of stones ≥ 0, not {value} (RULES.md §9)", team=t, value=repr(v))
            )
    return scores


def _amarraco_slots(x0: float, top: float, size: tuple[float, float, float], slots: int, a: int) -> list[str]:
    """``a`` amarracos in ``slots`` slots (one counter marked "× a" when ``slots`` is 1); size: width, height, gap."""
    aw, ah, agap = size
    if slots == 1 and a > 1:
        return [_amarraco(x0, top, aw * 1.6, ah, times=a)]
    out = []
    for k in range(slots):
        x = x0 + k * (aw + agap)
        out.append(_amarraco(x, top, aw, ah) if k < a else _slot_rect(x, top, aw, ah))
    return out


def _loose_stones(x0: float, cy: float, size: tuple[float, float], p: int) -> list[str]:
    """``p`` loose stones (0 to 4) in four places; size: radius, gap."""
    pr, pgap = size
    out = []
    for k in range(4):
        cx = x0 + pr + k * (2 * pr + pgap)
        out.append(_piedra(cx, cy, pr) if k < p else _slot_circle(cx, cy, pr))
    return out


def _score_words(_: Translator, a: int, p: int, left: int | None) -> str:
    """"7 amarracos + 2 piedras", and " · 3 to go" when the team is dentro (``left`` stones to go)."""
    words = _(
        "{amarracos} + {piedras}",
        amarracos=_.ngettext("{n} amarraco", "{n} amarracos", a),
        piedras=_.ngettext("{n} piedra", "{n} piedras", p),
    )
    return words if left is None else _("{score} · {left} to go", score=words, left=left)


def stones_svg(
    score_a: int, score_b: int, rules: Rules | None = None, *, width: float = 520, lang: str | None = None
) -> str:
    """Both teams' scores as amarracos and stones on the table, a standalone SVG document (RULES.md §9).

    score_a, score_b: each team's stones in the current game, whole numbers ≥ 0 (a final score may pass
    the target). rules: a :class:`~musteach.rules.Rules` (its ``target``, 40 by default, sets the number of
    amarraco slots and when a team is *dentro*). width: CSS pixels; the picture scales with it. lang: the
    language of the picture's words (None: the language being spoken).

    The root ``<svg class="musteach-stones">`` has ``role="img"``, an ``aria-label`` and ``<title>`` from
    :func:`stones_label`, ``data-score-a``, ``data-score-b`` and ``data-target``; each team is a
    ``<g class="musteach-team-score" data-team data-stones data-amarracos data-piedras data-dentro data-won>``
    holding ``musteach-amarraco`` and ``musteach-piedra`` counters. No element has an ``id``.
    Raises :class:`~musteach.rules.errors.BettingError` for a score that is not a whole number ≥ 0 (naming it),
    :class:`~musteach.rules.errors.RulesError` for bad rules, :class:`~musteach.rules.errors.MusError` for a bad width.

    >>> 'data-dentro="true"' in stones_svg(25, 0, Rules(target=30))
    True
    """
    _ = translator(lang)
    r = _rules(rules)
    scores = _checked_scores(width, score_a, score_b)
    split = {t: to_amarracos(scores[t]) for t in TEAMS}
    target_slots = r.target // 5
    most = max(a for a, _p in split.values())
    slots = max(target_slots, most) if most <= _MAX_DRAWN else 1  # 1: one counter marked "× n"

    # layout in a 520-wide user space, scaled to ``width``
    aw, ah, agap = 22.0, 40.0, 5.0  # amarraco counter
    pr, pgap = 10.0, 4.0  # piedra radius, gap
    label_w = 92.0
    ax0 = 10 + label_w + 10
    amarraco_w = slots * aw + (slots - 1) * agap
    px0 = ax0 + amarraco_w + 18
    piedras_w = 4 * (2 * pr) + 3 * pgap
    total_x = px0 + piedras_w + 22
    vw = max(520.0, total_x + 150)
    row_h = 78.0
    head_h = 26.0
    vh = head_h + 2 * row_h + 6

    heading = _("Game to {target} = {slots} amarracos · 1 amarraco = 5 stones", target=r.target, slots=target_slots)
    parts = [
        f'<rect x="1" y="1" width="{number(vw - 2)}" height="{number(vh - 2)}" rx="12" fill="{PAPER}" stroke="#D8D2C2"/>',
        f'<text x="12" y="18" font-family="{TEXT_FONT}" font-size="12.5" fill="#555">'
        f"{escaped(heading)}</text>",
    ]
    for i, t in enumerate(TEAMS):
        a, p = split[t]
        v = scores[t]
        dentro = is_dentro(v, r)
        won = v >= r.target
        y0 = head_h + i * row_h
        cy = y0 + 30
        fill, ink = TEAM_COLORS[t]
        team_name = escaped(_("Team {team}", team=t))
        g = [
            f'<g class="musteach-team-score" data-team="{t}" data-stones="{v}" data-amarracos="{a}" '
            f'data-piedras="{p}" data-dentro="{"true" if dentro else "false"}" data-won="{"true" if won else "false"}">'
        ]
        if i:
            g.append(f'<path d="M10,{number(y0)} H{number(vw - 10)}" stroke="#E6E0D2" stroke-width="1"/>')
        g.append(
            f'<rect x="10" y="{number(cy - 14)}" width="{number(label_w)}" height="28" rx="8" fill="{fill}"/>'
            f'<text x="{number(10 + label_w / 2)}" y="{number(cy + 5)}" text-anchor="middle" font-family="{TEXT_FONT}" '
            f'font-size="15" font-weight="bold" fill="{ink}">{team_name}</text>'
        )
        g += _amarraco_slots(ax0, cy - ah / 2, (aw, ah, agap), slots, a)
        g += _loose_stones(px0, cy, (pr, pgap), p)
        # the total, and dentro / won
        g.append(
            f'<text class="musteach-total" x="{number(total_x)}" y="{number(cy + 9)}" font-family="{TEXT_FONT}" '
            f'font-size="26" font-weight="bold" fill="#1F2A24">{v}</text>'
        )
        badge_x = total_x + 16 * len(str(v)) + 10
        if won:
            g.append(_pill(badge_x, cy, 22, _("GAME WON"), *WON_COLORS, "musteach-won")[0])
        elif dentro:
            g.append(_pill(badge_x, cy, 22, _("DENTRO"), *DENTRO_COLORS, "musteach-dentro")[0])
        words = _score_words(_, a, p, r.target - v if dentro else None)
        g.append(
            f'<text x="{number(ax0)}" y="{number(cy + ah / 2 + 16)}" font-family="{TEXT_FONT}" font-size="12.5" '
            f'fill="#4A554F">{escaped(words)}</text>'
        )
        g.append("</g>")
        parts.append("".join(g))

    label = escaped(stones_label(score_a, score_b, r, lang=_.lang))
    height = width * vh / vw
    return (
        f'<svg xmlns="{SVG_NS}" width="{number(width)}" height="{number(height)}" viewBox="0 0 {number(vw)} {number(vh)}" '
        f'role="img" aria-label="{label}" class="musteach-stones" data-score-a="{score_a}" '
        f'data-score-b="{score_b}" data-target="{r.target}"><title>{label}</title>{"".join(parts)}</svg>'
    )
