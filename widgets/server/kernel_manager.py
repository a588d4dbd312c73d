"""The kernels of ``musteach serve``: how each starts (:class:`VisitorKernelManager`), how the pools of
preheated kernels refill without taking the CPU a loading page needs, how idle, orphaned, dead or oversized
kernels are stopped and logged (:class:`MusteachKernelManager`), and the kernel manager as one page handler
sees it (:class:`SeatingKernelManager`).

Moved out of :mod:`musteach_server.app` (issue 24 item 4).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import time
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any, Protocol, cast

from jupyter_core.utils import ensure_async
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from traitlets import default

from .classes.routes import kernel_env, kernel_started
from .gate import PREHEAT_SLOT_TIMEOUT
from .jupyter_compat import (
    KernelDeathHook,
    connections_of,
    kernel_pid,
    open_websocket_connections,
    pools_of,
    set_activity_stream,
    utcnow,
)
from .kernel import lesson_kernel_cmd
from .limits import DEFAULT_KERNEL_MEMORY_MB, PageLimits, resident_bytes
from .options import short_id

__all__ = [
    "HANDOVER_GRACE_SECONDS",
    "ORPHAN_IDLE_SECONDS",
    "PAGE_LOAD_LIMIT_SECONDS",
    "PAGE_SETTLE_SECONDS",
    "PREHEAT_CONCURRENCY",
    "PREHEAT_CONCURRENCY_IDLE",
    "TRACEBACK_REPLACEMENT",
    "MusteachKernelManager",
    "OnKernel",
    "SeatingKernelManager",
    "VisitorKernelManager",
    "stopping",
]

log = logging.getLogger("musteach.serve")

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

    async def start_kernel(  # type: ignore[override]  # jupyter_client types the sync manager's; this one is async
        self, *args: Any, **kwargs: Any
    ) -> None:
        """Start the kernel (jupyter_client passes ``kwargs`` down to ``Popen``) with its stderr thrown away:
        ipykernel writes there the tracebacks of a comm message a page made fail, and it is not the server's
        log (a page could otherwise write tracebacks into it at will)."""
        kwargs.setdefault("stderr", subprocess.DEVNULL)
        await super().start_kernel(*args, **kwargs)


#: What a kernel runs to be renewed for its visitor's next page (:meth:`MusteachKernelManager.renew`).
RENEW_CODE = "import ipywidgets as _w\n_w.Widget.close_all()\ndel _w\nget_ipython().reset(new_session=False)\n"
#: Longest a renewal may take before the page starts a kernel of its own instead.
RENEW_TIMEOUT_SECONDS = 5.0


def stopping(kernel: object) -> bool:
    """True once a shutdown of ``kernel`` (a jupyter_client kernel manager) has begun: its last page's beacon
    may start one just before the kernel is renewed for the next page, which then hung on a dead kernel (seen in
    fresh-clone runs: "renewed", then "stopped" a second later)."""
    return bool(getattr(kernel, "shutting_down", False))


class MusteachKernelManager(KernelDeathHook, AsyncMappingKernelManager):
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
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]  # jupyter_server's __init__ is unannotated
        self._tasks: set[asyncio.Future[None]] = set()  # tasks of ours, kept until done
        self._handed_over: dict[str, float] = {}  # kernel id -> time.monotonic() of its handover to a page
        self._page_loads: dict[str, float] = {}  # kernel id -> time.monotonic() its page was requested
        self._died: set[str] = set()
        #: kernels whose start has been logged and whose stop not yet: the "(N running)" of the log lines (the
        #: kernel manager's own list also holds kernels still starting, started concurrently)
        self._running: set[str] = set()
        #: called with a kernel id once it has stopped (the gate frees its place and its session's claim)
        self.on_stopped: list[Callable[[str], None]] = []
        #: what each page made its kernel hold (widgets opened), and the kernels stopped for a limit
        self.page_limits = PageLimits()
        #: resident memory (bytes) a kernel may reach before it is stopped (0: no limit)
        self.memory_limit = DEFAULT_KERNEL_MEMORY_MB * 1024 * 1024

    def kernel_or_none(self, kernel_id: str) -> ServerKernelManager | None:
        """The manager of one running kernel, or None for a kernel id that is not (or no longer) running."""
        if kernel_id not in self:
            return None
        # jupyter_client types it as its KernelManager; ours are VisitorKernelManager (kernel_manager_class)
        return cast(ServerKernelManager, self.get_kernel(kernel_id))

    def stop_for_limit(self, kernel_id: str, why: str) -> None:
        """Stop ``kernel_id`` for going over a limit (``why``); its page then says so."""
        if kernel_id in self.page_limits.limited or kernel_id not in self:
            return
        self.page_limits.stopped_for(kernel_id, why)
        self.stop_soon(kernel_id)

    def stop_soon(self, kernel_id: str, *, now: bool = True) -> None:
        """Shut ``kernel_id`` down in the background (``now``: without asking the kernel first); a failure (the
        kernel gone meanwhile) is dropped."""
        self._keep(self.shutdown_kernel(kernel_id, now=now))

    def _keep(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task, referenced until it is done (asyncio keeps only weak references)."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: a kernel stopped twice is not an error to log

    def watch_memory(self) -> None:
        """Stop the visitors' kernels whose resident memory is over :attr:`memory_limit` (pool kernels are the
        server's own: they run the lesson only)."""
        if not self.memory_limit:
            return
        for kernel_id in list(self._running):
            pid = kernel_pid(self.kernel_or_none(kernel_id))
            rss = resident_bytes(pid) if pid is not None else None
            if rss is not None and rss > self.memory_limit:
                self.stop_for_limit(kernel_id, f"it held {rss // 2**20} MiB (the limit is "
                                               f"{self.memory_limit // 2**20} MiB)")

    def kernel_died(self, kernel_id: str) -> None:
        """A kernel process died (killed, out of memory): it is not restarted blank (``restart_limit`` 0),
        but shut down at once, which frees its place and closes its page's websocket (the page then says
        the session ended)."""
        if kernel_id not in self or kernel_id in self._died:
            return
        self._died.add(kernel_id)
        self.stop_soon(kernel_id)

    async def renew(self, kernel_id: str, timeout: float = RENEW_TIMEOUT_SECONDS) -> bool:
        """Make a visitor's kernel whose page has gone fresh for the same visitor's next page (a class moving
        on: their next lesson then needs no kernel started): its widgets closed, its namespace cleared, its page
        limits and activity clock reset; the modules it imported stay, which is what makes it quick. True when
        done; False when the kernel is gone, dead or did not answer within ``timeout`` seconds."""
        kernel = self.kernel_or_none(kernel_id)
        if kernel is None or getattr(kernel, "execution_state", "") == "dead" or stopping(kernel):
            return False
        client = kernel.client()
        client.start_channels()
        try:
            msg_id = client.execute(RENEW_CODE, silent=True, store_history=False)
            deadline = time.monotonic() + timeout
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                reply = await client.get_shell_msg(timeout=left)
                if reply.get("parent_header", {}).get("msg_id") == msg_id:
                    break
            if reply.get("content", {}).get("status") != "ok":
                return False
        except Exception:  # no answer (queue.Empty), a kernel stopping meanwhile
            return False
        finally:
            client.stop_channels()
        if stopping(kernel):  # its page's beacon came while it was renewed: the page gets a kernel of its own
            return False
        self.page_limits.forget(kernel_id)
        self.hand_over(kernel_id)
        log.info("kernel %s renewed for its visitor's next page", short_id(kernel_id))
        return True

    def hand_over(self, kernel_id: str) -> None:
        """A preheated kernel was just given to a visitor: it is active from now on (it was idle in the pool),
        and its page has :data:`HANDOVER_GRACE_SECONDS` to connect before the "no page connected" rule applies."""
        kernel = self.kernel_or_none(kernel_id)
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

    async def start_kernel(  # type: ignore[override]  # jupyter_client types the sync manager's; this one is async
        self, *args: Any, **kwargs: Any
    ) -> str:
        """Start a kernel: at once for a page (a visitor waits for it), or for a pool (Voilà's ``VOILA_PREHEAT``
        in ``env``) once it gets a preheat slot (:meth:`_take_slot`), held until it has run its lesson.
        Returns its id."""
        preheat = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        key = kernel_env(self, kwargs)  # classes: the kernel's key in its environment
        held = preheat and await self._take_slot()
        try:
            kernel_id: str = await super().start_kernel(*args, **kwargs)
            kernel_started(self, key, kernel_id)
        except BaseException:
            if held:
                self._preheating -= 1
            raise
        if held:
            self._keep(self._release_after_lesson(kernel_id))
        if not preheat:
            self._page_loads[kernel_id] = time.monotonic()
        self._running.add(kernel_id)
        log.info("kernel %s started for %s (%d running)", short_id(kernel_id), "the pool" if preheat else "a page",
                 len(self._running))
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

    def _render_task_of(self, kernel_id: str) -> asyncio.Task[Any] | None:
        for pool in pools_of(self).values():
            for item in pool:
                if item.done() and not item.cancelled() and item.exception() is None:
                    result = item.result()
                    task = result.get("task")
                    if result.get("kernel_id") == kernel_id and isinstance(task, asyncio.Task):
                        return task
        return None

    def start_watching_activity(self, kernel_id: str) -> None:
        """jupyter_server's activity watch (``last_activity`` and ``execution_state`` from the kernel's IOPub
        messages, which culling relies on), reading only the headers it needs: the original deserializes
        every message with its dates, which cost the server more than relaying the message to the page."""
        kernel = self.kernel_or_none(kernel_id)
        if kernel is None:  # stopped before its watch began
            return
        kernel.reason = ""
        kernel.last_activity = utcnow()
        stream = kernel.connect_iopub()
        set_activity_stream(kernel, stream)
        untracked = frozenset(self.untracked_message_types)

        def track(msg_type: str | None) -> bool:
            return msg_type not in untracked

        def record_activity(msg_list: list[bytes]) -> None:
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
            kernel = self.kernel_or_none(kernel_id)
            last = kernel.last_activity if kernel is not None else None
            orphan = last is not None and not connections_of(self).get(kernel_id, 0)
            if orphan and self._in_handover_grace(kernel_id):
                return  # just handed to a page whose websocket is not connected yet
            if last is not None and orphan and (datetime.now(UTC) - last).total_seconds() > ORPHAN_IDLE_SECONDS:
                await self.shutdown_kernel(kernel_id)
            else:
                await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]  # unannotated upstream
        finally:
            self._culling = None

    async def shutdown_kernel(  # type: ignore[override]  # jupyter_client types the sync manager's; this one is async
        self, kernel_id: str, now: bool = False, restart: bool = False
    ) -> None:
        """Stop a kernel (``now``: without asking it first), log why in one line, free its place
        (:attr:`on_stopped`), close a page still connected to it, and refill the pools."""
        why = ""
        if kernel_id == self._culling:
            kernel = self.kernel_or_none(kernel_id)
            last = kernel.last_activity if kernel is not None else None
            idle = f"{(datetime.now(UTC) - last).total_seconds():.0f} s" if last else "a while"
            dead = kernel is not None and kernel.execution_state == "dead"
            alone = "" if connections_of(self).get(kernel_id, 0) else ", no page connected"
            why = " (culled: it had died)" if dead else f" (culled: idle for {idle}{alone})"
        elif kernel_id in self._died:
            why = " (it died: its page says the session ended)"
        elif kernel_id in self.page_limits.limited:
            why = f" (over a limit: {self.page_limits.limited[kernel_id]}; its page says so)"
        self._handed_over.pop(kernel_id, None)
        try:
            await super().shutdown_kernel(  # type: ignore[no-untyped-call]  # unannotated in jupyter_server
                kernel_id, now=now, restart=restart)
        finally:
            self._died.discard(kernel_id)
            self.page_limits.forget(kernel_id)
            for callback in self.on_stopped:
                callback(kernel_id)
        self._running.discard(kernel_id)
        log.info("kernel %s stopped%s (%d running)", short_id(kernel_id), why, len(self._running))
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


class OnKernel(Protocol):
    """What :class:`SeatingKernelManager` calls with the kernel a page gets (preheated, or started for it)."""

    def __call__(self, kernel_id: str, *, preheated: bool) -> None: ...


class SeatingKernelManager:
    """The kernel manager as one page handler sees it: reports the kernel the page gets. ``kernel_manager`` is
    Voilà's (its pools wrapped around :class:`MusteachKernelManager`; Voilà has no types)."""

    def __init__(self, kernel_manager: Any, on_kernel: OnKernel, on_pool: Callable[[], None] | None = None,
                 renewable: Callable[[], str | None] | None = None):
        self._km = kernel_manager
        self._on_kernel = on_kernel
        self._on_pool = on_pool
        self._renewable = renewable

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
        renewable = self._renewable() if self._renewable is not None else None  # the visitor's kernel, page gone
        renew = getattr(self._km, "renew", None)
        if renewable is not None and renew is not None and await renew(renewable):
            self._on_kernel(renewable, preheated=True)
            return renewable
        kernel_id: str = await ensure_async(self._km.start_kernel(*args, **kwargs))
        self._on_kernel(kernel_id, preheated=False)
        return kernel_id
