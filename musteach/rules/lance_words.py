"""The words of a judged lance: why it was won, in the learner's language (RULES.md §2, §5).

:func:`lance_words` gives a language's :class:`LanceWords`, translated once; :meth:`LanceWords.sentence` says
why a lance was won, and :class:`SentenceParts` fills many sentences of one shape at once
(:func:`musteach.rules.batch.explain_batch`). The judging itself is :mod:`.lances`, which re-exports these names.

>>> from musteach.rules.lances import evaluate
>>> r = evaluate(["12o 12c 7o 5c", "12e 11o 11c 4b", "1o 1c 6e 6b", "7e 6c 5e 4o"], mano=0)
>>> lance_words("en").sentence(r.grande.lance, r.grande.winner, r.grande.ranking, r.grande.tie_to_mano, r.mano, r.infos)
'Seat 0 wins Grande: R-R-7-5 beats R-C-C-4 on the second card.'
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from typing import TYPE_CHECKING

from ..i18n import N_, Translator, current_lang, translator
from .lance_names import LANCES, Lance
from .lance_names import RANK_PLURALS as _PLURAL
from .lance_names import SPEAKING_ORDERS as _ORDERS
from .lance_names import rank_tuple_text as _ranks_text

if TYPE_CHECKING:  # the judging imports this module, to word what it judged
    from .lances import HandInfo, Pares

__all__ = ["LanceWords", "SentenceParts", "lance_words"]

_GRANDE, _CHICA, _PARES, _JUEGO, _PUNTO = LANCES


# ----- the words -------------------------------------------------------------------------------------------------
#
# Each shape of sentence is its own msgid (RULES.md §2, §5). A language's sentences are translated once, into
# :class:`_Words`, and a lance's sentence is then one ``str.format`` of the template its facts pick.

_GRANDE_BEATS = (
    N_("Seat {seat} wins Grande: {win} beats {lose} on the first card."),
    N_("Seat {seat} wins Grande: {win} beats {lose} on the second card."),
    N_("Seat {seat} wins Grande: {win} beats {lose} on the third card."),
    N_("Seat {seat} wins Grande: {win} beats {lose} on the fourth card."),
)
_CHICA_BEATS = (
    N_("Seat {seat} wins Chica: {win} beats {lose} on the first card."),
    N_("Seat {seat} wins Chica: {win} beats {lose} on the second card."),
    N_("Seat {seat} wins Chica: {win} beats {lose} on the third card."),
    N_("Seat {seat} wins Chica: {win} beats {lose} on the fourth card."),
)
_PARES_ONLY = N_("Seat {seat} wins Pares: only seat {seat} holds pares ({pares}).")
_JUEGO_ONLY = N_("Seat {seat} wins Juego: only seat {seat} has juego ({total}).")
_PARES_BEATS = N_("Seat {seat} wins Pares: {win} beats seat {other}'s {lose}.")
_PARES_BEATS_LOWER = N_("Seat {seat} wins Pares: {win} beats seat {other}'s {lose}, on the lower pair.")
_PARES_BEATS_MEDIAS = N_("Seat {seat} wins Pares: {win} beats seat {other}'s {lose} (the fourth card does not count).")
_PARES_BEATS_PAR = N_("Seat {seat} wins Pares: {win} beats seat {other}'s {lose} (the odd cards do not count).")
_JUEGO_LA_REAL = N_("Seat {seat} wins Juego: la real (7-7-7-sota) beats every other 31, and seat {other} has {total}.")
_JUEGO_31 = N_("Seat {seat} wins Juego: 31 is the best juego, and seat {other} has {total}.")
_JUEGO_BEATS = N_("Seat {seat} wins Juego: {win} beats {lose} (juego order 31, 32, 40, 37, 36, 35, 34, 33).")
_PUNTO_BEATS = N_("Seat {seat} wins Punto: {win} beats {lose}.")
_NO_PARES = N_("Nobody holds pares, so Pares scores nothing.")
_NO_JUEGO = N_("Nobody has juego (31 or more), so Punto is played instead.")
_SEAT = N_("seat {seat}")
#: Ties, by the number of seats tied (2, 3, 4) and whether the winner is mano or only nearer mano.
_TIES = {
    (2, True): N_("Seat {a} and seat {b} both hold {what}; seat {seat} is mano."),
    (2, False): N_("Seat {a} and seat {b} both hold {what}; seat {seat} is nearer mano."),
    (3, True): N_("Seat {a}, seat {b} and seat {c} all hold {what}; seat {seat} is mano."),
    (3, False): N_("Seat {a}, seat {b} and seat {c} all hold {what}; seat {seat} is nearer mano."),
    (4, True): N_("Seat {a}, seat {b}, seat {c} and seat {d} all hold {what}; seat {seat} is mano."),
    (4, False): N_("Seat {a}, seat {b}, seat {c} and seat {d} all hold {what}; seat {seat} is nearer mano."),
}
_PARES_WORDS = {
    "par": N_("par of {rank}"),
    "medias": N_("medias of {rank}"),
}
_DUPLES_FOUR = N_("duples of four {rank}")
_DUPLES_TWO = N_("duples of {high} and {low}")
_LA_REAL_TOTAL = N_("{total} (la real)")
_SENTENCES = (
    *_GRANDE_BEATS,
    *_CHICA_BEATS,
    _PARES_ONLY,
    _JUEGO_ONLY,
    _PARES_BEATS,
    _PARES_BEATS_LOWER,
    _PARES_BEATS_MEDIAS,
    _PARES_BEATS_PAR,
    _JUEGO_LA_REAL,
    _JUEGO_31,
    _JUEGO_BEATS,
    _PUNTO_BEATS,
    _NO_PARES,
    _NO_JUEGO,
    _SEAT,
    *_TIES.values(),
    *_PARES_WORDS.values(),
    _DUPLES_FOUR,
    _DUPLES_TWO,
    _LA_REAL_TOTAL,
)


@dataclass(frozen=True, slots=True)
class SentenceParts:
    """A sentence template with some placeholders filled and the others left open, cut at the open ones: many
    sentences of one shape are then filled at once by joining strings (:meth:`fill_columns`).

    template: the translated template; fixed: the placeholders filled, as ``(name, value)`` pairs.
    literals: the text before, between and after the open placeholders (one more than ``fields``), each fixed
    value already in it; fields: the open placeholders' names, in the order the sentence says them. A template
    whose open placeholders carry a format spec or a conversion is not cut (``literals`` is empty): it is
    filled by :meth:`str.format`, which gives the same text.

    >>> parts = SentenceParts.cut("Seat {seat} wins Grande: {win} beats {lose}.", seat=2)
    >>> parts.literals, parts.fields
    (('Seat 2 wins Grande: ', ' beats ', '.'), ('win', 'lose'))
    >>> parts.fill_columns({"win": ["R-R-7-5", "C-C-4-1"], "lose": ["R-C-C-4", "S-S-6-5"]}, 2)
    ['Seat 2 wins Grande: R-R-7-5 beats R-C-C-4.', 'Seat 2 wins Grande: C-C-4-1 beats S-S-6-5.']
    """

    template: str
    fixed: tuple[tuple[str, object], ...]
    literals: tuple[str, ...]
    fields: tuple[str, ...]

    @classmethod
    def cut(cls, template: str, **fixed: object) -> SentenceParts:
        """``template`` with the ``fixed`` placeholders filled (as :meth:`str.format` fills them), cut at the
        others. Raises what :meth:`str.format` raises for a malformed template."""
        formatter = string.Formatter()
        literals, fields = [""], []
        for literal, name, spec, conversion in formatter.parse(template):
            literals[-1] += literal
            if name is None:
                continue
            if name in fixed or not name.isidentifier() or spec or conversion:
                try:
                    value, _ = formatter.get_field(name, (), fixed)
                except (KeyError, AttributeError, IndexError):  # an open placeholder written with a spec
                    return cls(template, tuple(fixed.items()), (), ())
                literals[-1] += formatter.format_field(formatter.convert_field(value, conversion), spec or "")
            else:
                fields.append(name)
                literals.append("")
        return cls(template, tuple(fixed.items()), tuple(literals), tuple(fields))

    def fill(self, **values: str) -> str:
        """One sentence: the open placeholders filled from ``values``."""
        literals, fields = self.literals, self.fields
        if len(fields) == 2:  # the usual shape (a winner's and a loser's hand), joined at once
            return "".join((literals[0], values[fields[0]], literals[1], values[fields[1]], literals[2]))
        return self.fill_columns({name: [value] for name, value in values.items()}, 1)[0]

    def fill_columns(self, columns: dict[str, Sequence[str]], count: int) -> list[str]:
        """``count`` sentences: the i-th fills each open placeholder ``name`` with ``columns[name][i]``."""
        if not self.literals:
            fixed = dict(self.fixed)
            names = list(columns)
            rows = zip(*columns.values(), strict=True)
            return [self.template.format(**fixed, **dict(zip(names, row, strict=True))) for row in rows]
        if not self.fields:
            return [self.literals[0]] * count
        pieces: list[Iterable[str]] = [repeat(self.literals[0])]
        for name, literal in zip(self.fields, self.literals[1:], strict=True):
            pieces += [columns[name], repeat(literal)]
        return list(map("".join, zip(*pieces, strict=False)))  # the literals repeat without end


@dataclass(frozen=True, slots=True)
class LanceWords:
    """The sentences of the lances in one language (RULES.md §2, §5), translated once; get them with
    :func:`lance_words`. :meth:`sentence` says why a lance was won; :meth:`card_beats` gives the Grande and
    Chica sentence of a win on a card, cut for filling in bulk (:func:`musteach.rules.batch.explain_batch`).

    translator: the language's :class:`~musteach.i18n.Translator`. said: each msgid's translated template,
    placeholders not filled. punto_not_played: the sentence shape for n seats with juego (index 1..4).
    The other fields keep what was already put into words: each :class:`Pares`, each tuple of seats with juego
    and each Grande or Chica template cut for a seat.
    """

    translator: Translator
    said: dict[str, str]
    punto_not_played: tuple[str, ...]
    pares: dict[Pares, str]
    no_punto: dict[tuple[int, ...], str]
    cut: dict[int, SentenceParts]

    @property
    def lang(self) -> str:
        """The language code, such as ``"es"``."""
        return self.translator.lang

    def pares_words(self, pares: Pares) -> str:
        """A jugada of pares in words: ``"par of kings"`` (see :meth:`Pares.describe`)."""
        text = self.pares.get(pares)
        if text is None:
            said = self.said
            _ = self.translator
            if pares.kind == "duples":
                if pares.high == pares.low:
                    text = said[_DUPLES_FOUR].format(rank=_(_PLURAL[pares.high]))
                else:
                    text = said[_DUPLES_TWO].format(high=_(_PLURAL[pares.high]), low=_(_PLURAL[pares.low]))
            else:
                text = said[_PARES_WORDS[pares.kind]].format(rank=_(_PLURAL[pares.high]))
            self.pares[pares] = text
        return text

    def card_beats(self, lance: Lance, card: int, seat: int) -> SentenceParts:
        """The sentence "Seat {seat} wins Grande: {win} beats {lose} on the first card." (or Chica) of a win on
        ``card`` (0 = the first card compared, ... 3 = the fourth) by ``seat`` 0..3, cut at ``win`` and ``lose``
        (the two hands in hand notation, in the lance's order: high to low for Grande, low to high for Chica)."""
        key = (lance is _GRANDE) * 16 + card * 4 + seat  # an int: hashing a lance runs Python code
        parts = self.cut.get(key)
        if parts is None:
            templates = _GRANDE_BEATS if lance is _GRANDE else _CHICA_BEATS
            parts = self.cut[key] = SentenceParts.cut(self.said[templates[card]], seat=seat)
        return parts

    def punto_not_played_by(self, juego_seats: tuple[int, ...]) -> str:
        """The sentence of Punto not played, for the seats with juego (1 to 4 seats, in speaking order)."""
        text = self.no_punto.get(juego_seats)
        if text is None:
            seats = self.translator.join([self.said[_SEAT].format(seat=s) for s in juego_seats])
            text = self.no_punto[juego_seats] = self.punto_not_played[len(juego_seats)].format(seats=seats)
        return text

    def sentence(
        self,
        lance: Lance,
        winner: int | None,
        ranking: tuple[int, ...],
        tie_to_mano: bool,
        mano: int,
        infos: tuple[HandInfo, HandInfo, HandInfo, HandInfo],
    ) -> str:
        """Why ``lance`` was won, in one sentence (RULES.md §2, §5); the arguments are the fields of a
        :class:`LanceResult`: the winning seat (None: nobody), the seats taking part best first, whether the tie
        rule decided, the mano seat and the 4 hands' :class:`HandInfo` indexed by seat."""
        w = winner
        if w is None:
            if lance is _PUNTO:
                juego_seats = tuple([s for s in _ORDERS[mano] if infos[s].total >= 31])
                if juego_seats:
                    return self.punto_not_played_by(juego_seats)
            return self.said[_NO_PARES] if lance is _PARES else self.said[_NO_JUEGO]
        if tie_to_mano:
            return self._tie(lance, w, ranking, mano, infos)
        if len(ranking) == 1:
            if lance is _PARES:
                pares = infos[w].pares
                assert pares is not None
                return self.said[_PARES_ONLY].format(seat=w, pares=self.pares_words(pares))
            return self.said[_JUEGO_ONLY].format(seat=w, total=infos[w].total)
        return _BEATS_BY_LANCE[lance](self, w, ranking[1], infos[w], infos[ranking[1]])

    def _tie(
        self, lance: Lance, w: int, ranking: tuple[int, ...], mano: int, infos: tuple[HandInfo, ...]
    ) -> str:
        """The sentence of a tie to mano, won by seat ``w``."""
        best = infos[w].key(lance)
        tied = [s for s in ranking if infos[s].key(lance) == best]
        template = self.said[_TIES[len(tied), w == mano]]
        return template.format(what=self._tie_what(lance, infos[w]), seat=w, **dict(zip("abcd", tied, strict=False)))

    def _grande_beats(self, w: int, other: int, win: HandInfo, lose: HandInfo) -> str:
        a, b = win.ranks, lose.ranks
        i = 0 if a[0] != b[0] else 1 if a[1] != b[1] else 2 if a[2] != b[2] else 3  # the card that decides
        return self.card_beats(_GRANDE, i, w).fill(win=_ranks_text(a), lose=_ranks_text(b))

    def _chica_beats(self, w: int, other: int, win: HandInfo, lose: HandInfo) -> str:
        a, b = win.ranks[::-1], lose.ranks[::-1]
        i = 0 if a[0] != b[0] else 1 if a[1] != b[1] else 2 if a[2] != b[2] else 3  # the card that decides
        return self.card_beats(_CHICA, i, w).fill(win=_ranks_text(a), lose=_ranks_text(b))

    def _pares_beats(self, w: int, other: int, win: HandInfo, lose: HandInfo) -> str:
        wp, lp = win.pares, lose.pares
        assert wp is not None and lp is not None
        if wp.kind != lp.kind:
            template = _PARES_BEATS
        elif wp.kind == "duples":
            template = _PARES_BEATS_LOWER if wp.high == lp.high else _PARES_BEATS
        else:
            template = _PARES_BEATS_MEDIAS if wp.kind == "medias" else _PARES_BEATS_PAR
        return self.said[template].format(seat=w, win=self.pares_words(wp), other=other, lose=self.pares_words(lp))

    def _juego_beats(self, w: int, other: int, win: HandInfo, lose: HandInfo) -> str:
        if win.la_real:
            return self.said[_JUEGO_LA_REAL].format(seat=w, other=other, total=lose.total)
        if win.total == 31:
            return self.said[_JUEGO_31].format(seat=w, other=other, total=lose.total)
        return self.said[_JUEGO_BEATS].format(seat=w, win=win.total, lose=lose.total)

    def _punto_beats(self, w: int, other: int, win: HandInfo, lose: HandInfo) -> str:
        return self.said[_PUNTO_BEATS].format(seat=w, win=win.total, lose=lose.total)

    def _tie_what(self, lance: Lance, info: HandInfo) -> str:
        """What the tied seats all hold, in words."""
        if lance is _GRANDE:
            return info.grande_str
        if lance is _CHICA:
            return info.chica_str
        if lance is _PARES:
            assert info.pares is not None
            return self.pares_words(info.pares)
        if lance is _JUEGO and info.la_real:
            return self.said[_LA_REAL_TOTAL].format(total=info.total)
        return str(info.total)


#: The sentence of a plain win (no tie, a runner-up), by lance: ``(words, winner, runner-up, their HandInfo)``.
_BEATS_BY_LANCE = {
    _GRANDE: LanceWords._grande_beats,
    _CHICA: LanceWords._chica_beats,
    _PARES: LanceWords._pares_beats,
    _JUEGO: LanceWords._juego_beats,
    _PUNTO: LanceWords._punto_beats,
}


@lru_cache(maxsize=16)
def _words(lang: str) -> LanceWords:
    """The :class:`LanceWords` of a language code (already checked), built on first use."""
    _ = translator(lang)
    said = {msgid: _(msgid) for msgid in _SENTENCES}
    shapes = tuple(
        _.ngettext("Punto is not played: {seats} has juego.", "Punto is not played: {seats} have juego.", n, seats="{seats}")
        for n in range(5)
    )
    return LanceWords(_, said, shapes, {}, {}, {})


_WORDS_OF: dict[str, LanceWords] = {}


def lance_words(lang: str | None = None) -> LanceWords:
    """The :class:`LanceWords` of ``lang`` (a code such as ``"es"``; None: the language being spoken).

    Raises :class:`~musteach.rules.errors.LanguageError` for a language with no catalog. Each spelling of a
    language is checked once, and each language's words are built once per process."""
    code = current_lang() if lang is None else lang
    words = _WORDS_OF.get(code)
    if words is None:
        words = _WORDS_OF[code] = _words(translator(code).lang)
    return words
