"""StrategyBot: the strong level, which bets as the computed strategy says (RULES.md §3–§7, §11).

Its betting is :func:`musteach.play.strategy.policy`: a mixed strategy, sampled with a seed drawn from the
bot's seed and the decision (the same game and seed give the same play); actions the strategy plays less
than :data:`PURIFY` of the time are left out (a solve's small leftovers). Where the abstraction cannot read
the betting (a line it does not model), it bets as :class:`~musteach.play.odds_bot.OddsBot`. The mus, the
discard, the declarations and the señas are OddsBot's.

**Adapting to its opponents** (``adapt=True``, the strong level): after every hand it weighs what each seat of
the other team did with the hand it showed (:class:`~musteach.play.opponents.Opponents`: a posterior over two
types, the strategy itself, which bluffs, and a value bettor whose aggression rises with its hand). Where the
stakes are high (:meth:`StrategyBot.high_stakes`: the strategy puts weight on an órdago, or it faces an
órdago or a raised bet) and the opponents in the lance are more likely value bettors than not
(:data:`ADAPT_AT`), it plays the action :func:`~musteach.play.strategy.search.action_values` values most
(its team's chance of winning the game) with the opponents acting, and their earlier bets weighing their
hands, by that posterior. Elsewhere, and against an opponent read as the strategy, it plays the table.
"""

from __future__ import annotations

import random
import zlib

from ...draw.odds import decimal_text
from ...i18n import Text, translator
from ...rules.betting import ORDAGO, Action
from ...rules.errors import MusError
from ...rules.lances import LANCES
from ..deals import rank_facts, rank_id
from ..game import GameAction, View
from ..odds_bot import OddsBot
from ..opponents import Opponents
from ..policy import Advice
from . import policy

__all__ = ["ADAPT_AT", "ADAPT_DEALS", "PURIFY", "StrategyBot"]

#: Actions the strategy plays less often than this are not played.
PURIFY = 0.05
#: The adapting bot leaves the table where the opponents in the lance are value bettors with at least this
#: posterior probability (their mean).
ADAPT_AT = 0.5
#: Deals sampled to value the actions when adapting.
ADAPT_DEALS = 200


class StrategyBot(OddsBot):
    """Bets by the computed strategy (see the module docstring); seed: its sampling seed; name: its name.
    search: when above 0, it plays instead the action :func:`~musteach.play.strategy.search.action_values`
    values most over that many sampled deals weighed by what was said (the rest of the lance by the strategy).
    ordago_within: when set, it bets no órdago while both teams need more than that many stones (the
    strategy's órdago share goes to envido 2 or a raise of 2). Both are experiments measured by
    ``benchmarks/bench_strength.py``-style matches, off for the strong level (see the report of issue 25).
    adapt: learn the opponents' types and play a best response to them where the stakes are high (see the
    module docstring; on for the strong level, off for ``"strong-table"``). scope: where it adapts,
    ``"stakes"`` (see :meth:`high_stakes`) or ``"all"`` (every betting decision)."""

    def __init__(
        self,
        *,
        seed: int = 0,
        name: str = "StrategyBot",
        n: int = 1000,
        search: int = 0,
        ordago_within: int | None = None,
        adapt: bool = False,
        scope: str = "stakes",
    ):
        super().__init__(seed=seed, name=name, n=n)
        self.search = search
        self.ordago_within = ordago_within
        self.adapt = adapt
        self.scope = scope
        self.opponents = Opponents()

    def observe(self, view: View) -> None:
        """Learn from a finished hand: OddsBot's model and, when adapting, the opponents' types."""
        super().observe(view)
        if self.adapt:
            self.opponents.learn(view)

    def high_stakes(self, view: View, dist: dict[Action, float]) -> bool:
        """True where the adapting bot values its actions: the strategy plays an órdago here at least
        :data:`PURIFY` of the time, or the seat faces an órdago or a raised bet (4 stones or more)."""
        if self.scope == "all":
            return True
        b = view.betting
        assert b is not None
        if dist.get(Action("ordago"), 0.0) >= PURIFY:
            return True
        stake = b.current_stake if b.stakes else 0
        return stake == ORDAGO or (isinstance(stake, int) and stake >= 4)

    def opponents_value(self, view: View) -> float:
        """The mean posterior probability that the other team's seats in the lance are value bettors."""
        b = view.betting
        assert b is not None
        seats = [s for s in b.participants if s % 2 != view.seat % 2]
        return sum(self.opponents.p_value(s) for s in seats) / len(seats) if seats else 0.0

    def decide(self, view: View) -> GameAction:
        """The action for ``view``'s phase."""
        return self.advise(view).action

    def advise(self, view: View) -> Advice:
        """The action with its reason, in the language being spoken."""
        if view.betting is None or view.lance is None:
            return super().advise(view)
        try:
            dist = policy(view)
        except MusError:
            return super().advise(view)
        if self.search:
            return self._searched(view)
        if self.adapt and self.high_stakes(view, dist) and self.opponents_value(view) >= ADAPT_AT:
            return self._searched(view, self.opponents)
        if self.ordago_within is not None and min(view.to_go.values()) > self.ordago_within:
            dist = _without_ordago(view, dist)
        keep = {a: p for a, p in dist.items() if p >= PURIFY} or dist
        key = (self.seed, view.game_number, view.hand_number, view.seat, view.lance.value, len(view.betting.steps))
        rng = random.Random(zlib.crc32(repr(key).encode()))
        total = sum(keep.values())
        x = rng.random() * total
        chosen = next(iter(keep))
        for a, p in keep.items():
            x -= p
            chosen = a
            if x <= 0:
                break
        _ = translator()
        li = LANCES.index(view.lance)
        pct = rank_facts(view.rules.kings).pct[li][rank_id([c.index for c in view.cards])] * 100 // 255
        reason = _(
            "{lance}: with a hand better than {pct} of every 100, the computed strategy says {action} here {share} times in 100.",
            lance=view.lance.title,
            pct=pct,
            action=str(chosen),
            share=decimal_text(100 * dist[chosen], 0, lang=_.lang),
        )
        return Advice(chosen, reason)

    def values(self, view: View) -> dict[Action, float]:
        """What the adapting bot weighs at a betting decision: per legal abstract action, its team's chance of
        winning the game (0..1) against its model of the opponents (:func:`~musteach.play.strategy.search.action_values`
        over :data:`ADAPT_DEALS` deals, seeded from the bot's seed and the decision). Raises :class:`MusError`
        when the seat has no betting decision now."""
        from .search import action_values

        if view.betting is None or view.lance is None:
            raise MusError(Text("seat {seat} has no betting decision now (phase {phase})", seat=view.seat, phase=view.phase.value))
        key = (self.seed, view.game_number, view.hand_number, view.seat, view.lance.value, len(view.betting.steps))
        return action_values(view, n=ADAPT_DEALS, seed=zlib.crc32(repr(key).encode()), model=self.opponents)

    def _searched(self, view: View, model: Opponents | None = None) -> Advice:
        from .search import action_values

        vals = self.values(view) if model is not None else action_values(view, n=self.search, seed=self.seed)
        chosen = max(vals, key=lambda a: vals[a])
        _ = translator()
        assert view.lance is not None
        reason = _(
            "{lance}: weighing what everybody said, {action} gives your team the best chance of winning the game ({p}).",
            lance=view.lance.title,
            action=str(chosen),
            p=decimal_text(vals[chosen], 2, lang=_.lang),
        )
        return Advice(chosen, reason)


def _without_ordago(view: View, dist: dict[Action, float]) -> dict[Action, float]:
    """``dist`` with the órdago's share moved to the bet of stones it stands beside (envido 2, or a raise of 2;
    quiero when no raise is legal)."""
    o = Action("ordago")
    share = dist.get(o, 0.0)
    if not share:
        return dist
    b = view.betting
    assert b is not None
    out = {a: p for a, p in dist.items() if a != o}
    for alt in (Action("envido", 2), Action("reenvido", 2), Action("quiero")):
        if b.can(view.seat, alt):
            out[alt] = out.get(alt, 0.0) + share
            return out
    return dist
