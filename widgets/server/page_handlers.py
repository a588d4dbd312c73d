"""The handlers of the server's plain pages: the index (``/``, ``/es/``), not found, leaving (``/logout``) and
joining a class (``/musteach/admit``).

Moved out of :mod:`musteach_server.app` (issue 24 item 4).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_server.utils import url_path_join

from musteach.i18n import SOURCE_LANG
from musteach.rules.errors import MusError
from musteach.teach.pages import admission_page, bad_admission_page, leave_page, left_page

from .admission import ADMIT_COOKIE, AdmissionToken, verify_token
from .cookies import request_is_https, session_of
from .guard import SESSION_COOKIE, SESSION_COOKIE_TLS, is_https
from .pages import LANG_COOKIE, form_page, index_html, index_url, not_found_html, request_lang, text_page
from .settings import MusteachHandler

__all__ = ["AdmitHandler", "IndexHandler", "LeftHandler", "NotFoundHandler", "NotFoundPage"]

log = logging.getLogger("musteach.serve")


class NotFoundPage(MusteachHandler):
    """A handler base: a 404 answer is :func:`~musteach_server.pages.not_found_html` (a link back to the
    lessons), not Jupyter's page. Put it first in the bases (the lesson page puts it before Voilà's handler)."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code != 404:
            super().write_error(status_code, **kwargs)
            return
        lang = request_lang(self.request, self.musteach.languages, self.base_url)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", lang)
        self.finish(not_found_html(self.base_url, lang))


class NotFoundHandler(NotFoundPage):
    """Any address no other handler serves: 404 with a link to the index (tornado's own page has none)."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    async def prepare(self, *, _redirect_to_login: bool = True) -> None:
        raise tornado.web.HTTPError(404)


class IndexHandler(MusteachHandler):
    """``/``: the list of lessons (no kernel), in the language the visitor chose last (:data:`LANG_COOKIE`) or
    their browser prefers: English here, another language by a redirect to its index (``/es/``), which
    (with ``/en/``) this handler also serves, remembering the choice."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    @tornado.web.authenticated
    def get(self, lang: str | None = None) -> None:
        languages: tuple[str, ...] = self.musteach.languages
        if lang is None:
            self.set_header("Vary", "Accept-Language, Cookie")
            wanted = request_lang(self.request, languages, self.base_url)
            if wanted != SOURCE_LANG:
                self.set_header("Cache-Control", "no-store")
                self.redirect(index_url(self.base_url, wanted), status=302)
                return
            lang = SOURCE_LANG
        else:
            self.set_cookie(LANG_COOKIE, lang, samesite="Lax", path=self.base_url, expires_days=365)
        lessons = self.musteach.lessons(lang)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", lang)
        self.finish(index_html(lessons, self.base_url, lang, languages))


class LeftHandler(MusteachHandler):
    """``/logout`` (Jupyter's own page would show): GET shows a Leave button and changes nothing (a page on
    another site may navigate here); its POST, with the xsrf token, stops the session's kernels, forgets the
    visitor's session cookie and says so, in the visitor's language; their progress stays in their browser."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def get(self) -> None:
        lang = request_lang(self.request, self.musteach.languages, self.base_url)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", lang)
        self.set_header("Cache-Control", "no-store")
        text = leave_page(lang)
        self.finish(form_page(text, url_path_join(self.base_url, "logout"), text.link or "", self.xsrf_form_html(),
                              lang=lang))

    async def post(self) -> None:
        lang = request_lang(self.request, self.musteach.languages, self.base_url)
        gate = self.musteach.gate
        session = session_of(self.request, self.musteach.secret, self.musteach.trusted)
        for kernel_id in gate.sessions.of_session(session) if session else []:
            try:
                await ensure_async(self.musteach.kernel_manager.shutdown_kernel(kernel_id, now=True))
            except Exception:  # gone meanwhile
                gate.stopped(kernel_id)
        self.clear_cookie(SESSION_COOKIE, path=self.base_url)
        if request_is_https(self.request, self.musteach.trusted):
            self.clear_cookie(SESSION_COOKIE_TLS, path="/", secure=True)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", lang)
        self.set_header("Cache-Control", "no-store")
        self.finish(text_page(left_page(lang), lang=lang, back=index_url(self.base_url, lang)))


class AdmitHandler(MusteachHandler):
    """``/musteach/admit?token=...``, a class link (:mod:`musteach_server.admission`): GET shows the class and a
    Join button (nothing changes); its POST (with the xsrf token) keeps the token in the visitor's
    :data:`~musteach_server.admission.ADMIT_COOKIE` and goes to the lessons."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def _token(self) -> AdmissionToken | None:
        try:
            return verify_token(self.musteach.secret, self.get_argument("token", ""))
        except MusError as e:
            log.warning("refused a class link from %s: %s", self.request.remote_ip, e)
            return None

    def _answer(self, status: int, html: str, lang: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", lang)
        self.set_header("Cache-Control", "no-store")
        self.finish(html)

    def get(self) -> None:
        lang = request_lang(self.request, self.musteach.languages, self.base_url)
        token = self._token()
        if token is None:
            self._answer(403, text_page(bad_admission_page(lang), lang=lang, back=index_url(self.base_url, lang)),
                         lang)
            return
        words = admission_page(token.name, token.places, lang)
        self._answer(200, form_page(words.page, self.request.uri or "", words.join, self.xsrf_form_html(), lang=lang),
                     lang)

    def post(self) -> None:
        lang = request_lang(self.request, self.musteach.languages, self.base_url)
        token = self._token()
        if token is None:
            self._answer(403, text_page(bad_admission_page(lang), lang=lang, back=index_url(self.base_url, lang)),
                         lang)
            return
        https = is_https(self.request.protocol, self.request.remote_ip or "",
                         self.request.headers.get("X-Forwarded-Proto"), self.musteach.trusted)
        self.set_cookie(ADMIT_COOKIE, self.get_argument("token"), httponly=True, samesite="Lax", secure=https,
                        path=self.base_url, expires=datetime.fromtimestamp(token.expires, UTC))
        log.info("a visitor joined the class %r (%d places)", token.name, token.places)
        self.redirect(index_url(self.base_url, lang), status=303)
