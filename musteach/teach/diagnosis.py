"""Mistake diagnosis: which misconception explains a learner's wrong answer to "who wins this lance?".

Each :class:`Mistake` is one mistaken rule, with every other rule of 8 reyes kept right (RULES.md §1–§5). The
mistaken rule is a :class:`Reading` of the rules: the real evaluator's pieces
(:func:`musteach.rules.lances.info_from_ranks`, :meth:`HandInfo.key <musteach.rules.lances.HandInfo.key>`,
:func:`musteach.rules.lances.speaking_order`) with one switch turned. Under that switch the lance is judged
again, the switch also deciding who holds pares or juego and so whether Punto is played. A mistake explains an
answer when the answer (a seat, or None for "nobody") is the winner that reading gives; the first mistake in
:data:`MISTAKES` order that does is the diagnosis. One case comes before that order: a picked seat whose hand
ties the winner's exactly (so it lost only for sitting farther from mano) is always
:attr:`Mistake.TIE_NOT_TO_MANO`, whatever other reading would also give it. A right answer never gets a mistake, and a wrong answer
that no mistake explains is a slip (``mistake`` None).

>>> deal = [["3o", "3c", "7e", "4b"], ["12c", "11o", "7c", "6e"], ["1o", "5c", "6o", "10e"], ["4c", "5e", "6c", "7o"]]
>>> d = diagnose(deal, mano=0, lance="grande", answer=1)
>>> d.correct, d.winner, d.mistake
(False, 0, <Mistake.THREE_IS_NOT_KING: 'three_is_not_king'>)
>>> print(d.explanation)
You picked seat 1, as if the 3s in seat 0's 7-4-3-3 ranked below the 4; in 8 reyes every 3 is a king (worth 10 points), so seat 0's R-R-7-4 beats seat 1's R-C-7-6 on the second card.
>>> print(d.why_not)
Seat 1's R-C-7-6 loses to seat 0's R-R-7-4 on the second card.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..i18n import N_, Text, Translator, speaking, translator
from ..rules.cards import Card, Hand, parse_hands
from ..rules.errors import RulesError
from ..rules.lances import (
    JUEGO_ORDER,
    HandInfo,
    Lance,
    Pares,
    check_seat,
    evaluate,
    info_from_ranks,
    speaking_order,
)
from ..rules.options import Rules

__all__ = [
    "Mistake",
    "MISTAKES",
    "Reading",
    "Diagnosis",
    "read_hand",
    "lance_key",
    "winner_under",
    "diagnose",
    "check_answer",
    "JUEGO_RANKS",
    "ON_CARD",
    "KIND_BEATS",
    "MISTAKE_FACTS",
    "MISREAD_RANK",
]


class Mistake(enum.StrEnum):
    """A misconception about the lances: one mistaken rule (issue 12; RULES.md §1, §2, §4, §5).

    The members are in order of precedence: when several explain an answer, the first one is named.
    """

    THREE_IS_NOT_KING = "three_is_not_king"
    """A 3 ranks between the aces and the 4 and counts 3 points (2s stay aces)."""
    TWO_IS_NOT_ACE = "two_is_not_ace"
    """A 2 ranks between the aces and the 4 and counts 2 points (3s stay kings)."""
    CHICA_FROM_THE_TOP = "chica_from_the_top"
    """Chica hands are compared from their highest card down; the lower card wins at the first difference."""
    QUADS_NOT_DUPLES = "quads_not_duples"
    """Four cards of equal rank count as medias of that rank (in 8 reyes R-R-3-3 and A-2-A-2 are four equal)."""
    PARES_BY_RANK_NOT_KIND = "pares_by_rank_not_kind"
    """Pares compared only by the rank of each hand's highest pair, trio or four; equal ranks tie."""
    JUEGO_BY_TOTAL = "juego_by_total"
    """Juego hands rank by their total, 40 best and 31 worst."""
    TIE_NOT_TO_MANO = "tie_not_to_mano"
    """An exact tie goes to the tied seat farthest from mano."""
    PUNTO_WITH_JUEGO = "punto_with_juego"
    """Punto is played although somebody holds juego: the highest total among the hands without juego wins."""
    THREE_AND_TWO_AT_FACE = "three_is_not_king+two_is_not_ace"
    """Both at once: a 3 plays as a 3 and a 2 as a 2, as in 4 reyes (the tags of both, joined by ``+``):
    two misreadings at once, so it is named last."""

    def __str__(self) -> str:
        return self.value


#: Every mistake, in order of precedence.
MISTAKES: tuple[Mistake, ...] = tuple(Mistake)


@dataclass(frozen=True, slots=True)
class Reading:
    """A way of reading the rules of the lances: every switch off is the real rules (RULES.md §1–§5).

    three_low: a 3 plays as a 3 (between the aces and the 4, 3 points) even in 8 reyes.
    two_low: a 2 plays as a 2 (between the aces and the 4, 2 points) even in 8 reyes.
    chica_from_top: Chica compares the hands sorted high to low, the lower card winning.
    quads_as_medias: four equal cards are medias of that rank, not duples.
    pares_by_rank: pares compare only the rank of the highest pair, trio or four.
    juego_by_total: juego compares totals, 40 best and 31 worst.
    tie_to_far: an exact tie goes to the tied seat farthest from mano.
    punto_with_juego: Punto is played among the hands without juego even when some hand has juego.
    """

    three_low: bool = False
    two_low: bool = False
    chica_from_top: bool = False
    quads_as_medias: bool = False
    pares_by_rank: bool = False
    juego_by_total: bool = False
    tie_to_far: bool = False
    punto_with_juego: bool = False

    @classmethod
    def of(cls, mistake: Mistake | None) -> Reading:
        """The reading with ``mistake``'s switch on; ``None`` gives the real rules."""
        if mistake is None:
            return cls()
        return replace(cls(), **dict.fromkeys(_SWITCH[mistake], True))


_SWITCH: dict[Mistake, tuple[str, ...]] = {
    Mistake.THREE_IS_NOT_KING: ("three_low",),
    Mistake.TWO_IS_NOT_ACE: ("two_low",),
    Mistake.THREE_AND_TWO_AT_FACE: ("three_low", "two_low"),
    Mistake.CHICA_FROM_THE_TOP: ("chica_from_top",),
    Mistake.QUADS_NOT_DUPLES: ("quads_as_medias",),
    Mistake.PARES_BY_RANK_NOT_KIND: ("pares_by_rank",),
    Mistake.JUEGO_BY_TOTAL: ("juego_by_total",),
    Mistake.TIE_NOT_TO_MANO: ("tie_to_far",),
    Mistake.PUNTO_WITH_JUEGO: ("punto_with_juego",),
}


def read_hand(hand: Hand, reading: Reading, kings: int = 8) -> HandInfo:
    """How ``hand`` stands in every lance under ``reading`` (RULES.md §1, §5); kings: 8 or 4."""
    ranks = []
    for card in hand:
        r = card.rank
        if kings == 8 and r == 3 and not reading.three_low:
            r = 12
        elif kings == 8 and r == 2 and not reading.two_low:
            r = 1
        ranks.append(r)
    info = info_from_ranks(ranks, kings=4)  # ranks already mapped: each plays as itself
    p = info.pares
    if reading.quads_as_medias and p is not None and p.kind == "duples" and p.high == p.low:
        info = replace(info, pares=Pares("medias", p.high, p.high))
    return info


def lance_key(info: HandInfo, lance: Lance, reading: Reading) -> tuple[int, ...]:
    """A hand's comparison key in ``lance`` under ``reading``: larger is better, ``()`` takes no part."""
    if lance is Lance.CHICA and reading.chica_from_top:
        return tuple(-r for r in info.ranks)
    if lance is Lance.PARES and reading.pares_by_rank:
        return (info.pares.high,) if info.pares else ()
    if lance is Lance.JUEGO and reading.juego_by_total:
        return (info.total,) if info.is_juego else ()
    return info.key(lance)


def winner_under(infos: Sequence[HandInfo], mano: int, lance: Lance, reading: Reading) -> int | None:
    """The seat that wins ``lance`` under ``reading``, or None when nobody takes part (RULES.md §2, §4, §5).

    infos: 4 hands' standings (from :func:`read_hand` with the same reading), indexed by seat.
    """
    order = speaking_order(mano)
    if lance is Lance.PUNTO:
        if any(infos[s].is_juego for s in order) and not reading.punto_with_juego:
            return None
        taking_part = [s for s in order if not infos[s].is_juego]
    else:
        taking_part = [s for s in order if lance_key(infos[s], lance, reading)]
    if not taking_part:
        return None
    best = max(lance_key(infos[s], lance, reading) for s in taking_part)
    tied = [s for s in taking_part if lance_key(infos[s], lance, reading) == best]
    return tied[-1] if reading.tie_to_far else tied[0]


def check_answer(answer: object) -> int | None:
    """``answer`` if it is a seat 0..3 or None ("nobody"); else raise :class:`~musteach.rules.errors.SeatError`."""
    if answer is None:
        return None
    return check_seat(answer, "answer")


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """The verdict on one answer to "who wins this lance?", and the misconception behind a wrong one.

    lance: the :class:`Lance` asked. answer: the seat 0..3 the learner picked, or None for "nobody".
    winner: the real winner, or None (nobody holds pares / juego, or Punto is not played).
    correct: answer == winner. mistake: the first :class:`Mistake` whose reading gives the answer, or None
    (a right answer, or a slip). explanation: one sentence for the learner. why_not: one sentence on why the
    picked seat loses to the winner; None when the answer is right or "nobody".
    """

    lance: Lance
    answer: int | None
    winner: int | None
    correct: bool
    mistake: Mistake | None
    explanation: str
    why_not: str | None

    def to_dict(self) -> dict[str, Any]:
        """``{"correct", "winner", "mistake", "explanation", "why_not"}``, the ``musteach grade`` line."""
        return {
            "correct": self.correct,
            "winner": self.winner,
            "mistake": None if self.mistake is None else self.mistake.value,
            "explanation": self.explanation,
            "why_not": self.why_not,
        }


def diagnose(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    lance: Lance | str,
    answer: int | None,
    rules: Rules | None = None,
    *,
    lang: str | None = None,
) -> Diagnosis:
    """Judge a learner's answer to "who wins ``lance``?" and name the misconception behind a wrong one.

    hands: 4 hands of 4 cards, indexed by seat. mano: the seat 0..3 that speaks first. lance: a
    :class:`Lance` or its name. answer: the seat picked, or None for "nobody". rules: 8 reyes by default
    (4 reyes is read too: there a 3 and a 2 are no misconception); la real is not read.

    Raises :class:`~musteach.rules.errors.UnknownCardError`, :class:`~musteach.rules.errors.HandSizeError`,
    :class:`~musteach.rules.errors.DuplicateCardError`, :class:`~musteach.rules.errors.SeatError` (bad mano or answer),
    :class:`~musteach.rules.errors.MusError` (unknown lance) or :class:`RulesError` (la real on).
    The sentences are in ``lang`` (None: the language being spoken). RULES.md §1–§5.
    """
    with speaking(lang):
        return _diagnose(hands, mano, lance, answer, rules)


def _diagnose(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    lance: Lance | str,
    answer: int | None,
    rules: Rules | None,
) -> Diagnosis:
    rules = rules or Rules()
    if rules.la_real:
        raise RulesError(Text("the mistake diagnosis reads the rules without la real (RULES.md §13)"))
    the_lance = Lance.parse(lance)
    check_seat(mano, "mano")
    picked = check_answer(answer)
    hs = parse_hands(hands)
    result = evaluate(hs, mano, rules)[the_lance]
    truth = _View(tuple(read_hand(h, Reading(), rules.kings) for h in hs), mano, the_lance, rules.kings)
    winner = result.winner
    if picked == winner:
        return Diagnosis(the_lance, picked, winner, True, None, result.explanation, None)
    why_not = None if picked is None else truth.why_not(winner, picked)
    if picked is not None and winner is not None and truth.ties(winner, picked):
        # the picked hand ties the winner's: whatever else the learner might have misread, the tie decided it
        text = _MistakeText(truth, hs, truth.infos, Mistake.TIE_NOT_TO_MANO).sentence(winner, picked)
        return Diagnosis(the_lance, picked, winner, False, Mistake.TIE_NOT_TO_MANO, text, why_not)
    for mistake in MISTAKES:
        reading = Reading.of(mistake)
        misread = tuple(read_hand(h, reading, rules.kings) for h in hs)
        if winner_under(misread, mano, the_lance, reading) == picked:
            text = _MistakeText(truth, hs, misread, mistake).sentence(winner, picked)
            return Diagnosis(the_lance, picked, winner, False, mistake, text, why_not)
    _ = translator()
    verdict = truth.verdict(winner, picked)
    if picked is None:
        text = _("You said nobody, but {verdict}.", verdict=verdict)
    else:
        text = _("You picked seat {seat}, but {verdict}.", seat=picked, verdict=verdict)
    return Diagnosis(the_lance, picked, winner, False, None, text, why_not)


# ----------------------------------------------------------------------------------------------
# Wording: the real verdict between two seats, and each mistake's sentence.
# ----------------------------------------------------------------------------------------------

#: The juego totals from best to worst, as the sentences list them ("31, 32, 40, 37, ...").
JUEGO_RANKS = ", ".join(str(t) for t in JUEGO_ORDER)

#: What decides between two seats in Grande or Chica: the card where they first differ.
ON_CARD = (N_("on the first card"), N_("on the second card"), N_("on the third card"), N_("on the fourth card"))
#: Why one kind of pares beats another, by (winner's kind, loser's kind).
KIND_BEATS = {
    ("duples", "medias"): N_("(duples beat medias)"),
    ("duples", "par"): N_("(duples beat a par)"),
    ("medias", "par"): N_("(medias beat a par)"),
}


def _seats(_: Translator, seats: Sequence[int]) -> str:
    return _.join([_("seat {seat}", seat=s) for s in seats])


@dataclass(frozen=True, slots=True)
class _View:
    """The real standings of one deal in one lance, and the sentences that compare two seats (in the language
    being spoken)."""

    infos: tuple[HandInfo, ...]
    mano: int
    lance: Lance
    kings: int

    def cards(self, seat: int) -> str:
        """The hand in the lessons' notation, in this lance's order: ``R-R-7-4`` (Chica: ``4-7-R-R``)."""
        info = self.infos[seat]
        return info.chica_str if self.lance is Lance.CHICA else info.grande_str

    def standing(self, seat: int) -> str:
        """What the seat holds in this lance: ``R-R-7-4``, ``par of kings``, ``31``."""
        info = self.infos[seat]
        if self.lance is Lance.PARES:
            _ = translator()
            return info.pares.describe() if info.pares else _("no pares")
        if self.lance in (Lance.JUEGO, Lance.PUNTO):
            return str(info.total)
        return self.cards(seat)

    def ties(self, winner: int, seat: int) -> bool:
        """True when ``seat`` takes part and holds exactly what the winner holds in this lance (so only the
        seats' distance from mano parted them; RULES.md §2)."""
        key = self.infos[seat].key(self.lance)
        if self.lance is Lance.PUNTO:
            return not self.infos[seat].is_juego and key == self.infos[winner].key(self.lance)
        return bool(key) and key == self.infos[winner].key(self.lance)

    def takes_part(self, seat: int) -> bool:
        return bool(self.infos[seat].key(self.lance)) if self.lance in (Lance.PARES, Lance.JUEGO) else True

    def juego_seats(self) -> list[int]:
        return [s for s in speaking_order(self.mano) if self.infos[s].is_juego]

    def detail(self, win: int, lose: int) -> str:
        """What decides between two seats whose hands differ: ``on the second card``, ``(duples beat medias)``;
        ``""`` when nothing needs saying."""
        _ = translator()
        a, b = self.infos[win], self.infos[lose]
        if self.lance in (Lance.GRANDE, Lance.CHICA):
            wa, wb = (a.ranks, b.ranks) if self.lance is Lance.GRANDE else (a.ranks[::-1], b.ranks[::-1])
            i = next(k for k in range(4) if wa[k] != wb[k])
            return _(ON_CARD[i])
        if self.lance is Lance.PARES:
            assert a.pares is not None and b.pares is not None
            if a.pares.kind != b.pares.kind:
                return _(KIND_BEATS[(a.pares.kind, b.pares.kind)])
            if a.pares.kind == "duples" and a.pares.high == b.pares.high:
                return _("on the lower pair")
            if a.pares.kind == "medias":
                return _("(the fourth card does not count)")
            if a.pares.kind == "par":
                return _("(the odd cards do not count)")
            return ""
        if self.lance is Lance.JUEGO:
            if a.total == 31:
                return _("(31 is the best juego)")
            return _("(juego ranks {order})", order=JUEGO_RANKS)
        return ""

    def _tie(self, win: int, lose: int, *, capital: bool = False) -> str:
        _ = translator()
        params = {"seat": win, "other": lose, "standing": self.standing(win)}
        if win == self.mano:
            if capital:
                return _("Seat {seat} wins the tie with seat {other} (both hold {standing}), being mano.", **params)
            return _("seat {seat} wins the tie with seat {other} (both hold {standing}), being mano", **params)
        if capital:
            return _("Seat {seat} wins the tie with seat {other} (both hold {standing}), being nearer mano.", **params)
        return _("seat {seat} wins the tie with seat {other} (both hold {standing}), being nearer mano", **params)

    def _nobody(self) -> str:
        _ = translator()
        if self.lance is Lance.PARES:
            return _("nobody holds pares, so Pares scores nothing")
        if self.lance is Lance.JUEGO:
            return _("nobody has juego (31 or more), so Punto is played instead")
        seats = self.juego_seats()
        who = _seats(_, seats)
        return _.ngettext(
            "nobody wins Punto: it is not played, since {seats} has juego",
            "nobody wins Punto: it is not played, since {seats} have juego",
            len(seats),
            seats=who,
        )

    def verdict(self, winner: int | None, picked: int | None) -> str:
        """The real verdict as a clause, told against the picked seat where there is one."""
        _ = translator()
        info = self.infos[picked] if picked is not None else None
        if winner is None:
            if picked is not None and self.lance is not Lance.PUNTO:
                assert info is not None
                if self.lance is Lance.PARES:
                    return _(
                        "seat {seat}'s {cards} holds no pares, and nobody holds pares, so Pares scores nothing",
                        seat=picked,
                        cards=info.grande_str,
                    )
                return _(
                    "seat {seat}'s total of {total} is not juego (31 or more), and nobody has juego (31 or more), "
                    "so Punto is played instead",
                    seat=picked,
                    total=info.total,
                )
            return self._nobody()
        won = {"winner": winner, "lance": self.lance.title, "standing": self.standing(winner)}
        if picked is None:
            return _("seat {winner} wins {lance} with {standing}", **won)
        assert info is not None
        if not self.takes_part(picked):
            if self.lance is Lance.PARES:
                return _(
                    "seat {seat}'s {cards} holds no pares, and seat {winner} wins {lance} with {standing}",
                    seat=picked,
                    cards=info.grande_str,
                    **won,
                )
            return _(
                "seat {seat}'s total of {total} is not juego (31 or more), and seat {winner} wins {lance} with {standing}",
                seat=picked,
                total=info.total,
                **won,
            )
        if self.infos[winner].key(self.lance) == info.key(self.lance):
            return self._tie(winner, picked)
        params = {
            "seat": winner,
            "standing": self.standing(winner),
            "other": picked,
            "other_standing": self.standing(picked),
        }
        detail = self.detail(winner, picked)
        if detail:
            return _("seat {seat}'s {standing} beats seat {other}'s {other_standing} {detail}", detail=detail, **params)
        return _("seat {seat}'s {standing} beats seat {other}'s {other_standing}", **params)

    def why_not(self, winner: int | None, picked: int) -> str:
        """One sentence on why the picked seat's hand does not win (the answer is a wrong seat)."""
        _ = translator()
        info = self.infos[picked]
        if winner is None:
            if self.lance is Lance.PUNTO:
                seats = self.juego_seats()
                who = _seats(_, seats)
                return _.ngettext(
                    "Punto is not played, since {seats} has juego.",
                    "Punto is not played, since {seats} have juego.",
                    len(seats),
                    seats=who,
                )
            if self.lance is Lance.PARES:
                return _(
                    "Seat {seat}'s {cards} holds no pares, and nobody else's does either.",
                    seat=picked,
                    cards=info.grande_str,
                )
            return _(
                "Seat {seat}'s total of {total} is not juego (31 or more), and nobody has juego.",
                seat=picked,
                total=info.total,
            )
        if not self.takes_part(picked):
            if self.lance is Lance.PARES:
                return _(
                    "Seat {seat}'s {cards} holds no pares, so it takes no part in Pares.",
                    seat=picked,
                    cards=info.grande_str,
                )
            return _(
                "Seat {seat}'s total of {total} is not juego (31 or more), so it takes no part in Juego.",
                seat=picked,
                total=info.total,
            )
        if self.infos[winner].key(self.lance) == info.key(self.lance):
            return self._tie(winner, picked, capital=True)
        params = {
            "seat": picked,
            "standing": self.standing(picked),
            "other": winner,
            "other_standing": self.standing(winner),
        }
        detail = self.detail(winner, picked)
        if detail:
            return _(
                "Seat {seat}'s {standing} loses to seat {other}'s {other_standing} {detail}.", detail=detail, **params
            )
        return _("Seat {seat}'s {standing} loses to seat {other}'s {other_standing}.", **params)


#: The rule each misconception breaks, as the diagnosis states it (msgids; ``{order}`` is :data:`JUEGO_RANKS`).
MISTAKE_FACTS = {
    Mistake.THREE_IS_NOT_KING: N_("in 8 reyes every 3 is a king (worth 10 points)"),
    Mistake.TWO_IS_NOT_ACE: N_("in 8 reyes every 2 is an ace (worth 1 point)"),
    Mistake.THREE_AND_TWO_AT_FACE: N_("in 8 reyes every 3 is a king (worth 10 points) and every 2 an ace (worth 1 point)"),
    Mistake.CHICA_FROM_THE_TOP: N_("Chica compares the lowest cards first"),
    Mistake.QUADS_NOT_DUPLES: N_("four of a kind counts as duples (two equal pairs)"),
    Mistake.PARES_BY_RANK_NOT_KIND: N_("duples beat medias, and medias beat a par, whatever their ranks"),
    Mistake.JUEGO_BY_TOTAL: N_("juego ranks {order}"),
    Mistake.TIE_NOT_TO_MANO: N_("every exact tie goes to the seat nearer mano"),
    Mistake.PUNTO_WITH_JUEGO: N_("Punto is played only when nobody has juego"),
}
#: How a 3 or a 2 was misread in Grande or Chica, by (its rank, one card or several).
MISREAD_RANK = {
    (3, False): N_("the {rank} in seat {seat}'s {cards} ranked below the 4"),
    (3, True): N_("the {rank}s in seat {seat}'s {cards} ranked below the 4"),
    (2, False): N_("the {rank} in seat {seat}'s {cards} ranked above the aces"),
    (2, True): N_("the {rank}s in seat {seat}'s {cards} ranked above the aces"),
}


@dataclass(frozen=True, slots=True)
class _MistakeText:
    """The sentence for one diagnosed mistake: "You picked …, as if …; <the real rule>, so <the verdict>."
    (in the language being spoken)."""

    truth: _View
    hands: tuple[Hand, ...]
    misread: tuple[HandInfo, ...]
    mistake: Mistake

    def sentence(self, winner: int | None, picked: int | None) -> str:
        _ = translator()
        as_if = self.as_if(winner, picked)
        if self.mistake is Mistake.PUNTO_WITH_JUEGO:  # the as-if clause already names the juego holders
            verdict = _("nobody wins Punto this hand")
        else:
            verdict = self.truth.verdict(winner, picked)
        params = {"as_if": as_if, "fact": _(MISTAKE_FACTS[self.mistake], order=JUEGO_RANKS), "verdict": verdict}
        if picked is None:
            return _("You said nobody, as if {as_if}; {fact}, so {verdict}.", **params)
        return _("You picked seat {seat}, as if {as_if}; {fact}, so {verdict}.", seat=picked, **params)

    def _candidates(self, winner: int | None, picked: int | None) -> list[int]:
        first = [s for s in (winner, picked) if s is not None]
        return list(dict.fromkeys(first + list(speaking_order(self.truth.mano))))

    def _misread_seats(self, winner: int | None, picked: int | None, rank: int) -> list[int]:
        """The seats whose misread cards mattered: the winner and the picked seat where the misreading changed
        their standing; else the first seat whose taking part changed (pares or juego held), else the first
        whose standing changed, else the first holder of such a card."""
        holders = [s for s in self._candidates(winner, picked) if any(c.rank == rank for c in self.hands[s])]
        lance = self.truth.lance

        def part(info: HandInfo) -> bool:
            return info.pares is not None if lance is Lance.PARES else info.is_juego

        flipped = [s for s in holders if part(self.misread[s]) != part(self.truth.infos[s])]
        changed = [s for s in holders if self.misread[s].key(lance) != self.truth.infos[s].key(lance)]
        ours = [s for s in holders if s in (winner, picked) and (s in flipped or s in changed)]
        return ours or (flipped or changed or holders)[:1]

    def _misread_clause(self, seat: int, rank: int) -> str:
        _ = translator()
        lance = self.truth.lance
        info = self.misread[seat]
        shown = info.chica_str if lance is Lance.CHICA else info.grande_str
        if lance in (Lance.GRANDE, Lance.CHICA):
            n = sum(c.rank == rank for c in self.hands[seat])
            return _(MISREAD_RANK[(rank, n > 1)], rank=rank, seat=seat, cards=shown)
        if lance is Lance.PARES:
            if info.pares is None:
                return _("seat {seat}'s {cards} held no pares", seat=seat, cards=shown)
            return _("seat {seat}'s {cards} held {jugada}", seat=seat, cards=shown, jugada=info.pares.describe())
        return _("seat {seat}'s {cards} counted {total}", seat=seat, cards=shown, total=info.total)

    def as_if(self, winner: int | None, picked: int | None) -> str:
        _ = translator()
        m = self.mistake
        if m in (Mistake.THREE_IS_NOT_KING, Mistake.TWO_IS_NOT_ACE, Mistake.THREE_AND_TWO_AT_FACE):
            ranks = {Mistake.THREE_IS_NOT_KING: (3,), Mistake.TWO_IS_NOT_ACE: (2,)}.get(m, (3, 2))
            clauses = [self._misread_clause(s, r) for r in ranks for s in self._misread_seats(winner, picked, r)]
            return _.join(list(dict.fromkeys(clauses)))  # a seat misread for its 3 and its 2 is told once
        if m is Mistake.CHICA_FROM_THE_TOP:
            return _("Chica compared the highest cards first, the lower card winning")
        if m is Mistake.QUADS_NOT_DUPLES:
            quads = [
                s
                for s in self._candidates(winner, picked)
                if (p := self.truth.infos[s].pares) is not None and p.kind == "duples" and p.high == p.low
            ]
            seat = quads[0]
            p = self.misread[seat].pares
            assert p is not None
            return _(
                "seat {seat}'s {cards} were {jugada}",
                seat=seat,
                cards=self.truth.infos[seat].grande_str,
                jugada=p.describe(),
            )
        if m is Mistake.PARES_BY_RANK_NOT_KIND:
            return _("only the rank of each hand's best pair counted, not par, medias or duples")
        if m is Mistake.JUEGO_BY_TOTAL:
            return _("a higher total made a better juego")
        if m is Mistake.TIE_NOT_TO_MANO:
            return _("a tie went to the seat farther from mano")
        seats = self.truth.juego_seats()
        who = _seats(_, seats)
        return _.ngettext(
            "Punto were played although {seats} has juego",
            "Punto were played although {seats} have juego",
            len(seats),
            seats=who,
        )
