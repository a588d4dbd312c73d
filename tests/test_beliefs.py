"""Beliefs from what was said (issue 25): deal_weights weighs the hidden deals by Bayes through the strategy
(RULES.md §4, §6, §11)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from musteach.play.beliefs import deal_weights
from musteach.play.deals import rank_facts, rank_id
from musteach.play.game import Game
from musteach.play.odds_bot import sample_deals
from musteach.rules.senas import SENAS


def _grande_view(actions: list[str]) -> object:
    g = Game(seed=4, hands=["5o 4c 6e 7b", "12o 11c 10e 7o", "1o 2c 4e 5b", "6o 6c 11e 10b"])
    g.act(0, "no hay mus")
    for a in actions:
        t = g.to_act
        assert t is not None
        g.act(t.seat, a)
    return g.view(g.to_act.seat)  # type: ignore[union-attr]


def test_weights_are_a_distribution_over_the_deals() -> None:
    v = _grande_view([])
    deals = sample_deals(v, 200)  # type: ignore[arg-type]
    w = deal_weights(v, deals)  # type: ignore[arg-type]
    assert w.shape == (len(deals),) and (w >= 0).all() and abs(w.sum() - 1) < 1e-9
    # nobody else has spoken: nothing tells the deals apart
    assert np.allclose(w, 1 / len(deals))


def test_a_bet_makes_the_bettors_strong_hands_likelier() -> None:
    # seat 0 (mano) passes, seat 1 bets órdago: seat 2 weighs seat 1's possible hands
    v = _grande_view(["paso", "órdago"])
    deals = sample_deals(v, 400)  # type: ignore[arg-type]
    w = deal_weights(v, deals)  # type: ignore[arg-type]
    pct = rank_facts(8).pct[0]
    strength = np.array([pct[rank_id(d[1])] for d in deals], dtype=float)
    assert float((w * strength).sum()) > float(strength.mean()) + 5
    passed = _grande_view(["paso", "paso"])
    wp = deal_weights(passed, sample_deals(passed, 400))  # type: ignore[arg-type]
    strength_p = np.array([pct[rank_id(d[1])] for d in sample_deals(passed, 400)], dtype=float)  # type: ignore[arg-type]
    assert float((wp * strength_p).sum()) < float((w * strength).sum())


def test_deals_that_contradict_a_sena_or_a_declaration_weigh_nothing() -> None:
    v = _grande_view([])
    deals = sample_deals(v, 100)  # type: ignore[arg-type]
    told = replace(v, partner_senas=(SENAS["cejas"],))  # type: ignore[type-var]  # the partner shows duples
    w = deal_weights(told, deals)
    facts = rank_facts(8)
    partner = (v.seat + 2) % 4  # type: ignore[attr-defined]
    duples = np.array([facts.pares_value[rank_id(d[partner])] == 3 for d in deals])
    assert np.all(w[~duples] == 0) or not duples.any()
    declared = replace(v, declared={"pares": (None, False, None, None)})  # type: ignore[type-var]
    w = deal_weights(declared, deals)
    holds = np.array([bool(facts.flags[rank_id(d[1])] & 1) for d in deals])
    assert holds.any() and np.all(w[holds] == 0)
