"""A game's history: its phases, the kinds of event, whose turn it is, and the events themselves (RULES.md §2–§11).

:class:`Phase` and :class:`EventKind` are string enums, so ``event.phase == "bet:grande"`` still holds and a
saved history (JSON) reads back. Every decision's :class:`Event` keeps the frozen record of the decision
(:attr:`Event.record`, see :mod:`musteach.play.actions`), so a view draws from records and never parses text.

>>> Phase.BET_CHICA.lance, Phase.BET_CHICA.is_betting, Phase.bet(Lance.PUNTO)
(<Lance.CHICA: 'chica'>, True, <Phase.BET_PUNTO: 'bet:punto'>)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..i18n import Text
from ..rules.errors import MusError, SeatError
from ..rules.lances import Lance
from .actions import NextHand, Record, parse_action

__all__ = ["PHASES", "Event", "EventKind", "Phase", "Turn"]


class Phase(enum.StrEnum):
    """Where a hand stands (RULES.md §3, §4, §6): the mus, the discard, a declaration, a lance's betting, or over.

    ``START`` and ``NEXT_HAND`` only mark the match's first event and the events between hands.
    """

    START = "start"
    MUS = "mus"
    DISCARD = "discard"
    DECLARE_PARES = "declare:pares"
    DECLARE_JUEGO = "declare:juego"
    BET_GRANDE = "bet:grande"
    BET_CHICA = "bet:chica"
    BET_PARES = "bet:pares"
    BET_JUEGO = "bet:juego"
    BET_PUNTO = "bet:punto"
    OVER = "over"
    NEXT_HAND = "next_hand"

    @classmethod
    def bet(cls, lance: Lance) -> Phase:
        """The betting phase of ``lance`` (RULES.md §6)."""
        return cls(f"bet:{lance.value}")

    @classmethod
    def declare(cls, lance: Lance) -> Phase:
        """The declaration phase before Pares or Juego (RULES.md §4); raises ValueError for another lance."""
        return cls(f"declare:{lance.value}")

    @property
    def is_betting(self) -> bool:
        """True in a lance's betting (``bet:*``)."""
        return self.value.startswith("bet:")

    @property
    def is_declaration(self) -> bool:
        """True while the seats say pares or juego sí / no (``declare:*``)."""
        return self.value.startswith("declare:")

    @property
    def lance(self) -> Lance | None:
        """The lance bet or declared in this phase, or None (mus, discard, over...)."""
        if self.is_betting or self.is_declaration:
            return Lance(self.value.partition(":")[2])
        return None


#: Phases in which a seat decides. ``declare:*`` only appear with ``Game(ask_declarations=True)``.
PHASES: tuple[Phase, ...] = (
    Phase.MUS,
    Phase.DISCARD,
    Phase.DECLARE_PARES,
    Phase.DECLARE_JUEGO,
    Phase.BET_GRANDE,
    Phase.BET_CHICA,
    Phase.BET_PARES,
    Phase.BET_JUEGO,
    Phase.BET_PUNTO,
)


class EventKind(enum.StrEnum):
    """What an :class:`Event` records."""

    START = "start"  #: the match begins (its data: seed and rules)
    DEAL = "deal"  #: a hand is dealt (RULES.md §3)
    CARDS = "cards"  #: a seat's own cards (only that seat sees them)
    ACTION = "action"  #: a seat's decision (its record: MusCall, Discard, Declare or a betting Action)
    SIGNAL = "signal"  #: a seña (only the partners see it, RULES.md §11)
    DRAW = "draw"  #: a seat receives its new cards after a discard
    RESHUFFLE = "reshuffle"  #: the discards are shuffled into a new stock
    LANCE = "lance"  #: a lance (or a mus round) begins
    DECLARE = "declare"  #: a declaration made for a seat, or the declarations' summary (RULES.md §4)
    SHOW = "show"  #: the hands are shown
    COUNT = "count"  #: one step of the count (RULES.md §7, §8)
    HAND_END = "hand_end"  #: the hand is over
    GAME_END = "game_end"  #: a game (or the match) is over (RULES.md §10)
    NEXT_HAND = "next_hand"  #: the next hand is dealt (its record: NextHand)


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose decision it is: ``seat`` (whose turn it naturally is), ``phase`` (one of :data:`PHASES`) and
    ``seats``, every seat that may act now (facing a bet, either opponent may answer for the team)."""

    seat: int
    phase: Phase
    seats: tuple[int, ...]

    @property
    def lance(self) -> Lance | None:
        """The lance being bet or declared, or None in the mus."""
        return self.phase.lance

    @property
    def sentence(self) -> Text:
        """:meth:`describe` not yet put into words (for an error message that names the turn)."""
        lance = self.phase.lance
        if self.phase is Phase.MUS:
            return Text("Seat {seat} to say mus or no hay mus", seat=self.seat)
        if self.phase is Phase.DISCARD:
            return Text("Seat {seat} to discard 1 to 4 cards", seat=self.seat)
        if lance is not None and self.phase.is_declaration:
            return Text("Seat {seat} to declare {lance} sí or no", seat=self.seat, lance=lance.value)
        if lance is not None:
            return Text("Seat {seat} to speak in the {lance} betting", seat=self.seat, lance=lance.title)
        return Text("Seat {seat} to act ({phase})", seat=self.seat, phase=self.phase.value)

    def describe(self, *, lang: str | None = None) -> str:
        """``"Seat 0 to say mus or no hay mus"`` and so on, in ``lang`` (None: the language being spoken)."""
        return self.sentence.render(lang)


@dataclass(frozen=True)
class Event:
    """One entry of a game's history.

    index: position in the history. hand: the hand number (1-based; 0 for the start). kind: an
    :class:`EventKind`. seat: the seat concerned, or None. phase: the :class:`Phase` it happened in.
    text: a sentence every seat may read, in the game's language (``Game(lang=...)``); :meth:`facts` is
    the event without its words. action: for decisions (kinds ``action``, ``signal`` and
    ``next_hand``), the decision as text (what :func:`~musteach.play.game.replay` plays again).
    audience: None if every seat sees the event, else the seats that do (a seña, a seat's own cards).
    private: words only ``seat`` sees (the cards it threw or drew). data: extra facts (the start event
    holds the seed and the rules). record: the decision as a frozen record (:data:`~musteach.play.actions.Record`)
    naming ``seat`` as its actor, None for the other events; it is the action text read back (with the event's
    seat, so a history saved before records named their actor reads the same), so it is left out of comparisons.
    """

    index: int
    hand: int
    kind: EventKind
    seat: int | None
    phase: Phase
    text: str
    action: str | None = None
    audience: tuple[int, ...] | None = None
    private: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    record: Record | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.record is None and self.action is not None:
            object.__setattr__(self, "record", read_record(self.action, self.phase, self.seat))

    def visible_to(self, viewer: int | None) -> bool:
        """True if seat ``viewer`` sees this event (None = an onlooker who sees everything)."""
        return viewer is None or self.audience is None or viewer in self.audience

    def text_for(self, viewer: int | None) -> str | None:
        """The sentence seat ``viewer`` reads (with its private part for its own seat), or None if hidden."""
        if not self.visible_to(viewer):
            return None
        if self.private and (viewer is None or viewer == self.seat):
            return f"{self.text} {self.private}"
        return self.text

    def facts(self) -> tuple[object, ...]:
        """What happened, without the words: the fields but ``text`` and ``private``, and ``data`` without the
        language (``"lang"``). Two games that differ only in the language they speak have the same facts."""
        data = {k: v for k, v in self.data.items() if k != "lang"}
        return (self.index, self.hand, self.kind, self.seat, self.phase, self.action, self.audience, data)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (see :meth:`from_dict`)."""
        out: dict[str, Any] = {
            "index": self.index,
            "hand": self.hand,
            "kind": self.kind.value,
            "seat": self.seat,
            "phase": self.phase.value,
            "text": self.text,
        }
        if self.action is not None:
            out["action"] = self.action
        if self.audience is not None:
            out["audience"] = list(self.audience)
        if self.private:
            out["private"] = self.private
        if self.data:
            out["data"] = dict(self.data)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | Event) -> Event:
        """An :class:`Event` from :meth:`to_dict`'s form (its record read from its action text, naming its seat);
        raises :class:`MusError` naming a missing or bad field."""
        if isinstance(d, Event):
            return d
        try:
            aud = d.get("audience")
            return cls(
                int(d["index"]),
                int(d["hand"]),
                EventKind(str(d["kind"])),
                d.get("seat"),
                Phase(str(d["phase"])),
                str(d["text"]),
                d.get("action"),
                tuple(aud) if aud is not None else None,
                str(d.get("private", "")),
                dict(d.get("data", {})),
            )
        except (KeyError, TypeError) as e:
            raise MusError(Text("a history event needs index, hand, kind, seat, phase and text: {error}", error=str(e))) from None
        except SeatError as e:  # its action's record names its seat (RULES.md §0)
            raise MusError(Text("a history event has a bad seat: {error}", error=e.reason)) from None
        except ValueError as e:
            raise MusError(Text("a history event has a bad kind or phase: {error}", error=str(e))) from None


def read_record(action: str, phase: Phase, seat: int | None = None) -> Record:
    """The frozen record of a saved action text (``"next_hand"`` or any text of
    :func:`~musteach.play.actions.parse_action`), naming ``seat`` as its actor (None: nobody; ``"next_hand"``
    is nobody's). Raises :class:`~musteach.rules.errors.IllegalActionError` for a text that is no action, and
    :class:`~musteach.rules.errors.SeatError` for a bad seat."""
    if action == str(NextHand()):
        return NextHand()
    record = parse_action(action, phase)
    return record if seat is None else record.by(seat)
