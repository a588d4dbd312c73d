"""Fixtures shared by the test modules.

* ``browser``: Debian's Chromium through Playwright, one per module (an open sync Playwright keeps an asyncio
  loop running in this thread, which would break later modules that use ``asyncio.run``). Without Playwright
  or /usr/bin/chromium it skips, except under ``CI=true`` where it fails.
* ``page``: a fresh 1100x900 browser context and page for one test.
* Tests marked ``slow`` (long agreement and property runs) run only under ``CI=true``, or when chosen with
  ``-m slow``; a developer's ``make test`` skips them.
* ``fresh_install``: one copy of the repository with a venv built from binder/requirements.txt alone, made once
  per session for the slow install tests (see fresh_venv.py).
* Under ``make test`` two pytest-xdist workers share the tests: one runs every test that starts a server or
  a browser, the other the rest (see :func:`xdist_group_of`).
* No test writes the user's own data: ``XDG_DATA_HOME`` (the progress file, the class database) and
  ``MUSTEACH_PROGRESS_FILE`` point into a fresh temporary folder for each pytest process, inherited by every
  server and kernel a test starts (a quiz resumes a run kept in that file, so a shared one made the tests depend
  on each other and on earlier runs on the same machine).
* hypothesis runs without its per-example deadline: how long an example takes is the machine's load, not the
  code's behaviour (performance is measured in ``benchmarks/``, never in a test).
* ``strict_widgets``: makes ipywidgets re-raise exceptions from click handlers and fails the test if any
  guarded musteach widget made during it recorded a handler error; yields the list of those widgets.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser_helpers as bh
import fresh_venv

_TEST_DATA = Path(tempfile.mkdtemp(prefix="musteach-test-data-"))
os.environ["XDG_DATA_HOME"] = str(_TEST_DATA)
os.environ["MUSTEACH_PROGRESS_FILE"] = str(_TEST_DATA / "musteach" / "progress.json")

settings.register_profile("musteach", deadline=None)
settings.load_profile("musteach")

PAGE_TIMEOUT_MS = 90_000
THREAD_WAIT_S = 120  # a widget's background count (the discard advisor) on a busy machine


def under_ci() -> bool:
    """True when the CI environment variable is "true" (any case), as GitHub Actions and most CIs set it."""
    return os.environ.get("CI", "").lower() == "true"


# modules whose tests start a Voilà or Jupyter server, a kernel or a fresh venv (besides the browser tests)
SERVER_MODULES = frozenset(
    {"test_serve.py", "test_serve_languages.py", "test_security.py", "test_binder.py", "test_lesson_kernel.py",
     "test_kernel_restart_path.py"}
)


def xdist_group_of(item: pytest.Item) -> str:
    """The worker group of a test when ``make test`` runs two pytest-xdist workers (``--dist loadgroup``).

    Every test that starts a server, a browser or a fresh venv joins one group, so that one worker runs them
    in turn (they would fight over the two cores) while the other worker runs the pure-Python tests; any
    other test is grouped with its file, so that a module's fixtures are built once and a notebook's cells
    (which share one kernel) run in order on one worker.
    """
    path = Path(str(item.path))
    if "browser" in item.keywords or path.name in SERVER_MODULES:
        return "server"
    return path.as_posix()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Group the tests for pytest-xdist (see :func:`xdist_group_of`); skip the ``slow`` tests outside CI,
    unless the marker expression asks for them (``-m slow``)."""
    for item in items:
        item.add_marker(pytest.mark.xdist_group(xdist_group_of(item)))
    if under_ci() or "slow" in (config.getoption("markexpr", "") or ""):
        return
    skip = pytest.mark.skip(reason="slow: runs under CI=true (or with -m slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="module")
def browser():
    missing = bh.browser_missing()
    if missing:
        if under_ci():
            pytest.fail(f"browser tests cannot run under CI: {missing}")
        pytest.skip(missing)
    with bh.chromium() as b:
        yield b


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    p = context.new_page()
    p.set_default_timeout(PAGE_TIMEOUT_MS)
    yield p
    context.close()


@pytest.fixture
def strict_widgets(monkeypatch):
    from ipywidgets.widgets.widget import CallbackDispatcher, Widget
    from musteach_widgets._base import Guarded

    def call_directly(self, *args, **kwargs):
        value = None
        for callback in list(self.callbacks):
            local = callback(*args, **kwargs)
            value = local if local is not None else value
        return value

    monkeypatch.setattr(CallbackDispatcher, "__call__", call_directly)
    created: list = []
    original = Widget.__init__

    def tracking_init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if isinstance(self, Guarded):
            created.append(self)

    monkeypatch.setattr(Widget, "__init__", tracking_init)
    yield created
    for w in created:
        wait = getattr(w, "wait", None)
        if callable(wait) and hasattr(w, "_lock"):  # a background count that was started
            assert wait(THREAD_WAIT_S), f"{type(w).__name__}'s background work did not finish"
        errors = getattr(w, "errors", [])  # a constructor that refused its arguments recorded nothing
        assert errors == [], f"{type(w).__name__} handler errors: {errors!r}"


@pytest.fixture(scope="session")
def fresh_install(tmp_path_factory: pytest.TempPathFactory) -> fresh_venv.FreshInstall:
    return fresh_venv.build(tmp_path_factory.mktemp("fresh-install"))
