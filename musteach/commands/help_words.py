"""The command line's words in the learner's language: argparse's own words and each command's description.

argparse writes "usage:", "positional arguments", "options", "show this help message and exit" and its error
messages through gettext's process-wide domain (``gettext.gettext``). Their msgids are listed here, so that the
catalogs carry them (domain ``rules``); :func:`argparse_speaking` points gettext at that domain, in the
language asked, while a command's parser is built and its arguments are read (the command is its own process,
so a process-wide domain is fine; the block puts everything back after it). RULES.md is not involved.

Each command's description (what its input and output are, without the implementation notes of its module's
docstring) is :func:`description`, in the language being spoken.
"""

from __future__ import annotations

import gettext
import os
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager

from ..i18n import LOCALE_DIR, N_, SOURCE_LANG, check_lang, plural_text, translator

__all__ = ["ARGPARSE_DOMAIN", "ARGPARSE_WORDS", "DESCRIPTIONS", "argparse_speaking", "description"]

ARGPARSE_DOMAIN = "rules"
"""The catalog (``musteach/locale/<lang>/LC_MESSAGES/rules.mo``) that holds argparse's words."""

ARGPARSE_WORDS: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
"""The msgids argparse (Python 3.11) looks up with ``gettext.gettext``; the catalogs translate them."""

_PLURAL_WORDS = plural_text("expected %s argument", "expected %s arguments", 2)  # argparse's ngettext msgids

DESCRIPTIONS: dict[str, tuple[str, ...]] = {
    "judge": (
        N_(
            "Input (a file, or standard input for - or no FILE): a JSON array of deals, one JSON object, or JSON "
            'Lines (one deal a line). A deal has "hands", four hands of four cards indexed by seat 0..3, and "mano", '
            'the seat that speaks first. Cards are codes ("12o"), letter codes ("Ro") or Spanish names ("rey de '
            'oros"); an optional "variant" ("8reyes" or "4reyes") sets the kings of that deal instead of --kings.'
        ),
        N_(
            'Output: one JSON line per deal with the winning seat of "grande", "chica", "pares", "juego" and '
            '"punto" (null where nobody plays the lance); --explain adds "explanations", one sentence per lance. '
            "Bad input exits with status 2 and one line naming the deal (numbered from 1) and what is wrong; "
            "nothing is printed then."
        ),
    ),
    "count": (
        N_(
            "Input (a file, or standard input for - or no FILE): whole hands in the scoring.json schema (RULES.md "
            "§7a), as a JSON array of cases, one JSON object, or JSON Lines (one case a line)."
        ),
        N_(
            'Output: one JSON line per case with "id", "stones", "hand_total", "final_score", "game_over", '
            '"game_winner" and "ended_at" (a hand ended by an accepted órdago has no "stones" or "hand_total"). '
            '--explain prints the count step by step instead; --check compares each case with its "expected". Bad '
            "input exits with status 2 and one line naming the case and what is wrong."
        ),
    ),
    "grade": (
        N_(
            "Input (a file, or standard input for - or no FILE): JSON Lines (or a JSON array, or one JSON object) "
            'of cases with "hands" and "mano" as musteach judge reads them, "lance" (grande, chica, pares, juego '
            'or punto) and "answer": the seat 0..3 the learner picked, or null for nobody.'
        ),
        N_(
            'Output: one JSON line per case with "correct", "winner", "mistake" (the misconception behind a wrong '
            "answer: three_is_not_king, two_is_not_ace, chica_from_the_top, quads_not_duples, "
            "pares_by_rank_not_kind, juego_by_total, tie_not_to_mano or punto_with_juego; null for a right answer "
            'or a slip), "explanation" and "why_not" (why the seat picked loses). Bad input exits with status 2 '
            "and one line naming the case (numbered from 1) and what is wrong; nothing is printed then."
        ),
    ),
}
"""Each built-in command's description, by paragraph (English msgids)."""


def description(command: str, width: int = 100) -> str:
    """The description of ``command`` (``"judge"``, ``"count"`` or ``"grade"``) in the language being spoken:
    its paragraphs wrapped at ``width`` columns, a blank line between them (for argparse's
    ``RawDescriptionHelpFormatter``). Raises ``KeyError`` for another command."""
    _ = translator()
    return "\n\n".join(textwrap.fill(_(p), width) for p in DESCRIPTIONS[command])


@contextmanager
def argparse_speaking(lang: str) -> Iterator[None]:
    """argparse's own words in ``lang`` inside the block: gettext's process-wide domain is set to
    :data:`ARGPARSE_DOMAIN` and its language to ``lang`` (``LANGUAGE``), both put back after the block.
    English (or a language with no catalog) changes nothing."""
    try:
        code = check_lang(lang)
    except ValueError:
        code = SOURCE_LANG
    if code == SOURCE_LANG:
        yield
        return
    domain = gettext.textdomain()
    bound = gettext.bindtextdomain(ARGPARSE_DOMAIN)
    language = os.environ.get("LANGUAGE")
    gettext.bindtextdomain(ARGPARSE_DOMAIN, str(LOCALE_DIR))
    gettext.textdomain(ARGPARSE_DOMAIN)
    os.environ["LANGUAGE"] = code
    try:
        yield
    finally:
        gettext.textdomain(domain)
        gettext.bindtextdomain(ARGPARSE_DOMAIN, bound)
        if language is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = language
