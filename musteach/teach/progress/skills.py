"""One skill's answers (:class:`Review`) and its record (:class:`SkillRecord`), folded beyond a limit."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler

from ...i18n import Text
from .base import (
    HISTORY_LIMIT,
    REVIEW_WORD,
    SCHEDULER,
    SCHEMA_VERSION,
    ProgressError,
    Where,
    new_card,
    parse_time,
    scheduler_key,
)

# ----------------------------------------------------------------------------------------------
# Answers and skills
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Review:
    """One answer: when (``at``, UTC), right or not, the FSRS rating it was given, and how long it took.

    id: a unique name (merging two progress copies keeps one of each id). rating: 1 Again, 2 Hard, 3 Good,
    4 Easy (:class:`fsrs.Rating`); a wrong answer is always Again. ms: milliseconds to answer, or None.
    tries: 1 (right or given up at the first try), 2 (at the second), ``"shown"`` (the answer was shown), or
    None when not known (answers kept before schema version 4). diagnosis: the name of the mistake diagnosed
    (a tag such as ``"tie_to_mano"``), or None.
    """

    at: datetime
    id: str
    correct: bool = field(compare=False)
    rating: int = field(compare=False)
    ms: int | None = field(default=None, compare=False)
    tries: int | str | None = field(default=None, compare=False)
    diagnosis: str | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "at": self.at.isoformat(), "correct": self.correct, "rating": self.rating, "ms": self.ms}
        return out | {"tries": self.tries, "diagnosis": self.diagnosis}

    def to_list(self) -> list[Any]:
        """The compact form: ``[at, rating, ms, id]`` (schema version 2; right is ``rating > 1``), followed by
        ``tries, diagnosis`` when either is known (version 4)."""
        out: list[Any] = [self.at.isoformat(), self.rating, self.ms, self.id]
        if self.tries is not None or self.diagnosis is not None:
            out += [self.tries, self.diagnosis]
        return out

    @classmethod
    def from_list(cls, data: object, where: Where = REVIEW_WORD) -> Review:
        """A review from its compact form ``[at, rating, ms, id]`` or ``[at, rating, ms, id, tries, diagnosis]``;
        raises :class:`ProgressError`."""
        if not isinstance(data, list) or len(data) not in (4, 6):
            raise ProgressError(
                Text(
                    "{where} must be a list [time, rating, milliseconds, id], not {data}", where=where, data=repr(data)
                )
            )
        at, rating, ms, rid, tries, diagnosis = (*data, None, None)[:6]
        correct = rating != Rating.Again if isinstance(rating, int) and not isinstance(rating, bool) else None
        raw = {"id": rid, "at": at, "correct": correct, "rating": rating, "ms": ms}
        return cls.from_dict(raw | {"tries": tries, "diagnosis": diagnosis}, where)

    @classmethod
    def from_dict(cls, data: object, where: Where = REVIEW_WORD) -> Review:
        """A review from its JSON form; raises :class:`ProgressError` naming the bad field."""
        if not isinstance(data, Mapping):
            raise ProgressError(
                Text("{where} must be an object with id, at, correct, rating, not {data}", where=where, data=repr(data))
            )
        rid = data.get("id")
        if not isinstance(rid, str) or not 1 <= len(rid) <= 64:
            raise ProgressError(Text("{where}: 'id' must be a short text, not {rid}", where=where, rid=repr(rid)))
        at = parse_time(data.get("at"), Text("{where}: 'at'", where=where))
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
        tries = data.get("tries")
        if tries not in (None, 1, 2, "shown") or isinstance(tries, bool):
            raise ProgressError(
                Text("{where}: 'tries' must be 1, 2, \"shown\" or null, not {tries}", where=where, tries=repr(tries))
            )
        diagnosis = data.get("diagnosis")
        if diagnosis is not None and (not isinstance(diagnosis, str) or not 1 <= len(diagnosis) <= 64):
            raise ProgressError(
                Text(
                    "{where}: 'diagnosis' must be a short text or null, not {diagnosis}",
                    where=where,
                    diagnosis=repr(diagnosis),
                )
            )
        return cls(at, rid, correct, rating, ms, tries, diagnosis)


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
            card = new_card(self.skill) if self.base_card is None else FsrsCard.from_dict(dict(self.base_card))  # type: ignore[arg-type]
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
        if (b.base_until or datetime.min.replace(tzinfo=UTC)) > (a.base_until or datetime.min.replace(tzinfo=UTC)):
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
        until = parse_time(base.get("until"), Text("{where}: base 'until'", where=where))
        return cls(skill, (), dict(card), answered, right, until).with_reviews(reviews)  # type: ignore[arg-type]
