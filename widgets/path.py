"""The learning path in the widgets: hints and a second try in every quiz, results kept in the progress store,
and the map of the lessons (issue 12).

* :class:`Tutored` — the mixin every quiz uses: a Hint button (two steps; the second rings the deciding cards
  on the picture), one more try after a wrong first answer, each answer recorded for lesson 11's scheduler,
  a finished run's stars kept, and a line saying what the learner has already done here.
* :class:`LessonMap` — the lessons with their stars, done or not, and a "continue here" link; a Reset button
  forgets every answer (after a confirmation).

Every sentence comes from :mod:`musteach.teach` (hints, tutor, path, scoring); the stores are those of
:mod:`.storage` (a file in JupyterLab, this browser in Voilà).

Stable CSS classes for browser tests: ``musteach-hint`` (the button), ``musteach-best`` (what was done here),
``musteach-map`` with one ``musteach-stop`` per lesson (``data-lesson``, ``data-stars``, ``data-done``,
``data-here``), ``musteach-continue`` (the link), ``musteach-reset`` and ``musteach-reset-confirm``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from musteach.i18n import translator
from musteach.rules.errors import MusError
from musteach.teach import labels
from musteach.teach.hints import Hint, Mark
from musteach.teach.path import find_lesson, lesson_map, quiz_status_text, record_attempt
from musteach.teach.progress import Progress, Record, new_id
from musteach.teach.resume import current_index, encode_response
from musteach.teach.scoring import stars_text
from musteach.teach.session import QuizSession
from musteach.teach.tutor import skill_of
from musteach.teach.verdict import Verdict

from ._base import Guarded, css_widget, escape, feedback_html, html_box, verdict_html, when_sent
from .class_sink import answer_record, run_record, send_record
from .storage import BrowserStore, Store, in_voila, open_store

__all__ = ["LessonMap", "Tutored", "show_map"]

_log = logging.getLogger("musteach_widgets")


class Tutored:
    """Mixin for a quiz with a :class:`~musteach.teach.session.QuizSession` in ``self.session``, a
    ``self.feedback`` HTML box and ``self._guard`` (:class:`~._base.Guarded`).

    Call :meth:`_setup_tutor` in ``__init__`` (it returns the widgets to add), pass ``tries=self.tries`` to the
    session, call :meth:`_tutor_question` when a question is shown and :meth:`_tutor_answered` after each
    answer. Subclasses redraw their picture in :meth:`_redraw_marks` and reopen their answer controls in
    :meth:`_reopen_answers`.
    """

    session: QuizSession | None
    feedback: widgets.HTML
    errors: list[BaseException]
    _guard: Callable[..., Callable[..., Any]]

    def _setup_tutor(
        self,
        *,
        tries: int,
        lesson: str | None,
        quiz: str | None,
        store: str | Store | None,
        path: str | None,
    ) -> list[widgets.Widget]:
        self.tries = tries
        self.lesson = find_lesson(lesson).name if lesson is not None else None
        self.quiz_name = quiz
        if self.lesson is not None and quiz is not None:
            find_lesson(self.lesson).quiz(quiz)  # raises LessonError for an unknown quiz name
        saving = self.lesson is not None and quiz is not None
        self.store: Store = open_store(store if store is not None else ("auto" if saving else "memory"), path=path)
        self.learner = Progress()
        #: the run in progress (its id and question seed) when its answers are kept step by step, else None
        self.run_id: str | None = None
        self.run_seed: int | None = None
        self._resume_checked = False  # a kept run is resumed once, from what the store held when it loaded
        self.hint_marks: tuple[Mark, ...] = ()
        _ = translator()
        self.hint_button = widgets.Button(description=_(labels.HINT), tooltip=_(labels.HINT_TIP))
        self.hint_button.add_class("musteach-hint")
        self.hint_button.on_click(self._guard(self._on_hint))
        self.best = html_box("musteach-best")
        extra: list[widgets.Widget] = []
        if isinstance(self.store, BrowserStore):
            extra.append(self.store)
            self.store.on_change(self._guard(self._on_stored))
        try:
            self.learner = self.store.load()
        except OSError as e:  # the learner still practises; the line says so
            _log.warning("progress could not be read: %s", e)
        self._show_best()
        return extra

    # ----- what was done here ---------------------------------------------------------------
    def _show_best(self) -> None:
        if self.lesson is None or self.quiz_name is None:
            self.best.layout.display = "none"
            return
        self.best.value = escape(quiz_status_text(self.learner, self.lesson, self.quiz_name))

    def _on_stored(self, progress: Progress) -> None:
        self.learner = progress
        self._show_best()
        self._tutor_resume()

    # ----- runs kept step by step (issue 23) --------------------------------------------------
    def _tutor_run_started(self, seed: int | None) -> None:
        """A new run starts: keep its answers step by step under a new run id (``seed``: its question seed;
        None when its questions cannot be drawn again, e.g. a fixed list: nothing is kept then)."""
        keeps = self.lesson is not None and self.quiz_name is not None and seed is not None
        self.run_id = new_id() if keeps else None
        self.run_seed = seed if keeps else None

    def _tutor_open_run(self) -> tuple[Record, ...]:
        """The kept steps of this quiz's run in progress (empty when none, or when nothing is kept here)."""
        if self.lesson is None or self.quiz_name is None:
            return ()
        return self.learner.open_run(self.lesson, self.quiz_name)

    def _tutor_resume(self) -> None:
        """Resume the kept run in progress when the learner has not started this one (after a reload, the
        browser's records arrive after the quiz is drawn), once: a run another tab goes on with later is its own.
        Quizzes that can resume override :meth:`_resume`."""
        if self._resume_checked or not getattr(self.store, "loaded", True):
            return
        self._resume_checked = True
        s = self.session
        steps = self._tutor_open_run()
        if not steps or steps[0].data.get("q") != 0 or steps[0].data.get("run") == self.run_id:
            return  # nothing kept, a run whose first steps were removed, or this very run
        if s is None or s.answered or s.attempt.tries or s.attempt.hints:
            return  # the learner has started this run: it goes on
        self._resume(steps)

    def _resume(self, steps: tuple[Record, ...]) -> None:  # pragma: no cover - overridden
        """Draw the kept run again and replay its steps (see :func:`musteach.teach.resume.replay`)."""

    def _tutor_replayed(self, steps: tuple[Record, ...], done: int) -> None:
        """The first ``done`` kept ``steps`` were replayed into a new run: keep them again under this run's own id
        (another tab resuming the same run then finishes a run of its own: both are kept)."""
        if self.run_id is None or self.lesson is None or self.quiz_name is None:
            return
        for st in steps[:done]:
            d = st.data
            self.learner.record_step(
                self.lesson, self.quiz_name, self.run_id, seed=int(d["seed"]), n=int(d["n"]), q=int(d["q"]),
                given=d.get("given"), hints=int(d.get("hints", 0)), shown="given" not in d,
            )
        self._save_soon()

    def _tutor_shown(self) -> None:
        """The learner moved to the next question of a kept run: keep that too (a reload shows that question)."""
        s = self.session
        if self.run_id is None or self.run_seed is None or s is None or s.current is None:
            return
        assert self.lesson is not None and self.quiz_name is not None
        self.learner.record_step(
            self.lesson, self.quiz_name, self.run_id, seed=self.run_seed, n=s.n, q=current_index(s), shown=True
        )
        self._save_soon()

    def _tutor_step(self, response: Any) -> None:
        """Keep one answer of the run in progress (a step record), so that a reload resumes the run."""
        s = self.session
        if self.run_id is None or self.run_seed is None or s is None or s.finished:
            return
        assert self.lesson is not None and self.quiz_name is not None
        try:
            given = encode_response(response)
        except MusError:
            return  # an answer that cannot be kept: the run is kept up to here
        hints = s.attempt.hints
        self.learner.record_step(
            self.lesson, self.quiz_name, self.run_id, seed=self.run_seed, n=s.n, q=current_index(s), given=given,
            hints=hints,
        )

    def _save_soon(self) -> None:
        """Save once this click's own messages are out (:func:`~._base.when_sent`): the verdict reaches the page
        first, and the progress (a whole JSON document for the browser's store, or a file write with fsync)
        follows."""
        when_sent(self._guard(self._save))

    def _save(self) -> None:
        try:
            self.learner = self.store.save(self.learner)
        except OSError as e:
            self.feedback.value += feedback_html("oops", translator()(labels.NOT_SAVED, error=e.strerror or e))
        self._show_best()

    # ----- hints ----------------------------------------------------------------------------
    def _tutor_question(self) -> None:
        """A new question is on screen: no marks, the Hint button ready."""
        self.hint_marks = ()
        s = self.session
        self.hint_button.disabled = s is None or not s.can_hint()

    def _on_hint(self, _button: widgets.Button | None = None) -> None:
        s = self.session
        if s is None or not s.can_hint():
            return
        hint: Hint = s.hint()
        retry = s.retry  # the diagnosis of a wrong first answer stays, the hint goes under it
        above = feedback_html("retry", retry.headline, retry.explanation) if retry is not None else ""
        self.feedback.value = above + feedback_html("hint", hint.headline, hint.text)
        if hint.marks:
            self.hint_marks = hint.marks
            self._redraw_marks()
        self.hint_button.disabled = not s.can_hint()

    def _redraw_marks(self) -> None:  # pragma: no cover - overridden
        """Redraw the picture with :attr:`hint_marks` ringed."""

    def _reopen_answers(self, given: Any) -> None:  # pragma: no cover - overridden
        """Open the answer controls again for the second try (the wrong ``given`` stays marked)."""

    # ----- answers --------------------------------------------------------------------------
    def _tutor_answered(self, verdict: Verdict, response: Any = None) -> bool:
        """After an answer: True when the question stays open for one more try (the retry message is shown);
        False when it is over (the verdict is shown first, before anything else changes on the page; the caller
        then marks the answers). Records a finished question, and a finished run (saved once this click's
        messages are out). response: the answer as given, kept as a step of the run in progress (see
        :meth:`_tutor_run_started`)."""
        s = self.session
        assert s is not None
        self._tutor_step(response)
        if s.retry is not None and not s.is_answered:
            if self.run_id is not None:
                self._save_soon()
            self._first_given = s.retry.given  # classes: the first wrong pick names the misconception
            self.feedback.value = feedback_html("retry", s.retry.headline, s.retry.explanation)
            self._reopen_answers(verdict.given)
            self.hint_button.disabled = not s.can_hint()
            return True
        self.feedback.value = verdict_html(verdict)  # first: the verdict is what the learner waits for
        self.hint_button.disabled = True
        self.hint_marks = ()
        if self.lesson is not None and self.quiz_name is not None and s.history:
            question = s.history[-1][0]
            review = record_attempt(self.learner, skill_of(question), s.attempt)
            first = vars(self).pop("_first_given", verdict.given)
            send_record(answer_record(self.lesson, self.quiz_name, question, s.attempt, review.id, first,
                                      diagnosis=s.attempt.record_fields["diagnosis"]))  # musteach's, as grade says
            if s.finished:
                run = self.learner.record_run(
                    self.lesson, self.quiz_name, s.points, s.stars, hints=s.hints_used, retries=s.retries,
                    run_id=self.run_id or "",
                )
                send_record(run_record(run))
            self._save_soon()
        return False


# ----------------------------------------------------------------------------------------------
# The map
# ----------------------------------------------------------------------------------------------

_MAP_CSS = """
.musteach-map ol { list-style: none; padding: 0; margin: 6px 0; }
.musteach-map li.musteach-stop { display: flex; gap: 10px; align-items: baseline; padding: 5px 8px;
  border-left: 4px solid var(--mt-edge); margin: 3px 0; }
.musteach-map li.musteach-stop[data-done="true"] { border-left-color: #2e7d32; }
.musteach-map li.musteach-stop[data-here="true"] { background: #fffde7; border-left-color: #f9a825; }
.musteach-map .musteach-stars { color: #b8860b; font-size: 1.1em; min-width: 3.5em; }
.musteach-map .musteach-status { color: var(--mt-muted); font-size: .9em; }
.musteach-map .musteach-continue { font-weight: 700; }
"""


class LessonMap(Tutored, Guarded, widgets.VBox):
    """The lessons as a path: each with its stars (0–3), done or not, and a "continue here" link to the
    first lesson not done. store: where progress is kept (``"auto"``: this browser in Voilà, a file in
    JupyterLab; see :func:`~musteach_widgets.storage.open_store`). path: the file for the file store.
    ``progress`` is the learner's :class:`~musteach.teach.progress.Progress`. A Reset button forgets every
    answer and run, after a second click to confirm. lang: the language of its words (``"es"``; None: the
    kernel's, else English).
    """

    def __init__(self, *, store: str | Store = "auto", path: str | None = None, opened: tuple[str, ...] = ("00-welcome",)):
        self.errors: list[BaseException] = []
        self.opened = opened
        self.session = None
        self.feedback = html_box("musteach-feedback")
        _ = translator()
        self.title = html_box("musteach-title", escape(_(labels.MAP_TITLE)))
        self.view = html_box("musteach-map-view")
        self.reset_button = widgets.Button(description=_(labels.RESET), tooltip=_(labels.RESET_TIP))
        self.reset_button.add_class("musteach-reset")
        self.confirm_button = widgets.Button(
            description=_(labels.CONFIRM_RESET), button_style="danger", tooltip=_(labels.CONFIRM_RESET_TIP)
        )
        self.confirm_button.add_class("musteach-reset-confirm")
        self.confirm_button.layout.display = "none"
        self.reset_button.on_click(self._guard(self._on_reset))
        self.confirm_button.on_click(self._guard(self._on_confirm))
        extra = self._setup_tutor(tries=1, lesson=None, quiz=None, store=store, path=path)
        self.note = html_box("musteach-map-note")
        if not in_voila():
            self.note.value = escape(_(labels.LAB_NOTE))
        tools = widgets.HBox([self.reset_button, self.confirm_button])
        super().__init__([css_widget(), css_widget(_MAP_CSS), self.title, self.view, self.feedback, tools, self.note, *extra])
        self.add_class("musteach-quiz")
        self.add_class("musteach-map")
        self._draw()

    @property
    def progress(self) -> Progress:
        return self.learner

    def _show_best(self) -> None:  # the map draws everything itself
        if hasattr(self, "view"):
            self._draw()

    def _on_stored(self, progress: Progress) -> None:
        self.learner = progress
        self._draw()

    def _draw(self) -> None:
        _ = translator()
        items = []
        for stop in lesson_map(self.learner, opened=self.opened):
            lesson = stop.lesson
            link = f'<a href="{escape(lesson.notebook)}">{escape(f"{lesson.number}. {lesson.title}")}</a>'
            here = (
                f' <a class="musteach-continue" href="{escape(lesson.notebook)}">{escape(_(labels.CONTINUE_HERE))}</a>'
                if stop.here
                else ""
            )
            stars = stars_text(stop.stars) if stop.lesson.quizzes else ("✓" if stop.done else "·")
            items.append(
                f'<li class="musteach-stop" data-lesson="{escape(lesson.name)}" data-stars="{stop.stars}" '
                f'data-done="{str(stop.done).lower()}" data-here="{str(stop.here).lower()}">'
                f'<span class="musteach-stars" aria-label="{escape(labels.stars_label(stop.stars))}">{stars}</span>'
                f'<span>{link}{here}<br><span class="musteach-status">{escape(stop.status_text)}</span></span></li>'
            )
        self.view.value = f'<ol aria-label="{escape(_(labels.THE_LESSONS))}">{"".join(items)}</ol>'

    def _on_reset(self, _button: widgets.Button | None = None) -> None:
        self.confirm_button.layout.display = None
        _ = translator()
        self.feedback.value = feedback_html("hint", _(labels.FORGET_EVERYTHING), _(labels.EVERYTHING_LOST))

    def _on_confirm(self, _button: widgets.Button | None = None) -> None:
        self.confirm_button.layout.display = "none"
        self.learner = self.store.save(Progress.reset())
        self.feedback.value = feedback_html("done", translator()(labels.PROGRESS_RESET))
        self._draw()

    def _show_oops(self) -> None:
        self.feedback.value = feedback_html("oops", translator()(labels.MAP_OOPS))


def show_map(**kwargs: Any) -> LessonMap:
    """The map of the lessons (see :class:`LessonMap`)."""
    return LessonMap(**kwargs)

