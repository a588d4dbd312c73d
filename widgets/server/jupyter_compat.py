"""The private names of Jupyter the server relies on, in one place (issue 24 item 4, issue 26).

jupyter_server and Voilà offer no public way to do some of what ``musteach serve`` needs: read a kernel's
activity stream, list the open kernel websockets, the pools of preheated kernels, a kernel's connection count
or process. Each such use goes through a function here, written for the versions of :data:`WRITTEN_FOR`
(``tests/test_jupyter_compat.py`` pins them: an upgrade that moves one of these names fails there first, not
in a class). Every function tolerates the name being absent (it answers as if there were nothing).
"""

from __future__ import annotations

from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from jupyter_server._tz import utcnow as _utcnow
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

__all__ = [
    "WRITTEN_FOR",
    "connections_of",
    "kernel_pid",
    "open_websocket_connections",
    "pools_of",
    "set_activity_stream",
    "untested_versions",
    "utcnow",
]

#: The packages (distribution name -> major.minor) whose private names this module uses.
WRITTEN_FOR = {"jupyter_server": "2.21", "voila": "0.5", "jupyter_client": "8.10"}


def utcnow() -> datetime:
    """jupyter_server's clock for ``last_activity`` (``jupyter_server._tz.utcnow``: an aware UTC datetime)."""
    return _utcnow()


def set_activity_stream(kernel: Any, stream: Any) -> None:
    """Give a kernel its activity stream (``kernel._activity_stream``: jupyter_server closes it on shutdown)."""
    kernel._activity_stream = stream


def open_websocket_connections() -> list[Any]:
    """Every open kernel websocket connection of the process (``ZMQChannelsWebsocketConnection._open_sockets``)."""
    return list(getattr(ZMQChannelsWebsocketConnection, "_open_sockets", []))


def pools_of(kernel_manager: Any) -> dict[str, list[Any]]:
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
