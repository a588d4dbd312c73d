"""Computer players for :class:`~musteach.play.game.Game`, a coach, and a driver that lets them play (RULES.md §3–§11).

Every bot has one method that matters, ``decide(view) -> action``, where ``view`` is the
:class:`~musteach.play.game.View` of its own seat: its cards, the public actions, and the señas its partner
made. It never sees another hand. ``signals(view)`` gives the señas it shows its partner; they are
always true (RULES.md §11).

* :class:`RuleBot` plays by simple thresholds on its hand's strength in each lance, discards keeping
  kings, aces, pairs and juego makers, and reads its partner's señas.
* :class:`OddsBot` weighs its chances: the probability that its team wins each lance, over random
  deals of the unseen cards that fit everything it knows (its partner's señas, everybody's "pares sí /
  no" and "juego sí / no"), judged as :func:`musteach.rules.batch.evaluate_batch` judges them, without numpy
  (:mod:`musteach.play.deals`); it keeps the discard
  with the most stones expected, and bets or accepts when the expected stones say so.
* :meth:`OddsBot.advise` gives its action with a reason a learner can read (the coach of
  :mod:`musteach.teach.coach` builds on it).
* :func:`run` drives a game: bots play their seats until a learner's seat must act.

>>> from musteach.play.game import Game
>>> g = Game(seed=11)
>>> bots = {s: RuleBot() for s in range(4)}
>>> _ = run(g, bots, hands=1)
>>> g.hand.is_over, g.hand.result is not None
(True, True)
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..i18n import Text
from ..rules.errors import MusError
from ..rules.options import Rules
from .game import Event, Game
from .odds_bot import Estimate, OddsBot, OpponentModel, estimate
from .policy import Advice, Bot, match_equity
from .rule_bot import RuleBot

# The bots live in rule_bot and odds_bot, their common parts in policy; they stay importable from here.
__all__ = [
    "Advice",
    "Bot",
    "Estimate",
    "OddsBot",
    "OpponentModel",
    "RuleBot",
    "estimate",
    "match_equity",
    "play_match",
    "run",
]


# ----------------------------------------------------------------------------------------------
# Driving a game
# ----------------------------------------------------------------------------------------------


def _senas_done(game: Game, seat: int) -> bool:
    return any(r.seat == seat and r.context != "mus" for r in game.hand.senas)


def run(
    game: Game,
    bots: Mapping[int, Bot],
    *,
    hands: int | None = None,
    stop_at: Iterable[int] = (),
    max_actions: int = 100_000,
) -> list[Event]:
    """Let ``bots`` (by seat) play ``game`` until a seat in ``stop_at`` (a learner) must act, the match
    is over, or ``hands`` hands have been finished (None: no limit; a finished hand is followed by the
    next one unless that would pass the limit).

    When the lances begin, each bot shows its partner its señas (:meth:`Bot.signals`), mano first.
    Returns the new events. Raises :class:`MusError` when a seat without a bot must act and is not in
    ``stop_at``, or when a bot plays an illegal action (a bug in the bot).
    """
    stop = set(stop_at)
    start = len(game.history)
    finished = 0
    asked: set[tuple[int, int]] = set()
    for _ in range(max_actions):
        if game.hand.is_over:
            seen: set[int] = set()
            for seat, bot in bots.items():
                if id(bot) not in seen and hasattr(bot, "observe"):
                    seen.add(id(bot))
                    bot.observe(game.view(seat))
            if game.is_over:
                break
            finished += 1
            if hands is not None and finished >= hands:
                break
            game.next_hand()
            continue
        h = game.hand
        if h.cards_final and game.rules.senas != "off":
            for seat in h.order:
                if seat in bots and seat not in stop and (h.number, seat) not in asked and not _senas_done(game, seat):
                    asked.add((h.number, seat))
                    for s in bots[seat].signals(game.view(seat)):
                        if game.can_signal(seat, s):
                            game.signal(seat, s)
        turn = game.to_act
        assert turn is not None
        seat = turn.seat
        if seat in stop or seat not in bots:
            if seat in stop:
                break
            raise MusError(Text("seat {seat} must act ({turn}) but has no bot", seat=seat, turn=turn.sentence))
        game.act(seat, bots[seat].decide(game.view(seat)))
    else:
        raise MusError(Text("the game did not finish within {n} actions", n=max_actions))
    return game.history[start:]


def play_match(
    bots: Mapping[int, Bot] | Sequence[Bot],
    rules: Rules | None = None,
    seed: int = 0,
    *,
    first_mano: int = 0,
    lang: str | None = None,
) -> Game:
    """A whole match between four bots (by seat: 0 and 2 are team A); returns the finished :class:`Game`, whose
    history speaks ``lang`` (None: the language being spoken now)."""
    by_seat = dict(enumerate(bots)) if isinstance(bots, Sequence) else dict(bots)
    game = Game(rules, seed, first_mano=first_mano, lang=lang)
    run(game, by_seat)
    return game
