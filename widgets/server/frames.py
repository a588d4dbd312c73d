"""Websocket frames from a page, checked before Jupyter parses them (issue 26, item 2).

Upstream cause (every Jupyter server has it, not only ours): jupyter_server's
``jupyter_server/services/kernels/connection/base.py`` trusts the counts at the head of a binary frame.
``deserialize_msg_from_ws_v1`` (protocol ``v1.kernel.websocket.jupyter.org``) reads an 8-byte offset count and
loops over it, building a list of that many offsets: one 24-byte frame whose count is 20,000,000 froze the
server's event loop for 17 s (every visitor with it) and grew it by 300 MB. ``deserialize_binary_message``
(the legacy binary framing) builds a ``struct`` format of ``"I" * count`` from the first 4 bytes the same way.

:func:`frame_refusal` reads only those heads: the count must be small (:data:`MAX_PARTS`) and fit in the frame
itself, every offset must lie inside it, in order. Pure Python, no Jupyter import. The frame's total size is
capped before this by tornado (``websocket_max_message_size``, the server's ``MAX_MESSAGE_BYTES``).
"""

from __future__ import annotations

__all__ = ["MAX_PARTS", "PROTOCOL_V1", "frame_refusal"]

#: The websocket subprotocol of JupyterLab's kernel client (binary frames with offsets).
PROTOCOL_V1 = "v1.kernel.websocket.jupyter.org"

#: Most parts a frame may declare: a kernel message has 5 (channel or header, parent header, metadata, content,
#: and more for binary buffers); ipywidgets sends a few buffers at most.
MAX_PARTS = 64


def _offsets_refusal(offsets: list[int], head: int, size: int) -> str | None:
    last = head
    for offset in offsets:
        if offset < last or offset > size:
            return f"an offset ({offset}) outside the frame of {size} bytes or out of order"
        last = offset
    return None


def frame_refusal(subprotocol: str | None, frame: str | bytes) -> str | None:
    """Why a page's websocket frame must be dropped before jupyter_server parses it (None: it may be parsed).
    ``subprotocol``: the socket's (:data:`PROTOCOL_V1`, or None/"" for the legacy framing); ``frame``: the
    message as tornado gives it (text for JSON, bytes for binary). Reads at most ``8 * (MAX_PARTS + 1)`` bytes;
    never raises.

    >>> frame_refusal(PROTOCOL_V1, (20_000_000).to_bytes(8, "little") + bytes(16))
    'it declares 20000000 parts (at most 64)'
    >>> frame_refusal(None, (2**31 - 1).to_bytes(4, "big") + bytes(8))
    'it declares 2147483647 parts (at most 64)'
    >>> frame_refusal(None, '{"channel": "shell"}') is None
    True
    """
    if isinstance(frame, str):
        return "a text frame on the binary protocol" if subprotocol == PROTOCOL_V1 else None
    size = len(frame)
    if subprotocol == PROTOCOL_V1:
        if size < 8:
            return f"a binary frame of {size} bytes (too short)"
        n = int.from_bytes(frame[:8], "little")
        if not 2 <= n <= MAX_PARTS:
            return f"it declares {n} parts (at most {MAX_PARTS})"
        head = 8 * (n + 1)
        if head > size:
            return f"it declares {n} parts, more than its {size} bytes hold"
        offsets = [int.from_bytes(frame[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(n)]
        return _offsets_refusal(offsets, head, size)
    if size < 4:
        return f"a binary frame of {size} bytes (too short)"
    n = int.from_bytes(frame[:4], "big", signed=True)
    if not 1 <= n <= MAX_PARTS:
        return f"it declares {n} parts (at most {MAX_PARTS})"
    head = 4 * (n + 1)
    if head > size:
        return f"it declares {n} parts, more than its {size} bytes hold"
    offsets = [int.from_bytes(frame[4 * (i + 1) : 4 * (i + 2)], "big") for i in range(n)]
    return _offsets_refusal(offsets, head, size)
