"""Benchmark of the coach's grading: the time per graded decision, the sampling error of its figures, and
how the strong level's own decisions grade.

Run:  .venv/bin/python benchmarks/bench_coach.py [--games 4] [--deals 400]

Four strong-level bots (musteach.play.levels, Level.STRONG) play whole games; every decision of seat 0 is
graded before it is played (musteach.teach.grading.grade_decision, the coach's figures). Prints the median
and p95 time per graded decision (warm: the exact advisor's tables are built first), by method; the
sampling error (one standard error, stones; points of win chance near the end of a game) of each action's
expected figure and of the stones lost; and the distribution of the grades of the strong bot's own
decisions, by method. Figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter, defaultdict

from musteach.play.bots import run
from musteach.play.game import Game
from musteach.play.levels import Level, make_bot
from musteach.rules.options import Rules
from musteach.teach.coach import prepare
from musteach.teach.grading import DecisionGrade, Grade, Method, Unit, grade_decision


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
            t0 = time.perf_counter()
            gr = grade_decision(v, a, n=args.deals)
            times[gr.method].append(time.perf_counter() - t0)
            grades.append(gr)
            g.act(0, a)
    every = [t for ts in times.values() for t in ts]
    print(f"graded decisions: {len(every)} in {args.games} games ({args.deals} deals per betting figure)")
    print(f"time per decision: median {statistics.median(every) * 1000:.0f} ms, p95 {q(every, 0.95) * 1000:.0f} ms")
    for m, ts in times.items():
        print(f"  {m.value:15s} {len(ts):4d}: median {statistics.median(ts) * 1000:.0f} ms, p95 {q(ts, 0.95) * 1000:.0f} ms")
    for unit in Unit:
        roll = [g for g in grades if g.method is Method.ROLLOUT and g.unit is unit]
        if not roll:
            continue
        errs = [v.error for g in roll for v in g.values]
        lerr = [g.loss_error for g in roll if g.loss > 0]
        print(
            f"sampling error (1 s.e., {unit.value}) of an expected figure, {len(roll)} betting decisions: "
            f"median {statistics.median(errs):.3f}, p95 {q(errs, 0.95):.3f}"
        )
        if lerr:
            print(f"  of the loss (non-best decisions): median {statistics.median(lerr):.3f}, p95 {q(lerr, 0.95):.3f}")
    print("grades of the strong bot's own decisions:")
    for m in Method:
        c = Counter(gr.grade for gr in grades if gr.method is m)
        if c:
            n = sum(c.values())
            shares = ", ".join(f"{gd.value} {c[gd]} ({c[gd] / n:.0%})" for gd in Grade)
            print(f"  {m.value:15s} {n:4d}: {shares}")


if __name__ == "__main__":
    main()
