"""The solve behind the strong level's betting: CFR+ over each lance's abstract betting, vectorised with numpy
(RULES.md §4, §6, §7, §11). Build time only (``make strategy``): play reads the result with
:mod:`musteach.play.strategy.table`, without numpy.

**The game solved.** One lance's betting (:func:`~musteach.play.strategy.abstraction.lance_tree`) between
four seats, each its own player: a seat knows its own bucket, its position, the public actions and one bit
of its partner's señas (:mod:`~musteach.play.strategy.abstraction`). Chance deals the four buckets as
random deals of a 40-card deck do (:func:`sample_lances`, judged with the shipped standings of
:mod:`musteach.rules.standings`); pares and juego are solved once per set of holders (the declarations are
public). A terminal pays stones as RULES.md §7 counts them (the deje and the bettors' own values when
refused; the stake, the values and punto's stone to the best hand when accepted), turned into the chance of
winning the game by the score context (:func:`~musteach.play.policy.match_equity` on the stones each team
still needs); an accepted órdago is worth the chance of winning the lance, which decides the game.

**The solver.** CFR+ (regret matching+, linearly weighted average strategy), every information set of a
seat updated at once: each node's arrays hold one value per joint bucket tuple (k⁴ of them), a seat's
strategy is broadcast along its own axis and its partner's seña, and its regrets are those arrays summed
over the other seats' axes (:class:`LanceSolver`). :meth:`LanceSolver.best_response` is the exact best
response of one seat (the other three keep the strategy) in the same abstraction: what
``benchmarks/bench_best_response.py`` prints, and the exploitability the tests check.

Every lance, set of holders and score context is solved from scratch. Starting a context from its neighbour's
regrets (``--warm``, what the first shipped table did with 60 iterations) carried one context's órdagos into
the next: at 0-0 mano bet órdago with its weakest pares 60 times in 100, and the strong level lost to the club
level. ``--robust`` solves each team against opponents who play as one player seeing both their hands;
measured against the club level it did no better (0.44 against 0.47 of the games), and its one-seat
best-response gains in our abstraction are larger, so it is not shipped. Buckets cut finer at the top (by
the square of the percentile) did no better either (0.47).

**OpenSpiel.** OpenSpiel's CFR and best responses walk a game tree state by state in Python or C++ with one
infoset table; a four-seat lance with k⁴ deals of buckets is thousands of times more states than our arrays,
so the solve does not use it. ``tests/test_strategy.py`` builds a two-seat lance (pares between one holder
of each team) as an OpenSpiel game and checks that our solver's strategy is near zero exploitability by
OpenSpiel's own best response.

Run ``python -m musteach.play.strategy.solver --help``.
"""

from __future__ import annotations

import argparse
import json
import resource
import struct
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...rules.options import Rules
from ...rules.standings import standing_keys
from ..deals import rank_facts
from ..policy import match_equity
from .abstraction import ACTIONS, Tree, lance_tree, punto_top, sign_map

__all__ = ["FULL", "QUICK", "LanceData", "LanceSolver", "SolveParams", "equity_curve", "main", "stones_per_point", "sample_lances", "solve_all", "write_table"]

S = 2  # values of the partner's seña bit


@dataclass(frozen=True)
class SolveParams:
    """What one solve covers. ks: buckets per lance (grande .. punto); needs: the levels of stones still
    needed that make the score contexts (len(needs)² of them); iters, first: each lance and context is solved
    from scratch with ``iters * first`` CFR+ iterations (with ``warm``, only the first context of each lance
    is; the others run ``iters`` from their neighbour's regrets, which carried one context's órdagos into
    the next: off by default); deals: random deals behind the chance tables; target: stones to win a game;
    kings: 8 or 4; mus_share: the share of deals changed once by a mus round. robust: each team's strategy
    is solved against opponents who play as one player seeing both their hands (partners who tell each
    other their cards by señas), :func:`robust_strategy`."""

    ks: tuple[int, int, int, int, int] = (16, 16, 10, 10, 12)
    needs: tuple[int, ...] = (3, 6, 10, 15, 22, 30, 40)
    iters: int = 300
    first: int = 3
    deals: int = 4_000_000
    seed: int = 1
    target: int = 40
    kings: int = 8
    mus_share: float = 0.6
    warm: bool = False
    robust: bool = False


#: The full solve of ``make strategy``: every lance and context solved from scratch with 350 iterations; about
#: 100 CPU-minutes by the measured cost of one iteration of all five lances in one context (0.31 CPU seconds at
#: these buckets, 0.13 at the quick ones; 49 contexts), within 2 CPU-hours; not run here.
FULL = SolveParams(iters=350, first=1)
#: The solve shipped from this machine (about 6 CPU-minutes; the machine was shared by six engineers).
QUICK = SolveParams(ks=(12, 12, 8, 10, 10), needs=(4, 10, 20, 32), iters=150, first=1, deals=2_000_000, mus_share=0.6)


# ----------------------------------------------------------------------------------------------
# Chance: the joint buckets of random deals
# ----------------------------------------------------------------------------------------------


@dataclass
class LanceData:
    """The chance side of one lance between ``participants`` (positions).

    dims: buckets per position (1 for a seat that takes no part). prob: each joint bucket tuple's
    probability (sums to 1). win_a: the chance that mano's team wins the lance there. val_a, val_b: each
    team's expected pares or juego values there (0 in the other lances).
    """

    li: int
    participants: tuple[int, ...]
    dims: tuple[int, int, int, int]
    prob: np.ndarray
    win_a: np.ndarray
    val_a: np.ndarray
    val_b: np.ndarray
    weight: float = 1.0  # the share of deals in which this betting happens


def _buckets(pct: np.ndarray, li: int, k: int, kings: int) -> np.ndarray:
    p = pct.astype(np.int64)
    if li in (2, 3):
        return np.where(p == 0, 0, 1 + np.minimum(k - 2, p * (k - 1) // 256))
    if li == 4:
        return np.minimum(k - 1, p * k // punto_top(kings))
    return np.minimum(k - 1, p * k // 256)


def after_mus(order: np.ndarray, kings: int) -> np.ndarray:
    """Four hands after one round of mus, from random orders of the 40 cards ``order`` (n, 40): the hands
    are the first 16 cards (4 a seat); each seat keeps its kings and its pairs (its aces when it keeps nothing
    else, or holds two), at most 3 cards, throws the rest, and draws them from the cards that follow, seat
    by seat (RULES.md §3; the club level's discard). Returns (n, 4, 4) card indexes."""
    from ...rules.cards import RANKS
    from ...rules.lances import effective_rank

    eff_of = np.array([effective_rank(r, kings) for r in RANKS])
    hands = order[:, :16].reshape(-1, 4, 4).copy()
    eff = eff_of[hands >> 2]
    same = (eff[..., :, None] == eff[..., None, :]).sum(axis=-1)
    keep = (eff == 12) | (same >= 2)
    aces = eff == 1
    keep |= aces & ((~keep).all(axis=-1, keepdims=True) | (aces.sum(axis=-1, keepdims=True) >= 2))
    over = keep.sum(axis=-1) == 4
    keep[over, 3] = False  # at least one card changes
    nxt = np.full(len(order), 16)
    rows = np.arange(len(order))
    for seat in range(4):
        for slot in range(4):
            change = ~keep[:, seat, slot]
            hands[change, seat, slot] = order[rows[change], nxt[change]]
            nxt += change
    return hands


def sample_lances(params: SolveParams, lances: tuple[int, ...] = (0, 1, 2, 3, 4), min_share: float = 0.0) -> list[LanceData]:
    """The chance tables of every lance (and, in pares and juego, every set of holders of both teams) over
    ``params.deals`` random deals, mano at position 0 (:func:`musteach.rules.batch.random_deals`)."""
    from ...rules.batch import random_deals

    facts = rank_facts(params.kings)
    keys = standing_keys(Rules(kings=params.kings)).astype(np.int64)
    pv = np.frombuffer(facts.pares_value, np.uint8).astype(np.float64)
    jv = np.frombuffer(facts.juego_value, np.uint8).astype(np.float64)
    out: list[LanceData] = []
    rng = np.random.default_rng(params.seed)
    chunks = []
    left = params.deals
    while left > 0:
        n = min(left, 500_000)
        d = random_deals(n, rng).astype(np.int64)
        m = int(n * params.mus_share)
        if m:
            d[:m] = after_mus(np.argsort(rng.random((m, 40)), axis=1), params.kings)
        d = d >> 2
        chunks.append(d[:, :, 0] * 1000 + d[:, :, 1] * 100 + d[:, :, 2] * 10 + d[:, :, 3])
        left -= n
    ids = np.concatenate(chunks)  # (n, 4) rank ids by position
    total = len(ids)
    comp = [keys[li][ids] + (3 - np.arange(4)) for li in range(5)]
    has_juego = comp[3].max(axis=1) >= 4
    for li in lances:
        k = params.ks[li]
        b = _buckets(np.frombuffer(facts.pct[li], np.uint8)[ids], li, k, params.kings)
        winner = comp[li].argmax(axis=1)
        win_a = (winner % 2 == 0).astype(np.float64)
        vals = pv[ids] if li == 2 else jv[ids] if li == 3 else np.zeros(ids.shape)
        va, vb = vals[:, 0] + vals[:, 2], vals[:, 1] + vals[:, 3]
        if li in (2, 3):
            held = b > 0
            code = held[:, 0] * 1 + held[:, 1] * 2 + held[:, 2] * 4 + held[:, 3] * 8
            groups = [(tuple(p for p in range(4) if c >> p & 1), code == c) for c in range(16)]
            groups = [(parts, m) for parts, m in groups if {p % 2 for p in parts} == {0, 1}]
        elif li == 4:
            groups = [((0, 1, 2, 3), ~has_juego)]
        else:
            groups = [((0, 1, 2, 3), np.ones(total, bool))]
        for parts, m in groups:
            share = float(m.mean())
            if share <= min_share or not m.any():
                continue
            dims = tuple(k if p in parts else 1 for p in range(4))
            bb = np.where(np.isin(np.arange(4), parts), b, 0)[m]
            flat = ((bb[:, 0] * dims[1] + bb[:, 1]) * dims[2] + bb[:, 2]) * dims[3] + bb[:, 3]
            size = int(np.prod(dims))
            cnt = np.bincount(flat, minlength=size).astype(np.float64)
            safe = np.maximum(cnt, 1.0)
            shape = dims
            out.append(
                LanceData(
                    li,
                    parts,
                    (dims[0], dims[1], dims[2], dims[3]),
                    (cnt / cnt.sum()).reshape(shape),
                    (np.bincount(flat, win_a[m], size) / safe).reshape(shape),
                    (np.bincount(flat, va[m], size) / safe).reshape(shape),
                    (np.bincount(flat, vb[m], size) / safe).reshape(shape),
                    share,
                )
            )
    return out


# ----------------------------------------------------------------------------------------------
# Values
# ----------------------------------------------------------------------------------------------


def equity_curve(need_us: int, need_them: int, target: int = 40, most: int = 80) -> np.ndarray:
    """The chance that a team needing ``need_us`` stones beats one needing ``need_them`` after it scores
    x = 0 .. most stones (:func:`~musteach.play.policy.match_equity`); 1.0 once x reaches its need."""
    return np.array([match_equity(target - max(need_us - x, 0), target - need_them, target) for x in range(most + 1)])


def stones_per_point(need_a: int, need_b: int, target: int) -> float:
    """Stones per unit of win chance near this score (the slope of one stone either way), for reports."""
    up = match_equity(target - max(need_a - 1, 0), target - need_b, target)
    down = match_equity(target - need_a, target - max(need_b - 1, 0), target)
    return 2.0 / max(up - down, 1e-9)


@dataclass
class LanceSolver:
    """CFR+ on one lance's abstract betting (see the module docstring).

    data: the chance tables; need: (stones mano's team needs, stones the other needs); target: a game's
    stones; shared: a team (0 mano's, 1 the other) whose seats see their partner's whole bucket instead of one
    seña bit (-1: none). After :meth:`run`, :meth:`average` gives each decision node's strategy, an array
    (k, 2, actions): per own bucket and partner's seña bit (the partner's bucket for a seat of the shared
    team: (k, k_partner, actions)), the probability of each of the node's actions.
    """

    data: LanceData
    need: tuple[int, int]
    target: int = 40
    shared: int = -1
    tree: Tree = field(init=False)
    regrets: list[np.ndarray] = field(init=False)
    avg: list[np.ndarray] = field(init=False)
    t: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.tree = lance_tree(self.data.participants)
        d = self.data
        self.sig = []
        self.width = []  # per position, the columns of what it sees of its partner (S, or the partner's buckets)
        for p in range(4):
            kq = d.dims[(p + 2) % 4]
            if kq > 1 and p % 2 == self.shared:
                self.sig.append(np.arange(kq, dtype=np.int64))
                self.width.append(kq)
            else:
                self.sig.append(np.array(sign_map(d.li, kq), np.int64) if kq > 1 else np.zeros(1, np.int64))
                self.width.append(S)
        self.own_idx = []
        self.sig_idx = []
        self.onehot = []
        for p in range(4):
            q = (p + 2) % 4
            shape = [1, 1, 1, 1]
            shape[p] = d.dims[p]
            self.own_idx.append(np.arange(d.dims[p]).reshape(shape))
            shape = [1, 1, 1, 1]
            shape[q] = d.dims[q]
            self.sig_idx.append(self.sig[p][: d.dims[q]].reshape(shape) if d.dims[q] > 1 else np.zeros(shape, np.int64))
            oh = np.zeros((d.dims[q], self.width[p]))
            oh[np.arange(d.dims[q]), self.sig[p][: d.dims[q]] if d.dims[q] > 1 else 0] = 1.0
            self.onehot.append(oh)
        self.regrets, self.avg = [], []
        for n in self.tree.decisions:
            node = self.tree.nodes[n]
            self.regrets.append(np.zeros((d.dims[node.pos], self.width[node.pos], len(node.actions))))
            self.avg.append(np.zeros((d.dims[node.pos], self.width[node.pos], len(node.actions))))
        self._terminal: dict[int, np.ndarray] = {}
        self._util_cache: dict[tuple[str, int, int], np.ndarray] = {}
        for i, node in enumerate(self.tree.nodes):
            if node.pos < 0:
                self._terminal[i] = self._utility(node.kind, node.amount, node.team)

    # --- values ---------------------------------------------------------------------------------
    def _utility(self, kind: str, amount: int, team: int) -> np.ndarray:
        key = (kind, amount, team)
        hit = self._util_cache.get(key)
        if hit is not None:
            return hit
        d = self.data
        na, nb = self.need
        ca, cb = equity_curve(na, nb, self.target), 1.0 - equity_curve(nb, na, self.target)
        xs = np.arange(len(ca), dtype=np.float64)

        def gain_a(x: np.ndarray | float) -> np.ndarray:
            return np.asarray(np.interp(np.broadcast_to(x, d.prob.shape), xs, ca))

        def gain_b(x: np.ndarray | float) -> np.ndarray:
            return np.asarray(np.interp(np.broadcast_to(x, d.prob.shape), xs, cb))

        bonus = 1.0 if d.li == 4 else 0.0
        base = 1.0 if d.li in (0, 1, 4) else 0.0
        u: np.ndarray
        if kind == "paso":
            u = d.win_a * gain_a(base + d.val_a) + (1 - d.win_a) * gain_b(base + d.val_b)
        elif kind == "rejected":
            u = gain_a(amount + d.val_a + bonus) if team == 0 else gain_b(amount + d.val_b + bonus)
        elif kind == "accepted":
            u = d.win_a * gain_a(amount + d.val_a + bonus) + (1 - d.win_a) * gain_b(amount + d.val_b + bonus)
        else:  # an accepted órdago: the lance decides the game
            u = d.win_a.copy()
        self._util_cache[key] = u
        return u

    # --- broadcasting a seat's table over the joint tuples ---------------------------------------
    def expand(self, pos: int, table: np.ndarray) -> np.ndarray:
        """A (k, 2, ...) table of position ``pos`` (by own bucket and partner's seña bit) as a 4-D array."""
        out: np.ndarray = table[self.own_idx[pos], self.sig_idx[pos]]
        return out

    def gather(self, pos: int, x: np.ndarray) -> np.ndarray:
        """A 4-D array summed into position ``pos``'s information sets: (k, 2)."""
        q = (pos + 2) % 4
        others = tuple(a for a in range(4) if a not in (pos, q))
        m = np.broadcast_to(x, self.data.prob.shape).sum(axis=others)
        if pos > q:
            m = m.T
        out: np.ndarray = m @ self.onehot[pos]
        return out

    # --- CFR+ ---------------------------------------------------------------------------------------
    def strategy(self, j: int) -> np.ndarray:
        """The current strategy of decision node j from its regrets (regret matching+)."""
        r = self.regrets[j]
        s = r.sum(axis=2, keepdims=True)
        n = r.shape[2]
        return np.where(s > 0, r / np.where(s > 0, s, 1.0), 1.0 / n)

    def average(self, j: int) -> np.ndarray:
        """The average strategy of decision node j (uniform where the seat never reaches it)."""
        a = self.avg[j]
        s = a.sum(axis=2, keepdims=True)
        n = a.shape[2]
        return np.where(s > 0, a / np.where(s > 0, s, 1.0), 1.0 / n)

    def _walk(self, n: int, reach: list[np.ndarray], update: bool, team: int = -1) -> np.ndarray:
        node = self.tree.nodes[n]
        if node.pos < 0:
            return self._terminal[n]
        j = node.decision
        p = node.pos
        sigma = self.strategy(j) if update else self.average(j)
        sig4 = self.expand(p, sigma)
        values = []
        for a, child in enumerate(node.children):
            r = list(reach)
            r[p] = reach[p] * sig4[..., a]
            values.append(self._walk(child, r, update, team))
        u = sum(sig4[..., a] * v for a, v in enumerate(values))
        assert isinstance(u, np.ndarray)
        if update and p % 2 == team:
            w = self.data.prob
            for q in range(4):
                if q != p:
                    w = w * reach[q]
            sign = 1.0 if p % 2 == 0 else -1.0
            ws = w * sign
            gain = np.stack([self.gather(p, ws * (v - u)) for v in values], axis=2)
            self.regrets[j] = np.maximum(self.regrets[j] + gain, 0.0)
            mine = self._own_reach(p, reach[p])
            self.avg[j] += self.t * mine[..., None] * sigma
        return u

    def _own_reach(self, p: int, r4: np.ndarray) -> np.ndarray:
        """A seat's own reach, a 4-D array that varies only along its own axis and its partner's seña, as (k, 2)."""
        d = self.data
        q = (p + 2) % 4
        out = np.zeros((d.dims[p], self.width[p]))
        full = np.broadcast_to(r4, d.prob.shape)
        idx = [0, 0, 0, 0]
        idx[p] = slice(None)  # type: ignore[call-overload]
        for qb in range(d.dims[q]):
            idx[q] = qb
            out[:, int(self.sig[p][qb]) if d.dims[q] > 1 else 0] = full[tuple(idx)]
        return out

    def iterate(self) -> float:
        """One CFR+ iteration (both teams in turn, alternating updates); returns the value of the current
        profile for mano's team."""
        self.t += 1
        ones = [np.ones((1, 1, 1, 1)) for _ in range(4)]
        self._walk(0, ones, True, 0)
        u = self._walk(0, ones, True, 1)
        return float((u * self.data.prob).sum())

    def run(self, iters: int) -> None:
        """``iters`` CFR+ iterations."""
        for _ in range(iters):
            self.iterate()

    def value(self) -> float:
        """The value (win chance of mano's team) of the average strategy."""
        ones = [np.ones((1, 1, 1, 1)) for _ in range(4)]
        return float((self._walk(0, ones, False) * self.data.prob).sum())

    def warm_from(self, other: LanceSolver) -> None:
        """Start from another context's regrets (same lance and holders); the average starts afresh."""
        self.regrets = [r.copy() for r in other.regrets]

    # --- best response --------------------------------------------------------------------------------
    def best_response(self, pos: int) -> float:
        """The gain (win chance of ``pos``'s team) of the exact best response of position ``pos`` against the
        average strategy of the other three, over the average strategy's own value (≥ 0)."""
        ones = [np.ones((1, 1, 1, 1)) for _ in range(4)]
        base = float((self._walk(0, ones, False) * self.data.prob).sum())
        br = float((self._br(0, ones, pos) * self.data.prob).sum())
        sign = 1.0 if pos % 2 == 0 else -1.0
        return sign * (br - base)

    def _br(self, n: int, reach: list[np.ndarray], me: int) -> np.ndarray:
        node = self.tree.nodes[n]
        if node.pos < 0:
            return self._terminal[n]
        p = node.pos
        if p != me:
            sig4 = self.expand(p, self.average(node.decision))
            values = []
            for a, child in enumerate(node.children):
                r = list(reach)
                r[p] = reach[p] * sig4[..., a]
                values.append(self._br(child, r, me))
            out = sum(sig4[..., a] * v for a, v in enumerate(values))
            assert isinstance(out, np.ndarray)
            return out
        values = [self._br(child, reach, me) for child in node.children]
        w = self.data.prob
        for q in range(4):
            if q != p:
                w = w * reach[q]
        sign = 1.0 if p % 2 == 0 else -1.0
        cf = np.stack([self.gather(p, w * sign * v) for v in values], axis=2)
        best = np.zeros_like(cf)
        best[np.arange(cf.shape[0])[:, None], np.arange(cf.shape[1])[None, :], cf.argmax(axis=2)] = 1.0
        pick = self.expand(p, best)
        out = sum(pick[..., a] * v for a, v in enumerate(values))
        assert isinstance(out, np.ndarray)
        return out

    def exploitability(self) -> float:
        """The largest best-response gain of any participating seat (win chance)."""
        return max(self.best_response(p) for p in self.data.participants)


# ----------------------------------------------------------------------------------------------
# The whole solve and its file
# ----------------------------------------------------------------------------------------------

MAGIC = b"MUSSTRT1"


def entry_key(li: int, participants: tuple[int, ...], ctx: int) -> str:
    """The table's name for one lance, set of participants and score context."""
    return f"{li}|{''.join(map(str, participants))}|{ctx}"


def robust_strategy(data: LanceData, need: tuple[int, int], params: SolveParams) -> list[np.ndarray]:
    """Each team's strategy solved against opponents who share their hands (see :attr:`SolveParams.robust`):
    per decision node, a (k, 2, actions) array; mano's team from the solve where the other team is
    coordinated, the other team's from the solve where mano's team is."""
    out: list[np.ndarray] = []
    solvers = []
    for shared in (1, 0):
        s = LanceSolver(data, need, params.target, shared=shared)
        s.run(params.iters * params.first)
        solvers.append(s)
    for j, n in enumerate(solvers[0].tree.decisions):
        pos = solvers[0].tree.nodes[n].pos
        out.append(solvers[pos % 2].average(j).astype(np.float32))
    return out


def solve_all(
    params: SolveParams, log: bool = True, lances: tuple[int, ...] = (0, 1, 2, 3, 4)
) -> tuple[dict[str, list[np.ndarray]], dict[str, float]]:
    """Every lance of ``lances``, set of holders and score context; returns the average strategies by
    :func:`entry_key` and, per entry, the exploitability (the largest one-seat best-response gain, in stones)."""
    tables: dict[str, list[np.ndarray]] = {}
    gains: dict[str, float] = {}
    t0 = time.perf_counter()
    datas = sample_lances(params, lances)
    if log:
        print(f"chance tables of {len(datas)} bettings from {params.deals} deals in {time.perf_counter() - t0:.0f} s", flush=True)
    nn = len(params.needs)
    for data in datas:
        prev: LanceSolver | None = None
        for ctx in range(nn * nn):
            need = (params.needs[ctx // nn], params.needs[ctx % nn])
            key = entry_key(data.li, data.participants, ctx)
            if params.robust:
                tables[key] = robust_strategy(data, need, params)
                solver = LanceSolver(data, need, params.target)
                solver.avg = [a.astype(np.float64) for a in tables[key]]
            else:
                solver = LanceSolver(data, need, params.target)
                if prev is None or not params.warm:
                    solver.run(params.iters * params.first)
                else:
                    solver.warm_from(prev)
                    solver.run(params.iters)
                tables[key] = [solver.average(j).astype(np.float32) for j in range(len(solver.tree.decisions))]
            gains[key] = solver.exploitability() * stones_per_point(need[0], need[1], params.target)
            prev = solver
        if log:
            print(f"lance {data.li} {data.participants}: {nn * nn} contexts, {time.perf_counter() - t0:.0f} s, "
                  f"last exploitability {gains[key]:.3f} stones", flush=True)
    return tables, gains


def write_table(path: Path, params: SolveParams, tables: dict[str, list[np.ndarray]], info: dict[str, object]) -> int:
    """Write the strategies: ``MUSSTRT1``, a u32 length, a JSON header (the parameters and each entry's
    offset), then per entry and decision node its (k, 2, actions) probabilities as bytes 0..255.
    Returns the file's size."""
    offsets: dict[str, int] = {}
    body = bytearray()
    for key, arrays in tables.items():
        offsets[key] = len(body)
        for a in arrays:
            q = np.rint(a * 255).clip(0, 255).astype(np.uint8)
            body += q.tobytes()
    header = {
        "version": 1,
        "ks": list(params.ks),
        "needs": list(params.needs),
        "target": params.target,
        "kings": params.kings,
        "iters": params.iters,
        "deals": params.deals,
        "mus_share": params.mus_share,
        "actions": list(ACTIONS),
        "entries": offsets,
        **info,
    }
    raw = json.dumps(header, sort_keys=True).encode()
    data = MAGIC + struct.pack("<I", len(raw)) + raw + bytes(body)
    path.write_bytes(data)
    return len(data)


def _solve_group(job: tuple[SolveParams, tuple[int, ...]]) -> tuple[dict[str, list[np.ndarray]], dict[str, float]]:
    params, lances = job
    return solve_all(params, lances=lances)


def main(argv: list[str] | None = None) -> int:
    """``python -m musteach.play.strategy.solver [--quick] [--out PATH]``: solve and write the strategy table."""
    from .table import table_path

    ap = argparse.ArgumentParser(description="Solve the betting strategy shipped in musteach/play/data/.")
    ap.add_argument("--quick", action="store_true", help="the smaller solve shipped from a shared machine")
    ap.add_argument("--iters", type=int, default=None)
    ap.add_argument("--deals", type=int, default=None)
    ap.add_argument("--mus-share", type=float, default=None, help="share of deals changed once by a mus round")
    ap.add_argument("--ks", type=int, nargs=5, default=None, help="buckets of grande, chica, pares, juego, punto")
    ap.add_argument("--first", type=int, default=None, help="the first context's iterations as a multiple of --iters")
    ap.add_argument("--warm", action="store_true", help="start each context from its neighbour's regrets")
    ap.add_argument("--robust", action="store_true", help="solve each team against opponents who share their hands")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--workers", type=int, default=2, help="processes solving lances side by side")
    args = ap.parse_args(argv)
    params = QUICK if args.quick else FULL
    if args.first is not None or args.warm or args.robust:
        from dataclasses import replace as _replace

        params = _replace(params, first=args.first or params.first, warm=args.warm, robust=args.robust or params.robust)
    if args.mus_share is not None:
        from dataclasses import replace as _replace

        params = _replace(params, mus_share=args.mus_share)
    if args.iters is not None or args.deals is not None or args.ks is not None:
        from dataclasses import replace

        ks = tuple(args.ks) if args.ks else params.ks
        params = replace(params, iters=args.iters or params.iters, deals=args.deals or params.deals, ks=ks)
    t0 = time.perf_counter()
    tables, gains = {}, {}
    groups = [(0,), (1,), (4,), (2, 3)]
    with ProcessPoolExecutor(args.workers) as pool:
        for tb, gn in pool.map(_solve_group, [(params, g) for g in groups]):
            tables.update(tb)
            gains.update(gn)
    cpu = time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    worst = max(gains.values())
    mean = sum(gains.values()) / len(gains)
    out = args.out or table_path()
    size = write_table(out, params, tables, {"solve": "quick" if args.quick else "full", "cpu_seconds": round(cpu),
                                             "exploitability_mean": round(mean, 4), "exploitability_max": round(worst, 4)})
    print(f"wrote {out} ({size} bytes) in {time.perf_counter() - t0:.0f} s ({cpu:.0f} CPU s); "
          f"one-seat best-response gain: mean {mean:.3f}, max {worst:.3f} stones per lance", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
