"""The class routes of ``musteach serve`` (tornado handlers), and the few hooks the server app calls.

Teacher (signed ``musteach_teacher`` cookie, set by their secret link ``/teach/login/<key>``, after their
password when they have one):

* ``/teach/`` their classes, and a form opening a new one (``POST /teach/classes``);
* ``/teach/class/<id>`` the dashboard; ``…/practice`` (POST) the class's practice skill; ``…/csv`` the export;
  ``…/learner/<id>`` a learner's mistakes in order. Another teacher's class answers 404, as one that does not exist.

Learner (``musteach_class`` cookie: a random key of their own, apart from the session cookie the proxy routes
by, kept a year):

* ``/join/<key>`` (the join link) or ``/join/`` (type the short code): a display name, and they are in;
* ``/class/`` which class they are in; ``POST /class/leave`` leaves it and deletes their records.

Kernels (never a page): ``POST /musteach/api/record`` files one record, authenticated by the kernel's key
(``X-Musteach-Kernel``); ``GET /musteach/api/practice`` the practice skill of the kernel's class. Both refuse
any request that a browser could have made (``Origin``, ``Sec-Fetch-*``, ``Cookie`` or ``Referer`` headers),
any that came through a proxy (``X-Forwarded-For``), and any from another machine.

Forms carry tornado's XSRF token. Names are shown only on the teacher's pages of their own classes.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import tornado.web
from tornado.ioloop import IOLoop, PeriodicCallback

from musteach.i18n import SOURCE_LANG
from musteach.rules.errors import MusError
from musteach.teach.classes import words

from . import dashboard as html
from .db import ClassInfo, ClassStore, NotYours
from .records import MAX_RECORD_BYTES
from .service import ClassService, Outcome

__all__ = [
    "CLASS_COOKIE",
    "KERNEL_HEADER",
    "TEACHER_COOKIE",
    "class_handlers",
    "install_classes",
    "issue_class_admission",
    "kernel_env",
    "kernel_started",
    "seat_learner",
    "start_flusher",
]

log = logging.getLogger("musteach.serve")

#: The learner's class cookie (a random key; the database keeps its digest).
CLASS_COOKIE = "musteach_class"
#: The teacher's signed cookie (their id).
TEACHER_COOKIE = "musteach_teacher"
#: The header a kernel proves itself with.
KERNEL_HEADER = "X-Musteach-Kernel"
#: Days a learner's class cookie and a teacher's cookie are kept.
CLASS_COOKIE_DAYS = 365
TEACHER_COOKIE_DAYS = 30
#: Seconds between two tries at writing the records queued while the database was unavailable.
FLUSH_SECONDS = 2.0
#: Starts the CSV export: without it a spreadsheet reads the UTF-8 file in its own code page (Iñaki as IÃ±aki).
CSV_BOM = "\ufeff"
#: The largest body the record route reads (twice a record's most, so that a record a little too big is still
#: answered with why); a bigger one is refused as it arrives.
MAX_BODY_BYTES = 2 * MAX_RECORD_BYTES
#: Headers only a browser sends: a request carrying one never reaches the kernel routes.
BROWSER_HEADERS = ("Origin", "Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest", "Cookie", "Referer")

_T = TypeVar("_T")


def install_classes(app: Any, database: str | None) -> ClassService:
    """Open the class database (migrated) and give the server its class service: ``app`` is the Voilà
    application (its kernel manager starts kernels with a key, forgets a kernel that stops). Returns the
    service, which goes in the tornado settings as ``musteach_classes``. Raises MusError for a bad database."""
    store = ClassStore.open(database)
    host = str(getattr(app, "ip", "127.0.0.1") or "127.0.0.1")
    if host in ("0.0.0.0", "::", "localhost", ""):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    base = str(getattr(app, "base_url", "/") or "/")
    service = ClassService(store, f"http://{host}:{getattr(app, 'port', 8866)}{base}musteach/api/record")
    km = getattr(app, "kernel_manager", None)
    if km is not None:
        km.musteach_classes = service
        stopped = getattr(km, "on_stopped", None)
        if isinstance(stopped, list):
            stopped.append(service.kernel_stopped)
    start_flusher(service)
    return service


def start_flusher(service: ClassService, every: float = FLUSH_SECONDS) -> PeriodicCallback:
    """Every ``every`` seconds, write the records queued while the database was unavailable (on a worker
    thread), so that they reach it even when no new record comes. Call it on the server's event loop."""
    flusher = PeriodicCallback(lambda: _flush_soon(service), every * 1000)
    flusher.start()
    return flusher


_EXECUTOR = ThreadPoolExecutor(max_workers=max(2, min(8, (os.cpu_count() or 2) * 2)), thread_name_prefix="classes")


def _flush_soon(service: ClassService) -> None:
    if service.queue:
        IOLoop.current().run_in_executor(_EXECUTOR, service.flush)


async def _db(fn: Callable[..., _T], *args: Any) -> _T:
    """Run a database call on a worker thread (the event loop keeps serving pages and clicks)."""
    return await asyncio.get_running_loop().run_in_executor(_EXECUTOR, fn, *args)


def kernel_env(kernel_manager: Any, kwargs: dict[str, Any]) -> str | None:
    """Called as a kernel starts: put a fresh kernel key (and the record route's address) in its environment
    (``kwargs["env"]``). Returns the key (None: the server has no classes)."""
    service: ClassService | None = getattr(kernel_manager, "musteach_classes", None)
    if service is None:
        return None
    key, kwargs["env"] = service.kernel_env(kwargs.get("env"))
    return key


def kernel_started(kernel_manager: Any, key: str | None, kernel_id: str) -> None:
    """Called once the kernel started with ``key`` has its id."""
    service: ClassService | None = getattr(kernel_manager, "musteach_classes", None)
    if service is not None and key is not None:
        service.kernel_started(key, kernel_id)


def seat_learner(handler: tornado.web.RequestHandler, kernel_id: str) -> None:
    """Called when a lesson page is handed its kernel: the kernel's records go to the learner of the page's
    class cookie (none: to nobody)."""
    service: ClassService | None = handler.settings.get("musteach_classes")
    if service is not None:
        service.seat(kernel_id, handler.get_cookie(CLASS_COOKIE))


#: The places a class link reserves on one instance (a class of 40 behind one school address: one quota for the
#: whole class, not one per learner; reserved only while the class is in use, see admission.RESERVE_IDLE), and
#: how long the admission it gives lasts (a school day; joining again gives a new one).
CLASS_PLACES = 40
CLASS_ADMISSION_HOURS = 12.0


def issue_class_admission(handler: tornado.web.RequestHandler, klass: ClassInfo) -> None:
    """The one place a class link admits its learner under the class's quota (issue 26, item 5): a signed
    admission token (:func:`musteach_server.admission.issue_token`) for :data:`CLASS_PLACES` places named after
    the class, kept in the admission cookie, so the class's learners are seated under its own quota even when
    they share one school address. Does nothing on a server without a cookie secret (tests of the routes alone)."""
    import hashlib
    import hmac
    from datetime import UTC, datetime

    from ..admission import ADMIT_COOKIE, issue_token
    from ..guard import is_https

    secret = handler.settings.get("musteach_secret")
    if not isinstance(secret, bytes) or len(secret) < 16:
        return
    # one quota for the class, whoever joins: every learner's token names the same id (derived from the
    # secret and the class, so that a class's id says nothing to another server's host)
    quota = hmac.new(secret, f"musteach-class-quota:{klass.id}".encode(), hashlib.sha256).hexdigest()[:16]
    token = issue_token(secret, f"class {klass.id}: {klass.name}"[:80], CLASS_PLACES, CLASS_ADMISSION_HOURS,
                        token_id=quota)
    expires = datetime.now(UTC).timestamp() + CLASS_ADMISSION_HOURS * 3600
    https = is_https(handler.request.protocol, handler.request.remote_ip or "",
                     handler.request.headers.get("X-Forwarded-Proto"), handler.settings.get("musteach_trusted", frozenset()))
    base = handler.settings.get("base_url", "/") or "/"
    handler.set_cookie(ADMIT_COOKIE, token, httponly=True, samesite="Lax", secure=https, path=base,
                       expires=datetime.fromtimestamp(expires, UTC))


# ----- pages -----------------------------------------------------------------------------------------------


class _ClassPage(tornado.web.RequestHandler):
    """A class page: its language, the service, the teacher signed in, plain HTML answers."""

    @property
    def service(self) -> ClassService:
        service: ClassService | None = self.settings.get("musteach_classes")
        if service is None:
            raise tornado.web.HTTPError(404)
        return service

    @property
    def store(self) -> ClassStore:
        return self.service.store

    @property
    def base(self) -> str:
        base = str(self.settings.get("base_url", "/") or "/")
        return base if base.endswith("/") else base + "/"

    @property
    def lang(self) -> str:
        from ..lessons import preferred_language

        offered = list(self.settings.get("musteach_languages") or (SOURCE_LANG,))
        chosen = self.get_query_argument("lang", None) or self.get_cookie("musteach_lang")
        if chosen in offered:
            return str(chosen)
        return str(preferred_language(self.request.headers.get("Accept-Language"), offered))

    @property
    def secret(self) -> bytes:
        secret: bytes = self.settings["musteach_secret"]
        return secret

    def prepare(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Language", self.lang)
        if self.request.method == "POST":  # every form carries its XSRF token, whatever the server's settings
            self.check_xsrf_cookie()

    def html(self, text: str, status: int = 200) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(text)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        w = words(self.lang)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        teacher_page = self.request.path.startswith(self.base + "teach/")
        message = (w["not_signed_in"] if status_code == 403 else w["not_yours"] if teacher_page else
                   w["no_such_class"])
        self.finish(html.message_page(f"musteach: {status_code}", message, self.lang))

    def teacher_id(self) -> int | None:
        raw = self.get_cookie(TEACHER_COOKIE)
        if not raw:
            return None
        value = tornado.web.decode_signed_value(self.secret, TEACHER_COOKIE, raw, max_age_days=TEACHER_COOKIE_DAYS)
        try:
            return int(value) if value else None
        except ValueError:
            return None

    async def require_teacher(self) -> int:
        tid = self.teacher_id()
        if tid is None or await _db(self.store.teacher, tid) is None:
            raise tornado.web.HTTPError(403)
        return tid

    def https(self) -> bool:
        """Whether the page came over TLS (directly, or through a trusted proxy that says so)."""
        from ..guard import is_https

        return bool(is_https(self.request.protocol, self.request.remote_ip or "",
                             self.request.headers.get("X-Forwarded-Proto"),
                             self.settings.get("musteach_trusted", frozenset())))

    async def teacher_class(self, class_id: str) -> tuple[int, ClassInfo]:
        tid = await self.require_teacher()
        try:
            return tid, await _db(self.store.class_of, tid, int(class_id))
        except NotYours:
            raise tornado.web.HTTPError(404) from None


class TeacherLoginHandler(_ClassPage):
    """``/teach/login/<key>``: the teacher's secret link; asks their password when they have one."""

    async def get(self, key: str) -> None:
        teacher = await _db(self.store.teacher_by_key, key)
        if teacher is None:
            self.html(html.message_page("musteach", words(self.lang)["bad_teacher_link"], self.lang), 403)
        elif teacher.has_password:
            self.html(html.password_page(self.request.path, self.xsrf_form_html(), self.lang))
        else:
            self._sign_in(teacher.id)

    async def post(self, key: str) -> None:
        teacher = await _db(self.store.teacher_by_key, key)
        if teacher is None:
            self.html(html.message_page("musteach", words(self.lang)["bad_teacher_link"], self.lang), 403)
            return
        password = self.get_body_argument("password", "")[:1000]
        if not await _db(self.store.check_password, teacher.id, password):
            log.warning("a wrong password for teacher %d", teacher.id)
            self.html(html.password_page(self.request.path, self.xsrf_form_html(), self.lang, wrong=True), 403)
            return
        self._sign_in(teacher.id)

    def _sign_in(self, teacher_id: int) -> None:
        signed = tornado.web.create_signed_value(self.secret, TEACHER_COOKIE, str(teacher_id))
        self.set_cookie(TEACHER_COOKIE, signed.decode("ascii"), httponly=True, samesite="Lax",
                        secure=self.https(), path=self.base, expires_days=TEACHER_COOKIE_DAYS)
        self.redirect(self.base + "teach/", status=303)


class TeacherHomeHandler(_ClassPage):
    """``/teach/``: the teacher's classes and the form that opens one."""

    async def get(self) -> None:
        tid = await self.require_teacher()
        teacher = await _db(self.store.teacher, tid)
        classes = await _db(self.store.classes_of, tid)
        assert teacher is not None
        self.html(html.classes_page(teacher.name, classes, self.base, self.xsrf_form_html(), self.lang))


class OpenClassHandler(_ClassPage):
    """``POST /teach/classes``: open a class, then its dashboard."""

    async def post(self) -> None:
        tid = await self.require_teacher()
        try:
            klass = await _db(self.store.open_class, tid, self.get_body_argument("name", ""))
        except MusError:  # a blank or too long name: the page again, saying so
            teacher = await _db(self.store.teacher, tid)
            classes = await _db(self.store.classes_of, tid)
            self.html(html.classes_page(teacher.name if teacher else "", classes, self.base, self.xsrf_form_html(),
                                        self.lang, words(self.lang)["bad_class_name"]), 400)
            return
        log.info("teacher %d opened class %d", tid, klass.id)
        self.redirect(f"{self.base}teach/class/{klass.id}", status=303)


class DashboardHandler(_ClassPage):
    """``/teach/class/<id>``: the dashboard."""

    async def get(self, class_id: str) -> None:
        tid, klass = await self.teacher_class(class_id)
        d = await _db(self.store.dashboard, tid, klass.id)
        join = f"{self.request.protocol}://{self.request.host}{self.base}join/{klass.join_key}"
        self.html(html.dashboard_page(d, self.base, join, self.xsrf_form_html(), self.lang))


class PracticeHandler(_ClassPage):
    """``POST /teach/class/<id>/practice``: the skill every learner's practice is pointed at."""

    async def post(self, class_id: str) -> None:
        tid, klass = await self.teacher_class(class_id)
        skill = self.get_body_argument("skill", "") or None
        try:
            await _db(self.store.set_practice, tid, klass.id, skill)
        except MusError:
            raise tornado.web.HTTPError(400) from None
        self.redirect(f"{self.base}teach/class/{klass.id}", status=303)


class CsvHandler(_ClassPage):
    """``/teach/class/<id>/csv``: the dashboard as CSV."""

    async def get(self, class_id: str) -> None:
        tid, klass = await self.teacher_class(class_id)
        d = await _db(self.store.dashboard, tid, klass.id)
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="class-{klass.id}.csv"')
        self.finish(CSV_BOM + html.csv_text(d))


class LearnerHandler(_ClassPage):
    """``/teach/class/<id>/learner/<id>``: one learner's mistakes in order."""

    async def get(self, class_id: str, learner_id: str) -> None:
        tid, klass = await self.teacher_class(class_id)
        try:
            learner = await _db(self.store.learner_of, tid, klass.id, int(learner_id))
            mistakes = await _db(self.store.mistakes_of, tid, klass.id, learner.id)
        except NotYours:
            raise tornado.web.HTTPError(404) from None
        self.html(html.learner_page(klass, learner, mistakes, self.base, self.lang))


class JoinHandler(_ClassPage):
    """``/join/<key>`` or ``/join/`` (with the short code): a learner types a name and is in."""

    async def already_in(self, klass: ClassInfo) -> bool:
        """Whether the visitor's class cookie is a learner of ``klass`` (then they are sent to ``/class/``:
        opening the link again, or sending an old form, never makes a second learner of them)."""
        learner = await _db(self.service.learner, self.get_cookie(CLASS_COOKIE))
        if learner is None or learner.class_id != klass.id:
            return False
        issue_class_admission(self, klass)  # the link still admits them under the class's quota
        self.redirect(self.base + "class/", status=303)
        return True

    async def get(self, key: str | None = None) -> None:
        klass = await _db(self.store.class_to_join, key) if key else None
        if klass is not None and await self.already_in(klass):
            return
        if key and klass is None:
            self.html(html.join_page(None, self.base + "join/", self.xsrf_form_html(), self.lang,
                                     words(self.lang)["no_such_class"]), 404)
            return
        self.html(html.join_page(klass, self.request.path, self.xsrf_form_html(), self.lang))

    async def post(self, key: str | None = None) -> None:
        w = words(self.lang)
        code = key or self.get_body_argument("code", "")[:64]
        klass = await _db(self.store.class_to_join, code) if code else None
        if klass is None:
            self.html(html.join_page(None, self.base + "join/", self.xsrf_form_html(), self.lang, w["no_such_class"]),
                      404)
            return
        if await self.already_in(klass):
            return
        old = self.get_cookie(CLASS_COOKIE)
        try:
            _, secret = await _db(self.store.join, klass.id, self.get_body_argument("name", "")[:200])
        except MusError:
            self.html(html.join_page(klass if key else None, self.request.path, self.xsrf_form_html(), self.lang,
                                     w["bad_name"]), 400)
            return
        if old:
            self.service.forget_learner(old)
        self.set_cookie(CLASS_COOKIE, secret, httponly=True, samesite="Lax", secure=self.https(), path=self.base,
                        expires_days=CLASS_COOKIE_DAYS)
        issue_class_admission(self, klass)
        log.info("a learner joined class %d", klass.id)
        self.redirect(self.base + "class/", status=303)


class LearnerClassHandler(_ClassPage):
    """``/class/``: the class the visitor is in (or a link to join one)."""

    async def get(self) -> None:
        learner = await _db(self.service.learner, self.get_cookie(CLASS_COOKIE))
        w = words(self.lang)
        if learner is None:
            self.html(html.message_page(w["joined_title"], w["not_in_class"], self.lang,
                                        (self.base + "join/", w["join"])))
            return
        klass = await _db(self.store.class_to_join_by_id, learner.class_id)
        self.html(html.joined_page(klass.name if klass else "", learner.name, self.base, self.xsrf_form_html(),
                                   self.lang))


class LeaveHandler(_ClassPage):
    """``POST /class/leave``: the learner leaves their class; their records are deleted."""

    async def post(self) -> None:
        key = self.get_cookie(CLASS_COOKIE)
        learner = await _db(self.service.learner, key)
        w = words(self.lang)
        if learner is not None and key:
            n = await _db(self.store.leave, learner.id)
            self.service.forget_learner(key)
            log.info("a learner left class %d: %d records deleted", learner.class_id, n)
        self.clear_cookie(CLASS_COOKIE, path=self.base)
        self.html(html.message_page(w["joined_title"], w["left"], self.lang, (self.base, w["to_lessons"])))


# ----- the kernels' routes -------------------------------------------------------------------------------


def from_kernel(request: Any, trusted: frozenset[str] = frozenset()) -> bool:
    """Whether a request can only have come from a lesson kernel on this machine: from a loopback address,
    not through a proxy, and with none of the headers a browser sends (:data:`BROWSER_HEADERS`)."""
    headers = request.headers
    if any(h in headers for h in BROWSER_HEADERS) or "X-Forwarded-For" in headers or "Forwarded" in headers:
        return False
    try:
        return ipaddress.ip_address((request.remote_ip or "").split("%")[0]).is_loopback
    except ValueError:
        return False


class _KernelRoute(tornado.web.RequestHandler):
    def check_xsrf_cookie(self) -> None:  # a kernel proves itself with its key, never with a cookie
        pass

    def answer(self, status: int, payload: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Cache-Control", "no-store")
        if status == 204:  # no content
            self.finish()
            return
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(payload))

    def kernel_key(self) -> str | None:
        service = self.settings.get("musteach_classes")
        if service is None or not from_kernel(self.request):
            log.warning("refused a request to %s that did not come from a lesson kernel", self.request.path)
            self.answer(403, {"error": "kernels only"})
            return None
        key = self.request.headers.get(KERNEL_HEADER, "")
        if not key or len(key) > 100:
            self.answer(403, {"error": "no kernel key"})
            return None
        return key


@tornado.web.stream_request_body
class RecordHandler(_KernelRoute):
    """``POST /musteach/api/record``: one record from a lesson kernel (its key in ``X-Musteach-Kernel``). A body
    over :data:`MAX_BODY_BYTES` is refused (400) as it arrives, before the server holds it."""

    def prepare(self) -> None:
        connection = self.request.connection
        if connection is not None and hasattr(connection, "set_max_body_size"):
            connection.set_max_body_size(MAX_BODY_BYTES)
        self.chunks: list[bytes] = []

    def data_received(self, chunk: bytes) -> None:
        self.chunks.append(chunk)

    async def post(self) -> None:
        key = self.kernel_key()
        if key is None:
            return
        service: ClassService = self.settings["musteach_classes"]
        filed = await _db(service.file, key, b"".join(self.chunks))
        if filed.outcome in (Outcome.BAD, Outcome.UNKNOWN_KERNEL):
            log.warning("refused a record: %s", filed.why)
        self.answer(filed.outcome.value, {"outcome": filed.outcome.name.lower(), "why": filed.why})


class KernelPracticeHandler(_KernelRoute):
    """``GET /musteach/api/practice``: the skill the kernel's class practises (``{"skill": null}``: any)."""

    async def get(self) -> None:
        key = self.kernel_key()
        if key is None:
            return
        service: ClassService = self.settings["musteach_classes"]
        self.answer(200, {"skill": await _db(service.practice_for, key)})


def class_handlers(base_url: str = "/") -> list[tuple[str, type[tornado.web.RequestHandler]]]:
    """The class routes under ``base_url``, for ``app.add_handlers``."""
    b = base_url if base_url.endswith("/") else base_url + "/"
    key = r"([A-Za-z0-9_-]{8,64})"
    return [
        (rf"{b}teach/login/{key}", TeacherLoginHandler),
        (rf"{b}teach/?", TeacherHomeHandler),
        (rf"{b}teach/classes", OpenClassHandler),
        (rf"{b}teach/class/([0-9]{{1,9}})", DashboardHandler),
        (rf"{b}teach/class/([0-9]{{1,9}})/practice", PracticeHandler),
        (rf"{b}teach/class/([0-9]{{1,9}})/csv", CsvHandler),
        (rf"{b}teach/class/([0-9]{{1,9}})/learner/([0-9]{{1,9}})", LearnerHandler),
        (rf"{b}join/?", JoinHandler),
        (rf"{b}join/{key}", JoinHandler),
        (rf"{b}join/([A-Za-z0-9]{{6}})/?", JoinHandler),  # the code read out, typed after /join/
        (rf"{b}class/?", LearnerClassHandler),
        (rf"{b}class/leave", LeaveHandler),
        (rf"{b}musteach/api/record", RecordHandler),
        (rf"{b}musteach/api/practice", KernelPracticeHandler),
    ]
