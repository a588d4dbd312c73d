"""Seat models: what the coach assumes each seat at the table plays, for its beliefs and its rollouts
(RULES.md §4, §6, §11).

At musteach's table the coach knows who sits there: the level the learner chose for the opponents, whose
bots also partner the learner. A :class:`SeatModel` is one seat's betting as a probability of each action,
read from a view of that seat; the coach's beliefs (:func:`log_weights`) weigh every hidden deal by how
likely each seat was to say what it said under its own model, and its rollouts
(:func:`musteach.play.rollout.betting_values` with ``seats=``) play the rest of the lance with each seat's
own model. Two kinds:

* :class:`StrategyModel`: the computed strategy (:func:`musteach.play.strategy.policy`), the strong level;
* :class:`BotModel`: a deterministic heuristic bot (the club player's :class:`~musteach.play.rule_bot.RuleBot`,
  the beginner's :class:`~musteach.play.levels.BeginnerBot`): its action gets all the probability.

Every model's betting in a lance depends on the seat's hand only through a *key* (the strategy: the hand's
bucket and its partner's seña bit; a heuristic bot: its strength in the lance), so the beliefs and the
rollouts ask each model once per key, not once per deal. Beliefs mix every model with its tremble (:data:`TREMBLE`, the strategy's :data:`STRATEGY_TREMBLE`) of a
uniform choice over the kinds of action legal then, so that a surprising bet (a learner's, a bluff) rules no
deal out. A seat's partner is taken to have shown its two best true señas (:func:`~musteach.rules.senas.best_senas`,
as every bot does), the learner's own señas being those it made.

>>> from musteach.play.game import Game
>>> from musteach.play.odds_bot import sample_deals
>>> g = Game(seed=3)
>>> _ = g.act(g.to_act.seat, "no hay mus")
>>> v = g.view(g.to_act.seat)
>>> m = seat_models("club", v.seat)
>>> w = log_weights(v, sample_deals(v, 50), m)
>>> len(w), m.level, m.models[v.seat].name
(50, 'club', 'strong')
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from ..i18n import Text
from ..rules.betting import Action, LanceBetting
from ..rules.cards import Card
from ..rules.errors import MusError
from ..rules.lances import LANCES, check_seat
from ..rules.options import Rules
from ..rules.senas import best_senas
from .actions import MusCall
from .deals import POOL_ROWS, POOL_WIDTH, SENA_BITS, after_mus_cell, deal_pool, fits_public, rank_facts, rank_id
from .events import Phase
from .odds_bot import Deal, OddsBot, keep_values
from .rule_bot import RuleBot
from .view import View

__all__ = [
    "AFTER_DISCARD",
    "CANDIDATES",
    "LEVEL_MODELS",
    "MEMO_LIMIT",
    "MULTISETS",
    "STRATEGY_TREMBLE",
    "TREMBLE",
    "BotModel",
    "SeatModel",
    "SeatModels",
    "StrategyModel",
    "action_kind",
    "fits_calls",
    "fits_public",
    "fitting_deals",
    "keepable",
    "log_weights",
    "odds_mus_rounds",
    "odds_wants_mus",
    "shipped_mus_rounds",
    "write_mus_table",
    "model_for",
    "seat_models",
    "seat_view",
    "shown_senas",
    "shows_senas",
]

#: The share of a heuristic bot's probability spread evenly over the kinds of action legal at a step (beliefs).
TREMBLE = 0.02

#: The strategy's tremble (:attr:`StrategyModel.tremble`): smaller, as the model is the strong level's betting
#: itself (checked over every betting decision of self-play games, from every seat's view: the same
#: probabilities), so a surprising bet says much more about the bettor's hand than the tremble hides.
STRATEGY_TREMBLE = 0.005

#: How much likelier than a random hand each cell of :func:`~musteach.play.deals.after_mus_cell` (Grande
#: quartile, pares value) is among the strong level's hands right after a discard, before the next mus round's
#: calls: ``benchmarks/bench_coach_replay.py --measure-discard-prior 400 --seed 300000`` (7,392 hands of
#: self-play; 50 pseudo-hands of smoothing). :data:`~musteach.play.deals.AFTER_MUS` is measured at the start
#: of the lances, the last round's cut included: right where the mus calls are not weighed, twice where they are.
AFTER_DISCARD: tuple[tuple[float, ...], ...] = (
    (0.12, 0.36, 1.13, 0.59),
    (0.35, 0.72, 1.5, 1.67),
    (0.64, 1.39, 4.59, 1.0),
    (1.8, 2.18, 3.15, 2.62),
)

_LANCE_INDEX = {lance: i for i, lance in enumerate(LANCES)}

#: The most hands a heuristic bot's model keeps the strength of (then it starts again).
MEMO_LIMIT = 2048

#: How many random hands :func:`fitting_deals` draws to find each hidden seat's fitting ones.
CANDIDATES = 2000

#: The model each table level (and bot kind) is read as: the strategy, or a heuristic bot.
LEVEL_MODELS: dict[str, str] = {
    "strong": "strong",
    "legacy": "strong",
    "odds": "strong",
    "club": "club",
    "rule": "club",
    "beginner": "beginner",
}


def action_kind(a: Action, state: LanceBetting) -> str:
    """An action's kind as the beliefs compare them: any envido is one kind, any raise another, paso facing a
    bet is no quiero."""
    if a.kind == "paso" and state.stakes:
        return "no_quiero"
    return a.kind


def shown_senas(rid: int, kings: int, senas: str) -> tuple[str, ...]:
    """The keys of the señas a bot holding the hand of rank id ``rid`` shows its partner (its two best true
    ones, :func:`~musteach.rules.senas.best_senas`, RULES.md §11); () when señas are off. kings: 8 or 4;
    senas: the table's seña set (``Rules.senas``). Worked out once per multiset of effective ranks."""
    if senas == "off":
        return ()
    return _shown_by_multiset(rank_facts(kings).multiset[rid], kings, senas)


@lru_cache(maxsize=4096)
def _shown_by_multiset(ms: int, kings: int, senas: str) -> tuple[str, ...]:
    cards = _cards_of_ranks(rank_facts(kings).keys[ms])
    return tuple(s.key for s in best_senas(cards, _rules(kings, senas), "lances"))


@lru_cache(maxsize=8)
def _rules(kings: int, senas: str) -> Rules:
    return Rules(kings=kings, senas=senas)  # type: ignore[arg-type]  # a Rules' own senas, checked by Rules


def _partner_senas(view: View, seat: int, deal: Deal) -> tuple[str, ...]:
    """The keys of the señas ``seat``'s partner showed it, in ``deal``: the learner's own when the partner is
    ``view.seat``, else the partner's two best true ones."""
    p = (seat + 2) % 4
    if p == view.seat:
        return tuple(s.key for s in view.my_senas)
    if seat == view.seat:
        return tuple(s.key for s in view.partner_senas)
    return shown_senas(rank_id(deal[p]), view.rules.kings, view.rules.senas)


def seat_view(view: View, seat: int, deal: Deal, state: LanceBetting) -> View:
    """``view`` as ``seat`` would see it in the betting ``state`` holding its hand of ``deal`` (4 hands of card
    indexes by seat), with the señas its partner showed it (see :func:`_partner_senas`)."""
    from ..rules.senas import SENAS

    keys = _partner_senas(view, seat, deal)
    return replace(
        view, seat=seat, cards=tuple(Card.from_index(i) for i in deal[seat]), betting=state,
        phase=Phase.bet(state.lance), partner_senas=tuple(SENAS[k] for k in keys if k in SENAS), my_senas=(),
        _legal=lambda: tuple(state.legal_actions(seat)),
    )  # fmt: skip


class SeatModel(Protocol):
    """One seat's betting (see the module docstring)."""

    name: str
    #: True when the model's amounts count (a heuristic bot's envido 3 is not its envido 2); else actions
    #: are compared by kind (the strategy's abstraction reads every envido as envido 2).
    exact: bool
    #: The share of its probability the beliefs spread evenly over the kinds of action legal at a step.
    tremble: float

    def key(self, view: View, seat: int, deal: Deal, start: LanceBetting) -> Hashable:
        """What the seat's betting in ``start``'s lance depends on in ``deal`` (its hand, its partner's señas)."""
        ...

    def probs(self, seen: View) -> Mapping[Action, float] | None:
        """The probability of each action of ``seen.seat`` from its view ``seen`` (None: the model has no
        answer there)."""
        ...

    def prior(self, rid: int, changed: int, kings: int) -> float:
        """How likely (up to a constant) the seat is to hold the hand of rank id ``rid`` after changing
        ``changed`` cards (1..4) in the last mus round (RULES.md §3); 1.0 when the model says nothing."""
        ...

    def mus_chance(self, view: View, seat: int, hand: Sequence[int]) -> float:
        """The probability (0..1) that ``seat`` says mus holding ``hand`` (4 card indexes) in ``view``'s mus
        round, at its place from ``view.mano`` (RULES.md §3)."""
        ...


class StrategyModel:
    """The computed strategy (:func:`musteach.play.strategy.policy`): the strong level's betting."""

    name = "strong"
    exact = False
    tremble = STRATEGY_TREMBLE

    def __init__(self) -> None:
        self._bucket_of: dict[tuple[int, int], tuple[bytes, list[int]]] = {}  # (li, kings) -> (pct, bucket by pct)
        self._signs: dict[tuple[object, ...], int] = {}
        self._mus: dict[tuple[object, ...], float] = {}

    def key(self, view: View, seat: int, deal: Deal, start: LanceBetting) -> Hashable:
        """The hand's bucket in the lance and its partner's seña bit (as
        :func:`~musteach.play.strategy.infoset` reads them)."""
        li = _LANCE_INDEX[start.lance]
        kings = view.rules.kings
        got = self._bucket_of.get((li, kings))
        if got is None:
            from .strategy.abstraction import bucket
            from .strategy.table import shipped_table

            k = shipped_table().ks[li]
            got = self._bucket_of[(li, kings)] = (rank_facts(kings).pct[li], [bucket(x, li, k, kings) for x in range(256)])
        pct, by_pct = got
        kb = by_pct[pct[rank_id(deal[seat])]]
        p = (seat + 2) % 4
        if p not in start.participants:
            return (kb, 0)
        if p == view.seat or seat == view.seat:
            pkey: object = _partner_senas(view, seat, deal)
        else:
            pkey = rank_facts(kings).multiset[rank_id(deal[p])]
        memo = (li, pkey, kings, view.rules.senas)
        sign = self._signs.get(memo)
        if sign is None:
            from .strategy.abstraction import SIGN_KEYS

            sign = self._signs[memo] = int(any(x in SIGN_KEYS[li] for x in _partner_senas(view, seat, deal)))
        return (kb, sign)

    def probs(self, seen: View) -> Mapping[Action, float] | None:
        """The strategy's probabilities, without the actions the strong level leaves out (below
        :data:`~musteach.play.strategy.bot.PURIFY`), scaled to sum to 1 as the strong level draws from them
        (:class:`~musteach.play.strategy.bot.StrategyBot`); None where its abstraction has no such decision
        (there the strong level bets as the odds bot, which no key of the hand can stand for)."""
        from .strategy import policy
        from .strategy.bot import PURIFY

        try:
            probs = policy(seen)
        except MusError:
            return None
        kept = {a: p for a, p in probs.items() if p >= PURIFY} or probs  # the strong level never plays the rest
        total = math.fsum(kept.values())
        return {a: p / total for a, p in kept.items()} if total > 0 else kept

    def prior(self, rid: int, changed: int, kings: int) -> float:
        """How much likelier than a random hand the strong level's hand is right after a discard, by its
        Grande quartile and its pares (:data:`AFTER_DISCARD`, measured in self-play: it keeps its kings and
        its pares); the mus calls that follow are weighed apart (:meth:`mus_chance`)."""
        g, p = after_mus_cell(rid, kings)
        return AFTER_DISCARD[g][p]

    def mus_chance(self, view: View, seat: int, hand: Sequence[int]) -> float:
        """1.0 or 0.0: the strong level's mus is the odds bot's (:class:`~musteach.play.odds_bot.OddsBot`,
        whose thresholds it reads): mus when the best discard gains more than ``mus_gain`` stones en paso
        times the mus round and the hand is worth less than ``keep_at`` (:func:`~musteach.play.odds_bot.keep_values`)."""
        pos = (seat - view.mano) % 4
        rules = view.rules
        ms = rank_facts(rules.kings).multiset[rank_id(hand)]
        if not rules.la_real:
            shipped = shipped_mus_rounds(rules.kings)
            if shipped is not None:
                return 1.0 if view.mus_round <= shipped[pos][ms] else 0.0
        memo = (pos, ms, view.mus_round, rules)
        got = self._mus.get(memo)
        if got is None:
            if len(self._mus) >= MEMO_LIMIT:
                self._mus.clear()
            got = self._mus[memo] = float(odds_wants_mus([Card.from_index(i) for i in hand], pos, view.mus_round, rules))
        return got


class BotModel:
    """A deterministic heuristic bot (:class:`~musteach.play.rule_bot.RuleBot` or a subclass): its action has
    all the probability. name: the level it stands for."""

    exact = True
    tremble = TREMBLE

    def __init__(self, bot: RuleBot, name: str):
        self.bot = bot
        self.name = name
        self._strength: dict[tuple[int, int, int, tuple[str, ...], int], float] = {}

    def key(self, view: View, seat: int, deal: Deal, start: LanceBetting) -> Hashable:
        """The bot's strength in the lance (its hand, its position, its partner's señas; RULES.md §11)."""
        senas = _partner_senas(view, seat, deal)
        li = LANCES.index(start.lance)
        kings = view.rules.kings
        memo = ((seat - view.mano) % 4, li, rank_facts(kings).multiset[rank_id(deal[seat])], senas, kings)
        s = self._strength.get(memo)
        if s is None:
            if len(self._strength) >= MEMO_LIMIT:  # a kernel that plays for hours keeps a small memo
                self._strength.clear()
            s = self._strength[memo] = self.bot.strength(seat_view(view, seat, deal, start), start.lance)
        return s

    def probs(self, seen: View) -> Mapping[Action, float] | None:
        """The bot's action, with probability 1."""
        a = self.bot.decide(seen)
        return {a: 1.0} if isinstance(a, Action) else None

    def prior(self, rid: int, changed: int, kings: int) -> float:
        """The share of the hand's sets of ``4 - changed`` cards that the bot could have kept
        (:func:`keepable`): a heuristic bot keeps its kings, its pairs and its aces (RULES.md §3), so after a
        discard its hand holds them more often than a random hand does."""
        return _keep_share(rid, changed, kings)

    def mus_chance(self, view: View, seat: int, hand: Sequence[int]) -> float:
        """1.0 or 0.0: the bot's own mus call (:meth:`RuleBot.decide <musteach.play.rule_bot.RuleBot.decide>`)
        with ``hand`` at ``seat``'s place in ``view``'s mus round."""
        pos = (seat - view.mano) % 4
        kings = view.rules.kings
        memo = (-1 - pos, -1, rank_facts(kings).multiset[rank_id(hand)], (str(view.mus_round),), kings)
        got = self._strength.get(memo)
        if got is None:
            if len(self._strength) >= MEMO_LIMIT:
                self._strength.clear()
            seen = replace(
                view, seat=seat, cards=tuple(Card.from_index(i) for i in hand), phase=Phase.MUS, betting=None,
                partner_senas=(), my_senas=(), _legal=tuple,
            )  # fmt: skip
            a = self.bot.decide(seen)
            got = self._strength[memo] = float(isinstance(a, MusCall) and a.wants)
        return got


def keepable(ranks: Sequence[int]) -> bool:
    """True when a heuristic bot (:meth:`RuleBot.discard <musteach.play.rule_bot.RuleBot.discard>`) may keep
    cards of the effective ``ranks`` (1..12) and change the rest: every kept card a king, an ace or one of a
    pair, or a single figure (sota, caballo) kept towards 31."""
    if not ranks:
        return True
    if len(ranks) == 1 and ranks[0] >= 10:
        return True
    return all(r in (1, 12) or ranks.count(r) >= 2 for r in ranks)


def odds_wants_mus(cards: Sequence[Card], pos: int, mus_round: int, rules: Rules) -> bool:
    """True when :class:`~musteach.play.odds_bot.OddsBot` (default thresholds; the strong level's mus) says mus
    holding ``cards`` at ``pos`` (0 mano .. 3 postre) in mus round ``mus_round`` (RULES.md §3): the best
    discard gains more than ``mus_gain`` times the round in en-paso stones and the hand is worth less than
    ``keep_at`` (:func:`~musteach.play.odds_bot.keep_values`)."""
    bot = _odds_bot()
    now, by_keep = keep_values(cards, pos, rules, bot.n)
    after = max(by_keep.values(), default=now)
    return after - now > bot.mus_gain * mus_round and now < bot.keep_at


@lru_cache(maxsize=1)
def _odds_bot() -> OddsBot:
    return OddsBot()


def _cards_of_ranks(ranks: Sequence[int]) -> list[Card]:
    """Four cards of the effective ``ranks`` (suits in deck order)."""
    from ..rules.cards import RANKS

    seen: dict[int, int] = {}
    cards = []
    for rank in ranks:
        r = RANKS.index(rank)
        cards.append(Card.from_index(r * 4 + seen.get(r, 0)))
        seen[r] = seen.get(r, 0) + 1
    return cards


def odds_mus_rounds(kings: int, pos: int) -> bytes:
    """Per multiset of effective ranks (index of ``rank_facts(kings).keys``), the last mus round in which
    :class:`~musteach.play.odds_bot.OddsBot` says mus at ``pos`` (0 mano .. 3 postre; 0: it cuts at once,
    at most 255), :func:`odds_wants_mus` without la real: what :data:`MUS_FILE` ships. Seconds to work out."""
    rules = _rules(kings, "standard")
    out = bytearray()
    for ranks in rank_facts(kings).keys:
        cards = _cards_of_ranks(ranks)
        n = 0
        while n < 255 and odds_wants_mus(cards, pos, n + 1, rules):
            n += 1
        out.append(n)
    return bytes(out)


#: How many multisets of effective ranks a hand of each deck has (``len(rank_facts(kings).keys)``).
MULTISETS = {8: 330, 4: 715}

#: The shipped table of :func:`odds_mus_rounds` (8 and 4 reyes, every position), in ``musteach/play/data``.
MUS_FILE = "odds-mus.bin"
_MUS_MAGIC = b"MUSODDS1"


def write_mus_table(path: Path) -> None:
    """Write :func:`odds_mus_rounds` for 8 then 4 reyes, positions 0..3, after an 8-byte header."""
    path.write_bytes(_MUS_MAGIC + b"".join(odds_mus_rounds(k, pos) for k in (8, 4) for pos in range(4)))


@lru_cache(maxsize=1)
def _shipped_mus() -> dict[int, tuple[bytes, ...]]:
    path = Path(__file__).with_name("data") / MUS_FILE
    try:
        raw = path.read_bytes()
    except OSError:
        return {}
    sizes = MULTISETS  # (not rank_facts(4): a table of 8 reyes does not build the 4 reyes' facts)
    if raw[:8] != _MUS_MAGIC or len(raw) != 8 + 4 * sum(sizes.values()):
        return {}
    out: dict[int, tuple[bytes, ...]] = {}
    at = 8
    for k in (8, 4):
        out[k] = tuple(raw[at + pos * sizes[k] : at + (pos + 1) * sizes[k]] for pos in range(4))
        at += 4 * sizes[k]
    return out


def shipped_mus_rounds(kings: int) -> tuple[bytes, ...] | None:
    """The shipped :func:`odds_mus_rounds` of ``kings`` (8 or 4) by position, or None when the file is
    missing or damaged (then the calls are worked out as asked)."""
    return _shipped_mus().get(kings)


def _keep_share(rid: int, changed: int, kings: int) -> float:
    if not 1 <= changed <= 3:
        return 1.0
    return _keep_share_of(rank_facts(kings).multiset[rid], changed, kings)


@lru_cache(maxsize=4096)
def _keep_share_of(ms: int, changed: int, kings: int) -> float:
    from itertools import combinations

    subsets = list(combinations(rank_facts(kings).keys[ms], 4 - changed))
    # a small floor: a bot's keep is not always one of these (it keeps at most 3 of 4 keepable cards)
    return max(sum(1 for k in subsets if keepable(k)) / len(subsets), 0.02)


@lru_cache(maxsize=16)
def model_for(level: str) -> SeatModel:
    """The :class:`SeatModel` of a table level or bot kind (see :data:`LEVEL_MODELS`). Raises
    :class:`MusError` naming an unknown level. One model per level and process (it keeps what it has read
    of each hand)."""
    kind = LEVEL_MODELS.get(str(level).strip().lower())
    if kind is None:
        raise MusError(Text("unknown level {value}: use beginner, club or strong", value=repr(level)))
    if kind == "strong":
        return StrategyModel()
    if kind == "club":
        return BotModel(RuleBot(), "club")
    from .levels import BeginnerBot

    return BotModel(BeginnerBot(name="beginner"), "beginner")


@dataclass(frozen=True)
class SeatModels:
    """Every seat's :class:`SeatModel` (``models``, by seat), the table's ``level`` and the seat they were made
    for (``seat``, the learner)."""

    models: tuple[SeatModel, SeatModel, SeatModel, SeatModel]
    level: str
    seat: int


def seat_models(level: str, seat: int, *, own: str = "strong") -> SeatModels:
    """The seat models of a table where the learner at ``seat`` (0..3) plays with three bots of ``level``
    (``"beginner"``, ``"club"``, ``"strong"``; ``"odds"``, ``"rule"``, ``"legacy"`` are read as
    :data:`LEVEL_MODELS` says); the learner's own later actions are modelled by ``own`` (default the
    strategy, which is what the coach recommends). Raises :class:`MusError` naming a bad level or seat."""
    check_seat(seat)
    them, me = model_for(level), model_for(own)
    models = tuple(me if s == seat else them for s in range(4))
    return SeatModels(models, LEVEL_MODELS[str(level).strip().lower()], seat)  # type: ignore[arg-type]  # 4 models


def shows_senas(view: View, deal: Deal) -> bool:
    """True when, in ``deal``, ``view.seat``'s partner (a bot) would have shown exactly the señas it showed:
    a bot shows its two best true señas once its cards are final (:func:`shown_senas`), so a partner that
    showed none holds nothing worth a seña (RULES.md §11). Always True when señas are off."""
    if view.rules.senas == "off":
        return True
    partner = (view.seat + 2) % 4
    return set(shown_senas(rank_id(deal[partner]), view.rules.kings, view.rules.senas)) == {s.key for s in view.partner_senas}


def fits_calls(view: View, deal: Deal, models: SeatModels) -> bool:
    """True when, in ``deal``, every other seat that spoke in the mus round of the cards held now
    (:attr:`View.last_mus_calls <musteach.play.view.View.last_mus_calls>`) made the call its model makes
    more likely than not (:meth:`SeatModel.mus_chance`; RULES.md §3). True when nobody spoke."""
    calls = view.last_mus_calls
    if calls is None:
        return True
    for seat, said in enumerate(calls):
        if said is None or seat == view.seat:
            continue
        p = models.models[seat].mus_chance(view, seat, deal[seat])
        if (p > 0.5) != said:
            return False
    return True


def _candidates(unseen: Sequence[int], start: int) -> list[tuple[int, ...]]:
    """:data:`CANDIDATES` random hands of the 36 ``unseen`` cards (each 4 sorted card indexes): the hands the
    pool's rows deal from row ``start`` on (:func:`~musteach.play.deals.deal_pool`, three a row, wrapping),
    translated in C rather than drawn one by one."""
    rows = -(-CANDIDATES // 3)
    pool = deal_pool()
    raw = pool[start * POOL_WIDTH : (start + rows) * POOL_WIDTH]
    if start + rows > POOL_ROWS:
        raw += pool[: (start + rows - POOL_ROWS) * POOL_WIDTH]
    cards = raw.translate(bytes(unseen).ljust(256, b"\0"))
    return [tuple(sorted(cards[i : i + 4])) for i in range(0, 4 * CANDIDATES, 4)]


def fitting_deals(view: View, n: int, seed: int = 0, models: SeatModels | None = None) -> list[Deal]:
    """``n`` random deals of the cards ``view.seat`` cannot see (4 hands of 4 sorted card indexes by seat,
    ``view.seat`` holding its own) that fit :func:`fits_public` whenever it can be met: each hidden seat's
    hand is drawn from :data:`CANDIDATES` random hands of the unseen cards that fit its seña and its
    declarations (all of them when none fits; the partner's, those that show exactly its señas,
    :func:`shows_senas`, when some do; with ``models``, those whose mus call in the round of the cards
    held now is the one the seat's model makes more likely, :func:`fits_calls`, when some are), the three
    without a card in common. Seeded: the same view, n and seed give the same deals. For the rare facts :func:`~musteach.play.odds_bot.sample_deals` cannot
    meet from its pool."""
    import random

    facts = rank_facts(view.rules.kings)
    own = tuple(sorted(c.index for c in view.cards))
    partner = (view.seat + 2) % 4
    need = 0
    for s in view.partner_senas:
        if s.kind == "hand" and s.key in SENA_BITS:
            need |= 1 << SENA_BITS[s.key]
    checks: dict[int, tuple[int, int]] = {}  # seat -> (flag mask, flag values): bit 0 pares, bit 1 juego
    for bit, name in ((1, "pares"), (2, "juego")):
        for seat, said in enumerate(view.declared.get(name) or ()):
            if said is not None and seat != view.seat:
                m, v = checks.get(seat, (0, 0))
                checks[seat] = (m | bit, v | (bit if said else 0))
    shown = {s.key for s in view.partner_senas}
    calls = view.last_mus_calls
    unseen = [i for i in range(40) if i not in own]
    rng = random.Random(f"fitting {own} {view.seat} {view.mano} {need} {sorted(checks.items())} {n} {seed}")
    cands = _candidates(unseen, rng.randrange(POOL_ROWS))
    rids = [rank_id(h) for h in cands]
    pools: dict[int, list[tuple[int, ...]]] = {}
    for seat in range(4):
        if seat == view.seat:
            continue
        mask, val = checks.get(seat, (0, 0))
        sena = need if seat == partner else 0
        fit = [h for h, r in zip(cands, rids, strict=True) if facts.senas[r] & sena == sena and facts.flags[r] & mask == val]
        if seat == partner and view.rules.senas != "off":  # exactly the señas it showed, when some hand shows them
            showing = [h for h in fit if set(shown_senas(rank_id(h), view.rules.kings, view.rules.senas)) == shown]
            fit = showing or fit
        said = calls[seat] if calls is not None else None
        if models is not None and said is not None and fit:
            model = models.models[seat]
            agree: dict[int, bool] = {}  # multiset -> the model's call is the one made
            kept = []
            for h in fit:
                ms = facts.multiset[rank_id(h)]
                ok = agree.get(ms)
                if ok is None:
                    ok = agree[ms] = (model.mus_chance(view, seat, h) > 0.5) == said
                if ok:
                    kept.append(h)
            fit = kept or fit
        pools[seat] = fit or cands
    order = sorted(pools, key=lambda x: len(pools[x]))
    out: list[Deal] = []
    while len(out) < n:
        for _try in range(100):
            deal: list[tuple[int, ...]] = [own] * 4
            used: set[int] = set()
            for seat in order:
                hand = rng.choice(pools[seat])
                if used.intersection(hand):
                    break
                used.update(hand)
                deal[seat] = hand
            else:
                break
        else:  # no three disjoint fitting hands: the rest of the unseen cards as they come
            rest = [i for i in unseen if i not in used]
            rng.shuffle(rest)
            for k, seat in enumerate(x for x in order if deal[x] == own):
                deal[seat] = tuple(sorted(rest[4 * k : 4 * k + 4]))
        out.append((deal[0], deal[1], deal[2], deal[3]))
    return out


def _bettings(view: View) -> list[LanceBetting]:
    out = [view.bettings[lance.value] for lance in LANCES if lance.value in view.bettings]
    if view.betting is not None and view.betting.lance.value not in view.bettings:
        out.append(view.betting)
    return out


def _kinds(state: LanceBetting, seat: int) -> int:
    return max(len({action_kind(a, state) for a in state.legal_actions(seat)}), 1)


def log_weights(view: View, deals: Sequence[Deal], models: SeatModels) -> list[float]:
    """Per deal (4 hands of card indexes by seat, ``view.seat`` holding its own), the log of how likely the
    other three seats were to say what they said in this hand's betting (every step of the closed lances
    and of the one being bet) under their own :class:`SeatModel` (each step's probability mixed with
    its :attr:`~SeatModel.tremble` of a uniform choice over the kinds legal then; a heuristic bot's amounts count: its
    envido 3 says more than its envido 2), ``-inf`` for a deal that contradicts a
    seña or a declaration (:func:`fits_public`); a deal where the partner would not have shown exactly the
    señas it showed (:func:`shows_senas`) weighs :data:`TREMBLE` as much. The discards are weighed by what
    each model keeps (:meth:`SeatModel.prior`), and the mus calls made with the cards held now
    (:attr:`View.last_mus_calls <musteach.play.view.View.last_mus_calls>`: who said mus, who cut) by each
    seat's :meth:`SeatModel.mus_chance`, mixed with its tremble over the two calls (RULES.md §3)."""
    steps: list[tuple[int, int, Action, LanceBetting, LanceBetting, int]] = []  # seat, lance, said, state, start, kinds
    for b in _bettings(view):
        start = LanceBetting.start(b.lance, b.mano, b.participants, b.rules)
        state = start
        for st in b.steps:
            if st.seat is None or st.action is None:
                continue
            if st.seat != view.seat:
                steps.append((st.seat, LANCES.index(b.lance), st.action, state, start, _kinds(state, st.seat)))
            state = state.act(st.seat, st.action)
    out: list[float] = []
    memo: dict[tuple[int, Hashable], float] = {}
    keys: dict[tuple[int, int], Hashable] = {}
    last = next((r for r in reversed(view.changes) if any(r)), None)  # the last discard round
    others = [s for s in range(4) if s != view.seat]
    kings = view.rules.kings
    calls = view.last_mus_calls
    callers = [(s, calls[s] is True) for s in others if calls is not None and calls[s] is not None]
    for deal in deals:
        if not fits_public(view, deal):
            out.append(-math.inf)
            continue
        keys.clear()
        lw = 0.0 if shows_senas(view, deal) else math.log(TREMBLE)
        if last is not None:
            for seat in others:
                lw += math.log(models.models[seat].prior(rank_id(deal[seat]), last[seat], kings))
        for seat, wants in callers:
            m = models.models[seat]
            p = m.mus_chance(view, seat, deal[seat])
            lw += math.log((1.0 - m.tremble) * (p if wants else 1.0 - p) + m.tremble / 2)
        for i, (seat, li, said, state, start, n) in enumerate(steps):
            model = models.models[seat]
            k = keys.get((seat, li))
            if k is None:
                k = keys[(seat, li)] = model.key(view, seat, deal, start)
            x = memo.get((i, k))
            if x is None:
                probs = model.probs(seat_view(view, seat, deal, state))
                if probs is None:
                    x = 0.0
                else:
                    kind = action_kind(said, state)
                    p = sum(
                        v for a, v in probs.items()
                        if action_kind(a, state) == kind and (not model.exact or a.amount == said.amount)
                    )  # fmt: skip
                    x = math.log((1.0 - model.tremble) * p + model.tremble / n)
                memo[(i, k)] = x
            lw += x
        out.append(lw)
    return out

