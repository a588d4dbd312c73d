"""A trusted proxy on this machine proves itself (issue 26).

``--trusted-proxy 127.0.0.1`` names the machine, not the proxy: every local client (another user's program,
a compromised service, a page's SSRF) connects from 127.0.0.1 too, and its forged ``X-Forwarded-For`` gave it
as many addresses as it liked (each with its own places), its forged ``X-Forwarded-Proto`` a TLS visitor's
cookies. A proxy is thus believed from a loopback address only when it also sends the header
:data:`PROXY_KEY_HEADER` with the key :func:`~musteach_server.admission.proxy_key` derives from the server's
secret (``musteach admit --proxy-key`` prints it; nginx: ``proxy_set_header X-Musteach-Proxy <key>;``).
From any other local client the ``X-Forwarded-*`` headers are dropped before a handler reads them
(:func:`proxy_check`), so the visitor is the peer itself. A proxy on another machine is told apart by its
address, and one on a Unix socket (``--socket``) by the socket's permissions: neither needs the key.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from typing import Any

import tornado.web
from tornado.httputil import HTTPServerRequest

from .admission import proxy_key
from .guard import client_address

__all__ = ["FORWARDED_HEADERS", "PROXY_KEY_HEADER", "proxy_check", "strip_unproven"]

#: The header by which a proxy on this machine proves itself.
PROXY_KEY_HEADER = "X-Musteach-Proxy"
#: The headers only a trusted proxy may set.
FORWARDED_HEADERS = ("X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host", "X-Real-Ip", "Forwarded")

log = logging.getLogger("musteach.serve")


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def strip_unproven(remote_ip: str, headers: Any, key: str, trusted: frozenset[str]) -> bool:
    """Drop the ``X-Forwarded-*`` ``headers`` (a mutable mapping) of a request from ``remote_ip`` when that is a
    trusted loopback address and the request does not carry ``key`` in :data:`PROXY_KEY_HEADER`; the key's
    header is always dropped. Returns True when forwarded headers were dropped.

    >>> h = {"X-Forwarded-For": "198.51.100.7"}
    >>> strip_unproven("127.0.0.1", h, "K", frozenset({"127.0.0.1"})), h
    (True, {})
    >>> h = {"X-Forwarded-For": "198.51.100.7", "X-Musteach-Proxy": "K"}
    >>> strip_unproven("127.0.0.1", h, "K", frozenset({"127.0.0.1"})), h
    (False, {'X-Forwarded-For': '198.51.100.7'})
    """
    given = headers.get(PROXY_KEY_HEADER, "")
    if PROXY_KEY_HEADER in headers:
        del headers[PROXY_KEY_HEADER]
    if not _loopback(remote_ip) or client_address(remote_ip, "192.0.2.1", trusted) == remote_ip:
        return False  # not a trusted proxy on this machine: its headers are never believed anyway
    if hmac.compare_digest(given.encode(), key.encode()):
        return False
    dropped = False
    for name in FORWARDED_HEADERS:
        if name in headers:
            del headers[name]
            dropped = True
    return dropped


def proxy_check(secret: bytes, trusted: frozenset[str]) -> type[tornado.web.OutputTransform]:
    """A tornado transform class (``app.add_transform``) that applies :func:`strip_unproven` to every request
    before its handler reads it (tornado builds the transforms first)."""
    key = proxy_key(secret)
    warned = [False]

    class ProxyCheck(tornado.web.OutputTransform):
        def __init__(self, request: HTTPServerRequest):
            super().__init__(request)
            if trusted and strip_unproven(request.remote_ip or "", request.headers, key, trusted) and not warned[0]:
                warned[0] = True
                log.warning("X-Forwarded-* headers from %s ignored: a proxy on this machine sends %s (musteach "
                            "admit --proxy-key prints it); any other local client could forge them",
                            request.remote_ip, PROXY_KEY_HEADER)

    return ProxyCheck
