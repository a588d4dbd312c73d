"""Quiz widgets: who wins a lance, card order, jugadas, totals (ipywidgets 8).

Every question, verdict and explanation comes from :mod:`musteach.teach.quiz`; these classes only draw
and wire buttons. All controls are real ipywidgets buttons or text boxes, so Tab, Enter and Space work.

Stable CSS classes for browser tests: the root ``musteach-quiz``; answer buttons ``musteach-answer`` with
``musteach-seat-<n>``, ``musteach-answer-nobody``, ``musteach-answer-<jugada>``, ``musteach-answer-<total>``
or ``musteach-card-<code>``; the feedback ``musteach-feedback``; the score ``musteach-score``; the buttons
``musteach-next``, ``musteach-restart``, ``musteach-check``, ``musteach-undo``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as widgets

from musteach.draw.cards import card_svg, hand_svg
from musteach.draw.table import table_svg
from musteach.i18n import Text, translator
from musteach.rules import Rules
from musteach.rules.cards import Card
from musteach.rules.errors import MusError, shown
from musteach.rules.lances import Lance
from musteach.teach import labels
from musteach.teach.errors import BlankAnswerError
from musteach.teach.progress import Record
from musteach.teach.quiz import (
    LANCE_SKILLS,
    Kind,
    Question,
    QuestionGenerator,
    QuizError,
    QuizSession,
    Skill,
    Verdict,
)
from musteach.teach.resume import new_seed, replay, run_rng

from ._base import (
    FRIENDLY_ERROR,
    PREFETCH_AFTER,
    Guarded,
    css_widget,
    escape,
    feedback_html,
    quiz_nav,
    verdict_html,
    when_sent,
)
from ._base import html_box as html
from .path import Tutored
from .storage import Store

__all__ = ["JugadaQuiz", "LanceQuiz", "QuizWidget", "RankQuiz", "TotalQuiz"]

_TABLE_CARD_WIDTH = 54
_HAND_CARD_WIDTH = 72


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


class QuizWidget(Tutored, Guarded, widgets.VBox):
    """A run of ``n`` questions with feedback, a running score, a Hint button, Next and Start again.

    skills: the :class:`~musteach.teach.quiz.Skill` values to draw from. n: questions to answer.
    seed: an int for a reproducible run, or None. rules: a :class:`~musteach.rules.Rules` (default 8 reyes).
    instructive_share: the share (0..1) of questions built to teach a point (ties to mano, 3s as kings...).
    kinds: the instructive :class:`~musteach.teach.quiz.Kind` values allowed (default all that fit).
    title: the heading shown at the top. lang: the language of its words (``"es"``; None: the kernel's, see
    :func:`~musteach_widgets.use_language`, else English); :class:`~musteach.rules.errors.LanguageError` for
    one the tutor does not speak.
    questions: a fixed list of :class:`~musteach.teach.quiz.Question` (e.g. from :func:`~musteach.teach.quiz.lance_question`)
    to ask in order instead of generated ones; ``n`` is then at most their number.
    tries: 2 (a wrong first answer gets one more try, with what led astray) or 1.
    lesson, quiz: the lesson (``"03-grande-chica"``) and its quiz (default: the skill asked, ``"grande"``)
    whose results are kept; without a lesson nothing is kept. store, path: where they are kept (default
    ``"auto"``: this browser in Voilà, a file in JupyterLab; see :func:`~musteach_widgets.storage.open_store`).

    ``errors`` lists every exception a handler raised (the learner saw a friendly message instead);
    ``session`` is the :class:`~musteach.teach.quiz.QuizSession`. Raises :class:`~musteach.teach.errors.QuizError` for
    a bad skill, kind, share or n.
    """

    default_title = labels.QUIZ

    def __init__(
        self,
        skills: Iterable[Skill | str],
        *,
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        instructive_share: float = 0.4,
        kinds: Iterable[Kind | str] | None = None,
        title: str | None = None,
        questions: Iterable[Question] | None = None,
        tries: int = 2,
        lesson: str | None = None,
        quiz: str | None = None,
        store: str | Store | None = None,
        path: str | None = None,
    ):
        self.errors: list[BaseException] = []
        self._seed = seed
        self.questions: tuple[Question, ...] | None = None if questions is None else tuple(questions)
        if self.questions is not None:
            if not self.questions or not all(isinstance(q, Question) for q in self.questions):
                raise QuizError(Text(labels.QUESTIONS_LIST_ERROR, value=shown(questions)))
            allowed = {Skill.parse(k) for k in ([skills] if isinstance(skills, str) else skills)}
            for q in self.questions:
                if q.skill not in allowed:
                    raise QuizError(
                        Text(labels.QUESTION_SKILL_ERROR, skills=", ".join(sorted(allowed)), skill=q.skill.value)
                    )
            n = min(n, len(self.questions))
        self.generator = QuestionGenerator(
            skills, seed=seed, rules=rules, instructive_share=instructive_share, kinds=kinds
        )
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise QuizError(Text(labels.N_ERROR, value=shown(n)))
        self.n = n
        self.session: QuizSession | None = None
        self._buttons: list[tuple[Any, widgets.Button]] = []

        self.title = html("musteach-title")
        self.title.value = escape(title or translator()(self.default_title))
        self.progress = html("musteach-progress")
        self.prompt = html("musteach-prompt")
        self.picture = html("musteach-picture")
        self.answer_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.answer_box.add_class("musteach-answers")
        self.feedback = html("musteach-feedback")
        self.score, self.next_button, self.restart_button, nav = quiz_nav(
            self._guard(self._on_next), self._guard(self._on_restart)
        )
        if tries not in (1, 2):
            raise QuizError(Text(labels.TRIES_ERROR, value=shown(tries)))
        extra = self._setup_tutor(
            tries=tries, lesson=lesson, quiz=quiz or self._quiz_default(), store=store, path=path
        )
        nav.children = (self.hint_button, *nav.children)
        super().__init__(
            [
                css_widget(), self.title, self.best, self.progress, self.prompt, self.picture, self.answer_box,
                self.feedback, nav, *extra,
            ]
        )  # fmt: skip
        self.add_class("musteach-quiz")
        self._guard(self._start)()
        self._guard(self._tutor_resume)()

    def _quiz_default(self) -> str | None:
        """The quiz's name within its lesson when none is given (the skill asked, if only one)."""
        skills = self.generator.skills
        return skills[0].value if len(skills) == 1 else None

    # ----- state ---------------------------------------------------------------------------
    @property
    def question(self) -> Question | None:
        """The question on screen."""
        return self.session.current if self.session else None

    @property
    def verdict(self) -> Verdict | None:
        """The current question's verdict, once answered."""
        return self.session.verdict if self.session else None

    @property
    def answer_buttons(self) -> tuple[widgets.Button, ...]:
        """The answer buttons of the current question, in the order of its choices."""
        return tuple(b for _, b in self._buttons)

    def button_for(self, value: Any) -> widgets.Button:
        """The answer button for a choice value (a seat, None for Nobody, a jugada, a total, a card)."""
        for v, b in self._buttons:
            if _same(v, value):
                return b
        raise KeyError(f"no answer button for {value!r}")

    # ----- handlers ------------------------------------------------------------------------
    def _start(self) -> None:
        self._begin_run(())

    def _begin_run(self, steps: tuple[Record, ...]) -> None:
        """A new run (or, given kept ``steps``, the run they belong to, replayed: see :meth:`_resume`)."""
        seed = None
        source = self._plain_source()
        if self.questions is None and self.lesson is not None:  # a kept run: its questions can be drawn again
            kept = steps[0].data.get("seed") if steps else self._seed
            seed = kept if isinstance(kept, int) else new_seed()
            self._seed = None  # the seed given is the first run's; each later run draws a new one
            source = self._run_source(seed)
        self.session = QuizSession(source, n=self.n, tries=self.tries)
        self._tutor_run_started(seed)
        if steps:
            self._tutor_replayed(steps, replay(self.session, steps))
        self._show_question()
        s = self.session
        if s.is_answered and s.verdict is not None:
            self._show_verdict(s.verdict)
        elif s.retry is not None:
            self.feedback.value = feedback_html("retry", s.retry.headline, s.retry.explanation)
            self._reopen_answers(s.retry.given)

    def _plain_source(self) -> Any:
        """Where the questions come from: the fixed list, else the generator (a subclass may have its own)."""
        return self.generator if self.questions is None else iter(self.questions)

    def _run_source(self, seed: int) -> Any:
        """The question source of a kept run, drawn from ``seed`` (a subclass with its own source makes a new one)."""
        self.generator.rng = run_rng(seed)
        return self.generator

    def _resume(self, steps: tuple[Record, ...]) -> None:
        if type(self)._start is QuizWidget._start:  # a quiz that draws its questions otherwise starts afresh
            self._begin_run(steps)

    def _on_next(self, _button: widgets.Button | None = None) -> None:
        if self.session is None:  # the first question failed to build: try again
            self._start()
        elif self.session.finished:
            return
        else:
            self.session.next()
            self._show_question()
            self._tutor_shown()
        self._focus_first_answer()

    def _on_restart(self, _button: widgets.Button | None = None) -> None:
        if self.session is None or self.questions is not None or self.run_id is not None:
            self._start()  # a fixed list of questions starts again from its first question
        else:
            self.session.restart()
            self._show_question()
        self._focus_first_answer()

    def _submit(self, response: Any, *, typed: bool = False) -> Verdict | None:
        """Grade a response and show the verdict. ``typed``: the response came from a text box, so a
        :class:`~musteach.rules.errors.MusError` is the learner's slip (shown as a hint), not a bug."""
        session = self.session
        if session is None or not session.can_answer():
            return None  # a second click on an answered question is ignored
        try:
            verdict = session.answer(response)
        except MusError as exc:
            if not typed:
                raise
            headline = "" if isinstance(exc, BlankAnswerError) else translator()(labels.TRY_AGAIN)  # a blank box uses no try
            self.feedback.value = feedback_html("hint", headline, exc.message())
            return None
        if self._tutor_answered(verdict, response):
            return verdict  # one more try: the question stays open
        self._show_verdict(verdict)
        return verdict

    # ----- drawing -------------------------------------------------------------------------
    def _show_question(self) -> None:
        s = self.session
        assert s is not None
        q = s.current
        self.feedback.value = ""
        self.score.value = escape(s.score_text())
        self.restart_button.layout.display = "none"
        self.next_button.layout.display = None
        self.next_button.disabled = True
        if q is None:  # the source ran out
            self._show_finished()
            return
        self.progress.value = escape(s.progress_text())
        self.prompt.value = escape(q.prompt)
        self._tutor_question()
        self.picture.value = self._picture(q, None)
        self._buttons = []
        self.answer_box.children = tuple(self._answer_controls(q))

    def _show_verdict(self, verdict: Verdict) -> None:
        s = self.session
        assert s is not None and s.current is not None
        q = s.current
        # The verdict goes out first: it is what the learner waits for. The marked buttons and the redrawn
        # picture (the largest message) follow, each button's changes in one message.
        self.feedback.value = verdict_html(verdict)
        self._mark_answers(q, verdict)
        self.score.value = escape(s.score_text())
        self.progress.value = escape(s.progress_text())
        self.picture.value = self._picture(q, verdict)
        if s.finished:
            self._show_finished()
        else:
            self.next_button.disabled = False
            self.next_button.focus()
        when_sent(self._guard(s.prefetch), after=PREFETCH_AFTER)  # the next question is built while the learner reads this verdict

    def _show_finished(self) -> None:
        s = self.session
        assert s is not None
        self.next_button.layout.display = "none"
        self.restart_button.layout.display = None
        self.feedback.value += feedback_html("done", s.summary())
        self.restart_button.focus()

    def _redraw_marks(self) -> None:
        q = self.question
        if q is not None:
            self.picture.value = self._picture(q, None)

    def _reopen_answers(self, given: Any) -> None:
        """The second try: every answer but the wrong one stays open; the wrong one is marked."""
        for v, b in self._buttons:
            if _same(v, given):
                with b.hold_sync():  # one message: a page sees the class and the disabled state together
                    b.disabled = True
                    b.button_style = "danger"
                    b.add_class("musteach-tried")
        self._focus_first_answer()

    def _show_oops(self) -> None:
        self.hint_button.disabled = True
        for b in self.answer_buttons:
            b.disabled = True
        self.feedback.value = feedback_html("oops", translator()(FRIENDLY_ERROR))
        if self.session is not None:
            self.score.value = escape(self.session.score_text())
        if self.session is not None and self.session.finished:
            self.next_button.layout.display = "none"
            self.restart_button.layout.display = None
        else:
            self.next_button.layout.display = None
            self.next_button.disabled = False

    def _focus_first_answer(self) -> None:
        buttons = [b for b in self.answer_buttons if not b.disabled]
        if buttons:
            buttons[0].focus()

    # ----- per quiz ------------------------------------------------------------------------
    def _picture(self, q: Question, verdict: Verdict | None) -> str:
        if q.lance is not None:
            highlight = verdict.highlight if verdict else None
            marks = {m.seat: m.cards for m in self.hint_marks if m.seat is not None}
            return table_svg(
                q.hands, q.mano, highlight=highlight, rules=q.rules, card_width=_TABLE_CARD_WIDTH, marks=marks  # type: ignore[arg-type]
            )
        lit = {i for m in self.hint_marks if m.seat is None for i in m.cards}
        if q.hand is not None:
            return hand_svg(q.hand, card_width=_HAND_CARD_WIDTH, marked=lit)
        cards = "".join(card_svg(c, _HAND_CARD_WIDTH, highlight=i in lit) for i, c in enumerate(q.cards))
        return f'<div class="musteach-cards">{cards}</div>'

    def _answer_controls(self, q: Question) -> list[widgets.Widget]:
        return [self._choice_button(q, v, label) for v, label in q.choices]

    def _choice_button(self, q: Question, value: Any, label: str) -> widgets.Button:
        b = widgets.Button(
            description=label, tooltip=self._tooltip(q, value, label), layout=widgets.Layout(width="auto")
        )
        b.add_class("musteach-answer")
        b.add_class(self._choice_class(value))
        b.on_click(self._guard(lambda _b, v=value: self._submit(v)))
        self._buttons.append((value, b))
        return b

    def _choice_class(self, value: Any) -> str:
        return f"musteach-answer-{value}"

    def _tooltip(self, q: Question, value: Any, label: str) -> str:
        return translator()(labels.ANSWER_TIP, label=label)

    def _mark_answers(self, q: Question, verdict: Verdict) -> None:
        for v, b in self._buttons:
            with b.hold_sync():
                b.disabled = True
                if _same(v, verdict.expected):
                    b.button_style = "success"
                    b.add_class("musteach-correct")
                if _same(v, verdict.given):
                    b.add_class("musteach-chosen")
                    if not verdict.correct:
                        b.button_style = "danger"


class LanceQuiz(QuizWidget):
    """Who wins the lance? The table of four hands, one button per seat (and Nobody for Pares and Juego).

    lance: a :class:`~musteach.rules.lances.Lance` or name ("grande"...), a list of them, or None to mix all five.
    Other options as in :class:`QuizWidget`. After an answer the winning seat is highlighted on the table
    and the evaluator's sentence explains why (RULES.md §2, §5).
    """

    def __init__(
        self,
        lance: Lance | str | Sequence[Lance | str] | None = None,
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        instructive_share: float = 0.4,
        kinds: Iterable[Kind | str] | None = None,
        title: str | None = None,
        questions: Iterable[Question] | None = None,
        **tutor: Any,
    ):
        if lance is None:
            skills: tuple[Skill, ...] = LANCE_SKILLS
        elif isinstance(lance, str | Lance):
            skills = (Skill.parse(lance),)
        else:
            skills = tuple(Skill.parse(x) for x in lance)
        for s in skills:
            if s.lance is None:
                raise QuizError(Text(labels.NOT_A_LANCE_ERROR, value=shown(s.value)))
        if title is None:
            _ = translator()
            title = _(labels.WHO_WINS, lance=skills[0].lance.title) if len(skills) == 1 else _(labels.WHO_WINS_LANCE)  # type: ignore[union-attr]
        super().__init__(
            skills,
            n=n,
            seed=seed,
            rules=rules,
            instructive_share=instructive_share,
            kinds=kinds,
            title=title,
            questions=questions,
            **tutor,
        )

    def _choice_class(self, value: Any) -> str:
        return "musteach-answer-nobody" if value is None else f"musteach-seat-{value}"

    def _tooltip(self, q: Question, value: Any, label: str) -> str:
        lance = q.lance
        assert lance is not None
        _ = translator()
        if value is None:
            return _(labels.ANSWER_NOBODY_PARES_TIP if lance is Lance.PARES else labels.ANSWER_NOBODY_JUEGO_TIP)
        return _(labels.SEAT_WINS_TIP, seat=value, lance=lance.title)


class JugadaQuiz(QuizWidget):
    """What does this hand hold for Pares: par, medias, duples or no pares? (RULES.md §5)."""

    default_title = labels.NAME_JUGADA

    def __init__(
        self,
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        instructive_share: float = 0.4,
        kinds: Iterable[Kind | str] | None = None,
        title: str | None = None,
        questions: Iterable[Question] | None = None,
        **tutor: Any,
    ):
        super().__init__(
            [Skill.JUGADA],
            n=n,
            seed=seed,
            rules=rules,
            instructive_share=instructive_share,
            kinds=kinds,
            title=title,
            questions=questions,
            **tutor,
        )

class TotalQuiz(QuizWidget):
    """A hand's total of points: for Juego (``kind="juego"``: is it 31 or more?) or its punto (``kind="punto"``).

    mode: ``"entry"`` (type the number in a box, then press Check) or ``"choices"`` (four number buttons).
    RULES.md §1 (card values), §5 (juego from 31; punto when nobody has juego).
    """

    def __init__(
        self,
        kind: str = "juego",
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        mode: str = "entry",
        instructive_share: float = 0.4,
        kinds: Iterable[Kind | str] | None = None,
        title: str | None = None,
        questions: Iterable[Question] | None = None,
        **tutor: Any,
    ):
        if kind not in ("juego", "punto"):
            raise QuizError(Text(labels.TOTAL_KIND_ERROR, value=shown(kind)))
        if mode not in ("entry", "choices"):
            raise QuizError(Text(labels.TOTAL_MODE_ERROR, value=shown(mode)))
        self.mode = mode
        self.total_input: widgets.Text | None = None
        self.check_button: widgets.Button | None = None
        skill = Skill.JUEGO_TOTAL if kind == "juego" else Skill.PUNTO_TOTAL
        if title is None:
            title = translator()(labels.COUNT_JUEGO if kind == "juego" else labels.COUNT_PUNTO)
        super().__init__(
            [skill],
            n=n,
            seed=seed,
            rules=rules,
            instructive_share=instructive_share,
            kinds=kinds,
            title=title,
            questions=questions,
            **tutor,
        )

    def _answer_controls(self, q: Question) -> list[widgets.Widget]:
        if self.mode == "choices":
            return super()._answer_controls(q)
        _ = translator()
        box = widgets.Text(
            value="",
            placeholder=_(labels.TOTAL_PLACEHOLDER),
            description=_(labels.TOTAL_LABEL),
            tooltip=_(labels.TOTAL_TIP),
            layout=widgets.Layout(width="180px"),
        )
        box.add_class("musteach-total-input")
        check = widgets.Button(description=_(labels.CHECK), tooltip=_(labels.CHECK_TOTAL_TIP))
        check.add_class("musteach-check")
        check.add_class("musteach-answer")
        check.on_click(self._guard(lambda _b: self._submit(box.value, typed=True)))
        self.total_input, self.check_button = box, check
        self._buttons = [(None, check)]
        return [box, check]

    def _choice_class(self, value: Any) -> str:
        return f"musteach-answer-{value}"

    def _tooltip(self, q: Question, value: Any, label: str) -> str:
        return translator()(labels.TOTAL_IS_TIP, label=label)

    def _reopen_answers(self, given: Any) -> None:
        if self.mode == "choices":
            super()._reopen_answers(given)
            return
        assert self.total_input is not None and self.check_button is not None
        self.total_input.value = ""
        self.total_input.focus()

    def _mark_answers(self, q: Question, verdict: Verdict) -> None:
        if self.mode == "choices":
            super()._mark_answers(q, verdict)
            return
        assert self.total_input is not None and self.check_button is not None
        self.total_input.disabled = True
        self.check_button.disabled = True
        self.check_button.button_style = "success" if verdict.correct else "danger"


class RankQuiz(QuizWidget):
    """Order 4 or 5 cards from highest to lowest (RULES.md §1: in 8 reyes R = 3 > C > S > 7 ... > A = 2).

    Press the cards from the highest down (each press places the card next in your order); Undo takes back
    the last one; Check grades the order once every card is placed. Cards of equal rank may come in either order.
    """

    default_title = labels.ORDER_CARDS

    def __init__(
        self,
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        instructive_share: float = 0.4,
        kinds: Iterable[Kind | str] | None = None,
        title: str | None = None,
        questions: Iterable[Question] | None = None,
        **tutor: Any,
    ):
        self.order: list[Card] = []
        self.order_view = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.order_view.add_class("musteach-order")
        _ = translator()
        self.undo_button = widgets.Button(description=_(labels.UNDO), tooltip=_(labels.UNDO_TIP))
        self.undo_button.add_class("musteach-undo")
        self.check_button = widgets.Button(description=_(labels.CHECK), tooltip=_(labels.CHECK_ORDER_TIP))
        self.check_button.add_class("musteach-check")
        super().__init__(
            [Skill.RANK_ORDER],
            n=n,
            seed=seed,
            rules=rules,
            instructive_share=instructive_share,
            kinds=kinds,
            title=title,
            questions=questions,
            **tutor,
        )
        self.undo_button.on_click(self._guard(self._on_undo))
        self.check_button.on_click(self._guard(self._on_check))

    def _answer_controls(self, q: Question) -> list[widgets.Widget]:
        self.order = []
        cards = widgets.HBox(
            [self._choice_button(q, v, label) for v, label in q.choices], layout=widgets.Layout(flex_flow="row wrap")
        )
        self.check_button.button_style = ""
        self._refresh_order()
        tools = widgets.HBox([self.undo_button, self.check_button])
        return [widgets.VBox([cards, self.order_view, tools])]

    def _choice_button(self, q: Question, value: Any, label: str) -> widgets.Button:
        b = widgets.Button(
            description=label, tooltip=translator()(labels.PLACE_CARD_TIP, card=value.name),
            layout=widgets.Layout(width="auto"),
        )
        b.add_class("musteach-answer")
        b.add_class(f"musteach-card-{value.code}")
        b.on_click(self._guard(lambda _b, c=value: self._place(c)))
        self._buttons.append((value, b))
        return b

    def _place(self, card: Card) -> None:
        if self.session is None or not self.session.can_answer() or card in self.order:
            return
        self.order.append(card)
        self.button_for(card).disabled = True
        self._refresh_order()
        if not self.check_button.disabled:
            self.check_button.focus()

    def _on_undo(self, _button: widgets.Button | None = None) -> None:
        if self.session is None or not self.session.can_answer() or not self.order:
            return
        card = self.order.pop()
        self.button_for(card).disabled = False
        self._refresh_order()

    def _on_check(self, _button: widgets.Button | None = None) -> None:
        self._submit(tuple(self.order))

    def _reopen_answers(self, given: Any) -> None:
        """The second try starts a fresh order."""
        self.order = []
        for _, b in self._buttons:
            b.disabled = False
        self._refresh_order()
        self._focus_first_answer()

    def _refresh_order(self) -> None:
        q = self.question
        total = len(q.cards) if q else 0
        if self.order:
            pics = "".join(card_svg(c, 40) for c in self.order)
            names = ", ".join(c.name for c in self.order)
            text = translator()(labels.ORDER_SO_FAR, placed=len(self.order), total=total, cards=names)
            self.order_view.value = (
                f'<div class="musteach-order-label">{escape(text)}</div><div class="musteach-cards">{pics}</div>'
            )
        else:
            self.order_view.value = f'<div class="musteach-order-label">{escape(translator()(labels.PRESS_HIGHEST))}</div>'
        answered = self.session is not None and self.session.is_answered
        self.undo_button.disabled = answered or not self.order
        self.check_button.disabled = answered or len(self.order) != total

    def _mark_answers(self, q: Question, verdict: Verdict) -> None:
        for _, b in self._buttons:
            b.disabled = True
        self.undo_button.disabled = True
        self.check_button.disabled = True
        self.check_button.button_style = "success" if verdict.correct else "danger"
