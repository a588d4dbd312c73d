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
from datetime import datetime
from typing import Any

import ipywidgets as widgets

from musteach.draw.cards import card_svg, hand_svg
from musteach.draw.table import table_svg
from musteach.i18n import Text, translator
from musteach.rules import Rules
from musteach.rules.errors import shown
from musteach.teach import labels
from musteach.teach.count_quiz import BettingQuestion, CountQuestion, betting_question, count_question
from musteach.teach.hints import Mark
from musteach.teach.keepers import PracticeKeeper, PracticeQuestions, utcnow
from musteach.teach.loop import Event, LoopState
from musteach.teach.progress import (
    FAST_MS,
    Pick,
    Progress,
    ProgressError,
    describe_due,
)
from musteach.teach.quiz import Question, QuizError, Skill, make_question
from musteach.teach.session import Turn
from musteach.teach.verdict import Verdict

from ._base import (
    QUIZ_CSS,
    css_widget,
    escape,
    spoken,
)
from .class_sink import class_practice_skill
from .loop import AnswerControls, ChoiceButtons, ClassSink, LoopWidget, RankOrder, TotalEntry, feedback_blocks
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
    and ``answers`` (an :class:`~musteach_widgets.loop.AnswerControls` that draws the loop's marks: the built-in
    sources) or, for a plug-in, ``mark(verdict)`` (disable and colour the controls once answered) and
    ``reopen(given)`` (open the controls again for the second try). ``after(verdict)``: the picture after the
    answer, or None to keep it; ``marked(marks)``: the picture with a hint's :class:`~musteach.teach.hints.Mark`
    cards ringed, or None to keep it."""

    prompt: str
    picture: str
    controls: list[widgets.Widget]
    mark: Callable[[Verdict], None] = lambda _o: None
    after: Callable[[Verdict], str | None] = lambda _o: None
    focus: widgets.Widget | None = None
    answer_controls: list[widgets.Widget] = field(default_factory=list)
    reopen: Callable[[Any], None] = lambda _given: None
    marked: Callable[[tuple[Mark, ...]], str | None] = lambda _marks: None
    answers: AnswerControls | None = None


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
        assert q.hand is not None  # a jugada question shows one hand
        return self._show_choices(q, submit, hand_svg(q.hand, card_width=72))

    def _show_choices(self, q: Question, submit: Submit, picture: str) -> Shown:
        _ = translator()

        def css(value: Any) -> str:
            if q.lance is None:
                return f"musteach-answer-{value}"
            return "musteach-answer-nobody" if value is None else f"musteach-seat-{value}"

        def tooltip(value: Any, label: str) -> str:
            if q.lance is None:
                return _(labels.ANSWER_TIP, label=label)
            return _(labels.ANSWER_NOBODY_TIP) if value is None else _(labels.SEAT_WINS_TIP, seat=value, lance=q.lance.title)

        answers = ChoiceButtons(q.choices, submit, css=css, tooltip=tooltip)
        buttons = answers.children
        return Shown(
            q.prompt, picture, buttons, focus=buttons[0], answer_controls=buttons, answers=answers,
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
        answers = TotalEntry(submit)
        hand = q.hand
        assert hand is not None
        return Shown(
            q.prompt, hand_svg(hand, card_width=72), answers.children, focus=answers.box,
            answer_controls=[answers.check], answers=answers,
            marked=lambda marks: hand_svg(hand, card_width=72, marked=_lit(marks)),
        )  # fmt: skip

    def _show_rank(self, q: Question, submit: Submit) -> Shown:
        answers = RankOrder(q.cards, q.choices, submit, card_class="musteach-place")
        answers.children[0].layout.align_items = "flex-start"

        def row(lit: set[int]) -> str:
            return f'<div class="musteach-cards">{"".join(card_svg(c, 72, highlight=i in lit) for i, c in enumerate(q.cards))}</div>'

        return Shown(
            q.prompt, row(set()), answers.children, focus=answers.buttons[0][1], answer_controls=[answers.check],
            answers=answers, marked=lambda marks: row(_lit(marks)),
        )  # fmt: skip


class _IntBoxes(AnswerControls):
    """Number boxes and their Check (practice's betting and count): all shut once answered, Check coloured."""

    def __init__(self, boxes: Sequence[widgets.BoundedIntText], check: widgets.Button, children: Sequence[widgets.Widget]):
        super().__init__()
        self.boxes, self.check = list(boxes), check
        self.children = list(children)
        self.buttons = [(None, check)]

    def shut(self) -> None:
        for box in self.boxes:
            box.disabled = True
        self.check.disabled = True

    def focus(self) -> None:
        self.boxes[0].focus()

    def mark(self, state: LoopState) -> None:
        self.shut()
        self.check_style(self.check, state)


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
        row = widgets.HBox([a, b, check])
        row.add_class("musteach-stones-row")
        answers = _IntBoxes([a, b], check, [row])
        return Shown(q.prompt, picture, [row], focus=a, answer_controls=[check], answers=answers)


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
        first = next(iter(inputs.values()))[0]
        box = widgets.VBox([*lines_w, check], layout=widgets.Layout(align_items="flex-start"))
        answers = _IntBoxes([w for pair in inputs.values() for w in pair], check, [box])
        return Shown(
            q.prompt, picture, [box], focus=first, answer_controls=[check], answers=answers,
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


@dataclass
class _Item:
    pick: Pick
    source: SkillSource
    question: Any
    shown: Shown
    shown_at: datetime
    turn: Turn


class _ShownControls(AnswerControls):
    """A source's :class:`Shown` as the loop's answer controls: its own ``answers`` draw the state; a plug-in's
    ``mark`` and ``reopen`` are called with the verdict and the tried answer."""

    def __init__(self, shown: Shown) -> None:
        super().__init__()
        self.shown = shown
        self.children = list(shown.controls)
        self.buttons = [(None, w) for w in shown.answer_controls]

    def apply(self, state: LoopState) -> None:
        if self.shown.answers is not None:
            self.shown.answers.apply(state)
        elif state.event is Event.RETRY:
            self.shown.reopen(state.tried)
        elif state.event is Event.VERDICT and state.verdict is not None:
            self.shown.mark(state.verdict)
        elif state.event is Event.OOPS:
            self.shut()

    def focus(self) -> None:
        if self.shown.focus is not None:
            self.shown.focus.focus()


class PracticeQuiz(LoopWidget):
    """An endless adaptive self-quiz on random hands that keeps each learner's progress: a view of the one quiz
    loop (:class:`~musteach.teach.loop.QuizLoop` over :class:`~musteach.teach.loop.PracticeQuestions`).

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

    default_title = labels.PRACTICE

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
        if tries not in (1, 2):
            raise QuizError(Text(labels.TRIES_ERROR, value=shown(tries)))
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
        self.clock = clock or utcnow
        self.store = open_store(store, path=path)
        self._shown: dict[int, Shown] = {}
        self._notices_shown = 0
        self._notice_parts: list[str] = []
        nav = self._parts(title)
        nav.children = (self.hint_button, self.score, self.next_button)
        self.hint_button.disabled = True
        self.next_button.tooltip = translator()(labels.NEXT_QUESTION_TIP)

        def html(cls: str, width: str = "100%") -> widgets.HTML:
            w = widgets.HTML(layout=widgets.Layout(width=width))
            w.add_class(cls)
            return w

        _ = translator()
        self.notice = html("musteach-notice")
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
            css_widget(QUIZ_CSS + PRACTICE_CSS), self.title, self.notice, self.status, self.prompt, self.picture,
            self.answer_box, self.feedback, nav, self.totals, self.mastery_view, tools, self.storage_line,
        ]  # fmt: skip
        if isinstance(self.store, BrowserStore):
            children.append(self.store)
            self.store.on_change(self._guard(self._on_stored))
        super().__init__(children)
        self.add_class("musteach-quiz")
        self.add_class("musteach-practice")
        self.questions_source = PracticeQuestions(
            dict(self._source_of), tuple(self.skill_labels), progress=lambda: self.progress, rng=self.rng,
            rules=self.rules, clock=self.clock,
        )  # fmt: skip
        keeper = PracticeKeeper(self.questions_source, self.store, ClassSink(), where=self._where)
        self._start_loop(self.questions_source, keeper, n=n, tries=tries, seed=None, endless=True)

    # ----- state ---------------------------------------------------------------------------
    @property
    def progress(self) -> Progress:
        """The learner's :class:`~musteach.teach.progress.Progress`."""
        return self.loop.keeper.learner if hasattr(self, "loop") else Progress()

    @progress.setter
    def progress(self, value: Progress) -> None:
        self.loop.keeper.learner = value

    @property
    def skills(self) -> tuple[str, ...]:
        """The skill names practised, in display order."""
        return tuple(self.skill_labels)

    @property
    def item(self) -> _Item | None:
        """The question on screen with its pick, source, drawing and turn, or None."""
        q, s = self.question, self.session
        src = self.questions_source
        pick, at = src.pick_of(q), src.shown_at(q)
        if q is None or s is None or s.turn is None or pick is None or at is None or id(q) not in self._shown:
            return None
        return _Item(pick, self._source_of[pick.skill], q, self._shown[id(q)], at, s.turn)

    @property
    def skill(self) -> str | None:
        """The skill of the question on screen."""
        pick = self.questions_source.pick_of(self.question) if hasattr(self, "loop") else None
        return pick.skill if pick is not None else None

    @property
    def outcome(self) -> Verdict | None:
        """The final verdict of the question on screen, once answered."""
        return self.verdict

    @property
    def answer_controls(self) -> list[widgets.Widget]:
        """The controls that submit an answer to the question on screen (choice buttons or Check)."""
        item = self.item
        return list(item.shown.answer_controls) if item else []

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
        problem = self.loop.keeper.save()
        if problem is not None:
            self.show_unsaved(problem)
        self._refresh_totals()
        return added

    # ----- what practice draws ----------------------------------------------------------------
    def _controls(self, q: Any) -> AnswerControls:
        pick = self.questions_source.pick_of(q)
        assert pick is not None
        shown_q = self._source_of[pick.skill].show(q, self._guard(self._submit))
        self._shown = {id(q): shown_q}
        return _ShownControls(shown_q)

    def _picture(self, q: Any, verdict: Verdict | None) -> str:
        shown_q = self._shown.get(id(q))
        if shown_q is None:
            return ""
        if verdict is not None:
            after = shown_q.after(verdict)
            return self.picture.value if after is None else after
        if self.hint_marks:
            marked = shown_q.marked(self.hint_marks)
            return self.picture.value if marked is None else marked
        return shown_q.picture

    def _prompt(self, state: LoopState) -> str:
        shown_q = self._shown.get(id(state.question))
        return shown_q.prompt if shown_q is not None else state.prompt

    def _progress_html(self, state: LoopState) -> str:
        pick = self.questions_source.pick_of(state.question)
        if pick is None:
            return escape(state.progress)
        label = translator()(self.skill_labels[pick.skill])
        return (
            f"{escape(state.progress)} · "
            f'<span class="musteach-current-skill" data-skill="{escape(pick.skill)}">{escape(label)}</span> '
            f'<span class="musteach-why">({escape(pick.reason_text)})</span>'
        )

    # ----- handlers ------------------------------------------------------------------------
    def _cannot_read(self, message: str) -> None:
        self._add_notice("warn", message)

    def _on_stored(self, progress: Progress) -> None:
        """Progress arrived from the browser (page load, or another tab): it already includes ours.

        When nothing has been answered on this page yet, the question on screen was picked before the saved
        progress arrived: it is picked again from the saved progress (issue 12: the first pick uses it)."""
        self.progress = progress
        fresh = self.loop.untouched
        focus = class_practice_skill() if fresh else None  # classes: the teacher's skill
        if focus in self.skill_labels and len(self.skill_labels) > 1:
            self.skill_labels = {focus: self.skill_labels[focus]}
            self.questions_source.skills = tuple(self.skill_labels)
        if fresh and self.question is not None:
            self.loop.start()
            return
        self._refresh_totals()

    def _on_next(self) -> None:
        self.loop.next()
        self._focus_first()

    # ----- QuizView --------------------------------------------------------------------------
    def show_question(self, state: LoopState) -> None:
        self.next_button.description = translator()(labels.NEXT)
        self._refresh_totals()
        super().show_question(state)
        self._focus_first()

    def show_verdict(self, state: LoopState) -> None:
        super().show_verdict(state)
        self.next_button.disabled = False
        self.next_button.focus()

    def show_finished(self, state: LoopState) -> None:
        self.feedback.value = feedback_blocks(state.feedback)
        self.next_button.description = translator()(labels.NEXT_ROUND)
        self.next_button.disabled = False
        self.next_button.focus()

    def show_oops(self, state: LoopState) -> None:
        super().show_oops(state)
        self.next_button.layout.display = None
        self.next_button.disabled = False
        self._refresh_totals()

    def show_best(self, text: str) -> None:
        if hasattr(self, "loop"):
            self._refresh_totals()

    def show_unsaved(self, message: str) -> None:
        self._add_notice("warn", message)

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

    # ----- drawing -------------------------------------------------------------------------
    def _where(self) -> str:
        """Where the progress is kept, in the language spoken now (the browser's store words its own)."""
        where: object = self.store.where  # a store may word it as a Text, put into the language now
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
        s = self.session
        self.score.value = escape(
            self.loop.keeper.score_text(s) if s is not None
            else _(labels.ROUND_SCORE, right=0, answered=0, streak=p.streak, best=p.best_streak)
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
            if skill == self.skill:
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
