"""``musteach judge [FILE|-]``: the winner of every lance of each deal (RULES.md §2, §4, §5).

Input (a file, or standard input for ``-`` or no FILE): a JSON array of deals, one JSON object, or JSON
Lines (one deal a line). A deal is ``{"hands": [[4 cards] x 4], "mano": m}``: the hands indexed by seat
0..3, cards as codes (``"12o"``), letter codes (``"Ro"``) or Spanish names (``"rey de oros"``); an
optional ``"variant"`` (``"8reyes"`` or ``"4reyes"``) sets the kings for that deal instead of ``--kings``.

Output: one JSON line per deal, ``{"grande": s, "chica": s, "pares": s|null, "juego": s|null,
"punto": s|null}``; ``--explain`` adds ``"explanations"``, one sentence per lance.
Bad input exits with status 2 and one line naming the deal (numbered from 1) and the bad card, hand,
mano or variant; nothing is printed for any deal then. Input without any deal (empty, blank, ``[]``) is bad too.

Speed: the whole input is read at once, the card codes of all deals are turned into one integer array, the
deals are judged by :func:`~musteach.rules.batch.evaluate_batch`, and the output is written at once.
Only deals that the bulk conversion cannot take (Spanish names, a variant spelled otherwise, a bad deal)
go one by one through the same checks as :func:`judge_deal`.
"""

from __future__ import annotations

import argparse
import json
import mmap
import re
import sys
import threading
from collections.abc import Iterator
from functools import cache
from itertools import chain
from typing import Any, Literal

import numpy as np

from ..cli import add_lang_option, spoken
from ..i18n import Text, translator
from ..rules.batch import BATCH_LANCES, evaluate_batch, explanation_table
from ..rules.cards import CARD_TEXTS, parse_hands
from ..rules.errors import MusError, RulesError, SeatError
from ..rules.lances import DealResult, check_seat, evaluate
from ..rules.options import Rules
from . import UTF8_BOM, Records, decode_input, msgspec_error, read_input_bytes, read_records
from .codes import NO_CARD, card_key_table
from .help_words import description

_VARIANTS = {"8reyes": 8, "4reyes": 4}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    _ = translator()  # the help texts in the language being spoken (see musteach.cli.help_lang)
    p: argparse.ArgumentParser = sub.add_parser(
        "judge",
        help=_("judge deals: print the winner of every lance as a JSON line"),
        description=description("judge"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE|-", help=_("deals file (default: standard input)"))
    p.add_argument(
        "--kings", type=int, choices=(8, 4), default=8, help=_("8 reyes (3 = rey, 2 = as; default) or 4 reyes")
    )
    p.add_argument("--la-real", action="store_true", help=_("7-7-7-sota beats every other 31 (RULES.md §13)"))
    p.add_argument("--explain", action="store_true", help=_("add one sentence per lance saying why"))
    add_lang_option(p)
    return p



def read_deals(text: str) -> list[tuple[str, Any]]:
    """Deals from a JSON array, one JSON object, or JSON Lines, each with its label (``"deal 3"``).

    Raises :class:`MusError` naming the deal (or line) for text that is not JSON.

    >>> [label for label, _ in read_deals('{"mano": 0}\\n\\n{"mano": 1}\\n')]
    ['deal 1', 'deal 2 (line 3)']
    """
    records = read_records(text, "deal")
    return [(records.label(i), d) for i, d in enumerate(records.items)]


def deal_rules(deal: dict[str, Any], kings: int, la_real: bool) -> Rules:
    """The rules of one deal: its ``"variant"`` if it has one, else ``kings``; la real from the flag.

    Raises :class:`RulesError` for a variant other than ``"8reyes"`` / ``"4reyes"``.
    """
    variant = deal.get("variant")
    if variant is not None:
        if not isinstance(variant, str) or variant.strip().lower() not in _VARIANTS:
            raise RulesError(Text("unknown variant {variant}: use '8reyes' or '4reyes'", variant=repr(variant)))
        kings = _VARIANTS[variant.strip().lower()]
    return Rules(kings=kings, la_real=la_real)


def _checked(deal: Any, kings: int, la_real: bool) -> tuple[Any, int, Rules]:
    """The hands, mano and rules of one input deal object, its shape checked; raises :class:`MusError`."""
    if not isinstance(deal, dict):
        raise MusError(Text("expected an object with 'hands' and 'mano', not {value}", value=json.dumps(deal)[:60]))
    if "hands" not in deal:
        raise MusError(Text("missing 'hands' (4 hands of 4 cards, indexed by seat)"))
    if "mano" not in deal:
        raise SeatError(Text("missing 'mano' (the seat 0, 1, 2 or 3 that speaks first)"))
    rules = deal_rules(deal, kings, la_real)
    hands = deal["hands"]
    if not isinstance(hands, list):
        raise MusError(Text("'hands' must be a list of 4 hands, not {value}", value=json.dumps(hands)[:60]))
    return hands, deal["mano"], rules


def judge_deal(deal: Any, kings: int = 8, la_real: bool = False) -> DealResult:
    """Judge one input deal object (see the module docstring); raises a :class:`MusError` naming the problem."""
    hands, mano, rules = _checked(deal, kings, la_real)
    return evaluate(hands, mano, rules)


# ----- the bulk path -------------------------------------------------------------------------------------------

_CODE_INDEX: dict[str, int] = {text: card.index for text, card in CARD_TEXTS.items()}
_SOTA_DE_OROS = CARD_TEXTS["10o"].index



def _seat_or_bad(mano: Any) -> int:
    return mano if type(mano) is int and 0 <= mano <= 3 else -1


def _bulk(deals: list[Any], kings: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(hands, manos, kings, doubtful)``: (N, 16) uint8 card indexes, (N,) int8 manos, (N,) uint8 kings and
    the (N,) bool mask of deals the bulk conversion could not take (they go through :func:`_checked`).

    Raises TypeError or ValueError when the input is too irregular for bulk conversion at all.
    """
    n = len(deals)
    if set(map(type, deals)) != {dict}:
        raise TypeError("not every deal is an object")
    hands = [d.get("hands") for d in deals]
    inner = list(chain.from_iterable(hands))  # TypeError if a "hands" is not iterable
    if len(inner) != 4 * n or set(map(type, hands)) != {list} or set(map(type, inner)) != {list}:
        raise ValueError("not every deal has 4 hands")
    if set(map(len, inner)) != {4}:
        raise ValueError("not every hand has 4 cards")
    flat = np.fromiter(map(_CODE_INDEX.get, chain.from_iterable(inner), [NO_CARD] * (16 * n)), np.uint8, 16 * n)
    cards = flat.reshape(n, 16)
    manos = np.fromiter(map(_seat_or_bad, [d.get("mano") for d in deals]), np.int8, n)
    variants = {None: kings, "8reyes": 8, "4reyes": 4}
    deal_kings = np.fromiter(map(variants.get, [d.get("variant") for d in deals], [0] * n), np.uint8, n)
    ordered = np.sort(cards, axis=1)
    doubtful = (ordered[:, -1] == NO_CARD) | (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    doubtful |= (manos < 0) | (deal_kings == 0)
    return cards, manos, deal_kings, doubtful


@cache
def _clean_decoders() -> tuple[Any, Any]:
    """The typed readers of clean input, JSON Lines and a JSON array: every card an exact code, letter code or
    name, mano an integer (msgspec is imported here, when first needed)."""
    import msgspec

    card_text: Any = Literal.__getitem__(tuple(CARD_TEXTS))  # the 120 texts, as msgspec reads a Literal
    hand: Any = tuple[card_text, card_text, card_text, card_text]
    clean_deal: Any = msgspec.defstruct(
        "CleanDeal", [("hands", tuple[hand, hand, hand, hand]), ("mano", int), ("variant", str | None, None)]
    )
    return msgspec.json.Decoder(clean_deal), msgspec.json.Decoder(list[clean_deal])


def _clean_deals(text: str) -> list[Any] | None:
    """The deals of ``text`` if it is clean JSON Lines or a clean JSON array, else None (then
    :func:`read_records` and :func:`judge_records` read it and name what is wrong)."""
    start = text.lstrip()[:1]
    if not text.isascii() or start not in ("[", "{") or text.count("\r") != text.count("\r\n"):
        return None
    clean_lines, clean_array = _clean_decoders()
    try:
        if start == "[":
            deals: list[Any] = clean_array.decode(text)
            return deals
        deals = clean_lines.decode_lines(text)
    except msgspec_error():
        return None
    lines = text.split("\n")
    if lines[-1].strip() == "":
        lines.pop()
    # one deal on each line, and no blank line: then no line held two deals
    return deals if len(deals) == len(lines) and all(map(str.strip, lines)) else None


def _judge_clean(deals: list[Any], kings: int, la_real: bool) -> tuple[np.ndarray, ...] | None:
    """:func:`judge_records` for deals from :func:`_clean_deals`; None when a deal needs a closer look."""
    n = len(deals)
    if n == 0:
        return None
    codes = chain.from_iterable(chain.from_iterable([d.hands for d in deals]))
    cards = np.fromiter(map(_CODE_INDEX.__getitem__, codes), np.uint8, 16 * n).reshape(n, 16)
    manos = np.fromiter(map(_seat_or_bad, [d.mano for d in deals]), np.int8, n)
    variants = {None: kings, "8reyes": 8, "4reyes": 4}
    deal_kings = np.fromiter(map(variants.get, [d.variant for d in deals], [0] * n), np.uint8, n)
    ordered = np.sort(cards, axis=1)
    if (ordered[:, 1:] == ordered[:, :-1]).any() or (manos < 0).any() or (deal_kings == 0).any():
        return None
    return (*_judge_arrays(cards, manos, deal_kings, la_real), deal_kings)


# ----- the fast path: the standard file shape, parsed as bytes ------------------------------------------------
#
# One deal a line, exactly as ``json.dumps({"hands": hands, "mano": m})`` writes it with card codes:
#   {"hands": [["12o", "3c", "7e", "5b"], ["12c", ...], [...], [...]], "mano": 0}
# The lines are read all at once, card by card, in steps of about a megabyte (so that the reads stay in the
# CPU cache), and every byte of every line is checked as it is read:
#   1. each line starts with {"hands": [[" (_HEAD_1 and _HEAD_2, two overlapping 8-byte words);
#   2. a card code starts right after it; the three bytes there, as one number, give the card and the code's
#      length in one table (codes.card_key_table), or 0 for anything that is not a code;
#   3. right after each code comes _BETWEEN (the next code of the hand), _NEXT_HAND (the next hand's first code)
#      or, after the 16th, _TAIL_1 and _TAIL_2: "mano": a digit 0..3, "}" and the newline that ends the line.
# Nothing is searched for but the newlines. Each read takes 8 bytes at once: the 4 bytes before a code and the
# code's first three are one read. Anything else (other spacing, another key, a name, a bad card, a blank line,
# \r\n) returns None, and the input goes through the exact per-deal path, which names the first bad deal.


def _word(text: bytes) -> int:
    return int.from_bytes(text, "little")


_HEAD_1, _HEAD_2 = _word(b'{"hands"'), _word(b'ds": [["')  # bytes 0..7 and 5..12 of a line
_FIRST_CODE = len(b'{"hands": [["')
_BETWEEN = _word(b'", "')  # from a code's closing quote to the next code
_NEXT_HAND, _SIX_BYTES = _word(b'"], ["'), (1 << 48) - 1
_TAIL_1 = _word(b'"]], "ma')  # from the 16th code's closing quote
_DIGIT_AT = 40  # the mano digit is byte 5 of the second word of the tail
_NOT_DIGIT = ((1 << 64) - 1) ^ (0xFF << _DIGIT_AT)
_TAIL_2 = _word(b'no": 0}\n') & _NOT_DIGIT
_LONGEST_LINE = _FIRST_CODE + 16 * 3 + 12 * 4 + 3 * 6 + 16  # the reads of a line stay within this of its start
_STEP_BYTES = 1 << 20  # bytes of input a step: small enough for the CPU cache


def standard_deals(data: bytes | mmap.mmap) -> tuple[np.ndarray, np.ndarray] | None:
    """``(cards, manos)`` of input in the standard shape (see above): (N, 16) uint8 card indexes, seat 0's
    four cards first, and (N,) int8 manos; None for any other input. Cards are not checked for repeats.
    ``data``: bytes, or a read-only memory map of a file.

    >>> cards, manos = standard_deals(b'{"hands": [["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"], '
    ...                               b'["1o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"]], "mano": 2}\\n')
    >>> cards.tolist(), manos.tolist()
    ([[36, 9, 26, 19, 37, 32, 33, 14, 0, 1, 12, 16, 21, 22, 28, 7]], [2])
    >>> standard_deals(b'{"hands": [], "mano": 2}') is None
    True
    """
    if data[:_FIRST_CODE] != b'{"hands": [["':
        return None
    u8 = np.frombuffer(data, np.uint8)
    if u8[-1] != ord("\n"):
        u8 = np.concatenate([u8, np.array([ord("\n")], np.uint8)])
    steps = []  # (first byte, end): about _STEP_BYTES of whole lines each
    start = 0
    while start < len(u8):
        end = data.find(b"\n", min(start + _STEP_BYTES, len(data) - 1)) + 1 or len(u8)
        steps.append((start, end))
        start = end
    # two threads, each taking every other step: numpy lets go of the GIL while it works on a step's arrays
    results: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(steps)

    def work(first: int) -> None:
        for i in range(first, len(steps), 2):
            start, end = steps[i]
            if end + _LONGEST_LINE + 8 <= len(u8):
                step = u8[start : end + _LONGEST_LINE + 8]  # a bad line's reads may run into the next step
            else:  # the last step: room to read past a bad last line
                step = np.concatenate([u8[start:end], np.zeros(_LONGEST_LINE + 8, np.uint8)])
            results[i] = _standard_step(step, end - start)
            if results[i] is None:
                return

    helper = threading.Thread(target=work, args=(1,))
    helper.start()
    work(0)
    helper.join()
    if any(got is None for got in results):
        return None
    cards = np.concatenate([got[0] for got in results if got is not None])
    manos = np.concatenate([got[1] for got in results if got is not None])
    return cards, manos


def _standard_step(u8: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`standard_deals` on the whole lines of the first ``size`` bytes of ``u8`` (which holds enough bytes
    after them for a bad line's reads)."""
    ends = np.flatnonzero(u8[:size] == ord("\n"))
    n = len(ends)
    at = np.empty(n, np.int64)  # where each line's next code starts
    at[0] = 0
    at[1:] = ends[:-1] + 1
    words = np.ndarray((len(u8) - 7,), "<u8", u8, 0, (1,))  # the 8 bytes from every place
    bad = words[at] != _HEAD_1
    bad |= words[at + 5] != _HEAD_2
    at += _FIRST_CODE
    table = card_key_table()
    cards = np.empty((16, n), np.uint8)
    for k in range(16):  # at: where the k-th code of each line starts
        if k % 4 == 0:  # a hand's first code
            if k:
                bad |= (words[at - 6] & _SIX_BYTES) != _NEXT_HAND
            key = words[at]
        else:  # one read: the 4 bytes between this code and the one before, then this code's first bytes
            before = words[at - 4]
            bad |= (before & 0xFFFFFFFF) != _BETWEEN
            key = before >> 32
        key &= 0xFFFFFF
        cards[k] = table[key.view(np.intp)]  # the card + 1, and + 64 for a 3-byte code
        at += cards[k] >> 6
        at += 2 if k == 15 else 6 if k % 4 < 3 else 8  # to the closing quote, or to the next code
    bad |= words[at] != _TAIL_1
    last = words[at + 8]
    bad |= (last & _NOT_DIGIT) != _TAIL_2
    bad |= at + 15 != ends
    manos = ((last >> _DIGIT_AT) & 0xFF).astype(np.int8) - np.int8(ord("0"))
    if bad.any() or (manos < 0).any() or (manos > 3).any() or not cards.all():
        return None
    cards -= 1
    cards &= 63
    return cards.T, manos


def judge_records(records: Records, kings: int = 8, la_real: bool = False) -> tuple[np.ndarray, ...]:
    """Judge every deal of an input at once: ``(winners, hands, manos, kings)``.

    winners: (N, 5) int8, the winning seat of grande, chica, pares, juego and punto, -1 for none;
    hands: (N, 4, 4) uint8 card indexes; manos: (N,) int8; kings: (N,) uint8, 8 or 4, each deal's own
    ``"variant"`` or else ``kings``.
    Raises :class:`MusError` naming the first bad deal (``"deal 3: seat 1: unknown card '8b'"``), or saying
    there are no deals.
    """
    deals = records.items
    n = len(deals)
    if n == 0:
        raise MusError(Text("no deals: the input holds none (give a JSON array, an object or JSON Lines of deals)"))
    try:
        cards, manos, deal_kings, doubtful = _bulk(deals, kings)
    except (TypeError, ValueError):
        cards = np.zeros((n, 16), np.uint8)
        manos = np.zeros(n, np.int8)
        deal_kings = np.full(n, kings, np.uint8)
        doubtful = np.ones(n, bool)
    for i in np.flatnonzero(doubtful).tolist():
        try:
            hands, mano, rules = _checked(deals[i], kings, la_real)
            manos[i] = check_seat(mano, "mano")
            cards[i] = [c.index for hand in parse_hands(hands) for c in hand]
        except MusError as e:
            raise type(e)(Text("{label}: {reason}", label=records.label_text(i), reason=e.reason)) from None
        deal_kings[i] = rules.kings
    return (*_judge_arrays(cards, manos, deal_kings, la_real), deal_kings)


def _judge_arrays(
    cards: np.ndarray, manos: np.ndarray, deal_kings: np.ndarray, la_real: bool, validate: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(winners, hands, manos)`` of deals: (N, 16) card indexes 0..39, their manos and kings (8 or 4).
    With ``validate``, raises :class:`~musteach.rules.errors.DuplicateCardError` for a card dealt twice."""
    n = len(cards)
    hands4 = cards.reshape(n, 4, 4)
    winners = np.empty((n, 5), np.int8)
    for k in (8, 4):
        chosen = deal_kings == k
        if not chosen.any():
            continue
        every = bool(chosen.all())
        stacked = _evaluate_in_two(
            hands4 if every else hands4[chosen],
            manos if every else manos[chosen],
            Rules(kings=k, la_real=la_real),
            validate,
        )
        if every:
            winners = stacked
        else:
            winners[chosen] = stacked
    return winners, hands4, manos


_TWO_THREADS_FROM = 1 << 16  # deals: fewer are judged in one thread


def _evaluate_in_two(hands: np.ndarray, manos: np.ndarray, rules: Rules, validate: bool) -> np.ndarray:
    """(N, 5) int8 winners of :func:`~musteach.rules.batch.evaluate_batch`, the two halves of many deals judged
    in two threads (numpy lets go of the GIL while it works). A :class:`MusError` of the first half is raised
    before one of the second; the second half's names a deal by its index in that half (``judge_input``
    catches it and the exact path names the deal)."""

    def judged(lo: int, hi: int) -> np.ndarray:
        got = evaluate_batch(hands[lo:hi], manos[lo:hi], rules, validate=validate)
        return np.stack([got[name] for name in BATCH_LANCES], axis=1)

    n = len(hands)
    if n < _TWO_THREADS_FROM:
        return judged(0, n)
    half = n // 2
    second: list[np.ndarray | Exception] = []

    def judge_second() -> None:
        try:
            second.append(judged(half, n))
        except Exception as e:  # raised in the calling thread below
            second.append(e)

    helper = threading.Thread(target=judge_second)
    helper.start()
    try:
        first = judged(0, half)
    finally:
        helper.join()
    if isinstance(second[0], Exception):
        raise second[0]
    return np.concatenate([first, second[0]])


def _line_table() -> list[str]:
    """The output line of every combination of winners, indexed by :func:`_line_codes`."""
    # as json.dumps writes {"grande": g, ...}: the keys in lance order, null for None
    seats = ["null", "0", "1", "2", "3"]
    return [
        f'{{"grande": {g}, "chica": {c}, "pares": {p}, "juego": {j}, "punto": {pu}}}'
        for g in seats
        for c in seats
        for p in seats
        for j in seats
        for pu in seats
    ]


def _line_codes(winners: np.ndarray) -> np.ndarray:
    """(N,) intp: each deal's place in :func:`_line_table`, from its (N, 5) winners (-1 for none)."""
    w = winners.astype(np.intp) + 1
    codes: np.ndarray = (((w[:, 0] * 5 + w[:, 1]) * 5 + w[:, 2]) * 5 + w[:, 3]) * 5 + w[:, 4]
    return codes


def explain_lines(
    winners: np.ndarray,
    hands: np.ndarray,
    manos: np.ndarray,
    deal_kings: np.ndarray,
    la_real: bool,
    lang: str | None = None,
) -> Iterator[str]:
    """The ``--explain`` output, one line per deal: its winners and its five sentences in ``lang`` (None: the
    language being spoken), from judged arrays (see :func:`judge_records`), in pieces of whole lines to write
    one after the other. The JSON keys are the same in every language.

    The sentences come from :func:`~musteach.rules.batch.explanation_table`, each distinct one quoted once and
    joined to the text that follows it in the line; a line is then six pieces (the winners, and a sentence per
    lance), gathered from those tables and joined a few thousand lines at a time."""
    said = explanation_table(hands, manos, Rules(la_real=la_real), kings=deal_kings, lang=lang)
    heads = [line[:-1] + ', "explanations": {"grande": "' for line in _line_table()]
    tables = [(np.array(heads, dtype=object), _line_codes(winners))]
    for k, lance in enumerate(BATCH_LANCES):
        sentences, which = said[lance]
        after = f'", "{BATCH_LANCES[k + 1]}": "' if k < 4 else '"}}\n'
        tables.append((np.array([text + after for text in _escaped(sentences)], dtype=object), which))
    n = len(hands)
    for start in range(0, n, _LINES_A_PIECE):
        parts = np.empty((min(_LINES_A_PIECE, n - start), len(tables)), dtype=object)
        for k, (texts, which) in enumerate(tables):
            parts[:, k] = texts[which[start : start + _LINES_A_PIECE]]
        yield "".join(parts.reshape(-1).tolist())


_LINES_A_PIECE = 1 << 13  # lines joined at once: a few MB of text, kept in the CPU cache while written
_NEEDS_ESCAPE = re.compile(r'[\x00-\x1f"\\]')
_ESCAPED = '"\\' + "".join(map(chr, range(32)))  # the characters JSON writes escaped


def _escaped(texts: list[str]) -> list[str]:
    """Each text as the inside of a JSON string, as ``json.dumps(text, ensure_ascii=False)`` writes it (no quotes
    around it). Most sentences need no escaping: all are searched at once first, one character at a time (a
    search for one character is far faster than a regular expression's)."""
    every = "".join(texts)
    if not any(c in every for c in _ESCAPED):
        return texts
    return [json.dumps(text, ensure_ascii=False)[1:-1] if _NEEDS_ESCAPE.search(text) else text for text in texts]


def judge_input(data: bytes | mmap.mmap, path: str, kings: int = 8, la_real: bool = False) -> tuple[np.ndarray, ...]:
    """:func:`judge_records` on the bytes of an input file (``path`` names it in messages; ``data``: bytes, or a
    read-only memory map of the file): input of the standard shape is read by :func:`standard_deals`, any other
    through :func:`read_records`, so that the first bad deal is named. Raises :class:`MusError` as
    :func:`judge_records` does."""
    standard = standard_deals(data) if len(data) else None
    if standard is not None:
        cards, manos = standard
        deal_kings = np.full(len(cards), kings, np.uint8)
        try:  # a card dealt twice: the exact path below names the deal
            return (*_judge_arrays(cards, manos, deal_kings, la_real, validate=True), deal_kings)
        except MusError:
            pass
    text = decode_input(data if isinstance(data, bytes) else data[:], path)
    clean = _clean_deals(text)
    judged = _judge_clean(clean, kings, la_real) if clean is not None else None
    return judged if judged is not None else judge_records(read_records(text, "deal"), kings, la_real)


def mapped_input(path: str) -> bytes | mmap.mmap:
    """The input of ``path`` (``"-"``: standard input) for :func:`judge_input`: a regular file is mapped into
    memory (read-only, its pages mapped at once), which spares copying it; anything else is read, and so is a
    file starting with a UTF-8 byte-order mark (:func:`read_input_bytes` drops the mark). Raises
    :class:`MusError` naming the file when it cannot be read."""
    if path != "-":
        try:
            with open(path, "rb") as f:
                mapped = mmap.mmap(f.fileno(), 0, flags=mmap.MAP_PRIVATE | _POPULATE, prot=mmap.PROT_READ)
        except (OSError, ValueError):  # not a regular file, or empty: read it (and name the file if unreadable)
            pass
        else:
            if mapped[: len(UTF8_BOM)] != UTF8_BOM:
                return mapped
            mapped.close()
    return read_input_bytes(path)


_POPULATE = getattr(mmap, "MAP_POPULATE", 0)  # Linux: map every page at once rather than one fault a page
_LINES_A_WRITE = 8192


def run(args: argparse.Namespace) -> int:
    winners, hands, manos, deal_kings = judge_input(mapped_input(args.file), args.file, args.kings, args.la_real)
    if args.explain:
        sys.stdout.writelines(explain_lines(winners, hands, manos, deal_kings, args.la_real, spoken(args)))
    else:
        lines, codes = np.array([line + "\n" for line in _line_table()], dtype=object), _line_codes(winners)
        for start in range(0, len(codes), _LINES_A_WRITE):  # written in pieces: less memory, no page faults
            sys.stdout.write("".join(lines[codes[start : start + _LINES_A_WRITE]].tolist()))
    return 0
