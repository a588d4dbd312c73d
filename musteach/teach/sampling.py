"""Deals and hands drawn for lance questions: plain random draws, and instructive ones planted so that a
question shows a given :class:`~musteach.teach.skills.Kind` (a tie to mano, 3s as kings...; RULES.md §4, §5).
Fast paths work on card indexes 0..39, as in :data:`~musteach.rules.cards.DECK`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..i18n import Text
from ..rules.cards import DECK, Card, Hand
from ..rules.lances import (
    DealResult,
    Lance,
    analyse,
    effective_rank,
    evaluate,
    hand_key_table,
    point_value,
    speaking_order,
)
from ..rules.options import Rules
from .errors import QuizError
from .skills import Kind, Skill

__all__ = ["fits_kind", "hand_test", "sample_cards", "sample_deal", "sample_hand"]


_MAX_DEAL_TRIES = 6000  # rejection sampling bound per question (each try costs a few microseconds)
_MAX_HAND_TRIES = 3000

# ----------------------------------------------------------------------------------------------
# Sampling (fast paths over card indexes, 0..39 as in DECK)
# ----------------------------------------------------------------------------------------------

_IDX = tuple(range(40))
_LI = {Lance.GRANDE: 0, Lance.CHICA: 1, Lance.PARES: 2, Lance.JUEGO: 3, Lance.PUNTO: 4}


def _keys(idx: Sequence[int], kings: int) -> list[tuple[int, int, int, int, int]]:
    weights, table = hand_key_table(kings)
    return [
        table[weights[idx[i]] + weights[idx[i + 1]] + weights[idx[i + 2]] + weights[idx[i + 3]]] for i in (0, 4, 8, 12)
    ]


def _fast_lance(keys: Sequence[tuple[int, ...]], order: Sequence[int], li: int) -> tuple[int | None, bool]:
    """(winner, tie) of one lance from integer keys; punto (li 4) gives (None, False) if anyone has juego."""
    if li == 4 and any(k[3] for k in keys):
        return None, False
    vals = [keys[s][li] for s in order]
    best = max(vals)
    if best == 0:
        return None, False
    return order[vals.index(best)], vals.count(best) > 1


def _deal_from(idx: Sequence[int]) -> tuple[Hand, Hand, Hand, Hand]:
    return tuple(Hand([DECK[i] for i in idx[4 * s : 4 * s + 4]]) for s in range(4))  # type: ignore[return-value]


def _seat_has_rank(idx: Sequence[int], seat: int, rank: int) -> bool:
    return any(DECK[i].rank == rank for i in idx[4 * seat : 4 * seat + 4])


def _fast_test(skill: Skill, kind: Kind, kings: int) -> Callable[[list[int], int], bool]:
    """A cheap predicate on (card indexes, mano) for rejection sampling; the result is re-checked by evaluate()."""
    lance = skill.lance
    assert lance is not None
    li = _LI[lance]

    def test(idx: list[int], mano: int) -> bool:
        keys = _keys(idx, kings)
        order = speaking_order(mano)
        winner, tie = _fast_lance(keys, order, li)
        if li == 4 and any(k[3] for k in keys):
            return False  # punto questions need a deal where nobody has juego
        if kind is Kind.UNIFORM:
            return True
        if kind is Kind.TIE_TO_MANO:
            return tie
        if kind is Kind.NOBODY:
            return winner is None
        if kind in (Kind.THREES_AS_KINGS, Kind.TWOS_AS_ACES):
            w4, _ = _fast_lance(_keys(idx, 4), order, li)
            rank = 3 if kind is Kind.THREES_AS_KINGS else 2
            return winner is not None and w4 != winner and _seat_has_rank(idx, winner, rank)
        if kind is Kind.DUPLES_VS_MEDIAS:
            cats = [k[2] >> 8 for k in keys]  # pares key = (category * 16 + high) * 16 + low
            return 3 in cats and 2 in cats
        if kind is Kind.THIRTY_ONE_VS_FORTY:
            totals = [k[4] for k in keys]
            return 31 in totals and 40 in totals
        raise QuizError(Text("kind {kind} does not apply to {skill}", kind=repr(kind.value), skill=skill.value))

    return test


def fits_kind(skill: Skill, kind: Kind, result: DealResult) -> bool:
    """The property checked on the real evaluator's result (also what the tests re-check)."""
    lance = skill.lance
    assert lance is not None
    lr = result[lance]
    if lance is Lance.PUNTO and any(i.is_juego for i in result.infos):
        return False
    if kind is Kind.UNIFORM:
        return True
    if kind is Kind.TIE_TO_MANO:
        return lr.tie_to_mano
    if kind is Kind.NOBODY:
        return lr.winner is None
    if kind in (Kind.THREES_AS_KINGS, Kind.TWOS_AS_ACES):
        other = evaluate(result.hands, result.mano, result.rules.replace(kings=4))[lance]
        rank = 3 if kind is Kind.THREES_AS_KINGS else 2
        w = lr.winner
        return w is not None and other.winner != w and any(c.rank == rank for c in result.hands[w])
    if kind is Kind.DUPLES_VS_MEDIAS:
        cats = [i.pares.kind if i.pares else None for i in result.infos]
        return "duples" in cats and "medias" in cats
    if kind is Kind.THIRTY_ONE_VS_FORTY:
        totals = [i.total for i in result.infos]
        return 31 in totals and 40 in totals
    return False


def _plant(skill: Skill, kind: Kind, rng: random.Random, kings: int) -> list[int] | None:
    """A deal (16 card indexes) built around the kind's rare property, or None if this shuffle cannot.

    Used where plain rejection is slow: equal hands in Grande/Chica, duples against medias, 31 against 40.
    The result still goes through the same fast and final tests as a random deal.
    """
    deck = list(_IDX)
    rng.shuffle(deck)
    eff = [effective_rank(DECK[i].rank, kings) for i in range(40)]
    if kind is Kind.TIE_TO_MANO:
        hands = _twin_hands(deck, eff)
    elif kind is Kind.DUPLES_VS_MEDIAS:
        hands = _duples_and_medias(deck, eff)
    elif kind is Kind.THIRTY_ONE_VS_FORTY:
        hands = _thirty_one_and_forty(deck, rng, kings)
    else:
        return None
    if hands is None:
        return None
    for h in hands:
        rng.shuffle(h)
    rng.shuffle(hands)
    return [i for h in hands for i in h]


def _twin_hands(deck: list[int], eff: list[int]) -> list[list[int]] | None:
    """Four hands from a shuffled deck, the second of the very same effective ranks as the first (other suits)."""
    first, twin, rest = deck[:4], [], []
    need: dict[int, int] = {}
    for i in first:
        need[eff[i]] = need.get(eff[i], 0) + 1
    for i in deck[4:]:
        if need.get(eff[i], 0):
            need[eff[i]] -= 1
            twin.append(i)
        else:
            rest.append(i)
    if len(twin) < 4:
        return None
    return [first, twin, rest[:4], rest[4:8]]


def _duples_and_medias(deck: list[int], eff: list[int]) -> list[list[int]] | None:
    """Four hands from a shuffled deck: medias of the first card's rank, then duples of two other ranks."""
    m = eff[deck[0]]
    trio = [i for i in deck if eff[i] == m][:3]
    left = [i for i in deck if i not in trio]
    odd = next(i for i in left if eff[i] != m)
    left.remove(odd)
    seen: dict[int, list[int]] = {}
    for i in left:
        seen.setdefault(eff[i], []).append(i)
    pairs = [cards[:2] for r, cards in seen.items() if len(cards) >= 2][:2]
    if len(pairs) < 2:
        return None
    duples = pairs[0] + pairs[1]
    rest = [i for i in left if i not in duples]
    return [[*trio, odd], duples, rest[:4], rest[4:8]]


def _thirty_one_and_forty(deck: list[int], rng: random.Random, kings: int) -> list[list[int]] | None:
    """Four hands from a shuffled deck: four figures (40), then a hand of 31 found in up to 200 draws."""
    points = [point_value(DECK[i].rank, kings) for i in range(40)]
    forty = [i for i in deck if points[i] == 10][:4]
    left = [i for i in deck if i not in forty]
    for _ in range(200):
        hand = rng.sample(left, 4)
        if sum(points[i] for i in hand) == 31:
            break
    else:
        return None
    rest = [i for i in left if i not in hand]
    return [forty, hand, rest[:4], rest[4:8]]


_PLANTED = {
    (Skill.GRANDE, Kind.TIE_TO_MANO),
    (Skill.CHICA, Kind.TIE_TO_MANO),
    (Skill.PARES, Kind.DUPLES_VS_MEDIAS),
    (Skill.JUEGO, Kind.THIRTY_ONE_VS_FORTY),
}


def sample_deal(skill: Skill, kind: Kind, rng: random.Random, rules: Rules) -> tuple[DealResult, Kind]:
    test = _fast_test(skill, kind, rules.kings)
    planted = (skill, kind) in _PLANTED
    for _ in range(_MAX_DEAL_TRIES):
        idx = _plant(skill, kind, rng, rules.kings) if planted else rng.sample(_IDX, 16)
        if idx is None:
            continue
        mano = rng.randrange(4)
        if test(idx, mano):
            result = evaluate(_deal_from(idx), mano, rules)
            if fits_kind(skill, kind, result):
                return result, kind
    if kind is Kind.UNIFORM:  # pragma: no cover - punto without juego is ~25% of deals
        raise QuizError(Text("could not find a deal for {skill}", skill=skill.value))
    return sample_deal(skill, Kind.UNIFORM, rng, rules)


def hand_test(skill: Skill, kind: Kind, rules: Rules) -> Callable[[Hand], bool]:
    def test(hand: Hand) -> bool:
        info = analyse(hand, rules)
        if skill is Skill.PUNTO_TOTAL and info.is_juego:
            return False
        if kind is Kind.UNIFORM:
            return True
        if kind is Kind.THREES_AS_KINGS:
            if skill is Skill.JUGADA:
                return info.pares != analyse(hand, rules.replace(kings=4)).pares
            return any(c.rank in (2, 3) for c in hand)
        if kind is Kind.DUPLES_VS_MEDIAS:
            return info.pares is not None and info.pares.kind in ("medias", "duples")
        if kind is Kind.NEAR_31:
            return 29 <= info.total <= 33
        raise QuizError(Text("kind {kind} does not apply to {skill}", kind=repr(kind.value), skill=skill.value))

    return test


def sample_hand(skill: Skill, kind: Kind, rng: random.Random, rules: Rules) -> tuple[Hand, Kind]:
    if kind is Kind.DUPLES_VS_MEDIAS and rng.random() < 0.3:
        # four of a kind is rare at random: build it (four cards of one effective rank), then shuffle it
        eff = rng.choice(sorted({effective_rank(c.rank, rules.kings) for c in DECK}))
        pool = [c for c in DECK if effective_rank(c.rank, rules.kings) == eff]
        cards = rng.sample(pool, 4)
        return Hand(cards), kind
    test = hand_test(skill, kind, rules)
    for _ in range(_MAX_HAND_TRIES):
        hand = Hand([DECK[i] for i in rng.sample(_IDX, 4)])
        if test(hand):
            return hand, kind
    if kind is Kind.UNIFORM:  # pragma: no cover
        raise QuizError(Text("could not find a hand for {skill}", skill=skill.value))
    return sample_hand(skill, Kind.UNIFORM, rng, rules)


def sample_cards(kind: Kind, rng: random.Random, rules: Rules) -> tuple[tuple[Card, ...], Kind]:
    n = rng.choice((4, 5))
    for _ in range(_MAX_HAND_TRIES):
        cards = tuple(DECK[i] for i in rng.sample(_IDX, n))
        if kind is Kind.UNIFORM:
            return cards, kind
        ranks = {c.rank for c in cards}
        if (3 in ranks and ranks & {12, 11}) or (2 in ranks and ranks & {1, 4}):
            return cards, kind
    return sample_cards(Kind.UNIFORM, rng, rules)  # pragma: no cover
