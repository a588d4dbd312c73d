"""Exact enumeration: every deal of the unseen cards, counted as rank multisets (RULES.md §1, §2, §4, §5, §7, §11).

One seat sees its own four cards. Which seat wins each lance depends on the 12 cards the other three
players hold, and every way of dealing them from the unseen cards is equally likely (RULES.md §3). This
module counts them all, exactly: no sampling. :func:`musteach.odds.hands.hand_odds` turns the counts into
probabilities and :func:`musteach.odds.advisor.advise_discard` averages them over the redraws.

>>> from musteach import Hand
>>> sp = space(8, None)
>>> sp.k, sp.m  # 8 rank classes in 8 reyes (A, 4, 5, 6, 7, S, C, R); 330 multisets of 4 cards
(8, 330)
>>> me = sp.multiset_of(Hand("12o 3c 11e 1b").cards)
>>> me.tolist(), (sp.caps - me).tolist()  # the hand, and the 36 unseen cards, as counts per class
([1, 0, 0, 0, 0, 0, 1, 2], [7, 4, 4, 4, 4, 4, 3, 6])
>>> c = count_deals(8, None, tuple(me.tolist()), tuple((sp.caps - me).tolist()), pos0=0)
>>> c.deals, c.team[0]  # every deal of the unseen cards; those where the seat's team wins Grande
(43370632305000, 41091736522500)

How the count works
-------------------
Suits never matter (RULES.md §0), so a hand is one of the 330 multisets of the 8 effective ranks of
8 reyes (R with the 3s, C, S, 7, 6, 5, 4, A with the 2s), or of the 715 multisets of the 10 ranks of
4 reyes. A multiset ``c`` drawn from a pool holding ``n[r]`` cards of rank r stands for
``prod C(n[r], c[r])`` card hands. The partner's and the right-hand opponent's (the next to speak)
multisets are enumerated as pairs (about 100,000 in 8 reyes, 500,000 in 4 reyes); for each pair the
left-hand opponent's chances are read from a table of cumulative counts, per lance level, over the cards
the pair leaves. Every count is an integer below 2**53, so the counting is exact. One hand takes about
10-20 ms in 8 reyes and 0.1 s in 4 reyes on two cores (``benchmarks/bench_odds.py``).

Partners' knowledge narrows the deals counted: the partner's multiset when known, and the señas received
from the partner (:data:`SENAS`, RULES.md §11). La real (RULES.md §13) is its own juego level, including
the sota de oros option, under which that card is a rank class of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from functools import lru_cache
from math import comb

import numpy as np

from ..i18n import Text
from ..rules.cards import Card
from ..rules.errors import MusError
from ..rules.lances import HandInfo, hand_key_table
from ..rules.options import Rules
from .space import SENAS, Counts, hand_space, la_real_mode, multisets

__all__ = [
    "SENAS",
    "Counts",
    "HandsTable",
    "RankSpace",
    "batch_fits",
    "count_all_hands",
    "count_deals",
    "multisets",
    "space",
    "space_for",
]

# ----------------------------------------------------------------------------------------------
# The space of hands: rank classes, their multisets, and the keys of every lance.
# ----------------------------------------------------------------------------------------------


class RankSpace:
    """Everything that depends only on (kings, la real): built once, cached.

    Card classes are interchangeable for every lance: one class per effective rank (RULES.md §1), and
    under la real with the sota de oros that card is a class of its own. caps: (k,) cards per class.
    M: (m, k) int64, every multiset of 4 cards over the classes (count per class); index: its row.
    lev[i]: (m,) dense level of each multiset for grande, chica, pares, juego (0 = lowest; for pares and
    juego level 0 is "does not hold it"); total: (m,) points for juego / punto. level_keys: lev + [total].
    """

    def __init__(self, kings: int, la_real: str | None):
        self.kings, self.la_real = kings, la_real
        # 1. The rank classes (one per effective rank, and the sota de oros apart when it makes la real) and
        # every hand as a multiset of 4 cards over them: those of musteach.odds.space, as arrays.
        self.hand_space = hs = hand_space(kings, la_real)
        self.labels = list(hs.labels)  # (effective rank, is the sota de oros)
        self.class_rank = np.array([r for r, _ in self.labels], dtype=np.int64)
        self.card_class = np.array(hs.card_class, dtype=np.int64)
        self.k = hs.k
        self.caps = np.array(hs.caps, dtype=np.int64)
        # 2. Every hand's lance keys.
        ms = list(hs.hands)
        self.M = np.array(ms, dtype=np.int64)
        self.m = hs.m
        self.index = hs.index
        keys = _lance_keys(kings, self.labels, ms)
        self.la_real_mask = np.array(hs.real_hands, dtype=bool)
        # 3. Per lance: each multiset's dense level, what its jugada is worth, and the multisets by level.
        self.total = keys[:, 4].copy()
        self.lev = _dense_levels(keys, self.la_real_mask)
        self.pares_value = np.where(keys[:, 2] > 0, keys[:, 2] // 256, 0)  # par 1, medias 2, duples 3
        self.juego_value = np.where(self.lev[3] > 0, np.where((self.total == 31) | self.la_real_mask, 3, 2), 0)
        self.level_keys = [*self.lev, self.total]
        self.top = [int(lv.max()) + 1 for lv in self.level_keys]  # one past the highest level
        self.sorted_by = [_sorted_by_level(lv) for lv in self.level_keys]
        # 4. Binomials C(n, j) for n in -8..8 (negative n gives 0), and the two-half factorisation of
        # W[row, c] = prod_i C(r_i, c_i) = XA[row, a(c)] * XB[row, b(c)] (see _table_w).
        self.cx = _binomials()
        self.cxt = np.ascontiguousarray(self.cx.T)  # (9, 17): cxt[j, n + 8] = C(n, j)
        self.h = self.k // 2
        self.sub_a, self.sub_b, self.a_of, self.b_of = _halves(self.caps, self.h, ms)
        # 5. Caches filled on demand.
        self._plans: dict[tuple[int, int], tuple[np.ndarray, np.ndarray | None]] = {}
        self._buffers: dict[str, np.ndarray] = {}
        self.lock = threading.Lock()
        self._pairs: tuple[np.ndarray, ...] | None = None
        self._pos_plans: dict[int, _Plan] = {}

    def pairs(self) -> tuple[np.ndarray, ...]:
        """Every pair (x, y) of multisets that fits in the deck, sorted by their union.

        Returns (unions (u, k), x (p,), y (p,), row (p,), split (p,)): ``row`` indexes the union and
        ``split = prod C(x_i + y_i, x_i)``, so that ``prod C(n_i, U_i) * split`` counts the card choices.
        """
        if self._pairs is None:
            M, caps = self.M, self.caps
            grid_x, grid_y = np.meshgrid(np.arange(self.m), np.arange(self.m), indexing="ij")
            xi, yi = grid_x.ravel(), grid_y.ravel()
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
        return self.hand_space.info(i)


def _lance_keys(kings: int, labels: Sequence[tuple[int, bool]], ms: Sequence[tuple[int, ...]]) -> np.ndarray:
    """(m, 5) int64: the (grande, chica, pares, juego, punto) keys of every multiset, from
    :func:`~musteach.rules.lances.hand_key_table` (larger is better; la real not applied)."""
    _, table = hand_key_table(kings)
    pos = {r: i for i, r in enumerate(sorted({r for r, _ in labels}))}
    keys = []
    for c in ms:
        ranks = [labels[i][0] for i, n in enumerate(c) for _ in range(n)]
        keys.append(table[sum(5 ** pos[r] for r in ranks)])
    return np.array(keys, dtype=np.int64)


def _dense_levels(keys: np.ndarray, la_real_mask: np.ndarray) -> list[np.ndarray]:
    """Per lance grande, chica, pares, juego: each multiset's dense level, 0 = the lowest (for pares and
    juego, level 0 is "does not hold it"); la real is the one juego above 31."""
    jk = keys[:, 3].copy()
    if la_real_mask.any():
        jk[la_real_mask] = jk.max() + 1
    raw = (keys[:, 0], keys[:, 1], keys[:, 2], jk)
    return [np.unique(x, return_inverse=True)[1].astype(np.int64).reshape(-1) for x in raw]


def _sorted_by_level(lv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(order, levels in that order)``: the multisets sorted by level, stably."""
    order = np.argsort(lv, kind="stable")
    return order, lv[order]


def _binomials() -> np.ndarray:
    """(17, 9) int16: ``cx[n + 8, j] = C(n, j)`` for n in -8..8 (0 for negative n); every count fits:
    at most C(28, 4) = 20475 is ever formed from them."""
    cx = np.zeros((17, 9), dtype=np.int16)
    for n in range(9):
        for j in range(n + 1):
            cx[n + 8, j] = comb(n, j)
    return cx


def _halves(
    caps: np.ndarray, h: int, ms: Sequence[tuple[int, ...]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(sub_a, sub_b, a_of, b_of)``: every sub-multiset of 0..4 cards over the first ``h`` classes and
    over the others, and the halves of each multiset (row m, past the end, is the zero sentinel).

    sub_a ends with a copy of the empty sub-multiset, zeroed in :func:`_table_w`: the sentinel a_of[m]."""
    sub_a = [c for size in range(5) for c in multisets(caps[:h].tolist(), size)]
    sub_a.append((0,) * h)
    sub_b = [c for size in range(5) for c in multisets(caps[h:].tolist(), size)]
    da = {c: i for i, c in enumerate(sub_a[:-1])}
    db = {c: i for i, c in enumerate(sub_b)}
    a_of = np.array([da[c[:h]] for c in ms] + [len(sub_a) - 1], dtype=np.int64)
    b_of = np.array([db[c[h:]] for c in ms] + [0], dtype=np.int64)
    return np.array(sub_a, dtype=np.int64), np.array(sub_b, dtype=np.int64), a_of, b_of


@lru_cache(maxsize=8)
def space(kings: int, la_real: str | None) -> RankSpace:
    """The :class:`RankSpace` of ``kings`` (8 or 4) and a la real mode (None, or a ``Rules.la_real_figure``), cached."""
    return RankSpace(kings, la_real)


def space_for(rules: Rules) -> RankSpace:
    """The :class:`RankSpace` of a table's :class:`~musteach.rules.Rules` (its kings and la real, RULES.md §13)."""
    return space(rules.kings, la_real_mode(rules))


# ----------------------------------------------------------------------------------------------
# The count.
# ----------------------------------------------------------------------------------------------

#: ``{hand's multiset: (team wins per lance, en-paso stones per lance)}``, lances in the order of
#: :data:`~musteach.rules.lances.LANCES`; integer counts of deals (see :func:`count_all_hands`).
HandsTable = dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]

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

    def __init__(self, sp: RankSpace, pos0: int, partner: int | None):
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


def _table_w(sp: RankSpace, rest: np.ndarray) -> np.ndarray:
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


def _cdf_from(sp: RankSpace, w: np.ndarray, li: int, lo: int, tz: int) -> np.ndarray:
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


def _level0(sp: RankSpace, w: np.ndarray, li: int) -> np.ndarray:
    """Hands of the last seat at level 0 (no pares / no juego), per pool row."""
    order, lv = sp.sorted_by[li]
    rows = order[: int(np.searchsorted(lv, 1))]
    g = sp.buffer("z0", (len(rows), w.shape[1]))
    np.take(w, rows, axis=0, out=g, mode="clip")
    level0: np.ndarray = g.sum(axis=0)
    return level0


def _senas_mask(sp: RankSpace, senas: tuple[str, ...]) -> np.ndarray:
    mask = np.ones(sp.m, dtype=bool)
    for name in senas:
        test = SENAS[name][1]
        mask &= np.array([test(sp.info(i)) for i in range(sp.m)], dtype=bool)
    return mask


@lru_cache(maxsize=4096)
def count_deals(
    kings: int,
    la_real: str | None,
    me: tuple[int, ...],
    pool: tuple[int, ...],
    pos0: int,
    partner: tuple[int, ...] | None = None,
    senas: tuple[str, ...] = (),
    detail: bool = True,
) -> Counts:
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
    sp = space(kings, la_real)
    n = np.array(pool, dtype=np.int64)
    me_i = sp.index[me]
    plan = sp.plan(pos0, None if partner is None else sp.index[partner])
    off = [3 - (pos0 + r) % 4 for r in range(4)]
    tz, w_all = _pair_weights(sp, n, plan, senas)
    deals = tz * int(w_all.sum())

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
                zl30 = cdf[rl + (30 - lo + 1) * nr] if li == 4 else None  # hands of the last seat without juego
                _add_seats(seats[li], lp["axy"][c0:c1], w, wz, zl, zl30, (am, lo, tz, w_sum, s_team), zero)
                if zero:
                    zle0 = cdf[rl + (1 - lo) * nr] if lo <= 1 else _level0(sp, wt, li)[rl]
                    _add_holding(holding[li], lp, c0, c1, w, zle0, team, (lo, tz, w_sum, s_team))
    return Counts(
        deals, tuple(team_wins), tuple(tuple(s) for s in seats), {k: tuple(v) for k, v in holding.items()}, tuple(stones)
    )


def _pair_weights(sp: RankSpace, n: np.ndarray, plan: _Plan, senas: tuple[str, ...]) -> tuple[int, np.ndarray]:
    """The last seat's card hands whatever the pair, and each pair of hands 1 and 2's weight (its card choices,
    kept only where the partner's hand fits the ``senas``). Raises :class:`MusError` when no deal fits."""
    tz = comb(int(n.sum()) - plan.usize, 4)  # card hands of the last seat, whatever the pair
    ctab = np.array([[comb(int(n[i]), v) for v in range(9)] for i in range(sp.k)], dtype=np.int64)
    w_all = np.prod(ctab[np.arange(sp.k), plan.unions], axis=1)[plan.rows] * plan.split
    if senas:
        w_all = w_all * _senas_mask(sp, senas)[plan.xs]
    if tz * int(w_all.sum()) == 0:
        raise MusError(Text("no deal of the unseen cards fits what is known: the señas cannot all be true"))
    return tz, w_all


def _add_seats(
    row: list[int],
    axy: np.ndarray,
    w: np.ndarray,
    wz: np.ndarray,
    zl: np.ndarray,
    zl30: np.ndarray | None,
    facts: tuple[int, int, int, int, int],
    zero: bool,
) -> None:
    """Add one chunk's deals to a lance's row of wins by relative seat (0 me .. 3, then nobody) in place.

    axy: the best adjusted level of hands 1 and 2 per pair; w: the pairs' weights; wz: the weights times the last
    seat's hands that lose to the team; zl: per pair, the last seat's hands that lose; zl30: for punto, its hands
    without juego (else None). facts: my adjusted level, my level, the last seat's hands, the chunk's weight and
    the team's wins in it. zero: level 0 means not holding (pares, juego)."""
    am, lo, tz, w_sum, s_team = facts
    s_all = int(wz.sum())
    s_me = 0 if zero and lo == 0 else int(np.where(axy < am, wz, 0).sum())
    s_nobody = int(np.where(axy < 4, wz, 0).sum()) if zero and lo == 0 else 0
    row[0] += s_me
    row[2] += s_team - s_me
    row[1] += s_all - s_team - s_nobody
    row[4] += s_nobody
    if zl30 is not None:
        row[3] += int((w * (zl30 - zl)).sum())
        row[4] += int((w * (tz - zl30)).sum()) + tz * (w_sum - int(w.sum()))
    else:
        row[3] += tz * w_sum - s_all


def _add_holding(
    h: list[int],
    lp: dict[str, np.ndarray],
    c0: int,
    c1: int,
    w: np.ndarray,
    zle0: np.ndarray,
    team: np.ndarray,
    facts: tuple[int, int, int, int],
) -> None:
    """Add one chunk's deals to who holds pares or juego (relative seats, then the team) in place.

    lp: the lance's plan arrays; c0, c1: the chunk; w: the pairs' weights; zle0: per pair, the last seat's hands
    without the jugada; team: per pair, whether the team wins. facts: my level, the last seat's hands, the chunk's
    weight and the team's wins in it."""
    lo, tz, w_sum, s_team = facts
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


#: The batch of :func:`count_all_hands` keeps one cumulative table per lance over every 12-card multiset;
#: it is used when that stays small (8 reyes: 30,096 multisets x 331, about 45 MB of int16 in all;
#: 4 reyes would need 182,005 x 716 per table, so it counts hand by hand).
_BATCH_MAX_CELLS = 12_000_000


def batch_fits(sp: RankSpace) -> bool:
    """True if :func:`count_all_hands` fits in memory for this space: the 12-card multisets times the 4-card
    ones stay under 12 million cells (true in 8 reyes; 4 reyes counts hand by hand with :func:`count_deals`)."""
    poly = np.array([1], dtype=np.int64)
    for cap in sp.caps:
        poly = np.convolve(poly, np.ones(int(cap) + 1, dtype=np.int64))
    return int(poly[12]) * (sp.m + 1) <= _BATCH_MAX_CELLS

def count_all_hands(kings: int, la_real: str | None, pos0: int) -> HandsTable:
    """Team wins and en-paso stones, per lance, for EVERY hand of the seat at distance ``pos0`` from mano,
    with nothing else known (the other hands dealt from the 36 cards not in it): the same numbers as
    ``count_deals(..., detail=False)`` hand by hand, in one batch.

    The last seat's cumulative tables depend only on the 12 cards of the seat, the partner and the first
    opponent together, so they are built once over every such multiset; each hand then only runs the
    pair arithmetic. Returns ``{multiset: (team wins, stones)}``; every hand has the same deal count.
    """
    sp = space(kings, la_real)
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
