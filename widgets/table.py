"""Play whole hands with a coach: the learner holds one seat, bots hold the other three (ipywidgets 8).

Every rule lives in :mod:`musteach`: the table session (:class:`~musteach.teach.table.TableSession`) owns the
game: whose turn, the legal choices (as records), the coach's comment, the engine step, the bots' turns, the
review, the replay sandbox and the record of each finished game; the pictures come from
:mod:`musteach.draw.cards`, :mod:`musteach.draw.stones` and :mod:`musteach.draw.senas`. :class:`PlayTable` only
draws the session's state and sends back the learner's choice. (The mus quiz is
:mod:`musteach_widgets.mus_quiz`.)

* :class:`PlayTable`: the learner's cards, the others face down until the reveal, the score as stones
  and amarracos, whose turn it is; Mus / No hay mus; cards to change (a toggle under each card, then
  Discard); the betting buttons with only the legal actions enabled; the partner's señas and the
  learner's own; a running log; the reveal and the count step by step; Next hand and New game. After
  each of the learner's decisions the coach says what it would have done and why, with the exact odds.

Its stable CSS classes are listed in :mod:`musteach_widgets.table_style`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from musteach.draw.cards import TEAM_COLORS, card_svg
from musteach.draw.cards import card_back_svg as back_svg
from musteach.draw.senas import sena_svg
from musteach.draw.stones import stones_svg
from musteach.draw.table import table_svg
from musteach.i18n import Text, translator
from musteach.play.bots import Bot
from musteach.play.game import Game
from musteach.play.levels import Level
from musteach.play.view import View
from musteach.rules import Rules
from musteach.rules.cards import Card
from musteach.rules.errors import MusError, shown
from musteach.rules.lances import team_of
from musteach.teach import labels
from musteach.teach.coach import CoachComment
from musteach.teach.progress import OPPONENTS_LEVEL, GameResult, Progress
from musteach.teach.review import DecisionRecord, GameReview, best_game_sentence, match_banner
from musteach.teach.table import (
    BOT_KINDS,
    TABLE_GAME,
    ChoiceKind,
    FinishedGame,
    TableSession,
    parse_start_score,
    seat_roles_words,
    seat_words,
    warm_up,
)

from ._base import Guarded, css_widget, escape, spoken
from ._base import html_box as _html
from .class_sink import game_record, send_record
from .storage import BrowserStore, Store, open_store
from .table_style import TABLE_CSS

__all__ = ["BOT_KINDS", "TABLE_CSS", "PlayTable", "card_back_svg", "warm_up"]

_MY_CARD_WIDTH = 74
_BACK_WIDTH = 30
_FACE_WIDTH = 34
_MAX_STAKE = 40



def _style() -> widgets.HTML:
    return css_widget(TABLE_CSS)


def _error_html(text: str) -> str:
    return f'<div class="musteach-error" role="alert">{escape(text)}</div>'


def card_back_svg(width: float = _BACK_WIDTH) -> str:
    """A face-down card (:func:`musteach.draw.cards.card_back_svg`), named in the language spoken now."""
    return back_svg(width, translator()(labels.FACE_DOWN))


# ----------------------------------------------------------------------------------------------
# Words
# ----------------------------------------------------------------------------------------------


def _env_start_score() -> dict[str, int] | None:
    """The test-only start score from ``MUSTEACH_TABLE_START`` (``"38-38"``: A-B; see :func:`parse_start_score`)."""
    return parse_start_score(os.environ.get("MUSTEACH_TABLE_START", ""))


def _dot(team: str) -> str:
    return f'<span class="musteach-dot" style="background:{TEAM_COLORS[team][0]}"></span>'


# ----------------------------------------------------------------------------------------------
# The table
# ----------------------------------------------------------------------------------------------


class PlayTable(Guarded, widgets.VBox):  # type: ignore[misc]  # ipywidgets has no type hints: VBox is Any
    """Play whole hands, games and a match of Mus against bots, with a coach (RULES.md §2–§11).

    seed: an int for a reproducible game (the same seed and the same clicks give the same cards), or None.
    rules: a :class:`~musteach.rules.Rules` (default 8 reyes to 40, best of 3 games). bot: a level of
    :class:`~musteach.play.levels.Level` (``"beginner"``, ``"club"``, ``"strong"``), ``"odds"``
    (:class:`~musteach.play.bots.OddsBot`, which weighs its chances; the strong level) or ``"rule"``
    (:class:`~musteach.play.bots.RuleBot`, simple thresholds; the club level) for the other three seats. learner_seat: the
    learner's seat 0..3 (0 and 2 are team A). target: stones to win a game (40, 35 or 30), overriding
    ``rules``. first_mano: the first hand's mano. ask_declarations: the learner says "pares sí / no" and
    "juego sí / no" itself. background: warm the coach's tables in a background thread (the default), or
    at once. store: where each finished game (its decisions and stones lost) is kept with the quizzes'
    progress, in its "games" section: ``"memory"`` (the default), ``"auto"``, ``"browser"``, ``"file"`` or a
    store (:func:`~musteach_widgets.storage.open_store`); the review shows the best game kept there, and so
    does a line under the score (``musteach-best-game``) as soon as the store has it (after a reload too).
    start_score: the first game's score, ``{"A": n, "B": n}`` (None: 0-0; :class:`MusError` for a bad one);
    New game starts from 0-0. Without it, the server's environment variable ``MUSTEACH_TABLE_START``
    (``"38-38"``: A-B) sets it: a test-only way to reach the end of a game fast through the real page.
    lang: the language of its words, the coach's and the log's (``"es"``; None: the kernel's, else English).

    A reload resumes the match in progress: after each decision the table keeps it in the store (the
    :data:`~musteach.teach.table.TABLE_GAME` setting: seed, opponents, start score and the learner's moves), and a
    new table with the same seat, target and first mano (and the same seed, when one is given) replays it through
    the engine (:meth:`~musteach.teach.table.TableSession.resume`), from the browser's store as soon as it arrives.
    A finished game or match, or one left by New game, is not resumed; one that no longer replays (a changed
    engine) is dropped with a friendly message and a new match is dealt.

    The game is played by a :class:`~musteach.teach.table.TableSession` (``session``): the table draws its state,
    offers its legal choices as buttons, and sends back the one clicked. State for scripts and tests: ``game``
    (the :class:`~musteach.play.game.Game`), ``bots`` (by seat), ``comments`` (every coach comment's text,
    newest last; ``coach_comments`` the comments), ``last_refusal`` (the last action refused, as the
    :class:`~musteach.rules.errors.MusError` shown), ``errors`` (unexpected exceptions, shown kindly),
    ``timings`` (seconds per handled click). :meth:`play` plays an action as a click would;
    :meth:`button` finds an action button by kind. Raises :class:`MusError` for a bad ``bot``, seat or
    rules.
    """

    def __init__(
        self,
        seed: int | None = None,
        rules: Rules | None = None,
        bot: str = "odds",
        learner_seat: int = 0,
        target: int | None = None,
        *,
        first_mano: int = 0,
        ask_declarations: bool = False,
        background: bool = True,
        store: str | Store = "memory",
        start_score: Mapping[str, int] | None = None,
    ):
        self.errors: list[BaseException] = []
        self.timings: list[float] = []
        self.last_refusal: MusError | None = None
        if bot not in BOT_KINDS:
            raise MusError(Text(labels.BOT_ERROR, value=shown(bot)))
        if isinstance(learner_seat, bool) or learner_seat not in (0, 1, 2, 3):
            raise MusError(Text(labels.LEARNER_SEAT_ERROR, value=shown(learner_seat)))
        r = rules if rules is not None else Rules()
        if not isinstance(r, Rules):
            raise MusError(Text(labels.RULES_ERROR, value=shown(rules)))
        if target is not None:
            r = replace(r, target=target)  # Rules checks it: RulesError (a MusError) for a bad target
        self.rules = r
        self.seat = learner_seat
        self.background = bool(background)
        self._warm = warm_up(r, background=self.background)
        self._selected: set[Card] = set()
        self._cards_shown: tuple[Card, ...] = ()
        self._card_html: list[widgets.HTML] = []
        self._toggles: list[widgets.ToggleButton] = []
        self.step = 0  # how many times the table was redrawn (in the header's data-step)
        self._seed = seed
        self._quiet_level = False  # True while the level dropdown follows a resumed match (no new match then)
        self.store = open_store(store)  # ProgressError (a MusError) for a bad store
        kept = self.store.load()
        self.best_game: GameResult | None = kept.best_game()
        level = kept.setting(OPPONENTS_LEVEL)  # the opponents the learner chose last (issue 23)
        saved = kept.setting(TABLE_GAME)  # the match in progress when the page was left (a reload resumes it)
        self._kept_game: object = saved
        # the session deals (a bad seed, first_mano or score raises here); the bots play once the table is built
        self.session = TableSession(
            r, seed, seat=learner_seat, level=level if level in BOT_KINDS else bot, first_mano=first_mano, ask_declarations=ask_declarations,
            start_score=start_score if start_score is not None else _env_start_score(), ready=self._wait_warm,
            bots_first=False,
        )  # fmt: skip
        self._build_views()
        self._build_action_row()
        self._build_sena_row()
        self._build_nav()
        super().__init__(
            [css_widget(), _style(), self.header, self.score_view, self.best_view, self.review_view, self.replay_box, self.status,
             self.seats_view, self.card_box,
             self.my_info, self.partner_view, self.sena_row, self.action_box, self.message, self.coach_view,
             self.count_view, self.nav, self.log_view]
            + ([self.store] if isinstance(self.store, BrowserStore) else [])
        )  # fmt: skip
        self.add_class("musteach-table-widget")
        if isinstance(self.store, BrowserStore):
            self.store.on_change(self._guard(self._on_stored))
        self._guard(self._start)(saved)

    # ----- building the widgets ---------------------------------------------------------------
    def _build_views(self) -> None:
        """The HTML views: header, score, status, seats, the learner's cards, messages, coach, count, log."""
        self.header = _html("musteach-table-header")
        self.score_view = _html("musteach-table-score")
        self.best_view = _html("musteach-best-game")
        self.status = _html("musteach-status")
        self.seats_view = _html("musteach-seats")
        self.card_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.card_box.add_class("musteach-my-hand")
        self.my_info = _html("musteach-my-info")
        self.partner_view = _html("musteach-partner-senas")
        self.message = _html("musteach-message")
        self.coach_view = _html("musteach-coach")
        self.count_view = _html("musteach-count")
        self.review_view = _html("musteach-review")
        self.replay_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.replay_box.add_class("musteach-replay")
        _ = translator()
        self.back_button = widgets.Button(
            description=_(labels.BACK_TO_GAME), tooltip=_(labels.BACK_TO_GAME_TIP), layout=widgets.Layout(width="auto")
        )
        self.back_button.add_class("musteach-back-to-game")
        self.back_button.on_click(self._guard(lambda b_: self._after_click(b_, self.back_to_game)))

    def _build_action_row(self) -> None:
        """One button per kind of action, and the boxes for the envido and raise amounts."""
        _ = translator()
        self.envido_amount = widgets.BoundedIntText(
            value=2, min=2, max=_MAX_STAKE, step=1, description="", tooltip=_(labels.ENVIDO_AMOUNT_TIP),
            layout=widgets.Layout(width="64px"),
        )  # fmt: skip
        self.envido_amount.add_class("musteach-amount")
        self.envido_amount.add_class("musteach-envido-amount")
        self.raise_amount = widgets.BoundedIntText(
            value=2, min=2, max=_MAX_STAKE, step=1, description="", tooltip=_(labels.RAISE_AMOUNT_TIP),
            layout=widgets.Layout(width="64px"),
        )  # fmt: skip
        self.raise_amount.add_class("musteach-amount").add_class("musteach-raise-amount")
        self.raise_amount.observe(lambda _c: setattr(  # the raise button says the amount typed ("3 más")
            self.buttons["reenvido"], "description", _(labels.RAISE_BY, n=self.raise_amount.value)), names="value")
        self.buttons: dict[str, widgets.Button] = {}
        for kind, (label, tip) in labels.ACTIONS.items():
            b = widgets.Button(description=_(label), tooltip=_(tip), layout=widgets.Layout(width="auto"))
            b.add_class("musteach-action")
            b.add_class(f"musteach-action-{kind}")
            choice_kind = ChoiceKind(kind)
            b.on_click(self._guard(lambda b_, k=choice_kind: self._after_click(b_, self._on_action, k)))
            self.buttons[kind] = b
        self.buttons["mus"].button_style = "info"
        self.buttons["ordago"].button_style = "danger"
        bt = self.buttons
        unit = widgets.HTML(escape(_(labels.STONES_PLACEHOLDER)), layout=widgets.Layout(width="auto"))
        self.envido_group = widgets.HBox([bt["envido"], self.envido_amount, unit])  # "Envido [2] stones"
        self.raise_group = widgets.HBox([self.raise_amount, bt["reenvido"]])  # "[2] [2 más]": never loose
        unit.add_class("musteach-amount-unit")
        for box, cls in ((self.envido_group, "envido-group"), (self.raise_group, "raise-group")):
            box.add_class("musteach-bet-group")
            box.add_class(f"musteach-{cls}")
        self.action_box = widgets.HBox(
            [bt["mus"], bt["no-hay-mus"], bt["discard"], bt["declare-si"], bt["declare-no"], bt["paso"],
             self.envido_group, bt["quiero"], bt["no-quiero"], self.raise_group, bt["ordago"]],
            layout=widgets.Layout(flex_flow="row wrap"),
        )  # fmt: skip
        self.action_box.add_class("musteach-actions")

    def _build_sena_row(self) -> None:
        """The seña picker (one line per seña, wrapped on a phone: a drop-down cut them off) and its Signal button."""
        _ = translator()
        self.sena_choice = widgets.RadioButtons(options=[], description=_(labels.SENA_LABEL), layout=widgets.Layout(width="auto"))
        self.sena_choice.add_class("musteach-sena-choice")
        self.signal_button = widgets.Button(
            description=_(labels.SIGNAL), tooltip=_(labels.SIGNAL_TIP),
            layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        self.signal_button.add_class("musteach-action")
        self.signal_button.add_class("musteach-action-signal")
        self.signal_button.on_click(self._guard(lambda b_: self._after_click(b_, self._on_signal)))
        self.buttons["signal"] = self.signal_button
        self.sena_row = widgets.HBox([self.sena_choice, self.signal_button])
        self.sena_row.add_class("musteach-sena-row")

    def _build_nav(self) -> None:
        """Next hand (or Go on) and New game."""
        _ = translator()
        self.next_button = widgets.Button(
            description=_(labels.NEXT_HAND), tooltip=_(labels.NEXT_HAND_TIP), layout=widgets.Layout(width="auto")
        )
        self.next_button.add_class("musteach-next-hand")
        self.next_button.on_click(self._guard(lambda b_: self._after_click(b_, self._on_next)))
        self.new_button = widgets.Button(
            description=_(labels.NEW_GAME), tooltip=_(labels.NEW_GAME_TIP), layout=widgets.Layout(width="auto")
        )
        self.new_button.add_class("musteach-new-game")
        self.new_button.on_click(self._guard(lambda b_: self._after_click(b_, self._on_new)))
        levels = [(labels.level_label(lv.value), lv.value) for lv in Level]
        if self.bot_kind not in {lv.value for lv in Level}:  # a script's own bots ("odds", "rule")
            levels.append((labels.level_label(self.bot_kind), self.bot_kind))
        self.level_choice = widgets.Dropdown(
            options=levels, value=self.bot_kind, description=_(labels.OPPONENTS), style={"description_width": "initial"},
            layout=widgets.Layout(width="auto", max_width="100%"),
        )  # fmt: skip
        self.level_choice.add_class("musteach-level")
        self.level_choice.observe(self._guard(self._on_level), names="value")
        self.nav = widgets.HBox(
            [self.next_button, self.new_button, self.level_choice],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", height="auto"),
        )
        self.nav.add_class("musteach-nav")
        self.log_view = _html("musteach-log")

    # ----- state ---------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The :class:`~musteach.play.game.Game` on the table (in a replay, the replayed one)."""
        return self.session.game

    @property
    def bots(self) -> dict[int, Bot]:
        """The bots, by seat."""
        return self.session.bots

    @property
    def bot_kind(self) -> str:
        """The opponents' level (or bot kind)."""
        return self.session.level

    @property
    def first_mano(self) -> int:
        """The first hand's mano."""
        return self.session.first_mano

    @property
    def ask_declarations(self) -> bool:
        """True when the learner declares pares and juego itself."""
        return self.session.ask_declarations

    @property
    def coach_comments(self) -> list[CoachComment]:
        """Every coach comment on the learner's decisions, newest last."""
        return self.session.comments

    @property
    def comments(self) -> list[str]:
        """The coach comments' sentences, newest last."""
        return [c.text for c in self.session.comments]

    @property
    def decisions(self) -> list[DecisionRecord]:
        """The learner's graded decisions."""
        return self.session.decisions

    @property
    def reviews(self) -> dict[int, GameReview]:
        """The reviews of the finished games, by game number."""
        return self.session.reviews

    @property
    def review(self) -> GameReview | None:
        """The review shown now (None outside the end of a game, and in a replay)."""
        return self.session.review

    @property
    def view(self) -> View:
        """The learner's :class:`~musteach.play.game.View` now."""
        return self.session.view

    @property
    def my_turn(self) -> bool:
        """True when the learner may decide now (the engine's rule: :attr:`TableSession.my_turn`)."""
        return self.session.my_turn

    @property
    def card_toggles(self) -> tuple[widgets.ToggleButton, ...]:
        """The "Change" toggles under the learner's cards, in the order shown (see :attr:`shown_cards`)."""
        return tuple(self._toggles)

    @property
    def shown_cards(self) -> tuple[Card, ...]:
        """The learner's cards in the order shown, highest first."""
        return self._cards_shown

    @property
    def stalled(self) -> bool:
        """True when a bot should move but has not (only after an unexpected error): "Go on" retries."""
        return self.session.stalled

    def button(self, kind: str) -> widgets.Button:
        """The action button of a kind (``"mus"``, ``"paso"``, ``"no-quiero"``, ``"signal"``...)."""
        try:
            return self.buttons[kind]
        except KeyError:
            raise KeyError(f"no action button {kind!r}: one of {', '.join(self.buttons)}") from None

    def enabled_kinds(self) -> list[str]:
        """The kinds of the action buttons enabled now."""
        return [k for k, b in self.buttons.items() if not b.disabled]

    # ----- game flow -----------------------------------------------------------------------
    def _wait_warm(self) -> None:
        t = self._warm
        if t is not None and t.is_alive():
            t.join()

    def _begin(self) -> None:
        self._selected = set()
        self.coach_view.value = ""
        self.message.value = ""
        self.session.go_on()
        self._refresh()

    def _start(self, saved: object) -> None:
        """Resume the match kept in the store (a reload) when it is this table's, else let the bots play."""
        if not self._resume(saved):
            self._begin()

    def _resume(self, saved: object) -> bool:
        """Bring back the kept match ``saved``; one that no longer replays is dropped with a friendly message and
        a new match is dealt. Returns False (nothing done) when ``saved`` is not a match of this table."""
        s = self.session
        if not s.resumable(saved, self._seed):
            return False
        try:
            s.resume(saved)
        except MusError as exc:
            self._begin()
            self.message.value = _error_html(exc.message())
            return True
        if self.level_choice.value != s.level:
            if s.level not in [v for _label, v in self.level_choice.options]:
                self.level_choice.options = [*self.level_choice.options, (labels.level_label(s.level), s.level)]
            self._quiet_level = True
            try:
                self.level_choice.value = s.level
            finally:
                self._quiet_level = False
        self._selected = set()
        self.message.value = ""
        self.coach_view.value = ""
        if s.comments:
            self._show_comment(s.comments[-1])
        self._refresh()
        return True

    def _keep_game(self) -> None:
        """Keep the match in progress in the store (the :data:`TABLE_GAME` setting) when it changed, so that a reload
        resumes it; None once it is over. Nothing is kept before the browser has sent what it holds (it would
        hide the match kept there)."""
        if isinstance(self.store, BrowserStore) and not self.store.loaded:
            return
        state = self.session.saved_game()
        if state == self._kept_game:
            return
        self._kept_game = state
        chosen = Progress()
        chosen.set_setting(TABLE_GAME, state)
        self.store.save(chosen)

    @spoken
    def new_game(self, seed: int | None = None) -> None:
        """Start a new match from 0-0 (fresh bots; ``seed`` None picks one at random)."""
        self.session.new_match(seed, bots_first=False)
        self._begin()

    @spoken
    def play(self, action: Any) -> bool:
        """Play the learner's ``action`` (an action record or its text) as a click would.

        Returns True if it was played. An action the rules refuse shows a friendly message (kept in
        :attr:`last_refusal`) and changes nothing.
        """
        start = time.perf_counter()
        try:
            try:
                said = self.session.play(action)
            except MusError as exc:
                self._refuse(translator()(labels.NOT_ALLOWED, error=exc.message()), exc)
                return False
            self._played(said)
            return True
        finally:
            self.timings.append(time.perf_counter() - start)

    def _played(self, said: CoachComment | None) -> None:
        """After a decision (None: a seña): the coach's comment, then the table as it is now."""
        self.message.value = ""
        if said is not None:
            self._selected = set()
            self._show_comment(said)
        self._refresh()

    def _refuse(self, text: str, exc: MusError | None = None) -> None:
        """Show a friendly message; nothing else changes (the header's step moves on, to say it is drawn)."""
        if exc is not None:
            self.last_refusal = exc
        self.message.value = _error_html(text)
        self.step += 1
        self._draw_header(self.view)

    def _show_comment(self, said: CoachComment) -> None:
        cls = "musteach-coach-text" + ("" if said.agreed else " musteach-differs")
        self.coach_view.value = (
            f'<div class="{cls}" role="status" aria-live="polite"><b>{escape(translator()(labels.COACH))}</b> {escape(said.text)}</div>'
        )

    # ----- handlers ------------------------------------------------------------------------
    def _after_click(self, pressed: widgets.Button, handler: Callable[..., Any], *args: Any) -> None:
        """Run a click's handler, then keep the keyboard focus inside the table.

        A decision often hides or disables the button that was pressed (the lance moves on, the seña is made,
        the hand ends); the browser would then drop the focus to the page's top. The focus goes to the first
        control the learner can use next: an enabled action, else Next hand (or Go on), else New game.
        """
        try:
            handler(*args)
        finally:
            if not self._usable(pressed):
                self.focus_next_control()

    def _usable(self, b: widgets.Button) -> bool:
        hidden = b.layout.display == "none" or (b is self.signal_button and self.sena_row.layout.display == "none")
        return not (b.disabled or hidden)

    def focus_next_control(self) -> None:
        """Give the keyboard focus to the first control the learner can use now (see :meth:`_after_click`)."""
        candidates = [*self.buttons.values(), self.next_button, self.new_button]
        for b in candidates:
            if self._usable(b):
                b.focus()
                return

    def _on_action(self, kind: ChoiceKind) -> None:
        """A button of ``kind``: the session's legal choice of that kind, with the box's amount or the marked
        cards, is sent back to it."""
        start = time.perf_counter()
        try:
            s = self.session
            try:
                choice = s.choice(kind)
                amount = self.raise_amount.value if kind is ChoiceKind.REENVIDO else self.envido_amount.value
                cards = [c for c in self.view.cards if c in self._selected]
                said = s.choose(choice, amount=int(amount) if choice.takes_amount else None, cards=cards)
            except MusError as exc:
                self._refuse(translator()(labels.NOT_ALLOWED, error=exc.message()), exc)
                return
            self._played(said)
        finally:
            self.timings.append(time.perf_counter() - start)

    def _on_toggle(self, card: Card, change: dict[str, Any]) -> None:
        if change.get("new"):
            self._selected.add(card)
        else:
            self._selected.discard(card)
        self._draw_cards()
        self._draw_actions()

    def _on_signal(self, _b: widgets.Button | None = None) -> None:
        start = time.perf_counter()
        try:
            self.session.signal(str(self.sena_choice.value or ""))
        except MusError as exc:
            self._refuse(translator()(labels.SENA_NOT_MADE, error=exc.message()), exc)
            return
        finally:
            self.timings.append(time.perf_counter() - start)
        self.message.value = ""
        self._refresh()

    def _on_next(self, _b: widgets.Button | None = None) -> None:
        start = time.perf_counter()
        try:
            s = self.session
            if s.stalled:
                self.message.value = ""
                s.go_on()
                self._refresh()
                return
            try:
                s.next_hand()
            except MusError as exc:
                self._refuse(exc.message())
                return
            self.message.value = ""
            self.coach_view.value = ""
            self._selected = set()
            self._refresh()
        finally:
            self.timings.append(time.perf_counter() - start)

    def _on_new(self, _b: widgets.Button | None = None) -> None:
        self.new_game(None)

    def _on_level(self, change: dict[str, Any]) -> None:
        """The learner picked other opponents: a new match starts against them (fresh bots, from 0-0); the
        choice is kept like the rest of the progress."""
        if self._quiet_level:
            return
        if self.store.load().setting(OPPONENTS_LEVEL) != str(change["new"]):
            chosen = Progress()
            chosen.set_setting(OPPONENTS_LEVEL, str(change["new"]))
            self.store.save(chosen)
        self.session.new_match(None, level=str(change["new"]), bots_first=False)
        self._begin()

    @spoken
    def replay_decision(self, index: int) -> None:
        """Go back to the position of the ``index``-th decision of the last review (worst first), to try the
        better action, in a sandbox (:meth:`TableSession.replay`): the game, its review, its next hand and the
        best game stay as they were, and the table says "Replay" until :meth:`back_to_game`. Raises
        :class:`MusError` for a bad index."""
        self.session.replay(index)
        self._selected = set()
        self.coach_view.value = ""
        self.message.value = ""
        self._refresh()

    @spoken
    def back_to_game(self, _b: widgets.Button | None = None) -> None:
        """Leave the replay: the game comes back as it was (with its review)."""
        self.session.back()
        self._selected = set()
        self.coach_view.value = ""
        self.message.value = ""
        self._refresh()

    def _show_oops(self) -> None:
        self.message.value = _error_html(translator()(labels.MOVE_OOPS))
        try:
            self._refresh()
        except Exception as exc:  # the drawing itself failed: keep the message
            self.errors.append(exc)

    # ----- drawing -------------------------------------------------------------------------
    def _refresh(self) -> None:
        # The browser applies the updates in this order; the header goes last and carries ``data-step``, so a
        # page (or a browser test) that sees a new step sees everything else of that step already drawn.
        for finished in self.session.take_finished():
            self._record_game(finished)
        self._keep_game()
        view = self.view
        self._draw_count()
        self._draw_review()
        self._draw_best()
        self._draw_log()
        self._draw_seats(view)
        self._draw_cards()
        self._draw_partner()
        self._draw_actions()
        stalled = self.stalled
        _ = translator()
        self.next_button.description = _(labels.GO_ON if stalled else labels.NEXT_HAND)
        self.next_button.tooltip = _(labels.GO_ON_TIP if stalled else labels.NEXT_HAND_TIP)
        self.next_button.disabled = not (stalled or self.session.can_deal_next)
        self.next_button.layout.display = None if not self.next_button.disabled else "none"
        self._draw_status()
        self.step += 1
        self._draw_header(view)

    def _draw_header(self, view: View) -> None:
        g = self.game
        h = g.hand
        team = team_of(self.seat)
        _ = translator()
        self.header.value = f'<span class="musteach-step" data-step="{self.step}"></span>' + _(
            labels.HEADER, hand=h.number, game=h.game_number, seat=self.seat, team_dot=_dot(team), team=team,
            roles=seat_roles_words(self.seat, h.mano), mano=seat_words(h.mano, self.seat),
        )  # fmt: skip
        score = h.result.final_score if h.result is not None else view.live_score
        games = self.session.games_won
        extra = _(labels.GAMES_WON, a=games["A"], b=games["B"]) + " " if any(games.values()) else ""
        self.score_view.value = stones_svg(score["A"], score["B"], self.rules, width=440) + (
            f"<div>{escape(extra)}{escape(_(labels.GAME_IS, target=self.rules.target, team=team))}</div>"
        )

    def _draw_status(self) -> None:
        self.status.remove_class("musteach-your-turn")
        if self.my_turn:
            self.status.add_class("musteach-your-turn")
        self.status.value = escape(self.session.status_text()).replace("órdago", "<i>órdago</i>")

    def _draw_seats(self, view: View) -> None:
        g = self.game
        h = g.hand
        said = self.session.said()
        t = g.to_act
        shown = view.shown
        places = {(self.seat + 1) % 4: "right", (self.seat + 2) % 4: "top", (self.seat + 3) % 4: "left"}
        _ = translator()
        parts = []
        for s, place in places.items():
            team = team_of(s)
            who = _(labels.YOUR_PARTNER if place == "top" else labels.OPPONENT)
            if shown is not None:
                cards = "".join(card_svg(c, _FACE_WIDTH) for c in shown[s])
            else:
                cards = card_back_svg() * 4
            turn = f' <span class="musteach-turn-mark">{escape(_(labels.TO_SPEAK))}</span>' if t is not None and s in t.seats else ""
            bubble = f'<span class="musteach-said">{escape(said[s])}</span>' if s in said else ""
            parts.append(
                f'<div class="musteach-seat musteach-seat-{place}" data-seat="{s}">'
                f'<div class="musteach-seat-name">{_dot(team)}{escape(_(labels.SEAT_HEAD, who=who, seat=s, roles=seat_roles_words(s, h.mano)))}{turn}</div>'
                f'<div class="musteach-seat-cards">{cards}</div>{bubble}</div>'
            )
        parts.append(f'<div class="musteach-centre">{self._centre_text()}</div>')
        self.seats_view.value = f'<div class="musteach-seats-grid">{"".join(parts)}</div>'

    def _centre_text(self) -> str:
        c = self.session.centre()
        lines = [f"<b>{escape(c.title)}</b>", *map(escape, c.lines)]
        if c.outcomes:
            lines.append("<small>" + "<br>".join(map(escape, c.outcomes)) + "</small>")
        return "<br>".join(lines)

    def _draw_cards(self) -> None:
        cards = self.session.my_cards()
        discard = self.session.can_mark_cards
        if cards != self._cards_shown or not self._toggles:
            self._cards_shown = cards
            self._selected &= set(cards)
            self._card_html = []
            self._toggles = []
            _ = translator()
            cols = []
            for c in cards:
                pic = widgets.HTML(layout=widgets.Layout(width="auto"))
                pic.add_class("musteach-mycard")
                tog = widgets.ToggleButton(
                    value=c in self._selected, description=_(labels.CHANGE),
                    tooltip=_(labels.MARK_TO_CHANGE, card=c.name), layout=widgets.Layout(width="86px"),
                )  # fmt: skip
                tog.add_class("musteach-discard-toggle")
                tog.add_class(f"musteach-discard-{c.code}")
                tog.observe(self._guard(lambda ch, card=c: self._on_toggle(card, ch)), names="value")
                col = widgets.VBox([pic, tog])
                col.add_class("musteach-card-col")
                self._card_html.append(pic)
                self._toggles.append(tog)
                cols.append(col)
            self.card_box.children = tuple(cols)
        for c, pic, tog in zip(cards, self._card_html, self._toggles, strict=True):
            marked = c in self._selected
            pic.value = card_svg(c, _MY_CARD_WIDTH, dim=marked and discard)
            tog.disabled = not discard
            tog.layout.display = None if discard else "none"
            if tog.value != marked:
                tog.value = marked
        w = self.session.hand_words()
        self.my_info.value = f"{escape(w.heading)} <b>{escape(w.cards)}</b> · {escape(w.pares)} · {escape(w.juego)}"

    def _draw_partner(self) -> None:
        s = self.session
        _ = translator()
        lines = [
            f'<div class="musteach-sena-line">{sena_svg(p.sena, 46, self.rules)}<span>'
            f"{escape(p.said)} <b>{escape(p.meaning)}</b></span></div>"
            for p in s.partner_senas()
        ]
        mine = s.my_senas_words()
        if mine is not None:
            lines.append(f'<div class="musteach-sena-line"><span>{escape(mine)}</span></div>')
        if not lines:
            lines.append(f'<div class="musteach-sena-line"><span>{escape(_(labels.NO_SENAS_YET))}</span></div>')
        self.partner_view.value = "".join(lines)
        options = list(s.sena_options())
        usable = bool(options)
        if not usable:
            options = [(_(labels.NO_SENA_FITS), "")]
        keep = self.sena_choice.value
        if list(self.sena_choice.options) != options:
            self.sena_choice.options = options
        values = [v for _, v in options]
        self.sena_choice.value = keep if keep in values else values[0]
        self.sena_choice.disabled = not usable
        self.signal_button.disabled = not usable
        hide = self.rules.senas == "off" or self.game.hand.is_over
        self.sena_row.layout.display = "none" if hide else None

    def _draw_actions(self) -> None:
        """Show the buttons of the kinds this part of the hand asks for; enable those the session offers."""
        s = self.session
        enabled = {str(c.kind) for c in s.choices() if c.ready(self._selected)}
        show = {str(k) for k in s.phase_kinds()}
        for k, b in self.buttons.items():
            if k != "signal":
                b.disabled = k not in enabled
                b.layout.display = None if k in show else "none"
        _ = translator()
        self.buttons["discard"].description = labels.discard_label(len(self._selected))
        phase = s.game.hand.phase
        lance = phase.lance
        if phase.is_declaration and lance is not None:
            self.buttons["declare-si"].description = _(labels.DECLARE_SI, lance=lance.value)
            self.buttons["declare-no"].description = _(labels.DECLARE_NO, lance=lance.value)
        self.envido_group.layout.display = None if "envido" in show else "none"
        self.raise_group.layout.display = None if "reenvido" in show else "none"
        self.envido_amount.disabled = "envido" not in enabled
        self.raise_amount.disabled = "reenvido" not in enabled
        self.buttons["reenvido"].description = _(labels.RAISE_BY, n=self.raise_amount.value)

    def _draw_count(self) -> None:
        g = self.game
        h = g.hand
        if not h.is_over or h.result is None:
            self.count_view.value = ""
            return
        res = h.result
        assert h.deal is not None
        _ = translator()
        pic = table_svg([hd for hd in self.view.shown or ()], h.mano, card_width=40, rules=self.rules,
                        caption=_(labels.HANDS_AT_END))  # fmt: skip
        steps = "".join(f"<li>{escape(t)}</li>" for t in h.explanation)
        line = res.total_sentence(team_of(self.seat))
        self.count_view.value = (
            f'<div class="musteach-count-box" aria-label="{escape(_(labels.THE_COUNT))}"><div class="musteach-count-pic">{pic}</div>'
            f"<div><b>{escape(_(labels.COUNT_STEP_BY_STEP))}</b></div>"
            f'<ol class="musteach-count-steps">{steps}</ol><div class="musteach-count-total">{escape(line)}</div>'
            "</div>"
        )

    def _draw_review(self) -> None:
        """At the end of a game: its banner (and the match's), the learner's decisions worst first, the error
        rate, and a button to replay each of the worst decisions (musteach.teach.review). In a replay: the
        replay's banner and the way back."""
        words = self.session.replay_banner()
        if words is not None:
            self.review_view.value = f'<div class="musteach-replay-banner" role="status" aria-live="polite">{escape(words)}</div>'
            self.replay_box.children = (self.back_button,)
            return
        review = self.session.review
        if review is None:
            self.review_view.value = ""
            self.replay_box.children = ()
            return
        match = match_banner(self.game, self.seat)
        items = "".join(f"<li>{escape(d.line())}</li>" for d in review.decisions)
        self.review_view.value = (
            f'<div class="musteach-review-box" role="status" aria-live="polite">'
            f'<div class="musteach-game-over">{escape(review.banner)}</div>'
            + (f'<div class="musteach-match-over">{escape(match)}</div>' if match else "")
            + f'<div class="musteach-review-summary">{escape(review.summary())}</div>'
            f"<details open><summary>{escape(translator()(labels.DECISIONS_WORST_FIRST))}</summary>"
            f'<ol class="musteach-review-list">{items}</ol></details></div>'
        )
        buttons = []
        for i, d in enumerate(review.decisions[:5]):
            if d.stones_lost <= 0:
                break
            b = widgets.Button(description=d.replay_label(), tooltip=d.line(), layout=widgets.Layout(width="auto"))
            b.add_class("musteach-replay-button")
            b.on_click(self._guard(lambda _b, i=i: self.replay_decision(i)))
            buttons.append(b)
        self.replay_box.children = tuple(buttons)

    def _record_game(self, finished: FinishedGame) -> None:
        """Hand a finished game to the progress store (its "games" section) and read the best game back."""
        progress = self.store.load()
        game = progress.record_game(
            finished.decisions, finished.stones_lost, finished.won, level=finished.level, review=finished.review_facts()
        )
        send_record(game_record(game))  # classes: to the teacher too
        self.best_game = self.store.save(progress).best_game()

    def _on_stored(self, progress: Progress) -> None:
        """The browser sent the progress it keeps: show the best game kept there, and take the opponents' level
        kept there while the learner has made no decision in this match yet; resume the match kept there then."""
        saved = progress.setting(TABLE_GAME)
        if not self.session.moves and self._resume(saved):
            self.best_game = progress.best_game()
            self._draw_best()
            return
        self._keep_game()
        level = progress.setting(OPPONENTS_LEVEL)
        if level in BOT_KINDS and level != self.bot_kind and not self.session.decisions:
            self.level_choice.value = level  # a new match against them (see _on_level)
        self.best_game = progress.best_game()
        self._draw_best()
        if self.game.hand.is_over:
            self._draw_review()

    def _draw_best(self) -> None:
        self.best_view.value = escape(best_game_sentence(self.best_game))

    def _draw_log(self) -> None:
        g = self.game
        h = g.hand
        texts = [t for e in g.history[h.first_event :] if (t := e.text_for(self.seat)) is not None]
        items = "".join(f"<p>{escape(t)}</p>" for t in reversed(texts))
        self.log_view.value = (
            f"<details open><summary>{escape(labels.events_heading(len(texts)))}</summary>"
            f'<div class="musteach-log-box" role="log">{items}</div></details>'
        )

