"""OddsExplorer, OddsPanel, DiscardAdvisor and OddsQuiz driven by simulated picks and clicks (musteach_widgets.odds).

The numbers on screen must be exactly hand_odds' and advise_discard's; a bad pick shows the MusError's text,
never a traceback; the advisor's background count finishes (waited on with a timeout) and a newer pick wins
over an older count. As in tests/test_widgets.py, click and observe handlers are called directly, so an
exception in one fails the test, and any widget left with recorded ``errors`` fails it too.
"""

from __future__ import annotations

import html
import re
import threading
import xml.etree.ElementTree as ET

import ipywidgets as widgets
import musteach_widgets as mw
import pytest
from musteach_widgets import odds as odds_module

from musteach import Rules
from musteach.draw.odds import percent_text
from musteach.odds import advise_discard, hand_odds
from musteach.rules.errors import MusError
from musteach.teach.odds_quiz import band_of

pytestmark = pytest.mark.usefixtures("strict_widgets")

HAND = "12o 11c 6e 4b"
LANCES = ("grande", "chica", "pares", "juego", "punto")
WAIT = 120  # seconds: a first count at a new place at the table takes a few seconds on a busy machine


def bars_of(value: str) -> dict[str, ET.Element]:
    svg = re.search(r'<svg[^>]*class="musteach-odds-bars".*?</svg>', value, re.S).group(0)
    root = ET.fromstring(svg)
    return {g.get("data-lance"): g for g in root.iter() if g.get("class") == "musteach-odds-row"}


def team_text(row: ET.Element) -> str:
    return next(t.text for t in row.iter() if t.get("class") == "musteach-odds-team")


def assert_shows(explorer, expected):
    """The explorer's bars, sentences and "nobody" line are exactly those of ``expected`` (a HandOdds)."""
    assert explorer.error is None and explorer.message.value == ""
    assert explorer.odds == expected
    rows = bars_of(explorer.bars.value)
    for lo in expected.lances():
        row = rows[lo.lance.value]
        assert float(row.get("data-team")) == float(lo.team)
        assert team_text(row) == percent_text(lo.team)
    shown = html.unescape(explorer.explanations.value)
    for name in LANCES:
        assert f"<li>{expected.explain(name)}</li>" in shown
    nobody = explorer.nobody.value
    if expected.no_pares == 0:
        assert "pares, so Pares is always played" in nobody
    else:
        assert f"holds pares in {percent_text(expected.no_pares)} of the deals" in nobody
    if expected.no_juego == 0:
        assert "juego, so Punto is never played" in nobody
    else:
        assert f"nobody has juego in {percent_text(expected.no_juego)}," in nobody


def classes(w: widgets.DOMWidget) -> set[str]:
    return set(w._dom_classes)


# ----------------------------------------------------------------------------------------------
# OddsExplorer
# ----------------------------------------------------------------------------------------------


def test_explorer_starts_with_the_given_hand_and_place():
    e = mw.OddsExplorer("12o 3c 11e 1b", seat=3, mano=1)
    assert "musteach-odds" in classes(e)
    assert e.hand_codes == ("12o", "3c", "11e", "1b")
    assert e.position_picker.value == 2 and e.seat == 3
    assert_shows(e, hand_odds("12o 3c 11e 1b", 3, 1))
    assert "musteach-card-pick-0" in classes(e.card_pickers[0])
    assert e.partner_row.layout.display == "none"


def test_picking_a_card_recounts():
    e = mw.OddsExplorer()
    before = e.odds
    e.card_pickers[1].value = "7c"
    assert e.hand_codes[1] == "7c"
    assert e.odds != before
    assert_shows(e, hand_odds(e.hand_codes, 0, 0))


def test_position_kings_and_partner_change_the_count():
    e = mw.OddsExplorer(HAND, seat=0, mano=2)
    e.position_picker.value = 3  # postre: seat 1 when seat 2 is mano
    assert e.seat == 1
    assert_shows(e, hand_odds(HAND, 1, 2))
    e.kings_picker.value = 4
    assert e.odds.rules.kings == 4
    assert_shows(e, hand_odds(HAND, 1, 2, Rules(kings=4)))
    e.kings_picker.value = 8
    e.partner_toggle.value = True
    assert e.partner_row.layout.display is None
    assert e.partner_codes is not None and not set(e.partner_codes) & set(e.hand_codes)
    assert_shows(e, hand_odds(HAND, 1, 2, partner=e.partner_codes))
    assert "Your partner" in e.hands_picture.value
    e.partner_pickers[0].value = "1b"
    assert_shows(e, hand_odds(HAND, 1, 2, partner=e.partner_codes))
    e.partner_toggle.value = False
    assert_shows(e, hand_odds(HAND, 1, 2))


def test_a_card_picked_twice_shows_the_mus_error_and_recovers():
    e = mw.OddsExplorer(HAND)
    e.card_pickers[2].value = "12o"
    with pytest.raises(MusError) as info:
        hand_odds(e.hand_codes, 0, 0)
    assert e.odds is None and isinstance(e.error, MusError)
    assert 'class="musteach-error"' in e.message.value and 'role="alert"' in e.message.value
    assert html.escape(str(info.value)) in e.message.value
    assert "Traceback" not in e.message.value
    assert e.bars.value == "" and e.explanations.value == ""
    e.card_pickers[2].value = "6e"
    assert_shows(e, hand_odds(HAND, 0, 0))


def test_a_partner_card_in_your_hand_is_named():
    e = mw.OddsExplorer(HAND, partner="12o 1c 1e 1b")
    assert e.odds is None
    assert "is both in the hand and in the partner" in html.unescape(e.message.value)


def test_a_bad_example_hand_falls_back_with_a_message():
    e = mw.OddsExplorer("12o 99x 6e 4b")
    assert e.odds is not None
    assert "99x" in html.unescape(e.message.value)
    assert 'class="musteach-error"' in e.message.value
    e.card_pickers[0].value = "7o"  # any pick clears the note
    assert e.message.value == ""


def test_set_hand_counts_once_and_checks_its_input():
    e = mw.OddsExplorer()
    e.set_hand("1o 1c 4e 5b")
    assert_shows(e, hand_odds("1o 1c 4e 5b", 0, 0))
    with pytest.raises(MusError):
        e.set_hand("1o 1c 4e")


@pytest.mark.parametrize("kwargs", [{"seat": 4}, {"mano": -1}, {"rules": "8 reyes"}])
def test_explorer_refuses_bad_arguments(kwargs):
    with pytest.raises(MusError):
        mw.OddsExplorer(**kwargs)


def test_an_unexpected_failure_is_shown_kindly(monkeypatch, strict_widgets):
    e = mw.OddsExplorer()

    def boom(*_a, **_k):
        raise RuntimeError("injected")

    monkeypatch.setattr(odds_module, "hand_odds", boom)
    e.card_pickers[0].value = "7o"
    assert len(e.errors) == 1 and isinstance(e.errors[0], RuntimeError)
    assert "Something went wrong" in e.message.value and "injected" not in e.message.value
    e.errors.clear()


# ----------------------------------------------------------------------------------------------
# OddsPanel
# ----------------------------------------------------------------------------------------------


def test_panel_shows_the_odds_read_only():
    p = mw.OddsPanel("12o 3c 11e 1b", seat=0, mano=0)
    want = hand_odds("12o 3c 11e 1b", 0, 0)
    assert {"musteach-odds", "musteach-odds-panel"} <= classes(p)
    assert p.odds == want and p.error is None
    assert "Before you decide, your odds are" in p.content.value
    rows = bars_of(p.content.value)
    assert {k: float(r.get("data-team")) for k, r in rows.items()} == {
        lo.lance.value: float(lo.team) for lo in want.lances()
    }
    assert html.escape(want.explain("pares")) in p.content.value
    assert not [w for w in p.children if isinstance(w, widgets.ValueWidget) and not isinstance(w, widgets.HTML)]


def test_panel_shows_a_bad_hand_kindly():
    p = mw.OddsPanel("12o 12o 11e 1b", seat=0, mano=0)
    assert p.odds is None and isinstance(p.error, MusError)
    assert 'class="musteach-error"' in p.content.value and "12o" in p.content.value


# ----------------------------------------------------------------------------------------------
# DiscardAdvisor
# ----------------------------------------------------------------------------------------------


def table_rows(advisor) -> list[ET.Element]:
    root = ET.fromstring(advisor.table.value)
    return [tr for tr in root.iter("tr") if "musteach-option" in (tr.get("class") or "")]


def assert_advises(advisor, want, aim):
    """The table ranks exactly like ``want.ranked(aim)``, with its numbers, the best row marked."""
    ranked = want.ranked(aim)
    rows = table_rows(advisor)
    assert len(rows) == 15
    assert [r.get("data-discard") for r in rows] == [" ".join(c.code for c in o.discard) for o in ranked]
    assert [r.get("data-keep") for r in rows] == [" ".join(c.code for c in o.keep) for o in ranked]
    assert "musteach-best" in rows[0].get("class")
    best_score = float(ranked[0].score(aim))
    for r, o in zip(rows, ranked, strict=True):
        assert float(r.get("data-score")) == float(o.score(aim))
        assert ("musteach-best" in r.get("class")) == (float(o.score(aim)) == best_score)
        cells = ["".join(td.itertext()) for td in r.findall("td")]
        assert cells[3:8] == [percent_text(o.win[name]) for name in LANCES]
    assert html.escape(want.explain(aim)) in advisor.explanation.value
    assert ET.fromstring(advisor.table.value).get("data-aim") == aim


def test_advisor_counts_in_a_thread_and_shows_the_ranking():
    a = mw.DiscardAdvisor(HAND, seat=0, mano=0, aim="grande")
    assert "musteach-advisor" in classes(a)
    assert isinstance(a.thread, threading.Thread)
    assert a.wait(WAIT), "the count did not finish"
    assert not a.thread.is_alive() and not a.counting
    assert a.status.value == ""
    want = advise_discard(HAND, 0, 0, aim="grande")
    assert_advises(a, want, "grande")
    assert table_rows(a)[0].get("data-discard") == "6e 4b"  # keep R-C for Grande
    # another aim re-ranks the same count at once: no new thread
    thread = a.thread
    a.aim_picker.value = "chica"
    assert a.thread is thread and not a.counting
    assert_advises(a, want, "chica")
    a.aim_picker.value = "balanced"
    assert_advises(a, want, "balanced")
    assert "stones" in "".join(ET.fromstring(a.table.value).itertext())


def test_advisor_shows_counting_then_follows_the_latest_pick():
    a = mw.DiscardAdvisor(HAND, seat=0, mano=0, aim="pares")
    assert a.wait(WAIT)
    a.position_picker.value = 3  # a new place at the table: a fresh count in the background
    assert "musteach-counting" in a.status.value or not a.counting
    a.card_pickers[3].value = "4e"  # and a new card while it counts: the older result must not show
    a.card_pickers[2].value = "1o"
    assert a.wait(WAIT)
    assert a.hand_codes == ("12o", "11c", "1o", "4e") and a.seat == 3
    assert_advises(a, advise_discard(a.hand_codes, 3, 0), "pares")
    assert "musteach-counting" not in a.status.value


def test_advisor_a_card_twice_is_named_and_nothing_counts():
    a = mw.DiscardAdvisor(HAND, aim="grande")
    assert a.wait(WAIT)
    thread = a.thread
    a.card_pickers[0].value = "4b"
    assert isinstance(a.error, MusError)
    assert "appears twice" in html.unescape(a.message.value) and "Traceback" not in a.message.value
    assert a.table.value == "" and a.thread is thread and not a.counting
    a.card_pickers[0].value = "12o"  # back to the counted hand: shown again at once
    assert a.message.value == "" and not a.counting
    assert_advises(a, advise_discard(HAND, 0, 0), "grande")


def test_advisor_in_four_reyes_advises_from_the_four_reyes_odds():
    a = mw.DiscardAdvisor(HAND, rules=Rules(kings=4), aim="grande", background=False)
    assert a.error is None and not any(w.disabled for w in a.controls)
    assert_advises(a, advise_discard(HAND, 0, 0, Rules(kings=4)), "grande")
    assert a.advice is not None and a.advice.rules.kings == 4


def test_advisor_can_count_in_the_callers_thread():
    a = mw.DiscardAdvisor(HAND, aim="juego", background=False)
    assert a.thread is None and a.advice is not None
    assert_advises(a, advise_discard(HAND, 0, 0), "juego")


@pytest.mark.parametrize("kwargs", [{"aim": "órdago"}, {"seat": 9}, {"rules": 4}])
def test_advisor_refuses_bad_arguments(kwargs):
    with pytest.raises(MusError):
        mw.DiscardAdvisor(HAND, **kwargs)


def test_advisor_failure_in_the_thread_is_shown_kindly(monkeypatch, strict_widgets):
    def boom(*_a, **_k):
        raise RuntimeError("injected")

    monkeypatch.setattr(odds_module, "advise_discard", boom)
    a = mw.DiscardAdvisor(HAND)
    assert a.wait(WAIT)
    assert len(a.errors) == 1 and isinstance(a.errors[0], RuntimeError)
    assert "Something went wrong" in a.message.value and "injected" not in a.message.value
    assert a.status.value == ""
    a.errors.clear()


# ----------------------------------------------------------------------------------------------
# OddsQuiz
# ----------------------------------------------------------------------------------------------


def test_odds_quiz_grades_with_the_exact_odds():
    quiz = mw.OddsQuiz(n=10, seed=4, tries=1)
    assert "musteach-quiz" in classes(quiz)
    for i in range(10):
        q = quiz.question
        p = float(hand_odds(q.hand, q.seat, q.mano)[q.lance].team)
        assert q.answer == band_of(p)
        assert [b.description for b in quiz.answer_buttons] == [label for _, label in q.choices]
        assert all("musteach-answer" in classes(b) for b in quiz.answer_buttons)
        pick = q.answer if i % 2 == 0 else (q.answer + 1) % 5
        quiz.button_for(pick).click()
        assert quiz.verdict.correct == (i % 2 == 0)
        assert html.escape(q.explanation) in quiz.feedback.value
        assert f"{p * 100:.1f}%" in q.explanation
        assert 'class="musteach-odds-bars"' in quiz.picture.value  # the answer shows the bar
        if i < 9:
            quiz.next_button.click()
    assert quiz.session.finished
    assert quiz.session.right == 5
    quiz.restart_button.click()
    assert quiz.session.answered == 0 and quiz.question is not None
