"""How fast the command line is: ``musteach judge`` (with and without ``--explain``), ``musteach count`` and
``musteach grade``.

Each figure is the time of the installed command on one file, Python start-up included, best of --repeat (wall
and CPU; on a machine shared with other work the CPU time is the fairer figure). The package's bytecode is
compiled first, as ``pip install`` does (the figures do not count compiling musteach's sources at every start):

  * ``musteach judge`` on N random deals (JSON Lines, random manos; default 200,000), and with ``--explain``;
  * ``musteach count`` on N varied cases (random deals, manos, targets, start scores and bettings of every type,
    with the scoring.json vectors mixed in; JSON Lines);
  * ``musteach grade`` on N cases (the first N deals, each with a random lance and answer);
  * the peer's command line for comparison, with ``--peer PATH/TO/cards.js``: mikeloscoz/mus's ``js/cards.js``
    (a checkout outside this repository; nothing of it is copied here) judged by a small node driver written to a
    temporary folder. It judges 8 reyes with ties to mano, reading the same file and writing the same JSON lines;
    the script checks that every verdict agrees with ours.

Run: ``.venv/bin/python benchmarks/bench_cli.py [--peer ../mus/js/cards.js] [--deals 200000]``.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import musteach
from musteach.rules.batch import BATCH_LANCES, array_to_codes, random_deals
from musteach.rules.count_batch import random_cases

ROOT = Path(__file__).resolve().parents[1]
MUSTEACH = Path(sys.executable).with_name("musteach")
SCORING = ROOT.parent / "shared" / "vectors" / "scoring.json"

# The peer driver: reads JSON Lines of {"hands", "mano"}, writes one {"grande", ..., "punto"} line per deal.
PEER_DRIVER = """
import { readFileSync, writeSync } from "node:fs";
import * as mus from "CARDS_URL";
const PALO = { o: "oros", c: "copas", e: "espadas", b: "bastos" };
const hand = (codes) => new mus.Hand(codes.map((c) => new mus.Card(PALO[c.slice(-1)], parseInt(c, 10))));
function best(hands, order, cmp, takes) {
  let w = null;
  for (const s of order) if (takes(hands[s]) && (w === null || cmp(hands[s], hands[w]) > 0)) w = s;
  return w;
}
const out = [];
for (const line of readFileSync(process.argv[2], "utf8").split("\\n")) {
  if (!line.trim()) continue;
  const d = JSON.parse(line);
  const hands = d.hands.map(hand);
  const order = [0, 1, 2, 3].map((k) => (d.mano + k) % 4);
  const all = () => true;
  const juego = best(hands, order, mus.compararJuego, mus.tieneJuego);
  out.push(JSON.stringify({
    grande: best(hands, order, mus.compararGrande, all),
    chica: best(hands, order, mus.compararChica, all),
    pares: best(hands, order, mus.compararPares, mus.tienePares),
    juego,
    punto: juego === null ? best(hands, order, mus.compararPunto, all) : null,
  }));
}
writeSync(1, out.join("\\n") + "\\n");
"""


def timed(cmd: list[str], out_path: Path, repeat: int) -> tuple[float, float]:
    """``(wall, cpu)``: the best wall time and the best CPU time (user + system) in seconds of ``cmd``, writing its
    standard output to ``out_path``. On a machine shared with other work the CPU time is the fairer figure."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        with out_path.open("wb") as out:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, stdout=out, check=True)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best_wall = min(best_wall, wall)
        best_cpu = min(best_cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best_wall, best_cpu


def line(label: str, times: tuple[float, float], n: int) -> None:
    wall, cpu = times
    print(f"  {label:<40} {wall:>7.3f} s wall {cpu:>7.3f} s CPU  {n / wall:>10,.0f} /s wall {n / cpu:>10,.0f} /s CPU")


def write_deals(path: Path, n: int, seed: int) -> None:
    hands = random_deals(n, seed=seed)
    manos = np.random.default_rng(seed).integers(0, 4, n).tolist()
    with path.open("w", encoding="utf-8") as f:
        for h, m in zip(array_to_codes(hands), manos, strict=True):
            f.write(json.dumps({"hands": h, "mano": m}) + "\n")


def write_answers(path: Path, deals: Path, n: int, seed: int) -> None:
    """The first ``n`` deals of ``deals`` as grade cases: each with a random lance and a random answer."""
    rng = np.random.default_rng(seed)
    with deals.open(encoding="utf-8") as f, path.open("w", encoding="utf-8") as out:
        for _, line, lance, answer in zip(range(n), f, rng.integers(0, 5, n), rng.integers(-1, 4, n), strict=False):
            case = json.loads(line)
            case["lance"], case["answer"] = BATCH_LANCES[lance], None if answer < 0 else int(answer)
            out.write(json.dumps(case) + "\n")


def write_cases(path: Path, n: int, seed: int) -> None:
    """``n`` varied count cases (:func:`musteach.rules.count_batch.random_cases`: random deals in 8 and 4 reyes,
    manos, targets, start scores and bettings of every type), one scoring.json vector every 20, as JSON Lines."""
    vectors = json.loads(SCORING.read_text(encoding="utf-8"))
    with path.open("w", encoding="utf-8") as f:
        f.writelines(json.dumps(case) + "\n" for case in random_cases(n, seed, vectors=vectors))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200_000, help="deals to judge (default 200,000)")
    ap.add_argument("--cases", type=int, help="cases to count and to grade (default: as many as --deals)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown (default 3)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--peer", type=Path, help="the peer's js/cards.js (mikeloscoz/mus), run with node")
    ap.add_argument("--no-explain", action="store_true", help="time neither --explain, count nor grade (a quick run)")
    ap.add_argument(
        "--only", choices=("judge", "explain", "count", "grade"), help="time this command alone (and the start-up)"
    )
    a = ap.parse_args()
    a.cases = min(a.deals, a.cases or a.deals)  # a grade case is one of the deals, with a lance and an answer
    wanted = {"judge", "explain", "count", "grade"} if a.only is None else {a.only}
    if a.no_explain:
        wanted = {"judge"}
    compileall.compile_dir(Path(musteach.__file__).parent, quiet=1)
    print(f"musteach command-line benchmark: Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"{platform.machine()}; start-up included, best of {a.repeat}")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        deals, cases, out = d / "deals.jsonl", d / "cases.jsonl", d / "out.jsonl"
        answers = d / "answers.jsonl"
        write_deals(deals, a.deals, a.seed)
        write_cases(cases, a.cases, a.seed)
        write_answers(answers, deals, a.cases, a.seed)
        print(
            f"\n{a.deals:,} deals ({deals.stat().st_size / 1e6:.1f} MB of JSON Lines), {a.cases:,} count cases, "
            f"{a.cases:,} grade cases:"
        )
        t_start = timed([sys.executable, "-c", "import musteach.cli"], out, a.repeat)
        line("start-up only (import musteach.cli)", t_start, 1)
        t_judge = timed([str(MUSTEACH), "judge", str(deals)], out, a.repeat)
        ours = out.read_text(encoding="utf-8").splitlines()
        if "judge" in wanted:
            line("musteach judge", t_judge, a.deals)
        t_explain = (float("nan"), float("nan"))
        if "explain" in wanted:
            t_explain = timed([str(MUSTEACH), "judge", "--explain", str(deals)], out, a.repeat)
            line("musteach judge --explain", t_explain, a.deals)
            t_explain_es = timed([str(MUSTEACH), "judge", "--explain", "--lang", "es", str(deals)], out, a.repeat)
            line("musteach judge --explain --lang es", t_explain_es, a.deals)
        if "count" in wanted:
            t_count = timed([str(MUSTEACH), "count", str(cases)], out, a.repeat)
            line("musteach count", t_count, a.cases)
        if "grade" in wanted:
            t_grade = timed([str(MUSTEACH), "grade", str(answers)], out, a.repeat)
            line("musteach grade", t_grade, a.cases)
        node = shutil.which("node")
        if a.peer is None or node is None or "judge" not in wanted:
            print("\n  (peer not run: give --peer PATH/TO/cards.js and have node on the PATH)")
            return
        driver = d / "peer_judge.mjs"
        driver.write_text(PEER_DRIVER.replace("CARDS_URL", a.peer.resolve().as_uri()), encoding="utf-8")
        t_peer = timed([node, str(driver), str(deals)], out, a.repeat)
        theirs = out.read_text(encoding="utf-8").splitlines()
        agree = sum(json.loads(x) == json.loads(y) for x, y in zip(ours, theirs, strict=True))
        line("peer: node cards.js (mikeloscoz/mus)", t_peer, a.deals)
        for what, i in (("wall", 0), ("CPU", 1)):
            explained = "" if "explain" not in wanted else f"; --explain {t_peer[i] / t_explain[i]:.1f}x"
            print(
                f"\n  {what} time: musteach judge {t_judge[i]:.3f} s, the peer {t_peer[i]:.3f} s: "
                f"{t_peer[i] / t_judge[i]:.1f}x faster than the peer{explained}",
                end="",
            )
        print(f"\n  verdicts agree on {agree:,} of {a.deals:,} deals")


if __name__ == "__main__":
    main()
