"""The review of a finished game: its banner, the learner's decisions worst first, the error rate, and a
replay from any decision (RULES.md §8, §10; the grades of :mod:`musteach.teach.grading`).

>>> from musteach.play.bots import RuleBot, run
>>> from musteach.play.game import Game
>>> g = Game(seed=4)
>>> _ = run(g, {s: RuleBot() for s in range(4)})
>>> review_game(g, 0, [], 1).banner.startswith("Game 1 is over: ")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..play.actions import GameAction
from ..play.game import Game, replay
from ..play.view import View
from ..rules.cards import Card
from ..rules.errors import MusError
from ..rules.lances import Lance, ranks_text
from .grading import DecisionGrade, Grade, Unit, loss_text
from .progress import GameResult

__all__ = ["best_game_sentence", "DecisionRecord", "GameReview", "match_banner", "record_decision", "replay_from", "review_game"]


@dataclass(frozen=True, slots=True)
class DecisionRecord:
    """One graded decision of the learner, where it was taken.

    game_number, hand_number: the game and hand. event_index: the index in ``game.history`` that the
    decision's event takes (the history before it is the position). cards: the learner's cards then.
    grade: its :class:`~musteach.teach.grading.DecisionGrade`. kings: 8 or 4, how the cards read (RULES.md §1).
    """

    game_number: int
    hand_number: int
    event_index: int
    cards: tuple[Card, ...]
    grade: DecisionGrade
    kings: int = 8

    @property
    def stones_lost(self) -> float:
        """Stones lost against the best action (rounded to 0.1; near the end of a game, the stones behind the
        chances of winning it: :attr:`~musteach.teach.grading.DecisionGrade.stones_loss`)."""
        return self.grade.stones_loss

    @property
    def action(self) -> GameAction:
        """The learner's decision."""
        return self.grade.action

    @property
    def best_action(self) -> GameAction:
        """The best action by the grade's figures."""
        return self.grade.best.action

    @property
    def where(self) -> str:
        """Where the decision was taken: the lance of a bet (``"Grande"``), else the phase (``"mus"``)."""
        g = self.grade
        return g.lance.title if g.lance is not None and g.phase.is_betting else g.phase.value

    def replay_label(self) -> str:
        """A replay button's words: ``"Replay hand 3, Grande: paso"``."""
        return f"Replay hand {self.hand_number}, {self.where}: {self.grade.action}"

    def line(self) -> str:
        """``"Hand 3, R-R-7-A, Grande: you said paso; best envido 2; 0.3 stones lost (an inaccuracy)."``"""
        g = self.grade
        where = self.where
        lost = g.loss
        if g.grade is Grade.BEST:
            tail = "best"
        else:
            tail = f"best {g.best.action}; {loss_text(lost, g.unit)} ({g.grade.article})"
            if g.unit is Unit.WIN_CHANCE:
                tail = f"best {g.best.action}; {loss_text(lost, g.unit)}, {self.stones_lost:.1f} stones ({g.grade.article})"
        return f"Hand {self.hand_number}, {ranks_text(self.cards, self.kings)}, {where}: you said {g.action}; {tail}."


def record_decision(view: View, event_index: int, grade: DecisionGrade) -> DecisionRecord:
    """The :class:`DecisionRecord` of the learner's decision graded from ``view`` (before it is played),
    whose event will take index ``event_index`` in the history."""
    return DecisionRecord(view.game_number, view.hand_number, event_index, tuple(view.cards), grade, view.rules.kings)


@dataclass(frozen=True)
class GameReview:
    """The review of one finished game for the learner at ``seat``.

    game_number: the game (1-based in the match). winner: its winning team ("A" or "B"). score: the final
    score ``(A, B)`` in stones. team: the learner's team. decisions: the learner's graded decisions of the
    game, worst first (most stones lost; ties in playing order). banner: the sentence that announces it.
    """

    game_number: int
    winner: str
    score: tuple[int, int]
    team: str
    decisions: tuple[DecisionRecord, ...]
    banner: str

    @property
    def stones_lost(self) -> float:
        """Stones lost over the game's decisions (the sum of their rounded losses)."""
        return round(sum(d.stones_lost for d in self.decisions), 1)

    @property
    def error_rate(self) -> float:
        """Stones lost per decision (0.0 for a game without a graded decision)."""
        return self.stones_lost / len(self.decisions) if self.decisions else 0.0

    def summary(self) -> str:
        """``"12 decisions, 2.4 stones lost: an error rate of 0.20 stones per decision."``"""
        n = len(self.decisions)
        return (
            f"{n} decision{'' if n == 1 else 's'}, {self.stones_lost:.1f} stones lost: an error rate of "
            f"{self.error_rate:.2f} stones per decision."
        )


def _game_end(game: Game, game_number: int) -> tuple[str, tuple[int, int], str | None]:
    """(winner, final score (A, B) in stones, the lance of the accepted órdago that decided it or None)."""
    for h in game.hands:
        r = h.result
        if h.game_number == game_number and r is not None and r.game_over:
            assert r.game_winner is not None
            ordago = r.ended_at.split(":", 1)[1] if r.ordago and r.ended_at else None
            return r.game_winner, (r.final_score["A"], r.final_score["B"]), ordago
    raise MusError(f"game {game_number} is not over yet (games finished: {game.games_finished})")


def review_game(game: Game, seat: int, decisions: Iterable[DecisionRecord], game_number: int) -> GameReview:
    """The review of game ``game_number`` of ``game`` for the learner at ``seat``; ``decisions``: the
    learner's graded decisions (those of other games are left out). Raises :class:`MusError` when that
    game is not over."""
    winner, score, ordago = _game_end(game, game_number)
    team = "A" if seat % 2 == 0 else "B"
    mine = [d for d in decisions if d.game_number == game_number]
    worst = tuple(sorted(mine, key=lambda d: (-d.stones_lost, -d.grade.loss, d.event_index)))
    who = "your team" if winner == team else "the opponents"
    won, lost = (score[0], score[1]) if winner == "A" else (score[1], score[0])
    if ordago is not None:  # the score stays where the hand began (RULES.md §7a): the órdago decided the game
        banner = (
            f"Game {game_number} is over: {who} (team {winner}) won it with the accepted órdago in "
            f"{Lance(ordago).title}; the score stood at A {score[0]}, B {score[1]}."
        )
    else:
        banner = f"Game {game_number} is over: {who} (team {winner}) won it, {won} to {lost} (A {score[0]}, B {score[1]})."
    return GameReview(game_number, winner, score, team, worst, banner)


def match_banner(game: Game, seat: int) -> str | None:
    """``"The match is over: your team (team A) won it, 2 games to 1."``; None while it goes on."""
    if not game.is_over:
        return None
    w = game.winner
    games = game.match.games
    team = "A" if seat % 2 == 0 else "B"
    who = "your team" if w == team else "the opponents"
    other = "B" if w == "A" else "A"
    assert w is not None
    n = games[w]
    return f"The match is over: {who} (team {w}) won it, {n} game{'' if n == 1 else 's'} to {games[other]}."


def replay_from(game: Game, record: DecisionRecord) -> Game:
    """A new :class:`Game` at the position of ``record``'s decision (its history replayed up to it), so the
    learner can try another action. Raises :class:`MusError` when the record is not of this game's history."""
    if not 0 < record.event_index <= len(game.history):
        raise MusError(f"decision event {record.event_index} is not in this game's history of {len(game.history)} events")
    return replay(game.history[: record.event_index], check=False)


def best_game_sentence(best: GameResult | None) -> str:
    """``"Your best game so far: 0.12 stones lost per decision (25 decisions)."``; "" before any game kept."""
    if best is None:
        return ""
    n = best.decisions
    return (
        f"Your best game so far: {best.error_rate:.2f} stones lost per decision "
        f"({n} decision{'' if n == 1 else 's'}, {best.at:%Y-%m-%d})."
    )
