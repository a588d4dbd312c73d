"""Benchmark of the strategy's decision lookup and of the beliefs (issue 25).

Run:  .venv/bin/python benchmarks/bench_strategy_lookup.py [--games 20] [--deals 400]

Plays ``--games`` whole games between four strong bots and, at every betting decision, times
:func:`musteach.play.strategy.policy` (the decision looked up) and :func:`musteach.play.beliefs.deal_weights`
over ``--deals`` sampled deals (:func:`musteach.play.odds_bot.sample_deals`, not timed). Prints the first
lookup of the process (it opens the table) and the median and 95th percentile of the rest, in milliseconds,
and the effective number of deals the beliefs leave (how much what was said narrows the hidden hands).
"""

from __future__ import annotations

import argparse
import statistics
import time

from musteach.play.beliefs import deal_weights
from musteach.play.game import Game
from musteach.play.levels import make_bot
from musteach.play.odds_bot import sample_deals
from musteach.play.strategy import policy


def pct(xs: list[float], q: float) -> float:
    """The q-quantile of xs (nearest rank)."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--deals", type=int, default=400)
    args = ap.parse_args()
    lookups: list[float] = []
    beliefs: list[float] = []
    eff: list[float] = []
    first = None
    for seed in range(args.games):
        g = Game(seed=seed)
        bots = {s: make_bot("strong", seed=seed) for s in range(4)}
        hands = 0
        while not g.is_over and hands < 12:
            if g.hand.is_over:
                g.next_hand()
                hands += 1
                continue
            t = g.to_act
            assert t is not None
            v = g.view(t.seat)
            if v.betting is not None:
                t0 = time.perf_counter()
                policy(v)
                dt = (time.perf_counter() - t0) * 1000
                if first is None:
                    first = dt
                else:
                    lookups.append(dt)
                deals = sample_deals(v, args.deals)
                t0 = time.perf_counter()
                w = deal_weights(v, deals)
                beliefs.append((time.perf_counter() - t0) * 1000)
                eff.append(float(1.0 / (w**2).sum()) / len(deals))
            g.act(t.seat, bots[t.seat].decide(v))
    print(f"policy(view): first {first:.1f} ms (opens the table); then median {statistics.median(lookups):.3f} ms, "
          f"p95 {pct(lookups, 0.95):.3f} ms over {len(lookups)} decisions")
    print(f"deal_weights(view, {args.deals} deals): median {statistics.median(beliefs):.1f} ms, p95 {pct(beliefs, 0.95):.1f} ms; "
          f"effective share of deals left: median {statistics.median(eff):.2f}, p5 {pct(eff, 0.05):.2f}")


if __name__ == "__main__":
    main()
