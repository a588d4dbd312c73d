"""Checking a learner's record before it reaches the class database (pure Python, no database import).

A lesson kernel sends each of issue 23's records as a JSON object: ``id`` (unique per learner), ``kind``
(``answer``, ``run``, ``review`` or ``game``), and the fields the dashboard reads: ``lesson``, ``quiz``,
``skill``, ``correct``, ``tries``, ``diagnosis``, ``stars``, ``seconds`` (or ``ms``) and ``at`` (ISO 8601).
:func:`check_record` refuses anything else with a :class:`~musteach.rules.errors.MusError` naming what is
wrong: a body over :data:`MAX_RECORD_BYTES`, a field of the wrong type, an unknown kind, an id or tag with
characters outside its alphabet. Other keys are kept (as JSON) when they are short scalars.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from musteach.rules.errors import MusError

__all__ = ["KINDS", "MAX_RECORD_BYTES", "ValidRecord", "check_record", "parse_record"]

#: The kinds of record (issue 23).
KINDS = ("answer", "run", "review", "game")
#: The largest record body (bytes) the record route accepts.
MAX_RECORD_BYTES = 4096
#: The largest part of a record kept as-is (its other keys, as JSON).
MAX_EXTRA_CHARS = 1024

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")
_NAME = re.compile(r"[a-z0-9][a-z0-9_/-]{0,63}")
_TAG = re.compile(r"[a-z][a-z0-9_.-]{0,63}")
_KNOWN = {"id", "kind", "lesson", "quiz", "skill", "correct", "tries", "diagnosis", "stars", "seconds", "ms", "at"}


@dataclass(frozen=True)
class ValidRecord:
    """A record that passed :func:`check_record`: the fields the dashboard reads, and ``data``, the record's
    other (short, scalar) keys."""

    id: str
    kind: str
    at: datetime
    lesson: str | None = None
    quiz: str | None = None
    skill: str | None = None
    correct: bool | None = None
    tries: int | None = None
    diagnosis: str | None = None
    stars: int | None = None
    seconds: float | None = None
    data: dict[str, Any] = field(default_factory=dict)


def _text(record: dict[str, Any], key: str, pattern: re.Pattern[str]) -> str | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise MusError(f"record field {key!r} is not a valid {key}: {value!r:.80}")
    return value


def _whole(record: dict[str, Any], key: str, low: int, high: int) -> int | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MusError(f"record field {key!r} must be a whole number from {low} to {high}, not {value!r:.40}")
    return value


def _seconds(record: dict[str, Any]) -> float | None:
    for key, scale in (("seconds", 1.0), ("ms", 1000.0)):
        value = record.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                or not 0 <= value / scale <= 86400:
            raise MusError(f"record field {key!r} must be a time from 0 to a day, not {value!r:.40}")
        return float(value) / scale
    return None


def _at(record: dict[str, Any], now: datetime) -> datetime:
    value = record.get("at")
    if value is None:
        return now
    if not isinstance(value, str) or len(value) > 40:
        raise MusError(f"record field 'at' must be an ISO 8601 time, not {value!r:.40}")
    try:
        at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise MusError(f"record field 'at' must be an ISO 8601 time, not {value!r:.40}") from None
    at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    return min(at.astimezone(UTC), now + timedelta(minutes=5))  # a clock ahead cannot reorder the future


def check_record(record: object, now: datetime | None = None) -> ValidRecord:
    """``record`` (a decoded JSON object) as a :class:`ValidRecord`. now: the server's time (a record without
    ``at`` is dated now; one dated more than 5 minutes ahead is dated then). Raises MusError naming the
    first bad field."""
    now = now or datetime.now(UTC)
    if not isinstance(record, dict):
        raise MusError(f"a record must be a JSON object, not {type(record).__name__}")
    rid = _text(record, "id", _ID)
    if rid is None:
        raise MusError("a record needs an 'id'")
    kind = record.get("kind")
    if kind not in KINDS:
        raise MusError(f"record kind must be one of {', '.join(KINDS)}, not {kind!r:.40}")
    correct = record.get("correct")
    if correct is not None and not isinstance(correct, bool):
        raise MusError(f"record field 'correct' must be true or false, not {correct!r:.40}")
    extra = {k: v for k, v in record.items() if k not in _KNOWN}
    for k, v in extra.items():
        if not isinstance(k, str) or not _TAG.fullmatch(k) or not (v is None or isinstance(v, str | int | float | bool)):
            raise MusError(f"record field {k!r:.40} must be a short name holding text, a number or true/false")
    if len(json.dumps(extra)) > MAX_EXTRA_CHARS:
        raise MusError(f"a record's other fields must fit in {MAX_EXTRA_CHARS} characters")
    return ValidRecord(
        id=rid, kind=str(kind), at=_at(record, now),
        lesson=_text(record, "lesson", _NAME), quiz=_text(record, "quiz", _NAME), skill=_text(record, "skill", _TAG),
        correct=correct, tries=_whole(record, "tries", 1, 100), diagnosis=_text(record, "diagnosis", _TAG),
        stars=_whole(record, "stars", 0, 3), seconds=_seconds(record), data=extra,
    )


def parse_record(body: bytes) -> ValidRecord:
    """A record body (UTF-8 JSON, at most :data:`MAX_RECORD_BYTES`) checked. Raises MusError."""
    if len(body) > MAX_RECORD_BYTES:
        raise MusError(f"a record must be at most {MAX_RECORD_BYTES} bytes, not {len(body)}")
    try:
        decoded = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise MusError("a record must be UTF-8 JSON") from None
    return check_record(decoded)
