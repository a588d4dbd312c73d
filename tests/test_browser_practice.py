"""The practice page in a real browser: Voilà serves lesson 11, Debian's Chromium answers it.

Progress must live in the visitor's own browser (localStorage): it survives a reload, a second browser
context (another visitor) starts fresh, and nothing is written to the server's disk. A screenshot of the
practice widget is saved in ``test-artifacts/screenshots/`` for a person to look at.

Without Playwright or /usr/bin/chromium these tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
import sqlite3
import time
from pathlib import Path

import pytest

from musteach.teach.progress import SCHEMA_VERSION

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

pytestmark = pytest.mark.browser

PAGE = "11-practice.ipynb"
PAGE_TIMEOUT_MS = 150_000  # musteach serve preheats a kernel per lesson: slow on a busy machine
KEY = "musteach-progress"


@pytest.fixture(scope="module")
def server_disk(tmp_path_factory):
    """Where a kernel would write progress files if it used the file store: none may appear."""
    return tmp_path_factory.mktemp("server-disk")


@pytest.fixture(scope="module", params=["voila", "musteach-serve"])
def server(request, browser, server_disk, tmp_path_factory):
    """Bare Voilà (a new kernel per page), then ``musteach serve`` (preheated kernels that ran the lesson
    before the visitor came)."""
    mp = pytest.MonkeyPatch()
    # the kernels inherit these: a file store would write under server_disk
    mp.setenv("MUSTEACH_PROGRESS_FILE", str(server_disk / "progress.json"))
    mp.setenv("XDG_DATA_HOME", str(server_disk / "xdg"))
    try:
        log = tmp_path_factory.mktemp("voila") / "voila.log"
        with bh.voila_server(log, plain=request.param == "voila") as base:
            yield base
    finally:
        mp.undo()


def _new_page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    return context, page


def _open(page, server):
    """Open the practice page; wait for its first question and for the browser's progress to be read."""
    page.goto(f"{server}/voila/render/{PAGE}", wait_until="domcontentloaded")
    quiz = page.locator(".musteach-practice")
    quiz.locator(".musteach-answer").first.wait_for(state="visible")
    # (a page that never heard from the browser's store stayed on "Looking for your saved progress" after a
    # reload in about one load in a hundred under load: the store's handshake now waits for the page's widget
    # models and is sent again until the kernel answers; see storage.js)
    quiz.locator(".musteach-storage", has_text="kept in this browser").wait_for()
    return quiz


FINAL = (
    ".musteach-feedback .musteach-verdict.musteach-right, "
    ".musteach-feedback .musteach-verdict.musteach-wrong:not(.musteach-retry)"
)


def _answer(quiz, number: int) -> None:
    """Answer the question on screen, whatever its kind (right or wrong does not matter), then wait for
    the verdict; a wrong first answer gets its one more try (answered the same way). ``number``: the
    question's number in the round."""
    quiz.locator(".musteach-progress", has_text=f"Question {number} of").wait_for()
    # the new controls replace the old (disabled) ones a moment after the status line changes
    quiz.locator(".musteach-answers button:not([disabled])").first.wait_for()
    assert quiz.locator(".musteach-feedback .musteach-verdict").count() == 0
    skill = quiz.locator(".musteach-progress .musteach-current-skill").get_attribute("data-skill")
    _give(quiz, skill)
    quiz.locator(f"{FINAL}, .musteach-feedback .musteach-retry").first.wait_for()
    if quiz.locator(".musteach-feedback .musteach-retry").count():
        assert "One more try." in quiz.locator(".musteach-feedback").inner_text()
        if skill in ("juego_total", "punto_total"):  # the second try starts from an empty box
            quiz.page.wait_for_function(
                "() => document.querySelector('.musteach-practice .musteach-total-input input').value === ''"
            )
        _give(quiz, skill)
    quiz.locator(FINAL).first.wait_for()


def _give(quiz, skill: str) -> None:
    if skill == "rank_order":
        n = int(re.search(r"Put these (\d) cards", quiz.locator(".musteach-prompt").inner_text()).group(1))
        places = quiz.locator(".musteach-place")
        for i in range(n):
            places.nth(i).click()  # waits for the button to be enabled (the second try reopens them)
        quiz.locator(".musteach-check").click()
    elif skill in ("juego_total", "punto_total"):
        quiz.locator(".musteach-total-input input").fill("30")
        quiz.locator(".musteach-check").click()
    elif skill in ("betting", "count"):
        quiz.locator(".musteach-check").click()  # 0 stones each: a legal answer
    else:
        quiz.locator(".musteach-answer:not([disabled])").first.click()


def _stored(page) -> dict | None:
    raw = page.evaluate(f"window.localStorage.getItem({KEY!r})")
    return None if raw is None else json.loads(raw)


def _answers_in(doc: dict | None) -> int:
    if not doc:
        return 0
    return sum(len(s["reviews"]) for s in doc["skills"].values())


def _answered_per_skill(quiz) -> dict[str, int]:
    rows = quiz.locator(".musteach-mastery .musteach-skill")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[row.get_attribute("data-skill")] = int(row.get_attribute("data-answered"))
    return out


def test_progress_survives_a_reload_and_is_the_visitors_own(browser, server, server_disk):
    context, page = _new_page(browser)
    try:
        quiz = _open(page, server)
        assert "no answers yet" in quiz.locator(".musteach-totals").inner_text()
        for k in range(1, 4):
            _answer(quiz, k)
            quiz.locator(".musteach-totals", has_text=f"All time: {k} answer").wait_for()
            quiz.locator(".musteach-next").click()
        page.wait_for_function(
            f"""() => {{ try {{ const d = JSON.parse(localStorage.getItem({KEY!r}) || 'null');
                return d && Object.values(d.skills).reduce((n, s) => n + s.reviews.length, 0) === 3; }}
                catch (e) {{ return false; }} }}"""
        )
        doc = _stored(page)
        assert doc["schema"] == "musteach-progress" and doc["schema_version"] == SCHEMA_VERSION
        assert _answers_in(doc) == 3
        before = _answered_per_skill(quiz)
        assert sum(before.values()) == 3
        assert {k for k, v in before.items() if v} == {k for k, s in doc["skills"].items() if s["reviews"]}
        score = quiz.locator(".musteach-score").inner_text()

        page.reload(wait_until="domcontentloaded")
        quiz = _open(page, server)
        quiz.locator(".musteach-totals", has_text="All time: 3 answers").wait_for()
        assert _answered_per_skill(quiz) == before, "the mastery view shows the same answers after the reload"
        m = re.search(r"best streak (\d+)", score)
        assert m and f"best streak {m.group(1)}" in quiz.locator(".musteach-score").inner_text()
        assert _answers_in(_stored(page)) == 3

        # another visitor (a fresh browser context) starts from nothing, and does not touch the first one's
        other, page2 = _new_page(browser)
        try:
            quiz2 = _open(page2, server)
            assert "no answers yet" in quiz2.locator(".musteach-totals").inner_text()
            assert sum(_answered_per_skill(quiz2).values()) == 0
            _answer(quiz2, 1)
            quiz2.locator(".musteach-totals", has_text="All time: 1 answer").wait_for()
        finally:
            other.close()
        page.reload(wait_until="domcontentloaded")
        quiz = _open(page, server)
        quiz.locator(".musteach-totals", has_text="All time: 3 answers").wait_for()
    finally:
        context.close()
    # Jupyter keeps its own files under XDG_DATA_HOME/jupyter; no progress may be there or anywhere else. The
    # server's class database (musteach serve, issue 27) is its own file there, and holds nothing of a visitor
    # who joined no class: no learner, no record.
    classes_db = [p for p in server_disk.rglob("classes.sqlite")]
    for db in classes_db:
        with contextlib.closing(sqlite3.connect(db)) as con:
            assert con.execute("SELECT count(*) FROM learners").fetchone()[0] == 0
            assert con.execute("SELECT count(*) FROM records").fetchone()[0] == 0
    leftovers = [p for p in server_disk.rglob("*") if ("musteach" in str(p) or "progress" in p.name)
                 and not p.name.startswith("classes.sqlite") and p.parent.name != "jupyter" and p.is_file()]
    assert leftovers == [], f"Voilà mode wrote progress to the server's disk: {leftovers}"


def _slow_widget_controls(route) -> None:
    """Serve the script of Voilà's widget manager holding the widget controls (HTMLModel) 1.5 s late: the page
    may then make the store's model before its siblings', the race a loaded machine runs."""
    response = route.fetch()
    body = response.body()
    if b"HTMLModel" in body:
        time.sleep(1.5)
    route.fulfill(response=response, body=body)


def test_every_reload_hears_from_the_store_while_the_widget_controls_load_late(browser, server):
    # Under load, one reload in about a hundred stayed on "Looking for your saved progress": the page's store
    # sent its load as soon as its own model was made, and the kernel's answer (the quiz redrawn, its status
    # line) went to widget models the page had not made yet, and was dropped. With the controls late, the old
    # handshake lost it in about one load in four; the store now waits for every model and asks until answered.
    context, page = _new_page(browser)
    page.route("**/widgets-manager*/static/*.js", _slow_widget_controls)  # Voilà's widget manager
    try:
        quiz = _open(page, server)
        _answer(quiz, 1)
        quiz.locator(".musteach-totals", has_text="All time: 1 answer").wait_for()
        page.wait_for_function(f"() => !!localStorage.getItem({KEY!r})")
        for _ in range(8):
            page.reload(wait_until="domcontentloaded")
            quiz = _open(page, server)
            quiz.locator(".musteach-totals", has_text="All time: 1 answer").wait_for()
    finally:
        context.close()


def test_export_downloads_the_progress_and_the_widget_is_screenshot(browser, server):
    context, page = _new_page(browser)
    try:
        quiz = _open(page, server)
        _answer(quiz, 1)
        quiz.locator(".musteach-export").click()
        link = quiz.locator(".musteach-export-link a.musteach-download")
        link.wait_for()
        with page.expect_download() as info:
            link.click()
        path = info.value.path()
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        assert _answers_in(doc) == 1 == _answers_in(_stored(page))
        href = link.get_attribute("href")
        assert json.loads(base64.b64decode(href.split(",", 1)[1])) == doc
        page.wait_for_load_state("networkidle")
        assert page.locator(".musteach-oops").count() == 0
        assert "There was an error when executing cell" not in page.inner_text("body")
        bh.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.set_viewport_size({"width": 1100, "height": 2400})  # the whole widget at once
        quiz.screenshot(path=str(bh.SCREENSHOTS / "11-practice-widget.png"))
    finally:
        context.close()
