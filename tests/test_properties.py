"""Properties of the evaluator that hold for every deal (hypothesis).

RULES.md §0 (suits never matter), §1 (in 8 reyes a 3 is a king and a 2 an ace), §2 (ties go to the seat
nearer mano; seats are only relative to mano), §5 (each lance is a total order of hands).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from musteach import DECK, RANKS, Lance, Rules, analyse, evaluate, speaking_order

RULES = {8: Rules(), 4: Rules(kings=4)}
kings_st = st.sampled_from([8, 4])
manos = st.integers(0, 3)


def _split(cards):
    return [list(cards[k : k + 4]) for k in (0, 4, 8, 12)]


full_deals = st.permutations(range(40)).map(lambda p: _split(p[:16]))


@st.composite
def thin_deals(draw):
    """Deals from a deck thinned to 4-6 ranks: pares, duples, ties and equal totals are common."""
    ranks = draw(st.sets(st.integers(0, 9), min_size=4, max_size=6))
    cards = [r * 4 + s for r in sorted(ranks) for s in range(4)]
    return _split(draw(st.permutations(cards))[:16])


deals = st.one_of(full_deals, thin_deals())


def judge(hands, mano, rules):
    """All five winners, as a tuple in lance order."""
    return tuple(evaluate([[DECK[i] for i in h] for h in hands], mano, rules).winners().values())


def remap(hands, mapping):
    return [[mapping[i] for i in h] for h in hands]


# ----- suits never matter ---------------------------------------------------------------------------------------


@given(deals, manos, kings_st, st.lists(st.permutations(range(4)), min_size=10, max_size=10), st.data())
def test_suits_never_matter(hands, mano, kings, suit_perms, data):
    """Changing the suits (one suit permutation per rank keeps the deal valid) changes nothing."""
    rules = data.draw(st.sampled_from([RULES[kings], Rules(kings=kings, la_real=True)]))
    mapping = [(i >> 2) * 4 + suit_perms[i >> 2][i & 3] for i in range(40)]
    before = evaluate([[DECK[i] for i in h] for h in hands], mano, rules)
    after = evaluate([[DECK[i] for i in h] for h in remap(hands, mapping)], mano, rules)
    assert after.winners() == before.winners()
    assert after.explanations() == before.explanations()  # the reasons name ranks, never suits


@given(deals, manos, kings_st, st.data())
def test_card_order_in_a_hand_never_matters(hands, mano, kings, data):
    shuffled = [data.draw(st.permutations(h)) for h in hands]
    assert judge(shuffled, mano, RULES[kings]) == judge(hands, mano, RULES[kings])


# ----- 8 reyes: a 3 is a king, a 2 an ace -------------------------------------------------------------------------

# rank positions in the deck (card index >> 2)
_ACE, _TWO, _THREE, _KING = (RANKS.index(r) for r in (1, 2, 3, 12))


def _swap(swap_kings: bool, swap_aces: bool) -> list[int]:
    """Card index mapping exchanging every 3 with the king of its suit and/or every 2 with the ace."""
    m = list(range(40))
    for s in range(4):
        if swap_kings:
            m[_THREE * 4 + s], m[_KING * 4 + s] = _KING * 4 + s, _THREE * 4 + s
        if swap_aces:
            m[_TWO * 4 + s], m[_ACE * 4 + s] = _ACE * 4 + s, _TWO * 4 + s
    return m


def test_swap_mapping_is_what_it_says():
    m = _swap(True, True)
    assert [DECK[m[c.index]].code for c in DECK if c.rank in (1, 2, 3, 12)] == [
        "2o", "2c", "2e", "2b", "1o", "1c", "1e", "1b", "12o", "12c", "12e", "12b", "3o", "3c", "3e", "3b",
    ]  # fmt: skip


@given(deals, manos, st.booleans(), st.booleans())
def test_8_reyes_three_is_king_and_two_is_ace(hands, mano, swap_kings, swap_aces):
    swapped = remap(hands, _swap(swap_kings, swap_aces))
    assert judge(swapped, mano, RULES[8]) == judge(hands, mano, RULES[8])


def test_4_reyes_three_is_not_a_king():
    """The same swap changes winners in 4 reyes: a counterexample, and many among random deals."""
    hands = [[8, 12, 16, 20], [37, 13, 17, 21], [0, 4, 24, 28], [1, 5, 25, 29]]  # 3-4-5-6 vs R-4-5-6 ...
    assert [DECK[i].code for i in hands[0]] == ["3o", "4o", "5o", "6o"]
    assert [DECK[i].code for i in hands[1]] == ["12c", "4c", "5c", "6c"]
    swapped = remap(hands, _swap(True, False))  # 3o <-> 12o, 12c <-> 3c
    assert judge(hands, 0, RULES[4])[0] == 1
    assert judge(swapped, 0, RULES[4])[0] == 0
    assert judge(hands, 0, RULES[8])[0] == judge(swapped, 0, RULES[8])[0] == 0  # R-6-5-4 twice: mano
    rng = random.Random(4)
    changed = 0
    for _ in range(300):
        d = _split(rng.sample(range(40), 16))
        mano = rng.randrange(4)
        for sk, sa in ((True, False), (False, True)):
            assert judge(remap(d, _swap(sk, sa)), mano, RULES[8]) == judge(d, mano, RULES[8])
            changed += judge(remap(d, _swap(sk, sa)), mano, RULES[4]) != judge(d, mano, RULES[4])
    assert changed > 30


# ----- seats are relative to mano -------------------------------------------------------------------------------


@given(deals, manos, kings_st, st.integers(1, 3))
def test_rotating_seats_and_mano_rotates_winners(hands, mano, kings, k):
    rotated = [hands[(s - k) % 4] for s in range(4)]  # seat s's hand moves to seat s + k
    before = judge(hands, mano, RULES[kings])
    after = judge(rotated, (mano + k) % 4, RULES[kings])
    assert after == tuple(None if w is None else (w + k) % 4 for w in before)


# ----- the winner is the best key; an exact tie goes to the seat nearer mano -----------------------------------


def _oracle(infos, mano, lance):
    """(winner, tie) straight from RULES.md §2, §4, §5 and HandInfo.key: the best key, first in speaking order."""
    if lance is Lance.PUNTO and any(i.is_juego for i in infos):
        return None, False
    order = speaking_order(mano)
    keys = [infos[s].key(lance) for s in order]
    if not any(keys):
        return None, False
    best = max(keys)
    return order[keys.index(best)], keys.count(best) > 1


@given(deals, manos, kings_st)
def test_winner_is_best_key_and_ties_go_to_mano(hands, mano, kings):
    rules = RULES[kings]
    result = evaluate([[DECK[i] for i in h] for h in hands], mano, rules)
    for lance in Lance:
        winner, tie = _oracle(result.infos, mano, lance)
        got = result[lance]
        assert (got.winner, got.tie_to_mano) == (winner, tie), lance


@st.composite
def twin_deals(draw):
    """Two seats hold exactly equal hands (the same ranks in other suits); the other two seats are random."""
    ranks = draw(st.lists(st.integers(0, 9), min_size=4, max_size=4).filter(lambda r: max(r.count(x) for x in r) <= 2))
    twin_a, twin_b, used = [], [], set()
    for r in ranks:
        k = twin_a.count(r * 4) + twin_a.count(r * 4 + 1)  # suits 0, 1 taken by earlier copies of r in twin a
        a, b = r * 4 + k, r * 4 + 2 + k
        twin_a.append(a)
        twin_b.append(b)
        used |= {a, b}
    rest = draw(st.permutations([i for i in range(40) if i not in used]))[:8]
    seat_a, seat_b = draw(st.permutations(range(4)))[:2]
    others = [s for s in range(4) if s not in (seat_a, seat_b)]
    hands = [None] * 4
    hands[seat_a], hands[seat_b] = twin_a, twin_b
    hands[others[0]], hands[others[1]] = list(rest[:4]), list(rest[4:])
    return hands, seat_a, seat_b


@given(twin_deals(), manos, kings_st)
def test_exact_tie_goes_to_seat_nearer_mano(twins, mano, kings):
    hands, a, b = twins
    result = evaluate([[DECK[i] for i in h] for h in hands], mano, RULES[kings])
    nearer, farther = sorted((a, b), key=lambda s: (s - mano) % 4)
    for r in result.results():
        assert r.winner != farther  # the twin farther from mano can never win
        if r.winner == nearer:
            assert r.tie_to_mano
            assert r.ranking.index(nearer) < r.ranking.index(farther)
            assert "nearer mano" in r.explanation or "is mano" in r.explanation


# ----- each lance orders hands totally and transitively ------------------------------------------------------------


@settings(max_examples=200)
@given(st.permutations(range(40)), kings_st)
def test_lance_order_is_total_and_transitive(order, kings):
    hands = _split(order[:12])[:3]
    infos = [analyse([DECK[i] for i in h], RULES[kings]) for h in hands]
    for lance in Lance:
        keys = [i.key(lance) for i in infos]
        for x in keys:
            for y in keys:
                assert (x > y) + (x < y) + (x == y) == 1  # total: exactly one holds
                for z in keys:
                    if x >= y and y >= z:
                        assert x >= z  # transitive
        # equal keys mean equal standing in words (what the learner sees)
        for i in range(3):
            for j in range(3):
                if keys[i] == keys[j] and keys[i]:
                    assert infos[i].jugada(lance) == infos[j].jugada(lance)


@given(deals, manos, kings_st)
def test_ranking_follows_the_keys(hands, mano, kings):
    """Every lance's ranking lists the seats taking part by key, equal keys in speaking order."""
    result = evaluate([[DECK[i] for i in h] for h in hands], mano, RULES[kings])
    pos = {s: (s - mano) % 4 for s in range(4)}
    for r in result.results():
        keys = [result.infos[s].key(r.lance) for s in r.ranking]
        assert all(k for k in keys)
        for i in range(len(r.ranking) - 1):
            assert keys[i] >= keys[i + 1]
            if keys[i] == keys[i + 1]:
                assert pos[r.ranking[i]] < pos[r.ranking[i + 1]]
        if r.ranking:
            assert r.winner == r.ranking[0]
