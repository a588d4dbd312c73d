"""Señas (table signals): the catalogue with faces, and two quizzes (ipywidgets 8; RULES.md §11).

Every question, verdict and explanation comes from :mod:`musteach.teach.senas_quiz`, every face from
:mod:`musteach.draw.senas`. These classes only draw and wire buttons (real ipywidgets buttons: Tab,
Enter and Space work).

* :func:`show_senas` / :class:`SenaCatalogue`: every seña of the table's set, as captioned faces.
* :class:`SenaQuiz`: ``mode="fit"`` (which seña fits this hand?) or ``mode="meaning"`` (what does this
  seña tell you?).

Stable CSS classes: the catalogue root ``musteach-senas-catalogue``; the quiz root ``musteach-quiz
musteach-sena-quiz`` with answer buttons ``musteach-answer musteach-answer-<seña key>``, and the
classes of every quiz (``musteach-feedback``, ``musteach-score``, ``musteach-next``...).
"""

from __future__ import annotations

from typing import Any, Unpack

import ipywidgets as widgets

from musteach.draw.cards import hand_svg
from musteach.draw.senas import catalogue_html, sena_html, sena_svg
from musteach.i18n import translator
from musteach.rules import Rules
from musteach.rules.senas import Sena, get_sena, meaning
from musteach.teach import labels
from musteach.teach.loop import QuestionSource
from musteach.teach.quiz import Verdict
from musteach.teach.senas_quiz import SenaQuestion
from musteach.teach.sources import senas_source

from ._base import Spoken, VBox, css_widget, escape
from .loop import RunOptions
from .quiz import QuizWidget

__all__ = ["SENAS_CSS", "SenaCatalogue", "SenaQuiz", "face_without_meaning", "show_senas"]

SENAS_CSS = """
.musteach-senas-catalogue {
  color: #1f2a24; font-family: "DejaVu Sans", Verdana, Arial, sans-serif; border: 1px solid #d8d2c2;
  border-top: 6px solid #8a5a2b; border-radius: 12px; background: #fffdf6; padding: 10px 14px; margin: 8px 0;
  max-width: 780px;
}
.musteach-senas-catalogue .widget-html, .musteach-senas-catalogue .widget-html-content {
  height: auto; line-height: 1.4; white-space: normal; width: 100%;
}
.musteach-senas-catalogue .musteach-senas { display: flex; flex-wrap: wrap; gap: 2px; }
.musteach-senas-catalogue figure.musteach-sena-card { background: #fff8ec; border-radius: 10px; padding: 4px 0; }
.musteach-senas-catalogue h3 { margin: 8px 0 2px; font-size: 1em; }
.musteach-sena-quiz .musteach-sena-faces { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 0; }
.musteach-sena-quiz .musteach-sena-faces figure { margin: 0; text-align: center; width: 96px; font-size: 12px; }
.musteach-sena-quiz .musteach-sena-faces figcaption { line-height: 1.25; }
.musteach-sena-quiz .musteach-sena-big { display: flex; gap: 14px; align-items: center; flex-wrap: wrap; }
"""


def _style() -> widgets.HTML:
    return css_widget(SENAS_CSS)


def face_without_meaning(sena: Sena | str, width: int = 96) -> str:
    """The seña's face with only its gesture in the accessible name and tooltip (a quiz must not say
    the meaning before it is answered)."""
    return sena_svg(get_sena(sena), width, with_meaning=False)


class SenaCatalogue(Spoken, VBox):
    """Every seña of the table's set as a face with its gesture and meaning (RULES.md §11, §13).

    rules: a :class:`~musteach.rules.Rules` (its ``senas`` option picks the set); width: each face's width
    in CSS pixels; lang: the language of its words (``"es"``; None: the kernel's, else English). Hand señas come
    first, then the two intentions (cut the mus, bet more).
    """

    def __init__(self, rules: Rules | None = None, width: int = 96):
        from musteach.rules.senas import catalogue

        items = catalogue(rules)
        hand = [s for s in items if s.kind == "hand"]
        intent = [s for s in items if s.kind == "intent"]
        if not items:
            body = catalogue_html(rules, width)
        else:
            _ = translator()
            body = (
                f"<h3>{escape(_(labels.WHAT_YOU_HOLD))}</h3>"
                + catalogue_html(rules, width, senas=hand)
                + (f"<h3>{escape(_(labels.WHAT_YOU_WANT))}</h3>" + catalogue_html(rules, width, senas=intent) if intent else "")
            )
        self.content = widgets.HTML(body, layout=widgets.Layout(width="100%"))
        super().__init__([_style(), self.content])
        self.add_class("musteach-senas-catalogue")


def show_senas(rules: Rules | None = None, width: int = 96, *, lang: str | None = None) -> SenaCatalogue:
    """The señas catalogue as a widget (see :class:`SenaCatalogue`)."""
    return SenaCatalogue(rules, width, lang=lang)  # type: ignore[call-arg]  # Spoken wraps __init__ with a lang keyword


class SenaQuiz(QuizWidget):
    """Señas quiz (RULES.md §11): ``mode="fit"`` shows your hand and asks which of four señas you may
    truthfully make; ``mode="meaning"`` shows your partner's face and asks what the seña tells you.

    n: questions to answer; seed: an int for a reproducible run, or None; rules: a
    :class:`~musteach.rules.Rules` (which kings, which set of señas); title: the heading.
    Raises :class:`~musteach.teach.errors.QuizError` for a bad mode or ``n``, or when señas are off.
    """

    def __init__(
        self,
        mode: str = "fit",
        n: int = 10,
        seed: int | None = None,
        rules: Rules | None = None,
        *,
        title: str | None = None,
        **tutor: Unpack[RunOptions],
    ):
        self.questions_source, self.sena_source = senas_source(mode, seed=seed, rules=rules)
        self.mode = self.sena_source.mode
        if title is None:
            title = translator()(labels.SENA_FITS if self.mode == "fit" else labels.SENA_MEANS)
        super().__init__(["grande"], n=n, seed=seed, rules=rules, title=title, **tutor)
        self.add_class("musteach-sena-quiz")
        self.children = (css_widget(), _style(), *self.children[1:])

    def _source(self) -> QuestionSource:
        return self.questions_source

    def _picture(self, q: SenaQuestion, verdict: Verdict | None) -> str:
        if q.mode == "fit":
            assert q.hand is not None
            lit = {i for m in self.hint_marks for i in m.cards}
            _ = translator()
            pic = hand_svg(q.hand, card_width=64, label=_(labels.YOUR_HAND), marked=lit)
            faces = "".join(
                f"<figure>{face_without_meaning(k, 84)}<figcaption>{escape(label)}</figcaption></figure>"
                for k, label in q.choices
            )
            if verdict is not None:
                return f'<div class="musteach-sena-big">{pic}{sena_html(q.sena, 96, q.rules)}</div>'
            return f'{pic}<div class="musteach-sena-faces" aria-label="{escape(_(labels.FOUR_SENAS))}">{faces}</div>'
        if verdict is not None:
            return f'<div class="musteach-sena-big">{sena_html(q.sena, 120, q.rules)}</div>'
        return f'<div class="musteach-sena-big">{face_without_meaning(q.sena, 120)}</div>'

    def _choice_class(self, value: Any) -> str:
        return f"musteach-answer-{value}"

    def _tooltip(self, q: Any, value: Any, label: str) -> str:
        _ = translator()
        if q.mode == "fit":
            return _(labels.ANSWER_TIP, label=label)
        return _(labels.IT_MEANS_TIP, meaning=meaning(value, q.rules))  # musteach's words, not the label re-cased
