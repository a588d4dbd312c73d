"""The ``musteach`` command: ``judge`` deals, ``count`` hands, ``serve`` the tutorial.

Each subcommand lives in :mod:`musteach.commands` as a module with ``add_parser(subparsers)`` and
``run(args) -> int``. Bad input exits with status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .errors import MusError

COMMANDS = ("judge", "count", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="musteach", description="The Mus tutor's command line.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f"musteach.commands.{name}")
        except ModuleNotFoundError as e:  # a command not built yet
            if e.name != f"musteach.commands.{name}":
                raise
            continue
        p = mod.add_parser(sub)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except MusError as e:
        print(f"musteach {args.command}: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
