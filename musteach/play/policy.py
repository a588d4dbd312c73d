"""What every bot shares: the :class:`Bot` protocol, :class:`Advice` (an action and its reason), a rough
match equity, and small helpers to build and check their actions (RULES.md §3, §6).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..rules.betting import Action, LanceBetting
from ..rules.cards import Card
from ..rules.lances import Lance, effective_rank
from ..rules.options import Rules
from ..rules.senas import Sena, best_senas
from .game import Discard, GameAction, View

__all__ = ["LANCE_INDEX", "Advice", "Bot", "bet", "deje_if_refused", "effective_ranks", "is_legal_bet", "keep_to_discard", "match_equity", "true_senas"]


#: Each lance's index in the bots' arrays (grande 0 ... punto 4).
LANCE_INDEX = {Lance.GRANDE: 0, Lance.CHICA: 1, Lance.PARES: 2, Lance.JUEGO: 3, Lance.PUNTO: 4}


class Bot(Protocol):
    """What :func:`run` needs from a player: a name, ``decide`` and ``signals``."""

    name: str

    def decide(self, view: View) -> GameAction:
        """The action to play now, one of ``view.legal`` (or a bet of another amount)."""
        ...

    def signals(self, view: View) -> tuple[Sena, ...]:
        """The señas to show the partner now (true of ``view.cards``); () for none."""
        ...


@dataclass(frozen=True, slots=True)
class Advice:
    """A suggested action and why, in words a learner can read."""

    action: GameAction
    reason: str

    def __str__(self) -> str:
        return f"{self.action}: {self.reason}"


# ----------------------------------------------------------------------------------------------
# Shared helpers
# ----------------------------------------------------------------------------------------------


def effective_ranks(cards: Iterable[Card], rules: Rules) -> list[int]:
    """The ranks the cards play as (a 3 is a rey in 8 reyes; RULES.md §1), in the cards' order."""
    return [effective_rank(c.rank, rules.kings) for c in cards]


def match_equity(us: int, them: int, target: int = 40) -> float:
    """A rough chance that a team with ``us`` stones beats one with ``them`` (both below ``target``).

    A model for bots only, not a rule: both teams score about 5 stones a hand on average with a spread
    of about 6, so the chance is a normal tail on the difference of the stones each still needs.

    >>> round(match_equity(0, 0), 2), match_equity(35, 10) > 0.9
    (0.5, True)
    """
    a, b = max(target - us, 0), max(target - them, 0)
    if a == 0:
        return 1.0
    if b == 0:
        return 0.0
    hands = max((a + b) / 10.0, 0.5)
    z = (b - a) / (6.0 * math.sqrt(2 * hands))
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def deje_if_refused(b: LanceBetting) -> int:
    """The stones the betting team takes if the bet on the table is refused now (RULES.md §6)."""
    return 1 if len(b.stakes) <= 1 else int(b.stakes[-2])


def true_senas(view: View) -> tuple[Sena, ...]:
    """Up to two true señas of ``view``'s cards to show the partner (:func:`musteach.rules.senas.best_senas`,
    RULES.md §11); none when señas are off. Every bot's :meth:`Bot.signals`."""
    if view.rules.senas == "off":
        return ()
    return best_senas(view.cards, view.rules, "lances")


def bet(kind: str, amount: int | None = None) -> Action:
    """A betting action: ``bet("envido", 2)``, ``bet("quiero")`` (RULES.md §6)."""
    return Action(kind, amount)


def is_legal_bet(view: View, action: Action) -> bool:
    """True if ``view``'s seat may say ``action`` in the betting now."""
    b = view.betting
    return b is not None and b.can(view.seat, action)


def keep_to_discard(view: View, keep: Sequence[Card]) -> Discard:
    """The discard that keeps ``keep``: the other cards, or the weakest one when all are kept (RULES.md §3)."""
    throw = [c for c in view.cards if c not in keep]
    if not throw:  # at least one card must go (RULES.md §3)
        ranks = {c: effective_rank(c.rank, view.rules.kings) for c in view.cards}
        throw = [min(view.cards, key=lambda c: (ranks[c] == 12, -abs(ranks[c] - 6)))]
    return Discard(throw)
