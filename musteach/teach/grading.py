"""Grading a learner's decision by the stones it costs (RULES.md §3, §4, §6, §7).

For one decision, :func:`grade_decision` gives the expected stones of every legal action and of the
learner's own (an :class:`ActionValue` each, best first), the stones lost against the best, and a
:class:`Grade` by that loss. How each figure is computed (its :class:`Method`):

* the mus and the discard (:attr:`Method.EXACT_EN_PASO`): the exact discard advisor
  (:func:`musteach.odds.advise_discard`, 8 reyes): the stones the learner's team expects en paso over every
  deal of the unseen cards, with the hand as it is (no hay mus) or after the best discard (mus), or after
  each of the 15 discards. Exact: no sampling error. The betting that follows is not added;
* the betting (:attr:`Method.ROLLOUT`): the net stones of the lance being bet (the learner's team's minus the
  opponents'), averaged over random deals of the unseen cards that fit the partner's señas and the
  declarations (:func:`musteach.play.odds_bot.sample_deals`), judged with the batched evaluator. After each
  candidate action the lance is played out to its end by every seat with the strong level's betting
  thresholds (:func:`rollout_action`), counting the whole lance: the deje of a refused bet (with the
  bettors' own pares / juego values, or punto's stone), an accepted stake plus the values, and an accepted
  órdago as the stones each team still needs to win the game (RULES.md §6, §7). Every action is judged on
  the same deals, so the loss's sampling error (:attr:`DecisionGrade.loss_error`) is small;
* a declaration (:attr:`Method.TRUTH`): only the truth may be said (RULES.md §4), so it is always best.

The tiers, by the stones lost (figures rounded once to 0.1 stone, the loss taken between the rounded figures):
best 0.0; good up to 0.2; inaccuracy up to 0.5; mistake up to 1.5; blunder above 1.5 (:data:`GRADE_LIMITS`).

>>> grade_for(0.0), grade_for(0.2), grade_for(0.5), grade_for(1.5), grade_for(1.6)
(<Grade.BEST: 'best'>, <Grade.GOOD: 'good'>, <Grade.INACCURACY: 'inaccuracy'>, <Grade.MISTAKE: 'mistake'>, <Grade.BLUNDER: 'blunder'>)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np

from ..odds import advise_discard
from ..play.actions import Declare, Discard, GameAction, MusCall, cards_text
from ..play.events import Phase
from ..play.odds_bot import hand_facts, sample_deals
from ..play.policy import deje_if_refused, match_equity
from ..play.view import View
from ..rules.batch import evaluate_batch
from ..rules.betting import ORDAGO, Action, BettingOutcome, LanceBetting
from ..rules.errors import MusError
from ..rules.lances import Lance

__all__ = [
    "BET_AT",
    "GRADE_LIMITS",
    "ORDAGO_AT",
    "RAISE_AT",
    "ROLLOUT_DEALS",
    "ActionValue",
    "DecisionGrade",
    "Grade",
    "Method",
    "grade_decision",
    "grade_for",
    "chance_against_bet",
    "rollout_action",
    "team_chance",
    "stones_text",
]


class Grade(Enum):
    """A decision's tier by the stones it loses against the best action (see :data:`GRADE_LIMITS`)."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def article(self) -> str:
        """``"an inaccuracy"``, ``"a mistake"``...: the grade with its article."""
        return f"an {self.value}" if self.value[0] in "aeiou" else f"a {self.value}"


#: The most stones (rounded to 0.1) a decision may lose and keep each grade; above the last: a blunder.
GRADE_LIMITS: tuple[tuple[Grade, float], ...] = (
    (Grade.BEST, 0.0),
    (Grade.GOOD, 0.2),
    (Grade.INACCURACY, 0.5),
    (Grade.MISTAKE, 1.5),
)

#: Random deals of the unseen cards behind a betting figure.
ROLLOUT_DEALS = 400


def grade_for(loss: float) -> Grade:
    """The :class:`Grade` of a decision that loses ``loss`` stones (≥ 0) against the best action.

    Raises :class:`MusError` for a negative or not-a-number loss.
    """
    if not loss >= 0:
        raise MusError(f"a loss of stones is 0 or more, not {loss!r}")
    for grade, limit in GRADE_LIMITS:
        if round(loss, 1) <= limit + 1e-9:
            return grade
    return Grade.BLUNDER


class Method(Enum):
    """How a decision's figures are computed (see the module docstring)."""

    TRUTH = "truth"
    EXACT_EN_PASO = "exact en paso"
    ROLLOUT = "rollout"


def stones_text(x: float) -> str:
    """A figure in stones, rounded once to 0.1: ``"+1.3 stones"``, ``"-0.5 stones"``, ``"1 stone"``."""
    r = round(x, 1) + 0.0
    unit = "stone" if abs(r) == 1 else "stones"
    return f"{r:+.1f} {unit}"


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One action and the stones it is expected to bring (rounded to 0.1 stone; see :class:`Method` for
    their meaning); error: the sampling error of ``stones`` (one standard error; 0 when exact)."""

    action: GameAction
    stones: float
    error: float = 0.0


@dataclass(frozen=True)
class DecisionGrade:
    """The grade of one decision of the learner (see :func:`grade_decision`).

    phase, lance: where it was taken. action: the learner's decision. values: every action weighed, best
    first (the learner's among them). chosen: the learner's :class:`ActionValue`. loss: stones lost
    against the best (the difference of the rounded figures, so it is exactly what the text states).
    loss_error: its sampling error (0 when exact). grade: its :class:`Grade`. method: how the figures are
    computed. moment: the moment the figures refer to ("en paso, before the mus", "given the opponents'
    envido 2, with your partner's seña"). samples: random deals behind the figures (0 when exact).
    """

    phase: Phase
    lance: Lance | None
    action: GameAction
    values: tuple[ActionValue, ...]
    chosen: ActionValue
    loss: float
    loss_error: float
    grade: Grade
    method: Method
    moment: str
    samples: int

    @property
    def best(self) -> ActionValue:
        """The best action weighed, with its figure."""
        return self.values[0]

    @property
    def sampling_error(self) -> float:
        """One standard error of what the text states: of the stones lost, or of the figure of the learner's
        action when it is the best (0 when exact)."""
        return self.loss_error if self.loss > 0 else self.chosen.error

    def how(self) -> str:
        """How the figures were computed, in one sentence for the learner."""
        if self.method is Method.TRUTH:
            return "Declarations must be truthful (RULES.md §4), so the only legal one is the best."
        if self.method is Method.EXACT_EN_PASO:
            return (
                "Figures: the stones your team expects en paso, counted exactly over every deal of the unseen "
                "cards (the betting that follows is not added)."
            )
        return (
            f"Figures: your team's stones minus the opponents' in {self.lance.title if self.lance else 'this lance'}, "
            f"averaged over {self.samples} deals of the unseen cards that fit what you know, the lance played "
            f"to its end by the strong level's policy (sampling error ± {self.sampling_error:.2f} stones)."
        )


# ----------------------------------------------------------------------------------------------
# The mus and the discard: the exact advisor
# ----------------------------------------------------------------------------------------------


def _ranked(values: list[ActionValue]) -> tuple[ActionValue, ...]:
    return tuple(sorted(values, key=lambda v: -v.stones))


def _exact_values(view: View) -> list[ActionValue]:
    if view.rules.kings != 8:
        raise MusError("the exact discard advisor grades 8-reyes hands only (the 4-reyes tables take minutes)")
    adv = advise_discard(view.hand, view.seat, view.mano, view.rules)
    if view.phase is Phase.MUS:
        return [
            ActionValue(MusCall(False), round(float(adv.current_score("balanced")), 1)),
            ActionValue(MusCall(True), round(float(adv.best("balanced").balanced), 1)),
        ]
    return [ActionValue(Discard(o.discard), round(float(o.balanced), 1)) for o in adv.options]


def _same_action(a: GameAction, b: GameAction) -> bool:
    if isinstance(a, Discard) and isinstance(b, Discard):
        return sorted(c.index for c in a.cards) == sorted(c.index for c in b.cards)
    return a == b


# ----------------------------------------------------------------------------------------------
# The betting: rollouts
# ----------------------------------------------------------------------------------------------

#: The strong level's thresholds on the chance of winning the lance (those of OddsBot's defaults).
BET_AT, RAISE_AT, ORDAGO_AT = 0.66, 0.82, 0.97


def team_chance(u: float) -> float:
    """A team's chance of winning a lance when one player's hand has percentile ``u`` (0..1) among all
    hands and the partner and both opponents are random: P(max(u, V) > max(W1, W2)) = (1 + 2u³) / 3."""
    return (1.0 + 2.0 * u**3) / 3.0


def _floor(p: float) -> float:
    """The least percentile whose :func:`team_chance` reaches ``p``."""
    return float(((3.0 * p - 1.0) / 2.0) ** (1.0 / 3.0))


def chance_against_bet(u: float, state: LanceBetting) -> float:
    """The chance that a player with percentile ``u`` (its partner random) beats a bettor who plays the
    strong level's policy: the bettor's percentile W is uniform above the least one that makes that bet
    (envido 2 from 0.66, more from 0.82, órdago from 0.97; :func:`team_chance`), so the chance is
    1 - E[W; W ≥ u] = 1 - (1 - max(a, u)²) / (2 (1 - a)) for W uniform on (a, 1)."""
    stake = state.current_stake
    p_bettor = ORDAGO_AT if stake == ORDAGO else BET_AT if len(state.stakes) == 1 and stake == 2 else RAISE_AT
    a = _floor(p_bettor)
    return 1.0 - (1.0 - max(a, u) ** 2) / (2.0 * (1.0 - a))


def rollout_action(state: LanceBetting, seat: int, u: float, live: dict[str, int], target: int) -> Action:
    """What ``seat`` says in a rollout of the betting ``state`` when its hand has percentile ``u`` in the
    lance (the strong level's rule, RULES.md §6). Its chance p is :func:`team_chance` before any bet and
    :func:`chance_against_bet` facing one. It opens envido 2 from p = 0.66, more from 0.82; facing a bet,
    it raises 2 from 0.82, accepts when the stake is worth more than the deje it would give away, and
    accepts an órdago (or a stake that ends the game) when p beats the chance of winning the game anyway
    (:func:`~musteach.play.policy.match_equity`). live: the score ``{"A": n, "B": n}`` now; target: stones
    to win a game.
    """
    us = "A" if seat % 2 == 0 else "B"
    them = "B" if us == "A" else "A"
    if not state.stakes:
        p = team_chance(u)
        if p >= RAISE_AT:
            return Action("envido", 3 if p < 0.92 else 4)
        return Action("envido", 2) if p >= BET_AT else Action("paso")
    p = chance_against_bet(u, state)
    stake = state.current_stake
    d = deje_if_refused(state)
    if stake == ORDAGO or int(stake) >= min(target - live[us], target - live[them]):  # type: ignore[arg-type]
        return Action("quiero") if p > match_equity(live[us], live[them] + d, target) else Action("no_quiero")
    if p >= RAISE_AT and len(state.stakes) < 4:
        return Action("reenvido", 2)
    s = int(stake)  # type: ignore[arg-type]
    return Action("quiero") if p * s - (1 - p) * s > -d else Action("no_quiero")


def _play_out(
    b: LanceBetting, seat: int, action: Action, chances: tuple[float, ...], live: dict[str, int], target: int
) -> BettingOutcome:
    state = b.act(seat, action)
    for _ in range(40):
        if state.closed:
            break
        s = state.to_act[0]
        state = state.act(s, rollout_action(state, s, chances[s], live, target))
    else:  # pragma: no cover - the rule bounds the raises
        raise MusError("a rollout of the betting did not end")
    assert state.outcome is not None
    return state.outcome


def _payoffs(
    outcomes: list[BettingOutcome],
    which: np.ndarray,
    lance: Lance,
    winners: np.ndarray,
    team_vals: np.ndarray,
    team: int,
    live: dict[str, int],
    target: int,
) -> np.ndarray:
    """Net stones (the team's minus the opponents') of the lance in each deal (RULES.md §6, §7).

    outcomes: the distinct outcomes of the betting; which: (m,) the outcome index of each deal.
    winners: (m,) the seat with the best hand in the lance (-1: none). team_vals: (m, 2) each team's pares
    or juego values (0 for the other lances). An accepted órdago is worth the stones each team still needs.
    """
    m = len(which)
    sign = np.where((winners >= 0) & (winners % 2 == team), 1.0, -1.0)
    sign[winners < 0] = 0.0
    rows = np.arange(m)
    win_vals = team_vals[rows, np.maximum(winners, 0) % 2]
    bonus = 1.0 if lance is Lance.PUNTO else 0.0
    us, them = ("A", "B") if team == 0 else ("B", "A")
    out = np.zeros(m)
    for k, o in enumerate(outcomes):
        sel = which == k
        if not sel.any():
            continue
        if o.type == "ordago_accepted":
            out[sel] = np.where(sign[sel] > 0, float(target - live[us]), -float(target - live[them]))
        elif o.type == "rejected":
            bettors = 0 if o.winner_team == "A" else 1
            s = 1.0 if bettors == team else -1.0
            out[sel] = s * (o.deje + team_vals[sel, bettors] + bonus)
        elif o.type == "accepted":
            out[sel] = sign[sel] * (int(o.stakes[-1]) + win_vals[sel] + bonus)
        elif lance in (Lance.PARES, Lance.JUEGO):
            out[sel] = sign[sel] * win_vals[sel]
        else:
            out[sel] = sign[sel]
    return out


def _rollout_values(view: View, action: Action, n: int, seed: int) -> tuple[list[ActionValue], int, np.ndarray]:
    b, lance = view.betting, view.lance
    assert b is not None and lance is not None
    hands = sample_deals(view, n, seed)
    m = len(hands)
    winners = evaluate_batch(hands, view.mano, view.rules, validate=False)[lance.value]
    pct, pv, jv = hand_facts(hands, lance, view.rules.kings)
    vals = pv if lance is Lance.PARES else jv if lance is Lance.JUEGO else np.zeros_like(pv)
    team_vals = np.stack([vals[:, 0] + vals[:, 2], vals[:, 1] + vals[:, 3]], axis=1)
    # Below the least percentile that bets, every seat plays alike (rollout_action): deals that differ only
    # there share one rollout, and the others' percentiles are taken in steps of 0.05.
    floor = _floor(BET_AT)
    chances = np.where(pct < floor, 0.0, np.round(pct * 20) / 20)
    chances[:, [s for s in range(4) if s not in b.participants]] = 0.0
    kinds = [a for a in view.legal if isinstance(a, Action) and not (b.stakes and a.kind == "paso")]
    if not any(a == action for a in kinds):
        kinds.append(action)
    live, target, team = dict(view.live_score), view.rules.target, view.seat % 2
    rows = np.empty((len(kinds), m))
    keys = [tuple(float(x) for x in r) for r in chances]
    for k, a in enumerate(kinds):
        memo: dict[tuple[float, ...], int] = {}
        outcomes: list[BettingOutcome] = []
        which = np.empty(m, np.int64)
        for i, key in enumerate(keys):
            j = memo.get(key)
            if j is None:
                o = _play_out(b, view.seat, a, key, live, target)
                j = memo[key] = outcomes.index(o) if o in outcomes else len(outcomes)
                if j == len(outcomes):
                    outcomes.append(o)
            which[i] = j
        rows[k] = _payoffs(outcomes, which, lance, winners.astype(np.int64), team_vals, team, live, target)
    means = rows.mean(axis=1)
    errs = rows.std(axis=1, ddof=1) / math.sqrt(m) if m > 1 else np.zeros(len(kinds))
    out = [ActionValue(a, round(float(x), 1), float(e)) for a, x, e in zip(kinds, means, errs, strict=True)]
    return out, m, rows


def _moment(view: View) -> str:
    b = view.betting
    if view.phase in (Phase.MUS, Phase.DISCARD):
        when = "before the mus" if view.phase is Phase.MUS else "after this discard"
        text = f"en paso, {when}"
    elif b is None or not b.stakes:
        text = "before any bet"
    else:
        who = "your team's" if b.betting_team == view.team else "the opponents'"
        stake = b.current_stake
        text = f"given {who} {'órdago' if stake == ORDAGO else f'bet of {stake}'}"
    if view.partner_senas:
        text += f", with your partner's seña{'s' if len(view.partner_senas) > 1 else ''}"
    return text


# ----------------------------------------------------------------------------------------------
# The grade
# ----------------------------------------------------------------------------------------------


def grade_decision(view: View, action: GameAction, *, n: int = ROLLOUT_DEALS, seed: int = 0) -> DecisionGrade:
    """Grade ``action``, the learner's decision from ``view`` (before it is played), by the stones it costs.

    n: random deals for a betting decision; seed: their seed (the same view, n and seed give the same figures).
    Returns a :class:`DecisionGrade`. Raises :class:`MusError` when it is not ``view.seat``'s decision, for a
    mus or discard with 4 reyes (the exact advisor is for 8 reyes), and
    :class:`~musteach.rules.errors.IllegalActionError` for an action that is not legal now.
    """
    phase, lance = view.phase, view.lance
    loss_rows: np.ndarray | None = None
    samples = 0
    if isinstance(action, Declare):
        values, method = [ActionValue(action, 0.0)], Method.TRUTH
    elif phase in (Phase.MUS, Phase.DISCARD):
        values, method = _exact_values(view), Method.EXACT_EN_PASO
    elif phase.is_betting and isinstance(action, Action) and view.betting is not None:
        view.betting.verify(view.seat, action)
        values, samples, loss_rows = _rollout_values(view, action, n, seed)
        method = Method.ROLLOUT
    else:
        raise MusError(f"there is no decision of seat {view.seat} to grade for {action} in phase {phase.value}")
    ranked = _ranked(values)
    chosen_i = next((i for i, v in enumerate(values) if _same_action(v.action, action)), None)
    if chosen_i is None:
        raise MusError(f"{action} is not one of the actions of seat {view.seat} now ({cards_text(view.cards)})")
    chosen = values[chosen_i]
    loss = round(ranked[0].stones - chosen.stones, 1) + 0.0
    loss_error = 0.0
    if loss_rows is not None:
        best_i = next(i for i, v in enumerate(values) if v is ranked[0])
        diff = loss_rows[best_i] - loss_rows[chosen_i]
        loss_error = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else 0.0
    if chosen.stones == ranked[0].stones:  # a tie with the best is the best: list the learner's first
        ranked = (chosen, *(v for v in ranked if v is not chosen))
    return DecisionGrade(
        phase, lance, action, ranked, chosen, loss, loss_error, grade_for(loss), method, _moment(view), samples
    )
