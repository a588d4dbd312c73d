"""A visitor's kernel memory, lesson by lesson, on the real server (``musteach serve``).

For every lesson: open the page as a browser does (the lesson runs in a fresh kernel; no preheated pool, so
the kernel measured is the visitor's own), fetch the widgets, answer the first quiz's first question when
the lesson has a quiz, then read the kernel's RSS, USS and PSS (psutil) and whether it loaded numpy. On a
page with the play table (lesson 10) the learner first plays ``--hands`` hands against the lesson's bots
with the coach on (mus in a hand's first mus round, changing one card, then no hay mus; paso, no quiero
or quiero in the betting; Next hand), then as many against the strong level (chosen in the table's level
menu), clicking the page's buttons. Prints one row per lesson and the largest RSS; stops the server.

    .venv/bin/python benchmarks/bench_kernel_memory.py [--lessons 03-grande-chica 12-odds] [--hands 2]

Target (issue 16): at most 60 MiB RSS per kernel after its lesson has run.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import psutil
from musteach_server.probe import PROTOCOL_V1, Server, Visitor, running_server

ROOT = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024
#: Shared libraries worth knowing about when a kernel is heavy (Voilà refuses execute requests from a page, so
#: the kernel's memory map says what it loaded): name -> a path fragment of the library.
WATCH = {
    "numpy": "numpy/_core/_multiarray_umath",
    "numpy<2": "numpy/core/_multiarray_umath",
    "zmq": "zmq/backend",
    "debugpy": "_pydevd_bundle",
}


def _loaded(pid: int) -> list[str]:
    """The :data:`WATCH` libraries mapped into process ``pid``."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return []
    return [name.rstrip("<2") for name, frag in WATCH.items() if frag in maps]


def _enabled(v: Visitor, root: str, cls: str) -> list[str]:
    return [b for b in v.find(root, cls) if not v.states[b].get("disabled")]


async def play_hands(v: Visitor, table: str, hands: int) -> int:
    """Play ``hands`` hands on the play table ``table`` by clicking its buttons; returns the clicks made."""
    done = clicks = 0
    mus_asked = False
    for _ in range(400):
        kinds = {next(c for c in v.classes(b) if c.startswith("musteach-action-")): b for b in _enabled(v, table, "musteach-action")}
        if "musteach-action-mus" in kinds:
            await v.click(kinds["musteach-action-no-hay-mus" if mus_asked else "musteach-action-mus"])
            mus_asked = True
        elif "musteach-action-discard" in kinds:
            toggle = v.find(table, "musteach-discard-toggle")[0]
            await v.wait_idle(await v.send(v.update_message(toggle, {"value": True})))
            await v.click(kinds["musteach-action-discard"])
        elif kind := next((k for k in ("paso", "no-quiero", "quiero") if f"musteach-action-{k}" in kinds), None):
            await v.click(kinds[f"musteach-action-{kind}"])
        elif nxt := _enabled(v, table, "musteach-next-hand"):
            done += 1
            if done >= hands:
                return clicks
            await v.click(nxt[0])
            mus_asked = False
        elif new := _enabled(v, table, "musteach-new-game"):
            done += 1  # the game ended with this hand (an órdago accepted): a new one
            if done >= hands:
                return clicks
            await v.click(new[0])
            mus_asked = False
        else:
            raise RuntimeError(f"no button to press on the table: {sorted(kinds)}")
        clicks += 1
    raise RuntimeError("the hands did not end within 400 clicks")


async def play_lesson(v: Visitor, hands: int) -> int:
    """On a page with the play table: ``hands`` hands against its bots, then ``hands`` against the strong level."""
    tables = [m for m in v.views for t in v.find(m, "musteach-table-widget")] if hands else []
    clicks = 0
    for table in tables[:1]:
        clicks += await play_hands(v, table, hands)
        (level,) = v.find(table, "musteach-level")
        options = v.states[level].get("_options_labels", [])
        strong = len(options) - 1 if len(options) <= 3 else 2  # the levels: beginner, club, strong (then a script's)
        await v.wait_idle(await v.send(v.update_message(level, {"index": strong})))
        clicks += await play_hands(v, table, hands)
    return clicks


async def visit(server: Server, lesson: str, hands: int = 0) -> tuple[float, float, float, float, list[str], list[int]]:
    """Open ``lesson`` as a page, play ``hands`` hands on its play table (if any), answer the first quiz's first
    question, measure the new kernel, close the page.
    Returns (RSS, USS, PSS in MiB, seconds to open, play and answer, libraries loaded, the kernel pids)."""
    before = set(server.kernel_pids())
    v = Visitor(server.base_url, protocol=PROTOCOL_V1)
    t = time.perf_counter()
    response = await v.open(f"{lesson}.ipynb")
    if response.code != 200:
        raise RuntimeError(f"{lesson}: HTTP {response.code}")
    await play_lesson(v, hands)
    quizzes = v.quizzes()
    if quizzes:
        buttons = [b for b in v.find(quizzes[0], "musteach-answer") if not v.states[b].get("disabled")]
        if buttons:
            await v.click(buttons[0])
    elapsed = time.perf_counter() - t
    new = [p for p in server.kernel_pids() if p not in before]
    rss = uss = pss = 0.0
    for pid in new:
        try:
            info = psutil.Process(pid).memory_full_info()
        except psutil.Error:
            continue
        rss, uss, pss = max(rss, info.rss / MIB), max(uss, info.uss / MIB), max(pss, info.pss / MIB)
    modules = sorted({m for pid in new for m in _loaded(pid)})
    await v.close_page()
    return rss, uss, pss, elapsed, modules, new


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lessons", nargs="*", default=None, help="lesson names (default: every lesson)")
    ap.add_argument("--hands", type=int, default=2, help="hands played on a play table, per level (default 2)")
    args = ap.parse_args()
    lessons = args.lessons or sorted(p.stem for p in (ROOT / "lessons").glob("*.ipynb"))
    print(f"{'lesson':<22} {'RSS MiB':>8} {'USS MiB':>8} {'PSS MiB':>8} {'open s':>7}  libraries loaded")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp, running_server(
        "--pool-size", "0", log_path=Path(tmp) / "serve.log", cwd=ROOT
    ) as server:
        for lesson in lessons:
            rss, uss, pss, elapsed, modules, pids = asyncio.run(visit(server, lesson, args.hands))
            worst = max(worst, rss)
            print(f"{lesson:<22} {rss:8.1f} {uss:8.1f} {pss:8.1f} {elapsed:7.1f}  {', '.join(modules) or '-'}", flush=True)
            deadline = time.monotonic() + 15
            while any(psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE for p in pids):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.2)
    print(f"largest kernel RSS after its lesson: {worst:.1f} MiB (target <= 60 MiB)")


if __name__ == "__main__":
    sys.exit(main())
