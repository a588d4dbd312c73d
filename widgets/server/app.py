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

The jobs live in modules of their own (issue 24 item 4); this one builds the application from them:

* :mod:`.options` — what was asked (:class:`ServeOptions`) and how the pools fit under the cap;
* :mod:`.kernel_manager` — starting, preheating, culling and stopping kernels;
* :mod:`.websocket` — the page's websocket: allowed messages, frame checks, connect and leave;
* :mod:`.pages` — the server's plain HTML pages; :mod:`.cookies` — what a request's cookies say;
* :mod:`.page_handlers`, :mod:`.lesson_handler`, :mod:`.api_handlers` — the handlers;
* :mod:`.request_guard` — the checks before any handler; :mod:`.voila_config` — Voilà's configuration.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from jupyter_server import DEFAULT_STATIC_FILES_PATH
from jupyter_server.utils import url_path_join
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop, PeriodicCallback
from tornado.netutil import bind_unix_socket
from voila.app import Voila
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from musteach.rules.errors import MusError
from musteach.teach.pages import CELL_ERROR_NOTE

from .admission import ADMIT_PATH, Admission
from .api_handlers import PlacesHandler, SessionStatusHandler
from .classes.routes import class_handlers, install_classes
from .gate import KernelGate
from .guard import SecurityHeaders, Sessions
from .jupyter_compat import connections_of, pools_of
from .kernel_manager import (
    HANDOVER_GRACE_SECONDS,
    ORPHAN_IDLE_SECONDS,
    PAGE_LOAD_LIMIT_SECONDS,
    PAGE_SETTLE_SECONDS,
    MusteachKernelManager,
    VisitorKernelManager,
)
from .lesson_handler import LessonHandler
from .logs import TidyVoilaLog, log_request
from .options import ServeOptions, count, pools_summary, short_id
from .ownership import CLAIM_PATH, ClaimHandler
from .page_handlers import AdmitHandler, IndexHandler, LeftHandler, NotFoundHandler
from .pages import LANG_COOKIE, RETRY_AFTER_SECONDS, busy_html, index_html, not_found_html
from .proxies import proxy_check
from .request_guard import GuardedApplication, is_traversal
from .templates import share_compiled_templates
from .voila_config import SHARE_DIR, TEMPLATE, build_config
from .websocket import ALLOWED_MESSAGE_TYPES, MAX_MESSAGE_BYTES, VisitorWebsocketHandler

__all__ = [
    "ALLOWED_MESSAGE_TYPES",
    "CELL_ERROR_NOTE",
    "EXTRA_HANDLERS",
    "HANDOVER_GRACE_SECONDS",
    "LANG_COOKIE",
    "MAX_MESSAGE_BYTES",
    "ORPHAN_IDLE_SECONDS",
    "PAGE_LOAD_LIMIT_SECONDS",
    "PAGE_SETTLE_SECONDS",
    "RETRY_AFTER_SECONDS",
    "SHARE_DIR",
    "TEMPLATE",
    "KernelGate",
    "MusteachKernelManager",
    "MusteachVoila",
    "ServeOptions",
    "VisitorKernelManager",
    "VisitorWebsocketHandler",
    "build_config",
    "busy_html",
    "index_html",
    "is_traversal",
    "not_found_html",
    "serve",
]

log = logging.getLogger("musteach.serve")

#: Routes other packages add to the server (class mode's pages...): ``(pattern, handler class[, kwargs])``,
#: the pattern relative to the base URL (``r"/musteach/class/(.*)"``). Appended before ``serve()`` runs.
EXTRA_HANDLERS: list[tuple[Any, ...]] = []


# ----- the application --------------------------------------------------------------------------


class MusteachVoila(Voila):  # type: ignore[misc]  # Voilà ships no type information: its classes are Any
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
        self.app = GuardedApplication(**settings)
        self.app.settings.update(self.tornado_settings)
        # jupyter_server's error pages call static_url(): give them a static path (set after the application
        # is built, so that tornado adds no /static/ route for it)
        self.app.settings.setdefault("static_path", DEFAULT_STATIC_FILES_PATH)
        self.app.add_transform(SecurityHeaders)
        # a trusted proxy on this machine proves itself with the proxy key (another local client could forge)
        self.app.add_transform(proxy_check(self.app.settings["musteach_secret"], self.musteach.trusted))
        self.app.add_handlers(".*$", self.init_handlers())
        self.listen()

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
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

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = super().init_handlers()
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
        if self.gate is None:  # not started
            return
        sessions = self.gate.sessions
        connections = connections_of(self.kernel_manager)
        now = time.monotonic()
        for kernel_id in sessions.gone_for(self.musteach.page_grace):
            if connections.get(kernel_id):
                sessions.connected(kernel_id)
                continue
            gone_for = now - sessions.gone.get(kernel_id, now)
            if self.gate.hold_for_renewal(kernel_id, gone_for):
                continue  # a class visitor's: kept for their next lesson while no page waits for a place
            sessions.forget_gone(kernel_id)
            log.info("kernel %s released: its page went away %d s ago and did not come back", short_id(kernel_id),
                     gone_for)
            self.kernel_manager.stop_soon(kernel_id)
        for kernel_id in sessions.overdue(self.musteach.connect_timeout):
            sessions.connected(kernel_id)  # asked once
            log.warning("kernel %s released: its page did not connect within %d s", short_id(kernel_id),
                        self.musteach.connect_timeout)
            self.kernel_manager.stop_soon(kernel_id)

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
