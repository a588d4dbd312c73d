"""The errors of the quizzes: all :class:`~musteach.rules.errors.MusError` (a ``ValueError``), whose message
can be shown to a learner as it is."""

from __future__ import annotations

from ..rules.errors import MusError

__all__ = ["AnswerError", "QuizError", "QuizStateError"]


class QuizError(MusError):
    """Base class of quiz errors (a bad skill or kind, a bad response, answering out of turn)."""


class AnswerError(QuizError):
    """A response that is not one of the question's possible answers; the message can be shown as feedback."""


class QuizStateError(QuizError):
    """An action the session refuses in its current state: answering twice, or after the run is finished."""
