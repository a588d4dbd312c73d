"""The lesson kernel: ipykernel without its debugger and without an input history, for ``musteach serve``.

A visitor's page only sends widget messages (:mod:`musteach_server.guard`), so the debugger (debugpy, about
7 MiB in every kernel) and IPython's history database (sqlite) can never be used; leaving them out keeps each
visitor's kernel small (issue 16: at most 60 MiB after its lesson has run) and quicker to start.

After each cell the kernel collects its garbage and freezes what is left (:func:`gc.freeze`): the modules and
the lesson's widgets are then never scanned again by the cycle collector, whose full collections over a whole
kernel (about 30 ms) would otherwise land on a visitor's click now and then (issue 16: click to feedback at most
80 ms). What a click creates is still collected as usual.
:class:`~musteach_server.app.VisitorKernelManager` starts kernels with :func:`lesson_kernel_cmd`.

    python -m musteach_server.kernel -f CONNECTION_FILE [ipykernel options]
"""

from __future__ import annotations

import gc
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["LAUNCHER", "NO_HISTORY", "lesson_kernel_cmd", "main", "settle"]

#: The module a lesson kernel is started with, in place of ``ipykernel_launcher``.
LAUNCHER = "musteach_server.kernel"
#: The ipykernel option that turns IPython's input history (an sqlite file per kernel) off.
NO_HISTORY = "--HistoryManager.enabled=False"


class _NoDebugger(importlib.abc.MetaPathFinder):
    """Refuses ``debugpy``: ipykernel then starts without its debugger, as it does where debugpy is missing."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == "debugpy" or fullname.startswith("debugpy."):
            raise ImportError(f"{fullname} is left out of lesson kernels", name=fullname)
        return None


def lesson_kernel_cmd(cmd: Sequence[str]) -> list[str]:
    """A kernel command line with ``-m ipykernel_launcher`` replaced by ``-m musteach_server.kernel`` and the
    history turned off; any other command (another kernel) is returned unchanged."""
    out = list(cmd)
    for i in range(len(out) - 1):
        if out[i] == "-m" and out[i + 1] == "ipykernel_launcher":
            out[i + 1] = LAUNCHER
            return [*out, NO_HISTORY]
    return out


def settle(*_args: object) -> None:
    """After a cell: collect the garbage, then move every object left out of the cycle collector's sight."""
    gc.collect()
    gc.freeze()


def main() -> None:
    """Start an ipykernel (the arguments are ipykernel's) with debugpy refused, settling after each cell."""
    sys.meta_path.insert(0, _NoDebugger())
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    app.initialize()  # type: ignore[no-untyped-call]  # ipykernel 6/7 leaves initialize() and start() unannotated
    if app.shell is not None:  # initialize() made it
        app.shell.events.register("post_run_cell", settle)
    app.start()  # type: ignore[no-untyped-call]  # (as initialize)


if __name__ == "__main__":
    main()
