"""Class mode of ``musteach serve`` (issue 27): a teacher opens a class, learners join with a link, and the
teacher sees what each still gets wrong.

* :mod:`.db` — the database (SQLAlchemy 2 models and :class:`~.db.ClassStore`, the only code that touches it);
  SQLite in the user's data folder by default, PostgreSQL (psycopg 3) with ``--database``;
* :mod:`.migrate` and ``migrations/`` — the Alembic schema, upgraded on start;
* :mod:`.records` — the check every record passes (size, type, kind, fields);
* :mod:`.service` — kernel keys, which kernel serves which learner, the queue while the database is down;
* :mod:`.routes` — the tornado handlers (teacher, join, learner, kernels) and the server app's hooks;
* :mod:`.dashboard` — the pages as HTML (words from :mod:`musteach.teach.classes`), the CSV, the heat map;
* :mod:`.cli` — ``musteach teacher add NAME``.

The kernel's side is :mod:`musteach_widgets.class_sink`.
"""
