"""Betting (*envites*) in one lance: who may say what, and what it is worth (RULES.md §4, §6, §7, §7a).

A :class:`LanceBetting` is a frozen state. For every action there is ``can_x(seat)`` (True/False),
``verify_x(seat)`` (raises :class:`~musteach.rules.errors.IllegalActionError` naming the broken rule) and
``x(seat)``, which returns the next state. Every step carries a sentence for learners.

>>> b = LanceBetting.start("grande", mano=0)
>>> b = b.envido(0).reenvido(1, 3).reenvido(0, 5).no_quiero(1).no_quiero(3)
>>> b.outcome.to_dict()
{'type': 'rejected', 'stakes': [2, 5, 10], 'winner_team': 'A'}
>>> b.outcome.deje
5
>>> b.texts()[-1]
'Seat 3 says no quiero. Team B refuses: team A takes the deje of 5 stones now.'
>>> b.quiero(1)
Traceback (most recent call last):
...
musteach.rules.errors.IllegalActionError: seat 1 cannot say quiero: the Grande betting is over (team A took the deje of 5) (RULES.md §6)

Pares and Juego are bet only by the holders, and only when both teams hold the jugada (RULES.md §4):

>>> from musteach import evaluate
>>> deal = evaluate([["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"],
...                  ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]], mano=0)
>>> d = declarations(deal)["pares"]
>>> d.texts
('Seat 0: pares sí', 'Seat 1: pares sí', 'Seat 2: pares sí', 'Seat 3: pares sí')
>>> start_betting(deal, "juego").outcome.type  # only team A has juego
'no_bet'
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, TypeGuard

from ..i18n import N_, Text, speaking, translator
from .errors import BettingError, IllegalActionError
from .lances import DealResult, Lance, Seat, check_seat, speaking_order, team_of
from .options import Rules

__all__ = [
    "ACTION_KINDS",
    "ORDAGO",
    "OUTCOME_TYPES",
    "TEAMS",
    "Action",
    "BettingOutcome",
    "BettingStep",
    "Declaration",
    "LanceBetting",
    "chain_text",
    "check_stakes",
    "declarations",
    "deje",
    "lances_played",
    "other_team",
    "participants",
    "play_betting",
    "random_betting",
    "stake_text",
    "start_betting",
    "stones_text",
]

#: The stake that stands for the whole game (RULES.md §6).
ORDAGO: Final = "ordago"
#: The two teams: A = seats 0 and 2, B = seats 1 and 3 (RULES.md §0).
TEAMS: tuple[str, str] = ("A", "B")
#: Betting action kinds. "reenvido" is a raise of N more on a bet already made.
ACTION_KINDS: tuple[str, ...] = ("paso", "envido", "reenvido", "ordago", "quiero", "no_quiero")
#: Outcome types of a lance's betting, as in ``scoring.json`` (RULES.md §7a).
OUTCOME_TYPES: tuple[str, ...] = ("paso", "accepted", "rejected", "ordago_accepted", "no_bet")

#: A bet total: a whole number of stones, or :data:`ORDAGO` (the whole game).
Stake = int | Literal["ordago"]
_BETTABLE_BY_HOLDERS = (Lance.PARES, Lance.JUEGO)


def other_team(team: str) -> str:
    """The opposing team: ``other_team("A") == "B"``. Raises :class:`BettingError` for a name not A/B."""
    if team not in TEAMS:
        raise BettingError(Text("a team is 'A' (seats 0, 2) or 'B' (seats 1, 3), not {team} (RULES.md §0)", team=repr(team)))
    return "B" if team == "A" else "A"


def _fold(text: str) -> str:
    t = unicodedata.normalize("NFKD", str(text).strip().lower())
    return " ".join("".join(ch for ch in t if not unicodedata.combining(ch)).split())


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def stake_text(s: Stake) -> str:
    """A stake as a player says it: ``"5"`` or ``"órdago"`` (RULES.md §6)."""
    return "órdago" if s == ORDAGO else str(s)


def stones_text(n: int, lang: str | None = None) -> str:
    """A number of stones (piedras) in words: ``"1 stone"``, ``"5 stones"`` (RULES.md §7).

    lang: the language (None: the one being spoken, see :func:`musteach.i18n.speaking`).

    >>> stones_text(5, lang="es")
    '5 piedras'
    """
    return translator(lang).ngettext("{n} stone", "{n} stones", n)


def chain_text(stakes: Iterable[Stake]) -> str:
    """A chain of bet totals as players follow it: ``"2 → 5 → órdago"`` (RULES.md §6)."""
    return " → ".join(stake_text(s) for s in stakes)


def _chain(stakes: Stake | Sequence[Stake]) -> tuple[Stake, ...]:
    """One stake, or a chain of them, as a tuple: a text such as ``"ordago"`` is one stake, not its letters."""
    if isinstance(stakes, str | int):
        return (stakes,)
    return tuple(stakes)


_ORDAGO_RAISED = N_("{where}: an órdago can only be accepted or refused, not raised (RULES.md §6)")


def check_stakes(stakes: Iterable[object], where: str = "stakes") -> tuple[Stake, ...]:
    """Validate a chain of successive bet totals and return it as a tuple (RULES.md §6, §7a).

    stakes: bet totals in order, e.g. ``[2, 5, 10]``; ``"ordago"`` (or ``"órdago"``) may stand last.
    Each total is a whole number of stones: the first at least 2, each raise at least 2 more.
    Raises :class:`BettingError` naming the bad entry.

    >>> check_stakes([2, 4, "órdago"])
    (2, 4, 'ordago')
    >>> check_stakes([2, 3])
    Traceback (most recent call last):
    ...
    musteach.rules.errors.BettingError: stakes: 2 -> 3 raises by 1, but a raise is at least 2 more (RULES.md §6)
    """
    if isinstance(stakes, str | bytes | Mapping) or not isinstance(stakes, Iterable):
        raise BettingError(
            Text("{where} must be a list of bet totals such as [2, 5, 10], not {value} (RULES.md §7a)", where=where, value=repr(stakes))
        )
    out: list[Stake] = []
    for i, s in enumerate(stakes):
        if isinstance(s, str) and _fold(s) == ORDAGO:
            if out and out[-1] == ORDAGO:
                raise BettingError(Text(_ORDAGO_RAISED, where=where))
            out.append(ORDAGO)
            continue
        if not _is_int(s):
            raise BettingError(
                Text("{where}[{i}] must be a whole number of stones or 'ordago', not {value} (RULES.md §7a)", where=where, i=i, value=repr(s))
            )
        prev = out[-1] if out else None
        if prev == ORDAGO:
            raise BettingError(Text(_ORDAGO_RAISED, where=where))
        if prev is None and s < 2:
            raise BettingError(Text("{where}: the first bet is at least 2 stones (envido), not {value} (RULES.md §6)", where=where, value=s))
        if isinstance(prev, int) and s - prev < 2:
            raise BettingError(
                Text(
                    "{where}: {before} -> {after} raises by {more}, but a raise is at least 2 more (RULES.md §6)",
                    where=where,
                    before=prev,
                    after=s,
                    more=s - prev,
                )
            )
        out.append(s)
    if not out:
        raise BettingError(Text("{where} is empty: a refused or accepted bet needs at least one bet (RULES.md §7a)", where=where))
    return tuple(out)


def deje(stakes: Iterable[object]) -> int:
    """Stones paid at once to the team whose last bet was refused (the *deje*, RULES.md §6).

    stakes: the successive bet totals of the lance, the last one refused.
    Returns 1 when only one bet was made (this includes a first-bet órdago), otherwise the previous
    total ``stakes[-2]``: what the refusing team had itself bet or covered. It never exceeds a stake.

    >>> deje([2]), deje([2, 5, 10]), deje([2, 4, 7, 12]), deje([2, "ordago"]), deje(["ordago"])
    (1, 5, 7, 2, 1)
    """
    chain = check_stakes(stakes)
    return 1 if len(chain) == 1 else int(chain[-2])


# ----------------------------------------------------------------------------------------------
# Actions
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a player says in the betting (RULES.md §6).

    kind: one of :data:`ACTION_KINDS`: ``"paso"``, ``"envido"`` (open a bet of ``amount`` stones, 2 by
    default), ``"reenvido"`` (raise by ``amount`` more, "N más"), ``"ordago"``, ``"quiero"``, ``"no_quiero"``.
    amount: stones, for envido and reenvido only. Whether an amount is legal (at least 2) is checked when
    the action is played, so that :meth:`LanceBetting.verify` can name the rule.

    >>> Action.parse("envido 5"), str(Action.parse("3 más")), str(Action.parse("ÓRDAGO"))
    (Action(kind='envido', amount=5), '3 más', 'órdago')
    """

    kind: str
    amount: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise IllegalActionError(
                Text("unknown betting action {kind}: use {kinds} (RULES.md §6)", kind=repr(self.kind), kinds=", ".join(ACTION_KINDS))
            )
        if self.kind in ("envido", "reenvido"):
            if self.amount is None:
                object.__setattr__(self, "amount", 2)
            elif not _is_int(self.amount):
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
        t = _fold(text).replace("_", " ").replace("-", " ")
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


@dataclass(frozen=True, slots=True)
class BettingStep:
    """One action played: the seat, the :class:`Action`, and a sentence for learners.

    seat and action are None for a note that is nobody's action (e.g. "there is no betting").
    """

    seat: int | None
    action: Action | None
    text: str


# ----------------------------------------------------------------------------------------------
# Outcome of a lance's betting (the scoring.json "betting" schema, RULES.md §7a)
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BettingOutcome:
    """How a lance's betting ended (RULES.md §6, §7a).

    type: one of :data:`OUTCOME_TYPES`:
      ``"paso"`` everybody passed (the lance is *en paso*); ``"accepted"`` the last bet was seen (quiero)
      for :attr:`stake` stones; ``"rejected"`` the last bet, made by ``winner_team``, was refused and that
      team takes the :attr:`deje` at once; ``"ordago_accepted"`` showdown now, the best hand of the lance
      wins the game; ``"no_bet"`` pares or juego held by at most one team (no betting round).
    stakes: the successive bet totals (``"ordago"`` may stand last); empty for paso / no_bet.
    winner_team: for ``"rejected"``, the team whose bet was refused and who takes the deje.

    >>> o = BettingOutcome.from_dict({"type": "rejected", "stakes": [2, "ordago"], "winner_team": "B"})
    >>> o.deje, o.describe()
    (2, "team B's bet (2 → órdago) was refused: team B takes the deje of 2 stones")
    >>> BettingOutcome.from_dict({"type": "accepted", "stake": 1})
    Traceback (most recent call last):
    ...
    musteach.rules.errors.BettingError: betting: stake must be a whole number of stones ≥ 2 (envido is 2), not 1 (RULES.md §6, §7a)
    """

    type: str
    stakes: tuple[Stake, ...] = ()
    winner_team: str | None = None

    def __post_init__(self) -> None:
        t = self.type
        if t not in OUTCOME_TYPES:
            raise BettingError(
                Text("unknown betting type {type}: use {types} (RULES.md §7a)", type=repr(t), types=", ".join(OUTCOME_TYPES))
            )
        stakes = tuple(self.stakes)
        if t in ("paso", "no_bet"):
            if stakes or self.winner_team is not None:
                raise BettingError(Text("a {type} betting has no stakes and no winner team (RULES.md §7a)", type=repr(t)))
        elif t == "ordago_accepted":
            stakes = check_stakes(stakes) if stakes else (ORDAGO,)
            if stakes[-1] != ORDAGO:
                raise BettingError(Text("an 'ordago_accepted' betting must end with the órdago (RULES.md §7a)"))
            if self.winner_team is not None:
                raise BettingError(Text("an accepted órdago has no winner team before the hands are shown (RULES.md §6)"))
        else:
            stakes = check_stakes(stakes)
            if t == "accepted":
                if stakes[-1] == ORDAGO:
                    raise BettingError(Text("an accepted órdago is the type 'ordago_accepted', not 'accepted' (RULES.md §7a)"))
                if self.winner_team is not None:
                    raise BettingError(Text("an accepted bet has no winner team: the best hand takes it in the count"))
            else:
                other_team(self.winner_team)  # type: ignore[arg-type]  # validates A / B
        object.__setattr__(self, "stakes", stakes)

    # --- constructors -------------------------------------------------------------------------
    @classmethod
    def paso(cls) -> BettingOutcome:
        """Everybody passed."""
        return cls("paso")

    @classmethod
    def no_bet(cls) -> BettingOutcome:
        """No betting round: pares or juego held by at most one team."""
        return cls("no_bet")

    @classmethod
    def accepted(cls, stake: Stake | Sequence[Stake]) -> BettingOutcome:
        """A bet of ``stake`` stones accepted (or a whole chain of totals whose last one was accepted)."""
        return cls("accepted", _chain(stake))

    @classmethod
    def rejected(cls, stakes: Stake | Sequence[Stake], winner_team: str) -> BettingOutcome:
        """The last of ``stakes`` (one stake, or the chain of totals), bet by ``winner_team``, was refused.

        >>> BettingOutcome.rejected("ordago", "A").deje  # a first-bet órdago refused
        1
        """
        return cls("rejected", _chain(stakes), winner_team)

    @classmethod
    def ordago_accepted(cls, stakes: Stake | Sequence[Stake] = ORDAGO) -> BettingOutcome:
        """An órdago was accepted: the best hand of the lance wins the game."""
        return cls("ordago_accepted", _chain(stakes))

    # --- schema -----------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | BettingOutcome, where: str = "betting") -> BettingOutcome:
        """Read the ``scoring.json`` form (RULES.md §7a); raises :class:`BettingError` naming the bad field."""
        if isinstance(data, BettingOutcome):
            return data
        if not isinstance(data, Mapping):
            raise BettingError(
                Text("{where} must be an object such as {{'type': 'paso'}}, not {value} (RULES.md §7a)", where=where, value=repr(data))
            )
        t = data.get("type")
        if t not in OUTCOME_TYPES:
            raise BettingError(
                Text(
                    "{where}.type must be one of {types}, not {value} (RULES.md §7a)",
                    where=where,
                    types=", ".join(OUTCOME_TYPES),
                    value=repr(t),
                )
            )
        allowed = {"type"} | {"accepted": {"stake", "stakes"}, "rejected": {"stakes", "winner_team"}}.get(t, set())
        extra = sorted(set(data) - allowed)
        if extra:
            raise BettingError(
                Text(
                    "{where}: unexpected field(s) {fields} for type {type} (RULES.md §7a)",
                    where=where,
                    fields=", ".join(extra),
                    type=repr(t),
                )
            )
        try:
            if t == "accepted":
                if "stake" not in data and "stakes" not in data:
                    raise BettingError(Text("an accepted bet needs its stake (RULES.md §7a)"))
                stake = data.get("stake")
                stakes = list(data["stakes"]) if "stakes" in data else [stake]
                if stake is not None and stakes[-1] != stake:
                    raise BettingError(Text("stake {stake} is not the last of stakes {stakes}", stake=repr(stake), stakes=repr(stakes)))
                last = stakes[-1]
                if not _is_int(last) or last < 2:
                    raise BettingError(
                        Text("stake must be a whole number of stones ≥ 2 (envido is 2), not {value} (RULES.md §6, §7a)", value=repr(last))
                    )
                return cls("accepted", check_stakes(stakes, "stakes"))
            if t == "rejected":
                if "stakes" not in data or "winner_team" not in data:
                    raise BettingError(Text("a rejected bet needs 'stakes' and 'winner_team' (RULES.md §7a)"))
                return cls("rejected", tuple(check_stakes(data["stakes"], "stakes")), data["winner_team"])
            return cls(t)
        except BettingError as e:
            if str(e).startswith(where):
                raise
            raise BettingError(Text("{where}: {problem}", where=where, problem=e.text or str(e))) from None

    def to_dict(self) -> dict[str, Any]:
        """The ``scoring.json`` form: ``{"type": "accepted", "stake": 5}`` etc. (RULES.md §7a)."""
        if self.type == "accepted":
            return {"type": "accepted", "stake": self.stake}
        if self.type == "rejected":
            return {"type": "rejected", "stakes": list(self.stakes), "winner_team": self.winner_team}
        return {"type": self.type}

    # --- derived ----------------------------------------------------------------------------
    @property
    def stake(self) -> int | None:
        """The accepted stake in stones (``"accepted"`` only), else None."""
        return int(self.stakes[-1]) if self.type == "accepted" else None

    @property
    def deje(self) -> int:
        """Stones the ``winner_team`` takes at once for a refused bet (``"rejected"`` only), else 0."""
        return deje(self.stakes) if self.type == "rejected" else 0

    @property
    def bettors(self) -> str | None:
        """Alias of ``winner_team``: the team whose refused bet pays the deje."""
        return self.winner_team

    def describe(self, lang: str | None = None) -> str:
        """A short phrase: ``"everybody passed (en paso)"``, ``"bet of 5 accepted"``...

        lang: the language (None: the one being spoken, see :func:`musteach.i18n.speaking`).
        """
        _ = translator(lang)
        if self.type == "paso":
            return _("everybody passed (en paso)")
        if self.type == "no_bet":
            return _("no betting (at most one team holds the jugada)")
        if self.type == "accepted":
            return _("bet of {stake} accepted", stake=self.stake)
        if self.type == "ordago_accepted":
            return _("órdago accepted")
        return _(
            "team {team}'s bet ({chain}) was refused: team {team} takes the deje of {stones}",
            team=self.winner_team,
            chain=chain_text(self.stakes),
            stones=stones_text(self.deje, _.lang),
        )


# ----------------------------------------------------------------------------------------------
# Declarations and who takes part (RULES.md §4)
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Declaration:
    """Everybody's truthful "pares sí / no" or "juego sí / no" before that lance (RULES.md §4).

    lance: ``Lance.PARES`` or ``Lance.JUEGO``. mano: the seat that declares first.
    holds: 4 booleans indexed by seat. holder_teams: the teams with at least one holder.
    participants: the holders in speaking order if both teams hold (they bet), else ().
    texts: each seat's declaration in speaking order; summary: what follows from them.
    """

    lance: Lance
    mano: int
    holds: tuple[bool, bool, bool, bool]
    texts: tuple[str, ...]
    summary: str

    @property
    def holders(self) -> tuple[int, ...]:
        """Seats holding the jugada, in speaking order."""
        return tuple(s for s in speaking_order(self.mano) if self.holds[s])

    @property
    def holder_teams(self) -> tuple[str, ...]:
        """Teams with at least one holder, A before B."""
        return tuple(t for t in TEAMS if any(self.holds[s] for s in range(4) if team_of(s) == t))

    @property
    def bettable(self) -> bool:
        """True when both teams hold the jugada, so the holders bet (RULES.md §4)."""
        return len(self.holder_teams) == 2

    @property
    def participants(self) -> tuple[int, ...]:
        """Seats that speak in the betting: the holders if both teams hold, else nobody."""
        return self.holders if self.bettable else ()


def _deal(deal: DealResult | Sequence[Any], mano: int | None, rules: Rules | None) -> DealResult:
    if isinstance(deal, DealResult):
        return deal
    from .lances import evaluate

    if mano is None:
        raise BettingError(Text("give the mano seat along with the hands (RULES.md §0)"))
    return evaluate(deal, mano, rules)


def declarations(
    deal: DealResult | Sequence[Any], mano: int | None = None, rules: Rules | None = None, *, lang: str | None = None
) -> dict[str, Declaration]:
    """Every seat's "pares sí/no" and "juego sí/no", and who bets in those lances (RULES.md §4).

    deal: a :class:`~musteach.rules.lances.DealResult`, or 4 hands indexed by seat (then give ``mano``, ``rules``).
    lang: the language of the texts and summaries (None: the one being spoken).
    Returns ``{"pares": Declaration, "juego": Declaration}``.
    """
    d = _deal(deal, mano, rules)
    _ = translator(lang)
    out: dict[str, Declaration] = {}
    for lance in _BETTABLE_BY_HOLDERS:
        if lance is Lance.PARES:
            holds = tuple(i.pares is not None for i in d.infos)
        else:
            holds = tuple(i.is_juego for i in d.infos)
        word = lance.value
        order = speaking_order(d.mano)
        texts = tuple(
            _("Seat {seat}: {lance} sí", seat=s, lance=word) if holds[s] else _("Seat {seat}: {lance} no", seat=s, lance=word)
            for s in order
        )
        holders = [s for s in order if holds[s]]
        teams = sorted({team_of(s) for s in holders})
        silent = [s for s in order if not holds[s]]
        if len(teams) == 2:
            who = _.join(str(s) for s in holders)
            if not silent:
                summary = _("Both teams hold {lance}: seats {seats} bet (RULES.md §4).", lance=word, seats=who)
            elif len(silent) == 1:
                summary = _(
                    "Both teams hold {lance}: seats {seats} bet; seat {silent} stays silent (RULES.md §4).",
                    lance=word,
                    seats=who,
                    silent=silent[0],
                )
            else:
                summary = _(
                    "Both teams hold {lance}: seats {seats} bet; seats {silent} stay silent (RULES.md §4).",
                    lance=word,
                    seats=who,
                    silent=_.join(str(s) for s in silent),
                )
        elif teams:
            summary = _(
                "Only team {team} holds {lance}: no betting; team {team} takes the lance in the count (RULES.md §4).",
                team=teams[0],
                lance=word,
            )
        elif lance is Lance.PARES:
            summary = _("Nobody holds pares: the lance scores nothing (RULES.md §4).")
        else:
            summary = _("Nobody has juego: Punto is played instead, with all four players (RULES.md §4).")
        out[word] = Declaration(lance, d.mano, (holds[0], holds[1], holds[2], holds[3]), texts, summary)
    return out


def lances_played(deal: DealResult) -> tuple[Lance, Lance, Lance, Lance]:
    """The four lances of a deal in order: Grande, Chica, Pares, then Juego, or Punto when nobody has juego."""
    last = Lance.JUEGO if any(i.is_juego for i in deal.infos) else Lance.PUNTO
    return (Lance.GRANDE, Lance.CHICA, Lance.PARES, last)


def participants(deal: DealResult, lance: Lance | str) -> tuple[int, ...]:
    """Seats that speak in a lance's betting, in speaking order (RULES.md §4).

    Grande and Chica: all four. Pares and Juego: the holders, when both teams hold it, else ().
    Punto: all four when nobody has juego, else () (it is not played).
    """
    lance = Lance.parse(lance)
    order = speaking_order(deal.mano)
    if lance in (Lance.GRANDE, Lance.CHICA):
        return order
    if lance is Lance.PUNTO:
        return () if any(i.is_juego for i in deal.infos) else order
    return declarations(deal)[lance.value].participants


# ----------------------------------------------------------------------------------------------
# The betting state machine
# ----------------------------------------------------------------------------------------------



@dataclass(frozen=True, slots=True)
class LanceBetting:
    """The betting of one lance, as a frozen state (RULES.md §6). Build it with :meth:`start`.

    lance, mano, rules: the lance, the seat that speaks first, the table's :class:`~musteach.rules.Rules`.
    participants: the seats that speak, in speaking order (all four, or the holders in pares/juego).
    stakes: the successive bet totals so far (``"ordago"`` may stand last).
    bettor: the seat that made the last bet, or None. declined: seats that refused the current bet.
    passed: how many participants have passed before any bet (the opening round).
    outcome: the :class:`BettingOutcome` once the betting is over, else None.
    steps: the :class:`BettingStep` list so far.

    Speaking order: before any bet, participants speak in turn from mano; each passes or bets. A bet is
    answered by the other team's participants (either partner may answer for the team): quiero (one is
    enough), no quiero / paso (the bet is refused only when every opponent taking part has declined),
    a raise of N ≥ 2 more, or órdago. A raise is answered in the same way by the first team.
    """

    lance: Lance
    mano: int
    participants: tuple[int, ...]
    rules: Rules = field(default_factory=Rules)
    stakes: tuple[Stake, ...] = ()
    bettor: int | None = None
    declined: frozenset[int] = frozenset()
    passed: int = 0
    outcome: BettingOutcome | None = None
    steps: tuple[BettingStep, ...] = ()

    # --- construction ---------------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        lance: Lance | str,
        mano: int,
        participants: Iterable[int] | None = None,
        rules: Rules | None = None,
    ) -> LanceBetting:
        """A fresh betting round.

        lance: the lance (name or :class:`Lance`). mano: seat 0..3.
        participants: the seats taking part (default: all four); they are put in speaking order.
        For Pares and Juego give the holders (see :func:`declarations`); if they are not on both teams
        the round is closed at once with outcome ``no_bet``. Grande and Chica always take all four.
        Raises :class:`~musteach.rules.errors.SeatError` for a bad seat, :class:`BettingError` otherwise.
        """
        lance = Lance.parse(lance)
        check_seat(mano, "mano")
        rules = rules or Rules()
        order = speaking_order(mano)
        if participants is None:
            seats: tuple[int, ...] = order
        else:
            given = list(participants)
            for s in given:
                check_seat(s)
            if len(set(given)) != len(given):
                raise BettingError(Text("participants {seats} name a seat twice", seats=repr(given)))
            seats = tuple(s for s in order if s in given)
        if lance in (Lance.GRANDE, Lance.PUNTO, Lance.CHICA) and seats != order and (lance is not Lance.PUNTO or seats):
            raise BettingError(
                Text(
                    "all four players take part in {lance}, not only seats {seats} (RULES.md §4)",
                    lance=lance.title,
                    seats=str(list(seats)),
                )
            )
        state = cls(lance, mano, seats, rules)
        teams = sorted({team_of(s) for s in seats})
        if len(teams) < 2:
            _ = translator()
            if teams:
                text = _("Only team {team} holds {lance}: there is no betting (RULES.md §4).", team=teams[0], lance=lance.value)
            else:
                text = _("Nobody takes part in {lance}: there is no betting (RULES.md §4).", lance=lance.title)
            return replace(state, outcome=BettingOutcome.no_bet(), steps=(BettingStep(None, None, text),))
        return state

    # --- where we are -----------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        """True once the betting is over (:attr:`outcome` is set)."""
        return self.outcome is not None

    @property
    def facing_bet(self) -> bool:
        """True while a bet waits for an answer."""
        return bool(self.stakes) and not self.closed

    @property
    def current_stake(self) -> Stake | None:
        """The bet on the table (stones or ``"ordago"``), or None."""
        return self.stakes[-1] if self.stakes else None

    @property
    def betting_team(self) -> str | None:
        """The team that made the last bet, or None."""
        return None if self.bettor is None else team_of(self.bettor)

    @property
    def answering_team(self) -> str | None:
        """The team that must answer the bet on the table, or None."""
        return None if self.bettor is None or self.closed else other_team(team_of(self.bettor))

    def _answerers(self) -> tuple[int, ...]:
        assert self.bettor is not None
        b = self.bettor
        after = [(b + k) % 4 for k in range(1, 4)]
        return tuple(s for s in after if s in self.participants and team_of(s) != team_of(b) and s not in self.declined)

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may speak now; the first is the one whose turn it naturally is. () once closed.

        Before a bet: the next participant in speaking order. Facing a bet: the answering team's
        participants who have not refused it, nearest after the bettor first (either may answer).
        """
        if self.closed:
            return ()
        if not self.stakes:
            return (self.participants[self.passed],)
        return self._answerers()

    @property
    def next_seat(self) -> int | None:
        """The seat whose turn it naturally is, or None once closed."""
        t = self.to_act
        return t[0] if t else None

    def texts(self) -> list[str]:
        """Every step's sentence, in order."""
        return [s.text for s in self.steps]

    # --- checking ---------------------------------------------------------------------------
    def verify(self, seat: int, action: Action | str) -> Action:
        """Check that ``seat`` may say ``action`` now; return the parsed :class:`Action`.

        Raises :class:`~musteach.rules.errors.IllegalActionError` naming the seat, the action and the rule
        (RULES.md §2, §4, §6), or :class:`~musteach.rules.errors.SeatError` for a seat outside 0..3. Its
        ``message(lang)`` is the learner's feedback in their language.
        """
        a = Action.parse(action)
        check_seat(seat)
        said = {"seat": seat, "action": str(a)}
        if self.closed:
            raise IllegalActionError(self._closed_text(seat, a))
        if seat not in self.participants:
            if self.lance in _BETTABLE_BY_HOLDERS:
                raise IllegalActionError(
                    Text(
                        "seat {seat} cannot say {action}: seat {seat} said '{lance} no', and only the holders speak in "
                        "{title} (RULES.md §4)",
                        lance=self.lance.said,
                        title=self.lance.title,
                        **said,
                    )
                )
            raise IllegalActionError(
                Text("seat {seat} cannot say {action}: seat {seat} takes no part in {lance} (RULES.md §4)", lance=self.lance.title, **said)
            )
        if not self.stakes:
            if a.kind == "quiero":
                raise IllegalActionError(Text("seat {seat} cannot say {action}: there is no bet to accept (RULES.md §6)", **said))
            if a.kind == "no_quiero":
                raise IllegalActionError(
                    Text("seat {seat} cannot say {action}: there is no bet to refuse; say paso (RULES.md §6)", **said)
                )
            if a.kind == "reenvido":
                raise IllegalActionError(
                    Text("seat {seat} cannot say {action}: there is no bet to raise yet; open with envido (RULES.md §6)", **said)
                )
            turn = self.participants[self.passed]
            if seat != turn and not (a.is_bet and self.rules.allow_out_of_turn_first_bet):
                raise IllegalActionError(
                    Text(
                        "seat {seat} cannot say {action}: it is seat {turn}'s turn (speaking order from mano, seat {mano}; "
                        "RULES.md §2, §6)",
                        turn=turn,
                        mano=self.mano,
                        **said,
                    )
                )
            if a.kind == "envido" and a.stones < 2:
                raise IllegalActionError(Text("seat {seat} cannot say {action}: a bet is at least 2 stones (RULES.md §6)", **said))
            return a
        # facing a bet
        bt = self.betting_team
        assert bt is not None
        if team_of(seat) == bt:
            raise IllegalActionError(
                Text(
                    "seat {seat} cannot say {action}: the bet on the table is team {team}'s own; team {other} must answer "
                    "it (RULES.md §6)",
                    team=bt,
                    other=other_team(bt),
                    **said,
                )
            )
        if seat in self.declined:
            others = self._answerers()
            if others:
                raise IllegalActionError(
                    Text(
                        "seat {seat} cannot say {action}: seat {seat} has already refused this bet; seat {partner} may "
                        "still answer for team {team} (RULES.md §6)",
                        partner=others[0],
                        team=team_of(seat),
                        **said,
                    )
                )
            raise IllegalActionError(
                Text("seat {seat} cannot say {action}: seat {seat} has already refused this bet (RULES.md §6)", **said)
            )
        stake = self.current_stake
        assert stake is not None  # facing a bet
        if a.kind == "envido":
            raise IllegalActionError(
                Text(
                    "seat {seat} cannot say {action}: there is already a bet of {stake} (RULES.md §6); answer quiero, "
                    "no quiero, a raise (N más) or órdago",
                    stake=stake_text(stake),
                    **said,
                )
            )
        if a.kind in ("reenvido", "ordago") and stake == ORDAGO:
            raise IllegalActionError(
                Text("seat {seat} cannot say {action}: an órdago can only be accepted (quiero) or refused (RULES.md §6)", **said)
            )
        if a.kind == "reenvido" and a.stones < 2:
            raise IllegalActionError(
                Text(
                    "seat {seat} cannot say {action}: a raise is at least 2 more, not {more} (RULES.md §6)",
                    more=a.amount,
                    **said,
                )
            )
        return a

    def can(self, seat: int, action: Action | str) -> bool:
        """True if :meth:`verify` would accept the action."""
        try:
            self.verify(seat, action)
        except IllegalActionError:
            return False
        return True

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions ``seat`` (default: :attr:`next_seat`) may take now; bets shown with their minimum amount."""
        seat = self.next_seat if seat is None else seat
        if seat is None:
            return []
        kinds = [Action("paso"), Action("envido", 2), Action("reenvido", 2), Action("ordago"), Action("quiero"), Action("no_quiero")]
        return [a for a in kinds if self.can(seat, a)]

    # --- acting -----------------------------------------------------------------------------
    def act(self, seat: int, action: Action | str) -> LanceBetting:
        """Play one action and return the new state (RULES.md §6).

        seat: 0..3; action: an :class:`Action` or its text (``"envido 5"``, ``"3 más"``, ``"órdago"``, ``"quiero"``).
        Raises :class:`IllegalActionError` naming the seat, the action and the rule when it is not legal.
        """
        a = self.verify(seat, action)
        return self._apply(seat, a)

    def play(self, actions: Iterable[tuple[int, Action | str]]) -> LanceBetting:
        """Play ``(seat, action)`` pairs in order; raises at the first illegal one (naming its position)."""
        state = self
        for i, pair in enumerate(actions, 1):
            try:
                seat, action = pair
            except (TypeError, ValueError):
                raise IllegalActionError(
                    Text("action {i}: expected a (seat, action) pair, not {value}", i=i, value=repr(pair))
                ) from None
            try:
                state = state.act(seat, action)
            except IllegalActionError as e:
                raise IllegalActionError(Text("action {i}: {problem}", i=i, problem=e.text or str(e))) from None
        return state

    def _closed_text(self, seat: int, a: Action) -> Text:
        """Why nobody may speak once the betting is over, naming how it ended."""
        o = self.outcome
        assert o is not None
        said: dict[str, object] = {"seat": seat, "action": str(a), "lance": self.lance.title}
        if o.type == "rejected":
            return Text(
                "seat {seat} cannot say {action}: the {lance} betting is over (team {team} took the deje of {deje}) "
                "(RULES.md §6)",
                team=o.winner_team,
                deje=o.deje,
                **said,
            )
        if o.type == "accepted":
            return Text(
                "seat {seat} cannot say {action}: the {lance} betting is over (the bet of {stake} was accepted) "
                "(RULES.md §6)",
                stake=o.stake,
                **said,
            )
        if o.type == "ordago_accepted":
            return Text(
                "seat {seat} cannot say {action}: the {lance} betting is over (the órdago was accepted) (RULES.md §6)",
                **said,
            )
        if o.type == "paso":
            return Text(
                "seat {seat} cannot say {action}: the {lance} betting is over (everybody passed) (RULES.md §6)", **said
            )
        return Text(
            "seat {seat} cannot say {action}: the {lance} betting is over (there is no betting) (RULES.md §6)", **said
        )

    def _accepted_text(self, seat: int, a: Action, team: str, stake: int) -> str:
        """The sentence of a quiero to a bet of ``stake`` stones: what the best hand takes in the count."""
        _ = translator()
        said = {"seat": Seat(seat, self.mano), "action": str(a), "team": team, "stake": stake, "lance": self.lance.said}
        stones = stones_text(stake, _.lang)
        if self.lance is Lance.PARES:
            return _(
                "Seat {seat} says {action}: team {team} accepts the bet of {stake}; the best {lance} takes {stones} "
                "plus its team's pares in the count.",
                stones=stones,
                **said,
            )
        if self.lance is Lance.JUEGO:
            return _(
                "Seat {seat} says {action}: team {team} accepts the bet of {stake}; the best {lance} takes {stones} "
                "plus its team's juego in the count.",
                stones=stones,
                **said,
            )
        if self.lance is Lance.PUNTO and self.rules.punto_bonus_when_accepted:
            return _(
                "Seat {seat} says {action}: team {team} accepts the bet of {stake}; the best {lance} takes {stones} "
                "plus 1 for punto in the count.",
                stones=stones,
                **said,
            )
        return _(
            "Seat {seat} says {action}: team {team} accepts the bet of {stake}; the best {lance} takes {stones} in "
            "the count.",
            stones=stones,
            **said,
        )

    def _refused_text(self, team: str, bettors: str, deje: int) -> str:
        """The sentence of a refused bet: ``bettors`` take the deje (now, or at the end), and their jugada."""
        _ = translator()
        now = self.rules.deje_timing == "immediate"
        stones = stones_text(deje, _.lang)
        said = {"team": team, "bettors": bettors, "stones": stones, "lance": self.lance.said}
        if self.lance in _BETTABLE_BY_HOLDERS:
            if now:
                return _(
                    "Team {team} refuses: team {bettors} takes the deje of {stones} now, and its own {lance} in the count.",
                    **said,
                )
            return _(
                "Team {team} refuses: team {bettors} takes the deje of {stones} (scored at the end of the hand), and "
                "its own {lance} in the count.",
                **said,
            )
        if self.lance is Lance.PUNTO and self.rules.punto_bonus_on_refusal:
            if now:
                return _(
                    "Team {team} refuses: team {bettors} takes the deje of {stones} now, and 1 for punto in the count.",
                    **said,
                )
            return _(
                "Team {team} refuses: team {bettors} takes the deje of {stones} (scored at the end of the hand), and "
                "1 for punto in the count.",
                **said,
            )
        if now:
            return _("Team {team} refuses: team {bettors} takes the deje of {stones} now.", **said)
        return _("Team {team} refuses: team {bettors} takes the deje of {stones} (scored at the end of the hand).", **said)

    def _apply(self, seat: int, a: Action) -> LanceBetting:
        _ = translator()
        said = {"seat": Seat(seat, self.mano), "action": str(a)}
        if not self.stakes:
            if a.kind == "paso":
                passed = self.passed + 1
                if passed == len(self.participants):
                    text = _(
                        "Seat {seat} says {action}: everybody passed, so {lance} is en paso (its best hand takes it in "
                        "the count).",
                        lance=self.lance.title,
                        **said,
                    )
                    return self._step(seat, a, text, passed=passed, outcome=BettingOutcome.paso())
                return self._step(seat, a, _("Seat {seat} says {action}.", **said), passed=passed)
            return self._bet(seat, a, ())
        # facing a bet
        bt = self.betting_team
        assert bt is not None
        at = other_team(bt)
        stake = self.current_stake
        if a.kind == "quiero":
            if not isinstance(stake, int):  # the órdago
                text = _(
                    "Seat {seat} says {action}: team {team} accepts the órdago. The hands are shown at once and the "
                    "best {lance} wins the game (RULES.md §6).",
                    team=at,
                    lance=self.lance.said,
                    **said,
                )
                return self._step(seat, a, text, outcome=BettingOutcome.ordago_accepted(self.stakes))
            text = self._accepted_text(seat, a, at, stake)
            return self._step(seat, a, text, outcome=BettingOutcome.accepted(self.stakes))
        if a.kind in ("no_quiero", "paso"):
            declined = self.declined | {seat}
            later = replace(self, declined=declined)
            rest = later._answerers()
            if rest:
                if a.kind == "paso":
                    text = _(
                        "Seat {seat} says {action} (no quiero); seat {partner} may still answer for team {team}.",
                        partner=Seat(rest[0], self.mano),
                        team=at,
                        **said,
                    )
                else:
                    text = _(
                        "Seat {seat} says {action}; seat {partner} may still answer for team {team}.",
                        partner=Seat(rest[0], self.mano),
                        team=at,
                        **said,
                    )
                return self._step(seat, a, text, declined=declined)
            o = BettingOutcome.rejected(self.stakes, bt)
            first = _("Seat {seat} says {action} (no quiero).", **said) if a.kind == "paso" else _("Seat {seat} says {action}.", **said)
            text = f"{first} {self._refused_text(at, bt, o.deje)}"
            return self._step(seat, a, text, declined=declined, outcome=o)
        return self._bet(seat, a, self.stakes)

    def _bet(self, seat: int, a: Action, before: tuple[Stake, ...]) -> LanceBetting:
        _ = translator()
        answer = other_team(team_of(seat))
        said = {"seat": Seat(seat, self.mano), "action": str(a), "team": answer}
        if a.kind == "ordago":
            new: Stake = ORDAGO
            text = _("Seat {seat} says {action}: the whole game is at stake; team {team} must answer.", **said)
        elif a.kind == "envido":
            new = a.stones
            text = _("Seat {seat} says {action}: the bet is {stake}; team {team} must answer.", stake=new, **said)
        else:
            new = int(before[-1]) + a.stones
            text = _("Seat {seat} raises: {action} (reenvido): the bet is now {stake}; team {team} must answer.", stake=new, **said)
        return self._step(seat, a, text, stakes=(*before, new), bettor=seat, declined=frozenset())

    def _step(self, seat: int, a: Action, text: str, **changes: Any) -> LanceBetting:
        return replace(self, steps=(*self.steps, BettingStep(seat, a, text)), **changes)

    # --- one method trio per action (pokerkit style) ----------------------------------------
    def can_paso(self, seat: int) -> bool:
        """True if ``seat`` may pass now (before a bet: in turn; facing one, paso = no quiero)."""
        return self.can(seat, Action("paso"))

    def verify_paso(self, seat: int) -> None:
        """Raise :class:`IllegalActionError` unless ``seat`` may pass now."""
        self.verify(seat, Action("paso"))

    def paso(self, seat: int) -> LanceBetting:
        """``seat`` passes (before a bet), or refuses the bet on the table (RULES.md §6)."""
        return self.act(seat, Action("paso"))

    def can_envido(self, seat: int, amount: int = 2) -> bool:
        """True if ``seat`` may open a bet of ``amount`` stones now."""
        return self.can(seat, Action("envido", amount))

    def verify_envido(self, seat: int, amount: int = 2) -> None:
        """Raise :class:`IllegalActionError` unless ``seat`` may open a bet of ``amount`` stones now."""
        self.verify(seat, Action("envido", amount))

    def envido(self, seat: int, amount: int = 2) -> LanceBetting:
        """``seat`` opens the betting: envido (2) or envido N, N ≥ 2 (RULES.md §6)."""
        return self.act(seat, Action("envido", amount))

    def can_reenvido(self, seat: int, more: int = 2) -> bool:
        """True if ``seat`` may raise the bet on the table by ``more`` stones now."""
        return self.can(seat, Action("reenvido", more))

    def verify_reenvido(self, seat: int, more: int = 2) -> None:
        """Raise :class:`IllegalActionError` unless ``seat`` may raise by ``more`` now."""
        self.verify(seat, Action("reenvido", more))

    def reenvido(self, seat: int, more: int = 2) -> LanceBetting:
        """``seat`` raises the bet on the table by ``more`` ≥ 2 stones ("N más", RULES.md §6)."""
        return self.act(seat, Action("reenvido", more))

    def can_ordago(self, seat: int) -> bool:
        """True if ``seat`` may say órdago now."""
        return self.can(seat, Action("ordago"))

    def verify_ordago(self, seat: int) -> None:
        """Raise :class:`IllegalActionError` unless ``seat`` may say órdago now."""
        self.verify(seat, Action("ordago"))

    def ordago(self, seat: int) -> LanceBetting:
        """``seat`` bets the whole game, as a first bet or a raise (RULES.md §6)."""
        return self.act(seat, Action("ordago"))

    def can_quiero(self, seat: int) -> bool:
        """True if ``seat`` may accept the bet on the table."""
        return self.can(seat, Action("quiero"))

    def verify_quiero(self, seat: int) -> None:
        """Raise :class:`IllegalActionError` unless ``seat`` may accept the bet on the table."""
        self.verify(seat, Action("quiero"))

    def quiero(self, seat: int) -> LanceBetting:
        """``seat`` accepts the bet on the table for the team; one accepting partner is enough (RULES.md §6)."""
        return self.act(seat, Action("quiero"))

    def can_no_quiero(self, seat: int) -> bool:
        """True if ``seat`` may refuse the bet on the table."""
        return self.can(seat, Action("no_quiero"))

    def verify_no_quiero(self, seat: int) -> None:
        """Raise :class:`IllegalActionError` unless ``seat`` may refuse the bet on the table."""
        self.verify(seat, Action("no_quiero"))

    def no_quiero(self, seat: int) -> LanceBetting:
        """``seat`` declines; the bet is refused once every opponent taking part has declined (RULES.md §6)."""
        return self.act(seat, Action("no_quiero"))


def start_betting(deal: DealResult, lance: Lance | str, rules: Rules | None = None, *, lang: str | None = None) -> LanceBetting:
    """The betting round of ``lance`` in a judged deal, with the right participants (RULES.md §4).

    Pares / Juego with at most one holding team, and Punto when somebody has juego, come back closed
    (outcome ``no_bet``). ``rules`` defaults to the deal's rules. lang: the language of the steps' sentences
    (None: the one being spoken; later steps are written in the language spoken when they are played).
    """
    with speaking(lang):
        return _start_betting(deal, lance, rules)


def _start_betting(deal: DealResult, lance: Lance | str, rules: Rules | None) -> LanceBetting:
    lance = Lance.parse(lance)
    state = LanceBetting.start(lance, deal.mano, participants(deal, lance), rules or deal.rules)
    if state.closed and lance in (Lance.PARES, Lance.JUEGO):
        holders = declarations(deal)[lance.value].holders
        teams = sorted({team_of(s) for s in holders})
        if len(teams) == 1:
            _ = translator()
            seats = _.join(_("seat {seat}", seat=s) for s in holders)
            text = _("Only team {team} holds {lance} ({seats}): there is no betting (RULES.md §4).", team=teams[0], lance=lance.value, seats=seats)
            state = replace(state, steps=(BettingStep(None, None, text),))
    return state


def play_betting(
    lance: Lance | str,
    mano: int,
    actions: Iterable[tuple[int, Action | str]],
    participants: Iterable[int] | None = None,
    rules: Rules | None = None,
    *,
    lang: str | None = None,
) -> LanceBetting:
    """Play a whole sequence of ``(seat, action)`` pairs from a fresh round; returns the final state.

    lang: the language of the steps' sentences and of the errors' ``message()`` default (None: the one being spoken).
    Raises :class:`IllegalActionError` at the first illegal action, naming its position.

    >>> b = play_betting("chica", 0, [(0, "envido"), (1, "órdago"), (2, "no quiero"), (0, "no quiero")])
    >>> b.outcome.to_dict(), b.outcome.deje
    ({'type': 'rejected', 'stakes': [2, 'ordago'], 'winner_team': 'B'}, 2)
    """
    with speaking(lang):
        return LanceBetting.start(lance, mano, participants, rules).play(actions)


def random_betting(
    state: LanceBetting,
    rng: random.Random | int | None = None,
    *,
    max_raises: int = 3,
    ordago: bool = True,
    bet_chance: float = 0.35,
) -> LanceBetting:
    """Play random legal actions from ``state`` until the betting closes (for quizzes and tests).

    rng: a :class:`random.Random` or a seed. max_raises: raises allowed after the first bet.
    ordago: whether órdago may be said. bet_chance: chance that a player bets rather than passes.
    """
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    raises = 0
    while not state.closed:
        seats = state.to_act
        seat = seats[0] if len(seats) == 1 or rng.random() < 0.7 else rng.choice(seats)
        if not state.stakes:
            if rng.random() < bet_chance:
                a = Action("ordago") if ordago and rng.random() < 0.08 else Action("envido", rng.choice((2, 2, 2, 3, 4, 5)))
            else:
                a = Action("paso")
        else:
            r = rng.random()
            can_raise = raises < max_raises and state.current_stake != ORDAGO
            if r < 0.4:
                a = Action("quiero")
            elif r < 0.75 or not can_raise:
                a = Action("no_quiero")
            elif ordago and rng.random() < 0.12:
                a = Action("ordago")
                raises += 1
            else:
                a = Action("reenvido", rng.choice((2, 2, 3, 5)))
                raises += 1
        state = state.act(seat, a)
    return state
