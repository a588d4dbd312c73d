"""Exact lance odds (musteach.odds): checked against complete enumeration of small cases, against
Monte Carlo on random hands, and for the symmetries and identities the rules imply (RULES.md §1-§5)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from musteach import DECK, Card, Hand, Rules
from musteach.rules.errors import DuplicateCardError, HandSizeError, MusError, RulesError, SeatError, UnknownCardError
from musteach.rules.lances import LANCES, analyse, evaluate

try:  # the batched evaluator (musteach.rules.batch); the plain one judges the same deals more slowly
    from musteach.rules.batch import evaluate_batch
except ImportError:  # pragma: no cover

    def evaluate_batch(deals, mano, rules):
        out = {name: np.empty(len(deals), dtype=np.int8) for name in [lance.value for lance in LANCES]}
        for i, d in enumerate(deals):
            won = evaluate([[DECK[c] for c in hand] for hand in d], mano, rules).winners()
            for name, seat in won.items():
                out[name][i] = -1 if seat is None else seat
        return out

from musteach.odds import AIMS, SENAS, advise_discard, hand_odds, odds_in_words

NAMES = [lance.value for lance in LANCES]
R8, R4 = Rules(), Rules(kings=4)


# ---------------------------------------------------------------------------------------------
# Helpers: complete enumeration and Monte Carlo, both judged by the batched evaluator.
# ---------------------------------------------------------------------------------------------


def _deal_arrays(seat, hand, partner, pool, rng=None, n=None):
    """Deals (N, 4, 4) of card indexes: ``hand`` at ``seat``, ``partner`` (if known) opposite, the other
    hands from ``pool``: every deal (n None) or n random ones."""
    pool = list(pool)
    unknown = [(seat + r) % 4 for r in (1, 2, 3)] if partner is None else [(seat + 1) % 4, (seat + 3) % 4]
    fixed = {seat: [c.index for c in hand]}
    if partner is not None:
        fixed[(seat + 2) % 4] = [c.index for c in partner]
    if n is None:
        rows = []
        for a in itertools.combinations(range(len(pool)), 4):
            rest = [i for i in range(len(pool)) if i not in a]
            for b in itertools.combinations(rest, 4):
                if len(unknown) == 2:
                    rows.append(a + b)
                    continue
                rest2 = [i for i in rest if i not in b]
                for c in itertools.combinations(rest2, 4):
                    rows.append(a + b + c)
        idx = np.array(rows, dtype=np.int64)
    else:
        idx = np.argsort(rng.random((n, len(pool))), axis=1)[:, : 4 * len(unknown)]
    cards = np.array([c.index for c in pool], dtype=np.uint8)[idx]
    deals = np.zeros((len(idx), 4, 4), dtype=np.uint8)
    for s, cs in fixed.items():
        deals[:, s] = cs
    for k, s in enumerate(unknown):
        deals[:, s] = cards[:, 4 * k : 4 * k + 4]
    return deals


def _tally(deals, seat, mano, rules):
    """Per lance, the fraction of deals each seat 0..3 wins, then nobody; holding stats."""
    w = evaluate_batch(deals, mano, rules)
    n = len(deals)
    out = {name: [Fraction(int((w[name] == s).sum()), n) for s in range(4)] + [Fraction(int((w[name] == -1).sum()), n)]
           for name in NAMES}  # fmt: skip
    eff = np.array([{3: 12, 2: 1}.get(c.rank, c.rank) if rules.kings == 8 else c.rank for c in DECK])
    pts = np.minimum(eff, 10)
    ranks = np.sort(eff[deals], axis=2)  # (N, 4 seats, 4 cards)
    held = {
        "pares": (ranks[:, :, 1:] == ranks[:, :, :-1]).any(axis=2),  # two cards of one rank (RULES.md §5)
        "juego": pts[deals].sum(axis=2) >= 31,
    }
    holds = {}
    for name, h in held.items():
        team = h[:, seat] | h[:, (seat + 2) % 4]
        opp = h[:, (seat + 1) % 4] | h[:, (seat + 3) % 4]
        win = (w[name] == seat) | (w[name] == (seat + 2) % 4)
        holds[name] = [Fraction(int(x.sum()), n) for x in (team, opp, team & opp, ~team & ~opp, team & opp & win)]
    return out, holds


def _as_table(o):
    return {lo.lance.value: [*lo.seats, lo.nobody] for lo in o.lances()}


def _holding(o, name):
    h = o.pares_holding if name == "pares" else o.juego_holding
    return [h.team, h.opponents, h.betting, h.nobody, h.team_wins_betting]


# ---------------------------------------------------------------------------------------------
# Exact agreement with complete enumeration (small pools of unseen cards, via ``dead``).
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow  # an agreement run: CI=true runs it (tests/conftest.py)
@pytest.mark.parametrize(
    ("seed", "rules", "pool_size", "known_partner"),
    [
        (1, R8, 12, False),
        (2, R8, 13, False),
        (3, R4, 12, False),
        (4, Rules(la_real=True), 12, False),
        (5, Rules(la_real=True, la_real_figure="sota_de_oros"), 12, False),
        (6, R8, 10, True),
        (7, R4, 9, True),
    ],
)
def test_exact_equals_complete_enumeration(seed, rules, pool_size, known_partner):
    rng = random.Random(seed)
    cards = rng.sample(DECK, 8 + pool_size)
    if rules.la_real and seed == 4:  # make la real possible among the unseen cards
        sevens = [c for c in DECK if c.rank == 7]
        sota = [c for c in DECK if c.rank == 10]
        rest = [c for c in DECK if c not in sevens and c not in sota]
        rng.shuffle(rest)
        cards = rest[:8] + sevens[:3] + sota[:2] + rest[8 : 8 + pool_size - 5]
    hand, partner, pool = Hand(cards[:4]), Hand(cards[4:8]), cards[8:]
    dead = [c for c in DECK if c not in cards]
    if not known_partner:
        dead += list(partner)
        partner = None
    for seat, mano in [(0, 0), (1, 3), (2, 0), (3, 1)][: 1 if pool_size == 13 else 4]:
        o = hand_odds(hand, seat, mano, rules, partner=partner, dead=dead, exact=True)
        deals = _deal_arrays(seat, hand, partner, pool)
        assert o.deals == len(deals)
        want, holds = _tally(deals, seat, mano, rules)
        assert _as_table(o) == want
        for name in ("pares", "juego"):
            assert _holding(o, name) == holds[name]


def test_senas_equal_enumeration_filtered_by_the_partners_hand():
    rng = random.Random(11)
    cards = rng.sample(DECK, 16)
    hand, pool = Hand(cards[:4]), cards[4:]
    dead = [c for c in DECK if c not in cards]
    for sena in ("pares", "ciego"):
        o = hand_odds(hand, 1, 0, senas=[sena], dead=dead, exact=True)
        deals = _deal_arrays(1, hand, None, pool)
        test = SENAS[sena][1]
        keep = np.array([test(analyse([DECK[c] for c in row])) for row in deals[:, 3]])
        want, holds = _tally(deals[keep], 1, 0, R8)
        assert o.deals == int(keep.sum())
        assert _as_table(o) == want
        assert _holding(o, "pares") == holds["pares"]


# ---------------------------------------------------------------------------------------------
# Monte Carlo on full 36-card pools.
# ---------------------------------------------------------------------------------------------


def _close(exact, est, n, sigmas=5.0):
    p = float(exact)
    sd = (max(p * (1 - p), 1 / n) / n) ** 0.5
    return abs(float(est) - p) <= sigmas * sd


@pytest.mark.slow  # an agreement run: CI=true runs it (tests/conftest.py)
@pytest.mark.parametrize("rules", [R8, R4], ids=["8reyes", "4reyes"])
def test_agrees_with_monte_carlo(rules):
    rng = random.Random(2024 + rules.kings)
    nprng = np.random.default_rng(rules.kings)
    hands = 12 if rules.kings == 8 else 4
    for _ in range(hands):
        cards = rng.sample(DECK, 4)
        hand = Hand(cards)
        seat, mano = rng.randrange(4), rng.randrange(4)
        o = hand_odds(hand, seat, mano, rules)
        pool = [c for c in DECK if c not in cards]
        n = 20_000
        deals = _deal_arrays(seat, hand, None, pool, nprng, n)
        want, holds = _tally(deals, seat, mano, rules)
        got = _as_table(o)
        for name in NAMES:
            for p, est in zip(got[name], want[name], strict=True):
                assert _close(p, est, n), (hand, seat, mano, name, got[name], [float(x) for x in want[name]])
        for name in ("pares", "juego"):
            for p, est in zip(_holding(o, name), holds[name], strict=True):
                assert _close(p, est, n), (hand, name)


@pytest.mark.slow  # an agreement run: CI=true runs it (tests/conftest.py)
def test_known_partner_agrees_with_monte_carlo():
    rng = random.Random(77)
    nprng = np.random.default_rng(77)
    for _ in range(4):
        cards = rng.sample(DECK, 8)
        hand, partner = Hand(cards[:4]), Hand(cards[4:])
        o = hand_odds(hand, 2, 1, partner=partner)
        deals = _deal_arrays(2, hand, partner, [c for c in DECK if c not in cards], nprng, 20_000)
        want, _ = _tally(deals, 2, 1, R8)
        for name in NAMES:
            for p, est in zip(_as_table(o)[name], want[name], strict=True):
                assert _close(p, est, 20_000)


# ---------------------------------------------------------------------------------------------
# Symmetries and identities.
# ---------------------------------------------------------------------------------------------


def _random_hands(seed, k):
    rng = random.Random(seed)
    return [(Hand(rng.sample(DECK, 4)), rng.randrange(4), rng.randrange(4)) for _ in range(k)]


def test_suits_do_not_matter():
    for hand, seat, mano in _random_hands(5, 4):
        perm = {"o": "b", "c": "e", "e": "o", "b": "c"}
        other = Hand([Card.parse(f"{c.rank}{perm[c.suit.value]}") for c in hand])
        a, b = hand_odds(hand, seat, mano, exact=True), hand_odds(other, seat, mano, exact=True)
        assert _as_table(a) == _as_table(b)
        assert _holding(a, "pares") == _holding(b, "pares")


def test_threes_are_kings_and_twos_are_aces_in_8_reyes_only():
    a = hand_odds("3o 2c 7e 11b", 1, 0, exact=True)
    b = hand_odds("12o 1c 7e 11b", 1, 0, exact=True)
    assert _as_table(a) == _as_table(b)
    a4 = hand_odds("3o 2c 7e 11b", 1, 0, R4, exact=True)
    b4 = hand_odds("12o 1c 7e 11b", 1, 0, R4, exact=True)
    assert _as_table(a4) != _as_table(b4)
    assert a4.grande.team < b4.grande.team  # a 3 is a low card in 4 reyes


def test_only_the_distance_from_mano_matters():
    for hand, seat, mano in _random_hands(8, 3):
        a = hand_odds(hand, seat, mano, exact=True)
        b = hand_odds(hand, (seat + 1) % 4, (mano + 1) % 4, exact=True)
        for la, lb in zip(a.lances(), b.lances(), strict=True):
            assert [la.seats[(seat + r) % 4] for r in range(4)] == [lb.seats[(seat + 1 + r) % 4] for r in range(4)]
            assert la.nobody == lb.nobody


def test_probabilities_sum_to_one_and_identities_hold():
    for rules in (R8, R4, Rules(la_real=True, la_real_figure="any")):
        for hand, seat, mano in _random_hands(rules.kings, 3):
            o = hand_odds(hand, seat, mano, rules, exact=True)
            for lo in o.lances():
                assert sum(lo.seats) + lo.nobody == 1
                assert all(0 <= x <= 1 for x in (*lo.seats, lo.nobody))
                assert lo.team + lo.opponents + lo.nobody == 1
            assert o.grande.nobody == o.chica.nobody == 0
            # Punto is played exactly when nobody has juego.
            assert sum(o.punto.seats) == o.juego_holding.nobody == o.juego.nobody
            assert o.pares.nobody == o.pares_holding.nobody
            for lo, h in ((o.pares, o.pares_holding), (o.juego, o.juego_holding)):
                assert h.team + h.opponents - h.betting + h.nobody == 1
                # The team takes the lance unopposed, or wins the betting.
                assert lo.team == h.team_only + h.team_wins_betting
                assert 0 <= h.team_wins_betting <= h.betting
            assert o.grande.team_stones == o.grande.team and o.punto.team_stones == o.punto.team
            assert o.pares.team <= o.pares.team_stones <= 6 * o.pares.team


def test_exact_fractions_match_floats():
    for hand, seat, mano in _random_hands(21, 3):
        f, x = hand_odds(hand, seat, mano), hand_odds(hand, seat, mano, exact=True)
        assert isinstance(x.grande.team, Fraction) and isinstance(f.grande.team, float)
        for lf, lx in zip(f.lances(), x.lances(), strict=True):
            for a, b in zip((*lf.seats, lf.nobody, lf.team_stones), (*lx.seats, lx.nobody, lx.team_stones), strict=True):
                assert abs(a - float(b)) <= 1e-12
        assert f.deals == x.deals == 58905 * 35960 * 20475  # C(36,4) C(32,4) C(28,4)


def test_known_cases():
    # Mano with 31 cannot lose juego (ties go to mano, 31 is the best juego): RULES.md §5.
    o = hand_odds("12o 11c 7e 4b", seat=2, mano=2)
    assert o.juego.you == 1.0 and o.juego.team == 1.0
    assert "you have juego (31), so Punto is not played" in o.explain("punto")
    assert o.punto.nobody == 1.0
    # Four kings as mano: the best possible grande and pares, and duples.
    o = hand_odds("12o 12c 3e 3b", seat=0, mano=0)
    assert o.grande.you == 1.0 and o.pares.you == 1.0
    # Four aces (A A 2 2 in 8 reyes) as mano: the best chica.
    o = hand_odds("1o 1c 2e 2b", seat=0, mano=0)
    assert o.chica.you == 1.0
    # The same four kings as postre can lose grande to another four kings.
    assert hand_odds("12o 12c 3e 3b", seat=3, mano=0).grande.you < 1


def test_known_partner_and_senas_change_the_odds():
    base = hand_odds("4o 5c 6e 7b", 0, 0)
    # The partner is mano with four kings: the best grande and pares, ties to mano (RULES.md §2).
    with_partner = hand_odds("4o 5c 6e 7b", 2, 0, partner="12o 12c 3e 3b")
    assert with_partner.grande.team == 1.0 and with_partner.pares.team == 1.0
    duples = hand_odds("4o 5c 6e 7b", 0, 0, senas=["duples"])
    assert duples.pares.team > base.pares.team
    assert duples.pares_holding.team == 1.0
    ciego = hand_odds("4o 5c 6e 7b", 0, 0, senas=["ciego"])
    assert ciego.pares.partner == 0 and ciego.juego.partner == 0


# ---------------------------------------------------------------------------------------------
# Bad input.
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"hand": "12o 3c 7e"}, HandSizeError, "4 cards"),
        ({"hand": "12o 3c 7e 9b"}, UnknownCardError, "9b"),
        ({"hand": "12o 12o 7e 5b"}, DuplicateCardError, "12o"),
        ({"seat": 4}, SeatError, "4"),
        ({"mano": -1}, SeatError, "-1"),
        ({"rules": "8reyes"}, RulesError, "8reyes"),
        ({"partner": "12o 1c 1e 1b"}, DuplicateCardError, "12o"),
        ({"dead": ["3c"]}, DuplicateCardError, "3c"),
        ({"senas": ["sonrisa"]}, MusError, "sonrisa"),
        ({"senas": ["31"], "partner": "1c 1e 1b 4o"}, MusError, "partner"),
        ({"senas": ["4 reyes", "4 ases"]}, MusError, "señas"),
        ({"dead": [c.code for c in DECK if c not in Hand("12o 3c 7e 5b")][:26]}, MusError, "unseen"),
    ],
)
def test_bad_input_raises_mus_errors(kwargs, error, text):
    args = {"hand": "12o 3c 7e 5b", "seat": 0, "mano": 0} | kwargs
    hand = args.pop("hand")
    with pytest.raises(error, match=text):
        hand_odds(hand, **args)


def test_advisor_bad_input():
    with pytest.raises(MusError, match="tute"):
        advise_discard("12o 3c 7e 5b", aim="tute")
    with pytest.raises(HandSizeError):
        advise_discard("12o 3c 7e")
    a = advise_discard("12o 3c 7e 5b", seat=1, mano=0)
    with pytest.raises(MusError, match="tute"):
        a.best("tute")


# ---------------------------------------------------------------------------------------------
# The discard advisor.
# ---------------------------------------------------------------------------------------------


def test_advisor_lists_fifteen_discards_with_redraws_summing_to_one():
    hand = Hand("12o 11c 7e 4b")
    a = advise_discard(hand, seat=1, mano=0, exact=True)
    assert len(a.options) == 15
    seen = set()
    for o in a.options:
        assert 1 <= len(o.discard) <= 4 and len(o.discard) + len(o.keep) == 4
        assert set(o.discard) | set(o.keep) == set(hand)
        seen.add(frozenset(o.discard))
        assert sum(r.probability for r in o.redraws) == 1
        assert all(r.probability > 0 for r in o.redraws)
        assert all(0 <= p <= 1 for p in o.win.values())
        assert [r.probability for r in o.redraws] == sorted((r.probability for r in o.redraws), reverse=True)
    assert len(seen) == 15
    # Changing one card: 8 effective ranks can come (5 of them with 4 cards, kings and aces with 7-8).
    one = a.options[3]  # change the 4
    assert len(one.redraws) == 8
    assert {r.text for r in one.redraws} >= {"R-C-7-A", "R-R-C-7"}
    for aim in AIMS:
        best = a.best(aim)
        assert all(best.score(aim) >= o.score(aim) for o in a.options)
    assert a.ranked("grande")[0] == a.best("grande")


def test_advisor_averages_hand_odds_over_the_redraws():
    hand = Hand("12o 11c 7e 4b")
    a = advise_discard(hand, seat=1, mano=0, exact=True)
    o = a.options[3]  # change 4b
    assert [c.code for c in o.discard] == ["4b"]
    total = {name: Fraction(0) for name in NAMES}
    kept = Counter(_eff(c) for c in o.keep)
    for r in o.redraws:
        # A concrete new hand with these ranks: a card of the drawn rank that was not in the hand.
        (rank,) = (Counter(r.info.ranks) - kept).keys()
        card = next(c for c in DECK if _eff(c) == rank and c not in hand.cards)
        odds = hand_odds([*o.keep, card], 1, 0, exact=True)
        for name in NAMES:
            total[name] += r.probability * odds[name].team
    assert total == o.win


def _eff(card):
    return {3: 12, 2: 1}.get(card.rank, card.rank)


def test_advisor_floats_match_exact_and_explanations_read_well():
    f = advise_discard("1o 2c 4e 5b", seat=1, mano=0)
    x = advise_discard("1o 2c 4e 5b", seat=1, mano=0, exact=True)
    for of, ox in zip(f.options, x.options, strict=True):
        for name in NAMES:
            assert abs(of.win[name] - float(ox.win[name])) <= 1e-12
            assert abs(of.stones[name] - float(ox.stones[name])) <= 1e-12
    text = f.explain("chica")
    # A-A-4-5 already wins Chica more often than any discard: the coach says to cut the mus first
    assert f.current_score("chica") >= f.best("chica").score("chica")
    assert text.startswith("Keeping 5-4-A-A beats every discard for this aim: cut the mus (no hay mus).")
    assert "to aim at Chica, change " in text and "keeping the hand" in text
    assert "stones" in f.explain("balanced")
    g = advise_discard("12o 12c 10e 4b", seat=0, mano=0)
    assert g.best("grande").score("grande") > g.current_score("grande")
    assert g.explain("grande").startswith("To aim at Grande, change 4, keep R-R-S from R-R-S-4")


def test_explanations_and_words():
    o = hand_odds("12o 3c 3e 11b", seat=0, mano=0)
    text = o.explain("grande")
    assert text.startswith("With R-R-R-C as mano, your team wins Grande ")
    assert f"({o.grande.team:.2f})" in text
    assert "Pares is bet on" in o.explain("pares")
    assert set(o.explanations()) == set(NAMES)
    assert odds_in_words(0.9) == "about 9 times in 10"
    assert odds_in_words(0.1) == "about 1 time in 10"
    assert odds_in_words(0.02) == "less than 1 time in 20"
    d = o.as_dict()
    assert d["lances"]["grande"]["team"] == pytest.approx(o.grande.team)
    assert d["hand"] == ["12o", "3c", "3e", "11b"]
