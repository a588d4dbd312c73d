"""Pictures of cards and hands, as SVG and HTML strings (no Jupyter import); the table is :mod:`.table`.

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

No element carries an ``id``, so any number of pictures can be inlined in one page.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..i18n import Text, translator
from ..rules.cards import Card, Hand, Suit, parse_hand
from ..rules.errors import MusError
from .xml import SVG_NS, escaped, number

__all__ = [
    "card_back_svg",
    "CARD_RATIO",
    "CARD_WIDTH",
    "SUIT_COLORS",
    "TEAM_COLORS",
    "TEXT_FONT",
    "card_html",
    "card_svg",
    "check_width",
    "hand_grid",
    "hand_html",
    "hand_row",
    "hand_row_width",
    "hand_svg",
]

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
    rot = f" rotate({number(angle)})" if angle else ""
    c = f' class="{cls}"' if cls else ""
    return f'<g{c} transform="translate({number(x)} {number(y)}){rot} scale({number(size / 100)})">{_SYMBOL_BODIES[suit]}</g>'


# Pip layouts for 1..7, as rows: each count's pip size, then its rows as (y, x, x...), from the top. Round suits
# (coins, cups) and long suits (swords, clubs, kept apart, never crossed in a bundle: every pip stays countable
# at table size). The long ace alone is drawn large and tilted (:data:`_LONG_ACE`).
_PIP_ROWS: dict[bool, dict[int, tuple[float, tuple[tuple[float, ...], ...]]]] = {
    False: {
        1: (62, ((79, 50),)),
        2: (38, ((48, 50), (110, 50))),
        3: (31, ((42, 50), (79, 50), (116, 50))),
        4: (31, ((50, 33, 67), (108, 33, 67))),
        5: (28, ((46, 32, 68), (79, 50), (112, 32, 68))),
        6: (27, ((44, 33, 67), (79, 33, 67), (114, 33, 67))),
        7: (24, ((45, 36, 64), (79, 26, 50, 74), (113, 36, 64))),
    },
    True: {
        2: (56, ((50, 50), (108, 50))),
        3: (56, ((50, 31, 69), (108, 50))),
        4: (56, ((50, 38, 62), (108, 38, 62))),
        5: (54, ((50, 31, 69), (79, 50), (108, 31, 69))),
        6: (52, ((50, 31, 50, 69), (108, 31, 50, 69))),
        7: (36, ((42, 31, 50, 69), (79, 50), (116, 31, 50, 69))),
    },
}
#: The ace of a long suit: (x, y, size, angle).
_LONG_ACE = (50.0, 79.0, 112.0, -12.0)


def _pips(card: Card) -> str:
    long = card.suit in _LONG_SUITS
    if long and card.rank == 1:
        x, y, size, angle = _LONG_ACE
        return _symbol(card.suit, x, y, size, angle, "musteach-pip")
    size, rows = _PIP_ROWS[long][card.rank]
    return "".join(_symbol(card.suit, x, row[0], size, 0.0, "musteach-pip") for row in rows for x in row[1:])


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
            return f"M{number(x0)},{number(y)} H{number(x1)}"
        mid = (x0 + x1) / 2
        first = mid - ((breaks - 1) * step) / 2
        parts, cur = [], x0
        for k in range(breaks):
            g = first + k * step
            parts.append(f"M{number(cur)},{number(y)} H{number(g - gap / 2)}")
            cur = g + gap / 2
        parts.append(f"M{number(cur)},{number(y)} H{number(x1)}")
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
    size = 21 if card.rank < 10 else 20  # a two-digit index stays 11 px or more on a phone table
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


def check_width(width: object, what: str = "width") -> float:
    """``width`` as a float, when it is a finite positive number of pixels (not a bool).

    Raises :class:`~musteach.rules.errors.MusError` naming ``what`` and the bad value otherwise."""
    if isinstance(width, bool) or not isinstance(width, int | float) or not math.isfinite(width) or width <= 0:
        raise MusError(Text("{what} must be a positive number of pixels, not {value}", what=what, value=repr(width)))
    return float(width)


def _card_element(card: Card, x: float, y: float, width: float, highlight: bool = False, dim: bool = False) -> str:
    """A card as a nested <svg> placed at (x, y) in a larger picture (a highlighted one has ``data-marked``)."""
    name = escaped(card.name)
    marked = ' data-marked="true"' if highlight else ""
    return (
        f'<svg x="{number(x)}" y="{number(y)}" width="{number(width)}" height="{number(width * CARD_RATIO)}" '
        f'viewBox="0 0 {_VW} {_VH}" role="img" lang="es" aria-label="{name}" class="musteach-card" data-card="{card.code}"{marked}>'
        f"<title>{name}</title>{_card_body(card, highlight, dim)}</svg>"
    )


def card_svg(card: Card | str, width: float = CARD_WIDTH, *, highlight: bool = False, dim: bool = False) -> str:
    """One card as a standalone SVG document (a string).

    card: a :class:`~musteach.rules.cards.Card` or any text :meth:`Card.parse` reads (``"12o"``, ``"Ro"``).
    width: CSS pixels (the height is ``width * CARD_RATIO``). highlight: a yellow ring (and ``data-marked``);
    dim: faded.
    The root carries ``role="img"``, ``lang="es"``, ``aria-label`` and a ``<title>`` with the Spanish name, and
    ``data-card`` with the code.
    Raises :class:`~musteach.rules.errors.UnknownCardError` for a bad card, :class:`~musteach.rules.errors.MusError`
    for a bad width.

    >>> card_svg("Ro").count("<title>rey de oros</title>")
    1
    """
    c = _as_card(card)
    w = check_width(width)
    name = escaped(c.name)
    marked = ' data-marked="true"' if highlight else ""
    return (
        f'<svg xmlns="{SVG_NS}" width="{number(w)}" height="{number(w * CARD_RATIO)}" viewBox="0 0 {_VW} {_VH}" '
        f'role="img" lang="es" aria-label="{name}" class="musteach-card" data-card="{c.code}"{marked}>'
        f"<title>{name}</title>{_card_body(c, bool(highlight), bool(dim))}</svg>"
    )


def card_html(card: Card | str, width: float = CARD_WIDTH, *, highlight: bool = False, dim: bool = False) -> str:
    """:func:`card_svg` inside an inline ``<span class="musteach-card-wrap">`` (for ``_repr_html_``)."""
    svg = card_svg(card, width, highlight=highlight, dim=dim)
    return f'<span class="musteach-card-wrap" style="display:inline-block;line-height:0">{svg}</span>'


# ----------------------------------------------------------------------------------------------
# Hands
# ----------------------------------------------------------------------------------------------


def hand_row(hand: Hand, x: float, y: float, w: float, highlight: bool = False, marked: Iterable[int] = ()) -> str:
    """A hand's 4 cards side by side, as nested ``<svg>`` elements for a larger picture: the first card's top
    left corner at (x, y), each ``w`` user units wide, a gap of 8 % of ``w`` between them. marked: indexes
    0..3 of cards to ring (a hint's deciding cards)."""
    gap = w * 0.08
    lit = set(marked)
    return "".join(
        _card_element(c, x + i * (w + gap), y, w, highlight=highlight or i in lit) for i, c in enumerate(hand)
    )


def hand_grid(hand: Hand, x: float, y: float, w: float, highlight: bool = False, marked: Iterable[int] = ()) -> str:
    """A hand's 4 cards in two rows of two (cards 0, 1 above, 2, 3 below), as nested ``<svg>`` elements: the
    first card's top left corner at (x, y), each ``w`` user units wide, a gap of 8 % of ``w`` between them.
    marked: indexes 0..3 of cards to ring (a hint's deciding cards)."""
    gap = w * 0.08
    lit = set(marked)
    return "".join(
        _card_element(c, x + (i % 2) * (w + gap), y + (i // 2) * (w * CARD_RATIO + gap), w, highlight=highlight or i in lit)
        for i, c in enumerate(hand)
    )


def hand_row_width(w: float) -> float:
    """The width of :func:`hand_row` for cards ``w`` wide (same units)."""
    return 4 * w + 3 * w * 0.08


def hand_svg(
    hand: Hand | str | Sequence[Card | str],
    *,
    card_width: float = CARD_WIDTH,
    highlight: bool = False,
    label: str | None = None,
    marked: Iterable[int] = (),
) -> str:
    """Four cards in a row, as a standalone SVG document.

    hand: a :class:`~musteach.rules.cards.Hand`, a text such as ``"12o 3c 7e 5b"`` or 4 cards.
    card_width: CSS pixels per card. highlight: a yellow ring round every card. marked: indexes 0..3 of
    cards to ring (a hint's deciding cards).
    label: optional text shown above the cards and put first in the accessible name.
    The root's ``aria-label`` lists the cards (``"rey de oros, tres de copas, ..."``) and ``data-hand`` holds
    the codes. Raises :class:`~musteach.rules.errors.HandSizeError`, :class:`~musteach.rules.errors.UnknownCardError`,
    :class:`~musteach.rules.errors.DuplicateCardError`.

    >>> 'aria-label="rey de oros, tres de copas, siete de espadas, cinco de bastos"' in hand_svg("12o 3c 7e 5b")
    True
    """
    _ = translator()
    h = parse_hand(hand)
    w = check_width(card_width, "card_width")
    names = ", ".join(c.name for c in h)
    top = 0.0
    head = ""
    if label is not None:
        top = w * 0.36
        names = _("{label}: {cards}", label=label, cards=names)
        head = (
            f'<text x="2" y="{number(top * 0.72)}" font-family="{TEXT_FONT}" font-size="{number(w * 0.22)}" '
            f'font-weight="bold" fill="#333">{escaped(str(label))}</text>'
        )
    # the card names are Spanish; a label is in the language being spoken
    lang = ' lang="es"' if label is None or translator().lang == "es" else ""
    pad = w * 0.05
    width, height = hand_row_width(w) + 2 * pad, top + w * CARD_RATIO + 2 * pad
    return (
        f'<svg xmlns="{SVG_NS}" width="{number(width)}" height="{number(height)}" viewBox="0 0 {number(width)} {number(height)}" '
        f'role="img"{lang} aria-label="{escaped(names)}" class="musteach-hand" data-hand="{" ".join(h.codes())}">'
        f"<title>{escaped(names)}</title>{head}{hand_row(h, pad, top + pad, w, bool(highlight), marked)}</svg>"
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


def card_back_svg(width: float = 30, name: str = "a face-down card") -> str:
    """A face-down card (the back of a Spanish deck card) as an SVG string, ``width`` pixels wide (its height
    1.54 times that), named ``name`` for screen readers (the caller words it in the learner's language).

    >>> card_back_svg(30).startswith('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="46.2"')
    True
    """
    h = round(width * 1.54, 1)
    label = escaped(name)
    return (
        f'<svg xmlns="{SVG_NS}" width="{number(width)}" height="{number(h)}" viewBox="0 0 100 154" role="img" '
        f'aria-label="{label}" class="musteach-card-back"><title>{label}</title>'
        '<rect x="1.5" y="1.5" width="97" height="151" rx="8" fill="#FFFDF6" stroke="#5A5A5A" stroke-width="2"/>'
        '<rect x="9" y="9" width="82" height="136" rx="5" fill="#9C2F2F"/>'
        '<path d="M9 9 L91 145 M91 9 L9 145 M50 9 L91 77 L50 145 L9 77 Z" stroke="#E8C27A" stroke-width="3" fill="none"/>'
        '<circle cx="50" cy="77" r="14" fill="#E8C27A"/></svg>'
    )
