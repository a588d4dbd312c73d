"""The strong level's shipped tables: each hand's en-paso value at each distance from mano, and how strong
two random opponents are, for 8 and 4 reyes (RULES.md §3, §7).

:func:`~musteach.play.odds_bot.keep_values` weighs every discard by the value of every hand it can bring:
4 x 330 hands in 8 reyes, 4 x 715 in 4 reyes, each sampled over 1000 deals (seconds of work per deck). They
are sampled once by ``make tables`` (``python -m musteach.play.write_tables``, with the pool of random deals of
:mod:`musteach.play.deals`) and shipped in ``musteach/play/data/values-<kings>reyes.bin`` as raw
little-endian cells read with ``mmap``: the first coach comment and the first bot move do not wait for them,
and a lesson kernel never loads numpy. ``tests/test_play_tables.py`` checks sampled rows against the sampler.

File layout: ``MUSVALS1``, then int64 kings, hands m, rank classes k, deals n, seed; the m x k hands (as
:func:`~musteach.odds.space.hand_space` lists them); the 5 x 8 reference bins (float64); 4 x m values (float64).

>>> round(shipped_values(8, 0)[0], 3) > 0  # the first hand of the space (A-A-A-A) as mano
True
"""

from __future__ import annotations

import mmap
import struct
from functools import lru_cache
from pathlib import Path

from ..odds.space import hand_space

__all__ = ["KINGS", "clear_cache", "measure_bins", "reference_bins", "shipped_values", "values_path", "write_values"]

#: The decks with shipped values (no la real).
KINGS: tuple[int, ...] = (8, 4)
#: Random deals behind each value, and their seed (:data:`musteach.play.odds_bot.VALUE_SEED`).
DEALS, SEED = 1000, 0
_BINS = 8

_DATA = Path(__file__).with_name("data")
_MAGIC = b"MUSVALS1"
_HEADER = struct.Struct("<8s5q")


def values_path(kings: int) -> Path:
    """The shipped file for ``kings`` (8 or 4): ``musteach/play/data/values-<kings>reyes.bin``."""
    return _DATA / f"values-{kings}reyes.bin"


def write_values(path: Path, kings: int, bins: list[list[float]], values: list[tuple[float, ...]]) -> None:
    """Write ``bins`` (5 lances x 8) and ``values`` (4 distances from mano x m hands) for ``kings``."""
    hs = hand_space(kings, None)
    cells = [x for hand in hs.hands for x in hand]
    floats = [x for row in bins for x in row] + [x for row in values for x in row]
    path.write_bytes(
        _HEADER.pack(_MAGIC, kings, hs.m, hs.k, DEALS, SEED)
        + struct.pack(f"<{len(cells)}q", *cells)
        + struct.pack(f"<{len(floats)}d", *floats)
    )


@lru_cache(maxsize=len(KINGS))
def _read(kings: int) -> tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]] | None:
    """``(bins, values)`` from the shipped file, or None when it is missing, damaged or for another space."""
    if kings not in KINGS:
        return None
    hs = hand_space(kings, None)
    try:
        with values_path(kings).open("rb") as f:
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    with mm:
        size = _HEADER.size + 8 * (hs.m * hs.k + 5 * _BINS + 4 * hs.m)
        if mm.size() != size or _HEADER.unpack_from(mm, 0) != (_MAGIC, kings, hs.m, hs.k, DEALS, SEED):
            return None
        at = _HEADER.size
        cells = struct.unpack_from(f"<{hs.m * hs.k}q", mm, at)
        if tuple(tuple(cells[i * hs.k : (i + 1) * hs.k]) for i in range(hs.m)) != hs.hands:
            return None  # built for another rank space: never read mismatched rows
        at += 8 * hs.m * hs.k
        floats = struct.unpack_from(f"<{5 * _BINS + 4 * hs.m}d", mm, at)
    bins = tuple(floats[li * _BINS : (li + 1) * _BINS] for li in range(5))
    rest = floats[5 * _BINS :]
    return bins, tuple(rest[p * hs.m : (p + 1) * hs.m] for p in range(4))


def shipped_values(kings: int, pos: int) -> tuple[float, ...] | None:
    """Every hand's en-paso value at distance ``pos`` (0..3) from mano, by row of ``hand_space(kings, None)``
    (see :func:`~musteach.play.odds_bot.hand_values`); None when no table is shipped for ``kings``."""
    table = _read(kings)
    return None if table is None else table[1][pos]


@lru_cache(maxsize=len(KINGS))
def reference_bins(kings: int) -> tuple[tuple[float, ...], ...]:
    """Per lance (grande .. punto), how often two random opponents' best hand falls in each of 8 strength
    bins (see :class:`~musteach.play.odds_bot.OpponentModel`), at least 0.0001 each: shipped, else measured
    over 20,000 random deals (numpy)."""
    table = _read(kings)
    return table[0] if table is not None else tuple(tuple(row) for row in measure_bins(kings))


def measure_bins(kings: int) -> list[list[float]]:
    """The reference bins over ``random_deals(20_000, seed=5)`` (:mod:`musteach.rules.batch`, numpy)."""
    from ..rules.batch import random_deals
    from .deals import rank_facts, rank_id

    facts = rank_facts(kings)
    deals = random_deals(20_000, seed=5).tolist()
    out = []
    for li in range(5):
        counts = [0] * _BINS
        for deal in deals:
            m = max(facts.pct[li][rank_id(deal[1])], facts.pct[li][rank_id(deal[3])]) / 255.0
            counts[min(int(m * m * _BINS), _BINS - 1)] += 1
        out.append([max(c / len(deals), 1e-4) for c in counts])
    return out


def clear_cache() -> None:
    """Forget the tables read so far (after :mod:`musteach.play.write_tables` wrote new ones)."""
    _read.cache_clear()
    reference_bins.cache_clear()
