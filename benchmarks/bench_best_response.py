"""Benchmark of the shipped strategy's best responses (issue 25): in each lance, one seat deviates from the
strategy as well as it can (the other three keep it), every seat seeing only its own cards.

Run:  .venv/bin/python benchmarks/bench_best_response.py [--deals 1000000] [--table PATH]

The deviation is the exact best response of that seat in the solve's abstraction
(:meth:`musteach.play.strategy.solver.LanceSolver.best_response`: the seat knows its own bucket, its position,
the public betting and its partner's seña bit, as the strategy's seats do), against the shipped table's
strategy, over random deals drawn as the solve drew them (the same share changed by a mus round; another
seed than the solve's). Prints, per lance and score context (the
stones mano's team and the other team still need), the largest gain of any one seat, in stones per lance
played (win chance of the game turned into stones at that score); pares and juego average their sets of
holders by how often each happens. The issue asks for at most 0.1 stone in every lance.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from musteach.play.strategy.solver import LanceSolver, SolveParams, sample_lances, stones_per_point
from musteach.play.strategy.table import StrategyTable, table_path
from musteach.rules.lances import LANCES


def load(solver: LanceSolver, table: StrategyTable, ctx: int) -> None:
    """Put the table's strategy for this lance and context into the solver's average strategy."""
    d = solver.data
    for j, n in enumerate(solver.tree.decisions):
        rows = table.rows(d.li, d.participants, ctx, j)
        width = len(solver.tree.nodes[n].actions)
        solver.avg[j] = np.array(rows, dtype=np.float64).reshape(-1, 2, width)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--table", type=Path, default=None)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args()
    table = StrategyTable(args.table or table_path())
    h = table.header
    params = replace(SolveParams(), ks=tuple(h["ks"]), needs=tuple(h["needs"]), target=h["target"], deals=args.deals, seed=args.seed,
                     mus_share=h.get("mus_share", 0.0))
    print(f"table: {table.path.name}, solve {h.get('solve', '?')}, buckets {h['ks']}, needs {h['needs']}, {h['iters']} iterations", flush=True)
    t0 = time.perf_counter()
    datas = sample_lances(params)  # type: ignore[arg-type]
    nn = len(params.needs)
    gains: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for d in datas:
        for ctx in range(nn * nn):
            need = (params.needs[ctx // nn], params.needs[ctx % nn])
            s = LanceSolver(d, need, params.target)
            load(s, table, ctx)
            g = max(s.best_response(p) for p in d.participants) * stones_per_point(need[0], need[1], params.target)
            gains.setdefault((d.li, ctx), []).append((g, d.weight))
    print(f"(worked out in {time.perf_counter() - t0:.0f} s)\n")
    head = "lance    " + " ".join(f"{params.needs[c // nn]:>2}-{params.needs[c % nn]:<2}" for c in range(nn * nn)) + "   mean   max"
    print("best-response gain, stones per lance played, by score context (stones mano's team - the other needs)")
    print(head)
    worst = 0.0
    for li, lance in enumerate(LANCES):
        row = []
        for ctx in range(nn * nn):
            pairs = gains.get((li, ctx), [])
            total = sum(w for _g, w in pairs)
            row.append(sum(g * w for g, w in pairs) / total if total else float("nan"))
        worst = max(worst, max(row))
        print(f"{lance.value:<8} " + " ".join(f"{x:5.3f}" for x in row) + f"  {sum(row) / len(row):5.3f} {max(row):5.3f}")
    print(f"\nlargest: {worst:.3f} stones per lance played (target: at most 0.1)")


if __name__ == "__main__":
    main()
