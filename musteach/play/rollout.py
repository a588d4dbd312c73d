"""Rollouts of a lance's betting: what each action of a seat is worth, in the one unit the coach grades by,
the change in the chance of winning the game (RULES.md §6, §7, §7a).

:func:`betting_values` is the coach's evaluator of a betting decision (:mod:`musteach.teach.grading`). For
one view it draws random deals of the unseen cards that fit the partner's señas and the declarations
(:func:`~musteach.play.odds_bot.sample_deals`), weighs each deal by how likely the other three seats were to
say what they said with the hands it gives them (:func:`said_weights`, or the strategy's Bayes weights
``musteach.play.beliefs.deal_weights`` when that module exists), judges each lance with the integer tables
of :mod:`musteach.play.deals`, and after each candidate action plays the lance out, every seat following a
policy: the strategy's ``musteach.play.strategy.policy`` when that module exists, else
:func:`heuristic_policy`, a fast model of the strong level's betting (its thresholds on the chance of winning
the lance, and what a bet says about the bettor's hand, :func:`chance_against_bet`). With ``seats=`` (what the
coach uses, :mod:`musteach.play.seat_models`) every seat is its own level instead: the deals are drawn to fit
every seña and declaration, weighed by each seat's own model, and the lance is played out with every seat
mixing its actions as its model does (the figure of a deal is the expectation over those mixtures).

Each deal's figure is the team's chance of winning the game after the hand, in points of 100
(:func:`~musteach.play.policy.match_equity` on the live score plus the lance's stones, the deje of a refused
bet with the bettors' pares / juego values or punto's stone, an accepted stake plus the values, plus what
the hand's other lances add at the count, :func:`rest_of_hand`). An accepted órdago decides the game: its
figure is 100 when the team wins the lance, 0 when it loses it, so an órdago is valued by the chance of
winning its lance (and gives up what the rest of the hand would have brought). An action's *gain* is its
figure minus the chance the team had with this lance worth nothing (the same deals, :attr:`RolloutValues.now`). A figure's stone equivalent divides its change by
:func:`points_per_stone` (what one stone is worth in win chance at this score). Means and standard errors
are importance-weighted (self-normalised) by the deals' weights.

>>> team_chance(0.0) < team_chance(0.5) < team_chance(1.0) == 1.0
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache

from ..i18n import Text
from ..rules.betting import ORDAGO, Action, BettingOutcome, LanceBetting
from ..rules.cards import Card
from ..rules.errors import MusError
from ..rules.lances import LANCES, Lance
from .deals import AFTER_MUS, after_mus_cell, keys_for, rank_facts, rank_id
from .odds_bot import Deal, hand_facts, sample_deals
from .policy import deje_if_refused, match_equity
from .seat_models import SeatModels, fits_calls, fits_public, fitting_deals, log_weights, seat_view, shows_senas
from .view import View

__all__ = [
    "BET_AT",
    "NEAR_END",
    "ORDAGO_AT",
    "RAISE_AT",
    "AFTER_MUS",
    "ROLLOUT_DEALS",
    "TREMBLE",
    "DealWeights",
    "RolloutValues",
    "Unit",
    "ViewPolicy",
    "after_mus_cell",
    "betting_values",
    "chance_against_bet",
    "floor_percentile",
    "heuristic_policy",
    "near_end",
    "points_per_stone",
    "rollout_action",
    "rest_of_hand",
    "said_weights",
    "seated_deals",
    "strategy_policy",
    "team_chance",
    "weighted_mean",
    "weighted_error",
    "win_chance_points",
]

#: Random deals of the unseen cards behind a betting figure (the strong level's and the coach's).
ROLLOUT_DEALS = 400
#: Near the end of a game: a team needs this many stones or fewer to win it (kept for callers: every figure
#: is now a chance of winning the game).
NEAR_END = 10
#: The strong level's thresholds on the chance of winning the lance, for the seats of a rollout.
BET_AT, RAISE_AT, ORDAGO_AT = 0.66, 0.82, 0.97
#: How sharply :func:`heuristic_policy` turns at a threshold (a logistic's scale, in chance of winning).
SOFTNESS = 0.05
#: The least probability :func:`said_weights` gives any action that was said (people do not always play
#: by the model), so that no deal is ruled out by one surprising bet.
TREMBLE = 0.03

#: The strategy's policy: a seat's view -> the probability of each of its actions.
ViewPolicy = Callable[[View], Mapping[Action, float]]
#: Bayes weights of sampled hidden deals given what every seat said: (view, deals) -> one weight a deal.
DealWeights = Callable[[View, Sequence[Deal]], Sequence[float]]


class Unit(Enum):
    """What a figure counts: the chance (points of 100) of winning the game; STONES is kept for callers."""

    STONES = "stones"
    WIN_CHANCE = "win chance"


def near_end(view: View) -> bool:
    """True when a team needs :data:`NEAR_END` stones or fewer to win the game (from ``view.live_score``)."""
    return min(view.to_go.values()) <= NEAR_END


def points_per_stone(us: int, them: int, target: int) -> float:
    """What one stone is worth now, in points (of 100) of the chance of winning the game: half the change
    from the team scoring one stone to the opponents scoring one (:func:`~musteach.play.policy.match_equity`),
    at least 0.05 (a decided game). us, them: the two teams' stones; target: stones to win a game.

    >>> round(points_per_stone(0, 0, 40), 2)
    1.67
    """
    hi = match_equity(min(us + 1, target), them, target)
    lo = match_equity(us, min(them + 1, target), target)
    return max(50.0 * (hi - lo), 0.05)


def team_chance(u: float) -> float:
    """A team's chance of winning a lance when one player's hand has percentile ``u`` (0..1) among all
    hands and the partner and both opponents are random: P(max(u, V) > max(W1, W2)) = (1 + 2u³) / 3."""
    return (1.0 + 2.0 * u**3) / 3.0


def floor_percentile(p: float) -> float:
    """The least percentile whose :func:`team_chance` reaches ``p``."""
    return float(((3.0 * p - 1.0) / 2.0) ** (1.0 / 3.0))


def chance_against_bet(u: float, state: LanceBetting) -> float:
    """The chance that a player with percentile ``u`` (its partner random) wins the lance facing a bet, as
    :class:`~musteach.play.odds_bot.OddsBot` weighs it before it has seen the opponents play: the bettors'
    team strength t (uniform on 0..1 for random hands; see ``OpponentModel``) weighted by its prior chance
    of betting, 0.1 + 0.8 t, so t has density 0.2 + 1.6 t and distribution F(t) = 0.2 t + 0.8 t². The
    responding team's strength is max(u, V)² with V its partner's percentile, so the chance is
    u F(u²) + ∫ from u to 1 of F(v²) dv = u (0.2 u² + 0.8 u⁴) + 0.2 (1 - u³) / 3 + 0.16 (1 - u⁵).
    The same for every stake (``state`` is kept for the callers)."""
    del state
    return u * (0.2 * u**2 + 0.8 * u**4) + 0.2 * (1 - u**3) / 3 + 0.16 * (1 - u**5)


def _logistic(x: float) -> float:
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def _game_at_stake(state: LanceBetting, us: str, them: str, live: Mapping[str, int], target: int) -> bool:
    stake = state.current_stake
    return stake == ORDAGO or int(stake) >= min(target - live[us], target - live[them])  # type: ignore[arg-type]  # stake is an int here


def heuristic_policy(state: LanceBetting, seat: int, u: float, live: Mapping[str, int], target: int) -> dict[Action, float]:
    """The probability of each action of ``seat`` in the betting ``state`` when its hand has percentile ``u``
    in the lance (RULES.md §6): a soft model of the strong level (each threshold a logistic of scale
    :data:`SOFTNESS`). Its chance p is :func:`team_chance` before any bet and :func:`chance_against_bet`
    facing one. Before any bet it opens envido 2 from p = 0.66, envido 3 or 4 from 0.82, órdago from 0.97
    when its team's chance of winning the game is below 0.35. Facing a bet it raises 2 from 0.82 (while
    fewer than 4 stakes stand), accepts when the stake is worth more than the deje it would give away, and
    accepts an órdago (or a stake that ends the game) when p beats the chance of winning the game anyway
    (:func:`~musteach.play.policy.match_equity`). live: the score ``{"A": n, "B": n}``; target: stones to win.
    Returns the actions with a probability above 0; they add up to 1.
    """
    us = "A" if seat % 2 == 0 else "B"
    them = "B" if us == "A" else "A"
    out: dict[Action, float] = {}
    if not state.stakes:
        p = team_chance(u)
        behind = match_equity(live[us], live[them], target) < 0.35
        p_ordago = _logistic((p - ORDAGO_AT) / SOFTNESS) if behind else 0.0
        p_bet = (1.0 - p_ordago) * _logistic((p - BET_AT) / SOFTNESS)
        p_more = _logistic((p - RAISE_AT) / SOFTNESS)
        out[Action("paso")] = 1.0 - p_ordago - p_bet
        out[Action("envido", 2)] = p_bet * (1.0 - p_more)
        out[Action("envido", 3 if p < 0.92 else 4)] = p_bet * p_more
        out[Action("ordago")] = p_ordago
    elif _game_at_stake(state, us, them, live, target):
        # the game is at stake: the chance against the bet, against the chance of winning the game anyway
        p = chance_against_bet(u, state)
        q = _logistic((p - match_equity(live[us], live[them] + deje_if_refused(state), target)) / SOFTNESS)
        out[Action("quiero")], out[Action("no_quiero")] = q, 1.0 - q
    else:
        p = chance_against_bet(u, state)
        s, d = int(state.current_stake), deje_if_refused(state)  # type: ignore[arg-type]  # not an órdago here
        r = _logistic((p - RAISE_AT) / SOFTNESS) if len(state.stakes) < 4 else 0.0
        q = (1.0 - r) * _logistic((p - (s - d) / (2.0 * s)) / SOFTNESS)
        out[Action("reenvido", 2)], out[Action("quiero")], out[Action("no_quiero")] = r, q, 1.0 - r - q
    return {a: x for a, x in out.items() if x > 0.0}


def rollout_action(state: LanceBetting, seat: int, u: float, live: Mapping[str, int], target: int) -> Action:
    """What ``seat`` says in a rollout of the betting ``state`` when its hand has percentile ``u`` in the
    lance: the most likely action of :func:`heuristic_policy` (the first among equals). live: the score
    ``{"A": n, "B": n}`` now; target: stones to win a game."""
    probs = heuristic_policy(state, seat, u, live, target)
    return max(probs, key=lambda a: probs[a])


def _kind(a: Action, state: LanceBetting) -> str:
    """An action's kind as a policy's likelihood reads it: a raise of any amount is one kind, an envido of
    any amount another, paso facing a bet is no quiero."""
    if a.kind == "paso" and state.stakes:
        return "no_quiero"
    return a.kind


def _likelihood(probs: Mapping[Action, float], said: Action, state: LanceBetting) -> float:
    k = _kind(said, state)
    p = sum(x for a, x in probs.items() if _kind(a, state) == k)
    return TREMBLE + (1.0 - TREMBLE) * p


@lru_cache(maxsize=2)
def _after_mus_weights(kings: int) -> tuple[float, ...]:
    """:data:`AFTER_MUS` by rank id (10,000)."""
    cells = [after_mus_cell(i, kings) for i in range(10_000)]
    return tuple(AFTER_MUS[g][p] for g, p in cells)


def said_weights(view: View, deals: Sequence[Deal]) -> list[float]:
    """How likely, in each of ``deals`` (4 hands of card indexes by seat), the other three seats were to hold
    their hands after the mus (:data:`AFTER_MUS`, when cards were changed) and to say what they said in this
    hand's betting (every step of the closed lances and of the one being bet), by :func:`heuristic_policy`
    with their percentile in each lance (RULES.md §6): one weight a deal, the product of the likelihoods,
    each betting step's at least :data:`TREMBLE`. The bettings' live score is taken as
    ``view.live_score``. A consistent filter until the strategy's beliefs (``musteach.play.beliefs``) are in.
    """
    bettings = [b for b in view.bettings.values()]
    if view.betting is not None:
        bettings.append(view.betting)
    facts = rank_facts(view.rules.kings)
    live, target = dict(view.live_score), view.rules.target
    steps: list[tuple[int, int, Action, LanceBetting]] = []  # (seat, lance index, action, state before)
    for b in bettings:
        state = LanceBetting.start(b.lance, b.mano, b.participants, b.rules)
        for st in b.steps:
            if st.seat is None or st.action is None:
                continue
            if st.seat != view.seat:
                steps.append((st.seat, LANCES.index(b.lance), st.action, state))
            state = state.act(st.seat, st.action)
    weights = [1.0] * len(deals)
    discarded = any(any(c) for c in view.changes)
    if not steps and not discarded:
        return weights
    ids = [[rank_id(deal[s]) for deal in deals] for s in range(4)]
    if discarded:  # after a mus, everybody kept its best cards
        prior = _after_mus_weights(view.rules.kings)
        for s in range(4):
            if s != view.seat:
                weights = [w * prior[i] for w, i in zip(weights, ids[s], strict=True)]
    for seat, li, said, state in steps:
        table = facts.pct[li]
        # percentiles in steps of 4 / 255: the policy is smooth at that scale
        column = [table[i] >> 2 for i in ids[seat]]
        factor: dict[int, float] = {}
        for q in set(column):
            factor[q] = _likelihood(heuristic_policy(state, seat, (4 * q + 2) / 255.0, live, target), said, state)
        weights = [w * factor[q] for w, q in zip(weights, column, strict=True)]
    return weights


def _policy_action(policy: ViewPolicy, view: View) -> Action | None:
    """The action ``policy`` most likely takes from ``view``, or None when it has none to give there (a
    ``MusError``: the computed strategy knows only the decisions of its abstraction) or offers nothing."""
    try:
        probs = policy(view)
    except MusError:
        return None
    return max(probs, key=lambda x: probs[x]) if probs else None


def strategy_policy() -> ViewPolicy | None:
    """The computed strategy's ``musteach.play.strategy.policy`` when that module is installed, else None
    (imported on first use)."""
    try:
        from . import strategy  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return None
    found = getattr(strategy, "policy", None)
    return found if callable(found) else None


def _belief_weights() -> DealWeights:
    """The computed strategy's beliefs (``musteach.play.beliefs.log_weights``: every seat's betting weighed by the
    strategy's own action probabilities, Bayes) when that module is installed, normalised here without numpy (a
    lesson 10 kernel never loads it), else :func:`said_weights`."""
    try:
        from . import beliefs  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return said_weights
    found = getattr(beliefs, "log_weights", None)
    if not callable(found):
        return said_weights
    log_weights: Callable[[View, Sequence[Deal]], list[float]] = found

    def weigh(view: View, deals: Sequence[Deal]) -> list[float]:
        logs = log_weights(view, deals)
        top = max(logs, default=float("-inf"))
        if not math.isfinite(top):
            return [1.0 / len(logs)] * len(logs) if logs else []
        w = [math.exp(x - top) for x in logs]
        total = sum(w)
        return [x / total for x in w]

    return weigh


#: A rollout seat's choice: (the actions said so far in the rollout, the state, the seat) -> its action.
Chooser = Callable[[tuple[tuple[int, Action], ...], LanceBetting, int], Action]


def _play_out(
    b: LanceBetting, seat: int, action: Action, choose: Chooser, states: dict[tuple[tuple[int, Action], ...], LanceBetting]
) -> BettingOutcome:
    """Play the betting ``b`` out after ``seat`` says ``action``, every seat as ``choose`` says; ``states``
    keeps the state after each sequence of actions (shared by every rollout of one decision)."""
    path: tuple[tuple[int, Action], ...] = ((seat, action),)
    state = states.get(path)
    if state is None:
        state = states[path] = b.act(seat, action)
    for _ in range(40):
        if state.closed:
            break
        s = state.to_act[0]
        a = choose(path, state, s)
        path = (*path, (s, a))
        nxt = states.get(path)
        if nxt is None:
            nxt = states[path] = state.act(s, a)
        state = nxt
    else:  # pragma: no cover - the rule bounds the raises
        raise MusError(Text("a rollout of the betting did not end"))
    assert state.outcome is not None
    return state.outcome


def _net_stones(o: BettingOutcome, lance: Lance, w: int, tv: tuple[int, int], team: int) -> float | None:
    """Net stones (the team's minus the opponents') of the lance in one deal (RULES.md §6, §7); None for an
    accepted órdago (it decides the game). w: the seat with the best hand in the lance (-1: none); tv: each
    team's pares or juego values (0 for the other lances)."""
    sign = 0.0 if w < 0 else (1.0 if w % 2 == team else -1.0)
    bonus = 1.0 if lance is Lance.PUNTO else 0.0
    if o.type == "ordago_accepted":
        return None
    if o.type == "rejected":
        bettors = 0 if o.winner_team == "A" else 1
        return (1.0 if bettors == team else -1.0) * (o.deje + tv[bettors] + bonus)
    if o.type == "accepted":
        return sign * (int(o.stakes[-1]) + tv[max(w, 0) % 2] + bonus)
    if lance in (Lance.PARES, Lance.JUEGO):
        return sign * tv[max(w, 0) % 2]
    return sign


def rest_of_hand(view: View, deals: Sequence[Deal]) -> list[float]:
    """Per deal, the net stones (``view.seat``'s team minus the opponents') that the other lances of the hand
    add at the count (RULES.md §7): the closed lances by their outcome (a refused bet's deje is already in
    ``view.live_score``; the bettors' pares / juego values and punto's stone are not), the lances still to
    come en paso (their bets unknown: the best hand takes 1 stone in Grande and Chica, its team's values in
    Pares and Juego, 1 in Punto when nobody has juego). Deals: 4 hands of card indexes by seat."""
    lance = view.lance
    team = view.seat % 2
    keys = keys_for(view.rules)
    facts = rank_facts(view.rules.kings)
    out = [0.0] * len(deals)
    paso = BettingOutcome("paso")
    for li, other in enumerate(LANCES):
        if other is lance:
            continue
        o = view.outcomes.get(other.value, paso)
        if o.type == "ordago_accepted":  # pragma: no cover - the game is over then
            continue
        winners = keys.lance_winners(deals, view.mano, li)
        table = facts.pares_value if other is Lance.PARES else facts.juego_value if other is Lance.JUEGO else None
        for i, (deal, w) in enumerate(zip(deals, winners, strict=True)):
            if table is not None:
                v = [table[rank_id(h)] for h in deal]
                tv = (v[0] + v[2], v[1] + v[3])
            else:
                tv = (0, 0)
            x = _net_stones(o, other, w, tv, team)
            if x is not None and o.type == "rejected":  # the deje is already scored
                bettors = 0 if o.winner_team == "A" else 1
                x -= (1.0 if bettors == team else -1.0) * o.deje
            out[i] += x or 0.0
    return out


def win_chance_points(net: Sequence[float], us: int, them: int, target: int) -> list[float]:
    """The chance (points of 100) that the team with ``us`` stones wins the game against ``them`` after a
    lance whose net stones are ``net`` (per deal; positive: the team scores, negative: the opponents do),
    by :func:`~musteach.play.policy.match_equity`. Reaching the target is 100."""
    out = []
    cache: dict[float, float] = {}
    for x in net:
        v = cache.get(x)
        if v is None:
            a, b = (us + round(x), them) if x > 0 else (us, them - round(x))
            v = cache[x] = 100.0 * match_equity(min(a, target), min(b, target), target)
        out.append(v)
    return out


def weighted_mean(values: Sequence[float], weights: Sequence[float] | None = None) -> float:
    """The mean of ``values`` (not empty) weighted by ``weights`` (None: equal weights; their sum above 0)."""
    if weights is None:
        return math.fsum(values) / len(values)
    return math.fsum(w * x for w, x in zip(weights, values, strict=True)) / math.fsum(weights)


def weighted_error(values: Sequence[float], weights: Sequence[float] | None = None) -> float:
    """One standard error of :func:`weighted_mean` (self-normalised importance sampling:
    √(Σ wᵢ² (xᵢ − m)²) / Σ wᵢ); 0 with fewer than 2 values. Equal weights give s / √n (ddof 1)."""
    n = len(values)
    if n < 2:
        return 0.0
    m = weighted_mean(values, weights)
    if weights is None:
        return math.sqrt(math.fsum((x - m) ** 2 for x in values) / (n - 1) / n)
    total = math.fsum(weights)
    var = math.fsum((w * (x - m)) ** 2 for w, x in zip(weights, values, strict=True)) / (total * total)
    return math.sqrt(var * n / (n - 1))


def _shown(x: float, digits: int) -> float:
    """``x`` rounded as it is shown (half to even), ``digits`` after the point."""
    f = 10.0**digits
    return round(x * f) / f


@dataclass(frozen=True)
class RolloutValues:
    """What each betting action of a seat is worth (see the module docstring).

    actions: the actions weighed (the legal ones, and the one asked about). rows: per action, the team's
    chance of winning the game after the hand (points of 100) in each of the m random deals (the same
    deals for every action). weights: each deal's weight (what was said; see :func:`said_weights`), None
    for equal weights. now: the team's chance of winning the game after the hand were this lance worth
    nothing (the weighted mean over the same deals, points of 100).
    per_stone: what one stone is worth now, in points (:func:`points_per_stone`). stone_rows: per action,
    the net stones of the lance in each deal (an accepted órdago: the stones the winners still needed).
    unit: always :attr:`Unit.WIN_CHANCE`.
    """

    actions: tuple[Action, ...]
    rows: tuple[tuple[float, ...], ...]
    unit: Unit = Unit.WIN_CHANCE
    stone_rows: tuple[tuple[float, ...], ...] | None = None
    weights: tuple[float, ...] | None = None
    now: float = 50.0
    per_stone: float = 1.0

    @property
    def samples(self) -> int:
        """Random deals behind the figures."""
        return len(self.rows[0]) if self.rows else 0

    @property
    def effective(self) -> float:
        """The effective number of deals once weighed: (Σw)² / Σw² (the deals when unweighted)."""
        if self.weights is None:
            return float(self.samples)
        return math.fsum(self.weights) ** 2 / max(math.fsum(w * w for w in self.weights), 1e-300)

    @property
    def means(self) -> tuple[float, ...]:
        """Per action, its chance of winning the game after the hand (points of 100), weighted mean."""
        return tuple(weighted_mean(r, self.weights) for r in self.rows)

    @property
    def gains(self) -> tuple[float, ...]:
        """Per action, the change it brings in the chance of winning the game (points of 100): its mean
        minus :attr:`now`."""
        return tuple(x - self.now for x in self.means)

    @property
    def stones(self) -> tuple[float, ...]:
        """Per action, the stone equivalent of its :attr:`gains` (points / :attr:`per_stone`)."""
        return tuple(x / self.per_stone for x in self.gains)

    @property
    def errors(self) -> tuple[float, ...]:
        """Per action, one standard error of its mean (points of 100; 0 with fewer than 2 deals)."""
        return tuple(weighted_error(r, self.weights) for r in self.rows)

    def difference_error(self, i: int, j: int) -> float:
        """One standard error of the difference between the means of actions ``i`` and ``j`` (indexes in
        :attr:`actions`), both judged on the same deals."""
        diff = [a - b for a, b in zip(self.rows[i], self.rows[j], strict=True)]
        return weighted_error(diff, self.weights)

    def best(self) -> Action:
        """The action with the highest figure, rounded as it is shown (0.1 point); among equals the first."""
        shown = [_shown(x, 1) for x in self.gains]
        return self.actions[shown.index(max(shown))]


def _seat_view(view: View, seat: int, hand: Sequence[int], state: LanceBetting) -> View:
    """``view`` as seat ``seat`` holding ``hand`` (card indexes) would see it in the betting ``state``."""
    return replace(
        view, seat=seat, cards=tuple(Card.from_index(i) for i in hand), betting=state, partner_senas=(), my_senas=(),
        _legal=lambda: tuple(state.legal_actions(seat)),
    )  # fmt: skip


def betting_values(
    view: View,
    also: Action | None = None,
    *,
    n: int = ROLLOUT_DEALS,
    seed: int = 0,
    policy: ViewPolicy | None = None,
    weights: DealWeights | None = None,
    seats: SeatModels | None = None,
) -> RolloutValues:
    """The figure of every betting action of ``view.seat`` now (and of ``also``, when it is not among
    them), over ``n`` random deals (seeded: the same view, n and seed give the same figures); see the
    module docstring. Facing a bet, paso is left out (it refuses, like no quiero).

    policy: every seat's policy in the rollouts (a view -> its actions' probabilities; the most likely is
    played); None: the strategy's (``musteach.play.strategy.policy``) when installed, else
    :func:`heuristic_policy`. weights: the deals' Bayes weights given what was said; None: the strategy's
    beliefs (``musteach.play.beliefs.deal_weights``) when installed, else :func:`said_weights`.
    seats: every seat's own model (:func:`musteach.play.seat_models.seat_models`: the table's level for the
    three bots, the strategy for the learner): when given, the deals are weighed by
    :func:`musteach.play.seat_models.log_weights` (unless ``weights`` is given) and every seat of the
    rollouts plays its own model (``policy`` is not read); each model is asked once per key of its hand
    (its bucket, its strength), not once per deal.
    Raises :class:`MusError` when no lance is being bet.
    """
    b, lance = view.betting, view.lance
    if b is None or lance is None:
        raise MusError(Text("there is no betting to weigh in phase {phase}", phase=view.phase.value))
    if seats is not None:
        if weights is not None:
            return _seated_values(view, b, lance, also, seated_deals(view, n, seed, seats), seats, weights)
        deals, w = posterior_deals(view, n, seed, seats)
        return _seated_values(view, b, lance, also, deals, seats, lambda _v, _d: w)
    deals = sample_deals(view, n, seed)
    w = [float(x) for x in (weights or _belief_weights())(view, deals)]
    if len(w) != len(deals) or not math.fsum(w) > 0:
        w = [1.0] * len(deals)  # the beliefs rule every deal out: weigh them equally
    winners = keys_for(view.rules).lance_winners(deals, view.mano, LANCES.index(lance))
    pct, pv, jv = hand_facts(deals, lance, view.rules.kings)
    vals = pv if lance is Lance.PARES else jv if lance is Lance.JUEGO else None
    team_vals = [(v[0] + v[2], v[1] + v[3]) for v in vals] if vals is not None else [(0, 0)] * len(deals)
    live, target, team = dict(view.live_score), view.rules.target, view.seat % 2
    us, them = ("A", "B") if team == 0 else ("B", "A")
    chosen_policy = policy if policy is not None else strategy_policy()
    keys: list[tuple[int, ...]]
    out_of = [s not in b.participants for s in range(4)]
    if chosen_policy is None:
        # Percentiles in steps of 0.1: deals that differ less share one rollout.
        keys = [tuple(0 if out_of[s] else round(p[s] * 10) for s in range(4)) for p in pct]
    else:
        keys = [tuple(rank_id(h) for h in deal) for deal in deals]
    kinds = [a for a in view.legal if isinstance(a, Action) and not (b.stakes and a.kind == "paso")]
    if also is not None and not any(a == also for a in kinds):
        kinds.append(also)
    first_deal: dict[tuple[int, ...], Deal] = {}
    for key, deal in zip(keys, deals, strict=True):
        first_deal.setdefault(key, deal)
    asked: dict[tuple[object, ...], Action] = {}
    states: dict[tuple[tuple[int, Action], ...], LanceBetting] = {}

    def chooser(key: tuple[int, ...]) -> Chooser:
        deal = first_deal[key]

        def choose(path: tuple[tuple[int, Action], ...], state: LanceBetting, s: int) -> Action:
            memo = (path, s, key[s])
            a = asked.get(memo)
            if a is None:
                if chosen_policy is None:
                    a = rollout_action(state, s, key[s] / 10, live, target)
                else:
                    a = _policy_action(chosen_policy, _seat_view(view, s, deal[s], state))
                    if a is None:  # the policy has no answer for this seat here: the heuristic's
                        a = rollout_action(state, s, key[s] / 10, live, target)
                asked[memo] = a
            return a

        return choose

    rest = rest_of_hand(view, deals)
    rows, stone_rows = [], []
    point_cache: dict[float, float] = {}
    for a in kinds:
        memo: dict[tuple[int, ...], BettingOutcome] = {}
        row, srow = [], []
        for key, win, tv, more in zip(keys, winners, team_vals, rest, strict=True):
            o = memo.get(key)
            if o is None:
                o = memo[key] = _play_out(b, view.seat, a, chooser(key), states)
            x = _net_stones(o, lance, win, tv, team)
            if x is None:  # an accepted órdago: the lance's winners win the game
                won = win >= 0 and win % 2 == team
                row.append(100.0 if won else 0.0)
                srow.append(float(target - live[us]) if won else -float(target - live[them]))
                continue
            pts = point_cache.get(x + more)
            if pts is None:
                pts = point_cache[x + more] = win_chance_points([x + more], live[us], live[them], target)[0]
            row.append(pts)
            srow.append(x)
        rows.append(tuple(row))
        stone_rows.append(tuple(srow))
    return RolloutValues(
        tuple(kinds), tuple(rows), Unit.WIN_CHANCE, tuple(stone_rows), tuple(w),
        weighted_mean(win_chance_points(rest, live[us], live[them], target), w) if rest else 50.0,
        points_per_stone(live[us], live[them], target),
    )  # fmt: skip


def seated_deals(view: View, n: int = ROLLOUT_DEALS, seed: int = 0, seats: SeatModels | None = None) -> list[Deal]:
    """The deals :func:`betting_values` weighs with ``seats=``: :func:`~musteach.play.odds_bot.sample_deals`,
    or :func:`~musteach.play.seat_models.fitting_deals` when fewer than 3 in 4 of those fit every seña and
    declaration (:func:`~musteach.play.seat_models.fits_public`, :func:`~musteach.play.seat_models.shows_senas`)
    and, given ``seats``, the mus calls made with the cards held now (:func:`~musteach.play.seat_models.fits_calls`):
    given ``seats`` and a call by another seat in that round (which few of those deals fit: a cut is made with
    a good hand, a mus with a weak one), :func:`~musteach.play.seat_models.fitting_deals` at once."""
    calls = view.last_mus_calls
    if seats is not None and calls is not None and any(x is not None for s, x in enumerate(calls) if s != view.seat):
        return fitting_deals(view, n, seed, seats)
    deals = sample_deals(view, n, seed)
    fit = sum(
        1 for d in deals if fits_public(view, d) and shows_senas(view, d) and (seats is None or fits_calls(view, d, seats))
    )  # fmt: skip
    if 4 * fit < 3 * n:
        del deals  # (not both sets of deals alive at once: a lesson kernel stays small)
        return fitting_deals(view, n, seed, seats)
    return deals


#: The effective sample size (a share of the n deals) below which :func:`posterior_deals` draws more deals
#: and resamples n of them by weight.
POSTERIOR_ESS = 0.5

#: The most deals :func:`posterior_deals` draws, as a multiple of n (8 keeps more of the posterior, but the
#: coach's comment then takes 300 CPU-ms at p95 instead of 100: ``bench_coach_replay.py`` part 3).
POSTERIOR_POOL = 2


def effective_size(weights: Sequence[float]) -> float:
    """Kish's effective sample size of ``weights`` (non-negative, not all zero): (Σw)² / Σw²; 0.0 when all
    are zero."""
    total = math.fsum(weights)
    sq = math.fsum(x * x for x in weights)
    return total * total / sq if sq > 0 else 0.0


def _raw(logs: Sequence[float]) -> list[float]:
    top = max(logs, default=float("-inf"))
    if not math.isfinite(top):
        return [1.0] * len(logs)
    return [math.exp(x - top) for x in logs]


def posterior_deals(view: View, n: int, seed: int, seats: SeatModels) -> tuple[list[Deal], list[float]]:
    """The deals :func:`betting_values` weighs with ``seats=`` and their weights (summing to 1): the ``n``
    deals of :func:`seated_deals`, weighed by :func:`~musteach.play.seat_models.log_weights`
    (:func:`_normalised`), while their effective sample size (:func:`effective_size`) is at least
    :data:`POSTERIOR_ESS` of n. When what was said leaves few of them likely (an órdago bet by a seat that
    bets it with few hands, RULES.md §6), batches of n more deals are drawn (up to :data:`POSTERIOR_POOL`
    times n, until the pool's effective size reaches that share of n) and n of the pool are resampled in
    proportion to their weights (systematic resampling), each distinct deal then weighing the share of the
    n draws that fell on it (so that the standard errors count a deal drawn twice once): the figures carry
    the posterior instead of the prior that the capped weights of a few fitting deals leave. Returns at
    most n deals. Seeded: the same view, n, seed and models give the same deals."""
    deals = seated_deals(view, n, seed, seats)
    logs = log_weights(view, deals, seats)
    raw = _raw(logs)
    if not deals or effective_size(raw) >= POSTERIOR_ESS * n:
        return deals, _normalised(logs)
    k = 1
    while effective_size(raw) < POSTERIOR_ESS * n and k < POSTERIOR_POOL:
        more = seated_deals(view, n, seed + 7919 * k, seats)
        deals.extend(more)
        logs.extend(log_weights(view, more, seats))
        raw = _raw(logs)
        k += 1
    total = math.fsum(raw)
    if not total > 0:  # pragma: no cover - _raw gives the top deal weight 1
        return deals[:n], [1.0 / n] * n
    step = total / n
    u = step * ((seed * 0.6180339887498949) % 1.0 or 0.5)  # a seeded offset
    count: dict[Deal, int] = {}  # deal -> times drawn (in the order first drawn; the pool may repeat a deal)
    acc, i = raw[0], 0
    for j in range(n):
        x = u + j * step
        while acc < x and i < len(raw) - 1:
            i += 1
            acc += raw[i]
        count[deals[i]] = count.get(deals[i], 0) + 1
    return list(count), [c / n for c in count.values()]


def _normalised(logs: Sequence[float]) -> list[float]:
    """exp of ``logs`` scaled to sum to 1 (all equal when every deal is ruled out), each weight capped at
    √n times the mean weight (truncated importance sampling: no single deal of the n decides a figure)."""
    top = max(logs, default=float("-inf"))
    if not math.isfinite(top):
        return [1.0 / len(logs)] * len(logs) if logs else []
    w = [math.exp(x - top) for x in logs]
    cap = math.sqrt(len(w)) * math.fsum(w) / len(w)
    w = [min(x, cap) for x in w]
    total = math.fsum(w)
    return [x / total for x in w]


#: The last view's seat answers (kept while the same view is weighed again: the coach weighs each decision
#: twice, choosing on some deals and stating on others).
_ASKED: list[tuple[View, dict[tuple[object, ...], tuple[tuple[Action, float], ...]]]] = []


def _asked_for(view: View) -> dict[tuple[object, ...], tuple[tuple[Action, float], ...]]:
    """The memo of what each seat says, by (path, seat, key), shared by every weighing of ``view``."""
    if _ASKED and _ASKED[0][0] is view:
        return _ASKED[0][1]
    memo: dict[tuple[object, ...], tuple[tuple[Action, float], ...]] = {}
    _ASKED[:] = [(view, memo)]
    return memo


def _seated_values(
    view: View, b: LanceBetting, lance: Lance, also: Action | None, deals: Sequence[Deal], seats: SeatModels,
    weights: DealWeights | None,
) -> RolloutValues:
    """:func:`betting_values` with every seat playing its own model (``seats``)."""
    w = [float(x) for x in weights(view, deals)] if weights is not None else _normalised(log_weights(view, deals, seats))
    if len(w) != len(deals) or not math.fsum(w) > 0:
        w = [1.0] * len(deals)
    winners = keys_for(view.rules).lance_winners(deals, view.mano, LANCES.index(lance))
    _pct, pv, jv = hand_facts(deals, lance, view.rules.kings)
    vals = pv if lance is Lance.PARES else jv if lance is Lance.JUEGO else None
    team_vals = [(v[0] + v[2], v[1] + v[3]) for v in vals] if vals is not None else [(0, 0)] * len(deals)
    live, target, team = dict(view.live_score), view.rules.target, view.seat % 2
    us, them = ("A", "B") if team == 0 else ("B", "A")
    start = LanceBetting.start(b.lance, b.mano, b.participants, b.rules)
    models = seats.models
    keys = [
        tuple(models[s].key(view, s, deal, start) if s in b.participants else None for s in range(4)) for deal in deals
    ]
    kinds = [a for a in view.legal if isinstance(a, Action) and not (b.stakes and a.kind == "paso")]
    if also is not None and not any(a == also for a in kinds):
        kinds.append(also)
    first_deal: dict[tuple[object, ...], Deal] = {}
    for key, deal in zip(keys, deals, strict=True):
        first_deal.setdefault(key, deal)
    asked = _asked_for(view)
    pct_of: dict[tuple[int, object], float] = {}
    # per sequence of actions: the state reached and the seat to act next (None: the lance is closed)
    reached: dict[tuple[tuple[int, Action], ...], tuple[LanceBetting, int | None]] = {}

    def mixed(path: tuple[tuple[int, Action], ...], state: LanceBetting, s: int, key: tuple[object, ...]) -> tuple[tuple[Action, float], ...]:
        """What seat ``s`` says after ``path``: its model's actions with their probabilities."""
        memo = (path, s, key[s], models[s].name)
        got = asked.get(memo)
        if got is None:
            deal = first_deal[key]
            probs = models[s].probs(seat_view(view, s, deal, state))
            if probs:
                total = math.fsum(probs.values())
                got = tuple((x, p / total) for x, p in probs.items() if p > 0)
            else:  # the model has no answer for this seat here: the heuristic's
                u = pct_of.get((s, key[s]))
                if u is None:
                    u = pct_of[(s, key[s])] = hand_facts([deal], lance, view.rules.kings)[0][0][s]
                got = ((rollout_action(state, s, u, live, target), 1.0),)
            asked[memo] = got
        return got

    def spread(path: tuple[tuple[int, Action], ...], key: tuple[object, ...], p: float, out: list[tuple[float, BettingOutcome]]) -> None:
        """Every way the lance can end after ``path``, each seat mixing as its model says (probability p so far)."""
        if len(path) > 40:  # pragma: no cover - the rule bounds the raises
            raise MusError(Text("a rollout of the betting did not end"))
        got = reached.get(path)
        if got is None:
            prev = reached[path[:-1]][0] if len(path) > 1 else b
            st = prev.act(*path[-1])
            got = reached[path] = (st, None if st.closed else st.to_act[0])
        state, s = got
        if s is None:
            assert state.outcome is not None
            out.append((p, state.outcome))
            return
        for x, q in mixed(path, state, s, key):
            spread((*path, (s, x)), key, p * q, out)

    rest = rest_of_hand(view, deals)
    rows, stone_rows = [], []
    point_cache: dict[float, float] = {}
    figure: dict[tuple[int, int, tuple[int, int], float], tuple[float, float]] = {}

    def one(o: BettingOutcome, win: int, tv: tuple[int, int], more: float) -> tuple[float, float]:
        fk = (id(o), win, tv, more)
        got = figure.get(fk)
        if got is None:
            x = _net_stones(o, lance, win, tv, team)
            if x is None:  # an accepted órdago: the lance's winners win the game
                won = win >= 0 and win % 2 == team
                got = (100.0, float(target - live[us])) if won else (0.0, -float(target - live[them]))
            else:
                pts = point_cache.get(x + more)
                if pts is None:
                    pts = point_cache[x + more] = win_chance_points([x + more], live[us], live[them], target)[0]
                got = (pts, x)
            figure[fk] = got
        return got

    for a in kinds:
        memo: dict[tuple[object, ...], list[tuple[float, BettingOutcome]]] = {}
        row, srow = [], []
        for key, win, tv, more in zip(keys, winners, team_vals, rest, strict=True):
            ends = memo.get(key)
            if ends is None:
                ends = memo[key] = []
                spread(((view.seat, a),), key, 1.0, ends)
            if len(ends) == 1:
                pts, x = one(ends[0][1], win, tv, more)
            else:
                figs = [(p, one(o, win, tv, more)) for p, o in ends]
                pts = math.fsum(p * f[0] for p, f in figs)
                x = math.fsum(p * f[1] for p, f in figs)
            row.append(pts)
            srow.append(x)
        rows.append(tuple(row))
        stone_rows.append(tuple(srow))
    return RolloutValues(
        tuple(kinds), tuple(rows), Unit.WIN_CHANCE, tuple(stone_rows), tuple(w),
        weighted_mean(win_chance_points(rest, live[us], live[them], target), w) if rest else 50.0,
        points_per_stone(live[us], live[them], target),
    )  # fmt: skip
