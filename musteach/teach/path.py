"""The learning path: the lessons in order, the quizzes each one holds, and the map a learner sees (issue 12).

Pure Python (no Jupyter import). A lesson's stars are the fewest best stars among its quizzes (each quiz's
best run is kept in :class:`~musteach.teach.progress.Progress`), so three stars on a lesson mean three on
every quiz of it. A lesson with quizzes is done once each of them was finished; a lesson without one (the
welcome page, the practice page) is done once opened; the play lesson (10) is also done once a whole game was
played there, at any level (issue 23). "Continue here" is the first lesson not done.

>>> from musteach.teach.progress import Progress
>>> p = Progress()
>>> _ = mark_opened(p, "00-welcome")
>>> _ = p.record_run("03-grande-chica", "grande", [1.0] * 10, 3)
>>> stops = lesson_map(p)
>>> [(s.lesson.name, s.stars, s.done, s.here) for s in stops[:4]]  # doctest: +NORMALIZE_WHITESPACE
[('00-welcome', 0, True, False), ('01-deck', 0, False, True), ('02-seats', 0, False, False),
 ('03-grande-chica', 0, False, False)]
>>> print(stops[3].status_text)
Grande 3 stars (1 run); Chica not finished yet
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from fsrs import Rating

from ..i18n import N_, Text, translator
from ..rules.errors import MusError
from .progress import FAST_MS, Progress, Review
from .scoring import Attempt, Outcome, stars_text

__all__ = [
    "LESSONS",
    "QUIZ_SKILLS",
    "Lesson",
    "LessonError",
    "MapStop",
    "OPENED",
    "QuizRef",
    "QuizStop",
    "find_lesson",
    "lesson_map",
    "mark_opened",
    "quiz_status_text",
    "record_attempt",
]


class LessonError(MusError):
    """An unknown lesson or quiz name (the message names it and lists the known ones)."""


@dataclass(frozen=True, slots=True)
class QuizRef:
    """One quiz of a lesson: ``name`` (an id unique within the lesson, e.g. ``"grande"``, never translated) and
    ``label_msgid`` (its English label, ``"Grande"``); :attr:`label` is the label in the language being spoken."""

    name: str
    label_msgid: str

    @property
    def label(self) -> str:
        """The quiz's label in the language being spoken: ``"Ties go to mano"``, ``"Los empates, para la mano"``."""
        return self.label_in()

    def label_in(self, lang: str | None = None) -> str:
        """The quiz's label in ``lang`` (None: the language being spoken)."""
        return translator(lang)(self.label_msgid)


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: ``name`` (the notebook's file name without ``.ipynb``: an id, never translated, that progress
    and stars are keyed by, so they are shared across languages), ``number``, ``title_msgid`` (the English title)
    and the ``quizzes`` whose runs earn its stars (none for a page without a graded quiz). :attr:`title` is the
    title in the language being spoken. games: True for the lesson whose step a finished game completes (10)."""

    name: str
    number: int
    title_msgid: str
    quizzes: tuple[QuizRef, ...] = ()
    games: bool = False

    @property
    def title(self) -> str:
        """The lesson's title in the language being spoken: ``"Grande and Chica"``, ``"La grande y la chica"``."""
        return self.title_in()

    def title_in(self, lang: str | None = None) -> str:
        """The lesson's title in ``lang`` (None: the language being spoken)."""
        return translator(lang)(self.title_msgid)

    @property
    def notebook(self) -> str:
        """The notebook's file name, relative to the lessons folder (a link from the index works as is,
        in JupyterLab and in Voilà alike, and from ``lessons/es/`` to the Spanish lesson of the same name)."""
        return f"{self.name}.ipynb"

    def quiz(self, name: str) -> QuizRef:
        """The quiz called ``name``; raises :class:`LessonError` naming it."""
        for q in self.quizzes:
            if q.name == name:
                return q
        if not self.quizzes:
            raise LessonError(
                Text("lesson {lesson} has no quiz {quiz} (its quizzes: none)", lesson=repr(self.name), quiz=repr(name))
            )
        known = ", ".join(q.name for q in self.quizzes)
        raise LessonError(
            Text(
                "lesson {lesson} has no quiz {quiz} (its quizzes: {known})",
                lesson=repr(self.name),
                quiz=repr(name),
                known=known,
            )
        )


def _q(*pairs: tuple[str, str]) -> tuple[QuizRef, ...]:
    return tuple(QuizRef(n, label) for n, label in pairs)


#: Every lesson, in order (the notebooks of ``lessons/``).
LESSONS: tuple[Lesson, ...] = (
    Lesson("00-welcome", 0, N_("Welcome to Mus")),
    Lesson("01-deck", 1, N_("The deck, ranks and values"), _q(("rank_order", N_("Ranks in order")))),
    Lesson("02-seats", 2, N_("Seats, mano and ties"), _q(("tie_to_mano", N_("Ties go to mano")))),
    Lesson("03-grande-chica", 3, N_("Grande and Chica"), _q(("grande", N_("Grande")), ("chica", N_("Chica")))),
    Lesson("04-pares", 4, N_("Pares"), _q(("jugada", N_("Name the jugada")), ("pares", N_("Pares")))),
    Lesson(
        "05-juego-punto",
        5,
        N_("Juego and Punto"),
        _q(("juego_total", N_("Totals")), ("juego", N_("Juego")), ("punto", N_("Punto"))),
    ),
    Lesson("06-betting", 6, N_("Betting"), _q(("betting", N_("Betting")))),
    Lesson("07-count", 7, N_("The count"), _q(("count", N_("The count")))),
    Lesson("08-mus", 8, N_("The mus and the discards"), _q(("mus", N_("Which cards to change")))),
    Lesson(
        "09-senas",
        9,
        N_("Señas, the table signals"),
        _q(("senas_fit", N_("Which seña fits")), ("senas_meaning", N_("What it means"))),
    ),
    Lesson("10-play", 10, N_("Play a hand with a coach"), _q(("mus_balanced", N_("Discards for the most stones"))), games=True),
    Lesson("11-practice", 11, N_("Practice")),
    Lesson("12-odds", 12, N_("Odds and the discard advisor"), _q(("odds", N_("Reading the odds")))),
)

#: The progress skill each quiz's answers are recorded under (what lesson 11's scheduler practises);
#: a quiz not listed records under its own name.
QUIZ_SKILLS: dict[str, str] = {
    "tie_to_mano": "grande",
    "senas_fit": "senas",
    "senas_meaning": "senas",
    "mus_balanced": "mus",
}


def find_lesson(name: str) -> Lesson:
    """The lesson called ``name`` (``"03-grande-chica"``, with or without ``.ipynb``); raises :class:`LessonError`."""
    stem = name[: -len(".ipynb")] if name.endswith(".ipynb") else name
    for lesson in LESSONS:
        if lesson.name == stem:
            return lesson
    raise LessonError(
        Text("unknown lesson {lesson}: use one of {known}", lesson=repr(name), known=", ".join(x.name for x in LESSONS))
    )


@dataclass(frozen=True, slots=True)
class QuizStop:
    """One quiz on the map: ``quiz``, ``stars`` (best, 0..3, or None when never finished) and ``runs``."""

    quiz: QuizRef
    stars: int | None
    runs: int


@dataclass(frozen=True, slots=True)
class MapStop:
    """One lesson on the map.

    lesson: the :class:`Lesson`. stars: 0..3, the fewest best stars among its quizzes (0 until each is
    finished; 0 for a lesson without quizzes). done: every quiz finished (or, without quizzes, opened).
    here: True for the one lesson the "continue here" link points at. quizzes: each quiz's :class:`QuizStop`.
    games: finished games counted for this lesson (only for a lesson with ``games``; 0 otherwise).
    """

    lesson: Lesson
    stars: int
    done: bool
    here: bool
    quizzes: tuple[QuizStop, ...]
    games: int = 0

    @property
    def status_text(self) -> str:
        """One line for the learner, in the language being spoken: each quiz's best stars and runs, or
        "not opened yet" (see :meth:`status_in`)."""
        return self.status_in()

    def status_in(self, lang: str | None = None) -> str:
        """:attr:`status_text` in ``lang`` (None: the language being spoken)."""
        _ = translator(lang)
        if not self.quizzes:
            return _("Read") if self.done else _("Not opened yet")
        parts = []
        for q in self.quizzes:
            label = q.quiz.label_in(_.lang)
            if q.stars is None:
                parts.append(_("{quiz} not finished yet", quiz=label))
            else:
                runs = _.ngettext("{n} run", "{n} runs", q.runs)
                parts.append(
                    _.ngettext("{quiz} {n} star ({runs})", "{quiz} {n} stars ({runs})", q.stars, quiz=label, runs=runs)
                )
        if self.games:
            parts.append(_.ngettext("{n} game played", "{n} games played", self.games))
        return "; ".join(parts)


#: The quiz name under which opening a lesson without quizzes is recorded (a run with no points asked).
OPENED = "opened"


def record_attempt(
    progress: Progress,
    skill: str,
    attempt: Attempt,
    *,
    at: datetime | None = None,
    ms: int | None = None,
    fast_ms: int = FAST_MS,
) -> Review:
    """Record one finished question for the spaced-repetition scheduler (lesson 11), by its
    :class:`~musteach.teach.scoring.Outcome`: right at the first try is right (rated Good, or Easy on a streak
    faster than ``fast_ms`` milliseconds; Hard after a hint); right at the second try is a lapse, recorded as
    not right and rated Again, so it breaks the streak and counts against the skill; shown is Again too.
    The attempt also carries what the answer record keeps (:attr:`~musteach.teach.scoring.Attempt.record_fields`:
    its tries, outcome and diagnosis tag). Raises :class:`~musteach.teach.progress.ProgressError` for a bad skill name."""
    fields = attempt.record_fields
    tries = _TRIES.get(str(fields["outcome"]))
    tag = fields["diagnosis"]
    diagnosis = tag if isinstance(tag, str) and 0 < len(tag) <= 64 else None
    # the answer record keeps its tries and diagnosis (issue 23)
    if attempt.clean:
        return progress.record(skill, True, at=at, ms=ms, fast_ms=fast_ms, tries=tries, diagnosis=diagnosis)
    if attempt.outcome is Outcome.FIRST:
        return progress.record(skill, True, at=at, ms=ms, rating=Rating.Hard, tries=tries, diagnosis=diagnosis)
    return progress.record(skill, False, at=at, ms=ms, rating=Rating.Again, tries=tries, diagnosis=diagnosis)


#: An attempt's outcome as the answer record's ``tries``: 1, 2 or "shown".
_TRIES: dict[str, int | str] = {"first": 1, "second": 2, "shown": "shown"}


def quiz_status_text(progress: Progress, lesson: str, quiz: str, *, lang: str | None = None) -> str:
    """What the learner has done in one quiz, for the line under its title: ``"Your best here: ★★☆ (2 runs)."``
    or ``"Not finished yet: finish a run to earn up to 3 stars."``. lesson and quiz are ids (the same in every
    language); lang: the language (None: the one being spoken)."""
    _ = translator(lang)
    best = progress.best_stars(lesson, quiz)
    if best is None:
        return _("Not finished yet: finish a run to earn up to 3 stars.")
    runs = progress.runs_done(lesson, quiz)
    return _.ngettext(
        "Your best here: {stars} ({n} run).", "Your best here: {stars} ({n} runs).", runs, stars=stars_text(best)
    )


def mark_opened(progress: Progress, lesson: str) -> bool:
    """Record that a lesson without quizzes was opened (a run of its :data:`OPENED` quiz, no stars), once.

    Returns True when it was recorded now, False when it already was or the lesson has quizzes.
    Raises :class:`LessonError` for an unknown lesson.
    """
    the = find_lesson(lesson)
    if the.quizzes or any(r.quiz == OPENED for r in progress.runs_of(the.name)):
        return False
    progress.record_run(the.name, OPENED, [1.0], 0)
    return True


def lesson_map(
    progress: Progress, lessons: Sequence[Lesson] = LESSONS, opened: Iterable[str] = ()
) -> tuple[MapStop, ...]:
    """The map of ``lessons`` for this learner, in order, with one stop marked "continue here".

    opened: names of lessons without quizzes already opened (besides those recorded in ``progress`` as a
    run of quiz :data:`OPENED`). When every lesson is done, "continue here" points at the lesson with the
    fewest stars (the first of them).
    """
    seen = set(opened) | {r.lesson for r in progress.runs if r.quiz == OPENED}
    seen |= {k.partition("/")[0] for k in progress.folded_runs if k.endswith("/" + OPENED)}
    stops = [_stop(progress, lesson, seen) for lesson in lessons]
    target = _continue_at(stops)
    if target is not None:
        s = stops[target]
        stops[target] = MapStop(s.lesson, s.stars, s.done, True, s.quizzes, s.games)
    return tuple(stops)


def _stop(progress: Progress, lesson: Lesson, seen: set[str]) -> MapStop:
    """One lesson's stop on the map (not yet marked "continue here"): its quizzes' stars, done when every quiz
    has stars (a lesson without quizzes: once ``seen``), or once a game was played at its table."""
    qs = tuple(
        QuizStop(q, progress.best_stars(lesson.name, q.name), progress.runs_done(lesson.name, q.name))
        for q in lesson.quizzes
    )
    if qs:
        done = all(q.stars is not None for q in qs)
        stars = min((q.stars or 0) for q in qs)
    else:
        done, stars = lesson.name in seen, 0
    games = len(progress.games) if lesson.games else 0
    return MapStop(lesson, stars, done or games > 0, False, qs, games)


def _continue_at(stops: Sequence[MapStop]) -> int | None:
    """Where to continue: the first stop not done; when all are, the graded stop with the fewest stars (the
    first of them), else the first stop; None for no stop."""
    target = next((i for i, s in enumerate(stops) if not s.done), None)
    if target is None and stops:
        graded = [i for i, s in enumerate(stops) if s.quizzes]
        target = min(graded, key=lambda i: stops[i].stars) if graded else 0
    return target
