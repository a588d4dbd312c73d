"""The mus calls in what a seat knows and in the coach's beliefs (issue 25): the :class:`View` says who said
mus and who cut in each mus round, and :func:`~musteach.play.seat_models.log_weights` weighs them by each
seat's model, as Bayes says (RULES.md §3)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

from musteach.play.bots import run
from musteach.play.game import Game
from musteach.play.levels import Level, make_bot
from musteach.play.odds_bot import sample_deals
from musteach.play.seat_models import (
    BotModel,
    SeatModel,
    SeatModels,
    StrategyModel,
    log_weights,
    model_for,
    odds_wants_mus,
)
from musteach.play.view import View
from musteach.rules.betting import Action, LanceBetting
from musteach.rules.options import Rules


def test_the_view_carries_each_rounds_mus_calls() -> None:
    g = Game(seed=3)
    assert g.view(0).mus_calls == () and g.view(0).last_mus_calls is None
    g.act(0, "mus")
    g.act(1, "mus")
    assert g.view(2).mus_calls == ((True, True, None, None),)
    g.act(2, "mus")
    g.act(3, "mus")
    v = g.view(0)
    assert v.mus_calls == ((True, True, True, True),)
    assert v.last_mus_calls is None  # the seats are changing cards: those calls spoke of the cards thrown
    for _ in range(4):
        t = g.to_act
        assert t is not None
        g.act(t.seat, g.legal_actions(t.seat)[0])
    assert g.view(1).mus_round == 2 and g.view(1).last_mus_calls is None  # round 2: nobody has spoken yet
    g.act(0, "mus")
    g.act(1, "no hay mus")
    for seat in range(4):  # public: every seat sees the same calls
        v = g.view(seat)
        assert v.phase.is_betting
        assert v.mus_calls == ((True, True, True, True), (True, False, None, None))
        assert v.last_mus_calls == (True, False, None, None)


def test_a_cut_at_once_is_one_round() -> None:
    g = Game(seed=5, first_mano=2)
    g.act(2, "no hay mus")
    assert g.view(0).mus_calls == ((None, None, False, None),) == (g.view(0).last_mus_calls,)


class CutsGoodHands:
    """A model that cuts exactly with two kings or more and says nothing about the betting."""

    name = "test"
    exact = False
    tremble = 0.1

    def key(self, view: View, seat: int, deal: Sequence[Sequence[int]], start: LanceBetting) -> Hashable:
        return 0

    def probs(self, seen: View) -> Mapping[Action, float] | None:
        return None

    def prior(self, rid: int, changed: int, kings: int) -> float:
        return 1.0

    def mus_chance(self, view: View, seat: int, hand: Sequence[int]) -> float:
        return 0.0 if good(hand) else 1.0


def good(hand: Sequence[int]) -> bool:
    """Two kings or more (8 reyes: kings and treses; card index // 4 is the rank position, 2 and 9)."""
    return sum(1 for i in hand if i // 4 in (2, 9)) >= 2


def test_a_cut_weighs_the_hands_as_bayes_says() -> None:
    g = Game(Rules(senas="off"), seed=11)
    g.act(0, "mus")
    g.act(1, "no hay mus")  # seat 1 cuts, seat 0 said mus; seats 2 and 3 never spoke
    v = g.view(0)
    assert v.phase.is_betting and v.last_mus_calls == (True, False, None, None)
    m: SeatModel = CutsGoodHands()
    deals = sample_deals(v, 400, seed=2)
    logs = log_weights(v, deals, SeatModels((m, m, m, m), "test", 0))
    t = m.tremble
    for deal, lw in zip(deals, logs, strict=True):
        want = (1 - t) + t / 2 if good(deal[1]) else t / 2  # P(cut | hand): the model, with its tremble
        assert math.isclose(math.exp(lw), want, rel_tol=1e-12), (deal, lw)
    # so the share of good hands at seat 1 moves from the prior to the posterior of Bayes' rule
    prior = sum(good(d[1]) for d in deals) / len(deals)
    w = [math.exp(x) for x in logs]
    post = sum(x for x, d in zip(w, deals, strict=True) if good(d[1])) / sum(w)
    assert 0.05 < prior < 0.5
    assert math.isclose(post, prior * 0.95 / (prior * 0.95 + (1 - prior) * 0.05), rel_tol=1e-9)
    assert post > 0.5 > prior


def test_a_seat_that_said_mus_weighs_the_other_way() -> None:
    g = Game(Rules(senas="off"), seed=11)
    g.act(0, "mus")
    g.act(1, "mus")
    g.act(2, "no hay mus")
    v = g.view(2)  # seat 2 sees seats 0 and 1 say mus, before its own cut
    m: SeatModel = CutsGoodHands()
    deals = sample_deals(v, 200, seed=3)
    logs = log_weights(v, deals, SeatModels((m, m, m, m), "test", 2))
    for deal, lw in zip(deals, logs, strict=True):
        want = math.prod(0.05 if good(deal[s]) else 0.95 for s in (0, 1))
        assert math.isclose(math.exp(lw), want, rel_tol=1e-12)


def test_the_models_mus_calls_are_the_bots_own() -> None:
    """``--check-model`` in small: in games of each level, every mus call a bot makes is the call its seat
    model gives the bot's hand, from the view of another seat (its cards unknown to that seat)."""
    for level, model in ((Level.STRONG, StrategyModel()), (Level.CLUB, model_for("club")), (Level.BEGINNER, model_for("beginner"))):
        asked = 0
        for seed in range(3):
            g = Game(seed=seed)
            bots = {s: make_bot(level, seed=s) for s in range(4)}
            for _hand in range(4):
                while not g.hand.is_over and not g.hand.cards_final:
                    t = g.to_act
                    assert t is not None
                    v = g.view(t.seat)
                    a = bots[t.seat].decide(v)
                    if v.phase == "mus":
                        other = g.view((t.seat + 1) % 4)
                        hand = [c.index for c in v.cards]
                        assert model.mus_chance(other, t.seat, hand) == float(a.wants), (level, seed, v.cards)  # type: ignore[union-attr]
                        asked += 1
                    g.act(t.seat, a)
                run(g, bots, hands=1)
                if g.is_over:
                    break
                g.next_hand()
        assert asked >= 12, level
    assert isinstance(model_for("club"), BotModel)


def test_odds_wants_mus_is_the_odds_bots_call() -> None:
    from musteach.play.odds_bot import OddsBot

    g = Game(seed=21)
    bot = OddsBot()
    for seat in range(4):
        v = g.view(seat)
        assert v.phase == "mus"
        assert odds_wants_mus(v.cards, v.position, 1, v.rules) == bot.decide(v).wants  # type: ignore[union-attr]
        assert odds_wants_mus(v.cards, v.position, 9, v.rules) is False  # round 9 asks more than any discard gains


def test_the_shipped_mus_table_is_the_odds_bots() -> None:
    from musteach.play.deals import rank_facts
    from musteach.play.seat_models import MULTISETS, odds_mus_rounds, shipped_mus_rounds

    assert MULTISETS == {k: len(rank_facts(k).keys) for k in (8, 4)}
    shipped = shipped_mus_rounds(8)
    assert shipped is not None and shipped_mus_rounds(4) is not None
    for pos in range(4):
        assert shipped[pos] == odds_mus_rounds(8, pos)


def test_the_deals_fit_the_mus_calls() -> None:
    from musteach.play.rollout import posterior_deals
    from musteach.play.seat_models import fits_calls, fitting_deals, seat_models

    g = Game(Rules(senas="off"), seed=11)
    g.act(0, "mus")
    g.act(1, "no hay mus")
    v = g.view(2)
    club = seat_models("club", 2)
    deals = fitting_deals(v, 100, seed=1, models=club)
    assert all(fits_calls(v, d, club) for d in deals)
    cut = model_for("club")
    assert all(cut.mus_chance(v, 1, d[1]) == 0.0 and cut.mus_chance(v, 0, d[0]) == 1.0 for d in deals)
    got, w = posterior_deals(v, 200, 0, club)
    assert math.isclose(sum(w), 1.0) and sum(x for d, x in zip(got, w, strict=True) if fits_calls(v, d, club)) > 0.9
