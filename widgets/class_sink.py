"""The lesson kernel's side of class mode: each record goes to the server, which files it under the kernel's learner.

A kernel started by ``musteach serve`` finds in its environment its own key (``MUSTEACH_KERNEL_KEY``) and the
address of the server's record route (``MUSTEACH_RECORD_URL``); it never holds the database's address, and
never says which learner it serves (the server knows which page it was handed to). :func:`send_record` queues a
record (a plain dict: issue 23's records, ``id``, ``kind`` ``answer``/``run``/``review``/``game``, and for answers
``tries`` and a ``diagnosis`` tag) and a background thread posts it, retrying while the server restarts; it never
blocks a click and never raises. Outside ``musteach serve`` (JupyterLab, tests) it does nothing.

:func:`answer_record` and :func:`run_record` build the records of a lesson quiz; :func:`class_practice_skill`
asks which skill the learner's teacher points practice at.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from musteach.runtime import threads_available

__all__ = [
    "ANSWER_SECONDS_MAX",
    "KERNEL_HEADER",
    "KERNEL_KEY_ENV",
    "RECORD_URL_ENV",
    "answer_record",
    "class_practice_skill",
    "enabled",
    "flush",
    "game_record",
    "review_record",
    "run_record",
    "send_record",
]

_log = logging.getLogger("musteach_widgets")

#: As :mod:`musteach_server.classes.service` and :mod:`musteach_server.classes.routes` name them (no import: a
#: kernel does not load the server's modules).
KERNEL_KEY_ENV = "MUSTEACH_KERNEL_KEY"
RECORD_URL_ENV = "MUSTEACH_RECORD_URL"
KERNEL_HEADER = "X-Musteach-Kernel"
#: Seconds to wait for the server's answer to one record; tries before a record is given up.
TIMEOUT = 3.0
TRIES = 5

_queue: queue.Queue[bytes] = queue.Queue(maxsize=10_000)
_worker: threading.Thread | None = None
_lock = threading.Lock()
#: The most seconds one answer counts as time spent (a page left open for an hour is not an hour of work).
ANSWER_SECONDS_MAX = 600.0
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through an HTTP proxy


def enabled() -> bool:
    """True in a kernel that ``musteach serve`` started with a key and a record route (never in the static
    site's browser Python, which has no threads: :func:`musteach.runtime.threads_available`)."""
    return bool(os.environ.get(KERNEL_KEY_ENV) and os.environ.get(RECORD_URL_ENV)) and threads_available()


def send_record(record: dict[str, Any]) -> None:
    """Queue one record for the server (returns at once; does nothing outside ``musteach serve``). A record
    that is not JSON is dropped with a log line."""
    if not enabled():
        return
    try:
        body = json.dumps(record, separators=(",", ":"), allow_nan=False).encode("utf-8")
    except (TypeError, ValueError):
        _log.warning("a record could not be sent to the class: it is not JSON")
        return
    try:
        _queue.put_nowait(body)
    except queue.Full:
        _log.warning("a record could not be sent to the class: too many waiting")
        return
    _start()


def _start() -> None:
    global _worker
    with _lock:
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_run, name="musteach-class-sink", daemon=True)
            _worker.start()


def _request(url: str, body: bytes | None) -> urllib.request.Request:
    headers = {KERNEL_HEADER: os.environ.get(KERNEL_KEY_ENV, "")}
    if body is not None:
        headers["Content-Type"] = "application/json"
    return urllib.request.Request(url, data=body, headers=headers, method="POST" if body is not None else "GET")


def _post(body: bytes) -> int:
    try:
        with _opener.open(_request(os.environ.get(RECORD_URL_ENV, ""), body), timeout=TIMEOUT) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def _run() -> None:
    while True:
        body = _queue.get()
        try:
            for attempt in range(TRIES):
                try:
                    status = _post(body)
                except OSError:  # the server is restarting, or busy: try again shortly
                    time.sleep(0.5 * (attempt + 1))
                    continue
                if status >= 500:
                    time.sleep(0.5 * (attempt + 1))
                    continue
                if status >= 400:
                    _log.warning("the server refused a class record (HTTP %d)", status)
                break
        finally:
            _queue.task_done()


def flush(timeout: float = 10.0) -> bool:
    """Wait until every queued record has been sent (or given up); False if ``timeout`` seconds passed."""
    end = time.monotonic() + timeout
    while _queue.unfinished_tasks:
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def class_practice_skill() -> str | None:
    """The skill the learner's teacher points practice at, or None (no class, no setting, or no answer within
    a second)."""
    if not enabled():
        return None
    url = os.environ.get(RECORD_URL_ENV, "").rsplit("/", 1)[0] + "/practice"
    try:
        with _opener.open(_request(url, None), timeout=1.0) as answer:
            skill = json.loads(answer.read(1000)).get("skill")
    except (OSError, ValueError, AttributeError):
        return None
    return skill if isinstance(skill, str) else None


def answer_record(lesson: str, quiz: str, question: Any, attempt: Any, rid: str, first_given: Any = None,
                  diagnosis: str | None = None, *, seconds: float | None = None) -> dict[str, Any]:
    """The record of one finished question of a lesson quiz: ``attempt`` its :class:`~musteach.teach.scoring.
    Attempt` (``solved``, ``wrong``, ``diagnosis``), ``rid`` the id of the review it was recorded as.
    ``diagnosis``: the misconception tag to name (default the attempt's own, musteach's
    :attr:`~musteach.teach.scoring.Attempt.diagnosis`; nothing is worked out again here). ``seconds``: the time
    spent on it (the class's time spent is the sum of its answers', finished runs or not). ``first_given`` is
    kept for callers that pass it and is not read."""
    solved = bool(getattr(attempt, "solved", False))
    wrong = int(getattr(attempt, "wrong", 0))
    tag = diagnosis if diagnosis is not None else getattr(attempt, "diagnosis", None)
    skill = getattr(question, "skill", None)
    record: dict[str, Any] = {"id": rid, "kind": "answer", "lesson": lesson, "quiz": quiz, "correct": solved,
                              "tries": wrong + (1 if solved else 0) or 1, "diagnosis": tag}
    if skill is not None:
        record["skill"] = str(skill)
    if seconds is not None:
        record["seconds"] = round(min(max(0.0, seconds), 86_400.0), 1)
    return record


def game_record(game: Any) -> dict[str, Any]:
    """The record of a finished game at the play table (lesson 10; :class:`~musteach.teach.progress.GameResult`):
    won or not, decisions, stones lost, the opponents' level."""
    return {"id": game.id, "kind": "game", "lesson": "10-play", "at": game.at.isoformat(), "won": bool(game.won),
            "decisions": int(game.decisions), "stones_lost": float(game.stones_lost), "level": str(game.level)[:40]}


def review_record(skill: str, attempt: Any, rid: str, ms: int | None = None) -> dict[str, Any]:
    """The record of one practice answer (lesson 11): its skill, right or not, at which try, how long."""
    solved = bool(getattr(attempt, "solved", False))
    wrong = int(getattr(attempt, "wrong", 0))
    record: dict[str, Any] = {"id": rid, "kind": "review", "lesson": "11-practice", "skill": skill,
                              "correct": solved, "tries": wrong + (1 if solved else 0) or 1}
    if ms is not None:
        record["seconds"] = round(min(max(ms, 0), 86_400_000) / 1000, 1)
    return record


def run_record(run: Any, seconds: float | None = None) -> dict[str, Any]:
    """The record of a finished quiz run (:class:`~musteach.teach.progress.QuizRun`): lesson, quiz, stars, and
    ``seconds`` spent when given. A lesson quiz gives none: its time is its answers' (:func:`answer_record`),
    so that a run left unfinished counts too and a finished one is not counted twice."""
    record: dict[str, Any] = {"id": run.id, "kind": "run", "lesson": run.lesson, "quiz": run.quiz,
                              "stars": int(run.stars), "at": run.at.isoformat()}
    if seconds is not None:
        record["seconds"] = round(max(0.0, seconds), 1)
    return record
