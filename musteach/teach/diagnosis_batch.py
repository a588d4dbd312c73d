"""Mistake diagnosis for many answers at once: :func:`~musteach.teach.diagnosis.diagnose`'s verdicts and
sentences, word for word, for N answers to "who wins this lance?" (``musteach grade``; RULES.md §1–§5).

Each :class:`~musteach.teach.diagnosis.Mistake` is the answer being the winner under a mistaken rule
(:class:`~musteach.teach.diagnosis.Reading`). A hand's standing under a reading depends only on its four ranks
and the kings played, so every distinct hand (at most 715 rank sets per variant) is read once under each
reading with :func:`~musteach.teach.diagnosis.read_hand` and :func:`~musteach.teach.diagnosis.lance_key`;
the winner under each reading is then worked out for all deals at once with numpy, as
:func:`~musteach.teach.diagnosis.winner_under` works it out for one. The true winners come from
:func:`~musteach.rules.batch.evaluate_batch`, the sentences of right answers from
:func:`~musteach.rules.batch.explanation_table`, and every other sentence from its template, translated once
and filled from per-hand word tables.

>>> import numpy as np
>>> from musteach.rules.batch import deals_to_array
>>> deal = [["3o", "3c", "7e", "4b"], ["12c", "11o", "7c", "6e"], ["1o", "5c", "6o", "10e"], ["4c", "5e", "6c", "7o"]]
>>> d = diagnose_batch(deals_to_array([deal, deal]), 0, np.array([0, 0]), np.array([1, 0]))
>>> d.winner.tolist(), d.correct.tolist(), [str(m) for m in d.mistakes()]
([0, 0], [False, True], ['three_is_not_king', 'None'])
>>> print(d.why_not[0])
Seat 1's R-C-7-6 loses to seat 0's R-R-7-4 on the second card.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from itertools import repeat
from typing import TYPE_CHECKING, Self

from ..i18n import N_, Text, Translator, translator
from ..lazy import lazy_module
from ..rules.batch import BATCH_LANCES, check_batch, evaluate_batch, explanation_table
from ..rules.cards import DECK, Hand
from ..rules.errors import MusError, RulesError, SeatError
from ..rules.lances import LANCES, HandInfo, Lance
from ..rules.options import Rules
from .diagnosis import (
    JUEGO_RANKS,
    KIND_BEATS,
    MISREAD_RANK,
    MISTAKE_FACTS,
    MISTAKES,
    ON_CARD,
    Mistake,
    Reading,
    lance_key,
    read_hand,
)

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_module("numpy")

__all__ = ["BatchDiagnosis", "diagnose_batch"]

_GRANDE, _CHICA, _PARES, _JUEGO, _PUNTO = range(5)
_READINGS: tuple[Reading, ...] = (Reading(), *(Reading.of(m) for m in MISTAKES))  # reading 1 + k: MISTAKES[k]
_PUNTO_WITH_JUEGO = 1 + MISTAKES.index(Mistake.PUNTO_WITH_JUEGO)
_TIE_NOT_TO_MANO = 1 + MISTAKES.index(Mistake.TIE_NOT_TO_MANO)
_RANK_CLASS = 10_000  # above every id of four sorted rank positions: marks 4 reyes (see _hand_classes)


@dataclass(frozen=True)
class BatchDiagnosis:
    """The verdicts on N answers, indexed by answer (see :class:`~musteach.teach.diagnosis.Diagnosis`).

    winner: (N,) int8, the real winner, -1 for nobody. correct: (N,) bool. mistake: (N,) int8, the index in
    :data:`~musteach.teach.diagnosis.MISTAKES` of the misconception behind a wrong answer, -1 for none.
    explanation: N sentences. why_not: N sentences, None for a right answer or "nobody".
    """

    winner: np.ndarray
    correct: np.ndarray
    mistake: np.ndarray
    explanation: list[str]
    why_not: list[str | None]

    def mistakes(self) -> list[Mistake | None]:
        """The mistakes as :class:`~musteach.teach.diagnosis.Mistake` members (None for none), indexed by answer."""
        members: list[Mistake | None] = [*MISTAKES, None]
        return [members[k] for k in self.mistake.tolist()]


def _as_lances(lance: object, n: int) -> np.ndarray:
    arr = np.broadcast_to(np.asarray(lance), (n,))
    if arr.dtype.kind in "US" or arr.dtype == object:
        arr = np.array([Lance.parse(x).value for x in arr.tolist()], dtype=object)
        return np.array([BATCH_LANCES.index(x) for x in arr.tolist()], dtype=np.int64)
    if not np.issubdtype(arr.dtype, np.integer) or (arr.size and (arr.min() < 0 or arr.max() > 4)):
        raise MusError(Text("lance must be an index 0..4 (grande, chica, pares, juego, punto) or a lance name"))
    return arr.astype(np.int64)


def _as_answers(answer: object, n: int) -> np.ndarray:
    arr = np.broadcast_to(np.asarray(answer), (n,))
    if not np.issubdtype(arr.dtype, np.integer):
        raise SeatError(Text("answer must hold seats 0, 1, 2 or 3, or -1 for nobody, not {dtype} values", dtype=arr.dtype))
    bad = np.flatnonzero((arr < -1) | (arr > 3))
    if bad.size:
        i = int(bad[0])
        raise SeatError(Text("answer at index {index} must be a seat 0, 1, 2 or 3, or -1 for nobody, not {value}",
                             index=i, value=int(arr[i])))
    return arr.astype(np.int64)


def diagnose_batch(
    hands: object,
    mano: object,
    lance: object,
    answer: object,
    kings: object = 8,
    *,
    lang: str | None = None,
) -> BatchDiagnosis:
    """Judge N answers to "who wins this lance?" and name the misconception behind each wrong one, exactly as
    :func:`~musteach.teach.diagnosis.diagnose` does one by one (RULES.md §1–§5; la real is not read).

    hands: (N, 4, 4) integer array of card indexes 0..39 (``hands[n, seat]``, checked as
    :func:`~musteach.rules.batch.check_batch` checks them). mano: one seat 0..3 or (N,) seats. lance: one lance
    or (N,): indexes 0..4 in :data:`~musteach.rules.lances.LANCES` order, or lance names. answer: (N,) seats
    0..3, -1 for "nobody". kings: 8 or 4, or (N,) of them, each deal's variant. lang: the language of the
    sentences (None: the language being spoken).

    Raises what :func:`~musteach.rules.batch.check_batch` raises, :class:`~musteach.rules.errors.SeatError`
    for an answer outside -1..3, :class:`~musteach.rules.errors.MusError` for an unknown lance,
    :class:`~musteach.rules.errors.RulesError` for kings other than 8 or 4, or
    :class:`~musteach.rules.errors.LanguageError` for a language with no catalog.
    """
    _ = translator(lang)
    arr, manos = check_batch(hands, mano)
    n = arr.shape[0]
    lances = _as_lances(lance, n)
    answers = _as_answers(answer, n)
    deal_kings = np.broadcast_to(np.asarray(kings), (n,)).astype(np.int64)
    if n and not np.isin(deal_kings, (8, 4)).all():
        raise RulesError(Text("kings must be 8 or 4 for each of the {n} deals (RULES.md §13)", n=n))
    rows = np.arange(n)
    winner = _true_winners(arr, manos, deal_kings)[rows, lances]
    classes, hands_of_class, kings_of_class = _hand_classes(arr, deal_kings)
    tables = _ReadingTables.build(hands_of_class, kings_of_class)
    m64 = manos.astype(np.int64)
    correct = answers == winner
    mistake = np.full(n, -1, np.int64)
    open_rows = ~correct
    ties = _ties(tables, classes, lances, answers, winner.astype(np.int64), open_rows)
    mistake[ties] = _TIE_NOT_TO_MANO - 1  # a hand equal to the winner's lost on the tie alone (see diagnose)
    open_rows[ties] = False
    for r in range(1, len(_READINGS)):
        rows = np.flatnonzero(open_rows & tables.may_differ(r)[lances])
        got = tables.winners(r, classes[rows], m64[rows], lances[rows])
        hit = rows[got == answers[rows]]
        mistake[hit] = r - 1
        open_rows[hit] = False
    cases = _Cases(classes, m64, lances, answers, winner.astype(np.int64), mistake)
    words = _Words.build(_, tables)
    explanation = np.empty(n, dtype=object)
    why_not = np.full(n, None, dtype=object)
    right = np.flatnonzero(correct)
    if right.size:
        said = explanation_table(arr[right], manos[right], kings=deal_kings[right], lang=_.lang)
        for li, name in enumerate(BATCH_LANCES):
            sentences, which = said[name]
            mine = lances[right] == li
            explanation[right[mine]] = np.array(sentences, dtype=object)[which[mine]]
    wrong = np.flatnonzero(~correct)
    if wrong.size:
        told = cases.take(wrong)
        facts = _Facts.of(words, tables, told)
        explanation[wrong] = _explain_wrong(words, tables, told, facts)
        picked = np.flatnonzero(told.answers >= 0)
        why_not[wrong[picked]] = _why_not(words, tables, told.take(picked), facts.take(picked))
    return BatchDiagnosis(winner.astype(np.int8), correct, mistake.astype(np.int8), explanation.tolist(), why_not.tolist())


def _ties(
    tables: _ReadingTables, classes: np.ndarray, lances: np.ndarray, answers: np.ndarray, winners: np.ndarray,
    rows: np.ndarray,
) -> np.ndarray:
    """(N,) bool: the wrong answers (``rows``) naming a seat whose hand ties the real winner's exactly in its
    lance (it takes part, and its key equals the winner's), as :meth:`~musteach.teach.diagnosis` finds them."""
    out = rows & (answers >= 0) & (winners >= 0)
    at = np.flatnonzero(out)
    if at.size:
        mine = classes[at, answers[at]]
        theirs = classes[at, winners[at]]
        keys = tables.keys[0]
        same = (keys[lances[at], mine] == keys[lances[at], theirs]) & (keys[lances[at], mine] > 0)
        same &= ~((lances[at] == _PUNTO) & tables.juego[0][mine])
        out[at] = same
    return out


def _true_winners(arr: np.ndarray, manos: np.ndarray, deal_kings: np.ndarray) -> np.ndarray:
    """(N, 5) int64: the winner of every lance of every deal (-1 for nobody), by its own kings."""
    out = np.empty((arr.shape[0], 5), np.int64)
    for k in (8, 4):
        chosen = deal_kings == k
        if chosen.any():
            got = evaluate_batch(arr[chosen], manos[chosen], Rules(kings=k), validate=False)
            out[chosen] = np.stack([got[name] for name in BATCH_LANCES], axis=1)
    return out


def _hand_classes(arr: np.ndarray, deal_kings: np.ndarray) -> tuple[np.ndarray, list[Hand], list[int]]:
    """``(classes, hands, kings)``: (N, 4) the class of each seat's hand, and one hand and the kings of each class.

    A class is a set of four card ranks under one kings setting: every hand of a class is read alike under
    every reading, and its sentences name only its ranks. Its id is the four rank positions 0..9 (a card's
    index >> 2), sorted, as four decimal digits, plus 10,000 in 4 reyes."""
    positions = np.sort(arr >> 2, axis=2).astype(np.int32)
    ids = ((positions[..., 0] * 10 + positions[..., 1]) * 10 + positions[..., 2]) * 10 + positions[..., 3]
    ids += _RANK_CLASS * (deal_kings == 4)[:, None].astype(np.int32)
    present = np.zeros(2 * _RANK_CLASS, bool)
    present[ids] = True
    distinct = np.flatnonzero(present)
    number = np.cumsum(present) - 1
    hands, kings = [], []
    for d in distinct.tolist():
        digits = [d // 1000 % 10, d // 100 % 10, d // 10 % 10, d % 10]
        # the same ranks in different suits: a card's index is its rank position * 4 + its suit
        hands.append(Hand([DECK[4 * p + digits[:k].count(p)] for k, p in enumerate(digits)]))
        kings.append(4 if d >= _RANK_CLASS else 8)
    return number[ids], hands, kings


@dataclass(frozen=True)
class _ReadingTables:
    """Every class of hand read under every reading (0: the real rules, 1 + k: ``MISTAKES[k]``).

    infos[r][c]: the :class:`HandInfo` of class c. keys[r]: (5, C) int64, each class's dense
    :func:`lance_key` rank per lance (0: takes no part). juego[r]: (C,) bool.
    """

    hands: list[Hand]
    infos: list[list[HandInfo]]
    keys: list[np.ndarray]
    juego: list[np.ndarray]

    @classmethod
    def build(cls, hands: list[Hand], kings: list[int]) -> _ReadingTables:
        infos, keys, juego = [], [], []
        for reading in _READINGS:
            row = [read_hand(h, reading, k) for h, k in zip(hands, kings, strict=True)]
            dense = np.zeros((5, len(row)), np.int64)
            for li, lance in enumerate(LANCES):
                raw = [lance_key(info, lance, reading) for info in row]
                rank = {key: i for i, key in enumerate(sorted(set(raw) - {()}), 1)}
                dense[li] = [rank.get(key, 0) for key in raw]
            infos.append(row)
            keys.append(dense)
            juego.append(np.array([info.is_juego for info in row], bool))
        return cls(hands, infos, keys, juego)

    def may_differ(self, r: int) -> np.ndarray:
        """(5,) bool: the lances where reading r may name another winner than the real rules (elsewhere it
        reads every hand alike and compares alike, so :func:`winner_under` gives the real winner)."""
        reading = _READINGS[r]
        juego_alike = np.array_equal(self.juego[r], self.juego[0])
        out = np.array([not (juego_alike and np.array_equal(self.keys[r][li], self.keys[0][li])) for li in range(5)])
        out[_PUNTO] |= reading.punto_with_juego
        out |= reading.tie_to_far
        return out

    def winners(self, r: int, classes: np.ndarray, manos: np.ndarray, lances: np.ndarray) -> np.ndarray:
        """(N,) the winner of each deal's lance under reading r, -1 for nobody (:func:`winner_under`)."""
        reading = _READINGS[r]
        keys = self.keys[r][lances[:, None], classes]
        juego = self.juego[r][classes]
        punto = lances == _PUNTO
        taking = np.where(punto[:, None], ~juego, keys > 0)
        if not reading.punto_with_juego:
            taking &= ~(punto & juego.any(axis=1))[:, None]
        distance = (np.arange(4)[None, :] - manos[:, None]) & 3
        order = distance if reading.tie_to_far else 3 - distance
        composite = np.where(taking, keys * 4 + order, -1)
        best = composite.argmax(axis=1)
        return np.where(composite.max(axis=1) >= 0, best, -1)


@dataclass(frozen=True)
class _Rows:
    """Columns of K rows, each an array: :meth:`take` keeps some rows of every column."""

    def take(self, rows: np.ndarray) -> Self:
        return type(self)(*(getattr(self, f.name)[rows] for f in fields(self)))


@dataclass(frozen=True)
class _Cases(_Rows):
    """The wrong answers being worded: (K, 4) hand classes, (K,) manos, lances, answers, winners and mistakes."""

    classes: np.ndarray
    manos: np.ndarray
    lances: np.ndarray
    answers: np.ndarray
    winners: np.ndarray
    mistakes: np.ndarray

    def seat_class(self, seats: np.ndarray) -> np.ndarray:
        """(K,) the class of each case's seat in ``seats`` (seats -1 read as seat 0)."""
        picked: np.ndarray = self.classes[np.arange(len(seats)), np.maximum(seats, 0)]
        return picked


# ----- wording ----------------------------------------------------------------------------------------------
#
# The msgids are those of :mod:`musteach.teach.diagnosis`, which words one answer; each template is translated
# once and filled for all the answers that use it. ``tests/test_diagnosis_batch.py`` checks every sentence
# against ``diagnose`` in English and Spanish.

_KIND_BEATS = tuple(KIND_BEATS.values())  # (duples, medias), (duples, par), (medias, par)
_KINDS = {"par": 1, "medias": 2, "duples": 3}
_AS_IF = {
    Mistake.CHICA_FROM_THE_TOP: N_("Chica compared the highest cards first, the lower card winning"),
    Mistake.PARES_BY_RANK_NOT_KIND: N_("only the rank of each hand's best pair counted, not par, medias or duples"),
    Mistake.JUEGO_BY_TOTAL: N_("a higher total made a better juego"),
    Mistake.TIE_NOT_TO_MANO: N_("a tie went to the seat farther from mano"),
}


def _field_names(sentence: str) -> list[str]:
    """The named fields of ``sentence`` in the order they first appear."""
    return list(dict.fromkeys(name for _, name, _, _ in string.Formatter().parse(sentence) if name is not None))


@dataclass(frozen=True)
class _Sentence:
    """A translated sentence, filled as :class:`~musteach.i18n.Translator` fills it (``format_map`` with each
    field's ``str()``), its fields given by position in the order they first appear in the English msgid (a
    translation may place them in another order).

    pieces: the literal texts (str) and field positions (int), in the translation's order. fill: the same as
    ``str.format``, for one sentence and for a field with a format spec.
    """

    pieces: tuple[str | int, ...]
    fill: Callable[..., str]

    @classmethod
    def of(cls, template: str, names: Sequence[str]) -> _Sentence:
        pieces: list[str | int] = []
        parts = []
        plain = True
        for literal, name, spec, conversion in string.Formatter().parse(template):
            parts.append(literal.replace("{", "{{").replace("}", "}}"))
            if literal:
                pieces.append(literal)
            if name is not None:
                parts.append("{" + str(names.index(name)) + (f"!{conversion}" if conversion else "") + f":{spec}}}")
                pieces.append(names.index(name))
                plain = plain and not spec and not conversion
        fill = "".join(parts).format
        return cls(tuple(pieces) if plain else (), fill)

    def __call__(self, *fields: object) -> str:
        return self.fill(*fields)

    def column(self, fields: Sequence[list[str]], n: int) -> list[str]:
        """The n sentences of columns of fields (each a list of n strings): joined piece by piece."""
        if not self.pieces:
            return list(map(self.fill, *fields)) if fields else [self.fill()] * n
        if all(isinstance(p, str) for p in self.pieces):
            return ["".join(str(p) for p in self.pieces)] * n
        columns = [repeat(p) if isinstance(p, str) else fields[p] for p in self.pieces]
        return list(map("".join, zip(*columns, strict=False)))  # the literals repeat: the fields set the length


@dataclass(frozen=True)
class _Words:
    """The words of one language for the classes of hands being worded: each (C,) object array gives a class's
    words; ``standing[lance]`` what it holds in the lance (``R-R-7-4``, ``par of kings``, ``31``)."""

    translator: Translator
    grande: np.ndarray
    chica: np.ndarray
    total: np.ndarray
    standing: tuple[np.ndarray, ...]
    seat_lists: dict[tuple[int, ...], str]
    fillers: dict[str, _Sentence]

    @classmethod
    def build(cls, _: Translator, tables: _ReadingTables) -> _Words:
        truth = tables.infos[0]
        grande = np.array([i.grande_str for i in truth], dtype=object)
        chica = np.array([i.chica_str for i in truth], dtype=object)
        total = np.array([str(i.total) for i in truth], dtype=object)
        pares = np.array([i.pares.describe(_.lang) if i.pares else _("no pares") for i in truth], dtype=object)
        return cls(_, grande, chica, total, (grande, chica, pares, total, total), {}, {})

    def template(self, msgid: str) -> _Sentence:
        """The sentence ``msgid`` in this language, as a function of its fields by position, in the order they
        first appear in the English ``msgid``."""
        fill = self.fillers.get(msgid)
        if fill is None:
            fill = self.fillers[msgid] = _Sentence.of(self.translator(msgid), _field_names(msgid))
        return fill

    def seats(self, seats: tuple[int, ...]) -> str:
        """``seat 0 and seat 2`` (as a sentence lists seats)."""
        said = self.seat_lists.get(seats)
        if said is None:
            _ = self.translator
            said = self.seat_lists[seats] = _.join([_("seat {seat}", seat=s) for s in seats])
        return said

    def juego_plural(self, singular: str, plural: str, juego: np.ndarray) -> np.ndarray:
        """(K,) object: the sentence ``singular``/``plural`` naming each case's seats with juego (``{seats}``).

        juego: (K,) the cases' :func:`_juego_keys`."""
        keys, which = np.unique(juego, return_inverse=True)
        built = []
        for key in keys.tolist():
            mano, mask = key >> 4, key & 15
            seats = tuple(s for s in ((mano + k) % 4 for k in range(4)) if mask >> s & 1)
            built.append(self.translator.ngettext(singular, plural, len(seats), seats=self.seats(seats)))
        return np.array(built, dtype=object)[which.reshape(-1)]


def _juego_keys(tables: _ReadingTables, cases: _Cases) -> np.ndarray:
    """(K,) each case's mano * 16 + the bits of its seats with juego (real rules): what names them in speaking
    order."""
    juego = tables.juego[0][cases.classes]
    keys: np.ndarray = cases.manos * 16 + juego @ (1 << np.arange(4))
    return keys


def _fill(out: np.ndarray, rows: np.ndarray, sentence: _Sentence, *columns: str | np.ndarray) -> None:
    """``out[rows]`` = ``sentence`` filled from ``columns``: each an array over all cases (seats, words) or one
    str for all."""
    if not rows.size:
        return
    n = rows.size
    cols = [
        [c] * n if isinstance(c, str) else c[rows].tolist() if c.dtype == object else list(map(str, c[rows].tolist()))
        for c in columns
    ]
    out[rows] = sentence.column(cols, n)


def _details(words: _Words, tables: _ReadingTables, cases: _Cases, win: np.ndarray, lose: np.ndarray) -> np.ndarray:
    """(K,) object: what decides between the winner and the picked seat (``on the second card``), ``""`` for
    nothing; only meaningful where both take part and their hands differ."""
    _ = words.translator
    k = len(cases.lances)
    out = np.full(k, "", dtype=object)
    truth = tables.infos[0]
    cw, cl = cases.seat_class(win), cases.seat_class(lose)
    ranks = np.array([i.ranks for i in truth], np.int64).reshape(-1, 4)
    on_card = np.array([_(m) for m in ON_CARD], dtype=object)
    for lance, order in ((_GRANDE, slice(None)), (_CHICA, slice(None, None, -1))):
        rows = np.flatnonzero(cases.lances == lance)
        first = (ranks[cw[rows]][:, order] != ranks[cl[rows]][:, order]).argmax(axis=1)
        out[rows] = on_card[first]
    kind = np.array([_KINDS[i.pares.kind] if i.pares else 0 for i in truth], np.int64)
    high = np.array([i.pares.high if i.pares else 0 for i in truth], np.int64)
    rows = np.flatnonzero(cases.lances == _PARES)
    kw, kl = kind[cw[rows]], kind[cl[rows]]
    same_high = high[cw[rows]] == high[cl[rows]]
    choice = np.select(
        [(kw == 3) & (kl == 2), (kw == 3) & (kl == 1), (kw == 2) & (kl == 1), (kw == 3) & same_high, kw == 2, kw == 1],
        [1, 2, 3, 4, 5, 6],
        0,
    )
    pares_words = np.array(
        ["", *(_(m) for m in _KIND_BEATS), _("on the lower pair"), _("(the fourth card does not count)"),
         _("(the odd cards do not count)")],
        dtype=object,
    )
    out[rows] = pares_words[choice]
    total = np.array([i.total for i in truth], np.int64)
    rows = np.flatnonzero(cases.lances == _JUEGO)
    out[rows] = np.where(total[cw[rows]] == 31, _("(31 is the best juego)"), _("(juego ranks {order})", order=JUEGO_RANKS))
    return out


@dataclass(frozen=True)
class _Facts(_Rows):
    """What the sentences of wrong answers compare: the picked and winning seats' classes and words."""

    cp: np.ndarray
    cw: np.ndarray
    takes_part: np.ndarray
    tie: np.ndarray
    standing_p: np.ndarray
    standing_w: np.ndarray
    detail: np.ndarray

    @classmethod
    def of(cls, words: _Words, tables: _ReadingTables, cases: _Cases) -> _Facts:
        picked, winner = cases.answers, cases.winners
        cp, cw = cases.seat_class(picked), cases.seat_class(winner)
        keys = tables.keys[0]
        kp, kw = keys[cases.lances, cp], keys[cases.lances, cw]
        takes_part = (kp > 0) | ((cases.lances != _PARES) & (cases.lances != _JUEGO))
        standing = np.stack(words.standing)
        return cls(cp, cw, takes_part, kp == kw, standing[cases.lances, cp], standing[cases.lances, cw],
                   _details(words, tables, cases, winner, picked))


def _verdicts(words: _Words, tables: _ReadingTables, cases: _Cases, f: _Facts) -> np.ndarray:
    """(K,) object: the real verdict as a clause, told against the picked seat where there is one (wrong answers)."""
    t = words.template
    k = len(cases.lances)
    out = np.empty(k, dtype=object)
    p, w, lance = cases.answers, cases.winners, cases.lances
    seat_p = p
    seat_w = w
    title = np.array([words.translator.word(la.title) for la in LANCES], dtype=object)[lance]  # forms: {lance:the}
    nobody, picked = w < 0, p >= 0
    _fill(out, np.flatnonzero(nobody & picked & (lance == _PARES)),
          t("seat {seat}'s {cards} holds no pares, and nobody holds pares, so Pares scores nothing"),
          seat_p, words.grande[f.cp])
    _fill(out, np.flatnonzero(nobody & picked & (lance == _JUEGO)),
          t("seat {seat}'s total of {total} is not juego (31 or more), and nobody has juego (31 or more), "
            "so Punto is played instead"), seat_p, words.total[f.cp])
    _ = words.translator
    out[np.flatnonzero(nobody & ~picked & (lance == _PARES))] = _("nobody holds pares, so Pares scores nothing")
    out[np.flatnonzero(nobody & ~picked & (lance == _JUEGO))] = _("nobody has juego (31 or more), so Punto is played instead")
    no_punto = np.flatnonzero(nobody & (lance == _PUNTO))
    if no_punto.size:
        out[no_punto] = words.juego_plural(
            "nobody wins Punto: it is not played, since {seats} has juego",
            "nobody wins Punto: it is not played, since {seats} have juego",
            _juego_keys(tables, cases.take(no_punto)),
        )
    won = ~nobody
    _fill(out, np.flatnonzero(won & ~picked), t("seat {winner} wins {lance} with {standing}"), seat_w, title, f.standing_w)
    against = won & picked
    _fill(out, np.flatnonzero(against & ~f.takes_part & (lance == _PARES)),
          t("seat {seat}'s {cards} holds no pares, and seat {winner} wins {lance} with {standing}"),
          seat_p, words.grande[f.cp], seat_w, title, f.standing_w)
    _fill(out, np.flatnonzero(against & ~f.takes_part & (lance == _JUEGO)),
          t("seat {seat}'s total of {total} is not juego (31 or more), and seat {winner} wins {lance} with {standing}"),
          seat_p, words.total[f.cp], seat_w, title, f.standing_w)
    both = against & f.takes_part
    _tie_clauses(out, both & f.tie, words, cases, f, capital=False)
    beats = both & ~f.tie
    has_detail = f.detail != ""
    _fill(out, np.flatnonzero(beats & has_detail),
          t("seat {seat}'s {standing} beats seat {other}'s {other_standing} {detail}"),
          seat_w, f.standing_w, seat_p, f.standing_p, f.detail)
    _fill(out, np.flatnonzero(beats & ~has_detail), t("seat {seat}'s {standing} beats seat {other}'s {other_standing}"),
          seat_w, f.standing_w, seat_p, f.standing_p)
    return out


def _tie_clauses(out: np.ndarray, rows: np.ndarray, words: _Words, cases: _Cases, f: _Facts, *, capital: bool) -> None:
    """The winner won the tie with the picked seat, being mano or nearer mano."""
    t = words.template
    params = (cases.winners, cases.answers, f.standing_w)
    mano = cases.winners == cases.manos
    if capital:
        _fill(out, np.flatnonzero(rows & mano),
              t("Seat {seat} wins the tie with seat {other} (both hold {standing}), being mano."), *params)
        _fill(out, np.flatnonzero(rows & ~mano),
              t("Seat {seat} wins the tie with seat {other} (both hold {standing}), being nearer mano."), *params)
    else:
        _fill(out, np.flatnonzero(rows & mano),
              t("seat {seat} wins the tie with seat {other} (both hold {standing}), being mano"), *params)
        _fill(out, np.flatnonzero(rows & ~mano),
              t("seat {seat} wins the tie with seat {other} (both hold {standing}), being nearer mano"), *params)


def _why_not(words: _Words, tables: _ReadingTables, cases: _Cases, f: _Facts) -> np.ndarray:
    """(K,) object: why the picked seat loses (wrong answers that picked a seat)."""
    t = words.template
    out = np.empty(len(cases.lances), dtype=object)
    p, w, lance = cases.answers, cases.winners, cases.lances
    seat_p = p
    nobody = w < 0
    no_punto = np.flatnonzero(nobody & (lance == _PUNTO))
    if no_punto.size:
        out[no_punto] = words.juego_plural(
            "Punto is not played, since {seats} has juego.",
            "Punto is not played, since {seats} have juego.",
            _juego_keys(tables, cases.take(no_punto)),
        )
    _fill(out, np.flatnonzero(nobody & (lance == _PARES)),
          t("Seat {seat}'s {cards} holds no pares, and nobody else's does either."), seat_p, words.grande[f.cp])
    _fill(out, np.flatnonzero(nobody & (lance == _JUEGO)),
          t("Seat {seat}'s total of {total} is not juego (31 or more), and nobody has juego."), seat_p, words.total[f.cp])
    won = ~nobody
    _fill(out, np.flatnonzero(won & ~f.takes_part & (lance == _PARES)),
          t("Seat {seat}'s {cards} holds no pares, so it takes no part in Pares."), seat_p, words.grande[f.cp])
    _fill(out, np.flatnonzero(won & ~f.takes_part & (lance == _JUEGO)),
          t("Seat {seat}'s total of {total} is not juego (31 or more), so it takes no part in Juego."),
          seat_p, words.total[f.cp])
    both = won & f.takes_part
    _tie_clauses(out, both & f.tie, words, cases, f, capital=True)
    loses = both & ~f.tie
    has_detail = f.detail != ""
    seat_w = w
    _fill(out, np.flatnonzero(loses & has_detail),
          t("Seat {seat}'s {standing} loses to seat {other}'s {other_standing} {detail}."),
          seat_p, f.standing_p, seat_w, f.standing_w, f.detail)
    _fill(out, np.flatnonzero(loses & ~has_detail), t("Seat {seat}'s {standing} loses to seat {other}'s {other_standing}."),
          seat_p, f.standing_p, seat_w, f.standing_w)
    return out


def _explain_wrong(words: _Words, tables: _ReadingTables, cases: _Cases, f: _Facts) -> np.ndarray:
    """(K,) object: the explanation of each wrong answer: the mistake's sentence, or the slip's."""
    _ = words.translator
    t = words.template
    k = len(cases.lances)
    verdict = np.empty(k, dtype=object)
    punto_mistake = cases.mistakes == _PUNTO_WITH_JUEGO - 1
    told = np.flatnonzero(~punto_mistake)
    verdict[told] = _verdicts(words, tables, cases.take(told), f.take(told))
    verdict[punto_mistake] = _("nobody wins Punto this hand")
    picked = cases.answers >= 0
    seat_p = cases.answers
    out = np.empty(k, dtype=object)
    slip = cases.mistakes < 0
    _fill(out, np.flatnonzero(slip & ~picked), t("You said nobody, but {verdict}."), verdict)
    _fill(out, np.flatnonzero(slip & picked), t("You picked seat {seat}, but {verdict}."), seat_p, verdict)
    as_if = _as_if(words, tables, cases)
    fact = np.array([_(MISTAKE_FACTS[m], order=JUEGO_RANKS) for m in MISTAKES], dtype=object)[np.maximum(cases.mistakes, 0)]
    _fill(out, np.flatnonzero(~slip & ~picked), t("You said nobody, as if {as_if}; {fact}, so {verdict}."),
          as_if, fact, verdict)
    _fill(out, np.flatnonzero(~slip & picked), t("You picked seat {seat}, as if {as_if}; {fact}, so {verdict}."),
          seat_p, as_if, fact, verdict)
    return out


def _as_if(words: _Words, tables: _ReadingTables, cases: _Cases) -> np.ndarray:
    """(K,) object: the "as if" clause of each diagnosed mistake (``""`` for a slip)."""
    _ = words.translator
    out = np.full(len(cases.lances), "", dtype=object)
    for mistake, msgid in _AS_IF.items():
        out[cases.mistakes == MISTAKES.index(mistake)] = _(msgid)
    rows = np.flatnonzero(cases.mistakes == MISTAKES.index(Mistake.PUNTO_WITH_JUEGO))
    if rows.size:
        out[rows] = words.juego_plural(
            "Punto were played although {seats} has juego",
            "Punto were played although {seats} have juego",
            _juego_keys(tables, cases.take(rows)),
        )
    rows = np.flatnonzero(cases.mistakes == MISTAKES.index(Mistake.QUADS_NOT_DUPLES))
    if rows.size:
        out[rows] = _quads_clauses(words, tables, cases.take(rows))
    for mistake, ranks in (
        (Mistake.THREE_IS_NOT_KING, (3,)), (Mistake.TWO_IS_NOT_ACE, (2,)), (Mistake.THREE_AND_TWO_AT_FACE, (3, 2))
    ):
        rows = np.flatnonzero(cases.mistakes == MISTAKES.index(mistake))
        if rows.size:
            told = cases.take(rows)
            r = 1 + MISTAKES.index(mistake)
            per_rank = [_misread_clauses(words, tables, told, r, rank) for rank in ranks]
            # a seat misread for its 3 and its 2 is told once, as diagnose tells it
            clauses = zip(*per_rank, strict=True)
            out[rows] = [words.translator.join(list(dict.fromkeys(c for cs in row for c in cs))) for row in clauses]
    return out


def _candidates(cases: _Cases) -> list[list[int]]:
    """Each case's seats in the order a mistake's sentence looks at them: the winner, the picked seat, then
    the speaking order from mano (each once)."""
    out = []
    for w, p, m in zip(cases.winners.tolist(), cases.answers.tolist(), cases.manos.tolist(), strict=True):
        first = [s for s in (w, p) if s >= 0]
        out.append(list(dict.fromkeys(first + [(m + k) % 4 for k in range(4)])))
    return out


def _quads_clauses(words: _Words, tables: _ReadingTables, cases: _Cases) -> list[str]:
    """"seat 1's R-R-R-R were medias of kings": the first candidate seat holding four of a kind."""
    fill = words.template("seat {seat}'s {cards} were {jugada}")
    lang = words.translator.lang
    truth, misread = tables.infos[0], tables.infos[1 + MISTAKES.index(Mistake.QUADS_NOT_DUPLES)]
    out = []
    for seats, classes in zip(_candidates(cases), cases.classes.tolist(), strict=True):
        seat = next(
            s for s in seats if (p := truth[classes[s]].pares) is not None and p.kind == "duples" and p.high == p.low
        )
        jugada = misread[classes[seat]].pares
        assert jugada is not None
        out.append(fill(seat, truth[classes[seat]].grande_str, jugada.describe(lang)))
    return out


def _misread_clauses(words: _Words, tables: _ReadingTables, cases: _Cases, r: int, rank: int) -> list[list[str]]:
    """The "as if" clause of a 3 read below the 4, or a 2 above the aces: the seats whose misread cards mattered,
    chosen as :mod:`~musteach.teach.diagnosis` chooses them (the winner and the picked seat where the misreading
    changed their taking part or standing; else the first candidate seat whose taking part changed, else whose
    standing changed, else the first holder of such a card), each with its cards as misread (joined by the caller)."""
    truth, misread = tables.infos[0], tables.infos[r]
    holds = np.array([sum(c.rank == rank for c in h) for h in tables.hands], np.int64)
    # by lance, then class: whether the misreading changed the hand's taking part, and its standing
    flips = np.array([
        [(m.pares is None) != (t.pares is None) if li == _PARES else m.is_juego != t.is_juego
         for t, m in zip(truth, misread, strict=True)]
        for li in range(5)
    ], bool).reshape(5, -1)
    changes = np.array(
        [[m.key(lance) != t.key(lance) for t, m in zip(truth, misread, strict=True)] for lance in LANCES], bool
    ).reshape(5, -1)
    k = len(cases.lances)
    m = cases.manos
    cand = np.stack([cases.winners, cases.answers, m, (m + 1) & 3, (m + 2) & 3, (m + 3) & 3], axis=1)  # (K, 6)
    holder = cand >= 0
    for j in range(1, 6):  # each seat once, where it first comes
        holder[:, j] &= ~(cand[:, :j] == cand[:, j : j + 1]).any(axis=1)
    cls = cases.classes[np.arange(k)[:, None], np.maximum(cand, 0)]
    holder &= holds[cls] > 0
    lance = cases.lances[:, None]
    flip = holder & flips[lance, cls]
    change = holder & changes[lance, cls]
    ours = flip[:, :2] | change[:, :2]
    first = np.where(flip.any(axis=1), flip.argmax(axis=1),
                     np.where(change.any(axis=1), change.argmax(axis=1), holder.argmax(axis=1)))
    said: dict[tuple[int, int, int], str] = {}

    def clause(lance: int, seat: int, c: int) -> str:
        text = said.get((lance, seat, c))
        if text is None:
            text = said[lance, seat, c] = _misread_clause(words, misread[c], lance, seat, rank, int(holds[c]))
        return text

    out: list[list[str]] = []
    rows = zip(cand.tolist(), cls.tolist(), cases.lances.tolist(), ours.tolist(), first.tolist(), strict=True)
    for seats, classes, li, (ours_w, ours_p), j in rows:
        if ours_w or ours_p:
            out.append([clause(li, seats[i], classes[i]) for i, o in ((0, ours_w), (1, ours_p)) if o])
        else:
            out.append([clause(li, seats[j], classes[j])])
    return out


def _misread_clause(words: _Words, info: HandInfo, lance: int, seat: int, rank: int, held: int) -> str:
    """``the 3s in seat 0's 7-4-3-3 ranked below the 4``: one seat's misread hand (``info``), ``held`` cards of
    ``rank`` in it."""
    shown = info.chica_str if lance == _CHICA else info.grande_str
    if lance in (_GRANDE, _CHICA):
        return words.template(MISREAD_RANK[(rank, held > 1)])(rank, seat, shown)
    if lance == _PARES:
        if info.pares is None:
            return words.template("seat {seat}'s {cards} held no pares")(seat, shown)
        return words.template("seat {seat}'s {cards} held {jugada}")(seat, shown, info.pares.describe(words.translator.lang))
    return words.template("seat {seat}'s {cards} counted {total}")(seat, shown, info.total)
