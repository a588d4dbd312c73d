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

The pieces live in modules of their own, and this module re-exports them: :mod:`.stakes` (teams, stakes,
the deje), :mod:`.bet_actions` (:class:`Action` read from text, :class:`BettingStep`), :mod:`.betting_outcome`
(:class:`BettingOutcome`), :mod:`.declarations` (who bets in Pares and Juego) and :mod:`.betting_random`
(:func:`random_betting`).

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

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from ..i18n import Text, speaking, translator
from .bet_actions import ACTION_KINDS, Action, BettingStep
from .betting_outcome import OUTCOME_TYPES, BettingOutcome
from .betting_random import random_betting
from .declarations import BETTABLE_BY_HOLDERS, Declaration, declarations, lances_played, participants
from .errors import BettingError, IllegalActionError
from .lances import DealResult, Lance, Seat, check_seat, speaking_order, team_of
from .options import Rules
from .stakes import ORDAGO, TEAMS, Stake, chain_text, check_stakes, deje, other_team, stake_text, stones_text

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
        """Check that ``seat`` may say ``action`` now; return the parsed :class:`Action`, naming ``seat`` as its actor.

        Raises :class:`~musteach.rules.errors.IllegalActionError` naming the seat, the action and the rule
        (RULES.md §2, §4, §6), or that the record names another seat; :class:`~musteach.rules.errors.SeatError`
        for a seat outside 0..3. Its ``message(lang)`` is the learner's feedback in their language.
        """
        check_seat(seat)
        a = Action.parse(action).by(seat)
        said = {"seat": seat, "action": str(a)}
        if self.closed:
            raise IllegalActionError(self._closed_text(seat, a))
        if seat not in self.participants:
            raise IllegalActionError(self._not_taking_part_text(said))
        if not self.stakes:
            return self._verify_opening(seat, a, said)
        return self._verify_answer(seat, a, said)

    def _not_taking_part_text(self, said: dict[str, object]) -> Text:
        """Why a seat outside the participants may not speak (RULES.md §4)."""
        if self.lance in BETTABLE_BY_HOLDERS:
            return Text(
                "seat {seat} cannot say {action}: seat {seat} said '{lance} no', and only the holders speak in "
                "{title} (RULES.md §4)",
                lance=self.lance.said,
                title=self.lance.title,
                **said,
            )
        return Text("seat {seat} cannot say {action}: seat {seat} takes no part in {lance} (RULES.md §4)", lance=self.lance.title, **said)

    def _verify_opening(self, seat: int, a: Action, said: dict[str, object]) -> Action:
        """:meth:`verify` before any bet: in turn (or a bet out of turn where the rules allow it), no answer."""
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

    def _verify_answer(self, seat: int, a: Action, said: dict[str, object]) -> Action:
        """:meth:`verify` facing a bet: the other team answers, once per seat, and an órdago is not raised."""
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
        """The actions ``seat`` (default: :attr:`next_seat`) may take now, each naming ``seat``; bets shown with
        their minimum amount."""
        seat = self.next_seat if seat is None else seat
        if seat is None:
            return []
        return [a for a in _offers(seat) if self.can(seat, a)]

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
        if self.lance in BETTABLE_BY_HOLDERS:
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


@lru_cache(maxsize=4)
def _offers(seat: int) -> tuple[Action, ...]:
    """Every kind of betting action at its smallest amount, naming ``seat`` (what :meth:`LanceBetting.legal_actions`
    filters)."""
    kinds = ("paso", ("envido", 2), ("reenvido", 2), "ordago", "quiero", "no_quiero")
    return tuple(Action(k, seat=seat) if isinstance(k, str) else Action(k[0], k[1], seat=seat) for k in kinds)


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
