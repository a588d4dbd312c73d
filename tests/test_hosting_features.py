"""Issue 26's features, beside its attacks (``test_hosting.py``, black-box): the routing rule, the admission
interface (class tokens, per-address caps), per-kernel limits, pages gone, pools that follow a class and cold
pages that say how long they wait, tested through the server's own modules and a real server.

The host's view of the places (``/musteach/api/places``, with the key derived from the server's secret) is
read after each request: the gate's count must equal the kernels that exist, and never exceed the cap.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest

pytest.importorskip("voila")

from musteach_server.admission import (
    ADMIT_COOKIE,
    RESERVE_IDLE,
    Admission,
    Decision,
    address_key,
    host_key,
    issue_token,
    verify_token,
)
from musteach_server.probe import NAVIGATION, Visitor, lesson_notebook, running_server
from musteach_server.routing import RequestKind, lesson_request
from tornado.httpclient import AsyncHTTPClient

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


def test_routing_rule_without_a_server():
    served = [LANCE, "es/" + LANCE]
    assert lesson_request(LANCE, served).kind is RequestKind.LESSON
    for bad in spellings(LANCE) + spellings("es/" + LANCE) + ["/etc/passwd.ipynb", "", None]:
        if bad == f"es%2F{LANCE}":
            continue
        assert lesson_request(bad, served).kind is not RequestKind.LESSON, bad
    assert lesson_request("pic.png", served).kind is RequestKind.FILE
    assert lesson_request("../pic.png", served).kind is RequestKind.REFUSED


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


def test_a_class_reserves_its_places_only_while_it_is_in_use():
    """A class whose learners have all left keeps its places for RESERVE_IDLE seconds (a break, the next
    lesson), then no more: anonymous visitors are seated again long before the token expires."""
    key = b"k" * 32
    tok = verify_token(key, issue_token(key, "4B", 3, 12, now=0, token_id="00112233445566ff"), now=0)
    assert tok.token_id == "00112233445566ff"
    a = Admission(max_kernels=4)
    assert a.decide("t1", "10.0.0.1", tok, taken=0, now=0) is Decision.SEATED
    a.bind("k1", "t1", "10.0.0.1", tok, now=0)
    assert a.reserved(now=100) == 2
    assert a.decide("s1", "10.0.0.2", None, taken=2, now=100) is Decision.RESERVED
    a.release("k1", now=200)  # the class went home
    assert a.reserved(now=200 + RESERVE_IDLE - 1) == 3
    assert a.reserved(now=200 + RESERVE_IDLE + 1) == 0
    assert a.decide("s1", "10.0.0.2", None, taken=0, now=200 + RESERVE_IDLE + 1) is Decision.SEATED
    a.bind("k2", "t2", "10.0.0.1", tok, now=5000)  # back after lunch: reserved again
    assert a.reserved(now=5001) == 2
    with pytest.raises(MusError, match="16 hex digits"):
        issue_token(key, "4B", 3, 12, token_id="not-hex-at-all!!")


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


# ----- per-kernel limits, pages gone, pools that follow a class ---------------------------------------------

def test_kernel_memory_limit_and_page_limits_without_a_server():
    import os

    from musteach_server.limits import PageLimits, resident_bytes

    assert resident_bytes(os.getpid()) > 10 * 2**20
    assert resident_bytes(2**31 - 5) is None
    lim = PageLimits(max_widgets=3, max_bytes=10**6)
    assert [lim.widget_opened("k", 100) for _ in range(4)][-1] == "its page opened more than 3 widgets"
    lim.forget("k")
    assert lim.widget_opened("k", 100) is None


def test_a_cold_page_says_how_long_it_expects(server):
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        await v.close_page()
        return v.html

    html = run(go())
    m = re.search(r'<p class="musteach-cold" role="status">([^<]*)</p>', html)
    assert m and re.search(r"about \d+ seconds", m.group(1)), "the cold page does not say how long it waits"


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


def test_a_page_claims_its_kernel_for_its_owned_session_without_a_server():
    """Cookie planting over plain HTTP (musteach_server.ownership): only the kernel a page claims moves to the
    owned session; the planted session keeps it only until the page's websocket connects."""
    from musteach_server.guard import Sessions
    from musteach_server.ownership import owned_session, owner_tag

    key = b"k" * 32
    s = Sessions(per_session=3)
    s.bind("k1", "planted", "10.0.0.1")  # the victim's page, sent with the planted session id
    s.bind("k2", "planted", "10.0.0.9")  # the planter's own page
    mine = owned_session("planted", "planted:" + owner_tag(key, "v" * 32))
    assert mine != owned_session("planted", "planted:" + owner_tag(key, "a" * 32)) != "planted"
    assert owned_session("planted", "other:" + owner_tag(key, "v" * 32)) == "planted"  # another session's owner
    assert not s.claim("k1", "someone else", mine)
    assert s.claim("k1", "planted", mine)
    assert s.owns(mine, "k1") and s.owns("planted", "k1")  # until its websocket connects
    s.connected("k1")
    assert s.owns(mine, "k1") and not s.owns("planted", "k1")
    assert s.owns("planted", "k2") and not s.owns(mine, "k2")  # only the claimed kernel moved
    assert s.of_session("planted") == ["k2"]
    s.connected("k2")
    assert s.claim("k2", "planted", "planted.x") and not s.owns("planted", "k2")  # connected: no grace
    with pytest.raises(ValueError, match="proof"):
        owner_tag(key, "short")


def test_a_visitor_moving_on_gets_their_kernel_renewed_with_a_fresh_namespace(tmp_path):
    """A class moving on (issue 26): the visitor's kernel whose page has gone (no beacon) is renewed for their next
    lesson (same session): no kernel is started, the place is theirs, the namespace and widgets are fresh. Another
    visitor's page never gets it."""
    d = tmp_path / "lessons"
    d.mkdir()
    quiz = "from musteach_widgets import LanceQuiz\nLanceQuiz('grande', n=5, seed=7)"
    (d / LANCE).write_text(lesson_notebook("Lesson 1: Who wins Grande", "left_behind = 42", quiz))
    (d / TOTAL).write_text(lesson_notebook("Lesson 2: Count", "print('fresh' if 'left_behind' not in globals() "
                                                              "else 'STALE')", quiz))
    secret = secrets.token_hex(32).encode()
    (tmp_path / "secret").write_bytes(secret)

    async def go(server):
        v, other = Visitor(server.base_url), Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        first = v.kernel_id
        await v.disconnect()  # the tab is gone, no beacon
        assert (await other.open(TOTAL)).code == 200  # another visitor's page: not v's kernel
        page_one = len(v.states)
        v2 = Visitor(server.base_url)  # the same browser (its cookies), a new page
        v2.cookies = v.cookies
        v = v2
        r = await v.open(TOTAL)
        got = await places(server)
        quiz = v.quizzes()[0]
        answer = next(a for a in v.find(quiz, "musteach-answer") if not v.states[a].get("disabled"))
        _, latency = await v.click(answer, watch=v.find(quiz, "musteach-feedback")[0])
        widgets = (page_one, len(v.states))
        await v.close_page()
        await other.close_page()
        return first, other.kernel_id, r.code, v.kernel_id, v.html, got, latency, widgets

    with running_server("--lessons", str(d), "--pool-size", "0", "--max-kernels", "4", "--secret-file",
                        str(tmp_path / "secret"), log_path=tmp_path / "serve.log", cwd=ROOT) as server:
        server.secret = secret
        first, others, code, second, html, got, latency, widgets = run(go(server))
        log = server.log()
    assert code == 200 and second == first != others
    assert "renewed for its visitor's next page" in log
    assert "fresh" in html and "STALE" not in html
    assert got["kernels"] == 2 and got["taken"] == 2
    assert latency is not None
    assert widgets[1] <= widgets[0] + 2, widgets  # the first page's widgets were closed, not kept beside the new


def test_a_class_visitors_kernel_is_held_for_their_next_lesson_unless_a_page_waits():
    """Pages gone: an anonymous visitor's kernel is released after the grace; a class visitor's (class link) is
    kept a little longer for their next lesson (renewed for it), but never while a page waits for a place."""
    from musteach_server.gate import CLASS_HOLD_SECONDS, KernelGate

    key = b"k" * 32
    gate = KernelGate(set(), max_kernels=2)
    gate.admission.bind("k1", "s1", "10.0.0.1", verify_token(key, issue_token(key, "4B", 2, 1)))
    gate.admission.bind("k2", "s2", "10.0.0.1", None)
    assert gate.hold_for_renewal("k1", 12) and not gate.hold_for_renewal("k1", CLASS_HOLD_SECONDS + 1)
    assert not gate.hold_for_renewal("k2", 12)
    gate.waiting_for_room = 1
    assert not gate.hold_for_renewal("k1", 12)


def test_the_last_pages_beacon_does_not_stop_the_kernel_renewed_for_the_next(tmp_path):
    """The beacon a page posts as it unloads may arrive after its kernel was renewed for the visitor's next page
    (a fresh-clone run: the next page hung on a dead kernel). A beacon only comes from a page that connected: one
    naming a kernel that waits for its page is refused, and the new page works."""
    d = tmp_path / "lessons"
    d.mkdir()
    quiz = "from musteach_widgets import LanceQuiz\nLanceQuiz('grande', n=5, seed=7)"
    (d / LANCE).write_text(lesson_notebook("Lesson 1: Who wins Grande", "x = 1", quiz))
    (d / TOTAL).write_text(lesson_notebook("Lesson 2: Count", "y = 2", quiz))

    async def go(server):
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        first = v.kernel_id
        await v.disconnect()  # the page unloads: its websocket closes first, its beacon comes later
        nxt = Visitor(server.base_url)
        nxt.cookies = v.cookies
        r = await nxt.get_page(TOTAL)  # renewed for this page, which has not connected yet
        late = await v.close_page()  # the old page's beacon, late
        await nxt.connect()
        await nxt.kernel_info()
        await nxt.load_widgets()
        quiz = nxt.quizzes()[0]
        answer = next(a for a in nxt.find(quiz, "musteach-answer") if not nxt.states[a].get("disabled"))
        _, latency = await nxt.click(answer, watch=nxt.find(quiz, "musteach-feedback")[0])
        closed = await nxt.close_page()  # the new page's own beacon, once connected, stops it
        return first, r.code, nxt.kernel_id, late, latency, closed

    with running_server("--lessons", str(d), "--pool-size", "0", "--max-kernels", "4",
                        log_path=tmp_path / "serve.log", cwd=ROOT) as server:
        first, code, second, late, latency, closed = run(go(server))
        log = server.log()
    assert code == 200 and second == first and "renewed for its visitor's next page" in log
    assert late == 403, "the late beacon is refused"
    assert latency is not None, "the renewed kernel still answers the new page"
    assert closed == 204
