"""Finish a game in a real browser and read its review: Voilà serves lesson 10, Debian's Chromium clicks.

The server starts the match at 38-38 (``MUSTEACH_TABLE_START``, the table's test-only start score), so the
first hand ends the game. The learner cuts the mus, passes, refuses or accepts until the game is over; the
banner must name the winner and a final score that reaches the target, the review must list the learner's
decisions worst first with an error rate, and after a reload the best game kept in the browser must show.

Without Playwright or /usr/bin/chromium these tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
import re

import pytest

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

pytestmark = pytest.mark.browser

PAGE = "10-play.ipynb"
PAGE_TIMEOUT_MS = 150_000
STEP_TIMEOUT_MS = 60_000
BANNER = re.compile(r"Game 1 is over: (your team|the opponents) \(team ([AB])\) won it, (\d+) to (\d+) \(A (\d+), B (\d+)\)\.")
#: the coach's one unit (issue 25), worst first by it: "2.1 points of win chance lost", or for a figure too close to
#: call "was ahead by about 0.4 ± 0.9 points of win chance"
LOST = re.compile(r"([\d.]+) points? of win chance lost|ahead by about ([\d.]+) ±")


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    old = os.environ.get("MUSTEACH_TABLE_START")
    os.environ["MUSTEACH_TABLE_START"] = "38-38"  # the kernels inherit it
    try:
        with bh.voila_server(log, plain=True) as base:
            yield base
    finally:
        if old is None:
            os.environ.pop("MUSTEACH_TABLE_START", None)
        else:
            os.environ["MUSTEACH_TABLE_START"] = old


@pytest.fixture(scope="module")
def page(browser, server):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    p = context.new_page()
    p.set_default_timeout(PAGE_TIMEOUT_MS)
    yield p
    context.close()


STONES_LOST = re.compile(r"points? of win chance(?: lost)? \(([\d.]+) stones?\)")  # its stone equivalent


def _stones_lost(line: str) -> float:
    m = STONES_LOST.search(line)
    return float(m.group(1)) if m else 0.0


def _lost(line: str) -> float:
    m = LOST.search(line)
    return float(m.group(1) or m.group(2)) if m else 0.0


def test_finish_a_game_see_banner_review_and_best_game_after_reload(page, server):
    page.goto(f"{server}/voila/render/{PAGE}", wait_until="domcontentloaded")
    table = page.locator(".musteach-table-widget").first
    table.locator("button.musteach-action-no-hay-mus:not([disabled])").wait_for(state="visible")
    assert table.locator(".musteach-best-game").inner_text().strip() == "", "no game kept yet in this browser"
    banner = table.locator(".musteach-review .musteach-game-over")
    for _ in range(40):
        if banner.count():
            break
        button = next((b for k in ("no-hay-mus", "paso", "no-quiero", "quiero") if (b := bh.enabled_action(table, k))), None)
        if button is None:
            page.wait_for_timeout(200)
            continue
        before = bh.table_step(table)
        button.first.click()
        bh.wait_table_step(page, table, before)
        assert table.locator(".musteach-message .musteach-error").count() == 0, "every click was legal"
    m = BANNER.search(banner.inner_text())
    assert m, banner.inner_text()
    who, winner, high, low, a, b = m.groups()
    score = {"A": int(a), "B": int(b)}
    assert score[winner] >= 40 > score["B" if winner == "A" else "A"], "the winner reached the target, the other not"
    assert (who == "your team") == (winner == "A"), "the learner is team A"
    assert (int(high), int(low)) == (max(score.values()), min(score.values()))
    lines = table.locator(".musteach-review-list li").all_inner_texts()
    assert lines and all(re.match(r"Hand 1, ", t) for t in lines), "the learner's decisions of the game are listed"
    losses = [_lost(t) for t in lines]
    assert losses == sorted(losses, reverse=True), f"worst first: {lines}"
    summary = table.locator(".musteach-review-summary").inner_text()
    assert f"{len(lines)} decision" in summary and "error rate" in summary
    assert "Your best game so far" in table.locator(".musteach-best-game").inner_text()
    assert "Traceback" not in page.inner_text("body")
    page.wait_for_function(  # the store has written the game to localStorage
        "() => (localStorage.getItem('musteach-progress') || '').includes('\"games\"')", timeout=STEP_TIMEOUT_MS
    )

    replay = table.locator(".musteach-replay-button")
    if replay.count():  # a decision lost stones: its replay is a sandbox that says so, until Back to the game
        before = bh.table_step(table)
        replay.first.click()
        bh.wait_table_step(page, table, before)
        assert "Replay of hand 1" in table.locator(".musteach-replay-banner").inner_text()
        assert table.locator(".musteach-review .musteach-game-over").count() == 0
        before = bh.table_step(table)
        table.locator("button.musteach-back-to-game").click()
        bh.wait_table_step(page, table, before)
        assert table.locator(".musteach-replay-banner").count() == 0
        assert BANNER.search(table.locator(".musteach-review .musteach-game-over").inner_text()).groups() == m.groups()
        assert table.locator(".musteach-review-list li").all_inner_texts() == lines, "the review is as it was"

    page.reload(wait_until="domcontentloaded")
    table = page.locator(".musteach-table-widget").first
    table.locator("button.musteach-action-no-hay-mus:not([disabled])").wait_for(state="visible")
    kept = table.locator(".musteach-best-game")
    page.wait_for_function(
        "el => el.innerText.includes('Your best game so far')", arg=kept.element_handle(), timeout=STEP_TIMEOUT_MS
    )
    rate = float(re.search(r"so far: ([\d.]+) stones lost per decision", kept.inner_text()).group(1))
    stones = [_stones_lost(t) for t in lines]  # the best game is kept by its stones lost per decision
    assert rate == pytest.approx(sum(stones) / len(stones), abs=0.051), "the game kept is the one just played"
