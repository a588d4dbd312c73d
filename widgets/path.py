"""The learning path in the widgets: the map of the lessons (issue 12).

Hints, a second try and each answer's records are the one quiz loop's (:mod:`musteach.teach.loop`, drawn by
:mod:`.loop`); this module keeps :class:`LessonMap` — the lessons with their stars, done or not, and a
"continue here" link; a Reset button forgets every answer (after a confirmation).

Every sentence comes from :mod:`musteach.teach` (path, scoring); the stores are those of :mod:`.storage` (a
file in JupyterLab, this browser in Voilà).

Stable CSS classes for browser tests: ``musteach-map`` with one ``musteach-stop`` per lesson (``data-lesson``,
``data-stars``, ``data-done``, ``data-here``), ``musteach-continue`` (the link), ``musteach-reset`` and
``musteach-reset-confirm``.
"""

from __future__ import annotations

import logging
from typing import Any

import ipywidgets as widgets

from musteach.i18n import translator
from musteach.teach import labels
from musteach.teach.path import lesson_map
from musteach.teach.progress import Progress
from musteach.teach.scoring import stars_text

from ._base import Guarded, VBox, css_widget, escape, feedback_html, html_box
from .storage import BrowserStore, Store, in_voila, open_store

__all__ = ["LessonMap", "show_map"]

_log = logging.getLogger("musteach_widgets")


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


class LessonMap(Guarded, VBox):
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
        self.store: Store = open_store(store, path=path)
        self.learner = Progress()
        extra: list[widgets.Widget] = []
        if isinstance(self.store, BrowserStore):
            extra.append(self.store)
            self.store.on_change(self._guard(self._on_stored))
        try:
            self.learner = self.store.load()
        except OSError as e:  # the map still shows the lessons; the line says so
            _log.warning("progress could not be read: %s", e)
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

