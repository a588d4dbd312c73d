"""The learning path's pure core (issue 12, items 3 and 4): two-step hints, graded attempts and stars,
"why your answer is wrong" for betting, count and señas, progress schema 3 (quiz runs, migration, reset)
and the lesson map. RULES.md §1–§8, §11.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musteach.rules.betting import BettingOutcome
from musteach.rules.cards import DECK, Hand
from musteach.rules.errors import MusError
from musteach.rules.lances import analyse, effective_rank, evaluate, point_value
from musteach.rules.options import Rules
from musteach.rules.senas import catalogue
from musteach.teach.count_quiz import betting_question, count_question
from musteach.teach.hints import Mark, betting_hints, count_hints, hand_hints, lance_hints, rank_hints, sena_hints
from musteach.teach.path import LESSONS, LessonError, find_lesson, lesson_map, mark_opened
from musteach.teach.progress import RUN_LIMIT, SCHEMA_VERSION, FileStore, MemoryStore, Progress, ProgressError
from musteach.teach.scoring import HINT_FACTORS, RETRY_FACTOR, Attempt, AttemptError, stars_for, stars_text
from musteach.teach.why_wrong import why_betting_wrong, why_count_wrong, why_meaning_wrong

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
LESSONS_DIR = Path(__file__).resolve().parents[1] / "lessons"

deals = st.permutations(range(40)).map(lambda p: [[DECK[i] for i in p[4 * s : 4 * s + 4]] for s in range(4)])


def eff(card, kings=8):
    return effective_rank(card.rank, kings)


# ----- hints -------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(deal=deals, mano=st.integers(0, 3), lance=st.sampled_from(["grande", "chica"]))
def test_card_hint_marks_the_deciding_cards(deal, mano, lance):
    """Step 2 marks one card of the winner and one of the runner-up, and they are the first cards (in the
    lance's order) that differ: everything before them is equal, and the winner's is better."""
    step1, step2 = lance_hints(deal, mano, lance)
    assert step1.step == 1 and step2.step == 2 and not step1.marks
    result = evaluate(deal, mano)[lance]
    w, r = result.ranking[0], result.ranking[1]
    if result.tie_to_mano:
        assert step2.marks == (Mark(w, (0, 1, 2, 3)), Mark(r, (0, 1, 2, 3)))
        return
    (mw, mr) = step2.marks
    assert (mw.seat, mr.seat) == (w, r) and len(mw.cards) == len(mr.cards) == 1
    a, b = eff(deal[w][mw.cards[0]]), eff(deal[r][mr.cards[0]])
    assert a > b if lance == "grande" else a < b
    low = lance == "chica"
    wr = sorted((eff(c) for c in deal[w]), reverse=not low)
    rr = sorted((eff(c) for c in deal[r]), reverse=not low)
    k = wr.index(a) if wr.count(a) == 1 else next(i for i in range(4) if wr[i] != rr[i])
    assert wr[:k] == rr[:k] and wr[k] == a and rr[k] == b


@settings(max_examples=150, deadline=None)
@given(deal=deals, mano=st.integers(0, 3), lance=st.sampled_from(["pares", "juego", "punto"]))
def test_other_lance_hints_mark_the_winner_first(deal, mano, lance):
    _, step2 = lance_hints(deal, mano, lance)
    result = evaluate(deal, mano)[lance]
    infos = [analyse(h) for h in deal]
    if result.winner is None:
        if lance == "punto":  # somebody has juego: their hands are marked
            assert {m.seat for m in step2.marks} == {s for s in range(4) if infos[s].is_juego}
        elif lance == "juego":
            assert step2.total == max(i.total for i in infos) < 31
        else:
            assert step2.marks == ()
        return
    assert step2.marks[0].seat == result.winner
    if lance == "pares":
        ranks = [eff(deal[result.winner][i]) for i in step2.marks[0].cards]
        assert len(ranks) >= 2 and all(ranks.count(x) >= 2 for x in ranks)
    else:
        assert step2.total == infos[result.winner].total


def test_lance_hint_wording_names_cards_not_codes():
    _, h2 = lance_hints(["1o 2c 7o 11o", "1c 4o 5o 6o", "12o 12c 10o 7c", "4c 5c 6c 7e"], 1, "chica")
    assert "A-A-7-C" in h2.text and "o " not in h2.text.replace("to ", "")
    h1, _ = lance_hints(["1o 2c 7o 11o", "1c 4o 5o 6o", "12o 12c 10o 7c", "4c 5c 6c 7e"], 1, "chica", Rules(kings=4))
    assert "lowest card first" in h1.text and "8 reyes" not in h1.text


@settings(max_examples=60, deadline=None)
@given(cards=st.permutations(range(40)).map(lambda p: [DECK[i] for i in p[:4]]))
def test_hand_hints(cards):
    hand = Hand(cards)
    _, total = hand_hints(hand, "juego_total")
    assert total.total == analyse(hand).total
    marked = total.marks[0].cards if total.marks else ()
    assert set(marked) == {i for i in range(4) if point_value(cards[i].rank, 8) == 10}
    _, jug = hand_hints(hand, "jugada")
    if analyse(hand).pares is None:
        assert "No two cards" in jug.text
    else:
        ranks = [eff(cards[i]) for i in jug.marks[0].cards]
        assert all(ranks.count(x) >= 2 for x in ranks)
    _, order = rank_hints(cards)
    top = max(eff(c) for c in cards)
    assert {eff(cards[i]) for i in order.marks[0].cards} == {top}


def test_hand_hints_reject_an_unknown_skill():
    with pytest.raises(MusError, match="'grande'"):
        hand_hints("12o 3c 7e 5b", "grande")


@pytest.mark.parametrize("seed", range(12))
def test_betting_hint_total_is_the_answer_for_the_winning_team(seed):
    q = betting_question(seed)
    _, h2 = betting_hints(q.state)
    assert h2.total == max(q.answer.values())


def test_count_and_sena_hints():
    q = count_question(5)
    _, h2 = count_hints(q.deal)
    holders = {s for s in range(4) if q.deal.infos[s].pares is not None or q.deal.infos[s].is_juego}
    assert {m.seat for m in h2.marks} == holders
    _, s2 = sena_hints("12o 3c 1e 5b")
    assert s2.marks == (Mark(None, (0, 1, 2)),) and "2 kings, 1 ace" in s2.text
    intents = [s for s in catalogue() if s.kind == "intent"]
    _, m2 = sena_hints(None, sena=intents[0].key)
    assert "wants to do" in m2.text
    with pytest.raises(MusError, match="needs the hand"):
        sena_hints(None)


# ----- attempts and stars ------------------------------------------------------------------------------


def test_attempt_walks_hint_then_second_try():
    a = Attempt()
    assert a.can_hint() and a.can_answer() and not a.finished
    a = a.hint().hint()
    assert not a.can_hint()
    with pytest.raises(AttemptError, match="both hint steps"):
        a.hint()
    a = a.answer(False)
    assert a.may_retry and not a.revealed
    a = a.answer(False)
    assert a.revealed and a.finished and a.points == 0 and not a.can_hint()
    with pytest.raises(AttemptError, match="over"):
        a.answer(True)


@given(hints=st.integers(0, 2), wrong=st.integers(0, 1))
def test_points_fall_with_hints_and_retries(hints, wrong):
    a = Attempt()
    for _ in range(hints):
        a = a.hint()
    for _ in range(wrong):
        a = a.answer(False)
    a = a.answer(True)
    assert a.points == pytest.approx((1.0 if wrong == 0 else RETRY_FACTOR) * HINT_FACTORS[hints])
    assert a.clean == (hints == 0 and wrong == 0)
    if hints < 2 and wrong == 0:
        assert Attempt(hints + 1, wrong, True).points < a.points
    if wrong == 0:
        assert Attempt(hints, 1, True).points < a.points
    else:
        assert a.points == 0  # stars count first-try answers only (issue 23)


@given(points=st.lists(st.sampled_from([0.0, 0.25, 0.375, 0.5, 0.75, 1.0]), min_size=1, max_size=12))
def test_stars_grow_with_points(points):
    s = stars_for(points)
    assert 0 <= s <= 3
    better = [1.0 for _ in points]
    assert stars_for(better) == 3 >= s
    assert stars_for([0.0 for _ in points]) == 0
    assert stars_text(s).count("★") == s and len(stars_text(s)) == 3


# ----- why your answer is wrong -------------------------------------------------------------------------


def test_why_betting_wrong_names_the_learners_idea():
    o = BettingOutcome.from_dict({"type": "rejected", "stakes": [2, 5], "winner_team": "B"})
    assert why_betting_wrong(o, {"A": 0, "B": 2}, {"A": 0, "B": 2}) == ""
    assert "team A, whose side refused" in why_betting_wrong(o, {"A": 0, "B": 2}, {"A": 2, "B": 0})
    assert "pays what was agreed before it: 2" in why_betting_wrong(o, {"A": 0, "B": 2}, {"A": 0, "B": 5})
    acc = BettingOutcome.from_dict({"type": "accepted", "stakes": [2, 4]})
    assert "4 stones go to the best hand" in why_betting_wrong(acc, {"A": 0, "B": 0}, {"A": 4, "B": 0})
    paso = BettingOutcome.from_dict({"type": "paso"})
    assert "en paso" in why_betting_wrong(paso, {"A": 0, "B": 0}, {"A": 1, "B": 0})


@pytest.mark.parametrize("seed", range(20))
def test_why_betting_wrong_is_empty_only_for_the_answer(seed):
    q = betting_question(seed)
    assert why_betting_wrong(q.state.outcome, q.answer, q.answer) == ""
    wrong = {"A": q.answer["A"] + 1, "B": q.answer["B"]}
    text = why_betting_wrong(q.state.outcome, q.answer, wrong)
    assert text and not any(code in text for code in ("12o", "1o"))


@pytest.mark.parametrize("seed", range(15))
def test_why_count_wrong(seed):
    q = count_question(seed)
    assert why_count_wrong(q.result, q.answer) == ""
    lance = q.result.lances[0]
    given = q.answer
    given[lance.value] = {"A": given[lance.value]["B"], "B": given[lance.value]["A"]}
    if given == q.answer:
        return
    text = why_count_wrong(q.result, given)
    assert text.startswith(lance.title + ":")


def test_why_count_wrong_spots_the_partners_forgotten_pares():
    for seed in range(200):
        q = count_question(seed)
        pr = q.deal["pares"]
        if pr.winner is None or q.deal.infos[(pr.winner + 2) % 4].pares is None:
            continue
        team = "A" if pr.winner % 2 == 0 else "B"
        bonus = q.deal.infos[(pr.winner + 2) % 4].pares.value
        given = q.answer
        if given["pares"][team] < bonus:
            continue
        given["pares"] = dict(given["pares"], **{team: given["pares"][team] - bonus})
        assert f"you left out seat {(pr.winner + 2) % 4}'s {bonus}" in why_count_wrong(q.result, given)
        return
    pytest.fail("no deal with two pares holders in one team among 200 seeds")


def test_why_meaning_wrong_names_both_gestures():
    senas = [s for s in catalogue() if s.kind == "hand"]
    a, p = senas[0], senas[1]
    text = why_meaning_wrong(a.key, p.key)
    assert p.gesture in text and a.gesture in text and text.index(p.gesture) < text.index(a.gesture)
    assert text.startswith("You picked")
    assert why_meaning_wrong(a.key, a.key) == ""


# ----- progress schema 3: runs, migration, reset ------------------------------------------------------------


def test_runs_round_trip_and_best_is_kept():
    p = Progress()
    p.record_run("03-grande-chica", "grande", [1.0, 0.5], 2, hints=1, retries=1, at=T0)
    p.record_run("03-grande-chica", "grande", [0.0, 0.5], 0, at=T0 + timedelta(minutes=5))
    assert p.best_stars("03-grande-chica", "grande") == 2 and p.runs_done("03-grande-chica", "grande") == 2
    assert p.best_stars("03-grande-chica", "chica") is None
    doc = json.loads(p.to_json())
    assert doc["schema_version"] == SCHEMA_VERSION == 4 and len(doc["runs"]) == 2
    assert Progress.from_json(p.to_json()) == p


def test_a_version_2_file_migrates(tmp_path):
    v2 = {
        "schema": "musteach-progress",
        "schema_version": 2,
        "best_streak": 1,
        "skills": {"grande": {"reviews": [[T0.isoformat(), 3, 4000, "a1"]]}},
    }
    path = tmp_path / "progress.json"
    path.write_text(json.dumps(v2), encoding="utf-8")
    store = FileStore(path)
    p = store.load()
    assert p.answered("grande") == 1 and p.runs == ()
    p.record_run("01-deck", "rank_order", [1.0], 3, at=T0)
    store.save(p)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["schema_version"] == SCHEMA_VERSION and doc["skills"]["grande"]["reviews"][0][3] == "a1"
    assert store.load().best_stars("01-deck", "rank_order") == 3


@pytest.mark.parametrize(
    "runs, message",
    [
        (
            [["2026-03-01T18:00:00+00:00", "x", "01-deck", "rank_order", 3, 2, 1, 0, 0]],
            "'points' must be a number from 0 to 2",
        ),
        ([["2026-03-01T18:00:00+00:00", "x", "01-deck", "rank_order", 1, 2, 4, 0, 0]], "'stars' must be 0 to 3"),
        ([["2026-03-01T18:00:00+00:00", "x", "Deck!", "rank_order", 1, 2, 1, 0, 0]], "'Deck!'"),
        ("nope", "'runs' must be a list"),
    ],
)
def test_bad_runs_are_named(runs, message):
    doc = {"schema": "musteach-progress", "schema_version": 3, "skills": {}, "runs": runs}
    with pytest.raises(ProgressError, match=message):
        Progress.from_dict(doc)


def test_old_runs_fold_into_the_best():
    p = Progress()
    p.record_run("06-betting", "betting", [1.0], 3, at=T0)
    for i in range(RUN_LIMIT):
        p.record_run("06-betting", "betting", [0.0], 0, at=T0 + timedelta(minutes=i + 1))
    assert len(p.runs) == RUN_LIMIT and p.best_stars("06-betting", "betting") == 3
    assert p.runs_done("06-betting", "betting") == RUN_LIMIT + 1
    assert Progress.from_json(p.to_json()).best_stars("06-betting", "betting") == 3


def test_merge_is_a_union_and_reset_wins_over_older_copies():
    a, b = Progress(), Progress()
    a.record("grande", True, at=T0)
    a.record_run("03-grande-chica", "grande", [1.0], 3, at=T0)
    b.record_run("03-grande-chica", "chica", [0.5], 1, at=T0 + timedelta(minutes=1))
    m = a.merge(b)
    assert m.merge(b) == m and m.merge(a) == m
    assert m.best_stars("03-grande-chica", "chica") == 1 and m.answered("grande") == 1
    store = MemoryStore(m)
    after = store.save(Progress.reset(T0 + timedelta(hours=1)))
    assert after.answered() == 0 and after.runs == () and after.best_streak == 0
    again = store.save(m)  # an old copy (another tab, another notebook) saved after the reset
    assert again.answered() == 0 and again.runs == ()
    again.record("chica", False, at=T0 + timedelta(hours=2))
    assert store.save(again).answered("chica") == 1
    assert Progress.from_json(again.to_json()) == again


# ----- the lesson map ----------------------------------------------------------------------------------------


def test_the_lessons_are_the_notebooks():
    assert [f"{x.name}.ipynb" for x in LESSONS] == sorted(p.name for p in LESSONS_DIR.glob("[0-9][0-9]-*.ipynb"))
    assert find_lesson("04-pares.ipynb").quiz("pares").label == "Pares"
    with pytest.raises(LessonError, match="'99-nothing'"):
        find_lesson("99-nothing")
    with pytest.raises(LessonError, match="no quiz 'grande'"):
        find_lesson("04-pares").quiz("grande")


def test_map_stars_done_and_continue_here():
    p = Progress()
    stops = lesson_map(p)
    assert [s.here for s in stops].index(True) == 0 and not any(s.done for s in stops)
    assert mark_opened(p, "00-welcome") and not mark_opened(p, "00-welcome")
    p.record_run("01-deck", "rank_order", [1.0], 3, at=T0)
    p.record_run("02-seats", "tie_to_mano", [0.5], 1, at=T0)
    p.record_run("03-grande-chica", "grande", [1.0], 3, at=T0)
    stops = {s.lesson.name: s for s in lesson_map(p)}
    assert stops["01-deck"].done and stops["01-deck"].stars == 3
    assert stops["02-seats"].stars == 1
    assert not stops["03-grande-chica"].done and stops["03-grande-chica"].here
    assert "Chica not finished yet" in stops["03-grande-chica"].status_text
    p.record_run("03-grande-chica", "chica", [0.7], 2, at=T0)
    stops = {s.lesson.name: s for s in lesson_map(p)}
    assert stops["03-grande-chica"].stars == 2 and stops["04-pares"].here


def test_when_all_is_done_continue_at_the_weakest():
    p = Progress()
    rng = random.Random(1)
    for lesson in LESSONS:
        if not lesson.quizzes:
            mark_opened(p, lesson.name)
        for q in lesson.quizzes:
            p.record_run(lesson.name, q.name, [1.0], 3 if lesson.name != "07-count" else rng.choice([0, 1]), at=T0)
    here = [s.lesson.name for s in lesson_map(p) if s.here]
    assert here == ["07-count"]


# ----- item 5: what a new learner hit ----------------------------------------------------------------------

RAW_CODE = __import__("re").compile(r"\b(?:1[0-2]|[1-7])[oceb]\b")


@pytest.mark.parametrize("seed", range(6))
def test_senas_meaning_says_whose_meaning_was_picked_and_shows_a_plain_par(seed):
    from musteach.teach.senas_quiz import meaning_question

    q = meaning_question("girar_cabeza", seed=seed)
    held = q.explanation.split("holding ")[1].split(".")[0].split(" ")[0].split("-")
    assert sorted(held.count(x) for x in set(held)) in ([1, 1, 2],), held  # one par, not duples or medias
    for key, _ in q.choices:
        if key == q.answer:
            continue
        text = q.grade(key).explanation
        other = next(s for s in catalogue() if s.key == key)
        assert text.startswith("You picked") and f"what '{other.gesture}' means" in text


def test_odds_quiz_never_asks_the_same_question_twice():
    from musteach.teach.odds_quiz import OddsQuestionGenerator

    gen = OddsQuestionGenerator(seed=4)
    seen = set()
    for _ in range(12):
        q = gen.next()
        key = (tuple(sorted(eff(c) for c in q.hand.cards)), q.position, q.lance)
        assert key not in seen
        seen.add(key)


def test_advisor_text_has_no_raw_card_codes():
    from musteach.odds import advise_discard

    adv = advise_discard("6b 2o 12o 10o", seat=0, mano=0)
    for aim in ("balanced", "grande", "chica"):
        text = adv.explain(aim)
        assert not RAW_CODE.search(text), text
    assert adv.best("balanced").describe().startswith("change ")
