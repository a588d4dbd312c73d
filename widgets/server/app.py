"""The Voilà application behind ``musteach serve``: the lessons for a whole class on one server.

Voilà runs a kernel for every visitor, so memory and start-up time are what limit a room. This module
configures Voilà 0.5 for that and adds what it lacks:

* **preheated kernels**: ``--pool-size`` kernels per lesson are started and run through the lesson before
  anyone asks (``VoilaConfiguration.preheat_kernel`` / ``default_pool_size``), so a page opens at once;
* **a cap**: at most ``--max-kernels`` kernels at once, preheated ones included (:class:`KernelGate`; the
  pools shrink to fit); beyond it a page request gets a friendly "busy" page, HTTP 503 with ``Retry-After``;
* **sessions** (:mod:`musteach_server.guard`): a kernel answers only to the visitor session whose page
  started it (signed cookie); kernels start only for top-level navigations, a few per session and address;
  a kernel that dies is stopped, not restarted blank, and its page says the session ended;
* **culling**: a visitor's kernel with no activity for ``--cull-idle`` seconds is stopped, even with its tab
  still open (``MappingKernelManager.cull_idle_timeout``, ``cull_connected``); preheated kernels are kept;
* **no code from visitors**: pages may send only the messages ipywidgets needs (:data:`ALLOWED_MESSAGE_TYPES`);
  an ``execute_request`` (or any other) is dropped by the server before it reaches the kernel;
* **no sources**: code cells are stripped, tracebacks hidden (in pages and in kernel messages), only pictures
  and stylesheets can be downloaded from the lessons folder (never ``.ipynb`` or ``.py``), templates and
  themes cannot be chosen by the visitor, websocket messages are limited to :data:`MAX_MESSAGE_BYTES`;
* **a lesson bar**: the ``musteach`` Voilà template (``share/voila/templates/musteach``, extending ``lab``)
  puts "musteach" and the lessons in order at the top of every page; ``/`` lists the lessons;
* **readable logs**: one line per page opened, kernel started or stopped (culled or not), visitor refused
  for lack of room, and message or file refused.
"""

from __future__ import annotations

import asyncio
import contextvars
import hmac
import itertools
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import unquote, unquote_to_bytes, urlencode

import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_server import DEFAULT_STATIC_FILES_PATH
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from jupyter_server.utils import url_path_join
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop, PeriodicCallback
from tornado.netutil import bind_unix_socket
from tornado.websocket import WebSocketProtocol13
from traitlets import default
from traitlets.config import Config
from voila.app import Voila
from voila.paths import collect_static_paths
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from musteach.i18n import SOURCE_LANG
from musteach.rules.errors import MusError
from musteach.teach.pages import (
    CELL_ERROR_NOTE,
    PageText,
    admission_page,
    bad_admission_page,
    busy_page,
    class_full_page,
    cookies_needed_page,
    index_page,
    language_link,
    leave_page,
    left_page,
    lesson_bar,
    lesson_link,
    not_found_page,
    open_yourself_page,
    too_many_open_page,
    too_many_opening_page,
)

from .admission import (
    ADMIT_COOKIE,
    ADMIT_PATH,
    Admission,
    AdmissionToken,
    Decision,
    host_key,
    verify_token,
)
from .classes.routes import class_handlers, install_classes, kernel_env, kernel_started, seat_learner
from .frames import PROTOCOL_V1, frame_refusal
from .gate import PREHEAT_SLOT_TIMEOUT, KernelGate
from .guard import (
    SECURITY_HEADERS,
    SESSION_COOKIE,
    SESSION_COOKIE_TLS,
    KernelRoute,
    SecurityHeaders,
    Sessions,
    client_address,
    fetch_refusal,
    is_https,
    kernel_route,
    new_session_id,
    session_cookie_name,
)
from .jupyter_compat import (
    connections_of,
    kernel_pid,
    open_websocket_connections,
    pools_of,
    set_activity_stream,
    utcnow,
)
from .kernel import lesson_kernel_cmd
from .lessons import Lesson, lang_of, preferred_language
from .limits import DEFAULT_KERNEL_MEMORY_MB, PageLimits, resident_bytes
from .logs import TidyVoilaLog, log_request
from .ownership import CLAIM_PATH, ClaimHandler, session_ids
from .proxies import proxy_check
from .routing import RequestKind, lesson_request
from .templates import share_compiled_templates

__all__ = [
    "ALLOWED_MESSAGE_TYPES",
    "EXTRA_HANDLERS",
    "MAX_MESSAGE_BYTES",
    "RETRY_AFTER_SECONDS",
    "KernelGate",
    "MusteachKernelManager",
    "MusteachVoila",
    "ServeOptions",
    "build_config",
    "serve",
]

#: The folder holding ``voila/templates/musteach`` (put first on ``JUPYTER_PATH``).
SHARE_DIR = Path(__file__).resolve().parent / "share"
TEMPLATE = "musteach"

#: The only kernel messages a page may send: what ipywidgets needs to show widgets and report clicks.
#: Everything else (``execute_request``, ``shutdown_request``, ``debug_request``, ``input_reply``...) is dropped.
ALLOWED_MESSAGE_TYPES = ("comm_open", "comm_msg", "comm_close", "comm_info_request", "kernel_info_request")

#: Largest websocket message (bytes) a page may send. A widget click is about 300 bytes, but a practice
#: learner's saved progress (sent in one message) or a progress file imported through a FileUpload can be
#: much larger.
MAX_MESSAGE_BYTES = 2 * 1024 * 1024

#: A visitor's kernel with no page connected (tab closed, browser gone) is stopped after this many seconds
#: without activity, however long ``--cull-idle`` is.
ORPHAN_IDLE_SECONDS = 120

#: A preheated kernel handed to a visitor is not culled for lack of a connected page during this many
#: seconds after the handover (its page's websocket connects about a second later, more on a slow network);
#: its activity clock is also reset at the handover (it has been idle in the pool since it was started).
HANDOVER_GRACE_SECONDS = 120

#: Pool kernels started (and running their lesson) at once: starting a kernel and running a lesson takes
#: about a second of CPU, which the visitors' clicks need more.
PREHEAT_CONCURRENCY = max(1, (os.cpu_count() or 2) // 2)
#: ... and when no page is connected (the server starting, an empty room).
PREHEAT_CONCURRENCY_IDLE = max(1, os.cpu_count() or 2)
#: Pool kernels also wait while a page loads (its kernel handed over or started less than this many seconds
#: ago, or its websocket not yet connected): refilling a pool costs about a second of CPU, which a page
#: that is loading needs more (issue 16: the slowest page loads came while a pool refilled).
PAGE_SETTLE_SECONDS = 3.0
#: ... but never longer than this after the page's request (a page that never connects holds nothing up).
PAGE_LOAD_LIMIT_SECONDS = 15.0

#: Seconds after which the busy page asks the browser to try again (``Retry-After`` and a meta refresh).
RETRY_AFTER_SECONDS = 20

#: Files of the lessons folder that may be downloaded (pictures and stylesheets a lesson links to).
FILE_ALLOWLIST = [r".*\.(png|jpe?g|gif|svg|webp|css)"]
#: Never downloaded, even if allowed above: notebooks, Python sources, hidden files and folders.
FILE_DENYLIST = [r".*\.(ipynb|py|pyc)", r"(.*/)?\..*"]

log = logging.getLogger("musteach.serve")

#: Seconds a page whose kernel is started for it (no preheated one) is expected to wait, set while such a
#: page is rendered (the page says it: ``musteachColdSeconds``); None for a preheated page.
_COLD_WAIT: contextvars.ContextVar[int | None] = contextvars.ContextVar("musteach_cold_wait", default=None)

#: Routes other packages add to the server (class mode's pages...): ``(pattern, handler class[, kwargs])``,
#: the pattern relative to the base URL (``r"/musteach/class/(.*)"``). Appended before ``serve()`` runs.
EXTRA_HANDLERS: list[tuple[Any, ...]] = []


@dataclass(frozen=True)
class ServeOptions:
    """What ``musteach serve`` was asked for. ``lessons``: the lessons of ``lessons_dir`` in order (English);
    ``translations``: the same lessons in other languages (language -> lessons of ``lessons_dir/<language>``);
    ``cull_idle`` in seconds (0: never); ``pool_size`` kernels per lesson and language (0: no preheating),
    except for the lessons in ``pools`` (lesson path -> kernels)."""

    lessons_dir: Path
    lessons: list[Lesson] = field(default_factory=list)
    translations: dict[str, list[Lesson]] = field(default_factory=dict)
    host: str = "127.0.0.1"
    port: int = 8866
    max_kernels: int = 40
    cull_idle: int = 900
    pool_size: int = 1
    pools: dict[str, int] = field(default_factory=dict)
    per_session: int = 3
    per_address: int | None = None
    waiting_per_address: int = 4
    connect_timeout: int = 25
    trusted_proxies: frozenset[str] = frozenset()
    secret: bytes | None = None
    base_url: str = "/"
    database: str | None = None  # classes: a SQLAlchemy URL (None: SQLite in the user's data folder)
    kernel_memory: int = DEFAULT_KERNEL_MEMORY_MB
    page_grace: int = 10
    socket: str | None = None

    @property
    def trusted(self) -> frozenset[str]:
        """The proxies whose ``X-Forwarded-*`` headers are believed: ``trusted_proxies``, and on a Unix socket
        its peer (tornado names it ``0.0.0.0``), which only the proxy can be."""
        return self.trusted_proxies | ({"0.0.0.0/32"} if self.socket else set())

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages served: English (``lessons``), then those of ``translations``."""
        return (SOURCE_LANG, *self.translations)

    def anonymous_per_address(self) -> int:
        """Most kernels one address holds without an admission token: ``per_address``, or by default (None)
        half the places (one client cannot take every place; a class behind one address brings a token); no
        limit (0) on a server of fewer than 4 places (a tutor for one or two).

        >>> ServeOptions(Path("."), max_kernels=40).anonymous_per_address(), ServeOptions(Path("."), max_kernels=2).anonymous_per_address()
        (20, 0)
        """
        if self.per_address is not None:
            return self.per_address
        return (self.max_kernels + 1) // 2 if self.max_kernels >= 4 else 0

    def lessons_in(self, lang: str) -> list[Lesson]:
        """The lessons of one language (none for a language not served)."""
        return self.lessons if lang == SOURCE_LANG else self.translations.get(lang, [])

    def all_lessons(self) -> list[Lesson]:
        """Every lesson served, English first, then each other language's."""
        return [*self.lessons, *(ls for lessons in self.translations.values() for ls in lessons)]

    def pool_for(self, lesson_path: str) -> int:
        """Kernels asked to be preheated for a lesson."""
        return self.pools.get(lesson_path, self.pool_size)

    def fitted_pools(self) -> dict[str, int]:
        """Kernels preheated per lesson, shrunk so that all the pools together fit under ``max_kernels``: the
        lessons named by ``--pool`` first, then one kernel a lesson in order, then the rest in order.

        >>> from .lessons import Lesson
        >>> ls = [Lesson.from_heading(f"0{i}-x.ipynb", None) for i in range(4)]
        >>> ServeOptions(Path("."), ls, max_kernels=5, pools={"03-x.ipynb": 4}).fitted_pools()
        {'00-x.ipynb': 1, '01-x.ipynb': 0, '02-x.ipynb': 0, '03-x.ipynb': 4}
        """
        room = self.max_kernels
        every = self.all_lessons()
        fitted = {ls.path: 0 for ls in every}
        for path, n in self.pools.items():
            fitted[path] = min(n, room)
            room -= fitted[path]
        for rounds in (1, None):
            for ls in every:
                if ls.path in self.pools:
                    continue
                wanted = self.pool_size if rounds is None else min(1, self.pool_size)
                add = min(max(0, wanted - fitted[ls.path]), room)
                fitted[ls.path] += add
                room -= add
        return fitted


def count(n: int, noun: str) -> str:
    """``n`` with ``noun``, plural when ``n`` is not 1: ``count(1, "kernel")`` is ``'1 kernel'``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def pools_summary(o: ServeOptions) -> str:
    """What the start-up log says of preheating: the kernels each lesson gets (after the pools shrank to fit
    under ``--max-kernels``), and how the pools shrank.

    >>> from .lessons import Lesson
    >>> ls = [Lesson.from_heading(f"0{i}-x.ipynb", None) for i in range(1, 4)]
    >>> print(pools_summary(ServeOptions(Path("."), ls, max_kernels=3, pools={"03-x.ipynb": 5})))
    3 kernels preheated: 3 for 03-x.ipynb; none for 01-x.ipynb, 02-x.ipynb (asked: 1 kernel per lesson, 5 for 03-x.ipynb, 7 in all; shrunk to fit under --max-kernels 3)
    >>> print(pools_summary(ServeOptions(Path("."), ls, pool_size=1)))
    3 kernels preheated: 1 for 01-x.ipynb, 1 for 02-x.ipynb, 1 for 03-x.ipynb
    >>> print(pools_summary(ServeOptions(Path("."), ls, pool_size=0)))
    no kernel preheated (kernels start when a page is opened)
    """
    fitted = o.fitted_pools()
    asked = {ls.path: o.pool_for(ls.path) for ls in o.all_lessons()}
    total = sum(fitted.values())
    if not sum(asked.values()):
        return "no kernel preheated (kernels start when a page is opened)"
    got = [f"{n} for {path}" for path, n in fitted.items() if n]
    none = [path for path, n in fitted.items() if not n]
    text = f"{count(total, 'kernel')} preheated: " + ", ".join(got)
    if none:
        text += "; none for " + ", ".join(none)
    if fitted != asked:
        wanted = f"{count(o.pool_size, 'kernel')} per lesson" + "".join(
            f", {n} for {path}" for path, n in o.pools.items())
        text += (f" (asked: {wanted}, {sum(asked.values())} in all; shrunk to fit under --max-kernels "
                 f"{o.max_kernels})")
    return text


def _short(kernel_id: str) -> str:
    return kernel_id[:8]


# ----- kernels ----------------------------------------------------------------------------------


# What a lesson page says under a cell that failed is CELL_ERROR_NOTE (Voilà's own text would tell the visitor to
# run it with --debug), from musteach.teach.pages, in English; the ``musteach`` template shows it in the page's
# language (BarWords.cell_error).

#: What a page gets instead of a kernel error's traceback.
TRACEBACK_REPLACEMENT = "Something went wrong in this lesson's kernel; the details are not shown."


class VisitorKernelManager(ServerKernelManager):
    """One kernel. Carries the traceback replacement where jupyter_server's websocket connection looks for it
    (``kernel_manager.traceback_replacement_message``: without it, hiding a traceback raises AttributeError
    and the page stops receiving messages)."""

    traceback_replacement_message = TRACEBACK_REPLACEMENT

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        """The kernel's command line, started as a lesson kernel (:mod:`musteach_server.kernel`: no debugger,
        no input history, a smaller and quicker kernel)."""
        return lesson_kernel_cmd(super().format_kernel_cmd(extra_arguments))

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        # the kernel's own stderr (ipykernel's tracebacks of a comm message a page made fail) is not the
        # server's log: a page could otherwise write tracebacks into it at will
        kw.setdefault("stderr", subprocess.DEVNULL)
        await super()._async_launch_kernel(kernel_cmd, **kw)


class VisitorConnection(ZMQChannelsWebsocketConnection):
    """The websocket between a page and its kernel, minus the kernel's stderr (tracebacks of failed comm
    handlers and warnings are written there, and a page never shows them: the cells were run server-side),
    and dropping malformed frames with a log line instead of a traceback."""

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        # the frame's head is checked before jupyter_server parses it (musteach_server.frames: jupyter_server's
        # services/kernels/connection/base.py loops over the frame's own, untrusted, part count)
        why = frame_refusal(self.subprotocol, incoming_msg)
        if why is not None:
            log.warning("refused a page's websocket frame (%s)", why)
            return
        km = self.multi_kernel_manager
        limits: PageLimits | None = getattr(km, "page_limits", None)
        if limits is not None and _msg_type(self.subprotocol, incoming_msg) == "comm_open":
            over = limits.widget_opened(self.kernel_id, len(incoming_msg))
            if over is not None:
                km.stop_for_limit(self.kernel_id, over)
                return
        try:
            super().handle_incoming_message(incoming_msg)
        except Exception:  # a frame no page would send: drop it, keep the socket (and the log) clean
            self.log.warning("refused a malformed message from a page")

    def handle_outgoing_message(self, stream: Any, outgoing_msg: list[Any]) -> None:
        channel = stream if isinstance(stream, str) else getattr(stream, "channel", None)
        if channel == "iopub":
            try:
                _, parts = self.session.feed_identities(outgoing_msg)
                header = self.session.unpack(parts[1])
                if header.get("msg_type") == "stream" and self.session.unpack(parts[4]).get("name") == "stderr":
                    return
            except Exception:  # not a message we can read: let jupyter_server deal with it
                pass
        super().handle_outgoing_message(stream, outgoing_msg)


def _msg_type(subprotocol: str | None, frame: str | bytes) -> str | None:
    """The ``msg_type`` of a page's frame whose head :func:`~musteach_server.frames.frame_refusal` passed, read
    from its header only (None when it cannot be read)."""
    try:
        if subprotocol == PROTOCOL_V1 and isinstance(frame, bytes):
            start = int.from_bytes(frame[16:24], "little")
            end = int.from_bytes(frame[24:32], "little")
            header = json.loads(frame[start:end])
        elif isinstance(frame, bytes):
            start, end = int.from_bytes(frame[4:8], "big"), int.from_bytes(frame[8:12], "big")
            header = json.loads(frame[start:end]).get("header", {})
        else:
            header = json.loads(frame).get("header", {})
        kind = header.get("msg_type") if isinstance(header, dict) else None
        return kind if isinstance(kind, str) else None
    except (ValueError, AttributeError, UnicodeDecodeError):
        return None


class _SizeLoggingProtocol(WebSocketProtocol13):
    """Tornado's websocket protocol, logging the size of a message it refuses for being too big (tornado
    closes the socket with code 1009 and says nothing). The size is read from the frame's length field,
    the last bytes read before tornado's check."""

    _last_read = b""

    async def _read_bytes(self, n: int) -> bytes:
        data = await super()._read_bytes(n)
        self._last_read = data
        return data

    def close(self, code: int | None = None, reason: str | None = None) -> None:
        if code == 1009 and not getattr(self, "_musteach_logged", False):
            self._musteach_logged = True
            size = None
            last = self._last_read
            if len(last) in (2, 8) and "decompression" not in (reason or ""):
                size = int.from_bytes(last, "big") + len(self._fragmented_message_buffer or b"")
            what = f"of {size:,} bytes" if size else "too big"
            log.warning("refused a page's websocket message %s (the limit is %s bytes): its socket is closed",
                        what, f"{self.params.max_message_size:,}")
        super().close(code, reason)


class VisitorWebsocketHandler(VoilaKernelWebsocketHandler):
    """Voilà's kernel websocket handler, with :class:`_SizeLoggingProtocol`; tells the sessions that the
    kernel's page connected (it no longer waits: :meth:`~musteach_server.guard.Sessions.connected`).

    Its messages go out at once (``TCP_NODELAY``): a click's answer is often a few small messages in a row
    (the echo of a typed total, then the verdict), and with Nagle's algorithm the second one waited for the
    page to acknowledge the first, which a browser delays by about 40 ms (issue 16: half the typed totals'
    verdicts took 45-55 ms instead of 10-15)."""

    async def open(self, kernel_id: str) -> None:  # type: ignore[override]
        gate = self.settings.get("musteach_gate")
        if gate is not None:
            gate.sessions.connected(kernel_id)
        self.set_nodelay(True)
        await super().open(kernel_id)

    def on_close(self) -> None:
        super().on_close()
        gate = self.settings.get("musteach_gate")
        kernel_id = getattr(self, "kernel_id", None)
        if gate is not None and kernel_id:
            gate.sessions.disconnected(kernel_id)  # released unless it comes back within --page-grace

    def get_websocket_protocol(self) -> Any:
        protocol = super().get_websocket_protocol()
        if isinstance(protocol, WebSocketProtocol13):
            protocol.__class__ = _SizeLoggingProtocol
        return protocol


class MusteachKernelManager(AsyncMappingKernelManager):
    """Voilà's kernel manager base (Voilà wraps it with its pool) that

    * starts the pool's kernels :data:`PREHEAT_CONCURRENCY` at a time while pages are connected (one per
      CPU otherwise), each holding its slot until it has run its lesson, and none while a page is loading
      (:meth:`pages_loading`), so that refilling the pools while a class arrives leaves CPU to the visitors'
      pages and clicks (a kernel a visitor waits for starts at once);
    * stops a visitor's kernel with no page connected after :data:`ORPHAN_IDLE_SECONDS` idle;
    * logs one line per kernel started or stopped, saying when it was culled and why.
    """

    _culling: str | None = None
    _preheating = 0  # pool kernels starting or running their lesson

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._releases: set[asyncio.Future] = set()
        self._handed_over: dict[str, float] = {}  # kernel id -> time.monotonic() of its handover to a page
        self._page_loads: dict[str, float] = {}  # kernel id -> time.monotonic() its page was requested
        self._died: set[str] = set()
        #: kernels whose start has been logged and whose stop not yet: the "(N running)" of the log lines (the
        #: kernel manager's own list also holds kernels still starting, started concurrently)
        self._running: set[str] = set()
        #: called with a kernel id once it has stopped (the gate frees its place and its session's claim)
        self.on_stopped: list[Any] = []
        #: what each page made its kernel hold (widgets opened), and the kernels stopped for a limit
        self.page_limits = PageLimits()
        #: resident memory (bytes) a kernel may reach before it is stopped (0: no limit)
        self.memory_limit = DEFAULT_KERNEL_MEMORY_MB * 1024 * 1024

    def stop_for_limit(self, kernel_id: str, why: str) -> None:
        """Stop ``kernel_id`` for going over a limit (``why``); its page then says so."""
        if kernel_id in self.page_limits.limited or kernel_id not in self:
            return
        self.page_limits.stopped_for(kernel_id, why)
        task = asyncio.ensure_future(self.shutdown_kernel(kernel_id, now=True))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    def watch_memory(self) -> None:
        """Stop the visitors' kernels whose resident memory is over :attr:`memory_limit` (pool kernels are the
        server's own: they run the lesson only)."""
        if not self.memory_limit:
            return
        for kernel_id in list(self._running):
            pid = kernel_pid(self._kernels.get(kernel_id))
            rss = resident_bytes(pid) if pid is not None else None
            if rss is not None and rss > self.memory_limit:
                self.stop_for_limit(kernel_id, f"it held {rss // 2**20} MiB (the limit is "
                                               f"{self.memory_limit // 2**20} MiB)")

    def _handle_kernel_died(self, kernel_id: str) -> None:
        """A kernel process died (killed, out of memory): it is not restarted blank (``restart_limit`` 0),
        but shut down at once, which frees its place and closes its page's websocket (the page then says
        the session ended)."""
        if kernel_id not in self or kernel_id in self._died:
            return
        self._died.add(kernel_id)
        task = asyncio.ensure_future(self.shutdown_kernel(kernel_id, now=True))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    def hand_over(self, kernel_id: str) -> None:
        """A preheated kernel was just given to a visitor: it is active from now on (it was idle in the pool),
        and its page has :data:`HANDOVER_GRACE_SECONDS` to connect before the "no page connected" rule applies."""
        kernel = self._kernels.get(kernel_id)
        if kernel is not None:
            kernel.last_activity = utcnow()
        self._handed_over[kernel_id] = self._page_loads[kernel_id] = time.monotonic()

    def pages_loading(self) -> bool:
        """True while a page is loading: its kernel was handed over or started for it less than
        :data:`PAGE_SETTLE_SECONDS` ago, or its websocket has not connected yet (for at most
        :data:`PAGE_LOAD_LIMIT_SECONDS`)."""
        now = time.monotonic()
        loading = False
        for kernel_id, since in list(self._page_loads.items()):
            age = now - since
            if age >= PAGE_LOAD_LIMIT_SECONDS or kernel_id not in self:
                del self._page_loads[kernel_id]
            elif age < PAGE_SETTLE_SECONDS or not connections_of(self).get(kernel_id):
                loading = True
        return loading

    def _in_handover_grace(self, kernel_id: str) -> bool:
        since = self._handed_over.get(kernel_id)
        if since is None:
            return False
        if time.monotonic() - since < HANDOVER_GRACE_SECONDS:
            return True
        del self._handed_over[kernel_id]
        return False

    @default("kernel_manager_class")
    def _default_kernel_manager_class(self) -> str:
        return f"{__name__}.VisitorKernelManager"

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        preheat = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        key = kernel_env(self, kwargs)  # classes: the kernel's key in its environment
        if not preheat:  # a visitor is waiting for it: start at once
            kernel_id = await ensure_async(super().start_kernel(*args, **kwargs))
            kernel_started(self, key, kernel_id)
            self._page_loads[kernel_id] = time.monotonic()
            self._running.add(kernel_id)
            log.info("kernel %s started for a page (%d running)", _short(kernel_id), len(self._running))
            return kernel_id
        held = await self._take_slot()
        try:
            kernel_id = await ensure_async(super().start_kernel(*args, **kwargs))
            kernel_started(self, key, kernel_id)
        except BaseException:
            if held:
                self._preheating -= 1
            raise
        if held:
            task = asyncio.ensure_future(self._release_after_lesson(kernel_id))
            self._releases.add(task)  # keep a reference until it is done
            task.add_done_callback(self._releases.discard)
        self._running.add(kernel_id)
        log.info("kernel %s started for the pool (%d running)", _short(kernel_id), len(self._running))
        return kernel_id

    async def _take_slot(self) -> bool:
        """Wait for a preheat slot (:data:`PREHEAT_CONCURRENCY` while pages are connected, one per CPU
        otherwise; while a page is loading (:meth:`pages_loading`) one at most); give up waiting (False) as soon as
        a visitor has taken this pool entry (Voilà's pool task is the current task): a visitor waits for it,
        so it starts at once."""
        me = asyncio.current_task()
        while True:
            busy = any(connections_of(self).values())
            slots = PREHEAT_CONCURRENCY if busy else PREHEAT_CONCURRENCY_IDLE
            # while pages load, one pool kernel at a time still starts: a class arriving without pause
            # (one page every half second) kept every pool from refilling, so the next lesson found none
            if self._preheating < (slots if not self.pages_loading() else min(1, slots)):
                self._preheating += 1
                return True
            if not any(me in pool for pool in pools_of(self).values()):
                return False
            await asyncio.sleep(0.1)

    async def _release_after_lesson(self, kernel_id: str) -> None:
        """Hold the preheat slot until the new kernel has run its lesson (Voilà's render task)."""
        try:
            for _ in range(40):
                task = self._render_task_of(kernel_id)
                if task is not None:
                    await asyncio.wait([task], timeout=PREHEAT_SLOT_TIMEOUT)
                    return
                await asyncio.sleep(0.05)
        finally:
            self._preheating -= 1

    def _render_task_of(self, kernel_id: str) -> asyncio.Task | None:
        for pool in pools_of(self).values():
            for item in pool:
                if item.done() and not item.cancelled() and item.exception() is None:
                    result = item.result()
                    if result.get("kernel_id") == kernel_id:
                        return result.get("task")
        return None

    def start_watching_activity(self, kernel_id: str) -> None:
        """jupyter_server's activity watch (``last_activity`` and ``execution_state`` from the kernel's IOPub
        messages, which culling relies on), reading only the headers it needs: the original deserializes
        every message with its dates, which cost the server more than relaying the message to the page."""
        kernel = self._kernels[kernel_id]
        kernel.reason = ""
        kernel.last_activity = utcnow()
        stream = kernel.connect_iopub()
        set_activity_stream(kernel, stream)
        untracked = frozenset(self.untracked_message_types)

        def track(msg_type: str | None) -> bool:
            return msg_type not in untracked

        def record_activity(msg_list: list) -> None:
            try:
                _, parts = kernel.session.feed_identities(msg_list)
                msg_type = json.loads(parts[1]).get("msg_type")
                parent_type = json.loads(parts[2]).get("msg_type") if len(parts[2]) > 2 else None
            except (ValueError, IndexError):
                return
            if track(msg_type) or track(parent_type) or kernel.execution_state == "busy":
                self.last_kernel_activity = kernel.last_activity = utcnow()
            if msg_type == "status":
                try:
                    state = json.loads(parts[4])["execution_state"]
                except (ValueError, KeyError, IndexError):
                    return
                if track(parent_type):
                    kernel.execution_state = state
                elif kernel.execution_state == "starting" and state != "starting":
                    kernel.execution_state = "idle"

        stream.on_recv(record_activity)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        self._culling = kernel_id
        try:
            kernel = self._kernels.get(kernel_id)
            last = getattr(kernel, "last_activity", None)
            orphan = kernel is not None and last is not None and not connections_of(self).get(kernel_id, 0)
            if orphan and self._in_handover_grace(kernel_id):
                return  # just handed to a page whose websocket is not connected yet
            if orphan and (datetime.now(UTC) - last).total_seconds() > ORPHAN_IDLE_SECONDS:
                await ensure_async(self.shutdown_kernel(kernel_id))
            else:
                await ensure_async(super().cull_kernel_if_idle(kernel_id))
        finally:
            self._culling = None

    async def shutdown_kernel(self, kernel_id: str, now: bool = False, restart: bool = False) -> None:
        why = ""
        if kernel_id == self._culling:
            kernel = self._kernels.get(kernel_id)
            last = getattr(kernel, "last_activity", None)
            idle = f"{(datetime.now(UTC) - last).total_seconds():.0f} s" if last else "a while"
            dead = getattr(kernel, "execution_state", None) == "dead"
            alone = "" if connections_of(self).get(kernel_id, 0) else ", no page connected"
            why = " (culled: it had died)" if dead else f" (culled: idle for {idle}{alone})"
        elif kernel_id in self._died:
            why = " (it died: its page says the session ended)"
        elif kernel_id in self.page_limits.limited:
            why = f" (over a limit: {self.page_limits.limited[kernel_id]}; its page says so)"
        self._handed_over.pop(kernel_id, None)
        try:
            await ensure_async(super().shutdown_kernel(kernel_id, now=now, restart=restart))
        finally:
            self._died.discard(kernel_id)
            self.page_limits.forget(kernel_id)
            for callback in self.on_stopped:
                callback(kernel_id)
        self._running.discard(kernel_id)
        log.info("kernel %s stopped%s (%d running)", _short(kernel_id), why, len(self._running))
        # a page still connected to it (culled with its tab open) is told by its websocket closing
        for conn in open_websocket_connections():
            if getattr(conn, "kernel_id", None) == kernel_id and conn.websocket_handler is not None:
                conn.websocket_handler.close()
        self._top_up_pools()

    def _top_up_pools(self) -> None:
        """A place was freed: refill the pools a class emptied (Voilà refills only when a kernel is taken).
        Nothing happens while the server stops (Voilà empties ``_pools`` first)."""
        pools = pools_of(self)
        if not pools or not hasattr(self, "fill_if_needed"):
            return
        config = getattr(self, "kernel_pools_config", {})
        for name, pool in list(pools.items()):
            if len(pool) < config.get(name, config.get("default", {})).get("pool_size", 0):
                self.fill_if_needed(notebook_name=name)


class _SeatingKernelManager:
    """The kernel manager as one page handler sees it: reports the kernel the page gets."""

    def __init__(self, kernel_manager: Any, on_kernel: Any, on_pool: Any = None):
        self._km = kernel_manager
        self._on_kernel = on_kernel
        self._on_pool = on_pool

    def __getattr__(self, name: str) -> Any:
        return getattr(self._km, name)

    def __contains__(self, kernel_id: str) -> bool:
        return kernel_id in self._km

    @property
    def notebook_data(self) -> dict[str, Any]:
        """Voilà's notebook data, plus an entry for each lesson whose pool holds only kernels still starting.

        Voilà takes a pool kernel only for a lesson it has data of, which it writes once the lesson's first
        pool kernel has started; a page arriving before that (a pool grown for a class moving on) started a
        kernel of its own beside the pool's, which still held their places: more kernels than
        ``--max-kernels``, and the pool's never used. The page now takes the pool's entry (which starts at
        once for it) instead."""
        data = dict(getattr(self._km, "notebook_data", {}) or {})
        for name, pool in pools_of(self._km).items():
            if pool and name not in data:
                data[name] = {"template": None, "theme": None, "kernel_ids": set()}
        return data

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        if self._on_pool is not None:  # Voilà takes the pool's first entry now
            self._on_pool()
        render_task, rendered_cache, kernel_id = await self._km.get_rendered_notebook(*args, **kwargs)
        hand_over = getattr(self._km, "hand_over", None)
        if hand_over is not None:
            hand_over(kernel_id)
        self._on_kernel(kernel_id, preheated=True)
        return render_task, rendered_cache, kernel_id

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        kernel_id = await ensure_async(self._km.start_kernel(*args, **kwargs))
        self._on_kernel(kernel_id, preheated=False)
        return kernel_id


# ----- pages ------------------------------------------------------------------------------------

_PAGE_CSS = """
body { margin: 0; font-family: "DejaVu Sans", Verdana, Arial, sans-serif; color: #1f2a24; background: #fbfaf5; }
main { max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
h1 { color: #2b7a4b; }
ul.musteach-lessons { list-style: none; padding-left: 0; } ul.musteach-lessons li { margin: .4rem 0; font-size: 1.1rem; }
a { color: #1565c0; } .musteach-note { color: #5f6b64; font-size: .95rem; }
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
    its file name ("Lesson 11: Practice" for ``11-practice.ipynb``, whatever its place in the list), and a link
    to the index in each other language of ``languages``."""
    text = index_page(lang)
    items = "".join(
        f'<li><a href="{escape(_lesson_url(base_url, ls))}">{escape(lesson_link(ls.number, ls.label, lang), quote=False)}'
        "</a></li>"
        for ls in lessons
    )
    intro = "".join(f"<p>{escape(p, quote=False)}</p>" for p in text.paragraphs)
    return _page(
        text.title,
        f"{_language_links(base_url, lang, languages)}<h1>{escape(text.heading, quote=False)}</h1>{intro}"
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


class _NotFoundPage:
    """A handler mix-in: a 404 answer is :func:`not_found_html` (a link back to the lessons), not Jupyter's page."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code != 404:
            super().write_error(status_code, **kwargs)  # type: ignore[misc]
            return
        settings = self.settings  # type: ignore[attr-defined]
        lang = request_lang(self.request, settings.get("musteach_languages", (SOURCE_LANG,)),  # type: ignore[attr-defined]
                            self.base_url)  # type: ignore[attr-defined]
        self.set_header("Content-Type", "text/html; charset=utf-8")  # type: ignore[attr-defined]
        self.set_header("Content-Language", lang)  # type: ignore[attr-defined]
        self.finish(not_found_html(self.base_url, lang))  # type: ignore[attr-defined]


class NotFoundHandler(_NotFoundPage, JupyterHandler):
    """Any address no other handler serves: 404 with a link to the index (tornado's own page has none)."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def prepare(self) -> None:
        raise tornado.web.HTTPError(404)


class IndexHandler(JupyterHandler):
    """``/``: the list of lessons (no kernel), in the language the visitor chose last (:data:`LANG_COOKIE`) or
    their browser prefers: English here, another language by a redirect to its index (``/es/``), which
    (with ``/en/``) this handler also serves, remembering the choice."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    @tornado.web.authenticated
    def get(self, lang: str | None = None) -> None:
        languages: tuple[str, ...] = self.settings["musteach_languages"]
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
        lessons = self.settings["musteach_lessons"] if lang == SOURCE_LANG else self.settings["musteach_translations"][lang]
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", lang)
        self.finish(index_html(lessons, self.base_url, lang, languages))


class LeftHandler(JupyterHandler):
    """``/logout`` (Jupyter's own page would show): GET shows a Leave button and changes nothing (a page on
    another site may navigate here); its POST, with the xsrf token, stops the session's kernels, forgets the
    visitor's session cookie and says so, in the visitor's language; their progress stays in their browser."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def get(self) -> None:
        lang = request_lang(self.request, self.settings["musteach_languages"], self.base_url)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", lang)
        self.set_header("Cache-Control", "no-store")
        text = leave_page(lang)
        self.finish(form_page(text, url_path_join(self.base_url, "logout"), text.link or "", self.xsrf_form_html(),
                              lang=lang))

    async def post(self) -> None:
        lang = request_lang(self.request, self.settings["musteach_languages"], self.base_url)
        gate: KernelGate = self.settings["musteach_gate"]
        session = session_of(self.request, self.settings["musteach_secret"], self.settings["musteach_trusted"])
        for kernel_id in gate.sessions.of_session(session) if session else []:
            try:
                await ensure_async(self.settings["kernel_manager"].shutdown_kernel(kernel_id, now=True))
            except Exception:  # gone meanwhile
                gate.stopped(kernel_id)
        self.clear_cookie(SESSION_COOKIE, path=self.base_url)
        if request_is_https(self.request, self.settings["musteach_trusted"]):
            self.clear_cookie(SESSION_COOKIE_TLS, path="/", secure=True)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", lang)
        self.set_header("Cache-Control", "no-store")
        self.finish(text_page(left_page(lang), lang=lang, back=index_url(self.base_url, lang)))


class LessonHandler(_NotFoundPage, TornadoVoilaHandler):
    """``/voila/render/<lesson>.ipynb``: Voilà's page handler behind the :class:`KernelGate`."""

    _seated: str | None = None
    _preheated = False

    @property
    def kernel_manager(self) -> Any:
        return _SeatingKernelManager(self.settings["kernel_manager"], self._on_kernel, self._unclaim)

    def _unclaim(self) -> None:
        """End the page's claim on a pool kernel (:meth:`KernelGate.unclaim`), once."""
        claim, self._claim = self._claim, None
        self.settings["musteach_gate"].unclaim(claim)

    def _on_kernel(self, kernel_id: str, *, preheated: bool) -> None:
        gate: KernelGate = self.settings["musteach_gate"]
        if not self._admitted or self._session is None:  # never: every kernel a page gets was admitted first
            log.warning("kernel %s was given to a page without a place: it is stopped", _short(kernel_id))
            task = asyncio.ensure_future(ensure_async(self.settings["kernel_manager"].shutdown_kernel(kernel_id)))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
            raise tornado.web.HTTPError(404)
        self._admitted = False
        gate.seat(kernel_id, self._lesson)
        gate.sessions.bind(kernel_id, self._session, self._address)
        gate.admission.bind(kernel_id, self._session, self._address, self._token)
        self._seated, self._preheated = kernel_id, preheated
        seat_learner(self, kernel_id)  # classes: the kernel's records go to the page's learner

    _session: str | None = None
    _address = ""
    _admitted = False
    _claim: str | None = None
    _lesson = ""
    _token: AdmissionToken | None = None

    _lang = SOURCE_LANG

    def _plain(self, status: int, text: PageText, *, retry: int | None = None) -> None:
        self.set_status(status)
        if retry:
            self.set_header("Retry-After", str(retry))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Language", self._lang)
        self.set_header("Cache-Control", "no-store")
        self.finish(text_page(text, lang=self._lang, back=index_url(self.base_url, self._lang), refresh=retry))

    async def get(self, path: str | None = None) -> None:
        # one rule for every spelling of a lesson path (musteach_server.routing): a served lesson's exact path,
        # a picture (Voilà's /voila/files/ and its allowlist decide), or the same 404 for anything else
        route = lesson_request(path, self.settings["musteach_served"])
        if route.kind is RequestKind.FILE:
            self.redirect(url_path_join(self.base_url, "voila", "files", route.path))
            return
        if route.kind is not RequestKind.LESSON or not (self.settings["musteach_lessons_dir"] / route.path).is_file():
            raise tornado.web.HTTPError(404)  # no kernel, no session: the not-found page
        path = self._lesson = route.path
        self._lang = lang_of(path, self.settings["musteach_languages"])
        why = fetch_refusal(dict(self.request.headers))
        if why:
            log.warning("refused %s for %s: no kernel is started for %s", path, self._who(), why)
            self._plain(403, open_yourself_page(self._lang))
            return
        if not self._visitor_session():
            return
        gate: KernelGate = self.settings["musteach_gate"]
        sessions = gate.sessions
        assert self._session is not None
        self._token = self._admission_token()
        if self._token is None and sessions.too_many_waiting(self._address):
            log.warning("refused %s: %s already holds %d kernels whose page has not connected", path, self._who(),
                        sessions.waiting_per_address)
            self._plain(429, too_many_opening_page(RETRY_AFTER_SECONDS, self._lang), retry=RETRY_AFTER_SECONDS)
            return
        decision = gate.admission.decide(self._session, self._address, self._token, gate.total(),
                                         sessions.to_release(self._session))
        if decision is Decision.ADDRESS_FULL:
            log.warning("refused %s: %s already holds %d kernels", path, self._who(), gate.admission.per_address)
            self._plain(429, too_many_open_page(RETRY_AFTER_SECONDS, self._lang), retry=RETRY_AFTER_SECONDS)
            return
        if decision is Decision.CLASS_FULL:
            assert self._token is not None
            log.warning("refused %s: every place of the class %r is taken (%d)", path, self._token.name,
                        self._token.places)
            self._plain(429, class_full_page(self._token.name, self._token.places, self._lang),
                        retry=RETRY_AFTER_SECONDS)
            return
        if decision is Decision.RESERVED:
            log.warning("busy: refused an anonymous visitor to %s (%d of %d places taken, %d reserved for classes)",
                        path, gate.total(), gate.max_kernels, gate.admission.reserved())
            self._busy()
            return
        for old in sessions.to_release(self._session):
            if old in sessions.gone:
                log.info("a visitor opened another lesson: kernel %s, whose page has gone, is released", _short(old))
            else:
                log.info("a visitor opened more than %d lessons: their oldest kernel %s is released",
                         sessions.per_session, _short(old))
            try:
                await ensure_async(self.settings["kernel_manager"].shutdown_kernel(old, now=True))
            except Exception:  # gone meanwhile
                sessions.release(old)
        self._claim = gate.pool_key(path)  # admit() claims that pool's kernel for this page
        if not await gate.admit(path):
            log.warning("busy: refused a visitor to %s (%d of %d places taken)", path, gate.total(), gate.max_kernels)
            self._busy()
            return
        self._admitted = True
        arrive = self.settings.get("musteach_arrive")
        if arrive is not None:
            arrive(path)
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
        cold = gate.pools() is not None and self._claim is None
        marker = _COLD_WAIT.set(max(1, round(gate.cold_seconds)) if cold else None)
        try:
            await super().get(path)
        finally:
            _COLD_WAIT.reset(marker)
            self._unclaim()  # a page that got no pool kernel (Voilà started one, or an error)
            if self._admitted:  # admitted, and no kernel came
                self._admitted = False
                gate.abandon()
            if self._seated is not None:
                sessions.page_sent(self._seated)
                if not self._preheated:
                    gate.cold_seconds = 0.7 * gate.cold_seconds + 0.3 * (time.monotonic() - start)
                follow = self.settings.get("musteach_follow")
                if follow is not None:
                    follow(path)
                log.info(
                    "page %s opened: kernel %s (%s), %s, %d of %d places taken by visitors, %.2f s",
                    path,
                    _short(self._seated),
                    "preheated" if self._preheated else "started for it",
                    count(gate.total(), "kernel"),
                    gate.in_use(),
                    gate.max_kernels,
                    time.monotonic() - start,
                )

    def _busy(self) -> None:
        gate: KernelGate = self.settings["musteach_gate"]
        self.set_status(503)
        self.set_header("Retry-After", str(RETRY_AFTER_SECONDS))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Language", self._lang)
        self.finish(busy_html(self.base_url, gate.max_kernels, self._lang))

    def _admission_token(self) -> AdmissionToken | None:
        """The admission token the visitor brought (its cookie), verified; None without one, or for a token
        that is not valid (the visitor is then anonymous)."""
        return admission_token_of(self.request, self.settings["musteach_secret"])

    def _who(self) -> str:
        return self._address or client_address(self.request.remote_ip or "", self.request.headers.get(
            "X-Forwarded-For"), self.settings["musteach_trusted"])

    def _visitor_session(self) -> bool:
        """The visitor's session (from its signed cookie), or a first visit that sets one and comes back
        (a redirect to the same address; no kernel is started for a client that keeps no cookie)."""
        trusted = self.settings["musteach_trusted"]
        self._address = client_address(self.request.remote_ip or "", self.request.headers.get("X-Forwarded-For"),
                                       trusted)
        session = session_of(self.request, self.settings["musteach_secret"], trusted)
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
        signed = tornado.web.create_signed_value(self.settings["musteach_secret"], SESSION_COOKIE, new_session_id())
        # over TLS a __Host- cookie (Secure, path /, no Domain): no other port or subdomain can plant it
        self.set_cookie(name, signed.decode("ascii"), httponly=True, samesite="Lax", secure=https,
                        path="/" if https else self.base_url)
        sep = "&" if clean_args else "?"
        self.redirect(here + f"{sep}{COOKIE_PROBE}=1", status=303)
        return False


#: The query argument marking the redirect of a first visit (the session cookie was just set).
COOKIE_PROBE = "musteach-cookie"


def request_is_https(request: Any, trusted: frozenset[str]) -> bool:
    """Whether ``request`` came over TLS: directly, or through a trusted proxy that says so."""
    return is_https(request.protocol, request.remote_ip or "", request.headers.get("X-Forwarded-Proto"), trusted)


def session_of(request: Any, secret: bytes, trusted: frozenset[str] = frozenset()) -> str | None:
    """The session id of a request's signed session cookie, or None (no cookie, or not signed by us). Over TLS
    (``trusted``: the proxies whose ``X-Forwarded-Proto`` is believed) only the ``__Host-`` cookie counts, which
    no page of another port or subdomain can have planted."""
    # the session id, with the owner its pages proved from their origin's storage (musteach_server.ownership)
    return session_ids(request, secret, request_is_https(request, trusted))[1]


def admission_token_of(request: Any, secret: bytes) -> AdmissionToken | None:
    """The verified admission token of a request's :data:`~musteach_server.admission.ADMIT_COOKIE`, or None
    (no cookie, or a token that is malformed, forged or expired)."""
    morsel = request.cookies.get(ADMIT_COOKIE)
    if morsel is None:
        return None
    try:
        return verify_token(secret, morsel.value)
    except MusError:
        return None


def form_page(text: PageText, action: str, button: str, xsrf_html: str, *, lang: str = SOURCE_LANG) -> str:
    """A plain page whose one action is a POST form (``action``, a ``button``, the xsrf field ``xsrf_html``)."""
    body = f"<h1>{escape(text.heading, quote=False)}</h1>"
    body += "".join(f"<p>{escape(p, quote=False)}</p>" for p in text.paragraphs)
    body += (f'<form method="post" action="{escape(action)}">{xsrf_html}'
             f'<p><button type="submit">{escape(button, quote=False)}</button></p></form>')
    return _page(text.title, body, lang=lang)


class AdmitHandler(JupyterHandler):
    """``/musteach/admit?token=...``, a class link (:mod:`musteach_server.admission`): GET shows the class and a
    Join button (nothing changes); its POST (with the xsrf token) keeps the token in the visitor's
    :data:`~musteach_server.admission.ADMIT_COOKIE` and goes to the lessons."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def _token(self) -> AdmissionToken | None:
        try:
            return verify_token(self.settings["musteach_secret"], self.get_argument("token", ""))
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
        lang = request_lang(self.request, self.settings["musteach_languages"], self.base_url)
        token = self._token()
        if token is None:
            self._answer(403, text_page(bad_admission_page(lang), lang=lang, back=index_url(self.base_url, lang)),
                         lang)
            return
        words = admission_page(token.name, token.places, lang)
        self._answer(200, form_page(words.page, self.request.uri or "", words.join, self.xsrf_form_html(), lang=lang),
                     lang)

    def post(self) -> None:
        lang = request_lang(self.request, self.settings["musteach_languages"], self.base_url)
        token = self._token()
        if token is None:
            self._answer(403, text_page(bad_admission_page(lang), lang=lang, back=index_url(self.base_url, lang)),
                         lang)
            return
        https = is_https(self.request.protocol, self.request.remote_ip or "",
                         self.request.headers.get("X-Forwarded-Proto"), self.settings["musteach_trusted"])
        self.set_cookie(ADMIT_COOKIE, self.get_argument("token"), httponly=True, samesite="Lax", secure=https,
                        path=self.base_url, expires=datetime.fromtimestamp(token.expires, UTC))
        log.info("a visitor joined the class %r (%d places)", token.name, token.places)
        self.redirect(index_url(self.base_url, lang), status=303)


class PlacesHandler(JupyterHandler):
    """``/musteach/api/places``: what the server holds, for its host only (``Authorization: Bearer <key>``,
    the key :func:`~musteach_server.admission.host_key` derives from the secret; 403 otherwise). JSON:
    ``taken`` (places the gate counts), ``kernels`` (kernels that exist), ``visitors``, ``pooled``,
    ``admitting``, ``reserved`` and ``max``."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def get(self) -> None:
        expected = "Bearer " + host_key(self.settings["musteach_secret"])
        given = self.request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), expected.encode()):
            raise tornado.web.HTTPError(403)
        gate: KernelGate = self.settings["musteach_gate"]
        km = self.settings["kernel_manager"]
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({
            "taken": gate.total(), "kernels": len(km.list_kernel_ids()), "visitors": gate.in_use() - gate.admitting,
            "pooled": gate.pooled(), "admitting": gate.admitting, "reserved": gate.admission.reserved(),
            "max": gate.max_kernels, "pools": {name: len(pool) for name, pool in gate.pools().items()},
            "cold_seconds": round(gate.cold_seconds, 1),
        }))


class SessionStatusHandler(JupyterHandler):
    """``/musteach/api/session/<kernel>``: whether the visitor's kernel still runs (200), has ended (410) or
    is not theirs (403). The page asks when its websocket closes, to say "this session ended"."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def check_xsrf_cookie(self) -> None:
        pass

    def get(self, kernel_id: str) -> None:
        gate: KernelGate = self.settings["musteach_gate"]
        session = session_of(self.request, self.settings["musteach_secret"], self.settings["musteach_trusted"])
        if gate.sessions.owns(session, kernel_id) and kernel_id not in self.settings["kernel_manager"]:
            gate.stopped(kernel_id)
        status = gate.sessions.status(session, kernel_id)
        limited = getattr(self.settings["kernel_manager"], "page_limits", None)
        reason = "limit" if status == 410 and limited is not None and kernel_id in limited.limited else ""
        self.set_status(status)
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"running": status == 200, "ended": status == 410, "reason": reason}))


def is_traversal(path: str) -> bool:
    """Whether a URL path tries to climb out of a folder: a ``..`` segment, raw or %-encoded (even twice),
    with ``/`` or ``\\`` separators, or a NUL byte.

    >>> is_traversal("/voila/files/%2e%2e/musteach/cli.py"), is_traversal("/voila/render/03-grande-chica.ipynb")
    (True, False)
    >>> is_traversal("/voila/static/..%252f..%252fapp.py"), is_traversal("/voila/files/a..b.png")
    (True, False)
    """
    for _ in range(3):
        decoded = unquote(path)
        if decoded == path:
            break
        path = decoded
    return "\x00" in path or any(seg in ("..", ".") for seg in path.replace("\\", "/").split("/"))


def template_static_path_ok(path: str, base_url: str = "/") -> bool:
    """Whether ``path`` (%-decoded), if it is under Voilà's ``/voila/templates/``, has the only form Voilà's
    handler serves, ``<template>/static/<file>``, of a template that exists (Voilà's handler answers any
    other with a 500 and a traceback). Paths elsewhere are not its business (True).

    >>> template_static_path_ok("/voila/templates/musteach/index.html.j2"), template_static_path_ok("/lessons")
    (False, True)
    """
    prefix = base_url.rstrip("/") + "/voila/templates/"
    if not path.startswith(prefix):
        return True
    m = re.fullmatch(r"([A-Za-z0-9_.-]+)/static/[^/].*", path[len(prefix):])
    if not m:
        return False
    try:
        return bool(collect_static_paths(["voila", "nbconvert"], m.group(1)))
    except ValueError:  # no such template
        return False


class _GuardedApplication(tornado.web.Application):
    """Tornado's application, refusing before any handler sees them: paths that are not UTF-8 once decoded
    or that climb out of a folder (400), kernel routes without the session that owns the kernel, kernel
    listings and reading, the contents API and the file tree (403)."""

    def find_handler(self, request: Any, **kwargs: Any) -> Any:
        try:
            decoded = unquote_to_bytes(request.path).decode("utf-8")
        except UnicodeDecodeError:
            return self.get_handler_delegate(request, tornado.web.ErrorHandler, {"status_code": 400})
        if is_traversal(request.path):
            return self.get_handler_delegate(request, tornado.web.ErrorHandler, {"status_code": 400})
        if not template_static_path_ok(decoded, self.settings.get("base_url", "/")):
            return self.get_handler_delegate(request, tornado.web.ErrorHandler, {"status_code": 404})
        match = kernel_route(decoded, self.settings.get("base_url", "/"))
        if match.route is not KernelRoute.NONE and not self._allowed(request, match.route, match.kernel_id):
            return self.get_handler_delegate(request, tornado.web.ErrorHandler, {"status_code": 403})
        return super().find_handler(request, **kwargs)

    def _allowed(self, request: Any, route: KernelRoute, kernel_id: str | None) -> bool:
        if route is KernelRoute.CLOSED:
            return False
        if route is KernelRoute.MODEL and request.method not in ("GET", "DELETE"):
            return False  # reading (the page does, on connecting) or stopping it, by its own session only
        gate: KernelGate | None = self.settings.get("musteach_gate")
        if gate is None:
            return False
        return gate.sessions.owns(session_of(request, self.settings["musteach_secret"],
                                             self.settings.get("musteach_trusted", frozenset())), kernel_id)


# ----- the application --------------------------------------------------------------------------


class MusteachVoila(Voila):
    """Voilà with the gate, the lesson pages and index, the message allowlist and quiet logs.

    ``forced_config`` is applied again after Voilà reads any ``voila.json``/``voila.py`` config file, so a
    stray config file cannot turn the security settings off.
    """

    def __init__(self, options: ServeOptions, **kwargs: Any):
        super().__init__(**kwargs)
        self.musteach = options
        self.forced_config = build_config(options)
        self.update_config(self.forced_config)
        self.gate: KernelGate | None = None
        #: visitors given a page of each lesson so far (lesson path -> count)
        self.arrivals: dict[str, int] = {}

    def load_config_file(self, *args: Any, **kwargs: Any) -> None:
        super().load_config_file(*args, **kwargs)
        self.update_config(self.forced_config)

    def initialize(self, argv: list[str] | None = None) -> None:
        super().initialize(argv)
        for handler in self.log.handlers:
            handler.addFilter(TidyVoilaLog())

    def start(self) -> None:
        # Voilà's start(), with the traversal guard around tornado's application, and the pages' templates
        # compiled once for all pages (a pool refilling then leaves the visitors' clicks alone)
        share_compiled_templates()
        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        settings = self.init_settings()
        self.app = _GuardedApplication(**settings)
        self.app.settings.update(self.tornado_settings)
        # jupyter_server's error pages call static_url(): give them a static path (set after the application
        # is built, so that tornado adds no /static/ route for it)
        self.app.settings.setdefault("static_path", DEFAULT_STATIC_FILES_PATH)
        self.app.add_transform(SecurityHeaders)
        # a trusted proxy on this machine proves itself with the proxy key (another local client could forge)
        self.app.add_transform(proxy_check(self.app.settings["musteach_secret"], self.musteach.trusted))
        self.app.add_handlers(".*$", self.init_handlers())
        self.listen()

    def init_settings(self) -> dict:
        settings = super().init_settings()
        self.kernel_manager.allowed_message_types = list(ALLOWED_MESSAGE_TYPES)
        o = self.musteach
        self.gate = KernelGate(self.kernel_manager, o.max_kernels, Sessions(o.per_session, 0, o.waiting_per_address),
                               Admission(o.max_kernels, o.anonymous_per_address()))
        self._cap_pool_refills()
        settings.update(
            musteach_gate=self.gate,
            musteach_secret=o.secret or os.urandom(32),
            musteach_trusted=o.trusted,
            musteach_lessons=o.lessons,
            musteach_translations=o.translations,
            musteach_languages=o.languages,
            musteach_lessons_dir=Path(o.lessons_dir),
            musteach_served=frozenset(ls.path for ls in o.all_lessons()),
            musteach_follow=self.follow,
            musteach_arrive=self.arrive,
            websocket_max_message_size=MAX_MESSAGE_BYTES,
            log_function=log_request,
            default_handler_class=NotFoundHandler,
            musteach_classes=install_classes(self, o.database),
        )
        return settings

    def _cap_pool_refills(self) -> None:
        """Voilà refills a lesson's pool to its size whenever a visitor takes a kernel. Refill only while
        visitors and spare kernels stay within ``--max-kernels``: no spare kernels for visitors who could not
        get a place anyway (the memory they take is bounded by the cap, plus the pools' first fill)."""
        km = self.kernel_manager
        original = getattr(km, "fill_if_needed", None)
        if original is None:  # no preheating
            return
        gate, cap = self.gate, self.musteach.max_kernels

        def fill_if_needed(delay: float | None = None, notebook_name: str | None = None, **kwargs: Any) -> None:
            config = km.kernel_pools_config
            entry = dict(config.get(notebook_name, config.get("default", {})))
            pool = len(pools_of(km).get(notebook_name or "", []))
            assert gate is not None
            # a pool sized for a class's arrival (--pool 03=40) shrinks as the class arrives, back to the
            # ordinary size: the places go to the pool of where the class goes next (follow)
            size = entry.get("pool_size", 0)
            size = max(min(size, self.musteach.pool_size), size - self.arrivals.get(notebook_name or "", 0))
            wanted = min(size, pool + max(0, cap - gate.total()))
            if wanted <= pool:
                return
            km.kernel_pools_config = {**config, notebook_name: {**entry, "pool_size": wanted}}
            try:
                original(delay=delay, notebook_name=notebook_name, **kwargs)
            finally:
                km.kernel_pools_config = config

        km.fill_if_needed = fill_if_needed

    def init_handlers(self) -> list:
        handlers = super().init_handlers()
        render = url_path_join(self.server_url, r"/voila/render/(.*)")
        out: list[Any] = list(class_handlers(self.server_url))
        for h in handlers:
            if isinstance(h, tuple) and h[0] == render:
                h = (render, LessonHandler, *h[2:])
            elif isinstance(h, tuple) and len(h) > 1 and h[1] is VoilaKernelWebsocketHandler:
                h = (h[0], VisitorWebsocketHandler, *h[2:])
            elif isinstance(h, tuple) and h[0] == self.server_url:
                h = (self.server_url, IndexHandler)
            elif isinstance(h, tuple) and h[0] == url_path_join(self.server_url, "/logout"):
                h = (h[0], LeftHandler)
            out.append(h)
        out.append((url_path_join(self.server_url, r"/musteach/api/session/([0-9a-f-]{36})"), SessionStatusHandler))
        out.append((url_path_join(self.server_url, r"/musteach/api/places"), PlacesHandler))
        out.append((url_path_join(self.server_url, "/" + ADMIT_PATH), AdmitHandler))
        out.append((url_path_join(self.server_url, "/" + CLAIM_PATH), ClaimHandler))
        for pattern, handler, *rest in EXTRA_HANDLERS:
            out.append((url_path_join(self.server_url, pattern), handler, *rest))
        languages = "|".join(re.escape(lang) for lang in self.musteach.languages)
        out.append((url_path_join(self.server_url, rf"/({languages})/?"), IndexHandler))
        return out

    def listen(self) -> None:
        o = self.musteach
        try:
            if o.socket:  # behind a proxy on this machine: only whoever may open the socket file reaches us
                server = HTTPServer(self.app, max_body_size=self.app.settings.get("max_body_size"))
                server.add_socket(bind_unix_socket(o.socket, mode=0o660))
            else:
                self.app.listen(self.port, self.ip)
        except OSError as e:
            shutil.rmtree(self.connection_dir, ignore_errors=True)
            where = o.socket or f"{self.ip}:{self.port}"
            raise MusError(f"cannot listen on {where}: {e.strerror or e}") from None
        if o.socket:
            print(f"musteach: serving {len(o.lessons)} lessons on the Unix socket {o.socket}", flush=True)
        else:
            shown = "localhost" if self.ip in ("127.0.0.1", "0.0.0.0", "localhost", "::", "::1") else self.ip
            print(f"musteach: serving {len(o.lessons)} lessons on http://{shown}:{self.port}/", flush=True)
            for lang, lessons in o.translations.items():
                print(f"musteach: and {len(lessons)} lessons in {lang} on http://{shown}:{self.port}/{lang}/",
                      flush=True)
        log.info(
            "lessons in %s; at most %s, preheated ones included; %s; idle kernels stopped after %s",
            o.lessons_dir,
            count(o.max_kernels, "kernel"),
            pools_summary(o),
            f"{o.cull_idle} s" if o.cull_idle else "never",
        )
        self.ioloop = IOLoop.current()
        self._started_at = time.monotonic()
        self._ready_check = PeriodicCallback(self._log_when_preheated, 500)
        self._ready_check.start()
        self._connect_check = PeriodicCallback(self._release_unconnected, 1000)
        self._connect_check.start()
        self.kernel_manager.memory_limit = self.musteach.kernel_memory * 1024 * 1024
        self._memory_check = PeriodicCallback(self.kernel_manager.watch_memory, 2000)
        self._memory_check.start()
        try:
            self.ioloop.start()
        except KeyboardInterrupt:
            pass
        finally:
            log.info("stopping: shutting down %s", count(len(self.kernel_manager.list_kernel_ids()), "kernel"))
            self.stop()


    def arrive(self, lesson: str) -> None:
        """A visitor is being given a page of ``lesson`` (counted against the pool sized for a class's
        arrival, :meth:`_cap_pool_refills`)."""
        self.arrivals[lesson] = self.arrivals.get(lesson, 0) + 1

    def follow(self, lesson: str) -> None:
        """A page of ``lesson`` opened: the pool of the next lesson (same language) grows to the number of
        visitors now on ``lesson`` (at most half the places), so that a class moving on finds kernels ready; the
        refill stays within ``--max-kernels`` (:meth:`_cap_pool_refills`)."""
        km = self.kernel_manager
        nxt = self._next_lesson.get(lesson)
        if nxt is None or not hasattr(km, "fill_if_needed") or self.gate is None:
            return
        on = list(self.gate.visitors.values())
        on_lesson = on.count(lesson)
        want = min(on_lesson, max(1, self.musteach.max_kernels // 2)) + self.arrivals.get(nxt, 0)
        # the visitors still on the lesson before come here first: their places are not the next pool's
        coming = sum(on.count(before) for before, after in self._next_lesson.items() if after == lesson)
        room = self.musteach.max_kernels - self.gate.total() - coming
        want = min(want, len(pools_of(km).get(nxt, [])) + self.arrivals.get(nxt, 0) + max(0, room))
        config = km.kernel_pools_config
        entry = config.get(nxt, config.get("default", {}))
        if entry.get("pool_size", 0) >= want:
            return
        km.kernel_pools_config = {**config, nxt: {**entry, "pool_size": want}}
        km.fill_if_needed(notebook_name=nxt)

    @property
    def _next_lesson(self) -> dict[str, str]:
        """Each lesson's path -> the next lesson's path in the same language."""
        o = self.musteach
        out: dict[str, str] = {}
        for lessons in (o.lessons, *o.translations.values()):
            for a, b in itertools.pairwise(lessons):
                out[a.path] = b.path
        return out

    def _release_unconnected(self) -> None:
        """Stop the kernels whose page has not connected within ``--connect-timeout`` seconds (a page load
        that never ran its page, or a flood of them), and those whose page went away (its websocket closed
        and did not come back within ``--page-grace`` seconds: a tab closed without its beacon, a phone that
        killed it): their places are free again."""
        connections = connections_of(self.kernel_manager)
        for kernel_id in self.gate.sessions.gone_for(self.musteach.page_grace):
            if connections.get(kernel_id):
                self.gate.sessions.connected(kernel_id)
                continue
            self.gate.sessions.forget_gone(kernel_id)
            log.info("kernel %s released: its page went away %d s ago and did not come back", _short(kernel_id),
                     self.musteach.page_grace)
            task = asyncio.ensure_future(ensure_async(self.kernel_manager.shutdown_kernel(kernel_id, now=True)))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
        for kernel_id in self.gate.sessions.overdue(self.musteach.connect_timeout):
            self.gate.sessions.connected(kernel_id)  # asked once
            log.warning("kernel %s released: its page did not connect within %d s", _short(kernel_id),
                        self.musteach.connect_timeout)
            task = asyncio.ensure_future(ensure_async(self.kernel_manager.shutdown_kernel(kernel_id, now=True)))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    def preheated(self) -> tuple[int, int]:
        """(kernels preheated and done running their lesson, kernels the pools should hold)."""
        pools = pools_of(self.kernel_manager)
        ready = 0
        for pool in pools.values():
            for item in pool:
                if item.done() and not item.cancelled() and item.exception() is None and item.result()["task"].done():
                    ready += 1
        wanted = sum(self.musteach.fitted_pools().values())
        return ready, wanted

    def _log_when_preheated(self) -> None:
        ready, wanted = self.preheated()
        if ready >= wanted:
            self._ready_check.stop()
            if wanted:
                log.info("ready: %s %s (%.1f s after start)", count(ready, "preheated kernel"),
                         "has run its lesson" if ready == 1 else "have run their lessons",
                         time.monotonic() - self._started_at)
            else:
                log.info("ready: no kernel to preheat (kernels start when a page is opened)")


def _log_cell_error(cell: Any, cell_index: int, execute_reply: dict) -> None:
    """nbclient's hook for a failed cell: one line for the host (the visitor sees CELL_ERROR_NOTE)."""
    c = execute_reply.get("content", {})
    log.warning("a lesson cell failed (its page shows a note instead): cell %d, %s: %s", cell_index + 1,
                c.get("ename", "Error"), c.get("evalue", ""))


def _lesson_resources(lessons: list[Lesson]) -> list[dict[str, Any]]:
    return [{"path": ls.path, "stem": ls.stem, "label": ls.label, "number": ls.number, "title": ls.title}
            for ls in lessons]


def _language_resources(o: ServeOptions, lang: str) -> dict[str, Any]:
    """What the ``musteach`` template needs for the pages of one language: its lessons, the words of its
    lesson bar and scripts (from :func:`musteach.teach.pages.lesson_bar`), the address of its index, and for
    each other language the link to it (its name, the tooltips, each lesson's path in it)."""
    bar = lesson_bar(lang)
    others = []
    for code in o.languages:
        if code == lang:
            continue
        link = language_link(code, lang)
        others.append({
            "lang": code, "name": link.name, "lesson_tooltip": link.lesson_tooltip,
            "index_tooltip": link.index_tooltip,
            "index": "en/" if code == SOURCE_LANG else f"{code}/",
            "paths": {ls.stem: ls.path for ls in o.lessons_in(code)},
        })
    return {
        "lang": lang,
        "index": "" if lang == SOURCE_LANG else f"{lang}/",
        "lessons": _lesson_resources(o.lessons_in(lang)),
        "words": {"lessons": bar.lessons, "skip": bar.skip, "ended": bar.ended, "reload": bar.reload,
                  "cell_error": bar.cell_error, "lost": bar.lost, "limit": bar.limit, "cold": bar.cold},
        "others": others,
    }


def _page_language_hook(o: ServeOptions) -> Any:
    """Voilà's ``page_config_hook``: puts the language of the lesson (``musteachLang``, from the folder of its
    path) in the page's config, where the ``musteach`` template reads it. Voilà calls it for preheated and
    started kernels alike, with the notebook's path relative to the lessons folder."""
    root = Path(o.lessons_dir).resolve()

    def hook(page_config: dict[str, Any], *args: Any, notebook_path: str | None = None, **kwargs: Any) -> dict[str, Any]:
        path = notebook_path or ""
        if os.path.isabs(path):
            try:
                path = Path(path).resolve().relative_to(root).as_posix()
            except ValueError:
                path = ""
        config = {**page_config, "musteachLang": lang_of(path, o.languages)}
        config.pop("appVersion", None)  # no version strings in pages
        cold = _COLD_WAIT.get()
        if cold is not None:
            config["musteachColdSeconds"] = cold
        return config

    return hook


def build_config(o: ServeOptions) -> Config:
    """The traitlets configuration of the production Voilà for ``o``."""
    c = Config()
    c.Voila.ip = o.host
    c.Voila.port = o.port
    c.Voila.port_retries = 0  # the address printed is the address served, or a clear error
    c.Voila.open_browser = False
    c.Voila.log_level = logging.WARNING
    c.Voila.log_format = "[musteach %(asctime)s] %(message)s"
    c.Voila.log_datefmt = "%H:%M:%S"
    c.Voila.kernel_websocket_connection_class = VisitorConnection
    c.Voila.base_url = o.base_url
    c.Voila.tornado_settings = {"headers": dict(SECURITY_HEADERS)}

    vc = c.VoilaConfiguration
    vc.template = TEMPLATE
    vc.theme = "light"
    vc.allow_template_override = "NO"
    vc.allow_theme_override = "NO"
    vc.strip_sources = True
    vc.show_tracebacks = False
    vc.preheat_kernel = any(n > 0 for n in o.fitted_pools().values())
    vc.default_pool_size = o.pool_size
    vc.file_allowlist = FILE_ALLOWLIST
    vc.file_denylist = FILE_DENYLIST
    vc.multi_kernel_manager_class = MusteachKernelManager
    vc.resources = {
        "musteach": {
            "lessons": _lesson_resources(o.lessons),
            "languages": {lang: _language_resources(o, lang) for lang in o.languages},
        }
    }
    # the page of a lesson knows its language (the lesson bar, <html lang>) from its folder
    vc.page_config_hook = _page_language_hook(o)
    # only the lessons are preheated (a scratch notebook in the folder starts its kernel on demand)
    # (Voilà matches these against absolute paths: deny every path whose file name is not a lesson's)
    # every pool counts against --max-kernels: each lesson's is sized to fit (fitted_pools), others get none
    c.VoilaKernelManager.kernel_pools_config = {
        "default": {"pool_size": 0},
        **{path: {"pool_size": n} for path, n in o.fitted_pools().items()},
    }
    c.VoilaKernelManager.preheat_denylist = [r"(?!.*[/\\][0-9][0-9]-[^/\\]*\.ipynb$)"]
    c.VoilaExecutor.timeout = 120
    # a busy machine (a class's pools refilling at once) delays a cell's last outputs past nbclient's 4 s: the
    # page then lacked its widgets ("Timeout waiting for IOPub output"); wait for them as long as for a cell
    c.VoilaExecutor.iopub_timeout = 60
    c.VoilaExecutor.interrupt_on_timeout = True  # a stuck cell does not stop the rest of the lesson
    c.VoilaExecutor.allow_errors = True  # the cells after a failed one still run: the page is shown whole
    c.VoilaExecutor.on_cell_error = _log_cell_error
    c.VoilaExecutor.cell_error_instruction = CELL_ERROR_NOTE
    c.VoilaExecutor.cell_timeout_instruction = CELL_ERROR_NOTE

    # kernels listen on Unix sockets in Voilà's private connection folder, not on TCP ports
    c.KernelManager.transport = "ipc"
    # a kernel that dies is not restarted blank behind its page: it is stopped (its page says so)
    c.KernelRestarter.restart_limit = 0

    mk = c.MappingKernelManager
    mk.allow_tracebacks = False
    mk.traceback_replacement_message = TRACEBACK_REPLACEMENT
    # --cull-idle 0 means never for kernels with a page connected; orphans are still culled
    mk.cull_idle_timeout = o.cull_idle or 10**9
    mk.cull_interval = max(1, min(30, (o.cull_idle or 10**9) // 3, ORPHAN_IDLE_SECONDS // 4))
    mk.cull_connected = True  # a tab left open does not hold a place for ever
    mk.cull_busy = False
    return c


def _setup_logging() -> None:
    """Our lines (INFO and up) and tornado's warnings, in one format on stderr."""
    if log.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("[musteach %(asctime)s] %(message)s", "%H:%M:%S"))
    handler.addFilter(TidyVoilaLog())
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    tornado_log = logging.getLogger("tornado")
    tornado_log.addHandler(handler)
    tornado_log.setLevel(logging.WARNING)
    tornado_log.propagate = False


def serve(options: ServeOptions) -> int:
    """Run the server until Ctrl-C or SIGTERM (then every kernel is shut down). Returns the exit status.

    Raises :class:`~musteach.rules.errors.MusError` when the address cannot be listened on.
    """
    _setup_logging()
    # the musteach template is found through JUPYTER_PATH, ahead of the installed ones
    paths = [str(SHARE_DIR), *[p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(dict.fromkeys(paths))
    # the singleton instance: jupyter_server's handlers then log through Voilà's (tidied) log
    app = MusteachVoila.instance(options)
    app.initialize([str(options.lessons_dir)])
    app.start()
    return 0
