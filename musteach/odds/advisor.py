"""The discard (mus) advisor: every way of changing 1 to 4 cards, with the exact odds each brings (RULES.md §3, §7).

>>> a = advise_discard("12o 11c 7e 4b", aim="grande")  # doctest: +SKIP
>>> a.best().describe()  # doctest: +SKIP
'change 7-4, keep R-C'

The advisor lists the 15 discards of a hand, with the exact distribution of the new hand and the odds it
brings: each new hand's odds come from the tables shipped with the package (:mod:`musteach.odds.tables`, 8 and
4 reyes), or under la real from :mod:`musteach.odds.enumeration` (in 8 reyes through the on-disk table of
:mod:`musteach.odds.cache`), averaged with the redraw probabilities.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, prod

from ..i18n import Text, translator
from ..numbers import decimal_text, percent_text
from ..rules.cards import Card, Hand, parse_hand
from ..rules.errors import MusError
from ..rules.lances import LANCES, HandInfo, Lance, check_seat, ranks_text
from ..rules.options import Rules, check_rules
from ..runtime import numpy_available, require_numpy
from .hands import HandOdds, Number, hand_odds, odds_in_words, ratio
from .space import HandSpace, Multiset, hand_space, hand_space_for, multisets
from .tables import shipped_table

__all__ = [
    "AIMS",
    "DiscardAdvice",
    "DiscardOption",
    "Redraw",
    "advise_discard",
    "aim_hint",
    "counting_note",
    "prepare_advisor",
]

#: What a discard can aim at: the team's chance of winning one lance, or "balanced": the stones the
#: team expects over all five lances when every lance is passed (en paso, RULES.md §7): 1 each for
#: Grande, Chica and Punto, and both partners' values for Pares (1, 2, 3) and Juego (31 = 3, else 2).
AIMS: tuple[str, ...] = ("grande", "chica", "pares", "juego", "punto", "balanced")


@dataclass(frozen=True, slots=True)
class Redraw:
    """One possible hand after the discard. info: its :class:`~musteach.rules.lances.HandInfo`; probability."""

    info: HandInfo
    probability: Number

    @property
    def text(self) -> str:
        """The new hand's ranks, high to low: ``"R-R-7-5"``."""
        return self.info.grande_str


@dataclass(frozen=True)
class DiscardOption:
    """One way of discarding 1 to 4 cards, and what it brings.

    discard, keep: the cards changed and the cards kept. redraws: every possible new hand (as ranks)
    with its exact probability, most likely first (they sum to 1). win: per lance name, the team's
    probability of winning it, averaged over the new hands. stones: per lance name, the stones the team
    expects en paso (see :data:`AIMS`).
    """

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    redraws: tuple[Redraw, ...]
    win: dict[str, Number]
    stones: dict[str, Number]

    @property
    def balanced(self) -> Number:
        """Expected en-paso stones over the five lances (the "balanced" aim)."""
        return sum(self.stones.values(), Fraction(0) if isinstance(self.stones["grande"], Fraction) else 0.0)

    def score(self, aim: str = "balanced") -> Number:
        """The option's value for an aim of :data:`AIMS` (a probability, or stones for "balanced")."""
        aim = _check_aim(aim)
        return self.balanced if aim == "balanced" else self.win[aim]

    def describe(self, kings: int = 8, *, lang: str | None = None) -> str:
        """``"change 7-5, keep R-R"`` in the lessons' hand notation (or ``"change all four"``), in ``lang``
        (None: the language being spoken)."""
        _ = translator(lang)
        if not self.keep:
            return _("change all four")
        return _("change {discard}, keep {keep}", discard=ranks_text(self.discard, kings), keep=ranks_text(self.keep, kings))


@dataclass(frozen=True)
class DiscardAdvice:
    """The 15 discards of one hand (see :func:`advise_discard`).

    current: the :class:`HandOdds` of keeping the hand as it is (for comparison). options: the 15
    :class:`DiscardOption` in a fixed order (1 card changed, then 2, 3, 4; cards in hand order).
    aim: the aim :meth:`best` and :meth:`explain` use by default.
    """

    hand: Hand
    seat: int
    mano: int
    rules: Rules
    aim: str
    current: HandOdds
    options: tuple[DiscardOption, ...]

    def ranked(self, aim: str | None = None) -> tuple[DiscardOption, ...]:
        """The options, best first for ``aim`` (default :attr:`aim`); equal scores keep fewer discards first."""
        a = _check_aim(aim or self.aim)
        return tuple(sorted(self.options, key=lambda o: -o.score(a)))

    def best(self, aim: str | None = None) -> DiscardOption:
        """The best option for ``aim`` (default :attr:`aim`)."""
        return self.ranked(aim)[0]

    def current_score(self, aim: str | None = None) -> Number:
        """The same score for keeping the hand as it is."""
        a = _check_aim(aim or self.aim)
        return self.current.team_stones if a == "balanced" else self.current.win(a)

    def likely_sentence(self, aim: str | None = None, *, lang: str | None = None) -> str:
        """The new hands the best discard for ``aim`` can bring, in ``lang`` (None: the language being spoken):
        ``"After that change, 35 new hands are possible; the likeliest: R-R-7-5 (4%), ..."`` (the three
        likeliest, with their chance)."""
        _ = translator(lang)
        best = self.best(aim)
        top = ", ".join(
            _("{hand} ({percent})", hand=r.text, percent=percent_text(float(r.probability), lang=_.lang))
            for r in best.redraws[:3]
        )
        return _.ngettext(
            "After that change, {n} new hand is possible; the likeliest: {hands}.",
            "After that change, {n} new hands are possible; the likeliest: {hands}.",
            len(best.redraws),
            hands=top,
        )

    def explain(self, aim: str | None = None, *, lang: str | None = None) -> str:
        """A sentence or two a coach can show for the best option, in ``lang`` (None: the language being
        spoken); when keeping the hand beats every discard, it says so first (cut the mus: "no hay mus"), since
        a player who goes mus must change 1-4 cards (§3)."""
        _ = translator(lang)
        a = _check_aim(aim or self.aim)
        b = self.best(a)
        hand = self.current.info.grande_str
        keeping_wins = self.current_score(a) >= b.score(a)
        change = b.describe(self.rules.kings, lang=_.lang)
        if a == "balanced":
            facts = {
                "change": change,
                "hand": hand,
                "stones": decimal_text(float(b.balanced), 2, lang=_.lang),
                "keeping": decimal_text(float(self.current.team_stones), 2, lang=_.lang),
            }
            if keeping_wins:
                return _(
                    "Keeping {hand} beats every discard for this aim: cut the mus (no hay mus). If the mus goes on, "
                    "for the most stones en paso, {change} from {hand}: your team then expects {stones} stones over "
                    "the five lances (keeping the hand: {keeping}).",
                    **facts,
                )
            return _(
                "For the most stones en paso, {change} from {hand}: your team then expects {stones} stones over the "
                "five lances (keeping the hand: {keeping}).",
                **facts,
            )
        facts = {
            "lance": Lance.parse(a).title,
            "change": change,
            "hand": hand,
            "how_often": odds_in_words(b.win[a], lang=_.lang),
            "p": decimal_text(float(b.win[a]), 2, lang=_.lang),
            "keeping": decimal_text(float(self.current.win(a)), 2, lang=_.lang),
        }
        if keeping_wins:
            return _(
                "Keeping {hand} beats every discard for this aim: cut the mus (no hay mus). If the mus goes on, "
                "to aim at {lance}, {change} from {hand}: your team then wins {lance} {how_often} ({p}; keeping "
                "the hand: {keeping}).",
                **facts,
            )
        return _(
            "To aim at {lance}, {change} from {hand}: your team then wins {lance} {how_often} ({p}; keeping the "
            "hand: {keeping}).",
            **facts,
        )


def aim_hint(aim: str, *, lang: str | None = None) -> str:
    """What ranking the discards by ``aim`` (one of :data:`AIMS`) means, e.g. for a tooltip, in ``lang`` (None:
    the language being spoken): ``"Rank the discards by the chance of winning Grande"``. Raises
    :class:`MusError` for an unknown aim."""
    _ = translator(lang)
    a = _check_aim(aim)
    if a == "balanced":
        return _("Rank the discards by the stones expected over all five lances, every lance passed")
    return _("Rank the discards by the chance of winning {lance}", lance=Lance.parse(a).title)


def counting_note(rules: Rules | None = None, *, lang: str | None = None) -> str:
    """What a learner waiting for :func:`advise_discard` is told, in ``lang`` (None: the language being
    spoken): quick with the shipped tables (no la real), longer under la real, where the odds are counted the
    first time (RULES.md §13)."""
    _ = translator(lang)
    rules = check_rules(rules)
    if not rules.la_real and shipped_table(rules.kings) is not None:
        return _("Counting… every new hand each discard can bring, against every deal of the other cards.")
    if rules.kings == 8:
        return _(
            "Counting… every new hand each discard can bring, against every deal of the other cards (a few seconds "
            "the first time with la real)."
        )
    return _(
        "Counting… every new hand each discard can bring, against every deal of the other cards (a few minutes "
        "the first time with la real)."
    )


def _check_aim(aim: str) -> str:
    a = str(aim).strip().lower()
    if a not in AIMS:
        raise MusError(Text("unknown aim {aim}: use one of {aims}", aim=repr(aim), aims=", ".join(AIMS)))
    return a


@lru_cache(maxsize=16)
def _draw_multisets(kings: int, la_real: str | None, d: int) -> tuple[Multiset, ...]:
    return tuple(multisets(hand_space(kings, la_real).caps, d))


def advise_discard(
    hand: Hand | str | Sequence[Card | str],
    seat: int = 0,
    mano: int = 0,
    rules: Rules | None = None,
    *,
    aim: str = "balanced",
    exact: bool = False,
) -> DiscardAdvice:
    """Every way of changing 1 to 4 cards in the mus (RULES.md §3), with the exact odds each brings.

    hand: the seat's 4 cards; seat, mano: seats 0..3; rules: a :class:`~musteach.rules.Rules`.
    aim: the default aim of the advice, one of :data:`AIMS`. exact: Fractions instead of floats.

    Model: the replacements are drawn from the 36 cards not in the original hand, every set equally
    likely; after the draw, the other three hands are unknown and dealt from the 36 cards not in the
    NEW hand (the other players' discards, and where the discarded cards went, are ignored). Each new
    hand's odds are those of :func:`hand_odds`, averaged with the redraw probabilities.

    Speed: without la real, the odds of every possible new hand are read from the tables shipped with the
    package (:mod:`musteach.odds.tables`), in 8 and 4 reyes alike: tens of milliseconds, even the first call.
    Under la real they are counted once per distance from mano and cached (8 reyes: all 330 hands in one
    batch, about 1-2 s on two cores; 4 reyes: hand by hand, minutes the first time); :func:`prepare_advisor`
    fills that cache ahead of time (e.g. from a thread).
    Returns a :class:`DiscardAdvice`. Raises the errors of :func:`hand_odds`, or :class:`MusError`
    for an unknown aim.
    """
    rules = check_rules(rules)
    h = parse_hand(hand)
    seat = check_seat(seat)
    mano = check_seat(mano, "mano")
    aim = _check_aim(aim)
    hs = hand_space_for(rules)
    pos0 = (seat - mano) % 4
    current = hand_odds(h, seat, mano, rules, exact=exact)
    pool = hs.unseen(h.cards)
    counts = _new_hand_counts(hs, pos0)
    options = []
    for d in range(1, 5):
        draws = _draw_multisets(hs.kings, hs.la_real, d)
        ways = [prod(comb(n, v) for n, v in zip(pool, row, strict=True)) for row in draws]
        total = comb(sum(pool), d)
        for out in itertools.combinations(range(4), d):
            options.append(_option(hs, h, out, draws, ways, total, counts, exact))
    return DiscardAdvice(h, seat, mano, rules, aim, current, tuple(options))


#: Team wins, en-paso stones (per lance) and the deal count for a new hand given as a multiset.
_HandCounts = Callable[[tuple[int, ...]], tuple[Sequence[int], Sequence[int], int]]


def _new_hand_counts(hs: HandSpace, pos0: int) -> _HandCounts:
    """The counts of any new hand at distance ``pos0`` from mano, the other hands dealt from the 36 cards not
    in it: read from the shipped tables (8 and 4 reyes without la real, :mod:`musteach.odds.tables`), else from the
    advisor's table when it fits (8 reyes with la real), else counted hand by hand (cached)."""
    shipped_rows = shipped_table(hs.kings) if hs.la_real is None else None
    if shipped_rows is not None:
        rows = shipped_rows
        deal_count = rows.deals(pos0, 0)  # every new hand leaves 36 unseen cards: the same count

        def shipped(new: tuple[int, ...]) -> tuple[Sequence[int], Sequence[int], int]:
            team, stones = rows.team_stones(pos0, hs.index[new])  # Python ints: the sums below exceed int64
            return team, stones, deal_count

        return shipped
    # Counting needs numpy (musteach.odds.enumeration): imported only here, for la real.
    require_numpy(Text("The discard advice under la real"))
    from .cache import advisor_table
    from .enumeration import batch_fits, count_deals, space

    sp = space(hs.kings, hs.la_real)
    if batch_fits(sp):
        table = advisor_table(sp.kings, sp.la_real, pos0)
        deals = comb(36, 4) * comb(32, 4) * comb(28, 4)  # every new hand leaves 36 unseen cards

        def from_table(new: tuple[int, ...]) -> tuple[Sequence[int], Sequence[int], int]:
            team, stones = table[new]
            return team, stones, deals

        return from_table

    def counted(new: tuple[int, ...]) -> tuple[Sequence[int], Sequence[int], int]:
        pool = tuple(cap - n for cap, n in zip(hs.caps, new, strict=True))
        c = count_deals(hs.kings, hs.la_real, new, pool, pos0, None, (), False)
        return c.team, c.stones, c.deals

    return counted


def _option(
    hs: HandSpace,
    hand: Hand,
    out: tuple[int, ...],
    draws: Sequence[Multiset],
    ways_all: Sequence[int],
    total: int,
    counts: _HandCounts,
    exact: bool,
) -> DiscardOption:
    """Changing the cards at positions ``out`` of ``hand``: every new hand with its probability (``draws``: the
    multisets that can be drawn, ``ways_all``: in how many ways each, of ``total``), and the odds averaged."""
    discard = tuple(hand.cards[i] for i in out)
    keep = tuple(c for i, c in enumerate(hand.cards) if i not in out)
    kept = hs.multiset_of(keep)
    redraws: list[Redraw] = []
    win_num = [0] * 5
    stone_num = [0] * 5
    deals: int | None = None
    for row, ways in zip(draws, ways_all, strict=True):
        if not ways:
            continue
        new = tuple(a + b for a, b in zip(kept, row, strict=True))
        team, stones, hand_deals = counts(new)
        if deals is None:
            deals = hand_deals
        elif hand_deals != deals:  # every new hand leaves 36 unseen cards: the same deal count
            raise AssertionError("unequal deal counts")
        for li in range(5):
            win_num[li] += ways * team[li]
            stone_num[li] += ways * stones[li]
        redraws.append(Redraw(hs.info(hs.index[new]), ratio(ways, total, exact)))
    assert deals is not None
    redraws.sort(key=lambda r: (-r.probability, r.info.ranks))
    denom = total * deals
    names = [lance.value for lance in LANCES]
    return DiscardOption(
        discard,
        keep,
        tuple(redraws),
        {names[li]: ratio(win_num[li], denom, exact) for li in range(5)},
        {names[li]: ratio(stone_num[li], denom, exact) for li in range(5)},
    )


def prepare_advisor(rules: Rules | None = None, seat: int = 0, mano: int = 0) -> None:
    """Count, ahead of time, the odds :func:`advise_discard` needs for a seat at this distance from mano.

    Safe to call from a background thread. Raises :class:`SeatError` or :class:`RulesError`.
    """
    rules = check_rules(rules)
    pos0 = (check_seat(seat) - check_seat(mano, "mano")) % 4
    hs = hand_space_for(rules)
    if hs.la_real is None and shipped_table(hs.kings) is not None:
        return  # the shipped tables have every hand already
    if not numpy_available():
        return  # nothing can be counted ahead here (the static site): advise_discard says so when asked
    from .cache import advisor_table  # counting needs numpy: imported only here
    from .enumeration import batch_fits, count_deals, space

    sp = space(hs.kings, hs.la_real)
    if batch_fits(sp):
        advisor_table(sp.kings, sp.la_real, pos0)
        return
    for i in range(sp.m):
        me = tuple(int(v) for v in sp.M[i])
        count_deals(sp.kings, sp.la_real, me, tuple(int(v) for v in sp.caps - sp.M[i]), pos0, None, (), False)

