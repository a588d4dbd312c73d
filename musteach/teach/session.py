"""A run of quiz questions: the current question, the score, the streak and the history (:class:`QuizSession`).

It works with every question kind of :mod:`musteach.teach` (anything with ``grade(response) -> Verdict``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .errors import QuizError, QuizStateError
from .verdict import Verdict

if TYPE_CHECKING:
    from .quiz import Question, QuestionGenerator

__all__ = ["QuizSession"]


class QuizSession:
    """The state of a run of ``n`` questions: the current question, the score, the streak, the history.

    source: a :class:`QuestionGenerator`, or any iterable of :class:`Question` (the run ends early if it runs out).
    n: how many questions must be answered to finish. A question skipped with :meth:`next` before it is
    answered (say, after an error) is not scored and does not count towards ``n``.

    Bad responses raise (see :meth:`Question.verify_response`) and leave the state unchanged.
    """

    def __init__(self, source: QuestionGenerator | Iterable[Question], n: int = 10):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise QuizError(f"a quiz needs a whole number of questions, 1 or more, not {n!r}")
        self.n = n
        self._source = source
        self._iter = iter(source)
        self.history: list[tuple[Question, Verdict | None]] = []
        self.current: Question | None = None
        self.verdict: Verdict | None = None
        self.answered = 0
        self.right = 0
        self.streak = 0
        self.best_streak = 0
        self.skipped = 0
        self.exhausted = False
        self._advance()

    def _fetch(self) -> Question | None:
        return next(self._iter, None)  # a QuestionGenerator never runs out; its errors propagate

    def _advance(self) -> None:
        q = self._fetch()  # may raise: nothing has changed yet
        self.current = q
        self.verdict = None
        if q is None:
            self.exhausted = True

    @property
    def finished(self) -> bool:
        """True once ``n`` questions are answered (or the question source ran out)."""
        return self.answered >= self.n or self.exhausted

    @property
    def number(self) -> int:
        """The number of the current question, 1..n (answered ones plus this one)."""
        return min(self.answered + (0 if self.verdict else 1), self.n)

    @property
    def is_answered(self) -> bool:
        """True once the current question has its verdict."""
        return self.verdict is not None

    def can_answer(self) -> bool:
        """True if :meth:`answer` would accept a (valid) response now."""
        return self.current is not None and self.verdict is None and not self.finished

    def answer(self, response: Any) -> Verdict:
        """Grade the response to the current question and update the score.

        Raises :class:`QuizStateError` if the question is already answered or the run is finished, and the
        question's errors (:class:`AnswerError`, :class:`~musteach.rules.errors.SeatError`...) for a bad response;
        in both cases nothing changes.
        """
        if self.finished or self.current is None:
            raise QuizStateError("the quiz is finished: start again for new questions")
        if self.verdict is not None:
            raise QuizStateError("this question is already answered: press Next for another")
        verdict = self.current.grade(response)  # raises before any change
        self.verdict = verdict
        self.answered += 1
        if verdict.correct:
            self.right += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0
        self.history.append((self.current, verdict))
        return verdict

    def next(self) -> Question | None:
        """Move to the next question (an unanswered current question is skipped, not scored).

        Raises :class:`QuizStateError` if the run is finished.
        """
        if self.finished:
            raise QuizStateError("the quiz is finished: start again for new questions")
        skipped = self.current if self.verdict is None else None
        self._advance()
        if skipped is not None:
            self.skipped += 1
            self.history.append((skipped, None))
        return self.current

    def restart(self) -> Question | None:
        """A new run of ``n`` fresh questions from the same source; the score starts again from 0."""
        self._advance()
        self.history = []
        self.answered = self.right = self.streak = self.best_streak = self.skipped = 0
        self.exhausted = self.current is None
        return self.current

    def score_text(self) -> str:
        """``"Score: 3/4 · streak 2"``: right answers out of those answered, and the current streak."""
        return f"Score: {self.right}/{self.answered} · streak {self.streak}"

    def progress_text(self) -> str:
        """``"Question 3 of 10"``."""
        return f"Question {self.number} of {self.n}"

    def summary(self) -> str:
        """The message shown when the run is finished."""
        pct = round(100 * self.right / self.answered) if self.answered else 0
        cheer = (
            "Perfect!"
            if self.answered and self.right == self.answered
            else "Well done."
            if pct >= 70
            else "Keep practising."
        )
        return f"Finished: {self.right} of {self.answered} right ({pct}%), best streak {self.best_streak}. {cheer}"
