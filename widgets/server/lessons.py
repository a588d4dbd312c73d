"""The lessons a server offers: ``NN-topic.ipynb`` files of one folder, in order, with their titles, and the
same lessons in other languages, in sub-folders named by language (``es/03-grande-chica.ipynb``).

Pure Python (the notebooks are read as JSON): no Jupyter import, so the command line can check its
arguments before Voilà is loaded. A lesson keeps its file name in every language: it is the lesson's id, which
progress and stars are kept under, so they are shared across languages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from musteach.i18n import SOURCE_LANG, languages
from musteach.rules.errors import MusError
from musteach.teach.pages import lesson_title

__all__ = [
    "LESSON_GLOB",
    "Lesson",
    "find_lessons_dir",
    "lang_of",
    "list_lessons",
    "list_translations",
    "packaged_lessons_dir",
    "preferred_language",
]

#: A lesson's file name: two digits, a dash, a topic, ``.ipynb``.
LESSON_GLOB = "[0-9][0-9]-*.ipynb"
_LESSON_RE = re.compile(r"^[0-9]{2}-[^/]*\.ipynb$")
#: "Lesson 3: Grande and Chica", "Lección 3: La grande y la chica": the number and the short label.
_TITLE_RE = re.compile(r"^\s*(?:lesson|lecci[oó]n)\s+(\d+)\s*[:.\u2013\u2014-]\s*(.+?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Lesson:
    """One lesson: ``path`` (relative to the lessons folder: ``"03-grande-chica.ipynb"``, or
    ``"es/03-grande-chica.ipynb"`` in Spanish), ``number`` (its two digits as an int), ``title`` (the notebook's
    first ``#`` heading), ``label`` (the short name shown in the lesson bar, as musteach or the heading words
    it) and ``lang`` (its language).

    >>> Lesson.from_heading("03-grande-chica.ipynb", "Lesson 3: Grande and Chica").label
    'Grande and Chica'
    >>> Lesson.from_heading("03-grande-chica.ipynb", "Lección 3: La grande y la chica", lang="es").label
    'La grande y la chica'
    >>> Lesson.from_heading("07-envite.ipynb", None).title
    'envite'
    >>> Lesson.from_heading("01-cards.ipynb", "Lesson 1: the cards").label
    'the cards'
    >>> Lesson.from_heading("01-lance.ipynb", "Lección 1: quién gana", lang="es").path
    'es/01-lance.ipynb'
    """

    path: str
    number: int
    title: str
    label: str
    lang: str = SOURCE_LANG

    @property
    def name(self) -> str:
        """The file name, the same in every language: ``"03-grande-chica.ipynb"``."""
        return self.path.rpartition("/")[2]

    @property
    def stem(self) -> str:
        """The file name without ``.ipynb`` (what Voilà calls the notebook's name; the lesson's id)."""
        return self.name[: -len(".ipynb")]

    @classmethod
    def from_heading(cls, name: str, heading: str | None, lang: str = SOURCE_LANG) -> Lesson:
        """The lesson in file ``name`` (of the folder of ``lang``) whose first heading is ``heading``. The label
        is the learning path's title of that lesson in that language, as musteach words it
        (:func:`musteach.teach.pages.lesson_title`: the notebook's heading and the links to it say the same);
        for a lesson the path does not know, the heading's words after "Lesson N:" as written, else the file
        name's topic."""
        number = int(name[:2])
        stem = name[: -len(".ipynb")]
        known = lesson_title(stem, lang)
        fallback = known or name[3 : -len(".ipynb")].replace("-", " ").strip() or str(number)
        title = heading.strip() if heading and heading.strip() else fallback
        m = _TITLE_RE.match(title)
        label = known or (m.group(2) if m else title)
        path = name if lang == SOURCE_LANG else f"{lang}/{name}"
        return cls(path=path, number=number, title=title, label=label, lang=lang)


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


def list_lessons(folder: Path, lang: str = SOURCE_LANG) -> list[Lesson]:
    """The lessons of ``folder`` in file-name order (00, 01, ...), each with its title; ``lang``: the language
    they are written in (``folder`` is then the lessons folder's sub-folder of that name).

    Raises :class:`~musteach.rules.errors.MusError` when a lesson file is not valid JSON.
    """
    return [Lesson.from_heading(p.name, _first_heading(p), lang) for p in sorted(folder.glob(LESSON_GLOB))]


def list_translations(folder: Path) -> dict[str, list[Lesson]]:
    """The lessons of ``folder`` in other languages: language -> its lessons, from each sub-folder named by a
    language the tutor speaks (``folder/es``) that holds lessons. Empty when there is none."""
    found: dict[str, list[Lesson]] = {}
    for lang in languages():
        sub = folder / lang
        if lang != SOURCE_LANG and sub.is_dir() and any(sub.glob(LESSON_GLOB)):
            found[lang] = list_lessons(sub, lang)
    return found


def lang_of(path: str, offered: Iterable[str]) -> str:
    """The language of a path relative to the lessons folder: its first folder when that is one of the
    ``offered`` languages, English otherwise.

    >>> lang_of("es/03-grande-chica.ipynb", ["en", "es"]), lang_of("03-grande-chica.ipynb", ["en", "es"])
    ('es', 'en')
    """
    first, sep, _ = path.lstrip("/").partition("/")
    return first if sep and first in offered else SOURCE_LANG


def preferred_language(accept_language: str | None, offered: Sequence[str]) -> str:
    """The language of ``offered`` a browser prefers, from its ``Accept-Language`` header (``"es-ES,es;q=0.9,
    en;q=0.8"``), by quality then order; the first offered when it names none of them.

    >>> preferred_language("es-ES,es;q=0.9,en;q=0.8", ["en", "es"]), preferred_language("fr, en;q=0.5", ["en", "es"])
    ('es', 'en')
    >>> preferred_language("en;q=0.4, es-MX;q=0.7", ["en", "es"]), preferred_language(None, ["en", "es"])
    ('es', 'en')
    """
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = tag.strip().replace("_", "-").split("-")[0].lower()
        if code == "*" and offered:
            code = offered[0]
        if code in offered and quality > 0:
            ranked.append((-quality, i, code))
    return min(ranked)[2] if ranked else offered[0]
