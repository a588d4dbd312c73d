"""The odds-reading questions (musteach.teach.odds_quiz): answers from the exact count, bands, grading, errors."""

from __future__ import annotations

import pytest

from musteach import Rules
from musteach.odds import hand_odds
from musteach.rules.errors import MusError
from musteach.teach.odds_quiz import (
    BAND_EDGES,
    BANDS,
    MARGIN,
    OddsQuestionGenerator,
    band_of,
    odds_question,
)
from musteach.teach.quiz import AnswerError, QuizError
from musteach.teach.session import QuizSession


@pytest.mark.parametrize("p, band", [(0, 0), (0.1999, 0), (0.2, 1), (0.5, 2), (0.6, 3), (0.8, 4), (1, 4)])
def test_band_of(p, band):
    assert band_of(p) == band


def test_band_of_refuses_non_probabilities():
    with pytest.raises(MusError):
        band_of(1.2)


@pytest.mark.parametrize("lance", ["grande", "chica", "pares", "juego", "punto"])
def test_question_answer_is_the_band_of_the_exact_odds(lance):
    q = odds_question("12o 7c 7e 4b", seat=3, mano=1, lance=lance)
    o = hand_odds("12o 7c 7e 4b", 3, 1)
    assert q.probability == float(o[lance].team)
    assert q.answer == band_of(o[lance].team)
    assert q.answer_text == dict(BANDS)[q.answer]
    assert q.explanation.startswith(o.explain(lance))
    assert lance.title() in q.prompt and "R-7-7-4" in q.prompt and "and speak third" in q.prompt


def test_grading_accepts_bands_and_labels_only():
    q = odds_question("12o 3c 11e 1b", 0, 0, "grande")
    assert q.grade(4).correct and q.grade("80% OR MORE").correct
    v = q.grade(1)
    assert not v.correct and v.headline == "Not quite: 80% or more." and v.expected == 4 and v.given == 1
    for bad in (5, -1, True, "often", None, 2.0):
        assert not q.can_answer(bad)
        with pytest.raises(AnswerError):
            q.grade(bad)


def test_four_reyes_questions_count_four_reyes():
    q = odds_question("12o 3c 11e 1b", 0, 0, "grande", Rules(kings=4))
    assert q.probability == float(hand_odds("12o 3c 11e 1b", rules=Rules(kings=4)).grande.team)
    assert "(4 reyes)" in q.prompt


def test_generator_is_reproducible_clear_of_edges_and_varied():
    a = [OddsQuestionGenerator(seed=11).next() for _ in range(1)]
    gen1, gen2 = OddsQuestionGenerator(seed=11), OddsQuestionGenerator(seed=11)
    qs = [gen1.next() for _ in range(12)]
    assert [q.prompt for q in qs] == [gen2.next().prompt for _ in range(12)]
    assert a[0].prompt == qs[0].prompt
    for q in qs:
        assert min(abs(q.probability - e) for e in BAND_EDGES) >= MARGIN
    assert len({q.answer for q in qs}) >= 3  # not every question lands in "20 to 40%"


def test_generator_respects_lances_and_feeds_a_session():
    gen = OddsQuestionGenerator(seed=2, lances=["juego"])
    s = QuizSession(gen, n=2)
    assert s.current.lance.value == "juego"
    s.answer(s.current.answer)
    s.next()
    s.answer((s.current.answer + 1) % 5)
    assert s.finished and s.right == 1


@pytest.mark.parametrize("kwargs", [{"lances": []}, {"margin": 0.5}, {"rules": "8"}])
def test_generator_refuses_bad_options(kwargs):
    with pytest.raises(QuizError):
        OddsQuestionGenerator(**kwargs)


def test_unknown_lance_is_named():
    with pytest.raises(MusError, match="envido"):
        odds_question("12o 3c 11e 1b", lance="envido")
