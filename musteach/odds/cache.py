"""The discard advisor's table under la real, kept on disk between processes (RULES.md §3, §7, §13).

Without la real the advisor reads the tables shipped with the package (:mod:`musteach.odds.tables`); this
cache serves the la real options, which no shipped table covers.

:func:`musteach.odds.advisor.advise_discard` needs, for the seat's distance from mano, the team's wins
and en-paso stones of every possible hand (:func:`~musteach.odds.enumeration.count_all_hands`). Counting
them takes a second or two in 8 reyes, and each Voilà visitor runs its own kernel, so the table is
written once to the user cache folder and read back by later processes. :func:`advisor_table` also keeps
it in memory for the process.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path

from . import enumeration
from .enumeration import HandsTable, count_all_hands

__all__ = ["advisor_table", "cache_path"]

_CACHE_VERSION = 1


def _engine_digest() -> str:
    """A digest of the sources that count and store the table: a changed engine never reads older numbers."""
    sha = hashlib.sha256()
    for source in (enumeration.__file__, __file__):
        sha.update(Path(source).read_bytes())
    return sha.hexdigest()[:16]


def cache_path(kings: int, la_real: str | None, pos0: int) -> Path | None:
    """Where the advisor's table for one position is kept between processes, or None when caching is off.

    kings: 8 or 4; la_real: None or a ``Rules.la_real_figure``; pos0: the seat's distance from mano (0..3).
    The folder is ``$MUSTEACH_CACHE_DIR`` or the user cache folder (platformdirs); ``MUSTEACH_CACHE_DIR=off``
    turns the disk cache off. The file name carries a digest of the counting engine's source
    (:mod:`musteach.odds.enumeration` and this module), so a changed engine never reads numbers counted
    by an older one.
    """
    where = os.environ.get("MUSTEACH_CACHE_DIR")
    if where == "off":
        return None
    if not where:
        import platformdirs

        where = platformdirs.user_cache_dir("musteach")
    return Path(where) / f"advisor-v{_CACHE_VERSION}-{kings}-{la_real}-{pos0}-{_engine_digest()}.json"


@lru_cache(maxsize=8)
def advisor_table(kings: int, la_real: str | None, pos0: int) -> HandsTable:
    """:func:`~musteach.odds.enumeration.count_all_hands`, kept on disk between processes and in memory.

    A missing or damaged file is counted again and rewritten; a read-only cache folder only costs the
    count. Returns ``{multiset: (team wins, stones)}`` per lance (see
    :data:`~musteach.odds.enumeration.HandsTable`).
    """
    path = cache_path(kings, la_real, pos0)
    if path is not None:
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
            return {tuple(k): (tuple(t), tuple(st)) for k, t, st in rows}
        except (OSError, ValueError, TypeError):
            pass  # missing or damaged: count again and rewrite it
    table = count_all_hands(kings, la_real, pos0)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump([[list(k), [int(x) for x in t], [int(x) for x in st]] for k, (t, st) in table.items()], f)
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only home is fine: the table is simply counted again next time
    return table
