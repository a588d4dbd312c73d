"""The learning path in the widgets (issue 12, item 6): hint → second try → stars, results kept in the store
every quiz shares with lesson 11, a reopened quiz showing what was done, and the map of the lessons.

No browser: the widgets are driven through their buttons, as in test_widgets.py.
"""

from __future__ import annotations

import html
import re

import musteach_widgets as mw
import pytest

from musteach.rules.lances import evaluate
from musteach.teach.hints import Mark
from musteach.teach.path import LessonError
from musteach.teach.progress import FileStore, MemoryStore, Progress
from musteach.teach.tutor import question_hints

MARKED = re.compile(r'data-card="(\w+)" data-marked="true"')


def wrong_seat(q):
    return next(s for s in range(4) if s != q.answer and q.can_answer(s))


def text(widget) -> str:
    return html.unescape(widget.value)


def test_hint_then_second_try_then_stars():
    store = MemoryStore()
    quiz = mw.LanceQuiz("grande", n=2, seed=21, lesson="03-grande-chica", store=store)
    assert "Not finished yet" in text(quiz.best)
    q = quiz.question
    step1, step2 = question_hints(q)
    quiz.hint_button.click()
    assert "Hint 1 of 2:" in text(quiz.feedback) and step1.text in text(quiz.feedback)
    assert not MARKED.search(quiz.picture.value), "step 1 says what to compare; nothing is ringed yet"
    quiz.hint_button.click()
    assert step2.text in text(quiz.feedback) and quiz.hint_button.disabled
    ringed = set(MARKED.findall(quiz.picture.value))
    assert ringed == {q.hands[m.seat].cards[i].code for m in step2.marks for i in m.cards}
    # a wrong first answer: what led astray, one more try, the answer not shown
    wrong = wrong_seat(q)
    quiz.button_for(wrong).click()
    fb = text(quiz.feedback)
    assert "One more try." in fb and f"seat {q.answer} wins" not in fb
    assert quiz.button_for(wrong).disabled and quiz.button_for(wrong).button_style == "danger"
    assert not quiz.button_for(q.answer).disabled and quiz.button_for(q.answer).button_style == ""
    assert not quiz.session.is_answered
    quiz.button_for(q.answer).click()
    assert "Right!" in text(quiz.feedback) and quiz.session.points == [0.0]  # second try: no point (issue 23)
    quiz.next_button.click()
    quiz.button_for(quiz.question.answer).click()  # clean: a full point
    assert quiz.session.finished and quiz.session.points == [0.0, 1.0]
    assert "★★☆" in text(quiz.feedback) or "★☆☆" in text(quiz.feedback)
    saved = store.load()
    stars = quiz.session.stars
    assert saved.best_stars("03-grande-chica", "grande") == stars == 1  # 1 of 2 points
    assert saved.answered("grande") == 2 and saved.right("grande") == 1  # a second try is a lapse
    assert f"Your best here: {'★' * stars}" in text(quiz.best)
    # a reopened lesson shows what was done
    again = mw.LanceQuiz("grande", n=2, seed=22, lesson="03-grande-chica", store=store)
    assert "Your best here: ★☆☆ (1 run)" in text(again.best)


def test_two_wrong_answers_reveal_and_score_nothing():
    store = MemoryStore()
    quiz = mw.LanceQuiz("chica", n=1, seed=23, lesson="03-grande-chica", store=store)
    q = quiz.question
    others = [s for s in range(4) if s != q.answer]
    quiz.button_for(others[0]).click()
    quiz.button_for(others[1]).click()
    fb = text(quiz.feedback)
    winner = evaluate(q.hands, q.mano).chica.winner
    assert f"Not quite: seat {winner} wins Chica." in fb and quiz.button_for(q.answer).button_style == "success"
    assert quiz.session.points == [0.0] and quiz.session.stars == 0
    assert store.load().best_stars("03-grande-chica", "chica") == 0
    assert store.load().right("chica") == 0 and store.load().answered("chica") == 1


def test_the_diagnosis_names_the_misconception_after_a_final_wrong_answer():
    from musteach.teach.quiz import lance_question

    deal = ["3o 3c 7e 4b", "12c 11o 7c 6e", "1o 5c 6o 10e", "4c 5e 6c 7o"]
    quiz = mw.LanceQuiz("grande", questions=[lance_question(deal, 0, "grande")])
    quiz.button_for(1).click()
    assert "Careful with the 3s" in text(quiz.feedback)  # before the second try: the idea, not the answer
    quiz.button_for(2).click()
    fb = text(quiz.feedback)
    assert "You picked seat 2" in fb and "Seat 0 wins Grande" in fb


def test_betting_quiz_second_try_and_store():
    store = MemoryStore()
    quiz = mw.BettingQuiz(n=1, seed=5, lesson="06-betting", store=store)
    q = quiz.question
    quiz.hint_button.click()
    quiz.hint_button.click()
    assert quiz.hint_button.disabled and "Hint 2 of 2:" in text(quiz.feedback)
    quiz.stones_a.value, quiz.stones_b.value = str(q.answer["A"] + 3), str(q.answer["B"])
    quiz.check_button.click()
    fb = text(quiz.feedback)
    assert "One more try." in fb and not quiz.stones_a.disabled and not quiz.check_button.disabled
    quiz.stones_a.value = str(q.answer["A"])
    quiz.check_button.click()
    assert "Right!" in text(quiz.feedback) and quiz.session.finished
    assert store.load().best_stars("06-betting", "betting") == quiz.session.stars
    assert store.load().answered("betting") == 1, "the betting answers feed lesson 11's scheduler"


def test_count_quiz_hint_rings_the_hands_that_score():
    quiz = mw.CountQuiz(n=1, seed=14)
    q = quiz.question
    quiz.hint_button.click()
    quiz.hint_button.click()
    _, step2 = question_hints(q)
    ringed = set(MARKED.findall(quiz.picture.value))
    assert ringed == {q.hands[m.seat].cards[i].code for m in step2.marks for i in m.cards}


@pytest.mark.parametrize(
    "make",
    [
        lambda s: mw.JugadaQuiz(n=1, seed=3, lesson="04-pares", store=s),
        lambda s: mw.TotalQuiz("juego", n=1, seed=3, lesson="05-juego-punto", store=s),
        lambda s: mw.RankQuiz(n=1, seed=3, lesson="01-deck", store=s),
        lambda s: mw.SenaQuiz("meaning", n=1, seed=3, lesson="09-senas", store=s),
    ],
    ids=["jugada", "total", "rank", "senas"],
)
def test_every_quiz_kind_hints_and_records(make):
    store = MemoryStore()
    quiz = make(store)
    quiz.hint_button.click()
    quiz.hint_button.click()
    assert quiz.hint_button.disabled and not quiz.errors
    q = quiz.question
    if isinstance(quiz, mw.RankQuiz):
        for card in sorted(q.cards, key=lambda c: -__import__("musteach").rules.lances.effective_rank(c.rank, 8)):
            quiz.button_for(card).click()
        quiz.check_button.click()
    elif isinstance(quiz, mw.TotalQuiz):
        quiz.total_input.value = str(q.answer)
        quiz.check_button.click()
    else:
        quiz.button_for(q.answer).click()
    assert quiz.session.finished and quiz.session.points == [0.5] and not quiz.errors
    assert store.load().best_stars(quiz.lesson, quiz.quiz_name) == 1


def test_a_quiz_name_must_be_the_lessons():
    with pytest.raises(LessonError, match="no quiz 'grande'"):
        mw.LanceQuiz("grande", lesson="02-seats")
    quiz = mw.LanceQuiz("grande", lesson="02-seats", quiz="tie_to_mano", store="memory")
    assert quiz.quiz_name == "tie_to_mano"


def test_without_a_lesson_nothing_is_kept():
    quiz = mw.LanceQuiz("grande", n=1, seed=1)
    assert isinstance(quiz.store, MemoryStore) and quiz.best.layout.display == "none"


def test_map_shows_stars_done_and_continue_here_and_resets():
    p = Progress()
    p.record_run("01-deck", "rank_order", [1.0], 3)
    p.record_run("02-seats", "tie_to_mano", [0.5], 1)
    store = MemoryStore(p)
    m = mw.LessonMap(store=store)
    stops = dict(re.findall(r'data-lesson="([\w-]+)" data-stars="(\d)" data-done="\w+" data-here="true"', m.view.value))
    assert stops == {"03-grande-chica": "0"}
    assert 'data-lesson="01-deck" data-stars="3" data-done="true"' in m.view.value
    assert '<a class="musteach-continue" href="03-grande-chica.ipynb">' in m.view.value
    m.reset_button.click()
    assert m.confirm_button.layout.display is None and store.load().runs  # nothing lost before the confirmation
    m.confirm_button.click()
    assert store.load().runs == () and 'data-lesson="01-deck" data-stars="0" data-done="false"' in m.view.value


def test_map_in_jupyterlab_says_make_tutor_and_not_in_voila(monkeypatch):
    monkeypatch.delenv("VOILA_KERNEL_ID", raising=False)
    assert "make tutor" in text(mw.LessonMap(store="memory").note)
    monkeypatch.setenv("VOILA_KERNEL_ID", "abc")
    assert "make tutor" not in text(mw.LessonMap(store="memory").note)


def test_stars_survive_a_kernel_restart_through_the_file(tmp_path):
    path = tmp_path / "progress.json"
    quiz = mw.LanceQuiz("punto", n=1, seed=2, lesson="05-juego-punto", store="file", path=str(path))
    quiz.button_for(quiz.question.answer).click()
    assert path.exists()
    # a new kernel: new widgets reading the same file
    assert FileStore(path).load().best_stars("05-juego-punto", "punto") == 3
    m = mw.LessonMap(store="file", path=str(path))
    assert 'data-lesson="05-juego-punto" data-stars="0"' in m.view.value  # juego and totals not finished yet
    assert "Punto 3 stars (1 run)" in text(m.view)
    again = mw.LanceQuiz("punto", n=1, seed=3, lesson="05-juego-punto", store="file", path=str(path))
    assert "Your best here: ★★★ (1 run)" in text(again.best)


def test_the_map_draws_what_the_browser_sends():
    from musteach_widgets.storage import BrowserStore

    m = mw.LessonMap(store="browser")
    assert isinstance(m.store, BrowserStore) and m.store in m.children
    p = Progress()
    p.record_run("01-deck", "rank_order", [1.0], 3)
    m.store._handle_custom_msg({"type": "stored", "value": p.to_json(), "reason": "load", "error": ""}, [])
    assert 'data-lesson="01-deck" data-stars="3" data-done="true"' in m.view.value


def test_marks_are_data_not_sentences():
    quiz = mw.LanceQuiz("pares", n=1, seed=8)
    quiz.hint_button.click()
    quiz.hint_button.click()
    assert all(isinstance(m, Mark) for m in quiz.hint_marks)


# ----- wording a cold tester found wrong (issue 12 follow-up) -------------------------------------------


def test_after_both_hints_the_second_try_offers_no_hint():
    from musteach.teach.quiz import lance_question

    q = lance_question(["3o 6b 10e 2o", "1o 12c 5o 4e", "4o 6e 4b 5c", "7e 10o 10c 10b"], 1, "grande")
    quiz = mw.LanceQuiz(questions=[q], n=1)
    quiz.hint_button.click()
    quiz.hint_button.click()
    quiz.button_for(2).click()  # a slip: no misconception gives seat 2
    fb = text(quiz.feedback)
    assert "Look again at each hand. One more try." in fb and "hint" not in fb.lower().replace("musteach-hint", "")


def test_a_blank_total_says_type_a_number_and_keeps_the_try():
    quiz = mw.TotalQuiz("juego", n=2, seed=13)
    q = quiz.question
    quiz.total_input.value = "  "
    quiz.check_button.click()
    fb = text(quiz.feedback)
    assert "Type a number first." in fb and "Try again" not in fb and "''" not in fb
    assert quiz.session.attempt.wrong == 0
    quiz.total_input.value = str(q.answer + 1 if q.answer < 40 else q.answer - 1)
    quiz.check_button.click()
    assert "One more try." in text(quiz.feedback)  # the blank did not use the first try


def test_a_blank_count_cell_keeps_the_try():
    quiz = mw.CountQuiz(n=2, seed=15)
    q = quiz.question
    last = list(quiz.cells)[-1]
    for lance, row in quiz.cells.items():
        for team, box in row.items():
            box.value = str(q.answer[lance][team])
    quiz.cells[last]["A"].value = ""
    quiz.check_button.click()
    assert quiz.session.attempt.wrong == 0 and not quiz.session.is_answered
    quiz.cells[last]["A"].value = str(q.answer[last]["A"] + 1)
    quiz.check_button.click()
    assert "One more try." in text(quiz.feedback)


def test_enter_in_the_total_box_checks_as_the_button_does():
    """The browser's text box sends ``{"event": "submit"}`` on Enter (ipywidgets 8): it checks the total typed;
    once the question is answered (Check disabled), Enter does nothing more."""
    quiz = mw.TotalQuiz("juego", n=2, seed=13)
    q = quiz.question
    quiz.total_input.value = str(q.answer)
    quiz.total_input._handle_custom_msg({"event": "submit"}, [])  # what the page sends on Enter
    assert quiz.session.is_answered and quiz.session.verdict.correct
    answered = quiz.session.answered
    quiz.total_input._handle_custom_msg({"event": "submit"}, [])
    quiz.total_input._handle_custom_msg({"event": "other"}, [])
    assert quiz.session.answered == answered, "a second Enter on an answered question counts nothing"
