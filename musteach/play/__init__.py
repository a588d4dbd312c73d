"""Play: a whole game of Mus, move by move, and the bots that play it.

Modules:

- :mod:`.game`: the game flow (mus, discards, declarations, betting, count, deal rotation, the match), its typed
  actions and events, and replay (RULES.md §3, §6–§8).
- :mod:`.bots`: RuleBot and OddsBot, their policies, and the coach's comments on a learner's decision.
"""
