"""Stars and progress survive a kernel restart in JupyterLab (issue 12): outside Voilà every quiz keeps its
results in the progress file, so a fresh kernel running lesson 2 and the map of lesson 0 shows them.

Two real kernels, one after the other (jupyter_client), sharing only ``MUSTEACH_PROGRESS_FILE``; the lessons'
own code cells are run, and the quiz is answered through its buttons as a learner's clicks would.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import nbformat
import pytest

jupyter_client = pytest.importorskip("jupyter_client")

LESSONS = Path(__file__).resolve().parents[1] / "lessons"


def _code(name: str) -> list[str]:
    nb = nbformat.read(LESSONS / name, as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"]


def _run(kc, code: str) -> str:
    """Run ``code``; return its printed output; fail with the kernel's error if it raised."""
    out: list[str] = []

    def hook(msg: dict) -> None:
        if msg["msg_type"] == "stream":
            out.append(msg["content"].get("text", ""))
        elif msg["msg_type"] == "error":
            out.append("ERROR " + msg["content"]["evalue"])

    reply = kc.execute_interactive(code, timeout=180, output_hook=hook)
    assert reply["content"]["status"] == "ok", "".join(out)
    return "".join(out)


def _kernel(env: dict[str, str]):
    km = jupyter_client.KernelManager(kernel_name="python3")
    km.start_kernel(env=env)
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=120)
    return km, kc


def test_stars_survive_a_kernel_restart_through_the_file(tmp_path):
    progress = tmp_path / "progress.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOILA_")}
    env["MUSTEACH_PROGRESS_FILE"] = str(progress)
    km, kc = _kernel(env)
    try:
        quiz_cell = next(c for c in _code("02-seats.ipynb") if "LanceQuiz" in c)
        _run(kc, quiz_cell.replace("LanceQuiz(", "quiz = LanceQuiz(", 1))
        _run(
            kc,
            "for k in range(quiz.n):\n"
            "    if k: quiz.next_button.click()\n"
            "    quiz.button_for(quiz.question.answer).click()\n"
            "print(quiz.session.finished, quiz.session.stars, len(quiz.errors))",
        )
        # the store saves once a click's messages are out (musteach_widgets._base.when_sent), on the kernel's
        # event loop after the cell: wait for that write before the kernel is stopped
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (progress.exists() and '"02-seats"' in progress.read_text()):
            time.sleep(0.2)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    doc = json.loads(progress.read_text(encoding="utf-8"))
    assert [[*r[2:4], r[6]] for r in doc["runs"]] == [["02-seats", "tie_to_mano", 3]]

    km, kc = _kernel(env)  # the restart: nothing but the file is shared
    try:
        map_cell = next(c for c in _code("00-welcome.ipynb") if "LessonMap" in c)
        out = _run(kc, map_cell.replace("LessonMap()", "m = LessonMap()") + "\nprint(m.view.value)")
        assert 'data-lesson="02-seats" data-stars="3" data-done="true"' in out
        assert 'data-lesson="01-deck" data-stars="0" data-done="false" data-here="true"' in out
        quiz_cell = next(c for c in _code("02-seats.ipynb") if "LanceQuiz" in c)
        out = _run(kc, quiz_cell.replace("LanceQuiz(", "quiz = LanceQuiz(", 1) + "\nprint(quiz.best.value)")
        assert "Your best here: ★★★ (1 run)" in out
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
