"""Hint and second-try wording a cold tester found wrong (issue 12, follow-up): no hint offered when none is
left, a second-try text that says something new, 2s and 3s read as aces and kings said aloud, a blank box that
uses no try, and a hint 2 that points at what decides without printing the answer. RULES.md §1, §5–§8.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musteach.rules.cards import DECK, Hand
from musteach.rules.lances import analyse, point_value
from musteach.rules.options import Rules
from musteach.teach.count_quiz import betting_question, count_question
from musteach.teach.errors import BlankAnswerError
from musteach.teach.hints import betting_hints, count_hints, hand_hints
from musteach.teach.quiz import QuestionGenerator, hand_question, lance_question
from musteach.teach.session import Turn
from musteach.teach.tutor import question_hints, retry_text

# A Grande deal where seat 2 is a plain slip: no misconception gives it (seat 3 wins, 10-10-10-7).
SLIP_DEAL = ["3o 6b 10e 2o", "1o 12c 5o 4e", "4o 6e 4b 5c", "7e 10o 10c 10b"]

hands = st.permutations(range(40)).map(lambda p: Hand([DECK[i] for i in p[:4]]))


# ----- 1. no hint offered once both are shown ----------------------------------------------------------


@pytest.mark.parametrize("hints", [0, 1, 2])
def test_a_slip_offers_a_hint_only_while_one_is_left(hints):
    q = lance_question(SLIP_DEAL, 1, "grande")
    turn = Turn(q)
    for _ in range(hints):
        turn.hint()
    text = turn.answer(2).explanation
    assert text.startswith("Look again at each hand") and text.endswith("One more try.")
    assert ("hint" in text) == (hints < 2)


# ----- 2. the second try says something new ------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), skill=st.sampled_from(["jugada", "juego_total", "punto_total", "rank_order"]))
def test_a_second_try_never_repeats_a_hint(seed, skill):
    q = QuestionGenerator([skill], seed=seed).next()
    wrong = next(v for v, _ in q.choices if not q.is_correct(v)) if skill != "rank_order" else q.answer[::-1]
    if q.is_correct(wrong):  # a row of equal ranks: every order is right
        return
    text = retry_text(q, wrong)
    for hint in question_hints(q):
        assert hint.text not in text
    if skill == "jugada":
        assert text.startswith(f"You picked {wrong}:")
    elif skill != "rank_order":
        assert text.startswith(f"{wrong} is too {'high' if wrong > q.answer else 'low'}.")
        assert str(q.answer) not in re.findall(r"\d+", text)
    else:
        assert text.startswith("You put ")


def test_a_total_retry_names_the_learners_slip():
    q = hand_question("12o 11c 3e 5b", "juego_total")  # 10 + 10 + 10 + 5 = 35
    assert "figures were counted by their number" in retry_text(q, 38)  # 12 + 11 + 10 + 5
    assert "a 3 was taken as a 3" in retry_text(q, 28)
    assert "one card was left out" in retry_text(q, 30)  # 35 without the 5
    assert "Add the four cards again" in retry_text(q, 33)


# ----- 3. 2s and 3s read as aces and kings, said aloud --------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "says"),
    [
        ("2o 2c 7e 5b", "The two 2s count as aces here (8 reyes), so they make a pair: A-A."),
        ("3o 12c 7e 5b", "The 3 counts as a king here (8 reyes), so it makes a pair with the king: R-R."),
        ("3o 3c 12e 5b", "The two 3s count as kings here (8 reyes), so they make medias with the king: R-R-R."),
        ("12o 12c 7e 7b", "These cards share a rank: R-R, 7-7."),
    ],
)
def test_jugada_hint_says_how_2s_and_3s_are_read(hand, says):
    assert hand_hints(hand, "jugada")[1].text == says


def test_in_4_reyes_a_2_is_a_2():
    assert hand_hints("2o 2c 7e 5b", "jugada", Rules(kings=4))[1].text == "These cards share a rank: 2-2."


@settings(max_examples=60, deadline=None)
@given(hand=hands)
def test_every_marked_2_or_3_is_explained(hand):
    step2 = hand_hints(hand, "jugada")[1]
    marked = [hand.cards[i] for m in step2.marks for i in m.cards] if analyse(hand).pares else []
    for face, as_ in ((2, "an ace"), (3, "a king")):
        n = sum(c.rank == face for c in marked)
        if n == 1:
            assert f"The {face} counts as {as_} here (8 reyes)" in step2.text
        elif n > 1:
            assert f"{face}s count as {as_.split()[1]}s here (8 reyes)" in step2.text


# ----- 4. a blank box uses no try -----------------------------------------------------------------------


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_a_blank_total_uses_no_try(blank):
    q = hand_question("5o 4c 1e 12b", "juego_total")
    turn = Turn(q)
    with pytest.raises(BlankAnswerError, match=r"^Type a number first\.$"):
        turn.answer(blank)
    assert turn.attempt.wrong == 0 and turn.retry is None and not turn.over
    assert turn.answer(21).explanation.endswith("One more try.")  # the first try is still there


# ----- 5. hint 2 points at what decides, without the figure --------------------------------------------


@pytest.mark.parametrize(
    ("hand", "says"),
    [
        ("5o 4c 1e 12b", "The marked card counts 10. Add 5 + 4 + 1 + 10."),
        ("12o 11c 1e 7b", "The marked cards count 10 each. Add 10 + 10 + 1 + 7."),
        ("5o 4c 1e 7b", "Add 5 + 4 + 1 + 7."),
    ],
)
def test_total_hint_says_what_to_add_in_the_singular_or_plural(hand, says):
    assert hand_hints(hand, "punto_total")[1].text == says


@settings(max_examples=60, deadline=None)
@given(hand=hands, kings=st.sampled_from([4, 8]))
def test_total_hint_never_prints_the_total(hand, kings):
    rules = Rules(kings=kings)
    step2 = hand_hints(hand, "juego_total", rules)[1]
    assert str(analyse(hand, rules).total) not in re.findall(r"\d+", step2.text)
    tens = {i for i in range(4) if point_value(hand.cards[i].rank, kings) == 10}
    assert {i for m in step2.marks for i in m.cards} == tens


@pytest.mark.parametrize("seed", range(12))
def test_betting_hint_prints_no_figure(seed):
    q = betting_question(seed)
    step2 = betting_hints(q.state)[1]
    assert not re.search(r"\d", step2.text), step2.text
    assert step2.total == max(q.answer.values())  # the figure stays data, for a picture


@pytest.mark.parametrize("seed", range(12))
def test_count_hint_names_the_holdings_not_their_stones(seed):
    q = count_question(seed)
    step2 = count_hints(q.deal)[1]
    assert not re.search(r"\(\d+\)", step2.text), step2.text
    for s, info in enumerate(q.deal.infos):
        if info.pares is not None:
            assert f"seat {s}: {info.pares.describe()}" in step2.text


def test_the_pares_lance_hint_says_when_a_3_or_a_2_is_read_as_a_king_or_an_ace():
    from musteach.teach.hints import lance_hints

    # seat 0: 3-12 is a pair of kings in 8 reyes; seat 1: 2-1 a pair of aces; the others hold no pair
    hands = ["3o 12c 7e 5b", "2o 1c 6e 4b", "7o 6c 5e 4e", "11o 10c 7c 6b"]
    step2 = lance_hints(hands, 0, "pares")[1]
    assert "a 3 counts as a king and a 2 counts as an ace" in step2.text
    assert "counts as" not in lance_hints(hands, 0, "pares", Rules(kings=4))[1].text
    plain = lance_hints(["12o 12c 7e 5b", "1o 1c 6e 4b", "7o 6c 5e 4e", "11o 10c 7c 6b"], 0, "pares")[1]
    assert "counts as" not in plain.text
