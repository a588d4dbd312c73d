"""The Jupyter private names ``musteach serve`` relies on (:mod:`musteach_server.jupyter_compat`) are where the
adapter expects them, in the versions it was written for: an upgrade that moves one fails here first."""

from __future__ import annotations

import os
from datetime import UTC

import pytest

pytest.importorskip("voila")

from musteach_server.jupyter_compat import (
    WRITTEN_FOR,
    connections_of,
    kernel_pid,
    open_websocket_connections,
    pools_of,
    set_activity_stream,
    untested_versions,
    utcnow,
)


def test_the_adapter_is_used_with_the_versions_it_was_written_for():
    assert untested_versions() == {}, f"check musteach_server.jupyter_compat against these (written for {WRITTEN_FOR})"


def test_the_private_names_are_where_the_adapter_reads_them():
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    assert list(ZMQChannelsWebsocketConnection._open_sockets) == []  # a collection of the open connections
    assert isinstance(open_websocket_connections(), list)
    km = AsyncMappingKernelManager()
    assert connections_of(km) == {} and isinstance(km._kernel_connections, dict)
    pooled = voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)
    assert "fill_if_needed" in dir(pooled) and "_pools" in pooled.__init__.__code__.co_names
    assert utcnow().tzinfo is not None and utcnow().utcoffset() == UTC.utcoffset(None)


def test_the_adapter_answers_nothing_when_a_name_is_missing():
    class Bare:
        pass

    assert pools_of(Bare()) == {} and connections_of(Bare()) == {} and kernel_pid(Bare()) is None

    class Proc:
        pid = os.getpid()

    class Prov:
        process = Proc()

    class Kernel:
        provisioner = Prov()

    assert kernel_pid(Kernel()) == os.getpid()
    k = Bare()
    set_activity_stream(k, "stream")
    assert k._activity_stream == "stream"


def test_the_private_methods_the_adapter_overrides_are_still_called():
    """KernelDeathHook and MeasuringWebSocketProtocol override private methods that jupyter_server and tornado
    call: if an upgrade stops calling them, the hook would silently never run."""
    import inspect

    from jupyter_server.services.kernels import kernelmanager
    from tornado import websocket

    assert "self._handle_kernel_died(kernel_id)" in inspect.getsource(kernelmanager.MappingKernelManager)
    protocol = inspect.getsource(websocket.WebSocketProtocol13)
    assert "async def _read_bytes(self, n: int) -> bytes:" in protocol
    assert "await self._read_bytes(payloadlen)" in protocol
    assert "self._fragmented_message_buffer" in protocol and 'self.close(1009, "message too big")' in protocol


def test_a_dead_kernel_reaches_the_public_hook():
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from musteach_server.jupyter_compat import KernelDeathHook

    died: list[str] = []

    class Manager(KernelDeathHook, AsyncMappingKernelManager):
        def kernel_died(self, kernel_id: str) -> None:
            died.append(kernel_id)

    Manager()._handle_kernel_died("k1")  # what jupyter_server's restart callback calls
    assert died == ["k1"]


def test_the_reason_phrase_and_the_refused_size_are_read():
    import tornado.web
    from musteach_server.jupyter_compat import MeasuringWebSocketProtocol, status_reason
    from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine
    from tornado.websocket import WebSocketProtocol13

    class Connection:
        def set_close_callback(self, callback):
            pass

    request = HTTPServerRequest(connection=Connection(), start_line=RequestStartLine("GET", "/", "HTTP/1.1"),
                                headers=HTTPHeaders({"Host": "localhost"}))
    handler = tornado.web.RequestHandler(tornado.web.Application(), request)
    handler.set_status(404)
    assert status_reason(handler) == "Not Found"
    assert issubclass(MeasuringWebSocketProtocol, WebSocketProtocol13)
    bare = MeasuringWebSocketProtocol.__new__(MeasuringWebSocketProtocol)
    assert bare.fragment_bytes() == 0 and bare.last_read == b""
    bare._fragmented_message_buffer = bytearray(b"abc")
    assert bare.fragment_bytes() == 3


def test_no_other_server_module_reads_a_librarys_private_name():
    """Outside the adapter, a ``._x`` attribute is the server's own: read on ``self``/``cls`` and defined in the
    same module (``self._x = ...``, a class attribute ``_x``, a method ``_x``); never ``super()._x``,
    ``km._pools``, ``handler._reason`` or ``self._kernels`` (jupyter_client's)."""
    import ast
    from pathlib import Path

    import musteach_server

    root = Path(musteach_server.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "jupyter_compat.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                own.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                own.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                own.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                own.add(node.target.id)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
                continue
            on_self = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if node.attr == "_SubParsersAction":  # argparse's, in annotations: the only name of add_subparsers' type
                continue
            if not (on_self and node.attr in own):
                found.append(f"{path.relative_to(root)}:{node.lineno} .{node.attr}")
    assert found == [], f"{found}: read a library's private name through musteach_server.jupyter_compat"
