"""The static site (``musteach site``): its size, and each lesson's time to an answerable quiz in the browser.

Builds the site (or uses ``--site DIR``), serves it on 127.0.0.1 with a plain file server, and opens every lesson of
every language in Debian's Chromium with every request to another host blocked and counted: once cold (a new
browser profile: Pyodide and the wheels are downloaded) and once warm (the same profile again: the browser cache
has them). Prints, per lesson, the seconds until the lesson's cells have run and its first answer button (or the
table's first action) is on screen, then the site's size.

    .venv/bin/python benchmarks/bench_site.py [--site DIR] [--lessons 03 es/12 ...]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import browser_helpers as bh  # noqa: E402  # the tests' Chromium settings
from musteach_server.lessons import list_lessons, list_translations  # noqa: E402
from musteach_server.site import build_site  # noqa: E402

READY = ".musteach-answer:not([disabled]), .musteach-action:not([disabled]), .musteach-map, .musteach-senas-catalogue"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _paths(only: list[str]) -> list[str]:
    lessons = {"en": list_lessons(bh.LESSONS), **list_translations(bh.LESSONS)}
    out = [x.name if lang == "en" else f"{lang}/{x.name}" for lang, items in lessons.items() for x in items]
    return [p for p in out if not only or any(p.startswith(o) for o in only)]


TRACEBACKS: list[str] = []


def _time_lesson(context, base: str, path: str, blocked: list[str]) -> float | None:
    page = context.new_page()
    page.set_default_timeout(240_000)
    try:
        t0 = time.perf_counter()
        page.goto(f"{base}/notebooks/index.html?path={path}", wait_until="domcontentloaded")
        page.locator("body.musteach-ran").wait_for(state="attached")
        page.locator(READY).first.wait_for(state="visible", timeout=60_000)
        took = time.perf_counter() - t0
        shown = page.evaluate("() => [...document.querySelectorAll('.jp-OutputArea-output')].map(e => e.innerText)"
                              ".filter(t => /Traceback|Error:/.test(t))")
        if shown:
            TRACEBACKS.append(f"{path}: {shown[0][:300]}")
        return took
    except Exception as exc:  # a lesson that never gets ready is reported, not fatal
        print(f"  {path}: not ready ({type(exc).__name__})", file=sys.stderr)
        return None
    finally:
        page.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, help="a site already built (default: build one in a temporary folder)")
    ap.add_argument("--lessons", nargs="*", default=[], help="only these lessons (prefixes: 03, es/12)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="musteach-site-"))
    try:
        site = args.site
        if site is None:
            t0 = time.perf_counter()
            site = tmp / "site"
            summary = build_site(site, lessons=bh.LESSONS, project=ROOT, cache=ROOT / ".venv" / "site-cache")
            print(f"built in {time.perf_counter() - t0:.1f} s: {summary['lessons']} lessons, {len(summary['wheels'])} wheels")
        files = [p for p in site.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        pyodide = sum(p.stat().st_size for p in (site / "static" / "pyodide").rglob("*") if p.is_file())
        print(f"site: {size / 1e6:.1f} MB in {len(files)} files (Pyodide and the wheels {pyodide / 1e6:.1f} MB); "
              f"source maps: {sum(1 for p in files if p.suffix == '.map')}")
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        from playwright.sync_api import sync_playwright

        blocked: list[str] = []
        cold: dict[str, float | None] = {}
        warm: dict[str, float | None] = {}
        with sync_playwright() as pw:
            for path in _paths(args.lessons):
                profile = tmp / "profile" / path.replace("/", "-")
                for results in (cold, warm):  # the same profile twice: the second visit has the browser cache
                    context = pw.chromium.launch_persistent_context(
                        str(profile), executable_path=str(bh.CHROMIUM), args=bh.CHROMIUM_ARGS, headless=True,
                        viewport={"width": 1000, "height": 900})
                    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(base)
                                  else (blocked.append(r.request.url), r.abort()))
                    results[path] = _time_lesson(context, base, path, blocked)
                    context.close()
                c, w = cold[path], warm[path]
                print(f"{path:34s} cold {c if c is None else round(c, 1):>6} s   warm {w if w is None else round(w, 1):>6} s",
                      flush=True)
        server.shutdown()
        done = [v for v in cold.values() if v is not None], [v for v in warm.values() if v is not None]
        for name, values in zip(("cold", "warm"), done, strict=True):
            if values:
                print(f"{name}: median {statistics.median(values):.1f} s, max {max(values):.1f} s over {len(values)} lessons")
        print(f"requests to other hosts: {len(blocked)}; lessons showing a traceback: {len(TRACEBACKS)}")
        for t in TRACEBACKS:
            print("  " + t)
        return 0 if not blocked and not TRACEBACKS and all(v is not None for v in (*cold.values(), *warm.values())) else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
