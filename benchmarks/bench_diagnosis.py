"""Mistake diagnosis on random answers: how often each misconception explains a wrong answer, and speed.

Random deals (a full deck), a random mano, lance and answer (a seat or "nobody"): prints the share of right
answers, of slips and of each mistake, and the diagnoses per second on one core.

    .venv/bin/python benchmarks/bench_diagnosis.py                 # 20,000 answers
    .venv/bin/python benchmarks/bench_diagnosis.py --answers 2000 --seed 7
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from musteach.rules.cards import deal
from musteach.rules.lances import LANCES
from musteach.teach.diagnosis import MISTAKES, diagnose


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--answers", type=int, default=20_000, help="random answers to diagnose (default 20000)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    questions = [
        (deal(rng), rng.randrange(4), rng.choice(LANCES), rng.choice([0, 1, 2, 3, None])) for _ in range(args.answers)
    ]
    tally: Counter[str] = Counter()
    start = time.perf_counter()
    for hands, mano, lance, answer in questions:
        d = diagnose(hands, mano, lance, answer)
        tally["right" if d.correct else str(d.mistake) if d.mistake else "slip"] += 1
    seconds = time.perf_counter() - start
    n = args.answers
    for name in ("right", "slip", *(m.value for m in MISTAKES)):
        print(f"{name:24} {tally[name]:7d}  {100 * tally[name] / n:5.1f}%")
    print(f"{n} diagnoses in {seconds:.2f} s: {n / seconds:,.0f} per second ({1e6 * seconds / n:.0f} µs each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
