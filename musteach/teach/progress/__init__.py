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
before it are dropped, also when an older copy is merged in), the games played at the table, the steps of
quiz runs still in progress (so that a reload resumes them) and settings such as the opponents' level.

Everything the learner does is a :class:`Record` of its own (an id, a kind, a time, a version; plain JSON),
and stores merge records by id, never overwriting one another (issue 23): :meth:`Progress.records` lists
them, :meth:`Progress.apply` adds them, and every store saves its new ones through :func:`save_records`,
where a sink (a class server's database) can be attached. The progress reads and writes a versioned, compact
JSON document (:data:`SCHEMA_VERSION`; documents of versions 1 to 3 are upgraded on reading);
:class:`FileStore` keeps it in a file in the user's data folder, written atomically under a file lock.

The package is split by job (each module under 900 lines; ``musteach.teach.progress`` re-exports them all):
:mod:`.base` (errors, limits, the scheduler, time and name checks), :mod:`.skills` (answers and skill records),
:mod:`.runs` (quiz runs and games), :mod:`.records` (each thing the learner did as a record of its own,
and the one function that saves records), :mod:`.document` (the :class:`Progress` and its JSON), :mod:`.schedule`
(which skill next), :mod:`.stores` (memory and file stores).

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

from .base import (
    FAST_MS,
    HISTORY_LIMIT,
    OLDEST_READABLE_VERSION,
    RECENT,
    RUN_LIMIT,
    SCHEDULER,
    SCHEMA,
    SCHEMA_VERSION,
    ProgressError,
    ProgressSchemaError,
    scheduler_key,
)
from .document import Progress, rating_for
from .records import (
    OPPONENTS_LEVEL,
    RECORD_VERSION,
    Record,
    RecordKind,
    RecordSink,
    add_record_sink,
    new_id,
    remove_record_sink,
    save_records,
)
from .runs import GameResult, QuizRun
from .schedule import NEW_SHARE, NEW_WEIGHT, Pick, choose_skill, describe_due, skill_weights
from .skills import Review, SkillRecord
from .stores import FileStore, MemoryStore, default_progress_path, new_records

__all__ = [
    "OPPONENTS_LEVEL",
    "RECORD_VERSION",
    "Record",
    "RecordKind",
    "RecordSink",
    "add_record_sink",
    "new_id",
    "new_records",
    "remove_record_sink",
    "save_records",
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
    "SCHEDULER",
    "Review",
    "SkillRecord",
    "choose_skill",
    "default_progress_path",
    "describe_due",
    "rating_for",
    "scheduler_key",
    "skill_weights",
]
