"""Batched judging with numpy: the winners of every lance for millions of deals at once.

This is the engine behind odds, bots and question generation. It gives exactly the answers of
:func:`musteach.rules.lances.evaluate` (RULES.md §1, §2, §5); :func:`explain_batch` gives its sentences too,
word for word, each distinct one built once (``musteach judge --explain``).

Deals are integer arrays of card indexes (:attr:`Card.index <musteach.rules.cards.Card.index>`, 0..39):
``hands[n, seat, k]`` is the k-th card of ``seat`` in deal ``n``, so one deal is a (4, 4) array and
N deals a (N, 4, 4) array.

>>> import numpy as np
>>> hands = deals_to_array([[["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"],
...                          ["1o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"]]])
>>> hands.shape, hands.dtype
((1, 4, 4), dtype('uint8'))
>>> res = evaluate_batch(hands, mano=0)
>>> {lance: int(w[0]) for lance, w in res.items()}
{'grande': 0, 'chica': 2, 'pares': 0, 'juego': 0, 'punto': -1}
>>> deals = random_deals(100_000, seed=7)
>>> manos = np.random.default_rng(7).integers(0, 4, len(deals))
>>> w = evaluate_batch(deals, manos)
>>> w["grande"].shape, w["grande"].dtype
((100000,), dtype('int8'))
>>> bool(((w["punto"] == -1) == (w["juego"] >= 0)).all())
True

How it works: a card's rank position is ``index >> 2`` (the deck is rank-major), so an ordered hand
is one of 10**4 rank tuples. A table built once per rules gives, for every such tuple and every lance,
the hand's rank among all distinct keys of that lance (0 = takes no part), times 4. Adding
``3 - distance from mano`` makes every seat's value distinct, so the largest value of the four
seats is the winner, with exact ties already given to the seat nearer mano (RULES.md §2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..i18n import Text
from ..lazy import lazy_module
from .cards import DECK, RANKS, Card, Hand, Suit, parse_hands
from .errors import DuplicateCardError, HandSizeError, MusError, RulesError, SeatError, UnknownCardError, shown
from .lance_words import LanceWords, lance_words
from .lances import (
    LANCES,
    HandInfo,
    Lance,
    analyse,
    check_seat,
    info_from_ranks,
)
from .options import Rules
from .standings import standing_keys

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_module("numpy")  # imported on first use: a page that never counts in bulk stays light

__all__ = [
    "BATCH_LANCES",
    "array_to_codes",
    "check_batch",
    "deal_to_array",
    "deals_to_array",
    "evaluate_batch",
    "explain_batch",
    "explanation_table",
    "random_deals",
]

#: The keys of :func:`evaluate_batch`'s result, in lance order.
BATCH_LANCES: tuple[str, ...] = tuple(lance.value for lance in LANCES)

_CHUNK = 1 << 15  # deals per step: keeps every intermediate array in the CPU cache
_SOTA_DE_OROS = Card(10, Suit.OROS).index
_DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class _Tables:
    """Lookup tables for one set of rules (see the module docstring)."""

    pair_hi: np.ndarray  # (65536,) int16: two cards a | b << 8 -> (rank(a) * 10 + rank(b)) * 100
    pair_lo: np.ndarray  # (65536,) int16: two cards a | b << 8 -> rank(a) * 10 + rank(b)
    keys: tuple[np.ndarray, ...]  # per lance, (10000,) dense key * 4; 0 = takes no part
    la_real_777s: np.ndarray | None  # (10000,) bool: raw ranks 7-7-7-sota (sota de oros variant only)
    la_real_key: int  # dense juego key * 4 of la real (sota de oros variant only)


@lru_cache(maxsize=16)
def _tables(rules: Rules) -> _Tables:
    # the keys of every rank tuple (musteach.rules.standings, shipped for the usual rules)
    standings = standing_keys(rules)
    keys = tuple(col.astype(np.uint8 if col.max() + 3 <= 255 else np.int16) for col in standings[:5])
    positions = np.indices((10, 10, 10, 10), dtype=np.int8).reshape(4, -1).T  # (10000, 4) rank positions
    sevens_sota = np.sort(positions, axis=1) == np.array([RANKS.index(7)] * 3 + [RANKS.index(10)], dtype=np.int8)
    is_777s = sevens_sota.all(axis=1)
    pair_hi, pair_lo = _pair_tables()
    use_777s = rules.la_real and rules.la_real_figure == "sota_de_oros"
    return _Tables(pair_hi, pair_lo, keys, is_777s if use_777s else None, int(standings[5, 0]))


@lru_cache(maxsize=1)
def _pair_tables() -> tuple[np.ndarray, np.ndarray]:
    """``(pair_hi, pair_lo)`` of :class:`_Tables`: two cards ``a | b << 8`` -> their rank positions as two digits."""
    a, b = np.arange(1 << 16) & 0xFF, np.arange(1 << 16) >> 8  # the two cards of a pair a | b << 8
    pair_lo = np.where((a < 40) & (b < 40), (a >> 2) * 10 + (b >> 2), 0).astype(np.int16)
    return pair_lo * np.int16(100), pair_lo


def _as_rules(rules: Rules | None) -> Rules:
    if rules is None:
        return _DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise RulesError(Text("rules must be a musteach Rules, not {value}", value=repr(rules)))
    return rules


def _as_hands(hands: object) -> np.ndarray:
    try:
        arr = np.asarray(hands)
    except ValueError:  # ragged nesting
        raise HandSizeError(Text("hands must have shape (N, 4, 4): N deals of 4 hands of 4 card indexes")) from None
    if arr.ndim == 2 and arr.shape == (4, 4):
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[1:] != (4, 4):
        raise HandSizeError(
            Text("hands must have shape (N, 4, 4): N deals of 4 hands of 4 card indexes, not {shape}", shape=arr.shape)
        )
    if arr.dtype != np.uint8 and not np.issubdtype(arr.dtype, np.integer):
        raise UnknownCardError(Text("card indexes must be integers 0..39, not {dtype} values", dtype=arr.dtype))
    return arr


def _as_manos(mano: object, n: int) -> np.ndarray:
    arr = np.asarray(mano)
    if arr.ndim == 0:
        m = mano.item() if isinstance(mano, np.generic) else mano
        return np.full(n, check_seat(m, "mano"), dtype=np.int8)
    if arr.shape != (n,):
        raise SeatError(
            Text(
                "mano must be one seat 0..3 or an array of {n} seats, one per deal, not shape {shape}", n=n, shape=arr.shape
            )
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise SeatError(Text("mano must hold seats 0, 1, 2 or 3, not {dtype} values", dtype=arr.dtype))
    bad = np.flatnonzero((arr < 0) | (arr > 3))
    if bad.size:
        i = int(bad[0])
        raise SeatError(
            Text("deal at index {index}: mano must be a seat 0, 1, 2 or 3, not {value}", index=i, value=shown(arr[i].item()))
        )
    return arr.astype(np.int8)


def _deal_error(arr: np.ndarray, i: int) -> None:
    """Raise the one-deal error of deal ``i`` (bad index or a card dealt twice), prefixed by its index."""
    for seat in range(4):
        for k in range(4):
            v = int(arr[i, seat, k])
            if not 0 <= v < 40:
                raise UnknownCardError(
                    Text(
                        "deal at index {index}, seat {seat}: unknown card index {card}: expected 0..39",
                        index=i, seat=seat, card=v,
                    )
                )
    try:
        parse_hands([[DECK[int(v)] for v in hand] for hand in arr[i]])
    except (DuplicateCardError, HandSizeError, UnknownCardError) as e:
        raise type(e)(Text("deal at index {index}: {reason}", index=i, reason=e.reason)) from None


@lru_cache(maxsize=1)
def _pair_masks() -> np.ndarray:
    """(65536,) uint64: two cards ``a | b << 8`` -> the bits 1 << a | 1 << b; bit 62 when a == b or a card > 39."""
    a = np.arange(1 << 16) & 0xFF
    b = np.arange(1 << 16) >> 8
    ok = (a < 40) & (b < 40) & (a != b)
    one = np.uint64(1)
    masks: np.ndarray = np.left_shift(one, np.minimum(a, 39).astype(np.uint64)) | np.left_shift(
        one, np.minimum(b, 39).astype(np.uint64)
    )
    masks[~ok] = one << np.uint64(62)
    return masks



def _first_bad(u_t: np.ndarray) -> int:
    """Index of the first deal in a chunk with a card twice or a card > 39, else -1.

    u_t: (8, c) uint16, the 8 card pairs of each of c deals. The 16 cards are all different and in the
    deck exactly when the sum of the 8 pair masks equals their OR and stays below bit 40.
    """
    g = _pair_masks()[u_t]  # fancy indexing: np.take is several times slower on 8-byte items
    total = g[0].copy()
    union = g[0].copy()
    for k in range(1, 8):
        total += g[k]
        union |= g[k]
    bad = np.flatnonzero((total != union) | (union >= np.uint64(1 << 40)))
    return int(bad[0]) if bad.size else -1


def _prepare(hands: object, mano: object) -> tuple[np.ndarray, np.ndarray]:
    """Shape, dtype and mano checks; hands as contiguous uint8 (indexes above 39 not yet checked)."""
    arr = _as_hands(hands)
    manos = _as_manos(mano, arr.shape[0])
    if arr.dtype != np.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 39):
            _deal_error(arr, int(np.flatnonzero(((arr < 0) | (arr > 39)).any(axis=(1, 2)))[0]))
        arr = arr.astype(np.uint8)
    return np.ascontiguousarray(arr), manos


def _pairs_t(arr: np.ndarray, s: int) -> np.ndarray:
    """(8, c) uint16: the card pairs of deals s..s+c (seat k's cards are pairs 2k and 2k+1)."""
    n = arr.shape[0]
    return np.ascontiguousarray(arr[s : s + _CHUNK].reshape(-1, 16).view(np.uint16).T) if n else np.empty((8, 0), np.uint16)


def check_batch(hands: object, mano: object = 0) -> tuple[np.ndarray, np.ndarray]:
    """Check N deals and their manos; return them as a (N, 4, 4) uint8 array and a (N,) int8 array.

    hands: an integer array of shape (N, 4, 4) (or (4, 4) for one deal) of card indexes 0..39.
    mano: one seat 0..3 for every deal, or an integer array of N seats.
    Raises :class:`HandSizeError` (wrong shape), :class:`UnknownCardError` (an index outside 0..39),
    :class:`DuplicateCardError` (a card twice in a deal) or :class:`SeatError` (a bad mano), naming the
    first bad deal by its index in the array and the card or seat.

    >>> check_batch([[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 0]]])
    Traceback (most recent call last):
    ...
    musteach.rules.errors.DuplicateCardError: deal at index 0: card 1o (as de oros) is dealt twice: to seat 0 and seat 3
    """
    arr, manos = _prepare(hands, mano)
    for s in range(0, arr.shape[0], _CHUNK):
        bad = _first_bad(_pairs_t(arr, s))
        if bad >= 0:
            _deal_error(arr, s + bad)
    return arr, manos


def evaluate_batch(
    hands: object,
    mano: object,
    rules: Rules | None = None,
    *,
    validate: bool = True,
) -> dict[str, np.ndarray]:
    """The winner of every lance of N deals (RULES.md §2, §4, §5), the same as :func:`~musteach.rules.lances.evaluate`.

    hands: integer array of shape (N, 4, 4) of card indexes 0..39 (``hands[n, seat]`` is seat's hand in
    deal n); a single (4, 4) deal is taken as N = 1. Contiguous uint8 input is used without a copy.
    mano: the seat 0..3 that speaks first, one for all deals or an array of shape (N,).
    rules: a :class:`~musteach.rules.Rules` (default 8 reyes); kings 8 or 4 and every la real option.
    validate: check shape, indexes, repeated cards and manos (as :func:`check_batch` does). With False,
    bad input gives meaningless winners instead of an error.

    Returns ``{"grande": w, "chica": w, "pares": w, "juego": w, "punto": w}``, each an int8 array of shape
    (N,) of winning seats, with -1 where nobody wins: pares / juego that nobody holds, punto whenever
    somebody has juego. Exact ties go to the seat nearer mano.
    Raises :class:`HandSizeError`, :class:`UnknownCardError`, :class:`DuplicateCardError`,
    :class:`SeatError` or :class:`RulesError`, naming the first bad deal by its index.
    """
    rules = _as_rules(rules)
    if validate:
        arr, manos = _prepare(hands, mano)
    else:
        arr = np.ascontiguousarray(np.asarray(hands), dtype=np.uint8)
        if arr.ndim == 2:
            arr = arr[None]
        manos = np.broadcast_to(np.asarray(mano, dtype=np.int8), arr.shape[:1])
    t = _tables(rules)
    n = arr.shape[0]
    out = np.empty((5, n), dtype=np.int8)
    seats = np.arange(4, dtype=np.int8)[:, None]
    for s in range(0, n, _CHUNK):
        u_t = _pairs_t(arr, s)
        if validate:
            bad = _first_bad(u_t)
            if bad >= 0:
                _deal_error(arr, s + bad)
        m = manos[s : s + _CHUNK]
        hid = np.take(t.pair_hi, u_t[0::2])  # (4, c): each seat's rank tuple id, 0..9999
        hid += np.take(t.pair_lo, u_t[1::2])
        m3 = m + np.int8(3)
        off16 = np.int16(3) - ((seats - m) & 3).astype(np.int16)  # 3 for mano ... 0 for the postre
        off8 = off16.astype(np.uint8)
        for li, table in enumerate(t.keys):
            g = np.take(table, hid)
            if li == 3 and t.la_real_777s is not None:
                real = np.take(t.la_real_777s, hid) & (arr[s : s + _CHUNK] == _SOTA_DE_OROS).any(axis=2).T
                g[real] = t.la_real_key
            g += off8 if g.dtype == np.uint8 else off16
            best = np.maximum(np.maximum(g[0], g[1]), np.maximum(g[2], g[3]))
            w = out[li, s : s + _CHUNK]
            np.subtract(m3, best.astype(np.int8, copy=False), out=w, casting="unsafe")
            w &= 3
            if li >= 2:
                w[best < 4] = -1
    out[4][out[3] >= 0] = -1
    return {name: out[i] for i, name in enumerate(BATCH_LANCES)}


# ----- explanations in bulk -------------------------------------------------------------------------------------
#
# A lance's sentence depends only on a few facts: who won (or that nobody did), whether a tie to mano decided it
# (then which seats tied, and the mano), the winner's standing in the lance, and in a plain win the runner-up
# seat and its standing. Each deal's facts are packed into one integer per lance, and each distinct integer's
# sentence is built once, by :meth:`LanceWords.sentence` on the first deal that has it, so every sentence is word
# for word the one-deal sentence. Grande and Chica have the most distinct sentences (a win names both hands):
# theirs are filled in bulk from the same translated template, cut by :meth:`LanceWords.card_beats`.

_NOBODY, _TIE, _ONLY, _BEATS = range(4)
_CLASSES_PER_KINGS = 2 * 715  # sorted rank tuples (715), with and without the sota de oros


@lru_cache(maxsize=1)
def _sorted_ranks() -> tuple[np.ndarray, np.ndarray]:
    """``(spread, positions)``: (10000,) int16, a rank tuple in card order (four rank positions 0..9, the first
    one most significant) -> the number 0..714 of its sorted tuple; and (715, 4) int8, each sorted tuple."""
    positions = np.indices((10, 10, 10, 10), dtype=np.int8).reshape(4, -1).T
    ordered = np.sort(positions, axis=1)
    sorted_ids = ordered.astype(np.int32) @ np.array([1000, 100, 10, 1], dtype=np.int32)
    _, first, spread = np.unique(sorted_ids, return_index=True, return_inverse=True)
    return spread.reshape(-1).astype(np.int16), ordered[first]


def _hand_classes(arr: np.ndarray, kings: np.ndarray, rules: Rules) -> tuple[np.ndarray, list[HandInfo]]:
    """``(classes, infos)``: (4, N) int the class of each seat's hand, and the :class:`HandInfo` of each class.

    A class is a set of four ranks under one kings setting (and, when la real needs the sota de oros, whether
    it is among the cards): all the hands of a class stand alike in every lance."""
    pair_hi, pair_lo = _pair_tables()
    pairs = arr.reshape(-1, 16).view(np.uint16)  # (N, 8): each seat's two card pairs
    hid = np.take(pair_hi, pairs[:, 0::2]) + np.take(pair_lo, pairs[:, 1::2])  # (N, 4) rank tuples
    ids = np.take(_sorted_ranks()[0], hid)
    if rules.la_real and rules.la_real_figure == "sota_de_oros":
        ids += np.int16(715) * (arr == _SOTA_DE_OROS).any(axis=2)
    ids += np.int16(_CLASSES_PER_KINGS) * (kings == 4).astype(np.int16)[:, None]
    distinct, first, classes = np.unique(ids.reshape(-1), return_index=True, return_inverse=True)
    flat = arr.reshape(-1, 4)
    by_kings = {k: replace(rules, kings=k) for k in (8, 4)}
    positions = _sorted_ranks()[1][distinct % 715].tolist()
    infos = []
    for d, i, pos in zip(distinct.tolist(), first.tolist(), positions, strict=True):
        ranks = [RANKS[p] for p in pos]
        kings_of_class = 4 if d >= _CLASSES_PER_KINGS else 8
        if rules.la_real and ranks.count(7) == 3:  # maybe la real: the cards themselves say
            infos.append(analyse(Hand([DECK[c] for c in flat[i].tolist()]), by_kings[kings_of_class]))
        else:
            infos.append(info_from_ranks(ranks, kings_of_class))
    return np.ascontiguousarray(classes.reshape(-1, 4).T), infos


def _lance_facts(lance: Lance, keys: np.ndarray, manos: np.ndarray, juego: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(facts, case, composite, taking_part, first, second)`` of one lance for N deals.

    keys: (4, N) int32 each seat's dense key in the lance, 0 = takes no part. manos: (N,) seats. juego: (4, N)
    bool, each seat has juego. facts: (N,) int64, equal for two deals exactly when their sentences are equal.
    case: (N,) one of ``_NOBODY, _TIE, _ONLY, _BEATS``. composite: (4, N) ``key * 4 + nearness to mano``
    (3 for mano ... 0 for the postre), all four different: the ranking is the ``taking_part`` seats of largest
    composite, largest first. first, second: (N,) the seats of the two largest composites.
    """
    m = manos.astype(np.int32)
    composite = keys * 4 + (3 - ((np.arange(4, dtype=np.int32)[:, None] - m) & 3))
    c0, c1, c2, c3 = composite
    high01, low01, high23, low23 = np.maximum(c0, c1), np.minimum(c0, c1), np.maximum(c2, c3), np.minimum(c2, c3)
    top = np.maximum(high01, high23)
    runner_up = np.maximum(np.minimum(high01, high23), np.maximum(low01, low23))
    kw, ks = top >> 2, runner_up >> 2
    first = (m + 3 - (top & 3)) & 3  # the seat of a composite: nearness 3 is mano
    second = (m + 3 - (runner_up & 3)) & 3
    taking_part = (keys > 0).sum(axis=0)
    if lance is Lance.PUNTO:
        taking_part[juego.any(axis=0)] = 0
    case = np.full(len(m), _BEATS, np.int64)
    case[taking_part == 1] = _ONLY
    case[(taking_part > 1) & (ks == kw)] = _TIE
    case[taking_part == 0] = _NOBODY
    tie, nobody = case == _TIE, case == _NOBODY
    # the fields each case's sentence reads; the others are 0 (a tie reads whether the winner is mano)
    w = first * ~nobody
    # a Grande, Chica or Punto sentence does not name the runner-up seat
    s = second * (case == _BEATS) if lance in (Lance.PARES, Lance.JUEGO) else 0
    bit = np.array([1, 2, 4, 8], np.int32)[:, None]
    bits = (((keys == kw) & (keys > 0)) * bit).sum(axis=0) * tie
    mano = ((first == m) & tie).astype(np.int32)
    if lance is Lance.PUNTO:  # nobody: the seats with juego, in speaking order from mano
        juego_seats = juego.sum(axis=0) * nobody
        bits += (juego * bit).sum(axis=0) * nobody
        mano += m * (juego_seats > 1)  # two seats or more are named in speaking order
    k1 = kw * ~nobody
    k2 = ks * (case == _BEATS)
    facts = case + 4 * (w + 4 * (s + 4 * (mano + 4 * (bits + 16 * (k1 + 4096 * k2.astype(np.int64))))))
    return facts, case, composite, taking_part, first, second


def explain_batch(
    hands: object, mano: object, rules: Rules | None = None, *, kings: object = None, lang: str | None = None
) -> dict[str, list[str]]:
    """The sentence of every lance of N deals, word for word those of :func:`~musteach.rules.lances.evaluate`
    (:attr:`LanceResult.explanation`; RULES.md §2, §4, §5), built once per distinct sentence.

    hands: integer array of shape (N, 4, 4) of card indexes 0..39, checked as :func:`evaluate_batch` checks
    them. mano: one seat 0..3 or an array of N seats. rules: a :class:`~musteach.rules.Rules` (default 8 reyes);
    kings: None for ``rules.kings``, or an (N,) array of 8 or 4 for each deal's own kings.
    lang: the language of the sentences (a code such as ``"es"``; None: the language being spoken).
    Returns ``{"grande": [N sentences], "chica": ..., "pares": ..., "juego": ..., "punto": ...}``.
    Raises what :func:`check_batch` raises, :class:`RulesError` for kings other than 8 or 4, or
    :class:`~musteach.rules.errors.LanguageError` for a language with no catalog.

    >>> explain_batch(deals_to_array([[["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"],
    ...                                ["1o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"]]]), 0)["grande"]
    ['Seat 0 wins Grande: R-R-7-5 beats R-C-C-4 on the second card.']
    """
    table = explanation_table(hands, mano, rules, kings=kings, lang=lang)
    return {lance: np.array(said, dtype=object)[which].tolist() for lance, (said, which) in table.items()}


def explanation_table(
    hands: object, mano: object, rules: Rules | None = None, *, kings: object = None, lang: str | None = None
) -> dict[str, tuple[list[str], np.ndarray]]:
    """:func:`explain_batch` as ``{lance: (sentences, which)}``: the distinct sentences of the lance, and the
    (N,) int array of each deal's sentence among them; for callers that work on each distinct sentence once
    (such as quoting it for JSON). Arguments and errors as :func:`explain_batch`.
    """
    rules = _as_rules(rules)
    words = lance_words(lang)  # the language is checked before any work
    arr, manos = check_batch(hands, mano)
    n = arr.shape[0]
    deal_kings = np.full(n, rules.kings, np.int64) if kings is None else np.asarray(kings, np.int64).reshape(-1)
    if deal_kings.shape != (n,) or not np.isin(deal_kings, (8, 4)).all():
        raise RulesError(Text("kings must be 8 or 4 for each of the {n} deals (RULES.md §13)", n=n))
    classes, infos = _hand_classes(arr, deal_kings, rules)
    juego = np.array([i.is_juego for i in infos], bool)[classes]
    out: dict[str, tuple[list[str], np.ndarray]] = {}
    for lance in LANCES:
        lance_keys = [i.key(lance) for i in infos]
        dense = {k: d for d, k in enumerate(sorted(set(lance_keys) - {()}), 1)}
        keys = np.array([dense.get(k, 0) for k in lance_keys], np.int32)[classes]
        facts, *arrays = _lance_facts(lance, keys, manos, juego)
        distinct, which = np.unique(facts, return_inverse=True)
        which = which.reshape(-1)
        chosen = np.empty(len(distinct), np.intp)
        chosen[which] = np.arange(n)  # a deal of each distinct sentence (any one: they all say the same)
        out[lance.value] = (_sentences(lance, words, infos, chosen, (classes, *arrays, manos)), which)
    return out


def _sentences(
    lance: Lance, words: LanceWords, infos: list[HandInfo], deals: np.ndarray, arrays: tuple[np.ndarray, ...]
) -> list[str]:
    """The sentence of ``lance`` in each of ``deals`` (indexes), in the language of ``words``.

    arrays: ``(classes, case, composite, taking_part, first, second, manos)`` of every deal (see
    :func:`_lance_facts`)."""
    classes, case, composite, taking_part, first, second, manos = (np.take(a, deals, axis=-1) for a in arrays)
    classes, composite = classes.T, composite.T
    said = np.empty(len(deals), dtype=object)
    rest = np.arange(len(deals))
    if lance is Lance.GRANDE or lance is Lance.CHICA:
        beats = case == _BEATS
        _card_beats(lance, words, infos, classes[beats], first[beats], second[beats], said, np.flatnonzero(beats))
        rest = np.flatnonzero(~beats)
    for j, seat_classes, kind, comp, count, mano in zip(
        rest.tolist(),
        classes[rest].tolist(),
        case[rest].tolist(),
        composite[rest].tolist(),
        taking_part[rest].tolist(),
        manos[rest].tolist(),
        strict=True,
    ):
        ranking = tuple(sorted(range(4), key=comp.__getitem__, reverse=True)[:count])
        c0, c1, c2, c3 = seat_classes
        said[j] = words.sentence(
            lance,
            ranking[0] if ranking else None,
            ranking,
            kind == _TIE,
            mano,
            (infos[c0], infos[c1], infos[c2], infos[c3]),
        )
    sentences: list[str] = said.tolist()
    return sentences


def _card_beats(
    lance: Lance,
    words: LanceWords,
    infos: list[HandInfo],
    classes: np.ndarray,
    winners: np.ndarray,
    others: np.ndarray,
    said: np.ndarray,
    where: np.ndarray,
) -> None:
    """Fill ``said[where]`` with the Grande or Chica sentences of plain wins (no tie): ``classes`` (K, 4) the
    hands' classes, ``winners`` and ``others`` (K,) the winning and the runner-up seat of each.

    The sentences are those of :meth:`LanceWords.sentence`, from the same templates cut by
    :meth:`LanceWords.card_beats` and filled in bulk."""
    if not len(where):
        return
    grande = lance is Lance.GRANDE
    ranks = np.array([i.ranks if grande else i.ranks[::-1] for i in infos], np.int8)  # in the lance's order
    texts = np.array([i.grande_str if grande else i.chica_str for i in infos], dtype=object)
    rows = np.arange(len(where))
    win, lose = classes[rows, winners], classes[rows, others]
    card = (ranks[win] != ranks[lose]).argmax(axis=1)  # the first card that differs decides
    shape = card * 4 + winners
    order = np.argsort(shape, kind="stable")
    shapes, starts = np.unique(shape[order], return_index=True)
    for value, chosen in zip(shapes.tolist(), np.split(order, starts[1:]), strict=True):
        parts = words.card_beats(lance, value // 4, value % 4)
        columns = {"win": texts[win[chosen]].tolist(), "lose": texts[lose[chosen]].tolist()}
        said[where[chosen]] = parts.fill_columns(columns, len(chosen))


def random_deals(n: int, seed: int | np.random.Generator | None = None) -> np.ndarray:
    """``n`` random deals from fresh 40-card decks, as a (n, 4, 4) uint8 array of card indexes.

    seed: an int (the same seed always gives the same deals), a :class:`numpy.random.Generator`, or None.
    Each deal holds 16 different cards (a partial Fisher-Yates shuffle per deal; RULES.md §3).

    >>> d = random_deals(3, seed=1)
    >>> d.shape, bool((d == random_deals(3, seed=1)).all())
    ((3, 4, 4), True)
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise MusError(Text("n must be a whole number of deals >= 0, not {value}", value=repr(n)))
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n = int(n)
    out = np.empty((n, 16), dtype=np.uint8)
    deck = np.arange(40, dtype=np.uint8)
    for s in range(0, n, _CHUNK):
        c = min(_CHUNK, n - s)
        d = np.tile(deck, (c, 1))
        flat = d.reshape(-1)
        base = np.arange(c, dtype=np.intp) * 40
        for i in range(16):
            j = base + rng.integers(i, 40, size=c)
            picked = flat[j]
            flat[j] = d[:, i]
            d[:, i] = picked
        out[s : s + c] = d[:, :16]
    return out.reshape(n, 4, 4)


def deal_to_array(hands: Sequence[Hand | str | Sequence[Card | str]]) -> np.ndarray:
    """One deal (4 hands of 4 cards, indexed by seat; codes, names or cards) as a (4, 4) uint8 array.

    Raises what :func:`~musteach.rules.cards.parse_hands` raises for a bad deal.

    >>> deal_to_array([["1o", "1c", "1e", "1b"], ["2o", "2c", "2e", "2b"], ["Ro", "Rc", "Re", "Rb"], "7o 7c 7e 7b"])[2]
    array([36, 37, 38, 39], dtype=uint8)
    """
    hs = parse_hands(hands)
    return np.array([[c.index for c in h] for h in hs], dtype=np.uint8)


def deals_to_array(deals: Sequence[Sequence[Hand | str | Sequence[Card | str]]]) -> np.ndarray:
    """Many deals (each 4 hands of 4 cards) as a (N, 4, 4) uint8 array; errors name the deal's index."""
    out = np.empty((len(deals), 4, 4), dtype=np.uint8)
    for i, d in enumerate(deals):
        try:
            out[i] = deal_to_array(d)
        except (DuplicateCardError, HandSizeError, UnknownCardError) as e:
            raise type(e)(Text("deal at index {index}: {reason}", index=i, reason=e.reason)) from None
    return out


def array_to_codes(hands: object) -> list[Any]:
    """Card codes of a (4, 4) deal or a (N, 4, 4) batch, as nested lists (``[["12o", ...], ...]``).

    >>> array_to_codes([[0, 1, 38, 39]])
    [['1o', '1c', '12e', '12b']]
    """
    arr = np.asarray(hands)
    if arr.ndim < 1 or arr.shape[-1] != 4 or not np.issubdtype(arr.dtype, np.integer):
        raise HandSizeError(Text("expected hands of 4 card indexes, not an array of shape {shape}", shape=arr.shape))
    if arr.size and (arr.min() < 0 or arr.max() > 39):
        bad = int(arr.max() if arr.max() > 39 else arr.min())
        raise UnknownCardError(Text("unknown card index {index}: expected 0..39", index=repr(bad)))
    codes = np.array([c.code for c in DECK], dtype=object)
    nested: list[Any] = codes[arr].tolist()
    return nested
