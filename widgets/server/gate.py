"""The places of a ``musteach serve``: :class:`KernelGate` counts every kernel, preheated ones included, and
refuses a page beyond ``--max-kernels`` (issue 26: its count can never drift from the kernels that exist).

Moved out of :mod:`musteach_server.app` (issue 24 item 4); ``musteach_server.app.KernelGate`` still names it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from jupyter_core.utils import ensure_async

from .admission import Admission
from .guard import Sessions
from .jupyter_compat import pools_of

__all__ = ["ADMIT_WAIT_SECONDS", "CLASS_HOLD_SECONDS", "COLD_WAIT_GUESS", "PREHEAT_SLOT_TIMEOUT", "KernelGate"]

#: Seconds a page waits at most for a pool kernel still starting before it is given up on.
PREHEAT_SLOT_TIMEOUT = 120
#: The first guess of a cold page's wait (seconds), before one has been measured.
COLD_WAIT_GUESS = 15.0
#: Longest a page waits for a place about to free (a pool kernel starting, a page gone in its grace).
ADMIT_WAIT_SECONDS = 30.0
#: A class visitor's kernel whose page has gone is kept this many seconds (past ``--page-grace``) for their next
#: lesson (renewed for it: no kernel to start), unless a page is waiting for a place.
CLASS_HOLD_SECONDS = 45.0

log = logging.getLogger("musteach.serve")


def _short(kernel_id: str) -> str:
    return kernel_id[:8]


class KernelGate:
    """Counts every kernel, preheated ones included, and refuses a page beyond ``max_kernels``.

    A page request is *admitted* (a place is reserved) before its kernel exists, then *seated* with its
    kernel id and bound to the visitor's session (:class:`~musteach_server.guard.Sessions`); a kernel frees
    its place when it stops (page closed, culled, died, server stopping). A page for a lesson whose pool
    holds a kernel takes that one (no new place); when every place is taken, a spare preheated kernel of
    another lesson is stopped to make room.
    """

    def __init__(self, kernel_manager: Any, max_kernels: int, sessions: Sessions | None = None,
                 admission: Admission | None = None):
        self.kernel_manager = kernel_manager
        self.max_kernels = max_kernels
        self.sessions = sessions or Sessions()
        self.admission = admission or Admission(max_kernels)
        self.visitors: dict[str, str] = {}  # kernel id -> lesson path
        self.admitting = 0
        #: pages waiting in :meth:`admit` for a place to free
        self.waiting_for_room = 0
        #: pages admitted on a pool's kernel that Voilà has not handed them yet (pool name -> pages): a pool of
        #: one kernel admits one page, the next one is admitted under the cap (it starts a kernel of its own)
        self.claims: dict[str, int] = {}
        #: seconds a page whose kernel was started for it took (a moving average), what a cold page announces
        self.cold_seconds = COLD_WAIT_GUESS
        stopped = getattr(kernel_manager, "on_stopped", None)
        if isinstance(stopped, list):
            stopped.append(self.stopped)

    def stopped(self, kernel_id: str) -> None:
        """A kernel stopped: its place is free and its session's claim on it ends."""
        self.visitors.pop(kernel_id, None)
        self.sessions.release(kernel_id)
        self.admission.release(kernel_id)

    def pools(self) -> dict[str, list[Any]]:
        """Voilà's pools of preheated kernels (lesson path -> futures), empty without preheating."""
        return pools_of(self.kernel_manager)

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

    def pool_key(self, lesson: str) -> str | None:
        """The name of the pool holding a preheated kernel for ``lesson``, or None (its page starts one)."""
        return self._pool_key(lesson)

    def _pool_key(self, lesson: str) -> str | None:
        for name, pool in self.pools().items():
            if len(pool) > self.claims.get(name, 0) and (name == lesson or name.endswith("/" + lesson)):
                return name
        return None

    def unclaim(self, name: str | None) -> None:
        """A page admitted on a kernel of pool ``name`` (:meth:`pool_key` before :meth:`admit`) was handed it,
        or got none (each claim is ended once)."""
        if name is not None and self.claims.get(name, 0) > 0:
            self.claims[name] -= 1

    async def admit(self, lesson: str = "", wait: float = ADMIT_WAIT_SECONDS) -> bool:
        """Reserve a place for a page of ``lesson`` being opened; False when every place is taken. When the room
        is full, a spare preheated kernel (of another lesson) is stopped to make room; while none is ready but
        one will be soon (a pool kernel still starting, or a page gone and about to be released after its
        grace), the page waits for it, up to ``wait`` seconds, instead of getting the busy page at once."""
        name = self._pool_key(lesson)
        if name is not None:  # it takes a preheated kernel: no new one (claimed until Voilà hands it over)
            self.claims[name] = self.claims.get(name, 0) + 1
            self.admitting += 1
            return True
        self.admitting += 1  # reserved at once, so that no pool refills into its place
        self.waiting_for_room += 1  # (kernels held for a class's next lesson are released at once)
        try:
            return await self._wait_for_room(wait)
        finally:
            self.waiting_for_room -= 1

    def hold_for_renewal(self, kernel_id: str, gone_for: float) -> bool:
        """Whether a kernel whose page went away ``gone_for`` seconds ago (past the grace) is kept a little longer
        for its visitor's next lesson: a class visitor's (admitted with a class link: the class moves on
        together, each visitor's next page renews their own kernel instead of starting one), for at most
        :data:`CLASS_HOLD_SECONDS`, and never while a page waits for a place."""
        bound = self.admission.kernels.get(kernel_id)
        return bool(bound and bound[2]) and gone_for < CLASS_HOLD_SECONDS and not self.waiting_for_room

    async def _wait_for_room(self, wait: float) -> bool:
        deadline = time.monotonic() + wait
        while True:
            if self.total() <= self.max_kernels:
                return True
            spare = self._spare_kernel()
            if spare is not None:
                log.info("the room is full: stopping a spare preheated kernel %s to make room", _short(spare))
                try:
                    await ensure_async(self.kernel_manager.shutdown_kernel(spare, now=True))
                except Exception:  # already gone
                    pass
                return True
            left = deadline - time.monotonic()
            pending = [item for pool in self.pools().values() for item in pool if not item.done()]
            if left <= 0 or not (pending or self.sessions.gone):
                self.admitting = max(0, self.admitting - 1)
                return False
            if pending:  # a pool kernel still starting: take its place once it is ready
                await asyncio.wait(pending[:1], timeout=min(left, 1.0))
            else:  # a page gone is released after its grace
                await asyncio.sleep(min(left, 0.5))

    def _spare_kernel(self) -> str | None:
        """A preheated kernel ready in the pool that holds the most."""
        for name, pool in sorted(self.pools().items(), key=lambda kv: -len(kv[1])):
            for item in pool[self.claims.get(name, 0):]:  # not one a page admitted has claimed
                if item.done() and not item.cancelled() and item.exception() is None:
                    return str(item.result()["kernel_id"])
        return None

    def seat(self, kernel_id: str, lesson: str) -> None:
        """The admitted page got its kernel (each :meth:`admit` is followed by one ``seat`` or ``abandon``;
        the count never goes below the pages being opened)."""
        self.admitting = max(0, self.admitting - 1)
        self.visitors[kernel_id] = lesson

    def set_aside(self, kernel_id: str) -> None:
        """A visitor's kernel whose page has gone is kept for the same visitor's next page (renewed rather than
        stopped): it leaves the count until that page is admitted, which counts it again (each ``set_aside`` is
        followed by an :meth:`admit`; the kernel is stopped if that page gets another one)."""
        self.visitors.pop(kernel_id, None)
        self.sessions.release(kernel_id)
        self.admission.release(kernel_id)

    def abandon(self) -> None:
        """The admitted page ended without a kernel (not found, error)."""
        self.admitting = max(0, self.admitting - 1)
