"""Stars and progress survive a kernel restart in JupyterLab, in a real browser (issue 12, "done when").

The test starts ``jupyter lab`` on a free port over a copy of the lessons (its own settings, workspace and
progress file in a temporary folder), opens lesson 2 in Debian's Chromium, runs it, finishes its quiz
through the buttons, restarts the kernel and runs every cell again, and finds the run's stars on the quiz
and the answers in the progress file: outside Voilà every quiz keeps its results in that file.

Every wait is on something the page shows (a cell's output, the kernel's status, a quiz line), never a
fixed sleep. Marked ``slow`` (it starts JupyterLab and answers a whole run): it runs under ``CI=true``, where
a missing Playwright or /usr/bin/chromium fails it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from musteach.rules.lances import evaluate

try:
    from . import browser_helpers as bh
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import browser_helpers as bh

# 48 s measured while three other engineers' suites ran (over the 40 s asked): slow, runs under CI=true
pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "02-seats.ipynb"
TIMEOUT_MS = 120_000


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def jupyter_lab(root: Path, home: Path, timeout: float = 120.0) -> Iterator[str]:
    """``jupyter lab`` serving ``root`` on a free 127.0.0.1 port without a token; its settings, workspaces
    and runtime files under ``home``, its kernels' progress in ``home/progress.json``. Yields the base URL."""
    port = bh.free_port()
    settings = home / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    # every cell stays in the page (JupyterLab 4 otherwise leaves far cells out of it), and the lessons, which
    # name no kernel, start the default one without asking
    (settings / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none", "autoStartDefaultKernel": True})
    )
    apputils = home / "settings" / "@jupyterlab" / "apputils-extension"
    apputils.mkdir(parents=True)
    (apputils / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOILA_")}
    env.update(
        MUSTEACH_PROGRESS_FILE=str(home / "progress.json"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        JUPYTER_CONFIG_DIR=str(home / "config"),
    )
    argv = [
        sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
        "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={root}", "--LabApp.news_url=", "--ServerApp.open_browser=False",
    ]  # fmt: skip
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-root")
    log = open(home / "lab.log", "wb")  # closed below, after the server stops
    proc = subprocess.Popen(argv, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while not _answers(base + "/api/status"):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"jupyter lab did not start:\n{(home / 'lab.log').read_text(errors='replace')[-3000:]}")
            time.sleep(0.25)
        yield base
    finally:
        bh.stop_group(proc)
        log.close()


def _wait_for_connected_kernel(base: str, timeout: float = TIMEOUT_MS / 1000) -> None:
    """Wait until the server has a kernel that is idle with the page connected to it (``/api/kernels``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with urllib.request.urlopen(base + "/api/kernels", timeout=5) as r:
            kernels = json.load(r)
        if any(k.get("execution_state") == "idle" and k.get("connections", 0) >= 1 for k in kernels):
            return
        time.sleep(0.25)
    raise AssertionError(f"no kernel connected to the page within {timeout:.0f} s")


def _menu(page, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=top).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def _quiz(page):
    quiz = page.locator(".jp-OutputArea .musteach-quiz").first
    quiz.locator(".musteach-answers button:not([disabled])").first.wait_for(timeout=TIMEOUT_MS)
    return quiz


def _winner(quiz) -> int:
    table = quiz.locator("svg.musteach-table")
    hands = [h.split() for h in table.get_attribute("data-hands").split("|")]
    return evaluate(hands, int(table.get_attribute("data-mano"))).grande.winner


def test_stars_and_progress_survive_a_kernel_restart_in_jupyterlab(browser, tmp_path):
    root, home = tmp_path / "lessons", tmp_path / "home"
    shutil.copytree(bh.LESSONS, root)
    home.mkdir()
    with jupyter_lab(root, home) as base:
        context = browser.new_context(viewport={"width": 1200, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        try:
            page.goto(f"{base}/lab/tree/{LESSON}", wait_until="domcontentloaded")
            page.locator(".jp-Notebook .jp-Cell").first.wait_for()
            _wait_for_connected_kernel(base)  # Run All before the page's kernel connects runs nothing
            _menu(page, "Run", "Run All Cells")
            quiz = _quiz(page)
            quiz.locator(".musteach-best", has_text="Not finished yet").wait_for()
            for k in range(1, 11):
                quiz.locator(".musteach-progress", has_text=f"Question {k} of 10").wait_for()
                quiz.locator(".musteach-answers button:not([disabled])").first.wait_for()
                quiz.locator(f".musteach-seat-{_winner(quiz)}").click()
                quiz.locator(".musteach-feedback .musteach-right", has_text="Right!").wait_for()
                if k < 10:
                    quiz.locator(".musteach-next").click()
            quiz.locator(".musteach-feedback .musteach-finished", has_text="★★★").wait_for()
            quiz.locator(".musteach-best", has_text="Your best here: ★★★ (1 run)").wait_for()
            saved = json.loads((home / "progress.json").read_text())
            assert len(saved["skills"]["grande"]["reviews"]) == 10 and len(saved["runs"]) == 1

            _menu(page, "Kernel", "Restart Kernel and Run All Cells")
            page.locator(".jp-Dialog .jp-mod-accept").click()
            # the outputs are cleared, then the fresh kernel draws the quiz again: wait for its first question
            page.locator(".jp-OutputArea .musteach-quiz .musteach-progress", has_text="Question 1 of 10").first.wait_for()
            quiz = _quiz(page)
            quiz.locator(".musteach-best", has_text="Your best here: ★★★ (1 run)").wait_for()
            assert quiz.locator(".musteach-score").inner_text().startswith("Score: 0/0"), "a new run, same stars"
            bh.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            quiz.screenshot(path=str(bh.SCREENSHOTS / "lab-02-seats-after-restart.png"))
        finally:
            context.close()
