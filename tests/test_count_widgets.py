"""BettingQuiz, CountQuiz, CountView, BettingView and ScoreBoard, driven by simulated typing and clicks.

As in tests/test_widgets.py, the autouse fixture makes ipywidgets call click handlers directly, so an
exception inside a handler fails the test, and it fails any test that leaves a widget with recorded
handler errors (``widget.errors``).
"""

from __future__ import annotations

import html
import json
import re

import ipywidgets as widgets
import musteach_widgets as mw
import pytest

from musteach import Rules, count_hand, evaluate, play_betting
from musteach.rules.errors import IllegalActionError, MusError
from musteach.teach import sources as sources_module
from musteach.teach.count_quiz import grade_count
from musteach.teach.wording import for_learner

pytestmark = pytest.mark.usefixtures("strict_widgets")

DEAL = ["12o 12c 3o 7o", "1o 1c 4o 5o", "11o 11c 10o 1e", "6o 6c 5c 4c"]


def classes(w: widgets.DOMWidget) -> set[str]:
    return set(w._dom_classes)


def walk(w):
    yield w
    for child in getattr(w, "children", ()):
        yield from walk(child)


def steps_in(feedback: str) -> list[str]:
    return [html.unescape(s) for s in re.findall(r"<li>(.*?)</li>", feedback)]


def type_betting(quiz, a, b) -> None:
    quiz.stones_a.value, quiz.stones_b.value = str(a), str(b)
    quiz.check_button.click()


def type_count(quiz, answer) -> None:
    for lance, row in quiz.cells.items():
        for team, box in row.items():
            box.value = str(answer[lance][team])
    quiz.check_button.click()


def some_wrong(answer: dict) -> dict:
    return {t: v + 1 if t == "A" else v for t, v in answer.items()}


# ----------------------------------------------------------------------------------------------
# The mechanism
# ----------------------------------------------------------------------------------------------


def test_fixture_makes_a_failing_click_handler_fail_the_test():
    b = widgets.Button(description="boom")
    b.on_click(lambda _b: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        b.click()


@pytest.mark.parametrize("make", [lambda: mw.BettingQuiz(n=3, seed=1), lambda: mw.CountQuiz(n=3, seed=1)])
def test_injected_exception_is_caught_recorded_and_shown_kindly(monkeypatch, strict_widgets, make):
    quiz = make()
    q = quiz.question
    if isinstance(quiz, mw.BettingQuiz):
        type_betting(quiz, q.answer["A"], q.answer["B"])
    else:
        type_count(quiz, q.answer)
    assert quiz.score.value == html.escape("Score: 1/1 · streak 1")
    quiz.next_button.click()

    def broken(response):
        raise RuntimeError("injected failure")

    monkeypatch.setattr(quiz.session, "answer", broken)
    quiz.check_button.click()
    assert len(quiz.errors) == 1 and isinstance(quiz.errors[0], RuntimeError)
    fb = quiz.feedback.value
    assert html.escape(mw.FRIENDLY_ERROR) in fb and "Traceback" not in fb and "injected" not in fb
    assert quiz.score.value == html.escape("Score: 1/1 · streak 1"), "the score is kept"
    assert not quiz.next_button.disabled and quiz.check_button.disabled
    monkeypatch.undo()
    assert any(w.errors for w in strict_widgets), "the fixture would fail this test"
    quiz.errors.clear()
    quiz.next_button.click()  # goes on with a fresh question; the broken one is skipped, not scored
    assert quiz.session.skipped == 1 and quiz.session.answered == 1 and not quiz.check_button.disabled


def test_a_failing_first_question_shows_a_message_and_next_retries(monkeypatch):
    calls = {"n": 0}
    real = sources_module.betting_question  # the betting quiz's questions come from musteach's source (issue 24)

    def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("no question")
        return real(*args, **kwargs)

    monkeypatch.setattr(sources_module, "betting_question", flaky)
    quiz = mw.BettingQuiz(n=2, seed=2)
    assert html.escape(mw.FRIENDLY_ERROR) in quiz.feedback.value and len(quiz.errors) == 1
    quiz.errors.clear()
    quiz.next_button.click()
    assert quiz.question is not None and quiz.picture.value and quiz.errors == []


# ----------------------------------------------------------------------------------------------
# BettingQuiz
# ----------------------------------------------------------------------------------------------


def test_betting_quiz_layout_and_classes():
    quiz = mw.BettingQuiz(n=4, seed=3)
    assert "musteach-quiz" in classes(quiz)
    assert {"musteach-stones-A"} <= classes(quiz.stones_a) and {"musteach-stones-B"} <= classes(quiz.stones_b)
    assert "musteach-check" in classes(quiz.check_button) and "musteach-next" in classes(quiz.next_button)
    assert "musteach-feedback" in classes(quiz.feedback) and "musteach-score" in classes(quiz.score)
    q = quiz.question
    assert quiz.prompt.value == html.escape(q.prompt)
    for line in q.lines:  # "Seat 2: envido 3" -> "Seat 2 (team A, mano): <b>envido 3</b>"
        seat, said = line.split(": ", 1)
        assert re.search(rf"{seat} \(team [AB][^)]*\): <b>{re.escape(html.escape(said))}</b>", quiz.picture.value)
    assert quiz.next_button.disabled and not quiz.check_button.disabled
    assert quiz.score.value == html.escape("Score: 0/0 · streak 0")
    assert quiz.progress.value == "Question 1 of 4"


def test_betting_quiz_data_rebuilds_the_same_betting():
    """The page carries the sequence (for the browser test): replaying it gives the question's outcome."""
    quiz = mw.BettingQuiz(n=10, seed=4)
    for _ in range(6):
        q = quiz.question
        m = re.search(
            r'data-lance="(\w+)" data-mano="(\d)" data-participants="([\d ]+)" data-actions="([^"]+)"', quiz.picture.value
        )
        lance, mano, seats, actions = m.groups()
        pairs = [(int(a.split(":")[0]), a.split(":", 1)[1]) for a in html.unescape(actions).split("|")]
        state = play_betting(lance, int(mano), pairs, [int(s) for s in seats.split()])
        assert state.outcome == q.state.outcome
        type_betting(quiz, q.answer["A"], q.answer["B"])
        quiz.next_button.click()


def test_betting_quiz_right_then_wrong_then_next():
    quiz = mw.BettingQuiz(n=5, seed=5, tries=1)
    q = quiz.question
    type_betting(quiz, q.answer["A"], q.answer["B"])
    g = q.grade(q.answer)
    fb = quiz.feedback.value
    assert g.correct and "Right!" in fb and "musteach-right" in fb
    assert steps_in(fb) == [for_learner(t) for t in g.steps], "the feedback is the grader's step-by-step explanation"
    assert quiz.score.value == html.escape("Score: 1/1 · streak 1")
    assert quiz.stones_a.disabled and quiz.stones_b.disabled and quiz.check_button.disabled
    assert not quiz.next_button.disabled
    assert "musteach-cell-right" in classes(quiz.stones_a)
    quiz.next_button.click()
    q2 = quiz.question
    assert q2 is not q and quiz.feedback.value == "" and quiz.progress.value == "Question 2 of 5"
    assert (quiz.stones_a.value, quiz.stones_b.value) == ("0", "0") and not quiz.stones_a.disabled
    assert "musteach-cell-right" not in classes(quiz.stones_a)
    wrong = some_wrong(q2.answer)
    type_betting(quiz, wrong["A"], wrong["B"])
    g = q2.grade(wrong)
    fb = quiz.feedback.value
    assert not g.correct and html.escape(g.headline) in fb and "musteach-wrong" in fb
    assert g.headline.startswith("Not quite: the answer is")
    assert steps_in(fb) == [for_learner(t) for t in g.steps]
    assert "musteach-cell-wrong" in classes(quiz.stones_a) and "musteach-cell-right" in classes(quiz.stones_b)
    assert quiz.score.value == html.escape("Score: 1/2 · streak 0")


def test_betting_quiz_a_refused_bet_pays_the_previous_total():
    """A question whose bet was refused after raises: the deje is stakes[-2], and the quiz says so."""
    quiz = mw.BettingQuiz(n=10, seed=6)
    for _ in range(40):
        o = quiz.question.state.outcome
        if o.type == "rejected" and len(o.stakes) >= 3:
            break
        quiz.next_button.click()  # unanswered: skipped, not scored
    else:
        pytest.fail("no refused chain found")
    o = quiz.question.state.outcome
    prev = o.stakes[-2]
    expected = {"A": 0, "B": 0, o.winner_team: prev}
    type_betting(quiz, expected["A"], expected["B"])
    assert "Right!" in quiz.feedback.value
    assert f"takes the deje of {prev} stones now" in html.unescape(quiz.feedback.value)


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("", "is empty"),
        ("   ", "is empty"),
        ("-3", "nobody loses stones"),
        ("abc", "type a whole number"),
        ("2.5", "type a whole number"),
        ("100000", "far more stones than a hand gives"),
        ("99999999999999999999999", "far more stones"),
    ],
)
def test_betting_quiz_bad_input_gives_a_friendly_hint_and_keeps_the_score(typed, says):
    quiz = mw.BettingQuiz(n=3, seed=7)
    q = quiz.question
    type_betting(quiz, q.answer["A"], q.answer["B"])
    quiz.next_button.click()
    before = quiz.score.value
    quiz.stones_a.value, quiz.stones_b.value = "0", typed
    quiz.check_button.click()
    fb = html.unescape(quiz.feedback.value)
    assert "musteach-hint" in fb and "Try again" in fb and says in fb and "team B" in fb
    assert "Traceback" not in fb
    assert quiz.score.value == before and quiz.session.answered == 1
    assert not quiz.stones_b.disabled and not quiz.check_button.disabled and quiz.next_button.disabled
    q = quiz.question
    type_betting(quiz, q.answer["A"], q.answer["B"])
    assert "Right!" in quiz.feedback.value and quiz.score.value == html.escape("Score: 2/2 · streak 2")


def test_second_check_is_ignored_and_the_run_finishes_and_restarts():
    quiz = mw.BettingQuiz(n=2, seed=8, tries=1)
    q = quiz.question
    type_betting(quiz, q.answer["A"], q.answer["B"])
    before = (quiz.feedback.value, quiz.score.value)
    quiz.check_button.click()
    assert (quiz.feedback.value, quiz.score.value) == before and quiz.session.answered == 1
    quiz.next_button.click()
    q = quiz.question
    wrong = some_wrong(q.answer)
    type_betting(quiz, wrong["A"], wrong["B"])
    assert quiz.session.finished
    fb = quiz.feedback.value
    assert "musteach-finished" in fb and html.escape("Finished: 1 of 2 right (50%)") in fb
    assert quiz.next_button.layout.display == "none" and quiz.restart_button.layout.display != "none"
    quiz.restart_button.click()
    assert quiz.score.value == html.escape("Score: 0/0 · streak 0") and quiz.progress.value == "Question 1 of 2"
    assert not quiz.check_button.disabled and not quiz.stones_a.disabled


def test_seeded_runs_repeat_and_rules_pass_through():
    a, b = mw.BettingQuiz(n=5, seed=9), mw.BettingQuiz(n=5, seed=9)
    for _ in range(4):
        assert a.question.lines == b.question.lines
        for quiz in (a, b):
            type_betting(quiz, 0, 0)
            quiz.next_button.click()
    end = mw.BettingQuiz(n=10, seed=10, rules=Rules(deje_timing="end"))
    for _ in range(10):
        assert end.question.answer == {"A": 0, "B": 0}, "with dejes scored at the end nobody takes stones now"
        end.next_button.click()


def test_bad_options_raise_at_once():
    with pytest.raises(MusError):
        mw.BettingQuiz(n=0)
    with pytest.raises(MusError):
        mw.CountQuiz(n=10, rules="8 reyes")
    with pytest.raises(MusError, match="near_end_share"):
        mw.CountQuiz(near_end_share=2)


# ----------------------------------------------------------------------------------------------
# CountQuiz
# ----------------------------------------------------------------------------------------------


def test_count_quiz_grid_and_picture():
    quiz = mw.CountQuiz(n=3, seed=11)
    q = quiz.question
    assert list(quiz.cells) == [lance.value for lance in q.result.lances]
    for lance, row in quiz.cells.items():
        for team, box in row.items():
            assert isinstance(box, widgets.Text) and f"musteach-stones-{lance}-{team}" in classes(box)
            assert box.value == "0" and box.description == f"Team {team}"
    hands = "|".join(" ".join(h.codes()) for h in q.hands)
    assert f'data-hands="{hands}"' in quiz.picture.value and f'data-mano="{q.mano}"' in quiz.picture.value
    assert 'class="musteach-stones"' in quiz.picture.value, "the score before the hand is drawn"
    assert quiz.prompt.value == html.escape(q.prompt)


def recount_from_page(picture: str, rules: Rules | None = None):
    """What the browser test does: read the deal and the betting off the page and count it again."""
    hands = re.search(r'data-hands="([^"]+)"', picture).group(1).split("|")
    mano = int(re.search(r'data-mano="(\d)"', picture).group(1))
    a = int(re.search(r'data-start-a="(\d+)"', picture).group(1))
    b = int(re.search(r'data-start-b="(\d+)"', picture).group(1))
    betting = {
        lance: json.loads(html.unescape(o)) for lance, o in re.findall(r'data-lance="(\w+)" data-outcome="([^"]+)"', picture)
    }
    return count_hand([h.split() for h in hands], mano, rules, {"A": a, "B": b}, betting)


def test_count_quiz_page_data_counts_to_the_same_answer():
    quiz = mw.CountQuiz(n=12, seed=12, near_end_share=0.5)
    ended = 0
    for _ in range(12):
        q = quiz.question
        again = recount_from_page(quiz.picture.value)
        assert again.stones == q.result.stones and again.explanation == q.result.explanation
        ended += q.result.game_over
        type_count(quiz, q.answer)
        if not quiz.session.finished:
            quiz.next_button.click()
    assert ended, "some hands start near the target and end part-way"


def test_count_quiz_right_answer():
    quiz = mw.CountQuiz(n=3, seed=13)
    q = quiz.question
    type_count(quiz, q.answer)
    fb = quiz.feedback.value
    assert "Right!" in fb and "musteach-right" in fb
    assert steps_in(fb) == [for_learner(t) for t in q.result.explanation], "the feedback is the count, step by step"
    assert all("musteach-cell-right" in classes(b) and b.disabled for b in quiz._boxes())
    assert all("✓" in m.value for m in quiz.marks.values())
    assert quiz.score.value == html.escape("Score: 1/1 · streak 1") and not quiz.next_button.disabled


def test_count_quiz_one_wrong_cell_is_marked():
    quiz = mw.CountQuiz(n=3, seed=14, tries=1)
    q = quiz.question
    lances = list(q.answer)
    bad = lances[1]
    answer = {k: dict(v) for k, v in q.answer.items()}
    answer[bad]["B"] += 2
    type_count(quiz, answer)
    g = grade_count(q, answer)
    fb = quiz.feedback.value
    assert g.wrong == (bad,) and html.escape(g.headline) in fb and "musteach-wrong" in fb
    assert steps_in(fb) == [for_learner(t) for t in g.steps]
    for lance, row in quiz.cells.items():
        want = "musteach-cell-wrong" if lance == bad else "musteach-cell-right"
        assert all(want in classes(b) for b in row.values()), lance
    exp = q.answer[bad]
    assert f"✗ A {exp['A']} · B {exp['B']}" in quiz.marks[bad].value
    assert quiz.score.value == html.escape("Score: 0/1 · streak 0")
    quiz.next_button.click()
    assert all("musteach-cell-wrong" not in classes(b) and not b.disabled for b in quiz._boxes())
    assert all(m.value == "" for m in quiz.marks.values())


@pytest.mark.parametrize(("typed", "says"), [("", "is empty"), ("-1", "nobody loses stones"), ("5000", "far more")])
def test_count_quiz_bad_cell_names_the_lance_and_keeps_the_score(typed, says):
    quiz = mw.CountQuiz(n=3, seed=15)
    q = quiz.question
    last = list(quiz.cells)[-1]
    for lance, row in quiz.cells.items():
        for team, box in row.items():
            box.value = str(q.answer[lance][team])
    quiz.cells[last]["A"].value = typed
    quiz.check_button.click()
    fb = html.unescape(quiz.feedback.value)
    title = last.capitalize()
    assert "musteach-hint" in fb and says in fb and f"team A in {title}" in fb
    assert quiz.session.answered == 0 and quiz.score.value == html.escape("Score: 0/0 · streak 0")
    quiz.cells[last]["A"].value = str(q.answer[last]["A"])
    quiz.check_button.click()
    assert "Right!" in quiz.feedback.value


def test_count_quiz_game_won_in_the_betting_shows_later_lances_as_never_played():
    quiz = mw.CountQuiz(n=10, seed=16, near_end_share=1.0)
    for _ in range(300):
        r = quiz.question.result
        if r.ended_at and r.ended_at.startswith("betting:"):
            break
        quiz.next_button.click()
    else:
        pytest.skip("no hand ended during the betting in 300 tries")
    stop = r.ended_at.split(":")[1]
    later = [lance.value for lance in r.lances][[lance.value for lance in r.lances].index(stop) + 1 :]
    for lance in later:
        assert re.search(rf'class="musteach-unplayed" data-lance="{lance}"', quiz.picture.value)
        assert quiz.question.answer[lance] == {"A": 0, "B": 0}
    type_count(quiz, quiz.question.answer)
    assert "Right!" in quiz.feedback.value


@pytest.mark.parametrize("make", [lambda: mw.BettingQuiz(seed=17), lambda: mw.CountQuiz(seed=17)], ids=["betting", "count"])
def test_every_control_is_a_real_widget_with_a_label(make):
    """Keyboard use needs real ipywidgets controls (Tab, Enter, Space), never clickable raw HTML."""
    quiz = make()
    controls = [w for w in walk(quiz) if isinstance(w, widgets.Button | widgets.Text)]
    assert quiz.check_button in controls and quiz.next_button in controls and quiz.restart_button in controls
    assert sum(isinstance(w, widgets.Text) for w in controls) >= 2
    for w in controls:
        assert w.description.strip() and w.tooltip, w
    for w in walk(quiz):
        if isinstance(w, widgets.HTML):
            assert "<button" not in w.value and "onclick" not in w.value.lower() and "<input" not in w.value


# ----------------------------------------------------------------------------------------------
# CountView, BettingView, ScoreBoard
# ----------------------------------------------------------------------------------------------


def test_count_view_steps_through_the_count():
    view = mw.show_count(DEAL, mano=0, betting={"grande": "0 envido, 1 quiero", "chica": "0 envido, 1 2 más, 0 no quiero, 2 no quiero"})
    r = count_hand(
        DEAL, 0, betting={"grande": {"type": "accepted", "stake": 2}, "chica": {"type": "rejected", "stakes": [2, 4], "winner_team": "B"}}
    )
    assert view.steps == tuple(r.explanation)
    assert view.position == 0 and view.back_button.disabled and view.board.score == (0, 0)
    assert "Step 0 of" in view.where.value and "musteach-later" in view.steps_box.value
    view.step_button.click()
    assert view.position == 1 and view.board.score == r.steps[0].score == (0, 2), "the deje of 2 is taken first"
    assert f'class="musteach-now">{html.escape(r.explanation[0])}' in view.steps_box.value
    view.all_button.click()
    assert view.position == len(r.steps) and view.step_button.disabled and view.all_button.disabled
    assert view.board.score == (r.final_score["A"], r.final_score["B"])
    assert f'data-score-a="{r.final_score["A"]}"' in view.board.picture.value
    view.back_button.click()
    assert view.position == len(r.steps) - 1 and not view.step_button.disabled
    assert "seat 0: envido 2; seat 1: quiero" in view.betting_box.value


def test_count_view_the_game_ends_at_40_mid_count():
    """RULES.md §8: at 38-39, Grande to A (39) and Chica to B (40): B wins, Pares and Juego never counted."""
    view = mw.show_count(DEAL, mano=0, start_score=(38, 39))
    r = view.result
    assert (r.game_winner, r.ended_at, r.final_score) == ("B", "count:chica", {"A": 39, "B": 40})
    view.all_button.click()
    assert 'data-won="true"' in view.board.picture.value and "GAME WON" in view.board.picture.value
    assert "never counted" in view.steps[-1]


def test_count_view_bad_input_is_shown_not_raised():
    view = mw.show_count(DEAL, mano=0, betting={"pares": "0 envido, 1 no quiero"})
    assert isinstance(view.error, IllegalActionError) and "not over" in str(view.error)
    assert "musteach-error" in view.picture.value and view.result is None
    view = mw.show_count(DEAL, mano=7)
    assert view.error is not None and html.escape(str(view.error)) in view.picture.value
    with pytest.raises(MusError):
        mw.show_count(DEAL, mano=0, start_score=(41, 0), strict=True)
    with pytest.raises(IllegalActionError, match="'seat action'"):
        mw.show_count(DEAL, mano=0, betting={"grande": "envido"}, strict=True)


@pytest.mark.parametrize(
    ("actions", "team", "deje"),
    [
        ("0 paso, 1 envido, 2 no quiero, 0 no quiero", "B", 1),
        ("0 envido, 1 3 más, 0 5 más, 1 no quiero, 3 no quiero", "A", 5),
        ("0 envido, 1 2 más, 2 3 más, 3 5 más, 0 no quiero, 2 no quiero", "B", 7),
        ("0 envido, 1 órdago, 0 no quiero, 2 no quiero", "B", 2),
    ],
)
def test_betting_view_deje_chains(actions, team, deje):
    view = mw.show_betting("grande", 0, actions)
    assert view.error is None and view.state.outcome.type == "rejected"
    assert (view.state.outcome.winner_team, view.state.outcome.deje) == (team, deje)
    stones = f"{deje} stone" + ("s" if deje != 1 else "")
    assert html.escape(f"team {team} takes the deje of {stones} now") in view.body.value
    assert steps_in(view.body.value) == view.state.texts()


def test_betting_view_holders_only_and_errors():
    hands = ["12o 12c 4o 5o", "1o 1c 6o 7o", "11o 10c 7e 4e", "6c 5c 4c 2b"]
    deal = evaluate(hands, 0)
    assert [i.pares is not None for i in deal.infos] == [True, True, False, False]
    view = mw.show_betting("pares", 0, "0 envido, 1 quiero", hands=hands)
    assert view.error is None and view.state.participants == (0, 1)
    assert "Seat 2: pares no" in view.body.value and 'class="musteach-table"' in view.picture.value
    view = mw.show_betting("pares", 0, "2 envido", hands=hands)
    assert isinstance(view.error, IllegalActionError) and "pares no" in str(view.error)
    assert "musteach-error" in view.body.value
    with pytest.raises(IllegalActionError):
        mw.show_betting("grande", 0, "0 quiero", strict=True)
    unfinished = mw.show_betting("chica", 1, [(1, "envido")])
    assert unfinished.state.outcome is None and "seat 2 speaks next" in unfinished.body.value


def test_score_board():
    board = mw.ScoreBoard(13, 37)
    assert "musteach-scoreboard" in classes(board) and 'data-dentro="true"' in board.picture.value
    board.set_score(20, 4)
    assert board.score == (20, 4) and 'data-score-a="20"' in board.picture.value
    with pytest.raises(MusError):
        board.set_score(-1, 4)
    assert board.score == (20, 4) and 'data-score-a="20"' in board.picture.value
    assert "Game to 30" in mw.ScoreBoard(0, 0, Rules(target=30)).picture.value


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_count_quiz_and_the_count_view_word_the_betting_alike(lang):
    """The quiz's betting table says what each seat said as the count view does (musteach's words as given)."""
    from musteach.i18n import speaking, translator
    from musteach.teach import labels

    quiz = mw.CountQuiz(n=3, seed=11, lang=lang)
    q = quiz.question
    said = [s for b in q.bettings.values() for s in b.steps if s.seat is not None]
    assert said, "a question with some betting"
    for step in said:
        with speaking(lang):
            line = translator()(labels.SEAT_SAID, seat=step.seat, action=step.action)
        assert html.escape(line) in quiz.picture.value


def test_enter_in_a_stones_box_presses_check_once_per_answer():
    """The browser's text box sends ``{"event": "submit"}`` on Enter (ipywidgets 8): in either stones quiz it
    checks what is typed, as Check does, on every question (the betting quiz's boxes live across questions,
    so their handler must not be added twice: one Enter, one answer); once answered, Enter counts nothing."""
    quiz = mw.BettingQuiz(n=3, seed=5)
    for _ in range(2):
        answer = quiz.question.answer
        quiz.stones_a.value, quiz.stones_b.value = str(answer["A"]), str(answer["B"])
        quiz.stones_b._handle_custom_msg({"event": "submit"}, [])  # what the page sends on Enter
        assert quiz.session.is_answered and quiz.session.verdict.correct
        answered = quiz.session.answered
        quiz.stones_a._handle_custom_msg({"event": "submit"}, [])
        assert quiz.session.answered == answered, "an Enter on an answered question counts nothing"
        quiz.next_button.click()
    count = mw.CountQuiz(n=2, seed=3)
    q = count.question
    for lance, row in count.cells.items():
        for team, box in row.items():
            box.value = str(q.answer[lance][team])
    next(iter(next(iter(count.cells.values())).values()))._handle_custom_msg({"event": "submit"}, [])
    assert count.session.is_answered and count.session.verdict.correct
