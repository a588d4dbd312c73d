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

from ..i18n import N_, Text, speaking, translator
from ..play.actions import GameAction
from ..play.events import Phase
from ..play.game import Game, replay
from ..play.view import View
from ..rules.cards import Card
from ..rules.errors import MusError
from ..rules.lances import Lance, ranks_text
from .coach import action_words
from .grading import DecisionGrade, chance_loss_text, close_text
from .progress import GameResult

#: Where a decision outside a lance's betting was taken, by phase.
_PHASE_PLACES: dict[Phase, str] = {Phase.MUS: N_("mus"), Phase.DISCARD: N_("discard")}

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
        """The stone equivalent of the points of win chance lost against the best action (rounded to 0.1,
        :attr:`~musteach.teach.grading.DecisionGrade.stones_loss`)."""
        return self.grade.stones_loss

    @property
    def points_lost(self) -> float:
        """Points of win chance (of 100) lost against the best action (rounded to 0.1)."""
        return self.grade.loss

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
        """Where the decision was taken: the lance of a bet (``"Grande"``), else the phase (``"mus"``), in the
        language being spoken."""
        g = self.grade
        if g.lance is not None and g.phase.is_betting:
            return g.lance.title
        return translator()(_PHASE_PLACES[g.phase]) if g.phase in _PHASE_PLACES else g.phase.value

    def replay_label(self, *, lang: str | None = None) -> str:
        """A replay button's words: ``"Replay hand 3, Grande: paso"``, the decision named as the live comment
        names it (``"changing R-7"`` for a discard). lang: None for the language being spoken."""
        with speaking(lang):
            _ = translator()
            return _(
                "Replay hand {hand}, {where}: {action}",
                hand=self.hand_number, where=self.where, action=action_words(self.grade.action, kings=self.kings),
            )  # fmt: skip

    def line(self, *, lang: str | None = None) -> str:
        """``"Hand 3, R-R-7-A, Grande: you said paso; best envido 2; 1.2 points of win chance lost (0.7
        stones) (a mistake)."``: the cards and the decisions named as the live comment names them (a discard
        as ``"changing R-7"``); "too close to call" instead of a tier when the sampling error blurs it
        (lang: None for the language being spoken)."""
        with speaking(lang):
            _ = translator()
            g = self.grade
            facts = {
                "hand": self.hand_number,
                "cards": ranks_text(self.cards, self.kings),
                "where": self.where,
                "action": action_words(g.action, kings=self.kings),
            }
            if g.loss == 0 and not g.too_close:
                return _("Hand {hand}, {cards}, {where}: you said {action}; best.", **facts)
            facts |= {"best": action_words(g.best.action, kings=self.kings), "loss": chance_loss_text(g.loss, g.per_stone)}
            if g.too_close:
                if g.loss == 0:
                    return _("Hand {hand}, {cards}, {where}: you said {action}; too close to call.", **facts)
                facts["loss"] = close_text(g.loss, g.sampling_error, g.per_stone)
                return _("Hand {hand}, {cards}, {where}: you said {action}; {best} was ahead by {loss}: too close to call.", **facts)
            return _(
                "Hand {hand}, {cards}, {where}: you said {action}; best {best}; {loss} ({grade}).",
                grade=g.grade.article, **facts,
            )  # fmt: skip


def record_decision(view: View, event_index: int, grade: DecisionGrade) -> DecisionRecord:
    """The :class:`DecisionRecord` of the learner's decision graded from ``view`` (before it is played),
    whose event will take index ``event_index`` in the history."""
    return DecisionRecord(view.game_number, view.hand_number, event_index, tuple(view.cards), grade, view.rules.kings)


@dataclass(frozen=True)
class GameReview:
    """The review of one finished game for the learner at ``seat``.

    game_number: the game (1-based in the match). winner: its winning team ("A" or "B"). score: the final
    score ``(A, B)`` in stones. team: the learner's team. decisions: the learner's graded decisions of the
    game, worst first (most points of win chance lost; ties in playing order). banner: the sentence that announces it.
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

    def summary(self, *, lang: str | None = None) -> str:
        """``"12 decisions, 2.4 stones lost: an error rate of 0.20 stones per decision."`` (lang: None for the
        language being spoken)."""
        _ = translator(lang)
        return _.ngettext(
            "{n} decision, {lost} stones lost: an error rate of {rate} stones per decision.",
            "{n} decisions, {lost} stones lost: an error rate of {rate} stones per decision.",
            len(self.decisions), lost=_.number(self.stones_lost, 1), rate=_.number(self.error_rate, 2),
        )  # fmt: skip


def _game_end(game: Game, game_number: int) -> tuple[str, tuple[int, int], str | None]:
    """(winner, final score (A, B) in stones, the lance of the accepted órdago that decided it or None)."""
    for h in game.hands:
        r = h.result
        if h.game_number == game_number and r is not None and r.game_over:
            assert r.game_winner is not None
            ordago = r.ended_at.split(":", 1)[1] if r.ordago and r.ended_at else None
            return r.game_winner, (r.final_score["A"], r.final_score["B"]), ordago
    raise MusError(
        Text("game {game} is not over yet (games finished: {finished})", game=game_number, finished=game.games_finished)
    )


def review_game(
    game: Game, seat: int, decisions: Iterable[DecisionRecord], game_number: int, *, lang: str | None = None
) -> GameReview:
    """The review of game ``game_number`` of ``game`` for the learner at ``seat``; ``decisions``: the
    learner's graded decisions (those of other games are left out). Raises :class:`MusError` when that
    game is not over. lang: the banner's language (None: the one being spoken)."""
    winner, score, ordago = _game_end(game, game_number)
    team = "A" if seat % 2 == 0 else "B"
    mine = [d for d in decisions if d.game_number == game_number]
    worst = tuple(sorted(mine, key=lambda d: (-d.points_lost, -d.stones_lost, d.event_index)))
    won, lost = (score[0], score[1]) if winner == "A" else (score[1], score[0])
    with speaking(lang):
        _ = translator()
        facts = {"game": game_number, "team": winner, "a": score[0], "b": score[1]}
        if ordago is not None:  # the score stays where the hand began (RULES.md §7a): the órdago decided the game
            lance = Lance(ordago).title
            if winner == team:
                banner = _(
                    "Game {game} is over: your team (team {team}) won it with the accepted órdago in {lance}; "
                    "the score stood at A {a}, B {b}.", lance=lance, **facts,
                )  # fmt: skip
            else:
                banner = _(
                    "Game {game} is over: the opponents (team {team}) won it with the accepted órdago in {lance}; "
                    "the score stood at A {a}, B {b}.", lance=lance, **facts,
                )  # fmt: skip
        elif winner == team:
            banner = _(
                "Game {game} is over: your team (team {team}) won it, {won} to {lost} (A {a}, B {b}).",
                won=won, lost=lost, **facts,
            )  # fmt: skip
        else:
            banner = _(
                "Game {game} is over: the opponents (team {team}) won it, {won} to {lost} (A {a}, B {b}).",
                won=won, lost=lost, **facts,
            )  # fmt: skip
    return GameReview(game_number, winner, score, team, worst, banner)


def match_banner(game: Game, seat: int, *, lang: str | None = None) -> str | None:
    """``"The match is over: your team (team A) won it, 2 games to 1."``; None while it goes on (lang: None
    for the language being spoken)."""
    if not game.is_over:
        return None
    _ = translator(lang)
    w = game.winner
    games = game.games_won  # not match.games: those go back to 0-0 once the match (its last vaca) is won
    team = "A" if seat % 2 == 0 else "B"
    other = "B" if w == "A" else "A"
    assert w is not None
    if w == team:
        return _.ngettext(
            "The match is over: your team (team {team}) won it, {n} game to {other}.",
            "The match is over: your team (team {team}) won it, {n} games to {other}.",
            games[w], team=w, other=games[other],
        )  # fmt: skip
    return _.ngettext(
        "The match is over: the opponents (team {team}) won it, {n} game to {other}.",
        "The match is over: the opponents (team {team}) won it, {n} games to {other}.",
        games[w], team=w, other=games[other],
    )  # fmt: skip


def replay_from(game: Game, record: DecisionRecord) -> Game:
    """A new :class:`Game` at the position of ``record``'s decision (its history replayed up to it), so the
    learner can try another action. Raises :class:`MusError` when the record is not of this game's history."""
    if not 0 < record.event_index <= len(game.history):
        raise MusError(
            Text(
                "decision event {event} is not in this game's history of {count} events",
                event=record.event_index, count=len(game.history),
            )
        )  # fmt: skip
    return replay(game.history[: record.event_index], check=False)


def best_game_sentence(best: GameResult | None, *, lang: str | None = None) -> str:
    """``"Your best game so far: 0.12 stones lost per decision (25 decisions)."``; "" before any game kept
    (lang: None for the language being spoken)."""
    if best is None:
        return ""
    _ = translator(lang)
    return _.ngettext(
        "Your best game so far: {rate} stones lost per decision ({n} decision, {date}).",
        "Your best game so far: {rate} stones lost per decision ({n} decisions, {date}).",
        best.decisions, rate=_.number(best.error_rate, 2), date=f"{best.at:%Y-%m-%d}",
    )  # fmt: skip
