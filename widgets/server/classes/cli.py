"""``musteach teacher add NAME``: a teacher for class mode, and their secret link (printed once).

Registered as the ``teacher`` subcommand through the ``musteach.commands`` entry point (``add_parser(sub)``,
``run(args) -> int``). The link's key is stored as a digest only: a lost link is replaced by adding the teacher
again. ``--password`` asks for a password (twice, not echoed) that the link also asks for; it is stored as an
argon2 hash. ``--database`` is the one ``musteach serve`` uses (default SQLite in the user's data folder).
"""

from __future__ import annotations

import argparse
import getpass
import os

from musteach.rules.errors import MusError

__all__ = ["add_parser", "run", "teacher_link"]

#: Read instead of asking, when set (scripts and tests): the new teacher's password.
PASSWORD_ENV = "MUSTEACH_TEACHER_PASSWORD"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser("teacher", help="add a teacher for class mode (prints their secret link)",
                       description="Teachers of class mode: `musteach teacher add NAME` prints the secret link "
                       "that opens their classes on the server (musteach serve).")
    actions = p.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="add a teacher and print their secret link (a teacher of that name already "
                             "there gets a new link instead: their classes stay, the lost link stops working)")
    add.add_argument("name", help="the teacher's name, as their page shows it")
    add.add_argument("--password", action="store_true",
                     help=f"also ask for a password when the link is opened (asked now, or read from ${PASSWORD_ENV})")
    add.add_argument("--database", default=None, metavar="URL",
                     help="the classes' database, as given to musteach serve (default: SQLite in the user's data "
                     "folder)")
    add.add_argument("--url", default="http://localhost:8866/", metavar="URL",
                     help="the server's address, to print the whole link (default %(default)s)")
    return p


def teacher_link(url: str, key: str) -> str:
    """The teacher's secret link on the server at ``url``."""
    return url.rstrip("/") + f"/teach/login/{key}"


def _password() -> str:
    from_env = os.environ.get(PASSWORD_ENV)
    if from_env:
        return from_env
    first = getpass.getpass("Password: ")
    if not first or getpass.getpass("Password again: ") != first:
        raise MusError("the two passwords differ, or are empty: no teacher added")
    return first


def run(args: argparse.Namespace) -> int:
    from .db import ClassStore

    password = _password() if args.password else None
    store = ClassStore.open(args.database)
    try:
        again = store.teacher_named(args.name)
        teacher, key = store.add_teacher(args.name, password)
    finally:
        store.close()
    if again is not None:
        print(f"teacher {teacher.name!r} (id {teacher.id}) was already there: their classes stay, their old link "
              "no longer works. Their new secret link, shown only now:")
    else:
        print(f"teacher {teacher.name!r} added (id {teacher.id}). Their secret link, shown only now:")
    print(teacher_link(args.url, key))
    return 0
