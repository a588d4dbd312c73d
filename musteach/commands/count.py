"""``musteach count [FILE|-]``: count whole hands given in the ``scoring.json`` schema (RULES.md §7a).

Input: a JSON array of cases, one JSON object, or JSON Lines (one case a line). Output: one JSON line per
case, ``{"id", "stones", "hand_total", "final_score", "game_over", "game_winner", "ended_at"}``; a hand
ended by an accepted órdago has no ``stones`` / ``hand_total`` (as in ``scoring.json``).
``--explain`` prints the step-by-step count instead; ``--check`` compares with each case's ``expected``.
Bad input exits with status 2 and one line naming the case and what is wrong.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..rules.count import CountResult, count_case
from ..rules.errors import MusError
from . import read_input

_KEYS = ("id", "stones", "hand_total", "final_score", "game_over", "game_winner", "ended_at")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "count",
        help="count whole hands (scoring.json cases) and print each result as a JSON line",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE|-", help="cases file (default: standard input)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--explain", action="store_true", help="print the count step by step, in words")
    mode.add_argument(
        "--check", action="store_true", help="compare with each case's 'expected'; exit 1 on any difference"
    )
    return p


def read_cases(text: str) -> list[tuple[str, Any]]:
    """Cases from a JSON array, one JSON object, or JSON Lines; each with a label for messages.

    Raises :class:`MusError` naming the line and the JSON error for text that is not JSON.
    """
    stripped = text.strip()
    if not stripped:
        raise MusError("no cases: the input is empty")
    if stripped[0] == "[":
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as e:
            raise MusError(f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
        return [(f"case {i}", c) for i, c in enumerate(data, 1)]
    try:
        one = json.loads(stripped)
    except json.JSONDecodeError:
        pass
    else:
        return [("case 1", one)]
    cases = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            cases.append((f"case {len(cases) + 1} (line {n})", json.loads(line)))
        except json.JSONDecodeError as e:
            raise MusError(f"line {n}: invalid JSON at column {e.colno}: {e.msg}") from None
    return cases


def result_line(case_id: Any, result: CountResult) -> dict[str, Any]:
    """The output object of one case."""
    out = {"id": case_id, **result.to_dict()}
    return {k: out[k] for k in _KEYS if k in out}


def run(args: argparse.Namespace) -> int:
    cases = read_cases(read_input(args.file))
    results = []
    for label, case in cases:
        cid = case.get("id") if isinstance(case, dict) else None
        where = f"{label} ({cid})" if cid is not None else label
        try:
            results.append((cid if cid is not None else label, case, count_case(case)))
        except MusError as e:
            raise MusError(f"{where}: {e}") from None
    failures = 0
    for cid, case, r in results:
        if args.explain:
            print(f"# {cid}")
            for line in r.explanation:
                print(line)
            print()
        elif args.check:
            expected = case.get("expected")
            got = r.to_dict()
            if expected is None:
                print(f"{cid}: no 'expected' to check")
                failures += 1
            elif got == expected:
                print(f"{cid}: ok")
            else:
                failures += 1
                diffs = sorted(k for k in set(got) | set(expected) if got.get(k) != expected.get(k))
                print(f"{cid}: differs in {', '.join(diffs)}: got {json.dumps({k: got.get(k) for k in diffs}, ensure_ascii=False)}")
        else:
            print(json.dumps(result_line(cid, r), ensure_ascii=False))
    return 1 if failures else 0
