"""Lesson 12 (odds and the discard advisor) in a real browser: Voilà serves it, Debian's Chromium uses it.

Changing a card in the odds explorer must redraw the bars with exactly hand_odds' percentage for the new
hand; the discard advisor, counting in a background thread of the kernel, must end up showing
advise_discard's best discard, and another aim must re-rank it. Screenshots go to
``test-artifacts/screenshots/``.

Without Playwright or /usr/bin/chromium these tests skip, except under ``CI=true`` where they fail
(the same rule as tests/test_browser.py, through tests/browser_helpers.py).
"""

from __future__ import annotations

import pytest

from musteach.draw.odds import percent_text
from musteach.odds import advise_discard, hand_odds

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

pytestmark = pytest.mark.browser

PAGE = "12-odds.ipynb"
PAGE_TIMEOUT_MS = 120_000
# The lesson's examples (kept in step with lessons/12-odds.ipynb, checked below).
EXPLORER = ("12o 3c 11e 1b", 0, 0)
ADVISOR = ("12o 11c 6e 4b", 0, 0, "grande")


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    # bare Voilà: one new kernel for this one page (musteach serve would preheat every lesson)
    with bh.voila_server(tmp_path_factory.mktemp("voila-odds") / "voila.log", plain=True) as base:
        yield base


def _row_text(root, lance: str) -> str:
    return root.locator(f'g.musteach-odds-row[data-lance="{lance}"] text.musteach-odds-team').text_content()


def test_the_lesson_shows_the_examples_this_test_checks():
    source = (bh.LESSONS / PAGE).read_text(encoding="utf-8")
    assert 'OddsExplorer(\\"12o 3c 11e 1b\\", seat=0, mano=0)' in source
    assert 'DiscardAdvisor(\\"12o 11c 6e 4b\\", seat=0, mano=0, aim=\\"grande\\")' in source


def test_explorer_and_advisor_in_voila(page, server):
    page.goto(f"{server}/voila/render/{PAGE}", wait_until="domcontentloaded")
    explorer = page.locator(".musteach-odds").first
    bars = explorer.locator("svg.musteach-odds-bars")
    bars.wait_for(state="visible")
    assert "There was an error when executing cell" not in page.inner_text("body")

    hand, seat, mano = EXPLORER
    start = hand_odds(hand, seat, mano)
    assert _row_text(bars, "grande") == percent_text(start.grande.team)

    # change the second card: rey de copas (3c, a king in 8 reyes) -> siete de copas
    new_hand = "12o 7c 11e 1b"
    want = hand_odds(new_hand, seat, mano)
    assert percent_text(want.grande.team) != percent_text(start.grande.team)
    explorer.locator(".musteach-card-pick-1 select").select_option(label="siete de copas (7c)")
    page.wait_for_function(
        """([el, pct]) => {
             const t = el.querySelector('g.musteach-odds-row[data-lance="grande"] text.musteach-odds-team');
             return t && t.textContent === pct;
           }""",
        arg=[explorer.element_handle(), percent_text(want.grande.team)],
    )
    row = bars.locator('g.musteach-odds-row[data-lance="grande"]')
    assert float(row.get_attribute("data-team")) == float(want.grande.team)
    assert _row_text(bars, "chica") == percent_text(want.chica.team)
    assert want.explain("grande") in explorer.locator(".musteach-explanations").inner_text()

    # a card picked twice: the message, not a traceback
    explorer.locator(".musteach-card-pick-2 select").select_option(label="rey de oros (12o)")
    error = explorer.locator(".musteach-error")
    error.wait_for(state="visible")
    assert "appears twice" in error.inner_text()
    explorer.locator(".musteach-card-pick-2 select").select_option(label="caballo de espadas (11e)")
    error.wait_for(state="detached")

    # the advisor: counted in a background thread, the best discard marked
    ahand, aseat, amano, aim = ADVISOR
    advice = advise_discard(ahand, aseat, amano, aim=aim)
    advisor = page.locator(".musteach-advisor").first
    best = advisor.locator("table.musteach-advice tr.musteach-best").first
    best.wait_for(state="visible")
    assert best.get_attribute("data-discard") == " ".join(c.code for c in advice.best(aim).discard)
    assert "best" in best.inner_text()
    assert advice.explain(aim) in advisor.inner_text()
    assert advisor.locator(".musteach-counting").count() == 0

    advisor.locator(".musteach-aim-picker button", has_text="Chica").click()
    chica_best = " ".join(c.code for c in advice.best("chica").discard)
    page.wait_for_function(
        """([el, want]) => {
             const t = el.querySelector('table.musteach-advice');
             const r = el.querySelector('table.musteach-advice tr.musteach-best');
             return t && t.dataset.aim === 'chica' && r && r.dataset.discard === want;
           }""",
        arg=[advisor.element_handle(), chica_best],
    )
    assert page.locator('[data-mime-type="application/vnd.jupyter.stderr"]').count() == 0
    bh.full_page_screenshot(page, bh.SCREENSHOTS / "12-odds-interaction.png")
