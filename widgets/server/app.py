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
import json
import logging
import os
import re
import shutil
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
from jupyter_server._tz import utcnow
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from jupyter_server.utils import url_path_join
from tornado.ioloop import IOLoop, PeriodicCallback
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
    busy_page,
    cookies_needed_page,
    index_page,
    language_link,
    left_page,
    lesson_bar,
    lesson_link,
    not_found_page,
    open_yourself_page,
    too_many_open_page,
    too_many_opening_page,
)

from .classes.routes import class_handlers, install_classes, kernel_env, kernel_started, seat_learner
from .guard import (
    SECURITY_HEADERS,
    SESSION_COOKIE,
    KernelRoute,
    SecurityHeaders,
    Sessions,
    client_address,
    fetch_refusal,
    is_https,
    kernel_route,
    new_session_id,
)
from .kernel import lesson_kernel_cmd
from .lessons import Lesson, lang_of, preferred_language
from .templates import share_compiled_templates

__all__ = [
    "ALLOWED_MESSAGE_TYPES",
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
PREHEAT_SLOT_TIMEOUT = 120
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
    per_address: int = 0
    waiting_per_address: int = 4
    connect_timeout: int = 25
    trusted_proxies: frozenset[str] = frozenset()
    secret: bytes | None = None
    base_url: str = "/"
    database: str | None = None  # classes: a SQLAlchemy URL (None: SQLite in the user's data folder)

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages served: English (``lessons``), then those of ``translations``."""
        return (SOURCE_LANG, *self.translations)

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


class VisitorConnection(ZMQChannelsWebsocketConnection):
    """The websocket between a page and its kernel, minus the kernel's stderr (tracebacks of failed comm
    handlers and warnings are written there, and a page never shows them: the cells were run server-side),
    and dropping malformed frames with a log line instead of a traceback."""

    def handle_incoming_message(self, incoming_msg: Any) -> None:
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
            elif age < PAGE_SETTLE_SECONDS or not self._kernel_connections.get(kernel_id):
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
        otherwise) and for no page to be loading (:meth:`pages_loading`); give up waiting (False) as soon as
        a visitor has taken this pool entry (Voilà's pool task is the current task): a visitor waits for it,
        so it starts at once."""
        me = asyncio.current_task()
        while True:
            busy = any(self._kernel_connections.values())
            slots = PREHEAT_CONCURRENCY if busy else PREHEAT_CONCURRENCY_IDLE
            if self._preheating < slots and not self.pages_loading():
                self._preheating += 1
                return True
            if not any(me in pool for pool in getattr(self, "_pools", {}).values()):
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
        for pool in getattr(self, "_pools", {}).values():
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
        kernel._activity_stream = kernel.connect_iopub()
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

        kernel._activity_stream.on_recv(record_activity)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        self._culling = kernel_id
        try:
            kernel = self._kernels.get(kernel_id)
            last = getattr(kernel, "last_activity", None)
            orphan = kernel is not None and last is not None and not self._kernel_connections.get(kernel_id, 0)
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
            alone = "" if self._kernel_connections.get(kernel_id, 0) else ", no page connected"
            why = " (culled: it had died)" if dead else f" (culled: idle for {idle}{alone})"
        elif kernel_id in self._died:
            why = " (it died: its page says the session ended)"
        self._handed_over.pop(kernel_id, None)
        try:
            await ensure_async(super().shutdown_kernel(kernel_id, now=now, restart=restart))
        finally:
            self._died.discard(kernel_id)
            for callback in self.on_stopped:
                callback(kernel_id)
        self._running.discard(kernel_id)
        log.info("kernel %s stopped%s (%d running)", _short(kernel_id), why, len(self._running))
        # a page still connected to it (culled with its tab open) is told by its websocket closing
        for conn in list(ZMQChannelsWebsocketConnection._open_sockets):
            if getattr(conn, "kernel_id", None) == kernel_id and conn.websocket_handler is not None:
                conn.websocket_handler.close()
        self._top_up_pools()

    def _top_up_pools(self) -> None:
        """A place was freed: refill the pools a class emptied (Voilà refills only when a kernel is taken).
        Nothing happens while the server stops (Voilà empties ``_pools`` first)."""
        pools = getattr(self, "_pools", None)
        if not pools or not hasattr(self, "fill_if_needed"):
            return
        config = getattr(self, "kernel_pools_config", {})
        for name, pool in list(pools.items()):
            if len(pool) < config.get(name, config.get("default", {})).get("pool_size", 0):
                self.fill_if_needed(notebook_name=name)


class KernelGate:
    """Counts every kernel, preheated ones included, and refuses a page beyond ``max_kernels``.

    A page request is *admitted* (a place is reserved) before its kernel exists, then *seated* with its
    kernel id and bound to the visitor's session (:class:`~musteach_server.guard.Sessions`); a kernel frees
    its place when it stops (page closed, culled, died, server stopping). A page for a lesson whose pool
    holds a kernel takes that one (no new place); when every place is taken, a spare preheated kernel of
    another lesson is stopped to make room.
    """

    def __init__(self, kernel_manager: Any, max_kernels: int, sessions: Sessions | None = None):
        self.kernel_manager = kernel_manager
        self.max_kernels = max_kernels
        self.sessions = sessions or Sessions()
        self.visitors: dict[str, str] = {}  # kernel id -> lesson path
        self.admitting = 0
        stopped = getattr(kernel_manager, "on_stopped", None)
        if isinstance(stopped, list):
            stopped.append(self.stopped)

    def stopped(self, kernel_id: str) -> None:
        """A kernel stopped: its place is free and its session's claim on it ends."""
        self.visitors.pop(kernel_id, None)
        self.sessions.release(kernel_id)

    def pools(self) -> dict[str, list]:
        """Voilà's pools of preheated kernels (lesson path -> futures), empty without preheating."""
        return getattr(self.kernel_manager, "_pools", {}) or {}

    def pooled(self) -> int:
        """Kernels in the pools, starting or ready."""
        return sum(len(p) for p in self.pools().values())

    def in_use(self) -> int:
        """Places taken by visitors: their running kernels plus pages being opened."""
        for kernel_id in [k for k in self.visitors if k not in self.kernel_manager]:
            del self.visitors[kernel_id]
        return len(self.visitors) + self.admitting

    def total(self) -> int:
        """Every kernel counted against ``max_kernels``: visitors' ones, pages being opened, the pools'."""
        return self.in_use() + self.pooled()

    def _pool_key(self, lesson: str) -> str | None:
        for name, pool in self.pools().items():
            if pool and (name == lesson or name.endswith("/" + lesson)):
                return name
        return None

    async def admit(self, lesson: str = "") -> bool:
        """Reserve a place for a page of ``lesson`` being opened; False when every place is taken."""
        if self._pool_key(lesson) is not None:  # it takes a preheated kernel: no new one
            self.admitting += 1
            return True
        if self.total() < self.max_kernels:
            self.admitting += 1
            return True
        self.admitting += 1  # reserved before the spare stops, so that no pool refills into its place
        spare = self._spare_kernel()
        if spare is None:  # only kernels still starting in the pools: wait for one, then take its place
            pending = [item for pool in self.pools().values() for item in pool if not item.done()]
            if pending:
                await asyncio.wait(pending[:1], timeout=PREHEAT_SLOT_TIMEOUT)
                spare = self._spare_kernel()
        if spare is None:
            self.admitting -= 1
            return False
        log.info("the room is full: stopping a spare preheated kernel %s to make room", _short(spare))
        try:
            await ensure_async(self.kernel_manager.shutdown_kernel(spare, now=True))
        except Exception:  # already gone
            pass
        return True

    def _spare_kernel(self) -> str | None:
        """A preheated kernel ready in the pool that holds the most."""
        for _, pool in sorted(self.pools().items(), key=lambda kv: -len(kv[1])):
            for item in pool:
                if item.done() and not item.cancelled() and item.exception() is None:
                    return str(item.result()["kernel_id"])
        return None

    def seat(self, kernel_id: str, lesson: str) -> None:
        """The admitted page got its kernel."""
        self.admitting -= 1
        self.visitors[kernel_id] = lesson

    def abandon(self) -> None:
        """The admitted page ended without a kernel (not found, error)."""
        self.admitting -= 1


class _SeatingKernelManager:
    """The kernel manager as one page handler sees it: reports the kernel the page gets."""

    def __init__(self, kernel_manager: Any, on_kernel: Any):
        self._km = kernel_manager
        self._on_kernel = on_kernel

    def __getattr__(self, name: str) -> Any:
        return getattr(self._km, name)

    def __contains__(self, kernel_id: str) -> bool:
        return kernel_id in self._km

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
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
    """``/logout`` (Jupyter's own page would show): forgets the visitor's session cookie and says so, in the
    visitor's language; their progress stays in their browser."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def get(self) -> None:
        lang = request_lang(self.request, self.settings["musteach_languages"], self.base_url)
        self.clear_cookie(SESSION_COOKIE, path=self.base_url)
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
        return _SeatingKernelManager(self.settings["kernel_manager"], self._on_kernel)

    def _on_kernel(self, kernel_id: str, *, preheated: bool) -> None:
        self.settings["musteach_gate"].seat(kernel_id, self.path_args[0] if self.path_args else "")
        sessions = self.settings["musteach_gate"].sessions
        sessions.bind(kernel_id, self._session or "", self._address)
        self._seated, self._preheated = kernel_id, preheated
        seat_learner(self, kernel_id)  # classes: the kernel's records go to the page's learner

    _session: str | None = None
    _address = ""

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
        if not path or not path.lower().endswith(".ipynb"):
            await super().get(path)  # Voilà redirects to /voila/files/, where the allowlist decides
            return
        if not (self.settings["musteach_lessons_dir"] / path).is_file():
            raise tornado.web.HTTPError(404)  # no kernel, no session: the not-found page
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
        if sessions.too_many_waiting(self._address):
            log.warning("refused %s: %s already holds %d kernels whose page has not connected", path, self._who(),
                        sessions.waiting_per_address)
            self._plain(429, too_many_opening_page(RETRY_AFTER_SECONDS, self._lang), retry=RETRY_AFTER_SECONDS)
            return
        if sessions.address_full(self._address, self._session):
            log.warning("refused %s: %s already holds %d kernels", path, self._who(), sessions.per_address)
            self._plain(429, too_many_open_page(RETRY_AFTER_SECONDS, self._lang), retry=RETRY_AFTER_SECONDS)
            return
        for old in sessions.to_release(self._session):
            log.info("a visitor opened more than %d lessons: their oldest kernel %s is released",
                     sessions.per_session, _short(old))
            try:
                await ensure_async(self.settings["kernel_manager"].shutdown_kernel(old, now=True))
            except Exception:  # gone meanwhile
                sessions.release(old)
        if not await gate.admit(path):
            log.warning("busy: refused a visitor to %s (%d of %d places taken)", path, gate.total(), gate.max_kernels)
            self.set_status(503)
            self.set_header("Retry-After", str(RETRY_AFTER_SECONDS))
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.set_header("Content-Language", self._lang)
            self.finish(busy_html(self.base_url, gate.max_kernels, self._lang))
            return
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
        try:
            await super().get(path)
        finally:
            if self._seated is None:
                gate.abandon()
            else:
                sessions.page_sent(self._seated)
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

    def _who(self) -> str:
        return self._address or client_address(self.request.remote_ip or "", self.request.headers.get(
            "X-Forwarded-For"), self.settings["musteach_trusted"])

    def _visitor_session(self) -> bool:
        """The visitor's session (from its signed cookie), or a first visit that sets one and comes back
        (a redirect to the same address; no kernel is started for a client that keeps no cookie)."""
        trusted = self.settings["musteach_trusted"]
        self._address = client_address(self.request.remote_ip or "", self.request.headers.get("X-Forwarded-For"),
                                       trusted)
        session = session_of(self.request, self.settings["musteach_secret"])
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
        signed = tornado.web.create_signed_value(self.settings["musteach_secret"], SESSION_COOKIE, new_session_id())
        self.set_cookie(SESSION_COOKIE, signed.decode("ascii"), httponly=True, samesite="Lax", secure=https,
                        path=self.base_url)
        sep = "&" if clean_args else "?"
        self.redirect(here + f"{sep}{COOKIE_PROBE}=1", status=303)
        return False


#: The query argument marking the redirect of a first visit (the session cookie was just set).
COOKIE_PROBE = "musteach-cookie"


def session_of(request: Any, secret: bytes) -> str | None:
    """The session id of a request's signed session cookie, or None (no cookie, or not signed by us)."""
    morsel = request.cookies.get(SESSION_COOKIE)
    if morsel is None:
        return None
    value = tornado.web.decode_signed_value(secret, SESSION_COOKIE, morsel.value, max_age_days=2)
    return value.decode("ascii", "replace") if value else None


class SessionStatusHandler(JupyterHandler):
    """``/musteach/api/session/<kernel>``: whether the visitor's kernel still runs (200), has ended (410) or
    is not theirs (403). The page asks when its websocket closes, to say "this session ended"."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def check_xsrf_cookie(self) -> None:
        pass

    def get(self, kernel_id: str) -> None:
        gate: KernelGate = self.settings["musteach_gate"]
        session = session_of(self.request, self.settings["musteach_secret"])
        if gate.sessions.owns(session, kernel_id) and kernel_id not in self.settings["kernel_manager"]:
            gate.stopped(kernel_id)
        status = gate.sessions.status(session, kernel_id)
        self.set_status(status)
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"running": status == 200, "ended": status == 410}))


def _log_request(handler: tornado.web.RequestHandler) -> None:
    """Tornado's access log, reduced to refusals: a line per 4xx/5xx answer (the busy page logs itself)."""
    status = handler.get_status()
    if status >= 400 and status != 503:
        log.warning("refused %s %s: %d %s", handler.request.method, handler.request.uri, status, handler._reason)


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
        return gate.sessions.owns(session_of(request, self.settings["musteach_secret"]), kernel_id)


_REQUEST_LINE = re.compile(r"^\d{3} (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) ")


class _TidyVoilaLog(logging.Filter):
    """Keeps Voilà's, jupyter_server's and tornado's warnings readable: rewrites the refused-message line,
    drops the culling line (the kernel manager logs its own), jupyter_server's line per refused request
    (:func:`_log_request` logs one) and the "not trusted" notice (lessons are not signed)."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        if msg.startswith(("Culling ", "wrote error:", "The websocket_ping_timeout")) or msg.endswith(" is not trusted"):
            return False
        if _REQUEST_LINE.match(msg):  # jupyter_server's own line for a refused request: ours says it
            return False
        if msg.startswith("Error at server while executing cell"):  # Voilà logs the whole cell and traceback
            err = record.exc_info[1] if record.exc_info else None
            what = f"{getattr(err, 'ename', 'Error')}: {getattr(err, 'evalue', '')}".strip(": ")
            record.msg, record.args = "a lesson cell failed (its page shows a note instead): %s", (what,)
            record.exc_info, record.exc_text = None, None
        if msg.startswith("Received message of type") and "not allowed" in msg:
            kind = msg.split('"')[1] if '"' in msg else "?"
            record.msg, record.args = "refused a page's %s message (only widget messages are allowed)", (kind,)
        return True


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

    def load_config_file(self, *args: Any, **kwargs: Any) -> None:
        super().load_config_file(*args, **kwargs)
        self.update_config(self.forced_config)

    def initialize(self, argv: list[str] | None = None) -> None:
        super().initialize(argv)
        for handler in self.log.handlers:
            handler.addFilter(_TidyVoilaLog())

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
        self.app.add_handlers(".*$", self.init_handlers())
        self.listen()

    def init_settings(self) -> dict:
        settings = super().init_settings()
        self.kernel_manager.allowed_message_types = list(ALLOWED_MESSAGE_TYPES)
        o = self.musteach
        self.gate = KernelGate(self.kernel_manager, o.max_kernels, Sessions(o.per_session, o.per_address,
                                                                         o.waiting_per_address))
        self._cap_pool_refills()
        settings.update(
            musteach_gate=self.gate,
            musteach_secret=o.secret or os.urandom(32),
            musteach_trusted=o.trusted_proxies,
            musteach_lessons=o.lessons,
            musteach_translations=o.translations,
            musteach_languages=o.languages,
            musteach_lessons_dir=Path(o.lessons_dir),
            websocket_max_message_size=MAX_MESSAGE_BYTES,
            log_function=_log_request,
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
            pool = len(km._pools.get(notebook_name, []))
            assert gate is not None
            wanted = min(entry.get("pool_size", 0), pool + max(0, cap - gate.total()))
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
        languages = "|".join(re.escape(lang) for lang in self.musteach.languages)
        out.append((url_path_join(self.server_url, rf"/({languages})/?"), IndexHandler))
        return out

    def listen(self) -> None:
        try:
            self.app.listen(self.port, self.ip)
        except OSError as e:
            shutil.rmtree(self.connection_dir, ignore_errors=True)
            raise MusError(f"cannot listen on {self.ip}:{self.port}: {e.strerror or e}") from None
        o = self.musteach
        shown = "localhost" if self.ip in ("127.0.0.1", "0.0.0.0", "localhost", "::", "::1") else self.ip
        print(f"musteach: serving {len(o.lessons)} lessons on http://{shown}:{self.port}/", flush=True)
        for lang, lessons in o.translations.items():
            print(f"musteach: and {len(lessons)} lessons in {lang} on http://{shown}:{self.port}/{lang}/", flush=True)
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
        try:
            self.ioloop.start()
        except KeyboardInterrupt:
            pass
        finally:
            log.info("stopping: shutting down %s", count(len(self.kernel_manager.list_kernel_ids()), "kernel"))
            self.stop()


    def _release_unconnected(self) -> None:
        """Stop the kernels whose page has not connected within ``--connect-timeout`` seconds (a page load
        that never ran its page, or a flood of them): their places are free again."""
        for kernel_id in self.gate.sessions.overdue(self.musteach.connect_timeout):
            self.gate.sessions.connected(kernel_id)  # asked once
            log.warning("kernel %s released: its page did not connect within %d s", _short(kernel_id),
                        self.musteach.connect_timeout)
            task = asyncio.ensure_future(ensure_async(self.kernel_manager.shutdown_kernel(kernel_id, now=True)))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    def preheated(self) -> tuple[int, int]:
        """(kernels preheated and done running their lesson, kernels the pools should hold)."""
        pools = getattr(self.kernel_manager, "_pools", {})
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
                  "cell_error": bar.cell_error},
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
        return {**page_config, "musteachLang": lang_of(path, o.languages)}

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
    handler.addFilter(_TidyVoilaLog())
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
