"""Class mode's database (issue 27): the store on SQLite and on a real PostgreSQL, its migrations, the records'
checks, and the server's record service (kernel keys, bindings, the queue while the database is down)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from classes_db import ThrowawayPostgres, postgres_or_skip
from musteach_server.classes import dashboard as html
from musteach_server.classes.db import ClassStore, NotYours
from musteach_server.classes.migrate import HEAD, revision_of, upgrade
from musteach_server.classes.records import MAX_RECORD_BYTES, check_record, parse_record
from musteach_server.classes.service import KERNEL_KEY_ENV, ClassService, Outcome
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from musteach.rules.errors import MusError

pytestmark = pytest.mark.xdist_group("classes_db")


@pytest.fixture(scope="module")
def postgres() -> Iterator[ThrowawayPostgres]:
    pg = postgres_or_skip()
    yield pg
    pg.stop()


def _fresh_pg_url(pg: ThrowawayPostgres, name: str) -> str:
    engine = create_engine(pg.url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return pg.url.rsplit("/", 1)[0] + "/" + name


_COUNTER = iter(range(10**6))


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classes.sqlite'}"
    pg = request.getfixturevalue("postgres")
    return _fresh_pg_url(pg, f"t{next(_COUNTER)}")


@pytest.fixture
def store(url: str) -> Iterator[ClassStore]:
    s = ClassStore.open(url)
    yield s
    s.close()


def answer(rid: str, *, correct: bool, tries: int = 1, tag: str | None = None, lesson: str = "03-grande-chica",
           skill: str = "grande") -> dict[str, object]:
    record: dict[str, object] = {"id": rid, "kind": "answer", "lesson": lesson, "quiz": "grande", "skill": skill,
                                 "correct": correct, "tries": tries}
    if tag:
        record["diagnosis"] = tag
    return record


def test_an_older_database_is_migrated_on_open(url: str) -> None:
    engine = create_engine(url)
    upgrade(engine, "0001")
    assert revision_of(engine) == "0001"
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO teachers (name, key_hash, created) VALUES ('Old', 'x', CURRENT_TIMESTAMP)"))
    engine.dispose()
    store = ClassStore.open(url)
    assert revision_of(store.engine) == HEAD
    with store.session() as s:
        assert s.execute(text("SELECT name FROM teachers")).scalar() == "Old"
    klass = store.open_class(1, "kept")
    store.set_practice(1, klass.id, "chica")  # the column 0002 added
    assert store.practice_of(klass.id) == "chica"
    store.close()


def test_a_teacher_sees_stars_accuracy_misconceptions_and_mistakes(store: ClassStore) -> None:
    teacher, key = store.add_teacher("Maite", password="s3cret")
    assert store.teacher_by_key(key) == teacher and store.teacher_by_key(key + "x") is None
    assert store.check_password(teacher.id, "s3cret") and not store.check_password(teacher.id, "S3cret")
    klass = store.open_class(teacher.id, "4B")
    assert store.class_to_join(klass.join_key) == klass
    assert store.class_to_join(klass.code.lower()[:3] + " " + klass.code.lower()[3:]) == klass
    ane, _ = store.join(klass.id, "Ane")
    iker, _ = store.join(klass.id, "Iker")
    store.join(klass.id, "Nerea")
    for r in (answer("a1", correct=False, tag="three_is_not_king"), answer("a2", correct=True, tries=2,
              tag="three_is_not_king"), answer("a3", correct=True), {"id": "r1", "kind": "run",
              "lesson": "03-grande-chica", "quiz": "grande", "stars": 2, "seconds": 120}):
        assert store.add_record(ane, check_record(r))
    assert not store.add_record(ane, check_record(answer("a1", correct=True)))  # the same id again: kept once
    for r in (answer("b1", correct=False, tag="three_is_not_king"), answer("b2", correct=False,
              tag="tie_not_to_mano"), {"id": "r2", "kind": "run", "lesson": "03-grande-chica", "stars": 3},
              {"id": "r3", "kind": "run", "lesson": "03-grande-chica", "stars": 1}):
        assert store.add_record(iker, check_record(r))
    d = store.dashboard(teacher.id, klass.id)
    rows = {r.name: r for r in d.learners}
    assert [r.name for r in d.learners] == ["Ane", "Iker", "Nerea"]
    assert rows["Ane"].stars == {"03-grande-chica": 2} and rows["Iker"].stars == {"03-grande-chica": 3}
    assert (rows["Ane"].answers, rows["Ane"].first_try) == (3, 1) and rows["Nerea"].accuracy is None
    assert rows["Ane"].seconds == 120
    assert d.misconceptions == [("three_is_not_king", ["Ane", "Iker"]), ("tie_not_to_mano", ["Iker"])]
    assert d.records == 8
    page = html.dashboard_page(d, "/", "http://x/join/k", "", "en")
    assert "2 of 3 learners still miss that in 8 reyes every 3 is a king" in page
    assert "1 of 3 learners still misses that every exact tie goes to the seat nearer mano" in page
    assert "2 de 3 alumnos aún no ven que" in html.dashboard_page(d, "/", "http://x/join/k", "", "es")
    assert "<svg" in page and "musteach-heatmap" in page
    mistakes = store.mistakes_of(teacher.id, klass.id, ane.id)
    assert [m.diagnosis for m in mistakes] == ["three_is_not_king", "three_is_not_king"]
    assert [m.tries for m in mistakes] == [1, 2]
    lines = html.csv_text(d).splitlines()
    assert lines[0].startswith("learner,lesson,stars")
    assert "Ane,03-grande-chica,2,3,1,0.33,120," in lines
    assert "Iker,,,2,0,0.00,0,three_is_not_king tie_not_to_mano" in lines


def test_a_teacher_sees_only_their_own_classes(store: ClassStore) -> None:
    a, _ = store.add_teacher("A")
    b, _ = store.add_teacher("B")
    ka = store.open_class(a.id, "A's")
    learner, _ = store.join(ka.id, "Ane")
    assert [c.id for c, _ in store.classes_of(b.id)] == []
    for call in (lambda: store.dashboard(b.id, ka.id), lambda: store.class_of(b.id, ka.id),
                 lambda: store.mistakes_of(b.id, ka.id, learner.id), lambda: store.set_practice(b.id, ka.id, "chica"),
                 lambda: store.learner_of(b.id, ka.id, learner.id)):
        with pytest.raises(NotYours):
            call()
    kb = store.open_class(b.id, "B's")
    with pytest.raises(NotYours):  # a learner of another class, asked through one's own class
        store.mistakes_of(b.id, kb.id, learner.id)


def test_leaving_deletes_the_learners_records(store: ClassStore) -> None:
    t, _ = store.add_teacher("T")
    k = store.open_class(t.id, "K")
    ane, key = store.join(k.id, "Ane")
    other, _ = store.join(k.id, "Other")
    store.add_record(ane, check_record(answer("a", correct=False, tag="three_is_not_king")))
    store.add_record(other, check_record(answer("a", correct=True)))
    assert store.leave(ane.id) == 1
    assert store.learner_by_key(key) is None
    assert store.records_of(t.id, k.id) == 1
    assert [r.name for r in store.dashboard(t.id, k.id).learners] == ["Other"]
    with pytest.raises(MusError):
        store.add_record(ane, check_record(answer("b", correct=True)))


@pytest.mark.parametrize("name", ["Robert'); DROP TABLE learners;--", "x' OR '1'='1", '"; DELETE FROM records; --',
                                  "<script>alert(1)</script>", "=HYPERLINK(\"http://evil\")"])
def test_sql_and_html_metacharacters_in_names_are_only_text(store: ClassStore, name: str) -> None:
    t, _ = store.add_teacher(name)
    k = store.open_class(t.id, name)
    learner, _ = store.join(k.id, name)
    store.add_record(learner, check_record(answer("a", correct=False, tag="three_is_not_king")))
    d = store.dashboard(t.id, k.id)
    assert [r.name for r in d.learners] == [name] and d.klass.name == name and d.records == 1
    page = html.dashboard_page(d, "/", "http://x/join/k", "", "en")
    assert "<script>" not in page
    assert all(not line.startswith("=") for line in html.csv_text(d).splitlines())


@pytest.mark.parametrize("bad", [
    [], "answer", {"kind": "answer"}, {"id": "a", "kind": "hack"}, {"id": "a b", "kind": "answer"},
    {"id": "a", "kind": "answer", "correct": "yes"}, {"id": "a", "kind": "answer", "tries": 0},
    {"id": "a", "kind": "run", "stars": 4}, {"id": "a", "kind": "answer", "diagnosis": "X'; DROP"},
    {"id": "a", "kind": "answer", "lesson": "../../etc"}, {"id": "a", "kind": "answer", "seconds": float("inf")},
    {"id": "a", "kind": "answer", "at": "yesterday"}, {"id": "a", "kind": "answer", "extra": {"nested": 1}},
    {"id": "a", "kind": "answer", "learner": 7, "note": "x" * 2000}, {"id": "a", "kind": "answer", "tries": True},
])
def test_malformed_records_are_refused(bad: object) -> None:
    with pytest.raises(MusError):
        check_record(bad)


def test_oversized_and_undecodable_bodies_are_refused() -> None:
    body = json.dumps({"id": "a", "kind": "answer", "note": "x" * MAX_RECORD_BYTES}).encode()
    with pytest.raises(MusError, match="at most"):
        parse_record(body)
    for raw in (b"\xff\xfe", b"{", b"null"):
        with pytest.raises(MusError):
            parse_record(raw)
    assert parse_record(json.dumps(answer("ok", correct=True)).encode()).id == "ok"


def _service(store: ClassStore) -> tuple[ClassService, int, str, str]:
    t, _ = store.add_teacher("T")
    k = store.open_class(t.id, "K")
    _learner, learner_key = store.join(k.id, "Ane")
    service = ClassService(store, "http://127.0.0.1:1/musteach/api/record")
    key, env = service.kernel_env({"PATH": "/bin", "MUSTEACH_SECRET": "s" * 32, "PGPASSWORD": "pw",
                                   "DATABASE_URL": "postgresql://u:pw@db/x"})
    assert env == {"PATH": "/bin", KERNEL_KEY_ENV: key, "MUSTEACH_RECORD_URL": service.record_url}
    service.kernel_started(key, "kernel-1")
    service.seat("kernel-1", learner_key)
    return service, t.id, key, learner_key


def test_records_go_to_the_kernels_learner_only(store: ClassStore) -> None:
    service, tid, key, _ = _service(store)
    body = json.dumps(answer("a1", correct=False, tag="three_is_not_king")).encode()
    assert service.file(key, body).outcome is Outcome.STORED
    assert service.file(key, body).outcome is Outcome.DUPLICATE
    assert service.file("forged-" + key, body).outcome is Outcome.UNKNOWN_KERNEL
    assert service.file(key, b"{not json").outcome is Outcome.BAD
    other_key, _ = service.kernel_env(None)
    service.kernel_started(other_key, "kernel-2")  # a kernel whose page has no class cookie
    assert service.file(other_key, json.dumps(answer("z", correct=True)).encode()).outcome is Outcome.NO_CLASS
    service.kernel_stopped("kernel-1")
    assert service.file(key, json.dumps(answer("a2", correct=True)).encode()).outcome is Outcome.UNKNOWN_KERNEL
    klass = store.classes_of(tid)[0][0]
    assert store.records_of(tid, klass.id) == 1


def test_records_made_while_the_database_is_down_are_written_when_it_returns(store: ClassStore,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    service, tid, key, _ = _service(store)
    real = store.add_record

    def down(*args: object, **kwargs: object) -> bool:
        raise OperationalError("INSERT", {}, Exception("server closed the connection"))

    monkeypatch.setattr(store, "add_record", down)
    outcomes = [service.file(key, json.dumps(answer(f"q{i}", correct=i % 2 == 0)).encode()).outcome for i in range(5)]
    assert outcomes == [Outcome.QUEUED] * 5 and len(service.queue) == 5
    assert service.flush() == 0 and len(service.queue) == 5
    monkeypatch.setattr(store, "add_record", real)
    assert service.file(key, json.dumps(answer("q5", correct=True)).encode()).outcome is Outcome.STORED
    assert not service.queue
    klass = store.classes_of(tid)[0][0]
    assert store.records_of(tid, klass.id) == 6


def test_postgres_going_down_queues_records_and_two_instances_share_a_class(postgres: ThrowawayPostgres) -> None:
    url = _fresh_pg_url(postgres, "outage")
    one, two = ClassStore.open(url), ClassStore.open(url)
    service, tid, key, _ = _service(one)
    klass = two.classes_of(tid)[0][0]  # the other instance sees the class the first one opened
    assert service.file(key, json.dumps(answer("before", correct=True)).encode()).outcome is Outcome.STORED
    postgres.pause()
    try:
        assert service.file(key, json.dumps(answer("during", correct=False, tag="three_is_not_king")).encode()
                            ).outcome is Outcome.QUEUED
    finally:
        postgres.resume()
    assert service.flush() == 1
    d = two.dashboard(tid, klass.id)
    assert d.records == 2 and d.misconceptions == [("three_is_not_king", ["Ane"])]
    one.close()
    two.close()


def test_teacher_add_prints_a_link_that_opens_their_classes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from musteach.cli import main

    url = f"sqlite:///{tmp_path / 'c.sqlite'}"
    monkeypatch.setenv("MUSTEACH_TEACHER_PASSWORD", "correct horse")
    assert main(["teacher", "add", "Maite", "--password", "--database", url, "--url", "http://school:8866"]) == 0
    link = capsys.readouterr().out.splitlines()[-1]
    assert link.startswith("http://school:8866/teach/login/")
    store = ClassStore.open(url)
    teacher = store.teacher_by_key(link.rsplit("/", 1)[1])
    assert teacher is not None and teacher.name == "Maite" and teacher.has_password
    assert store.check_password(teacher.id, "correct horse") and not store.check_password(teacher.id, "wrong")
    with store.session() as s:  # neither the key nor the password is stored as such
        row = s.execute(text("SELECT key_hash, password_hash FROM teachers")).one()
    assert link.rsplit("/", 1)[1] not in row[0] and "correct horse" not in row[1] and row[1].startswith("$argon2")
    store.close()
    assert main(["teacher", "add", "  ", "--database", url]) == 2


def test_instances_starting_together_on_one_postgres_migrate_once(postgres: ThrowawayPostgres) -> None:
    from concurrent.futures import ThreadPoolExecutor

    url = _fresh_pg_url(postgres, "together")
    with ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda _: ClassStore.open(url), range(4)))
    assert {revision_of(s.engine) for s in stores} == {HEAD}
    for s in stores:
        s.close()


def test_a_database_that_cannot_be_reached_is_one_clear_error(tmp_path: Path) -> None:
    from classes_db import free_port

    with pytest.raises(MusError, match=r"cannot open the class database .*\*\*\*") as e:
        ClassStore.open(f"postgresql://someone:hunter2@127.0.0.1:{free_port()}/x")
    assert "hunter2" not in str(e.value)
    with pytest.raises(MusError, match="--database"):
        ClassStore.open("nosuchdriver://x")
    with pytest.raises(MusError):
        ClassStore.open(f"sqlite:///{tmp_path}/missing-folder/x.sqlite")


def test_misconceptions_count_only_learners_who_still_show_them(store: ClassStore) -> None:
    from datetime import UTC, datetime, timedelta

    from musteach_server.classes.db import RECOVERED_AFTER

    t, _ = store.add_teacher("T")
    k = store.open_class(t.id, "K")
    start = datetime(2026, 12, 1, 10, tzinfo=UTC)
    at = iter(start + timedelta(seconds=10 * i) for i in range(100))

    def rec(rid: str, **kw: Any) -> Any:
        return check_record({**answer(rid, **kw), "at": next(at).isoformat()})

    ane, _ = store.join(k.id, "Ane")  # mistaken, then RECOVERED_AFTER right at the first try in that skill
    store.add_record(ane, rec("m", correct=False, tag="three_is_not_king"))
    for i in range(RECOVERED_AFTER):
        store.add_record(ane, rec(f"r{i}", correct=True))
    iker, _ = store.join(k.id, "Iker")  # one short of it, a second try, and right answers in another skill
    store.add_record(iker, rec("m", correct=False, tag="three_is_not_king"))
    for i in range(RECOVERED_AFTER - 1):
        store.add_record(iker, rec(f"r{i}", correct=True))
    store.add_record(iker, rec("late", correct=True, tries=2))
    for i in range(RECOVERED_AFTER):
        store.add_record(iker, rec(f"c{i}", correct=True, skill="chica"))
    nerea, _ = store.join(k.id, "Nerea")  # recovered, then the same mistake again
    store.add_record(nerea, rec("m1", correct=False, tag="three_is_not_king"))
    for i in range(RECOVERED_AFTER):
        store.add_record(nerea, rec(f"r{i}", correct=True))
    store.add_record(nerea, rec("m2", correct=False, tag="three_is_not_king"))
    d = store.dashboard(t.id, k.id)
    assert d.misconceptions == [("three_is_not_king", ["Iker", "Nerea"])]
    assert {r.name: r.mistakes for r in d.learners} == {"Ane": set(), "Iker": {"three_is_not_king"},
                                                         "Nerea": {"three_is_not_king"}}
    assert len(store.mistakes_of(t.id, k.id, ane.id)) == 1  # the learner's page still lists it, in order


def test_time_spent_counts_runs_left_unfinished(store: ClassStore) -> None:
    # a cold tester (a teacher): a learner who spent 20 minutes on a quiz and did not finish it showed nothing
    teacher, _ = store.add_teacher("Maite")
    klass = store.open_class(teacher.id, "4B")
    ane, _ = store.join(klass.id, "Ane")
    iker, _ = store.join(klass.id, "Iker")
    old, _ = store.join(klass.id, "Nerea")
    for i in range(4):  # Ane: four answers, 5 minutes each, and no run record (the quiz not finished)
        assert store.add_record(ane, check_record({**answer(f"a{i}", correct=True), "seconds": 300}))
    for i in range(3):  # Iker: a finished run, its time in its answers (the run record carries none)
        assert store.add_record(iker, check_record({**answer(f"b{i}", correct=True), "seconds": 40}))
    assert store.add_record(iker, check_record({"id": "r1", "kind": "run", "lesson": "03-grande-chica",
                                                "quiz": "grande", "stars": 3}))
    # Nerea: kept from an older kernel, the run's whole time on the run record and none on its answers
    assert store.add_record(old, check_record(answer("c1", correct=True)))
    assert store.add_record(old, check_record({"id": "r2", "kind": "run", "lesson": "03-grande-chica",
                                               "quiz": "grande", "stars": 1, "seconds": 90}))
    d = store.dashboard(teacher.id, klass.id)
    rows = {r.name: r for r in d.learners}
    assert (rows["Ane"].seconds, rows["Iker"].seconds, rows["Nerea"].seconds) == (1200, 120, 90)
    assert rows["Ane"].lesson_seconds == {"03-grande-chica": 1200}
    page = html.dashboard_page(d, "/", "http://x/join/k", "", "en")
    assert "<td>20 min</td>" in page
    assert "Ane,03-grande-chica,,4,4,1.00,1200," in html.csv_text(d).splitlines()
