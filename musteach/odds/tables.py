"""Precomputed counts shipped with the package: every hand's exact odds with nothing else known (RULES.md §2-§7).

With nothing known but the seat's own four cards, :func:`~musteach.odds.enumeration.count_deals` depends
only on the kings (8 or 4), the seat's distance from mano and the hand's rank multiset: 4 x 330 hands in
8 reyes, 4 x 715 in 4 reyes. Those counts are counted once by ``make tables``
(``python -m musteach.odds.tables``) and shipped as raw little-endian int64 cells in ``musteach/odds/data/``
(0.5 MiB and 1 MiB); :func:`~musteach.odds.hands.hand_odds` and :func:`~musteach.odds.advisor.advise_discard`
read them instead of counting (4 reyes takes about 0.1-0.2 s a hand to count). Reading them takes the
standard library only (``mmap``): a lesson page that shows odds never loads numpy, which only the counting
needs. ``tests/test_odds_tables.py`` checks sampled rows against the enumeration, exactly. La real, a known
partner, señas and dead cards are still counted.

>>> c = shipped_counts(8, (1, 0, 0, 0, 0, 0, 1, 2), pos0=0)  # R-R-C-A as mano
>>> c.deals, c.team[0]  # as count_deals (musteach.odds.enumeration) counts them
(43370632305000, 41091736522500)
>>> shipped_counts(8, (9, 0, 0, 0, 0, 0, 0, 0), pos0=0) is None  # not a hand of the space
True
"""

from __future__ import annotations

import argparse
import mmap
import struct
import sys
import time
from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .space import Counts, Multiset, hand_space

if TYPE_CHECKING:  # only the build needs numpy
    import numpy as np

__all__ = [
    "KINGS",
    "ROW",
    "ShippedTable",
    "build_table",
    "main",
    "read_table",
    "shipped_counts",
    "shipped_table",
    "table_path",
    "write_table",
]

#: The variants with shipped tables (no la real): 8 reyes and 4 reyes.
KINGS: tuple[int, ...] = (8, 4)

_DATA = Path(__file__).with_name("data")
#: The file's first 8 bytes; then 3 int64 (kings, hands m, rank classes k), the m x k hands, and 4 x m rows.
_MAGIC = b"MUSODDS1"
_HEADER = struct.Struct("<8s3q")
#: int64 cells per (distance from mano, hand) row: deals, team (5), stones (5), seats (5 x 5), holding (2 x 5).
ROW = 1 + 5 + 5 + 25 + 10
_FIELDS = (("deals", 1), ("team", 5), ("stones", 5), ("seats", 25), ("holding", 10))


def table_path(kings: int) -> Path:
    """The shipped file for ``kings`` (8 or 4): ``musteach/odds/data/counts-<kings>reyes.bin``."""
    return _DATA / f"counts-{kings}reyes.bin"


@dataclass(frozen=True)
class ShippedTable:
    """Every hand's counts at every distance from mano, as shipped (see :func:`shipped_table`).

    kings: 8 or 4. hands: the m multisets, in the rows of :func:`~musteach.odds.space.hand_space`.
    cells: 4 x m rows of :data:`ROW` int64 cells, indexed ``(pos0 * m + hand row) * ROW``.
    """

    kings: int
    hands: tuple[Multiset, ...]
    cells: memoryview | array[int]

    @property
    def m(self) -> int:
        """The number of hands: 330 in 8 reyes, 715 in 4 reyes."""
        return len(self.hands)

    def _row(self, pos0: int, i: int) -> list[int]:
        start = (pos0 * self.m + i) * ROW
        return list(self.cells[start : start + ROW].tolist())

    def deals(self, pos0: int, i: int) -> int:
        """Every deal of the 36 unseen cards (the same for every hand)."""
        return int(self.cells[(pos0 * self.m + i) * ROW])

    def team_stones(self, pos0: int, i: int) -> tuple[list[int], list[int]]:
        """Per lance (grande .. punto): deals the hand's team wins, and the stones it takes en paso, summed over deals."""
        row = self._row(pos0, i)
        return row[1:6], row[6:11]

    def counts(self, pos0: int, i: int) -> Counts:
        """The :class:`~musteach.odds.space.Counts` of hand row ``i`` at distance ``pos0`` (0..3) from mano."""
        row = self._row(pos0, i)
        seats = row[11:36]
        return Counts(
            row[0],
            tuple(row[1:6]),
            tuple(tuple(seats[5 * li : 5 * li + 5]) for li in range(5)),
            {2: tuple(row[36:41]), 3: tuple(row[41:46])},
            tuple(row[6:11]),
        )


def write_table(path: Path, kings: int, data: Mapping[str, np.ndarray]) -> None:
    """Write the arrays of :func:`build_table` for ``kings`` to ``path`` in the shipped raw format (see :data:`ROW`)."""
    import numpy as np

    hands = np.asarray(data["hands"], dtype="<i8")
    m, k = hands.shape
    parts = [np.asarray(data[name], dtype="<i8").reshape(4, m, width) for name, width in _FIELDS]
    rows = np.concatenate(parts, axis=2)
    path.write_bytes(_HEADER.pack(_MAGIC, kings, m, k) + hands.tobytes() + rows.tobytes())


def read_table(path: Path) -> ShippedTable:
    """Read a table written by :func:`write_table`; its cells stay in the file (``mmap``), read on demand.
    Raises OSError when the file cannot be read, ValueError when it is not such a table."""
    with path.open("rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    if mm.size() < _HEADER.size:
        raise ValueError(f"{path} is too short for an odds table")
    magic, kings, m, k = _HEADER.unpack_from(mm, 0)
    if magic != _MAGIC or mm.size() != _HEADER.size + 8 * (m * k + 4 * m * ROW):
        raise ValueError(f"{path} is not an odds table of this version")
    cells: memoryview | array[int]
    if sys.byteorder == "little":
        cells = memoryview(mm).cast("B")[_HEADER.size :].cast("q")
    else:  # pragma: no cover - the cells are little-endian
        cells = array("q", mm[_HEADER.size :])
        cells.byteswap()
    flat = cells[: m * k].tolist()
    hands = tuple(tuple(flat[r * k : r * k + k]) for r in range(m))
    return ShippedTable(kings, hands, cells[m * k :])


@lru_cache(maxsize=len(KINGS))
def shipped_table(kings: int) -> ShippedTable | None:
    """The :class:`ShippedTable` for ``kings``, or None when none is shipped (la real, or not built yet) or it
    was built for another rank space. Read once per process."""
    if kings not in KINGS:
        return None
    try:
        table = read_table(table_path(kings))
    except (OSError, ValueError):
        return None  # not built (yet): callers count instead
    if table.hands != hand_space(kings, None).hands:
        return None  # built for another rank space: never read mismatched rows
    return table


def shipped_counts(kings: int, me: tuple[int, ...], pos0: int) -> Counts | None:
    """The shipped :class:`~musteach.odds.space.Counts` of hand ``me`` (counts per rank class) at distance
    ``pos0`` (0..3) from mano, the other hands dealt from the 36 cards not in it; None when no table is shipped
    for ``kings`` or ``me`` is not a hand of the space. Equal to ``count_deals(kings, None, me, caps - me, pos0)``.
    """
    table = shipped_table(kings)
    if table is None:
        return None
    i = hand_space(kings, None).index.get(tuple(me))
    if i is None:
        return None
    return table.counts(pos0, i)


def _build_position(kings: int, pos0: int) -> tuple[int, dict[str, np.ndarray]]:
    """Every hand's :class:`Counts` at distance ``pos0`` from mano, as arrays (see :func:`build_table`)."""
    import numpy as np

    from .enumeration import count_deals, space

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
    """Count every hand at every distance from mano with :func:`~musteach.odds.enumeration.count_deals`
    (``detail=True``).

    Returns int64 arrays indexed [pos0, hand] (hand: the row of ``space(kings, None).M``): ``deals`` (4, m),
    ``team`` and ``stones`` (4, m, 5) per lance, ``seats`` (4, m, 5, 5) per lance and relative seat (then
    nobody), ``holding`` (4, m, 2, 5) for pares and juego, and ``hands`` (m, k), the multisets themselves.
    jobs: processes counting positions side by side. Takes a minute in 8 reyes, many in 4 reyes.
    """
    from concurrent.futures import ProcessPoolExecutor  # only the build needs processes

    import numpy as np

    from .enumeration import space

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
        write_table(path, kings, data)
        print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB) in {time.perf_counter() - t:.0f} s")
    shipped_table.cache_clear()
    return 0


if __name__ == "__main__":
    sys.exit(main())
