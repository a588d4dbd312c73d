"""Rollouts of a lance's betting: what each action of a seat is worth, the lance played to its end by the
strong level's policy (RULES.md §6, §7).

:func:`betting_values` is the coach's evaluator of a betting decision (:mod:`musteach.teach.grading`). Every
seat of a rollout plays :func:`rollout_action`, a fast model of the strong level's betting
(:class:`~musteach.play.odds_bot.OddsBot`): its thresholds on the chance of winning the lance, and its prior
on what a bet says about the bettor's hand (:func:`chance_against_bet`). For one view it draws random deals
of the unseen cards that fit the partner's señas and the declarations
(:func:`~musteach.play.odds_bot.sample_deals`), judges each lance with the integer tables of
:mod:`musteach.play.deals` (the winners of :func:`~musteach.rules.batch.evaluate_batch`, without numpy), and
after each candidate action plays the lance out, counting the whole lance: the deje of a refused bet (with
the bettors' pares / juego values, or punto's stone), an accepted stake plus the values, and an accepted
órdago. The model is not exact: OddsBot weighs its own
estimate, learns its opponents, and never bluffs, so its own betting does not always rank first here
(``benchmarks/bench_coach.py`` prints how its decisions grade).

Two units (:class:`Unit`): the net stones of the lance (the seat's team minus the opponents'), or, near the
end of a game (:func:`near_end`: a team is :data:`NEAR_END` stones or fewer from the target), the team's
chance of winning the game after the lance, in points of 100 (:func:`~musteach.play.policy.match_equity`
on the score after the lance; an accepted órdago is 100 or 0).

>>> team_chance(0.0) < team_chance(0.5) < team_chance(1.0) == 1.0
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from ..i18n import Text
from ..rules.betting import ORDAGO, Action, BettingOutcome, LanceBetting
from ..rules.errors import MusError
from ..rules.lances import LANCES, Lance
from .deals import keys_for, pairwise_mean, pairwise_std
from .odds_bot import hand_facts, sample_deals
from .policy import deje_if_refused, match_equity
from .view import View

__all__ = [
    "BET_AT",
    "NEAR_END",
    "ORDAGO_AT",
    "RAISE_AT",
    "ROLLOUT_DEALS",
    "RolloutValues",
    "Unit",
    "betting_values",
    "chance_against_bet",
    "floor_percentile",
    "near_end",
    "rollout_action",
    "team_chance",
    "win_chance_points",
]

#: Random deals of the unseen cards behind a betting figure (the strong level's and the coach's).
ROLLOUT_DEALS = 400
#: Near the end of a game: a team needs this many stones or fewer to win it.
NEAR_END = 10
#: The strong level's thresholds on the chance of winning the lance, for the seats of a rollout.
BET_AT, RAISE_AT, ORDAGO_AT = 0.66, 0.82, 0.97


class Unit(Enum):
    """What a betting figure counts: net stones of the lance, or the chance (points of 100) of winning the game."""

    STONES = "stones"
    WIN_CHANCE = "win chance"


def near_end(view: View) -> bool:
    """True when a team needs :data:`NEAR_END` stones or fewer to win the game (from ``view.live_score``):
    then a lance's stones matter by how they change the chance of winning the game."""
    return min(view.to_go.values()) <= NEAR_END


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


def rollout_action(state: LanceBetting, seat: int, u: float, live: dict[str, int], target: int) -> Action:
    """What ``seat`` says in a rollout of the betting ``state`` when its hand has percentile ``u`` in the
    lance (RULES.md §6). Its chance p is :func:`team_chance` before any bet and :func:`chance_against_bet`
    facing one. It opens envido 2 from p = 0.66, more from 0.82; facing a bet, it raises 2 from 0.82,
    accepts when the stake is worth more than the deje it would give away, and accepts an órdago (or a stake
    that ends the game) when p beats the chance of winning the game anyway
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
    stake = state.current_stake
    d = deje_if_refused(state)
    if stake == ORDAGO or int(stake) >= min(target - live[us], target - live[them]):  # type: ignore[arg-type]  # stake is an int here
        # the game is at stake: the hand's own chance, as a player who will not be bluffed out of it
        p = team_chance(u)
        return Action("quiero") if p > match_equity(live[us], live[them] + d, target) else Action("no_quiero")
    p = chance_against_bet(u, state)
    if p >= RAISE_AT and len(state.stakes) < 4:
        return Action("reenvido", 2)
    s = int(stake)  # type: ignore[arg-type]  # not an órdago (handled above)
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
        raise MusError(Text("a rollout of the betting did not end"))
    assert state.outcome is not None
    return state.outcome


def _payoffs(
    outcomes: list[BettingOutcome],
    which: list[int],
    lance: Lance,
    winners: list[int],
    team_vals: list[tuple[int, int]],
    team: int,
    live: dict[str, int],
    target: int,
) -> list[float]:
    """Net stones (the team's minus the opponents') of the lance in each deal (RULES.md §6, §7).

    outcomes: the distinct outcomes of the betting; which: per deal, the index of its outcome.
    winners: per deal, the seat with the best hand in the lance (-1: none). team_vals: per deal, each team's
    pares or juego values (0 for the other lances). An accepted órdago is worth the stones each team still needs.
    """
    bonus = 1.0 if lance is Lance.PUNTO else 0.0
    us, them = ("A", "B") if team == 0 else ("B", "A")
    values_lance = lance in (Lance.PARES, Lance.JUEGO)
    out = []
    for k, w, tv in zip(which, winners, team_vals, strict=True):
        sign = 0.0 if w < 0 else (1.0 if w % 2 == team else -1.0)
        o = outcomes[k]
        if o.type == "ordago_accepted":
            out.append(float(target - live[us]) if sign > 0 else -float(target - live[them]))
        elif o.type == "rejected":
            bettors = 0 if o.winner_team == "A" else 1
            s = 1.0 if bettors == team else -1.0
            out.append(s * (o.deje + tv[bettors] + bonus))
        elif o.type == "accepted":
            out.append(sign * (int(o.stakes[-1]) + tv[max(w, 0) % 2] + bonus))
        elif values_lance:
            out.append(sign * tv[max(w, 0) % 2])
        else:
            out.append(sign)
    return out


def win_chance_points(net: list[float], us: int, them: int, target: int) -> list[float]:
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


def _shown(x: float, digits: int) -> float:
    """``numpy.round(x, digits)``: x scaled by 10**digits, rounded half to even, scaled back."""
    f = 10.0**digits
    return round(x * f) / f


@dataclass(frozen=True)
class RolloutValues:
    """What each betting action of a seat is worth (see the module docstring).

    actions: the actions weighed (the legal ones, and the one asked about). rows: per action, the figure of
    that action in each of the m random deals (the same deals for every action), in ``unit``.
    means: each action's mean figure; errors: its standard error (one s.e., same unit). stone_rows: near
    the end, the net stones behind the win chances (else None: ``rows`` are stones).
    """

    actions: tuple[Action, ...]
    rows: tuple[tuple[float, ...], ...]
    unit: Unit
    stone_rows: tuple[tuple[float, ...], ...] | None = None

    @property
    def stones(self) -> tuple[float, ...]:
        """Per action, its net stones of the lance, averaged (whatever the unit)."""
        return tuple(pairwise_mean(r) for r in (self.rows if self.stone_rows is None else self.stone_rows))

    @property
    def samples(self) -> int:
        """Random deals behind the figures."""
        return len(self.rows[0]) if self.rows else 0

    @property
    def means(self) -> tuple[float, ...]:
        """Per action, its figure averaged over the deals."""
        return tuple(pairwise_mean(r) for r in self.rows)

    @property
    def errors(self) -> tuple[float, ...]:
        """Per action, one standard error of its mean (0 with fewer than 2 deals)."""
        m = self.samples
        if m < 2:
            return (0.0,) * len(self.actions)
        return tuple(pairwise_std(r, ddof=1) / math.sqrt(m) for r in self.rows)

    def best(self) -> Action:
        """The action with the highest figure, rounded as it is shown (0.1 stone, 1 point of 100); among
        equals the first weighed."""
        shown = [_shown(x, 1 if self.unit is Unit.STONES else 0) for x in self.means]
        return self.actions[shown.index(max(shown))]


def betting_values(view: View, also: Action | None = None, *, n: int = ROLLOUT_DEALS, seed: int = 0) -> RolloutValues:
    """The figure of every betting action of ``view.seat`` now (and of ``also``, when it is not among them),
    over ``n`` random deals (seeded: the same view, n and seed give the same figures); see the module
    docstring. Facing a bet, paso is left out (it refuses, like no quiero). Raises :class:`MusError` when no
    lance is being bet.
    """
    b, lance = view.betting, view.lance
    if b is None or lance is None:
        raise MusError(Text("there is no betting to weigh in phase {phase}", phase=view.phase.value))
    deals = sample_deals(view, n, seed)
    winners = keys_for(view.rules).lance_winners(deals, view.mano, LANCES.index(lance))
    pct, pv, jv = hand_facts(deals, lance, view.rules.kings)
    vals = pv if lance is Lance.PARES else jv if lance is Lance.JUEGO else None
    team_vals = [(v[0] + v[2], v[1] + v[3]) for v in vals] if vals is not None else [(0, 0)] * len(deals)
    # Percentiles in steps of 0.1: deals that differ less share one rollout.
    out_of = [s not in b.participants for s in range(4)]
    keys = [tuple(0.0 if out_of[s] else round(p[s] * 10) / 10 for s in range(4)) for p in pct]
    kinds = [a for a in view.legal if isinstance(a, Action) and not (b.stakes and a.kind == "paso")]
    if also is not None and not any(a == also for a in kinds):
        kinds.append(also)
    live, target, team = dict(view.live_score), view.rules.target, view.seat % 2
    rows = []
    for a in kinds:
        memo: dict[tuple[float, ...], int] = {}
        outcomes: list[BettingOutcome] = []
        which = []
        for key in keys:
            j = memo.get(key)
            if j is None:
                o = _play_out(b, view.seat, a, key, live, target)
                j = memo[key] = outcomes.index(o) if o in outcomes else len(outcomes)
                if j == len(outcomes):
                    outcomes.append(o)
            which.append(j)
        rows.append(tuple(_payoffs(outcomes, which, lance, winners, team_vals, team, live, target)))
    if near_end(view):
        us, them = ("A", "B") if team == 0 else ("B", "A")
        points = tuple(tuple(win_chance_points(list(r), live[us], live[them], target)) for r in rows)
        return RolloutValues(tuple(kinds), points, Unit.WIN_CHANCE, tuple(rows))
    return RolloutValues(tuple(kinds), tuple(rows), Unit.STONES)
