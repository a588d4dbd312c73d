"""Alembic, run from code: the class database's schema upgraded to the newest on start (``migrations/``).

The migration scripts ship inside the package (``musteach_server/classes/migrations``); no ``alembic.ini`` is
needed. :func:`upgrade` is what :meth:`~musteach_server.classes.db.ClassStore.open` calls; :func:`revision_of`
says which schema a database holds (None: empty).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Engine

__all__ = ["HEAD", "MIGRATIONS", "config", "revision_of", "upgrade"]

#: The folder of the migration scripts.
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The newest schema revision.
HEAD = "0003"


def config(engine: Engine) -> Config:
    """An Alembic configuration for ``engine`` (its connection is handed to ``env.py``)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["engine"] = engine
    return cfg


#: The PostgreSQL advisory lock held while migrating: instances starting together migrate one after the other.
LOCK_ID = 2_700_027


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to ``revision`` (default: the newest), from whatever it holds (empty included). On
    PostgreSQL the instances that start at once take turns (an advisory lock), so that one migrates and the
    others find the schema up to date."""
    if engine.dialect.name != "postgresql":
        command.upgrade(config(engine), revision)
        return
    with engine.connect() as lock:
        lock.execute(text("SELECT pg_advisory_lock(:id)"), {"id": LOCK_ID})
        try:
            command.upgrade(config(engine), revision)
        finally:
            lock.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": LOCK_ID})


def revision_of(engine: Engine) -> str | None:
    """The schema revision the database holds (None: not created yet)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
