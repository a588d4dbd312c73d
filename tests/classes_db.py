"""Throwaway databases for the class tests and benchmark: SQLite in a temp folder, and a real PostgreSQL.

PostgreSQL (Debian's ``postgresql`` package, ``/usr/lib/postgresql/<version>/bin``) refuses to run as root, so
:class:`ThrowawayPostgres` runs ``initdb`` and ``pg_ctl`` as the ``postgres`` user (``runuser``) in a temp
folder, on a free port, trusting local connections; it is stopped and removed at the end. Tests use
:func:`postgres_or_skip`: missing PostgreSQL skips, except under ``CI=true`` where it fails.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

__all__ = ["ThrowawayPostgres", "free_port", "pg_bin", "postgres_or_skip"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (the newest installed), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def _as_postgres(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    cmd = args if os.geteuid() != 0 else ["runuser", "-u", "postgres", "--", *args]
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]


class ThrowawayPostgres:
    """A PostgreSQL cluster of its own: ``start()`` then ``url`` (database ``musteach``), ``stop()``."""

    def __init__(self) -> None:
        bindir = pg_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed (Debian package postgresql)")
        self.bin = bindir
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="musteach-pg-"))
        self.data = self.dir / "data"
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/musteach"

    def start(self) -> ThrowawayPostgres:
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        _as_postgres([str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                      "--no-sync", "-E", "UTF8"])
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        _as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", opts, "-w", "-l",
                      str(self.dir / "log"), "start"])
        for _ in range(50):
            try:
                _as_postgres([str(self.bin / "psql") if (self.bin / "psql").exists() else "psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-c",
                              "CREATE DATABASE musteach"])
                break
            except (subprocess.CalledProcessError, FileNotFoundError):
                time.sleep(0.2)
        return self

    def pause(self) -> None:
        """Stop the server (the database becomes unavailable), keeping its data."""
        _as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"])

    def resume(self) -> None:
        """Start it again after :meth:`pause`."""
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        _as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", opts, "-w", "-l",
                      str(self.dir / "log"), "start"])

    def stop(self) -> None:
        try:
            _as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def postgres_or_skip() -> ThrowawayPostgres:
    """A started throwaway PostgreSQL; skips without PostgreSQL, fails under ``CI=true``."""
    try:
        return ThrowawayPostgres().start()
    except (RuntimeError, subprocess.CalledProcessError, FileNotFoundError) as e:
        detail = getattr(e, "stderr", "") or str(e)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL is needed under CI: {detail}")
        pytest.skip(f"no PostgreSQL: {detail}")
