"""What the tutor says while a question is still open: its two hint steps, and the message after a wrong
first answer, for every question kind (issue 12). Pure Python, no Jupyter.

* :func:`question_hints` dispatches to :mod:`.hints` by question kind.
* :func:`retry_text` is shown after a wrong first answer, before the second try. It names the idea that
  led the learner astray without giving the answer away: for a lance question, the misconception that
  :func:`~musteach.teach.diagnosis.diagnose` finds (:data:`RETRY_TIPS`); for the betting, count and señas
  quizzes, the sentence of :mod:`.why_wrong` on the learner's own answer.

>>> from musteach.teach.quiz import lance_question
>>> q = lance_question(["3o 3c 7e 4b", "12c 11o 7c 6e", "1o 5c 6o 10e", "4c 5e 6c 7o"], 0, "grande")
>>> print(retry_text(q, 1))
Careful with the 3s: in 8 reyes every 3 is a king (it counts 10). One more try.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, Translator, speaking, translator
from ..rules.lances import Lance
from .count_quiz import BettingQuestion, CountQuestion
from .diagnosis import Mistake, diagnose
from .hints import (
    Hint,
    Mark,
    betting_hints,
    count_hints,
    hand_hints,
    lance_hints,
    rank_hints,
    sena_hints,
)
from .mistakes import OddsMistake, diagnose_answer
from .mus_quiz import DiscardQuestion
from .odds_quiz import OddsQuestion
from .quiz import Question
from .senas_quiz import SenaQuestion
from .skills import Skill
from .why_wrong import why_betting_wrong, why_count_wrong, why_meaning_wrong

__all__ = [
    "RETRY_TIPS",
    "SLIP_TIP",
    "SLIP_TIP_NO_HINT",
    "hand_retry_tip",
    "knows",
    "question_hints",
    "retry_text",
    "skill_of",
]

#: One sentence per misconception that says what to look at again, without naming the winner (English msgids,
#: translated where used).
RETRY_TIPS: dict[Mistake, str] = {
    Mistake.THREE_IS_NOT_KING: N_("Careful with the 3s: in 8 reyes every 3 is a king (it counts 10)."),
    Mistake.TWO_IS_NOT_ACE: N_("Careful with the 2s: in 8 reyes every 2 is an ace (it counts 1)."),
    Mistake.THREE_AND_TWO_AT_FACE: N_(
        "Careful with the 3s and the 2s: in 8 reyes every 3 is a king (it counts 10) and every 2 an ace (it counts 1)."
    ),
    Mistake.CHICA_FROM_THE_TOP: N_("In Chica the hands are compared from their lowest card up, not from the top."),
    Mistake.QUADS_NOT_DUPLES: N_("Four cards of one rank are duples (two equal pairs), not medias."),
    Mistake.PARES_BY_RANK_NOT_KIND: N_(
        "In Pares the kind comes first: duples beat medias, and medias beat a par, whatever the ranks."
    ),
    Mistake.JUEGO_BY_TOTAL: N_(
        "Juego does not go to the highest total: 31 is best, then 32, then 40, 37, 36, 35, 34, 33."
    ),
    Mistake.TIE_NOT_TO_MANO: N_("An exact tie goes to the tied seat nearer mano, in speaking order."),
    Mistake.PUNTO_WITH_JUEGO: N_("Punto is only played when nobody at the table has juego (31 or more)."),
}
#: The tip for a wrong answer that no misconception explains, while a hint step is left.
SLIP_TIP = N_("Look again at each hand, or take a hint.")
#: The same once both hint steps are shown: no hint is offered that the learner cannot take.
SLIP_TIP_NO_HINT = N_("Look again at each hand.")
#: The tip for a wrong answer to a question kind the tutor has no hints for (a plug-in practice source's).
SLIP_TIP_PLAIN = N_("Look again.")


def skill_of(question: Any) -> str:
    """The progress skill a question's answers are recorded under (what lesson 11's scheduler practises):
    the :class:`~musteach.teach.skills.Skill` of a lance, hand or rank question, else ``"betting"``,
    ``"count"``, ``"senas"``, ``"mus"`` or ``"odds"``. Raises :class:`TypeError` for anything else."""
    if isinstance(question, Question):
        return question.skill.value
    for kind, name in _SKILL_NAMES:
        if isinstance(question, kind):
            return name
    raise TypeError(f"no skill for {type(question).__name__}: not a musteach quiz question")  # a programming error


_SKILL_NAMES: tuple[tuple[type, str], ...] = (
    (BettingQuestion, "betting"),
    (CountQuestion, "count"),
    (SenaQuestion, "senas"),
    (DiscardQuestion, "mus"),
    (OddsQuestion, "odds"),
)


def knows(question: Any) -> bool:
    """True for a question kind the tutor has hints and retry tips for (every musteach quiz question; not a
    plug-in practice source's own kind)."""
    return isinstance(question, Question) or any(isinstance(question, kind) for kind, _ in _SKILL_NAMES)


def question_hints(question: Any, *, lang: str | None = None) -> tuple[Hint, Hint]:
    """The two hint steps of any quiz question (lance, jugada, totals, rank order, betting, count, señas,
    discards, odds), in ``lang`` (None: the language being spoken). Raises :class:`TypeError` for an object
    that is not a musteach question."""
    with speaking(lang):
        if isinstance(question, Question):
            if question.lance is not None:
                return lance_hints(question.hands, question.mano or 0, question.lance, question.rules)
            if question.skill is Skill.RANK_ORDER:
                return rank_hints(question.cards, question.rules)
            assert question.hand is not None
            return hand_hints(question.hand, question.skill.value, question.rules)
        if isinstance(question, BettingQuestion):
            return betting_hints(question.state)
        if isinstance(question, CountQuestion):
            return count_hints(question.deal)
        if isinstance(question, SenaQuestion):
            if question.mode == "fit":
                return sena_hints(question.hand, question.rules)
            return sena_hints(None, question.rules, sena=question.sena)
        if isinstance(question, DiscardQuestion):
            return _discard_hints(question)
        if isinstance(question, OddsQuestion):
            return _odds_hints(question)
        raise TypeError(f"no hints for {type(question).__name__}: not a musteach quiz question")


def _discard_hints(q: DiscardQuestion) -> tuple[Hint, Hint]:
    _ = translator()
    step1 = _(
        "Think of the aim first: keep the cards that already serve it (kings for Grande, aces and low cards "
        "for Chica, pairs for Pares, figures for Juego) and change the others."
    )
    thrown = set(q.answer.split())
    keep = tuple(i for i, c in enumerate(q.hand.cards) if c.code not in thrown)
    text = _("The best change keeps the marked cards.") if keep else _("The best change keeps none of these cards.")
    return Hint(1, step1), Hint(2, text, (Mark(None, keep),) if keep else ())


def _odds_hints(q: OddsQuestion) -> tuple[Hint, Hint]:
    _ = translator()
    step1 = _(
        "Your partner's cards count too: your team wins if either of you has the best hand. Being mano, or "
        "near it, wins the ties."
    )
    _, step2 = lance_hint_for_hand(q)
    return Hint(1, step1), step2


def lance_hint_for_hand(q: OddsQuestion) -> tuple[Hint, Hint]:
    """Step 2 of an odds question: the cards of ``q.hand`` that matter in its lance (kings for Grande, aces
    for Chica, pairs for Pares, the total for Juego and Punto)."""
    from ..rules.lances import analyse, effective_rank

    _ = translator()
    info = analyse(q.hand, q.rules)
    k = q.rules.kings
    ranks = [effective_rank(c.rank, k) for c in q.hand.cards]
    if q.lance is Lance.GRANDE:
        cards = tuple(i for i in range(4) if ranks[i] == 12)
        text = _.ngettext(
            "Your hand holds {n} king: they win Grande.", "Your hand holds {n} kings: they win Grande.", len(cards)
        )
    elif q.lance is Lance.CHICA:
        cards = tuple(i for i in range(4) if ranks[i] == 1)
        text = _.ngettext(
            "Your hand holds {n} ace: they win Chica.", "Your hand holds {n} aces: they win Chica.", len(cards)
        )
    elif q.lance is Lance.PARES:
        cards = tuple(i for i in range(4) if ranks.count(ranks[i]) >= 2)
        text = (
            _("Your hand holds {jugada}.", jugada=info.pares.describe())
            if info.pares
            else _("Your hand holds no pares.")
        )
    else:
        cards = ()
        text = _("Your hand adds up to {total}.", total=info.total)
    return Hint(1, ""), Hint(2, text, (Mark(None, cards),) if cards else (), info.total)


def retry_text(question: Any, given: Any, *, hint_left: bool = True, lang: str | None = None) -> str:
    """What the learner reads after a wrong first answer ``given`` (normalised, as in the verdict), before
    the second try: the idea that led astray, or why the pick is wrong, without the answer and without
    repeating hint step 1. hint_left: False once both hint steps are shown, so no hint is offered.
    Raises like the question's grading. lang: the language (None: the language being spoken)."""
    with speaking(lang):
        _ = translator()
        tip = _tip(_, question, given, hint_left)
        return _("{tip} One more try.", tip=tip)


def _tip(_: Translator, question: Any, given: Any, hint_left: bool) -> str:
    slip = _(SLIP_TIP) if hint_left else _(SLIP_TIP_NO_HINT)
    if not knows(question):
        return _(SLIP_TIP_PLAIN)
    if isinstance(question, Question) and question.lance is not None:
        d = diagnose(question.hands, question.mano or 0, question.lance, given, question.rules)
        return _(RETRY_TIPS[d.mistake]) if d.mistake is not None else slip
    if isinstance(question, Question):
        return hand_retry_tip(question, given)
    if isinstance(question, BettingQuestion):
        o = question.state.outcome
        assert o is not None
        return why_betting_wrong(o, question.answer, given, question.state.rules, reveal=False)
    if isinstance(question, CountQuestion):
        return why_count_wrong(question.result, given, reveal=False)
    if isinstance(question, SenaQuestion):
        if question.mode == "meaning":
            return why_meaning_wrong(question.answer, given, question.rules)
        why = question.reasons.get(given, "")
        return _("{why}.", why=why[:1].upper() + why[1:]) if why else slip
    if isinstance(question, DiscardQuestion):
        found = diagnose_answer(question, given)
        return found.text if found is not None else slip
    found = diagnose_answer(question, given)
    if found is not None and found.tags[0] in (OddsMistake.PARTNER_LEFT_OUT, OddsMistake.NOT_PLAYED_LEFT_OUT):
        return found.text
    return _(
        "That is not the closest answer: look again at the cards that matter in this lance, yours and your partner's."
    )


def hand_retry_tip(question: Question, given: Any) -> str:
    """Why a wrong answer ``given`` to a jugada, total or rank-order question is wrong, without the answer
    (RULES.md §1, §5): the sentence of its diagnosis (:func:`~musteach.teach.mistakes.diagnose_answer`): what the
    picked jugada needs, whether a typed total is too high or too low, which two cards are out of order, and
    the card misreadings that give the answer (a 3 or a 2 taken at its face in 8 reyes, figures counted by their
    number...). Raises like the question's grading."""
    found = diagnose_answer(question, given)
    return "" if found is None else found.text
