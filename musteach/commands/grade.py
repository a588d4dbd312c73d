"""``musteach grade [FILE|-]``: grade learners' answers to "who wins this lance?" and diagnose the mistakes.

Input (a file, or standard input for ``-`` or no FILE): JSON Lines (or a JSON array, or one JSON object) of
``{"hands": [[4 cards] x 4], "mano": m, "lance": "grande", "answer": seat|null}``: the deal as ``musteach
judge`` reads it (cards as codes ``"12o"``, letter codes ``"Ro"`` or Spanish names ``"rey de oros"``; an
optional ``"variant"``, ``"8reyes"`` or ``"4reyes"``), the lance by name (grande, chica, pares, juego or
punto), and the learner's answer: a seat 0..3, or null for "nobody".

Output: one JSON line per input, ``{"correct": bool, "winner": seat|null, "mistake": tag|null,
"explanation": str, "why_not": str|null}``. ``mistake`` names the misconception that explains a wrong
answer (three_is_not_king, two_is_not_ace, chica_from_the_top, quads_not_duples, pares_by_rank_not_kind,
juego_by_total, tie_not_to_mano, punto_with_juego; the first that applies), or null for a right answer or
a slip. ``why_not`` says why the picked seat loses; null for a right answer or "nobody".
Bad input exits with status 2 and one line naming the deal (numbered from 1, as ``judge`` does) and what is wrong; nothing is
printed for any case then. Empty input is bad input too. ``--lang es`` writes ``explanation``, ``why_not`` and the
error messages in Spanish (the keys and the other values stay the same); an unknown language exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cli import add_lang_option
from ..i18n import Text
from ..rules.cards import DECK
from ..rules.errors import MusError
from ..rules.options import Rules
from ..teach.diagnosis import Diagnosis, check_answer, diagnose
from . import Records, read_input, read_records
from .count import record_label, run_in_language
from .judge import deal_rules, judge_deal, judge_records


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]  # argparse's private generic
    p: argparse.ArgumentParser = sub.add_parser(
        "grade",
        help="grade answers to 'who wins this lance?' and name the mistake behind each wrong one",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE|-", help="cases file (default: standard input)")
    p.add_argument("--kings", type=int, choices=(8, 4), default=8, help="8 reyes (3 = rey, 2 = as; default) or 4 reyes")
    add_lang_option(p)
    return p


def grade_case(case: Any, kings: int = 8) -> Diagnosis:
    """Grade one input object (see the module docstring); raises a :class:`MusError` naming the problem."""
    judge_deal(case, kings)  # the deal as judge reads it: hands, mano, variant
    lance, answer = _question(case)
    return diagnose(case["hands"], case["mano"], lance, answer, deal_rules(case, kings, False))


def _question(case: dict[str, Any]) -> tuple[str, int | None]:
    """The lance and the answer of a case whose deal is good; raises :class:`MusError` for a missing one or a
    bad answer (a bad lance name is named by :func:`diagnose`)."""
    if "lance" not in case:
        raise MusError(Text("missing 'lance' (grande, chica, pares, juego or punto)"))
    if "answer" not in case:
        raise MusError(Text("missing 'answer' (the seat 0, 1, 2 or 3 picked, or null for nobody)"))
    lance: str = case["lance"]
    return lance, check_answer(case["answer"])


def grade_records(records: Records, kings: int = 8) -> list[Diagnosis]:
    """Grade every case of an input: the deals read and judged as ``musteach judge`` does (at once, by
    :func:`~musteach.commands.judge.judge_records`), then each answer diagnosed.

    Raises :class:`MusError` naming the first bad case in input order (``"deal 3: missing 'lance' ..."``).
    The explanations and messages are in the language being spoken (:func:`musteach.i18n.speaking`).
    """
    try:
        _, hands, manos, deal_kings = judge_records(records, kings)
    except MusError:
        hands = None  # a bad deal: the cases are graded one by one below, so the first bad one is named
    diagnoses = []
    for i, case in enumerate(records.items):
        try:
            if hands is None:
                diagnoses.append(grade_case(case, kings))
                continue
            lance, answer = _question(case)
            seats = [[DECK[c] for c in hand] for hand in hands[i].tolist()]
            diagnoses.append(diagnose(seats, int(manos[i]), lance, answer, Rules(kings=int(deal_kings[i]))))
        except MusError as e:
            raise type(e)(Text("{where}: {problem}", where=record_label(records, i), problem=e.text or str(e))) from None
    return diagnoses


def run(args: argparse.Namespace) -> int:
    """Grade every case of ``args.file`` in the language of ``args.lang`` (see the module docstring)."""
    return run_in_language(args, _run)


def _run(args: argparse.Namespace) -> int:
    records = read_records(read_input(args.file), "deal")
    if not records.items:
        raise MusError(Text("no cases: the input is empty"))
    lines = [json.dumps(d.to_dict(), ensure_ascii=False) for d in grade_records(records, args.kings)]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
