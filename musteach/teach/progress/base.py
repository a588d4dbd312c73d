"""The progress package's groundwork: errors, limits, the FSRS scheduler, times and name checks."""

from __future__ import annotations

import json
import re
import zlib
from datetime import UTC, datetime

from fsrs import Card as FsrsCard
from fsrs import Scheduler

from ...i18n import Text
from ...rules.errors import MusError

#: The ``schema`` field of every progress document.
SCHEMA = "musteach-progress"
#: The version of the JSON layout this module writes (it also reads version 1, migrating it).
#: Version 2: each answer is a list ``[at, rating, ms, id]`` (right = rating above 1), and at most
#: :data:`HISTORY_LIMIT` answers per skill. Version 1: each answer an object, up to 200 per skill.
#: Version 3 adds ``runs`` (finished quiz runs, see :class:`QuizRun`), ``folded_runs`` and ``reset_at``;
#: a version 2 document reads as one without runs. Version 4 (issue 23) adds each answer's ``tries`` and
#: ``diagnosis`` (``[at, rating, ms, id, tries, diagnosis]``), a game's review (its best game's), ``steps`` (quiz
#: runs in progress, as records) and ``settings``; a version 3 document (or older) is upgraded on reading.
SCHEMA_VERSION = 4
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

REVIEW_WORD = Text("review")
RUN_WORD = Text("run")
GAME_WORD = Text("game")

_SKILL_RE = re.compile(r"^[a-z][a-z0-9_.-]{0,63}$")
UTC = UTC


class ProgressError(MusError):
    """A progress document that cannot be read: not JSON, not musteach progress, or a bad field (named)."""

    __module__ = "musteach.teach.progress"  # its public home (tracebacks and doctests name it there)


class ProgressSchemaError(ProgressError):
    """A progress document written with a schema version this musteach does not read (older or newer)."""

    __module__ = "musteach.teach.progress"

    def __init__(self, message: Text | str, version: object):
        super().__init__(message)
        self.version = version


def new_scheduler() -> Scheduler:
    return Scheduler(enable_fuzzing=False)  # deterministic: a card is a pure function of its answers


#: The FSRS scheduler every skill card uses (default FSRS-6 weights, 90% retention, no fuzz).
SCHEDULER = new_scheduler()


def scheduler_key(scheduler: Scheduler) -> str:
    """A key naming a scheduler by its settings (two schedulers with the same settings schedule alike)."""
    return json.dumps(scheduler.to_dict(), sort_keys=True)


def now_utc() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime, where: Where = "time") -> datetime:
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise ProgressError(
            Text("{where} must be a timezone-aware date and time, not {value}", where=where, value=repr(value))
        )
    return value.astimezone(UTC)


def parse_time(value: object, where: Where) -> datetime:
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
    return t.astimezone(UTC)


def check_skill(skill: object) -> str:
    if not isinstance(skill, str) or not _SKILL_RE.match(skill):
        raise ProgressError(
            Text(
                "a skill name is 1 to 64 lower-case letters, digits, '_', '.' or '-', starting with a letter, not {skill}",
                skill=repr(skill),
            )
        )
    return skill


def new_card(skill: str) -> FsrsCard:
    # a stable id (fsrs would otherwise use the clock and sleep a millisecond)
    return FsrsCard(card_id=zlib.crc32(skill.encode()) + 1, due=datetime(2000, 1, 1, tzinfo=UTC))
