"""OddsBot: weighs its chances over random deals of the unseen cards that fit everything it knows (its
partner's señas, everybody's declarations), learns how its opponents bet, and keeps the discard with the
most stones expected (RULES.md §3–§7, §11).
"""

from __future__ import annotations

import math
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import TYPE_CHECKING, Any

from ..draw.odds import decimal_text
from ..i18n import Text, plural_text, translator
from ..lazy import lazy_module
from ..rules.batch import evaluate_batch
from ..rules.betting import ORDAGO, LanceBetting
from ..rules.cards import DECK, RANKS, Card
from ..rules.errors import MusError
from ..rules.lances import HandInfo, Lance, effective_rank, info_from_ranks
from ..rules.options import Rules
from ..rules.senas import HAND_TESTS, Sena
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

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_module("numpy")  # imported on first use: a page that never counts in bulk stays light

__all__ = ["VALUE_SEED", "Estimate", "OddsBot", "OpponentModel", "estimate", "hand_facts", "keep_values", "sample_deals"]


# ----------------------------------------------------------------------------------------------
# Monte Carlo over the unseen cards (what OddsBot and the coach know)
# ----------------------------------------------------------------------------------------------

_SENA_BITS = {k: i for i, k in enumerate([*HAND_TESTS, "ciego"])}
_LANCES5 = (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO, Lance.PUNTO)


@dataclass(frozen=True)
class _RankTables:
    """Per kings: facts about every ordered tuple of 4 raw ranks (index 0..9 in RANKS), id = base-10 number."""

    flags: np.ndarray  # (10000,) uint8: bit 0 pares, bit 1 juego
    senas: np.ndarray  # (10000,) int32: bit i = seña i of _SENA_BITS is true of the hand
    pares_value: np.ndarray  # (10000,) int8: par 1, medias 2, duples 3
    juego_value: np.ndarray  # (10000,) int8: 31 = 3, other juego 2
    multiset: np.ndarray  # (10000,) int16: dense id of the multiset of effective ranks
    pct: np.ndarray  # (5, 10000) uint8: the hand's percentile (0..255) per lance among all hands
    infos: tuple[HandInfo, ...]  # by multiset id
    keys: tuple[tuple[int, ...], ...]  # effective ranks, high to low, by multiset id


@lru_cache(maxsize=4)
def _rank_tables(kings: int) -> _RankTables:
    flags = np.zeros(10000, np.uint8)
    senas = np.zeros(10000, np.int32)
    pv = np.zeros(10000, np.int8)
    jv = np.zeros(10000, np.int8)
    ms = np.zeros(10000, np.int16)
    ids: dict[tuple[int, ...], int] = {}
    infos: list[HandInfo] = []
    for t in product(range(10), repeat=4):
        i = ((t[0] * 10 + t[1]) * 10 + t[2]) * 10 + t[3]
        info = info_from_ranks([RANKS[r] for r in t], kings)
        flags[i] = (info.pares is not None) | (info.is_juego << 1)
        pv[i] = info.pares.value if info.pares else 0
        jv[i] = info.juego_value
        bits = 0
        for k, test in HAND_TESTS.items():
            if test(info):
                bits |= 1 << _SENA_BITS[k]
        if info.pares is None and not info.is_juego and info.total not in (29, 30):
            bits |= 1 << _SENA_BITS["ciego"]
        senas[i] = bits
        key = info.ranks
        if key not in ids:
            ids[key] = len(ids)
            infos.append(info)
        ms[i] = ids[key]
    # Percentiles: how a hand ranks among all hands (card hands, not rank patterns) in each lance. For
    # Pares and Juego among the hands that hold it (those without it never bet); 0 for the others.
    caps: dict[int, int] = {}
    for c in DECK:
        r = effective_rank(c.rank, kings)
        caps[r] = caps.get(r, 0) + 1
    weight = np.array([math.prod(math.comb(caps[r], info.ranks.count(r)) for r in set(info.ranks)) for info in infos], float)
    pct_ms = np.zeros((5, len(infos)))
    for li, lance in enumerate(_LANCES5):
        keys = [info.key(lance) for info in infos]
        holders = [i for i, k in enumerate(keys) if k]
        total = weight[holders].sum()
        by_key: dict[tuple[int, ...], float] = {}
        for i in holders:
            by_key[keys[i]] = by_key.get(keys[i], 0.0) + weight[i]
        below = 0.0
        cum: dict[tuple[int, ...], float] = {}
        for held in sorted(by_key):
            cum[held] = (below + by_key[held] / 2) / total
            below += by_key[held]
        for i in holders:
            pct_ms[li, i] = cum[keys[i]]
    pct = np.round(pct_ms[:, ms] * 255).astype(np.uint8)
    return _RankTables(flags, senas, pv, jv, ms, pct, tuple(infos), tuple(ids))


def _rank_ids(cards: np.ndarray) -> np.ndarray:
    r = (cards >> 2).astype(np.int32)
    return ((r[..., 0] * 10 + r[..., 1]) * 10 + r[..., 2]) * 10 + r[..., 3]


@dataclass(frozen=True)
class _Samples:
    """Random deals of the unseen cards that fit the señas received, from one seat's point of view.

    win: (n,) bits, bit i set when the seat's team wins lance i (grande, chica, pares, juego, punto).
    flags: (n,) bits: pares held by relative seats 1, 2, 3 (bits 0-2), juego (bits 3-5).
    pct: (n, 3, 5) uint8: the percentile of relative seats 1, 2, 3 in each lance (see _RankTables).
    team_pv, opp_pv, team_jv, opp_jv: (n,) pares / juego values (RULES.md §7) held by each team.
    """

    win: np.ndarray
    flags: np.ndarray
    pct: np.ndarray
    team_pv: np.ndarray
    opp_pv: np.ndarray
    team_jv: np.ndarray
    opp_jv: np.ndarray


@lru_cache(maxsize=1)
def _perm_pool(size: int = 20_000) -> np.ndarray:
    """A fixed pool of random orders of 36 unseen cards (the first 12 of each row are dealt), uint8.

    Every estimate deals from rows of this pool (mapped onto its own unseen cards), which is much faster
    than shuffling anew each time; the rows are independent, uniformly random orders.
    """
    rng = np.random.default_rng(20240611)
    return np.argsort(rng.random((size, 36)), axis=1)[:, :12].astype(np.uint8)


def _stable_seed(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode())


_CHUNK = 4096  # pool rows looked at per step when deals must fit señas or declarations
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

    senas: keys the partner's hand must fit. declared: ``(care, value)`` bit masks over the
    :attr:`_Samples.flags` bits: the deals kept have ``flags & care == value`` (what was declared).
    """
    tabs = _rank_tables(rules.kings)
    own = np.array(sorted(c.index for c in cards), np.uint8)
    ms = int(tabs.multiset[int(_rank_ids(own[None])[0])])
    sset = tuple(sorted(set(senas)))
    key = (rules.kings, rules.la_real, rules.la_real_figure, ms, (seat - mano) % 4, sset, n, seed, declared)
    hit = _SAMPLE_CACHE.get(key)
    if hit is not None:
        _SAMPLE_CACHE.move_to_end(key)
        return hit
    rng = np.random.default_rng(_stable_seed(*key))
    unseen = np.ones(40, bool)
    unseen[own] = False
    others = np.flatnonzero(unseen).astype(np.uint8)
    need = 0
    for sena_key in sset:
        need |= 1 << _SENA_BITS[sena_key]
    perms = _perm_pool()
    total = len(perms)
    start = int(rng.integers(total))
    chosen = (start + np.arange(n)) % total
    care, value = declared
    if need or care:
        found: list[np.ndarray] = []
        count = 0
        for lo in range(0, total, _CHUNK):  # look through the pool from ``start`` until n deals fit
            rows = (start + lo + np.arange(min(_CHUNK, total - lo))) % total
            cand = others[perms[rows]]  # (c, 12)
            ok = np.ones(len(rows), bool)
            if need:
                ok &= (tabs.senas[_rank_ids(cand[:, 4:8])] & need) == need
            if care:
                fl = tabs.flags[_rank_ids(cand.reshape(len(rows), 3, 4))]  # (c, 3)
                bits = np.zeros(len(rows), np.uint8)
                for rel in range(3):
                    bits |= ((fl[:, rel] & 1) << rel) | (((fl[:, rel] >> 1) & 1) << (rel + 3))
                ok &= (bits & care) == value
            found.append(rows[ok])
            count += int(ok.sum())
            if count >= n:
                break
        if count:  # facts that (almost) never fit leave few deals; none at all: ignore them
            chosen = np.concatenate(found)[:n]
    picks = others[perms[chosen]]
    m = len(picks)
    hands = np.empty((m, 4, 4), np.uint8)
    hands[:, seat] = own
    rel_seats = [(seat + rel) % 4 for rel in (1, 2, 3)]
    for rel, s in enumerate(rel_seats):
        hands[:, s] = picks[:, 4 * rel : 4 * rel + 4]
    w = evaluate_batch(hands, mano, rules, validate=False)
    team = seat % 2
    win = np.zeros(m, np.uint8)
    for i, name in enumerate(("grande", "chica", "pares", "juego", "punto")):
        x = w[name]
        win |= (((x >= 0) & ((x % 2) == team)).astype(np.uint8)) << i
    ids = _rank_ids(hands)  # (m, 4)
    fl = tabs.flags[ids]
    flags = np.zeros(m, np.uint8)
    for rel, s in enumerate(rel_seats):
        flags |= ((fl[:, s] & 1) << rel) | (((fl[:, s] >> 1) & 1) << (rel + 3))
    pct = np.ascontiguousarray(tabs.pct[:, ids[:, rel_seats]].transpose(1, 2, 0))  # (m, 3, 5)
    pv, jv = tabs.pares_value[ids].astype(np.int16), tabs.juego_value[ids].astype(np.int16)
    mates = [seat, (seat + 2) % 4]
    opps = [(seat + 1) % 4, (seat + 3) % 4]
    out = _Samples(
        win,
        flags,
        pct,
        pv[:, mates].sum(1),
        pv[:, opps].sum(1),
        jv[:, mates].sum(1),
        jv[:, opps].sum(1),
    )
    _SAMPLE_CACHE[key] = out
    if len(_SAMPLE_CACHE) > _SAMPLE_CACHE_SIZE:
        _SAMPLE_CACHE.popitem(last=False)
    return out


def sample_deals(view: View, n: int = 400, seed: int = 0) -> np.ndarray:
    """Random deals of the cards ``view.seat`` cannot see that fit what it knows: its partner's hand señas
    (RULES.md §11) and the pares / juego declarations made so far (§4).

    Returns a (m, 4, 4) uint8 array of card indexes by seat (``view.seat`` holds its own cards), m ≤ n;
    fewer when the facts are rare in the pool of random orders, and none of the facts are used when no
    deal at all fits them. The same view, n and seed give the same deals.
    """
    tabs = _rank_tables(view.rules.kings)
    own = np.array(sorted(c.index for c in view.cards), np.uint8)
    seat = view.seat
    rel_seats = [(seat + rel) % 4 for rel in (1, 2, 3)]
    need = 0
    for sena in view.partner_senas:
        if sena.kind == "hand" and sena.key in _SENA_BITS:
            need |= 1 << _SENA_BITS[sena.key]
    unseen = np.ones(40, bool)
    unseen[own] = False
    others = np.flatnonzero(unseen).astype(np.uint8)
    perms = _perm_pool()
    rng = np.random.default_rng(_stable_seed("deals", tuple(own.tolist()), seat, view.mano, need, n, seed))
    start = int(rng.integers(len(perms)))
    rows = (start + np.arange(min(len(perms), 16 * n))) % len(perms)
    cand = others[perms[rows]]  # (c, 12): relative seats 1, 2, 3
    ok = np.ones(len(rows), bool)
    if need:
        ok &= (tabs.senas[_rank_ids(cand[:, 4:8])] & need) == need
    fl = tabs.flags[_rank_ids(cand.reshape(len(rows), 3, 4))]  # (c, 3)
    for bit, name in ((1, "pares"), (2, "juego")):
        for rel, s in enumerate(rel_seats):
            said = view.declared.get(name, (None,) * 4)[s]
            if said is not None:
                ok &= ((fl[:, rel] & bit) > 0) == bool(said)
    if ok.any():
        cand = cand[ok]
    cand = cand[:n]
    hands = np.empty((len(cand), 4, 4), np.uint8)
    hands[:, seat] = own
    for rel, s in enumerate(rel_seats):
        hands[:, s] = cand[:, 4 * rel : 4 * rel + 4]
    return hands


def hand_facts(hands: np.ndarray, lance: Lance, kings: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For deals ``hands`` ((m, 4, 4) card indexes by seat): each hand's percentile in ``lance`` among all
    hands (0..1; 0 for a hand without pares or juego in those lances), its pares value (par 1, medias 2,
    duples 3) and its juego value (31 is 3, other juego 2), each (m, 4) by seat (RULES.md §7)."""
    tabs = _rank_tables(kings)
    ids = _rank_ids(hands)
    pct: np.ndarray = tabs.pct[LANCE_INDEX[lance]][ids] / 255.0
    return pct, tabs.pares_value[ids].astype(np.int16), tabs.juego_value[ids].astype(np.int16)


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


@lru_cache(maxsize=4)
def _reference_bins(kings: int) -> np.ndarray:
    """(5, _BINS): how often two random opponents' best hand falls in each strength bin, per lance."""
    from ..rules.batch import random_deals

    tabs = _rank_tables(kings)
    deals = random_deals(20_000, seed=5)
    ids = _rank_ids(deals)  # (n, 4)
    out = np.empty((5, _BINS))
    for li in range(5):
        u = _team_strength(tabs.pct[li][ids[:, 1]], tabs.pct[li][ids[:, 3]])
        out[li] = np.bincount(_bin(u), minlength=_BINS) / len(u)
    return np.maximum(out, 1e-4)


def _team_strength(p1: np.ndarray, p2: np.ndarray) -> np.ndarray:
    """A team's strength in a lance from its two players' percentiles (uint8): max², uniform for random hands."""
    m: np.ndarray = np.maximum(p1, p2) / 255.0
    squared: np.ndarray = m * m
    return squared


def _bin(u: np.ndarray) -> np.ndarray:
    return np.minimum((u * _BINS).astype(np.int64), _BINS - 1)


class OpponentModel:
    """What a bot learns about its opponents from public facts: the hands shown at the end of each hand
    and the bets they opened with them (RULES.md §4, §6).

    For each lance it keeps, by strength bin of the opponents' best hand (see _team_strength): how often
    such hands are held after the mus, and how often the opponents open a bet with them. A bet seen in
    this hand then weighs each random deal by how likely the opponents were to bet with the hands it
    gives them, and a pass by how likely they were to pass.
    """

    def __init__(self) -> None:
        ramp = np.linspace(0.2, 1.8, _BINS)
        self.held = np.ones((5, _BINS))  # showdown counts (pseudo-counts 1)
        self.bets = np.tile(ramp, (5, 1))  # opened a bet with such hands (prior: stronger bets more)
        self.passes = np.tile(2 - ramp, (5, 1))  # passed the opening round with such hands
        self.raises = np.tile(ramp / 2, (5, 1))  # answered a bet of ours with a raise
        self.calls = np.tile(2 - ramp / 2, (5, 1))  # answered it without raising
        self._done: set[tuple[int, int]] = set()

    def p_bet(self, li: int) -> np.ndarray:
        """P(the opponents open a bet | strength bin) for lance index ``li``."""
        p: np.ndarray = self.bets[li] / (self.bets[li] + self.passes[li])
        return p

    def p_raise(self, li: int) -> np.ndarray:
        """P(the opponents raise a bet of ours | strength bin) for lance index ``li``."""
        p: np.ndarray = self.raises[li] / (self.raises[li] + self.calls[li])
        return p

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
        tabs = _rank_tables(view.rules.kings)
        ids = _rank_ids(np.array([[c.index for c in h] for h in view.shown], np.uint8))
        o1, o2 = (view.seat + 1) % 4, (view.seat + 3) % 4
        for li in range(5):
            u = _team_strength(tabs.pct[li][ids[o1 : o1 + 1]], tabs.pct[li][ids[o2 : o2 + 1]])
            b = int(_bin(u)[0])
            self.held[li, b] += 1
        for b_ in view.bettings.values():
            li = LANCE_INDEX[b_.lance]
            said = self.opening(b_, view.seat)
            u = _team_strength(tabs.pct[li][ids[o1 : o1 + 1]], tabs.pct[li][ids[o2 : o2 + 1]])
            b = int(_bin(u)[0])
            if said:
                self.bets[li, b] += 1
            elif said is not None:
                self.passes[li, b] += 1
            for raised in self.answers(b_, view.seat):
                if raised:
                    self.raises[li, b] += 1
                else:
                    self.calls[li, b] += 1

    def weights(self, smp: _Samples, view: View, lance: Lance) -> np.ndarray:
        """Weight of every sample: the opponents' hands as often as they are held after the mus, and as
        likely as they are to have made the opening bets and passes seen in this hand."""
        ref = _reference_bins(view.rules.kings)
        li = LANCE_INDEX[lance]
        u = _team_strength(smp.pct[:, 0, li], smp.pct[:, 2, li])
        held = self.held[li] / self.held[li].sum()
        wts = np.clip(held / ref[li], 0.25, 4.0)[_bin(u)]
        bettings = list(view.bettings.values())
        if view.betting is not None:
            bettings.append(view.betting)
        for b in bettings:
            said = self.opening(b, view.seat)
            answers = self.answers(b, view.seat)
            if said is None and not answers:
                continue
            lj = LANCE_INDEX[b.lance]
            bins = _bin(_team_strength(smp.pct[:, 0, lj], smp.pct[:, 2, lj]))
            if said is not None:
                pb = self.p_bet(lj)[bins]
                wts = wts * (pb if said else 1 - pb)
            pr = self.p_raise(lj)[bins]
            for raised in answers:
                wts = wts * (pr if raised else 1 - pr)
        weights: np.ndarray = wts
        return weights


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
    senas = tuple(s.key for s in view.partner_senas if s.kind == "hand" and s.key in _SENA_BITS)
    care = value = 0
    if lance in (Lance.PARES, Lance.JUEGO, Lance.PUNTO):
        for shift, name in ((0, "pares"), (3, "juego")):
            for rel in (1, 2, 3):
                said = view.declared[name][(view.seat + rel) % 4]
                if said is not None:
                    care |= 1 << (shift + rel - 1)
                    value |= int(said) << (shift + rel - 1)
    smp = _samples(view.cards, view.seat, view.mano, view.rules, senas, n, seed, (care, value))
    wts = np.ones(len(smp.win))
    acted = model.weights(smp, view, lance) if model is not None else wts
    if acted.sum() > 1e-9 and (acted.sum() ** 2 / (acted**2).sum()) >= 3:
        wts = acted
    total = wts.sum()
    i = LANCE_INDEX[lance]
    win = float((((smp.win >> i) & 1) * wts).sum() / total)
    tv = ov = 0.0
    if lance is Lance.PARES:
        tv, ov = float((smp.team_pv * wts).sum() / total), float((smp.opp_pv * wts).sum() / total)
    elif lance is Lance.JUEGO:
        tv, ov = float((smp.team_jv * wts).sum() / total), float((smp.opp_jv * wts).sum() / total)
    eff = int(total**2 / (wts**2).sum())
    return Estimate(lance, win, eff, tv, ov)


# Values of every hand (expected en-paso stones), for the discard choice.


@lru_cache(maxsize=64)
def _value_vector(rules: Rules, pos: int, n: int, seed: int) -> np.ndarray:
    """Expected stones the team takes en paso (RULES.md §7), for every multiset of ranks held at ``pos``.

    Indexed like :attr:`_RankTables.keys`: grande, chica and punto 1 each, pares and juego the team's values.
    """
    tabs = _rank_tables(rules.kings)
    out = np.empty(len(tabs.keys), float)
    for ms_id, ranks in enumerate(tabs.keys):
        cards = _cards_for_ranks(ranks, rules.kings)
        smp = _samples(cards, pos, 0, rules, (), n, seed)
        bits = smp.win
        out[ms_id] = (
            (bits & 1).mean()
            + ((bits >> 1) & 1).mean()
            + (((bits >> 2) & 1) * smp.team_pv).mean()
            + (((bits >> 3) & 1) * smp.team_jv).mean()
            + ((bits >> 4) & 1).mean()
        )
    return out


def _cards_for_ranks(eff_ranks: Sequence[int], kings: int) -> tuple[Card, ...]:
    """Four distinct cards whose effective ranks are ``eff_ranks`` (suits chosen in order)."""
    used: set[Card] = set()
    out = []
    for r in eff_ranks:
        c = next(c for c in DECK if effective_rank(c.rank, kings) == r and c not in used)
        used.add(c)
        out.append(c)
    return tuple(out)


@dataclass(frozen=True)
class _DrawTables:
    """Per kings: the rank classes, the multisets as count vectors, and every draw of d cards."""

    classes: tuple[int, ...]  # effective ranks, low to high
    caps: np.ndarray  # (k,) cards of each class in the deck
    codes: np.ndarray  # (m,) sorted base-5 codes of the multisets' count vectors
    ms_of_code: np.ndarray  # (m,) the _RankTables multiset id of each sorted code
    draws: tuple[np.ndarray, ...]  # draws[d]: (D, k) count vectors of d cards
    radix: np.ndarray  # (k,) powers of 5
    comb: np.ndarray  # (9, 5) C(n, v)


@lru_cache(maxsize=4)
def _draw_tables(kings: int) -> _DrawTables:
    tabs = _rank_tables(kings)
    caps_d: dict[int, int] = {}
    for c in DECK:
        r = effective_rank(c.rank, kings)
        caps_d[r] = caps_d.get(r, 0) + 1
    classes = tuple(sorted(caps_d))
    k = len(classes)
    radix = 5 ** np.arange(k)
    index = {r: i for i, r in enumerate(classes)}
    codes = []
    for ranks in tabs.keys:
        v = np.zeros(k, int)
        for r in ranks:
            v[index[r]] += 1
        codes.append(int(v @ radix))
    order = np.argsort(codes)
    draws = [np.zeros((1, k), int)]
    for d in range(1, 5):
        draws.append(np.array([x for x in product(*[range(min(d, caps_d[r]) + 1) for r in classes]) if sum(x) == d]))
    comb = np.array([[math.comb(a, v) for v in range(5)] for a in range(9)])
    return _DrawTables(
        classes, np.array([caps_d[r] for r in classes]), np.array(codes)[order], order, tuple(draws), radix, comb
    )


#: The seed of the hand values behind every discard choice: one table per deck, position and n, whatever the
#: bot's own seed (which varies its estimates only), so a process builds it once.
VALUE_SEED = 0

_KEEP_CACHE: dict[tuple[Any, ...], tuple[float, dict[tuple[int, ...], float]]] = {}


def keep_values(cards: Sequence[Card], pos: int, rules: Rules, n: int = 1000) -> tuple[float, dict[tuple[int, ...], float]]:
    """``(value of the hand as it is, {effective ranks kept: value after that discard})``, in the stones the
    team expects en paso (RULES.md §3, §7), for a hand at ``pos`` (0 mano .. 3 postre), 8 or 4 reyes.

    Every way of keeping 0 to 3 cards is weighed over every multiset of replacements, each with its exact
    probability of being drawn from the 36 unseen cards; each hand's value is sampled over ``n`` random
    deals (one table per deck, position and n, seed :data:`VALUE_SEED`: a sampling error of about
    0.05 stone). The keys are the ranks kept, high to low.
    """
    eff = tuple(sorted(effective_ranks(cards, rules), reverse=True))
    key = (rules, eff, pos, n)
    hit = _KEEP_CACHE.get(key)
    if hit is not None:
        return hit
    dt = _draw_tables(rules.kings)
    values = _value_vector(rules, pos, n, VALUE_SEED)
    index = {r: i for i, r in enumerate(dt.classes)}
    hand = np.zeros(len(dt.classes), int)
    for r in eff:
        hand[index[r]] += 1
    pool = dt.caps - hand

    def value_of(counts: np.ndarray) -> np.ndarray:
        pos_ = np.searchsorted(dt.codes, counts @ dt.radix)
        got: np.ndarray = values[dt.ms_of_code[np.minimum(pos_, len(dt.codes) - 1)]]
        return got

    current = float(value_of(hand[None])[0])
    by_keep: dict[tuple[int, ...], float] = {}
    for k in (3, 2, 1, 0):
        for keep in combinations(eff, k):
            if keep in by_keep:
                continue
            kv = np.zeros(len(dt.classes), int)
            for r in keep:
                kv[index[r]] += 1
            x = dt.draws[4 - k]
            ways = np.prod(dt.comb[pool[None, :], x], axis=1)
            ok = ways > 0
            by_keep[keep] = float((ways[ok] * value_of(kv + x[ok])).sum() / ways.sum())
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
