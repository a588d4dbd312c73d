"""Reading the odds: quiz questions on how often a hand's team wins a lance (pure logic, no Jupyter).

Each question shows one seat's four cards and its place at the table, and asks how often that seat's
team wins a lance. The answer is one of five bands (under 20%, 20 to 40%, ... 80% or more), and the
correct band comes from the exact count of :func:`musteach.odds.hand_odds` (RULES.md §2, §4, §5).
Generated questions stay clear of the band edges (3 points by default), so a fair guess is never
a coin toss.

>>> q = odds_question("12o 3c 11e 1b", seat=0, mano=0, lance="grande")
>>> q.answer, q.answer_text, round(q.probability, 3)
(4, '80% or more', 0.947)
>>> q.grade(4).correct, q.grade("20 to 40%").correct
(True, False)
>>> q.grade(9)
Traceback (most recent call last):
...
musteach.teach.errors.AnswerError: answer with one of the bands 0-4 (under 20%, 20 to 40%, 40 to 60%, 60 to 80%, 80% or more), not 9
>>> gen = OddsQuestionGenerator(seed=3)
>>> q = gen.next()
>>> min(abs(q.probability - edge) for edge in BAND_EDGES) >= MARGIN
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..i18n import N_, Text, check_lang, speaking, translator
from ..odds import HandOdds, hand_odds
from ..rules.cards import DECK, Card, Hand, parse_hand
from ..rules.lances import Lance, check_seat, effective_rank
from ..rules.options import Rules
from .bands import BAND_EDGES, BANDS, band_of
from .mistakes import Diagnosed, diagnose_odds
from .quiz import Answerable, AnswerError, QuizError
from .verdict import Verdict

__all__ = [
    "BANDS",
    "BAND_EDGES",
    "MARGIN",
    "QUIZ_LANCES",
    "OddsQuestion",
    "OddsQuestionGenerator",
    "band_of",
    "odds_question",
]

#: The odds question by the seat's distance from mano (0 = mano ... 3 = postre).
_PROMPTS: tuple[str, ...] = (
    N_("You hold {hand} as mano ({kings} reyes). How often does your team win {lance}?"),
    N_("You hold {hand} and speak second ({kings} reyes). How often does your team win {lance}?"),
    N_("You hold {hand} and speak third ({kings} reyes). How often does your team win {lance}?"),
    N_("You hold {hand} as postre ({kings} reyes). How often does your team win {lance}?"),
)
#: Generated questions keep the team's probability at least this far from every band edge.
MARGIN = 0.03
#: The lances generated questions ask about (Punto is played only when nobody has juego).
QUIZ_LANCES: tuple[str, ...] = ("grande", "chica", "pares", "juego")
_MAX_TRIES = 400
_TARGETS = (1, 2, 3, 4)


@dataclass(frozen=True)
class OddsQuestion(Answerable):
    """One question: how often does this seat's team win ``lance``?

    hand: the seat's :class:`~musteach.rules.cards.Hand`; seat, mano: seats 0..3; lance: the
    :class:`~musteach.rules.lances.Lance`; rules: the :class:`~musteach.rules.Rules`; odds: the exact
    :class:`~musteach.odds.HandOdds`. prompt: the question sentence. choices: :data:`BANDS`.
    answer: the correct band 0..4; answer_text: its label. explanation: :meth:`HandOdds.explain` of the
    lance and the percentage. highlight: always None (no seat to light up).
    """

    hand: Hand
    seat: int
    mano: int
    lance: Lance
    rules: Rules
    prompt: str
    choices: tuple[tuple[int, str], ...]
    answer: int
    answer_text: str
    explanation: str
    highlight: int | None = None
    odds: HandOdds | None = field(default=None, repr=False, compare=False)

    @property
    def probability(self) -> float:
        """The team's exact probability of winning the lance (a float)."""
        assert self.odds is not None
        return float(self.odds[self.lance].team)

    @property
    def position(self) -> int:
        """The seat's distance from mano: 0 = mano ... 3 = postre."""
        return (self.seat - self.mano) % 4

    def label_of(self, value: Any) -> str:
        """The label of a band value."""
        return dict(self.choices).get(value, str(value))

    # pokerkit-style: verify_x() raises, can_x() asks, x() acts.
    def verify_response(self, response: Any) -> int:
        """The response as a band 0..4 (a band number or its label, in the question's language or English).

        Raises :class:`~musteach.teach.errors.AnswerError` for anything else.
        """
        if isinstance(response, str):
            text = response.strip().lower()
            for v, label in (*self.choices, *BANDS):
                if text == label.lower():
                    return v
        elif isinstance(response, int) and not isinstance(response, bool) and response in dict(self.choices):
            return response
        bands = ", ".join(label for _, label in self.choices)
        raise AnswerError(Text("answer with one of the bands 0-4 ({bands}), not {value}", bands=bands, value=repr(response)))

    def diagnosis(self, given: Any) -> Diagnosed | None:
        """The diagnosis of ``given`` (:func:`~musteach.teach.mistakes.diagnose_odds`; RULES.md §4, §5), or None when it is
        right; raises like :meth:`grade`."""
        return diagnose_odds(self, given)

    def grade(self, response: Any) -> Verdict:
        """A :class:`~musteach.teach.quiz.Verdict` (a wrong band's diagnosis first, then the explanation); raises
        like :meth:`verify_response`."""
        _ = translator()
        given = self.verify_response(response)
        correct = given == self.answer
        headline = _("Right!") if correct else _("Not quite: {answer}.", answer=self.answer_text)
        steps: tuple[str, ...] = ()
        if not correct:
            found = self.diagnosis(given)
            steps = (found.text, self.explanation) if found is not None and found.text else ()
        return Verdict(correct, self.answer, given, self.explanation, None, headline, steps)


def odds_question(
    hand: Hand | str | Iterable[Any],
    seat: int = 0,
    mano: int = 0,
    lance: Lance | str = "grande",
    rules: Rules | None = None,
    *,
    lang: str | None = None,
) -> OddsQuestion:
    """The question "how often does your team win ``lance``?" for one hand at one place at the table, in
    ``lang`` (None: the language being spoken, :func:`musteach.i18n.speaking`).

    hand: 4 cards; seat, mano: seats 0..3; lance: a lance name; rules: a :class:`~musteach.rules.Rules`.
    Raises the errors of :func:`~musteach.odds.hand_odds`, or :class:`~musteach.rules.errors.MusError` for an
    unknown lance.
    """
    with speaking(lang):
        return _odds_question(hand, seat, mano, lance, rules)


def _odds_question(
    hand: Hand | str | Iterable[Any], seat: int, mano: int, lance: Lance | str, rules: Rules | None
) -> OddsQuestion:
    _ = translator()
    h = parse_hand(hand)
    ln = Lance.parse(lance)
    seat, mano = check_seat(seat), check_seat(mano, "mano")
    odds = hand_odds(h, seat, mano, rules)
    p = float(odds[ln].team)
    answer = band_of(p)
    kings = odds.rules.kings
    prompt = _(_PROMPTS[(seat - mano) % 4], hand=odds.info.grande_str, kings=kings, lance=ln.title)
    explanation = _("{odds} That is {percent}.", odds=odds.explain(ln), percent=_.percent(p, 1))
    choices = tuple((v, _(label)) for v, label in BANDS)
    label = dict(choices)[answer]
    return OddsQuestion(h, seat, mano, ln, odds.rules, prompt, choices, answer, label, explanation, None, odds)


class OddsQuestionGenerator:
    """An endless, reproducible source of :class:`OddsQuestion` (random hands, places and lances).

    seed: an int (the same seed gives the same questions) or None. lances: names to ask about (default
    :data:`QUIZ_LANCES`). rules: a :class:`~musteach.rules.Rules`. margin: the least distance (0 to 0.1)
    between the answer's probability and a band edge. lang: the language of the questions (None: the one
    being spoken when each is asked, :func:`musteach.i18n.speaking`).
    Raises :class:`~musteach.teach.errors.QuizError` for no lances or a bad margin, :class:`MusError` for an
    unknown lance, ``LanguageError`` for a language the tutor does not speak.
    """

    def __init__(
        self,
        seed: int | None = None,
        lances: Iterable[Lance | str] = QUIZ_LANCES,
        rules: Rules | None = None,
        margin: float = MARGIN,
        *,
        lang: str | None = None,
    ):
        self.lang = check_lang(lang) if lang is not None else None
        self.lances = tuple(Lance.parse(x) for x in ([lances] if isinstance(lances, str | Lance) else lances))
        if not self.lances:
            raise QuizError(Text("an odds quiz needs at least one lance to ask about"))
        if isinstance(margin, bool) or not isinstance(margin, int | float) or not 0 <= margin <= 0.1:
            raise QuizError(Text("margin must be a number from 0 to 0.1, not {value}", value=repr(margin)))
        self.rules = rules if rules is not None else Rules()
        if not isinstance(self.rules, Rules):
            raise QuizError(Text("rules must be a musteach Rules, not {value}", value=repr(rules)))
        self.margin = float(margin)
        self.rng = random.Random(seed)
        self.asked: set[tuple[tuple[int, ...], int, Lance]] = set()

    def next(self) -> OddsQuestion:
        """The next question, never one already asked by this generator (the same ranks, place and lance
        are the same question: suits never matter); raises :class:`~musteach.teach.errors.QuizError` if none
        clears the margin."""
        with speaking(self.lang):
            return self._next()

    def _next(self) -> OddsQuestion:
        # Random hands mostly land in "20 to 40%": aim at a band first so every answer comes up. A team
        # almost never wins a lance less than 1 time in 5 (the partner's cards help), so band 0 is not aimed at.
        target = self.rng.choice(_TARGETS)
        for tries in range(_MAX_TRIES):
            cards: list[Card] = self.rng.sample(DECK, 4)  # shown high to low, as the prompt names them
            cards.sort(key=lambda c: -effective_rank(c.rank, self.rules.kings))
            hand = Hand(cards)
            lance = self.rng.choice(self.lances)
            mano = self.rng.randrange(4)
            seat = (mano + self.rng.randrange(4)) % 4
            key = (tuple(effective_rank(c.rank, self.rules.kings) for c in hand.cards), (seat - mano) % 4, lance)
            if key in self.asked:
                continue
            q = odds_question(hand, seat, mano, lance, self.rules)
            if min(abs(q.probability - e) for e in BAND_EDGES) < self.margin:
                continue
            if q.answer == target or tries >= _MAX_TRIES // 2:
                self.asked.add(key)
                return q
        raise QuizError(
            Text(
                "no question kept its answer {margin} away from a band edge in {tries} tries",
                margin=str(self.margin), tries=_MAX_TRIES,
            )
        )  # fmt: skip

    def __next__(self) -> OddsQuestion:
        return self.next()

    def __iter__(self) -> Iterator[OddsQuestion]:
        return self
