"""Beliefs from what was said: how likely each possible deal of the hidden cards is, given every public
action of the hand, by Bayes through the computed strategy's own probabilities (RULES.md §3, §4, §6, §11).

A seat's view (:class:`~musteach.play.view.View`) knows its own cards; the rollouts and the strong level deal
the other three hands at random (:func:`~musteach.play.odds_bot.sample_deals`: 4 hands of 4 card indexes
by seat). :func:`deal_weights` gives each such deal the probability that the other three seats would have
said what they said holding those cards:

* **señas:** the partner's hand señas must be true of its hand (RULES.md §11), else weight 0;
* **declarations:** "pares sí / no", "juego sí / no" must be true (RULES.md §4), else weight 0;
* **every bet, pass, quiero and no quiero** of the closed lances and of the lance being bet, by another seat:
  the strategy's probability of that action at that node for the seat's bucket in that deal and its
  partner's seña bit (:func:`musteach.play.strategy.node_probs`), mixed with :data:`TREMBLE` of a uniform
  choice, so that a player who does not follow the strategy (a learner, a bluff the abstraction does not
  know) rules no deal out.

The seat's own actions are left out: they do not depend on the hidden cards. Not weighed yet: the mus
calls (a :class:`~musteach.play.view.View` does not say who cut the mus).

>>> from musteach.play.game import Game
>>> from musteach.play.odds_bot import sample_deals
>>> g = Game(seed=3)
>>> _ = g.act(g.to_act.seat, "no hay mus")
>>> v = g.view(g.to_act.seat)
>>> w = deal_weights(v, sample_deals(v, 50))
>>> w.shape, bool((w > 0).all())
((50,), True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..lazy import lazy_module
from ..rules.betting import LanceBetting
from ..rules.errors import MusError
from ..rules.lances import LANCES
from .deals import fits_public, rank_facts, rank_id
from .odds_bot import Deal
from .opponents import is_big
from .strategy import abstract_node, node_probs, score_context
from .strategy.abstraction import bucket, lance_tree, sign_map
from .strategy.table import StrategyTable, shipped_table
from .view import View

if TYPE_CHECKING:
    import numpy as np

    from .opponents import Opponents
else:
    np = lazy_module("numpy")

__all__ = ["TREMBLE", "Evidence", "deal_weights", "log_weights"]

#: The share of every action's probability spread evenly over the node's actions.
TREMBLE = 0.05


#: One piece of evidence: the acting seat, its partner's seat when the partner takes part (its seña bit is
#: read from its hand) or -1, and the log-probability of the action played per ``bucket * 2 + seña bit``.
Evidence = tuple[int, int, list[float]]


def _evidence(view: View, b: LanceBetting, table: StrategyTable, ctx_go: dict[str, int], model: Opponents | None = None) -> tuple[int, int, list[Evidence]]:
    """The lance index, its bucket count and the evidence of the other seats' actions in betting ``b``; with a
    ``model``, the other team's seats act by its type mixture (:meth:`~musteach.play.opponents.Opponents.probs`)."""
    li = LANCES.index(b.lance)
    parts = tuple(sorted((s - b.mano) % 4 for s in b.participants))
    k = table.ks[li]
    if not {p % 2 for p in parts} >= {0, 1}:
        return li, k, []
    tree = lance_tree(parts)
    ctx = score_context(b, ctx_go, table)
    if not table.has(li, parts, ctx):
        return li, k, []
    out: list[Evidence] = []
    steps = [st for st in b.steps if st.seat is not None and st.action is not None]
    for (node, seat, sym), step in zip(abstract_node(b, tree), steps, strict=False):
        if seat == view.seat:
            continue
        n = tree.nodes[node]
        pos = (seat - b.mano) % 4
        if n.pos != pos and "N" in n.actions:
            continue  # the partner answered first: the abstraction has no such node; no evidence taken
        a = n.actions.index(sym)
        logs = []
        for cell in range(2 * k):
            if model is not None and seat % 2 != view.seat % 2:
                envido = "any" if sym != "E" or n.pos < 0 or "Q" in n.actions else "big" if is_big(n.actions, sym, step.action) else "small"
                logs.append(math.log(model.probs(seat, table, tree, li, ctx, node, cell // 2, cell % 2, view.rules.kings, None, envido)[a]))
                continue
            p = node_probs(table, li, parts, ctx, node, cell // 2, cell % 2)[a]
            logs.append(math.log((1 - TREMBLE) * p + TREMBLE / len(n.actions)))
        partner = (seat + 2) % 4 if (pos + 2) % 4 in parts else -1
        out.append((seat, partner, logs))
    return li, k, out


def log_weights(view: View, deals: Sequence[Deal], model: Opponents | None = None) -> list[float]:
    """log of :func:`deal_weights` (``-inf`` for a deal that contradicts a seña or a declaration); with a
    ``model`` (:class:`~musteach.play.opponents.Opponents`), the other team's actions weigh the deals as its
    type mixture says (the strong level's adaptation) instead of the strategy alone."""
    try:
        table: StrategyTable | None = shipped_table()
    except MusError:  # no table shipped: only the señas and declarations are weighed
        table = None
    bettings = [view.bettings[lance.value] for lance in LANCES if lance.value in view.bettings]
    if view.betting is not None and view.betting.lance.value not in view.bettings:
        bettings.append(view.betting)
    go = view.rules.target
    ctx_go = {t: go - v for t, v in view.score.items()}
    kings = view.rules.kings
    facts = rank_facts(kings)
    lances = []
    if table is not None:
        for b in bettings:
            li, k, ev = _evidence(view, b, table, ctx_go, model)
            if ev:
                buckets = [bucket(p, li, k, kings) for p in range(256)]
                lances.append((facts.pct[li], buckets, sign_map(li, k, kings), ev))
    out = []
    for deal in deals:
        if not fits_public(view, deal):
            out.append(-math.inf)
            continue
        ids = [rank_id(h) for h in deal]
        lw = 0.0
        for pct, buckets, signs, ev in lances:
            for seat, partner, logs in ev:
                sign = signs[buckets[pct[ids[partner]]]] if partner >= 0 else 0
                lw += logs[buckets[pct[ids[seat]]] * 2 + sign]
        out.append(lw)
    return out


def deal_weights(view: View, deals: Sequence[Deal], model: Opponents | None = None) -> np.ndarray:
    """A weight per deal (float64, shape ``(len(deals),)``, summing to 1; all equal when every deal is ruled
    out): how likely the other three seats were to say what they said holding that deal's hands (see the
    module docstring). ``deals``: hidden deals as :func:`~musteach.play.odds_bot.sample_deals` draws them,
    4 hands of 4 card indexes by seat, ``view.seat`` holding its own cards. ``model``: see :func:`log_weights`."""
    lw = np.array(log_weights(view, deals, model), dtype=np.float64)
    if len(lw) == 0:
        return lw
    top = lw.max()
    if not np.isfinite(top):
        return np.full(len(lw), 1.0 / len(lw))
    w: np.ndarray = np.exp(lw - top)
    out: np.ndarray = w / w.sum()
    return out

