"""Cards, hands and notation of the 40-card Spanish deck (RULES.md §0, §1).

Three notations are read and written:

* **codes**, as in ``../shared/vectors``: rank number + suit letter, ``12o``, ``3c``, ``1e``;
* **letter codes**: ``Ro`` (rey), ``Cc`` (caballo), ``Se`` (sota), ``Ab`` (as), ``7b``;
* **Spanish names**: ``"rey de oros"``, ``"as de bastos"``, ``"siete de copas"``.

>>> Card.parse("12o")
Card(rank=12, suit=<Suit.OROS: 'o'>)
>>> Card.parse("rey de oros") == Card.parse("Ro") == Card(12, Suit.OROS)
True
>>> Card.parse("Cc").name
'caballo de copas'
>>> Hand.parse("12o 3c 7e 1b").codes()
('12o', '3c', '7e', '1b')
"""

from __future__ import annotations

import enum
import random
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

from ..i18n import Text, plural_text
from .errors import DuplicateCardError, HandSizeError, UnknownCardError

__all__ = [
    "Suit",
    "Card",
    "Hand",
    "RANKS",
    "DECK",
    "RANK_NAMES",
    "CARD_TEXTS",
    "parse_card",
    "parse_hand",
    "parse_hands",
    "deal",
]

#: The ten ranks of the Spanish deck, low to high by number (no 8s or 9s).
RANKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)

#: Spanish rank names, by rank number.
RANK_NAMES: dict[int, str] = {
    1: "as",
    2: "dos",
    3: "tres",
    4: "cuatro",
    5: "cinco",
    6: "seis",
    7: "siete",
    10: "sota",
    11: "caballo",
    12: "rey",
}
_RANK_LETTERS: dict[int, str] = {1: "A", 10: "S", 11: "C", 12: "R"}
_LETTER_RANKS: dict[str, int] = {"A": 1, "S": 10, "C": 11, "R": 12, "J": 10, "K": 12}
_NAME_RANKS: dict[str, int] = {v: k for k, v in RANK_NAMES.items()} | {"uno": 1, "ace": 1}


class Suit(enum.Enum):
    """The four suits. Suits never matter in Mus (RULES.md §0); they are drawn, not compared."""

    OROS = "o"
    COPAS = "c"
    ESPADAS = "e"
    BASTOS = "b"

    # Members are singletons: hash them by identity, in C (Enum's own __hash__ is Python code, and a Card's hash,
    # taken whenever a hand or a deal is checked for a card twice, hashes its suit).
    __hash__ = object.__hash__

    @property
    def spanish(self) -> str:
        """The suit's Spanish name: ``"oros"``, ``"copas"``, ``"espadas"`` or ``"bastos"``."""
        return self.name.lower()

    @property
    def english(self) -> str:
        """An English gloss: coins, cups, swords, clubs."""
        return _SUIT_ENGLISH[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter (``o``) or name (``oros``); raises :class:`UnknownCardError`."""
        t = _fold(text)
        for s in cls:
            if t in (s.value, s.spanish, s.english):
                return s
        raise UnknownCardError(
            Text("unknown suit {suit}: use o, c, e, b or oros, copas, espadas, bastos", suit=repr(text))
        )


_SUIT_ENGLISH = {Suit.OROS: "coins", Suit.COPAS: "cups", Suit.ESPADAS: "swords", Suit.BASTOS: "clubs"}
_SUIT_ORDER = {s: i for i, s in enumerate(Suit)}


def _fold(text: str) -> str:
    """Lower case, accents removed, spaces squeezed."""
    t = unicodedata.normalize("NFKD", text.strip().lower())
    t = "".join(ch for ch in t if not unicodedata.combining(ch))
    return " ".join(t.split())


def _is_rank_number(word: str, written: str) -> bool:
    """True if ``word`` is a rank in ASCII digits (1-7, 10, 11 or 12, no leading 0) and was ``written`` so.

    ``word`` is folded; other digits ("１２", "١٢", "¹²") fold to ASCII too, so ``written`` is checked before folding.
    """
    return word in _RANK_NUMBERS and written.isascii()


_RANK_NUMBERS = frozenset(str(r) for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))


@dataclass(frozen=True, order=False, slots=True)
class Card:
    """One card: ``rank`` in :data:`RANKS` and a :class:`Suit`.

    Raises :class:`UnknownCardError` for a rank outside :data:`RANKS` (there are no 8s or 9s).
    """

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in RANK_NAMES or isinstance(self.rank, bool):
            raise UnknownCardError(
                Text("unknown card rank {rank}: the Spanish deck has 1-7, 10, 11, 12", rank=repr(self.rank))
            )
        if not isinstance(self.suit, Suit):
            raise UnknownCardError(Text("unknown suit {suit}", suit=repr(self.suit)))

    # ----- notation -------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read a card from a code (``12o``), a letter code (``Ro``) or a Spanish name (``rey de oros``).

        Raises :class:`UnknownCardError` naming the text when it is none of these.
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise UnknownCardError(
                Text("unknown card {card}: expected text such as '12o', 'Ro' or 'rey de oros'", card=repr(text))
            )
        known = CARD_TEXTS.get(text)
        if known is not None:
            return known
        t = _fold(text)
        if " de " in t:
            rank_word, _, suit_word = t.partition(" de ")
            rank = _NAME_RANKS.get(rank_word)
            if rank is None and _is_rank_number(rank_word, text.split()[0]):
                rank = int(rank_word)
            try:
                suit = Suit.parse(suit_word)
            except UnknownCardError:
                suit = None
            if rank in RANK_NAMES and suit is not None:
                return cls(rank, suit)
            raise UnknownCardError(Text("unknown card {card}", card=repr(text)))
        if len(t) >= 2:
            head, tail = t[:-1], t[-1]
            try:
                suit = Suit(tail)
            except ValueError:
                raise UnknownCardError(
                    Text("unknown card {card}: the last letter must be a suit, o, c, e or b", card=repr(text))
                ) from None
            if not text.strip().isascii():  # "１２ｏ", "١٢o", "¹²o", "12ö" fold to "12o": refuse them
                pass
            elif head.isdigit():
                if _is_rank_number(head, text.strip()):
                    return cls(int(head), suit)
            elif head.upper() in _LETTER_RANKS:
                return cls(_LETTER_RANKS[head.upper()], suit)
        raise UnknownCardError(
            Text("unknown card {card}: expected a code such as '12o', 'Ro' or 'rey de oros'", card=repr(text))
        )

    @property
    def code(self) -> str:
        """The vector code: ``"12o"``."""
        return f"{self.rank}{self.suit.value}"

    @property
    def letter_code(self) -> str:
        """The letter code: ``"Ro"``, ``"Cc"``, ``"Se"``, ``"Ab"``, ``"7b"``."""
        return f"{_RANK_LETTERS.get(self.rank, str(self.rank))}{self.suit.value}"

    @property
    def name(self) -> str:
        """The Spanish name: ``"rey de oros"``."""
        return f"{RANK_NAMES[self.rank]} de {self.suit.spanish}"

    @property
    def index(self) -> int:
        """Position 0..39 in :data:`DECK` (rank-major): the integer form used by the batched evaluator."""
        return RANKS.index(self.rank) * 4 + _SUIT_ORDER[self.suit]

    @classmethod
    def from_index(cls, i: int) -> Card:
        """The card at position ``i`` (0..39) of :data:`DECK`."""
        if not (0 <= i < 40):
            raise UnknownCardError(Text("unknown card index {index}: expected 0..39", index=repr(i)))
        return DECK[i]

    def __str__(self) -> str:
        return self.code

    def _repr_svg_(self) -> str:
        from ..draw.cards import card_svg

        return card_svg(self)

    def _repr_html_(self) -> str:
        from ..draw.cards import card_html

        return card_html(self)


#: The 40 cards, rank-major: ``DECK[card.index] == card``.
DECK: tuple[Card, ...] = tuple(Card(r, s) for r in RANKS for s in Suit)

#: Every card's exact code (``"12o"``), letter code (``"Ro"``) and Spanish name (``"rey de oros"``): the texts
#: that :meth:`Card.parse` reads without folding case, accents or spaces.
CARD_TEXTS: dict[str, Card] = {t: c for c in DECK for t in (c.code, c.letter_code, c.name)}
_CANONICAL: dict[object, Card] = {**{c: c for c in DECK}}
_CANONICAL.update(CARD_TEXTS)
_DECK_IDS = frozenset(map(id, DECK))


def parse_card(text: str | Card) -> Card:
    """A card from its code, rank then suit (``"12o"``: rey de oros), or its Spanish name (RULES.md §0).

    Same as :meth:`Card.parse`; raises :class:`~musteach.rules.errors.UnknownCardError` naming the text.
    """
    return Card.parse(text)


@dataclass(frozen=True, slots=True)
class Hand:
    """Exactly 4 distinct cards, in the order given.

    Raises :class:`HandSizeError` for another number of cards and :class:`DuplicateCardError`
    when a card repeats.
    """

    cards: tuple[Card, Card, Card, Card]

    def __init__(self, cards: Iterable[Card | str]):
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        if not isinstance(cards, Iterable) or isinstance(cards, Mapping):  # an object's keys are no hand
            raise HandSizeError(Text("a hand holds 4 cards, not {value}", value=repr(cards)))
        try:  # the usual case: exact codes or cards of the deck, each read by one dict look-up
            parsed = tuple(map(_CANONICAL.__getitem__, cards))
        except (KeyError, TypeError):
            parsed = tuple(Card.parse(c) for c in cards)
        else:
            if len(parsed) == 4 and len(set(map(id, parsed))) == 4:  # canonical cards: equal means identical
                object.__setattr__(self, "cards", parsed)
                return
        if len(parsed) != 4:
            shown = " ".join(c.code for c in parsed)
            raise HandSizeError(Text("a hand holds 4 cards, not {count}: [{cards}]", count=len(parsed), cards=shown))
        seen: set[Card] = set()
        for c in parsed:
            if c in seen:
                raise DuplicateCardError(Text("card {code} ({name}) appears twice in the hand", code=c.code, name=c.name))
            seen.add(c)
        object.__setattr__(self, "cards", parsed)

    @classmethod
    def parse(cls, text: str | Iterable[Card | str]) -> Hand:
        """A hand from ``"12o 3c 7e 1b"`` or a sequence of four card texts or cards."""
        return cls(text)

    def codes(self) -> tuple[str, ...]:
        """The four vector codes, in order."""
        return tuple(c.code for c in self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> Card:
        return self.cards[i]

    def __str__(self) -> str:
        return " ".join(c.code for c in self.cards)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def _repr_svg_(self) -> str:
        from ..draw.cards import hand_svg

        return hand_svg(self)

    def _repr_html_(self) -> str:
        from ..draw.cards import hand_html

        return hand_html(self)


def _as_sequence(cards: object) -> list[object] | tuple[object, ...]:
    """``cards`` if it is a list or tuple; else TypeError (the careful path then reads or refuses it)."""
    if isinstance(cards, list | tuple):
        return cards
    raise TypeError(cards)


def _checked_hand(cards: tuple[Card, ...]) -> Hand:
    """A :class:`Hand` of 4 cards already known to be different deck cards."""
    hand = object.__new__(Hand)
    object.__setattr__(hand, "cards", cards)
    return hand


def parse_hand(cards: Hand | str | Iterable[Card | str]) -> Hand:
    """A :class:`Hand` from a hand, a text or a sequence of 4 card texts."""
    return cards if isinstance(cards, Hand) else Hand(cards)


def parse_hands(hands: Sequence[Hand | str | Iterable[Card | str]]) -> tuple[Hand, Hand, Hand, Hand]:
    """Four hands indexed by seat, checked for a card dealt twice.

    hands: 4 sequences of 4 cards, indexed by seat.
    Raises :class:`HandSizeError` (not 4 hands, or a hand not of 4 cards), :class:`UnknownCardError`,
    :class:`DuplicateCardError` (naming the card and both seats).
    """
    sized = hasattr(hands, "__len__")
    if isinstance(hands, str | bytes) or not sized or len(hands) != 4:
        if isinstance(hands, str | bytes):
            raise HandSizeError(Text("a deal holds 4 hands, one per seat 0-3, not a text"))
        if not sized:
            raise HandSizeError(Text("a deal holds 4 hands, one per seat 0-3, not {value}", value=repr(hands)))
        raise HandSizeError(
            plural_text(
                "a deal holds 4 hands, one per seat 0-3, not {n} hand",
                "a deal holds 4 hands, one per seat 0-3, not {n} hands",
                len(hands),
            )
        )
    out: list[Hand] = []
    try:  # the usual case: four hands of exact codes or deck cards, all different
        fast = [h.cards if isinstance(h, Hand) else tuple(map(_CANONICAL.__getitem__, _as_sequence(h))) for h in hands]
    except (KeyError, TypeError):
        pass
    else:
        ids = list(map(id, chain.from_iterable(fast)))
        if len(ids) == 16 and _DECK_IDS.issuperset(ids) and len(set(ids)) == 16 and set(map(len, fast)) == {4}:
            h0, h1, h2, h3 = map(_checked_hand, fast)
            return (h0, h1, h2, h3)
    where: dict[Card, int] = {}
    for seat, h in enumerate(hands):
        try:
            hand = parse_hand(h)
        except (UnknownCardError, HandSizeError, DuplicateCardError) as e:
            raise type(e)(Text("seat {seat}: {reason}", seat=seat, reason=e.reason)) from None
        for c in hand:
            if c in where:
                raise DuplicateCardError(
                    Text(
                        "card {code} ({name}) is dealt twice: to seat {first} and seat {second}",
                        code=c.code, name=c.name, first=where[c], second=seat,
                    )
                )
            where[c] = seat
        out.append(hand)
    return (out[0], out[1], out[2], out[3])


def deal(seed: int | random.Random | None = None) -> tuple[Hand, Hand, Hand, Hand]:
    """Shuffle a fresh 40-card deck and deal 4 hands of 4 cards, indexed by seat (RULES.md §1, §3).

    seed: an int (the same seed always gives the same deal), a :class:`random.Random`, or None.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    cards = rng.sample(DECK, 16)
    h0, h1, h2, h3 = (Hand(cards[4 * i : 4 * i + 4]) for i in range(4))
    return (h0, h1, h2, h3)
