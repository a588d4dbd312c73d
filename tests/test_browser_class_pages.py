"""The class pages as a teacher sees them in a real browser, on a laptop and on a phone (390×844): found by
trying class mode cold (issue 27). The pages are rendered by :mod:`musteach_server.classes.dashboard` and shown
with ``page.set_content`` (no server needed): a full class of 13 lessons, learners with long names.

Without Playwright or /usr/bin/chromium this test skips, except under ``CI=true`` where it fails.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from musteach_server.classes.dashboard import dashboard_page, learner_page
from musteach_server.classes.db import ClassInfo, Dashboard, LearnerInfo, LearnerRow, Mistake

pytestmark = pytest.mark.browser

LESSONS = ["00-welcome", "01-deck", "02-seats", "03-grande-chica", "04-pares", "05-juego-punto", "06-betting",
           "07-count", "08-mus", "09-senas", "10-play", "11-practice", "12-odds"]
SKILLS = ["grande", "chica", "pares", "juego", "punto", "count"]
NAMES = ["Ane", "Maria Jose Etxeberria Goikoetxea", "Iker", "Nerea de la Fuente y Lopez de Arana"]


def _dashboard() -> Dashboard:
    rows = [LearnerRow(id=i + 1, name=name, stars={ls: (i + j) % 4 for j, ls in enumerate(LESSONS)},
                       lesson_answers={ls: (10, 7) for ls in LESSONS}, lesson_seconds={ls: 300.0 for ls in LESSONS},
                       answers=130, first_try=91, seconds=3900.0, skills={s: (10, (i + k) % 11) for k, s in
                                                                          enumerate(SKILLS)})
            for i, name in enumerate(NAMES)]
    klass = ClassInfo(1, 1, "Escuela de mus de Errenteria, martes y jueves", "F5TBU7", "xtK4Ly81KQrBKrVTQtkApg", None)
    return Dashboard(klass, rows, LESSONS, SKILLS, [("three_is_not_king", NAMES[:2])], 520)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_dashboard_fits_the_screen_and_shows_every_name_whole(browser, width: int, lang: str) -> None:
    html = dashboard_page(_dashboard(), "/", "http://mus.example.org:8866/join/xtK4Ly81KQrBKrVTQtkApg",
                          '<input type="hidden" name="_xsrf" value="x">', lang)
    context = browser.new_context(viewport={"width": width, "height": 844})
    try:
        page = context.new_page()
        page.set_content(html)
        # the page itself never scrolls sideways: wide parts (the table, the heat map) scroll in their own box
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page is {overflow} px wider than a {width} px screen"
        # every learner's name in the heat map is drawn inside the picture (not cut at its left edge)
        lefts = page.evaluate("""() => [...document.querySelectorAll('svg.musteach-heatmap text[text-anchor=end]')]
            .map(t => t.getBBox().x)""")
        assert len(lefts) == len(NAMES) and min(lefts) >= 0, lefts
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_learners_mistakes_fit_a_phone(browser, lang: str) -> None:
    d = _dashboard()
    mistakes = [Mistake(datetime(2026, 12, 2, 6, k, tzinfo=UTC), "03-grande-chica", "grande", "grande",
                        "three_is_not_king", 1 + k % 2) for k in range(5)]
    html = learner_page(d.klass, LearnerInfo(4, 1, NAMES[3]), mistakes, "/", lang)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_content(html)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page is {overflow} px wider than a phone"
        assert page.locator("table.musteach-mistakes tbody tr").count() == 5
    finally:
        context.close()
