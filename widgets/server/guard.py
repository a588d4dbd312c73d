"""Who may use a kernel, and which requests may start one: the rules of ``musteach serve`` for an open server.

Pure Python (no Voilà import), so that the rules can be read and tested on their own:

* a visitor is a *session*: a random id in a signed, HttpOnly, SameSite=Lax cookie (:data:`SESSION_COOKIE`;
  Secure when the page came over TLS). The page request that starts a kernel binds it to the session
  (:class:`Sessions`); the kernel's websocket, its REST routes and the shutdown beacon answer only to that
  session (:func:`kernel_route`);
* a request for a lesson starts a kernel only when it is a top-level navigation (:func:`fetch_refusal`, from
  the ``Sec-Fetch-*`` headers): an ``<img>`` or ``<iframe>`` on another site starts none;
* a session holds at most :attr:`Sessions.per_session` kernels (its oldest is released first), an address
  at most :attr:`Sessions.per_address` (0: no limit; the address is the peer's, or the one
  ``X-Forwarded-For`` names when the peer is a trusted proxy: :func:`client_address`);
* a kernel whose page has not connected its websocket yet is *waiting*: an address holds at most
  :attr:`Sessions.waiting_per_address` of them, and one still waiting after ``--connect-timeout`` seconds is
  released (:meth:`Sessions.overdue`), so that page loads that never run their page hold no place for long;
* every answer carries :data:`SECURITY_HEADERS` and no ``Server`` version (:class:`SecurityHeaders`).
"""

from __future__ import annotations

import ipaddress
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from enum import Enum

import tornado.web
from tornado.httputil import HTTPHeaders

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "OWNER_COOKIE",
    "OWNER_COOKIE_TLS",
    "SECURITY_HEADERS",
    "SESSION_COOKIE",
    "SESSION_COOKIE_TLS",
    "KernelRoute",
    "SecurityHeaders",
    "Sessions",
    "client_address",
    "fetch_refusal",
    "is_https",
    "kernel_route",
    "new_session_id",
    "owner_cookie_name",
    "session_cookie_name",
]

#: The cookie naming a visitor's session (its value is signed with the server's secret).
SESSION_COOKIE = "musteach_session"
#: The same cookie's name over TLS: a ``__Host-`` cookie is Secure, for path ``/`` and this host only, so a page
#: on another port, over plain HTTP or on a subdomain cannot plant one (cookie tossing) before a first visit.
SESSION_COOKIE_TLS = "__Host-musteach_session"


def session_cookie_name(https: bool) -> str:
    """The session cookie's name for a visitor whose pages come over TLS (``https``) or not."""
    return SESSION_COOKIE_TLS if https else SESSION_COOKIE


#: The cookie binding a session to the proof its pages keep in their origin's storage (``<id>:<owner>``,
#: signed; :mod:`musteach_server.ownership`): a session id planted from another port owns no kernel of the page.
OWNER_COOKIE = "musteach_owner"
#: The same over TLS.
OWNER_COOKIE_TLS = "__Host-musteach_owner"


def owner_cookie_name(https: bool) -> str:
    """The owner cookie's name for a visitor whose pages come over TLS (``https``) or not."""
    return OWNER_COOKIE_TLS if https else OWNER_COOKIE

#: What a page may load and run: its own scripts (Voilà's page and inline bootstrap, the widgets' modules,
#: anywidget's ``blob:`` modules), styles, pictures and fonts from the server or ``data:``, and connections
#: (the kernel's websocket) to the server only. No plug-ins, no framing by other sites, forms post home.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
])

#: Headers of every answer, error pages and static files included.
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "SAMEORIGIN",
}

_KERNEL_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


class SecurityHeaders(tornado.web.OutputTransform):
    """Tornado output transform: :data:`SECURITY_HEADERS` on every answer (jupyter_server sets them only on
    its own handlers; tornado's error and static handlers have none), and no ``Server: TornadoServer/x.y``."""

    def transform_first_chunk(self, status_code: int, headers: HTTPHeaders, chunk: bytes,
                              finishing: bool) -> tuple[int, HTTPHeaders, bytes]:
        for name, value in SECURITY_HEADERS.items():
            headers[name] = value
        if "Server" in headers:
            del headers["Server"]
        return status_code, headers, chunk


def new_session_id() -> str:
    """A fresh, unguessable session id (32 hex digits)."""
    return secrets.token_hex(16)


class KernelRoute(Enum):
    """What a request path does with a kernel (see :func:`kernel_route`)."""

    NONE = "none"  # not a kernel route
    CHANNELS = "channels"  # the kernel's websocket
    QUERY = "query"  # Voilà's request-info websocket of a preheated kernel
    SHUTDOWN = "shutdown"  # the page's beforeunload beacon
    MODEL = "model"  # GET/DELETE /api/kernels/<id>: its own page only
    CLOSED = "closed"  # listings and contents: never for visitors


@dataclass(frozen=True)
class RouteMatch:
    """A kernel route and the kernel id it names (None for :attr:`KernelRoute.CLOSED` and ``NONE``)."""

    route: KernelRoute
    kernel_id: str | None = None


def kernel_route(path: str, base_url: str = "/") -> RouteMatch:
    """Which kernel route ``path`` (already %-decoded, starting with ``base_url``) is.

    >>> kernel_route("/api/kernels/0b9e2b1c-1111-2222-3333-444455556666/channels").route.value
    'channels'
    >>> kernel_route("/api/kernels").route.value, kernel_route("/voila/api/contents/sub").route.value
    ('closed', 'closed')
    >>> kernel_route("/voila/render/03-grande-chica.ipynb").route.value
    'none'
    """
    base = base_url.rstrip("/")
    if not path.startswith(base + "/"):
        return RouteMatch(KernelRoute.NONE)
    rest = path[len(base):]
    patterns = (
        (rf"/api/kernels/({_KERNEL_ID})/channels/?", KernelRoute.CHANNELS),
        (rf"/voila/query/({_KERNEL_ID})/?", KernelRoute.QUERY),
        (r"/voila/api/shutdown/([^/]*)/?", KernelRoute.SHUTDOWN),
        (rf"/api/kernels/({_KERNEL_ID})/?", KernelRoute.MODEL),
    )
    for pattern, route in patterns:
        m = re.fullmatch(pattern, rest)
        if m:
            return RouteMatch(route, m.group(1))
    if re.match(r"/(api(/|$)|voila/api/contents|voila/tree|voila/execution)", rest):
        return RouteMatch(KernelRoute.CLOSED)
    return RouteMatch(KernelRoute.NONE)


def fetch_refusal(headers: dict[str, str]) -> str | None:
    """Why a request for a lesson page must not start a kernel, from its ``Sec-Fetch-*`` headers (None: it
    may). Only a top-level navigation may (``Sec-Fetch-Dest: document``, ``Sec-Fetch-Mode: navigate``), from
    this site or a link on another one; a picture, frame, script or fetch() of another page may not. Old
    browsers send no such header: the session cookie's first visit stands in for them.

    >>> fetch_refusal({"Sec-Fetch-Dest": "image", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Site": "cross-site"})
    'a image request (not a page opened by the visitor)'
    >>> fetch_refusal({"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "cross-site"})
    >>> fetch_refusal({})
    """
    dest = headers.get("Sec-Fetch-Dest", "").lower()
    mode = headers.get("Sec-Fetch-Mode", "").lower()
    if dest and dest != "document":
        return f"a {dest} request (not a page opened by the visitor)"
    if mode and mode != "navigate":
        return f"a {mode} request (not a page opened by the visitor)"
    return None


def _parse_address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def client_address(remote_ip: str, forwarded_for: str | None, trusted: frozenset[str]) -> str:
    """The visitor's address: ``remote_ip``, unless that is a trusted proxy (an address or network of
    ``trusted``); then the right-most address of ``X-Forwarded-For`` that is not itself trusted.

    >>> client_address("203.0.113.9", "10.0.0.1", frozenset())
    '203.0.113.9'
    >>> client_address("127.0.0.1", "198.51.100.7, 10.0.0.2", frozenset({"127.0.0.1", "10.0.0.0/8"}))
    '198.51.100.7'
    """
    nets = []
    for t in trusted:
        try:
            nets.append(ipaddress.ip_network(t, strict=False))
        except ValueError:
            continue

    def is_trusted(addr: str) -> bool:
        ip = _parse_address(addr)
        return ip is not None and any(ip in n for n in nets)

    if not forwarded_for or not is_trusted(remote_ip):
        return remote_ip
    for hop in reversed([h.strip() for h in forwarded_for.split(",") if h.strip()]):
        if not is_trusted(hop):
            return hop if _parse_address(hop) is not None else remote_ip
    return remote_ip


def is_https(protocol: str, remote_ip: str, forwarded_proto: str | None, trusted: frozenset[str]) -> bool:
    """Whether the visitor's page came over TLS: directly, or through a trusted proxy that says so
    (``X-Forwarded-Proto: https``)."""
    if protocol == "https":
        return True
    if forwarded_proto and client_address(remote_ip, "0.0.0.0", trusted) != remote_ip:
        return forwarded_proto.split(",")[0].strip().lower() == "https"
    return False


@dataclass
class Sessions:
    """The kernels of each visitor session and address.

    ``per_session``: most kernels one session holds (its oldest is released when it opens one more);
    ``per_address``: most kernels one address holds (0: no limit); ``waiting_per_address``: most kernels
    one address holds whose page has not connected yet (0: no limit; real pages connect within seconds, so
    a class behind one address never reaches it). ``ended`` remembers the last kernels that stopped, with
    their session, so that a page can learn its session ended (:meth:`status`).
    """

    per_session: int = 3
    per_address: int = 0
    waiting_per_address: int = 4
    kernels: dict[str, tuple[str, str]] = field(default_factory=dict)  # kernel id -> (session, address)
    ended: OrderedDict[str, str] = field(default_factory=OrderedDict)  # kernel id -> session
    #: kernel id -> time.monotonic() its page was sent (infinity while the page is being rendered)
    waiting: dict[str, float] = field(default_factory=dict)
    #: kernel id -> time.monotonic() its page's websocket closed (until it connects again)
    gone: dict[str, float] = field(default_factory=dict)
    #: kernel id -> the session it had before its page claimed it, which keeps it until its page connects
    #: its websocket (that may have been opened before the claim landed)
    before_claim: dict[str, str] = field(default_factory=dict)
    #: kernels renewed for their visitor's next page whose page has not connected yet: a shutdown beacon naming
    #: one is the last page's, late (:meth:`stale_beacon`)
    renewed: set[str] = field(default_factory=set)

    def bind(self, kernel_id: str, session: str, address: str) -> None:
        """The page request of ``session`` from ``address`` got kernel ``kernel_id`` (waiting for its page)."""
        self.kernels[kernel_id] = (session, address)
        self.waiting[kernel_id] = float("inf")

    def page_sent(self, kernel_id: str) -> None:
        """The kernel's page was sent: the time its websocket has to connect starts now."""
        if kernel_id in self.waiting:
            self.waiting[kernel_id] = time.monotonic()

    def connected(self, kernel_id: str) -> None:
        """The kernel's page connected its websocket: it waits no more (and is not gone)."""
        self.waiting.pop(kernel_id, None)
        self.gone.pop(kernel_id, None)
        self.before_claim.pop(kernel_id, None)
        self.renewed.discard(kernel_id)

    def mark_renewed(self, kernel_id: str) -> None:
        """The kernel was renewed for its visitor's next page (bound to it, waiting for it to connect)."""
        if kernel_id in self.waiting:
            self.renewed.add(kernel_id)

    def stale_beacon(self, kernel_id: str | None) -> bool:
        """True when a shutdown beacon naming ``kernel_id`` can only be the last page's: the kernel was renewed
        for the visitor's next page, which has not connected yet (the beacon would stop the kernel that page is
        being rendered on)."""
        return kernel_id in self.renewed and kernel_id in self.waiting

    def claim(self, kernel_id: str, session: str | None, owned: str) -> bool:
        """The page of ``kernel_id``, sent to ``session``, claims it for the owned session ``owned``
        (:mod:`musteach_server.ownership`): True when it was ``session``'s. Only that kernel moves; while its
        page's websocket has not connected yet, ``session`` keeps it too (the socket may have been opened with
        the cookies of before the claim)."""
        if not self.owns(session, kernel_id) or session is None:
            return False
        _, address = self.kernels[kernel_id]
        self.kernels[kernel_id] = (owned, address)
        if kernel_id in self.waiting:
            self.before_claim[kernel_id] = session
        else:
            self.before_claim.pop(kernel_id, None)
        return True

    def disconnected(self, kernel_id: str, now: float | None = None) -> None:
        """The websocket of the kernel's page closed (a tab closed, a reload, a lost connection)."""
        if kernel_id in self.kernels:
            self.gone[kernel_id] = time.monotonic() if now is None else now

    def gone_for(self, grace: float, now: float | None = None) -> list[str]:
        """Kernels whose page's websocket closed more than ``grace`` seconds ago and has not come back."""
        now = time.monotonic() if now is None else now
        return [k for k, since in self.gone.items() if now - since > grace]

    def forget_gone(self, kernel_id: str) -> None:
        """The gone kernel is being released: asked once."""
        self.gone.pop(kernel_id, None)

    def overdue(self, timeout: float, now: float | None = None) -> list[str]:
        """Kernels still waiting for their page more than ``timeout`` seconds after they were bound."""
        now = time.monotonic() if now is None else now
        return [k for k, since in self.waiting.items() if now - since > timeout]

    def waiting_of_address(self, address: str) -> list[str]:
        """The address's kernels whose page has not connected yet, oldest first."""
        return [k for k in self.waiting if k in self.kernels and self.kernels[k][1] == address]

    def too_many_waiting(self, address: str) -> bool:
        """Whether ``address`` already holds its most kernels whose page was sent and has not connected.
        Pages still being rendered do not count: a class behind one address opening a lesson at once must
        not be refused; such a flood is bounded by ``--max-kernels`` and released after the timeout."""
        sent = [k for k in self.waiting_of_address(address) if self.waiting[k] != float("inf")]
        return bool(self.waiting_per_address) and len(sent) >= self.waiting_per_address

    def owns(self, session: str | None, kernel_id: str | None) -> bool:
        """Whether ``kernel_id`` is a running kernel of ``session``."""
        if not session or kernel_id not in self.kernels:
            return False
        return self.kernels[kernel_id][0] == session or self.before_claim.get(kernel_id) == session

    def release(self, kernel_id: str) -> None:
        """The kernel stopped (its place is free); its session is remembered for :meth:`status`."""
        owner = self.kernels.pop(kernel_id, None)
        self.waiting.pop(kernel_id, None)
        self.gone.pop(kernel_id, None)
        self.before_claim.pop(kernel_id, None)
        self.renewed.discard(kernel_id)
        if owner is not None:
            self.ended[kernel_id] = owner[0]
            while len(self.ended) > 10_000:
                self.ended.popitem(last=False)

    def of_session(self, session: str) -> list[str]:
        """The session's kernels, oldest first."""
        return [k for k, (s, _) in self.kernels.items() if s == session]

    def of_address(self, address: str) -> list[str]:
        """The address's kernels, oldest first."""
        return [k for k, (_, a) in self.kernels.items() if a == address]

    def address_full(self, address: str, session: str) -> bool:
        """Whether ``address`` holds its most kernels (and releasing the session's oldest would not help)."""
        if not self.per_address:
            return False
        held = self.of_address(address)
        mine = [k for k in self.of_session(session) if k in held]
        freed = 1 if len(self.of_session(session)) >= self.per_session and mine else 0
        return len(held) - freed >= self.per_address

    def to_release(self, session: str) -> list[str]:
        """The session's kernels to stop so that it may open one more: those whose page has gone (its websocket
        closed: the visitor has moved on in the same browser), then its oldest beyond ``per_session``."""
        held = self.of_session(session)
        gone = [k for k in held if k in self.gone]
        left = [k for k in held if k not in self.gone]
        return gone + left[: max(0, len(left) - self.per_session + 1)]

    def status(self, session: str | None, kernel_id: str) -> int:
        """HTTP status of a page's "is my session alive" question: 200 (running), 410 (it ended), 403 (not
        this session's kernel)."""
        if self.owns(session, kernel_id):
            return 200
        if session and self.ended.get(kernel_id) == session:
            return 410
        return 403
