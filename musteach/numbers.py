"""Numbers as a learner reads them, in their language: decimals and percentages (no rendering here).

The odds (:mod:`musteach.odds`), the bots' notes and the charts (:mod:`musteach.draw`) all write their figures
with these, so that every view says the same figure.

>>> percent_text(0.947), percent_text(0.0004), percent_text(0.9996), percent_text(0), percent_text(1)
('95%', 'under 1%', 'over 99%', '0%', '100%')
"""

from __future__ import annotations

import math
from typing import Any

from .i18n import Text, translator
from .rules.errors import MusError

__all__ = ["decimal_text", "percent_text", "probability"]


def decimal_text(x: float, digits: int, *, lang: str | None = None, sign: bool = False) -> str:
    """``x`` with ``digits`` decimals in ``lang`` (None: the language being spoken), rounded exactly as the English
    text rounds it (``f"{x:.2f}"``), so both languages say the same figure: ``"0.95"``, ``"0,95"``; ``sign``
    writes ``+`` before a figure ≥ 0 (``"+1.5"``, ``"-0,5"``).

    >>> decimal_text(4.55, 1), decimal_text(4.55, 1, lang="es"), decimal_text(0.5, 1, lang="es", sign=True)
    ('4.5', '4,5', '+0,5')
    """
    english = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    _ = translator(lang)
    if _.lang == "en":
        return english
    # babel rounds the decimal it is given: give it the English figure, already rounded
    head = english[0] if sign else ""
    return head + _.number(abs(float(english)) if sign else float(english), digits)


def percent_text(p: float, *, lang: str | None = None) -> str:
    """A probability as a whole percentage, never rounding a real chance to 0% or 100%, in ``lang`` (None: the
    language being spoken): ``"95%"``, ``"under 1%"``; ``"95 %"``, ``"menos del 1 %"``.

    Raises :class:`~musteach.rules.errors.MusError` for a value that is not a number from 0 to 1.
    """
    p = probability(p, "probability")
    _ = translator(lang)
    if p < 0.005 and p != 0:
        return _("under {percent}", percent=_.percent(0.01))
    if p > 0.995 and p != 1:
        return _("over {percent}", percent=_.percent(0.99))
    return _.percent(float(f"{p * 100:.0f}") / 100)  # rounded as the English "95%" rounds it


def probability(value: Any, what: str) -> float:
    """``value`` as a probability from 0 to 1 (a hair outside is clamped). Raises
    :class:`~musteach.rules.errors.MusError` naming ``what`` for anything that is not a number from 0 to 1.
    """
    try:
        p = float(value)
    except (TypeError, ValueError):
        raise MusError(Text("{what} must be a number from 0 to 1, not {value}", what=what, value=repr(value))) from None
    if not math.isfinite(p) or p < -1e-9 or p > 1 + 1e-9:
        raise MusError(Text("{what} must be a number from 0 to 1, not {value}", what=what, value=repr(value)))
    return min(max(p, 0.0), 1.0)
