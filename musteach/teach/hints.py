"""Hints in two steps, like lichess Learn: first what to compare, then the deciding card or total (issue 12).

Pure Python (no Jupyter import). Step 1 is a sentence that says where to look ("look at each hand's lowest
card first"). Step 2 names the deciding cards or total, and carries them as data a picture can highlight:
:class:`Mark` records (a seat and indexes into that seat's hand as given), never a sentence to parse.

One function per question kind:

* :func:`lance_hints`: who wins Grande, Chica, Pares, Juego or Punto (RULES.md §2, §4, §5).
* :func:`hand_hints`: one hand's jugada (§5), its total for Juego or its punto (§1, §5).
* :func:`rank_hints`: cards to order by rank (§1).
* :func:`betting_hints`: the stones taken during the betting (§6).
* :func:`count_hints`: a whole hand's count (§7, §8).
* :func:`sena_hints`: which seña fits a hand, or what a seña means (§11).

>>> h1, h2 = lance_hints(["12o 11c 7e 4b", "12c 12e 7o 6e", "1o 5c 6o 10e", "4c 5e 6c 7c"], mano=0, lance="grande")
>>> print(h1.text)
Look at each hand's highest card first; if they are equal, the next one down. In 8 reyes every 3 is a king.
>>> print(h2.text)
Seat 1's R-R-7-6 against seat 0's R-C-7-4: the second card decides, R against C.
>>> h2.marks
(Mark(seat=1, cards=(1,)), Mark(seat=0, cards=(1,)))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import N_, Text, Translator, speaking, translator
from ..rules.betting import LanceBetting
from ..rules.cards import Card, Hand, parse_hand, parse_hands
from ..rules.lances import DealResult, HandInfo, Lance, analyse, effective_rank, evaluate, point_value, rank_letter
from ..rules.options import Rules
from ..rules.senas import Sena, get_sena

__all__ = [
    "Hint",
    "Mark",
    "betting_hints",
    "count_hints",
    "hand_hints",
    "lance_hints",
    "rank_hints",
    "sena_hints",
]

#: "the first/second/... card decides", one whole sentence per card position (the shape varies by language).
_CARD_DECIDES = (
    N_(
        "Seat {seat}'s {cards} against seat {other}'s {other_cards}: the first card decides, {rank} against {other_rank}."
    ),
    N_(
        "Seat {seat}'s {cards} against seat {other}'s {other_cards}: the second card decides, {rank} against {other_rank}."
    ),
    N_(
        "Seat {seat}'s {cards} against seat {other}'s {other_cards}: the third card decides, {rank} against {other_rank}."
    ),
    N_(
        "Seat {seat}'s {cards} against seat {other}'s {other_cards}: the fourth card decides, {rank} against {other_rank}."
    ),
)


@dataclass(frozen=True, slots=True)
class Mark:
    """Cards a picture highlights: ``seat`` (0..3, or None for the question's only hand or row of cards)
    and ``cards``, indexes 0..3 into that hand in the order it was given (0..n-1 for a row of cards)."""

    seat: int | None
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Hint:
    """One hint step: ``step`` 1 (what to compare) or 2 (what decides), ``text`` (one or two sentences for
    the learner), ``marks`` (the cards to highlight, step 2 only) and ``total`` (the deciding total, or None)."""

    step: int
    text: str
    marks: tuple[Mark, ...] = ()
    total: int | None = None

    @property
    def headline(self) -> str:
        """``"Hint 1 of 2:"``, in the language being spoken."""
        _ = translator()
        return _("Hint {step} of {steps}:", step=self.step, steps=2)


# ----------------------------------------------------------------------------------------------
# Lances
# ----------------------------------------------------------------------------------------------

_LANCE_STEP1 = {
    Lance.GRANDE: N_("Look at each hand's highest card first; if they are equal, the next one down."),
    Lance.CHICA: N_("Look at each hand's lowest card first; if they are equal, the next one up. The lower card wins."),
    Lance.PARES: N_(
        "First find who holds pares (two or more cards of equal rank). Duples beat medias, medias beat a par; "
        "between equal kinds, the higher rank wins."
    ),
    Lance.JUEGO: N_(
        "Add up each hand (R, C and S count 10, the rest their number, an ace 1). Only 31 or more is "
        "juego, and the order is 31, 32, 40, 37, 36, 35, 34, 33."
    ),
    Lance.PUNTO: N_(
        "First check whether anybody has juego (31 or more): then Punto is not played. Otherwise add up each "
        "hand; the highest total wins."
    ),
}
_EIGHT_REYES = {
    Lance.GRANDE: N_("In 8 reyes every 3 is a king."),
    Lance.CHICA: N_("In 8 reyes every 2 is an ace."),
    Lance.PARES: N_("In 8 reyes a 3 pairs with a king and a 2 with an ace."),
    Lance.JUEGO: N_("In 8 reyes a 3 counts 10 (a king) and a 2 counts 1 (an ace)."),
    Lance.PUNTO: N_("In 8 reyes a 3 counts 10 (a king) and a 2 counts 1 (an ace)."),
}


def _order(hand: Hand, kings: int, low_first: bool) -> list[int]:
    """Card indexes of ``hand`` sorted by effective rank, high to low (low to high with ``low_first``)."""
    ranks = [effective_rank(c.rank, kings) for c in hand.cards]
    return sorted(range(4), key=lambda i: ranks[i] if low_first else -ranks[i])


def _rank_of(hand: Hand, i: int, kings: int) -> str:
    return rank_letter(effective_rank(hand.cards[i].rank, kings))


def _pares_cards(hand: Hand, info: HandInfo, kings: int) -> tuple[int, ...]:
    if info.pares is None:
        return ()
    ranks = [effective_rank(c.rank, kings) for c in hand.cards]
    return tuple(i for i in range(4) if ranks.count(ranks[i]) >= 2)


def _all(seat: int | None) -> Mark:
    return Mark(seat, (0, 1, 2, 3))


def lance_hints(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    lance: Lance | str,
    rules: Rules | None = None,
    *,
    lang: str | None = None,
) -> tuple[Hint, Hint]:
    """The two hint steps for "who wins ``lance``?" on one deal (RULES.md §2, §4, §5).

    hands: 4 hands of 4 cards, indexed by seat. mano: the seat 0..3 that speaks first. Step 2 marks the
    winner's deciding cards first, then the runner-up's. Raises like :func:`~musteach.rules.lances.evaluate`.
    The hints are in ``lang`` (None: the language being spoken).
    """
    with speaking(lang):
        _ = translator()
        rules = rules or Rules()
        the_lance = Lance.parse(lance)
        result = evaluate(parse_hands(hands), mano, rules)
        step1 = _(_LANCE_STEP1[the_lance])
        if rules.kings == 8 and the_lance in _EIGHT_REYES:
            step1 += " " + _(_EIGHT_REYES[the_lance])
        return Hint(1, step1), _lance_step2(_, result, the_lance)


def _lance_step2(_: Translator, result: DealResult, lance: Lance) -> Hint:
    lr = result[lance]
    hs, infos, kings = result.hands, result.infos, result.rules.kings
    if lance is Lance.PUNTO and lr.winner is None:
        holders = [s for s in range(4) if infos[s].is_juego]
        who = ", ".join(_("seat {seat} ({total})", seat=s, total=infos[s].total) for s in holders)
        return Hint(
            2, _("Somebody has juego: {who}. Then Punto is not played.", who=who), tuple(_all(s) for s in holders)
        )
    if lance is Lance.PARES and lr.winner is None:
        return Hint(2, _("No hand holds two cards of equal rank: nobody holds pares."))
    if lance is Lance.JUEGO and lr.winner is None:
        best = max(range(4), key=lambda s: infos[s].total)
        text = _(
            "The highest total is seat {seat}'s {total}, below 31: nobody has juego.",
            seat=best,
            total=infos[best].total,
        )
        return Hint(2, text, (_all(best),), infos[best].total)
    w = lr.winner
    assert w is not None
    if len(lr.ranking) == 1:
        what = infos[w].jugada(lance)
        marks = (Mark(w, _pares_cards(hs[w], infos[w], kings)),) if lance is Lance.PARES else (_all(w),)
        total = infos[w].total if lance is Lance.JUEGO else None
        return Hint(2, _("Only seat {seat} takes part: {jugada}.", seat=w, jugada=what), marks, total)
    r = lr.ranking[1]
    if lance in (Lance.GRANDE, Lance.CHICA):
        return _card_step2(_, hs, infos, w, r, lance, kings, lr.tie_to_mano)
    sentences: list[str] = []
    if lance is Lance.PARES:
        sentences.append(
            _(
                "Seat {seat}'s {jugada} against seat {other}'s {other_jugada}.",
                seat=w,
                jugada=infos[w].jugada(lance),
                other=r,
                other_jugada=infos[r].jugada(lance),
            )
        )
        if lr.tie_to_mano:
            sentences.append(_("They are equal, and seat {seat} is nearer mano.", seat=w))
        pair = (Mark(w, _pares_cards(hs[w], infos[w], kings)), Mark(r, _pares_cards(hs[r], infos[r], kings)))
        read = _read_as_text(_, hs, pair, kings)
        return Hint(2, " ".join(sentences + ([read] if read else [])), pair)
    sentences.append(
        _(
            "Seat {seat} has {total}, seat {other} has {other_total}.",
            seat=w,
            total=infos[w].total,
            other=r,
            other_total=infos[r].total,
        )
    )
    if lr.tie_to_mano:
        sentences.append(_("They are equal, and seat {seat} is nearer mano.", seat=w))
    return Hint(2, " ".join(sentences), (_all(w), _all(r)), infos[w].total)


#: "Here (8 reyes) ...", by the faces among the marked cards that are read as another rank.
_READ_AS = {
    frozenset({3}): N_("Here (8 reyes) a 3 counts as a king."),
    frozenset({2}): N_("Here (8 reyes) a 2 counts as an ace."),
    frozenset({3, 2}): N_("Here (8 reyes) a 3 counts as a king and a 2 counts as an ace."),
}


def _read_as_text(_: Translator, hs: Sequence[Hand], marks: Sequence[Mark], kings: int) -> str:
    """ "Here (8 reyes) a 3 counts as a king." when a marked card is read so, else ""."""
    if kings != 8:
        return ""
    faces = {hs[m.seat].cards[i].rank for m in marks if m.seat is not None for i in m.cards} & {3, 2}
    if not faces:
        return ""
    return _(_READ_AS[frozenset(faces)])


def _card_step2(
    _: Translator, hs: Sequence[Hand], infos: Sequence[HandInfo], w: int, r: int, lance: Lance, kings: int, tie: bool
) -> Hint:
    low = lance is Lance.CHICA
    ws, rs = (infos[w].chica_str, infos[r].chica_str) if low else (infos[w].grande_str, infos[r].grande_str)
    wo, ro = _order(hs[w], kings, low), _order(hs[r], kings, low)
    if tie:
        text = _(
            "Seat {seat}'s {cards} and seat {other}'s {other_cards} are equal card for card; seat {seat} is nearer mano.",
            seat=w,
            cards=ws,
            other=r,
            other_cards=rs,
        )
        return Hint(2, text, (_all(w), _all(r)))
    a, b = infos[w].ranks, infos[r].ranks
    if low:
        a, b = a[::-1], b[::-1]
    k = next(i for i in range(4) if a[i] != b[i])
    wi, ri = wo[k], ro[k]
    text = _(
        _CARD_DECIDES[k],
        seat=w,
        cards=ws,
        other=r,
        other_cards=rs,
        rank=_rank_of(hs[w], wi, kings),
        other_rank=_rank_of(hs[r], ri, kings),
    )
    return Hint(2, text, (Mark(w, (wi,)), Mark(r, (ri,))))


# ----------------------------------------------------------------------------------------------
# One hand, and cards to order
# ----------------------------------------------------------------------------------------------


def hand_hints(
    hand: Hand | str | Sequence[Card | str], skill: str, rules: Rules | None = None, *, lang: str | None = None
) -> tuple[Hint, Hint]:
    """The two hint steps for one hand: ``skill`` ``"jugada"`` (par, medias, duples or none; RULES.md §5),
    ``"juego_total"`` or ``"punto_total"`` (the hand's points, §1, §5). Marks use ``seat`` None.
    The hints are in ``lang`` (None: the language being spoken).

    Raises :class:`~musteach.rules.errors.MusError` for an unknown skill, and like
    :func:`~musteach.rules.cards.parse_hand` for a bad hand.
    """
    with speaking(lang):
        from ..rules.errors import MusError

        _ = translator()
        rules = rules or Rules()
        h = parse_hand(hand)
        info = analyse(h, rules)
        kings = rules.kings
        if skill == "jugada":
            step1 = _(
                "Group the cards by rank: two of a rank is a par, three medias, two pairs (or four alike) duples."
            )
            if kings == 8:
                step1 += " " + _("In 8 reyes a 3 counts as a king and a 2 as an ace.")
            cards = _pares_cards(h, info, kings)
            if not cards:
                return Hint(1, step1), Hint(2, _("No two cards share a rank."), (_all(None),))
            return Hint(1, step1), Hint(2, _shared_rank_text(_, h, cards, kings), (Mark(None, cards),))
        if skill in ("juego_total", "punto_total"):
            step1 = _("Add the four cards: R, C and S count 10, the others their number, an ace 1.")
            if kings == 8:
                step1 += " " + _("In 8 reyes a 3 counts 10 (a king) and a 2 counts 1 (an ace).")
            tens = tuple(i for i in range(4) if point_value(h.cards[i].rank, kings) == 10)
            parts = " + ".join(str(point_value(c.rank, kings)) for c in h.cards)
            text = _(_ADD[min(len(tens), 2)], parts=parts)  # the sum is left to the learner
            return Hint(1, step1), Hint(2, text, (Mark(None, tens),) if tens else (), info.total)
        raise MusError(Text("no hints for skill {skill}: use jugada, juego_total or punto_total", skill=repr(skill)))


#: Step 2 of a total hint, by how many cards are marked as counting 10 (none, one, more).
_ADD = (
    N_("Add {parts}."),
    N_("The marked card counts 10. Add {parts}."),
    N_("The marked cards count 10 each. Add {parts}."),
)
#: How a group of cards that share a rank is named, by its size (a noun phrase).
_GROUP_KIND = {2: N_("a pair"), 3: N_("medias"), 4: N_("four alike")}
#: The number of cards read as another rank, as a word.
_NUMBER_WORDS = {2: N_("two"), 3: N_("three"), 4: N_("four")}
#: "The 2 counts as an ace here (8 reyes), so it makes ...": by the rank it is read as (12 king, 1 ace), whether
#: one card or several are read so, and how many other cards of that rank join them (0, 1, more).
_READ_GROUP: dict[tuple[int, bool, int], str] = {
    (12, False, 1): N_("The {face} counts as a king here (8 reyes), so it makes {kind} with the king: {letters}."),
    (12, False, 2): N_("The {face} counts as a king here (8 reyes), so it makes {kind} with the kings: {letters}."),
    (1, False, 1): N_("The {face} counts as an ace here (8 reyes), so it makes {kind} with the ace: {letters}."),
    (1, False, 2): N_("The {face} counts as an ace here (8 reyes), so it makes {kind} with the aces: {letters}."),
    (12, True, 0): N_("The {count} {face}s count as kings here (8 reyes), so they make {kind}: {letters}."),
    (12, True, 1): N_(
        "The {count} {face}s count as kings here (8 reyes), so they make {kind} with the king: {letters}."
    ),
    (12, True, 2): N_(
        "The {count} {face}s count as kings here (8 reyes), so they make {kind} with the kings: {letters}."
    ),
    (1, True, 0): N_("The {count} {face}s count as aces here (8 reyes), so they make {kind}: {letters}."),
    (1, True, 1): N_("The {count} {face}s count as aces here (8 reyes), so they make {kind} with the ace: {letters}."),
    (1, True, 2): N_("The {count} {face}s count as aces here (8 reyes), so they make {kind} with the aces: {letters}."),
}


def _shared_rank_text(_: Translator, hand: Hand, cards: Sequence[int], kings: int) -> str:
    """Step 2 of a jugada hint: the cards that share a rank, saying so when a 2 is read as an ace or a 3
    as a king (8 reyes), e.g. "The two 2s count as aces here (8 reyes), so they make a pair: A-A."."""
    groups: dict[int, list[int]] = {}
    for i in cards:
        groups.setdefault(effective_rank(hand.cards[i].rank, kings), []).append(i)
    sentences: list[str] = []
    plain: list[str] = []
    for eff, idx in sorted(groups.items(), reverse=True):
        letters = "-".join(rank_letter(eff) for _i in idx)
        read = [i for i in idx if hand.cards[i].rank != eff]
        if not read:
            plain.append(letters)
            continue
        others = len(idx) - len(read)
        msgid = _READ_GROUP[(eff, len(read) > 1, min(others, 2))]
        count = _(_NUMBER_WORDS[len(read)]) if len(read) > 1 else ""
        face = hand.cards[read[0]].rank
        sentences.append(_(msgid, face=face, count=count, kind=_(_GROUP_KIND[len(idx)]), letters=letters))
    if plain:
        sentences.insert(0, _("These cards share a rank: {ranks}.", ranks=", ".join(plain)))
    return " ".join(sentences)


def rank_hints(
    cards: Sequence[Card | str], rules: Rules | None = None, *, lang: str | None = None
) -> tuple[Hint, Hint]:
    """The two hint steps for ordering ``cards`` highest first (RULES.md §1); step 2 marks the highest card
    (index into ``cards``). Raises :class:`~musteach.rules.errors.UnknownCardError` for a bad card.
    The hints are in ``lang`` (None: the language being spoken)."""
    with speaking(lang):
        _ = translator()
        rules = rules or Rules()
        cs = [Card.parse(c) for c in cards]
        if rules.kings == 8:
            step1 = _("From the top: R, C, S, then 7 down to 4, then the aces.")
            step1 += " " + _("In 8 reyes a 3 ranks as a king and a 2 as an ace.")
        else:  # 4 reyes: the 3 and the 2 keep their place, between the 4 and the ace
            step1 = _("From the top: R, C, S, then 7 down to 2, then the aces.")
        ranks = [effective_rank(c.rank, rules.kings) for c in cs]
        top = max(ranks)
        first = tuple(i for i in range(len(cs)) if ranks[i] == top)
        text = _("The highest here is {rank}: it goes first.", rank=rank_letter(top))
        return Hint(1, step1), Hint(2, text, (Mark(None, first),))


# ----------------------------------------------------------------------------------------------
# Betting, count and señas
# ----------------------------------------------------------------------------------------------

_BETTING_ENDED = {
    "accepted": N_("The last bet was accepted: it is paid at the count, after the hand."),
    "ordago_accepted": N_("An órdago was accepted: the cards are shown and they decide the whole game."),
    "paso": N_("Everybody passed this lance: its stone is paid at the count, after the hand."),
}


def betting_hints(state: LanceBetting, *, lang: str | None = None) -> tuple[Hint, Hint]:
    """The two hint steps for "how many stones does each team take now?" on a closed betting (RULES.md §6).

    Step 2's ``total`` is the deje of a refused bet, else 0. Raises :class:`~musteach.rules.errors.MusError`
    when the betting is not closed. The hints are in ``lang`` (None: the language being spoken).
    """
    with speaking(lang):
        from ..rules.errors import MusError

        _ = translator()
        o = state.outcome
        if o is None:
            raise MusError(Text("the betting is still open: hints need a closed betting"))
        step1 = _(
            "Look at how the betting ended: only a refused bet moves stones now; an accepted bet, an accepted "
            "órdago or a lance everybody passed waits for the count."
        )
        if o.type == "rejected":
            if state.rules.deje_timing != "immediate":
                text = _(
                    "The last bet was refused, but in these rules a deje is scored at the end of the hand, not now."
                )
                return Hint(1, step1), Hint(2, text, (), 0)
            text = _(
                "The last bet was refused: team {team} takes the deje. That is one stone when the refused bet "
                "was the first one; otherwise it is the bet that stood before the refused raise.",
                team=o.winner_team,
            )
            return Hint(1, step1), Hint(2, text, (), o.deje)
        ended = _BETTING_ENDED.get(o.type)
        return Hint(1, step1), Hint(2, _(ended) if ended else _("Only a refused bet pays now."), (), 0)


def count_hints(deal: DealResult, *, lang: str | None = None) -> tuple[Hint, Hint]:
    """The two hint steps for counting a hand (RULES.md §7, §8): step 2 marks each hand's cards that score
    in Pares (its pares) and the juego hands, which are the ones that bring stones beyond the bets.
    The hints are in ``lang`` (None: the language being spoken)."""
    with speaking(lang):
        _ = translator()
        step1 = _(
            "Go lance by lance in order: Grande, Chica, Pares, then Juego or Punto. Each lance pays what was bet "
            "(1 if passed), and Pares and Juego also pay what every hand of the winning team holds."
        )
        kings = deal.rules.kings
        marks: list[Mark] = []
        parts: list[str] = []
        for s in range(4):
            info = deal.infos[s]
            cards = set(_pares_cards(deal.hands[s], info, kings))
            if info.is_juego:
                cards |= {0, 1, 2, 3}
            if cards:
                marks.append(Mark(s, tuple(sorted(cards))))
            bits = []
            if info.pares is not None:
                bits.append(info.pares.describe())
            if info.is_juego:
                bits.append(_("juego with {total}", total=info.total))
            if bits:
                parts.append(_("seat {seat}: {holds}", seat=s, holds=", ".join(bits)))
        if not parts:
            return Hint(1, step1), Hint(
                2, _("Nobody holds pares or juego: only the bets (or 1 for a passed lance) score.")
            )
        # The values (par 1, medias 2, duples 3; juego 2, 31 3) are named, never added up: that is the answer.
        text = _(
            "The marked cards score on top of the bets, for the team that wins the lance: {holders}. "
            "A par pays 1, medias 2, duples 3; juego pays 2, or 3 with 31.",
            holders="; ".join(parts),
        )
        return Hint(1, step1), Hint(2, text, tuple(marks))


def sena_hints(
    hand: Hand | str | Sequence[Card | str] | None,
    rules: Rules | None = None,
    sena: Sena | str | None = None,
    *,
    lang: str | None = None,
) -> tuple[Hint, Hint]:
    """The two hint steps for a señas question (RULES.md §11).

    hand: the hand of a "which seña fits" question (step 2 marks its kings and aces), or None for a "what
    does this seña mean" question, whose ``sena`` (a :class:`~musteach.rules.senas.Sena` or its key) step 2
    sorts into a fact about the cards or a wish. Raises :class:`~musteach.rules.senas.SenaError` for an
    unknown seña and :class:`~musteach.rules.errors.MusError` when neither hand nor sena is given.
    The hints are in ``lang`` (None: the language being spoken).
    """
    with speaking(lang):
        from ..rules.errors import MusError

        _ = translator()
        rules = rules or Rules()
        if hand is None:
            if sena is None:
                raise MusError(Text("a señas hint needs the hand (which seña fits) or the seña (what it means)"))
            s = get_sena(sena, rules)
            step1 = _(
                "A seña shows either something your partner holds (pares, juego, kings, aces) or what they want to do."
            )
            if s.kind == "intent":
                text = _("'{gesture}' is about what your partner wants to do, not their cards.", gesture=s.gesture_text(_.lang))
                return Hint(1, step1), Hint(2, text)
            return Hint(1, step1), Hint(2, _("'{gesture}' tells you something your partner holds.", gesture=s.gesture_text(_.lang)))
        h = parse_hand(hand)
        info = analyse(h, rules)
        step1 = _("A seña must tell the truth: check the hand's kings and aces, its pares and its total first.")
        k = rules.kings
        top = tuple(i for i in range(4) if effective_rank(h.cards[i].rank, k) in (12, 1))
        kings = sum(effective_rank(c.rank, k) == 12 for c in h.cards)
        aces = sum(effective_rank(c.rank, k) == 1 for c in h.cards)
        pares = info.pares.describe() if info.pares else _("no pares")
        juego = _("juego ({total})", total=info.total) if info.is_juego else _("no juego ({total})", total=info.total)
        text = _(
            "This hand: {kings}, {aces}, {pares}, {juego}.",
            kings=_.ngettext("{n} king", "{n} kings", kings),
            aces=_.ngettext("{n} ace", "{n} aces", aces),
            pares=pares,
            juego=juego,
        )
        return Hint(1, step1), Hint(2, text, (Mark(None, top),) if top else (), info.total)
