"""Class mode's routes over real HTTP (issue 27): a teacher's link, a class, learners joining, kernels posting
records, the dashboard and CSV, and the attacks the issue lists, each refused. The routes run in a tornado
server of their own (the same handlers ``musteach serve`` registers), on SQLite."""

from __future__ import annotations

import asyncio
import csv
import html
import io
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests
import tornado.web
from classes_db import free_port
from musteach_server.classes.db import ClassStore
from musteach_server.classes.routes import (
    CLASS_COOKIE,
    KERNEL_HEADER,
    TEACHER_COOKIE,
    class_handlers,
    start_flusher,
)
from musteach_server.classes.service import ClassService

SECRET = b"k" * 32


@dataclass
class Server:
    url: str
    store: ClassStore
    service: ClassService

    def kernel(self, kernel_id: str, learner_cookie: str | None) -> str:
        """A kernel started (its key) and handed to a page with this class cookie."""
        key, _env = self.service.kernel_env({})
        self.service.kernel_started(key, kernel_id)
        self.service.seat(kernel_id, learner_cookie)
        return key

    def post_record(self, key: str, record: object, **headers: str) -> requests.Response:
        body = record if isinstance(record, bytes) else json.dumps(record).encode()
        return requests.post(self.url + "musteach/api/record", data=body,
                             headers={KERNEL_HEADER: key, "Content-Type": "application/json", **headers}, timeout=10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    store = ClassStore.open(f"sqlite:///{tmp_path / 'classes.sqlite'}")
    port = free_port()
    service = ClassService(store, f"http://127.0.0.1:{port}/musteach/api/record")
    app = tornado.web.Application(class_handlers("/"), musteach_classes=service, musteach_secret=SECRET,
                                  musteach_languages=("en", "es"), base_url="/")  # no xsrf_cookies, as Voilà
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)

        async def start() -> None:
            app.listen(port, "127.0.0.1")
            start_flusher(service, 0.2)
            ready.set()

        loop.run_until_complete(start())
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    yield Server(f"http://127.0.0.1:{port}/", store, service)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    store.close()


def xsrf(page: str) -> str:
    m = re.search(r'name="_xsrf" value="([^"]+)"', page)
    assert m, page
    return m.group(1)


def teacher_session(server: Server, name: str = "Maite") -> tuple[requests.Session, int]:
    """A teacher signed in through their link, with a class opened; returns the session and the class id."""
    _, key = server.store.add_teacher(name)
    s = requests.Session()
    home = s.get(server.url + f"teach/login/{key}", timeout=10)
    assert home.status_code == 200 and "Your classes" in home.text
    opened = s.post(server.url + "teach/classes", data={"name": f"{name}'s class", "_xsrf": xsrf(home.text)},
                    timeout=10)
    assert opened.status_code == 200
    class_id = int(opened.url.rstrip("/").rsplit("/", 1)[1])
    return s, class_id


def join(server: Server, join_url: str, name: str) -> requests.Session:
    s = requests.Session()
    form = s.get(join_url, timeout=10)
    assert form.status_code == 200
    done = s.post(join_url, data={"name": name, "_xsrf": xsrf(form.text)}, timeout=10)
    assert done.status_code == 200 and name in html.unescape(done.text)
    return s


def join_link(page: str) -> str:
    m = re.search(r'class="musteach-join">([^<]+)<', page)
    assert m
    return m.group(1)


def answer(rid: str, correct: bool, tag: str | None = None, tries: int = 1) -> dict[str, object]:
    return {"id": rid, "kind": "answer", "lesson": "03-grande-chica", "quiz": "grande", "skill": "grande",
            "correct": correct, "tries": tries, "diagnosis": tag}


def test_a_class_from_link_to_dashboard_and_csv(server: Server) -> None:
    teacher, class_id = teacher_session(server)
    page = teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text
    link = join_link(page)
    code = re.search(r'class="musteach-code">([A-Z0-9]{6})<', page)
    assert code
    learners = {name: join(server, link, name) for name in ("Ane", "Iker")}
    # a third learner joins with the short code read out in the room
    nerea = requests.Session()
    form = nerea.get(server.url + "join/", timeout=10)
    assert nerea.post(server.url + "join/", data={"code": code.group(1).lower(), "name": "Nerea",
                                                 "_xsrf": xsrf(form.text)}, timeout=10).status_code == 200
    learners["Nerea"] = nerea
    keys = {name: server.kernel(f"kernel-{name}", s.cookies[CLASS_COOKIE]) for name, s in learners.items()}
    for rec in (answer("a1", False, "three_is_not_king"), answer("a2", True), {"id": "r", "kind": "run",
                "lesson": "03-grande-chica", "quiz": "grande", "stars": 1, "seconds": 90}):
        assert server.post_record(keys["Ane"], rec).status_code == 201
    for rec in (answer("b1", False, "three_is_not_king"), answer("b2", True, "tie_not_to_mano", tries=2),
                {"id": "r", "kind": "run", "lesson": "03-grande-chica", "quiz": "grande", "stars": 2}):
        assert server.post_record(keys["Iker"], rec).status_code == 201
    assert server.post_record(keys["Nerea"], {"id": "r", "kind": "run", "lesson": "03-grande-chica",
                                              "stars": 3}).status_code == 201
    page = teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text
    assert "2 of 3 learners still miss that in 8 reyes every 3 is a king" in page
    assert "1 of 3 learners still misses that every exact tie goes to the seat nearer mano" in page
    for name, stars in (("Ane", "★☆☆"), ("Iker", "★★☆"), ("Nerea", "★★★")):
        assert re.search(rf'>{name}</a></th><td data-lesson="03-grande-chica"><span class="musteach-stars">{stars}<',
                         page), name
    es = teacher.get(server.url + f"teach/class/{class_id}?lang=es", timeout=10).text
    assert "2 de 3 alumnos aún no ven que" in es and '<html lang="es">' in es
    rows = list(csv.DictReader(io.StringIO(teacher.get(server.url + f"teach/class/{class_id}/csv", timeout=10).text.lstrip("\ufeff"))))
    stars = {r["learner"]: r["stars"] for r in rows if r["lesson"] == "03-grande-chica"}
    assert stars == {"Ane": "1", "Iker": "2", "Nerea": "3"}
    totals = {r["learner"]: r for r in rows if not r["lesson"]}
    assert totals["Ane"]["misconceptions"] == "three_is_not_king"
    assert totals["Iker"]["misconceptions"] == "three_is_not_king tie_not_to_mano"
    assert (totals["Ane"]["answers"], totals["Ane"]["first_try_right"]) == ("2", "1")
    # a learner's page: their mistakes in order
    lid = re.search(r'href="/teach/class/\d+/learner/(\d+)">Iker<', page)
    assert lid
    mine = teacher.get(server.url + f"teach/class/{class_id}/learner/{lid.group(1)}", timeout=10).text
    assert mine.index('data-tag="three_is_not_king"') < mine.index('data-tag="tie_not_to_mano"')


def test_the_practice_setting_reaches_the_kernels_of_the_class(server: Server) -> None:
    teacher, class_id = teacher_session(server)
    page = teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text
    ane = join(server, join_link(page), "Ane")
    key = server.kernel("k1", ane.cookies[CLASS_COOKIE])
    ask = lambda: requests.get(server.url + "musteach/api/practice", headers={KERNEL_HEADER: key}, timeout=10)  # noqa: E731
    assert ask().json() == {"skill": None}
    assert teacher.post(server.url + f"teach/class/{class_id}/practice",
                        data={"skill": "chica", "_xsrf": xsrf(page)}, timeout=10).status_code == 200
    assert ask().json() == {"skill": "chica"}


def test_a_learner_leaves_and_their_records_are_deleted(server: Server) -> None:
    teacher, class_id = teacher_session(server)
    ane = join(server, join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text), "Ane")
    key = server.kernel("k1", ane.cookies[CLASS_COOKIE])
    assert server.post_record(key, answer("a", False, "three_is_not_king")).status_code == 201
    mine = ane.get(server.url + "class/", timeout=10)
    left = ane.post(server.url + "class/leave", data={"_xsrf": xsrf(mine.text)}, timeout=10)
    assert left.status_code == 200 and CLASS_COOKIE not in ane.cookies
    page = teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text
    assert "Ane" not in page and "No misconception seen yet." in page
    tid = server.store.classes_of(1)[0][0].teacher_id
    assert server.store.records_of(tid, class_id) == 0
    assert server.post_record(key, answer("b", True)).status_code == 204  # the kernel's records go nowhere now


def test_attacks_are_refused(server: Server) -> None:
    teacher_a, class_a = teacher_session(server, "A")
    teacher_b, class_b = teacher_session(server, "B")
    page_a = teacher_a.get(server.url + f"teach/class/{class_a}", timeout=10).text
    ane = join(server, join_link(page_a), "Ane")
    key = server.kernel("k-ane", ane.cookies[CLASS_COOKIE])
    assert server.post_record(key, answer("a1", False, "three_is_not_king")).status_code == 201

    # another teacher's class: no dashboard, CSV, learner page or setting (as if it did not exist)
    for path in (f"teach/class/{class_a}", f"teach/class/{class_a}/csv", f"teach/class/{class_a}/learner/1"):
        assert teacher_b.get(server.url + path, timeout=10).status_code == 404
    page_b = teacher_b.get(server.url + f"teach/class/{class_b}", timeout=10).text
    assert teacher_b.post(server.url + f"teach/class/{class_a}/practice", data={"skill": "chica",
                          "_xsrf": xsrf(page_b)}, timeout=10).status_code == 404
    # another class's learner through one's own class
    assert teacher_b.get(server.url + f"teach/class/{class_b}/learner/1", timeout=10).status_code == 404
    assert "Ane" not in page_b
    # a learner (or anyone) without a teacher cookie, or with a forged one, sees no class
    assert ane.get(server.url + f"teach/class/{class_a}", timeout=10).status_code == 403
    forged = requests.get(server.url + f"teach/class/{class_a}", cookies={TEACHER_COOKIE: "1"}, timeout=10)
    assert forged.status_code == 403
    assert requests.get(server.url + "teach/login/AAAAAAAAAAAAAAAAAAAAAAAA", timeout=10).status_code == 403
    # a forged kernel key, and a key of a kernel that stopped
    assert server.post_record("forged" + key, answer("x", True)).status_code == 403
    assert server.post_record("", answer("x", True)).status_code == 403
    # a record posted from a page (a browser's headers), through a proxy, or with a cookie
    for headers in ({"Origin": server.url.rstrip("/")}, {"Sec-Fetch-Site": "same-origin"},
                    {"Sec-Fetch-Mode": "cors"}, {"X-Forwarded-For": "10.0.0.9"},
                    {"Cookie": f"{CLASS_COOKIE}={ane.cookies[CLASS_COOKIE]}"}, {"Referer": server.url}):
        assert server.post_record(key, answer("p", True), **headers).status_code == 403, headers
    # a forged learner: a kernel handed to a page with a made-up class cookie files nothing
    fake = server.kernel("k-fake", "made-up-cookie-value-123456")
    assert server.post_record(fake, answer("f", True)).status_code == 410
    # oversized and malformed records
    assert server.post_record(key, {**answer("big", True), "note": "x" * 5000}).status_code == 400
    for bad in (b"{", b"[]", b'{"id": "a", "kind": "hack"}', b"\xff", json.dumps(
            {**answer("n", True), "learner_id": 2, "class_id": 2, "x": {"y": 1}}).encode()):
        assert server.post_record(key, bad).status_code == 400, bad
    # a record cannot name another learner or class: extra keys are refused or kept as data, never obeyed
    assert server.post_record(key, {**answer("own", True), "learner": "Iker"}).status_code == 201
    tid = server.store.classes_of(1)[0][0].teacher_id
    assert server.store.records_of(tid, class_a) == 2
    assert server.store.records_of(server.store.classes_of(2)[0][0].teacher_id, class_b) == 0
    # forms need their XSRF token
    assert teacher_a.post(server.url + "teach/classes", data={"name": "no token"}, timeout=10).status_code == 403


@pytest.mark.parametrize("name", ["Robert'); DROP TABLE learners;--", "x' OR '1'='1", "<img src=x onerror=alert(1)>",
                                  "=cmd|' /C calc'!A0"])
def test_metacharacters_in_names_are_kept_as_text(server: Server, name: str) -> None:
    teacher, class_id = teacher_session(server)
    join(server, join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text), name)
    page = teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text
    assert "<img src=x" not in page and name in html.unescape(page)
    rows = teacher.get(server.url + f"teach/class/{class_id}/csv", timeout=10).text.splitlines()
    assert not any(row.startswith(("=", "+", "-", "@")) for row in rows)
    assert [r.name for r in server.store.dashboard(1, class_id).learners] == [" ".join(name.split())]


def test_the_kernel_sink_posts_to_the_server(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    from musteach_widgets import class_sink

    teacher, class_id = teacher_session(server)
    ane = join(server, join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text), "Ane")
    key = server.kernel("k-ane", ane.cookies[CLASS_COOKIE])
    monkeypatch.setenv(class_sink.KERNEL_KEY_ENV, key)
    monkeypatch.setenv(class_sink.RECORD_URL_ENV, server.service.record_url)
    class_sink.send_record(answer("s1", False, "chica_from_the_top"))
    class_sink.send_record({"bad": float("nan")})  # not JSON: dropped, never raised
    assert class_sink.flush(10)
    d = server.store.dashboard(1, class_id)
    assert d.misconceptions == [("chica_from_the_top", ["Ane"])]
    assert class_sink.class_practice_skill() is None


def test_quiz_records_name_the_first_picks_misconception_and_the_runs_time() -> None:
    from types import SimpleNamespace

    from musteach_widgets.class_sink import answer_record, run_record

    from musteach.teach.scoring import Attempt

    hands = [h.split() for h in "3o 3c 4b 5e|12o 7c 6b 5o|1o 1c 2b 4o|6o 6c 5b 4c".split("|")]
    question = SimpleNamespace(hands=hands, mano=0, lance="grande", skill="grande", rules=None)
    # the record names the attempt's own diagnosis (musteach's, made when the answer was graded) ...
    attempt = Attempt(wrong=1, solved=True, diagnoses=("chica_from_the_top",))
    record = answer_record("03-grande-chica", "grande", question, attempt, "rid1", 1)
    assert record == {"id": "rid1", "kind": "answer", "lesson": "03-grande-chica", "quiz": "grande",
                      "correct": True, "tries": 2, "diagnosis": "chica_from_the_top", "skill": "grande"}
    # ... and works nothing out again from the hands: seat 1 here would re-derive "three_is_not_king"
    bare = answer_record("03-grande-chica", "grande", question, Attempt(wrong=1, solved=True), "rid3", 1)
    assert bare["diagnosis"] is None
    right = answer_record("03-grande-chica", "grande", question, Attempt(solved=True), "rid2", 0)
    assert (right["tries"], right["diagnosis"]) == (1, None)
    run = SimpleNamespace(id="run1", lesson="03-grande-chica", quiz="grande", stars=2,
                          at=datetime(2026, 1, 1, tzinfo=UTC))
    rec = run_record(run)
    assert rec["kind"] == "run" and rec["stars"] == 2 and "seconds" not in rec  # the time is the answers'
    timed = answer_record("03-grande-chica", "grande", question, attempt, "rid4", seconds=75.04)
    assert timed["seconds"] == 75.0


def test_a_lesson_quizs_answers_carry_the_time_spent_on_each_and_its_run_none(monkeypatch) -> None:
    from types import SimpleNamespace

    from musteach_widgets import class_sink, loop

    from musteach.teach.scoring import Attempt

    sent: list[dict] = []
    monkeypatch.setattr(loop, "send_record", sent.append)
    now = iter([100.0, 160.0, 400.0, 400.0 + 3600.0])  # made; 60 s; 240 s; an hour away (counted as the cap)
    sink = loop.ClassSink(clock=lambda: next(now))
    question = SimpleNamespace(skill="grande")
    for rid in ("a1", "a2", "a3"):
        sink.answered("03-grande-chica", "grande", question, Attempt(solved=True), rid)
    sink.run_finished(SimpleNamespace(id="r1", lesson="03-grande-chica", quiz="grande", stars=3,
                                      at=datetime(2026, 1, 1, tzinfo=UTC)))
    assert [r.get("seconds") for r in sent] == [60.0, 240.0, class_sink.ANSWER_SECONDS_MAX, None]


def test_practice_follows_the_class_setting_and_sends_its_reviews(server: Server,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from musteach_widgets import class_sink
    from musteach_widgets.practice import PracticeQuiz

    from musteach.teach.progress import Progress

    teacher, class_id = teacher_session(server)
    page = teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text
    ane = join(server, join_link(page), "Ane")
    key = server.kernel("k-ane", ane.cookies[CLASS_COOKIE])
    monkeypatch.setenv(class_sink.KERNEL_KEY_ENV, key)
    monkeypatch.setenv(class_sink.RECORD_URL_ENV, server.service.record_url)
    quiz = PracticeQuiz(store="memory", seed=3)  # built before the page is handed over (as in a preheated kernel)
    assert len(quiz.skills) > 1
    assert teacher.post(server.url + f"teach/class/{class_id}/practice", data={"skill": "chica", "_xsrf": xsrf(page)},
                        timeout=10).status_code == 200
    quiz._on_stored(Progress())  # the page's browser sent its progress: the learner opened practice
    assert quiz.skills == ("chica",) and quiz.skill == "chica"
    values = [v for v, _ in quiz.question.choices]
    quiz.answer_controls[values.index(quiz.question.answer)].click()
    assert quiz.outcome is not None and quiz.outcome.correct
    assert class_sink.flush(10)
    row = server.store.dashboard(1, class_id).learners[0]
    assert row.skills == {"chica": (1, 1)}


def test_game_and_review_records_pass_the_servers_checks() -> None:
    from musteach_server.classes.records import check_record
    from musteach_widgets.class_sink import game_record, review_record

    from musteach.teach.progress import Progress
    from musteach.teach.scoring import Attempt

    game = check_record(game_record(Progress().record_game(12, 3.5, True, level="club")))
    assert (game.kind, game.lesson, game.data["won"], game.data["level"]) == ("game", "10-play", True, "club")
    review = check_record(review_record("chica", Attempt(wrong=1, solved=False), "r1", 4200))
    assert (review.kind, review.correct, review.tries, review.seconds) == ("review", False, 1, 4.2)


def test_records_queued_while_the_database_is_down_are_written_by_the_server_alone(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from sqlalchemy.exc import OperationalError

    teacher, class_id = teacher_session(server)
    ane = join(server, join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text), "Ane")
    key = server.kernel("k-ane", ane.cookies[CLASS_COOKIE])
    real = server.store.add_record

    def down(*args: object, **kwargs: object) -> bool:
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(server.store, "add_record", down)
    assert [server.post_record(key, answer(f"q{i}", i % 2 == 0)).status_code for i in range(3)] == [202] * 3
    monkeypatch.setattr(server.store, "add_record", real)  # the database is back; no new record comes
    deadline = time.monotonic() + 30
    while server.service.queue and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.service.queue
    assert server.store.records_of(1, class_id) == 3


def test_a_class_has_one_quota_whoever_joins(server: Server) -> None:
    """A cold try found every learner who joined given a token of 40 places of its own: two learners reserved
    80 places, and anonymous visitors got "busy" for the token's 12 hours. Now every learner's token names the
    class's one quota."""
    from musteach_server.admission import ADMIT_COOKIE, verify_token

    teacher, class_id = teacher_session(server)
    link = join_link(teacher.get(server.url + f"teach/class/{class_id}", timeout=10).text)
    tokens = [verify_token(SECRET, join(server, link, name).cookies[ADMIT_COOKIE]) for name in ("Ane", "Iker")]
    assert tokens[0].token_id == tokens[1].token_id
    assert tokens[0].places == tokens[1].places == 40
    _, other = teacher_session(server)
    other_link = join_link(teacher.get(server.url + f"teach/class/{other}", timeout=10).text)
    assert verify_token(SECRET, join(server, other_link, "Nerea").cookies[ADMIT_COOKIE]).token_id != tokens[0].token_id
