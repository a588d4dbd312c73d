"""musteach_widgets: ipywidgets views over musteach (installed from ``widgets/``).

No rule logic lives here: every verdict, explanation and picture comes from :mod:`musteach`.

Quizzes (each is a run of ``n`` questions with feedback, score, Next and Start again):

* :class:`LanceQuiz` — who wins Grande, Chica, Pares, Juego or Punto? (``lance=None`` mixes them)
* :class:`RankQuiz` — put 4 or 5 cards in order, highest first
* :class:`JugadaQuiz` — par, medias, duples or no pares?
* :class:`TotalQuiz` — a hand's total for Juego (``kind="juego"``) or its punto (``kind="punto"``)

and :func:`show_deal` / :class:`DealView` for a judged example deal.
"""

from ._base import FRIENDLY_ERROR, QUIZ_CSS
from .deal import DealView, show_deal
from .quiz import JugadaQuiz, LanceQuiz, QuizWidget, RankQuiz, TotalQuiz

__all__ = [
    "FRIENDLY_ERROR",
    "QUIZ_CSS",
    "DealView",
    "JugadaQuiz",
    "LanceQuiz",
    "QuizWidget",
    "RankQuiz",
    "TotalQuiz",
    "show_deal",
]

# Betting and the count (lessons 06 and 07): BettingQuiz, CountQuiz, ScoreBoard, show_betting, show_count.
from .count import BettingQuiz, BettingView, CountQuiz, CountView, ScoreBoard, show_betting, show_count

__all__ += ["BettingQuiz", "BettingView", "CountQuiz", "CountView", "ScoreBoard", "show_betting", "show_count"]

# Practice (lesson 11): an adaptive self-quiz whose progress is kept across visits.
from .practice import Practice, PracticeQuiz, SkillSource, register_source  # noqa: E402
from .storage import BrowserStore, in_voila, open_store  # noqa: E402

__all__ += ["BrowserStore", "Practice", "PracticeQuiz", "SkillSource", "in_voila", "open_store", "register_source"]

# Odds (lessons 06 and 12): exact lance odds, the discard advisor and an odds-reading quiz.
from .odds import DiscardAdvisor, OddsExplorer, OddsPanel, OddsQuiz  # noqa: E402

__all__ += ["DiscardAdvisor", "OddsExplorer", "OddsPanel", "OddsQuiz"]

# Playing with a coach (lessons 08-10): the table, the mus quiz, the señas catalogue and quizzes.
from .senas import SenaCatalogue, SenaQuiz, show_senas  # noqa: E402
from .table import MusQuiz, PlayTable  # noqa: E402

__all__ += ["MusQuiz", "PlayTable", "SenaCatalogue", "SenaQuiz", "show_senas"]
