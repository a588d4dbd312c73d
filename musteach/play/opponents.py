"""How each opponent seat plays, learnt from the hands shown at the end of every hand: a posterior over a small
family of opponent types, by Bayes (RULES.md §4, §6). Standard library only (lesson 10 reads it live).

The two types:

* **equilibrium** (:data:`EQUILIBRIUM`): the seat bets as the computed strategy does
  (:func:`musteach.play.strategy.node_probs`, with bluffs), mixed with :data:`~musteach.play.beliefs.TREMBLE`
  of a uniform choice, as :mod:`musteach.play.beliefs` reads every seat;
* **value bettor** (:data:`VALUE`): a generic parametric player whose aggression rises with its hand's
  strength in the lance, ``s`` = the hand's percentile among the hands that play the lance
  (:func:`strength_of`). In each decision class (:data:`CLASSES`) it takes the
  stronger branch with probability ``ε + (1 - 2 ε) / (1 + exp(-(s - θ) / WIDTH))``, with its own unknown
  threshold θ per class (a uniform prior over :data:`THETAS`) and one mistake rate ε for all its decisions
  (a uniform prior over :data:`EPSILONS`: a careful player never bets a weak hand; a careless one sometimes
  does):

  - ``open``: at an opening (paso, envido, órdago): bet rather than pass;
  - ``answer``: facing a bet of stones: quiero or raise rather than no quiero;
  - ``escalate``: having chosen to bet or answer, raise (a raise of stones or órdago) rather than envido / quiero;
  - ``ordago``: escalating where both a raise of stones and an órdago are open: órdago;
  - ``call``: facing an órdago: quiero rather than no quiero.

Evidence is every betting action of an opponent seat in the lances of a finished hand, with the hand it held
(``View.shown``). The likelihood of a seat's actions under each type is kept as running sums, so learning a
hand costs a few hundred additions. The prior leans to the equilibrium (:data:`PRIOR_VALUE`): with little
evidence the seat is read as the strategy reads it.

>>> m = Opponents()
>>> round(m.p_value(1), 2)
0.25
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from ..rules.betting import Action
from ..rules.lances import LANCES
from .deals import rank_facts, rank_id
from .strategy import abstract_node, node_probs, score_context
from .strategy.abstraction import Tree, bucket, lance_tree, punto_top, sign_map
from .strategy.table import StrategyTable
from .view import View

__all__ = [
    "CLASSES",
    "EPSILONS",
    "EQUILIBRIUM",
    "PRIOR_VALUE",
    "THETAS",
    "VALUE",
    "WIDTH",
    "Opponents",
    "SeatRecord",
    "branch_probs",
    "bucket_strength",
    "signed_strength",
    "strength_of",
    "decision_class",
    "is_big",
    "value_probs",
]

EQUILIBRIUM = "equilibrium"
VALUE = "value"
#: The value bettor's decision classes (see the module docstring).
CLASSES: tuple[str, ...] = ("open", "answer", "escalate", "ordago", "call")
#: The value bettor's thresholds (hand strength 0..1) a class may have; uniform prior.
THETAS: tuple[float, ...] = (*(round(0.3 + 0.05 * i, 2) for i in range(14)), 0.98)
#: How sharply the value bettor's aggression rises around its threshold (hand strength units).
WIDTH = 0.05
#: The value bettor's mistake rates ε it may have (the least probability of either branch); uniform prior.
EPSILONS: tuple[float, ...] = (0.003, 0.015, 0.06)
#: The prior probability of the value bettor type (the rest: the equilibrium).
PRIOR_VALUE = 0.25
#: The equilibrium type's tremble (as :data:`musteach.play.beliefs.TREMBLE`).
TREMBLE = 0.05
_AGGRESSIVE = frozenset("ERO")


def _sig(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _branch(s: float, theta: float, eps: float) -> float:
    """The value bettor's probability of the stronger branch with strength ``s``, threshold ``theta`` and
    mistake rate ``eps``."""
    return eps + (1 - 2 * eps) * _sig((s - theta) / WIDTH)


def decision_class(actions: tuple[str, ...]) -> str:
    """The decision class (``open``, ``answer`` or ``call``) of a node with abstract ``actions``."""
    if "Q" not in actions:
        return "open"
    return "answer" if len(actions) > 2 else "call"


def value_probs(actions: tuple[str, ...], s: float, thetas: dict[str, float], eps: float = EPSILONS[1]) -> tuple[float, ...]:
    """The value bettor's probability of each of ``actions`` (abstract, :data:`~musteach.play.strategy.abstraction.ACTIONS`)
    with hand strength ``s`` (0..1), one threshold per class in ``thetas`` (keys of :data:`CLASSES`) and mistake
    rate ``eps``; sums to 1."""
    return branch_probs(actions, {c: _branch(s, t, eps) for c, t in thetas.items()})


def branch_probs(actions: tuple[str, ...], br: dict[str, float], envido: str = "any") -> tuple[float, ...]:
    """The action probabilities at a node with ``actions`` when each class of :data:`CLASSES` takes its stronger
    branch with probability ``br[class]`` (the branches are independent). At an opening the value bettor's
    escalation is a bigger envido or an órdago: ``envido`` says which opening envidos the ``E`` entry counts,
    ``"any"`` (the abstraction's envido), ``"small"`` (envido 2) or ``"big"`` (3 stones or more)."""
    cls = decision_class(actions)
    if cls == "call":
        q = br["call"]
        return tuple(q if a == "Q" else 1 - q for a in actions)
    go = br[cls]  # bet (open) or stay in (answer)
    up = br["escalate"]
    o = br["ordago"]
    if cls == "open":
        small, big = go * (1 - up), go * up * (1 - o)
        e = {"any": small + big, "small": small, "big": big}[envido]
        out = {"P": 1 - go, "E": e, "O": go * up * o}
        return tuple(out.get(a, 0.0) for a in actions)
    ups = [a for a in actions if a in ("R", "O")]
    out = {"N": 1 - go, "Q": go * (1 - up)}
    if len(ups) == 2:
        out["R"], out["O"] = go * up * (1 - o), go * up * o
    elif ups:
        out[ups[0]] = go * up
    else:
        out["Q"] = go
    return tuple(out.get(a, 0.0) for a in actions)


def _value_logs(actions: tuple[str, ...], sym: str, s: float, big: bool = False) -> dict[str, list[list[float]]]:
    """Per class, per mistake rate of :data:`EPSILONS`, per threshold of :data:`THETAS`, the log-probability the
    value bettor takes ``sym`` (only the classes that decide it); ``big``: an opening envido of 3 stones or more."""
    cls = decision_class(actions)
    logs: dict[str, list[list[float]]] = {}

    def add(c: str, stronger: bool) -> None:
        logs[c] = [[math.log(_branch(s, t, e) if stronger else 1 - _branch(s, t, e)) for t in THETAS] for e in EPSILONS]

    if cls == "call":
        add("call", sym == "Q")
        return logs
    add(cls, sym in _AGGRESSIVE or sym == "Q")
    if sym in ("P", "N"):
        return logs
    if cls == "open":
        add("escalate", sym == "O" or big)
        if sym == "O" or big:
            add("ordago", sym == "O")
        return logs
    ups = [a for a in actions if a in ("R", "O")]
    if not ups:
        return logs
    add("escalate", sym in ("R", "O"))
    if len(ups) == 2 and sym in ("R", "O"):
        add("ordago", sym == "O")
    return logs


def is_big(actions: tuple[str, ...], sym: str, action: Action | None) -> bool:
    """True when ``action``, read as abstract ``sym`` at a node with ``actions``, is an opening envido of 3 stones
    or more (the abstraction reads it as its envido 2; the value bettor as an escalation)."""
    return decision_class(actions) == "open" and sym == "E" and action is not None and action.kind == "envido" and (action.amount or 2) > 2


@lru_cache(maxsize=16)
def strength_of(li: int, kings: int = 8) -> tuple[float, ...]:
    """Per percentile 0..255 of lance ``li`` (:attr:`RankFacts.pct <musteach.play.deals.RankFacts.pct>`: the
    share of hands strictly weaker), the hand's strength as the value bettor reads it: the middle of its tie
    group among the hands that play the lance (0..1; 0 for "does not hold it" in pares and juego). A tie group
    can be large (31 is about a fifth of juego hands), so the strictly-weaker share alone would read the best
    juego as 0.82."""
    facts = rank_facts(kings)
    held = [p for p, fl in zip(facts.pct[li], facts.flags, strict=True) if not (li == 4 and fl & 2)]
    values = sorted(set(held))
    top = punto_top(kings) if li == 4 else 256
    out = [0.0] * 256
    for i, v in enumerate(values):
        nxt = values[i + 1] if i + 1 < len(values) else top
        out[v] = 0.0 if li in (2, 3) and v == 0 else (v + nxt) / 2 / top
    seen = set(values)
    for v in range(1, 256):  # a percentile no hand has: as the next lower one
        if v not in seen:
            out[v] = out[v - 1]
    return tuple(out)


@lru_cache(maxsize=64)
def bucket_strength(li: int, k: int, kings: int = 8) -> tuple[float, ...]:
    """Per bucket (0 .. k-1) of lance ``li``, the mean :func:`strength_of` of its hands (rank ids), as the value
    bettor reads a hand in that bucket."""
    facts = rank_facts(kings)
    st = strength_of(li, kings)
    tot, cnt = [0.0] * k, [0] * k
    for p, fl in zip(facts.pct[li], facts.flags, strict=True):
        if li == 4 and fl & 2:
            continue
        b = bucket(p, li, k, kings)
        tot[b] += st[p]
        cnt[b] += 1
    return tuple(t / c if c else (b + 0.5) / k for b, (t, c) in enumerate(zip(tot, cnt, strict=True)))


@lru_cache(maxsize=64)
def signed_strength(li: int, k: int, kings: int = 8) -> float:
    """The mean strength (:func:`strength_of`) of the hands whose bucket makes the seña "strong here" in lance
    ``li`` (:func:`~musteach.play.strategy.abstraction.sign_map`): what a partner's seña says of its hand."""
    facts = rank_facts(kings)
    st, signs = strength_of(li, kings), sign_map(li, k, kings)
    got = [st[p] for p, fl in zip(facts.pct[li], facts.flags, strict=True) if not (li == 4 and fl & 2) and signs[bucket(p, li, k, kings)]]
    return sum(got) / len(got) if got else 1.0


@dataclass
class SeatRecord:
    """What one opponent seat's actions say: ``log_eq`` the log-likelihood of its actions under the equilibrium;
    ``log_value[class][e][i]`` under the value bettor with mistake rate :data:`EPSILONS` ``[e]`` and threshold
    :data:`THETAS` ``[i]`` for that class; ``actions`` how many actions were weighed."""

    log_eq: float = 0.0
    log_value: dict[str, list[list[float]]] = field(
        default_factory=lambda: {c: [[0.0] * len(THETAS) for _ in EPSILONS] for c in CLASSES}
    )
    actions: int = 0

    def log_by_eps(self) -> list[float]:
        """Per mistake rate of :data:`EPSILONS`, log P(evidence | value bettor with it), each class's θ integrated out."""
        out = []
        for e in range(len(EPSILONS)):
            lv = 0.0
            for per_e in self.log_value.values():
                ls = per_e[e]
                top = max(ls)
                lv += top + math.log(sum(math.exp(x - top) for x in ls) / len(ls))
            out.append(lv)
        return out

    def eps_posterior(self) -> list[float]:
        """The posterior over :data:`EPSILONS` under the value bettor."""
        ls = self.log_by_eps()
        top = max(ls)
        w = [math.exp(x - top) for x in ls]
        t = sum(w)
        return [x / t for x in w]

    def log_odds(self) -> float:
        """log P(evidence | value bettor) - log P(evidence | equilibrium), θ and ε integrated out."""
        ls = self.log_by_eps()
        top = max(ls)
        return top + math.log(sum(math.exp(x - top) for x in ls) / len(ls)) - self.log_eq

    def p_value(self) -> float:
        """The posterior probability of the value bettor type."""
        return _sig(math.log(PRIOR_VALUE / (1 - PRIOR_VALUE)) + self.log_odds())

    def theta_posterior(self, cls: str, e: int | None = None) -> list[float]:
        """The posterior over :data:`THETAS` of class ``cls``'s threshold under the value bettor with mistake rate
        :data:`EPSILONS` ``[e]`` (None: ε integrated out)."""
        if e is None:
            post = [0.0] * len(THETAS)
            for pe, ei in zip(self.eps_posterior(), range(len(EPSILONS)), strict=True):
                for i, x in enumerate(self.theta_posterior(cls, ei)):
                    post[i] += pe * x
            return post
        ls = self.log_value[cls][e]
        top = max(ls)
        w = [math.exp(x - top) for x in ls]
        t = sum(w)
        return [x / t for x in w]


class Opponents:
    """Per seat, a :class:`SeatRecord` learnt from finished hands (:meth:`learn`), and what it says: the type
    posterior (:meth:`p_value`) and the mixed action probabilities of a seat at a node (:meth:`probs`)."""

    def __init__(self) -> None:
        self.seats: dict[int, SeatRecord] = {}
        self._done: set[tuple[int, int]] = set()
        self._cache: dict[tuple[object, ...], tuple[float, ...]] = {}
        self._mix: dict[tuple[object, ...], tuple[float, ...]] = {}
        self._pv: dict[int, float] = {}
        self._posts: dict[int, tuple[list[float], dict[str, list[list[float]]]]] = {}

    def record(self, seat: int) -> SeatRecord:
        """The record of ``seat`` (a fresh one when nothing was seen)."""
        rec = self.seats.get(seat)
        if rec is None:
            rec = self.seats[seat] = SeatRecord()
        return rec

    def p_value(self, seat: int) -> float:
        """The posterior probability that ``seat`` is a value bettor (:data:`PRIOR_VALUE` before any evidence)."""
        hit = self._pv.get(seat)
        if hit is None:
            rec = self.seats.get(seat)
            hit = self._pv[seat] = PRIOR_VALUE if rec is None else rec.p_value()
        return hit

    def learn(self, view: View, table: StrategyTable | None = None) -> int:
        """Weigh the betting actions of the seats of the other team in the finished hand of ``view`` (``view.shown``
        set; each hand once); returns how many actions were weighed. ``table``: the strategy (default the shipped one)."""
        from .strategy.table import shipped_table

        if view.shown is None:
            return 0
        key = (id(view.match), view.game_number * 1000 + view.hand_number)
        if key in self._done:
            return 0
        self._done.add(key)
        table = table or shipped_table()
        kings = view.rules.kings
        facts = rank_facts(kings)
        ids = [rank_id([c.index for c in h]) for h in view.shown]
        ctx_go = {t: view.rules.target - v for t, v in view.score.items()}
        n = 0
        for b in view.bettings.values():
            li = LANCES.index(b.lance)
            parts = tuple(sorted((s - b.mano) % 4 for s in b.participants))
            if not {p % 2 for p in parts} >= {0, 1}:
                continue
            ctx = score_context(b, ctx_go, table)
            if not table.has(li, parts, ctx):
                continue
            tree = lance_tree(parts)
            k = table.ks[li]
            signs = sign_map(li, k, kings)
            steps = [st for st in b.steps if st.seat is not None and st.action is not None]
            for (node, seat, sym), step in zip(abstract_node(b, tree), steps, strict=False):
                if seat % 2 == view.seat % 2:
                    continue
                nd = tree.nodes[node]
                pos = (seat - b.mano) % 4
                if nd.pos != pos:
                    continue  # the partner answered first: no such node in the abstraction
                pct = facts.pct[li][ids[seat]]
                bk = bucket(pct, li, k, kings)
                sign = signs[bucket(facts.pct[li][ids[(seat + 2) % 4]], li, k, kings)] if (pos + 2) % 4 in parts else 0
                p = node_probs(table, li, parts, ctx, node, bk, sign)[nd.actions.index(sym)]
                st = strength_of(li, kings)[pct]
                if sign:  # its partner's seña said "strong here": it bets its team's strength
                    st = max(st, strength_of(li, kings)[facts.pct[li][ids[(seat + 2) % 4]]])
                self.weigh(seat, nd.actions, sym, st, p, is_big(nd.actions, sym, step.action))
                n += 1
        return n

    def weigh(self, seat: int, actions: tuple[str, ...], sym: str, s: float, p_eq: float, big: bool = False) -> None:
        """Weigh one action: ``seat`` played abstract action ``sym`` at a node with ``actions`` holding a hand of
        strength ``s`` (0..1) to which the strategy gives probability ``p_eq`` (before the tremble); ``big``: it
        opened with an envido of 3 stones or more (the abstraction's ``E``)."""
        rec = self.record(seat)
        rec.log_eq += math.log((1 - TREMBLE) * p_eq + TREMBLE / len(actions))
        for cls, ls in _value_logs(actions, sym, s, big).items():
            for acc, row in zip(rec.log_value[cls], ls, strict=True):
                for i, x in enumerate(row):
                    acc[i] += x
        rec.actions += 1
        self._cache.clear()
        self._mix.clear()
        self._pv.clear()
        self._posts.clear()

    def value_mix(self, seat: int, actions: tuple[str, ...], s: float, envido: str = "any") -> tuple[float, ...]:
        """The value bettor's action probabilities at a node with ``actions`` and strength ``s``, its thresholds
        and mistake rate integrated over their posterior (given ε the classes' thresholds are independent: each
        branch's probability is its posterior mean)."""
        key = (seat, actions, s, envido)
        hit = self._mix.get(key)
        if hit is not None:
            return hit
        eps_post, theta_post = self._posterior(seat)
        out = [0.0] * len(actions)
        for ei, (pe, eps) in enumerate(zip(eps_post, EPSILONS, strict=True)):
            if pe < 1e-4:
                continue
            br = {c: sum(w * _branch(s, t, eps) for w, t in zip(theta_post[c][ei], THETAS, strict=True) if w > 1e-6) for c in CLASSES}
            for i, p in enumerate(branch_probs(actions, br, envido)):
                out[i] += pe * p
        res = tuple(out)
        self._mix[key] = res
        return res

    def _posterior(self, seat: int) -> tuple[list[float], dict[str, list[list[float]]]]:
        """``seat``'s posterior over the mistake rates and, per class and rate, over the thresholds (cached until
        the next action is weighed)."""
        hit = self._posts.get(seat)
        if hit is None:
            rec = self.record(seat)
            hit = self._posts[seat] = (rec.eps_posterior(), {c: [rec.theta_posterior(c, e) for e in range(len(EPSILONS))] for c in CLASSES})
        return hit

    def probs(
        self,
        seat: int,
        table: StrategyTable,
        tree: Tree,
        li: int,
        ctx: int,
        node: int,
        bkt: int,
        sign: int,
        kings: int = 8,
        partner_bkt: int | None = None,
        envido: str = "any",
    ) -> tuple[float, ...]:
        """``seat``'s probability of each action of ``tree``'s node ``node`` holding bucket ``bkt`` with its
        partner's seña bit ``sign``: the equilibrium's (with its tremble) and the value bettor's, mixed by the
        type posterior. The value bettor bets its team's strength: with ``sign`` set, the stronger of its own
        bucket and its partner's (``partner_bkt``; None: the mean of the buckets that make that seña,
        :func:`signed_strength`). ``envido``: which opening envidos the ``E`` entry stands for (see
        :func:`branch_probs`; the equilibrium reads them all as its envido), for the likelihood of one seen."""
        key = (seat, li, tree.participants, ctx, node, bkt, sign, kings, partner_bkt, envido)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        pv = self.p_value(seat)
        nd = tree.nodes[node]
        m = len(nd.actions)
        eq = node_probs(table, li, tree.participants, ctx, node, bkt, sign)
        eq = tuple((1 - TREMBLE) * p + TREMBLE / m for p in eq)
        if pv < 1e-3:
            out = eq
        else:
            k = table.ks[li]
            s = bucket_strength(li, k, kings)[bkt]
            if sign:
                s = max(s, signed_strength(li, k, kings) if partner_bkt is None else bucket_strength(li, k, kings)[partner_bkt])
            val = self.value_mix(seat, nd.actions, s, envido)
            out = tuple((1 - pv) * a + pv * b for a, b in zip(eq, val, strict=True))
        self._cache[key] = out
        return out
