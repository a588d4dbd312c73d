"""Benchmark of the strong level's adaptation to its opponents (issue 25): how long a betting decision takes
(the table alone, and where it values its actions against its model of the opponents), and what the model
reads of each opponent at the end of a match.

Run:  .venv/bin/python benchmarks/bench_adapt_decision.py [--matches 6] [--opponent club]

It plays whole matches (musteach.play.bots.play_match) of the strong level (seats 0 and 2) against
``--opponent``, times every betting decision of the strong seats, and prints the median and 95th percentile in
ms of the decisions played from the table and of those valued against the model, then the posterior that each
opponent seat is a value bettor and how many of its actions were weighed. Figures depend on the machine and
its load.
"""

from __future__ import annotations

import argparse
import statistics
import time

from musteach.play.bots import play_match
from musteach.play.game import GameAction, View
from musteach.play.levels import make_bot
from musteach.play.strategy.bot import ADAPT_AT, StrategyBot
from musteach.rules.errors import MusError


class _Timed(StrategyBot):
    """The strong level, timing its betting decisions by kind (table / model)."""

    def __init__(self, seed: int, times: dict[str, list[float]]):
        super().__init__(seed=seed, name="timed", adapt=True)
        self.times = times

    def decide(self, view: View) -> GameAction:
        if view.betting is None or view.lance is None:
            return super().decide(view)
        t0 = time.perf_counter()
        action = super().decide(view)
        ms = (time.perf_counter() - t0) * 1000
        kind = "table"
        try:
            from musteach.play.strategy import policy

            if self.high_stakes(view, policy(view)) and self.opponents_value(view) >= ADAPT_AT:
                kind = "model"
        except MusError:
            kind = "fallback"
        self.times.setdefault(kind, []).append(ms)
        return action


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=6)
    ap.add_argument("--opponent", default="club")
    args = ap.parse_args()
    times: dict[str, list[float]] = {}
    for seed in range(args.matches):
        bots = [_Timed(seed, times) if s % 2 == 0 else make_bot(args.opponent, seed=seed + 7919) for s in range(4)]
        play_match(bots, seed=seed)
        me = bots[0]
        assert isinstance(me, StrategyBot)
        seen = ", ".join(f"seat {s}: P(value bettor) {me.opponents.p_value(s):.3f} after {r.actions} actions" for s, r in sorted(me.opponents.seats.items()))
        print(f"match {seed}: {seen}", flush=True)
    for kind, ts in sorted(times.items()):
        ts.sort()
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(f"{kind}: {len(ts)} decisions, median {statistics.median(ts):.1f} ms, p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
