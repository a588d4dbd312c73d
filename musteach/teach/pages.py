"""The words of the tutor's own web pages (``musteach serve``): the index, the lesson bar, the error pages.

Pure Python, no Jupyter import: :mod:`musteach_server` lays these words out as HTML and never writes a sentence
of its own. Every sentence goes through the catalogs of the ``pages`` domain (see :mod:`musteach.i18n`); each
function takes ``lang`` (a code such as ``"es"``; None: the language being spoken now, see
:func:`~musteach.i18n.speaking`) and raises :class:`~musteach.rules.errors.LanguageError` for a language the
tutor does not speak.

Lesson names (``"03-grande-chica"``) are ids shared by every language: only their titles are translated, so
progress and stars kept under a lesson's name hold in every language.

>>> print(busy_page(40, 20).paragraphs[0])
All 40 places are taken right now. Please try again shortly: this page tries again by itself in 20 seconds.
>>> busy_page(1, 20, lang="es").heading
'El tutor está ocupado'
>>> lesson_link(3, "Grande and Chica")
'Lesson 3: Grande and Chica'
>>> language_name("es"), language_name("en", lang="es")
('Español', 'inglés')
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_, SOURCE_LANG, check_lang, speaking, translator

__all__ = [
    "BACK_TO_THE_LESSONS",
    "AdmissionWords",
    "BarWords",
    "CELL_ERROR_NOTE",
    "LanguageLink",
    "PageText",
    "SiteWords",
    "admission_page",
    "bad_admission_page",
    "busy_page",
    "class_full_page",
    "cookies_needed_page",
    "index_page",
    "language_link",
    "language_name",
    "leave_page",
    "left_page",
    "lesson_bar",
    "lesson_heading",
    "lesson_link",
    "lesson_title",
    "not_found_page",
    "open_yourself_page",
    "static_site_words",
    "too_many_open_page",
    "too_many_opening_page",
]

#: The link from an error page back to the index of the lessons.
BACK_TO_THE_LESSONS = N_("Back to the lessons")

#: What a lesson page shows in place of a cell that failed (never its traceback).
CELL_ERROR_NOTE = N_(
    "This part of the lesson could not be shown; the rest of the page works. (Tell the person running the tutor.)"
)


@dataclass(frozen=True, slots=True)
class PageText:
    """The words of one plain page of the server.

    title: the browser tab's title. heading: the page's one heading. paragraphs: whole sentences, one paragraph
    each (a paragraph may hold two sentences). link: the text of the link back to the lessons (None: no link).
    """

    title: str
    heading: str
    paragraphs: tuple[str, ...]
    link: str | None = None


@dataclass(frozen=True, slots=True)
class BarWords:
    """The words of the lesson bar and of the scripts on every lesson page.

    lessons: the bar's name for screen readers and its menu button on a phone. skip: the link that skips to
    the first quiz. ended: what a page says when its kernel is gone for good. reload: the button under it.
    lost: what it says when the server cannot be reached (stopped or restarted, or the network gone). limit:
    what it says when its kernel was stopped for using more memory or widgets than a page may. cold: what a
    page that waits for a kernel started for it says, ``{n}`` standing for the seconds it expects to wait.
    """

    lessons: str
    skip: str
    ended: str
    reload: str
    cell_error: str
    lost: str
    limit: str
    cold: str


@dataclass(frozen=True, slots=True)
class AdmissionWords:
    """The words of a class link's page (``/musteach/admit``): ``page`` (its title, heading and paragraph) and
    ``join``, the button that takes the place."""

    page: PageText
    join: str


@dataclass(frozen=True, slots=True)
class SiteWords:
    """The words of the static site's lesson pages (``musteach site``), where Python runs in the browser.

    loading: what a lesson page says until its cells have run (the first visit downloads Python).
    """

    loading: str


@dataclass(frozen=True, slots=True)
class LanguageLink:
    """A link to the tutor in another language, as a page in one language shows it.

    code: the other language (``"es"``). name: its name as it writes it (``"Español"``: the link's text).
    lesson_tooltip: "The same lesson in Spanish", in the page's language. index_tooltip: "The lessons in
    Spanish", the same for the index.
    """

    code: str
    name: str
    lesson_tooltip: str
    index_tooltip: str


def language_name(code: str, lang: str | None = None) -> str:
    """The name of the language ``code`` as ``lang`` writes it (None: as the language itself writes it, with a
    capital, for a link to it: ``"Español"``, ``"English"``; otherwise as a noun in a sentence: ``"Spanish"``,
    ``"inglés"``). From babel's locale data. Raises LanguageError for a language the tutor does not speak."""
    from babel import Locale  # here: babel's locale data costs memory a lesson may not need

    code = check_lang(code)
    if lang is None:
        own = str(Locale.parse(code).get_display_name(code))
        return own[:1].upper() + own[1:]
    return str(Locale.parse(code).get_display_name(check_lang(lang)))


def lesson_title(name: str, lang: str | None = None) -> str | None:
    """The title of the learning path's lesson ``name`` (``"03-grande-chica"``) in ``lang``, or None when the
    path has no such lesson or no translation of its title in ``lang`` (the notebook's own heading is then
    used). English gives the path's title as it is. It is the one wording of a lesson's title: the lesson bar
    and index of ``musteach serve``, the learning path, and the lessons' headings and links
    (:func:`lesson_heading`; ``python -m musteach.locale.lessons --check`` reports a lesson worded otherwise)."""
    from .path import LESSONS  # here: the path imports the scheduler, which the pages need only for titles

    _ = translator(lang)
    for lesson in LESSONS:
        if lesson.name == name:
            with speaking("en"):
                english = lesson.title
            title = _(english)
            return title if title != english or _.lang == SOURCE_LANG else None
    return None


def lesson_link(number: int, title: str, lang: str | None = None) -> str:
    """A lesson as the index lists it: ``"Lesson 3: Grande and Chica"`` (number: the two digits of its file
    name, as an int; title: its title in ``lang``)."""
    _ = translator(lang)
    return _("Lesson {number}: {title}", number=number, title=title)


def lesson_heading(name: str, lang: str | None = None) -> str | None:
    """The heading of the learning path's lesson ``name`` (``"03-grande-chica"``) in ``lang``, as its notebook
    shows it and as the lesson before it links to it: ``"Lesson 3: Grande and Chica"`` (:func:`lesson_link` of
    its title), the welcome page (lesson 0) by its title alone. None when :func:`lesson_title` has none.

    >>> lesson_heading("03-grande-chica"), lesson_heading("03-grande-chica", "es"), lesson_heading("00-welcome")
    ('Lesson 3: Grande and Chica', 'Lección 3: La grande y la chica', 'Welcome to Mus')
    """
    title = lesson_title(name, lang)
    if title is None:
        return None
    number = int(name[:2])
    return title if number == 0 else lesson_link(number, title, lang)


def index_page(lang: str | None = None) -> PageText:
    """The index (``/``): its title and the sentence above the list of lessons (the list is made of
    :func:`lesson_link`); ``link``: the text of its link to ``/join/``, where a learner joins a class with the
    code their teacher read out (:func:`musteach_server.classes.routes`)."""
    _ = translator(lang)
    return PageText(
        title=_("musteach: lessons"),
        heading="musteach",
        paragraphs=(_("Learn Mus, the Spanish and Basque card game, one lesson at a time."),),
        link=_("In a class? Join it with the code your teacher gave you"),
    )


def busy_page(places: int, retry_seconds: int, lang: str | None = None) -> PageText:
    """What a visitor reads when every place is taken (HTTP 503). places: the server's ``--max-kernels``;
    retry_seconds: when the page tries again by itself."""
    _ = translator(lang)
    taken = _.ngettext("The only place is taken right now.", "All {n} places are taken right now.", places)
    again = _.ngettext(
        "Please try again shortly: this page tries again by itself in {n} second.",
        "Please try again shortly: this page tries again by itself in {n} seconds.",
        retry_seconds,
    )
    return PageText(_("musteach: busy, try again shortly"), _("The tutor is busy"), (f"{taken} {again}",),
                    _(BACK_TO_THE_LESSONS))


def not_found_page(lang: str | None = None) -> PageText:
    """What a visitor reads at an address that is not a lesson, a picture or the index (HTTP 404)."""
    _ = translator(lang)
    return PageText(_("musteach: page not found"), _("Page not found"),
                    (_("There is no lesson or page at this address."),), _(BACK_TO_THE_LESSONS))


def open_yourself_page(lang: str | None = None) -> PageText:
    """What a lesson address says when another site embeds it (no kernel is started for that, HTTP 403)."""
    _ = translator(lang)
    return PageText(_("musteach: open the lesson yourself"), _("Open the lesson yourself"),
                    (_("Lessons open only as pages of their own."),), _("The lessons"))


def too_many_opening_page(retry_seconds: int, lang: str | None = None) -> PageText:
    """What a visitor reads when their network opens too many lesson pages at once (HTTP 429)."""
    _ = translator(lang)
    again = _.ngettext("Try again in {n} second.", "Try again in {n} seconds.", retry_seconds)
    opening = _("Too many lesson pages are being opened from your network.")
    return PageText(_("musteach: too many pages opening"), _("Too many lessons opening"), (f"{opening} {again}",))


def too_many_open_page(retry_seconds: int, lang: str | None = None) -> PageText:
    """What a visitor reads when their network holds too many lesson pages open (HTTP 429)."""
    _ = translator(lang)
    again = _.ngettext("Close one, or try again in {n} second.", "Close one, or try again in {n} seconds.",
                       retry_seconds)
    held = _("Too many lesson pages are open from your network.")
    return PageText(_("musteach: too many pages open"), _("Too many lessons open"), (f"{held} {again}",))


def cookies_needed_page(lang: str | None = None) -> PageText:
    """What a visitor whose browser keeps no cookie reads (HTTP 403)."""
    _ = translator(lang)
    tied = _("Each visitor's lesson is tied to a session cookie.")
    allow = _("Allow cookies for this site, then open the lesson again.")
    return PageText(_("musteach: cookies needed"), _("This tutor needs a cookie"), (f"{tied} {allow}",))


def left_page(lang: str | None = None) -> PageText:
    """What ``/logout`` says: the visitor's session is forgotten; their progress stays in the browser."""
    _ = translator(lang)
    return PageText(_("musteach: you have left"), _("You have left the tutor"),
                    (_("Your progress is kept in this browser: open a lesson to go on."),), _(BACK_TO_THE_LESSONS))


def leave_page(lang: str | None = None) -> PageText:
    """What ``GET /logout`` shows: a button that leaves (only a POST with the page's token leaves)."""
    _ = translator(lang)
    return PageText(_("musteach: leave the tutor"), _("Leave the tutor"),
                    (_("Leaving ends your lessons on this server; your progress stays in this browser."),),
                    _("Leave"))


def class_full_page(name: str, places: int, lang: str | None = None) -> PageText:
    """What a visitor with a class link reads when every place of that class is taken (HTTP 429). name: the
    class; places: its places."""
    _ = translator(lang)
    full = _.ngettext("The only place of the class {name} is taken.",
                      "All {n} places of the class {name} are taken.", places, name=name)
    then = _("Close a lesson open elsewhere, or ask your teacher.")
    return PageText(_("musteach: the class is full"), _("The class is full"), (f"{full} {then}",),
                    _(BACK_TO_THE_LESSONS))


def admission_page(name: str, places: int, lang: str | None = None) -> AdmissionWords:
    """What a class link (``/musteach/admit``) shows before the visitor joins. name: the class; places: its
    places."""
    _ = translator(lang)
    text = _.ngettext("This link gives you a place in the class {name} ({n} place).",
                      "This link gives you a place in the class {name} ({n} places).", places, name=name)
    return AdmissionWords(PageText(_("musteach: join the class"), _("Join the class"), (text,)), _("Join"))


def bad_admission_page(lang: str | None = None) -> PageText:
    """What a class link that is not valid, or has expired, says (HTTP 403)."""
    _ = translator(lang)
    return PageText(_("musteach: class link not valid"), _("This class link is not valid"),
                    (_("It has expired or was copied wrong: ask your teacher for a new one."),),
                    _(BACK_TO_THE_LESSONS))


def lesson_bar(lang: str | None = None) -> BarWords:
    """The words of the lesson bar and the lesson pages' scripts in ``lang``."""
    _ = translator(lang)
    return BarWords(
        lessons=_("Lessons"),
        skip=_("Skip to the first quiz"),
        ended=_("This session ended: reload to go on. (Your progress is kept in this browser.)"),
        reload=_("Reload"),
        cell_error=_(CELL_ERROR_NOTE),
        lost=_("The tutor cannot be reached: reload to go on. (Your progress is kept in this browser.)"),
        limit=_("This lesson was stopped: it used more memory or widgets than a page may. Reload to start it again."),
        cold=_("Starting this lesson for you: about {n} seconds."),
    )


def language_link(code: str, lang: str | None = None) -> LanguageLink:
    """The link to the language ``code`` on a page in ``lang``.

    >>> language_link("es", lang="en").lesson_tooltip
    'The same lesson in Spanish'
    """
    _ = translator(lang)
    other = language_name(code, _.lang)
    return LanguageLink(
        code=check_lang(code),
        name=language_name(code),
        lesson_tooltip=_("The same lesson in {language}", language=other),
        index_tooltip=_("The lessons in {language}", language=other),
    )


def static_site_words(lang: str | None = None) -> SiteWords:
    """The words of the static site's lesson pages in ``lang``."""
    _ = translator(lang)
    return SiteWords(
        loading=_("Python is starting in your browser: the quizzes appear in a few seconds (the first visit "
                  "downloads about 30 MB, later visits are faster)."),
    )
