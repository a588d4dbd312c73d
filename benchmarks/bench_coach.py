"""Benchmark of the coach's grading: the time per graded decision and the sampling error of its figures.

Run:  .venv/bin/python benchmarks/bench_coach.py [--games 4] [--deals 400]

Four strong-level bots (OddsBot) play whole games; every decision of seat 0 is graded before it is
played (musteach.teach.grading.grade_decision, the coach's figures). Prints the median and p90 time
per graded decision (warm: the exact advisor's tables are built first), by method, and the sampling
error of the betting figures: the median and p90 standard error of each action's figure and of the
stones lost. Figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from musteach.play.bots import OddsBot
from musteach.play.game import Game
from musteach.rules.options import Rules
from musteach.teach.coach import prepare
from musteach.teach.grading import DecisionGrade, Method, grade_decision


def q(xs: list[float], f: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(f * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--deals", type=int, default=400)
    args = ap.parse_args()
    prepare(Rules())
    times: dict[Method, list[float]] = defaultdict(list)
    grades: list[DecisionGrade] = []
    for seed in range(args.games):
        g = Game(seed=seed)
        bots = {s: OddsBot(seed=s) for s in range(4)}
        while not g.is_over:
            if g.hand.is_over:
                g.next_hand()
                continue
            turn = g.to_act
            assert turn is not None
            v = g.view(turn.seat)
            a = bots[turn.seat].decide(v)
            if turn.seat == 0:
                t0 = time.perf_counter()
                gr = grade_decision(v, a, n=args.deals)
                times[gr.method].append(time.perf_counter() - t0)
                grades.append(gr)
            g.act(turn.seat, a)
    every = [t for ts in times.values() for t in ts]
    print(f"graded decisions: {len(every)} in {args.games} games ({args.deals} deals per betting figure)")
    print(f"time per decision: median {statistics.median(every) * 1000:.0f} ms, p90 {q(every, 0.9) * 1000:.0f} ms")
    for m, ts in times.items():
        print(f"  {m.value:14s} {len(ts):4d}: median {statistics.median(ts) * 1000:.0f} ms, p90 {q(ts, 0.9) * 1000:.0f} ms")
    roll = [g for g in grades if g.method is Method.ROLLOUT]
    if roll:
        errs = [v.error for g in roll for v in g.values]
        lerr = [g.loss_error for g in roll if g.loss > 0]
        print(f"sampling error (1 s.e., stones) of a betting figure: median {statistics.median(errs):.3f}, p90 {q(errs, 0.9):.3f}")
        if lerr:
            print(f"sampling error of the stones lost (non-best decisions): median {statistics.median(lerr):.3f}, p90 {q(lerr, 0.9):.3f}")
    counts: dict[str, int] = defaultdict(int)
    for gr in grades:
        counts[gr.grade.value] += 1
    print("grades of the strong bot's own decisions:", dict(counts))


if __name__ == "__main__":
    main()
