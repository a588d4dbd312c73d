"""OddsBot: weighs its chances over random deals of the unseen cards that fit everything it knows (its
partner's señas, everybody's declarations), learns how its opponents bet, and keeps the discard with the
most stones expected (RULES.md §3–§7, §11).

Everything here is numpy-free (:mod:`musteach.play.deals` deals and judges the sampled deals; each hand's
en-paso value comes from the tables shipped by :mod:`musteach.play.tables`), so a lesson kernel that plays
against the strong level, or whose coach comments, never loads numpy.
"""

from __future__ import annotations

import zlib
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, compress, repeat
from math import comb, prod
from operator import and_
from typing import Any

from ..draw.odds import decimal_text
from ..i18n import Text, plural_text, translator
from ..odds.space import hand_space
from ..rules.betting import ORDAGO, LanceBetting
from ..rules.cards import DECK, Card
from ..rules.errors import MusError
from ..rules.lances import Lance, effective_rank
from ..rules.options import Rules
from ..rules.senas import Sena
from .deals import (
    POOL_ROWS,
    POOL_WIDTH,
    SENA_BITS,
    deal_pool,
    ids_array,
    keys_for,
    lance_keys,
    pairwise_sum,
    pool_rank_ids,
    pool_start,
    rank_facts,
    rank_id,
)
from .game import Declare, GameAction, MusCall, View
from .policy import (
    LANCE_INDEX,
    Advice,
    bet,
    deje_if_refused,
    effective_ranks,
    is_legal_bet,
    keep_to_discard,
    match_equity,
    true_senas,
)
from .tables import reference_bins, shipped_values

__all__ = [
    "VALUE_SEED",
    "Deal",
    "Estimate",
    "OddsBot",
    "OpponentModel",
    "estimate",
    "hand_facts",
    "hand_value",
    "hand_values",
    "keep_values",
    "sample_deals",
]


# ----------------------------------------------------------------------------------------------
# Monte Carlo over the unseen cards (what OddsBot and the coach know)
# ----------------------------------------------------------------------------------------------

#: One deal: 4 hands of 4 card indexes (0..39), by seat.
Deal = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class _Samples:
    """Random deals of the unseen cards that fit the señas received, from one seat's point of view.

    win: one byte per deal, bit i set when the seat's team wins lance i (grande, chica, pares, juego, punto).
    own: the seat's rank id; others: the rank ids (see :func:`~musteach.play.deals.rank_id`) of relative seats
    1, 2 (the partner) and 3, per deal.
    """

    kings: int
    win: bytes
    own: int
    others: tuple[array[int], array[int], array[int]]
    bins: dict[int, bytes] = field(default_factory=dict, compare=False, repr=False)  # by lance: see OpponentModel

    def values(self, table: bytes) -> tuple[list[int], list[int]]:
        """Per deal, the team's and the opponents' sums of a per-rank-id value (pares or juego values)."""
        mine = table[self.own]
        o1, o2, o3 = self.others
        return [mine + table[b] for b in o2], [table[a] + table[c] for a, c in zip(o1, o3, strict=True)]

    def pct(self, rel: int, li: int) -> bytes:
        """Per deal, relative seat ``rel``'s (1..3) percentile 0..255 in lance ``li``."""
        return bytes(map(rank_facts(self.kings).pct[li].__getitem__, self.others[rel - 1]))


def _stable_seed(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode())


_SAMPLE_CACHE: OrderedDict[tuple[Any, ...], _Samples] = OrderedDict()
_SAMPLE_CACHE_SIZE = 2000


def _samples(
    cards: Sequence[Card],
    seat: int,
    mano: int,
    rules: Rules,
    senas: tuple[str, ...],
    n: int,
    seed: int,
    declared: tuple[int, int] = (0, 0),
) -> _Samples:
    """Cached random deals (see :class:`_Samples`); the cache key is the hand's ranks, not its suits.

    senas: keys the partner's hand must fit. declared: ``(care, value)`` bit masks over the pares / juego
    held by relative seats 1, 2, 3 (bits 0-2 pares, 3-5 juego): the deals kept have ``held & care == value``.
    Deals are the pool's rows from a seeded start, those that fit, up to n (all of them from the start when
    none fits).
    """
    facts = rank_facts(rules.kings)
    own = sorted(c.index for c in cards)
    own_id = rank_id(own)
    ms = facts.multiset[own_id]
    sset = tuple(sorted(set(senas)))
    key = (rules.kings, rules.la_real, rules.la_real_figure, ms, (seat - mano) % 4, sset, n, seed, declared)
    hit = _SAMPLE_CACHE.get(key)
    if hit is not None:
        _SAMPLE_CACHE.move_to_end(key)
        return hit
    start = pool_start(_stable_seed(*key), POOL_ROWS)
    mine = set(own)
    others = [i for i in range(40) if i not in mine]
    need = 0
    for sena_key in sset:
        need |= 1 << SENA_BITS[sena_key]
    care, value = declared
    chosen = [(start + i) % POOL_ROWS for i in range(n)]
    ids: array[int] | None = None
    if need or care:
        # per relative seat 1, 2, 3: which of its flags (bit 0 pares, bit 1 juego) must have which value
        checks = [
            (rel, (care >> rel & 1) | (care >> (rel + 3) & 1) << 1, (value >> rel & 1) | (value >> (rel + 3) & 1) << 1)
            for rel in range(3)
        ]
        if not value & ~care:  # (a fact asked for without caring about it: no deal fits)
            fits, fit_ids = _fitting_rows(start, POOL_ROWS, n, others, rules.kings, need, [c for c in checks if c[1]])
            if fits:  # facts that (almost) never fit leave few deals; none at all: ignore them
                chosen, ids = fits, fit_ids
    if ids is None:
        ids = pool_rank_ids(others, start, n)  # (not the whole pool: most hands are never filtered)
    out = _judge_rows(chosen, own, seat, mano, rules, others, ids)
    _SAMPLE_CACHE[key] = out
    if len(_SAMPLE_CACHE) > _SAMPLE_CACHE_SIZE:
        _SAMPLE_CACHE.popitem(last=False)
    return out


def _fitting_rows(
    start: int, limit: int, n: int, others: Sequence[int], kings: int, need: int, checks: Sequence[tuple[int, int, int]]
) -> tuple[list[int], array[int]]:
    """The first ``n`` rows of the pool, looking at ``limit`` rows from ``start`` on (wrapping), whose partner
    (relative seat 2) fits every seña of the bit mask ``need`` and whose relative seats fit ``checks``:
    ``(rel, mask, value)`` with rel 0, 1, 2 for relative seats 1, 2, 3 and ``flags & mask == value`` (bit 0
    pares, bit 1 juego; see :class:`~musteach.play.deals.RankFacts`). The cards dealt are ``others``.
    Returns the rows and their rank ids (3 a row, as :func:`~musteach.play.deals.pool_rank_ids`)."""
    tests: dict[int, tuple[int, int, int]] = {rel: (0, 0, 0) for rel, _m, _v in checks}
    if need:
        tests.setdefault(1, (0, 0, 0))
    for rel, mask, val in checks:
        tests[rel] = (0, tests[rel][1] | mask, tests[rel][2] | val)
    if need:
        tests[1] = (need, tests[1][1], tests[1][2])
    fit_tables = {rel: _fits(kings, *t) for rel, t in tests.items()}
    rows: list[int] = []
    found: array[int] = ids_array(())
    for lo in range(0, limit, _CHUNK):
        size = min(_CHUNK, limit - lo)
        # the chunk's rank ids, worked out as scanned (the whole pool's, kept per hand, held 120 KB each)
        ids = pool_rank_ids(others, (start + lo) % POOL_ROWS, size)
        ok: bytes | None = None
        for rel, table in fit_tables.items():
            seat_ok = bytes(map(table.__getitem__, ids[rel::3]))
            ok = seat_ok if ok is None else bytes(map(and_, ok, seat_ok))
        for k in compress(range(size), ok) if ok is not None else range(size):
            rows.append((start + lo + k) % POOL_ROWS)
            found.extend(ids[3 * k : 3 * k + 3])
            if len(rows) >= n:
                return rows, found
    return rows, found


@lru_cache(maxsize=64)
def _fits(kings: int, need: int, mask: int, value: int) -> bytes:
    """Per rank id: 1 when the hand fits every seña of the bit mask ``need`` and ``flags & mask == value``."""
    facts = rank_facts(kings)
    ok = facts.flags.translate(bytes(int(f & mask == value) for f in range(256)))
    if need:
        ok = bytes(map(and_, ok, (int(x & need == need) for x in facts.senas)))
    return ok


_CHUNK = 2048  # pool rows looked at per step when deals must fit señas or declarations


def _judge_rows(rows: Sequence[int], own: Sequence[int], seat: int, mano: int, rules: Rules, others: Sequence[int], ids: array[int]) -> _Samples:
    """Deal the pool's ``rows`` to relative seats 1, 2, 3 (from the cards ``others``; ``ids``: their rank ids,
    3 a row, :func:`~musteach.play.deals.pool_rank_ids`) and judge every lance, a lance at a time."""
    keys = keys_for(rules)
    pos0 = (seat - mano) % 4
    ids1, ids2, ids3 = ids[0::3], ids[1::3], ids[2::3]
    own_keys = keys.keys(pos0, own)
    columns: list[list[Iterable[int]]]
    if keys.oros_real:  # la real with the sota de oros: the hands' cards matter
        pool = deal_pool()
        hands = [[others[x] for x in pool[r * POOL_WIDTH : r * POOL_WIDTH + POOL_WIDTH]] for r in rows]
        seats = [[keys.keys((pos0 + rel) % 4, h[4 * rel - 4 : 4 * rel]) for h in hands] for rel in (1, 2, 3)]
        columns = [[[k[li] for k in seat_keys] for seat_keys in seats] for li in range(5)]
    else:
        t1, t2, t3 = (keys.by_distance[(pos0 + rel) % 4] for rel in (1, 2, 3))
        columns = [
            [map(t1[li].__getitem__, ids1), map(t2[li].__getitem__, ids2), map(t3[li].__getitem__, ids3)]
            for li in range(5)
        ]
    # a lance is the seat's team's when the winner's distance from mano (3 - key & 3) has the seat's parity
    bits, no_juego = _win_tables(rules.kings, rules.la_real_figure if rules.la_real else None, 0 if pos0 & 1 else 1)
    m = len(rows)
    win = juego_none = 0
    for li in range(5):
        best: Iterable[int] = map(max, repeat(own_keys[li], m), *columns[li])
        if li == 3:
            best = list(best)
            juego_none = int.from_bytes(bytes(map(no_juego.__getitem__, best)), "little")
        lance_bits = int.from_bytes(bytes(map(bits[li].__getitem__, best)), "little")
        if li == 4:  # punto is played only when nobody has juego
            lance_bits &= juego_none
        win |= lance_bits
    return _Samples(rules.kings, win.to_bytes(m, "little"), rank_id(own), (ids1, ids2, ids3))


@lru_cache(maxsize=32)
def _win_tables(kings: int, la_real: str | None, ours: int) -> tuple[tuple[bytes, ...], bytes]:
    """Per lance, composite key -> the lance's bit (1 << li) when a best key says the seat's team won it
    (``key & 1 == ours``; pares, juego and punto only from key 4 up), else 0; and, by best juego key, 16 when
    nobody has juego (a key below 4: punto is played), else 0. la_real: a la real mode or None."""
    keys = lance_keys(kings, la_real)
    out = []
    for li in range(5):
        top = max(max(t[li]) for t in keys.by_distance) + 1
        low = 0 if li < 2 else 4
        out.append(bytes(1 << li if k >= low and k & 1 == ours else 0 for k in range(top)))
    return tuple(out), bytes(16 if k < 4 else 0 for k in range(len(out[3])))


def _sena_need(view: View) -> int:
    """The :data:`SENA_BITS` the partner's hand señas say its hand has (RULES.md §11)."""
    need = 0
    for bit in (SENA_BITS[s.key] for s in view.partner_senas if s.kind == "hand" and s.key in SENA_BITS):
        need |= 1 << bit
    return need


def _declared_checks(view: View, rel_seats: Sequence[int]) -> dict[int, tuple[int, int]]:
    """By position in ``rel_seats``: the ``(mask, value)`` of its pares (bit 1) and juego (bit 2) declarations (§4)."""
    checks: dict[int, tuple[int, int]] = {}
    for bit, name in ((1, "pares"), (2, "juego")):
        for rel, s in enumerate(rel_seats):
            if (flag := view.declared.get(name, (None,) * 4)[s]) is not None:
                mask, val = checks.get(rel, (0, 0))
                checks[rel] = (mask | bit, val | (bit if flag else 0))
    return checks


def sample_deals(view: View, n: int = 400, seed: int = 0) -> list[Deal]:
    """Random deals of the cards ``view.seat`` cannot see that fit what it knows: its partner's hand señas
    (RULES.md §11) and the pares / juego declarations made so far (§4).

    Returns m ≤ n deals, each 4 hands of 4 card indexes by seat (``view.seat`` holds its own cards, sorted);
    fewer when the facts are rare in the pool of random orders, and none of the facts are used when no
    deal at all fits them. The same view, n and seed give the same deals.
    """
    own = tuple(sorted(c.index for c in view.cards))
    seat = view.seat
    rel_seats = [(seat + rel) % 4 for rel in (1, 2, 3)]
    need = _sena_need(view)
    others = sorted(set(range(40)) - set(own))
    start = pool_start(_stable_seed("deals", own, seat, view.mano, need, n, seed), POOL_ROWS)
    checks = _declared_checks(view, rel_seats)
    rows, _ids = _fitting_rows(start, min(POOL_ROWS, 16 * n), n, others, view.rules.kings, need, [(r, m, v) for r, (m, v) in checks.items()])
    if not rows:  # no deal fits the facts: ignore them
        rows = [(start + i) % POOL_ROWS for i in range(min(n, POOL_ROWS))]
    pool = deal_pool()
    cands = [tuple(tuple(others[pool[r * POOL_WIDTH + k + j]] for j in range(4)) for k in (0, 4, 8)) for r in rows]
    out: list[Deal] = []
    for hands in cands:
        deal: list[tuple[int, ...]] = [own] * 4
        for rel, s in enumerate(rel_seats):
            deal[s] = hands[rel]
        out.append((deal[0], deal[1], deal[2], deal[3]))
    return out


def hand_facts(deals: Sequence[Deal], lance: Lance, kings: int) -> tuple[list[list[float]], list[list[int]], list[list[int]]]:
    """For ``deals`` (see :func:`sample_deals`): each hand's percentile in ``lance`` among all hands (0..1; 0
    for a hand without pares or juego in those lances), its pares value (par 1, medias 2, duples 3) and its
    juego value (31 is 3, other juego 2), each a list per deal of 4 values by seat (RULES.md §7)."""
    facts = rank_facts(kings)
    pct_t = facts.pct[LANCE_INDEX[lance]]
    pct, pv, jv = [], [], []
    for deal in deals:
        ids = [rank_id(h) for h in deal]
        pct.append([pct_t[i] / 255.0 for i in ids])
        pv.append([facts.pares_value[i] for i in ids])
        jv.append([facts.juego_value[i] for i in ids])
    return pct, pv, jv


@dataclass(frozen=True, slots=True)
class Estimate:
    """What a seat can expect from one lance, given what it knows.

    lance: the :class:`Lance`. win: probability that its team wins the lance. samples: the effective
    number of random deals behind it (fewer when the actions seen make most deals unlikely).
    team_values, opp_values: the expected pares or juego values each team holds (0 for other lances).
    """

    lance: Lance
    win: float
    samples: int
    team_values: float = 0.0
    opp_values: float = 0.0


_BINS = 8


def _team_strength(p1: int, p2: int) -> float:
    """A team's strength in a lance from its two players' percentiles (0..255): max², uniform for random hands."""
    m = max(p1, p2) / 255.0
    return m * m


def _bin(u: float) -> int:
    return min(int(u * _BINS), _BINS - 1)


#: The strength bin of a team whose best percentile is p (0..255), by p.
_BIN_OF_BEST = bytes(_bin(_team_strength(p, 0)) for p in range(256))


def _ramp() -> list[float]:
    """``numpy.linspace(0.2, 1.8, 8)``: the prior's ramp over the strength bins."""
    step = (1.8 - 0.2) / (_BINS - 1)
    return [i * step + 0.2 for i in range(_BINS - 1)] + [1.8]


class OpponentModel:
    """What a bot learns about its opponents from public facts: the hands shown at the end of each hand
    and the bets they opened with them (RULES.md §4, §6).

    For each lance it keeps, by strength bin of the opponents' best hand (see _team_strength): how often
    such hands are held after the mus, and how often the opponents open a bet with them. A bet seen in
    this hand then weighs each random deal by how likely the opponents were to bet with the hands it
    gives them, and a pass by how likely they were to pass. Counts are lists per lance (grande .. punto)
    of 8 floats, one per bin.
    """

    def __init__(self) -> None:
        ramp = _ramp()
        self.held = [[1.0] * _BINS for _ in range(5)]  # showdown counts (pseudo-counts 1)
        self.bets = [list(ramp) for _ in range(5)]  # opened a bet with such hands (prior: stronger bets more)
        self.passes = [[2 - x for x in ramp] for _ in range(5)]  # passed the opening round with such hands
        self.raises = [[x / 2 for x in ramp] for _ in range(5)]  # answered a bet of ours with a raise
        self.calls = [[2 - x / 2 for x in ramp] for _ in range(5)]  # answered it without raising
        self._done: set[tuple[int, int]] = set()

    def p_bet(self, li: int) -> list[float]:
        """P(the opponents open a bet | strength bin) for lance index ``li``."""
        return [b / (b + p) for b, p in zip(self.bets[li], self.passes[li], strict=True)]

    def p_raise(self, li: int) -> list[float]:
        """P(the opponents raise a bet of ours | strength bin) for lance index ``li``."""
        return [r / (r + c) for r, c in zip(self.raises[li], self.calls[li], strict=True)]

    @staticmethod
    def answers(b: LanceBetting, seat: int) -> list[bool]:
        """For each bet of ``seat``'s team the opponents have answered: did they raise it (True) or not?"""
        out: list[bool] = []
        pending = False
        steps = [st for st in b.steps if st.seat is not None and st.action is not None]
        for i, st in enumerate(steps):
            a = st.action
            assert a is not None and st.seat is not None
            if st.seat % 2 == seat % 2:
                pending = a.is_bet or pending
            elif pending:
                if a.is_bet or a.kind == "quiero":
                    out.append(a.is_bet)
                    pending = False
                elif i == len(steps) - 1 and b.closed:  # the last opponent refused
                    out.append(False)
                    pending = False
        return out

    @staticmethod
    def opening(b: LanceBetting, seat: int) -> bool | None:
        """Did the opponents of ``seat`` open a bet in ``b`` (True), pass it (False), or is it unknown (None)?"""
        passed = False
        for st in b.steps:
            if st.seat is None or st.action is None:
                continue
            theirs = st.seat % 2 != seat % 2
            if st.action.is_bet:
                return True if theirs else (False if passed else None)
            if theirs:
                passed = True
        return False if passed else None

    def learn(self, view: View) -> None:
        """Learn from a finished hand (``view.shown`` set); each hand is learnt once."""
        if view.shown is None:
            return
        key = (id(view.match), view.hand_number)
        if key in self._done:
            return
        if len(self._done) > 10_000:
            self._done.clear()
        self._done.add(key)
        facts = rank_facts(view.rules.kings)
        ids = [rank_id([c.index for c in h]) for h in view.shown]
        o1, o2 = ids[(view.seat + 1) % 4], ids[(view.seat + 3) % 4]
        for li in range(5):
            self.held[li][_bin(_team_strength(facts.pct[li][o1], facts.pct[li][o2]))] += 1
        for b_ in view.bettings.values():
            li = LANCE_INDEX[b_.lance]
            said = self.opening(b_, view.seat)
            b = _bin(_team_strength(facts.pct[li][o1], facts.pct[li][o2]))
            if said:
                self.bets[li][b] += 1
            elif said is not None:
                self.passes[li][b] += 1
            for raised in self.answers(b_, view.seat):
                if raised:
                    self.raises[li][b] += 1
                else:
                    self.calls[li][b] += 1

    def weights(self, smp: _Samples, view: View, lance: Lance) -> list[float]:
        """Weight of every sample: the opponents' hands as often as they are held after the mus, and as
        likely as they are to have made the opening bets and passes seen in this hand."""
        ref = reference_bins(view.rules.kings)
        li = LANCE_INDEX[lance]
        held_total = pairwise_sum(self.held[li])
        factor = [min(max((h / held_total) / r, 0.25), 4.0) for h, r in zip(self.held[li], ref[li], strict=True)]
        wts = [factor[b] for b in self._bins(smp, li)]
        bettings = list(view.bettings.values())
        if view.betting is not None:
            bettings.append(view.betting)
        for b in bettings:
            said = self.opening(b, view.seat)
            answers = self.answers(b, view.seat)
            if said is None and not answers:
                continue
            lj = LANCE_INDEX[b.lance]
            bins = self._bins(smp, lj)
            if said is not None:
                pb = self.p_bet(lj)
                wts = [w * pb[k] for w, k in zip(wts, bins, strict=True)] if said else [w * (1 - pb[k]) for w, k in zip(wts, bins, strict=True)]
            pr = self.p_raise(lj)
            for raised in answers:
                wts = [w * (pr[k] if raised else 1 - pr[k]) for w, k in zip(wts, bins, strict=True)]
        return wts

    @staticmethod
    def _bins(smp: _Samples, li: int) -> bytes:
        """Per deal, the strength bin of the opponents' best hand in lance ``li`` (kept with the samples)."""
        bins = smp.bins.get(li)
        if bins is None:
            bins = smp.bins[li] = bytes(map(max, smp.pct(1, li), smp.pct(3, li))).translate(_BIN_OF_BEST)
        return bins


def estimate(
    view: View,
    lance: Lance | str | None = None,
    *,
    n: int = 1500,
    seed: int = 0,
    model: OpponentModel | None = None,
) -> Estimate:
    """The chance that ``view``'s team wins ``lance`` (default: the lance being bet), over random deals of
    the unseen cards that fit what the seat knows (RULES.md §4, §11): its partner's señas, the
    declarations made, and, with an :class:`OpponentModel`, the bets and passes seen this hand.

    n: random deals drawn (cached by the hand's ranks, position and señas).
    Raises :class:`MusError` when there is no lance to ask about.
    """
    lance = Lance.parse(lance) if lance is not None else view.lance
    if lance is None:
        raise MusError(Text("estimate needs a lance: there is none being played now"))
    senas = tuple(s.key for s in view.partner_senas if s.kind == "hand" and s.key in SENA_BITS)
    care = value = 0
    if lance in (Lance.PARES, Lance.JUEGO, Lance.PUNTO):
        for shift, name in ((0, "pares"), (3, "juego")):
            for rel in (1, 2, 3):
                said = view.declared[name][(view.seat + rel) % 4]
                if said is not None:
                    care |= 1 << (shift + rel - 1)
                    value |= int(said) << (shift + rel - 1)
    smp = _samples(view.cards, view.seat, view.mano, view.rules, senas, n, seed, (care, value))
    wts = [1.0] * len(smp.win)
    if model is not None:
        acted = model.weights(smp, view, lance)
        s = pairwise_sum(acted)
        if s > 1e-9 and (s**2 / pairwise_sum([w * w for w in acted])) >= 3:
            wts = acted
    total = pairwise_sum(wts)
    i = LANCE_INDEX[lance]
    win = pairwise_sum([((b >> i) & 1) * w for b, w in zip(smp.win, wts, strict=True)]) / total
    tv = ov = 0.0
    if lance in (Lance.PARES, Lance.JUEGO):
        facts = rank_facts(view.rules.kings)
        team, opp = smp.values(facts.pares_value if lance is Lance.PARES else facts.juego_value)
        tv = pairwise_sum([t * w for t, w in zip(team, wts, strict=True)]) / total
        ov = pairwise_sum([o * w for o, w in zip(opp, wts, strict=True)]) / total
    eff = int(total**2 / pairwise_sum([w * w for w in wts]))
    return Estimate(lance, win, eff, tv, ov)


# Values of every hand (expected en-paso stones), for the discard choice.


def hand_values(rules: Rules, pos: int, n: int = 1000, seed: int = 0) -> tuple[float, ...]:
    """Expected stones the team takes en paso (RULES.md §7) for every hand held at ``pos`` (0 mano .. 3
    postre), by row of :func:`~musteach.odds.space.hand_space` ``(kings, None)``: grande, chica and punto 1
    each, pares and juego the team's values, each hand sampled over ``n`` random deals (``seed``,
    :func:`hand_value`).

    Read from the tables shipped by :mod:`musteach.play.tables` when they hold them (8 and 4 reyes without
    la real, n 1000, seed :data:`VALUE_SEED`), else sampled once per process (a few seconds)."""
    shipped = shipped_values(rules.kings, pos) if not rules.la_real and (n, seed) == (1000, VALUE_SEED) else None
    if shipped is not None:
        return shipped
    return _sampled_values(Rules(kings=rules.kings, la_real=rules.la_real, la_real_figure=rules.la_real_figure), pos, n, seed)


@lru_cache(maxsize=64)
def _sampled_values(rules: Rules, pos: int, n: int, seed: int) -> tuple[float, ...]:
    return tuple(hand_value(hand, pos, rules, n, seed) for hand in hand_space(rules.kings, None).hands)


def hand_value(counts: Sequence[int], pos: int, rules: Rules, n: int = 1000, seed: int = 0) -> float:
    """One hand's expected en-paso stones at ``pos`` (see :func:`hand_values`), sampled: the hand given as
    its counts per rank class of ``hand_space(rules.kings, None)`` (suits taken in deck order)."""
    smp = _samples(_cards_for_counts(counts, rules.kings), pos, 0, rules, (), n, seed)
    facts = rank_facts(rules.kings)
    team_pv, _opp = smp.values(facts.pares_value)
    team_jv, _opp = smp.values(facts.juego_value)
    bits = smp.win
    m = len(bits)
    return (
        sum(b & 1 for b in bits) / m
        + sum((b >> 1) & 1 for b in bits) / m
        + sum(((b >> 2) & 1) * v for b, v in zip(bits, team_pv, strict=True)) / m
        + sum(((b >> 3) & 1) * v for b, v in zip(bits, team_jv, strict=True)) / m
        + sum((b >> 4) & 1 for b in bits) / m
    )


def _cards_for_counts(counts: Sequence[int], kings: int) -> tuple[Card, ...]:
    """Four distinct cards with ``counts`` cards of each effective rank class (lowest first; suits in deck order)."""
    classes = hand_space(kings, None).labels
    eff = [classes[i][0] for i, k in enumerate(counts) for _ in range(k)]
    eff.sort(reverse=True)
    used: set[Card] = set()
    out = []
    for r in eff:
        c = next(c for c in DECK if effective_rank(c.rank, kings) == r and c not in used)
        used.add(c)
        out.append(c)
    return tuple(out)


#: The seed of the hand values behind every discard choice: one table per deck, position and n, whatever the
#: bot's own seed (which varies its estimates only), so a process builds it once.
VALUE_SEED = 0

_KEEP_CACHE: dict[tuple[Any, ...], tuple[float, dict[tuple[int, ...], float]]] = {}


@lru_cache(maxsize=8)
def _draw_plan(kings: int, d: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of d cards over the rank classes of ``hand_space(kings, None)``, sorted as count vectors
    (lowest class first): its :func:`_code` and its (class, count) pairs with a count."""
    from ..odds.space import multisets

    return tuple((_code(m), tuple((c, x) for c, x in enumerate(m) if x)) for m in multisets(hand_space(kings, None).caps, d))


def _code(counts: Sequence[int]) -> int:
    """A count vector as one int (base 9: a class holds at most 8 cards), so that codes add as vectors do."""
    return sum(x * 9**c for c, x in enumerate(counts))


@lru_cache(maxsize=4)
def _row_of_code(kings: int) -> dict[int, int]:
    """:func:`_code` of each hand of ``hand_space(kings, None)`` -> its row."""
    return {_code(h): i for i, h in enumerate(hand_space(kings, None).hands)}


_COMB = tuple(tuple(comb(a, x) for x in range(5)) for a in range(9))


def keep_values(cards: Sequence[Card], pos: int, rules: Rules, n: int = 1000) -> tuple[float, dict[tuple[int, ...], float]]:
    """``(value of the hand as it is, {effective ranks kept: value after that discard})``, in the stones the
    team expects en paso (RULES.md §3, §7), for a hand at ``pos`` (0 mano .. 3 postre), 8 or 4 reyes.

    Every way of keeping 0 to 3 cards is weighed over every multiset of replacements, each with its exact
    probability of being drawn from the 36 unseen cards; each hand's value is sampled over ``n`` random
    deals (one table per deck, position and n, seed :data:`VALUE_SEED`: a sampling error of about
    0.05 stone; :func:`hand_values`). The keys are the ranks kept, high to low.
    """
    eff = tuple(sorted(effective_ranks(cards, rules), reverse=True))
    key = (rules, eff, pos, n)
    hit = _KEEP_CACHE.get(key)
    if hit is not None:
        return hit
    hs = hand_space(rules.kings, None)
    values = hand_values(rules, pos, n, VALUE_SEED)
    row_of = _row_of_code(rules.kings)
    index = {r: i for i, (r, _oros) in enumerate(hs.labels)}
    hand = [0] * hs.k
    for r in eff:
        hand[index[r]] += 1
    pool = [cap - h for cap, h in zip(hs.caps, hand, strict=True)]
    current = values[row_of[_code(hand)]]
    by_keep: dict[tuple[int, ...], float] = {}
    for k in (3, 2, 1, 0):
        for keep in combinations(eff, k):
            if keep in by_keep:
                continue
            kept = sum(9 ** index[r] for r in keep)
            total = 0
            terms = []  # in the draws' order, those that can be drawn: numpy's order of summation
            for code, pairs in _draw_plan(rules.kings, 4 - k):
                ways = prod(_COMB[pool[c]][x] for c, x in pairs)
                total += ways
                if ways:
                    terms.append(ways * values[row_of[kept + code]])
            by_keep[keep] = pairwise_sum(terms) / total
    out = (current, by_keep)
    _KEEP_CACHE[key] = out
    return out


def _best_discard(cards: Sequence[Card], pos: int, rules: Rules, n: int) -> tuple[tuple[int, ...], float, float]:
    """``(ranks to keep, value after the best discard, value of the hand as it is)`` in en-paso stones
    (:func:`keep_values`; among equal values the first kept of 3, 2, 1, 0 cards)."""
    current, by_keep = keep_values(cards, pos, rules, n)
    best: tuple[tuple[int, ...], float] = ((), -1.0)
    for keep, value in by_keep.items():
        if value > best[1] + 1e-12:
            best = (keep, value)
    return best[0], best[1], current


# ----------------------------------------------------------------------------------------------
# OddsBot
# ----------------------------------------------------------------------------------------------


class OddsBot:
    """Decides on its chances over the unseen cards (RULES.md §3–§7, §11).

    Mus: it compares the en-paso stones it expects with its hand as it is and after the best discard
    (every discard weighed over every possible draw); it cuts unless changing gains ``mus_gain`` stones
    (times the mus round), and always with a hand worth ``keep_at`` stones or more (a mus lets the
    opponents change cards too). Betting: ``p`` is the chance that its team wins the lance, over random deals
    that fit its partner's señas, everybody's declarations and the bets and passes seen (see
    :func:`estimate`), weighed by an :class:`OpponentModel` learnt from the hands shown at the end of
    earlier hands (how strong the opponents' hands are after the mus, and with which hands they bet).
    It opens at ``bet`` and raises at ``raise_``;
    facing a bet of S whose refusal pays D it accepts when the stones it expects from accepting,
    ``p (S + own values) - (1 - p) (S + their values)``, beat refusing, ``-(D + their values)``;
    an órdago (or a stake that would end the game) is accepted when ``p`` beats the chance of winning
    the game anyway (:func:`match_equity`).

    n: random deals per estimate; seed: the estimates' seed (the same seed gives the same play).
    Estimates are cached by the hand's ranks, position and señas, so each hand costs little.
    """

    def __init__(
        self,
        *,
        bet: float = 0.66,
        raise_: float = 0.82,
        mus_gain: float = 0.3,
        keep_at: float = 5.0,
        n: int = 1000,
        seed: int = 0,
        name: str = "OddsBot",
    ):
        self.bet_at, self.raise_at, self.mus_gain, self.keep_at = bet, raise_, mus_gain, keep_at
        self.n, self.seed, self.name = n, seed, name
        self.model = OpponentModel()

    def observe(self, view: View) -> None:
        """Learn from a finished hand (see :class:`OpponentModel`); :func:`run` calls it after each hand."""
        self.model.learn(view)

    def signals(self, view: View) -> tuple[Sena, ...]:
        """Up to two true señas (:func:`~musteach.play.policy.true_senas`)."""
        return true_senas(view)

    def decide(self, view: View) -> GameAction:
        """The action for ``view``'s phase (see the class docstring)."""
        return self.advise(view).action

    def advise(self, view: View) -> Advice:
        """The action with its reason (what :func:`advise` shows a learner), in the language being spoken."""
        _ = translator()
        phase = view.phase
        if phase in ("mus", "discard"):
            keep, after, now = _best_discard(view.cards, view.position, view.rules, self.n)
            if phase == "mus":
                gain = after - now
                need = self.mus_gain * view.mus_round
                hand = view.info.grande_str
                if gain > need and now < self.keep_at:
                    return Advice(
                        MusCall(True),
                        _(
                            "With {hand} your team expects {now} stones en paso; the best discard raises that to "
                            "{after}, so ask for mus.",
                            hand=hand,
                            now=decimal_text(now, 1, lang=_.lang),
                            after=decimal_text(after, 1, lang=_.lang),
                        ),
                    )
                if now >= self.keep_at:
                    why = _(
                        "With {hand} your team expects {now} stones en paso; that is a strong hand (changing cards "
                        "would give {after}, but the opponents change too): cut the mus (no hay mus).",
                        hand=hand,
                        now=decimal_text(now, 1, lang=_.lang),
                        after=decimal_text(after, 1, lang=_.lang),
                    )
                else:
                    why = _(
                        "With {hand} your team expects {now} stones en paso; changing cards would give at most "
                        "{after}, a gain of {gain} stones, less than the {need} this bot asks of mus round {round}: "
                        "cut the mus (no hay mus).",
                        hand=hand,
                        now=decimal_text(now, 1, lang=_.lang),
                        after=decimal_text(after, 1, lang=_.lang),
                        gain=decimal_text(after - now, 1, lang=_.lang),
                        need=decimal_text(need, 1, lang=_.lang),
                        round=view.mus_round,
                    )
                return Advice(MusCall(False), why)
            eff = {c: effective_rank(c.rank, view.rules.kings) for c in view.cards}
            keep_cards: list[Card] = []
            wanted = list(keep)
            for c in sorted(view.cards, key=lambda c: -eff[c]):
                if eff[c] in wanted:
                    wanted.remove(eff[c])
                    keep_cards.append(c)
            d = keep_to_discard(view, keep_cards)
            if not keep_cards:
                return Advice(
                    d, _("Keep nothing: over every possible draw this gives the most stones en paso ({after}).", after=decimal_text(after, 1, lang=_.lang))
                )
            kept = " ".join(c.code for c in keep_cards)
            return Advice(
                d,
                _(
                    "Keep {cards}: over every possible draw this gives the most stones en paso ({after}).",
                    cards=kept,
                    after=decimal_text(after, 1, lang=_.lang),
                ),
            )
        if phase.startswith("declare:"):
            a = next(a for a in view.legal if isinstance(a, Declare))
            return Advice(a, _("Declarations must be truthful (RULES.md §4)."))
        lance = view.lance
        assert lance is not None and view.betting is not None
        est = estimate(view, lance, n=self.n, seed=self.seed, model=self.model)
        return self._bet(view, est)

    def _bet(self, view: View, est: Estimate) -> Advice:
        _ = translator()
        b = view.betting
        assert b is not None
        lance = est.lance
        p = est.win
        odds = {"lance": lance.title, "how_often": _in_words(p), "p": decimal_text(p, 2, lang=_.lang)}
        us, them = view.team, "B" if view.team == "A" else "A"
        live = view.live_score
        target = view.rules.target
        if not b.stakes:
            if p >= 0.97 and is_legal_bet(view, bet("ordago")) and match_equity(live[us], live[them], target) < 0.35:
                return Advice(bet("ordago"), _("Your team wins {lance} {how_often} ({p}), and your team is well behind: órdago.", **odds))
            if p >= self.raise_at:
                return Advice(
                    bet("envido", 3 if p < 0.92 else 4), _("Your team wins {lance} {how_often} ({p}): bet more than the envido.", **odds)
                )
            if p >= self.bet_at:
                return Advice(bet("envido", 2), _("Your team wins {lance} {how_often} ({p}): envido.", **odds))
            return Advice(bet("paso"), _("Your team wins {lance} {how_often} ({p}): not enough to bet; paso.", **odds))
        raises = len(b.stakes)
        pd = p  # the estimate already weighs what their bets say about their hands
        stake = b.current_stake
        d = deje_if_refused(b)
        if stake == ORDAGO or int(stake) >= min(target - live[us], target - live[them]):  # type: ignore[arg-type]
            eq = match_equity(live[us], live[them] + d, target)
            if pd > eq:
                return Advice(
                    bet("quiero"),
                    _(
                        "Your team wins {lance} {how_often} ({p}), after what their bets say about their hands, "
                        "better than your chance of winning the game otherwise ({equity}): quiero.",
                        equity=decimal_text(eq, 2, lang=_.lang),
                        **odds,
                    ),
                )
            return Advice(
                bet("no_quiero"),
                _(
                    "Your team wins {lance} {how_often} ({p}), after what their bets say about their hands; "
                    "your chance of winning the game otherwise is {equity}: no quiero.",
                    equity=decimal_text(eq, 2, lang=_.lang),
                    **odds,
                ),
            )
        s = int(stake)  # type: ignore[arg-type]
        ev_accept = pd * (s + est.team_values) - (1 - pd) * (s + est.opp_values)
        ev_refuse = -(d + est.opp_values)
        if pd >= self.raise_at and raises < 4 and is_legal_bet(view, bet("reenvido", 2)):
            return Advice(
                bet("reenvido", 2 if pd < 0.92 else 3),
                _("Your team wins {lance} {how_often} ({p}), after what their bets say about their hands: raise.", **odds),
            )
        worth = {
            "accept": decimal_text(ev_accept, 1, lang=_.lang, sign=True),
            "refuse": decimal_text(ev_refuse, 1, lang=_.lang, sign=True),
            **odds,
        }
        if ev_accept > ev_refuse:
            return Advice(
                bet("quiero"),
                _(
                    "Your team wins {lance} {how_often} ({p}), after what their bets say about their hands: "
                    "accepting is worth {accept} stones against {refuse} for refusing: quiero.",
                    **worth,
                ),
            )
        return Advice(
            bet("no_quiero"),
            _(
                "Your team wins {lance} {how_often} ({p}), after what their bets say about their hands: "
                "accepting is worth {accept} stones against {refuse} for refusing: no quiero.",
                **worth,
            ),
        )


def _in_words(p: float) -> Text:
    """``"about 7 times in 10"``: a probability in words."""
    if p >= 0.995:
        return Text("almost always")
    if p <= 0.005:
        return Text("almost never")
    if p >= 0.95 or p <= 0.05:
        k = max(1, round(p * 20))
        return plural_text("about {n} time in 20", "about {n} times in 20", k)
    k = max(1, round(p * 10))
    return plural_text("about {n} time in 10", "about {n} times in 10", k)
