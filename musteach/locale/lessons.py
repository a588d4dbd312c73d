"""The lessons in other languages, built from one source: the English notebooks and a catalog of their prose.

``python -m musteach.locale.lessons``          extract the English lessons' prose into each language's catalog
                                                (new or changed paragraphs untranslated, or fuzzy with the old
                                                translation as a hint), then write ``lessons/<lang>/NN-*.ipynb``
                                                and the links between each lesson and its twins
``python -m musteach.locale.lessons --add eu``  the same, starting an empty catalog for Basque
``python -m musteach.locale.lessons --check``   exit 1 and list what is out of date, changing nothing

The English notebooks ``lessons/NN-*.ipynb`` are the source. Their markdown cells are cut into paragraphs (blocks
between blank lines: a heading, a paragraph, a table, a list) and each paragraph is one msgid of
``lessons/locale/<lang>/LC_MESSAGES/lessons.po``, in lesson order, with its lesson and cell as the location.
A lesson of another language has the same cells in the same order, with the same ids and the same notebook
metadata (Voilà needs the kernelspec): markdown cells translated paragraph by paragraph (English where a
paragraph has no translation yet, never an empty cell), code cells the same calls, with ``lang="<lang>"`` added
to every call of a ``musteach_widgets`` name. Lesson ids (``lesson="03-grande-chica"``) stay, so progress and
stars are shared across languages. Links between lessons stay relative (the same file name in the same folder).

Most paragraphs are translations: they keep their English paragraph's links, inline code and numbers (the
check compares them). Where a reader of the language needs something else (an aside about English
mistranslations means nothing to a Spanish reader, who meets other pitfalls: regional customs, 4 reyes against
8 reyes, *la real*), the entry's msgstr is a paragraph written for that reader, replacing its English source:
the translator marks it with a comment ``# rewritten: <why>`` (:func:`rewritten`), and the check then asks
only that its links lead to a lesson. It may hold several paragraphs (blank lines between them).

The first line of each lesson links its twins in the other languages: ``[Español](es/03-grande-chica.ipynb)``
in English, ``[English](../03-grande-chica.ipynb)`` in Spanish. This line is written by the build, in the
English notebooks too, and is never part of the catalog.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from ..i18n import SOURCE_LANG

__all__ = [
    "DOMAIN",
    "LESSONS_DIR",
    "Lesson",
    "blocks",
    "build",
    "build_notebook",
    "catalog_path",
    "check",
    "check_code",
    "code_spans",
    "extract",
    "language_name",
    "lesson_languages",
    "link_targets",
    "numbers",
    "read_catalog",
    "rewritten",
    "source_lessons",
    "translated",
    "twin_links",
    "with_lang",
]

DOMAIN = "lessons"
"""The catalog's name: ``lessons/locale/<lang>/LC_MESSAGES/lessons.po``."""

LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
"""The English lessons of the source tree (``lessons/`` beside ``musteach/``); absent in an installed wheel."""

LESSON_GLOB = "[0-9][0-9]-*.ipynb"
WIDGETS_MODULE = "musteach_widgets"
TWIN_SEPARATOR = " · "

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_LETTER = re.compile(r"[^\W\d_]")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_CODE_SPAN = re.compile(r"`([^`]+)`")
_NUMBER = re.compile(r"\d+")
_TWIN = re.compile(r"\[[^\]]+\]\(((?:\.\./)?(?:[a-z]{2,3}/)?)([0-9]{2}-[^)/\s]+\.ipynb)\)")

HEADER = (
    "# The prose of the musteach lessons: one msgid per paragraph of the English notebooks, in lesson order.\n"
    "# Write each msgstr as a teacher of Mus writes in this language, with the glossary's terms; keep links,\n"
    "# `code` and markdown marks. See musteach/locale/TRANSLATING.md; rebuild with python -m musteach.locale.lessons."
)
"""The comment on top of a new lessons catalog."""

Notebook = dict[str, Any]
Problem = str


@dataclass(frozen=True, slots=True)
class Lesson:
    """One English lesson: its file ``name`` (``"03-grande-chica.ipynb"``) and its notebook (nbformat 4 JSON,
    with the twin-links line taken out of the first cell)."""

    name: str
    notebook: Notebook


def blocks(markdown: str) -> list[str]:
    """The paragraphs of a markdown cell: blocks between blank lines, stripped of blank lines around them.

    >>> blocks("# Title\\n\\nOne line,\\nanother.\\n\\n\\n| a |\\n|---|\\n")
    ['# Title', 'One line,\\nanother.', '| a |\\n|---|']
    """
    return [b.strip("\n") for b in _BLANK_LINE.split(markdown) if b.strip()]


def translatable(block: str) -> bool:
    """Whether a paragraph has words to translate (a rule ``---`` has none).

    >>> translatable("---"), translatable("## Juego")
    (False, True)
    """
    return bool(_LETTER.search(_LINK.sub("]", block)))


def link_targets(text: str) -> list[str]:
    """The targets of the markdown links of a text, in order: a translation must keep them all.

    >>> link_targets("[Lesson 2](02-seats.ipynb) and [the map](00-welcome.ipynb)")
    ['02-seats.ipynb', '00-welcome.ipynb']
    """
    return _LINK.findall(text)


def code_spans(text: str) -> list[str]:
    """The inline code of a text (```12o```, ```n=10```), sorted: a translation keeps them word for word.

    >>> code_spans("`3c` (tres de copas) or `12o`")
    ['12o', '3c']
    """
    return sorted(_CODE_SPAN.findall(text))


def numbers(text: str) -> list[str]:
    """The runs of digits of a text, sorted, outside link targets and inline code: a translation keeps the same
    facts (``43,370`` and ``43.370`` both give ``['370', '43']``).

    >>> numbers("seat 2 has 31 (see [lesson 5](05-juego-punto.ipynb)); 3.4 stones")
    ['2', '3', '31', '4', '5']
    """
    return sorted(_NUMBER.findall(_CODE_SPAN.sub(" ", _LINK.sub("]", text))))


def check_code(lang: str) -> str:
    """``lang`` as a language code for a new catalog: two or three lowercase letters that babel knows.

    Raises :class:`~musteach.rules.errors.LanguageError` naming the value.

    >>> check_code("eu")
    'eu'
    """
    from ..rules.errors import LanguageError  # here: the rules package imports musteach.i18n, not this tool

    if isinstance(lang, str) and re.fullmatch(r"[a-z]{2,3}", lang):
        try:
            Locale.parse(lang)
            return lang
        except (ValueError, LookupError):
            pass
    raise LanguageError(f"no language {lang!r}: give a two- or three-letter code such as eu, fr, vi, ms or ru")


def language_name(lang: str) -> str:
    """A language's name in that language, capitalised: ``"English"``, ``"Español"``, ``"Euskara"``.

    >>> language_name("es"), language_name("en")
    ('Español', 'English')
    """
    name = Locale.parse(lang).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def _source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _is_twin_links(block: str, name: str) -> bool:
    """Whether a paragraph is the twin-links line of lesson ``name`` (links to the same file name only)."""
    parts = block.split(TWIN_SEPARATOR)
    return "\n" not in block and all(
        (m := _TWIN.fullmatch(p.strip())) is not None and m.group(2) == name for p in parts
    )


def _without_twin_links(cell_source: str, name: str) -> str:
    first, sep, rest = cell_source.partition("\n\n")
    return rest if sep and _is_twin_links(first, name) else cell_source


def twin_links(name: str, lang: str, langs: Iterable[str]) -> str:
    """The first line of lesson ``name`` in ``lang``: links to the same lesson in each other language of
    ``langs`` (English included), in the order given.

    >>> twin_links("03-grande-chica.ipynb", "en", ["en", "es"])
    '[Español](es/03-grande-chica.ipynb)'
    >>> twin_links("03-grande-chica.ipynb", "es", ["en", "es", "eu"])
    '[English](../03-grande-chica.ipynb) · [Euskara](../eu/03-grande-chica.ipynb)'
    """
    up = "" if lang == SOURCE_LANG else "../"
    links = [
        f"[{language_name(other)}]({up}{'' if other == SOURCE_LANG else other + '/'}{name})"
        for other in langs
        if other != lang
    ]
    return TWIN_SEPARATOR.join(links)


def source_lessons(lessons_dir: Path = LESSONS_DIR) -> list[Lesson]:
    """The English lessons of ``lessons_dir`` in order, their first cell without its twin-links line."""
    out: list[Lesson] = []
    for path in sorted(lessons_dir.glob(LESSON_GLOB)):
        nb: Notebook = json.loads(path.read_text(encoding="utf-8"))
        cells = nb.get("cells", [])
        if cells and cells[0].get("cell_type") == "markdown":
            cells[0] = {**cells[0], "source": _lines(_without_twin_links(_source(cells[0]), path.name))}
        out.append(Lesson(path.name, nb))
    return out


def _paragraphs(lessons: list[Lesson]) -> Iterator[tuple[str, str, int]]:
    for lesson in lessons:
        for index, cell in enumerate(lesson.notebook.get("cells", [])):
            if cell.get("cell_type") == "markdown":
                for block in blocks(_source(cell)):
                    if translatable(block):
                        yield block, lesson.name, index


def extract(lessons: list[Lesson]) -> Catalog:
    """Every paragraph of the lessons' prose as a msgid (English, untranslated), in lesson order, with its
    lesson and cell index as the location."""
    catalog = Catalog(locale=SOURCE_LANG, project="musteach lessons", domain=DOMAIN, fuzzy=False)
    for block, name, index in _paragraphs(lessons):
        catalog.add(block, locations=[(name, index)])
    return catalog


def catalog_path(lang: str, lessons_dir: Path = LESSONS_DIR) -> Path:
    """``lessons/locale/<lang>/LC_MESSAGES/lessons.po``."""
    return lessons_dir / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def lesson_languages(lessons_dir: Path = LESSONS_DIR) -> list[str]:
    """The languages that have a lessons catalog, sorted (English not included)."""
    root = lessons_dir / "locale"
    if not root.is_dir():
        return []
    return sorted(d.name for d in root.iterdir() if catalog_path(d.name, lessons_dir).is_file())


def read_catalog(lang: str, lessons_dir: Path = LESSONS_DIR) -> Catalog:
    """The lessons catalog of ``lang`` (empty when there is none yet)."""
    path = catalog_path(lang, lessons_dir)
    if not path.is_file():
        return Catalog(locale=lang, project="musteach lessons", domain=DOMAIN, fuzzy=False, header_comment=HEADER)
    with path.open("rb") as fp:
        return read_po(fp, locale=lang, domain=DOMAIN)


def _updated(lang: str, template: Catalog, lessons_dir: Path) -> Catalog:
    catalog = read_catalog(lang, lessons_dir)
    # fuzzy matching: a changed paragraph keeps its old translation as a hint, marked fuzzy (shown in English
    # until a translator checks it)
    catalog.update(template, no_fuzzy_matching=False, update_header_comment=False, update_creation_date=False)
    catalog.obsolete.clear()
    catalog.revision_date = catalog.creation_date  # a stable header: no timestamp churn in diffs
    catalog.fuzzy = False
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=0, omit_header=False, sort_output=False, include_previous=False)
    return out.getvalue()


_REWRITTEN = re.compile(r"^rewritten\s*:", re.IGNORECASE)


def rewritten(catalog: Catalog) -> frozenset[str]:
    """The msgids whose msgstr is a paragraph written for this language's reader instead of a translation: the
    entries with a translator comment ``# rewritten: <why>``. Their numbers, inline code and links may differ
    from the English paragraph's."""
    return frozenset(
        m.id
        for m in catalog
        if m.id and isinstance(m.id, str) and any(_REWRITTEN.match(c.strip()) for c in m.user_comments)
    )


def translated(catalog: Catalog) -> dict[str, str]:
    """The paragraphs a catalog translates: msgid to msgstr, leaving out empty and fuzzy entries (those fall
    back to English)."""
    out: dict[str, str] = {}
    for m in catalog:
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string and not m.fuzzy:
            out[m.id] = m.string
    return out


def with_lang(source: str, lang: str) -> str:
    """A code cell with ``lang="<lang>"`` added to each top-level call of a name imported from
    ``musteach_widgets``. Raises ``ValueError`` when such a call already names a language.

    >>> print(with_lang('from musteach_widgets import LanceQuiz\\nLanceQuiz("grande", n=10)', "es"))
    from musteach_widgets import LanceQuiz
    LanceQuiz("grande", n=10, lang="es")
    >>> with_lang("from musteach_widgets import LessonMap\\nLessonMap()", "es").splitlines()[1]
    'LessonMap(lang="es")'
    >>> with_lang('from musteach import Hand\\nHand("12o")', "es").splitlines()[1]
    'Hand("12o")'
    """
    tree = ast.parse(source)
    names = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == WIDGETS_MODULE
        for alias in node.names
    }
    lines = [line.encode("utf-8") for line in source.split("\n")]  # ast offsets count UTF-8 bytes
    for stmt in reversed(tree.body):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in names):
            continue
        if any(k.arg == "lang" for k in call.keywords):
            raise ValueError(f"the English lesson already chooses a language: {ast.unparse(call)}")
        row, col = (call.end_lineno or 1) - 1, (call.end_col_offset or 1) - 1  # the closing parenthesis
        glue = ", " if call.args or call.keywords else ""
        lines[row] = lines[row][:col] + f'{glue}lang="{lang}"'.encode() + lines[row][col:]
    return "\n".join(line.decode("utf-8") for line in lines)


def _translate_markdown(text: str, sentences: dict[str, str]) -> str:
    return "\n\n".join(sentences.get(b, b) for b in blocks(text))


def _with_twin_links(text: str, links: str) -> str:
    return f"{links}\n\n{text}" if links else text


def build_notebook(lesson: Lesson, lang: str, sentences: dict[str, str], langs: Iterable[str]) -> Notebook:
    """Lesson ``lesson`` in ``lang`` (English when ``lang`` is the source language): the same cells, ids and
    metadata, markdown from ``sentences`` (msgid to translation; English where one is missing), widget calls
    with ``lang=``, no outputs, and the twin-links line of ``langs`` on top of the first cell."""
    cells: list[dict[str, Any]] = []
    for index, cell in enumerate(lesson.notebook.get("cells", [])):
        text = _source(cell)
        new = dict(cell)
        if cell.get("cell_type") == "markdown":
            if lang != SOURCE_LANG:
                text = _translate_markdown(text, sentences)
            if index == 0:
                text = _with_twin_links(text, twin_links(lesson.name, lang, langs))
        elif cell.get("cell_type") == "code":
            if lang != SOURCE_LANG:
                text = with_lang(text, lang)
            new["outputs"] = []
            new["execution_count"] = None
        new["source"] = _lines(text)
        cells.append(new)
    return {**lesson.notebook, "cells": cells}


def _notebook_text(nb: Notebook) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _planned(lessons_dir: Path, add: str | None = None) -> dict[Path, bytes]:
    """Every file the build writes, with its bytes: the catalogs, the lessons of each language, and the English
    lessons with their twin links."""
    lessons = source_lessons(lessons_dir)
    template = extract(lessons)
    langs = sorted({*lesson_languages(lessons_dir), *([check_code(add)] if add else [])})
    everyone = [SOURCE_LANG, *langs]
    files: dict[Path, bytes] = {}
    for lang in langs:
        catalog = _updated(lang, template, lessons_dir)
        files[catalog_path(lang, lessons_dir)] = _po_bytes(catalog)
        sentences = translated(catalog)
        for lesson in lessons:
            files[lessons_dir / lang / lesson.name] = _notebook_text(
                build_notebook(lesson, lang, sentences, everyone)
            ).encode("utf-8")
    for lesson in lessons:
        files[lessons_dir / lesson.name] = _notebook_text(
            build_notebook(lesson, SOURCE_LANG, {}, everyone)
        ).encode("utf-8")
    return files


def build(add: str | None = None, lessons_dir: Path = LESSONS_DIR) -> list[Path]:
    """Update each language's lessons catalog from the English lessons and write its lessons (``add`` starts a
    new language). Returns the files written (those whose bytes changed)."""
    written: list[Path] = []
    for path, data in _planned(lessons_dir, add).items():
        if not path.is_file() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written.append(path)
    return written


_HEADING = re.compile(r"^# (.+?)\s*$", re.M)
_LESSON_LINK = re.compile(r"\[([^\]]+)\]\((?:\.\./)?(?:[a-z]{2,3}/)?([0-9]{2}-[^)/\s]+)\.ipynb\)")


def _title_problems(planned: dict[Path, bytes], lessons_dir: Path) -> list[Problem]:
    """Where a lesson of the learning path is titled otherwise than the path titles it in that language
    (:func:`musteach.teach.pages.lesson_heading`, the one wording the server's lesson bar and index show too):
    its first heading, and each link to it that names it (``[Lesson 4: Pares](04-pares.ipynb)``)."""
    from ..rules.errors import LanguageError
    from ..teach.pages import lesson_heading, lesson_link

    problems: list[Problem] = []
    for path, data in planned.items():
        if path.suffix != ".ipynb":
            continue
        lang = SOURCE_LANG if path.parent == lessons_dir else path.parent.name
        where = path.relative_to(lessons_dir).as_posix()
        nb = json.loads(data)
        text = "\n\n".join(_source(c) for c in nb.get("cells", []) if c.get("cell_type") == "markdown")
        try:
            own = lesson_heading(path.stem, lang)
        except LanguageError:  # a language the lessons have but the tutor's catalogs do not yet
            continue
        heading = _HEADING.search(text)
        if own is not None and heading is not None and heading.group(1) != own:
            problems.append(f"{where}: heading {heading.group(1)!r} is not the lesson's title {own!r}")
        for m in _LESSON_LINK.finditer(text):
            named, target = m.group(1), m.group(2)
            title = lesson_heading(target, lang)
            prefix = lesson_link(int(target[:2]), "\0", lang).partition("\0")[0]
            if title is not None and named.startswith(prefix) and named != title:
                problems.append(f"{where}: link {named!r} to {target}.ipynb is not the lesson's title {title!r}")
    return problems


def check(complete: tuple[str, ...] = ("es",), lessons_dir: Path = LESSONS_DIR) -> list[Problem]:
    """What is out of date, changing nothing: a catalog or a lesson that the build would change, and for the
    languages in ``complete``, a paragraph with no translation or a fuzzy one; for every language, a translation
    whose links, inline code or numbers differ from its English paragraph's (a :func:`rewritten` paragraph: a
    link that leads to no lesson), and a lesson's heading or a link
    naming a lesson (``[Lesson 4: Pares](04-pares.ipynb)``) worded otherwise than the learning path's title of
    that lesson in that language (:func:`musteach.teach.pages.lesson_heading`)."""
    problems: list[Problem] = []
    planned = _planned(lessons_dir)
    for path, data in planned.items():
        where = path.relative_to(lessons_dir).as_posix()
        if not path.is_file():
            problems.append(f"{where}: missing (run python -m musteach.locale.lessons)")
        elif path.read_bytes() != data:
            problems.append(f"{where}: out of date (run python -m musteach.locale.lessons)")
    problems += _title_problems(planned, lessons_dir)
    for lang in lesson_languages(lessons_dir):
        where = catalog_path(lang, lessons_dir).relative_to(lessons_dir).as_posix()
        catalog = read_catalog(lang, lessons_dir)
        own = rewritten(catalog)
        for m in catalog:
            if not m.id or not isinstance(m.id, str):
                continue
            if not m.string or m.fuzzy:
                if lang in complete:
                    problems.append(f"{where}: untranslated{' (fuzzy)' if m.fuzzy else ''} {m.id[:60]!r}")
                continue
            text = str(m.string)
            if m.id in own:  # written for this language's reader: its links must lead to a lesson
                for target in link_targets(text):
                    if not (lessons_dir / target.partition("#")[0]).is_file():
                        problems.append(f"{where}: link {target!r} leads to no lesson in {m.id[:60]!r}")
                continue
            if link_targets(text) != link_targets(m.id):
                problems.append(f"{where}: links {link_targets(text)} differ from {link_targets(m.id)} in {m.id[:60]!r}")
            if code_spans(text) != code_spans(m.id):
                problems.append(f"{where}: code {code_spans(text)} differs from {code_spans(m.id)} in {m.id[:60]!r}")
            if numbers(text) != numbers(m.id):
                problems.append(f"{where}: numbers {numbers(text)} differ from {numbers(m.id)} in {m.id[:60]!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m musteach.locale.lessons", description=__doc__.split("\n")[0])
    parser.add_argument("--add", metavar="LANG", help="start the lessons catalog of a new language (eu, fr...)")
    parser.add_argument("--check", action="store_true", help="list what is out of date and exit 1, changing nothing")
    parser.add_argument("--lessons", type=Path, default=LESSONS_DIR, help="the English lessons' folder")
    args = parser.parse_args(argv)
    if not args.lessons.is_dir():
        print(f"no lessons folder at {args.lessons}: the lessons are built in the source tree")
        return 1
    if args.check:
        problems = check(lessons_dir=args.lessons)
        for p in problems:
            print(p)
        print(f"{len(problems)} problem(s)" if problems else "lessons up to date")
        return 1 if problems else 0
    for path in build(add=args.add, lessons_dir=args.lessons):
        print(f"wrote {path.relative_to(args.lessons.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
