"""What each betting action is worth to a seat, from what it believes of the hidden hands: the lance played to
its end by the computed strategy over deals weighed by what was said (RULES.md §4, §6, §7, §11).

:func:`action_values` deals the unseen cards as :func:`~musteach.play.odds_bot.sample_deals` does, weighs the
deals by :func:`~musteach.play.beliefs.log_weights` (Bayes through the strategy: every bet, pass, quiero and
no quiero seen, the declarations and the partner's señas), and, for each action the seat may take now, plays
the rest of the lance's abstract betting with every seat following the strategy with its bucket in that deal
(the probabilities, not a sample; with a model of the opponents, the other team plays by the model and the
seat's own later decisions in the lance are its best over the deals). A terminal is worth the chance of winning the game for the seat's team
(:func:`~musteach.play.policy.match_equity` after the lance's stones, RULES.md §7, with each deal's real winner
and pares or juego values; an accepted órdago is the lance's winner's game). Standard library only.

>>> from musteach.play.game import Game
>>> g = Game(seed=3)
>>> _ = g.act(g.to_act.seat, "no hay mus")
>>> vals = action_values(g.view(g.to_act.seat), n=60)
>>> sorted(str(a) for a in vals), all(0.0 <= x <= 1.0 for x in vals.values())
(['envido 2', 'paso', 'órdago'], True)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...rules.betting import Action
from ..deals import keys_for, rank_facts, rank_id
from ..policy import match_equity
from ..view import View
from . import ACTION_OF, infoset, node_probs
from .abstraction import Tree, bucket, lance_tree, sign_map
from .table import StrategyTable, shipped_table

if TYPE_CHECKING:
    from ..opponents import Opponents

__all__ = ["ESS_SHARE", "POOL", "action_values"]

#: With a model of the opponents, more deals are drawn while their effective sample size is below this share of n...
ESS_SHARE = 0.25
#: ... up to this many times n deals.
POOL = 6


def _ess(weights: list[float]) -> float:
    """The effective sample size of ``weights``."""
    sq = sum(w * w for w in weights)
    return sum(weights) ** 2 / sq if sq > 0 else 0.0


def action_values(view: View, n: int = 200, seed: int = 0, model: Opponents | None = None, own_best: bool = True) -> dict[Action, float]:
    """Per legal abstract action of ``view``'s seat now, its team's chance of winning the game (0..1) once the
    lance is played out (see the module docstring); ``n`` sampled deals (with a model, up to :data:`POOL` times n while few of them are likely). With a ``model``
    (:class:`~musteach.play.opponents.Opponents`), the other team's seats act, and their earlier actions weigh
    the deals, by its type mixture, and (``own_best``) the seat's own later decisions in the lance are the
    action worth most over the deals (else the strategy's). Raises :class:`~musteach.rules.errors.MusError` when the seat has no
    betting decision now."""
    from ..beliefs import log_weights
    from ..odds_bot import sample_deals

    table = shipped_table()
    ix = infoset(view, table)
    b = view.betting
    assert b is not None
    tree = lance_tree(ix.participants)
    li, kings, mano = ix.li, view.rules.kings, b.mano
    deals = sample_deals(view, n, seed)
    lw = log_weights(view, deals, model)
    top = max(lw)
    weights = [math.exp(x - top) if top > -math.inf else 1.0 for x in lw]
    batch = 1
    while model is not None and batch < POOL and _ess(weights) < ESS_SHARE * n:
        # what was said leaves few deals likely: draw more (the figures carry the posterior, not a few deals)
        more = sample_deals(view, n, seed + 7919 * batch)
        deals = deals + more
        lw = lw + log_weights(view, more, model)
        top = max(lw)
        weights = [math.exp(x - top) if top > -math.inf else 1.0 for x in lw]
        batch += 1
    winners = keys_for(view.rules).lance_winners(deals, mano, li)
    facts = rank_facts(kings)
    value_of = facts.pares_value if li == 2 else facts.juego_value if li == 3 else None
    k = table.ks[li]
    bmap = [bucket(p, li, k, kings) for p in range(256)]
    signs = sign_map(li, k, kings)
    pct = facts.pct[li]
    # deals that look the same to the abstraction and pay the same share one evaluation
    groups: dict[tuple[object, ...], float] = {}
    floor = 1e-3 if model is not None else 0.0  # with a model, deals a thousand times less likely than the likeliest are left out
    for deal, w, win in zip(deals, weights, winners, strict=True):
        if w <= floor:
            continue
        ids = [rank_id(deal[(mano + p) % 4]) for p in range(4)]  # by position
        cells = tuple(
            bmap[pct[ids[p]]] * 2 + (signs[bmap[pct[ids[(p + 2) % 4]]]] if (p + 2) % 4 in ix.participants else 0)
            if p in ix.participants else -1
            for p in range(4)
        )
        vals = (0, 0) if value_of is None else (value_of[ids[0]] + value_of[ids[2]], value_of[ids[1]] + value_of[ids[3]])
        win_team = -1 if win < 0 else (win - mano) % 4 % 2
        key = (cells, win_team, vals)
        groups[key] = groups.get(key, 0.0) + w
    me = (view.seat - mano) % 4 % 2
    go = view.to_go
    us, them = go[view.team], go["B" if view.team == "A" else "A"]
    target = view.rules.target
    ev = _Evaluator(tree, table, ix.li, ix.participants, ix.ctx, me, us, them, target)
    if model is not None:
        ev.model, ev.mano, ev.kings = model, mano, kings
    node = tree.nodes[ix.node]
    total = sum(groups.values())
    out: dict[Action, float] = {}
    keys, ws = list(groups), list(groups.values())
    if model is not None:
        ev.own = (view.seat - mano) % 4
    for sym, child in zip(node.actions, node.children, strict=True):
        a = ACTION_OF[sym]
        if not b.can(view.seat, a):
            continue
        if model is not None and own_best:  # the seat's own later decisions are its best over the deals, not the table's
            out[a] = sum(w * v for w, v in zip(ws, ev.vector(child, keys, ws), strict=True)) / total
        else:
            out[a] = sum(w * ev.value(child, key) for key, w in groups.items()) / total
    return out


class _Evaluator:
    """The value of a node of the abstract betting for one group of deals (see :func:`action_values`)."""

    def __init__(self, tree: Tree, table: StrategyTable, li: int, parts: tuple[int, ...], ctx: int, me: int, us: int, them: int, target: int):
        self.tree, self.table, self.li, self.parts, self.ctx = tree, table, li, parts, ctx
        self.me, self.us, self.them, self.target = me, us, them, target
        self.memo: dict[tuple[int, object], float] = {}
        self.model: Opponents | None = None  # when set, the other team's positions act by its mixture
        self.mano, self.kings = 0, 8
        self.own = -1  # the deciding seat's position: in vector(), its later decisions are its best
        self.vmemo: dict[int, list[float]] = {}

    def vector(self, n: int, keys: list[tuple[object, ...]], ws: list[float]) -> list[float]:
        """The value of node ``n`` for every group of deals ``keys`` (weights ``ws``): as :meth:`value`, except
        that at a later decision of the deciding seat (position :attr:`own`, whose hand and partner's señas
        are the same in every group) it takes the action worth most over all the groups."""
        hit = self.vmemo.get(n)
        if hit is not None:
            return hit
        node = self.tree.nodes[n]
        if node.pos < 0 or node.pos != self.own:
            if node.pos < 0:
                out = [self.value(n, key) for key in keys]
            else:
                kids = [self.vector(c, keys, ws) for c in node.children]
                out = []
                for g, key in enumerate(keys):
                    probs = self.probs(n, node.pos, key)
                    out.append(sum(p * kid[g] for p, kid in zip(probs, kids, strict=True) if p > 0))
        else:
            best: list[float] | None = None
            best_v = -math.inf
            for c in node.children:
                vec = self.vector(c, keys, ws)
                tot = sum(w * v for w, v in zip(ws, vec, strict=True))
                if tot > best_v:
                    best, best_v = vec, tot
            assert best is not None
            out = best
        self.vmemo[n] = out
        return out

    def probs(self, n: int, pos: int, key: tuple[object, ...]) -> tuple[float, ...]:
        """The action probabilities at node ``n`` (position ``pos`` to act) for the group ``key``."""
        cells = key[0]
        assert isinstance(cells, tuple)
        cell = cells[pos]
        assert isinstance(cell, int)
        if self.model is not None and pos % 2 != self.me:
            seat = (self.mano + pos) % 4
            mate = cells[(pos + 2) % 4]
            assert isinstance(mate, int)
            return self.model.probs(seat, self.table, self.tree, self.li, self.ctx, n, cell // 2, cell % 2, self.kings, mate // 2 if mate >= 0 else None)
        return node_probs(self.table, self.li, self.parts, self.ctx, n, cell // 2, cell % 2)

    def equity(self, mine: float, theirs: float) -> float:
        """Our chance of winning the game after we score ``mine`` stones and they score ``theirs``."""
        if mine >= self.us:
            return 1.0
        if theirs >= self.them:
            return 0.0
        return match_equity(self.target - self.us + round(mine), self.target - self.them + round(theirs), self.target)

    def terminal(self, kind: str, amount: int, team: int, key: tuple[object, ...]) -> float:
        _cells, win_team, vals = key
        assert isinstance(win_team, int) and isinstance(vals, tuple)
        bonus = 1 if self.li == 4 else 0
        base = 1 if self.li in (0, 1, 4) else 0
        if kind == "ordago":
            return 1.0 if win_team == self.me else 0.0
        if kind == "rejected":
            got = amount + vals[team] + bonus
            return self.equity(got, 0) if team == self.me else self.equity(0, got)
        if win_team < 0:
            return self.equity(0, 0)
        got = (amount + bonus if kind == "accepted" else base) + vals[win_team]
        return self.equity(got, 0) if win_team == self.me else self.equity(0, got)

    def value(self, n: int, key: tuple[object, ...]) -> float:
        hit = self.memo.get((n, key))
        if hit is not None:
            return hit
        node = self.tree.nodes[n]
        if node.pos < 0:
            v = self.terminal(node.kind, node.amount, node.team, key)
        else:
            cells = key[0]
            assert isinstance(cells, tuple)
            cell = cells[node.pos]
            if self.model is not None and node.pos % 2 != self.me:
                seat = (self.mano + node.pos) % 4
                mate = cells[(node.pos + 2) % 4]
                assert isinstance(mate, int)
                probs = self.model.probs(
                    seat, self.table, self.tree, self.li, self.ctx, n, cell // 2, cell % 2, self.kings, mate // 2 if mate >= 0 else None
                )
            else:
                probs = node_probs(self.table, self.li, self.parts, self.ctx, n, cell // 2, cell % 2)
            v = sum(p * self.value(c, key) for p, c in zip(probs, node.children, strict=True) if p > 0)
        self.memo[(n, key)] = v
        return v


