"""The learning path's per-question work, as a learner's click waits for it: the two hint steps, the message
before a second try (which runs the mistake diagnosis), and saving a progress of many answers and runs.

    .venv/bin/python benchmarks/bench_path.py            # 400 lance questions, 200 betting questions
    .venv/bin/python benchmarks/bench_path.py --n 100
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import UTC, datetime, timedelta

from musteach.teach.count_quiz import betting_question
from musteach.teach.progress import Progress
from musteach.teach.quiz import QuestionGenerator
from musteach.teach.tutor import question_hints, retry_text


def timed(fn, items) -> list[float]:
    out = []
    for x in items:
        t = time.perf_counter()
        fn(x)
        out.append((time.perf_counter() - t) * 1000)
    return out


def show(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    print(f"{name:34s} n={len(ms):4d}  median {statistics.median(ms):7.3f} ms  p95 {p95:7.3f} ms  max {ms[-1]:7.3f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=400)
    args = ap.parse_args()
    gen = QuestionGenerator(["grande", "chica", "pares", "juego", "punto"], seed=1)
    lance = [gen.next() for _ in range(args.n)]
    show("hints, lance question", timed(question_hints, lance))
    show("retry text (diagnosis), lance", timed(lambda q: retry_text(q, (q.answer or 0) + 1 if q.answer != 3 else 0), lance))
    bets = [betting_question(i) for i in range(args.n // 2)]
    show("hints, betting question", timed(question_hints, bets))
    wrong = {"A": 1, "B": 1}
    show("retry text, betting", timed(lambda q: retry_text(q, wrong) if q.answer != wrong else None, bets))
    p = Progress()
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(2000):
        p.record(("grande", "chica", "pares", "betting")[i % 4], i % 3 != 0, at=t0 + timedelta(minutes=i))
    for i in range(300):
        p.record_run("03-grande-chica", ("grande", "chica")[i % 2], [1.0] * 10, 3, at=t0 + timedelta(minutes=i))
    t = time.perf_counter()
    text = p.to_json()
    back = Progress.from_json(text)
    ms = (time.perf_counter() - t) * 1000
    assert back == p
    print(f"progress of 2000 answers, 300 runs: {len(text):,} characters, write + read {ms:.1f} ms")


if __name__ == "__main__":
    main()
