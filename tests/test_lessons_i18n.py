"""The lessons in other languages (issue 17): lessons/<lang>/ built from the English lessons and a catalog.

``python -m musteach.locale.lessons`` (run by ``make catalogs``) writes them; these tests fail when a Spanish
lesson is out of date, when an English paragraph has no Spanish translation, or when a Spanish lesson differs
from its English twin in anything but the words.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest

from musteach.locale import lessons as L

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
ENGLISH = sorted(LESSONS.glob("[0-9][0-9]-*.ipynb"))
SPANISH = LESSONS / "es"


def _nb(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _has_words(paragraph: str) -> bool:
    """Whether a paragraph has a word to translate (the notation "R = 3 > C > S" has none)."""
    return bool(re.search(r"[^\W\d_]{2,}", re.sub(r"\]\([^)]*\)", "]", paragraph)))


def _text(cell: dict) -> str:
    return "".join(cell["source"])


def test_the_module_builds_from_the_repositorys_lessons() -> None:
    assert L.LESSONS_DIR == LESSONS
    assert L.lesson_languages() == ["es"]


def test_spanish_lessons_are_up_to_date_and_complete() -> None:
    # rebuilding in memory gives the committed notebooks and catalog; every English paragraph is translated,
    # keeping its links, inline code and numbers: `make catalogs` (then translating) fixes what this lists
    assert L.check() == []


def test_every_english_lesson_has_a_spanish_twin() -> None:
    assert sorted(p.name for p in SPANISH.glob("[0-9][0-9]-*.ipynb")) == [p.name for p in ENGLISH]


def _widget_names(nb: dict) -> set[str]:
    names = set()
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            for node in ast.parse(_text(cell)).body:
                if isinstance(node, ast.ImportFrom) and node.module == "musteach_widgets":
                    names.update(a.asname or a.name for a in node.names)
    return names


def _calls(source: str) -> list[ast.Call]:
    return [s.value for s in ast.parse(source).body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)]


@pytest.mark.parametrize("english", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_spanish_lesson_has_the_same_cells_and_calls(english: Path) -> None:
    en, es = _nb(english), _nb(SPANISH / english.name)
    assert es["metadata"] == en["metadata"], "the same notebook metadata (Voilà needs the kernelspec)"
    assert (es["nbformat"], es["nbformat_minor"]) == (en["nbformat"], en["nbformat_minor"])
    assert [(c["cell_type"], c.get("id")) for c in es["cells"]] == [(c["cell_type"], c.get("id")) for c in en["cells"]]
    widgets = _widget_names(en)
    for c_en, c_es in zip(en["cells"], es["cells"], strict=True):
        if c_en["cell_type"] != "code":
            continue
        assert c_es["outputs"] == [] and c_es["execution_count"] is None
        # the same imports, and each call the same but for lang="es" on the widgets
        imports_en = [ast.dump(s) for s in ast.parse(_text(c_en)).body if not isinstance(s, ast.Expr)]
        imports_es = [ast.dump(s) for s in ast.parse(_text(c_es)).body if not isinstance(s, ast.Expr)]
        assert imports_es == imports_en
        for call_en, call_es in zip(_calls(_text(c_en)), _calls(_text(c_es)), strict=True):
            assert ast.dump(call_es.func) == ast.dump(call_en.func)
            assert [ast.dump(a) for a in call_es.args] == [ast.dump(a) for a in call_en.args]
            kw_en = {k.arg: ast.dump(k.value) for k in call_en.keywords}
            kw_es = {k.arg: ast.dump(k.value) for k in call_es.keywords}
            if isinstance(call_en.func, ast.Name) and call_en.func.id in widgets:
                assert kw_es.pop("lang") == ast.dump(ast.Constant("es")), f"{_text(c_es)}: no lang=\"es\""
            assert kw_es == kw_en, "the same arguments, so the lesson ids (progress and stars) are shared"


@pytest.mark.parametrize("english", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_spanish_lesson_reads_in_spanish_and_links_its_twin(english: Path) -> None:
    en, es = _nb(english), _nb(SPANISH / english.name)
    spanish = "\n\n".join(_text(c) for c in es["cells"] if c["cell_type"] == "markdown")
    paragraphs = [b for c in en["cells"] if c["cell_type"] == "markdown" for b in L.blocks(_text(c))]
    # built from the catalog: no English paragraph with words is left in the Spanish lesson
    left = [b for b in paragraphs if _has_words(b) and not b.startswith("[Español]") and b in spanish]
    assert left == []
    assert spanish.splitlines()[0] == f"[English](../{english.name})"
    assert _text(en["cells"][0]).splitlines()[0] == f"[Español](es/{english.name})"
    assert _text(es["cells"][0]).splitlines()[2].startswith("# Lección ") or english.name.startswith("00-")
    for link in L.link_targets(spanish):
        assert (SPANISH / link).resolve().is_file(), f"{link}: a link of the Spanish lesson leads nowhere"


def _paragraph_pairs() -> list[tuple[str, str]]:
    """The translated paragraphs (not those rewritten for the Spanish reader, which say something else)."""
    catalog = L.read_catalog("es")
    own = L.rewritten(catalog)
    return [(m.id, m.string) for m in catalog if m.id and isinstance(m.string, str) and m.id not in own]


def test_translations_keep_the_facts() -> None:
    # same numbers, links and code in both languages, checked paragraph by paragraph
    pairs = _paragraph_pairs()
    assert len(pairs) >= 200
    for english, spanish in pairs:
        assert spanish and (spanish != english or not _has_words(english)), english
        assert L.numbers(spanish) == L.numbers(english), english
        assert L.link_targets(spanish) == L.link_targets(english), english
        # the same markdown shape: a heading stays a heading of the same level, a table keeps its columns
        if english.startswith("#"):
            assert spanish.split(" ")[0] == english.split(" ")[0], english
        if english.startswith("|"):
            assert [r.count("|") for r in spanish.splitlines()] == [r.count("|") for r in english.splitlines()], english


def test_an_untranslated_or_changed_paragraph_is_reported(tmp_path: Path) -> None:
    copy = tmp_path / "lessons"
    shutil.copytree(LESSONS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert L.check(lessons_dir=copy) == []
    lesson = copy / "03-grande-chica.ipynb"
    nb = _nb(lesson)
    nb["cells"][5]["source"] = ["## Quiz: Grande, again\n", "\n", "Click the seat that wins Grande.\n"]
    lesson.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    found = L.check(lessons_dir=copy)
    assert any("es/03-grande-chica.ipynb: out of date" in p for p in found), found
    assert any("lessons.po: out of date" in p for p in found), found
    L.build(lessons_dir=copy)
    found = L.check(lessons_dir=copy)
    assert found == ["locale/es/LC_MESSAGES/lessons.po: untranslated (fuzzy) '## Quiz: Grande, again'"]
    # until it is translated, the new paragraph shows in English, never empty; the rest stays Spanish
    cell = _text(_nb(copy / "es" / "03-grande-chica.ipynb")["cells"][5])
    assert cell == "## Quiz: Grande, again\n\nPulsa el asiento que gana la grande."


def test_a_translation_that_drops_a_link_is_reported(tmp_path: Path) -> None:
    copy = tmp_path / "lessons"
    shutil.copytree(LESSONS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    po = L.catalog_path("es", copy)
    good = 'msgstr "**Siguiente:** [Lección 4: Pares](04-pares.ipynb)"'
    assert good in po.read_text(encoding="utf-8")
    po.write_text(po.read_text(encoding="utf-8").replace(good, good.replace("(04-", "(4-")), encoding="utf-8")
    L.build(lessons_dir=copy)
    assert any("links ['4-pares.ipynb'] differ" in p for p in L.check(lessons_dir=copy))


def test_spanish_lessons_ship_and_are_copied(tmp_path: Path) -> None:
    from musteach_server.copy_lessons import copy_lessons

    files = copy_lessons(tmp_path / "mus", source=LESSONS)
    assert {f"es/{p.name}" for p in ENGLISH} <= {f.as_posix() for f in files}
    assert not any(f.suffix in {".po", ".py"} for f in files), "catalogs and test helpers stay in the source tree"
    pyproject = (LESSONS.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"**/*.ipynb"' in pyproject, "the wheel's musteach_lessons package data takes the lessons' sub-folders"


@pytest.fixture
def throwaway_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A copy of the catalogs and the lessons that the build may change: musteach.i18n, the catalogs tool and
    the lessons tool all read the copy."""
    import musteach.i18n as i18n
    from musteach.locale import catalogs

    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    lessons = tmp_path / "lessons"
    shutil.copytree(LESSONS, lessons, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    monkeypatch.setattr(catalogs, "LOCALE_DIR", locale)
    monkeypatch.setattr(L, "LESSONS_DIR", lessons)
    i18n.languages.cache_clear()
    yield locale, lessons
    monkeypatch.undo()
    i18n.languages.cache_clear()


def test_the_add_command_starts_the_lessons_catalog_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from musteach.locale import catalogs

    started: list[tuple[str | None, Path]] = []
    monkeypatch.setattr(catalogs, "build", lambda add=None: [])
    monkeypatch.setattr(L, "build", lambda add=None, lessons_dir=LESSONS: started.append((add, lessons_dir)) or [])
    assert catalogs.main(["--add", "eu"]) == 0
    assert started == [("eu", LESSONS)]
    assert catalogs.main([]) == 0 and len(started) == 1, "without --add, make catalogs runs the lessons' build"


def test_a_new_language_speaks_english_until_translated(throwaway_tree) -> None:
    # TRANSLATING.md: `python -m musteach.locale.catalogs --add eu` starts every catalog of Basque, the lessons' too
    from musteach.i18n import Text, languages, plural_text, translator
    from musteach.locale import catalogs

    locale, lessons = throwaway_tree
    assert (locale / "eu" / "LC_MESSAGES" / "rules.mo") in catalogs.build(add="eu")
    assert (lessons / "eu" / "03-grande-chica.ipynb") in L.build(add="eu", lessons_dir=lessons)
    assert "eu" in languages()
    _ = translator("eu")
    # every sentence of the tutor falls back to its English, never to an empty string
    for domain, template in catalogs.extract().items():
        for m in list(template)[1:40]:
            if isinstance(m.id, str):
                assert _(m.id) == m.id, (domain, m.id)
    assert Text("Seat {seat} wins.", seat=2).render("eu") == "Seat 2 wins."
    assert plural_text("{n} stone", "{n} stones", 3).render("eu") == "3 stones"
    assert [p for p in catalogs.check(complete=("es",)) if p.startswith("eu/")] == []  # started, compiled, not due
    # the Basque lessons: English prose until translated, widgets asked to speak Basque, linked both ways
    en, eu = _nb(lessons / "03-grande-chica.ipynb"), _nb(lessons / "eu" / "03-grande-chica.ipynb")
    assert [c["cell_type"] for c in eu["cells"]] == [c["cell_type"] for c in en["cells"]]
    assert _text(eu["cells"][0]).splitlines()[0] == (
        "[English](../03-grande-chica.ipynb) · [Español](../es/03-grande-chica.ipynb)"
    )
    assert _text(en["cells"][0]).splitlines()[0] == "[Español](es/03-grande-chica.ipynb) · [Euskara](eu/03-grande-chica.ipynb)"
    assert _text(eu["cells"][0]).split("\n", 2)[2] == _text(en["cells"][0]).split("\n", 2)[2]
    assert 'lang="eu"' in _text(eu["cells"][1])
    es = _text(_nb(lessons / "es" / "03-grande-chica.ipynb")["cells"][0]).splitlines()[0]
    assert es == "[English](../03-grande-chica.ipynb) · [Euskara](../eu/03-grande-chica.ipynb)"
    # Basque is started, not complete: the lessons' check lists its untranslated paragraphs, never Spanish ones
    found = L.check(complete=("es", "eu"), lessons_dir=lessons)
    assert found and all(p.startswith("locale/eu/") and "untranslated" in p for p in found)
    assert L.check(lessons_dir=lessons) == []


@pytest.mark.parametrize("bad", ["EU", "basque", "e", "", "zz-top"])
def test_a_new_language_needs_a_language_code(bad: str) -> None:
    from musteach.rules.errors import LanguageError

    with pytest.raises(LanguageError, match="give a two- or three-letter code"):
        L.check_code(bad)
