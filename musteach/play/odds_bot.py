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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb, prod
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
    pairwise_sum,
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

    def values(self, table: bytes) -> tuple[list[int], list[int]]:
        """Per deal, the team's and the opponents' sums of a per-rank-id value (pares or juego values)."""
        mine = table[self.own]
        o1, o2, o3 = self.others
        return [mine + table[b] for b in o2], [table[a] + table[c] for a, c in zip(o1, o3, strict=True)]

    def pct(self, rel: int, li: int) -> bytes:
        """Per deal, relative seat ``rel``'s (1..3) percentile 0..255 in lance ``li``."""
        t = rank_facts(self.kings).pct[li]
        return bytes(t[i] for i in self.others[rel - 1])


def _stable_seed(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode())


_SAMPLE_CACHE: OrderedDict[tuple[Any, ...], _Samples] = OrderedDict()
_SAMPLE_CACHE_SIZE = 2000


def _declared_bits(flags: bytes, ids: Sequence[int]) -> int:
    """Pares held by relative seats 1, 2, 3 (bits 0-2) and juego (bits 3-5), from their rank ids."""
    bits = 0
    for rel, i in enumerate(ids):
        f = flags[i]
        bits |= ((f & 1) << rel) | (((f >> 1) & 1) << (rel + 3))
    return bits


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
    pool = deal_pool()
    start = pool_start(_stable_seed(*key), POOL_ROWS)
    mine = set(own)
    others = [i for i in range(40) if i not in mine]
    w1000 = [(c >> 2) * 1000 for c in others]
    w100 = [(c >> 2) * 100 for c in others]
    w10 = [(c >> 2) * 10 for c in others]
    w1 = [c >> 2 for c in others]
    need = 0
    for sena_key in sset:
        need |= 1 << SENA_BITS[sena_key]
    care, value = declared
    chosen = [(start + i) % POOL_ROWS for i in range(n)]
    if need or care:
        fits: list[int] = []
        for i in range(POOL_ROWS):  # look through the pool from ``start`` until n deals fit
            r = (start + i) % POOL_ROWS
            row = pool[r * POOL_WIDTH : r * POOL_WIDTH + POOL_WIDTH]
            ids = [w1000[row[k]] + w100[row[k + 1]] + w10[row[k + 2]] + w1[row[k + 3]] for k in (0, 4, 8)]
            if need and (facts.senas[ids[1]] & need) != need:
                continue
            if care and (_declared_bits(facts.flags, ids) & care) != value:
                continue
            fits.append(r)
            if len(fits) >= n:
                break
        if fits:  # facts that (almost) never fit leave few deals; none at all: ignore them
            chosen = fits
    out = _judge_rows(chosen, own, seat, mano, rules, others)
    _SAMPLE_CACHE[key] = out
    if len(_SAMPLE_CACHE) > _SAMPLE_CACHE_SIZE:
        _SAMPLE_CACHE.popitem(last=False)
    return out


def _judge_rows(rows: Sequence[int], own: Sequence[int], seat: int, mano: int, rules: Rules, others: Sequence[int]) -> _Samples:
    """Deal the pool's ``rows`` to relative seats 1, 2, 3 (from the cards ``others``) and judge every lance."""
    pool = deal_pool()
    keys = keys_for(rules)
    pos0 = (seat - mano) % 4
    d1, d2, d3 = (pos0 + 1) % 4, (pos0 + 2) % 4, (pos0 + 3) % 4
    g0, c0, p0, j0, u0 = keys.keys(pos0, own)
    t1, t2, t3 = keys.by_distance[d1], keys.by_distance[d2], keys.by_distance[d3]
    w1000 = [(c >> 2) * 1000 for c in others]
    w100 = [(c >> 2) * 100 for c in others]
    w10 = [(c >> 2) * 10 for c in others]
    w1 = [c >> 2 for c in others]
    # a lance is the seat's team's when the winner's distance from mano (3 - key & 3) has the seat's parity
    ours = 0 if pos0 & 1 else 1  # the value of ``key & 1`` that means "won by the seat's team"
    win = bytearray(len(rows))
    ids1, ids2, ids3 = ids_array(()), ids_array(()), ids_array(())
    for n_, r in enumerate(rows):
        o = r * POOL_WIDTH
        i1 = w1000[pool[o]] + w100[pool[o + 1]] + w10[pool[o + 2]] + w1[pool[o + 3]]
        i2 = w1000[pool[o + 4]] + w100[pool[o + 5]] + w10[pool[o + 6]] + w1[pool[o + 7]]
        i3 = w1000[pool[o + 8]] + w100[pool[o + 9]] + w10[pool[o + 10]] + w1[pool[o + 11]]
        ids1.append(i1)
        ids2.append(i2)
        ids3.append(i3)
        if keys.oros_real:  # la real with the sota de oros: the hands' cards matter
            row = [others[x] for x in pool[o : o + POOL_WIDTH]]
            a, b, c = keys.keys(d1, row[0:4]), keys.keys(d2, row[4:8]), keys.keys(d3, row[8:12])
        else:
            a, b, c = t1[i1], t2[i2], t3[i3]
        bits = int((max(g0, a[0], b[0], c[0]) & 1) == ours)
        if (max(c0, a[1], b[1], c[1]) & 1) == ours:
            bits |= 2
        best = max(p0, a[2], b[2], c[2])
        if best >= 4 and (best & 1) == ours:
            bits |= 4
        best = max(j0, a[3], b[3], c[3])
        if best >= 4:
            if (best & 1) == ours:
                bits |= 8
        elif (max(u0, a[4], b[4], c[4]) & 1) == ours:  # nobody has juego: punto is played
            bits |= 16
        win[n_] = bits
    return _Samples(rules.kings, bytes(win), rank_id(own), (ids1, ids2, ids3))


def sample_deals(view: View, n: int = 400, seed: int = 0) -> list[Deal]:
    """Random deals of the cards ``view.seat`` cannot see that fit what it knows: its partner's hand señas
    (RULES.md §11) and the pares / juego declarations made so far (§4).

    Returns m ≤ n deals, each 4 hands of 4 card indexes by seat (``view.seat`` holds its own cards, sorted);
    fewer when the facts are rare in the pool of random orders, and none of the facts are used when no
    deal at all fits them. The same view, n and seed give the same deals.
    """
    facts = rank_facts(view.rules.kings)
    own = tuple(sorted(c.index for c in view.cards))
    seat = view.seat
    rel_seats = [(seat + rel) % 4 for rel in (1, 2, 3)]
    need = 0
    for sena in view.partner_senas:
        if sena.kind == "hand" and sena.key in SENA_BITS:
            need |= 1 << SENA_BITS[sena.key]
    said = [
        (bit, rel, bool(flag))
        for bit, name in ((1, "pares"), (2, "juego"))
        for rel, s in enumerate(rel_seats)
        if (flag := view.declared.get(name, (None,) * 4)[s]) is not None
    ]
    mine = set(own)
    others = [i for i in range(40) if i not in mine]
    pool = deal_pool()
    start = pool_start(_stable_seed("deals", own, seat, view.mano, need, n, seed), POOL_ROWS)
    cands: list[tuple[tuple[int, ...], ...]] = []
    fits: list[tuple[tuple[int, ...], ...]] = []
    for i in range(min(POOL_ROWS, 16 * n)):
        r = (start + i) % POOL_ROWS
        row = pool[r * POOL_WIDTH : r * POOL_WIDTH + POOL_WIDTH]
        hands = tuple(tuple(others[row[k + j]] for j in range(4)) for k in (0, 4, 8))
        if len(cands) < n:
            cands.append(hands)
        if need and (facts.senas[rank_id(hands[1])] & need) != need:
            continue
        if any(((facts.flags[rank_id(hands[rel])] & bit) > 0) != flag for bit, rel, flag in said):
            continue
        fits.append(hands)
        if len(fits) >= n:
            break
    out: list[Deal] = []
    for hands in fits or cands:
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
    def _bins(smp: _Samples, li: int) -> list[int]:
        """Per deal, the strength bin of the opponents' best hand in lance ``li``."""
        return [_bin(_team_strength(a, b)) for a, b in zip(smp.pct(1, li), smp.pct(3, li), strict=True)]


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


@lru_cache(maxsize=64)
def _draw_multisets(kings: int, d: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of d cards over the rank classes (count vectors, lowest class first), sorted."""
    from ..odds.space import multisets

    return tuple(multisets(hand_space(kings, None).caps, d))


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
    index = {r: i for i, (r, _oros) in enumerate(hs.labels)}
    k_ = len(hs.labels)
    hand = [0] * k_
    for r in eff:
        hand[index[r]] += 1
    pool = [cap - h for cap, h in zip(hs.caps, hand, strict=True)]
    current = values[hs.index[tuple(hand)]]
    by_keep: dict[tuple[int, ...], float] = {}
    for k in (3, 2, 1, 0):
        for keep in combinations(eff, k):
            if keep in by_keep:
                continue
            kv = [0] * k_
            for r in keep:
                kv[index[r]] += 1
            ways_all = [prod(comb(p, x) for p, x in zip(pool, draw, strict=True)) for draw in _draw_multisets(rules.kings, 4 - k)]
            terms = [
                ways * values[hs.index[tuple(a + b for a, b in zip(kv, draw, strict=True))]]
                for ways, draw in zip(ways_all, _draw_multisets(rules.kings, 4 - k), strict=True)
                if ways > 0
            ]
            by_keep[keep] = pairwise_sum(terms) / sum(ways_all)
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
