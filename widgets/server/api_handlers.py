"""The server's two JSON answers: the places it holds, for its host (``/musteach/api/places``), and whether a
visitor's kernel still runs, for its page (``/musteach/api/session/<kernel>``).

Moved out of :mod:`musteach_server.app` (issue 24 item 4).
"""

from __future__ import annotations

import hmac
import json
from typing import Any

import tornado.web

from .admission import host_key
from .cookies import session_of
from .settings import MusteachHandler

__all__ = ["PlacesHandler", "SessionStatusHandler"]

class PlacesHandler(MusteachHandler):
    """``/musteach/api/places``: what the server holds, for its host only (``Authorization: Bearer <key>``,
    the key :func:`~musteach_server.admission.host_key` derives from the secret; 403 otherwise). JSON:
    ``taken`` (places the gate counts), ``kernels`` (kernels that exist), ``visitors``, ``pooled``,
    ``admitting``, ``reserved`` and ``max``."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def get(self) -> None:
        expected = "Bearer " + host_key(self.musteach.secret)
        given = self.request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), expected.encode()):
            raise tornado.web.HTTPError(403)
        gate = self.musteach.gate
        km = self.musteach.kernel_manager
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({
            "taken": gate.total(), "kernels": len(km.list_kernel_ids()), "visitors": gate.in_use() - gate.admitting,
            "pooled": gate.pooled(), "admitting": gate.admitting, "reserved": gate.admission.reserved(),
            "max": gate.max_kernels, "pools": {name: len(pool) for name, pool in gate.pools().items()},
            "cold_seconds": round(gate.cold_seconds, 1),
        }))


class SessionStatusHandler(MusteachHandler):
    """``/musteach/api/session/<kernel>``: whether the visitor's kernel still runs (200), has ended (410) or
    is not theirs (403). The page asks when its websocket closes, to say "this session ended"."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def check_xsrf_cookie(self) -> None:
        pass

    def get(self, kernel_id: str) -> None:
        gate = self.musteach.gate
        session = session_of(self.request, self.musteach.secret, self.musteach.trusted)
        if gate.sessions.owns(session, kernel_id) and kernel_id not in self.musteach.kernel_manager:
            gate.stopped(kernel_id)
        status = gate.sessions.status(session, kernel_id)
        limited = getattr(self.musteach.kernel_manager, "page_limits", None)
        reason = "limit" if status == 410 and limited is not None and kernel_id in limited.limited else ""
        self.set_status(status)
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"running": status == 200, "ended": status == 410, "reason": reason}))
