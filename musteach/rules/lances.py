"""The five lances: how one hand stands, and who wins each lance of a deal (RULES.md §1, §2, §4, §5).

One hand:

>>> from musteach import Hand, Rules
>>> info = analyse(Hand("12o 3c 7e 5b"))
>>> info.grande_str, info.pares.describe(), info.total
('R-R-7-5', 'par of kings', 32)

A deal of four hands, indexed by seat, and the mano:

>>> deal = [["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"], ["1o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"]]
>>> result = evaluate(deal, mano=0)
>>> result.grande.winner, result.grande.explanation
(0, 'Seat 0 wins Grande: R-R-7-5 beats R-C-C-4 on the second card.')
>>> result.winners()
{'grande': 0, 'chica': 2, 'pares': 0, 'juego': 0, 'punto': None}

Ties always go to the seat nearer mano (RULES.md §2): speaking order is mano, mano+1, mano+2, mano+3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ..i18n import NC_, Text, Translator, Worded, translator
from .cards import Card, Hand, Suit, parse_hands
from .errors import SeatError, shown
from .lance_names import LANCES, RANK_PLURALS, SPEAKING_ORDERS, Lance, rank_letter, rank_tuple_text
from .lance_words import LanceWords, SentenceParts, lance_words
from .options import Rules
from .stakes import Team

__all__ = [
    "la_real_by_ranks",
    "Lance",
    "LANCES",
    "LANCE_FORMS",
    "SEAT_ROLES",
    "Seat",
    "Pares",
    "HandInfo",
    "LanceResult",
    "LanceWords",
    "DealResult",
    "SentenceParts",
    "analyse",
    "info_from_ranks",
    "evaluate",
    "judge_infos",
    "lance_words",
    "winners",
    "effective_rank",
    "point_value",
    "rank_letter",
    "rank_plural",
    "ranks_text",
    "team_of",
    "speaking_order",
    "seat_roles",
    "check_seat",
    "JUEGO_ORDER",
]


# the members as plain names: reading ``_GRANDE`` goes through the enum's class, several times slower
_GRANDE, _CHICA, _PARES, _JUEGO, _PUNTO = LANCES
_LANCE_NAMES: tuple[str, ...] = tuple(lance.value for lance in LANCES)

#: Juego totals from best to worst (RULES.md §5): 31, 32, 40, 37, 36, 35, 34, 33.
JUEGO_ORDER: tuple[int, ...] = (31, 32, 40, 37, 36, 35, 34, 33)
_JUEGO_KEY = {t: len(JUEGO_ORDER) - i for i, t in enumerate(JUEGO_ORDER)}  # 31 -> 8 ... 33 -> 1
_LA_REAL_KEY = 9



def check_seat(seat: object, what: str = "seat") -> int:
    """Return ``seat`` if it is one of 0, 1, 2, 3; else raise :class:`SeatError` naming it (RULES.md §0)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise SeatError(Text("{what} must be a seat 0, 1, 2 or 3, not {value}", what=what, value=shown(seat)))
    return seat


def team_of(seat: int) -> Team:
    """The team of a seat: ``"A"`` for seats 0 and 2, ``"B"`` for seats 1 and 3 (a :class:`Team`, RULES.md §0)."""
    return (Team.A, Team.B)[check_seat(seat) % 2]


def speaking_order(mano: int) -> tuple[int, int, int, int]:
    """Seats in speaking order from mano: mano, mano+1, mano+2, mano+3 (the postre). RULES.md §0, §2."""
    m = check_seat(mano, "mano")
    return (m, (m + 1) % 4, (m + 2) % 4, (m + 3) % 4)


def seat_roles(seat: int, mano: int) -> tuple[str, ...]:
    """Roles of a seat at the table: ``"mano"`` (speaks first), ``"postre"`` (mano+3, the dealer), or neither.

    >>> seat_roles(0, 1), seat_roles(1, 1), seat_roles(2, 1)
    (('postre',), ('mano',), ())
    """
    check_seat(seat)
    pos = (seat - check_seat(mano, "mano")) % 4
    return ("mano",) if pos == 0 else ("postre",) if pos == 3 else ()


def effective_rank(rank: int, kings: int = 8) -> int:
    """The rank a card plays as: in 8 reyes a 3 is a rey (12) and a 2 an as (1). RULES.md §1."""
    if kings == 8:
        if rank == 3:
            return 12
        if rank == 2:
            return 1
    return rank


def point_value(rank: int, kings: int = 8) -> int:
    """Points for Juego/Punto: figures 10, 7…4 face, as 1; in 8 reyes 3 = 10 and 2 = 1. RULES.md §1."""
    r = effective_rank(rank, kings)
    return 10 if r >= 10 else r


def ranks_text(cards: Iterable[Card], kings: int = 8) -> str:
    """Cards in the lessons' hand notation, high to low by effective rank: ``"R-S-6"`` (suits never matter
    in Mus; in 8 reyes a 3 reads R and a 2 reads A, RULES.md §1); ``""`` for no cards.

    >>> ranks_text([Card.parse("6b"), Card.parse("3o"), Card.parse("10c")])
    'R-S-6'
    """
    return rank_tuple_text(tuple(sorted((effective_rank(c.rank, kings) for c in cards), reverse=True)))


def rank_plural(rank: int, lang: str | None = None) -> str:
    """The plural of an effective rank in words: ``rank_plural(12) == "kings"``, ``rank_plural(10) == "sotas"``
    (``"reyes"``, ``"sotas"`` in Spanish). lang: a language code, None for the one being spoken (RULES.md §1)."""
    return translator(lang)(RANK_PLURALS[rank])


@dataclass(frozen=True, slots=True)
class Pares:
    """A hand's pares jugada (RULES.md §5).

    kind: "duples" (two pairs, or four of a kind = two equal pairs), "medias" (three of a kind) or "par".
    high, low: effective ranks: the higher and lower pair of duples, the trio's or the pair's rank (low = high).
    """

    kind: str
    high: int
    low: int

    @property
    def value(self) -> int:
        """Stones the jugada is worth to its holder in the count: par 1, medias 2, duples 3 (RULES.md §7)."""
        return {"par": 1, "medias": 2, "duples": 3}[self.kind]

    @property
    def key(self) -> tuple[int, int, int]:
        """Comparison key, larger is better: (category, high, low)."""
        return ({"par": 1, "medias": 2, "duples": 3}[self.kind], self.high, self.low)

    def describe(self, lang: str | None = None) -> str:
        """Plain words: ``"par of kings"``, ``"medias of 5s"``, ``"duples of kings and sotas"`` (``"par de
        reyes"`` in Spanish). lang: a language code, None for the one being spoken (RULES.md §5)."""
        return lance_words(translator(lang).lang).pares_words(self)


@dataclass(frozen=True, slots=True)
class HandInfo:
    """How one hand stands in each lance, under some rules.

    ranks: the 4 effective ranks, high to low (the Grande order; reversed, the Chica order).
    pares: its :class:`Pares`, or None.
    total: points for Juego/Punto (4..40; 38 and 39 cannot occur in 8 reyes).
    la_real: True if the hand is la real (only when the rules use it).
    """

    ranks: tuple[int, int, int, int]
    pares: Pares | None
    total: int
    la_real: bool = False

    @property
    def is_juego(self) -> bool:
        """True if the total is 31 or more (RULES.md §5)."""
        return self.total >= 31

    @property
    def punto(self) -> int:
        """The hand's punto (its total; only compared when nobody has juego)."""
        return self.total

    @property
    def grande_str(self) -> str:
        """Ranks high to low, as ``"R-R-7-5"``."""
        return rank_tuple_text(self.ranks)

    @property
    def chica_str(self) -> str:
        """Ranks low to high, as ``"A-A-7-C"``."""
        return rank_tuple_text(self.ranks[::-1])

    @property
    def juego_value(self) -> int:
        """Stones a juego is worth to its holder: 31 (or la real) = 3, other juego = 2, else 0 (RULES.md §7)."""
        if not self.is_juego:
            return 0
        return 3 if self.total == 31 else 2

    def key(self, lance: Lance) -> tuple[int, ...]:
        """Comparison key for a lance, larger is better; () means the hand takes no part (pares, juego)."""
        if lance is _GRANDE:
            return self.ranks
        if lance is _CHICA:
            return tuple(-r for r in reversed(self.ranks))
        if lance is _PARES:
            return self.pares.key if self.pares else ()
        if lance is _JUEGO:
            if not self.is_juego:
                return ()
            return (_LA_REAL_KEY if self.la_real else _JUEGO_KEY[self.total],)
        return (self.total,)

    def jugada(self, lance: Lance, lang: str | None = None) -> str:
        """This hand's standing in a lance, in words: ``"R-R-7-5"``, ``"medias of 5s"``, ``"31"``, ``"no pares"``.

        lang: a language code, None for the one being spoken (RULES.md §5)."""
        if lance is _GRANDE:
            return self.grande_str
        if lance is _CHICA:
            return self.chica_str
        _ = translator(lang)
        if lance is _PARES:
            return lance_words(_.lang).pares_words(self.pares) if self.pares else _("no pares")
        if lance is _JUEGO:
            if not self.is_juego:
                return _("no juego ({total})", total=self.total)
            return _("{total} (la real)", total=self.total) if self.la_real else str(self.total)
        return str(self.total)


def _is_la_real(cards: Sequence[Card], rules: Rules) -> bool:
    if not rules.la_real:
        return False
    sevens = [c for c in cards if c.rank == 7]
    others = [c for c in cards if c.rank != 7]
    if len(sevens) != 3 or len(others) != 1:
        return False
    other = others[0]
    if rules.la_real_figure == "sota":
        return other.rank == 10
    if rules.la_real_figure == "sota_de_oros":
        return other.rank == 10 and other.suit is Suit.OROS
    return effective_rank(other.rank, rules.kings) >= 10


def la_real_by_ranks(ranks: Sequence[int], kings: int, figure: str | None) -> bool:
    """Whether a hand of these 4 raw ranks is la real (7-7-7 and the figure; RULES.md §5, §13) when ranks
    alone decide it: ``figure`` "sota" or "any"; False for None (no la real) and for "sota_de_oros", where
    the suit of the sota decides (:func:`evaluate` reads the cards then)."""
    if figure not in ("sota", "any") or sorted(ranks).count(7) != 3:
        return False
    (other,) = [r for r in ranks if r != 7]
    return other == 10 if figure == "sota" else effective_rank(other, kings) >= 10


@lru_cache(maxsize=4096)
def _info_from_ranks(ranks: tuple[int, ...], kings: int) -> HandInfo:
    """:func:`info_from_ranks` for ranks already sorted (the cache's key)."""
    high, second, third, low = sorted((effective_rank(r, kings) for r in ranks), reverse=True)
    eff = (high, second, third, low)
    counts = Counter(eff)
    pairs = sorted((r for r, n in counts.items() if n >= 2), reverse=True)
    pares: Pares | None = None
    if 4 in counts.values():
        pares = Pares("duples", pairs[0], pairs[0])
    elif len(pairs) == 2:
        pares = Pares("duples", pairs[0], pairs[1])
    elif 3 in counts.values():
        pares = Pares("medias", pairs[0], pairs[0])
    elif pairs:
        pares = Pares("par", pairs[0], pairs[0])
    total = sum(10 if r >= 10 else r for r in eff)
    return HandInfo(eff, pares, total)


def info_from_ranks(ranks: Sequence[int], kings: int = 8) -> HandInfo:
    """How a hand of these 4 card ranks stands in every lance (RULES.md §1, §5); la real is not read.

    ranks: 4 rank numbers (1..7, 10, 11, 12), in any order. kings: 8 (a 3 plays as a rey and a 2 as an as)
    or 4 (every rank plays as itself: pass ranks already mapped to read them some other way).

    >>> info_from_ranks([3, 12, 7, 5]).grande_str, info_from_ranks([3, 12, 7, 5], kings=4).grande_str
    ('R-R-7-5', 'R-7-5-3')
    """
    return _info_from_ranks(tuple(sorted(ranks)), kings)


def analyse(hand: Hand | str | Sequence[Card | str], rules: Rules | None = None) -> HandInfo:
    """How one hand stands in every lance (RULES.md §1, §5).

    hand: a :class:`Hand`, a text such as ``"12o 3c 7e 5b"`` or a sequence of 4 cards.
    Raises :class:`~musteach.rules.errors.UnknownCardError`, :class:`~musteach.rules.errors.HandSizeError`,
    :class:`~musteach.rules.errors.DuplicateCardError` for bad input.
    """
    rules = rules or _DEFAULT_RULES
    h = hand if isinstance(hand, Hand) else Hand(hand)
    info = _info_from_ranks(tuple(sorted([c.rank for c in h.cards])), rules.kings)
    if rules.la_real and _is_la_real(h.cards, rules):
        info = HandInfo(info.ranks, info.pares, info.total, True)
    return info


_DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class LanceResult:
    """Who wins one lance of a deal, and why.

    lance: the :class:`Lance`.
    winner: the winning seat 0..3, or None (nobody holds pares / juego; punto when somebody has juego).
    team: ``"A"`` (seats 0, 2), ``"B"`` (seats 1, 3) or None.
    ranking: the seats taking part, best first (ties ordered by nearness to mano).
    tie_to_mano: True when another seat held an exactly equal hand and the tie rule decided (RULES.md §2).
    mano: the seat 0..3 that speaks first.
    infos: the 4 :class:`HandInfo` the lance was judged on, indexed by seat.

    The words are built only when read (RULES.md §2, §5): :attr:`jugadas` (4 strings, every seat's standing
    in this lance, indexed by seat) and :attr:`explanation` (one sentence a learner can read).
    """

    lance: Lance
    winner: int | None
    team: str | None
    ranking: tuple[int, ...]
    tie_to_mano: bool
    mano: int
    infos: tuple[HandInfo, HandInfo, HandInfo, HandInfo] = field(repr=False)

    @property
    def played(self) -> bool:
        """False when the lance has no holder (pares, juego) or is not played (punto when there is juego)."""
        return self.winner is not None

    @property
    def jugadas(self) -> tuple[str, str, str, str]:
        """Every seat's standing in this lance, indexed by seat: ``("R-R-7-5", ...)``, ``"no pares"``."""
        i0, i1, i2, i3 = self.infos
        lance = self.lance
        return (i0.jugada(lance), i1.jugada(lance), i2.jugada(lance), i3.jugada(lance))

    @property
    def explanation(self) -> str:
        """One sentence a learner can read, in the language being spoken (see :func:`musteach.i18n.speaking`):
        ``"Seat 0 wins Grande: R-R-7-5 beats R-C-C-4 on the second card."``"""
        return _explain(self)

    def explain(self, lang: str | None = None) -> str:
        """:attr:`explanation` in ``lang`` (a code such as ``"es"``; None: the language being spoken).

        Raises :class:`~musteach.rules.errors.LanguageError` for a language with no catalog (RULES.md §2, §5).
        """
        return _explain(self, lang)

    def jugadas_in(self, lang: str | None = None) -> tuple[str, str, str, str]:
        """:attr:`jugadas` in ``lang`` (None: the language being spoken): 4 strings, indexed by seat."""
        i0, i1, i2, i3 = self.infos
        lance = self.lance
        return (i0.jugada(lance, lang), i1.jugada(lance, lang), i2.jugada(lance, lang), i3.jugada(lance, lang))


@dataclass(frozen=True, slots=True)
class DealResult:
    """The five lances of one deal, each judged when first read.

    hands: the 4 :class:`Hand` objects, indexed by seat. infos: their :class:`HandInfo`. mano: seat 0..3.
    grande, chica, pares, juego, punto: their :class:`LanceResult`.
    """

    hands: tuple[Hand, Hand, Hand, Hand]
    mano: int
    rules: Rules
    infos: tuple[HandInfo, HandInfo, HandInfo, HandInfo]
    _judged: list[LanceResult] = field(default_factory=list, init=False, repr=False, compare=False)

    def __getitem__(self, lance: Lance | str) -> LanceResult:
        result: LanceResult = getattr(self, Lance.parse(lance).value)
        return result

    def results(self) -> tuple[LanceResult, ...]:
        """The five results in lance order."""
        if not self._judged:
            self._judged[:] = judge_infos(self.infos, self.mano)  # one assignment: a racing thread sees 0 or 5
        return tuple(self._judged)

    @property
    def grande(self) -> LanceResult:
        """Who wins Grande, and why."""
        return self.results()[0]

    @property
    def chica(self) -> LanceResult:
        """Who wins Chica, and why."""
        return self.results()[1]

    @property
    def pares(self) -> LanceResult:
        """Who wins Pares (winner None when nobody holds pares), and why."""
        return self.results()[2]

    @property
    def juego(self) -> LanceResult:
        """Who wins Juego (winner None when nobody has juego), and why."""
        return self.results()[3]

    @property
    def punto(self) -> LanceResult:
        """Who wins Punto (winner None when somebody has juego), and why."""
        return self.results()[4]

    def winners(self) -> dict[str, int | None]:
        """``{"grande": s, "chica": s, "pares": s|None, "juego": s|None, "punto": s|None}``."""
        return dict(zip(_LANCE_NAMES, [r.winner for r in self.results()], strict=True))

    def explanations(self, lang: str | None = None) -> dict[str, str]:
        """One sentence per lance, keyed by lance name (``"grande"``...), in ``lang`` (a code such as ``"es"``;
        None: the language being spoken). Raises :class:`~musteach.rules.errors.LanguageError` for a language
        with no catalog."""
        say = lance_words(lang).sentence
        return dict(
            zip(
                _LANCE_NAMES,
                [say(r.lance, r.winner, r.ranking, r.tie_to_mano, r.mano, r.infos) for r in self.results()],
                strict=True,
            )
        )

    def _repr_html_(self) -> str:
        from ..draw.table import deal_html

        return deal_html(self)


_TEAMS = (Team.A, Team.B, Team.A, Team.B)


def _judge(
    lance: Lance,
    position: int,
    infos: tuple[HandInfo, HandInfo, HandInfo, HandInfo],
    keys: tuple[tuple[int, ...], ...],
    mano: int,
) -> LanceResult:
    """The decision only: winner, ranking and tie; the words wait for :meth:`LanceWords.sentence`.

    position: the lance's place in :data:`LANCES`. keys: each seat's :func:`_lance_keys`, indexed by seat."""
    if lance is _PUNTO and (keys[0][3] or keys[1][3] or keys[2][3] or keys[3][3]):  # somebody has juego
        return LanceResult(lance, None, None, (), False, mano, infos)
    # key * 4 + nearness to mano (3 for mano ... 0 for the postre): all four differ, the largest is best, and an
    # exact tie goes to the seat nearer mano (RULES.md §2)
    order = _ORDERS[mano]
    ranked = sorted(
        [keys[s][position] | 3 - d for d, s in enumerate(order) if keys[s][position]], reverse=True
    )
    if not ranked:
        return LanceResult(lance, None, None, (), False, mano, infos)
    decode = _DECODE[mano]
    ranking = tuple([decode[x & 3] for x in ranked])
    w = ranking[0]
    tie = len(ranked) > 1 and ranked[0] >> 2 == ranked[1] >> 2
    return LanceResult(lance, w, _TEAMS[w], ranking, tie, mano, infos)


def _explain(result: LanceResult, lang: str | None = None) -> str:
    """The sentence of one judged lance in ``lang`` (None: the language being spoken; RULES.md §2, §5)."""
    return lance_words(lang).sentence(
        result.lance, result.winner, result.ranking, result.tie_to_mano, result.mano, result.infos
    )


def evaluate(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    rules: Rules | None = None,
) -> DealResult:
    """Judge every lance of one deal (RULES.md §2, §4, §5).

    hands: 4 hands of 4 cards, indexed by seat (cards as :class:`Card` or codes such as ``"12o"``).
    mano: the seat 0..3 that speaks first; ties go to the seat nearer mano.
    rules: a :class:`~musteach.rules.Rules`; the default is 8 reyes.

    Returns a :class:`DealResult`, whose lances are judged when first read and whose sentences are built when
    read. Pares and juego have winner None when nobody holds them; punto has a winner only when nobody has juego.
    Raises :class:`~musteach.rules.errors.UnknownCardError`, :class:`~musteach.rules.errors.HandSizeError`,
    :class:`~musteach.rules.errors.DuplicateCardError` (a card dealt twice) or :class:`SeatError` (bad mano).
    """
    rules = rules or _DEFAULT_RULES
    check_seat(mano, "mano")
    hs = parse_hands(hands)
    if rules.la_real:
        infos = (analyse(hs[0], rules), analyse(hs[1], rules), analyse(hs[2], rules), analyse(hs[3], rules))
    else:  # what analyse() does without la real, inlined: evaluate() is called for every deal a learner sees
        k = rules.kings
        i0, i1, i2, i3 = (_info_from_ranks(tuple(sorted([c.rank for c in h.cards])), k) for h in hs)
        infos = (i0, i1, i2, i3)
    return DealResult(hs, mano, rules, infos)


def judge_infos(
    infos: tuple[HandInfo, HandInfo, HandInfo, HandInfo], mano: int
) -> tuple[LanceResult, LanceResult, LanceResult, LanceResult, LanceResult]:
    """The five lances judged from the 4 hands' :class:`HandInfo` (indexed by seat) and the mano seat 0..3
    (not checked), in lance order; each sentence is built when read (RULES.md §2, §4, §5)."""
    keys = (_lance_keys(infos[0]), _lance_keys(infos[1]), _lance_keys(infos[2]), _lance_keys(infos[3]))
    return (
        _judge(_GRANDE, 0, infos, keys, mano),
        _judge(_CHICA, 1, infos, keys, mano),
        _judge(_PARES, 2, infos, keys, mano),
        _judge(_JUEGO, 3, infos, keys, mano),
        _judge(_PUNTO, 4, infos, keys, mano),
    )


_KEYS: dict[tuple[tuple[int, ...], bool], tuple[int, ...]] = {}


def _lance_keys(info: HandInfo) -> tuple[int, ...]:
    """A hand's comparison key in every lance, in lance order, each one integer times 4 (0: takes no part),
    ordered as :meth:`HandInfo.key` orders them. Its ranks and la real decide them, so they are kept by those
    (a tuple of ints hashes fast, a HandInfo does not)."""
    found = _KEYS.get((info.ranks, info.la_real))
    if found is None:
        g = info.ranks  # effective ranks, each below 16: packed 4 bits each, they compare as the tuples do
        grande = ((g[0] * 16 + g[1]) * 16 + g[2]) * 16 + g[3]
        chica = 65535 - (((g[3] * 16 + g[2]) * 16 + g[1]) * 16 + g[0])
        p = info.pares
        pares = (p.key[0] * 16 + p.key[1]) * 16 + p.key[2] if p else 0
        juego = (_LA_REAL_KEY if info.la_real else _JUEGO_KEY[info.total]) if info.is_juego else 0
        found = _KEYS[info.ranks, info.la_real] = (grande * 4, chica * 4, pares * 4, juego * 4, info.total * 4)
    return found


# ----------------------------------------------------------------------------------------------
# The fast path: winners only, from integer card indexes, through a table of hand keys.
# ----------------------------------------------------------------------------------------------

_RANK_OF_INDEX = tuple(c.rank for c in __import__("musteach.rules.cards", fromlist=["DECK"]).DECK)


@lru_cache(maxsize=8)
def hand_key_table(kings: int) -> tuple[tuple[int, ...], dict[int, tuple[int, int, int, int, int]]]:
    """Integer lance keys for every multiset of effective ranks.

    Returns ``(weights, table)``: ``weights[i]`` for card index i (0..39); the sum of a hand's four weights
    indexes ``table``, whose value is ``(grande, chica, pares, juego, punto)`` keys, each larger-is-better,
    with 0 meaning "takes no part" for pares and juego. La real is not in the table.
    """
    eff_ranks = sorted({effective_rank(r, kings) for r in _RANK_OF_INDEX})
    pos = {r: i for i, r in enumerate(eff_ranks)}
    weights = tuple(5 ** pos[effective_rank(r, kings)] for r in _RANK_OF_INDEX)
    table: dict[int, tuple[int, int, int, int, int]] = {}
    from itertools import combinations_with_replacement

    for combo in combinations_with_replacement(eff_ranks, 4):
        info = _info_from_ranks(combo, 4)  # already effective: no further mapping
        g = info.ranks
        gk = ((g[0] * 16 + g[1]) * 16 + g[2]) * 16 + g[3]
        c = g[::-1]
        ck = 65535 - (((c[0] * 16 + c[1]) * 16 + c[2]) * 16 + c[3])
        p = info.pares
        pk = (p.key[0] * 16 + p.key[1]) * 16 + p.key[2] if p else 0
        jk = _JUEGO_KEY.get(info.total, 0)
        table[sum(5 ** pos[r] for r in combo)] = (gk, ck, pk, jk, info.total)
    return weights, table


_ORDERS = SPEAKING_ORDERS
#: _DECODE[mano][x & 3]: the seat whose composite key x won (x & 3 is 3 - distance from mano).
_DECODE = tuple(tuple((m + 3 - x) % 4 for x in range(4)) for m in range(4))
_WINNER_TABLES: dict[int, tuple[tuple[int, ...], tuple[tuple[dict[int, tuple[int, ...]], ...], ...]]] = {}


def _winner_tables(kings: int) -> tuple[tuple[int, ...], tuple[tuple[dict[int, tuple[int, ...]], ...], ...]]:
    """``(weights, by_mano)`` for :func:`winners`.

    ``by_mano[mano][seat]`` maps a hand's weight sum to its five composite keys ``dense_key * 4 + 3 - d``,
    d = the seat's distance from mano: all four seats' composites differ, the largest wins, and an exact
    tie goes to the seat nearer mano (RULES.md §2). A dense key of 0 means "takes no part".
    """
    if kings not in (8, 4) or isinstance(kings, bool):
        from .errors import RulesError

        raise RulesError(Text("kings must be 8 or 4, not {value} (RULES.md §13)", value=repr(kings)))
    weights, table = hand_key_table(kings)
    dense = [{k: r for r, k in enumerate(sorted({v[i] for v in table.values()}))} for i in range(5)]
    by_dist = [{s: tuple(dense[i][v[i]] * 4 + 3 - d for i in range(5)) for s, v in table.items()} for d in range(4)]
    by_mano = tuple(tuple(by_dist[(seat - m) % 4] for seat in range(4)) for m in range(4))
    return weights, by_mano


def winners(hands: Sequence[Sequence[int]], mano: int, kings: int = 8) -> tuple[int | None, ...]:
    """Winners only, fast: ``(grande, chica, pares, juego, punto)`` seats (None where nobody).

    hands: 4 sequences of 4 card indexes (0..39, :attr:`Card.index`), indexed by seat; not validated.
    mano: seat 0..3. kings: 8 or 4 (else :class:`~musteach.rules.errors.RulesError`).
    La real is not applied (use :func:`evaluate`, or :func:`musteach.rules.batch.evaluate_batch`).

    >>> winners([[36, 9, 26, 19], [37, 32, 33, 14], [0, 1, 12, 16], [21, 22, 28, 7]], mano=0)
    (0, 2, 0, 0, None)
    """
    try:
        w, by_mano = _WINNER_TABLES[kings]
    except (KeyError, TypeError):
        w, by_mano = _WINNER_TABLES[kings] = _winner_tables(kings)
    t0, t1, t2, t3 = by_mano[mano]
    (a0, a1, a2, a3), (b0, b1, b2, b3), (c0, c1, c2, c3), (d0, d1, d2, d3) = hands
    g, c, p, j, pu = map(
        max,
        t0[w[a0] + w[a1] + w[a2] + w[a3]],
        t1[w[b0] + w[b1] + w[b2] + w[b3]],
        t2[w[c0] + w[c1] + w[c2] + w[c3]],
        t3[w[d0] + w[d1] + w[d2] + w[d3]],
    )
    dec = _DECODE[mano]
    if j > 3:  # somebody has juego: punto is not played
        return (dec[g & 3], dec[c & 3], dec[p & 3] if p > 3 else None, dec[j & 3], None)
    return (dec[g & 3], dec[c & 3], dec[p & 3] if p > 3 else None, None, dec[pu & 3])


#: The forms of the lances' names a translation may use (see :class:`~musteach.i18n.Term`).
LANCE_FORMS: tuple[str, ...] = (
    NC_("lance:the", "Grande"), NC_("lance:at", "Grande"), NC_("lance:of", "Grande"),
    NC_("lance:the", "Chica"), NC_("lance:at", "Chica"), NC_("lance:of", "Chica"),
    NC_("lance:the", "Pares"), NC_("lance:at", "Pares"), NC_("lance:of", "Pares"),
    NC_("lance:the", "Juego"), NC_("lance:at", "Juego"), NC_("lance:of", "Juego"),
    NC_("lance:the", "Punto"), NC_("lance:at", "Punto"), NC_("lance:of", "Punto"),
)


#: The roles at the table, from the mano round (RULES.md §0); their words are catalog entries in the context
#: ``"seat:role"`` (the Spanish «el mano», «el segundo», «el tercero», «el postre»).
SEAT_ROLES: tuple[str, ...] = (
    NC_("seat:role", "mano"), NC_("seat:role", "second"), NC_("seat:role", "third"), NC_("seat:role", "postre"),
)


class Seat(int, Worded):
    """A seat 0..3 named in a sentence that knows the hand's mano: it reads as its number, and a translation
    may name it by its role at the table instead, as players do: ``{seat:role}`` («el postre»), ``{seat:Role}``
    (the same, capitalised to start a sentence). RULES.md §0. Raises like :func:`check_seat`."""

    mano: int

    def __new__(cls, seat: int, mano: int) -> Seat:
        made = super().__new__(cls, check_seat(seat))
        made.mano = check_seat(mano, "mano")
        return made

    def __reduce__(self) -> tuple[type[Seat], tuple[int, int]]:
        return (Seat, (int(self), self.mano))

    def form(self, _: Translator, spec: str) -> str | None:
        if spec not in ("role", "Role"):
            return None
        key = SEAT_ROLES[(self - self.mano) % 4]
        said = _.pgettext("seat:role", key)
        if said == key:
            return None
        return said[:1].upper() + said[1:] if spec == "Role" else said
