"""The coach and the quizzes of the `coach` catalog domain speak Spanish (issue 17).

For each kind of output (the coach's comment, the game review, the betting, count, mus, señas and odds quizzes
and their errors) a representative run under ``speaking("es")`` must show no English sentence of the domain
(the check is built from the catalog, not from a hand-copied list) and state the same facts (seats, stones,
percentages) as the English run, with Spanish number formatting.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache

import pytest

from musteach.i18n import current_lang, speaking, translator
from musteach.locale import catalogs
from musteach.play.bots import RuleBot, run
from musteach.play.game import Game
from musteach.play.view import View
from musteach.rules import Rules
from musteach.rules.errors import MusError
from musteach.teach.coach import coach_comment, phase_words, said_words, turn_prompt
from musteach.teach.count_quiz import betting_question, count_question, read_typed_stones
from musteach.teach.grading import Unit, figure_text, grade_decision, loss_text
from musteach.teach.mus_quiz import discard_question
from musteach.teach.odds_quiz import odds_question
from musteach.teach.review import DecisionRecord, best_game_sentence, match_banner, record_decision, review_game
from musteach.teach.senas_quiz import fit_question, meaning_question, third_person


@lru_cache(maxsize=1)
def english_fragments() -> tuple[str, ...]:
    """The English words of every msgid of the domain: each stretch between placeholders of two or more words
    and 8 characters or more that its own translation does not keep (a Mus term kept in Spanish is kept)."""
    return tuple(sorted(catalogs.unshared_pieces("coach", min_chars=8)))


def english_left(text: str) -> list[str]:
    """The English fragments of the domain found (as whole words) in ``text``."""
    return [f for f in english_fragments() if re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text)]


def numbers(text: str) -> Counter[str]:
    """The numbers a text states, with the decimal comma read as a point: ``"+1,3 piedras"`` → ``{"1.3"}``."""
    return Counter(n.replace(",", ".") for n in re.findall(r"\d+(?:[.,]\d+)?", text))


def both(make: Callable[[], Iterable[str]]) -> tuple[str, str]:
    """``make()``'s texts joined, in English and in Spanish."""
    with speaking("en"):
        en = " | ".join(make())
    with speaking("es"):
        es = " | ".join(make())
    return en, es


def check_spanish(make: Callable[[], Iterable[str]], *, same_numbers: bool = True) -> tuple[str, str]:
    en, es = both(make)
    assert english_left(en), "the English run must show the domain's English (else this check proves nothing)"
    assert english_left(es) == [], es
    assert "{" not in es and "}" not in es, es  # every placeholder filled
    assert es != en
    if same_numbers:
        assert numbers(es) == numbers(en), (en, es)
    return en, es


def test_the_catalog_gives_fragments_to_look_for() -> None:
    frags = english_fragments()
    assert "is worth" in frags and "What does this seña tell you" in frags
    assert "no hay mus" not in frags and "en paso" not in frags  # Mus terms kept in both languages are not English


# ----------------------------------------------------------------------------------------------
# The coach and the review
# ----------------------------------------------------------------------------------------------


def _decisions(seed: int, steps: int) -> list[tuple[View, list[object], int]]:
    g = Game(seed=seed)
    bot = RuleBot()
    out: list[tuple[View, list[object], int]] = []
    while len(out) < steps and not g.is_over:
        if g.hand.is_over:
            g.next_hand()
            continue
        t = g.to_act
        assert t is not None
        v = g.view(t.seat)
        out.append((v, list(v.legal), len(g.history)))
        g.act(t.seat, bot.decide(v))
    return out


def test_the_coach_comments_in_spanish_with_the_same_figures() -> None:
    views = _decisions(2, 60)
    mus = next(x for x in views if x[0].phase.value == "mus")
    discard = next(x for x in views if x[0].phase.value == "discard")
    bet = next(x for x in views if x[0].phase.is_betting and x[0].betting is not None and x[0].betting.facing_bet)
    for view, legal, _ in (mus, discard, bet):
        action = legal[-1]
        _en, es = check_spanish(lambda: [turn_prompt(view), coach_comment(view, action).text])  # noqa: B023
        # one unit: points of win chance, each with its stone equivalent
        # (a margin too close to call is shown as such: "unos 1,6 ± 1,2 puntos de probabilidad de ganar (0,9 piedras)")
        assert re.search(r"[+-]\d+,\d puntos? de probabilidad de ganar \([+-]\d+,\d piedras?\)", es) or re.search(
            r"unos \d+,\d ± \d+,\d puntos de probabilidad de ganar \(\d+,\d piedras?\)", es
        ), es
        if view.phase.is_betting:
            assert re.search(r"± \d+,\d puntos", es), es
    # the explicit lang= gives the same words as speaking()
    view, legal, _ = mus
    with speaking("es"):
        spoken = coach_comment(view, legal[0]).text
    assert coach_comment(view, legal[0], lang="es").text == spoken
    assert current_lang() == "en"


def test_phase_and_said_words_and_figures_in_spanish() -> None:
    from musteach.play.actions import Discard
    from musteach.play.events import Phase
    from musteach.rules.cards import parse_hand

    assert phase_words(Phase.MUS, lang="es") == "el mus"
    assert phase_words(Phase.DECLARE_PARES) == "the pares declaration"
    assert said_words(Discard(list(parse_hand("12o 11c 6e 4b"))[:2]), lang="es") == "cambia 2"
    assert figure_text(61.6, Unit.WIN_CHANCE, lang="es") == translator("es")(
        "a {percent} chance of winning the game", percent=translator("es").percent(0.62)
    )
    assert "62" in figure_text(61.6, Unit.WIN_CHANCE, lang="es")
    assert figure_text(-1.04, Unit.STONES, lang="es") == "-1,0 piedra"
    assert figure_text(1.26, Unit.STONES, lang="es") == "+1,3 piedras"
    assert loss_text(1.2, Unit.STONES, lang="es") == "1,2 piedras perdidas"
    assert loss_text(8, Unit.WIN_CHANCE, lang="es").startswith("8 puntos")


def _reviewed_game(seed: int) -> tuple[Game, list[DecisionRecord]]:
    """A one-game match played by rule bots, seat 0's first decisions graded (few rollout deals: fast)."""
    g = Game(Rules(games_per_vaca=1), seed=seed)
    bot = RuleBot()
    records: list[DecisionRecord] = []
    while len(records) < 6 and not g.is_over:
        if g.hand.is_over:
            g.next_hand()
            continue
        t = g.to_act
        assert t is not None
        v = g.view(t.seat)
        action = bot.decide(v)
        if t.seat == 0:
            records.append(record_decision(v, len(g.history), grade_decision(v, action, n=40)))
        g.act(t.seat, action)
    run(g, {s: RuleBot() for s in range(4)})
    return g, records


def test_the_review_in_spanish_states_the_same_facts() -> None:
    g, records = _reviewed_game(7)
    assert records

    def words() -> list[str]:
        review = review_game(g, 0, records, 1)
        lines = [review.banner, review.summary(), match_banner(g, 0) or ""]
        lines += [d.line() for d in review.decisions] + [d.replay_label() for d in review.decisions]
        return lines

    _en, es = check_spanish(words)
    assert "chico 1" in es and "pareja" in es
    assert review_game(g, 0, records, 1, lang="es").banner == review_game(g, 0, records, 1, lang="es").banner
    assert review_game(g, 0, records, 1, lang="es").banner == es.split(" | ")[0]


def test_best_game_sentence_in_spanish() -> None:
    from datetime import datetime

    from musteach.teach.progress import GameResult

    best = GameResult("g1", datetime(2026, 12, 1), 25, 3.0, True, "club")
    _en, es = check_spanish(lambda: [best_game_sentence(best)])
    assert "0,12" in es and "25 decisiones" in es and "2026-12-01" in es


# ----------------------------------------------------------------------------------------------
# The quizzes
# ----------------------------------------------------------------------------------------------


def test_the_betting_quiz_in_spanish() -> None:
    def words() -> list[str]:
        q = betting_question(3, kind="rejected")
        wrong = {"A": q.answer["A"] + 1, "B": q.answer["B"]}
        v = q.grade(wrong)
        return [q.prompt, *q.lines, v.headline, q.grade(q.answer).headline]

    _en, es = check_spanish(words, same_numbers=False)  # the steps come from the betting domain's own words
    assert "¡Correcto!" in es and "Asiento" in es
    q_en, q_es = betting_question(3, kind="rejected", lang="en"), betting_question(3, kind="rejected", lang="es")
    assert q_es.answer == q_en.answer and numbers(q_es.prompt) == numbers(q_en.prompt)


def test_the_count_quiz_in_spanish() -> None:
    def words() -> list[str]:
        q = count_question(5)
        lance = next(iter(q.answer))
        wrong = {**q.answer, lance: {"A": q.answer[lance]["A"] + 3, "B": q.answer[lance]["B"]}}
        return [q.prompt, q.grade(wrong).headline]

    _en, es = check_spanish(words)
    assert es.startswith("Es mano el asiento")


@pytest.mark.parametrize("typed", ["", "-3", "tres", "5000"])
def test_typed_stones_errors_in_spanish(typed: str) -> None:
    with pytest.raises(MusError) as err:
        read_typed_stones(typed, "team A")
    en, es = str(err.value), err.value.message("es")
    assert english_left(en) and not english_left(es)
    assert numbers(es) == numbers(en)


def test_the_mus_quiz_in_spanish() -> None:
    def words() -> list[str]:
        q = discard_question("12o 11c 6e 4b", aim="grande", seed=1)
        wrong = next(key for key, _ in q.choices if key != q.answer)
        return [q.prompt, *(label for _, label in q.choices), q.grade(wrong).explanation, q.grade(q.answer).headline]

    _en, es = check_spanish(words)
    assert "Cambiar 6-4, quedarse con R-C" in es and re.search(r"\d,\d\d", es)
    balanced = discard_question("12o 11c 6e 4b", aim="balanced", seed=1, lang="es")
    assert not english_left(balanced.prompt + balanced.explanation)


def test_the_senas_quizzes_in_spanish() -> None:
    def words() -> list[str]:
        out: list[str] = []
        for q in (
            fit_question("12o 3c 7e 5b", seed=1),
            fit_question("12o 3c 11e 1b", context="after_grande", seed=4),
            meaning_question("cejas", seed=2),
            meaning_question("guino", seed=3),
        ):
            wrong = next(key for key, _ in q.choices if key != q.answer)
            out += [q.prompt, q.explanation, q.grade(wrong).explanation, q.grade(wrong).headline]
            out.append(q.grade(q.answer).headline)
        return out

    _en, es = check_spanish(words)
    assert "¿Qué te dice?" in es and "tu compañero" in es.lower()
    assert third_person("Wink", lang="es") == "wink"  # the gesture is kept as written, first letter lowered
    assert third_person("Wink") == "winks"


def test_the_odds_quiz_in_spanish() -> None:
    def words() -> list[str]:
        q = odds_question("12o 3c 11e 1b", seat=1, mano=0, lance="grande")
        return [q.prompt, q.explanation, *(label for _, label in q.choices), q.grade(0).headline]

    en, es = check_spanish(words)
    q = odds_question("12o 3c 11e 1b", seat=1, mano=0, lance="grande", lang="es")
    pct = f"{q.probability * 100:.1f}"
    assert f"{pct}%" in en and re.search(re.escape(pct.replace(".", ",")) + r"\s?%", es)  # a decimal comma
    assert q.grade(q.answer_text).correct and q.grade(dict(q.choices)[q.answer]).correct
    assert q.grade("80% or more").correct == (q.answer == 4)  # the English label is still understood


def test_errors_of_the_domain_in_spanish() -> None:
    from musteach.teach.grading import grade_for
    from musteach.teach.odds_quiz import band_of

    # a question's refusal names its choices in the question's language
    for bad in (lambda: grade_for(-1.0), lambda: band_of(2), lambda: odds_question("12o 3c 11e 1b", lang="es").grade(9)):
        with pytest.raises(MusError) as err:
            bad()
        en, es = str(err.value), err.value.message("es")
        assert english_left(en) and not english_left(es), (en, es)
        assert numbers(es) == numbers(en)


def test_generators_speak_the_language_they_were_given() -> None:
    from musteach.teach.odds_quiz import OddsQuestionGenerator
    from musteach.teach.senas_quiz import questions

    en = questions("meaning", 3, seed=5)
    es = questions("meaning", 3, seed=5, lang="es")  # while English is spoken
    assert [q.answer for q in es] == [q.answer for q in en]
    assert all(english_left(q.prompt) for q in en)
    assert not any(english_left(q.prompt + q.explanation) for q in es)
    o_en, o_es = OddsQuestionGenerator(seed=3).next(), OddsQuestionGenerator(seed=3, lang="es").next()
    assert o_es.answer == o_en.answer and english_left(o_en.prompt) and not english_left(o_es.prompt)
    with pytest.raises(MusError):
        OddsQuestionGenerator(lang="xx")


def test_phase_titles_are_headings_in_every_language() -> None:
    """phase_title gives each phase ready to show as a heading: its first letter a capital, the same words as
    phase_words (the phrase inside a sentence)."""
    from musteach.play.events import Phase
    from musteach.teach.coach import phase_title

    for lang in ("en", "es"):
        for phase in Phase:
            title, words = phase_title(phase, lang=lang), phase_words(phase, lang=lang)
            assert title[:1].isupper(), (lang, phase, title)
            assert title.lower() == words.lower(), (lang, phase, title, words)
    assert phase_title(Phase.MUS, lang="es") == translator("es")("The mus") != "The mus"


def test_the_new_grade_sentences_in_spanish() -> None:
    """Too close to call, equal values, the review's lines and the órdago prompt, in Spanish with the same
    figures (issue 25)."""
    from musteach.play.actions import Discard
    from musteach.play.events import Phase
    from musteach.rules.betting import Action
    from musteach.rules.lances import Lance
    from musteach.teach.coach import grade_sentence
    from musteach.teach.grading import ActionValue, DecisionGrade, Grade, Method, grade_for, is_too_close

    def grade(values: list[tuple[str, float]], chosen: str, error: float) -> DecisionGrade:
        vals = tuple(ActionValue(Action.parse(a), x, 0.1, round(x / 1.7, 1)) for a, x in values)
        mine = next(v for v in vals if str(v.action) == chosen)
        loss = round(vals[0].stones - mine.stones, 1)
        return DecisionGrade(
            Phase.BET_GRANDE, Lance.GRANDE, mine.action, vals, mine, loss, error, grade_for(loss), Method.ROLLOUT,
            translator()("before any bet"), 400, Unit.WIN_CHANCE, round(loss / 1.7, 1), 1.7, is_too_close(loss, error),
        )  # fmt: skip

    def grades() -> list[DecisionGrade]:
        return [
            grade([("envido 2", 1.5), ("paso", -0.5)], "paso", 0.6),
            grade([("paso", 0.3), ("envido 2", 0.2)], "paso", 0.3),
            grade([("no quiero", -1.0), ("quiero", -1.0)], "quiero", 0.0),
            grade([("envido 2", 1.5), ("paso", -0.5)], "paso", 0.05),
        ]

    close = grade([("envido 2", 1.5), ("paso", -0.5)], "paso", 0.6)
    best_close = grade([("paso", 0.3), ("envido 2", 0.2)], "paso", 0.3)
    equal = grade([("no quiero", -1.0), ("quiero", -1.0)], "quiero", 0.0)
    sure = grade([("envido 2", 1.5), ("paso", -0.5)], "paso", 0.05)
    assert close.too_close and best_close.too_close and not sure.too_close and sure.grade is Grade.MISTAKE
    assert equal.equal_to is not None
    _en, es = check_spanish(lambda: [grade_sentence(g) for g in grades()])
    assert "Demasiado ajustado para juzgarlo" in es and "valen lo mismo" in es and "puntos de probabilidad" in es
    g = Game(seed=5)
    for _ in range(4):
        g.act(g.to_act.seat, "mus")
    v = g.view(g.to_act.seat)
    rec = record_decision(v, len(g.history), grade_decision(v, Discard(v.cards[:2])))
    _en, es = check_spanish(lambda: [rec.line(), rec.replay_label()])
    assert "cambiar R-6" in es and "descarte: " in es, es
