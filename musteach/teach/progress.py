"""Practice progress: every answer a learner gives, per skill, and when each skill should come back.

Pure Python (no Jupyter import). A *skill* is any short name (``"grande"``, ``"jugada"``, ``"betting"``...);
each is one card of the FSRS spaced-repetition scheduler (the :mod:`fsrs` package): a right answer is
rated ``Good`` (``Easy`` on a fast streak), a wrong one ``Again``, and FSRS says when the skill is due again.
A failed skill comes back within minutes; a skill answered well waits days.

The progress keeps each skill's answers (:class:`Review`), so two copies of the progress merge without
losing anything (the union of their answers, replayed through FSRS). Only the last :data:`HISTORY_LIMIT`
answers of a skill are kept; older ones are folded into the skill's base (its FSRS card and all-time
counts), so the saved progress stays small (a few tens of kilobytes however long the learner practises).
It also keeps every finished quiz run of every lesson (:class:`QuizRun`: its points, stars, hints and second
tries; the best stars are what the lesson map shows), and the time of the last reset (answers and runs from
before it are dropped, also when an older copy is merged in). It reads and writes a versioned, compact JSON
document (:data:`SCHEMA_VERSION`; version 1 and 2 documents are migrated on reading); :class:`FileStore` keeps it in a file in the user's data folder, written atomically
under a file lock.

>>> from datetime import datetime, timedelta, timezone
>>> t = datetime(2025, 3, 1, 18, 0, tzinfo=timezone.utc)
>>> p = Progress()
>>> _ = p.record("grande", True, at=t)
>>> _ = p.record("chica", False, at=t + timedelta(seconds=20))
>>> [p.due(s) - p.card(s).last_review for s in ("chica", "grande")]  # failed: back in 1 min; right: in 10
[datetime.timedelta(seconds=60), datetime.timedelta(seconds=600)]
>>> p.answered(), p.right(), p.streak
(2, 1, 0)
>>> Progress.from_json(p.to_json()) == p
True
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import re
import sys
import tempfile
import uuid
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler

from ..i18n import N_, Text, plural_text, translator
from ..rules.errors import MusError

__all__ = [
    "FAST_MS",
    "HISTORY_LIMIT",
    "NEW_SHARE",
    "NEW_WEIGHT",
    "OLDEST_READABLE_VERSION",
    "RECENT",
    "SCHEMA",
    "SCHEMA_VERSION",
    "FileStore",
    "GameResult",
    "MemoryStore",
    "Pick",
    "Progress",
    "ProgressError",
    "ProgressSchemaError",
    "QuizRun",
    "RUN_LIMIT",
    "Review",
    "SkillRecord",
    "choose_skill",
    "default_progress_path",
    "describe_due",
    "rating_for",
    "skill_weights",
]

#: The ``schema`` field of every progress document.
SCHEMA = "musteach-progress"
#: The version of the JSON layout this module writes (it also reads version 1, migrating it).
#: Version 2: each answer is a list ``[at, rating, ms, id]`` (right = rating above 1), and at most
#: :data:`HISTORY_LIMIT` answers per skill. Version 1: each answer an object, up to 200 per skill.
#: Version 3 adds ``runs`` (finished quiz runs, see :class:`QuizRun`), ``folded_runs`` and ``reset_at``;
#: a version 2 document reads as one without runs.
SCHEMA_VERSION = 3
#: The oldest schema version this module still reads (migrating it to :data:`SCHEMA_VERSION`).
OLDEST_READABLE_VERSION = 1
#: Answers kept per skill; older ones are folded into the skill's base (its FSRS card and counts).
HISTORY_LIMIT = 50
#: Finished quiz runs kept; older ones are folded into ``folded_runs`` (best stars and run count per quiz).
RUN_LIMIT = 200
#: How many recent answers the mastery figure looks at (and how many right ones a full bar needs: half).
RECENT = 10
#: A right answer this fast (milliseconds), making a streak of 3 on the skill, is rated Easy.
FAST_MS = 15_000

Where = Text | str
"""Where in a progress document a bad value is (``skill 'grande', review 3``), named in the error's language."""

_REVIEW = Text("review")
_RUN = Text("run")
_GAME = Text("game")

_SKILL_RE = re.compile(r"^[a-z][a-z0-9_.-]{0,63}$")
_UTC = UTC


class ProgressError(MusError):
    """A progress document that cannot be read: not JSON, not musteach progress, or a bad field (named)."""


class ProgressSchemaError(ProgressError):
    """A progress document written with a schema version this musteach does not read (older or newer)."""

    def __init__(self, message: Text | str, version: object):
        super().__init__(message)
        self.version = version


def _scheduler() -> Scheduler:
    return Scheduler(enable_fuzzing=False)  # deterministic: a card is a pure function of its answers


#: The FSRS scheduler every skill card uses (default FSRS-6 weights, 90% retention, no fuzz).
SCHEDULER = _scheduler()


def scheduler_key(scheduler: Scheduler) -> str:
    """A key naming a scheduler by its settings (two schedulers with the same settings schedule alike)."""
    return json.dumps(scheduler.to_dict(), sort_keys=True)


def _now() -> datetime:
    return datetime.now(_UTC)


def _utc(value: datetime, where: Where = "time") -> datetime:
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise ProgressError(
            Text("{where} must be a timezone-aware date and time, not {value}", where=where, value=repr(value))
        )
    return value.astimezone(_UTC)


def _parse_time(value: object, where: Where) -> datetime:
    if not isinstance(value, str):
        raise ProgressError(
            Text(
                "{where} must be a date and time such as '2025-03-01T18:00:00+00:00', not {value}",
                where=where,
                value=repr(value),
            )
        )
    try:
        t = datetime.fromisoformat(value)
    except ValueError:
        raise ProgressError(
            Text(
                "{where} must be a date and time such as '2025-03-01T18:00:00+00:00', not {value}",
                where=where,
                value=repr(value),
            )
        ) from None
    if t.tzinfo is None:
        raise ProgressError(Text("{where} needs a time zone (e.g. '+00:00'): {value}", where=where, value=repr(value)))
    return t.astimezone(_UTC)


def _check_skill(skill: object) -> str:
    if not isinstance(skill, str) or not _SKILL_RE.match(skill):
        raise ProgressError(
            Text(
                "a skill name is 1 to 64 lower-case letters, digits, '_', '.' or '-', starting with a letter, not {skill}",
                skill=repr(skill),
            )
        )
    return skill


def _new_card(skill: str) -> FsrsCard:
    # a stable id (fsrs would otherwise use the clock and sleep a millisecond)
    return FsrsCard(card_id=zlib.crc32(skill.encode()) + 1, due=datetime(2000, 1, 1, tzinfo=_UTC))


# ----------------------------------------------------------------------------------------------
# Answers and skills
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Review:
    """One answer: when (``at``, UTC), right or not, the FSRS rating it was given, and how long it took.

    id: a unique name (merging two progress copies keeps one of each id). rating: 1 Again, 2 Hard, 3 Good,
    4 Easy (:class:`fsrs.Rating`); a wrong answer is always Again. ms: milliseconds to answer, or None.
    """

    at: datetime
    id: str
    correct: bool = field(compare=False)
    rating: int = field(compare=False)
    ms: int | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "at": self.at.isoformat(), "correct": self.correct, "rating": self.rating, "ms": self.ms}

    def to_list(self) -> list[Any]:
        """The compact form of schema version 2: ``[at, rating, ms, id]`` (right is ``rating > 1``)."""
        return [self.at.isoformat(), self.rating, self.ms, self.id]

    @classmethod
    def from_list(cls, data: object, where: Where = _REVIEW) -> Review:
        """A review from its compact form ``[at, rating, ms, id]``; raises :class:`ProgressError`."""
        if not isinstance(data, list) or len(data) != 4:
            raise ProgressError(
                Text(
                    "{where} must be a list [time, rating, milliseconds, id], not {data}", where=where, data=repr(data)
                )
            )
        at, rating, ms, rid = data
        correct = rating != Rating.Again if isinstance(rating, int) and not isinstance(rating, bool) else None
        return cls.from_dict({"id": rid, "at": at, "correct": correct, "rating": rating, "ms": ms}, where)

    @classmethod
    def from_dict(cls, data: object, where: Where = _REVIEW) -> Review:
        """A review from its JSON form; raises :class:`ProgressError` naming the bad field."""
        if not isinstance(data, Mapping):
            raise ProgressError(
                Text("{where} must be an object with id, at, correct, rating, not {data}", where=where, data=repr(data))
            )
        rid = data.get("id")
        if not isinstance(rid, str) or not 1 <= len(rid) <= 64:
            raise ProgressError(Text("{where}: 'id' must be a short text, not {rid}", where=where, rid=repr(rid)))
        at = _parse_time(data.get("at"), Text("{where}: 'at'", where=where))
        rating = data.get("rating")
        if isinstance(rating, bool) or rating not in (1, 2, 3, 4):
            raise ProgressError(
                Text(
                    "{where}: 'rating' must be 1 (again), 2 (hard), 3 (good) or 4 (easy), not {rating}",
                    where=where,
                    rating=repr(rating),
                )
            )
        correct = data.get("correct")
        if not isinstance(correct, bool):
            raise ProgressError(
                Text("{where}: 'correct' must be true or false, not {correct}", where=where, correct=repr(correct))
            )
        if correct == (rating == Rating.Again):
            if correct:
                raise ProgressError(
                    Text("{where}: a right answer cannot be rated {rating}", where=where, rating=rating)
                )
            raise ProgressError(Text("{where}: a wrong answer cannot be rated {rating}", where=where, rating=rating))
        ms = data.get("ms")
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, int) or ms < 0):
            raise ProgressError(
                Text("{where}: 'ms' must be a whole number of milliseconds or null, not {ms}", where=where, ms=repr(ms))
            )
        return cls(at, rid, correct, rating, ms)


@dataclass(frozen=True, slots=True)
class SkillRecord:
    """One skill's progress: its recent answers, and a base folding in any older ones.

    reviews: the kept answers, oldest first (at most :data:`HISTORY_LIMIT`).
    base_card: the FSRS card (as :meth:`fsrs.Card.to_dict`) before ``reviews[0]``, or None for a fresh card.
    base_answered, base_right: answers folded into the base; base_until: the time of the last of them, or None.
    """

    skill: str
    reviews: tuple[Review, ...] = ()
    base_card: Mapping[str, Any] | None = None
    base_answered: int = 0
    base_right: int = 0
    base_until: datetime | None = None
    # FSRS cards by scheduler_key(scheduler): by the scheduler's settings, never by id() (ids are reused)
    _cache: dict[str, FsrsCard] = field(default_factory=dict, compare=False, repr=False, hash=False)

    @property
    def answered(self) -> int:
        return self.base_answered + len(self.reviews)

    @property
    def right(self) -> int:
        return self.base_right + sum(r.correct for r in self.reviews)

    @property
    def last(self) -> Review | None:
        return self.reviews[-1] if self.reviews else None

    def card(self, scheduler: Scheduler = SCHEDULER) -> FsrsCard:
        """The skill's FSRS card: the base card with every kept answer replayed in time order."""
        key = scheduler_key(scheduler)
        if key not in self._cache:
            card = _new_card(self.skill) if self.base_card is None else FsrsCard.from_dict(dict(self.base_card))  # type: ignore[arg-type]
            for r in self.reviews:
                card, _ = scheduler.review_card(card, Rating(r.rating), review_datetime=r.at, review_duration=r.ms)
            self._cache[key] = card
        return self._cache[key]

    def with_reviews(self, reviews: Iterable[Review], scheduler: Scheduler = SCHEDULER) -> SkillRecord:
        """A record with these answers (sorted, de-duplicated by id, those folded in the base dropped),
        folding the oldest into the base when there are more than :data:`HISTORY_LIMIT`."""
        seen: dict[str, Review] = {}
        for r in reviews:
            if self.base_until is None or r.at > self.base_until:
                seen.setdefault(r.id, r)
        kept = sorted(seen.values())
        rec = SkillRecord(self.skill, tuple(kept), self.base_card, self.base_answered, self.base_right, self.base_until)
        if len(kept) <= HISTORY_LIMIT:
            return rec
        old, keep = kept[: len(kept) - HISTORY_LIMIT], kept[len(kept) - HISTORY_LIMIT :]
        folded = SkillRecord(self.skill, tuple(old), self.base_card).card(scheduler)
        return SkillRecord(
            self.skill,
            tuple(keep),
            folded.to_dict(),
            self.base_answered + len(old),
            self.base_right + sum(r.correct for r in old),
            old[-1].at,
        )

    def merge(self, other: SkillRecord, scheduler: Scheduler = SCHEDULER) -> SkillRecord:
        """The union of both records' answers (the base that folds in more wins)."""
        if other.skill != self.skill:
            raise ProgressError(
                Text("cannot merge skill {skill} with {other}", skill=repr(self.skill), other=repr(other.skill))
            )
        if self.reviews == other.reviews and self.base_until == other.base_until:
            return self
        a, b = (self, other)
        if (b.base_until or datetime.min.replace(tzinfo=_UTC)) > (a.base_until or datetime.min.replace(tzinfo=_UTC)):
            a, b = b, a
        return a.with_reviews(a.reviews + b.reviews, scheduler)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reviews": [r.to_list() for r in self.reviews]}
        if self.base_until is not None:
            out["base"] = {
                "card": dict(self.base_card or {}),
                "answered": self.base_answered,
                "right": self.base_right,
                "until": self.base_until.isoformat(),
            }
        return out

    @classmethod
    def from_dict(cls, skill: str, data: object, version: int = SCHEMA_VERSION) -> SkillRecord:
        """A skill record from its JSON form (answers as lists in version 2, objects in version 1; a longer
        history than :data:`HISTORY_LIMIT` is folded into the base, keeping the totals); raises
        :class:`ProgressError` naming the bad field."""
        where = Text("skill {skill}", skill=repr(skill))
        if not isinstance(data, Mapping):
            raise ProgressError(
                Text("{where} must be an object with a list of reviews, not {data}", where=where, data=repr(data))
            )
        raw = data.get("reviews", [])
        if not isinstance(raw, list):
            raise ProgressError(Text("{where}: 'reviews' must be a list, not {raw}", where=where, raw=repr(raw)))
        read = Review.from_list if version >= 2 else Review.from_dict
        reviews = [read(r, Text("{where}, review {n}", where=where, n=i + 1)) for i, r in enumerate(raw)]
        base = data.get("base")
        if base is None:
            return cls(skill).with_reviews(reviews)
        if not isinstance(base, Mapping):
            raise ProgressError(Text("{where}: 'base' must be an object, not {base}", where=where, base=repr(base)))
        answered, right = base.get("answered"), base.get("right")
        for name, v in (("answered", answered), ("right", right)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ProgressError(
                    Text(
                        "{where}: base '{name}' must be a whole number ≥ 0, not {v}", where=where, name=name, v=repr(v)
                    )
                )
        if right > answered:  # type: ignore[operator]
            raise ProgressError(
                Text(
                    "{where}: base has {right} right answers out of only {answered}",
                    where=where,
                    right=right,
                    answered=answered,
                )
            )
        card = base.get("card")
        try:
            FsrsCard.from_dict(card)  # type: ignore[arg-type]
        except Exception:
            raise ProgressError(
                Text("{where}: base 'card' is not an FSRS card: {card}", where=where, card=repr(card))
            ) from None
        until = _parse_time(base.get("until"), Text("{where}: base 'until'", where=where))
        return cls(skill, (), dict(card), answered, right, until).with_reviews(reviews)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------------------------
# Quiz runs
# ----------------------------------------------------------------------------------------------

_KEY_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")


def _check_key(value: object, what: str) -> str:
    if not isinstance(value, str) or not _KEY_RE.match(value):
        if what == "lesson":
            raise ProgressError(
                Text(
                    "a lesson name is 1 to 64 lower-case letters, digits, '_', '.' or '-', not {value}",
                    value=repr(value),
                )
            )
        raise ProgressError(
            Text("a quiz name is 1 to 64 lower-case letters, digits, '_', '.' or '-', not {value}", value=repr(value))
        )
    return value


def _count(value: object, where: Where, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ProgressError(
            Text("{where} must be a whole number ≥ {least}, not {value}", where=where, least=least, value=repr(value))
        )
    return value


@dataclass(frozen=True, slots=True, order=True)
class QuizRun:
    """One finished run of a lesson's quiz (issue 12).

    at: when it finished (UTC). id: a unique name (merging keeps one of each). lesson: the lesson's name
    (``"03-grande-chica"``). quiz: the quiz's name within the lesson (``"grande"``). points: the questions'
    points summed (each 0..1, see :mod:`musteach.teach.scoring`). questions: how many. stars: 0..3, as earned.
    hints: hint steps used in all. retries: questions answered right at the second try.
    """

    at: datetime
    id: str
    lesson: str = field(compare=False)
    quiz: str = field(compare=False)
    points: float = field(compare=False)
    questions: int = field(compare=False)
    stars: int = field(compare=False)
    hints: int = field(default=0, compare=False)
    retries: int = field(default=0, compare=False)

    @property
    def key(self) -> str:
        """``"<lesson>/<quiz>"``."""
        return f"{self.lesson}/{self.quiz}"

    def to_list(self) -> list[Any]:
        """``[at, id, lesson, quiz, points, questions, stars, hints, retries]``."""
        pts = round(self.points, 3)
        return [
            self.at.isoformat(),
            self.id,
            self.lesson,
            self.quiz,
            pts,
            self.questions,
            self.stars,
            self.hints,
            self.retries,
        ]

    @classmethod
    def from_list(cls, data: object, where: Where = _RUN) -> QuizRun:
        """A run from :meth:`to_list`'s form; raises :class:`ProgressError` naming the bad field."""
        if not isinstance(data, list) or len(data) != 9:
            raise ProgressError(
                Text(
                    "{where} must be a list [time, id, lesson, quiz, points, questions, stars, hints, retries], not {data}",
                    where=where,
                    data=repr(data),
                )
            )
        at, rid, lesson, quiz, points, questions, stars, hints, retries = data
        if not isinstance(rid, str) or not 1 <= len(rid) <= 64:
            raise ProgressError(Text("{where}: the id must be a short text, not {rid}", where=where, rid=repr(rid)))
        n = _count(questions, Text("{where}: 'questions'", where=where), 1)
        if isinstance(points, bool) or not isinstance(points, int | float) or not 0 <= points <= n:
            raise ProgressError(
                Text(
                    "{where}: 'points' must be a number from 0 to {n}, not {points}",
                    where=where,
                    n=n,
                    points=repr(points),
                )
            )
        if _count(stars, Text("{where}: 'stars'", where=where)) > 3:
            raise ProgressError(Text("{where}: 'stars' must be 0 to 3, not {stars}", where=where, stars=repr(stars)))
        return cls(
            _parse_time(at, Text("{where}: 'at'", where=where)),
            rid,
            _check_key(lesson, "lesson"),
            _check_key(quiz, "quiz"),
            float(points),
            n,
            stars,
            _count(hints, Text("{where}: 'hints'", where=where)),
            _count(retries, Text("{where}: 'retries'", where=where)),
        )


def _read_folded(raw: object) -> dict[str, tuple[int, int]]:
    if not isinstance(raw, Mapping):
        raise ProgressError(Text("'folded_runs' must be an object of quiz names, not {raw}", raw=repr(raw)))
    out: dict[str, tuple[int, int]] = {}
    for key, v in raw.items():
        lesson, _, quiz = str(key).partition("/")
        _check_key(lesson, "lesson"), _check_key(quiz, "quiz")
        if not isinstance(v, list) or len(v) != 2:
            raise ProgressError(Text("folded run {key} must be [best stars, runs], not {v}", key=repr(key), v=repr(v)))
        best, runs = (
            _count(v[0], Text("folded run {key}: stars", key=repr(key))),
            _count(v[1], Text("folded run {key}: runs", key=repr(key)), 1),
        )
        if best > 3:
            raise ProgressError(Text("folded run {key}: stars must be 0 to 3, not {best}", key=repr(key), best=best))
        out[key] = (best, runs)
    return out


# ----------------------------------------------------------------------------------------------
# The progress
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game at the play table (lesson 10), for the learner's record of games.

    id: a unique id (so two copies of the progress merge without doubles). at: when it ended (UTC).
    decisions: the learner's graded decisions. stones_lost: their stones lost in all (0.1 stone).
    won: True when the learner's team won the game. level: the opponents' level ("beginner", "club",
    "strong", or the bot's kind).
    """

    id: str
    at: datetime
    decisions: int
    stones_lost: float
    won: bool
    level: str = ""

    @property
    def error_rate(self) -> float:
        """Stones lost per decision (0.0 without a decision)."""
        return self.stones_lost / self.decisions if self.decisions else 0.0

    def to_list(self) -> list[Any]:
        return [self.id, self.at.isoformat(), self.decisions, self.stones_lost, self.won, self.level]

    @classmethod
    def from_list(cls, data: object, where: Where = _GAME) -> GameResult:
        """Read ``[id, at, decisions, stones_lost, won, level]``; raises :class:`ProgressError` naming the field."""
        if not isinstance(data, list | tuple) or len(data) != 6:
            raise ProgressError(
                Text(
                    "{where} must be [id, at, decisions, stones_lost, won, level], not {data}",
                    where=where,
                    data=repr(data),
                )
            )
        gid, at, n, lost, won, level = data
        if not isinstance(gid, str) or not gid:
            raise ProgressError(Text("{where}: the id must be a text, not {gid}", where=where, gid=repr(gid)))
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ProgressError(Text("{where}: decisions must be a whole number ≥ 0, not {n}", where=where, n=repr(n)))
        if isinstance(lost, bool) or not isinstance(lost, int | float) or not math.isfinite(lost) or lost < 0:
            raise ProgressError(
                Text("{where}: stones_lost must be a number ≥ 0, not {lost}", where=where, lost=repr(lost))
            )
        if not isinstance(won, bool) or not isinstance(level, str):
            raise ProgressError(
                Text(
                    "{where}: won must be true or false and level a text, not {won}, {level}",
                    where=where,
                    won=repr(won),
                    level=repr(level),
                )
            )
        return cls(gid, _parse_time(at, Text("{where}.at", where=where)), n, float(lost), won, level)


class Progress:
    """Everything one learner has practised: a :class:`SkillRecord` per skill, the best streak, and the
    finished quiz runs of every lesson.

    skills: records by skill name (skills this version does not know are kept as they are).
    runs: finished :class:`QuizRun` records (at most :data:`RUN_LIMIT`; older ones are folded into
    ``folded_runs``: ``{"<lesson>/<quiz>": (best stars, runs)}``). reset_at: the last reset (UTC), or None.
    scheduler: the :class:`fsrs.Scheduler` (default :data:`SCHEDULER`).
    Equality compares the answers, runs and best streak, not object identity.
    """

    def __init__(
        self,
        skills: Mapping[str, SkillRecord] | None = None,
        best_streak: int = 0,
        *,
        scheduler: Scheduler | None = None,
        games: Iterable[GameResult] = (),
        runs: Iterable[QuizRun] = (),
        folded_runs: Mapping[str, tuple[int, int]] | None = None,
        reset_at: datetime | None = None,
    ):
        self.scheduler = scheduler or SCHEDULER
        self.skills: dict[str, SkillRecord] = dict(skills or {})
        self._best = best_streak
        self.games: tuple[GameResult, ...] = tuple(
            sorted({g.id: g for g in games}.values(), key=lambda g: (g.at, g.id))
        )
        self.reset_at = reset_at
        self.folded_runs: dict[str, tuple[int, int]] = dict(folded_runs or {})
        self.runs: tuple[QuizRun, ...] = ()
        self._set_runs(runs)

    def _set_runs(self, runs: Iterable[QuizRun]) -> None:
        seen: dict[str, QuizRun] = {}
        for r in runs:
            if self.reset_at is None or r.at > self.reset_at:
                seen.setdefault(r.id, r)
        kept = sorted(seen.values())
        old, kept = kept[: max(0, len(kept) - RUN_LIMIT)], kept[max(0, len(kept) - RUN_LIMIT) :]
        for r in old:
            best, n = self.folded_runs.get(r.key, (0, 0))
            self.folded_runs[r.key] = (max(best, r.stars), n + 1)
        self.runs = tuple(kept)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Progress):
            return NotImplemented
        mine = {k: v for k, v in self.skills.items() if v.answered}
        theirs = {k: v for k, v in other.skills.items() if v.answered}
        same_runs = self.runs == other.runs and self.folded_runs == other.folded_runs
        return (
            mine == theirs
            and self.best_streak == other.best_streak
            and self.games == other.games
            and same_runs
            and self.reset_at == other.reset_at
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Progress: {self.answered()} answers, {self.right()} right, {len(self.skills)} skills>"

    # ----- questions about one skill -------------------------------------------------------
    def record_of(self, skill: str) -> SkillRecord:
        """The skill's record (an empty one for a skill never answered)."""
        return self.skills.get(skill) or SkillRecord(_check_skill(skill))

    def is_new(self, skill: str) -> bool:
        """True for a skill never answered."""
        return self.record_of(skill).answered == 0

    def card(self, skill: str) -> FsrsCard:
        """The skill's FSRS card (a fresh card, due at once, for a new skill)."""
        return self.record_of(skill).card(self.scheduler)

    def due(self, skill: str) -> datetime:
        """When the skill is due again (UTC); long past for a new skill."""
        return self.card(skill).due

    def retrievability(self, skill: str, now: datetime | None = None) -> float:
        """FSRS's chance (0..1) that the learner still gets the skill right now (0 for a new skill)."""
        return float(self.scheduler.get_card_retrievability(self.card(skill), _utc(now or _now())))

    def recent(self, skill: str, n: int = RECENT) -> tuple[Review, ...]:
        """The skill's last ``n`` answers, oldest first."""
        return self.record_of(skill).reviews[-n:]

    def mastery(self, skill: str, now: datetime | None = None) -> float:
        """A 0..1 mastery figure: the share right of the last :data:`RECENT` answers (counting at least
        half of them, so a full bar needs 5 right), times the FSRS retrievability (it fades with time)."""
        recent = self.recent(skill)
        if not recent:
            return 0.0
        share = sum(r.correct for r in recent) / max(len(recent), RECENT // 2)
        return share * self.retrievability(skill, now)

    def skill_streak(self, skill: str) -> int:
        """Right answers in a row on this skill, up to its last answer."""
        n = 0
        for r in reversed(self.record_of(skill).reviews):
            if not r.correct:
                break
            n += 1
        return n

    def answered(self, skill: str | None = None) -> int:
        """Answers given, on one skill or all."""
        if skill is not None:
            return self.record_of(skill).answered
        return sum(r.answered for r in self.skills.values())

    def right(self, skill: str | None = None) -> int:
        """Right answers, on one skill or all."""
        if skill is not None:
            return self.record_of(skill).right
        return sum(r.right for r in self.skills.values())

    def reviews(self) -> list[tuple[str, Review]]:
        """Every kept answer as ``(skill, review)``, oldest first."""
        return sorted(((s, r) for s, rec in self.skills.items() for r in rec.reviews), key=lambda x: (x[1].at, x[1].id))

    def review_ids(self) -> set[str]:
        return {r.id for rec in self.skills.values() for r in rec.reviews}

    @property
    def streak(self) -> int:
        """Right answers in a row, over all skills, up to the latest answer."""
        n = 0
        for _, r in reversed(self.reviews()):
            if not r.correct:
                break
            n += 1
        return n

    @property
    def best_streak(self) -> int:
        """The longest run of right answers ever (kept even when old answers are folded away)."""
        best = run = 0
        for _, r in self.reviews():
            run = run + 1 if r.correct else 0
            best = max(best, run)
        return max(self._best, best)

    @property
    def last_answer_at(self) -> datetime | None:
        rs = self.reviews()
        return rs[-1][1].at if rs else None

    # ----- changes -------------------------------------------------------------------------
    def record(
        self,
        skill: str,
        correct: bool,
        *,
        at: datetime | None = None,
        ms: int | None = None,
        rating: Rating | int | None = None,
        fast_ms: int = FAST_MS,
    ) -> Review:
        """Add one answer and return it. rating: default :func:`rating_for` (Again / Good / Easy).

        Raises :class:`ProgressError` for a bad skill name, time, duration or a rating that contradicts
        ``correct``.
        """
        _check_skill(skill)
        if not isinstance(correct, bool):
            raise ProgressError(Text("correct must be True or False, not {correct}", correct=repr(correct)))
        at = _utc(at or _now(), "at")
        if ms is not None:
            ms = max(0, int(ms))
        rating = rating_for(self, skill, correct, ms, fast_ms) if rating is None else Rating(int(rating))
        review = Review.from_dict(
            {"id": uuid.uuid4().hex[:16], "at": at.isoformat(), "correct": correct, "rating": int(rating), "ms": ms}
        )
        rec = self.record_of(skill)
        self.skills[skill] = rec.with_reviews((*rec.reviews, review), self.scheduler)
        self._best = self.best_streak
        return review

    # ----- quiz runs -----------------------------------------------------------------------
    def record_run(
        self,
        lesson: str,
        quiz: str,
        points: Sequence[float],
        stars: int,
        *,
        hints: int = 0,
        retries: int = 0,
        at: datetime | None = None,
    ) -> QuizRun:
        """Add one finished quiz run and return it.

        points: each question's points (0..1, see :mod:`musteach.teach.scoring`). stars: 0..3 earned.
        Raises :class:`ProgressError` for a bad lesson or quiz name, an empty run or a bad figure.
        """
        values = [float(p) for p in points]
        if not values or any(not 0.0 <= p <= 1.0 for p in values):
            raise ProgressError(
                Text("a quiz run needs 1 or more question points, each 0 to 1, not {points}", points=repr(list(points)))
            )
        run = QuizRun.from_list(
            [
                _utc(at or _now(), "at").isoformat(),
                uuid.uuid4().hex[:16],
                lesson,
                quiz,
                round(sum(values), 3),
                len(values),
                stars,
                hints,
                retries,
            ]
        )
        self._set_runs((*self.runs, run))
        return run

    def runs_of(self, lesson: str, quiz: str | None = None) -> tuple[QuizRun, ...]:
        """The kept runs of one lesson (or of one of its quizzes), oldest first."""
        return tuple(r for r in self.runs if r.lesson == lesson and (quiz is None or r.quiz == quiz))

    def best_stars(self, lesson: str, quiz: str) -> int | None:
        """The best stars any run of this quiz earned, or None when it was never finished."""
        stars = [r.stars for r in self.runs_of(lesson, quiz)]
        folded = self.folded_runs.get(f"{lesson}/{quiz}")
        if folded is not None:
            stars.append(folded[0])
        return max(stars) if stars else None

    def runs_done(self, lesson: str, quiz: str) -> int:
        """How many runs of this quiz were finished (kept and folded)."""
        return len(self.runs_of(lesson, quiz)) + self.folded_runs.get(f"{lesson}/{quiz}", (0, 0))[1]

    # ----- merging and resetting ------------------------------------------------------------
    def merge(self, other: Progress) -> Progress:
        """A new progress holding every answer and run of both (a union by id; nothing is lost), except what
        came before the later reset of the two."""
        reset = max((t for t in (self.reset_at, other.reset_at) if t is not None), default=None)
        skills = dict(self.skills)
        for name, rec in other.skills.items():
            skills[name] = skills[name].merge(rec, self.scheduler) if name in skills else rec
        best = max(
            self.best_streak if self.reset_at == reset else 0, other.best_streak if other.reset_at == reset else 0
        )
        folded = dict(self.folded_runs) if self.reset_at == reset else {}
        if other.reset_at == reset:
            for k, (b, n) in other.folded_runs.items():
                fb, fn = folded.get(k, (0, 0))
                folded[k] = (max(b, fb), max(n, fn))
        if reset is not None:
            skills = {k: _after(rec, reset, self.scheduler) for k, rec in skills.items()}
        games = [g for g in (*self.games, *other.games) if reset is None or g.at > reset]
        merged = Progress(skills, 0, scheduler=self.scheduler, games=games, runs=(), folded_runs=folded, reset_at=reset)
        merged._set_runs((*self.runs, *other.runs))
        merged._best = max(best if reset is None or best <= merged.answered() else 0, merged.best_streak)
        return merged

    def copy(self) -> Progress:
        return Progress(
            self.skills,
            self._best,
            scheduler=self.scheduler,
            games=self.games,
            runs=self.runs,
            folded_runs=self.folded_runs,
            reset_at=self.reset_at,
        )

    @classmethod
    def reset(cls, at: datetime | None = None, *, scheduler: Scheduler | None = None) -> Progress:
        """An empty progress that, saved to a store, drops every answer and run made before ``at`` (now), in
        every copy it is later merged with."""
        return cls(scheduler=scheduler, reset_at=_utc(at or _now(), Text("reset time")))

    # ----- games at the play table ---------------------------------------------------------
    def record_game(
        self, decisions: int, stones_lost: float, won: bool, *, level: str = "", at: datetime | None = None
    ) -> GameResult:
        """Add one finished game of the play table (see :class:`GameResult`) and return it. Raises
        :class:`ProgressError` for a negative count or loss."""
        game = GameResult.from_list(
            [
                uuid.uuid4().hex[:16],
                _utc(at or _now(), "at").isoformat(),
                decisions,
                round(float(stones_lost), 1),
                won,
                level,
            ]
        )
        self.games = (*self.games, game)
        return game

    def best_game(self) -> GameResult | None:
        """The game with the lowest error rate (stones lost per decision) among those with a decision; the
        earliest of equals; None before any."""
        played = [g for g in self.games if g.decisions]
        return min(played, key=lambda g: (g.error_rate, g.at)) if played else None

    # ----- JSON ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON document: ``{"schema", "schema_version", "best_streak", "skills": {name: record}, "runs":
        [run, ...]}``, with ``"folded_runs"`` and ``"reset_at"`` when there are any."""
        out: dict[str, Any] = {
            "schema": SCHEMA,
            "schema_version": SCHEMA_VERSION,
            "best_streak": self.best_streak,
            "skills": {k: self.skills[k].to_dict() for k in sorted(self.skills) if self.skills[k].answered},
            "runs": [r.to_list() for r in self.runs],
        }
        if self.games:
            out["games"] = [g.to_list() for g in self.games]
        if self.folded_runs:
            out["folded_runs"] = {k: list(v) for k, v in sorted(self.folded_runs.items())}
        if self.reset_at is not None:
            out["reset_at"] = self.reset_at.isoformat()
        return out

    def to_json(self, indent: int | None = None) -> str:
        """The document as JSON text (compact, without spaces, unless ``indent`` is given); the same progress
        always gives the same text."""
        separators = (",", ":") if indent is None else (",", ": ")
        return json.dumps(self.to_dict(), sort_keys=True, indent=indent, separators=separators, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: object, *, scheduler: Scheduler | None = None) -> Progress:
        """Read a document; raises :class:`ProgressSchemaError` for another schema version and
        :class:`ProgressError` (naming the field) for anything else wrong."""
        if not isinstance(data, Mapping) or data.get("schema") != SCHEMA:
            raise ProgressError(Text('this is not a musteach progress file (it has no "schema": "musteach-progress")'))
        version = data.get("schema_version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ProgressError(Text("'schema_version' must be a whole number, not {version}", version=repr(version)))
        if version > SCHEMA_VERSION:
            raise ProgressSchemaError(
                Text(
                    "this progress was saved by a newer musteach (schema version {version}; this one reads "
                    "{reads}): update musteach to read it",
                    version=version,
                    reads=SCHEMA_VERSION,
                ),
                version,
            )
        if version < OLDEST_READABLE_VERSION:
            raise ProgressSchemaError(
                Text(
                    "this progress was saved by an older musteach (schema version {version}) that this one "
                    "(version {reads}) cannot read",
                    version=version,
                    reads=SCHEMA_VERSION,
                ),
                version,
            )
        best = data.get("best_streak", 0)
        if isinstance(best, bool) or not isinstance(best, int) or best < 0:
            raise ProgressError(Text("'best_streak' must be a whole number ≥ 0, not {best}", best=repr(best)))
        raw = data.get("skills", {})
        if not isinstance(raw, Mapping):
            raise ProgressError(Text("'skills' must be an object of skill names, not {raw}", raw=repr(raw)))
        skills = {}
        for name, rec in raw.items():
            _check_skill(name)
            skills[name] = SkillRecord.from_dict(name, rec, version)
        raw_games = data.get("games", [])
        if not isinstance(raw_games, list):
            raise ProgressError(Text("'games' must be a list of games, not {raw_games}", raw_games=repr(raw_games)))
        games = [GameResult.from_list(g, f"games[{i}]") for i, g in enumerate(raw_games)]
        raw_runs = data.get("runs", []) if version >= 3 else []
        if not isinstance(raw_runs, list):
            raise ProgressError(Text("'runs' must be a list, not {raw_runs}", raw_runs=repr(raw_runs)))
        runs = [QuizRun.from_list(r, Text("run {n}", n=i + 1)) for i, r in enumerate(raw_runs)]
        folded = _read_folded(data.get("folded_runs", {})) if version >= 3 else {}
        reset = data.get("reset_at") if version >= 3 else None
        reset_at = None if reset is None else _parse_time(reset, "'reset_at'")
        progress = cls(skills, best, scheduler=scheduler, games=games, runs=runs, folded_runs=folded, reset_at=reset_at)
        total = progress.answered()
        if best > total:
            raise ProgressError(
                plural_text(
                    "'best_streak' is {best}, more than the {n} answer it records",
                    "'best_streak' is {best}, more than the {n} answers it records",
                    total,
                    best=best,
                )
            )
        return progress

    @classmethod
    def from_json(cls, text: str | bytes, *, scheduler: Scheduler | None = None) -> Progress:
        """Read JSON text; raises :class:`ProgressError` (not JSON, not progress, a bad field) or
        :class:`ProgressSchemaError` (another schema version).

        >>> Progress.from_json("{oops")
        Traceback (most recent call last):
        ...
        musteach.teach.progress.ProgressError: this is not valid JSON (line 1, column 2: Expecting property name enclosed in double quotes)
        """
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ProgressError(Text("this is not a text file (it is not UTF-8)")) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ProgressError(
                Text(
                    "this is not valid JSON (line {line}, column {column}: {why})",
                    line=e.lineno,
                    column=e.colno,
                    why=e.msg,
                )
            ) from None
        except RecursionError:
            raise ProgressError(Text("this is not a musteach progress file (it nests too deep)")) from None
        return cls.from_dict(data, scheduler=scheduler)


def _after(rec: SkillRecord, reset: datetime, scheduler: Scheduler) -> SkillRecord:
    """The record without anything answered at or before ``reset``."""
    kept = [r for r in rec.reviews if r.at > reset]
    if rec.base_until is not None and rec.base_until > reset:
        return rec.with_reviews(kept, scheduler)  # the base holds answers after the reset: keep it
    if len(kept) == len(rec.reviews) and rec.base_until is None:
        return rec
    return SkillRecord(rec.skill).with_reviews(kept, scheduler)


# ----------------------------------------------------------------------------------------------
# Scheduling: which skill next
# ----------------------------------------------------------------------------------------------


def rating_for(progress: Progress, skill: str, correct: bool, ms: int | None = None, fast_ms: int = FAST_MS) -> Rating:
    """The FSRS rating of an answer: Again when wrong; Easy when right within ``fast_ms`` milliseconds and
    making a streak of 3 or more on the skill; otherwise Good."""
    if not correct:
        return Rating.Again
    if ms is not None and ms <= fast_ms and progress.skill_streak(skill) >= 2:
        return Rating.Easy
    return Rating.Good


@dataclass(frozen=True, slots=True)
class Pick:
    """The skill chosen next, why (``"new"``, ``"weak"``, ``"due"`` or ``"ahead"``), and its weight."""

    skill: str
    reason: str
    weight: float

    @property
    def reason_text(self) -> str:
        """Why this skill comes next, in the language being spoken: ``"due for review"``."""
        _ = translator()
        return {
            "new": _("a new skill"),
            "weak": _("a weak spot, due again"),
            "due": _("due for review"),
            "ahead": _("extra practice"),
        }[self.reason]


#: Weight of a never-answered skill (a due, weak skill weighs up to 1 + 3 + 2 = 6; one not yet due ≤ 0.2).
NEW_WEIGHT = 1.5
#: The least share of the chances the new skills get together, while there are any.
NEW_SHARE = 0.25
_REPEAT_FACTOR = 0.1  # the skill just asked is seldom asked again at once


def skill_weights(
    progress: Progress, skills: Sequence[str], now: datetime | None = None, *, last: str | None = None
) -> dict[str, Pick]:
    """How likely each skill is to come next, and why.

    A due skill weighs ``1 + overdue + 2 × (1 − mastery)``, where overdue is the time past due over the last
    interval (at most 3). A skill not due yet weighs ``0.02 + 0.18 × (1 − mastery)`` (a little practice
    ahead, on weak skills first). A new skill weighs :data:`NEW_WEIGHT`, raised when needed so that the new
    skills together always get at least :data:`NEW_SHARE` of the chances (new skills are never starved).
    The skill just asked (``last``) weighs a tenth, when there are others.
    """
    now = _utc(now or _now())
    if not skills:
        raise ProgressError(Text("there are no skills to practise"))
    out: dict[str, Pick] = {}
    for s in skills:
        if progress.is_new(s):
            pick = Pick(s, "new", NEW_WEIGHT)
        else:
            card = progress.card(s)
            weak = 1.0 - progress.mastery(s, now)
            if card.due <= now:
                interval = max((card.due - (card.last_review or card.due)).total_seconds(), 60.0)
                overdue = min((now - card.due).total_seconds() / interval, 3.0)
                pick = Pick(s, "weak" if weak > 0.5 else "due", 1.0 + overdue + 2.0 * weak)
            else:
                pick = Pick(s, "ahead", 0.02 + 0.18 * weak)
        out[s] = pick
    new = [p for p in out.values() if p.reason == "new"]
    old = math.fsum(p.weight for p in out.values() if p.reason != "new")
    if new and old:
        floor = NEW_SHARE / (1 - NEW_SHARE) * old / len(new)
        for p in new:
            out[p.skill] = Pick(p.skill, "new", max(p.weight, floor))
    if last in out and len(skills) > 1:
        p = out[last]
        out[last] = Pick(last, p.reason, p.weight * _REPEAT_FACTOR)
    return out


def choose_skill(
    progress: Progress,
    skills: Sequence[str],
    now: datetime | None = None,
    *,
    rng: random.Random | None = None,
    last: str | None = None,
) -> Pick:
    """Draw the next skill at random in proportion to :func:`skill_weights` (most overdue and weakest first,
    with some randomness). Raises :class:`ProgressError` when ``skills`` is empty.

    >>> p = Progress()
    >>> choose_skill(p, ["grande"]).skill
    'grande'
    """
    weights = skill_weights(progress, list(skills), now, last=last)
    picks = list(weights.values())
    r = (rng or random.Random()).random() * math.fsum(p.weight for p in picks)
    for p in picks:
        r -= p.weight
        if r < 0:
            return p
    return picks[-1]


# ----------------------------------------------------------------------------------------------
# Stores
# ----------------------------------------------------------------------------------------------


class MemoryStore:
    """Progress kept only in memory (lost when the kernel stops): for tests, or when nothing may be saved."""

    kind = "memory"

    @property
    def where(self) -> str:
        """Where the progress is kept, in the language being spoken (``"Your progress is kept {where}."``)."""
        _ = translator()
        return _("in memory only (it is lost when this page closes)")

    def __init__(self, progress: Progress | None = None):
        self.progress = progress or Progress()
        self.notices: list[str] = []

    def load(self) -> Progress:
        return self.progress.copy()

    def save(self, progress: Progress) -> Progress:
        self.progress = self.progress.merge(progress)
        return self.progress.copy()


def default_progress_path() -> Path:
    """Where :class:`FileStore` keeps progress: ``$MUSTEACH_PROGRESS_FILE`` if set, else ``progress.json``
    in the user data folder (``platformdirs.user_data_dir("musteach")``, e.g. ``~/.local/share/musteach``)."""
    env = os.environ.get("MUSTEACH_PROGRESS_FILE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("musteach", appauthor=False)) / "progress.json"


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (created if missing), held until the block ends; other processes
    and threads wait for it (fcntl.flock; msvcrt.locking on Windows)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if sys.platform == "win32":  # pragma: no cover - Windows
            import msvcrt
            import time

            while True:
                try:
                    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                    break
                except OSError:
                    time.sleep(0.01)
            try:
                yield
            finally:
                os.lseek(fd, 0, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _write_atomically(path: Path, text: str) -> None:
    """Write a temporary file next to ``path``, flush it to disk, then rename it over ``path``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError, AttributeError):  # make the rename itself durable (POSIX)
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


class FileStore:
    """Progress in a JSON file, shared by every notebook of one user (JupyterLab).

    path: the file (default :func:`default_progress_path`). Writes are atomic (a temporary file in the same
    folder, then :func:`os.replace`) and made under an exclusive lock on ``<path>.lock``; each write re-reads
    the file and merges it with the progress being saved, so two notebooks saving at once lose nothing.

    A file that cannot be read (bad JSON, not progress, another schema version) is never overwritten: it is
    renamed ``<name>.corrupt-<UTC timestamp>`` and a sentence saying so is added to :attr:`notices` (for the
    learner to see); practice then goes on from what is in memory. Disk errors (``OSError``) propagate.
    """

    kind = "file"

    def __init__(self, path: str | os.PathLike[str] | None = None, *, scheduler: Scheduler | None = None):
        self.path = Path(path).expanduser() if path is not None else default_progress_path()
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.scheduler = scheduler
        self.notices: list[str] = []
        self.set_aside_paths: list[Path] = []

    @property
    def where(self) -> str:
        """Where the progress is kept, in the language being spoken: ``"in the file /home/…/progress.json"``."""
        _ = translator()
        return _("in the file {path}", path=self.path)

    def load(self) -> Progress:
        """The progress in the file (empty if there is none yet; nothing is created then)."""
        if not self.path.exists():
            return Progress(scheduler=self.scheduler)
        with _file_lock(self.lock_path):
            return self._read()

    def save(self, progress: Progress) -> Progress:
        """Merge ``progress`` with the file's (under the lock) and write the result; returns it."""
        with _file_lock(self.lock_path):
            merged = self._read().merge(progress)
            _write_atomically(self.path, merged.to_json() + "\n")
        return merged

    def _read(self) -> Progress:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return Progress(scheduler=self.scheduler)
        try:
            return Progress.from_json(raw, scheduler=self.scheduler)
        except ProgressError as e:
            aside = self._set_aside()
            _ = translator()
            if isinstance(e, ProgressSchemaError):
                msgid = N_(
                    "Your saved progress could not be read (it was saved by another version of musteach: {why}). "
                    "The file was kept as {name} in {folder}, and your progress starts afresh from here."
                )
            else:
                msgid = N_(
                    "Your saved progress could not be read (it is damaged: {why}). The file was kept as {name} "
                    "in {folder}, and your progress starts afresh from here."
                )
            self.notices.append(_(msgid, why=e.message(_.lang), name=aside.name, folder=aside.parent))
            return Progress(scheduler=self.scheduler)

    def _set_aside(self) -> Path:
        stamp = datetime.now(_UTC).strftime("%Y%m%dT%H%M%S%fZ")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        os.replace(self.path, aside)
        self.set_aside_paths.append(aside)
        return aside


def describe_due(due: datetime, now: datetime, *, lang: str | None = None) -> str:
    """``"due now"``, ``"in 8 min"``, ``"in 3 h"``, ``"in 4 days"``, in ``lang`` (None: the language being spoken).

    >>> from datetime import timedelta
    >>> t = datetime(2025, 1, 1, tzinfo=UTC)
    >>> describe_due(t, t), describe_due(t + timedelta(minutes=9, seconds=50), t), describe_due(t + timedelta(days=3), t)
    ('due now', 'in 10 min', 'in 3 days')
    """
    _ = translator(lang)
    s = (due - now).total_seconds()
    if s <= 0:
        return _("due now")
    if s < 3600:
        return _("in {minutes} min", minutes=max(1, round(s / 60)))
    if s < 86400:
        return _("in {hours} h", hours=round(s / 3600))
    return _.ngettext("in {n} day", "in {n} days", round(s / 86400))
