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
import gc
import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain, repeat
from operator import attrgetter
from typing import Any, Literal

import numpy as np

from ..cli import add_lang_option
from ..i18n import SOURCE_LANG, Text, check_lang, speaking, translator
from ..rules.batch import BATCH_LANCES
from ..rules.betting import TEAMS, BettingOutcome
from ..rules.cards import CARD_TEXTS
from ..rules.count import CountResult, count_case
from ..rules.count_batch import END_PHASE_NAMES, MAX_AMOUNT, BetKind, CountBatch, EndPhase, count_batch, encode_outcome
from ..rules.errors import MusError
from . import Records, decode_input, line_label, msgspec_error, read_input_bytes, read_records
from .codes import NO_CARD, card_code_table

_KEYS = ("id", "stones", "hand_total", "final_score", "game_over", "game_winner", "ended_at")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    _ = translator()  # the help texts in the language being spoken (see musteach.cli.help_lang)
    p: argparse.ArgumentParser = sub.add_parser(
        "count",
        help=_("count whole hands (scoring.json cases) and print each result as a JSON line"),
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE|-", help=_("cases file (default: standard input)"))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--explain", action="store_true", help=_("print the count step by step, in words"))
    mode.add_argument(
        "--check", action="store_true", help=_("compare with each case's 'expected'; exit 1 on any difference")
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
    data = read_input_bytes(args.file)
    if not data.isascii():
        decode_input(data, args.file)  # UTF-8 text, else the line is named
    if not (args.explain or args.check):
        fast = batch_output(data)
        if fast is not None:
            for piece in fast:
                sys.stdout.write(piece)
            return 0
    return _run_per_case(args, read_cases(decode_input(data, args.file)))


def _counted(label: str, case: Any) -> tuple[Any, CountResult]:
    """``(id, result)`` of one case by :func:`count_case`; its error names the case: ``"case 2 (S02): ..."``."""
    cid = case.get("id") if isinstance(case, dict) else None
    where = f"{label} ({cid})" if cid is not None else label
    try:
        return (cid if cid is not None else label), count_case(case)
    except MusError as e:
        raise type(e)(Text("{where}: {problem}", where=where, problem=e.text or str(e))) from None


def _run_per_case(args: argparse.Namespace, cases: list[tuple[str, Any]]) -> int:
    """Count the cases one by one with :func:`count_case`: ``--explain``, ``--check``, and input that
    :func:`batch_output` does not take."""
    _ = translator()
    results = [(*_counted(label, case), case) for label, case in cases]
    failures = 0
    out: list[str] = []
    for cid, r, case in results:
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


# ----- the batched path ---------------------------------------------------------------------------------------------
#
# Clean input (a JSON array, one object, or JSON Lines with one case a line, every field of the scoring.json
# schema in its usual form) is read at once by msgspec into typed records; the cards, manos, scores and bettings
# become integer arrays; :func:`~musteach.rules.count_batch.count_batch` counts every case; the output is joined
# from pieces. A case the arrays cannot vouch for (a bad or unusual field, a betting that breaks a rule) is read
# again by :func:`read_cases` and counted by :func:`count_case`, in order, so the first bad case is named exactly
# as on the per-case path. Input that is not clean at all goes whole through the per-case path.

_CODE_INDEX: dict[str, int] = {text: card.index for text, card in CARD_TEXTS.items()}
_VARIANT_KINGS: dict[str | None, int] = {None: 8, "8reyes": 8, "4reyes": 4}
_TARGETS = (30, 35, 40)
_NEEDS_ESCAPE = re.compile(r'[\x00-\x1f"\\]')
# characters str.splitlines() ends a line at, that a JSON line may hold (\r as white space, the others in strings;
# msgspec refuses \x0b, \x0c and \x1c-\x1e anywhere): read_records would split a line there
_LINE_ENDS_IN_JSON = ("\r", "\x85", "\u2028", "\u2029")
_KIND_OF_TAG = {
    "paso": BetKind.PASO,
    "accepted": BetKind.ACCEPTED,
    "rejected": BetKind.REJECTED,
    "ordago_accepted": BetKind.ORDAGO_ACCEPTED,
    "no_bet": BetKind.NO_BET,
}


@dataclass(frozen=True)
class _Readers:
    """msgspec's typed readers of cases: ``one`` (a case, for JSON Lines) and ``many`` (a JSON array of cases),
    which keep each case's hands as raw JSON, and ``hands`` (the hands of a case, by seat or as a list of 4);
    ``kinds``: the :class:`BetKind` of each betting outcome record type (frozen, so that equal outcomes are
    one dictionary key); ``no_betting``: the betting record of a case without one."""

    one: Any
    many: Any
    hands: Any
    kinds: dict[type, BetKind]
    no_betting: Any


@cache
def _case_decoders() -> _Readers:
    """The typed readers of the scoring.json schema with its fields in their usual forms; any other field, or a
    field of another form, fails (msgspec is imported here, when first needed)."""
    import msgspec
    from msgspec import UNSET, UnsetType

    card: Any = Literal.__getitem__(tuple(CARD_TEXTS))  # the 120 texts, as msgspec reads a Literal
    hand: Any = tuple[card, card, card, card]
    strict: dict[str, Any] = {"forbid_unknown_fields": True, "gc": False}
    seats = msgspec.defstruct(
        "Seats", [(f"s{k}", hand) for k in range(4)], rename={f"s{k}": str(k) for k in range(4)}, **strict
    )
    score = msgspec.defstruct("Score", [("A", int, 0), ("B", int, 0)], **strict)
    stakes: Any = tuple[int | str, ...] | UnsetType
    # an accepted or refused bet: every field it may have; BettingOutcome.from_dict then refuses the wrong ones
    bet = [("stake", int | None | UnsetType, UNSET), ("stakes", stakes, UNSET), ("winner_team", str | UnsetType, UNSET)]
    kinds = {
        msgspec.defstruct(
            tag.title().replace("_", ""),
            bet if kind in (BetKind.ACCEPTED, BetKind.REJECTED) else [],
            tag=tag,
            tag_field="type",
            frozen=True,
            **strict,
        ): kind
        for tag, kind in _KIND_OF_TAG.items()
    }
    outcome: Any = None
    for struct in kinds:
        outcome = struct if outcome is None else outcome | struct
    betting = msgspec.defstruct("Betting", [(lance, outcome | None, None) for lance in BATCH_LANCES], **strict)
    case: Any = msgspec.defstruct(
        "Case",
        [
            ("hands", msgspec.Raw),  # read by _hand_cards
            ("id", Any, None),
            ("variant", Any, None),
            ("target", Any, UNSET),
            ("mano_seat", Any, UNSET),
            ("mano", Any, UNSET),
            ("start_score", score | tuple[int, int] | None, None),
            ("betting", betting | None, None),
            ("rules", Any, None),
            ("expected", Any, None),  # read, though unused, so that a number too large for Python fails here too
            ("why", Any, None),
        ],
        **strict,
    )
    return _Readers(
        msgspec.json.Decoder(case),
        msgspec.json.Decoder(list[case]),
        msgspec.json.Decoder(seats | tuple[hand, hand, hand, hand]),
        {type(None): BetKind.MISSING, **kinds},
        betting(),
    )


class _Unclean(Exception):
    """The input is not clean enough for the batched path: the per-case path reads it."""


def clean_cases(data: bytes) -> tuple[Iterator[list[Any]], bool] | None:
    """``(steps, lines)``: the cases of ``data`` (UTF-8 text), read by the typed readers a step at a time (a list
    of cases each, about a megabyte of input), and whether they came one a line (their labels then name the
    line); None when it is not a JSON array, object or JSON Lines of one case a line. A step raises
    ``_Unclean`` for a case the typed readers do not take (then :func:`read_cases` reads the input and names
    what is wrong)."""
    start = data.lstrip(b" \t\r\n")[:1]
    readers = _case_decoders()
    if start == b"[":
        try:
            cases: list[Any] = readers.many.decode(data)
        except msgspec_error():
            return None
        return iter([cases]), False
    if b"\r" in data or (not data.isascii() and any(c.encode() in data for c in _LINE_ENDS_IN_JSON)):
        return None
    body = data[:-1] if data.endswith(b"\n") else data
    lines = body.count(b"\n") + 1
    # every line a whole case, '{' to '}', and no blank line (JSON strings hold no raw line end)
    if not (body.startswith(b"{") and body.endswith(b"}") and body.count(b"}\n{") == lines - 1):
        return None
    return _line_steps(body, readers.one), lines > 1


_STEP_BYTES = 1 << 20  # input read a step: small enough that each step reuses the memory of the one before


def _line_steps(body: bytes, reader: Any) -> Iterator[list[Any]]:
    """The cases of JSON Lines ``body`` (one case a line, no blank line), a step of whole lines at a time."""
    view = memoryview(body)
    start = 0
    while start < len(body):
        end = body.find(b"\n", start + _STEP_BYTES)
        end = len(body) if end < 0 else end
        try:
            cases: list[Any] = reader.decode_lines(view[start:end])
        except msgspec_error():
            raise _Unclean from None
        if len(cases) != body.count(b"\n", start, end) + 1:
            raise _Unclean
        yield cases
        start = end + 1


def _bet(kind: BetKind, stake: object, stakes: object, team: object) -> tuple[int, int]:
    """``(amount, team)`` of an accepted or refused bet (see :func:`~musteach.rules.count_batch.encode_outcome`)
    from its fields (msgspec's UNSET when absent; stakes as a tuple), read by :meth:`BettingOutcome.from_dict`;
    ``(-1, 0)`` when it refuses them, or when the amount is too large for the arrays."""
    from msgspec import UNSET

    data: dict[str, Any] = {"type": "accepted" if kind is BetKind.ACCEPTED else "rejected"}
    for name, value in (("stake", stake), ("stakes", stakes), ("winner_team", team)):
        if value is not UNSET:
            data[name] = list(value) if isinstance(value, tuple) else value  # stakes
    try:
        _, amount, team_index = encode_outcome(BettingOutcome.from_dict(data))
    except (ValueError, LookupError, TypeError):  # the per-case path says what is wrong
        return -1, 0
    return (amount, team_index) if 0 < amount <= MAX_AMOUNT else (-1, 0)


_HAND_QUOTES = 40  # 4 seat keys and 16 card texts
_HANDS_STEP = 8192  # cases' hands a step


def _hand_cards(hands: list[Any]) -> np.ndarray | None:
    """(N, 16) uint8: the card indexes of each case's raw JSON hands, seat 0's four first; None when one is not
    4 hands of 4 card texts (then the per-case path names it).

    Hands as ``json.dumps`` writes them by seat, ``{"0": ["12o", "3c", "7e", "5b"], "1": [...], ...}`` with card
    codes, are read from their bytes at once (:func:`standard_hands`); any others by msgspec, one by one."""
    n = len(hands)
    cards = np.empty((n, 16), np.uint8)
    for start in range(0, n, _HANDS_STEP):  # a step at a time, small enough for the CPU cache
        step = standard_hands(b"".join(hands[start : start + _HANDS_STEP]), len(hands[start : start + _HANDS_STEP]))
        if step is None:
            break
        cards[start : start + _HANDS_STEP] = step
    else:
        return cards
    reader = _case_decoders().hands
    try:
        decoded = [reader.decode(h) for h in hands]
    except msgspec_error():
        return None
    by_seat = [h if type(h) is tuple else (h.s0, h.s1, h.s2, h.s3) for h in decoded]
    codes = chain.from_iterable(chain.from_iterable(by_seat))
    return np.fromiter(map(_CODE_INDEX.__getitem__, codes), np.uint8, 16 * len(hands)).reshape(-1, 16)


def _hand_layout() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fixed bytes of hands written by ``json.dumps``, as ``(quote, offset, byte)`` arrays: the byte at
    ``offset`` from the hands' ``quote``-th quote (see :func:`standard_hands`)."""
    fixed: list[tuple[int, int, str]] = [(0, -1, "{")]
    for seat in range(4):
        key = 10 * seat  # the seat's opening quote; then its closing one, then 4 cards of 2 quotes each
        fixed += [(key, 1, str(seat)), (key, 2, '"'), *((key + 1, k + 1, c) for k, c in enumerate(': ["'))]
        for k in range(4):
            close = key + 3 + 2 * k
            after = ', "' if k < 3 else ("], " + '"' if seat < 3 else "]}")
            fixed += [(close, i + 1, c) for i, c in enumerate(after)]
    quote, offset, byte = zip(*fixed, strict=True)
    return np.array(quote), np.array(offset), np.frombuffer("".join(byte).encode("ascii"), np.uint8)


_FIXED_QUOTE, _FIXED_OFFSET, _FIXED_BYTE = _hand_layout()
_CARD_OPEN = np.array([10 * seat + 2 + 2 * k for seat in range(4) for k in range(4)])


def standard_hands(data: bytes, n: int) -> np.ndarray | None:
    """(N, 16) uint8 card indexes of ``n`` JSON hands by seat written one after the other, each exactly as
    ``json.dumps`` writes them with card codes (``{"0": ["12o", "3c", "7e", "5b"], "1": [...], "2": [...],
    "3": [...]}``); None for anything else. Every byte is checked: the 40 quotes, the text between them, the
    seats and the codes. Cards are not checked for repeats.

    >>> standard_hands(b'{"0": ["12o", "3c", "7e", "5b"], "1": ["12c", "11o", "11c", "4e"], '
    ...                b'"2": ["1o", "1c", "4o", "5o"], "3": ["6c", "6e", "10o", "2b"]}', 1).tolist()
    [[36, 9, 26, 19, 37, 32, 33, 14, 0, 1, 12, 16, 21, 22, 28, 7]]
    """
    u8 = np.frombuffer(data, np.uint8)
    quotes = np.flatnonzero(u8 == ord('"'))
    if n == 0 or quotes.size != _HAND_QUOTES * n:
        return None
    q = quotes.reshape(n, _HAND_QUOTES)
    # the hands follow each other: each one's '{' right after the previous one's '"]}'
    if q[0, 0] != 1 or q[-1, -1] + 3 != u8.size or (q[1:, 0] != q[:-1, -1] + 4).any():
        return None
    if (u8[q[:, _FIXED_QUOTE] + _FIXED_OFFSET] != _FIXED_BYTE).any():
        return None
    opens = q[:, _CARD_OPEN]
    lengths = q[:, _CARD_OPEN + 1] - opens - 1
    first, second, third = u8[opens + 1], u8[opens + 2], u8[np.minimum(opens + 3, u8.size - 1)]
    table = card_code_table()
    two = table[first | second.astype(np.int64) << 8]
    three = table[(second | third.astype(np.int64) << 8) + (1 << 16)]
    cards = np.where(lengths == 2, two, np.where((lengths == 3) & (first == ord("1")), three, NO_CARD))
    return None if (cards == NO_CARD).any() else cards.astype(np.uint8)


def _encoded_betting(
    bettings: list[Any], n: int, outcomes: _OutcomeCodes
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(kinds, amounts, teams, doubtful)``: (N, 5) per lance (see :func:`~musteach.rules.count_batch.count_batch`)
    and the (N,) cases whose betting must be read again (a bet refused by :meth:`BettingOutcome.from_dict`, or
    an amount too large for the arrays). Each distinct outcome is read once (a large input holds a few
    thousand): ``outcomes`` keeps their codes from step to step."""
    readers = _case_decoders()
    if None in bettings:
        bettings = [readers.no_betting if b is None else b for b in bettings]
    said = chain.from_iterable(map(attrgetter(*BATCH_LANCES), bettings))
    codes = np.fromiter(map(outcomes.__getitem__, said), np.int64, 5 * n).reshape(n, 5)
    kinds = (codes & 7).astype(np.int8)
    doubtful = np.any(kinds == _DOUBTFUL, axis=1)
    kinds[kinds == _DOUBTFUL] = BetKind.MISSING
    return kinds, codes >> 4, ((codes >> 3) & 1).astype(np.int8), doubtful


_DOUBTFUL = 7  # not a BetKind: the outcome is read again on the per-case path


class _OutcomeCodes(dict[Any, int]):
    """The code of a lance's outcome record (None: not given): ``kind | team << 3 | amount << 4`` (team 1 for B;
    see :func:`~musteach.rules.count_batch.encode_outcome`), or ``_DOUBTFUL``; each distinct outcome read once."""

    def __missing__(self, outcome: Any) -> int:

        kind = _case_decoders().kinds[type(outcome)]
        code = int(kind)
        if kind in (BetKind.ACCEPTED, BetKind.REJECTED):
            amount, team = _bet(kind, outcome.stake, outcome.stakes, outcome.winner_team)
            code = _DOUBTFUL if amount < 0 else kind | team << 3 | amount << 4
        self[outcome] = code
        return code


def _encoded_cases(cases: list[Any], outcomes: _OutcomeCodes) -> tuple[dict[str, np.ndarray], np.ndarray] | None:
    """The arrays :func:`~musteach.rules.count_batch.count_batch` takes, and the (N,) mask of doubtful cases
    (a field it does not vouch for: another variant, rules options, a bad mano, score or card...). A doubtful
    case holds a harmless stand-in in the arrays. None when some case's hands are not 4 hands of 4 card texts."""
    from msgspec import UNSET

    n = len(cases)
    fields = ("hands", "mano_seat", "mano", "variant", "target", "start_score", "rules", "betting")
    hands, mano_seat, mano_alias, variant, target_given, score_given, rules, betting = (
        list(map(attrgetter(name), cases)) for name in fields
    )
    cards = _hand_cards(hands)
    if cards is None:
        return None
    ordered = np.sort(cards, axis=1)
    doubtful = np.any(ordered[:, 1:] == ordered[:, :-1], axis=1)
    if UNSET in mano_seat:  # case.get("mano_seat", case.get("mano"))
        mano_seat = [(None if a is UNSET else a) if m is UNSET else m for m, a in zip(mano_seat, mano_alias, strict=True)]
    mano = _small_ints(mano_seat, 0, 3)
    try:
        kings = np.fromiter(map(_VARIANT_KINGS.get, variant, repeat(0, n)), np.int64, n)
    except TypeError:  # a list or an object as the variant
        kings = np.fromiter((_VARIANT_KINGS.get(v, 0) if v is None or type(v) is str else 0 for v in variant), np.int64, n)
    if UNSET in target_given:
        target_given = [40 if t is UNSET else t for t in target_given]
    target = _small_ints(target_given, 30, 40)
    target[~np.isin(target, _TARGETS)] = -1
    score_pairs = _score_pairs(score_given, n)
    in_game = np.all((score_pairs >= 0) & (score_pairs < target[:, None]), axis=1)
    start = np.where(in_game[:, None], score_pairs, -1)
    given_rules = np.fromiter(map(bool, rules), bool, n) if any(rules) else np.zeros(n, bool)
    kinds, amounts, teams, doubtful_betting = _encoded_betting(betting, n, outcomes)
    doubtful |= (mano < 0) | (kings == 0) | (target < 0) | (start[:, 0] < 0) | given_rules | doubtful_betting
    cards[doubtful] = np.arange(16, dtype=np.uint8)
    mano[doubtful] = 0
    kings[doubtful] = 8
    target[doubtful] = 40
    start[doubtful] = 0
    kinds[doubtful] = BetKind.MISSING
    arrays = {
        "hands": cards.reshape(n, 4, 4),
        "mano": mano,
        "kinds": kinds,
        "amounts": amounts,
        "teams": teams,
        "start_score": start,
        "target": target,
        "kings": kings,
    }
    return arrays, doubtful


def _small_ints(values: list[Any], low: int, high: int) -> np.ndarray:
    """(N,) int64: each value that is a whole number (not a bool) in ``low..high``, else -1."""
    if set(map(type, values)) == {int}:
        try:
            arr = np.array(values, np.int64)
        except OverflowError:
            pass
        else:
            return np.where((arr >= low) & (arr <= high), arr, -1)
    return np.fromiter((v if type(v) is int and low <= v <= high else -1 for v in values), np.int64, len(values))


def _score_pairs(scores: list[Any], n: int) -> np.ndarray:
    """(N, 2) int64: the start scores ``(A, B)`` (0-0 for None), -1 for a number too large for the arrays."""
    pairs = [(0, 0) if s is None else s if type(s) is tuple else (s.A, s.B) for s in scores]
    try:
        return np.array(pairs, np.int64).reshape(n, 2)
    except OverflowError:
        return np.array([p if all(-1 <= v <= MAX_AMOUNT for v in p) else (-1, -1) for p in pairs], np.int64).reshape(n, 2)


def batch_output(data: bytes) -> Iterator[str] | None:
    """The output of ``musteach count`` on ``data`` (UTF-8 text: a line per case, see the module docstring),
    counted in bulk, as pieces of text to write in turn; None when the input is not clean enough for it (see
    :func:`clean_cases`) or holds no case: then the per-case path reads it. Raises :class:`MusError` naming the
    first bad case, as the per-case path does, before any piece is written."""
    collecting = gc.isenabled()
    gc.disable()  # millions of small records, none in a cycle: the collector would only walk them again and again
    try:
        read = clean_cases(data)
        if read is None:
            return None
        steps, lines = read
        encoded = []
        ids: list[Any] = []
        outcomes = _OutcomeCodes()
        for cases in steps:
            step = _encoded_cases(cases, outcomes)
            if step is None:
                return None
            encoded.append(step)
            ids += [c.id for c in cases]
    except _Unclean:
        return None
    finally:
        if collecting:
            gc.enable()
    if not ids:
        return None
    arrays = {name: np.concatenate([a[name] for a, _ in encoded]) for name in encoded[0][0]}
    doubtful = np.concatenate([d for _, d in encoded])
    counted = count_batch(
        arrays["hands"],
        arrays["mano"],
        arrays["kinds"],
        arrays["amounts"],
        arrays["teams"],
        start_score=arrays["start_score"],
        target=arrays["target"],
        kings=arrays["kings"],
    )
    again = np.flatnonzero(doubtful | ~counted.counted).tolist()
    one_by_one: dict[int, str] = {}
    if again:
        labelled = read_cases(data.decode("utf-8"))  # the same cases, read as the per-case path reads them
        for i in again:
            one_by_one[i] = json.dumps(result_line(*_counted(*labelled[i])), ensure_ascii=False) + "\n"
    labels = Records([], list(range(1, len(ids) + 1)) if lines else None, "case")
    return (
        _joined(ids, labels, counted, one_by_one, start, min(start + _LINES_A_PIECE, len(ids)))
        for start in range(0, len(ids), _LINES_A_PIECE)
    )


_LINES_A_PIECE = 8192  # output lines joined at a time


def _joined(ids: list[Any], labels: Records, r: CountBatch, one_by_one: dict[int, str], start: int, end: int) -> str:
    """Output lines ``start`` to ``end``, as :func:`result_line` and ``json.dumps`` write them, joined from
    pieces: a case's line is its id and seven pieces (the four lances' stones, the hand total, the final score,
    the ending), each taken from a table."""
    r = r.rows(start, end)
    n = end - start
    parts = np.empty((n, 8), dtype=object)
    parts[:, 0] = _id_texts(ids, labels, start, end)
    last = np.where(r.juego_played, 0, _PAIR_LIMIT * _PAIR_LIMIT)  # the fourth lance: juego, else punto
    parts[:, 1] = _pairs(', "stones": {"grande": ', r.stones[:, 0])
    parts[:, 2] = _pairs(', "chica": ', r.stones[:, 1])
    parts[:, 3] = _pairs(', "pares": ', r.stones[:, 2])
    parts[:, 4] = _pairs((', "juego": ', ', "punto": '), r.stones[:, 3], last)
    parts[:, 5] = _pairs('}, "hand_total": ', r.hand_total)
    parts[:, 6] = _pairs(', "final_score": ', r.final_score)
    ordago = r.ended == EndPhase.ORDAGO
    if ordago.any():
        parts[ordago, 1:6] = ""
    lance = r.ended_lance.astype(np.int64) + (r.ended_lance == 3) * (last > 0)
    ending = np.where(r.game_winner >= 0, 1 + ((r.ended.astype(np.int64) - 1) * 5 + lance) * 2 + r.game_winner, 0)
    parts[:, 7] = _endings()[ending]
    for i, line in one_by_one.items():
        if start <= i < end:
            parts[i - start] = [line, *[""] * 7]
    return "".join(parts.reshape(-1).tolist())


def _id_texts(ids: list[Any], labels: Records, start: int, end: int) -> list[str]:
    """The beginning of lines ``start`` to ``end``, ``{"id": "R1"``: each case's id as ``json.dumps`` writes it,
    or its label."""
    ids = ids[start:end]
    if set(map(type, ids)) == {str} and not _NEEDS_ESCAPE.search("".join(ids)):
        return ['{"id": "' + i + '"' for i in ids]
    texts = []
    for i, cid in enumerate(ids, start):
        if cid is None:
            cid = record_label(labels, i, always_line=True)
        plain = type(cid) is str and not _NEEDS_ESCAPE.search(cid)
        texts.append('{"id": "' + cid + '"' if plain else '{"id": ' + json.dumps(cid, ensure_ascii=False))
    return texts


_PAIR_LIMIT = 64  # stones below this are read from a table


@lru_cache(maxsize=8)
def _pair_table(prefixes: tuple[str, ...]) -> np.ndarray:
    """(len(prefixes) * 64 * 64,) object: ``prefix + '{"A": a, "B": b}'`` at ``(p * 64 + a) * 64 + b`` for
    the prefix ``p``."""
    return np.array(
        [f'{p}{{"A": {a}, "B": {b}}}' for p in prefixes for a in range(_PAIR_LIMIT) for b in range(_PAIR_LIMIT)],
        dtype=object,
    )


def _pairs(prefix: str | tuple[str, ...], pairs: np.ndarray, which: np.ndarray | int = 0) -> np.ndarray:
    """(N,) object: ``prefix + '{"A": a, "B": b}'`` for each row ``(a, b)`` of ``pairs`` (N, 2); with several
    prefixes, ``which`` (N,) picks each row's as ``index * 64 * 64``."""
    prefixes = (prefix,) if isinstance(prefix, str) else prefix
    small = np.all(pairs < _PAIR_LIMIT, axis=1)
    codes = np.where(small, pairs[:, 0] * _PAIR_LIMIT + pairs[:, 1], 0) + which
    out: np.ndarray = _pair_table(prefixes)[codes]
    for i in np.flatnonzero(~small).tolist():
        a, b = pairs[i].tolist()
        p = prefixes[int(np.asarray(which).reshape(-1)[i] if np.ndim(which) else 0) // (_PAIR_LIMIT * _PAIR_LIMIT)]
        out[i] = f'{p}{{"A": {a}, "B": {b}}}'
    return out


@cache
def _endings() -> np.ndarray:
    """(31,) object: the end of a line: the game goes on (0), or ``1 + ((phase - 1) * 5 + lance) * 2 + team``
    for a game won by team 0 (A) or 1 (B) in a phase (1 betting, 2 count, 3 ordago) at a lance (0..4)."""
    endings = [', "game_over": false, "game_winner": null, "ended_at": null}\n']
    for phase in (EndPhase.BETTING, EndPhase.COUNT, EndPhase.ORDAGO):
        for lance in BATCH_LANCES:
            for team in TEAMS:
                ended_at = f"{END_PHASE_NAMES[phase]}:{lance}"
                endings.append(f', "game_over": true, "game_winner": "{team}", "ended_at": "{ended_at}"}}\n')
    return np.array(endings, dtype=object)
