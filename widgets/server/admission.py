"""Who gets a place (issue 26, item 5): anonymous visitors under per-address caps, and visitors who bring a
signed admission token under that token's own quota (places reserved for a class).

Pure Python (no Voilà, no tornado), the interface class mode and the host's command line share:

* :func:`issue_token` signs ``{name, places, expiry}`` with the server's secret (``--secret-file`` or
  ``MUSTEACH_SECRET``: the instances behind one proxy share it); :func:`verify_token` checks the signature and
  the expiry and gives the :class:`AdmissionToken` back, or raises :class:`~musteach.rules.errors.MusError`.
  ``musteach admit --name CLASS --places 40 --hours 4`` prints a link carrying one (:data:`ADMIT_PATH`);
  the visitor who follows it keeps the token in a cookie (:data:`ADMIT_COOKIE`).
* :class:`Admission` decides, for a page that would start or take a kernel, whether its visitor may have a
  place: a token's visitors are seated while the token's sessions number fewer than its ``places`` (whatever
  their address: a class behind one school address); anonymous visitors are held to ``per_address`` kernels an
  address (IPv6 addresses counted by their /64 network: one client holds many addresses of it) and may not take
  the places that a token has reserved and not used yet.

A token is a bearer credential: whoever holds the link takes one of its places. It carries no secret, and
cannot be altered without the server's secret (HMAC-SHA256).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import json
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from musteach.rules.errors import MusError

__all__ = [
    "ADMIT_COOKIE",
    "ADMIT_PATH",
    "MAX_TOKEN_HOURS",
    "Admission",
    "AdmissionToken",
    "Decision",
    "address_key",
    "host_key",
    "issue_token",
    "proxy_key",
    "verify_token",
]

#: The cookie holding the admission token a visitor brought (HttpOnly, SameSite=Lax).
ADMIT_COOKIE = "musteach_admit"
#: The address of an admission link, under the server's base URL: ``/musteach/admit?token=...``.
ADMIT_PATH = "musteach/admit"
#: The longest a token may last (hours): a week of lessons.
MAX_TOKEN_HOURS = 24 * 7
_MAX_TOKEN_CHARS = 1024
_PREFIX = "mt1"


@dataclass(frozen=True)
class AdmissionToken:
    """A verified admission token: the class ``name``, its ``places`` (visitors seated at once), the UNIX time
    it ``expires`` at (seconds), and its ``token_id`` (random, 16 hex digits: two tokens of one name differ)."""

    name: str
    places: int
    expires: float
    token_id: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(secret: bytes, payload: str) -> str:
    return _b64(hmac.new(secret, f"musteach-admission:{payload}".encode("ascii"), hashlib.sha256).digest())


def issue_token(secret: bytes, name: str, places: int, hours: float, *, now: float | None = None,
                token_id: str | None = None) -> str:
    """A signed admission token (URL-safe text) for ``places`` visitors of class ``name``, valid ``hours``
    hours from ``now`` (UNIX seconds; default: the clock). ``secret``: the server's cookie secret (16 bytes or
    more). ``token_id``: 16 hex digits naming the quota the token draws on (default: a new random one); the
    tokens a class link gives each of its learners share one id, so that the class has one quota of ``places``,
    not one per learner. Raises :class:`~musteach.rules.errors.MusError` naming a bad name, places, hours, id or
    secret.

    >>> t = issue_token(b"0123456789abcdef", "4B", 40, 4, now=0)
    >>> v = verify_token(b"0123456789abcdef", t, now=3600)
    >>> (v.name, v.places, v.expires)
    ('4B', 40, 14400.0)
    """
    if len(secret) < 16:
        raise MusError(f"the admission secret must be 16 bytes or more, not {len(secret)}")
    if not name.strip() or len(name) > 80:
        raise MusError(f"the class name must be 1 to 80 characters, not {name!r}")
    if not 1 <= places <= 10_000:
        raise MusError(f"--places must be between 1 and 10000, not {places}")
    if not 0 < hours <= MAX_TOKEN_HOURS:
        raise MusError(f"--hours must be more than 0 and at most {MAX_TOKEN_HOURS}, not {hours}")
    if token_id is not None and (len(token_id) != 16 or any(c not in "0123456789abcdef" for c in token_id)):
        raise MusError(f"the admission token id must be 16 hex digits, not {token_id!r}")
    start = time.time() if now is None else now
    body = {"n": name.strip(), "p": places, "e": round(start + hours * 3600), "i": token_id or secrets.token_hex(8)}
    payload = _b64(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    return f"{_PREFIX}.{payload}.{_sign(secret, payload)}"


def verify_token(secret: bytes, token: str, *, now: float | None = None) -> AdmissionToken:
    """The :class:`AdmissionToken` that ``token`` carries, once its signature (by ``secret``) and expiry (against
    ``now``, UNIX seconds) are checked. Raises :class:`~musteach.rules.errors.MusError` for a token that is
    malformed, not signed by this secret, or expired (the message says which, never the secret)."""
    if not isinstance(token, str) or len(token) > _MAX_TOKEN_CHARS:
        raise MusError("the admission token is malformed")
    prefix, _, rest = token.partition(".")
    payload, _, signature = rest.partition(".")
    if prefix != _PREFIX or not payload or not signature:
        raise MusError("the admission token is malformed")
    try:
        good = hmac.compare_digest(_sign(secret, payload), signature)
    except (TypeError, ValueError):
        good = False
    if not good:
        raise MusError("the admission token is not signed by this server")
    try:
        body = json.loads(_unb64(payload).decode("utf-8"))
        name, places, expires, token_id = str(body["n"]), int(body["p"]), float(body["e"]), str(body["i"])
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise MusError("the admission token is malformed") from None
    if (time.time() if now is None else now) >= expires:
        raise MusError(f"the admission token of {name!r} has expired")
    return AdmissionToken(name, places, expires, token_id)


def host_key(secret: bytes) -> str:
    """The host's own key (for ``/musteach/api/places``, what the server holds and counts): derived from the
    secret, so that whoever holds the secret file holds it too."""
    return _b64(hmac.new(secret, b"musteach-host-key", hashlib.sha256).digest())


def proxy_key(secret: bytes) -> str:
    """The key a proxy on the server's own machine sends (``X-Musteach-Proxy``, :mod:`musteach_server.proxies`)
    to have its ``X-Forwarded-*`` headers believed: derived from the secret, like :func:`host_key`."""
    return _b64(hmac.new(secret, b"musteach-proxy-key", hashlib.sha256).digest())


def address_key(address: str) -> str:
    """The key an address is counted under: an IPv4 address itself, an IPv6 address its /64 network (one
    client or home holds a whole /64), anything else as given.

    >>> address_key("203.0.113.9"), address_key("2001:db8:1:2:3:4:5:6")
    ('203.0.113.9', '2001:db8:1:2::/64')
    """
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


class Decision(Enum):
    """The answer of :meth:`Admission.decide`."""

    SEATED = "seated"  # a place is the visitor's (the gate may still find the room full)
    ADDRESS_FULL = "address_full"  # an anonymous visitor whose address holds its most kernels (429)
    CLASS_FULL = "class_full"  # a token's places are all taken by other sessions (429)
    RESERVED = "reserved"  # an anonymous visitor: the free places are reserved for classes (503)


#: How long a class's unused places stay reserved after its last visitor's kernel went (seconds): a class
#: between two lessons, or at its break, keeps its places; a class gone home does not hold them till the
#: token expires (a school day), locking anonymous visitors out.
RESERVE_IDLE = 20 * 60.0


@dataclass
class Admission:
    """The places of a server: ``max_kernels`` in all, ``per_address`` kernels an anonymous address (0: no
    limit). ``kernels`` maps each visitor's kernel to ``(session, address key, token id or "")``; ``tokens`` the
    tokens seen (token id -> token), whose unused places are reserved while the token is in use: some visitor
    holds a kernel under it, or held one less than :data:`RESERVE_IDLE` seconds ago (``last_used``: token id ->
    UNIX time), and until the token expires."""

    max_kernels: int
    per_address: int = 0
    kernels: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    tokens: dict[str, AdmissionToken] = field(default_factory=dict)
    last_used: dict[str, float] = field(default_factory=dict)

    def bind(self, kernel_id: str, session: str, address: str, token: AdmissionToken | None,
             now: float | None = None) -> None:
        """``kernel_id`` now belongs to ``session`` from ``address``, under ``token`` (None: anonymous)."""
        if token is not None:
            self.tokens.setdefault(token.token_id, token)
            self.last_used[token.token_id] = time.time() if now is None else now
        self.kernels[kernel_id] = (session, address_key(address), token.token_id if token else "")

    def rebind(self, kernel_id: str, session: str) -> None:
        """``kernel_id``'s page claimed it for ``session`` (its owned session): same address and token."""
        if kernel_id in self.kernels:
            _, address, token_id = self.kernels[kernel_id]
            self.kernels[kernel_id] = (session, address, token_id)

    def release(self, kernel_id: str, now: float | None = None) -> None:
        """The kernel stopped: its place is free (its token, if any, was in use until now)."""
        gone = self.kernels.pop(kernel_id, None)
        if gone is not None and gone[2]:
            self.last_used[gone[2]] = time.time() if now is None else now

    def sessions_of(self, token_id: str) -> set[str]:
        """The sessions holding a kernel under the token."""
        return {s for s, _, t in self.kernels.values() if t == token_id}

    def reserved(self, now: float | None = None) -> int:
        """Places held back for the tokens seen: each unexpired token in use (a kernel under it now, or less
        than :data:`RESERVE_IDLE` seconds ago) keeps its places not yet taken by a session."""
        clock = time.time() if now is None else now
        for token_id in [t for t, tok in self.tokens.items() if tok.expires <= clock]:
            del self.tokens[token_id]
            self.last_used.pop(token_id, None)
        held = 0
        for tid, tok in self.tokens.items():
            seated = len(self.sessions_of(tid))
            if seated or clock - self.last_used.get(tid, clock) <= RESERVE_IDLE:
                held += max(0, tok.places - seated)
        return held

    def decide(self, session: str, address: str, token: AdmissionToken | None, taken: int,
               releasing: Iterable[str] = (), now: float | None = None) -> Decision:
        """Whether ``session`` from ``address`` (with ``token``, or None) may have one more place, when ``taken``
        places of ``max_kernels`` are taken (pools included) and the session's kernels ``releasing`` are about
        to be released for it (they count as free)."""
        freed = set(releasing)
        if token is not None:
            self.tokens.setdefault(token.token_id, token)
            self.last_used.setdefault(token.token_id, time.time() if now is None else now)
            seated = self.sessions_of(token.token_id)
            if session in seated or len(seated) < token.places:
                return Decision.SEATED
            return Decision.CLASS_FULL
        key = address_key(address)
        if self.per_address:
            held = [k for k, (_, a, t) in self.kernels.items() if a == key and not t and k not in freed]
            if len(held) >= self.per_address:
                return Decision.ADDRESS_FULL
        reserved = self.reserved(now)
        if reserved and taken - len(freed) + reserved >= self.max_kernels:
            return Decision.RESERVED
        return Decision.SEATED
