"""Mistake diagnosis (issue 12, item 1): every tag on planted deals, and properties checked against a
brute-force reference written here from the issue's definitions, independently of musteach's evaluator.

RULES.md §1 (8 reyes), §2 (ties to mano), §4 (who takes part), §5 (the comparisons).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musteach.rules.cards import DECK
from musteach.rules.errors import MusError, RulesError, SeatError
from musteach.rules.options import Rules
from musteach.teach.diagnosis import MISTAKES, Mistake, Reading, diagnose

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
LANCES = ("grande", "chica", "pares", "juego", "punto")
TAGS = (
    "three_is_not_king",
    "two_is_not_ace",
    "chica_from_the_top",
    "quads_not_duples",
    "pares_by_rank_not_kind",
    "juego_by_total",
    "tie_not_to_mano",
    "punto_with_juego",
    "three_is_not_king+two_is_not_ace",
)
RAW_CODE = re.compile(r"\b(?:1[0-2]|[1-7])[oceb]\b")


# ----- the reference: each rule as the issue and RULES.md state it, by explicit comparison ------------------


def rank_of(code: str) -> int:
    return int(code[:-1])


def play_rank(rank: int, kings: int, tag: str | None) -> float:
    """Where a card stands, high to low: R > C > S > 7 > 6 > 5 > 4 > A (8 reyes: 3 = R, 2 = A)."""
    if kings == 8:
        if rank == 3:
            return 3.0 if tag and "three_is_not_king" in tag.split("+") else 12.0  # else: between the aces and the 4
        if rank == 2:
            return 2.0 if tag and "two_is_not_ace" in tag.split("+") else 1.0
    return float(rank)


def points(rank: int, kings: int, tag: str | None) -> int:
    r = play_rank(rank, kings, tag)
    return 10 if r >= 10 else int(r)


def grande_better(a: list[float], b: list[float]) -> int:
    """+1 if a beats b at Grande, -1 if b beats a, 0 if equal."""
    for x, y in zip(sorted(a, reverse=True), sorted(b, reverse=True), strict=True):
        if x != y:
            return 1 if x > y else -1
    return 0


def chica_better(a: list[float], b: list[float], from_top: bool) -> int:
    for x, y in zip(sorted(a, reverse=from_top), sorted(b, reverse=from_top), strict=True):
        if x != y:
            return 1 if x < y else -1
    return 0


def pares_of(ranks: list[float], tag: str | None) -> tuple[str, float, float] | None:
    counts = {r: ranks.count(r) for r in set(ranks)}
    groups = sorted((r for r, n in counts.items() if n >= 2), reverse=True)
    if not groups:
        return None
    if 4 in counts.values():
        return ("medias", groups[0], groups[0]) if tag == "quads_not_duples" else ("duples", groups[0], groups[0])
    if len(groups) == 2:
        return ("duples", groups[0], groups[1])
    if 3 in counts.values():
        return ("medias", groups[0], groups[0])
    return ("par", groups[0], groups[0])


KIND_ORDER = ["par", "medias", "duples"]


def pares_better(a, b, tag: str | None) -> int:
    if tag == "pares_by_rank_not_kind":
        return (a[1] > b[1]) - (a[1] < b[1])
    ka = (KIND_ORDER.index(a[0]), a[1], a[2])
    kb = (KIND_ORDER.index(b[0]), b[1], b[2])
    return (ka > kb) - (ka < kb)


JUEGO_BEST_FIRST = [31, 32, 40, 37, 36, 35, 34, 33]


def juego_better(a: int, b: int, tag: str | None) -> int:
    if tag == "juego_by_total":
        return (a > b) - (a < b)
    ia, ib = JUEGO_BEST_FIRST.index(a), JUEGO_BEST_FIRST.index(b)
    return (ia < ib) - (ia > ib)


def ref_winner(hands: list[list[str]], mano: int, lance: str, tag: str | None = None, kings: int = 8) -> int | None:
    """The winner of ``lance`` with the one mistaken rule ``tag`` (None: the real rules)."""
    ranks = [[play_rank(rank_of(c), kings, tag) for c in h] for h in hands]
    totals = [sum(points(rank_of(c), kings, tag) for c in h) for h in hands]
    seats = [(mano + k) % 4 for k in range(4)]
    has_juego = [t >= 31 for t in totals]
    if lance == "pares":
        seats = [s for s in seats if pares_of(ranks[s], tag)]
    elif lance == "juego":
        seats = [s for s in seats if has_juego[s]]
    elif lance == "punto":
        if any(has_juego) and tag != "punto_with_juego":
            return None
        seats = [s for s in seats if not has_juego[s]]
    best = None
    for s in seats:  # in speaking order: an equal hand later on wins only when ties go away from mano
        if best is None:
            best = s
            continue
        if lance == "grande":
            c = grande_better(ranks[s], ranks[best])
        elif lance == "chica":
            c = chica_better(ranks[s], ranks[best], tag == "chica_from_the_top")
        elif lance == "pares":
            c = pares_better(pares_of(ranks[s], tag), pares_of(ranks[best], tag), tag)
        elif lance == "juego":
            c = juego_better(totals[s], totals[best], tag)
        else:
            c = (totals[s] > totals[best]) - (totals[s] < totals[best])
        if c > 0 or (c == 0 and tag == "tie_not_to_mano"):
            best = s
    return best


def ref_ties(hands, mano, lance, answer, kings=8) -> bool:
    """True when the seat ``answer`` takes part and holds exactly what the real winner holds (it lost the tie)."""
    winner = ref_winner(hands, mano, lance, None, kings)
    if answer is None or winner is None or answer == winner:
        return False
    return _two_seat_tie(hands, mano, lance, answer, winner, kings)


def _two_seat_tie(hands, mano, lance, a, b, kings) -> bool:
    """True when seats a and b are equal in the lance under the real rules and both take part."""
    ranks = [[play_rank(rank_of(c), kings, None) for c in h] for h in hands]
    totals = [sum(points(rank_of(c), kings, None) for c in h) for h in hands]
    if lance == "grande":
        return grande_better(ranks[a], ranks[b]) == 0
    if lance == "chica":
        return chica_better(ranks[a], ranks[b], False) == 0
    if lance == "pares":
        pa, pb = pares_of(ranks[a], None), pares_of(ranks[b], None)
        return bool(pa) and bool(pb) and pares_better(pa, pb, None) == 0
    if lance == "juego":
        return totals[a] >= 31 and totals[b] >= 31 and totals[a] == totals[b]
    return totals[a] < 31 and totals[b] < 31 and totals[a] == totals[b]


def ref_tag(hands, mano, lance, answer, kings=8) -> str | None:
    if answer == ref_winner(hands, mano, lance, None, kings):
        return None
    if ref_ties(hands, mano, lance, answer, kings):
        return "tie_not_to_mano"  # a hand equal to the winner's lost on the tie alone, whatever else explains it
    return next((t for t in TAGS if ref_winner(hands, mano, lance, t, kings) == answer), None)


# ----- the reference itself agrees with the checked vectors ------------------------------------------------


def test_the_reference_agrees_with_the_checked_vectors():
    deals = [json.loads(x) for x in (VECTORS / "deals.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    for d in deals:
        assert {lance: ref_winner(d["hands"], d["mano"], lance) for lance in LANCES} == d["winners"]
    for case in json.loads((VECTORS / "lances.json").read_text(encoding="utf-8")):
        kings = 4 if case.get("variant") == "4reyes" else 8
        assert ref_winner(case["hands"], case["mano"], case["lance"], None, kings) == case["winner"], case["id"]


def test_tags_are_the_issues_in_its_order():
    assert tuple(m.value for m in MISTAKES) == TAGS
    assert Reading.of(None) == Reading()
    assert all(Reading.of(m) != Reading() for m in MISTAKES)


# ----- every tag on a planted deal --------------------------------------------------------------------------

PLANTED = [
    # (tag, hands, mano, lance, answer, real winner)
    ("three_is_not_king", [["3o", "3c", "7e", "4b"], ["12c", "11o", "7c", "6e"], ["1o", "5c", "6o", "10e"], ["4c", "5e", "6c", "7o"]], 0, "grande", 1, 0),
    ("three_is_not_king", [["12o", "3c", "7e", "5b"], ["11o", "10o", "4o", "6o"], ["1o", "7o", "5o", "4c"], ["10c", "11c", "6c", "1c"]], 0, "pares", None, 0),
    ("two_is_not_ace", [["2c", "6e", "6c", "2o"], ["11c", "12e", "1o", "1b"], ["12b", "11e", "1c", "4o"], ["6o", "4b", "12c", "1e"]], 2, "chica", 1, 0),
    ("chica_from_the_top", [["1o", "1c", "7e", "11o"], ["1e", "4o", "5c", "6b"], ["12o", "12c", "11c", "10o"], ["12e", "11e", "10e", "7o"]], 0, "chica", 1, 0),
    ("quads_not_duples", [["12o", "12c", "3o", "3c"], ["11o", "11c", "10o", "10c"], ["1o", "4o", "5o", "6o"], ["7o", "4c", "5c", "6c"]], 0, "pares", 1, 0),
    ("pares_by_rank_not_kind", [["5o", "5c", "5e", "1b"], ["12o", "12c", "4o", "6o"], ["1o", "4c", "6c", "7c"], ["10o", "11o", "7o", "4e"]], 0, "pares", 1, 0),
    ("juego_by_total", [["12o", "11o", "10o", "1o"], ["12c", "11c", "10c", "12e"], ["4o", "5o", "6o", "7o"], ["4c", "5c", "6c", "7c"]], 1, "juego", 1, 0),
    ("tie_not_to_mano", [["12o", "11o", "5o", "1o"], ["10o", "7o", "6o", "4o"], ["12c", "11c", "5c", "1c"], ["10c", "7c", "6c", "4c"]], 0, "grande", 2, 0),
    ("punto_with_juego", [["12o", "11o", "10o", "1o"], ["12c", "11c", "5c", "5o"], ["4o", "6o", "7o", "1c"], ["4c", "6c", "7c", "1e"]], 0, "punto", 1, None),
]


@pytest.mark.parametrize(("tag", "hands", "mano", "lance", "answer", "winner"), PLANTED, ids=[p[0] for p in PLANTED])
def test_every_tag_on_a_planted_deal(tag, hands, mano, lance, answer, winner):
    d = diagnose(hands, mano, lance, answer)
    assert (d.correct, d.winner, d.mistake) == (False, winner, Mistake(tag))
    assert ref_tag(hands, mano, lance, answer) == tag  # the reference agrees on the plant
    assert d.to_dict() == {
        "correct": False,
        "winner": winner,
        "mistake": tag,
        "explanation": d.explanation,
        "why_not": d.why_not,
    }
    assert d.explanation.startswith("You said nobody, as if" if answer is None else f"You picked seat {answer}, as if")
    assert (d.why_not is None) == (answer is None)
    assert not RAW_CODE.search(d.explanation + (d.why_not or ""))
    right = diagnose(hands, mano, lance, winner)
    assert (right.correct, right.mistake, right.why_not) == (True, None, None)


def test_the_issues_example_sentence():
    hands = PLANTED[0][1]
    d = diagnose(hands, 0, "grande", 1)
    assert d.explanation == (
        "You picked seat 1, as if the 3s in seat 0's 7-4-3-3 ranked below the 4; in 8 reyes every 3 is a king "
        "(worth 10 points), so seat 0's R-R-7-4 beats seat 1's R-C-7-6 on the second card."
    )
    assert d.why_not == "Seat 1's R-C-7-6 loses to seat 0's R-R-7-4 on the second card."


def test_a_pick_that_ties_the_winner_is_the_tie_whatever_else_explains_it():
    """Seats 0 and 2 tie on R-R-7-4, mano 0 wins. Seat 2 is also what three_is_not_king gives (seat 0's 3 read
    low), but seat 2's hand equals the winner's: the real mistake is the tie (issue 23)."""
    hands = [["12o", "3c", "7o", "4o"], ["11o", "10o", "6o", "5o"], ["12c", "12e", "7c", "4c"], ["11c", "10c", "6c", "5c"]]
    assert ref_winner(hands, 0, "grande", "three_is_not_king") == 2
    assert ref_winner(hands, 0, "grande", "tie_not_to_mano") == 2
    assert diagnose(hands, 0, "grande", 2).mistake is Mistake.TIE_NOT_TO_MANO


def test_lesson_02_question_1_is_the_tie_not_the_3s():
    """Lesson 02 question 1 (and lesson 11): seats 0 and 3 both hold R-R-7-A, mano 2; seat 3 is nearer mano.
    Today's code said "Careful with the 3s" for seat 0 (issue 23)."""
    hands = ["2o 7b 3o 12c", "1c 4c 5c 6c", "10o 11o 5e 6e", "3b 7o 2b 3c"]
    d = diagnose(hands, 2, "grande", 0)
    assert (d.winner, d.mistake) == (3, Mistake.TIE_NOT_TO_MANO)
    assert "as if a tie went to the seat farther from mano" in d.explanation
    assert "seat 3 wins the tie with seat 0 (both hold R-R-7-A), being nearer mano" in d.explanation


def test_precedence_the_earlier_tag_is_named():
    """Seat 0 in Chica is what two_is_not_ace gives (seat 2's 2s read above the aces) and also what
    chica_from_the_top gives; seat 0's hand does not tie the winner's: the earlier tag is named."""
    hands = [["5c", "4b", "4c", "1b"], ["7b", "1e", "12o", "6b"], ["11o", "2c", "2b", "6c"], ["1o", "11e", "11c", "7e"]]
    assert ref_winner(hands, 0, "chica", "two_is_not_ace") == 0
    assert ref_winner(hands, 0, "chica", "chica_from_the_top") == 0
    assert diagnose(hands, 0, "chica", 0).mistake is Mistake.TWO_IS_NOT_ACE


def test_a_slip_has_no_tag_but_says_why():
    hands = PLANTED[0][1]
    d = diagnose(hands, 0, "grande", 3)
    assert (d.correct, d.winner, d.mistake) == (False, 0, None)
    assert d.explanation == "You picked seat 3, but seat 0's R-R-7-4 beats seat 3's 7-6-5-4 on the first card."
    assert d.why_not == "Seat 3's 7-6-5-4 loses to seat 0's R-R-7-4 on the first card."


def test_a_seat_without_pares_takes_no_part():
    hands = PLANTED[1][1]  # only seat 0 holds pares (R + 3)
    d = diagnose(hands, 0, "pares", 2)
    assert (d.winner, d.mistake) == (0, None)
    assert d.why_not == "Seat 2's 7-5-4-A holds no pares, so it takes no part in Pares."


def test_four_reyes_has_no_rank_misconception():
    hands = PLANTED[0][1]
    d = diagnose(hands, 0, "grande", 0, Rules(kings=4))  # in 4 reyes 3-3-7-4 is a low hand
    assert (d.correct, d.winner, d.mistake) == (False, 1, None)


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (([["1o"]], 0, "grande", 0), MusError),
        ((PLANTED[0][1], 4, "grande", 0), SeatError),
        ((PLANTED[0][1], 0, "grand", 0), MusError),
        ((PLANTED[0][1], 0, "grande", 5), SeatError),
        ((PLANTED[0][1], 0, "grande", True), SeatError),
        ((PLANTED[0][1], 0, "grande", "1"), SeatError),
    ],
)
def test_bad_input_raises_a_mus_error_naming_it(args, error):
    with pytest.raises(error):
        diagnose(*args)


def test_la_real_is_refused():
    with pytest.raises(RulesError, match="la real"):
        diagnose(PLANTED[0][1], 0, "grande", 0, Rules(la_real=True))


# ----- properties against the reference -----------------------------------------------------------------------


def _split(codes):
    return [list(codes[k : k + 4]) for k in (0, 4, 8, 12)]


CODES = [c.code for c in DECK]
full_deals = st.permutations(CODES).map(lambda p: _split(p[:16]))


@st.composite
def thin_deals(draw):
    """Deals from a deck thinned to 4-6 ranks: ties, quads, duples and equal totals are common."""
    ranks = draw(st.sets(st.sampled_from([1, 2, 3, 4, 5, 6, 7, 10, 11, 12]), min_size=4, max_size=6))
    cards = [c.code for c in DECK if c.rank in ranks]
    return _split(draw(st.permutations(cards))[:16])


deals = st.one_of(full_deals, thin_deals())
questions = st.tuples(deals, st.integers(0, 3), st.sampled_from(LANCES), st.sampled_from([0, 1, 2, 3, None]))


@settings(max_examples=400, deadline=None)
@given(questions)
def test_the_diagnosis_is_the_references_first_matching_tag(q):
    hands, mano, lance, answer = q
    d = diagnose(hands, mano, lance, answer)
    assert d.winner == ref_winner(hands, mano, lance)
    assert d.correct == (answer == d.winner)
    assert (d.mistake and d.mistake.value) == ref_tag(hands, mano, lance, answer)


@settings(max_examples=300, deadline=None)
@given(questions)
def test_a_tags_mistaken_rule_gives_the_answer_and_no_earlier_one_does(q):
    hands, mano, lance, answer = q
    d = diagnose(hands, mano, lance, answer)
    if d.mistake is None:
        if not d.correct:  # a slip: no mistaken rule gives this answer
            assert all(ref_winner(hands, mano, lance, t) != answer for t in TAGS)
        return
    assert ref_winner(hands, mano, lance) != answer
    if d.mistake is Mistake.TIE_NOT_TO_MANO and ref_ties(hands, mano, lance, answer):
        return  # the pick's hand equals the winner's: the tie, named first (it may sit between two tied seats)
    assert ref_winner(hands, mano, lance, d.mistake.value) == answer
    earlier = TAGS[: TAGS.index(d.mistake.value)]
    assert all(ref_winner(hands, mano, lance, t) != answer for t in earlier)


@settings(max_examples=300, deadline=None)
@given(deals, st.integers(0, 3), st.sampled_from(LANCES))
def test_a_right_answer_never_gets_a_tag(hands, mano, lance):
    winner = ref_winner(hands, mano, lance)
    d = diagnose(hands, mano, lance, winner)
    assert (d.correct, d.mistake, d.why_not) == (True, None, None)


@settings(max_examples=200, deadline=None)
@given(questions)
def test_the_sentences_use_the_lessons_notation(q):
    hands, mano, lance, answer = q
    d = diagnose(hands, mano, lance, answer)
    assert d.explanation.endswith(".") and "\n" not in d.explanation
    assert not RAW_CODE.search(d.explanation)
    assert (d.why_not is None) == (d.correct or answer is None)
    if d.why_not is not None:
        assert d.why_not.endswith(".") and not RAW_CODE.search(d.why_not)


@settings(max_examples=150, deadline=None)
@given(questions)
def test_four_reyes_matches_the_reference_too(q):
    hands, mano, lance, answer = q
    d = diagnose(hands, mano, lance, answer, Rules(kings=4))
    assert d.winner == ref_winner(hands, mano, lance, None, 4)
    assert (d.mistake and d.mistake.value) == ref_tag(hands, mano, lance, answer, 4)
    assert d.mistake not in (Mistake.THREE_IS_NOT_KING, Mistake.TWO_IS_NOT_ACE)
