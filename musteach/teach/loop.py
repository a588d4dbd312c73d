"""The one quiz loop (issue 24): question → answer → verdict → diagnosis → hint → second try → score →
next or finished, with a run's records (each answer kept as it is given, a run resumed from its kept steps).

Every quiz of the tutor — who wins a lance, jugadas, totals, card order, betting payments, the count, the odds,
the mus and the señas quizzes and practice's adaptive rounds — is a :class:`QuestionSource` plugged into one
:class:`QuizLoop`. The loop talks to its view through the small :class:`QuizView` protocol: each call hands a
frozen :class:`LoopState` saying what to show (the prompt, the score, the feedback blocks), which answers to
mark (:class:`Mark`: right, picked, tried...), and what is enabled. A view only draws a state and reports the
learner's events (:meth:`QuizLoop.answer`, :meth:`~QuizLoop.hint`, :meth:`~QuizLoop.next`,
:meth:`~QuizLoop.restart`); every decision is made here. Pure Python (no Jupyter import).

What a run keeps is a :class:`Keeper`'s job (the base keeps nothing): :mod:`musteach.teach.keepers` has a
lesson's (each answer as a step of the run in progress, the finished question for the scheduler, the finished
run's stars; issue 23) and practice's (lesson 11: each answer as a review of its skill), with practice's
adaptive question source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from ..i18n import Text, translator
from ..rules.errors import MusError, shown
from . import labels
from .errors import BlankAnswerError, QuizError
from .hints import Hint
from .hints import Mark as HintMark
from .progress import Progress, QuizRun, Record
from .resume import new_seed, replay
from .scoring import Attempt
from .session import QuizSession
from .verdict import Verdict

__all__ = [
    "PREFETCH_AFTER",
    "Event",
    "Feedback",
    "Keeper",
    "LoopState",
    "Mark",
    "ProgressStore",
    "QuestionSource",
    "QuizLoop",
    "QuizView",
    "RecordSink",
    "SeededQuestions",
    "same_answer",
]

#: Seconds after a verdict at which the next question is built (the verdict is out and drawn by then).
PREFETCH_AFTER = 0.05


def same_answer(a: Any, b: Any) -> bool:
    """True when two answers are the same value of the same type (``1`` is not ``True``, a seat is not a total)."""
    return type(a) is type(b) and a == b


class Mark(StrEnum):
    """How an answer choice is drawn now."""

    OPEN = "open"
    """It takes an answer."""
    TRIED = "tried"
    """The wrong first pick, shut for the second try (and still marked after the verdict)."""
    RIGHT = "right"
    """The right answer, which the learner did not pick (shown after the verdict)."""
    PICKED_RIGHT = "picked-right"
    """The learner's final pick, right."""
    PICKED_WRONG = "picked-wrong"
    """The learner's final pick, wrong."""
    SHUT = "shut"
    """Closed, nothing to say about it."""


class Event(StrEnum):
    """What a state was made for."""

    QUESTION = "question"
    RETRY = "retry"
    HINT = "hint"
    SLIP = "slip"
    VERDICT = "verdict"
    FINISHED = "finished"
    OOPS = "oops"


@dataclass(frozen=True, slots=True)
class Feedback:
    """One feedback block: ``kind`` "right", "wrong", "retry", "hint", "oops" or "done"; a headline and the
    reasons (sentences, in order)."""

    kind: str
    headline: str
    reasons: tuple[str, ...] = ()

    @classmethod
    def of_verdict(cls, verdict: Verdict) -> Feedback:
        """A final verdict as a block."""
        return cls("right" if verdict.correct else "wrong", verdict.headline, tuple(verdict.reasons))


@dataclass(frozen=True, slots=True)
class LoopState:
    """What a view shows at one moment of the loop (frozen: a view keeps or compares states freely).

    question: the question on screen (None once the source ran out). prompt, progress, score: text.
    feedback: the blocks to show, top to bottom (empty: clear the box). marks: one :class:`Mark` per choice of
    the question (``question.choices``, in order; empty for a question without choices). check: None until the
    question's verdict, then True or False (the colour of a Check button). wrong_parts: the parts graded wrong
    (teams, lances), once graded. answering: the answer controls are open. can_hint, can_next: the Hint and
    Next buttons are enabled. finished: the run is over (Start again instead of Next). verdict: the question's
    final verdict. tried: the wrong first answer when the second try is open (else None). hint_marks: the cards
    a hint rings on the picture. event: what the state was made for.
    """

    event: Event
    question: Any
    prompt: str
    progress: str
    score: str
    feedback: tuple[Feedback, ...] = ()
    marks: tuple[Mark, ...] = ()
    check: bool | None = None
    wrong_parts: tuple[str, ...] = ()
    answering: bool = False
    can_hint: bool = False
    can_next: bool = False
    finished: bool = False
    verdict: Verdict | None = None
    tried: Any = None
    hint_marks: tuple[HintMark, ...] = ()


class QuizView(Protocol):
    """What a loop asks of its view: draw each state, and run work after the current event's messages."""

    def show_question(self, state: LoopState) -> None:
        """A new question (or, with ``state.question`` None and ``state.finished``, none left)."""

    def show_retry(self, state: LoopState) -> None:
        """A wrong first answer: what led astray; the controls open again, the tried answer marked."""

    def show_hint(self, state: LoopState) -> None:
        """A hint step under the feedback; ``state.hint_marks`` rings cards on the picture."""

    def show_slip(self, state: LoopState) -> None:
        """A typed answer that is no answer (a blank or bad number): a message, no try used."""

    def show_verdict(self, state: LoopState) -> None:
        """The question's final verdict, the answers marked."""

    def show_finished(self, state: LoopState) -> None:
        """The run is over: its summary, Start again."""

    def show_oops(self, state: LoopState) -> None:
        """Something failed: a friendly message (``state.feedback``), never a traceback."""

    def show_best(self, text: str) -> None:
        """The line saying what the learner has done in this quiz ("" for none), after each save."""

    def show_unsaved(self, message: str) -> None:
        """The learner's progress could not be saved: say so (the quiz goes on)."""

    def later(self, callback: Callable[[], None], after: float = 0.0) -> None:
        """Run ``callback`` once this event's messages are out, ``after`` seconds later."""


class ProgressStore(Protocol):
    """Where a learner's :class:`~musteach.teach.progress.Progress` is kept (a file, the browser, memory)."""

    def load(self) -> Progress: ...

    def save(self, progress: Progress) -> Progress: ...


class RecordSink(Protocol):
    """Where a class's records go (the teacher's dashboard); every call returns at once and never raises."""

    def answered(self, lesson: str, quiz: str, question: Any, attempt: Attempt, review_id: str) -> None: ...

    def run_finished(self, run: QuizRun) -> None: ...

    def reviewed(self, skill: str, attempt: Attempt, review_id: str, ms: int) -> None: ...


class _NoSink:
    def answered(self, lesson: str, quiz: str, question: Any, attempt: Attempt, review_id: str) -> None:
        return None

    def run_finished(self, run: QuizRun) -> None:
        return None

    def reviewed(self, skill: str, attempt: Attempt, review_id: str, ms: int) -> None:
        return None


# ----------------------------------------------------------------------------------------------
# Question sources
# ----------------------------------------------------------------------------------------------


class QuestionSource:
    """Where a loop's questions come from, and what is particular to their kind.

    Subclasses define :meth:`questions`. ``fixed``: True for a fixed list of questions (each run starts again
    from its first; a run of it is never kept step by step). ``prefetch``: build the next question while the
    learner reads a verdict. ``quiz_name``: the quiz's name within its lesson when none is given.
    """

    fixed = False
    prefetch = True
    quiz_name: str | None = None

    def questions(self, seed: int | None) -> Iterable[Any]:  # pragma: no cover - every source defines it
        """A run's questions: drawn from ``seed`` (the same seed, the same questions) or, with None, the
        source's own (a fixed list from its start, or a generator as it was made)."""
        raise NotImplementedError

    def grade(self, question: Any, response: Any) -> Verdict:
        """Grade a response (default the question's own ``grade``); raises a
        :class:`~musteach.rules.errors.MusError` for a response that is no answer."""
        verdict: Verdict = question.grade(response)
        return verdict

    def parse(self, response: Any) -> Any:
        """The answer a control's raw value stands for (default itself); raises a
        :class:`~musteach.rules.errors.MusError` for a typed value that is no answer."""
        return response

    def slip(self, exc: MusError) -> Feedback:
        """The message for a typed answer that is no answer (a blank box uses no try and says no "Try again")."""
        headline = "" if isinstance(exc, BlankAnswerError) else translator()(labels.TRY_AGAIN)
        return Feedback("hint", headline, (exc.message(),))


class SeededQuestions(QuestionSource):
    """A source drawn from a seed: ``draw(seed)`` gives a run's questions (an endless iterator), ``plain`` the
    questions of a run nobody keeps (default a new seed's). ``questions`` (a fixed list) makes it fixed."""

    def __init__(
        self,
        draw: Callable[[int], Iterable[Any]],
        *,
        plain: Callable[[], Iterable[Any]] | None = None,
        quiz_name: str | None = None,
        questions: Sequence[Any] | None = None,
        parse: Callable[[Any], Any] | None = None,
        slip: Callable[[MusError], Feedback] | None = None,
    ) -> None:
        self._draw = draw
        self._plain = plain
        self.quiz_name = quiz_name
        self.fixed_questions = None if questions is None else tuple(questions)
        self.fixed = questions is not None
        self._parse = parse
        self._slip = slip

    def questions(self, seed: int | None) -> Iterable[Any]:
        if self.fixed_questions is not None:
            return iter(self.fixed_questions)
        if seed is not None:
            return self._draw(seed)
        return self._plain() if self._plain is not None else self._draw(new_seed())

    def parse(self, response: Any) -> Any:
        return response if self._parse is None else self._parse(response)

    def slip(self, exc: MusError) -> Feedback:
        return super().slip(exc) if self._slip is None else self._slip(exc)


# ----------------------------------------------------------------------------------------------
# Keepers: what a run keeps
# ----------------------------------------------------------------------------------------------


class Keeper:
    """What a run keeps, and the words of its score. The base keeps nothing (a quiz outside any lesson)."""

    store: ProgressStore | None = None
    learner: Progress
    #: the id of the run in progress when its answers are kept step by step, else None
    run_id: str | None = None

    def __init__(self, store: ProgressStore | None = None, sink: RecordSink | None = None) -> None:
        self.store = store
        self.sink: RecordSink = sink if sink is not None else _NoSink()
        self.learner = Progress()

    # ----- a run's records ------------------------------------------------------------------
    def keeps_runs(self) -> bool:
        """True when a run's answers are kept step by step (and a kept run can be resumed)."""
        return False

    def open_run(self) -> tuple[Record, ...]:
        """The kept steps of the run in progress (empty when none)."""
        return ()

    def run_started(self, session: QuizSession, seed: int | None) -> None:
        """A new run started (``seed``: its question seed, None when its questions cannot be drawn again)."""

    def replayed(self, steps: Sequence[Record], done: int) -> bool:
        """The first ``done`` kept steps were replayed into the new run; True when there is something to save."""
        return False

    def shown(self, session: QuizSession) -> bool:
        """The learner moved on to the next question; True when there is something to save."""
        return False

    def step(self, session: QuizSession, response: Any) -> None:
        """Keep one answer of the run in progress (before the question may go on to its second try)."""

    def question_done(self, session: QuizSession, question: Any, attempt: Attempt) -> bool:
        """A question is over (``attempt`` its final attempt); True when there is something to save."""
        return False

    # ----- words ----------------------------------------------------------------------------
    def score_text(self, session: QuizSession) -> str:
        """The running score line."""
        return session.score_text()

    def progress_text(self, session: QuizSession) -> str:
        """``"Question 3 of 10"``."""
        return session.progress_text()

    def summary(self, session: QuizSession) -> Feedback:
        """The block shown when the run is over."""
        return Feedback("done", session.summary())

    def best_text(self) -> str:
        """What the learner has done here ("" when nothing is said)."""
        return ""

    #: the message when the progress could not be saved (``{error}``: why)
    not_saved = labels.NOT_SAVED

    def save(self) -> str | None:
        """Save the learner's progress; returns the message to show when it could not be saved."""
        if self.store is None:
            return None
        try:
            self.learner = self.store.save(self.learner)
        except OSError as e:
            return translator()(self.not_saved, error=e.strerror or e)
        return None


# ----------------------------------------------------------------------------------------------
# The loop
# ----------------------------------------------------------------------------------------------


@dataclass
class _Open:
    """The question on screen: the wrong first answer when its second try is open, the hint's marks."""

    tried: Any = None
    has_tried: bool = False
    hint_marks: tuple[HintMark, ...] = ()


class QuizLoop:
    """One quiz run after another: questions from ``source``, drawn on ``view``, kept by ``keeper``.

    n: questions in a run (a whole number ≥ 1). tries: 1 or 2 (one more try after a wrong first answer, with
    what led astray). seed: the first run's seed (a kept run draws its questions from a seed; None: a new one).
    endless: Next after a finished run starts the next one (practice's rounds), instead of waiting for Start
    again. Raises :class:`~musteach.teach.errors.QuizError` for a bad ``n`` or ``tries``.

    Call :meth:`start` once the view is ready; then the view reports the learner's events with :meth:`answer`,
    :meth:`hint`, :meth:`next` and :meth:`restart`, a failed handler with :meth:`oops`, and progress arriving
    from its store with :meth:`stored`. ``session`` is the :class:`~musteach.teach.session.QuizSession` of the
    run on screen (None until a run starts).
    """

    def __init__(
        self,
        view: QuizView,
        source: QuestionSource,
        *,
        n: int = 10,
        tries: int = 2,
        keeper: Keeper | None = None,
        seed: int | None = None,
        endless: bool = False,
    ) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise QuizError(Text(labels.N_ERROR, value=shown(n)))
        if tries not in (1, 2):
            raise QuizError(Text(labels.TRIES_ERROR, value=shown(tries)))
        self.view = view
        self.source = source
        self.n = n
        self.tries = tries
        self.keeper = keeper if keeper is not None else Keeper()
        self.endless = endless
        self.session: QuizSession | None = None
        self._first_seed = seed
        self._open = _Open()
        self._resume_checked = False

    # ----- the state ------------------------------------------------------------------------
    @property
    def question(self) -> Any:
        """The question on screen, or None."""
        return self.session.current if self.session is not None else None

    @property
    def untouched(self) -> bool:
        """True while the learner has done nothing in this run: no answer, no try and no hint."""
        s = self.session
        return s is None or not (s.answered or s.attempt.tries or s.attempt.hints)

    def state(self, event: Event, feedback: tuple[Feedback, ...] = ()) -> LoopState:
        """The state to show now, made for ``event`` with these feedback blocks."""
        s = self.session
        if s is None:
            return LoopState(event, None, "", "", "", feedback, finished=False, can_next=True)
        q = s.current
        verdict = s.verdict
        return LoopState(
            event=event,
            question=q,
            prompt="" if q is None else str(getattr(q, "prompt", "")),
            progress="" if q is None else self.keeper.progress_text(s),
            score=self.keeper.score_text(s),
            feedback=feedback,
            marks=self._marks(q, verdict),
            check=None if verdict is None else verdict.correct,
            wrong_parts=() if verdict is None else tuple(verdict.wrong),
            answering=s.can_answer(),
            can_hint=s.can_hint(),
            can_next=(verdict is not None and not s.finished) or (s.finished and self.endless),
            finished=s.finished,
            verdict=verdict,
            tried=self._open.tried if self._open.has_tried and verdict is None else None,
            hint_marks=self._open.hint_marks,
        )

    def _marks(self, q: Any, verdict: Verdict | None) -> tuple[Mark, ...]:
        choices = getattr(q, "choices", None) or ()
        tried, has_tried = self._open.tried, self._open.has_tried
        marks = []
        for choice in choices:
            value = choice[0]
            if has_tried and same_answer(value, tried):
                marks.append(Mark.TRIED)
            elif verdict is None:
                marks.append(Mark.OPEN)
            elif same_answer(value, verdict.expected):
                marks.append(Mark.PICKED_RIGHT if same_answer(value, verdict.given) else Mark.RIGHT)
            elif same_answer(value, verdict.given):
                marks.append(Mark.PICKED_WRONG)
            else:
                marks.append(Mark.SHUT)
        return tuple(marks)

    # ----- runs -----------------------------------------------------------------------------
    def start(self) -> None:
        """Start a new run (the first, or one after a failure to build a question) and show its first question."""
        self._begin(())

    def _begin(self, steps: tuple[Record, ...]) -> None:
        seed: int | None = None
        if not self.source.fixed and (self.keeper.keeps_runs() or steps):
            kept = steps[0].data.get("seed") if steps else self._first_seed
            seed = kept if isinstance(kept, int) else new_seed()
            self._first_seed = None  # the seed given is the first run's; each later run draws a new one
            questions = self.source.questions(seed)
        elif self.source.fixed:
            questions = self.source.questions(None)
        else:
            first, self._first_seed = self._first_seed, None
            questions = self.source.questions(first)
        self.session = QuizSession(questions, n=self.n, tries=self.tries, grade=self.source.grade)
        self._open = _Open()
        self.keeper.run_started(self.session, seed)
        if steps and self.keeper.replayed(steps, replay(self.session, steps)):
            self._save_soon()
        self._show_question()
        s = self.session
        if s.is_answered and s.verdict is not None:
            self._show_final(s.verdict)
        elif s.retry is not None:
            self._open = _Open(tried=s.retry.given, has_tried=True)
            self.view.show_retry(self.state(Event.RETRY, (self._retry_block(),)))

    def check_resume(self) -> None:
        """Resume the kept run in progress when the learner has not started this one, once (after a reload the
        browser's records arrive after the quiz is drawn; a run another tab goes on with later is its own)."""
        if self._resume_checked or not getattr(self.keeper.store, "loaded", True):
            return
        self._resume_checked = True
        s = self.session
        steps = self.keeper.open_run()
        if not steps or steps[0].data.get("q") != 0 or steps[0].data.get("run") == self.keeper.run_id:
            return  # nothing kept, a run whose first steps were removed, or this very run
        if s is None or not self.untouched:
            return  # the learner has started this run: it goes on
        self._begin(steps)

    def load(self) -> str | None:
        """Read the learner's progress from the keeper's store; returns the message to show when it could not be
        read (the learner still practises)."""
        store = self.keeper.store
        if store is None:
            return None
        try:
            self.keeper.learner = store.load()
        except OSError as e:
            return translator()(labels.NOT_READ, error=e)
        self.view.show_best(self.keeper.best_text())
        return None

    def stored(self, progress: Progress) -> None:
        """Progress arrived from the store (the browser's, at page load or from another tab)."""
        self.keeper.learner = progress
        self.view.show_best(self.keeper.best_text())
        self.check_resume()

    # ----- the learner's events -------------------------------------------------------------
    def answer(self, response: Any, *, typed: bool = False) -> Verdict | None:
        """Grade the learner's answer and show what follows: the retry, or the verdict (and the summary at the
        run's end). ``typed``: the response was typed in a box, so a :class:`~musteach.rules.errors.MusError`
        reading or grading it is the learner's slip (shown, no try used), not a failure. An answer while the
        question takes none (a second click) is ignored: returns None."""
        s = self.session
        if s is None or not s.can_answer():
            return None
        try:
            answer = self.source.parse(response)
            verdict = s.answer(answer)
        except MusError as exc:
            if not typed:
                raise
            self.view.show_slip(self.state(Event.SLIP, (self.source.slip(exc),)))
            return None
        self.keeper.step(s, answer)
        if s.retry is not None and not s.is_answered:
            self._open = _Open(tried=s.retry.given, has_tried=True)
            if self.keeper.run_id is not None:
                self._save_soon()
            self.view.show_retry(self.state(Event.RETRY, (self._retry_block(),)))
            return verdict
        self._open.hint_marks = ()
        question = s.history[-1][0] if s.history else None
        if question is not None and s.turn is not None and self.keeper.question_done(s, question, s.turn.attempt):
            self._save_soon()
        self._show_final(verdict)
        return verdict

    def hint(self) -> Hint | None:
        """The next hint step, shown under a retry's diagnosis (None when no step is left)."""
        s = self.session
        if s is None or not s.can_hint():
            return None
        hint = s.hint()
        above = (self._retry_block(),) if s.retry is not None else ()
        if hint.marks:
            self._open.hint_marks = hint.marks
        self.view.show_hint(self.state(Event.HINT, (*above, Feedback("hint", hint.headline, (hint.text,)))))
        return hint

    def next(self) -> None:
        """The next question (after a finished run of an endless loop: the next run; with no run, a new one)."""
        s = self.session
        if s is None:  # the first question failed to build: try again
            self.start()
            return
        if s.finished:
            if self.endless:
                self.restart()
            return
        s.next()
        self._open = _Open()
        self._show_question()
        if self.keeper.shown(s):
            self._save_soon()

    def restart(self) -> None:
        """Start again: a new run (a kept one under a new seed, a fixed list from its first question)."""
        s = self.session
        if s is None or self.source.fixed or self.keeper.run_id is not None:
            self.start()
            return
        s.restart()
        self._open = _Open()
        self._show_question()

    def oops(self) -> None:
        """A handler failed: show the friendly message (the score is kept; Next goes on)."""
        base = self.state(Event.OOPS, (Feedback("oops", translator()(labels.FRIENDLY_ERROR)),))
        s = self.session
        finished = s is not None and s.finished
        self.view.show_oops(
            LoopState(
                base.event, base.question, base.prompt, base.progress, base.score, base.feedback, base.marks,
                base.check, base.wrong_parts, answering=False, can_hint=False,
                can_next=not finished or self.endless, finished=finished, verdict=base.verdict,
            )
        )  # fmt: skip

    # ----- showing --------------------------------------------------------------------------
    def _retry_block(self) -> Feedback:
        s = self.session
        assert s is not None and s.retry is not None
        r = s.retry
        return Feedback("retry", r.headline, (r.explanation,) if r.explanation else ())

    def _show_question(self) -> None:
        s = self.session
        assert s is not None
        if s.current is None:  # the source ran out
            self.view.show_question(self.state(Event.QUESTION))
            self.view.show_finished(self.state(Event.FINISHED, (self.keeper.summary(s),)))
            return
        self.view.show_question(self.state(Event.QUESTION))

    def _show_final(self, verdict: Verdict) -> None:
        s = self.session
        assert s is not None
        block = Feedback.of_verdict(verdict)
        self.view.show_verdict(self.state(Event.VERDICT, (block,)))
        if s.finished:
            self.view.show_finished(self.state(Event.FINISHED, (block, self.keeper.summary(s))))
        if self.source.prefetch:
            self.view.later(s.prefetch, PREFETCH_AFTER)  # the next question is built while the learner reads

    def _save_soon(self) -> None:
        self.view.later(self._save)

    def _save(self) -> None:
        problem = self.keeper.save()
        if problem is not None:
            self.view.show_unsaved(problem)
        self.view.show_best(self.keeper.best_text())
