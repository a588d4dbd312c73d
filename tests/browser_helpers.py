"""Shared by the browser tests and ``benchmarks/bench_tutor.py``: a Voilà server on a free loopback port,
and Debian's Chromium driven by Playwright (its own browser download is not used).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from musteach_server.probe import answers_ok

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def lesson_paths() -> list[Path]:
    """The lessons, in order: ``lessons/NN-topic.ipynb``."""
    return sorted(LESSONS.glob("[0-9][0-9]-*.ipynb"))


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (no Playwright, no Chromium), or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (make browser-deps installs Debian's chromium)"
    return None


def free_port() -> int:
    """A TCP port that is free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]




def serve_argv(port: int, *, plain: bool = False, extra: tuple[str, ...] = ()) -> list[str]:
    """The server's command line: ``musteach serve`` as ``make tutor`` runs it, or (``plain``) bare Voilà
    with sources and tracebacks hidden, one new kernel per page."""
    if plain:
        return [sys.executable, "-m", "voila", str(LESSONS), "--no-browser", f"--port={port}",
                "--Voila.ip=127.0.0.1", "--strip_sources=True", "--show_tracebacks=False", *extra]
    return [sys.executable, "-m", "musteach.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
            "--lessons", str(LESSONS), *extra]


@contextlib.contextmanager
def voila_server(
    log_path: Path, timeout: float = 120.0, *, plain: bool = False, extra: tuple[str, ...] = (), port: int | None = None
) -> Iterator[str]:
    """Serve the lessons on a free 127.0.0.1 port, or on ``port`` (see :func:`serve_argv`): a server started
    again on the same port is the same origin for the browser, with the same localStorage.

    Yields the base URL once the server answers; stops the whole process group afterwards.
    Raises RuntimeError with the server's log when it exits early or does not answer within ``timeout``.
    """
    port = port if port is not None else free_port()
    argv = serve_argv(port, plain=plain, extra=extra)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while not answers_ok(base + "/"):
            if proc.poll() is not None:
                raise RuntimeError(f"Voilà exited with {proc.returncode}:\n{log_path.read_text(errors='replace')[-4000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Voilà did not answer within {timeout:.0f} s:\n{log_path.read_text(errors='replace')[-4000:]}")
            time.sleep(0.25)
        yield base
    finally:
        stop_group(proc)


def stop_group(proc: subprocess.Popen) -> None:
    """SIGTERM the server's process group (Voilà and its kernels), then SIGKILL what is left."""
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    # kernels may outlive Voilà for a moment: make sure nothing of the group survives
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    """A headless Debian Chromium through Playwright's sync API; yields the Browser."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


_TALLEST_SCROLLER = """() => {
  const scrollers = [...document.querySelectorAll('*')].filter(
    e => e.scrollHeight > e.clientHeight + 2 && /auto|scroll/.test(getComputedStyle(e).overflowY));
  const extra = scrollers.map(e => e.scrollHeight - e.clientHeight);
  return document.documentElement.scrollHeight + (extra.length ? Math.max(...extra) : 0);
}"""


def full_page_screenshot(page, path: Path) -> None:
    """Screenshot the whole lesson. Voilà scrolls inside a panel rather than the page, so Playwright's
    ``full_page`` alone would stop at the window: the window is made as tall as the content first."""
    size = page.viewport_size or {"width": 1100, "height": 900}
    height = int(page.evaluate(_TALLEST_SCROLLER))
    page.set_viewport_size({"width": size["width"], "height": min(max(height, size["height"]), 30_000)})
    page.wait_for_timeout(300)  # let the layout settle at the new size
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)


def wait_for_score(page, quiz, prefix: str) -> str:
    """Wait until the quiz's score line starts with ``prefix`` and return it. The verdict is sent first (it is
    what the learner waits for) and the score follows in its own message, so a test must wait for it."""
    page.wait_for_function(
        "([q, w]) => q.querySelector('.musteach-score').innerText.startsWith(w)", arg=[quiz.element_handle(), prefix]
    )
    return quiz.locator(".musteach-score").inner_text()


# ----- the table of lesson 10 ----------------------------------------------------------------------

TABLE_STEP_TIMEOUT_MS = 60_000


def table_step(table) -> int:
    """The table's redraw counter: the header is drawn last, so a new step means everything is drawn."""
    return int(table.locator(".musteach-table-header .musteach-step").get_attribute("data-step"))


def wait_table_step(page, table, before: int) -> None:
    """Wait until the table has redrawn since step ``before``."""
    page.wait_for_function(
        "([el, n]) => +el.querySelector('.musteach-table-header .musteach-step').dataset.step > n",
        arg=[table.element_handle(), before],
        timeout=TABLE_STEP_TIMEOUT_MS,
    )


def enabled_action(table, kind: str):
    """The table's action button of ``kind`` ("paso", "quiero"...) if it is shown and enabled, else None."""
    b = table.locator(f"button.musteach-action-{kind}")
    return b if b.count() and b.first.is_visible() and b.first.is_enabled() else None
