"""Play: a whole game of Mus, move by move, and the bots that play it.

Modules, and the RULES.md sections they implement:

- :mod:`.actions`: each decision as a frozen record (:class:`~.actions.MusCall`, :class:`~.actions.Discard`,
  :class:`~.actions.Declare`, :class:`~.actions.Signal`, :class:`~.actions.NextHand`; the betting's
  :class:`~musteach.rules.betting.Action`) and :func:`~.actions.parse_action` (§3 the mus and the discard,
  §4 the declarations, §6 the betting, §11 señas).
- :mod:`.events`: the history: :class:`~.events.Phase`, :class:`~.events.EventKind`, :class:`~.events.Turn`
  and :class:`~.events.Event`, which keeps each decision's record (§2 turn order).
- :mod:`.view`: :class:`~.view.View`, what one seat may know (§0 seats and teams, §11 señas seen by the partner).
- :mod:`.hand`: :class:`~.hand.HandState`, one hand as it is played (§3 the deal and the mus, §4 the lances).
- :mod:`.game`: :class:`~.game.Game`, the flow of a match (verify / can / act), and :func:`~.game.replay`
  (§2, §3, §4, §6, §7, §8 the count, §10 games and the match, §11).
- :mod:`.bots`: :class:`~.bots.RuleBot`, :class:`~.bots.OddsBot`, their policies, and :func:`~.bots.run` /
  :func:`~.bots.play_match`, which let them play (§3, §6, §11); the levels in :mod:`.levels`; the strong
  level bets by :mod:`.strategy` (a betting strategy solved by CFR+ and shipped as a table, §4, §6, §7, §11)
  and changes cards as :mod:`.odds_bot` does; the coach's betting rollouts are in :mod:`.rollout`.
- :mod:`.beliefs`: how likely each deal of the hidden cards is after what every seat said (Bayes through the
  strategy; §4, §6, §11).
- :mod:`.deals`: the random deals they weigh, without numpy: a shipped pool of random orders, the tables that
  judge each sampled deal (§2, §4, §5, §13 la real) and numpy's sums; :mod:`.tables`: each hand's en-paso
  value, sampled once and shipped (§3, §7), so a lesson kernel never loads numpy.

The coach's comments on a learner's decision are in :mod:`musteach.teach.coach`.
"""
