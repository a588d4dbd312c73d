"""A run of quiz questions: the current question, the score, the streak and the history (:class:`QuizSession`).

It works with every question kind of :mod:`musteach.teach` (anything with ``grade(response) -> Verdict``).

With ``tries=2`` (what every quiz widget uses, issue 12) a wrong first answer does not end the question: the
session keeps it open, says what led the learner astray (:func:`~musteach.teach.tutor.retry_text`) and takes
one more answer; :meth:`QuizSession.hint` gives the question's two hint steps. Each finished question has an
:class:`~musteach.teach.scoring.Outcome` (right at the first try, at the second, or shown), counted apart
(:attr:`QuizSession.first`, :attr:`QuizSession.second`, :attr:`QuizSession.shown`); only a first-try answer keeps
the streak. Each question scores 0..1 points (:mod:`.scoring`) and a finished run earns 0..3
:attr:`QuizSession.stars`. Every wrong answer gets a diagnosis tag (:func:`~musteach.teach.mistakes.diagnose_answer`),
kept in the question's :class:`~musteach.teach.scoring.Attempt`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..i18n import Text, translator
from .errors import QuizError, QuizStateError
from .hints import Hint
from .mistakes import diagnose_answer
from .scoring import Attempt, Outcome, outcomes_text, points_text, stars_for
from .tutor import knows, question_hints, retry_text
from .verdict import Verdict

if TYPE_CHECKING:
    from .quiz import Question, QuestionGenerator

__all__ = ["QuizSession", "Turn"]


class Turn:
    """One question as the learner works on it: its hint steps, and up to ``tries`` answers (issue 12).

    question: any musteach question (``grade(response) -> Verdict``); grade: another grading function (a
    practice source's), default ``question.grade``. tries: 1 (a wrong answer ends it) or 2 (one more try after
    a wrong first answer, with what led astray: :func:`~musteach.teach.tutor.retry_text`).

    ``attempt`` is the :class:`~musteach.teach.scoring.Attempt` so far (its ``points``, 0..1, are the
    question's score), ``retry`` the not-final verdict of a wrong first answer (None otherwise), ``verdict``
    the final one once the question is over. Every quiz question (:class:`QuizSession`) and every practice
    question of lesson 11 is one turn, so hints, tries and scoring are the same everywhere.
    Raises :class:`~musteach.teach.errors.QuizError` for bad ``tries``.
    """

    def __init__(self, question: Any, *, tries: int = 2, grade: Callable[[Any], Verdict] | None = None):
        if tries not in (1, 2):
            raise QuizError(Text("tries must be 1 or 2, not {tries}", tries=repr(tries)))
        self.question = question
        self.tries = tries
        self.attempt = Attempt()
        self.retry: Verdict | None = None
        self.verdict: Verdict | None = None
        self._grade: Callable[[Any], Verdict] = grade if grade is not None else question.grade
        self._hints: dict[str, tuple[Hint, Hint]] = {}  # by language: the hints are sentences

    @property
    def over(self) -> bool:
        """True once the question has its final verdict."""
        return self.verdict is not None

    def can_answer(self) -> bool:
        """True while the question takes an answer."""
        return self.verdict is None

    @property
    def outcome(self) -> Outcome | None:
        """The :class:`~musteach.teach.scoring.Outcome` once the question is over (with one try, a wrong answer
        is shown at once); None while it is open."""
        if self.verdict is None:
            return None
        if self.attempt.solved:
            return Outcome.FIRST if self.attempt.wrong == 0 else Outcome.SECOND
        return Outcome.SHOWN

    def answer(self, response: Any) -> Verdict:
        """Grade ``response``. A wrong first answer with a try left returns the retry verdict (not final, its
        explanation says what led astray, ``expected`` None); otherwise the final verdict.

        Raises :class:`QuizStateError` once the question is over, and the grading's errors
        (:class:`~musteach.rules.errors.MusError` subclasses naming the response) for a bad response; in both
        cases nothing changes.
        """
        if self.verdict is not None:
            raise QuizStateError(Text("this question is already answered: press Next for another"))
        verdict = self._grade(response)  # raises before any change
        tag = None if verdict.correct else self._diagnosis(verdict.given)
        if not verdict.correct and self.tries == 2 and self.attempt.wrong == 0:
            self.attempt = self.attempt.answer(False, tag)
            tip = retry_text(self.question, verdict.given, hint_left=self.can_hint())
            _ = translator()
            self.retry = Verdict(False, None, verdict.given, tip, None, _("Not quite."))
            return self.retry
        self.attempt = self.attempt.answer(verdict.correct, tag)
        self.retry = None
        self.verdict = verdict
        return verdict

    def _diagnosis(self, given: Any) -> str | None:
        """The diagnosis tag of a wrong answer ``given`` (None for a question kind the tutor does not know)."""
        found = diagnose_answer(self.question, given)
        return None if found is None else found.tag

    def has_hints(self) -> bool:
        """True when the tutor has hints for this kind of question (every musteach question has)."""
        return knows(self.question)

    def can_hint(self) -> bool:
        """True if :meth:`hint` would give one more step now."""
        return self.verdict is None and self.attempt.can_hint() and self.has_hints()

    def hint(self) -> Hint:
        """The next hint step (step 1, then step 2); each lowers the question's points.

        Raises :class:`QuizStateError` once the question is over, :class:`~musteach.teach.scoring.AttemptError`
        when both steps are shown, :class:`TypeError` for a question the tutor has no hints for.
        """
        if self.verdict is not None:
            raise QuizStateError(Text("no open question to hint at"))
        self.attempt.verify_hint()
        lang = translator().lang
        if lang not in self._hints:
            self._hints[lang] = question_hints(self.question)
        self.attempt = self.attempt.hint()
        return self._hints[lang][self.attempt.hints - 1]


class QuizSession:
    """The state of a run of ``n`` questions: the current question, the score, the streak, the history.

    source: a :class:`QuestionGenerator`, or any iterable of :class:`Question` (the run ends early if it runs out).
    n: how many questions must be answered to finish. A question skipped with :meth:`next` before it is
    answered (say, after an error) is not scored and does not count towards ``n``.
    tries: 1 (a wrong answer ends the question) or 2 (one more try after a wrong first answer).
    grade: ``grade(question, response) -> Verdict`` for every question (a practice source's), default each
    question's own ``grade``.

    ``attempt`` is the current question's :class:`~musteach.teach.scoring.Attempt` (hints and tries so far),
    ``retry`` the not-final verdict of a wrong first answer (None otherwise), ``points`` each finished
    question's points, ``hints_used`` and ``retries`` the run's totals. ``first``, ``second`` and ``shown`` count
    the finished questions by :class:`~musteach.teach.scoring.Outcome` (``right`` is ``first + second``;
    ``retries`` is ``second``); ``outcomes`` lists each one's. The streak counts first-try answers only.

    Bad responses raise (see :meth:`Question.verify_response`) and leave the state unchanged.
    """

    def __init__(
        self,
        source: QuestionGenerator | Iterable[Question],
        n: int = 10,
        *,
        tries: int = 1,
        grade: Callable[[Any, Any], Verdict] | None = None,
    ):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise QuizError(Text("a quiz needs a whole number of questions, 1 or more, not {n}", n=repr(n)))
        if tries not in (1, 2):
            raise QuizError(Text("tries must be 1 or 2, not {tries}", tries=repr(tries)))
        self.n = n
        self.tries = tries
        self._grade = grade
        self.turn: Turn | None = None
        self.points: list[float] = []
        self.hints_used = 0
        self.retries = 0
        self._source = source
        self._iter = iter(source)
        #: the next question, built ahead by :meth:`prefetch` (or the error building it raised), else None
        self._ahead: tuple[Question | None, Exception | None] | None = None
        self.history: list[tuple[Question, Verdict | None]] = []
        self.current: Question | None = None
        self.verdict: Verdict | None = None
        self.answered = 0
        self.right = 0
        self.first = self.second = self.shown = 0
        self.outcomes: list[Outcome] = []
        self.streak = 0
        self.best_streak = 0
        self.skipped = 0
        self.exhausted = False
        self._advance()

    def _fetch(self) -> Question | None:
        if self._ahead is not None:
            question, error = self._ahead
            self._ahead = None
            if error is not None:
                raise error
            return question
        return next(self._iter, None)  # a QuestionGenerator never runs out; its errors propagate

    def prefetch(self) -> None:
        """Build the next question now, while the learner reads a verdict, so that :meth:`next` (or
        :meth:`restart`) shows it at once. The questions and their order are those :meth:`next` would have
        built; an error building it is kept and raised by :meth:`next`, as it would have been then. Does
        nothing when the next question is already built or the source has run out."""
        if self._ahead is not None or self.exhausted:
            return
        try:
            self._ahead = (next(self._iter, None), None)
        except Exception as exc:  # raised where the learner asks for the question, not here
            self._ahead = (None, exc)

    def _advance(self) -> None:
        q = self._fetch()  # may raise: nothing has changed yet
        self.current = q
        self.verdict = None
        if q is None:
            self.turn = None
        elif self._grade is None:
            self.turn = Turn(q, tries=self.tries)
        else:
            grade = self._grade
            self.turn = Turn(q, tries=self.tries, grade=lambda response: grade(q, response))
        if q is None:
            self.exhausted = True

    @property
    def attempt(self) -> Attempt:
        """The current question's :class:`~musteach.teach.scoring.Attempt` (hints and tries so far)."""
        return self.turn.attempt if self.turn is not None else Attempt()

    @property
    def retry(self) -> Verdict | None:
        """The not-final verdict of a wrong first answer to the current question, else None."""
        return self.turn.retry if self.turn is not None else None

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
            raise QuizStateError(Text("the quiz is finished: start again for new questions"))
        if self.verdict is not None:
            raise QuizStateError(Text("this question is already answered: press Next for another"))
        assert self.turn is not None
        verdict = self.turn.answer(response)  # raises before any change
        if not self.turn.over:
            return verdict  # one more try: the question stays open
        outcome = self.turn.outcome
        assert outcome is not None
        self.points.append(self.attempt.points)
        self.outcomes.append(outcome)
        self.retries += int(outcome is Outcome.SECOND)
        self.verdict = verdict
        self.answered += 1
        self.right += int(verdict.correct)
        self.first += int(outcome is Outcome.FIRST)
        self.second += int(outcome is Outcome.SECOND)
        self.shown += int(outcome is Outcome.SHOWN)
        if outcome is Outcome.FIRST:
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0  # a second-try success breaks the streak too
        self.history.append((self.current, verdict))
        return verdict

    # ----- hints ---------------------------------------------------------------------------
    def can_hint(self) -> bool:
        """True if :meth:`hint` would give one more step now."""
        return self.can_answer() and self.turn is not None and self.turn.can_hint()

    def hint(self) -> Hint:
        """The next hint step for the current question (step 1, then step 2); each lowers its points.

        Raises :class:`QuizStateError` when there is no open question, and
        :class:`~musteach.teach.scoring.AttemptError` when both steps are shown.
        """
        if not self.can_answer() or self.turn is None:
            raise QuizStateError(Text("no open question to hint at"))
        hint = self.turn.hint()
        self.hints_used += 1
        return hint

    @property
    def stars(self) -> int:
        """Stars 0..3 the questions answered so far earn (:func:`~musteach.teach.scoring.stars_for`)."""
        return stars_for(self.points)

    def next(self) -> Question | None:
        """Move to the next question (an unanswered current question is skipped, not scored).

        Raises :class:`QuizStateError` if the run is finished.
        """
        if self.finished:
            raise QuizStateError(Text("the quiz is finished: start again for new questions"))
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
        self.first = self.second = self.shown = 0
        self.outcomes = []
        self.points = []
        self.hints_used = self.retries = 0
        self.exhausted = self.current is None
        return self.current

    def score_text(self, lang: str | None = None) -> str:
        """``"Score: 3/4 · streak 2"``: right answers at the first try out of those answered, and the current
        streak; ``"Score: 2/4 · 1 at the second try · streak 0"`` once a question was right at the second try.
        lang: the language (None: the one being spoken)."""
        _ = translator(lang)
        if self.second:
            return _(
                "Score: {first}/{answered} · {second} at the second try · streak {streak}",
                first=self.first,
                answered=self.answered,
                second=self.second,
                streak=self.streak,
            )
        return _(
            "Score: {right}/{answered} · streak {streak}", right=self.first, answered=self.answered, streak=self.streak
        )

    def progress_text(self, lang: str | None = None) -> str:
        """``"Question 3 of 10"``. lang: the language (None: the one being spoken)."""
        _ = translator(lang)
        return _("Question {number} of {n}", number=self.number, n=self.n)

    def summary(self, lang: str | None = None) -> str:
        """The message shown when the run is finished: ``"Finished: 8 of 10 at the first try, 2 at the second,
        0 shown (80%), best streak 5. Well done. ★★☆ (7.5 of 10 points; 2 hints, 2 second tries)."`` (with one try:
        ``"Finished: 8 of 10 right (80%), best streak 5. Well done."``). lang: the language (None: the one
        being spoken)."""
        _ = translator(lang)
        pct = round(100 * self.first / self.answered) if self.answered else 0
        clean = sum(self.points) == self.answered
        cheer = (
            _("Perfect!")
            if self.answered and self.first == self.answered and clean
            else _("Well done.")
            if pct >= 70
            else _("Keep practising.")
        )
        if self.tries == 2:
            text = _(
                "Finished: {counted}, best streak {best}. {cheer}",
                counted=outcomes_text(self.first, self.second, self.shown, lang=_.lang),
                best=self.best_streak,
                cheer=cheer,
            )
        else:
            text = _(
                "Finished: {right} of {answered} right ({pct}%), best streak {best}. {cheer}",
                right=self.first,
                answered=self.answered,
                pct=pct,
                best=self.best_streak,
                cheer=cheer,
            )
        if self.tries == 2 and self.answered:
            text += " " + points_text(self.points, self.hints_used, self.retries, lang=_.lang)
        return text
