"""What a player says in the betting: an :class:`Action` read from text, and the :class:`BettingStep` record (RULES.md §6).

Every decision record (the betting's :class:`Action`, and the records of :mod:`musteach.play.actions`) names
its actor, the seat that played it (:class:`Acted`): a record read from text names nobody until a seat plays
it, and the engine hands back the record played with its seat.

>>> Action.parse("2 más")
Action(kind='reenvido', amount=2)
>>> Action.parse("2 más").by(1)
Action(kind='reenvido', amount=2, seat=1)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from typing import Self

from ..i18n import Text
from .errors import IllegalActionError
from .lances import check_seat
from .stakes import fold_text, is_whole

__all__ = ["ACTION_KINDS", "Acted", "Action", "ActionKind", "BettingStep"]


class Acted:
    """What every decision record shares: ``seat``, its actor (0..3), or None for a record nobody has played
    yet (read from text, or offered as a choice to nobody in particular).

    The seat is left out of comparisons and hashing: two records that say the same thing are equal whoever
    says it (a learner's record compares with the choices offered, a coach's best action with the one played).
    :meth:`by` gives the record with its actor; the repr names the seat only when there is one, so a record
    read from text reads as it always did.
    """

    __slots__ = ()
    seat: int | None

    def by(self, seat: int) -> Self:
        """This record with ``seat`` as its actor (itself when it already names ``seat``).

        Raises :class:`~musteach.rules.errors.SeatError` for a seat outside 0..3, and
        :class:`IllegalActionError` when the record already names another seat (RULES.md §0).
        """
        check_seat(seat)
        if self.seat == seat:
            return self
        if self.seat is not None:
            raise IllegalActionError(
                Text("seat {seat} cannot play {action}: the record was played by seat {other}", seat=seat, action=str(self), other=self.seat)
            )
        new = object.__new__(type(self))  # a copy, fast: the coach's rollouts play many actions
        for name in _field_names(type(self)):
            object.__setattr__(new, name, seat if name == "seat" else getattr(self, name))
        return new

    def __repr__(self) -> str:
        shown = [f"{name}={getattr(self, name)!r}" for name in _field_names(type(self)) if name != "seat"]
        if self.seat is not None:
            shown.append(f"seat={self.seat!r}")
        return f"{type(self).__name__}({', '.join(shown)})"


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


def actor(seat: int | None) -> int | None:
    """``seat`` checked as a record's actor: None, or a seat 0..3 (:class:`~musteach.rules.errors.SeatError` otherwise)."""
    return None if seat is None else check_seat(seat)


class ActionKind(enum.StrEnum):
    """What kind of thing a player says in the betting (RULES.md §6). A ``str``: ``ActionKind.ENVIDO == "envido"``,
    and its repr is ``'envido'``, so an :class:`Action` reads as it always did.

    "reenvido" is a raise of N more on a bet already made.
    """

    PASO = "paso"
    ENVIDO = "envido"
    REENVIDO = "reenvido"
    ORDAGO = "ordago"
    QUIERO = "quiero"
    NO_QUIERO = "no_quiero"

    def __repr__(self) -> str:
        return repr(self.value)


#: Betting action kinds, in the order a player meets them.
ACTION_KINDS: tuple[ActionKind, ...] = tuple(ActionKind)


# ----------------------------------------------------------------------------------------------
# Actions
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, init=False, repr=False)
class Action(Acted):
    """One thing a player says in the betting (RULES.md §6).

    kind: one of :data:`ACTION_KINDS`: ``"paso"``, ``"envido"`` (open a bet of ``amount`` stones, 2 by
    default), ``"reenvido"`` (raise by ``amount`` more, "N más"), ``"ordago"``, ``"quiero"``, ``"no_quiero"``.
    amount: stones, for envido and reenvido only. Whether an amount is legal (at least 2) is checked when
    the action is played, so that :meth:`LanceBetting.verify` can name the rule.
    seat: the seat that says it (:class:`Acted`), or None; a :class:`~musteach.rules.errors.SeatError` for
    another value.

    >>> Action.parse("envido 5"), str(Action.parse("3 más")), str(Action.parse("ÓRDAGO"))
    (Action(kind='envido', amount=5), '3 más', 'órdago')
    >>> Action("quiero", seat=3) == Action("quiero")
    True
    """

    kind: ActionKind
    amount: int | None = None
    seat: int | None = field(default=None, compare=False)

    def __init__(self, kind: ActionKind | str, amount: int | None = None, *, seat: int | None = None) -> None:
        try:
            known = ActionKind(kind)
        except (ValueError, TypeError):
            raise IllegalActionError(
                Text("unknown betting action {kind}: use {kinds} (RULES.md §6)", kind=repr(kind), kinds=", ".join(ACTION_KINDS))
            ) from None
        object.__setattr__(self, "kind", known)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "seat", actor(seat))
        if self.kind in ("envido", "reenvido"):
            if self.amount is None:
                object.__setattr__(self, "amount", 2)
            elif not is_whole(self.amount):
                raise IllegalActionError(
                    Text("{kind} needs a whole number of stones, not {value} (RULES.md §6)", kind=self.kind, value=repr(self.amount))
                )
        elif self.amount is not None:
            raise IllegalActionError(Text("{kind} takes no amount of stones (got {value})", kind=self.kind, value=repr(self.amount)))

    @classmethod
    def parse(cls, text: str | Action) -> Action:
        """Read an action: ``paso``, ``envido``, ``envido 5``, ``reenvido 3``, ``3 más``, ``órdago``,
        ``quiero``, ``no quiero`` (also ``pass``, ``bet N``, ``raise N``, ``accept``, ``fold``).

        Raises :class:`IllegalActionError` naming the text when it is none of these.
        """
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise IllegalActionError(
                Text("unknown betting action {text}: expected text such as 'envido 2' or 'quiero'", text=repr(text))
            )
        t = fold_text(text).replace("_", " ").replace("-", " ")
        words = t.split()
        simple = {
            "paso": "paso",
            "pass": "paso",
            "check": "paso",
            "ordago": "ordago",
            "quiero": "quiero",
            "accept": "quiero",
            "call": "quiero",
            "no quiero": "no_quiero",
            "no": "no_quiero",
            "fold": "no_quiero",
            "refuse": "no_quiero",
        }
        if t in simple:
            return cls(simple[t])
        if words and words[0] in ("envido", "bet", "envite", "reenvido", "raise") and len(words) <= 2:
            kind = "reenvido" if words[0] in ("reenvido", "raise") else "envido"
            if len(words) == 1:
                return cls(kind, 2)
            if words[1].lstrip("-").isdigit():
                return cls(kind, int(words[1]))
        if len(words) == 2 and words[1] in ("mas", "more") and words[0].lstrip("-").isdigit():
            return cls("reenvido", int(words[0]))
        raise IllegalActionError(
            Text("unknown betting action {text}: use paso, envido [N], N más, órdago, quiero or no quiero (RULES.md §6)", text=repr(text))
        )

    def __str__(self) -> str:
        if self.kind == "envido":
            return f"envido {self.amount}"
        if self.kind == "reenvido":
            return f"{self.amount} más"
        return {"paso": "paso", "ordago": "órdago", "quiero": "quiero", "no_quiero": "no quiero"}[self.kind]

    def by(self, seat: int) -> Action:
        """This action with ``seat`` as its actor (see :meth:`Acted.by`); the seated actions are shared, since
        the coach's rollouts play many."""
        if self.seat is None:
            hit = _SEATED.get((self.kind, self.amount, seat))
            if hit is not None:
                return hit
        seated = Acted.by(self, seat)
        if self.seat is None and len(_SEATED) < _SEATED_MAX:
            _SEATED[(self.kind, self.amount, seat)] = seated
        return seated

    @property
    def stones(self) -> int:
        """The stones of an envido or reenvido; raises :class:`IllegalActionError` for another kind."""
        if self.amount is None:
            raise IllegalActionError(Text("{action} names no stones: only envido and reenvido do (RULES.md §6)", action=str(self)))
        return self.amount

    @property
    def is_bet(self) -> bool:
        """True for envido, reenvido and órdago: actions that put up a new stake."""
        return self.kind in ("envido", "reenvido", "ordago")


#: Seated actions by (kind, amount, seat), shared by :meth:`Action.by` (at most _SEATED_MAX of them).
_SEATED: dict[tuple[ActionKind, int | None, int], Action] = {}
_SEATED_MAX = 4096


@dataclass(frozen=True, slots=True)
class BettingStep:
    """One action played: the seat, the :class:`Action` (naming the same seat), and a sentence for learners.

    seat and action are None for a note that is nobody's action (e.g. "there is no betting").
    """

    seat: int | None
    action: Action | None
    text: str
