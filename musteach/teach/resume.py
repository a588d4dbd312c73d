"""Resuming a quiz run after a reload or a server restart (issue 23).

A run in progress is kept answer by answer as ``step`` records (:meth:`~musteach.teach.progress.Progress.record_step`):
the run's question seed, the question's index, the answer given and the hint steps taken before it. To resume,
a widget draws the run's questions again from the same seed (:func:`run_rng`) and :func:`replay` gives the
session the same hints and answers: the quiz comes back at the same question, with the same score, tries and
verdicts. Pure Python (no Jupyter import).

>>> encode_response((Card.parse("1o"), Card.parse("12c")))
{'cards': ['1o', '12c']}
>>> decode_response({'cards': ['1o', '12c']}) == (Card.parse("1o"), Card.parse("12c"))
True
>>> decode_response(encode_response(3)), decode_response(encode_response(None)), decode_response("medias")
(3, None, 'medias')
>>> decode_response(encode_response({"grande": {"A": 2, "B": 0}}))
{'grande': {'A': 2, 'B': 0}}
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from enum import Enum
from typing import Any

from ..i18n import Text
from ..rules.cards import Card
from .errors import QuizError
from .progress import Record
from .session import QuizSession

__all__ = ["current_index", "decode_response", "encode_response", "new_seed", "replay", "run_rng"]


def new_seed() -> int:
    """A fresh seed for a run's questions (0 ≤ seed < 2³²)."""
    return secrets.randbits(32)


def run_rng(seed: int) -> random.Random:
    """The random source a run's questions are drawn with (the same seed gives the same questions)."""
    return random.Random(seed)


def encode_response(value: Any) -> Any:
    """An answer as plain JSON: a seat or total (int), nobody (None), a name (str), cards in order
    (``{"cards": [code, ...]}``), or stones typed per team (and per lance: ``{"map": {...}}``). Raises :class:`~musteach.teach.errors.QuizError` for anything else."""
    if value is None or isinstance(value, bool | int | str):
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, Enum) and isinstance(value.value, str | int):
        return value.value
    if isinstance(value, Card):
        return {"card": value.code}
    if isinstance(value, list | tuple) and all(isinstance(c, Card) for c in value):
        return {"cards": [c.code for c in value]}
    if isinstance(value, dict) and _plain(value):
        return {"map": value}
    raise QuizError(Text("this answer cannot be kept: {value}", value=repr(value)[:80]))


def decode_response(data: Any) -> Any:
    """The answer :func:`encode_response` kept. Raises :class:`~musteach.teach.errors.QuizError` for other data."""
    if data is None or isinstance(data, bool | int | str):
        return data
    if isinstance(data, dict) and set(data) == {"card"} and isinstance(data["card"], str):
        return Card.parse(data["card"])
    if isinstance(data, dict) and set(data) == {"cards"} and isinstance(data["cards"], list):
        return tuple(Card.parse(c) for c in data["cards"])
    if isinstance(data, dict) and set(data) == {"map"} and isinstance(data["map"], dict) and _plain(data["map"]):
        return data["map"]
    raise QuizError(Text("this kept answer cannot be read: {value}", value=repr(data)[:80]))


def _plain(value: object, depth: int = 0) -> bool:
    """True for stones typed in boxes: a dict of names to whole numbers, or of names to such dicts (two deep)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return (
        isinstance(value, dict)
        and depth < 2
        and all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    )


def current_index(session: QuizSession) -> int:
    """The index (from 0) of the question on screen among the questions drawn in this run."""
    return len(session.history) - (1 if session.is_answered else 0)


def replay(session: QuizSession, steps: Sequence[Record]) -> int:
    """Give ``session`` (a fresh run drawn from the steps' seed) the kept hints and answers, in order; returns
    how many steps were replayed. It stops at the first step that does not fit (an answer the question refuses,
    or a run already finished), so that a damaged record never breaks the quiz: the learner goes on from there.
    """
    done = 0
    for st in steps:
        q, hints = st.data.get("q"), st.data.get("hints", 0)
        if not isinstance(q, int) or not isinstance(hints, int):
            break
        try:
            while current_index(session) < q and not session.finished:
                session.next()
            if current_index(session) != q:
                break
            if "given" not in st.data:  # only shown: the learner pressed Next
                done += 1
                continue
            if not session.can_answer():
                break
            while session.attempt.hints < hints and session.can_hint():
                session.hint()
            session.answer(decode_response(st.data.get("given")))
        except Exception:  # a step that does not fit this question: resume from here
            break
        done += 1
    return done
