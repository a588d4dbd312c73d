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
import gc
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import Any, Literal

import numpy as np

from ..cli import add_lang_option
from ..i18n import Text
from ..rules.batch import BATCH_LANCES
from ..rules.cards import CARD_TEXTS
from ..rules.errors import MusError
from ..rules.lances import LANCES, Lance
from ..teach.diagnosis import MISTAKES, Diagnosis, check_answer, diagnose
from ..teach.diagnosis_batch import BatchDiagnosis, diagnose_batch
from . import Records, decode_input, msgspec_error, read_input_bytes, read_records
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
    :func:`~musteach.commands.judge.judge_records`), then every answer diagnosed at once
    (:func:`~musteach.teach.diagnosis_batch.diagnose_batch`).

    Raises :class:`MusError` naming the first bad case in input order (``"deal 3: missing 'lance' ..."``).
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
    """Raise the error of the first case that :func:`grade_case` refuses, named by its label."""
    for i, case in enumerate(records.items):
        try:
            grade_case(case, kings)
        except MusError as e:
            raise type(e)(Text("{where}: {problem}", where=record_label(records, i), problem=e.text or str(e))) from None


# ----- the bulk path: clean input, read with typed decoding -----------------------------------------------------


@cache
def _clean_decoders() -> tuple[Any, Any]:
    """The typed readers of clean input, JSON Lines and a JSON array: every card an exact code, letter code or
    name, mano an integer, the lance an exact name, the answer an integer or null (msgspec is imported here,
    when first needed)."""
    import msgspec

    card_text: Any = Literal.__getitem__(tuple(CARD_TEXTS))  # the 120 texts, as msgspec reads a Literal
    lance_name: Any = Literal.__getitem__(BATCH_LANCES)
    hand: Any = tuple[card_text, card_text, card_text, card_text]
    fields: list[Any] = [
        ("hands", tuple[hand, hand, hand, hand]),
        ("mano", int),
        ("lance", lance_name),
        ("answer", int | None),
        ("variant", str | None, None),
    ]
    clean_case: Any = msgspec.defstruct("CleanCase", fields, gc=False)
    return msgspec.json.Decoder(clean_case), msgspec.json.Decoder(list[clean_case])


def _clean_cases(data: bytes) -> list[Any] | None:
    """The cases of ``data`` if it is clean JSON Lines (one case a line, no blank line) or a clean JSON array,
    else None (then :func:`read_records` and :func:`grade_records` read it and name what is wrong)."""
    start = data.lstrip()[:1]
    if not data.isascii() or start not in (b"[", b"{") or (b"\r" in data and data.count(b"\r") != data.count(b"\r\n")):
        return None
    clean_lines, clean_array = _clean_decoders()
    try:
        if start == b"[":
            cases: list[Any] = clean_array.decode(data)
            return cases
        cases = clean_lines.decode_lines(data)
    except msgspec_error():
        return None
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    return cases if len(cases) == lines and b"\n\n" not in data and not data[:1].isspace() else None


def _clean_arrays(cases: list[Any], kings: int) -> tuple[np.ndarray, ...] | None:
    """``(hands, manos, lances, answers, kings)`` of clean cases: (N, 4, 4) card indexes and (N,) integers; None
    when a case needs a closer look (a mano, answer or variant out of range)."""
    n = len(cases)
    if n == 0:
        return None
    codes = chain.from_iterable(chain.from_iterable([c.hands for c in cases]))
    hands = np.fromiter(map(_CODE_INDEX.__getitem__, codes), np.uint8, 16 * n).reshape(n, 4, 4)
    manos = np.fromiter([c.mano for c in cases], np.int64, n)
    lances = np.fromiter(map(_LANCE_INDEX.__getitem__, [c.lance for c in cases]), np.int64, n)
    answers = np.fromiter([-1 if a is None else a for a in [c.answer for c in cases]], np.int64, n)
    variants = {None: kings, "8reyes": 8, "4reyes": 4}
    deal_kings = np.fromiter(map(variants.get, [c.variant for c in cases], [0] * n), np.int64, n)
    if ((manos < 0) | (manos > 3) | (answers < -1) | (answers > 3) | (deal_kings == 0)).any():
        return None
    return hands, manos, lances, answers, deal_kings


_CODE_INDEX: dict[str, int] = {text: card.index for text, card in CARD_TEXTS.items()}
_LANCE_INDEX: dict[str, int] = {name: i for i, name in enumerate(BATCH_LANCES)}


def _grade_clean(data: bytes, kings: int) -> _Graded | None:
    """The cases of clean input graded at once; None for input that needs the exact path (which names the first
    bad case)."""
    cases = _clean_cases(data)
    arrays = _clean_arrays(cases, kings) if cases is not None else None
    if arrays is None:
        return None
    hands, manos, lances, answers, deal_kings = arrays
    try:  # a card dealt twice: the exact path names the case
        diagnosis = diagnose_batch(hands, manos, lances, answers, deal_kings)
    except MusError:
        return None
    return _Graded(lances, answers, diagnosis)


# ----- the output, written at once -------------------------------------------------------------------------------

_NEEDS_ESCAPE = re.compile(r'[\x00-\x1f"\\]')


def _quoted_all(sentences: list[str]) -> list[str]:
    """Each sentence as a JSON string, as ``json.dumps(text, ensure_ascii=False)`` writes it."""
    text = "".join(sentences)
    if (text.isprintable() and '"' not in text and "\\" not in text) or _NEEDS_ESCAPE.search(text) is None:
        return [f'"{s}"' for s in sentences]
    return [json.dumps(s, ensure_ascii=False) for s in sentences]


def grade_lines(diagnosis: BatchDiagnosis) -> str:
    """The output of ``musteach grade``: one JSON line per case (see the module docstring), as
    ``json.dumps(Diagnosis.to_dict(), ensure_ascii=False)`` writes each, joined in one step."""
    n = len(diagnosis.explanation)
    if n == 0:
        return ""
    tags = ["null", *(f'"{m.value}"' for m in MISTAKES)]
    seats = ["null", "0", "1", "2", "3"]
    heads = [
        f'{{"correct": {c}, "winner": {w}, "mistake": {m}, "explanation": '
        for c in ("false", "true")
        for w in seats
        for m in tags
    ]
    codes = (diagnosis.correct.astype(np.int64) * 5 + diagnosis.winner.astype(np.int64) + 1) * len(tags)
    codes += diagnosis.mistake.astype(np.int64) + 1
    head = np.array(heads, dtype=object)[codes].tolist()
    explanation = _quoted_all(diagnosis.explanation)
    why = [s for s in diagnosis.why_not if s is not None]
    quoted = iter(_quoted_all(why))
    why_not = ["null" if s is None else next(quoted) for s in diagnosis.why_not]
    return "".join([f'{h}{e}, "why_not": {y}}}\n' for h, e, y in zip(head, explanation, why_not, strict=True)])


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
        records = read_records(decode_input(data, args.file), "deal")
        if not records.items:
            raise MusError(Text("no cases: the input is empty"))
        graded = _grade_batch(records, args.kings)
    sys.stdout.write(grade_lines(graded.diagnosis))
    return 0
