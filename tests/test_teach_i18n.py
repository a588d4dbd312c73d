"""The teaching core in Spanish (issue 17, domain ``teach``): quizzes, hints, diagnosis, second tries, scores,
stars, the learning path and progress speak the learner's language, with the same facts as in English.

The check that no English sentence is left is built from the catalog itself (every msgid of the ``teach``
domain whose Spanish differs), never from a hand-copied list. The evaluator's own explanation (the ``rules``
domain, translated by its own part) is left out of the Spanish-only check.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from musteach.i18n import speaking
from musteach.locale import catalogs
from musteach.teach.diagnosis import diagnose
from musteach.teach.errors import AnswerError, BlankAnswerError, QuizStateError
from musteach.teach.hints import hand_hints, lance_hints
from musteach.teach.path import LESSONS, find_lesson, lesson_map, quiz_status_text
from musteach.teach.progress import FileStore, Progress, ProgressError, describe_due
from musteach.teach.quiz import Question, QuestionGenerator, hand_question, lance_question, rank_question
from musteach.teach.scoring import points_text, round_text
from musteach.teach.session import QuizSession, Turn
from musteach.teach.tutor import retry_text

SKILLS = ["grande", "chica", "pares", "juego", "punto", "jugada", "juego_total", "punto_total", "rank_order"]
SEAT = {"en": re.compile(r"\b[Ss]eats? (\d)"), "es": re.compile(r"\b[Aa]siento (\d)")}
HAND = re.compile(r"\b[RCSA2-7](?:-[RCSA2-7]){3}\b")  # the lessons' hand notation, the same in every language


# ----- the English that must not be left ----------------------------------------------------------------


@cache
def english_fragments() -> tuple[str, ...]:
    """Every run of words of a ``teach`` msgid (between placeholders) that its Spanish does not keep: a
    Spanish text holding one of them holds an untranslated English sentence."""
    return tuple(sorted(catalogs.unshared_pieces("teach", min_chars=12, strip=" .,:;()'")))


def assert_spanish(texts: list[str]) -> None:
    for text in texts:
        assert "{" not in text and "}" not in text, f"placeholder left in {text!r}"
        left = [f for f in english_fragments() if f in text]
        assert not left, f"English {left} in {text!r}"


# ----- one representative run of a question kind, in one language ------------------------------------


def wrong_answer(q: Question) -> Any:
    if q.skill.value == "rank_order":
        return q.answer[::-1]
    return next(v for v, _ in q.choices if not q.is_correct(v))


def run_question(q: Question, *, second_right: bool) -> Iterator[str]:
    """A learner's whole turn on ``q``: the prompt and choices, a wrong answer, hint 1, hint 2, the second
    try (right or wrong), and the verdict; yields every text the tutor of domain ``teach`` shows."""
    yield q.prompt
    yield q.answer_text
    yield from (label for _, label in q.choices if not isinstance(label, int))
    turn = Turn(q)
    retry = turn.answer(wrong_answer(q))
    yield retry.headline
    yield retry.explanation
    for _ in range(2):
        hint = turn.hint()
        yield hint.headline
        yield hint.text
    verdict = turn.answer(q.answer if second_right else wrong_answer(q))
    yield verdict.headline
    if q.lance is None:
        yield verdict.explanation  # a hand or rank question's explanation is this domain's
    elif verdict.steps:
        yield verdict.steps[0]  # the diagnosis; steps[1] is the evaluator's sentence (domain rules)


def a_question(skill: str, seed: int) -> Question:
    q = QuestionGenerator([skill], seed=seed, instructive_share=0.5).next()
    while skill == "rank_order" and q.is_correct(q.answer[::-1]):  # a row of equal ranks has no wrong order
        seed += 100
        q = QuestionGenerator([skill], seed=seed).next()
    return q


def both(skill: str, seed: int, second_right: bool) -> dict[str, list[str]]:
    out = {}
    for lang in ("en", "es"):
        with speaking(lang):
            out[lang] = list(run_question(a_question(skill, seed), second_right=second_right))
    return out


@pytest.mark.parametrize("skill", SKILLS)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_quiz_run_in_spanish_is_all_spanish_with_the_same_facts(skill: str, seed: int) -> None:
    texts = both(skill, seed, second_right=seed == 1)
    assert_spanish(texts["es"])
    assert len(texts["es"]) == len(texts["en"])
    for en, es in zip(texts["en"], texts["es"], strict=True):
        assert Counter(SEAT["es"].findall(es)) == Counter(SEAT["en"].findall(en)), (en, es)
        assert Counter(HAND.findall(es)) == Counter(HAND.findall(en)), (en, es)
    assert texts["es"] != texts["en"]


def test_the_english_run_is_the_english_of_the_catalog() -> None:
    # the check above can fail: the same run in English is full of the fragments it looks for
    texts = both("grande", 1, second_right=False)
    assert any(f in t for t in texts["en"] for f in english_fragments())


def test_a_session_summary_and_scores_in_spanish() -> None:
    facts = {}
    for lang in ("en", "es"):
        with speaking(lang):
            s = QuizSession(QuestionGenerator(["pares"], seed=3), n=2, tries=2)
            s.answer(s.current.answer)  # type: ignore[union-attr]
            s.next()
            s.answer(wrong_answer(s.current))  # type: ignore[arg-type]
            s.hint()
            s.answer(s.current.answer)  # type: ignore[union-attr]
            texts = [s.progress_text(), s.score_text(), s.summary()]
            facts[lang] = [re.findall(r"\d+", t) for t in texts]
            if lang == "es":
                assert_spanish(texts)
                # a second try is counted apart, breaks the streak and earns no star point (issue 23)
                assert texts[1] == "Marcador: 1/2 · 1 al segundo intento · racha 0"
                assert texts[2] == (
                    "Terminado: 1 de 2 al primer intento, 1 al segundo, 0 sin acertar (50 %), mejor racha 1. "
                    "Sigue practicando. ★☆☆ (1 de 2 puntos; 1 pista, 1 segundo intento)."
                )
    assert facts["es"] == facts["en"]


def test_points_and_round_texts_take_a_language() -> None:
    points = [1.0, 0.5, 0.75, 1.0]
    assert points_text(points, 2, 1) == "★★☆ (3.25 of 4 points; 2 hints, 1 second try)."
    assert points_text(points, 2, 1, lang="es") == "★★☆ (3,25 de 4 puntos; 2 pistas, 1 segundo intento)."
    assert (
        round_text(3, points, lang="es")
        == "Tanda terminada: 3 de 4 al primer intento, 0 al segundo, 1 sin acertar (75 %). ★★☆ (3,25 de 4 puntos)."
    )
    assert points_text([1.0]) == "★★★ (1 of 1 point)."
    assert points_text([0.5, 0.5], 0, 2) == "★☆☆ (1 of 2 points; 2 second tries)."


# ----- the Spanish a player reads: the most important hints, word for word -----------------------------


def test_the_lance_hint_in_spanish() -> None:
    deal = ["12o 11c 7e 4b", "12c 12e 7o 6e", "1o 5c 6o 10e", "4c 5e 6c 7c"]
    with speaking("es"):
        h1, h2 = lance_hints(deal, mano=0, lance="grande")
    assert h1.text == (
        "Mira primero la carta más alta de cada jugador; si son iguales, la siguiente hacia abajo. "
        "A 8 reyes cada 3 es un rey."
    )
    assert h2.text == "El asiento 1 (R-R-7-6) contra el asiento 0 (R-C-7-4): decide la segunda carta, R contra C."
    assert h2.marks == lance_hints(deal, mano=0, lance="grande")[1].marks  # the same cards to light up


@pytest.mark.parametrize(
    ("hand", "says"),
    [
        ("2o 2c 7e 5b", "Los dos 2 cuentan aquí como ases (a 8 reyes), así que forman un par: A-A."),
        ("3o 12c 7e 5b", "El 3 cuenta aquí como rey (a 8 reyes), así que forma un par con el rey: R-R."),
        ("3o 3c 12e 5b", "Los dos 3 cuentan aquí como reyes (a 8 reyes), así que forman medias con el rey: R-R-R."),
        ("12o 12c 7e 7b", "Hay cartas iguales: R-R, 7-7."),
    ],
)
def test_jugada_hint_in_spanish_says_how_2s_and_3s_are_read(hand: str, says: str) -> None:
    with speaking("es"):
        assert hand_hints(hand, "jugada")[1].text == says


@pytest.mark.parametrize(
    ("hand", "says"),
    [
        ("5o 4c 1e 12b", "La carta marcada vale 10. Suma 5 + 4 + 1 + 10."),
        ("12o 11c 1e 7b", "Las cartas marcadas valen 10 cada una. Suma 10 + 10 + 1 + 7."),
        ("5o 4c 1e 7b", "Suma 5 + 4 + 1 + 7."),
    ],
)
def test_total_hint_in_spanish_in_the_singular_or_plural(hand: str, says: str) -> None:
    with speaking("es"):
        assert hand_hints(hand, "punto_total")[1].text == says


def test_the_diagnosis_in_spanish() -> None:
    deal = [["3o", "3c", "7e", "4b"], ["12c", "11o", "7c", "6e"], ["1o", "5c", "6o", "10e"], ["4c", "5e", "6c", "7o"]]
    d = diagnose(deal, mano=0, lance="grande", answer=1, lang="es")
    assert d.explanation == (
        "Has elegido el asiento 1, como si los 3 de las cartas 7-4-3-3 del asiento 0 quedaran por debajo del 4; "
        "a 8 reyes cada 3 es un rey (vale 10 puntos), así que el asiento 0 (R-R-7-4) gana al asiento 1 (R-C-7-6) "
        "en la segunda carta."
    )
    assert d.why_not == "El asiento 1 (R-C-7-6) pierde contra el asiento 0 (R-R-7-4) en la segunda carta."
    english = diagnose(deal, mano=0, lance="grande", answer=1)
    assert (d.mistake, d.winner, d.correct) == (english.mistake, english.winner, english.correct)
    assert english.explanation.startswith("You picked seat 1, as if the 3s in seat 0's 7-4-3-3 ranked below the 4")


# A Grande deal where seat 2 is a plain slip: no misconception gives it (seat 3 wins, 10-10-10-7).
SLIP_DEAL = ["3o 6b 10e 2o", "1o 12c 5o 4e", "4o 6e 4b 5c", "7e 10o 10c 10b"]


@pytest.mark.parametrize("hints", [0, 1, 2])
def test_a_slip_in_spanish_offers_a_hint_only_while_one_is_left(hints: int) -> None:
    with speaking("es"):
        turn = Turn(lance_question(SLIP_DEAL, 1, "grande"))
        for _ in range(hints):
            turn.hint()
        text = turn.answer(2).explanation
    look = "Vuelve a mirar las cartas de cada jugador"
    assert text == (f"{look}, o pide una pista. Inténtalo otra vez." if hints < 2 else f"{look}. Inténtalo otra vez.")


def test_a_total_retry_in_spanish_names_the_slip() -> None:
    with speaking("es"):
        q = hand_question("12o 11c 3e 5b", "juego_total")  # 10 + 10 + 10 + 5 = 35
        assert retry_text(q, 38) == (
            "38 es demasiado alto. Parece que has contado las figuras por su número: R, C y S valen 10 cada una. "
            "Inténtalo otra vez."
        )
        assert retry_text(q, 28).startswith("28 es demasiado bajo. Parece que has tomado un 3 por un 3")


# ----- errors: English in str(), the learner's language in message() ----------------------------------


def test_quiz_errors_speak_spanish() -> None:
    q = hand_question("5o 4c 1e 12b", "juego_total")
    with pytest.raises(BlankAnswerError) as blank:
        Turn(q).answer(" ")
    assert (str(blank.value), blank.value.message("es")) == ("Type a number first.", "Escribe antes un número.")
    with pytest.raises(AnswerError) as big:
        q.grade(41)
    assert str(big.value) == "a hand's total is between 4 and 40 (four aces to four kings), not 41."
    assert (
        big.value.message("es")
        == "la suma de cuatro cartas está entre 4 y 40 (de cuatro ases a cuatro reyes), no es 41."
    )
    with pytest.raises(AnswerError) as missing:
        rank_question(["1o", "3c", "12b"]).grade(["1o"])
    assert missing.value.message("es").startswith("coloca todas las cartas: aún faltan ")
    s = QuizSession(QuestionGenerator(["grande"], seed=1), n=1)
    s.answer(0)
    with pytest.raises(QuizStateError) as over:
        s.answer(0)
    assert over.value.message("es") == "el ejercicio ha terminado: empieza otra vez para tener preguntas nuevas"
    with pytest.raises(Exception) as seat:
        lance_question(SLIP_DEAL, 1, "pares").grade(7)
    assert seat.value.message("es") == "la respuesta tiene que ser un asiento 0, 1, 2 o 3, o nadie, no 7"  # type: ignore[attr-defined]


# ----- the learning path: ids stay, titles translate, stars are shared ---------------------------------


def test_lesson_ids_and_links_stay_titles_translate() -> None:
    with speaking("es"):
        titles = [lesson.title for lesson in LESSONS]
        labels = [q.label for lesson in LESSONS for q in lesson.quizzes]
    assert titles[3] == "La grande y la chica" and LESSONS[3].title == "Grande and Chica"
    assert "Los empates, para la mano" in labels
    assert [lesson.name for lesson in LESSONS][3] == "03-grande-chica"
    assert find_lesson("03-grande-chica").notebook == "03-grande-chica.ipynb"  # relative: works from lessons/es/
    assert find_lesson("03-grande-chica").title_in("es") == "La grande y la chica"
    assert_spanish(titles + labels)


def test_stars_are_shared_across_languages() -> None:
    p = Progress()
    with speaking("es"):
        p.record_run("03-grande-chica", "grande", [1.0] * 10, 3)
        es = lesson_map(p)[3]
        status_es = es.status_text
        best_es = quiz_status_text(p, "03-grande-chica", "grande")
    en = lesson_map(p)[3]
    assert (es.stars, es.done, [q.stars for q in es.quizzes]) == (en.stars, en.done, [q.stars for q in en.quizzes])
    assert en.status_text == "Grande 3 stars (1 run); Chica not finished yet"
    assert status_es == "Grande: 3 estrellas (1 tanda); Chica: aún sin terminar"
    assert best_es == "Tu mejor resultado aquí: ★★★ (1 tanda)."
    assert quiz_status_text(p, "03-grande-chica", "chica", lang="es") == (
        "Aún sin terminar: termina una tanda para ganar hasta 3 estrellas."
    )
    assert json.loads(p.to_json())["runs"][0][2:4] == ["03-grande-chica", "grande"]  # ids, not titles


# ----- progress: messages and errors ------------------------------------------------------------------


def test_a_damaged_progress_file_is_set_aside_in_spanish(tmp_path: Any) -> None:
    path = tmp_path / "progress.json"
    path.write_text("{oops", encoding="utf-8")
    store = FileStore(path)
    with speaking("es"):
        assert store.load().answered() == 0
        where = store.where
    (notice,) = store.notices
    assert notice.startswith("No se pudo leer tu progreso guardado (el archivo está dañado: esto no es JSON válido")
    assert store.set_aside_paths[0].name in notice
    assert where == f"en el archivo {path}"
    with pytest.raises(ProgressError) as err:
        Progress.from_json('{"schema": "musteach-progress", "schema_version": 99}')
    assert "newer musteach" in str(err.value) and "más nuevo" in err.value.message("es")


@pytest.mark.parametrize(
    ("seconds", "en", "es"),
    [(0, "due now", "toca ya"), (600, "in 10 min", "dentro de 10 min"), (86400, "in 1 day", "dentro de 1 día"),
     (3 * 86400, "in 3 days", "dentro de 3 días")],
)  # fmt: skip
def test_describe_due_in_both_languages(seconds: int, en: str, es: str) -> None:
    from datetime import UTC, datetime, timedelta

    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert (
        describe_due(now + timedelta(seconds=seconds), now),
        describe_due(now + timedelta(seconds=seconds), now, lang="es"),
    ) == (en, es)


def _errors() -> list[Callable[[], object]]:
    return [
        lambda: Progress.from_json("[1, 2]"),
        lambda: Progress.from_json('{"schema": "musteach-progress", "schema_version": 3, "best_streak": -1}'),
        lambda: find_lesson("99-nope"),
        lambda: find_lesson("03-grande-chica").quiz("nope"),
    ]


@pytest.mark.parametrize("make", _errors())
def test_errors_name_the_bad_value_in_both_languages(make: Callable[[], object]) -> None:
    with pytest.raises(Exception) as err:
        make()
    es = err.value.message("es")  # type: ignore[attr-defined]
    assert es != str(err.value)
    assert_spanish([es])
    assert set(re.findall(r"\d+|'[^']*'", es)) >= set(re.findall(r"\d+|'[^']*'", str(err.value))) - {"'schema'"}


def test_entry_points_take_an_explicit_language() -> None:
    deal = ["12o 11c 7e 4b", "12c 12e 7o 6e", "1o 5c 6o 10e", "4c 5e 6c 7c"]
    with speaking("es"):
        spoken = (lance_hints(deal, 0, "grande"), lance_question(deal, 0, "grande").prompt)
    assert (lance_hints(deal, 0, "grande", lang="es"), lance_question(deal, 0, "grande", lang="es").prompt) == spoken
    assert spoken[1] == "¿Quién gana la grande (las cartas más altas)? El asiento 0 es mano (8 reyes)."
    q = QuestionGenerator(["jugada"], seed=1, lang="es").next()
    assert q.prompt.startswith("¿Qué llevan estas cartas a pares")
    assert retry_text(q, wrong_answer(q), lang="es").endswith("Inténtalo otra vez.")
    assert (
        rank_question(["1o", "3c", "12b"], lang="es").prompt
        == "Ordena estas 3 cartas, de la más alta a la más baja (8 reyes)."
    )
    assert hand_question("5o 4c 1e 12b", "juego_total").prompt.startswith(
        "What is this hand's total"
    )  # English by default
