"""The count of a whole hand, the end of a game, amarracos, the match, and the count quizzes (RULES.md §6–§10)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musteach import deal, evaluate
from musteach.rules import Rules
from musteach.rules.betting import BettingOutcome, LanceBetting, lances_played, random_betting, start_betting
from musteach.rules.count import (
    Match,
    count_case,
    count_hand,
    describe_score,
    from_amarracos,
    is_dentro,
    jugada_values,
    resolve_betting,
    to_amarracos,
)
from musteach.rules.errors import BettingError, DuplicateCardError, MusError
from musteach.rules.lances import Lance, team_of
from musteach.teach.count_quiz import CountAnswerError, betting_question, count_question, grade_betting, grade_count

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
SCORING = json.loads((VECTORS / "scoring.json").read_text(encoding="utf-8"))
BY_ID = {c["id"]: c for c in SCORING}

D1 = [["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"], ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]]
# Nobody has juego: punto is played; seat 1 has the best punto (30); seat 2 7-7-A-A duples.
D4 = [["12o", "11o", "5o", "4o"], ["12c", "11c", "6o", "4c"], ["7o", "7c", "1o", "2o"], ["10o", "10c", "5c", "1c"]]


# ----------------------------------------------------------------------------------------------
# Every vector
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", SCORING, ids=[c["id"] for c in SCORING])
def test_scoring_vectors_through_count_case(case):
    assert count_case(case).to_dict() == case["expected"]


@pytest.mark.parametrize("case", SCORING, ids=[c["id"] for c in SCORING])
def test_scoring_vectors_through_the_api_with_outcome_objects(case):
    rules = Rules.from_variant(case["variant"], target=case["target"])
    hands = [case["hands"][str(s)] for s in range(4)]
    betting = {k: BettingOutcome.from_dict(v) for k, v in case["betting"].items()}
    r = count_hand(hands, case["mano_seat"], rules, case["start_score"], betting)
    exp = case["expected"]
    assert (r.game_over, r.game_winner, r.ended_at, r.final_score) == (
        exp["game_over"],
        exp["game_winner"],
        exp["ended_at"],
        exp["final_score"],
    )
    if "stones" in exp:
        assert r.stones == exp["stones"]
        assert r.hand_total == exp["hand_total"]
    else:
        assert r.ordago
    # every step is one sentence, and the last score shown is the final score (unless an órdago decided)
    assert all(s.text.endswith(".") for s in r.steps)
    if not r.ordago:
        assert r.steps[-1].score == (r.final_score["A"], r.final_score["B"])


# ----------------------------------------------------------------------------------------------
# Explanations
# ----------------------------------------------------------------------------------------------


def test_explanation_steps_read_as_sentences():
    r = count_case(BY_ID["S01"])
    assert r.explanation[1] == "Grande: seat 0's R-R-R-7 is best; en paso it pays 1 stone to team A (A 1, B 0)."
    assert r.explanation[3] == (
        "Pares: seat 0's medias of kings is best; en paso team A takes 3 stones: seat 0's medias of kings (2) "
        "+ seat 2's par of caballos (1) (A 4, B 1)."
    )
    assert r.steps[1].why == evaluate(D1, 0).grande.explanation


def test_explanation_of_a_refused_pares_bet_counts_the_bettors_own_values():
    r = count_case(BY_ID["S15"])
    assert r.explanation[0] == "Pares betting: team B's bet (2 → 4) was refused; team B takes the deje of 2 stones at once (A 0, B 2)."
    pares = next(s for s in r.steps if s.phase == "count" and s.lance is Lance.PARES)
    assert pares.team == "B" and pares.stones == 3
    assert "its own, although seat 2's duples of 5s and 4s is best" in pares.text


def test_explanation_of_an_early_end():
    r = count_case(BY_ID["S28"])
    assert r.explanation[-1] == (
        "Team B reaches 40 of 40 and wins the game during the count of Chica; Pares and Juego are never counted (RULES.md §8)."
    )
    r = count_case(BY_ID["S05"])
    assert r.explanation == [
        "Grande betting: the órdago was accepted, so the hands are shown at once: seat 0's R-R-R-7 is best, and "
        "team A wins the game; nothing else is counted (RULES.md §6)."
    ]


# ----------------------------------------------------------------------------------------------
# Rule options and edge cases
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bonus", "expected"),
    [(True, 4), (False, 3)],
)
def test_punto_bonus_when_accepted(bonus, expected):
    rules = Rules(punto_bonus_when_accepted=bonus)
    r = count_hand(D4, 0, rules, betting={"punto": {"type": "accepted", "stake": 3}})
    assert r.stones["punto"] == {"A": 0, "B": expected}  # seat 1's 30 is the best punto


@pytest.mark.parametrize(("bonus", "expected"), [(True, 2), (False, 1)])
def test_punto_bonus_on_refusal(bonus, expected):
    rules = Rules(punto_bonus_on_refusal=bonus)
    r = count_hand(D4, 0, rules, betting={"punto": {"type": "rejected", "stakes": [2], "winner_team": "A"}})
    assert r.stones["punto"] == {"A": expected, "B": 0}  # A bet and B refused, though B holds the best punto


def test_deje_timing_end_defers_the_deje_to_the_count():
    case = dict(BY_ID["S29"], rules={"deje_timing": "end"})  # start 39-35, A's chica bet refused
    r = count_case(case)
    # no win in the betting: the count starts with Grande, which A wins en paso -> 40
    assert (r.game_winner, r.ended_at, r.final_score) == ("A", "count:grande", {"A": 40, "B": 35})
    assert r.stones["chica"] == {"A": 0, "B": 0}
    full = count_case(dict(BY_ID["S29"], rules={"deje_timing": "end"}, start_score={"A": 0, "B": 0}))
    assert full.stones["chica"] == {"A": 1, "B": 0}  # the deje is paid in the count of Chica


def test_accepted_ordago_in_pares_goes_to_the_best_holder():
    r = count_hand(D1, 0, betting={"pares": {"type": "ordago_accepted"}})
    assert (r.game_winner, r.ended_at) == ("A", "ordago:pares")  # seat 0's medias of kings
    r = count_hand(D1, 1, betting={"chica": {"type": "ordago_accepted"}})
    assert r.game_winner == "B"


def test_a_deje_before_an_ordago_is_kept_in_the_stones_but_the_score_no_longer_matters():
    r = count_hand(
        D1,
        0,
        start_score={"A": 10, "B": 20},
        betting={"grande": {"type": "rejected", "stakes": [2, 4], "winner_team": "B"}, "chica": {"type": "ordago_accepted"}},
    )
    assert r.stones["grande"] == {"A": 0, "B": 2}
    assert r.final_score == {"A": 10, "B": 20}
    assert r.game_winner == "B" and r.ended_at == "ordago:chica"


def test_lances_after_an_end_score_zero():
    r = count_hand(D1, 0, start_score={"A": 30, "B": 0}, betting={"grande": {"type": "accepted", "stake": 12}})
    assert r.ended_at == "count:grande"
    assert r.stones == {"grande": {"A": 12, "B": 0}, "chica": {"A": 0, "B": 0}, "pares": {"A": 0, "B": 0}, "juego": {"A": 0, "B": 0}}
    assert r.final_score == {"A": 42, "B": 0}  # not capped at the target


def test_jugada_values_are_per_partner_of_the_team():
    d = evaluate(D1, 0)
    assert jugada_values(d, "pares", "A") == [(0, "medias of kings", 2), (2, "par of caballos", 1)]
    assert jugada_values(d, "juego", "A") == [(0, "37", 2), (2, "31", 3)]
    assert jugada_values(d, "juego", "B") == []


@pytest.mark.parametrize(
    ("betting", "message"),
    [
        ({"juego": {"type": "accepted", "stake": 2}}, "only team A holds juego, so there is no betting"),
        ({"grande": {"type": "no_bet"}}, "Grande always has a betting round"),
        ({"pares": {"type": "no_bet"}}, "both teams hold pares"),
        ({"punto": {"type": "accepted", "stake": 2}}, "punto is not played: somebody has juego"),
        ({"envite": {"type": "paso"}}, "unknown lance 'envite'"),
        ({"grande": {"type": "accepted", "stake": 3, "winner_team": "A"}}, "unexpected field"),
        ("all passed", "betting must be an object"),
    ],
)
def test_betting_that_does_not_fit_the_deal_is_refused(betting, message):
    with pytest.raises(BettingError, match=message):
        count_hand(D1, 0, betting=betting)


def test_refused_pares_pays_the_bettors_own_values_and_unplayed_juego_may_read_no_bet():
    # seat 0 R-R, seat 3 7-7: only seats 0 and 3 hold pares; B bets and A refuses although A's pair is better
    hands = [["12o", "12c", "4o", "5o"], ["1o", "10c", "6o", "4c"], ["11o", "1c", "5c", "6c"], ["7o", "7c", "10o", "11c"]]
    ok = count_hand(hands, 0, betting={"pares": {"type": "rejected", "stakes": [2], "winner_team": "B"}})
    assert ok.stones["pares"] == {"A": 0, "B": 2}  # deje 1 + seat 3's par 1
    d = evaluate(D4, 0)
    assert resolve_betting(d, {"juego": {"type": "no_bet"}})["punto"].type == "paso"


def test_start_score_is_checked():
    with pytest.raises(BettingError, match="already won the game at 40"):
        count_hand(D1, 0, start_score={"A": 40, "B": 0})
    with pytest.raises(BettingError, match="whole number of stones"):
        count_hand(D1, 0, start_score={"A": -1, "B": 0})
    with pytest.raises(BettingError, match="unknown team"):
        count_hand(D1, 0, start_score={"A": 1, "C": 0})


def test_bad_cases_raise_mus_errors():
    with pytest.raises(DuplicateCardError):
        count_case(dict(BY_ID["S01"], hands={"0": D1[0], "1": D1[1], "2": D1[2], "3": ["6o", "6c", "5c", "12o"]}))
    with pytest.raises(MusError, match="mano_seat is missing"):
        count_case({k: v for k, v in BY_ID["S01"].items() if k != "mano_seat"})
    with pytest.raises(MusError, match="target must be 30, 35 or 40"):
        count_case(dict(BY_ID["S01"], target=50))
    with pytest.raises(MusError, match="a case must be a JSON object"):
        count_case(["S01"])  # type: ignore[arg-type]


def test_betting_states_are_accepted_as_outcomes():
    d = evaluate(D1, 0)
    grande = start_betting(d, "grande").envido(0).reenvido(1, 3).quiero(2)
    r = count_hand(d, betting={"grande": grande})
    assert r.stones["grande"] == {"A": 5, "B": 0}
    with pytest.raises(BettingError, match="not over yet"):
        count_hand(d, betting={"grande": start_betting(d, "grande").envido(0)})


# ----------------------------------------------------------------------------------------------
# Properties over random deals and random legal betting
# ----------------------------------------------------------------------------------------------


@st.composite
def hands_to_count(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    rules = Rules(
        kings=draw(st.sampled_from([8, 4])),
        target=draw(st.sampled_from([30, 35, 40])),
        deje_timing=draw(st.sampled_from(["immediate", "end"])),
        punto_bonus_when_accepted=draw(st.booleans()),
        punto_bonus_on_refusal=draw(st.booleans()),
    )
    d = evaluate(deal(rng), rng.randrange(4), rules)
    betting = {lance.value: random_betting(start_betting(d, lance), rng, bet_chance=0.5) for lance in lances_played(d)}
    start = {t: draw(st.integers(0, rules.target - 1)) for t in "AB"}
    return d, betting, start


@settings(max_examples=250, deadline=None)
@given(hands_to_count())
def test_count_properties(case):
    d, betting, start = case
    r = count_hand(d, start_score=start, betting=betting)
    target = d.rules.target
    # nobody ever loses stones; the score only grows step by step
    assert all(v >= 0 for lance in r.stones.values() for v in lance.values())
    prev = (start["A"], start["B"])
    for s in r.steps:
        if s.phase == "ordago":  # an accepted órdago decides the game: the dejes before it no longer count
            assert s.score == (start["A"], start["B"])
        else:
            assert s.score[0] >= prev[0] and s.score[1] >= prev[1]
        assert s.stones >= 0
        prev = s.score
    # the hand total is the sum of its lances
    assert r.hand_total == {t: sum(v[t] for v in r.stones.values()) for t in "AB"}
    if r.ordago:
        assert r.final_score == start and r.game_over
        lance = Lance(r.ended_at.split(":")[1])
        assert r.game_winner == team_of(d[lance].winner)  # the evaluator's best hand of that lance
    else:
        assert r.final_score == {t: start[t] + r.hand_total[t] for t in "AB"}
    if r.game_over:
        assert r.game_winner is not None
        if not r.ordago:
            assert r.final_score[r.game_winner] >= target
            loser = "B" if r.game_winner == "A" else "A"
            assert r.final_score[loser] < target
    else:
        assert all(v < target for v in r.final_score.values())
    # a hand that ends part-way scores a prefix of the full count
    full = count_hand(d, start_score={"A": 0, "B": 0}, betting=betting)
    if not full.game_over:
        if not r.game_over:
            assert r.stones == full.stones and r.hand_total == full.hand_total
        else:
            assert all(r.hand_total[t] <= full.hand_total[t] for t in "AB")


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([8, 4]))
def test_en_paso_hands_follow_the_evaluator(seed, kings):
    rng = random.Random(seed)
    d = evaluate(deal(rng), rng.randrange(4), Rules(kings=kings))
    r = count_hand(d)
    for lance in r.lances:
        res = d[lance]
        got = {t: n for t, n in r.stones[lance.value].items() if n}
        if res.winner is None:
            assert got == {}
            continue
        assert set(got) == {res.team}
        if lance in (Lance.PARES, Lance.JUEGO):
            assert got[res.team] == sum(v for _, _, v in jugada_values(d, lance, res.team))
        else:
            assert got[res.team] == 1


# ----------------------------------------------------------------------------------------------
# Amarracos, dentro, the match (RULES.md §9, §10)
# ----------------------------------------------------------------------------------------------


@given(st.integers(0, 200))
def test_amarracos_round_trip(n):
    a, p = to_amarracos(n)
    assert 0 <= p < 5 and from_amarracos(a, p) == n


def test_dentro_and_descriptions():
    assert [s for s in range(45) if is_dentro(s)] == [35, 36, 37, 38, 39]
    assert [s for s in range(45) if is_dentro(s, Rules(target=30))] == [25, 26, 27, 28, 29]
    assert describe_score(35) == "7 amarracos (35 stones): dentro, 5 to go"
    assert describe_score(34) == "6 amarracos and 4 piedras (34 stones)"
    assert describe_score(1) == "1 piedra (1 stone)"
    assert describe_score(41) == "8 amarracos and 1 piedra (41 stones): game won"
    with pytest.raises(BettingError):
        to_amarracos(-5)


def test_match_games_vacas_and_match():
    rules = Rules(games_per_vaca=2, vacas_per_match=2)
    m = Match(rules).add_stones("A", 39)
    assert m.score == {"A": 39, "B": 0} and m.games == {"A": 0, "B": 0}
    m = m.add_stones("B", 2).add_stones("A", 1)
    assert m.score == {"A": 0, "B": 0} and m.games == {"A": 1, "B": 0}  # new game from 0-0
    m = m.win_game("B").win_game("B")
    assert m.games == {"A": 0, "B": 0} and m.vacas == {"A": 0, "B": 1} and not m.over
    m = m.win_game("A").win_game("A").win_game("B")
    assert m.vacas == {"A": 1, "B": 1} and m.games == {"A": 0, "B": 1}
    m = m.win_game("B")
    assert m.over and m.winner == "B"
    assert m.events[-1] == "Team B wins the match (1-2 in vacas)."
    with pytest.raises(BettingError, match="match is over"):
        m.add_stones("A", 1)
    with pytest.raises(BettingError, match="nobody loses stones"):
        Match().add_stones("A", -1)


def test_match_after_counted_hands():
    m = Match()
    r1 = count_case(BY_ID["S01"])
    m = m.after_hand(r1)
    assert m.score == {"A": 9, "B": 1}
    with pytest.raises(BettingError, match="starts at"):
        m.after_hand(r1)  # that hand started at 0-0
    r2 = count_case(BY_ID["S05"])  # órdago: team A wins a game from 0-0
    m2 = Match().after_hand(r2)
    assert m2.games == {"A": 1, "B": 0} and m2.score == {"A": 0, "B": 0}
    assert "by órdago" in m2.events[-1]
    assert "Team A: 1 amarraco and 4 piedras (9 stones)" in m.describe()


# ----------------------------------------------------------------------------------------------
# Quizzes (pure functions behind the betting and count widgets)
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["rejected", "accepted", "paso", "ordago_accepted"])
def test_betting_question_kinds_and_grading(kind):
    for seed in range(15):
        q = betting_question(seed, kind=kind)
        o = q.state.outcome
        assert o.type == kind
        assert len(q.lines) == len([s for s in q.state.steps if s.seat is not None])
        if kind == "rejected":
            assert q.answer[o.winner_team] == o.deje and q.answer[{"A": "B", "B": "A"}[o.winner_team]] == 0
        else:
            assert q.answer == {"A": 0, "B": 0}
        good = grade_betting(q, q.answer)
        assert good.correct and good.wrong == ()
        bad = q.grade({"A": q.answer["A"] + 1, "B": q.answer["B"]})
        assert not bad.correct and bad.wrong == ("A",)
        assert bad.steps[: len(q.state.steps)] == tuple(q.state.texts())


def test_betting_question_is_reproducible_and_answers_are_checked():
    assert betting_question(42).lines == betting_question(42).lines
    q = betting_question(1, kind="rejected", lance="chica", mano=3)
    assert q.lance is Lance.CHICA and q.mano == 3
    assert q.grade((q.answer["A"], q.answer["B"])).correct
    for bad in ({"A": -1}, {"C": 1}, "two", {"A": 1.5}):
        with pytest.raises(CountAnswerError):
            q.grade(bad)
    late = betting_question(1, kind="rejected", rules=Rules(deje_timing="end"))
    assert late.answer == {"A": 0, "B": 0}


def test_count_question_grading():
    for seed in range(20):
        q = count_question(seed, near_end=seed % 2 == 0)
        assert q.answer == q.result.stones
        assert grade_count(q, q.answer).correct
        assert list(q.betting_lines) == [lance.value for lance in q.result.lances]
        wrong_lance = q.result.lances[1].value
        answer = {k: dict(v) for k, v in q.answer.items()}
        answer[wrong_lance]["B"] += 2
        g = q.grade(answer)
        assert not g.correct and g.wrong == (wrong_lance,)
        assert g.steps[:-1] == tuple(q.result.explanation)
        assert g.steps[-1].startswith(Lance(wrong_lance).title + ":"), "why this answer is wrong comes last"
        assert Lance(wrong_lance).title in g.headline
    q = count_question(3)
    with pytest.raises(CountAnswerError, match="not played"):
        q.grade({"envite": {"A": 1}})
    blank = {lance.value: {} for lance in q.result.lances}
    assert q.grade(blank).correct == all(v == {"A": 0, "B": 0} for v in q.answer.values())
    assert count_question(9).answer == count_question(9).answer


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_count_questions_never_crash(seed, near_end, ordago):
    q = count_question(seed, near_end=near_end, allow_ordago=ordago)
    assert q.grade(q.answer).correct
    for b in q.bettings.values():
        assert isinstance(b, LanceBetting) and b.closed
