"""Random deals of the unseen cards without numpy: what the strong level and the coach weigh (RULES.md §2, §4,
§5, §7, §11).

:class:`~musteach.play.odds_bot.OddsBot`, its discard values and the coach's rollouts
(:mod:`musteach.play.rollout`) deal the cards a seat cannot see from rows of one fixed pool of random orders
of 36 cards (:func:`deal_pool`, shipped in ``musteach/play/data/`` and read with ``mmap``), each estimate
from its own start row (:func:`pool_start`), and judge every deal with integer tables
(:func:`rank_facts`, :func:`lance_keys`): the same winners as :func:`musteach.rules.batch.evaluate_batch`,
la real included. Everything here uses the standard library only, so a lesson kernel that plays against
the strong level or shows the coach's figures never loads numpy (about 20 MiB).

The pool, the start rows and the sums are those of the numpy code the bots were first written with: the
pool was drawn by ``numpy.random.default_rng(20240611)``, :func:`pool_start` draws what
``numpy.random.default_rng(seed).integers(size)`` draws (PCG64 seeded by a SeedSequence), and
:func:`pairwise_sum` adds floats in numpy's order, so every decision and figure is what it was, to the bit.
``tests/test_play_deals.py`` checks each against numpy.

A hand's *rank id* is its four raw rank positions (0..9 in :data:`~musteach.rules.cards.RANKS`, ``card
index >> 2``) read as a base-10 number in the hand's card order: 10,000 ids, each with its facts.

>>> rank_id([36, 37, 0, 24]), rank_facts(8).pares_value[rank_id([36, 37, 0, 24])]  # R-R-A-7: a par
(9906, 1)
>>> pool_start(7, 20_000) == pool_start(7, 20_000)
True
"""

from __future__ import annotations

import math
import mmap
import sys
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from operator import add
from pathlib import Path
from typing import TYPE_CHECKING

from ..rules.cards import DECK, RANKS, Card, Suit
from ..rules.lances import LANCES, HandInfo, Lance, effective_rank, info_from_ranks, la_real_by_ranks
from ..rules.options import Rules
from ..rules.senas import HAND_TESTS

if TYPE_CHECKING:
    from .odds_bot import Deal
    from .view import View

__all__ = [
    "fits_public",
    "AFTER_MUS",
    "after_mus_cell",
    "POOL_ROWS",
    "POOL_WIDTH",
    "SENA_BITS",
    "LanceKeys",
    "RankFacts",
    "block_ids",
    "block_table",
    "deal_pool",
    "ids_array",
    "keys_for",
    "lance_keys",
    "pairwise_mean",
    "pairwise_std",
    "pairwise_sum",
    "pool_blocks",
    "pool_path",
    "pool_rank_ids",
    "pool_start",
    "rank_facts",
    "rank_id",
    "write_pool",
]

#: Rows in the pool of random orders, and the cards dealt from each (three hands of the 36 unseen cards).
POOL_ROWS = 20_000
POOL_WIDTH = 12
#: The seed the pool was drawn with (``numpy.random.default_rng``).
POOL_SEED = 20240611

_DATA = Path(__file__).with_name("data")
_MAGIC = b"MUSPOOL1"
_HEADER_SIZE = 8 + 2 * 8

#: Each hand seña's bit in :attr:`RankFacts.senas`: the keys of :data:`~musteach.rules.senas.HAND_TESTS`,
#: then "ciego" (no pares, no juego, no punto of 29 or 30).
SENA_BITS: dict[str, int] = {k: i for i, k in enumerate([*HAND_TESTS, "ciego"])}


# ----------------------------------------------------------------------------------------------
# numpy's draws and sums, in the standard library
# ----------------------------------------------------------------------------------------------

_M32, _M64, _M128 = (1 << 32) - 1, (1 << 64) - 1, (1 << 128) - 1
_PCG_MULT = (2549297995355413924 << 64) + 4865540595714422341


def _seed_words(seed: int) -> list[int]:
    """numpy's ``SeedSequence(seed).generate_state(4, uint64)`` (the hash mixing of O'Neill's seed_seq)."""
    entropy = []
    while seed > 0:
        entropy.append(seed & _M32)
        seed >>= 32
    entropy = entropy or [0]
    hash_a = 0x43B0D7E5

    def hashmix(v: int) -> int:
        nonlocal hash_a
        v ^= hash_a
        hash_a = (hash_a * 0x931E8875) & _M32
        v = (v * hash_a) & _M32
        return v ^ (v >> 16)

    def mix(x: int, y: int) -> int:
        r = (0xCA01F9DD * x - 0x4973F715 * y) & _M32
        return r ^ (r >> 16)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(4)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(4, len(entropy)):
        for dst in range(4):
            pool[dst] = mix(pool[dst], hashmix(entropy[src]))
    hash_b = 0x8B51F9DD
    words = []
    for i in range(8):
        v = pool[i % 4] ^ hash_b
        hash_b = (hash_b * 0x58F38DED) & _M32
        v = (v * hash_b) & _M32
        words.append(v ^ (v >> 16))
    return [words[2 * i] | (words[2 * i + 1] << 32) for i in range(4)]


def pool_start(seed: int, size: int) -> int:
    """The row a sample starts at: ``numpy.random.default_rng(seed).integers(size)``, drawn without numpy.

    seed: a non-negative int; size: 1 .. 2**32. PCG64 (XSL-RR) seeded through a SeedSequence, one bounded
    draw by Lemire's method on 32-bit outputs, as numpy does.
    """
    w = _seed_words(seed)
    initstate, initseq = (w[0] << 64) | w[1], (w[2] << 64) | w[3]
    inc = ((initseq << 1) | 1) & _M128
    state = ((inc + initstate) * _PCG_MULT + inc) & _M128
    spare: list[int] = []

    def next32() -> int:
        nonlocal state
        if spare:
            return spare.pop()
        state = (state * _PCG_MULT + inc) & _M128
        x, rot = ((state >> 64) ^ state) & _M64, state >> 122
        out = ((x >> rot) | (x << ((64 - rot) & 63))) & _M64
        spare.append(out >> 32)
        return out & _M32

    m = next32() * size
    if (m & _M32) < size:
        threshold = (_M32 - (size - 1)) % size
        while (m & _M32) < threshold:
            m = next32() * size
    return m >> 32


def pairwise_sum(values: Sequence[float]) -> float:
    """The sum of ``values`` added in numpy's order (pairwise, eight partial sums per block of up to 128), so
    that a figure is the same float numpy's ``sum`` gives."""
    return _pairwise(values, 0, len(values))


def _pairwise(a: Sequence[float], lo: int, n: int) -> float:
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    if n <= 128:
        r0, r1, r2, r3, r4, r5, r6, r7 = (float(x) for x in a[lo : lo + 8])
        i = lo + 8
        end = lo + n - n % 8
        while i < end:
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < lo + n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(a, lo, n2) + _pairwise(a, lo + n2, n - n2)


def pairwise_mean(values: Sequence[float]) -> float:
    """numpy's ``mean`` of ``values`` (not empty)."""
    return pairwise_sum(values) / len(values)


def pairwise_std(values: Sequence[float], ddof: int = 0) -> float:
    """numpy's ``std(ddof=ddof)`` of ``values`` (more than ``ddof`` of them)."""
    mean = pairwise_mean(values)
    squares = [(x - mean) * (x - mean) for x in values]
    return math.sqrt(pairwise_sum(squares) / (len(values) - ddof))


# ----------------------------------------------------------------------------------------------
# The pool of random orders
# ----------------------------------------------------------------------------------------------


def pool_path() -> Path:
    """The shipped pool: ``musteach/play/data/deal-pool.bin``."""
    return _DATA / "deal-pool.bin"


def write_pool(path: Path) -> None:
    """Draw the pool (numpy: build time only) and write it: a header, then :data:`POOL_ROWS` rows of
    :data:`POOL_WIDTH` bytes, each the first cards of a uniformly random order of 36 (positions 0..35)."""
    import numpy as np

    rng = np.random.default_rng(POOL_SEED)
    rows = np.argsort(rng.random((POOL_ROWS, 36)), axis=1)[:, :POOL_WIDTH].astype(np.uint8)
    path.write_bytes(_MAGIC + POOL_ROWS.to_bytes(8, "little") + POOL_WIDTH.to_bytes(8, "little") + rows.tobytes())


@lru_cache(maxsize=1)
def deal_pool() -> bytes:
    """The shipped pool of random orders, ``POOL_ROWS * POOL_WIDTH`` bytes (row r at ``r * POOL_WIDTH``), read
    once per process. Raises OSError when the file is missing, ValueError when it is damaged."""
    path = pool_path()
    with path.open("rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    rows = int.from_bytes(mm[8:16], "little")
    width = int.from_bytes(mm[16:24], "little")
    if mm[:8] != _MAGIC or (rows, width) != (POOL_ROWS, POOL_WIDTH) or mm.size() != _HEADER_SIZE + rows * width:
        raise ValueError(f"{path} is not a deal pool of this version")
    with mm:
        return mm[_HEADER_SIZE:]


# ----------------------------------------------------------------------------------------------
# Facts about every ordered hand of raw ranks
# ----------------------------------------------------------------------------------------------


def block_table() -> dict[int, int]:
    """A hand's four raw rank positions, as the native 32-bit int of their four bytes -> its rank id (built
    when asked; :func:`block_ids` reads two compact tables of 16-bit halves instead of this dict)."""
    return {int.from_bytes(bytes(t), sys.byteorder): ((t[0] * 10 + t[1]) * 10 + t[2]) * 10 + t[3] for t in product(range(10), repeat=4)}


@lru_cache(maxsize=1)
def _half_tables() -> tuple[array[int], array[int]]:
    """Per native 16-bit int of two raw rank positions (a, b; at most 9 * 256 + 9): ``100 * (10 a + b)`` (the
    first half of a hand's 4 bytes) and ``10 a + b`` (the second half); 9 KB in all (the dict of
    :func:`block_table` held 900 KB)."""
    first, second = array("H", bytes(2 * 2314)), array("H", bytes(2 * 2314))
    for a in range(10):
        for b in range(10):
            x = int.from_bytes(bytes((a, b)), sys.byteorder)
            first[x], second[x] = 100 * (10 * a + b), 10 * a + b
    return first, second


def pool_blocks(others: Sequence[int], start: int, count: int) -> memoryview:
    """The pool's rows ``start``, ``start + 1``... (``count`` rows, wrapping) when its positions 0..35 deal the
    cards ``others`` (36 card indexes), as hands of raw rank positions: 3 a row (relative seats 1, 2, 3), each
    the native 32-bit int of its 4 rank bytes (keys of :func:`block_table`). Translated in C, a copy."""
    pool = deal_pool()
    table = bytes(c >> 2 for c in others).ljust(256, b"\0")
    r = start % POOL_ROWS
    parts = []
    while count > 0:
        take = min(count, POOL_ROWS - r)
        parts.append(pool[r * POOL_WIDTH : (r + take) * POOL_WIDTH].translate(table))
        count -= take
        r = 0
    return memoryview(b"".join(parts)).cast("I")


def block_ids(blocks: Iterable[int]) -> array[int]:
    """The rank ids of hands given as :func:`pool_blocks` gives them (a memoryview of native 32-bit ints, or
    any iterable of such ints)."""
    if not isinstance(blocks, memoryview):
        blocks = memoryview(array("I", blocks))
    halves = blocks.cast("B").cast("H")
    first, second = _half_tables()
    return array("H", map(add, map(first.__getitem__, halves[0::2]), map(second.__getitem__, halves[1::2])))


def pool_rank_ids(others: Sequence[int], start: int, count: int) -> array[int]:
    """The rank ids of the pool's rows ``start``, ``start + 1``... (``count`` rows, wrapping) when its positions
    0..35 deal the cards ``others``: 3 a row, relative seats 1, 2, 3 (:func:`pool_blocks`, :func:`block_ids`)."""
    return block_ids(pool_blocks(others, start, count))


def rank_id(cards: Iterable[int]) -> int:
    """A hand's rank id: the raw rank positions (``index >> 2``) of its 4 card indexes, read in base 10."""
    a, b, c, d = cards
    return (((a >> 2) * 10 + (b >> 2)) * 10 + (c >> 2)) * 10 + (d >> 2)


@dataclass(frozen=True)
class RankFacts:
    """Facts about every rank id (10,000) for one deck (8 or 4 reyes), la real not read.

    multiset: a dense id of the hand's effective ranks (first seen first, ids in ``product(range(10),
    repeat=4)`` order); keys: those effective ranks, high to low, by multiset id; infos: their
    :class:`~musteach.rules.lances.HandInfo`. flags: bit 0 pares, bit 1 juego. senas: bit i set when
    the hand fits seña i of :data:`SENA_BITS`. pares_value: par 1, medias 2, duples 3 (0 without);
    juego_value: 31 = 3, other juego 2 (0 without) (RULES.md §7). pct: per lance (grande .. punto), the
    hand's percentile 0..255 among all card hands (pares and juego: among those that hold it; 0 without).
    """

    multiset: array[int]
    keys: tuple[tuple[int, ...], ...]
    infos: tuple[HandInfo, ...]
    flags: bytes
    senas: array[int]
    pares_value: bytes
    juego_value: bytes
    pct: tuple[bytes, ...]


def _sena_bits(info: HandInfo) -> int:
    bits = 0
    for k, test in HAND_TESTS.items():
        if test(info):
            bits |= 1 << SENA_BITS[k]
    if info.pares is None and not info.is_juego and info.total not in (29, 30):
        bits |= 1 << SENA_BITS["ciego"]
    return bits


def _deal_weights(infos: Sequence[HandInfo], kings: int) -> list[float]:
    """How many 4-card hands of the deck each rank multiset of ``infos`` stands for (RULES.md §1)."""
    caps: dict[int, int] = {}
    for c in DECK:
        r = effective_rank(c.rank, kings)
        caps[r] = caps.get(r, 0) + 1
    return [float(math.prod(math.comb(caps[r], info.ranks.count(r)) for r in set(info.ranks))) for info in infos]


def _percentiles(infos: Sequence[HandInfo], weight: Sequence[float], lance: Lance) -> list[int]:
    """Each rank multiset's standing in ``lance`` among the hands that hold it (weighted by ``weight``), as a
    mid-rank percentile 0..255; 0 for a multiset that does not hold the lance (pares, juego)."""
    held = [info.key(lance) for info in infos]
    holders = [i for i, k in enumerate(held) if k]
    total = pairwise_sum([weight[i] for i in holders])
    by_key: dict[tuple[int, ...], float] = {}
    for i in holders:
        by_key[held[i]] = by_key.get(held[i], 0.0) + weight[i]
    below = 0.0
    cum: dict[tuple[int, ...], float] = {}
    for k in sorted(by_key):
        cum[k] = (below + by_key[k] / 2) / total
        below += by_key[k]
    return [round(cum[held[i]] * 255) if held[i] else 0 for i in range(len(infos))]


@lru_cache(maxsize=4)
def rank_facts(kings: int) -> RankFacts:
    """The :class:`RankFacts` of 8 or 4 reyes, built once per process (a few hundredths of a second)."""
    ids: dict[tuple[int, ...], int] = {}
    infos: list[HandInfo] = []
    multiset: list[int] = []
    by_sorted: dict[tuple[int, ...], tuple[HandInfo, int, int, int, int]] = {}  # info, flags, senas, pv, jv
    per_id = []
    for t in product(range(10), repeat=4):
        s = tuple(sorted(t))
        facts = by_sorted.get(s)
        if facts is None:
            hi = info_from_ranks([RANKS[r] for r in s], kings)
            facts = by_sorted[s] = (
                hi, (hi.pares is not None) | (hi.is_juego << 1), _sena_bits(hi), hi.pares.value if hi.pares else 0,
                hi.juego_value,
            )  # fmt: skip
        info = facts[0]
        if info.ranks not in ids:
            ids[info.ranks] = len(ids)
            infos.append(info)
        multiset.append(ids[info.ranks])
        per_id.append(facts)
    weight = _deal_weights(infos, kings)
    pct = [bytes(by_ms[m] for m in multiset) for by_ms in (_percentiles(infos, weight, lance) for lance in LANCES)]
    return RankFacts(  # 2-byte arrays, not tuples of ints: 40 KB instead of 160 (a lesson kernel stays small)
        array("H", multiset),
        tuple(ids),
        tuple(infos),
        bytes(f[1] for f in per_id),
        array("H", (f[2] for f in per_id)),
        bytes(f[3] for f in per_id),
        bytes(f[4] for f in per_id),
        tuple(pct),
    )


# ----------------------------------------------------------------------------------------------
# Winners of sampled deals, la real included
# ----------------------------------------------------------------------------------------------

_SOTA_DE_OROS = Card(10, Suit.OROS).index
_SEVENS_AND_SOTA = (RANKS.index(7),) * 3 + (RANKS.index(10),)


@dataclass(frozen=True)
class LanceKeys:
    """Every rank id's standing in each lance under one table's rules, for comparing four hands.

    by_distance[d][li][id]: the composite key of lance li (grande .. punto), ``dense key * 4 + 3 - d`` for a
    hand at distance d from mano, so the four seats' keys differ, the largest wins and an exact tie goes to the
    seat nearer mano (RULES.md §2); a dense key of 0 (composite below 4) takes no part (pares, juego).
    oros_real: under la real with the sota de oros (RULES.md §13), the rank ids of 7-7-7-sota, which are la
    real when the hand holds that card; real_key: la real's dense juego key * 4 (0 when unused).
    """

    by_distance: tuple[tuple[array[int], ...], ...]
    oros_real: frozenset[int]
    real_key: int

    def keys(self, d: int, cards: Sequence[int]) -> tuple[int, ...]:
        """The composite keys of the hand ``cards`` (4 card indexes) at distance ``d`` from mano."""
        rid = rank_id(cards)
        k = tuple(t[rid] for t in self.by_distance[d])
        if rid in self.oros_real and _SOTA_DE_OROS in cards:
            return (k[0], k[1], k[2], self.real_key + 3 - d, k[4])
        return k

    def winners(self, deal: Sequence[Sequence[int]], mano: int) -> tuple[int, int, int, int, int]:
        """The winning seat of each lance of one deal (4 hands of 4 card indexes, by seat), -1 where nobody
        wins: pares or juego that nobody holds, punto when somebody has juego (as
        :func:`~musteach.rules.batch.evaluate_batch`)."""
        ks = [self.keys((s - mano) % 4, deal[s]) for s in range(4)]
        best = [max(k[li] for k in ks) for li in range(5)]
        out = [(mano + 3 - (b & 3)) % 4 for b in best]
        for li in (2, 3, 4):
            if best[li] < 4:
                out[li] = -1
        if best[3] >= 4:
            out[4] = -1
        return out[0], out[1], out[2], out[3], out[4]


    def lance_winners(self, deals: Sequence[Sequence[Sequence[int]]], mano: int, li: int) -> list[int]:
        """The winning seat of lance ``li`` (0 grande .. 4 punto) in each of ``deals`` (as :meth:`winners`,
        -1 where nobody wins), a lance at a time."""
        if self.oros_real:
            return [self.winners(deal, mano)[li] for deal in deals]
        ids = [[rank_id(deal[s]) for deal in deals] for s in range(4)]

        def best(lance: int) -> list[int]:
            tables = [self.by_distance[(s - mano) % 4][lance] for s in range(4)]
            return list(map(max, *(map(t.__getitem__, col) for t, col in zip(tables, ids, strict=True))))

        low = 0 if li < 2 else 4
        out = [(mano + 3 - (b & 3)) % 4 if b >= low else -1 for b in best(li)]
        if li == 4:  # punto is not played when somebody has juego
            out = [-1 if j >= 4 else w for w, j in zip(out, best(3), strict=True)]
        return out


@lru_cache(maxsize=16)
def lance_keys(kings: int, la_real: str | None) -> LanceKeys:
    """The :class:`LanceKeys` of 8 or 4 reyes and a la real mode (None, ``"sota"``, ``"any"`` or
    ``"sota_de_oros"``, see :func:`musteach.odds.space.la_real_mode`), built once per process."""
    by_sorted: dict[tuple[int, ...], HandInfo] = {}
    raw_of: list[tuple[int, ...]] = []
    for t in product(range(10), repeat=4):
        s = tuple(sorted(t))
        raw_of.append(s)
        if s not in by_sorted:
            raw = tuple(RANKS[p] for p in s)
            info = info_from_ranks(raw, kings)
            if la_real_by_ranks(raw, kings, la_real):
                info = HandInfo(info.ranks, info.pares, info.total, True)
            by_sorted[s] = info
    dense_of = []
    real_key = 0
    for lance in LANCES:
        distinct = sorted({k for info in by_sorted.values() if (k := info.key(lance))})
        if lance is Lance.JUEGO and la_real == "sota_de_oros":
            distinct.append(HandInfo((7, 7, 7, 10), None, 31, True).key(lance))
            real_key = len(distinct) * 4
        dense = {k: i + 1 for i, k in enumerate(distinct)}
        dense_of.append({s: dense.get(info.key(lance), 0) * 4 for s, info in by_sorted.items()})
    # 2-byte cells (a dense key is below 16,000): 400 KB per deck and rules instead of 800
    by_distance = tuple(tuple(array("H", (dense_of[li][s] + 3 - d for s in raw_of)) for li in range(5)) for d in range(4))
    oros = frozenset(i for i, s in enumerate(raw_of) if s == _SEVENS_AND_SOTA) if la_real == "sota_de_oros" else frozenset()
    return LanceKeys(by_distance, oros, real_key)


def keys_for(rules: Rules) -> LanceKeys:
    """The :class:`LanceKeys` of a table's rules (its kings and la real, RULES.md §13)."""
    return lance_keys(rules.kings, rules.la_real_figure if rules.la_real else None)


def ids_array(values: Iterable[int]) -> array[int]:
    """Rank ids (0..9999) kept compactly, two bytes each."""
    return array("H", values)


#: How much likelier than a random hand a seat's hand is after the mus (at least one discard round), by its
#: Grande quartile (rows, 0 the weakest) and its pares value (columns: none, par, medias, duples; 8 reyes):
#: the strong level's hands at the start of the lances in 200 games of self-play against random deals
#: (``benchmarks/bench_coach_replay.py --measure-prior``; smoothed by 50 pseudo-hands). Players keep their
#: kings and their pares: after a mus, a hand without either is rare.
AFTER_MUS: tuple[tuple[float, ...], ...] = (
    (0.12, 0.32, 1.22, 0.6),
    (0.4, 0.62, 2.3, 1.23),
    (0.62, 1.43, 7.85, 1.0),
    (1.7, 2.18, 3.45, 2.98),
)


def after_mus_cell(rid: int, kings: int) -> tuple[int, int]:
    """A hand's cell of :data:`AFTER_MUS` from its rank id: (its Grande quartile, its pares value)."""
    facts = rank_facts(kings)
    return min(facts.pct[0][rid] >> 6, 3), facts.pares_value[rid]


def fits_public(view: View, deal: Deal) -> bool:
    """True when ``deal`` fits what ``view.seat`` knows for sure: its partner's hand señas are true of the
    partner's hand (RULES.md §11) and every "pares / juego sí / no" said is true (RULES.md §4)."""
    facts = rank_facts(view.rules.kings)
    partner = (view.seat + 2) % 4
    need = 0
    for s in view.partner_senas:
        if s.kind == "hand" and s.key in SENA_BITS:
            need |= 1 << SENA_BITS[s.key]
    if need and facts.senas[rank_id(deal[partner])] & need != need:
        return False
    for bit, name in ((1, "pares"), (2, "juego")):
        flags = view.declared.get(name)
        if not flags:
            continue
        for seat, said in enumerate(flags):
            if said is not None and seat != view.seat and bool(facts.flags[rank_id(deal[seat])] & bit) != said:
                return False
    return True
