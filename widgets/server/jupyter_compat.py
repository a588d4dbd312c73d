r"""The private names of Jupyter the server relies on, in one place (issue 24 item 4, issue 26).

jupyter_server, Voilà and tornado offer no public way to do some of what ``musteach serve`` needs: read a
kernel's activity stream, list the open kernel websockets, the pools of preheated kernels, a kernel's
connection count or process, hear that a kernel died, the reason phrase of an answer, the size of a websocket
message tornado refuses. Each such use goes through a function or a small base class here, written for the
versions of :data:`WRITTEN_FOR` (``tests/test_jupyter_compat.py`` pins them: an upgrade that moves one of these
names fails there first, not in a class). Every function tolerates the name being absent (it answers as if
there were nothing); the rest of the server uses no private name of a library (``grep '\._[a-z]'`` finds
only this module's, and the server's own attributes).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import tornado.web
from jupyter_server._tz import utcnow as _utcnow
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado.websocket import WebSocketProtocol13

__all__ = [
    "WRITTEN_FOR",
    "KernelDeathHook",
    "MeasuringWebSocketProtocol",
    "PoolEntry",
    "connections_of",
    "kernel_pid",
    "open_websocket_connections",
    "pools_of",
    "set_activity_stream",
    "status_reason",
    "untested_versions",
    "utcnow",
]

#: The packages (distribution name -> major.minor) whose private names this module uses.
WRITTEN_FOR = {"jupyter_server": "2.21", "voila": "0.5", "jupyter_client": "8.10", "tornado": "6.6"}

#: One entry of a Voilà pool (:func:`pools_of`): a future whose result, once the kernel has started, is a dict
#: with its ``"kernel_id"`` (str) and the ``"task"`` (an :class:`asyncio.Task`) running the lesson in it.
PoolEntry = asyncio.Future[dict[str, Any]]


def utcnow() -> datetime:
    """jupyter_server's clock for ``last_activity`` (``jupyter_server._tz.utcnow``: an aware UTC datetime)."""
    return _utcnow()


def set_activity_stream(kernel: Any, stream: Any) -> None:
    """Give a kernel its activity stream (``kernel._activity_stream``: jupyter_server closes it on shutdown)."""
    kernel._activity_stream = stream


def open_websocket_connections() -> list[Any]:
    """Every open kernel websocket connection of the process (``ZMQChannelsWebsocketConnection._open_sockets``)."""
    return list(getattr(ZMQChannelsWebsocketConnection, "_open_sockets", []))


def pools_of(kernel_manager: Any) -> dict[str, list[PoolEntry]]:
    """Voilà's pools of preheated kernels (``km._pools``: notebook path -> futures); empty without preheating."""
    pools = getattr(kernel_manager, "_pools", None)
    return pools if isinstance(pools, dict) else {}


def connections_of(kernel_manager: Any) -> dict[str, int]:
    """Websockets connected per kernel (``km._kernel_connections``: kernel id -> count)."""
    connections = getattr(kernel_manager, "_kernel_connections", None)
    return connections if isinstance(connections, dict) else {}


def kernel_pid(kernel: Any) -> int | None:
    """The process id of a kernel started by jupyter_client's local provisioner (``kernel.provisioner.process``),
    or None."""
    process = getattr(getattr(kernel, "provisioner", None), "process", None)
    pid = getattr(process, "pid", None)
    return pid if isinstance(pid, int) else None


def status_reason(handler: tornado.web.RequestHandler) -> str:
    """The reason phrase of the answer a handler is sending (``handler._reason``: "Not Found"...), "" if none."""
    reason = getattr(handler, "_reason", "")
    return reason if isinstance(reason, str) else ""


class KernelDeathHook:
    """A base class for a jupyter_server kernel manager: jupyter_server tells it that a kernel died (and was not
    restarted) through its private ``_handle_kernel_died(kernel_id)``, whose own version only forgets the
    kernel; this one calls the public :meth:`kernel_died` instead. Put it before the kernel manager's class
    in the bases."""

    def kernel_died(self, kernel_id: str) -> None:
        """A kernel process died; override (this one does nothing)."""

    def _handle_kernel_died(self, kernel_id: str) -> None:
        self.kernel_died(kernel_id)


class MeasuringWebSocketProtocol(WebSocketProtocol13):
    """Tornado's websocket protocol, remembering what a refusal for size needs to say how big the message
    was: the last bytes read (:attr:`last_read`: a frame's length field is read just before tornado compares it
    with the limit) and the bytes of a fragmented message received so far (:meth:`fragment_bytes`), from
    tornado's private ``_read_bytes`` and ``_fragmented_message_buffer``."""

    last_read = b""

    async def _read_bytes(self, n: int) -> bytes:
        data = await super()._read_bytes(n)
        self.last_read = data
        return data

    def fragment_bytes(self) -> int:
        """Bytes of the fragmented message received so far (0 when none)."""
        buffer = getattr(self, "_fragmented_message_buffer", None)
        return len(buffer) if buffer else 0


def untested_versions() -> dict[str, str]:
    """The packages of :data:`WRITTEN_FOR` installed at another major.minor version (name -> installed version)."""
    out = {}
    for name, wanted in WRITTEN_FOR.items():
        try:
            got = version(name)
        except PackageNotFoundError:
            out[name] = "missing"
            continue
        if ".".join(got.split(".")[:2]) != wanted:
            out[name] = got
    return out
