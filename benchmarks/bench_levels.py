"""Benchmark of the three levels of opponents: neighbouring levels play each other, and each must win.

Run:  .venv/bin/python benchmarks/bench_levels.py [--games 2000] [--workers 2] [--pair all|beginner-club|club-strong]

For each pair of neighbouring levels (beginner v club, club v strong; musteach.play.levels) it plays whole
matches (best of 3 games to 40 stones) until at least ``--games`` games are finished, the better level
at seats 0 and 2 in even matches and at seats 1 and 3 in odd ones, and prints the share of games the
better level won with its 95% Wilson interval, and the time per game. Figures depend on the machine.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from musteach.play.bots import play_match
from musteach.play.levels import Level, make_bot

PAIRS = ((Level.CLUB, Level.BEGINNER), (Level.STRONG, Level.CLUB))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n trials."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def one_match(args: tuple[Level, Level, int]) -> tuple[int, int]:
    """(games the better level won, games played) in one match with seed ``seed``."""
    better, worse, seed = args
    side = seed % 2  # the better level's seats: 0 and 2 (side 0) or 1 and 3 (side 1)
    bots = [make_bot(better, seed=seed) if s % 2 == side else make_bot(worse, seed=seed) for s in range(4)]
    g = play_match(bots, seed=seed)
    winners = [h.result.game_winner for h in g.hands if h.result is not None and h.result.game_over]
    return sum(w == "AB"[side] for w in winners), len(winners)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--progress", action="store_true", help="print the running figures every 100 games or so")
    ap.add_argument("--pair", choices=["all", "beginner-club", "club-strong"], default="all")
    args = ap.parse_args()
    pairs = PAIRS if args.pair == "all" else [PAIRS[0] if args.pair == "beginner-club" else PAIRS[1]]
    for better, worse in pairs:
        t0 = time.perf_counter()
        won = played = 0
        seed = 0
        with ProcessPoolExecutor(args.workers) as pool:
            while played < args.games:
                batch = [(better, worse, s) for s in range(seed, seed + 4 * args.workers)]
                seed += len(batch)
                before = played
                for w, n in pool.map(one_match, batch):
                    won, played = won + w, played + n
                if args.progress and played // 100 != before // 100:
                    lo, hi = wilson(won, played)
                    print(f"  ... {played} games: {won / played:.3f} ({lo:.3f}-{hi:.3f})", flush=True)
        lo, hi = wilson(won, played)
        secs = (time.perf_counter() - t0) / played
        print(
            f"{better.title} v {worse.title}: {played} games ({seed} matches), {better.title} won {won} "
            f"= {won / played:.3f} (95% Wilson {lo:.3f}-{hi:.3f}); {secs * 1000:.0f} ms per game",
            flush=True,
        )


if __name__ == "__main__":
    main()
