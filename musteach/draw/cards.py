"""Pictures of cards, hands and the table, as SVG and HTML strings (no Jupyter import).

Rendering is kept apart from the rules, as in python-chess: every function here returns a string,
and the only rule facts used are those :mod:`musteach.rules.lances` provides (seats, teams, mano and
postre, RULES.md §0, §2) or that a :class:`~musteach.rules.lances.DealResult` already holds.

The cards are drawn here, in the Spanish pattern: the four suits oros (coins), copas (cups), espadas
(swords) and bastos (clubs); the rank printed in two corners; *la pinta* (the frame line broken 0, 1,
2 or 3 times for oros, copas, espadas, bastos); a figure with its letter for sota (S, 10), caballo
(C, 11) and rey (R, 12).

>>> from musteach import Card, Hand
>>> svg = card_svg(Card.parse("rey de oros"))
>>> svg.startswith("<svg") and 'aria-label="rey de oros"' in svg and "<title>rey de oros</title>" in svg
True
>>> 'data-hands="12o 3c 7e 5b|12c 11o 11c 4e|1o 1c 4o 5o|6c 6e 10o 2b"' in table_svg(
...     ["12o 3c 7e 5b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 2b"], mano=0)
True

No element carries an ``id``, so any number of pictures can be inlined in one page.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from html import escape

from ..rules.cards import Card, Hand, Suit, parse_hand, parse_hands
from ..rules.errors import MusError, RulesError
from ..rules.lances import DealResult, check_seat, seat_roles, speaking_order, team_of
from ..rules.options import Rules

__all__ = [
    "CARD_RATIO",
    "CARD_WIDTH",
    "SUIT_COLORS",
    "TEAM_COLORS",
    "card_html",
    "card_svg",
    "deal_html",
    "hand_html",
    "hand_svg",
    "table_svg",
]

SVG_NS = "http://www.w3.org/2000/svg"

#: Default card width in CSS pixels.
CARD_WIDTH = 60
#: Height / width of a Spanish card (61 x 95 mm, about 1.54).
CARD_RATIO = 1.54
# The card is drawn in a 100 x 154 user-space box and scaled to the width asked for.
_VW, _VH = 100, 154

#: Ink colours per suit: (main fill, dark outline / text, pale tint for figure cards).
SUIT_COLORS: dict[Suit, tuple[str, str, str]] = {
    Suit.OROS: ("#F2B51B", "#8C5A00", "#FFF4D6"),
    Suit.COPAS: ("#D0142C", "#8E0B1E", "#FCE6E8"),
    Suit.ESPADAS: ("#2F6FC0", "#173E75", "#E3ECF8"),
    Suit.BASTOS: ("#9A6632", "#3D6B22", "#E6F1DF"),
}
CARD_FILL = "#FFFDF6"
CARD_EDGE = "#5A5A5A"
FRAME_INK = "#6B6B6B"
SKIN = "#F4D4B2"
GOLD = "#F2B51B"
GOLD_DARK = "#9A6A00"
#: Highlight ring around a card or a seat (e.g. the winner of a lance).
HIGHLIGHT = "#FFE45C"
DIM_OPACITY = 0.35
#: Team colours (Okabe-Ito, safe for the common colour-vision deficiencies): (fill, text on fill).
TEAM_COLORS: dict[str, tuple[str, str]] = {"A": ("#0072B2", "#FFFFFF"), "B": ("#E69F00", "#111111")}
FELT = "#2B7A4B"
FELT_EDGE = "#174D2D"
PANEL_FILL = "#1B5A35"
TEXT_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CARD_FONT = "DejaVu Serif, Georgia, 'Times New Roman', serif"

_FIGURE_LETTERS = {10: "S", 11: "C", 12: "R"}
_LONG_SUITS = (Suit.ESPADAS, Suit.BASTOS)
# La pinta: breaks in the frame line on the short sides.
_PINTA_BREAKS = {Suit.OROS: 0, Suit.COPAS: 1, Suit.ESPADAS: 2, Suit.BASTOS: 3}


def _n(x: float) -> str:
    """A compact number for SVG attributes."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _attr(text: str) -> str:
    """Text escaped for XML and HTML alike, non-ASCII as character references (safe in any page encoding)."""
    return escape(text, quote=True).encode("ascii", "xmlcharrefreplace").decode("ascii")


# ----------------------------------------------------------------------------------------------
# Suit symbols. Round suits are drawn in a 100 x 100 box centred on 0,0; long suits (a sword, a club)
# in a box 100 high, also centred on 0,0. ``_symbol`` places one at (x, y), scaled to ``size``.
# ----------------------------------------------------------------------------------------------


def _oros() -> str:
    fill, dark, _ = SUIT_COLORS[Suit.OROS]
    return (
        f'<circle r="47" fill="{fill}" stroke="{dark}" stroke-width="5"/>'
        f'<circle r="33" fill="none" stroke="{dark}" stroke-width="3.5"/>'
        f'<circle r="33" fill="none" stroke="#FFE9A8" stroke-width="1.5" stroke-dasharray="4 6"/>'
        f'<circle r="14" fill="#C7561A" stroke="{dark}" stroke-width="3"/>'
    )


def _copas() -> str:
    fill, dark, _ = SUIT_COLORS[Suit.COPAS]
    return (
        f'<path d="M-40,-38 H40 C40,-6 24,8 8,13 L8,24 C8,29 24,33 32,40 L32,47 H-32 L-32,40 '
        f'C-24,33 -8,29 -8,24 L-8,13 C-24,8 -40,-6 -40,-38 Z" fill="{fill}" stroke="{dark}" '
        f'stroke-width="4.5" stroke-linejoin="round"/>'
        f'<rect x="-46" y="-47" width="92" height="11" rx="5" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width="3"/>'
        f'<ellipse cx="0" cy="19" rx="13" ry="5.5" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width="2.5"/>'
        f'<path d="M-26,-26 C-26,-10 -16,-2 -8,2" fill="none" stroke="#F7A3AD" stroke-width="4" stroke-linecap="round"/>'
    )


def _espadas() -> str:
    fill, dark, _ = SUIT_COLORS[Suit.ESPADAS]
    return (
        f'<path d="M0,-50 L7,-38 L7,20 L-7,20 L-7,-38 Z" fill="{fill}" stroke="{dark}" '
        f'stroke-width="3" stroke-linejoin="round"/>'
        f'<path d="M0,-40 V16" stroke="#B9D3F2" stroke-width="2.5"/>'
        f'<path d="M-20,19 C-14,25 14,25 20,19 L20,27 C14,31 -14,31 -20,27 Z" fill="{dark}" '
        f'stroke="{dark}" stroke-width="2" stroke-linejoin="round"/>'
        f'<rect x="-4.5" y="29" width="9" height="14" rx="2" fill="{fill}" stroke="{dark}" stroke-width="2.5"/>'
        f'<circle cx="0" cy="46" r="5.5" fill="{dark}"/>'
    )


def _bastos() -> str:
    wood, green, _ = SUIT_COLORS[Suit.BASTOS]
    dark = "#5A3715"
    leaf = "#3F9A3A"
    return (
        # branch stubs, each with a green bud
        f'<path d="M-9,-22 L-20,-30" stroke="{wood}" stroke-width="7" stroke-linecap="round"/>'
        f'<path d="M8,0 L19,-8" stroke="{wood}" stroke-width="6" stroke-linecap="round"/>'
        f'<path d="M-6,24 L-16,17" stroke="{wood}" stroke-width="5" stroke-linecap="round"/>'
        f'<ellipse cx="-23" cy="-33" rx="6" ry="3.5" transform="rotate(-35 -23 -33)" fill="{leaf}" stroke="{green}" stroke-width="1.5"/>'
        f'<ellipse cx="22" cy="-11" rx="6" ry="3.5" transform="rotate(-35 22 -11)" fill="{leaf}" stroke="{green}" stroke-width="1.5"/>'
        f'<ellipse cx="-19" cy="15" rx="5" ry="3" transform="rotate(-35 -19 15)" fill="{leaf}" stroke="{green}" stroke-width="1.5"/>'
        # the cudgel: thick, knobbly head tapering to the grip
        f'<path d="M-13,-40 C-12,-50 12,-51 13,-40 C15,-30 10,-20 11,-8 L6,44 C5,50 -5,50 -6,44 '
        f'L-11,-8 C-10,-20 -15,-30 -13,-40 Z" fill="{wood}" stroke="{dark}" stroke-width="3" stroke-linejoin="round"/>'
        f'<path d="M-4,-38 C-6,-20 -3,10 -1,40" fill="none" stroke="#C89560" stroke-width="3" stroke-linecap="round"/>'
        f'<path d="M-10,-14 H9 M-8,18 H7" stroke="{dark}" stroke-width="2"/>'
    )


_SYMBOL_BODIES = {Suit.OROS: _oros(), Suit.COPAS: _copas(), Suit.ESPADAS: _espadas(), Suit.BASTOS: _bastos()}


def _symbol(suit: Suit, x: float, y: float, size: float, angle: float = 0.0, cls: str = "") -> str:
    """One suit symbol centred at (x, y), ``size`` user units high, turned by ``angle`` degrees."""
    rot = f" rotate({_n(angle)})" if angle else ""
    c = f' class="{cls}"' if cls else ""
    return f'<g{c} transform="translate({_n(x)} {_n(y)}){rot} scale({_n(size / 100)})">{_SYMBOL_BODIES[suit]}</g>'


# Pip layouts for 1..7: (x, y, size[, angle]). Round suits (coins, cups) and long suits (swords, clubs).
_ROUND_PIPS: dict[int, tuple[tuple[float, ...], ...]] = {
    1: ((50, 79, 62),),
    2: ((50, 48, 38), (50, 110, 38)),
    3: ((50, 42, 31), (50, 79, 31), (50, 116, 31)),
    4: ((33, 50, 31), (67, 50, 31), (33, 108, 31), (67, 108, 31)),
    5: ((32, 46, 28), (68, 46, 28), (50, 79, 28), (32, 112, 28), (68, 112, 28)),
    6: ((33, 44, 27), (67, 44, 27), (33, 79, 27), (67, 79, 27), (33, 114, 27), (67, 114, 27)),
    7: ((36, 45, 24), (64, 45, 24), (26, 79, 24), (50, 79, 24), (74, 79, 24), (36, 113, 24), (64, 113, 24)),
}
_LONG_PIPS: dict[int, tuple[tuple[float, ...], ...]] = {
    1: ((50, 79, 112, -12),),
    2: ((50, 79, 100, -26), (50, 79, 100, 26)),
    3: ((50, 79, 100, -28), (50, 79, 100, 28), (50, 79, 104, 0)),
    4: ((38, 50, 56), (62, 50, 56), (38, 108, 56), (62, 108, 56)),
    5: ((31, 50, 54), (69, 50, 54), (50, 79, 54), (31, 108, 54), (69, 108, 54)),
    6: ((31, 50, 52), (50, 50, 52), (69, 50, 52), (31, 108, 52), (50, 108, 52), (69, 108, 52)),
    7: ((31, 45, 40), (50, 45, 40), (69, 45, 40), (50, 79, 40), (31, 113, 40), (50, 113, 40), (69, 113, 40)),
}


def _pips(card: Card) -> str:
    layout = (_LONG_PIPS if card.suit in _LONG_SUITS else _ROUND_PIPS)[card.rank]
    return "".join(_symbol(card.suit, *p[:3], p[3] if len(p) > 3 else 0.0, "musteach-pip") for p in layout)


# ----------------------------------------------------------------------------------------------
# Figures: sota (S), caballo (C), rey (R): a standing figure in the suit's colour, the letter on the
# robe, a headgear that tells them apart, and the suit symbol held up in the right hand.
# ----------------------------------------------------------------------------------------------


def _figure(card: Card) -> str:
    fill, dark, tint = SUIT_COLORS[card.suit]
    letter = _FIGURE_LETTERS[card.rank]
    robe = dark if card.suit is not Suit.OROS else "#A36A00"
    # a tinted panel inside the frame, notched round the two rank corners
    out = [f'<path d="M32,12 H88 V122 H68 V142 H12 V32 H32 Z" fill="{tint}"/>']
    if card.rank == 11:  # caballo: the rider's horse, its head rearing beside him
        out.append(
            '<path d="M33,98 C22,99 14,90 16,78 C17,70 20,64 26,58 L25,49 L30,55 L33,50 L35,58 '
            'C40,63 40,74 37,84 Z" fill="#8A5528" stroke="#4A2A10" stroke-width="2" stroke-linejoin="round"/>'
            '<circle cx="27" cy="65" r="1.8" fill="#1A1A1A"/>'
            '<path d="M34,58 C39,64 39,72 37,80" fill="none" stroke="#2A1A08" stroke-width="3"/>'
        )
    # robe and arms
    out.append(
        f'<path d="M39,54 C44,50 56,50 61,54 L70,121 C58,127 42,127 30,121 Z" fill="{robe}" '
        f'stroke="#222" stroke-width="2" stroke-linejoin="round"/>'
        f'<path d="M61,58 L73,70" stroke="{robe}" stroke-width="8" stroke-linecap="round"/>'
        f'<circle cx="74" cy="71" r="4" fill="{SKIN}" stroke="#7A5A3A" stroke-width="1.2"/>'
    )
    # head
    out.append(f'<circle cx="50" cy="42" r="10" fill="{SKIN}" stroke="#7A5A3A" stroke-width="1.8"/>')
    if card.rank == 12:  # rey: a crown
        out.append(
            f'<path d="M39,35 L38,21 L44,27 L50,17 L56,27 L62,21 L61,35 Z" fill="{GOLD}" stroke="{GOLD_DARK}" '
            f'stroke-width="2" stroke-linejoin="round"/>'
            f'<circle cx="50" cy="29" r="2" fill="#D0142C"/>'
        )
    elif card.rank == 11:  # caballo: a wide-brimmed rider's hat
        out.append(
            f'<path d="M36,35 C40,31 60,31 64,35 C60,37 40,37 36,35 Z" fill="{fill}" stroke="#222" stroke-width="1.8"/>'
            f'<path d="M42,34 C42,24 58,24 58,34 Z" fill="{fill}" stroke="#222" stroke-width="1.8"/>'
        )
    else:  # sota: a page's cap with a feather
        out.append(
            f'<path d="M39,37 C38,26 62,26 61,37 Z" fill="{fill}" stroke="#222" stroke-width="1.8"/>'
            '<path d="M58,30 C64,22 70,20 74,21 C70,25 65,29 59,32 Z" fill="#FFFFFF" stroke="#444" stroke-width="1.3"/>'
        )
    out.append(
        f'<text class="musteach-figure" x="50" y="112" text-anchor="middle" font-family="{CARD_FONT}" font-weight="bold" '
        f'font-size="44" fill="#FFFFFF" stroke="#222" stroke-width="1" paint-order="stroke">{letter}</text>'
    )
    if card.suit in _LONG_SUITS:
        out.append(_symbol(card.suit, 77, 66, 56, 18))
    else:
        out.append(_symbol(card.suit, 75, 63, 26))
    return "".join(out)


# ----------------------------------------------------------------------------------------------
# The card face
# ----------------------------------------------------------------------------------------------


def _frame(suit: Suit) -> str:
    """La pinta: a frame line around the face, open at two corners for the rank, with 0-3 breaks."""
    breaks = _PINTA_BREAKS[suit]
    gap, step = 5.0, 9.0

    def edge(x0: float, x1: float, y: float) -> str:
        # a horizontal run from x0 to x1 with ``breaks`` gaps around its middle
        if not breaks:
            return f"M{_n(x0)},{_n(y)} H{_n(x1)}"
        mid = (x0 + x1) / 2
        first = mid - ((breaks - 1) * step) / 2
        parts, cur = [], x0
        for k in range(breaks):
            g = first + k * step
            parts.append(f"M{_n(cur)},{_n(y)} H{_n(g - gap / 2)}")
            cur = g + gap / 2
        parts.append(f"M{_n(cur)},{_n(y)} H{_n(x1)}")
        return " ".join(parts)

    d = " ".join(
        (
            edge(31, 92, 8),  # top, after the top-left corner
            "M92,8 V123",  # right
            edge(8, 69, 146),  # bottom, before the bottom-right corner
            "M8,146 V31",  # left
        )
    )
    return f'<path d="{d}" fill="none" stroke="{FRAME_INK}" stroke-width="1.6"/>'


def _rank_text(card: Card) -> str:
    _, dark, _ = SUIT_COLORS[card.suit]
    size = 21 if card.rank < 10 else 19
    common = f'text-anchor="middle" font-family="{CARD_FONT}" font-weight="bold" font-size="{size}" fill="{dark}"'
    r = card.rank
    return (
        f'<text class="musteach-rank" x="19.5" y="27" {common}>{r}</text>'
        f'<text class="musteach-rank" x="19.5" y="27" {common} transform="rotate(180 50 77)">{r}</text>'
    )


@lru_cache(maxsize=256)
def _card_body(card: Card, highlight: bool, dim: bool) -> str:
    """The face in the 100 x 154 box, without the outer <svg>."""
    out = [f'<g opacity="{DIM_OPACITY}">' if dim else "<g>"]
    out.append(
        f'<rect x="1.5" y="1.5" width="97" height="151" rx="8" fill="{CARD_FILL}" stroke="{CARD_EDGE}" stroke-width="2"/>'
    )
    out.append(_figure(card) if card.rank in _FIGURE_LETTERS else _pips(card))
    out.append(_frame(card.suit))
    out.append(_rank_text(card))
    out.append("</g>")
    if highlight:
        out.append(
            f'<rect x="3" y="3" width="94" height="148" rx="7" fill="none" stroke="{HIGHLIGHT}" stroke-width="6"/>'
        )
        out.append('<rect x="1" y="1" width="98" height="152" rx="9" fill="none" stroke="#7A5C00" stroke-width="1.5"/>')
    return "".join(out)


def _as_card(card: Card | str) -> Card:
    return Card.parse(card)


def _check_width(width: object, what: str = "width") -> float:
    if isinstance(width, bool) or not isinstance(width, int | float) or not math.isfinite(width) or width <= 0:
        raise MusError(f"{what} must be a positive number of pixels, not {width!r}")
    return float(width)


def _card_element(card: Card, x: float, y: float, width: float, highlight: bool = False, dim: bool = False) -> str:
    """A card as a nested <svg> placed at (x, y) in a larger picture."""
    name = _attr(card.name)
    return (
        f'<svg x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" height="{_n(width * CARD_RATIO)}" '
        f'viewBox="0 0 {_VW} {_VH}" role="img" aria-label="{name}" class="musteach-card" data-card="{card.code}">'
        f"<title>{name}</title>{_card_body(card, highlight, dim)}</svg>"
    )


def card_svg(card: Card | str, width: float = CARD_WIDTH, *, highlight: bool = False, dim: bool = False) -> str:
    """One card as a standalone SVG document (a string).

    card: a :class:`~musteach.rules.cards.Card` or any text :meth:`Card.parse` reads (``"12o"``, ``"Ro"``).
    width: CSS pixels (the height is ``width * CARD_RATIO``). highlight: a yellow ring; dim: faded.
    The root carries ``role="img"``, ``aria-label`` and a ``<title>`` with the Spanish name, and
    ``data-card`` with the code.
    Raises :class:`~musteach.rules.errors.UnknownCardError` for a bad card, :class:`~musteach.rules.errors.MusError`
    for a bad width.

    >>> card_svg("Ro").count("<title>rey de oros</title>")
    1
    """
    c = _as_card(card)
    w = _check_width(width)
    name = _attr(c.name)
    return (
        f'<svg xmlns="{SVG_NS}" width="{_n(w)}" height="{_n(w * CARD_RATIO)}" viewBox="0 0 {_VW} {_VH}" '
        f'role="img" aria-label="{name}" class="musteach-card" data-card="{c.code}">'
        f"<title>{name}</title>{_card_body(c, bool(highlight), bool(dim))}</svg>"
    )


def card_html(card: Card | str, width: float = CARD_WIDTH, *, highlight: bool = False, dim: bool = False) -> str:
    """:func:`card_svg` inside an inline ``<span class="musteach-card-wrap">`` (for ``_repr_html_``)."""
    svg = card_svg(card, width, highlight=highlight, dim=dim)
    return f'<span class="musteach-card-wrap" style="display:inline-block;line-height:0">{svg}</span>'


# ----------------------------------------------------------------------------------------------
# Hands
# ----------------------------------------------------------------------------------------------


def _hand_cards(hand: Hand, x: float, y: float, w: float, highlight: bool = False) -> str:
    gap = w * 0.08
    return "".join(_card_element(c, x + i * (w + gap), y, w, highlight=highlight) for i, c in enumerate(hand))


def _hand_width(w: float) -> float:
    return 4 * w + 3 * w * 0.08


def hand_svg(
    hand: Hand | str | Sequence[Card | str],
    *,
    card_width: float = CARD_WIDTH,
    highlight: bool = False,
    label: str | None = None,
) -> str:
    """Four cards in a row, as a standalone SVG document.

    hand: a :class:`~musteach.rules.cards.Hand`, a text such as ``"12o 3c 7e 5b"`` or 4 cards.
    card_width: CSS pixels per card. highlight: a yellow ring round every card.
    label: optional text shown above the cards and put first in the accessible name.
    The root's ``aria-label`` lists the cards (``"rey de oros, tres de copas, ..."``) and ``data-hand`` holds
    the codes. Raises :class:`~musteach.rules.errors.HandSizeError`, :class:`~musteach.rules.errors.UnknownCardError`,
    :class:`~musteach.rules.errors.DuplicateCardError`.

    >>> 'aria-label="rey de oros, tres de copas, siete de espadas, cinco de bastos"' in hand_svg("12o 3c 7e 5b")
    True
    """
    h = parse_hand(hand)
    w = _check_width(card_width, "card_width")
    names = ", ".join(c.name for c in h)
    top = 0.0
    head = ""
    if label is not None:
        top = w * 0.36
        names = f"{label}: {names}"
        head = (
            f'<text x="2" y="{_n(top * 0.72)}" font-family="{TEXT_FONT}" font-size="{_n(w * 0.22)}" '
            f'font-weight="bold" fill="#333">{_attr(str(label))}</text>'
        )
    pad = w * 0.05
    width, height = _hand_width(w) + 2 * pad, top + w * CARD_RATIO + 2 * pad
    return (
        f'<svg xmlns="{SVG_NS}" width="{_n(width)}" height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" '
        f'role="img" aria-label="{_attr(names)}" class="musteach-hand" data-hand="{" ".join(h.codes())}">'
        f"<title>{_attr(names)}</title>{head}{_hand_cards(h, pad, top + pad, w, bool(highlight))}</svg>"
    )


def hand_html(
    hand: Hand | str | Sequence[Card | str],
    *,
    card_width: float = CARD_WIDTH,
    highlight: bool = False,
    label: str | None = None,
) -> str:
    """:func:`hand_svg` inside a ``<div class="musteach-hand-wrap">`` (for ``_repr_html_``)."""
    svg = hand_svg(hand, card_width=card_width, highlight=highlight, label=label)
    return f'<div class="musteach-hand-wrap" style="line-height:0">{svg}</div>'


# ----------------------------------------------------------------------------------------------
# The table
# ----------------------------------------------------------------------------------------------


def _highlight_seats(highlight: int | Iterable[int] | None) -> frozenset[int]:
    if highlight is None:
        return frozenset()
    if isinstance(highlight, int) and not isinstance(highlight, bool):
        return frozenset((check_seat(highlight, "highlight"),))
    if isinstance(highlight, str | bytes) or not isinstance(highlight, Iterable):
        from ..rules.errors import SeatError

        raise SeatError(f"highlight must be a seat 0-3 or a set of seats, not {highlight!r}")
    return frozenset(check_seat(s, "highlight") for s in highlight)


def _role_text(seat: int, mano: int) -> str:
    roles = seat_roles(seat, mano)
    return roles[0] if roles else ""


def _pill(x_right: float, y: float, h: float, text: str, fill: str, ink: str, stroke: str) -> str:
    """A rounded label ending at x_right, vertically centred on y."""
    fs = h * 0.62
    w = len(text) * fs * 0.62 + h * 0.9
    return (
        f'<rect x="{_n(x_right - w)}" y="{_n(y - h / 2)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(h / 2)}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{_n(h * 0.07)}"/>'
        f'<text x="{_n(x_right - w / 2)}" y="{_n(y + fs * 0.36)}" text-anchor="middle" font-family="{TEXT_FONT}" '
        f'font-size="{_n(fs)}" font-weight="bold" fill="{ink}">{text}</text>'
    )


def _ccw_arrow(cx: float, cy: float, r: float) -> str:
    """A circular arrow turning counter-clockwise (the way play goes)."""
    # Screen angles (y points down), so counter-clockwise on screen means a decreasing angle: start low
    # right (60°) and go up through the right, the top and the left to low left (-200°): 260° with sweep 0.
    a0, a1 = math.radians(60), math.radians(-200)
    x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
    x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
    d = f"M{_n(x0)},{_n(y0)} A{_n(r)},{_n(r)} 0 1 0 {_n(x1)},{_n(y1)}"
    # arrowhead at the end point, pointing along the counter-clockwise tangent
    t = a1 - math.pi / 2
    hx, hy = math.cos(t), math.sin(t)  # direction of travel
    px, py = -hy, hx
    s = r * 0.45
    tip = (x1 + hx * s * 0.6, y1 + hy * s * 0.6)
    b1 = (x1 - hx * s * 0.4 + px * s * 0.5, y1 - hy * s * 0.4 + py * s * 0.5)
    b2 = (x1 - hx * s * 0.4 - px * s * 0.5, y1 - hy * s * 0.4 - py * s * 0.5)
    head = f"M{_n(tip[0])},{_n(tip[1])} L{_n(b1[0])},{_n(b1[1])} L{_n(b2[0])},{_n(b2[1])} Z"
    return (
        f'<g class="musteach-direction"><title>play runs counter-clockwise</title>'
        f'<path d="{d}" fill="none" stroke="#E8F3EC" stroke-width="{_n(r * 0.16)}" stroke-linecap="round"/>'
        f'<path d="{head}" fill="#E8F3EC"/></g>'
    )


def _rules_note(rules: Rules | None) -> str:
    if rules is None:
        return ""
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a musteach Rules, not {rules!r}")
    kings = "8 reyes (3 = rey, 2 = as)" if rules.kings == 8 else "4 reyes"
    return f"{kings} · game to {rules.target}"


def table_svg(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    *,
    highlight: int | Iterable[int] | None = None,
    card_width: float = CARD_WIDTH,
    caption: str | None = None,
    rules: Rules | None = None,
) -> str:
    """The four hands around a green table, as a standalone SVG document (RULES.md §0, §2).

    hands: 4 hands of 4 cards, indexed by seat. Seat 0 sits at the bottom, 1 on the right, 2 at the top,
    3 on the left, so play (0, 1, 2, 3) runs counter-clockwise.
    mano: the seat 0..3 that speaks first; it is marked "mano", and mano+3 (the dealer) "postre".
    highlight: a seat or a set of seats drawn with a glowing ring (e.g. a lance's winner).
    card_width: CSS pixels per card; the whole picture scales with it.
    caption: optional title line above the table. rules: a :class:`~musteach.rules.Rules`, named in the legend.

    Team A (seats 0 and 2) and team B (seats 1 and 3) have their own colour, with a legend.
    The root ``<svg class="musteach-table">`` carries ``data-hands`` (codes, seats 0..3 joined by ``|``) and
    ``data-mano``; each seat is a ``<g class="musteach-seat" data-seat data-team data-role data-highlight>``.
    Raises :class:`~musteach.rules.errors.HandSizeError`, :class:`~musteach.rules.errors.UnknownCardError`,
    :class:`~musteach.rules.errors.DuplicateCardError`, :class:`~musteach.rules.errors.SeatError` (mano, highlight),
    :class:`~musteach.rules.errors.RulesError` (rules), :class:`~musteach.rules.errors.MusError` (card_width).
    """
    hs = parse_hands(hands)
    m = check_seat(mano, "mano")
    lit = _highlight_seats(highlight)
    w = _check_width(card_width, "card_width")
    rules_note = _rules_note(rules)
    s = w / 60.0
    ch = w * CARD_RATIO
    pad = 9 * s  # inside a seat panel
    band = 26 * s  # label band on top of a seat panel
    panel_w = _hand_width(w) + 2 * pad
    panel_h = band + ch + 2 * pad
    margin = 16 * s  # felt edge to panels
    mid = 44 * s  # horizontal gap between the side panels
    vgap = 10 * s
    felt_w = 2 * margin + 2 * panel_w + mid
    felt_h = 2 * margin + 3 * panel_h + 2 * vgap
    cap_h = 28 * s if caption else 0.0
    fs = 12.5 * s  # legend text
    note = "↺ play runs counter-clockwise" + (f" · {rules_note}" if rules_note else "")
    teams_w = 2 * (12 * s + 5 * s + 16 * s) + len("Team A (seats 0 & 2)Team B (seats 1 & 3)") * fs * 0.6
    two_lines = teams_w + len(note) * fs * 0.56 + 12 * s > felt_w
    legend_h = (48 if two_lines else 30) * s
    total_w, total_h = felt_w, cap_h + felt_h + legend_h
    fy = cap_h  # felt top

    pos = {
        0: ((felt_w - panel_w) / 2, fy + felt_h - margin - panel_h),
        1: (felt_w - margin - panel_w, fy + margin + panel_h + vgap),
        2: ((felt_w - panel_w) / 2, fy + margin),
        3: (margin, fy + margin + panel_h + vgap),
    }
    order = speaking_order(m)

    parts: list[str] = []
    if caption:
        parts.append(
            f'<text x="{_n(4 * s)}" y="{_n(cap_h * 0.7)}" font-family="{TEXT_FONT}" font-size="{_n(16 * s)}" '
            f'font-weight="bold" fill="#222">{_attr(str(caption))}</text>'
        )
    parts.append(
        f'<rect x="{_n(2 * s)}" y="{_n(fy + 2 * s)}" width="{_n(felt_w - 4 * s)}" height="{_n(felt_h - 4 * s)}" '
        f'rx="{_n(34 * s)}" fill="{FELT}" stroke="{FELT_EDGE}" stroke-width="{_n(4 * s)}"/>'
    )
    parts.append(_ccw_arrow(felt_w / 2, fy + felt_h / 2, 13 * s))

    labels: list[str] = []
    for seat in range(4):
        x, y = pos[seat]
        team = team_of(seat)
        tfill, tink = TEAM_COLORS[team]
        role = _role_text(seat, m)
        is_lit = seat in lit
        g = [
            f'<g class="musteach-seat" data-seat="{seat}" data-team="{team}" data-role="{role}" '
            f'data-highlight="{"true" if is_lit else "false"}" data-speaks="{order.index(seat) + 1}">'
        ]
        if is_lit:
            g.append(
                f'<rect x="{_n(x - 5 * s)}" y="{_n(y - 5 * s)}" width="{_n(panel_w + 10 * s)}" '
                f'height="{_n(panel_h + 10 * s)}" rx="{_n(14 * s)}" fill="{HIGHLIGHT}" fill-opacity="0.35" '
                f'stroke="{HIGHLIGHT}" stroke-width="{_n(4 * s)}" class="musteach-glow"/>'
            )
        g.append(
            f'<rect class="musteach-panel" x="{_n(x)}" y="{_n(y)}" width="{_n(panel_w)}" height="{_n(panel_h)}" '
            f'rx="{_n(9 * s)}" '
            f'fill="{PANEL_FILL}" stroke="{tfill}" stroke-width="{_n(3 * s)}"/>'
            f'<path d="M{_n(x)},{_n(y + band)} V{_n(y + 9 * s)} A{_n(9 * s)},{_n(9 * s)} 0 0 1 {_n(x + 9 * s)},{_n(y)} '
            f"H{_n(x + panel_w - 9 * s)} A{_n(9 * s)},{_n(9 * s)} 0 0 1 {_n(x + panel_w)},{_n(y + 9 * s)} "
            f'V{_n(y + band)} Z" fill="{tfill}"/>'
            f'<text x="{_n(x + 9 * s)}" y="{_n(y + band * 0.7)}" font-family="{TEXT_FONT}" font-size="{_n(14 * s)}" '
            f'font-weight="bold" fill="{tink}">Seat {seat} <tspan font-weight="normal">&#183; team {team}</tspan></text>'
        )
        if role == "mano":
            g.append(_pill(x + panel_w - 5 * s, y + band / 2, 19 * s, "MANO", "#FFFFFF", "#111111", "#111111"))
        elif role == "postre":
            g.append(_pill(x + panel_w - 5 * s, y + band / 2, 19 * s, "POSTRE", "#222222", "#FFFFFF", "#FFFFFF"))
        g.append(_hand_cards(hs[seat], x + pad, y + band + pad, w))
        g.append("</g>")
        parts.append("".join(g))
        who = f"Seat {seat}, team {team}" + (f", {role}" if role else "")
        labels.append(f"{who}: {', '.join(c.name for c in hs[seat])}")

    # legend below the felt
    ly = fy + felt_h + 19 * s
    sw = 12 * s
    lx = 6 * s
    legend = []
    for team, text in (("A", "Team A (seats 0 & 2)"), ("B", "Team B (seats 1 & 3)")):
        tfill, _ = TEAM_COLORS[team]
        legend.append(
            f'<rect class="musteach-swatch" data-team="{team}" x="{_n(lx)}" y="{_n(ly - sw * 0.85)}" '
            f'width="{_n(sw)}" height="{_n(sw)}" rx="{_n(2 * s)}" fill="{tfill}"/>'
            f'<text x="{_n(lx + sw + 5 * s)}" y="{_n(ly)}" font-family="{TEXT_FONT}" font-size="{_n(fs)}" '
            f'fill="#222">{_attr(text)}</text>'
        )
        lx += sw + 5 * s + len(text) * fs * 0.6 + 16 * s
    nx, ny, anchor = (6 * s, ly + 18 * s, "start") if two_lines else (total_w - 6 * s, ly, "end")
    legend.append(
        f'<text x="{_n(nx)}" y="{_n(ny)}" text-anchor="{anchor}" font-family="{TEXT_FONT}" '
        f'font-size="{_n(fs)}" fill="#444">{_attr(note)}</text>'
    )
    parts.append(f'<g class="musteach-legend">{"".join(legend)}</g>')

    data_hands = "|".join(" ".join(h.codes()) for h in hs)
    aria = f"Mus table, seat {m} is mano. " + ". ".join(labels) + "."
    if caption:
        aria = f"{caption}. {aria}"
    return (
        f'<svg xmlns="{SVG_NS}" width="{_n(total_w)}" height="{_n(total_h)}" '
        f'viewBox="0 0 {_n(total_w)} {_n(total_h)}" role="group" aria-label="{_attr(aria)}" '
        f'class="musteach-table" data-hands="{data_hands}" data-mano="{m}">'
        f"<title>{_attr(aria)}</title>{''.join(parts)}</svg>"
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
    if winner is None:
        return "nobody"
    fill, _ = TEAM_COLORS.get(team or "", ("#888", ""))
    return f'<span class="musteach-dot" style="background:{fill}"></span>Seat {winner} (team {team})'


def deal_html(result: DealResult, *, card_width: float = CARD_WIDTH) -> str:
    """A judged deal as HTML: the table (nothing highlighted) and the five lances with winner and reason.

    result: a :class:`~musteach.rules.lances.DealResult` from :func:`~musteach.rules.lances.evaluate`; nothing is
    recomputed, the winners and sentences are the result's own. Raises :class:`~musteach.rules.errors.MusError`
    when ``result`` is not a DealResult.
    """
    if not isinstance(result, DealResult):
        raise MusError(f"deal_html needs a DealResult from musteach.evaluate, not {type(result).__name__}")
    table = table_svg(result.hands, result.mano, card_width=card_width, rules=result.rules)
    rows = []
    for r in result.results():
        cls = "" if r.winner is not None else ' class="musteach-unplayed"'
        rows.append(
            f'<tr{cls} data-lance="{r.lance.value}" data-winner="{"" if r.winner is None else r.winner}">'
            f'<td class="musteach-lance">{r.lance.title}</td>'
            f'<td class="musteach-winner">{_winner_cell(r.winner, r.team)}</td>'
            f"<td>{_attr(r.explanation)}</td></tr>"
        )
    return (
        f'<div class="musteach-deal"><style>{_DEAL_CSS}</style>{table}'
        '<table class="musteach-lances"><thead><tr><th>Lance</th><th>Winner</th><th>Why</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
