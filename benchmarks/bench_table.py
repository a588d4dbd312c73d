"""How long a click on the PlayTable takes: the learner's decision, the coach's comment, the bots' moves
up to the learner's next turn, and the redraw (everything the kernel does for one click).

A fresh process builds a table (its warm-up runs in a background thread, as in Voilà), waits ``--think``
seconds as a learner reading the first screen would, then plays ``--hands`` hands by clicking: mus in
the first mus round and no hay mus after, two cards changed when everybody said mus, paso or no quiero
in the betting, Next hand at the end. It prints the construction time, whether the warm-up was still
running at the first click (which then waits for it), and the click latencies (median, 90th percentile,
worst), the first click apart.

    .venv/bin/python benchmarks/bench_table.py               # OddsBot opponents, 10 hands
    .venv/bin/python benchmarks/bench_table.py --bot rule --hands 30 --think 0
"""

from __future__ import annotations

import argparse
import statistics
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", choices=("odds", "rule"), default="odds")
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=3.0, help="seconds before the first click (default 3)")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    from musteach_widgets.table import PlayTable

    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    table = PlayTable(seed=args.seed, bot=args.bot)
    t_build = time.perf_counter() - t0
    time.sleep(args.think)
    warm = table._warm
    warming = warm is not None and warm.is_alive()  # then the first click waits for the rest of it

    clicks: list[float] = []
    first_mus = True
    for _ in range(args.hands):
        while not table.game.hand.is_over:
            kinds = table.enabled_kinds()
            phase = table.game.hand.phase
            t0 = time.perf_counter()
            if phase == "mus":
                table.button("mus" if first_mus and table.game.hand.mus_round == 1 else "no-hay-mus").click()
            elif phase == "discard":
                table.card_toggles[0].value = True
                table.card_toggles[1].value = True
                table.button("discard").click()
            else:
                kind = next((k for k in ("paso", "no-quiero", "quiero") if k in kinds), None)
                if kind is None:
                    raise SystemExit(f"no button to press in {phase}: {kinds}")
                table.button(kind).click()
            clicks.append(time.perf_counter() - t0)
        if table.game.is_over:
            break
        t0 = time.perf_counter()
        table.next_button.click()
        clicks.append(time.perf_counter() - t0)
    if table.errors:
        raise SystemExit(f"handler errors: {table.errors!r}")

    rest = sorted(clicks[1:])
    p90 = rest[int(0.9 * (len(rest) - 1))] if rest else 0.0
    print(f"bot={args.bot} seed={args.seed} hands={args.hands} think={args.think:.1f}s")
    print(f"import {t_import:.2f}s  build {t_build:.2f}s  warm-up still running at the first click: {warming}")
    print(f"first click {clicks[0] * 1000:.0f} ms; other {len(rest)} clicks: median {statistics.median(rest) * 1000:.0f} ms, "
          f"p90 {p90 * 1000:.0f} ms, worst {max(rest) * 1000:.0f} ms")  # fmt: skip
    print(f"score {table.game.score}, hands played {table.game.hand.number}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
