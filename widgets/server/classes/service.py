"""The server's side of class mode, without tornado: which kernel is which, whose records they are, and the
queue of records made while the database is unavailable.

* Every lesson kernel gets a secret *kernel key* in its environment when it starts (:meth:`ClassService.
  kernel_env`); the key is the only thing the kernel proves with (it never holds the database's address).
* When a page is handed its kernel (preheated or started for it), the server binds the kernel to the learner
  of the page's class cookie (:meth:`ClassService.seat`): a kernel never names its learner.
* A record that arrives (:meth:`ClassService.file`) is checked (:mod:`.records`), then committed at once under
  the bound learner and their own class; when the database is unavailable it waits in :attr:`ClassService.
  queue` and :meth:`ClassService.flush` writes it when the database is back (the server calls it every few
  seconds and before each new record).
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
from collections import deque
from dataclasses import dataclass
from enum import Enum

from sqlalchemy.exc import DBAPIError, OperationalError

from musteach.rules.errors import MusError

from .db import ClassStore, LearnerInfo, digest
from .records import ValidRecord, parse_record

__all__ = ["KERNEL_KEY_ENV", "RECORD_URL_ENV", "SERVER_SECRETS", "ClassService", "Filed", "Outcome", "is_server_secret"]

log = logging.getLogger("musteach.serve")

#: The environment variable holding a lesson kernel's key.
KERNEL_KEY_ENV = "MUSTEACH_KERNEL_KEY"
#: The environment variable holding the address of the server's record route, as the kernel reaches it.
RECORD_URL_ENV = "MUSTEACH_RECORD_URL"
#: Most records kept while the database is unavailable (the oldest are dropped beyond, with a log line).
QUEUE_LIMIT = 100_000


#: Environment variables a kernel never inherits: the cookie-signing secret, and the database's address and
#: credentials (libpq's ``PG*`` variables, ``DATABASE_URL``).
SERVER_SECRETS = ("MUSTEACH_SECRET", "DATABASE_URL", "MUSTEACH_TEACHER_PASSWORD")


def is_server_secret(name: str) -> bool:
    """Whether the environment variable ``name`` is one a kernel must not hold (:data:`SERVER_SECRETS`, ``PG*``)."""
    return name in SERVER_SECRETS or name.startswith("PG")


class Outcome(Enum):
    """What became of a record sent by a kernel, with the HTTP status the route answers."""

    STORED = 201
    DUPLICATE = 200  # the learner already has a record with this id
    QUEUED = 202  # the database is unavailable: written when it returns
    NO_CLASS = 204  # the kernel's learner is in no class: nothing is kept
    BAD = 400  # malformed, or too big
    UNKNOWN_KERNEL = 403  # no kernel has this key
    LEFT = 410  # the learner left the class


@dataclass(frozen=True)
class Filed:
    """An outcome and, for a refused record, why (the log says it; the kernel gets it back)."""

    outcome: Outcome
    why: str = ""


class ClassService:
    """Kernel keys, kernel-to-learner bindings and the record queue over one :class:`ClassStore`. Thread-safe
    (the record route writes from a worker thread)."""

    def __init__(self, store: ClassStore, record_url: str = ""):
        self.store = store
        self.record_url = record_url
        self._keys: dict[str, str] = {}  # digest of a kernel key -> kernel id ("" until the kernel has its id)
        self._bound: dict[str, str] = {}  # kernel id -> digest of its learner's class cookie
        self._learners: dict[str, LearnerInfo] = {}  # digest of a class cookie -> learner (cache)
        self.queue: deque[tuple[str, ValidRecord]] = deque()
        self._lock = threading.RLock()

    # ----- kernels ----------------------------------------------------------------------------------

    def kernel_env(self, env: dict[str, str] | None) -> tuple[str, dict[str, str]]:
        """A fresh kernel key and the environment to start a kernel with (``env``, else the server's own, minus
        the server's secrets (:func:`is_server_secret`), plus :data:`KERNEL_KEY_ENV` and :data:`RECORD_URL_ENV`)."""
        key = secrets.token_urlsafe(24)
        with self._lock:
            self._keys[digest(key)] = ""
        out = {k: v for k, v in (os.environ if env is None else env).items() if not is_server_secret(k)}
        out[KERNEL_KEY_ENV] = key
        out[RECORD_URL_ENV] = self.record_url
        return key, out

    def kernel_started(self, key: str, kernel_id: str) -> None:
        """The kernel started with ``key`` has the id ``kernel_id``."""
        with self._lock:
            self._keys[digest(key)] = kernel_id

    def kernel_stopped(self, kernel_id: str) -> None:
        """Forget a kernel that stopped: its key proves nothing any more."""
        with self._lock:
            for d in [d for d, k in self._keys.items() if k == kernel_id]:
                del self._keys[d]
            self._bound.pop(kernel_id, None)

    def kernel_of(self, key: str) -> str | None:
        """The id of the running kernel whose key is ``key``, or None (forged, or stopped)."""
        with self._lock:
            return self._keys.get(digest(key)) or None

    def seat(self, kernel_id: str, learner_key: str | None) -> None:
        """A page was handed ``kernel_id``: bind it to the learner of the page's class cookie (None: no
        learner; any earlier binding ends)."""
        with self._lock:
            if learner_key:
                self._bound[kernel_id] = digest(learner_key)
            else:
                self._bound.pop(kernel_id, None)

    def learner_of_kernel(self, kernel_id: str) -> LearnerInfo | None:
        """The learner bound to a kernel, or None (no class cookie, or they left). Reads the database."""
        with self._lock:
            d = self._bound.get(kernel_id)
            known = self._learners.get(d) if d else None
        if d is None or known is not None:
            return known
        learner = self.store.learner_by_key_digest(d)
        if learner is not None:
            with self._lock:
                self._learners[d] = learner
        return learner

    def learner(self, learner_key: str | None) -> LearnerInfo | None:
        """The learner whose class cookie holds ``learner_key``, or None."""
        return self.store.learner_by_key(learner_key) if learner_key else None

    def forget_learner(self, learner_key: str) -> None:
        """A learner left: their kernels' records are no longer kept."""
        d = digest(learner_key)
        with self._lock:
            self._learners.pop(d, None)
            for kernel_id in [k for k, v in self._bound.items() if v == d]:
                del self._bound[kernel_id]

    # ----- records ----------------------------------------------------------------------------------

    def file(self, kernel_key: str, body: bytes) -> Filed:
        """A record body sent by the kernel holding ``kernel_key``: checked, then committed under its
        learner (or queued while the database is unavailable)."""
        kernel_id = self.kernel_of(kernel_key)
        if kernel_id is None:
            return Filed(Outcome.UNKNOWN_KERNEL, "no running kernel has this key")
        try:
            record = parse_record(body)
        except MusError as e:
            return Filed(Outcome.BAD, str(e))
        with self._lock:
            d = self._bound.get(kernel_id)
        if d is None:
            return Filed(Outcome.NO_CLASS)
        if self.queue:
            self.flush()
        if self.queue:
            self._enqueue(d, record)
            return Filed(Outcome.QUEUED)
        try:
            return self._write(d, record)
        except (OperationalError, DBAPIError) as e:
            log.warning("class database unavailable (%s): a record is queued", type(e.__cause__ or e).__name__)
            self._enqueue(d, record)
            return Filed(Outcome.QUEUED)

    def _write(self, learner_digest: str, record: ValidRecord) -> Filed:
        with self._lock:
            learner = self._learners.get(learner_digest)
        if learner is None:
            learner = self.store.learner_by_key_digest(learner_digest)
            if learner is None:
                return Filed(Outcome.LEFT, "this learner has left the class")
            with self._lock:
                self._learners[learner_digest] = learner
        try:
            stored = self.store.add_record(learner, record)
        except MusError as e:  # left meanwhile
            with self._lock:
                self._learners.pop(learner_digest, None)
            return Filed(Outcome.LEFT, str(e))
        return Filed(Outcome.STORED if stored else Outcome.DUPLICATE)

    def _enqueue(self, learner_digest: str, record: ValidRecord) -> None:
        with self._lock:
            if len(self.queue) >= QUEUE_LIMIT:
                self.queue.popleft()
                log.warning("the class database has been unavailable for long: the oldest queued record is dropped")
            self.queue.append((learner_digest, record))

    def flush(self) -> int:
        """Write the queued records, oldest first, until the queue is empty or the database fails again;
        returns how many were written (or found already there)."""
        done = 0
        while True:
            with self._lock:
                if not self.queue:
                    break
                d, record = self.queue[0]
            try:
                self._write(d, record)
            except (OperationalError, DBAPIError):
                break
            with self._lock:
                if self.queue and self.queue[0][1] is record:
                    self.queue.popleft()
            done += 1
        if done:
            log.info("class database back: %d queued record%s written", done, "" if done == 1 else "s")
        return done

    def practice_for(self, kernel_key: str) -> str | None:
        """The skill the teacher of the kernel's learner points practice at (None: none, no class, or a
        forged key)."""
        kernel_id = self.kernel_of(kernel_key)
        if kernel_id is None:
            return None
        learner = self.learner_of_kernel(kernel_id)
        return None if learner is None else self.store.practice_of(learner.class_id)
