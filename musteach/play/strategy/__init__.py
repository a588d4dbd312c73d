"""The computed betting strategy: what each seat says in a lance's betting, solved by CFR+ and shipped as a
table (RULES.md §4, §6, §7, §11).

Modules: :mod:`~musteach.play.strategy.abstraction` (buckets, señas, score contexts, the abstract betting
tree; standard library), :mod:`~musteach.play.strategy.solver` (the numpy CFR+ solve, ``make strategy``),
:mod:`~musteach.play.strategy.table` (the shipped file, read with ``mmap``). This module reads a seat's
:class:`~musteach.play.view.View` into the abstraction and answers:

* :func:`policy`: the probability of each betting action of the seat to act, from what it sees;
* :func:`infoset`: where that view stands in the abstraction (:class:`Infoset`);
* :func:`node_probs`: a node's probabilities for any bucket, as :mod:`musteach.play.beliefs` reads them.

A seat's decision depends only on its own cards (its bucket in the lance), its position, the public betting
of the lance and the score, and its partner's señas (one bit per lance). The abstraction bets envido 2, raises
2 and órdago; a real bet of another size is read as the nearest abstract one (any envido as envido 2, a raise
beyond the second bet as an órdago to answer).

>>> from musteach.play.game import Game
>>> g = Game(seed=3)
>>> _ = g.act(g.to_act.seat, "no hay mus")
>>> v = g.view(g.to_act.seat)
>>> p = policy(v)
>>> round(sum(p.values()), 6), all(v.betting.can(v.seat, a) for a in p)
(1.0, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import Text
from ...rules.betting import Action, LanceBetting
from ...rules.errors import MusError
from ...rules.lances import LANCES
from ..deals import rank_facts, rank_id
from ..view import View
from .abstraction import ACTIONS, SIGN_KEYS, Tree, bucket, context_index, lance_tree
from .table import StrategyTable, shipped_table

__all__ = ["ACTION_OF", "Infoset", "abstract_node", "hand_bucket", "infoset", "node_probs", "policy", "score_context"]

#: Each abstract action as the betting action it stands for.
ACTION_OF: dict[str, Action] = {
    "P": Action("paso"),
    "E": Action("envido", 2),
    "R": Action("reenvido", 2),
    "O": Action("ordago"),
    "Q": Action("quiero"),
    "N": Action("no_quiero"),
}
assert tuple(ACTION_OF) == ACTIONS


@dataclass(frozen=True, slots=True)
class Infoset:
    """Where a seat's decision stands in the abstraction: lance index ``li`` (0 grande .. 4 punto), the
    ``participants`` (positions), the score context ``ctx``, the tree ``node`` (an index into
    :attr:`Tree.nodes <musteach.play.strategy.abstraction.Tree.nodes>`), the seat's ``bucket`` and its
    partner's seña bit ``sign``."""

    li: int
    participants: tuple[int, ...]
    ctx: int
    node: int
    bucket: int
    sign: int


def hand_bucket(cards: tuple[int, ...] | list[int], li: int, kings: int, k: int) -> int:
    """The bucket (0 .. k-1) in lance ``li`` of the hand with card indexes ``cards``."""
    return bucket(rank_facts(kings).pct[li][rank_id(cards)], li, k, kings)


def score_context(betting: LanceBetting, to_go: dict[str, int], table: StrategyTable) -> int:
    """The score context of ``betting`` when the teams still need ``to_go`` stones (``{"A": n, "B": n}``)."""
    mano_team = "A" if betting.mano % 2 == 0 else "B"
    other = "B" if mano_team == "A" else "A"
    return context_index(to_go[mano_team], to_go[other], table.needs)


def abstract_node(betting: LanceBetting, tree: Tree, upto: int | None = None) -> list[tuple[int, int, str]]:
    """The path of ``betting``'s steps (the first ``upto`` of them; all when None) through ``tree``: per
    action played, ``(node, seat, abstract action)``; the node reached is the last one's child (or the root).
    A paso facing a bet is no quiero; a raise where the tree allows none is read as an órdago."""
    node = 0
    path: list[tuple[int, int, str]] = []
    steps = [s for s in betting.steps if s.seat is not None and s.action is not None]
    for step in steps[:upto]:
        n = tree.nodes[node]
        if n.pos < 0:
            break
        assert step.action is not None and step.seat is not None
        kind = step.action.kind
        facing = "Q" in n.actions
        sym = {"paso": "N" if facing else "P", "envido": "E", "reenvido": "R", "ordago": "O", "quiero": "Q", "no_quiero": "N"}[kind]
        if sym not in n.actions:
            sym = "O" if "O" in n.actions else n.actions[0]
        path.append((node, step.seat, sym))
        node = n.children[n.actions.index(sym)]
    return path


def _reached(path: list[tuple[int, int, str]], tree: Tree) -> int:
    if not path:
        return 0
    node, _seat, sym = path[-1]
    return tree.child(node, sym)


def infoset(view: View, table: StrategyTable | None = None) -> Infoset:
    """Where ``view``'s decision stands (see :class:`Infoset`). Raises :class:`MusError` when the seat has no
    betting decision now."""
    b, lance = view.betting, view.lance
    if b is None or lance is None or b.closed or view.seat not in b.to_act:
        raise MusError(Text("seat {seat} has no betting decision now (phase {phase})", seat=view.seat, phase=view.phase.value))
    table = table or shipped_table()
    li = LANCES.index(lance)
    parts = tuple(sorted((s - b.mano) % 4 for s in b.participants))
    tree = lance_tree(parts)
    node = _reached(abstract_node(b, tree), tree)
    pos = (view.seat - b.mano) % 4
    n = tree.nodes[node]
    if n.pos >= 0 and n.pos != pos and "N" in n.actions:
        node = tree.child(node, "N")  # the partner speaks first for the team: as if it had passed the word on
    if tree.nodes[node].pos != pos:
        raise MusError(Text("seat {seat} has no betting decision now (phase {phase})", seat=view.seat, phase=view.phase.value))
    k = table.ks[li]
    kb = hand_bucket([c.index for c in view.cards], li, view.rules.kings, k)
    partner_in = ((pos + 2) % 4) in parts
    sign = int(partner_in and any(s.key in SIGN_KEYS[li] for s in view.partner_senas))
    return Infoset(li, parts, score_context(b, view.to_go, table), node, kb, sign)


def node_probs(table: StrategyTable, li: int, parts: tuple[int, ...], ctx: int, node: int, bkt: int, sign: int) -> tuple[float, ...]:
    """The probabilities of node ``node``'s actions for a seat in bucket ``bkt`` whose partner's seña bit is
    ``sign`` (see :class:`Infoset`)."""
    tree = lance_tree(parts)
    rows = table.rows(li, parts, ctx, tree.nodes[node].decision)
    return rows[bkt * 2 + sign]


def policy(view: View) -> dict[Action, float]:
    """The computed strategy's probability of each betting action of the seat to act (``view.seat``), from
    what it sees; the probabilities sum to 1 and every action is legal now (RULES.md §6). Raises
    :class:`MusError` when the seat has no betting decision now."""
    table = shipped_table()
    ix = infoset(view, table)
    tree = lance_tree(ix.participants)
    probs = node_probs(table, ix.li, ix.participants, ix.ctx, ix.node, ix.bucket, ix.sign)
    b = view.betting
    assert b is not None
    out: dict[Action, float] = {}
    for sym, p in zip(tree.nodes[ix.node].actions, probs, strict=True):
        a = ACTION_OF[sym]
        if b.can(view.seat, a):
            out[a] = out.get(a, 0.0) + p
    total = sum(out.values())
    if total <= 0:
        return {a: 1.0 / len(out) for a in out}
    return {a: p / total for a, p in out.items()}
