"""The ``musteach`` command: ``judge`` deals, ``count`` hands, ``grade`` answers, ``serve`` the tutorial.

Each subcommand lives in :mod:`musteach.commands` as a module with ``add_parser(subparsers)`` and
``run(args) -> int``; other packages add subcommands with such a module registered in the entry-point group
``musteach.commands`` (``serve`` comes from ``musteach_server.command``, so that musteach itself never
imports Jupyter). Bad input exits with status 2 and one line on stderr, never a traceback.

A subcommand that speaks calls :func:`add_lang_option` on its parser; :func:`main` then runs it inside
``speaking(lang)`` (so every sentence, and every error message, is in that language) and :func:`spoken` gives
the checked language code to pass on explicitly. ``--lang`` with no catalog exits with status 2 naming it.

The parsers are built speaking :func:`help_lang` (``--lang``, else the environment's ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES`` or ``LANG``), so ``musteach --help`` and ``musteach judge --help`` give our own help texts in that
language: a command's ``add_parser`` writes each help through ``translator()``, and its description is
:func:`musteach.commands.help_words.description`. argparse's own words ("usage:", "options", "the following
arguments are required", "invalid choice") are in that language too: argparse looks them up in gettext's
process-wide domain, which :func:`~musteach.commands.help_words.argparse_speaking` points at the tutor's
catalogs while the parser is built and the arguments are read (the command is its own process).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from itertools import pairwise

# The commands use numpy for bulk work, never its BLAS: one BLAS thread saves OpenBLAS's start-up of a thread
# and its buffers per core (about 70 ms of CPU on the 2-core test machine). A value already set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .commands.help_words import argparse_speaking
from .commands.plugin_words import translate_parser
from .i18n import SOURCE_LANG, check_lang, languages, speaking, translator
from .rules.errors import MusError

__all__ = ["COMMANDS", "LOCALE_VARIABLES", "PLUGIN_GROUP", "add_lang_option", "build_parser", "help_lang", "main", "spoken"]

COMMANDS = ("judge", "count", "grade")
PLUGIN_GROUP = "musteach.commands"


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    """Give a subcommand the ``--lang LANG`` option: the language of its sentences and error messages (a code
    such as ``es``; English by default). :func:`main` checks it and runs the command speaking it."""
    _ = translator()
    parser.add_argument(
        "--lang",
        metavar="LANG",
        default=None,
        help=_("language of the sentences and error messages: {languages} (English by default; see musteach/locale)",
               languages=", ".join(languages())),
    )


def spoken(args: argparse.Namespace) -> str:
    """The language code a command's arguments ask for: ``args.lang`` checked, English when the command has
    no ``--lang`` or it was not given. Raises :class:`~musteach.rules.errors.LanguageError` naming a language
    with no catalog."""
    lang = getattr(args, "lang", None)
    return SOURCE_LANG if lang is None else check_lang(lang)


#: The environment variables that name the user's language, in the order gettext reads them.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def help_lang(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language of the help texts: ``--lang`` in ``argv`` when it names a language the tutor speaks, else
    the first of :data:`LOCALE_VARIABLES` in ``environ`` (default ``os.environ``) that names one
    (``LANG=es_ES.UTF-8`` is Spanish), else English. Never raises: a bad ``--lang`` is named when it is used.

    >>> help_lang(["judge", "--lang", "es"], {}), help_lang(["judge"], {"LANG": "es_ES.UTF-8"})
    ('es', 'es')
    >>> help_lang(["judge", "--lang=en"], {"LANG": "es_ES.UTF-8"}), help_lang([], {"LANG": "C.UTF-8"})
    ('en', 'en')
    """
    given = [b if a == "--lang" else a.partition("=")[2] for a, b in pairwise([*argv, ""]) if a == "--lang" or a.startswith("--lang=")]
    env = os.environ if environ is None else environ
    named = [env.get(v, "").split(":")[0].split(".")[0] for v in LOCALE_VARIABLES]
    for code in (*given[-1:], *named):
        try:
            return check_lang(code)
        except MusError:
            continue
    return SOURCE_LANG


def build_parser(load: str | None = None) -> argparse.ArgumentParser:
    """The parser, its help texts in the language being spoken (see :func:`help_lang`). Plug-in subcommands
    are imported only when ``load`` names them (or ``load`` is ``"*"``), so that ``musteach judge`` never
    imports the Jupyter stack a plug-in such as ``serve`` needs."""
    _ = translator()
    parser = argparse.ArgumentParser(prog="musteach", description=_("The Mus tutor's command line."))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # a built-in command chosen: only its module is imported (``musteach judge`` needs no count or grade)
    for name in (load,) if load in COMMANDS else COMMANDS:
        try:
            mod = importlib.import_module(f"musteach.commands.{name}")
        except ModuleNotFoundError as e:  # a command not built yet
            if e.name != f"musteach.commands.{name}":
                raise
            continue
        p = mod.add_parser(sub)
        p.set_defaults(run_command=mod.run)
    if load in COMMANDS:  # a built-in command was chosen: reading the plug-ins' metadata would cost ~0.1 s
        return parser
    from importlib.metadata import entry_points

    for ep in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        if ep.name in sub.choices:  # a built-in command keeps its name
            continue
        if load not in (ep.name, "*"):
            sub.add_parser(ep.name, help=_("see `musteach {command} --help`", command=ep.name), add_help=False)
            continue
        try:
            mod = ep.load()
        except ImportError:  # its package's extra is not installed (e.g. serve without [tutor])
            continue
        p = mod.add_parser(sub)
        p.set_defaults(run_command=mod.run)
    translate_parser(parser)  # the plug-ins' help, written in English outside musteach
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in argv if not a.startswith("-")), None)
    collecting = gc.isenabled()
    if chosen in COMMANDS:  # a short run over data whose objects hold no cycles worth collecting for
        gc.disable()
    try:
        words = help_lang(argv)
        with argparse_speaking(words):  # argparse's own words ("usage:", "options", its errors) too
            with speaking(words):  # the help texts of every parser
                parser = build_parser(load=chosen)
            args = parser.parse_args(argv)
        return _run(args)
    finally:
        if collecting:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    if not hasattr(args, "run_command"):  # a plug-in whose package is not installed
        print(f"musteach {args.command}: not available here; install musteach[tutor]", file=sys.stderr)
        return 2
    lang = SOURCE_LANG
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:  # text that cannot be encoded (a lone surrogate from a "\ud800" in the input) is
        reconfigure(errors="backslashreplace")  # written as its JSON escape, not a crash
    try:
        lang = spoken(args)
        with speaking(lang):
            return int(args.run_command(args) or 0)
    except MusError as e:
        print(f"musteach {args.command}: {e.message(lang)}", file=sys.stderr)
        return 2
    except RecursionError:
        _ = translator(lang)
        why = _("the input is nested too deeply to be a deal or a case")
        print(f"musteach {args.command}: {why}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
