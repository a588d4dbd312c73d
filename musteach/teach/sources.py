"""The question sources of every quiz kind, for the one quiz loop (:mod:`musteach.teach.loop`, issue 24).

Each function returns a :class:`~musteach.teach.loop.SeededQuestions`: a run's questions drawn from a seed
(the same seed, the same questions: a kept run is drawn again to resume it), plus what is particular to the
kind (reading typed stones, the message for a slip). The odds, mus and señas generators are imported when
their source is made (a lesson without odds never loads numpy).

* :func:`generated_source`: who wins a lance, jugadas, totals, card order (:class:`~musteach.teach.quiz.QuestionGenerator`)
* :func:`betting_source`, :func:`count_source`: betting payments and the count, typed stones (RULES.md §6–§8)
* :func:`odds_source`, :func:`mus_source`, :func:`senas_source`: the odds, mus and señas quizzes
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..i18n import Text, translator
from ..rules import Rules
from ..rules.errors import MusError, shown
from ..rules.lances import Lance
from . import labels
from .count_quiz import BettingQuestion, CountQuestion, betting_question, count_question, read_typed_stones
from .loop import Feedback, SeededQuestions
from .quiz import Question, QuestionGenerator
from .resume import run_rng

if TYPE_CHECKING:
    from .mus_quiz import DiscardQuestionGenerator
    from .odds_quiz import OddsQuestionGenerator
    from .senas_quiz import SenaQuestionGenerator

__all__ = [
    "betting_source",
    "count_source",
    "generated_source",
    "mus_source",
    "odds_source",
    "read_betting_stones",
    "read_count_stones",
    "senas_source",
]


def generated_source(
    generator: QuestionGenerator, *, questions: Sequence[Question] | None = None, quiz_name: str | None = None
) -> SeededQuestions:
    """Questions from ``generator`` (a kept run redraws them with the run's seed), or the fixed list
    ``questions`` asked in order. quiz_name: the quiz's name in its lesson (default the skill asked, if one)."""
    if quiz_name is None and len(generator.skills) == 1:
        quiz_name = generator.skills[0].value

    def draw(seed: int) -> QuestionGenerator:
        generator.rng = run_rng(seed)
        return generator

    return SeededQuestions(draw, plain=lambda: generator, quiz_name=quiz_name, questions=questions)


def _stones_slip(exc: MusError) -> Feedback:
    return Feedback("hint", translator()(labels.TRY_AGAIN_ERROR, error=exc.message()))


def read_betting_stones(typed: Mapping[str, Any]) -> dict[str, int]:
    """The stones typed for each team (``{"A": "3", "B": "0"}``) as whole numbers; raises
    :class:`~musteach.teach.count_quiz.TypedStonesError` naming the box for anything else (RULES.md §6)."""
    _ = translator()
    return {team: read_typed_stones(str(typed.get(team, "")), _(labels.TEAM_LOWER, team=team)) for team in ("A", "B")}


def read_count_stones(typed: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """The stones typed per lance and team (``{"grande": {"A": "2", "B": "0"}, ...}``) as whole numbers;
    raises :class:`~musteach.teach.count_quiz.TypedStonesError` naming the box for anything else (RULES.md §7)."""
    _ = translator()
    return {
        key: {
            team: read_typed_stones(str(value), _(labels.TEAM_IN_LANCE, team=team, lance=Lance(key).title))
            for team, value in row.items()
        }
        for key, row in typed.items()
    }


def _check_rules(rules: Rules | None) -> Rules:
    if rules is not None and not isinstance(rules, Rules):
        raise MusError(Text(labels.RULES_ERROR, value=shown(rules)))
    return rules or Rules()


def betting_source(rules: Rules | None = None) -> SeededQuestions:
    """Betting payments (:func:`~musteach.teach.count_quiz.betting_question`): who takes how many stones now?
    Answers are typed per team (:func:`read_betting_stones`). Raises :class:`~musteach.rules.errors.MusError`
    for bad ``rules``."""
    table = _check_rules(rules)

    def draw(s: int) -> Iterator[BettingQuestion]:
        rng = run_rng(s)
        while True:
            yield betting_question(rng, rules=table)

    return SeededQuestions(draw, quiz_name="betting", parse=read_betting_stones, slip=_stones_slip)


def count_source(rules: Rules | None = None, *, near_end_share: float = 0.3) -> SeededQuestions:
    """Whole hands to count (:func:`~musteach.teach.count_quiz.count_question`), a share ``near_end_share``
    (0..1) of them starting near the target. Answers are typed per lance and team (:func:`read_count_stones`).
    Raises :class:`~musteach.rules.errors.MusError` for a bad share or bad ``rules``."""
    table = _check_rules(rules)
    if isinstance(near_end_share, bool) or not isinstance(near_end_share, int | float) or not 0 <= near_end_share <= 1:
        raise MusError(Text(labels.NEAR_END_ERROR, value=shown(near_end_share)))
    share = float(near_end_share)

    def draw(s: int) -> Iterator[CountQuestion]:
        rng = run_rng(s)
        for _ in itertools.count():
            near = rng.random() < share
            yield count_question(rng, rules=table, near_end=near)

    return SeededQuestions(draw, quiz_name="count", parse=read_count_stones, slip=_stones_slip)


def odds_source(
    seed: int | None = None, rules: Rules | None = None, lances: Iterable[Lance | str] | None = None
) -> tuple[SeededQuestions, OddsQuestionGenerator]:
    """The odds quiz's questions (:class:`~musteach.teach.odds_quiz.OddsQuestionGenerator`); returns the source
    and the generator of the first run."""
    from .odds_quiz import OddsQuestionGenerator

    first = OddsQuestionGenerator(seed=seed, rules=rules) if lances is None else OddsQuestionGenerator(
        seed=seed, rules=rules, lances=lances
    )

    def draw(s: int) -> OddsQuestionGenerator:
        return OddsQuestionGenerator(seed=s, rules=first.rules, lances=first.lances, margin=first.margin)

    return SeededQuestions(draw, plain=lambda: first, quiz_name="odds"), first


def mus_source(
    seed: int | None = None,
    rules: Rules | None = None,
    aims: str | Sequence[str] = ("grande", "chica", "pares", "juego"),
    positions: Sequence[int] = (0,),
) -> tuple[SeededQuestions, DiscardQuestionGenerator]:
    """The mus quiz's questions (:class:`~musteach.teach.mus_quiz.DiscardQuestionGenerator`); returns the source
    and its generator."""
    from .mus_quiz import DiscardQuestionGenerator

    generator = DiscardQuestionGenerator(seed=seed, aims=aims, positions=positions, rules=rules)

    def draw(s: int) -> DiscardQuestionGenerator:
        generator.rng = run_rng(s)  # a kept run's questions, drawn again from its seed
        return generator

    return SeededQuestions(draw, plain=lambda: generator, quiz_name="mus"), generator


def senas_source(
    mode: str = "fit", seed: int | None = None, rules: Rules | None = None
) -> tuple[SeededQuestions, SenaQuestionGenerator]:
    """The señas quiz's questions (:class:`~musteach.teach.senas_quiz.SenaQuestionGenerator`, ``mode`` "fit" or
    "meaning"); returns the source and the generator of the first run."""
    from .senas_quiz import SenaQuestionGenerator

    first = SenaQuestionGenerator(mode, seed=seed, rules=rules)

    def draw(s: int) -> SenaQuestionGenerator:
        return SenaQuestionGenerator(first.mode, seed=s, rules=first.rules)

    return SeededQuestions(draw, plain=lambda: first, quiz_name=f"senas_{first.mode}"), first

