"""The static site (``musteach site``, issue 29): built once for the test session from the package registries
(the downloads are cached in ``.venv/site-cache``), served on 127.0.0.1 by a plain file server, and opened in
Debian's Chromium with every request to another host blocked and counted. Lessons 03, 10 and Spanish 12 run
their Python in the browser (Pyodide), a quiz question is answered in each, the page is reloaded and the
progress is still there; no traceback shows and no request leaves the site.

Without Playwright or /usr/bin/chromium these tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from musteach_server.site import build_site, hidden_lesson, lesson_links, rewrite_lock

from musteach.rules.lances import evaluate

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

PAGE_TIMEOUT_MS = 240_000
KEY = "musteach-progress"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # the base class's name
        pass


@contextlib.contextmanager
def _serve(folder: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[str]:
    out = tmp_path_factory.mktemp("site") / "site"
    build_site(out, lessons=bh.LESSONS, project=bh.ROOT, cache=bh.ROOT / ".venv" / "site-cache")
    with _serve(out) as base:
        yield base


class _Guard:
    """Blocks and counts every request that leaves the site's own address."""

    def __init__(self, base: str):
        self.base = base + "/"
        self.blocked: list[str] = []

    def __call__(self, route) -> None:
        url = route.request.url
        if url.startswith(self.base) or url.startswith(self.base.replace("http", "ws", 1)):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()


def _context(browser, base: str):
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    guard = _Guard(base)
    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, guard, errors


def _open(page, url: str | None):
    if url is not None:
        page.goto(url, wait_until="domcontentloaded")
    page.locator("body.musteach-ran").wait_for(state="attached")
    page.locator(".musteach-bar").wait_for()


def _no_traceback(page) -> None:
    shown = page.evaluate(
        "() => [...document.querySelectorAll('.jp-OutputArea-output')].map(e => e.innerText)"
        ".filter(t => /Traceback|Error:/.test(t))"
    )
    assert shown == [], f"a cell shows a traceback: {shown[0][:500]}"


_ANSWERS_JS = f"""() => {{ let n = 0;
    for (let i = 0; i < localStorage.length; i++) {{ const k = localStorage.key(i);
        if (k.startsWith({KEY + "/r/"!r})) {{ try {{ if (['answer', 'step'].includes(JSON.parse(localStorage.getItem(k)).kind)) n++; }}
                                             catch (e) {{}} }} }}
    return n; }}"""


def _answers(page) -> int:
    """The answer and step records kept in this browser (each under its own localStorage key,
    musteach.teach.progress): a step is an answer of a run in progress, kept so that a reload resumes it."""
    return int(page.evaluate(_ANSWERS_JS))


def _wait_answers(page, more_than: int) -> int:
    page.wait_for_function(f"() => ({_ANSWERS_JS})() > {more_than}")
    return _answers(page)


@pytest.mark.browser
def test_three_lessons_run_in_the_browser_answer_and_keep_their_progress(browser, site):
    context, page, guard, errors = _context(browser, site)
    try:
        # lesson 03 (English): the Grande quiz, one question answered right
        _open(page, f"{site}/notebooks/index.html?path=03-grande-chica.ipynb")
        bar = page.locator(".musteach-bar")
        assert bar.locator("a[rel=next]").inner_text().startswith("Lesson 4")
        assert bar.locator("a[rel=alternate]").get_attribute("hreflang") == "es"
        quiz = page.locator(".musteach-quiz").first
        quiz.locator(".musteach-answer").first.wait_for(state="visible")
        table = quiz.locator("svg.musteach-table")
        hands = [h.split() for h in table.get_attribute("data-hands").split("|")]
        winner = evaluate(hands, int(table.get_attribute("data-mano"))).grande.winner
        quiz.locator(f".musteach-seat-{winner}").click()
        quiz.locator(".musteach-feedback .musteach-right").first.wait_for()
        before = _wait_answers(page, 0)
        _no_traceback(page)
        page.reload(wait_until="domcontentloaded")
        _open(page, None)
        page.locator(".musteach-quiz .musteach-answer").first.wait_for(state="visible")
        assert _answers(page) >= before >= 1, "the answer is still kept after a reload"
        # the run resumes at its question, answered: musteach.teach.resume
        page.locator(".musteach-quiz").first.locator(".musteach-feedback .musteach-right").first.wait_for()
        _no_traceback(page)

        # lesson 10 (English): the table starts without threads, and the mus quiz answers a question
        _open(page, f"{site}/notebooks/index.html?path=10-play.ipynb")
        page.locator(".musteach-table-widget .musteach-action:not([disabled])").first.wait_for(state="visible")
        mus = page.locator(".musteach-mus-quiz")
        mus.locator("button.musteach-answer:not([disabled])").first.wait_for(state="visible")
        mus.locator("button.musteach-answer:not([disabled])").first.click()
        mus.locator(".musteach-feedback .musteach-verdict").first.wait_for()
        _no_traceback(page)

        # Spanish lesson 12: the odds quiz answers a question; the bar speaks Spanish
        _open(page, f"{site}/notebooks/index.html?path=es/12-odds.ipynb")
        assert page.evaluate("document.documentElement.lang") == "es"
        # no notebook chrome left: JupyterLab's English "Click to add a cell." footer (which added a cell)
        assert page.locator(".jp-Notebook-footer").count() == 1
        assert not page.locator(".jp-Notebook-footer").is_visible(), "the notebook's 'add a cell' footer shows"
        assert page.locator(".musteach-bar a[rel=prev]").inner_text().startswith("← Lección 11")
        odds = page.locator(".musteach-quiz").last
        odds.locator("button.musteach-answer:not([disabled])").first.wait_for(state="visible")
        mark = _answers(page)
        odds.locator("button.musteach-answer:not([disabled])").first.click()
        odds.locator(".musteach-feedback .musteach-verdict").first.wait_for()
        after = _wait_answers(page, mark)
        _no_traceback(page)
        page.reload(wait_until="domcontentloaded")
        _open(page, None)
        assert _answers(page) >= after > mark, "the odds answer is kept too"
        page.locator(".musteach-quiz").last.locator(".musteach-feedback .musteach-verdict").first.wait_for()
        bh.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(bh.SCREENSHOTS / "site-es-12-odds.png"))
        assert guard.blocked == [], f"requests left the site: {guard.blocked[:5]}"
        assert errors == [], f"page errors: {errors[:3]}"
    finally:
        context.close()


@pytest.mark.browser
def test_a_lessons_own_links_open_the_lesson_page(browser, site):
    """The links written in a lesson (the other language, the next lesson, the index) open that lesson's page in
    the same tab; JupyterLab alone opened a new tab of a file browser the site does not have (a 404)."""
    context, page, guard, _errors = _context(browser, site)
    try:
        opened: list[str] = []
        context.on("page", lambda p: opened.append(p.url))
        page.goto(f"{site}/notebooks/index.html?path=es/00-welcome.ipynb", wait_until="domcontentloaded")
        page.locator(".musteach-bar").wait_for()
        page.locator(".jp-RenderedMarkdown a", has_text="English").first.click()
        page.wait_for_url("**/notebooks/index.html?path=00-welcome.ipynb")
        page.locator(".musteach-bar").wait_for()
        page.locator(".jp-RenderedMarkdown a[href$='01-deck.ipynb']").first.click()
        page.wait_for_url("**/notebooks/index.html?path=01-deck.ipynb")
        assert opened == [], f"a lesson link opened another tab: {opened}"
        assert guard.blocked == [], f"requests left the site: {guard.blocked[:5]}"
    finally:
        context.close()


def test_the_rewritten_lock_holds_only_hosted_wheels(tmp_path):
    # two wheels, made here: the lock lists exactly them, with their own sha256, and drops Pyodide's others
    import hashlib
    import zipfile

    wheels = []
    for name, top in (("alpha_pkg", "alpha"), ("beta", "beta")):
        w = tmp_path / f"{name}-1.0-py3-none-any.whl"
        with zipfile.ZipFile(w, "w") as z:
            z.writestr(f"{top}/__init__.py", "")
            z.writestr(f"{name}-1.0.dist-info/METADATA", "Name: x\n")
        wheels.append(w)
    lock = {"info": {"abi_version": "2026_0"}, "packages": {"numpy": {"file_name": "numpy.whl"}}}
    out = rewrite_lock(lock, wheels)
    assert out["info"] == lock["info"]
    assert sorted(out["packages"]) == ["alpha-pkg", "beta"]
    entry = out["packages"]["alpha-pkg"]
    assert entry["sha256"] == hashlib.sha256(wheels[0].read_bytes()).hexdigest()
    assert entry["imports"] == ["alpha"] and entry["file_name"] == wheels[0].name and entry["depends"] == []


def test_a_lesson_is_served_with_its_code_hidden_and_read_only():
    nb = {"cells": [{"cell_type": "markdown", "source": "# x", "metadata": {}},
                    {"cell_type": "code", "source": "f()", "metadata": {}, "outputs": [{"x": 1}], "execution_count": 3}],
          "metadata": {}}
    out = hidden_lesson(nb)
    code = out["cells"][1]
    assert code["metadata"]["jupyter"]["source_hidden"] is True and code["outputs"] == []
    assert all(c["metadata"]["editable"] is False for c in out["cells"])
    assert nb["cells"][1]["outputs"] == [{"x": 1}], "the source notebook is not changed"


def test_every_lesson_links_like_the_servers_lesson_bar():
    from musteach_server.lessons import list_lessons, list_translations

    translations = {"en": list_lessons(bh.LESSONS), **list_translations(bh.LESSONS)}
    links = lesson_links(translations)
    assert len(links) == sum(len(v) for v in translations.values())
    first, last = links["00-welcome.ipynb"], links["12-odds.ipynb"]
    assert first["previous"] is None and first["next"]["href"].endswith("path=01-deck.ipynb")
    assert last["next"] is None and last["previous"]["href"].endswith("path=11-practice.ipynb")
    es = links["es/03-grande-chica.ipynb"]
    assert es["lang"] == "es" and es["twins"][0]["href"].endswith("path=03-grande-chica.ipynb")
    assert es["index"]["text"] == "Lecciones"
