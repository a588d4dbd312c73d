"""One diagnosis for every quiz (issue 23, item 3): a who-wins answer gets, in the widget, exactly what
``musteach grade`` and the batch path say; every other quiz kind gets tags of its own, kept with the answer,
naming the real mistake; the hint goes under the diagnosis, never in its place."""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import tempfile
from pathlib import Path

import musteach_widgets as mw
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musteach.cli import main
from musteach.rules import Rules
from musteach.rules.batch import deals_to_array
from musteach.rules.betting import BettingOutcome
from musteach.rules.cards import DECK
from musteach.rules.lances import LANCES, evaluate
from musteach.teach.diagnosis import Mistake, diagnose
from musteach.teach.diagnosis_batch import diagnose_batch
from musteach.teach.mistakes import (
    SLIP,
    JugadaMistake,
    OddsMistake,
    RankMistake,
    SenaMistake,
    TotalMistake,
    diagnose_answer,
)
from musteach.teach.quiz import hand_question, lance_question, rank_question
from musteach.teach.senas_quiz import fit_question, meaning_question
from musteach.teach.session import QuizSession, Turn
from musteach.teach.tutor import RETRY_TIPS
from musteach.teach.why_wrong import BettingMistake, betting_mistake

CODES = [c.code for c in DECK]


def _split(cards: list[str]) -> list[list[str]]:
    return [cards[4 * s : 4 * s + 4] for s in range(4)]


@st.composite
def thin_deals(draw):
    """Deals from a deck thinned to 4-6 ranks: ties (and 3s and 2s among them) are common."""
    ranks = draw(st.sets(st.sampled_from([1, 2, 3, 4, 5, 6, 7, 10, 11, 12]), min_size=4, max_size=6))
    cards = [c.code for c in DECK if c.rank in ranks]
    return _split(draw(st.permutations(cards))[:16])


deals = st.one_of(st.permutations(CODES).map(lambda p: _split(p[:16])), thin_deals())


@st.composite
def wrong_picks(draw):
    """A deal, its mano, a lance, and a wrong answer to "who wins it?" (a seat, or None for nobody)."""
    hands, mano, lance = draw(deals), draw(st.integers(0, 3)), draw(st.sampled_from(LANCES))
    winner = evaluate(hands, mano)[lance].winner
    pick = draw(st.sampled_from([s for s in (0, 1, 2, 3, None) if s != winner]))
    return hands, mano, lance, pick


def grade_command(cases: list[tuple]) -> list[dict]:
    """What ``musteach grade`` writes for these cases, one dict per line."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "answers.jsonl"
        lines = [json.dumps({"hands": h, "mano": m, "lance": lc, "answer": a}) for h, m, lc, a in cases]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["grade", str(path)]) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def asked_in_a_quiz(hands, mano, lance, pick) -> bool:
    """True when a lance quiz can ask this question with this pick among its buttons (Punto is asked only
    where it is played; Grande and Chica have no "Nobody" button)."""
    from musteach.teach.quiz import QuizError

    try:
        q = lance_question(hands, mano, lance)
    except QuizError:
        return False
    return any(v == pick and type(v) is type(pick) for v, _ in q.choices)


def widget_says(hands, mano, lance, pick, tries: int) -> tuple[str, str | None, str]:
    """The feedback a LanceQuiz shows after ``pick`` (a second wrong pick too with two tries), the tag it keeps
    with the answer, and its retry message (``""`` with one try)."""
    quiz = mw.LanceQuiz(lance, questions=[lance_question(hands, mano, lance)], tries=tries)
    assert not quiz.errors
    retry = ""
    quiz.button_for(pick).click()
    if tries == 2:
        retry = html.unescape(quiz.feedback.value)
        other = next(v for v, _ in quiz.question.choices if v != pick and v != quiz.question.answer)
        quiz.button_for(other).click()
    assert not quiz.errors and quiz.session.is_answered
    (first_tag, *_rest) = quiz.session.turn.attempt.diagnoses
    return html.unescape(quiz.feedback.value), first_tag, retry


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(wrong_picks(), min_size=1, max_size=8))
def test_the_widget_grade_and_the_batch_path_agree_on_every_wrong_pick(cases):
    lines = grade_command(cases)
    arr = deals_to_array([h for h, *_ in cases])
    batch = diagnose_batch(
        arr,
        np.array([m for _, m, _, _ in cases]),
        np.array([LANCES.index(lc) for _, _, lc, _ in cases]),
        np.array([-1 if a is None else a for *_, a in cases]),
    )
    for i, (hands, mano, lance, pick) in enumerate(cases):
        d = diagnose(hands, mano, lance, pick)
        tag = SLIP if d.mistake is None else d.mistake.value
        line = lines[i]
        assert line == d.to_dict()
        assert (batch.mistakes()[i], batch.explanation[i]) == (d.mistake, d.explanation)
        if asked_in_a_quiz(hands, mano, lance, pick):
            shown, kept, _ = widget_says(hands, mano, lance, pick, tries=1)
            assert d.explanation in shown and kept == tag
        if pick is not None and d.winner is not None and _same_standing(hands, mano, lance, pick, d.winner):
            assert d.mistake is Mistake.TIE_NOT_TO_MANO  # the tie, whatever else would explain the pick


def _same_standing(hands, mano, lance, a, b) -> bool:
    from musteach.rules.lances import Lance, analyse

    ia, ib = analyse(hands[a]), analyse(hands[b])
    the = Lance.parse(lance)
    if the is Lance.PUNTO:
        return not ia.is_juego and ia.total == ib.total
    return bool(ia.key(the)) and ia.key(the) == ib.key(the)


@settings(max_examples=150, deadline=None)
@given(deals, st.integers(0, 3), st.sampled_from(LANCES))
def test_a_pick_tied_with_the_winner_but_farther_from_mano_is_the_tie(hands, mano, lance):
    winner = evaluate(hands, mano)[lance].winner
    tied = [s for s in range(4) if s != winner and winner is not None and _same_standing(hands, mano, lance, s, winner)]
    for pick in tied:
        d = diagnose(hands, mano, lance, pick)
        assert d.mistake is Mistake.TIE_NOT_TO_MANO, (hands, mano, lance, pick, d.explanation)
        assert "as if a tie went to the seat farther from mano" in d.explanation
        (line,) = grade_command([(hands, mano, lance, pick)])
        assert line["mistake"] == "tie_not_to_mano"
        b = diagnose_batch(deals_to_array([hands]), mano, np.array([LANCES.index(lance)]), np.array([pick]))
        assert b.mistakes() == [Mistake.TIE_NOT_TO_MANO]


def test_lesson_02_question_1_in_the_widget_names_the_tie_before_and_after_the_second_try():
    hands = ["2o 7b 3o 12c", "1c 4c 5c 6c", "10o 11o 5e 6e", "3b 7o 2b 3c"]
    shown, kept, retry = widget_says(hands, 2, "grande", 0, tries=2)
    assert kept == "tie_not_to_mano"
    assert "An exact tie goes to the tied seat nearer mano" in retry and "Careful with the 3s" not in retry
    assert "Careful with the 3s" not in shown


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wrong_picks())
def test_the_retry_tip_is_the_one_of_grades_mistake(case):
    hands, mano, lance, pick = case
    if not asked_in_a_quiz(hands, mano, lance, pick) or len(lance_question(hands, mano, lance).choices) < 3:
        return
    _shown, kept, retry = widget_says(hands, mano, lance, pick, tries=2)
    d = diagnose(hands, mano, lance, pick)
    assert kept == (SLIP if d.mistake is None else d.mistake.value)
    if d.mistake is not None:
        assert html.unescape(RETRY_TIPS[d.mistake]) in retry


# ----- the hint goes under the diagnosis ---------------------------------------------------------------------


def test_the_hint_is_shown_under_the_diagnosis_never_in_its_place():
    deal = ["3o 3c 7e 4b", "12c 11o 7c 6e", "1o 5c 6o 10e", "4c 5e 6c 7o"]
    quiz = mw.LanceQuiz("grande", questions=[lance_question(deal, 0, "grande")])
    quiz.button_for(1).click()
    before = html.unescape(quiz.feedback.value)
    assert "Careful with the 3s" in before
    quiz.hint_button.click()
    after = html.unescape(quiz.feedback.value)
    assert "Careful with the 3s" in after and "Hint 1 of 2" in after
    assert after.index("Careful with the 3s") < after.index("Hint 1 of 2")


def test_the_hint_stays_under_the_diagnosis_in_practice_too():
    quiz = mw.PracticeQuiz(n=2, skills=["grande"], seed=5, store="memory")
    q = quiz.question
    wrong = next(s for s in range(4) if s != q.answer)
    quiz.answer_controls[wrong].click()
    tip = html.unescape(quiz.feedback.value)
    assert "One more try." in tip
    quiz.hint_button.click()
    after = html.unescape(quiz.feedback.value)
    assert "One more try." in after and "Hint 1 of 2" in after
    assert after.index("One more try.") < after.index("Hint 1 of 2")


# ----- the other quiz kinds: tags of their own, the real mistake ---------------------------------------------


def tags(question, given) -> tuple[str, ...]:
    found = diagnose_answer(question, given)
    assert found is not None and found.text
    return found.tags


def test_both_the_3_and_the_2_miscounted_in_a_total():
    q = hand_question("12o 7c 3e 2b", "juego_total")  # R-R-7-A: 10 + 10 + 7 + 1 = 28
    assert tags(q, 22) == (TotalMistake.THREE_AT_FACE, TotalMistake.TWO_AT_FACE)  # 10 + 7 + 3 + 2
    assert tags(q, 21) == (TotalMistake.THREE_AT_FACE,)  # 10 + 7 + 3 + 1
    assert tags(q, 29) == (TotalMistake.TWO_AT_FACE,)  # 10 + 7 + 10 + 2
    assert tags(q, 30) == (TotalMistake.FIGURES_BY_NUMBER,)  # 12 + 7 + 10 + 1
    assert tags(q, 18) == (TotalMistake.CARD_LEFT_OUT,)  # a king left out
    assert tags(q, 35) == (TotalMistake.CARD_TWICE,)  # the 7 twice
    assert tags(q, 33) == (SLIP,)
    text = diagnose_answer(q, 22).text  # type: ignore[union-attr]
    assert "a 3 was taken as a 3 and a 2 as a 2" in text and "Add the four cards again" not in text
    assert diagnose_answer(q, 28) is None


def test_a_total_in_4_reyes_names_the_8_reyes_habit():
    q = hand_question("12o 7c 3e 2b", "punto_total", Rules(kings=4))  # 10 + 7 + 3 + 2 = 22
    assert tags(q, 29) == (TotalMistake.THREE_AS_KING,)
    assert tags(q, 28) == (TotalMistake.THREE_AS_KING, TotalMistake.TWO_AS_ACE)


@pytest.mark.parametrize(
    ("hand", "given", "expected"),
    [
        ("12o 3c 5e 6b", "none", (JugadaMistake.THREE_AT_FACE,)),  # R-R-6-5 is a par in 8 reyes
        ("1o 2c 12e 12b", "par", (JugadaMistake.TWO_AT_FACE,)),  # R-R-A-A is duples: the 2 read at face
        ("12o 11c 5e 6b", "par", (JugadaMistake.FIGURES_AS_ONE,)),  # R-C-6-5 holds no pair
        ("5o 5c 5e 5b", "medias", (JugadaMistake.QUADS_AS_MEDIAS,)),
        ("5o 5c 5e 6b", "duples", (JugadaMistake.JUGADA_NAMES,)),
        ("5o 5c 7e 6b", "none", (JugadaMistake.PARES_NOT_SEEN,)),
        ("7o 5c 4e 6b", "medias", (JugadaMistake.PARES_NOT_THERE,)),
    ],
)
def test_a_jugada_names_the_real_mistake(hand, given, expected):
    assert tags(hand_question(hand, "jugada"), given) == expected


def test_a_card_order_names_the_misread_card():
    q = rank_question("12c 3e 5b 1o")  # R = 3 > 5 > A in 8 reyes
    assert tags(q, ["12c", "5b", "3e", "1o"]) == (RankMistake.THREE_AT_FACE,)
    assert tags(q, ["1o", "12c", "3e", "5b"]) == (RankMistake.ACE_HIGH,)
    assert tags(rank_question("10c 11e 12b 4o"), ["10c", "11e", "12b", "4o"]) == (RankMistake.FIGURES_ORDER,)


def test_betting_tags_name_each_case():
    refused = BettingOutcome.from_dict({"type": "rejected", "stakes": [2, 5], "winner_team": "B"})
    exp = {"A": 0, "B": 2}
    assert betting_mistake(refused, exp, exp) is None
    assert betting_mistake(refused, exp, {"A": 2, "B": 0}) is BettingMistake.DEJE_TO_REFUSERS
    assert betting_mistake(refused, exp, {"A": 0, "B": 5}) is BettingMistake.REFUSED_BET_PAID
    assert betting_mistake(refused, exp, {"A": 0, "B": 0}) is BettingMistake.DEJE_FORGOTTEN
    assert betting_mistake(refused, exp, {"A": 0, "B": 3}) is BettingMistake.DEJE_MISCOUNTED
    accepted = BettingOutcome.from_dict({"type": "accepted", "stakes": [2, 4]})
    assert betting_mistake(accepted, {"A": 0, "B": 0}, {"A": 4, "B": 0}) is BettingMistake.ACCEPTED_PAID_NOW
    paso = BettingOutcome.from_dict({"type": "paso"})
    assert betting_mistake(paso, {"A": 0, "B": 0}, {"A": 1, "B": 0}) is BettingMistake.PASO_PAID_NOW


def test_count_betting_senas_mus_and_odds_answers_are_tagged_and_kept():
    from musteach.teach.count_quiz import betting_question, count_question
    from musteach.teach.mus_quiz import discard_question
    from musteach.teach.odds_quiz import odds_question

    questions = [
        betting_question(3),
        count_question(4),
        fit_question("12o 10o 10c 10e"),
        meaning_question("guino"),
        discard_question("12o 11c 6e 4b", aim="grande"),
        odds_question("12o 3c 11e 1b", seat=0, mano=0, lance="grande"),
    ]
    for q in questions:
        turn = Turn(q, tries=1)
        wrong = _a_wrong_answer(q)
        verdict = turn.answer(wrong)
        assert not verdict.correct
        (tag,) = turn.attempt.diagnoses
        assert tag and tag == diagnose_answer(q, wrong).tag  # type: ignore[union-attr]


def _a_wrong_answer(q):
    choices = getattr(q, "choices", None)
    if choices:
        return next(v for v, _ in choices if not q.grade(v).correct)
    answer = q.answer
    if isinstance(next(iter(answer.values())), dict):  # the count: one stone too many in the first lance
        first = next(iter(answer))
        return {**answer, first: {**answer[first], "A": answer[first]["A"] + 1}}
    return {"A": answer["A"] + 1, "B": answer["B"]}


def test_odds_name_the_partner_left_out():
    q = odds_question_for_partner()
    if q is None:
        pytest.skip("no question whose hand alone falls in another band")  # pragma: no cover
    q, alone = q
    assert tags(q, alone) == (OddsMistake.PARTNER_LEFT_OUT,)


def odds_question_for_partner():
    from musteach.teach.odds_quiz import band_of, odds_question

    for hand in ("12o 3c 11e 1b", "7o 6c 5e 4b", "1o 2c 4e 5b", "12o 12c 10e 10b"):
        for lance in ("grande", "chica"):
            q = odds_question(hand, seat=0, mano=0, lance=lance)
            odds = q.odds[q.lance]  # type: ignore[index]
            alone = band_of(float(odds.you))
            if alone != q.answer:
                return q, alone
    return None


def test_senas_tags():
    q = fit_question("12o 10o 10c 10e")
    wrong = next(k for k, _ in q.choices if k != q.answer)
    assert tags(q, wrong)[0] in {m.value for m in SenaMistake}
    m = meaning_question("guino")
    wrong = next(k for k, _ in m.choices if k != m.answer)
    assert tags(m, wrong) == (SenaMistake.OTHER_MEANING,)


# ----- every wrong answer keeps its tag in the session ---------------------------------------------------------


def test_a_session_keeps_each_wrong_answers_tag_in_the_attempt():
    q = hand_question("12o 7c 3e 2b", "juego_total")
    s = QuizSession([q], n=1, tries=2)
    s.answer(22)
    s.answer(18)
    assert s.turn is not None and s.turn.attempt.diagnoses == ("three_is_not_king+two_is_not_ace", "card_left_out")
    assert re.search(r"one card was left out", s.verdict.reasons[0])  # type: ignore[union-attr]  # the last answer's


def test_both_the_3_and_the_2_misread_in_a_lance():
    """Seat 0 wins Chica only if seat 1's 3 and 2s are read at their face (as in 4 reyes): neither alone does it."""
    hands = [["3c", "6c", "1b", "1c"], ["2c", "2e", "2b", "3e"], ["3o", "6o", "2o", "7c"], ["1e", "1o", "6e", "7o"]]
    d = diagnose(hands, 0, "chica", 0)
    assert d.mistake is Mistake.THREE_AND_TWO_AT_FACE and d.mistake.value == "three_is_not_king+two_is_not_ace"
    assert "ranked below the 4" in d.explanation and "ranked above the aces" in d.explanation
    (line,) = grade_command([(hands, 0, "chica", 0)])
    assert line["mistake"] == "three_is_not_king+two_is_not_ace" and line["explanation"] == d.explanation


def test_count_tags_name_the_stake_and_the_jugadas_left_out():
    """Search count questions for lances where leaving out the accepted bet, or every jugada, gives a number no
    other reading gives: each is named (build the rule: any lance, any team)."""
    from musteach.rules.count import jugada_values
    from musteach.rules.lances import Lance
    from musteach.teach.count_quiz import count_question
    from musteach.teach.why_wrong import CountMistake, count_mistakes

    seen: set[CountMistake] = set()
    for seed in range(120):
        r = count_question(seed).result
        for lance in r.lances:
            o, exp = r.betting.get(lance.value), r.stones[lance.value]
            team = next((t for t in "AB" if exp[t] > 0), None)
            if team is None:
                continue
            tries = []
            bonuses = [v for _s, _j, v in jugada_values(r.deal, lance, team)] if lance in (Lance.PARES, Lance.JUEGO) else []
            if o is not None and o.type == "accepted" and o.stake and o.stake not in (*bonuses, sum(bonuses)):
                tries.append((CountMistake.STAKE_LEFT_OUT, exp[team] - o.stake))
                if lance in (Lance.GRANDE, Lance.CHICA):
                    tries.append((CountMistake.STAKE_AS_PASO, exp[team] - o.stake + 1))
            if lance in (Lance.PARES, Lance.JUEGO) and (o is None or o.type != "rejected"):
                held = [v for _s, _j, v in jugada_values(r.deal, lance, team)]
                if len(held) == 1 and (o is None or o.type != "accepted" or o.stake != held[0]):
                    tries.append((CountMistake.JUGADAS_LEFT_OUT, exp[team] - held[0]))
            for want, value in tries:
                given = {k: dict(v) for k, v in r.stones.items()}
                given[lance.value][team] = value
                assert count_mistakes(r, given)[lance] is want, (seed, lance, want)
                seen.add(want)
    assert seen == {CountMistake.STAKE_LEFT_OUT, CountMistake.STAKE_AS_PASO, CountMistake.JUGADAS_LEFT_OUT}


def test_every_question_kind_names_its_own_mistake() -> None:
    """Issue 24: the question kinds import mistakes (not the other way round), each naming its mistake through a
    ``diagnosis`` method that :func:`diagnose_answer` calls; a grade's steps are that diagnosis."""
    from musteach.teach.count_quiz import BettingQuestion, CountQuestion
    from musteach.teach.mistakes import Diagnosable
    from musteach.teach.mus_quiz import DiscardQuestion
    from musteach.teach.odds_quiz import OddsQuestion, odds_question
    from musteach.teach.quiz import Question
    from musteach.teach.senas_quiz import SenaQuestion

    for kind in (Question, BettingQuestion, CountQuestion, SenaQuestion, DiscardQuestion, OddsQuestion):
        assert issubclass(kind, Diagnosable), kind
    assert diagnose_answer(object(), 1) is None
    q = odds_question("12o 3c 11e 1b", seat=0, mano=0, lance="grande")
    found = q.diagnosis(1)
    assert found is not None and found == diagnose_answer(q, 1)
    assert q.grade(1).steps == (found.text, q.explanation)
