"""``musteach serve`` in two languages (issue 17): the lessons of ``lessons/es`` at ``/voila/render/es/...``, the
index at ``/es/``, the server's own words (index, lesson bar, busy and error pages) from the ``pages`` catalog
(musteach/teach/pages.py), ``<html lang>``, the links between the languages, and ``/`` by the visitor's choice
or browser.

One server over small test lessons (no preheating, one place) is visited over the real protocol by
:mod:`musteach_server.probe`; the rest are plain function calls.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path
from urllib.parse import urlencode

import pytest

pytest.importorskip("voila")

from babel.messages.catalog import Catalog
from musteach_server.app import (
    LANG_COOKIE,
    ServeOptions,
    build_config,
    busy_html,
    index_html,
    not_found_html,
)
from musteach_server.command import parse_pools
from musteach_server.lessons import Lesson, lang_of, list_lessons, list_translations, preferred_language
from musteach_server.probe import Visitor, lesson_notebook, running_server
from tornado.httpclient import AsyncHTTPClient

from musteach.i18n import placeholders, speaking
from musteach.locale import catalogs
from musteach.rules.errors import LanguageError, MusError
from musteach.teach import pages

ROOT = Path(__file__).resolve().parents[1]
LANCE, OTHER = "01-lance.ipynb", "02-other.ipynb"
SOURCE_MARK = "spanish_lesson_code_" + "c0ffee"
SECRET = "SECRET-DETAIL-" + "es"


def run(coro):
    AsyncHTTPClient.configure(None, max_clients=20)
    return asyncio.run(coro)


def translated(domain: str) -> list[tuple[str, str]]:
    """(English msgid, Spanish msgstr) of each entry of ``domain`` whose Spanish differs from its English (the
    singular and each plural form of a plural entry)."""
    pairs = []
    for m in catalogs.read("es", domain):
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        strs = (m.string,) if isinstance(m.string, str) else tuple(m.string)
        for i, s in enumerate(strs):
            english = ids[min(i, len(ids) - 1)]
            if s and s != english:
                pairs.append((english, s))
    return pairs


def pieces(sentence: str) -> list[str]:
    """The literal pieces of a sentence between its placeholders, of two words or more."""
    parts = re.split(r"\{[^}]*\}", sentence)
    return [p.strip() for p in parts if len(p.strip().split()) >= 2]


def english_left(html: str, domain: str = "pages") -> list[str]:
    """English pieces of ``domain``'s translated msgids found in ``html`` (its text, tags and entities read)."""
    text = re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").replace("&amp;", "&")
    text = re.sub(r"\s+", " ", text)
    return sorted(p for p in catalogs.unshared_pieces(domain, strip=" ") if p in text)


def write_lessons(d: Path) -> Path:
    """Two English lessons, and the first of them in Spanish (es/)."""
    (d / "es").mkdir(parents=True)
    (d / LANCE).write_text(lesson_notebook("Lesson 1: who wins Grande", "1 + 1"))
    (d / OTHER).write_text(lesson_notebook("Lesson 2: another lesson", "2 + 2"))
    (d / "es" / LANCE).write_text(lesson_notebook("Lección 1: quién gana la grande", f"{SOURCE_MARK} = 1",
                                                  f"raise ValueError({SECRET!r})"))
    return d


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    lessons = write_lessons(tmp_path_factory.mktemp("lessons"))
    log = tmp_path_factory.mktemp("log") / "serve.log"
    with running_server("--lessons", str(lessons), "--pool-size", "0", "--max-kernels", "1", log_path=log,
                        cwd=ROOT) as s:
        yield s


# ----- the pages catalog ----------------------------------------------------------------------------

def test_every_page_sentence_is_in_spanish_with_its_facts():
    # the Spanish of every page and bar word, none left English, the numbers of each sentence kept
    texts = {
        "busy": pages.busy_page(37, 20, "es"),
        "busy1": pages.busy_page(1, 20, "es"),
        "missing": pages.not_found_page("es"),
        "yourself": pages.open_yourself_page("es"),
        "opening": pages.too_many_opening_page(20, "es"),
        "open": pages.too_many_open_page(20, "es"),
        "cookies": pages.cookies_needed_page("es"),
        "index": pages.index_page("es"),
        "left": pages.left_page("es"),
    }
    bar = pages.lesson_bar("es")
    link = pages.language_link("en", "es")
    words = [w for t in texts.values() for w in (t.title, t.heading, *t.paragraphs, t.link or "")]
    words += [bar.lessons, bar.skip, bar.ended, bar.reload, link.lesson_tooltip, link.index_tooltip,
              pages.lesson_link(3, "La grande y la chica", "es")]
    everything = "\n".join(words)
    used = {english for english, _ in translated("pages")}
    for english in used:
        for p in pieces(english) or [english]:
            assert p not in everything, f"English left in the Spanish pages: {p!r}"
    assert "{" not in everything  # every placeholder filled
    assert "37" in texts["busy"].paragraphs[0] and "20" in texts["busy"].paragraphs[0]
    assert "37" not in texts["busy1"].paragraphs[0] and "20" in texts["opening"].paragraphs[0]
    assert pages.lesson_link(3, "x", "es").count("3") == pages.lesson_link(3, "x", "en").count("3") == 1
    assert link.name == "English" and pages.language_link("es", "en").name == "Español"
    # the page domain's catalog is the source's, complete, placeholders matching (as tests/test_i18n.py checks)
    assert [p for p in catalogs.check() if "/pages.po" in p] == []


def test_the_current_language_is_used_when_none_is_given():
    with speaking("es"):
        assert pages.not_found_page() == pages.not_found_page("es")
    assert pages.not_found_page() == pages.not_found_page("en")
    assert pages.not_found_page().heading == "Page not found"
    with pytest.raises(LanguageError):
        pages.busy_page(3, 20, "xx")


def test_lesson_titles_come_from_the_learning_path():
    assert pages.lesson_title("03-grande-chica", "en") == "Grande and Chica"
    assert pages.lesson_title("99-nowhere", "es") is None
    es = pages.lesson_title("03-grande-chica", "es")
    # a Spanish lesson's label is the path's Spanish title when there is one, its own heading's otherwise
    lesson = Lesson.from_heading("03-grande-chica.ipynb", "Lección 3: La grande y la chica", "es")
    assert lesson.label == (es or "La grande y la chica")
    assert (lesson.path, lesson.stem, lesson.lang, lesson.number) == ("es/03-grande-chica.ipynb", "03-grande-chica",
                                                                      "es", 3)


def _markdown(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_lesson_has_one_title_in_its_heading_the_lesson_bar_and_the_link_to_it(lang):
    """The learning path's title, in each language: the notebook's heading, the served lesson bar and index,
    and the previous lesson's "Next" link all word it the same."""
    from musteach.teach.path import LESSONS

    folder = ROOT / "lessons" / ("" if lang == "en" else lang)
    served = list_lessons(folder, lang)
    assert [ls.stem for ls in served] == [lesson.name for lesson in LESSONS]
    for before, ls, lesson in zip([None, *served], served, LESSONS, strict=False):
        title = lesson.title_in(lang)
        assert ls.label == title  # (b) the bar; the index adds its number (pages.lesson_link)
        heading = re.search(r"^# (.+)$", _markdown(folder / ls.name), re.M)
        assert heading is not None and heading.group(1) == ls.title  # (a)
        assert ls.title == (pages.lesson_link(ls.number, title, lang) if ls.number > 0 else title)
        assert pages.lesson_heading(ls.stem, lang) in (ls.title, None)  # None: the title reads the same in English
        if before is not None and ls.number > 1:  # (c) the link of the lesson before (lesson 0 links lesson 1 too)
            assert f"[{pages.lesson_link(ls.number, title, lang)}]({ls.name})" in _markdown(folder / before.name)


def test_the_lessons_check_reports_a_title_worded_otherwise(tmp_path):
    from musteach.locale import lessons as L

    copy = tmp_path / "lessons"
    shutil.copytree(ROOT / "lessons", copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert L.check(lessons_dir=copy) == []
    po = L.catalog_path("es", copy)
    text = po.read_text(encoding="utf-8")
    heading, link = 'msgstr "# Lección 3: La grande y la chica"', "[Lección 3: La grande y la chica](03-grande-chica"
    assert heading in text and link in text
    po.write_text(text.replace(heading, 'msgstr "# Lección 3: Grande y chica"').replace(
        link, "[Lección 3: Grande y chica](03-grande-chica"), encoding="utf-8")
    L.build(lessons_dir=copy)
    assert sorted(L.check(lessons_dir=copy)) == [
        "es/02-seats.ipynb: link 'Lección 3: Grande y chica' to 03-grande-chica.ipynb is not the lesson's title "
        "'Lección 3: La grande y la chica'",
        "es/03-grande-chica.ipynb: heading 'Lección 3: Grande y chica' is not the lesson's title "
        "'Lección 3: La grande y la chica'",
    ]


# ----- choosing the language ------------------------------------------------------------------------

@pytest.mark.parametrize(("header", "want"), [
    ("es-ES,es;q=0.9,en;q=0.8", "es"),
    ("es", "es"),
    ("en-GB,en;q=0.9,es;q=0.8", "en"),
    ("fr-FR,fr;q=0.9,es;q=0.5", "es"),
    ("fr-FR", "en"),
    ("en;q=0.3,es-MX;q=0.6", "es"),
    ("*", "en"),
    ("es;q=0", "en"),
    ("es;q=oops, en", "en"),
    ("", "en"),
    (None, "en"),
])
def test_the_browsers_language_among_those_served(header, want):
    assert preferred_language(header, ["en", "es"]) == want
    assert preferred_language(header, ["en"]) == "en"


def test_a_lessons_language_is_its_folder():
    assert lang_of("es/01-lance.ipynb", ["en", "es"]) == "es"
    assert lang_of("01-lance.ipynb", ["en", "es"]) == "en"
    assert lang_of("fr/01-lance.ipynb", ["en", "es"]) == "en"


def test_translations_are_the_language_folders_that_hold_lessons(tmp_path):
    write_lessons(tmp_path)
    (tmp_path / "xx").mkdir()  # not a language the tutor speaks
    (tmp_path / "xx" / LANCE).write_text(lesson_notebook("Lesson 1: x", "1"))
    found = list_translations(tmp_path)
    assert list(found) == ["es"]
    assert [(ls.path, ls.label, ls.lang) for ls in found["es"]] == [("es/01-lance.ipynb", "quién gana la grande", "es")]
    assert [ls.path for ls in list_lessons(tmp_path)] == [LANCE, OTHER]  # English: the folder's own lessons
    assert list_translations(tmp_path / "es") == {}


def test_pools_name_a_lesson_in_a_language_and_cover_every_language(tmp_path):
    write_lessons(tmp_path)
    english, spanish = list_lessons(tmp_path), list_translations(tmp_path)["es"]
    every = [*english, *spanish]
    assert parse_pools(["01=5", "es/01=3"], every) == {LANCE: 5, "es/" + LANCE: 3}
    assert parse_pools(["es/01-lance=2"], every) == {"es/" + LANCE: 2}
    with pytest.raises(MusError, match="no lesson '02'"):
        parse_pools(["es/02=1"], every)  # lesson 2 has no Spanish twin
    o = ServeOptions(tmp_path, english, {"es": spanish}, max_kernels=40, pool_size=1, pools={"es/" + LANCE: 3})
    assert o.languages == ("en", "es")
    assert o.fitted_pools() == {LANCE: 1, OTHER: 1, "es/" + LANCE: 3}
    assert ServeOptions(tmp_path, english, {"es": spanish}, max_kernels=2, pool_size=1).fitted_pools() == {
        LANCE: 1, OTHER: 1, "es/" + LANCE: 0}


def test_the_template_gets_each_languages_lessons_and_words(tmp_path):
    write_lessons(tmp_path)
    o = ServeOptions(tmp_path, list_lessons(tmp_path), list_translations(tmp_path), pool_size=0)
    vc = build_config(o).VoilaConfiguration
    langs = vc.resources["musteach"]["languages"]
    assert [ls["path"] for ls in langs["es"]["lessons"]] == ["es/" + LANCE]
    assert langs["es"]["words"]["reload"] == pages.lesson_bar("es").reload
    assert langs["en"]["words"]["reload"] == "Reload"
    (to_en,) = langs["es"]["others"]
    assert (to_en["lang"], to_en["name"], to_en["index"], to_en["paths"]) == (
        "en", "English", "en/", {"01-lance": LANCE, "02-other": OTHER})
    (to_es,) = langs["en"]["others"]
    assert to_es["paths"] == {"01-lance": "es/" + LANCE}
    hook = vc.page_config_hook
    assert hook({"a": 1}, notebook_path="es/" + LANCE) == {"a": 1, "musteachLang": "es"}
    assert hook({}, notebook_path=str(tmp_path / "es" / LANCE))["musteachLang"] == "es"
    assert hook({}, notebook_path=LANCE)["musteachLang"] == "en"


def test_pages_written_in_spanish_say_so_and_keep_no_english():
    lessons = [Lesson.from_heading(LANCE, "Lección 1: quién gana la grande", "es")]
    html = {
        "index": index_html(lessons, "/", "es", ("en", "es")),
        "busy": busy_html("/", 12, "es"),
        "missing": not_found_html("/", "es"),
    }
    for name, page in html.items():
        assert page.startswith('<!DOCTYPE html>\n<html lang="es">'), name
        assert english_left(page) == [], name
    assert '<a href="/voila/render/es/01-lance.ipynb">Lección 1: quién gana la grande</a>' in html["index"]
    assert 'href="/en/" hreflang="en" lang="en"' in html["index"] and ">English</a>" in html["index"]
    assert '<a href="/es/">' in html["busy"] and "12" in html["busy"]
    english = index_html([Lesson.from_heading(LANCE, "Lesson 1: who wins Grande")], "/", "en", ("en", "es"))
    assert 'href="/es/" hreflang="es" lang="es"' in english and ">Español</a>" in english
    assert "Lesson 1: who wins Grande" in english


# ----- the server ---------------------------------------------------------------------------------

def test_the_index_opens_in_the_visitors_language(server):
    async def go():
        v = Visitor(server.base_url)
        plain = await v.fetch("/")
        spanish_browser = await v.fetch("/", headers={"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"})
        es = await v.fetch("/es/")
        chose_es = await v.fetch("/")  # the cookie /es/ set
        en = await v.fetch("/en/")
        chose_en = await v.fetch("/", headers={"Accept-Language": "es"})  # English chosen: the browser waits
        return plain, spanish_browser, es, chose_es, en, chose_en, dict(v.cookies)

    plain, spanish_browser, es, chose_es, en, chose_en, cookies = run(go())
    assert plain.code == 200 and '<html lang="en">' in plain.body.decode()
    assert "Accept-Language" in plain.headers["Vary"]
    assert (spanish_browser.code, spanish_browser.headers["Location"]) == (302, "/es/")
    body = es.body.decode()
    assert es.code == 200 and '<html lang="es">' in body and es.headers["Content-Language"] == "es"
    assert re.findall(r'href="/voila/render/([^"]+)"', body) == ["es/" + LANCE]
    assert english_left(body) == []
    assert (chose_es.code, chose_es.headers["Location"]) == (302, "/es/")
    assert en.code == 200 and chose_en.code == 200 and "Learn Mus" in chose_en.body.decode()
    assert cookies[LANG_COOKIE] == "en"


def test_a_spanish_lesson_page_speaks_spanish_and_links_its_english_twin(server):
    async def go():
        v = Visitor(server.base_url)
        es = await v.get_page("es/" + LANCE)
        await v.close_page()
        en = await v.get_page(LANCE)
        await v.close_page()
        other = await v.get_page(OTHER)
        await v.close_page()
        return es.body.decode(), en.body.decode(), other.body.decode(), dict(v.cookies)

    es, en, other, cookies = run(go())
    bar = pages.lesson_bar("es")
    assert re.search(r'<html lang="es">', es) and '<html lang="en">' in en
    nav = re.search(r'<nav class="musteach-bar" aria-label="([^"]+)">(.*?)</nav>', es, re.S)
    assert nav and nav.group(1) == bar.lessons
    assert '<a class="musteach-brand" href="/es/">musteach</a>' in nav.group(2)
    assert re.findall(r'class="musteach-lesson" href="/voila/render/([^"]+)"', nav.group(2)) == ["es/" + LANCE]
    assert f">{bar.skip}</a>" in es
    assert json.dumps(bar.ended) in es and json.dumps(bar.reload) in es  # the "session ended" bar's words
    twin = re.search(r'<a class="musteach-language" hreflang="en" lang="en"\s+href="([^"]+)" title="([^"]+)">English</a>',
                     nav.group(2))
    assert twin and twin.group(1) == "/voila/render/" + LANCE
    assert twin.group(2) == pages.language_link("en", "es").lesson_tooltip
    assert english_left(nav.group(2)) == []
    # the English twin links back; a lesson with no Spanish twin links to the Spanish index
    assert re.search(r'hreflang="es" lang="es"\s+href="/voila/render/es/01-lance.ipynb"[^>]*>Español</a>', en)
    assert re.search(r'hreflang="es" lang="es"\s+href="/es/"[^>]*>Español</a>', other)
    assert "This session ended: reload to go on." in en  # the English words stay word for word
    assert SOURCE_MARK not in es  # no code shown, in Spanish as in English
    # a cell that failed: the note in Spanish, no traceback, not Voilà's English line
    assert pages.lesson_bar("es").cell_error in es
    assert SECRET not in es and "Traceback" not in es and "There was an error" not in es
    assert cookies[LANG_COOKIE] == "en"  # the lesson read last


def test_busy_and_missing_pages_follow_the_lessons_language(server):
    async def go():
        first, second = Visitor(server.base_url), Visitor(server.base_url)
        assert (await first.get_page(LANCE)).code == 200  # the only place
        busy_es = await second.get_page("es/" + LANCE)
        busy_en = await second.get_page(OTHER)
        await first.close_page()
        missing = [await second.fetch(p) for p in ("/voila/render/es/99-none.ipynb", "/es/nowhere", "/nowhere")]
        by_browser = await Visitor(server.base_url).fetch("/nowhere", headers={"Accept-Language": "es"})
        return busy_es, busy_en, missing, by_browser

    busy_es, busy_en, missing, by_browser = run(go())
    es = busy_es.body.decode()
    assert busy_es.code == 503 and '<html lang="es">' in es and english_left(es) == []
    assert pages.busy_page(1, 20, "es").heading in es and '<a href="/es/">' in es
    assert busy_en.code == 503 and "The tutor is busy" in busy_en.body.decode()
    for r in missing[:2]:
        assert r.code == 404 and '<html lang="es">' in r.body.decode() and english_left(r.body.decode()) == []
    assert '<a href="/">Back to the lessons</a>' in missing[2].body.decode()
    assert by_browser.code == 404 and pages.not_found_page("es").heading in by_browser.body.decode()


def test_leaving_is_said_in_the_visitors_language(server):
    async def go():
        v = Visitor(server.base_url)
        assert (await v.get_page(LANCE)).code == 200
        await v.close_page()
        form = {"Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "es"}
        # (leaving is a POST with the xsrf token: issue 26; the lesson read last was English)
        es = await v.fetch("/logout", method="POST", body=urlencode({"_xsrf": v.cookies["_xsrf"]}).encode(),
                           headers=form)
        s = Visitor(server.base_url)
        asked = await s.fetch("/logout", headers={"Accept-Language": "es"})  # a Leave button, in Spanish
        spanish = await s.fetch("/logout", method="POST", body=urlencode({"_xsrf": s.cookies["_xsrf"]}).encode(),
                                headers=form)
        return es, asked, spanish

    english, asked, spanish = run(go())
    assert english.code == 200 and "You have left the tutor" in english.body.decode()
    assert any(c.startswith("musteach_session=;") or 'musteach_session=""' in c
               for c in english.headers.get_list("Set-Cookie"))
    for body in (asked.body.decode(), spanish.body.decode()):
        assert '<html lang="es">' in body and english_left(body) == [] and "Jupyter" not in body
    assert pages.leave_page("es").heading in asked.body.decode()
    assert pages.left_page("es").heading in spanish.body.decode()


def test_spanish_lessons_are_no_more_downloadable_than_english_ones(server):
    async def go():
        v = Visitor(server.base_url)
        return [await v.fetch(p) for p in (f"/voila/files/es/{LANCE}", f"/voila/files/es/%2e%2e/{LANCE}",
                                           "/voila/tree/es", "/api/contents/es")]

    for r in run(go()):
        assert r.code in (400, 403, 404) and SOURCE_MARK not in r.body.decode("utf-8", "replace")


def test_the_lessons_command_copies_the_spanish_lessons_too(tmp_path):
    from musteach_server.copy_lessons import copy_lessons

    source = write_lessons(tmp_path / "source")
    files = copy_lessons(tmp_path / "copy", source=source)
    assert {f.as_posix() for f in files} == {LANCE, OTHER, f"es/{LANCE}"}
    assert (tmp_path / "copy" / "es" / LANCE).read_text() == (source / "es" / LANCE).read_text()


def test_catalog_helpers_see_the_pages_domain():
    # the checks above read the catalog: make sure they would see English if it were left
    assert "Back to the lessons" in english_left("<p>Back to the lessons</p>")
    assert isinstance(catalogs.read("es", "pages"), Catalog)
    assert all(placeholders(e) >= placeholders(s) - {"n"} for e, s in translated("pages"))


def test_the_index_points_a_learner_to_the_page_where_a_class_is_joined():
    # a cold tester (a club host) found nothing on the index leading to /join/, the page where the code is typed
    lessons = [Lesson.from_heading(LANCE, "Lesson 1: who wins Grande")]
    for lang, words in (("en", "In a class? Join it with the code your teacher gave you"),
                        ("es", "¿Estás en una clase? Entra con el código que te ha dado tu profesor")):
        for base in ("/", "/tutor/"):
            page = index_html(lessons, base, lang, ("en", "es"))
            assert f'<p class="musteach-join"><a href="{base}join/">{words}</a></p>' in page, (lang, base)
            assert page.index('<p class="musteach-join"') < page.index('<ul class="musteach-lessons"'), "above the lessons"
