"""Betting and the count: worked examples and quizzes (ipywidgets 8).

Every outcome, stone and sentence comes from :mod:`musteach.rules.betting`, :mod:`musteach.rules.count` and
:mod:`musteach.teach.count_quiz`; the pictures from :mod:`musteach.draw.cards` and :mod:`musteach.draw.stones`.
These classes only draw, read the boxes and wire the buttons (real ipywidgets controls: Tab, Enter, Space).

* :class:`BettingQuiz`: read a betting sequence; who takes how many stones now? (RULES.md §6)
* :class:`CountQuiz`: four hands and each lance's betting; type each team's stones per lance (RULES.md §7, §8)
* :class:`ScoreBoard`: the score as amarracos and stones, with *dentro* (RULES.md §9)
* :func:`show_betting` / :class:`BettingView`: one lance's betting, step by step
* :func:`show_count` / :class:`CountView`: a whole hand counted step by step, the score moving on the table

Stable CSS classes: the quiz root ``musteach-quiz``; inputs ``musteach-stones-A`` / ``musteach-stones-B``
(betting) and ``musteach-stones-<lance>-<team>`` (count); ``musteach-check``, ``musteach-next``,
``musteach-restart``, ``musteach-feedback``, ``musteach-score``; a wrong count cell ``musteach-cell-wrong``.

>>> view = show_count(["12o 12c 3o 7o", "1o 1c 4o 5o", "11o 11c 10o 1e", "6o 6c 5c 4c"], mano=0)
>>> view.result.final_score
{'A': 9, 'B': 1}
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Mapping, Sequence
from typing import Any, Unpack

import ipywidgets as widgets

from musteach.draw.cards import TEAM_COLORS
from musteach.draw.stones import stones_svg
from musteach.draw.table import table_svg
from musteach.i18n import Text, translator
from musteach.rules import Rules
from musteach.rules.betting import (
    TEAMS,
    LanceBetting,
    declarations,
    start_betting,
)
from musteach.rules.cards import Card, Hand
from musteach.rules.count import CountResult, count_hand
from musteach.rules.errors import MusError, shown
from musteach.rules.lances import DealResult, Lance, evaluate, seat_roles, team_of
from musteach.teach import labels
from musteach.teach.betting_script import lance_that_ended_game, play_betting_script, read_betting_script
from musteach.teach.count_quiz import (
    MAX_TYPED_STONES,
    BettingQuestion,
    CountQuestion,
    said_lines,
)
from musteach.teach.loop import LoopState, QuestionSource
from musteach.teach.sources import betting_source, count_source
from musteach.teach.verdict import Verdict

from ._base import Guarded, Spoken, VBox, css_widget, escape, spoken
from ._base import html_box as _html
from .loop import AnswerControls, LoopWidget, RunOptions
from .storage import Store

__all__ = [
    "MAX_TYPED_STONES",
    "BettingQuiz",
    "BettingView",
    "CountQuiz",
    "CountView",
    "ScoreBoard",
    "show_betting",
    "show_count",
]

#: The largest number a learner may type in a stones box; more is surely a slip (no generated hand comes near).

_TABLE_CARD_WIDTH = 46

COUNT_CSS = """
.musteach-quiz .musteach-steps, .musteach-countview .musteach-steps { margin: 6px 0 2px 1.2em; padding: 0; }
.musteach-quiz .musteach-steps li, .musteach-countview .musteach-steps li { margin: 2px 0; }
.musteach-countview .musteach-steps li.musteach-now { font-weight: 700; }
.musteach-countview .musteach-steps li.musteach-later { display: none; }
table.musteach-betting { border-collapse: collapse; margin: 6px 0; font-size: 14px; }
table.musteach-betting th, table.musteach-betting td {
  text-align: left; vertical-align: top; padding: 3px 10px 3px 0; border-bottom: 1px solid #e3ddd0;
}
table.musteach-betting th { color: #5f6b64; font-weight: 600; }
table.musteach-betting td.musteach-lance { font-weight: 700; white-space: nowrap; }
table.musteach-betting .musteach-said { color: #1f2a24; }
table.musteach-betting .musteach-decl { color: #5f6b64; font-size: .92em; }
table.musteach-betting tr.musteach-unplayed td { color: #8a8a8a; }
.musteach-team-dot { display: inline-block; width: .75em; height: .75em; border-radius: 50%; margin-right: .3em; }
ol.musteach-betting-lines { margin: 6px 0 6px 1.4em; padding: 0; font-size: 1.05em; }
ol.musteach-betting-lines li { margin: 3px 0; }
.musteach-quiz .musteach-stones-row { align-items: center; gap: 8px; margin: 2px 0; }
.musteach-quiz .musteach-row-label .widget-html-content { font-weight: 700; width: 110px; }
.musteach-quiz .musteach-stones-input input { text-align: right; }
.musteach-quiz .musteach-cell-wrong input { border: 2px solid #c62828; background: #ffebee; }
.musteach-quiz .musteach-cell-right input { border: 2px solid #2e7d32; background: #e8f5e9; }
.musteach-quiz .musteach-mark .widget-html-content { font-weight: 600; }
.musteach-quiz .musteach-mark-wrong { color: #b71c1c; }
.musteach-quiz .musteach-mark-right { color: #2e7d32; }
.musteach-quiz .musteach-instructions .widget-html-content { color: #5f6b64; }
.musteach-scoreboard { margin: 6px 0; max-width: 780px; }
.musteach-countview, .musteach-bettingview {
  color: #1f2a24; font-family: "DejaVu Sans", Verdana, Arial, sans-serif;
  border: 1px solid #d8d2c2; border-radius: 12px; background: #fffdf6; padding: 10px 14px; margin: 8px 0;
  max-width: 780px;
}
.musteach-countview .widget-html, .musteach-countview .widget-html-content,
.musteach-bettingview .widget-html, .musteach-bettingview .widget-html-content,
.musteach-scoreboard .widget-html, .musteach-scoreboard .widget-html-content {
  height: auto; line-height: 1.45; white-space: normal; width: 100%;
}
.musteach-countview svg, .musteach-bettingview svg, .musteach-scoreboard svg { max-width: 100%; height: auto; }
.musteach-countview .musteach-nav { align-items: center; gap: 10px; margin: 6px 0; }
.musteach-countview .widget-button:focus-visible, .musteach-quiz .widget-text input:focus-visible {
  outline: 3px solid #1565c0; outline-offset: 2px;
}
.musteach-bettingview .musteach-outcome, .musteach-countview .musteach-outcome {
  background: #e3f2fd; border-left: 5px solid #1565c0; padding: 6px 10px; border-radius: 6px; margin: 6px 0;
}
.musteach-error { background: #fff3e0; border-left: 5px solid #e65100; padding: 8px 12px; }
/* a phone: each row is a grid (lance, team A, team B; the mark under them), so the team boxes line up */
@media (max-width: 600px) {
  .musteach-quiz .musteach-stones-row {
    display: grid !important; grid-template-columns: 4.6em minmax(0, 1fr) minmax(0, 1fr); gap: 4px 6px;
  }
  .musteach-quiz .musteach-stones-row:not(:has(> .musteach-row-label)) { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .musteach-quiz .musteach-stones-row > .musteach-row-label,
  .musteach-quiz .musteach-stones-row > .musteach-row-label .widget-html-content { width: auto !important; min-width: 0; }
  .musteach-quiz .musteach-stones-row > .musteach-stones-input { width: auto !important; min-width: 0; margin: 0; }
  .musteach-quiz .musteach-stones-row > .musteach-stones-input .widget-label { width: auto !important; max-width: none; text-align: left; }
  .musteach-quiz .musteach-stones-row > .musteach-stones-input input { min-width: 0; width: 100%; }
  .musteach-quiz .musteach-stones-row > .musteach-mark { grid-column: 1 / -1; width: auto !important; }
}
"""


def _style() -> widgets.HTML:
    return css_widget(COUNT_CSS)


def _team_dot(team: str) -> str:
    return f'<span class="musteach-team-dot" style="background:{TEAM_COLORS[team][0]}"></span>'


def _seat_name(seat: int, mano: int) -> str:
    _ = translator()
    roles = seat_roles(seat, mano)
    if roles:
        return _(labels.SEAT_OF_TEAM_ROLE, seat=seat, team=team_of(seat), role=roles[0])
    return _(labels.SEAT_OF_TEAM, seat=seat, team=team_of(seat))


def _betting_table(
    deal: DealResult,
    result: CountResult,
    lines: Mapping[str, Sequence[str]],
    *,
    caption: str | None = None,
) -> str:
    """A table of each lance's declarations, what was said and how the betting ended.

    Lances after a game won in the betting never took place and are shown so. The table carries the data a
    test needs to count the hand again: ``data-start-a/b``, ``data-target`` and per row ``data-outcome``.
    """
    _ = translator()
    caption = _(labels.THE_BETTING) if caption is None else caption
    decl = declarations(deal)
    stop = lance_that_ended_game(result)
    rows = []
    over = False
    for lance in result.lances:
        key = lance.value
        outcome = result.betting[key]
        if over:
            rows.append(
                f'<tr class="musteach-unplayed" data-lance="{key}" data-outcome="{escape(json.dumps({"type": "paso"}))}">'
                f'<td class="musteach-lance">{lance.title}</td><td colspan="2">{escape(_(labels.NEVER_PLAYED))}</td></tr>'
            )
            continue
        said = "; ".join(lines.get(key, ())) or "—"
        decl_html = ""
        if key in decl:
            d = decl[key]
            h = [str(s) for s in d.holders]
            holders = (
                _(labels.NOBODY) if not h else _(labels.SEAT_LOWER, seat=h[0]) if len(h) == 1
                else _(labels.SEATS_LOWER, seats=_.join(h))
            )  # fmt: skip
            decl_html = f'<div class="musteach-decl">{escape(_(labels.DECLARED, lance=lance.value, holders=holders))}</div>'
        rows.append(
            f'<tr data-lance="{key}" data-outcome="{escape(json.dumps(outcome.to_dict()))}">'
            f'<td class="musteach-lance">{lance.title}</td>'
            f'<td>{decl_html}<span class="musteach-said">{escape(said)}</span></td>'
            f"<td>{escape(outcome.describe())}</td></tr>"
        )
        if stop is lance:
            over = True
    s = result.start_score
    return (
        f'<table class="musteach-betting" data-start-a="{s["A"]}" data-start-b="{s["B"]}" '
        f'data-target="{result.rules.target}" data-kings="{result.rules.kings}" aria-label="{escape(caption)}">'
        f"<thead><tr><th>{escape(_(labels.LANCE_HEAD))}</th><th>{escape(_(labels.SAID_HEAD))}</th>"
        f"<th>{escape(_(labels.OUTCOME_HEAD))}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


# ----------------------------------------------------------------------------------------------
# ScoreBoard
# ----------------------------------------------------------------------------------------------


class ScoreBoard(Spoken, VBox):
    """The score as it sits on the table: each team's amarracos (5 stones each) and loose stones, and
    *dentro* when a team is 5 or fewer from the target (RULES.md §9).

    score_a, score_b: stones, whole numbers ≥ 0. rules: a :class:`~musteach.rules.Rules` (target 40 by
    default). width: CSS pixels of the picture. lang: the language of its words (``"es"``; None: the kernel's,
    else English). Raises :class:`~musteach.rules.errors.MusError` for a bad score.
    :meth:`set_score` changes it.
    """

    def __init__(self, score_a: int = 0, score_b: int = 0, rules: Rules | None = None, *, width: int = 520):
        self.rules = rules or Rules()
        self.width = width
        self.picture = _html("musteach-stones-picture")
        super().__init__([_style(), self.picture])
        self.add_class("musteach-scoreboard")
        self.score = (0, 0)
        self.set_score(score_a, score_b)

    @spoken
    def set_score(self, score_a: int, score_b: int) -> None:
        """Show a new score; raises :class:`~musteach.rules.errors.MusError` for a bad one (the old one stays)."""
        svg = stones_svg(score_a, score_b, self.rules, width=self.width)
        self.score = (score_a, score_b)
        self.picture.value = svg


# ----------------------------------------------------------------------------------------------
# BettingView: one lance's betting, step by step
# ----------------------------------------------------------------------------------------------


class BettingView(Spoken, VBox):
    """One lance's betting played from the start, each step explained (RULES.md §4, §6).

    lance: "grande", "chica", "pares", "juego" or "punto". mano: the seat 0..3 that speaks first.
    actions: ``"0 envido, 1 3 más, 0 no quiero, 2 no quiero"`` (seat, then what it says; paso, envido [N],
    N más, órdago, quiero, no quiero) or a list of ``(seat, action)`` pairs.
    hands: optional 4 hands; then the table is drawn and, for Pares and Juego, everybody declares first and
    only the holders speak. participants: the seats speaking when no hands are given (default all four).
    strict: if True, an illegal action raises :class:`~musteach.rules.errors.IllegalActionError`; if False (the
    default) the message is shown instead and kept in ``error``. lang: the language of its words (``"es"``; None:
    the kernel's, else English).
    """

    def __init__(
        self,
        lance: Lance | str,
        mano: int,
        actions: str | Sequence[Any] = (),
        *,
        hands: Sequence[Hand | str | Sequence[Card | str]] | None = None,
        participants: Sequence[int] | None = None,
        rules: Rules | None = None,
        strict: bool = False,
        card_width: int = _TABLE_CARD_WIDTH,
    ):
        self.error: MusError | None = None
        self.state: LanceBetting | None = None
        self.picture = _html("musteach-picture")
        self.body = _html("musteach-betting-steps")
        super().__init__([css_widget(), _style(), self.picture, self.body])
        self.add_class("musteach-bettingview")
        try:
            self._build(lance, mano, actions, hands, participants, rules, card_width)
        except MusError as exc:
            if strict:
                raise
            self.error = exc
            text = translator()(labels.BETTING_CANNOT_SHOW, error=exc.message())
            self.body.value = f'<div class="musteach-error" role="alert">{escape(text)}</div>'

    def _build(
        self,
        lance_name: Lance | str,
        mano: int,
        actions: str | Sequence[Any],
        hands: Sequence[Hand | str | Sequence[Card | str]] | None,
        participants: Sequence[int] | None,
        table_rules: Rules | None,
        card_width: int,
    ) -> None:
        lance = Lance.parse(lance_name)
        rules = table_rules or Rules()
        _ = translator()
        title, mano_is = _(labels.LANCE_BETTING, lance=lance.title), _(labels.MANO_IS_SEAT, seat=mano)
        parts = [f'<p class="musteach-betting-title"><b>{escape(title)}</b> · {escape(mano_is)}</p>']
        if hands is not None:
            deal = evaluate(hands, mano, rules)
            self.picture.value = table_svg(deal.hands, deal.mano, rules=rules, card_width=card_width)
            if lance in (Lance.PARES, Lance.JUEGO):
                d = declarations(deal)[lance.value]
                said = "; ".join(d.texts)
                parts.append(f"<p><b>{escape(_(labels.DECLARATIONS))}</b> {escape(said)}. {escape(d.summary)}</p>")
            state = start_betting(deal, lance, rules)
        else:
            self.picture.layout.display = "none"
            state = LanceBetting.start(lance, mano, participants, rules)
        state = state.play(read_betting_script(lance, actions)) if actions else state
        self.state = state
        # with hands, a lance without betting is explained by the declarations above; skip the bare note
        shown = [st.text for st in state.steps if st.seat is not None or hands is None]
        steps = "".join(f"<li>{escape(t)}</li>" for t in shown)
        parts.append(f'<ol class="musteach-steps">{steps}</ol>' if steps else "")
        if state.outcome is None:
            goes_on = _(labels.BETTING_GOES_ON, seat=state.next_seat)
            parts.append(f'<div class="musteach-outcome">{escape(goes_on)}</div>')
        else:
            o = state.outcome
            text = o.describe()
            if o.type == "rejected":
                text = _(labels.REFUSED_NOTE, outcome=text)
            parts.append(f'<div class="musteach-outcome"><b>{lance.title}:</b> {escape(text)}.</div>')
        self.body.value = "".join(parts)


def show_betting(lance: Lance | str, mano: int, actions: str | Sequence[Any] = (), **kwargs: Any) -> BettingView:
    """A :class:`BettingView` (put it last in a cell to display it). Same arguments."""
    return BettingView(lance, mano, actions, **kwargs)


# ----------------------------------------------------------------------------------------------
# CountView: a whole hand counted step by step
# ----------------------------------------------------------------------------------------------


class CountView(Guarded, VBox):
    """A whole hand: the table, each lance's betting, and the count step by step with the stones moving
    (RULES.md §6–§9). Back / Next step / Show all walk through the steps.

    hands: 4 hands of 4 cards, indexed by seat. mano: the seat 0..3 that speaks first.
    betting: ``{lance: ...}`` where each lance's betting is actions (``"0 envido, 1 quiero"``, see
    :class:`BettingView`), a ``scoring.json`` outcome (``{"type": "accepted", "stake": 2}``, RULES.md §7a) or
    a closed :class:`~musteach.rules.betting.LanceBetting`; a lance left out is all passed.
    start_score: ``(A, B)`` or ``{"A": n, "B": n}`` before the hand (default 0-0). rules: a
    :class:`~musteach.rules.Rules`. strict: raise :class:`~musteach.rules.errors.MusError` on bad input instead
    of showing the message (kept in ``error``). lang: the language of its words (``"es"``; None: the kernel's,
    else English).
    """

    def __init__(
        self,
        hands: Sequence[Hand | str | Sequence[Card | str]],
        mano: int,
        betting: Mapping[str, Any] | None = None,
        start_score: Mapping[str, int] | Sequence[int] | None = None,
        rules: Rules | None = None,
        *,
        strict: bool = False,
        card_width: int = _TABLE_CARD_WIDTH,
    ):
        self.errors: list[BaseException] = []
        self.error: MusError | None = None
        self.result: CountResult | None = None
        self.position = 0
        self.picture = _html("musteach-picture")
        self.betting_box = _html("musteach-betting-box")
        self.steps_box = _html("musteach-count-steps")
        self.where = _html("musteach-progress")
        self.where.layout.width = "auto"
        _ = translator()
        self.back_button = widgets.Button(description=_(labels.BACK), tooltip=_(labels.BACK_TIP))
        self.back_button.add_class("musteach-back")
        self.step_button = widgets.Button(description=_(labels.NEXT_STEP), tooltip=_(labels.NEXT_STEP_TIP))
        self.step_button.add_class("musteach-step")
        self.all_button = widgets.Button(description=_(labels.SHOW_ALL), tooltip=_(labels.SHOW_ALL_TIP))
        self.all_button.add_class("musteach-all")
        nav = widgets.HBox([self.back_button, self.step_button, self.all_button, self.where])
        nav.add_class("musteach-nav")
        self.board: ScoreBoard | None = None
        super().__init__([css_widget(), _style(), self.picture, self.betting_box, nav, self.steps_box])
        self.add_class("musteach-countview")
        try:
            rules = rules or Rules()
            deal = evaluate(hands, mano, rules)
            given = dict(betting or {})
            states = {k: play_betting_script(deal, Lance.parse(k), v, rules) for k, v in given.items()}
            self.result = count_hand(deal, start_score=start_score, betting=states)
        except MusError as exc:
            if strict:
                raise
            self.error = exc
            nav.layout.display = "none"
            text = _(labels.HAND_CANNOT_COUNT, error=exc.message())
            self.picture.value = f'<div class="musteach-error" role="alert">{escape(text)}</div>'
            return
        lines = said_lines(states)
        self.picture.value = table_svg(deal.hands, deal.mano, rules=rules, card_width=card_width)
        self.betting_box.value = _betting_table(deal, self.result, lines)
        s = self.result.start_score
        self.board = ScoreBoard(s["A"], s["B"], rules, width=460, lang=self.lang)  # type: ignore[call-arg]  # Spoken wraps __init__ with a lang keyword
        self.children = (*self.children[:-1], self.board, self.steps_box)  # the score right under the buttons
        self.back_button.on_click(self._guard(lambda _b: self.go(self.position - 1)))
        self.step_button.on_click(self._guard(lambda _b: self.go(self.position + 1)))
        steps = len(self.result.steps)
        self.all_button.on_click(self._guard(lambda _b: self.go(steps)))
        self.go(0)

    @property
    def steps(self) -> tuple[str, ...]:
        """Every step's sentence, in order (empty when the hand could not be counted)."""
        return tuple(self.result.explanation) if self.result else ()

    @spoken
    def go(self, position: int) -> None:
        """Show the first ``position`` steps (clamped to 0..all) and the score after them."""
        r = self.result
        if r is None:
            return
        n = len(r.steps)
        k = max(0, min(position, n))
        self.position = k
        items = []
        for i, text in enumerate(r.explanation):
            cls = "musteach-done-step" if i < k - 1 else "musteach-now" if i == k - 1 else "musteach-later"
            items.append(f'<li class="{cls}">{escape(text)}</li>')
        _ = translator()
        button = f"<b>{escape(_(labels.NEXT_STEP))}</b>"
        intro = "" if k else f"<p>{_(labels.PRESS_NEXT_STEP, button=button)}</p>"
        self.steps_box.value = f'{intro}<ol class="musteach-steps">{"".join(items)}</ol>'
        score = r.steps[k - 1].score if k else (r.start_score["A"], r.start_score["B"])
        assert self.board is not None
        self.board.set_score(*score)
        self.where.value = escape(_(labels.STEP_OF, step=k, steps=n))
        self.back_button.disabled = k == 0
        self.step_button.disabled = self.all_button.disabled = k == n

    def _show_oops(self) -> None:
        self.steps_box.value = f'<div class="musteach-error" role="alert">{escape(translator()(labels.STEP_OOPS))}</div>'


def show_count(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    betting: Mapping[str, Any] | None = None,
    start_score: Mapping[str, int] | Sequence[int] | None = None,
    rules: Rules | None = None,
    **kwargs: Any,
) -> CountView:
    """A :class:`CountView` of the hand (put it last in a cell to display it). Same arguments."""
    return CountView(hands, mano, betting, start_score, rules, **kwargs)


# ----------------------------------------------------------------------------------------------
# The quizzes
# ----------------------------------------------------------------------------------------------


def _stones_box(team: str, tooltip: str) -> widgets.Text:
    _ = translator()
    box = widgets.Text(
        value="0",
        placeholder=_(labels.STONES_PLACEHOLDER),
        description=_(labels.TEAM_N, team=team),
        tooltip=tooltip,
        layout=widgets.Layout(width="150px"),
        style={"description_width": "58px"},
    )
    box.add_class("musteach-stones-input")
    return box


#: The stones boxes whose Enter already presses their quiz's Check (a box lives across questions in the betting
#: quiz: its handler is added once).
_ENTER_WIRED: weakref.WeakSet[widgets.Text] = weakref.WeakSet()


def press_on_enter(box: widgets.Text, check: widgets.Button) -> None:
    """Make Enter in ``box`` press ``check`` while it may be pressed, as a click does: ipywidgets 8's text box
    sends the kernel ``{"event": "submit"}`` on Enter, after the value typed. Added once per box."""
    if box in _ENTER_WIRED:
        return
    _ENTER_WIRED.add(box)

    def on_msg(_w: object, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("event") == "submit" and not check.disabled:
            check.click()

    box.on_msg(on_msg)


class _StonesControls(AnswerControls):
    """Boxes to type stones in (per team, or per lance and team) and the quiz's Check: marked right or wrong
    per part as the state says (``state.wrong_parts``), the Check button coloured by the verdict. Enter in a box
    presses Check (:func:`press_on_enter`)."""

    def __init__(self, boxes: Mapping[str, Mapping[str, widgets.Text]], check: widgets.Button,
                 children: Sequence[widgets.Widget]) -> None:
        super().__init__()
        self.boxes = boxes
        self.check = check
        self.children = list(children)
        self.buttons = [(None, check)]
        check.disabled = False
        check.button_style = ""
        for box in self.all_boxes():
            box.disabled = False
            box.remove_class("musteach-cell-wrong")
            box.remove_class("musteach-cell-right")
            press_on_enter(box, check)

    def all_boxes(self) -> list[widgets.Text]:
        return [box for row in self.boxes.values() for box in row.values()]

    def raw(self) -> dict[str, Any]:
        """What is typed, by part: ``{"A": "3", "B": "0"}`` or ``{lance: {"A": ..., "B": ...}}``."""
        if set(self.boxes) == {""}:
            return {team: box.value for team, box in self.boxes[""].items()}
        return {key: {team: box.value for team, box in row.items()} for key, row in self.boxes.items()}

    def shut(self) -> None:
        self.check.disabled = True

    def focus(self) -> None:
        boxes = [b for b in self.all_boxes() if not b.disabled]
        if boxes:
            boxes[0].focus()

    def mark(self, state: LoopState) -> None:
        for key, row in self.boxes.items():
            for team, box in row.items():
                wrong = (key or team) in state.wrong_parts
                box.add_class("musteach-cell-wrong" if wrong else "musteach-cell-right")
        self.check_style(self.check, state)
        for box in self.all_boxes():
            box.disabled = True
        self.check.disabled = True


class _StonesQuiz(LoopWidget):
    """A run of ``n`` questions answered by typing stones per team, with Check, feedback, score, a Hint button,
    Next and Start again: a view of the one quiz loop. Subclasses give the source, the boxes and the picture;
    the reading and the grading are :mod:`musteach.teach.sources` and :mod:`musteach.teach.count_quiz`'s.
    tries, lesson, quiz, store, path: as for :class:`~musteach_widgets.quiz.QuizWidget` (a second try after a
    wrong first answer; results kept).
    """

    default_title = labels.QUIZ
    instructions = ""

    def __init__(
        self,
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        title: str | None = None,
        tries: int = 2,
        lesson: str | None = None,
        quiz: str | None = None,
        store: str | Store | None = None,
        path: str | None = None,
    ):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise MusError(Text(labels.N_ERROR, value=shown(n)))
        if tries not in (1, 2):
            raise MusError(Text(labels.TRIES_ERROR, value=shown(tries)))
        if rules is not None and not isinstance(rules, Rules):
            raise MusError(Text(labels.RULES_ERROR, value=shown(rules)))
        self.n = n
        self.seed = seed
        self.rules = rules or Rules()
        nav = self._parts(title)
        self.progress = self.status
        _ = translator()
        self.note = _html("musteach-instructions")
        self.note.value = escape(_(self.instructions)) if self.instructions else ""
        self.inputs = self.answer_box = widgets.VBox()
        self.inputs.add_class("musteach-answers")
        self.check_button = widgets.Button(description=_(labels.CHECK), tooltip=_(labels.CHECK_ANSWER_TIP))
        self.check_button.add_class("musteach-check")
        self.check_button.add_class("musteach-answer")
        self.check_button.on_click(self._guard(self._on_check))
        source = self._source()
        keeper, extra = self._keeper(lesson=lesson, quiz=quiz or source.quiz_name, store=store, path=path)
        self.lesson, self.quiz_name = keeper.lesson, keeper.quiz
        super().__init__(
            [
                css_widget(), _style(), self.title, self.best, self.progress, self.prompt, self.picture, self.note,
                self.inputs, self.check_button, self.feedback, nav, *extra,
            ]
        )  # fmt: skip
        self.add_class("musteach-quiz")
        self._start_loop(source, keeper, n=n, tries=tries, seed=seed)

    def _source(self) -> QuestionSource:  # pragma: no cover - overridden
        raise NotImplementedError

    def _on_check(self, _button: widgets.Button | None = None) -> None:
        if isinstance(self.controls, _StonesControls):
            self._submit(self.controls.raw(), typed=True)

    def _boxes(self) -> list[widgets.Text]:
        return self.controls.all_boxes() if isinstance(self.controls, _StonesControls) else []

    def show_oops(self, state: LoopState) -> None:
        super().show_oops(state)
        self.check_button.disabled = True  # also when the question itself could not be built

    @property
    def grade(self) -> Verdict | None:
        """The question's verdict, once checked."""
        return self.verdict


class BettingQuiz(_StonesQuiz):
    """Read a betting sequence: how many stones does each team take *now*, during the betting? (RULES.md §6)

    A refused bet pays its bettors at once (1 stone for a refused first bet, otherwise the previous total);
    an accepted or passed lance moves no stones until the count. n: questions; seed: an int for a
    reproducible run; rules: a :class:`~musteach.rules.Rules`. Questions come from
    :func:`musteach.teach.count_quiz.betting_question`, grades from :func:`~musteach.teach.count_quiz.grade_betting`.
    ``stones_a`` / ``stones_b`` are the two boxes (classes ``musteach-stones-A`` / ``musteach-stones-B``).
    """

    default_title = labels.WHO_TAKES_STONES
    instructions = labels.BETTING_INSTRUCTIONS

    def __init__(
        self, n: int = 10, seed: int | None = None, rules: Rules | None = None, *, title: str | None = None, **tutor: Unpack[RunOptions]
    ):
        _ = translator()
        self.stones_a = _stones_box("A", _(labels.STONES_NOW_TIP, team="A"))
        self.stones_a.add_class("musteach-stones-A")
        self.stones_b = _stones_box("B", _(labels.STONES_NOW_TIP, team="B"))
        self.stones_b.add_class("musteach-stones-B")
        self.row = widgets.HBox([self.stones_a, self.stones_b])
        self.row.add_class("musteach-stones-row")
        super().__init__(n, seed, rules, title=title, **tutor)

    def _source(self) -> QuestionSource:
        return betting_source(self.rules)

    def _controls(self, q: BettingQuestion) -> AnswerControls:
        for b in (self.stones_a, self.stones_b):
            b.value = "0"
        return _StonesControls({"": {"A": self.stones_a, "B": self.stones_b}}, self.check_button, [self.row])

    def _picture(self, q: BettingQuestion, verdict: Verdict | None) -> str:
        st = q.state
        actions = "|".join(f"{s.seat}:{s.action}" for s in st.steps if s.seat is not None)
        items = "".join(
            f"<li>{_team_dot(team_of(s.seat))}{escape(_seat_name(s.seat, st.mano))}: <b>{escape(str(s.action))}</b></li>"
            for s in st.steps
            if s.seat is not None
        )
        mano_is = translator()(labels.MANO_IS_SEAT, seat=st.mano)
        return (
            f'<p><b>{st.lance.title}</b> · {escape(mano_is)}</p>'
            f'<ol class="musteach-betting-lines" data-lance="{st.lance.value}" data-mano="{st.mano}" '
            f'data-participants="{" ".join(str(p) for p in st.participants)}" data-actions="{escape(actions)}">'
            f"{items}</ol>"
        )


class CountQuiz(_StonesQuiz):
    """Count a whole hand: four hands, each lance's betting, the score before; type each team's stones per
    lance (RULES.md §7, §8). A deje taken during the betting counts in its lance's row; a game won part-way
    (at ``rules.target``) leaves the later lances at 0.

    n: questions; seed: an int for a reproducible run; rules: a :class:`~musteach.rules.Rules`.
    near_end_share: the share of hands (0..1) that start near the target, so the game can end mid-count.
    Questions come from :func:`musteach.teach.count_quiz.count_question`, grades from
    :func:`~musteach.teach.count_quiz.grade_count` (its steps are the count, in order). ``cells[lance][team]`` are
    the boxes (class ``musteach-stones-<lance>-<team>``); wrong ones get ``musteach-cell-wrong``.
    """

    default_title = labels.COUNT_HAND
    instructions = labels.COUNT_INSTRUCTIONS

    def __init__(
        self,
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        near_end_share: float = 0.3,
        title: str | None = None,
        **tutor: Unpack[RunOptions],
    ):
        self.near_end_share = near_end_share
        self.cells: dict[str, dict[str, widgets.Text]] = {}
        self.marks: dict[str, widgets.HTML] = {}
        super().__init__(n, seed, rules, title=title, **tutor)

    def _source(self) -> QuestionSource:
        source = count_source(self.rules, near_end_share=self.near_end_share)
        self.near_end_share = float(self.near_end_share)
        return source

    def _picture(self, q: CountQuestion, verdict: Verdict | None) -> str:
        r = q.result
        lit = {m.seat: m.cards for m in self.hint_marks if m.seat is not None}
        table = table_svg(q.hands, q.mano, rules=r.rules, card_width=_TABLE_CARD_WIDTH, marks=lit)
        lines = said_lines(q.bettings)
        start = stones_svg(q.start_score["A"], q.start_score["B"], r.rules, width=440)
        return (
            f"{table}{_betting_table(q.deal, r, lines)}"
            f'<div class="musteach-start-score"><b>{escape(translator()(labels.SCORE_BEFORE))}</b><br>{start}</div>'
        )

    def _controls(self, q: CountQuestion) -> AnswerControls:
        self.cells, self.marks = {}, {}
        rows = []
        for lance in q.result.lances:
            key = lance.value
            label = _html("musteach-row-label")
            label.value = escape(lance.title)
            label.layout.width = "110px"
            boxes = {}
            for team in TEAMS:
                box = _stones_box(team, translator()(labels.STONES_IN_TIP, team=team, lance=lance.title))
                box.add_class(f"musteach-stones-{key}-{team}")
                boxes[team] = box
            mark = _html("musteach-mark")
            mark.layout.width = "auto"
            self.cells[key], self.marks[key] = boxes, mark
            row = widgets.HBox([label, boxes["A"], boxes["B"], mark])
            row.add_class("musteach-stones-row")
            row.add_class(f"musteach-row-{key}")
            rows.append(row)
        return _StonesControls(self.cells, self.check_button, rows)

    def show_verdict(self, state: LoopState) -> None:
        super().show_verdict(state)
        verdict = state.verdict
        if verdict is None:
            return
        for key, mark in self.marks.items():
            exp = verdict.expected[key]
            if key in state.wrong_parts:
                mark.value = f'<span class="musteach-mark-wrong">✗ A {exp["A"]} · B {exp["B"]}</span>'
            else:
                mark.value = '<span class="musteach-mark-right">✓</span>'
