"""No button of the lessons' widgets asks for a Font Awesome icon: the page's Content-Security-Policy keeps
Voilà's CDN stylesheet out, so an icon would be a blank square. Every button says what it does in words."""

from __future__ import annotations

import ipywidgets as widgets
import musteach_widgets as mw
import pytest

pytestmark = pytest.mark.usefixtures("strict_widgets")


def walk(w: widgets.Widget):
    yield w
    for child in getattr(w, "children", ()):
        yield from walk(child)


MAKERS = {
    "lance": lambda: mw.LanceQuiz("grande", n=1, seed=1),
    "rank": lambda: mw.RankQuiz(n=1, seed=1),
    "total": lambda: mw.TotalQuiz("juego", n=1, seed=1),
    "betting": lambda: mw.BettingQuiz(n=1, seed=1),
    "count": lambda: mw.CountQuiz(n=1, seed=1),
    "count_view": lambda: mw.show_count(["12o 12c 7e 4b", "1o 1c 5o 6e", "11o 10c 7c 7o", "3e 2b 5c 6c"], 0),
    "practice": lambda: mw.PracticeQuiz(n=1, seed=1, store="memory"),
    "map": lambda: mw.LessonMap(store="memory"),
    "senas": lambda: mw.SenaQuiz(n=1, seed=1),
    "odds": lambda: mw.OddsQuiz(n=1, seed=1),
    "table": lambda: _table_at_a_discard(),
}


def _table_at_a_discard():
    """A table whose learner is asked for a discard, so the "Change" toggles under the cards exist too."""
    for seed in range(300):
        t = mw.PlayTable(seed=seed, bot="rule", background=False)
        if t.my_turn and t.game.hand.phase == "mus":
            t.button("mus").click()
            if t.game.hand.phase == "discard" and t.my_turn and t.card_toggles:
                return t
    raise AssertionError("no seed in 0..299 gives the learner a discard")


@pytest.mark.parametrize("name", MAKERS)
def test_buttons_carry_words_not_icons(name):
    root = MAKERS[name]()
    buttons = [w for w in walk(root) if hasattr(w, "icon")]
    assert buttons, "every one of these widgets has buttons"
    assert [(type(w).__name__, w.description, w.icon) for w in buttons if w.icon] == []
    assert all(w.description for w in buttons if isinstance(w, widgets.Button))
