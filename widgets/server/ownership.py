"""Sessions that a page on another port cannot plant, without TLS (issue 26).

Cookies ignore ports: a page served on another port of the same host (``http://host:8080``) can set the
tutor's session cookie before a first visit, with a session id the planter got from the tutor for themselves
(cookie tossing). Over TLS the ``__Host-`` prefix prevents it; over plain HTTP nothing in a cookie can. What the
planter cannot reach is the tutor's origin-bound storage: ``localStorage`` belongs to scheme, host *and* port.

So a visitor's session is the pair (session id, owner): the page keeps a random *proof* in its origin's
``localStorage`` and claims its kernel with it (``POST /musteach/api/claim``, with the xsrf token, from the
page's script). The server answers with an HttpOnly *owner* cookie (:data:`OWNER_COOKIE`: the session id and
the proof's HMAC under the server's secret, signed) and moves that kernel, and only it, to the session
``<id>.<owner>`` (:func:`owned_session`). A planted session id thus never owns the victim's kernels: the
planter holds the id, perhaps an owner cookie of their own, but not the victim's proof, and cannot read the
HttpOnly owner cookie the victim's browser got. The session cookie itself never changes, so the nginx recipe
still routes every request of a visitor by it to the same instance (the owner cookie is signed with the
secret the instances share).

Between the page's request and its claim (a second) the kernel belongs to the cookie's session as before;
a page's first websocket may connect before the claim lands, so the old session keeps the kernel until that
websocket connects (:meth:`~musteach_server.guard.Sessions.claim`). Clients without script (the visitor
simulator, curl) never claim: their sessions work as before, unowned.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Any

import tornado.web
from jupyter_server.base.handlers import JupyterHandler

from .guard import OWNER_COOKIE, Sessions, is_https, owner_cookie_name, session_cookie_name

__all__ = ["CLAIM_PATH", "ClaimHandler", "owned_session", "owner_tag", "session_ids"]

#: Where a page claims its kernel with its proof (relative to the base URL).
CLAIM_PATH = "musteach/api/claim"

_PROOF = re.compile(r"[0-9A-Za-z_-]{16,128}")


def owner_tag(secret: bytes, proof: str) -> str:
    """The owner part of a session for the page's ``proof`` (16 to 128 characters of ``[0-9A-Za-z_-]``): its
    HMAC-SHA256 under ``secret``, 22 url-safe base64 characters. Raises ValueError for another proof.

    >>> len(owner_tag(b"k" * 32, "a" * 32)), owner_tag(b"k" * 32, "a" * 32) == owner_tag(b"x" * 32, "a" * 32)
    (22, False)
    """
    if not isinstance(proof, str) or not _PROOF.fullmatch(proof):
        raise ValueError("a claim's proof is 16 to 128 characters of letters, digits, - and _")
    digest = hmac.new(secret, b"musteach-owner:" + proof.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")[:22]


def owned_session(session_id: str, owner: str | None) -> str:
    """The session a request acts as: ``<id>.<tag>`` when its owner cookie's value (``<id>:<tag>``) names the
    same session id, else the bare ``session_id`` (no owner, or an owner cookie of another session).

    >>> owned_session("ab12", "ab12:T0k"), owned_session("ab12", "ff00:T0k"), owned_session("ab12", None)
    ('ab12.T0k', 'ab12', 'ab12')
    """
    if owner:
        sid, _, tag = owner.partition(":")
        if sid == session_id and tag:
            return f"{session_id}.{tag}"
    return session_id


def _signed(request: Any, name: str, signed_as: str, secret: bytes) -> str | None:
    morsel = request.cookies.get(name)
    if morsel is None:
        return None
    value = tornado.web.decode_signed_value(secret, signed_as, morsel.value, max_age_days=2)
    return value.decode("ascii", "replace") if value else None


def session_ids(request: Any, secret: bytes, https: bool) -> tuple[str | None, str | None]:
    """(the session id of the request's signed session cookie, the session it acts as with its owner cookie);
    (None, None) without a session cookie signed by us. Over TLS (``https``) only the ``__Host-`` cookies
    count."""
    from .guard import SESSION_COOKIE

    sid = _signed(request, session_cookie_name(https), SESSION_COOKIE, secret)
    if not sid:
        return None, None
    return sid, owned_session(sid, _signed(request, owner_cookie_name(https), OWNER_COOKIE, secret))


class ClaimHandler(JupyterHandler):
    """``POST /musteach/api/claim`` (form: ``kernel``, ``proof``, ``_xsrf``): the page claims its kernel with
    the proof from its origin's storage. 204 and an owner cookie: the kernel is now the session
    ``<id>.<owner>``'s; 403: the kernel is not the request's session's; 400: no valid proof."""

    def initialize(self, **kwargs: Any) -> None:
        pass

    def post(self) -> None:
        secret: bytes = self.settings["musteach_secret"]
        trusted: frozenset[str] = self.settings.get("musteach_trusted", frozenset())
        https = is_https(self.request.protocol, self.request.remote_ip or "",
                         self.request.headers.get("X-Forwarded-Proto"), trusted)
        sid, acting = session_ids(self.request, secret, https)
        kernel_id = self.get_body_argument("kernel", "")
        try:
            tag = owner_tag(secret, self.get_body_argument("proof", ""))
        except ValueError:
            raise tornado.web.HTTPError(400) from None
        if sid is None or acting is None:
            raise tornado.web.HTTPError(403)
        owned = f"{sid}.{tag}"
        gate = self.settings["musteach_gate"]
        sessions: Sessions = gate.sessions
        if acting != owned:
            if not sessions.claim(kernel_id, acting, owned):
                raise tornado.web.HTTPError(403)
            gate.admission.rebind(kernel_id, owned)
            signed = tornado.web.create_signed_value(secret, OWNER_COOKIE, f"{sid}:{tag}")
            self.set_cookie(owner_cookie_name(https), signed.decode("ascii"), httponly=True, samesite="Lax",
                            secure=https, path="/" if https else self.base_url)
        elif not sessions.owns(owned, kernel_id):
            raise tornado.web.HTTPError(403)
        self.set_header("Cache-Control", "no-store")
        self.set_status(204)
        self.finish()
