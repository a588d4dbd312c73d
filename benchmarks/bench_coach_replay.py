"""Calibration of the coach (issue 25): do its grades come true when the hand is replayed?

Run:  .venv/bin/python benchmarks/bench_coach_replay.py [--decisions 1000] [--mistakes 200] [--deals 400] [--seed 0]
      [--replays 8]

1. All four seats play the strategy (the strong level, :func:`musteach.play.levels.make_bot`; the computed
   strategy once it is installed). Before each betting decision of any seat, the coach grades the action the
   seat is about to play (:func:`musteach.teach.grading.grade_decision`, from that seat's view: the points
   of win chance its best action gains over the played one, the *predicted gain*). The hand is then
   replayed from the same state twice, once with the coach's best and once with the played action, every
   seat (copies of the same bots, in the same state) playing on to the end of the hand with the real
   hidden hands (a betting decision comes after the last discard, so no card is left to be drawn: the
   unseen stock plays no part). Each action is replayed ``--replays`` times, the bots' mixed choices drawn
   anew each time (their seeds moved on), and the realised figures averaged. The *realised gain* is the difference of the team's chance of winning the
   game after the hand (100 or 0 when the game ended, else
   :func:`~musteach.play.policy.match_equity` of the score). Printed: the least-squares slope of realised
   against predicted gain (with and without an intercept, and its standard error) over all decisions,
   over those where the coach's best differs from the played action, and over órdago decisions alone
   (the best or the played action is an órdago), with robust (HC1) errors; goal 0.8-1.2. Also a calibration
   table: per bin of predicted gain, the mean predicted against the mean realised gain.
2. Games of four club players (:attr:`~musteach.play.levels.Level.CLUB`): every betting decision the coach
   grades a mistake or a blunder is replayed the same way, until ``--mistakes`` are collected; printed: the
   mean realised gain of the coach's best over the played action with its 95% interval (goal: above 0),
   also for those graded with confidence (not "too close to call").
3. The coach's comment (:func:`musteach.teach.coach.coach_comment`) on every decision of seat 0 in part 1's
   first games, mus and discards included: median and p95 time (goal: p95 at most 100 ms).

The coach knows who sits at the table (``--models seats``, the default): its beliefs and its rollouts model
every seat by its own level (:mod:`musteach.play.seat_models`; in part 2 the deciding club player too, as it
goes on playing as a club player in the replays); ``--models strategy`` models every seat by the strategy
(as before the seat models). The bots show their señas once the cards are final, as at the table. Develop
with another ``--seed`` than the one a reported run uses.

``--check-model GAMES`` only prints how the strong level's seat model matches its play (model probability
against the frequency played; views where the model, asked from another seat's view, differs; its mus calls,
asked from the next seat's view, against the calls the bot made). ``--measure-discard-prior GAMES`` prints
:data:`musteach.play.seat_models.AFTER_DISCARD`, the strong level's hands right after a discard.

Figures depend on the machine and its load (2 shared cores here); a run of the defaults takes a while.
Lesson 10's kernel memory is printed by ``benchmarks/bench_kernel_memory.py --lessons 10-play``.
"""

from __future__ import annotations

import argparse
import copy
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from musteach.play.actions import MusCall
from musteach.play.bots import run
from musteach.play.game import Game
from musteach.play.levels import Level, make_bot
from musteach.play.policy import Bot, match_equity
from musteach.play.seat_models import SeatModels, seat_models
from musteach.rules.betting import Action
from musteach.rules.options import Rules
from musteach.teach.coach import coach_comment, prepare
from musteach.teach.grading import DecisionGrade, Grade, grade_decision


@dataclass(frozen=True)
class Replayed:
    """One decision replayed: the predicted and realised gains (points of win chance) of the coach's best
    over the played action, and what was graded."""

    predicted: float
    realised: float
    grade: DecisionGrade
    ordago: bool
    fresh: float = 0.0
    facing_ordago: bool = False
    discards: int = 0  # the mus rounds that ended in a discard before this hand's betting


def equity_after_hand(g: Game, team: str) -> float:
    """The team's chance (points of 100) of winning the game once the hand is over."""
    r = g.hand.result
    assert r is not None
    if r.game_over:
        return 100.0 if r.game_winner == team else 0.0
    them = "B" if team == "A" else "A"
    return 100.0 * match_equity(r.final_score[team], r.final_score[them], g.rules.target)


#: How many times each action of a decision is replayed (``--replays``): the bots' mixed choices drawn anew
#: each time (the real hidden hands kept), the realised figure their mean.
REPLAYS = 8


def play_out(g: Game, bots: dict[int, Bot], seat: int, action: object, draw: int = 0) -> Game:
    """A copy of ``g`` (and of the bots) where ``seat`` plays ``action``, then everybody to the hand's end;
    draw: which replay (above 0, every copied bot's sampling seed is moved on, so that the mixed strategies
    are drawn anew)."""
    g2, bots2 = copy.deepcopy((g, bots))
    if draw:
        for bot in bots2.values():
            if isinstance(getattr(bot, "seed", None), int):
                bot.seed = bot.seed + 100_003 * draw  # type: ignore[attr-defined]
    g2.act(seat, action)
    if not g2.hand.is_over:
        run(g2, bots2, hands=1)
    return g2


def replay(
    g: Game, bots: dict[int, Bot], seat: int, played: Action, gr: DecisionGrade, deals: int, seats: SeatModels | None
) -> Replayed:
    best = gr.best.action
    assert isinstance(best, Action)
    predicted = gr.best.stones - gr.chosen.stones
    ordago = played.kind == "ordago" or best.kind == "ordago"
    b = g.view(seat).betting
    facing = b is not None and bool(b.stakes) and b.current_stake == "ordago"
    if best == played:
        return Replayed(0.0, 0.0, gr, ordago, 0.0, facing, len(g.view(seat).changes))
    team = "A" if seat % 2 == 0 else "B"
    a = statistics.fmean(equity_after_hand(play_out(g, bots, seat, best, k), team) for k in range(REPLAYS))
    b_ = statistics.fmean(equity_after_hand(play_out(g, bots, seat, played, k), team) for k in range(REPLAYS))
    # the same two actions weighed on other deals: free of the choice's own sampling luck
    again = grade_decision(g.view(seat), played, n=deals, seed=1, seats=seats)
    fig = {str(v.action): v.stones for v in again.values}
    fresh = fig[str(best)] - fig[str(played)]
    return Replayed(predicted, a - b_, gr, ordago, fresh, facing, len(g.view(seat).changes))


#: Whether the bots show their señas (``--no-senas``: as in the runs before the seat models).
SENAS = True


def show_senas(g: Game, bots: dict[int, Bot], shown: set[tuple[int, int]]) -> None:
    """Once the cards are final, every bot shows its partner its señas, mano first, as
    :func:`~musteach.play.bots.run` does at the table (``shown``: the (hand, seat) already asked)."""
    h = g.hand
    if not h.cards_final or g.rules.senas == "off":
        return
    for seat in h.order:
        if (h.number, seat) in shown:
            continue
        shown.add((h.number, seat))
        for sena in bots[seat].signals(g.view(seat)):
            if g.can_signal(seat, sena):
                g.signal(seat, sena)


def collect(
    level: Level, want: Callable[[DecisionGrade], bool], count: int, deals: int, first_seed: int, label: str,
    models: str = "seats",
) -> list[Replayed]:
    """Replay betting decisions of games of four ``level`` bots that ``want`` keeps, until ``count``. models:
    "seats" (the coach knows every seat plays ``level``, the deciding seat included, as it goes on playing
    in the replays) or "strategy" (every seat modelled by the strategy, as before the seat models)."""
    out: list[Replayed] = []
    seed = first_seed
    started = time.perf_counter()
    while len(out) < count:
        g = Game(seed=seed)
        bots: dict[int, Bot] = {s: make_bot(level, seed=s) for s in range(4)}
        shown: set[tuple[int, int]] = set()
        while not g.is_over and len(out) < count:
            run(g, bots, stop_at=range(4), hands=1)
            if g.hand.is_over:
                if g.is_over:
                    break
                g.next_hand()
                continue
            if SENAS:
                show_senas(g, bots, shown)
            t = g.to_act
            assert t is not None
            v = g.view(t.seat)
            a = bots[t.seat].decide(v)
            if v.phase.is_betting and isinstance(a, Action):
                seats = seat_models(level.value, t.seat, own=level.value) if models == "seats" else None
                gr = grade_decision(v, a, n=deals, seats=seats)
                if want(gr):
                    out.append(replay(g, bots, t.seat, a, gr, deals, seats))
                    if len(out) % 100 == 0:
                        el = time.perf_counter() - started
                        print(f"  {label}: {len(out)} decisions ({el:.0f} s)", file=sys.stderr, flush=True)
            g.act(t.seat, a)
        seed += 1
    return out


def dump(rows: list[Replayed], path: str) -> None:
    """Write ``rows`` as JSON Lines to ``path`` (one decision a line)."""
    import json

    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            gr = r.grade
            f.write(json.dumps({
                "predicted": r.predicted, "realised": r.realised, "fresh": r.fresh, "ordago": r.ordago,
                "facing_ordago": r.facing_ordago, "discards": r.discards,
                "lance": gr.lance.value if gr.lance else None, "per_stone": gr.per_stone,
                "best": str(gr.best.action), "played": str(gr.action), "error": gr.loss_error,
                "grade": gr.grade.value, "too_close": gr.too_close, "moment": gr.moment,
            }) + "\n")  # fmt: skip


def robust_error(xs: list[float], ys: list[float]) -> float:
    """The heteroscedasticity-robust (White, HC1) standard error of the least-squares slope of ys on xs (with
    an intercept): the realised gains of a few órdago decisions (±50 points) dwarf the others', so the plain
    error understates the slope's uncertainty."""
    n = len(xs)
    if n < 3:
        return math.nan
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return math.nan
    b = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    a = my - b * mx
    meat = math.fsum((x - mx) ** 2 * (y - a - b * x) ** 2 for x, y in zip(xs, ys, strict=True))
    return math.sqrt(meat / sxx**2 * n / (n - 2))


def slope(xs: list[float], ys: list[float], *, intercept: bool) -> tuple[float, float]:
    """Least-squares slope of ys on xs and its standard error (nan when undefined)."""
    n = len(xs)
    if n < 3:
        return math.nan, math.nan
    mx, my = (statistics.fmean(xs), statistics.fmean(ys)) if intercept else (0.0, 0.0)
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return math.nan, math.nan
    b = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    a = my - b * mx
    resid = math.fsum((y - a - b * x) ** 2 for x, y in zip(xs, ys, strict=True))
    dof = n - (2 if intercept else 1)
    return b, math.sqrt(resid / dof / sxx)


def report_slopes(rows: list[Replayed], label: str, *, fresh: bool = False) -> None:
    xs, ys = [r.fresh if fresh else r.predicted for r in rows], [r.realised for r in rows]
    b0, e0 = slope(xs, ys, intercept=False)
    b1, e1 = slope(xs, ys, intercept=True)
    mp = statistics.fmean(xs) if xs else math.nan
    mr = statistics.fmean(ys) if ys else math.nan
    hc = robust_error(xs, ys)
    print(
        f"  {label:34s} n={len(rows):5d}  slope {b1:6.2f} ± {e1:4.2f} (robust ± {hc:4.2f}; through 0: {b0:6.2f} ± {e0:4.2f})  "
        f"mean predicted {mp:6.2f}, realised {mr:6.2f} points"
    )


#: The predicted-gain bins of the calibration table (points of win chance; the last is open).
BINS = (0.0, 0.5, 2.0, 5.0, 10.0, 25.0)


def calibration_table(rows: list[Replayed], label: str) -> None:
    """Print, per bin of predicted gain (:data:`BINS`; decisions whose best is the played action apart), the
    number of decisions, their mean predicted and mean realised gain with its standard error."""
    print(f"  calibration table, {label}: bin of predicted gain | n | mean predicted | mean realised ± se")
    same = [r for r in rows if r.predicted == 0 and r.realised == 0]
    print(f"    best = played          {len(same):5d}")
    rest = [r for r in rows if not (r.predicted == 0 and r.realised == 0)]
    for i, lo in enumerate(BINS):
        hi = BINS[i + 1] if i + 1 < len(BINS) else math.inf
        got = [r for r in rest if lo <= r.predicted < hi]
        if not got:
            continue
        ys = [r.realised for r in got]
        se = statistics.stdev(ys) / math.sqrt(len(ys)) if len(ys) > 1 else math.nan
        print(f"    [{lo:5.1f}, {hi:5.1f})        {len(got):5d}   {statistics.fmean(r.predicted for r in got):7.2f}   "
              f"{statistics.fmean(ys):7.2f} ± {se:5.2f}")


def mean_interval(ys: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(ys)
    se = statistics.stdev(ys) / math.sqrt(len(ys)) if len(ys) > 1 else math.nan
    return m, m - 1.96 * se, m + 1.96 * se


def q(xs: list[float], f: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(f * len(s)))]


def comment_times(games: int, cpu: list[float] | None = None) -> list[float]:
    """Seconds per coach comment on every decision of seat 0 (mus and discards too) in strong-level games
    (wall clock; ``cpu``, when given, receives each comment's CPU seconds: the figure a loaded machine keeps)."""
    times: list[float] = []
    for seed in range(games):
        g = Game(seed=1000 + seed)
        bots = {s: make_bot(Level.STRONG, seed=s) for s in range(4)}
        while not g.is_over:
            run(g, {s: b for s, b in bots.items() if s != 0}, stop_at=[0], hands=1)
            if g.hand.is_over:
                if g.is_over:
                    break
                g.next_hand()
                continue
            v = g.view(0)
            a = bots[0].decide(v)
            t0, c0 = time.perf_counter(), time.process_time()
            coach_comment(v, a)
            times.append(time.perf_counter() - t0)
            if cpu is not None:
                cpu.append(time.process_time() - c0)
            g.act(0, a)
    return times


def measure_prior(games: int) -> None:
    """Print :data:`musteach.play.rollout.AFTER_MUS`: how much likelier than a random hand each (Grande
    quartile, pares value) cell is among the strong level's hands at the start of the lances, in hands that
    went through at least one discard round (``games`` games of self-play; 50 pseudo-hands of smoothing)."""

    from musteach.play.deals import rank_id
    from musteach.play.rollout import after_mus_cell

    seen: dict[tuple[int, int], int] = {}
    for seed in range(games):
        g = Game(seed=seed)
        bots: dict[int, Bot] = {s: make_bot(Level.STRONG, seed=s) for s in range(4)}
        while not g.is_over:
            run(g, bots, stop_at=range(4), hands=1)
            while not g.hand.is_over and not (g.view(0).phase.is_betting or g.view(0).phase.is_declaration):
                t = g.to_act
                assert t is not None
                g.act(t.seat, bots[t.seat].decide(g.view(t.seat)))
                run(g, bots, stop_at=range(4), hands=1)
            if not g.hand.is_over and any(any(c) for c in g.view(0).changes):
                for s in range(4):
                    cell = after_mus_cell(rank_id(sorted(c.index for c in g.view(s).cards)), 8)
                    seen[cell] = seen.get(cell, 0) + 1
            run(g, bots, hands=1)
            if g.is_over:
                break
            g.next_hand()
    print(f"AFTER_MUS over {sum(seen.values())} hands: {cell_ratios(seen)}")


def cell_ratios(seen: dict[tuple[int, int], int]) -> tuple[tuple[float, ...], ...]:
    """How much likelier than a random hand each (Grande quartile, pares value) cell is among the hands counted
    in ``seen`` (against 40,000 random hands; 50 pseudo-hands of smoothing), as the seat models' prior tables."""
    import random

    from musteach.play.deals import after_mus_cell, rank_id

    rng = random.Random(1)
    ref: dict[tuple[int, int], int] = {}
    for _ in range(40_000):
        cell = after_mus_cell(rank_id(sorted(rng.sample(range(40), 4))), 8)
        ref[cell] = ref.get(cell, 0) + 1
    tot, rt, k = sum(seen.values()), sum(ref.values()), 50
    rows = []
    for gq in range(4):
        row = []
        for pv in range(4):
            rf = ref.get((gq, pv), 0) / rt
            row.append(round((seen.get((gq, pv), 0) + k * rf) / (tot + k) / rf, 2) if rf > 0 else 1.0)
        rows.append(tuple(row))
    return tuple(rows)


def measure_discard_prior(games: int, first_seed: int) -> None:
    """Print :data:`musteach.play.seat_models.AFTER_DISCARD`: how much likelier than a random hand each (Grande
    quartile, pares value) cell is among the strong level's hands right after a discard (at the start of each
    mus round after the first, before anybody speaks: the prior that the calls of that round then weigh;
    ``games`` games of self-play from ``first_seed``; 50 pseudo-hands of smoothing)."""

    from musteach.play.deals import after_mus_cell, rank_id

    seen: dict[tuple[int, int], int] = {}
    for seed in range(first_seed, first_seed + games):
        g = Game(seed=seed)
        bots: dict[int, Bot] = {s: make_bot(Level.STRONG, seed=s) for s in range(4)}
        while not g.is_over:
            t = g.to_act
            if t is None:
                if g.is_over:
                    break
                g.next_hand()
                continue
            v = g.view(t.seat)
            if v.phase == "mus" and v.mus_round >= 2 and len(v.mus_calls) < v.mus_round:  # a discard just made
                for s in range(4):
                    cell = after_mus_cell(rank_id(sorted(c.index for c in g.view(s).cards)), 8)
                    seen[cell] = seen.get(cell, 0) + 1
            g.act(t.seat, bots[t.seat].decide(v))
            if g.hand.is_over and not g.is_over:
                g.next_hand()
    print(f"AFTER_DISCARD over {sum(seen.values())} hands: {cell_ratios(seen)}")


def check_model(games: int, first_seed: int) -> None:
    """Print how well the strong level's seat model (:class:`~musteach.play.seat_models.StrategyModel`)
    matches what the strong level does, over every betting decision of ``games`` games of self-play (señas
    shown): per bin of the model's probability of an action, how often the bot played it (model p against
    empirical frequency); how often the model has no answer (the bot then bets as the odds bot); and in how
    many decisions the model, asked from each other seat's view rebuilt with the real hands
    (:func:`~musteach.play.seat_models.seat_view`, as the beliefs ask it), gives other probabilities than
    from the bot's own view."""
    from musteach.play.seat_models import StrategyModel, seat_view

    m = StrategyModel()
    bins = [[0.0, 0] for _ in range(10)]  # per tenth of model p: (played, asked)
    none = differ = asked = 0
    mus = [[0, 0], [0, 0]]  # per model call (0 cut, 1 mus): [times the bot said mus, times asked]
    for seed in range(first_seed, first_seed + games):
        g = Game(seed=seed)
        bots: dict[int, Bot] = {s: make_bot(Level.STRONG, seed=s) for s in range(4)}
        shown: set[tuple[int, int]] = set()
        while not g.is_over:
            run(g, bots, stop_at=range(4), hands=1)
            if g.hand.is_over:
                if g.is_over:
                    break
                g.next_hand()
                continue
            show_senas(g, bots, shown)
            t = g.to_act
            assert t is not None
            v = g.view(t.seat)
            a = bots[t.seat].decide(v)
            if v.phase == "mus" and isinstance(a, MusCall):  # the mus call, from another seat's view
                other = g.view((t.seat + 1) % 4)
                p = m.mus_chance(other, t.seat, [c.index for c in v.cards])
                mus[int(p > 0.5)][0] += a.wants
                mus[int(p > 0.5)][1] += 1
            if v.betting is not None and isinstance(a, Action):
                asked += 1
                probs = m.probs(v)
                if probs is None:
                    none += 1
                else:
                    for x, p in probs.items():
                        row = bins[min(int(p * 10), 9)]
                        row[0] += x == a
                        row[1] += 1
                    deal = tuple(tuple(sorted(c.index for c in g.view(s).cards)) for s in range(4))
                    for o in (1, 2, 3):
                        seen = seat_view(g.view((t.seat + o) % 4), t.seat, deal, v.betting)  # type: ignore[arg-type]
                        if m.probs(seen) != probs:
                            differ += 1
                            break
            g.act(t.seat, a)
    print(f"model check: {asked} betting decisions of {games} games; the model has no answer in {none}; "
          f"other probabilities from another seat's view in {differ}")
    for i, (played, n) in enumerate(bins):
        if n:
            print(f"  model p in [{i / 10:.1f}, {(i + 1) / 10:.1f}): {n:6d} actions, played {played / n:.3f} of the time")
    for call, (said, n) in zip(("cut (p mus 0)", "mus (p mus 1)"), mus, strict=True):
        if n:
            print(f"  mus calls the model gives as {call}: {n:6d}, the bot said mus {said / n:.3f} of the time")


def part2(args: argparse.Namespace) -> None:
    """Part 2: decisions graded mistake or blunder in games of four club players, replayed."""
    t0 = time.perf_counter()
    bad = collect(
        Level.CLUB, lambda gr: gr.grade in (Grade.MISTAKE, Grade.BLUNDER), args.mistakes, args.deals,
        args.seed + 5000, "club", args.models,
    )
    print(f"2. {len(bad)} decisions graded mistake or blunder in games of four club players "
          f"({time.perf_counter() - t0:.0f} s)")
    if args.dump:
        dump(bad, args.dump + ".club")
    m, lo, hi = mean_interval([r.realised for r in bad])
    print(f"  realised gain of the coach's best: {m:.2f} points of win chance, 95% interval [{lo:.2f}, {hi:.2f}]; "
          f"predicted {statistics.fmean(r.predicted for r in bad):.2f}")
    sure = [r for r in bad if not r.grade.too_close]
    if len(sure) > 1:
        m, lo, hi = mean_interval([r.realised for r in sure])
        print(f"  of which {len(sure)} not too close to call: {m:.2f}, 95% interval [{lo:.2f}, {hi:.2f}]")
    report_slopes(bad, "slope over these")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--decisions", type=int, default=1000, help="betting decisions replayed in part 1")
    ap.add_argument("--mistakes", type=int, default=200, help="mistakes and blunders replayed in part 2")
    ap.add_argument("--deals", type=int, default=400, help="random deals behind each betting figure")
    ap.add_argument("--timing-games", type=int, default=2, help="games whose comments are timed in part 3")
    ap.add_argument("--dump", default="", help="write part 1's decisions as JSON Lines to this file (part 2's: .club)")
    ap.add_argument("--models", choices=("seats", "strategy"), default="seats",
                    help="the coach's seat models: every seat its level (seats) or the strategy everywhere")
    ap.add_argument("--no-senas", action="store_true", help="the bots show no señas (as the runs before)")
    ap.add_argument("--replays", type=int, default=8, help="replays of each action, averaged (bots reseeded)")
    ap.add_argument("--seed", type=int, default=0, help="first game seed of part 1 (part 2: this + 5000)")
    ap.add_argument("--check-model", type=int, default=0, metavar="GAMES",
                    help="only compare the strong level's seat model with what it plays, over GAMES games")
    ap.add_argument("--measure-prior", type=int, default=0, metavar="GAMES", help="only print AFTER_MUS, measured")
    ap.add_argument("--measure-discard-prior", type=int, default=0, metavar="GAMES",
                    help="only print AFTER_DISCARD (the hands right after a discard), measured")
    args = ap.parse_args()
    prepare(Rules())
    global SENAS, REPLAYS
    SENAS = not args.no_senas
    REPLAYS = max(1, args.replays)
    if args.check_model:
        check_model(args.check_model, args.seed)
        return
    if args.measure_prior:
        measure_prior(args.measure_prior)
        return
    if args.measure_discard_prior:
        measure_discard_prior(args.measure_discard_prior, args.seed)
        return

    t0 = time.perf_counter()
    rows = collect(Level.STRONG, lambda gr: True, args.decisions, args.deals, args.seed, "strategy", args.models)
    print(f"1. calibration: {len(rows)} betting decisions of games where all four seats play the strong level "
          f"({time.perf_counter() - t0:.0f} s)")
    if args.dump:
        dump(rows, args.dump)
    differ = [r for r in rows if r.predicted != 0 or r.realised != 0]
    report_slopes(rows, "all decisions")
    calibration_table(rows, "all decisions")
    calibration_table([r for r in rows if r.ordago], "órdago decisions")
    report_slopes(differ, "coach's best differs from played")
    report_slopes([r for r in rows if r.ordago], "órdago decisions (best or played)")
    report_slopes([r for r in differ if r.ordago], "  of which best differs")
    report_slopes([r for r in rows if not r.ordago], "other decisions")
    facing = [r for r in rows if r.facing_ordago]
    report_slopes(facing, "answers to an órdago")
    report_slopes([r for r in rows if not r.ordago and not r.facing_ordago], "neither")
    report_slopes([r for r in rows if not r.discards], "the mus cut at once (no discard)")
    report_slopes([r for r in rows if r.discards], "after a discard")
    print("  the coach's best against the played action weighed again on other deals (seed 1):")
    report_slopes(rows, "all decisions, fresh deals", fresh=True)
    report_slopes([r for r in rows if r.ordago], "órdago decisions, fresh deals", fresh=True)
    tiers = {g: sum(1 for r in rows if r.grade.grade is g) for g in Grade}
    close = sum(1 for r in rows if r.grade.too_close)
    print("  grades: " + ", ".join(f"{g.value} {n}" for g, n in tiers.items()) + f"; too close to call {close}")
    best_ordago = sum(1 for r in rows if getattr(r.grade.best.action, "kind", "") == "ordago")
    print(f"  órdago is the coach's best in {best_ordago} of {len(rows)} ({100 * best_ordago / max(len(rows), 1):.1f}%)")
    loss = [r.predicted for r in rows]
    o_loss = [r.predicted for r in rows if r.ordago]
    if sum(loss) > 0:
        print(f"  share of graded loss in órdago decisions: {100 * sum(o_loss) / sum(loss):.0f}%")

    if args.mistakes > 0:
        part2(args)
    if args.timing_games <= 0:
        return
    cpu: list[float] = []
    times = comment_times(args.timing_games, cpu)
    print(f"3. coach comment: {len(times)} decisions, median {statistics.median(times) * 1000:.0f} ms, "
          f"p95 {q(times, 0.95) * 1000:.0f} ms (CPU time: median {statistics.median(cpu) * 1000:.0f} ms, "
          f"p95 {q(cpu, 0.95) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
