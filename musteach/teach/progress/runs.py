"""Finished quiz runs (:class:`QuizRun`) and games at the play table (:class:`GameResult`)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ...i18n import Text
from .base import GAME_WORD, RUN_WORD, ProgressError, Where, parse_time

# ----------------------------------------------------------------------------------------------
# Quiz runs
# ----------------------------------------------------------------------------------------------

_KEY_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")


def check_key(value: object, what: str) -> str:
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


def check_count(value: object, where: Where, least: int = 0) -> int:
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
    def from_list(cls, data: object, where: Where = RUN_WORD) -> QuizRun:
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
        n = check_count(questions, Text("{where}: 'questions'", where=where), 1)
        if isinstance(points, bool) or not isinstance(points, int | float) or not 0 <= points <= n:
            raise ProgressError(
                Text(
                    "{where}: 'points' must be a number from 0 to {n}, not {points}",
                    where=where,
                    n=n,
                    points=repr(points),
                )
            )
        if check_count(stars, Text("{where}: 'stars'", where=where)) > 3:
            raise ProgressError(Text("{where}: 'stars' must be 0 to 3, not {stars}", where=where, stars=repr(stars)))
        return cls(
            parse_time(at, Text("{where}: 'at'", where=where)),
            rid,
            check_key(lesson, "lesson"),
            check_key(quiz, "quiz"),
            float(points),
            n,
            stars,
            check_count(hints, Text("{where}: 'hints'", where=where)),
            check_count(retries, Text("{where}: 'retries'", where=where)),
        )


def read_folded(raw: object) -> dict[str, tuple[int, int]]:
    if not isinstance(raw, Mapping):
        raise ProgressError(Text("'folded_runs' must be an object of quiz names, not {raw}", raw=repr(raw)))
    out: dict[str, tuple[int, int]] = {}
    for key, v in raw.items():
        lesson, _, quiz = str(key).partition("/")
        check_key(lesson, "lesson"), check_key(quiz, "quiz")
        if not isinstance(v, list) or len(v) != 2:
            raise ProgressError(Text("folded run {key} must be [best stars, runs], not {v}", key=repr(key), v=repr(v)))
        best, runs = (
            check_count(v[0], Text("folded run {key}: stars", key=repr(key))),
            check_count(v[1], Text("folded run {key}: runs", key=repr(key)), 1),
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
    "strong", or the bot's kind). review: the game's review as plain JSON (what the table session makes of
    it), or None; a progress document keeps the review of its best game only.
    """

    id: str
    at: datetime
    decisions: int
    stones_lost: float
    won: bool
    level: str = ""
    review: Any = field(default=None, compare=False)

    @property
    def error_rate(self) -> float:
        """Stones lost per decision (0.0 without a decision)."""
        return self.stones_lost / self.decisions if self.decisions else 0.0

    def to_list(self, *, with_review: bool = True) -> list[Any]:
        """``[id, at, decisions, stones_lost, won, level]``, and the review last when there is one (and
        ``with_review``)."""
        out = [self.id, self.at.isoformat(), self.decisions, self.stones_lost, self.won, self.level]
        return [*out, self.review] if with_review and self.review is not None else out

    @classmethod
    def from_list(cls, data: object, where: Where = GAME_WORD) -> GameResult:
        """Read ``[id, at, decisions, stones_lost, won, level]`` (and a review, see :meth:`to_list`); raises
        :class:`ProgressError` naming the field."""
        if not isinstance(data, list | tuple) or len(data) not in (6, 7):
            raise ProgressError(
                Text(
                    "{where} must be [id, at, decisions, stones_lost, won, level], not {data}",
                    where=where,
                    data=repr(data),
                )
            )
        gid, at, n, lost, won, level, review = (*data, None)[:7]
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
        return cls(gid, parse_time(at, Text("{where}.at", where=where)), n, float(lost), won, level, review)
