"""The coach: what it would do in a learner's place, and its structured comment on the learner's decision
(RULES.md §3, §4, §6; the exact odds of :mod:`musteach.odds`).

:func:`coach_comment` is the one judgement a view shows: a frozen :class:`CoachComment` saying whether the
coach agrees, the sentence to show, and the numbers behind it. :func:`advise` gives the coach's own action
with its reason, :func:`comment` the short sentence on an action, :func:`exact_odds_sentence` and
:func:`exact_discard_sentence` the exact engine's words. :func:`prepare` builds the tables they need once.

>>> from musteach.play.game import Game
>>> g = Game(seed=3)
>>> c = coach_comment(g.view(0), "no hay mus")
>>> c.text.startswith("The mus: you said no hay mus with "), c.agreed == (c.advice == c.action)
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..i18n import N_, speaking, translator
from ..odds import SENAS as ODDS_SENAS
from ..odds import DiscardAdvice, HandOdds, advise_discard, hand_odds, position_name, prepare_advisor
from ..play.actions import Declare, Discard, GameAction, Record, parse_action
from ..play.bots import Advice, OddsBot
from ..play.deals import deal_pool, keys_for, rank_facts
from ..play.events import Phase
from ..play.game import Game
from ..play.seat_models import seat_models
from ..play.view import View
from ..rules.betting import ORDAGO, Action
from ..rules.cards import Card
from ..rules.errors import IllegalActionError, MusError
from ..rules.lances import Lance, effective_rank, ranks_text
from ..rules.options import Rules
from ..rules.senas import ODDS_NAMES
from .grading import (
    DecisionGrade,
    Grade,
    Method,
    chance_loss_text,
    chance_text,
    close_text,
    grade_decision,
)

__all__ = [
    "CoachComment",
    "action_words",
    "advise",
    "coach_bot",
    "coach_comment",
    "comment",
    "exact_discard_sentence",
    "exact_odds_sentence",
    "grade_sentence",
    "phase_title",
    "phase_words",
    "prepare",
    "said_words",
    "turn_prompt",
]

@lru_cache(maxsize=1)
def coach_bot() -> OddsBot:
    """The coach's own player: it weighs its chances like :class:`~musteach.play.bots.OddsBot`. Made on first
    use, by the first comment that needs it."""
    return OddsBot(name="coach")


@dataclass(frozen=True, slots=True)
class CoachComment:
    """The coach's word on one decision of the learner, computed before it is played.

    action: the learner's decision. advice: what the coach would have done (None for a declaration, which
    only the truth decides, RULES.md §4). agreed: True when the coach would do the same (for a discard: the
    same ranks changed). text: the whole sentence to show. reason: the coach's reason alone.
    exact: how the figures were computed ("" when there are none). team_wins: kept for callers, no longer
    computed (None): the betting figures are the rollouts' stones. discard_stones / best_discard_stones: the
    stones (en paso, rounded to 0.1) the learner's mus or discard and the best one are worth, by the exact
    advisor (8 reyes only); None when not computed. grade: the :class:`~musteach.teach.grading.DecisionGrade`
    behind the text.
    """

    action: GameAction
    advice: GameAction | None
    agreed: bool
    text: str
    reason: str
    exact: str = ""
    team_wins: float | None = None
    discard_stones: float | None = None
    best_discard_stones: float | None = None
    grade: DecisionGrade | None = None

    def __str__(self) -> str:
        return self.text


# ----------------------------------------------------------------------------------------------
# Words
# ----------------------------------------------------------------------------------------------


#: A phase as a noun phrase (the betting phases are named by their lance's title).
_PHASE_WORDS: dict[Phase, str] = {
    Phase.START: N_("start"),
    Phase.MUS: N_("the mus"),
    Phase.DISCARD: N_("the discard"),
    Phase.DECLARE_PARES: N_("the pares declaration"),
    Phase.DECLARE_JUEGO: N_("the juego declaration"),
    Phase.OVER: N_("over"),
    Phase.NEXT_HAND: N_("next hand"),
}


#: A phase as a heading, its first word capitalised as the language writes a heading.
_PHASE_TITLES: dict[Phase, str] = {
    Phase.START: N_("Start"),
    Phase.MUS: N_("The mus"),
    Phase.DISCARD: N_("The discard"),
    Phase.DECLARE_PARES: N_("The pares declaration"),
    Phase.DECLARE_JUEGO: N_("The juego declaration"),
    Phase.OVER: N_("Over"),
    Phase.NEXT_HAND: N_("Next hand"),
}


def phase_title(phase: Phase, *, lang: str | None = None) -> str:
    """``"The mus"``, ``"The discard"``, ``"The pares declaration"``, ``"Grande"``...: a phase as a heading (the
    table's centre, the start of a coach's comment), shown as given; in ``lang`` (None: the language being
    spoken). :func:`phase_words` gives it inside a sentence.

    >>> phase_title(Phase.MUS), phase_title(Phase.MUS, lang="es"), phase_title(Phase.BET_GRANDE)
    ('The mus', 'El mus', 'Grande')
    """
    with speaking(lang):
        if phase in _PHASE_TITLES:
            return translator()(_PHASE_TITLES[phase])
        return phase.lance.title if phase.lance is not None else phase.value


def phase_words(phase: Phase, *, lang: str | None = None) -> str:
    """``"the mus"``, ``"the discard"``, ``"the pares declaration"``, ``"Grande"``...: a phase in words inside a
    sentence, in ``lang`` (None: the language being spoken). :func:`phase_title` gives it as a heading."""
    with speaking(lang):
        if phase in _PHASE_WORDS:
            return translator()(_PHASE_WORDS[phase])
        return phase.lance.title if phase.lance is not None else phase.value


def action_words(action: GameAction, *, lang: str | None = None, kings: int = 8) -> str:
    """A decision in words: ``"changing R-7"`` for a discard (the lessons' hand notation, the cards read with
    ``kings`` 8 or 4 reyes, RULES.md §1), else the action's own text."""
    with speaking(lang):
        if isinstance(action, Discard):
            _ = translator()
            return _("changing {cards}", cards=ranks_text(action.cards, kings))
        return str(action)


def said_words(record: Record, *, lang: str | None = None) -> str:
    """What a seat said, as a bubble over its seat shows it: ``"changes 2"`` for a discard, else the text."""
    with speaking(lang):
        if isinstance(record, Discard):
            _ = translator()
            return _("changes {count}", count=len(record.cards))
        return str(record)


def turn_prompt(view: View, *, lang: str | None = None) -> str:
    """What the learner at ``view.seat`` is asked when it is its decision (RULES.md §3, §4, §6), e.g.
    ``"Your turn: the Grande betting. Paso, envido, or órdago?"``; in ``lang`` (None: the language being
    spoken)."""
    with speaking(lang):
        return _turn_prompt(view)


def _turn_prompt(view: View) -> str:
    _ = translator()
    phase, lance, b = view.phase, view.phase.lance, view.betting
    if phase is Phase.MUS:
        return _("Your turn: mus (change cards) or no hay mus (play these)?")
    if phase is Phase.DISCARD:
        return _("Your turn: mark 1 to 4 cards to change (the toggle under each card), then press Discard.")
    if lance is None:
        return _("Your turn.")
    if phase.is_declaration:
        return _("Your turn: do you hold {lance}? Say it truthfully.", lance=lance.value)
    if b is not None and b.facing_bet:
        stake = b.current_stake
        theirs = b.betting_team != view.team
        if stake == ORDAGO:  # an órdago cannot be raised (RULES.md §6)
            if theirs:
                return _("Your turn: the other team bet órdago in {lance}: quiero or no quiero.", lance=lance.title)
            return _("Your turn: your team bet órdago in {lance}: quiero or no quiero.", lance=lance.title)
        if theirs:
            return _(
                "Your turn: the other team bet {stake} stones in {lance}: quiero, no quiero, or raise.",
                stake=stake, lance=lance.title,
            )  # fmt: skip
        return _(
            "Your turn: your team bet {stake} stones in {lance}: quiero, no quiero, or raise.",
            stake=stake, lance=lance.title,
        )  # fmt: skip
    return _("Your turn: the {lance} betting. Paso, envido, or órdago?", lance=lance.title)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _effective_ranks(cards: Iterable[Card], rules: Rules) -> list[int]:
    return sorted((effective_rank(c.rank, rules.kings) for c in cards), reverse=True)


# ----------------------------------------------------------------------------------------------
# The exact engine
# ----------------------------------------------------------------------------------------------


def _exact_odds(view: View) -> HandOdds | None:
    names = tuple(
        ODDS_NAMES[s.key] for s in view.partner_senas if s.key in ODDS_NAMES and ODDS_NAMES[s.key] in ODDS_SENAS
    )
    try:
        return hand_odds(view.hand, view.seat, view.mano, view.rules, senas=names)
    except MusError:
        return None


def _exact_discards(view: View) -> DiscardAdvice | None:
    if view.rules.kings != 8:  # the 4-reyes advisor needs a minute the first time
        return None
    try:
        return advise_discard(view.hand, view.seat, view.mano, view.rules)
    except MusError:
        return None


def exact_odds_sentence(view: View, lance: Lance | str | None = None, *, lang: str | None = None) -> str:
    """The exact odds of ``view``'s hand in a lance, in one sentence, from :func:`musteach.odds.hand_odds`
    (every deal of the unseen cards counted, given the partner's señas; bets and declarations are not
    taken into account). ``""`` when there is no lance or the odds engine cannot answer. lang: a language
    code, None for the one being spoken.
    """
    with speaking(lang):
        lance = Lance.parse(lance) if lance is not None else view.lance
        odds = _exact_odds(view) if lance is not None else None
        return odds.explain(lance) if odds is not None and lance is not None else ""


def _discard_sentence(adv: DiscardAdvice, discard: Iterable[Card] | None) -> tuple[str, float | None]:
    text = adv.explain("balanced")
    if discard is None:
        return text, None
    thrown = sorted(c.index for c in discard)
    mine = next((o for o in adv.options if sorted(c.index for c in o.discard) == thrown), None)
    if mine is None:
        return text, None
    if mine is not adv.best("balanced"):
        _ = translator()
        mine_text = _(
            "Your change ({cards}): {value} stones.", cards=ranks_text(mine.discard), value=_.number(float(mine.balanced), 2)
        )
        text += f" {mine_text}"
    return text, float(mine.balanced)


def exact_discard_sentence(view: View, discard: Iterable[Card] | None = None, *, lang: str | None = None) -> str:
    """The exact discard advisor's word on ``view``'s hand (:func:`musteach.odds.advise_discard`, aim
    "balanced": the most stones en paso), and, given the learner's ``discard``, what that change is worth.

    8 reyes only (the 4-reyes advisor needs a minute the first time); ``""`` when it cannot answer.
    lang: a language code, None for the one being spoken.
    """
    with speaking(lang):
        adv = _exact_discards(view)
        return _discard_sentence(adv, discard)[0] if adv is not None else ""


# ----------------------------------------------------------------------------------------------
# The coach's advice and comments
# ----------------------------------------------------------------------------------------------


def advise(view: View, coach: OddsBot | None = None, *, exact: bool = False, lang: str | None = None) -> Advice:
    """What the coach would do in ``view``'s position, and why (for the learner's screen).

    exact: add the exact odds of the hand in the lance being bet (:func:`exact_odds_sentence`). lang: the
    language of the reason (None: the one being spoken).
    """
    with speaking(lang):
        adv = (coach or coach_bot()).advise(view)
        if exact and view.lance is not None:
            extra = exact_odds_sentence(view)
            if extra:
                _ = translator()
                reason = _("{reason} Exact odds before any bet: {odds}", reason=adv.reason, odds=extra)
                return Advice(adv.action, reason)
        return adv


def _same(action: GameAction, advice: GameAction, rules: Rules) -> bool:
    if isinstance(action, Discard) and isinstance(advice, Discard):
        return _effective_ranks(action.cards, rules) == _effective_ranks(advice.cards, rules)
    if isinstance(action, Action) and isinstance(advice, Action):
        return action.kind == advice.kind
    return str(action) == str(advice)


def _verdict(action: GameAction, adv: Advice, rules: Rules) -> tuple[bool, str]:
    _ = translator()
    if _same(action, adv.action, rules):
        return True, _("Agreed: {reason}", reason=adv.reason)
    if isinstance(adv.action, Discard):
        cards = ranks_text(adv.action.cards, rules.kings)
        return False, _("The coach would change {cards}: {reason}", cards=cards, reason=adv.reason)
    return False, _("The coach would say {action}: {reason}", action=str(adv.action), reason=adv.reason)


def comment(view: View, action: GameAction | str, coach: OddsBot | None = None, *, lang: str | None = None) -> str:
    """A coach's comment on ``action`` played from ``view`` (before it is played): ``"Agreed: ..."`` or
    ``"The coach would say ...: ..."``. Raises :class:`~musteach.rules.errors.IllegalActionError` for an
    action text it cannot read.

    >>> from musteach.play.game import Game
    >>> g = Game(seed=3)
    >>> comment(g.view(0), "mus").split(":")[0] in ("Agreed", "The coach would say no hay mus")
    True
    """
    with speaking(lang):
        a = parse_action(action, view.phase)
        return _verdict(a, advise(view, coach), view.rules)[1]


def grade_sentence(grade: DecisionGrade, *, lang: str | None = None) -> str:
    """The grade of a decision in one sentence, each figure stated once and rounded once (points of win
    chance with their stone equivalent), with the lance and the moment it refers to; the action it
    recommends is the best by its own figures, equal figures are called equal, and a loss whose standard
    error is more than a quarter of its tier's width is "too close to call" (no tier named). E.g.
    ``"A mistake (Grande, before any bet): envido 2 is worth +1.3 points of win chance (+0.8 stones), your
    paso -0.7 points of win chance (-0.4 stones): 2.0 points of win chance lost (1.2 stones)."``
    lang: a language code, None for the one being spoken (the grade's ``moment`` is in the language it was
    graded in).
    """
    with speaking(lang):
        return _grade_sentence(grade)


def _grade_sentence(grade: DecisionGrade) -> str:
    _ = translator()
    if grade.method is Method.TRUTH:
        return _("Declarations must be truthful (RULES.md §4): best.")
    if grade.lance is not None and grade.phase.is_betting:
        where = _("{lance}, {moment}", lance=grade.lance.title, moment=grade.moment)
    else:
        where = grade.moment
    best, mine, rate = grade.best, grade.chosen, grade.per_stone

    def fig(x: float) -> str:
        return chance_text(x, rate)

    def words(a: GameAction) -> str:
        return action_words(a, kings=grade.kings)

    if grade.loss == 0:
        same = grade.equal_to
        if same is not None and not grade.too_close:  # too close to call: never a tier, "Best" included
            return _(
                "Best ({where}): {action} and {other} are worth the same here, {figure}.",
                where=where, action=words(mine.action), other=words(same.action), figure=fig(mine.stones),
            )  # fmt: skip
        rest = [v for v in grade.values if v is not mine]
        if rest and grade.too_close and rest[0].stones > mine.stones:  # the halves of the deals disagreed
            return _(
                "Too close to call ({where}): {best} is ahead of your {action} by {difference}.",
                where=where, best=words(rest[0].action), action=words(mine.action),
                difference=close_text(rest[0].stones - mine.stones, grade.sampling_error, rate),
            )  # fmt: skip
        if rest and grade.too_close:  # the margin and its error, no figure that reads as a tier
            return _(
                "Too close to call ({where}): your {action} is ahead of {next} by {difference}.",
                where=where, action=words(mine.action), next=words(rest[0].action),
                difference=close_text(mine.stones - rest[0].stones, grade.sampling_error, rate),
            )  # fmt: skip
        if rest:
            return _(
                "Best ({where}): {action} is worth {figure}; next best: {next}, {next_figure}.",
                where=where, action=words(mine.action), figure=fig(mine.stones),
                next=words(rest[0].action), next_figure=fig(rest[0].stones),
            )  # fmt: skip
        return _("Best ({where}): {action} is worth {figure}.", where=where, action=words(mine.action), figure=fig(mine.stones))
    if grade.too_close:
        return _(
            "Too close to call ({where}): {best} is ahead of your {action} by {difference}.",
            where=where, best=words(best.action), action=words(mine.action),
            difference=close_text(grade.loss, grade.sampling_error, rate),
        )  # fmt: skip
    return _(
        "{grade} ({where}): {best} is worth {best_figure}, your {action} {figure}: {loss}.",
        grade=_cap(grade.grade.article), where=where,
        best=words(best.action), best_figure=fig(best.stones),
        action=words(mine.action), figure=fig(mine.stones), loss=chance_loss_text(grade.loss, rate),
    )  # fmt: skip


def coach_comment(
    view: View, action: GameAction | str, coach: OddsBot | None = None, *, lang: str | None = None,
    level: str | None = None,
) -> CoachComment:
    """The coach's structured comment on the learner's ``action`` from ``view``, before it is played: its grade
    (:func:`musteach.teach.grading.grade_decision`: what every legal action and the learner's change in the
    chance of winning the game, in points with their stone equivalents, the points lost, and the tier, or
    "too close to call" when the sampling error blurs it) in one sentence, and how the figures were computed.

    The coach's advice is the best action by those figures, so a comment never recommends an action its own
    numbers rank lower. A declaration is only checked for truth (RULES.md §4). With 4 reyes a mus or a
    discard is graded by sampled en-paso values (the exact advisor is for 8 reyes).
    Raises :class:`~musteach.rules.errors.IllegalActionError` for an action text it cannot read or an action
    that is not legal now. lang: the language of the comment (None: the one being spoken,
    :func:`musteach.i18n.speaking`). level: who sits with the learner, the level of the three bots
    (``"beginner"``, ``"club"``, ``"strong"``, or a table's bot kind, see
    :data:`musteach.play.seat_models.LEVEL_MODELS`; None: strong): the betting figures weigh the hidden
    hands and play the lance out as those bots play (:func:`musteach.play.seat_models.seat_models`). Raises
    :class:`MusError` naming an unknown level.
    """
    with speaking(lang):
        return _coach_comment(view, action, coach, level or "strong")


def _coach_comment(view: View, action: GameAction | str, coach: OddsBot | None, level: str = "strong") -> CoachComment:
    _ = translator()
    a = parse_action(action, view.phase)
    head = _(
        "{phase}: you said {action} with {hand} {position}.",
        phase=phase_title(view.phase), action=action_words(a, kings=view.rules.kings), hand=view.info.grande_str,
        position=position_name(view.position),
    )  # fmt: skip
    seats = seat_models(level, view.seat)  # a bad level is the caller's error, raised before the grade
    try:
        grade = grade_decision(view, a, seats=seats)
    except IllegalActionError:
        raise
    except MusError:
        grade = None
    if grade is None:
        adv = advise(view, coach)
        agreed, said = _verdict(a, adv, view.rules)
        return CoachComment(a, adv.action, agreed, f"{head} {said}", adv.reason)
    if isinstance(a, Declare):
        reason = _("Declarations must be truthful (RULES.md §4).")
        return CoachComment(a, None, True, f"{head} {reason}", reason, grade=grade)
    sentence = grade_sentence(grade)
    how = grade.how()
    mine = best = None
    if grade.method in (Method.EXACT_EN_PASO, Method.SAMPLED_EN_PASO):
        mine, best = grade.chosen.equivalent, grade.best.equivalent
    return CoachComment(
        a,
        grade.best.action,
        grade.grade is Grade.BEST,
        f"{head} {sentence} {how}",
        sentence,
        how,
        None,
        mine,
        best,
        grade,
    )


def prepare(rules: Rules) -> None:
    """Build, once per process and deck, what the coach and the bots use (a few tenths of a second, numpy-free):
    the deal pool and the tables that judge sampled deals (:mod:`musteach.play.deals`), the hand values the
    discard choice reads (shipped, :mod:`musteach.play.tables`; sampled under la real, seconds), the exact
    advisor (8 reyes; disk-cached under la real) and the odds."""
    deal_pool()
    rank_facts(rules.kings)
    keys_for(rules)
    g = Game(rules, seed=0)
    for seat in range(4):
        advise(g.view(seat))
        if rules.kings == 8:
            prepare_advisor(rules, seat, 0)
    hand_odds(g.view(0).hand, 0, 0, rules)
