"""Subcommands of the ``musteach`` command line (see :mod:`musteach.cli`)."""

from __future__ import annotations

import sys

from ..rules.errors import MusError


def read_input(path: str) -> str:
    """The text of ``path``, or of standard input for ``"-"``; raises :class:`MusError` naming the file."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise MusError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise MusError(f"cannot read {path}: not UTF-8 text") from None
