"""Errors raised by musteach.

Every error is a :class:`MusError`, itself a :class:`ValueError`, so callers that
only care about "bad input" can catch ``ValueError``.  Each subclass names the bad
card, hand, seat or option in its message, so the message can be shown to a
learner as it is.
"""

from __future__ import annotations

import json

from ..i18n import Text

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

_SHOWN_MAX = 40  # characters of a bad value quoted in a message


def shown(value: object) -> str:
    """A bad value as a message quotes it: as JSON when it is JSON (``true``, ``null``, ``"x"``), else its repr,
    cut to about 40 characters, since input often arrives as JSON and a huge value must not fill the screen.

    >>> shown(True), shown(None), shown("7"), shown(7), shown(10 ** 60)
    ('true', 'null', '"7"', '7', '1000000000000000000000000000000000000000… (61 digits)')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) <= _SHOWN_MAX:
        return text
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{text[:_SHOWN_MAX]}… ({len(text)} digits)"
    return f"{text[:_SHOWN_MAX]}…"


class MusError(ValueError):
    """Base class of every error musteach raises on bad input.

    message: a :class:`~musteach.i18n.Text` (or a plain English string). ``str(error)`` is the English;
    :meth:`message` puts it into the learner's language, for a command's ``--lang`` or a widget.
    """

    def __init__(self, message: Text | str = "", /) -> None:
        self.text = message if isinstance(message, Text) else None
        super().__init__(str(message))

    def message(self, lang: str | None = None) -> str:
        """The message in ``lang`` (None: the current language of :func:`musteach.i18n.speaking`); English where
        the catalog lacks it or the error was raised with a plain string."""
        return self.text.render(lang) if self.text is not None else str(self)

    @property
    def reason(self) -> Text | str:
        """The message as a placeholder of a longer one (``Text("deal 3: {reason}", reason=err.reason)``): its
        :class:`~musteach.i18n.Text`, rendered in the longer message's language, or the plain English string."""
        return self.text if self.text is not None else str(self)


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


class LanguageError(MusError):
    """A language the tutor has no catalog for (see ``musteach/locale/TRANSLATING.md``)."""


class IllegalActionError(BettingError):
    """A betting action that breaks a rule of RULES.md §6 (quiero with no bet, a raise by 1, out of turn...).

    The message names the seat, the action and the rule.
    """
