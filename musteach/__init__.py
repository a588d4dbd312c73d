"""musteach: the domain core of the Mus tutor.

Plain Python with no Jupyter import: cards and notation, rules options, the lance evaluator,
and everything the lessons and widgets show (RULES.md is the reference). Sub-packages:

- :mod:`musteach.rules`: the rules themselves (RULES.md §0–§11, §13); its docstring maps every RULES.md
  section to the one function that implements it;
- :mod:`musteach.odds`: exact odds of each lance, and the discard advisor;
- :mod:`musteach.play`: actions, events, game flow, bots;
- :mod:`musteach.teach`: questions, verdicts, quiz kinds, progress, wording;
- :mod:`musteach.draw`: every SVG picture.

The names below are re-exported so that ``from musteach import evaluate`` keeps working.
"""

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
