"""``musteach serve`` in Debian's Chromium: the widgets run under the server's Content-Security-Policy, and a
page whose kernel is killed says "this session ended: reload to go on" at once, with a button that brings
the lesson back (issue 15). Without Playwright or /usr/bin/chromium these tests skip, except under ``CI=true``
where they fail.
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("voila")

from musteach_server.probe import lesson_notebook, running_server

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
LANCE = "01-lance.ipynb"


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    d = tmp_path_factory.mktemp("lessons")
    (d / LANCE).write_text(lesson_notebook(
        "Lesson 1: who wins Grande", "from musteach_widgets import LanceQuiz\nLanceQuiz('grande', n=3, seed=3)"))
    log = tmp_path_factory.mktemp("log") / "serve.log"
    with running_server("--lessons", str(d), "--pool-size", "0", "--max-kernels", "4", log_path=log, cwd=ROOT) as s:
        yield s


def test_a_killed_kernel_says_the_session_ended_and_reload_brings_the_lesson_back(server, page):
    errors: list[str] = []
    # (the lab template's Font Awesome stylesheet from a CDN is refused on purpose: only the server's own files)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "Content Security" in m.text
            and any(d in m.text for d in ("script-src", "connect-src", "worker-src", "default-src")) else None)
    page.goto(f"{server.base_url}/voila/render/{LANCE}", wait_until="domcontentloaded")
    page.locator(".musteach-answer").first.wait_for(state="visible")  # the widgets ran under the CSP
    assert not errors, errors
    kernels = server.kernel_pids()
    assert len(kernels) == 1
    os.kill(kernels[0], signal.SIGKILL)
    ended = page.locator(".musteach-ended")
    ended.wait_for(state="visible", timeout=30_000)
    assert "This session ended: reload to go on" in ended.inner_text()
    assert page.get_by_role("button", name="Reload").is_visible()
    deadline = time.monotonic() + 20
    while not re.search(r"kernel \w+ stopped \(it died", server.log()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert re.search(r"kernel \w+ stopped \(it died", server.log())  # its place was freed at once
    assert not server.kernel_pids()  # and no blank kernel was restarted behind the page
    page.get_by_role("button", name="Reload").click()
    page.locator(".musteach-answer").first.wait_for(state="visible")
    assert page.locator(".musteach-ended").count() == 0

