"""The widgets in Spanish (issue 17): every widget takes ``lang``, shows its own words from the ``ui`` catalog in
that language, answers in it click after click, and two widgets of one kernel keep their own languages.

"No English word of the widgets" is checked against the catalog itself (musteach/locale/es/LC_MESSAGES/ui.po):
every ``ui`` msgid whose Spanish differs must not be a label, tooltip, placeholder or option of a Spanish widget,
nor (when long enough to be told apart from other parts' sentences) stand in the text of its HTML.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

import ipywidgets as widgets
import musteach_widgets as mw
import pytest

from musteach.i18n import current_lang, placeholders, translator
from musteach.locale.catalogs import read
from musteach.rules.errors import LanguageError, MusError
from musteach.rules.lances import Lance
from musteach.teach import labels
from musteach.teach.wording import for_learner

pytestmark = pytest.mark.usefixtures("strict_widgets")

DEAL = ["12o 3c 7e 5b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 2b"]
SEARCH_MIN = 14  # a msgid's fixed text at least this long is looked for inside HTML text too


# ----------------------------------------------------------------------------------------------
# What a widget shows
# ----------------------------------------------------------------------------------------------


def walk(w: widgets.Widget) -> Iterator[widgets.Widget]:
    yield w
    for child in getattr(w, "children", ()):
        yield from walk(child)


def shown(w: widgets.Widget) -> tuple[list[str], list[str]]:
    """(labels, texts): every description, tooltip, placeholder and option label of the widget's tree, and the
    text of its HTML (tags and styles dropped; aria-labels kept; pictures dropped: musteach.draw words them)."""
    words: list[str] = []
    texts: list[str] = []
    for x in walk(w):
        for attr in ("description", "tooltip", "placeholder"):
            value = getattr(x, attr, None)
            if isinstance(value, str) and value:
                words.append(value)
        words.extend(str(t) for t in getattr(x, "tooltips", None) or () if t)
        words.extend(getattr(x, "_options_labels", None) or ())
        value = getattr(x, "value", None)
        if isinstance(x, widgets.HTML) and isinstance(value, str) and value:
            body = re.sub(r"<style>.*?</style>|<svg\b.*?</svg>", "", value, flags=re.S)
            words.extend(html.unescape(a) for a in re.findall(r'aria-label="([^"]*)"', body))
            texts.append(html.unescape(re.sub(r"<[^>]+>", " ", body)))
    return words, texts


@lru_cache(maxsize=1)
def english_msgids() -> tuple[tuple[str, re.Pattern[str], bool], ...]:
    """Each ``ui`` msgid (both forms of a plural) that Spanish writes otherwise: (msgid, its pattern with the
    placeholders as wildcards, whether it is long enough to look for inside other text)."""
    out = []
    for m in read("es", "ui"):
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        strs = (m.string,) if isinstance(m.string, str) else tuple(m.string)
        for msgid in ids:
            if msgid in strs:
                continue  # the same word in both languages ("Mus", "Envido", "8 reyes")
            parts = re.split(r"\{[a-z_]+\}", msgid)
            pattern = re.compile(".+?".join(re.escape(p) for p in parts), re.S)
            out.append((msgid, pattern, len("".join(parts)) >= SEARCH_MIN))
    return tuple(out)


def english_left(w: widgets.Widget, besides: Iterable[str] = ()) -> list[str]:
    """The ``ui`` msgids a widget shows in English, leaving out ``besides``: sentences other parts of musteach
    wrote (a question's prompt and choices, a verdict), which their own catalogs translate."""
    others = sorted({for_learner(s) for s in besides if s}, key=len, reverse=True)
    words, texts = shown(w)
    words = [x for x in words if x not in others]
    for s in others:
        texts = [t.replace(s, " ") for t in texts]
    found = []
    for msgid, pattern, long_enough in english_msgids():
        if any(pattern.fullmatch(x.strip()) for x in words) or (
            long_enough and any(pattern.search(t) for t in texts)
        ):
            found.append(msgid)
    return found


@lru_cache(maxsize=1)
def spanish_words() -> frozenset[str]:
    """The Spanish of every ``ui`` msgid without placeholders that Spanish writes otherwise."""
    return frozenset(
        m.string for m in read("es", "ui") if isinstance(m.id, str) and m.id and m.string != m.id and "{" not in m.id
    )


def es(msgid: str, **params: object) -> str:
    return translator("es")(msgid, **params)


# ----------------------------------------------------------------------------------------------
# The check itself can fail
# ----------------------------------------------------------------------------------------------


def test_the_check_finds_english_labels_and_lets_spanish_ones_pass():
    english = widgets.VBox([widgets.Button(description="Next", tooltip="Go to the next question")])
    assert english_left(english) == ["Go to the next question", "Next"]
    spanish = widgets.VBox([widgets.Button(description=es(labels.NEXT), tooltip=es(labels.NEXT_TIP))])
    assert english_left(spanish) == []
    sentence = widgets.HTML("<p>Nice. <b>Something went wrong counting these odds; pick a card again.</b></p>")
    assert english_left(sentence) == ["Something went wrong counting these odds; pick a card again."]


# ----------------------------------------------------------------------------------------------
# Each widget in Spanish, with a full answer cycle
# ----------------------------------------------------------------------------------------------


def said_by_musteach(quiz) -> list[str]:
    """What the quiz shows that other parts of musteach wrote: the prompt, the choices, the score and the
    verdicts so far (the ``teach`` and ``coach`` catalogs translate them)."""
    s = quiz.session
    out = [s.score_text(), s.progress_text(), s.summary()]
    q = quiz.question
    if q is not None:
        out += [q.prompt, *(label for _, label in getattr(q, "choices", ()))]
    now = getattr(quiz, "verdict", None) or getattr(quiz, "grade", None)
    for turn in (*s.history, *([(q, now)] if now else [])):
        verdict = turn[1] if isinstance(turn, tuple) and len(turn) > 1 else None
        if verdict is not None and hasattr(verdict, "headline"):
            reasons = [verdict.reasons] if isinstance(verdict.reasons, str) else list(verdict.reasons)
            out += [verdict.headline, *reasons]
    if s.retry is not None:
        out += [s.retry.headline, s.retry.explanation]
    return out


def said_in_practice(practice) -> list[str]:
    """What the practice shows that other parts of musteach wrote: the question, why it was picked, the verdict,
    when each skill is due again."""
    from musteach.teach.progress import describe_due

    item, out = practice.item, []
    if item is not None:
        q = item.question
        out += [item.shown.prompt, item.pick.reason_text, *(label for _, label in getattr(q, "choices", ()))]
    if practice.outcome is not None:
        reasons = practice.outcome.reasons
        out += [practice.outcome.headline, *([reasons] if isinstance(reasons, str) else reasons)]
        out += [practice.outcome.explanation or ""] if hasattr(practice.outcome, "explanation") else []
    now = practice.clock()
    out += [describe_due(practice.progress.due(s), now) for s in practice.skills]
    return out


def answer_right(quiz) -> None:
    """Answer the question on screen rightly, by clicks."""
    q = quiz.question
    if isinstance(quiz, mw.RankQuiz):
        for card in q.answer:
            quiz.button_for(card).click()
        quiz.check_button.click()
    elif isinstance(quiz, mw.TotalQuiz) and quiz.mode == "entry":
        quiz.total_input.value = str(q.answer)
        quiz.check_button.click()
    else:
        quiz.button_for(q.answer).click()


def answer_wrong(quiz) -> None:
    q = quiz.question
    if isinstance(quiz, mw.TotalQuiz) and quiz.mode == "entry":
        quiz.total_input.value = str(q.answer + 1)
        quiz.check_button.click()
    else:
        value = next(v for v, _ in q.choices if not (type(v) is type(q.answer) and v == q.answer))
        quiz.button_for(value).click()


QUIZZES = {
    "lance": lambda lang: mw.LanceQuiz("grande", n=3, seed=2, lang=lang),
    "jugada": lambda lang: mw.JugadaQuiz(n=3, seed=3, lang=lang),
    "total": lambda lang: mw.TotalQuiz("juego", n=3, seed=4, lang=lang),
    "rank": lambda lang: mw.RankQuiz(n=3, seed=5, lang=lang),
    "sena": lambda lang: mw.SenaQuiz("meaning", n=3, seed=6, lang=lang),
    "odds": lambda lang: mw.OddsQuiz(n=3, seed=7, lang=lang),
}


@pytest.mark.parametrize("name", list(QUIZZES))
def test_a_quiz_in_spanish_answers_click_after_click_in_spanish(name):
    quiz = QUIZZES[name]("es")
    assert quiz.lang == "es" and current_lang() == "en"  # the widget's language stays inside it
    assert english_left(quiz, said_by_musteach(quiz)) == []
    assert quiz.next_button.description == es(labels.NEXT) == "Siguiente"
    assert quiz.hint_button.description == "Pista"
    if name != "rank":
        quiz.hint_button.click()
        answer_wrong(quiz)  # a second try, then the right answer
        assert "musteach-retry" in quiz.feedback.value
        assert english_left(quiz, said_by_musteach(quiz)) == []
    answer_right(quiz)
    assert quiz.verdict is not None and quiz.verdict.correct
    assert english_left(quiz, said_by_musteach(quiz)) == []
    for _ in range(2):  # the run to its end, and Start again: still Spanish
        quiz.next_button.click()
        answer_right(quiz)
        assert english_left(quiz, said_by_musteach(quiz)) == []
    assert quiz.restart_button.description == "Empezar de nuevo" and quiz.restart_button.layout.display is None
    quiz.restart_button.click()
    answer_right(quiz)
    assert english_left(quiz, said_by_musteach(quiz)) == [] and quiz.errors == []


def test_the_same_facts_in_both_languages():
    en, sp = mw.LanceQuiz("grande", n=2, seed=11), mw.LanceQuiz("grande", n=2, seed=11, lang="es")
    assert en.question.hands == sp.question.hands and en.question.answer == sp.question.answer
    seat = en.question.answer
    assert en.button_for(seat).tooltip == f"Answer that seat {seat} wins Grande"
    assert sp.button_for(seat).tooltip == es(labels.SEAT_WINS_TIP, seat=seat, lance=Lance.GRANDE.title)
    assert f"asiento {seat}" in sp.button_for(seat).tooltip
    for quiz in (en, sp):
        quiz.button_for(seat).click()
    assert en.verdict.correct and sp.verdict.correct and en.verdict.expected == sp.verdict.expected


def test_stones_quizzes_in_spanish():
    betting = mw.BettingQuiz(n=2, seed=3, lang="es")
    assert english_left(betting, said_by_musteach(betting)) == []
    assert betting.stones_a.description == "Pareja A" and betting.check_button.description == "Comprobar"
    betting.stones_a.value = "x"  # not a number: a hint in Spanish, no try used
    betting.check_button.click()
    assert "Inténtalo otra vez" in betting.feedback.value
    q = betting.question
    betting.stones_a.value, betting.stones_b.value = str(q.answer["A"]), str(q.answer["B"])
    betting.check_button.click()
    assert betting.grade is not None and betting.grade.correct
    betting.next_button.click()
    assert english_left(betting, said_by_musteach(betting)) == []

    count = mw.CountQuiz(n=1, seed=4, lang="es")
    assert english_left(count, said_by_musteach(count)) == []
    q = count.question
    for key, row in count.cells.items():
        for team, box in row.items():
            box.value = str(q.answer[key][team])
    count.check_button.click()
    assert count.grade is not None and count.grade.correct
    assert english_left(count, said_by_musteach(count)) == []


def test_views_in_spanish():
    deal = mw.show_deal(DEAL, mano=0, lance="grande", lang="es")
    assert english_left(deal) == [] and deal.picker.options[0][0] == "Todos los lances"
    deal.picker.value = "chica"
    assert english_left(deal) == [] and "Asiento 0" in deal.explanation.value

    view = mw.show_count(DEAL, mano=0, betting={"grande": "0 envido, 1 quiero"}, lang="es")
    assert english_left(view) == [] and view.board is not None and view.board.lang == "es"
    view.step_button.click()
    view.all_button.click()
    assert english_left(view) == [] and view.where.value.startswith("Paso ")

    betting = mw.show_betting("grande", 0, "0 envido, 1 no quiero", lang="es")
    assert english_left(betting) == [] and "es mano el asiento 0" in betting.body.value

    for w in (mw.SenaCatalogue(lang="es"), mw.ScoreBoard(12, 38, lang="es"), mw.OddsPanel("12o 3c 11e 1b", lang="es")):
        assert english_left(w) == []


def test_odds_explorer_and_advisor_in_spanish():
    explorer = mw.OddsExplorer(lang="es")
    assert english_left(explorer) == [] and explorer.position_picker.options[0][0] == "mano"
    explorer.card_pickers[1].value = explorer.card_pickers[0].value  # a card twice: the message in Spanish
    assert explorer.error is not None and "Elige otra carta" in explorer.message.value
    explorer.card_pickers[1].value = "5o"
    assert explorer.error is None and english_left(explorer) == []

    advisor = mw.DiscardAdvisor(background=False, lang="es")
    assert advisor.advice is not None and english_left(advisor) == []
    assert "Los 15 descartes" in advisor.table.value


def test_the_advisors_background_count_speaks_its_language():
    advisor = mw.DiscardAdvisor(lang="es")  # counted in a thread: the thread carries the advisor's language
    assert advisor.wait(120)
    assert advisor.advice is not None and english_left(advisor) == []
    assert "Los 15 descartes" in advisor.table.value and "The 15 discards" not in advisor.table.value


def test_practice_in_spanish_answers_and_goes_on():
    practice = mw.PracticeQuiz(n=2, skills=["grande", "jugada"], seed=3, store="memory", lang="es")
    assert english_left(practice, said_in_practice(practice)) == []
    assert practice.title.value == "Práctica" and "Tus habilidades" in practice.mastery_view.value
    for _ in range(3):
        practice.answer_controls[0].click()
        if practice.outcome is None:  # a second try: any other answer
            next(b for b in practice.answer_controls if not b.disabled).click()
        assert practice.outcome is not None and english_left(practice, said_in_practice(practice)) == []
        practice.next_button.click()
    assert "En total: 3 respuestas" in practice.totals.value


def test_map_and_table_in_spanish():
    from musteach.teach.path import lesson_map as stops

    lesson_map = mw.LessonMap(store="memory", lang="es")
    besides = [x for stop in stops(lesson_map.progress) for x in (stop.status_text, stop.lesson.title)]
    assert english_left(lesson_map, besides) == []
    lesson_map.reset_button.click()
    assert "¿Olvidarlo todo?" in lesson_map.feedback.value and english_left(lesson_map, besides) == []

    table = mw.PlayTable(seed=3, bot="rule", background=False, lang="es")
    assert english_left(table) == []
    assert 'aria-label="una carta boca abajo"' in table.seats_view.value  # the table's own picture of a card back
    assert table.button("no-quiero").description == "No quiero" and table.next_button.description == "Siguiente ronda"
    assert [label for label, _ in table.level_choice.options][:3] == ["Principiante", "De club", "Fuerte"]
    for _ in range(12):  # decide with clicks until the hand is over
        if table.game.hand.is_over:
            break
        kinds = table.enabled_kinds()
        kind = next(k for k in ("no-hay-mus", "paso", "no-quiero", "declare-si", "declare-no", "quiero") if k in kinds)
        table.button(kind).click()
        assert english_left(table) == []
    table.button("quiero").click()  # refused: the message in Spanish
    assert "Eso no se puede ahora" in table.message.value
    assert english_left(table) == [] and table.errors == []


# ----------------------------------------------------------------------------------------------
# Two widgets of one kernel, and the kernel's default
# ----------------------------------------------------------------------------------------------


def test_two_widgets_in_one_kernel_answer_in_turn_and_keep_their_languages():
    en = mw.LanceQuiz("chica", n=3, seed=8, lang="en")
    sp = mw.LanceQuiz("chica", n=3, seed=8, lang="es")
    for step in range(3):
        for quiz in (en, sp, en):  # interleaved clicks: a second click on an answered question is ignored
            if quiz.verdict is None or quiz.session.can_answer():
                answer_right(quiz)
        assert en.next_button.description == "Next" and sp.next_button.description == "Siguiente"
        assert en.verdict.correct and sp.verdict.correct
        assert english_left(sp, said_by_musteach(sp)) == []
        assert not set(shown(en)[0]) & spanish_words()  # the English quiz shows none of the Spanish labels
        assert {"Next", "Hint"} <= set(english_left(en))  # and the check tells its English apart
        if step < 2:
            en.next_button.click()
            sp.next_button.click()
    assert en.title.value == "Who wins Chica?" and sp.title.value == es(labels.WHO_WINS, lance="Chica")
    assert current_lang() == "en"


def test_use_language_sets_the_kernels_default_and_lang_wins_over_it():
    try:
        assert mw.use_language("es") == "es"
        default = mw.JugadaQuiz(n=1, seed=1)
        explicit = mw.JugadaQuiz(n=1, seed=1, lang="en")
        assert default.lang == "es" and default.next_button.description == "Siguiente"
        assert explicit.lang == "en" and explicit.next_button.description == "Next"
    finally:
        assert mw.use_language(None) == "en"
    assert mw.JugadaQuiz(n=1, seed=1).lang == "en"


@pytest.mark.parametrize("bad", ["xx", "klingon", 3, ""])
def test_a_bad_language_is_a_friendly_message(bad):
    with pytest.raises(LanguageError) as err:
        mw.LanceQuiz("grande", n=1, lang=bad)
    assert isinstance(err.value, MusError)
    assert "the tutor speaks en, es" in str(err.value) and "Traceback" not in str(err.value)
    assert err.value.message("es").startswith("no hay idioma")
    with pytest.raises(LanguageError):
        mw.use_language(bad)
    assert mw.kernel_language() == "en"


def test_errors_of_bad_arguments_speak_the_widgets_language():
    with pytest.raises(MusError) as err:
        mw.LanceQuiz("grande", n=0, lang="es")
    assert str(err.value) == "a quiz needs a whole number of questions, 1 or more, not 0"
    assert err.value.message("es") == "un ejercicio necesita un número entero de preguntas, 1 o más, no 0"


def test_every_ui_msgid_has_its_placeholders_in_spanish():
    for m in read("es", "ui"):
        if m.id and isinstance(m.id, str):
            assert placeholders(m.string) == placeholders(m.id), m.id


def test_table_senas_speak_spanish_gestures():
    # the seña list and the partner's señas name the gesture in the table's language, never the English one
    from musteach.rules.senas import SENAS

    english = {s.gesture for s in SENAS.values()}
    spanish = {s.gesture_text("es") for s in SENAS.values()}
    for seed in range(40):
        table = mw.PlayTable(seed=seed, bot="rule", background=False, lang="es")
        labels_shown = [label for label, value in table.sena_choice.options if value]
        if labels_shown:
            break
    assert labels_shown, "no seed gave a seña to make"
    for label in labels_shown:
        assert any(label.startswith(g) for g in spanish), label
        assert not any(label.startswith(g) for g in english - spanish), label


def test_widgets_never_re_case_text():
    """Widgets show musteach's sentences as given: a capital added or taken away is musteach's to write
    (phase_title, lesson_title, gesture_words, meaning...), never a widget's."""
    import re
    from pathlib import Path

    recasing = re.compile(
        r"\.capitalize\(\)|\.title\(\)|\[:1\]\.(?:upper|lower)\(\)|\[0\]\.(?:upper|lower)\(\)\s*\+|_text\(\)\.(?:upper|lower)\(\)"
    )
    root = Path(__file__).resolve().parents[1] / "widgets"
    found = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if recasing.search(line)
    ]
    assert found == []
