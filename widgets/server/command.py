"""``musteach serve``: the lessons in Voilà for a whole class, on one server.

Registered as the ``serve`` subcommand through the ``musteach.commands`` entry point; like the modules of
:mod:`musteach.commands` it offers ``add_parser(sub)`` and ``run(args) -> int``. Voilà is imported only when
the command runs. Bad options exit with status 2 and one line (a :class:`~musteach.rules.errors.MusError`).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from pathlib import Path

from musteach.rules.errors import MusError

from .lessons import Lesson, find_lessons_dir, list_lessons

__all__ = ["DEFAULTS", "add_parser", "parse_pools", "read_secret", "run"]

#: Defaults of the options (a room of up to 40 learners on a small server).
DEFAULTS = {"host": "127.0.0.1", "port": 8866, "max_kernels": 40, "cull_idle": 900, "pool_size": 1, "per_session": 3,
            "per_address": 0, "waiting_per_address": 4, "connect_timeout": 25}


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "serve",
        help="serve the lessons with Voilà for a class (code hidden, one kernel per visitor)",
        description=(
            "Serve the lessons with Voilà: every visitor gets a kernel of their own (taken from a pool started "
            "in advance), sources and tracebacks are hidden, pages may only send widget messages, idle kernels "
            "are stopped, and beyond --max-kernels visitors see a 'busy, try again shortly' page."
        ),
    )
    p.add_argument("--host", default=DEFAULTS["host"], help="address to listen on (default %(default)s; 0.0.0.0 for a room)")
    p.add_argument("--port", type=int, default=DEFAULTS["port"], help="port (default %(default)s)")
    p.add_argument("--lessons", default=None, help="lessons folder (default ./lessons)")
    p.add_argument(
        "--max-kernels", type=int, default=DEFAULTS["max_kernels"], metavar="N",
        help="most visitors' kernels at once; more visitors get the busy page (default %(default)s)",
    )
    p.add_argument(
        "--cull-idle", type=int, default=DEFAULTS["cull_idle"], metavar="SECONDS",
        help="stop a visitor's kernel after this many seconds without activity, tab open or not; 0: never "
        "(default %(default)s)",
    )
    p.add_argument(
        "--pool-size", type=int, default=DEFAULTS["pool_size"], metavar="N",
        help="kernels kept started, lesson run, for each lesson; 0: start kernels on demand (default %(default)s)",
    )
    p.add_argument(
        "--pool", action="append", default=[], metavar="LESSON=N",
        help="kernels preheated for one lesson instead (repeatable), e.g. --pool 03=20 before a class starts "
        "lesson 3; LESSON is the file name, with or without .ipynb, or its number",
    )
    p.add_argument(
        "--per-session", type=int, default=DEFAULTS["per_session"], metavar="N",
        help="most kernels one visitor (browser session) holds; opening one more releases their oldest "
        "(default %(default)s)",
    )
    p.add_argument(
        "--per-address", type=int, default=DEFAULTS["per_address"], metavar="N",
        help="most kernels one address holds; 0: no limit (default %(default)s). Behind a proxy, name it with "
        "--trusted-proxy so that X-Forwarded-For gives the visitor's address",
    )
    p.add_argument(
        "--waiting-per-address", type=int, default=DEFAULTS["waiting_per_address"], metavar="N",
        help="most kernels one address holds whose page has not connected yet; real pages connect within "
        "seconds, so a class behind one address never reaches it; 0: no limit (default %(default)s)",
    )
    p.add_argument(
        "--connect-timeout", type=int, default=DEFAULTS["connect_timeout"], metavar="SECONDS",
        help="a kernel whose page has not connected this long after it was opened is stopped, freeing its "
        "place (default %(default)s)",
    )
    p.add_argument(
        "--trusted-proxy", action="append", default=[], metavar="ADDRESS",
        help="a reverse proxy (address or network, repeatable) whose X-Forwarded-For and X-Forwarded-Proto "
        "headers are believed; no other client's are",
    )
    p.add_argument(
        "--secret-file", default=None, metavar="PATH",
        help="file holding the secret that signs session cookies (share it between instances behind one "
        "proxy; default: a random secret per start). Or set MUSTEACH_SECRET",
    )
    p.add_argument("--base-url", default="/", help="URL prefix the tutor is served under (default %(default)s)")
    return p


def parse_pools(specs: list[str], lessons: list[Lesson]) -> dict[str, int]:
    """``["03=20"]`` -> ``{"03-grande-chica.ipynb": 20}``: the lesson (file name, name without ``.ipynb``
    or number) and its pool size. Raises :class:`~musteach.rules.errors.MusError` naming a bad spec."""
    pools: dict[str, int] = {}
    for spec in specs:
        name, sep, count = spec.partition("=")
        if not sep or not count.strip().isdigit():
            raise MusError(f"--pool wants LESSON=N (N kernels, 0 or more), not {spec!r}")
        key = name.strip()
        found = [ls for ls in lessons if key in (ls.path, ls.stem) or (key.isdigit() and int(key) == ls.number)]
        if len(found) != 1:
            raise MusError(f"--pool {spec!r}: no lesson {key!r} (lessons: {', '.join(ls.stem for ls in lessons)})")
        pools[found[0].path] = int(count)
    return pools


def _check(args: argparse.Namespace) -> None:
    if not 0 <= args.port <= 65535:
        raise MusError(f"--port must be between 0 and 65535, not {args.port}")
    if args.max_kernels < 1:
        raise MusError(f"--max-kernels must be 1 or more, not {args.max_kernels}")
    if args.cull_idle < 0:
        raise MusError(f"--cull-idle must be 0 (never) or a number of seconds, not {args.cull_idle}")
    if args.pool_size < 0:
        raise MusError(f"--pool-size must be 0 or more, not {args.pool_size}")
    if args.per_session < 1:
        raise MusError(f"--per-session must be 1 or more, not {args.per_session}")
    if args.per_address < 0:
        raise MusError(f"--per-address must be 0 (no limit) or more, not {args.per_address}")
    if args.waiting_per_address < 0:
        raise MusError(f"--waiting-per-address must be 0 (no limit) or more, not {args.waiting_per_address}")
    if args.connect_timeout < 1:
        raise MusError(f"--connect-timeout must be 1 second or more, not {args.connect_timeout}")
    for proxy in args.trusted_proxy:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise MusError(f"--trusted-proxy wants an address or network, not {proxy!r}") from None
    if not args.base_url.startswith("/"):
        raise MusError(f"--base-url must start with /, not {args.base_url!r}")


def read_secret(path: str | None) -> bytes | None:
    """The cookie-signing secret: the file's content (stripped), else ``$MUSTEACH_SECRET``, else None (a random
    one). Raises :class:`~musteach.rules.errors.MusError` for an unreadable or short (< 16 bytes) secret."""
    if path is not None:
        try:
            secret = Path(path).read_bytes().strip()
        except OSError as e:
            raise MusError(f"--secret-file {path}: {e.strerror or e}") from None
    else:
        secret = os.environ.get("MUSTEACH_SECRET", "").strip().encode()
        if not secret:
            return None
    if len(secret) < 16:
        raise MusError(f"the session secret must be 16 bytes or more, not {len(secret)}")
    return secret


def run(args: argparse.Namespace) -> int:
    _check(args)
    folder = find_lessons_dir(args.lessons)
    lessons = list_lessons(folder)
    pools = parse_pools(args.pool, lessons)
    try:
        from .app import ServeOptions, serve
    except ImportError as e:
        raise MusError(f"Voilà is not installed ({e.name}): run `make tutor`, or pip install 'musteach[tutor]'") from None
    return serve(
        ServeOptions(
            lessons_dir=folder,
            lessons=lessons,
            host=args.host,
            port=args.port,
            max_kernels=args.max_kernels,
            cull_idle=args.cull_idle,
            pool_size=args.pool_size,
            pools=pools,
            per_session=args.per_session,
            per_address=args.per_address,
            waiting_per_address=args.waiting_per_address,
            connect_timeout=args.connect_timeout,
            trusted_proxies=frozenset(args.trusted_proxy),
            secret=read_secret(args.secret_file),
            base_url="/" + args.base_url.strip("/") + "/" if args.base_url.strip("/") else "/",
        )
    )
