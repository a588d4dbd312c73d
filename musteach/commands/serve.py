"""``musteach serve``: the lessons in Voilà, code hidden, tracebacks hidden.

Voilà is started as a separate process so that musteach itself never imports Jupyter.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from ..errors import MusError


def lessons_dir(given: str | None = None) -> Path:
    """The lessons folder: ``given``, else ./lessons, else the one beside the package source."""
    candidates = [Path(given)] if given else [Path.cwd() / "lessons", Path(__file__).resolve().parents[2] / "lessons"]
    for c in candidates:
        if c.is_dir():
            return c.resolve()
    raise MusError(f"no lessons folder found (looked in {', '.join(str(c) for c in candidates)})")


def voila_argv(lessons: Path, host: str, port: int) -> list[str]:
    """The Voilà command line for the lessons folder."""
    return [
        sys.executable,
        "-m",
        "voila",
        str(lessons),
        f"--port={port}",
        f"--Voila.ip={host}",
        "--no-browser",
        "--strip_sources=True",
        "--show_tracebacks=False",
        "--VoilaConfiguration.file_allowlist=['.*\\.(png|jpg|gif|svg|css)']",
    ]


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("serve", help="serve the lessons with Voilà")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8866, help="port (default 8866)")
    p.add_argument("--lessons", default=None, help="lessons folder (default ./lessons)")
    return p


def run(args: argparse.Namespace) -> int:
    if shutil.which("voila") is None and not _has_voila():
        raise MusError("Voilà is not installed: run `make tutor`, or pip install 'musteach[tutor]'")
    argv = voila_argv(lessons_dir(args.lessons), args.host, args.port)
    print(f"musteach: serving the lessons on http://{'localhost' if args.host in ('127.0.0.1', '0.0.0.0') else args.host}:{args.port}/", flush=True)
    os.execv(argv[0], argv)
    return 0  # not reached


def _has_voila() -> bool:
    import importlib.util

    return importlib.util.find_spec("voila") is not None
