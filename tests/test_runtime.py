"""What musteach does where Python has no threads and no numpy (the static site, Pyodide): musteach.runtime."""

from __future__ import annotations

import pytest

from musteach import runtime
from musteach.odds.hands import hand_odds
from musteach.rules.errors import MusError


def test_on_a_server_threads_and_numpy_are_there():
    assert runtime.threads_available() and runtime.numpy_available() and not runtime.in_browser()


def test_in_the_browser_there_are_no_threads(monkeypatch):
    monkeypatch.setattr(runtime.sys, "platform", "emscripten")
    assert runtime.in_browser() and not runtime.threads_available()


def test_a_numpy_feature_says_it_needs_the_server_version(monkeypatch):
    monkeypatch.setattr(runtime, "numpy_available", lambda: False)
    # nothing known but the hand: the shipped table answers, numpy or not
    assert hand_odds("12o 3c 11e 1b", 0, 0).lances
    with pytest.raises(runtime.NeedsNumpyError) as err:
        hand_odds("12o 3c 11e 1b", 0, 0, partner="1c 1e 4o 5o")
    assert isinstance(err.value, MusError)
    assert "needs the server version" in str(err.value) and "partner" in str(err.value)
    assert "versión del tutor con servidor" in err.value.message("es")


def test_the_table_warms_up_in_the_caller_without_threads(monkeypatch):
    from musteach.teach import table

    monkeypatch.setattr(table, "threads_available", lambda: False)
    monkeypatch.setattr(table.threading, "Thread", None)  # any thread started here would fail
    assert table.warm_up(background=True) is None
