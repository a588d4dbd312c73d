"""The odds: exact chances of winning each lance, and the discard advisor.

Modules:

- :mod:`.exact`: exact enumeration over the unseen cards (rank multisets with combinatorial weights),
  each hand's odds per lance (:func:`hand_odds`), and the discard advisor (:func:`advise_discard`) with its
  on-disk cache. The lance rules it counts with are those of :mod:`musteach.rules.lances` (RULES.md §2–§5, §9).
"""

from .exact import (
    AIMS,
    SENAS,
    DiscardAdvice,
    DiscardOption,
    HandOdds,
    Holding,
    LanceOdds,
    Number,
    Redraw,
    advise_discard,
    hand_odds,
    odds_in_words,
    position_name,
    prepare_advisor,
)

__all__ = [
    "AIMS",
    "SENAS",
    "DiscardAdvice",
    "DiscardOption",
    "HandOdds",
    "Holding",
    "LanceOdds",
    "Number",
    "Redraw",
    "advise_discard",
    "hand_odds",
    "odds_in_words",
    "position_name",
    "prepare_advisor",
]
