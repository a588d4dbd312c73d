"""What keeping the learner's record costs (issue 23): one saved answer with a long history, in each store.

A learner with a full history (every skill at its kept limit of answers, the kept limit of quiz runs, games and
a run in progress) answers one more question; the figures are the milliseconds one save takes (median of the
runs) and the size of what is stored. Nothing is asserted: these are figures to read.

    .venv/bin/python benchmarks/bench_progress.py
    .venv/bin/python benchmarks/bench_progress.py --saves 50
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from musteach.teach.progress import HISTORY_LIMIT, RUN_LIMIT, FileStore, MemoryStore, Progress, new_id

SKILLS = ("grande", "chica", "pares", "juego", "punto", "jugada", "juego_total", "betting", "count", "mus", "senas")


def full_history() -> Progress:
    p = Progress()
    t = datetime(2025, 1, 1, tzinfo=UTC)
    for i in range(HISTORY_LIMIT):
        for k, skill in enumerate(SKILLS):
            p.record(skill, (i + k) % 4 != 0, at=t + timedelta(minutes=i * 20 + k), ms=5000, tries=1)
    for i in range(RUN_LIMIT):
        p.record_run("04-pares", "jugada" if i % 2 else "pares", [1.0] * 10, 3, at=t + timedelta(hours=i))
    for i in range(20):
        p.record_game(12, 2.0 + i / 10, i % 2 == 0, level="club", at=t + timedelta(days=i), review={"game_number": 1})
    run = new_id()
    for q in range(5):
        p.record_step("04-pares", "pares", run, seed=1, n=10, q=q, given=q % 4, at=t + timedelta(days=30, seconds=q))
    return p


def timed(store: object, base: Progress, saves: int) -> list[float]:
    out = []
    for _ in range(saves):
        p = base.copy()
        p.record("grande", True, tries=1)
        start = time.perf_counter()
        store.save(p)  # type: ignore[attr-defined]
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--saves", type=int, default=20)
    args = ap.parse_args()
    base = full_history()
    records = base.records()
    print(
        f"history: {len(records)} records; snapshot {len(base.to_json()):,} characters; "
        f"records {sum(len(r.to_json()) for r in records):,} characters in all"
    )
    memory = MemoryStore(base.copy())
    ms = timed(memory, base, args.saves)
    print(f"memory store: one answer saved in {statistics.median(ms):.1f} ms (median of {args.saves})")
    with tempfile.TemporaryDirectory() as d:
        store = FileStore(Path(d) / "progress.json")
        store.save(base)
        ms = timed(store, base, args.saves)
        print(
            f"file store:   one answer saved in {statistics.median(ms):.1f} ms (median of {args.saves}, fsync included)"
        )
    try:
        from musteach_widgets.storage import BrowserStore
    except ImportError:
        return
    browser = BrowserStore()
    browser.send = lambda msg, buffers=None: None  # type: ignore[method-assign]
    browser._handle_custom_msg({"type": "stored", "value": base.to_json(), "reason": "load", "error": ""}, [])
    ms = timed(browser, base, args.saves)
    print(f"browser store (kernel side): one answer saved in {statistics.median(ms):.1f} ms (median of {args.saves})")


if __name__ == "__main__":
    main()
