"""The one-deal evaluator: hand analysis, the five lances, explanations, tie flags, teams and bad input.

RULES.md §1 (ranks and points), §2 (seats, mano, ties), §4 (who takes part), §5 (comparisons), §13 (la real).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest

from musteach import DECK, Hand, Lance, Rules, analyse, evaluate, speaking_order, team_of, winners
from musteach.rules.errors import (
    DuplicateCardError,
    HandSizeError,
    MusError,
    RulesError,
    SeatError,
    UnknownCardError,
    shown,
)
from musteach.rules.lances import JUEGO_ORDER, check_seat, effective_rank, point_value, seat_roles

FOUR_REYES = Rules(kings=4)

# Low filler hands: no pares, no juego, nothing that wins grande.
LOW_A = ["4o", "5o", "6o", "1o"]  # 6-5-4-A, 16 points
LOW_B = ["4c", "5c", "6c", "1c"]  # 6-5-4-A, 16 points
LOW_C = ["4e", "5e", "6e", "1e"]  # 6-5-4-A, 16 points


# ----- one hand --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "grande", "chica", "pares", "total"),
    [
        ("12o 3c 7e 5b", "R-R-7-5", "5-7-R-R", "par of kings", 32),
        ("12o 3c 3b 12b", "R-R-R-R", "R-R-R-R", "duples of four kings", 40),
        ("1o 2c 1e 2b", "A-A-A-A", "A-A-A-A", "duples of four aces", 4),
        ("12o 11c 11e 12b", "R-R-C-C", "C-C-R-R", "duples of kings and caballos", 40),
        ("5o 5c 5e 1b", "5-5-5-A", "A-5-5-5", "medias of 5s", 16),
        ("7o 7c 7e 10b", "S-7-7-7", "7-7-7-S", "medias of 7s", 31),
        ("6o 4c 1e 10b", "S-6-4-A", "A-4-6-S", None, 21),
    ],
)
def test_analyse_8_reyes(hand, grande, chica, pares, total):
    info = analyse(Hand(hand))
    assert info.grande_str == grande
    assert info.chica_str == chica
    assert (info.pares.describe() if info.pares else None) == pares
    assert info.total == total
    assert info.is_juego == (total >= 31)
    assert analyse(hand) == info  # a text works too


def test_analyse_4_reyes_keeps_3_and_2():
    info = analyse("12o 3c 2e 5b", FOUR_REYES)
    assert info.grande_str == "R-5-3-2"
    assert info.pares is None
    assert info.total == 20
    eight = analyse("12o 3c 2e 5b")
    assert eight.grande_str == "R-R-5-A"
    assert eight.pares.describe() == "par of kings"
    assert eight.total == 26


def test_effective_rank_and_points():
    assert [effective_rank(r) for r in (1, 2, 3, 12)] == [1, 1, 12, 12]
    assert [effective_rank(r, 4) for r in (1, 2, 3, 12)] == [1, 2, 3, 12]
    assert [point_value(r) for r in (1, 2, 3, 4, 7, 10, 11, 12)] == [1, 1, 10, 4, 7, 10, 10, 10]
    assert [point_value(r, 4) for r in (1, 2, 3)] == [1, 2, 3]


def test_totals_possible_in_8_reyes():
    ranks = (1, 4, 5, 6, 7, 10, 11, 12)
    totals = {analyse(_cards_of(combo)).total for combo in combinations_with_replacement(ranks, 4)}
    assert min(totals) == 4 and max(totals) == 40
    assert 38 not in totals and 39 not in totals  # RULES.md §1


def _cards_of(ranks):
    used = Counter()
    out = []
    for r in ranks:
        suit_i = used[r]
        used[r] += 1
        out.append(next(c for c in DECK if c.rank == r and c.index % 4 == suit_i))
    return out


def test_pares_values_and_juego_values():
    assert analyse("5o 5c 1e 7b").pares.value == 1
    assert analyse("5o 5c 5e 7b").pares.value == 2
    assert analyse("5o 5c 7e 7b").pares.value == 3
    assert analyse("12o 11c 10e 1b").juego_value == 3  # 31
    assert analyse("12o 11c 10e 7b").juego_value == 2  # 37
    assert analyse("12o 11c 1e 7b").juego_value == 0  # 28


def test_juego_order_is_31_32_40_then_down():
    assert JUEGO_ORDER == (31, 32, 40, 37, 36, 35, 34, 33)


# ----- seats ------------------------------------------------------------------------------------------------------


def test_seats_teams_and_roles():
    assert speaking_order(0) == (0, 1, 2, 3)
    assert speaking_order(3) == (3, 0, 1, 2)
    assert [team_of(s) for s in range(4)] == ["A", "B", "A", "B"]
    assert seat_roles(2, 2) == ("mano",)
    assert seat_roles(1, 2) == ("postre",)
    assert seat_roles(0, 2) == ()


@pytest.mark.parametrize("bad", [4, -1, True, "0", 1.0, None])
def test_bad_seat_is_named(bad):
    with pytest.raises(SeatError) as e:
        check_seat(bad, "mano")
    assert f"mano must be a seat 0, 1, 2 or 3, not {shown(bad)}" == str(e.value)
    with pytest.raises(SeatError, match="not"):
        evaluate([LOW_A, LOW_B, "7o 7c 10o 10c", "12o 12c 11o 11c"], bad)


# ----- explanations ---------------------------------------------------------------------------------------------


def test_grande_explanation_second_card():
    hands = [["1o", "1c", "4o", "5o"], ["12c", "11o", "11c", "4e"], ["12o", "3c", "7e", "5b"], ["6c", "6e", "10o", "2b"]]
    g = evaluate(hands, 0).grande
    assert g.explanation == "Seat 2 wins Grande: R-R-7-5 beats R-C-C-4 on the second card."
    assert (g.winner, g.team, g.tie_to_mano) == (2, "A", False)
    assert g.ranking == (2, 1, 3, 0)
    assert g.jugadas == ("5-4-A-A", "R-C-C-4", "R-R-7-5", "S-6-6-A")


def test_chica_explanation():
    hands = [["1o", "4o", "5o", "6o"], ["1c", "1e", "7o", "11o"], ["4c", "5c", "6c", "7c"], ["12o", "11c", "10o", "7e"]]
    c = evaluate(hands, 0).chica
    assert c.explanation == "Seat 1 wins Chica: A-A-7-C beats A-4-5-6 on the second card."
    assert (c.winner, c.team) == (1, "B")


def _juego_tie_deal():
    return [["12o", "11o", "10o", "1o"], ["4o", "4c", "5o", "5c"], ["6o", "6c", "7o", "7c"], ["12c", "11c", "10c", "1c"]]


def test_tie_to_mano_explanation_seat_0_is_mano():
    j = evaluate(_juego_tie_deal(), 0).juego
    assert j.explanation == "Seat 0 and seat 3 both hold 31; seat 0 is mano."
    assert (j.winner, j.team, j.tie_to_mano, j.ranking) == (0, "A", True, (0, 3))


def test_tie_to_mano_explanation_nearer_mano():
    # mano 1 speaks 1, 2, 3, 0: seat 3 comes before seat 0
    j = evaluate(_juego_tie_deal(), 1).juego
    assert j.explanation == "Seat 3 and seat 0 both hold 31; seat 3 is nearer mano."
    assert (j.winner, j.team, j.tie_to_mano, j.ranking) == (3, "B", True, (3, 0))
    # mano 3 speaks 3, 0, 1, 2: seat 0 is nearer mano than seat 2
    hands = [["12o", "11o", "10o", "1o"], ["4o", "4c", "5o", "5c"], ["12c", "11c", "10c", "1c"], ["6o", "6c", "7o", "7c"]]
    j = evaluate(hands, 3).juego
    assert j.explanation == "Seat 0 and seat 2 both hold 31; seat 0 is nearer mano."
    assert j.winner == 0 and j.tie_to_mano


def test_three_way_tie_sentence():
    hands = [["1o", "4o", "5o", "6o"], ["1c", "4c", "5c", "6c"], ["12o", "11o", "10o", "7o"], ["1e", "4e", "5e", "6e"]]
    c = evaluate(hands, 1).chica
    assert c.explanation == "Seat 1, seat 3 and seat 0 all hold A-4-5-6; seat 1 is mano."
    assert (c.winner, c.tie_to_mano, c.ranking) == (1, True, (1, 3, 0, 2))


@pytest.mark.parametrize(
    ("hands", "mano", "sentence", "winner"),
    [
        (
            [["6o", "6c", "4o", "1o"], ["5o", "5c", "12o", "11o"], ["4e", "7e", "1e", "10e"], ["7o", "10o", "11e", "12e"]],
            0,
            "Seat 0 wins Pares: par of 6s beats seat 1's par of 5s (the odd cards do not count).",
            0,
        ),
        (
            [["4o", "4c", "4e", "12o"], ["5o", "5c", "5e", "1o"], ["6b", "7b", "1b", "10b"], ["7o", "10o", "11e", "12e"]],
            0,
            "Seat 1 wins Pares: medias of 5s beats seat 0's medias of 4s (the fourth card does not count).",
            1,
        ),
        (
            [["12o", "12c", "11o", "11c"], ["3o", "3c", "10o", "10c"], LOW_B, ["7o", "6e", "5e", "4e"]],
            0,
            "Seat 0 wins Pares: duples of kings and caballos beats seat 1's duples of kings and sotas, on the lower pair.",
            0,
        ),
        (
            [LOW_A, ["7o", "7c", "1e", "1b"], ["6e", "6b", "4e", "5e"], ["12o", "3c", "3b", "12b"]],
            2,
            "Seat 3 wins Pares: duples of four kings beats seat 1's duples of 7s and aces.",
            3,
        ),
        (
            [LOW_A, LOW_B, ["12o", "3c", "7e", "5b"], ["7o", "10o", "11e", "4e"]],
            0,
            "Seat 2 wins Pares: only seat 2 holds pares (par of kings).",
            2,
        ),
        (
            [LOW_A, LOW_B, ["12o", "11c", "7e", "5b"], ["7o", "10o", "1e", "4e"]],
            0,
            "Nobody holds pares, so Pares scores nothing.",
            None,
        ),
    ],
)
def test_pares_explanations(hands, mano, sentence, winner):
    p = evaluate(hands, mano).pares
    assert p.explanation == sentence
    assert p.winner == winner
    assert p.team == (None if winner is None else team_of(winner))
    assert p.played is (winner is not None)


def test_juego_and_punto_explanations():
    r = evaluate([["12o", "11o", "10o", "1o"], ["12c", "11c", "5b", "7b"], LOW_C, LOW_B], 1)
    assert r.juego.explanation == "Seat 0 wins Juego: 31 is the best juego, and seat 1 has 32."
    assert r.juego.winner == 0 and not r.juego.tie_to_mano
    assert r.punto.explanation == "Punto is not played: seat 1 and seat 0 have juego."
    assert r.punto.winner is None and r.punto.team is None and r.punto.ranking == ()

    r = evaluate([["12o", "11o", "10o", "12e"], ["12c", "11c", "10c", "5b"], LOW_A, LOW_B], 0)
    assert r.juego.explanation == "Seat 0 wins Juego: 40 beats 35 (juego order 31, 32, 40, 37, 36, 35, 34, 33)."

    r = evaluate([LOW_A, ["12c", "11c", "10c", "3o"], ["6c", "5e", "7e", "1e"], ["10e", "11e", "2b", "7b"]], 0)
    assert r.juego.explanation == "Seat 1 wins Juego: only seat 1 has juego (40)."
    assert r.punto.explanation == "Punto is not played: seat 1 has juego."

    r = evaluate([LOW_A, LOW_B, ["12o", "11o", "7e", "2b"], ["12e", "11e", "6e", "1b"]], 0)
    assert r.juego.explanation == "Nobody has juego (31 or more), so Punto is played instead."
    assert r.juego.winner is None
    assert r.punto.explanation == "Seat 2 wins Punto: 28 beats 27."
    assert (r.punto.winner, r.punto.team, r.punto.ranking) == (2, "A", (2, 3, 0, 1))


def test_la_real():
    hands = [["12o", "11o", "10o", "1o"], ["7o", "7c", "7e", "10c"], LOW_C, LOW_B]
    plain = evaluate(hands, 0)
    assert plain.juego.winner == 0  # two 31s: mano wins
    real = evaluate(hands, 0, Rules(la_real=True))
    assert real.juego.winner == 1
    assert real.juego.explanation == "Seat 1 wins Juego: la real (7-7-7-sota) beats every other 31, and seat 0 has 31."
    assert real.infos[1].la_real and real.juego.jugadas[1] == "31 (la real)"
    assert real.grande.winner == plain.grande.winner  # la real changes only Juego
    # a caballo is la real only with figure "any"; the sota de oros only counts with "sota_de_oros"
    cab = [hands[0], ["7o", "7c", "7e", "11c"], hands[2], hands[3]]
    assert evaluate(cab, 0, Rules(la_real=True)).juego.winner == 0
    assert evaluate(cab, 0, Rules(la_real=True, la_real_figure="any")).juego.winner == 1
    oros_rule = Rules(la_real=True, la_real_figure="sota_de_oros")
    assert evaluate(hands, 0, oros_rule).juego.winner == 0  # sota de copas
    oros = [["12o", "11o", "10c", "1o"], ["7o", "7c", "7e", "10o"], hands[2], hands[3]]
    assert evaluate(oros, 0, oros_rule).juego.winner == 1


def test_deal_result_access():
    r = evaluate([LOW_A, LOW_B, ["12o", "11o", "7e", "3b"], ["12e", "11e", "6e", "1b"]], 2)
    assert r["grande"] is r.grande is r[Lance.GRANDE]
    assert [x.lance for x in r.results()] == list(Lance)
    assert set(r.explanations()) == set(r.winners()) == {"grande", "chica", "pares", "juego", "punto"}
    assert r.mano == 2 and r.rules == Rules()
    assert [str(h) for h in r.hands] == ["4o 5o 6o 1o", "4c 5c 6c 1c", "12o 11o 7e 3b", "12e 11e 6e 1b"]
    with pytest.raises(MusError, match="unknown lance 'envido'"):
        r["envido"]


# ----- bad input --------------------------------------------------------------------------------------------------


def test_bad_input_each_error_class():
    good = [LOW_A, LOW_B, ["12o", "11o", "7e", "3b"], ["12e", "11e", "6e", "1b"]]
    with pytest.raises(UnknownCardError, match=r"seat 2: unknown card '9o'"):
        evaluate([LOW_A, LOW_B, ["12o", "9o", "7e", "3b"], good[3]], 0)
    with pytest.raises(HandSizeError, match=r"seat 3: a hand holds 4 cards, not 3: \[12e 11e 6e\]"):
        evaluate([LOW_A, LOW_B, good[2], ["12e", "11e", "6e"]], 0)
    with pytest.raises(HandSizeError, match="a deal holds 4 hands, one per seat 0-3, not 5 hands"):
        evaluate([*good, LOW_A], 0)
    with pytest.raises(DuplicateCardError, match=r"card 4o \(cuatro de oros\) is dealt twice: to seat 0 and seat 2"):
        evaluate([LOW_A, LOW_B, ["12o", "4o", "7e", "3b"], good[3]], 0)
    with pytest.raises(DuplicateCardError, match=r"seat 1: card 5c \(cinco de copas\) appears twice in the hand"):
        evaluate([LOW_A, ["4c", "5c", "5c", "1c"], good[2], good[3]], 0)
    with pytest.raises(SeatError, match="mano must be a seat 0, 1, 2 or 3, not 7"):
        evaluate(good, 7)
    with pytest.raises(RulesError, match="kings must be 8 or 4, not 6"):
        evaluate(good, 0, Rules(kings=6))
    with pytest.raises(RulesError, match="kings must be 8 or 4, not 6"):
        winners([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]], 0, kings=6)
    with pytest.raises(HandSizeError):
        evaluate(5, 0)


# ----- the fast path ----------------------------------------------------------------------------------------------


@pytest.mark.slow  # an agreement run: CI=true runs it (tests/conftest.py)
@pytest.mark.parametrize("kings", [8, 4])
def test_fast_winners_agree_with_evaluate(kings):
    rng = random.Random(kings)
    rules = Rules(kings=kings)
    for _ in range(3000):
        idx = rng.sample(range(40), 16)
        hands = [idx[k : k + 4] for k in (0, 4, 8, 12)]
        mano = rng.randrange(4)
        full = evaluate([[DECK[i] for i in h] for h in hands], mano, rules).winners()
        assert winners(hands, mano, kings) == tuple(full.values())
