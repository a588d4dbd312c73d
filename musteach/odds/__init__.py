"""The odds: exact chances of winning each lance, and the discard advisor.

Modules, and the RULES.md sections they implement:

- :mod:`.enumeration`: the space of rank multisets (suits never matter, §0, §1), every deal of the unseen
  cards counted exactly per lance with ties to the seat nearer mano (§2, §4, §5), en-paso stones (§7),
  the señas a partner can send (:data:`SENAS`, §11) and la real (§13): :func:`~.enumeration.count_deals`,
  :func:`~.enumeration.count_all_hands`.
- :mod:`.space`: the same space of multisets without numpy (:func:`~.space.hand_space`), what a count
  returns (:class:`~.space.Counts`) and the señas (:data:`SENAS`, §11); the shipped tables, the odds and the
  advisor read only this, so showing odds never loads numpy (counting does).
- :mod:`.hands`: one hand's odds per lance and who holds pares / juego: :func:`hand_odds`,
  :class:`HandOdds`, :class:`LanceOdds`, :class:`Holding`, :func:`odds_in_words`, :func:`position_name`.
- :mod:`.advisor`: the mus (discard) phase (§3): the 15 discards of a hand and what each brings,
  :func:`advise_discard`, :func:`prepare_advisor`, :class:`DiscardAdvice`, :data:`AIMS`.
- :mod:`.tables`: every hand's counts with nothing else known, for 8 and 4 reyes, counted by ``make tables``
  and shipped in ``odds/data/`` as raw int64 cells read with ``mmap`` (:func:`~.tables.shipped_counts`).
- :mod:`.cache`: the advisor's per-position table, kept on disk between processes
  (:func:`~.cache.advisor_table`).

The lance rules the counts follow are those of :mod:`musteach.rules.lances`.
"""

from .advisor import (
    AIMS,
    DiscardAdvice,
    DiscardOption,
    Redraw,
    advise_discard,
    aim_hint,
    counting_note,
    prepare_advisor,
)
from .hands import HandOdds, Holding, LanceOdds, Number, hand_odds, odds_in_words, position_name
from .space import SENAS

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
    "aim_hint",
    "counting_note",
    "hand_odds",
    "odds_in_words",
    "position_name",
    "prepare_advisor",
]
