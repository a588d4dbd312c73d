"""``musteach serve`` in English and Spanish in Debian's Chromium (issue 17): two visitors at once each get their
own language, a Spanish lance quiz speaks Spanish, the language links go to the same lesson in the other
language, and the progress (stars) is shared across languages.

One server (no preheating) over small test lessons in a temporary folder, with ``es/`` twins, plus the
repository's ``lessons/es/03-grande-chica.ipynb`` and its English twin for the Spanish lance quiz.
Without Playwright or /usr/bin/chromium these tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("voila")

from musteach_server.app import CELL_ERROR_NOTE
from musteach_server.probe import lesson_notebook, running_server

from musteach.locale import catalogs
from musteach.rules.lances import evaluate
from musteach.teach import pages

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
STEP_MS = 60_000
LANCE, SEATS, WELCOME, GRANDE = "01-lance.ipynb", "02-seats.ipynb", "00-welcome.ipynb", "03-grande-chica.ipynb"
#: The domains whose sentences a lance quiz shows (its labels, prompt, verdict, diagnosis, explanation).
QUIZ_DOMAINS = ("ui", "teach", "coach", "rules")

MAP = "from musteach_widgets import LessonMap\nLessonMap()"
TIE_QUIZ = ('from musteach_widgets import LanceQuiz\nLanceQuiz("grande", n=1, seed=3, kinds=["tie_to_mano"], '
            'lesson="02-seats", quiz="tie_to_mano")')


def _write(folder: Path) -> Path:
    es = folder / "es"
    es.mkdir(parents=True)
    (folder / WELCOME).write_text(lesson_notebook("Welcome to Mus", MAP))
    (es / WELCOME).write_text(lesson_notebook("Bienvenida al mus", MAP))
    (folder / SEATS).write_text(lesson_notebook("Lesson 2: Seats, mano and ties", TIE_QUIZ))
    (es / SEATS).write_text(lesson_notebook("Lección 2: Asientos, mano y empates", TIE_QUIZ))
    (folder / LANCE).write_text(lesson_notebook(
        "Lesson 1: who wins Grande", "from musteach_widgets import LanceQuiz\nLanceQuiz('grande', n=3, seed=3)"))
    (es / LANCE).write_text(lesson_notebook(
        "Lección 1: quién gana la grande",
        "from musteach_widgets import LanceQuiz\nLanceQuiz('grande', n=3, seed=3, lang='es')"))
    shutil.copyfile(bh.LESSONS / GRANDE, folder / GRANDE)
    if (bh.LESSONS / "es" / GRANDE).is_file():  # engineer H's Spanish lessons
        shutil.copyfile(bh.LESSONS / "es" / GRANDE, es / GRANDE)
    return folder


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    folder = _write(tmp_path_factory.mktemp("lessons"))
    disk = tmp_path_factory.mktemp("server-disk")
    env = {**os.environ, "MUSTEACH_PROGRESS_FILE": str(disk / "progress.json"), "XDG_DATA_HOME": str(disk / "xdg")}
    log = tmp_path_factory.mktemp("log") / "serve.log"
    # one kernel preheated for each small lesson, in both languages (a page then opens at once)
    pools = [arg for lesson in ("00", "01", "02") for lang in ("", "es/") for arg in ("--pool", f"{lang}{lesson}=1")]
    with running_server("--lessons", str(folder), "--pool-size", "0", *pools, log_path=log, cwd=ROOT, env=env) as s:
        deadline = time.monotonic() + 120
        while "] ready: " not in s.log() and time.monotonic() < deadline:
            time.sleep(0.25)
        yield s


def _context(browser, locale: str = "en-US"):
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale=locale)
    context.set_default_timeout(STEP_MS)
    return context


def _spanish_pieces(domains) -> tuple[set[str], set[str]]:
    """(English pieces, Spanish pieces): the literal parts (two words or more, between placeholders) of every
    msgid of ``domains`` that its Spanish does not keep, and of their Spanish translations that the English
    does not hold."""
    english = set().union(*(catalogs.unshared_pieces(d, strip=" ") for d in domains))
    spanish = set().union(*(catalogs.unshared_pieces(d, translated=True, strip=" ") for d in domains))
    return english, spanish


def _english_in(text: str, domains=QUIZ_DOMAINS) -> list[str]:
    english, _ = _spanish_pieces(domains)
    flat = re.sub(r"\s+", " ", text)
    return sorted(p for p in english if p in flat)


def _spanish_in(text: str, domains=QUIZ_DOMAINS) -> list[str]:
    _, spanish = _spanish_pieces(domains)
    flat = re.sub(r"\s+", " ", text)
    return sorted(p for p in spanish if p in flat)


def _quiz(page):
    """The page's first quiz once its answers show; fails at once when its cell failed (a note instead)."""
    notes = [pages.lesson_bar(lang).cell_error.split(";")[0] for lang in ("en", "es")]
    page.wait_for_function(
        "notes => document.querySelector('.musteach-quiz .musteach-answer')"
        " || notes.some(n => document.body.innerText.includes(n))", arg=notes, timeout=STEP_MS)
    if page.locator(".musteach-quiz .musteach-answer").count() == 0:
        pytest.fail(f"{page.url}: the quiz's cell failed (the page shows the note {CELL_ERROR_NOTE!r})")
    return page.locator(".musteach-quiz").first


def _deal(quiz):
    table = quiz.locator("svg.musteach-table")
    hands = [h.split() for h in table.get_attribute("data-hands").split("|")]
    return hands, int(table.get_attribute("data-mano"))


def _bar(page) -> dict:
    return page.evaluate("""() => {
        const nav = document.querySelector('nav.musteach-bar');
        const other = nav.querySelector('a.musteach-language');
        return { lang: document.documentElement.lang, label: nav.getAttribute('aria-label'),
                 button: nav.querySelector('.musteach-menu-button').innerText.trim(),
                 skip: document.querySelector('.musteach-skip').innerText.trim(),
                 brand: nav.querySelector('.musteach-brand').getAttribute('href'),
                 current: nav.querySelector('[aria-current="page"]').getAttribute('href'),
                 other: other.innerText.trim(), otherHref: other.getAttribute('href'), title: document.title };
    }""")


# ----- (a) two visitors at once, one English, one Spanish -------------------------------------------

def test_two_visitors_at_once_each_get_their_own_language(browser, server):
    en, es = _context(browser, "en-US"), _context(browser, "es-ES")
    try:
        page_en, page_es = en.new_page(), es.new_page()
        # each lands on the index of their browser's language, then both open lesson 1 at the same time
        page_en.goto(server.base_url + "/", wait_until="domcontentloaded")
        page_es.goto(server.base_url + "/", wait_until="domcontentloaded")
        assert page_es.url == server.base_url + "/es/" and page_en.url == server.base_url + "/"
        page_en.locator(f'a[href$="/voila/render/{LANCE}"]').click(no_wait_after=True)
        page_es.locator(f'a[href$="/voila/render/es/{LANCE}"]').click(no_wait_after=True)
        for page in (page_en, page_es):
            page.locator("nav.musteach-bar").wait_for()
        quiz_en = _quiz(page_en)
        bar_en, bar_es = _bar(page_en), _bar(page_es)
        # the Spanish lesson has its preheated kernels as the English one does
        assert re.search(rf"page es/{re.escape(LANCE)} opened: kernel \w+ \(preheated\)", server.log())
        words = pages.lesson_bar("es")
        assert bar_es == {
            "lang": "es", "label": words.lessons, "button": words.lessons, "skip": words.skip, "brand": "/es/",
            "current": f"/voila/render/es/{LANCE}", "other": "English", "otherHref": f"/voila/render/{LANCE}",
            "title": "Lección 1: quién gana la grande · musteach",
        }
        assert bar_en == {
            "lang": "en", "label": "Lessons", "button": "Lessons", "skip": "Skip to the first quiz", "brand": "/",
            "current": f"/voila/render/{LANCE}", "other": "Español", "otherHref": f"/voila/render/es/{LANCE}",
            "title": "Lesson 1: who wins Grande · musteach",
        }
        bh.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for name, page in (("en", page_en), ("es", page_es)):
            page.locator("nav.musteach-bar").screenshot(path=str(bh.SCREENSHOTS / f"lesson-bar-{name}.png"))
        # the English visitor's quiz answers in English while the Spanish visitor's page is open
        hands, mano = _deal(quiz_en)
        winner = evaluate(hands, mano).grande.winner
        quiz_en.locator(f".musteach-seat-{winner}").click()
        quiz_en.locator(".musteach-feedback .musteach-right", has_text="Right!").wait_for()
        assert evaluate(hands, mano).grande.explanation in quiz_en.locator(".musteach-feedback").inner_text()
    finally:
        en.close()
        es.close()


def test_two_visitors_at_once_each_get_their_own_language_in_the_quiz(browser, server):
    # the widgets' labels and the verdict: needs LanceQuiz(lang="es") (the widgets) and Spanish sentences
    en, es = _context(browser, "en-US"), _context(browser, "es-ES")
    try:
        page_en, page_es = en.new_page(), es.new_page()
        page_en.goto(f"{server.base_url}/voila/render/{LANCE}", wait_until="commit")
        page_es.goto(f"{server.base_url}/voila/render/es/{LANCE}", wait_until="commit")
        quiz_en, quiz_es = _quiz(page_en), _quiz(page_es)
        facts = {}
        for name, quiz in (("en", quiz_en), ("es", quiz_es)):
            hands, mano = _deal(quiz)
            result = evaluate(hands, mano).grande
            quiz.locator(f".musteach-seat-{result.winner}").click()
            facts[name] = (hands, mano, result.winner)
        for quiz in (quiz_en, quiz_es):
            page_of = quiz.page
            page_of.wait_for_function("b => !b.disabled", arg=quiz.locator(".musteach-next").element_handle())
        text_en, text_es = quiz_en.inner_text(), quiz_es.inner_text()
        assert facts["en"] == facts["es"]  # the same seed: the same deal, the same winner
        assert "Right!" in text_en and not _spanish_in(text_en)
        left = _english_in(text_es)
        assert left == [], f"English left in the Spanish quiz: {left}\n{text_es}"
        assert _spanish_in(quiz_es.locator(".musteach-feedback").inner_text()), "no Spanish verdict"
        assert str(facts["es"][2]) in quiz_es.locator(".musteach-feedback").inner_text()
    finally:
        en.close()
        es.close()


# ----- (b) a Spanish lance quiz: prompt, verdict and diagnosis ---------------------------------------

def test_a_spanish_lance_quiz_in_voila(page, server):
    if not (bh.LESSONS / "es" / GRANDE).is_file():
        pytest.fail(f"no {bh.LESSONS / 'es' / GRANDE}: the Spanish lessons (lessons/es) are not built")
    page.goto(f"{server.base_url}/voila/render/es/{GRANDE}", wait_until="domcontentloaded")
    quiz = _quiz(page)
    assert page.evaluate("document.documentElement.lang") == "es"
    prompt = quiz.locator(".musteach-title").inner_text() + "\n" + quiz.locator(".musteach-prompt").inner_text()
    assert _english_in(prompt) == [] and _spanish_in(prompt), prompt
    hands, mano = _deal(quiz)
    result = evaluate(hands, mano).grande
    wrong, wrong_again = (result.winner + 1) % 4, (result.winner + 2) % 4
    quiz.locator(f".musteach-answer.musteach-seat-{wrong}").click()
    quiz.locator(".musteach-answer.musteach-tried").wait_for(state="visible")
    quiz.locator(f".musteach-answer.musteach-seat-{wrong_again}").click()
    page.wait_for_function("b => !b.disabled", arg=quiz.locator(".musteach-next").element_handle())
    feedback = quiz.locator(".musteach-feedback").inner_text()
    explanation = quiz.locator(".musteach-feedback .musteach-explanation").first.inner_text().strip().splitlines()
    # the verdict and the diagnosis of the seat picked, then the evaluator's explanation, all in Spanish
    assert _english_in(feedback) == [], feedback
    assert _spanish_in(feedback), feedback
    assert str(wrong_again) in explanation[0] and str(result.winner) in feedback  # the same facts
    assert result.explanation not in feedback  # not the English sentence
    bh.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    quiz.screenshot(path=str(bh.SCREENSHOTS / "es-03-grande-chica-quiz.png"))


# ----- (c) the language links ---------------------------------------------------------------------

def test_the_language_links_go_to_the_same_lesson_in_the_other_language(page, server):
    # (the bar comes first in the page: no need to wait for the lesson's cells)
    page.goto(f"{server.base_url}/voila/render/{WELCOME}", wait_until="commit")
    page.locator("a.musteach-language", has_text="Español").click()
    page.wait_for_url(f"**/voila/render/es/{WELCOME}", wait_until="commit")
    page.locator("nav.musteach-bar").wait_for()
    bar = _bar(page)
    assert (bar["lang"], bar["current"], bar["brand"]) == ("es", f"/voila/render/es/{WELCOME}", "/es/")
    assert (bar["other"], bar["otherHref"]) == ("English", f"/voila/render/{WELCOME}")  # and back
    # the indexes link to each other, and / then keeps the language chosen
    page.goto(f"{server.base_url}/es/")
    assert page.evaluate("document.documentElement.lang") == "es"
    page.locator("a[hreflang=en]", has_text="English").click()
    page.wait_for_url("**/en/")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.locator("a[hreflang=es]", has_text="Español").click()
    page.wait_for_url("**/es/")
    page.locator(f'a[href$="/voila/render/es/{SEATS}"]').wait_for()
    page.goto(f"{server.base_url}/")
    assert page.url.endswith("/es/")


# ----- (d) the progress is shared ----------------------------------------------------------------------

@pytest.mark.parametrize(("quiz_in", "map_in"), [("", "es/"), ("es/", "")], ids=["english-quiz-spanish-map",
                                                                                  "spanish-quiz-english-map"])
def test_progress_is_shared_across_languages(browser, server, quiz_in, map_in):
    context = _context(browser)  # a fresh browser: nothing in its localStorage
    try:
        page = context.new_page()
        page.goto(f"{server.base_url}/voila/render/{quiz_in}{SEATS}", wait_until="domcontentloaded")
        quiz = _quiz(page)
        hands, mano = _deal(quiz)
        quiz.locator(f".musteach-seat-{evaluate(hands, mano).grande.winner}").click()
        quiz.locator(".musteach-feedback .musteach-finished", has_text="★★★").wait_for()
        page.wait_for_function("() => (localStorage.getItem('musteach-progress') || '').includes('02-seats')")
        page.goto(f"{server.base_url}/voila/render/{map_in}{WELCOME}", wait_until="domcontentloaded")
        assert page.evaluate("document.documentElement.lang") == (map_in.rstrip("/") or "en")
        page.locator('.musteach-map li.musteach-stop[data-lesson="02-seats"][data-stars="3"]').wait_for()
        assert page.locator('.musteach-map li.musteach-stop[data-lesson="02-seats"]').get_attribute("data-done") == "true"
    finally:
        context.close()


def test_a_lesson_page_offers_its_other_language_once_in_the_bar(page, server):
    # the lesson's first line links its twin for JupyterLab ("[Español](es/03-grande-chica.ipynb)"); served, the
    # bar's language link says it already: a cold tester saw "Español" twice on every lesson page
    for path, other, heading in ((GRANDE, "Español", "Lesson 3"), (f"es/{GRANDE}", "English", "Lección 3")):
        page.goto(f"{server.base_url}/voila/render/{path}", wait_until="domcontentloaded")
        page.locator("#rendered_cells h1", has_text=heading).first.wait_for()
        where = page.evaluate(
            """(name) => [...document.querySelectorAll('a')].filter(a => a.innerText.trim() === name)
                .map(a => a.closest('nav.musteach-bar') ? 'bar' : 'lesson')""", other)
        assert where == ["bar"], f"{path}: {other!r} links found in {where}"
