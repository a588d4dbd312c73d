"""The one quiz view (issue 24): an ipywidgets view of :class:`musteach.teach.loop.QuizLoop`, and the answer
controls each quiz kind draws (buttons, a number box, cards to put in order).

:class:`LoopWidget` draws each :class:`~musteach.teach.loop.LoopState` the loop hands it and reports the
learner's clicks to the loop; it makes no decision of its own (which answer is right, which was tried, what is
enabled: the state says). An :class:`AnswerControls` maps a state's :class:`~musteach.teach.loop.Mark` values
to CSS classes and button styles.

Stable CSS classes: as before the loop moved (``musteach-answer``, ``musteach-correct``, ``musteach-chosen``,
``musteach-tried``, ``musteach-check``, ``musteach-undo``, ``musteach-order``, ``musteach-total-input``...).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, TypedDict

import ipywidgets as widgets

from musteach.draw.cards import card_svg
from musteach.i18n import translator
from musteach.rules.cards import Card
from musteach.teach import labels
from musteach.teach.keepers import LessonKeeper
from musteach.teach.loop import (
    Event,
    Feedback,
    Keeper,
    LoopState,
    Mark,
    QuestionSource,
    QuizLoop,
    same_answer,
)
from musteach.teach.progress import Progress, QuizRun
from musteach.teach.scoring import Attempt
from musteach.teach.session import QuizSession
from musteach.teach.verdict import Verdict

from ._base import Guarded, VBox, escape, feedback_html, html_box, quiz_nav, when_sent
from .class_sink import ANSWER_SECONDS_MAX, answer_record, review_record, run_record, send_record
from .storage import BrowserStore, Store, open_store

__all__ = [
    "AnswerControls",
    "ChoiceButtons",
    "ClassSink",
    "LoopWidget",
    "RankOrder",
    "RunOptions",
    "Submit",
    "TotalEntry",
    "feedback_blocks",
    "paint_button",
]

_log = logging.getLogger("musteach_widgets")

class RunOptions(TypedDict, total=False):
    """The keywords of every quiz run: ``tries`` (1 or 2), ``lesson`` and ``quiz`` (whose results are kept),
    ``store`` and ``path`` (where). ``lang`` (the language of its words) is taken by
    :class:`~musteach_widgets._base.Spoken` before the quiz is built."""

    tries: int
    lesson: str | None
    quiz: str | None
    store: str | Store | None
    path: str | None


#: How a control reports an answer: ``submit(response)``, or ``submit(response, typed=True)`` for typed text.
Submit = Callable[..., Any]


def feedback_blocks(blocks: Sequence[Feedback]) -> str:
    """A state's feedback blocks as HTML (a retry block is drawn as a wrong answer with one more try)."""
    return "".join(feedback_html(b.kind, b.headline, b.reasons) for b in blocks)


class ClassSink:
    """The class's records (:mod:`.class_sink`): a lesson's answers and runs, practice's reviews.

    Each answer carries the seconds spent on it: since the quiz was made (its first answer) or since the answer
    before it, at most :data:`~.class_sink.ANSWER_SECONDS_MAX`. The dashboard's time spent adds them up, so a
    learner who spent 20 minutes on a run and did not finish it shows 20 minutes (runs carry no time of their own).
    clock: seconds, monotonic (tests give their own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._since = clock()

    def answered(self, lesson: str, quiz: str, question: Any, attempt: Attempt, review_id: str) -> None:
        now = self.clock()
        seconds, self._since = min(now - self._since, ANSWER_SECONDS_MAX), now
        send_record(answer_record(lesson, quiz, question, attempt, review_id, diagnosis=attempt.diagnosis,
                                  seconds=seconds))

    def run_finished(self, run: QuizRun) -> None:
        send_record(run_record(run))

    def reviewed(self, skill: str, attempt: Attempt, review_id: str, ms: int) -> None:
        send_record(review_record(skill, attempt, review_id, ms))


# ----------------------------------------------------------------------------------------------
# Answer controls
# ----------------------------------------------------------------------------------------------


def paint_button(button: widgets.Button, mark: Mark) -> None:
    """Draw one answer button as ``mark`` says (one message: the page sees its classes and state together)."""
    with button.hold_sync():
        if mark is Mark.OPEN:
            button.disabled = False
            return
        button.disabled = True
        if mark is Mark.TRIED:
            button.button_style = "danger"
            button.add_class("musteach-tried")
        if mark in (Mark.RIGHT, Mark.PICKED_RIGHT):
            button.button_style = "success"
            button.add_class("musteach-correct")
        if mark in (Mark.PICKED_RIGHT, Mark.PICKED_WRONG):
            button.add_class("musteach-chosen")
        if mark is Mark.PICKED_WRONG:
            button.button_style = "danger"


class AnswerControls:
    """The controls one question is answered with. ``children``: what goes in the answer box;
    ``buttons``: ``(value, button)`` for each answer button (a Check button's value is None)."""

    def __init__(self) -> None:
        self.children: list[widgets.Widget] = []
        self.buttons: list[tuple[Any, widgets.Button]] = []

    def apply(self, state: LoopState) -> None:
        """Draw ``state``: the second try (reopened), the verdict (marked) or a failure (all shut)."""
        if state.event is Event.OOPS:
            self.shut()
        elif state.event is Event.RETRY:
            self.reopen(state)
        elif state.event is Event.VERDICT:
            self.mark(state)

    def shut(self) -> None:
        for _v, b in self.buttons:
            b.disabled = True

    def reopen(self, state: LoopState) -> None:
        self.focus()

    def mark(self, state: LoopState) -> None:
        self.shut()

    def focus(self) -> None:
        """Put the focus on the first open control."""
        for _v, b in self.buttons:
            if not b.disabled:
                b.focus()
                return

    def check_style(self, button: widgets.Button, state: LoopState) -> None:
        """A Check button coloured by the verdict."""
        button.button_style = "" if state.check is None else "success" if state.check else "danger"


class ChoiceButtons(AnswerControls):
    """One button per choice of the question (``question.choices``), marked as the state says.

    css: the class of each value's button; tooltip: its tooltip (given the value and label).
    """

    def __init__(
        self,
        choices: Sequence[tuple[Any, str]],
        submit: Submit,
        *,
        css: Callable[[Any], str],
        tooltip: Callable[[Any, str], str],
    ) -> None:
        super().__init__()
        for value, label in choices:
            b = widgets.Button(description=label, tooltip=tooltip(value, label), layout=widgets.Layout(width="auto"))
            b.add_class("musteach-answer")
            b.add_class(css(value))
            b.on_click(lambda _b, v=value: submit(v))
            self.buttons.append((value, b))
        self.children = [b for _v, b in self.buttons]

    def reopen(self, state: LoopState) -> None:
        for (_v, b), mark in zip(self.buttons, state.marks, strict=False):
            if mark is Mark.TRIED:
                paint_button(b, mark)
        self.focus()

    def mark(self, state: LoopState) -> None:
        for (_v, b), mark in zip(self.buttons, state.marks, strict=False):
            paint_button(b, mark if mark is not Mark.OPEN else Mark.SHUT)


class TotalEntry(AnswerControls):
    """A box to type a number in, and Check (a typed answer: a slip uses no try). Enter in the box checks too.

    Enter: ipywidgets 8's text box sends the kernel ``{"event": "submit"}`` when Enter is pressed, after the
    value typed (``continuous_update``, the default, sends each change as it is typed). Its ``on_submit`` is
    deprecated in favour of ``continuous_update=False`` and observing ``value``, which would check on every
    blur too and never on Enter over an unchanged value: the box's own message is read instead
    (:meth:`on_enter`), as Check's click."""

    def __init__(self, submit: Submit) -> None:
        super().__init__()
        _ = translator()
        self.box = widgets.Text(
            value="", placeholder=_(labels.TOTAL_PLACEHOLDER), description=_(labels.TOTAL_LABEL),
            tooltip=_(labels.TOTAL_TIP), layout=widgets.Layout(width="180px"),
        )  # fmt: skip
        self.box.add_class("musteach-total-input")
        self.check = widgets.Button(description=_(labels.CHECK), tooltip=_(labels.CHECK_TOTAL_TIP))
        self.check.add_class("musteach-check")
        self.check.add_class("musteach-answer")
        self.check.on_click(lambda _b: submit(self.box.value, typed=True))
        self.box.on_msg(lambda _w, content, _buffers: self.on_enter(content, submit))
        self.buttons = [(None, self.check)]
        self.children = [self.box, self.check]

    def on_enter(self, content: object, submit: Submit) -> None:
        """A message from the box: Enter (``{"event": "submit"}``) checks what is typed, as Check does, while
        Check may be pressed; anything else is ignored."""
        if isinstance(content, dict) and content.get("event") == "submit" and not self.check.disabled:
            submit(self.box.value, typed=True)

    def shut(self) -> None:
        self.box.disabled = self.check.disabled = True

    def reopen(self, state: LoopState) -> None:
        self.box.value = ""
        self.box.focus()

    def mark(self, state: LoopState) -> None:
        self.shut()
        self.check_style(self.check, state)

    def focus(self) -> None:
        self.box.focus()


class RankOrder(AnswerControls):
    """Cards to press from the highest down (each press places the next card), Undo and Check.

    card_class: the class of each card button besides ``musteach-card-<code>`` (``musteach-answer`` in a
    quiz, ``musteach-place`` in practice, where Check is the answer button). guard: wraps a click handler (the
    view's: its language, and a friendly message on failure).
    """

    def __init__(self, cards: Sequence[Card], choices: Sequence[tuple[Any, str]], submit: Submit, *,
                 card_class: str = "musteach-answer", guard: Callable[[Submit], Submit] = lambda f: f) -> None:
        super().__init__()
        self.cards = tuple(cards)
        self.order: list[Card] = []
        self.open = True
        _ = translator()
        self.lang = _.lang  # a click outside the view's handlers still words the order in its language
        self.view = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.view.add_class("musteach-order")
        self.undo = widgets.Button(description=_(labels.UNDO), tooltip=_(labels.UNDO_TIP))
        self.undo.add_class("musteach-undo")
        self.check = widgets.Button(description=_(labels.CHECK), tooltip=_(labels.CHECK_ORDER_TIP))
        self.check.add_class("musteach-check")
        if card_class != "musteach-answer":
            self.check.add_class("musteach-answer")
        for value, label in choices:
            b = widgets.Button(
                description=label, tooltip=_(labels.PLACE_CARD_TIP, card=value.name), layout=widgets.Layout(width="auto")
            )
            b.add_class(card_class)
            b.add_class(f"musteach-card-{value.code}")
            b.on_click(guard(lambda _b, c=value: self.place(c)))
            self.buttons.append((value, b))
        self.undo.on_click(guard(lambda _b: self.take_back()))
        self.check.on_click(lambda _b: submit(tuple(self.order)) if len(self.order) == len(self.cards) else None)
        row = widgets.HBox([b for _v, b in self.buttons], layout=widgets.Layout(flex_flow="row wrap"))
        self.children = [widgets.VBox([row, self.view, widgets.HBox([self.undo, self.check])])]
        self.refresh()

    def button_for(self, card: Card) -> widgets.Button:
        return next(b for v, b in self.buttons if same_answer(v, card))

    def place(self, card: Card) -> None:
        """Place ``card`` next in the order."""
        if not self.open or card in self.order:
            return
        self.order.append(card)
        self.button_for(card).disabled = True
        self.refresh()
        if not self.check.disabled:
            self.check.focus()

    def take_back(self) -> None:
        """Undo the last card placed."""
        if not self.open or not self.order:
            return
        self.button_for(self.order.pop()).disabled = False
        self.refresh()

    def refresh(self) -> None:
        _ = translator(self.lang)
        if self.order:
            pics = "".join(card_svg(c, 40) for c in self.order)
            names = ", ".join(c.name for c in self.order)
            text = _(labels.ORDER_SO_FAR, placed=len(self.order), total=len(self.cards), cards=names)
            self.view.value = (
                f'<div class="musteach-order-label">{escape(text)}</div><div class="musteach-cards">{pics}</div>'
            )
        else:
            self.view.value = f'<div class="musteach-order-label">{escape(_(labels.PRESS_HIGHEST))}</div>'
        self.undo.disabled = not self.open or not self.order
        self.check.disabled = not self.open or len(self.order) != len(self.cards)

    def shut(self) -> None:
        self.open = False
        super().shut()
        self.undo.disabled = self.check.disabled = True

    def reopen(self, state: LoopState) -> None:
        """The second try starts a fresh order."""
        self.order = []
        for _v, b in self.buttons:
            b.disabled = False
        self.refresh()
        self.focus()

    def mark(self, state: LoopState) -> None:
        self.shut()
        self.check_style(self.check, state)


# ----------------------------------------------------------------------------------------------
# The view
# ----------------------------------------------------------------------------------------------


class LoopWidget(Guarded, VBox):
    """The one ipywidgets view of a :class:`~musteach.teach.loop.QuizLoop`: title, what was done here, the
    question's progress, prompt and picture, its answer controls, the feedback, and Hint · score · Next ·
    Start again. A quiz kind gives its picture (:meth:`_picture`) and its controls (:meth:`_controls`).
    ``status`` is the progress line (``progress`` in a lesson's quiz).

    ``loop`` is the :class:`~musteach.teach.loop.QuizLoop`; ``state`` the last state drawn; ``errors`` every
    exception a handler raised (the learner saw a friendly message instead).
    """

    default_title = labels.QUIZ
    loop: QuizLoop
    controls: AnswerControls | None
    state: LoopState | None

    # ----- building -------------------------------------------------------------------------
    def _parts(self, title: str | None) -> widgets.HBox:
        """Make the parts every quiz shows; returns the nav row (Hint, score, Next, Start again)."""
        self.errors: list[BaseException] = []
        self.controls = None
        self.state = None
        self.title = html_box("musteach-title")
        self.title.value = escape(title or translator()(self.default_title))
        self.best = html_box("musteach-best")
        self.status = html_box("musteach-progress")
        self.prompt = html_box("musteach-prompt")
        self.picture = html_box("musteach-picture")
        self.answer_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.answer_box.add_class("musteach-answers")
        self.feedback = html_box("musteach-feedback")
        _ = translator()
        self.hint_button = widgets.Button(description=_(labels.HINT), tooltip=_(labels.HINT_TIP))
        self.hint_button.add_class("musteach-hint")
        self.hint_button.on_click(self._guard(lambda _b: self.loop.hint()))
        self.score, self.next_button, self.restart_button, nav = quiz_nav(
            self._guard(lambda _b: self._on_next()), self._guard(lambda _b: self._on_restart())
        )
        nav.children = (self.hint_button, *nav.children)
        return nav

    def _keeper(self, *, lesson: str | None, quiz: str | None, store: str | Store | None,
                path: str | None) -> tuple[LessonKeeper, list[widgets.Widget]]:
        """A lesson's keeper over its store (``"auto"`` when results are kept, else memory); returns it and
        the widgets to add (the browser's store)."""
        saving = lesson is not None and quiz is not None
        keeper = LessonKeeper(lesson, quiz, None, ClassSink())
        self.store: Store = open_store(store if store is not None else ("auto" if saving else "memory"), path=path)
        keeper.store = self.store
        extra: list[widgets.Widget] = []
        if isinstance(self.store, BrowserStore):
            extra.append(self.store)
            self.store.on_change(self._guard(self._on_stored))
        return keeper, extra

    def _start_loop(self, source: QuestionSource, keeper: Keeper, *, n: int, tries: int, seed: int | None,
                    endless: bool = False) -> None:
        """Make the loop, read the learner's progress, show the first question and resume a kept run."""
        self.loop = QuizLoop(self, source, n=n, tries=tries, keeper=keeper, seed=seed, endless=endless)
        problem = self.loop.load()
        if problem is not None:
            self._cannot_read(problem)
        self.show_best(keeper.best_text())
        self._guard(self.loop.start)()
        self._guard(self.loop.check_resume)()

    def _cannot_read(self, message: str) -> None:
        """The progress could not be read: the learner still practises (a quiz logs it)."""
        _log.warning("progress could not be read: %s", message)

    # ----- what a quiz kind gives ---------------------------------------------------------------
    def _picture(self, q: Any, verdict: Verdict | None) -> str:  # pragma: no cover - every quiz defines it
        raise NotImplementedError

    def _controls(self, q: Any) -> AnswerControls:  # pragma: no cover - every quiz defines it
        raise NotImplementedError

    def _prompt(self, state: LoopState) -> str:
        """The question's prompt (plain text)."""
        return state.prompt

    def _progress_html(self, state: LoopState) -> str:
        """The line above the question: ``"Question 3 of 10"`` (HTML)."""
        return escape(state.progress)

    # ----- the loop's state -----------------------------------------------------------------
    @property
    def session(self) -> QuizSession | None:
        """The run's :class:`~musteach.teach.session.QuizSession` (None until a run starts)."""
        return self.loop.session if hasattr(self, "loop") else None

    @property
    def question(self) -> Any:
        """The question on screen."""
        return self.loop.question if hasattr(self, "loop") else None

    @property
    def verdict(self) -> Verdict | None:
        """The current question's verdict, once answered."""
        s = self.session
        return s.verdict if s is not None else None

    @property
    def hint_marks(self) -> tuple[Any, ...]:
        """The cards the last hint rings on the picture."""
        return self.state.hint_marks if self.state is not None else ()

    @property
    def tries(self) -> int:
        """1 or 2: a second try after a wrong first answer."""
        return self.loop.tries

    @property
    def learner(self) -> Progress:
        """The learner's progress."""
        return self.loop.keeper.learner

    @property
    def answer_buttons(self) -> tuple[widgets.Button, ...]:
        """The answer buttons of the current question, in the order of its choices."""
        return tuple(b for _v, b in self.controls.buttons) if self.controls is not None else ()

    def button_for(self, value: Any) -> widgets.Button:
        """The answer button for a choice value (a seat, None for Nobody, a jugada, a total, a card)."""
        for v, b in self.controls.buttons if self.controls is not None else ():
            if same_answer(v, value):
                return b
        raise KeyError(f"no answer button for {value!r}")

    def _submit(self, response: Any, *, typed: bool = False) -> Verdict | None:
        return self.loop.answer(response, typed=typed)

    # ----- events ---------------------------------------------------------------------------
    def _on_next(self) -> None:
        self.loop.next()
        self._focus_first()

    def _on_restart(self) -> None:
        self.loop.restart()
        self._focus_first()

    def _on_stored(self, progress: Progress) -> None:
        self.loop.stored(progress)

    def _show_oops(self) -> None:
        if hasattr(self, "loop"):
            self.loop.oops()

    def _focus_first(self) -> None:
        if self.controls is not None and self.session is not None and self.session.can_answer():
            self.controls.focus()

    # ----- QuizView ---------------------------------------------------------------------------
    def show_question(self, state: LoopState) -> None:
        self.state = state
        self.score.value = escape(state.score)
        self.restart_button.layout.display = "none"
        self.next_button.layout.display = None
        self.next_button.disabled = True
        q = state.question
        if q is None:  # the source ran out: the summary follows
            self.feedback.value = ""
            return
        self.controls = self._controls(q)
        self.prompt.value = escape(self._prompt(state))
        self.hint_button.disabled = not state.can_hint
        self.picture.value = self._picture(q, None)
        self.answer_box.children = tuple(self.controls.children)
        self.feedback.value = ""  # a page waiting for the feedback to clear then sees the whole new question
        self.status.value = self._progress_html(state)

    def show_retry(self, state: LoopState) -> None:
        self.state = state
        self.feedback.value = feedback_blocks(state.feedback)
        if self.controls is not None:
            self.controls.apply(state)
        self.hint_button.disabled = not state.can_hint

    def show_hint(self, state: LoopState) -> None:
        self.state = state
        self.feedback.value = feedback_blocks(state.feedback)
        if state.hint_marks and state.question is not None:
            self.picture.value = self._picture(state.question, None)
        self.hint_button.disabled = not state.can_hint

    def show_slip(self, state: LoopState) -> None:
        self.state = state
        self.feedback.value = feedback_blocks(state.feedback)

    def show_verdict(self, state: LoopState) -> None:
        self.state = state
        # The verdict goes out first: it is what the learner waits for. The marked answers and the redrawn
        # picture (the largest message) follow.
        self.feedback.value = feedback_blocks(state.feedback)
        self.hint_button.disabled = True
        if self.controls is not None:
            self.controls.apply(state)
        self.score.value = escape(state.score)
        self.status.value = self._progress_html(state)
        if state.question is not None:
            self.picture.value = self._picture(state.question, state.verdict)
        if not state.finished:
            self.next_button.disabled = not state.can_next
            self.next_button.focus()

    def show_finished(self, state: LoopState) -> None:
        self.state = state
        self.next_button.layout.display = "none"
        self.restart_button.layout.display = None
        self.feedback.value = feedback_blocks(state.feedback)
        self.restart_button.focus()

    def show_oops(self, state: LoopState) -> None:
        self.hint_button.disabled = True
        if self.controls is not None:
            self.controls.apply(state)
        self.feedback.value = feedback_blocks(state.feedback)
        if self.session is not None:
            self.score.value = escape(state.score)
        if state.finished:
            self.next_button.layout.display = "none"
            self.restart_button.layout.display = None
        else:
            self.next_button.layout.display = None
            self.next_button.disabled = False

    def show_best(self, text: str) -> None:
        self.best.value = escape(text)
        self.best.layout.display = None if text else "none"

    def show_unsaved(self, message: str) -> None:
        self.feedback.value += feedback_html("oops", message)

    def later(self, callback: Callable[[], None], after: float = 0.0) -> None:
        when_sent(self._guard(callback), after=after)
