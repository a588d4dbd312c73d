"""What a quiz run keeps, and practice's adaptive questions, for the one quiz loop (:mod:`musteach.teach.loop`).

* :class:`LessonKeeper` — a lesson's quiz (issue 23): each answer kept as a step of the run in progress (a reload
  resumes it), each finished question recorded for the scheduler and sent to the class, a finished run's stars.
* :class:`PracticeKeeper` and :class:`PracticeQuestions` — practice (lesson 11): each question's skill picked from
  the learner's progress, each answer a timed review of its skill.

Pure Python (no Jupyter import).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from ..i18n import translator
from ..rules import Rules
from ..rules.errors import MusError
from . import labels
from .loop import Feedback, Keeper, ProgressStore, QuestionSource, RecordSink
from .path import find_lesson, mark_opened, quiz_status_text, record_attempt
from .progress import Pick, Progress, Record, choose_skill, new_id
from .resume import current_index, encode_response
from .scoring import Attempt, round_text
from .session import QuizSession
from .tutor import skill_of
from .verdict import Verdict

__all__ = ["LessonKeeper", "PracticeKeeper", "PracticeQuestions", "SkillMaker", "utcnow"]


class SkillMaker(Protocol):
    """A family of practice questions (a practice ``SkillSource``): ``make`` one for a skill, ``grade`` one."""

    fast_ms: int

    def make(self, skill: str, rng: random.Random, rules: Rules) -> Any: ...

    def grade(self, question: Any, response: Any) -> Verdict: ...


@dataclass
class _Picked:
    pick: Pick
    maker: SkillMaker
    at: datetime


class PracticeQuestions(QuestionSource):
    """Practice's adaptive questions (lesson 11): each one's skill picked from the learner's progress
    (:func:`~musteach.teach.progress.choose_skill`: the weak and the due first), made by that skill's maker.

    makers: skill name → its :class:`SkillMaker`. skills: the names asked, in order. progress: a function giving
    the learner's progress now. clock: the current UTC time. Questions are never built ahead (each pick reads
    the progress after the last answer).
    """

    prefetch = False

    def __init__(
        self,
        makers: dict[str, SkillMaker],
        skills: Sequence[str],
        *,
        progress: Callable[[], Progress],
        rng: random.Random,
        rules: Rules,
        clock: Callable[[], datetime],
    ) -> None:
        self.makers = makers
        self.skills = tuple(skills)
        self.progress = progress
        self.rng = rng
        self.rules = rules
        self.clock = clock
        self.last_skill: str | None = None
        self.picked: dict[int, _Picked] = {}

    def questions(self, seed: int | None) -> Iterator[Any]:
        while True:
            now = self.clock()
            pick = choose_skill(self.progress(), self.skills, now, rng=self.rng, last=self.last_skill)
            self.last_skill = pick.skill  # a failure to build it does not make it come straight back
            maker = self.makers[pick.skill]
            question = maker.make(pick.skill, self.rng, self.rules)
            self.picked = {id(question): _Picked(pick, maker, now)}
            yield question

    def pick_of(self, question: Any) -> Pick | None:
        """The pick that asked ``question`` (its skill and why), or None."""
        got = self.picked.get(id(question))
        return None if got is None else got.pick

    def maker_of(self, question: Any) -> SkillMaker | None:
        """The maker of ``question``, or None."""
        got = self.picked.get(id(question))
        return None if got is None else got.maker

    def shown_at(self, question: Any) -> datetime | None:
        """When ``question`` was picked (and shown), or None."""
        got = self.picked.get(id(question))
        return None if got is None else got.at

    def grade(self, question: Any, response: Any) -> Verdict:
        maker = self.maker_of(question)
        return maker.grade(question, response) if maker is not None else super().grade(question, response)


class LessonKeeper(Keeper):
    """A lesson's quiz (issue 23): each answer kept as a step of the run in progress (a reload resumes it),
    each finished question recorded for the scheduler and sent to the class, a finished run's stars kept.

    lesson, quiz: the lesson (``"03-grande-chica"``) and its quiz; without both nothing is kept. Raises
    :class:`~musteach.teach.path.LessonError` for an unknown lesson or quiz.
    """

    def __init__(
        self,
        lesson: str | None,
        quiz: str | None,
        store: ProgressStore | None = None,
        sink: RecordSink | None = None,
    ) -> None:
        super().__init__(store, sink)
        self.lesson = find_lesson(lesson).name if lesson is not None else None
        self.quiz = quiz
        if self.lesson is not None and quiz is not None:
            find_lesson(self.lesson).quiz(quiz)  # raises LessonError for an unknown quiz name
        #: the run in progress (its id and question seed) when its answers are kept step by step, else None
        self.run_id = None
        self.run_seed: int | None = None

    @property
    def saving(self) -> bool:
        """True when this quiz's results are kept (a lesson and a quiz name)."""
        return self.lesson is not None and self.quiz is not None

    def keeps_runs(self) -> bool:
        return self.saving

    def open_run(self) -> tuple[Record, ...]:
        if self.lesson is None or self.quiz is None:
            return ()
        return self.learner.open_run(self.lesson, self.quiz)

    def run_started(self, session: QuizSession, seed: int | None) -> None:
        keeps = self.saving and seed is not None
        self.run_id = new_id() if keeps else None
        self.run_seed = seed if keeps else None

    def replayed(self, steps: Sequence[Record], done: int) -> bool:
        if self.run_id is None or self.lesson is None or self.quiz is None:
            return False
        for st in steps[:done]:
            d = st.data
            self.learner.record_step(
                self.lesson, self.quiz, self.run_id, seed=int(d["seed"]), n=int(d["n"]), q=int(d["q"]),
                given=d.get("given"), hints=int(d.get("hints", 0)), shown="given" not in d,
            )  # fmt: skip
        return True

    def shown(self, session: QuizSession) -> bool:
        if self.run_id is None or self.run_seed is None or session.current is None:
            return False
        assert self.lesson is not None and self.quiz is not None
        self.learner.record_step(
            self.lesson, self.quiz, self.run_id, seed=self.run_seed, n=session.n, q=current_index(session), shown=True
        )
        return True

    def step(self, session: QuizSession, response: Any) -> None:
        if self.run_id is None or self.run_seed is None or session.finished:
            return
        assert self.lesson is not None and self.quiz is not None
        try:
            given = encode_response(response)
        except MusError:
            return  # an answer that cannot be kept: the run is kept up to here
        self.learner.record_step(
            self.lesson, self.quiz, self.run_id, seed=self.run_seed, n=session.n, q=current_index(session),
            given=given, hints=session.attempt.hints,
        )  # fmt: skip

    def question_done(self, session: QuizSession, question: Any, attempt: Attempt) -> bool:
        if self.lesson is None or self.quiz is None:
            return False
        review = record_attempt(self.learner, skill_of(question), attempt)
        self.sink.answered(self.lesson, self.quiz, question, attempt, review.id)
        if session.finished:
            run = self.learner.record_run(
                self.lesson, self.quiz, session.points, session.stars, hints=session.hints_used,
                retries=session.retries, run_id=self.run_id or "",
            )  # fmt: skip
            self.sink.run_finished(run)
        return True

    def best_text(self) -> str:
        if self.lesson is None or self.quiz is None:
            return ""
        return quiz_status_text(self.learner, self.lesson, self.quiz)


class PracticeKeeper(Keeper):
    """Practice (lesson 11): each answer a review of its skill (timed from when it was shown, for the
    scheduler's Easy), sent to the class; the practice page marked as opened; the round's own score line."""

    not_saved = labels.NOT_SAVED_KEPT

    def __init__(
        self,
        source: PracticeQuestions,
        store: ProgressStore | None = None,
        sink: RecordSink | None = None,
        *,
        where: Callable[[], str] = lambda: "",
    ) -> None:
        super().__init__(store, sink)
        self.source = source
        self.where = where

    def question_done(self, session: QuizSession, question: Any, attempt: Attempt) -> bool:
        pick, maker, at = self.source.pick_of(question), self.source.maker_of(question), self.source.shown_at(question)
        if pick is None or maker is None or at is None:
            return False
        now = self.source.clock()
        ms = max(0, round((now - at).total_seconds() * 1000))
        review = record_attempt(self.learner, pick.skill, attempt, at=now, ms=ms, fast_ms=maker.fast_ms)
        self.sink.reviewed(pick.skill, attempt, review.id, ms)  # classes: to the teacher too
        mark_opened(self.learner, "11-practice")  # the lesson map shows the practice page as done
        return True

    def score_text(self, session: QuizSession) -> str:
        p = self.learner
        return translator()(
            labels.ROUND_SCORE, right=session.first, answered=session.answered, streak=p.streak, best=p.best_streak
        )

    def progress_text(self, session: QuizSession) -> str:
        return translator()(labels.QUESTION_OF_ROUND, n=session.number, total=session.n)

    def summary(self, session: QuizSession) -> Feedback:
        text = round_text(session.first, session.points, session.hints_used, session.retries)
        return Feedback("done", text, (translator()(labels.KEEP_PRACTISING, where=self.where()),))



def utcnow() -> datetime:
    """The current time in UTC (practice's default clock)."""
    return datetime.now(UTC)

