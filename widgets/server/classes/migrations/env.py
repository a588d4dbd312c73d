"""Alembic's environment for the class database: the engine comes from :func:`musteach_server.classes.migrate.config`."""

from __future__ import annotations

from alembic import context

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    context.configure(connection=connection, render_as_batch=True)
    context.run_migrations()
