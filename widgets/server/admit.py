"""``musteach admit``: a class link for ``musteach serve`` (an admission token, :mod:`musteach_server.admission`).

``musteach admit --name 4B --places 40 --hours 4 --secret-file /etc/musteach.secret --url https://tutor.example/``
prints the link the teacher hands out: up to 40 visitors who follow it are seated under the class's own quota,
whatever their address, and the server keeps places for them. ``musteach admit --proxy-key --secret-file ...``
prints instead the key a reverse proxy on the server's machine sends (:mod:`musteach_server.proxies`). The server must sign its cookies with the same
secret (``--secret-file`` or ``MUSTEACH_SECRET``). Registered through the ``musteach.commands`` entry point
(``add_parser(sub)``, ``run(args) -> int``); bad options raise :class:`~musteach.rules.errors.MusError`.
"""

from __future__ import annotations

import argparse
from urllib.parse import quote, urlsplit

from musteach.rules.errors import MusError

from .admission import ADMIT_PATH, issue_token, proxy_key
from .command import read_secret

__all__ = ["add_parser", "admission_link", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "admit",
        help="print a class link for musteach serve: its visitors get places of their own",
        description="Print a class link (a signed admission token) for a server started with the same secret.",
    )
    p.add_argument("--name", help="the class's name (shown to its visitors and in the log)")
    p.add_argument("--places", type=int, help="visitors seated at once under the link")
    p.add_argument("--hours", type=float, default=4.0, help="how long the link works (default %(default)s)")
    p.add_argument("--secret-file", default=None, metavar="PATH",
                   help="the server's --secret-file (or set MUSTEACH_SECRET)")
    p.add_argument("--url", default="http://localhost:8866/", help="the server's address (default %(default)s)")
    p.add_argument("--proxy-key", action="store_true",
                   help="print instead the key a proxy on the server's machine sends as X-Musteach-Proxy")
    return p


def admission_link(url: str, token: str) -> str:
    """The class link for ``token`` on the server at ``url`` (its base URL included). Raises
    :class:`~musteach.rules.errors.MusError` for a URL that is not http(s).

    >>> admission_link("https://tutor.example/mus", "mt1.x.y")
    'https://tutor.example/mus/musteach/admit?token=mt1.x.y'
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise MusError(f"--url wants the server's http(s) address, not {url!r}")
    return f"{url.rstrip('/')}/{ADMIT_PATH}?token={quote(token, safe='.-_')}"


def run(args: argparse.Namespace) -> int:
    secret = read_secret(args.secret_file)
    if secret is None:
        raise MusError("musteach admit needs the server's secret: --secret-file PATH or MUSTEACH_SECRET")
    if args.proxy_key:
        print(proxy_key(secret))
        return 0
    if not args.name or args.places is None:
        raise MusError("musteach admit needs --name and --places (or --proxy-key)")
    token = issue_token(secret, args.name, args.places, args.hours)
    print(admission_link(args.url, token))
    return 0
