"""The strong level's model of its opponents (issue 25): a posterior over two types (the computed strategy, which
bluffs, and a value bettor) learnt by Bayes from the hands shown, used where the stakes are high, and the drift (the
stones a hand its team takes more than the other) with which it values the score (RULES.md §4, §6, §7)."""

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
    HAND_SPREAD,
    PRIOR_EDGE,
    PRIOR_HANDS,
    PRIOR_VALUE,
    THETAS,
    TREMBLE,
    WIDTH,
    Drift,
    Opponents,
    branch_probs,
    bucket_strength,
    strength_of,
    threshold_key,
    value_probs,
)
from musteach.play.policy import LANCE_INDEX, match_equity
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


# ----------------------------------------------------------------------------------------------
# The drift: the stones a hand our team takes more than the other
# ----------------------------------------------------------------------------------------------


def test_the_drift_is_the_mean_difference_shrunk_by_a_prior_of_some_hands() -> None:
    assert PRIOR_HANDS == pytest.approx((HAND_SPREAD / PRIOR_EDGE) ** 2) == pytest.approx(16.0)
    d = Drift()
    assert d.value == 0.0
    for ours, theirs in [(8, 0), (4, 6), (9, 1), (5, 5)]:
        d.add(ours, theirs)
    assert d.hands == 4 and d.total == 14
    assert d.value == pytest.approx(14 / (4 + PRIOR_HANDS))  # not the raw mean 3.5: four hands say little
    for _ in range(400):
        d.add(5, 3)
    assert d.value == pytest.approx((14 + 800) / (404 + PRIOR_HANDS)) and 1.9 < d.value < 2.0  # many hands: near the mean


def _finished_hands(seed: int, hands: int) -> list[tuple[View, dict[str, int], bool]]:
    """Club players play ``hands`` hands of a match; per hand, seat 0's view once it is over, the stones each
    team took in it (the count's own record) and whether an accepted órdago ended it."""
    g = Game(seed=seed)
    club = {s: make_bot("club") for s in range(4)}
    out = []
    from musteach.play.bots import run

    for _ in range(hands):
        run(g, club, hands=1)
        r = g.hand.result
        assert r is not None
        out.append((g.view(0), dict(r.hand_total), bool(r.ended_at is not None and r.ended_at.is_ordago)))
        if g.is_over:
            break
        g.next_hand()
    return out


def test_the_drift_counts_each_hands_stones_from_the_view_at_its_end() -> None:
    d = Drift()
    counted = expected = 0
    for v, got, ordago in _finished_hands(5, 12):
        assert not ordago and d.learn(v)
        counted += 1
        expected += got["A"] - got["B"]
        assert d.hands == counted and d.total == expected  # seat 0 is team A; hand 8 ends the first game (the stones the winner needed)
    assert d.value == pytest.approx(expected / (counted + PRIOR_HANDS))


def test_a_hand_ended_by_an_accepted_ordago_is_left_out_of_the_drift() -> None:
    from dataclasses import replace

    from musteach.rules.betting_outcome import BettingOutcome

    v, _got, _ = _finished_hands(5, 1)[0]
    ordago = BettingOutcome.from_dict({"type": "ordago_accepted"})
    d = Drift()
    assert not d.learn(replace(v, outcomes={**v.outcomes, "grande": ordago}))
    assert d.hands == 0 and d.total == 0 and d.value == 0.0
    assert d.learn(v) and d.hands == 1


def test_the_model_learns_the_drift_with_each_hand_once() -> None:
    m = Opponents()
    hands = _finished_hands(5, 4)
    for v, _got, _o in hands:
        m.learn(v)
        m.learn(v)  # the same hand again: not counted twice
    assert m.stones.hands == len(hands)
    assert m.drift == pytest.approx(sum(g["A"] - g["B"] for _v, g, _o in hands) / (len(hands) + PRIOR_HANDS))


def test_equal_players_read_a_drift_near_zero() -> None:
    drifts = []
    for seed in range(8):  # the strategy against itself, learning as the strong level does
        bots = [StrategyBot(seed=seed, adapt=True) for _ in range(4)]
        play_match(bots, seed=seed)
        assert bots[0].opponents.stones.hands >= 3 and bots[1].opponents.drift == pytest.approx(-bots[0].opponents.drift)
        drifts.append(bots[0].opponents.drift)
    assert all(abs(d) < 1.5 for d in drifts)  # a match's few hands, shrunk: about 0.75 stone of noise at most
    assert abs(sum(drifts) / len(drifts)) < 0.3


def test_match_equity_takes_a_drift() -> None:
    for us, them in [(0, 0), (10, 25), (30, 12), (38, 38)]:
        assert match_equity(us, them, drift=0.0) == match_equity(us, them)
        a, b = 40 - us, 40 - them
        h = max((a + b) / 10, 0.5)
        assert match_equity(us, them) == pytest.approx(0.5 * (1 + math.erf((b - a) / (6 * math.sqrt(2 * h)) / math.sqrt(2))))
        values = [match_equity(us, them, drift=d) for d in (-3.0, -1.0, 0.0, 0.5, 1.0, 3.0)]
        assert values == sorted(values) and values[0] < values[-1]  # increasing in the drift
        assert match_equity(us, them, drift=1.5) == pytest.approx(1 - match_equity(them, us, drift=-1.5))
    assert match_equity(0, 0, drift=2.0) == pytest.approx(0.75, abs=0.01)
    assert match_equity(40, 0, drift=-5.0) == 1.0 and match_equity(0, 40, drift=5.0) == 0.0


def _ordago_decisions(seed: int) -> list[View]:
    """The betting decisions of seats 0 and 2 in a game of club players where the strategy puts at least 0.3 of
    its weight on an órdago."""
    g = Game(seed=seed)
    club = make_bot("club")
    out = []
    while not g.is_over:
        if g.hand.is_over:
            g.next_hand()
            continue
        turn = g.to_act
        assert turn is not None
        v = g.view(turn.seat)
        if turn.seat % 2 == 0 and v.betting is not None and turn.seat in v.betting.to_act:
            try:
                if policy(v).get(Action("ordago"), 0.0) >= 0.3:
                    out.append(v)
            except MusError:
                pass
        g.act(turn.seat, club.decide(v))
    return out


def test_with_a_big_edge_the_bot_avoids_an_ordago_it_would_bet_without_one() -> None:
    v = _ordago_decisions(1)[1]  # 20-3 up, facing the other team's bet at grande
    assert v.betting is not None and v.betting.stakes and v.score == {"A": 20, "B": 3}
    even, ahead = StrategyBot(seed=5, adapt=True), StrategyBot(seed=5, adapt=True)
    even.opponents.stones = Drift(hands=60, total=0.0)
    ahead.opponents.stones = Drift(hands=60, total=2.0 * (60 + PRIOR_HANDS))  # 2 stones a hand more than them
    assert even.opponents.drift == 0.0 and ahead.opponents.drift == pytest.approx(2.0)
    at_zero, at_two = even.values(v), ahead.values(v)
    assert max(at_zero, key=lambda a: at_zero[a]) == Action("ordago")  # valued at drift 0, the órdago is best
    assert not even.adapting(v)  # (and the bot, with no edge and opponents read as the strategy, plays the table)
    assert ahead.adapting(v) and ahead.high_stakes(v, policy(v))
    assert ahead.decide(v) == max(at_two, key=lambda a: at_two[a]) != Action("ordago")
    assert at_two[Action("quiero")] > at_two[Action("ordago")]  # with the edge, the sure stones are worth more


def test_the_value_bettors_thresholds_are_learnt_per_lance() -> None:
    m = Opponents()
    for i in range(60):  # calls órdagos at grande only with the very top hands, at juego with most
        s = (i + 0.5) / 60
        m.weigh(1, CALL, "Q" if s > 0.95 else "N", s, 0.5, li=0)
        m.weigh(1, CALL, "Q" if s > 0.55 else "N", s, 0.5, li=3)
    grande, juego = m.value_mix(1, CALL, 0.8, li=0), m.value_mix(1, CALL, 0.8, li=3)
    assert grande[CALL.index("Q")] < 0.1 < 0.9 < juego[CALL.index("Q")]
    post = m.record(1).theta_posterior(threshold_key("call", 0))
    assert THETAS[max(range(len(THETAS)), key=lambda i: post[i])] >= 0.9
    shared = m.value_mix(1, CALL, 0.8)  # no lance: the shared threshold, which saw nothing (its prior)
    assert 0.1 < shared[CALL.index("Q")] < 0.9
