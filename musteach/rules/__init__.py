"""The rules of Mus: everything RULES.md says, as plain functions over frozen values.

Modules, and the RULES.md sections they implement:

- :mod:`.cards`: the 40-card Spanish deck, card and hand notation, dealing (§1, §0 notation).
- :mod:`.options`: :class:`Rules`, one field per §13 switch, and the named presets (§13).
- :mod:`.errors`: :class:`MusError` (a ``ValueError``) and its precise subclasses.
- :mod:`.lances`: the four lances and Punto for one deal, with seats, mano and ties (§2–§5).
- :mod:`.batch`: the same verdicts for many deals at once, with numpy (§2–§5).
- :mod:`.betting`: envites, envido, quiero, deje, órdago, the declarations (§6).
- :mod:`.count`: the count of a hand, piedras and amarracos, the end of a game (§7, §8).
- :mod:`.senas`: the señas (signals) catalogue and what each tells the partner (§11).
"""

from .options import PRESETS, DejeTiming, FirstHand, LaRealFigure, Rules, SenasSet

__all__ = ["PRESETS", "DejeTiming", "FirstHand", "LaRealFigure", "Rules", "SenasSet"]
