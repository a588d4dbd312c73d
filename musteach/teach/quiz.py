"""Quiz questions and their grading: the pure logic behind every quiz widget (a run of questions is
:class:`~musteach.teach.session.QuizSession`).

Nothing here imports Jupyter: a widget shows what this module computes (prompts, choices, verdicts,
explanations, scores). Every correct answer comes from the one evaluator in :mod:`musteach.rules.lances`.

Skills (:class:`Skill`): who wins each lance (``grande``, ``chica``, ``pares``, ``juego``, ``punto``;
RULES.md §4, §5), ordering cards by rank (``rank_order``, §1), naming a hand's jugada (``jugada``, §5),
a hand's total for Juego (``juego_total``) and its punto (``punto_total``, §1, §5).

>>> gen = QuestionGenerator(["grande"], seed=7)
>>> q = gen.next()
>>> q.skill, q.lance, len(q.hands), [v for v, _ in q.choices]
(<Skill.GRANDE: 'grande'>, <Lance.GRANDE: 'grande'>, 4, [0, 1, 2, 3])
>>> v = q.grade(q.answer)
>>> v.correct, v.headline
(True, 'Right!')
>>> q.grade(7)
Traceback (most recent call last):
...
musteach.rules.errors.SeatError: answer must be a seat 0, 1, 2 or 3, not 7

A run of questions keeps the score:

>>> from musteach.teach.session import QuizSession
>>> s = QuizSession(QuestionGenerator(["jugada"], seed=1), n=2)
>>> _ = s.answer(s.current.answer); s.score_text()
'Score: 1/1 · streak 1'
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..i18n import N_, Text, Translator, speaking, translator
from ..rules.cards import Card, Hand
from ..rules.errors import MusError, SeatError
from ..rules.lances import (
    DealResult,
    HandInfo,
    Lance,
    analyse,
    check_seat,
    effective_rank,
    evaluate,
    point_value,
    rank_letter,
    rank_plural,
)
from ..rules.options import Rules
from .diagnosis import diagnose
from .errors import AnswerError, BlankAnswerError, QuizError, QuizStateError
from .mistakes import Diagnosed, diagnose_question
from .sampling import fits_kind, hand_test, sample_cards, sample_deal, sample_hand
from .skills import JUGADA_CHOICES, KINDS, LANCE_SKILLS, NOBODY, Kind, Skill, kinds_for
from .verdict import Verdict

__all__ = [
    "Answerable",
    "JUGADA_CHOICES",
    "KeyedChoices",
    "KINDS",
    "LANCE_SKILLS",
    "AnswerError",
    "BlankAnswerError",
    "Kind",
    "Question",
    "QuestionGenerator",
    "QuizError",
    "QuizStateError",
    "Skill",
    "Verdict",
    "hand_question",
    "kinds_for",
    "lance_question",
    "make_question",
    "rank_question",
]


# ----------------------------------------------------------------------------------------------
# Questions and verdicts
# ----------------------------------------------------------------------------------------------


class Answerable:
    """The pokerkit-style checks every question type shares, given its ``verify_response`` and ``answer``:
    :meth:`can_answer` (never raises) and :meth:`is_correct` (raises like ``verify_response``)."""

    __slots__ = ()
    answer: Any

    def verify_response(self, response: Any) -> Any:  # pragma: no cover - every question defines it
        raise NotImplementedError

    def can_answer(self, response: Any) -> bool:
        """True if ``grade`` would accept the response (it is a possible answer, right or wrong)."""
        try:
            self.verify_response(response)
        except MusError:
            return False
        return True

    def is_correct(self, response: Any) -> bool:
        """True if the response is the right answer; raises like ``verify_response``."""
        return bool(self.verify_response(response) == self.answer)


class KeyedChoices(Answerable):
    """Mixin for a question whose ``choices`` are ``(key, label)`` pairs of text and whose answer is a key
    (the discard and señas quizzes): :meth:`label_of`, and :meth:`verify_response` that takes a key or a
    label (any case). A subclass widens what it reads in :meth:`key_of` and words its refusal in :meth:`refusal`."""

    __slots__ = ()
    choices: tuple[tuple[str, str], ...]

    def label_of(self, value: Any) -> str:
        """The label of a choice key (the value itself, as text, when it is not a key)."""
        return dict(self.choices).get(value, str(value))

    def key_of(self, response: Any) -> str | None:
        """The choice key ``response`` names (a key, or a label in any case), or None."""
        if isinstance(response, str):
            text = response.strip()
            if text in dict(self.choices):
                return text
            for k, label in self.choices:
                if text.lower() == label.lower():
                    return k
        return None

    def refusal(self, response: Any) -> Text | str:
        """The message of the :class:`AnswerError` for a response that names no choice."""
        return Text(
            "answer with one of the choices shown ({choices}), not {response}",
            choices="; ".join(label for _k, label in self.choices),
            response=repr(response),
        )

    # pokerkit-style: verify_x() raises, can_x() asks, x() acts.
    def verify_response(self, response: Any) -> str:
        """The response as a choice key (see :meth:`key_of`).

        Raises :class:`~musteach.teach.errors.AnswerError` naming the response for anything else."""
        key = self.key_of(response)
        if key is None:
            raise AnswerError(self.refusal(response))
        return key


@dataclass(frozen=True, slots=True)
class Question(Answerable):
    """One quiz question, with everything a widget shows and the correct answer.

    skill: the :class:`Skill`. kind: the :class:`Kind` of deal ("uniform", "tie_to_mano", ...).
    prompt: the question sentence.
    hands: the 4 hands indexed by seat (lance skills), the one hand (jugada, totals), or () (rank order).
    cards: the cards shown: the hand's cards (jugada, totals), the cards to order (rank order), or ().
    mano: the mano seat 0..3 (lance skills) or None. lance: the :class:`Lance` or None. rules: the :class:`Rules`.
    choices: ``(value, label)`` pairs: seats (and None for "Nobody"), jugada names, totals, or the cards.
    answer: the correct answer (a seat or None; ``"par"``/``"medias"``/``"duples"``/``"none"``; a total;
    for rank order, the cards high to low; cards of equal rank may be given in either order).
    explanation: the sentence shown after any answer. highlight: the winning seat, or None.
    result: the :class:`DealResult` (lance skills) or None; info: the hand's :class:`HandInfo` or None.
    """

    skill: Skill
    kind: Kind
    prompt: str
    hands: tuple[Hand, ...]
    cards: tuple[Card, ...]
    mano: int | None
    lance: Lance | None
    rules: Rules
    choices: tuple[tuple[Any, str], ...]
    answer: Any
    explanation: str
    highlight: int | None = None
    answer_text: str = ""
    result: DealResult | None = field(default=None, repr=False, compare=False)
    info: HandInfo | None = field(default=None, repr=False, compare=False)

    @property
    def hand(self) -> Hand | None:
        """The single hand of a jugada or total question, else None."""
        return self.hands[0] if len(self.hands) == 1 else None

    @property
    def accepts_number(self) -> bool:
        """True for the total skills, whose answer is any whole number (choices only suggest some)."""
        return self.skill in (Skill.JUEGO_TOTAL, Skill.PUNTO_TOTAL)

    def label_of(self, value: Any) -> str:
        """The label of a choice value (a total is shown as its number)."""
        for v, label in self.choices:
            if v == value and type(v) is type(value):
                return label
        if isinstance(value, tuple):
            return ", ".join(_card_label(c) for c in value)
        return str(value)

    # pokerkit-style: verify_x() raises, can_x() asks, x() acts.
    def verify_response(self, response: Any) -> Any:
        """The response normalised (a seat or None, a jugada name, an int, a tuple of cards).

        Raises :class:`~musteach.rules.errors.SeatError` (a seat outside 0..3), :class:`AnswerError` (a value that
        is not a possible answer, a card not in the question, a card missing or repeated) or
        :class:`~musteach.rules.errors.UnknownCardError` (text that is not a card).
        """
        if self.lance is not None:
            return self._verify_seat(response)
        if self.skill is Skill.JUGADA:
            if isinstance(response, str) and response.strip().lower() in {v for v, _ in JUGADA_CHOICES}:
                return response.strip().lower()
            raise AnswerError(
                Text("{response} is not a jugada: answer par, medias, duples or none", response=repr(response))
            )
        if self.accepts_number:
            return self._verify_total(response)
        return self._verify_order(response)

    def is_correct(self, response: Any) -> bool:
        """True if the response is right; raises like :meth:`verify_response`."""
        given = self.verify_response(response)
        if self.skill is Skill.RANK_ORDER:
            ranks = [effective_rank(c.rank, self.rules.kings) for c in given]
            return all(a >= b for a, b in itertools.pairwise(ranks))
        return bool(given == self.answer)

    def grade(self, response: Any) -> Verdict:
        """Grade a response; raises like :meth:`verify_response` for a response that is not a possible answer.

        A wrong answer to a lance question gets two steps: the mistake diagnosis on the learner's own seat
        (:func:`~musteach.teach.diagnosis.diagnose`: which misconception gives it, or why it loses), then the
        evaluator's sentence (the :attr:`Verdict.explanation`). A wrong jugada, total or order gets its
        diagnosis (:meth:`diagnosis`) first too. The headline and diagnosis are in the language
        being spoken; the explanation is the one the question was built with."""
        _ = translator()
        given = self.verify_response(response)
        correct = self.is_correct(given)
        if correct:
            headline = _("Right!")
        elif self.accepts_number and isinstance(given, int) and isinstance(self.answer, int) and abs(given - self.answer) == 1:
            headline = _("Close, but not quite: {answer}.", answer=self.answer_text)  # a total one point off
        else:
            headline = _("Not quite: {answer}.", answer=self.answer_text)
        steps: tuple[str, ...] = ()
        if not correct and self.lance is not None and not self.rules.la_real:
            d = diagnose(self.hands, self.mano or 0, self.lance, given, self.rules)
            steps = (d.explanation, self.explanation)
        elif not correct and self.lance is None:
            found = self.diagnosis(given)
            steps = (found.text, self.explanation) if found is not None and found.text else ()
        return Verdict(correct, self.answer, given, self.explanation, self.highlight, headline, steps)

    def diagnosis(self, given: Any) -> Diagnosed | None:
        """The diagnosis of ``given`` (:func:`~musteach.teach.mistakes.diagnose_question`; RULES.md §1–§5), or None
        when it is right; raises like :meth:`verify_response`."""
        return diagnose_question(self, given)

    def _verify_seat(self, response: Any) -> int | None:
        if response is None or (isinstance(response, str) and response.strip().lower() == NOBODY):
            if self.lance in (Lance.PARES, Lance.JUEGO):
                return None
            raise AnswerError(Text("{lance} always has a winner: answer a seat 0, 1, 2 or 3", lance=self.lance.title))  # type: ignore[union-attr]
        if isinstance(response, str) and response.strip().isdigit():
            response = int(response.strip())
        try:
            return check_seat(response, "answer")
        except SeatError:
            if self.lance in (Lance.PARES, Lance.JUEGO):
                raise SeatError(
                    Text("answer must be a seat 0, 1, 2 or 3 or nobody, not {response}", response=repr(response))
                ) from None
            raise SeatError(
                Text("answer must be a seat 0, 1, 2 or 3, not {response}", response=repr(response))
            ) from None

    def _verify_total(self, response: Any) -> int:
        value = response
        if isinstance(response, str) and not response.strip():  # an empty box: no try is used
            raise BlankAnswerError(Text("Type a number first."))
        if isinstance(value, str):
            text = value.strip()
            if text.lstrip("+-").isdigit() and len(text) <= 12:
                value = int(text)
        if isinstance(value, bool) or not isinstance(value, int):
            shown = repr(response) if len(str(response)) <= 20 else repr(str(response)[:20] + "…")
            raise AnswerError(
                Text("{response} is not a whole number: type the total, a whole number from 4 to 40.", response=shown)
            )
        if not 4 <= value <= 40:
            raise AnswerError(
                Text("a hand's total is between 4 and 40 (four aces to four kings), not {value}.", value=value)
            )
        return value

    def _verify_order(self, response: Any) -> tuple[Card, ...]:
        if isinstance(response, str):
            response = response.replace(",", " ").split()
        if not isinstance(response, Sequence):
            raise AnswerError(Text("give the cards in order as a list, not {response}", response=repr(response)))
        cards = tuple(Card.parse(c) for c in response)
        shown = set(self.cards)
        for c in cards:
            if c not in shown:
                raise AnswerError(
                    Text("{card} ({code}) is not one of this question's cards", card=_CardLabel(c), code=c.code)
                )
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise AnswerError(Text("{card} ({code}) is placed twice", card=_CardLabel(twice), code=twice.code))
        if len(cards) != len(self.cards):
            missing = tuple(c for c in self.cards if c not in cards)
            raise AnswerError(Text("place every card: {cards} still missing", cards=_CardList(missing)))
        return cards


# ----------------------------------------------------------------------------------------------
# Text helpers
# ----------------------------------------------------------------------------------------------


def _card_label(card: Card) -> str:
    """The card's name, capitalised, in the language being spoken: ``"Rey de oros"``."""
    return card.name[0].upper() + card.name[1:]


class _CardLabel(Text):
    """A card's name as an error message's parameter, put into words in the message's language."""

    __slots__ = ()

    def __init__(self, card: Card) -> None:
        Text.__init__(self, "{card}", card=card)

    def render(self, lang: str | None = None) -> str:
        from ..i18n import speaking

        card = dict(self.params)["card"]
        assert isinstance(card, Card)
        with speaking(translator(lang).lang):
            return _card_label(card)


class _CardList(Text):
    """Cards' names, listed, as an error message's parameter, put into words in the message's language."""

    __slots__ = ()

    def __init__(self, cards: tuple[Card, ...]) -> None:
        Text.__init__(self, "{cards}", cards=cards)

    def render(self, lang: str | None = None) -> str:
        from ..i18n import speaking

        cards = dict(self.params)["cards"]
        assert isinstance(cards, tuple)
        with speaking(translator(lang).lang):
            return ", ".join(_card_label(c) for c in cards)


def _variant(rules: Rules) -> str:
    return "8 reyes" if rules.kings == 8 else "4 reyes"


def _order_line(_: Translator, rules: Rules) -> str:
    if rules.kings == 8:
        return _("In 8 reyes the order is R = 3 > C > S > 7 > 6 > 5 > 4 > A = 2 (a 3 plays as a king, a 2 as an ace).")
    return _("In 4 reyes the order is R > C > S > 7 > 6 > 5 > 4 > 3 > 2 > A.")


def _sorted_cards(cards: Iterable[Card], rules: Rules) -> tuple[Card, ...]:
    """High to low by effective rank; equal ranks keep the order given (a stable sort)."""
    return tuple(sorted(cards, key=lambda c: -effective_rank(c.rank, rules.kings)))


def _letters(cards: Iterable[Card]) -> str:
    """The cards' own rank letters, as ``R-3-7-5`` (a 3 stays a 3 here)."""
    return "-".join(rank_letter(c.rank) for c in cards)


#: The heading of a hand whose 3s or 2s play as kings or aces (8 reyes), by which of them it holds.
_READ_AS_HEADING = {
    frozenset({3}): N_("{cards} (a 3 plays as a king, so {read})"),
    frozenset({2}): N_("{cards} (a 2 plays as an ace, so {read})"),
    frozenset({3, 2}): N_("{cards} (a 3 plays as a king and a 2 plays as an ace, so {read})"),
}


def _hand_heading(_: Translator, hand: Hand, info: HandInfo, rules: Rules) -> str:
    """``R-R-7-5`` plus a note when a 3 or a 2 plays as a king or an ace (8 reyes)."""
    faces = frozenset(c.rank for c in hand if c.rank in (2, 3)) if rules.kings == 8 else frozenset()
    head = info.grande_str
    if faces:
        return _(_READ_AS_HEADING[faces], cards=_letters(_sorted_cards(hand, rules)), read=head)
    return head


def _jugada_explanation(_: Translator, hand: Hand, info: HandInfo, rules: Rules) -> str:
    head = _hand_heading(_, hand, info, rules)
    p = info.pares
    if p is None:
        return _("{hand}: four different ranks, nothing pairs, so no pares.", hand=head)
    if p.kind == "par":
        return _(
            "{hand}: one pair of {rank}, so par; the other two cards do not pair.", hand=head, rank=rank_plural(p.high)
        )
    if p.kind == "medias":
        return _("{hand}: three {rank}, so medias (three of a kind).", hand=head, rank=rank_plural(p.high))
    if p.high == p.low:
        return _(
            "{hand}: four {rank} count as two equal pairs, so duples, not medias.", hand=head, rank=rank_plural(p.high)
        )
    return _(
        "{hand}: a pair of {rank} and a pair of {low_rank}, so duples.",
        hand=head,
        rank=rank_plural(p.high),
        low_rank=rank_plural(p.low),
    )


#: How the figures of a hand count, as clauses: (one card, several, one with a 3 read as a king, several so).
_FIGURES = (
    (
        12,
        N_("a king counts 10"),
        N_("kings count 10 each"),
        N_("a king counts 10 (a 3 is a king)"),
        N_("kings count 10 each (a 3 is a king)"),
    ),
    (11, N_("a caballo counts 10"), N_("caballos count 10 each"), "", ""),
    (10, N_("a sota counts 10"), N_("sotas count 10 each"), "", ""),
)
#: Why a total is (not) juego, as the clause that ends the explanation.
_TOTAL_VERDICT = {
    "juego": N_("which is juego (31 or more)"),
    "31": N_("which is juego (31 or more), and 31 is the best juego"),
    "punto": N_("which is not juego, so this is its punto"),
    "no": N_("which is not juego (juego needs 31 or more)"),
}


def _figure_clauses(_: Translator, cards: Sequence[Card], kings: int) -> list[str]:
    """What each figure in the hand counts (10), read as a king where a 3 is one (8 reyes)."""
    clauses = []
    for eff, one, many, one_read, many_read in _FIGURES:
        n = sum(1 for c in cards if effective_rank(c.rank, kings) == eff)
        if n:
            read = eff == 12 and kings == 8 and any(c.rank == 3 for c in cards)
            clauses.append(_((many_read if read else many) if n > 1 else (one_read if read else one)))
    return clauses


def _low_card_clauses(_: Translator, cards: Sequence[Card], kings: int) -> list[str]:
    """What the aces (a 2 read as one in 8 reyes) and the other low cards count: 1, and their face value."""
    clauses = []
    aces = sum(1 for c in cards if effective_rank(c.rank, kings) == 1)
    if aces:
        read = kings == 8 and any(c.rank == 2 for c in cards)
        if aces > 1:
            clauses.append(_("aces count 1 each (a 2 is an ace)") if read else _("aces count 1 each"))
        else:
            clauses.append(_("an ace counts 1 (a 2 is an ace)") if read else _("an ace counts 1"))
    face = sorted({c.rank for c in cards if 1 < effective_rank(c.rank, kings) < 10}, reverse=True)
    if len(face) == 1:
        clauses.append(_("{rank} counts its face value", rank=face[0]))
    elif face:
        clauses.append(_("{ranks} count their face value", ranks=_.join([str(r) for r in face])))
    return clauses


def _total_explanation(_: Translator, hand: Hand, info: HandInfo, rules: Rules, punto: bool) -> str:
    cards = _sorted_cards(hand, rules)
    clauses = [*_figure_clauses(_, cards, rules.kings), *_low_card_clauses(_, cards, rules.kings)]
    terms = " + ".join(str(point_value(c.rank, rules.kings)) for c in cards)
    total = info.total
    if info.is_juego:
        verdict = _TOTAL_VERDICT["31" if total == 31 else "juego"]
    else:
        verdict = _TOTAL_VERDICT["punto" if punto else "no"]
    return _(
        "{cards}: {clauses}: {terms} = {total}, {verdict}.",
        cards=_letters(cards),
        clauses="; ".join(clauses),
        terms=terms,
        total=total,
        verdict=_(verdict),
    )


# ----------------------------------------------------------------------------------------------
# Building questions
# ----------------------------------------------------------------------------------------------

_LANCE_PROMPTS = {
    Lance.GRANDE: N_("Who wins Grande (the high hand)?"),
    Lance.CHICA: N_("Who wins Chica (the low hand)?"),
    Lance.PARES: N_("Who wins Pares (pairs)? If nobody holds pares, answer Nobody."),
    Lance.JUEGO: N_("Who wins Juego (31 or more)? If nobody has juego, answer Nobody."),
    Lance.PUNTO: N_("Nobody has juego, so Punto is played: who wins Punto (the highest total)?"),
}


def _lance_question(skill: Skill, kind: Kind, rng: random.Random, rules: Rules) -> Question:
    result, kind = sample_deal(skill, kind, rng, rules)
    return _lance_from_result(skill, kind, result)


def _lance_from_result(skill: Skill, kind: Kind, result: DealResult) -> Question:
    _ = translator()
    rules = result.rules
    lance = skill.lance
    assert lance is not None
    lr = result[lance]
    choices: tuple[tuple[Any, str], ...] = tuple((s, _("Seat {seat}", seat=s)) for s in range(4))
    if lance in (Lance.PARES, Lance.JUEGO):
        choices += ((None, _("Nobody")),)
    if lr.winner is None:
        answer_text = _("nobody holds pares") if lance is Lance.PARES else _("nobody has juego")
    else:
        answer_text = _("seat {seat} wins {lance}", seat=lr.winner, lance=lance.title)
    prompt = _(
        "{question} Seat {mano} is mano ({variant}).",
        question=_(_LANCE_PROMPTS[lance]),
        mano=result.mano,
        variant=_variant(rules),
    )
    return Question(
        skill, kind, prompt, result.hands, (), result.mano, lance, rules, choices, lr.winner,
        lr.explanation, lr.winner, answer_text, result, None,
    )  # fmt: skip


def _hand_question(skill: Skill, kind: Kind, rng: random.Random, rules: Rules) -> Question:
    hand, kind = sample_hand(skill, kind, rng, rules)
    return _hand_from(skill, kind, hand, rules, rng)


_JUGADA_ANSWERS = {
    "par": N_("it is par"),
    "medias": N_("it is medias"),
    "duples": N_("it is duples"),
    "none": N_("it has no pares"),
}


def _hand_from(skill: Skill, kind: Kind, hand: Hand, rules: Rules, rng: random.Random) -> Question:
    _ = translator()
    info = analyse(hand, rules)
    v = _variant(rules)
    if skill is Skill.JUGADA:
        answer: Any = info.pares.kind if info.pares else "none"
        prompt = _("What does this hand hold for Pares: par, medias, duples or no pares? ({variant})", variant=v)
        choices: tuple[tuple[Any, str], ...] = tuple((key, _(label)) for key, label in JUGADA_CHOICES)
        answer_text = _(_JUGADA_ANSWERS[answer])
        explanation = _jugada_explanation(_, hand, info, rules)
    else:
        punto = skill is Skill.PUNTO_TOTAL
        answer = info.total
        if punto:
            prompt = _(
                "Nobody has juego, so Punto is played. What is this hand's punto (its total of points)? ({variant})",
                variant=v,
            )
            answer_text = _("the punto is {total}", total=answer)
        else:
            prompt = _(
                "What is this hand's total of points for Juego, and is it juego (31 or more)? ({variant})", variant=v
            )
            answer_text = _("the total is {total}", total=answer)
        choices = tuple((t, str(t)) for t in _total_choices(hand, info, rules, rng, punto))
        explanation = _total_explanation(_, hand, info, rules, punto)
    return Question(
        skill, kind, prompt, (hand,), hand.cards, None, None, rules, choices, answer,
        explanation, None, answer_text, None, info,
    )  # fmt: skip


def _total_choices(hand: Hand, info: HandInfo, rules: Rules, rng: random.Random, punto: bool) -> list[int]:
    """The right total and three plausible slips: figures at face value, 3s and 2s misread, off by one or ten."""
    right = info.total
    other_variant = rules.replace(kings=4 if rules.kings == 8 else 8)  # 3s and 2s misread
    slips = [sum(c.rank for c in hand), analyse(hand, other_variant).total]
    slips += [right + d for d in (1, -1, 10, -10, 2, -2)]
    options = [right]
    hi = 30 if punto else 40
    for t in slips:
        if 4 <= t <= hi and t not in options and t not in (38, 39):
            options.append(t)
        if len(options) == 4:
            break
    while len(options) < 4:  # pragma: no cover - the slips always give enough
        t = rng.randint(4, hi)
        if t not in options:
            options.append(t)
    return sorted(options)


def _rank_question(kind: Kind, rng: random.Random, rules: Rules) -> Question:
    cards, kind = sample_cards(kind, rng, rules)
    return _rank_from(kind, cards, rules)


def _rank_from(kind: Kind, cards: tuple[Card, ...], rules: Rules) -> Question:
    _ = translator()
    order = _sorted_cards(cards, rules)
    groups: list[list[Card]] = []
    for c in order:
        if groups and effective_rank(groups[-1][0].rank, rules.kings) == effective_rank(c.rank, rules.kings):
            groups[-1].append(c)
        else:
            groups.append([c])
    chain = " > ".join(" = ".join(c.name for c in g) for g in groups)
    order_line = _order_line(_, rules)
    explanation = _("{order} High to low: {chain}.", order=order_line, chain=chain)
    answer_text = _(
        "high to low is {ranks}", ranks=", ".join(" = ".join(rank_letter(c.rank) for c in g) for g in groups)
    )
    prompt = _("Put these {n} cards in order, highest first ({variant}).", n=len(cards), variant=_variant(rules))
    choices = tuple((c, _card_label(c)) for c in cards)
    return Question(
        Skill.RANK_ORDER, kind, prompt, (), cards, None, None, rules, choices, order,
        explanation, None, answer_text, None, None,
    )  # fmt: skip


def _classify_deal(skill: Skill, result: DealResult) -> Kind:
    for kind in kinds_for(skill, result.rules):
        if fits_kind(skill, kind, result):
            return kind
    return Kind.UNIFORM


def lance_question(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    lance: Lance | str,
    rules: Rules | None = None,
    *,
    lang: str | None = None,
) -> Question:
    """A "who wins this lance?" question on a chosen deal (for a lesson's fixed examples).

    hands: 4 hands of 4 cards, indexed by seat; mano: seat 0..3; lance: a :class:`Lance` or its name.
    The question's ``kind`` names the first instructive property the deal has ("tie_to_mano", ...), else
    "uniform". lang: the language of its sentences (None: the language being spoken).
    Raises what :func:`~musteach.rules.lances.evaluate` raises for a bad deal, and :class:`QuizError`
    for a Punto question on a deal where somebody has juego (Punto is not played, RULES.md §4).

    >>> q = lance_question(["12o 3c 7e 5b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 2b"], 0, "grande")
    >>> q.answer, q.grade(1).headline
    (0, 'Not quite: seat 0 wins Grande.')
    """
    with speaking(lang):
        skill = Skill.parse(Lance.parse(lance))
        result = evaluate(hands, mano, rules)
        if skill is Skill.PUNTO and result.punto.winner is None:
            raise QuizError(Text("Punto is not played on this deal: {why}", why=result.punto.explanation))
        return _lance_from_result(skill, _classify_deal(skill, result), result)


def hand_question(
    hand: Hand | str | Sequence[Card | str],
    skill: Skill | str = Skill.JUGADA,
    rules: Rules | None = None,
    *,
    lang: str | None = None,
) -> Question:
    """A one-hand question on a chosen hand: ``skill`` is "jugada", "juego_total" or "punto_total".
    lang: the language of its sentences (None: the language being spoken).

    Raises the :class:`~musteach.rules.cards.Hand` errors for a bad hand, and :class:`QuizError` for another skill,
    or a punto question on a hand that has juego.

    >>> hand_question("12o 3c 7e 5b", "juego_total").answer
    32
    """
    with speaking(lang):
        skill = Skill.parse(skill)
        if skill not in (Skill.JUGADA, Skill.JUEGO_TOTAL, Skill.PUNTO_TOTAL):
            raise QuizError(
                Text("hand_question asks jugada, juego_total or punto_total, not {skill}", skill=skill.value)
            )
        rules = rules or Rules()
        h = hand if isinstance(hand, Hand) else Hand(hand)
        if skill is Skill.PUNTO_TOTAL and analyse(h, rules).is_juego:
            raise QuizError(
                Text(
                    "{hand} has juego ({total}), so it has no punto to ask about",
                    hand=str(h),
                    total=analyse(h, rules).total,
                )
            )
        kind = next((k for k in kinds_for(skill, rules) if hand_test(skill, k, rules)(h)), Kind.UNIFORM)
        return _hand_from(skill, kind, h, rules, random.Random(str(h)))


def rank_question(cards: Iterable[Card | str], rules: Rules | None = None, *, lang: str | None = None) -> Question:
    """An "order these cards, highest first" question on chosen cards (2 to 8 distinct cards).
    lang: the language of its sentences (None: the language being spoken).

    Raises :class:`~musteach.rules.errors.UnknownCardError` for a bad card and :class:`AnswerError` for a
    repeated card or a count outside 2..8.

    >>> [c.code for c in rank_question(["1o", "3c", "12b", "7e"]).answer]
    ['3c', '12b', '7e', '1o']
    """
    with speaking(lang):
        rules = rules or Rules()
        cs = tuple(Card.parse(c) for c in (cards.split() if isinstance(cards, str) else cards))
        if len(set(cs)) != len(cs):
            raise AnswerError(Text("a card appears twice: {cards}", cards=" ".join(c.code for c in cs)))
        if not 2 <= len(cs) <= 8:
            raise AnswerError(Text("give 2 to 8 cards to order, not {n}", n=len(cs)))
        ranks = {c.rank for c in cs}
        eight = rules.kings == 8 and ((3 in ranks and ranks & {12, 11}) or (2 in ranks and ranks & {1, 4}))
        return _rank_from(Kind.THREES_AS_KINGS if eight else Kind.UNIFORM, cs, rules)


def _as_rng(rng: random.Random | int | None) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)


def _check_share(share: float) -> float:
    if isinstance(share, bool) or not isinstance(share, int | float) or not 0.0 <= share <= 1.0:
        raise QuizError(Text("instructive_share must be a number from 0 to 1, not {share}", share=repr(share)))
    return float(share)


def make_question(
    skill: Skill | str,
    rng: random.Random | int | None = None,
    rules: Rules | None = None,
    instructive_share: float = 0.4,
    *,
    kinds: Iterable[Kind | str] | None = None,
    kind: Kind | str | None = None,
    lang: str | None = None,
) -> Question:
    """One question practising ``skill``.

    rng: a :class:`random.Random` (or an int seed); the same state always gives the same question.
    rules: the :class:`Rules` (default 8 reyes). instructive_share: the chance (0..1) that the question is
    built to teach one point (a :class:`Kind` other than "uniform") rather than drawn uniformly.
    kinds: the instructive kinds allowed (default: all that fit the skill and rules, :func:`kinds_for`).
    kind: force one kind (raises :class:`QuizError` if it does not fit the skill).
    lang: the language of the question's sentences (None: the language being spoken); they are written when
    the question is made.

    Instructive deals are found by bounded rejection sampling over random deals (a few milliseconds);
    if none turns up within the bound, the question falls back to "uniform" and says so in ``kind``.
    Raises :class:`QuizError` for an unknown skill or kind, or a share outside 0..1.
    """
    with speaking(lang):
        skill = Skill.parse(skill)
        rules = rules or Rules()
        if not isinstance(rules, Rules):
            raise QuizError(Text("rules must be a musteach.Rules, not {rules}", rules=repr(rules)))
        rng = _as_rng(rng)
        share = _check_share(instructive_share)
        available = kinds_for(skill, rules)
        if kind is not None:
            chosen = Kind.parse(kind)
            if chosen is not Kind.UNIFORM and chosen not in available:
                raise QuizError(
                    Text(
                        "kind {kind} does not apply to {skill} under {variant}",
                        kind=repr(chosen.value),
                        skill=skill.value,
                        variant=_variant(rules),
                    )
                )
        else:
            if kinds is not None:
                wanted = [Kind.parse(k) for k in kinds]
                available = tuple(k for k in available if k in wanted)
            chosen = Kind.UNIFORM
            if available and rng.random() < share:
                chosen = rng.choice(available)
        if skill.lance is not None:
            return _lance_question(skill, chosen, rng, rules)
        if skill is Skill.RANK_ORDER:
            return _rank_question(chosen, rng, rules)
        return _hand_question(skill, chosen, rng, rules)


class QuestionGenerator:
    """An endless, reproducible stream of questions over some skills.

    skills: one or more :class:`Skill` (or names); each question picks one at random.
    seed: an int (the same seed gives the same questions) or None. rules, instructive_share, kinds, lang:
    as in :func:`make_question` (lang None: each question in the language spoken when it is drawn).
    Raises :class:`QuizError` for an unknown skill or kind, or no skills.
    """

    def __init__(
        self,
        skills: Iterable[Skill | str] | Skill | str,
        seed: int | None = None,
        rules: Rules | None = None,
        instructive_share: float = 0.4,
        *,
        kinds: Iterable[Kind | str] | None = None,
        lang: str | None = None,
    ):
        if isinstance(skills, str | Skill | Lance):
            skills = [skills]
        self.skills: tuple[Skill, ...] = tuple(Skill.parse(s) for s in skills)
        if not self.skills:
            raise QuizError(Text("a quiz needs at least one skill"))
        self.rules = rules or Rules()
        if not isinstance(self.rules, Rules):
            raise QuizError(Text("rules must be a musteach.Rules, not {rules}", rules=repr(rules)))
        self.instructive_share = _check_share(instructive_share)
        self.kinds: tuple[Kind, ...] | None = None if kinds is None else tuple(Kind.parse(k) for k in kinds)
        self.seed = seed
        self.lang = lang
        self.rng = random.Random(seed)
        self.count = 0

    def next(self) -> Question:
        """The next question."""
        skill = self.skills[0] if len(self.skills) == 1 else self.rng.choice(self.skills)
        q = make_question(skill, self.rng, self.rules, self.instructive_share, kinds=self.kinds, lang=self.lang)
        self.count += 1
        return q

    def __next__(self) -> Question:
        return self.next()

    def __iter__(self) -> Iterator[Question]:
        return self
