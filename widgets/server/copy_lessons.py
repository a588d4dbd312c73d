"""``musteach lessons DIR``: copy the lessons installed with the package into a folder, for JupyterLab.

Registered as the ``lessons`` subcommand through the ``musteach.commands`` entry point (``add_parser(sub)``
and ``run(args) -> int``). Pure Python: no Jupyter import. Existing files are kept unless ``--force``.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from musteach.rules.errors import MusError

from .lessons import packaged_lessons_dir

__all__ = ["add_parser", "copy_lessons", "run"]

#: What is copied: notebooks and the pictures and stylesheets they link to, in every sub-folder.
COPIED = ("*.ipynb", "*.png", "*.jpg", "*.svg", "*.css")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "lessons",
        help="copy the lessons (notebooks) into a folder, to open them in JupyterLab",
        description="Copy the lessons installed with musteach into DIR (sub-folders such as other languages "
        "included), e.g. `musteach lessons mus && jupyter lab mus/00-welcome.ipynb`.",
    )
    p.add_argument("dir", metavar="DIR", help="folder to copy the lessons into (created if missing)")
    p.add_argument("--force", action="store_true", help="overwrite lessons already in DIR")
    return p


def copy_lessons(dest: Path, *, force: bool = False, source: Path | None = None) -> list[Path]:
    """Copy the packaged lessons (or ``source``) into ``dest``; returns the files written, relative to
    ``dest``. Raises :class:`~musteach.rules.errors.MusError` when no lessons are installed, ``dest`` is a
    file, or (without ``force``) a lesson there would be overwritten."""
    src = source or packaged_lessons_dir()
    if src is None or not any(src.glob("[0-9][0-9]-*.ipynb")):
        raise MusError("no lessons are installed with this musteach (reinstall it: pip install 'musteach[tutor]')")
    if dest.exists() and not dest.is_dir():
        raise MusError(f"{dest} is a file, not a folder")
    files = sorted({f.relative_to(src) for pattern in COPIED for f in src.rglob(pattern)
                    if not any(part.startswith(".") for part in f.relative_to(src).parts)})
    clash = [f for f in files if (dest / f).exists()]
    if clash and not force:
        raise MusError(f"{dest / clash[0]} exists (and {len(clash) - 1} more): use --force to overwrite")
    for f in files:
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / f, dest / f)
    return files


def run(args: argparse.Namespace) -> int:
    dest = Path(args.dir)
    files = copy_lessons(dest, force=args.force)
    print(f"copied {len(files)} files into {dest}; open them with: jupyter lab {dest / files[0]}")
    return 0
