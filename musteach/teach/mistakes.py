"""One diagnosis for every quiz: a named tag for each wrong answer, and the sentence that names the mistake
(issue 23). Pure Python, no Jupyter.

Every quiz kind has its own tags, a string enum, so that a class view can count them later:

* who wins a lance: :class:`~musteach.teach.diagnosis.Mistake` (exactly what ``musteach grade`` says);
* a typed total: :class:`TotalMistake`; a jugada: :class:`JugadaMistake`; the order of cards: :class:`RankMistake`;
* betting: :class:`~musteach.teach.why_wrong.BettingMistake`; the count:
  :class:`~musteach.teach.why_wrong.CountMistake` (one per wrong lance);
* señas: :class:`SenaMistake`; the mus (best discard): :class:`DiscardMistake`; the odds: :class:`OddsMistake`;

and :data:`SLIP` for a wrong answer that no mistaken rule explains. :func:`diagnose_answer` finds the tags of
one wrong answer and the sentence that names the mistake.

The totals, jugadas and card orders are read with *card misreadings* (:class:`Misreading`): a 3 taken at its
face in 8 reyes, a 2 taken at its face, a 3 taken as a king in 4 reyes, figures counted by their number, and so
on (RULES.md §1, §5). Each card may be misread or not, so every combination is tried; the diagnosis is the one
that gives the learner's answer with the fewest kinds of misreading, then the fewest cards misread. Both the
3 and the 2 miscounted in R-7-3-2 (22, not 28) is ``three_is_not_king+two_is_not_ace``. A total can also be
one card left out or counted twice: that is one slip, so it is named before two kinds of misreading.

>>> from musteach.teach.quiz import hand_question
>>> q = hand_question("12o 7c 3e 2b", "juego_total")
>>> d = diagnose_answer(q, 22)
>>> d.tag
'three_is_not_king+two_is_not_ace'
>>> print(d.text)
22 is too low. It looks as if a 3 was taken as a 3 and a 2 as a 2: in 8 reyes every 3 is a king (it counts 10) and every 2 is an ace (it counts 1).
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..i18n import N_, Translator, speaking, translator
from ..rules.cards import Card
from ..rules.lances import Lance, effective_rank, point_value, rank_letter
from ..rules.senas import CONTEXTS, SENAS, senas_for
from .bands import band_of
from .diagnosis import diagnose
from .scoring import SLIP
from .skills import Skill
from .why_wrong import betting_mistake, count_mistakes, why_betting_wrong, why_count_wrong, why_meaning_wrong

if TYPE_CHECKING:  # the question kinds import this module: each names its own mistake through it
    from .count_quiz import BettingQuestion, CountQuestion
    from .mus_quiz import DiscardQuestion
    from .odds_quiz import OddsQuestion
    from .quiz import Question
    from .senas_quiz import SenaQuestion

__all__ = [
    "JUGADA_NEEDS",
    "SLIP",
    "Diagnosable",
    "Diagnosed",
    "DiscardMistake",
    "JugadaMistake",
    "Misreading",
    "OddsMistake",
    "RankMistake",
    "SenaMistake",
    "TotalMistake",
    "diagnose_answer",
    "diagnose_betting",
    "diagnose_count",
    "diagnose_discard",
    "diagnose_odds",
    "diagnose_question",
    "diagnose_sena",
    "misread",
]


class Misreading(enum.StrEnum):
    """One way of misreading a card (RULES.md §1, §5), as a diagnosis tag of the totals, jugada and order quizzes."""

    THREE_AT_FACE = "three_is_not_king"
    """8 reyes: a 3 taken as a 3 (it is a king, worth 10)."""
    TWO_AT_FACE = "two_is_not_ace"
    """8 reyes: a 2 taken as a 2 (it is an ace, worth 1)."""
    THREE_AS_KING = "three_as_king_in_4_reyes"
    """4 reyes: a 3 taken as a king (it is only a 3)."""
    TWO_AS_ACE = "two_as_ace_in_4_reyes"
    """4 reyes: a 2 taken as an ace (it is only a 2)."""
    FIGURES_BY_NUMBER = "figures_by_number"
    """A caballo counted 11 or a rey 12 (every figure counts 10)."""
    FIGURES_AS_ONE = "figures_as_one_rank"
    """Two different figures (sota, caballo, rey) taken as a pair."""
    ACE_HIGH = "ace_high"
    """The ace put above the figures, as in other games (it is the lowest card)."""
    FIGURES_ORDER = "figures_order"
    """The figures put in the wrong order (rey, then caballo, then sota)."""
    QUADS_AS_MEDIAS = "quads_not_duples"
    """Four cards of one rank taken as medias (they are duples)."""

    def __str__(self) -> str:
        return self.value


class TotalMistake(enum.StrEnum):
    """The tags of a wrong total (juego or punto, RULES.md §1, §5): the card misreadings that count (the values
    of :class:`Misreading`), one card left out, or one card counted twice."""

    THREE_AT_FACE = Misreading.THREE_AT_FACE.value
    TWO_AT_FACE = Misreading.TWO_AT_FACE.value
    THREE_AS_KING = Misreading.THREE_AS_KING.value
    TWO_AS_ACE = Misreading.TWO_AS_ACE.value
    FIGURES_BY_NUMBER = Misreading.FIGURES_BY_NUMBER.value
    CARD_LEFT_OUT = "card_left_out"
    CARD_TWICE = "card_counted_twice"

    def __str__(self) -> str:
        return self.value


class JugadaMistake(enum.StrEnum):
    """The tags of a wrong jugada (RULES.md §5): the card misreadings (the values of :class:`Misreading`), pares
    not seen (answered none), pares that are not there (a jugada named for a hand without pares, no misreading
    giving it), or the names mixed up (par, medias or duples for another count of equal cards)."""

    THREE_AT_FACE = Misreading.THREE_AT_FACE.value
    TWO_AT_FACE = Misreading.TWO_AT_FACE.value
    THREE_AS_KING = Misreading.THREE_AS_KING.value
    TWO_AS_ACE = Misreading.TWO_AS_ACE.value
    FIGURES_AS_ONE = Misreading.FIGURES_AS_ONE.value
    QUADS_AS_MEDIAS = Misreading.QUADS_AS_MEDIAS.value
    PARES_NOT_SEEN = "pares_not_seen"
    PARES_NOT_THERE = "pares_not_there"
    JUGADA_NAMES = "jugada_names"

    def __str__(self) -> str:
        return self.value


class RankMistake(enum.StrEnum):
    """The tags of a wrong order of cards (RULES.md §1): the card misreadings (the values of :class:`Misreading`)."""

    THREE_AT_FACE = Misreading.THREE_AT_FACE.value
    TWO_AT_FACE = Misreading.TWO_AT_FACE.value
    THREE_AS_KING = Misreading.THREE_AS_KING.value
    TWO_AS_ACE = Misreading.TWO_AS_ACE.value
    ACE_HIGH = Misreading.ACE_HIGH.value
    FIGURES_ORDER = Misreading.FIGURES_ORDER.value

    def __str__(self) -> str:
        return self.value


def _misreadings(tags: type[enum.StrEnum]) -> list[Misreading]:
    """The card misreadings among a quiz kind's tags, in :class:`Misreading` order."""
    values = {t.value for t in tags}
    return [m for m in Misreading if m.value in values]


class SenaMistake(enum.StrEnum):
    """The tags of a wrong seña answer (RULES.md §11)."""

    INTENT_NOT_CARDS = "intent_not_cards"
    """A seña of intent (cut the mus, bet more) picked to show cards."""
    CIEGO_WITH_CARDS = "ciego_with_cards"
    """Ciego (nothing to show) picked for a hand that has something to show."""
    WRONG_MOMENT = "sena_wrong_moment"
    """A seña the hand holds, but not one that may be made at this moment (medias before Grande...)."""
    NOT_HELD = "sena_not_held"
    """A seña that says something the hand does not hold."""
    OTHER_MEANING = "meaning_of_another_sena"
    """The meaning of another seña."""

    def __str__(self) -> str:
        return self.value


class DiscardMistake(enum.StrEnum):
    """The tags of a wrong discard (RULES.md §3, §5)."""

    BROKE_PARES = "broke_pares"
    """A card of a pair changed that the best change keeps."""
    THREW_AIM_CARDS = "threw_aim_cards"
    """A card that serves the aim changed (a king for Grande, an ace for Chica, a figure for Juego)."""
    CHANGED_TOO_FEW = "changed_too_few"
    """Fewer cards changed than the best change, keeping one that does not help."""
    CHANGED_TOO_MANY = "changed_too_many"
    """More cards changed than the best change, throwing one that helps."""

    def __str__(self) -> str:
        return self.value


class OddsMistake(enum.StrEnum):
    """The tags of a wrong band of odds (RULES.md §2, §4, §5)."""

    PARTNER_LEFT_OUT = "partner_left_out"
    """The band of the hand alone: the partner wins for the team too."""
    NOT_PLAYED_LEFT_OUT = "not_played_left_out"
    """The band among the deals where the lance is played: when nobody holds pares or juego, nobody wins it."""
    TOO_HIGH = "odds_too_high"
    """Another band, higher than the real one."""
    TOO_LOW = "odds_too_low"
    """Another band, lower than the real one."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Diagnosed:
    """The diagnosis of one wrong answer.

    tags: its tags, at least one (a member value of the quiz kind's enum, or :data:`SLIP`); several when
    several misreadings together give the answer, or several lances of a count are wrong. text: the sentence
    that names the mistake (in the language spoken when it was made).
    """

    tags: tuple[str, ...]
    text: str

    @property
    def tag(self) -> str:
        """The tags as one string, joined by ``+`` (what is kept with the answer)."""
        return "+".join(self.tags)


def diagnose_answer(question: Any, given: Any, *, lang: str | None = None) -> Diagnosed | None:
    """The diagnosis of ``given`` (a response to ``question``, any musteach quiz question), or None when it is
    right or the question kind is not a musteach one. Raises like the question's grading for a response that is
    not a possible answer. lang: the language of the sentence (None: the one being spoken)."""
    with speaking(lang):
        return question.diagnosis(given) if isinstance(question, Diagnosable) else None


@runtime_checkable
class Diagnosable(Protocol):
    """A question that names its own mistakes: every musteach question kind (lances, jugadas, totals, orders,
    betting, count, señas, mus, odds), each through its ``diagnose_*`` function of this module. The question
    modules import this one, never the other way round (so grading a question needs no late import)."""

    def diagnosis(self, given: Any) -> Diagnosed | None:
        """The diagnosis of ``given`` in the language being spoken, or None when it is right."""
        ...


# ----- lances ------------------------------------------------------------------------------------------------


def diagnose_question(q: Question, given: Any) -> Diagnosed | None:
    """A lance, jugada, total or order question's diagnosis of ``given`` (RULES.md §1–§5), or None when it is
    right; raises like :meth:`~musteach.teach.quiz.Question.verify_response`."""
    response = q.verify_response(given)
    if q.is_correct(response):
        return None
    if q.lance is not None:
        if q.rules.la_real:
            return Diagnosed((SLIP,), "")
        d = diagnose(q.hands, q.mano or 0, q.lance, response, q.rules)
        return Diagnosed((SLIP if d.mistake is None else d.mistake.value,), d.explanation)
    if q.skill is Skill.JUGADA:
        return _jugada(q, str(response))
    if q.skill in (Skill.JUEGO_TOTAL, Skill.PUNTO_TOTAL):
        return _total(q, int(response))
    return _order(q, tuple(response))


# ----- card misreadings --------------------------------------------------------------------------------------

#: Each misreading as (the rank it reads a card as, the points it counts it) for a card it applies to, else None.
_READS: dict[Misreading, Callable[[int, int], tuple[int, int] | None]] = {
    Misreading.THREE_AT_FACE: lambda r, k: (3, 3) if k == 8 and r == 3 else None,
    Misreading.TWO_AT_FACE: lambda r, k: (2, 2) if k == 8 and r == 2 else None,
    Misreading.THREE_AS_KING: lambda r, k: (12, 10) if k == 4 and r == 3 else None,
    Misreading.TWO_AS_ACE: lambda r, k: (1, 1) if k == 4 and r == 2 else None,
    Misreading.FIGURES_BY_NUMBER: lambda r, k: (r, r) if r in (11, 12) else None,
    Misreading.FIGURES_AS_ONE: lambda r, k: (10, 10) if r in (11, 12) else None,
    Misreading.ACE_HIGH: lambda r, k: (13, 1) if r == 1 or (k == 8 and r == 2) else None,
    Misreading.FIGURES_ORDER: lambda r, k: (22 - r, 10) if r in (10, 11, 12) or (k == 8 and r == 3) else None,
}


#: The misreadings of a whole kind of card (every figure, every ace): never of one card of the kind alone.
_WHOLE = frozenset({Misreading.FIGURES_AS_ONE, Misreading.ACE_HIGH, Misreading.FIGURES_ORDER})


def _true_read(rank: int, kings: int) -> tuple[int, int]:
    return effective_rank(rank, kings), point_value(rank, kings)


def _card_reads(
    rank: int, kings: int, kinds: Sequence[Misreading], on: Sequence[Misreading]
) -> list[tuple[tuple[Misreading, ...], tuple[int, int]]]:
    """The ways :func:`misread` may read one card of ``rank``, each ``(misreadings, (rank, points))``: first as
    the whole-kind misreadings ``on`` read it (truly when none applies), then by each one-card misreading of
    ``kinds`` that applies to it."""
    read = _true_read(rank, kings)
    by = tuple(m for m in on if _READS[m](rank, kings) is not None)
    for m in by:
        read = _READS[m](rank, kings) or read
    out = [(by, read)]
    out += [((m,), got) for m in kinds if m not in _WHOLE and (got := _READS[m](rank, kings)) is not None]
    return out


def misread(
    cards: Sequence[Card], kings: int, kinds: Iterable[Misreading], fits: Callable[[list[tuple[int, int]]], bool]
) -> tuple[Misreading, ...] | None:
    """The fewest card misreadings among ``kinds`` under which the cards give what ``fits`` wants, or None.

    Each card is read truly or by one of the misreadings that applies to it (``(rank, points)`` per card);
    ``fits`` takes the readings of the four cards. The misreadings of a whole kind of card (every figure as one
    rank, the figures' order, the ace high) read every such card alike. The answer uses the fewest kinds of
    misreading, then the fewest cards misread; ``()`` when the true reading fits. RULES.md §1, §5."""
    kinds = tuple(kinds)
    best: tuple[tuple[int, int], tuple[Misreading, ...]] | None = None
    whole = [m for m in kinds if m in _WHOLE]
    for n in range(len(whole) + 1):
        for on in itertools.combinations(whole, n):  # a misreading of a kind of card reads every such card so
            options = [_card_reads(c.rank, kings, kinds, on) for c in cards]
            for combo in itertools.product(*options):
                used = [m for ms, _ in combo for m in ms]
                cost = (len(set(used)), len(used))
                if (best is None or cost < best[0]) and fits([read for _, read in combo]):
                    best = (cost, tuple(m for m in kinds if m in used))
    return None if best is None else best[1]


#: What each misreading took a card for, as a clause ("a 3 was taken as a 3"), and the rule it breaks.
_CLAUSES = {
    Misreading.THREE_AT_FACE: (N_("a 3 was taken as a 3"), N_("in 8 reyes every 3 is a king (it counts 10)")),
    Misreading.TWO_AT_FACE: (N_("a 2 as a 2"), N_("every 2 is an ace (it counts 1)")),
    Misreading.THREE_AS_KING: (N_("a 3 was taken as a king"), N_("in 4 reyes a 3 is only a 3 (it counts 3)")),
    Misreading.TWO_AS_ACE: (N_("a 2 was taken as an ace"), N_("in 4 reyes a 2 is only a 2 (it counts 2)")),
    Misreading.FIGURES_BY_NUMBER: (N_("the figures were counted by their number"), N_("R, C and S count 10 each")),
    Misreading.FIGURES_AS_ONE: (
        N_("two different figures were taken as a pair"),
        N_("a pair needs two cards of one rank (a sota and a caballo are no pair)"),
    ),
    Misreading.ACE_HIGH: (N_("the ace was put above the figures"), N_("the ace is the lowest card in Mus")),
    Misreading.FIGURES_ORDER: (
        N_("the figures were put in the wrong order"),
        N_("the rey ranks above the caballo, and the caballo above the sota"),
    ),
    Misreading.QUADS_AS_MEDIAS: (
        N_("four cards of one rank were taken as medias"),
        N_("four cards of one rank are duples (two equal pairs)"),
    ),
}
#: The clause of a 2 when it comes first (the short form follows a 3: "a 3 was taken as a 3 and a 2 as a 2").
_TWO_ALONE = (N_("a 2 was taken as a 2"), N_("in 8 reyes every 2 is an ace (it counts 1)"))


def _as_if(_: Translator, found: Sequence[Misreading]) -> str:
    """``"It looks as if a 3 was taken as a 3 and a 2 as a 2: in 8 reyes every 3 is a king (it counts 10) and
    every 2 is an ace (it counts 1)."``"""
    clauses, facts = [], []
    for m in found:
        clause, fact = _CLAUSES[m]
        if m is Misreading.TWO_AT_FACE and Misreading.THREE_AT_FACE not in found:
            clause, fact = _TWO_ALONE
        clauses.append(_(clause))
        facts.append(_(fact))
    return _("It looks as if {slips}: {facts}.", slips=_.join(clauses), facts=_.join(facts))


# ----- totals ------------------------------------------------------------------------------------------------


def _total(q: Question, given: int) -> Diagnosed:
    _ = translator()
    total = int(q.answer)
    kings = q.rules.kings
    side = _("{given} is too high.", given=given) if given > total else _("{given} is too low.", given=given)
    kinds = _misreadings(TotalMistake)
    found = misread(q.cards, kings, kinds, lambda reads: sum(p for _, p in reads) == given)
    values = [point_value(c.rank, kings) for c in q.cards]
    one_card = any(given in (total - v, total + v) for v in values)
    if found and (len(found) == 1 or not one_card):  # one card left out or twice is one slip, as one misreading
        return Diagnosed(tuple(m.value for m in found), f"{side} {_as_if(_, found)}")
    if any(given == total - v for v in values):
        why = _("It looks as if one card was left out: add all four, one at a time.")
        return Diagnosed((TotalMistake.CARD_LEFT_OUT.value,), f"{side} {why}")
    if any(given == total + v for v in values):
        why = _("It looks as if one card was counted twice: add each of the four once.")
        return Diagnosed((TotalMistake.CARD_TWICE.value,), f"{side} {why}")
    why = _("Add the four cards again, one at a time.")
    return Diagnosed((SLIP,), f"{side} {why}")


# ----- jugadas -----------------------------------------------------------------------------------------------

#: "You picked X: what X needs, and this hand is not that", one sentence per jugada picked (RULES.md §5).
JUGADA_NEEDS = {
    "par": N_(
        "You picked par: a par is exactly one pair, two cards of one rank, with the other two different, and this hand is not that."
    ),
    "medias": N_(
        "You picked medias: medias is three cards of one rank, with the fourth different, and this hand is not that."
    ),
    "duples": N_("You picked duples: duples is two pairs, or four cards of one rank, and this hand is not that."),
    "none": N_("You picked none: none means no two cards share a rank, and this hand is not that."),
}


def _jugada_of(ranks: Iterable[int], quads_as_medias: bool = False) -> str:
    counts = sorted(Counter(ranks).values(), reverse=True)
    if counts[0] == 4:
        return "medias" if quads_as_medias else "duples"
    if counts[0] == 3:
        return "medias"
    if counts[:2] == [2, 2]:
        return "duples"
    return "par" if counts[0] == 2 else "none"


def _gives_jugada(jugada: str, quads_as_medias: bool) -> Callable[[list[tuple[int, int]]], bool]:
    """A test of four cards' ``(rank, points)`` readings: do they make ``jugada``?"""
    return lambda reads: _jugada_of((r for r, _ in reads), quads_as_medias) == jugada


def _jugada(q: Question, given: str) -> Diagnosed:
    _ = translator()
    kings = q.rules.kings
    needs = _(JUGADA_NEEDS[given])
    kinds = _misreadings(JugadaMistake)
    card_kinds = [m for m in kinds if m is not Misreading.QUADS_AS_MEDIAS]
    for quads in (False, True):
        found = misread(q.cards, kings, card_kinds, _gives_jugada(given, quads))
        if found is not None and (found or quads):
            found = (*found, Misreading.QUADS_AS_MEDIAS) if quads else found
            return Diagnosed(tuple(m.value for m in found), f"{needs} {_as_if(_, found)}")
    tag: JugadaMistake
    if given == "none":
        tag = JugadaMistake.PARES_NOT_SEEN
    else:
        tag = JugadaMistake.PARES_NOT_THERE if q.answer == "none" else JugadaMistake.JUGADA_NAMES
    return Diagnosed((tag.value,), needs)


# ----- the order of cards ------------------------------------------------------------------------------------


def _order(q: Question, given: tuple[Card, ...]) -> Diagnosed:
    _ = translator()
    kings = q.rules.kings
    ranks = [effective_rank(c.rank, kings) for c in given]
    k = next(i for i in range(len(ranks) - 1) if ranks[i] < ranks[i + 1])
    low, high = given[k], given[k + 1]
    said = _(
        "You put {low} above {high}, but {high_rank} ranks above {low_rank}.",
        low=low.name, high=high.name, high_rank=rank_letter(ranks[k + 1]), low_rank=rank_letter(ranks[k]),
    )  # fmt: skip
    kinds = _misreadings(RankMistake)
    found = misread(given, kings, kinds, lambda reads: all(a[0] >= b[0] for a, b in itertools.pairwise(reads)))
    if found:
        return Diagnosed(tuple(m.value for m in found), f"{said} {_as_if(_, found)}")
    return Diagnosed((SLIP,), said)


# ----- betting, count, señas, mus, odds ----------------------------------------------------------------------


def diagnose_betting(q: BettingQuestion, given: Any) -> Diagnosed | None:
    """A betting question's diagnosis of ``given`` (RULES.md §6), or None when it is right; raises like its grade."""
    verdict = q.grade(given)
    if verdict.correct:
        return None
    o = q.state.outcome
    assert o is not None
    case = betting_mistake(o, q.answer, verdict.given, q.state.rules)
    assert case is not None
    return Diagnosed((case.value,), why_betting_wrong(o, q.answer, verdict.given, q.state.rules))


def diagnose_count(q: CountQuestion, given: Any) -> Diagnosed | None:
    """A count question's diagnosis of ``given`` (RULES.md §7, §8), or None when it is right; raises like its grade."""
    verdict = q.grade(given)
    if verdict.correct:
        return None
    cases = tuple(dict.fromkeys(c.value for c in count_mistakes(q.result, verdict.given).values()))
    return Diagnosed(cases or (SLIP,), why_count_wrong(q.result, verdict.given))


def diagnose_sena(q: SenaQuestion, given: Any) -> Diagnosed | None:
    """A seña question's diagnosis of ``given`` (RULES.md §11), or None when it is right; raises like its grade."""
    key = q.verify_response(given)
    if key == q.answer:
        return None
    if q.mode == "meaning":
        return Diagnosed((SenaMistake.OTHER_MEANING.value,), why_meaning_wrong(q.answer, key, q.rules))
    why = q.reasons.get(key, "")
    text = f"{why[:1].upper()}{why[1:]}." if why else ""
    s = SENAS[key]
    assert q.hand is not None
    if s.kind == "intent":
        return Diagnosed((SenaMistake.INTENT_NOT_CARDS.value,), text)
    if key == "ciego":
        return Diagnosed((SenaMistake.CIEGO_WITH_CARDS.value,), text)
    elsewhere = any(key in {f.key for f in senas_for(q.hand, q.rules, c)} for c in CONTEXTS if c != q.context)
    return Diagnosed(((SenaMistake.WRONG_MOMENT if elsewhere else SenaMistake.NOT_HELD).value,), text)


#: The cards that serve each lance aim of the mus quiz (effective ranks): kings, aces, figures.
_SERVING: dict[str, Callable[[int], bool]] = {
    "grande": lambda r: r == 12,
    "chica": lambda r: r == 1,
    "juego": lambda r: r >= 10,
}


def diagnose_discard(q: DiscardQuestion, given: Any) -> Diagnosed | None:
    """A mus (best discard) question's diagnosis of ``given`` (RULES.md §3), or None when it is right; raises like
    its grade."""
    key = q.verify_response(given)
    if key == q.answer:
        return None
    _ = translator()
    kings = q.rules.kings
    rank = {c.code: effective_rank(c.rank, kings) for c in q.hand}
    thrown = Counter(rank[c] for c in key.split())
    best_thrown = Counter(rank[c] for c in q.answer.split())
    held = Counter(rank.values())
    kept_by_best = held - best_thrown
    pairs = [r for r, n in held.items() if n >= 2 and kept_by_best[r] == n]
    serving = _SERVING.get(q.aim)
    if q.aim in ("pares", "balanced") and any(thrown[r] for r in pairs):
        tag, text = DiscardMistake.BROKE_PARES, _("You broke up a pair that already gives pares: keep it.")
    elif serving is not None and any(serving(r) and kept_by_best[r] > held[r] - thrown[r] for r in thrown):
        tag, text = DiscardMistake.THREW_AIM_CARDS, _("You changed a card that already serves this aim: keep it.")
    elif thrown < best_thrown:
        tag, text = DiscardMistake.CHANGED_TOO_FEW, _("You kept a card that does not help this aim: change it too.")
    elif best_thrown < thrown:
        tag, text = DiscardMistake.CHANGED_TOO_MANY, _("You changed a card that already helps this aim: keep it.")
    else:
        return Diagnosed((SLIP,), _("That change does not serve the hand best: think again about which cards already help it."))
    return Diagnosed((tag.value,), text)


def diagnose_odds(q: OddsQuestion, given: Any) -> Diagnosed | None:
    """An odds question's diagnosis of ``given`` (a band; RULES.md §4, §5), or None when it is right; raises like its
    grade."""
    band = q.verify_response(given)
    if band == q.answer:
        return None
    _ = translator()
    if q.odds is None:
        return Diagnosed(((OddsMistake.TOO_HIGH if band > q.answer else OddsMistake.TOO_LOW).value,), "")
    odds = q.odds[q.lance]
    played = 1 - float(odds.nobody)
    if band == band_of(float(odds.you)) and band_of(float(odds.team)) != band:
        return Diagnosed(
            (OddsMistake.PARTNER_LEFT_OUT.value,),
            _("That is how often your hand wins alone: your partner's wins count for your team too."),
        )
    if q.lance in (Lance.PARES, Lance.JUEGO) and played > 0 and band == band_of(float(odds.team) / played):
        return Diagnosed(
            (OddsMistake.NOT_PLAYED_LEFT_OUT.value,),
            _("That leaves out the deals where nobody holds {lance}: then nobody wins it.", lance=q.lance.title),
        )
    if band > q.answer:
        return Diagnosed((OddsMistake.TOO_HIGH.value,), _("Your team wins it less often than that."))
    return Diagnosed((OddsMistake.TOO_LOW.value,), _("Your team wins it more often than that."))
