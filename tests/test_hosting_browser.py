"""Issue 26 in Debian's Chromium, black-box (this file also runs against the code of the day the issue was
filed): a page whose server stops, then restarts, says so and brings the lesson back with Reload (before, it
asked once for its kernel, got no answer or a 403 and fell silent, its buttons enabled and doing nothing); a
session cookie planted by a page on another port, over plain HTTP, owns none of the victim's kernels (before,
the planter could drive and end them). Without Playwright or /usr/bin/chromium it skips, except under
``CI=true`` where it fails.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import http.server
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

pytest.importorskip("voila")

from musteach_server.probe import NAVIGATION, Visitor, answers_ok, free_port, lesson_notebook, stop_server
from musteach_server.probe import Server as RunningServer

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
LANCE = "01-lance.ipynb"


@contextlib.contextmanager
def serve_on(port: int, *args: str, log_path: Path):
    """``musteach serve`` on 127.0.0.1:``port`` (a server restarted where the last one was), until it answers."""
    argv = [sys.executable, "-m", "musteach.cli", "serve", "--host", "127.0.0.1", "--port", str(port), *args]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    server = RunningServer(f"http://127.0.0.1:{port}", proc, log_path)
    try:
        deadline = time.monotonic() + 90
        while not answers_ok(server.base_url + "/"):
            assert proc.poll() is None, server.log()[-3000:]
            assert time.monotonic() < deadline, server.log()[-3000:]
            time.sleep(0.2)
        yield server
    finally:
        stop_server(server)


def test_a_page_whose_server_stops_and_restarts_says_so_and_reload_brings_the_lesson_back(browser, page, tmp_path):
    d = tmp_path / "lessons"
    d.mkdir()
    (d / LANCE).write_text(lesson_notebook(
        "Lesson 1: who wins Grande", "from musteach_widgets import LanceQuiz\nLanceQuiz('grande', n=3, seed=3)"))
    args = ("--lessons", str(d), "--pool-size", "0", "--max-kernels", "4")
    port = free_port()
    with serve_on(port, *args, log_path=tmp_path / "first.log") as first:
        page.goto(f"{first.base_url}/voila/render/{LANCE}", wait_until="domcontentloaded")
        page.locator(".musteach-answer").first.wait_for(state="visible")
    # the server is gone: the page says the tutor cannot be reached, its controls stop
    bar = page.locator(".musteach-ended")
    bar.wait_for(state="visible", timeout=30_000)
    assert "The tutor cannot be reached" in bar.inner_text()
    assert page.get_by_role("button", name="Reload").is_visible()
    assert page.locator("#rendered_cells[inert]").count() == 1
    assert page.locator(".musteach-answer button:not([disabled]), button.musteach-answer:not([disabled])").count() == 0
    # the server is back, restarted (a new secret: the old session is not its): the page learns its session ended
    with serve_on(port, *args, log_path=tmp_path / "second.log"):
        page.wait_for_function("document.querySelector('.musteach-ended') && "
                               "document.querySelector('.musteach-ended').textContent.includes('session ended')",
                               timeout=30_000)
        page.get_by_role("button", name="Reload").click()
        page.locator(".musteach-answer").first.wait_for(state="visible")
        assert page.locator(".musteach-ended").count() == 0
        assert page.locator("#rendered_cells[inert]").count() == 0


def apart(coroutine_function):
    """Run an asyncio coroutine function to its end in a thread of its own (Playwright's sync API holds this
    thread's event loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine_function()).result()


@contextlib.contextmanager
def another_port(folder: Path):
    """A plain static web server for ``folder`` on another port of the same host (the planter's site)."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_session_cookie_planted_from_another_port_owns_none_of_the_victims_kernels(browser, page, tmp_path):
    """Cookie tossing over plain HTTP: cookies ignore ports, so a page on another port of the same host sets the
    tutor's session cookie (a session the planter got for themselves) before the victim's first visit. The
    victim's page is then the planter's session's: the planter, who may learn the kernel id, can drive it, and
    ends it by leaving. Now the page claims its kernel with a proof kept in its origin's storage."""
    d = tmp_path / "lessons"
    d.mkdir()
    (d / LANCE).write_text(lesson_notebook(
        "Lesson 1: who wins Grande", "from musteach_widgets import LanceQuiz\nLanceQuiz('grande', n=3, seed=3)"))
    evil = tmp_path / "evil"
    evil.mkdir()
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    with serve_on(free_port(), "--lessons", str(d), "--pool-size", "0", "--max-kernels", "4",
                  log_path=tmp_path / "serve.log") as server:
        async def planters_session():
            v = Visitor(server.base_url)
            await v.fetch(f"/voila/render/{LANCE}", headers=NAVIGATION)  # a first visit: the cookie only
            return v.cookies["musteach_session"]

        planted = apart(planters_session)
        (evil / "index.html").write_text(
            f"<!doctype html><title>games</title><script>document.cookie = 'musteach_session={planted}; path=/';"
            "</script><p>Free games!</p>")
        with another_port(evil) as site:
            page.goto(f"{site}/index.html")
        assert any(c["name"] == "musteach_session" and c["value"] == planted for c in page.context.cookies())
        # the victim opens a lesson: their browser sends the planted cookie
        page.goto(f"{server.base_url}/voila/render/{LANCE}", wait_until="domcontentloaded")
        page.locator(".musteach-answer").first.wait_for(state="visible")
        kernel_id = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
        deadline = time.monotonic() + 15  # the page's claim (there is none on the old code: wait and go on)
        while time.monotonic() < deadline and not any(c["name"].endswith("musteach_owner")
                                                      for c in page.context.cookies()):
            time.sleep(0.2)

        async def attack():
            v = Visitor(server.base_url)
            v.cookies["musteach_session"] = planted
            v.kernel_id = kernel_id  # suppose the planter learnt it
            try:
                await v.connect()
                drove = "protocol_version" in await asyncio.wait_for(v.kernel_info(), 10)
            except Exception:
                drove = False
            await v.disconnect()
            await v.fetch("/logout", headers=NAVIGATION)  # the form, and an _xsrf cookie of the planter's own
            r = await v.fetch("/logout", method="POST", headers=form,
                              body=urlencode({"_xsrf": v.cookies.get("_xsrf", "")}).encode())
            return drove, r.code

        drove, left = apart(attack)
        assert not drove, "the planter drove the victim's kernel with the planted session"
        assert left in (200, 403)
        # the victim's page goes on: an answer gets its feedback, no "session ended"
        time.sleep(1.5)
        assert page.locator(".musteach-ended").count() == 0, "the planter's leaving ended the victim's session"
        page.locator(".musteach-answer button:not([disabled]), button.musteach-answer:not([disabled])").first.click()
        page.wait_for_function("[...document.querySelectorAll('.musteach-feedback')]"
                               ".some(e => e.textContent.trim().length > 0)", timeout=30_000)
