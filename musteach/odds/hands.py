"""Each hand's exact odds: who wins every lance, over every deal of the unseen cards (RULES.md §2, §4, §5, §7, §11).

>>> o = hand_odds("12o 3c 11e 1b", seat=0, mano=0)
>>> round(o.grande.team, 3), round(o.chica.team, 3), round(o.pares.team, 3)
(0.947, 0.363, 0.864)
>>> o.explain("grande")
'With R-R-C-A as mano, your team wins Grande about 9 times in 10 (0.95): you 0.92, your partner 0.03.'
>>> abs(sum(o.pares.seats) + o.pares.nobody - 1) < 1e-12
True
>>> x = hand_odds("12o 3c 11e 1b", exact=True)
>>> x.grande.team, x.deals
(Fraction(608766467, 642527886), 43370632305000)

Partners' knowledge: ``partner=`` (the partner's cards, known), ``senas=`` (señas received from the
partner, :data:`~musteach.odds.space.SENAS`, RULES.md §11) and ``dead=`` (cards known to be out of
play) narrow the deals counted. La real (RULES.md §13) is taken into account, including the sota de oros
option. The counting itself is :func:`musteach.odds.enumeration.count_deals`; with nothing known but the
hand (no la real), the counts are read from the tables shipped by :mod:`musteach.odds.tables`. The floats returned are the
nearest floats to the exact ratios, and ``exact=True`` returns the ratios as :class:`fractions.Fraction`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Union

from ..i18n import N_, Text, translator
from ..numbers import decimal_text, percent_text
from ..rules.cards import Card, Hand, parse_hand
from ..rules.errors import DuplicateCardError, MusError
from ..rules.lances import LANCES, HandInfo, Lance, analyse, check_seat
from ..rules.options import Rules, check_rules
from ..runtime import require_numpy
from .space import SENAS, Counts, hand_space_for
from .tables import shipped_counts

__all__ = [
    "HandOdds",
    "Holding",
    "LanceOdds",
    "Number",
    "hand_odds",
    "odds_in_words",
    "position_name",
    "ratio",
]

#: A probability or an expected number of stones: a float, or a :class:`fractions.Fraction` with ``exact=True``.
Number = Union[float, Fraction]  # noqa: UP007  (a runtime alias, kept readable)


def ratio(count: int, deals: int, exact: bool) -> Number:
    """``count / deals`` as a float, or as a :class:`fractions.Fraction` when ``exact``.

    >>> ratio(1, 4, False), ratio(1, 4, True)
    (0.25, Fraction(1, 4))
    """
    return Fraction(count, deals) if exact else count / deals


# ----------------------------------------------------------------------------------------------
# Results.
# ----------------------------------------------------------------------------------------------

_POSITION_NAMES = (N_("as mano"), N_("second to speak"), N_("third to speak"), N_("as postre"))


def position_name(distance: int, *, lang: str | None = None) -> str:
    """Words for a seat's distance from mano: ``"as mano"``, ``"second to speak"``, ... ``"as postre"``, in
    ``lang`` (None: the language being spoken)."""
    return translator(lang)(_POSITION_NAMES[distance % 4])


def odds_in_words(p: float | Fraction, *, lang: str | None = None) -> str:
    """A probability as a coach says it: ``"about 9 times in 10"``, ``"almost never"`` (RULES.md-free), in
    ``lang`` (None: the language being spoken).

    >>> odds_in_words(0.93), odds_in_words(0.5), odds_in_words(0.97), odds_in_words(0.001), odds_in_words(1)
    ('about 9 times in 10', 'about 5 times in 10', 'more than 19 times in 20', 'almost never', 'always')
    >>> odds_in_words(0.93, lang="es")
    'unas 9 veces de cada 10'
    """
    _ = translator(lang)
    p = float(p)
    if p >= 1:
        return _("always")
    if p <= 0:
        return _("never")
    if p >= 0.995:
        return _("almost always")
    if p < 0.005:
        return _("almost never")
    if p > 0.95:
        return _("more than 19 times in 20")
    if p < 0.05:
        return _("less than 1 time in 20")
    n = min(max(round(p * 10), 1), 9)
    return _.ngettext("about {n} time in 10", "about {n} times in 10", n)


@dataclass(frozen=True, slots=True)
class LanceOdds:
    """Who wins one lance, over every deal of the unseen cards.

    lance: the :class:`~musteach.rules.lances.Lance`. seat: the asking seat (0..3).
    seats: 4 probabilities, indexed by absolute seat, that that seat wins the lance (RULES.md §5, ties to
    the seat nearer mano, §2). nobody: probability that nobody wins it: no pares held (Pares), no juego
    held (Juego), or somebody has juego (Punto is then not played, §4). ``sum(seats) + nobody == 1``.
    team_stones: expected stones the asking team takes in this lance when every lance is passed
    (*en paso*, RULES.md §7): 1 for Grande, Chica and Punto; both partners' pares values (par 1,
    medias 2, duples 3) or juego values (31 = 3, other juego 2) for Pares and Juego.
    Numbers are floats, or :class:`fractions.Fraction` when asked with ``exact=True``.
    """

    lance: Lance
    seat: int
    seats: tuple[Number, Number, Number, Number]
    nobody: Number
    team_stones: Number

    @property
    def team(self) -> Number:
        """Probability that the asking seat's team (the seat or its partner) wins the lance."""
        return self.seats[self.seat] + self.seats[(self.seat + 2) % 4]

    @property
    def opponents(self) -> Number:
        """Probability that one of the two opponents wins the lance."""
        return self.seats[(self.seat + 1) % 4] + self.seats[(self.seat + 3) % 4]

    @property
    def you(self) -> Number:
        """Probability that the asking seat itself wins the lance."""
        return self.seats[self.seat]

    @property
    def partner(self) -> Number:
        """Probability that the asking seat's partner wins the lance."""
        return self.seats[(self.seat + 2) % 4]

    def as_dict(self) -> dict[str, Any]:
        """Plain floats, JSON-ready."""
        return {
            "lance": self.lance.value,
            "seats": [float(x) for x in self.seats],
            "nobody": float(self.nobody),
            "team": float(self.team),
            "opponents": float(self.opponents),
            "team_stones": float(self.team_stones),
        }


@dataclass(frozen=True, slots=True)
class Holding:
    """Who holds pares, or juego, over every deal of the unseen cards (RULES.md §4).

    team: probability that the asking seat or its partner holds it. opponents: that at least one
    opponent holds it. betting: that at least one player of EACH team holds it, so the lance is bet on
    (among the holders only). nobody: that no player holds it (no Pares; Punto instead of Juego).
    team_wins_betting: that the lance is bet on AND the asking team has the best jugada.
    """

    lance: Lance
    team: Number
    opponents: Number
    betting: Number
    nobody: Number
    team_wins_betting: Number

    @property
    def team_only(self) -> Number:
        """Probability that only the asking team holds it: the team takes the lance without betting."""
        return self.team - self.betting

    @property
    def opponents_only(self) -> Number:
        """Probability that only the opponents hold it."""
        return self.opponents - self.betting

    @property
    def team_wins_if_betting(self) -> Number | None:
        """Probability that the team wins the lance given that it is bet on; None if it never is."""
        if not self.betting:
            return None
        return self.team_wins_betting / self.betting

    def as_dict(self) -> dict[str, Any]:
        """Plain floats, JSON-ready."""
        return {
            "lance": self.lance.value,
            "team": float(self.team),
            "opponents": float(self.opponents),
            "betting": float(self.betting),
            "nobody": float(self.nobody),
            "team_only": float(self.team_only),
            "opponents_only": float(self.opponents_only),
            "team_wins_betting": float(self.team_wins_betting),
        }


@dataclass(frozen=True)
class HandOdds:
    """Exact odds of every lance for one seat's hand (see :func:`hand_odds`).

    hand: the seat's :class:`~musteach.rules.cards.Hand`; seat, mano: seats 0..3; rules: the
    :class:`~musteach.rules.Rules`; partner: the partner's hand when known, else None; senas: the señas
    received from the partner; dead: cards known to be out of play; exact: True when the numbers are
    Fractions. deals: how many equally likely deals of the unseen cards were counted. info: the hand's
    :class:`~musteach.rules.lances.HandInfo`. grande ... punto: one :class:`LanceOdds` each.
    pares_holding, juego_holding: :class:`Holding`.
    """

    hand: Hand
    seat: int
    mano: int
    rules: Rules
    partner: Hand | None
    senas: tuple[str, ...]
    dead: tuple[Card, ...]
    exact: bool
    deals: int
    info: HandInfo
    grande: LanceOdds
    chica: LanceOdds
    pares: LanceOdds
    juego: LanceOdds
    punto: LanceOdds
    pares_holding: Holding
    juego_holding: Holding

    def __getitem__(self, lance: Lance | str) -> LanceOdds:
        odds: LanceOdds = getattr(self, Lance.parse(lance).value)
        return odds

    @property
    def position(self) -> int:
        """The seat's distance from mano: 0 = mano, 3 = postre (RULES.md §2)."""
        return (self.seat - self.mano) % 4

    def lances(self) -> tuple[LanceOdds, ...]:
        """The five :class:`LanceOdds` in lance order."""
        return (self.grande, self.chica, self.pares, self.juego, self.punto)

    def win(self, lance: Lance | str) -> Number:
        """Probability that the seat's team wins ``lance``."""
        return self[lance].team

    @property
    def no_pares(self) -> Number:
        """Probability that nobody holds pares (the Pares lance scores nothing)."""
        return self.pares_holding.nobody

    @property
    def no_juego(self) -> Number:
        """Probability that nobody holds juego (Punto is played instead, RULES.md §4)."""
        return self.juego_holding.nobody

    @property
    def team_stones(self) -> Number:
        """Expected stones the team takes over the five lances when all are passed (RULES.md §7)."""
        return sum((lo.team_stones for lo in self.lances()), Fraction(0) if self.exact else 0.0)

    def explain(self, lance: Lance | str, *, lang: str | None = None) -> str:
        """One sentence a coach can show, in ``lang`` (None: the language being spoken), e.g.
        ``"With R-R-R-C as mano, your team wins Grande more than 19 times in 20 (0.96): ..."``."""
        _ = translator(lang)
        lo = self[lance]
        info = self.info
        lance = lo.lance
        hand = info.grande_str if lance is not Lance.CHICA else info.chica_str
        position = position_name(self.position, lang=_.lang)
        if self.partner is not None:
            given = _(
                "With {hand} {position} and your partner's {partner} known",
                hand=hand,
                position=position,
                partner=_grande_str(self.partner, self.rules),
            )
        elif self.senas:
            given = _(
                "With {hand} {position} and your partner's seña ({senas})",
                hand=hand,
                position=position,
                senas=", ".join(self.senas),
            )
        else:
            given = _("With {hand} {position}", hand=hand, position=position)
        team = float(lo.team)
        win = {
            "given": given,
            "lance": lance.title,
            "how_often": odds_in_words(team, lang=_.lang),
            "p": decimal_text(team, 2, lang=_.lang),
            "you": decimal_text(float(lo.you), 2, lang=_.lang),
            "partner": decimal_text(float(lo.partner), 2, lang=_.lang),
        }
        if lance in (Lance.GRANDE, Lance.CHICA):
            return _("{given}, your team wins {lance} {how_often} ({p}): you {you}, your partner {partner}.", **win)
        if lance is Lance.PARES:
            h = self.pares_holding
            mine = _("you hold {pares}", pares=info.pares.describe()) if info.pares else _("no pares")
            return _(
                "{given} ({mine}), your team wins {lance} {how_often} ({p}): you {you}, your partner {partner}. "
                "Both teams hold pares, so Pares is bet on, {betting} of the time; nobody holds pares {nobody}.",
                mine=mine,
                betting=decimal_text(float(h.betting), 2, lang=_.lang),
                nobody=decimal_text(float(h.nobody), 2, lang=_.lang),
                **win,
            )
        if lance is Lance.JUEGO:
            h = self.juego_holding
            mine = _("juego of {total}", total=info.total) if info.is_juego else _("no juego: {total}", total=info.total)
            return _(
                "{given} ({mine}), your team wins {lance} {how_often} ({p}): you {you}, your partner {partner}. "
                "Both teams have juego, so Juego is bet on, {betting} of the time; nobody has juego, so Punto is "
                "played, {nobody}.",
                mine=mine,
                betting=decimal_text(float(h.betting), 2, lang=_.lang),
                nobody=decimal_text(float(h.nobody), 2, lang=_.lang),
                **win,
            )
        if info.is_juego:
            return _("{given}, you have juego ({total}), so Punto is not played.", given=given, total=info.total)
        played = float(self.juego_holding.nobody)
        return _(
            "{given} (punto {total}), Punto is played only when nobody has juego ({played}); your team wins {lance} "
            "{how_often} ({p}): you {you}, your partner {partner}.",
            total=info.total,
            played=decimal_text(played, 2, lang=_.lang),
            **win,
        )

    def nobody_sentence(self, *, lang: str | None = None) -> str:
        """How often Pares scores nothing and Punto replaces Juego (RULES.md §4), as one sentence in ``lang``
        (None: the language being spoken), e.g. ``"Nobody at the table holds pares in 12% of the deals, and
        Pares then scores nothing; nobody has juego in 40%, and then Punto is played instead of Juego."``"""
        _ = translator(lang)
        p, j = float(self.no_pares), float(self.no_juego)
        if p == 0:
            if self.info.pares is not None:
                pares = _("You hold pares, so Pares is always played")
            else:
                pares = _("Your partner holds pares, so Pares is always played")
        else:
            pares = _(
                "Nobody at the table holds pares in {percent} of the deals, and Pares then scores nothing",
                percent=percent_text(p, lang=_.lang),
            )
        if j == 0:
            if self.info.is_juego:
                juego = _("you have juego, so Punto is never played")
            else:
                juego = _("your partner has juego, so Punto is never played")
        else:
            juego = _(
                "nobody has juego in {percent}, and then Punto is played instead of Juego",
                percent=percent_text(j, lang=_.lang),
            )
        return _("{pares}; {juego}.", pares=pares, juego=juego)

    def explanations(self, *, lang: str | None = None) -> dict[str, str]:
        """One sentence per lance, keyed by lance name, in ``lang`` (None: the language being spoken)."""
        return {lo.lance.value: self.explain(lo.lance, lang=lang) for lo in self.lances()}

    def as_dict(self, *, lang: str | None = None) -> dict[str, Any]:
        """Plain floats and strings, JSON-ready (for widgets); the explanations in ``lang`` (None: the language
        being spoken)."""
        return {
            "hand": list(self.hand.codes()),
            "seat": self.seat,
            "mano": self.mano,
            "position": self.position,
            "kings": self.rules.kings,
            "partner": list(self.partner.codes()) if self.partner else None,
            "senas": list(self.senas),
            "dead": [c.code for c in self.dead],
            "deals": self.deals,
            "lances": {lo.lance.value: lo.as_dict() for lo in self.lances()},
            "pares_holding": self.pares_holding.as_dict(),
            "juego_holding": self.juego_holding.as_dict(),
            "team_stones": float(self.team_stones),
            "explanations": self.explanations(lang=lang),
        }


def _grande_str(hand: Hand, rules: Rules) -> str:
    return analyse(hand, rules).grande_str



# ----------------------------------------------------------------------------------------------
# The entry point.
# ----------------------------------------------------------------------------------------------


def _cards(items: Iterable[Card | str] | str | Card, what: str) -> tuple[Card, ...]:
    if isinstance(items, Card):
        items = [items]
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    out = tuple(Card.parse(c) for c in items)
    if len(set(out)) != len(out):
        dup = next(c for c in out if out.count(c) > 1)
        raise DuplicateCardError(Text("card {code} ({name}) appears twice in {what}", code=dup.code, name=dup.name, what=Text(what)))
    return out


def _no_overlap(groups: Sequence[tuple[str, Sequence[Card]]]) -> None:
    seen: dict[Card, str] = {}
    for name, cards in groups:
        for c in cards:
            if c in seen:
                raise DuplicateCardError(
                    Text("card {code} ({name}) is both in {first} and in {second}", code=c.code, name=c.name, first=Text(seen[c]), second=Text(name))
                )
            seen[c] = name


def hand_odds(
    hand: Hand | str | Sequence[Card | str],
    seat: int = 0,
    mano: int = 0,
    rules: Rules | None = None,
    *,
    partner: Hand | str | Sequence[Card | str] | None = None,
    senas: Iterable[str] = (),
    dead: Iterable[Card | str] | str = (),
    exact: bool = False,
) -> HandOdds:
    """Exact odds of every lance for one seat's hand, counted over every deal of the unseen cards.

    hand: the seat's 4 cards (a :class:`~musteach.rules.cards.Hand`, a text ``"12o 3c 7e 5b"`` or 4 cards).
    seat, mano: seats 0..3 (the seat's distance from mano decides ties, RULES.md §2).
    rules: a :class:`~musteach.rules.Rules` (default 8 reyes); kings 8 or 4 and every la real option.
    partner: the 4 cards of the partner (seat + 2), if known. Else the partner is dealt like the opponents.
    senas: names from :data:`SENAS` the partner has signalled (only with an unknown partner): the
    partner's hand is then dealt only among hands that fit every seña (RULES.md §11).
    dead: cards known to be out of play (seen, or known discards); the unknown hands avoid them.
    exact: return :class:`fractions.Fraction` instead of floats.

    Model: the other hands are dealt from the cards that are not in ``hand``, ``partner`` or ``dead``
    (36 of them with nothing else known), every deal equally likely (RULES.md §3); suits never matter.
    Returns a :class:`HandOdds`. Floats are the nearest floats to the exact ratios.
    Raises :class:`~musteach.rules.errors.UnknownCardError`, :class:`~musteach.rules.errors.HandSizeError`,
    :class:`~musteach.rules.errors.DuplicateCardError` (a card twice, naming where), :class:`SeatError`,
    :class:`RulesError`, or :class:`MusError` (an unknown seña, señas with a known partner, señas
    that no hand fits, too few unseen cards left).
    """
    rules = check_rules(rules)
    h = parse_hand(hand)
    seat = check_seat(seat)
    mano = check_seat(mano, "mano")
    ph = None if partner is None else parse_hand(partner)
    dead_cards = _cards(dead, N_("the dead cards"))
    senas_t = tuple(senas) if not isinstance(senas, str) else (senas,)
    for name in senas_t:
        if name not in SENAS:
            raise MusError(Text("unknown seña {name}; known señas: {senas}", name=repr(name), senas=", ".join(SENAS)))
    if senas_t and ph is not None:
        raise MusError(Text("señas describe an unknown partner's hand; the partner's cards are already given"))
    _no_overlap(
        [
            (N_("the hand"), h.cards),
            (N_("the partner's hand"), ph.cards if ph else ()),
            (N_("the dead cards"), dead_cards),
        ]
    )
    hs = hand_space_for(rules)
    pool = hs.unseen([*h.cards, *(ph.cards if ph else ()), *dead_cards])
    need = 8 if ph is not None else 12
    if sum(pool) < need:
        raise MusError(Text("only {left} unseen cards are left; the other hands need {need}", left=sum(pool), need=need))
    me = hs.multiset_of(h.cards)
    pm = None if ph is None else hs.multiset_of(ph.cards)
    pos0 = (seat - mano) % 4
    c = None
    if pm is None and not senas_t and not dead_cards and hs.la_real is None:
        c = shipped_counts(hs.kings, me, pos0)  # nothing known but the hand: the shipped table has it
    if c is None:
        require_numpy(Text("Odds that use more than your own hand (your partner's cards, señas, dead cards or la real)"))
        from .enumeration import count_deals  # numpy: only when the deals must be counted

        c = count_deals(hs.kings, hs.la_real, me, pool, pos0, pm, tuple(sorted(set(senas_t))))
    return _odds_from_counts(c, h, seat, mano, rules, ph, senas_t, dead_cards, exact, hs.info(hs.index[me]))


def _odds_from_counts(
    c: Counts,
    hand: Hand,
    seat: int,
    mano: int,
    rules: Rules,
    partner: Hand | None,
    senas: tuple[str, ...],
    dead: tuple[Card, ...],
    exact: bool,
    info: HandInfo,
) -> HandOdds:
    d = c.deals

    def lance(li: int) -> LanceOdds:
        s0, s1, s2, s3 = (ratio(c.seats[li][(s - seat) % 4], d, exact) for s in range(4))  # by absolute seat
        return LanceOdds(LANCES[li], seat, (s0, s1, s2, s3), ratio(c.seats[li][4], d, exact), ratio(c.stones[li], d, exact))

    def holding(li: int) -> Holding:
        team, opponents, betting, nobody, team_wins_betting = (ratio(x, d, exact) for x in c.holding[li])
        return Holding(LANCES[li], team, opponents, betting, nobody, team_wins_betting)

    grande, chica, pares, juego, punto = (lance(li) for li in range(5))
    return HandOdds(
        hand, seat, mano, rules, partner, senas, dead, exact, d, info,
        grande, chica, pares, juego, punto, holding(2), holding(3),
    )  # fmt: skip

