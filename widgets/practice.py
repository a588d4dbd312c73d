"""Practice: an endless, adaptive self-quiz on random hands that remembers each learner (issue 6).

:class:`PracticeQuiz` (also called :data:`Practice`) mixes every kind of question the tutor has — who wins
each lance, card order, jugadas, juego and punto totals, betting payments and the count — and asks most
about what the learner is weak at and what is due again: each skill is an FSRS card
(:mod:`musteach.teach.progress`). The progress is kept across visits: in this browser under Voilà
(:class:`~musteach_widgets.storage.BrowserStore`), in a file in the user data folder in JupyterLab
(:class:`~musteach.teach.progress.FileStore`). It can be exported to a file and imported back.

As in every quiz (issue 12), each question has a Hint in two steps (what to compare, then the deciding cards
ringed on the picture) and one more try after a wrong first answer, with what led the learner astray; both
lower the question's points (:class:`~musteach.teach.session.Turn`), and a finished round shows its stars.

Questions come from a plug-in list of :class:`SkillSource` objects (:data:`SOURCES`): a new family of
questions (señas, say) joins by subclassing :class:`SkillSource` and calling :func:`register_source`.

Stable CSS classes: the root ``musteach-quiz musteach-practice``; answer controls ``musteach-answer``
(seat buttons ``musteach-seat-<n>``, ``musteach-answer-nobody``, ``musteach-answer-<jugada>``), card buttons
to place in order ``musteach-place``, number boxes ``musteach-total-input`` / ``musteach-stones-input``,
``musteach-check``; ``musteach-hint``; ``musteach-feedback`` (a retry message: ``musteach-retry``), ``musteach-score``, ``musteach-totals``, ``musteach-next``,
``musteach-mastery`` (one ``musteach-skill`` row per skill, with ``data-skill`` and ``data-mastery``),
``musteach-notice``, ``musteach-storage``, ``musteach-export``, ``musteach-export-link``, ``musteach-import``.
"""

from __future__ import annotations

import base64
import logging
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import ipywidgets as widgets

from musteach.draw.cards import card_svg, hand_svg
from musteach.draw.table import table_svg
from musteach.i18n import Text, translator
from musteach.rules import Rules
from musteach.rules.cards import Card
from musteach.rules.errors import MusError, shown
from musteach.teach import labels
from musteach.teach.count_quiz import BettingQuestion, CountQuestion, betting_question, count_question
from musteach.teach.errors import BlankAnswerError
from musteach.teach.hints import Mark
from musteach.teach.path import mark_opened, record_attempt
from musteach.teach.progress import (
    FAST_MS,
    Pick,
    Progress,
    ProgressError,
    choose_skill,
    describe_due,
)
from musteach.teach.quiz import Question, QuizError, Skill, make_question
from musteach.teach.scoring import Outcome, round_text
from musteach.teach.session import Turn
from musteach.teach.verdict import Verdict

from ._base import (
    FRIENDLY_ERROR,
    QUIZ_CSS,
    Guarded,
    css_widget,
    escape,
    feedback_html,
    spoken,
    verdict_html,
    when_sent,
)
from .class_sink import class_practice_skill, review_record, send_record
from .storage import BrowserStore, Store, open_store

__all__ = [
    "PRACTICE_CSS",
    "SOURCES",
    "BettingSource",
    "CountSource",
    "Practice",
    "PracticeQuiz",
    "QuizSource",
    "Shown",
    "SkillSource",
    "register_source",
]

_log = logging.getLogger("musteach_widgets")

#: The most an imported progress file may weigh (bytes).
MAX_IMPORT_BYTES = 5_000_000

PRACTICE_CSS = """
.musteach-practice .musteach-notice .widget-html-content:empty { display: none; }
.musteach-practice .musteach-notice-box { padding: 8px 12px; border-radius: 8px; margin: 6px 0; }
.musteach-practice .musteach-notice-box.musteach-info { background: #e3f2fd; border-left: 5px solid #1565c0; }
.musteach-practice .musteach-notice-box.musteach-warn { background: #fff3e0; border-left: 5px solid #e65100; }
.musteach-practice .musteach-notice-box.musteach-ok { background: #e8f5e9; border-left: 5px solid #2e7d32; }
.musteach-practice .musteach-steps { margin: 4px 0 0 0; padding-left: 1.3em; }
.musteach-practice .musteach-steps li { margin: 2px 0; }
.musteach-practice .musteach-totals .widget-html-content { color: var(--mt-muted); font-size: .92em; }
.musteach-practice .musteach-why { color: var(--mt-muted); font-style: italic; }
.musteach-practice .musteach-betting-lines { margin: 4px 0; padding-left: 1.4em; }
.musteach-practice .musteach-count-bets { border-collapse: collapse; margin: 6px 0; font-size: .95em; }
.musteach-practice .musteach-count-bets th { text-align: left; padding: 2px 12px 2px 0; vertical-align: top; }
.musteach-practice .musteach-count-bets td { padding: 2px 0; }
.musteach-practice .musteach-stones-row { align-items: center; gap: 8px; }
.musteach-practice .musteach-stones-row .musteach-lance-label { min-width: 70px; font-weight: 600; }
.musteach-practice .musteach-mastery { margin-top: 10px; border-top: 1px solid var(--mt-edge); padding-top: 8px; }
.musteach-practice .musteach-mastery-head { font-weight: 700; margin-bottom: 2px; }
.musteach-practice .musteach-mastery-note { color: var(--mt-muted); font-size: .85em; margin-bottom: 6px; }
.musteach-practice .musteach-skill {
  display: grid; grid-template-columns: 11em 1fr 3.2em 12em; gap: 8px; align-items: center; margin: 3px 0;
  font-size: .92em;
}
.musteach-practice .musteach-meter {
  display: block; height: 12px; border-radius: 6px; background: #e6e1d3; overflow: hidden;
  border: 1px solid #d2cbb8;
}
.musteach-practice .musteach-meter-fill { display: block; height: 100%; background: var(--mt-felt); }
.musteach-practice .musteach-skill.musteach-weak .musteach-meter-fill { background: #e65100; }
.musteach-practice .musteach-skill-pct { text-align: right; font-weight: 600; }
.musteach-practice .musteach-skill.musteach-weak .musteach-skill-pct { color: #e65100; }
.musteach-practice .musteach-skill-due { color: var(--mt-muted); }
.musteach-practice .musteach-skill.musteach-current .musteach-skill-name { font-weight: 700; }
.musteach-practice .musteach-tools { align-items: center; gap: 10px; flex-wrap: wrap; margin-top: 8px; }
.musteach-practice .musteach-storage .widget-html-content { color: var(--mt-muted); font-size: .85em; }
.musteach-practice .musteach-export-link a { font-weight: 600; }
"""


# ----------------------------------------------------------------------------------------------
# The plug-in interface
# ----------------------------------------------------------------------------------------------


@dataclass
class Shown:
    """What a source draws for one question: the prompt (plain text), a picture (HTML), the answer controls,
    ``mark(outcome)`` (disable and colour the controls once answered), ``after(outcome)`` (the picture
    after the answer, or None to keep it), ``reopen(given)`` (open the controls again for the second try,
    the wrong ``given`` marked) and ``marked(marks)`` (the picture with a hint's
    :class:`~musteach.teach.hints.Mark` cards ringed, or None to keep it)."""

    prompt: str
    picture: str
    controls: list[widgets.Widget]
    mark: Callable[[Verdict], None]
    after: Callable[[Verdict], str | None] = lambda _o: None
    focus: widgets.Widget | None = None
    answer_controls: list[widgets.Widget] = field(default_factory=list)
    reopen: Callable[[Any], None] = lambda _given: None
    marked: Callable[[tuple[Mark, ...]], str | None] = lambda _marks: None


Submit = Callable[..., None]


class SkillSource:
    """A family of practice questions. Subclasses set :attr:`skills` and define the three methods.

    skills: ``(skill name, label)`` pairs; names are short, lower-case and unique across sources (they key
    the saved progress, so never rename one); a label is an English msgid (translated where it is shown, English
    when no catalog has it). fast_ms: a right answer faster than this (milliseconds) on a
    streak is rated Easy.
    """

    name = "source"
    skills: tuple[tuple[str, str], ...] = ()
    fast_ms: int = FAST_MS

    def make(self, skill: str, rng: random.Random, rules: Rules) -> Any:
        """A new question for ``skill`` (same ``rng`` state, same question)."""
        raise NotImplementedError

    def show(self, question: Any, submit: Submit) -> Shown:
        """Draw the question; controls call ``submit(response)`` (``submit(response, typed=True)`` for
        typed input, whose :class:`~musteach.rules.errors.MusError` is shown as a hint, not scored)."""
        raise NotImplementedError

    def grade(self, question: Any, response: Any) -> Verdict:
        """Grade a response; raise a :class:`~musteach.rules.errors.MusError` for one that is not an answer."""
        raise NotImplementedError


def _button(label: str, tooltip: str, *classes: str) -> widgets.Button:
    b = widgets.Button(description=label, tooltip=tooltip, layout=widgets.Layout(width="auto"))
    for c in ("musteach-answer", *classes):
        b.add_class(c)
    return b


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _mark_buttons(pairs: Sequence[tuple[Any, widgets.Button]], expected: Any, given: Any, correct: bool) -> None:
    for v, b in pairs:
        b.disabled = True
        if _same(v, expected):
            b.button_style = "success"
            b.add_class("musteach-correct")
        if _same(v, given):
            b.add_class("musteach-chosen")
            if not correct:
                b.button_style = "danger"


def _mark_tried(pairs: Sequence[tuple[Any, widgets.Button]], given: Any) -> None:
    """The second try: the wrong first choice is marked and shut; the others stay open."""
    for v, b in pairs:
        if _same(v, given):
            with b.hold_sync():  # one message: a page sees the class and the disabled state together
                b.disabled = True
                b.button_style = "danger"
                b.add_class("musteach-tried")


def _lit(marks: tuple[Mark, ...]) -> set[int]:
    """The card indexes a hint rings on a picture of one hand or one row of cards."""
    return {i for m in marks if m.seat is None for i in m.cards}


def _seat_marks(marks: tuple[Mark, ...]) -> dict[int, tuple[int, ...]]:
    """The cards a hint rings on a table, by seat."""
    return {m.seat: m.cards for m in marks if m.seat is not None}


class QuizSource(SkillSource):
    """Questions of :mod:`musteach.teach.quiz`: who wins each lance, card order, jugadas, juego and punto totals."""

    name = "quiz"
    skills = tuple(
        (name, labels.SKILL_LABELS[name])
        for name in ("grande", "chica", "pares", "juego", "punto", "rank_order", "jugada", "juego_total", "punto_total")
    )

    def make(self, skill: str, rng: random.Random, rules: Rules) -> Question:
        return make_question(skill, rng, rules)

    def grade(self, question: Question, response: Any) -> Verdict:
        return question.grade(response)

    def show(self, q: Question, submit: Submit) -> Shown:
        if q.lance is not None:
            return self._show_lance(q, submit)
        if q.skill is Skill.RANK_ORDER:
            return self._show_rank(q, submit)
        if q.accepts_number:
            return self._show_total(q, submit)
        return self._show_choices(q, submit, hand_svg(q.hand, card_width=72))  # type: ignore[arg-type]

    def _choice_buttons(self, q: Question, submit: Submit) -> list[tuple[Any, widgets.Button]]:
        _ = translator()
        pairs = []
        for value, label in q.choices:
            if q.lance is not None:
                cls = "musteach-answer-nobody" if value is None else f"musteach-seat-{value}"
                tip = _(labels.ANSWER_NOBODY_TIP) if value is None else _(labels.SEAT_WINS_TIP, seat=value, lance=q.lance.title)
            else:
                cls, tip = f"musteach-answer-{value}", _(labels.ANSWER_TIP, label=label)
            b = _button(label, tip, cls)
            b.on_click(lambda _b, v=value: submit(v))
            pairs.append((value, b))
        return pairs

    def _show_choices(self, q: Question, submit: Submit, picture: str) -> Shown:
        given: list[Any] = []

        def record(v: Any) -> None:
            given[:] = [v]
            submit(v)

        pairs = self._choice_buttons(q, record)
        buttons = [b for _, b in pairs]

        def reopen(tried: Any) -> None:
            _mark_tried(pairs, tried)
            next(b for b in buttons if not b.disabled).focus()

        return Shown(
            q.prompt, picture, buttons,
            lambda o: _mark_buttons(pairs, q.answer, given[0] if given else object(), o.correct),
            focus=buttons[0], answer_controls=buttons, reopen=reopen,
            marked=lambda marks: hand_svg(q.hand, card_width=72, marked=_lit(marks)) if q.hand is not None else None,
        )  # fmt: skip

    def _show_lance(self, q: Question, submit: Submit) -> Shown:
        hands, mano = q.hands, q.mano
        assert hands is not None and mano is not None
        shown = self._show_choices(q, submit, table_svg(hands, mano, rules=q.rules, card_width=54))
        shown.after = lambda o: table_svg(hands, mano, highlight=o.highlight, rules=q.rules, card_width=54)
        shown.marked = lambda marks: table_svg(hands, mano, rules=q.rules, card_width=54, marks=_seat_marks(marks))
        return shown

    def _show_total(self, q: Question, submit: Submit) -> Shown:
        _ = translator()
        box = widgets.Text(
            value="", placeholder=_(labels.TOTAL_PLACEHOLDER), description=_(labels.TOTAL_LABEL),
            layout=widgets.Layout(width="180px"),
        )  # fmt: skip
        box.add_class("musteach-total-input")
        check = _button(_(labels.CHECK), _(labels.CHECK_TOTAL_TIP), "musteach-check")
        check.on_click(lambda _b: submit(box.value, typed=True))

        def mark(o: Verdict) -> None:
            box.disabled = check.disabled = True
            check.button_style = "success" if o.correct else "danger"

        def reopen(_tried: Any) -> None:
            box.value = ""
            box.focus()

        hand = q.hand
        assert hand is not None
        return Shown(
            q.prompt, hand_svg(hand, card_width=72), [box, check], mark, focus=box, answer_controls=[check],
            reopen=reopen, marked=lambda marks: hand_svg(hand, card_width=72, marked=_lit(marks)),
        )  # fmt: skip

    def _show_rank(self, q: Question, submit: Submit) -> Shown:
        order: list[Card] = []
        view = widgets.HTML(layout=widgets.Layout(width="100%"))
        view.add_class("musteach-order")
        _ = translator()
        undo = widgets.Button(description=_(labels.UNDO), tooltip=_(labels.UNDO_TIP))
        undo.add_class("musteach-undo")
        check = _button(_(labels.CHECK), _(labels.CHECK_ORDER_TIP), "musteach-check")
        pairs: list[tuple[Card, widgets.Button]] = []
        lang = _.lang  # refresh runs in a click's handler, in the practice's language: the same as now

        def refresh() -> None:
            t = translator(lang)
            if order:
                names = ", ".join(c.name for c in order)
                pics = "".join(card_svg(c, 40) for c in order)
                text = t(labels.ORDER_SO_FAR, placed=len(order), total=len(q.cards), cards=names)
                view.value = (
                    f'<div class="musteach-order-label">{escape(text)}</div><div class="musteach-cards">{pics}</div>'
                )
            else:
                view.value = f'<div class="musteach-order-label">{escape(t(labels.PRESS_HIGHEST))}</div>'
            undo.disabled = not order
            check.disabled = len(order) != len(q.cards)

        def place(card: Card) -> None:
            if card in order or check.button_style:
                return
            order.append(card)
            dict(pairs)[card].disabled = True
            refresh()

        def take_back(_b: Any) -> None:
            if order and not check.button_style:
                dict(pairs)[order.pop()].disabled = False
                refresh()

        for value, label in q.choices:
            b = widgets.Button(
                description=label, tooltip=_(labels.PLACE_CARD_TIP, card=value.name), layout=widgets.Layout(width="auto")
            )
            b.add_class("musteach-place")
            b.add_class(f"musteach-card-{value.code}")
            b.on_click(lambda _b, c=value: place(c))
            pairs.append((value, b))
        undo.on_click(take_back)
        check.on_click(lambda _b: submit(tuple(order)) if len(order) == len(q.cards) else None)
        refresh()

        def mark(o: Verdict) -> None:
            for _, b in pairs:
                b.disabled = True
            undo.disabled = check.disabled = True
            check.button_style = "success" if o.correct else "danger"

        def reopen(_tried: Any) -> None:  # the second try starts a fresh order
            order.clear()
            for _, b in pairs:
                b.disabled = False
            refresh()
            pairs[0][1].focus()

        def row(lit: set[int]) -> str:
            return f'<div class="musteach-cards">{"".join(card_svg(c, 72, highlight=i in lit) for i, c in enumerate(q.cards))}</div>'

        cards = widgets.HBox([b for _, b in pairs], layout=widgets.Layout(flex_flow="row wrap"))
        box = widgets.VBox([cards, view, widgets.HBox([undo, check])], layout=widgets.Layout(align_items="flex-start"))
        return Shown(
            q.prompt, row(set()), [box], mark, focus=pairs[0][1], answer_controls=[check], reopen=reopen,
            marked=lambda marks: row(_lit(marks)),
        )  # fmt: skip


def _stones_input(team: str, tooltip: str) -> widgets.BoundedIntText:
    w = widgets.BoundedIntText(
        value=0, min=0, max=99, description=translator()(labels.TEAM_N_COLON, team=team), tooltip=tooltip,
        layout=widgets.Layout(width="150px"), style={"description_width": "56px"},
    )  # fmt: skip
    w.add_class("musteach-stones-input")
    w.add_class(f"musteach-team-{team.lower()}")
    return w


class BettingSource(SkillSource):
    """Betting payments (RULES.md §6): read a betting sequence; how many stones does each team take now?"""

    name = "betting"
    skills = (("betting", labels.SKILL_LABELS["betting"]),)
    fast_ms = 30_000

    def make(self, skill: str, rng: random.Random, rules: Rules) -> BettingQuestion:
        return betting_question(rng, rules=rules)

    def grade(self, question: BettingQuestion, response: Any) -> Verdict:
        return question.grade(response)

    def show(self, q: BettingQuestion, submit: Submit) -> Shown:
        lines = "".join(f"<li>{escape(line)}</li>" for line in q.lines)
        _ = translator()
        picture = f'<ol class="musteach-betting-lines" aria-label="{escape(_(labels.THE_BETTING))}">{lines}</ol>'
        a = _stones_input("A", _(labels.STONES_NOW_SHORT_TIP, team="A"))
        b = _stones_input("B", _(labels.STONES_NOW_SHORT_TIP, team="B"))
        check = _button(_(labels.CHECK), _(labels.CHECK_STONES_TIP), "musteach-check")
        check.on_click(lambda _b: submit({"A": a.value, "B": b.value}))

        def mark(o: Verdict) -> None:
            a.disabled = b.disabled = check.disabled = True
            check.button_style = "success" if o.correct else "danger"

        row = widgets.HBox([a, b, check])
        row.add_class("musteach-stones-row")
        return Shown(q.prompt, picture, [row], mark, focus=a, answer_controls=[check], reopen=lambda _tried: a.focus())


class CountSource(SkillSource):
    """The count (RULES.md §7, §8): a whole hand with its betting; type each team's stones per lance."""

    name = "count"
    skills = (("count", labels.SKILL_LABELS["count"]),)
    fast_ms = 90_000

    def make(self, skill: str, rng: random.Random, rules: Rules) -> CountQuestion:
        return count_question(rng, rules=rules)

    def grade(self, question: CountQuestion, response: Any) -> Verdict:
        return question.grade(response)

    def show(self, q: CountQuestion, submit: Submit) -> Shown:
        _ = translator()
        rows = []
        for lance in q.result.lances:
            lines = q.betting_lines.get(lance.value, ())
            said = " · ".join(escape(x) for x in lines) if lines else escape(_(labels.NO_BETTING))
            rows.append(f"<tr><th>{escape(lance.title)}</th><td>{said}</td></tr>")
        bets = f'<table class="musteach-count-bets" aria-label="{escape(_(labels.BETTING_PER_LANCE))}">{"".join(rows)}</table>'
        picture = table_svg(q.hands, q.mano, rules=q.result.rules, card_width=46) + bets
        inputs: dict[str, tuple[widgets.BoundedIntText, widgets.BoundedIntText]] = {}
        lines_w: list[widgets.Widget] = []
        for lance in q.result.lances:
            label = widgets.HTML(escape(lance.title))
            label.add_class("musteach-lance-label")
            a = _stones_input("A", _(labels.STONES_IN_TIP, team="A", lance=lance.title))
            b = _stones_input("B", _(labels.STONES_IN_TIP, team="B", lance=lance.title))
            a.add_class(f"musteach-lance-{lance.value}")
            b.add_class(f"musteach-lance-{lance.value}")
            inputs[lance.value] = (a, b)
            row = widgets.HBox([label, a, b])
            row.add_class("musteach-stones-row")
            lines_w.append(row)
        check = _button(_(labels.CHECK), _(labels.CHECK_COUNT_TIP), "musteach-check")
        check.on_click(lambda _b: submit({k: {"A": a.value, "B": b.value} for k, (a, b) in inputs.items()}))

        def mark(o: Verdict) -> None:
            for a, b in inputs.values():
                a.disabled = b.disabled = True
            check.disabled = True
            check.button_style = "success" if o.correct else "danger"

        first = next(iter(inputs.values()))[0]
        box = widgets.VBox([*lines_w, check], layout=widgets.Layout(align_items="flex-start"))
        return Shown(
            q.prompt, picture, [box], mark, focus=first, answer_controls=[check],
            reopen=lambda _tried: first.focus(),
            marked=lambda marks: table_svg(q.hands, q.mano, rules=q.result.rules, card_width=46, marks=_seat_marks(marks)) + bets,
        )  # fmt: skip


#: The question sources every practice draws from, in order (see :func:`register_source`).
SOURCES: list[SkillSource] = [QuizSource(), BettingSource(), CountSource()]


def register_source(source: SkillSource) -> SkillSource:
    """Add a question source to :data:`SOURCES` (e.g. señas); its skill names must be new.

    Raises :class:`~musteach.teach.errors.QuizError` for a skill name another source already uses.
    """
    taken = {s for src in SOURCES for s, _ in src.skills}
    clash = [s for s, _ in source.skills if s in taken]
    if clash:
        raise QuizError(Text(labels.SKILLS_TAKEN_ERROR, names=", ".join(clash)))
    SOURCES.append(source)
    return source


# ----------------------------------------------------------------------------------------------
# The widget
# ----------------------------------------------------------------------------------------------


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Item:
    pick: Pick
    source: SkillSource
    question: Any
    shown: Shown
    shown_at: datetime
    turn: Turn


class PracticeQuiz(Guarded, widgets.VBox):
    """An endless adaptive self-quiz on random hands that keeps each learner's progress.

    n: questions per round (after ``n`` answers a summary shows; Next goes on with a new round).
    skills: the skill names to practise (default: every skill of every source; see :attr:`skill_labels`).
    sources: the :class:`SkillSource` list (default :data:`SOURCES`).
    store: where progress is kept: ``"auto"`` (this browser under Voilà, a file in JupyterLab), ``"browser"``,
    ``"file"``, ``"memory"`` or a store object (:func:`~musteach_widgets.storage.open_store`).
    path: the progress file for the file store (default in the user data folder).
    seed: an int for reproducible choices and questions. rules: a :class:`~musteach.rules.Rules` (default 8 reyes).
    clock: a function returning the current UTC time (tests). title: the heading (default "Practice").
    lang: the language of its words (``"es"``; None: the kernel's, else English).
    tries: 2 (a wrong first answer gets one more try, with what led astray, as in every quiz) or 1.
    Each question has a Hint button in two steps; hints and a second try lower its points
    (:class:`~musteach.teach.session.Turn`), a right answer after either is rated Hard for the scheduler, and a
    finished round shows its stars.

    ``progress`` is the learner's :class:`~musteach.teach.progress.Progress`; ``errors`` lists exceptions handlers
    raised (the learner saw a friendly message instead). Raises :class:`~musteach.teach.errors.QuizError` for an
    unknown skill or a bad ``n``, :class:`~musteach.teach.progress.ProgressError` for a bad ``store``.
    """

    def __init__(
        self,
        n: int = 10,
        *,
        skills: Iterable[str] | None = None,
        sources: Sequence[SkillSource] | None = None,
        store: str | Store = "auto",
        path: str | None = None,
        seed: int | None = None,
        rules: Rules | None = None,
        title: str | None = None,
        clock: Callable[[], datetime] | None = None,
        tries: int = 2,
    ):
        self.errors: list[BaseException] = []
        if tries not in (1, 2):
            raise QuizError(Text(labels.TRIES_ERROR, value=shown(tries)))
        self.tries = tries
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise QuizError(Text(labels.ROUND_N_ERROR, value=shown(n)))
        self.n = n
        self.sources = list(SOURCES if sources is None else sources)
        self.skill_labels: dict[str, str] = {}
        self._source_of: dict[str, SkillSource] = {}
        for src in self.sources:
            for name, label in src.skills:
                self.skill_labels[name] = label
                self._source_of[name] = src
        if skills is not None:
            wanted = [str(getattr(s, "value", s)) for s in ([skills] if isinstance(skills, str) else skills)]
            unknown = [s for s in wanted if s not in self.skill_labels]
            if unknown:
                raise QuizError(
                    Text(labels.UNKNOWN_SKILLS_ERROR, names=", ".join(map(repr, unknown)), skills=", ".join(self.skill_labels))
                )
            self.skill_labels = {s: self.skill_labels[s] for s in dict.fromkeys(wanted)}
        if not self.skill_labels:
            raise QuizError(Text(labels.NO_SKILLS_ERROR))
        self.rules = rules or Rules()
        self.rng = random.Random(seed)
        self.clock = clock or _utcnow
        self.store = open_store(store, path=path)
        self.item: _Item | None = None
        self.outcome: Verdict | None = None
        self.last_skill: str | None = None
        self.round_answered = self.round_right = self.round_streak = 0
        self.round_points: list[float] = []
        self.round_hints = self.round_retries = 0
        self._notices_shown = 0
        self._notice_parts: list[str] = []

        def html(cls: str, width: str = "100%") -> widgets.HTML:
            w = widgets.HTML(layout=widgets.Layout(width=width))
            w.add_class(cls)
            return w

        _ = translator()
        style = css_widget(QUIZ_CSS + PRACTICE_CSS)
        self.title = html("musteach-title")
        self.title.value = escape(_(labels.PRACTICE) if title is None else title)
        self.notice = html("musteach-notice")
        self.status = html("musteach-progress")
        self.prompt = html("musteach-prompt")
        self.picture = html("musteach-picture")
        self.answer_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.answer_box.add_class("musteach-answers")
        self.feedback = html("musteach-feedback")
        self.score = html("musteach-score")
        self.score.layout.width = "auto"
        self.next_button = widgets.Button(description=_(labels.NEXT), tooltip=_(labels.NEXT_QUESTION_TIP), disabled=True)
        self.next_button.add_class("musteach-next")
        self.next_button.on_click(self._guard(self._on_next))
        self.hint_button = widgets.Button(description=_(labels.HINT), tooltip=_(labels.HINT_TIP), disabled=True)
        self.hint_button.add_class("musteach-hint")
        self.hint_button.on_click(self._guard(self._on_hint))
        nav = widgets.HBox([self.hint_button, self.score, self.next_button])
        nav.add_class("musteach-nav")
        self.totals = html("musteach-totals")
        self.mastery_view = html("musteach-mastery-view")
        self.storage_line = html("musteach-storage")
        self.export_button = widgets.Button(description=_(labels.EXPORT), tooltip=_(labels.EXPORT_TIP))
        self.export_button.add_class("musteach-export")
        self.export_button.on_click(self._guard(self._on_export))
        self.export_link = html("musteach-export-link", width="auto")
        self.upload = widgets.FileUpload(
            accept=".json,application/json", multiple=False, description=_(labels.IMPORT), icon="",
            tooltip=_(labels.IMPORT_TIP),
        )  # fmt: skip
        self.upload.add_class("musteach-import")
        self.upload.observe(self._guard(self._on_upload), names="value")
        tools = widgets.HBox([self.export_button, self.export_link, self.upload])
        tools.add_class("musteach-tools")
        children: list[widgets.Widget] = [
            style, self.title, self.notice, self.status, self.prompt, self.picture, self.answer_box,
            self.feedback, nav, self.totals, self.mastery_view, tools, self.storage_line,
        ]  # fmt: skip
        if isinstance(self.store, BrowserStore):
            children.append(self.store)
            self.store.on_change(self._guard(self._on_stored))
        super().__init__(children)
        self.add_class("musteach-quiz")
        self.add_class("musteach-practice")
        self.progress: Progress = Progress()
        self._guard(self._load)()
        self._guard(self._next_question)()

    # ----- state ---------------------------------------------------------------------------
    @property
    def skills(self) -> tuple[str, ...]:
        """The skill names practised, in display order."""
        return tuple(self.skill_labels)

    @property
    def question(self) -> Any:
        """The question on screen (a :class:`~musteach.teach.quiz.Question`, betting or count question), or None."""
        return self.item.question if self.item else None

    @property
    def skill(self) -> str | None:
        """The skill of the question on screen."""
        return self.item.pick.skill if self.item else None

    @property
    def answer_controls(self) -> list[widgets.Widget]:
        """The controls that submit an answer to the question on screen (choice buttons or Check)."""
        return list(self.item.shown.answer_controls) if self.item else []

    def export_json(self) -> str:
        """The learner's progress as JSON text (what Export downloads)."""
        return self.progress.to_json(indent=1)

    @spoken
    def import_json(self, data: str | bytes, name: str | None = None) -> int:
        """Merge exported progress into this learner's (nothing is removed) and save; returns how many
        answers were new. Raises :class:`~musteach.teach.progress.ProgressError` for a file that is not progress."""
        if len(data) > MAX_IMPORT_BYTES:
            raise ProgressError(
                Text(labels.TOO_BIG_FILE, name=name or Text(labels.THE_FILE), size=labels.big_number(len(data)))
            )
        imported = Progress.from_json(data)
        before = self.progress.review_ids()
        self.progress = self.progress.merge(imported)
        added = len(self.progress.review_ids() - before)
        self._save()
        self._refresh_totals()
        return added

    # ----- handlers ------------------------------------------------------------------------
    def _load(self) -> None:
        try:
            self.progress = self.store.load()
        except OSError as e:
            self._add_notice("warn", translator()(labels.NOT_READ, error=e))
        self._refresh_totals()

    def _on_stored(self, progress: Progress) -> None:
        """Progress arrived from the browser (page load, or another tab): it already includes ours.

        When nothing has been answered on this page yet, the question on screen was picked before the saved
        progress arrived: it is picked again from the saved progress (issue 12: the first pick uses it)."""
        self.progress = progress
        focus = class_practice_skill() if self.round_answered == 0 else None  # classes: the teacher's skill
        if focus in self.skill_labels and len(self.skill_labels) > 1:
            self.skill_labels = {focus: self.skill_labels[focus]}
        if self.round_answered == 0 and self.outcome is None and self.item is not None:
            self._next_question()
            return
        self._refresh_totals()

    def _save(self) -> None:
        try:
            self.progress = self.store.save(self.progress)
        except OSError as e:
            self._add_notice("warn", translator()(labels.NOT_SAVED_KEPT, error=e.strerror or e))

    def _next_question(self) -> None:
        now = self.clock()
        pick = choose_skill(self.progress, self.skills, now, rng=self.rng, last=self.last_skill)
        source = self._source_of[pick.skill]
        self.item = None
        self.outcome = None
        self.last_skill = pick.skill  # a failure to build it does not make it come straight back
        question = source.make(pick.skill, self.rng, self.rules)
        shown = source.show(question, self._guard(self._submit))
        turn = Turn(question, tries=self.tries, grade=lambda r: source.grade(question, r))
        self.item = _Item(pick, source, question, shown, now, turn)
        self.feedback.value = ""
        self.hint_button.disabled = not turn.can_hint()
        self.prompt.value = escape(shown.prompt)
        self.picture.value = shown.picture
        self.answer_box.children = tuple(shown.controls)
        self.next_button.disabled = True
        _ = translator()
        self.next_button.description = _(labels.NEXT)
        self._refresh_totals()
        # the status goes last: when "Question n" shows, the rest of the question has been sent
        label = _(self.skill_labels[pick.skill])
        question_of = _(labels.QUESTION_OF_ROUND, n=self.round_answered + 1, total=self.n)
        self.status.value = (
            f"{escape(question_of)} · "
            f'<span class="musteach-current-skill" data-skill="{escape(pick.skill)}">{escape(label)}</span> '
            f'<span class="musteach-why">({escape(pick.reason_text)})</span>'
        )
        if shown.focus is not None:
            shown.focus.focus()

    def _submit(self, response: Any, *, typed: bool = False) -> Verdict | None:
        item = self.item
        if item is None or self.outcome is not None:
            return None  # a second click on an answered question is ignored
        turn = item.turn
        try:
            outcome = turn.answer(response)
        except MusError as exc:
            if not typed:
                raise
            headline = "" if isinstance(exc, BlankAnswerError) else translator()(labels.TRY_AGAIN)  # a blank box uses no try
            self.feedback.value = feedback_html("hint", headline, exc.message())
            return None
        if not turn.over:  # one more try: what led astray, and the controls open again
            self.feedback.value = feedback_html("retry", outcome.headline, outcome.explanation)
            item.shown.reopen(outcome.given)
            self.hint_button.disabled = not turn.can_hint()
            return None
        now = self.clock()
        ms = max(0, round((now - item.shown_at).total_seconds() * 1000))
        attempt = turn.attempt
        review = record_attempt(self.progress, item.pick.skill, attempt, at=now, ms=ms, fast_ms=item.source.fast_ms)
        send_record(review_record(item.pick.skill, attempt, review.id, ms))  # classes: to the teacher too
        mark_opened(self.progress, "11-practice")  # the lesson map shows the practice page as done
        self.outcome = outcome
        self.round_answered += 1
        self.round_right += attempt.first_try  # right at the first try: a second try is counted apart
        self.round_streak = self.round_streak + 1 if attempt.first_try else 0
        self.round_points.append(attempt.points)
        self.round_hints += attempt.hints
        self.round_retries += int(attempt.outcome is Outcome.SECOND)
        text = verdict_html(outcome)
        if self.round_answered >= self.n:
            text += feedback_html(
                "done",
                round_text(self.round_right, self.round_points, self.round_hints, self.round_retries),
                (translator()(labels.KEEP_PRACTISING, where=self._where()),),
            )
            self.next_button.description = translator()(labels.NEXT_ROUND)
        self.feedback.value = text  # first: the verdict is what the learner waits for
        self.hint_button.disabled = True
        item.shown.mark(outcome)
        self.next_button.disabled = False
        self.next_button.focus()
        after = item.shown.after(outcome)
        if after is not None:
            self.picture.value = after
        when_sent(self._guard(self._saved_and_counted))  # once the verdict is out: save, then the totals
        return outcome

    def _saved_and_counted(self) -> None:
        self._save()
        self._refresh_totals()

    def _on_next(self, _button: Any = None) -> None:
        if self.round_answered >= self.n:
            self.round_answered = self.round_right = self.round_streak = 0
            self.round_points = []
            self.round_hints = self.round_retries = 0
        self._next_question()

    def _on_hint(self, _button: Any = None) -> None:
        item = self.item
        if item is None or not item.turn.can_hint():
            return
        hint = item.turn.hint()
        retry = item.turn.retry  # the diagnosis of a wrong first answer stays, the hint goes under it
        above = feedback_html("retry", retry.headline, retry.explanation) if retry is not None else ""
        self.feedback.value = above + feedback_html("hint", hint.headline, hint.text)
        if hint.marks:
            picture = item.shown.marked(hint.marks)
            if picture is not None:
                self.picture.value = picture
        self.hint_button.disabled = not item.turn.can_hint()

    def _on_export(self, _button: Any = None) -> None:
        data = base64.b64encode(self.export_json().encode("utf-8")).decode("ascii")
        name = f"musteach-progress-{self.clock().strftime('%Y-%m-%d')}.json"
        n = self.progress.answered()
        self.export_link.value = (
            f'<a class="musteach-download" download="{name}" href="data:application/json;base64,{data}">'
            f"{escape(translator()(labels.DOWNLOAD, name=name))}</a> ({escape(labels.answers_text(n))})"
        )

    def _on_upload(self, change: dict[str, Any]) -> None:
        files = change.get("new") or ()
        if not files:
            return
        f = files[0]
        _ = translator()
        name = str(f.get("name") or _(labels.THE_FILE))
        try:
            added = self.import_json(bytes(f.get("content") or b""), name)
        except ProgressError as e:
            self._add_notice("warn", _(labels.NOT_IMPORTED, name=name, error=e.message()))
        except Exception as e:  # never silent: anything else unreadable in the file is reported too
            _log.warning("progress import of %s failed: %s", name, e, exc_info=True)
            self._add_notice("warn", _(labels.NOT_IMPORTED_UNREADABLE, name=name))
        else:
            self._add_notice("ok", labels.imported_text(name, added))
        finally:
            self.upload.value = ()

    def _show_oops(self) -> None:
        self.hint_button.disabled = True
        if self.item is not None:
            for w in self.item.shown.answer_controls:
                w.disabled = True
        self.feedback.value = feedback_html("oops", translator()(FRIENDLY_ERROR))
        self.next_button.disabled = False
        self._refresh_totals()

    # ----- drawing -------------------------------------------------------------------------
    def _where(self) -> str:
        """Where the progress is kept, in the language spoken now (the browser's store words its own)."""
        where = self.store.where
        return where.render() if isinstance(where, Text) else str(where)

    def _add_notice(self, kind: str, text: str | Text) -> None:
        """Show a notice: a sentence, or a :class:`~musteach.i18n.Text` (a store's) put into the language now."""
        shown_text = text.render() if isinstance(text, Text) else text
        self._notice_parts.append(
            f'<div class="musteach-notice-box musteach-{kind}" role="status">{escape(shown_text)}</div>'
        )
        self.notice.value = "".join(self._notice_parts[-3:])

    def _collect_store_notices(self) -> None:
        notices = getattr(self.store, "notices", [])
        for text in notices[self._notices_shown :]:
            self._add_notice("warn", text)
        self._notices_shown = len(notices)

    def _refresh_totals(self) -> None:
        self._collect_store_notices()
        _ = translator()
        p = self.progress
        self.score.value = escape(
            _(labels.ROUND_SCORE, right=self.round_right, answered=self.round_answered, streak=p.streak, best=p.best_streak)
        )
        answered, right = p.answered(), p.right()
        if answered:
            pct = round(100 * right / answered)
            self.totals.value = escape(labels.answers_line(answered, right, pct))
        else:
            self.totals.value = escape(_(labels.NO_ANSWERS_YET))
        self.mastery_view.value = self._mastery_html()
        loading = isinstance(self.store, BrowserStore) and not self.store.loaded
        where = _(labels.LOOKING_FOR_PROGRESS) if loading else _(labels.PROGRESS_KEPT, where=self._where())
        self.storage_line.value = escape(where)

    def _mastery_html(self) -> str:
        _ = translator()
        now = self.clock()
        p = self.progress
        rows = []
        for skill, msgid in self.skill_labels.items():
            label = _(msgid)
            m = round(100 * p.mastery(skill, now))
            n, r = p.answered(skill), p.right(skill)
            if n == 0:
                due = _(labels.NEW_SKILL)
            else:
                due = _(labels.RIGHT_OF, right=r, n=n, due=describe_due(p.due(skill), now))
            cls = "musteach-skill"
            if n and m < 50:
                cls += " musteach-weak"
            if self.item is not None and skill == self.item.pick.skill:
                cls += " musteach-current"
            rows.append(
                f'<div class="{cls}" data-skill="{escape(skill)}" data-mastery="{m}" data-answered="{n}">'
                f'<span class="musteach-skill-name">{escape(label)}</span>'
                f'<span class="musteach-meter" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow="{m}" '
                f'aria-label="{escape(_(labels.MASTERY_ARIA, label=label, percent=_.percent(m / 100)))}"><span class="musteach-meter-fill" style="width:{m}%"></span></span>'
                f'<span class="musteach-skill-pct">{escape(_.percent(m / 100))}</span><span class="musteach-skill-due">{escape(due)}</span></div>'
            )
        note = _(labels.MASTERY_NOTE)
        return (
            f'<div class="musteach-mastery"><div class="musteach-mastery-head">{escape(_(labels.YOUR_SKILLS))}</div>'
            f'<div class="musteach-mastery-note">{escape(note)}</div>{"".join(rows)}</div>'
        )


#: Another name for :class:`PracticeQuiz`.
Practice = PracticeQuiz
