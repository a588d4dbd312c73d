"""The rules of Mus: everything RULES.md says, as plain functions over frozen values.

Modules, and the RULES.md sections they implement:

- :mod:`.cards`: the 40-card Spanish deck, card and hand notation, dealing (§0 notation, §1, §3 the deal).
- :mod:`.options`: :class:`Rules`, one field per §13 switch, and the named presets (§13).
- :mod:`.errors`: :class:`MusError` (a ``ValueError``) and its precise subclasses (the base and
  :class:`LanguageError` defined below :mod:`musteach.i18n`, in :mod:`musteach.errors`).
- :mod:`.lances`: the four lances and Punto for one deal: ranks, seats, mano and ties (§1, §2, §4, §5).
- :mod:`.lance_names`: the lances' names and rank notation, below both the judging and its words (§1, §4;
  re-exported by :mod:`.lances`).
- :mod:`.lance_words`: why a lance was won, in the learner's language (§2, §5; re-exported by :mod:`.lances`).
- :mod:`.batch`: the same verdicts for many deals at once, with numpy (§2, §4, §5).
- :mod:`.betting`: the betting state machine of one lance: envido, quiero, deje, órdago (§6), re-exporting:
  :mod:`.stakes` (teams, bet totals, the deje, §0, §6), :mod:`.bet_actions` (what a player says, read from
  text, §6), :mod:`.betting_outcome` (how a lance's betting ended, §7a), :mod:`.declarations` (pares / juego
  sí or no, who bets, §4) and :mod:`.betting_random` (random legal betting for quizzes and tests).
- :mod:`.count`: the count of a hand and the end of a game (§7, §7a, §8), re-exporting :mod:`.match`
  (piedras and amarracos, dentro, games, vacas and the match, §9, §10).
- :mod:`.senas`: the señas (signals) catalogue and what each tells the partner (§11).

From a RULES.md section to the one function that implements it (``musteach.`` left out):

====  =======================================  ==========================================================
§     function                                 what it decides
====  =======================================  ==========================================================
§0    ``rules.cards.parse_card``               card codes (``"12o"``), seats 0..3 and teams A / B
§1    ``rules.lances.effective_rank``          rank order and points; 3 = rey and 2 = as in 8 reyes
§2    ``rules.lances.speaking_order``          mano first, the postre last; ties go to the seat nearer mano
§3    ``play.game.Game.act``                   the mus call and the discard of 1 to 4 cards (the deal: ``rules.cards.deal``)
§4    ``rules.declarations.declarations``      pares / juego sí or no, who bets, Punto when nobody has juego
§5    ``rules.lances.evaluate``                who wins each lance of a deal, and why
§6    ``rules.betting.LanceBetting.act``       envido, reenvido, órdago, quiero, no quiero; the deje (``deje``)
§7    ``rules.count.score_lance``              what one lance pays in the count: en paso, accepted, refused
§7a   ``rules.count.count_case``               one ``scoring.json`` case, counted
§8    ``rules.count.count_hand``               the count in order, and the end of the game at the target
§9    ``rules.match.describe_score``           piedras, amarracos and dentro
§10   ``rules.match.Match.after_hand``         games, vacas and the match
§11   ``rules.senas.senas_for``                the señas that truthfully fit a hand
§12   (no code)                                the seeds' errors; the vectors check each correction
§13   ``rules.options.Rules``                  every variant switch, and the presets
====  =======================================  ==========================================================

The odds of each lance and the discard advisor, which count with these rules, are in :mod:`musteach.odds`.
"""

from .options import PRESETS, DejeTiming, FirstHand, LaRealFigure, Rules, SenasSet

__all__ = ["PRESETS", "DejeTiming", "FirstHand", "LaRealFigure", "Rules", "SenasSet"]
