"""``python -m musteach.play.write_tables [--kings 8 4]`` (run by ``make tables``): sample the strong level's
tables that :mod:`musteach.play.tables` reads, with the sampler of :mod:`musteach.play.odds_bot` (RULES.md §3, §7).

A command of its own, above both: the bot reads the shipped tables, and this writes them with the bot's
sampler, so that neither module imports the other's work late.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..odds.space import hand_space
from ..rules.options import Rules
from .deals import pool_path, write_pool
from .odds_bot import hand_value
from .tables import DEALS, KINGS, SEED, clear_cache, measure_bins, values_path, write_values

__all__ = ["main", "sampled_values"]


def sampled_values(rules: Rules, pos: int, n: int = DEALS, seed: int = SEED) -> tuple[float, ...]:
    """Every hand's en-paso value at ``pos`` (0 mano .. 3 postre), by row of ``hand_space(rules.kings, None)``,
    each sampled over ``n`` random deals from ``seed`` (:func:`~musteach.play.odds_bot.hand_value`)."""
    return tuple(hand_value(hand, pos, rules, n, seed) for hand in hand_space(rules.kings, None).hands)


def main(argv: list[str] | None = None) -> int:
    """Draw the deal pool if missing, then sample and write the values and bins of each deck asked for."""
    ap = argparse.ArgumentParser(description="Sample the strong level's tables shipped in musteach/play/data/.")
    ap.add_argument("--kings", type=int, nargs="+", default=list(KINGS), choices=KINGS)
    args = ap.parse_args(argv)
    values_path(KINGS[0]).parent.mkdir(parents=True, exist_ok=True)
    if not pool_path().exists():
        write_pool(pool_path())
    for kings in args.kings:
        t = time.perf_counter()
        values = [sampled_values(Rules(kings=kings), pos) for pos in range(4)]
        write_values(values_path(kings), kings, measure_bins(kings), values)
        print(f"wrote {values_path(kings)} in {time.perf_counter() - t:.0f} s", flush=True)
    clear_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
