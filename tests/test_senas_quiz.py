"""Señas quizzes: question generation and grading (musteach.teach.senas_quiz) and their widgets (RULES.md §11)."""

from __future__ import annotations

import html
import re

import musteach_widgets as mw
import pytest

from musteach import Rules, analyse
from musteach.rules.senas import SENAS, SenaError, catalogue, is_truthful, meaning
from musteach.teach.quiz import AnswerError, QuizError
from musteach.teach.senas_quiz import (
    SenaQuestionGenerator,
    fit_question,
    meaning_question,
    questions,
    third_person,
)

pytestmark = pytest.mark.usefixtures("strict_widgets")

RULE_SETS = [Rules(), Rules(kings=4), Rules(senas="kiss_three_kings")]


def text_of(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


# ----------------------------------------------------------------------------------------------
# "fit": which seña fits this hand?
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS, ids=["8reyes", "4reyes", "kiss"])
def test_fit_questions_have_exactly_one_truthful_choice(rules):
    for seed in range(4):
        for q in questions("fit", n=15, seed=seed, rules=rules):
            keys = [k for k, _ in q.choices]
            assert len(keys) == 4 == len(set(keys))
            truthful = [k for k in keys if is_truthful(k, q.hand, rules, q.context)]
            assert truthful == [q.answer], f"{q.prompt} {keys}"
            assert q.sena.key == q.answer and q.answer_text == SENAS[q.answer].gesture
            assert all(SENAS[k].kind == "hand" for k in keys), "fit choices are facts about cards"
            assert set(q.reasons) == set(keys) - {q.answer} and all(q.reasons.values())
            assert SENAS[q.answer].gesture in q.explanation and meaning(q.answer, rules) in q.explanation
            assert q.hand is not None and analyse(q.hand, rules).grande_str in q.prompt


def test_fit_grading_right_wrong_and_bad_responses():
    q = fit_question("12o 3c 7e 5b", seed=1)  # two kings (the 3 is a king in 8 reyes), 32
    assert q.answer == "morder_labio"
    assert "every 3 is a king" in q.explanation
    right = q.grade("morder_labio")
    assert right.correct and right.headline == "Right!"
    assert q.grade(SENAS["morder_labio"]).correct, "a Sena object is accepted"
    assert q.grade(SENAS["morder_labio"].gesture.upper()).correct, "so is a choice's label"
    wrong_key = next(k for k, _ in q.choices if k != q.answer)
    v = q.grade(wrong_key)
    assert not v.correct and v.headline == "Not quite: Bite the lower lip."
    assert v.explanation.startswith(q.reasons[wrong_key][:1].upper())
    for bad in ("wink", 3, None, "cejas twice"):
        with pytest.raises(AnswerError):
            q.grade(bad)
        assert not q.can_answer(bad)
    assert q.can_answer(wrong_key) and not q.is_correct(wrong_key)


def test_fit_question_for_a_given_seña_and_contexts():
    q = fit_question("5o 5c 5e 12b", context="after_grande", answer="labios_torcidos", seed=2)
    assert q.answer == "labios_torcidos" and "after Grande" in q.explanation
    with pytest.raises(SenaError, match="only be signalled after Grande"):
        fit_question("5o 5c 5e 12b", context="lances", answer="labios_torcidos")
    with pytest.raises(SenaError, match="does not hold"):
        fit_question("5o 6c 7e 12b", answer="cejas")
    nothing = fit_question("4o 5c 6e 11b", seed=3)  # no pares, no juego, punto 25: ciego
    assert nothing.answer == "ciego"
    with pytest.raises(QuizError):
        fit_question("4o 5c 6e 11b", Rules(senas="off"))
    with pytest.raises(QuizError):
        fit_question("4o 5c 6e 11b", context="later")


def test_fit_generator_goes_round_the_señas_and_is_reproducible():
    first = questions("fit", n=10, seed=7)
    assert len({q.answer for q in first}) == 10, "ten questions, ten different señas"
    assert [q.prompt for q in first] == [q.prompt for q in questions("fit", n=10, seed=7)]
    assert [q.prompt for q in first] != [q.prompt for q in questions("fit", n=10, seed=8)]
    gen = SenaQuestionGenerator("fit", seed=1)
    keys = {s.key for s in catalogue() if s.kind == "hand"}
    assert set(gen.keys) == keys, "every hand seña can be asked about"
    asked = {gen.next().answer for _ in range(len(keys))}
    assert asked == keys
    contexts = {q.context for q in questions("fit", n=150, seed=5) if q.answer == "labios_torcidos"}
    assert contexts == {"lances", "after_grande"}


def test_eight_reyes_threes_are_kings_and_four_reyes_threes_are_not():
    q8 = fit_question("3o 3c 7e 5b", Rules(), seed=1)
    assert q8.answer == "morder_labio"
    q4 = fit_question("3o 3c 7e 5b", Rules(kings=4), seed=1)
    assert q4.answer != "morder_labio" and not is_truthful("morder_labio", "3o 3c 7e 5b", Rules(kings=4))


# ----------------------------------------------------------------------------------------------
# "meaning": what does this seña tell you?
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS, ids=["8reyes", "4reyes", "kiss"])
def test_meaning_questions(rules):
    gen = SenaQuestionGenerator("meaning", seed=3, rules=rules)
    assert set(gen.keys) == {s.key for s in catalogue(rules)}
    for _ in range(2 * len(gen.keys)):
        q = gen.next()
        labels = [label for _, label in q.choices]
        assert len(set(labels)) == 4
        assert q.label_of(q.answer).lower() == meaning(q.answer, rules).lower()
        assert q.sena.gesture.split()[0].lower() in q.prompt.lower()
        assert q.hand is None
        if q.sena.kind == "intent":
            assert "intention" in q.explanation
        elif q.answer != "solomillo" or rules.senas == "kiss_three_kings":
            example = re.search(r"holding ([RCSA0-9-]+)", q.explanation)
            assert example, q.explanation
        wrong = next(k for k, _ in q.choices if k != q.answer)
        assert SENAS[wrong].gesture in q.grade(wrong).explanation


def test_meaning_choices_leave_out_what_the_seña_implies():
    for seed in range(30):
        q = meaning_question("morder_labio_lado", seed=seed)
        keys = {k for k, _ in q.choices}
        assert not keys & {"labios_torcidos", "girar_cabeza"}, "three kings are medias and pares too"
        q = meaning_question("lengua_dos_veces", seed=seed)
        assert not {k for k, _ in q.choices} & {"cejas", "labios_torcidos", "girar_cabeza"}


def test_meaning_errors_and_words():
    with pytest.raises(SenaError):
        meaning_question("solomillo")  # not in the standard set
    assert meaning_question("solomillo", Rules(senas="kiss_three_kings")).answer == "solomillo"
    with pytest.raises(QuizError):
        SenaQuestionGenerator("guess")
    with pytest.raises(QuizError):
        SenaQuestionGenerator("fit", rules=Rules(senas="off"))
    with pytest.raises(QuizError):
        questions("fit", n=0)
    assert third_person("Bite the lower lip") == "bites the lower lip"
    assert third_person("Push the lips out") == "pushes the lips out"
    assert third_person("Close both eyes") == "closes both eyes"


# ----------------------------------------------------------------------------------------------
# Widgets
# ----------------------------------------------------------------------------------------------


def test_sena_quiz_fit_widget():
    quiz = mw.SenaQuiz(mode="fit", n=10, seed=4, tries=1)
    assert {"musteach-quiz", "musteach-sena-quiz"} <= set(quiz._dom_classes)
    q = quiz.question
    assert len(quiz.answer_buttons) == 4
    for key, _ in q.choices:
        assert f"musteach-answer-{key}" in quiz.button_for(key)._dom_classes
        assert f'data-sena="{key}"' in quiz.picture.value, "each choice's face is shown"
    # before an answer, no face's title or accessible name gives a meaning away
    for label in re.findall(r'aria-label="([^"]*)"', quiz.picture.value):
        assert ":" not in label or label.startswith("Your hand"), label
    wrong = next(k for k, _ in q.choices if k != q.answer)
    quiz.button_for(wrong).click()
    fb = text_of(quiz.feedback.value)
    assert "Not quite" in fb and q.reasons[wrong][:20] in fb
    assert quiz.session.score_text() == "Score: 0/1 · streak 0"
    quiz.next_button.click()
    quiz.button_for(quiz.question.answer).click()
    assert "Right!" in text_of(quiz.feedback.value)
    assert quiz.session.score_text() == "Score: 1/2 · streak 1"


def test_sena_quiz_meaning_widget_runs_ten_questions():
    quiz = mw.SenaQuiz(mode="meaning", n=10, seed=2)
    assert "What does this seña tell you?" in quiz.title.value
    seen = set()
    for i in range(10):
        q = quiz.question
        seen.add(q.answer)
        before = quiz.picture.value
        assert f'data-sena="{q.answer}"' in before
        assert html.escape(meaning(q.answer)) not in before, "the face does not say its meaning"
        quiz.button_for(q.answer).click()
        assert html.escape(meaning(q.answer)) in quiz.picture.value, "after the answer it does"
        if i < 9:
            quiz.next_button.click()
    assert quiz.session.finished and quiz.session.right == 10
    assert len(seen) == 10
    assert "Finished" in text_of(quiz.feedback.value)


def test_sena_catalogue_widget_and_bad_modes():
    cat = mw.show_senas()
    assert "musteach-senas-catalogue" in cat._dom_classes
    for s in catalogue():
        assert f'data-sena="{s.key}"' in cat.content.value
        assert html.escape(s.gesture) in cat.content.value
    assert 'data-sena="solomillo"' not in cat.content.value
    assert 'data-sena="solomillo"' in mw.show_senas(Rules(senas="kiss_three_kings")).content.value
    assert "not used" in mw.show_senas(Rules(senas="off")).content.value
    with pytest.raises(QuizError):
        mw.SenaQuiz(mode="guess")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_meaning_choices_tooltip_says_musteachs_meaning_as_given(lang):
    """The tooltip of a meaning is musteach's meaning of that seña at the table, not the button's label re-cased."""
    from musteach.i18n import translator
    from musteach.teach import labels

    quiz = mw.SenaQuiz(mode="meaning", n=2, seed=5, lang=lang)
    q = quiz.question
    for key, _label in q.choices:
        tip = translator(lang)(labels.IT_MEANS_TIP, meaning=meaning(key, q.rules, lang=lang))
        assert quiz.button_for(key).tooltip == tip
