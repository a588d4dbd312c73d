"""``musteach count [FILE|-]``: count whole hands given in the ``scoring.json`` schema (RULES.md §7a).

Input: a JSON array of cases, one JSON object, or JSON Lines (one case a line). Output: one JSON line per
case, ``{"id", "stones", "hand_total", "final_score", "game_over", "game_winner", "ended_at"}``; a hand
ended by an accepted órdago has no ``stones`` / ``hand_total`` (as in ``scoring.json``).
``--explain`` prints the step-by-step count instead; ``--check`` compares with each case's ``expected``.
``--lang es`` writes the explanations, the check lines and the error messages in Spanish (the JSON keys and
values stay the same). Bad input exits with status 2 and one line naming the case and what is wrong; so does
a language with no catalog.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..cli import add_lang_option
from ..i18n import SOURCE_LANG, Text, check_lang, speaking, translator
from ..rules.count import CountResult, count_case
from ..rules.errors import MusError
from . import Records, line_label, read_input, read_records

_KEYS = ("id", "stones", "hand_total", "final_score", "game_over", "game_winner", "ended_at")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
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
    add_lang_option(p)
    return p


def run_in_language(args: argparse.Namespace, body: Callable[[argparse.Namespace], int]) -> int:
    """Run ``body(args)`` speaking ``args.lang``; a :class:`MusError` becomes one line on standard error in that
    language and status 2. An unknown ``--lang`` is such an error too (named in English, the language known)."""
    try:
        lang = check_lang(getattr(args, "lang", None) or SOURCE_LANG)
    except MusError as e:
        print(f"musteach {args.command}: --lang: {e}", file=sys.stderr)
        return 2
    with speaking(lang):
        try:
            return body(args)
        except MusError as e:
            print(f"musteach {args.command}: {e.message(lang)}", file=sys.stderr)
            return 2


def record_label(records: Records, i: int, always_line: bool = False) -> str:
    """The label of item ``i`` (from 0) in the language being spoken: ``"case 3"``, ``"case 3 (line 5)"``
    (the line when it differs from the number, or with ``always_line`` whenever the input was JSON Lines)."""
    _ = translator()
    k = i + 1
    if records.lines is None or (records.lines[i] == k and not always_line):
        return _("deal {n}", n=k) if records.noun == "deal" else _("case {n}", n=k)
    line = records.lines[i]
    return _("deal {n} (line {line})", n=k, line=line) if records.noun == "deal" else _("case {n} (line {line})", n=k, line=line)


def read_cases(text: str) -> list[tuple[str, Any]]:
    """Cases from a JSON array, one JSON object, or JSON Lines; each with a label for messages.

    Raises :class:`MusError` naming the line and the JSON error for text that is not JSON, and saying
    "no cases" for input without any (empty, blank, ``[]``).

    >>> [label for label, _ in read_cases('{"id": "a"}\\n\\n{"id": "b"}')]
    ['case 1 (line 1)', 'case 2 (line 3)']
    """
    records = read_records(text, "case", line_prefix=lambda n, label: line_label(n))
    if not records.items:
        if not text.strip():
            raise MusError(Text("no cases: the input is empty"))
        raise MusError(Text("no cases: the input holds none"))
    return [(record_label(records, i, always_line=True), c) for i, c in enumerate(records.items)]


def result_line(case_id: Any, result: CountResult) -> dict[str, Any]:
    """The output object of one case."""
    out = {"id": case_id, **result.to_dict()}
    return {k: out[k] for k in _KEYS if k in out}


def run(args: argparse.Namespace) -> int:
    """Count every case of ``args.file`` in the language of ``args.lang`` (see the module docstring)."""
    return run_in_language(args, _run)


def _run(args: argparse.Namespace) -> int:
    _ = translator()
    cases = read_cases(read_input(args.file))
    results = []
    for label, case in cases:
        cid = case.get("id") if isinstance(case, dict) else None
        where = f"{label} ({cid})" if cid is not None else label
        try:
            results.append((cid if cid is not None else label, case, count_case(case)))
        except MusError as e:
            raise type(e)(Text("{where}: {problem}", where=where, problem=e.text or str(e))) from None
    failures = 0
    out: list[str] = []
    for cid, case, r in results:
        if args.explain:
            out += [f"# {cid}", *r.explanation, ""]
        elif args.check:
            expected = case.get("expected")
            got = r.to_dict()
            if expected is None:
                out.append(_("{case}: no 'expected' to check", case=cid))
                failures += 1
            elif got == expected:
                out.append(_("{case}: ok", case=cid))
            else:
                failures += 1
                diffs = sorted(k for k in set(got) | set(expected) if got.get(k) != expected.get(k))
                shown = json.dumps({k: got.get(k) for k in diffs}, ensure_ascii=False)
                out.append(_("{case}: differs in {fields}: got {values}", case=cid, fields=", ".join(diffs), values=shown))
        else:
            out.append(json.dumps(result_line(cid, r), ensure_ascii=False))
    sys.stdout.write("\n".join(out) + "\n")
    return 1 if failures else 0
