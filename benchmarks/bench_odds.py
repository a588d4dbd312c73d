"""Benchmark of musteach.odds: exact lance odds for one hand, Monte Carlo for comparison, the discard advisor.

Run:  .venv/bin/python benchmarks/bench_odds.py [--hands 20] [--samples 100000] [--la-real-advisor]

Prints wall-clock times (median and max over several hands, caches cleared before each hand), the
time and the error of a Monte Carlo estimate of the same numbers (judged by musteach.rules.batch), and the
discard advisor's first call at every position (cold: every cache emptied, the shipped tables read again) in
8 and 4 reyes, and its warm time. The one-hand odds read the tables shipped in musteach/odds/data/; the
enumeration they come from is timed too. Figures depend on the machine and on its load.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np

from musteach import DECK, Hand, Rules
from musteach.odds import advise_discard, hand_odds
from musteach.odds.cache import advisor_table
from musteach.odds.enumeration import count_deals, space
from musteach.odds.tables import shipped_table
from musteach.rules.batch import evaluate_batch
from musteach.rules.lances import LANCES

NAMES = [lance.value for lance in LANCES]


def monte_carlo_odds(hand: Hand, seat: int, mano: int, rules: Rules, samples: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Monte Carlo estimate (not exact!) of P(seat s wins) for s = 0..3, then P(nobody), per lance."""
    rng = np.random.default_rng(seed)
    pool = np.array([c.index for c in DECK if c not in hand.cards], dtype=np.uint8)
    idx = np.argsort(rng.random((samples, len(pool))), axis=1)[:, :12]
    deals = np.empty((samples, 4, 4), dtype=np.uint8)
    deals[:, seat] = [c.index for c in hand]
    for k, r in enumerate((1, 2, 3)):
        deals[:, (seat + r) % 4] = pool[idx[:, 4 * k : 4 * k + 4]]
    w = evaluate_batch(deals, mano, rules, validate=False)
    return {name: np.array([np.mean(w[name] == s) for s in (0, 1, 2, 3, -1)]) for name in NAMES}


def _clear() -> None:
    count_deals.cache_clear()
    advisor_table.cache_clear()
    shipped_table.cache_clear()  # the shipped tables are read from disk again: a first call pays for it


def _counted_times(label: str, hands: list[tuple[Hand, int, int]], kings: int) -> None:
    """The enumeration itself (what the shipped tables hold), hand by hand, for comparison."""
    sp = space(kings, None)
    ts = []
    for hand, seat, mano in hands:
        me = sp.multiset_of(hand.cards)
        t = time.perf_counter()
        count_deals.__wrapped__(kings, None, tuple(int(v) for v in me), tuple(int(v) for v in sp.caps - me), (seat - mano) % 4)
        ts.append(time.perf_counter() - t)
    print(f"{label:<46} median {1000 * statistics.median(ts):7.1f} ms   max {1000 * max(ts):7.1f} ms   ({len(ts)} hands)")


def _advisor_first_calls(rules: Rules, label: str) -> None:
    """The advisor's first call at each distance from mano, every cache emptied before each."""
    ts = []
    for pos0 in range(4):
        _clear()
        t = time.perf_counter()
        advise_discard("12o 11c 7e 4b", seat=pos0, mano=0, rules=rules)
        ts.append(time.perf_counter() - t)
    each = " / ".join(f"{1000 * x:.0f}" for x in ts)
    print(f"advisor, {label}, first call at each position (cold): {each} ms; max {1000 * max(ts):.0f} ms")


def _times(label: str, hands: list[tuple[Hand, int, int]], rules: Rules, **kw) -> list[float]:
    ts, cpu = [], []
    for hand, seat, mano in hands:
        _clear()
        t, c = time.perf_counter(), time.process_time()
        hand_odds(hand, seat, mano, rules, **kw)
        ts.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    print(
        f"{label:<46} median {1000 * statistics.median(ts):7.1f} ms   max {1000 * max(ts):7.1f} ms   "
        f"(CPU median {1000 * statistics.median(cpu):.1f} ms; {len(ts)} hands)"
    )
    return ts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--la-real-advisor", action="store_true", help="also time the advisor under la real (counted)")
    args = ap.parse_args()
    print(f"musteach.odds benchmark on {os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.2f}")
    rng = random.Random(7)
    hands = [(Hand(rng.sample(DECK, 4)), rng.randrange(4), rng.randrange(4)) for _ in range(args.hands)]

    r8, r4 = Rules(), Rules(kings=4)
    t = time.perf_counter()
    space(8, None).plan(0)
    print(f"{'8 reyes: counting plans (partner, señas...)':<46} {1000 * (time.perf_counter() - t):7.1f} ms")
    for pos in range(1, 4):
        space(8, None).plan(pos)
    _times("8 reyes: all lances, one hand (exact)", hands, r8)
    _times("8 reyes: the same, exact Fractions", hands[:5], r8, exact=True)
    ts = []
    for hand, seat, mano in hands[:8]:
        rest = [c for c in DECK if c not in hand.cards]
        partner = Hand(rng.sample(rest, 4))
        _clear()
        t = time.perf_counter()
        hand_odds(hand, seat, mano, partner=partner)
        ts.append(time.perf_counter() - t)
    print(f"{'8 reyes: partner known':<46} median {1000 * statistics.median(ts):7.1f} ms   max {1000 * max(ts):7.1f} ms")
    t = time.perf_counter()
    for pos in range(4):
        space(4, None).plan(pos)
    print(f"{'4 reyes: counting plans (partner, señas...)':<46} {1000 * (time.perf_counter() - t):7.1f} ms")
    _times("4 reyes: all lances, one hand (shipped tables)", hands, r4)
    _counted_times("4 reyes: the same, counted (enumeration)", hands[:3], 4)
    _counted_times("8 reyes: the same, counted (enumeration)", hands[:6], 8)
    oros = Rules(la_real=True, la_real_figure="sota_de_oros")
    hand_odds("1o 1c 1e 1b", rules=oros)  # one-time tables
    _times("8 reyes + la real (sota de oros)", hands[:4], oros)

    print()
    errs, zs, mc_t, ex_t = [], [], [], []
    for i, (hand, seat, mano) in enumerate(hands[:5]):
        _clear()
        t = time.perf_counter()
        o = hand_odds(hand, seat, mano, r8)
        ex_t.append(time.perf_counter() - t)
        t = time.perf_counter()
        est = monte_carlo_odds(hand, seat, mano, r8, args.samples, seed=i)
        mc_t.append(time.perf_counter() - t)
        for lo in o.lances():
            p = np.array([*lo.seats, lo.nobody])
            e = est[lo.lance.value]
            errs.append(np.abs(e - p).max())
            sd = np.sqrt(np.maximum(p * (1 - p), 1e-12) / args.samples)
            zs.append((np.abs(e - p) / sd)[p > 0].max() if (p > 0).any() else 0.0)
    print(
        f"Monte Carlo, {args.samples:,} deals per hand: median {statistics.median(mc_t):.3f} s per hand "
        f"(exact: {1000 * statistics.median(ex_t):.1f} ms)"
    )
    print(
        f"  largest error of a Monte Carlo probability vs the exact one: {max(errs):.4f} "
        f"(median {statistics.median(errs):.4f}); largest z-score {max(zs):.2f}"
    )

    print()
    _advisor_first_calls(r8, "8 reyes")
    _advisor_first_calls(r4, "4 reyes")
    t = time.perf_counter()
    a = advise_discard("12o 11c 7e 4b", seat=1, mano=0)
    a2 = advise_discard("1o 2c 4e 5b", seat=1, mano=0)
    warm = time.perf_counter() - t
    t = time.perf_counter()
    advise_discard("1o 2c 4e 5b", seat=1, mano=0, exact=True)
    warm_exact = time.perf_counter() - t
    print(f"advisor, 8 reyes, two more hands (warm): {1000 * warm:.0f} ms (one, exact: {1000 * warm_exact:.0f} ms)")
    print(f"  {a.explain('balanced')}")
    print(f"  {a2.explain('chica')}")
    if args.la_real_advisor:
        _clear()
        t = time.perf_counter()
        advise_discard("12o 11c 7e 4b", seat=1, mano=0, rules=oros)
        print(f"advisor, 8 reyes + la real, cold (counted, no shipped table): {time.perf_counter() - t:.1f} s")

if __name__ == "__main__":
    main()
