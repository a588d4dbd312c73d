"""The shipped betting strategy, read lazily with ``mmap`` and without numpy (RULES.md §6).

``musteach/play/data/strategy-8reyes.bin`` is written by :func:`musteach.play.strategy.solver.write_table`
(``make strategy``): ``MUSSTRT1``, a little-endian u32 length, a JSON header (the solve's parameters and
each entry's offset), then, per entry (lance, participants, score context) and decision node of
:func:`~musteach.play.strategy.abstraction.lance_tree`, the node's probabilities as bytes 0..255 in the
order (own bucket, partner's seña bit, action). The file is opened at the first decision, and each node's
rows are decoded once.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...i18n import Text
from ...rules.errors import MusError
from .abstraction import lance_tree

__all__ = ["TABLE_ENV", "StrategyTable", "shipped_table", "table_path"]

_MAGIC = b"MUSSTRT1"


#: An environment variable naming another strategy file to play instead of the shipped one (benchmarks
#: compare solves with it; read when the table is first opened).
TABLE_ENV = "MUSTEACH_STRATEGY_TABLE"


def table_path() -> Path:
    """The shipped strategy: ``musteach/play/data/strategy-8reyes.bin`` (used for 4 reyes too: its buckets
    are percentiles within each deck), or the file named by the environment variable :data:`TABLE_ENV`."""
    other = os.environ.get(TABLE_ENV)
    if other:
        return Path(other)
    return Path(__file__).resolve().parent.parent / "data" / "strategy-8reyes.bin"


class StrategyTable:
    """One strategy file (see the module docstring). Raises :class:`MusError` naming the file when it is
    missing or not a strategy table of this version."""

    def __init__(self, path: Path):
        self.path = path
        try:
            with path.open("rb") as f:
                self._mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as e:
            raise MusError(Text("the strategy table {path} cannot be read: {error}", path=str(path), error=str(e))) from None
        if self._mm[:8] != _MAGIC:
            raise MusError(Text("{path} is not a strategy table of this version", path=str(path)))
        (n,) = struct.unpack_from("<I", self._mm, 8)
        self.header: dict[str, Any] = json.loads(self._mm[12 : 12 + n])
        self._base = 12 + n
        self.ks: tuple[int, ...] = tuple(self.header["ks"])
        self.needs: tuple[int, ...] = tuple(self.header["needs"])
        self.entries: dict[str, int] = self.header["entries"]
        self._rows: dict[tuple[str, int], tuple[tuple[float, ...], ...]] = {}

    @staticmethod
    def key(li: int, participants: tuple[int, ...], ctx: int) -> str:
        """An entry's name (as :func:`musteach.play.strategy.solver.entry_key`)."""
        return f"{li}|{''.join(map(str, participants))}|{ctx}"

    def has(self, li: int, participants: tuple[int, ...], ctx: int) -> bool:
        """True when the table holds that lance, set of participants and context."""
        return self.key(li, participants, ctx) in self.entries

    def rows(self, li: int, participants: tuple[int, ...], ctx: int, decision: int) -> tuple[tuple[float, ...], ...]:
        """The probabilities of decision node ``decision``'s actions, one row per ``bucket * 2 + seña bit``
        (each row sums to 1). Raises :class:`MusError` for an entry the table does not hold."""
        key = self.key(li, participants, ctx)
        hit = self._rows.get((key, decision))
        if hit is not None:
            return hit
        if key not in self.entries:
            raise MusError(Text("the strategy table holds no entry {key}", key=key))
        tree = lance_tree(participants)
        k = self.ks[li]
        at = self._base + self.entries[key]
        for d in tree.decisions[:decision]:
            at += k * 2 * len(tree.nodes[d].actions)
        width = len(tree.nodes[tree.decisions[decision]].actions)
        raw = self._mm[at : at + k * 2 * width]
        out = []
        for r in range(k * 2):
            cells = raw[r * width : (r + 1) * width]
            total = sum(cells)
            out.append(tuple(c / total for c in cells) if total else (1.0 / width,) * width)
        rows = tuple(out)
        self._rows[(key, decision)] = rows
        return rows


@lru_cache(maxsize=1)
def shipped_table() -> StrategyTable:
    """The shipped :class:`StrategyTable`, opened once per process."""
    return StrategyTable(table_path())
