"""The application's guard, before any handler sees a request (:class:`GuardedApplication`): paths that are
not UTF-8 or climb out of a folder (:func:`is_traversal`), template paths Voilà would answer with a traceback
(:func:`template_static_path_ok`), and kernel routes without the session that owns the kernel.

Moved out of :mod:`musteach_server.app` (issue 24 item 4).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, unquote_to_bytes

import tornado.web
from voila.paths import collect_static_paths

from .cookies import session_of
from .guard import KernelRoute, kernel_route
from .settings import ServerSettings

__all__ = ["GuardedApplication", "is_traversal", "template_static_path_ok"]

def is_traversal(path: str) -> bool:
    """Whether a URL path tries to climb out of a folder: a ``..`` segment, raw or %-encoded (even twice),
    with ``/`` or ``\\`` separators, or a NUL byte.

    >>> is_traversal("/voila/files/%2e%2e/musteach/cli.py"), is_traversal("/voila/render/03-grande-chica.ipynb")
    (True, False)
    >>> is_traversal("/voila/static/..%252f..%252fapp.py"), is_traversal("/voila/files/a..b.png")
    (True, False)
    """
    for _ in range(3):
        decoded = unquote(path)
        if decoded == path:
            break
        path = decoded
    return "\x00" in path or any(seg in ("..", ".") for seg in path.replace("\\", "/").split("/"))


def template_static_path_ok(path: str, base_url: str = "/") -> bool:
    """Whether ``path`` (%-decoded), if it is under Voilà's ``/voila/templates/``, has the only form Voilà's
    handler serves, ``<template>/static/<file>``, of a template that exists (Voilà's handler answers any
    other with a 500 and a traceback). Paths elsewhere are not its business (True).

    >>> template_static_path_ok("/voila/templates/musteach/index.html.j2"), template_static_path_ok("/lessons")
    (False, True)
    """
    prefix = base_url.rstrip("/") + "/voila/templates/"
    if not path.startswith(prefix):
        return True
    m = re.fullmatch(r"([A-Za-z0-9_.-]+)/static/[^/].*", path[len(prefix):])
    if not m:
        return False
    try:
        return bool(collect_static_paths(["voila", "nbconvert"], m.group(1)))
    except ValueError:  # no such template
        return False


class GuardedApplication(tornado.web.Application):
    """Tornado's application, refusing before any handler sees them: paths that are not UTF-8 once decoded
    or that climb out of a folder (400), kernel routes without the session that owns the kernel, kernel
    listings and reading, the contents API and the file tree (403)."""

    @property
    def musteach(self) -> ServerSettings:
        """What musteach adds to the application's settings, typed."""
        return ServerSettings(self.settings)

    def find_handler(self, request: Any, **kwargs: Any) -> Any:
        try:
            decoded = unquote_to_bytes(request.path).decode("utf-8")
        except UnicodeDecodeError:
            return self.get_handler_delegate(request, tornado.web.ErrorHandler, {"status_code": 400})
        if is_traversal(request.path):
            return self.get_handler_delegate(request, tornado.web.ErrorHandler, {"status_code": 400})
        if not template_static_path_ok(decoded, self.settings.get("base_url", "/")):
            return self.get_handler_delegate(request, tornado.web.ErrorHandler, {"status_code": 404})
        match = kernel_route(decoded, self.settings.get("base_url", "/"))
        if match.route is not KernelRoute.NONE and not self._allowed(request, match.route, match.kernel_id):
            return self.get_handler_delegate(request, tornado.web.ErrorHandler, {"status_code": 403})
        return super().find_handler(request, **kwargs)

    def _allowed(self, request: Any, route: KernelRoute, kernel_id: str | None) -> bool:
        if route is KernelRoute.CLOSED:
            return False
        if route is KernelRoute.MODEL and request.method not in ("GET", "DELETE"):
            return False  # reading (the page does, on connecting) or stopping it, by its own session only
        gate = self.musteach.gate_or_none
        if gate is None:
            return False
        if route is KernelRoute.SHUTDOWN and gate.sessions.stale_beacon(kernel_id):
            # the kernel was renewed for the visitor's next page, which has not connected yet: the beacon is the
            # last page's, sent as it unloaded (it stopped the kernel the new page was being rendered on: a
            # fresh-clone run saw that page hang). A page that never connects is released by --connect-timeout.
            return False
        return gate.sessions.owns(session_of(request, self.musteach.secret,
                                             self.musteach.trusted), kernel_id)
