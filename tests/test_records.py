"""Records carry typed values (issue 24): teams and action kinds are string enums, the count's end is a GameEnd,
and every decision record names its actor.

Each still compares, hashes, prints and serialises as the string it replaced, so every reader keeps working.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from musteach.play.actions import Discard, MusCall, NextHand, Signal
from musteach.play.bots import RuleBot
from musteach.play.events import Event
from musteach.play.game import Game, replay
from musteach.rules.bet_actions import ActionKind
from musteach.rules.betting import ACTION_KINDS, Action, BettingOutcome, LanceBetting, other_team, play_betting
from musteach.rules.count import CountResult, GameEnd, count_case, count_hand
from musteach.rules.errors import BettingError, IllegalActionError, MusError, RulesError, SeatError
from musteach.rules.lances import Lance, evaluate, team_of
from musteach.rules.stakes import TEAMS, Team, as_team
from musteach.teach.progress import Progress

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


# ----- records with their actor (issue 24, item 3) -------------------------------------------------------

DATA = Path(__file__).resolve().parent / "data"


def _played_game() -> Game:
    """Seed 11: mus, a discard round, then the lances played by the rule bots (every kind of record)."""
    g = Game(seed=11)
    for seat in (0, 1, 2, 3):
        g.act(seat, "mus")
    for seat in (0, 1, 2, 3):
        g.act(seat, Discard(g.hand.hands[seat][:1]))
    bots = {s: RuleBot() for s in range(4)}
    for s in range(4):
        if g.legal_senas(s):
            g.signal(s, g.legal_senas(s)[0])
    while g.to_act is not None:
        t = g.to_act
        g.act(t.seat, bots[t.seat].decide(g.view(t.seat)))
    return g


def test_every_record_of_a_game_names_its_actor() -> None:
    g = _played_game()
    decisions = [e for e in g.history if e.record is not None and not isinstance(e.record, NextHand)]
    kinds = {type(e.record) for e in decisions}
    assert {MusCall, Discard, Action, Signal} <= kinds
    for e in decisions:
        assert e.seat is not None and e.record.seat == e.seat, e
    for h in g.hands:
        for b in h.bettings.values():
            for step in b.steps:
                assert step.action is None or step.action.seat == step.seat


def test_the_actor_is_shown_but_not_compared() -> None:
    assert repr(Action("envido", 5)) == "Action(kind='envido', amount=5)"
    assert repr(Action("envido", 5).by(1)) == "Action(kind='envido', amount=5, seat=1)"
    assert repr(MusCall(False, seat=0)) == "MusCall(wants=False, seat=0)"
    assert Action("quiero", seat=3) == Action("quiero") and hash(Action("quiero", seat=3)) == hash(Action("quiero"))
    assert Discard("12o 3c", seat=2) == Discard("3c 12o".split()[::-1]) and Discard("12o", seat=1).seat == 1
    a = Action("paso")
    assert a.by(2).by(2).seat == 2 and a.seat is None  # by() gives a new record; the old one names nobody
    assert pickle.loads(pickle.dumps(a.by(2))).seat == 2


def test_legal_records_name_the_seat_they_are_offered_to() -> None:
    g = Game(seed=7)
    assert [a.seat for a in g.legal_actions(0)] == [0, 0]
    b = LanceBetting.start("grande", 0).envido(0)
    assert {a.seat for a in b.legal_actions(1)} == {1} and {a.seat for a in b.legal_actions()} == {1}
    assert b.steps[-1].action == Action("envido", 2) and b.steps[-1].action.seat == 0


def test_a_record_played_by_another_seat_is_refused() -> None:
    g = Game(seed=7)
    with pytest.raises(IllegalActionError, match="played by seat 2"):
        g.act(0, MusCall(True, seat=2))
    assert len(g.history) == 6  # nothing played
    with pytest.raises(IllegalActionError, match="played by seat 1"):
        LanceBetting.start("grande", 0).act(0, Action("paso", seat=1))
    with pytest.raises(SeatError, match="not 4"):
        Action("paso", seat=4)
    with pytest.raises(SeatError, match='not "x"'):
        MusCall(True, seat="x")  # type: ignore[arg-type]
    assert g.act(0, MusCall(True, seat=0))[0].record == MusCall(True)


def test_an_old_history_without_actors_loads_with_them() -> None:
    """A history saved before records named their actor (main on 2 Dec 2026: each event has its seat, the
    record is its action text) loads, replays, and its records name the events' seats."""
    old = json.loads((DATA / "history_before_actors.json").read_text(encoding="utf-8"))
    assert all("record" not in e for e in old)
    g = replay(old)
    played = [e for e in g.history if e.record is not None]
    assert [str(e.record) for e in played] == [
        "no hay mus", "seña ciego", "paso", "paso", "paso", "paso", "envido 2", "no quiero", "no quiero",
    ]  # fmt: skip
    assert [e.record.seat for e in played] == [0, 0, 0, 1, 2, 3, 0, 1, 3]
    events = [Event.from_dict(e) for e in old]
    assert [e.record.seat for e in events if e.record is not None] == [0, 0, 0, 1, 2, 3, 0, 1, 3]
    assert g.history_dicts() == old  # saved as it was


def test_an_old_progress_game_record_still_loads() -> None:
    """A progress document saved by main on 2 Dec 2026 with one finished game (its review facts, no actions)
    loads as before."""
    old = (
        '{"best_streak":0,"games":[["1b6462962c1d412d","2026-12-01T09:00:00+00:00",3,1.5,true,"club",'
        '{"game_number":1,"score":[40,12],"team":"A","winner":"A"}]],"runs":[],"schema":"musteach-progress",'
        '"schema_version":4,"skills":{}}'
    )
    best = Progress.from_json(old).best_game()
    assert best is not None and (best.decisions, best.stones_lost, best.won, best.level) == (3, 1.5, True, "club")
    assert best.review == {"game_number": 1, "score": [40, 12], "team": "A", "winner": "A"}


def test_seated_actions_are_shared_and_still_refuse_another_seat() -> None:
    a = Action("envido", 3).by(1)
    assert a is Action("envido", 3).by(1) and a.seat == 1 and Action("envido", 3).seat is None
    assert Action("envido", 3).by(2).seat == 2 and a.by(1) is a
    with pytest.raises(IllegalActionError, match="played by seat 1"):
        a.by(2)
    with pytest.raises(SeatError):
        Action("paso").by(4)
    assert LanceBetting.start("grande", 0).legal_actions(0)[0] is LanceBetting.start("chica", 0).legal_actions(0)[0]


def test_a_saved_event_with_a_bad_seat_names_it() -> None:
    old = json.loads((DATA / "history_before_actors.json").read_text(encoding="utf-8"))
    action = next(e for e in old if e.get("action") == "paso")
    with pytest.raises(MusError, match="a history event has a bad seat: seat must be a seat 0, 1, 2 or 3, not 9"):
        Event.from_dict(action | {"seat": 9})
    with pytest.raises(MusError, match=r"un suceso del historial tiene un asiento incorrecto: .*, no 9"):
        try:
            Event.from_dict(action | {"seat": 9})
        except MusError as e:
            raise MusError(e.message("es")) from None
