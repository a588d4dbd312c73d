"""How fast the tutor feels in a browser: Voilà serving the lessons, Debian's Chromium opening them.

In each of ``--rounds`` rounds, every lesson is opened once with a fresh page (in Voilà a new page gets a
new kernel), and so is a trivial one-button notebook served by the same server (``99-trivial``, preheated
like a lesson: the floor that Voilà, the browser and the machine set):

* **first button**: from the page request to the first quiz answer button being visible and enabled,
  measured in the page (``performance.now()`` counts from the navigation start);
* **answer → feedback** (first round): from a click on an answer (or on Check) to the verdict appearing in
  the feedback box, measured in the page with a MutationObserver; ``--clicks`` questions of EVERY quiz of
  the lesson (so every quiz kind), the first click after the page load included; a quiz whose run of
  questions ends first is started again. A wrong first answer's feedback is the retry message; the second
  try is answered untimed. Then a summary per quiz kind (``LanceQuiz grande``, ``SenaQuiz fit``...: the
  lessons holding it, its clicks, median, max and each quiz's first click).

Issue 16's targets: the slowest first button of every lesson within 2.5x the trivial notebook's median;
feedback median at most 30 ms and max at most 80 ms for every quiz. By default the lessons are served by
``musteach serve`` (what ``make tutor`` runs); ``--plain`` serves them with bare Voilà instead, which starts
every page's kernel on demand. Prints a table and the machine's load; stops the server.

    .venv/bin/python benchmarks/bench_tutor.py [--plain] [--serve-args "--pool-size 0"] [--rounds 2] [--clicks 20]
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import browser_helpers as bh

#: What a learner presses to answer: an answer button, or a card to place in order (the practice's card order).
ANSWER = ":is(.musteach-answer, .musteach-place)"

FIRST_BUTTON_JS = """() => {
  const b = [...document.querySelectorAll('.musteach-quiz ANSWER')].find(b => !b.disabled);
  return b && b.offsetParent !== null ? performance.now() : false;
}""".replace("ANSWER", ANSWER)

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

# Press Next (or Start again once the run is over) as soon as it is enabled: a click in the page, as CLICK_JS's,
# since a mouse click at the button's place can miss it while the rest of the verdict still moves the layout.
GO_ON_JS = """q => {
  const b = [...q.querySelectorAll('.musteach-next, .musteach-restart')].find(b => b.offsetParent !== null && !b.disabled);
  if (b) b.click();
  return !!b;
}"""

READY_JS = """q => !q.querySelector('.musteach-feedback .musteach-verdict')
  && [...q.querySelectorAll('ANSWER')].some(b => !b.disabled)""".replace("ANSWER", ANSWER)


def _answer_button(page, quiz):
    """Make the quiz's open question ready to be graded by one click, and return that button."""
    total = quiz.locator(".musteach-total-input input")
    if total.count():  # a total to type (TotalQuiz, practice): type one, Check grades it
        total.fill("30")
        return quiz.locator(".musteach-check")
    if quiz.locator(".musteach-undo").count():  # card order (RankQuiz, practice): place every card, Check grades
        cards = quiz.locator(".musteach-answer:not(.musteach-check):not(:disabled), .musteach-place:not(:disabled)")
        for _ in range(8):
            if not cards.count():
                break
            card = cards.first.element_handle()
            card.evaluate("b => b.click()")
            page.wait_for_function("b => b.disabled", arg=card, timeout=10_000)  # placed: the next one
        check = quiz.locator(".musteach-check")
        page.wait_for_function("b => !b.disabled", arg=check.element_handle(), timeout=10_000)
        return check
    return quiz.locator(".musteach-answer:not(:disabled)").first


TRIVIAL = "99-trivial.ipynb"
#: The trivial notebook: one quiz-like box with one answer button, no musteach import.
TRIVIAL_CELL = (
    "import ipywidgets as w\n"
    "b = w.Button(description='go'); b.add_class('musteach-answer')\n"
    "box = w.VBox([w.HTML('<b>A trivial page</b>'), b]); box.add_class('musteach-quiz')\n"
    "box"
)


def write_lessons(folder: Path) -> Path:
    """The lessons copied into ``folder``, with the trivial notebook beside them."""
    shutil.copytree(bh.LESSONS, folder)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Trivial"), nbformat.v4.new_code_cell(TRIVIAL_CELL)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, folder / TRIVIAL)
    return folder


def open_page(browser, base: str, name: str):
    """A fresh context and page on lesson ``name``; returns (context, page, first-button ms)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{base}/voila/render/{name}", wait_until="commit")
    return context, page, page.wait_for_function(FIRST_BUTTON_JS, polling="raf").json_value()


def time_clicks(page, clicks: int) -> list[list[float]]:
    """Feedback ms of ``clicks`` answers in each quiz of the page (one list per quiz, in page order). A quiz
    whose run ends before ``clicks`` answers is started again (Start again), so every quiz gets them all."""
    out = []
    quizzes = page.locator(".musteach-quiz:not(.musteach-map)")  # the lesson map has no answers
    for q in range(quizzes.count()):
        quiz = quizzes.nth(q)
        if not quiz.locator(".musteach-feedback").count():  # not a graded quiz (e.g. a map)
            continue
        quiz.scroll_into_view_if_needed()
        page.wait_for_function(READY_JS, arg=quiz.element_handle())
        times = []
        for i in range(clicks):
            button = _answer_button(page, quiz)
            times.append(page.evaluate(CLICK_JS, [quiz.element_handle(), button.element_handle()]))
            if i + 1 < clicks:
                try:  # a question this script cannot finish (e.g. a count to type) ends that quiz's timing
                    finish_question(page, quiz)
                    page.wait_for_function(GO_ON_JS, arg=quiz.element_handle(), timeout=10_000)
                    page.wait_for_function(READY_JS, arg=quiz.element_handle(), timeout=10_000)
                except Exception as exc:
                    print(f"    (quiz {len(out) + 1}: {len(times)} answers timed; {type(exc).__name__}: {str(exc).splitlines()[0][:160]})", flush=True)
                    break
        out.append(times)
    return out


#: A quiz in a lesson's code: ``LanceQuiz("grande", ...)``, ``SenaQuiz(mode="fit", ...)``, ``PracticeQuiz(...)``.
QUIZ_CALL = re.compile(r"\b(\w+Quiz)\((?:(?:mode|kind)=)?(?:\"(\w+)\")?(?:[^)]*\baims=\"(\w+)\")?")


def quiz_kinds(notebook: Path) -> list[str]:
    """The kind of every quiz of a lesson, in page order: its class and what it asks (``LanceQuiz grande``,
    ``SenaQuiz fit``, ``CountQuiz``; ``LanceQuiz grande tie_to_mano`` for a quiz of one instructive kind)."""
    kinds = []
    for cell in nbformat.read(notebook, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        for m in QUIZ_CALL.finditer(cell.source):
            only = re.search(r"kinds=\[\"(\w+)\"\]", cell.source[m.start():])
            kinds.append(" ".join(x for x in (m[1], m[2], m[3], only and only[1]) if x))
    return kinds


def wait_ready(log: Path, timeout: float) -> None:
    """Wait until ``musteach serve`` logs that its preheated kernels have run their lessons (at most
    ``timeout`` s): pages measured while the pools fill would measure the filling."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and "] ready: " not in log.read_text(errors="replace"):
        time.sleep(0.5)
    time.sleep(2.0)


ANSWERABLE_JS = f"q => [...q.querySelectorAll('{ANSWER}')].some(b => !b.disabled)"
NEXT_READY_JS = """q => [...q.querySelectorAll('.musteach-next, .musteach-restart')]
  .some(b => b.offsetParent !== null && !b.disabled)"""


AGAIN_JS = """q => {
  const b = [...q.querySelectorAll('.musteach-answer:not(.musteach-tried)')].find(b => !b.disabled);
  if (b) b.click();
  return !!b;
}"""


def finish_question(page, quiz) -> None:
    """After a wrong first answer the question stays open for one more try (the retry message counts as the
    feedback timed): answer again, untimed, until Next (or Start again, once the run is over) opens."""
    for _ in range(6):
        page.wait_for_function(f"q => ({NEXT_READY_JS})(q) || ({ANSWERABLE_JS})(q)", arg=quiz.element_handle(),
                               timeout=10_000)
        if page.evaluate(NEXT_READY_JS, quiz.element_handle()):
            return
        if quiz.locator(".musteach-total-input, .musteach-undo").count():
            _answer_button(page, quiz).dispatch_event("click", timeout=10_000)
        else:  # another answer, not the wrong one again (in the page: it may close while we look)
            page.evaluate(AGAIN_JS, quiz.element_handle())
        page.wait_for_timeout(200)


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def print_kinds(folder: Path, names: list[str], clicks: dict[str, list[list[float]]]) -> None:
    """Feedback per quiz kind (every lesson's quizzes of that kind together): clicks, median, max, and the
    first click of each quiz after its page loaded."""
    by_kind: dict[str, list[float]] = {}
    firsts: dict[str, list[float]] = {}
    where: dict[str, list[str]] = {}
    for name in names:
        kinds = quiz_kinds(folder / name)
        timed = clicks.get(name, [])
        if timed and len(kinds) != len(timed):
            print(f"  ({name}: {len(timed)} quizzes timed but {len(kinds)} in its code: kinds by position)")
        for q, fb in enumerate(timed):
            kind = kinds[q] if q < len(kinds) else f"quiz #{q + 1}"
            by_kind.setdefault(kind, []).extend(fb)
            firsts.setdefault(kind, []).extend(fb[:1])
            where.setdefault(kind, []).append(name[:2])
    print(f"{'quiz kind':<30} {'lessons':>8} {'clicks':>6} {'median ms':>10} {'max ms':>7} {'first click ms':>15}  target")
    for kind, fb in by_kind.items():
        if not fb:
            continue
        med, mx = statistics.median(fb), max(fb)
        ok = "ok" if med <= 30 and mx <= 80 else "MISSED"
        first = " / ".join(f"{x:.0f}" for x in firsts[kind])
        print(f"{kind:<30} {','.join(where[kind]):>8} {len(fb):>6} {med:>10.0f} {mx:>7.0f} {first:>15}  {ok}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plain", action="store_true", help="bare Voilà instead of musteach serve")
    ap.add_argument("--rounds", type=int, default=2, help="rounds over every lesson (default 2)")
    ap.add_argument("--trivial", type=int, default=3, help="trivial-notebook loads per round (default 3)")
    ap.add_argument("--clicks", type=int, default=20, help="answers timed per quiz (default 20)")
    ap.add_argument("--lessons", nargs="*", default=None, help="lesson names to measure (default: every lesson)")
    ap.add_argument("--serve-args", default="", help='more server options, e.g. "--pool-size 0" (cold kernels)')
    args = ap.parse_args(argv)
    missing = bh.browser_missing()
    if missing:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="bench-tutor-"))
    folder = write_lessons(tmp / "lessons")
    names = [p.name for p in sorted(folder.glob("[0-9][0-9]-*.ipynb")) if p.name != TRIVIAL]
    names = [n for n in names if not args.lessons or n.removesuffix(".ipynb") in args.lessons]
    extra = tuple(shlex.split(args.serve_args))
    server = "bare Voilà (kernel started per page)" if args.plain else "musteach serve"
    server += f" {' '.join(extra)}" if extra else ""
    print(f"at start: {_load()}", flush=True)
    first: dict[str, list[float]] = {n: [] for n in [*names, TRIVIAL]}
    clicks: dict[str, list[list[float]]] = {}
    t0 = time.perf_counter()
    if not args.plain:  # every trivial load of a round finds a preheated kernel, as a lesson's does
        extra = (*extra, "--pool", f"{TRIVIAL.removesuffix('.ipynb')}={args.trivial}")
    with bh.voila_server(tmp / "voila.log", plain=args.plain, extra=(*extra, "--lessons", str(folder))) as base:
        started = time.perf_counter() - t0
        with bh.chromium() as browser:
            wait_ready(tmp / "voila.log", 0 if args.plain else 300)
            print(f"pools filled {time.perf_counter() - t0:.1f} s after start; {_load()}", flush=True)
            for rnd in range(args.rounds):
                for name in [TRIVIAL] * args.trivial + names:
                    try:
                        context, page, ms = open_page(browser, base, name)
                        first[name].append(ms)
                        if rnd == 0 and name != TRIVIAL:
                            clicks[name] = time_clicks(page, args.clicks)
                        context.close()
                    except Exception as exc:  # a lesson that times out is reported, the others still measured
                        print(f"{name}: {type(exc).__name__}: {str(exc).splitlines()[0]}", flush=True)
                        continue
                    print(f"  {time.strftime('%H:%M:%S')} round {rnd + 1} {name}: first button {ms:.0f} ms"
                          + (f"; feedback {[[round(x) for x in q] for q in clicks.get(name, [])]} ms" if rnd == 0 and name != TRIVIAL else ""),
                          flush=True)
                    time.sleep(1.0)  # let the server shut that kernel down (and refill its pool) before the next page
    print(f"server: {server}; answered HTTP after {started:.1f} s; {args.rounds} rounds, {args.clicks} answers per quiz")
    print(f"at end: {_load()}")
    opened = re.findall(r"page (\S+) opened: kernel \S+ \((preheated|started for it)\)", (tmp / "voila.log").read_text())
    cold = sorted(name for name, how in opened if how != "preheated")
    print(f"pages opened: {len(opened)}, {len(opened) - len(cold)} on a preheated kernel; cold: {', '.join(cold) or 'none'}")
    print(f"{'lesson':<18} {'first button ms (each round)':>30} {'quiz':>5} {'feedback median':>16} {'max':>6}")
    for name in [TRIVIAL, *names]:
        loads = " / ".join(f"{x:.0f}" for x in first[name])
        quizzes = clicks.get(name) or [[]]
        for q, fb in enumerate(quizzes):
            med = f"{statistics.median(fb):.0f}" if fb else "-"
            mx = f"{max(fb):.0f}" if fb else "-"
            label = name.removesuffix(".ipynb") if q == 0 else ""
            print(f"{label:<18} {loads if q == 0 else '':>30} {('#' + str(q + 1)) if fb else '':>5} {med:>16} {mx:>6}")
    trivial = [x for x in first[TRIVIAL]]
    lesson_first = [x for n in names for x in first[n]]
    all_fb = [x for n in names for q in clicks.get(n, []) for x in q]
    if trivial and lesson_first:
        floor = statistics.median(trivial)
        print(f"first button: trivial median {floor:.0f} ms; lessons median {statistics.median(lesson_first):.0f}, "
              f"slowest {max(lesson_first):.0f} ms = {max(lesson_first) / floor:.2f}x the trivial median (target <= 2.5x)")
    if all_fb:
        worst_med = max(statistics.median(q) for n in names for q in clicks.get(n, []) if q)
        print(f"feedback over every quiz: median {statistics.median(all_fb):.0f} ms, max {max(all_fb):.0f} ms; "
              f"the worst quiz's median {worst_med:.0f} ms (targets: median <= 30, max <= 80)")
        print_kinds(folder, names, clicks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
