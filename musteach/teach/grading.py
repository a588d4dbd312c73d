"""Grading a learner's decision in one unit: the change in the chance of winning the game (RULES.md §3, §4,
§6, §7).

Every decision is valued as backgammon's analysers value a move by its equity: by how much it changes the
learner's team's chance of winning the game, in points of 100 (a point is 1%), each figure shown with its
stone equivalent (the points divided by what one stone is worth at this score,
:func:`~musteach.play.rollout.points_per_stone`). For one decision, :func:`grade_decision` gives the figure
of every legal action and of the learner's own (an :class:`ActionValue` each, best first), the points lost
against the best, their standard error, and a :class:`Grade` by that loss. How each figure is computed (its
:class:`Method`):

* the mus and the discard (:attr:`Method.EXACT_EN_PASO`): the exact discard advisor
  (:func:`musteach.odds.advise_discard`, 8 reyes): the stones the learner's team expects en paso over every
  deal of the unseen cards, with the hand as it is (no hay mus) or after the best discard (mus), or after
  each of the 15 discards, turned into win chance at this score's rate. Exact: no sampling error. The
  betting that follows is not added. With 4 reyes (:attr:`Method.SAMPLED_EN_PASO`) the same figures come
  from the strong level's hand values (:func:`musteach.play.odds_bot.keep_values`);
* the betting (:attr:`Method.ROLLOUT`): :func:`musteach.play.rollout.betting_values`: the change the lance
  brings to the team's chance of winning the game after the hand (the lance played out, the rest of the hand
  counted en paso), over random deals of the unseen cards weighed by what every seat did (the mus, every
  bet), every action judged on the same deals. The best action is chosen on ``n`` deals and every figure
  is stated from ``n`` others, so that the luck of the choice does not inflate the figures it states
  (when the halves disagree on the best, it is too close to call). An accepted órdago is worth the chance
  of winning its lance, which decides the game (RULES.md §7a);
* a declaration (:attr:`Method.TRUTH`): only the truth may be said (RULES.md §4), so it is always best.

The tiers are defined once, here, in points of win chance lost (figures rounded once to 0.1 point, the loss
taken between the rounded figures; :data:`GRADE_LIMITS`): best 0; good up to 0.4; inaccuracy up to 1.0;
mistake up to 2.5; blunder above 2.5 (at 0-0 one stone is worth about 1.7 points). A loss whose standard
error is more than a quarter of its tier's width (:func:`tier_width`) is *too close to call*
(:attr:`DecisionGrade.too_close`): the sentences then name no tier.

>>> grade_for(0.0), grade_for(0.4), grade_for(1.0), grade_for(2.5), grade_for(2.6)
(<Grade.BEST: 'best'>, <Grade.GOOD: 'good'>, <Grade.INACCURACY: 'inaccuracy'>, <Grade.MISTAKE: 'mistake'>, <Grade.BLUNDER: 'blunder'>)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from ..i18n import N_, Text, speaking, translator
from ..odds import advise_discard
from ..play.actions import Declare, Discard, GameAction, MusCall, cards_text
from ..play.events import Phase
from ..play.levels import Level
from ..play.odds_bot import keep_values
from ..play.policy import match_equity
from ..play.rollout import (
    BET_AT,
    ORDAGO_AT,
    RAISE_AT,
    ROLLOUT_DEALS,
    DealWeights,
    Unit,
    ViewPolicy,
    betting_values,
    chance_against_bet,
    points_per_stone,
    rollout_action,
    team_chance,
)
from ..play.seat_models import SeatModels, seat_models
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
    "chance_against_bet",
    "chance_loss_text",
    "close_text",
    "chance_text",
    "figure_text",
    "grade_decision",
    "grade_for",
    "is_too_close",
    "loss_text",
    "points_text",
    "rollout_action",
    "stones_text",
    "team_chance",
    "tier_width",
]


class Grade(Enum):
    """A decision's tier by the points of win chance it loses against the best action (:data:`GRADE_LIMITS`)."""

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


#: The tiers, defined once: the most points of win chance (of 100, rounded to 0.1) a decision may lose and
#: keep each grade; above the last: a blunder.
GRADE_LIMITS: tuple[tuple[Grade, float], ...] = (
    (Grade.BEST, 0.0),
    (Grade.GOOD, 0.4),
    (Grade.INACCURACY, 1.0),
    (Grade.MISTAKE, 2.5),
)
#: The same tiers (kept for callers: there is one unit).
CHANCE_LIMITS = GRADE_LIMITS
#: The width a blunder's tier is taken to have (it has no upper limit), in points of win chance.
BLUNDER_WIDTH = 10.0


def grade_for(loss: float, unit: Unit = Unit.WIN_CHANCE) -> Grade:
    """The :class:`Grade` of a decision that loses ``loss`` (≥ 0) points of win chance against the best
    action (:data:`GRADE_LIMITS`). unit: kept for callers; every loss is in points of win chance.

    Raises :class:`MusError` for a negative or not-a-number loss.
    """
    del unit
    if not loss >= 0:
        raise MusError(Text("a loss of win chance is 0 or more, not {value}", value=repr(loss)))
    for grade, limit in GRADE_LIMITS:
        if round(loss, 1) <= limit + 1e-9:
            return grade
    return Grade.BLUNDER


def tier_width(grade: Grade) -> float:
    """The width of a tier in points of win chance: from the limit below it to its own (best: 0 to the good
    limit, as the doubt about a best move is whether it loses anything; blunder: :data:`BLUNDER_WIDTH`)."""
    limits = dict(GRADE_LIMITS)
    if grade is Grade.BEST:
        return limits[Grade.GOOD]
    if grade is Grade.BLUNDER:
        return BLUNDER_WIDTH
    order = [g for g, _x in GRADE_LIMITS]
    return limits[grade] - limits[order[order.index(grade) - 1]]


def is_too_close(loss: float, error: float) -> bool:
    """True when a loss of ``loss`` points of win chance, with standard error ``error`` (points), is too
    close to call: its error is more than a quarter of its tier's width (:func:`tier_width`). Raises
    :class:`MusError` for a negative loss."""
    return error > tier_width(grade_for(loss)) / 4 + 1e-12


class Method(Enum):
    """How a decision's figures are computed (see the module docstring)."""

    TRUTH = "truth"
    EXACT_EN_PASO = "exact en paso"
    SAMPLED_EN_PASO = "sampled en paso"
    ROLLOUT = "rollout"


def _figure_count(x: float) -> int:
    """The count that picks a figure's plural form: 1 for exactly one (``"1.0 stone"``), else 2 (plural)."""
    return 1 if abs(x) == 1 else 2


def points_text(x: float, *, lang: str | None = None) -> str:
    """A figure in points of win chance, one decimal, singular for exactly one: ``"1.0 point"``, ``"1.7 points"``."""
    _ = translator(lang)
    r = round(x, 1) + 0.0
    return _.ngettext("{value} point", "{value} points", _figure_count(r), value=_.number(r, 1))


def stones_text(x: float, *, lang: str | None = None) -> str:
    """A figure in stones, rounded once to 0.1: ``"+1.3 stones"``, ``"-0.5 stones"``, ``"1 stone"``
    (``"+1,3 piedras"`` in Spanish). lang: a language code, None for the one being spoken."""
    _ = translator(lang)
    r = round(x, 1) + 0.0
    signed = ("-" if r < 0 else "+") + _.number(abs(r), 1)
    return _.ngettext("{value} stone", "{value} stones", _figure_count(r), value=signed)


def chance_text(points: float, per_stone: float, *, lang: str | None = None) -> str:
    """A figure as the learner reads it: a change in the chance of winning the game, rounded once to 0.1
    point of 100, with its stone equivalent (``per_stone``: points a stone is worth now):
    ``"+1.3 points of win chance (+0.8 stones)"``. lang: a language code, None for the one being spoken.

    >>> chance_text(1.26, 1.67)
    '+1.3 points of win chance (+0.8 stones)'
    """
    _ = translator(lang)
    r = round(points, 1) + 0.0
    signed = ("-" if r < 0 else "+") + _.number(abs(r), 1)
    return _.ngettext(
        "{value} point of win chance ({stones})", "{value} points of win chance ({stones})", _figure_count(r),
        value=signed, stones=stones_text(r / per_stone, lang=lang),
    )  # fmt: skip


def chance_loss_text(loss: float, per_stone: float, *, lang: str | None = None) -> str:
    """What a decision lost, with its stone equivalent: ``"1.2 points of win chance lost (0.7 stones)"``."""
    _ = translator(lang)
    r = round(loss, 1) + 0.0
    stones = round(r / per_stone, 1) + 0.0
    return _.ngettext(
        "{value} point of win chance lost ({stones})", "{value} points of win chance lost ({stones})", _figure_count(r),
        value=_.number(r, 1),
        stones=_.ngettext("{value} stone", "{value} stones", _figure_count(stones), value=_.number(stones, 1)),
    )  # fmt: skip


def close_text(difference: float, error: float, per_stone: float, *, lang: str | None = None) -> str:
    """A difference too close to call, shown as such: its size (points of win chance, rounded once to 0.1)
    with its sampling error (one standard error) and its stone equivalent, no tier:
    ``"about 0.4 ± 0.9 points of win chance (0.2 stones)"``. lang: None for the language being spoken.

    >>> close_text(0.44, 0.86, 1.7)
    'about 0.4 ± 0.9 points of win chance (0.2 stones)'
    """
    _ = translator(lang)
    r = round(abs(difference), 1) + 0.0
    stones = round(r / per_stone, 1) + 0.0
    e = round(error, 1) + 0.0
    return _.ngettext(  # the unit follows the error: singular for exactly 1 ("± 1.0 point")
        "about {value} ± {error} point of win chance ({stones})", "about {value} ± {error} points of win chance ({stones})",
        _figure_count(e), value=_.number(r, 1), error=_.number(e, 1),
        stones=_.ngettext("{value} stone", "{value} stones", _figure_count(stones), value=_.number(stones, 1)),
    )  # fmt: skip


def figure_text(x: float, unit: Unit, *, lang: str | None = None) -> str:
    """A figure in stones (:func:`stones_text`), or a chance of winning the game, rounded once to 1 point of
    100: ``"a 62% chance of winning the game"`` (kept for callers; the coach says :func:`chance_text`).

    >>> figure_text(61.6, Unit.WIN_CHANCE), figure_text(1.04, Unit.STONES)
    ('a 62% chance of winning the game', '+1.0 stone')
    """
    if unit is Unit.STONES:
        return stones_text(x, lang=lang)
    _ = translator(lang)
    return _("a {percent} chance of winning the game", percent=_.percent((round(x) + 0) / 100, 0))


def loss_text(loss: float, unit: Unit, *, lang: str | None = None) -> str:
    """What a decision lost: ``"1.2 stones lost"``, ``"1 stone lost"``, ``"8 points of win chance lost"``
    (kept for callers; the coach says :func:`chance_loss_text`)."""
    _ = translator(lang)
    if unit is Unit.STONES:
        return _.ngettext(
            "{value} stone lost", "{value} stones lost", _figure_count(loss), value=_.number(loss, 1)
        )
    pts = round(loss) + 0
    return _.ngettext("{n} point of win chance lost", "{n} points of win chance lost", pts)


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One action and its figure: ``stones`` is (despite its name, kept for callers) the change in the
    chance of winning the game it brings, in points of 100 rounded to 0.1 (see :class:`Method`); error: its
    sampling error (one standard error, points; 0 when exact); equivalent: its stone equivalent (the points
    divided by what a stone is worth now, rounded to 0.1)."""

    action: GameAction
    stones: float
    error: float = 0.0
    equivalent: float = 0.0

    @property
    def points(self) -> float:
        """The figure: the change in the chance of winning the game, points of 100 (rounded to 0.1)."""
        return self.stones


@dataclass(frozen=True)
class DecisionGrade:
    """The grade of one decision of the learner (see :func:`grade_decision`).

    phase, lance: where it was taken. action: the learner's decision. values: every action weighed, best
    first (the learner's among them, first among equals). chosen: the learner's :class:`ActionValue`. loss:
    points of win chance lost against the best (the difference of the rounded figures, so it is exactly
    what the text states). loss_error: its sampling error (one standard error, points; when the learner's
    action is the best, of its margin over the next best; 0 when exact). grade: its :class:`Grade`.
    method: how the figures are computed. moment: the moment the figures refer to ("en paso, before the
    mus", "given the opponents' envido 2, with your partner's seña"). samples: random deals behind the
    figures (0 when exact). unit: always :attr:`Unit.WIN_CHANCE`. stones_loss: the stone equivalent of
    the loss (0.1 stone). per_stone: points of win chance one stone is worth now. too_close: True when
    the loss's standard error is more than a quarter of its tier's width (:func:`is_too_close`): the
    sentences then say "too close to call" and name no tier. level: the level the table's bots were
    modelled as in the betting figures (``"beginner"``, ``"club"``, ``"strong"``; :mod:`musteach.play.seat_models`),
    "" when every seat was taken to play the strategy's policy (no seat models).
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
    unit: Unit = Unit.WIN_CHANCE
    stones_loss: float = 0.0
    per_stone: float = 1.0
    too_close: bool = False
    kings: int = 8
    level: str = ""

    @property
    def best(self) -> ActionValue:
        """The best action weighed, with its figure."""
        return self.values[0]

    @property
    def sampling_error(self) -> float:
        """One standard error of what the text states: of the points lost, or of the learner's margin over
        the next best when it is the best (0 when exact)."""
        return self.loss_error

    @property
    def equal_to(self) -> ActionValue | None:
        """When the learner's action is the best and another is worth exactly as much (rounded figures): that
        action, else None."""
        if self.loss > 0 or self.method is Method.TRUTH:
            return None
        return next((v for v in self.values if v is not self.chosen and v.stones == self.chosen.stones), None)

    def how(self, *, lang: str | None = None) -> str:
        """How the figures were computed, in one sentence for the learner (lang: a language code, None for
        the one being spoken)."""
        _ = translator(lang)
        rate = points_text(self.per_stone, lang=_.lang)
        if self.method is Method.TRUTH:
            return _("Declarations must be truthful (RULES.md §4), so the only legal one is the best.")
        if self.method is Method.EXACT_EN_PASO:
            return _(
                "Figures: the stones your team expects en paso, counted exactly over every deal of the unseen "
                "cards (the betting that follows is not added), as points of win chance: one stone is worth "
                "{rate} now.", rate=rate,
            )  # fmt: skip
        if self.method is Method.SAMPLED_EN_PASO:
            return _(
                "Figures: the stones your team expects en paso (4 reyes), every discard weighed over every draw, "
                "each hand's value sampled (the betting that follows is not added), as points of win chance: "
                "one stone is worth {rate} now.", rate=rate,
            )  # fmt: skip
        with speaking(_.lang):
            where = self.lance.title if self.lance else _("this lance")
            title = Level(self.level).title_in(_.lang) if self.level in ("beginner", "club", "strong") else ""
        if title:
            return _(
                "Figures: the change {lance} brings to your team's chance of winning the game, the lance played out "
                "as the bots at this table play it ({level} level; your own later bets as the strong level makes "
                "them) and the rest of the hand counted en paso, over deals of the unseen cards weighed by what "
                "every bot did (its bets, and the cards it kept at the mus); an "
                "accepted órdago counts as the chance of winning its lance. One stone is worth {rate} now "
                "(sampling error ± {error}).",
                lance=where, level=title[:1].lower() + title[1:], rate=rate,
                error=points_text(self.sampling_error, lang=_.lang),
            )  # fmt: skip
        return _(
            "Figures: the change {lance} brings to your team's chance of winning the game, the lance played out "
            "by the strong level's policy and the rest of the hand counted en paso, over deals of the unseen "
            "cards weighed by what every player did (the mus, the bets); an accepted órdago counts as the "
            "chance of winning its lance. One stone is worth {rate} now (sampling error ± {error}).",
            lance=where, rate=rate, error=points_text(self.sampling_error, lang=_.lang),
        )  # fmt: skip


# ----------------------------------------------------------------------------------------------
# The mus and the discard: the exact advisor
# ----------------------------------------------------------------------------------------------

#: The seed offset of the deals the betting figures are stated from (the best is chosen on others).
SPLIT_SEED = 7919
#: The sampling error of a 4-reyes en-paso figure, in stones (each hand's value sampled over 1000 deals).
SAMPLED_STONE_ERROR = 0.05


def _ranked(values: list[ActionValue]) -> tuple[ActionValue, ...]:
    return tuple(sorted(values, key=lambda v: -v.stones))


def _stone_values(view: View) -> list[tuple[GameAction, float]]:
    """The mus or the discards with the en-paso stones each is worth (exact for 8 reyes, sampled for 4)."""
    if view.rules.kings != 8:
        current, by_keep = keep_values(view.cards, view.position, view.rules)
        if view.phase is Phase.MUS:
            return [(MusCall(False), current), (MusCall(True), max(by_keep.values()))]
        out: dict[tuple[int, ...], tuple[GameAction, float]] = {}
        eff = {c: effective_rank(c.rank, view.rules.kings) for c in view.cards}
        for mask in range(1, 16):
            thrown = [c for i, c in enumerate(view.cards) if mask >> i & 1]
            keep = tuple(sorted((eff[c] for c in view.cards if c not in thrown), reverse=True))
            out[tuple(sorted(c.index for c in thrown))] = (Discard(thrown), by_keep[keep])
        return list(out.values())  # every set of 1 to 4 cards, as the exact advisor's
    adv = advise_discard(view.hand, view.seat, view.mano, view.rules)
    if view.phase is Phase.MUS:
        return [(MusCall(False), float(adv.current_score("balanced"))), (MusCall(True), float(adv.best("balanced").balanced))]
    return [(Discard(o.discard), float(o.balanced)) for o in adv.options]


def _en_paso_values(view: View, per_stone: float) -> list[ActionValue]:
    error = 0.0 if view.rules.kings == 8 else SAMPLED_STONE_ERROR * per_stone
    return [
        ActionValue(a, round(x * per_stone, 1), error, round(round(x * per_stone, 1) / per_stone, 1))
        for a, x in _stone_values(view)
    ]


def _same_action(a: GameAction, b: GameAction) -> bool:
    if isinstance(a, Discard) and isinstance(b, Discard):
        return sorted(c.index for c in a.cards) == sorted(c.index for c in b.cards)
    return a == b


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
    view: View,
    action: GameAction,
    *,
    n: int = ROLLOUT_DEALS,
    seed: int = 0,
    lang: str | None = None,
    policy: ViewPolicy | None = None,
    weights: DealWeights | None = None,
    seats: SeatModels | str | None = None,
) -> DecisionGrade:
    """Grade ``action``, the learner's decision from ``view`` (before it is played), by the points of win
    chance it loses against the best action (see the module docstring).

    n: random deals for a betting decision (the best is chosen on n, the figures are stated from n others);
    seed: their seed (the same view, n and seed give the same
    figures). policy, weights: the rollouts' policy and the deals' Bayes weights
    (:func:`~musteach.play.rollout.betting_values`; None: the strategy's when installed, else the
    heuristics). seats: who sits at the table, the learner's three bots' level (``"beginner"``, ``"club"``,
    ``"strong"``) or their :class:`~musteach.play.seat_models.SeatModels`: the deals are then weighed and
    the lance played out by each seat's own model (:func:`~musteach.play.seat_models.seat_models`; the
    learner's later actions by the strategy); None: ``policy`` and ``weights`` as above. Returns a :class:`DecisionGrade`. Raises :class:`MusError` when it is not ``view.seat``'s
    decision, and :class:`~musteach.rules.errors.IllegalActionError` for an action that is not legal now.
    lang: the language of the grade's ``moment`` (None: the one being spoken, :func:`musteach.i18n.speaking`).
    """
    with speaking(lang):
        models = seat_models(seats, view.seat) if isinstance(seats, str) else seats
        return _grade_decision(view, action, n, seed, policy, weights, models)


def _grade_decision(
    view: View, action: GameAction, n: int, seed: int, policy: ViewPolicy | None, weights: DealWeights | None,
    seats: SeatModels | None = None,
) -> DecisionGrade:
    phase, lance = view.phase, view.lance
    us, them = view.team, "B" if view.team == "A" else "A"
    live, target = view.live_score, view.rules.target
    per_stone = points_per_stone(live[us], live[them], target)
    samples = 0
    vals = None
    picked: Action | None = None
    if isinstance(action, Declare):
        values, method = [ActionValue(action, 0.0)], Method.TRUTH
    elif phase in (Phase.MUS, Phase.DISCARD):
        values = _en_paso_values(view, per_stone)
        method = Method.EXACT_EN_PASO if view.rules.kings == 8 else Method.SAMPLED_EN_PASO
    elif phase.is_betting and isinstance(action, Action) and view.betting is not None:
        view.betting.verify(view.seat, action)
        # the best is chosen on n deals, the figures are stated from n others
        choice = betting_values(view, action, n=n, seed=seed, policy=policy, weights=weights, seats=seats)
        picked = choice.best()
        vals = betting_values(view, action, n=n, seed=seed + SPLIT_SEED, policy=policy, weights=weights, seats=seats)
        per_stone = vals.per_stone
        values = [
            ActionValue(a, round(g, 1) + 0.0, e, round(round(g, 1) / per_stone, 1) + 0.0)
            for a, g, e in zip(vals.actions, vals.gains, vals.errors, strict=True)
        ]
        samples, method = vals.samples, Method.ROLLOUT
    else:
        raise MusError(
            Text(
                "there is no decision of seat {seat} to grade for {action} in phase {phase}",
                seat=view.seat, action=str(action), phase=phase.value,
            )
        )  # fmt: skip
    ranked = _ranked(values)
    if picked is not None:  # the choice made on the first half leads, the others follow by their figures
        lead = next(v for v in values if _same_action(v.action, picked))
        ranked = (lead, *(v for v in ranked if v is not lead))
    chosen_i = next((i for i, v in enumerate(values) if _same_action(v.action, action)), None)
    if chosen_i is None:
        raise MusError(
            Text(
                "{action} is not one of the actions of seat {seat} now ({cards})",
                action=str(action), seat=view.seat, cards=cards_text(view.cards),
            )
        )  # fmt: skip
    chosen = values[chosen_i]
    loss = max(round(ranked[0].stones - chosen.stones, 1), 0.0) + 0.0
    if chosen.stones >= ranked[0].stones:  # as good as the best is the best: list the learner's first
        ranked = (chosen, *_ranked([v for v in values if v is not chosen]))
    # the two halves of the deals disagree on which action is best: too close to call
    disagree = any(v.stones > ranked[0].stones for v in ranked[1:])
    other = ranked[0] if loss > 0 else (ranked[1] if len(ranked) > 1 else None)
    loss_error = 0.0
    if other is not None:
        if vals is not None:
            loss_error = vals.difference_error(values.index(other), chosen_i)
        elif method is Method.SAMPLED_EN_PASO:
            loss_error = math.hypot(other.error, chosen.error)
    too_close = other is not None and is_too_close(loss, loss_error)
    if too_close and loss == 0 and other is not None and (chosen.stones - other.stones) > 2 * loss_error:
        too_close = False  # clearly ahead of the next best: the best, whatever the noise
    too_close = too_close or disagree
    return DecisionGrade(
        phase, lance, action, ranked, chosen, loss, loss_error, grade_for(loss), method, _moment(view),
        samples, Unit.WIN_CHANCE, round(loss / per_stone, 1) + 0.0, per_stone, too_close, view.rules.kings,
        seats.level if seats is not None and method is Method.ROLLOUT else "",
    )  # fmt: skip


def equity_now(view: View) -> float:
    """The chance (points of 100) that ``view.seat``'s team wins the game from the live score."""
    us, them = view.team, "B" if view.team == "A" else "A"
    return 100.0 * match_equity(view.live_score[us], view.live_score[them], view.rules.target)
