"""Scores in amarracos and piedras, *dentro*, and the match: games and vacas (RULES.md §8, §9, §10).

>>> describe_score(37)
'7 amarracos and 2 piedras (37 stones): dentro, 3 to go'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..i18n import Text, translator
from .errors import BettingError
from .options import Rules
from .stakes import TEAMS, other_team, stones_text

if TYPE_CHECKING:  # a counted hand is only read here; count.py re-exports this module
    from .count import CountResult, Score

__all__ = ["Match", "describe_score", "from_amarracos", "is_dentro", "to_amarracos"]


# ----------------------------------------------------------------------------------------------
# Amarracos and dentro (RULES.md §9)
# ----------------------------------------------------------------------------------------------


def _check_stones(stones: object) -> int:
    if isinstance(stones, bool) or not isinstance(stones, int) or stones < 0:
        raise BettingError(Text("a score is a whole number of stones ≥ 0, not {value}", value=repr(stones)))
    return stones


def to_amarracos(stones: int) -> tuple[int, int]:
    """``(amarracos, piedras)`` for a score in stones: 1 amarraco = 5 stones (RULES.md §9).

    >>> to_amarracos(37), to_amarracos(40)
    ((7, 2), (8, 0))
    """
    return divmod(_check_stones(stones), 5)


def from_amarracos(amarracos: int, piedras: int = 0) -> int:
    """Stones for ``amarracos`` and loose ``piedras``: ``from_amarracos(7, 2) == 37`` (RULES.md §9)."""
    return 5 * _check_stones(amarracos) + _check_stones(piedras)


def is_dentro(stones: int, rules: Rules | None = None) -> bool:
    """True when a team is *dentro* ("inside"): 5 or fewer stones from the target, not yet there (RULES.md §9)."""
    target = (rules or Rules()).target
    return target - 5 <= _check_stones(stones) < target


def describe_score(stones: int, rules: Rules | None = None, lang: str | None = None) -> str:
    """A score in amarracos and piedras, with *dentro* when it applies (RULES.md §9).

    stones: the team's score in stones; rules: for the target (default 40).
    lang: the language (None: the one being spoken, see :func:`musteach.i18n.speaking`).
    Raises :class:`BettingError` for a score that is not a whole number ≥ 0.

    >>> describe_score(0), describe_score(6), describe_score(40)
    ('0 stones', '1 amarraco and 1 piedra (6 stones)', '8 amarracos (40 stones): game won')
    >>> from musteach import Rules
    >>> describe_score(25, Rules(target=30))
    '5 amarracos (25 stones): dentro, 5 to go'
    """
    _ = translator(lang)
    rules = rules or Rules()
    a, p = to_amarracos(stones)
    parts = []
    if a:
        parts.append(_.ngettext("{n} amarraco", "{n} amarracos", a))
    if p:
        parts.append(_.ngettext("{n} piedra", "{n} piedras", p))
    total = stones_text(stones, _.lang)
    text = _("{amount} ({stones})", amount=_.join(parts), stones=total) if parts else total
    if stones >= rules.target:
        return _("{score}: game won", score=text)
    if is_dentro(stones, rules):
        return _("{score}: dentro, {n} to go", score=text, n=rules.target - stones)
    return text


# ----------------------------------------------------------------------------------------------
# Games, vacas and the match (RULES.md §8, §10)
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match:
    """A match's score: stones in the current game, games in the current vaca, vacas (RULES.md §8, §10).

    A game is won by the first team to reach ``rules.target`` stones (then the score goes back to 0-0);
    ``rules.games_per_vaca`` games win a vaca (then games go back to 0-0); ``rules.vacas_per_match`` vacas
    win the match. Frozen: every method returns a new :class:`Match`.

    >>> m = Match(Rules(games_per_vaca=2)).add_stones("A", 38).add_stones("A", 5)
    >>> m.score, m.games, m.vacas, m.winner
    ({'A': 0, 'B': 0}, {'A': 1, 'B': 0}, {'A': 0, 'B': 0}, None)
    >>> m = Match(Rules(games_per_vaca=2)).win_game("A").win_game("B").win_game("A")
    >>> m.vacas, m.winner
    ({'A': 1, 'B': 0}, 'A')
    """

    rules: Rules = field(default_factory=Rules)
    stones: tuple[int, int] = (0, 0)
    game_wins: tuple[int, int] = (0, 0)
    vaca_wins: tuple[int, int] = (0, 0)
    winner: str | None = None
    events: tuple[str, ...] = ()

    @property
    def score(self) -> Score:
        """Stones in the current game: ``{"A": n, "B": n}``."""
        return {"A": self.stones[0], "B": self.stones[1]}

    @property
    def games(self) -> Score:
        """Games won in the current vaca."""
        return {"A": self.game_wins[0], "B": self.game_wins[1]}

    @property
    def vacas(self) -> Score:
        """Vacas won in the match."""
        return {"A": self.vaca_wins[0], "B": self.vaca_wins[1]}

    @property
    def over(self) -> bool:
        """True once a team has won the match."""
        return self.winner is not None

    def _check(self, team: str) -> int:
        if self.over:
            raise BettingError(Text("the match is over: team {team} won it", team=self.winner))
        other_team(team)
        return TEAMS.index(team)

    def add_stones(self, team: str, n: int) -> Match:
        """``team`` scores ``n`` stones; reaching the target wins the game (RULES.md §8)."""
        i = self._check(team)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BettingError(
                Text("stones scored must be a whole number ≥ 0, not {value} (nobody loses stones, RULES.md §12)", value=repr(n))
            )
        s = list(self.stones)
        s[i] += n
        m = replace(self, stones=(s[0], s[1]))
        if s[i] >= self.rules.target:
            return m.win_game(team, Text("Team {team} wins a game with {score} stones.", team=team, score=s[i]))
        return m

    def win_game(self, team: str, how: Text | None = None) -> Match:
        """``team`` wins the current game (reaching the target, or an accepted órdago); the score resets to 0-0.

        how: the sentence of the win for :attr:`events` (default ``"Team A wins a game."``). The events are
        written in the language being spoken (:func:`musteach.i18n.speaking`).
        """
        i = self._check(team)
        _ = translator()
        g = list(self.game_wins)
        g[i] += 1
        v = list(self.vaca_wins)
        events = [*self.events, how.render(_.lang) if how is not None else _("Team {team} wins a game.", team=team)]
        winner = None
        if g[i] >= self.rules.games_per_vaca:
            v[i] += 1
            events.append(_("Team {team} wins a vaca ({a}-{b} in games).", team=team, a=g[0], b=g[1]))
            g = [0, 0]
            if v[i] >= self.rules.vacas_per_match:
                winner = team
                events.append(_("Team {team} wins the match ({a}-{b} in vacas).", team=team, a=v[0], b=v[1]))
        return replace(
            self, stones=(0, 0), game_wins=(g[0], g[1]), vaca_wins=(v[0], v[1]), winner=winner, events=tuple(events)
        )

    def after_hand(self, result: CountResult) -> Match:
        """The match after a counted hand: stones, or a game won and perhaps a vaca (RULES.md §8, §10).

        ``result`` must start from this match's score.

        Raises :class:`BettingError` when ``result.start_score`` is not the current score.
        """
        if self.over:
            raise BettingError(Text("the match is over: team {team} won it", team=self.winner))
        if result.start_score != self.score:
            raise BettingError(
                Text(
                    "that hand starts at (A {a}, B {b}), but the game stands at (A {now_a}, B {now_b})",
                    a=result.start_score["A"],
                    b=result.start_score["B"],
                    now_a=self.score["A"],
                    now_b=self.score["B"],
                )
            )
        if result.game_over:
            team = result.game_winner
            assert team is not None
            if result.ordago:
                return self.win_game(team, Text("Team {team} wins a game by órdago.", team=team))
            f = result.final_score
            return self.win_game(team, Text("Team {team} wins a game ({a}-{b}).", team=team, a=f["A"], b=f["B"]))
        f = result.final_score
        return replace(self, stones=(f["A"], f["B"]))

    def describe(self, lang: str | None = None) -> str:
        """The match in words, with each team's stones in amarracos.

        lang: the language (None: the one being spoken, see :func:`musteach.i18n.speaking`).
        """
        _ = translator(lang)
        if self.over:
            return _("Team {team} has won the match (vacas {a}-{b}).", team=self.winner, a=self.vaca_wins[0], b=self.vaca_wins[1])
        return _(
            "Team A: {score_a}; Team B: {score_b}; games {games_a}-{games_b} (first to {games} takes the vaca); "
            "vacas {vacas_a}-{vacas_b} (first to {vacas} takes the match).",
            score_a=describe_score(self.stones[0], self.rules, _.lang),
            score_b=describe_score(self.stones[1], self.rules, _.lang),
            games_a=self.game_wins[0],
            games_b=self.game_wins[1],
            games=self.rules.games_per_vaca,
            vacas_a=self.vaca_wins[0],
            vacas_b=self.vaca_wins[1],
            vacas=self.rules.vacas_per_match,
        )

