"""A quiz run in progress is kept answer by answer and resumed after a reload (issue 23), in the widgets
(without a browser: a new widget on the same store is what a reloaded page builds)."""

from __future__ import annotations

from pathlib import Path

import musteach_widgets as mw

from musteach.teach.progress import FileStore, MemoryStore


def wrong_seat(q):
    return next(s for s in range(4) if s != q.answer and q.can_answer(s))


def same_question(a, b) -> bool:
    return a.prompt == b.prompt and a.hands == b.hands and a.mano == b.mano


def test_a_reload_after_two_of_ten_answers_resumes_at_the_third(tmp_path: Path):
    store = FileStore(tmp_path / "progress.json")
    quiz = mw.LanceQuiz("pares", n=10, lesson="04-pares", quiz="pares", store=store)
    quiz.button_for(quiz.question.answer).click()
    quiz.next_button.click()
    q2 = quiz.question
    quiz.button_for(wrong_seat(q2)).click()  # a wrong first try, then right
    quiz.button_for(q2.answer).click()
    quiz.next_button.click()
    third = quiz.question
    again = mw.LanceQuiz("pares", n=10, lesson="04-pares", quiz="pares", store=FileStore(tmp_path / "progress.json"))
    s = again.session
    assert s.answered == 2 and s.points == quiz.session.points and s.retries == quiz.session.retries
    assert "Question 3 of 10" in again.progress.value and same_question(again.question, third)
    assert not again.errors
    # the resumed run goes on and is kept as one finished run
    for _ in range(8):
        again.button_for(again.question.answer).click()
        if not again.session.finished:
            again.next_button.click()
    kept = store.load()
    assert kept.runs_done("04-pares", "pares") == 1 and kept.best_stars("04-pares", "pares") == again.session.stars
    assert kept.open_run("04-pares", "pares") == ()
    fresh = mw.LanceQuiz("pares", n=10, lesson="04-pares", quiz="pares", store=store)
    assert fresh.session.answered == 0  # a finished run is not resumed


def test_a_reload_between_the_two_tries_keeps_the_wrong_first_try_and_the_hint():
    store = MemoryStore()
    quiz = mw.LanceQuiz("grande", n=5, lesson="03-grande-chica", store=store)
    q = quiz.question
    quiz.hint_button.click()
    wrong = wrong_seat(q)
    quiz.button_for(wrong).click()
    again = mw.LanceQuiz("grande", n=5, lesson="03-grande-chica", store=store)
    assert same_question(again.question, q) and not again.session.is_answered
    assert again.session.attempt.hints == 1 and again.session.attempt.wrong == 1
    assert again.button_for(wrong).disabled and "musteach-tried" in again.button_for(wrong)._dom_classes
    assert "One more try." in again.feedback.value
    again.button_for(q.answer).click()
    assert again.session.points == [quiz.session.turn.attempt.answer(True).points]


def test_a_reload_after_a_verdict_shows_it_with_next_ready():
    store = MemoryStore()
    quiz = mw.JugadaQuiz(n=3, lesson="04-pares", store=store)
    q = quiz.question
    quiz.button_for(q.answer).click()
    again = mw.JugadaQuiz(n=3, lesson="04-pares", store=store)
    assert again.session.is_answered and again.session.answered == 1 and again.question.prompt == q.prompt
    assert not again.next_button.disabled and "musteach-answer" in again.answer_buttons[0]._dom_classes
    again.next_button.click()
    assert "Question 2 of 3" in again.progress.value


def test_two_tabs_resuming_one_run_each_keep_their_own_finished_run():
    store = MemoryStore()
    first = mw.LanceQuiz("chica", n=2, lesson="03-grande-chica", store=store)
    first.button_for(first.question.answer).click()
    second = mw.LanceQuiz("chica", n=2, lesson="03-grande-chica", store=store)  # the same lesson in a second tab
    assert second.session.answered == 1
    for tab in (first, second):
        tab.next_button.click()
        tab.button_for(tab.question.answer).click()
        assert tab.session.finished
    assert store.load().runs_done("03-grande-chica", "chica") == 2


def test_the_seed_given_still_draws_the_first_run():
    a = mw.LanceQuiz("grande", n=3, seed=41, lesson="03-grande-chica", store=MemoryStore())
    b = mw.LanceQuiz("grande", n=3, seed=41)
    assert same_question(a.question, b.question)


def test_a_betting_quiz_resumes_with_its_typed_stones():
    store = MemoryStore()
    quiz = mw.BettingQuiz(n=4, lesson="06-betting", store=store)
    q = quiz.question
    quiz.stones_a.value, quiz.stones_b.value = str(q.answer["A"] + 1), str(q.answer["B"])
    quiz.check_button.click()  # a wrong first try
    quiz.stones_a.value = str(q.answer["A"])
    quiz.check_button.click()
    quiz.next_button.click()
    second = quiz.question
    again = mw.BettingQuiz(n=4, lesson="06-betting", store=store)
    assert again.session.answered == 1 and again.session.points == quiz.session.points
    assert "Question 2 of 4" in again.progress.value and again.question.prompt == second.prompt
    assert not again.errors


def test_a_count_quiz_resumes_after_its_verdict():
    store = MemoryStore()
    quiz = mw.CountQuiz(n=3, lesson="07-count", store=store)
    q = quiz.question
    for key, row in quiz.cells.items():
        for team, box in row.items():
            box.value = str(q.answer[key][team])
    quiz.check_button.click()
    assert quiz.session.is_answered and quiz.session.verdict.correct
    again = mw.CountQuiz(n=3, lesson="07-count", store=store)
    assert again.session.is_answered and again.session.answered == 1 and again.question.prompt == q.prompt
    assert not again.next_button.disabled and again.check_button.disabled and not again.errors


def test_senas_and_odds_quizzes_resume_too():
    for make in (
        lambda s: mw.SenaQuiz("meaning", n=3, lesson="09-senas", store=s),
        lambda s: mw.OddsQuiz(n=3, lesson="12-odds", store=s),
    ):
        store = MemoryStore()
        quiz = make(store)
        q = quiz.question
        quiz.button_for(q.answer).click()
        quiz.next_button.click()
        second = quiz.question
        again = make(store)
        assert again.session.answered == 1 and again.question.prompt == second.prompt and not again.errors
        assert "Question 2 of 3" in again.progress.value


def test_a_run_another_tab_goes_on_with_is_not_taken_over_by_an_open_quiz(monkeypatch):
    from musteach_widgets.storage import BrowserStore

    from musteach.teach.progress import Progress

    store = BrowserStore()
    monkeypatch.setattr(store, "send", lambda msg, buffers=None: None)
    quiz = mw.LanceQuiz("pares", n=5, lesson="04-pares", store=store)
    store._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    first = quiz.question
    other = Progress()  # another tab answers the first question of its own run
    step = other.record_step("04-pares", "pares", "tab2", seed=9, n=5, q=0, given=1)
    store._handle_custom_msg({"type": "records", "items": [step.to_json()], "reason": "other-tab"}, [])
    assert quiz.question is first and quiz.session.answered == 0 and quiz.session.attempt.tries == 0


def test_the_mus_quiz_resumes_too():
    store = MemoryStore()
    quiz = mw.MusQuiz(n=3, lesson="08-mus", store=store)
    q = quiz.question
    quiz.button_for(q.answer).click()
    quiz.next_button.click()
    second = quiz.question
    again = mw.MusQuiz(n=3, lesson="08-mus", store=store)
    assert again.session.answered == 1 and again.question.hand == second.hand and not again.errors


def test_each_answer_record_keeps_its_tries_and_diagnosis():
    store = MemoryStore()
    quiz = mw.LanceQuiz("grande", n=3, lesson="03-grande-chica", store=store)
    quiz.button_for(quiz.question.answer).click()
    quiz.next_button.click()
    q = quiz.question
    quiz.button_for(wrong_seat(q)).click()
    diagnosis = quiz.session.turn.attempt.diagnosis
    quiz.button_for(q.answer).click()
    (_, first), (_, second) = store.load().reviews()
    assert (first.tries, first.diagnosis, first.correct) == (1, None, True)
    assert (second.tries, second.diagnosis, second.correct) == (2, diagnosis, False)  # a second-try success: a lapse
