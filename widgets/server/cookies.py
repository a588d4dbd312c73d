"""What a request's cookies say: the visitor's session (:func:`session_of`, signed), whether it came over TLS
(:func:`request_is_https`), and the class admission token it brings (:func:`admission_token_of`).

Moved out of :mod:`musteach_server.app` (issue 24 item 4).
"""

from __future__ import annotations

from typing import Any

from musteach.rules.errors import MusError

from .admission import ADMIT_COOKIE, AdmissionToken, verify_token
from .guard import is_https
from .ownership import session_ids

__all__ = ["COOKIE_PROBE", "admission_token_of", "request_is_https", "session_of"]

#: The query argument marking the redirect of a first visit (the session cookie was just set).
COOKIE_PROBE = "musteach-cookie"


def request_is_https(request: Any, trusted: frozenset[str]) -> bool:
    """Whether ``request`` came over TLS: directly, or through a trusted proxy that says so."""
    return is_https(request.protocol, request.remote_ip or "", request.headers.get("X-Forwarded-Proto"), trusted)


def session_of(request: Any, secret: bytes, trusted: frozenset[str] = frozenset()) -> str | None:
    """The session id of a request's signed session cookie, or None (no cookie, or not signed by us). Over TLS
    (``trusted``: the proxies whose ``X-Forwarded-Proto`` is believed) only the ``__Host-`` cookie counts, which
    no page of another port or subdomain can have planted."""
    # the session id, with the owner its pages proved from their origin's storage (musteach_server.ownership)
    return session_ids(request, secret, request_is_https(request, trusted))[1]


def admission_token_of(request: Any, secret: bytes) -> AdmissionToken | None:
    """The verified admission token of a request's :data:`~musteach_server.admission.ADMIT_COOKIE`, or None
    (no cookie, or a token that is malformed, forged or expired)."""
    morsel = request.cookies.get(ADMIT_COOKIE)
    if morsel is None:
        return None
    try:
        return verify_token(secret, morsel.value)
    except MusError:
        return None
