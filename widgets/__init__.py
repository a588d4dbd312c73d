"""musteach_widgets: ipywidgets views over musteach (installed from ``widgets/``).

No rule logic lives here: every verdict, explanation and picture comes from :mod:`musteach`.

Quizzes (each is a run of ``n`` questions with feedback, score, Next and Start again):

* :class:`LanceQuiz` — who wins Grande, Chica, Pares, Juego or Punto? (``lance=None`` mixes them)
* :class:`RankQuiz` — put 4 or 5 cards in order, highest first
* :class:`JugadaQuiz` — par, medias, duples or no pares?
* :class:`TotalQuiz` — a hand's total for Juego (``kind="juego"``) or its punto (``kind="punto"``)

and :func:`show_deal` / :class:`DealView` for a judged example deal.

**Languages.** Every widget takes a keyword ``lang`` (``LanceQuiz("grande", lang="es")``): its own words (labels,
tooltips, messages, from :mod:`musteach.teach.labels`) and every sentence :mod:`musteach` writes for it come out
in that language. ``use_language("es")`` makes Spanish the default of the widgets made afterwards in this kernel
(a kernel serves one visitor, so this is not shared between visitors); ``lang=None`` means that default, else
English. A language the tutor does not speak raises :class:`~musteach.rules.errors.LanguageError`, whose
``message(lang)`` names the value and the languages there are.

Every name is imported on first use (PEP 562): a lesson's kernel loads only the views it shows, so a
lesson without odds never imports numpy or the odds tables, and one without practice never imports fsrs.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public name -> the submodule that defines it.
_HOMES = {
    "FRIENDLY_ERROR": "_base",
    "QUIZ_CSS": "_base",
    "kernel_language": "_base",
    "use_language": "_base",
    "DealView": "deal",
    "show_deal": "deal",
    "JugadaQuiz": "quiz",
    "LanceQuiz": "quiz",
    "QuizWidget": "quiz",
    "RankQuiz": "quiz",
    "TotalQuiz": "quiz",
    "BettingQuiz": "count",
    "BettingView": "count",
    "CountQuiz": "count",
    "CountView": "count",
    "ScoreBoard": "count",
    "show_betting": "count",
    "show_count": "count",
    "Practice": "practice",
    "PracticeQuiz": "practice",
    "SkillSource": "practice",
    "register_source": "practice",
    "BrowserStore": "storage",
    "in_voila": "storage",
    "open_store": "storage",
    "DiscardAdvisor": "odds",
    "OddsExplorer": "odds",
    "OddsPanel": "odds",
    "OddsQuiz": "odds",
    "SenaCatalogue": "senas",
    "SenaQuiz": "senas",
    "show_senas": "senas",
    "MusQuiz": "mus_quiz",
    "PlayTable": "table",
    "LessonMap": "path",
    "show_map": "path",
}

__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
