"""The space of hands as rank multisets, without numpy: what the shipped tables, the odds and the advisor read
(RULES.md §0, §1, §11, §13).

Suits never matter (RULES.md §0), so a hand is one multiset of the effective ranks (§1): 330 of them in
8 reyes, 715 in 4 reyes, and under la real with the sota de oros that card is a class of its own (§13).
:class:`HandSpace` lists them, with each one's row, its :class:`~musteach.rules.lances.HandInfo`, and how
a hand's cards map onto them. It uses the standard library only, so a page that reads the shipped odds
(:mod:`musteach.odds.tables`) never loads numpy; the counting itself (:mod:`musteach.odds.enumeration`)
builds its arrays on top of it. :class:`Counts` is what a count returns and :data:`SENAS` the señas a
partner can send (RULES.md §11).

>>> hs = hand_space(8, None)
>>> hs.k, hs.m  # 8 rank classes in 8 reyes (A, 4, 5, 6, 7, S, C, R); 330 multisets of 4 cards
(8, 330)
>>> from musteach import Hand
>>> hs.multiset_of(Hand("12o 3c 11e 1b").cards), hs.unseen(Hand("12o 3c 11e 1b").cards)
((1, 0, 0, 0, 0, 0, 1, 2), (7, 4, 4, 4, 4, 4, 3, 6))
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ..i18n import N_
from ..rules.cards import DECK, Card, Suit
from ..rules.lances import HandInfo, effective_rank, info_from_ranks
from ..rules.options import Rules

__all__ = [
    "SENAS",
    "Counts",
    "HandSpace",
    "hand_space",
    "hand_space_for",
    "la_real_mode",
    "multisets",
]

#: A hand as counts per rank class (a multiset), e.g. ``(1, 0, 0, 0, 0, 0, 1, 2)`` for R-R-C-A in 8 reyes.
Multiset = tuple[int, ...]


def la_real_mode(rules: Rules) -> str | None:
    """The la real mode of a table (RULES.md §13): None without la real, else ``rules.la_real_figure``."""
    return rules.la_real_figure if rules.la_real else None


def multisets(caps: Sequence[int], size: int) -> list[Multiset]:
    """Every count vector of ``size`` items over len(caps) classes with count[i] <= caps[i], sorted.

    >>> multisets([2, 1], 2)
    [(1, 1), (2, 0)]
    """
    k = len(caps)
    out = set()
    for combo in itertools.combinations_with_replacement(range(k), size):
        c = [0] * k
        for i in combo:
            c[i] += 1
        if all(c[i] <= caps[i] for i in range(k)):
            out.add(tuple(c))
    return sorted(out)


def _rank_classes(kings: int, la_real: str | None) -> tuple[tuple[tuple[int, bool], ...], tuple[int, ...]]:
    """``(labels, card_class)``: ``(effective rank, is the sota de oros)`` per class, lowest rank first
    (RULES.md §1), and each card's class by card index; under la real with the sota de oros (RULES.md §13)
    that card is a class of its own, last."""
    eff = sorted({effective_rank(c.rank, kings) for c in DECK})
    labels = [(r, False) for r in eff]
    if la_real == "sota_de_oros":
        labels.append((10, True))
    card_class = tuple(
        len(eff) if la_real == "sota_de_oros" and c.rank == 10 and c.suit is Suit.OROS else eff.index(effective_rank(c.rank, kings))
        for c in DECK
    )
    return tuple(labels), card_class


def _la_real_hands(la_real: str | None, labels: Sequence[tuple[int, bool]], ms: Sequence[Multiset]) -> tuple[bool, ...]:
    """Per multiset: whether it is la real under this mode (three 7s and the figure, RULES.md §13)."""
    if la_real is None:
        return (False,) * len(ms)
    seven = next(i for i, (r, _) in enumerate(labels) if r == 7)
    mask = []
    for c in ms:
        real = False
        if c[seven] == 3:
            r, oros = labels[next(j for j, n in enumerate(c) if n and j != seven)]
            real = (la_real == "sota" and r == 10) or (la_real == "any" and r >= 10) or (la_real == "sota_de_oros" and oros)
        mask.append(real)
    return tuple(mask)


@dataclass(frozen=True)
class HandSpace:
    """Every hand of one variant as a rank multiset (see :func:`hand_space`).

    kings: 8 or 4; la_real: None or a la real mode (RULES.md §13). labels: per rank class, ``(effective
    rank, is the sota de oros)``, lowest first. card_class: per card index (0..39), its class. caps: cards
    per class (they sum to 40). hands: every multiset of 4 cards over the classes, sorted; index: each
    one's row in ``hands``. real_hands: per row, whether that hand is la real.
    """

    kings: int
    la_real: str | None
    labels: tuple[tuple[int, bool], ...]
    card_class: tuple[int, ...]
    caps: tuple[int, ...]
    hands: tuple[Multiset, ...]
    index: Mapping[Multiset, int]
    real_hands: tuple[bool, ...]
    _infos: list[HandInfo] = field(default_factory=list, repr=False, compare=False)

    @property
    def k(self) -> int:
        """The number of rank classes (8 in 8 reyes, 10 in 4 reyes, one more with the sota de oros)."""
        return len(self.caps)

    @property
    def m(self) -> int:
        """The number of hands (multisets of 4 cards): 330 in 8 reyes, 715 in 4 reyes."""
        return len(self.hands)

    def multiset_of(self, cards: Iterable[Card]) -> Multiset:
        """The counts per rank class of ``cards`` (any number of them)."""
        counts = [0] * self.k
        for c in cards:
            counts[self.card_class[c.index]] += 1
        return tuple(counts)

    def unseen(self, cards: Iterable[Card]) -> Multiset:
        """The counts per rank class of the deck's cards that are not in ``cards``."""
        return tuple(cap - n for cap, n in zip(self.caps, self.multiset_of(cards), strict=True))

    def info(self, i: int) -> HandInfo:
        """The :class:`HandInfo` of hand row ``i`` (la real set when that hand is la real)."""
        if not self._infos:
            infos = []
            for j, c in enumerate(self.hands):
                ranks = tuple(self.labels[cls][0] for cls in range(self.k) for _ in range(c[cls]))
                info = info_from_ranks(ranks, 4)
                if self.real_hands[j]:
                    info = HandInfo(info.ranks, info.pares, info.total, True)
                infos.append(info)
            self._infos.extend(infos)
        return self._infos[i]


@lru_cache(maxsize=8)
def hand_space(kings: int, la_real: str | None) -> HandSpace:
    """The :class:`HandSpace` of ``kings`` (8 or 4) and a la real mode (None, or a ``Rules.la_real_figure``),
    built once per process (a few milliseconds)."""
    labels, card_class = _rank_classes(kings, la_real)
    caps = [0] * len(labels)
    for cls in card_class:
        caps[cls] += 1
    ms = multisets(caps, 4)
    return HandSpace(
        kings, la_real, labels, card_class, tuple(caps), tuple(ms), {c: i for i, c in enumerate(ms)},
        _la_real_hands(la_real, labels, ms),
    )  # fmt: skip


def hand_space_for(rules: Rules) -> HandSpace:
    """The :class:`HandSpace` of a table's :class:`~musteach.rules.Rules` (its kings and la real, RULES.md §13)."""
    return hand_space(rules.kings, la_real_mode(rules))


@dataclass(frozen=True)
class Counts:
    """Integer counts of deals of the unseen cards (all equally likely); see
    :func:`~musteach.odds.enumeration.count_deals`.

    team[li]: deals the asking team wins lance li (0 grande, 1 chica, 2 pares, 3 juego, 4 punto).
    stones[li]: the sum over deals of the stones the asking team takes in lance li en paso.
    With ``detail`` only: seats[li] = counts by relative seat 0 (the asking seat), 1 (next to speak after
    it), 2 (partner), 3 (the other opponent), then 4 = nobody; holding[li] for li 2, 3 = (team holds,
    opponents hold, both hold, nobody holds, both hold and the team wins).
    """

    deals: int
    team: tuple[int, ...]
    seats: tuple[tuple[int, ...], ...]
    holding: dict[int, tuple[int, ...]]
    stones: tuple[int, ...]


def _count_rank(info: HandInfo, rank: int) -> int:
    return sum(1 for r in info.ranks if r == rank)


#: Señas a seat can receive from its partner, by name: (gloss, test of the partner's hand). The glosses are
#: English msgids: translate them where they are shown (``translator()(SENAS[name][0])``).
#: Counts of kings and aces are exact (in 8 reyes a 3 is a king and a 2 an ace, RULES.md §1); "juego"
#: is juego other than 31, as the FEM list signs 31 apart. Pass the names as ``senas=`` to
#: :func:`~musteach.odds.hands.hand_odds`: the partner's unknown hand is then only dealt hands that pass every test.
SENAS: dict[str, tuple[str, Callable[[HandInfo], bool]]] = {
    "2 reyes": (N_("bite the lower lip: exactly two kings"), lambda i: _count_rank(i, 12) == 2),
    "3 reyes": (N_("bite one side of the lip: exactly three kings"), lambda i: _count_rank(i, 12) == 3),
    "4 reyes": (N_("bite the lip twice: four kings"), lambda i: _count_rank(i, 12) == 4),
    "2 ases": (N_("tip of the tongue out: exactly two aces"), lambda i: _count_rank(i, 1) == 2),
    "3 ases": (N_("tongue out to one side: exactly three aces"), lambda i: _count_rank(i, 1) == 3),
    "4 ases": (N_("tongue out twice: four aces"), lambda i: _count_rank(i, 1) == 4),
    "pares": (N_("turn the head to one side: pares"), lambda i: i.pares is not None),
    "medias": (N_("lips twisted to one side: medias (three of a kind)"), lambda i: i.pares is not None and i.pares.kind == "medias"),
    "duples": (N_("raise the eyebrows: duples"), lambda i: i.pares is not None and i.pares.kind == "duples"),
    "31": (N_("wink: juego of 31"), lambda i: i.total == 31),
    "juego": (N_("lips pushed out: juego, not 31"), lambda i: i.total >= 32),
    "punto 30": (N_("shrug both shoulders: punto of 30"), lambda i: i.total == 30),
    "punto 29": (N_("shrug one shoulder: punto of 29"), lambda i: i.total == 29),
    "ciego": (N_("close both eyes: no pares and no juego"), lambda i: i.pares is None and i.total < 31),
}
