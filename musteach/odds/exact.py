"""Exact lance odds for one hand, and a discard (mus) advisor (RULES.md §1, §2, §3, §4, §5, §7).

One seat sees its own four cards. Which seat wins each lance depends on the 12 cards the other three
players hold, and every way of dealing them from the unseen cards is equally likely. :func:`hand_odds`
counts them all, exactly: no sampling.

>>> o = hand_odds("12o 3c 11e 1b", seat=0, mano=0)
>>> round(o.grande.team, 3), round(o.chica.team, 3), round(o.pares.team, 3)
(0.947, 0.363, 0.864)
>>> o.explain("grande")
'With R-R-C-A as mano, your team wins Grande about 9 times in 10 (0.95): you 0.92, your partner 0.03.'
>>> abs(sum(o.pares.seats) + o.pares.nobody - 1) < 1e-12
True
>>> x = hand_odds("12o 3c 11e 1b", exact=True)
>>> x.grande.team, x.deals
(Fraction(608766467, 642527886), 43370632305000)
>>> a = advise_discard("12o 11c 7e 4b", aim="grande")  # doctest: +SKIP
>>> a.best().describe()  # doctest: +SKIP
'change 7e 4b, keep 12o 11c'

Partners' knowledge: ``partner=`` (the partner's cards, known), ``senas=`` (señas received from the
partner, :data:`SENAS`, RULES.md §11) and ``dead=`` (cards known to be out of play) narrow the deals
counted. La real (RULES.md §13) is taken into account, including the sota de oros option.

How the count works
-------------------
Suits never matter (RULES.md §0), so a hand is one of the 330 multisets of the 8 effective ranks of
8 reyes (R with the 3s, C, S, 7, 6, 5, 4, A with the 2s), or of the 715 multisets of the 10 ranks of
4 reyes. A multiset ``c`` drawn from a pool holding ``n[r]`` cards of rank r stands for
``prod C(n[r], c[r])`` card hands. The partner's and the right-hand opponent's (the next to speak)
multisets are enumerated as pairs (about 100,000 in 8 reyes, 500,000 in 4 reyes); for each pair the
left-hand opponent's chances are read from a table of cumulative counts, per lance level, over the cards
the pair leaves. Every count is an integer below 2**53, so the counting is exact; the floats returned
are the nearest floats to the exact ratios, and ``exact=True`` returns the ratios as
:class:`fractions.Fraction`. One hand takes about 10-20 ms in 8 reyes and 0.1 s in 4 reyes on two
cores (``benchmarks/bench_odds.py``).

The discard advisor (:func:`advise_discard`) lists the 15 ways of changing 1 to 4 cards, with the exact
distribution of the new hand and the odds it brings.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import Any, Union

import numpy as np

from ..rules.cards import DECK, Card, Hand, Suit, parse_hand
from ..rules.errors import DuplicateCardError, MusError, RulesError
from ..rules.lances import (
    HandInfo,
    Lance,
    check_seat,
    effective_rank,
    hand_key_table,
    info_from_ranks,
)
from ..rules.options import Rules

__all__ = [
    "AIMS",
    "SENAS",
    "DiscardAdvice",
    "DiscardOption",
    "HandOdds",
    "Holding",
    "LanceOdds",
    "Redraw",
    "advise_discard",
    "hand_odds",
    "odds_in_words",
    "position_name",
    "prepare_advisor",
]

Number = Union[float, Fraction]  # noqa: UP007  (a runtime alias, kept readable)

_LANCES = (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO, Lance.PUNTO)
_DEFAULT_RULES = Rules()


# ----------------------------------------------------------------------------------------------
# The space of hands: rank classes, their multisets, and the keys of every lance.
# ----------------------------------------------------------------------------------------------


def _la_real_mode(rules: Rules) -> str | None:
    return rules.la_real_figure if rules.la_real else None


def _multisets(caps: Sequence[int] | np.ndarray, size: int) -> list[tuple[int, ...]]:
    """Every count vector of ``size`` items over len(caps) classes with count[i] <= caps[i], sorted."""
    k = len(caps)
    out = set()
    for combo in itertools.combinations_with_replacement(range(k), size):
        c = [0] * k
        for i in combo:
            c[i] += 1
        if all(c[i] <= caps[i] for i in range(k)):
            out.add(tuple(c))
    return sorted(out)


class _Space:
    """Everything that depends only on (kings, la real): built once, cached.

    Card classes are interchangeable for every lance: one class per effective rank (RULES.md §1), and
    under la real with the sota de oros that card is a class of its own. caps: (k,) cards per class.
    M: (m, k) int64, every multiset of 4 cards over the classes (count per class); index: its row.
    lev[i]: (m,) dense level of each multiset for grande, chica, pares, juego (0 = lowest; for pares and
    juego level 0 is "does not hold it"); total: (m,) points for juego / punto. level_keys: lev + [total].
    """

    def __init__(self, kings: int, la_real: str | None):
        self.kings, self.la_real = kings, la_real
        eff = sorted({effective_rank(c.rank, kings) for c in DECK})
        cls_of_card: list[int] = []
        labels: list[tuple[int, bool]] = [(r, False) for r in eff]
        if la_real == "sota_de_oros":
            labels.append((10, True))
        for c in DECK:
            r = effective_rank(c.rank, kings)
            if la_real == "sota_de_oros" and c.rank == 10 and c.suit is Suit.OROS:
                cls_of_card.append(len(eff))
            else:
                cls_of_card.append(eff.index(r))
        self.labels = labels  # (effective rank, is the sota de oros)
        self.class_rank = np.array([r for r, _ in labels], dtype=np.int64)
        self.card_class = np.array(cls_of_card, dtype=np.int64)
        k = self.k = len(labels)
        self.caps = np.bincount(self.card_class, minlength=k).astype(np.int64)
        _, table = hand_key_table(kings)
        pos = {r: i for i, r in enumerate(eff)}
        ms = _multisets(self.caps, 4)
        self.M = np.array(ms, dtype=np.int64)
        self.m = m = len(ms)
        self.index = {c: i for i, c in enumerate(ms)}
        keys = []
        for c in ms:
            ranks = [labels[i][0] for i in range(k) for _ in range(c[i])]
            keys.append(table[sum(5 ** pos[r] for r in ranks)])
        keys_a = np.array(keys, dtype=np.int64)
        jk = keys_a[:, 3].copy()
        self.la_real_mask = np.zeros(m, dtype=bool)
        if la_real is not None:
            seven = eff.index(7)
            for i, c in enumerate(ms):
                if c[seven] != 3:
                    continue
                other = next(j for j in range(k) if c[j] and j != seven)
                r, oros = labels[other]
                if (la_real == "sota" and r == 10) or (la_real == "any" and r >= 10) or (la_real == "sota_de_oros" and oros):
                    self.la_real_mask[i] = True
            jk[self.la_real_mask] = jk.max() + 1
        self.total = keys_a[:, 4].copy()
        raw = (keys_a[:, 0], keys_a[:, 1], keys_a[:, 2], jk)
        self.lev = [np.unique(x, return_inverse=True)[1].astype(np.int64).reshape(-1) for x in raw]
        self.pares_value = np.where(keys_a[:, 2] > 0, keys_a[:, 2] // 256, 0)  # par 1, medias 2, duples 3
        self.juego_value = np.where(self.lev[3] > 0, np.where((self.total == 31) | self.la_real_mask, 3, 2), 0)
        # Per lance (and for the totals of juego / punto): multisets sorted by level.
        self.level_keys = [*self.lev, self.total]
        self.top = [int(lv.max()) + 1 for lv in self.level_keys]  # one past the highest level
        self.sorted_by = []
        for lv in self.level_keys:
            order = np.argsort(lv, kind="stable")
            self.sorted_by.append((order, lv[order]))
        # Binomials C(n, j) for n in -8..8 (negative n gives 0), and the two-half factorisation of
        # W[row, c] = prod_i C(r_i, c_i) = XA[row, a(c)] * XB[row, b(c)].
        cx = np.zeros((17, 9), dtype=np.int16)  # every count below fits: at most C(28, 4) = 20475
        for n in range(9):
            for j in range(n + 1):
                cx[n + 8, j] = comb(n, j)
        self.cx = cx
        self.cxt = np.ascontiguousarray(cx.T)  # (9, 17): cxt[j, n + 8] = C(n, j)
        h = self.h = k // 2
        sub_a = [c for size in range(5) for c in _multisets(self.caps[:h], size)]
        sub_a.append((0,) * h)  # a copy of the empty sub-multiset, zeroed in _table_w: the sentinel
        sub_b = [c for size in range(5) for c in _multisets(self.caps[h:], size)]
        self.sub_a, self.sub_b = np.array(sub_a, dtype=np.int64), np.array(sub_b, dtype=np.int64)
        da = {c: i for i, c in enumerate(sub_a[:-1])}
        db = {c: i for i, c in enumerate(sub_b)}
        self.a_of = np.array([da[c[:h]] for c in ms] + [len(sub_a) - 1], dtype=np.int64)
        self.b_of = np.array([db[c[h:]] for c in ms] + [0], dtype=np.int64)
        self._plans: dict[tuple[int, int], tuple[np.ndarray, np.ndarray | None]] = {}
        self._buffers: dict[str, np.ndarray] = {}
        self.lock = threading.Lock()
        self._pairs: tuple[np.ndarray, ...] | None = None
        self._pos_plans: dict[int, _Plan] = {}
        self._infos: list[HandInfo] | None = None

    def pairs(self) -> tuple[np.ndarray, ...]:
        """Every pair (x, y) of multisets that fits in the deck, sorted by their union.

        Returns (unions (u, k), x (p,), y (p,), row (p,), split (p,)): ``row`` indexes the union and
        ``split = prod C(x_i + y_i, x_i)``, so that ``prod C(n_i, U_i) * split`` counts the card choices.
        """
        if self._pairs is None:
            M, caps = self.M, self.caps
            xi, yi = np.meshgrid(np.arange(self.m), np.arange(self.m), indexing="ij")
            xi, yi = xi.ravel(), yi.ravel()
            u = M[xi] + M[yi]
            ok = (u <= caps).all(axis=1)
            xi, yi, u = xi[ok], yi[ok], u[ok]
            radix = caps + 1
            mult = np.concatenate([[1], np.cumprod(radix[:-1])])
            code = u @ mult
            uniq, row = np.unique(code, return_inverse=True)
            row = row.reshape(-1)
            order = np.argsort(row, kind="stable")
            xi, yi, row, u = xi[order], yi[order], row[order], u[order]
            unions = np.zeros((len(uniq), self.k), dtype=np.int64)
            unions[row] = u
            split = np.prod(self.cx[u + 8, M[xi]].astype(np.int64), axis=1)
            self._pairs = (unions, xi, yi, row, split)
        return self._pairs

    def plan(self, pos0: int, partner: int | None = None) -> _Plan:
        """The pair arrays for a seat at distance ``pos0`` from mano, with an unknown partner (cached)
        or with the partner's multiset index ``partner`` known."""
        if partner is not None:
            return _Plan(self, pos0, partner)
        plan = self._pos_plans.get(pos0)
        if plan is None:
            plan = self._pos_plans[pos0] = _Plan(self, pos0, None)
        return plan

    def buffer(self, name: str, shape: tuple[int, int]) -> np.ndarray:
        """A reused, C-contiguous int16 work array of ``shape`` (callers hold :attr:`lock`)."""
        size = shape[0] * shape[1]
        buf = self._buffers.get(name)
        if buf is None or len(buf) < size:
            buf = np.empty(size, dtype=np.int16)
            self._buffers[name] = buf
        return buf[:size].reshape(shape)

    def suffix_plan(self, li: int, lo: int) -> tuple[np.ndarray, np.ndarray | None]:
        """Rows of W to sum for lance ``li`` from level ``lo`` up (ascending, then the zero sentinel m),
        and, when several multisets share a level, the row where each level lo-1+j's suffix starts."""
        plan = self._plans.get((li, lo))
        if plan is None:
            order, lv = self.sorted_by[li]
            start = int(np.searchsorted(lv, lo))
            sel = np.concatenate([order[start:], [self.m]])
            first = np.searchsorted(lv[start:], np.arange(lo, self.top[li] + 1))
            unique = len(first) == len(sel) and bool((first == np.arange(len(sel))).all())
            plan = (sel, None if unique else first)
            self._plans[(li, lo)] = plan
        return plan

    def multiset_of(self, cards: Iterable[Card]) -> np.ndarray:
        return np.bincount([int(self.card_class[c.index]) for c in cards], minlength=self.k).astype(np.int64)

    def info(self, i: int) -> HandInfo:
        """The :class:`HandInfo` of multiset i (la real set when the multiset is la real)."""
        if self._infos is None:
            infos = []
            for j in range(self.m):
                ranks = tuple(int(self.class_rank[c]) for c in range(self.k) for _ in range(int(self.M[j, c])))
                info = info_from_ranks(ranks, 4)
                if self.la_real_mask[j]:
                    info = HandInfo(info.ranks, info.pares, info.total, True)
                infos.append(info)
            self._infos = infos
        return self._infos[i]


@lru_cache(maxsize=8)
def _space(kings: int, la_real: str | None) -> _Space:
    return _Space(kings, la_real)


def _space_for(rules: Rules) -> _Space:
    return _space(rules.kings, _la_real_mode(rules))


# ----------------------------------------------------------------------------------------------
# The count.
# ----------------------------------------------------------------------------------------------

_CHUNK_ROWS = 8192  # unions per step: bounds memory (4 reyes has 22,110 unions of 8 cards)


class _Plan:
    """Per-pair arrays for one position (distance ``pos0`` from mano), built once and reused.

    The enumerated pair is (x, y) = (partner, first opponent after the seat): every pair of multisets
    that fits in the deck, or, with the partner known, the partner's multiset with every y. ``rows``
    index the union x + y (or y alone), pairs sorted by it and cut into chunks of rows. Per lance:
    ``ay`` = y's adjusted level ``4 * level + 3 - distance from mano``; ``axy`` = the larger of x's and
    y's; ``gt`` = x's beats y's; ``gt_hold`` = x holds (pares / juego) and beats y; ``p`` = where, in the
    cumulative table of :func:`_cdf_from`, the last seat's losing hands are counted if x or y is the
    best so far (row ``(t + 1)``, t = the highest level of the last seat that still loses).
    """

    def __init__(self, sp: _Space, pos0: int, partner: int | None):
        off = [3 - (pos0 + r) % 4 for r in range(4)]
        if partner is None:
            self.unions, self.xs, ys, self.rows, self.split = sp.pairs()
            self.usize = 8
        else:
            self.unions = sp.M
            ys = np.arange(sp.m)
            self.xs = np.full(sp.m, partner)
            self.rows = ys
            self.split = np.ones(sp.m, dtype=np.int64)
            self.usize = 4
        nrows = len(self.unions)
        bounds = [*range(0, nrows, _CHUNK_ROWS), nrows]
        cuts = np.searchsorted(self.rows, bounds)
        self.chunks = list(zip(bounds[:-1], bounds[1:], cuts[:-1], cuts[1:], strict=True))
        self.rl = np.empty(len(self.rows), dtype=np.int32)
        nr = np.empty(len(self.rows), dtype=np.int32)
        for r0, r1, c0, c1 in self.chunks:
            self.rl[c0:c1] = self.rows[c0:c1] - r0
            nr[c0:c1] = r1 - r0
        self.lances = []
        for li, lv in enumerate(sp.level_keys):
            ax = (4 * lv[self.xs] + off[2]).astype(np.int32)
            ay = (4 * lv[ys] + off[1]).astype(np.int32)
            axy = np.maximum(ax, ay)
            t = (axy - (off[3] + 1)) >> 2
            if li in (2, 3):
                np.maximum(t, 0, out=t)
            gt = ax > ay
            self.lances.append(
                {
                    "ay": ay,
                    "axy": axy,
                    "gt": gt,
                    "gt_hold": gt & (ax >= 4),
                    "x_hold": ax >= 4,
                    "y_hold": ay >= 4,
                    "t": t.astype(np.int32),
                    "p": ((t + 1) * nr + self.rl).astype(np.int32),
                }
            )
        self.no_juego = (sp.lev[3][self.xs] == 0) & (sp.lev[3][ys] == 0)
        self.value = {2: sp.pares_value[self.xs], 3: sp.juego_value[self.xs]}


def _table_w(sp: _Space, rest: np.ndarray) -> np.ndarray:
    """``W[c, row] = prod_i C(rest[row, i], M[c, i])``: card hands of multiset c each pool row leaves.

    rest: (rows, k) cards left per class (negative for a union that does not fit: its row is 0).
    Returns (m + 1, rows) int16 in a reused buffer; the extra last row is all zeros (a sentinel for
    :func:`_cdf_from`).
    """
    cxt, h = sp.cxt, sp.h
    idx = rest.T + 8
    xa = np.take(cxt[sp.sub_a[:, 0]], idx[0], axis=1)
    for i in range(1, h):
        xa *= np.take(cxt[sp.sub_a[:, i]], idx[i], axis=1)
    xb = np.take(cxt[sp.sub_b[:, 0]], idx[h], axis=1)
    for i in range(h + 1, sp.k):
        xb *= np.take(cxt[sp.sub_b[:, i - h]], idx[i], axis=1)
    xa[-1] = 0  # the sentinel sub-multiset: W[m] = 0
    # Reused buffers and take(mode="clip") avoid fresh page-faulting allocations of several MB.
    shape = (sp.m + 1, len(rest))
    w, tmp = sp.buffer("w", shape), sp.buffer("tmp", shape)
    np.take(xa, sp.a_of, axis=0, out=w, mode="clip")
    np.take(xb, sp.b_of, axis=0, out=tmp, mode="clip")
    np.multiply(w, tmp, out=w)
    return w


def _cdf_from(sp: _Space, w: np.ndarray, li: int, lo: int, tz: int) -> np.ndarray:
    """Cumulative counts of the last hand by level of lance ``li``, from level ``lo - 1`` up.

    w: (m + 1, rows) from :func:`_table_w`. Returns ``out`` of shape (top - lo + 1, rows) with
    ``out[j, row]`` = hands of level <= lo - 1 + j, computed as ``tz`` minus the hands above, so only
    multisets of level >= lo are summed: a strong hand costs little.
    """
    sel, first = sp.suffix_plan(li, lo)
    g = sp.buffer("tmp", (len(sel), w.shape[1]))
    np.take(w, sel, axis=0, out=g, mode="clip")
    for i in range(len(g) - 2, -1, -1):  # suffix sums: g[i] = hands of the multisets sel[i:]
        g[i] += g[i + 1]
    if first is not None:
        g = g[first]
    np.subtract(tz, g, out=g)
    return g


def _team_part(
    plan: _Plan, lp: dict[str, np.ndarray], li: int, c0: int, c1: int, w: np.ndarray, zl: np.ndarray, am: int, lo: int,
    me_value: dict[int, int],
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """For pairs c0:c1 of one lance: (w * zl, the team's-best mask, deals the team wins, its stones)."""
    zero = li in (2, 3)
    if zero and lo == 0:
        team = lp["gt_hold"][c0:c1]  # the partner holds it and beats the first opponent
    else:
        team = lp["gt"][c0:c1] | (lp["ay"][c0:c1] < am)  # the team's best beats the first opponent
    wz = w * zl
    wzt = np.where(team, wz, 0)
    s_team = int(wzt.sum())
    if zero:  # en paso the winners score both partners' jugadas (RULES.md §7)
        return wz, team, s_team, int((wzt * (plan.value[li][c0:c1] + me_value[li])).sum())
    return wz, team, s_team, s_team


def _level0(sp: _Space, w: np.ndarray, li: int) -> np.ndarray:
    """Hands of the last seat at level 0 (no pares / no juego), per pool row."""
    order, lv = sp.sorted_by[li]
    rows = order[: int(np.searchsorted(lv, 1))]
    g = sp.buffer("z0", (len(rows), w.shape[1]))
    np.take(w, rows, axis=0, out=g, mode="clip")
    return g.sum(axis=0)


@dataclass(frozen=True)
class _Counts:
    """Integer counts of deals of the unseen cards (all equally likely); see :func:`_count`.

    team[li]: deals the asking team wins lance li (0 grande, 1 chica, 2 pares, 3 juego, 4 punto).
    stones[li]: the sum over deals of the stones the asking team takes in lance li en paso.
    With ``detail`` only: seats[li] = counts by relative seat 0 (the asking seat), 1 (next to speak after
    it), 2 (partner), 3 (the other opponent), then 4 = nobody; holding[li] for li 2, 3 = (team holds,
    opponents hold, both hold, nobody holds, both hold and the team wins).
    """

    deals: int
    team: tuple[int, ...]
    seats: tuple[tuple[int, ...], ...]
    holding: dict[int, tuple[int, ...]]
    stones: tuple[int, ...]


def _senas_mask(sp: _Space, senas: tuple[str, ...]) -> np.ndarray:
    mask = np.ones(sp.m, dtype=bool)
    for name in senas:
        test = SENAS[name][1]
        mask &= np.array([test(sp.info(i)) for i in range(sp.m)], dtype=bool)
    return mask


@lru_cache(maxsize=4096)
def _count(
    kings: int,
    la_real: str | None,
    me: tuple[int, ...],
    pool: tuple[int, ...],
    pos0: int,
    partner: tuple[int, ...] | None = None,
    senas: tuple[str, ...] = (),
    detail: bool = True,
) -> _Counts:
    """Count every deal of the pool to the unknown hands, lance by lance.

    me: the asking seat's multiset (counts per class); pool: counts per class of the cards the unknown
    hands are dealt from; pos0: the asking seat's distance from mano (0 = mano ... 3 = postre);
    partner: the partner's multiset when known (then already out of ``pool``), else None; senas: names
    of :data:`SENAS` the (unknown) partner's hand satisfies. detail: also split the counts by seat and
    count who holds pares / juego (else only the team's wins and stones are filled in).

    Relative seats: 0 me, 1 the next to speak after me (an opponent), 2 my partner, 3 the other opponent.
    Hands 1 and 2 are enumerated (as multisets, weighted by their card choices); hand 3 is summed out
    through cumulative tables over the cards each pair leaves. A seat's "adjusted level" is
    ``4 * level + 3 - distance from mano``: all four differ, and the largest wins with exact ties going
    to the seat nearer mano (RULES.md §2).
    """
    sp = _space(kings, la_real)
    n = np.array(pool, dtype=np.int64)
    me_i = sp.index[me]
    plan = sp.plan(pos0, None if partner is None else sp.index[partner])
    off = [3 - (pos0 + r) % 4 for r in range(4)]
    tz = comb(int(n.sum()) - plan.usize, 4)  # card hands of the last seat, whatever the pair
    ctab = np.array([[comb(int(n[i]), v) for v in range(9)] for i in range(sp.k)], dtype=np.int64)
    w_all = np.prod(ctab[np.arange(sp.k), plan.unions], axis=1)[plan.rows] * plan.split
    if senas:
        w_all = w_all * _senas_mask(sp, senas)[plan.xs]
    deals = tz * int(w_all.sum())
    if deals == 0:
        raise MusError("no deal of the unseen cards fits what is known: the señas cannot all be true")

    seats = [[0] * 5 for _ in range(5)]  # relative seat 0..3, then nobody
    holding = {2: [0] * 5, 3: [0] * 5}
    stones = [0] * 5
    team_wins = [0] * 5
    me_lev = [int(lv[me_i]) for lv in sp.level_keys]
    me_juego = me_lev[3] > 0
    me_value = {2: int(sp.pares_value[me_i]), 3: int(sp.juego_value[me_i])}

    with sp.lock:  # the work buffers are shared
        for r0, r1, c0, c1 in plan.chunks:
            w = w_all[c0:c1]
            w_sum = int(w.sum())
            if not w_sum:
                continue
            rl = plan.rl[c0:c1]
            nr = r1 - r0
            wt = _table_w(sp, n - plan.unions[r0:r1])
            for li in range(5):
                if li == 4 and me_juego:  # punto is not played
                    seats[4][4] += tz * w_sum
                    continue
                lp = plan.lances[li]
                zero = li in (2, 3)  # level 0 = does not hold pares / juego, and never wins
                lo = me_lev[li]
                am = 4 * lo + off[0]
                t_me = (am - (off[3] + 1)) >> 2  # the last seat loses to me iff its level <= t_me
                if zero:
                    t_me = max(t_me, 0)
                cdf = _cdf_from(sp, wt, li, lo, tz).ravel()
                q = rl + (t_me + 1) * nr
                np.maximum(q, lp["p"][c0:c1], out=q)  # the best of me, x and y sets the bar
                if lo:
                    q -= lo * nr
                zl = cdf[q]  # per pair: hands of the last seat that lose
                if li == 4:  # punto: only when nobody has juego; its levels are the totals
                    w = np.where(plan.no_juego[c0:c1], w, 0)
                wz, team, s_team, s_stones = _team_part(plan, lp, li, c0, c1, w, zl, am, lo, me_value)
                team_wins[li] += s_team
                stones[li] += s_stones
                if not detail:
                    continue
                s_all = int(wz.sum())
                axy = lp["axy"][c0:c1]
                s_me = 0 if zero and lo == 0 else int(np.where(axy < am, wz, 0).sum())
                s_nobody = int(np.where(axy < 4, wz, 0).sum()) if zero and lo == 0 else 0
                row = seats[li]
                row[0] += s_me
                row[2] += s_team - s_me
                row[1] += s_all - s_team - s_nobody
                row[4] += s_nobody
                if li == 4:
                    z30 = cdf[rl + (30 - lo + 1) * nr]  # hands of the last seat without juego
                    row[3] += int((w * (z30 - zl)).sum())
                    row[4] += int((w * (tz - z30)).sum()) + tz * (w_sum - int(w.sum()))
                else:
                    row[3] += tz * w_sum - s_all
                if zero:
                    zle0 = cdf[rl + (1 - lo) * nr] if lo <= 1 else _level0(sp, wt, li)[rl]
                    h = holding[li]
                    yh = lp["y_hold"][c0:c1]
                    wo = w * np.where(yh, tz, tz - zle0)  # x, y and an opponent holding it
                    w0 = w * zle0  # ... and the last seat without it
                    if lo > 0:
                        h[0] += tz * w_sum
                        h[2] += int(wo.sum())
                    else:
                        xh = lp["x_hold"][c0:c1]
                        h[0] += tz * int(np.where(xh, w, 0).sum())
                        h[2] += int(np.where(xh, wo, 0).sum())
                        h[3] += int(np.where(xh | yh, 0, w0).sum())
                    h[1] += int(wo.sum())
                    h[4] += s_team - int(np.where(team & ~yh, w0, 0).sum())
    return _Counts(
        deals, tuple(team_wins), tuple(tuple(s) for s in seats), {k: tuple(v) for k, v in holding.items()}, tuple(stones)
    )


#: The batch of :func:`_all_hands` keeps one cumulative table per lance over every 12-card multiset;
#: it is used when that stays small (8 reyes: 30,096 multisets x 331, about 45 MB of int16 in all;
#: 4 reyes would need 182,005 x 716 per table, so it counts hand by hand).
_BATCH_MAX_CELLS = 12_000_000


def _batch_ok(sp: _Space) -> bool:
    """True if the 12-card multisets times the 4-card ones stay under :data:`_BATCH_MAX_CELLS`."""
    poly = np.array([1], dtype=np.int64)
    for cap in sp.caps:
        poly = np.convolve(poly, np.ones(int(cap) + 1, dtype=np.int64))
    return int(poly[12]) * (sp.m + 1) <= _BATCH_MAX_CELLS


_CACHE_VERSION = 1


def _cache_path(kings: int, la_real: str | None, pos0: int) -> Path | None:
    """Where the advisor's table for one position is kept between processes, or None when caching is off.

    The folder is ``$MUSTEACH_CACHE_DIR`` or the user cache folder (platformdirs); ``MUSTEACH_CACHE_DIR=off``
    turns the disk cache off. The file name carries a digest of this module's source, so a changed engine
    never reads numbers counted by an older one.
    """
    where = os.environ.get("MUSTEACH_CACHE_DIR")
    if where == "off":
        return None
    if not where:
        import platformdirs

        where = platformdirs.user_cache_dir("musteach")
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    return Path(where) / f"advisor-v{_CACHE_VERSION}-{kings}-{la_real}-{pos0}-{digest}.json"


@lru_cache(maxsize=8)
def _all_hands(kings: int, la_real: str | None, pos0: int) -> dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]:
    """:func:`_count_all_hands`, kept on disk between processes (each Voilà visitor has its own kernel)."""
    path = _cache_path(kings, la_real, pos0)
    if path is not None:
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
            return {tuple(k): (tuple(t), tuple(st)) for k, t, st in rows}
        except (OSError, ValueError, TypeError):
            pass  # missing or damaged: count again and rewrite it
    table = _count_all_hands(kings, la_real, pos0)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump([[list(k), [int(x) for x in t], [int(x) for x in st]] for k, (t, st) in table.items()], f)
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only home is fine: the table is simply counted again next time
    return table


def _count_all_hands(kings: int, la_real: str | None, pos0: int) -> dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]:
    """Team wins and en-paso stones, per lance, for EVERY hand of the seat at distance ``pos0`` from mano,
    with nothing else known (the other hands dealt from the 36 cards not in it): the same numbers as
    ``_count(..., detail=False)`` hand by hand, in one batch.

    The last seat's cumulative tables depend only on the 12 cards of the seat, the partner and the first
    opponent together, so they are built once over every such multiset; each hand then only runs the
    pair arithmetic. Returns ``{multiset: (team wins, stones)}``; every hand has the same deal count.
    """
    sp = _space(kings, la_real)
    plan = sp.plan(pos0)
    unions, _, _, rows, split = sp.pairs()
    caps = sp.caps
    radix = caps + 1
    mult = np.concatenate([[1], np.cumprod(radix[:-1])])
    ucode = unions @ mult
    hcode = sp.M @ mult
    v_all = (ucode[:, None] + hcode[None, :]).ravel()
    fits = ((unions[:, None, :] + sp.M[None, :, :]) <= caps).all(axis=2).ravel()
    vcodes = np.unique(v_all[fits])
    nv = len(vcodes)
    lut = np.zeros(int(np.prod(radix)), dtype=np.int32)
    lut[vcodes] = np.arange(nv, dtype=np.int32)
    vs = np.zeros((nv, sp.k), dtype=np.int64)  # decode the 12-card multisets
    rem = vcodes.copy()
    for i in range(sp.k):
        vs[:, i] = rem % radix[i]
        rem //= radix[i]
    tz = comb(int(caps.sum()) - 12, 4)
    # tables[li][v, j] = last-seat hands of level <= j - 1 left by 12-card multiset v. This layout keeps
    # the lookups of one hand (v rises along the pairs) close together in memory.
    tables = [np.empty((nv, top + 1), dtype=np.int16) for top in sp.top]
    with sp.lock:
        for r0 in range(0, nv, _CHUNK_ROWS):
            r1 = min(r0 + _CHUNK_ROWS, nv)
            wt = _table_w(sp, caps - vs[r0:r1])
            for li in range(5):
                tables[li][r0:r1] = _cdf_from(sp, wt, li, 0, tz).T
    flat = [t.ravel() for t in tables]
    width = [t.shape[1] for t in tables]
    off = [3 - (pos0 + r) % 4 for r in range(4)]
    bar = [lp["t"] + 1 for lp in plan.lances]  # the table column of the bar x or y sets
    pair_code = ucode[rows]
    top_code = len(lut) - 1
    out = {}
    chunk = (0, len(rows))
    # a_n[h, u] = prod_i C(caps_i - h_i, U_i): card choices of union u once hand h is out of the deck.
    cx = sp.cx.astype(np.int64)
    a_n = np.ones((sp.m, len(unions)), dtype=np.int64)
    for i in range(sp.k):
        a_n *= cx[(caps[i] - sp.M[:, i] + 8)[:, None], unions[None, :, i]]
    for hi in range(sp.m):
        me = sp.M[hi]
        w_all = a_n[hi][rows] * split
        vrow = np.take(lut, np.minimum(pair_code + hcode[hi], top_code))  # unfitting pairs have w = 0
        me_lev = [int(lv[hi]) for lv in sp.level_keys]
        me_value = {2: int(sp.pares_value[hi]), 3: int(sp.juego_value[hi])}
        team, stones = [0] * 5, [0] * 5
        for li in range(5):
            if li == 4 and me_lev[3] > 0:
                continue
            lo = me_lev[li]
            am = 4 * lo + off[0]
            t_me = (am - (off[3] + 1)) >> 2
            if li in (2, 3):
                t_me = max(t_me, 0)
            q = np.maximum(bar[li], t_me + 1)
            q += vrow * width[li]
            zl = flat[li][q]
            w = np.where(plan.no_juego, w_all, 0) if li == 4 else w_all
            _, _, team[li], stones[li] = _team_part(plan, plan.lances[li], li, *chunk, w, zl, am, lo, me_value)
        out[tuple(int(v) for v in me)] = (tuple(team), tuple(stones))
    return out


# ----------------------------------------------------------------------------------------------
# Señas: what a partner's sign says about the partner's hand (RULES.md §11).
# ----------------------------------------------------------------------------------------------


def _count_rank(info: HandInfo, rank: int) -> int:
    return sum(1 for r in info.ranks if r == rank)


#: Señas a seat can receive from its partner, by name: (gloss, test of the partner's hand).
#: Counts of kings and aces are exact (in 8 reyes a 3 is a king and a 2 an ace, RULES.md §1); "juego"
#: is juego other than 31, as the FEM list signs 31 apart. Pass the names as ``senas=`` to
#: :func:`hand_odds`: the partner's unknown hand is then only dealt hands that pass every test.
SENAS: dict[str, tuple[str, Callable[[HandInfo], bool]]] = {
    "2 reyes": ("bite the lower lip: exactly two kings", lambda i: _count_rank(i, 12) == 2),
    "3 reyes": ("bite one side of the lip: exactly three kings", lambda i: _count_rank(i, 12) == 3),
    "4 reyes": ("bite the lip twice: four kings", lambda i: _count_rank(i, 12) == 4),
    "2 ases": ("tip of the tongue out: exactly two aces", lambda i: _count_rank(i, 1) == 2),
    "3 ases": ("tongue out to one side: exactly three aces", lambda i: _count_rank(i, 1) == 3),
    "4 ases": ("tongue out twice: four aces", lambda i: _count_rank(i, 1) == 4),
    "pares": ("turn the head to one side: pares", lambda i: i.pares is not None),
    "medias": ("lips twisted to one side: medias (three of a kind)", lambda i: i.pares is not None and i.pares.kind == "medias"),
    "duples": ("raise the eyebrows: duples", lambda i: i.pares is not None and i.pares.kind == "duples"),
    "31": ("wink: juego of 31", lambda i: i.total == 31),
    "juego": ("lips pushed out: juego, not 31", lambda i: i.total >= 32),
    "punto 30": ("shrug both shoulders: punto of 30", lambda i: i.total == 30),
    "punto 29": ("shrug one shoulder: punto of 29", lambda i: i.total == 29),
    "ciego": ("close both eyes: no pares and no juego", lambda i: i.pares is None and i.total < 31),
}


# ----------------------------------------------------------------------------------------------
# Results.
# ----------------------------------------------------------------------------------------------

_POSITION_NAMES = ("as mano", "second to speak", "third to speak", "as postre")


def position_name(distance: int) -> str:
    """Words for a seat's distance from mano: ``"as mano"``, ``"second to speak"``, ... ``"as postre"``."""
    return _POSITION_NAMES[distance % 4]


def odds_in_words(p: float | Fraction) -> str:
    """A probability as a coach says it: ``"about 9 times in 10"``, ``"almost never"`` (RULES.md-free).

    >>> odds_in_words(0.93), odds_in_words(0.5), odds_in_words(0.97), odds_in_words(0.001), odds_in_words(1)
    ('about 9 times in 10', 'about 5 times in 10', 'more than 19 times in 20', 'almost never', 'always')
    """
    p = float(p)
    if p >= 1:
        return "always"
    if p <= 0:
        return "never"
    if p >= 0.995:
        return "almost always"
    if p < 0.005:
        return "almost never"
    if p > 0.95:
        return "more than 19 times in 20"
    if p < 0.05:
        return "less than 1 time in 20"
    n = min(max(round(p * 10), 1), 9)
    return f"about {n} time{'s' if n > 1 else ''} in 10"


@dataclass(frozen=True, slots=True)
class LanceOdds:
    """Who wins one lance, over every deal of the unseen cards.

    lance: the :class:`~musteach.rules.lances.Lance`. seat: the asking seat (0..3).
    seats: 4 probabilities, indexed by absolute seat, that that seat wins the lance (RULES.md §5, ties to
    the seat nearer mano, §2). nobody: probability that nobody wins it: no pares held (Pares), no juego
    held (Juego), or somebody has juego (Punto is then not played, §4). ``sum(seats) + nobody == 1``.
    team_stones: expected stones the asking team takes in this lance when every lance is passed
    (*en paso*, RULES.md §7): 1 for Grande, Chica and Punto; both partners' pares values (par 1,
    medias 2, duples 3) or juego values (31 = 3, other juego 2) for Pares and Juego.
    Numbers are floats, or :class:`fractions.Fraction` when asked with ``exact=True``.
    """

    lance: Lance
    seat: int
    seats: tuple[Number, Number, Number, Number]
    nobody: Number
    team_stones: Number

    @property
    def team(self) -> Number:
        """Probability that the asking seat's team (the seat or its partner) wins the lance."""
        return self.seats[self.seat] + self.seats[(self.seat + 2) % 4]

    @property
    def opponents(self) -> Number:
        """Probability that one of the two opponents wins the lance."""
        return self.seats[(self.seat + 1) % 4] + self.seats[(self.seat + 3) % 4]

    @property
    def you(self) -> Number:
        """Probability that the asking seat itself wins the lance."""
        return self.seats[self.seat]

    @property
    def partner(self) -> Number:
        """Probability that the asking seat's partner wins the lance."""
        return self.seats[(self.seat + 2) % 4]

    def as_dict(self) -> dict[str, Any]:
        """Plain floats, JSON-ready."""
        return {
            "lance": self.lance.value,
            "seats": [float(x) for x in self.seats],
            "nobody": float(self.nobody),
            "team": float(self.team),
            "opponents": float(self.opponents),
            "team_stones": float(self.team_stones),
        }


@dataclass(frozen=True, slots=True)
class Holding:
    """Who holds pares, or juego, over every deal of the unseen cards (RULES.md §4).

    team: probability that the asking seat or its partner holds it. opponents: that at least one
    opponent holds it. betting: that at least one player of EACH team holds it, so the lance is bet on
    (among the holders only). nobody: that no player holds it (no Pares; Punto instead of Juego).
    team_wins_betting: that the lance is bet on AND the asking team has the best jugada.
    """

    lance: Lance
    team: Number
    opponents: Number
    betting: Number
    nobody: Number
    team_wins_betting: Number

    @property
    def team_only(self) -> Number:
        """Probability that only the asking team holds it: the team takes the lance without betting."""
        return self.team - self.betting

    @property
    def opponents_only(self) -> Number:
        """Probability that only the opponents hold it."""
        return self.opponents - self.betting

    @property
    def team_wins_if_betting(self) -> Number | None:
        """Probability that the team wins the lance given that it is bet on; None if it never is."""
        if not self.betting:
            return None
        return self.team_wins_betting / self.betting

    def as_dict(self) -> dict[str, Any]:
        """Plain floats, JSON-ready."""
        return {
            "lance": self.lance.value,
            "team": float(self.team),
            "opponents": float(self.opponents),
            "betting": float(self.betting),
            "nobody": float(self.nobody),
            "team_only": float(self.team_only),
            "opponents_only": float(self.opponents_only),
            "team_wins_betting": float(self.team_wins_betting),
        }


@dataclass(frozen=True)
class HandOdds:
    """Exact odds of every lance for one seat's hand (see :func:`hand_odds`).

    hand: the seat's :class:`~musteach.rules.cards.Hand`; seat, mano: seats 0..3; rules: the
    :class:`~musteach.rules.Rules`; partner: the partner's hand when known, else None; senas: the señas
    received from the partner; dead: cards known to be out of play; exact: True when the numbers are
    Fractions. deals: how many equally likely deals of the unseen cards were counted. info: the hand's
    :class:`~musteach.rules.lances.HandInfo`. grande ... punto: one :class:`LanceOdds` each.
    pares_holding, juego_holding: :class:`Holding`.
    """

    hand: Hand
    seat: int
    mano: int
    rules: Rules
    partner: Hand | None
    senas: tuple[str, ...]
    dead: tuple[Card, ...]
    exact: bool
    deals: int
    info: HandInfo
    grande: LanceOdds
    chica: LanceOdds
    pares: LanceOdds
    juego: LanceOdds
    punto: LanceOdds
    pares_holding: Holding
    juego_holding: Holding

    def __getitem__(self, lance: Lance | str) -> LanceOdds:
        return getattr(self, Lance.parse(lance).value)

    @property
    def position(self) -> int:
        """The seat's distance from mano: 0 = mano, 3 = postre (RULES.md §2)."""
        return (self.seat - self.mano) % 4

    def lances(self) -> tuple[LanceOdds, ...]:
        """The five :class:`LanceOdds` in lance order."""
        return (self.grande, self.chica, self.pares, self.juego, self.punto)

    def win(self, lance: Lance | str) -> Number:
        """Probability that the seat's team wins ``lance``."""
        return self[lance].team

    @property
    def no_pares(self) -> Number:
        """Probability that nobody holds pares (the Pares lance scores nothing)."""
        return self.pares_holding.nobody

    @property
    def no_juego(self) -> Number:
        """Probability that nobody holds juego (Punto is played instead, RULES.md §4)."""
        return self.juego_holding.nobody

    @property
    def team_stones(self) -> Number:
        """Expected stones the team takes over the five lances when all are passed (RULES.md §7)."""
        return sum((lo.team_stones for lo in self.lances()), Fraction(0) if self.exact else 0.0)

    def explain(self, lance: Lance | str) -> str:
        """One sentence a coach can show, e.g.
        ``"With R-R-R-C as mano, your team wins Grande more than 19 times in 20 (0.96): ..."``."""
        lo = self[lance]
        info = self.info
        lance = lo.lance
        head = f"With {info.grande_str if lance is not Lance.CHICA else info.chica_str} {position_name(self.position)}"
        if self.partner is not None:
            head += f" and your partner's {_grande_str(self.partner, self.rules)} known"
        elif self.senas:
            head += f" and your partner's seña ({', '.join(self.senas)})"
        team = float(lo.team)
        win = f"your team wins {lance.title} {odds_in_words(team)} ({team:.2f})"
        split = f"you {float(lo.you):.2f}, your partner {float(lo.partner):.2f}"
        if lance in (Lance.GRANDE, Lance.CHICA):
            return f"{head}, {win}: {split}."
        if lance is Lance.PARES:
            h = self.pares_holding
            mine = f"you hold {info.pares.describe()}" if info.pares else "no pares"
            return (
                f"{head} ({mine}), {win}: {split}. Both teams hold pares, so Pares is bet on, "
                f"{float(h.betting):.2f} of the time; nobody holds pares {float(h.nobody):.2f}."
            )
        if lance is Lance.JUEGO:
            h = self.juego_holding
            mine = f"juego of {info.total}" if info.is_juego else f"no juego: {info.total}"
            return (
                f"{head} ({mine}), {win}: {split}. Both teams have juego, so Juego is bet on, "
                f"{float(h.betting):.2f} of the time; nobody has juego, so Punto is played, {float(h.nobody):.2f}."
            )
        if info.is_juego:
            return f"{head}, you have juego ({info.total}), so Punto is not played."
        played = float(self.juego_holding.nobody)
        return (
            f"{head} (punto {info.total}), Punto is played only when nobody has juego ({played:.2f}); "
            f"{win}: {split}."
        )

    def explanations(self) -> dict[str, str]:
        """One sentence per lance, keyed by lance name."""
        return {lo.lance.value: self.explain(lo.lance) for lo in self.lances()}

    def as_dict(self) -> dict[str, Any]:
        """Plain floats and strings, JSON-ready (for widgets)."""
        return {
            "hand": list(self.hand.codes()),
            "seat": self.seat,
            "mano": self.mano,
            "position": self.position,
            "kings": self.rules.kings,
            "partner": list(self.partner.codes()) if self.partner else None,
            "senas": list(self.senas),
            "dead": [c.code for c in self.dead],
            "deals": self.deals,
            "lances": {lo.lance.value: lo.as_dict() for lo in self.lances()},
            "pares_holding": self.pares_holding.as_dict(),
            "juego_holding": self.juego_holding.as_dict(),
            "team_stones": float(self.team_stones),
            "explanations": self.explanations(),
        }


def _grande_str(hand: Hand, rules: Rules) -> str:
    from ..rules.lances import analyse

    return analyse(hand, rules).grande_str


# ----------------------------------------------------------------------------------------------
# Entry points.
# ----------------------------------------------------------------------------------------------


def _check_rules(rules: object) -> Rules:
    if rules is None:
        return _DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a musteach Rules, not {rules!r} (use Rules(kings=4) for 4 reyes)")
    return rules


def _cards(items: Iterable[Card | str] | str | Card, what: str) -> tuple[Card, ...]:
    if isinstance(items, Card):
        items = [items]
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    out = tuple(Card.parse(c) for c in items)
    if len(set(out)) != len(out):
        dup = next(c for c in out if out.count(c) > 1)
        raise DuplicateCardError(f"card {dup.code} ({dup.name}) appears twice in {what}")
    return out


def _no_overlap(groups: Sequence[tuple[str, Sequence[Card]]]) -> None:
    seen: dict[Card, str] = {}
    for name, cards in groups:
        for c in cards:
            if c in seen:
                raise DuplicateCardError(f"card {c.code} ({c.name}) is both in {seen[c]} and in {name}")
            seen[c] = name


def _num(count: int, deals: int, exact: bool) -> Number:
    return Fraction(count, deals) if exact else count / deals


def hand_odds(
    hand: Hand | str | Sequence[Card | str],
    seat: int = 0,
    mano: int = 0,
    rules: Rules | None = None,
    *,
    partner: Hand | str | Sequence[Card | str] | None = None,
    senas: Iterable[str] = (),
    dead: Iterable[Card | str] | str = (),
    exact: bool = False,
) -> HandOdds:
    """Exact odds of every lance for one seat's hand, counted over every deal of the unseen cards.

    hand: the seat's 4 cards (a :class:`~musteach.rules.cards.Hand`, a text ``"12o 3c 7e 5b"`` or 4 cards).
    seat, mano: seats 0..3 (the seat's distance from mano decides ties, RULES.md §2).
    rules: a :class:`~musteach.rules.Rules` (default 8 reyes); kings 8 or 4 and every la real option.
    partner: the 4 cards of the partner (seat + 2), if known. Else the partner is dealt like the opponents.
    senas: names from :data:`SENAS` the partner has signalled (only with an unknown partner): the
    partner's hand is then dealt only among hands that fit every seña (RULES.md §11).
    dead: cards known to be out of play (seen, or known discards); the unknown hands avoid them.
    exact: return :class:`fractions.Fraction` instead of floats.

    Model: the other hands are dealt from the cards that are not in ``hand``, ``partner`` or ``dead``
    (36 of them with nothing else known), every deal equally likely (RULES.md §3); suits never matter.
    Returns a :class:`HandOdds`. Floats are the nearest floats to the exact ratios.
    Raises :class:`~musteach.rules.errors.UnknownCardError`, :class:`~musteach.rules.errors.HandSizeError`,
    :class:`~musteach.rules.errors.DuplicateCardError` (a card twice, naming where), :class:`SeatError`,
    :class:`RulesError`, or :class:`MusError` (an unknown seña, señas with a known partner, señas
    that no hand fits, too few unseen cards left).
    """
    rules = _check_rules(rules)
    h = parse_hand(hand)
    seat = check_seat(seat)
    mano = check_seat(mano, "mano")
    ph = None if partner is None else parse_hand(partner)
    dead_cards = _cards(dead, "the dead cards")
    senas_t = tuple(senas) if not isinstance(senas, str) else (senas,)
    for name in senas_t:
        if name not in SENAS:
            raise MusError(f"unknown seña {name!r}; known señas: {', '.join(SENAS)}")
    if senas_t and ph is not None:
        raise MusError("señas describe an unknown partner's hand; the partner's cards are already given")
    _no_overlap([("the hand", h.cards), ("the partner's hand", ph.cards if ph else ()), ("the dead cards", dead_cards)])
    sp = _space_for(rules)
    known = [*h.cards, *(ph.cards if ph else ()), *dead_cards]
    pool = sp.caps - sp.multiset_of(known)
    need = 8 if ph is not None else 12
    if int(pool.sum()) < need:
        raise MusError(f"only {int(pool.sum())} unseen cards are left; the other hands need {need}")
    me = tuple(int(v) for v in sp.multiset_of(h.cards))
    pm = None if ph is None else tuple(int(v) for v in sp.multiset_of(ph.cards))
    pos0 = (seat - mano) % 4
    c = _count(sp.kings, sp.la_real, me, tuple(int(v) for v in pool), pos0, pm, tuple(sorted(set(senas_t))))
    return _odds_from_counts(c, h, seat, mano, rules, ph, senas_t, dead_cards, exact, sp.info(sp.index[me]))


def _odds_from_counts(
    c: _Counts,
    hand: Hand,
    seat: int,
    mano: int,
    rules: Rules,
    partner: Hand | None,
    senas: tuple[str, ...],
    dead: tuple[Card, ...],
    exact: bool,
    info: HandInfo,
) -> HandOdds:
    d = c.deals

    def lance(li: int) -> LanceOdds:
        by_seat: list[Number] = [0, 0, 0, 0]
        for rel in range(4):
            by_seat[(seat + rel) % 4] = _num(c.seats[li][rel], d, exact)
        return LanceOdds(_LANCES[li], seat, tuple(by_seat), _num(c.seats[li][4], d, exact), _num(c.stones[li], d, exact))  # type: ignore[arg-type]

    def holding(li: int) -> Holding:
        h = c.holding[li]
        return Holding(_LANCES[li], *(_num(x, d, exact) for x in h))

    return HandOdds(
        hand, seat, mano, rules, partner, senas, dead, exact, d, info,
        *(lance(li) for li in range(5)), holding(2), holding(3),
    )  # fmt: skip


# ----------------------------------------------------------------------------------------------
# The discard advisor (the mus phase, RULES.md §3).
# ----------------------------------------------------------------------------------------------

#: What a discard can aim at: the team's chance of winning one lance, or "balanced": the stones the
#: team expects over all five lances when every lance is passed (en paso, RULES.md §7): 1 each for
#: Grande, Chica and Punto, and both partners' values for Pares (1, 2, 3) and Juego (31 = 3, else 2).
AIMS: tuple[str, ...] = ("grande", "chica", "pares", "juego", "punto", "balanced")


@dataclass(frozen=True, slots=True)
class Redraw:
    """One possible hand after the discard. info: its :class:`~musteach.rules.lances.HandInfo`; probability."""

    info: HandInfo
    probability: Number

    @property
    def text(self) -> str:
        """The new hand's ranks, high to low: ``"R-R-7-5"``."""
        return self.info.grande_str


@dataclass(frozen=True)
class DiscardOption:
    """One way of discarding 1 to 4 cards, and what it brings.

    discard, keep: the cards changed and the cards kept. redraws: every possible new hand (as ranks)
    with its exact probability, most likely first (they sum to 1). win: per lance name, the team's
    probability of winning it, averaged over the new hands. stones: per lance name, the stones the team
    expects en paso (see :data:`AIMS`).
    """

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    redraws: tuple[Redraw, ...]
    win: dict[str, Number]
    stones: dict[str, Number]

    @property
    def balanced(self) -> Number:
        """Expected en-paso stones over the five lances (the "balanced" aim)."""
        return sum(self.stones.values(), Fraction(0) if isinstance(self.stones["grande"], Fraction) else 0.0)

    def score(self, aim: str = "balanced") -> Number:
        """The option's value for an aim of :data:`AIMS` (a probability, or stones for "balanced")."""
        aim = _check_aim(aim)
        return self.balanced if aim == "balanced" else self.win[aim]

    def describe(self) -> str:
        """``"change 7e 5b, keep 12o 3c"`` (or ``"change all four"``)."""
        if not self.keep:
            return "change all four"
        return f"change {' '.join(c.code for c in self.discard)}, keep {' '.join(c.code for c in self.keep)}"


@dataclass(frozen=True)
class DiscardAdvice:
    """The 15 discards of one hand (see :func:`advise_discard`).

    current: the :class:`HandOdds` of keeping the hand as it is (for comparison). options: the 15
    :class:`DiscardOption` in a fixed order (1 card changed, then 2, 3, 4; cards in hand order).
    aim: the aim :meth:`best` and :meth:`explain` use by default.
    """

    hand: Hand
    seat: int
    mano: int
    rules: Rules
    aim: str
    current: HandOdds
    options: tuple[DiscardOption, ...]

    def ranked(self, aim: str | None = None) -> tuple[DiscardOption, ...]:
        """The options, best first for ``aim`` (default :attr:`aim`); equal scores keep fewer discards first."""
        a = _check_aim(aim or self.aim)
        return tuple(sorted(self.options, key=lambda o: -o.score(a)))

    def best(self, aim: str | None = None) -> DiscardOption:
        """The best option for ``aim`` (default :attr:`aim`)."""
        return self.ranked(aim)[0]

    def current_score(self, aim: str | None = None) -> Number:
        """The same score for keeping the hand as it is."""
        a = _check_aim(aim or self.aim)
        return self.current.team_stones if a == "balanced" else self.current.win(a)

    def explain(self, aim: str | None = None) -> str:
        """A sentence or two a coach can show for the best option; when keeping the hand beats every discard,
        it says so first (cut the mus: "no hay mus"), since a player who goes mus must change 1-4 cards (§3)."""
        a = _check_aim(aim or self.aim)
        b = self.best(a)
        hand = self.current.info.grande_str
        if a == "balanced":
            text = (
                f"For the most stones en paso, {b.describe()} from {hand}: your team then expects "
                f"{float(b.balanced):.2f} stones over the five lances (keeping the hand: "
                f"{float(self.current.team_stones):.2f})."
            )
        else:
            title = Lance.parse(a).title
            text = (
                f"To aim at {title}, {b.describe()} from {hand}: your team then wins {title} "
                f"{odds_in_words(b.win[a])} ({float(b.win[a]):.2f}; keeping the hand: {float(self.current.win(a)):.2f})."
            )
        if self.current_score(a) >= b.score(a):
            return f"Keeping {hand} beats every discard for this aim: cut the mus (no hay mus). If the mus goes on, {text[0].lower()}{text[1:]}"
        return text


def _check_aim(aim: str) -> str:
    a = str(aim).strip().lower()
    if a not in AIMS:
        raise MusError(f"unknown aim {aim!r}: use one of {', '.join(AIMS)}")
    return a


@lru_cache(maxsize=16)
def _draw_multisets(kings: int, la_real: str | None, d: int) -> np.ndarray:
    return np.array(_multisets(_space(kings, la_real).caps, d), dtype=np.int64)


def advise_discard(
    hand: Hand | str | Sequence[Card | str],
    seat: int = 0,
    mano: int = 0,
    rules: Rules | None = None,
    *,
    aim: str = "balanced",
    exact: bool = False,
) -> DiscardAdvice:
    """Every way of changing 1 to 4 cards in the mus (RULES.md §3), with the exact odds each brings.

    hand: the seat's 4 cards; seat, mano: seats 0..3; rules: a :class:`~musteach.rules.Rules`.
    aim: the default aim of the advice, one of :data:`AIMS`. exact: Fractions instead of floats.

    Model: the replacements are drawn from the 36 cards not in the original hand, every set equally
    likely; after the draw, the other three hands are unknown and dealt from the 36 cards not in the
    NEW hand (the other players' discards, and where the discarded cards went, are ignored). Each new
    hand's odds are those of :func:`hand_odds`, averaged with the redraw probabilities.

    Speed: the odds of every possible new hand at this distance from mano are counted once and cached
    (8 reyes: all 330 hands in one batch, about 1-2 s on two cores; 4 reyes: hand by hand, about
    0.2 s each, so minutes the first time). Later calls for the same distance from mano take
    milliseconds; :func:`prepare_advisor` fills the cache ahead of time (e.g. from a thread).
    Returns a :class:`DiscardAdvice`. Raises the errors of :func:`hand_odds`, or :class:`MusError`
    for an unknown aim.
    """
    rules = _check_rules(rules)
    h = parse_hand(hand)
    seat = check_seat(seat)
    mano = check_seat(mano, "mano")
    aim = _check_aim(aim)
    sp = _space_for(rules)
    pos0 = (seat - mano) % 4
    current = hand_odds(h, seat, mano, rules, exact=exact)
    pool0 = sp.caps - sp.multiset_of(h.cards)
    names = [lo.value for lo in _LANCES]
    batch = _all_hands(sp.kings, sp.la_real, pos0) if _batch_ok(sp) else None
    fresh_deals = comb(36, 4) * comb(32, 4) * comb(28, 4)
    options = []
    for d in range(1, 5):
        draws = _draw_multisets(sp.kings, sp.la_real, d)
        ways_all = np.prod([[comb(int(pool0[i]), int(v)) for i, v in enumerate(row)] for row in draws], axis=1)
        total = comb(int(pool0.sum()), d)
        for out in itertools.combinations(range(4), d):
            discard = tuple(h.cards[i] for i in out)
            keep = tuple(c for i, c in enumerate(h.cards) if i not in out)
            kept = sp.multiset_of(keep)
            redraws = []
            win_num = [0] * 5
            stone_num = [0] * 5
            deals = None
            for row, ways in zip(draws, ways_all, strict=True):
                if not ways:
                    continue
                new = kept + row
                new_t = tuple(int(v) for v in new)
                if batch is not None:
                    team, stones = batch[new_t]
                    hand_deals = fresh_deals
                else:
                    c = _count(sp.kings, sp.la_real, new_t, tuple(int(v) for v in sp.caps - new), pos0, None, (), False)
                    team, stones, hand_deals = c.team, c.stones, c.deals
                deals = hand_deals if deals is None else deals
                if hand_deals != deals:  # every new hand leaves 36 unseen cards: the same deal count
                    raise AssertionError("unequal deal counts")
                ways = int(ways)
                for li in range(5):
                    win_num[li] += ways * team[li]
                    stone_num[li] += ways * stones[li]
                redraws.append(Redraw(sp.info(sp.index[new_t]), _num(ways, total, exact)))
            assert deals is not None
            redraws.sort(key=lambda r: (-r.probability, r.info.ranks))
            denom = total * deals
            options.append(
                DiscardOption(
                    discard,
                    keep,
                    tuple(redraws),
                    {names[li]: _num(win_num[li], denom, exact) for li in range(5)},
                    {names[li]: _num(stone_num[li], denom, exact) for li in range(5)},
                )
            )
    return DiscardAdvice(h, seat, mano, rules, aim, current, tuple(options))


def prepare_advisor(rules: Rules | None = None, seat: int = 0, mano: int = 0) -> None:
    """Count, ahead of time, the odds :func:`advise_discard` needs for a seat at this distance from mano.

    Safe to call from a background thread. Raises :class:`SeatError` or :class:`RulesError`.
    """
    rules = _check_rules(rules)
    pos0 = (check_seat(seat) - check_seat(mano, "mano")) % 4
    sp = _space_for(rules)
    if _batch_ok(sp):
        _all_hands(sp.kings, sp.la_real, pos0)
        return
    for i in range(sp.m):
        me = tuple(int(v) for v in sp.M[i])
        _count(sp.kings, sp.la_real, me, tuple(int(v) for v in sp.caps - sp.M[i]), pos0, None, (), False)
