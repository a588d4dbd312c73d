"""Where a learner's practice progress is kept: in the browser (Voilà) or in a file (JupyterLab).

* :class:`BrowserStore` — an anywidget that keeps the learner's records in the visitor's own browser
  (``localStorage``), so a hosted Voilà server keeps nothing on its disk and no visitor ever sees another's
  progress (each visitor has a kernel of their own and a browser of their own). It survives a reload.
  Each record (:class:`~musteach.teach.progress.Record`: an answer, a quiz run, a step of a run in progress, a
  game, a setting) is written once under a key of its own (``<key>/r/<id>``) and never overwritten, so two
  quizzes on one page, two tabs of one lesson and a reload mid-quiz all keep every record (issue 23); ``<key>``
  keeps a snapshot of the merged progress besides (read by older pages, upgraded on load).

  Why localStorage and not IndexedDB (e.g. through ``idb-keyval``): the records are small (a few hundred
  bytes each, tens of kilobytes for a learner), and what lost them was the single overwritten value, not the
  storage; with a key per record nothing is overwritten. localStorage is synchronous (a write is done before
  the page can close, where an IndexedDB transaction may still be pending), and it tells every other tab of a
  write (the ``storage`` event), which IndexedDB does not (it would need a ``BroadcastChannel`` besides). It
  also keeps the store readable by the pages and tests already written against it, with no JavaScript
  dependency to vendor and keep up to date.
* :class:`~musteach.teach.progress.FileStore` — a JSON file in the user data folder (JupyterLab).
* :class:`~musteach.teach.progress.MemoryStore` — nothing kept (tests).

:func:`open_store` picks one: ``"auto"`` means the browser under Voilà (:func:`in_voila`), else the file.
Every store offers ``load() -> Progress``, ``save(progress) -> Progress`` (merged with what was kept),
``notices`` (sentences for the learner: the browser's store keeps :class:`~musteach.i18n.Text`, put into words
in the language of the widget that shows them), ``kind`` and ``where``.
"""

from __future__ import annotations

import logging
import os
import weakref
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from musteach.i18n import Text, translator
from musteach.rules.errors import shown
from musteach.runtime import in_browser
from musteach.teach import labels
from musteach.teach.progress import (
    FileStore,
    MemoryStore,
    Progress,
    ProgressError,
    ProgressSchemaError,
    Record,
    RecordKind,
    new_records,
    save_records,
)

__all__ = ["DEFAULT_KEY", "VOILA_ENV", "BrowserStore", "in_voila", "open_store"]

_log = logging.getLogger("musteach_widgets")

#: The localStorage key of the progress (one per browser and server address).
DEFAULT_KEY = "musteach-progress"

#: Environment variables Voilà sets in the kernels it starts (voila/handler.py, voila_kernel_manager.py).
VOILA_ENV = ("VOILA_KERNEL_ID", "VOILA_BASE_URL", "VOILA_SERVER_URL", "VOILA_APP_PORT", "VOILA_PREHEAT")

_ESM = (Path(__file__).with_name("storage.js")).read_text(encoding="utf-8")

#: The longest progress text (characters) the browser may send, in parts (as ``MAX_CHARS`` in storage.js).
MAX_STORED_CHARS = 5_000_000
#: The most parts one progress text may come in (``PART_CHARS`` in storage.js is 32,000 characters).
MAX_STORED_PARTS = 200


def in_voila() -> bool:
    """True inside a kernel that Voilà started (it sets ``VOILA_*`` variables in their environment)."""
    return any(os.environ.get(name) for name in VOILA_ENV)


class BrowserStore(anywidget.AnyWidget):
    """The learner's records kept in this browser's ``localStorage`` under ``key`` (see ``storage.js``).

    When the page starts, the browser sends every record it holds and the snapshot under ``key``; the store
    merges them with anything already answered in this kernel and writes back what the browser lacks. Every
    :meth:`save` sends the new records (each kept under its own key, through
    :func:`~musteach.teach.progress.save_records`) and writes the merged progress to the ``value`` trait, which
    the browser copies into ``localStorage`` when no other writer has changed it since. Records another tab
    writes are merged in too, and so are the saves of other stores of the same key in this kernel (two quizzes
    on one page). Unreadable progress found in the browser is kept under ``<key>.corrupt-<timestamp>`` and
    reported in :attr:`notices`.

    ``loaded`` is False until the browser has answered; until then saves are held in memory. The page's first
    load (its records and snapshot, with a load id) goes out once every widget model of the page is made, and
    again until the store answers ``{"type": "loaded", "load": <id>}``; a copy is answered, never read twice.
    Callbacks given to :meth:`on_change` run (with the merged progress) whenever the browser sends progress.
    """

    kind = "browser"
    _esm = _ESM
    key = traitlets.Unicode(DEFAULT_KEY).tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)

    def __init__(self, key: str = DEFAULT_KEY, **kwargs: Any):
        super().__init__(key=key, **kwargs)
        self.layout.display = "none"
        self.loaded = False
        self.available = True
        self.progress = Progress()
        self.notices: list[Text] = []
        self.save_error: str | None = None
        #: the last write failed because the browser's storage for this site is full
        self.storage_full = False
        self.set_aside_names: list[str] = []
        self._listeners: list[Callable[[Progress], None]] = []
        self._parts: dict[str, Any] = {}  # the progress text arriving in parts: id, count, parts so far
        self._unsent: dict[str, Record] = {}  # records to put in the browser once it has loaded
        self._stored_ids: set[str] = set()  # records the browser holds under keys of their own
        self._stored_steps: set[str] = set()  # of those, the steps of quiz runs
        self._loads: set[str] = set()  # the page's load handshakes answered (a load sent again is answered again)
        #: records the browser sent that could not be read (skipped, logged)
        self.unreadable_records = 0
        self.on_msg(self._on_msg)
        _OPEN.add(self)

    @property
    def where(self) -> str:
        """Where the progress is kept, in the language spoken now: ``"in this browser (...)"``."""
        _ = translator()
        if self.storage_full:
            return _(labels.KEPT_PAGE_FULL)
        if not self.available:
            return _(labels.KEPT_PAGE_ONLY)
        return _(labels.KEPT_BROWSER)

    def on_change(self, callback: Callable[[Progress], None]) -> None:
        """Call ``callback(progress)`` whenever progress arrives from the browser (after the merge)."""
        self._listeners.append(callback)

    def load(self) -> Progress:
        """The progress known so far (empty until the browser has sent what it holds)."""
        return self.progress.copy()

    def save(self, progress: Progress) -> Progress:
        """Merge ``progress`` in and (once the browser has loaded) write its new records and the merged
        snapshot to the browser; returns the merge. Other stores of the same key in this kernel merge it too."""
        save_records(new_records(self.progress, progress), lambda records: self._write(progress, records))
        for other in list(_OPEN):
            if other is not self and other.key == self.key and other.loaded:
                other.progress = other.progress.merge(progress)
        return self.progress.copy()

    def _write(self, progress: Progress, records: Sequence[Record]) -> None:
        self.progress = self.progress.merge(progress)
        self._unsent.update((r.id, r) for r in records)
        if self.loaded:  # a step of a run in progress needs its own key only: the snapshot follows the next answer
            self._flush(snapshot=not records or any(r.kind != RecordKind.STEP for r in records))

    def _flush(self, *, snapshot: bool = True) -> None:
        """Put the records the browser lacks (each under its own key), then (``snapshot``) the merged snapshot."""
        records = [r for r in self._unsent.values() if r.id not in self._stored_ids]
        self._unsent = {}
        if records:
            self.send({"type": "put", "records": [[r.id, r.to_json()] for r in records]})
            self._stored_ids.update(r.id for r in records)
            self._stored_steps.update(r.id for r in records if r.kind == RecordKind.STEP)
        self._forget_finished_steps()
        if snapshot:
            self._push()

    def _forget_finished_steps(self) -> None:
        """Remove from the browser the steps of runs that are finished (the run's own record holds what they led
        to) or replaced by a later run of the same quiz (a resumed run goes on under its own id, with copies)."""
        kept = {st.id for st in self.progress.steps}
        done = [sid for sid in self._stored_steps if sid not in kept]
        if done:
            self.send({"type": "forget", "ids": done})
            self._stored_steps.difference_update(done)

    def _push(self, *, again: bool = False) -> None:
        text = self.progress.to_json()
        if text != self.value:
            self.value = text
        elif again:
            self.send({"type": "write"})  # the browser holds another writer's snapshot: write the merge over it

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        load = content.get("load")  # the page's load handshake, sent again until answered (see storage.js)
        if isinstance(load, str) and load in self._loads:
            last_part = kind == "stored_part" and content.get("index") == (content.get("count") or 0) - 1
            if kind == "stored" or last_part:
                self.send({"type": "loaded", "load": load})  # read already: the answer was lost, answer again
            return
        if kind == "records":
            self._receive_records(content.get("items"), str(content.get("reason") or ""))
        elif kind == "stored":
            too_big = content.get("too_big")
            if too_big:
                self._receive(None, "", too_big=too_big)
            else:
                again = content.get("reason") == "other-writer"
                self._receive(content.get("value"), str(content.get("error") or ""), again=again)
            self._answer_load(load)
        elif kind == "stored_part":
            if self._receive_part(content):
                self._answer_load(load)
        elif kind == "saved" and not content.get("ok", True):
            error: str | Text = str(content.get("error") or "") or Text(labels.UNKNOWN_ERROR)
            if self.save_error is None:
                self.notices.append(Text(labels.BROWSER_NOT_SAVED, error=error))
            error = str(error)
            self.save_error = error
            full = bool(content.get("full"))
            if full != self.storage_full:
                self.storage_full = full
                self._tell_listeners()  # the status line says where progress is (not) kept
        elif kind == "saved" and self.storage_full:
            self.storage_full = False  # room again (the learner cleared some)
            self._tell_listeners()

    def _answer_load(self, load: object) -> None:
        """Tell the page its load was read (it sends the load again until told: a message may be lost)."""
        if isinstance(load, str) and len(load) <= 100:
            self._loads.add(load)
            self.send({"type": "loaded", "load": load})

    def _receive_records(self, items: object, reason: str) -> None:
        """Records the browser keeps (at load) or another tab wrote: merged in, never written back."""
        records = []
        for item in items if isinstance(items, list) else []:
            try:
                records.append(Record.from_json(item if isinstance(item, str) else ""))
            except ProgressError:
                self.unreadable_records += 1
                _log.warning("a record kept in the browser could not be read: %.200r", item)
        self._stored_ids.update(r.id for r in records)
        self._stored_steps.update(r.id for r in records if r.kind == RecordKind.STEP)
        try:
            self.progress.apply(records)
        except ProgressError:  # a record of a known kind with bad data: skip it, keep the rest
            for r in records:
                try:
                    self.progress.apply([r])
                except ProgressError:
                    self.unreadable_records += 1
                    _log.warning("a record kept in the browser could not be read: %.200r", r.to_json())
        if self.loaded and reason != "load":
            self._tell_listeners()

    def _receive_part(self, content: dict[str, Any]) -> bool:
        """One part of a long progress text; the last part reads the whole text (as a "stored" message).
        True once the text has been read (or found damaged)."""
        pid, index, count, data = (content.get(k) for k in ("id", "index", "count", "data"))
        ok = (
            isinstance(pid, str)
            and isinstance(data, str)
            and isinstance(index, int) and not isinstance(index, bool)
            and isinstance(count, int) and not isinstance(count, bool)
            and 0 <= index < count <= MAX_STORED_PARTS
        )  # fmt: skip
        if ok and index == 0:
            self._parts = {"id": pid, "count": count, "parts": []}
        parts: list[str] = self._parts.get("parts", [])
        if not ok or self._parts.get("id") != pid or self._parts.get("count") != count or index != len(parts):
            self._parts = {}
            self._unreadable(Text(labels.DAMAGED_PARTS))
            return True
        parts.append(str(data))
        if len(parts) == count:
            self._parts = {}
            self._receive("".join(parts), "")
            return True
        return False

    def _unreadable(self, why: Text) -> None:
        """Keep aside what the browser holds, tell the learner, and go on from what this page holds."""
        name = self._set_aside(None)
        self.notices.append(Text(labels.BROWSER_UNREADABLE, why=why, name=name))
        self._done_loading()

    def _receive(self, raw: object, error: str, *, too_big: object = None, again: bool = False) -> None:
        if too_big:
            name = self._set_aside(None)
            size = _Characters(too_big) if isinstance(too_big, int) else Text(labels.TOO_MANY_CHARACTERS)
            self.notices.append(Text(labels.BROWSER_TOO_LARGE, size=size, name=name))
        elif error:
            self.available = False
            self.notices.append(Text(labels.BROWSER_REFUSES, error=error))
        elif isinstance(raw, str) and raw.strip():
            try:
                if len(raw) > MAX_STORED_CHARS:
                    raise ProgressError(Text(labels.TOO_LARGE_TEXT, size=_Characters(len(raw))))
                self.progress = self.progress.merge(Progress.from_json(raw))
            except Exception as e:  # anything unreadable is reported, never silent
                if not isinstance(e, ProgressError):
                    _log.warning("progress from the browser could not be read", exc_info=True)
                name = self._set_aside(raw)
                why = Text(labels.OTHER_VERSION if isinstance(e, ProgressSchemaError) else labels.DAMAGED)
                detail = e.text if isinstance(e, ProgressError) and e.text is not None else str(e)
                self.notices.append(Text(labels.BROWSER_UNREADABLE_WHY, why=why, error=detail, name=name))
        self._done_loading(again=again)

    def _set_aside(self, raw: str | None) -> str:
        """Ask the browser to keep ``raw`` (None: what the key holds now) under a new key; returns that key."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        name = f"{self.key}.corrupt-{stamp}"
        self.send({"type": "set_aside", "name": name, "value": raw})
        self.set_aside_names.append(name)
        return name

    def _done_loading(self, *, again: bool = False) -> None:
        if not self.loaded:  # the first load: every record the browser lacks gets a key of its own (an upgrade)
            self._unsent.update((r.id, r) for r in self.progress.records() if r.id not in self._stored_ids)
        self.loaded = True
        self._flush()
        if again:
            self._push(again=True)
        self._tell_listeners()

    def _tell_listeners(self) -> None:
        for callback in list(self._listeners):
            callback(self.progress.copy())


class _Characters(Text):
    """A number of characters, put into words when its sentence is (``"5,000,001 characters"``)."""

    def __init__(self, n: int) -> None:
        super().__init__("{count} characters")
        object.__setattr__(self, "params", (("n", n),))

    def render(self, lang: str | None = None) -> str:
        n = dict(self.params)["n"]
        return labels.characters_text(n if isinstance(n, int) else 0, lang)


#: The browser stores of this kernel (two quizzes of one page share what each saves).
_OPEN: weakref.WeakSet[BrowserStore] = weakref.WeakSet()

Store = FileStore | MemoryStore | BrowserStore


def open_store(
    store: str | Store = "auto", *, path: str | os.PathLike[str] | None = None, key: str = DEFAULT_KEY
) -> Store:
    """A progress store.

    store: ``"auto"`` (the browser under Voilà and in the static site, else the file), ``"browser"``, ``"file"``, ``"memory"``,
    or a store object (returned as is). path: the file for ``"file"`` (default the user data folder,
    :func:`~musteach.teach.progress.default_progress_path`). key: the localStorage key for ``"browser"``.
    Raises :class:`~musteach.teach.progress.ProgressError` for another value.
    """
    if not isinstance(store, str):
        if all(hasattr(store, a) for a in ("load", "save", "notices")):
            return store
        raise ProgressError(Text(labels.STORE_ERROR, value=shown(store)))
    choice = store.strip().lower()
    if choice == "auto":
        choice = "browser" if in_voila() or in_browser() else "file"  # in_browser: the static site (Pyodide)
    if choice == "browser":
        return BrowserStore(key)
    if choice == "file":
        return FileStore(path)
    if choice == "memory":
        return MemoryStore()
    raise ProgressError(Text(labels.STORE_NAME_ERROR, value=shown(store)))
