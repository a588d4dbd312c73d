"""A judged deal for lesson examples: the table, a lance picker, and the evaluator's explanations.

>>> view = show_deal(["12o 3c 7e 5b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 2b"], mano=0, lance="grande")
>>> view.result.grande.winner, "musteach-table" in view.picture.value
(0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from musteach.draw.table import deal_html, table_svg
from musteach.i18n import translator
from musteach.rules import Rules
from musteach.rules.betting import lances_played
from musteach.rules.cards import Card, Hand
from musteach.rules.errors import MusError
from musteach.rules.lances import DealResult, Lance, LanceResult, evaluate
from musteach.teach import labels

from ._base import Guarded, VBox, css_widget, escape

__all__ = ["DealView", "show_deal"]

_ALL = "all"


class DealView(Guarded, VBox):
    """Four hands around the table with the winner of each lance and why (RULES.md §2, §4, §5).

    hands: 4 hands of 4 cards, indexed by seat (codes such as ``"12o 3c 7e 5b"`` or :class:`Hand`).
    mano: the seat 0..3 that speaks first. lance: the lance to show first (its winner highlighted), or None
    for all five lances in a table. rules: a :class:`~musteach.rules.Rules` (default 8 reyes).
    strict: if True, bad input raises :class:`~musteach.rules.errors.MusError`; if False (the default, for
    learners editing a lesson's example) the message is shown in the view instead and kept in ``error``.

    lang: the language of its words (``"es"``; None: the kernel's, else English).

    A row of toggle buttons (keyboard usable) switches between "All lances" and each lance.
    """

    def __init__(
        self,
        hands: Sequence[Hand | str | Sequence[Card | str]],
        mano: int,
        lance: Lance | str | None = None,
        rules: Rules | None = None,
        *,
        strict: bool = False,
        card_width: int = 60,
    ):
        self.errors: list[BaseException] = []
        self.error: MusError | None = None
        self.result: DealResult | None = None
        self.card_width = card_width
        self.picture = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.picture.add_class("musteach-picture")
        self.explanation = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.explanation.add_class("musteach-explanation-box")
        _ = translator()
        self.picker = widgets.ToggleButtons(options=[(_(labels.ALL_LANCES), _ALL)], value=_ALL, style={"button_width": "auto"})
        self.picker.add_class("musteach-lance-picker")
        super().__init__([css_widget(), self.picker, self.picture, self.explanation])
        self.add_class("musteach-dealview")
        try:
            self.result = evaluate(hands, mano, rules)
            start = _ALL if lance is None else Lance.parse(lance).value
        except MusError as exc:
            if strict:
                raise
            self.error = exc
            self.picker.layout.display = "none"
            self.picture.value = (
                f'<div class="musteach-error" role="alert">{escape(_(labels.DEAL_CANNOT_SHOW, error=exc.message()))}</div>'
            )
            return
        options = [(_(labels.ALL_LANCES), _ALL)]
        punto = Lance.PUNTO in lances_played(self.result)  # the rule's: Punto only when nobody has juego (RULES.md §5)
        for r in self.result.results():
            if r.lance is Lance.PUNTO and not punto:
                continue
            if r.lance is Lance.JUEGO and r.winner is None:
                options.append((_(labels.JUEGO_NOBODY), r.lance.value))
            else:
                options.append((r.lance.title, r.lance.value))
        self.picker.options = options
        if start not in [v for _, v in options]:
            start = Lance.JUEGO.value  # Punto asked for, but somebody has juego
        self.picker.value = start
        self.picker.observe(self._guard(self._on_pick), names="value")
        self._show(start)

    def _on_pick(self, change: dict[str, Any]) -> None:
        self._show(change["new"])

    def _show(self, which: str) -> None:
        result = self.result
        assert result is not None
        if which == _ALL:
            self.picture.value = deal_html(result, card_width=self.card_width)
            self.explanation.value = ""
            return
        lr: LanceResult = result[which]
        _ = translator()
        title = lr.lance.title
        caption = _(labels.LANCE_NOBODY, lance=title) if lr.winner is None else _(labels.LANCE_SEAT_WINS, lance=title, seat=lr.winner)
        self.picture.value = table_svg(
            result.hands,
            result.mano,
            highlight=lr.winner,
            caption=caption,
            rules=result.rules,
            card_width=self.card_width,
        )
        rows = "".join(
            f"<tr><td>{escape(_(labels.SEAT_N, seat=s))}</td><td>{escape(j)}</td></tr>" for s, j in enumerate(lr.jugadas)
        )
        self.explanation.value = (
            f'<p class="musteach-explanation">{escape(lr.explanation)}</p>'
            f'<table class="musteach-jugadas" aria-label="{escape(_(labels.EACH_SEAT_IN, lance=title))}">{rows}</table>'
        )

    def _show_oops(self) -> None:
        self.explanation.value = (
            f'<div class="musteach-error" role="alert">{escape(translator()(labels.LANCE_OOPS))}</div>'
        )


def show_deal(
    hands: Sequence[Hand | str | Sequence[Card | str]],
    mano: int,
    lance: Lance | str | None = None,
    rules: Rules | None = None,
    **kwargs: Any,
) -> DealView:
    """A :class:`DealView` of the deal (put it last in a cell to display it). Same arguments."""
    return DealView(hands, mano, lance, rules, **kwargs)
