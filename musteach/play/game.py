"""Whole hands of Mus, step by step: the deal, the mus, the four lances, the count, the next hand (RULES.md §2–§11).

A :class:`Game` is reproducible from its seed: the same seed and the same actions give the same cards,
the same events and the same scores. It is driven one decision at a time, so a widget can show every
step and ask the learner at the right moment:

* :attr:`Game.to_act` says whose decision it is and in which phase (a :class:`Turn`):
  ``"mus"``, ``"discard"``, ``"declare:pares"`` / ``"declare:juego"`` (only with ``ask_declarations``),
  ``"bet:grande"``, ``"bet:chica"``, ``"bet:pares"``, ``"bet:juego"`` or ``"bet:punto"``;
* :meth:`Game.legal_actions` lists what a seat may do now, :meth:`Game.act` plays it (or raises
  :class:`~musteach.rules.errors.IllegalActionError` naming the rule), :meth:`Game.signal` makes a seña;
* :attr:`Game.history` is the list of :class:`~musteach.play.events.Event` (each with a sentence for learners,
  and the frozen record of each decision, :mod:`musteach.play.actions`); :func:`replay` rebuilds the same
  game from it;
* at the end of each hand :attr:`HandState.result` holds the count (:class:`~musteach.rules.count.CountResult`)
  with its step-by-step explanation, and :meth:`Game.next_hand` deals the next one, the deal moving one
  seat (the old mano deals).

>>> g = Game(seed=7)
>>> g.to_act
Turn(seat=0, phase=<Phase.MUS: 'mus'>, seats=(0,))
>>> [str(a) for a in g.legal_actions(0)]
['mus', 'no hay mus']
>>> _ = g.act(0, "no hay mus")
>>> g.to_act.phase, g.hand.phase
(<Phase.BET_GRANDE: 'bet:grande'>, <Phase.BET_GRANDE: 'bet:grande'>)
>>> g.act(1, "paso")
Traceback (most recent call last):
...
musteach.rules.errors.IllegalActionError: seat 1 cannot say paso: it is seat 0's turn (speaking order from mano, seat 0; RULES.md §2, §6)
>>> for seat in (0, 1, 2, 3):
...     _ = g.act(seat, "paso")
>>> g.to_act.phase
<Phase.BET_CHICA: 'bet:chica'>
>>> replay(g.history).history == g.history
True

Seats: 0 and 2 are team A, 1 and 3 team B (RULES.md §0). Mano speaks first; the dealer (*postre*) is
mano + 3. The first hand's mano is ``first_mano`` (0 by default).

Modelled as RULES.md says: the deal one card at a time from mano (§3), the mus and its discard rounds
with the discards reshuffled when the stock runs out (all discards so far, so a player may get back a
card he threw), the declarations and the betting among holders (§4, §6), dejes scored at once under
``deje_timing="immediate"`` (the game may end mid-hand), the accepted órdago (§6), the count (§7, §8),
games, vacas and the match (§10), and señas seen by the partner only (§11). Not modelled: the cut,
*mus visto* (§3.5), and the passing deck of *mus corrido* (``first_hand="mus_corrido"`` only forbids
señas in the first hand of each game).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..i18n import SOURCE_LANG, Text, speaking, translator
from ..rules.betting import Action, LanceBetting, declarations, lances_played, start_betting
from ..rules.cards import DECK, Card, Hand, parse_hands
from ..rules.count import Match, check_score, count_hand
from ..rules.errors import IllegalActionError, MusError, RulesError
from ..rules.lances import Lance, Seat, check_seat, evaluate
from ..rules.options import Rules
from ..rules.senas import Sena, get_sena
from . import legal
from .actions import (
    Declare,
    Discard,
    GameAction,
    MusCall,
    NextHand,
    Record,
    Signal,
    card_names,
    parse_action,
)
from .events import PHASES, Event, EventKind, Phase, Turn
from .hand import HandState
from .view import SenaRecord, View

# The records, the events and the view were in this module; they keep being importable from here.
__all__ = [
    "Declare",
    "Discard",
    "Event",
    "EventKind",
    "Game",
    "GameAction",
    "HandState",
    "MusCall",
    "NextHand",
    "PHASES",
    "Phase",
    "SenaRecord",
    "Signal",
    "Turn",
    "View",
    "parse_action",
    "replay",
]


class Game:
    """A match of Mus played step by step, reproducible from ``seed`` (RULES.md §2–§10).

    rules: the table's :class:`~musteach.rules.Rules` (default: 8 reyes to 40, best of 3 games).
    seed: an int; the same seed and the same actions replay the same game (None picks one at random and
    records it). first_mano: the first hand's mano (the dealer is the seat before it).
    ask_declarations: if True, each seat must say "pares sí / no" and "juego sí / no" itself (phases
    ``declare:pares`` and ``declare:juego``; only the truth is accepted); if False they are made for it.
    hands: the first hand's 4 hands, by seat (for a lesson's set example); the other 24 cards are
    shuffled into the stock. start_score: the first game's score, ``{"A": n, "B": n}`` (e.g. to practise
    the end of a game), each below the target. lang: the language of the history's sentences (None: the
    language being spoken when the game is made, :func:`musteach.i18n.speaking`); the game keeps it whoever
    drives it, and a language other than English is named in the start event's ``data["lang"]``.

    Raises :class:`~musteach.rules.errors.SeatError` for a bad ``first_mano``, :class:`RulesError` for bad rules,
    ``LanguageError`` for a language with no catalog,
    the card errors of :func:`~musteach.rules.cards.parse_hands` for bad ``hands``, and
    :class:`~musteach.rules.errors.BettingError` for a bad ``start_score``.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        *,
        first_mano: int = 0,
        ask_declarations: bool = False,
        hands: Sequence[Hand | str | Sequence[Card | str]] | None = None,
        start_score: Mapping[str, int] | None = None,
        lang: str | None = None,
    ):
        if rules is not None and not isinstance(rules, Rules):
            raise RulesError(Text("rules must be a Rules value, not {rules}", rules=repr(rules)))
        self.rules = rules or Rules()
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise MusError(Text("seed must be a whole number, not {seed}", seed=repr(seed)))
        self.seed = seed
        self.lang = translator(lang).lang
        self.first_mano = check_seat(first_mano, "first_mano")
        self.ask_declarations = bool(ask_declarations)
        self.rng = random.Random(seed)
        self._preset = parse_hands(hands) if hands is not None else None
        start = check_score(start_score, self.rules)
        self.match = Match(self.rules, stones=(start["A"], start["B"]))
        self.history: list[Event] = []
        self.hands: list[HandState] = []
        self.games_finished = 0
        data: dict[str, Any] = {
            "seed": seed,
            "rules": self.rules.as_dict(),
            "first_mano": self.first_mano,
            "ask_declarations": self.ask_declarations,
            "hands": [list(h.codes()) for h in self._preset] if self._preset else None,
            "start_score": start,
        }
        if self.lang != SOURCE_LANG:  # an English history stays as it was; another language is named
            data["lang"] = self.lang
        with speaking(self.lang):
            _ = translator()
            self._log(
                0,
                EventKind.START,
                None,
                Phase.START,
                _(
                    "A match of Mus to {target} stones ({variant}); seats 0 and 2 are team A, seats 1 and 3 team B.",
                    target=self.rules.target,
                    variant=self.rules.variant,
                ),
                data=data,
            )
            self._deal(self.first_mano)

    # --- the record ---------------------------------------------------------------------------
    def _log(
        self,
        hand: int,
        kind: EventKind,
        seat: int | None,
        phase: Phase,
        text: str,
        record: Record | None = None,
        audience: tuple[int, ...] | None = None,
        private: str = "",
        data: dict[str, Any] | None = None,
    ) -> Event:
        action = str(record) if record is not None else None
        e = Event(len(self.history), hand, kind, seat, phase, text, action, audience, private, data or {}, record)
        self.history.append(e)
        return e

    def _hlog(
        self,
        kind: EventKind,
        seat: int | None,
        text: str,
        *,
        record: Record | None = None,
        audience: tuple[int, ...] | None = None,
        private: str = "",
    ) -> Event:
        h = self.hand
        return self._log(h.number, kind, seat, h.phase, text, record, audience, private)

    # --- where we are -------------------------------------------------------------------------
    @property
    def hand(self) -> HandState:
        """The current (or just finished) hand."""
        return self.hands[-1]

    @property
    def to_act(self) -> Turn | None:
        """Whose decision it is now, as a :class:`Turn`; None when the hand (or the match) is over."""
        if self.is_over:
            return None
        return self.hand.to_act()

    @property
    def is_over(self) -> bool:
        """True once a team has won the match (``rules.games_per_vaca`` games per vaca, §10)."""
        return self.match.over

    @property
    def winner(self) -> str | None:
        """The team that won the match, or None."""
        return self.match.winner

    @property
    def games_won(self) -> dict[str, int]:
        """Games won by each team in the whole match so far, ``{"A": n, "B": n}`` (RULES.md §10): unlike
        ``match.games``, which goes back to 0-0 when a vaca (or the match) is won, this counts every finished
        game, whether reaching the target or by an accepted órdago."""
        won = {"A": 0, "B": 0}
        for h in self.hands:
            r = h.result
            if r is not None and r.game_over and r.game_winner is not None:
                won[r.game_winner] += 1
        return won

    @property
    def score(self) -> dict[str, int]:
        """Stones in the current game, including dejes already taken in this hand: ``{"A": n, "B": n}``."""
        if self.hand.is_over:
            return self.match.score
        return dict(self.hand.live_score)

    def texts(self, viewer: int | None = None) -> list[str]:
        """The history sentences seat ``viewer`` may read (None: everything), in order."""
        return [t for e in self.history if (t := e.text_for(viewer)) is not None]

    # --- the deal -----------------------------------------------------------------------------
    def _deal(self, mano: int) -> None:
        deck = list(DECK)
        self.rng.shuffle(deck)
        if self._preset is not None and not self.hands:
            dealt = [self._preset[(mano + k) % 4][k // 4] for k in range(16)]
            taken = set(dealt)
            deck = dealt + [c for c in deck if c not in taken]
        number = len(self.hands) + 1
        game_number = self.games_finished + 1
        h = HandState(number, game_number, mano, self.rules, self.match.score, deck)
        prev = self.hands[-1].result if self.hands else None
        h.first_of_game = prev is None or prev.game_over
        h.first_event = len(self.history)
        self.hands.append(h)
        s = self.match.score
        _ = translator()
        self._hlog(
            EventKind.DEAL,
            h.dealer,
            _(
                "Hand {hand} (game {game}, A {a} - B {b}): seat {dealer} deals, one card at a time "
                "counter-clockwise from seat {mano}, the mano, who speaks first (RULES.md §2, §3).",
                hand=number,
                game=game_number,
                a=s["A"],
                b=s["B"],
                dealer=h.dealer,
                mano=mano,
            ),
        )
        for seat in range(4):
            self._hlog(
                EventKind.CARDS,
                seat,
                _("Seat {seat} receives {cards}.", seat=Seat(seat, h.mano), cards=card_names(h.hands[seat])),
                audience=(seat,),
            )

    def next_hand(self) -> HandState:
        """Deal the next hand once this one is over: the old mano deals, the seat on his right is mano
        (RULES.md §2). Raises :class:`IllegalActionError` while the hand is being played or once the
        match is over."""
        if self.is_over:
            raise IllegalActionError(Text("the match is over: team {team} won it", team=self.winner))
        if not self.hand.is_over:
            turn = self.to_act
            if turn is None:  # pragma: no cover - a hand not over always has a turn
                raise IllegalActionError(Text("hand {hand} is not over yet: it is being played", hand=self.hand.number))
            raise IllegalActionError(
                Text("hand {hand} is not over yet: {turn}", hand=self.hand.number, turn=turn.sentence)
            )
        mano = (self.hand.mano + 1) % 4
        with speaking(self.lang):
            _ = translator()
            self._log(self.hand.number + 1, EventKind.NEXT_HAND, None, Phase.NEXT_HAND, _("Next hand."), NextHand())
            self._deal(mano)
        return self.hand

    # --- asking -------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[GameAction]:
        """What ``seat`` may do now (empty if it is not its decision). Bets appear with their smallest
        amount (envido 2, 2 más); any larger amount is also legal. Señas are listed by :meth:`legal_senas`.
        See :func:`musteach.play.legal.legal_actions`."""
        check_seat(seat)
        if self.is_over:
            return []
        return legal.legal_actions(self.hand, seat)

    def verify(self, seat: int, action: Any) -> GameAction:
        """Check that ``seat`` may play ``action`` now and return it parsed; raise
        :class:`IllegalActionError` (or another :class:`MusError`) naming the seat and the rule
        (:func:`musteach.play.legal.verify_action`)."""
        check_seat(seat)
        if self.is_over:
            raise IllegalActionError(
                Text("seat {seat} cannot act: the match is over (team {team} won it)", seat=seat, team=self.winner)
            )
        return legal.verify_action(self.hand, seat, action)

    def can_act(self, seat: int, action: Any) -> bool:
        """True if :meth:`verify` accepts the action."""
        try:
            self.verify(seat, action)
        except MusError:
            return False
        return True

    # --- acting -------------------------------------------------------------------------------
    def act(self, seat: int, action: Any) -> list[Event]:
        """Play ``seat``'s ``action`` (an action object or its text, see :func:`parse_action`).

        Returns the new :class:`Event` list (the action and whatever follows automatically: draws,
        declarations, the next lance, the count). Raises :class:`IllegalActionError` naming the seat,
        the action and the rule; nothing changes then.
        """
        a = self.verify(seat, action)
        with speaking(self.lang):
            return self._act(seat, a)

    def _act(self, seat: int, a: GameAction) -> list[Event]:
        start = len(self.history)
        if isinstance(a, Signal):
            self._signal(seat, a)
            return self.history[start:]
        h = self.hand
        if isinstance(a, MusCall):
            self._mus(seat, a)
        elif isinstance(a, Discard):
            self._discard(seat, a)
        elif isinstance(a, Declare):
            self._declare(seat, a)
        else:
            self._bet(seat, a)
        assert h is self.hand
        return self.history[start:]

    # mus ---------------------------------------------------------------------------------------
    def _mus(self, seat: int, a: MusCall) -> None:
        h = self.hand
        _ = translator()
        if not a.wants:
            self._hlog(
                EventKind.ACTION,
                seat,
                _(
                    "Seat {seat} says no hay mus: the mus is cut, and the lances are played with these cards "
                    "(RULES.md §3).",
                    seat=Seat(seat, h.mano),
                ),
                record=a,
            )
            self._begin_lances()
            return
        h.spoken += 1
        if h.spoken < 4:
            self._hlog(EventKind.ACTION, seat, _("Seat {seat} says mus.", seat=Seat(seat, h.mano)), record=a)
            return
        self._hlog(
            EventKind.ACTION,
            seat,
            _(
                "Seat {seat} says mus. All four want mus: each discards 1 to 4 cards, mano (seat {mano}) first "
                "(RULES.md §3).",
                seat=Seat(seat, h.mano),
                mano=h.mano,
            ),
            record=a,
        )
        h.phase = Phase.DISCARD
        h.spoken = 0

    def _discard(self, seat: int, a: Discard) -> None:
        h = self.hand
        for c in a.cards:
            h.hands[seat].remove(c)
        h.pending[seat] = a.cards
        h.discards.extend(a.cards)
        h.my_discards[seat].extend(a.cards)
        n = len(a.cards)
        _ = translator()
        self._hlog(
            EventKind.ACTION,
            seat,
            _.ngettext("Seat {seat} discards {n} card.", "Seat {seat} discards {n} cards.", n, seat=Seat(seat, h.mano)),
            record=a,
            private=_("(throws {cards})", cards=card_names(a.cards)),
        )
        h.spoken += 1
        if h.spoken < 4:
            return
        # The dealer serves each player as many cards as he threw, mano first (RULES.md §3).
        for s in h.order:
            got: list[Card] = []
            for _card in range(len(h.pending[s])):
                if not h.stock:
                    self._reshuffle()
                got.append(h.stock.pop(0))
            h.hands[s].extend(got)
            h.versions[s] += 1
            self._hlog(
                EventKind.DRAW,
                s,
                _.ngettext("Seat {seat} receives {n} new card.", "Seat {seat} receives {n} new cards.", len(got), seat=Seat(s, h.mano)),
                private=_("(draws {cards})", cards=card_names(got)),
            )
        h.changes.append(tuple(len(h.pending[s]) for s in range(4)))  # type: ignore[arg-type]
        h.pending = {}
        h.mus_round += 1
        h.phase = Phase.MUS
        h.spoken = 0
        self._hlog(
            EventKind.LANCE,
            None,
            _("Mus round {round}: from mano, each says mus or no hay mus again (RULES.md §3).", round=h.mus_round),
        )

    def _reshuffle(self) -> None:
        h = self.hand
        n = len(h.discards)
        _ = translator()
        self.rng.shuffle(h.discards)
        h.stock, h.discards = h.discards, []
        h.reshuffles += 1
        self._hlog(
            EventKind.RESHUFFLE,
            h.dealer,
            _(
                "The stock has run out: the dealer shuffles the {n} discards and serves from them (RULES.md §3).", n=n
            ),
        )

    # the lances --------------------------------------------------------------------------------
    def _begin_lances(self) -> None:
        h = self.hand
        h.deal = evaluate([Hand(x) for x in h.hands], h.mano, self.rules)
        h.decl = declarations(h.deal)
        h.lances = lances_played(h.deal)
        h.lance_index = -1
        self._next_lance()

    def _next_lance(self) -> None:
        h = self.hand
        h.lance_index += 1
        if h.lance_index >= 4:
            self._end_hand()
            return
        lance = (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO)[h.lance_index]
        if lance in (Lance.PARES, Lance.JUEGO):
            h.phase = Phase.declare(lance)
            h.spoken = 0
            _ = translator()
            if self.ask_declarations:
                self._hlog(
                    EventKind.LANCE,
                    None,
                    _(
                        "{title}: from mano, each says {lance} sí or no, truthfully (RULES.md §4).",
                        title=lance.title,
                        lance=lance.value,
                    ),
                )
                return
            d = h.decl[lance.value]
            for s in h.order:
                h.declared[lance.value][s] = d.holds[s]
                self._hlog(EventKind.DECLARE, s, _("Seat {seat}: {declaration}.", seat=s, declaration=str(Declare(lance, d.holds[s]))))
            self._after_declarations(lance)
            return
        self._start_betting(lance)

    def _declare(self, seat: int, a: Declare) -> None:
        h = self.hand
        h.declared[a.lance.value][seat] = a.holds
        _ = translator()
        self._hlog(EventKind.ACTION, seat, _("Seat {seat}: {declaration}.", seat=seat, declaration=str(a)), record=a)
        h.spoken += 1
        if h.spoken == 4:
            self._after_declarations(a.lance)

    def _after_declarations(self, lance: Lance) -> None:
        h = self.hand
        self._hlog(EventKind.DECLARE, None, h.decl[lance.value].summary)
        if lance is Lance.JUEGO and Lance.PUNTO in h.lances:
            lance = Lance.PUNTO
        self._start_betting(lance)

    def _start_betting(self, lance: Lance) -> None:
        h = self.hand
        assert h.deal is not None
        b = start_betting(h.deal, lance, self.rules)
        h.phase = Phase.bet(lance)
        h.betting = b
        if b.closed:  # pares / juego held by one team at most: the declarations' summary said so
            self._close_lance(lance, b)
            return
        first = b.participants[0]
        _ = translator()
        if len(b.participants) == 4:
            text = _(
                "{lance}: the betting begins with seat {seat}; everybody takes part (RULES.md §4, §6).",
                lance=lance.title,
                seat=first,
            )
        else:
            text = _(
                "{lance}: the betting begins with seat {seat}; only seats {seats} speak (RULES.md §4, §6).",
                lance=lance.title,
                seat=first,
                seats=", ".join(map(str, b.participants)),
            )
        self._hlog(EventKind.LANCE, None, text)

    def _bet(self, seat: int, a: Action) -> None:
        h = self.hand
        assert h.betting is not None
        b = h.betting.act(seat, a)
        h.betting = b
        self._hlog(EventKind.ACTION, seat, b.steps[-1].text, record=a)
        if b.closed:
            self._close_lance(b.lance, b)

    def _close_lance(self, lance: Lance, b: LanceBetting) -> None:
        h = self.hand
        o = b.outcome
        assert o is not None
        h.outcomes[lance.value] = o
        h.bettings[lance.value] = b
        h.betting = None
        if o.type == "ordago_accepted":
            h.ended_by = f"ordago:{lance.value}"
            self._end_hand()
            return
        if o.type == "rejected" and self.rules.deje_timing == "immediate":
            t = o.winner_team
            assert t is not None
            h.live_score[t] += o.deje
            if h.live_score[t] >= self.rules.target:
                h.ended_by = f"betting:{lance.value}"
                self._end_hand()
                return
        self._next_lance()

    def _end_hand(self) -> None:
        h = self.hand
        assert h.deal is not None
        h.phase = Phase.OVER
        h.betting = None
        _ = translator()
        shown = "; ".join(_("seat {seat} {cards}", seat=s, cards=h.deal.infos[s].grande_str) for s in h.order)
        self._hlog(EventKind.SHOW, None, _("The hands are shown: {hands}.", hands=shown))
        result = count_hand(h.deal, start_score=h.start_score, betting=h.outcomes)
        if result.ended_at != h.ended_by and h.ended_by is not None:  # pragma: no cover - a bug if it happens
            raise MusError(Text("the count ended at {count}, but the play ended at {play}", count=result.ended_at, play=h.ended_by))
        h.result = result
        for step in result.steps:
            self._hlog(EventKind.COUNT, None, step.text)
        before = len(self.match.events)
        self.match = self.match.after_hand(result)
        fa, fb = result.final_score["A"], result.final_score["B"]
        if result.game_over:
            self.games_finished += 1
            for text in self.match.events[before:]:
                self._hlog(EventKind.GAME_END, None, text)
        else:
            self._hlog(EventKind.HAND_END, None, _("Hand {hand} is over: A {a}, B {b}.", hand=h.number, a=fa, b=fb))

    # señas -------------------------------------------------------------------------------------
    def legal_senas(self, seat: int) -> list[Sena]:
        """The señas ``seat`` may truthfully make now (hand señas only; see :func:`~musteach.rules.senas.senas_for`)."""
        return legal.legal_senas(self.hand, seat)

    def can_signal(self, seat: int, sena: Sena | str) -> bool:
        """True if ``seat`` may make ``sena`` now."""
        try:
            legal.verify_signal(self.hand, seat, sena)
        except MusError:
            return False
        return True

    def signal(self, seat: int, sena: Sena | str) -> list[Event]:
        """``seat`` makes a seña to its partner (RULES.md §11). It does not use the seat's turn.

        The event's audience is the partner: the bots never watch for an opponent's seña, although at a
        real table anybody may see it (lesson 9). The seña must be in the table's set and true of
        the seat's cards now; plain medias only after Grande. Raises :class:`~musteach.rules.senas.SenaError`
        (an :class:`IllegalActionError`) naming the rule otherwise.
        """
        return self.act(check_seat(seat), Signal(get_sena(sena)))

    def _signal(self, seat: int, a: Signal) -> None:
        sena = a.sena
        h = self.hand
        ctx = h.sena_context
        h.senas.append(SenaRecord(seat, sena, ctx, tuple(h.hands[seat])))
        partner = (seat + 2) % 4
        _ = translator()
        self._hlog(
            EventKind.SIGNAL,
            seat,
            _(
                "Seat {seat} signals to seat {partner}: {gesture} ({meaning}).",
                seat=Seat(seat, h.mano),
                partner=Seat(partner, h.mano),
                gesture=sena.gesture_text(_.lang).lower(),
                meaning=sena.meaning_text(_.lang),
            ),
            record=a,
            audience=(seat, partner),
        )

    # --- what a seat may know -----------------------------------------------------------------
    def view(self, seat: int) -> View:
        """Everything ``seat`` may know now, as a frozen :class:`View` (what bots decide from)."""
        check_seat(seat)
        h = self.hand
        partner = (seat + 2) % 4
        turn = self.to_act
        return View(
            seat=seat,
            rules=self.rules,
            mano=h.mano,
            dealer=h.dealer,
            hand_number=h.number,
            game_number=h.game_number,
            cards=tuple(h.hands[seat]),
            phase=h.phase,
            turn=turn,
            score=dict(h.start_score),
            live_score=dict(h.live_score),
            match=self.match,
            mus_round=h.mus_round,
            changes=tuple(h.changes),
            my_discards=tuple(h.my_discards[seat]),
            declared={k: tuple(v) for k, v in h.declared.items()},
            betting=h.betting,
            outcomes=dict(h.outcomes),
            bettings=dict(h.bettings),
            shown=tuple(Hand(x) for x in h.hands) if h.is_over else None,
            partner_senas=tuple(r.sena for r in h.senas if r.seat == partner and list(r.cards) == h.hands[partner]),
            my_senas=tuple(r.sena for r in h.senas if r.seat == seat),
            mus_calls=_mus_calls(self.history[h.first_event :]),
            _events=_texts_of(self.history[h.first_event :], seat),
            _legal=lambda: tuple(self.legal_actions(seat)),
        )

    # --- saving and replaying -----------------------------------------------------------------
    def history_dicts(self) -> list[dict[str, Any]]:
        """The history as JSON-ready dicts (give them to :func:`replay` to rebuild the game)."""
        return [e.to_dict() for e in self.history]

    def replay_actions(self) -> list[tuple[int | None, str]]:
        """The decisions of the history, as ``(seat, action text)``; ``(None, "next_hand")`` between hands."""
        return [(e.seat, e.action) for e in self.history if e.action is not None]

    def __repr__(self) -> str:
        t = self.to_act
        where = t.describe(lang=SOURCE_LANG) if t else ("match over" if self.is_over else "hand over")
        return f"<Game seed={self.seed} hand={self.hand.number} score={self.score} {where}>"


def _mus_calls(events: list[Event]) -> tuple[tuple[bool | None, ...], ...]:
    """Per mus round begun in a hand's ``events``, what each seat said, by seat (True mus, False no hay mus,
    None not spoken): a round ends with a cut or with the fourth mus (RULES.md §3)."""
    rounds: list[tuple[bool | None, ...]] = []
    said: list[bool | None] = [None] * 4
    for e in events:
        if isinstance(e.record, MusCall) and e.seat is not None:
            said[e.seat] = e.record.wants
            if not e.record.wants or all(x is True for x in said):
                rounds.append(tuple(said))
                said = [None] * 4
    if any(x is not None for x in said):
        rounds.append(tuple(said))
    return tuple(rounds)


def _texts_of(events: list[Event], seat: int) -> Callable[[], tuple[str, ...]]:
    return lambda: tuple(t for e in events if (t := e.text_for(seat)) is not None)


def replay(history: Sequence[Event | Mapping[str, Any]], *, check: bool = True, lang: str | None = None) -> Game:
    """Rebuild a :class:`Game` from its history (events or their dicts): same seed, same actions.

    lang: the language of the rebuilt game's sentences (None: the language being spoken now), whatever the
    language the history was recorded in (its start event's ``data["lang"]``, English when absent).

    With ``check`` (the default) every event produced must equal the recorded one (its sentences too when both
    are in the same language, else everything but the sentences); a history that was edited raises
    :class:`MusError` naming the first event that differs. An illegal recorded action raises
    :class:`IllegalActionError`. A bad ``lang`` raises ``LanguageError``.
    """
    events = [Event.from_dict(e) for e in history]
    if not events or events[0].kind is not EventKind.START:
        raise MusError(Text("a history starts with its 'start' event (seed and rules)"))
    data = events[0].data
    try:
        rules = Rules(**data["rules"])
        game = Game(
            rules,
            data["seed"],
            first_mano=data.get("first_mano", 0),
            ask_declarations=data.get("ask_declarations", False),
            hands=data.get("hands"),
            start_score=data.get("start_score"),
            lang=lang,
        )
    except (KeyError, TypeError) as e:
        raise MusError(Text("the start event lacks the seed or the rules: {error}", error=str(e))) from None
    for event in events[1:]:
        if event.record is None:
            continue
        if isinstance(event.record, NextHand):
            game.next_hand()
        else:
            if event.seat is None:
                raise MusError(Text("event {index}: an action without a seat", index=event.index))
            game.act(event.seat, event.record)
    if check:
        if len(game.history) != len(events):
            n = min(len(game.history), len(events))
            raise MusError(
                Text(
                    "the replay gives {replayed} events, the history {recorded} (from event {index})",
                    replayed=len(game.history),
                    recorded=len(events),
                    index=n,
                )
            )
        same_words = data.get("lang", SOURCE_LANG) == game.lang
        for mine, theirs in zip(game.history, events, strict=True):
            if mine != theirs if same_words else mine.facts() != theirs.facts():
                raise MusError(
                    Text(
                        "the replay differs from the history at event {index}: {text}",
                        index=mine.index,
                        text=repr(theirs.text),
                    )
                )
    return game
