"""The errors of the quizzes: all :class:`~musteach.rules.errors.MusError` (a ``ValueError``), whose message
can be shown to a learner as it is."""

from __future__ import annotations

from ..rules.errors import MusError

__all__ = ["AnswerError", "BlankAnswerError", "QuizError", "QuizStateError"]


class QuizError(MusError):
    """Base class of quiz errors (a bad skill or kind, a bad response, answering out of turn)."""


class AnswerError(QuizError):
    """A response that is not one of the question's possible answers; the message can be shown as feedback."""


class QuizStateError(QuizError):
    """An action the session refuses in its current state: answering twice, or after the run is finished."""


class BlankAnswerError(AnswerError):
    """An empty answer box: the message ("Type a number first.") is shown on its own, with no "Try again"
    headline, and the try is not used up (grading raises before anything changes)."""
