"""Where a learner's practice progress is kept: in the browser (Voilà) or in a file (JupyterLab).

* :class:`BrowserStore` — an anywidget that keeps the progress JSON in the visitor's own browser
  (``localStorage``), so a hosted Voilà server keeps nothing on its disk and no visitor ever sees another's
  progress (each visitor has a kernel of their own and a browser of their own). It survives a reload.
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
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from musteach.i18n import Text, translator
from musteach.rules.errors import shown
from musteach.runtime import in_browser
from musteach.teach import labels
from musteach.teach.progress import FileStore, MemoryStore, Progress, ProgressError, ProgressSchemaError

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
    """The progress JSON kept in this browser's ``localStorage`` under ``key`` (see ``storage.js``).

    When the page starts, the browser sends what it holds; the store merges it with anything already
    answered in this kernel and writes the result back. Every :meth:`save` writes the merged progress to
    the ``value`` trait, which the browser copies into ``localStorage``. Another tab of the same browser
    writing the key is merged in too. Unreadable progress found in the browser is kept under
    ``<key>.corrupt-<timestamp>`` and reported in :attr:`notices`.

    ``loaded`` is False until the browser has answered; until then saves are held in memory.
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
        self.on_msg(self._on_msg)

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
        """Merge ``progress`` in and (once the browser has loaded) write it to the browser; returns the merge."""
        self.progress = self.progress.merge(progress)
        if self.loaded:
            self._push()
        return self.progress.copy()

    def _push(self) -> None:
        text = self.progress.to_json()
        if text != self.value:
            self.value = text

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == "stored":
            too_big = content.get("too_big")
            if too_big:
                self._receive(None, "", too_big=too_big)
            else:
                self._receive(content.get("value"), str(content.get("error") or ""))
        elif kind == "stored_part":
            self._receive_part(content)
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

    def _receive_part(self, content: dict[str, Any]) -> None:
        """One part of a long progress text; the last part reads the whole text (as a "stored" message)."""
        pid, index, count, data = (content.get(k) for k in ("id", "index", "count", "data"))
        ok = (
            isinstance(pid, str)
            and isinstance(data, str)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in (index, count))
            and 0 <= index < count <= MAX_STORED_PARTS  # type: ignore[operator]
        )
        if ok and index == 0:
            self._parts = {"id": pid, "count": count, "parts": []}
        parts: list[str] = self._parts.get("parts", [])
        if not ok or self._parts.get("id") != pid or self._parts.get("count") != count or index != len(parts):
            self._parts = {}
            self._unreadable(Text(labels.DAMAGED_PARTS))
            return
        parts.append(data)  # type: ignore[arg-type]
        if len(parts) == count:
            self._parts = {}
            self._receive("".join(parts), "")

    def _unreadable(self, why: Text) -> None:
        """Keep aside what the browser holds, tell the learner, and go on from what this page holds."""
        name = self._set_aside(None)
        self.notices.append(Text(labels.BROWSER_UNREADABLE, why=why, name=name))
        self._done_loading()

    def _receive(self, raw: object, error: str, *, too_big: object = None) -> None:
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
        self._done_loading()

    def _set_aside(self, raw: str | None) -> str:
        """Ask the browser to keep ``raw`` (None: what the key holds now) under a new key; returns that key."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        name = f"{self.key}.corrupt-{stamp}"
        self.send({"type": "set_aside", "name": name, "value": raw})
        self.set_aside_names.append(name)
        return name

    def _done_loading(self) -> None:
        self.loaded = True
        self._push()
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
        return labels.characters_text(dict(self.params)["n"], lang)  # type: ignore[arg-type]


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
