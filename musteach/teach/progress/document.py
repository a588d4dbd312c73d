"""The learner's whole progress (:class:`Progress`): merging, resetting and its JSON document."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler

from ...i18n import Text, plural_text
from .base import (
    FAST_MS,
    OLDEST_READABLE_VERSION,
    RECENT,
    RUN_LIMIT,
    SCHEDULER,
    SCHEMA,
    SCHEMA_VERSION,
    ProgressError,
    ProgressSchemaError,
    as_utc,
    check_skill,
    now_utc,
    parse_time,
)
from .records import Record, RecordKind, new_id
from .runs import GameResult, QuizRun, check_count, check_key, read_folded
from .skills import Review, SkillRecord

_RUN_FIELDS = ("lesson", "quiz", "points", "questions", "stars", "hints", "retries")
_GAME_FIELDS = ("decisions", "stones_lost", "won", "level")


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
        steps: Iterable[Record] = (),
        settings: Mapping[str, Record] | None = None,
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
        #: the latest record of each setting (see :meth:`setting`)
        self.settings: dict[str, Record] = {
            k: v for k, v in (settings or {}).items() if reset_at is None or v.at > reset_at
        }
        #: the steps of quiz runs still in progress (see :meth:`open_run`)
        self.steps: tuple[Record, ...] = ()
        self._set_steps(steps)

    def _set_steps(self, steps: Iterable[Record]) -> None:
        """Keep the steps of the latest unfinished run of each quiz (and none from before the reset)."""
        finished = {r.id for r in self.runs}
        seen: dict[str, Record] = {}
        for st in steps:
            if st.data.get("run") not in finished and (self.reset_at is None or st.at > self.reset_at):
                seen.setdefault(st.id, st)
        latest: dict[str, tuple[datetime, str]] = {}
        for st in seen.values():
            key = f"{st.data.get('lesson')}/{st.data.get('quiz')}"
            latest[key] = max(latest.get(key, (st.at, str(st.data.get("run")))), (st.at, str(st.data.get("run"))))
        kept = [
            st
            for st in seen.values()
            if latest[f"{st.data.get('lesson')}/{st.data.get('quiz')}"][1] == st.data.get("run")
        ]
        self.steps = tuple(sorted(kept, key=lambda st: (st.at, st.id)))

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
            and self.steps == other.steps
            and self.settings == other.settings
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Progress: {self.answered()} answers, {self.right()} right, {len(self.skills)} skills>"

    # ----- questions about one skill -------------------------------------------------------
    def record_of(self, skill: str) -> SkillRecord:
        """The skill's record (an empty one for a skill never answered)."""
        return self.skills.get(skill) or SkillRecord(check_skill(skill))

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
        return float(self.scheduler.get_card_retrievability(self.card(skill), as_utc(now or now_utc())))

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
        tries: int | str | None = None,
        diagnosis: str | None = None,
    ) -> Review:
        """Add one answer and return it. rating: default :func:`rating_for` (Again / Good / Easy).
        tries: 1, 2 or ``"shown"`` (see :class:`Review`); diagnosis: the mistake's tag, or None.

        Raises :class:`ProgressError` for a bad skill name, time, duration or a rating that contradicts
        ``correct``.
        """
        check_skill(skill)
        if not isinstance(correct, bool):
            raise ProgressError(Text("correct must be True or False, not {correct}", correct=repr(correct)))
        at = as_utc(at or now_utc(), "at")
        if ms is not None:
            ms = max(0, int(ms))
        rating = rating_for(self, skill, correct, ms, fast_ms) if rating is None else Rating(int(rating))
        review = Review.from_dict(
            {"id": new_id(), "at": at.isoformat(), "correct": correct, "rating": int(rating), "ms": ms}
            | {"tries": tries, "diagnosis": diagnosis}
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
        run_id: str = "",
    ) -> QuizRun:
        """Add one finished quiz run and return it.

        points: each question's points (0..1, see :mod:`musteach.teach.scoring`). stars: 0..3 earned.
        run_id: the id its steps were kept under (:meth:`record_step`; they are dropped now), or "" for a new id.
        Raises :class:`ProgressError` for a bad lesson or quiz name, an empty run or a bad figure.
        """
        values = [float(p) for p in points]
        if not values or any(not 0.0 <= p <= 1.0 for p in values):
            raise ProgressError(
                Text("a quiz run needs 1 or more question points, each 0 to 1, not {points}", points=repr(list(points)))
            )
        run = QuizRun.from_list(
            [
                as_utc(at or now_utc(), "at").isoformat(),
                run_id or new_id(),
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
        self._set_steps(self.steps)
        return run

    # ----- quiz runs in progress -----------------------------------------------------------
    def record_step(
        self,
        lesson: str,
        quiz: str,
        run: str,
        *,
        seed: int,
        n: int,
        q: int,
        given: Any = None,
        hints: int = 0,
        at: datetime | None = None,
        shown: bool = False,
    ) -> Record:
        """Keep one answer of a quiz run still in progress, so that a reload resumes the run (see
        :meth:`open_run`). run: the run's id (:func:`new_id`, the same for every step and for the finished run).
        seed: the seed its questions are drawn with. n: questions in the run. q: this question's index (from
        0). given: the answer as plain JSON (a seat, a total, a name...). hints: hint steps taken on the question
        before this answer. shown: True for a step that only shows question ``q`` (the learner pressed Next),
        without an answer (its data has no ``given``). Raises :class:`ProgressError` for a bad lesson or quiz
        name, or a bad count."""
        check_key(lesson, "lesson"), check_key(quiz, "quiz")
        for name, v in (("seed", seed), ("n", n), ("q", q), ("hints", hints)):
            check_count(v, name)
        data = {
            "lesson": lesson,
            "quiz": quiz,
            "run": run,
            "seed": seed,
            "n": n,
            "q": q,
            "hints": hints,
        }
        if not shown:
            data["given"] = given
        step = Record.make(RecordKind.STEP, data, at=at)
        self._set_steps((*self.steps, step))
        return step

    def open_run(self, lesson: str, quiz: str) -> tuple[Record, ...]:
        """The steps of this quiz's latest run still in progress, in order (empty when there is none)."""
        return tuple(st for st in self.steps if st.data.get("lesson") == lesson and st.data.get("quiz") == quiz)

    # ----- settings ------------------------------------------------------------------------
    def set_setting(self, name: str, value: Any, *, at: datetime | None = None) -> Record:
        """Keep a setting (plain JSON value), e.g. :data:`OPPONENTS_LEVEL`; the latest of each name wins."""
        check_key(name, "quiz")
        rec = Record.make(RecordKind.SETTING, {"name": name, "value": value}, at=at)
        self._keep_setting(rec)
        return rec

    def _keep_setting(self, rec: Record) -> None:
        name = str(rec.data.get("name"))
        old = self.settings.get(name)
        if (old is None or (rec.at, rec.id) > (old.at, old.id)) and (self.reset_at is None or rec.at > self.reset_at):
            self.settings[name] = rec

    def setting(self, name: str, default: Any = None) -> Any:
        """The latest value kept for a setting, or ``default``."""
        rec = self.settings.get(name)
        return default if rec is None else rec.data.get("value", default)

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
        merged._set_steps((*self.steps, *other.steps))
        for setting in (*self.settings.values(), *other.settings.values()):
            merged._keep_setting(setting)
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
            steps=self.steps,
            settings=self.settings,
        )

    @classmethod
    def reset(cls, at: datetime | None = None, *, scheduler: Scheduler | None = None) -> Progress:
        """An empty progress that, saved to a store, drops every answer and run made before ``at`` (now), in
        every copy it is later merged with."""
        return cls(scheduler=scheduler, reset_at=as_utc(at or now_utc(), Text("reset time")))

    # ----- games at the play table ---------------------------------------------------------
    def record_game(
        self,
        decisions: int,
        stones_lost: float,
        won: bool,
        *,
        level: str = "",
        at: datetime | None = None,
        review: Any = None,
    ) -> GameResult:
        """Add one finished game of the play table (see :class:`GameResult`) and return it. Any finished game
        (any level) completes lesson 10's step on the map. review: the game's review as plain JSON (kept for the
        best game), or None. Raises :class:`ProgressError` for a negative count or loss."""
        game = GameResult.from_list(
            [
                new_id(),
                as_utc(at or now_utc(), "at").isoformat(),
                decisions,
                round(float(stones_lost), 1),
                won,
                level,
                review,
            ]
        )
        self.games = (*self.games, game)
        return game

    def best_game(self) -> GameResult | None:
        """The game with the lowest error rate (stones lost per decision) among those with a decision; the
        earliest of equals; None before any."""
        played = [g for g in self.games if g.decisions]
        return min(played, key=lambda g: (g.error_rate, g.at)) if played else None

    # ----- records -------------------------------------------------------------------------
    def records(self, *, besides: set[str] | frozenset[str] = frozenset()) -> list[Record]:
        """Every record this progress holds, one per kept answer, run, game, step and setting (and the reset),
        oldest first (see :mod:`.records`), except those whose id is in ``besides``. Folded answers and runs are
        no longer records of their own."""
        out: list[Record] = []
        for skill, rec in self.skills.items():
            for r in rec.reviews:
                if r.id not in besides:
                    data = {"skill": skill, "correct": r.correct, "rating": r.rating, "ms": r.ms}
                    out.append(
                        Record(RecordKind.ANSWER, r.id, r.at, data | {"tries": r.tries, "diagnosis": r.diagnosis})
                    )
        for run in self.runs:
            if run.id not in besides:
                row = run.to_list()
                data = dict(zip(_RUN_FIELDS, row[2:], strict=True))
                out.append(Record(RecordKind.RUN, run.id, run.at, data))
        for g in self.games:
            if g.id not in besides:
                row = g.to_list(with_review=False)
                data = dict(zip(_GAME_FIELDS, row[2:], strict=True)) | {"review": g.review}
                out.append(Record(RecordKind.GAME, g.id, g.at, data))
        out += [r for r in (*self.steps, *self.settings.values()) if r.id not in besides]
        reset = self._reset_id()
        if reset is not None and reset not in besides:
            assert self.reset_at is not None
            out.append(Record(RecordKind.RESET, reset, self.reset_at))
        return sorted(out, key=lambda r: (r.at, r.id))

    def _reset_id(self) -> str | None:
        return None if self.reset_at is None else "reset-" + self.reset_at.strftime("%Y%m%dT%H%M%S%fZ")

    def record_ids(self) -> set[str]:
        """The ids of :meth:`records`."""
        ids = {r.id for rec in self.skills.values() for r in rec.reviews}
        ids.update(r.id for r in self.runs)
        ids.update(g.id for g in self.games)
        ids.update(r.id for r in (*self.steps, *self.settings.values()))
        reset = self._reset_id()
        return ids | {reset} if reset is not None else ids

    @classmethod
    def from_records(cls, records: Iterable[Record], *, scheduler: Scheduler | None = None) -> Progress:
        """A progress holding these records (answers replayed in time order; a reset drops what came before it).
        Raises :class:`ProgressError` for a record whose data is wrong for its kind (naming the field)."""
        reviews: dict[str, list[Review]] = {}
        runs: list[QuizRun] = []
        games: list[GameResult] = []
        steps: list[Record] = []
        settings: dict[str, Record] = {}
        resets: list[datetime] = []
        for r in records:
            d, at = r.data, r.at.isoformat()
            if r.kind == RecordKind.ANSWER:
                skill = check_skill(d.get("skill"))
                reviews.setdefault(skill, []).append(Review.from_dict(dict(d) | {"id": r.id, "at": at}))
            elif r.kind == RecordKind.RUN:
                runs.append(QuizRun.from_list([at, r.id, *(d.get(k) for k in _RUN_FIELDS)]))
            elif r.kind == RecordKind.GAME:
                fields = ("decisions", "stones_lost", "won", "level", "review")
                games.append(GameResult.from_list([r.id, at, *(d.get(k) for k in fields)]))
            elif r.kind == RecordKind.STEP:
                steps.append(r)
            elif r.kind == RecordKind.SETTING:
                name = str(d.get("name"))
                if name not in settings or (r.at, r.id) > (settings[name].at, settings[name].id):
                    settings[name] = r
            else:
                resets.append(r.at)
        skills = {s: SkillRecord(s).with_reviews(rs, scheduler or SCHEDULER) for s, rs in reviews.items()}
        made = cls(skills, scheduler=scheduler, games=games, runs=runs, steps=steps, settings=settings)
        return made.merge(cls.reset(max(resets), scheduler=scheduler)) if resets else made

    def apply(self, records: Iterable[Record]) -> None:
        """Add these records (those already held are ignored). Raises :class:`ProgressError` for a bad record."""
        merged = self.merge(Progress.from_records(records, scheduler=self.scheduler))
        self.skills, self._best, self.games, self.runs = merged.skills, merged._best, merged.games, merged.runs
        self.folded_runs, self.reset_at, self.steps, self.settings = (
            merged.folded_runs,
            merged.reset_at,
            merged.steps,
            merged.settings,
        )

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
            best = self.best_game()
            out["games"] = [g.to_list(with_review=g is best) for g in self.games]
        if self.steps:
            out["steps"] = [st.to_dict() for st in self.steps]
        if self.settings:
            out["settings"] = {k: v.to_dict() for k, v in sorted(self.settings.items())}
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
        version = _readable_version(data.get("schema_version"))
        best = data.get("best_streak", 0)
        if isinstance(best, bool) or not isinstance(best, int) or best < 0:
            raise ProgressError(Text("'best_streak' must be a whole number ≥ 0, not {best}", best=repr(best)))
        raw = data.get("skills", {})
        if not isinstance(raw, Mapping):
            raise ProgressError(Text("'skills' must be an object of skill names, not {raw}", raw=repr(raw)))
        skills = {}
        for name, rec in raw.items():
            check_skill(name)
            skills[name] = SkillRecord.from_dict(name, rec, version)
        raw_games = data.get("games", [])
        if not isinstance(raw_games, list):
            raise ProgressError(Text("'games' must be a list of games, not {raw_games}", raw_games=repr(raw_games)))
        games = [GameResult.from_list(g, f"games[{i}]") for i, g in enumerate(raw_games)]
        runs, folded, reset_at = _read_runs(data) if version >= 3 else ([], {}, None)
        steps, settings = _read_steps_and_settings(data) if version >= 4 else ([], {})
        progress = cls(
            skills,
            best,
            scheduler=scheduler,
            games=games,
            runs=runs,
            folded_runs=folded,
            reset_at=reset_at,
            steps=steps,
            settings=settings,
        )
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


def rating_for(progress: Progress, skill: str, correct: bool, ms: int | None = None, fast_ms: int = FAST_MS) -> Rating:
    """The FSRS rating of an answer: Again when wrong; Easy when right within ``fast_ms`` milliseconds and
    making a streak of 3 or more on the skill; otherwise Good."""
    if not correct:
        return Rating.Again
    if ms is not None and ms <= fast_ms and progress.skill_streak(skill) >= 2:
        return Rating.Easy
    return Rating.Good


def _readable_version(version: object) -> int:
    """A document's ``schema_version`` if this musteach reads it; :class:`ProgressError` for a value that is no
    whole number, :class:`ProgressSchemaError` for a version too new or too old."""
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
    return version


def _read_runs(data: Mapping[str, Any]) -> tuple[list[QuizRun], dict[str, tuple[int, int]], datetime | None]:
    """A version 3+ document's quiz runs, folded runs and reset time; :class:`ProgressError` naming a bad field."""
    raw_runs = data.get("runs", [])
    if not isinstance(raw_runs, list):
        raise ProgressError(Text("'runs' must be a list, not {raw_runs}", raw_runs=repr(raw_runs)))
    runs = [QuizRun.from_list(r, Text("run {n}", n=i + 1)) for i, r in enumerate(raw_runs)]
    folded = read_folded(data.get("folded_runs", {}))
    reset = data.get("reset_at")
    return runs, folded, None if reset is None else parse_time(reset, "'reset_at'")


def _read_steps_and_settings(data: Mapping[str, Any]) -> tuple[list[Record], dict[str, Record]]:
    """A version 4+ document's steps of runs in progress and its settings, as records; :class:`ProgressError`
    naming a bad field or a record of another kind."""
    raw_steps = data.get("steps", [])
    if not isinstance(raw_steps, list):
        raise ProgressError(Text("'steps' must be a list, not {raw}", raw=repr(raw_steps)))
    steps = [Record.from_dict(st) for st in raw_steps]
    raw_settings = data.get("settings", {})
    if not isinstance(raw_settings, Mapping):
        raise ProgressError(Text("'settings' must be an object, not {raw}", raw=repr(raw_settings)))
    settings = {str(k): Record.from_dict(v) for k, v in raw_settings.items()}
    if any(st.kind != RecordKind.STEP for st in steps) or any(v.kind != RecordKind.SETTING for v in settings.values()):
        raise ProgressError(Text("'steps' and 'settings' hold records of another kind"))
    return steps, settings
