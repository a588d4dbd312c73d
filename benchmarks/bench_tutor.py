"""How fast the tutor feels in a browser: Voilà serving the lessons, Debian's Chromium opening them.

For every lesson, with a fresh page (in Voilà a new page gets a new kernel):

* **first button**: from the page request to the first quiz answer button being visible and enabled,
  measured in the page (``performance.now()`` counts from the navigation start);
* **answer → feedback**: from a click on an answer (or on Check) to the verdict appearing in the feedback
  box, measured in the page with a MutationObserver; several questions of the lesson's first quiz.

By default the lessons are served by ``musteach serve`` (what ``make tutor`` runs); ``--plain`` serves them
with bare Voilà instead, which starts every page's kernel on demand. Prints a table; stops the server.

    .venv/bin/python benchmarks/bench_tutor.py [--plain] [--serve-args "--pool-size 0"] [--loads 2] [--clicks 6]
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import browser_helpers as bh

FIRST_BUTTON_JS = """() => {
  const b = document.querySelector('.musteach-quiz .musteach-answer');
  return b && !b.disabled && b.offsetParent !== null ? performance.now() : false;
}"""

# Click `button` and resolve with the ms until `.musteach-verdict` shows in the quiz's feedback box.
CLICK_JS = """([quiz, button]) => new Promise((resolve, reject) => {
  const fb = quiz.querySelector('.musteach-feedback');
  const t0 = performance.now();
  const obs = new MutationObserver(() => {
    if (fb.querySelector('.musteach-verdict')) { obs.disconnect(); resolve(performance.now() - t0); }
  });
  obs.observe(fb, {subtree: true, childList: true, characterData: true});
  setTimeout(() => { obs.disconnect(); reject(new Error('no feedback within 30 s')); }, 30000);
  button.click();
})"""

READY_JS = """q => !q.querySelector('.musteach-feedback .musteach-verdict')
  && [...q.querySelectorAll('.musteach-answer')].some(b => !b.disabled)"""


def _answer_button(page, quiz):
    """Make the first quiz ready to be graded by one click, and return that button."""
    total = quiz.locator(".musteach-total-input input")
    if total.count():  # TotalQuiz: type a total, Check grades it
        total.fill("30")
        return quiz.locator(".musteach-check")
    if quiz.locator(".musteach-undo").count():  # RankQuiz: place every card, Check grades the order
        cards = quiz.locator(".musteach-answer")
        for i in range(cards.count()):
            cards.nth(i).click()
        check = quiz.locator(".musteach-check")
        page.wait_for_function("b => !b.disabled", arg=check.element_handle())
        return check
    return quiz.locator(".musteach-answer").first


def bench_lesson(browser, base: str, path: Path, loads: int, clicks: int) -> dict:
    first, feedback = [], []
    for load in range(loads):
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(f"{base}/voila/render/{path.name}", wait_until="commit")
        first.append(page.wait_for_function(FIRST_BUTTON_JS, polling="raf").json_value())
        if load == 0:
            quiz = page.locator(".musteach-quiz").first
            for i in range(clicks):
                button = _answer_button(page, quiz)
                feedback.append(page.evaluate(CLICK_JS, [quiz.element_handle(), button.element_handle()]))
                if i + 1 < clicks:
                    quiz.locator(".musteach-next").click()
                    page.wait_for_function(READY_JS, arg=quiz.element_handle())
        context.close()
        time.sleep(1.0)  # let the server shut that kernel down (and refill its pool) before the next page
    return {"first": first, "feedback": feedback}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plain", action="store_true", help="bare Voilà instead of musteach serve")
    ap.add_argument("--loads", type=int, default=2, help="fresh page loads per lesson (default 2)")
    ap.add_argument("--clicks", type=int, default=6, help="answers timed per lesson (default 6)")
    ap.add_argument("--lessons", nargs="*", default=None, help="lesson names to measure (default: every lesson)")
    ap.add_argument("--serve-args", default="", help='more server options, e.g. "--pool-size 0" (cold kernels)')
    args = ap.parse_args(argv)
    missing = bh.browser_missing()
    if missing:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 2
    lessons = bh.lesson_paths()
    log = Path(tempfile.mkdtemp(prefix="bench-tutor-")) / "voila.log"
    extra = tuple(shlex.split(args.serve_args))
    server = "bare Voilà (kernel started per page)" if args.plain else "musteach serve"
    server += f" {' '.join(extra)}" if extra else ""
    t0 = time.perf_counter()
    rows = []
    with bh.voila_server(log, plain=args.plain, extra=extra) as base:
        started = time.perf_counter() - t0
        with bh.chromium() as browser:
            time.sleep(2.0)  # a pre-started kernel pool (musteach serve) gets a moment to fill
            for path in lessons:
                if args.lessons and path.stem not in args.lessons:
                    continue
                try:
                    r = bench_lesson(browser, base, path, args.loads, args.clicks)
                except Exception as exc:  # a lesson that times out is reported, the others still measured
                    print(f"{path.stem}: {type(exc).__name__}: {str(exc).splitlines()[0]}", flush=True)
                    continue
                fb = r["feedback"]
                print(f"  {path.stem}: first button {[round(x) for x in r['first']]} ms; "
                      f"feedback {[round(x) for x in fb]} ms", flush=True)
                rows.append((path.stem, r))
    print(f"server: {server}; answered HTTP after {started:.1f} s; {args.loads} loads and {args.clicks} answers per lesson")
    print(f"{'lesson':<18} {'first button ms (each load)':>30} {'feedback ms median':>19} {'max':>7}")
    for stem, r in rows:
        loads = " / ".join(f"{x:.0f}" for x in r["first"])
        fb = r["feedback"]
        med = f"{statistics.median(fb):.0f}" if fb else "-"
        mx = f"{max(fb):.0f}" if fb else "-"
        print(f"{stem:<18} {loads:>30} {med:>19} {mx:>7}")
    all_first = [x for _, r in rows for x in r["first"]]
    all_fb = [x for _, r in rows for x in r["feedback"]]
    print(f"{'all lessons':<18} {'median ' + format(statistics.median(all_first), '.0f') + ', max ' + format(max(all_first), '.0f'):>30}"
          f" {statistics.median(all_fb):>19.0f} {max(all_fb):>7.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
