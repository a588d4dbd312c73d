"""``/voila/render/<lesson>.ipynb``: Voilà's page handler behind the gate (:class:`LessonHandler`): one routing
rule for every spelling of a lesson path, the visitor's session cookie, the admission decision, then a
preheated or new kernel seated for the page.

Moved out of :mod:`musteach_server.app` (issue 24 item 4).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any
from urllib.parse import urlencode

import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_server.utils import url_path_join
from voila.tornado.handler import TornadoVoilaHandler

from musteach.i18n import SOURCE_LANG
from musteach.teach.pages import (
    PageText,
    class_full_page,
    cookies_needed_page,
    open_yourself_page,
    too_many_open_page,
    too_many_opening_page,
)

from .admission import AdmissionToken, Decision
from .classes.routes import seat_learner
from .cookies import COOKIE_PROBE, admission_token_of, session_of
from .gate import KernelGate
from .guard import SESSION_COOKIE, client_address, fetch_refusal, is_https, new_session_id, session_cookie_name
from .kernel_manager import SeatingKernelManager
from .lessons import lang_of
from .options import count, short_id
from .page_handlers import NotFoundPage
from .pages import LANG_COOKIE, RETRY_AFTER_SECONDS, busy_html, index_url, text_page
from .routing import RequestKind, lesson_request
from .voila_config import COLD_WAIT

#: How long a page waits for the kernels its visitor gives up to stop (seconds): a kernel slow to stop (its
#: process stuck in a shutdown) then finishes stopping in the background while the page opens.
STOP_WAIT = 5.0

__all__ = ["LessonHandler"]

log = logging.getLogger("musteach.serve")

class LessonHandler(NotFoundPage, TornadoVoilaHandler):  # type: ignore[misc]  # Voilà has no types: Any
    """``/voila/render/<lesson>.ipynb``: Voilà's page handler behind the :class:`KernelGate`."""

    _seated: str | None = None
    _preheated = False

    _session: str | None = None
    _address = ""
    _admitted = False
    _claim: str | None = None
    _renew: str | None = None  # the visitor's kernel whose page has gone, set aside to be renewed for this page
    _renew_taken: str | None = None
    _lesson = ""
    _token: AdmissionToken | None = None
    _lang = SOURCE_LANG

    @property
    def gate(self) -> KernelGate:
        """The server's :class:`KernelGate` (from the application's settings)."""
        return self.musteach.gate

    @property
    def kernel_manager(self) -> Any:
        return SeatingKernelManager(self.musteach.kernel_manager, self._on_kernel, self._unclaim,
                                    self._take_renewable)

    def _take_renewable(self) -> str | None:
        """The visitor's kernel set aside for this page (its last page gone), once."""
        kernel_id, self._renew = self._renew, None
        self._renew_taken = kernel_id
        return kernel_id

    def on_finish(self) -> None:
        """A kernel set aside for this page and never taken (the page was refused, or took a pool kernel) is
        stopped. One taken for renewal is not: Voilà may finish the request before the page's kernel is seated,
        and stopping it then left the page on a dead kernel (a fresh-clone run); a renewal that failed leaves
        a kernel whose page has gone, which the page grace releases."""
        left = self._renew
        self._renew = self._renew_taken = None
        if left is not None:
            self.musteach.kernel_manager.stop_soon(left)
        super().on_finish()

    def _unclaim(self) -> None:
        """End the page's claim on a pool kernel (:meth:`KernelGate.unclaim`), once."""
        claim, self._claim = self._claim, None
        self.gate.unclaim(claim)

    def _on_kernel(self, kernel_id: str, *, preheated: bool) -> None:
        gate = self.gate
        if not self._admitted or self._session is None:  # never: every kernel a page gets was admitted first
            log.warning("kernel %s was given to a page without a place: it is stopped", short_id(kernel_id))
            self.musteach.kernel_manager.stop_soon(kernel_id, now=False)
            raise tornado.web.HTTPError(404)
        self._admitted = False
        gate.seat(kernel_id, self._lesson)
        gate.sessions.bind(kernel_id, self._session, self._address)
        if kernel_id == self._renew_taken:
            gate.sessions.mark_renewed(kernel_id)
        gate.admission.bind(kernel_id, self._session, self._address, self._token)
        self._seated, self._preheated = kernel_id, preheated
        seat_learner(self, kernel_id)  # classes: the kernel's records go to the page's learner

    def _plain(self, status: int, text: PageText, *, retry: int | None = None) -> None:
        self.set_status(status)
        if retry:
            self.set_header("Retry-After", str(retry))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", self._lang)
        self.set_header("Cache-Control", "no-store")
        self.finish(text_page(text, lang=self._lang, back=index_url(self.base_url, self._lang), refresh=retry))

    async def get(self, path: str | None = None) -> None:
        """The lesson page of ``path``: refused (403, 429 or 503 with a page saying why), or rendered by Voilà on
        a preheated kernel or one started for it, once the visitor has a session and a place."""
        # one rule for every spelling of a lesson path (musteach_server.routing): a served lesson's exact path,
        # a picture (Voilà's /voila/files/ and its allowlist decide), or the same 404 for anything else
        route = lesson_request(path, self.musteach.served)
        if route.kind is RequestKind.FILE:
            self.redirect(url_path_join(self.base_url, "voila", "files", route.path))
            return
        if route.kind is not RequestKind.LESSON or not (self.musteach.lessons_dir / route.path).is_file():
            raise tornado.web.HTTPError(404)  # no kernel, no session: the not-found page
        path = self._lesson = route.path
        self._lang = lang_of(path, self.musteach.languages)
        why = fetch_refusal(dict(self.request.headers))
        if why:
            log.warning("refused %s for %s: no kernel is started for %s", path, self._who(), why)
            self._plain(403, open_yourself_page(self._lang))
            return
        if not self._visitor_session() or self._refused(path):
            return
        await self._release_old_kernels(path)
        self._claim = self.gate.pool_key(path)  # admit() claims that pool's kernel for this page
        if not await self.gate.admit(path):
            log.warning("busy: refused a visitor to %s (%d of %d places taken)", path, self.gate.total(),
                        self.gate.max_kernels)
            self._busy()
            return
        self._admitted = True
        arrive = self.settings.get("musteach_arrive")
        if arrive is not None:
            arrive(path)
        await self._render(path)

    def _refused(self, path: str) -> bool:
        """Whether the visitor gets no place for ``path`` (the refusal is answered and logged here): too many of
        their address's pages still opening, their address's or class's places all taken, or the places left
        reserved for classes."""
        gate, sessions, session = self.gate, self.gate.sessions, self._session
        assert session is not None  # _visitor_session() found it
        self._token = token = self._admission_token()
        if token is None and sessions.too_many_waiting(self._address):
            log.warning("refused %s: %s already holds %d kernels whose page has not connected", path, self._who(),
                        sessions.waiting_per_address)
            self._plain(429, too_many_opening_page(RETRY_AFTER_SECONDS, self._lang), retry=RETRY_AFTER_SECONDS)
            return True
        decision = gate.admission.decide(session, self._address, token, gate.total(), sessions.to_release(session))
        if decision is Decision.ADDRESS_FULL:
            log.warning("refused %s: %s already holds %d kernels", path, self._who(), gate.admission.per_address)
            self._plain(429, too_many_open_page(RETRY_AFTER_SECONDS, self._lang), retry=RETRY_AFTER_SECONDS)
            return True
        if decision is Decision.CLASS_FULL:
            assert token is not None  # only a class's token has a class
            log.warning("refused %s: every place of the class %r is taken (%d)", path, token.name, token.places)
            self._plain(429, class_full_page(token.name, token.places, self._lang), retry=RETRY_AFTER_SECONDS)
            return True
        if decision is Decision.RESERVED:
            log.warning("busy: refused an anonymous visitor to %s (%d of %d places taken, %d reserved for classes)",
                        path, gate.total(), gate.max_kernels, gate.admission.reserved())
            self._busy()
            return True
        return False

    async def _release_old_kernels(self, path: str) -> None:
        """Stop the kernels the visitor's session gives up for ``path``'s page: its oldest beyond
        ``--per-session``, and those whose page has gone, except one of these set aside to be renewed for this
        page when ``path`` has no preheated kernel (a class moving on: same session, a fresh namespace)."""
        gate, sessions = self.gate, self.gate.sessions
        assert self._session is not None  # _visitor_session() found it
        km = self.musteach.kernel_manager
        renewable = None
        if gate.pool_key(path) is None and hasattr(km, "renew"):
            renewable = next((k for k in sessions.to_release(self._session) if k in sessions.gone and k in km), None)
        for old in sessions.to_release(self._session):
            if old == renewable:
                continue
            if old in sessions.gone:
                log.info("a visitor opened another lesson: kernel %s, whose page has gone, is released", short_id(old))
            else:
                log.info("a visitor opened more than %d lessons: their oldest kernel %s is released",
                         sessions.per_session, short_id(old))
            stopping = asyncio.ensure_future(ensure_async(km.shutdown_kernel(old, now=True)))
            stopping.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved: logged by the manager
            try:
                await asyncio.wait_for(asyncio.shield(stopping), STOP_WAIT)
            except TimeoutError:
                log.warning("kernel %s is slow to stop: the page opens meanwhile", short_id(old))
            except Exception:  # gone meanwhile
                sessions.release(old)
        if renewable is not None:
            gate.set_aside(renewable)  # counted again by admit()
            self._renew = renewable

    async def _render(self, path: str) -> None:
        """Voilà's page of the admitted ``path``; then the kernel it got is the page's (or its place is given
        back), and one log line says how long the page took."""
        gate = self.gate
        # the visitor may not pick a template or theme (that would also bypass the preheated kernels)
        for name in ("template", "theme"):
            self.request.arguments.pop(name, None)
            self.request.query_arguments.pop(name, None)
        # the page's "beforeunload" beacon posts this cookie back to /voila/api/shutdown/<kernel>, so that
        # closing the tab frees the place at once (Voilà's own page never sets it: its beacon gets a 403)
        self.xsrf_token  # noqa: B018 - reading it sets the _xsrf cookie
        # the index (/) opens in the language of the lesson the visitor read last
        self.set_cookie(LANG_COOKIE, self._lang, samesite="Lax", path=self.base_url, expires_days=365)
        self.set_header("Content-Language", self._lang)
        start = time.monotonic()
        cold = gate.pools() is not None and self._claim is None and self._renew is None
        marker = COLD_WAIT.set(max(1, round(gate.cold_seconds)) if cold else None)
        try:
            rendering = super().get(path)  # Voilà's page (typed as tornado's get: an awaitable or None)
            if rendering is not None:
                await rendering
        finally:
            COLD_WAIT.reset(marker)
            self._unclaim()  # a page that got no pool kernel (Voilà started one, or an error)
            if self._admitted:  # admitted, and no kernel came
                self._admitted = False
                gate.abandon()
            if self._seated is not None:
                self._opened(path, start)

    def _opened(self, path: str, start: float) -> None:
        """The page of ``path`` was sent with its kernel (requested at ``start``, ``time.monotonic()``)."""
        gate, seated = self.gate, self._seated
        assert seated is not None
        gate.sessions.page_sent(seated)
        if not self._preheated:
            gate.cold_seconds = 0.7 * gate.cold_seconds + 0.3 * (time.monotonic() - start)
        follow = self.settings.get("musteach_follow")
        if follow is not None:
            follow(path)
        log.info("page %s opened: kernel %s (%s), %s, %d of %d places taken by visitors, %.2f s", path,
                 short_id(seated), "preheated" if self._preheated else "started for it", count(gate.total(), "kernel"),
                 gate.in_use(), gate.max_kernels, time.monotonic() - start)

    def _busy(self) -> None:
        gate = self.gate
        self.set_status(503)
        self.set_header("Retry-After", str(RETRY_AFTER_SECONDS))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Language", self._lang)
        self.finish(busy_html(self.base_url, gate.max_kernels, self._lang))

    def _admission_token(self) -> AdmissionToken | None:
        """The admission token the visitor brought (its cookie), verified; None without one, or for a token
        that is not valid (the visitor is then anonymous)."""
        return admission_token_of(self.request, self.musteach.secret)

    def _who(self) -> str:
        return self._address or client_address(self.request.remote_ip or "", self.request.headers.get(
            "X-Forwarded-For"), self.musteach.trusted)

    def _visitor_session(self) -> bool:
        """The visitor's session (from its signed cookie), or a first visit that sets one and comes back
        (a redirect to the same address; no kernel is started for a client that keeps no cookie)."""
        trusted = self.musteach.trusted
        self._address = client_address(self.request.remote_ip or "", self.request.headers.get("X-Forwarded-For"),
                                       trusted)
        session = session_of(self.request, self.musteach.secret, trusted)
        tried = self.get_query_argument(COOKIE_PROBE, None) is not None
        clean_args = [(k, v) for k, vs in self.request.query_arguments.items() if k != COOKIE_PROBE
                      for v in (x.decode("utf-8", "replace") for x in vs)]
        here = self.request.path + ("?" + urlencode(clean_args) if clean_args else "")
        if session is not None:
            self._session = session
            if tried:  # back from the first visit: the address without the probe
                self.redirect(here, status=303)
                return False
            return True
        if tried:
            log.warning("refused %s for %s: no session cookie came back", self.request.path, self._address)
            self._plain(403, cookies_needed_page(self._lang))
            return False
        https = is_https(self.request.protocol, self.request.remote_ip or "",
                         self.request.headers.get("X-Forwarded-Proto"), trusted)
        name = session_cookie_name(https)
        signed = tornado.web.create_signed_value(self.musteach.secret, SESSION_COOKIE, new_session_id())
        # over TLS a __Host- cookie (Secure, path /, no Domain): no other port or subdomain can plant it
        self.set_cookie(name, signed.decode("ascii"), httponly=True, samesite="Lax", secure=https,
                        path="/" if https else self.base_url)
        sep = "&" if clean_args else "?"
        self.redirect(here + f"{sep}{COOKIE_PROBE}=1", status=303)
        return False
