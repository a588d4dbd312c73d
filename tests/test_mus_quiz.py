"""The mus quiz (musteach.teach.mus_quiz): which cards to change, graded by the exact discard advisor (RULES.md §3)."""

from __future__ import annotations

import pytest

from musteach import Rules
from musteach.odds import advise_discard
from musteach.rules.errors import MusError
from musteach.rules.lances import effective_rank
from musteach.teach.mus_quiz import MARGINS, DiscardQuestionGenerator, discard_question, option_label
from musteach.teach.quiz import AnswerError, QuizError


def _ranks(codes: str) -> list[int]:
    from musteach.rules.cards import Card

    return sorted((effective_rank(Card.parse(c).rank, 8) for c in codes.split()), reverse=True)


def test_generated_questions_have_one_clearly_best_choice():
    gen = DiscardQuestionGenerator(seed=11, aims=("grande", "chica", "pares", "juego", "balanced"))
    aims = set()
    for _ in range(12):
        q = gen.next()
        aims.add(q.aim)
        keys = [k for k, _ in q.choices]
        assert len(keys) == 4 == len(set(keys))
        assert len({tuple(_ranks(k)) for k in keys}) == 4, "no two choices change the same ranks"
        margin = MARGINS["balanced" if q.aim == "balanced" else "lance"]
        best = q.scores[q.answer]
        assert all(best - q.scores[k] >= margin - 1e-9 for k in keys if k != q.answer)
        # the scores are the exact advisor's, and the best choice is the advisor's best for the aim
        advice = advise_discard(q.hand, q.seat, q.mano, q.rules, aim=q.aim)
        top = advice.best(q.aim)
        assert _ranks(" ".join(c.code for c in top.discard)) == _ranks(q.answer)
        assert best == pytest.approx(float(top.score(q.aim)))
        assert best >= float(advice.current_score(q.aim)), "changing is worth it: a player asked for mus"
        assert q.answer_text == option_label(top)
        assert q.position == 0, "mano by default"
    assert len(aims) >= 3


def test_grading_and_responses():
    q = discard_question("12o 11c 6e 4b", aim="grande", seed=1)  # R-C-6-4: keep R-C
    assert q.answer_text == "Change 6-4, keep R-C"
    assert q.grade(q.answer).correct and q.grade(q.answer_text.upper()).correct
    assert q.grade(["6c", "4o"]).correct, "the same ranks in other suits are the same choice"
    wrong = next(k for k, _ in q.choices if k != q.answer)
    v = q.grade(wrong)
    assert not v.correct and v.headline == "Not quite: Change 6-4, keep R-C."
    assert f"{q.scores[wrong]:.2f}" in v.explanation and f"{q.scores[q.answer]:.2f}" in v.explanation
    for bad in ("keep everything", ["12o"] * 0, ["9o"], 7):
        with pytest.raises(AnswerError):
            q.grade(bad)


def test_errors():
    with pytest.raises(QuizError, match="8 reyes"):
        DiscardQuestionGenerator(rules=Rules(kings=4))
    with pytest.raises(MusError, match="unknown aim"):
        DiscardQuestionGenerator(aims=("everything",))
    with pytest.raises(QuizError):
        DiscardQuestionGenerator(aims=())
    with pytest.raises(QuizError):
        DiscardQuestionGenerator(positions=(4,))
    with pytest.raises(MusError):
        discard_question("12o 12o 6e 4b")


def test_reproducible():
    a = [DiscardQuestionGenerator(seed=5).next().prompt for _ in range(1)]
    b = [DiscardQuestionGenerator(seed=5).next().prompt for _ in range(1)]
    assert a == b
