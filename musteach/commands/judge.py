"""``musteach judge [FILE|-]``: the winner of every lance of each deal (RULES.md §2, §4, §5).

Input (a file, or standard input for ``-`` or no FILE): a JSON array of deals, one JSON object, or JSON
Lines (one deal a line). A deal is ``{"hands": [[4 cards] x 4], "mano": m}``: the hands indexed by seat
0..3, cards as codes (``"12o"``), letter codes (``"Ro"``) or Spanish names (``"rey de oros"``); an
optional ``"variant"`` (``"8reyes"`` or ``"4reyes"``) sets the kings for that deal instead of ``--kings``.

Output: one JSON line per deal, ``{"grande": s, "chica": s, "pares": s|null, "juego": s|null,
"punto": s|null}``; ``--explain`` adds ``"explanations"``, one sentence per lance.
Bad input exits with status 2 and one line naming the deal (numbered from 1) and the bad card, hand,
mano or variant; nothing is printed for any deal then.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..rules.errors import MusError, RulesError, SeatError
from ..rules.lances import DealResult, evaluate
from ..rules.options import Rules
from . import read_input

_VARIANTS = {"8reyes": 8, "4reyes": 4}


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "judge",
        help="judge deals: print the winner of every lance as a JSON line",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE|-", help="deals file (default: standard input)")
    p.add_argument(
        "--kings", type=int, choices=(8, 4), default=8, help="8 reyes (3 = rey, 2 = as; default) or 4 reyes"
    )
    p.add_argument("--la-real", action="store_true", help="7-7-7-sota beats every other 31 (RULES.md §13)")
    p.add_argument("--explain", action="store_true", help="add one sentence per lance saying why")
    return p


def read_deals(text: str) -> list[tuple[str, Any]]:
    """Deals from a JSON array, one JSON object, or JSON Lines, each with its label (``"deal 3"``).

    Raises :class:`MusError` naming the deal (or line) for text that is not JSON.

    >>> [label for label, _ in read_deals('{"mano": 0}\\n\\n{"mano": 1}\\n')]
    ['deal 1', 'deal 2 (line 3)']
    """
    stripped = text.strip()
    if not stripped:
        return []
    if stripped[0] == "[":
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as e:
            raise MusError(f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
        return [(f"deal {i}", d) for i, d in enumerate(data, 1)]
    try:
        return [("deal 1", json.loads(stripped))]
    except json.JSONDecodeError:
        pass
    deals: list[tuple[str, Any]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        k = len(deals) + 1
        label = f"deal {k}" if k == n else f"deal {k} (line {n})"
        try:
            deals.append((label, json.loads(line)))
        except json.JSONDecodeError as e:
            raise MusError(f"{label}: invalid JSON at column {e.colno}: {e.msg}") from None
    return deals


def deal_rules(deal: dict[str, Any], kings: int, la_real: bool) -> Rules:
    """The rules of one deal: its ``"variant"`` if it has one, else ``kings``; la real from the flag.

    Raises :class:`RulesError` for a variant other than ``"8reyes"`` / ``"4reyes"``.
    """
    variant = deal.get("variant")
    if variant is not None:
        if not isinstance(variant, str) or variant.strip().lower() not in _VARIANTS:
            raise RulesError(f"unknown variant {variant!r}: use '8reyes' or '4reyes'")
        kings = _VARIANTS[variant.strip().lower()]
    return Rules(kings=kings, la_real=la_real)


def judge_deal(deal: Any, kings: int = 8, la_real: bool = False) -> DealResult:
    """Judge one input deal object (see the module docstring); raises a :class:`MusError` naming the problem."""
    if not isinstance(deal, dict):
        raise MusError(f"expected an object with 'hands' and 'mano', not {json.dumps(deal)[:60]}")
    if "hands" not in deal:
        raise MusError("missing 'hands' (4 hands of 4 cards, indexed by seat)")
    if "mano" not in deal:
        raise SeatError("missing 'mano' (the seat 0, 1, 2 or 3 that speaks first)")
    rules = deal_rules(deal, kings, la_real)
    hands = deal["hands"]
    if not isinstance(hands, list):
        raise MusError(f"'hands' must be a list of 4 hands, not {json.dumps(hands)[:60]}")
    return evaluate(hands, deal["mano"], rules)


def result_object(result: DealResult, explain: bool = False) -> dict[str, Any]:
    """The output object of one deal: the five winners, and with ``explain`` the five sentences."""
    out: dict[str, Any] = result.winners()
    if explain:
        out["explanations"] = result.explanations()
    return out


def run(args: argparse.Namespace) -> int:
    lines = []
    for label, deal in read_deals(read_input(args.file)):
        try:
            result = judge_deal(deal, args.kings, args.la_real)
        except MusError as e:
            raise type(e)(f"{label}: {e}") from None
        lines.append(json.dumps(result_object(result, args.explain), ensure_ascii=False))
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    return 0
