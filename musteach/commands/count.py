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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from itertools import chain, pairwise, repeat
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
from . import Records, decode_input, json_decoder, line_label, msgspec_error, read_input_bytes, read_records
from .codes import CODE_BYTES, READ_PAST, TEXT_WIDTH, TextCodes, walk_code_places
from .help_words import description

_KEYS = ("id", "stones", "hand_total", "final_score", "game_over", "game_winner", "ended_at")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    _ = translator()  # the help texts in the language being spoken (see musteach.cli.help_lang)
    p: argparse.ArgumentParser = sub.add_parser(
        "count",
        help=_("count whole hands (scoring.json cases) and print each result as a JSON line"),
        description=description("count"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
# Clean input (a JSON array, one object, or JSON Lines with one case a line, the scoring.json schema's fields and
# no other) is read at once by msgspec into light records that keep the hands, the start score and the betting as
# raw JSON text. The hands are read from their bytes at once (:func:`seat_hands`); each distinct text of a start
# score or of a betting's entry (one lance and its betting) is read once (a large input holds a few thousand) and
# kept as an integer code (:class:`~musteach.commands.codes.TextCodes`); the manos, targets and variants become
# arrays; :func:`~musteach.rules.count_batch.count_batch` counts every case; the output is joined from tables.
# Large JSON Lines are read in two halves, the second by a forked child process (:class:`_Child`). A case the
# arrays cannot vouch for (a bad or unusual field, card, score or betting, a betting that breaks a rule) is
# doubtful: it alone is read again as the per-case path reads it and counted by :func:`count_case`, in order, so
# that the first bad case is named exactly as on the per-case path. Input that is not clean at all (not JSON,
# another field, a case over two lines) goes whole through the per-case path.

_CODE_INDEX: dict[str, int] = {text: card.index for text, card in CARD_TEXTS.items()}
_VARIANT_KINGS: dict[str | None, int] = {None: 8, "8reyes": 8, "4reyes": 4}
_TARGETS = (30, 35, 40)
_NEEDS_ESCAPE = re.compile(r'[\x00-\x1f"\\]')
_KIND_OF_TAG = {
    "paso": BetKind.PASO,
    "accepted": BetKind.ACCEPTED,
    "rejected": BetKind.REJECTED,
    "ordago_accepted": BetKind.ORDAGO_ACCEPTED,
    "no_bet": BetKind.NO_BET,
}
_NULL = b"null"


@dataclass(frozen=True)
class _Readers:
    """msgspec's typed readers: ``one`` (a case, for JSON Lines) and ``many`` (a JSON array of cases), which keep
    each case's hands, start score and each lance's betting as raw JSON; ``hands`` (the hands of a case, by seat
    or as a list of 4), ``outcome`` (a lance's betting, or null) and ``score`` (a start score: an object, a pair,
    or null); ``kinds``: the :class:`BetKind` of each outcome record type."""

    one: Any
    many: Any
    hands: Any
    outcome: Any
    score: Any
    kinds: dict[type, BetKind]


@cache
def _case_decoders() -> _Readers:
    """The typed readers of the scoring.json schema; any other field fails (msgspec is imported here, when first
    needed)."""
    import msgspec
    from msgspec import UNSET, Raw, UnsetType

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
            **strict,
        ): kind
        for tag, kind in _KIND_OF_TAG.items()
    }
    outcome: Any = None
    for struct in kinds:
        outcome = struct if outcome is None else outcome | struct
    null = Raw(_NULL)
    case: Any = msgspec.defstruct(
        "Case",
        [
            ("hands", Raw),  # read by _hand_cards
            ("id", Any, None),
            ("variant", Any, None),
            ("target", Any, UNSET),
            ("mano_seat", Any, UNSET),
            ("mano", Any, UNSET),
            ("start_score", Raw, null),  # read by _score_code
            ("betting", Raw, null),  # read by _encoded_betting
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
        msgspec.json.Decoder(outcome | None),
        msgspec.json.Decoder(score | tuple[int, int] | None),
        kinds,
    )


class _Unclean(Exception):
    """The input is not clean enough for the batched path: the per-case path reads it."""


def clean_cases(data: bytes) -> tuple[list[Iterator[list[Any]]], bool] | None:
    """``(parts, lines)``: the cases of ``data`` (UTF-8 text) in one part, or two for large JSON Lines (the lines
    of each half, read in parallel), each part read by the typed readers a step at a time (a list of cases
    each, about a megabyte of input); and whether they came one a line (their labels then name the line).
    None when it is not a JSON array, object or JSON Lines of one case a line. A step raises ``_Unclean`` for a
    case the typed readers do not take (then :func:`read_cases` reads the input and names what is wrong)."""
    start = data.lstrip(b" \t\r\n")[:1]
    readers = _case_decoders()
    if start == b"[":
        try:
            cases: list[Any] = readers.many.decode(data)
        except msgspec_error():
            return None
        return [iter([cases])], False
    if b"\r" in data:  # \r\n line ends, or a \r as white space: the per-case path reads them
        return None
    end = len(data) - 1 if data.endswith(b"\n") else len(data)  # the body: data[:end], never copied
    # the input starts and ends with a case; each step checks that it holds a case a line (so no blank line)
    if not (data.startswith(b"{") and data.endswith(b"}", 0, end)):
        return None
    middle = data.find(b"\n", end // 2, end) if end >= SPLIT_BYTES else -1
    if middle < 0:
        return [_line_steps(data, 0, end, readers.one)], data.find(b"\n", 0, end) >= 0
    return [_line_steps(data, 0, middle, readers.one), _line_steps(data, middle + 1, end, readers.one)], True


#: JSON Lines of at least this many bytes are read in two halves, the second by a child process (where it can
#: fork: Linux), so that two cores share the work.
SPLIT_BYTES = 8 << 20


_STEP_BYTES = 1 << 20  # input read a step: small enough that each step reuses the memory of the one before


def _line_steps(data: bytes, start: int, stop: int, reader: Any) -> Iterator[list[Any]]:
    """The cases of the JSON Lines ``data[start:stop]`` (one case a line, no blank line), a step of whole lines
    at a time (read in place: the bytes are not copied)."""
    view = memoryview(data)
    while start < stop:
        end = data.find(b"\n", start + _STEP_BYTES, stop)
        end = stop if end < 0 else end
        try:
            cases: list[Any] = reader.decode_lines(view[start:end])
        except msgspec_error():
            raise _Unclean from None
        if len(cases) != data.count(b"\n", start, end) + 1:
            raise _Unclean
        yield cases
        start = end + 1


_DOUBTFUL = 7  # not a BetKind: the outcome is read again on the per-case path


class _OutcomeCodes(dict[bytes, int]):
    """The code of a lance's betting, from its raw JSON text (``null``: not given): ``kind | team << 3 |
    amount << 4`` (team 1 for B; see :func:`~musteach.rules.count_batch.encode_outcome`), or ``_DOUBTFUL`` for
    a text that the typed reader or :meth:`BettingOutcome.from_dict` refuses, or an amount too large for the
    arrays. Each distinct text is read once."""

    def __missing__(self, text: bytes) -> int:
        code = self[text] = self.read(text)
        return code

    @staticmethod
    def read(text: bytes) -> int:
        """The code of one lance's betting text (see the class)."""
        readers = _case_decoders()
        try:
            outcome = readers.outcome.decode(text)
        except msgspec_error():
            return _DOUBTFUL
        if outcome is None:
            return BetKind.MISSING
        kind = readers.kinds[type(outcome)]
        if kind not in (BetKind.ACCEPTED, BetKind.REJECTED):
            return int(kind)
        amount, team = _bet(kind, outcome.stake, outcome.stakes, outcome.winner_team)
        return _DOUBTFUL if amount < 0 else kind | team << 3 | amount << 4


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


def _score_code(text: bytes) -> int:
    """The code of a start score, from its raw JSON text (an object ``{"A": a, "B": b}``, a pair, or null for
    0-0): ``a << 32 | b``, or -1 for a text the typed reader refuses or a number outside ``0 .. 2**31 - 1``
    (the per-case path says what is wrong)."""
    try:
        score = _case_decoders().score.decode(text)
    except msgspec_error():
        return -1
    a, b = (0, 0) if score is None else score if type(score) is tuple else (score.A, score.B)
    return a << 32 | b if 0 <= a < _SCORE_LIMIT and 0 <= b < _SCORE_LIMIT else -1


_SCORE_LIMIT = 1 << 31


def _entry_code(outcomes: _OutcomeCodes, text: bytes) -> int:
    """The code of one entry of a betting object, from its raw JSON text (``"grande": {"type": "paso"}``):
    ``lance | outcome << 3``, lance 0..4 in the order of BATCH_LANCES (7: not a lance's name) and outcome its
    code in ``outcomes``."""
    key, _, outcome = text.partition(b": ")
    return _LANCE_KEYS.get(key, _NOT_A_LANCE) | outcomes[outcome] << 3


_LANCE_KEYS = {f'"{lance}"'.encode(): i for i, lance in enumerate(BATCH_LANCES)}
_NOT_A_LANCE = 7


@dataclass(frozen=True)
class _Codes:
    """The codes of the distinct texts read so far, kept from step to step: betting entries (each distinct
    betting read once, by :class:`_OutcomeCodes`) and start scores."""

    entries: TextCodes
    scores: TextCodes

    @classmethod
    def new(cls) -> _Codes:
        """Codes with no text read yet."""
        return cls(TextCodes(partial(_entry_code, _OutcomeCodes())), TextCodes(_score_code))


_HANDS_STEP = 8192  # cases' hands a step: the walk's arrays stay in the CPU cache


def _hand_cards(hands: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """``(cards, doubtful)``: (N, 16) uint8, the card indexes of each case's raw JSON hands, seat 0's four first,
    and the (N,) cases whose hands are not 4 hands of 4 card texts (the per-case path names what is wrong).

    Hands as ``json.dumps`` writes them by seat, ``{"0": ["12o", "3c", "7e", "5b"], "1": [...], ...}`` with card
    codes, are read from their bytes a step at a time (:func:`seat_hands`); a step holding any others is read by
    msgspec, case by case."""
    n = len(hands)
    cards = np.empty((n, 16), np.uint8)
    doubtful = np.zeros(n, bool)
    for start in range(0, n, _HANDS_STEP):
        step = hands[start : start + _HANDS_STEP]
        got = seat_hands(step)
        if got is None:
            got, doubtful[start : start + len(step)] = _hands_one_by_one(step)
        cards[start : start + len(step)] = got
    return cards, doubtful


def _hands_one_by_one(hands: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_hand_cards` on hands read one by one by the typed reader; a case it refuses holds the first 16
    cards as a stand-in."""
    reader = _case_decoders().hands
    cards = np.empty((len(hands), 16), np.uint8)
    doubtful = np.zeros(len(hands), bool)
    for i, raw in enumerate(hands):
        try:
            h = reader.decode(raw)
        except msgspec_error():
            doubtful[i] = True
            cards[i] = np.arange(16)
            continue
        by_seat = h if type(h) is tuple else (h.s0, h.s1, h.s2, h.s3)
        cards[i] = [_CODE_INDEX[c] for c in chain.from_iterable(by_seat)]
    return cards, doubtful


# The standard text of 4 hands by seat, as json.dumps writes them with card codes: without the bytes that card
# codes (and the seat keys) are made of, it reads as this skeleton; with them, the codes start at these offsets
# if each has 2 bytes (each 3-byte code moves the next ones by one), and each seat's key lies 6 bytes before its
# first code.
_SEATS_SKELETON = b'{"": ["", "", "", ""], "": ["", "", "", ""], "": ["", "", "", ""], "": ["", "", "", ""]}'
_SEAT_CARD_AT = tuple(8 + 6 * k + 7 * (k // 4) for k in range(16))
_SEAT_GAPS = tuple(b - a for a, b in pairwise(_SEAT_CARD_AT))
_SEATS_END = len(b'"]}')


def seat_hands(hands: Sequence[bytes | Any]) -> np.ndarray | None:
    """(N, 16) uint8 card indexes of N raw JSON hands by seat (bytes, or msgspec's Raw), each exactly as
    ``json.dumps`` writes them with card codes (``{"0": ["12o", "3c", "7e", "5b"], "1": [...], "2": [...],
    "3": [...]}``); None for anything else. Every byte is checked: the bytes between the codes at once (the
    skeleton), then card by card for all hands at once, each code (2 bytes, or 3 starting with 1) through a
    table, and the seat keys. Cards are not checked for repeats.

    >>> seat_hands([b'{"0": ["12o", "3c", "7e", "5b"], "1": ["12c", "11o", "11c", "4e"], '
    ...             b'"2": ["1o", "1c", "4o", "5o"], "3": ["6c", "6e", "10o", "2b"]}']).tolist()
    [[36, 9, 26, 19, 37, 32, 33, 14, 0, 1, 12, 16, 21, 22, 28, 7]]
    """
    n = len(hands)
    text = b"".join(hands)
    if n == 0 or text.translate(None, CODE_BYTES) != _SEATS_SKELETON * n:
        return None
    ends = np.cumsum(np.fromiter(map(len, hands), np.int64, n))
    starts = ends - np.fromiter(map(len, hands), np.int64, n)
    u8 = np.frombuffer(text + bytes(READ_PAST), np.uint8)  # room to read past the end
    got = walk_code_places(u8, starts + _SEAT_CARD_AT[0], _SEAT_GAPS)
    if got is None:
        return None
    cards, at, three = got
    if (at[15] + three[15] + 2 + _SEATS_END != ends).any():
        return None
    keys = u8[at[::4] - 6]  # each seat's key, 6 bytes before its first code: '"0": ["'
    if (keys != np.frombuffer(b"0123", np.uint8)[:, None]).any():
        return None
    return cards.T.copy()


def _encoded_betting(bettings: list[Any], codes: _Codes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(kinds, amounts, teams, doubtful)``: (N, 5) per lance (see :func:`~musteach.rules.count_batch.count_batch`)
    and the (N,) cases whose betting must be read again, from each case's raw JSON betting (null when not given).

    A betting written as ``json.dumps`` writes it, ``{"grande": {"type": "paso"}, "chica": {...}, ...}`` with the
    lances in their order, is read at once: its last byte is a ``}`` and each other ``}`` ends an entry (a
    lance's name and its betting), which begins right after the opening ``{`` or after the ``}, `` of the entry
    before it; the last entry ends right before the closing ``}``. Each distinct entry text is read once
    (:func:`_entry_code`). A case that breaks any of this is doubtful (unless its betting is null or ``{}``)."""
    n = len(bettings)
    text = b"".join(bettings)
    lengths = np.fromiter(map(len, bettings), np.int64, n)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    u8 = np.frombuffer(text + bytes(TEXT_WIDTH), np.uint8)
    closes = np.flatnonzero(u8[: len(text)] == ord("}"))
    low, high = np.searchsorted(closes, starts), np.searchsorted(closes, ends)
    entries = np.maximum(high - low - 1, 0)  # every '}' of a case but its last
    final = closes[np.maximum(high - 1, 0)] if len(closes) else np.full(n, -2)  # each case's last '}'
    framed = (high > low) & (u8[starts] == ord("{")) & (final + 1 == ends)
    last_close = np.zeros(len(closes) + 1, bool)
    last_close[high[high > low] - 1] = True
    closing = closes[~last_close[:-1]]  # the '}' ending each entry, case by case
    case = np.repeat(np.arange(n), entries)
    first = np.ones(len(closing), bool)
    first[1:] = case[1:] != case[:-1]
    before = np.roll(closing, 1)  # the '}' of the entry before (where not first)
    begins = np.where(first, starts[case] + 1, before + 3)  # the quote opening the lance's name
    read = np.where(first, True, (u8[before + 1] == ord(",")) & (u8[before + 2] == ord(" ")))
    last = np.ones(len(closing), bool)
    last[:-1] = first[1:]
    read &= np.where(last, u8[closing + 1] == ord("}"), True)  # the case's closing '}' right after
    entry = codes.entries.codes(u8, begins, closing + 1 - begins, unread=_NOT_A_LANCE)
    lance = entry & 7
    outcome = entry >> 3
    read &= (lance != _NOT_A_LANCE) & ((outcome & 7) != _DOUBTFUL)
    read[1:] &= first[1:] | (lance[1:] > lance[:-1])  # each lance once, in order
    doubtful = (np.bincount(case, ~read, minlength=n) > 0) | ~framed
    for i in np.flatnonzero(entries == 0).tolist():  # no entry: null or {} (all unsaid), else read again
        doubtful[i] = bytes(bettings[i]) not in (_NULL, b"{}")
    said = np.zeros((n, 5), np.int64)
    said[case[read], lance[read]] = outcome[read]
    kinds = (said & 7).astype(np.int8)
    return kinds, said >> 4, ((said >> 3) & 1).astype(np.int8), doubtful


def _encoded_cases(cases: list[Any], codes: _Codes) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The arrays :func:`~musteach.rules.count_batch.count_batch` takes, and the (N,) mask of doubtful cases
    (a field it does not vouch for: another variant, rules options, a bad mano, score, card or betting...).
    A doubtful case holds a harmless stand-in in the arrays."""
    from msgspec import UNSET

    n = len(cases)
    fields = ("hands", "mano_seat", "mano", "variant", "target", "start_score", "rules", "betting")
    hands, mano_seat, mano_alias, variant, target_given, score_given, rules, betting = (
        list(map(attrgetter(name), cases)) for name in fields
    )
    cards, doubtful = _hand_cards(hands)
    ordered = np.sort(cards, axis=1)
    doubtful |= np.any(ordered[:, 1:] == ordered[:, :-1], axis=1)
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
    scores = _score_codes(score_given, codes)
    start = np.stack([scores >> 32, scores & (_SCORE_LIMIT - 1)], axis=1)
    in_game = (scores >= 0) & np.all(start < target[:, None], axis=1)
    given_rules = np.fromiter(map(bool, rules), bool, n) if any(rules) else np.zeros(n, bool)
    kinds, amounts, teams, doubtful_betting = _encoded_betting(betting, codes)
    doubtful |= (mano < 0) | (kings == 0) | (target < 0) | ~in_game | given_rules | doubtful_betting
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


def _score_codes(scores: list[Any], codes: _Codes) -> np.ndarray:
    """(N,) int64: the :func:`_score_code` of each case's raw JSON start score, each distinct text read once."""
    n = len(scores)
    text = b"".join(scores)
    lengths = np.fromiter(map(len, scores), np.int64, n)
    u8 = np.frombuffer(text + bytes(TEXT_WIDTH), np.uint8)
    got = codes.scores.codes(u8, np.cumsum(lengths) - lengths, lengths, unread=_UNREAD_SCORE)
    for i in np.flatnonzero(got == _UNREAD_SCORE).tolist():  # a text too wide for a usual score: read on its own
        got[i] = _score_code(bytes(scores[i]))
    return got


_UNREAD_SCORE = -2


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
        parts, lines = read
        second = _Child(partial(_counted_part, parts[1])) if len(parts) > 1 else None
        try:
            halves = [_counted_part(parts[0])]
            if second is not None:
                halves.append(second.result())
        finally:
            if second is not None:
                second.stop()
    except _Unclean:
        return None
    finally:
        if collecting:
            gc.enable()
    ids = [i for _, _, half_ids in halves for i in half_ids]
    if not ids:
        return None
    counted = CountBatch.joined([c for c, _, _ in halves])
    doubtful = np.concatenate([d for _, d, _ in halves])
    again = np.flatnonzero(doubtful | ~counted.counted).tolist()
    one_by_one: dict[int, str] = {}
    for i, (label, case) in zip(again, _cases_again(data, again, lines), strict=True):
        one_by_one[i] = json.dumps(result_line(*_counted(label, case)), ensure_ascii=False) + "\n"
    labels = Records([], list(range(1, len(ids) + 1)) if lines else None, "case")
    return (
        _joined(ids, labels, counted, one_by_one, start, min(start + _LINES_A_PIECE, len(ids)))
        for start in range(0, len(ids), _LINES_A_PIECE)
    )


def _counted_part(steps: Iterator[list[Any]]) -> tuple[CountBatch, np.ndarray, list[Any]]:
    """``(counted, doubtful, ids)`` of the cases read in ``steps``: their count (as far as the arrays vouch for
    them), the (N,) mask of doubtful cases (see :func:`_encoded_cases`) and their ids, in order."""
    encoded = []
    ids: list[Any] = []
    codes = _Codes.new()
    for cases in steps:
        encoded.append(_encoded_cases(cases, codes))
        ids += [c.id for c in cases]
    if not ids:
        return CountBatch.joined([]), np.zeros(0, bool), ids
    arrays = {name: np.concatenate([a[name] for a, _ in encoded]) for name in encoded[0][0]}
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
    return counted, np.concatenate([d for _, d in encoded]), ids


class _Child:
    """``work()`` done in a child process that :mod:`multiprocessing` forks (it sees this process's memory: nothing
    is sent to it), its result or its exception sent back through a pipe: :meth:`result` waits for it. Where a
    process cannot fork (not Linux), or the child dies without answering, :meth:`result` does the work itself;
    :meth:`stop` ends a child whose result is not wanted."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.work = work
        self.process: Any = None
        if sys.platform != "linux":
            return
        import multiprocessing  # only for large input

        context = multiprocessing.get_context("fork")
        sys.stdout.flush()  # else the child would write what this process has not written yet, again
        sys.stderr.flush()
        self.answers, answering = context.Pipe(duplex=False)
        self.process = context.Process(target=_answer, args=(work, answering), daemon=True)
        self.process.start()
        answering.close()

    def result(self) -> Any:
        """What ``work()`` returns (or raises)."""
        if self.process is None:
            return self.work()
        try:
            ok, value = self.answers.recv()
        except (EOFError, OSError):  # the child died without an answer: do its work here
            ok, value = True, None
        finally:
            self.stop()
        if not ok:
            raise value
        return self.work() if value is None else value

    def stop(self) -> None:
        """End the child, if it still runs, without its result."""
        if self.process is not None:
            self.process.kill()
            self.process.join()
            self.answers.close()
            self.process = None


def _answer(work: Callable[[], Any], answering: Any) -> None:
    """In the child: send ``(True, work())``, or ``(False, the exception)`` for the parent to raise."""
    try:
        answer: tuple[bool, Any] = (True, work())
    except Exception as e:
        answer = (False, e)
    answering.send(answer)


def _cases_again(data: bytes, again: list[int], lines: bool) -> Iterator[tuple[str, Any]]:
    """The labels and cases ``again`` (their places, in order) as :func:`read_cases` reads them: for JSON Lines
    of many cases, each read from its own line; else the whole input read again."""
    if not again:
        return
    if not lines:
        labelled = read_cases(data.decode("utf-8"))
        yield from (labelled[i] for i in again)
        return
    ends = [*np.flatnonzero(np.frombuffer(data, np.uint8) == ord("\n")).tolist(), len(data)]
    labels = Records([], list(range(1, len(ends) + 1)), "case")
    decode = json_decoder().decode
    for i in again:
        text = data[ends[i - 1] + 1 if i else 0 : ends[i]].decode("utf-8")
        yield record_label(labels, i, always_line=True), decode(text)


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
