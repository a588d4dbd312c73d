"""A class on one server: N simulated visitors open a lesson on ``musteach serve`` and answer its quizzes.

Bounded and loopback only: the script starts its own ``musteach serve`` on a free 127.0.0.1 port (in its own
process group), runs the visitors, closes their pages, stops the server and checks that no kernel is left.

Each visitor behaves as a browser page does, over the real protocol (no browser): GET the lesson page, open
the kernel's websocket, fetch the widgets' states through the ``jupyter.widget.control`` comm, then answer
``--answers`` questions: click an answer button (the comm message ipywidgets' front end sends for a click,
``{"method": "custom", "content": {"event": "click"}}`` to the button's model), wait for the feedback
widget's update, think, press Next, think... Visitors arrive spread over ``--ramp`` seconds; thinking time is
uniform in [0.5, 1.5] x ``--think`` seconds. Pages close as a browser tab does (the shutdown beacon).

Prints: time to the first interactive quiz (page, websocket and widget states: what the page needs before
the quiz can be clicked; p50/p95/max), click-to-feedback latency (p50/p95/max), errors and refusals, the
server's RSS and the kernels' RSS (total, per kernel) at the peak, and the stray-kernel check.

The visitors come as a class (one address, loopback): they bring a class link's admission token
(:mod:`musteach_server.admission`, signed with the server's secret), so that the per-address cap for anonymous
visitors does not apply to them; ``--anonymous`` sends them without it.

With ``--instances 2`` (or more) the visitors go through Debian's nginx to that many instances, sticky by
session cookie (:mod:`musteach_server.cluster`), and the script also prints each instance's pages and kernels:
``.venv/bin/python benchmarks/load_test.py --instances 2 --visitors 80``.

Targets on a 2-core machine: 40 visitors; p95 feedback <= 150 ms; p95 first quiz <= 3 s; no errors;
nothing left running. Run: ``.venv/bin/python benchmarks/load_test.py`` (about 2-3 minutes with the
defaults; it loads both cores: do not run it beside other heavy work).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from musteach_server.admission import ADMIT_COOKIE, issue_token
from musteach_server.cluster import running_cluster
from musteach_server.probe import PROTOCOL_V1, Server, Visitor, running_server, stop_server
from tornado.httpclient import AsyncHTTPClient

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Result:
    first_quiz: float | None = None
    latencies: list[float] = field(default_factory=list)
    clicked_at: list[float] = field(default_factory=list)
    answered: int = 0
    error: str | None = None
    refused: bool = False
    close_status: int | None = None


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, by linear interpolation (statistics' inclusive method)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


async def answer_one(v: Visitor, quiz: str, rng: random.Random, result: Result) -> bool:
    """Answer the quiz's current question; False when the quiz has no question to answer."""
    feedback = v.find(quiz, "musteach-feedback")
    boxes = v.find(quiz, "musteach-total-input")
    buttons = [b for b in v.find(quiz, "musteach-answer") if not v.states[b].get("disabled")]
    if not feedback or not buttons:
        return False
    if boxes:  # a total to type, then Check
        sent = await v.send(v.update_message(boxes[0], {"value": str(rng.randint(4, 40))}))
        await v.wait_idle(sent)
        target = next(b for b in buttons if "musteach-check" in v.classes(b))
    elif any("musteach-check" in v.classes(b) for b in buttons):
        return False  # card ordering quizzes are not simulated
    else:
        target = rng.choice(buttons)
    _, latency = await v.click(target, watch=feedback[0])
    if latency is None or "musteach-verdict" not in v.states[feedback[0]].get("value", ""):
        raise RuntimeError(f"no feedback after a click (feedback: {v.states[feedback[0]].get('value', '')[:80]!r})")
    result.latencies.append(latency)
    result.clicked_at.append(time.monotonic())
    result.answered += 1
    return True


async def visit(i: int, base_url: str, args: argparse.Namespace, results: list[Result]) -> None:
    rng = random.Random(args.seed * 1000 + i)
    result = Result()
    results.append(result)
    await asyncio.sleep(args.ramp * i / max(1, args.visitors - 1) if args.visitors > 1 else 0)
    v = Visitor(base_url, protocol=None if args.json else PROTOCOL_V1, timeout=args.timeout)
    if args.token:
        v.cookies[ADMIT_COOKIE] = args.token
    start = time.monotonic()
    try:
        response = await v.open(args.lesson)
        if response.code in (429, 503):
            result.refused = True
            return
        if response.code != 200:
            raise RuntimeError(f"page answered {response.code}")
        quizzes = v.quizzes()
        if not quizzes:
            raise RuntimeError("no quiz on the page")
        result.first_quiz = time.monotonic() - start
        async def think() -> None:
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
        qi, misses = 0, 0
        while result.answered < args.answers:
            quiz = quizzes[qi % len(quizzes)]
            await think()
            if not await answer_one(v, quiz, rng, result):
                restart = v.find(quiz, "musteach-restart")
                if restart and misses == 0:  # a finished quiz: start it again
                    await v.click(restart[0])
                else:
                    qi += 1
                misses += 1
                if misses > 2 * len(quizzes) + 1:
                    raise RuntimeError(f"only {result.answered} questions could be answered")
                continue
            misses = 0
            if "musteach-done" in v.states[v.find(quiz, "musteach-feedback")[0]].get("value", ""):
                qi += 1  # the quiz is over: on to the next one
                continue
            await think()
            await v.click(v.find(quiz, "musteach-next")[0])
    except Exception as e:
        result.error = f"visitor {i}: {type(e).__name__}: {e}"
    finally:
        if v.kernel_id:
            try:
                result.close_status = await v.close_page()
            except Exception as e:
                result.error = result.error or f"visitor {i}: closing the page: {type(e).__name__}: {e}"


class Sampler(threading.Thread):
    """Samples the server's and its kernels' RSS every ``period`` seconds and keeps the peak; reads the
    kernels' PSS (costly: /proc/<pid>/smaps) once, at ``pss_at`` (time.monotonic())."""

    def __init__(self, server: Server, pss_at: float, period: float = 2.0):
        super().__init__(daemon=True)
        self.server, self.period, self.pss_at = server, period, pss_at
        self.pss: list[int] = []
        self.stop_event = threading.Event()
        self.peak_total = 0
        self.peak: tuple[int, list[int]] = (0, [])  # server rss, kernels' rss
        self.kernels_seen: set[int] = set()
        self.peak_kernels = 0

    def run(self) -> None:
        while not self.stop_event.wait(self.period):
            try:
                proc = psutil.Process(self.server.process.pid)
                server_rss = proc.memory_info().rss
                rss, kids = [], proc.children(recursive=True)
                for k in kids:
                    self.kernels_seen.add(k.pid)
                    try:
                        rss.append(k.memory_info().rss)
                    except psutil.NoSuchProcess:
                        pass
            except psutil.NoSuchProcess:
                return
            total = server_rss + sum(rss)
            self.peak_kernels = max(self.peak_kernels, len(rss))
            if total > self.peak_total:
                self.peak_total, self.peak = total, (server_rss, rss)
            if not self.pss and time.monotonic() >= self.pss_at:
                for k in kids:
                    try:
                        self.pss.append(k.memory_full_info().pss)
                    except (psutil.NoSuchProcess, psutil.AccessDenied):
                        pass


def fmt_ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    return (f"p50 {1000 * quantile(values, .5):.0f} ms, p95 {1000 * quantile(values, .95):.0f} ms, "
            f"max {1000 * max(values):.0f} ms (n={len(values)})")


def fmt_s(values: list[float]) -> str:
    if not values:
        return "n/a"
    return f"p50 {quantile(values, .5):.2f} s, p95 {quantile(values, .95):.2f} s, max {max(values):.2f} s (n={len(values)})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--visitors", type=int, default=40, help="simulated visitors (default %(default)s)")
    ap.add_argument("--lesson", default="03-grande-chica.ipynb", help="the lesson they open (default %(default)s)")
    ap.add_argument("--answers", type=int, default=20, help="questions each answers (default %(default)s)")
    ap.add_argument("--ramp", type=float, default=40.0, help="seconds over which visitors arrive (default %(default)s)")
    ap.add_argument("--think", type=float, default=2.0, help="mean thinking time between actions, s (default %(default)s)")
    ap.add_argument("--pool", type=int, default=None, metavar="N",
                    help="kernels preheated for the lesson (musteach serve --pool LESSON=N; default: one per visitor, as a host expecting a class would start it)")
    ap.add_argument("--pool-size", type=int, default=1, help="kernels preheated for every lesson (default %(default)s)")
    ap.add_argument("--max-kernels", type=int, default=None, help="server cap (default: visitors)")
    ap.add_argument("--lessons", default=str(ROOT / "lessons"), help="lessons folder (default the repo's)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for any one answer (default %(default)s)")
    ap.add_argument("--json", action="store_true", help="use the legacy JSON websocket protocol (default: JupyterLab's "
                    "binary v1 protocol, as the Voilà page does)")
    ap.add_argument("--instances", type=int, default=1,
                    help="musteach serve instances; 2 or more run behind Debian's nginx, sticky by session cookie, "
                    "each with --max-kernels and --pool divided among them (default %(default)s)")
    ap.add_argument("--anonymous", action="store_true",
                    help="visitors without a class link (then --per-address caps them: half the places by default)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", default=str(ROOT / "test-artifacts" / "load_test_server.log"), help="server log file")
    args = ap.parse_args(argv)
    pool = args.pool if args.pool is not None else args.visitors
    cap = args.max_kernels or args.visitors

    print(f"musteach load test: {args.visitors} visitors on {args.lesson}, {args.answers} answers each, "
          f"arriving over {args.ramp:.0f} s, thinking {args.think:.1f} s on average")
    print(f"server: --max-kernels {cap} --pool-size {args.pool_size} --pool {args.lesson}={pool}; "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}")
    AsyncHTTPClient.configure(None, max_clients=max(10, 2 * args.visitors))
    server_args = ["--lessons", args.lessons, "--max-kernels", str(cap), "--pool-size", str(args.pool_size),
                   "--pool", f"{args.lesson}={pool}"]
    if args.instances > 1:
        share = lambda n: str(-(-n // args.instances))  # noqa: E731 - ceil(n / instances)
        # the hash splits sessions unevenly (about 40 +- 5 of 80): each instance gets a quarter more places
        server_args = ["--lessons", args.lessons, "--max-kernels", share(cap * 5 // 4), "--pool-size", str(args.pool_size),
                       "--pool", f"{args.lesson}={share(pool)}"]
        print(f"{args.instances} instances behind nginx (sticky by session cookie), each: {' '.join(server_args[2:])}")
    args.token = None
    with contextlib.ExitStack() as stack:
        if args.instances > 1:
            log_dir = Path(args.log).parent / "load_test_cluster"
            cluster = stack.enter_context(running_cluster(args.instances, *server_args, log_dir=log_dir, cwd=ROOT,
                                                          timeout=300))
            servers, base_url = cluster.servers, cluster.base_url
            secret = (log_dir / "secret").read_bytes().strip()
        else:
            secret_file = Path(args.log).parent / "load_test.secret"
            secret_file.parent.mkdir(parents=True, exist_ok=True)
            secret_file.write_text(os.urandom(32).hex())
            secret_file.chmod(0o600)
            secret = secret_file.read_bytes().strip()
            servers = [stack.enter_context(running_server(*server_args, "--secret-file", str(secret_file),
                                                          log_path=Path(args.log), cwd=ROOT))]
            base_url = servers[0].base_url
        if not args.anonymous:
            args.token = issue_token(secret, "load test", args.visitors, 2)
            print(f"the visitors come as a class: a class link for {args.visitors} places")
        t = time.monotonic()
        while not all("] ready: " in s.log() for s in servers) and time.monotonic() - t < 300:
            time.sleep(0.5)
        for i, server in enumerate(servers):
            ready_line = next((ln for ln in server.log().splitlines() if "] ready: " in ln), "not ready after 300 s")
            print(f"server {i + 1} {ready_line.split('] ', 1)[-1]}; {len(server.kernel_pids())} kernels running")
        t0 = time.monotonic()
        samplers = [Sampler(server, pss_at=t0 + args.ramp + 5) for server in servers]
        for sampler in samplers:
            sampler.start()
        results: list[Result] = []

        async def run_all() -> None:
            await asyncio.gather(*(visit(i, base_url, args, results) for i in range(args.visitors)))

        asyncio.run(run_all())
        elapsed = time.monotonic() - t0
        for sampler in samplers:
            sampler.stop_event.set()
            sampler.join()
        time.sleep(2)
        left_after_close = sum(len(server.kernel_pids()) for server in servers)
        stray: list[int] = []
        for server, sampler in zip(servers, samplers, strict=True):
            sampler.kernels_seen.update(server.kernel_pids())
            stray += stop_server(server)
        leftovers = [p for sampler in samplers for p in sampler.kernels_seen if psutil.pid_exists(p) and _alive(p)]
        per_instance = [(len(sampler.kernels_seen), sampler.peak_kernels, server.log().count(" opened: kernel "))
                        for server, sampler in zip(servers, samplers, strict=True)]
    sampler = max(samplers, key=lambda x: x.peak_total)

    errors = [r.error for r in results if r.error]
    refused = sum(r.refused for r in results)
    firsts = [r.first_quiz for r in results if r.first_quiz is not None]
    lat = [x for r in results for x in r.latencies]
    server_rss, rss = sampler.peak
    pss = sampler.pss
    mb = 1 / 2**20
    print(f"\nran {elapsed:.0f} s; answers {sum(r.answered for r in results)}; refused (busy page) {refused}; "
          f"errors {len(errors)}")
    for e in errors[:10]:
        print("  ", e)
    print(f"time to first interactive quiz: {fmt_s(firsts)}")
    print(f"click-to-feedback latency:      {fmt_ms(lat)}")
    arrived = t0 + args.ramp + max(firsts or [0])
    during = [x for r in results for x, t in zip(r.latencies, r.clicked_at, strict=True) if t <= arrived]
    after = [x for r in results for x, t in zip(r.latencies, r.clicked_at, strict=True) if t > arrived]
    print(f"  while visitors arrive:        {fmt_ms(during)}")
    print(f"  once all are in:              {fmt_ms(after)}")
    if rss:
        print(f"peak memory (busiest instance): server RSS {server_rss * mb:.0f} MiB; {len(rss)} kernels, RSS {sum(rss) * mb:.0f} MiB "
              f"in all, {statistics.mean(rss) * mb:.0f} MiB per kernel"
              + (f"; PSS {statistics.mean(pss) * mb:.0f} MiB per kernel once all had arrived" if pss else ""))
    closes = [r.close_status for r in results if r.close_status is not None]
    print(f"pages closed by the shutdown beacon: {sum(c == 204 for c in closes)}/{len(closes)}; kernels still running "
          f"before the server stopped: {left_after_close} (the preheated pools)")
    print(f"stray kernels after the server stopped: {len(leftovers)} (killed by the script: {len(stray)})")
    if len(per_instance) > 1:
        for i, (seen, peak, pages) in enumerate(per_instance):
            print(f"instance {i + 1}: {pages} pages opened, {seen} kernels in all, at most {peak} at once")
    ok = (not errors and not refused and not leftovers and lat and firsts
          and quantile(lat, .95) <= 0.150 and quantile(firsts, .95) <= 3.0)
    print("targets (p95 feedback <= 150 ms, p95 first quiz <= 3 s, no errors, nothing left):", "met" if ok else "NOT met")
    return 0 if ok else 1


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


if __name__ == "__main__":
    sys.exit(main())
