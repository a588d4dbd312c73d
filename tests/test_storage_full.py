"""When the browser's storage for the site is full, the practice page's status line says its progress is
not kept (issue 15), and says it is kept again once a write succeeds."""

from __future__ import annotations

from musteach_widgets import storage as storage_module
from musteach_widgets.practice import PracticeQuiz


def test_a_full_browser_storage_is_said_on_the_status_line(monkeypatch, tmp_path):
    monkeypatch.setenv("MUSTEACH_PROGRESS_FILE", str(tmp_path / "progress.json"))
    for name in storage_module.VOILA_ENV:
        monkeypatch.delenv(name, raising=False)
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="browser")
    store = quiz.store
    store._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    assert "in this browser" in quiz.storage_line.value and "NOT kept" not in quiz.storage_line.value
    store._handle_custom_msg({"type": "saved", "ok": False, "error": "QuotaExceededError: full", "full": True}, [])
    assert "NOT kept in this browser" in quiz.storage_line.value and "full" in quiz.storage_line.value
    store._handle_custom_msg({"type": "saved", "ok": True, "error": ""}, [])
    assert "NOT kept" not in quiz.storage_line.value and "in this browser" in quiz.storage_line.value
