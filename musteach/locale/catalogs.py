"""Extract, update, compile and check the gettext catalogs (needs ``babel``; run by ``make catalogs``).

``python -m musteach.locale.catalogs``          extract every sentence, update each language's ``.po`` (new
                                                 msgids untranslated, removed ones dropped) and compile ``.mo``
``python -m musteach.locale.catalogs --add eu``  the same, starting an empty catalog for Basque, and its lessons
                                                 catalog (see :mod:`musteach.locale.lessons`)
``python -m musteach.locale.catalogs --check``   exit 1 and list what is out of date, changing nothing

The msgids are the English sentences of the source, found by babel's extractor under the keywords of
:mod:`musteach.i18n`. Each source file feeds one domain (:data:`DOMAIN_OF`), so that people translating
different parts of the tutor edit different files. The ``.po`` files carry no source line numbers and are
sorted, so that edits merge cleanly.
"""

from __future__ import annotations

import argparse
import fnmatch
import io
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from ..i18n import DOMAINS, LOCALE_DIR, SOURCE_LANG, placeholders

__all__ = [
    "DOMAIN_OF",
    "KEYWORDS",
    "Problem",
    "build",
    "check",
    "compile_po",
    "extract",
    "po_path",
    "read",
    "unshared_pieces",
]

PACKAGE_DIR = LOCALE_DIR.parent

DOMAIN_OF: tuple[tuple[str, str], ...] = (
    ("rules/betting.py", "betting"),
    ("rules/count.py", "betting"),
    ("rules/stakes.py", "betting"),
    ("rules/bet_actions.py", "betting"),
    ("rules/betting_*.py", "betting"),
    ("rules/declarations.py", "betting"),
    ("rules/match.py", "betting"),
    ("rules/senas.py", "betting"),
    ("commands/count.py", "betting"),
    ("commands/grade.py", "betting"),
    ("rules/*.py", "rules"),
    ("commands/*.py", "rules"),
    ("teach/labels.py", "ui"),
    ("teach/pages.py", "pages"),
    ("teach/classes.py", "classes"),
    ("teach/senas_quiz.py", "coach"),
    ("teach/count_quiz.py", "coach"),
    ("teach/coach.py", "coach"),
    ("teach/review.py", "coach"),
    ("teach/mus_quiz.py", "coach"),
    ("teach/grading.py", "coach"),
    ("teach/odds_quiz.py", "coach"),
    ("teach/bands.py", "coach"),
    ("teach/sampling.py", "coach"),
    ("teach/betting_script.py", "coach"),
    ("teach/*.py", "teach"),
    ("play/*.py", "play"),
    ("odds/*.py", "play"),
    ("draw/*.py", "play"),
    ("numbers.py", "play"),
    ("*.py", "rules"),
)
"""Which domain each source file (a glob relative to ``musteach/``) feeds; the first match wins."""

KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "N_": None,
    "NC_": ((1, "c"), 2),
    "Text": None,
    "ngettext": (1, 2),
    "plural_text": (1, 2),
}
"""The call names whose string arguments are msgids, ``NC_``'s first one a context (see :mod:`musteach.i18n`)."""

Problem = str


def _domain(relative: str) -> str | None:
    for pattern, domain in DOMAIN_OF:
        if fnmatch.fnmatch(relative, pattern):  # fnmatch's * also matches "/": the order of DOMAIN_OF decides
            return domain
    return None


def extract() -> dict[str, Catalog]:
    """Every msgid of the source, by domain (a babel :class:`Catalog` per domain, English, no translations)."""
    catalogs = {d: Catalog(locale=SOURCE_LANG, project="musteach", fuzzy=False) for d in DOMAINS}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        relative = path.relative_to(PACKAGE_DIR).as_posix()
        if relative.startswith("locale/"):
            continue
        domain = _domain(relative)
        if domain is None:
            continue
        for lineno, message, comments, context in extract_from_file("python", str(path), keywords=KEYWORDS):
            msgid = message if isinstance(message, str) else tuple(message)
            if not msgid or (isinstance(msgid, tuple) and not all(msgid)):
                continue
            catalogs[domain].add(msgid, locations=[(relative, lineno)], auto_comments=comments, context=context)
    return catalogs


def po_path(lang: str, domain: str) -> Path:
    """``musteach/locale/<lang>/LC_MESSAGES/<domain>.po``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read(lang: str, domain: str) -> Catalog:
    """The ``.po`` catalog of ``lang`` and ``domain`` (empty when there is none yet)."""
    path = po_path(lang, domain)
    if not path.is_file():
        return Catalog(locale=lang, project="musteach", domain=domain, fuzzy=False)
    with path.open("rb") as fp:
        return read_po(fp, locale=lang, domain=domain)


def unshared_pieces(
    domain: str,
    lang: str = "es",
    *,
    translated: bool = False,
    min_words: int = 2,
    min_chars: int = 0,
    strip: str = " .,:;()'?!",
) -> frozenset[str]:
    """The words of one side of ``domain``'s catalog in ``lang`` that the other side does not share.

    For each translated entry: the literal stretches of its English msgids (or, with ``translated``, of its
    translations) between placeholders, with ``strip`` taken off both ends, of at least ``min_words`` words and
    ``min_chars`` characters, that the other side of the entry does not hold. English pieces found in output
    that should be in ``lang`` are English left untranslated (Mus terms kept in both languages are shared, so
    they are not listed); tests look for them.
    """
    found: set[str] = set()
    for m in read(lang, domain):
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        strs = tuple(x for x in ((m.string,) if isinstance(m.string, str) else tuple(m.string or ())) if x)
        if not strs:
            continue
        mine, other = (strs, ids) if translated else (ids, strs)
        for sentence in mine:
            for literal, *_ in string.Formatter().parse(sentence):
                piece = literal.strip(strip)
                if (
                    len(piece.split()) >= min_words
                    and len(piece) >= min_chars
                    and not any(piece in o for o in other)
                ):
                    found.add(piece)
    return frozenset(found)


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=0, no_location=True, omit_header=False, sort_output=True, include_previous=False)
    return out.getvalue()


def compile_po(catalog: Catalog) -> bytes:
    """The ``.mo`` bytes of a catalog (fuzzy entries left out, so they fall back to English)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def _updated(lang: str, domain: str, template: Catalog) -> Catalog:
    catalog = read(lang, domain)
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False, update_creation_date=False)
    catalog.obsolete.clear()
    catalog.revision_date = catalog.creation_date  # a stable header: no timestamp churn in diffs
    catalog.fuzzy = False
    return catalog


def build(add: str | None = None) -> list[Path]:
    """Update every language's ``.po`` from the source and compile its ``.mo``; ``add`` starts a new language.
    Returns the files written."""
    templates = extract()
    langs = {p.name for p in LOCALE_DIR.iterdir() if p.is_dir() and (p / "LC_MESSAGES").is_dir()}
    if add:
        langs.add(add)
    written: list[Path] = []
    for lang in sorted(langs):
        for domain in DOMAINS:
            catalog = _updated(lang, domain, templates[domain])
            po = po_path(lang, domain)
            po.parent.mkdir(parents=True, exist_ok=True)
            data = _po_bytes(catalog)
            if not po.is_file() or po.read_bytes() != data:
                po.write_bytes(data)
                written.append(po)
            mo = po.with_suffix(".mo")
            compiled = compile_po(read(lang, domain))
            if not mo.is_file() or mo.read_bytes() != compiled:
                mo.write_bytes(compiled)
                written.append(mo)
    return written


def check(complete: tuple[str, ...] = ("es",)) -> list[Problem]:
    """What is out of date, changing nothing: a ``.po`` that misses a msgid of the source or keeps a dropped one,
    a ``.mo`` that is not the compiled ``.po``, a translation whose placeholders differ from its msgid's, and,
    for the languages in ``complete``, a msgid with no translation or a fuzzy one."""
    problems: list[Problem] = []
    templates = extract()
    langs = sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir() and (p / "LC_MESSAGES").is_dir())
    for lang in langs:
        for domain in DOMAINS:
            where = f"{lang}/{domain}.po"
            catalog = read(lang, domain)
            source = {m.id for m in templates[domain] if m.id}
            held = {m.id for m in catalog if m.id}
            for msgid in sorted(source - held, key=str):
                problems.append(f"{where}: missing msgid {msgid!r}")
            for msgid in sorted(held - source, key=str):
                problems.append(f"{where}: msgid no longer in the source {msgid!r}")
            mo = po_path(lang, domain).with_suffix(".mo")
            if not mo.is_file() or mo.read_bytes() != compile_po(catalog):
                problems.append(f"{where}: the .mo is not the compiled .po")
            for m in catalog:
                if m.id:
                    problems.extend(_message_problems(m, where, lang in complete))
    return problems


def _message_problems(m: Message, where: str, complete: bool) -> list[Problem]:
    """One catalog message's problems: untranslated or fuzzy (only when its language must be ``complete``), or a
    translation whose placeholders differ from the msgid's (a plural may leave out ``{n}``)."""
    ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
    strs = (m.string,) if isinstance(m.string, str) else tuple(m.string or ())
    if not all(strs) or m.fuzzy:
        return [f"{where}: untranslated{' (fuzzy)' if m.fuzzy else ''} {ids[0]!r}"] if complete else []
    wanted = placeholders(ids[0]) | (placeholders(ids[1]) | {"n"} if len(ids) > 1 else frozenset())
    problems = []
    for s in strs:
        got = placeholders(s)
        if (len(ids) == 1 and got != wanted) or not got <= wanted:
            problems.append(f"{where}: placeholders {sorted(got)} differ from {sorted(wanted)} in {ids[0]!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m musteach.locale.catalogs", description=__doc__.split("\n")[0])
    parser.add_argument("--add", metavar="LANG", help="start the catalogs of a new language (eu, fr, vi, ms, ru...)")
    parser.add_argument("--check", action="store_true", help="list what is out of date and exit 1, changing nothing")
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        for p in problems:
            print(p)
        print(f"{len(problems)} problem(s)" if problems else "catalogs up to date")
        return 1 if problems else 0
    for path in build(add=args.add):
        print(f"wrote {path.relative_to(PACKAGE_DIR.parent)}")
    if args.add:  # a new language starts the lessons' catalog too (the lessons live in the source tree only)
        from . import lessons

        if lessons.LESSONS_DIR.is_dir():
            for path in lessons.build(add=args.add, lessons_dir=lessons.LESSONS_DIR):
                print(f"wrote {path.relative_to(PACKAGE_DIR.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
