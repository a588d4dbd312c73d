"""Lessons 06 (betting) and 07 (the count) in a real browser: Voilà serves them, Debian's Chromium answers.

The quiz feedback in the page must be exactly what musteach computes for the hand on screen (read back
from the page's ``data-`` attributes and counted again here), a typing slip must show a hint and keep the
score, and no code may show. Screenshots go to ``test-artifacts/screenshots/``.

Without Playwright or /usr/bin/chromium these tests skip, except under ``CI=true`` where they fail
(the same rule as tests/test_browser.py, through tests/browser_helpers.py).
"""

from __future__ import annotations

import html
import json

import nbformat
import pytest

from musteach import count_hand, play_betting
from musteach.teach.count_quiz import CountQuestion, grade_count
from musteach.teach.wording import for_learner

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

pytestmark = pytest.mark.browser

PAGE_TIMEOUT_MS = 90_000
BETTING = bh.LESSONS / "06-betting.ipynb"
COUNT = bh.LESSONS / "07-count.ipynb"


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    with bh.voila_server(tmp_path_factory.mktemp("voila-count") / "voila.log") as base:
        yield base


def _open(page, server, path):
    page.goto(f"{server}/voila/render/{path.name}", wait_until="domcontentloaded")
    quiz = page.locator(".musteach-quiz").last
    quiz.locator(".musteach-check").wait_for(state="visible")
    return quiz


def _shot(page, name: str) -> None:
    bh.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(bh.SCREENSHOTS / f"{name}.png"), full_page=True)


_READ_QUESTION = """q => {
  const table = q.querySelector('svg.musteach-table');
  const betting = q.querySelector('table.musteach-betting');
  const rows = [...betting.querySelectorAll('tr[data-lance]')];
  return {hands: table.getAttribute('data-hands'), mano: table.getAttribute('data-mano'),
          a: betting.getAttribute('data-start-a'), b: betting.getAttribute('data-start-b'),
          betting: rows.map(r => [r.getAttribute('data-lance'), r.getAttribute('data-outcome')])};
}"""


def _question_on_screen(quiz) -> CountQuestion:
    """Read the hand, the score and each lance's betting off the page (in one go), and count it with musteach."""
    data = quiz.evaluate(_READ_QUESTION)
    hands = [h.split() for h in data["hands"].split("|")]
    start = {"A": int(data["a"]), "B": int(data["b"])}
    betting = {lance: json.loads(outcome) for lance, outcome in data["betting"]}
    result = count_hand(hands, int(data["mano"]), start_score=start, betting=betting)
    return CountQuestion(result.deal, start, {}, {}, result)


def _wait_for_verdict(page, quiz):
    headline = quiz.locator(".musteach-feedback .musteach-headline").first
    headline.wait_for(state="visible")
    return headline.inner_text().strip()


def _fill_boxes(quiz, figures) -> None:
    """Type each figure into its box (``figures``: selector -> stones), then check every box holds what was
    typed. The widget moves the focus to its first box when it opens the boxes (a new question, a second try),
    in a message of its own; typing that crosses it can land in the wrong box, so such a box is typed again."""
    for _ in range(3):
        wrong = 0
        for selector, n in figures.items():
            box = quiz.locator(selector)
            if box.input_value() != str(n):
                box.fill(str(n))
                wrong += 1
        if not wrong:
            return
        quiz.page.wait_for_timeout(300)  # let a late focus message arrive before checking again
    raise AssertionError(f"the boxes would not hold {figures}")


def _fill_count(quiz, answer) -> None:
    _fill_boxes(quiz, {f".musteach-stones-{lance}-{team} input": n for lance, teams in answer.items()
                       for team, n in teams.items()})


def test_count_quiz_feedback_is_the_count_of_the_hand_on_screen(page, server):
    quiz = _open(page, server, COUNT)
    # a typing slip: a hint, nothing scored
    q = _question_on_screen(quiz)
    first = next(iter(q.answer))
    quiz.locator(f".musteach-stones-{first}-A input").fill("-2")
    quiz.locator(".musteach-check").click()
    assert "nobody loses stones" in _wait_for_verdict(page, quiz)
    assert quiz.locator(".musteach-score").inner_text().startswith("Score: 0/0")

    for round_ in range(2):
        q = _question_on_screen(quiz)
        answer = {k: dict(v) for k, v in q.answer.items()}
        if round_ == 0:  # one wrong cell first, then a right answer
            answer[first]["A"] += 1
        _fill_count(quiz, answer)
        quiz.locator(".musteach-check").click()
        if round_ == 0:
            # a wrong first answer gets one more try: nothing is revealed yet; the same answer again ends it
            page.wait_for_function(
                "q => q.querySelector('.musteach-feedback').innerText.trim() !== ''", arg=quiz.element_handle()
            )
            assert quiz.locator(".musteach-feedback .musteach-steps").count() == 0
            assert quiz.locator(".musteach-next").is_disabled()
            _fill_count(quiz, answer)
            quiz.locator(".musteach-check").click()
        quiz.locator(".musteach-feedback .musteach-steps").wait_for(state="visible")
        grade = grade_count(q, answer)
        assert _wait_for_verdict(page, quiz) == grade.headline
        steps = [s.strip() for s in quiz.locator(".musteach-feedback .musteach-steps li").all_inner_texts()]
        count_steps = [for_learner(t) for t in q.result.explanation]
        # the feedback is the count, step by step (a wrong answer then hears why it is wrong)
        assert steps[: len(count_steps)] == count_steps
        score = bh.wait_for_score(page, quiz, "Score: 0/1" if round_ == 0 else "Score: 1/2")
        if round_ == 0:
            assert not grade.correct and grade.wrong == (first,)
            assert score.startswith("Score: 0/1")
            cls = quiz.locator(f".musteach-stones-{first}-A").get_attribute("class")
            assert "musteach-cell-wrong" in cls
            _shot(page, "07-count-quiz-answered")
            shown = quiz.locator("svg.musteach-table").get_attribute("data-hands")
            quiz.locator(".musteach-next").click()
            # the next question is drawn when its deal is on the table (the feedback is cleared first, the
            # picture follows in its own message) and its boxes are open
            page.wait_for_function(
                "([q, old]) => !q.querySelector('.musteach-feedback .musteach-steps')"
                " && q.querySelector('svg.musteach-table').getAttribute('data-hands') !== old"
                " && ![...q.querySelectorAll('input')].some(i => i.disabled)",
                arg=[quiz.element_handle(), shown],
            )
        else:
            assert grade.correct and score.startswith("Score: 1/2")


def test_betting_quiz_feedback_replays_the_betting_on_screen(page, server):
    quiz = _open(page, server, BETTING)
    lines = quiz.locator("ol.musteach-betting-lines")
    actions = [a.split(":", 1) for a in html.unescape(lines.get_attribute("data-actions")).split("|")]
    state = play_betting(
        lines.get_attribute("data-lance"),
        int(lines.get_attribute("data-mano")),
        [(int(seat), said) for seat, said in actions],
        [int(s) for s in lines.get_attribute("data-participants").split()],
    )
    o = state.outcome
    now = {"A": 0, "B": 0}
    if o.type == "rejected":  # RULES.md §6: the deje is paid at once
        now[o.winner_team] = o.deje
    _fill_boxes(quiz, {f".musteach-stones-{team} input": n for team, n in now.items()})
    quiz.locator(".musteach-check").click()
    assert _wait_for_verdict(page, quiz) == "Right!"
    steps = [s.strip() for s in quiz.locator(".musteach-feedback .musteach-steps li").all_inner_texts()]
    assert steps[: len(state.steps)] == [for_learner(t) for t in state.texts()] and len(steps) == len(state.steps) + 1
    assert bh.wait_for_score(page, quiz, "Score: 1/1").startswith("Score: 1/1")
    _shot(page, "06-betting-quiz-answered")


@pytest.mark.parametrize("path", [BETTING, COUNT], ids=["06", "07"])
def test_no_code_shows_and_examples_render(page, server, path):
    _open(page, server, path)
    page.wait_for_load_state("networkidle")
    text = page.inner_text("body")
    source = page.content()
    assert "There was an error when executing cell" not in text
    assert page.locator(".musteach-error").count() == 0, "every example in the lesson is valid"
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for line in cell.source.splitlines():
            assert line not in text and line not in source, f"code shows in the page: {line}"
    if path == COUNT:
        assert page.locator(".musteach-countview").count() == 2 and page.locator("svg.musteach-stones").count() >= 3
        view = page.locator(".musteach-countview").first
        view.locator(".musteach-all").click()
        view.locator(".musteach-steps li.musteach-now").wait_for(state="visible")
    else:
        assert page.locator(".musteach-bettingview").count() >= 6
    _shot(page, f"{path.stem}-lesson")


@pytest.fixture(scope="module")
def plain_server(browser, tmp_path_factory):
    with bh.voila_server(tmp_path_factory.mktemp("voila-total") / "voila.log", plain=True) as base:
        yield base


def test_enter_in_the_total_box_checks_the_total(page, plain_server):
    """Lesson 5's total quiz: typing a total and pressing Enter checks it, as Check does (a cold tester pressed
    Enter and nothing happened). Right or wrong does not matter: a verdict must come."""
    page.goto(f"{plain_server}/voila/render/05-juego-punto.ipynb", wait_until="domcontentloaded")
    box = page.locator(".musteach-total-input input").first
    box.wait_for(state="visible")
    quiz = page.locator(".musteach-quiz", has=page.locator(".musteach-total-input")).first
    assert quiz.locator(".musteach-feedback .musteach-verdict").count() == 0
    box.fill("31")
    box.press("Enter")
    quiz.locator(".musteach-feedback .musteach-verdict").first.wait_for()
    assert quiz.locator(".musteach-feedback").inner_text().strip()
