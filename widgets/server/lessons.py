"""The lessons a server offers: ``NN-topic.ipynb`` files of one folder, in order, with their titles.

Pure Python (the notebooks are read as JSON): no Jupyter import, so the command line can check its
arguments before Voilà is loaded.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from musteach.rules.errors import MusError

__all__ = ["LESSON_GLOB", "Lesson", "find_lessons_dir", "list_lessons", "packaged_lessons_dir"]

#: A lesson's file name: two digits, a dash, a topic, ``.ipynb``.
LESSON_GLOB = "[0-9][0-9]-*.ipynb"
_LESSON_RE = re.compile(r"^[0-9]{2}-[^/]*\.ipynb$")
_TITLE_RE = re.compile(r"^\s*lesson\s+(\d+)\s*[:.\u2013\u2014-]\s*(.+?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Lesson:
    """One lesson: ``path`` (file name relative to the lessons folder), ``number`` (its two digits as an int),
    ``title`` (the notebook's first ``#`` heading) and ``label`` (the short name shown in the lesson bar).

    >>> Lesson.from_heading("03-grande-chica.ipynb", "Lesson 3: Grande and Chica").label
    'Grande and Chica'
    >>> Lesson.from_heading("07-envite.ipynb", None).title
    'Envite'
    >>> Lesson.from_heading("01-deck.ipynb", "Lesson 1: the deck").label
    'The deck'
    """

    path: str
    number: int
    title: str
    label: str

    @property
    def stem(self) -> str:
        """The file name without ``.ipynb`` (what Voilà calls the notebook's name)."""
        return self.path[: -len(".ipynb")]

    @classmethod
    def from_heading(cls, path: str, heading: str | None) -> Lesson:
        number = int(path[:2])
        fallback = path[3 : -len(".ipynb")].replace("-", " ").strip().capitalize() or f"Lesson {number}"
        title = heading.strip() if heading and heading.strip() else fallback
        m = _TITLE_RE.match(title)
        label = m.group(2) if m else title
        label = label[:1].upper() + label[1:]
        return cls(path=path, number=number, title=title, label=label)


def is_lesson_name(name: str) -> bool:
    """Whether a file name (relative to the lessons folder) is a lesson's.

    >>> is_lesson_name("00-welcome.ipynb"), is_lesson_name("scratch.ipynb"), is_lesson_name("sub/01-x.ipynb")
    (True, False, False)
    """
    return bool(_LESSON_RE.match(name))


def packaged_lessons_dir() -> Path | None:
    """The lessons shipped inside the installed package (``musteach_lessons``, a data package made from the
    repository's ``lessons/`` folder: no ``__init__.py``), or None when it is not installed as a folder."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("musteach_lessons")
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location)
        if path.is_dir() and any(path.glob(LESSON_GLOB)):
            return path
    return None


def find_lessons_dir(given: str | Path | None = None) -> Path:
    """The lessons folder: ``given``; else ``./lessons``; else the lessons installed with the package.

    Raises :class:`~musteach.rules.errors.MusError` naming the folders tried when none exists or holds a lesson.
    """
    if given is not None:
        candidates = [Path(given)]
    else:
        packaged = packaged_lessons_dir()
        candidates = [Path.cwd() / "lessons", *([packaged] if packaged else [])]
    for c in candidates:
        if c.is_dir():
            if not any(c.glob(LESSON_GLOB)):
                raise MusError(f"no lessons (files named like 00-welcome.ipynb) in {c}")
            return c.resolve()
    raise MusError(f"no lessons folder found (looked in {', '.join(str(c) for c in candidates)})")


def _first_heading(path: Path) -> str | None:
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise MusError(f"lesson {path.name} is not a readable notebook: {e}") from None
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        src = cell.get("source", "")
        text = "".join(src) if isinstance(src, list) else str(src)
        for line in text.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return None


def list_lessons(folder: Path) -> list[Lesson]:
    """The lessons of ``folder`` in file-name order (00, 01, ...), each with its title.

    Raises :class:`~musteach.rules.errors.MusError` when a lesson file is not valid JSON.
    """
    return [Lesson.from_heading(p.name, _first_heading(p)) for p in sorted(folder.glob(LESSON_GLOB))]
