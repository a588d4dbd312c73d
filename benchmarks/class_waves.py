"""A class that moves on (issue 26): 40 visitors go through lessons 03, 04 and 05 in waves on ``musteach serve
--max-kernels 40``, closing each page without its beacon (a phone killing a tab, a lost connection).

The script starts its own server on a free loopback port (its own process group, a fresh secret) and admits the
visitors as a class (a class link's token, :mod:`musteach_server.admission`: they share one address). Each wave:
every visitor opens the lesson (arriving over ``--ramp`` seconds), answers ``--answers`` questions of its first
quiz, then drops the page's websocket without the beacon; the next wave starts when the last visitor of this
one has left. The server must free the kernels of pages gone (``--page-grace``) and refill the pools where the
class is going (the next lesson's pool grows with the visitors on a lesson).

Prints per lesson: time to the first interactive quiz (page, websocket, widget states), p50/p95/max, cold pages
(a kernel started for the page), refusals and errors; then the kernels left running. Goal on a 2-core machine:
p95 within 3 s. Run: ``.venv/bin/python benchmarks/class_waves.py`` (about 3-4 minutes; it loads both cores).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from musteach_server.admission import ADMIT_COOKIE, host_key, issue_token
from musteach_server.gate import CLASS_HOLD_SECONDS
from musteach_server.probe import PROTOCOL_V1, Visitor, running_server
from tornado.httpclient import AsyncHTTPClient

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ("03-grande-chica.ipynb", "04-pares.ipynb", "05-juego-punto.ipynb")


@dataclass
class Wave:
    lesson: str
    firsts: list[float] = field(default_factory=list)
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    cold: int = 0


def quantile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


async def one(i: int, lesson: str, base_url: str, cookies: dict[str, str], args: argparse.Namespace,
              wave: Wave) -> None:
    """Visitor ``i`` (a browser: its ``cookies`` are kept from one lesson to the next) opens ``lesson``."""
    rng = random.Random(args.seed * 1000 + i + len(wave.lesson))
    await asyncio.sleep(args.ramp * i / max(1, args.visitors - 1))
    v = Visitor(base_url, protocol=PROTOCOL_V1, timeout=args.timeout)
    v.cookies = cookies
    start = time.monotonic()
    try:
        r = await v.open(lesson)
        if r.code in (429, 503):
            wave.refused += 1
            return
        if r.code != 200:
            raise RuntimeError(f"page answered {r.code}")
        quizzes = v.quizzes()
        if not quizzes:
            raise RuntimeError("no quiz on the page")
        wave.firsts.append(time.monotonic() - start)
        if 'class="musteach-cold"' in v.html:
            wave.cold += 1
        quiz = quizzes[0]
        for _ in range(args.answers):
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
            buttons = [b for b in v.find(quiz, "musteach-answer") if not v.states[b].get("disabled")]
            feedback = v.find(quiz, "musteach-feedback")
            if not buttons or not feedback or v.find(quiz, "musteach-total-input"):
                break
            await v.click(rng.choice(buttons), watch=feedback[0])
            nxt = v.find(quiz, "musteach-next")
            if nxt:
                await v.click(nxt[0])
    except Exception as e:
        wave.errors.append(f"visitor {i} on {lesson}: {type(e).__name__}: {e}")
    finally:
        await v.disconnect()  # the tab is gone: no beacon


async def places(base_url: str, secret: bytes) -> dict:
    v = Visitor(base_url)
    r = await v.fetch("/musteach/api/places", headers={"Authorization": "Bearer " + host_key(secret)})
    return dict(json.loads(r.body)) if r.code == 200 else {}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--visitors", type=int, default=40)
    ap.add_argument("--max-kernels", type=int, default=40)
    ap.add_argument("--pool-size", type=int, default=1, help="kernels preheated per lesson (default %(default)s)")
    ap.add_argument("--pool-first", type=int, default=None,
                    help="kernels preheated for the first lesson (default: one per visitor, as a host would start)")
    ap.add_argument("--answers", type=int, default=2, help="questions each visitor answers per lesson")
    ap.add_argument("--ramp", type=float, default=20.0, help="seconds over which a wave arrives")
    ap.add_argument("--think", type=float, default=1.5)
    ap.add_argument("--page-grace", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=90.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", default=str(ROOT / "test-artifacts" / "class_waves_server.log"))
    args = ap.parse_args(argv)
    first = args.pool_first if args.pool_first is not None else args.visitors
    log = Path(args.log)
    log.parent.mkdir(parents=True, exist_ok=True)
    secret_file = log.parent / "class_waves.secret"
    secret_file.write_text(os.urandom(32).hex())
    secret_file.chmod(0o600)
    secret = secret_file.read_bytes().strip()
    token = issue_token(secret, "class waves", args.visitors, 2)
    server_args = ["--lessons", str(ROOT / "lessons"), "--max-kernels", str(args.max_kernels), "--pool-size",
                   str(args.pool_size), "--pool", f"{LESSONS[0]}={first}", "--page-grace", str(args.page_grace),
                   "--secret-file", str(secret_file)]
    print(f"class waves: {args.visitors} visitors through {', '.join(LESSONS)}; server: {' '.join(server_args[2:-2])}; "
          f"{os.cpu_count()} CPUs")
    AsyncHTTPClient.configure(None, max_clients=max(10, 2 * args.visitors))
    waves = [Wave(lesson) for lesson in LESSONS]
    with running_server(*server_args, log_path=log, cwd=ROOT) as server:
        t = time.monotonic()
        while "] ready: " not in server.log() and time.monotonic() - t < 300:
            time.sleep(0.5)
        print(f"ready after {time.monotonic() - t:.0f} s")

        browsers = [{ADMIT_COOKIE: token} for _ in range(args.visitors)]

        async def go() -> dict:
            for wave in waves:
                t0 = time.monotonic()
                await asyncio.gather(*(one(i, wave.lesson, server.base_url, browsers[i], args, wave)
                                       for i in range(args.visitors)))
                got = await places(server.base_url, secret)
                print(f"  wave {wave.lesson}: {time.monotonic() - t0:.0f} s; then {got.get('visitors')} visitors' "
                      f"kernels, pools {got.get('pools')}")
            # the class's kernels of pages gone are kept for their next lesson (CLASS_HOLD_SECONDS), then released
            deadline = time.monotonic() + args.page_grace + CLASS_HOLD_SECONDS + 5
            while time.monotonic() < deadline:
                got = await places(server.base_url, secret)
                if not got.get("visitors"):
                    break
                await asyncio.sleep(1)
            return await places(server.base_url, secret)

        end = asyncio.run(go())
        released = server.log().count("released: its page went away")
        renewed = server.log().count("renewed for its visitor's next page")
    print()
    for wave in waves:
        f = wave.firsts
        figures = (f"p50 {quantile(f, .5):.2f} s, p95 {quantile(f, .95):.2f} s, max {max(f):.2f} s (n={len(f)})"
                   if f else "n/a")
        print(f"{wave.lesson}: time to first quiz {figures}; cold pages {wave.cold}; refused {wave.refused}; "
              f"errors {len(wave.errors)}")
        for e in wave.errors[:5]:
            print("   ", e)
    print(f"kernels of pages gone without a beacon: {renewed} renewed for their visitor's next lesson, {released} "
          f"released; after the last wave and the hold: {end.get('visitors')} visitors' kernels left")
    bad = sum(len(w.errors) + w.refused for w in waves)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
