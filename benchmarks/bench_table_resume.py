"""How long resuming a kept match at the table takes (a reload of lesson 10): the learner's moves replayed
through the engine, the coach and the bots (:meth:`musteach.teach.table.TableSession.resume`).

A session plays ``--moves`` random legal decisions of the learner (Next hand included) against ``--level``
bots; then fresh sessions resume it from its :meth:`~musteach.teach.table.TableSession.saved_game`, ``--repeat``
times. It prints the moves kept, the saved record's size (JSON characters) and the resume times (median, worst).

    nice -n 10 .venv/bin/python benchmarks/bench_table_resume.py --level club --moves 60
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from musteach.teach.table import BOT_KINDS, TableSession, warm_up


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", choices=BOT_KINDS, default="club")
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)

    warm_up(background=False)
    rng = random.Random(args.seed)
    s = TableSession(seed=args.seed, level=args.level)
    while len(s.moves) < args.moves and not s.game.is_over:
        if not s.my_turn:
            s.next_hand()
            continue
        c = rng.choice(s.choices())
        s.choose(c, cards=s.my_cards()[: rng.randint(1, 4)] if c.takes_cards else ())
    saved = s.saved_game()
    if saved is None:
        print("the match ended before the moves were made: try another --seed")
        return 1
    times = []
    for _ in range(args.repeat):
        t = TableSession(level=args.level)
        t0 = time.perf_counter()
        t.resume(saved)
        times.append(time.perf_counter() - t0)
        assert t.game.history == s.game.history
    print(f"level {args.level}: {len(s.moves)} moves, hand {s.game.hand.number}, record {len(json.dumps(saved))} chars")
    print(f"resume: median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms ({args.repeat} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
