"""Exact lance odds and the discard advisor, as ipywidgets (ipywidgets 8).

Every number and sentence comes from :mod:`musteach.odds` (:func:`~musteach.odds.hand_odds`,
:func:`~musteach.odds.advise_discard`), the bars from :mod:`musteach.draw.odds`, the cards from
:mod:`musteach.draw.cards`, the quiz questions from :mod:`musteach.teach.odds_quiz`. These classes only draw, read
the pickers and wire them (real ipywidgets controls: Tab, arrows and typing a card's first letters work).

* :class:`OddsExplorer`: pick four cards, your place at the table, 8 or 4 reyes, optionally your
  partner's cards; see who wins each lance, as bars and sentences.
* :class:`DiscardAdvisor`: the 15 ways of changing cards in the mus, ranked for an aim, the best marked.
  8 or 4 reyes: the odds come from the tables shipped with musteach (quick); under la real the first count
  at a place at the table is slower, so it runs in a background thread while the advisor shows "counting…".
* :class:`OddsPanel`: a compact, read-only "before you decide, your odds are…" for one hand.
* :class:`OddsQuiz`: how often does your team win this lance? Five bands to choose from.

Stable CSS classes: roots ``musteach-odds`` (explorer and panel) and ``musteach-advisor``; the chart
``musteach-odds-bars`` (rows ``musteach-odds-row`` with ``data-lance`` / ``data-team``); the card pickers
``musteach-card-pick-<i>`` (partner: ``musteach-partner-pick-<i>``); a friendly message ``musteach-error``;
the advisor's status ``musteach-status`` (``musteach-counting`` while it counts), its table
``musteach-advice`` with rows ``musteach-option`` (``data-discard``, ``data-keep``) and the best one
``musteach-best``; the quiz root ``musteach-quiz`` with ``musteach-answer`` buttons.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, Unpack

import ipywidgets as widgets

from musteach.draw.cards import card_svg, hand_svg
from musteach.draw.odds import odds_bars_svg, percent_text
from musteach.i18n import Text, speaking, translator
from musteach.odds import (
    AIMS,
    DiscardAdvice,
    HandOdds,
    advise_discard,
    aim_hint,
    counting_note,
    hand_odds,
    position_name,
)
from musteach.rules import Rules
from musteach.rules.cards import DECK, Card, Hand
from musteach.rules.errors import MusError, shown
from musteach.rules.lances import Lance
from musteach.runtime import threads_available
from musteach.teach import labels
from musteach.teach.loop import QuestionSource
from musteach.teach.odds_quiz import OddsQuestion
from musteach.teach.quiz import Verdict
from musteach.teach.sources import odds_source

from ._base import Guarded, Spoken, VBox, css_widget, escape, spoken
from ._base import html_box as _html
from .loop import RunOptions
from .quiz import QuizWidget

__all__ = ["ODDS_CSS", "DiscardAdvisor", "OddsExplorer", "OddsPanel", "OddsQuiz"]

#: The example hand shown when none is given: R-R-C-A, strong at Grande.
DEFAULT_HAND = "12o 3c 11e 1b"
_PARTNER_PREFERENCE = ("7o", "6c", "5e", "4b", "7c", "6e", "5b", "4o", "7e", "6b", "5o", "4c")
_LANCES = ("grande", "chica", "pares", "juego", "punto")

ODDS_CSS = """
.musteach-odds, .musteach-advisor {
  color: #1f2a24; font-family: "DejaVu Sans", Verdana, Arial, sans-serif;
  border: 1px solid #d8d2c2; border-top: 6px solid #0072b2; border-radius: 12px; background: #fffdf6;
  padding: 10px 16px 12px; margin: 8px 0; max-width: 780px; box-shadow: 0 2px 6px rgba(0, 0, 0, .07);
}
.musteach-odds .widget-html, .musteach-odds .widget-html-content,
.musteach-advisor .widget-html, .musteach-advisor .widget-html-content {
  height: auto; line-height: 1.45; white-space: normal; width: 100%;
}
.musteach-odds svg, .musteach-advisor svg { max-width: 100%; height: auto; }
.musteach-odds .musteach-title .widget-html-content, .musteach-advisor .musteach-title .widget-html-content {
  font-size: 1.15em; font-weight: 700;
}
.musteach-odds .musteach-row, .musteach-advisor .musteach-row { align-items: center; flex-wrap: wrap; gap: 4px 8px; margin: 2px 0; }
.musteach-odds .musteach-row-label .widget-html-content, .musteach-advisor .musteach-row-label .widget-html-content {
  font-weight: 600; width: 110px;
}
.musteach-odds .widget-dropdown select, .musteach-advisor .widget-dropdown select { font-size: 12.5px; padding-left: 4px; }
.musteach-cards-row .musteach-row { gap: 2px 6px; }
.musteach-cards-row .widget-dropdown > .widget-label {
  width: 0; min-width: 0; margin: 0; padding: 0; overflow: hidden;
}
.musteach-odds select:focus-visible, .musteach-advisor select:focus-visible,
.musteach-odds .widget-toggle-button:focus-visible, .musteach-advisor .widget-toggle-button:focus-visible,
.musteach-odds input:focus-visible, .musteach-advisor .widget-button:focus-visible {
  outline: 3px solid #1565c0; outline-offset: 2px;
}
.musteach-odds .musteach-hands { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-end; margin: 4px 0; }
.musteach-odds .musteach-nobody, .musteach-odds .musteach-note, .musteach-advisor .musteach-note { color: #5f6b64; }
.musteach-odds ul.musteach-explain { margin: 4px 0 2px 1.2em; padding: 0; }
.musteach-odds ul.musteach-explain li { margin: 3px 0; }
.musteach-odds .musteach-panel-head { font-weight: 700; font-size: 1.08em; margin: 2px 0 4px; }
.musteach-odds details summary { cursor: pointer; color: #0b5c8f; font-weight: 600; }
.musteach-error { background: #fff3e0; border-left: 5px solid #e65100; padding: 8px 12px; border-radius: 6px; }
.musteach-advisor .musteach-status .musteach-counting {
  display: inline-block; background: #e3f2fd; border-left: 5px solid #1565c0; padding: 6px 10px; border-radius: 6px;
}
.musteach-advisor .musteach-advice-text {
  background: #e8f5e9; border-left: 5px solid #2e7d32; padding: 6px 10px; border-radius: 6px; margin: 6px 0;
}
table.musteach-advice { border-collapse: collapse; font-size: 13px; margin: 4px 0; }
table.musteach-advice th, table.musteach-advice td {
  padding: 3px 7px; border-bottom: 1px solid #e3ddd0; text-align: right; vertical-align: middle; white-space: nowrap;
}
table.musteach-advice th { color: #5f6b64; font-weight: 600; }
table.musteach-advice td.musteach-cards-cell, table.musteach-advice th.musteach-cards-cell { text-align: left; }
table.musteach-advice .musteach-cards-cell svg { vertical-align: middle; margin-right: 2px; }
table.musteach-advice .musteach-aim-col { font-weight: 700; background: #f4f1e8; }
table.musteach-advice tr.musteach-best td { background: #fff6c8; }
table.musteach-advice tr.musteach-best td:first-child { box-shadow: 5px 0 0 #f9a825 inset; }
table.musteach-advice .musteach-best-mark { color: #8a5a00; font-weight: 700; }
table.musteach-advice tr.musteach-current td { color: #5f6b64; font-style: italic; border-top: 2px solid #d8d2c2; }
"""


def _style() -> widgets.HTML:
    return css_widget(ODDS_CSS)



def _aim_label(aim: str) -> str:
    return translator()(labels.BALANCED) if aim == "balanced" else Lance.parse(aim).title


def _label(text: str) -> widgets.HTML:
    w = widgets.HTML(escape(text), layout=widgets.Layout(width="auto"))
    w.add_class("musteach-row-label")
    return w


def _row(children: Sequence[widgets.Widget], cls: str = "") -> widgets.HBox:
    box = widgets.HBox(list(children), layout=widgets.Layout(flex_flow="row wrap"))
    box.add_class("musteach-row")
    if cls:
        box.add_class(cls)
    return box


def _cards_row(label: str, pickers: Sequence[widgets.Dropdown], cls: str = "") -> widgets.VBox:
    """A label over four card pickers: four full card names fit side by side under it."""
    box = widgets.VBox([_label(label), _row(pickers)])
    box.add_class("musteach-cards-row")
    if cls:
        box.add_class(cls)
    return box


def _error_html(text: str) -> str:
    return f'<div class="musteach-error" role="alert">{escape(text)}</div>'


def _card_options() -> list[tuple[str, str]]:
    """The 40 cards as a picker lists them, in the language spoken now: ``("rey de oros (12o)", "12o")``."""
    _ = translator()
    return [(_(labels.CARD_OPTION, name=c.name, code=c.code), c.code) for c in DECK]


def _card_dropdown(code: str, description: str, cls: str) -> widgets.Dropdown:
    d = widgets.Dropdown(
        options=_card_options(),
        value=code,
        description=description,
        description_allow_html=False,
        style={"description_width": "0px"},
        layout=widgets.Layout(width="176px"),
    )
    d.add_class(cls)
    return d


def _start_cards(hand: Any, fallback: Sequence[str]) -> tuple[list[str], MusError | None]:
    """Four card codes for the pickers from what the lesson gave, and the error if it was unusable.

    A hand that names 4 real cards is kept as given, even with a card twice (the pickers then show
    the duplicate and its message); anything else falls back to ``fallback``.
    """
    if hand is None:
        return list(fallback), None
    try:
        if isinstance(hand, Hand):
            return list(hand.codes()), None
        items = hand.replace(",", " ").split() if isinstance(hand, str) else list(hand)
        codes = [Card.parse(x).code for x in items]
        if len(codes) != 4:
            raise MusError(Text(labels.HAND_SIZE_ERROR, n=len(codes)))
        return codes, None
    except MusError as exc:
        return list(fallback), exc
    except (TypeError, AttributeError):
        return list(fallback), MusError(Text(labels.HAND_SHAPE_ERROR, example=repr(DEFAULT_HAND), value=shown(hand)))


def _position_picker(distance: int) -> widgets.ToggleButtons:
    p = widgets.ToggleButtons(
        options=[(labels.position_label(d), d) for d in range(4)],
        value=distance,
        tooltips=[labels.position_tip(d) for d in range(4)],
        style={"button_width": "auto"},
    )
    p.add_class("musteach-position-picker")
    return p


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise MusError(Text(labels.RULES_KINGS_ERROR, value=shown(rules)))
    return rules


def _seat_args(seat: int, mano: int) -> tuple[int, int]:
    for value, what in ((seat, "seat"), (mano, "mano")):
        if isinstance(value, bool) or not isinstance(value, int) or value not in range(4):
            raise MusError(Text(labels.SEAT_ARG_ERROR, what=what, value=shown(value)))
    return seat, mano


def _explain_list(odds: HandOdds) -> str:
    items = "".join(f"<li>{escape(odds.explain(name))}</li>" for name in _LANCES)
    return f'<ul class="musteach-explain">{items}</ul>'


def _nobody_line(odds: HandOdds) -> str:
    return f'<p class="musteach-nobody">{escape(odds.nobody_sentence())}</p>'


# ----------------------------------------------------------------------------------------------
# The explorer
# ----------------------------------------------------------------------------------------------


class OddsExplorer(Guarded, VBox):
    """Pick a hand and a place at the table; see the exact odds of every lance (RULES.md §2, §4, §5).

    hand: the 4 starting cards (``"12o 3c 11e 1b"``, a :class:`~musteach.rules.cards.Hand` or 4 card texts;
    default R-R-C-A). seat, mano: seats 0..3: the seat's distance from mano sets the starting place
    (mano, second, third, postre). rules: a :class:`~musteach.rules.Rules` (default 8 reyes); the
    8 / 4 reyes toggle changes only ``kings``. partner: the partner's 4 cards to start with them known.

    Controls: four card pickers (dropdowns of the 40 cards by Spanish name), the place at the table,
    8 or 4 reyes, "I know my partner's cards" and the partner's four pickers. A card picked twice, or
    anything else :mod:`musteach` refuses, shows its message instead of the odds (kept in ``error``);
    ``odds`` is the :class:`~musteach.odds.HandOdds` on screen, or None. ``errors`` lists unexpected
    handler exceptions (the learner saw a friendly message). Raises
    :class:`~musteach.rules.errors.MusError` only for a bad ``seat``, ``mano`` or ``rules``. lang: the language of
    its words (``"es"``; None: the kernel's, else English).
    """

    def __init__(
        self,
        hand: Hand | str | Sequence[Card | str] | None = None,
        seat: int = 0,
        mano: int = 0,
        rules: Rules | None = None,
        *,
        partner: Hand | str | Sequence[Card | str] | None = None,
    ):
        self.errors: list[BaseException] = []
        self.error: MusError | None = None
        self.odds: HandOdds | None = None
        self.rules = _rules(rules)
        seat, mano = _seat_args(seat, mano)
        self.mano = mano
        codes, start_error = _start_cards(hand, DEFAULT_HAND.split())
        fallback_partner = [c for c in _PARTNER_PREFERENCE if c not in codes][:4]
        pcodes, partner_error = _start_cards(partner, fallback_partner)

        _ = translator()
        self.title = _html("musteach-title", escape(_(labels.ODDS_EXPLORER)))
        self.card_pickers = tuple(
            _card_dropdown(c, _(labels.CARD_N, n=i + 1), f"musteach-card-pick-{i}") for i, c in enumerate(codes)
        )
        self.partner_pickers = tuple(
            _card_dropdown(c, _(labels.PARTNER_CARD_N, n=i + 1), f"musteach-partner-pick-{i}")
            for i, c in enumerate(pcodes)
        )
        self.position_picker = _position_picker((seat - mano) % 4)
        self.kings_picker = widgets.ToggleButtons(
            options=[(_(labels.KINGS_8), 8), (_(labels.KINGS_4), 4)],
            value=self.rules.kings,
            tooltips=[_(labels.KINGS_8_TIP), _(labels.KINGS_4_TIP)],
            style={"button_width": "auto"},
        )
        self.kings_picker.add_class("musteach-kings-picker")
        self.partner_toggle = widgets.Checkbox(
            value=partner is not None, description=_(labels.KNOW_PARTNER), indent=False,
            layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        self.partner_toggle.add_class("musteach-partner-toggle")
        self.partner_row = _cards_row(_(labels.PARTNER_CARDS), self.partner_pickers, "musteach-partner-row")
        self.message = _html("musteach-message")
        self.hands_picture = _html("musteach-picture")
        self.bars = _html("musteach-bars")
        self.nobody = _html("musteach-nobody-box")
        self.explanations = _html("musteach-explanations")
        super().__init__(
            [
                _style(),
                self.title,
                _cards_row(_(labels.YOUR_CARDS), self.card_pickers),
                _row([_label(_(labels.YOU_SPEAK)), self.position_picker]),
                _row([_label(_(labels.DECK_LABEL)), self.kings_picker]),
                _row([self.partner_toggle]),
                self.partner_row,
                self.message,
                self.hands_picture,
                self.bars,
                self.nobody,
                self.explanations,
            ]
        )
        self.add_class("musteach-odds")
        for w in (
            *self.card_pickers,
            *self.partner_pickers,
            self.position_picker,
            self.kings_picker,
            self.partner_toggle,
        ):
            w.observe(self._guard(self._on_change), names="value")
        self._guard(self.refresh)()
        first_error = start_error or partner_error
        if first_error is not None and self.error is None:
            self._show_error(_(labels.EXAMPLE_UNUSABLE, error=first_error.message()))

    # ----- state ---------------------------------------------------------------------------
    @property
    def hand_codes(self) -> tuple[str, ...]:
        """The four picked card codes."""
        return tuple(d.value for d in self.card_pickers)

    @property
    def partner_codes(self) -> tuple[str, ...] | None:
        """The partner's four picked codes when "I know my partner's cards" is ticked, else None."""
        return tuple(d.value for d in self.partner_pickers) if self.partner_toggle.value else None

    @property
    def seat(self) -> int:
        """The asking seat: mano plus the picked distance."""
        return (self.mano + int(self.position_picker.value)) % 4

    @property
    def current_rules(self) -> Rules:
        """The rules with the picked number of kings."""
        r = self.rules
        return r if r.kings == self.kings_picker.value else replace(r, kings=self.kings_picker.value)

    @spoken
    def set_hand(self, hand: Hand | str | Sequence[Card | str]) -> None:
        """Put 4 cards in the pickers at once (one recount). Raises :class:`MusError` for a bad hand."""
        codes, err = _start_cards(hand, ())
        if err is not None:
            raise err
        self._quiet = True
        try:
            for d, c in zip(self.card_pickers, codes, strict=True):
                d.value = c
        finally:
            self._quiet = False
        self.refresh()

    _quiet = False

    # ----- handlers ------------------------------------------------------------------------
    def _on_change(self, _change: dict[str, Any]) -> None:
        if not self._quiet:
            self.refresh()

    @spoken
    def refresh(self) -> None:
        """Count the odds for what the pickers show, and draw them (or the message of a bad pick)."""
        self.partner_row.layout.display = None if self.partner_toggle.value else "none"
        try:
            odds = hand_odds(self.hand_codes, self.seat, self.mano, self.current_rules, partner=self.partner_codes)
        except MusError as exc:
            self.error = exc
            self.odds = None
            self._show_error(translator()(labels.PICK_ANOTHER_ODDS, error=exc.message()))
            return
        self.error = None
        self.odds = odds
        self.message.value = ""
        self._draw(odds)

    def _show_error(self, text: str) -> None:
        self.message.value = _error_html(text)
        self.bars.value = ""
        self.nobody.value = ""
        self.explanations.value = ""
        self.hands_picture.value = ""

    def _draw(self, odds: HandOdds) -> None:
        _ = translator()
        where = position_name(odds.position)
        pics = hand_svg(odds.hand, card_width=46, label=_(labels.YOUR_HAND_WHERE, where=where))
        if odds.partner is not None:
            pics += hand_svg(odds.partner, card_width=46, label=_(labels.PARTNER_HAND))
        self.hands_picture.value = f'<div class="musteach-hands">{pics}</div>'
        self.bars.value = odds_bars_svg(
            odds.as_dict(),
            width=600,
            title=_(labels.BARS_TITLE, kings=odds.rules.kings, deals=labels.big_number(odds.deals)),
        )
        self.nobody.value = _nobody_line(odds)
        self.explanations.value = _explain_list(odds)

    def _show_oops(self) -> None:
        self.message.value = _error_html(translator()(labels.ODDS_OOPS))


# ----------------------------------------------------------------------------------------------
# The compact panel for the betting lesson
# ----------------------------------------------------------------------------------------------


class OddsPanel(Spoken, VBox):
    """Read-only: "Before you decide, your odds are…": the hand, the bars, and the sentences on request.

    hand: 4 cards; seat, mano: seats 0..3; rules: a :class:`~musteach.rules.Rules` (default 8 reyes);
    partner: the partner's cards, if known; lang: the language of its words (``"es"``; None: the kernel's, else
    English). Bad input shows its message (kept in ``error``) instead of raising; ``odds`` is the
    :class:`~musteach.odds.HandOdds` shown, or None.
    """

    def __init__(
        self,
        hand: Hand | str | Sequence[Card | str],
        seat: int = 0,
        mano: int = 0,
        rules: Rules | None = None,
        *,
        partner: Hand | str | Sequence[Card | str] | None = None,
    ):
        self.error: MusError | None = None
        self.odds: HandOdds | None = None
        self.content = _html("musteach-panel")
        super().__init__([_style(), self.content])
        self.add_class("musteach-odds")
        self.add_class("musteach-odds-panel")
        try:
            odds = hand_odds(hand, seat, mano, rules, partner=partner)
        except MusError as exc:
            self.error = exc
            self.content.value = _error_html(translator()(labels.ODDS_CANNOT_SHOW, error=exc.message()))
            return
        self.odds = odds
        _ = translator()
        hand_label = _(labels.YOUR_HAND_WHERE, where=position_name(odds.position))
        self.content.value = (
            f'<div class="musteach-panel-head">{escape(_(labels.BEFORE_YOU_DECIDE))}</div>'
            f'<div class="musteach-hands">{hand_svg(odds.hand, card_width=40, label=hand_label)}</div>'
            + odds_bars_svg(odds.as_dict(), width=520, row_height=24)
            + _nobody_line(odds)
            + f"<details><summary>{escape(_(labels.WHY_PER_LANCE))}</summary>{_explain_list(odds)}</details>"
        )


# ----------------------------------------------------------------------------------------------
# The discard advisor
# ----------------------------------------------------------------------------------------------

_Key = tuple[tuple[str, ...], int, int]


class DiscardAdvisor(Guarded, VBox):
    """The mus: which cards to change? The 15 discards ranked for an aim, the best marked (RULES.md §3, §7).

    hand: the 4 starting cards (default R-R-C-A); seat, mano: seats 0..3 (the starting place at the
    table); rules: a :class:`~musteach.rules.Rules` (8 or 4 reyes, any la real option); aim: one of
    :data:`~musteach.odds.AIMS` (grande, chica, pares, juego, punto, balanced). background: count in a
    background thread (the default; the page stays live and shows "counting…"), or in the caller.

    ``advice`` is the :class:`~musteach.odds.DiscardAdvice` on screen (or None), ``error`` the last
    :class:`MusError` shown (a card picked twice...), ``errors`` unexpected exceptions (shown kindly),
    ``thread`` the counting thread; :meth:`wait` waits for it. Raises :class:`MusError` only for a bad
    ``seat``, ``mano``, ``rules`` or ``aim``. lang: the language of its words (``"es"``; None: the kernel's, else
    English); the background count speaks it too.
    """

    def __init__(
        self,
        hand: Hand | str | Sequence[Card | str] | None = None,
        seat: int = 0,
        mano: int = 0,
        rules: Rules | None = None,
        aim: str = "balanced",
        *,
        background: bool = True,
    ):
        self.errors: list[BaseException] = []
        self.error: MusError | None = None
        self.advice: DiscardAdvice | None = None
        self.thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._pending: _Key | None = None
        self._running = False
        self._advice_key: _Key | None = None
        self.rules = _rules(rules)
        seat, mano = _seat_args(seat, mano)
        aim_name = str(aim).strip().lower()
        if aim_name not in AIMS:
            raise MusError(Text(labels.AIM_ERROR, value=shown(aim), aims=", ".join(AIMS)))
        self.mano = mano
        self.background = bool(background) and threads_available()  # the browser (Pyodide) has no threads
        codes, start_error = _start_cards(hand, DEFAULT_HAND.split())

        _ = translator()
        self.title = _html("musteach-title", escape(_(labels.DISCARD_ADVISOR)))
        self.card_pickers = tuple(
            _card_dropdown(c, _(labels.CARD_N, n=i + 1), f"musteach-card-pick-{i}") for i, c in enumerate(codes)
        )
        self.position_picker = _position_picker((seat - mano) % 4)
        self.aim_picker = widgets.ToggleButtons(
            options=[(_aim_label(a), a) for a in AIMS],
            value=aim_name,
            tooltips=[aim_hint(a) for a in AIMS],
            style={"button_width": "auto"},
        )
        self.aim_picker.add_class("musteach-aim-picker")
        self.message = _html("musteach-message")
        self.status = _html("musteach-status")
        self.hand_picture = _html("musteach-picture")
        self.explanation = _html("musteach-explanation-box")
        self.table = _html("musteach-table-box")
        self.controls = (*self.card_pickers, self.position_picker, self.aim_picker)
        super().__init__(
            [
                _style(),
                self.title,
                _cards_row(_(labels.YOUR_CARDS), self.card_pickers),
                _row([_label(_(labels.YOU_SPEAK)), self.position_picker]),
                _row([_label(_(labels.AIM_AT)), self.aim_picker]),
                self.message,
                self.status,
                self.hand_picture,
                self.explanation,
                self.table,
            ]
        )
        self.add_class("musteach-advisor")
        for w in (*self.card_pickers, self.position_picker):
            w.observe(self._guard(self._on_change), names="value")
        self.aim_picker.observe(self._guard(self._on_aim), names="value")
        self._guard(self.refresh)()
        if start_error is not None and self.error is None:
            self.message.value = _error_html(_(labels.EXAMPLE_UNUSABLE, error=start_error.message()))

    # ----- state ---------------------------------------------------------------------------
    @property
    def hand_codes(self) -> tuple[str, ...]:
        """The four picked card codes."""
        return tuple(d.value for d in self.card_pickers)

    @property
    def seat(self) -> int:
        """The asking seat: mano plus the picked distance."""
        return (self.mano + int(self.position_picker.value)) % 4

    @property
    def aim(self) -> str:
        """The picked aim (one of :data:`~musteach.odds.AIMS`)."""
        return str(self.aim_picker.value)

    @property
    def counting(self) -> bool:
        """True while a count is running or waiting."""
        with self._lock:
            return self._running

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no count is running; True if done, False if ``timeout`` seconds passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                if not self._running:
                    return True
                t = self.thread
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            if t is not None:
                t.join(left if left is None else min(left, 0.5))
            else:  # pragma: no cover - _running implies a thread
                time.sleep(0.01)

    # ----- handlers ------------------------------------------------------------------------
    def _on_change(self, _change: dict[str, Any]) -> None:
        self.refresh()

    def _on_aim(self, _change: dict[str, Any]) -> None:
        if self.advice is not None and self._advice_key == self._key():
            self._draw(self.advice)

    def _key(self) -> _Key:
        return (self.hand_codes, self.seat, self.mano)

    @spoken
    def refresh(self) -> None:
        """Check the picked hand, then show its advice (counted in the background when new)."""
        codes = self.hand_codes
        try:
            Hand(codes)
        except MusError as exc:
            self.error = exc
            self.message.value = _error_html(translator()(labels.PICK_ANOTHER_ADVICE, error=exc.message()))
            self._clear()
            return
        self.error = None
        self.message.value = ""
        key = self._key()
        if self.advice is not None and key == self._advice_key:
            self._draw(self.advice)
            return
        self._clear()
        self.hand_picture.value = hand_svg(
            codes, card_width=46, label=translator()(labels.YOUR_HAND_WHERE, where=position_name(self.position_picker.value))
        )
        self.status.value = (
            f'<span class="musteach-counting" role="status" aria-live="polite">{escape(counting_note(self.rules))}</span>'
        )
        if not self.background:
            self._apply(key, self._compute(key))
            return
        with self._lock:
            self._pending = key
            if self._running:
                return  # the running worker picks the new request up when it finishes
            self._running = True
            # the worker writes sentences: it carries this context, so it speaks the advisor's language
            self.thread = threading.Thread(
                target=contextvars.copy_context().run, args=(self._work,), name="musteach-discard-advisor", daemon=True
            )
            self.thread.start()

    def _clear(self) -> None:
        self.status.value = ""
        self.explanation.value = ""
        self.table.value = ""
        self.hand_picture.value = ""

    def _compute(self, key: _Key) -> DiscardAdvice | MusError | None:
        codes, seat, mano = key
        try:
            return advise_discard(codes, seat, mano, self.rules, aim=self.aim)
        except MusError as exc:
            return exc
        except Exception as exc:
            self.errors.append(exc)
            return None

    def _work(self) -> None:
        """The background worker: count the latest request; a newer request replaces an older one's result."""
        while True:
            with self._lock:
                key = self._pending
                self._pending = None
                if key is None:
                    self._running = False
                    return
            result = self._compute(key)
            with self._lock:
                stale = self._pending is not None
            if not stale:
                try:
                    with speaking(self.lang):
                        self._apply(key, result)
                except Exception as exc:
                    self.errors.append(exc)
                    self._show_oops_quietly()

    def _apply(self, key: _Key, result: DiscardAdvice | MusError | None) -> None:
        if key != self._key():
            return  # the pickers moved on; their own request follows
        self.status.value = ""
        if result is None:
            self._show_oops()
        elif isinstance(result, MusError):
            self.error = result
            self.message.value = _error_html(result.message())
        else:
            self.advice = result
            self._advice_key = key
            self._draw(result)

    def _draw(self, advice: DiscardAdvice) -> None:
        aim = self.aim
        where = position_name(advice.current.position)
        self.hand_picture.value = hand_svg(advice.hand, card_width=46, label=translator()(labels.YOUR_HAND_WHERE, where=where))
        self.explanation.value = f'<div class="musteach-advice-text">{escape(advice.explain(aim))}</div>' + _likely(
            advice, aim
        )
        self.table.value = advice_table_html(advice, aim)

    def _show_oops(self) -> None:
        self.status.value = ""
        self.message.value = _error_html(translator()(labels.ADVICE_OOPS))

    def _show_oops_quietly(self) -> None:
        try:
            self._show_oops()
        except Exception as exc:  # pragma: no cover - the display itself failed
            self.errors.append(exc)


def _likely(advice: DiscardAdvice, aim: str) -> str:
    return f'<p class="musteach-note">{escape(advice.likely_sentence(aim))}</p>'


def _aim_cls(name: str, aim: str) -> str:
    return ' class="musteach-aim-col"' if name == aim else ""


def _score_text(value: float, aim: str) -> str:
    _ = translator()
    return _(labels.STONES_VALUE, value=_.number(value, 2)) if aim == "balanced" else percent_text(value)


def advice_table_html(advice: DiscardAdvice, aim: str | None = None, *, lang: str | None = None) -> str:
    """The 15 discards ranked for ``aim`` as an HTML table, the best row marked ``musteach-best``.

    Columns: rank, the cards changed (drawn small), the cards kept, the team's chance of winning each
    lance after the draw, and the score for the aim (a chance, or stones for "balanced"); a last row
    gives the same numbers for keeping all four (cutting the mus). lang: the language of its words (None: the
    language spoken now). Raises :class:`MusError` for an unknown aim.
    """
    with speaking(lang):
        return _advice_table_html(advice, aim)


def _advice_table_html(advice: DiscardAdvice, aim: str | None = None) -> str:
    _ = translator()
    a = str(aim or advice.aim).strip().lower()
    if a not in AIMS:
        raise MusError(Text(labels.AIM_ERROR, value=shown(aim), aims=", ".join(AIMS)))
    ranked = advice.ranked(a)
    best = ranked[0]
    head_cells = "".join(f'<th scope="col"{_aim_cls(name, a)}>{Lance.parse(name).title}</th>' for name in _LANCES)
    score_head = escape(_(labels.STONES_HEAD) if a == "balanced" else _(labels.SCORE_HEAD, lance=Lance.parse(a).title))
    rows = []
    for i, opt in enumerate(ranked, 1):
        is_best = opt is best or float(opt.score(a)) == float(best.score(a))
        cls = "musteach-option musteach-best" if is_best else "musteach-option"
        mark = f' <span class="musteach-best-mark">{escape(_(labels.BEST_MARK))}</span>' if is_best else ""
        change = "".join(card_svg(c, 24) for c in opt.discard)
        keep = "".join(card_svg(c, 24) for c in opt.keep) or f'<span class="musteach-note">{escape(_(labels.NOTHING))}</span>'
        cells = "".join(f"<td{_aim_cls(name, a)}>{percent_text(float(opt.win[name]))}</td>" for name in _LANCES)
        rows.append(
            f'<tr class="{cls}" data-discard="{" ".join(c.code for c in opt.discard)}" '
            f'data-keep="{" ".join(c.code for c in opt.keep)}" data-score="{float(opt.score(a))!r}">'
            f"<td>{i}{mark}</td>"
            f'<td class="musteach-cards-cell" aria-label="{escape(_(labels.CHANGE_CARDS, cards=", ".join(c.name for c in opt.discard)))}">{change}</td>'
            f'<td class="musteach-cards-cell">{keep}</td>{cells}'
            f'<td class="musteach-aim-col">{_score_text(float(opt.score(a)), a)}</td></tr>'
        )
    cur = advice.current
    cur_cells = "".join(f"<td{_aim_cls(name, a)}>{percent_text(float(cur.win(name)))}</td>" for name in _LANCES)
    rows.append(
        f'<tr class="musteach-current"><td>–</td><td class="musteach-cards-cell" colspan="2">{escape(_(labels.KEEP_ALL))}</td>'
        f'{cur_cells}<td class="musteach-aim-col">{_score_text(float(advice.current_score(a)), a)}</td></tr>'
    )
    aim_words = _(labels.STONES_EN_PASO) if a == "balanced" else _(labels.CHANCE_OF, lance=Lance.parse(a).title)
    ranked_by = escape(_(labels.DISCARDS_RANKED, aim=aim_words))
    return (
        f'<table class="musteach-advice" data-aim="{a}" aria-label="{ranked_by}">'
        f'<thead><tr><th scope="col">#</th><th scope="col" class="musteach-cards-cell">{escape(_(labels.CHANGE_HEAD))}</th>'
        f'<th scope="col" class="musteach-cards-cell">{escape(_(labels.KEEP_HEAD))}</th>{head_cells}<th scope="col">{score_head}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


# ----------------------------------------------------------------------------------------------
# The quiz
# ----------------------------------------------------------------------------------------------


class OddsQuiz(QuizWidget):
    """How often does your team win this lance? One hand, its place at the table, five bands to choose.

    n: questions to answer; seed: an int for a reproducible run, or None; rules: a
    :class:`~musteach.rules.Rules`; lances: the lances to ask about (default grande, chica, pares,
    juego); title: the heading. The answer and the explanation come from :mod:`musteach.teach.odds_quiz`.
    Raises :class:`~musteach.teach.errors.QuizError` for a bad ``n`` or no lances.
    """

    default_title = labels.ODDS_QUIZ

    def __init__(
        self,
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        lances: Iterable[Lance | str] | None = None,
        title: str | None = None,
        **tutor: Unpack[RunOptions],
    ):
        self.questions_source, self.odds_source = odds_source(seed=seed, rules=rules, lances=lances)
        super().__init__(["grande"], n=n, seed=seed, rules=rules, title=title, **tutor)

    def _source(self) -> QuestionSource:
        return self.questions_source

    def _picture(self, q: OddsQuestion, verdict: Verdict | None) -> str:
        where = position_name(q.position)
        lit = {i for m in self.hint_marks for i in m.cards}
        pic = hand_svg(q.hand, card_width=64, label=translator()(labels.YOUR_HAND_WHERE, where=where), marked=lit)
        if verdict is None or q.odds is None:
            return pic
        return pic + odds_bars_svg(q.odds.as_dict(), width=560, lances=[q.lance.value], row_height=28, legend=True)

    def _choice_class(self, value: Any) -> str:
        return f"musteach-answer-band-{value}"

    def _tooltip(self, q: Any, value: Any, label: str) -> str:
        return translator()(labels.TEAM_WINS_TIP, lance=q.lance.title, band=label)
