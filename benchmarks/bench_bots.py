"""OddsBot's team against RuleBot's team over many games: win rate with a 95% Wilson interval, and speed.

Each game is one game to the target (40 by default): the strong team sits at seats 0 and 2 in even games
and 1 and 3 in odd ones, and the first mano turns round every two games, so both teams get every seat
and every mano equally often. One OddsBot object plays both seats of its team for the whole run, so its
opponent model (learnt from the hands shown) carries over from game to game, as at a club.

    .venv/bin/python benchmarks/bench_bots.py                 # 2,000 games to 40
    .venv/bin/python benchmarks/bench_bots.py --games 200 --target 30
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from musteach.play.bots import OddsBot, RuleBot, play_match
from musteach.rules import Rules


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (centre - half, centre + half)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games to play (default 2000)")
    ap.add_argument("--target", type=int, default=40, choices=(30, 35, 40), help="stones to win a game")
    ap.add_argument("--kings", type=int, default=8, choices=(8, 4))
    ap.add_argument("--seed", type=int, default=0, help="first game's seed (game i uses seed + i)")
    ap.add_argument("--samples", type=int, default=1000, help="random deals per OddsBot estimate")
    args = ap.parse_args(argv)

    rules = Rules(kings=args.kings, target=args.target, games_per_vaca=1, vacas_per_match=1)
    strong, plain = OddsBot(n=args.samples, seed=args.seed), RuleBot()
    wins = hands = 0
    ends: Counter[str] = Counter()
    net: Counter[str] = Counter()
    t0 = time.perf_counter()
    first = None
    for i in range(args.games):
        team = "A" if i % 2 == 0 else "B"
        other = "B" if team == "A" else "A"
        seats = {0: strong, 2: strong, 1: plain, 3: plain} if team == "A" else {1: strong, 3: strong, 0: plain, 2: plain}
        g = play_match(seats, rules, seed=args.seed + i, first_mano=(i // 2) % 4)
        if first is None:
            first = time.perf_counter() - t0
        wins += g.winner == team
        hands += len(g.hands)
        last = g.hands[-1].result
        ends[last.ended_at.phase if last and last.ended_at else "?"] += 1
        for h in g.hands:
            r = h.result
            if r is not None and not r.ordago:
                for lance, st in r.stones.items():
                    net[lance] += st[team] - st[other]
    elapsed = time.perf_counter() - t0
    n = args.games
    lo, hi = wilson(wins, n)
    print(f"bench_bots: OddsBot team vs RuleBot team, {n} games to {args.target} ({rules.variant}), seats and mano alternated")
    print(f"  OddsBot team won {wins} of {n}: {wins / n:.3f}  (95% Wilson interval {lo:.3f} - {hi:.3f})")
    print(f"  speed: {n / elapsed:.1f} games/s, {hands / elapsed:.0f} hands/s, {hands / n:.1f} hands a game; "
          f"{elapsed:.1f} s in all (the first game, with the bots' tables to build, {first or 0:.1f} s)")
    names = {"count": "in the count", "betting": "by a deje in the betting", "ordago": "by an accepted órdago"}
    print("  games ended " + ", ".join(f"{names.get(k, k)} {v}" for k, v in sorted(ends.items())))
    print("  net stones per game for the OddsBot team, by lance: "
          + ", ".join(f"{lance} {net[lance] / n:+.2f}" for lance in ("grande", "chica", "pares", "juego", "punto")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
