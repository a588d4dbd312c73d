"""On a phone (390 x 844), the table's cards are readable: each corner index is drawn 11 px high or more,
for the end-of-hand table of lesson 10 (cards 40 wide) and a quiz's table (54 wide), laid out with the
widgets' own CSS. A cold tester found them scaled to about 0.6 (indices of about 7 px). Screenshots go to
``test-artifacts/screenshots/``. No server: the page is the widgets' HTML and CSS, set into Chromium.

Without Playwright or /usr/bin/chromium these tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import pytest
from musteach_widgets._base import QUIZ_CSS, THEME_CSS

from musteach.draw.table import table_svg
from musteach.rules import Rules

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

pytestmark = pytest.mark.browser

HANDS = ["12o 3c 7e 5b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 2b"]
#: The rendered size (CSS px) of every corner index of every card: its font size times the picture's scale.
INDEX_SIZES = """(root) => [...document.querySelectorAll(root + ' svg.musteach-table text.musteach-rank')].map(
    t => { const m = t.getScreenCTM(); return parseFloat(t.getAttribute('font-size')) * Math.hypot(m.a, m.b); })"""


@pytest.mark.parametrize(("root", "width"), [("musteach-table-widget", 40), ("musteach-quiz", 54)])
def test_corner_indices_are_11_px_or_more_on_a_phone(browser, root, width):
    svg = table_svg(HANDS, 1, card_width=width, rules=Rules(), caption="The hands" if width == 40 else None)
    html = (
        f'<html><head><meta name="viewport" content="width=device-width, initial-scale=1"><style>{THEME_CSS}{QUIZ_CSS}'
        "body { margin: 0; padding: 12px; }</style></head>"
        f'<body><div class="{root}"><div class="widget-html"><div class="widget-html-content">{svg}</div></div></div></body></html>'
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        page.set_content(html)
        sizes = page.evaluate(INDEX_SIZES, f".{root}")
        assert len(sizes) == 32  # 16 cards, two corners each
        assert min(sizes) >= 11, f"corner indices of {min(sizes):.1f} px on a phone"
        box = page.locator("svg.musteach-table").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, "the table fits the phone's width"
        bh.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(bh.SCREENSHOTS / f"phone-table-{width}.png"), full_page=True)
    finally:
        context.close()
