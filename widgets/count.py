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

import itertools
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

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
    betting_question,
    count_question,
    read_typed_stones,
    said_lines,
)
from musteach.teach.progress import Record
from musteach.teach.quiz import QuizSession
from musteach.teach.resume import new_seed, replay, run_rng
from musteach.teach.verdict import Verdict

from ._base import (
    FRIENDLY_ERROR,
    PREFETCH_AFTER,
    Guarded,
    Spoken,
    css_widget,
    escape,
    feedback_html,
    quiz_nav,
    spoken,
    verdict_html,
    when_sent,
)
from ._base import html_box as _html
from .path import Tutored
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


class ScoreBoard(Spoken, widgets.VBox):
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


class BettingView(Spoken, widgets.VBox):
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

    def _build(self, lance, mano, actions, hands, participants, rules, card_width) -> None:  # type: ignore[no-untyped-def]
        lance = Lance.parse(lance)
        rules = rules or Rules()
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


class CountView(Guarded, widgets.VBox):
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
        self.board = ScoreBoard(s["A"], s["B"], rules, width=460, lang=self.lang)
        self.children = (*self.children[:-1], self.board, self.steps_box)  # the score right under the buttons
        self.back_button.on_click(self._guard(lambda _b: self.go(self.position - 1)))
        self.step_button.on_click(self._guard(lambda _b: self.go(self.position + 1)))
        self.all_button.on_click(self._guard(lambda _b: self.go(len(self.result.steps))))  # type: ignore[union-attr]
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


class _StonesQuiz(Tutored, Guarded, widgets.VBox):
    """A run of ``n`` questions answered by typing stones per team, with Check, feedback, score, a Hint button,
    Next and Start again. Subclasses build the questions and the boxes; the grading is
    :mod:`musteach.teach.count_quiz`'s. tries, lesson, quiz, store, path: as for
    :class:`~musteach_widgets.quiz.QuizWidget` (a second try after a wrong first answer; results kept).
    """

    quiz_default = ""

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
        self.errors: list[BaseException] = []
        self.n = n
        self.seed = seed
        self._first_seed = seed
        self.rules = rules or Rules()
        self.session: QuizSession | None = None
        self.grade: Verdict | None = None
        self.title = _html("musteach-title")
        _ = translator()
        self.title.value = escape(title or _(self.default_title))
        self.progress = _html("musteach-progress")
        self.prompt = _html("musteach-prompt")
        self.picture = _html("musteach-picture")
        self.note = _html("musteach-instructions")
        self.note.value = escape(_(self.instructions)) if self.instructions else ""
        self.inputs = widgets.VBox()
        self.inputs.add_class("musteach-answers")
        self.check_button = widgets.Button(description=_(labels.CHECK), tooltip=_(labels.CHECK_ANSWER_TIP))
        self.check_button.add_class("musteach-check")
        self.check_button.add_class("musteach-answer")
        self.feedback = _html("musteach-feedback")
        self.check_button.on_click(self._guard(self._on_check))
        self.score, self.next_button, self.restart_button, nav = quiz_nav(
            self._guard(self._on_next), self._guard(self._on_restart)
        )
        extra = self._setup_tutor(
            tries=tries, lesson=lesson, quiz=quiz or self.quiz_default, store=store, path=path
        )
        nav.children = (self.hint_button, *nav.children)
        super().__init__(
            [
                css_widget(),
                _style(),
                self.title,
                self.best,
                self.progress,
                self.prompt,
                self.picture,
                self.note,
                self.inputs,
                self.check_button,
                self.feedback,
                nav,
                *extra,
            ]
        )
        self.add_class("musteach-quiz")
        self._guard(self._start)()
        self._guard(self._tutor_resume)()

    # ----- to override -----------------------------------------------------------------------
    def _questions(self, rng: random.Random) -> Iterator[Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    def _draw(self, q: Any) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _read(self) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def _mark(self, q: Any, grade: Verdict) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _boxes(self) -> list[widgets.Text]:  # pragma: no cover - overridden
        raise NotImplementedError

    # ----- state -----------------------------------------------------------------------------
    @property
    def question(self) -> Any:
        """The question on screen (a :class:`~musteach.teach.count_quiz.BettingQuestion` or ``CountQuestion``)."""
        return self.session.current if self.session else None

    # ----- handlers ----------------------------------------------------------------------------
    def _start(self) -> None:
        self._begin_run(())

    def _begin_run(self, steps: tuple[Record, ...]) -> None:
        """A new run, or (given kept ``steps``) the run they belong to, drawn from its seed and replayed."""
        kept = steps[0].data.get("seed") if steps else self._first_seed
        seed = kept if isinstance(kept, int) else new_seed()
        self._first_seed = None  # the seed given is the first run's; each later run draws a new one
        self.session = QuizSession(self._questions(run_rng(seed)), n=self.n, tries=self.tries)
        self._tutor_run_started(seed)
        if steps:
            self._tutor_replayed(steps, replay(self.session, steps))
        self._show_question()
        s = self.session
        if s.is_answered and s.verdict is not None:
            self._show_graded(s, s.verdict)
        elif s.retry is not None:
            self.feedback.value = feedback_html("retry", s.retry.headline, s.retry.explanation)

    def _resume(self, steps: tuple[Record, ...]) -> None:
        self._begin_run(steps)

    def _on_next(self, _button: widgets.Button | None = None) -> None:
        if self.session is None:  # the first question failed to build: try again
            self._start()
        elif self.session.finished:
            return
        else:
            self.session.next()
            self._show_question()
            self._tutor_shown()
        self._focus_first()

    def _on_restart(self, _button: widgets.Button | None = None) -> None:
        if self.session is None or self.run_id is not None:
            self._start()
        else:
            self.session.restart()
            self._show_question()
        self._focus_first()

    def _on_check(self, _button: widgets.Button | None = None) -> None:
        session = self.session
        if session is None or not session.can_answer():
            return  # a second Check on an answered question is ignored
        try:
            answer = self._read()
            grade = session.answer(answer)
        except MusError as exc:
            self.feedback.value = feedback_html("hint", translator()(labels.TRY_AGAIN_ERROR, error=exc.message()))
            return
        if self._tutor_answered(grade, answer):
            return  # one more try: the boxes stay open
        self._show_graded(session, grade)

    def _show_graded(self, session: QuizSession, grade: Verdict) -> None:
        """The question's final verdict on screen: marks, score, closed boxes, Next (or the run's summary)."""
        self.grade = grade
        self.feedback.value = verdict_html(grade)  # first: the verdict is what the learner waits for
        self._mark(session.current, grade)
        self.score.value = escape(session.score_text())
        self.progress.value = escape(session.progress_text())
        for b in self._boxes():
            b.disabled = True
        self.check_button.disabled = True
        if session.finished:
            self._show_finished()
        else:
            self.next_button.disabled = False
            self.next_button.focus()
        when_sent(self._guard(session.prefetch), after=PREFETCH_AFTER)  # the next question is built while the learner reads

    # ----- drawing -----------------------------------------------------------------------------
    def _show_question(self) -> None:
        s = self.session
        assert s is not None
        self.grade = None
        self.score.value = escape(s.score_text())
        self.restart_button.layout.display = "none"
        self.next_button.layout.display = None
        self.next_button.disabled = True
        self.check_button.disabled = False
        self.check_button.layout.display = None
        if s.current is None:  # pragma: no cover - the generators never run out
            self.feedback.value = ""
            self._show_finished()
            return
        self.progress.value = escape(s.progress_text())
        self._tutor_question()
        self._draw(s.current)
        self.feedback.value = ""  # last: a page waiting for the feedback to clear then sees the whole new question

    def _show_finished(self) -> None:
        s = self.session
        assert s is not None
        self.next_button.layout.display = "none"
        self.restart_button.layout.display = None
        self.feedback.value += feedback_html("done", s.summary())
        self.restart_button.focus()

    def _reopen_answers(self, given: Any) -> None:
        self._focus_first()

    def _show_oops(self) -> None:
        self.check_button.disabled = True
        self.hint_button.disabled = True
        self.feedback.value = feedback_html("oops", translator()(FRIENDLY_ERROR))
        if self.session is not None:
            self.score.value = escape(self.session.score_text())
        if self.session is not None and self.session.finished:
            self.next_button.layout.display = "none"
            self.restart_button.layout.display = None
        else:
            self.next_button.layout.display = None
            self.next_button.disabled = False

    def _focus_first(self) -> None:
        boxes = [b for b in self._boxes() if not b.disabled]
        if boxes:
            boxes[0].focus()


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

    quiz_default = "betting"

    def __init__(
        self, n: int = 10, seed: int | None = None, rules: Rules | None = None, *, title: str | None = None, **tutor: Any
    ):
        _ = translator()
        self.stones_a = _stones_box("A", _(labels.STONES_NOW_TIP, team="A"))
        self.stones_a.add_class("musteach-stones-A")
        self.stones_b = _stones_box("B", _(labels.STONES_NOW_TIP, team="B"))
        self.stones_b.add_class("musteach-stones-B")
        super().__init__(n, seed, rules, title=title, **tutor)
        row = widgets.HBox([self.stones_a, self.stones_b])
        row.add_class("musteach-stones-row")
        self.inputs.children = (row,)

    def _questions(self, rng: random.Random) -> Iterator[BettingQuestion]:
        while True:
            yield betting_question(rng, rules=self.rules)

    def _boxes(self) -> list[widgets.Text]:
        return [self.stones_a, self.stones_b]

    def _draw(self, q: BettingQuestion) -> None:
        st = q.state
        self.prompt.value = escape(q.prompt)
        actions = "|".join(f"{s.seat}:{s.action}" for s in st.steps if s.seat is not None)
        items = "".join(
            f"<li>{_team_dot(team_of(s.seat))}{escape(_seat_name(s.seat, st.mano))}: <b>{escape(str(s.action))}</b></li>"
            for s in st.steps
            if s.seat is not None
        )
        mano_is = translator()(labels.MANO_IS_SEAT, seat=st.mano)
        self.picture.value = (
            f'<p><b>{st.lance.title}</b> · {escape(mano_is)}</p>'
            f'<ol class="musteach-betting-lines" data-lance="{st.lance.value}" data-mano="{st.mano}" '
            f'data-participants="{" ".join(str(p) for p in st.participants)}" data-actions="{escape(actions)}">'
            f"{items}</ol>"
        )
        for b in self._boxes():
            b.value = "0"
            b.disabled = False
            b.remove_class("musteach-cell-wrong")
            b.remove_class("musteach-cell-right")

    def _read(self) -> dict[str, int]:
        return {
            "A": read_typed_stones(self.stones_a.value, translator()(labels.TEAM_LOWER, team="A")),
            "B": read_typed_stones(self.stones_b.value, translator()(labels.TEAM_LOWER, team="B")),
        }

    def _mark(self, q: BettingQuestion, grade: Verdict) -> None:
        for team, box in (("A", self.stones_a), ("B", self.stones_b)):
            box.add_class("musteach-cell-wrong" if team in grade.wrong else "musteach-cell-right")
        self.check_button.button_style = "success" if grade.correct else "danger"

    def _show_question(self) -> None:
        self.check_button.button_style = ""
        super()._show_question()


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

    quiz_default = "count"
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
        **tutor: Any,
    ):
        if isinstance(near_end_share, bool) or not isinstance(near_end_share, int | float) or not 0 <= near_end_share <= 1:
            raise MusError(Text(labels.NEAR_END_ERROR, value=shown(near_end_share)))
        self.near_end_share = float(near_end_share)
        self.cells: dict[str, dict[str, widgets.Text]] = {}
        self.marks: dict[str, widgets.HTML] = {}
        super().__init__(n, seed, rules, title=title, **tutor)

    def _questions(self, rng: random.Random) -> Iterator[CountQuestion]:
        for _ in itertools.count():
            near = rng.random() < self.near_end_share
            yield count_question(rng, rules=self.rules, near_end=near)

    def _boxes(self) -> list[widgets.Text]:
        return [box for row in self.cells.values() for box in row.values()]

    def _picture_html(self, q: CountQuestion) -> str:
        r = q.result
        lit = {m.seat: m.cards for m in self.hint_marks if m.seat is not None}
        table = table_svg(q.hands, q.mano, rules=r.rules, card_width=_TABLE_CARD_WIDTH, marks=lit)
        lines = said_lines(q.bettings)
        start = stones_svg(q.start_score["A"], q.start_score["B"], r.rules, width=440)
        return (
            f"{table}{_betting_table(q.deal, r, lines)}"
            f'<div class="musteach-start-score"><b>{escape(translator()(labels.SCORE_BEFORE))}</b><br>{start}</div>'
        )

    def _redraw_marks(self) -> None:
        if self.question is not None:
            self.picture.value = self._picture_html(self.question)

    def _draw(self, q: CountQuestion) -> None:
        r = q.result
        self.prompt.value = escape(q.prompt)
        self.picture.value = self._picture_html(q)
        self.cells, self.marks = {}, {}
        rows = []
        for lance in r.lances:
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
        self.inputs.children = tuple(rows)
        self.check_button.button_style = ""

    def _read(self) -> dict[str, dict[str, int]]:
        return {
            key: {
                team: read_typed_stones(box.value, translator()(labels.TEAM_IN_LANCE, team=team, lance=Lance(key).title))
                for team, box in row.items()
            }
            for key, row in self.cells.items()
        }

    def _mark(self, q: CountQuestion, grade: Verdict) -> None:
        for key, row in self.cells.items():
            wrong = key in grade.wrong
            for box in row.values():
                box.add_class("musteach-cell-wrong" if wrong else "musteach-cell-right")
            exp = grade.expected[key]
            if wrong:
                self.marks[key].value = (
                    f'<span class="musteach-mark-wrong">✗ A {exp["A"]} · B {exp["B"]}</span>'
                )
            else:
                self.marks[key].value = '<span class="musteach-mark-right">✓</span>'
        self.check_button.button_style = "success" if grade.correct else "danger"
