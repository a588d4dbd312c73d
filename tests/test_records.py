"""Records carry typed values (issue 24): teams and action kinds are string enums, the count's end is a GameEnd.

Each still compares, hashes, prints and serialises as the string it replaced, so every reader keeps working.
"""

from __future__ import annotations

import json
import pickle

import pytest

from musteach.rules.bet_actions import ActionKind
from musteach.rules.betting import ACTION_KINDS, Action, BettingOutcome, LanceBetting, other_team, play_betting
from musteach.rules.count import CountResult, GameEnd, count_case, count_hand
from musteach.rules.errors import BettingError, IllegalActionError, RulesError
from musteach.rules.lances import Lance, evaluate, team_of
from musteach.rules.stakes import TEAMS, Team, as_team

HANDS = [["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"], ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]]


def test_teams_are_a_str_enum_that_reads_as_the_letters() -> None:
    assert TEAMS == ("A", "B") and all(isinstance(t, Team) for t in TEAMS)
    assert [team_of(s) for s in range(4)] == ["A", "B", "A", "B"]
    assert all(type(team_of(s)) is Team for s in range(4))
    assert other_team("A") is Team.B and other_team(Team.B) is Team.A
    assert repr(Team.A) == "'A'" and str(Team.B) == "B" and f"{Team.A}" == "A"
    assert json.dumps({Team.A: 1, "x": Team.B}) == '{"A": 1, "x": "B"}'
    assert {Team.A: 1}["A"] == 1 and pickle.loads(pickle.dumps(Team.B)) is Team.B
    with pytest.raises(BettingError, match="not 'C'"):
        as_team("C")
    with pytest.raises(BettingError, match="not 0"):
        other_team(0)  # type: ignore[arg-type]


def test_deal_and_outcome_teams_are_teams() -> None:
    deal = evaluate(HANDS, 0)
    assert type(deal.grande.team) is Team
    o = BettingOutcome.from_dict({"type": "rejected", "stakes": [2], "winner_team": "B"})
    assert o.winner_team is Team.B and o.to_dict() == {"type": "rejected", "stakes": [2], "winner_team": "B"}
    assert repr(o) == "BettingOutcome(type='rejected', stakes=(2,), winner_team='B')"
    b = play_betting("grande", 0, [(0, "envido"), (1, "no quiero"), (3, "no quiero")])
    assert b.betting_team is Team.A and b.outcome is not None and b.outcome.winner_team is Team.A


def test_action_kind_is_a_str_enum() -> None:
    assert ACTION_KINDS == ("paso", "envido", "reenvido", "ordago", "quiero", "no_quiero")
    a = Action("envido", 5)
    assert a.kind is ActionKind.ENVIDO and a.kind == "envido" and repr(a) == "Action(kind='envido', amount=5)"
    assert Action.parse("no quiero").kind is ActionKind.NO_QUIERO
    assert Action(ActionKind.PASO) == Action("paso") and hash(Action(ActionKind.PASO)) == hash(Action("paso"))
    assert {Action("quiero"): 1}[Action(ActionKind.QUIERO)] == 1
    assert pickle.loads(pickle.dumps(Action("reenvido", 3))) == Action("reenvido", 3)
    for bad in ("Envido", 3, None, ["paso"]):
        with pytest.raises(IllegalActionError, match="unknown betting action"):
            Action(bad)  # type: ignore[arg-type]
    legal = LanceBetting.start("grande", 0).legal_actions()
    assert [a.kind for a in legal] == [ActionKind.PASO, ActionKind.ENVIDO, ActionKind.ORDAGO]


def test_the_count_ends_with_a_typed_game_end() -> None:
    r = count_hand(HANDS, 0, start_score={"A": 38, "B": 39}, betting={"grande": {"type": "rejected", "stakes": [2], "winner_team": "B"}})
    assert isinstance(r, CountResult) and type(r.ended_at) is GameEnd
    assert r.ended_at == "betting:grande" and r.ended_at.phase == "betting" and r.ended_at.lance is Lance.GRANDE
    assert not r.ended_at.is_ordago and not r.ordago and r.game_winner is Team.B
    assert json.dumps(r.to_dict()["ended_at"]) == '"betting:grande"'
    case = {"hands": {"0": "12o 12c 12e 7b", "1": "1o 1c 4e 5b", "2": "6o 6c 5e 4b", "3": "7o 7c 10e 11b"}, "mano_seat": 0,
            "variant": "8reyes", "target": 40, "start_score": {"A": 16, "B": 12}, "betting": {"grande": {"type": "ordago_accepted"}}}
    o = count_case(case)
    assert o.ended_at is not None and o.ended_at.is_ordago and o.ended_at.lance is Lance.GRANDE and o.ordago
    assert count_hand(HANDS, 0).ended_at is None


def test_game_end_reads_and_rejects() -> None:
    end = GameEnd("count", Lance.PARES)
    assert end == "count:pares" and GameEnd.parse("count:pares") == end and repr(end) == "'count:pares'"
    assert pickle.loads(pickle.dumps(end)) == end and type(pickle.loads(pickle.dumps(end))) is GameEnd
    assert end.startswith("count:") and end.split(":") == ["count", "pares"]  # old readers keep working
    with pytest.raises(RulesError, match="not \"later\""):
        GameEnd("later", "grande")
    with pytest.raises(RulesError, match="phase:lance"):
        GameEnd.parse("ordago")
    with pytest.raises(ValueError, match="unknown lance"):
        GameEnd.parse("count:tute")
