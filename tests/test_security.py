"""``musteach serve`` gives a visitor no way to run code or read files (against a real server).

A server is started on a free loopback port over a folder of small test lessons (a Grande quiz, a Juego
total quiz) plus files that must never be served; visitors are simulated over the real Voilà protocol
(:mod:`musteach_server.probe`): the page, the kernel's websocket (JSON and binary protocols),
ipywidgets' comm messages.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from tornado.websocket import WebSocketClosedError

pytest.importorskip("voila")

from musteach_server.app import ALLOWED_MESSAGE_TYPES, MAX_MESSAGE_BYTES, is_traversal
from musteach_server.probe import PROTOCOL_V1, Visitor, lesson_notebook, running_server
from tornado.httpclient import AsyncHTTPClient

ROOT = Path(__file__).resolve().parents[1]
NB_MARKER = "SOURCE-MARKER-NB-51c2"
PY_MARKER = "SOURCE-MARKER-PY-9e07"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
LANCE, TOTAL = "01-lance.ipynb", "02-total.ipynb"

# A kernel process that is shut down while it answers a control message can print pyzmq's "Socket operation on
# non-socket" from ipykernel's own shutdown (a race inside ipykernel and pyzmq; the kernel is going away). It
# reaches the server's log because kernels share its stderr. Such a block is not the server's.
_KERNEL_SHUTDOWN_RACE = re.compile(
    r"(?:ERROR:tornado\.general:Uncaught exception in ZMQStream callback\n)?Traceback \(most recent call last\):\n"
    r"(?:[ \t].*\n)*?(?=[ \t].*ipykernel/kernelbase\.py)(?:[ \t].*\n)+zmq\.error\.ZMQError: [^\n]*\n?"
)


def server_lines(log: str) -> str:
    """The server's log without the kernels' own shutdown race (see above)."""
    return _KERNEL_SHUTDOWN_RACE.sub("", log)



@pytest.fixture(scope="module")
def lessons(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("lessons")
    (d / LANCE).write_text(lesson_notebook(
        "Lesson 1: Who wins Grande", f"from musteach_widgets import LanceQuiz  # {NB_MARKER}\nLanceQuiz('grande', n=5, seed=7)"))
    (d / TOTAL).write_text(lesson_notebook(
        "Lesson 2: Count for Juego", f"from musteach_widgets import TotalQuiz  # {NB_MARKER}\nTotalQuiz(kind='juego', n=5, seed=7)"))
    (d / "helper.py").write_text(f"SECRET = '{PY_MARKER}'\n")
    (d / "notes.txt").write_text(f"{PY_MARKER}\n")
    (d / "picture.png").write_bytes(PNG)
    (d / ".hidden").mkdir()
    (d / ".hidden" / "inside.png").write_bytes(PNG)
    (d / ".hidden" / "inside.py").write_text(f"# {PY_MARKER}\n")
    return d


@pytest.fixture(scope="module")
def server(lessons, tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "serve.log"
    with running_server("--lessons", str(lessons), "--pool-size", "0", "--max-kernels", "10", log_path=log, cwd=ROOT) as s:
        yield s


def run(coro):
    AsyncHTTPClient.configure(None, max_clients=20)
    return asyncio.run(coro)


def replies_to(v: Visitor, msg_id: str) -> list[dict]:
    return [m for m in v.received if (m.get("parent_header") or {}).get("msg_id") == msg_id]


def answer_state(v: Visitor, quiz: str) -> tuple[str, list[str], str]:
    """(feedback model, answer buttons, next button) of a quiz."""
    return v.find(quiz, "musteach-feedback")[0], v.find(quiz, "musteach-answer"), v.find(quiz, "musteach-next")[0]


async def valid_click_works(v: Visitor) -> str:
    """Click the first enabled answer of the page's first quiz (pressing Next first if needed); returns the
    feedback shown. For a total quiz, types 24 first."""
    quiz = v.quizzes()[0]
    feedback, answers, nxt = answer_state(v, quiz)
    if not [a for a in answers if not v.states[a].get("disabled")]:
        await v.click(nxt)
        feedback, answers, nxt = answer_state(v, quiz)
    boxes = v.find(quiz, "musteach-total-input")
    if boxes:
        sent = await v.send(v.update_message(boxes[0], {"value": "24"}))
        await v.wait_idle(sent)
    target = next(a for a in answers if not v.states[a].get("disabled"))
    _, latency = await v.click(target, watch=feedback)
    assert latency is not None, "the feedback did not change after a valid click"
    return v.states[feedback]["value"]


# ----- no code runs ------------------------------------------------------------------------------

@pytest.mark.parametrize("protocol", [None, PROTOCOL_V1], ids=["json", "v1-binary"])
def test_execute_request_is_dropped_and_runs_nothing(server, tmp_path, protocol):
    marker = tmp_path / "pwned.txt"
    code = f"open({str(marker)!r}, 'w').write('ran')"

    async def go():
        v = Visitor(server.base_url, protocol=protocol)
        assert (await v.open(LANCE)).code == 200
        ids = []
        for channel in ("shell", "control"):
            msg = v.message("execute_request", {"code": code, "silent": False, "store_history": False,
                                                "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
                            channel=channel)
            await v.send(msg)
            ids.append(msg["header"]["msg_id"])
        # an execute_request dressed with a comm_msg type outside the header: the kernel reads the header only
        sneaky = v.message("execute_request", {"code": code, "silent": False})
        sneaky["msg_type"] = "comm_msg"
        await v.send(sneaky)
        ids.append(sneaky["header"]["msg_id"])
        # the kernel still works: a valid click is answered after them, so they were not merely queued
        feedback = await valid_click_works(v)
        await asyncio.sleep(1.0)
        got = [m for i in ids for m in replies_to(v, i)]
        await v.close_page()
        return feedback, got

    feedback, got = run(go())
    assert "musteach-verdict" in feedback
    assert got == [], f"the kernel answered an execute_request: {[m['header']['msg_type'] for m in got]}"
    assert not marker.exists(), "code sent by a page ran in the kernel"
    assert "refused a page's execute_request message" in server.log()


@pytest.mark.parametrize("msg_type,channel,content", [
    ("shutdown_request", "shell", {"restart": False}),
    ("shutdown_request", "control", {"restart": False}),
    ("interrupt_request", "control", {}),
    ("debug_request", "control", {"type": "request", "seq": 1, "command": "initialize", "arguments": {}}),
    ("complete_request", "shell", {"code": "import o", "cursor_pos": 8}),
    ("inspect_request", "shell", {"code": "open", "cursor_pos": 4, "detail_level": 1}),
    ("history_request", "shell", {"output": True, "raw": True, "hist_access_type": "tail", "n": 10}),
    ("is_complete_request", "shell", {"code": "x = 1"}),
    ("input_reply", "stdin", {"value": "__import__('os').system('true')"}),
])
def test_other_kernel_requests_are_dropped(server, msg_type, channel, content):
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        msg = v.message(msg_type, content, channel=channel)
        await v.send(msg)
        feedback = await valid_click_works(v)  # the kernel is alive and serving after it
        info = await v.kernel_info()
        await asyncio.sleep(0.5)
        got = replies_to(v, msg["header"]["msg_id"])
        await v.close_page()
        return feedback, info, got

    feedback, info, got = run(go())
    assert got == [], f"{msg_type} reached the kernel: {[m['header']['msg_type'] for m in got]}"
    assert "musteach-verdict" in feedback and info.get("status") == "ok"
    assert msg_type not in ALLOWED_MESSAGE_TYPES


def test_websocket_from_another_site_is_refused(server):
    async def go():
        v = Visitor(server.base_url)
        assert (await v.get_page(LANCE)).code == 200
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        url = server.base_url.replace("http", "ws", 1) + f"/api/kernels/{v.kernel_id}/channels?session_id=x"
        req = HTTPRequest(url, headers={**v._cookie_header(), "Origin": "http://evil.example"})
        try:
            ws = await websocket_connect(req)
        except Exception as e:  # tornado raises HTTPClientError(403)
            code = getattr(e, "code", None)
        else:
            ws.close()
            code = 101
        await v.close_page()
        return code

    assert run(go()) == 403


# ----- no file is served -------------------------------------------------------------------------

SOURCE_URLS = [
    f"/voila/files/{LANCE}", "/voila/files/helper.py", "/voila/files/notes.txt", "/voila/files/.hidden/inside.py",
    "/voila/files/.hidden/inside.png", f"/files/{LANCE}", "/files/helper.py", f"/api/contents/{LANCE}",
    "/api/contents/helper.py", f"/voila/api/contents/{LANCE}?content=1&format=text", "/voila/api/contents/helper.py",
    f"/voila/api/contents/{LANCE}", f"/tree/{LANCE}", f"/voila/tree/{LANCE}", "/voila/tree/helper.py",
    f"/notebooks/{LANCE}", f"/nbconvert/script/{LANCE}", f"/voila/static/{LANCE}", f"/voila/render/{LANCE}?format=ipynb",
    "/voila/render/helper.py", f"/voila/templates/lab/static/{LANCE}", f"/static/{LANCE}", "/voila/labextensions/helper.py",
]
TRAVERSALS = [
    "/voila/files/../helper.py", "/voila/files/%2e%2e/helper.py", "/voila/files/..%2fhelper.py",
    "/voila/files/%252e%252e%252fhelper.py", "/voila/files/..\\helper.py", "/voila/files/..%5chelper.py",
    "/voila/static/..%2f..%2f..%2fvoila%2fapp.py", "/voila/static/../../app.py",
    "/voila/templates/lab/static/..%2f..%2f..%2f..%2fvoila%2fapp.py", "/voila/labextensions/..%2f..%2fjupyter_config.json",
    "/voila/render/%2e%2e/README.md", "/voila/render/..%2f..%2fpyproject.toml", "/voila/tree/%2e%2e",
    "/voila/api/contents/%2e%2e/", "/voila/render/%2e%2e%2fREADME.md",
]


def fetch(server, path):
    async def go():
        v = Visitor(server.base_url)
        return await v.fetch(path)

    return run(go())


@pytest.mark.parametrize("path", SOURCE_URLS)
def test_no_notebook_or_python_source_can_be_downloaded(server, path):
    r = fetch(server, path)
    body = r.body.decode("utf-8", "replace") if r.body else ""
    assert NB_MARKER not in body and PY_MARKER not in body, f"{path} served a source ({r.code})"
    assert r.code != 200 or path.startswith("/voila/api/contents/") or path.startswith("/voila/render/")
    if path.startswith("/voila/api/contents/") and r.code == 200:
        assert json.loads(body)["content"] is None  # the tree's listing: names only


@pytest.mark.parametrize("path", TRAVERSALS)
def test_path_traversal_is_refused(server, path):
    r = fetch(server, path)
    assert r.code == 400, f"{path}: {r.code}"
    assert is_traversal(path)


def test_pictures_of_the_lessons_folder_are_served_and_pages_hold_no_code(server):
    assert fetch(server, "/voila/files/picture.png").code == 200  # the allowlist is not a blanket refusal
    async def go():
        v = Visitor(server.base_url)
        r = await v.get_page(LANCE)
        await v.close_page()
        return r

    r = run(go())
    html = r.body.decode()
    assert r.code == 200 and "musteach-bar" in html
    assert NB_MARKER not in html and "from musteach_widgets import" not in html


# ----- bad widget messages -----------------------------------------------------------------------

def no_traceback_reached(v: Visitor) -> None:
    for m in v.received:
        text = json.dumps(m.get("content"), default=str)
        assert "Traceback" not in text and ".py\", line" not in text and "site-packages" not in text, text[:300]
        if (m.get("header") or {}).get("msg_type") == "error":
            assert m["content"]["ename"] == "ExecutionError", m["content"]


@pytest.mark.parametrize("protocol", [None, PROTOCOL_V1], ids=["json", "v1-binary"])
def test_bad_values_in_a_total_quiz_get_a_friendly_hint_and_the_quiz_goes_on(server, protocol):
    async def go():
        v = Visitor(server.base_url, protocol=protocol)
        assert (await v.open(TOTAL)).code == 200
        quiz = v.quizzes()[0]
        box, check = v.find(quiz, "musteach-total-input")[0], v.find(quiz, "musteach-check")[0]
        feedback = v.find(quiz, "musteach-feedback")[0]
        shown = {}
        for label, value in [("words", "abc"), ("unknown seat", "seat 9"), ("out of range", "99"),
                             ("negative", "-4"), ("huge", "7" * 50_000 + "x")]:
            sent = await v.send(v.update_message(box, {"value": value}))
            await v.wait_idle(sent)
            await v.click(check, watch=feedback)
            shown[label] = v.states[feedback]["value"]
        # a wrong type (a number where the text box holds a string) is refused by the kernel's widget
        sent = await v.send(v.update_message(box, {"value": 12345}))
        await v.wait_idle(sent)
        await v.click(check, watch=feedback)
        shown["wrong type"] = v.states[feedback]["value"]
        last = await valid_click_works(v)
        no_traceback_reached(v)
        await v.close_page()
        return shown, last

    shown, last = run(go())
    for label, value in shown.items():
        assert "Try again" in value and "musteach-hint" in value, f"{label}: {value[:200]}"
    assert "musteach-right" in last or "musteach-wrong" in last  # a real verdict for a valid total


def test_bad_messages_to_a_lance_quiz_are_harmless_and_the_next_click_works(server):
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        quiz = v.quizzes()[0]
        button = v.find(quiz, "musteach-answer")[0]
        bad = [
            v.click_message("0" * 32),  # a seat button that does not exist
            v.update_message(button, {"disabled": "yes"}),  # wrong type
            v.update_message(button, {"_dom_classes": 5}),
            v.update_message(button, {"no_such_trait": "x" * 100_000}),
            v.message("comm_msg", {"comm_id": button, "data": {"method": "custom", "content": {"event": "click", "seat": 9}}}),
            v.message("comm_msg", {"comm_id": button, "data": 7}),
            v.message("comm_msg", {"comm_id": button}),
            v.message("comm_open", {"comm_id": "x1", "target_name": "jupyter.widget", "data": {"state": {"_model_name": "Nope"}}}),
            v.message("comm_open", {"comm_id": "x2", "target_name": "no.such.target", "data": {}}),
        ]
        for msg in bad:  # (the click "with a seat in it" is a click on that button: it may answer the question)
            sent = await v.send(msg)
            await v.wait_idle(sent)
        await v.send_raw("{not json")  # frames no page sends: dropped, the socket stays open
        await v.send_raw(b"\x00\x01garbage")
        await v.send_raw(json.dumps({"channel": "shell", "header": {"msg_type": "comm_msg"}}))
        last = await valid_click_works(v)
        no_traceback_reached(v)
        still_open = not v.closed.is_set()
        await v.close_page()
        return last, still_open

    last, still_open = run(go())
    assert "musteach-verdict" in last and still_open
    assert "refused a malformed message from a page" in server.log()
    assert "Traceback" not in server_lines(server.log())


def test_an_oversized_message_closes_only_that_socket(server):
    async def go():
        v = Visitor(server.base_url)
        assert (await v.open(LANCE)).code == 200
        quiz = v.quizzes()[0]
        try:
            await v.send(v.update_message(v.find(quiz, "musteach-answer")[0],
                                          {"description": "y" * (MAX_MESSAGE_BYTES + 10)}))
        except WebSocketClosedError:
            pass  # the server may close the socket while the oversized frame is still being written
        await asyncio.wait_for(v.closed.wait(), 10)
        code = v.ws.close_code if v.ws else None
        # the kernel and the server go on: another visitor, and this page reconnecting, both work
        other = Visitor(server.base_url)
        assert (await other.open(LANCE)).code == 200
        other_feedback = await valid_click_works(other)
        await other.close_page()
        v2 = Visitor(server.base_url)
        v2.kernel_id, v2.views, v2.cookies = v.kernel_id, v.views, v.cookies
        await v2.connect()
        await v2.load_widgets()
        again = await valid_click_works(v2)
        await v2.close_page()
        return code, other_feedback, again

    code, other_feedback, again = run(go())
    assert code in (1009, None)  # "message too big" (tornado may abort the connection before the close frame)
    assert "musteach-verdict" in other_feedback and "musteach-verdict" in again
    m = re.search(r"refused a page's websocket message of ([\d,]+) bytes \(the limit is ([\d,]+) bytes\)", server.log())
    assert m, server.log()[-2000:]
    size, limit = (int(g.replace(",", "")) for g in m.groups())
    assert limit == MAX_MESSAGE_BYTES and size > MAX_MESSAGE_BYTES


def test_the_message_limit_lets_a_saved_progress_through():
    assert MAX_MESSAGE_BYTES >= 2 * 1024 * 1024  # a practice learner's progress, an imported progress file


# ----- a visitor's kernel answers only to that visitor (issue 15) ---------------------------------

async def ws_status(server, kernel_id: str, cookies: dict[str, str]) -> int:
    """The HTTP status of a websocket connection to the kernel's channels (101: connected)."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    url = server.base_url.replace("http", "ws", 1) + f"/api/kernels/{kernel_id}/channels?session_id=x"
    cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
    try:
        ws = await websocket_connect(HTTPRequest(url, headers={**cookie, "Origin": server.base_url}))
    except Exception as e:  # tornado raises HTTPClientError(403)
        return getattr(e, "code", 0)
    ws.close()
    return 101


def test_the_kernel_id_alone_opens_nothing(server):
    """An attacker who knows a visitor's kernel id, with no cookie, a self-made _xsrf, or a session and
    _xsrf of their own: cannot read it, drive it or stop it. The owner still can."""

    async def go():
        owner = Visitor(server.base_url)
        assert (await owner.open(LANCE)).code == 200
        kid = owner.kernel_id
        stranger = Visitor(server.base_url)  # no cookie at all
        got = {
            "read": (await stranger.fetch(f"/api/kernels/{kid}")).code,
            "read-as-owner": (await owner.fetch(f"/api/kernels/{kid}")).code,
            "list": (await stranger.fetch("/api/kernels")).code,
            "sessions": (await stranger.fetch("/api/sessions")).code,
            "ws-no-cookie": await ws_status(server, kid, {}),
            "query-ws": (await stranger.fetch(f"/voila/query/{kid}")).code,
        }
        # DELETE with a self-made _xsrf cookie and header
        forged = {"Cookie": "_xsrf=2|aa|bb|cc", "X-XSRFToken": "2|aa|bb|cc"}
        got["delete-forged-xsrf"] = (await stranger.fetch(f"/api/kernels/{kid}", method="DELETE",
                                                          headers=forged)).code
        # another visitor's own session and _xsrf: their shutdown beacon aimed at the owner's kernel
        other = Visitor(server.base_url)
        assert (await other.get_page(TOTAL)).code == 200
        got["ws-other-session"] = await ws_status(server, kid, other.cookies)
        body = urlencode({"_xsrf": other.cookies["_xsrf"]}).encode()
        got["beacon-other-session"] = (await other.fetch(
            f"/voila/api/shutdown/{kid}", method="POST", body=body,
            headers={"Content-Type": "application/x-www-form-urlencoded"})).code
        got["delete-other-session"] = (await other.fetch(
            f"/api/kernels/{kid}", method="DELETE", headers={"X-XSRFToken": other.cookies["_xsrf"]})).code
        # the owner's page still works after all that: the kernel was neither stopped nor taken
        feedback = await valid_click_works(owner)
        got["owner-beacon"] = await owner.close_page()
        await other.close_page()
        return got, feedback

    got, feedback = run(go())
    assert "musteach-verdict" in feedback
    assert got.pop("owner-beacon") == 204
    assert got.pop("read-as-owner") == 200  # the page reads its own kernel's model on connecting
    assert got == {k: 403 for k in got}, got


def test_the_session_cookie_is_signed_httponly_and_samesite(server):
    async def go():
        v = Visitor(server.base_url)
        first = await v.fetch(f"/voila/render/{LANCE}")  # no Sec-Fetch headers: an old browser's first visit
        tampered = Visitor(server.base_url)
        tampered.cookies = {"musteach_session": "0123456789abcdef0123456789abcdef"}  # unsigned
        forged = await tampered.fetch(f"/voila/render/{LANCE}?musteach-cookie=1")
        return first, forged

    first, forged = run(go())
    assert first.code == 303 and "jupyter-config-data" not in first.body.decode()
    cookie = next(c for c in first.headers.get_list("Set-Cookie") if c.startswith("musteach_session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie  # plain http here
    assert forged.code == 403  # an unsigned session is no session: and no kernel was started


def test_listings_are_closed_and_malformed_paths_get_a_clean_400(server):
    for path in ("/voila/api/contents", "/voila/api/contents/", "/voila/api/contents/.hidden", "/voila/tree",
                 "/api/kernels", "/api/kernelspecs"):
        r = fetch(server, path)
        assert r.code in (403, 404), (path, r.code)
        assert "helper.py" not in r.body.decode("utf-8", "replace")
    for path in ("/voila/render/%ff%fe", "/voila/files/%c3%28.png", "/%ff"):
        r = fetch(server, path)
        assert r.code == 400, (path, r.code)
    for path in ("/voila/templates/musteach/index.html.j2", "/voila/templates/nope/static/x.js",
                 "/voila/templates/musteach/static/", "/voila/templates/", "/voila/templates/x",
                 "/voila/templates/musteach/static/nope.css", "/voila/templates/lab/../static/x"):
        r = fetch(server, path)
        assert 400 <= r.code < 500, (path, r.code)
    assert fetch(server, "/voila/templates/lab/static/index.css").code == 200  # the template's own files still load
    log = server_lines(server.log())
    assert "Traceback" not in log and "UnicodeDecodeError" not in log and "ValueError" not in log


def test_every_answer_has_the_security_headers(server):
    answers = [fetch(server, p) for p in ("/", "/nowhere", "/voila/render/%ff", "/api/kernels",
                                          "/voila/files/picture.png", "/voila/static/voila.js")]
    for r in answers:
        h = r.headers
        assert h.get("X-Content-Type-Options") == "nosniff", r.effective_url
        assert h.get("Referrer-Policy") == "same-origin"
        csp = h.get("Content-Security-Policy", "")
        assert "script-src" in csp and "object-src 'none'" in csp and "frame-ancestors 'self'" in csp
        assert "Server" not in h, h.get("Server")


def test_session_rules_without_a_server():
    from musteach_server.guard import Sessions, is_https

    s = Sessions(per_session=2, per_address=3)
    s.bind("k1", "alice", "10.0.0.1")
    s.bind("k2", "alice", "10.0.0.1")
    assert s.owns("alice", "k1") and not s.owns("bob", "k1") and not s.owns(None, "k1") and not s.owns("", "k1")
    assert s.to_release("alice") == ["k1"]  # a third page of alice's releases her oldest
    assert s.to_release("bob") == []
    s.bind("k3", "bob", "10.0.0.1")
    assert s.address_full("10.0.0.1", "carol")  # 3 kernels from that address, none carol's to release
    assert not s.address_full("10.0.0.1", "alice")  # alice's oldest would be released first
    s.release("k1")
    assert (s.status("alice", "k1"), s.status("alice", "k2"), s.status("bob", "k2"), s.status(None, "k2")) == (
        410, 200, 403, 403)
    w = Sessions(per_session=3, waiting_per_address=2)
    w.bind("w1", "s1", "10.0.0.9")
    w.bind("w2", "s2", "10.0.0.9")
    assert not w.too_many_waiting("10.0.0.9")  # pages still being rendered do not count
    assert w.overdue(5, now=time.monotonic() + 60) == []  # nor are they ever overdue
    w.page_sent("w1")
    w.page_sent("w2")
    assert w.too_many_waiting("10.0.0.9") and not w.too_many_waiting("10.0.0.10")
    assert w.overdue(5, now=time.monotonic() + 6) == ["w1", "w2"] and w.overdue(5) == []
    w.connected("w1")
    assert not w.too_many_waiting("10.0.0.9") and w.overdue(5, now=time.monotonic() + 60) == ["w2"]
    w.page_sent("w1")  # its page, finished after it connected, does not make it wait again
    assert w.waiting_of_address("10.0.0.9") == ["w2"]
    trusted = frozenset({"127.0.0.1"})
    assert is_https("https", "203.0.113.9", None, frozenset())
    assert is_https("http", "127.0.0.1", "https", trusted)
    assert not is_https("http", "203.0.113.9", "https", trusted)  # an untrusted client cannot claim TLS
