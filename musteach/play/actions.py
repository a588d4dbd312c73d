"""Each decision of a game of Mus as a frozen record, and the reading of an action's text (RULES.md §3, §4, §6, §11).

Records, in the order of a hand: :class:`MusCall` (mus / no hay mus, §3), :class:`Discard` (§3),
:class:`Declare` (pares / juego sí or no, §4), the betting's :class:`~musteach.rules.betting.Action` (paso,
envido, a raise, órdago, quiero, no quiero; §6), :class:`Signal` (a seña, §11) and :class:`NextHand` (§2).
Each record's ``str`` is the text :func:`parse_action` reads back, so a history saved as text replays.
Each record names its actor, ``seat`` (:class:`~musteach.rules.bet_actions.Acted`): None when read from text,
the seat that played it once a :class:`~musteach.play.game.Game` has played it (every record of its history),
left out of comparisons. ``MusCall(True, seat=2)`` builds one with its seat; ``record.by(2)`` gives it.

>>> parse_action("discard 12o 3c")
Discard(cards=(Card(rank=12, suit=<Suit.OROS: 'o'>), Card(rank=3, suit=<Suit.COPAS: 'c'>)))
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..i18n import Text
from ..rules.bet_actions import Acted, actor
from ..rules.betting import Action
from ..rules.cards import Card
from ..rules.errors import IllegalActionError
from ..rules.lances import Lance
from ..rules.senas import Sena, get_sena

__all__ = [
    "Declare",
    "Discard",
    "GameAction",
    "MusCall",
    "NextHand",
    "Record",
    "Signal",
    "cards_text",
    "parse_action",
]


def _fold(text: str) -> str:
    t = unicodedata.normalize("NFKD", str(text).strip().lower())
    return " ".join("".join(ch for ch in t if not unicodedata.combining(ch)).split())


def cards_text(cards: Iterable[Card]) -> str:
    """The cards' codes joined by spaces: ``"12o 3c"`` (for error messages, which name the cards as typed)."""
    return " ".join(c.code for c in cards)


def card_names(cards: Iterable[Card]) -> str:
    """The cards' Spanish names, for a learner to read: ``"rey de oros, 3 de copas"`` (RULES.md §0).

    >>> card_names([Card.parse("12o"), Card.parse("3c")])
    'rey de oros, tres de copas'
    """
    return ", ".join(c.name for c in cards)


def _seat_field() -> int | None:
    """A record's actor: keyword-only, left out of comparisons (see :class:`~musteach.rules.bet_actions.Acted`)."""
    return field(default=None, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True, repr=False)
class MusCall(Acted):
    """In the mus phase: ``wants=True`` is "mus" (change cards), False is "no hay mus" (cut). RULES.md §3.
    seat: who says it, or None."""

    wants: bool
    seat: int | None = _seat_field()

    def __post_init__(self) -> None:
        actor(self.seat)

    def __str__(self) -> str:
        return "mus" if self.wants else "no hay mus"


@dataclass(frozen=True, slots=True, init=False, repr=False)
class Discard(Acted):
    """The cards a player throws away after everybody said mus: 1 to 4 distinct cards (RULES.md §3).
    seat: who throws them, or None.

    Raises :class:`IllegalActionError` for no card, more than 4, or a card given twice;
    :class:`~musteach.rules.errors.UnknownCardError` for a bad card text;
    :class:`~musteach.rules.errors.SeatError` for a bad seat.
    """

    cards: tuple[Card, ...]
    seat: int | None = field(default=None, compare=False)

    def __init__(self, cards: Iterable[Card | str] | str, *, seat: int | None = None):
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        parsed = tuple(Card.parse(c) for c in cards)
        if not 1 <= len(parsed) <= 4:
            raise IllegalActionError(Text("a discard is 1 to 4 cards, not {n} (RULES.md §3)", n=len(parsed)))
        if len(set(parsed)) != len(parsed):
            raise IllegalActionError(Text("a discard names a card twice: {cards}", cards=cards_text(parsed)))
        object.__setattr__(self, "cards", parsed)
        object.__setattr__(self, "seat", actor(seat))

    def __str__(self) -> str:
        return f"discard {cards_text(self.cards)}"


@dataclass(frozen=True, slots=True, repr=False)
class Declare(Acted):
    """A declaration before Pares or Juego: "pares sí / no", "juego sí / no" (RULES.md §4). seat: who declares,
    or None."""

    lance: Lance
    holds: bool
    seat: int | None = _seat_field()

    def __post_init__(self) -> None:
        actor(self.seat)

    def __str__(self) -> str:
        return f"{self.lance.value} {'sí' if self.holds else 'no'}"


@dataclass(frozen=True, slots=True, repr=False)
class Signal(Acted):
    """A seña made to the partner (RULES.md §11); see :meth:`Game.signal`. seat: who makes it, or None."""

    sena: Sena
    seat: int | None = _seat_field()

    def __post_init__(self) -> None:
        actor(self.seat)

    def __str__(self) -> str:
        return f"seña {self.sena.key}"


@dataclass(frozen=True, slots=True)
class NextHand:
    """Between hands: deal the next one (RULES.md §2). Its text is ``"next_hand"``."""

    def __str__(self) -> str:
        return "next_hand"


#: What a seat may do: the betting actions are :class:`~musteach.rules.betting.Action` (paso, envido, a raise,
#: órdago, quiero, no quiero; RULES.md §6).
GameAction = MusCall | Discard | Declare | Action | Signal
#: Every record an :class:`~musteach.play.events.Event` may hold.
Record = GameAction | NextHand


def parse_action(action: object, phase: str | None = None) -> GameAction:
    """Read an action from text or return it as it is.

    Texts: ``mus``, ``no hay mus`` (also ``corto``, ``no mus``, ``cut``); ``discard 12o 3c`` (also
    ``descarto ...``, or just the cards in the discard phase); ``pares sí``, ``juego no``; ``seña <key>``;
    and every betting text of :meth:`~musteach.rules.betting.Action.parse` (``paso``, ``envido 5``, ``3 más``,
    ``órdago``, ``quiero``, ``no quiero``). ``phase`` helps read bare card lists in the discard phase.
    Raises :class:`IllegalActionError` naming the text when it is none of these.

    >>> parse_action("no hay mus"), str(parse_action("discard 12o 3c")), str(parse_action("pares si"))
    (MusCall(wants=False), 'discard 12o 3c', 'pares sí')
    """
    if isinstance(action, MusCall | Discard | Declare | Action | Signal):
        return action
    if isinstance(action, Sena):
        return Signal(action)
    if not isinstance(action, str):
        raise IllegalActionError(
            Text("unknown action {action}: expected text such as 'mus', 'paso' or 'envido 2'", action=repr(action))
        )
    t = _fold(action)
    if t in ("mus", "quiero mus", "doy mus"):
        return MusCall(True)
    if t in ("no hay mus", "no mus", "corto", "corta", "cut") or (t == "no" and phase == "mus"):
        return MusCall(False)
    words = t.split()
    if words and words[0] in ("discard", "descarto", "descarte", "change"):
        return Discard(words[1:])
    if words and words[0] in ("sena", "signal"):
        return Signal(get_sena(" ".join(words[1:])))
    if len(words) == 2 and words[0] in ("pares", "juego") and words[1] in ("si", "no", "yes"):
        return Declare(Lance(words[0]), words[1] != "no")
    if phase == "discard" and words:
        return Discard(words)
    try:
        return Action.parse(action)
    except IllegalActionError:
        raise IllegalActionError(
            Text(
                "unknown action {action}: use mus / no hay mus, discard <cards>, pares sí / no, juego sí / no, "
                "paso, envido N, N más, órdago, quiero, no quiero, or seña <name>",
                action=repr(action),
            )
        ) from None
