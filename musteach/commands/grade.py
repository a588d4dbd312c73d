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
printed for any case then. Empty input is bad input too.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..rules.errors import MusError
from ..teach.diagnosis import Diagnosis, check_answer, diagnose
from . import read_input
from .judge import deal_rules, judge_deal, read_deals


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]  # argparse's private generic
    p: argparse.ArgumentParser = sub.add_parser(
        "grade",
        help="grade answers to 'who wins this lance?' and name the mistake behind each wrong one",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE|-", help="cases file (default: standard input)")
    p.add_argument("--kings", type=int, choices=(8, 4), default=8, help="8 reyes (3 = rey, 2 = as; default) or 4 reyes")
    return p


def grade_case(case: Any, kings: int = 8) -> Diagnosis:
    """Grade one input object (see the module docstring); raises a :class:`MusError` naming the problem."""
    judge_deal(case, kings)  # the deal as judge reads it: hands, mano, variant
    if "lance" not in case:
        raise MusError("missing 'lance' (grande, chica, pares, juego or punto)")
    if "answer" not in case:
        raise MusError("missing 'answer' (the seat 0, 1, 2 or 3 picked, or null for nobody)")
    answer = check_answer(case["answer"])
    return diagnose(case["hands"], case["mano"], case["lance"], answer, deal_rules(case, kings, False))


def run(args: argparse.Namespace) -> int:
    cases = read_deals(read_input(args.file))
    if not cases:
        raise MusError("no cases: the input is empty")
    lines = []
    for label, case in cases:
        try:
            diagnosis = grade_case(case, args.kings)
        except MusError as e:
            raise type(e)(f"{label}: {e}") from None
        lines.append(json.dumps(diagnosis.to_dict(), ensure_ascii=False))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
