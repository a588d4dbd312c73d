"""Precomputed counts shipped with the package: every hand's exact odds with nothing else known (RULES.md §2-§7).

With nothing known but the seat's own four cards, :func:`~musteach.odds.enumeration.count_deals` depends
only on the kings (8 or 4), the seat's distance from mano and the hand's rank multiset: 4 x 330 hands in
8 reyes, 4 x 715 in 4 reyes. Those counts are counted once by ``make tables``
(``python -m musteach.odds.tables``) and shipped as compressed numpy arrays in ``musteach/odds/data/``;
:func:`~musteach.odds.hands.hand_odds` and :func:`~musteach.odds.advisor.advise_discard` read them instead of
counting (4 reyes takes about 0.1-0.2 s a hand to count). ``tests/test_odds_tables.py`` checks sampled rows
against the enumeration, exactly. La real, a known partner, señas and dead cards are still counted.

>>> c = shipped_counts(8, (1, 0, 0, 0, 0, 0, 1, 2), pos0=0)  # R-R-C-A as mano
>>> c.deals, c.team[0]  # as count_deals (musteach.odds.enumeration) counts them
(43370632305000, 41091736522500)
>>> shipped_counts(8, (9, 0, 0, 0, 0, 0, 0, 0), pos0=0) is None  # not a hand of the space
True
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from .enumeration import Counts, count_deals, space

__all__ = ["KINGS", "build_table", "main", "shipped_counts", "shipped_table", "table_path"]

#: The variants with shipped tables (no la real): 8 reyes and 4 reyes.
KINGS: tuple[int, ...] = (8, 4)

_DATA = Path(__file__).with_name("data")


def table_path(kings: int) -> Path:
    """The shipped file for ``kings`` (8 or 4): ``musteach/odds/data/counts-<kings>reyes.npz``."""
    return _DATA / f"counts-{kings}reyes.npz"


def _build_position(kings: int, pos0: int) -> tuple[int, dict[str, np.ndarray]]:
    """Every hand's :class:`Counts` at distance ``pos0`` from mano, as arrays (see :func:`build_table`)."""
    sp = space(kings, None)
    m = sp.m
    out = {
        "deals": np.zeros(m, dtype=np.int64),
        "team": np.zeros((m, 5), dtype=np.int64),
        "stones": np.zeros((m, 5), dtype=np.int64),
        "seats": np.zeros((m, 5, 5), dtype=np.int64),
        "holding": np.zeros((m, 2, 5), dtype=np.int64),
    }
    for i in range(m):
        me = tuple(int(v) for v in sp.M[i])
        pool = tuple(int(v) for v in sp.caps - sp.M[i])
        c = count_deals.__wrapped__(kings, None, me, pool, pos0)  # the enumeration itself, not its cache
        out["deals"][i] = c.deals
        out["team"][i] = c.team
        out["stones"][i] = c.stones
        out["seats"][i] = c.seats
        out["holding"][i] = (c.holding[2], c.holding[3])
    return pos0, out


def build_table(kings: int, jobs: int = 1, progress: bool = False) -> dict[str, np.ndarray]:
    """Count every hand at every distance from mano with :func:`count_deals` (``detail=True``).

    Returns int64 arrays indexed [pos0, hand] (hand: the row of ``space(kings, None).M``): ``deals`` (4, m),
    ``team`` and ``stones`` (4, m, 5) per lance, ``seats`` (4, m, 5, 5) per lance and relative seat (then
    nobody), ``holding`` (4, m, 2, 5) for pares and juego, and ``hands`` (m, k), the multisets themselves.
    jobs: processes counting positions side by side. Takes a minute in 8 reyes, many in 4 reyes.
    """
    from concurrent.futures import ProcessPoolExecutor  # only the build needs processes

    start = time.perf_counter()
    parts: dict[int, dict[str, np.ndarray]] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for pos0, part in pool.map(_build_position, [kings] * 4, range(4)):
            parts[pos0] = part
            if progress:
                print(f"  {kings} reyes, distance {pos0} from mano: done at {time.perf_counter() - start:.0f} s", flush=True)
    data = {name: np.stack([parts[p][name] for p in range(4)]) for name in parts[0]}
    data["hands"] = space(kings, None).M.copy()
    return data


@lru_cache(maxsize=len(KINGS))
def shipped_table(kings: int) -> dict[str, np.ndarray] | None:
    """The arrays of :func:`build_table` shipped for ``kings``, or None when none are shipped (la real, or not
    built yet) or they were built for another rank space. Read once per process."""
    if kings not in KINGS:
        return None
    path = table_path(kings)
    try:
        with np.load(path) as z:
            data = {name: z[name] for name in z.files}
    except (OSError, ValueError, KeyError):
        return None  # not built (yet): callers count instead
    sp = space(kings, None)
    if data["hands"].shape != sp.M.shape or not np.array_equal(data["hands"], sp.M):
        return None  # built for another rank space: never read mismatched rows
    return data


def shipped_counts(kings: int, me: tuple[int, ...], pos0: int) -> Counts | None:
    """The shipped :class:`~musteach.odds.enumeration.Counts` of hand ``me`` (counts per rank class) at distance
    ``pos0`` (0..3) from mano, the other hands dealt from the 36 cards not in it; None when no table is shipped
    for ``kings`` or ``me`` is not a hand of the space. Equal to ``count_deals(kings, None, me, caps - me, pos0)``.
    """
    data = shipped_table(kings)
    if data is None:
        return None
    i = space(kings, None).index.get(tuple(me))
    if i is None:
        return None
    hold = data["holding"][pos0, i]
    return Counts(
        int(data["deals"][pos0, i]),
        tuple(int(x) for x in data["team"][pos0, i]),
        tuple(tuple(int(x) for x in row) for row in data["seats"][pos0, i]),
        {2: tuple(int(x) for x in hold[0]), 3: tuple(int(x) for x in hold[1])},
        tuple(int(x) for x in data["stones"][pos0, i]),
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m musteach.odds.tables [--kings 8 4] [--out DIR]``: count and write the shipped tables."""
    ap = argparse.ArgumentParser(description="Count the odds tables shipped in musteach/odds/data/.")
    ap.add_argument("--kings", type=int, nargs="+", default=list(KINGS), choices=KINGS)
    ap.add_argument("--out", type=Path, default=_DATA)
    ap.add_argument("--jobs", type=int, default=2, help="processes counting side by side (default 2)")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for kings in args.kings:
        t = time.perf_counter()
        data = build_table(kings, jobs=args.jobs, progress=True)
        path = args.out / table_path(kings).name
        np.savez_compressed(path, **data)  # type: ignore[arg-type]  # numpy's stub types **kwds loosely
        print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB) in {time.perf_counter() - t:.0f} s")
    shipped_table.cache_clear()
    return 0


if __name__ == "__main__":
    sys.exit(main())
