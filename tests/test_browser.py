"""The tutor in a real browser: Voilà serves the lessons (as ``make tutor`` does), Debian's Chromium opens them.

A quiz answer in the page must show exactly the evaluator's explanation for the deal on screen, and no code may
show. (That every lesson renders without an error, at a phone's width and a desktop's, with a full-page screenshot
of each in ``test-artifacts/screenshots/``, is checked in test_browser_a11y.py.)

Without Playwright or /usr/bin/chromium these tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import ast
import re

import nbformat
import pytest

from musteach import evaluate

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

pytestmark = pytest.mark.browser

LESSONS = bh.lesson_paths()
PAGE_TIMEOUT_MS = 90_000


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    with bh.voila_server(tmp_path_factory.mktemp("voila") / "voila.log") as base:
        yield base


def _code_sources(path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"]


def _quiz_count(path) -> int:
    return sum(
        1
        for src in _code_sources(path)
        for node in ast.walk(ast.parse(src))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.endswith("Quiz")
    )


def _open(page, server, path):
    """Open a lesson and wait until every quiz in it shows its first answer control."""
    page.goto(f"{server}/voila/render/{path.name}", wait_until="domcontentloaded")
    page.locator(".musteach-answer").first.wait_for(state="visible")
    want = _quiz_count(path)
    page.wait_for_function(
        # the lesson map (lesson 0) is styled as a quiz but has no answers
        "n => document.querySelectorAll('.musteach-quiz:not(.musteach-map)').length >= n"
        " && [...document.querySelectorAll('.musteach-quiz:not(.musteach-map)')]"
        ".every(q => q.querySelector('.musteach-answer'))",
        arg=want,
    )


def _lance_of(quiz) -> str:
    """The lance a LanceQuiz question asks about, read from its title ("Who wins Grande?")."""
    title = quiz.locator(".musteach-title").inner_text()
    m = re.search(r"Who wins (\w+)\?", title)
    assert m, f"not a single-lance quiz title: {title!r}"
    return m.group(1).lower()


def test_lance_quiz_feedback_is_the_evaluators_explanation(page, server):
    page.goto(f"{server}/voila/render/03-grande-chica.ipynb", wait_until="domcontentloaded")
    quiz = page.locator(".musteach-quiz").first
    quiz.locator(".musteach-answer").first.wait_for(state="visible")
    lance = _lance_of(quiz)
    assert lance == "grande"
    for _round in range(2):
        table = quiz.locator("svg.musteach-table")
        hands = [h.split() for h in table.get_attribute("data-hands").split("|")]
        mano = int(table.get_attribute("data-mano"))
        result = evaluate(hands, mano)[lance]
        # answer wrongly on the first question, rightly on the second: both must explain the same way
        seat = (result.winner + 1) % 4 if _round == 0 else result.winner
        quiz.locator(f".musteach-answer.musteach-seat-{seat}").click()
        if _round == 0:
            # a wrong first answer gets one more try: the answer is not revealed yet, Next waits
            quiz.locator(".musteach-answer.musteach-tried").wait_for(state="visible")
            assert quiz.locator(".musteach-next").is_disabled()
            assert result.explanation not in quiz.locator(".musteach-feedback").inner_text()
            quiz.locator(f".musteach-answer.musteach-seat-{(result.winner + 2) % 4}").click()
        page.wait_for_function("b => !b.disabled", arg=quiz.locator(".musteach-next").element_handle())
        explanation = quiz.locator(".musteach-feedback .musteach-explanation")
        explanation.first.wait_for(state="visible")
        # the evaluator's explanation closes the feedback; a wrong answer is first told why its seat loses
        lines = explanation.first.inner_text().strip().splitlines()
        assert lines[-1].strip() == result.explanation
        if _round == 0:
            assert lines[0].startswith(f"You picked seat {(result.winner + 2) % 4}")
        headline = quiz.locator(".musteach-feedback .musteach-headline").inner_text()
        score = bh.wait_for_score(page, quiz, "Score: 0/1" if _round == 0 else "Score: 1/2")
        if _round == 0:
            assert "Right" not in headline
            assert score.startswith("Score: 0/1")
        else:
            assert headline.startswith("Right")
            assert score.startswith("Score: 1/2")
        # the winner's seat is now highlighted on the table
        lit = quiz.locator('svg.musteach-table g.musteach-seat[data-highlight="true"]')
        assert lit.get_attribute("data-seat") == str(result.winner)
        shown = table.get_attribute("data-hands")
        quiz.locator(".musteach-next").click()
        # the next question is drawn when its deal is on the table and its answers are open (the feedback is
        # cleared first, the picture follows in its own message)
        page.wait_for_function(
            "([q, old]) => !q.querySelector('.musteach-feedback .musteach-explanation')"
            " && q.querySelector('svg.musteach-table').getAttribute('data-hands') !== old"
            " && ![...q.querySelectorAll('.musteach-answer')].some(b => b.disabled)",
            arg=[quiz.element_handle(), shown],
        )


def test_no_code_shows(page, server):
    path = bh.LESSONS / "03-grande-chica.ipynb"
    _open(page, server, path)
    text = page.inner_text("body")
    html = page.content()
    assert "Grande" in text and "Chica" in text  # the prose is there
    for src in _code_sources(path):
        for line in src.splitlines():
            assert line not in text, f"code shows in the page: {line}"
            assert line not in html, f"code is in the page source: {line}"
    assert "from musteach_widgets import" not in html


def test_index_links_open_the_next_lesson(page, server):
    _open(page, server, LESSONS[0])
    page.locator(f'a[href="{LESSONS[1].name}"]').first.click()
    page.wait_for_url(re.compile(re.escape(f"/voila/render/{LESSONS[1].name}")))
    page.locator(".musteach-answer").first.wait_for(state="visible")
