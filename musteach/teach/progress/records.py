"""The learner's record, one thing at a time: every answer, quiz run, step of a run in progress, game, setting
and reset is a :class:`Record` of its own (issue 23).

A record is plain data: a ``kind`` (:class:`RecordKind`), a unique ``id``, a UTC time ``at``, a ``version``
(:data:`RECORD_VERSION`) and ``data`` (a JSON object whose fields depend on the kind). Records are never
changed once made: a store keeps each one under its id and merges what it holds with what it is given (a union
by id), so two quizzes on one page, two tabs, two kernels or a later server database never overwrite each
other's records. :meth:`musteach.teach.progress.Progress.records` lists the records a progress holds and
:meth:`~musteach.teach.progress.Progress.apply` adds records to it.

Every record a store saves goes through one function, :func:`save_records`, where a sink can be attached
(:func:`add_record_sink`, e.g. a class server's database).

The ``data`` of each kind (times are ISO 8601 texts with a zone; ids are short texts):

* ``answer``: ``skill``, ``correct`` (bool), ``rating`` (FSRS 1..4), ``ms`` (int or null), ``tries`` (1, 2,
  ``"shown"`` or null), ``diagnosis`` (a tag or null).
* ``run``: a finished quiz run: ``lesson``, ``quiz``, ``points``, ``questions``, ``stars``, ``hints``,
  ``retries`` (its id is the run's id, shared with the run's steps).
* ``step``: one answer of a quiz run still in progress, so that a reload resumes it: ``lesson``, ``quiz``,
  ``run`` (the run's id), ``seed`` (the run's question seed), ``n`` (questions in the run), ``q`` (the
  question's index, from 0), ``given`` (the answer, as JSON; absent when the step only shows question ``q``:
  the learner pressed Next), ``hints`` (hint steps taken on that question before this answer).
* ``game``: a finished game at the play table: ``decisions``, ``stones_lost``, ``won``, ``level``, ``review``
  (the game's review as JSON, or null).
* ``setting``: ``name``, ``value`` (JSON): the latest setting of each name wins (e.g. lesson 10's opponents'
  level, :data:`OPPONENTS_LEVEL`, and the match in progress at lesson 10's table,
  :data:`musteach.teach.table.TABLE_GAME`, so that a reload resumes it).
* ``reset``: no data: everything before ``at`` is forgotten.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from ...i18n import Text
from .base import ProgressError, as_utc, now_utc, parse_time

__all__ = [
    "OPPONENTS_LEVEL",
    "RECORD_VERSION",
    "Record",
    "RecordKind",
    "RecordSink",
    "add_record_sink",
    "new_id",
    "remove_record_sink",
    "save_records",
]

#: The version of a record's layout (its ``version`` field); a newer one is refused, an older one upgraded.
RECORD_VERSION = 1

#: The setting that keeps lesson 10's chosen opponents' level (``"beginner"``, ``"club"``, ``"strong"``...).
OPPONENTS_LEVEL = "opponents_level"

#: The longest record text (characters) a store accepts (a game's review is the largest part).
MAX_RECORD_CHARS = 200_000


class RecordKind(StrEnum):
    """What a record is about (a string enum: ``RecordKind.ANSWER == "answer"``)."""

    ANSWER = "answer"
    RUN = "run"
    STEP = "step"
    GAME = "game"
    SETTING = "setting"
    RESET = "reset"


def new_id() -> str:
    """A fresh record id: 16 random hexadecimal digits."""
    return uuid.uuid4().hex[:16]


@dataclass(frozen=True, slots=True)
class Record:
    """One thing the learner did (see the module's description of each kind's ``data``).

    kind: a :class:`RecordKind`. id: unique (1 to 64 characters). at: when (UTC). data: plain JSON values.
    version: :data:`RECORD_VERSION`. Two records with the same id are the same record.
    """

    kind: RecordKind
    id: str
    at: datetime
    data: Mapping[str, Any] = field(default_factory=dict)
    version: int = RECORD_VERSION

    @classmethod
    def make(
        cls, kind: RecordKind | str, data: Mapping[str, Any], *, at: datetime | None = None, rid: str = ""
    ) -> Record:
        """A new record of ``kind`` with a fresh id (or ``rid``), at ``at`` (default now)."""
        return cls.from_dict(
            {
                "v": RECORD_VERSION,
                "kind": str(kind),
                "id": rid or new_id(),
                "at": as_utc(at or now_utc()).isoformat(),
                "data": dict(data),
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """``{"v", "kind", "id", "at", "data"}``."""
        return {
            "v": self.version,
            "kind": str(self.kind),
            "id": self.id,
            "at": self.at.isoformat(),
            "data": dict(self.data),
        }

    def to_json(self) -> str:
        """The record as compact JSON text (the same record always gives the same text)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, raw: object) -> Record:
        """A record from :meth:`to_dict`'s form; raises :class:`~musteach.teach.progress.ProgressError` naming
        the bad field (another kind, a newer version, a bad id or time, data that is not an object)."""
        if not isinstance(raw, Mapping):
            raise ProgressError(
                Text("a record must be an object with v, kind, id, at and data, not {raw}", raw=repr(raw)[:200])
            )
        version = raw.get("v")
        if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= RECORD_VERSION:
            raise ProgressError(
                Text(
                    "a record's version must be 1 to {newest}, not {version}",
                    newest=RECORD_VERSION,
                    version=repr(version),
                )
            )
        kind = raw.get("kind")
        if kind not in {k.value for k in RecordKind}:
            raise ProgressError(Text("unknown kind of record: {kind}", kind=repr(kind)))
        rid = raw.get("id")
        if not isinstance(rid, str) or not 1 <= len(rid) <= 64:
            raise ProgressError(Text("a record's id must be a short text, not {rid}", rid=repr(rid)))
        at = parse_time(raw.get("at"), Text("record {rid}: 'at'", rid=repr(rid)))
        data = raw.get("data", {})
        if not isinstance(data, Mapping):
            raise ProgressError(
                Text("record {rid}: 'data' must be an object, not {data}", rid=repr(rid), data=repr(data)[:200])
            )
        return cls(RecordKind(kind), rid, at, dict(data), version)

    @classmethod
    def from_json(cls, text: str) -> Record:
        """A record from its JSON text; raises :class:`~musteach.teach.progress.ProgressError`."""
        if len(text) > MAX_RECORD_CHARS:
            raise ProgressError(Text("a record of {n} characters is too long", n=len(text)))
        try:
            raw = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            raise ProgressError(Text("a record must be JSON, not {text}", text=repr(text[:80]))) from None
        return cls.from_dict(raw)


#: A function given every batch of records a store saves (after they are checked, before they are written).
RecordSink = Callable[[Sequence[Record]], None]

_sinks: list[RecordSink] = []


def add_record_sink(sink: RecordSink) -> None:
    """Give every record saved from now on to ``sink`` too (e.g. to send it to a class server's database)."""
    _sinks.append(sink)


def remove_record_sink(sink: RecordSink) -> None:
    """Stop giving records to ``sink`` (a sink never added is ignored)."""
    if sink in _sinks:
        _sinks.remove(sink)


def save_records(records: Sequence[Record], write: Callable[[Sequence[Record]], None]) -> None:
    """The one way a store saves records: every sink sees them (when there are any), then ``write`` keeps them
    (called even without new records: a store may still write an upgraded document). A sink that fails does not
    stop the learner's own store from keeping them (its exception is raised after the write)."""
    failure: BaseException | None = None
    for sink in list(_sinks) if records else []:
        try:
            sink(records)
        except Exception as e:  # the learner's record is kept first
            failure = failure or e
    write(records)
    if failure is not None:
        raise failure
