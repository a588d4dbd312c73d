"""How fast the evaluator judges deals: all five lances, random deals, random manos.

Prints deals per second of
  * the one-deal path: ``winners()`` (the lean fast path from card indexes) and ``evaluate()`` (the full result,
    from card codes and from Card objects; its lances are judged and its sentences built when read, so two more
    figures read the winners, then all five sentences);
  * the batched path: ``evaluate_batch()`` over 1,000,000 random deals (8 and 4 reyes, with and without input
    checks), and ``random_deals()``;
  * explanations in bulk: ``explain_batch()``, all five sentences of --explain-deals random deals (default 200,000;
    each distinct sentence is built once, so the rate depends on N), 8 and 4 reyes, with and without la real, in
    English and in Spanish (the target of issue 16: at least 100,000 deals/s in each).

Run: ``.venv/bin/python benchmarks/bench_evaluator.py`` (about 20-40 s). Each figure is the best of --repeat runs.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable

import numpy as np

from musteach import DECK, Rules, evaluate, winners
from musteach.rules.batch import evaluate_batch, explain_batch, random_deals


def best_rate(n: int, fn: Callable[[], object], repeat: int) -> float:
    """Deals per second of the fastest of ``repeat`` runs of ``fn`` (which judges ``n`` deals), in CPU time of this
    process (on a machine shared with other work, wall time measures the neighbours)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return n / best


def line(label: str, rate: float, note: str = "") -> None:
    print(f"  {label:<52} {rate:>14,.0f} deals/s{('   ' + note) if note else ''}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch-deals", type=int, default=1_000_000, help="deals for the batched path (default 1,000,000)")
    ap.add_argument("--one-deals", type=int, default=100_000, help="deals for winners() (default 100,000)")
    ap.add_argument("--evaluate-deals", type=int, default=10_000, help="deals for evaluate() (default 10,000)")
    ap.add_argument("--explain-deals", type=int, default=200_000, help="deals for explain_batch() (default 200,000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown (default 3)")
    ap.add_argument("--seed", type=int, default=2024)
    a = ap.parse_args()

    print(f"musteach evaluator benchmark: Python {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} CPUs, {platform.machine()}; all five lances; CPU time, best of {a.repeat}")

    # ----- the one-deal path ----------------------------------------------------------------------------------
    rng = random.Random(a.seed)
    deals = []
    for _ in range(a.one_deals):
        c = rng.sample(range(40), 16)
        deals.append(([c[0:4], c[4:8], c[8:12], c[12:16]], rng.randrange(4)))
    print("\nOne deal at a time (single thread):")
    for kings in (8, 4):
        def run_winners(kings: int = kings) -> None:
            for hands, mano in deals:
                winners(hands, mano, kings)

        line(f"winners() from card indexes, {kings} reyes", best_rate(len(deals), run_winners, a.repeat))

    few = deals[: a.evaluate_deals]
    as_codes = [([[DECK[i].code for i in h] for h in hands], mano) for hands, mano in few]
    as_cards = [([[DECK[i] for i in h] for h in hands], mano) for hands, mano in few]
    rules8 = Rules()

    def run_eval_codes() -> None:
        for hands, mano in as_codes:
            evaluate(hands, mano, rules8)

    def run_eval_cards() -> None:
        for hands, mano in as_cards:
            evaluate(hands, mano, rules8)

    def run_eval_read() -> None:
        for hands, mano in as_codes:
            evaluate(hands, mano, rules8).explanations()

    def run_eval_read_es() -> None:
        for hands, mano in as_codes:
            evaluate(hands, mano, rules8).explanations(lang="es")

    def run_eval_winners() -> None:
        for hands, mano in as_codes:
            evaluate(hands, mano, rules8).winners()

    line("evaluate() from codes ('12o'), judged when read", best_rate(len(few), run_eval_codes, a.repeat))
    line("evaluate() from Card objects, judged when read", best_rate(len(few), run_eval_cards, a.repeat))
    line("evaluate() from codes, then winners()", best_rate(len(few), run_eval_winners, a.repeat))
    line("evaluate() from codes, then all five sentences", best_rate(len(few), run_eval_read, a.repeat))
    line("evaluate() from codes, then all five sentences, Spanish", best_rate(len(few), run_eval_read_es, a.repeat))

    # ----- the batched path -----------------------------------------------------------------------------------
    n = a.batch_deals
    print(f"\nBatched with numpy, {n:,} random deals, random manos (single thread):")
    line("random_deals() (dealing only)", best_rate(n, lambda: random_deals(n, seed=a.seed), a.repeat))
    hands = random_deals(n, seed=a.seed)
    manos = np.random.default_rng(a.seed).integers(0, 4, n).astype(np.int8)
    for rules, name in ((Rules(), "8 reyes"), (Rules(kings=4), "4 reyes"), (Rules(la_real=True), "8 reyes, la real")):
        evaluate_batch(hands[:1000], manos[:1000], rules)  # build the tables outside the timing
        line(f"evaluate_batch(), {name}, input checked", best_rate(n, lambda r=rules: evaluate_batch(hands, manos, r), a.repeat))
        line(
            f"evaluate_batch(), {name}, validate=False",
            best_rate(n, lambda r=rules: evaluate_batch(hands, manos, r, validate=False), a.repeat),
        )
    line("evaluate_batch(), 8 reyes, one mano for all", best_rate(n, lambda: evaluate_batch(hands, 0), a.repeat))

    def deal_and_judge() -> None:
        evaluate_batch(random_deals(n, seed=a.seed), manos, validate=False)

    line("random_deals() + evaluate_batch() (validate=False)", best_rate(n, deal_and_judge, a.repeat))

    # ----- explanations in bulk -------------------------------------------------------------------------------
    ne = a.explain_deals
    print(f"\nExplanations in bulk, {ne:,} random deals, random manos (single thread):")
    few_hands, few_manos = hands[:ne], manos[:ne]
    if len(few_hands) < ne:
        few_hands = random_deals(ne, seed=a.seed)
        few_manos = np.random.default_rng(a.seed).integers(0, 4, ne).astype(np.int8)
    explained = (
        (Rules(), "8 reyes"),
        (Rules(kings=4), "4 reyes"),
        (Rules(la_real=True), "8 reyes, la real"),
        (Rules(kings=4, la_real=True), "4 reyes, la real"),
    )
    for rules, name in explained:
        for lang in ("en", "es"):
            line(
                f"explain_batch(), {name}, five sentences, {lang}",
                best_rate(ne, lambda r=rules, lg=lang: explain_batch(few_hands, few_manos, r, lang=lg), a.repeat),
            )


if __name__ == "__main__":
    main()
