"""What one seat may know of a game: its :class:`View` (what bots and the learner's screen decide from), and
the señas made in a hand (RULES.md §0, §11).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from ..rules.betting import BettingOutcome, LanceBetting
from ..rules.cards import Card, Hand
from ..rules.count import Match
from ..rules.lances import HandInfo, Lance, analyse, team_of
from ..rules.options import Rules
from ..rules.senas import Sena
from .actions import GameAction
from .events import Phase, Turn

__all__ = ["SenaRecord", "View"]


@dataclass(frozen=True, slots=True)
class SenaRecord:
    """A seña made in the current hand: who made it, which, when (context), and the cards it spoke of."""

    seat: int
    sena: Sena
    context: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class View:
    """What one seat may know (for bots and for the learner's screen).

    seat, rules, mano, dealer, hand_number, game_number: where we are. cards: the seat's own 4 cards.
    phase: the hand's phase (a :class:`~musteach.play.events.Phase`). turn: :attr:`~musteach.play.game.Game.to_act`.
    legal: the actions this seat may take now (empty when it is not its turn; worked out when first read).
    score: the game score before this hand; live_score: with the dejes already taken in this hand.
    match: the :class:`~musteach.rules.count.Match`. mus_round: the current mus round (1 for the first call).
    changes: per finished mus round, the number of cards each seat changed (indexed by seat).
    my_discards: the cards this seat threw away in this hand.
    declared: ``{"pares": (sí/no/None per seat), "juego": ...}``: declarations made so far (public).
    betting: the current lance's :class:`~musteach.rules.betting.LanceBetting` (public), or None.
    outcomes: the closed lances' :class:`~musteach.rules.betting.BettingOutcome`, by lance name.
    bettings: the closed lances' whole :class:`~musteach.rules.betting.LanceBetting` (every step is public).
    shown: once the hand is over, the 4 hands shown at the end, by seat (RULES.md §4); else None.
    partner_senas: the señas the partner made about the cards it holds now; my_senas: this seat's own.
    mus_calls: per mus round begun in this hand (the first call of round 1 first), what each seat said, by
    seat: True for mus, False for no hay mus (the cut), None when it has not spoken (after a cut nobody
    speaks; RULES.md §3). The calls of round :attr:`mus_round` were made with the cards held now (a round
    that ended in four mus is followed by a discard, so the earlier rounds' calls speak of earlier cards).
    events: the sentences of this hand's history this seat may read, in order.
    """

    seat: int
    rules: Rules
    mano: int
    dealer: int
    hand_number: int
    game_number: int
    cards: tuple[Card, ...]
    phase: Phase
    turn: Turn | None
    score: dict[str, int]
    live_score: dict[str, int]
    match: Match
    mus_round: int
    changes: tuple[tuple[int, int, int, int], ...]
    my_discards: tuple[Card, ...]
    declared: dict[str, tuple[bool | None, ...]]
    betting: LanceBetting | None
    outcomes: dict[str, BettingOutcome]
    bettings: dict[str, LanceBetting]
    shown: tuple[Hand, ...] | None
    partner_senas: tuple[Sena, ...]
    my_senas: tuple[Sena, ...]
    mus_calls: tuple[tuple[bool | None, ...], ...] = ()
    _events: Callable[[], tuple[str, ...]] = field(default=tuple, repr=False, compare=False)
    _legal: Callable[[], tuple[GameAction, ...]] = field(default=tuple, repr=False, compare=False)

    @cached_property
    def legal(self) -> tuple[GameAction, ...]:
        """The actions this seat may take now (empty when it is not its decision). Read it before acting."""
        return self._legal()

    @cached_property
    def events(self) -> tuple[str, ...]:
        """The sentences of this hand's history this seat may read, up to when the view was made."""
        return self._events()

    @property
    def team(self) -> str:
        """This seat's team, ``"A"`` or ``"B"``."""
        return team_of(self.seat)

    @property
    def partner(self) -> int:
        """The partner's seat (opposite: seat + 2)."""
        return (self.seat + 2) % 4

    @property
    def position(self) -> int:
        """Distance from mano in speaking order: 0 = mano ... 3 = postre."""
        return (self.seat - self.mano) % 4

    @property
    def hand(self) -> Hand:
        """The seat's cards as a :class:`~musteach.rules.cards.Hand`."""
        return Hand(self.cards)

    @cached_property
    def info(self) -> HandInfo:
        """How the seat's cards stand in every lance (:func:`~musteach.rules.lances.analyse`)."""
        return analyse(Hand(self.cards), self.rules)

    @property
    def lance(self) -> Lance | None:
        """The lance being bet or declared now, or None."""
        return self.phase.lance

    @property
    def last_mus_calls(self) -> tuple[bool | None, ...] | None:
        """The mus calls made with the cards held now (round :attr:`mus_round`'s entry of :attr:`mus_calls`,
        4 by seat), or None when nobody has spoken in that round yet or the seats are changing cards."""
        if self.phase is Phase.DISCARD or len(self.mus_calls) < self.mus_round:
            return None
        return self.mus_calls[self.mus_round - 1]

    @property
    def to_go(self) -> dict[str, int]:
        """Stones each team still needs to win the game, from :attr:`live_score`."""
        return {t: self.rules.target - v for t, v in self.live_score.items()}
