"""Issue 26's attacks on ``musteach serve``, black-box: each test starts a real server (``python -m musteach.cli
serve``) and attacks it over HTTP and its websocket, as an attacker on the internet would, so that this same
file runs against the code of the day the issue was filed (the first parent of the hosting merge) and fails
there, and passes today. It imports nothing of the server but the visitor simulator
(:mod:`musteach_server.probe`, there in both), and uses only command-line options both servers know.

After each request of the routing attacks the test counts the server's kernels (its child processes) and
asks the host's view of the places (``/musteach/api/places``, key derived from the secret as the host does):
the gate's count must equal the kernels that exist, and never exceed the cap. The features issue 26 brought
(class tokens, pools that follow a class, the routing rule as a function...) are tested in
``test_hosting_features.py``; the page that notices a restarted server in ``test_hosting_browser.py``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import re
import secrets
import struct
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest

pytest.importorskip("voila")

from musteach_server.probe import NAVIGATION, PROTOCOL_V1, Visitor, lesson_notebook, running_server
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClosedError, websocket_connect

ROOT = Path(__file__).resolve().parents[1]
LANCE, TOTAL, NOISY = "01-lance.ipynb", "02-total.ipynb", "03-noisy.ipynb"
STDERR_MARK = b"Traceback (most recent call last): KERNEL-STDERR-7f3\n"
CAP = 3
IMAGE = {"Sec-Fetch-Dest": "image", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Site": "cross-site"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def run(coro):
    AsyncHTTPClient.configure(None, max_clients=20)
    return asyncio.run(coro)


def write_lessons(d: Path) -> Path:
    (d / "es").mkdir(parents=True)
    quiz = "from musteach_widgets import LanceQuiz\nLanceQuiz('grande', n=5, seed=7)"
    (d / LANCE).write_text(lesson_notebook("Lesson 1: Who wins Grande", quiz))
    (d / TOTAL).write_text(lesson_notebook("Lesson 2: Count for Juego", "2 + 2"))
    (d / "es" / LANCE).write_text(lesson_notebook("Lección 1: quién gana la grande", quiz))
    (d / "scratch.ipynb").write_text(lesson_notebook("Not a lesson", "3 + 3"))
    (d / NOISY).write_text(lesson_notebook("Lesson 3: A noisy kernel", f"import os\nos.write(2, {STDERR_MARK!r})"))
    return d


def serve(tmp_path: Path, *args: str, secret: bytes | None = None):
    """``musteach serve`` on a free port over ``write_lessons``, with a secret of its own (``server.secret``)."""
    lessons = write_lessons(tmp_path / "lessons")
    secret = secret or secrets.token_hex(32).encode()
    (tmp_path / "secret").write_bytes(secret)
    return running_server("--lessons", str(lessons), "--secret-file", str(tmp_path / "secret"), *args,
                          log_path=tmp_path / "serve.log", cwd=ROOT)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("hosting")
    with serve(d, "--pool-size", "0", "--max-kernels", str(CAP), "--per-address", "0", "--per-session", "1") as s:
        s.secret = (d / "secret").read_bytes()  # type: ignore[attr-defined]
        yield s


def derived_key(secret: bytes, what: bytes) -> str:
    """A key the host derives from the secret: HMAC-SHA256 of ``what``, url-safe base64 without padding."""
    return base64.urlsafe_b64encode(hmac.new(secret, what, hashlib.sha256).digest()).rstrip(b"=").decode()


def host_key(secret: bytes) -> str:
    """The host's key for ``/musteach/api/places``."""
    return derived_key(secret, b"musteach-host-key")


def proxy(secret: bytes) -> dict[str, str]:
    """The header by which the trusted proxy on this machine proves itself (``musteach admit --proxy-key``)."""
    return {"X-Musteach-Proxy": derived_key(secret, b"musteach-proxy-key")}


def live_kernels(server) -> int:
    """The server's kernels that run (its child processes), counted by the operating system."""
    import psutil

    n = 0
    for pid in server.kernel_pids():
        try:
            n += psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            pass
    return n


async def places(server, cap: int = CAP) -> dict:
    """The invariants after a request: no more kernel processes than the cap, and the host's view of the
    places: the gate counts exactly the kernels that exist."""
    running = live_kernels(server)
    assert running <= cap, f"{running} kernels run against a cap of {cap}"
    r = await Visitor(server.base_url).fetch("/musteach/api/places",
                                             headers={"Authorization": "Bearer " + host_key(server.secret)})
    assert r.code == 200, f"the host cannot see the places ({r.code})"
    got = json.loads(r.body)
    assert got["admitting"] == 0, got
    if got["pooled"]:  # pool kernels still starting are counted before they exist
        assert got["kernels"] <= got["taken"] <= got["max"], got
    else:
        assert got["taken"] == got["kernels"] <= got["max"], got
    return got


async def invariant(server, cap: int = CAP) -> str | None:
    """:func:`places`' invariants, as a message when they fail (None: they hold), to be asserted after the
    attack's own outcome."""
    try:
        await places(server, cap)
    except AssertionError as e:
        return str(e)
    return None


class From(Visitor):
    """A visitor whose requests leave from another local address (``127.0.0.2``: another client)."""

    source = "127.0.0.2"

    async def fetch(self, path, *, method="GET", body=None, headers=None):
        req = HTTPRequest(self.base_url + path, method=method, body=body, follow_redirects=False,
                          headers={**self._cookie_header(), **(headers or {})}, request_timeout=self.timeout,
                          network_interface=self.source)
        try:
            response = await AsyncHTTPClient().fetch(req, raise_error=False)
        except HTTPClientError as e:  # pragma: no cover
            response = e.response
        self._keep_cookies(response)
        return response

    async def connect(self):
        url = self.base_url.replace("http", "ws", 1) + f"/api/kernels/{self.kernel_id}/channels?session_id={self.session_id}"
        req = HTTPRequest(url, headers={**self._cookie_header(), "Origin": self.base_url},
                          request_timeout=self.timeout, network_interface=self.source)
        self.ws = await websocket_connect(req, subprotocols=[self.protocol] if self.protocol else None)
        self._reader = asyncio.ensure_future(self._read())


async def still_answers(v: Visitor) -> bool:
    """Whether the visitor's kernel still answers a fresh websocket (kernel_info) with their cookies."""
    try:
        await v.disconnect()
        await v.connect()
        info = await asyncio.wait_for(v.kernel_info(), 20)
        return "protocol_version" in info
    except Exception:
        return False


# ----- a trailing slash skipped every check; absolute paths told whether a file exists ----------------------

def spellings(lesson: str) -> list[str]:
    """Other spellings of ``/voila/render/<lesson>``: slashes, %-encodings, dots, case, absolute paths."""
    head, _, name = lesson.rpartition("/")
    pre = f"{head}/" if head else ""
    enc_pre = f"{head}%2F" if head else ""
    out = [
        f"{lesson}/", f"{lesson}//", f"{lesson}%2F", f"{lesson}%2f", f"/{lesson}", f"//{lesson}", f"{lesson}/.",
        f"./{lesson}", f"{pre}./{name}", f"{pre}{name}%00", f"{lesson}%252F", f"{pre}{name.upper()}",
        f"{pre}{name.replace('.ipynb', '.IPYNB')}", f"{pre}{name.replace('lance', 'Lance')}",
        f"{enc_pre}{name}/", f"{pre}%2E/{name}", f"{pre}{name}%20", f"{pre}{name}.", f"{pre}{name}/x.ipynb",
        f"{pre}{quote(name, safe='')}/", f"x/../{lesson}", f"{lesson}\\", f"{pre}{name}%5C", "scratch.ipynb",
        "scratch.ipynb/",
    ]
    if head:
        out += [f"{head}//{name}", f"{head.upper()}/{name}", f"{head}%2F{name}%2F"]
    return out


@pytest.mark.parametrize("lesson", [LANCE, "es/" + LANCE], ids=["en", "es"])
def test_every_spelling_of_a_lesson_path_gets_the_same_checks_and_the_gate_never_drifts(server, lesson):
    """Today's attack: ``GET /voila/render/03-grande-chica.ipynb/`` (also ``//``, ``%2F``, ``es/…/``), without a
    cookie and from a cross-site ``<img>``, rendered the page and started a kernel: 9 kernels against
    ``--max-kernels 6``, and the gate's count drifted for good."""
    async def go():
        opened = []
        v = Visitor(server.base_url)  # one visitor (--per-session 1: a page it opens releases its last one)
        for spelling in spellings(lesson):
            path = f"/voila/render/{spelling}"
            # a cross-site <img> without a cookie, then a visitor's navigation (with the cookie's first visit)
            img = await Visitor(server.base_url).fetch(path, headers=IMAGE)
            assert img.code != 200, f"{path}: a cross-site image got a page"
            await places(server)
            nav = await v.fetch(path, headers=NAVIGATION)
            if nav.code == 303 and "musteach-cookie" in nav.headers.get("Location", ""):
                nav = await v.fetch(nav.headers["Location"], headers=NAVIGATION)
            got = await places(server)
            if nav.code == 200:  # only a served lesson's own spelling (%2F for es/ is the same path)
                opened.append(spelling)
            assert nav.code in (200, 400, 404), (path, nav.code)  # never busy: nothing leaked a place
            assert got["kernels"] <= 1, (path, got)
        # the lesson itself still opens, once, under the same gate
        await v.disconnect()
        v = Visitor(server.base_url)
        assert (await v.open(lesson)).code == 200
        got = await places(server)
        await v.close_page()
        return opened, got

    opened, got = run(go())
    # the only other spelling that opens is the encoded one tornado decodes into the same lesson path
    assert all(s in (f"es%2F{LANCE}",) for s in opened), opened
    assert got["visitors"] >= 1


def test_absolute_and_out_of_tree_paths_answer_the_same_whether_a_file_exists_or_not(server, tmp_path):
    """Today's attack: ``/voila/render//tmp/x.ipynb`` answered 303 or 404 depending on whether the file existed."""
    there = tmp_path / "x.ipynb"
    there.write_text(lesson_notebook("Lesson 9: elsewhere", "1"))

    async def go():
        answers = []
        for path in (str(there), str(tmp_path / "nothing-here.ipynb")):
            for url in (f"/voila/render/{path}", f"/voila/render//{path}", f"/voila/render/{quote(path, safe='')}"):
                r = await Visitor(server.base_url).fetch(url, headers=NAVIGATION)
                answers.append((r.code, r.body.decode().replace(path, "P")))
        return answers

    answers = run(go())
    assert len({code for code, _ in answers}) == 1, answers
    assert len({body for _, body in answers}) == 1
    run(places(server))


# ----- logout by GET ---------------------------------------------------------------------------------------

def test_logout_by_get_ends_nothing_and_a_post_needs_the_xsrf_token(server):
    """Today's attack: a page on another site navigating to ``/logout`` ended the visitor's session and kernel."""
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        # another site navigates the visitor to /logout
        r = await v.fetch("/logout", headers={**NAVIGATION, "Sec-Fetch-Site": "cross-site"})
        after_get = await still_answers(v)
        # a cross-site form POST carries the cookies but not the token
        no_token = (await v.fetch("/logout", method="POST", body=b"", headers=FORM)).code
        after_post = await still_answers(v)
        r = await v.fetch("/logout", method="POST", body=urlencode({"_xsrf": v.cookies.get("_xsrf", "")}).encode(),
                          headers=FORM)
        ended = (r.code, await still_answers(v))
        await v.disconnect()
        return after_get, no_token, after_post, ended

    after_get, no_token, after_post, ended = run(go())
    assert after_get, "a GET of /logout ended the visitor's kernel"
    assert no_token == 403 and after_post
    assert ended == (200, False)
    run(places(server))


# ----- one client took every place -------------------------------------------------------------------------

def test_one_client_cannot_take_every_place(tmp_path):
    """Today's attack: 8 sessions from one client, each connecting its websocket, took every free place; honest
    visitors got "The tutor is busy" for as long as the attacker liked."""
    async def go(server):
        attacker = []
        for _ in range(8):  # one client (127.0.0.1), eight sessions, each connecting its websocket
            v = Visitor(server.base_url)
            r = await v.get_page(LANCE)
            if r.code == 200:
                await v.connect()
            attacker.append((v, r.code))
        honest = From(server.base_url)  # another client (127.0.0.2)
        r = await honest.open(LANCE)
        gate = await invariant(server, cap=8)
        for v, _ in attacker:
            await v.disconnect()
        if r.code == 200:
            await honest.close_page()
        return [c for _, c in attacker], r.code, gate

    with serve(tmp_path, "--pool-size", "0", "--max-kernels", "8") as server:
        server.secret = (tmp_path / "secret").read_bytes()
        taken, honest, gate = run(go(server))
    assert honest == 200, f"the honest visitor got {honest} after one client took {taken.count(200)} places"
    assert taken.count(200) < 8, taken
    assert gate is None, gate


# ----- websocket frames that froze the server; widgets that grew a kernel without limit ---------------------

def rss(pid: int) -> int:
    import psutil

    return psutil.Process(pid).memory_info().rss


@contextlib.contextmanager
def peak_rss(pid: int):
    """Sample the process's resident memory every 20 ms in a thread; yields a list whose last item is the peak."""
    import threading

    peak, stop = [rss(pid)], threading.Event()

    def sample():
        while not stop.wait(0.02):
            with contextlib.suppress(Exception):
                peak[-1] = max(peak[-1], rss(pid))

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield peak
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize("protocol", [None, PROTOCOL_V1], ids=["legacy", "v1"])
def test_a_frame_declaring_millions_of_parts_is_refused_before_it_is_parsed(server, protocol):
    """Today's attack: on the v1 protocol, 8 bytes of offset count (20,000,000, little-endian) and 16 zero bytes
    froze the server for 17 s and grew it by 300 MB; the legacy binary framing the same with its 4-byte count
    (its parser builds a struct format of that many items: 2 GB for 2**31 - 1). The server's memory is
    sampled while the frames are parsed; another visitor clicks meanwhile."""
    if protocol == PROTOCOL_V1:
        frames = [(20_000_000).to_bytes(8, "little") + bytes(16), (2**63).to_bytes(8, "little") + bytes(16)]
    else:
        frames = [struct.pack("!i", 20_000_000) + bytes(16), struct.pack("!i", 2**31 - 1) + bytes(8),
                  struct.pack("!iI", 1, 10**9) + bytes(8)]

    async def go():
        other = Visitor(server.base_url)
        assert (await other.open(LANCE)).code == 200
        v = Visitor(server.base_url, protocol=protocol)
        assert (await v.get_page(LANCE)).code == 200
        await v.connect()
        before = rss(server.process.pid)
        with peak_rss(server.process.pid) as peak:
            for frame in frames:
                with contextlib.suppress(WebSocketClosedError):  # the server may close the attacker's socket
                    await v.send_raw(frame)
            # the other visitor's page still answers at once, and the server does not grow
            quiz = other.quizzes()[0]
            answers = [a for a in other.find(quiz, "musteach-answer") if not other.states[a].get("disabled")]
            try:
                _, latency = await asyncio.wait_for(
                    other.click(answers[0], watch=other.find(quiz, "musteach-feedback")[0]), 5)
            except TimeoutError:
                latency = None
            await asyncio.sleep(1)
        grown = peak[-1] - before
        for page in (v, other):
            with contextlib.suppress(Exception):  # a server still frozen by the frame answers nothing
                await page.close_page()
        return grown, latency

    grown, latency = run(go())
    assert grown < 40 * 2**20, f"the server grew by {grown / 2**20:.0f} MiB while it parsed the frames"
    assert latency is not None, "another visitor's click got no answer within 5 s"
    assert "refused a page's websocket frame (it declares" in server.log()
    run(places(server))


def test_widgets_a_page_opens_are_limited_and_the_page_is_told(server):
    """Today's attack: 100 Text widgets of 1.5 MB opened by comm_open took a kernel from 51 to 200 MB, for good."""
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        kernel = v.kernel_id
        big = "x" * (1536 * 1024)
        sent = 0
        for i in range(100):
            if v.closed.is_set():
                break
            msg = v.message("comm_open", {
                "comm_id": f"{i:032x}", "target_name": "jupyter.widget",
                "data": {"state": {"_model_name": "TextModel", "_model_module": "@jupyter-widgets/controls",
                                   "_model_module_version": "2.0.0", "_view_name": "TextView",
                                   "_view_module": "@jupyter-widgets/controls", "_view_module_version": "2.0.0",
                                   "value": big}, "buffer_paths": []}})
            try:
                await v.send(msg)
            except WebSocketClosedError:  # the kernel was stopped meanwhile
                break
            sent += 1
        try:
            await asyncio.wait_for(v.closed.wait(), 30)
        except TimeoutError:
            pass
        r = await v.fetch(f"/musteach/api/session/{kernel}")
        stopped = v.closed.is_set()
        await v.disconnect()
        return sent, stopped, r.code, r.body

    sent, stopped, code, body = run(go())
    assert sent < 100 and stopped, f"the kernel took {sent} widgets of 1.5 MB and kept running"
    assert code == 410 and json.loads(body)["reason"] == "limit"
    assert re.search(r"stopped \(over a limit: its page sent more than \d+ bytes of widget state", server.log())
    run(places(server))


# ----- a class moves on: a page gone without its beacon held its kernel for minutes --------------------------

def test_a_page_closed_without_its_beacon_frees_its_kernel_in_seconds_and_a_reconnect_keeps_it(tmp_path):
    """Today's attack (a class moving on, a phone killing its tabs): a page closed without its beacon kept its
    kernel for about two minutes, so under ``--max-kernels`` the next lesson found no place. With the default
    grace, the kernel is released within seconds; a page whose socket comes back keeps its kernel."""
    async def go(server):
        gone, back = Visitor(server.base_url), Visitor(server.base_url)
        for v in (gone, back):
            assert (await v.open(LANCE)).code == 200
        assert live_kernels(server) == 2
        await gone.disconnect()  # no beacon
        await back.disconnect()
        await back.connect()  # a reload of the socket within the grace
        waited = 0.0
        while live_kernels(server) > 1 and waited < 45:
            await asyncio.sleep(0.5)
            waited += 0.5
        kernels = live_kernels(server)
        alive = (await still_answers(gone), await still_answers(back))
        await back.close_page()
        return kernels, alive

    with serve(tmp_path, "--pool-size", "0", "--max-kernels", "4") as server:
        server.secret = (tmp_path / "secret").read_bytes()
        kernels, alive = run(go(server))
        log = server.log()
    assert kernels == 1, "the kernel of a page gone without its beacon still ran 45 s later"
    assert alive == (False, True)
    assert "released: its page went away" in log


# ----- smaller: kernel tracebacks in the log, versions in pages, cookies planted from another port ---------

def test_malformed_comm_messages_write_no_kernel_traceback_into_the_server_log(server):
    """Today's attack: ``comm_msg``s a page made fail (one without a ``comm_id``, as the issue's tester sent, and
    others: a trait of the wrong type, a state that is not a dict, an unknown method) wrote the kernel's
    tracebacks into the server's log."""
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        button = next(m for m, name in v.models.items() if name == "ButtonModel")
        html = next(m for m, name in v.models.items() if name == "HTMLModel")
        bad = [
            {"method": "update", "state": {"description": 12345}, "buffer_paths": []},
            {"method": "update", "state": {"disabled": "not a bool", "layout": "IPY_MODEL_nothere"}},
            {"method": "update", "state": None},
            {"method": "update", "state": {"value": ["a", 1]}, "buffer_paths": [["value", 7]]},
            {"method": "custom", "content": None},
            {"method": "request_state", "x": 1},
            {"method": "no-such-method"},
        ]
        for comm_id in (button, html, "0" * 32):
            for data in bad:
                sent = await v.send(v.message("comm_msg", {"comm_id": comm_id, "data": data}))
                try:
                    await v.wait_idle(sent, timeout=10)
                except TimeoutError:
                    pass
        for content in ({"comm_id": button}, {"data": {}}, {"comm_id": 5, "data": {}}, {"comm_id": None}, {}):
            sent = await v.send(v.message("comm_msg", content))  # no data, no comm id, one not a string
            with contextlib.suppress(TimeoutError):
                await v.wait_idle(sent, timeout=10)
        info = await v.kernel_info()
        await v.close_page()
        return info

    info = run(go())
    assert "protocol_version" in info
    log = server.log()
    assert "Traceback" not in log, log[log.find("Traceback") - 200:][:1500]
    assert "TraitError" not in log


def test_a_kernels_stderr_is_not_the_server_log(server):
    """ipykernel writes the tracebacks of comm messages a page made fail to its stderr, which was the server's."""
    async def go():
        v = Visitor(server.base_url)
        assert (await v.get_page(NOISY)).code == 200  # its cell has run
        await v.close_page()

    run(go())
    assert "KERNEL-STDERR-7f3" not in server.log()


def test_pages_carry_no_version(server):
    """Today: the page showed Voilà's ``appVersion``."""
    async def go():
        v = Visitor(server.base_url)
        assert (await v.get_page(LANCE)).code == 200
        await v.close_page()
        return v.html

    html = run(go())
    import voila

    assert "appVersion" not in html
    assert voila.__version__ not in html


def session_cookie(response) -> str:
    """The Set-Cookie header of the session cookie (either name), or ""."""
    return next((c for c in response.headers.get_list("Set-Cookie") if "musteach_session=" in c.split(";")[0]), "")


def test_a_local_client_cannot_forge_x_forwarded_for_past_a_trusted_proxy_on_this_machine(tmp_path):
    """Today's attack: ``--trusted-proxy 127.0.0.1`` believed the ``X-Forwarded-For`` of any local client, which
    named itself a new address for each session and took every place past ``--per-address``; an honest visitor
    behind the proxy got the busy page."""
    async def go(server):
        forged = []
        for i in range(8):  # a local client that is not the proxy, a new address each time
            v = Visitor(server.base_url)
            v.fetch = with_headers(v.fetch, {"X-Forwarded-For": f"198.51.100.{i + 1}"})
            r = await v.get_page(LANCE)
            if r.code == 200:
                await v.connect()
            forged.append((v, r.code))
        honest = Visitor(server.base_url)  # through the proxy, which proves itself
        honest.fetch = with_headers(honest.fetch, {"X-Forwarded-For": "203.0.113.5", **proxy(server.secret)})
        r = await honest.open(LANCE)
        gate = await invariant(server, cap=8)
        for v, _ in forged:
            await v.disconnect()
        if r.code == 200:
            await honest.close_page()
        return [c for _, c in forged], r.code, gate

    with serve(tmp_path, "--pool-size", "0", "--max-kernels", "8", "--per-address", "2", "--trusted-proxy",
               "127.0.0.1") as server:
        server.secret = (tmp_path / "secret").read_bytes()
        forged, honest, gate = run(go(server))
        log = server.log()
    assert forged.count(200) <= 2, f"forged addresses took {forged.count(200)} places past --per-address 2"
    assert honest == 200, honest
    assert "X-Forwarded-* headers from 127.0.0.1 ignored" in log
    assert gate is None, gate


def with_headers(fetch, extra):
    """``fetch`` of a visitor, always with the ``extra`` headers (a proxy's, or forged ones)."""
    async def wrapped(path, *, method="GET", body=None, headers=None):
        return await fetch(path, method=method, body=body, headers={**extra, **(headers or {})})

    return wrapped


def test_over_tls_a_session_cookie_planted_from_another_port_is_not_taken(tmp_path):
    """Today's attack (cookie tossing): a page on another port of the same host planted the session cookie
    before a first visit; the victim's kernels were then bound to a session the attacker held. Behind a TLS
    proxy the session is a ``__Host-`` cookie, which no other port can set, and a plain one is ignored."""
    async def go(server):
        tls = {**NAVIGATION, "X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7", **proxy(server.secret)}
        # the attacker gets a session cookie of their own, over plain HTTP, and plants it in the victim's browser
        planter = Visitor(server.base_url)
        await planter.fetch(f"/voila/render/{LANCE}", headers=NAVIGATION)
        victim = Visitor(server.base_url)
        victim.cookies["musteach_session"] = planter.cookies["musteach_session"]
        r = await victim.fetch(f"/voila/render/{LANCE}", headers=tls)
        return r.code, session_cookie(r)

    with serve(tmp_path, "--pool-size", "0", "--trusted-proxy", "127.0.0.1") as server:
        server.secret = (tmp_path / "secret").read_bytes()
        code, fresh = run(go(server))
    assert code == 303 and fresh.startswith("__Host-musteach_session="), f"the planted cookie was taken ({code})"
    assert "Secure" in fresh and "Path=/" in fresh and "Domain" not in fresh and "HttpOnly" in fresh
