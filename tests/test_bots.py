"""Computer players, the coach, and the driver (RULES.md §3–§11)."""

from __future__ import annotations

import pytest

from musteach.play.bots import (
    Advice,
    OddsBot,
    OpponentModel,
    RuleBot,
    estimate,
    match_equity,
    play_match,
    run,
)
from musteach.play.game import Discard, Game, MusCall
from musteach.rules import Rules
from musteach.rules.betting import Action, play_betting
from musteach.rules.errors import MusError
from musteach.rules.lances import effective_rank
from musteach.rules.senas import check_sena
from musteach.teach.coach import advise, comment, exact_odds_sentence

WEAK = "4o 5c 6e 7b"


def _lances_view(hands, seat, first_mano=0, seed=1, **kw):
    g = Game(seed=seed, hands=hands, first_mano=first_mano, **kw)
    g.act(first_mano, "no hay mus")
    return g


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(kings=4, target=30), Rules(senas="off", deje_timing="end"), Rules(senas="kiss_three_kings", la_real=True)],
    ids=["8reyes", "4reyes-30", "sin-senas-end", "kiss-la_real"],
)
def test_bots_play_only_legal_actions_and_true_senas(rules):
    odds, rule = OddsBot(), RuleBot()
    for seed in range(3):
        seats = {0: odds, 2: odds, 1: rule, 3: rule} if seed % 2 else {0: rule, 2: rule, 1: odds, 3: odds}
        g = Game(rules.replace(games_per_vaca=1), seed=seed, first_mano=seed % 4)
        senas = []
        while not g.is_over:
            run(g, seats, hands=1)  # raises MusError / IllegalActionError on any illegal bot action
            senas.extend(g.hand.senas)
            if not g.is_over:
                g.next_hand()
        assert g.winner in ("A", "B")
        if rules.senas == "off":
            assert senas == []
        else:
            assert senas
        for r in senas:
            check_sena(r.sena, r.cards, rules, r.context, seat=r.seat)  # every seña the bots made is true


def test_run_stops_at_the_learner_and_needs_a_bot_for_every_other_seat():
    g = Game(seed=5, first_mano=1)
    bots = {s: RuleBot() for s in (1, 2, 3)}
    while not g.hand.is_over:
        run(g, bots, stop_at=[0])
        if g.hand.is_over:
            break
        assert g.to_act.seat == 0  # the bots played up to the learner's decision
        a = g.legal_actions(0)[-1] if g.to_act.phase == "mus" else g.legal_actions(0)[0]
        g.act(0, a)
    assert g.hand.result is not None
    with pytest.raises(MusError, match="no bot"):
        run(Game(seed=5), {1: RuleBot()})


def test_estimates_are_sure_when_the_hand_cannot_lose():
    hands = ["12o 12c 12e 12b", "1o 1c 1e 1b", "4o 5o 6o 7o", "10o 10c 11o 11c"]
    g = _lances_view(hands, 0)
    v0, v1 = g.view(0), g.view(1)
    assert estimate(v0, "grande").win == 1.0  # four kings as mano: nobody can beat them (ties to mano)
    assert estimate(v1, "chica").win > 0.97  # four aces: only seat 0's tie could beat them, and it has kings
    assert estimate(v0, "chica").win < estimate(v1, "chica").win
    weak = _lances_view([WEAK, "1o 1c 1e 1b", "4c 5o 6o 7o", "10o 10c 11o 11c"], 0).view(0)
    assert estimate(weak, "grande").win < 0.4  # only the partner's unknown hand can win it
    with pytest.raises(MusError, match="lance"):
        estimate(Game(seed=1).view(0))


def test_estimates_use_the_partners_senas_and_the_declarations():
    hands = ["4o 5c 6e 7b", "1o 1c 4e 5o", "12o 12c 3e 11b", "6o 6c 4b 4c"]
    g = _lances_view(hands, 0)
    before = estimate(g.view(0), "grande").win
    g.signal(2, "tres reyes")
    after = estimate(g.view(0), "grande").win
    assert after > before + 0.3  # the partner holds three kings
    for s in range(4):
        g.act(s, "paso")
    for s in range(4):
        g.act(s, "paso")
    v = g.view(0)
    assert g.hand.phase == "bet:pares" and v.declared["pares"] == (False, True, True, True)
    # seat 0 has no pares; its partner's medias of kings beat every other pares but duples
    assert estimate(v, "pares").win > 0.8


def test_opponent_model_reads_openings_and_raises():
    b = play_betting("grande", 0, [(0, "envido"), (1, "2 más"), (0, "quiero")])
    assert OpponentModel.opening(b, 0) is None and OpponentModel.answers(b, 0) == [True]
    assert OpponentModel.opening(b, 1) is True and OpponentModel.answers(b, 1) == [False]
    b = play_betting("grande", 0, [(0, "paso"), (1, "paso"), (2, "envido"), (3, "no quiero"), (1, "2 más"), (2, "no quiero"), (0, "no quiero")])
    assert OpponentModel.opening(b, 0) is False and OpponentModel.answers(b, 0) == [True]
    assert OpponentModel.opening(b, 1) is True and OpponentModel.answers(b, 1) == [False]
    m = OpponentModel()
    assert m.p_bet(0)[-1] > m.p_bet(0)[0]  # the prior: strong hands bet more often


def test_the_learnt_model_makes_a_bet_mean_strength():
    hands = [WEAK, "12o 12c 3e 11b", "5o 5e 6o 7o", "10o 10c 4e 4c"]
    g = Game(seed=1, hands=hands, first_mano=1)
    g.act(1, "no hay mus")
    g.act(1, "envido 2")
    bot = OddsBot()
    v = g.view(2)
    naive = estimate(v, "grande").win
    informed = estimate(v, "grande", model=bot.model).win
    assert informed < naive


def test_odds_bot_discards_and_cuts_sensibly():
    bot = OddsBot()
    g = Game(seed=3, hands=["12o 12c 3e 4b", WEAK, "1o 1c 4e 5o", "10o 10c 11o 11c"])
    v = g.view(0)
    assert bot.decide(v) == MusCall(False) or isinstance(bot.decide(v), MusCall)
    for s in range(4):
        g.act(s, "mus")
    d = bot.decide(g.view(0))
    assert isinstance(d, Discard)
    kept = [c for c in g.hand.hands[0] if c not in d.cards]
    assert sum(effective_rank(c.rank) == 12 for c in kept) == 3  # it keeps the three kings
    weak = Game(seed=3, hands=[WEAK, "12o 12c 3e 4b", "1o 1c 4e 5o", "10o 10c 11o 11c"])
    assert bot.decide(weak.view(0)) == MusCall(True)
    strong = Game(seed=3, hands=["12o 12c 3e 11b", WEAK, "1o 1c 4e 5o", "10o 10c 11o 11c"])
    assert bot.decide(strong.view(0)) == MusCall(False)  # three kings and a horse: 40, medias de reyes


def test_rule_bot_keeps_kings_pairs_and_aces():
    bot = RuleBot()
    for hand, keep in [("12o 3c 7e 5b", {12}), ("7o 7c 5e 4b", {7}), ("1o 2c 5e 4b", {1}), ("12o 1c 1e 4b", {12, 1})]:
        g = Game(seed=4, hands=[hand, "10o 10c 11o 11c", "6o 6c 6e 6b", "10e 10b 11e 11b"])
        for s in range(4):
            g.act(s, "mus")
        d = bot.decide(g.view(0))
        kept = {effective_rank(c.rank) for c in g.hand.hands[0] if c not in d.cards}
        assert kept == keep, hand


def test_rule_bot_strength_reads_the_partners_sena():
    g = _lances_view([WEAK, "1o 1c 4e 5o", "12o 12c 3e 11b", "6o 6c 4b 4c"], 0)
    bot = RuleBot()
    alone = bot.strength(g.view(0), "grande")
    g.signal(2, "tres reyes")
    assert bot.strength(g.view(0), "grande") > alone + 0.5
    assert bot.decide(g.view(0)).kind == "envido"


def test_match_equity():
    assert match_equity(0, 0) == pytest.approx(0.5)
    assert match_equity(30, 10) > match_equity(20, 10) > match_equity(10, 10) > match_equity(10, 20)
    assert match_equity(10, 30) == pytest.approx(1 - match_equity(30, 10))
    assert match_equity(40, 0) == 1.0 and match_equity(0, 40) == 0.0


def test_coach_advice_and_comments():
    g = Game(seed=7, hands=["12o 12c 3e 11b", WEAK, "1o 1c 4e 5o", "10o 10c 11o 11c"])
    a = advise(g.view(0))
    assert isinstance(a, Advice) and a.action == MusCall(False) and "stones" in a.reason
    assert comment(g.view(0), "no hay mus").startswith("Agreed")
    assert comment(g.view(0), "mus").startswith("The coach would say no hay mus")
    g.act(0, "no hay mus")
    a = advise(g.view(0), exact=True)
    assert a.action in g.legal_actions(0) or a.action.kind in ("envido", "reenvido")
    assert "Grande" in a.reason
    if exact_odds_sentence(g.view(0)):  # the exact engine (musteach.odds) is present
        assert "Exact odds" in a.reason
    assert exact_odds_sentence(Game(seed=1).view(0)) == ""


def test_bots_are_reproducible():
    def play() -> list:
        g = play_match({0: OddsBot(seed=3), 2: OddsBot(seed=3), 1: RuleBot(), 3: RuleBot()}, Rules(games_per_vaca=1), seed=17)
        return g.history_dicts()

    assert play() == play()


def test_bot_actions_are_game_actions():
    g = Game(seed=2)
    g.act(0, "no hay mus")
    for bot in (RuleBot(), OddsBot()):
        a = bot.decide(g.view(0))
        assert isinstance(a, Action) and g.can_act(0, a)


@pytest.mark.slow
def test_odds_bot_beats_rule_bot():
    odds, rule = OddsBot(), RuleBot()
    rules = Rules(games_per_vaca=1)
    wins = 0
    n = 100
    for i in range(n):
        seats = {0: odds, 2: odds, 1: rule, 3: rule} if i % 2 == 0 else {1: odds, 3: odds, 0: rule, 2: rule}
        g = play_match(seats, rules, seed=1000 + i, first_mano=(i // 2) % 4)
        wins += g.winner == ("A" if i % 2 == 0 else "B")
    assert wins / n > 0.5  # bench_bots.py measures it over 2,000 games: about 0.65
