"""The strong level's model of its opponents (issue 25): a posterior over two types (the computed strategy, which
bluffs, and a value bettor) learnt by Bayes from the hands shown, used where the stakes are high (RULES.md §4, §6)."""

from __future__ import annotations

import itertools
import math

import pytest

from musteach.play.beliefs import log_weights
from musteach.play.bots import play_match
from musteach.play.deals import rank_facts, rank_id
from musteach.play.game import Game, View
from musteach.play.levels import STRONG_TABLE, make_bot
from musteach.play.odds_bot import sample_deals
from musteach.play.opponents import (
    CLASSES,
    EPSILONS,
    PRIOR_VALUE,
    THETAS,
    TREMBLE,
    WIDTH,
    Opponents,
    branch_probs,
    bucket_strength,
    strength_of,
    value_probs,
)
from musteach.play.policy import LANCE_INDEX
from musteach.play.strategy import policy
from musteach.play.strategy.bot import StrategyBot
from musteach.play.strategy.search import action_values
from musteach.rules.betting import Action
from musteach.rules.errors import MusError

OPEN = ("P", "E", "O")
CALL = ("Q", "N")


def _bluffing_p_bet(s: float) -> float:
    """An equilibrium-like opening: bluffs with the weakest hands, checks the middling ones, bets the best."""
    return 0.45 if s < 0.3 else 0.1 if s < 0.75 else 0.9


def _value_model(seats: tuple[int, ...] = (1, 3)) -> Opponents:
    """Opponents seen betting only hands above 0.8 and calling órdagos only above 0.9."""
    m = Opponents()
    for seat in seats:
        for i in range(40):
            s = (i + 0.5) / 40
            m.weigh(seat, OPEN, "E" if s > 0.8 else "P", s, 0.5)
            m.weigh(seat, CALL, "Q" if s > 0.9 else "N", s, 0.5)
    return m


# ----------------------------------------------------------------------------------------------
# The model updates as Bayes says
# ----------------------------------------------------------------------------------------------


def test_with_nothing_seen_the_prior_leans_to_the_equilibrium() -> None:
    m = Opponents()
    assert m.p_value(1) == pytest.approx(PRIOR_VALUE) and PRIOR_VALUE < 0.5


def test_the_posterior_is_bayes_on_a_constructed_evidence_set() -> None:
    m = Opponents()
    m.weigh(1, OPEN, "E", 0.9, 0.6)  # bet a strong hand; the strategy bets it 60 times in 100
    m.weigh(1, OPEN, "P", 0.2, 0.7)  # passed a weak one; the strategy passes it 70 times in 100
    like_eq = ((1 - TREMBLE) * 0.6 + TREMBLE / 3) * ((1 - TREMBLE) * 0.7 + TREMBLE / 3)

    def branch(s: float, t: float, e: float) -> float:
        return e + (1 - 2 * e) / (1 + math.exp(-(s - t) / WIDTH))

    # the value bettor bets the first (open class) and does not escalate it (escalate class); given its mistake
    # rate the thresholds are independent, each with a uniform prior over THETAS; the rate has a uniform prior
    like_v = 0.0
    for e in EPSILONS:
        like_open = sum(branch(0.9, t, e) * (1 - branch(0.2, t, e)) for t in THETAS) / len(THETAS)
        like_esc = sum(1 - branch(0.9, t, e) for t in THETAS) / len(THETAS)
        like_v += like_open * like_esc / len(EPSILONS)
    expect = PRIOR_VALUE * like_v / (PRIOR_VALUE * like_v + (1 - PRIOR_VALUE) * like_eq)
    assert m.p_value(1) == pytest.approx(expect, rel=1e-9)
    assert m.p_value(3) == pytest.approx(PRIOR_VALUE)  # another seat learnt nothing


def test_a_seat_seen_betting_only_its_best_hands_reads_as_a_value_bettor() -> None:
    m = Opponents()
    for i in range(40):
        s = (i + 0.5) / 40
        bet = s > 0.8
        p = _bluffing_p_bet(s)
        m.weigh(2, OPEN, "E" if bet else "P", s, p if bet else 1 - p)
    assert m.p_value(2) > 0.9
    post = m.record(2).theta_posterior("open")
    mean = sum(w * t for w, t in zip(post, THETAS, strict=True))
    assert 0.7 < mean < 0.9  # its threshold is read from what it did


def test_a_seat_seen_bluffing_stays_equilibrium() -> None:
    m = Opponents()
    for i in range(30):
        s = (i + 0.5) / 30
        p = _bluffing_p_bet(s)
        bet = p > 0.5 or (s < 0.3 and i % 2 == 0)  # bets its best hands and bluffs every other weak one
        m.weigh(2, OPEN, "E" if bet else "P", s, p if bet else 1 - p)
    assert m.p_value(2) < 0.05


@pytest.mark.parametrize("actions", [OPEN, CALL, ("Q", "N", "R", "O"), ("Q", "N", "O")])
def test_the_value_bettors_actions_are_a_distribution_rising_with_strength(actions: tuple[str, ...]) -> None:
    th = dict.fromkeys(CLASSES, 0.6)
    weak, strong = value_probs(actions, 0.2, th), value_probs(actions, 0.95, th)
    assert sum(weak) == pytest.approx(1) and sum(strong) == pytest.approx(1)
    fold = actions.index("P" if "P" in actions else "N")
    assert weak[fold] > 0.9 and strong[fold] < 0.1
    assert sum(branch_probs(actions, dict.fromkeys(CLASSES, 0.3))) == pytest.approx(1)


def test_strength_reads_a_big_tie_group_at_its_middle() -> None:
    juego = strength_of(3)
    assert max(juego) > 0.9  # 31, a fifth of the juego hands, sits at 211 of 255 strictly-weaker
    for li in range(5):
        st = bucket_strength(li, 10)
        assert all(a <= b for a, b in itertools.pairwise(st[1:]))  # the buckets rise


# ----------------------------------------------------------------------------------------------
# Learning from whole matches
# ----------------------------------------------------------------------------------------------


def _match(opponent: str, seed: int) -> StrategyBot:
    bots = [make_bot("strong", seed=seed) if s % 2 == 0 else make_bot(opponent, seed=seed + 1) for s in range(4)]
    play_match(bots, seed=seed)
    bot = bots[0]
    assert isinstance(bot, StrategyBot)
    return bot


def test_club_players_read_as_value_bettors_and_the_strategy_as_itself() -> None:
    club = _match("club", 0)
    assert min(club.opponents.p_value(s) for s in (1, 3)) > 0.9
    table = _match(STRONG_TABLE, 1)
    assert max(table.opponents.p_value(s) for s in (1, 3)) < 0.1
    assert all(table.opponents.record(s).actions >= 10 for s in (1, 3))


def test_levels_strong_adapts_and_strong_table_does_not() -> None:
    strong, table = make_bot("strong"), make_bot(STRONG_TABLE)
    assert isinstance(strong, StrategyBot) and strong.adapt
    assert isinstance(table, StrategyBot) and not table.adapt


def test_a_match_with_the_adapting_level_is_the_same_given_the_seed() -> None:
    def history(seed: int) -> list[str]:
        bots = [make_bot("strong", seed=seed) if s % 2 else make_bot("club") for s in range(4)]
        return [str(e) for e in play_match(bots, seed=seed).history]

    assert history(4) == history(4)


# ----------------------------------------------------------------------------------------------
# Within a hand: beliefs and the decision
# ----------------------------------------------------------------------------------------------


def _first_ordago_decision(seed: int) -> View:
    """The first betting decision of seat 0 or 2 in a game of club players where the strategy puts at least
    half its weight on an órdago."""
    g = Game(seed=seed)
    club = make_bot("club")
    while not g.is_over:
        if g.hand.is_over:
            g.next_hand()
            continue
        turn = g.to_act
        assert turn is not None
        v = g.view(turn.seat)
        if turn.seat % 2 == 0 and v.betting is not None and turn.seat in v.betting.to_act:
            try:
                if policy(v).get(Action("ordago"), 0.0) >= 0.5:
                    return v
            except MusError:
                pass
        g.act(turn.seat, club.decide(v))
    raise AssertionError("no such decision")


def test_against_value_bettors_the_adapting_bot_plays_what_the_values_say() -> None:
    v = _first_ordago_decision(19)  # facing a club player's bet at grande; the table raises (órdago 55 in 100)
    assert v.betting is not None and v.betting.stakes
    bot = StrategyBot(seed=5, adapt=True)
    bot.opponents = _value_model()
    assert bot.high_stakes(v, policy(v)) and bot.opponents_value(v) > 0.99
    vals = bot.values(v)
    assert bot.decide(v) == max(vals, key=lambda a: vals[a])
    assert bot.decide(v) != Action("ordago")  # a value bettor's bet is a strong hand: no órdago into it
    assert vals[Action("ordago")] < action_values(v, 200, 1)[Action("ordago")]  # the equilibrium's values differ


def test_with_little_seen_the_adapting_bot_plays_the_table() -> None:
    v = _first_ordago_decision(19)
    fresh, table = StrategyBot(seed=5, adapt=True), StrategyBot(seed=5)
    assert fresh.decide(v) == table.decide(v)


def test_a_value_bettors_bet_weighs_its_weak_hands_down() -> None:
    g = Game(seed=3)
    club = make_bot("club")
    while True:  # club players play until seat 0 or 2 faces a bet of the other team
        if g.hand.is_over:
            g.next_hand()
            continue
        turn = g.to_act
        assert turn is not None
        v = g.view(turn.seat)
        b = v.betting
        if b is not None and turn.seat % 2 == 0 and b.stakes and turn.seat in b.to_act:
            break
        g.act(turn.seat, club.decide(v))
    deals = sample_deals(v, 400)
    bettor = next(st.seat for st in b.steps if st.action is not None and st.action.is_bet and st.seat is not None)
    eq = log_weights(v, deals)
    val = log_weights(v, deals, _value_model((bettor,)))
    li = LANCE_INDEX[b.lance]
    pct, st = rank_facts(8).pct[li], strength_of(li)
    weak = [i for i, d in enumerate(deals) if 0 < st[pct[rank_id(d[bettor])]] < 0.5 and eq[i] > -math.inf]
    strong = [i for i, d in enumerate(deals) if st[pct[rank_id(d[bettor])]] > 0.85 and eq[i] > -math.inf]
    assert weak and strong

    def gap(lw: list[float]) -> float:  # how much likelier a strong hand is than a weak one, in log
        return sum(lw[i] for i in strong) / len(strong) - sum(lw[i] for i in weak) / len(weak)

    assert gap(val) > gap(eq) + 1.0


def test_the_seats_own_later_decisions_are_its_best() -> None:
    m = _value_model()
    g = Game(seed=19)
    club = make_bot("club")
    differs = checked = 0
    while not g.is_over and checked < 12:
        if g.hand.is_over:
            g.next_hand()
            continue
        turn = g.to_act
        assert turn is not None
        v = g.view(turn.seat)
        if turn.seat % 2 == 0 and v.betting is not None and turn.seat in v.betting.to_act:
            try:
                best = action_values(v, 120, 3, m)
            except MusError:
                best = {}
            if best:
                checked += 1
                table = action_values(v, 120, 3, m, own_best=False)
                assert best.keys() == table.keys()
                assert all(0.0 <= x <= 1.0 for x in best.values())
                # (not ≥ the table's figure everywhere: the table's later choice may read the partner's seña bit
                # from each deal, which the seat's one later choice over all the deals does not)
                differs += any(abs(best[a] - table[a]) > 1e-6 for a in best)
        g.act(turn.seat, club.decide(v))
    assert checked >= 6 and differs >= 1  # its later choices change what an action now is worth
