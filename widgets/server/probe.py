"""A visitor simulated over the real protocol of a Voilà page, and a ``musteach serve`` process to visit.

What a browser does with a lesson page, without the browser: GET the page (the lesson already run by its
kernel), connect the kernel's websocket, fetch every widget's state through the ``jupyter.widget.control``
comm (as ipywidgets' manager does), then press buttons by sending the comm message the front end sends
for a click (``{"method": "custom", "content": {"event": "click"}}`` to the button's model) and follow the
``update`` messages that come back. Used by ``tests/test_security.py``, ``tests/test_serve.py`` and
``benchmarks/load_test.py``; also handy to smoke-test a class server.

:class:`Visitor` is asyncio/tornado based; :func:`running_server` starts ``musteach serve`` on a free
loopback port in its own process group and stops it (and any kernel left) afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from jupyter_server.services.kernels.connection import base as jupyter_frames
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest, HTTPResponse
from tornado.websocket import WebSocketClientConnection, websocket_connect

__all__ = ["NAVIGATION", "PROTOCOL_V1", "Server", "Visitor", "VisitorError", "free_port", "running_server"]

#: The websocket subprotocol of JupyterLab's kernel client (binary frames); without it, JSON text frames.
PROTOCOL_V1 = "v1.kernel.websocket.jupyter.org"

_CONFIG_RE = re.compile(r'<script id="jupyter-config-data" type="application/json">\s*(\{.*?\})\s*</script>', re.S)
_VIEW_RE = re.compile(r'"application/vnd\.jupyter\.widget-view\+json":\s*\{"model_id":\s*"([0-9a-f]+)"')


#: The ``Sec-Fetch-*`` headers of a browser opening a page by a link or its address bar.
NAVIGATION = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "none",
              "Sec-Fetch-User": "?1"}


#: A Jupyter message as JSON: ``header``, ``parent_header``, ``metadata``, ``content``, ``buffers``, ``channel``.
Message = dict[str, Any]

# jupyter_server's frame codecs, typed (jupyter_server leaves them unannotated)
_from_ws_v1: Callable[[bytes], tuple[str, list[bytes]]] = jupyter_frames.deserialize_msg_from_ws_v1
_to_ws_v1: Callable[[list[bytes], str], bytes] = jupyter_frames.serialize_msg_to_ws_v1
_from_binary: Callable[[bytes], Message] = jupyter_frames.deserialize_binary_message


class VisitorError(RuntimeError):
    """The page or its kernel did not answer as a browser expects."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class Sent:
    """A message sent by the visitor and what came back for it (iopub messages whose parent it is)."""

    msg_id: str
    msg_type: str
    sent_at: float
    replies: list[Message] = field(default_factory=list)
    idle: asyncio.Event = field(default_factory=asyncio.Event)


class Visitor:
    """One simulated visitor of a Voilà page. ``base_url`` like ``http://127.0.0.1:8866``.

    After :meth:`open` (page + websocket + widget states), ``states`` maps each widget's model id to its
    state, kept up to date from the kernel's messages; ``views`` are the page's top-level widgets in order;
    ``received`` is every message the websocket brought. ``protocol``: :data:`PROTOCOL_V1` or None (JSON).
    """

    def __init__(self, base_url: str, *, protocol: str | None = None, timeout: float = 60.0):
        self.base_url = base_url.rstrip("/")
        self.prefix = urlsplit(self.base_url).path  # a server under a base URL: /prefix
        self.protocol = protocol
        self.timeout = timeout
        self.session_id = uuid.uuid4().hex
        self.cookies: dict[str, str] = {}
        self.kernel_id: str | None = None
        self.html = ""
        self.views: list[str] = []
        self.states: dict[str, dict[str, Any]] = {}
        self.models: dict[str, str] = {}  # model id -> model name (ButtonModel, HTMLModel...)
        self.received: list[Message] = []
        self.sent: dict[str, Sent] = {}
        self.ws: WebSocketClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._waiters: list[tuple[Callable[[Message], bool], asyncio.Future[Message]]] = []
        self.closed = asyncio.Event()

    # ----- HTTP ------------------------------------------------------------------------------
    def _cookie_header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    def _keep_cookies(self, response: HTTPResponse) -> None:
        for raw in response.headers.get_list("Set-Cookie"):
            jar = SimpleCookie()
            jar.load(raw)
            for name, morsel in jar.items():
                self.cookies[name] = morsel.coded_value

    async def fetch(self, path: str, *, method: str = "GET", body: bytes | None = None,
                    headers: dict[str, str] | None = None) -> HTTPResponse:
        """An HTTP request with the visitor's cookies; returns the response whatever its status."""
        req = HTTPRequest(
            self.base_url + path, method=method, body=body, headers={**self._cookie_header(), **(headers or {})},
            follow_redirects=False, request_timeout=self.timeout,
        )
        try:
            response = await AsyncHTTPClient().fetch(req, raise_error=False)
        except HTTPClientError as e:  # pragma: no cover - raise_error=False returns most errors
            assert e.response is not None
            response = e.response
        self._keep_cookies(response)
        return response

    async def get_page(self, lesson: str) -> HTTPResponse:
        """GET ``/voila/render/<lesson>`` as a browser opening it does (``Sec-Fetch-*`` headers of a
        navigation, the first visit's redirects followed with the session cookie they set); on 200, reads the
        kernel id and the widget views from the page."""
        path = f"/voila/render/{lesson}"
        for _ in range(3):
            response = await self.fetch(path, headers=NAVIGATION)
            location = response.headers.get("Location", "")
            if response.code != 303 or not location.startswith("/"):
                break
            path = location[len(self.prefix):] if self.prefix and location.startswith(self.prefix) else location
        if response.code != 200:
            return response
        self.html = response.body.decode("utf-8", "replace")
        m = _CONFIG_RE.search(self.html)
        if not m:
            raise VisitorError(f"{lesson}: no jupyter-config-data in the page")
        self.kernel_id = json.loads(m.group(1))["kernelId"]
        self.views = list(dict.fromkeys(_VIEW_RE.findall(self.html)))
        return response

    async def close_page(self) -> int:
        """What the page does on ``beforeunload``: POST ``/voila/api/shutdown/<kernel>`` with the _xsrf
        cookie as a form field. Returns the HTTP status (204 when the kernel was stopped)."""
        await self.disconnect()
        body = urlencode({"_xsrf": self.cookies.get("_xsrf", "")}).encode()
        r = await self.fetch(f"/voila/api/shutdown/{self.kernel_id}", method="POST", body=body,
                             headers={"Content-Type": "application/x-www-form-urlencoded"})
        return r.code

    # ----- websocket -------------------------------------------------------------------------
    async def connect(self) -> None:
        """Open the kernel's websocket as the page does."""
        assert self.kernel_id, "get_page first"
        url = self.base_url.replace("http", "ws", 1) + f"/api/kernels/{self.kernel_id}/channels?session_id={self.session_id}"
        req = HTTPRequest(url, headers={**self._cookie_header(), "Origin": self.base_url}, request_timeout=self.timeout)
        self.ws = await websocket_connect(req, subprotocols=[self.protocol] if self.protocol else None)
        self._reader = asyncio.ensure_future(self._read())

    async def disconnect(self) -> None:
        """Close the websocket (if open) and wait for its reader to end."""
        if self.ws is not None:
            self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 5)
            self._reader = None

    async def _read(self) -> None:
        ws = self.ws
        assert ws is not None
        try:
            while True:
                frame = await ws.read_message()
                if frame is None:
                    break
                msg = self._decode(frame)
                msg["_t"] = time.monotonic()  # arrival time
                self.received.append(msg)
                self._dispatch(msg)
        finally:
            self.closed.set()
            for _, fut in self._waiters:
                if not fut.done():
                    fut.set_exception(VisitorError("the websocket closed"))

    def _decode(self, frame: str | bytes) -> Message:
        if isinstance(frame, str):
            msg: Message = json.loads(frame)
            return msg
        if self.protocol == PROTOCOL_V1:
            channel, parts = _from_ws_v1(frame)
            header, parent, metadata, content = (json.loads(p) for p in parts[:4])
            return {"channel": channel, "header": header, "parent_header": parent, "metadata": metadata,
                    "content": content, "msg_type": header.get("msg_type"), "buffers": parts[4:]}
        return _from_binary(frame)

    def _dispatch(self, msg: Message) -> None:
        header = msg.get("header") or {}
        kind = header.get("msg_type")
        content = msg.get("content") or {}
        if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            data = content.get("data") or {}
            self.states[content["comm_id"]] = dict(data.get("state") or {})
            self.models[content["comm_id"]] = (data.get("state") or {}).get("_model_name", "")
        elif kind == "comm_msg":
            data = content.get("data") or {}
            if data.get("method") == "update" and content.get("comm_id") in self.states:
                self.states[content["comm_id"]].update(data.get("state") or {})
            elif data.get("method") == "update_states":
                for model_id, entry in (data.get("states") or {}).items():
                    self.states[model_id] = dict(entry.get("state") or {})
                    self.models[model_id] = entry.get("model_name", "")
        elif kind == "comm_close":
            self.states.pop(str(content.get("comm_id")), None)
        parent_id = (msg.get("parent_header") or {}).get("msg_id")
        sent = self.sent.get(str(parent_id))
        if sent is not None:
            sent.replies.append(msg)
            if kind == "status" and content.get("execution_state") == "idle":
                sent.idle.set()
        for predicate, fut in list(self._waiters):
            if not fut.done() and predicate(msg):
                fut.set_result(msg)

    def message(self, msg_type: str, content: dict[str, Any], *, channel: str = "shell",
                metadata: dict[str, Any] | None = None) -> Message:
        """A Jupyter message as the page would build it."""
        return {
            "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "visitor",
                       "session": self.session_id, "date": _now(), "version": "5.3"},
            "parent_header": {}, "metadata": metadata or {}, "content": content, "buffers": [], "channel": channel,
        }

    async def send(self, msg: Message) -> Sent:
        """Send a message on the websocket; returns its :class:`Sent` record (replies arrive there)."""
        assert self.ws is not None, "connect first"
        header = msg["header"]
        sent = Sent(header["msg_id"], header["msg_type"], time.monotonic())
        self.sent[sent.msg_id] = sent
        if self.protocol == PROTOCOL_V1:
            parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata", "content")]
            await self.ws.write_message(_to_ws_v1(parts, msg["channel"]), binary=True)
        else:
            await self.ws.write_message(json.dumps({k: v for k, v in msg.items() if k != "buffers"} | {"buffers": []}))
        return sent

    async def send_raw(self, frame: str | bytes) -> None:
        """Send a frame as is (for malformed or oversized input)."""
        assert self.ws is not None
        await self.ws.write_message(frame, binary=isinstance(frame, bytes))

    async def wait_for(self, predicate: Callable[[Message], bool], timeout: float | None = None) -> Message:
        """The first message from now on for which ``predicate(msg)`` is true."""
        fut: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        entry = (predicate, fut)
        self._waiters.append(entry)
        try:
            return await asyncio.wait_for(fut, timeout or self.timeout)
        finally:
            self._waiters.remove(entry)

    async def wait_idle(self, sent: Sent, timeout: float | None = None) -> None:
        """Until the kernel has finished with ``sent`` (its ``status: idle``)."""
        await asyncio.wait_for(sent.idle.wait(), timeout or self.timeout)

    async def kernel_info(self) -> dict[str, Any]:
        """``kernel_info_request`` (the page sends it on connecting); returns the reply's content."""
        msg = self.message("kernel_info_request", {})
        reply = self.wait_for(lambda m: (m.get("parent_header") or {}).get("msg_id") == msg["header"]["msg_id"]
                              and (m.get("header") or {}).get("msg_type") == "kernel_info_reply")
        await self.send(msg)
        content: dict[str, Any] = (await reply)["content"]
        return content

    async def load_widgets(self) -> None:
        """Fetch every widget's state as ipywidgets' manager does: a ``jupyter.widget.control`` comm,
        ``request_states``, the ``update_states`` answer, then the comm closed."""
        comm_id = uuid.uuid4().hex
        await self.send(self.message("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control",
                                                   "data": {}}, metadata={"version": "1.0.0"}))
        answer = self.wait_for(lambda m: (m.get("content") or {}).get("comm_id") == comm_id
                               and ((m.get("content") or {}).get("data") or {}).get("method") == "update_states")
        await self.send(self.message("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}}))
        await answer
        await self.send(self.message("comm_close", {"comm_id": comm_id, "data": {}}))

    async def open(self, lesson: str) -> HTTPResponse:
        """Page, websocket, kernel info and widget states: the page is interactive when this returns.
        Returns the page's response (not 200: nothing else was done)."""
        response = await self.get_page(lesson)
        if response.code != 200:
            return response
        await self.connect()
        await self.kernel_info()
        await self.load_widgets()
        return response

    # ----- widgets ---------------------------------------------------------------------------
    def classes(self, model_id: str) -> list[str]:
        return list(self.states.get(model_id, {}).get("_dom_classes", []))

    def children(self, model_id: str) -> list[str]:
        return [c.removeprefix("IPY_MODEL_") for c in self.states.get(model_id, {}).get("children", [])]

    def find(self, root: str, cls: str) -> list[str]:
        """Model ids under ``root`` (itself included, depth first) whose ``_dom_classes`` hold ``cls``."""
        found, stack, seen = [], [root], set()
        while stack:
            mid = stack.pop(0)
            if mid in seen:
                continue
            seen.add(mid)
            if cls in self.classes(mid):
                found.append(mid)
            stack[0:0] = self.children(mid)
        return found

    def quizzes(self) -> list[str]:
        """The page's quiz widgets (class ``musteach-quiz``), in page order; the lesson map (lesson 0), which is
        styled as a quiz but asks nothing, is not one."""
        return [v for v in self.views if "musteach-quiz" in self.classes(v) and "musteach-map" not in self.classes(v)]

    def click_message(self, model_id: str) -> Message:
        """The comm message the front end sends when a Button is clicked."""
        return self.message("comm_msg", {"comm_id": model_id, "data": {"method": "custom", "content": {"event": "click"}}})

    def update_message(self, model_id: str, state: dict[str, Any]) -> Message:
        """The comm message the front end sends when a control's value changes (e.g. typing in a Text)."""
        return self.message("comm_msg", {"comm_id": model_id, "data": {"method": "update", "state": state,
                                                                        "buffer_paths": []}})

    async def click(self, model_id: str, *, watch: str | None = None) -> tuple[Sent, float | None]:
        """Click a button and wait until the kernel is idle again. With ``watch`` (a model id), also returns
        the seconds from the click to the first update of that model (None if it was not updated)."""
        sent = await self.send(self.click_message(model_id))
        await self.wait_idle(sent)
        latency = None
        if watch is not None:
            for m in sent.replies:
                c = m.get("content") or {}
                if (m.get("header") or {}).get("msg_type") == "comm_msg" and c.get("comm_id") == watch:
                    latency = m["_t"] - sent.sent_at
                    break
        return sent, latency


@dataclass
class Server:
    """A running ``musteach serve``: its ``base_url``, process and log file."""

    base_url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kernel_pids(self) -> list[int]:
        """The server's kernels (its child processes), by pid."""
        import psutil

        try:
            return [c.pid for c in psutil.Process(self.process.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            return []


def answers_ok(url: str) -> bool:
    """Whether ``url`` answers 200 within 2 s (a server that is up). ``unix:<socket path>`` asks ``/`` of a
    server listening on that Unix socket."""
    if url.startswith("unix:"):
        import http.client

        class _UnixConnection(http.client.HTTPConnection):
            def connect(self) -> None:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.settimeout(2)
                self.sock.connect(url.removeprefix("unix:"))

        try:
            conn = _UnixConnection("localhost", timeout=2)
            conn.request("GET", "/")
            status = conn.getresponse().status
            conn.close()
            return status == 200
        except OSError:
            return False
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return bool(r.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def stop_server(server: Server, *, kernels_grace: float = 10.0) -> list[int]:
    """SIGTERM the server's process group (Voilà shuts its kernels down), SIGKILL what is left, and wait for
    its kernels (their own sessions) to be gone. Returns the pids of kernels that had to be killed."""
    pids = server.kernel_pids()
    proc = server.process
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 5)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    import psutil

    deadline = time.monotonic() + kernels_grace
    alive = [p for p in pids if psutil.pid_exists(p)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [p for p in alive if _is_live(p)]
    for pid in alive:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return alive


def _is_live(pid: int) -> bool:
    import psutil

    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


@contextlib.contextmanager
def running_server(*args: str, log_path: Path, python: str = sys.executable, cwd: Path | None = None,
                   env: dict[str, str] | None = None, timeout: float = 90.0,
                   unix_socket: Path | None = None, port: int | None = None) -> Iterator[Server]:
    """``musteach serve`` on a free 127.0.0.1 port with extra ``args`` (e.g. ``"--max-kernels", "1"``), or on
    ``unix_socket`` (its ``base_url`` is then ``unix:<path>``, for a proxy in front), or on ``port`` (a server
    restarted where the last one was).

    Yields a :class:`Server` once ``/`` answers; stops it and its kernels afterwards. Raises RuntimeError
    with the log when the server exits early or does not answer within ``timeout`` seconds.
    """
    if unix_socket is not None:
        where = ["--socket", str(unix_socket)]
        base_url = f"unix:{unix_socket}"
    else:
        port = port or free_port()
        where = ["--host", "127.0.0.1", "--port", str(port)]
        base_url = f"http://127.0.0.1:{port}"
    argv = [python, "-m", "musteach.cli", "serve", *where, *args]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(base_url, proc, log_path)
    try:
        deadline = time.monotonic() + timeout
        while not answers_ok(server.base_url if unix_socket is not None else server.base_url + "/"):
            if proc.poll() is not None:
                raise RuntimeError(f"musteach serve exited with {proc.returncode}:\n{server.log()[-4000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"musteach serve did not answer within {timeout:.0f} s:\n{server.log()[-4000:]}")
            time.sleep(0.2)
        yield server
    finally:
        stop_server(server)


def wait_for_kernels(server: Server, n: int, timeout: float = 60.0) -> int:
    """Wait until the server runs at least ``n`` kernels (e.g. its preheated pool); returns how many run."""
    deadline = time.monotonic() + timeout
    while len(server.kernel_pids()) < n and time.monotonic() < deadline:
        time.sleep(0.25)
    return len(server.kernel_pids())


def lesson_notebook(title: str, *code: str, prose: str = "") -> str:
    """A lesson notebook's JSON (nbformat 4, python3 kernel, no outputs): a ``# title`` markdown cell, then
    one code cell per ``code`` string. For tests and try-outs of a server."""
    cells: list[dict[str, Any]] = [{"cell_type": "markdown", "id": "title", "metadata": {}, "source": f"# {title}\n\n{prose}".rstrip()}]
    cells += [
        {"cell_type": "code", "execution_count": None, "id": f"code{i}", "metadata": {}, "outputs": [], "source": src}
        for i, src in enumerate(code)
    ]
    return json.dumps({
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                     "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }, indent=1)
