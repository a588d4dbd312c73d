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
from typing import Any, Unpack

import ipywidgets as widgets

from musteach.draw.cards import card_svg, hand_svg
from musteach.draw.table import table_svg
from musteach.i18n import Text, translator
from musteach.rules import Rules
from musteach.rules.cards import Card
from musteach.rules.errors import shown
from musteach.rules.lances import Lance
from musteach.teach import labels
from musteach.teach.loop import QuestionSource
from musteach.teach.quiz import (
    LANCE_SKILLS,
    Kind,
    Question,
    QuestionGenerator,
    QuizError,
    Skill,
    Verdict,
)
from musteach.teach.sources import generated_source

from ._base import css_widget
from .loop import AnswerControls, ChoiceButtons, LoopWidget, RankOrder, RunOptions, TotalEntry
from .storage import Store

__all__ = ["JugadaQuiz", "LanceQuiz", "QuizOptions", "QuizWidget", "RankQuiz", "TotalQuiz"]

_TABLE_CARD_WIDTH = 54
_HAND_CARD_WIDTH = 72


class QuizOptions(RunOptions, total=False):
    """The keywords of a quiz of :mod:`musteach.teach.quiz`'s questions (see :class:`QuizWidget`)."""

    title: str | None
    instructive_share: float
    kinds: Iterable[Kind | str] | None
    questions: Iterable[Question] | None


class QuizWidget(LoopWidget):
    """A run of ``n`` questions with feedback, a running score, a Hint button, Next and Start again: a view of
    the one quiz loop (:class:`~musteach.teach.loop.QuizLoop`).

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
    ``session`` is the :class:`~musteach.teach.session.QuizSession`. Raises :class:`~musteach.teach.errors.QuizError` for
    a bad skill, kind, share, n or tries.
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
        if tries not in (1, 2):
            raise QuizError(Text(labels.TRIES_ERROR, value=shown(tries)))
        self.n = n
        nav = self._parts(title)
        self.progress = self.status
        source = self._source()
        keeper, extra = self._keeper(lesson=lesson, quiz=quiz or source.quiz_name, store=store, path=path)
        self.lesson, self.quiz_name = keeper.lesson, keeper.quiz
        super().__init__(
            [
                css_widget(), self.title, self.best, self.progress, self.prompt, self.picture, self.answer_box,
                self.feedback, nav, *extra,
            ]
        )  # fmt: skip
        self.add_class("musteach-quiz")
        self._start_loop(source, keeper, n=n, tries=tries, seed=seed)

    def _source(self) -> QuestionSource:
        """Where the questions come from: the fixed list, else the generator (a quiz kind may have its own)."""
        return generated_source(self.generator, questions=self.questions)

    @property
    def run_id(self) -> str | None:
        """The id of the run in progress when its answers are kept step by step, else None."""
        return self.loop.keeper.run_id

    # ----- per quiz ------------------------------------------------------------------------
    def _picture(self, q: Any, verdict: Verdict | None) -> str:
        if q.lance is not None:
            highlight = verdict.highlight if verdict else None
            marks = {m.seat: m.cards for m in self.hint_marks if m.seat is not None}
            assert q.hands is not None and q.mano is not None
            return table_svg(
                q.hands, q.mano, highlight=highlight, rules=q.rules, card_width=_TABLE_CARD_WIDTH, marks=marks
            )
        lit = {i for m in self.hint_marks if m.seat is None for i in m.cards}
        if q.hand is not None:
            return hand_svg(q.hand, card_width=_HAND_CARD_WIDTH, marked=lit)
        cards = "".join(card_svg(c, _HAND_CARD_WIDTH, highlight=i in lit) for i, c in enumerate(q.cards))
        return f'<div class="musteach-cards">{cards}</div>'

    def _controls(self, q: Any) -> AnswerControls:
        return ChoiceButtons(
            q.choices, self._guard(self._submit), css=self._choice_class,
            tooltip=lambda value, label: self._tooltip(q, value, label),
        )  # fmt: skip

    def _choice_class(self, value: Any) -> str:
        return f"musteach-answer-{value}"

    def _tooltip(self, q: Any, value: Any, label: str) -> str:
        return translator()(labels.ANSWER_TIP, label=label)


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
        **options: Unpack[QuizOptions],
    ):
        if lance is None:
            skills: tuple[Skill, ...] = LANCE_SKILLS
        elif isinstance(lance, str | Lance):
            skills = (Skill.parse(lance),)
        else:
            skills = tuple(Skill.parse(x) for x in lance)
        lances = [s.lance for s in skills]
        for s, one in zip(skills, lances, strict=True):
            if one is None:
                raise QuizError(Text(labels.NOT_A_LANCE_ERROR, value=shown(s.value)))
        if options.get("title") is None:
            _ = translator()
            first = lances[0]
            options["title"] = (
                _(labels.WHO_WINS, lance=first.title) if len(skills) == 1 and first is not None else _(labels.WHO_WINS_LANCE)
            )
        super().__init__(skills, n=n, seed=seed, rules=rules, **options)

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

    def __init__(self, n: int = 10, seed: int | None = None, rules: Rules | None = None, **options: Unpack[QuizOptions]):
        super().__init__([Skill.JUGADA], n=n, seed=seed, rules=rules, **options)


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
        **options: Unpack[QuizOptions],
    ):
        if kind not in ("juego", "punto"):
            raise QuizError(Text(labels.TOTAL_KIND_ERROR, value=shown(kind)))
        if mode not in ("entry", "choices"):
            raise QuizError(Text(labels.TOTAL_MODE_ERROR, value=shown(mode)))
        self.mode = mode
        skill = Skill.JUEGO_TOTAL if kind == "juego" else Skill.PUNTO_TOTAL
        if options.get("title") is None:
            options["title"] = translator()(labels.COUNT_JUEGO if kind == "juego" else labels.COUNT_PUNTO)
        super().__init__([skill], n=n, seed=seed, rules=rules, **options)

    @property
    def total_input(self) -> widgets.Text | None:
        """The box the total is typed in (``mode="entry"``), else None."""
        return self.controls.box if isinstance(self.controls, TotalEntry) else None

    @property
    def check_button(self) -> widgets.Button | None:
        """Check (``mode="entry"``), else None."""
        return self.controls.check if isinstance(self.controls, TotalEntry) else None

    def _controls(self, q: Any) -> AnswerControls:
        if self.mode == "choices":
            return super()._controls(q)
        return TotalEntry(self._guard(self._submit))

    def _tooltip(self, q: Any, value: Any, label: str) -> str:
        return translator()(labels.TOTAL_IS_TIP, label=label)


class RankQuiz(QuizWidget):
    """Order 4 or 5 cards from highest to lowest (RULES.md §1: in 8 reyes R = 3 > C > S > 7 ... > A = 2).

    Press the cards from the highest down (each press places the card next in your order); Undo takes back
    the last one; Check grades the order once every card is placed. Cards of equal rank may come in either order.
    """

    default_title = labels.ORDER_CARDS

    def __init__(self, n: int = 10, seed: int | None = None, rules: Rules | None = None, **options: Unpack[QuizOptions]):
        super().__init__([Skill.RANK_ORDER], n=n, seed=seed, rules=rules, **options)

    @property
    def rank(self) -> RankOrder:
        """The cards to place, the order so far, Undo and Check of the question on screen."""
        assert isinstance(self.controls, RankOrder)
        return self.controls

    @property
    def order(self) -> list[Card]:
        """The cards placed so far, highest first."""
        return self.rank.order

    @property
    def order_view(self) -> widgets.HTML:
        return self.rank.view

    @property
    def undo_button(self) -> widgets.Button:
        return self.rank.undo

    @property
    def check_button(self) -> widgets.Button:
        return self.rank.check

    def _controls(self, q: Any) -> AnswerControls:
        return RankOrder(q.cards, q.choices, self._guard(self._submit), guard=self._guard)
