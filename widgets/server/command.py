"""``musteach serve``: the lessons in Voilà for a whole class, on one server.

Registered as the ``serve`` subcommand through the ``musteach.commands`` entry point; like the modules of
:mod:`musteach.commands` it offers ``add_parser(sub)`` and ``run(args) -> int``. Voilà is imported only when
the command runs. Bad options exit with status 2 and one line (a :class:`~musteach.rules.errors.MusError`).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from musteach.rules.errors import MusError

from .lessons import Lesson, find_lessons_dir, lang_of, list_lessons, list_translations

__all__ = ["DEFAULTS", "INT_OPTIONS", "IntOption", "add_parser", "parse_pools", "read_secret", "run"]

@dataclass(frozen=True)
class IntOption:
    """One whole-number option of ``musteach serve``: its flag, default, bounds and help, checked in one place.

    low / high: the smallest and largest values allowed (high None: no upper bound); rule: how the error
    message states them ("must be 1 or more"). metavar: the value's name in ``--help`` (None: the flag's).
    """

    flag: str
    default: int
    low: int
    high: int | None
    rule: str
    help: str
    metavar: str | None = "N"

    @property
    def dest(self) -> str:
        """The attribute of the parsed arguments: ``--max-kernels`` -> ``max_kernels``."""
        return self.flag.removeprefix("--").replace("-", "_")

    def check(self, value: int) -> None:
        """Raise :class:`~musteach.rules.errors.MusError` naming the flag and ``value`` when it is out of bounds."""
        if value < self.low or (self.high is not None and value > self.high):
            raise MusError(f"{self.flag} must be {self.rule}, not {value}")


#: The whole-number options, in the order ``--help`` lists them (a room of up to 40 learners on a small server).
INT_OPTIONS: tuple[IntOption, ...] = (
    IntOption("--port", 8866, 0, 65535, "between 0 and 65535", "port (default %(default)s)", None),
    IntOption(
        "--max-kernels", 40, 1, None, "1 or more",
        "most visitors' kernels at once; more visitors get the busy page (default %(default)s)",
    ),
    IntOption(
        "--cull-idle", 900, 0, None, "0 (never) or a number of seconds",
        "stop a visitor's kernel after this many seconds without activity, tab open or not; 0: never "
        "(default %(default)s)", "SECONDS",
    ),
    IntOption(
        "--pool-size", 1, 0, None, "0 or more",
        "kernels kept started, lesson run, for each lesson; 0: start kernels on demand (default %(default)s)",
    ),
    IntOption(
        "--per-session", 3, 1, None, "1 or more",
        "most kernels one visitor (browser session) holds; opening one more releases their oldest "
        "(default %(default)s)",
    ),
    IntOption(
        "--per-address", -1, -1, None, "0 (no limit) or more",
        "most kernels one address holds without a class link (musteach admit); 0: no limit (default: half "
        "of --max-kernels, so that one client cannot take every place). Behind a proxy, name it with "
        "--trusted-proxy so that X-Forwarded-For gives the visitor's address",
    ),
    IntOption(
        "--waiting-per-address", 4, 0, None, "0 (no limit) or more",
        "most kernels one address holds whose page has not connected yet; real pages connect within "
        "seconds, so a class behind one address never reaches it; 0: no limit (default %(default)s)",
    ),
    IntOption(
        "--page-grace", 10, 1, None, "1 second or more",
        "a kernel whose page's websocket closed (tab closed without its beacon, connection lost) and did not "
        "come back within this many seconds is stopped, freeing its place (default %(default)s)", "SECONDS",
    ),
    IntOption(
        "--kernel-memory", 400, 0, None, "0 (no limit) or a number of MiB",
        "a visitor's kernel whose resident memory passes this many MiB is stopped and its page says so (a "
        "lesson kernel holds about 60); 0: no limit (default %(default)s)", "MIB",
    ),
    IntOption(
        "--connect-timeout", 25, 1, None, "1 second or more",
        "a kernel whose page has not connected this long after it was opened is stopped, freeing its "
        "place (default %(default)s)", "SECONDS",
    ),
)  # fmt: skip

#: Defaults of the options: ``host`` and every :data:`INT_OPTIONS` by its attribute name.
DEFAULTS: dict[str, str | int] = {"host": "127.0.0.1", **{o.dest: o.default for o in INT_OPTIONS}}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
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
    p.add_argument("--lessons", default=None, help="lessons folder (default: ./lessons if it holds lessons, else the lessons installed with the package)")
    for option in INT_OPTIONS:
        p.add_argument(option.flag, type=int, default=option.default, metavar=option.metavar, help=option.help)
    p.add_argument(
        "--pool", action="append", default=[], metavar="LESSON=N",
        help="kernels preheated for one lesson instead (repeatable), e.g. --pool 03=20 before a class starts "
        "lesson 3; LESSON is the file name, with or without .ipynb, or its number; es/03=20 is lesson 3 in "
        "Spanish (the lessons of the folder's es/ sub-folder)",
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
    p.add_argument(
        "--socket", default=None, metavar="PATH",
        help="listen on this Unix socket (mode 660) instead of --host/--port: behind a proxy on the same machine, "
        "only the proxy (the socket's group) can reach the server, and its X-Forwarded-For is believed",
    )
    p.add_argument("--base-url", default="/", help="URL prefix the tutor is served under (default %(default)s)")
    p.add_argument(
        "--database", default=None, metavar="URL",
        help="the classes' database (teachers, classes, learners' records): default SQLite in the user's data "
        "folder; postgresql+psycopg://USER:PASSWORD@HOST/NAME for several instances behind one proxy",
    )
    return p


def parse_pools(specs: list[str], lessons: list[Lesson]) -> dict[str, int]:
    """``["03=20", "es/03=5"]`` -> ``{"03-grande-chica.ipynb": 20, "es/03-grande-chica.ipynb": 5}``: the lesson
    (file name, name without ``.ipynb`` or number, after ``es/`` for the Spanish one) and its pool size.
    ``lessons``: every lesson served, in every language. Raises :class:`~musteach.rules.errors.MusError` naming
    a bad spec."""
    pools: dict[str, int] = {}
    offered = {ls.lang for ls in lessons}
    for spec in specs:
        name, sep, count = spec.partition("=")
        if not sep or not count.strip().isdigit():
            raise MusError(f"--pool wants LESSON=N (N kernels, 0 or more), not {spec!r}")
        key = name.strip()
        lang = lang_of(key, offered)
        key = key.removeprefix(f"{lang}/")
        mine = [ls for ls in lessons if ls.lang == lang]
        found = [ls for ls in mine if key in (ls.name, ls.stem) or (key.isdigit() and int(key) == ls.number)]
        if len(found) != 1:
            raise MusError(f"--pool {spec!r}: no lesson {key!r} (lessons: {', '.join(ls.stem for ls in mine)})")
        pools[found[0].path] = int(count)
    return pools


def _check(args: argparse.Namespace) -> None:
    for option in INT_OPTIONS:
        option.check(getattr(args, option.dest))
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
    translations = list_translations(folder)
    pools = parse_pools(args.pool, [*lessons, *(ls for tr in translations.values() for ls in tr)])
    try:
        from .app import ServeOptions, serve
    except ImportError as e:
        raise MusError(f"Voilà is not installed ({e.name}): run `make tutor`, or pip install 'musteach[tutor]'") from None
    return serve(
        ServeOptions(
            lessons_dir=folder,
            lessons=lessons,
            translations=translations,
            host=args.host,
            port=args.port,
            max_kernels=args.max_kernels,
            cull_idle=args.cull_idle,
            pool_size=args.pool_size,
            pools=pools,
            per_session=args.per_session,
            per_address=None if args.per_address < 0 else args.per_address,
            waiting_per_address=args.waiting_per_address,
            connect_timeout=args.connect_timeout,
            kernel_memory=args.kernel_memory,
            page_grace=args.page_grace,
            socket=args.socket,
            trusted_proxies=frozenset(args.trusted_proxy),
            secret=read_secret(args.secret_file),
            base_url="/" + args.base_url.strip("/") + "/" if args.base_url.strip("/") else "/",
            database=args.database,
        )
    )
