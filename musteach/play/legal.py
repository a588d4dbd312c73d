"""What a seat may do now in a hand, and why not: the legal actions and the checks that name the broken rule
(RULES.md §2, §3, §4, §6, §11).

A :class:`~musteach.play.game.Game` asks these functions through :meth:`~musteach.play.game.Game.legal_actions`,
:meth:`~musteach.play.game.Game.verify` and :meth:`~musteach.play.game.Game.legal_senas`; they read a
:class:`~musteach.play.hand.HandState` (a hand being played, not over) and change nothing.

>>> from musteach.play.game import Game
>>> g = Game(seed=7)
>>> [str(a) for a in legal_actions(g.hand, 0)]
['mus', 'no hay mus']
>>> verify_action(g.hand, 1, "mus")
Traceback (most recent call last):
...
musteach.rules.errors.IllegalActionError: seat 1 cannot say mus: it is seat 0's turn (Seat 0 to say mus or no hay mus; RULES.md §2)
"""

from __future__ import annotations

from itertools import combinations

from ..i18n import Text
from ..rules.betting import Action
from ..rules.errors import IllegalActionError
from ..rules.lances import Lance, check_seat
from ..rules.senas import Sena, SenaError, check_sena, senas_for
from .actions import Declare, Discard, GameAction, MusCall, Signal, cards_text, parse_action
from .events import Phase
from .hand import HandState

__all__ = ["holds", "legal_actions", "legal_senas", "senas_allowed", "verify_action", "verify_signal"]


def holds(hand: HandState, seat: int, lance: Lance) -> bool:
    """True if ``seat`` holds pares (``lance`` Pares) or juego (Juego) with its final cards (RULES.md §4).
    The hand's lances must have begun (its cards judged)."""
    d = hand.deal
    assert d is not None
    info = d.infos[seat]
    return info.pares is not None if lance is Lance.PARES else info.is_juego


def legal_actions(hand: HandState, seat: int) -> list[GameAction]:
    """What ``seat`` may do now in ``hand`` (empty if it is not its decision, or the hand is over),
    Bets appear with their smallest amount (envido 2, 2 más); any larger amount is also legal.
    Señas are listed by :func:`legal_senas`. Raises :class:`~musteach.rules.errors.SeatError` for a bad seat."""
    check_seat(seat)
    h = hand
    if h.is_over:
        return []
    if h.phase.is_betting:
        assert h.betting is not None
        return list(h.betting.legal_actions(seat))
    turn = h.to_act()
    if turn is None or seat != turn.seat:
        return []
    if h.phase is Phase.MUS:
        return [MusCall(True, seat=seat), MusCall(False, seat=seat)]
    if h.phase is Phase.DISCARD:
        cards = h.hands[seat]
        return [Discard(c, seat=seat) for size in (1, 2, 3, 4) for c in combinations(cards, size)]
    lance = h.lance
    assert lance is not None
    return [Declare(lance, holds(h, seat, lance), seat=seat)]


def verify_action(hand: HandState, seat: int, action: object) -> GameAction:
    """Check that ``seat`` may play ``action`` (a record or its text) now in ``hand``; return the record, naming
    ``seat`` as its actor. Raises :class:`IllegalActionError` (or another :class:`~musteach.rules.errors.MusError`) naming the
    seat and the rule: out of turn (§2), the wrong kind of decision for the phase (§3, §4, §6), a card not in
    the hand (§3), an untruthful declaration (§4), a record that names another seat, a seña not allowed (§11)."""
    check_seat(seat)
    h = hand
    a = parse_action(action, h.phase)
    if isinstance(a, Signal):
        a = a.by(seat)
        verify_signal(h, seat, a.sena)
        return a
    if h.is_over:
        raise IllegalActionError(
            Text(
                "seat {seat} cannot say {action}: hand {hand} is over; deal the next hand first (next_hand)",
                seat=seat,
                action=str(a),
                hand=h.number,
            )
        )
    a = a.by(seat)
    phase = h.phase
    if phase.is_betting:
        if not isinstance(a, Action):
            raise IllegalActionError(
                Text(
                    "seat {seat} cannot say {action}: this is the {lance} betting; say paso, envido, "
                    "a raise, órdago, quiero or no quiero (RULES.md §6)",
                    seat=seat,
                    action=str(a),
                    lance=h.betting.lance.title if h.betting else str(phase),
                )
            )
        assert h.betting is not None
        return h.betting.verify(seat, a)
    turn = h.to_act()
    assert turn is not None
    if seat != turn.seat:
        raise IllegalActionError(
            Text(
                "seat {seat} cannot say {action}: it is seat {turn_seat}'s turn ({turn}; RULES.md §2)",
                seat=seat,
                action=str(a),
                turn_seat=turn.seat,
                turn=turn.sentence,
            )
        )
    if phase is Phase.MUS:
        if not isinstance(a, MusCall):
            raise IllegalActionError(
                Text(
                    "seat {seat} cannot say {action} now: first everybody says mus or no hay mus (RULES.md §3)",
                    seat=seat,
                    action=str(a),
                )
            )
        return a
    if phase is Phase.DISCARD:
        return _verify_discard(h, seat, a)
    return _verify_declaration(h, seat, a)


def _verify_discard(h: HandState, seat: int, a: GameAction) -> Discard:
    """:func:`verify_action` in the discard: 1 to 4 cards of the seat's hand (RULES.md §3)."""
    if not isinstance(a, Discard):
        raise IllegalActionError(
            Text(
                "seat {seat} cannot say {action} now: everybody said mus, so each player discards 1 to 4 cards "
                "(RULES.md §3)",
                seat=seat,
                action=str(a),
            )
        )
    for c in a.cards:
        if c not in h.hands[seat]:
            raise IllegalActionError(
                Text(
                    "seat {seat} cannot discard {code} ({name}): it is not in the hand {hand}",
                    seat=seat,
                    code=c.code,
                    name=c.name,
                    hand=cards_text(h.hands[seat]),
                )
            )
    return a


def _verify_declaration(h: HandState, seat: int, a: GameAction) -> Declare:
    """:func:`verify_action` in a declaration: the lance's, and the truth (RULES.md §4)."""
    lance = h.lance
    assert lance is not None
    if not isinstance(a, Declare) or a.lance is not lance:
        raise IllegalActionError(
            Text(
                "seat {seat} cannot say {action} now: it must declare {lance} sí or no (RULES.md §4)",
                seat=seat,
                action=str(a),
                lance=lance.value,
            )
        )
    truth = holds(h, seat, lance)
    if a.holds != truth:
        assert h.deal is not None  # the declarations come after the deal is judged
        info = h.deal.infos[seat]
        raise IllegalActionError(
            Text(
                "seat {seat} must say {truth}, not {action}: the hand {hand} has {what}; "
                "declarations must be truthful (RULES.md §4)",
                seat=seat,
                truth=str(Declare(lance, truth)),
                action=str(a),
                hand=info.grande_str,
                what=info.jugada(lance),
            )
        )
    return a


# señas -----------------------------------------------------------------------------------------
def senas_allowed(hand: HandState, seat: int) -> None:
    """Raise :class:`~musteach.rules.senas.SenaError` naming the rule when ``seat`` may make no seña at all now:
    señas off at this table (§13), the hand over, the first hand of a game under mus corrido (§3), or the seat
    in the middle of changing cards (§11)."""
    h = hand
    if h.rules.senas == "off":
        raise SenaError(
            Text(
                "seat {seat} cannot make a seña: señas are not used at this table (senas='off', RULES.md §13)",
                seat=seat,
            )
        )
    if h.is_over:
        raise SenaError(Text("seat {seat} cannot make a seña: the hand is over (RULES.md §11)", seat=seat))
    if h.rules.first_hand == "mus_corrido" and h.first_of_game:
        raise SenaError(
            Text(
                "seat {seat} cannot make a seña: the first hand of a game is played without señas "
                "(mus corrido y sin señas, RULES.md §3, §13)",
                seat=seat,
            )
        )
    if h.phase is Phase.DISCARD and len(h.hands[seat]) != 4:
        raise SenaError(Text("seat {seat} cannot make a seña while changing cards (RULES.md §11)", seat=seat))


def verify_signal(hand: HandState, seat: int, sena: Sena | str) -> Sena:
    """The seña ``sena`` (a :class:`Sena` or its key) if ``seat`` may make it now: allowed now
    (:func:`senas_allowed`), in the table's set and true of the seat's cards (RULES.md §11). Raises
    :class:`~musteach.rules.senas.SenaError` naming the rule otherwise."""
    senas_allowed(hand, seat)
    return check_sena(sena, hand.cards(seat), hand.rules, hand.sena_context, seat=seat)


def legal_senas(hand: HandState, seat: int) -> list[Sena]:
    """The señas ``seat`` may truthfully make now (hand señas only; see :func:`~musteach.rules.senas.senas_for`);
    empty when none may be made (:func:`senas_allowed`)."""
    check_seat(seat)
    try:
        senas_allowed(hand, seat)
    except SenaError:
        return []
    return list(senas_for(hand.cards(seat), hand.rules, hand.sena_context))
