"""The class database: teachers, their classes, the learners who joined them and the learners' records.

SQLAlchemy 2 models and one store (:class:`ClassStore`), the only code that reads or writes the database
(the server is its one writer: kernels and pages never hold its address). SQLite in the user's data folder by
default (:func:`default_url`); ``postgresql+psycopg://…`` for several instances behind one proxy. The schema is
versioned with Alembic (``migrations/``, shipped in the package): :meth:`ClassStore.open` upgrades an older
database to the newest schema before anything else.

Secrets (a teacher's link key, a learner's cookie) are stored as SHA-256 digests only; a teacher's optional
password as an argon2 hash. Every method that shows names or records takes the teacher's id and answers only
for that teacher's classes (:class:`NotYours` otherwise).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    case,
    create_engine,
    delete,
    event,
    func,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from musteach.rules.errors import MusError

from .records import ValidRecord

__all__ = [
    "ClassInfo",
    "ClassStore",
    "Dashboard",
    "LearnerInfo",
    "LearnerRow",
    "Mistake",
    "NotYours",
    "TIMED_KINDS",
    "TeacherInfo",
    "default_url",
    "digest",
]

#: Letters of a class's short code (no 0/O, 1/I/L: read out in a room).
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
NAME_MAX = 40
CLASS_NAME_MAX = 80
#: A learner no longer shows a misconception once they have answered this many questions of the skill where
#: they last showed it right at the first try since (the dashboard counts who *still* shows each).
RECOVERED_AFTER = 3


class NotYours(MusError):
    """A teacher asked about a class (or a learner of a class) that is not theirs, or that does not exist."""


def digest(secret: str) -> str:
    """The SHA-256 hex digest under which a secret (link key, learner cookie) is stored."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def default_url() -> str:
    """``sqlite:///<user data folder>/classes.sqlite`` (platformdirs), the folder created if missing."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("musteach", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'classes.sqlite'}"


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The models' base."""


class Teacher(Base):
    """A teacher: created with ``musteach teacher add NAME``; known by the key of their secret link."""

    __tablename__ = "teachers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(CLASS_NAME_MAX))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class SchoolClass(Base):
    """A class a teacher opened: its join link's key and the short code read out in the room."""

    __tablename__ = "classes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(CLASS_NAME_MAX))
    code: Mapped[str] = mapped_column(String(CODE_LENGTH), unique=True)
    join_key: Mapped[str] = mapped_column(String(64), unique=True)
    practice_skill: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class Learner(Base):
    """A learner in one class: a display name and the digest of their class cookie."""

    __tablename__ = "learners"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    joined: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class Record(Base):
    """One record of a learner (issue 23's records: an answer, a quiz run, a practice review, a game)."""

    __tablename__ = "records"
    __table_args__ = (
        UniqueConstraint("learner_id", "rid", name="uq_records_learner_rid"),
        Index("ix_records_class_kind", "class_id", "kind"),
        Index("ix_records_learner_skill_at", "learner_id", "skill", "at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"))
    learner_id: Mapped[int] = mapped_column(ForeignKey("learners.id", ondelete="CASCADE"), index=True)
    rid: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    lesson: Mapped[str | None] = mapped_column(String(64), nullable=True)
    quiz: Mapped[str | None] = mapped_column(String(64), nullable=True)
    skill: Mapped[str | None] = mapped_column(String(40), nullable=True)
    correct: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    tries: Mapped[int | None] = mapped_column(Integer, nullable=True)
    diagnosis: Mapped[str | None] = mapped_column(String(64), nullable=True)
    stars: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    data: Mapped[str] = mapped_column(Text, default="{}")


@dataclass(frozen=True)
class TeacherInfo:
    """A teacher: id, name, and whether their link also asks for a password."""

    id: int
    name: str
    has_password: bool


#: The records whose ``seconds`` add up to a learner's time spent: a lesson quiz's answers (each the time spent
#: on it, finished run or not: a run record from musteach_widgets carries no time then; one from an older
#: kernel, whose answers carried none, carries its whole time), practice's reviews, and games.
TIMED_KINDS = ("answer", "run", "game", "review")

#: Diagnosis tags that name no misconception: a slip is a wrong answer no rule explains (musteach.teach.mistakes),
#: so the dashboard lists it among a learner's mistakes but never counts it as something the class still gets wrong.
NOT_A_MISCONCEPTION = frozenset({"slip"})


@dataclass(frozen=True)
class ClassInfo:
    """A class: id, teacher, name, short code, join link key, practice skill set by the teacher (or None)."""

    id: int
    teacher_id: int
    name: str
    code: str
    join_key: str
    practice_skill: str | None


@dataclass(frozen=True)
class LearnerInfo:
    """A learner: id, class, display name."""

    id: int
    class_id: int
    name: str


@dataclass
class LearnerRow:
    """One learner on the dashboard. stars: lesson -> best stars; answers / first_try: answers given and right
    at the first try (all lessons); seconds: time spent (in seconds: the sum over :data:`TIMED_KINDS`, so the
    answers of a run left unfinished count); skills: skill -> (answers,
    right at the first try); mistakes: the diagnosis tags they still show (:data:`RECOVERED_AFTER`)."""

    id: int
    name: str
    stars: dict[str, int] = field(default_factory=dict)
    lesson_answers: dict[str, tuple[int, int]] = field(default_factory=dict)
    lesson_seconds: dict[str, float] = field(default_factory=dict)
    answers: int = 0
    first_try: int = 0
    seconds: float = 0.0
    skills: dict[str, tuple[int, int]] = field(default_factory=dict)
    mistakes: set[str] = field(default_factory=set)

    @property
    def accuracy(self) -> float | None:
        """Share of answers right at the first try (0..1), None before any answer."""
        return self.first_try / self.answers if self.answers else None


@dataclass(frozen=True)
class Mistake:
    """A learner's wrong answer, as their page lists it: when, where (lesson, quiz, skill), its diagnosis."""

    at: datetime
    lesson: str | None
    quiz: str | None
    skill: str | None
    diagnosis: str | None
    tries: int | None


@dataclass
class Dashboard:
    """What the teacher's page of a class shows: the class, its learners (by name), the lessons and skills
    that appear in their records (sorted), and misconceptions: diagnosis tag -> names of the learners who
    still show it (not yet :data:`RECOVERED_AFTER` questions of that skill right at the first try since they
    last did), most common first."""

    klass: ClassInfo
    learners: list[LearnerRow]
    lessons: list[str]
    skills: list[str]
    misconceptions: list[tuple[str, list[str]]]
    records: int


def _class_info(c: SchoolClass) -> ClassInfo:
    return ClassInfo(c.id, c.teacher_id, c.name, c.code, c.join_key, c.practice_skill)


#: Unicode categories a name may not hold: controls, and format characters (the bidi overrides that would turn
#: the rest of a dashboard line around, zero-width characters that make two names look alike), surrogates and
#: private or unassigned code points.
_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def _clean_name(name: object, most: int, what: str) -> str:
    if not isinstance(name, str):
        raise MusError(f"{what} must be text, not {type(name).__name__}")
    text = " ".join(name.split())
    if not text or len(text) > most or any(unicodedata.category(ch) in _UNPRINTABLE for ch in text):
        raise MusError(f"{what} must be 1 to {most} printable characters, not {name!r:.60}")
    return text


class ClassStore:
    """The class database behind ``url`` (a SQLAlchemy URL). :meth:`open` builds one and migrates it."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    @classmethod
    def open(cls, url: str | None = None, *, migrate: bool = True) -> ClassStore:
        """The store at ``url`` (None: :func:`default_url`), its schema upgraded to the newest (Alembic).
        ``postgresql://`` URLs are read as ``postgresql+psycopg://`` (psycopg 3). Raises MusError for a URL
        SQLAlchemy cannot read, or a database it cannot reach or migrate (the password is not shown)."""
        url = url or default_url()
        if url.startswith(("postgresql://", "postgres://")):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]
        try:
            if url.startswith("sqlite"):
                engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 15})
                event.listen(engine, "connect", _sqlite_pragmas)
            else:
                engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)
        except Exception as e:  # sqlalchemy.exc.ArgumentError, NoSuchModuleError
            raise MusError(f"--database: cannot use {url.split('@')[-1]!r}: {e}") from None
        store = cls(engine)
        if migrate:
            from sqlalchemy.exc import SQLAlchemyError

            from .migrate import upgrade

            try:
                upgrade(engine)
            except SQLAlchemyError as e:
                engine.dispose()
                why = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
                raise MusError(f"cannot open the class database {engine.url.render_as_string(hide_password=True)}: "
                               f"{why}") from None
        return store

    def close(self) -> None:
        """Close every connection."""
        self.engine.dispose()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed at the end of the block (rolled back on an error)."""
        with self.sessions() as s, s.begin():
            yield s

    # ----- teachers ---------------------------------------------------------------------------------

    def add_teacher(self, name: str, password: str | None = None) -> tuple[TeacherInfo, str]:
        """A new teacher and the key of their secret link (shown once, stored as a digest). ``password``:
        also asked when the link is opened (stored as an argon2 hash). A teacher of that name already there
        (:meth:`teacher_named`) keeps their id and classes and gets the new key instead (their old link stops
        working; their password stays unless a new one is given): this is how a lost link is replaced.
        Raises MusError for a bad name."""
        name = _clean_name(name, CLASS_NAME_MAX, "a teacher's name")
        key = secrets.token_urlsafe(24)
        hashed = None
        if password:
            from argon2 import PasswordHasher

            hashed = PasswordHasher().hash(password)
        with self.session() as s:
            t = s.scalar(select(Teacher).where(Teacher.name == name).order_by(Teacher.id).limit(1))
            if t is None:
                t = Teacher(name=name, key_hash=digest(key), password_hash=hashed, created=_now())
                s.add(t)
            else:
                t.key_hash = digest(key)
                t.password_hash = hashed or t.password_hash
            s.flush()
            return TeacherInfo(t.id, t.name, t.password_hash is not None), key

    def teacher_named(self, name: str) -> TeacherInfo | None:
        """The (first) teacher called ``name`` (spaces tidied as :meth:`add_teacher` does), or None."""
        name = " ".join(str(name).split())
        with self.session() as s:
            t = s.scalar(select(Teacher).where(Teacher.name == name).order_by(Teacher.id).limit(1))
            return None if t is None else TeacherInfo(t.id, t.name, t.password_hash is not None)

    def teacher_by_key(self, key: str) -> TeacherInfo | None:
        """The teacher whose link key is ``key``, or None."""
        with self.session() as s:
            t = s.scalar(select(Teacher).where(Teacher.key_hash == digest(key)))
            return None if t is None else TeacherInfo(t.id, t.name, t.password_hash is not None)

    def teacher(self, teacher_id: int) -> TeacherInfo | None:
        """The teacher with this id, or None."""
        with self.session() as s:
            t = s.get(Teacher, teacher_id)
            return None if t is None else TeacherInfo(t.id, t.name, t.password_hash is not None)

    def check_password(self, teacher_id: int, password: str) -> bool:
        """Whether ``password`` is the teacher's (True for a teacher without one)."""
        with self.session() as s:
            t = s.get(Teacher, teacher_id)
            if t is None:
                return False
            if t.password_hash is None:
                return True
            from argon2 import PasswordHasher
            from argon2.exceptions import Argon2Error, InvalidHashError

            try:
                return PasswordHasher().verify(t.password_hash, password)
            except (Argon2Error, InvalidHashError):
                return False

    # ----- classes ----------------------------------------------------------------------------------

    def open_class(self, teacher_id: int, name: str) -> ClassInfo:
        """A new class of the teacher, with a fresh join key and short code. Raises MusError for a bad name."""
        name = _clean_name(name, CLASS_NAME_MAX, "a class's name")
        for _ in range(20):
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            try:
                with self.session() as s:
                    c = SchoolClass(teacher_id=teacher_id, name=name, code=code, join_key=secrets.token_urlsafe(16),
                                    created=_now())
                    s.add(c)
                    s.flush()
                    return _class_info(c)
            except IntegrityError:  # the code was taken: draw another
                continue
        raise MusError("no free class code found")  # pragma: no cover

    def classes_of(self, teacher_id: int) -> list[tuple[ClassInfo, int]]:
        """The teacher's classes, newest first, each with its number of learners."""
        with self.session() as s:
            counts = (select(Learner.class_id, func.count(Learner.id).label("n")).group_by(Learner.class_id)
                      .subquery())
            rows = s.execute(select(SchoolClass, func.coalesce(counts.c.n, 0))
                             .outerjoin(counts, counts.c.class_id == SchoolClass.id)
                             .where(SchoolClass.teacher_id == teacher_id).order_by(SchoolClass.id.desc())).all()
            return [(_class_info(c), int(n)) for c, n in rows]

    def class_of(self, teacher_id: int, class_id: int) -> ClassInfo:
        """The teacher's class ``class_id``. Raises :class:`NotYours` for another teacher's or none."""
        with self.session() as s:
            c = s.get(SchoolClass, class_id)
            if c is None or c.teacher_id != teacher_id:
                raise NotYours(f"no class {class_id} of this teacher")
            return _class_info(c)

    def class_to_join(self, key_or_code: str) -> ClassInfo | None:
        """The class whose join key, or short code (any case, spaces ignored), is ``key_or_code``; or None."""
        code = "".join(key_or_code.split()).upper()
        with self.session() as s:
            c = s.scalar(select(SchoolClass).where(SchoolClass.join_key == key_or_code))
            if c is None and len(code) == CODE_LENGTH:
                c = s.scalar(select(SchoolClass).where(SchoolClass.code == code))
            return None if c is None else _class_info(c)

    def class_to_join_by_id(self, class_id: int) -> ClassInfo | None:
        """The class with this id (for its own learner's page), or None."""
        with self.session() as s:
            c = s.get(SchoolClass, class_id)
            return None if c is None else _class_info(c)

    def set_practice(self, teacher_id: int, class_id: int, skill: str | None) -> None:
        """Point every learner's practice in the class at ``skill`` (None: their own choice). Raises
        NotYours, or MusError for a skill the practice does not have."""
        if skill is not None:
            from musteach.teach.classes import practice_skills

            if skill not in practice_skills():
                raise MusError(f"no skill {skill!r}")
        self.class_of(teacher_id, class_id)
        with self.session() as s:
            c = s.get(SchoolClass, class_id)
            assert c is not None
            c.practice_skill = skill

    def practice_of(self, class_id: int) -> str | None:
        """The skill the class's teacher points practice at, or None."""
        with self.session() as s:
            return s.scalar(select(SchoolClass.practice_skill).where(SchoolClass.id == class_id))

    # ----- learners ---------------------------------------------------------------------------------

    def join(self, class_id: int, name: str) -> tuple[LearnerInfo, str]:
        """A new learner of the class and the secret of their class cookie. Raises MusError for a bad name
        or a class that does not exist."""
        name = _clean_name(name, NAME_MAX, "a name")
        key = secrets.token_urlsafe(24)
        with self.session() as s:
            if s.get(SchoolClass, class_id) is None:
                raise MusError(f"no class {class_id}")
            learner = Learner(class_id=class_id, name=name, key_hash=digest(key), joined=_now())
            s.add(learner)
            s.flush()
            return LearnerInfo(learner.id, class_id, learner.name), key

    def learner_by_key(self, key: str) -> LearnerInfo | None:
        """The learner whose class cookie holds ``key``, or None (left, or never joined)."""
        return self.learner_by_key_digest(digest(key))

    def learner_by_key_digest(self, key_digest: str) -> LearnerInfo | None:
        """The learner whose class cookie's digest (:func:`digest`) is ``key_digest``, or None."""
        with self.session() as s:
            row = s.scalar(select(Learner).where(Learner.key_hash == key_digest))
            return None if row is None else LearnerInfo(row.id, row.class_id, row.name)

    def leave(self, learner_id: int) -> int:
        """Delete the learner and every record of theirs; returns the records deleted."""
        with self.session() as s:
            n = s.scalar(select(func.count(Record.id)).where(Record.learner_id == learner_id)) or 0
            s.execute(delete(Record).where(Record.learner_id == learner_id))
            s.execute(delete(Learner).where(Learner.id == learner_id))
            return int(n)

    # ----- records ----------------------------------------------------------------------------------

    def add_record(self, learner: LearnerInfo, record: ValidRecord) -> bool:
        """File a validated record under the learner (and their own class), committed at once. False when the
        learner already has a record with this id (sent twice). Raises MusError when the learner has left."""
        try:
            with self.session() as s:
                if s.get(Learner, learner.id) is None:
                    raise MusError("this learner has left the class")
                s.add(Record(class_id=learner.class_id, learner_id=learner.id, rid=record.id, kind=record.kind,
                             lesson=record.lesson, quiz=record.quiz, skill=record.skill, correct=record.correct,
                             tries=record.tries, diagnosis=record.diagnosis, stars=record.stars,
                             seconds=record.seconds, at=record.at, data=json.dumps(record.data, sort_keys=True)))
        except IntegrityError:
            return False
        return True

    def records_of(self, teacher_id: int, class_id: int) -> int:
        """How many records the class holds."""
        self.class_of(teacher_id, class_id)
        with self.session() as s:
            return int(s.scalar(select(func.count(Record.id)).where(Record.class_id == class_id)) or 0)

    # ----- the dashboard ----------------------------------------------------------------------------

    def dashboard(self, teacher_id: int, class_id: int) -> Dashboard:
        """The class as its teacher sees it (a few grouped queries, whatever the number of records). Raises
        NotYours for another teacher's class."""
        klass = self.class_of(teacher_id, class_id)
        first = case((Record.tries == 1, 1), else_=0) * case((Record.correct.is_(True), 1), else_=0)
        with self.session() as s:
            rows = {lid: LearnerRow(lid, name) for lid, name in s.execute(
                select(Learner.id, Learner.name).where(Learner.class_id == class_id).order_by(Learner.name, Learner.id))}
            lessons: set[str] = set()
            skills: set[str] = set()
            for lid, lesson, stars, secs in s.execute(
                    select(Record.learner_id, Record.lesson, func.max(Record.stars), func.sum(Record.seconds))
                    .where(Record.class_id == class_id, Record.kind.in_(TIMED_KINDS))
                    .group_by(Record.learner_id, Record.lesson)):
                row = rows.get(lid)
                if row is None or lesson is None:
                    continue
                lessons.add(lesson)
                if stars is not None:
                    row.stars[lesson] = int(stars)
                row.lesson_seconds[lesson] = float(secs or 0)
                row.seconds += float(secs or 0)
            for lid, lesson, n, right in s.execute(
                    select(Record.learner_id, Record.lesson, func.count(Record.id), func.sum(first))
                    .where(Record.class_id == class_id, Record.kind == "answer")
                    .group_by(Record.learner_id, Record.lesson)):
                row = rows.get(lid)
                if row is None:
                    continue
                row.answers += int(n)
                row.first_try += int(right or 0)
                if lesson is not None:
                    lessons.add(lesson)
                    row.lesson_answers[lesson] = (int(n), int(right or 0))
            for lid, skill, n, right in s.execute(
                    select(Record.learner_id, Record.skill, func.count(Record.id), func.sum(first))
                    .where(Record.class_id == class_id, Record.kind.in_(("answer", "review")),
                           Record.skill.is_not(None))
                    .group_by(Record.learner_id, Record.skill)):
                row = rows.get(lid)
                if row is not None and skill is not None:
                    skills.add(skill)
                    row.skills[skill] = (int(n), int(right or 0))
            by_tag: dict[str, list[str]] = {}
            # walk each learner's answers in order: a tag is still shown until RECOVERED_AFTER answers of the
            # skill where it was last shown come right at the first try (one pass, whatever the database)
            shown: dict[tuple[int, str | None], dict[str, int]] = {}  # (learner, skill) -> tag -> right since
            for lid, skill, tag, right in s.execute(
                    select(Record.learner_id, Record.skill, Record.diagnosis, first)
                    .where(Record.class_id == class_id, Record.kind.in_(("answer", "review")))
                    .order_by(Record.learner_id, Record.at, Record.id)):
                if tag and tag not in NOT_A_MISCONCEPTION:
                    shown.setdefault((lid, skill), {})[tag] = 0
                elif right and skill is not None:
                    tags = shown.get((lid, skill))
                    if tags:
                        for t in tags:
                            tags[t] += 1
            for (lid, _skill), tags in sorted(shown.items(), key=lambda kv: kv[0][0]):
                row = rows.get(lid)
                if row is None:
                    continue
                for tag, right_since in sorted(tags.items()):
                    if right_since < RECOVERED_AFTER and tag not in row.mistakes:
                        row.mistakes.add(tag)
                        by_tag.setdefault(tag, []).append(row.name)
            total = int(s.scalar(select(func.count(Record.id)).where(Record.class_id == class_id)) or 0)
        common = sorted(by_tag.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        return Dashboard(klass, list(rows.values()), sorted(lessons), sorted(skills),
                         [(tag, sorted(names, key=str.casefold)) for tag, names in common], total)

    def learner_of(self, teacher_id: int, class_id: int, learner_id: int) -> LearnerInfo:
        """A learner of the teacher's class. Raises NotYours otherwise."""
        self.class_of(teacher_id, class_id)
        with self.session() as s:
            row = s.get(Learner, learner_id)
            if row is None or row.class_id != class_id:
                raise NotYours(f"no learner {learner_id} in class {class_id}")
            return LearnerInfo(row.id, row.class_id, row.name)

    def mistakes_of(self, teacher_id: int, class_id: int, learner_id: int) -> list[Mistake]:
        """A learner's wrong answers (wrong, or right only after the first try), in the order made. Raises
        NotYours for a learner of another teacher's class."""
        self.learner_of(teacher_id, class_id, learner_id)
        with self.session() as s:
            rows = s.execute(select(Record.at, Record.lesson, Record.quiz, Record.skill, Record.diagnosis,
                                    Record.tries)
                             .where(Record.learner_id == learner_id, Record.kind.in_(("answer", "review")),
                                    (Record.correct.is_(False)) | (Record.tries > 1))
                             .order_by(Record.at, Record.id)).all()
        return [Mistake(_aware(at), lesson, quiz, skill, tag, tries) for at, lesson, quiz, skill, tag, tries in rows]


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """SQLite: foreign keys enforced (ON DELETE CASCADE), write-ahead log (readers never wait for the writer)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
