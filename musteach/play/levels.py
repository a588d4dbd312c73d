"""The three levels of opponents a learner chooses from: beginner, club player, strong (RULES.md §3–§11).

Every level plays only legal moves and makes only true señas (RULES.md §11).

* :attr:`Level.BEGINNER`: :class:`BeginnerBot`, a :class:`~musteach.play.rule_bot.RuleBot` that bets and
  accepts too often, cuts the mus at once and does not read its partner's señas (it still makes true ones);
* :attr:`Level.CLUB`: :class:`~musteach.play.rule_bot.RuleBot` with its thresholds on simple hand strength;
* :attr:`Level.STRONG`: :class:`~musteach.play.strategy.bot.StrategyBot`, which bets as the computed
  strategy says (:mod:`musteach.play.strategy`, solved by CFR+), adapting where the stakes are high to how
  its opponents are seen to play (:mod:`musteach.play.opponents`), and changes cards as OddsBot does.

:data:`LEGACY` (``make_bot("legacy")``) is the strong level as it was before the computed strategy
(:class:`~musteach.play.odds_bot.OddsBot`): a baseline for ``benchmarks/bench_strength.py``, not a level a
learner chooses (it is not a :class:`Level`); :data:`STRONG_TABLE` (``make_bot("strong-table")``) is the
strong level without its adaptation to the opponents (:class:`~musteach.play.strategy.bot.StrategyBot`).

``benchmarks/bench_levels.py`` plays neighbouring levels against each other and prints their win rates.

>>> make_bot(Level.parse("club")).name, Level.STRONG.title
('Club player', 'Strong')
"""

from __future__ import annotations

from enum import Enum

from ..i18n import N_, Text, translator
from ..rules.errors import MusError
from ..rules.lances import Lance
from .game import View
from .odds_bot import OddsBot
from .policy import Bot
from .rule_bot import RuleBot
from .strategy.bot import StrategyBot

__all__ = ["LEGACY", "STRONG_TABLE", "BeginnerBot", "Level", "make_bot"]

#: The frozen strong level of before the computed strategy, for benchmarks only (not a :class:`Level`).
LEGACY = "legacy"
#: The strong level without its adaptation to the opponents (the computed strategy's table alone), for
#: benchmarks only (not a :class:`Level`).
STRONG_TABLE = "strong-table"


class Level(Enum):
    """How well the bots at the table play."""

    BEGINNER = "beginner"
    CLUB = "club"
    STRONG = "strong"

    @property
    def title(self) -> str:
        """``"Beginner"``, ``"Club player"``, ``"Strong"`` in the language being spoken (``"Principiante"``,
        ``"De club"``, ``"Fuerte"``); :meth:`title_in` takes the language."""
        return self.title_in()

    def title_in(self, lang: str | None = None) -> str:
        """The level's name in ``lang`` (None: the language being spoken)."""
        return translator(lang)(_LEVEL_TITLES[self.value])

    @classmethod
    def parse(cls, value: Level | str) -> Level:
        """A level from its value (``"beginner"``, ``"club"``, ``"strong"``); raises :class:`MusError` naming
        any other value."""
        if isinstance(value, Level):
            return value
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            raise MusError(Text("unknown level {value}: use beginner, club or strong", value=repr(value))) from None


_LEVEL_TITLES = {"beginner": N_("Beginner"), "club": N_("Club player"), "strong": N_("Strong")}


class BeginnerBot(RuleBot):
    """A beginner: RuleBot's hand strength without its partner's señas, opening at 0.55, accepting at 0.35
    and raising at 0.75, and cutting the mus after the first round (RULES.md §3, §6). Its señas are true."""

    def __init__(self, *, name: str | None = None):
        name = name if name is not None else Level.BEGINNER.title
        super().__init__(bet=0.55, accept=0.35, raise_=0.75, max_mus=1, name=name)

    def strength(self, view: View, lance: Lance | str) -> float:
        """RuleBot's strength as if the partner had made no seña."""
        from dataclasses import replace

        return super().strength(replace(view, partner_senas=()), lance)


def make_bot(level: Level | str, *, name: str | None = None, seed: int = 0) -> Bot:
    """A fresh bot of ``level`` (see :class:`Level`, or :data:`LEGACY`); name: its name (default the level's
    title); seed: the strong level's sampling seed. Raises :class:`MusError` for an unknown level."""
    if isinstance(level, str) and level.strip().lower() == LEGACY:
        return OddsBot(name=name or "Legacy", seed=seed)
    if isinstance(level, str) and level.strip().lower() == STRONG_TABLE:
        return StrategyBot(name=name or "Strong (table)", seed=seed)
    lv = Level.parse(level)
    title = name or lv.title
    if lv is Level.BEGINNER:
        return BeginnerBot(name=title)
    if lv is Level.CLUB:
        return RuleBot(name=title)
    return StrategyBot(name=title, seed=seed, adapt=True)
