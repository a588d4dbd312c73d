"""The quiz widgets and DealView, driven by simulated clicks (musteach_widgets).

ipywidgets normally swallows an exception raised in a click handler (it only logs it). The autouse fixture
below makes the CallbackDispatcher call handlers directly, so such an exception fails the test, and it
fails any test that leaves a widget with recorded handler errors (``widget.errors``).
"""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
import musteach_widgets as mw
import pytest
from musteach_widgets import quiz as quiz_module

from musteach import Rules, evaluate
from musteach.teach.quiz import Kind, QuizError, Skill

pytestmark = pytest.mark.usefixtures("strict_widgets")

DEAL = ["12o 3c 7e 5b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 2b"]


def classes(w: widgets.DOMWidget) -> set[str]:
    return set(w._dom_classes)


def feedback_text(quiz) -> str:
    return quiz.feedback.value


def wrong_value(q):
    return next(v for v, _ in q.choices if not (type(v) is type(q.answer) and v == q.answer))


# ----------------------------------------------------------------------------------------------
# The mechanism itself
# ----------------------------------------------------------------------------------------------


def test_fixture_makes_a_failing_click_handler_fail_the_test():
    b = widgets.Button(description="boom")
    b.on_click(lambda _b: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        b.click()


def test_injected_exception_is_caught_recorded_and_shown_kindly(monkeypatch, strict_widgets):
    quiz = mw.LanceQuiz("grande", n=3, seed=1)
    quiz.button_for(quiz.question.answer).click()
    quiz.next_button.click()
    assert quiz.session.score_text() == "Score: 1/1 · streak 1"

    def broken(response):
        raise RuntimeError("injected failure")

    monkeypatch.setattr(quiz.session, "answer", broken)
    quiz.button_for(0).click()
    assert len(quiz.errors) == 1 and isinstance(quiz.errors[0], RuntimeError)
    assert html.escape(mw.FRIENDLY_ERROR) in feedback_text(quiz)
    assert "Traceback" not in feedback_text(quiz) and "injected" not in feedback_text(quiz)
    assert quiz.score.value == html.escape("Score: 1/1 · streak 1"), "the score is kept"
    assert not quiz.next_button.disabled
    assert all(b.disabled for b in quiz.answer_buttons)
    monkeypatch.undo()
    # the fixture would fail this test on the recorded error: prove it, then clear it
    assert strict_widgets and any(w.errors for w in strict_widgets)
    quiz.errors.clear()
    quiz.next_button.click()  # Next goes on with a fresh question; the broken one is skipped, not scored
    assert quiz.session.skipped == 1 and quiz.session.answered == 1
    quiz.button_for(quiz.question.answer).click()
    assert quiz.session.score_text() == "Score: 2/2 · streak 2"


def test_a_failing_first_question_shows_a_message_and_next_retries(monkeypatch):
    calls = {"n": 0}
    real = quiz_module.QuestionGenerator.next

    def flaky(self):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("no question")
        return real(self)

    monkeypatch.setattr(quiz_module.QuestionGenerator, "next", flaky)
    quiz = mw.JugadaQuiz(seed=2)
    assert html.escape(mw.FRIENDLY_ERROR) in feedback_text(quiz) and len(quiz.errors) == 1
    quiz.errors.clear()
    quiz.next_button.click()
    assert quiz.question is not None and quiz.answer_buttons
    assert quiz.errors == []


# ----------------------------------------------------------------------------------------------
# LanceQuiz
# ----------------------------------------------------------------------------------------------


def test_lance_quiz_layout_and_controls():
    quiz = mw.LanceQuiz("pares", n=4, seed=3)
    assert "musteach-quiz" in classes(quiz)
    assert "musteach-feedback" in classes(quiz.feedback) and "musteach-score" in classes(quiz.score)
    assert "musteach-next" in classes(quiz.next_button)
    q = quiz.question
    assert q.skill is Skill.PARES and html.escape(q.prompt) == quiz.prompt.value
    buttons = quiz.answer_buttons
    assert [b.description for b in buttons] == ["Seat 0", "Seat 1", "Seat 2", "Seat 3", "Nobody"]
    for i, b in enumerate(buttons[:4]):
        assert isinstance(b, widgets.Button) and {"musteach-answer", f"musteach-seat-{i}"} <= classes(b)
        assert b.tooltip == f"Answer that seat {i} wins Pares"
    assert {"musteach-answer", "musteach-answer-nobody"} <= classes(buttons[4])
    assert buttons[4].tooltip == "Answer that nobody holds pares"
    assert 'class="musteach-table"' in quiz.picture.value
    hands = "|".join(" ".join(h.codes()) for h in q.hands)
    assert f'data-hands="{hands}"' in quiz.picture.value
    assert f'data-mano="{q.mano}"' in quiz.picture.value
    assert quiz.next_button.disabled and quiz.score.value == html.escape("Score: 0/0 · streak 0")


@pytest.mark.parametrize("lance", ["grande", "chica", "punto"])
def test_lance_quiz_has_no_nobody_button_where_someone_always_wins(lance):
    quiz = mw.LanceQuiz(lance, n=2, seed=4)
    assert [b.description for b in quiz.answer_buttons] == ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]


def test_answer_right_by_click():
    quiz = mw.LanceQuiz("grande", n=5, seed=5)
    q = quiz.question
    expected = evaluate(q.hands, q.mano).grande
    quiz.button_for(expected.winner).click()
    fb = feedback_text(quiz)
    assert "Right!" in fb and html.escape(expected.explanation) in fb
    assert "musteach-right" in fb
    assert quiz.score.value == html.escape("Score: 1/1 · streak 1")
    winner_button = quiz.button_for(expected.winner)
    assert winner_button.button_style == "success" and "musteach-correct" in classes(winner_button)
    assert all(b.disabled for b in quiz.answer_buttons)
    assert not quiz.next_button.disabled
    # the winning seat is highlighted on the re-drawn table
    assert re.search(rf'data-seat="{expected.winner}"[^>]*data-highlight="true"', quiz.picture.value)
    assert len(re.findall(r'data-highlight="true"', quiz.picture.value)) == 1


def test_answer_wrong_by_click():
    quiz = mw.LanceQuiz("chica", n=5, seed=6, tries=1)
    q = quiz.question
    expected = evaluate(q.hands, q.mano).chica
    wrong = (expected.winner + 1) % 4
    quiz.button_for(wrong).click()
    fb = feedback_text(quiz)
    assert html.escape(f"Not quite: seat {expected.winner} wins Chica.") in fb
    assert html.escape(expected.explanation) in fb and "musteach-wrong" in fb
    assert quiz.score.value == html.escape("Score: 0/1 · streak 0")
    assert quiz.button_for(wrong).button_style == "danger"
    assert quiz.button_for(expected.winner).button_style == "success"
    assert re.search(rf'data-seat="{expected.winner}"[^>]*data-highlight="true"', quiz.picture.value)


def test_second_click_on_an_answered_question_is_ignored():
    quiz = mw.LanceQuiz("grande", n=5, seed=7)
    q = quiz.question
    quiz.button_for(q.answer).click()
    before = (quiz.feedback.value, quiz.score.value)
    quiz.button_for((q.answer + 1) % 4).click()
    assert (quiz.feedback.value, quiz.score.value) == before
    assert quiz.session.answered == 1


def test_next_advances_and_the_run_finishes_then_starts_again():
    quiz = mw.LanceQuiz(None, n=3, seed=8, tries=1)
    seen = []
    for i in range(3):
        q = quiz.question
        seen.append(q)
        assert quiz.progress.value == f"Question {i + 1} of 3"
        assert quiz.feedback.value == "" and all(not b.disabled for b in quiz.answer_buttons)
        assert quiz.next_button.disabled
        value = q.answer if i != 1 else wrong_value(q)
        quiz.button_for(value).click()
        if i < 2:
            quiz.next_button.click()
            assert quiz.question is not q
    assert quiz.session.finished
    fb = feedback_text(quiz)
    assert "musteach-finished" in fb and html.escape("Finished: 2 of 3 right (67%)") in fb
    assert quiz.next_button.layout.display == "none" and quiz.restart_button.layout.display != "none"
    assert quiz.score.value == html.escape("Score: 2/3 · streak 1")
    quiz.next_button.click()  # hidden, and does nothing if pressed anyway
    assert quiz.session.finished
    quiz.restart_button.click()
    assert quiz.score.value == html.escape("Score: 0/0 · streak 0")
    assert quiz.progress.value == "Question 1 of 3" and quiz.question not in seen
    assert quiz.restart_button.layout.display == "none" and quiz.next_button.layout.display != "none"


def test_mixed_lances_and_seeded_runs_are_reproducible():
    a = mw.LanceQuiz(n=10, seed=9)
    b = mw.LanceQuiz(n=10, seed=9)
    lances = set()
    for _ in range(8):
        assert a.question.prompt == b.question.prompt and a.question.hands == b.question.hands
        lances.add(a.question.lance)
        for quiz in (a, b):
            quiz.button_for(quiz.question.answer).click()
            quiz.next_button.click()
    assert len(lances) >= 3


def test_lance_quiz_kinds_option():
    quiz = mw.LanceQuiz("juego", n=3, seed=10, kinds=["31_vs_40"], instructive_share=1.0, tries=1)
    q = quiz.question
    assert q.kind is Kind.THIRTY_ONE_VS_FORTY
    totals = sorted(i.total for i in q.result.infos)
    assert 31 in totals and 40 in totals
    quiz.button_for(None).click()
    assert html.escape(f"Not quite: seat {q.answer} wins Juego.") in feedback_text(quiz)


def test_lance_quiz_4_reyes():
    quiz = mw.LanceQuiz("pares", n=2, seed=11, rules=Rules(kings=4))
    q = quiz.question
    assert q.rules.kings == 4 and "4 reyes" in quiz.prompt.value
    assert q.answer == evaluate(q.hands, q.mano, Rules(kings=4)).pares.winner


def test_a_fixed_list_of_questions():
    from musteach.teach.quiz import hand_question, lance_question, rank_question

    qs = [lance_question(DEAL, 0, "grande"), lance_question(DEAL, 1, "pares")]
    quiz = mw.LanceQuiz(n=5, questions=qs, title="Two examples", tries=1)
    assert quiz.n == 2 and quiz.question is qs[0] and quiz.title.value == "Two examples"
    quiz.button_for(0).click()
    assert "Right!" in feedback_text(quiz)
    quiz.next_button.click()
    assert quiz.question is qs[1]
    quiz.button_for(None).click()
    assert quiz.session.finished and quiz.score.value == html.escape("Score: 1/2 · streak 0")
    quiz.restart_button.click()
    assert quiz.question is qs[0] and quiz.session.answered == 0
    with pytest.raises(QuizError, match="jugada"):
        mw.LanceQuiz(questions=[hand_question("12o 3c 7e 5b")], tries=1)
    rank = mw.RankQuiz(questions=[rank_question("1o 3c 12b 7e")], tries=1)
    assert {b.description for b in rank.answer_buttons} == {
        "As de oros",
        "Tres de copas",
        "Rey de bastos",
        "Siete de espadas",
    }


def test_bad_options_raise_at_once():
    from musteach.rules.errors import MusError

    with pytest.raises(MusError, match="envido"):
        mw.LanceQuiz("envido")
    with pytest.raises(MusError, match="not a lance"):
        mw.LanceQuiz(["grande", "jugada"])
    with pytest.raises(MusError):
        mw.LanceQuiz("grande", n=0)
    with pytest.raises(MusError, match="kind"):
        mw.TotalQuiz(kind="envido")


# ----------------------------------------------------------------------------------------------
# JugadaQuiz, TotalQuiz, RankQuiz
# ----------------------------------------------------------------------------------------------


def test_jugada_quiz_right_and_wrong():
    quiz = mw.JugadaQuiz(n=3, seed=12, tries=1)
    assert [b.description for b in quiz.answer_buttons] == [
        "Par (one pair)",
        "Medias (three of a kind)",
        "Duples (two pairs)",
        "No pares",
    ]
    assert all({"musteach-answer", f"musteach-answer-{v}"} <= classes(quiz.button_for(v)) for v in ("par", "none"))
    assert 'class="musteach-hand"' in quiz.picture.value
    q = quiz.question
    quiz.button_for(q.answer).click()
    assert "Right!" in feedback_text(quiz) and html.escape(q.explanation) in feedback_text(quiz)
    quiz.next_button.click()
    q = quiz.question
    quiz.button_for(wrong_value(q)).click()
    assert "Not quite: it " in feedback_text(quiz)
    assert quiz.score.value == html.escape("Score: 1/2 · streak 0")


def test_total_quiz_entry_with_a_typo_then_right():
    quiz = mw.TotalQuiz("juego", n=2, seed=13)
    assert isinstance(quiz.total_input, widgets.Text) and isinstance(quiz.check_button, widgets.Button)
    assert "musteach-check" in classes(quiz.check_button)
    q = quiz.question
    quiz.total_input.value = "forty"
    quiz.check_button.click()
    fb = feedback_text(quiz)
    assert "musteach-hint" in fb and "forty" in fb
    assert quiz.session.answered == 0 and quiz.score.value == html.escape("Score: 0/0 · streak 0")
    quiz.total_input.value = "45"
    quiz.check_button.click()
    assert "between 4 and 40" in feedback_text(quiz) and quiz.session.answered == 0
    quiz.total_input.value = f" {q.answer} "
    quiz.check_button.click()
    assert "Right!" in feedback_text(quiz) and html.escape(q.explanation) in feedback_text(quiz)
    assert quiz.total_input.disabled and quiz.check_button.disabled
    assert quiz.score.value == html.escape("Score: 1/1 · streak 1")


def test_total_quiz_punto_with_choices():
    quiz = mw.TotalQuiz("punto", n=2, seed=14, mode="choices", tries=1)
    q = quiz.question
    assert q.skill is Skill.PUNTO_TOTAL and q.answer <= 30
    assert [b.description for b in quiz.answer_buttons] == [str(v) for v, _ in q.choices]
    wrong = wrong_value(q)
    quiz.button_for(wrong).click()
    # a total one point off is close; further off is not (musteach.teach.quiz.Question.verdict)
    start = "Close, but not quite" if abs(wrong - q.answer) == 1 else "Not quite"
    assert html.escape(f"{start}: the punto is {q.answer}.") in feedback_text(quiz)
    assert "musteach-correct" in classes(quiz.button_for(q.answer))


def test_rank_quiz_place_undo_check():
    quiz = mw.RankQuiz(n=2, seed=15, tries=1)
    q = quiz.question
    assert all(isinstance(b, widgets.Button) for b in quiz.answer_buttons)
    assert {f"musteach-card-{c.code}" for c in q.cards} <= set().union(*(classes(b) for b in quiz.answer_buttons))
    assert quiz.check_button.disabled and quiz.undo_button.disabled
    rest = q.answer[1:]
    quiz.button_for(rest[0]).click()
    assert quiz.order == [rest[0]] and quiz.button_for(rest[0]).disabled
    quiz.undo_button.click()
    assert quiz.order == [] and not quiz.button_for(rest[0]).disabled
    for c in q.answer:
        quiz.button_for(c).click()
    assert not quiz.check_button.disabled
    assert html.escape(q.answer[0].name) in quiz.order_view.value
    quiz.check_button.click()
    assert "Right!" in feedback_text(quiz) and html.escape(q.explanation) in feedback_text(quiz)
    assert quiz.check_button.button_style == "success"
    quiz.next_button.click()
    q = quiz.question
    assert quiz.order == [] and quiz.check_button.disabled
    worst_first = sorted(q.cards, key=lambda c: q.answer.index(c), reverse=True)
    for c in worst_first:
        quiz.button_for(c).click()
    quiz.check_button.click()
    assert not quiz.session.verdict.correct or len({c.rank for c in q.cards}) == 1
    assert "Not quite: high to low is" in feedback_text(quiz)


def walk(w):
    yield w
    for child in getattr(w, "children", ()):
        yield from walk(child)


@pytest.mark.parametrize(
    "make",
    [
        lambda: mw.LanceQuiz("juego", seed=16),
        lambda: mw.JugadaQuiz(seed=16),
        lambda: mw.TotalQuiz("juego", seed=16),
        lambda: mw.TotalQuiz("punto", seed=16, mode="choices"),
        lambda: mw.RankQuiz(seed=16),
    ],
    ids=["lance", "jugada", "total", "punto-choices", "rank"],
)
def test_every_control_is_a_real_widget_with_a_label(make):
    """Keyboard use needs real ipywidgets controls (Tab, Enter, Space), never clickable raw HTML."""
    quiz = make()
    controls = [w for w in walk(quiz) if isinstance(w, widgets.Button | widgets.Text)]
    assert controls and quiz.next_button in controls and quiz.restart_button in controls
    for w in controls:
        assert w.description.strip(), "every control has a visible label"
        assert w.tooltip, f"{w.description} has a tooltip"
    for w in walk(quiz):
        if isinstance(w, widgets.HTML):
            assert "<button" not in w.value and "onclick" not in w.value.lower()


# ----------------------------------------------------------------------------------------------
# DealView
# ----------------------------------------------------------------------------------------------


def test_deal_view_switches_lances():
    view = mw.show_deal(DEAL, mano=0, lance="grande")
    result = evaluate(DEAL, 0)
    assert isinstance(view.picker, widgets.ToggleButtons)
    assert [v for _, v in view.picker.options] == ["all", "grande", "chica", "pares", "juego"]
    assert html.escape(result.grande.explanation) in view.explanation.value
    assert re.search(r'data-seat="0"[^>]*data-highlight="true"', view.picture.value)
    view.picker.value = "pares"
    assert html.escape(result.pares.explanation) in view.explanation.value
    assert re.search(rf'data-seat="{result.pares.winner}"[^>]*data-highlight="true"', view.picture.value)
    view.picker.value = "all"
    assert 'class="musteach-deal"' in view.picture.value and view.explanation.value == ""
    for r in result.results():
        assert html.escape(r.explanation) in view.picture.value


def test_deal_view_offers_punto_when_nobody_has_juego():
    hands = ["1o 2c 4e 5b", "1c 2e 4o 6b", "1e 2b 5o 6c", "1b 2o 4c 7e"]
    view = mw.DealView(hands, mano=2, lance="punto")
    assert [v for _, v in view.picker.options][-2:] == ["juego", "punto"]
    assert html.escape(evaluate(hands, 2).punto.explanation) in view.explanation.value


def test_deal_view_bad_deal_message_or_raise():
    from musteach.rules.errors import DuplicateCardError

    bad = ["12o 12o 7e 5b", *DEAL[1:]]
    view = mw.show_deal(bad, mano=0)
    assert isinstance(view.error, DuplicateCardError)
    assert "12o" in view.picture.value and "Traceback" not in view.picture.value
    with pytest.raises(DuplicateCardError):
        mw.DealView(bad, 0, strict=True)
