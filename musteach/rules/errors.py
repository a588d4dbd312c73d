"""Errors raised by musteach.

Every error is a :class:`MusError`, itself a :class:`ValueError`, so callers that only care about "bad input"
can catch ``ValueError``.  Each subclass names the bad card, hand, seat or option in its message, so the message
can be shown to a learner as it is. :class:`MusError`, :class:`LanguageError` and :func:`shown` are defined in
:mod:`musteach.errors` (below :mod:`musteach.i18n`, which raises a LanguageError) and re-exported here, their
public home.
"""

from __future__ import annotations

from ..errors import LanguageError, MusError, shown

__all__ = [
    "BettingError",
    "DuplicateCardError",
    "HandSizeError",
    "IllegalActionError",
    "LanguageError",
    "MusError",
    "RulesError",
    "SeatError",
    "UnknownCardError",
    "shown",
]


class UnknownCardError(MusError):
    """A card code or name that is not a card of the 40-card Spanish deck (RULES.md §0, §1)."""


class HandSizeError(MusError):
    """A hand that does not hold exactly 4 cards, or a deal that does not hold exactly 4 hands."""


class DuplicateCardError(MusError):
    """The same card appears twice in one hand or one deal (a deck holds each card once)."""


class SeatError(MusError):
    """A seat or mano that is not one of 0, 1, 2, 3 (RULES.md §0)."""


class RulesError(MusError):
    """A rules option with a value outside those RULES.md §13 allows."""


class BettingError(MusError):
    """A betting outcome or score that RULES.md §6, §7, §7a do not allow (a stake below 2, an unknown type...)."""


class IllegalActionError(BettingError):
    """A betting action that breaks a rule of RULES.md §6 (quiero with no bet, a raise by 1, out of turn...).

    The message names the seat, the action and the rule.
    """
