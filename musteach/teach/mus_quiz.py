"""The mus quiz: which cards would you change? (pure logic, no Jupyter; RULES.md §3, §7).

Everybody has said *mus*, so each player discards 1 to 4 cards. Each question shows one hand, its place
at the table and an aim (win Grande, Chica, Pares, Juego, Punto, or the most stones *en paso*); the
learner picks one of four ways of changing cards. The right answer is the best of them by the exact
count of :func:`musteach.odds.advise_discard` (every possible draw, every deal of the other cards).
Generated questions keep every wrong choice clearly worse than the best one (:data:`MARGINS`), so a
good answer is never a coin toss. Discards that change the same ranks are the same choice (suits
never matter in Mus).

>>> q = discard_question("12o 11c 6e 4b", aim="grande")
>>> q.answer_text
'Change 6-4, keep R-C'
>>> wrong = next(key for key, _ in q.choices if key != q.answer)
>>> q.grade(q.answer).correct, q.grade(wrong).correct
(True, False)

8 reyes only: in 4 reyes the advisor's first count takes minutes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..i18n import Text, check_lang, speaking, translator
from ..odds import AIMS, DiscardAdvice, DiscardOption, advise_discard, position_name
from ..rules.cards import DECK, Card, Hand, parse_hand
from ..rules.errors import MusError
from ..rules.lances import Lance, check_seat, effective_rank, rank_letter
from ..rules.options import Rules
from .mistakes import Diagnosed, diagnose_discard
from .quiz import KeyedChoices, QuizError
from .verdict import Verdict

__all__ = ["MARGINS", "DiscardQuestion", "DiscardQuestionGenerator", "discard_question", "option_label"]

#: The least gap between the best choice and every wrong one: a probability for a lance aim, stones for
#: the "balanced" aim (expected stones en paso over the five lances).
MARGINS: dict[str, float] = {"lance": 0.03, "balanced": 0.15}
_MAX_TRIES = 300


def _letters(cards: Iterable[Card], kings: int) -> str:
    ranks = sorted((effective_rank(c.rank, kings) for c in cards), reverse=True)
    return "-".join(rank_letter(r) for r in ranks)


def option_label(option: DiscardOption, kings: int = 8, *, lang: str | None = None) -> str:
    """``"Change 6-4, keep R-C"`` (ranks high to low; ``"Change all four"`` when nothing is kept), in
    ``lang`` (None: the language being spoken)."""
    _ = translator(lang)
    if not option.keep:
        return _("Change all four")
    return _("Change {discard}, keep {keep}", discard=_letters(option.discard, kings), keep=_letters(option.keep, kings))


def _group_key(option: DiscardOption, kings: int) -> tuple[int, ...]:
    return tuple(sorted((effective_rank(c.rank, kings) for c in option.discard), reverse=True))


def _score_text(value: float, aim: str) -> str:
    _ = translator()
    figure = _.number(value, 2)
    return _("{value} stones", value=figure) if aim == "balanced" else figure


@dataclass(frozen=True)
class DiscardQuestion(KeyedChoices):
    """One question: which cards would you change, for this aim?

    hand: the 4 cards (high to low); seat, mano: seats 0..3; aim: one of :data:`musteach.odds.AIMS`;
    rules: the :class:`~musteach.rules.Rules`. prompt: the question. choices: four ``(key, label)`` pairs,
    the key being the discarded cards' codes (``"6e 4b"``). answer: the best choice's key; answer_text
    its label. scores: each choice's value for the aim (the team's chance, or stones). explanation: the
    advisor's sentence and every choice's value. advice: the whole
    :class:`~musteach.odds.DiscardAdvice`. highlight: always None.
    """

    hand: Hand
    seat: int
    mano: int
    aim: str
    rules: Rules
    prompt: str
    choices: tuple[tuple[str, str], ...]
    answer: str
    answer_text: str
    scores: dict[str, float]
    explanation: str
    highlight: int | None = None
    advice: DiscardAdvice | None = field(default=None, repr=False, compare=False)

    @property
    def position(self) -> int:
        """The seat's distance from mano: 0 = mano ... 3 = postre."""
        return (self.seat - self.mano) % 4

    @property
    def answer_cards(self) -> tuple[Card, ...]:
        """The cards the best discard changes (the answer's cards, in hand order)."""
        thrown = set(self.answer.split())
        return tuple(c for c in self.hand if c.code in thrown)

    def key_of(self, response: Any) -> str | None:
        """The choice key a response names: the key itself, its label, or the discarded cards (any suits)."""
        key = super().key_of(response)
        if key is not None or not isinstance(response, list | tuple) or not response:
            return key
        if not all(isinstance(c, Card | str) for c in response):
            return None
        try:
            cards = [Card.parse(c) for c in response]
        except MusError:
            return None
        kings = self.rules.kings
        want = sorted((effective_rank(c.rank, kings) for c in cards), reverse=True)
        for k, _ in self.choices:
            have = sorted((effective_rank(Card.parse(c).rank, kings) for c in k.split()), reverse=True)
            if have == want:
                return k
        return None

    def diagnosis(self, given: Any) -> Diagnosed | None:
        """The diagnosis of ``given`` (:func:`~musteach.teach.mistakes.diagnose_discard`; RULES.md §3), or None when it is
        right; raises like :meth:`grade`."""
        return diagnose_discard(self, given)

    def grade(self, response: Any) -> Verdict:
        """A :class:`~musteach.teach.quiz.Verdict`; a wrong answer's explanation starts with what it gives and its
        diagnosis (:meth:`diagnosis`)."""
        _ = translator()
        given = self.verify_response(response)
        if given == self.answer:
            return Verdict(True, self.answer, given, self.explanation, None, _("Right!"))
        mine = _score_text(self.scores[given], self.aim)
        best = _score_text(self.scores[self.answer], self.aim)
        found = self.diagnosis(given)
        why = found.text if found is not None else ""
        told = " ".join(t for t in (why, self.explanation) if t)
        text = _(
            "'{choice}' gives {mine}, the best gives {best}. {explanation}",
            choice=self.label_of(given), mine=mine, best=best, explanation=told,
        )  # fmt: skip
        return Verdict(False, self.answer, given, text, None, _("Not quite: {answer}.", answer=self.answer_text))


def _groups(advice: DiscardAdvice, aim: str) -> list[tuple[DiscardOption, float]]:
    """One option per set of discarded ranks, best first, with its score for the aim."""
    kings = advice.rules.kings
    seen: dict[tuple[int, ...], tuple[DiscardOption, float]] = {}
    for o in advice.options:
        key = _group_key(o, kings)
        if key not in seen:
            seen[key] = (o, float(o.score(aim)))
    return sorted(seen.values(), key=lambda x: (-x[1], len(x[0].discard)))


def _build(
    advice: DiscardAdvice, aim: str, options: list[tuple[DiscardOption, float]], rng: random.Random
) -> DiscardQuestion:
    _ = translator()
    kings = advice.rules.kings
    best = options[0]
    chosen = list(options)
    rng.shuffle(chosen)
    choices = tuple((" ".join(c.code for c in o.discard), option_label(o, kings)) for o, _ in chosen)
    scores = {" ".join(c.code for c in o.discard): s for o, s in chosen}
    key = " ".join(c.code for c in best[0].discard)
    where = position_name((advice.seat - advice.mano) % 4)
    info = advice.current.info
    if aim == "balanced":
        prompt = _(
            "Everybody said mus. You hold {hand} {where} ({kings} reyes). "
            "For the most stones en paso (every lance passed, no bets), which cards do you change?",
            hand=info.grande_str, where=where, kings=kings,
        )  # fmt: skip
    else:
        prompt = _(
            "Everybody said mus. You hold {hand} {where} ({kings} reyes). To win {lance}, which cards do you change?",
            hand=info.grande_str, where=where, kings=kings, lance=Lance.parse(aim).title,
        )  # fmt: skip
    ranked = sorted(options, key=lambda x: -x[1])  # best first: the values read in order
    values = "; ".join(f"{_lower(option_label(o, kings))}: {_score_text(s, aim)}" for o, s in ranked)
    # the gap between the two figures as shown (to 2 decimals), so that it reads off them exactly
    gap = _score_text(round(ranked[0][1], 2) - round(ranked[1][1], 2), aim) if len(ranked) > 1 else None
    if aim == "balanced":
        explanation = _(
            "{advice} Over every possible draw, stones your team expects: {values}.",
            advice=advice.explain(aim), values=values,
        )  # fmt: skip
    else:
        explanation = _(
            "{advice} Over every possible draw, your team's chance of winning {lance}: {values}.",
            advice=advice.explain(aim), lance=Lance.parse(aim).title, values=values,
        )  # fmt: skip
    if gap is not None:
        explanation += " " + _("The best beats the next choice by {gap}.", gap=gap)
    return DiscardQuestion(
        advice.hand, advice.seat, advice.mano, aim, advice.rules, prompt, choices, key, option_label(best[0], kings),
        scores, explanation, None, advice,
    )  # fmt: skip


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _check(rules: Rules | None, aim: str) -> tuple[Rules, str]:
    r = rules if rules is not None else Rules()
    if not isinstance(r, Rules):
        raise QuizError(Text("rules must be a musteach Rules, not {value}", value=repr(rules)))
    if r.kings != 8:
        raise QuizError(Text("the mus quiz counts 8 reyes games only (in 4 reyes its first count takes minutes)"))
    a = str(aim).strip().lower()
    if a not in AIMS:
        raise MusError(Text("unknown aim {aim}: use one of {aims}", aim=repr(aim), aims=", ".join(AIMS)))
    return r, a


def _pick(
    groups: list[tuple[DiscardOption, float]], aim: str, rng: random.Random, current: float | None = None, k: int = 4
) -> list[tuple[DiscardOption, float]] | None:
    margin = MARGINS["balanced" if aim == "balanced" else "lance"]
    best = groups[0]
    if current is not None and best[1] < current:
        return None  # keeping the hand is better: a player would have cut the mus (no hay mus)
    worse = [g for g in groups[1:] if g[1] <= best[1] - margin]
    if len(worse) < k - 1:
        return None
    picked = [worse[0]]  # the nearest miss teaches most
    rest = worse[1:]
    rng.shuffle(rest)
    picked += rest[: k - 2]
    return [best, *picked]


def discard_question(
    hand: Hand | str | Iterable[Card | str],
    seat: int = 0,
    mano: int = 0,
    aim: str = "balanced",
    rules: Rules | None = None,
    *,
    seed: int | random.Random | None = None,
    lang: str | None = None,
) -> DiscardQuestion:
    """The question "which cards do you change?" for one hand, place at the table and aim, in ``lang``
    (None: the language being spoken, :func:`musteach.i18n.speaking`).

    The four choices are the best discard and three others (the nearest clearly worse one first); fewer
    when the hand has fewer distinct discards. Raises the errors of :func:`~musteach.odds.advise_discard`,
    :class:`QuizError` for 4 reyes or when no discard is clearly best.
    """
    with speaking(lang):
        return _discard_question(hand, seat, mano, aim, rules, seed)


def _discard_question(
    hand: Hand | str | Iterable[Card | str],
    seat: int,
    mano: int,
    aim: str,
    rules: Rules | None,
    seed: int | random.Random | None,
) -> DiscardQuestion:
    r, a = _check(rules, aim)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    h = parse_hand(hand)
    advice = advise_discard(h, check_seat(seat), check_seat(mano, "mano"), r, aim=a)
    groups = _groups(advice, a)
    picked = _pick(groups, a, rng)
    if picked is None:
        margin = MARGINS["balanced" if a == "balanced" else "lance"]
        raise QuizError(
            Text(
                "no discard of {hand} is best by {margin} or more for {aim}",
                hand=advice.current.info.grande_str, margin=str(margin), aim=a,
            )
        )  # fmt: skip
    return _build(advice, a, picked, rng)


class DiscardQuestionGenerator:
    """An endless, reproducible source of :class:`DiscardQuestion`: hands worth changing for the aim (the
    best discard beats keeping them), with one clearly best discard.

    seed: an int or None. aims: the aims to ask about (default grande, chica, pares, juego). positions:
    distances from mano to ask at (default ``(0,)``, mano: each new distance costs the advisor a first
    count of a couple of seconds). rules: a :class:`~musteach.rules.Rules` (8 reyes). lang: the language of
    the questions (None: the one being spoken when each is asked, :func:`musteach.i18n.speaking`).
    Raises :class:`QuizError` for no aims, a bad position or 4 reyes; :class:`MusError` for an unknown aim,
    ``LanguageError`` for a language the tutor does not speak.
    """

    def __init__(
        self,
        seed: int | None = None,
        aims: Iterable[str] = ("grande", "chica", "pares", "juego"),
        positions: Iterable[int] = (0,),
        rules: Rules | None = None,
        *,
        lang: str | None = None,
    ):
        self.lang = check_lang(lang) if lang is not None else None
        aims = [aims] if isinstance(aims, str) else list(aims)
        if not aims:
            raise QuizError(Text("a mus quiz needs at least one aim"))
        checked = [_check(rules, a) for a in aims]
        self.rules = checked[0][0]
        self.aims = tuple(a for _, a in checked)
        self.positions = tuple(positions)
        if not self.positions or any(isinstance(p, bool) or p not in (0, 1, 2, 3) for p in self.positions):
            raise QuizError(Text("positions are distances from mano, 0 to 3, not {value}", value=repr(self.positions)))
        self.rng = random.Random(seed)

    def next(self) -> DiscardQuestion:
        """The next question; raises :class:`QuizError` if no hand gives a clear best discard."""
        with speaking(self.lang):
            return self._next()

    def _next(self) -> DiscardQuestion:
        aim = self.rng.choice(self.aims)
        for _ in range(_MAX_TRIES):
            cards: list[Card] = self.rng.sample(DECK, 4)
            cards.sort(key=lambda c: (-effective_rank(c.rank, self.rules.kings), -c.rank))
            hand = Hand(cards)
            pos = self.rng.choice(self.positions)
            mano = self.rng.randrange(4)
            advice = advise_discard(hand, (mano + pos) % 4, mano, self.rules, aim=aim)
            current = float(advice.current_score(aim))
            picked = _pick(_groups(advice, aim), aim, self.rng, current)
            if picked is not None:
                return _build(advice, aim, picked, self.rng)
        raise QuizError(Text("no hand gave a clearly best discard in {tries} tries", tries=_MAX_TRIES))

    def __next__(self) -> DiscardQuestion:
        return self.next()

    def __iter__(self) -> Iterator[DiscardQuestion]:
        return self
