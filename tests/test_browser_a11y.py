"""Every screen (issue 14): the phone, axe-core, the keyboard alone, and JupyterLab's dark theme.

Each lesson is opened at 390 x 844 (a phone): nothing may scroll sideways, no control may sit off screen, and
axe-core (the npm package, installed by ``make axe``) must find 0 violations of any impact. A learner answers a
lance quiz and takes a decision at the table with the keyboard alone. In a real JupyterLab in the dark theme,
the quiz text must keep a readable contrast. Screenshots go to ``test-artifacts/screenshots/``.

Without Playwright, /usr/bin/chromium or axe-core these tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

pytestmark = pytest.mark.browser

LESSONS = bh.lesson_paths()
PHONE = {"width": 390, "height": 844}
AXE_JS = Path(os.environ.get("MUSTEACH_AXE_JS", bh.ROOT / ".venv" / "npm" / "node_modules" / "axe-core" / "axe.min.js"))
ERROR_TEXT = "There was an error when executing cell"
ROOTS = ".musteach-quiz, .musteach-table-widget, .musteach-odds, .musteach-advisor, .musteach-dealview"


def _need_axe() -> str:
    if AXE_JS.exists():
        return AXE_JS.read_text()
    why = f"axe-core is missing at {AXE_JS} (make axe installs it with npm)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(why)
    pytest.skip(why)


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    with bh.voila_server(tmp_path_factory.mktemp("voila") / "voila.log") as base:
        yield base


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE)
    p = context.new_page()
    p.set_default_timeout(90_000)
    yield p
    context.close()


def _title(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    # the lesson's "# " heading (its first line links the lesson in the other languages)
    return next(line[2:].strip() for line in nb.cells[0].source.splitlines() if line.startswith("# "))


def _open(page, server, path: Path) -> None:
    page.goto(f"{server}/voila/render/{path.name}", wait_until="domcontentloaded")
    page.locator(ROOTS).first.wait_for(state="visible")
    page.wait_for_function("() => !document.querySelector('.voila-spinner, #loading')", timeout=90_000)
    page.wait_for_timeout(800)  # let the last widgets lay out


# what scrolls sideways, and which controls lie outside the window
_PHONE_CHECK = """() => {
  const W = document.documentElement.clientWidth;
  const name = e => e.tagName.toLowerCase() + '.' + String(e.className.baseVal ?? e.className).split(' ').slice(-2).join('.');
  const sideways = [...document.querySelectorAll('*')].filter(e =>
      e.scrollWidth > e.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(e).overflowX) && e.clientWidth > 0)
    .map(e => name(e) + ` ${e.scrollWidth}>${e.clientWidth}`);
  if (document.documentElement.scrollWidth > W + 1) sideways.push(`page ${document.documentElement.scrollWidth}>${W}`);
  const off = [...document.querySelectorAll('main button, main input, main select, main a, main textarea')]
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < -1 || r.right > W + 1); })
    .map(e => name(e) + ` ${Math.round(e.getBoundingClientRect().left)}..${Math.round(e.getBoundingClientRect().right)}`);
  return {sideways, off, title: document.title, mains: document.querySelectorAll('main').length};
}"""


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_phone_and_axe_then_desktop(phone, server, path):
    """At 390 px: nothing scrolls sideways, no control is off screen, one <main>, the page's title, 0 axe
    violations. Then at 1100 px: no failed cell, no error box, no stderr, the lesson's heading; screenshots of both."""
    axe = _need_axe()
    _open(phone, server, path)
    found = phone.evaluate(_PHONE_CHECK)
    bh.full_page_screenshot(phone, bh.SCREENSHOTS / f"phone-{path.stem}.png")
    assert found["sideways"] == [], f"{path.stem} scrolls sideways at 390 px: {found['sideways']}"
    assert found["off"] == [], f"{path.stem} has controls off screen at 390 px: {found['off']}"
    assert found["mains"] == 1
    assert found["title"] == f"{_title(path)} · musteach"
    phone.add_script_tag(content=axe)
    violations = phone.evaluate(
        "async () => (await axe.run(document)).violations.map(v => ({id: v.id, impact: v.impact,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
    )
    assert violations == [], f"axe on {path.stem}: {json.dumps(violations, indent=1)}"
    # the same page on a desktop (this replaces a second page load per lesson): it renders without an error
    phone.set_viewport_size({"width": 1100, "height": 900})
    phone.wait_for_timeout(300)
    text = phone.inner_text("body")
    assert ERROR_TEXT not in text, f"{path.name}: a cell failed in Voilà"
    assert phone.locator(".musteach-error, .musteach-oops").count() == 0
    assert phone.locator('[data-mime-type="application/vnd.jupyter.stderr"]').count() == 0
    assert _title(path) in text
    bh.full_page_screenshot(phone, bh.SCREENSHOTS / f"{path.stem}.png")


def test_table_cards_are_large_enough_to_tap(phone, server):
    _open(phone, server, bh.LESSONS / "10-play.ipynb")
    phone.locator(".musteach-table-widget .musteach-action:not([disabled])").first.wait_for(state="visible")
    sizes = phone.evaluate(
        """() => [...document.querySelectorAll(['.musteach-mycard svg.musteach-card', '.musteach-discard-toggle',
                  '.musteach-action'].map(s => '.musteach-table-widget ' + s).join(', '))]
           .filter(e => e.getClientRects().length).map(e => { const r = e.getBoundingClientRect();
             return [e.getAttribute('class'), Math.round(r.width), Math.round(r.height)]; })"""
    )
    assert sizes, "no cards or actions at the table"
    small = [s for s in sizes if min(s[1], s[2]) < 44]
    assert small == [], f"targets under 44 px on a phone: {small}"


def test_count_team_boxes_line_up_on_a_phone(phone, server):
    # a cold tester: lesson 7's Team A and Team B boxes did not line up at 390 px (the rows wrapped unevenly)
    _open(phone, server, bh.LESSONS / "07-count.ipynb")
    rows = phone.locator(".musteach-quiz .musteach-stones-row:has(.musteach-row-label)")
    rows.first.wait_for(state="visible")
    boxes = phone.evaluate(
        """() => [...document.querySelectorAll('.musteach-quiz .musteach-stones-row:has(.musteach-row-label)')].map(
             row => [...row.querySelectorAll('.musteach-stones-input input')].map(e => {
               const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.right)]; }))"""
    )
    assert len(boxes) >= 2 and all(len(b) == 2 for b in boxes), boxes
    assert len({b[0][0] for b in boxes}) == 1 and len({b[1][0] for b in boxes}) == 1, f"columns do not line up: {boxes}"
    assert all(a[1] == b[1] and a[2] < b[0] for a, b in boxes), f"team A and B are not side by side: {boxes}"
    assert max(b[1][2] for b in boxes) <= 390


def _focused(page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement; return e === document.body ? 'body'"
        " : (e.getAttribute('class') || '') + '|' + (e.innerText || e.getAttribute('aria-label') || ''); }"
    )


def test_keyboard_alone_answers_a_lance_quiz(page, server):
    _open(page, server, bh.LESSONS / "03-grande-chica.ipynb")
    page.keyboard.press("Tab")
    assert "musteach-skip" in _focused(page)
    page.keyboard.press("Enter")
    first = _focused(page)
    assert "musteach-answer" in first, f"the skip link led to {first!r}"
    page.keyboard.press("ArrowRight")
    second = _focused(page)
    assert "musteach-answer" in second and second != first, "ArrowRight did not move to the next seat"
    page.keyboard.press("ArrowLeft")
    assert _focused(page) == first
    page.keyboard.press("Enter")
    quiz = page.locator(".musteach-quiz").first
    quiz.locator(".musteach-feedback .musteach-explanation").wait_for(state="visible")
    page.wait_for_timeout(300)
    after = _focused(page)
    assert after != "body", "focus fell to the page after answering"
    nxt = quiz.locator(".musteach-next").first
    if nxt.is_disabled():  # a wrong first answer: one more try, with focus on the first open answer
        assert "musteach-answer" in after, f"the second try left focus on {after!r}"
        page.keyboard.press("Enter")
        page.wait_for_function("b => !b.disabled", arg=nxt.element_handle())
        page.wait_for_timeout(300)
        assert _focused(page) != "body", "focus fell to the page after the second try"
    for _ in range(12):  # Tab on to Next
        if "musteach-next" in _focused(page):
            break
        page.keyboard.press("Tab")
    assert "musteach-next" in _focused(page)
    page.keyboard.press("Enter")
    page.wait_for_function("q => !q.querySelector('.musteach-feedback .musteach-explanation')", arg=quiz.element_handle())
    page.wait_for_timeout(300)
    assert _focused(page) != "body", "focus fell to the page after Next"
    live = quiz.locator(".musteach-feedback .widget-html-content")
    assert live.get_attribute("aria-live") == "polite"


def test_keyboard_alone_takes_a_table_decision(page, server):
    _open(page, server, bh.LESSONS / "10-play.ipynb")
    table = page.locator(".musteach-table-widget").first
    table.locator(".musteach-action:not([disabled])").first.wait_for(state="visible")
    status = table.locator(".musteach-status .widget-html-content")
    assert status.get_attribute("aria-live") == "polite"
    # every card toggle is named by its card and says whether it is marked
    for tog in table.locator(".musteach-discard-toggle").all():
        if tog.is_visible():
            assert tog.get_attribute("aria-pressed") in ("true", "false")
            assert " de " in (tog.get_attribute("aria-label") or ""), "a toggle without its card's name"
    before = table.inner_text()
    for _ in range(80):  # Tab until an enabled action of the table has focus
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('.musteach-table-widget')"
                         " && document.activeElement.classList.contains('musteach-action')"):
            break
    else:
        pytest.fail("no table action reachable by Tab")
    action = _focused(page)
    page.keyboard.press("Enter")
    page.wait_for_function("([t, b]) => t.innerText !== b", arg=[table.element_handle(), before])
    page.wait_for_timeout(500)
    after = page.evaluate("() => document.activeElement === document.body ? 'body'"
                          " : (document.activeElement.closest('.musteach-table-widget') ? 'table' : 'elsewhere')")
    assert after == "table", f"after {action!r} focus went to {after}"
    page.screenshot(path=str(bh.SCREENSHOTS / "keyboard-table.png"))


# ------------------------------------------------------------------------------------------------
# JupyterLab's dark theme
# ------------------------------------------------------------------------------------------------

_CONTRAST = """(sel) => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  return [...document.querySelectorAll(sel)].filter(e => e.innerText.trim()).map(e => {
    const fg = rgb(getComputedStyle(e).color);
    let bg = null;
    for (let a = e; a && !bg; a = a.parentElement) {
      const c = rgb(getComputedStyle(a).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) bg = c;
    }
    bg = bg || [255, 255, 255];
    const [l1, l2] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return [e.innerText.trim().slice(0, 40), (l1 + 0.05) / (l2 + 0.05)];
  });
}"""
QUIZ_TEXT = ".musteach-quiz .musteach-title .widget-html-content, .musteach-quiz .musteach-prompt .widget-html-content, " \
    ".musteach-quiz .musteach-feedback .musteach-explanation, .musteach-quiz .musteach-score .widget-html-content"


@contextlib.contextmanager
def _jupyterlab(tmp: Path):
    """A real JupyterLab on a free port, its theme set to JupyterLab Dark, the app exposed to the page."""
    settings = tmp / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "themes.jupyterlab-settings").write_text(json.dumps({"theme": "JupyterLab Dark"}))
    workspaces = tmp / "workspaces"
    workspaces.mkdir()
    notebooks = tmp / "notebooks"  # a copy: JupyterLab may save what it opens, and the lessons stay as they are
    notebooks.mkdir()
    shutil.copy(bh.LESSONS / "03-grande-chica.ipynb", notebooks)
    port = bh.free_port()
    argv = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}", "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
            f"--ServerApp.root_dir={notebooks}", f"--LabServerApp.user_settings_dir={tmp / 'settings'}",
            f"--LabServerApp.workspaces_dir={workspaces}", "--LabApp.expose_app_in_browser=True"]
    log = open(tmp / "lab.log", "wb")
    proc = subprocess.Popen(argv, cwd=notebooks, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, "JUPYTER_CONFIG_DIR": str(tmp / "config")})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(base + "/api", timeout=2) as r:
                    if r.status == 200:
                        break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((tmp / "lab.log").read_text(errors="replace")[-4000:])
            time.sleep(0.5)
        yield base
    finally:
        bh.stop_group(proc)
        log.close()


def test_quiz_text_is_readable_in_jupyterlab_dark(page, tmp_path, server):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with _jupyterlab(tmp_path) as base:
        page.goto(f"{base}/lab/tree/03-grande-chica.ipynb", wait_until="domcontentloaded")
        page.wait_for_function("() => window.jupyterapp && document.body.dataset.jpThemeName === 'JupyterLab Dark'",
                               timeout=60_000)
        page.locator(".jp-Notebook").first.wait_for(state="visible")
        quiz = page.locator(".musteach-quiz").first
        page.wait_for_function("() => /Idle/.test(document.querySelector('#jp-main-statusbar')?.innerText || '')",
                               timeout=90_000)  # the kernel is up
        for _ in range(8):  # until the notebook is current and its kernel runs the cells (not awaited)
            page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
            with contextlib.suppress(PlaywrightTimeout):
                quiz.locator(".musteach-answer").first.wait_for(state="visible", timeout=15_000)
                break
        else:
            pytest.fail("the lesson's quiz did not appear in JupyterLab")
        quiz.locator(".musteach-answer").first.click()
        quiz.locator(".musteach-feedback .musteach-explanation").wait_for(state="visible")
        quiz.scroll_into_view_if_needed()
        quiz.screenshot(path=str(bh.SCREENSHOTS / "jupyterlab-dark-quiz.png"))
        dark = page.evaluate(_CONTRAST, QUIZ_TEXT)
    assert len(dark) >= 3, f"quiz text not found: {dark}"
    low = [d for d in dark if d[1] < 4.5]
    assert low == [], f"quiz text under 4.5:1 in JupyterLab Dark: {low}"
    # and in Voilà (the light theme) the same text keeps its contrast
    _open(page, server, bh.LESSONS / "03-grande-chica.ipynb")
    light = page.evaluate(_CONTRAST, QUIZ_TEXT)
    assert light and all(d[1] >= 4.5 for d in light), light
