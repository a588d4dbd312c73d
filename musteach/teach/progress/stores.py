"""Where progress is kept outside the browser: in memory or in a file (JupyterLab), under a file lock."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

from fsrs import Scheduler

from ...i18n import N_, translator
from .base import ProgressError, ProgressSchemaError
from .document import Progress
from .records import Record, save_records

# ----------------------------------------------------------------------------------------------
# Stores
# ----------------------------------------------------------------------------------------------


class MemoryStore:
    """Progress kept only in memory (lost when the kernel stops): for tests, or when nothing may be saved."""

    kind = "memory"

    @property
    def where(self) -> str:
        """Where the progress is kept, in the language being spoken (``"Your progress is kept {where}."``)."""
        _ = translator()
        return _("in memory only (it is lost when this page closes)")

    def __init__(self, progress: Progress | None = None):
        self.progress = progress or Progress()
        self.notices: list[str] = []

    def load(self) -> Progress:
        return self.progress.copy()

    def save(self, progress: Progress) -> Progress:
        """Merge ``progress`` in (its new records go through :func:`~.records.save_records`); returns the merge."""
        new = new_records(self.progress, progress)

        def write(_records: Sequence[Record]) -> None:
            self.progress = self.progress.merge(progress)

        save_records(new, write)
        return self.progress.copy()


def new_records(kept: Progress, progress: Progress) -> list[Record]:
    """The records of ``progress`` that ``kept`` does not hold (by id), oldest first."""
    return progress.records(besides=kept.record_ids())


def default_progress_path() -> Path:
    """Where :class:`FileStore` keeps progress: ``$MUSTEACH_PROGRESS_FILE`` if set, else ``progress.json``
    in the user data folder (``platformdirs.user_data_dir("musteach")``, e.g. ``~/.local/share/musteach``)."""
    env = os.environ.get("MUSTEACH_PROGRESS_FILE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("musteach", appauthor=False)) / "progress.json"


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (created if missing), held until the block ends; other processes
    and threads wait for it (fcntl.flock; msvcrt.locking on Windows)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if sys.platform == "win32":  # pragma: no cover - Windows
            import msvcrt
            import time

            while True:
                try:
                    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                    break
                except OSError:
                    time.sleep(0.01)
            try:
                yield
            finally:
                os.lseek(fd, 0, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _write_atomically(path: Path, text: str) -> None:
    """Write a temporary file next to ``path``, flush it to disk, then rename it over ``path``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError, AttributeError):  # make the rename itself durable (POSIX)
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


class FileStore:
    """Progress in a JSON file, shared by every notebook of one user (JupyterLab).

    path: the file (default :func:`default_progress_path`). Writes are atomic (a temporary file in the same
    folder, then :func:`os.replace`) and made under an exclusive lock on ``<path>.lock``; each write re-reads
    the file and merges it with the progress being saved (a union of records by id), so two notebooks (two
    kernels) saving at once lose nothing; the records the file did not hold go through
    :func:`~musteach.teach.progress.save_records`.

    A file that cannot be read (bad JSON, not progress, another schema version) is never overwritten: it is
    renamed ``<name>.corrupt-<UTC timestamp>`` and a sentence saying so is added to :attr:`notices` (for the
    learner to see); practice then goes on from what is in memory. Disk errors (``OSError``) propagate.
    """

    kind = "file"

    def __init__(self, path: str | os.PathLike[str] | None = None, *, scheduler: Scheduler | None = None):
        self.path = Path(path).expanduser() if path is not None else default_progress_path()
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.scheduler = scheduler
        self.notices: list[str] = []
        self.set_aside_paths: list[Path] = []

    @property
    def where(self) -> str:
        """Where the progress is kept, in the language being spoken: ``"in the file /home/…/progress.json"``."""
        _ = translator()
        return _("in the file {path}", path=self.path)

    def load(self) -> Progress:
        """The progress in the file (empty if there is none yet; nothing is created then)."""
        if not self.path.exists():
            return Progress(scheduler=self.scheduler)
        with _file_lock(self.lock_path):
            return self._read()

    def save(self, progress: Progress) -> Progress:
        """Merge ``progress`` with the file's (under the lock) and write the result; returns it."""
        with _file_lock(self.lock_path):
            kept = self._read()
            merged = kept.merge(progress)
            save_records(new_records(kept, progress), lambda _r: _write_atomically(self.path, merged.to_json() + "\n"))
        return merged

    def _read(self) -> Progress:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return Progress(scheduler=self.scheduler)
        try:
            return Progress.from_json(raw, scheduler=self.scheduler)
        except ProgressError as e:
            aside = self._set_aside()
            _ = translator()
            if isinstance(e, ProgressSchemaError):
                msgid = N_(
                    "Your saved progress could not be read (it was saved by another version of musteach: {why}). "
                    "The file was kept as {name} in {folder}, and your progress starts afresh from here."
                )
            else:
                msgid = N_(
                    "Your saved progress could not be read (it is damaged: {why}). The file was kept as {name} "
                    "in {folder}, and your progress starts afresh from here."
                )
            self.notices.append(_(msgid, why=e.message(_.lang), name=aside.name, folder=aside.parent))
            return Progress(scheduler=self.scheduler)

    def _set_aside(self) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        os.replace(self.path, aside)
        self.set_aside_paths.append(aside)
        return aside
