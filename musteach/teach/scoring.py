"""Graded scoring: one question's attempt (hints, a second try) and the stars a quiz run earns (issue 12).

Pure Python, in the spirit of chess.com's graded hints and lichess Learn's stars:

* Every finished question has one :class:`Outcome`: right at the first try, right at the second, or wrong at
  both and shown. They are counted apart and shown apart ("8 of 10 at the first try, 2 at the second").
* A question is worth 1 point when answered right at the first try without a hint. Each hint step costs a
  quarter of it (:data:`HINT_FACTORS`). A right answer at the second try earns nothing towards the stars
  (:data:`RETRY_FACTOR`): stars count first-try answers. A question whose two tries were both wrong earns 0, and
  its answer is shown.
* A quiz run earns 0 to 3 stars from its share of the points (:data:`STAR_SHARES`, the one place the thresholds
  are set; lesson 00 states them). The best run is kept (see :mod:`.progress`).

:class:`Attempt` follows the verify / can / do pattern: :meth:`Attempt.verify_hint` raises
:class:`AttemptError` naming why, :meth:`Attempt.can_hint` asks, :meth:`Attempt.hint` returns the next state.

>>> a = Attempt().hint()            # step 1 of the hint
>>> a = a.answer(False)             # wrong: one more try
>>> a.may_retry, a.finished
(True, False)
>>> a = a.answer(True)              # right at the second try, after one hint step
>>> a.solved, a.outcome, a.points
(True, <Outcome.SECOND: 'second'>, 0.0)
>>> stars_for([1.0, 1.0, 0.75, 1.0])
3
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..i18n import Text, translator
from ..rules.errors import MusError

__all__ = [
    "HINT_FACTORS",
    "MAX_HINTS",
    "RETRY_FACTOR",
    "SLIP",
    "STAR_SHARES",
    "TRIES",
    "Attempt",
    "AttemptError",
    "Outcome",
    "outcomes_text",
    "points_text",
    "round_text",
    "stars_for",
    "stars_text",
]

#: Hint steps a question offers (step 1: what to compare; step 2: the deciding card or total).
MAX_HINTS = 2
#: The share of a question's point kept after 0, 1 or 2 hint steps.
HINT_FACTORS: tuple[float, float, float] = (1.0, 0.75, 0.5)
#: Tries per question: a wrong first answer gets one more try before the answer is revealed.
TRIES = 2
#: The share of the point a right answer at the second try earns: none, since stars count first-try answers.
RETRY_FACTOR = 0.0
#: The diagnosis tag of a wrong answer that no mistaken rule explains (see :mod:`musteach.teach.mistakes`).
SLIP = "slip"
#: The least share of a run's points for 1, 2 and 3 stars: the one place these thresholds are set (lesson 00
#: states them; ``tests/test_scoring.py`` checks that it does).
STAR_SHARES: tuple[float, float, float] = (0.4, 0.7, 0.9)


class Outcome(enum.StrEnum):
    """How a finished question ended: what its answer means in the scores, the streak and the scheduler."""

    FIRST = "first"
    """Right at the first try (with or without hints): it counts towards the stars and keeps a streak."""
    SECOND = "second"
    """Right at the second try: no point towards the stars, it breaks a streak, and the spaced-repetition
    scheduler takes it as a lapse (rated Again)."""
    SHOWN = "shown"
    """Wrong at every try: the answer was shown."""

    def __str__(self) -> str:
        return self.value


class AttemptError(MusError):
    """A hint or an answer the attempt refuses: a hint after both steps or after the question is over,
    an answer after the question is over."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """One question as the learner works on it.

    hints: hint steps shown, 0..:data:`MAX_HINTS`. wrong: wrong answers given, 0..:data:`TRIES`.
    solved: True once a right answer was given. diagnoses: the diagnosis tag of each wrong answer, in order
    (see :func:`musteach.teach.mistakes.diagnose_answer`; :data:`SLIP` when no mistaken rule explains it).
    Each change returns a new :class:`Attempt`.
    """

    hints: int = 0
    wrong: int = 0
    solved: bool = False
    diagnoses: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        """True when the question is over: solved, or every try used (the answer is then revealed)."""
        return self.solved or self.wrong >= TRIES

    @property
    def revealed(self) -> bool:
        """True when every try was wrong: the widget shows the right answer."""
        return self.wrong >= TRIES and not self.solved

    @property
    def may_retry(self) -> bool:
        """True after a wrong answer that leaves a try: the widget offers one more try."""
        return 0 < self.wrong < TRIES and not self.solved

    @property
    def tries(self) -> int:
        """Answers given so far."""
        return self.wrong + int(self.solved)

    @property
    def outcome(self) -> Outcome | None:
        """The :class:`Outcome` of a finished question (first try, second try, shown); None while it is open."""
        if self.solved:
            return Outcome.FIRST if self.wrong == 0 else Outcome.SECOND
        return Outcome.SHOWN if self.finished else None

    @property
    def first_try(self) -> bool:
        """True for a right answer at the first try (hints or not): what the streak, the practice figures
        and the stars count."""
        return self.solved and self.wrong == 0

    @property
    def diagnosis(self) -> str | None:
        """The diagnosis tag of the last wrong answer (None when no answer was wrong)."""
        return self.diagnoses[-1] if self.diagnoses else None

    @property
    def record_fields(self) -> dict[str, str | int | None]:
        """What an answer record keeps of this attempt: ``{"tries": n, "outcome": "first" | "second" | "shown" |
        None, "diagnosis": tag | None}`` (the last wrong answer's tag; see :attr:`diagnoses`)."""
        outcome = self.outcome
        return {"tries": self.tries, "outcome": None if outcome is None else outcome.value, "diagnosis": self.diagnosis}

    @property
    def points(self) -> float:
        """The question's score towards the stars, 0..1: 1 at the first try without a hint, less per hint step;
        :data:`RETRY_FACTOR` of it at the second try; 0 until solved."""
        if not self.solved:
            return 0.0
        base = 1.0 if self.wrong == 0 else RETRY_FACTOR
        return base * HINT_FACTORS[self.hints]

    @property
    def clean(self) -> bool:
        """True for a right first answer without a hint (what the spaced-repetition scheduler rates Good)."""
        return self.solved and self.wrong == 0 and self.hints == 0

    # verify / can / do
    def verify_hint(self) -> None:
        """Raise :class:`AttemptError` when no further hint step can be shown."""
        if self.finished:
            raise AttemptError(Text("this question is over: no more hints"))
        if self.hints >= MAX_HINTS:
            raise AttemptError(
                Text("both hint steps are shown already ({shown} of {most})", shown=MAX_HINTS, most=MAX_HINTS)
            )

    def can_hint(self) -> bool:
        """True if :meth:`hint` would give one more step."""
        try:
            self.verify_hint()
        except AttemptError:
            return False
        return True

    def hint(self) -> Attempt:
        """The attempt with one more hint step shown; raises :class:`AttemptError` (see :meth:`verify_hint`)."""
        self.verify_hint()
        return replace(self, hints=self.hints + 1)

    def verify_answer(self) -> None:
        """Raise :class:`AttemptError` when the question is over."""
        if self.finished:
            raise AttemptError(Text("this question is over: go on to the next one"))

    def can_answer(self) -> bool:
        """True while the question takes an answer."""
        return not self.finished

    def answer(self, correct: bool, diagnosis: str | None = None) -> Attempt:
        """The attempt after one answer, right or wrong; raises :class:`AttemptError` when it is over.
        diagnosis: a wrong answer's diagnosis tag (kept in :attr:`diagnoses`; :data:`SLIP` when None)."""
        self.verify_answer()
        if correct:
            return replace(self, solved=True)
        return replace(self, wrong=self.wrong + 1, diagnoses=(*self.diagnoses, diagnosis or SLIP))


def stars_for(points: Sequence[float]) -> int:
    """Stars 0..3 for a run whose questions scored ``points`` (each 0..1): the mean against :data:`STAR_SHARES`.

    An empty run earns 0 stars.

    >>> stars_for([1.0] * 9 + [0.5]), stars_for([1.0] * 7 + [0.0] * 3), stars_for([0.0])
    (3, 2, 0)
    """
    if not points:
        return 0
    share = sum(points) / len(points)
    return sum(share >= t - 1e-9 for t in STAR_SHARES)


def stars_text(stars: int) -> str:
    """``"★★☆"``: filled and empty stars, 3 in all."""
    stars = max(0, min(3, stars))
    return "★" * stars + "☆" * (3 - stars)


def _points_number(total: float, lang: str) -> str:
    """A run's points as written in ``lang``: ``6.5``, ``6,5`` (``:g``: no trailing zeros)."""
    text = f"{total:g}"
    return text if lang == "en" or "." not in text else translator(lang).number(total, len(text.split(".")[1]))


def points_text(points: Sequence[float], hints: int = 0, retries: int = 0, *, lang: str | None = None) -> str:
    """``"★★☆ (6.5 of 8 points; 2 hints, 1 second try)."``: a run's stars, its points (each question 0..1)
    and the hint steps and second tries that lowered them. An empty run gives ``""``.
    lang: the language (None: the one being spoken)."""
    if not points:
        return ""
    _ = translator(lang)
    stars = stars_text(stars_for(points))
    total = _points_number(sum(points), _.lang)
    extra = []
    if hints:
        extra.append(_.ngettext("{n} hint", "{n} hints", hints))
    if retries:
        extra.append(_.ngettext("{n} second try", "{n} second tries", retries))
    if extra:
        return _.ngettext(
            "{stars} ({points} of {n} point; {used}).",
            "{stars} ({points} of {n} points; {used}).",
            len(points),
            stars=stars,
            points=total,
            used=", ".join(extra),
        )
    return _.ngettext(
        "{stars} ({points} of {n} point).", "{stars} ({points} of {n} points).", len(points), stars=stars, points=total
    )


def outcomes_text(first: int, second: int, shown: int, *, lang: str | None = None) -> str:
    """``"8 of 10 at the first try, 2 at the second, 0 shown (80%)"``: a run's finished questions counted apart by
    :class:`Outcome` (the share is of first-try answers). lang: the language (None: the one being spoken)."""
    _ = translator(lang)
    n = first + second + shown
    pct = round(100 * first / n) if n else 0
    return _(
        "{first} of {n} at the first try, {second} at the second, {shown} shown ({pct}%)",
        first=first,
        n=n,
        second=second,
        shown=shown,
        pct=pct,
    )


def round_text(
    first: int, points: Sequence[float], hints: int = 0, retries: int = 0, *, lang: str | None = None
) -> str:
    """The end of a practice round (lesson 11): ``"Round finished: 6 of 8 at the first try, 1 at the second,
    1 shown (75%). ★★☆ (5.5 of 8 points; 1 hint, 1 second try)."``. first: questions right at the first try;
    points: each question's points, 0..1; retries: questions right at the second try (the others were shown).
    lang: the language (None: the one being spoken)."""
    _ = translator(lang)
    n = len(points)
    counted = outcomes_text(first, retries, max(0, n - first - retries), lang=_.lang)
    head = _("Round finished: {counted}.", counted=counted)
    return f"{head} {points_text(points, hints, retries, lang=_.lang)}".rstrip()
