"""One hand of Mus as it is played: the cards, the stock, who has spoken, the bettings and the count
(RULES.md §3–§8). A :class:`~musteach.play.game.Game` changes a :class:`HandState` through its actions.
"""

from __future__ import annotations

from ..rules.betting import BettingOutcome, Declaration, LanceBetting
from ..rules.cards import Card, Hand
from ..rules.count import CountResult
from ..rules.lances import DealResult, Lance, check_seat, speaking_order
from ..rules.options import Rules
from .events import Phase, Turn
from .view import SenaRecord

__all__ = ["HandState"]


class HandState:
    """The state of one hand (mutable; a :class:`Game` changes it through its actions).

    number: hand number in the whole session (1-based); game_number: the game it belongs to.
    mano, dealer: seats (dealer = mano + 3, the postre). start_score: the game score before the hand.
    dealt: the 4 hands as first dealt, by seat. phase: a :class:`~musteach.play.events.Phase`.
    deal: the judged :class:`~musteach.rules.lances.DealResult` once the mus is over (the final cards).
    outcomes: each closed lance's :class:`~musteach.rules.betting.BettingOutcome`, by lance name.
    betting: the current lance's :class:`~musteach.rules.betting.LanceBetting`, or None.
    result: the :class:`~musteach.rules.count.CountResult` once the hand is over (None before).
    first_of_game: True for the first hand of a game (no señas under ``first_hand="mus_corrido"``).
    """

    def __init__(self, number: int, game_number: int, mano: int, rules: Rules, start_score: dict[str, int], deck: list[Card]):
        self.number = number
        self.game_number = game_number
        self.mano = mano
        self.dealer = (mano + 3) % 4
        self.rules = rules
        self.start_score = dict(start_score)
        self.order = speaking_order(mano)
        hands: list[list[Card]] = [[], [], [], []]
        for k in range(16):  # one card at a time, counter-clockwise from mano (RULES.md §3)
            hands[(mano + k) % 4].append(deck[k])
        self.hands = hands
        self.dealt: tuple[Hand, ...] = tuple(Hand(h) for h in hands)
        self.stock: list[Card] = deck[16:]
        self.discards: list[Card] = []
        self.my_discards: list[list[Card]] = [[], [], [], []]
        self.versions = [0, 0, 0, 0]  # bumped each time a seat's cards change
        self.phase = Phase.MUS
        self.mus_round = 1
        self.spoken = 0  # seats that have spoken in this mus round / discard round / declaration
        self.pending: dict[int, tuple[Card, ...]] = {}
        self.changes: list[tuple[int, int, int, int]] = []
        self.reshuffles = 0
        self.deal: DealResult | None = None
        self.decl: dict[str, Declaration] = {}
        self.declared: dict[str, list[bool | None]] = {"pares": [None] * 4, "juego": [None] * 4}
        self.lances: tuple[Lance, ...] = ()
        self.lance_index = -1
        self.betting: LanceBetting | None = None
        self.bettings: dict[str, LanceBetting] = {}
        self.outcomes: dict[str, BettingOutcome] = {}
        self.live_score = dict(start_score)
        self.senas: list[SenaRecord] = []
        self.result: CountResult | None = None
        self.ended_by: str | None = None
        self.first_of_game = number == 1
        self.first_event = 0  # index of the hand's first event in the game's history

    # --- where we are -------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the hand is counted (:attr:`result` set)."""
        return self.phase is Phase.OVER

    @property
    def cards_final(self) -> bool:
        """True once the mus is over: the cards will not change again in this hand."""
        return self.deal is not None

    @property
    def lance(self) -> Lance | None:
        """The lance being declared or bet, or None."""
        return self.phase.lance

    def cards(self, seat: int) -> Hand:
        """The cards ``seat`` holds now (4 cards, except in the middle of a discard round)."""
        return Hand(self.hands[check_seat(seat)])

    @property
    def explanation(self) -> list[str]:
        """The count's sentences, step by step (empty before the hand is over)."""
        return self.result.explanation if self.result is not None else []

    @property
    def sena_context(self) -> str:
        """The :data:`~musteach.rules.senas.CONTEXTS` entry for a seña made now."""
        if not self.cards_final:
            return "mus"
        lance = self.lance
        if lance is Lance.PUNTO:
            return "punto"
        if lance is Lance.GRANDE:
            return "lances"
        return "after_grande"

    def to_act(self) -> Turn | None:
        """Whose decision it is (see :attr:`Game.to_act`)."""
        if self.phase is Phase.OVER:
            return None
        if self.phase in (Phase.MUS, Phase.DISCARD) or self.phase.is_declaration:
            s = self.order[self.spoken]
            return Turn(s, self.phase, (s,))
        assert self.betting is not None
        seats = self.betting.to_act
        return Turn(seats[0], self.phase, seats)
