"""Betting in one lance: the state machine, the deje, declarations and the §7a outcome schema (RULES.md §4, §6)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musteach import evaluate
from musteach.rules import Rules
from musteach.rules.betting import (
    ORDAGO,
    Action,
    BettingOutcome,
    LanceBetting,
    check_stakes,
    declarations,
    deje,
    lances_played,
    participants,
    play_betting,
    random_betting,
    start_betting,
)
from musteach.rules.errors import BettingError, IllegalActionError, MusError, SeatError
from musteach.rules.lances import Lance, team_of

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
SCORING = json.loads((VECTORS / "scoring.json").read_text(encoding="utf-8"))

# S01's deal: seat 0 R-R-R-7 (medias, 37), seat 1 A-A-4-5 (par), seat 2 C-C-S-A (par, 31), seat 3 6-6-5-4 (par).
D1 = [["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"], ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]]
# S21's deal: juego for every seat, pares only in seat 2.
D7 = [["12o", "11o", "7o", "5o"], ["12c", "11c", "10c", "1o"], ["12e", "11e", "10e", "3o"], ["11b", "10b", "7c", "6c"]]


# ----------------------------------------------------------------------------------------------
# The deje (RULES.md §6, §12 #7, #17, #18)
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stakes", "paid"),
    [
        ([2], 1),  # a refused first bet: 1 stone
        ([5], 1),  # whatever its size
        (["ordago"], 1),  # a refused first-bet órdago is a bet like any other
        ([2, 5, 10], 5),  # RULES.md §6
        ([2, 4, 7, 12], 7),  # RULES.md §6 (muslandia)
        ([2, "ordago"], 2),  # RULES.md §6
        ([2, 5, 10, 20], 10),  # RULES.md §12 #18: the previous total, not the first raise
        ([2, 4], 2),
    ],
)
def test_deje_examples_from_rules(stakes, paid):
    assert deje(stakes) == paid


@pytest.mark.parametrize(
    ("actions", "stakes", "winner", "paid"),
    [
        ([(0, "envido"), (1, "no quiero"), (3, "no quiero")], [2], "A", 1),
        ([(0, "órdago"), (1, "no quiero"), (3, "paso")], ["ordago"], "A", 1),
        ([(0, "envido 2"), (1, "3 más"), (0, "5 más"), (1, "no quiero"), (3, "no quiero")], [2, 5, 10], "A", 5),
        ([(0, "envido"), (1, "2 más"), (2, "3 más"), (3, "5 más"), (0, "no quiero"), (2, "no quiero")], [2, 4, 7, 12], "B", 7),
        ([(0, "envido"), (3, "órdago"), (2, "no quiero"), (0, "no quiero")], [2, "ordago"], "B", 2),
    ],
)
def test_deje_chains_played_through_the_state_machine(actions, stakes, winner, paid):
    b = play_betting("grande", 0, actions)
    assert b.closed
    assert b.outcome.type == "rejected"
    assert list(b.outcome.stakes) == stakes
    assert b.outcome.winner_team == winner
    assert b.outcome.deje == paid


def test_check_stakes_rejects_bad_chains():
    with pytest.raises(BettingError, match="at least 2 more"):
        check_stakes([2, 3])
    with pytest.raises(BettingError, match="first bet is at least 2"):
        check_stakes([1])
    with pytest.raises(BettingError, match="órdago can only be accepted or refused"):
        check_stakes(["ordago", 10])
    with pytest.raises(BettingError, match="empty"):
        check_stakes([])
    with pytest.raises(BettingError, match="whole number"):
        check_stakes([2, "lots"])
    with pytest.raises(BettingError):
        deje("2,5")


# ----------------------------------------------------------------------------------------------
# Speaking order, answers, closing
# ----------------------------------------------------------------------------------------------


def test_all_pass_is_en_paso_and_order_runs_from_mano():
    b = LanceBetting.start("chica", mano=2)
    assert b.participants == (2, 3, 0, 1)
    seen = []
    while not b.closed:
        seen.append(b.next_seat)
        b = b.paso(b.next_seat)
    assert seen == [2, 3, 0, 1]
    assert b.outcome == BettingOutcome.paso()
    assert "en paso" in b.texts()[-1]


def test_a_bet_is_refused_only_when_both_opponents_decline():
    b = LanceBetting.start("grande", 0).envido(0)
    assert b.to_act == (1, 3)  # either partner may answer; the nearer one first
    b = b.no_quiero(1)
    assert not b.closed
    assert b.to_act == (3,)
    assert b.texts()[-1] == "Seat 1 says no quiero; seat 3 may still answer for team B."
    b = b.no_quiero(3)
    assert b.outcome.type == "rejected"


def test_one_accepting_partner_is_enough_even_after_the_other_declined():
    b = LanceBetting.start("grande", 0).envido(0, 4).no_quiero(1).quiero(3)
    assert b.outcome.to_dict() == {"type": "accepted", "stake": 4}


def test_the_second_partner_may_answer_first():
    b = LanceBetting.start("grande", 0).envido(0).quiero(3)
    assert b.outcome.stake == 2


def test_passing_before_a_bet_does_not_put_a_player_out():
    b = LanceBetting.start("grande", 0).paso(0).envido(1)
    assert b.to_act == (2, 0)
    b = b.quiero(0)
    assert b.outcome.stake == 2


def test_raises_go_back_and_forth_and_the_answering_team_switches():
    b = LanceBetting.start("grande", 1).envido(1)
    assert b.answering_team == "A"
    b = b.reenvido(2, 3)
    assert b.current_stake == 5 and b.answering_team == "B"
    b = b.reenvido(3, 2)
    assert b.current_stake == 7 and b.answering_team == "A"
    b = b.quiero(0)
    assert b.outcome.stakes == (2, 5, 7) and b.outcome.stake == 7


def test_ordago_accepted():
    b = LanceBetting.start("juego", 0).envido(0).ordago(1).quiero(2)
    assert b.outcome.type == "ordago_accepted"
    assert b.outcome.to_dict() == {"type": "ordago_accepted"}
    assert "wins the game" in b.texts()[-1]


def test_paso_facing_a_bet_means_no_quiero():
    b = LanceBetting.start("grande", 0).envido(0).paso(1).paso(3)
    assert b.outcome.type == "rejected"
    assert "(no quiero)" in b.texts()[-1]


def test_learner_texts():
    b = LanceBetting.start("grande", 0).paso(0).envido(1)
    assert b.texts() == ["Seat 0 says paso.", "Seat 1 says envido 2: the bet is 2; team A must answer."]
    b = b.no_quiero(2).no_quiero(0)
    assert b.texts()[-1] == "Seat 0 says no quiero. Team A refuses: team B takes the deje of 1 stone now."
    late = LanceBetting.start("grande", 0, rules=Rules(deje_timing="end")).envido(0).no_quiero(1).no_quiero(3)
    assert "scored at the end of the hand" in late.texts()[-1]
    pares = LanceBetting.start("pares", 0).envido(0).no_quiero(1).no_quiero(3)
    assert pares.texts()[-1].endswith("and its own pares in the count.")
    raised = LanceBetting.start("chica", 0).envido(0).reenvido(1, 3)
    assert raised.texts()[-1] == "Seat 1 raises: 3 más (reenvido): the bet is now 5; team A must answer."


def test_states_are_frozen_values():
    b = LanceBetting.start("grande", 0)
    b2 = b.envido(0)
    assert b.stakes == () and b2.stakes == (2,)
    with pytest.raises(AttributeError):
        b.stakes = (4,)  # type: ignore[misc]


def test_legal_actions():
    b = LanceBetting.start("grande", 0)
    assert [str(a) for a in b.legal_actions()] == ["paso", "envido 2", "órdago"]
    b = b.envido(0)
    assert [str(a) for a in b.legal_actions()] == ["paso", "2 más", "órdago", "quiero", "no quiero"]
    b = b.ordago(1)
    assert [str(a) for a in b.legal_actions()] == ["paso", "quiero", "no quiero"]
    assert b.quiero(0).legal_actions() == []


# ----------------------------------------------------------------------------------------------
# Illegal actions name the rule
# ----------------------------------------------------------------------------------------------


def test_quiero_with_no_bet():
    b = LanceBetting.start("grande", 1)
    with pytest.raises(IllegalActionError, match=r"seat 1 cannot say quiero: there is no bet to accept \(RULES.md §6\)"):
        b.quiero(1)
    assert not b.can_quiero(1)
    with pytest.raises(IllegalActionError, match="no bet to refuse"):
        b.verify_no_quiero(1)


def test_raise_by_one_and_bet_of_one():
    b = LanceBetting.start("grande", 0)
    with pytest.raises(IllegalActionError, match="a bet is at least 2 stones"):
        b.envido(0, 1)
    b = b.envido(0)
    with pytest.raises(IllegalActionError, match="a raise is at least 2 more, not 1"):
        b.reenvido(1, 1)
    assert not b.can_reenvido(1, 1) and b.can_reenvido(1, 2)


def test_raise_with_no_bet_and_envido_facing_a_bet():
    b = LanceBetting.start("grande", 0)
    with pytest.raises(IllegalActionError, match="no bet to raise"):
        b.reenvido(0)
    with pytest.raises(IllegalActionError, match="already a bet of 2"):
        b.envido(0).envido(1, 4)


def test_wrong_seats_turn():
    b = LanceBetting.start("grande", 0)
    with pytest.raises(IllegalActionError, match=r"it is seat 0's turn"):
        b.paso(1)
    with pytest.raises(IllegalActionError, match=r"it is seat 0's turn"):
        b.envido(2)
    b = b.paso(0)
    with pytest.raises(IllegalActionError, match=r"it is seat 1's turn"):
        b.paso(0)


def test_out_of_turn_first_bet_option():
    b = LanceBetting.start("grande", 0, rules=Rules(allow_out_of_turn_first_bet=True))
    assert b.can_envido(2) and not b.can_paso(2)
    b = b.envido(2)
    assert b.to_act == (3, 1)


def test_same_team_cannot_answer_its_own_bet():
    b = LanceBetting.start("grande", 0).envido(0)
    with pytest.raises(IllegalActionError, match="team A's own; team B must answer"):
        b.quiero(2)
    with pytest.raises(IllegalActionError, match="team A's own"):
        b.no_quiero(0)
    with pytest.raises(IllegalActionError, match="team A's own"):
        b.reenvido(2)


def test_a_seat_that_refused_cannot_speak_again():
    b = LanceBetting.start("grande", 0).envido(0).no_quiero(1)
    with pytest.raises(IllegalActionError, match="already refused this bet; seat 3 may still answer"):
        b.quiero(1)


def test_no_raise_over_an_ordago():
    b = LanceBetting.start("grande", 0).ordago(0)
    with pytest.raises(IllegalActionError, match="órdago can only be accepted"):
        b.reenvido(1, 2)
    with pytest.raises(IllegalActionError, match="órdago can only be accepted"):
        b.ordago(1)


def test_acting_after_the_lance_is_closed():
    b = LanceBetting.start("grande", 0).envido(0).quiero(1)
    for act in ("paso", "quiero", "envido", "órdago", "no quiero"):
        with pytest.raises(IllegalActionError, match="the Grande betting is over"):
            b.act(3, act)


def test_non_holder_cannot_speak_in_pares():
    deal = evaluate(D7, 0)  # juego: everybody; pares: only seat 2 (R-R with the 3)
    d = declarations(deal)
    assert d["juego"].participants == (0, 1, 2, 3)
    assert d["pares"].holders == (2,) and not d["pares"].bettable
    b = LanceBetting.start("pares", 0, participants=[0, 1])
    with pytest.raises(IllegalActionError, match=r"seat 2 said 'pares no', and only the holders speak in Pares \(RULES.md §4\)"):
        b.envido(2)
    b = b.envido(0)
    assert b.to_act == (1,)  # seat 3 holds no pares: seat 1 answers alone
    assert b.no_quiero(1).outcome.type == "rejected"


def test_bad_seats_and_actions():
    b = LanceBetting.start("grande", 0)
    with pytest.raises(SeatError):
        b.paso(4)
    with pytest.raises(IllegalActionError, match="unknown betting action"):
        b.act(0, "double")
    with pytest.raises(IllegalActionError, match="action 2:"):
        b.play([(0, "paso"), (2, "paso")])
    with pytest.raises(BettingError, match="all four players take part in Grande"):
        LanceBetting.start("grande", 0, participants=[0, 1])


@pytest.mark.parametrize(
    ("text", "kind", "amount"),
    [
        ("paso", "paso", None),
        ("Envido", "envido", 2),
        ("envido 5", "envido", 5),
        ("3 más", "reenvido", 3),
        ("3 mas", "reenvido", 3),
        ("reenvido", "reenvido", 2),
        ("Órdago", "ordago", None),
        ("no quiero", "no_quiero", None),
        ("quiero", "quiero", None),
    ],
)
def test_action_parse(text, kind, amount):
    a = Action.parse(text)
    assert (a.kind, a.amount) == (kind, amount)
    assert Action.parse(str(a)) == a


# ----------------------------------------------------------------------------------------------
# Declarations and participants (RULES.md §4)
# ----------------------------------------------------------------------------------------------


def test_declarations_and_participants_for_a_deal():
    deal = evaluate(D1, 1)
    d = declarations(deal)
    assert d["pares"].texts == ("Seat 1: pares sí", "Seat 2: pares sí", "Seat 3: pares sí", "Seat 0: pares sí")
    assert d["pares"].participants == (1, 2, 3, 0)
    assert d["juego"].texts == ("Seat 1: juego no", "Seat 2: juego sí", "Seat 3: juego no", "Seat 0: juego sí")
    assert d["juego"].holder_teams == ("A",) and not d["juego"].bettable
    assert d["juego"].summary.startswith("Only team A holds juego: no betting")
    assert participants(deal, "juego") == ()
    assert participants(deal, "punto") == ()
    assert lances_played(deal)[-1] is Lance.JUEGO
    closed = start_betting(deal, "juego")
    assert closed.closed and closed.outcome.type == "no_bet"
    with pytest.raises(IllegalActionError, match="over"):
        closed.paso(1)


def test_nobody_with_juego_means_punto_with_all_four():
    deal = evaluate([["12o", "11o", "5o", "4o"], ["12c", "11c", "6o", "4c"], ["7o", "7c", "1o", "2o"], ["10o", "10c", "5c", "1c"]], 0)
    assert lances_played(deal)[-1] is Lance.PUNTO
    assert participants(deal, "punto") == (0, 1, 2, 3)
    assert declarations(deal)["juego"].summary.startswith("Nobody has juego: Punto is played instead")


def test_holders_speak_in_pares_when_both_teams_hold():
    # seat 0 R-R, seat 1 nothing, seat 2 nothing, seat 3 7-7
    deal = evaluate([["12o", "12c", "4o", "5o"], ["1o", "10c", "6o", "4c"], ["11o", "1c", "5c", "6c"], ["7o", "7c", "10o", "11c"]], 0)
    d = declarations(deal)["pares"]
    assert d.participants == (0, 3)
    assert d.summary == "Both teams hold pares: seats 0 and 3 bet; seats 1 and 2 stay silent (RULES.md §4)."
    b = start_betting(deal, "pares")
    assert b.participants == (0, 3)
    b = b.envido(0)
    assert b.to_act == (3,)
    with pytest.raises(IllegalActionError, match="pares no"):
        b.quiero(1)


# ----------------------------------------------------------------------------------------------
# The scoring.json betting schema (RULES.md §7a)
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", SCORING, ids=[c["id"] for c in SCORING])
def test_outcomes_round_trip_the_vector_schema(case):
    for lance, raw in case["betting"].items():
        o = BettingOutcome.from_dict(raw, f"betting.{lance}")
        assert o.to_dict() == raw
        if raw["type"] == "rejected":
            s = raw["stakes"]
            assert o.deje == (1 if len(s) == 1 else s[-2])


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"type": "won"}, "type must be one of"),
        ({"type": "accepted"}, "needs its stake"),
        ({"type": "accepted", "stake": 1}, "stake must be a whole number of stones ≥ 2"),
        ({"type": "accepted", "stake": "ordago"}, "stake must be a whole number"),
        ({"type": "rejected", "stakes": [2]}, "needs 'stakes' and 'winner_team'"),
        ({"type": "rejected", "stakes": [2], "winner_team": "C"}, "a team is 'A'"),
        ({"type": "rejected", "stakes": ["ordago", 4], "winner_team": "A"}, "órdago can only be accepted"),
        ({"type": "paso", "stake": 2}, "unexpected field"),
        ("paso", "must be an object"),
    ],
)
def test_bad_outcomes_are_named(raw, message):
    with pytest.raises(BettingError, match=message) as e:
        BettingOutcome.from_dict(raw, "betting.grande")
    assert str(e.value).startswith("betting.grande")
    assert isinstance(e.value, MusError)


def test_outcome_from_state_keeps_the_whole_chain():
    b = LanceBetting.start("grande", 0).envido(0).reenvido(1, 2).quiero(2)
    assert b.outcome.stakes == (2, 4)
    assert b.outcome.to_dict() == {"type": "accepted", "stake": 4}
    assert BettingOutcome.from_dict(b.outcome.to_dict()).stake == 4


def test_a_single_stake_given_as_text_is_one_stake_not_its_letters():
    assert BettingOutcome.rejected(ORDAGO, "B").stakes == (ORDAGO,)
    assert BettingOutcome.rejected("órdago", "B").deje == 1  # a first-bet órdago refused pays 1
    assert BettingOutcome.ordago_accepted("ordago").stakes == (ORDAGO,)
    assert BettingOutcome.accepted(5).stakes == (5,)
    with pytest.raises(BettingError, match="ordago_accepted"):
        BettingOutcome.accepted(ORDAGO)


# ----------------------------------------------------------------------------------------------
# Properties
# ----------------------------------------------------------------------------------------------

ALL_ACTIONS = st.one_of(
    st.sampled_from([Action("paso"), Action("ordago"), Action("quiero"), Action("no_quiero")]),
    st.builds(Action, st.sampled_from(["envido", "reenvido"]), st.integers(-1, 7)),
)


@st.composite
def fresh_states(draw):
    lance = draw(st.sampled_from(["grande", "chica", "pares", "juego", "punto"]))
    mano = draw(st.integers(0, 3))
    if lance in ("pares", "juego"):
        seats = draw(st.sets(st.integers(0, 3), min_size=2).filter(lambda s: {x % 2 for x in s} == {0, 1}))
    else:
        seats = None
    rules = Rules(
        deje_timing=draw(st.sampled_from(["immediate", "end"])),
        allow_out_of_turn_first_bet=draw(st.booleans()),
    )
    return LanceBetting.start(lance, mano, seats, rules)


def _check_invariants(b: LanceBetting) -> None:
    ints = [s for s in b.stakes if s != ORDAGO]
    assert all(x >= 2 for x in ints[:1])
    assert all(y - x >= 2 for x, y in itertools.pairwise(ints))
    assert ORDAGO not in b.stakes[:-1]
    if b.closed:
        assert b.to_act == ()
        o = b.outcome
        if o.type == "rejected":
            assert o.deje >= 1
            if len(o.stakes) == 1:
                assert o.deje == 1
            else:  # never more than the previous stake, and less than the refused one
                assert o.deje == o.stakes[-2]
                assert o.stakes[-1] == ORDAGO or o.deje < o.stakes[-1]
            assert o.winner_team == team_of(b.bettor)
    else:
        assert b.to_act
        for s in b.to_act:
            assert s in b.participants
            assert b.legal_actions(s), f"seat {s} may act but has no legal action"
        if b.stakes:
            assert all(team_of(s) != b.betting_team for s in b.to_act)


@settings(max_examples=300, deadline=None)
@given(fresh_states(), st.lists(st.tuples(st.integers(0, 3), ALL_ACTIONS), max_size=30))
def test_random_actions_are_played_or_rejected_with_the_right_error(state, tries):
    """Any seat trying any action: legal ones play, illegal ones raise IllegalActionError, nothing else."""
    b = state
    for seat, action in tries:
        legal = b.can(seat, action)
        if legal:
            b2 = b.act(seat, action)
            assert len(b2.steps) == len(b.steps) + 1
            assert b2.steps[-1].seat == seat and b2.steps[-1].text.startswith(f"Seat {seat} ")
            b = b2
        else:
            with pytest.raises(IllegalActionError):
                b.act(seat, action)
        _check_invariants(b)


@settings(max_examples=300, deadline=None)
@given(fresh_states(), st.integers(0, 2**32 - 1))
def test_random_legal_sequences_always_close(state, seed):
    b = random_betting(state, random.Random(seed))
    assert b.closed
    _check_invariants(b)
    # replaying the recorded actions from the start gives the same outcome
    replay = state.play([(s.seat, s.action) for s in b.steps if s.seat is not None])
    assert replay.outcome == b.outcome
    assert BettingOutcome.from_dict(b.outcome.to_dict()).to_dict() == b.outcome.to_dict()
