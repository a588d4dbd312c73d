"""Benchmark of the one quiz loop (issue 24): what an answer costs through :class:`musteach.teach.loop.QuizLoop`
with a view that draws nothing, per quiz kind, and through a real quiz widget (LanceQuiz: click the right seat,
then Next), so that the loop's overhead can be told from the question's own work.

Run:  .venv/bin/python benchmarks/bench_quiz_loop.py [--answers 300] [--seed 1]

The widget part uses only the public widget API, so the same script runs against an older checkout (its own
venv) for a before/after figure; the loop part is skipped where :mod:`musteach.teach.loop` does not exist.
Prints milliseconds per answer (median of 3 runs).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any


class _Quiet:
    """A view that keeps nothing; ``later`` runs at once (no event loop)."""

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *a, **k: None

    def later(self, callback: Callable[[], None], after: float = 0.0) -> None:
        callback()


def _right(kind: str, q: Any) -> Any:
    if kind in ("betting", "count"):
        return {k: ({t: str(n) for t, n in v.items()} if isinstance(v, dict) else str(v)) for k, v in q.answer.items()}
    return q.answer


def bench_loop(answers: int, seed: int) -> dict[str, float]:
    from musteach.teach.loop import QuizLoop
    from musteach.teach.quiz import QuestionGenerator, Skill
    from musteach.teach.sources import betting_source, count_source, generated_source

    kinds = {
        "lance": lambda: generated_source(QuestionGenerator([Skill.GRANDE], seed=seed)),
        "jugada": lambda: generated_source(QuestionGenerator([Skill.JUGADA], seed=seed)),
        "total": lambda: generated_source(QuestionGenerator([Skill.JUEGO_TOTAL], seed=seed)),
        "rank": lambda: generated_source(QuestionGenerator([Skill.RANK_ORDER], seed=seed)),
        "betting": betting_source,
        "count": count_source,
    }
    out = {}
    for kind, make in kinds.items():
        runs = []
        for _ in range(3):
            loop = QuizLoop(_Quiet(), make(), n=answers, tries=2, seed=seed)  # type: ignore[arg-type]
            loop.start()
            t0 = time.perf_counter()
            for _i in range(answers):
                loop.answer(_right(kind, loop.question), typed=kind in ("betting", "count", "total"))
                loop.next()
            runs.append((time.perf_counter() - t0) * 1000 / answers)
        out[kind] = statistics.median(runs)
    return out


def bench_widget(answers: int, seed: int) -> float:
    import musteach_widgets as mw

    runs = []
    for _ in range(3):
        quiz = mw.LanceQuiz("grande", n=answers, seed=seed, store="memory")
        t0 = time.perf_counter()
        for _i in range(answers):
            quiz.button_for(quiz.question.answer).click()
            if not quiz.session.finished:
                quiz.next_button.click()
        runs.append((time.perf_counter() - t0) * 1000 / answers)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        figures = bench_loop(args.answers, args.seed)
    except ImportError:
        print("loop: not in this checkout")
    else:
        for kind, ms in figures.items():
            print(f"loop {kind:8s} {ms:8.3f} ms per answer (answer + next, fake view)")
    print(f"widget LanceQuiz {bench_widget(args.answers, args.seed):8.3f} ms per answer (click + Next)")


if __name__ == "__main__":
    main()
