"""Grading a learner's decision by the stones it costs (RULES.md §3, §4, §6, §7).

For one decision, :func:`grade_decision` gives the expected stones of every legal action and of the
learner's own (an :class:`ActionValue` each, best first), the stones lost against the best, and a
:class:`Grade` by that loss. How each figure is computed (its :class:`Method`):

* the mus and the discard (:attr:`Method.EXACT_EN_PASO`): the exact discard advisor
  (:func:`musteach.odds.advise_discard`, 8 reyes): the stones the learner's team expects en paso over every
  deal of the unseen cards, with the hand as it is (no hay mus) or after the best discard (mus), or after
  each of the 15 discards. Exact: no sampling error. The betting that follows is not added. With 4 reyes
  (:attr:`Method.SAMPLED_EN_PASO`) the same figures come from the strong level's hand values
  (:func:`musteach.play.odds_bot.keep_values`: every draw weighed exactly, each hand's value sampled);
* the betting (:attr:`Method.ROLLOUT`): :func:`musteach.play.rollout.betting_values`: the net stones of
  the lance being bet (the learner's team's minus the opponents'), averaged over random deals of the unseen
  cards that fit the partner's señas and the declarations, judged as the batched evaluator judges them
  (numpy-free, :mod:`musteach.play.deals`), each candidate action followed by the lance played to its end by
  a fast model of the strong level's betting, counting the whole lance (deje, accepted stakes and values, órdago; RULES.md §6, §7). Every action is
  judged on the same deals, so the loss's sampling error (:attr:`DecisionGrade.loss_error`) is small.
  Near the end of a game (a team :data:`~musteach.play.rollout.NEAR_END` stones or fewer from the target)
  the figures are instead the team's chance of winning the game after the lance, in points of 100
  (:attr:`DecisionGrade.unit`), and the comment says so;
* a declaration (:attr:`Method.TRUTH`): only the truth may be said (RULES.md §4), so it is always best.

The tiers, by the stones lost (figures rounded once to 0.1 stone, the loss taken between the rounded figures):
best 0.0; good up to 0.2; inaccuracy up to 0.5; mistake up to 1.5; blunder above 1.5 (:data:`GRADE_LIMITS`).
Near the end, by the points of win chance lost (rounded to 1): best 0; good up to 2; inaccuracy up to 5;
mistake up to 15; blunder above 15 (:data:`CHANCE_LIMITS`).

>>> grade_for(0.0), grade_for(0.2), grade_for(0.5), grade_for(1.5), grade_for(1.6)
(<Grade.BEST: 'best'>, <Grade.GOOD: 'good'>, <Grade.INACCURACY: 'inaccuracy'>, <Grade.MISTAKE: 'mistake'>, <Grade.BLUNDER: 'blunder'>)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from ..i18n import N_, Text, speaking, translator
from ..odds import advise_discard
from ..play.actions import Declare, Discard, GameAction, MusCall, cards_text
from ..play.deals import pairwise_std
from ..play.events import Phase
from ..play.odds_bot import keep_values
from ..play.rollout import (
    BET_AT,
    ORDAGO_AT,
    RAISE_AT,
    ROLLOUT_DEALS,
    Unit,
    betting_values,
    chance_against_bet,
    rollout_action,
    team_chance,
)
from ..play.view import View
from ..rules.betting import ORDAGO, Action
from ..rules.errors import MusError
from ..rules.lances import Lance, effective_rank

__all__ = [
    "BET_AT",
    "CHANCE_LIMITS",
    "GRADE_LIMITS",
    "ORDAGO_AT",
    "RAISE_AT",
    "ROLLOUT_DEALS",
    "ActionValue",
    "DecisionGrade",
    "Grade",
    "Method",
    "Unit",
    "figure_text",
    "grade_decision",
    "grade_for",
    "chance_against_bet",
    "rollout_action",
    "team_chance",
    "loss_text",
    "stones_text",
]


class Grade(Enum):
    """A decision's tier by the stones it loses against the best action (see :data:`GRADE_LIMITS`)."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def article(self) -> str:
        """``"a good move"``, ``"an inaccuracy"``, ``"a mistake"``...: the grade as a noun, with its article, in
        the language being spoken (:func:`musteach.i18n.speaking`)."""
        return translator()(_ARTICLES[self.value])


_ARTICLES: dict[str, str] = {
    "best": N_("the best move"),
    "good": N_("a good move"),
    "inaccuracy": N_("an inaccuracy"),
    "mistake": N_("a mistake"),
    "blunder": N_("a blunder"),
}


#: The most stones (rounded to 0.1) a decision may lose and keep each grade; above the last: a blunder.
GRADE_LIMITS: tuple[tuple[Grade, float], ...] = (
    (Grade.BEST, 0.0),
    (Grade.GOOD, 0.2),
    (Grade.INACCURACY, 0.5),
    (Grade.MISTAKE, 1.5),
)

#: Near the end of a game: the most points of win chance (of 100, rounded to 1) a decision may lose and
#: keep each grade; above the last: a blunder.
CHANCE_LIMITS: tuple[tuple[Grade, float], ...] = (
    (Grade.BEST, 0.0),
    (Grade.GOOD, 2.0),
    (Grade.INACCURACY, 5.0),
    (Grade.MISTAKE, 15.0),
)


def grade_for(loss: float, unit: Unit = Unit.STONES) -> Grade:
    """The :class:`Grade` of a decision that loses ``loss`` (≥ 0) against the best action: stones
    (:data:`GRADE_LIMITS`), or points of win chance near the end of a game (:data:`CHANCE_LIMITS`).

    Raises :class:`MusError` for a negative or not-a-number loss.
    """
    if not loss >= 0:
        if unit is Unit.STONES:
            raise MusError(Text("a loss of stones is 0 or more, not {value}", value=repr(loss)))
        raise MusError(Text("a loss of win chance is 0 or more, not {value}", value=repr(loss)))
    limits, digits = (GRADE_LIMITS, 1) if unit is Unit.STONES else (CHANCE_LIMITS, 0)
    for grade, limit in limits:
        if round(loss, digits) <= limit + 1e-9:
            return grade
    return Grade.BLUNDER


class Method(Enum):
    """How a decision's figures are computed (see the module docstring)."""

    TRUTH = "truth"
    EXACT_EN_PASO = "exact en paso"
    SAMPLED_EN_PASO = "sampled en paso"
    ROLLOUT = "rollout"


def _figure_count(x: float) -> int:
    """The count that picks a figure's plural form: 1 for exactly one (``"1.0 stone"``), else 2 (plural)."""
    return 1 if abs(x) == 1 else 2


def stones_text(x: float, *, lang: str | None = None) -> str:
    """A figure in stones, rounded once to 0.1: ``"+1.3 stones"``, ``"-0.5 stones"``, ``"1 stone"``
    (``"+1,3 piedras"`` in Spanish). lang: a language code, None for the one being spoken."""
    _ = translator(lang)
    r = round(x, 1) + 0.0
    signed = ("-" if r < 0 else "+") + _.number(abs(r), 1)
    return _.ngettext("{value} stone", "{value} stones", _figure_count(r), value=signed)


def figure_text(x: float, unit: Unit, *, lang: str | None = None) -> str:
    """A figure as the learner reads it: :func:`stones_text`, or near the end of a game a chance of winning
    it, rounded once to 1 point of 100: ``"a 62% chance of winning the game"``.

    >>> figure_text(61.6, Unit.WIN_CHANCE), figure_text(1.04, Unit.STONES)
    ('a 62% chance of winning the game', '+1.0 stone')
    """
    if unit is Unit.STONES:
        return stones_text(x, lang=lang)
    _ = translator(lang)
    return _("a {percent} chance of winning the game", percent=_.percent((round(x) + 0) / 100, 0))


def loss_text(loss: float, unit: Unit, *, lang: str | None = None) -> str:
    """What a decision lost: ``"1.2 stones lost"``, ``"1 stone lost"``, ``"8 points of win chance lost"``."""
    _ = translator(lang)
    if unit is Unit.STONES:
        return _.ngettext(
            "{value} stone lost", "{value} stones lost", _figure_count(loss), value=_.number(loss, 1)
        )
    pts = round(loss) + 0
    return _.ngettext("{n} point of win chance lost", "{n} points of win chance lost", pts)


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One action and the stones it is expected to bring (rounded to 0.1 stone; see :class:`Method` for
    their meaning); error: the sampling error of ``stones`` (one standard error; 0 when exact)."""

    action: GameAction
    stones: float
    error: float = 0.0


@dataclass(frozen=True)
class DecisionGrade:
    """The grade of one decision of the learner (see :func:`grade_decision`).

    phase, lance: where it was taken. action: the learner's decision. values: every action weighed, best
    first (the learner's among them). chosen: the learner's :class:`ActionValue`. loss: stones lost
    against the best (the difference of the rounded figures, so it is exactly what the text states).
    loss_error: its sampling error (0 when exact). grade: its :class:`Grade`. method: how the figures are
    computed. moment: the moment the figures refer to ("en paso, before the mus", "given the opponents'
    envido 2, with your partner's seña"). samples: random deals behind the figures (0 when exact). unit:
    what the figures count (:class:`Unit`: stones, or near the end of a game the chance of winning it, in
    points of 100, each rounded to 1 point; the loss and its grade are then in points too). stones_loss:
    the stones lost (0.1 stone) whatever the unit: near the end, the net stones of the lance behind the
    chances, best by chance against the learner's (0 when that is not a loss); else ``loss``.
    """

    phase: Phase
    lance: Lance | None
    action: GameAction
    values: tuple[ActionValue, ...]
    chosen: ActionValue
    loss: float
    loss_error: float
    grade: Grade
    method: Method
    moment: str
    samples: int
    unit: Unit = Unit.STONES
    stones_loss: float = 0.0

    @property
    def best(self) -> ActionValue:
        """The best action weighed, with its figure."""
        return self.values[0]

    @property
    def sampling_error(self) -> float:
        """One standard error of what the text states: of the stones lost, or of the figure of the learner's
        action when it is the best (0 when exact)."""
        return self.loss_error if self.loss > 0 else self.chosen.error

    def how(self, *, lang: str | None = None) -> str:
        """How the figures were computed, in one sentence for the learner (lang: a language code, None for
        the one being spoken)."""
        _ = translator(lang)
        if self.method is Method.TRUTH:
            return _("Declarations must be truthful (RULES.md §4), so the only legal one is the best.")
        if self.method is Method.EXACT_EN_PASO:
            return _(
                "Figures: the stones your team expects en paso, counted exactly over every deal of the unseen "
                "cards (the betting that follows is not added)."
            )
        if self.method is Method.SAMPLED_EN_PASO:
            return _(
                "Figures: the stones your team expects en paso (4 reyes), every discard weighed over every draw, "
                "each hand's value sampled over 1000 deals (about ± 0.05 stones; the betting that follows is not added)."
            )
        with speaking(_.lang):
            where = self.lance.title if self.lance else _("this lance")
        if self.unit is Unit.WIN_CHANCE:
            return _(
                "Near the end of the game, figures: your team's chance of winning the game after {lance}, "
                "averaged over {samples} deals of the unseen cards that fit what you know, the lance played "
                "to its end by the strong level's policy (sampling error ± {error} points).",
                lance=where, samples=self.samples, error=_.number(self.sampling_error, 1),
            )  # fmt: skip
        return _(
            "Figures: your team's stones minus the opponents' in {lance}, "
            "averaged over {samples} deals of the unseen cards that fit what you know, the lance played "
            "to its end by the strong level's policy (sampling error ± {error} stones).",
            lance=where, samples=self.samples, error=_.number(self.sampling_error, 2),
        )  # fmt: skip


# ----------------------------------------------------------------------------------------------
# The mus and the discard: the exact advisor
# ----------------------------------------------------------------------------------------------


def _ranked(values: list[ActionValue]) -> tuple[ActionValue, ...]:
    return tuple(sorted(values, key=lambda v: -v.stones))


def _sampled_values(view: View) -> list[ActionValue]:
    """4 reyes: the mus and the discards by :func:`~musteach.play.odds_bot.keep_values` (sampled hand values)."""
    current, by_keep = keep_values(view.cards, view.position, view.rules)
    if view.phase is Phase.MUS:
        return [
            ActionValue(MusCall(False), round(current, 1)),
            ActionValue(MusCall(True), round(max(by_keep.values()), 1)),
        ]
    out: dict[tuple[int, ...], ActionValue] = {}
    eff = {c: effective_rank(c.rank, view.rules.kings) for c in view.cards}
    for mask in range(1, 16):
        thrown = [c for i, c in enumerate(view.cards) if mask >> i & 1]
        keep = tuple(sorted((eff[c] for c in view.cards if c not in thrown), reverse=True))
        out[tuple(sorted(c.index for c in thrown))] = ActionValue(Discard(thrown), round(by_keep[keep], 1))
    return list(out.values())  # every set of 1 to 4 cards, as the exact advisor's


def _exact_values(view: View) -> list[ActionValue]:
    if view.rules.kings != 8:
        return _sampled_values(view)
    adv = advise_discard(view.hand, view.seat, view.mano, view.rules)
    if view.phase is Phase.MUS:
        return [
            ActionValue(MusCall(False), round(float(adv.current_score("balanced")), 1)),
            ActionValue(MusCall(True), round(float(adv.best("balanced").balanced), 1)),
        ]
    return [ActionValue(Discard(o.discard), round(float(o.balanced), 1)) for o in adv.options]


def _same_action(a: GameAction, b: GameAction) -> bool:
    if isinstance(a, Discard) and isinstance(b, Discard):
        return sorted(c.index for c in a.cards) == sorted(c.index for c in b.cards)
    return a == b


# ----------------------------------------------------------------------------------------------
# The betting: rollouts
# ----------------------------------------------------------------------------------------------

def _rollout_values(
    view: View, action: Action, n: int, seed: int
) -> tuple[list[ActionValue], int, tuple[tuple[float, ...], ...], Unit, tuple[float, ...]]:
    vals = betting_values(view, action, n=n, seed=seed)
    digits = 1 if vals.unit is Unit.STONES else 0
    out = [
        ActionValue(a, round(float(x), digits), float(e))
        for a, x, e in zip(vals.actions, vals.means, vals.errors, strict=True)
    ]
    return out, vals.samples, vals.rows, vals.unit, vals.stones


def _moment(view: View) -> str:
    """The moment a decision's figures refer to, in the language being spoken: ``"before any bet"``,
    ``"given the opponents' bet of 2, with your partner's seña"``."""
    _ = translator()
    b = view.betting
    if view.phase is Phase.MUS:
        text = _("en paso, before the mus")
    elif view.phase is Phase.DISCARD:
        text = _("en paso, after this discard")
    elif b is None or not b.stakes:
        text = _("before any bet")
    else:
        ours, stake = b.betting_team == view.team, b.current_stake
        if stake == ORDAGO:
            text = _("given your team's órdago") if ours else _("given the opponents' órdago")
        elif ours:
            text = _("given your team's bet of {stake}", stake=stake)
        else:
            text = _("given the opponents' bet of {stake}", stake=stake)
    if view.partner_senas:
        n = len(view.partner_senas)
        text = _.ngettext("{moment}, with your partner's seña", "{moment}, with your partner's señas", n, moment=text)
    return text


# ----------------------------------------------------------------------------------------------
# The grade
# ----------------------------------------------------------------------------------------------


def grade_decision(
    view: View, action: GameAction, *, n: int = ROLLOUT_DEALS, seed: int = 0, lang: str | None = None
) -> DecisionGrade:
    """Grade ``action``, the learner's decision from ``view`` (before it is played), by what it costs.

    n: random deals for a betting decision; seed: their seed (the same view, n and seed give the same figures,
    those the strong level plays by). Near the end of a game (:func:`~musteach.play.rollout.near_end`) a
    betting decision is graded by the chance of winning the game (:attr:`DecisionGrade.unit`). Returns a
    :class:`DecisionGrade`. Raises :class:`MusError` when it is not ``view.seat``'s decision, and
    :class:`~musteach.rules.errors.IllegalActionError` for an action that is not legal now. lang: the
    language of the grade's ``moment`` (None: the one being spoken, :func:`musteach.i18n.speaking`).
    """
    with speaking(lang):
        return _grade_decision(view, action, n, seed)


def _grade_decision(view: View, action: GameAction, n: int, seed: int) -> DecisionGrade:
    phase, lance = view.phase, view.lance
    loss_rows: tuple[tuple[float, ...], ...] | None = None
    samples = 0
    unit = Unit.STONES
    stones: tuple[float, ...] = ()
    if isinstance(action, Declare):
        values, method = [ActionValue(action, 0.0)], Method.TRUTH
    elif phase in (Phase.MUS, Phase.DISCARD):
        values = _exact_values(view)
        method = Method.EXACT_EN_PASO if view.rules.kings == 8 else Method.SAMPLED_EN_PASO
    elif phase.is_betting and isinstance(action, Action) and view.betting is not None:
        view.betting.verify(view.seat, action)
        values, samples, loss_rows, unit, stones = _rollout_values(view, action, n, seed)
        method = Method.ROLLOUT
    else:
        raise MusError(
            Text(
                "there is no decision of seat {seat} to grade for {action} in phase {phase}",
                seat=view.seat, action=str(action), phase=phase.value,
            )
        )  # fmt: skip
    ranked = _ranked(values)
    chosen_i = next((i for i, v in enumerate(values) if _same_action(v.action, action)), None)
    if chosen_i is None:
        raise MusError(
            Text(
                "{action} is not one of the actions of seat {seat} now ({cards})",
                action=str(action), seat=view.seat, cards=cards_text(view.cards),
            )
        )  # fmt: skip
    chosen = values[chosen_i]
    loss = round(ranked[0].stones - chosen.stones, 1 if unit is Unit.STONES else 0) + 0.0
    loss_error = 0.0
    if loss_rows is not None:
        best_i = next(i for i, v in enumerate(values) if v is ranked[0])
        diff = [a - b for a, b in zip(loss_rows[best_i], loss_rows[chosen_i], strict=True)]
        loss_error = pairwise_std(diff, ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else 0.0
    stones_loss = loss
    if unit is Unit.WIN_CHANCE:  # the stones behind the chances, for the game's error rate
        best_i = next(i for i, v in enumerate(values) if v is ranked[0])
        stones_loss = max(round(float(stones[best_i]) - float(stones[chosen_i]), 1), 0.0) if loss > 0 else 0.0
    if chosen.stones == ranked[0].stones:  # a tie with the best is the best: list the learner's first
        ranked = (chosen, *(v for v in ranked if v is not chosen))
    return DecisionGrade(
        phase, lance, action, ranked, chosen, loss, loss_error, grade_for(loss, unit), method, _moment(view),
        samples, unit, stones_loss,
    )  # fmt: skip
