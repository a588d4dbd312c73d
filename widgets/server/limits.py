"""Per-kernel limits (issue 26, item 3): what one page may make its kernel hold.

Pure Python (no Jupyter import). A page may only send widget messages, but ``comm_open`` creates a widget in
the kernel with whatever state the page sends: 100 Text widgets of 1.5 MB took a kernel from 51 to 200 MB,
for good. Three limits, each of which every lesson stays far below (numpy included: a lesson kernel holds at
most about 60 MiB once its lesson has run, issue 16):

* widgets a page opens (:data:`MAX_PAGE_WIDGETS`; ipywidgets' own page opens one, its control comm) and the
  bytes of their state (:data:`MAX_PAGE_WIDGET_BYTES`), counted by :class:`PageLimits` as the messages pass;
* the kernel's resident memory (:data:`DEFAULT_KERNEL_MEMORY_MB`, ``--kernel-memory``), read from
  ``/proc/<pid>/statm`` by :func:`resident_bytes` (an address-space limit low enough to matter would break
  numpy, which reserves far more than it uses).

A kernel over a limit is stopped; its page then says so (the session status answers ``"reason": "limit"``).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, field

__all__ = [
    "DEFAULT_KERNEL_MEMORY_MB",
    "MAX_PAGE_WIDGETS",
    "MAX_PAGE_WIDGET_BYTES",
    "PageLimits",
    "resident_bytes",
]

#: Widgets a page may open in its kernel (``comm_open`` messages): the control comm, and room to spare.
MAX_PAGE_WIDGETS = 32
#: Bytes of the ``comm_open`` messages a page may send its kernel in all.
MAX_PAGE_WIDGET_BYTES = 4 * 1024 * 1024
#: Resident memory (MiB) a kernel may reach before it is stopped (a lesson kernel holds about 60).
DEFAULT_KERNEL_MEMORY_MB = 400


@dataclass
class PageLimits:
    """The widgets each kernel's page has opened (count, bytes); ``limited`` remembers the last kernels stopped
    for a limit (kernel id -> why), so that their page can say so."""

    max_widgets: int = MAX_PAGE_WIDGETS
    max_bytes: int = MAX_PAGE_WIDGET_BYTES
    opened: dict[str, tuple[int, int]] = field(default_factory=dict)
    limited: OrderedDict[str, str] = field(default_factory=OrderedDict)

    def widget_opened(self, kernel_id: str, size: int) -> str | None:
        """The page of ``kernel_id`` sent a ``comm_open`` of ``size`` bytes: None while within the limits, else
        why the kernel must stop (and the message must not reach it).

        >>> lim = PageLimits(max_widgets=2, max_bytes=100)
        >>> lim.widget_opened("k", 10), lim.widget_opened("k", 10), lim.widget_opened("k", 10)
        (None, None, 'its page opened more than 2 widgets')
        >>> PageLimits(max_bytes=100).widget_opened("k", 101)
        'its page sent more than 100 bytes of widget state'
        """
        n, total = self.opened.get(kernel_id, (0, 0))
        n, total = n + 1, total + size
        self.opened[kernel_id] = (n, total)
        if n > self.max_widgets:
            return f"its page opened more than {self.max_widgets} widgets"
        if total > self.max_bytes:
            return f"its page sent more than {self.max_bytes} bytes of widget state"
        return None

    def stopped_for(self, kernel_id: str, why: str) -> None:
        """``kernel_id`` is being stopped for a limit (``why``)."""
        self.limited[kernel_id] = why
        while len(self.limited) > 10_000:
            self.limited.popitem(last=False)

    def forget(self, kernel_id: str) -> None:
        """The kernel stopped: its counts go (its reason, if any, stays in ``limited``)."""
        self.opened.pop(kernel_id, None)


def resident_bytes(pid: int) -> int | None:
    """The resident memory of process ``pid`` in bytes (Linux ``/proc``), or None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None
