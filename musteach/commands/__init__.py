"""Subcommands of the ``musteach`` command line (see :mod:`musteach.cli`)."""
