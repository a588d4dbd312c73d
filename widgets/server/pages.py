"""The server's own plain pages (no kernel), as HTML strings from musteach's words
(:mod:`musteach.teach.pages`): the index of the lessons, "busy", "not found", a page with one POST form, and
the language a request is answered in (:func:`request_lang`).

Moved out of :mod:`musteach_server.app` (issue 24 item 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import unquote

from jupyter_server.utils import url_path_join

from musteach.i18n import SOURCE_LANG
from musteach.teach.pages import (
    PageText,
    busy_page,
    index_page,
    language_link,
    lesson_link,
    not_found_page,
)

from .lessons import Lesson, lang_of, preferred_language

__all__ = [
    "LANG_COOKIE",
    "RETRY_AFTER_SECONDS",
    "busy_html",
    "form_page",
    "index_html",
    "index_url",
    "not_found_html",
    "request_lang",
    "text_page",
]

#: Seconds after which the busy page asks the browser to try again (``Retry-After`` and a meta refresh).
RETRY_AFTER_SECONDS = 20


_PAGE_CSS = """
body { margin: 0; font-family: "DejaVu Sans", Verdana, Arial, sans-serif; color: #1f2a24; background: #fbfaf5; }
main { max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
h1 { color: #2b7a4b; }
ul.musteach-lessons { list-style: none; padding-left: 0; } ul.musteach-lessons li { margin: .4rem 0; font-size: 1.1rem; }
a { color: #1565c0; } .musteach-note { color: #5f6b64; font-size: .95rem; }
p.musteach-join { background: #e8f3ec; border-left: 5px solid #2b7a4b; border-radius: 6px; padding: .5rem .8rem; }
p.musteach-join a { font-weight: 700; }
"""


#: The cookie that remembers the language a visitor last chose (a lesson or an index in that language): ``/``
#: then opens the index in it, before the browser's ``Accept-Language`` is asked.
LANG_COOKIE = "musteach_lang"


def _lesson_url(base_url: str, lesson: Lesson) -> str:
    return url_path_join(base_url, "voila", "render", lesson.path)


def index_url(base_url: str, lang: str) -> str:
    """The index of the lessons in ``lang``: ``/`` in English (the English index is also at ``/en/``),
    ``/es/`` in Spanish."""
    return base_url if lang == SOURCE_LANG else url_path_join(base_url, lang) + "/"


def _page(title: str, body: str, *, lang: str = SOURCE_LANG, refresh: int | None = None) -> str:
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(lang)}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">{meta}'
        f"<title>{escape(title)}</title><style>{_PAGE_CSS}</style></head>"
        f"<body><main>{body}</main></body></html>\n"
    )


def text_page(text: PageText, *, lang: str = SOURCE_LANG, back: str | None = None, refresh: int | None = None) -> str:
    """A plain page of the server from musteach's words (:mod:`musteach.teach.pages`): its heading, its
    paragraphs, and the link back to the lessons (to ``back``) when it has one."""
    body = f"<h1>{escape(text.heading, quote=False)}</h1>"
    body += "".join(f"<p>{escape(p, quote=False)}</p>" for p in text.paragraphs)
    if text.link and back is not None:
        body += f'<p class="musteach-note"><a href="{escape(back)}">{escape(text.link, quote=False)}</a></p>'
    return _page(text.title, body, lang=lang, refresh=refresh)


def _language_links(base_url: str, lang: str, languages: Sequence[str]) -> str:
    links = []
    for code in languages:
        if code == lang:
            continue
        link = language_link(code, lang)
        href = index_url(base_url, code) if code != SOURCE_LANG else url_path_join(base_url, SOURCE_LANG) + "/"
        links.append(f'<a href="{escape(href)}" hreflang="{escape(code)}" lang="{escape(code)}" '
                     f'title="{escape(link.index_tooltip)}">{escape(link.name, quote=False)}</a>')
    return f'<p class="musteach-languages">{" ".join(links)}</p>' if links else ""


def index_html(lessons: list[Lesson], base_url: str, lang: str = SOURCE_LANG,
               languages: Sequence[str] = (SOURCE_LANG,)) -> str:
    """The index in ``lang``: the lessons of that language in order, each a link to its Voilà page, numbered by
    its file name ("Lesson 11: Practice" for ``11-practice.ipynb``, whatever its place in the list), a link
    to the index in each other language of ``languages``, and above the lessons a link to ``join/``, where a
    learner joins a class with its code (class mode: :mod:`musteach_server.classes.routes`)."""
    text = index_page(lang)
    join = (f'<p class="musteach-join"><a href="{escape(url_path_join(base_url, "join") + "/")}">'
            f"{escape(text.link or '', quote=False)}</a></p>")
    items = "".join(
        f'<li><a href="{escape(_lesson_url(base_url, ls))}">{escape(lesson_link(ls.number, ls.label, lang), quote=False)}'
        "</a></li>"
        for ls in lessons
    )
    intro = "".join(f"<p>{escape(p, quote=False)}</p>" for p in text.paragraphs)
    return _page(
        text.title,
        f"{_language_links(base_url, lang, languages)}<h1>{escape(text.heading, quote=False)}</h1>{intro}{join}"
        f'<ul class="musteach-lessons">{items}</ul>',
        lang=lang,
    )


def busy_html(base_url: str, max_kernels: int, lang: str = SOURCE_LANG) -> str:
    """The page a visitor gets when every place is taken."""
    return text_page(busy_page(max_kernels, RETRY_AFTER_SECONDS, lang), lang=lang, back=index_url(base_url, lang),
                     refresh=RETRY_AFTER_SECONDS)


def not_found_html(base_url: str, lang: str = SOURCE_LANG) -> str:
    """The page a visitor gets for an address that is not a lesson, a picture or the index (HTTP 404)."""
    return text_page(not_found_page(lang), lang=lang, back=index_url(base_url, lang))


def request_lang(request: Any, languages: Sequence[str], base_url: str = "/") -> str:
    """The language to answer a request in: the language folder of a lesson or index address
    (``/voila/render/es/...``, ``/es/``); English for any other lesson address; else the visitor's
    :data:`LANG_COOKIE`, else their browser's ``Accept-Language``, among the ``languages`` served."""
    path = unquote(request.path)[len(base_url.rstrip("/")) :].lstrip("/")
    for prefix in ("voila/render/", "voila/files/"):
        if path.startswith(prefix):
            return lang_of(path[len(prefix) :], languages)
    first = path.partition("/")[0]
    if first in languages:
        return first
    morsel = request.cookies.get(LANG_COOKIE)
    if morsel is not None and morsel.value in languages:
        return str(morsel.value)
    return preferred_language(request.headers.get("Accept-Language"), languages)


def form_page(text: PageText, action: str, button: str, xsrf_html: str, *, lang: str = SOURCE_LANG) -> str:
    """A plain page whose one action is a POST form (``action``, a ``button``, the xsrf field ``xsrf_html``)."""
    body = f"<h1>{escape(text.heading, quote=False)}</h1>"
    body += "".join(f"<p>{escape(p, quote=False)}</p>" for p in text.paragraphs)
    body += (f'<form method="post" action="{escape(action)}">{xsrf_html}'
             f'<p><button type="submit">{escape(button, quote=False)}</button></p></form>')
    return _page(text.title, body, lang=lang)
