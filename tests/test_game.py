"""Whole hands step by step: deal, mus, lances, count, next hand, replay (RULES.md §2–§11)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from musteach.play.actions import card_names
from musteach.play.bots import RuleBot, run
from musteach.play.game import Declare, Discard, Event, Game, MusCall, Turn, parse_action, replay
from musteach.rules import Rules
from musteach.rules.betting import Action, participants, play_betting
from musteach.rules.cards import DECK, Card
from musteach.rules.count import count_hand
from musteach.rules.errors import BettingError, DuplicateCardError, IllegalActionError, MusError, SeatError
from musteach.rules.lances import Lance, evaluate, speaking_order
from musteach.rules.senas import SenaError


def _random_play(game: Game, rng: random.Random, ordago: float = 0.02, senas: float = 0.1) -> None:
    """Play random legal actions (and random true señas) until the match is over."""
    while not game.is_over:
        if game.hand.is_over:
            game.next_hand()
            continue
        turn = game.to_act
        seat = rng.choice(turn.seats)
        legal = game.legal_actions(seat)
        a = rng.choice(legal)
        if isinstance(a, Action) and a.kind == "ordago" and rng.random() > ordago:
            a = legal[0]
        if isinstance(a, MusCall) and game.hand.mus_round > 3:
            a = MusCall(False)
        game.act(seat, a)
        if rng.random() < senas:
            s = rng.randrange(4)
            fits = game.legal_senas(s)
            if fits:
                game.signal(s, rng.choice(fits))


def _conserved(game: Game) -> None:
    h = game.hand
    cards = [c for hand in h.hands for c in hand] + h.stock + h.discards
    assert len(cards) == 40 and set(cards) == set(DECK)


# ----------------------------------------------------------------------------------------------
# The deal and the rotation (RULES.md §2, §3)
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("first_mano", [0, 1, 2, 3])
def test_deal_one_card_at_a_time_from_mano(first_mano):
    g = Game(seed=21, first_mano=first_mano)
    deck = list(DECK)
    random.Random(21).shuffle(deck)
    h = g.hand
    assert h.mano == first_mano and h.dealer == (first_mano + 3) % 4
    for k in range(16):
        seat = (first_mano + k) % 4
        assert h.hands[seat][k // 4] == deck[k]
    assert h.stock == deck[16:]
    assert g.to_act == Turn(first_mano, "mus", (first_mano,))
    assert f"seat {h.dealer} deals" in g.history[1].text and f"seat {first_mano}, the mano" in g.history[1].text
    _conserved(g)


def test_the_deal_rotates_and_the_old_mano_deals():
    g = Game(seed=5, first_mano=2)
    bots = {s: RuleBot() for s in range(4)}
    manos, dealers = [], []
    for _ in range(9):
        run(g, bots, hands=1)
        manos.append(g.hand.mano)
        dealers.append(g.hand.dealer)
        if g.is_over:
            break
        old = g.hand.mano
        g.next_hand()
        assert g.hand.dealer == old and g.hand.mano == (old + 1) % 4
    assert manos[:4] == [2, 3, 0, 1]
    assert all(d == (m + 3) % 4 for m, d in zip(manos, dealers, strict=True))


def test_preset_hands_and_start_score():
    hands = ["12o 12c 12e 12b", "1o 1c 1e 1b", "4o 5o 6o 7o", "10o 10c 11o 11c"]
    g = Game(seed=1, hands=hands, first_mano=2, start_score={"A": 30, "B": 5})
    assert [str(g.hand.cards(s)) for s in range(4)] == hands
    assert g.score == {"A": 30, "B": 5} and len(g.hand.stock) == 24
    _conserved(g)
    with pytest.raises(DuplicateCardError):
        Game(seed=1, hands=["12o 12c 12e 12b"] * 4)
    with pytest.raises(BettingError, match="already won"):
        Game(seed=1, start_score={"A": 40, "B": 0})
    with pytest.raises(SeatError):
        Game(seed=1, first_mano=4)
    with pytest.raises(MusError, match="seed"):
        Game(seed="x")  # type: ignore[arg-type]


# ----------------------------------------------------------------------------------------------
# The mus (RULES.md §3)
# ----------------------------------------------------------------------------------------------


def test_one_no_hay_mus_cuts_for_everybody():
    g = Game(seed=3, first_mano=1)
    g.act(1, "mus")
    g.act(2, "mus")
    events = g.act(3, "no hay mus")
    assert g.hand.phase == "bet:grande" and g.hand.cards_final
    assert "no hay mus" in events[0].text and "RULES.md §3" in events[0].text
    assert g.to_act.seat == 1  # mano opens the Grande betting
    with pytest.raises(IllegalActionError, match="betting"):
        g.act(1, "mus")


def test_all_four_say_mus_then_discard_mano_first_and_draw():
    g = Game(seed=8, first_mano=3)
    before = [list(h) for h in g.hand.hands]
    for s in speaking_order(3):
        g.act(s, "mus")
    assert g.to_act == Turn(3, "discard", (3,))
    assert len(g.legal_actions(3)) == 15  # every non-empty subset of 4 cards
    with pytest.raises(IllegalActionError, match="seat 3's turn"):
        g.act(0, Discard(before[0][:1]))
    with pytest.raises(IllegalActionError, match="not in the hand"):
        g.act(3, Discard([next(c for c in DECK if c not in before[3])]))
    with pytest.raises(IllegalActionError, match="1 to 4"):
        g.act(3, Discard([]))
    with pytest.raises(IllegalActionError, match="discards 1 to 4"):
        g.act(3, "no hay mus")
    thrown = {3: before[3][:2], 0: before[0][:1], 1: before[1], 2: before[2][1:4]}
    for s in speaking_order(3):
        g.act(s, Discard(thrown[s]))
    h = g.hand
    assert h.phase == "mus" and h.mus_round == 2 and h.changes == [(1, 4, 3, 2)]
    for s in range(4):
        assert len(h.hands[s]) == 4
        kept = [c for c in before[s] if c not in thrown[s]]
        assert h.hands[s][: len(kept)] == kept
        assert not set(h.hands[s]) & set(thrown[s])
    assert sorted(h.discards, key=lambda c: c.index) == sorted((c for cs in thrown.values() for c in cs), key=lambda c: c.index)
    _conserved(g)
    draws = [e for e in g.history if e.kind == "draw"]
    assert [e.seat for e in draws] == list(speaking_order(3))  # served mano first
    assert draws[0].private.startswith("(draws") and "draws" not in draws[0].text_for(1)


def test_many_mus_rounds_reshuffle_the_discards():
    g = Game(seed=13)
    rounds = 7
    for _ in range(rounds):
        for s in speaking_order(0):
            g.act(s, "mus")
        for s in speaking_order(0):
            g.act(s, Discard(g.hand.hands[s]))  # change all four
        _conserved(g)
    h = g.hand
    # 24 cards in the first stock, 16 served per round: it runs out in rounds 2, 4 and 6
    reshuffles = [e for e in g.history if e.kind == "reshuffle"]
    assert h.reshuffles == len(reshuffles) == 3
    assert all("shuffles" in e.text and "RULES.md §3" in e.text for e in reshuffles)
    assert h.mus_round == rounds + 1 and len(h.changes) == rounds
    g.act(0, "no hay mus")
    assert g.hand.cards_final
    again = replay(g.history)
    assert again.hand.hands == g.hand.hands and again.hand.stock == g.hand.stock


# ----------------------------------------------------------------------------------------------
# The lances, declarations and the end of a game mid-hand (RULES.md §4, §6, §8)
# ----------------------------------------------------------------------------------------------


def test_a_deje_that_reaches_the_target_ends_the_game_at_once():
    hands = ["12o 12c 3e 11b", "1o 1c 4e 5b", "7o 7c 6e 5o", "10o 10c 4o 4c"]
    g = Game(seed=2, hands=hands, start_score={"A": 39, "B": 10}, rules=Rules(games_per_vaca=2))
    g.act(0, "no hay mus")
    g.act(0, "envido 2")
    g.act(1, "no quiero")
    g.act(3, "no quiero")
    h = g.hand
    assert h.is_over and h.result.ended_at == "betting:grande" and h.result.game_winner == "A"
    assert set(h.outcomes) == {"grande"}  # chica, pares and juego were never played
    assert g.match.games == {"A": 1, "B": 0} and g.match.score == {"A": 0, "B": 0}
    assert any(e.kind == "game_end" for e in g.history)
    g.next_hand()
    assert g.hand.start_score == {"A": 0, "B": 0} and g.hand.first_of_game


def test_deje_timing_end_does_not_stop_the_hand():
    hands = ["12o 12c 3e 11b", "1o 1c 4e 5b", "7o 7c 6e 5o", "10o 10c 4o 4c"]
    g = Game(Rules(deje_timing="end"), seed=2, hands=hands, start_score={"A": 39, "B": 10})
    g.act(0, "no hay mus")
    g.act(0, "envido 2")
    g.act(1, "no quiero")
    g.act(3, "no quiero")
    assert not g.hand.is_over and g.hand.phase == "bet:chica"


def test_an_accepted_ordago_ends_the_game_on_that_lance():
    hands = ["1o 1c 2e 4b", "12o 12c 3e 11b", "7o 7c 6e 5o", "10o 10c 4o 4c"]
    g = Game(seed=2, hands=hands, start_score={"A": 3, "B": 10})
    g.act(0, "no hay mus")
    g.act(0, "órdago")
    g.act(1, "quiero")
    h = g.hand
    assert h.is_over and h.result.ordago and h.result.ended_at == "ordago:grande"
    assert h.result.game_winner == "B" == h.deal.grande.team
    assert g.match.games["B"] == 1


def test_declarations_asked_must_be_truthful():
    hands = ["12o 12c 3e 11b", "1o 1c 4e 5b", "7o 6c 5e 4o", "10o 10c 4b 4c"]
    g = Game(seed=2, hands=hands, ask_declarations=True)
    g.act(0, "no hay mus")
    for _lance in ("grande", "chica"):
        for s in (0, 1, 2, 3):
            g.act(s, "paso")
    assert g.to_act == Turn(0, "declare:pares", (0,))
    assert g.legal_actions(0) == [Declare(Lance.PARES, True)]
    with pytest.raises(IllegalActionError, match=r"must say pares sí.*truthful"):
        g.act(0, "pares no")
    for s, said in zip((0, 1, 2, 3), ("pares sí", "pares sí", "pares no", "pares sí"), strict=True):
        g.act(s, said)
    assert g.hand.phase == "bet:pares"
    assert g.hand.betting.participants == (0, 1, 3)
    assert g.view(2).declared["pares"] == (True, True, False, True)


def test_facing_a_bet_either_opponent_may_answer():
    g = Game(seed=6)
    g.act(0, "no hay mus")
    g.act(0, "envido 2")
    t = g.to_act
    assert t.phase == "bet:grande" and t.seats == (1, 3) and t.seat == 1
    assert Action("quiero") in g.legal_actions(3)
    g.act(3, "quiero")  # the partner further from the bettor answers for the team
    assert g.hand.outcomes["grande"].type == "accepted"


# ----------------------------------------------------------------------------------------------
# Illegal actions are refused with the rule, and nothing changes (RULES.md §2–§6)
# ----------------------------------------------------------------------------------------------


def test_illegal_actions_name_the_rule():
    g = Game(seed=4)
    with pytest.raises(IllegalActionError, match=r"seat 0's turn.*RULES\.md §2"):
        g.act(1, "mus")
    with pytest.raises(IllegalActionError, match="first everybody says mus"):
        g.act(0, "paso")
    with pytest.raises(IllegalActionError, match="unknown action"):
        g.act(0, "fish")
    with pytest.raises(SeatError):
        g.act(7, "mus")
    n = len(g.history)
    g.act(0, "no hay mus")
    with pytest.raises(IllegalActionError, match="no bet to accept"):
        g.act(0, "quiero")
    with pytest.raises(IllegalActionError, match="at least 2"):
        g.act(0, "envido 1")
    with pytest.raises(IllegalActionError, match=r"hand \d+ is not over"):
        g.next_hand()
    assert len(g.history) == n + 2  # the action and the Grande announcement; refused ones left no trace
    assert not g.can_act(0, "quiero") and g.can_act(0, "envido 7")


def test_after_the_match_nobody_acts():
    g = Game(Rules(games_per_vaca=1), seed=9)
    run(g, {s: RuleBot() for s in range(4)})
    assert g.is_over and g.winner in ("A", "B") and g.to_act is None
    with pytest.raises(IllegalActionError, match="match is over"):
        g.act(0, "mus")
    with pytest.raises(IllegalActionError, match="match is over"):
        g.next_hand()
    assert g.legal_actions(0) == []


def test_parse_action_texts():
    assert parse_action("no hay mus") == MusCall(False) == parse_action("corto")
    assert parse_action("no", "mus") == MusCall(False)
    assert parse_action("no") == Action("no_quiero")
    assert parse_action("discard 12o 3c") == Discard(["12o", "3c"])
    assert parse_action("12o 3c", "discard") == Discard([Card.parse("12o"), Card.parse("3c")])
    assert parse_action("juego no") == Declare(Lance.JUEGO, False)
    assert parse_action("3 más") == Action("reenvido", 3)
    assert str(parse_action("seña dos reyes")) == "seña morder_labio"
    with pytest.raises(IllegalActionError, match="twice"):
        Discard(["12o", "12o"])


# ----------------------------------------------------------------------------------------------
# Señas in the game (RULES.md §11, §13)
# ----------------------------------------------------------------------------------------------


def test_senas_are_true_and_seen_by_the_partner_only():
    hands = ["12o 12c 7e 5b", "1o 1c 4e 5o", "7o 6c 5e 4o", "10o 10c 4b 4c"]
    g = Game(seed=2, hands=hands)
    with pytest.raises(SenaError, match="truthful"):
        g.signal(0, "lengua")
    g.signal(0, "dos reyes")
    e = g.history[-1]
    assert e.kind == "signal" and e.audience == (0, 2)
    assert e.text_for(2) and e.text_for(1) is None and e.text_for(3) is None
    assert [s.key for s in g.view(2).partner_senas] == ["morder_labio"]
    assert g.view(1).partner_senas == () and not any("signals" in t for t in g.view(1).events)
    assert g.to_act == Turn(0, "mus", (0,))  # a seña does not use the turn
    # after seat 0 changes cards, its old seña no longer describes its hand
    for s in range(4):
        g.act(s, "mus")
    for s in range(4):
        g.act(s, Discard(g.hand.hands[s][:1]))
    assert g.view(2).partner_senas == ()
    assert {s.key for s in g.legal_senas(0)} == {s.key for s in __import__("musteach").senas_for(g.hand.cards(0))}


def test_senas_off_and_first_hand_sin_senas():
    g = Game(Rules(senas="off"), seed=2)
    assert g.legal_senas(0) == []
    with pytest.raises(SenaError, match="not used at this table"):
        g.signal(0, "ciego")
    g = Game(Rules(first_hand="mus_corrido", games_per_vaca=1), seed=2)
    assert g.legal_senas(0) == [] and not g.can_signal(0, "ciego")
    run(g, {s: RuleBot() for s in range(4)}, hands=1)
    if not g.is_over:
        g.next_hand()
        assert not g.hand.first_of_game and g.legal_senas(0)


def test_views_hold_only_what_a_seat_may_know():
    g = Game(seed=12)
    v1 = g.view(1)
    own = card_names(g.hand.cards(1))
    assert v1.cards == tuple(g.hand.hands[1]) and v1.legal == ()
    assert any(own in t for t in v1.events)
    for other in (0, 2, 3):
        assert not any(card_names(g.hand.cards(other)) in t for t in v1.events)
    assert v1.partner == 3 and v1.team == "B" and v1.position == 1
    assert g.view(0).legal == (MusCall(True), MusCall(False))


# ----------------------------------------------------------------------------------------------
# Whole games: no illegal action, the count agrees with musteach.rules.count, replay (RULES.md §6–§10)
# ----------------------------------------------------------------------------------------------


def _recount(game: Game) -> None:
    """Recount every hand from the betting actions recorded in the history."""
    by_hand: dict[int, dict[str, list[tuple[int, str]]]] = {}
    for e in game.history:
        if e.kind == "action" and e.phase.startswith("bet:"):
            by_hand.setdefault(e.hand, {}).setdefault(e.phase[4:], []).append((e.seat, e.action))
    score = None
    for h in game.hands:
        if h.result is None:
            continue
        if score is not None:
            assert h.start_score == score
        deal = evaluate(h.deal.hands, h.mano, game.rules)
        betting = {}
        for lance, actions in by_hand.get(h.number, {}).items():
            b = play_betting(lance, h.mano, actions, participants(deal, lance), game.rules)
            assert b.closed
            betting[lance] = b.outcome
            assert b.outcome == h.outcomes[lance]
        r = count_hand(deal, start_score=h.start_score, betting=betting)
        assert r.to_dict() == h.result.to_dict()
        assert r.explanation == h.result.explanation
        score = {"A": 0, "B": 0} if r.game_over else r.final_score
        if not r.game_over:
            assert max(r.final_score.values()) < game.rules.target
        else:
            assert r.ordago or r.final_score[r.game_winner] >= game.rules.target


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(kings=4), Rules(target=30, deje_timing="end"), Rules(la_real=True, senas="kiss_three_kings")],
    ids=["8reyes", "4reyes", "a30-end", "la_real-kiss"],
)
def test_random_games_run_to_the_end_and_recount(rules):
    for seed in range(6):
        g = Game(rules, seed=seed, first_mano=seed % 4)
        _random_play(g, random.Random(seed))
        assert g.is_over and g.winner in ("A", "B")
        wins = Counter(h.result.game_winner for h in g.hands if h.result.game_over)
        loser = "B" if g.winner == "A" else "A"
        assert wins[g.winner] == rules.games_per_vaca > wins[loser]  # one vaca is the match here
        _recount(g)
        again = replay(json.loads(json.dumps(g.history_dicts())))
        assert again.history == g.history and again.winner == g.winner


def test_bot_games_on_many_seeds_recount():
    bots = {s: RuleBot() for s in range(4)}
    for seed in range(25):
        g = Game(Rules(games_per_vaca=1), seed=seed, first_mano=seed % 4)
        run(g, bots)  # raises if a bot ever plays an illegal action
        assert g.is_over
        _recount(g)
        teams = {h.result.game_winner for h in g.hands if h.result.game_over}
        assert teams == {g.winner}


def test_replay_rejects_an_edited_history():
    g = Game(seed=31)
    _random_play(g, random.Random(1))
    events = g.history_dicts()
    i = next(i for i, e in enumerate(events) if e["kind"] == "count")
    events[i] = dict(events[i], text="Team A takes 100 stones.")
    with pytest.raises(MusError, match="differs"):
        replay(events)
    j = next(i for i, e in enumerate(g.history_dicts()) if e.get("action") == "mus")
    bad = g.history_dicts()
    bad[j] = dict(bad[j], seat=(bad[j]["seat"] + 1) % 4)
    with pytest.raises(IllegalActionError):
        replay(bad)
    with pytest.raises(MusError, match="start"):
        replay(g.history_dicts()[1:])
    assert Event.from_dict(g.history[5].to_dict()) == g.history[5]


def test_match_of_vacas_is_counted():
    g = Game(Rules(games_per_vaca=2, vacas_per_match=2), seed=3)
    _random_play(g, random.Random(3), ordago=0.3)
    ends = [h.result.game_winner for h in g.hands if h.result.game_over]
    vacas = Counter()
    games = Counter()
    for w in ends:
        games[w] += 1
        if games[w] == 2:
            vacas[w] += 1
            games = Counter()
    assert vacas[g.winner] == 2 and g.match.vacas[g.winner] == 2


def test_every_decision_keeps_its_frozen_record_and_it_survives_a_json_round_trip():
    """The history is typed: each decision event holds its record (MusCall, Discard, Declare, a betting
    Action, Signal, NextHand), kinds and phases are enums, and a history read back from JSON has the same."""
    import json

    from musteach.play.actions import NextHand
    from musteach.play.events import EventKind, Phase
    from musteach.rules.betting import Action

    g = Game(seed=5, ask_declarations=True)
    run(g, {s: RuleBot() for s in range(4)}, hands=1)
    g.next_hand()
    run(g, {s: RuleBot() for s in range(4)}, hands=1)
    decisions = [e for e in g.history if e.action is not None]
    assert decisions and all(e.record is not None and str(e.record) == e.action for e in decisions)
    assert {type(e.record) for e in decisions} >= {MusCall, Declare, Action, NextHand}
    assert all(isinstance(e.kind, EventKind) and isinstance(e.phase, Phase) for e in g.history)
    for e in decisions:
        if e.kind is EventKind.ACTION and e.phase.is_betting:
            assert isinstance(e.record, Action) and e.phase.lance is not None
        if isinstance(e.record, Declare):
            assert e.phase.is_declaration and e.record.lance is e.phase.lance
    back = [Event.from_dict(d) for d in json.loads(json.dumps(g.history_dicts()))]
    assert [e.record for e in back] == [e.record for e in g.history]
    assert replay(back).history == g.history
