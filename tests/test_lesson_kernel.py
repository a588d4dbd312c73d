"""musteach_server.kernel: lesson kernels start without the debugger and the input history, freeze what their
cells leave (no full garbage collection over a whole kernel in a click), and still run."""

from __future__ import annotations

import asyncio

from musteach_server.app import VisitorKernelManager
from musteach_server.kernel import LAUNCHER, NO_HISTORY, lesson_kernel_cmd


def test_the_ipykernel_launcher_is_replaced_and_other_kernels_kept():
    cmd = ["/usr/bin/python3", "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    assert lesson_kernel_cmd(cmd) == ["/usr/bin/python3", "-m", LAUNCHER, "-f", "{connection_file}", NO_HISTORY]
    other = ["/usr/bin/R", "--slave", "-e", "IRkernel::main()", "--args", "{connection_file}"]
    assert lesson_kernel_cmd(other) == other


def test_a_visitor_kernel_runs_code_without_debugpy_or_history():
    asyncio.run(_visit_kernel())


async def _visit_kernel() -> None:
    km = VisitorKernelManager(kernel_name="python3")
    assert km.format_kernel_cmd()[1:3] == ["-m", LAUNCHER]
    await km.start_kernel()
    kc = km.client()
    try:
        kc.start_channels()
        await kc.wait_for_ready(timeout=60)
        out: list[str] = []
        code = "import sys; print('debugpy' in sys.modules, get_ipython().history_manager.enabled, 6 * 7)"
        reply = await kc.execute_interactive(
            code, timeout=60,
            output_hook=lambda m: out.append(m["content"].get("text", "")) if m["msg_type"] == "stream" else None,
        )
        assert reply["content"]["status"] == "ok"
        assert "".join(out).split() == ["False", "False", "42"]
        out.clear()  # the first cell's objects were frozen after it ran: out of the cycle collector's sight
        reply = await kc.execute_interactive(
            "import gc; print(gc.get_freeze_count() > 1000)", timeout=60,
            output_hook=lambda m: out.append(m["content"].get("text", "")) if m["msg_type"] == "stream" else None,
        )
        assert reply["content"]["status"] == "ok"
        assert "".join(out).split() == ["True"]
    finally:
        kc.stop_channels()
        await km.shutdown_kernel(now=True)
