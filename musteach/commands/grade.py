"""``musteach grade [FILE|-]``: grade learners' answers to "who wins this lance?" and diagnose the mistakes.

Input (a file, or standard input for ``-`` or no FILE): JSON Lines (or a JSON array, or one JSON object) of
``{"hands": [[4 cards] x 4], "mano": m, "lance": "grande", "answer": seat|null}``: the deal as ``musteach
judge`` reads it (cards as codes ``"12o"``, letter codes ``"Ro"`` or Spanish names ``"rey de oros"``; an
optional ``"variant"``, ``"8reyes"`` or ``"4reyes"``), the lance by name (grande, chica, pares, juego or
punto), and the learner's answer: a seat 0..3, or null for "nobody".

Output: one JSON line per input, ``{"correct": bool, "winner": seat|null, "mistake": tag|null,
"explanation": str, "why_not": str|null}``. ``mistake`` names the misconception that explains a wrong
answer (three_is_not_king, two_is_not_ace, chica_from_the_top, quads_not_duples, pares_by_rank_not_kind,
juego_by_total, tie_not_to_mano, punto_with_juego, three_is_not_king+two_is_not_ace (both at once);
tie_not_to_mano whenever the picked hand ties the winner's, else the first that applies), or null for a right
answer or a slip. ``why_not`` says why the picked seat loses; null for a right answer or "nobody".
Bad input exits with status 2 and one line naming the case (numbered from 1, as ``count`` does: ``"case 3"``, or
``"case 3 (line 5)"`` when its line differs) and what is wrong; nothing is printed for any case then. Empty input
is bad input too. ``--lang es`` writes ``explanation``, ``why_not`` and the error messages in Spanish (the keys
and the other values stay the same); an unknown language exits with status 2.

Speed: the whole input is read at once, with typed decoding (the hands of the standard ``json.dumps`` shape
checked and converted in bulk from their raw text), all the answers are diagnosed at once by
:func:`~musteach.teach.diagnosis_batch.diagnose_batch`, and the output is written at once. Input that the
typed reading does not take (text beyond ASCII, a lance spelled otherwise, a bad case) is read by
:func:`~musteach.commands.read_records`, checked case by case in order, so that the first bad case is named.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from itertools import chain, pairwise
from typing import Any, Literal

import numpy as np

from ..cli import add_lang_option
from ..i18n import Text, translator
from ..rules.batch import BATCH_LANCES
from ..rules.cards import CARD_TEXTS
from ..rules.errors import MusError
from ..rules.lances import LANCES, Lance
from ..teach.diagnosis import MISTAKES, Diagnosis, check_answer, diagnose
from ..teach.diagnosis_batch import BatchDiagnosis, diagnose_batch
from . import Records, decode_input, msgspec_error, read_input_bytes, read_records
from .codes import CODE_BYTES, READ_PAST, walk_codes
from .count import record_label, run_in_language
from .help_words import description
from .judge import deal_rules, judge_deal, judge_records


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]  # argparse's private generic
    _ = translator()  # the help texts in the language being spoken (see musteach.cli.help_lang)
    p: argparse.ArgumentParser = sub.add_parser(
        "grade",
        help=_("grade answers to 'who wins this lance?' and name the mistake behind each wrong one"),
        description=description("grade"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE|-", help=_("cases file (default: standard input)"))
    p.add_argument("--kings", type=int, choices=(8, 4), default=8, help=_("8 reyes (3 = rey, 2 = as; default) or 4 reyes"))
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
    :func:`~musteach.commands.judge.judge_records`), then every answer diagnosed at once
    (:func:`~musteach.teach.diagnosis_batch.diagnose_batch`).

    Raises :class:`MusError` naming the first bad case in input order (``"case 3: missing 'lance' ..."``; the
    label's noun is ``records.noun``, ``"case"`` as :func:`read_records` is given it by ``musteach grade``).
    The explanations and messages are in the language being spoken (:func:`musteach.i18n.speaking`).
    """
    batch = _grade_batch(records, kings)
    lances = [LANCES[k] for k in batch.lances.tolist()]
    answers = [None if a < 0 else a for a in batch.answers.tolist()]
    winners = [None if w < 0 else w for w in batch.diagnosis.winner.tolist()]
    return [
        Diagnosis(lance, answer, winner, correct, mistake, explanation, why_not)
        for lance, answer, winner, correct, mistake, explanation, why_not in zip(
            lances, answers, winners, batch.diagnosis.correct.tolist(), batch.diagnosis.mistakes(),
            batch.diagnosis.explanation, batch.diagnosis.why_not, strict=True,
        )
    ]


@dataclass(frozen=True)
class _Graded:
    """The questions of N cases and their diagnosis: (N,) lance indexes and answers (-1: nobody)."""

    lances: np.ndarray
    answers: np.ndarray
    diagnosis: BatchDiagnosis


def _grade_batch(records: Records, kings: int) -> _Graded:
    """:func:`grade_records` as arrays; raises :class:`MusError` naming the first bad case."""
    try:
        _, hands, manos, deal_kings = judge_records(records, kings)
    except MusError:
        _first_bad_case(records, kings)  # a bad deal: the cases are checked one by one, so the first bad one is named
        raise
    n = len(records.items)
    lances = np.empty(n, np.int64)
    answers = np.empty(n, np.int64)
    for i, case in enumerate(records.items):
        try:
            lance, answer = _question(case)
            lances[i] = LANCES.index(Lance.parse(lance))
            answers[i] = -1 if answer is None else answer
        except MusError as e:
            raise type(e)(Text("{where}: {problem}", where=record_label(records, i), problem=e.text or str(e))) from None
    return _Graded(lances, answers, diagnose_batch(hands, manos, lances, answers, deal_kings))


def _first_bad_case(records: Records, kings: int) -> None:
    """Raise the error of the first case that :func:`grade_case` refuses, named by its label. Each case is
    checked as :func:`grade_case` checks it (its deal, lance and answer) without diagnosing the good ones, so
    that a bad case late in a large file is found quickly."""
    for i, case in enumerate(records.items):
        try:
            judge_deal(case, kings)
            lance, _answer = _question(case)
            Lance.parse(lance)
        except MusError as e:
            raise type(e)(Text("{where}: {problem}", where=record_label(records, i), problem=e.text or str(e))) from None


# ----- the bulk path: clean input, read with typed decoding -----------------------------------------------------


@cache
def _clean_decoders(raw_hands: bool) -> tuple[Any, Any]:
    """The typed readers of clean input, JSON Lines and a JSON array: mano an integer, the lance an exact name,
    the answer an integer or null, and the hands kept as their raw JSON text (``raw_hands``, read by
    :func:`_canonical_hands`) or read as 4 hands of 4 exact card codes, letter codes or names (msgspec is
    imported here, when first needed)."""
    import msgspec

    card_text: Any = Literal.__getitem__(tuple(CARD_TEXTS))  # the 120 texts, as msgspec reads a Literal
    lance_name: Any = Literal.__getitem__(BATCH_LANCES)
    hand: Any = tuple[card_text, card_text, card_text, card_text]
    fields: list[Any] = [
        ("hands", msgspec.Raw if raw_hands else tuple[hand, hand, hand, hand]),
        ("mano", int),
        ("lance", lance_name),
        ("answer", int | None),
        ("variant", str | None, None),
    ]
    clean_case: Any = msgspec.defstruct("CleanCase", fields, gc=False)
    return msgspec.json.Decoder(clean_case), msgspec.json.Decoder(list[clean_case])


def _clean_cases(data: bytes, raw_hands: bool) -> list[Any] | None:
    """The cases of ``data`` if it is clean JSON Lines (one case a line, no blank line) or a clean JSON array,
    else None (then :func:`read_records` and :func:`grade_records` read it and name what is wrong)."""
    start = data.lstrip()[:1]
    if not data.isascii() or start not in (b"[", b"{") or (b"\r" in data and data.count(b"\r") != data.count(b"\r\n")):
        return None
    clean_lines, clean_array = _clean_decoders(raw_hands)
    try:
        if start == b"[":
            cases: list[Any] = clean_array.decode(data)
            return cases
        cases = clean_lines.decode_lines(data)
    except msgspec_error():
        return None
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    return cases if len(cases) == lines and b"\n\n" not in data and not data[:1].isspace() else None


# The standard text of 4 hands, as json.dumps writes them with card codes: without the bytes that card codes
# are made of, every "hands" reads as this skeleton; with them, the codes start at these offsets if each has
# 2 bytes (each 3-byte code moves the next ones by one).
_HANDS_SKELETON = b'[["", "", "", ""], ["", "", "", ""], ["", "", "", ""], ["", "", "", ""]]'
_CARD_AT = tuple(3 + 6 * k + 2 * (k // 4) for k in range(16))
_GAPS = tuple(b - a for a, b in pairwise(_CARD_AT))
_HANDS_END = len(b'"]]')


def _canonical_hands(raw: list[Any]) -> np.ndarray | None:
    """(N, 4, 4) card indexes from the raw JSON text of N ``"hands"``, each exactly as ``json.dumps`` writes 4
    hands of 4 card codes (``[["12o", "3c", "7e", "5b"], ["12c", ...], [...], [...]]``); None for any other
    text (names, letter codes, other spacing), which the typed reader then reads. Every byte is checked: the
    bytes between the codes at once (the skeleton), then card by card for all deals at once, each code (2
    bytes, or 3 starting with 1) through a table."""
    n = len(raw)
    text = b"".join(raw)
    if text.translate(None, CODE_BYTES) != _HANDS_SKELETON * n:
        return None
    ends = np.cumsum(np.fromiter(map(len, raw), np.int32, n), dtype=np.int32)
    starts = np.concatenate([np.zeros(1, np.int32), ends[:-1]])
    u8 = np.frombuffer(text + bytes(READ_PAST), np.uint8)  # room to read past the end
    cards = np.empty((n, 16), np.uint8)
    for s in range(0, n, _CHUNK):  # deals in steps small enough for the CPU cache
        got = walk_codes(u8, starts[s : s + _CHUNK] + _CARD_AT[0], _GAPS)
        if got is None or (got[1] + _HANDS_END != ends[s : s + _CHUNK]).any():
            return None
        cards[s : s + _CHUNK] = got[0].T
    return cards.reshape(n, 4, 4)


_CHUNK = 1 << 13  # deals a step: the walk's arrays stay in the CPU cache


def _clean_arrays(cases: list[Any], kings: int, hands: np.ndarray | None = None) -> tuple[np.ndarray, ...] | None:
    """``(hands, manos, lances, answers, kings)`` of clean cases: (N, 4, 4) card indexes (``hands`` when already
    read) and (N,) integers; None when a case needs a closer look (a mano, answer or variant out of range)."""
    n = len(cases)
    if n == 0:
        return None
    if hands is None:
        codes = chain.from_iterable(chain.from_iterable([c.hands for c in cases]))
        hands = np.fromiter(map(_CODE_INDEX.__getitem__, codes), np.uint8, 16 * n).reshape(n, 4, 4)
    try:
        manos = np.fromiter([c.mano for c in cases], np.int64, n)
        given = [c.answer for c in cases]
        answers = np.fromiter([-1 if a is None else a for a in given], np.int64, n)
    except OverflowError:  # an integer beyond 64 bits: the exact path names it
        return None
    if (answers == -1).sum() != given.count(None):  # an answer of -1 is not "nobody": the exact path names it
        return None
    lances = np.fromiter(map(_LANCE_INDEX.__getitem__, [c.lance for c in cases]), np.int64, n)
    variants = {None: kings, "8reyes": 8, "4reyes": 4}
    deal_kings = np.fromiter(map(variants.get, [c.variant for c in cases], [0] * n), np.int64, n)
    if ((manos < 0) | (manos > 3) | (answers < -1) | (answers > 3) | (deal_kings == 0)).any():
        return None
    return hands, manos, lances, answers, deal_kings


_CODE_INDEX: dict[str, int] = {text: card.index for text, card in CARD_TEXTS.items()}
_LANCE_INDEX: dict[str, int] = {name: i for i, name in enumerate(BATCH_LANCES)}


def _grade_clean(data: bytes, kings: int) -> _Graded | None:
    """The cases of clean input graded at once; None for input that needs the exact path (which names the first
    bad case). The hands are read from their raw text when it has the standard shape, else by the typed reader."""
    cases = _clean_cases(data, raw_hands=True)
    if not cases:
        return None
    hands = _canonical_hands([c.hands for c in cases])
    if hands is None:
        cases = _clean_cases(data, raw_hands=False)
    arrays = _clean_arrays(cases, kings, hands) if cases else None
    del cases  # the decoded objects: their memory serves what follows
    if arrays is None:
        return None
    hands, manos, lances, answers, deal_kings = arrays
    try:  # a card dealt twice: the exact path names the case
        diagnosis = diagnose_batch(hands, manos, lances, answers, deal_kings)
    except MusError:
        return None
    return _Graded(lances, answers, diagnosis)


# ----- the output, written at once -------------------------------------------------------------------------------

def _plain(sentences: list[str]) -> bool:
    """True when no sentence needs an escape in JSON (``json.dumps`` would only put quotes around it): none holds
    a control character, a quote or a backslash (in UTF-8 no other character has those bytes)."""
    text = np.frombuffer("".join(sentences).encode("utf-8", "surrogatepass"), np.uint8)
    return not ((text < 0x20) | (text == ord('"')) | (text == ord("\\"))).any()


def grade_lines(diagnosis: BatchDiagnosis) -> str:
    """The output of ``musteach grade``: one JSON line per case (see the module docstring), as
    ``json.dumps(Diagnosis.to_dict(), ensure_ascii=False)`` writes each, joined in one step."""
    n = len(diagnosis.explanation)
    if n == 0:
        return ""
    explanation: list[str] = diagnosis.explanation
    why_not: list[str | None] = diagnosis.why_not
    said = [s for s in why_not if s is not None]
    quote = '"'
    if not (_plain(explanation) and _plain(said)):  # each sentence quoted as JSON, the quotes in the sentence
        explanation = [json.dumps(s, ensure_ascii=False) for s in explanation]
        why_not = [None if s is None else json.dumps(s, ensure_ascii=False) for s in why_not]
        quote = ""
    tags = ["null", *(f'"{m.value}"' for m in MISTAKES)]
    seats = ["null", "0", "1", "2", "3"]
    heads = [
        f'{{"correct": {c}, "winner": {w}, "mistake": {m}, "explanation": {quote}'
        for c in ("false", "true")
        for w in seats
        for m in tags
    ]
    codes = (diagnosis.correct.astype(np.int64) * 5 + diagnosis.winner.astype(np.int64) + 1) * len(tags)
    codes += diagnosis.mistake.astype(np.int64) + 1
    nobody = np.fromiter([s is None for s in why_not], np.intp, n)
    parts = np.empty((n, 5), dtype=object)
    parts[:, 0] = np.array(heads, dtype=object)[codes]
    parts[:, 1] = explanation
    parts[:, 2] = np.array([f'{quote}, "why_not": {quote}', f'{quote}, "why_not": null'], dtype=object)[nobody]
    parts[:, 3] = why_not
    parts[nobody == 1, 3] = ""
    parts[:, 4] = np.array([quote + "}\n", "}\n"], dtype=object)[nobody]
    return "".join(parts.reshape(-1).tolist())


def run(args: argparse.Namespace) -> int:
    """Grade every case of ``args.file`` in the language of ``args.lang`` (see the module docstring)."""
    return run_in_language(args, _run)


@contextmanager
def _no_collector() -> Iterator[None]:
    """Pause Python's cyclic garbage collector inside the block: reading a big input makes millions of small
    tuples, which every collection would walk again (the block makes no reference cycles to collect)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    with _no_collector():
        return _grade_input(args)


def _grade_input(args: argparse.Namespace) -> int:
    data = read_input_bytes(args.file)
    graded = _grade_clean(data, args.kings)
    if graded is None:
        records = read_records(decode_input(data, args.file), "case")
        if not records.items:
            raise MusError(Text("no cases: the input is empty"))
        graded = _grade_batch(records, args.kings)
    sys.stdout.write(grade_lines(graded.diagnosis))
    return 0
