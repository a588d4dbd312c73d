"""Shared pieces of the musteach widgets: the language of a widget, the safe-handler guard, the friendly error
text and the CSS.

No rule logic and no words here: widgets only show what :mod:`musteach` computes, and their own words come from
:mod:`musteach.teach.labels`, put into each widget's language.

**Languages.** Every widget takes a keyword ``lang`` (``"es"``; None: the kernel's language set by
:func:`use_language`, else English), checked when it is made (:class:`~musteach.rules.errors.LanguageError`, a
``MusError`` naming the value, for a language the tutor does not speak). The widget is built, and every handler
runs, inside :func:`musteach.i18n.speaking` of that language, so every sentence :mod:`musteach` writes for it
comes out in that language; two widgets of one kernel may speak two languages.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence
from html import escape as _html_escape
from typing import TYPE_CHECKING, Any, TypeVar, cast

import ipywidgets as widgets

from musteach.i18n import SOURCE_LANG, check_lang, speaking, translator
from musteach.teach import labels
from musteach.teach.wording import for_learner

__all__ = [
    "FRIENDLY_ERROR",
    "QUIZ_CSS",
    "THEME_CSS",
    "VBox",
    "Guarded",
    "Spoken",
    "css_widget",
    "escape",
    "feedback_html",
    "html_box",
    "kernel_language",
    "quiz_nav",
    "spoken",
    "use_language",
    "when_sent",
]

_log = logging.getLogger("musteach_widgets")

if TYPE_CHECKING:  # ipywidgets has no type hints: the base of every root widget, as the widgets use it

    class VBox:
        """:class:`ipywidgets.VBox` as mypy sees it."""

        children: tuple[Any, ...]
        layout: Any

        def __init__(self, children: Sequence[Any] = (), **kwargs: Any) -> None: ...

        def add_class(self, className: str) -> Any: ...

        def remove_class(self, className: str) -> Any: ...

        def __getattr__(self, name: str) -> Any: ...

else:
    VBox = widgets.VBox


def escape(text: Any, quote: bool = True) -> str:
    """HTML-escape text for a learner's screen, without the core's "(RULES.md §…)" citations."""
    return _html_escape(for_learner(str(text)), quote)

#: What a learner sees when a handler fails: no traceback, and the score is kept (an English msgid: show it
#: with ``translator()(FRIENDLY_ERROR)``).
FRIENDLY_ERROR = labels.FRIENDLY_ERROR

# ----------------------------------------------------------------------------------------------
# The language of a widget
# ----------------------------------------------------------------------------------------------

_KERNEL_LANG: str | None = None  # a kernel is one visitor: its default is nobody else's


def use_language(lang: str | None) -> str:
    """Make ``lang`` (``"es"``) the language of every widget made afterwards in this kernel without a ``lang``
    of its own; None goes back to English. Returns the checked code.

    A kernel serves one visitor (one Voilà page, one JupyterLab notebook), so this default is not shared
    between visitors; widgets made before keep their language. Raises
    :class:`~musteach.rules.errors.LanguageError` naming a language the tutor does not speak.
    """
    global _KERNEL_LANG
    _KERNEL_LANG = None if lang is None else check_lang(lang)
    return _KERNEL_LANG or SOURCE_LANG


def kernel_language() -> str:
    """The language of widgets made now without a ``lang``: :func:`use_language`'s, else English."""
    return _KERNEL_LANG or SOURCE_LANG


_F = TypeVar("_F", bound=Callable[..., Any])


def spoken(method: _F) -> _F:
    """Run a public method of a widget inside ``speaking(self.lang)`` (its sentences in the widget's language)."""

    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        with speaking(getattr(self, "lang", None)):
            return method(self, *args, **kwargs)

    return cast(_F, run)  # functools.wraps keeps the method's signature


class Spoken:
    """Mixin: the widget's language. Every subclass's ``__init__`` takes a keyword ``lang`` (``"es"``; None:
    :func:`kernel_language`), checks it (:class:`~musteach.rules.errors.LanguageError` for a language the tutor
    does not speak), keeps it in :attr:`lang` and runs inside ``speaking(lang)``.

    A subclass's ``__init__`` calling its base's runs in the language already chosen.
    """

    lang: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None or getattr(init, "_musteach_spoken", False):
            return

        @functools.wraps(init)
        def __init__(self: Any, *args: Any, lang: str | None = None, **kw: Any) -> None:
            if lang is not None or "lang" not in self.__dict__:
                self.__dict__["lang"] = check_lang(lang) if lang is not None else kernel_language()
            with speaking(self.__dict__["lang"]):
                init(self, *args, **kw)

        setattr(__init__, "_musteach_spoken", True)  # noqa: B010  # a function's own mark, which mypy cannot type
        cls.__init__ = __init__  # type: ignore[method-assign]  # the class's own __init__, wrapped to run in its language

#: Styles for every musteach widget, scoped to their root classes.
QUIZ_CSS = """
.musteach-quiz, .musteach-dealview {
  --mt-ink: #1f2a24; --mt-muted: #5f6b64; --mt-felt: #2b7a4b; --mt-paper: #fffdf6; --mt-edge: #d8d2c2;
  color: var(--mt-ink); font-family: "DejaVu Sans", Verdana, Arial, sans-serif;
}
.musteach-quiz {
  border: 1px solid var(--mt-edge); border-top: 6px solid var(--mt-felt); border-radius: 12px;
  background: var(--mt-paper); padding: 12px 18px 14px; margin: 8px 0; max-width: 780px;
  box-shadow: 0 2px 6px rgba(0, 0, 0, .07);
}
.musteach-quiz .widget-html, .musteach-quiz .widget-html-content,
.musteach-dealview .widget-html, .musteach-dealview .widget-html-content {
  height: auto; line-height: 1.45; white-space: normal; width: 100%;
}
.musteach-quiz svg, .musteach-dealview svg { max-width: 100%; height: auto; }
.musteach-quiz .musteach-title .widget-html-content { font-size: 1.2em; font-weight: 700; }
.musteach-quiz .musteach-progress .widget-html-content { color: var(--mt-muted); font-size: .9em; }
.musteach-quiz .musteach-prompt .widget-html-content { font-size: 1.08em; font-weight: 600; margin: 4px 0; }
.musteach-quiz .musteach-answers { flex-wrap: wrap; gap: 6px; margin: 8px 0; }
.musteach-quiz .musteach-answers .widget-button { min-width: 92px; border-radius: 8px; font-weight: 600; }
.musteach-quiz .widget-button:focus-visible, .musteach-dealview .widget-toggle-button:focus-visible {
  outline: 3px solid #1565c0; outline-offset: 2px;
}
.musteach-quiz .musteach-correct { box-shadow: 0 0 0 3px #2e7d32 inset; }
.musteach-quiz .widget-button.musteach-correct:disabled,
.musteach-quiz .widget-button.musteach-chosen:disabled { opacity: 1; }
.musteach-dealview {
  border: 1px solid var(--mt-edge); border-radius: 12px; background: var(--mt-paper);
  padding: 10px 14px; margin: 8px 0; max-width: 780px;
}
.musteach-quiz .musteach-feedback .musteach-verdict { padding: 8px 12px; border-radius: 8px; margin: 6px 0; }
.musteach-quiz .musteach-verdict.musteach-right { background: #e8f5e9; border-left: 5px solid #2e7d32; }
.musteach-quiz .musteach-verdict.musteach-wrong { background: #fff3e0; border-left: 5px solid #e65100; }
.musteach-quiz .musteach-verdict.musteach-hint { background: #e3f2fd; border-left: 5px solid #1565c0; }
.musteach-quiz .musteach-verdict.musteach-oops { background: #f3f3f3; border-left: 5px solid #777; }
.musteach-quiz .musteach-verdict.musteach-done { background: #fffde7; border-left: 5px solid #f9a825; }
.musteach-quiz .musteach-headline { font-weight: 700; margin-right: .4em; }
.musteach-quiz .musteach-nav { align-items: center; gap: 12px; margin-top: 6px; }
.musteach-quiz .musteach-score .widget-html-content { font-weight: 700; color: var(--mt-felt); }
.musteach-quiz .musteach-cards { display: flex; flex-wrap: wrap; gap: 6px; align-items: flex-end; }
.musteach-quiz .musteach-order-label { color: var(--mt-muted); font-size: .9em; }
.musteach-dealview .musteach-explanation { font-size: 1.05em; margin: 6px 0; }
.musteach-dealview .musteach-jugadas { border-collapse: collapse; margin-top: 4px; }
.musteach-dealview .musteach-jugadas td { padding: 2px 10px 2px 0; }
.musteach-dealview .musteach-error { background: #fff3e0; border-left: 5px solid #e65100; padding: 8px 12px; }
"""


#: Colours that hold in every theme, put before each module's styles. Each musteach root paints its own paper
#: and ink together; JupyterLab's themes colour ``.widget-html-content`` and ``.widget-label`` themselves (white
#: in JupyterLab Dark, which vanished on the cream paper), so inside a root they take the root's ink again.
#: Buttons and inputs keep the theme's own pair of ``--jp-…`` colours. On a narrow screen (a phone) a root
#: spends less on padding, and no row pushes the page sideways.
THEME_CSS = """
:is(.musteach-quiz, .musteach-dealview, .musteach-table-widget, .musteach-odds, .musteach-advisor,
    .musteach-senas-catalogue, .musteach-sena-quiz, .musteach-countview, .musteach-bettingview,
    .musteach-scoreboard) :is(.widget-html, .widget-html-content, .widget-label, .widget-label-basic) {
  color: inherit;
}
:is(.musteach-quiz, .musteach-dealview, .musteach-table-widget, .musteach-odds, .musteach-advisor,
    .musteach-senas-catalogue, .musteach-countview, .musteach-bettingview) {
  box-sizing: border-box; max-width: 100%; min-width: 0;
}
:is(.musteach-quiz, .musteach-dealview, .musteach-table-widget, .musteach-odds, .musteach-advisor,
    .musteach-senas-catalogue, .musteach-countview, .musteach-bettingview, .musteach-scoreboard) > .widget-html {
  margin-left: 0; margin-right: 0; max-width: 100%;
}
:is(.musteach-quiz, .musteach-dealview, .musteach-table-widget, .musteach-odds, .musteach-advisor) svg {
  max-width: 100%; height: auto;
}
@media (max-width: 600px) {
  :is(.musteach-quiz, .musteach-dealview, .musteach-table-widget, .musteach-odds, .musteach-advisor,
      .musteach-senas-catalogue, .musteach-countview, .musteach-bettingview) {
    padding-left: 8px !important; padding-right: 8px !important;
  }
  :is(.musteach-quiz, .musteach-table-widget, .musteach-odds, .musteach-advisor, .musteach-countview,
      .musteach-bettingview) :is(.widget-hbox, .widget-box) { flex-wrap: wrap; min-width: 0; max-width: 100%; }
  :is(.musteach-quiz, .musteach-table-widget, .musteach-odds, .musteach-advisor) .widget-vbox > .widget-html {
    margin-left: 0; margin-right: 0;
  }
  :is(.musteach-quiz, .musteach-table-widget, .musteach-advisor) :is(select, .widget-dropdown) { max-width: 100%; }
  /* a finger's target: every button and box at least 44 px high */
  :is(.musteach-quiz, .musteach-table-widget, .musteach-odds, .musteach-advisor, .musteach-countview)
    :is(.widget-button, .widget-toggle-button, select, input) { min-height: 44px; height: auto; }
  :is(.musteach-quiz, .musteach-table-widget, .musteach-odds, .musteach-advisor) :is(.widget-hbox, .widget-vbox) > * {
    max-width: calc(100% - 4px);  /* a widget's own 2 px margins stay inside its row */
  }
  :is(.musteach-quiz, .musteach-table-widget, .musteach-odds, .musteach-advisor) .widget-inline-hbox {
    width: auto; min-width: 0; flex-wrap: wrap; height: auto;  /* a wrapped label and box stay in their row */
  }
  :is(.musteach-quiz, .musteach-table-widget, .musteach-odds, .musteach-advisor) .widget-inline-hbox > * {
    min-width: 0; flex-shrink: 1;
  }
  :is(.musteach-scoreboard, .musteach-countview, .musteach-bettingview) svg { max-width: 100%; height: auto; }
  /* the table (narrow: side seats hold two rows of two) fills the phone's width, so its cards' corner
     indices are at least 11 px even when drawn with small cards */
  :is(.musteach-quiz, .musteach-dealview, .musteach-table-widget, .musteach-countview) svg.musteach-table {
    width: 100%; max-width: 480px; height: auto;
  }
  /* the practice mastery rows: name and meter on one line, the numbers under them */
  .musteach-practice .musteach-skill { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr) 3.2em !important; }
  .musteach-practice .musteach-skill > * { min-width: 0; }
  .musteach-practice .musteach-skill-due { grid-column: 1 / -1 !important; }
  /* the advisor's table: each option wraps onto lines of equal cells, under a header that wraps the same way */
  table.musteach-advice, table.musteach-advice :is(thead, tbody) { display: block; }
  table.musteach-advice tr { display: flex; flex-wrap: wrap; border-bottom: 1px solid #d8d2c2; }
  table.musteach-advice :is(th, td) { flex: 0 0 4.6em; box-sizing: border-box; padding: 3px 4px !important; border: 0 !important; }
  table.musteach-advice :is(th, td).musteach-cards-cell { flex-basis: 100%; }
}
"""


def html_box(cls: str, value: str = "") -> widgets.HTML:
    """A full-width HTML widget carrying the CSS class ``cls`` (a hook for styles and browser tests)."""
    w = widgets.HTML(value, layout=widgets.Layout(width="100%"))
    w.add_class(cls)
    return w


def quiz_nav(on_next: Callable[..., Any], on_restart: Callable[..., Any]) -> tuple[widgets.HTML, widgets.Button, widgets.Button, widgets.HBox]:
    """The row under every quiz: the running score, "Next" (disabled until an answer) and "Start again"
    (hidden until the run ends). ``on_next`` / ``on_restart`` are click handlers, already guarded.

    Returns ``(score, next_button, restart_button, row)``.
    """
    score = html_box("musteach-score")
    score.layout.width = "auto"
    _ = translator()
    next_button = widgets.Button(description=_(labels.NEXT), tooltip=_(labels.NEXT_TIP), disabled=True)
    next_button.add_class("musteach-next")
    restart_button = widgets.Button(description=_(labels.START_AGAIN), tooltip=_(labels.START_AGAIN_TIP))
    restart_button.add_class("musteach-restart")
    restart_button.layout.display = "none"
    next_button.on_click(on_next)
    restart_button.on_click(on_restart)
    row = widgets.HBox([score, next_button, restart_button])
    row.add_class("musteach-nav")
    return score, next_button, restart_button, row


def css_widget(css: str = QUIZ_CSS) -> widgets.HTML:
    """An HTML widget holding a scoped ``<style>`` (put it first among a root's children); ``css`` defaults
    to the styles every quiz shares, and a module passes its own extra styles."""
    w = widgets.HTML(f"<style>{THEME_CSS}{css}</style>", layout=widgets.Layout(height="0px", margin="0"))
    w.add_class("musteach-style")
    return w


def feedback_html(kind: str, headline: str, reasons: str | Sequence[str] = ()) -> str:
    """The one feedback renderer: a coloured block with a bold headline and the (escaped) reasons, one
    sentence inline, several as a numbered list of steps.

    kind: "right", "wrong", "retry" (a wrong first answer with one more try: classes ``musteach-wrong
    musteach-retry``), "hint", "oops" or "done" (the end of a run: class ``musteach-finished``).
    """
    steps = [reasons] if isinstance(reasons, str) else list(reasons)
    steps = [s for s in steps if s]
    body = f'<span class="musteach-headline">{escape(headline)}</span>'
    if len(steps) == 1:
        body += f' <span class="musteach-explanation">{escape(steps[0])}</span>'
    elif steps:
        items = "".join(f"<li>{escape(s)}</li>" for s in steps)
        body += f'<ol class="musteach-steps musteach-explanation">{items}</ol>'
    cls = {"done": "musteach-done musteach-finished", "retry": "musteach-wrong musteach-retry"}.get(kind, f"musteach-{kind}")
    return f'<div class="musteach-verdict {cls}" role="status" aria-live="polite">{body}</div>'


def when_sent(callback: Callable[[], Any], *, after: float = 0.0) -> None:
    """Run ``callback`` once the current click's messages are out: in a kernel, on its event loop after the
    handler returns (the verdict reaches the page first, and work the learner does not wait for follows, such
    as saving the progress), ``after`` seconds later (0: at once); elsewhere (tests, scripts, no running loop)
    at once."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        callback()
        return
    if after > 0:
        loop.call_later(after, callback)
    else:
        loop.call_soon(callback)


class Guarded(Spoken):
    """Mixin: :meth:`_guard` wraps a handler so that it runs in the widget's language (:class:`Spoken`) and an
    exception is recorded in ``self.errors`` and shown kindly.

    Subclasses define :meth:`_show_oops` (what to show after a failure).
    """

    errors: list[BaseException]

    def _guard(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                with speaking(getattr(self, "lang", None)):
                    return fn(*args, **kwargs)
            except Exception as exc:
                self.errors.append(exc)
                _log.warning("musteach widget handler %s failed", getattr(fn, "__name__", fn), exc_info=True)
                try:
                    with speaking(getattr(self, "lang", None)):
                        self._show_oops()
                except Exception as exc2:  # the error display itself failed: record it, show nothing worse
                    self.errors.append(exc2)
                return None

        return run

    def _show_oops(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError
