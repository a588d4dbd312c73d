"""Class mode under load: 200 learners of 5 classes each posting a record every 5 s while a teacher reloads the
dashboard, with 10,000 records already stored; on SQLite and on a throwaway PostgreSQL.

The server is the class routes of ``musteach serve`` (the same tornado handlers, the same record service) in a
process of its own; the kernels are simulated by HTTP clients holding kernel keys (the route is what is
measured, not 200 kernels). Prints the p50/p95/max latency of a record (post to committed answer) and of a
dashboard page, and the dashboard of one class holding all 10,000 records (the worst case). Goal: dashboard
≤ 300 ms with 10,000 records stored.

    .venv/bin/python benchmarks/bench_classes.py                       # SQLite and PostgreSQL, 30 s each
    .venv/bin/python benchmarks/bench_classes.py --seconds 60 --only sqlite
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECRET = b"bench-secret-bench-secret-123456"
LESSONS = ("01-deck", "02-seats", "03-grande-chica", "04-pares", "05-juego-punto")
TAGS = ("three_is_not_king", "two_is_not_ace", "chica_from_the_top", "tie_not_to_mano", None, None, None)
SKILLS = ("grande", "chica", "pares", "juego", "punto", "rank_order")


def fake_record(i: int, rng: random.Random) -> dict[str, object]:
    if i % 10 == 9:
        return {"id": f"r{i}", "kind": "run", "lesson": rng.choice(LESSONS), "quiz": "q", "stars": rng.randint(0, 3),
                "seconds": rng.randint(30, 300)}
    correct = rng.random() < 0.7
    return {"id": f"a{i}", "kind": "answer", "lesson": rng.choice(LESSONS), "quiz": "q", "skill": rng.choice(SKILLS),
            "correct": correct, "tries": 1 if correct or rng.random() < 0.5 else 2,
            "diagnosis": None if correct else rng.choice(TAGS)}


def serve(url: str, port: int, learners: int, classes: int, stored: int) -> None:
    """The server process: seed the database, bind a kernel to each learner, print what the clients need, serve."""
    import tornado.web
    from musteach_server.classes.db import ClassStore, Record
    from musteach_server.classes.records import check_record
    from musteach_server.classes.routes import TEACHER_COOKIE, class_handlers
    from musteach_server.classes.service import ClassService

    store = ClassStore.open(url)
    service = ClassService(store, f"http://127.0.0.1:{port}/musteach/api/record")
    teacher, _ = store.add_teacher("Bench")
    klasses = [store.open_class(teacher.id, f"class {c}") for c in range(classes)]
    rng = random.Random(1)
    kernels = []
    pupils = []
    for n in range(learners):
        learner, cookie = store.join(klasses[n % classes].id, f"learner {n}")
        pupils.append(learner)
        key, _ = service.kernel_env({})
        service.kernel_started(key, f"kernel-{n}")
        service.seat(f"kernel-{n}", cookie)
        kernels.append(key)
    with store.session() as s:
        for i in range(stored):
            learner = pupils[i % learners]
            r = check_record(fake_record(i, rng))
            s.add(Record(class_id=learner.class_id, learner_id=learner.id, rid=f"seed-{r.id}", kind=r.kind,
                         lesson=r.lesson, quiz=r.quiz, skill=r.skill, correct=r.correct, tries=r.tries,
                         diagnosis=r.diagnosis, stars=r.stars, seconds=r.seconds, at=r.at, data="{}"))
    # the worst case: one class holding every stored record
    big = store.open_class(teacher.id, "one big class")
    big_learners = [store.join(big.id, f"big {n}")[0] for n in range(40)]
    with store.session() as s:
        for i in range(stored):
            learner = big_learners[i % len(big_learners)]
            r = check_record(fake_record(i, rng))
            s.add(Record(class_id=big.id, learner_id=learner.id, rid=f"big-{r.id}", kind=r.kind, lesson=r.lesson,
                         quiz=r.quiz, skill=r.skill, correct=r.correct, tries=r.tries, diagnosis=r.diagnosis,
                         stars=r.stars, seconds=r.seconds, at=r.at, data="{}"))
    cookie = tornado.web.create_signed_value(SECRET, TEACHER_COOKIE, str(teacher.id)).decode()
    app = tornado.web.Application(class_handlers("/"), musteach_classes=service, musteach_secret=SECRET,
                                  xsrf_cookies=True, musteach_languages=("en",), base_url="/")

    async def main() -> None:
        app.listen(port, "127.0.0.1")
        print(json.dumps({"kernels": kernels, "classes": [k.id for k in klasses], "big": big.id,
                          "cookie": cookie}), flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def load(port: int, info: dict[str, object], seconds: float, every: float) -> tuple[list[float], list[float],
                                                                                         list[float], int]:
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError

    AsyncHTTPClient.configure(None, max_clients=400)
    client = AsyncHTTPClient()
    base = f"http://127.0.0.1:{port}/"
    kernels: list[str] = info["kernels"]  # type: ignore[assignment]
    classes: list[int] = info["classes"]  # type: ignore[assignment]
    cookie = f"musteach_teacher={info['cookie']}"
    record_ms: list[float] = []
    dash_ms: list[float] = []
    big_ms: list[float] = []
    errors = 0
    end = time.monotonic() + seconds

    async def learner(n: int, key: str) -> None:
        nonlocal errors
        rng = random.Random(n)
        await asyncio.sleep(rng.random() * every)
        i = 0
        while time.monotonic() < end:
            body = json.dumps(fake_record(1_000_000 * (n + 1) + i, rng)).encode()
            i += 1
            t = time.perf_counter()
            try:
                await client.fetch(base + "musteach/api/record", method="POST", body=body,
                                   headers={"X-Musteach-Kernel": key, "Content-Type": "application/json"})
            except HTTPClientError:
                errors += 1
            record_ms.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(every)

    async def teacher() -> None:
        c = 0
        while time.monotonic() < end:
            t = time.perf_counter()
            await client.fetch(base + f"teach/class/{classes[c % len(classes)]}", headers={"Cookie": cookie})
            dash_ms.append((time.perf_counter() - t) * 1000)
            c += 1
            await asyncio.sleep(0.5)

    await asyncio.gather(*(learner(n, k) for n, k in enumerate(kernels)), teacher())
    for _ in range(5):
        t = time.perf_counter()
        await client.fetch(base + f"teach/class/{info['big']}", headers={"Cookie": cookie})
        big_ms.append((time.perf_counter() - t) * 1000)
    return record_ms, dash_ms, big_ms, errors


def run_one(name: str, url: str, args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from classes_db import free_port

    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", url, "--port", str(port), "--learners",
                               str(args.learners), "--classes", str(args.classes), "--stored", str(args.stored)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        t = time.perf_counter()
        info = json.loads(server.stdout.readline())
        seeded = time.perf_counter() - t
        records, dash, big, errors = asyncio.run(load(port, info, args.seconds, args.every))
    finally:
        server.terminate()
        server.wait(10)
    rate = len(records) / args.seconds
    print(f"{name}: {args.stored:,} records stored (+ {args.stored:,} in one big class; seeded in {seeded:.1f} s), "
          f"{args.learners} learners of {args.classes} classes, a record every {args.every:g} s each "
          f"({rate:.0f} records/s, {len(records):,} in {args.seconds:g} s, {errors} refused)")
    print(f"  record latency    p50 {percentile(records, 50):6.1f} ms   p95 {percentile(records, 95):6.1f} ms   "
          f"max {max(records):6.1f} ms")
    print(f"  dashboard (class) p50 {percentile(dash, 50):6.1f} ms   p95 {percentile(dash, 95):6.1f} ms   "
          f"max {max(dash):6.1f} ms   ({len(dash)} loads)")
    print(f"  dashboard, one class of {args.stored:,} records: median {statistics.median(big):6.1f} ms   "
          f"max {max(big):6.1f} ms   (goal <= 300 ms)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="length of each run (default 30)")
    ap.add_argument("--learners", type=int, default=200)
    ap.add_argument("--classes", type=int, default=5)
    ap.add_argument("--every", type=float, default=5.0, help="seconds between two records of a learner")
    ap.add_argument("--stored", type=int, default=10_000, help="records stored before the run")
    ap.add_argument("--only", choices=("sqlite", "postgresql"), default=None)
    ap.add_argument("--serve", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        serve(args.serve, args.port, args.learners, args.classes, args.stored)
        return 0
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory() as folder:
            run_one("SQLite", f"sqlite:///{folder}/classes.sqlite", args)
    if args.only in (None, "postgresql"):
        sys.path.insert(0, str(ROOT / "tests"))
        from classes_db import ThrowawayPostgres

        pg = ThrowawayPostgres().start()
        try:
            run_one("PostgreSQL", pg.url, args)
        finally:
            pg.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
