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
