"""The glossary against the catalogs: every translated sentence uses the glossary's terms (issue 17).

Each language's ``musteach/locale/<lang>/GLOSSARY.md`` ends with machine-read tables ("English words never left in
<language>" and "Terms"); they are checked against every translated entry of that language's catalogs, the
package's (``musteach/locale/<lang>/LC_MESSAGES/*.po``) and the lessons' (``lessons/locale/<lang>/...``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from musteach.i18n import LOCALE_DIR
from musteach.locale.lessons import LESSONS_DIR, catalog_path

GLOSSARIES = sorted(LOCALE_DIR.glob("*/GLOSSARY.md"))
EXEMPT = re.compile(r"^glossary:\s*ok\b", re.IGNORECASE)


@dataclass(frozen=True)
class Rule:
    """One row of the Terms table: patterns of the English and of the translation (None: no condition)."""

    english: re.Pattern[str]
    unless: re.Pattern[str] | None
    required: re.Pattern[str] | None
    forbidden: re.Pattern[str] | None
    why: str


@dataclass(frozen=True)
class Glossary:
    lang: str
    english_words: re.Pattern[str]
    rules: tuple[Rule, ...]
    known: tuple[tuple[str, str], ...] = ()  # (catalog file, msgid prefix) waiting for their translators

    def waiting(self, where: str, english: str) -> bool:
        return any(where == catalog and english.startswith(prefix) for catalog, prefix in self.known)


def _cells(row: str) -> list[str]:
    parts = re.split(r"(?<!\\)\|", row.strip().strip("|"))
    return [p.strip().replace("\\|", "|") for p in parts]


def _table(text: str, heading: str) -> list[list[str]]:
    """The body rows of the first table after ``heading`` (a line starting with it)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not re.fullmatch(r"\|[-|\s:]+\|", line.strip()):
            rows.append(_cells(line))
    return rows[1:]  # the header row


def _words(pattern: str) -> re.Pattern[str] | None:
    pattern = pattern.strip().strip("`")
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE) if pattern else None


def read_glossary(path: Path) -> Glossary:
    text = path.read_text(encoding="utf-8")
    words = [row[0].strip("`") for row in _table(text, "### English words never left in")]
    assert words, f"{path}: no English words listed"
    rules = []
    for row in _table(text, "### Terms"):
        english, unless, required, forbidden, why = (row + [""] * 5)[:5]
        compiled = _words(english)
        assert compiled is not None, f"{path}: a Terms row without its English pattern: {row}"
        rules.append(Rule(compiled, _words(unless), _words(required), _words(forbidden), why))
    assert rules, f"{path}: no Terms rules"
    known = tuple((row[0], row[1]) for row in _table(text, "### Known deviations")) if "### Known deviations" in text else ()
    return Glossary(path.parent.name, re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, words))})(?!\w)", re.I),
                    tuple(rules), known)


def prose(sentence: str) -> str:
    """The words of a sentence: no placeholders, inline code, link targets, HTML tags or markdown marks."""
    text = re.sub(r"\{\w+:[Rr]ole\}", " asiento ", sentence)  # a seat named by its role (el mano, el postre...)
    text = re.sub(r"\{[^{}]*\}", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"<[^>]+>", " ", text)
    # names from the code: winner_team, betting.grande, 'stakes', odds['seat'], as_dict()
    text = re.sub(r"\w+(?:[._]\w+)+|'\w+'|\w+(?=[\[(])", " ", text)
    return re.sub(r"[*_#>|\[\]]", " ", text)


def _shown(pattern: re.Pattern[str]) -> str:
    return pattern.pattern.removeprefix("(?<!\\w)(?:").removesuffix(")(?!\\w)")


def problems(glossary: Glossary, entries: list[tuple[str, str, str]]) -> list[str]:
    """What the glossary finds wrong in ``entries`` (where, English, translation)."""
    out = []
    for where, english, translation in entries:
        if glossary.waiting(where, english):
            continue
        en, tr = prose(english), prose(translation)
        left = sorted({m.group(0).lower() for m in glossary.english_words.finditer(tr)})
        if left:
            out.append(f"{where}: English {left} left in {translation[:70]!r}")
        for rule in glossary.rules:
            if not rule.english.search(en) or (rule.unless and rule.unless.search(en)):
                continue
            if rule.required and not rule.required.search(tr):
                out.append(f"{where}: {_shown(rule.english)} wants {_shown(rule.required)} ({rule.why}) in {translation[:70]!r}")
            if rule.forbidden and (bad := rule.forbidden.search(tr)):
                out.append(f"{where}: {bad.group(0)!r} is not said for {_shown(rule.english)} ({rule.why}) in {translation[:70]!r}")
    return out


def _entries(catalog: Catalog, where: str) -> Iterator[tuple[str, str, str]]:
    for m in catalog:
        if not m.id or m.fuzzy or _exempt(m):
            continue
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        strs = (m.string,) if isinstance(m.string, str) else tuple(m.string or ())
        for i, s in enumerate(strs):
            if s:
                yield where, ids[min(i, len(ids) - 1)], s


def _exempt(m: Message) -> bool:
    return any(EXEMPT.match(c.strip()) for c in m.user_comments)


def catalog_entries(lang: str) -> list[tuple[str, str, str]]:
    paths = [*sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")), catalog_path(lang, LESSONS_DIR)]
    out: list[tuple[str, str, str]] = []
    for path in paths:
        if path.is_file():
            with path.open("rb") as fp:
                out.extend(_entries(read_po(fp, locale=lang), path.name))
    return out


@pytest.mark.parametrize("path", GLOSSARIES, ids=[p.parent.name for p in GLOSSARIES])
def test_catalogs_follow_the_glossary(path: Path) -> None:
    glossary = read_glossary(path)
    entries = catalog_entries(glossary.lang)
    assert len(entries) >= 200, f"the {glossary.lang} catalogs hold too little to check: {len(entries)} entries"
    found = problems(glossary, entries)
    assert not found, "\n".join(found)


def test_known_deviations_are_few_and_precise() -> None:
    # a waiting entry names one catalog and a msgid prefix long enough to be that sentence, not a family
    glossary = read_glossary(LOCALE_DIR / "es" / "GLOSSARY.md")
    assert len(glossary.known) <= 40
    assert all(catalog.endswith(".po") and len(prefix) >= 12 for catalog, prefix in glossary.known)
    assert not any(catalog == "lessons.po" for catalog, _ in glossary.known), "the lessons follow the glossary"


def test_spanish_has_a_glossary() -> None:
    assert "es" in [p.parent.name for p in GLOSSARIES]


def test_the_check_catches_real_mistakes() -> None:
    glossary = read_glossary(LOCALE_DIR / "es" / "GLOSSARY.md")
    good = [
        ("x", "Seat {seat} wins {n} stones.", "El asiento {seat} gana {n} piedras."),
        ("x", "Team A refused: the bettors take the deje.", "La pareja A no quiso: los que envidaron cobran el deje."),
        ("x", "Juego and Punto add up points.", "El juego y el punto suman puntos."),
        ("x", "`12o` is the king of coins, [see](01-deck.ipynb)", "`12o` es el rey de oros, [mira](01-deck.ipynb)"),
        ("x", "mano_seat is missing (the seat that speaks first)", "falta mano_seat (el asiento que habla primero)"),
    ]
    assert problems(glossary, good) == []
    bad = [
        ("stones as puntos", "Team A takes {n} stones.", "La pareja A se lleva {n} puntos."),
        ("English left", "Your partner wins.", "Tu partner gana."),
        ("half translated", "Seat 2 wins Grande.", "El asiento 2 wins la grande."),
        ("mano for the cards", "Seat 2's hand is R-R-5-4.", "La mano del asiento 2 es R-R-5-4."),
        ("equipo for team", "Team B is dentro.", "El equipo B está dentro."),
        ("hint untranslated", "Hint: compare the best cards.", "Consejo: compara las mejores cartas."),
        ("mano for a deal", "Here is one deal.", "Aquí tienes una mano."),
        ("pareja for a pair", "Duples is two pairs.", "Los duples son dos parejas."),
    ]
    found = problems(glossary, bad)
    for where, _, _ in bad:
        assert any(p.startswith(where + ":") for p in found), f"the glossary check misses: {where}\n{found}"


def test_an_entry_can_be_exempted_with_a_reason() -> None:
    catalog = Catalog(locale="es")
    catalog.add("Team A takes {n} stones.", "La pareja A se lleva {n} puntos.", user_comments=["glossary: ok, a test"])
    catalog.add("Team B takes {n} stones.", "La pareja B se lleva {n} puntos.")
    assert [e[1] for e in _entries(catalog, "t")] == ["Team B takes {n} stones."]


# ----- table talk: what a musero never says (issue 28) -------------------------------------------------------


@dataclass(frozen=True)
class Never:
    """One row of "What players never say": a pattern of the Spanish, where it applies, what to say instead."""

    pattern: re.Pattern[str]
    lessons_only: bool
    instead: str


def read_table_talk(path: Path) -> tuple[Never, ...]:
    text = path.read_text(encoding="utf-8")
    rows = _table(text, "### What players never say")
    out = []
    for row in rows:
        pattern, where, instead = (row + [""] * 3)[:3]
        assert where in ("all", "lessons"), f"{path}: a table-talk row applies to all or lessons, not {where!r}"
        out.append(Never(re.compile(pattern.strip().strip("`"), re.IGNORECASE), where == "lessons", instead))
    assert out, f"{path}: no table-talk rows"
    return tuple(out)


def table_talk_problems(rules: tuple[Never, ...], entries: list[tuple[str, str, str]]) -> list[str]:
    """What the table-talk rows find in ``entries`` (where, English, translation): ``where`` is a catalog's file
    name (``lessons.po`` and lesson notebooks count as lessons)."""
    out = []
    for where, _english, translation in entries:
        lesson = where == "lessons.po" or where.endswith(".ipynb")
        words = prose(translation)
        for rule in rules:
            if rule.lessons_only and not lesson:
                continue
            if bad := rule.pattern.search(words):
                out.append(f"{where}: {bad.group(0)!r} is never said at the table (say {rule.instead}) in {translation[:80]!r}")
    return out


def lesson_notebook_entries(lang: str) -> list[tuple[str, str, str]]:
    """Every markdown paragraph of the built lessons of ``lang`` (the twin-links line left out)."""
    import json

    out = []
    for nb_path in sorted((LESSONS_DIR / lang).glob("[0-9][0-9]-*.ipynb")):
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                for block in "".join(cell["source"]).split("\n\n")[0:]:
                    if block.startswith("[English]("):
                        continue
                    out.append((nb_path.name, "", block))
    return out


def _exempt_ids(lang: str) -> set[str]:
    """The msgstrs of the entries a translator passed with ``# glossary: ok`` (a lesson built from one is passed)."""
    paths = [*sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")), catalog_path(lang, LESSONS_DIR)]
    out: set[str] = set()
    for path in paths:
        with path.open("rb") as fp:
            for m in read_po(fp, locale=lang):
                if m.id and _exempt(m) and isinstance(m.string, str):
                    out.add(m.string)
    return out


def test_spanish_catalogs_speak_as_players_do() -> None:
    rules = read_table_talk(LOCALE_DIR / "es" / "GLOSSARY.md")
    found = table_talk_problems(rules, catalog_entries("es"))
    assert not found, "\n".join(found)


def test_spanish_lessons_speak_as_players_do() -> None:
    rules = read_table_talk(LOCALE_DIR / "es" / "GLOSSARY.md")
    passed = _exempt_ids("es")
    entries = [e for e in lesson_notebook_entries("es") if not any(e[2] in s for s in passed)]
    assert len(entries) >= 200
    found = table_talk_problems(rules, entries)
    assert not found, "\n".join(found)


def test_table_talk_catches_what_a_musero_never_says() -> None:
    # each one from the Spanish text before issue 28
    rules = read_table_talk(LOCALE_DIR / "es" / "GLOSSARY.md")
    bad = [
        ("robo", "play.po", "Quédate con {cards}: contando cada robo posible, es lo que más piedras da."),
        ("robar", "lessons.po", "pueden tirar algunas de sus cartas y robar otras nuevas"),
        ("señar", "betting.po", "Las medias de otra carta solo se pueden señar después de la grande."),
        ("se seña", "betting.po", "en la mayoría de las mesas se seña la jugada exacta de pares."),
        ("seña + gerund", "betting.po", "Tres reyes también son medias de reyes, que la FEM seña torciendo los labios."),
        ("el lance de", "ui.po", "Responder que el asiento {seat} gana el lance de {lance}"),
        ("casi", "teach.po", "Casi, pero no: {answer}."),
        ("carta más alta", "teach.po", "los duples ganan a las medias y las medias a un par; entre jugadas iguales, gana la carta más alta."),
        ("jugada for a move", "coach.po", "una buena jugada"),
        ("preterite", "teach.po", "Elegiste el asiento {seat}, pero {verdict}."),
        ("preterite of the hand", "teach.po", "No se quiso el último envite: la pareja {team} se lleva el deje."),
        ("pedir cambiar", "ui.po", "Pedir cambiar cartas (mus)"),
        ("destreza", "ui.po", "Tus destrezas"),
        ("labios", "lessons.po", "Sacar los labios hacia fuera quiere decir juego."),
        ("cartas llevan", "teach.po", "Tus cartas llevan {n} ases: son lo que gana la chica."),
        ("grammar", "lessons.po", "«Cerrar los dos ojos» le dice a tu compañero nada: ni pares ni juego."),
        ("nota", "ui.po", "Nota ({lance})"),
        ("straight quotes", "03-grande-chica.ipynb", 'Varios reglamentos dicen "gana la mano".'),
    ]
    found = table_talk_problems(rules, [(where, "", text) for _, where, text in bad])
    for name, where, text in bad:
        assert any(p.startswith(f"{where}:") and text[:60] in p for p in found), f"table talk misses: {name}\n{found}"
    good = [
        ("teach.po", "", "Has elegido el asiento {seat}, pero {verdict}."),
        ("play.po", "", "Quédate con {cards}: contando todas las cartas que puedes pedir, es lo que más piedras da."),
        ("betting.po", "", "Las medias de otra carta solo se enseñan con seña después de la grande."),
        ("teach.po", "", "Llevas 2 ases: con ellos se gana la chica."),
        ("ui.po", "", 'Los "datos" de un JSON llevan comillas rectas'),  # straight quotes only in the lessons
        ("teach.po", "", "Gana la grande el que lleva la carta más alta."),
        ("teach.po", "", "La mejor jugada de pares gana."),
        ("teach.po", "", "Está casi: te falta una piedra."),
    ]
    assert table_talk_problems(rules, good) == []
