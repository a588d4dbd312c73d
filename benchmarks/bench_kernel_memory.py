"""A visitor's kernel memory, lesson by lesson, on the real server (``musteach serve``).

For every lesson: open the page as a browser does (the lesson runs in a fresh kernel; no preheated pool, so
the kernel measured is the visitor's own), fetch the widgets, answer the first quiz's first question when
the lesson has a quiz, then read the kernel's RSS, USS and PSS (psutil) and whether it loaded numpy. Prints one row per lesson and the largest RSS; stops the server.

    .venv/bin/python benchmarks/bench_kernel_memory.py [--lessons 03-grande-chica 12-odds]

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


async def visit(server: Server, lesson: str) -> tuple[float, float, float, float, list[str], list[int]]:
    """Open ``lesson`` as a page, answer the first quiz's first question, measure the new kernel, close the page.
    Returns (RSS, USS, PSS in MiB, seconds to open and answer, libraries loaded, the kernel pids)."""
    before = set(server.kernel_pids())
    v = Visitor(server.base_url, protocol=PROTOCOL_V1)
    t = time.perf_counter()
    response = await v.open(f"{lesson}.ipynb")
    if response.code != 200:
        raise RuntimeError(f"{lesson}: HTTP {response.code}")
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
    args = ap.parse_args()
    lessons = args.lessons or sorted(p.stem for p in (ROOT / "lessons").glob("*.ipynb"))
    print(f"{'lesson':<22} {'RSS MiB':>8} {'USS MiB':>8} {'PSS MiB':>8} {'open s':>7}  libraries loaded")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp, running_server(
        "--pool-size", "0", log_path=Path(tmp) / "serve.log", cwd=ROOT
    ) as server:
        for lesson in lessons:
            rss, uss, pss, elapsed, modules, pids = asyncio.run(visit(server, lesson))
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
