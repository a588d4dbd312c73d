"""``musteach serve``: the production Voilà for a class (cap, busy page, lesson bar, hidden tracebacks,
preheated kernels, culling), the ``serve`` plug-in, and a server built from the binder files alone.

Servers run on free loopback ports over small test lessons (or the repo's lessons), visited over the real
Voilà protocol by :mod:`musteach_server.probe`; each is stopped, kernels included, after its tests.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import types
from datetime import timedelta
from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest.importorskip("voila")

from jupyter_server._tz import utcnow
from musteach_server.app import (
    ALLOWED_MESSAGE_TYPES,
    CELL_ERROR_NOTE,
    HANDOVER_GRACE_SECONDS,
    PAGE_LOAD_LIMIT_SECONDS,
    PAGE_SETTLE_SECONDS,
    RETRY_AFTER_SECONDS,
    KernelGate,
    MusteachKernelManager,
    ServeOptions,
    build_config,
    index_html,
    is_traversal,
)
from musteach_server.command import parse_pools
from musteach_server.lessons import Lesson, list_lessons
from musteach_server.probe import Visitor, free_port, lesson_notebook, running_server
from tornado.httpclient import AsyncHTTPClient

from musteach.rules.errors import MusError

ROOT = Path(__file__).resolve().parents[1]
LANCE, BROKEN = "01-lance.ipynb", "02-broken.ipynb"
SECRET = "SECRET-DETAIL-" + "c0ffee"


def run(coro):
    AsyncHTTPClient.configure(None, max_clients=20)
    return asyncio.run(coro)


def wait_for_log(server, pattern: str, timeout: float = 60.0) -> re.Match:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = re.search(pattern, server.log())
        if m:
            return m
        time.sleep(0.25)
    raise AssertionError(f"{pattern!r} not in the server log within {timeout:.0f} s:\n{server.log()[-3000:]}")


def write_lessons(d: Path, *, broken: bool = True) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    (d / LANCE).write_text(lesson_notebook(
        "Lesson 1: who wins Grande", "from musteach_widgets import LanceQuiz\nLanceQuiz('grande', n=3, seed=3)"))
    if broken:
        (d / BROKEN).write_text(lesson_notebook(
            "Lesson 2: A broken cell", f"raise ValueError({SECRET!r})", "print('after the error')",
            prose="Some prose that still shows."))
    return d


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    """A server with one place (--max-kernels 1) and one preheated kernel per lesson, ready."""
    lessons = write_lessons(tmp_path_factory.mktemp("lessons"))
    log = tmp_path_factory.mktemp("log") / "serve.log"
    with running_server("--lessons", str(lessons), "--max-kernels", "1", "--pool-size", "1", log_path=log, cwd=ROOT) as s:
        wait_for_log(s, r"\] ready: ", timeout=120)
        yield s


# ----- the cap and the busy page ------------------------------------------------------------------

def test_second_visitor_beyond_the_cap_gets_the_busy_page_until_a_place_frees(capped):
    async def go():
        first = Visitor(capped.base_url)
        assert (await first.open(LANCE)).code == 200
        second = Visitor(capped.base_url)
        busy = await second.get_page(LANCE)
        closed = await first.close_page()  # the tab is closed: its beacon stops the kernel at once
        third = Visitor(capped.base_url)
        again = await third.get_page(LANCE)
        await third.close_page()
        return busy, closed, again

    busy, closed, again = run(go())
    body = busy.body.decode()
    assert busy.code == 503
    assert busy.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "busy" in body.lower() and "try again" in body.lower()
    assert f'http-equiv="refresh" content="{RETRY_AFTER_SECONDS}"' in body
    assert "jupyter-config-data" not in body  # no kernel was started for it
    assert closed == 204 and again.code == 200
    assert re.search(r"busy: refused a visitor to 01-lance\.ipynb \(1 of 1 places taken\)", capped.log())


def test_a_page_gets_a_preheated_kernel(capped):
    async def go():
        v = Visitor(capped.base_url)
        r = await v.open(LANCE)
        await v.close_page()
        return r, v.kernel_id

    r, kernel_id = run(go())
    assert r.code == 200
    assert re.search(rf"page 01-lance\.ipynb opened: kernel {kernel_id[:8]} \(preheated\)", capped.log())


# ----- the lesson bar and the index ---------------------------------------------------------------

def test_lesson_pages_carry_the_lesson_bar_and_the_index_lists_the_lessons(capped):
    async def go():
        v = Visitor(capped.base_url)
        page = await v.get_page(LANCE)
        await v.close_page()
        index = await v.fetch("/")
        return page.body.decode(), index.body.decode()

    page, index = run(go())
    nav = re.search(r'<nav class="musteach-bar" aria-label="Lessons">(.*?)</nav>', page, re.S)
    assert nav, "no lesson bar on the page"
    bar = nav.group(1)
    assert re.search(r'<a class="musteach-brand" href="/">musteach</a>', bar)
    links = re.findall(r'href="/voila/render/([^"]+)"', bar)
    assert links == [LANCE, BROKEN]
    current = re.findall(r'href="/voila/render/([^"]+)"[^>]*aria-current="page"', bar)
    assert current == [LANCE]
    assert ">1 who wins Grande</a>" in bar  # "Lesson 1: who wins Grande" -> its number and short label, as written
    assert re.findall(r'href="/voila/render/([^"]+)"', index) == [LANCE, BROKEN]
    assert "Lesson 2: A broken cell" in index
    # the page tells a visitor when its kernel is gone for good (culled), with a Reload button
    assert "This session ended: reload to go on." in page
    assert "window.WebSocket = MusteachWebSocket" in page


def test_the_index_numbers_lessons_by_their_file_names():
    lessons = [Lesson.from_heading(p, h) for p, h in [
        ("00-welcome.ipynb", "Welcome to Mus"), ("03-grande-chica.ipynb", "Lesson 3: Grande and Chica"),
        ("11-practice.ipynb", "Lesson 11: Practice")]]
    html = index_html(lessons, "/")
    assert "<ol" not in html  # no 1..N numbering of its own
    assert re.findall(r'<a href="/voila/render/[^"]+">([^<]+)</a>', html) == [
        "Lesson 0: Welcome to Mus", "Lesson 3: Grande and Chica", "Lesson 11: Practice"]


def test_the_session_api_the_page_watches_says_when_a_kernel_is_gone(capped):
    async def go():
        v = Visitor(capped.base_url)
        assert (await v.open(LANCE)).code == 200
        alive = await v.fetch(f"/musteach/api/session/{v.kernel_id}")
        stranger = await Visitor(capped.base_url).fetch(f"/musteach/api/session/{v.kernel_id}")
        await v.close_page()
        for _ in range(40):
            gone = await v.fetch(f"/musteach/api/session/{v.kernel_id}")
            if gone.code == 410:
                break
            await asyncio.sleep(0.25)
        return alive.code, stranger.code, gone.code

    assert run(go()) == (200, 403, 410)


def test_the_repo_lessons_are_listed_in_order_with_their_titles():
    lessons = list_lessons(ROOT / "lessons")
    files = sorted(p.name for p in (ROOT / "lessons").glob("[0-9][0-9]-*.ipynb"))
    assert [ls.path for ls in lessons] == files and len(files) >= 6
    assert [ls.number for ls in lessons] == sorted(ls.number for ls in lessons)
    assert all(ls.title and ls.label for ls in lessons)
    assert Lesson.from_heading("04-pares.ipynb", "Lesson 4: pares").label == "Pares"


# ----- tracebacks hidden --------------------------------------------------------------------------

def test_a_failing_cell_shows_a_note_not_its_traceback(capped):
    async def go():
        v = Visitor(capped.base_url)
        page = await v.get_page(BROKEN)
        await v.close_page()
        return page

    page = run(go())
    html = page.body.decode()
    assert page.code == 200
    assert SECRET not in html and "Traceback" not in html and "ValueError" not in html
    assert CELL_ERROR_NOTE.split(";")[0] in html
    assert "--show_tracebacks" not in html and "--debug" not in html
    assert "Some prose that still shows." in html and "after the error" in html


def test_error_pages_show_no_traceback(capped):
    async def go():
        v = Visitor(capped.base_url)
        return [await v.fetch(p) for p in ("/voila/render/no-such-lesson.ipynb", "/voila/files/x.ipynb", "/nowhere")]

    for r in run(go()):
        assert r.code in (403, 404)
        assert "Traceback" not in r.body.decode("utf-8", "replace")


def test_not_found_pages_link_back_to_the_lessons(capped):
    async def go():
        v = Visitor(capped.base_url)
        return [await v.fetch(p) for p in ("/voila/render/no-such-lesson.ipynb", "/nowhere", "/voila/nothing/here")]

    for r in run(go()):
        body = r.body.decode("utf-8", "replace")
        assert r.code == 404, (r.code, body[:300])
        assert '<a href="/">Back to the lessons</a>' in body and "Traceback" not in body


# ----- culling ------------------------------------------------------------------------------------

def test_an_idle_kernel_is_culled_even_with_its_tab_open_and_frees_its_place(tmp_path):
    lessons = write_lessons(tmp_path / "lessons", broken=False)
    with running_server("--lessons", str(lessons), "--max-kernels", "1", "--cull-idle", "3", "--pool-size", "1",
                        log_path=tmp_path / "serve.log", cwd=ROOT) as server:
        wait_for_log(server, r"\] ready: ", timeout=120)

        async def go():
            v = Visitor(server.base_url)
            assert (await v.open(LANCE)).code == 200  # the websocket stays open: the tab is open
            line = await asyncio.to_thread(wait_for_log, server, rf"kernel {v.kernel_id[:8]} stopped \(culled: idle for \d+ s\)")
            await asyncio.wait_for(v.closed.wait(), 15)  # its page lost the kernel
            other = Visitor(server.base_url)
            r = await other.get_page(LANCE)  # the place is free again
            await other.close_page()
            return line, r, other.kernel_id

        line, r, other_kernel = run(go())
        assert "culled: idle" in line.group(0) and r.code == 200
        # the preheated kernel waiting in the pool was not culled: the next page still got one
        assert re.search(rf"page 01-lance\.ipynb opened: kernel {other_kernel[:8]} \(preheated\)", server.log())


def test_a_preheated_kernel_handed_to_a_page_is_not_culled_before_the_page_connects():
    """A pool kernel idle for minutes, just handed to a visitor whose websocket has not connected yet: the
    cull check must not stop it ("culled: idle for 411 s, no page connected" seconds after the page opened)."""
    km = MusteachKernelManager()
    stopped: list[str] = []

    async def shutdown_kernel(kernel_id: str, now: bool = False, restart: bool = False) -> None:
        stopped.append(kernel_id)

    km.shutdown_kernel = shutdown_kernel
    for k in ("handed", "orphan"):
        km._kernels[k] = types.SimpleNamespace(
            last_activity=utcnow() - timedelta(seconds=411), execution_state="idle",
            kernel_spec=types.SimpleNamespace(metadata={}), kernel_name="python3")
    km.hand_over("handed")
    assert (utcnow() - km._kernels["handed"].last_activity).total_seconds() < 5  # its activity clock restarted
    km._kernels["handed"].last_activity = utcnow() - timedelta(seconds=411)  # even with an old clock: the grace
    asyncio.run(km.cull_kernel_if_idle("handed"))
    asyncio.run(km.cull_kernel_if_idle("orphan"))
    assert stopped == ["orphan"]  # a kernel never handed over, idle and alone, is still culled
    km._handed_over["handed"] -= HANDOVER_GRACE_SECONDS + 1  # the grace is over and no page ever connected
    asyncio.run(km.cull_kernel_if_idle("handed"))
    assert stopped == ["orphan", "handed"]


def test_pool_kernels_wait_while_a_page_loads(monkeypatch):
    """Refilling a pool waits while a visitor's page loads (handed over under PAGE_SETTLE_SECONDS ago, or its
    websocket not connected yet), and never longer than PAGE_LOAD_LIMIT_SECONDS; one pool kernel at a time
    still starts meanwhile (branch hosting: a class arriving without pause kept every pool from refilling)."""
    km = MusteachKernelManager()
    km._kernels["page"] = types.SimpleNamespace(last_activity=utcnow(), execution_state="idle")
    assert not km.pages_loading()
    km.hand_over("page")
    assert km.pages_loading()  # just handed over, its page not connected
    km._kernel_connections["page"] = 1
    assert km.pages_loading()  # connected, but the page is still drawing its widgets
    km._page_loads["page"] -= PAGE_SETTLE_SECONDS
    assert not km.pages_loading()  # connected and settled: the pool may refill
    del km._kernel_connections["page"]
    assert km.pages_loading()  # a page that has not connected yet holds the refill ...
    km._page_loads["page"] -= PAGE_LOAD_LIMIT_SECONDS
    assert not km.pages_loading() and "page" not in km._page_loads  # ... for PAGE_LOAD_LIMIT_SECONDS at most

    async def slot_after_load() -> float:
        km._pools = {"03-grande-chica.ipynb": [asyncio.current_task()]}  # a pool entry no visitor took yet
        km.hand_over("page")
        km._kernel_connections["page"] = 1
        km._page_loads["page"] -= PAGE_SETTLE_SECONDS - 0.3
        monkeypatch.setattr("musteach_server.kernel_manager.PREHEAT_CONCURRENCY", 2)
        km._preheating = 1  # one pool kernel already starting: a second waits until the page has loaded
        t = time.monotonic()
        assert await km._take_slot()
        return time.monotonic() - t

    assert 0.2 <= asyncio.run(slot_after_load()) < PAGE_SETTLE_SECONDS


def test_culling_and_the_other_production_settings_are_configured():
    o = ServeOptions(lessons_dir=ROOT / "lessons", lessons=list_lessons(ROOT / "lessons"), cull_idle=600, pool_size=2,
                     pools={"03-grande-chica.ipynb": 9}, max_kernels=30)
    c = build_config(o)
    mk, vc = c.MappingKernelManager, c.VoilaConfiguration
    assert mk.cull_idle_timeout == 600 and 0 < mk.cull_interval <= 60
    assert mk.cull_connected is True and mk.cull_busy is False and mk.allow_tracebacks is False
    assert vc.strip_sources is True and vc.show_tracebacks is False
    assert vc.template == "musteach" and vc.allow_template_override == "NO" and vc.allow_theme_override == "NO"
    assert vc.preheat_kernel is True and vc.default_pool_size == 2
    assert c.VoilaKernelManager.kernel_pools_config["03-grande-chica.ipynb"] == {"pool_size": 9}
    assert [ls["path"] for ls in vc.resources["musteach"]["lessons"]] == [ls.path for ls in o.lessons]
    assert not any(re.fullmatch(p, "03-grande-chica.ipynb") for p in vc.file_allowlist)
    assert any(re.fullmatch(p, "lesson.ipynb") for p in vc.file_denylist)
    assert any(re.fullmatch(p, "helper.py") for p in vc.file_denylist)
    assert set(ALLOWED_MESSAGE_TYPES) == {"comm_open", "comm_msg", "comm_close", "comm_info_request", "kernel_info_request"}
    never = build_config(ServeOptions(lessons_dir=ROOT / "lessons", cull_idle=0, pool_size=0))
    assert never.MappingKernelManager.cull_idle_timeout > 10**8  # "never" for kernels with a page open
    assert never.VoilaConfiguration.preheat_kernel is False


def test_kernel_gate_counts_visitors():
    running: set[str] = set()
    gate = KernelGate(running, max_kernels=2)
    admit = lambda: asyncio.run(gate.admit())  # noqa: E731
    assert admit() and admit()
    assert not admit() and gate.in_use() == 2  # two pages being opened hold both places
    running |= {"k1", "pooled"}
    gate.seat("k1", LANCE)
    gate.abandon()  # the second page failed: its place is back
    assert gate.in_use() == 1 and admit()
    gate.seat("pooled-turned-visitor", LANCE)
    running.add("pooled-turned-visitor")
    assert not admit()
    running.discard("k1")  # culled or closed
    assert gate.in_use() == 1 and admit()


def test_kernel_gate_counts_the_pools_and_stops_a_spare_to_make_room():
    class Pools(set):
        def __init__(self):
            super().__init__()
            self._pools: dict[str, list] = {}
            self.stopped: list[str] = []

        async def shutdown_kernel(self, kernel_id, now=False):
            self.stopped.append(kernel_id)
            for pool in self._pools.values():
                pool[:] = [f for f in pool if f.result()["kernel_id"] != kernel_id]

    async def go():
        km = Pools()
        done = []
        for k in ("a1", "b1"):
            f = asyncio.get_running_loop().create_future()
            f.set_result({"kernel_id": k})
            done.append(f)
        km._pools = {"a.ipynb": [done[0]], "b.ipynb": [done[1]]}
        gate = KernelGate(km, max_kernels=3)
        assert gate.total() == 2
        assert await gate.admit("c.ipynb")  # a third kernel fits
        gate.seat("c1", "c.ipynb")
        km.add("c1")
        assert gate.total() == 3 and km.stopped == []
        assert await gate.admit("a.ipynb")  # takes a's preheated kernel: no new one
        gate.abandon()
        assert await gate.admit("d.ipynb")  # the room is full: a spare preheated kernel is stopped for it
        return km.stopped, gate.total()

    stopped, total = asyncio.run(go())
    assert len(stopped) == 1 and stopped[0] in ("a1", "b1") and total == 3


def test_pools_shrink_to_fit_under_the_cap():
    lessons = list_lessons(ROOT / "lessons")
    o = ServeOptions(lessons_dir=ROOT / "lessons", lessons=lessons, max_kernels=40, pool_size=1,
                     pools={"03-grande-chica.ipynb": 40})
    fitted = o.fitted_pools()
    assert sum(fitted.values()) == 40 and fitted["03-grande-chica.ipynb"] == 40
    o = ServeOptions(lessons_dir=ROOT / "lessons", lessons=lessons, max_kernels=5, pool_size=2)
    fitted = o.fitted_pools()
    assert sum(fitted.values()) == 5 and max(fitted.values()) == 1
    pools = build_config(o).VoilaKernelManager.kernel_pools_config
    assert pools["default"] == {"pool_size": 0} and sum(v["pool_size"] for v in pools.values()) == 5


def test_traversal_detection():
    for bad in ("/a/../b", "/a/%2e%2e/b", "/a/%252e%252e/b", "/a/..%2fb", "/a/..\\b", "/a/./b", "/a/%00.png"):
        assert is_traversal(bad), bad
    for good in ("/voila/render/03-grande-chica.ipynb", "/voila/files/a..b.png", "/", "/voila/static/voila.js"):
        assert not is_traversal(good), good


# ----- the command --------------------------------------------------------------------------------

def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "musteach.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_serve_is_a_plug_in_and_musteach_imports_no_jupyter():
    eps = {ep.name: ep.value for ep in entry_points(group="musteach.commands")}
    assert eps.get("serve") == "musteach_server.command"
    assert not (ROOT / "musteach" / "commands" / "serve.py").exists()
    code = ("import sys, musteach, musteach.cli\nmusteach.cli.build_parser()\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'voila', 'jupyter_server', 'tornado', 'nbconvert'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stdout + out.stderr
    helptext = cli("serve", "--help").stdout
    for option in ("--host", "--port", "--lessons", "--max-kernels", "--cull-idle", "--pool-size", "--pool"):
        assert option in helptext


@pytest.mark.parametrize("args,needle", [
    (["--max-kernels", "0"], "--max-kernels must be 1 or more"),
    (["--cull-idle", "-5"], "--cull-idle"),
    (["--pool-size", "-1"], "--pool-size must be 0 or more"),
    (["--port", "70000"], "--port"),
    (["--lessons", "/nonexistent/lessons"], "no lessons folder found"),
    (["--pool", "99=3"], "no lesson '99'"),
    (["--pool", "03=lots"], "--pool wants LESSON=N"),
    (["--per-session", "0"], "--per-session must be 1 or more"),
    (["--trusted-proxy", "proxy.example"], "--trusted-proxy wants an address or network, not 'proxy.example'"),
    (["--secret-file", "/nonexistent/secret"], "--secret-file /nonexistent/secret"),
    (["--base-url", "musteach"], "--base-url must start with /"),
])
def test_bad_options_exit_2_with_one_line(args, needle):
    out = cli("serve", *args)
    assert out.returncode == 2, out.stderr
    assert needle in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_a_port_in_use_is_a_clear_error(tmp_path):
    lessons = write_lessons(tmp_path / "lessons", broken=False)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = cli("serve", "--lessons", str(lessons), "--pool-size", "0", "--port", str(port), timeout=90)
    assert out.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in out.stderr


def test_parse_pools():
    lessons = list_lessons(ROOT / "lessons")
    first = lessons[0]
    assert parse_pools([f"{first.number:02d}=5", f"{lessons[1].stem}=0"], lessons) == {first.path: 5, lessons[1].path: 0}
    with pytest.raises(MusError, match="LESSON=N"):
        parse_pools(["03"], lessons)


# ----- binder -------------------------------------------------------------------------------------



@pytest.mark.slow
def test_a_venv_built_from_the_binder_files_alone_serves_a_lesson(fresh_install, tmp_path):
    """As repo2docker does: a copy of the repo, a fresh venv, ``pip install -r binder/requirements.txt`` (the
    session's ``fresh_install``), then that venv's ``musteach serve`` serves a lesson page a visitor can answer."""
    repo, venv, env = fresh_install.repo, fresh_install.venv, fresh_install.env
    where = subprocess.run([venv / "bin" / "python", "-c", "import musteach_server as s; print(s.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert Path(where.stdout.strip()).resolve().is_relative_to(venv.resolve()), where.stdout + where.stderr
    lesson = sorted(p.name for p in (repo / "lessons").glob("[0-9][0-9]-*.ipynb"))[0]
    with running_server("--pool-size", "0", log_path=tmp_path / "serve.log", python=str(venv / "bin" / "python"),
                        cwd=repo, env=env, timeout=120) as server:
        async def go():
            v = Visitor(server.base_url)
            r = await v.open(lesson)
            quizzes = v.quizzes()
            clicked = None
            if quizzes:
                feedback = v.find(quizzes[0], "musteach-feedback")[0]
                answer = next(a for a in v.find(quizzes[0], "musteach-answer") if not v.states[a].get("disabled"))
                _, clicked = await v.click(answer, watch=feedback)
            await v.close_page()
            return r, v.html, quizzes, clicked

        r, html, quizzes, clicked = run(go())
    assert r.code == 200
    assert 'class="musteach-bar"' in html  # the template shipped inside the installed package
    assert quizzes and clicked is not None, "the lesson's quiz did not answer a click"

    # Binder: postBuild installs the server-proxy config; the Binder session's Jupyter server then opens
    # musteach serve's look (lesson bar, busy page, hidden sources) at <server>/musteach/
    post = subprocess.run(["bash", "binder/postBuild"], cwd=repo, env=env, capture_output=True, text=True, timeout=60)
    assert post.returncode == 0, post.stderr
    port = free_port()
    jupyter = subprocess.Popen(
        [venv / "bin" / "jupyter", "server", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
         "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True", "--allow-root"],
        cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=open(tmp_path / "jupyter.log", "wb"),
        start_new_session=True)
    try:
        async def through_binder():
            v = Visitor(f"http://127.0.0.1:{port}/musteach", timeout=120)
            for _ in range(240):  # the Jupyter server, then musteach serve on its first request
                try:
                    index = await v.fetch("/")
                except OSError:
                    index = None
                if index is not None and index.code == 200:
                    break
                await asyncio.sleep(0.5)
            r = await v.open(lesson)
            return index, r, v.html, v.quizzes()

        index, r, html, quizzes = run(through_binder())
    finally:
        os.killpg(jupyter.pid, 15)
        jupyter.wait(30)
    log = (tmp_path / "jupyter.log").read_text(errors="replace")
    assert index is not None and index.code == 200, log[-3000:]
    assert 'href="/musteach/voila/render/' in index.body.decode()  # the lessons, under the proxy's prefix
    assert r.code == 200 and 'class="musteach-bar"' in html and quizzes, log[-3000:]


# ----- fair places (issue 15) ---------------------------------------------------------------------

IMG_FROM_ANOTHER_SITE = {"Sec-Fetch-Dest": "image", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Site": "cross-site"}


def test_floods_and_cross_site_images_leave_a_place_for_a_second_visitor(tmp_path):
    """One client floods the room four ways: <img> tags on another site, cookie-less GETs, one session
    opening page after page, fresh sessions from one address (behind a trusted proxy). A second visitor,
    from another address, still gets a lesson; the kernels never exceed the limits."""
    lessons = write_lessons(tmp_path / "lessons", broken=False)
    proxy = proxy_headers(tmp_path)  # the trusted proxy on this machine proves itself (issue 26)
    with running_server("--lessons", str(lessons), "--max-kernels", "5", "--pool-size", "0", "--per-address", "3",
                        "--trusted-proxy", "127.0.0.1", "--secret-file", str(tmp_path / "secret"),
                        log_path=tmp_path / "serve.log", cwd=ROOT) as s:
        async def go():
            flooder = Visitor(s.base_url)
            imgs = [await flooder.fetch(f"/voila/render/{LANCE}", headers=IMG_FROM_ANOTHER_SITE) for _ in range(5)]
            bare = [await Visitor(s.base_url).fetch(f"/voila/render/{LANCE}") for _ in range(30)]
            after_anonymous = len(s.kernel_pids())
            attacker = {"X-Forwarded-For": "198.51.100.7", **proxy}
            one = Visitor(s.base_url)
            one_session = []
            for _ in range(5):
                one.fetch = _with_headers(one.fetch, attacker)
                one_session.append((await one.get_page(LANCE)).code)
            held_by_one = len(s.kernel_pids())
            fresh = []
            for _ in range(4):
                v = Visitor(s.base_url)
                v.fetch = _with_headers(v.fetch, attacker)
                fresh.append((await v.get_page(LANCE)).code)
            second = Visitor(s.base_url)
            second.fetch = _with_headers(second.fetch, {"X-Forwarded-For": "203.0.113.20", **proxy})
            r = await second.open(LANCE)
            tls = await Visitor(s.base_url).fetch(f"/voila/render/{LANCE}",
                                                  headers={"X-Forwarded-Proto": "https", **proxy})
            return imgs, bare, after_anonymous, one_session, held_by_one, fresh, r, second, tls

        imgs, bare, after_anonymous, one_session, held_by_one, fresh, r, second, tls = run(go())
        # behind a trusted TLS proxy the session cookie is Secure (and a __Host- cookie: issue 26)
        assert any(c.startswith("__Host-musteach_session=") and "Secure" in c
                   for c in tls.headers.get_list("Set-Cookie"))
        assert [x.code for x in imgs] == [403] * 5
        assert {x.code for x in bare} == {303}  # the first visit sets a cookie and starts no kernel
        assert after_anonymous == 0
        assert one_session == [200] * 5 and held_by_one == 3  # its oldest kernels were released
        assert fresh.count(429) >= 3 and fresh[-1] == 429  # the address holds 3 kernels at most
        assert r.code == 200 and second.quizzes()
        assert len(s.kernel_pids()) <= 4
        log = s.log()
        assert re.search(r"refused 01-lance\.ipynb for 127\.0\.0\.1: no kernel is started for a image request", log)
        assert "oldest kernel" in log and "already holds 3 kernels" in log


def test_half_open_page_loads_hold_no_place_for_long(tmp_path):
    """One client loads lesson pages as a browser would (fresh cookie jar each time, ``Sec-Fetch-Dest:
    document``) but never runs them: no websocket connects. It gets at most ``--waiting-per-address``
    kernels at once (no per-address limit is set), so a second visitor still gets a lesson, and the
    half-open kernels are stopped ``--connect-timeout`` seconds later while the second visitor's stays."""
    lessons = write_lessons(tmp_path / "lessons", broken=False)
    timeout = 20  # rendering a page takes about 4 s on a loaded test machine
    proxy = proxy_headers(tmp_path)
    with running_server("--lessons", str(lessons), "--max-kernels", "6", "--pool-size", "0",
                        "--waiting-per-address", "3", "--connect-timeout", str(timeout),
                        "--trusted-proxy", "127.0.0.1", "--secret-file", str(tmp_path / "secret"),
                        log_path=tmp_path / "serve.log", cwd=ROOT) as s:
        document = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "none",
                    "X-Forwarded-For": "198.51.100.7", **proxy}

        async def go():
            flood = []
            for _ in range(8):  # one after another, as the tester did
                v = Visitor(s.base_url)
                v.fetch = _with_headers(v.fetch, document)
                flood.append((await v.get_page(LANCE)).code)
            held = len(s.kernel_pids())
            second = Visitor(s.base_url)
            second.fetch = _with_headers(second.fetch, {"X-Forwarded-For": "203.0.113.20", **proxy})
            r = await second.open(LANCE)
            start = time.monotonic()
            while len(s.kernel_pids()) > 1 and time.monotonic() - start < timeout + 10:
                await asyncio.sleep(0.5)
            gone_after = time.monotonic() - start
            left = len(s.kernel_pids())
            quiz = second.quizzes()[0]
            feedback = second.find(quiz, "musteach-feedback")[0]
            answer = next(a for a in second.find(quiz, "musteach-answer") if not second.states[a].get("disabled"))
            _, clicked = await second.click(answer, watch=feedback)
            return flood, held, r, second, gone_after, left, clicked

        flood, held, r, second, gone_after, left, clicked = run(go())
        assert flood[:3] == [200] * 3 and set(flood[3:]) == {429}, flood
        assert held == 3
        assert r.code == 200 and second.quizzes()
        assert left == 1 and gone_after < timeout + 3, (left, gone_after)  # counted from the second visitor's page
        assert clicked is not None  # the second visitor's kernel, connected, was kept
        log = s.log()
        assert log.count(f"its page did not connect within {timeout} s") == 3
        assert "already holds 3 kernels whose page has not connected" in log


def proxy_headers(d: Path) -> dict[str, str]:
    """Write a secret to ``d / "secret"``; the header by which a trusted proxy on this machine proves itself."""
    from musteach_server.admission import proxy_key

    secret = secrets.token_hex(32).encode()
    (d / "secret").write_bytes(secret)
    return {"X-Musteach-Proxy": proxy_key(secret)}


def _with_headers(fetch, extra):
    async def wrapped(path, *, method="GET", body=None, headers=None):
        return await fetch(path, method=method, body=body, headers={**extra, **(headers or {})})

    return wrapped


def test_the_start_up_log_says_how_the_pools_shrank(tmp_path):
    """--max-kernels 3 with --pool 03=5: the log says 3 kernels are preheated, all for lesson 3, none for the
    others, what was asked and why it shrank; the kernels started match it."""
    lessons = write_lessons(tmp_path / "lessons", broken=False)
    (lessons / "03-total.ipynb").write_text(lesson_notebook(
        "Lesson 3: Count", "from musteach_widgets import TotalQuiz\nTotalQuiz(kind='juego', n=3, seed=3)"))
    with running_server("--lessons", str(lessons), "--max-kernels", "3", "--pool", "03=5",
                        log_path=tmp_path / "serve.log", cwd=ROOT) as s:
        ready = wait_for_log(s, r"\] ready: (\d+) preheated kernels have run their lessons", timeout=120)
        log = s.log()
        assert ready.group(1) == "3" and len(s.kernel_pids()) == 3
    assert ("at most 3 kernels, preheated ones included; 3 kernels preheated: 3 for 03-total.ipynb; none for "
            "01-lance.ipynb (asked: 1 kernel per lesson, 5 for 03-total.ipynb, 6 in all; shrunk to fit under "
            "--max-kernels 3)") in log
    assert " 1 kernels" not in log
    running = [int(n) for n in re.findall(r"started for the pool \((\d+) running\)", log)]
    assert running == [1, 2, 3]


def test_the_cap_counts_the_pools(tmp_path):
    """--max-kernels 3 with two lessons asking for 2 preheated kernels each: never more than 3 kernels, the
    third and fourth visitors get places by spare kernels being stopped, the next one the busy page."""
    lessons = write_lessons(tmp_path / "lessons", broken=False)
    (lessons / "03-total.ipynb").write_text(lesson_notebook(
        "Lesson 3: Count", "from musteach_widgets import TotalQuiz\nTotalQuiz(kind='juego', n=3, seed=3)"))
    with running_server("--lessons", str(lessons), "--max-kernels", "3", "--pool-size", "2",
                        log_path=tmp_path / "serve.log", cwd=ROOT) as s:
        wait_for_log(s, r"\] ready: ", timeout=120)
        counts = [len(s.kernel_pids())]

        async def go():
            codes, visitors = [], []
            for lesson in (LANCE, "03-total.ipynb", LANCE, "03-total.ipynb"):
                v = Visitor(s.base_url)
                codes.append((await v.get_page(lesson)).code)
                visitors.append(v)
                await asyncio.sleep(1.5)  # room for a (capped) refill
                counts.append(len(s.kernel_pids()))
            busy = visitors[-1] if codes[-1] == 503 else None
            return codes, busy

        codes, busy = run(go())
    assert max(counts) <= 3, counts
    assert codes[:3] == [200, 200, 200] and codes[3] == 503, codes
    assert busy is not None


def test_the_lessons_command_copies_the_packaged_lessons(tmp_path):
    out = cli("lessons", str(tmp_path / "mus"))
    assert out.returncode == 0, out.stderr
    copied = sorted(p.name for p in (tmp_path / "mus").glob("*.ipynb"))
    assert copied == sorted(p.name for p in (ROOT / "lessons").glob("*.ipynb"))
    again = cli("lessons", str(tmp_path / "mus"))
    assert again.returncode == 2 and "--force" in again.stderr


# ----- past one machine: two instances behind nginx (issue 15) ------------------------------------

def test_two_instances_behind_nginx_keep_each_visitor_on_their_kernel(tmp_path):
    from musteach_server.admission import ADMIT_COOKIE, issue_token
    from musteach_server.cluster import find_nginx, running_cluster

    if find_nginx() is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nginx is missing (make proxy-deps installs it)")
        pytest.skip("nginx is missing (make proxy-deps installs it)")
    lessons = write_lessons(tmp_path / "lessons", broken=False)
    with running_cluster(2, "--lessons", str(lessons), "--pool-size", "0", "--max-kernels", "6",
                         log_dir=tmp_path / "cluster", cwd=ROOT) as cluster:
        # six visitors behind one address: a class, admitted with a class link signed by the shared secret
        token = issue_token((tmp_path / "cluster" / "secret").read_bytes().strip(), "test", 6, 1)

        async def one(i: int):
            v = Visitor(cluster.base_url)
            v.cookies[ADMIT_COOKIE] = token
            r = await v.open(LANCE)
            feedback = v.find(v.quizzes()[0], "musteach-feedback")[0]
            answer = next(a for a in v.find(v.quizzes()[0], "musteach-answer") if not v.states[a].get("disabled"))
            _, latency = await v.click(answer, watch=feedback)
            return r.code, latency, v

        async def go():
            done = await asyncio.gather(*(one(i) for i in range(6)))
            per_instance = [len(s.kernel_pids()) for s in cluster.servers]
            closed = [await v.close_page() for _, _, v in done]
            return done, per_instance, closed

        done, per_instance, closed = run(go())
        import psutil

        listening = [c for srv in cluster.servers for c in psutil.Process(srv.process.pid).net_connections("inet")
                     if c.status == psutil.CONN_LISTEN]
        assert listening == [], "an instance behind the proxy listens on TCP: any local client could reach it"
        assert [code for code, _, _ in done] == [200] * 6
        assert all(latency is not None for _, latency, _ in done)
        assert sum(per_instance) == 6, per_instance  # (the hash spreads sessions: the load test prints how)
        assert closed == [204] * 6  # every beacon reached the instance holding its kernel


# ----- pip users: the wheel carries the lessons (issue 15) ----------------------------------------

@pytest.mark.slow
def test_the_built_wheel_serves_the_lessons_from_an_empty_folder(fresh_install, tmp_path):
    """``pip install "musteach[tutor]"`` from the built wheel into a fresh venv (the session's ``fresh_install``,
    whose dependencies are the tutor extra's; the wheel replaces its musteach), then ``musteach serve`` in an empty
    folder: every lesson of the repository is listed, one opens and answers a click; ``musteach lessons`` copies
    them out."""
    repo = fresh_install.repo
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(repo)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-4000:]
    wheel = next(wheels.glob("musteach-*.whl"))
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    lessons = sorted(p.name for p in (ROOT / "lessons").glob("[0-9][0-9]-*.ipynb"))
    assert all(f"musteach_lessons/{name}" in names for name in lessons)
    venv, env = fresh_install.venv, fresh_install.env
    python = fresh_install.bin("python")
    fresh_install.run([python, "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps", str(wheel)],
                      cwd=tmp_path)
    fresh_install.run([python, "-m", "pip", "install", "--quiet", f"{wheel}[tutor]"], cwd=tmp_path)  # extras resolve
    shown = fresh_install.run([python, "-m", "pip", "show", "-f", "musteach"], cwd=tmp_path).stdout
    assert "musteach_lessons/03-grande-chica.ipynb" in shown and "Editable project location" not in shown
    empty = tmp_path / "empty"
    empty.mkdir()
    with running_server("--pool-size", "0", log_path=tmp_path / "serve.log", python=str(venv / "bin" / "python"),
                        cwd=empty, env=env, timeout=120) as server:
        async def go():
            v = Visitor(server.base_url)
            index = await v.fetch("/")
            r = await v.open("03-grande-chica.ipynb")
            quiz = v.quizzes()[0]
            feedback = v.find(quiz, "musteach-feedback")[0]
            answer = next(a for a in v.find(quiz, "musteach-answer") if not v.states[a].get("disabled"))
            _, clicked = await v.click(answer, watch=feedback)
            await v.close_page()
            return index, r, clicked

        index, r, clicked = run(go())
    assert index.code == 200 and all(name in index.body.decode() for name in lessons)
    assert r.code == 200 and clicked is not None
    assert str(venv.resolve()) in server.log() or "site-packages/musteach_lessons" in server.log()
    copied = subprocess.run([venv / "bin" / "musteach", "lessons", "mus"], cwd=empty, env=env, capture_output=True,
                            text=True, timeout=60)
    assert copied.returncode == 0, copied.stderr
    assert sorted(p.name for p in (empty / "mus").glob("*.ipynb")) == lessons
