"""The pure quiz logic: generators, instructive kinds, grading, bad responses, sessions (musteach.teach.quiz).

Correct answers are recomputed here independently: lance winners with evaluate(), card values and the
rank order from tables written out in this file from RULES.md §1.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musteach import Card, Rules, analyse, evaluate
from musteach.rules.errors import MusError, SeatError, UnknownCardError
from musteach.rules.lances import Lance
from musteach.teach.quiz import (
    KINDS,
    LANCE_SKILLS,
    AnswerError,
    Kind,
    Question,
    QuestionGenerator,
    QuizError,
    QuizStateError,
    Skill,
    hand_question,
    kinds_for,
    lance_question,
    make_question,
    rank_question,
)
from musteach.teach.session import QuizSession

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"

# RULES.md §1, written out independently of musteach.rules.lances.
ORDER_8 = {12: 8, 3: 8, 11: 7, 10: 6, 7: 5, 6: 4, 5: 3, 4: 2, 1: 1, 2: 1}
ORDER_4 = {12: 10, 11: 9, 10: 8, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2, 1: 1}
POINTS_8 = {12: 10, 11: 10, 10: 10, 3: 10, 7: 7, 6: 6, 5: 5, 4: 4, 2: 1, 1: 1}
POINTS_4 = {12: 10, 11: 10, 10: 10, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2, 1: 1}

RULES_8 = Rules()
RULES_4 = Rules(kings=4)


def points(cards, kings: int = 8) -> int:
    table = POINTS_8 if kings == 8 else POINTS_4
    return sum(table[c.rank] for c in cards)


def jugada_by_hand(cards, kings: int = 8) -> str:
    """par / medias / duples / none, from rank counts (3 = R and 2 = A in 8 reyes)."""
    eff = [{3: 12, 2: 1}.get(c.rank, c.rank) if kings == 8 else c.rank for c in cards]
    counts = sorted((eff.count(r) for r in set(eff)), reverse=True)
    if counts[0] == 4 or counts[:2] == [2, 2]:
        return "duples"
    if counts[0] == 3:
        return "medias"
    if counts[0] == 2:
        return "par"
    return "none"


def many(skill, n=60, seed=0, rules=None, **kw) -> list[Question]:
    gen = QuestionGenerator([skill], seed=seed, rules=rules, **kw)
    return [gen.next() for _ in range(n)]


def fingerprint(q: Question) -> tuple:
    return (
        q.skill,
        q.kind,
        q.prompt,
        tuple(map(str, q.hands)),
        tuple(c.code for c in q.cards),
        q.mano,
        q.choices,
        q.answer,
    )


# ----------------------------------------------------------------------------------------------
# Reproducibility
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [RULES_8, RULES_4], ids=["8reyes", "4reyes"])
def test_same_seed_gives_same_questions(rules):
    skills = list(Skill)
    a = QuestionGenerator(skills, seed=42, rules=rules)
    b = QuestionGenerator(skills, seed=42, rules=rules)
    qa = [fingerprint(a.next()) for _ in range(80)]
    qb = [fingerprint(b.next()) for _ in range(80)]
    assert qa == qb
    c = QuestionGenerator(skills, seed=43, rules=rules)
    assert [fingerprint(c.next()) for _ in range(80)] != qa


def test_make_question_with_equal_rng_state_is_equal():
    for skill in Skill:
        assert fingerprint(make_question(skill, random.Random(9))) == fingerprint(make_question(skill, 9))


def test_generator_mixes_the_skills_it_is_given():
    gen = QuestionGenerator(["grande", "jugada", "rank_order"], seed=1)
    seen = {gen.next().skill for _ in range(60)}
    assert seen == {Skill.GRANDE, Skill.JUGADA, Skill.RANK_ORDER}
    assert gen.count == 60


# ----------------------------------------------------------------------------------------------
# The correct answer is the evaluator's
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [RULES_8, RULES_4], ids=["8reyes", "4reyes"])
@pytest.mark.parametrize("skill", LANCE_SKILLS, ids=str)
def test_lance_answers_match_evaluate(skill, rules):
    for q in many(skill, 50, seed=3, rules=rules, instructive_share=0.5):
        res = evaluate([h.codes() for h in q.hands], q.mano, rules)
        lr = res[skill.value]
        assert q.lance is Lance(skill.value)
        assert q.answer == lr.winner
        assert q.explanation == lr.explanation
        assert q.highlight == lr.winner
        values = [v for v, _ in q.choices]
        assert values[:4] == [0, 1, 2, 3]
        assert (None in values) == (skill in (Skill.PARES, Skill.JUEGO))
        if skill is Skill.PUNTO:
            assert not any(i.is_juego for i in res.infos), "punto questions are dealt where nobody has juego"
            assert q.answer is not None
        v = q.grade(q.answer)
        assert v.correct and v.headline == "Right!" and v.explanation == lr.explanation and v.highlight == lr.winner


@pytest.mark.parametrize("rules", [RULES_8, RULES_4], ids=["8reyes", "4reyes"])
def test_jugada_answers_match_rank_counts(rules):
    for q in many(Skill.JUGADA, 120, seed=5, rules=rules, instructive_share=0.5):
        assert q.hand is not None and q.cards == q.hand.cards
        assert q.answer == jugada_by_hand(q.cards, rules.kings)
        info = analyse(q.hand, rules)
        assert q.answer == (info.pares.kind if info.pares else "none")
        assert [v for v, _ in q.choices] == ["par", "medias", "duples", "none"]


@pytest.mark.parametrize("rules", [RULES_8, RULES_4], ids=["8reyes", "4reyes"])
@pytest.mark.parametrize("skill", [Skill.JUEGO_TOTAL, Skill.PUNTO_TOTAL], ids=str)
def test_total_answers_match_card_values(skill, rules):
    for q in many(skill, 120, seed=6, rules=rules, instructive_share=0.5):
        total = points(q.cards, rules.kings)
        assert q.answer == total
        assert q.answer in [v for v, _ in q.choices] and len(q.choices) == 4
        assert f"= {total}," in q.explanation
        if skill is Skill.PUNTO_TOTAL:
            assert total <= 30, "a punto question never shows a juego hand"
            assert "its punto" in q.explanation
        elif total >= 31:
            assert "which is juego" in q.explanation
        else:
            assert "not juego" in q.explanation


def test_total_explanation_names_the_threes_as_kings():
    q = next(q for q in many(Skill.JUEGO_TOTAL, 200, seed=2) if any(c.rank == 3 for c in q.cards))
    assert "(a 3 is a king)" in q.explanation


@pytest.mark.parametrize("rules", [RULES_8, RULES_4], ids=["8reyes", "4reyes"])
def test_rank_order_answer_is_high_to_low(rules):
    order = ORDER_8 if rules.kings == 8 else ORDER_4
    for q in many(Skill.RANK_ORDER, 100, seed=7, rules=rules, instructive_share=0.5):
        assert len(q.cards) in (4, 5) and len(set(q.cards)) == len(q.cards)
        assert sorted(q.answer, key=lambda c: c.code) == sorted(q.cards, key=lambda c: c.code)
        ranks = [order[c.rank] for c in q.answer]
        assert ranks == sorted(ranks, reverse=True)
        assert q.grade(list(q.answer)).correct
        worst = sorted(q.cards, key=lambda c: order[c.rank])
        if order[worst[0].rank] != order[worst[-1].rank]:
            assert not q.grade(worst).correct


def test_rank_order_equal_ranks_may_come_in_either_order():
    q = next(
        q
        for q in many(Skill.RANK_ORDER, 300, seed=8, kinds=["threes_as_kings"], instructive_share=1.0)
        if any(ORDER_8[a.rank] == ORDER_8[b.rank] for a, b in zip(q.answer, q.answer[1:], strict=False))
    )
    ans = list(q.answer)
    i = next(i for i in range(len(ans) - 1) if ORDER_8[ans[i].rank] == ORDER_8[ans[i + 1].rank])
    ans[i], ans[i + 1] = ans[i + 1], ans[i]
    assert tuple(ans) != q.answer
    v = q.grade(ans)
    assert v.correct and v.given == tuple(ans)
    assert " = " in q.explanation


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), skill=st.sampled_from(list(Skill)), kings=st.sampled_from([8, 4]))
def test_any_seed_gives_a_gradable_question(seed, skill, kings):
    rules = Rules(kings=kings)
    q = make_question(skill, seed, rules, instructive_share=0.5)
    assert q.grade(q.answer).correct
    assert q.kind is Kind.UNIFORM or q.kind in kinds_for(skill, rules)
    if q.lance is not None:
        assert evaluate(q.hands, q.mano, rules)[q.lance].winner == q.answer
    wrong = [v for v, _ in q.choices if v != q.answer]
    if q.skill is not Skill.RANK_ORDER:
        assert wrong, "there is always a wrong choice to pick"
        v = q.grade(wrong[0])
        assert not v.correct and v.headline.startswith(("Not quite: ", "Close, but not quite: ")) and v.expected == q.answer


def test_questions_on_the_checked_lance_vectors():
    """Questions built on the hand-checked cases of lances.json grade exactly as the vectors say."""
    cases = json.loads((VECTORS / "lances.json").read_text())
    for case in cases:
        rules = Rules.from_variant(case.get("variant", "8reyes"))
        if case["lance"] == "punto" and case["winner"] is None:
            with pytest.raises(QuizError, match="Punto is not played"):
                lance_question(case["hands"], case["mano"], "punto", rules)
            continue
        q = lance_question(case["hands"], case["mano"], case["lance"], rules)
        assert q.answer == case["winner"], case["id"]
        assert q.grade(case["winner"]).correct, case["id"]
        wrong = next(v for v, _ in q.choices if v != case["winner"])
        assert not q.grade(wrong).correct, case["id"]
        if q.kind is Kind.TIE_TO_MANO:
            assert q.result[q.lance].tie_to_mano
    assert len(cases) >= 10


def test_questions_on_the_vector_deals():
    """Every lance of the first 300 random deals of deals.jsonl (Punto only where nobody has juego)."""
    lines = (VECTORS / "deals.jsonl").read_text().splitlines()[:300]
    for line in lines:
        deal = json.loads(line)
        for lance, winner in deal["winners"].items():
            if lance == "punto" and winner is None:
                continue
            q = lance_question(deal["hands"], deal["mano"], lance)
            assert q.answer == winner
            assert q.grade(winner).correct
            if winner is not None:
                assert q.grade((winner + 2) % 4).headline == f"Not quite: seat {winner} wins {lance.capitalize()}."


def test_fixed_hand_and_rank_questions():
    q = hand_question("7o 7c 7e 7b")
    assert q.answer == "duples" and q.kind is Kind.DUPLES_VS_MEDIAS
    q = hand_question("12o 3c 7e 5b", "juego_total")
    assert q.answer == 32 and q.kind is Kind.THREES_AS_KINGS
    assert hand_question("12o 3c 7e 5b", "juego_total", RULES_4).answer == 25
    with pytest.raises(QuizError, match="has juego"):
        hand_question("12o 3c 7e 5b", "punto_total")
    with pytest.raises(QuizError):
        hand_question("12o 3c 7e 5b", "grande")
    r = rank_question("1o 3c 12b 7e 2e")
    assert r.grade(["12b", "3c", "7e", "2e", "1o"]).correct and r.kind is Kind.THREES_AS_KINGS
    assert not rank_question("1o 3c 12b 7e 2e", RULES_4).grade(["12b", "3c", "7e", "2e", "1o"]).correct
    with pytest.raises(AnswerError, match="twice"):
        rank_question(["1o", "1o"])


# ----------------------------------------------------------------------------------------------
# Instructive kinds really have their property
# ----------------------------------------------------------------------------------------------


def forced(skill, kind, n=25, rules=None, seed=11):
    rng = random.Random(seed)
    qs = [make_question(skill, rng, rules, kind=kind) for _ in range(n)]
    assert all(q.kind == kind for q in qs), "the construction did not fall back to uniform"
    return qs


@pytest.mark.parametrize("rules", [RULES_8, RULES_4], ids=["8reyes", "4reyes"])
@pytest.mark.parametrize("skill", LANCE_SKILLS, ids=str)
def test_tie_questions_are_decided_by_the_tie_rule(skill, rules):
    for q in forced(skill, "tie_to_mano", rules=rules):
        lr = evaluate(q.hands, q.mano, rules)[q.lance]
        assert lr.tie_to_mano and lr.winner == q.answer
        tied = [s for s in lr.ranking if q.result.infos[s].key(q.lance) == q.result.infos[lr.winner].key(q.lance)]
        assert len(tied) >= 2
        order = [(s - q.mano) % 4 for s in tied]
        assert (q.answer - q.mano) % 4 == min(order), "the tied seat nearer mano wins"


@pytest.mark.parametrize("skill,rank", [(Skill.GRANDE, 3), (Skill.PARES, 3), (Skill.CHICA, 2)], ids=str)
def test_threes_as_kings_questions_turn_on_a_3_or_2(skill, rank):
    kind = "twos_as_aces" if rank == 2 else "threes_as_kings"
    for q in forced(skill, kind):
        w8 = evaluate(q.hands, q.mano, RULES_8)[q.lance].winner
        w4 = evaluate(q.hands, q.mano, RULES_4)[q.lance].winner
        assert w8 == q.answer and w8 != w4
        assert any(c.rank == rank for c in q.hands[w8])


def test_duples_vs_medias_questions_hold_both():
    for rules in (RULES_8, RULES_4):
        for q in forced(Skill.PARES, "duples_vs_medias", rules=rules):
            kinds = [jugada_by_hand(h, rules.kings) for h in q.hands]
            assert "duples" in kinds and "medias" in kinds
            assert jugada_by_hand(q.hands[q.answer], rules.kings) == "duples"


def test_31_vs_40_questions_have_both_and_31_wins():
    for rules in (RULES_8, RULES_4):
        for q in forced(Skill.JUEGO, "31_vs_40", rules=rules):
            totals = [points(h, rules.kings) for h in q.hands]
            assert 31 in totals and 40 in totals
            assert totals[q.answer] == 31


@pytest.mark.parametrize("skill", [Skill.PARES, Skill.JUEGO], ids=str)
def test_nobody_questions_have_no_holder(skill):
    for q in forced(skill, "nobody"):
        assert q.answer is None
        if skill is Skill.PARES:
            assert all(jugada_by_hand(h) == "none" for h in q.hands)
        else:
            assert all(points(h) <= 30 for h in q.hands)
        v = q.grade("nobody")
        assert v.correct and v.highlight is None


def test_single_hand_kinds():
    for q in forced(Skill.JUGADA, "threes_as_kings"):
        assert jugada_by_hand(q.cards, 8) != jugada_by_hand(q.cards, 4) or analyse(q.hand) != analyse(q.hand, RULES_4)
    quads = 0
    for q in forced(Skill.JUGADA, "duples_vs_medias", n=60):
        assert q.answer in ("medias", "duples")
        quads += len({ORDER_8[c.rank] for c in q.cards}) == 1
    assert quads > 0, "four of a kind (duples, not medias) turns up"
    for q in forced(Skill.JUEGO_TOTAL, "near_31"):
        assert 29 <= points(q.cards) <= 33
    for q in forced(Skill.PUNTO_TOTAL, "threes_as_kings"):
        assert any(c.rank in (2, 3) for c in q.cards) and points(q.cards) <= 30
    for q in forced(Skill.RANK_ORDER, "threes_as_kings"):
        assert {c.rank for c in q.cards} & {2, 3}


def test_kinds_that_need_8_reyes_are_not_offered_in_4_reyes():
    assert Kind.THREES_AS_KINGS not in kinds_for("grande", RULES_4)
    assert Kind.TWOS_AS_ACES in kinds_for("chica", RULES_8)
    with pytest.raises(QuizError, match="threes_as_kings"):
        make_question("grande", 1, RULES_4, kind="threes_as_kings")
    for q in many(Skill.GRANDE, 100, seed=1, rules=RULES_4, instructive_share=1.0):
        assert q.kind is Kind.TIE_TO_MANO


def test_unknown_kind_or_kind_for_another_skill_raises():
    with pytest.raises(QuizError, match="unknown question kind"):
        make_question("grande", 1, kind="bluff")
    with pytest.raises(QuizError, match="31_vs_40"):
        make_question("grande", 1, kind="31_vs_40")
    with pytest.raises(QuizError, match="unknown quiz skill"):
        QuestionGenerator(["envido"])
    with pytest.raises(QuizError):
        QuestionGenerator([])
    with pytest.raises(QuizError, match="instructive_share"):
        QuestionGenerator(["grande"], instructive_share=1.5)


# ----------------------------------------------------------------------------------------------
# The instructive share
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("share", [0.0, 0.25, 0.4, 0.75, 1.0])
def test_instructive_share_is_respected(share):
    n = 800
    gen = QuestionGenerator(
        ["pares", "grande", "jugada", "juego_total"], seed=int(share * 100), instructive_share=share
    )
    qs = [gen.next() for _ in range(n)]
    frac = sum(q.kind is not Kind.UNIFORM for q in qs) / n
    # binomial standard deviation at most 0.018 for n = 800: allow 4 of them
    assert abs(frac - share) <= 0.07, frac
    if 0 < share < 1:
        used = {q.kind for q in qs} - {Kind.UNIFORM}
        expected = (
            set(KINDS[Skill.PARES])
            | set(KINDS[Skill.GRANDE])
            | set(KINDS[Skill.JUGADA])
            | set(KINDS[Skill.JUEGO_TOTAL])
        )
        assert used == expected, "every instructive kind turns up"


def test_kinds_restrict_the_instructive_questions():
    qs = many(Skill.GRANDE, 40, seed=4, instructive_share=1.0, kinds=["tie_to_mano"])
    assert {q.kind for q in qs} == {Kind.TIE_TO_MANO}
    assert all(q.result.grande.tie_to_mano for q in qs)
    # a kind that fits none of the skills leaves the questions uniform
    qs = many(Skill.CHICA, 20, seed=4, instructive_share=1.0, kinds=["31_vs_40"])
    assert {q.kind for q in qs} == {Kind.UNIFORM}


# ----------------------------------------------------------------------------------------------
# Grading
# ----------------------------------------------------------------------------------------------


def test_grading_a_lance_right_and_wrong():
    q = make_question("grande", 21)
    right = q.grade(q.answer)
    assert (right.correct, right.expected, right.given, right.headline) == (True, q.answer, q.answer, "Right!")
    wrong_seat = (q.answer + 1) % 4
    v = q.grade(wrong_seat)
    assert not v.correct and v.given == wrong_seat and v.expected == q.answer
    assert v.headline == f"Not quite: seat {q.answer} wins Grande."
    assert v.explanation == evaluate(q.hands, q.mano).grande.explanation
    assert v.highlight == q.answer
    assert q.grade(str(q.answer)).correct, "a seat typed as text is accepted"


def test_grading_nobody():
    q = forced(Skill.JUEGO, "nobody", n=1)[0]
    assert q.grade(None).correct and q.grade("Nobody").correct
    v = q.grade(0)
    assert not v.correct and v.headline == "Not quite: nobody has juego."
    qp = forced(Skill.PARES, "nobody", n=1)[0]
    assert qp.grade(2).headline == "Not quite: nobody holds pares."
    q2 = next(q for q in many(Skill.PARES, 40, seed=3) if q.answer is not None)
    v = q2.grade(None)
    assert not v.correct and v.given is None and v.headline == f"Not quite: seat {q2.answer} wins Pares."


def test_grading_jugada_and_totals():
    q = make_question("jugada", 5)
    other = next(v for v, _ in q.choices if v != q.answer)
    assert q.grade(q.answer.upper()).correct
    v = q.grade(other)
    assert not v.correct and v.headline.startswith("Not quite: it ")
    assert v.explanation.startswith(analyse(q.hand).grande_str) or "plays as" in v.explanation
    t = make_question("juego_total", 5)
    assert t.grade(t.answer).correct and t.grade(str(t.answer)).correct
    off = t.answer + 1 if t.answer < 40 else t.answer - 1
    v = t.grade(off)
    assert not v.correct and v.headline == f"Close, but not quite: the total is {t.answer}."  # one point off (issue 28)
    p = make_question("punto_total", 5)
    assert p.grade(p.answer - 1).headline == f"Close, but not quite: the punto is {p.answer}."


def test_explanation_examples():
    """The sentences built from HandInfo for some fixed hands."""
    assert hand_question("12o 3c 7e 5b").explanation == (
        "R-3-7-5 (a 3 plays as a king, so R-R-7-5): one pair of kings, so par; the other two cards do not pair."
    )
    assert "four 7s count as two equal pairs, so duples, not medias" in hand_question("7o 7c 7e 7b").explanation
    assert hand_question("5o 5c 5e 1b").explanation == "5-5-5-A: three 5s, so medias (three of a kind)."
    assert hand_question("12o 3c 7e 5b", "juego_total").explanation == (
        "R-3-7-5: kings count 10 each (a 3 is a king); 7 and 5 count their face value: "
        "10 + 10 + 7 + 5 = 32, which is juego (31 or more)."
    )
    assert hand_question("12o 11c 10e 1b", "juego_total").explanation.endswith(
        "10 + 10 + 10 + 1 = 31, which is juego (31 or more), and 31 is the best juego."
    )
    assert hand_question("12o 3c 7e 5b", "juego_total", RULES_4).explanation == (
        "R-7-5-3: a king counts 10; 7, 5 and 3 count their face value: 10 + 7 + 5 + 3 = 25, "
        "which is not juego (juego needs 31 or more)."
    )


# ----------------------------------------------------------------------------------------------
# Bad responses raise MusError subclasses, with a message that names the bad value
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "response,error,words",
    [
        (4, SeatError, "not 4"),
        (-1, SeatError, "not -1"),
        (True, SeatError, "True"),
        ("seat two", SeatError, "seat two"),
        (1.0, SeatError, "1.0"),
        (None, AnswerError, "always has a winner"),
        ("nobody", AnswerError, "always has a winner"),
    ],
)
def test_bad_lance_responses(response, error, words):
    q = make_question("chica", 3)
    with pytest.raises(error, match=words) as e:
        q.grade(response)
    assert isinstance(e.value, MusError)
    assert not q.can_answer(response)


def test_bad_responses_for_other_skills():
    j = make_question("jugada", 1)
    with pytest.raises(AnswerError, match="trio"):
        j.grade("trio")
    with pytest.raises(AnswerError):
        j.grade(2)
    t = make_question("juego_total", 1)
    for bad, words in [(41, "not 41"), (3, "not 3"), ("abc", "abc"), (31.5, "31.5"), (True, "True"), (None, "None")]:
        with pytest.raises(AnswerError, match=words):
            t.grade(bad)
    r = make_question("rank_order", 1)
    codes = [c.code for c in r.cards]
    outsider = next(c for c in ("12o", "1b", "7c", "4e", "10c", "11b", "5o") if c not in codes)
    with pytest.raises(AnswerError, match="is not one of this question's cards"):
        r.grade([outsider, *codes[1:]])
    with pytest.raises(AnswerError, match="placed twice"):
        r.grade([codes[0], *codes[:-1]])
    with pytest.raises(AnswerError, match="still missing"):
        r.grade(codes[:-1])
    with pytest.raises(UnknownCardError, match="9x"):
        r.grade(["9x", *codes[1:]])
    with pytest.raises(AnswerError):
        r.grade(12)
    assert r.can_answer(codes) and r.can_answer(" ".join(codes))


# ----------------------------------------------------------------------------------------------
# QuizSession
# ----------------------------------------------------------------------------------------------


def wrong_answer(q: Question):
    if q.skill is Skill.RANK_ORDER:
        return tuple(reversed(q.answer))
    return next(v for v, _ in q.choices if v != q.answer)


def test_session_score_streak_and_finish():
    s = QuizSession(QuestionGenerator(["grande", "jugada"], seed=2), n=4)
    assert (s.answered, s.right, s.streak, s.finished) == (0, 0, 0, False)
    assert s.progress_text() == "Question 1 of 4" and s.score_text() == "Score: 0/0 · streak 0"
    v = s.answer(s.current.answer)
    assert v.correct and s.score_text() == "Score: 1/1 · streak 1"
    s.next()
    s.answer(s.current.answer)
    assert s.score_text() == "Score: 2/2 · streak 2" and s.best_streak == 2
    s.next()
    v = s.answer(wrong_answer(s.current))
    assert not v.correct and s.score_text() == "Score: 2/3 · streak 0" and s.best_streak == 2
    assert not s.finished
    s.next()
    assert s.progress_text() == "Question 4 of 4"
    s.answer(s.current.answer)
    assert s.finished and s.score_text() == "Score: 3/4 · streak 1"
    assert s.summary().startswith("Finished: 3 of 4 right (75%), best streak 2.")
    assert [v.correct for _, v in s.history] == [True, True, False, True]
    with pytest.raises(QuizStateError, match="finished"):
        s.next()
    with pytest.raises(QuizStateError, match="finished"):
        s.answer(0)
    first = s.current
    s.restart()
    assert (s.answered, s.right, s.streak, s.best_streak, s.history, s.finished) == (0, 0, 0, 0, [], False)
    assert s.current is not None and s.current is not first


def test_session_refuses_a_second_answer_and_keeps_state():
    s = QuizSession(QuestionGenerator(["pares"], seed=3), n=3)
    s.answer(wrong_answer(s.current))
    before = (s.answered, s.right, s.streak, list(s.history), s.verdict)
    with pytest.raises(QuizStateError, match="already answered"):
        s.answer(s.current.answer)
    assert (s.answered, s.right, s.streak, list(s.history), s.verdict) == before


def test_bad_response_changes_nothing():
    s = QuizSession(QuestionGenerator(["juego_total"], seed=4), n=3)
    s.answer(s.current.answer)
    s.next()
    q = s.current
    before = (s.answered, s.right, s.streak, s.best_streak, len(s.history))
    for bad in (99, "lots", None):
        with pytest.raises(AnswerError):
            s.answer(bad)
    assert (s.answered, s.right, s.streak, s.best_streak, len(s.history)) == before
    assert s.current is q and s.verdict is None and s.can_answer()
    assert s.answer(q.answer).correct


def test_prefetch_builds_the_questions_next_would_have_built_in_the_same_order():
    plain = QuizSession(QuestionGenerator(["grande", "pares", "jugada"], seed=11), n=6)
    ahead = QuizSession(QuestionGenerator(["grande", "pares", "jugada"], seed=11), n=6)
    for i in range(5):
        assert ahead.current == plain.current
        plain.answer(plain.current.answer)
        ahead.answer(ahead.current.answer)
        ahead.prefetch()
        ahead.prefetch()  # a second call keeps the question already built: none is lost
        if i == 2:
            plain.restart()
            ahead.restart()  # a new run starts from the question built ahead
        else:
            plain.next()
            ahead.next()
    assert ahead.current == plain.current


def test_an_error_building_the_next_question_is_raised_by_next_not_by_prefetch():
    def questions():
        yield make_question("grande", 1)
        raise AnswerError("no more questions")

    s = QuizSession(questions(), n=3)
    s.answer(s.current.answer)
    s.prefetch()  # keeps the error
    answered = s.current
    with pytest.raises(AnswerError, match="no more questions"):
        s.next()
    assert s.current is answered and s.answered == 1


def test_skipping_a_question_is_not_scored():
    s = QuizSession(QuestionGenerator(["chica"], seed=5), n=2)
    skipped = s.current
    s.next()
    assert s.current is not skipped and s.skipped == 1 and s.answered == 0
    assert s.history == [(skipped, None)]
    assert s.progress_text() == "Question 1 of 2"


def test_session_over_a_finite_list_ends_when_it_runs_out():
    qs = [make_question("grande", i) for i in range(2)]
    s = QuizSession(qs, n=5)
    s.answer(qs[0].answer)
    s.next()
    assert s.current is qs[1]
    s.answer(qs[1].answer)
    assert not s.finished
    s.next()
    assert s.current is None and s.finished


def test_session_needs_a_positive_n():
    with pytest.raises(QuizError):
        QuizSession(QuestionGenerator(["grande"]), n=0)


def test_questions_and_verdicts_are_frozen():
    q = make_question("grande", 1)
    v = q.grade(q.answer)
    with pytest.raises(AttributeError):
        q.answer = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        v.correct = False  # type: ignore[misc]


def test_cards_in_rank_questions_are_cards():
    q = make_question("rank_order", 2)
    assert all(isinstance(c, Card) for c in q.cards)
    assert [v for v, _ in q.choices] == list(q.cards)
    assert all(label[0].isupper() for _, label in q.choices)
