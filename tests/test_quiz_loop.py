"""The one quiz loop (issue 24): every quiz kind driven through :class:`musteach.teach.loop.QuizLoop` with a fake
view (no ipywidgets), asserting the states the view received."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from musteach.rules import Rules
from musteach.teach.count_quiz import betting_question, count_question
from musteach.teach.keepers import LessonKeeper, PracticeKeeper, PracticeQuestions
from musteach.teach.loop import (
    Event,
    Keeper,
    LoopState,
    Mark,
    QuestionSource,
    QuizLoop,
)
from musteach.teach.progress import MemoryStore, Progress
from musteach.teach.quiz import QuestionGenerator, Skill, make_question
from musteach.teach.sources import (
    betting_source,
    count_source,
    generated_source,
    mus_source,
    odds_source,
    senas_source,
)


class FakeView:
    """Keeps every call: ``(method, state)``; ``later`` runs its callback at once."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def _keep(self, name: str) -> Callable[[Any], None]:
        return lambda arg: self.calls.append((name, arg))

    def __getattr__(self, name: str) -> Callable[[Any], None]:
        if name.startswith("show_"):
            return self._keep(name[5:])
        raise AttributeError(name)

    def later(self, callback: Callable[[], None], after: float = 0.0) -> None:
        callback()

    @property
    def states(self) -> list[LoopState]:
        return [a for _n, a in self.calls if isinstance(a, LoopState)]

    def last(self, name: str) -> LoopState:
        return next(a for n, a in reversed(self.calls) if n == name)

    def names(self) -> list[str]:
        return [n for n, _a in self.calls if n != "best"]


# ----- the answers to give ---------------------------------------------------------------------

def _typed(value: Any) -> Any:
    """Stones as a learner types them: text in each box."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    return str(value)


def right_answer(kind: str, q: Any) -> Any:
    if kind in ("betting", "count"):
        return _typed(q.answer)
    return q.answer


def wrong_answer(kind: str, q: Any, nth: int = 0) -> Any:
    if kind == "betting":
        return _typed({"A": q.answer["A"] + 1, "B": q.answer["B"]})
    if kind == "count":
        first = next(iter(q.answer))
        return _typed({k: ({"A": v["A"] + 1, "B": v["B"]} if k == first else v) for k, v in q.answer.items()})
    if kind == "total" and not q.choices:
        return q.answer + 1 + nth
    if kind == "rank":
        return next(p for p in itertools.permutations(q.cards) if not q.is_correct(p))
    wrong = [v for v, _label in q.choices if not (type(v) is type(q.answer) and v == q.answer)]
    return wrong[min(nth, len(wrong) - 1)]


def typed(kind: str) -> bool:
    return kind in ("betting", "count", "total")


# ----- every kind ------------------------------------------------------------------------------

def _generated(skill: Skill) -> Callable[[], QuestionSource]:
    def make() -> QuestionSource:
        gen = QuestionGenerator([skill], seed=7)
        return generated_source(gen)

    return make


KINDS: dict[str, Callable[[], QuestionSource]] = {
    "lance": _generated(Skill.GRANDE),
    "pares": _generated(Skill.PARES),
    "jugada": _generated(Skill.JUGADA),
    "total": _generated(Skill.JUEGO_TOTAL),
    "rank": _generated(Skill.RANK_ORDER),
    "betting": betting_source,
    "count": count_source,
    "odds": lambda: odds_source(seed=3)[0],
    "mus": lambda: mus_source(seed=3)[0],
    "senas": lambda: senas_source("fit", seed=3)[0],
    "senas-meaning": lambda: senas_source("meaning", seed=3)[0],
}


def _kind(name: str) -> str:
    return {"pares": "lance", "senas-meaning": "senas"}.get(name, name)


def loop_of(name: str, *, n: int = 3, keeper: Keeper | None = None, seed: int | None = 11) -> tuple[QuizLoop, FakeView]:
    view = FakeView()
    loop = QuizLoop(view, KINDS[name](), n=n, tries=2, keeper=keeper, seed=seed)
    loop.start()
    return loop, view


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_right_wrong_hint_shown_and_finished(name: str) -> None:
    kind = _kind(name)
    loop, view = loop_of(name)
    first = view.last("question")
    assert first.event is Event.QUESTION and first.answering and first.prompt and not first.feedback
    assert first.progress and first.score and first.verdict is None and not first.can_next
    assert all(m is Mark.OPEN for m in first.marks)

    # 1. right at the first try
    q = loop.question
    assert loop.answer(right_answer(kind, q), typed=typed(kind)) is not None
    v = view.last("verdict")
    assert v.verdict is not None and v.verdict.correct and v.check is True and not v.answering and v.can_next
    assert v.feedback[0].kind == "right" and not v.wrong_parts
    if v.marks and kind != "rank":
        assert v.marks.count(Mark.PICKED_RIGHT) == 1 and Mark.PICKED_WRONG not in v.marks
    assert loop.answer(right_answer(kind, q), typed=typed(kind)) is None  # a second click is ignored

    # 2. a hint, then wrong, then right at the second try
    loop.next()
    q = loop.question
    assert view.last("question").question is q
    hinted = loop.hint()
    assert hinted is not None
    h = view.last("hint")
    assert h.feedback[-1].kind == "hint" and h.answering
    loop.answer(wrong_answer(kind, q), typed=typed(kind))
    r = view.last("retry")
    assert r.event is Event.RETRY and r.answering and r.feedback[0].kind == "retry" and r.verdict is None
    if r.marks and kind != "rank":
        assert r.marks.count(Mark.TRIED) == 1 and r.marks.count(Mark.OPEN) == len(r.marks) - 1
    if loop.hint() is not None:  # the second hint goes under the diagnosis, never in its place
        h2 = view.last("hint")
        assert [f.kind for f in h2.feedback] == ["retry", "hint"]
    loop.answer(right_answer(kind, q), typed=typed(kind))
    v2 = view.last("verdict")
    assert v2.verdict is not None and v2.verdict.correct
    if v2.marks and kind != "rank":
        assert Mark.TRIED in v2.marks and Mark.PICKED_RIGHT in v2.marks
    assert loop.session is not None and loop.session.second == 1

    # 3. wrong twice: the answer is shown, and the run is over
    loop.next()
    q = loop.question
    loop.answer(wrong_answer(kind, q), typed=typed(kind))
    loop.answer(wrong_answer(kind, q, 1), typed=typed(kind))  # the tried one is shut: another wrong one
    v3 = view.last("verdict")
    assert v3.verdict is not None and not v3.verdict.correct and v3.check is False
    assert v3.feedback[0].kind == "wrong"
    if kind in ("betting", "count"):
        assert v3.wrong_parts
    elif v3.marks and kind != "rank":
        assert Mark.RIGHT in v3.marks and Mark.PICKED_WRONG in v3.marks
    done = view.last("finished")
    assert done.finished and not done.can_next and [f.kind for f in done.feedback] == ["wrong", "done"]
    s = loop.session
    assert s is not None and (s.first, s.second, s.shown) == (1, 1, 1)
    assert view.names()[-2:] == ["verdict", "finished"]

    # Start again: a new run from its first question
    loop.restart()
    again = view.last("question")
    assert again.answering and not again.finished and loop.session is not None and loop.session.answered == 0


@pytest.mark.parametrize("name", ["total", "betting", "count"])
def test_a_typed_slip_uses_no_try(name: str) -> None:
    loop, view = loop_of(name)
    loop.answer("" if name == "total" else ({"A": "lots", "B": "0"} if name == "betting" else {"grande": {"A": "x", "B": "0"}}),
                typed=True)
    slip = view.last("slip")
    assert slip.event is Event.SLIP and slip.answering and slip.feedback[0].kind == "hint"
    assert loop.session is not None and loop.session.attempt.tries == 0


def test_a_failed_handler_shows_the_friendly_message_and_keeps_next() -> None:
    loop, view = loop_of("lance")
    loop.oops()
    o = view.last("oops")
    assert o.feedback[0].kind == "oops" and not o.answering and not o.can_hint and o.can_next


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_resumes_from_its_saved_steps(name: str) -> None:
    kind = _kind(name)
    store = MemoryStore()
    lesson, quiz = "03-grande-chica", "grande"
    keeper = LessonKeeper(lesson, quiz, store)
    loop, _view = loop_of(name, keeper=keeper, seed=None)
    q0 = loop.question
    loop.answer(right_answer(kind, q0), typed=typed(kind))
    loop.next()
    q1 = loop.question
    loop.hint()
    loop.answer(wrong_answer(kind, q1), typed=typed(kind))  # the second try is open when the page reloads
    saved = store.load()
    steps = saved.open_run(lesson, quiz)
    assert [st.data["q"] for st in steps] == [0, 1, 1] and "given" not in steps[1].data
    assert steps[2].data["hints"] == 1

    # a reload: a new loop over the same store resumes the run at the same question, same score and try
    keeper2 = LessonKeeper(lesson, quiz, store)
    view2 = FakeView()
    loop2 = QuizLoop(view2, KINDS[name](), n=3, tries=2, keeper=keeper2)
    assert loop2.load() is None
    loop2.start()
    loop2.check_resume()
    s = loop2.session
    assert s is not None and s.answered == 1 and s.first == 1 and s.attempt.wrong == 1 and s.attempt.hints == 1
    assert type(loop2.question) is type(q1) and loop2.question.prompt == q1.prompt
    r = view2.last("retry")
    assert r.answering and r.feedback[0].kind == "retry"
    # it goes on to the end, and the finished run is kept with its stars
    loop2.answer(right_answer(kind, loop2.question), typed=typed(kind))
    loop2.next()
    loop2.answer(right_answer(kind, loop2.question), typed=typed(kind))
    assert view2.last("finished").finished
    kept = store.load()
    assert kept.best_stars(lesson, quiz) is not None and not kept.open_run(lesson, quiz)
    assert any(name == "best" and text for name, text in view2.calls[-4:])  # what was done here, once saved


# ----- practice --------------------------------------------------------------------------------

class _Maker:
    def __init__(self, make: Callable[[str, random.Random, Rules], Any], fast_ms: int = 10_000) -> None:
        self._make = make
        self.fast_ms = fast_ms

    def make(self, skill: str, rng: random.Random, rules: Rules) -> Any:
        return self._make(skill, rng, rules)

    def grade(self, question: Any, response: Any) -> Any:
        return question.grade(response)


def test_practice_rounds_through_the_one_loop() -> None:
    quiz_maker = _Maker(make_question)
    makers: dict[str, Any] = {s: quiz_maker for s in ("grande", "jugada", "juego_total", "rank_order")}
    makers["betting"] = _Maker(lambda _s, rng, rules: betting_question(rng, rules=rules), 30_000)
    makers["count"] = _Maker(lambda _s, rng, rules: count_question(rng, rules=rules), 90_000)
    now = [datetime(2026, 1, 5, 9, tzinfo=UTC)]

    def clock() -> datetime:
        now[0] += timedelta(seconds=4)
        return now[0]

    store = MemoryStore()
    src = PracticeQuestions(makers, list(makers), progress=lambda: keeper.learner, rng=random.Random(5),
                            rules=Rules(), clock=clock)
    keeper = PracticeKeeper(src, store, where=lambda: "here")
    view = FakeView()
    loop = QuizLoop(view, src, n=len(makers) * 2, tries=2, keeper=keeper, endless=True)
    loop.start()
    seen = set()
    while not view.last("question").finished and loop.session is not None and not loop.session.finished:
        q = loop.question
        pick = src.pick_of(q)
        assert pick is not None
        seen.add(pick.skill)
        assert view.last("question").progress.startswith("Question")
        kind = {"grande": "lance", "jugada": "jugada", "juego_total": "total", "rank_order": "rank"}.get(pick.skill, pick.skill)
        shown_as = view.last("question").progress
        loop.answer(right_answer(kind, q), typed=typed(kind))
        assert view.last("verdict").can_next  # practice: Next after every answer
        assert view.last("verdict").progress == shown_as  # still this question's number
        if loop.session.finished:
            break
        loop.next()
    done = view.last("finished")
    assert done.finished and done.can_next and done.feedback[-1].kind == "done"
    assert "here" in done.feedback[-1].reasons[0]
    saved = store.load()
    assert saved.answered() == len(makers) * 2 and len(seen) >= 3
    assert "Round:" in done.score
    loop.next()  # Next after a round: the next round
    assert loop.session is not None and loop.session.answered == 0 and view.last("question").answering


def test_the_loop_module_needs_no_jupyter() -> None:
    code = "import sys, musteach.teach.loop, musteach.teach.keepers, musteach.teach.sources; print('ipywidgets' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]  # no Jupyter, and no numpy until an odds source is made


def test_a_progress_store_is_any_object_with_load_and_save() -> None:
    store = MemoryStore()
    assert isinstance(store.load(), Progress)


def test_no_widget_keeps_a_quiz_loop_of_its_own() -> None:
    """The widgets draw and wire events only (issue 24): no submit, marking, replay or record-keeping code of
    their own, no session or turn made by a widget (read with ast: nothing is imported)."""
    import ast
    from pathlib import Path

    copied = {"_same", "_mark_buttons", "_mark_tried", "_begin_run", "_resume", "_reopen_answers", "_mark_answers",
              "_tutor_answered", "_tutor_step", "_show_graded", "_next_question", "_saved_and_counted"}
    loop_calls = {"QuizSession", "Turn", "replay", "record_attempt", "record_step", "record_run", "choose_skill",
                  "diagnose", "diagnose_answer", "encode_response", "new_seed", "run_rng"}
    found = []
    for path in sorted((Path(__file__).resolve().parent.parent / "widgets").glob("*.py")):
        if path.name.startswith("table"):  # the play table is no quiz: its session is teach.table's
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name in copied:
                found.append(f"{path.name}: def {node.name}")
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if name in loop_calls:
                    found.append(f"{path.name}:{node.lineno}: {name}(...)")
            if isinstance(node, ast.FunctionDef) and node.name == "_submit" and path.name != "loop.py":
                found.append(f"{path.name}: def _submit")
    assert found == []


def test_practice_hint_second_try_and_shown_are_the_loops_too() -> None:
    maker = _Maker(make_question)
    store = MemoryStore()
    src = PracticeQuestions({"grande": maker, "jugada": maker}, ["grande", "jugada"],
                            progress=lambda: keeper.learner, rng=random.Random(2), rules=Rules(),
                            clock=lambda: datetime(2026, 1, 5, 9, tzinfo=UTC))
    keeper = PracticeKeeper(src, store)
    view = FakeView()
    loop = QuizLoop(view, src, n=2, tries=2, keeper=keeper, endless=True)
    loop.start()
    kind = {"grande": "lance", "jugada": "jugada"}
    q = loop.question
    k = kind[src.pick_of(q).skill]
    assert loop.hint() is not None and view.last("hint").feedback[-1].kind == "hint"
    loop.answer(wrong_answer(k, q))
    assert view.last("retry").marks.count(Mark.TRIED) == 1
    loop.answer(right_answer(k, q))
    assert view.last("verdict").verdict.correct and loop.session.second == 1
    loop.next()
    q = loop.question
    k = kind[src.pick_of(q).skill]
    loop.answer(wrong_answer(k, q))
    loop.answer(wrong_answer(k, q, 1))
    v = view.last("verdict")
    assert not v.verdict.correct and Mark.RIGHT in v.marks
    done = view.last("finished")
    assert done.finished and done.can_next and [f.kind for f in done.feedback] == ["wrong", "done"]
    saved = store.load()
    assert saved.answered() == 2 and saved.right() == 0  # a second try is a lapse for the scheduler
