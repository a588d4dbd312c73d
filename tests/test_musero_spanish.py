"""Spanish written for Spanish players (issue 28, items 1 and 3): lances and seats named as players say them, and
lessons whose asides speak to a Spanish reader.

The forms of a lance's name (``{lance:the}`` «la grande», ``{lance:at}`` «a pares») and a seat's role
(``{seat:Role}`` «El postre») are catalog entries, asked for by the Spanish sentence; English is unchanged.
"""

from __future__ import annotations

import json
import pickle
import re
import shutil
from pathlib import Path

import pytest

from musteach.i18n import Term, translator
from musteach.locale import lessons as L
from musteach.play.game import Game
from musteach.rules.lances import LANCES, Lance, Seat

LESSONS = Path(__file__).resolve().parents[1] / "lessons"


def _spanish_lesson(name: str) -> str:
    nb = json.loads((LESSONS / "es" / name).read_text(encoding="utf-8"))
    return "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


# ----- lances and seats as players name them -------------------------------------------------------------------


def test_lances_are_said_with_their_article_or_after_a() -> None:
    _ = translator("es")
    said = {la.value: (_("{x:the}", x=la.title), _("{x:at}", x=la.title), _("{x:of}", x=la.title)) for la in LANCES}
    assert said == {
        "grande": ("la grande", "a la grande", "de la grande"),
        "chica": ("la chica", "a la chica", "de la chica"),
        "pares": ("los pares", "a pares", "de pares"),
        "juego": ("el juego", "a juego", "de juego"),
        "punto": ("el punto", "al punto", "del punto"),
    }
    # English has no forms: the label, whatever the sentence asks
    assert translator("en")("{x:the} / {x:at} / {x}", x=Lance.PARES.title) == "Pares / Pares / Pares"
    # a lance's title is still its label everywhere else
    assert Lance.GRANDE.title == "Grande" and f"{Lance.GRANDE.title}" == "Grande" and Lance.GRANDE.said == "grande"
    assert pickle.loads(pickle.dumps(Lance.JUEGO.title)) == "Juego"


def test_a_form_asked_of_a_plain_word_is_the_word() -> None:
    # a caller that passes a plain string where the Spanish sentence asks for a form: the word, never a crash
    _ = translator("es")
    assert _("Responder que el asiento {seat} gana {lance:the}", seat=2, lance="Grande") == (
        "Responder que el asiento 2 gana Grande"
    )
    assert _("{seat:Role} dice mus.", seat=3) == "3 dice mus."


def test_seats_are_named_by_their_role_at_the_table() -> None:
    _ = translator("es")
    roles = [_("{s:Role} / {s:role} / {s}", s=Seat(seat, mano=1)) for seat in (1, 2, 3, 0)]
    assert roles == ["El mano / el mano / 1", "El segundo / el segundo / 2", "El tercero / el tercero / 3",
                     "El postre / el postre / 0"]
    assert translator("en")("Seat {s} says mus.", s=Seat(0, 1)) == "Seat 0 says mus."
    assert Seat(2, 0) == 2 and pickle.loads(pickle.dumps(Seat(2, 0))).mano == 0
    with pytest.raises(ValueError):
        Seat(4, 0)


def test_the_games_log_names_players_by_role() -> None:
    g = Game(seed=8, lang="es")  # mano is seat 0: seat 3 is the postre
    g.act(0, "mus")
    assert g.history[-1].text == "El mano (0) dice mus."
    en = Game(seed=8)
    en.act(0, "mus")
    assert en.history[-1].text == "Seat 0 says mus."
    cards = [e.text for e in g.history if e.text.endswith(".") and " recibe " in e.text]
    assert [t.split(" recibe ")[0] for t in cards] == ["El mano (0)", "El segundo (1)", "El tercero (2)", "El postre (3)"]


def test_the_quiz_answer_says_the_lance_as_players_do() -> None:
    _ = translator("es")
    said = _("seat {seat} wins {lance}", seat=1, lance=Lance.PARES.title)
    assert said == "el asiento 1 gana los pares" and "lance de" not in said


# ----- lessons written for a Spanish reader ----------------------------------------------------------------------


def test_spanish_lessons_speak_of_spanish_pitfalls_not_english_translations() -> None:
    spanish = {p.name: _spanish_lesson(p.name) for p in sorted((LESSONS / "es").glob("[0-9][0-9]-*.ipynb"))}
    everything = "\n".join(spanish.values())
    for english_aside in ("traducción inglesa", "reglamentos traducidos", "mal traducidos", "texto traducido",
                          "muchacha", "cuatro tercios", "6910", "sobre todo para enseñar"):
        assert english_aside not in everything, english_aside
    deck = spanish["01-deck.ipynb"]
    assert "Navarra, La Rioja y Gipuzkoa" in deck and "¿a cuántos reyes jugamos?" in deck
    assert "**la real**" in spanish["05-juego-punto.ipynb"] and "7-7-7-sota" in spanish["05-juego-punto.ipynb"]
    assert "no desempata la carta suelta" in spanish["04-pares.ipynb"]
    assert "hacia la derecha" in spanish["02-seats.ipynb"]
    # the English lesson says the same of 4 reyes: the traditional game of three regions, not a teaching aid
    english = json.loads((LESSONS / "01-deck.ipynb").read_text(encoding="utf-8"))
    text = "".join("".join(c["source"]) for c in english["cells"])
    assert "the traditional game in Navarra, La Rioja and Gipuzkoa" in text and "especially when teaching" not in text


def test_rewritten_paragraphs_are_marked_and_only_there_say_other_facts() -> None:
    catalog = L.read_catalog("es")
    own = L.rewritten(catalog)
    assert len(own) >= 7
    assert any(m.startswith("Some translated rule texts get this wrong") for m in own)
    assert any(m.startswith("One translated text says") for m in own)
    # everything else keeps its English paragraph's numbers
    for m in catalog:
        if m.id and isinstance(m.string, str) and m.string and m.id not in own:
            assert L.numbers(m.string) == L.numbers(m.id), m.id[:60]


def test_a_rewritten_paragraph_replaces_its_source_and_passes_the_check(tmp_path: Path) -> None:
    copy = tmp_path / "lessons"
    shutil.copytree(LESSONS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    po = L.catalog_path("es", copy)
    text = po.read_text(encoding="utf-8")
    source = "msgid \"Remember that a chance is not a promise"
    assert source in text
    # a paragraph with other numbers than its English one: reported as a translation...
    start = text.index(source)
    end = text.index("\n\n", start)
    entry = text[start:end]
    other = re.sub(r'msgstr ".*"', 'msgstr "Una probabilidad no es una promesa: 99 de cada 100 también pierde 1 vez."', entry)
    po.write_text(text.replace(entry, other), encoding="utf-8")
    L.build(lessons_dir=copy)
    assert any("numbers" in p for p in L.check(lessons_dir=copy))
    # ...and accepted once marked as written for the Spanish reader, then shown in the Spanish lesson
    po.write_text(text.replace(entry, "# rewritten: a test\n" + other), encoding="utf-8")
    L.build(lessons_dir=copy)
    assert L.check(lessons_dir=copy) == []
    nb = json.loads((copy / "es" / "12-odds.ipynb").read_text(encoding="utf-8"))
    assert any("99 de cada 100" in "".join(c["source"]) for c in nb["cells"])
    # a rewritten paragraph still may not link to a lesson that is not there
    po.write_text(
        text.replace(entry, "# rewritten: a test\n" + other.replace("1 vez.", "1 vez [aquí](99-nada.ipynb)."))
        , encoding="utf-8")
    L.build(lessons_dir=copy)
    assert any("leads to no lesson" in p for p in L.check(lessons_dir=copy))


def test_a_term_is_a_string() -> None:
    t = Term("Grande", "lance")
    assert isinstance(t, str) and t.kind == "lance" and t.key == "Grande" and t.lower() == "grande"


# ----- «casi» only when it was close -------------------------------------------------------------------------


@pytest.mark.parametrize(("given", "close"), [(26, True), (28, True), (30, False), (17, False)])
def test_casi_only_when_the_answer_was_close(given: int, close: bool) -> None:
    from musteach.i18n import speaking
    from musteach.teach.quiz import hand_question

    q = hand_question("12o 7c 6e 4b", "punto_total")  # 10 + 7 + 6 + 4 = 27
    assert q.answer == 27
    assert q.grade(given).headline.startswith("Close, but not quite" if close else "Not quite")
    with speaking("es"):
        headline = q.grade(given).headline
    assert headline.startswith("Casi: ") == close, headline
    assert headline.startswith("No es eso: ") != close, headline
