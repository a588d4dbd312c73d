"""Everybody said mus: which cards would you change? (ipywidgets 8; the questions and the grading are
:mod:`musteach.teach.mus_quiz`'s, the exact advisor's).

Stable CSS classes: root ``musteach-quiz musteach-mus-quiz``; the note above the cards ``musteach-keep-note``;
each answer ``musteach-answer-<the answer's words, joined by dashes>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

from musteach.draw.cards import card_svg
from musteach.i18n import translator
from musteach.odds import position_name
from musteach.rules import Rules
from musteach.teach import labels
from musteach.teach.loop import QuestionSource
from musteach.teach.mus_quiz import DiscardQuestion
from musteach.teach.quiz import Verdict
from musteach.teach.sources import mus_source

from ._base import css_widget, escape
from .loop import RunOptions
from .quiz import QuizWidget

__all__ = ["MUS_QUIZ_CSS", "MusQuiz"]

MUS_QUIZ_CSS = """
.musteach-mus-quiz .musteach-keep-note { color: #5f6b64; font-size: .92em; }
"""


class MusQuiz(QuizWidget):
    """Everybody said mus: which cards would you change? Four ways, one best by the exact count
    (:mod:`musteach.teach.mus_quiz`, RULES.md §3, §7).

    n: questions to answer; seed: an int for a reproducible run, or None; aims: what to aim at
    (``"grande"``, ``"chica"``, ``"pares"``, ``"juego"``, ``"punto"``, ``"balanced"``; default the four
    lances); positions: distances from mano to ask at (default mano only: each new one costs the first
    question a couple of seconds); rules: 8 reyes. After an answer, the cards to keep are shown bright
    and the cards to change faded.
    """

    default_title = labels.MUS_QUIZ
    children: tuple[Any, ...]  # the VBox's trait (ipywidgets has no type hints)

    def __init__(
        self,
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        aims: str | Sequence[str] = ("grande", "chica", "pares", "juego"),
        positions: Sequence[int] = (0,),
        title: str | None = None,
        **tutor: Unpack[RunOptions],
    ):
        self.questions_source, self.mus_source = mus_source(seed=seed, rules=rules, aims=aims, positions=positions)
        super().__init__(["grande"], n=n, seed=seed, rules=rules, title=title, **tutor)
        self.add_class("musteach-mus-quiz")
        self.children = (css_widget(), css_widget(MUS_QUIZ_CSS), *self.children[1:])

    def _source(self) -> QuestionSource:
        return self.questions_source

    def _picture(self, q: DiscardQuestion, verdict: Verdict | None) -> str:
        where = position_name(q.position)
        _ = translator()
        if verdict is None:
            lit = {i for m in self.hint_marks for i in m.cards}
            cards = "".join(card_svg(c, 64, highlight=i in lit) for i, c in enumerate(q.hand))
            note = _(labels.YOUR_HAND_WHERE, where=where)
        else:
            throw = set(q.answer_cards)
            cards = "".join(card_svg(c, 64, dim=c in throw, highlight=c not in throw) for c in q.hand)
            note = _(labels.BEST_KEEP_BRIGHT)
        return (
            f'<div class="musteach-keep-note">{escape(note)}</div>'
            f'<div class="musteach-cards" role="img" aria-label="{escape(note)}">{cards}</div>'
        )

    def _choice_class(self, value: Any) -> str:
        return "musteach-answer-" + "-".join(value.split())

    def _tooltip(self, q: Any, value: Any, label: str) -> str:
        return translator()(labels.ANSWER_TIP, label=label)
