"""The help of the plug-in commands (``serve``, ``lessons``, ``site``, ``teacher``, ``admit``) in the learner's
language.

The plug-ins live outside this package (``musteach_server``) and write their help in English; their sentences
are listed here so that the catalogs carry them (domain ``rules``), and :func:`translate_parser` puts a parser's
descriptions and helps into the language being spoken once every plug-in has added its parser (the command line
calls it: :func:`musteach.cli.build_parser`). A help this list does not hold stays English; a test checks that
every plug-in's help is listed, so that an English edit is seen.
"""

from __future__ import annotations

import argparse

from ..i18n import N_, SOURCE_LANG, translator

__all__ = ["PLUGIN_WORDS", "translate_parser"]

PLUGIN_WORDS: tuple[str, ...] = (
    N_('serve the lessons with Voilà for a class (code hidden, one kernel per visitor)'),
    N_("Serve the lessons with Voilà: every visitor gets a kernel of their own (taken from a pool started in advance), sources and tracebacks are hidden, pages may only send widget messages, idle kernels are stopped, and beyond --max-kernels visitors see a 'busy, try again shortly' page."),
    N_('address to listen on (default %(default)s; 0.0.0.0 for a room)'),
    N_('lessons folder (default: ./lessons if it holds lessons, else the lessons installed with the package)'),
    N_('port (default %(default)s)'),
    N_("most visitors' kernels at once; more visitors get the busy page (default %(default)s)"),
    N_("stop a visitor's kernel after this many seconds without activity, tab open or not; 0: never (default %(default)s)"),
    N_('kernels kept started, lesson run, for each lesson; 0: start kernels on demand (default %(default)s)'),
    N_('most kernels one visitor (browser session) holds; opening one more releases their oldest (default %(default)s)'),
    N_("most kernels one address holds without a class link (musteach admit); 0: no limit (default: half of --max-kernels, so that one client cannot take every place). Behind a proxy, name it with --trusted-proxy so that X-Forwarded-For gives the visitor's address"),
    N_('most kernels one address holds whose page has not connected yet; real pages connect within seconds, so a class behind one address never reaches it; 0: no limit (default %(default)s)'),
    N_("a kernel whose page's websocket closed (tab closed without its beacon, connection lost) and did not come back within this many seconds is stopped, freeing its place (default %(default)s)"),
    N_("a visitor's kernel whose resident memory passes this many MiB is stopped and its page says so (a lesson kernel holds about 60); 0: no limit (default %(default)s)"),
    N_('a kernel whose page has not connected this long after it was opened is stopped, freeing its place (default %(default)s)'),
    N_("kernels preheated for one lesson instead (repeatable), e.g. --pool 03=20 before a class starts lesson 3; LESSON is the file name, with or without .ipynb, or its number; es/03=20 is lesson 3 in Spanish (the lessons of the folder's es/ sub-folder)"),
    N_("a reverse proxy (address or network, repeatable) whose X-Forwarded-For and X-Forwarded-Proto headers are believed; no other client's are"),
    N_('file holding the secret that signs session cookies (share it between instances behind one proxy; default: a random secret per start). Or set MUSTEACH_SECRET'),
    N_("listen on this Unix socket (mode 660) instead of --host/--port: behind a proxy on the same machine, only the proxy (the socket's group) can reach the server, and its X-Forwarded-For is believed"),
    N_('URL prefix the tutor is served under (default %(default)s)'),
    N_("the classes' database (teachers, classes, learners' records): default SQLite in the user's data folder; postgresql+psycopg://USER:PASSWORD@HOST/NAME for several instances behind one proxy"),
    N_('copy the lessons (notebooks) into a folder, to open them in JupyterLab'),
    N_('Copy the lessons installed with musteach into DIR (sub-folders such as other languages included), e.g. `musteach lessons mus && jupyter lab mus/00-welcome.ipynb`.'),
    N_('folder to copy the lessons into (created if missing)'),
    N_('overwrite lessons already in DIR'),
    N_('build the tutorial as a static site that runs in the browser (JupyterLite and Pyodide)'),
    N_("Build DIR, a static site of every lesson in every language that runs in the visitor's browser with no server: publish DIR on any static host. Downloads (Pyodide from npm, wheels from PyPI) are kept in --cache, so a second build fetches nothing."),
    N_('folder to write the site into (replaced)'),
    N_('folder for the downloads (default: %(default)s)'),
    N_('the musteach project to build the wheel from (default: %(default)s)'),
    N_('the lessons folder (default: %(default)s)'),
    N_('add a teacher for class mode (prints their secret link)'),
    N_('Teachers of class mode: `musteach teacher add NAME` prints the secret link that opens their classes on the server (musteach serve).'),
    N_('add a teacher and print their secret link (a teacher of that name already there gets a new link instead: their classes stay, the lost link stops working)'),
    N_("the teacher's name, as their page shows it"),
    N_('also ask for a password when the link is opened (asked now, or read from $MUSTEACH_TEACHER_PASSWORD)'),
    N_("the classes' database, as given to musteach serve (default: SQLite in the user's data folder)"),
    N_("the server's address, to print the whole link (default %(default)s)"),
    N_('print a class link for musteach serve: its visitors get places of their own'),
    N_('Print a class link (a signed admission token) for a server started with the same secret.'),
    N_("the class's name (shown to its visitors and in the log)"),
    N_('visitors seated at once under the link'),
    N_('how long the link works (default %(default)s)'),
    N_("the server's --secret-file (or set MUSTEACH_SECRET)"),
    N_("the server's address (default %(default)s)"),
    N_("print instead the key a proxy on the server's machine sends as X-Musteach-Proxy"),
)
"""Every description and help the plug-in commands write, in English (the msgids)."""

_KNOWN = frozenset(PLUGIN_WORDS)


def translate_parser(parser: argparse.ArgumentParser) -> None:
    """Put ``parser``'s description and every argument's help, and those of its sub-commands (and theirs), into
    the language being spoken, where :data:`PLUGIN_WORDS` holds them. English changes nothing."""
    _ = translator()
    if _.lang == SOURCE_LANG:
        return

    def said(text: str | None) -> str | None:
        return _(text) if text in _KNOWN else text  # argparse fills %(default)s later, in either language

    parser.description = said(parser.description)
    for action in parser._actions:  # argparse keeps a parser's arguments only here
        action.help = said(action.help)
        if isinstance(action, argparse._SubParsersAction):  # its sub-commands, and the helps listed for them
            for choice in action._choices_actions:
                choice.help = said(choice.help)
            for sub in action.choices.values():
                translate_parser(sub)
