"""musteach: the domain core of the Mus tutor.

Plain Python with no Jupyter import: cards and notation, rules options, the lance evaluator,
and everything the lessons and widgets show (RULES.md is the reference). Sub-packages:

- :mod:`musteach.rules`: the rules themselves (RULES.md §0–§11, §13); its docstring maps every RULES.md
  section to the one function that implements it;
- :mod:`musteach.odds`: exact odds of each lance, and the discard advisor;
- :mod:`musteach.play`: actions, events, game flow, bots;
- :mod:`musteach.teach`: questions, verdicts, quiz kinds, progress, wording;
- :mod:`musteach.draw`: every SVG picture.

The names below are re-exported so that ``from musteach import evaluate`` keeps working; each is imported
when first asked for, so ``import musteach`` alone loads no sub-package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the re-exports, for type checkers and editors
    from .play.game import Game, Turn, View, replay
    from .rules.betting import Action, BettingOutcome, LanceBetting, declarations, deje, play_betting, start_betting
    from .rules.cards import DECK, RANKS, Card, Hand, Suit, deal, parse_card, parse_hand, parse_hands
    from .rules.count import CountResult, Match, count_case, count_hand, describe_score, to_amarracos
    from .rules.errors import (
        BettingError,
        DuplicateCardError,
        HandSizeError,
        IllegalActionError,
        MusError,
        RulesError,
        SeatError,
        UnknownCardError,
    )
    from .rules.lances import (
        LANCES,
        DealResult,
        HandInfo,
        Lance,
        LanceResult,
        Pares,
        analyse,
        evaluate,
        speaking_order,
        team_of,
        winners,
    )
    from .rules.options import PRESETS, Rules
    from .rules.senas import Sena, senas_for

# Each public name and the module that defines it: imported when first used (module __getattr__), so that
# `musteach judge` loads only the rules it needs, not the game, betting or wording modules.
_HOMES: dict[str, str] = {
    "Game": ".play.game",
    "Turn": ".play.game",
    "View": ".play.game",
    "replay": ".play.game",
    "Action": ".rules.betting",
    "BettingOutcome": ".rules.betting",
    "LanceBetting": ".rules.betting",
    "declarations": ".rules.betting",
    "deje": ".rules.betting",
    "play_betting": ".rules.betting",
    "start_betting": ".rules.betting",
    "DECK": ".rules.cards",
    "RANKS": ".rules.cards",
    "Card": ".rules.cards",
    "Hand": ".rules.cards",
    "Suit": ".rules.cards",
    "deal": ".rules.cards",
    "parse_card": ".rules.cards",
    "parse_hand": ".rules.cards",
    "parse_hands": ".rules.cards",
    "CountResult": ".rules.count",
    "Match": ".rules.count",
    "count_case": ".rules.count",
    "count_hand": ".rules.count",
    "describe_score": ".rules.count",
    "to_amarracos": ".rules.count",
    "BettingError": ".rules.errors",
    "DuplicateCardError": ".rules.errors",
    "HandSizeError": ".rules.errors",
    "IllegalActionError": ".rules.errors",
    "MusError": ".rules.errors",
    "RulesError": ".rules.errors",
    "SeatError": ".rules.errors",
    "UnknownCardError": ".rules.errors",
    "LANCES": ".rules.lances",
    "DealResult": ".rules.lances",
    "HandInfo": ".rules.lances",
    "Lance": ".rules.lances",
    "LanceResult": ".rules.lances",
    "Pares": ".rules.lances",
    "analyse": ".rules.lances",
    "evaluate": ".rules.lances",
    "speaking_order": ".rules.lances",
    "team_of": ".rules.lances",
    "winners": ".rules.lances",
    "PRESETS": ".rules.options",
    "Rules": ".rules.options",
    "Sena": ".rules.senas",
    "senas_for": ".rules.senas",
}

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "RANKS",
    "Card",
    "Hand",
    "Suit",
    "deal",
    "parse_card",
    "parse_hand",
    "parse_hands",
    "MusError",
    "UnknownCardError",
    "HandSizeError",
    "DuplicateCardError",
    "SeatError",
    "RulesError",
    "BettingError",
    "IllegalActionError",
    "Action",
    "BettingOutcome",
    "LanceBetting",
    "declarations",
    "deje",
    "play_betting",
    "start_betting",
    "CountResult",
    "Match",
    "count_case",
    "count_hand",
    "describe_score",
    "to_amarracos",
    "LANCES",
    "Lance",
    "LanceResult",
    "DealResult",
    "HandInfo",
    "Pares",
    "analyse",
    "evaluate",
    "speaking_order",
    "team_of",
    "winners",
    "PRESETS",
    "Rules",
    "Game",
    "Turn",
    "View",
    "replay",
    "Sena",
    "senas_for",
]


def __getattr__(name: str) -> Any:
    """A re-exported name, imported from its home module on first use (then kept as a module attribute)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'musteach' has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
