"""Issue 26: what an attacker on the internet still got from ``musteach serve``, each attack replayed against a
real server (:mod:`musteach_server.probe`), and the admission interface (class tokens) it brought.

The host's view of the places (``/musteach/api/places``, with the key derived from the server's secret) is
read after each request: the gate's count must equal the kernels that exist, and never exceed the cap.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import struct
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest

pytest.importorskip("voila")

from musteach_server.admission import (
    ADMIT_COOKIE,
    Admission,
    Decision,
    address_key,
    host_key,
    issue_token,
    verify_token,
)
from musteach_server.probe import NAVIGATION, PROTOCOL_V1, Visitor, lesson_notebook, running_server
from musteach_server.routing import RequestKind, lesson_request
from tornado.httpclient import AsyncHTTPClient
from tornado.websocket import WebSocketClosedError

from musteach.rules.errors import MusError

ROOT = Path(__file__).resolve().parents[1]
LANCE, TOTAL, NOISY = "01-lance.ipynb", "02-total.ipynb", "03-noisy.ipynb"
STDERR_MARK = b"Traceback (most recent call last): KERNEL-STDERR-7f3\n"
CAP = 3
IMAGE = {"Sec-Fetch-Dest": "image", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Site": "cross-site"}


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


@pytest.fixture(scope="module")
def secret(tmp_path_factory) -> bytes:
    return secrets.token_hex(32).encode()


@pytest.fixture(scope="module")
def server(tmp_path_factory, secret):
    lessons = write_lessons(tmp_path_factory.mktemp("lessons"))
    d = tmp_path_factory.mktemp("log")
    (d / "secret").write_bytes(secret)
    with running_server("--lessons", str(lessons), "--pool-size", "0", "--max-kernels", str(CAP), "--per-address",
                        "0", "--per-session", "1", "--secret-file", str(d / "secret"), log_path=d / "serve.log",
                        cwd=ROOT) as s:
        s.secret = secret  # type: ignore[attr-defined]
        yield s


async def places(server) -> dict:
    """The host's view of the places, and its invariants: the gate counts exactly the kernels that exist."""
    v = Visitor(server.base_url)
    r = await v.fetch("/musteach/api/places", headers={"Authorization": "Bearer " + host_key(server.secret)})
    assert r.code == 200, r.code
    got = json.loads(r.body)
    assert got["admitting"] == 0, got
    if got["pooled"]:  # pool kernels still starting are counted before they exist
        assert got["kernels"] <= got["taken"] <= got["max"], got
    else:
        assert got["taken"] == got["kernels"] <= got["max"], got
    return got


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
    there = tmp_path / "x.ipynb"
    there.write_text(lesson_notebook("Lesson 9: elsewhere", "1"))

    async def go():
        answers = []
        for path in (str(there), str(tmp_path / "nothing-here.ipynb")):
            for url in (f"/voila/render/{path}", f"/voila/render//{path}", f"/voila/render/{quote(path, safe='')}"):
                r = await Visitor(server.base_url).fetch(url, headers=NAVIGATION)
                answers.append((r.code, r.body.decode().replace(path, "P")))
        await places(server)
        return answers

    answers = run(go())
    assert {code for code, _ in answers} == {404}
    assert len({body for _, body in answers}) == 1


def test_routing_rule_without_a_server():
    served = [LANCE, "es/" + LANCE]
    assert lesson_request(LANCE, served).kind is RequestKind.LESSON
    for bad in spellings(LANCE) + spellings("es/" + LANCE) + ["/etc/passwd.ipynb", "", None]:
        if bad == f"es%2F{LANCE}":
            continue
        assert lesson_request(bad, served).kind is not RequestKind.LESSON, bad
    assert lesson_request("pic.png", served).kind is RequestKind.FILE
    assert lesson_request("../pic.png", served).kind is RequestKind.REFUSED


# ----- logout and other state changes: POST with the xsrf token only --------------------------------------

def test_logout_by_get_ends_nothing_and_a_post_needs_the_xsrf_token(server):
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        status = f"/musteach/api/session/{v.kernel_id}"
        # another site navigates the visitor to /logout: a page with a button, the session and kernel stay
        r = await v.fetch("/logout", headers={**NAVIGATION, "Sec-Fetch-Site": "cross-site"})
        after_get = (r.code, "Set-Cookie" in r.headers and "musteach_session=;" in r.headers.get("Set-Cookie", ""),
                     (await v.fetch(status)).code, '<form method="post"' in r.body.decode())
        # a cross-site form POST carries the cookies but not the token
        no_token = (await v.fetch("/logout", method="POST", body=b"",
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})).code
        still = (await v.fetch(status)).code
        body = urlencode({"_xsrf": v.cookies.get("_xsrf", "")}).encode()
        r = await v.fetch("/logout", method="POST", body=body,
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
        ended = (r.code, (await v.fetch(status)).code)
        await v.disconnect()
        await places(server)
        return after_get, no_token, still, ended

    after_get, no_token, still, ended = run(go())
    assert after_get == (200, False, 200, True)
    assert no_token == 403 and still == 200
    assert ended[0] == 200 and ended[1] in (403, 410)


# ----- admission: per-address caps, class tokens ------------------------------------------------------------

def test_tokens_are_signed_and_expire():
    key = b"k" * 32
    t = issue_token(key, "4B", 40, 4, now=1000)
    assert verify_token(key, t, now=1001).places == 40
    with pytest.raises(MusError, match="expired"):
        verify_token(key, t, now=1000 + 4 * 3600)
    with pytest.raises(MusError, match="not signed"):
        verify_token(b"x" * 32, t, now=1001)
    prefix, _payload, sig = t.split(".")
    forged = json.dumps({"n": "4B", "p": 4000, "e": 10**10, "i": "0"}).encode()
    import base64

    forged_payload = base64.urlsafe_b64encode(forged).rstrip(b"=").decode()
    with pytest.raises(MusError, match="not signed"):
        verify_token(key, f"{prefix}.{forged_payload}.{sig}", now=1001)
    for bad in ("", "x", "mt1..", "mt1.a.b", t + "x" * 2000):
        with pytest.raises(MusError):
            verify_token(key, bad, now=1001)
    with pytest.raises(MusError, match="--places"):
        issue_token(key, "4B", 0, 4)
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff") != address_key("2001:db8:0:1::1")


def test_admission_rules_without_a_server():
    key = b"k" * 32
    tok = verify_token(key, issue_token(key, "4B", 2, 1))
    a = Admission(max_kernels=4, per_address=1)
    assert a.decide("s1", "10.0.0.1", None, taken=0) is Decision.SEATED
    a.bind("k1", "s1", "10.0.0.1", None)
    assert a.decide("s2", "10.0.0.1", None, taken=1) is Decision.ADDRESS_FULL  # a second session, same client
    assert a.decide("s2", "10.0.0.1", None, taken=1, releasing=["k1"]) is Decision.SEATED
    assert a.decide("t1", "10.0.0.1", tok, taken=1) is Decision.SEATED  # a class behind the same address
    a.bind("k2", "t1", "10.0.0.1", tok)
    assert a.reserved() == 1
    assert a.decide("s3", "10.0.0.2", None, taken=3) is Decision.RESERVED  # the class's last place is kept
    assert a.decide("t2", "10.0.0.1", tok, taken=3) is Decision.SEATED
    a.bind("k3", "t2", "10.0.0.1", tok)
    assert a.decide("t3", "10.0.0.1", tok, taken=3) is Decision.CLASS_FULL
    assert a.decide("t2", "10.0.0.1", tok, taken=3) is Decision.SEATED  # its own session opens another lesson
    a.release("k3")
    assert a.decide("t3", "10.0.0.1", tok, taken=2) is Decision.SEATED


def test_one_client_cannot_take_every_place_and_a_class_link_seats_its_visitors(tmp_path):
    """Today's attack: 8 sessions from one client took every place. Now anonymous sessions of one address
    hold at most half the places (the default), and visitors with a class link are seated past that, under
    the class's own quota, its unused places kept from anonymous visitors."""
    lessons = write_lessons(tmp_path / "lessons")
    secret = secrets.token_hex(32).encode()
    (tmp_path / "secret").write_bytes(secret)
    token = issue_token(secret, "4B", 2, 1)

    async def go(server):
        anon = []
        for _ in range(4):  # one client, four sessions, each connecting its websocket
            v = Visitor(server.base_url)
            r = await v.get_page(LANCE)
            if r.code == 200:
                await v.connect()
            anon.append((v, r.code))
        # the class link: GET shows a form (no cookie set), its POST with the xsrf token keeps the token
        first = Visitor(server.base_url)
        link = f"/musteach/admit?token={token}"
        r = await first.fetch(link, headers=NAVIGATION)
        form = (r.code, ADMIT_COOKIE in first.cookies)
        body = urlencode({"_xsrf": first.cookies.get("_xsrf", ""), "token": token}).encode()
        r = await first.fetch(link, method="POST", body=body,
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
        joined = (r.code, ADMIT_COOKIE in first.cookies)
        pupils = [first] + [Visitor(server.base_url) for _ in range(2)]
        for p in pupils[1:]:
            p.cookies[ADMIT_COOKIE] = token
        codes = [(await p.get_page(LANCE)).code for p in pupils]
        got = await places(server)
        bad = Visitor(server.base_url)
        bad.cookies[ADMIT_COOKIE] = token[:-2] + "xx"
        r = await bad.fetch(f"/musteach/admit?token={token[:-2]}xx", headers=NAVIGATION)
        for v, _ in anon:
            await v.disconnect()
        return [c for _, c in anon], form, joined, codes, got, r.code

    with running_server("--lessons", str(lessons), "--pool-size", "0", "--max-kernels", "4", "--secret-file",
                        str(tmp_path / "secret"), log_path=tmp_path / "serve.log", cwd=ROOT) as server:
        server.secret = secret
        anon, form, joined, codes, got, bad_link = run(go(server))
        log = server.log()
    assert anon[:2] == [200, 200] and anon[2:] == [429, 429], anon  # half of 4 places for one address
    assert form == (200, False) and joined == (303, True)
    assert codes == [200, 200, 429], codes  # two places for the class, the third pupil: the class is full
    assert got["kernels"] == 4
    assert bad_link == 403
    assert "every place of the class '4B' is taken" in log


# ----- websocket frames checked before Jupyter parses them; per-kernel widget limits ------------------------

def rss(pid: int) -> int:
    import psutil

    return psutil.Process(pid).memory_info().rss


@pytest.mark.parametrize("protocol", [None, PROTOCOL_V1], ids=["legacy", "v1"])
def test_a_frame_declaring_millions_of_parts_is_refused_before_it_is_parsed(server, protocol):
    """Today's attack: on the v1 protocol, 8 bytes of offset count (20,000,000, little-endian) and 16 zero bytes
    froze the server for 17 s and grew it by 300 MB; the legacy binary framing the same with its 4-byte count."""
    if protocol == PROTOCOL_V1:
        frames = [(20_000_000).to_bytes(8, "little") + bytes(16), (2**63).to_bytes(8, "little") + bytes(16)]
    else:
        frames = [struct.pack("!i", 20_000_000) + bytes(16), struct.pack("!i", 2**31 - 1) + bytes(8),
                  struct.pack("!iI", 1, 10**9) + bytes(8)]

    async def go():
        other = Visitor(server.base_url)
        assert (await other.open(LANCE)).code == 200
        before = rss(server.process.pid)
        closed = []
        v = Visitor(server.base_url, protocol=protocol)
        assert (await v.get_page(LANCE)).code == 200
        await v.connect()
        for frame in frames:
            await v.send_raw(frame)
        info = await v.kernel_info()  # dropped, not parsed: the socket still works
        closed.append("protocol_version" in info)
        await v.close_page()
        grown = rss(server.process.pid) - before
        # the other visitor's page still answers
        quiz = other.quizzes()[0]
        answers = [a for a in other.find(quiz, "musteach-answer") if not other.states[a].get("disabled")]
        _, latency = await other.click(answers[0], watch=other.find(quiz, "musteach-feedback")[0])
        await other.close_page()
        await places(server)
        return closed, grown, latency

    closed, grown, latency = run(go())
    assert all(closed)
    assert latency is not None
    assert grown < 40 * 2**20, f"the server grew by {grown / 2**20:.0f} MiB"
    assert "refused a page's websocket frame (it declares" in server.log()


def test_widgets_a_page_opens_are_limited_and_the_page_is_told(server):
    """Today's attack: 100 Text widgets of 1.5 MB opened by comm_open took a kernel from 51 to 200 MB."""
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        kernel = v.kernel_id
        big = "x" * (1536 * 1024)
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
        await asyncio.wait_for(v.closed.wait(), 30)
        r = await v.fetch(f"/musteach/api/session/{kernel}")
        await places(server)
        return i, r.code, json.loads(r.body)

    sent, code, body = run(go())
    assert sent < 100
    assert code == 410 and body["reason"] == "limit"
    assert re.search(r"stopped \(over a limit: its page sent more than \d+ bytes of widget state", server.log())


def test_kernel_memory_limit_and_page_limits_without_a_server():
    import os

    from musteach_server.limits import PageLimits, resident_bytes

    assert resident_bytes(os.getpid()) > 10 * 2**20
    assert resident_bytes(2**31 - 5) is None
    lim = PageLimits(max_widgets=3, max_bytes=10**6)
    assert [lim.widget_opened("k", 100) for _ in range(4)][-1] == "its page opened more than 3 widgets"
    lim.forget("k")
    assert lim.widget_opened("k", 100) is None


# ----- a class can move on: pages gone are released in seconds, pools follow, cold pages say how long -------

def test_a_page_closed_without_its_beacon_frees_its_kernel_in_seconds_and_a_reconnect_keeps_it(tmp_path):
    """Today: a page closed without its beacon (a phone killing a tab) kept its kernel for about two minutes."""
    lessons = write_lessons(tmp_path / "lessons")
    secret = secrets.token_hex(32).encode()
    (tmp_path / "secret").write_bytes(secret)

    async def go(server):
        gone, back = Visitor(server.base_url), Visitor(server.base_url)
        for v in (gone, back):
            assert (await v.open(LANCE)).code == 200
        await gone.disconnect()  # no beacon
        await back.disconnect()
        await back.connect()  # a reload of the socket within the grace
        for _ in range(120):
            if "released: its page went away" in server.log():
                break
            await asyncio.sleep(0.5)
        await asyncio.sleep(3)
        statuses = [(await v.fetch(f"/musteach/api/session/{v.kernel_id}")).code for v in (gone, back)]
        got = await places(server)
        await back.close_page()
        return statuses, got

    with running_server("--lessons", str(lessons), "--pool-size", "0", "--max-kernels", "4", "--page-grace", "3",
                        "--secret-file", str(tmp_path / "secret"), log_path=tmp_path / "serve.log", cwd=ROOT) as server:
        server.secret = secret
        statuses, got = run(go(server))
        log = server.log()
    assert "released: its page went away 3 s ago" in log
    assert statuses == [410, 200]
    assert got["kernels"] == 1


def test_a_cold_page_says_how_long_it_expects_and_pages_carry_no_version(server):
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        await v.close_page()
        return v.html

    html = run(go())
    m = re.search(r'<p class="musteach-cold" role="status">([^<]*)</p>', html)
    assert m and re.search(r"about \d+ seconds", m.group(1)), "the cold page does not say how long it waits"
    assert "appVersion" not in html
    import voila

    assert voila.__version__ not in html


def test_pools_follow_the_class_to_the_next_lesson(tmp_path):
    lessons = write_lessons(tmp_path / "lessons")
    secret = secrets.token_hex(32).encode()
    (tmp_path / "secret").write_bytes(secret)

    async def go(server):
        for _ in range(120):
            if "ready:" in server.log():
                break
            await asyncio.sleep(0.5)
        before = (await places(server))["pools"]
        class_ = [Visitor(server.base_url) for _ in range(3)]
        for v in class_:
            assert (await v.open(LANCE)).code == 200
        for _ in range(120):
            got = await places(server)
            if got["pools"].get(TOTAL, 0) >= 3:
                break
            await asyncio.sleep(0.5)
        for v in class_:
            await v.close_page()
        return before, got

    with running_server("--lessons", str(lessons), "--pool-size", "1", "--max-kernels", "12", "--secret-file",
                        str(tmp_path / "secret"), log_path=tmp_path / "serve.log", cwd=ROOT) as server:
        server.secret = secret
        before, got = run(go(server))
    assert before.get(TOTAL) == 1
    assert got["pools"][TOTAL] == 3, got


# ----- smaller: kernel tracebacks out of the log, cookies no other port can plant --------------------------

def test_a_kernels_stderr_is_not_the_server_log(server):
    """ipykernel writes the tracebacks of comm messages a page made fail to its stderr, which was the server's."""
    async def go():
        v = Visitor(server.base_url)
        assert (await v.get_page(NOISY)).code == 200  # its cell has run
        await v.close_page()

    run(go())
    assert "KERNEL-STDERR-7f3" not in server.log()


def session_cookie(response) -> str:
    """The Set-Cookie header of the session cookie (either name), or ""."""
    return next((c for c in response.headers.get_list("Set-Cookie") if "musteach_session=" in c.split(";")[0]), "")


def test_over_tls_the_session_cookie_is_a_host_cookie_that_no_other_port_can_plant(tmp_path):
    lessons = write_lessons(tmp_path / "lessons")
    tls = {**NAVIGATION, "X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7"}

    async def go(server):
        v = Visitor(server.base_url)
        r = await v.fetch(f"/voila/render/{LANCE}", headers=tls)
        cookie = session_cookie(r)
        # a page on another port of this host (plain HTTP) gets a session cookie of its own and plants it
        planter = Visitor(server.base_url)
        await planter.fetch(f"/voila/render/{LANCE}", headers=NAVIGATION)
        victim = Visitor(server.base_url)
        victim.cookies["musteach_session"] = planter.cookies["musteach_session"]
        r2 = await victim.fetch(f"/voila/render/{LANCE}", headers=tls)
        return r.code, cookie, r2.code, session_cookie(r2)

    with running_server("--lessons", str(lessons), "--pool-size", "0", "--trusted-proxy", "127.0.0.1",
                        log_path=tmp_path / "serve.log", cwd=ROOT) as server:
        code, cookie, planted_code, fresh = run(go(server))
    assert code == 303 and cookie.startswith("__Host-musteach_session=")
    assert "Secure" in cookie and "Path=/" in cookie and "Domain" not in cookie and "HttpOnly" in cookie
    assert planted_code == 303 and fresh.startswith("__Host-musteach_session="), "the planted cookie was taken"


def test_pages_gone_without_a_server():
    import time

    from musteach_server.guard import Sessions

    s = Sessions(per_session=3)
    s.bind("k1", "alice", "10.0.0.1")
    s.bind("k2", "alice", "10.0.0.1")
    now = time.monotonic()
    s.disconnected("k1", now=now)
    assert s.gone_for(10, now=now + 5) == [] and s.gone_for(10, now=now + 11) == ["k1"]
    assert s.to_release("alice") == ["k1"]  # her page of k1 has gone: she has moved on, it goes at once
    s.connected("k1")  # the page came back (a reload of its socket)
    assert s.gone_for(10, now=now + 60) == [] and s.to_release("alice") == []
    s.disconnected("k9")  # not a kernel of any session: nothing to release
    assert s.gone_for(0, now=now + 60) == []


def test_a_full_room_waits_for_a_page_gone_instead_of_refusing_at_once():
    """A class moving on: every place is held, but one page has gone (its kernel is released after the grace).
    The next visitor waits for that place instead of getting the busy page; with nothing about to free, the
    busy page comes at once."""
    from musteach_server.gate import KernelGate

    async def go():
        running = {"k1", "k2"}
        gate = KernelGate(running, max_kernels=2)
        for k in ("k1", "k2"):
            assert await gate.admit()
            gate.seat(k, LANCE)
            gate.sessions.bind(k, f"s-{k}", "10.0.0.1")
        assert not await gate.admit(wait=5)  # nothing about to free: refused at once
        gate.sessions.disconnected("k1")  # k1's page has gone

        async def release_later():
            await asyncio.sleep(0.3)
            running.discard("k1")
            gate.stopped("k1")

        task = asyncio.ensure_future(release_later())
        seated = await gate.admit(wait=5)
        await task
        return seated, gate.total()

    seated, total = asyncio.run(go())
    assert seated and total == 2
