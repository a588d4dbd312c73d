"""The abstract game the betting strategy is solved on: hand buckets, señas, score contexts and the betting
tree of one lance (RULES.md §4, §6, §7, §11). Standard library only: a lesson kernel reads the strategy
without numpy.

* **Buckets.** A hand's bucket in a lance is its percentile among all hands in that lance's order (the
  shipped standings, as :func:`musteach.play.deals.rank_facts` reads them per rank id), cut into ``k``
  equal slices: 0 .. k-1 in grande, chica and punto; in pares and juego bucket 0 is "does not hold it" and
  1 .. k-1 slice the holders.
* **Señas.** A seat sees one bit of its partner's hand per lance: whether the partner made a seña that says
  the hand is strong in it (:data:`SIGN_KEYS`: two kings or more for grande, two aces or more for chica,
  medias or duples, 31, a punto of 29 or 30). The solve draws that bit from the partner's bucket
  (:func:`sign_map`: the buckets whose hands mostly fit those señas), play reads it from the señas made.
* **Score contexts.** How many stones each team still needs, each rounded to one of ``needs`` levels.
* **The tree.** Positions 0 (mano) .. 3 (postre) speak in order; the abstract actions are ``P`` paso,
  ``E`` envido (2), ``R`` a raise of 2, ``O`` órdago, ``Q`` quiero and ``N`` no quiero, with at most
  :data:`MAX_BETS` bets of stones before only órdago may follow. A bet is answered by the other team's
  participants, nearest after the bettor first; the bet is refused when both have said no quiero
  (RULES.md §6).

>>> t = lance_tree((0, 1, 2, 3))
>>> t.nodes[0].pos, t.nodes[0].actions
(0, ('P', 'E', 'O'))
>>> bucket(255, 0, 16), bucket(0, 2, 16), bucket(255, 2, 16)
(15, 0, 15)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..deals import SENA_BITS, rank_facts

__all__ = [
    "ACTIONS",
    "MAX_BETS",
    "SIGN_KEYS",
    "Node",
    "Tree",
    "bucket",
    "context_index",
    "lance_tree",
    "punto_top",
    "sign_map",
]

#: The abstract actions, in the order the tables keep them.
ACTIONS: tuple[str, ...] = ("P", "E", "R", "O", "Q", "N")
#: Bets of stones in one lance's abstract betting (envido 2, then a raise of 2): then only órdago.
MAX_BETS = 2
#: Per lance (grande .. punto), the hand señas that tell the partner "strong here" (RULES.md §11).
SIGN_KEYS: tuple[frozenset[str], ...] = (
    frozenset({"morder_labio", "morder_labio_lado", "morder_labio_dos_veces", "solomillo"}),
    frozenset({"lengua", "lengua_lado", "lengua_dos_veces"}),
    frozenset({"labios_torcidos", "cejas"}),
    frozenset({"guino"}),
    frozenset({"hombros", "hombro"}),
)
#: Lances whose buckets start with "does not hold it" (pares, juego).
HELD_LANCES = (2, 3)


@lru_cache(maxsize=4)
def punto_top(kings: int) -> int:
    """Punto is played only by hands without juego: one more than their highest punto percentile."""
    facts = rank_facts(kings)
    return 1 + max(p for p, fl in zip(facts.pct[4], facts.flags, strict=True) if not fl & 2)


def bucket(pct: int, li: int, k: int, kings: int = 8) -> int:
    """The bucket (0 .. k-1) of a hand with percentile ``pct`` (0..255, :attr:`RankFacts.pct
    <musteach.play.deals.RankFacts.pct>`) in lance ``li`` (0 grande .. 4 punto); in pares and juego
    (``li`` 2, 3) a percentile of 0 means the hand does not hold it (bucket 0). In punto the percentiles
    of hands without juego (below :func:`punto_top`) are sliced."""
    if li in HELD_LANCES:
        return 0 if pct == 0 else 1 + min(k - 2, pct * (k - 1) // 256)
    if li == 4:
        return min(k - 1, pct * k // punto_top(kings))
    return min(k - 1, pct * k // 256)


@lru_cache(maxsize=64)
def sign_map(li: int, k: int, kings: int = 8) -> tuple[int, ...]:
    """Per bucket of lance ``li`` (k buckets), 1 when most of its hands fit a seña of :data:`SIGN_KEYS`
    (the partner would say "strong here"), else 0."""
    facts = rank_facts(kings)
    mask = 0
    for key in SIGN_KEYS[li]:
        mask |= 1 << SENA_BITS[key]
    fit, total = [0] * k, [0] * k
    for rid, pct in enumerate(facts.pct[li]):
        b = bucket(pct, li, k, kings)
        total[b] += 1
        fit[b] += 1 if facts.senas[rid] & mask else 0
    return tuple(int(t > 0 and 2 * f > t) for f, t in zip(fit, total, strict=True))


def context_index(need_mano_team: int, need_other: int, needs: tuple[int, ...]) -> int:
    """The score context of a lance: each team's stones still needed rounded to the nearest of ``needs``
    (mano's team first), as ``i * len(needs) + j``."""

    def near(x: int) -> int:
        return min(range(len(needs)), key=lambda i: (abs(needs[i] - x), i))

    return near(need_mano_team) * len(needs) + near(need_other)


@dataclass(frozen=True, slots=True)
class Node:
    """One node of a lance's abstract betting.

    pos: the position (0 mano .. 3 postre) to act, or -1 at a terminal. actions: the abstract actions
    (:data:`ACTIONS`) and children: the node each leads to. At a terminal, kind is ``"paso"``, ``"rejected"``
    (``amount``: the deje; ``team``: the bettors, 0 mano's team, 1 the other), ``"accepted"`` (``amount``:
    the stake) or ``"ordago"``. decision: the node's index among the decision nodes (-1 at a terminal).
    """

    pos: int
    actions: tuple[str, ...] = ()
    children: tuple[int, ...] = ()
    kind: str = ""
    amount: int = 0
    team: int = -1
    decision: int = -1


@dataclass(frozen=True)
class Tree:
    """The abstract betting of one lance between ``participants`` (positions, in speaking order); node 0
    is the root. decisions: the indexes of the decision nodes, in table order."""

    participants: tuple[int, ...]
    nodes: tuple[Node, ...]
    decisions: tuple[int, ...]

    def child(self, node: int, action: str) -> int:
        """The node ``action`` leads to from ``node``; raises KeyError when it is not one of its actions."""
        n = self.nodes[node]
        try:
            return n.children[n.actions.index(action)]
        except ValueError:
            raise KeyError(action) from None


@lru_cache(maxsize=32)
def lance_tree(participants: tuple[int, ...]) -> Tree:
    """The abstract betting tree between ``participants`` (positions 0..3, at least one of each team)."""
    parts = tuple(sorted(participants))
    raw: list[dict[str, object]] = []

    def add(**fields: object) -> int:
        raw.append(fields)
        return len(raw) - 1

    def answerers(bettor: int, declined: frozenset[int]) -> list[int]:
        after = [(bettor + d) % 4 for d in (1, 2, 3)]
        return [p for p in after if p in parts and p % 2 != bettor % 2 and p not in declined]

    def facing(stakes: tuple[int, ...], bettor: int, declined: frozenset[int]) -> int:
        """The node where the next answerer speaks (stakes: the bets so far, 0 for órdago)."""
        left = answerers(bettor, declined)
        pos = left[0]
        me = add(pos=pos)
        acts: list[str] = ["Q", "N"]
        kids: list[int] = []
        ordago = stakes[-1] == 0
        deje = 1 if len(stakes) == 1 else stakes[-2]
        kids.append(add(kind="ordago") if ordago else add(kind="accepted", amount=stakes[-1]))
        if len(left) > 1:
            kids.append(facing(stakes, bettor, declined | {pos}))
        else:
            kids.append(add(kind="rejected", amount=deje, team=bettor % 2))
        if not ordago:
            if len(stakes) < MAX_BETS:
                acts.append("R")
                kids.append(facing((*stakes, stakes[-1] + 2), pos, frozenset()))
            acts.append("O")
            kids.append(facing((*stakes, 0), pos, frozenset()))
        raw[me].update(actions=tuple(acts), children=tuple(kids))
        return me

    def opening(i: int) -> int:
        if i == len(parts):
            return add(kind="paso")
        pos = parts[i]
        me = add(pos=pos)
        kids = (opening(i + 1), facing((2,), pos, frozenset()), facing((0,), pos, frozenset()))
        raw[me].update(actions=("P", "E", "O"), children=kids)
        return me

    opening(0)
    decisions = tuple(i for i, f in enumerate(raw) if "actions" in f)
    dec_of = {n: j for j, n in enumerate(decisions)}
    nodes = []
    for i, f in enumerate(raw):
        if i in dec_of:
            nodes.append(Node(int(f["pos"]), f["actions"], f["children"], decision=dec_of[i]))  # type: ignore[call-overload,arg-type]
        else:
            nodes.append(Node(-1, kind=str(f["kind"]), amount=int(f.get("amount", 0)), team=int(f.get("team", -1))))  # type: ignore[call-overload]
    return Tree(parts, tuple(nodes), decisions)
