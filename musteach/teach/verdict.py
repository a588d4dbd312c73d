"""The one grade every quiz gives: a frozen :class:`Verdict` (right or not, the answer key, the response, the
reasons step by step and the seat to light up).

>>> v = Verdict.of(False, "Not quite: seat 2 wins Grande.", ["Seat 2 holds R-R-C-S.", "Seat 0 holds C-C-S-7."])
>>> v.correct, v.reasons[0]
(False, 'Seat 2 holds R-R-C-S.')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Verdict"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The grade of one response.

    correct: True if the response is right. expected: the correct answer (a seat or None, a jugada name,
    a total, the cards high to low, stones per team...); given: the response, normalised the same way.
    explanation: the whole explanation as one text (for lances, exactly :attr:`LanceResult.explanation`).
    highlight: the seat to highlight (the lance winner), or None.
    headline: ``"Right!"`` or ``"Not quite: seat 2 wins Grande."``.
    steps: the explanation step by step, one sentence each (empty when it is one sentence).
    wrong: the parts answered wrongly (``"A"``/``"B"`` for the betting quiz, lance names for the count quiz).
    """

    correct: bool
    expected: Any
    given: Any
    explanation: str
    highlight: int | None = None
    headline: str = ""
    steps: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()

    @property
    def reasons(self) -> tuple[str, ...]:
        """The explanation as sentences to show: :attr:`steps`, or the one :attr:`explanation` (or none)."""
        if self.steps:
            return self.steps
        return (self.explanation,) if self.explanation else ()

    @classmethod
    def of(
        cls, correct: bool, headline: str, reasons: Iterable[str] = (), highlight: int | None = None
    ) -> Verdict:
        """A verdict from its headline and reasons alone (for a plug-in quiz that keeps no answer key)."""
        steps = tuple(reasons)
        return cls(correct, None, None, " ".join(steps), highlight, headline, steps if len(steps) > 1 else ())
