"""A game at the table for one learner: whose turn, the legal choices, the coach, the engine step, the bots,
the review, a replay sandbox and the record of each finished game (RULES.md §2–§11).

A :class:`TableSession` owns a :class:`~musteach.play.game.Game` played by one learner against three bots. A
view (the ``PlayTable`` widget, or a test's fake view) only draws :attr:`TableSession.game` and sends back one
of the :class:`Choice` records that :meth:`TableSession.choices` offers:

* whose turn: the engine's rule, :attr:`~musteach.play.events.Turn.seats` (facing a bet either opponent may
  answer, so the learner may answer before the partner);
* what is legal: the engine's ``can_x`` queries (pokerkit style: :meth:`LanceBetting.can_paso` and its
  siblings for the betting), each choice a record (:class:`Choice`), never a string;
* one step (:meth:`TableSession.choose` or :meth:`TableSession.play`): the action is parsed once, checked
  (:meth:`LanceBetting.verify_envido` and its siblings, or :meth:`Game.verify`), commented by the coach
  (:func:`musteach.teach.coach.coach_comment`, which grades it), played, and the bots play until the learner
  must decide again or the hand is over;
* the review (:func:`musteach.teach.review.review_game`) when a game ends, and a :class:`FinishedGame` record
  for the progress store (:meth:`TableSession.take_finished`);
* :meth:`TableSession.saved_game` and :meth:`TableSession.resume`: the match in progress as plain JSON (its seed,
  the opponents' level, the start score and the learner's moves; the bots decide the same given the seed), kept
  by a view after each decision (the :data:`TABLE_GAME` setting) and replayed through the engine after a reload;
* :meth:`TableSession.replay`: a sandbox at a reviewed decision that changes nothing of the game, its
  record, its review, its next hand or the best game, until :meth:`TableSession.back`.

>>> s = TableSession(seed=3, level="rule")
>>> s.my_turn, [str(c.kind) for c in s.choices()]
(True, ['mus', 'no-hay-mus'])
>>> comment = s.choose(s.choices()[1])  # no hay mus
>>> comment.action
MusCall(wants=False, seat=0)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from ..i18n import Text, translator
from ..play.actions import Declare, Discard, GameAction, MusCall, Signal, parse_action
from ..play.bots import OddsBot, RuleBot
from ..play.events import EventKind, Phase, Turn
from ..play.game import Game
from ..play.levels import Level, make_bot
from ..play.policy import Bot
from ..play.view import View
from ..rules.betting import Action, LanceBetting
from ..rules.cards import Card
from ..rules.errors import IllegalActionError, MusError, shown
from ..rules.lances import Lance, effective_rank, seat_roles
from ..rules.options import Rules
from ..rules.senas import Sena, meaning
from ..runtime import threads_available
from . import labels
from .coach import CoachComment, coach_comment, phase_title, prepare, said_words, turn_prompt
from .review import DecisionRecord, GameReview, record_decision, replay_from, review_game
from .senas_quiz import gesture_words, third_person

__all__ = [
    "BOT_KINDS",
    "Centre",
    "HandWords",
    "PartnerSena",
    "Choice",
    "ChoiceKind",
    "FinishedGame",
    "TableSession",
    "make_bots",
    "TABLE_GAME",
    "parse_start_score",
    "seat_roles_words",
    "seat_words",
    "warm_up",
]

#: The setting (a progress ``setting`` record, the latest wins) that keeps the match in progress at the table, so
#: that a reload resumes it (:meth:`TableSession.saved_game`, :meth:`TableSession.resume`); None once it is over.
TABLE_GAME = "table_game"

#: The layout of a saved match (its ``"v"``); another one is not resumed.
_SAVED_VERSION = 1

#: The opponents a table may seat: a :class:`~musteach.play.levels.Level` by value, ``"odds"`` or ``"rule"``.
BOT_KINDS: tuple[str, ...] = ("odds", "rule", *(lv.value for lv in Level))


class ChoiceKind(StrEnum):
    """What kind of decision a :class:`Choice` is (its value names the view's button: ``musteach-action-<kind>``)."""

    MUS = "mus"
    NO_HAY_MUS = "no-hay-mus"
    DISCARD = "discard"
    DECLARE_SI = "declare-si"
    DECLARE_NO = "declare-no"
    PASO = "paso"
    ENVIDO = "envido"
    QUIERO = "quiero"
    NO_QUIERO = "no-quiero"
    REENVIDO = "reenvido"
    ORDAGO = "ordago"


#: The kinds of decision each part of a hand asks for (the buttons a view shows then, enabled or not).
_MUS_KINDS = frozenset({ChoiceKind.MUS, ChoiceKind.NO_HAY_MUS})
_DECLARE_KINDS = frozenset({ChoiceKind.DECLARE_SI, ChoiceKind.DECLARE_NO})
_BET_KINDS = frozenset(
    {
        ChoiceKind.PASO,
        ChoiceKind.ENVIDO,
        ChoiceKind.QUIERO,
        ChoiceKind.NO_QUIERO,
        ChoiceKind.REENVIDO,
        ChoiceKind.ORDAGO,
    }
)
#: The betting kinds that take an amount of stones (2 or more, RULES.md §6).
_WITH_AMOUNT = frozenset({ChoiceKind.ENVIDO, ChoiceKind.REENVIDO})
#: The smallest bet or raise (RULES.md §6).
MIN_BET = 2


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal decision offered to the learner now.

    kind: a :class:`ChoiceKind`. action: the record as offered (a bet at its smallest amount, 2 stones), or
    None for the discard, whose cards the learner marks. lance: the lance of a declaration, else None.
    seat: the seat it is offered to (the records name it as their actor), or None.
    A view sends the choice back to :meth:`TableSession.choose`, with ``amount`` for envido and a raise and
    ``cards`` for the discard; :meth:`record` builds the record played.
    """

    kind: ChoiceKind
    action: GameAction | None
    lance: Lance | None = None
    seat: int | None = None

    @property
    def takes_amount(self) -> bool:
        """True for envido and a raise, which take a number of stones (2 or more, RULES.md §6)."""
        return self.kind in _WITH_AMOUNT

    @property
    def takes_cards(self) -> bool:
        """True for the discard, which takes the cards the learner marked (RULES.md §3)."""
        return self.kind is ChoiceKind.DISCARD

    def ready(self, cards: Iterable[Card] = ()) -> bool:
        """True when the choice can be sent with ``cards`` marked: a discard needs 1 to 4 cards (RULES.md §3);
        every other choice is ready as it is."""
        return not self.takes_cards or 1 <= len(set(cards)) <= 4

    def record(self, *, amount: int | None = None, cards: Iterable[Card] = ()) -> GameAction:
        """The record to play, naming the choice's seat: the discard of ``cards``, a bet of ``amount`` stones
        (None: the smallest), or the action offered. Raises :class:`~musteach.rules.errors.IllegalActionError`
        for a discard of no card or more than 4 (RULES.md §3), or an amount that is not a whole number."""
        if self.kind is ChoiceKind.DISCARD:
            return Discard(list(cards), seat=self.seat)
        if self.kind in _WITH_AMOUNT and amount is not None:
            return Action(str(self.kind), amount, seat=self.seat)
        assert self.action is not None  # every choice but the discard carries its record
        return self.action


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game of the table, for the learner's progress store (lesson 10's map counts them).

    game_number: the game (1-based in the match). review: its :class:`~musteach.teach.review.GameReview`
    (banner, decisions worst first, error rate). level: the opponents' level (``"beginner"``, ``"club"``,
    ``"strong"``, or a bot kind). won: True when the learner's team won it.
    """

    game_number: int
    review: GameReview
    level: str

    @property
    def won(self) -> bool:
        """True when the learner's team won the game."""
        return self.review.winner == self.review.team

    @property
    def decisions(self) -> int:
        """The learner's graded decisions in the game."""
        return len(self.review.decisions)

    @property
    def stones_lost(self) -> float:
        """Stones lost over those decisions (0.1 stone)."""
        return self.review.stones_lost

    def summary(self, *, lang: str | None = None) -> str:
        """The review's summary sentence (decisions, stones lost, error rate)."""
        return self.review.summary(lang=lang)

    def review_facts(self) -> dict[str, object]:
        """The review as the progress store keeps it with the game (JSON-ready): ``game_number``, ``winner``
        (``"A"``/``"B"`` or None), ``score`` ``[a, b]`` (stones) and the learner's ``team``."""
        r = self.review
        return {"game_number": self.game_number, "winner": r.winner, "score": list(r.score), "team": r.team}


@dataclass(frozen=True, slots=True)
class Centre:
    """What the middle of the table says, in words: ``title`` (the part of the hand, or "Cards on the table"
    once it is over), ``lines`` (the mus round, the bet on the table) and ``outcomes`` (each closed lance's
    outcome, ``"grande: ..."``)."""

    title: str
    lines: tuple[str, ...] = ()
    outcomes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HandWords:
    """The learner's hand in words, under its cards: ``heading`` ("Your hand:"), ``cards`` (highest first, as
    Grande reads them), ``pares`` (its pares, or "no pares") and ``juego`` ("juego (31)" or "no juego, punto 27");
    RULES.md §1, §4."""

    heading: str
    cards: str
    pares: str
    juego: str


@dataclass(frozen=True, slots=True)
class PartnerSena:
    """A seña the partner made (RULES.md §11): ``sena``, ``said`` ("Your partner bites the lower lip:") and
    ``meaning`` (what it tells at this table)."""

    sena: Sena
    said: str
    meaning: str


def seat_words(seat: int, me: int) -> str:
    """A seat as the learner at ``me`` reads it: ``"you"``, ``"your partner (seat 2)"`` or ``"seat 1"``, in the
    language being spoken. Seats 0..3 (RULES.md §0)."""
    _ = translator()
    if seat == me:
        return _(labels.YOU)
    if seat == (me + 2) % 4:
        return _(labels.YOUR_PARTNER_SEAT, seat=seat)
    return _(labels.SEAT_LOWER, seat=seat)


def seat_roles_words(seat: int, mano: int) -> str:
    """The seat's roles this hand after a middle dot each (``" · mano"``, ``" · postre"``), or ``""`` (RULES.md §2)."""
    return "".join(f" · {role}" for role in seat_roles(seat, mano))


def parse_start_score(text: str) -> dict[str, int] | None:
    """A start score written ``"38-38"`` (team A's stones, then team B's), as ``{"A": 38, "B": 38}``; None for
    an empty text. Raises :class:`MusError` naming the text when it is not two whole numbers (the server's
    test-only ``MUSTEACH_TABLE_START``). The game checks each is below the target.

    >>> parse_start_score("38-30"), parse_start_score(" ")
    ({'A': 38, 'B': 30}, None)
    """
    text = text.strip()
    if not text:
        return None
    a, sep, b = text.partition("-")
    if not (sep and a.strip().isdigit() and b.strip().isdigit()):
        raise MusError(Text(labels.TABLE_START_ERROR, value=shown(text)))
    return {"A": int(a), "B": int(b)}


def make_bots(kind: str, learner_seat: int) -> dict[int, Bot]:
    """Fresh bots of ``kind`` (one of :data:`BOT_KINDS`) for the three seats other than ``learner_seat``.
    Raises :class:`MusError` naming a bad kind."""
    if kind not in BOT_KINDS:
        raise MusError(Text(labels.BOT_ERROR, value=shown(kind)))
    out: dict[int, Bot] = {}
    for s in range(4):
        if s == learner_seat:
            continue
        if kind == "odds":
            out[s] = OddsBot(name=f"OddsBot {s}")
        elif kind == "rule":
            out[s] = RuleBot(name=f"RuleBot {s}")
        else:
            out[s] = make_bot(kind, name=f"{Level(kind).title} {s}", seed=s)
    return out


_WARM_LOCK = threading.Lock()
_WARM: dict[tuple[int, bool], threading.Thread] = {}
_BUILT: set[tuple[int, bool]] = set()


def warm_up(rules: Rules | None = None, *, background: bool = True) -> threading.Thread | None:
    """Build, once per process and deck, the tables the bots and the coach use (:func:`musteach.teach.coach.prepare`:
    a few tenths of a second, numpy-free; seconds only under la real).

    background: return at once with the daemon thread doing the work (``join`` it to wait), or wait for
    it and return None. Where no thread can start (:func:`musteach.runtime.threads_available`: the static site),
    the tables are built in the caller and None is returned.
    Safe to call many times: later calls return the first call's thread.
    """
    r = rules or Rules()
    key = (r.kings, r.la_real)
    if not threads_available():  # the browser (Pyodide): no threads, so the tables are built here, once
        with _WARM_LOCK:
            if key not in _BUILT:
                prepare(r)
                _BUILT.add(key)
        return None
    with _WARM_LOCK:
        t = _WARM.get(key)
        if t is None:
            t = threading.Thread(target=prepare, args=(r,), name="musteach-table-warm-up", daemon=True)
            _WARM[key] = t
            t.start()
    if not background and t.is_alive():
        t.join()
    return t if background else None


@dataclass
class _Saved:
    """What a replay sets aside and :meth:`TableSession.back` restores."""

    game: Game
    bots: dict[int, Bot]
    decisions: list[DecisionRecord]
    comments: list[CoachComment]
    observed: set[int]
    moves: list[str]


class TableSession:
    """A match of Mus for one learner at ``seat`` against three bots, with the coach (RULES.md §2–§11).

    rules: the table's :class:`~musteach.rules.Rules` (default 8 reyes to 40, best of 3 games). seed: an int for
    a reproducible match (None: at random). seat: the learner's seat 0..3 (0 and 2 are team A). level: the
    bots, one of :data:`BOT_KINDS`. first_mano, ask_declarations, start_score: as :class:`~musteach.play.game.Game`
    takes them. ready: called before a bot or the coach decides (a view waits there for tables built in the
    background); None: nothing to wait for. bots_first: let the bots play at once until the learner must
    decide (False: the view calls :meth:`go_on` itself, e.g. to show a failure kindly).

    Raises :class:`MusError` naming a bad level, seat or rules, and the game's errors for a bad seed, first
    mano or start score.

    State: :attr:`game`, :attr:`bots` (by seat), :attr:`comments` (every coach comment, newest last),
    :attr:`decisions` (the learner's graded decisions), :attr:`reviews` (by game number), :attr:`replaying`
    (the decision a replay started from, or None).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        *,
        seat: int = 0,
        level: str = "odds",
        first_mano: int = 0,
        ask_declarations: bool = False,
        start_score: Mapping[str, int] | None = None,
        ready: Callable[[], None] | None = None,
        bots_first: bool = True,
    ):
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise MusError(Text(labels.LEARNER_SEAT_ERROR, value=shown(seat)))
        if rules is not None and not isinstance(rules, Rules):
            raise MusError(Text(labels.RULES_ERROR, value=shown(rules)))
        if level not in BOT_KINDS:
            raise MusError(Text(labels.BOT_ERROR, value=shown(level)))
        self.rules = rules if rules is not None else Rules()
        self.seat = seat
        self.level = level
        self.first_mano = first_mano
        self.ask_declarations = bool(ask_declarations)
        self._ready = ready or (lambda: None)
        self.reviews: dict[int, GameReview] = {}
        self._finished: list[FinishedGame] = []
        self._saved: _Saved | None = None
        self.replaying: DecisionRecord | None = None
        self.moves: list[str] = []
        self._start_score: dict[str, int] | None = None
        self.new_match(seed, start_score=start_score, bots_first=bots_first)

    # ----- the match ------------------------------------------------------------------------
    def new_match(
        self,
        seed: int | None = None,
        *,
        level: str | None = None,
        start_score: Mapping[str, int] | None = None,
        bots_first: bool = True,
    ) -> None:
        """Start a new match from ``start_score`` (None: 0-0) against fresh bots of ``level`` (None: the same),
        leaving any replay; the bots play until the learner must decide (unless ``bots_first`` is False).
        Raises :class:`MusError` for a bad level, and the game's errors for a bad seed or score."""
        if level is not None:
            if level not in BOT_KINDS:
                raise MusError(Text(labels.BOT_ERROR, value=shown(level)))
            self.level = level
        self.game = Game(
            self.rules,
            seed,
            first_mano=self.first_mano,
            ask_declarations=self.ask_declarations,
            start_score=start_score,
        )
        self._start_score = dict(start_score) if start_score is not None else None
        self.moves = []
        self.bots: dict[int, Bot] = make_bots(self.level, self.seat)
        self.comments: list[CoachComment] = []
        self.decisions: list[DecisionRecord] = []
        self.reviews = {}
        self._observed: set[int] = set()
        self._saved = None
        self.replaying = None
        if bots_first:
            self._run_bots()

    # ----- where we are ---------------------------------------------------------------------
    @property
    def view(self) -> View:
        """The learner's :class:`~musteach.play.view.View` now."""
        return self.game.view(self.seat)

    @property
    def turn(self) -> Turn | None:
        """Whose decision it is (None once the hand or the match is over)."""
        return self.game.to_act

    @property
    def my_turn(self) -> bool:
        """True when the learner may decide now: the learner's seat is among the turn's seats (the engine's
        rule: facing a bet, either opponent may answer; RULES.md §6)."""
        t = self.game.to_act
        return t is not None and self.seat in t.seats

    @property
    def stalled(self) -> bool:
        """True when a bot should move but has not (only after an unexpected error): :meth:`go_on` retries."""
        t = self.game.to_act
        return t is not None and self.seat not in t.seats and not self.game.hand.is_over

    @property
    def can_mark_cards(self) -> bool:
        """True when the learner changes cards now (marks the cards to discard, RULES.md §3)."""
        return self.my_turn and self.game.hand.phase is Phase.DISCARD

    @property
    def can_deal_next(self) -> bool:
        """True when :meth:`next_hand` would deal (the hand is over, the match is not, and no replay is on)."""
        g = self.game
        return g.hand.is_over and not g.is_over and self.replaying is None

    @property
    def review(self) -> GameReview | None:
        """The review of the game the hand on the table finished, or None (a hand that did not end a game,
        or a replay)."""
        h = self.game.hand
        if self.replaying is not None or h.result is None or not h.result.game_over:
            return None
        return self.reviews.get(h.game_number)

    @property
    def games_won(self) -> dict[str, int]:
        """Games won by each team in the match so far (never reset by a vaca, RULES.md §10)."""
        return self.game.games_won

    def phase_kinds(self) -> frozenset[ChoiceKind]:
        """The kinds of decision the part of the hand on the table asks for (enabled or not); empty once the
        hand is over."""
        h = self.game.hand
        if h.is_over or self.game.is_over:
            return frozenset()
        if h.phase is Phase.MUS:
            return _MUS_KINDS
        if h.phase is Phase.DISCARD:
            return frozenset({ChoiceKind.DISCARD})
        if h.phase.is_declaration:
            return _DECLARE_KINDS
        return _BET_KINDS

    def choices(self) -> tuple[Choice, ...]:
        """The learner's legal decisions now, as :class:`Choice` records (empty when it is not the learner's
        turn): the engine's ``can_x`` queries decide (RULES.md §3, §4, §6)."""
        if not self.my_turn:
            return ()
        g = self.game
        h = g.hand
        if h.phase is Phase.MUS:
            return tuple(
                Choice(ChoiceKind.MUS if a.wants else ChoiceKind.NO_HAY_MUS, a, seat=self.seat)
                for a in g.legal_actions(self.seat)
                if isinstance(a, MusCall)
            )
        if h.phase is Phase.DISCARD:
            return (Choice(ChoiceKind.DISCARD, None, seat=self.seat),)
        if h.phase.is_declaration:
            return tuple(
                Choice(ChoiceKind.DECLARE_SI if a.holds else ChoiceKind.DECLARE_NO, a, a.lance, self.seat)
                for a in g.legal_actions(self.seat)
                if isinstance(a, Declare)
            )
        b = h.betting
        assert b is not None  # a betting phase not over has its betting
        return _betting_choices(b, self.seat)

    def choice(self, kind: ChoiceKind | str) -> Choice:
        """The legal choice of ``kind`` now. Raises :class:`IllegalActionError` naming it when it is not
        legal now (or not the learner's turn)."""
        for c in self.choices():
            if c.kind == kind:
                return c
        t = self.game.to_act
        if t is None or self.seat not in t.seats:
            who = t.describe() if t is not None else Text(labels.HAND_OVER)
            raise IllegalActionError(Text(labels.NOT_YOUR_TURN, who=who))
        label = labels.ACTIONS.get(str(kind), (str(kind),))[0]
        raise IllegalActionError(Text(labels.CHOICE_NOT_LEGAL, choice=Text(label), turn=t.sentence))

    def said(self) -> dict[int, str]:
        """What each seat last said in the current part of this hand, in words (empty between parts)."""
        g = self.game
        h = g.hand
        out: dict[int, str] = {}
        phase = None
        for e in g.history[h.first_event :]:
            if e.phase != phase:
                phase, out = e.phase, {}
            if e.kind is EventKind.ACTION and e.seat is not None and e.record is not None:
                out[e.seat] = said_words(e.record)
        return out if h.phase == phase else {}

    def status_text(self) -> str:
        """The table's status line, in the language being spoken: the match or the hand over, the learner's
        prompt on its turn (:func:`~musteach.teach.coach.turn_prompt`), else whose turn it is."""
        g = self.game
        _ = translator()
        if g.is_over:
            return _(labels.MATCH_OVER_TEAM, team=g.winner)
        if g.hand.is_over:
            return _(labels.HAND_OVER_SHOWN)
        if self.my_turn:
            return turn_prompt(self.view)
        t = g.to_act
        return t.describe() if t is not None else ""

    def centre(self) -> Centre:
        """What the middle of the table says now (:class:`Centre`), in the language being spoken."""
        h = self.game.hand
        _ = translator()
        if h.is_over:
            return Centre(_(labels.CARDS_ON_TABLE))
        lines = []
        if h.phase in (Phase.MUS, Phase.DISCARD) and h.mus_round > 1:
            lines.append(_(labels.MUS_ROUND, n=h.mus_round))
        b = h.betting
        if b is not None and b.stakes:
            stake = b.current_stake
            said = _(labels.ORDAGO) if stake == "ordago" else _(labels.STONES_VALUE, value=stake)
            lines.append(_(labels.ON_THE_TABLE, stake=said, team=b.betting_team))
        outcomes = tuple(_(labels.LANCE_OUTCOME, lance=k, outcome=o.describe()) for k, o in h.outcomes.items())
        return Centre(phase_title(h.phase), tuple(lines), outcomes)

    def my_cards(self) -> tuple[Card, ...]:
        """The learner's cards as a view shows them: highest first (RULES.md §1)."""
        v = self.view
        return tuple(sorted(v.cards, key=lambda c: (-effective_rank(c.rank, v.rules.kings), -c.rank)))

    def hand_words(self) -> HandWords:
        """The learner's hand in words (:class:`HandWords`), in the language being spoken."""
        info = self.view.info
        _ = translator()
        pares = info.pares.describe() if info.pares is not None else _(labels.NO_PARES)
        juego = _(labels.JUEGO_TOTAL if info.is_juego else labels.NO_JUEGO_PUNTO, total=info.total)
        return HandWords(_(labels.YOUR_HAND_INFO), info.grande_str, pares, juego)

    def partner_senas(self) -> tuple[PartnerSena, ...]:
        """The señas the partner made with the cards it holds now, in words (RULES.md §11)."""
        v = self.view
        _ = translator()
        return tuple(
            PartnerSena(s, _(labels.PARTNER_SIGNALS, gesture=third_person(s.gesture_text())), meaning(s, v.rules))
            for s in v.partner_senas
        )

    def my_senas_words(self) -> str | None:
        """``"You signalled: ..."`` naming the señas the learner made this hand, or None before any."""
        v = self.view
        _ = translator()
        made = [
            _(labels.SENA_OPTION, gesture=gesture_words(s.gesture_text()), meaning=meaning(s, v.rules)) for s in v.my_senas
        ]
        return _(labels.YOU_SIGNALLED, senas=", ".join(made)) if made else None

    def sena_options(self) -> tuple[tuple[str, str], ...]:
        """The señas the learner may make now and has not made yet, as ``(words, key)`` for a picker: its gesture
        and what it tells (RULES.md §11); empty when none fits."""
        v = self.view
        _ = translator()
        made = {s.key for s in v.my_senas}
        return tuple(
            (_(labels.SENA_OPTION, gesture=s.gesture_text(), meaning=meaning(s, v.rules)), s.key)
            for s in self.game.legal_senas(self.seat)
            if s.key not in made
        )

    def replay_banner(self) -> str | None:
        """In a replay, the banner that says which decision is replayed (hand, lance or phase, action); else None."""
        rec = self.replaying
        if rec is None:
            return None
        return translator()(labels.REPLAY_BANNER, hand=rec.hand_number, where=rec.where, action=str(rec.action))

    # ----- the learner decides --------------------------------------------------------------
    def choose(self, choice: Choice, *, amount: int | None = None, cards: Iterable[Card] = ()) -> CoachComment:
        """Play one of :meth:`choices` (with ``amount`` stones for envido or a raise, the marked ``cards`` for
        the discard): the coach comments on it, the engine plays it, the bots play on. Returns the coach's
        comment. Raises :class:`IllegalActionError` (a :class:`MusError`) naming the rule when it is not legal
        now; nothing changes then."""
        record = choice.record(amount=amount, cards=cards)
        b = self.game.hand.betting
        if isinstance(record, Action) and b is not None and self.my_turn:
            _verify_bet(b, self.seat, record)
        return self._play(record)

    def play(self, action: GameAction | str) -> CoachComment | None:
        """Play the learner's ``action`` (a record or its text, read once by
        :func:`~musteach.play.actions.parse_action`); a seña is made at once (no comment: returns None).
        Raises :class:`IllegalActionError` naming the rule when it is not legal now; nothing changes then."""
        a = parse_action(action, self.game.hand.phase)
        if isinstance(a, Signal):
            self.game.act(self.seat, a)  # Game.signal's check, and the record's seat
            self.moves.append(str(a))
            return None
        return self._play(a)

    def signal(self, key: str) -> None:
        """Make the seña ``key`` to the partner (RULES.md §11). Raises :class:`MusError` for none picked
        (``""``) or a seña that cannot be made now."""
        if not key:
            raise MusError(Text(labels.PICK_SENA_FIRST))
        self.game.signal(self.seat, key)
        self.moves.append(f"seña {key}")

    def _play(self, a: GameAction) -> CoachComment:
        g = self.game
        a = g.verify(self.seat, a)
        if not self.my_turn:
            t = g.to_act
            who = t.describe() if t is not None else Text(labels.HAND_OVER)
            raise IllegalActionError(Text(labels.NOT_YOUR_TURN, who=who))
        self._ready()
        view = g.view(self.seat)
        said = coach_comment(view, a, level=self.level)  # before the action is played; the coach knows the bots' level
        if said.grade is not None:
            self.decisions.append(record_decision(view, len(g.history), said.grade))
        g.act(self.seat, a)
        self.moves.append(str(a))
        self.comments.append(said)
        self._run_bots()
        return said

    # ----- between hands --------------------------------------------------------------------
    def next_hand(self) -> None:
        """Deal the next hand and let the bots play until the learner must decide. Raises :class:`MusError`
        while the hand is being played, once the match is over, or in a replay (go :meth:`back` first)."""
        g = self.game
        if self.replaying is not None:
            raise MusError(Text(labels.REPLAY_NO_NEXT))
        if g.is_over:
            raise MusError(Text(labels.MATCH_OVER_NEW))
        if not g.hand.is_over:
            raise MusError(Text(labels.HAND_NOT_OVER))
        g.next_hand()
        self.moves.append(_NEXT_HAND)
        self._run_bots()

    def go_on(self) -> None:
        """After an unexpected error left a bot's move undone: let the bots play on."""
        self._run_bots()

    # ----- the bots -------------------------------------------------------------------------
    def _run_bots(self) -> None:
        """The bots play (their señas too, when the cards are final) until the learner may decide or the hand
        is over; then each bot watches the hand shown once, and a finished game is reviewed."""
        g = self.game
        asked: set[int] = set()
        while True:
            h = g.hand
            if h.is_over:
                self._hand_over()
                return
            self._bot_senas(asked)
            t = g.to_act
            if t is None or self.seat in t.seats:
                return
            self._ready()
            g.act(t.seat, self.bots[t.seat].decide(g.view(t.seat)))

    def _bot_senas(self, asked: set[int]) -> None:
        """Each bot shows its partner its señas once the cards are final, mano first (as
        :func:`musteach.play.bots.run` does; RULES.md §11)."""
        g = self.game
        h = g.hand
        if not h.cards_final or self.rules.senas == "off":
            return
        for seat in h.order:
            if seat not in self.bots or seat in asked or any(r.seat == seat and r.context != "mus" for r in h.senas):
                continue
            asked.add(seat)
            for s in self.bots[seat].signals(g.view(seat)):
                if g.can_signal(seat, s):
                    g.signal(seat, s)

    def _hand_over(self) -> None:
        g = self.game
        h = g.hand
        if h.number not in self._observed:
            self._observed.add(h.number)
            seen: set[int] = set()
            for seat, bot in self.bots.items():
                if id(bot) not in seen and hasattr(bot, "observe"):
                    seen.add(id(bot))
                    bot.observe(g.view(seat))
        r = h.result
        if self.replaying is not None or r is None or not r.game_over or h.game_number in self.reviews:
            return
        review = review_game(g, self.seat, self.decisions, h.game_number)
        self.reviews[h.game_number] = review
        self._finished.append(FinishedGame(h.game_number, review, self.level))

    # ----- finished games -------------------------------------------------------------------
    def take_finished(self) -> list[FinishedGame]:
        """The games finished since the last call, as :class:`FinishedGame` records for the progress store
        (each given once; a replay never gives one)."""
        out, self._finished = self._finished, []
        return out

    # ----- a match kept for a reload ----------------------------------------------------------
    def saved_game(self) -> dict[str, object] | None:
        """The match in progress as plain JSON, to keep under the :data:`TABLE_GAME` setting after each decision so
        that a reload resumes it (:meth:`resume`): ``v`` (the layout), ``seed``, ``level``, ``seat``, ``first_mano``,
        ``ask_declarations``, ``target``, ``start_score`` (``{"A": n, "B": n}`` or None), ``moves`` (the
        learner's decisions in order, as texts :func:`~musteach.play.actions.parse_action` reads, ``"seña KEY"``
        and ``"next_hand"``), and what they led to: ``events`` (the game's history length) and ``cards`` (the
        learner's cards). None while the hand on the table has finished a game, and once the match is over (a
        finished game is not resumed: a reload then deals a new match); in a replay, the match set aside
        (RULES.md §2–§10)."""
        saved = self._saved
        game, moves = (saved.game, saved.moves) if saved is not None else (self.game, self.moves)
        r = game.hand.result
        if game.is_over or (r is not None and r.game_over):
            return None
        return {
            "v": _SAVED_VERSION,
            "seed": game.seed,
            "level": self.level,
            "seat": self.seat,
            "first_mano": self.first_mano,
            "ask_declarations": self.ask_declarations,
            "target": self.rules.target,
            "start_score": self._start_score,
            "moves": list(moves),
            "events": len(game.history),
            "cards": [c.code for c in game.view(self.seat).cards],
        }

    def fits(self, saved: object) -> bool:
        """True when ``saved`` (a :meth:`saved_game`) is a match of this table: the same layout, seat, first mano,
        declarations and target (another table's match is not resumed here)."""
        return (
            isinstance(saved, Mapping)
            and saved.get("v") == _SAVED_VERSION
            and saved.get("seat") == self.seat
            and saved.get("first_mano") == self.first_mano
            and saved.get("ask_declarations") == self.ask_declarations
            and saved.get("target") == self.rules.target
        )

    def resumable(self, saved: object, seed: int | None = None) -> bool:
        """True when ``saved`` is a match of this table (:meth:`fits`; of seed ``seed`` when one is given) other
        than the one on it now: what a new view of this table resumes after a reload."""
        if not self.fits(saved) or saved == self.saved_game():
            return False
        return seed is None or (isinstance(saved, Mapping) and saved.get("seed") == seed)

    def resume(self, saved: object) -> None:
        """Bring back the match ``saved`` (a :meth:`saved_game`): deal it again from its seed against fresh bots
        of its level (the bots decide the same given the seed) and play the learner's moves again through the
        engine, the coach and the bots; the comments, the graded decisions and the reviews come back too.
        Raises :class:`MusError` (and the table stays as it was) when it is not a match of this table
        (:meth:`fits`) or no longer replays to the same cards and history (a changed engine or a damaged record)."""
        old = (
            self.game, self.bots, self.decisions, self.comments, self.reviews, self._observed, self.moves,
            self.level, self._start_score, self._finished, self._saved, self.replaying,
        )  # fmt: skip
        try:
            if not self.fits(saved):
                raise MusError(Text(labels.GAME_NOT_RESUMED))
            assert isinstance(saved, Mapping)
            moves, score, level = saved.get("moves"), saved.get("start_score"), saved.get("level")
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise MusError(Text(labels.GAME_NOT_RESUMED))
            if not (score is None or isinstance(score, Mapping)) or not isinstance(level, str):
                raise MusError(Text(labels.GAME_NOT_RESUMED))
            seed = saved.get("seed")
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise MusError(Text(labels.GAME_NOT_RESUMED))
            self.new_match(seed, level=level, start_score=score)
            for m in moves:
                if m == _NEXT_HAND:
                    self.next_hand()
                elif m.startswith("seña "):
                    self.signal(m.removeprefix("seña "))
                else:
                    self.play(m)
            cards = [c.code for c in self.view.cards]
            if saved.get("events") != len(self.game.history) or saved.get("cards") != cards:
                raise MusError(Text(labels.GAME_NOT_RESUMED))
            self._finished = []  # the games it finished were kept when they were played
        except Exception as exc:  # a changed engine or a damaged record: the table stays as it was
            (
                self.game, self.bots, self.decisions, self.comments, self.reviews, self._observed, self.moves,
                self.level, self._start_score, self._finished, self._saved, self.replaying,
            ) = old  # fmt: skip
            raise MusError(Text(labels.GAME_NOT_RESUMED)) from exc

    # ----- the replay sandbox ---------------------------------------------------------------
    def replay(self, index: int) -> DecisionRecord:
        """Go back to the position of the ``index``-th decision of the review on the table (worst first), in a
        sandbox: the learner may try another action and play the hand out, but the game, its record, its
        review, its next hand and the progress store stay as they were until :meth:`back`. Returns the
        decision replayed. Raises :class:`MusError` for a bad index."""
        base = self._saved.game if self._saved is not None else self.game
        h = base.hand
        review = self.reviews.get(h.game_number) if h.result is not None and h.result.game_over else None
        if (
            review is None
            or isinstance(index, bool)
            or not isinstance(index, int)
            or not 0 <= index < len(review.decisions)
        ):
            raise MusError(Text(labels.NO_REPLAY_ERROR, index=shown(index)))
        rec = review.decisions[index]
        if self._saved is None:
            self._saved = _Saved(self.game, self.bots, self.decisions, self.comments, self._observed, self.moves)
        self.game = replay_from(base, rec)
        self.bots = make_bots(self.level, self.seat)
        self.decisions = [d for d in self._saved.decisions if d.event_index < rec.event_index]
        self.comments = []
        self.moves = []
        self._observed = {n for n in self._saved.observed if n < rec.hand_number}
        self.replaying = rec
        self._run_bots()
        return rec

    def back(self) -> None:
        """Leave the replay: the game comes back as it was before it. Raises :class:`MusError` outside a replay."""
        saved = self._saved
        if saved is None:
            raise MusError(Text(labels.NOT_REPLAYING))
        self.game, self.bots, self.decisions, self.comments, self._observed, self.moves = (
            saved.game, saved.bots, saved.decisions, saved.comments, saved.observed, saved.moves,
        )  # fmt: skip
        self._saved = None
        self.replaying = None


#: The move that deals the next hand, in :attr:`TableSession.moves`.
_NEXT_HAND = "next_hand"


def _betting_choices(b: LanceBetting, seat: int) -> tuple[Choice, ...]:
    """The betting choices ``seat`` has now, by the betting's ``can_x`` queries (RULES.md §6)."""
    offered = (
        (ChoiceKind.PASO, b.can_paso(seat), Action("paso", seat=seat)),
        (ChoiceKind.ENVIDO, b.can_envido(seat, MIN_BET), Action("envido", MIN_BET, seat=seat)),
        (ChoiceKind.QUIERO, b.can_quiero(seat), Action("quiero", seat=seat)),
        (ChoiceKind.NO_QUIERO, b.can_no_quiero(seat), Action("no_quiero", seat=seat)),
        (ChoiceKind.REENVIDO, b.can_reenvido(seat, MIN_BET), Action("reenvido", MIN_BET, seat=seat)),
        (ChoiceKind.ORDAGO, b.can_ordago(seat), Action("ordago", seat=seat)),
    )
    return tuple(Choice(kind, action, b.lance, seat) for kind, ok, action in offered if ok)


def _verify_bet(b: LanceBetting, seat: int, a: Action) -> None:
    """Check a betting action by the betting's ``verify_x`` (raises :class:`IllegalActionError` naming the rule)."""
    if a.kind == "envido":
        b.verify_envido(seat, a.amount if a.amount is not None else MIN_BET)
    elif a.kind == "reenvido":
        b.verify_reenvido(seat, a.amount if a.amount is not None else MIN_BET)
    elif a.kind == "paso":
        b.verify_paso(seat)
    elif a.kind == "ordago":
        b.verify_ordago(seat)
    elif a.kind == "quiero":
        b.verify_quiero(seat)
    else:
        b.verify_no_quiero(seat)
