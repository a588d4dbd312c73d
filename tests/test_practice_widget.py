"""The practice widget (musteach_widgets.practice) and its stores, driven by simulated clicks.

As in test_widgets.py, click handlers are called directly so an exception in one fails the test, and a
test fails if a widget recorded a handler error (``widget.errors``). Every test keeps its progress file
in a temporary folder (``MUSTEACH_PROGRESS_FILE``) and runs outside Voilà.
"""

from __future__ import annotations

import base64
import html
import json
import re
from datetime import UTC, datetime, timedelta

import ipywidgets as widgets
import musteach_widgets as mw
import pytest
from musteach_widgets import practice as practice_module
from musteach_widgets import storage as storage_module
from musteach_widgets.practice import BettingSource, CountSource, PracticeQuiz, QuizSource, Shown, SkillSource
from musteach_widgets.storage import BrowserStore, open_store

from musteach.teach.progress import SCHEMA_VERSION, FileStore, MemoryStore, Progress, ProgressError
from musteach.teach.quiz import QuizError
from musteach.teach.verdict import Verdict
from musteach.teach.wording import for_learner

pytestmark = pytest.mark.usefixtures("strict_widgets")

T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, start: datetime = T0):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def tick(self, **kw) -> None:
        self.now += timedelta(**kw)


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    """No real user data folder, no Voilà environment."""
    monkeypatch.setenv("MUSTEACH_PROGRESS_FILE", str(tmp_path / "user" / "progress.json"))
    for name in storage_module.VOILA_ENV:
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "user" / "progress.json"


def classes(w: widgets.DOMWidget) -> set[str]:
    return set(w._dom_classes)


def mastery_rows(quiz) -> dict[str, tuple[int, int]]:
    """{skill: (mastery %, answers)} read from the mastery view's HTML."""
    rows = re.findall(r'data-skill="([\w.-]+)" data-mastery="(\d+)" data-answered="(\d+)"', quiz.mastery_view.value)
    return {s: (int(m), int(n)) for s, m, n in rows}


def answer(quiz, right: bool = True) -> Verdict:
    """Answer the question on screen through its controls, rightly or wrongly, whatever its kind; a wrong
    answer is given at both tries (the first leaves the question open for one more)."""
    _answer_once(quiz, right)
    if quiz.outcome is None and not right:
        assert quiz.item.turn.attempt.may_retry and "musteach-wrong" in quiz.feedback.value
        _answer_once(quiz, right, second=True)
    assert quiz.outcome is not None, f"{quiz.skill}: no verdict"
    return quiz.outcome


def _answer_once(quiz, right: bool, second: bool = False) -> None:
    q, skill = quiz.question, quiz.skill
    controls = quiz.answer_controls
    if skill in ("betting", "count"):
        box = quiz.answer_box.children[0]
        key = q.answer
        if skill == "betting":
            a, b = box.children[0], box.children[1]
            a.value, b.value = key["A"] + (0 if right else 1), key["B"]
        else:
            rows = [r for r in box.children if isinstance(r, widgets.HBox)]
            for row, lance in zip(rows, q.result.lances, strict=True):
                row.children[1].value = key[lance.value]["A"] + (0 if right else 1)
                row.children[2].value = key[lance.value]["B"]
        controls[0].click()
    elif skill == "rank_order":
        order = q.answer if right else tuple(reversed(q.answer))
        if not right and all(c.rank == order[0].rank for c in order):
            order = q.answer
        box = quiz.answer_box.children[0]
        buttons = {b.description: b for b in box.children[0].children}
        for card in order:
            buttons[q.label_of(card)].click()
        controls[0].click()
    elif skill in ("juego_total", "punto_total"):
        box = quiz.answer_box.children[0]
        box.value = str(q.answer if right else q.answer + 1 + second)
        controls[0].click()
    else:
        values = [v for v, _ in q.choices]
        open_ = [v for v, b in zip(values, controls, strict=True) if not b.disabled]
        wanted = q.answer if right else next(v for v in open_ if not (type(v) is type(q.answer) and v == q.answer))
        i = next(i for i, v in enumerate(values) if type(v) is type(wanted) and v == wanted)
        controls[i].click()


# ----------------------------------------------------------------------------------------------
# Layout and every kind of question
# ----------------------------------------------------------------------------------------------


def test_layout_and_every_skill_of_every_source_is_offered():
    quiz = PracticeQuiz(n=10, seed=1, store="memory")
    assert {"musteach-quiz", "musteach-practice"} <= classes(quiz)
    wanted = [s for src in practice_module.SOURCES for s, _ in src.skills]
    assert list(quiz.skills) == wanted
    for skill in ("grande", "chica", "pares", "juego", "punto", "rank_order", "jugada", "juego_total",
                  "punto_total", "betting", "count"):  # fmt: skip
        assert skill in quiz.skills
    assert set(mastery_rows(quiz)) == set(wanted)
    assert all(v == (0, 0) for v in mastery_rows(quiz).values())
    assert "no answers yet" in quiz.totals.value
    assert quiz.score.value == html.escape("Round: 0/0 · streak 0 · best streak 0")
    assert "Question 1 of 10" in quiz.status.value and "a new skill" in quiz.status.value
    assert quiz.next_button.disabled and quiz.feedback.value == ""
    for cls in ("musteach-export", "musteach-import", "musteach-next"):
        assert any(cls in classes(w) for w in _walk(quiz)), cls


def _walk(w):
    yield w
    for c in getattr(w, "children", ()):
        yield from _walk(c)


@pytest.mark.parametrize("skill", [s for src in practice_module.SOURCES for s, _ in src.skills])
@pytest.mark.parametrize("right", [True, False], ids=["right", "wrong"])
def test_each_skill_answered_right_or_wrong_by_its_controls(skill, right):
    clock = Clock()
    quiz = PracticeQuiz(n=10, skills=[skill], seed=3, store="memory", clock=clock)
    assert quiz.skill == skill
    clock.tick(seconds=20)
    outcome = answer(quiz, right)
    assert outcome.correct is right
    fb = quiz.feedback.value
    assert ("musteach-right" in fb) is right and ("musteach-wrong" in fb) is (not right)
    assert html.escape(outcome.headline) in fb
    assert all(html.escape(for_learner(step)) in fb for step in outcome.reasons)
    assert quiz.progress.answered(skill) == 1 and quiz.progress.right(skill) == int(right)
    review = quiz.progress.record_of(skill).reviews[0]
    assert review.ms == 20_000 and review.at == clock.now
    assert all(getattr(c, "disabled", True) for c in quiz.answer_controls)
    assert not quiz.next_button.disabled
    assert mastery_rows(quiz)[skill] == ((20 if right else 0), 1)
    due = "in 10 min" if right else "in 1 min"
    assert due in quiz.mastery_view.value


def test_a_lance_answer_lights_the_winner_and_marks_the_buttons():
    quiz = PracticeQuiz(skills=["grande"], seed=5, store="memory", tries=1)
    q = quiz.question
    wrong = (q.answer + 1) % 4
    quiz.answer_controls[wrong].click()
    assert re.search(rf'data-seat="{q.answer}"[^>]*data-highlight="true"', quiz.picture.value)
    assert quiz.answer_controls[wrong].button_style == "danger"
    assert quiz.answer_controls[q.answer].button_style == "success"
    assert html.escape(f"Not quite: seat {q.answer} wins Grande.") in quiz.feedback.value
    quiz.answer_controls[q.answer].click()  # a second click is ignored
    assert quiz.progress.answered() == 1


def test_a_typed_slip_is_a_hint_not_an_answer():
    quiz = PracticeQuiz(skills=["juego_total"], seed=2, store="memory")
    box = quiz.answer_box.children[0]
    box.value = "lots"
    quiz.answer_controls[0].click()
    assert "musteach-hint" in quiz.feedback.value and "not a whole number" in quiz.feedback.value
    assert quiz.progress.answered() == 0 and quiz.outcome is None
    box.value = str(quiz.question.answer)
    quiz.answer_controls[0].click()
    assert quiz.outcome.correct and quiz.progress.answered() == 1


# ----------------------------------------------------------------------------------------------
# Score, streak, rounds, the adaptive choice
# ----------------------------------------------------------------------------------------------


def test_score_streak_round_and_mastery_update():
    clock = Clock()
    quiz = PracticeQuiz(n=3, skills=["grande", "chica", "jugada"], seed=7, store="memory", clock=clock)
    results = [True, True, False]
    for i, right in enumerate(results):
        clock.tick(seconds=30)
        answer(quiz, right)
        if i < 2:
            quiz.next_button.click()
    assert quiz.score.value == html.escape("Round: 2/3 · streak 0 · best streak 2")
    assert html.escape("All time: 3 answers, 2 right (67%).") in quiz.totals.value
    assert "musteach-finished" in quiz.feedback.value
    assert "Round finished: 2 of 3 at the first try, 0 at the second, 1 shown (67%)" in quiz.feedback.value
    assert quiz.next_button.description == "Next round"
    quiz.next_button.click()
    assert "Question 1 of 3" in quiz.status.value and quiz.next_button.description == "Next"
    assert quiz.score.value.startswith(html.escape("Round: 0/0"))
    assert html.escape("All time: 3 answers") in quiz.totals.value
    answered = {s: n for s, (_, n) in mastery_rows(quiz).items()}
    assert sum(answered.values()) == 3


def test_a_failed_skill_comes_back_sooner_in_the_widget():
    """Fail Grande, pass the others: Grande is asked far more often, and the view says why."""
    clock = Clock()
    skills = ["grande", "chica", "pares", "jugada"]
    quiz = PracticeQuiz(n=100, skills=skills, seed=11, store="memory", clock=clock)
    asked = []
    for _ in range(60):
        asked.append(quiz.skill)
        clock.tick(seconds=30)
        answer(quiz, right=quiz.skill != "grande")
        quiz.next_button.click()
    counts = {s: asked.count(s) for s in skills}
    assert set(asked) == set(skills)
    assert counts["grande"] > 1.5 * max(counts[s] for s in skills if s != "grande"), counts
    rows = mastery_rows(quiz)
    assert rows["grande"][0] == 0 and all(rows[s][0] == 100 for s in skills if s != "grande")
    assert re.search(r'class="musteach-skill musteach-weak[^"]*" data-skill="grande"', quiz.mastery_view.value)


def test_an_easy_rating_needs_a_fast_streak():
    clock = Clock()
    quiz = PracticeQuiz(skills=["jugada"], seed=1, store="memory", clock=clock)
    for secs in (3, 3, 3, 40):
        clock.tick(seconds=secs)
        answer(quiz, True)
        quiz.next_button.click()
    ratings = [r.rating for r in quiz.progress.record_of("jugada").reviews]
    assert ratings == [3, 3, 4, 3]  # Good, Good, Easy (3rd fast in a row), Good (slow)


# ----------------------------------------------------------------------------------------------
# Progress that lasts: the file store
# ----------------------------------------------------------------------------------------------


def test_auto_outside_voila_keeps_progress_in_the_user_file(isolated):
    quiz = PracticeQuiz(skills=["grande", "chica"], seed=1)
    assert isinstance(quiz.store, FileStore) and quiz.store.path == isolated
    assert not isolated.exists(), "opening the practice writes nothing"
    for _ in range(3):
        answer(quiz, True)
        quiz.next_button.click()
    assert isolated.exists() and FileStore(isolated).load().answered() == 3
    assert str(isolated) in quiz.storage_line.value
    again = PracticeQuiz(skills=["grande", "chica"], seed=2)  # the next visit
    assert html.escape("All time: 3 answers") in again.totals.value
    assert sum(n for _, n in mastery_rows(again).values()) == 3
    assert again.progress == quiz.progress


def test_two_notebooks_at_once_lose_nothing(isolated):
    a = PracticeQuiz(skills=["grande"], seed=1)
    b = PracticeQuiz(skills=["chica"], seed=2)
    answer(a, True)
    answer(b, False)  # b saves after a: the file merges both
    assert b.progress.answered() == 2
    a.next_button.click()
    answer(a, True)
    assert a.progress.answered() == 3 and FileStore(isolated).load().answered() == 3


def test_a_corrupt_file_is_set_aside_and_the_learner_told(isolated):
    isolated.parent.mkdir(parents=True)
    isolated.write_text('{"schema": "musteach-progress", "schema_version": 1, "skills": {', encoding="utf-8")
    quiz = PracticeQuiz(skills=["grande"], seed=1)
    [aside] = list(isolated.parent.glob("progress.json.corrupt-*"))
    assert aside.read_text(encoding="utf-8").startswith('{"schema"')
    assert "musteach-notice-box" in quiz.notice.value and "could not be read" in quiz.notice.value
    assert html.escape(aside.name) in quiz.notice.value
    answer(quiz, True)
    assert FileStore(isolated).load().answered() == 1


def test_an_outdated_file_is_set_aside_and_reported(isolated):
    isolated.parent.mkdir(parents=True)
    isolated.write_text(
        json.dumps({"schema": "musteach-progress", "schema_version": 0, "skills": {}}), encoding="utf-8"
    )
    quiz = PracticeQuiz(skills=["grande"], seed=1)
    assert "another version of musteach" in html.unescape(quiz.notice.value)
    assert len(list(isolated.parent.glob("progress.json.corrupt-*"))) == 1


def test_a_disk_that_refuses_the_write_shows_a_notice_and_keeps_the_answer(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="file", path=str(blocker / "progress.json"))
    answer(quiz, True)
    assert "could not be saved" in quiz.notice.value and quiz.progress.answered() == 1
    assert quiz.errors == [] and not quiz.next_button.disabled


# ----------------------------------------------------------------------------------------------
# Export and import
# ----------------------------------------------------------------------------------------------


def _upload(quiz, data: bytes, name: str = "progress.json") -> None:
    """What the browser sends when a file is chosen in the FileUpload."""
    quiz.upload.set_state(
        {
            "value": [
                {
                    "name": name,
                    "type": "application/json",
                    "size": len(data),
                    "content": memoryview(data),
                    "last_modified": 0,
                }
            ]
        }
    )


def test_export_gives_a_download_link_of_the_progress():
    quiz = PracticeQuiz(skills=["grande", "jugada"], seed=4, store="memory")
    answer(quiz, True)
    quiz.next_button.click()
    answer(quiz, False)
    quiz.export_button.click()
    m = re.search(
        r'download="(musteach-progress-[\d-]+\.json)" href="data:application/json;base64,([^"]+)"',
        quiz.export_link.value,
    )
    assert m, quiz.export_link.value
    doc = Progress.from_json(base64.b64decode(m.group(2)))
    assert doc == quiz.progress and doc.answered() == 2


def test_import_merges_a_file_and_reports_it():
    home = PracticeQuiz(skills=["grande"], seed=1, store="memory")
    answer(home, True)
    away = PracticeQuiz(skills=["grande", "chica"], seed=2, store=MemoryStore())
    for _ in range(2):
        answer(away, False)
        away.next_button.click()
    _upload(home, away.export_json().encode("utf-8"), "from-club.json")
    assert home.progress.answered() == 3 and home.progress.review_ids() >= away.progress.review_ids()
    assert "Imported from-club.json: 2 new answers added" in html.unescape(home.notice.value)
    assert home.upload.value == (), "the upload is cleared for the next file"
    assert html.escape("All time: 3 answers") in home.totals.value
    _upload(home, away.export_json().encode("utf-8"), "again.json")  # the same file again adds nothing
    assert home.progress.answered() == 3 and "0 new answers" in home.notice.value


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not json at all", "not valid JSON"),
        (b'{"hello": 1}', "not a musteach progress file"),
        (json.dumps({"schema": "musteach-progress", "schema_version": 7}).encode(), "newer musteach"),
        (b"\xff\xfe\x00", "not a text file"),
    ],
)
def test_a_bad_import_is_refused_kindly_and_changes_nothing(data, message):
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="memory")
    answer(quiz, True)
    before = quiz.progress.to_json()
    _upload(quiz, data, "mine.json")
    text = html.unescape(quiz.notice.value)
    assert "mine.json could not be imported" in text and message in text and "unchanged" in text
    assert quiz.progress.to_json() == before and quiz.errors == []
    with pytest.raises(ProgressError):
        quiz.import_json(data)


# ----------------------------------------------------------------------------------------------
# Progress that lasts: the browser store (the JavaScript side simulated by its messages)
# ----------------------------------------------------------------------------------------------


def browser_says(store: BrowserStore, value, reason: str = "load", error: str = "") -> None:
    store._handle_custom_msg({"type": "stored", "value": value, "reason": reason, "error": error}, [])


def test_auto_in_voila_keeps_progress_in_the_browser_only(monkeypatch, isolated):
    monkeypatch.setenv("VOILA_KERNEL_ID", "abc")
    assert storage_module.in_voila()
    quiz = PracticeQuiz(skills=["grande", "chica"], seed=1)
    store = quiz.store
    assert isinstance(store, BrowserStore) and store in quiz.children
    assert "Looking for your saved progress" in quiz.storage_line.value
    answer(quiz, True)  # before the browser has answered: kept, not written
    assert store.value == ""
    saved = Progress()
    saved.record("chica", False, at=T0)
    saved.record("grande", True, at=T0 + timedelta(minutes=1))
    browser_says(store, saved.to_json())
    assert quiz.progress.answered() == 3, "what the browser held is merged with this visit's answer"
    assert Progress.from_json(store.value) == quiz.progress
    assert html.escape("All time: 3 answers") in quiz.totals.value
    assert "kept in this browser" in quiz.storage_line.value
    quiz.next_button.click()
    answer(quiz, False)
    assert Progress.from_json(store.value).answered() == 4
    assert not isolated.exists() and not isolated.parent.exists(), "nothing on the server's disk"


def test_a_fresh_browser_starts_from_nothing():
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="browser")
    browser_says(quiz.store, None)
    assert quiz.store.loaded and "no answers yet" in quiz.totals.value
    assert Progress.from_json(quiz.store.value) == Progress()


def test_another_tab_of_the_same_browser_is_merged():
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="browser")
    browser_says(quiz.store, None)
    answer(quiz, True)
    other = Progress()
    other.record("grande", False, at=T0)
    browser_says(quiz.store, other.to_json(), reason="other-tab")
    assert quiz.progress.answered() == 2 and Progress.from_json(quiz.store.value).answered() == 2


def test_corrupt_progress_in_the_browser_is_kept_aside_and_reported(monkeypatch):
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="browser")
    sent = []
    monkeypatch.setattr(quiz.store, "send", lambda content, buffers=None: sent.append(content))
    browser_says(quiz.store, '{"schema": "musteach-progress", "schema_version": 1, "skills": {"grande": 5}}')
    [msg] = sent
    assert msg["type"] == "set_aside" and msg["name"].startswith("musteach-progress.corrupt-")
    assert msg["value"].startswith('{"schema"')
    assert "could not be read" in quiz.notice.value and msg["name"] in quiz.notice.value
    answer(quiz, True)
    assert Progress.from_json(quiz.store.value).answered() == 1


def test_a_browser_without_storage_is_reported():
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="browser")
    browser_says(quiz.store, None, error="SecurityError: The operation is insecure.")
    assert "does not let the tutor keep your progress" in quiz.notice.value
    assert "Export" in quiz.storage_line.value
    quiz.store._handle_custom_msg({"type": "saved", "ok": False, "error": "QuotaExceededError"}, [])
    answer(quiz, True)
    assert "QuotaExceededError" in quiz.notice.value and quiz.progress.answered() == 1


def test_open_store_choices(tmp_path):
    assert isinstance(open_store("memory"), MemoryStore)
    assert isinstance(open_store("browser"), BrowserStore)
    assert open_store("file", path=tmp_path / "p.json").path == tmp_path / "p.json"
    mine = MemoryStore()
    assert open_store(mine) is mine
    with pytest.raises(ProgressError, match="store must be"):
        open_store("cloud")
    with pytest.raises(ProgressError, match="store must be"):
        PracticeQuiz(store=42)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------------------------
# Errors and plug-ins
# ----------------------------------------------------------------------------------------------


def test_bad_options_raise_quiz_errors():
    with pytest.raises(QuizError, match="unknown practice skill"):
        PracticeQuiz(skills=["poker"], store="memory")
    with pytest.raises(QuizError, match="whole number"):
        PracticeQuiz(n=0, store="memory")


def test_a_failing_handler_shows_a_friendly_message_and_keeps_the_progress(monkeypatch, strict_widgets):
    quiz = PracticeQuiz(skills=["grande", "chica"], seed=1, store="memory")
    answer(quiz, True)
    quiz.next_button.click()
    source = quiz.item.source

    def broken(question, response):
        raise RuntimeError("injected failure")

    monkeypatch.setattr(source, "grade", broken)
    quiz.answer_controls[0].click()
    assert len(quiz.errors) == 1 and isinstance(quiz.errors[0], RuntimeError)
    assert html.escape(mw.FRIENDLY_ERROR) in quiz.feedback.value
    assert "injected" not in quiz.feedback.value and "Traceback" not in quiz.feedback.value
    assert quiz.progress.answered() == 1 and html.escape("All time: 1 answer,") in quiz.totals.value
    assert all(c.disabled for c in quiz.answer_controls) and not quiz.next_button.disabled
    monkeypatch.undo()
    quiz.errors.clear()
    quiz.next_button.click()
    answer(quiz, True)
    assert quiz.progress.answered() == 2


class ToySource(SkillSource):
    """A plug-in: "is this number even?" (stands for señas and the like)."""

    name = "toy"
    skills = (("toy.even", "Even numbers"),)

    def make(self, skill, rng, rules):
        return rng.randrange(100)

    def show(self, question, submit):
        yes = widgets.Button(description="Even")
        no = widgets.Button(description="Odd")
        yes.on_click(lambda _b: submit(True))
        no.on_click(lambda _b: submit(False))

        def mark(o):
            yes.disabled = no.disabled = True

        return Shown(f"Is {question} even?", "", [yes, no], mark, answer_controls=[yes, no])

    def grade(self, question, response):
        ok = response == (question % 2 == 0)
        return Verdict.of(
            ok, "Right!" if ok else "Not quite.", (f"{question} is {'even' if question % 2 == 0 else 'odd'}.",)
        )


def test_a_plug_in_source_joins_the_practice_and_its_progress():
    quiz = PracticeQuiz(sources=[*practice_module.SOURCES, ToySource()], skills=["toy.even"], seed=1, store="memory")
    assert quiz.skill == "toy.even" and "Even numbers" in quiz.status.value
    q = quiz.question
    quiz.answer_controls[0 if q % 2 == 0 else 1].click()
    assert quiz.outcome.correct and quiz.progress.answered("toy.even") == 1
    assert "toy.even" in mastery_rows(quiz)


def test_register_source_refuses_a_name_already_taken(monkeypatch):
    monkeypatch.setattr(practice_module, "SOURCES", list(practice_module.SOURCES))
    with pytest.raises(QuizError, match="already used"):
        practice_module.register_source(QuizSource())
    toy = practice_module.register_source(ToySource())
    assert toy in practice_module.SOURCES
    assert "toy.even" in PracticeQuiz(seed=1, store="memory").skills
    assert isinstance(BettingSource(), SkillSource) and isinstance(CountSource(), SkillSource)


# ----------------------------------------------------------------------------------------------
# Big or unreadable progress is never silent; fake counts are refused
# ----------------------------------------------------------------------------------------------


def _send_in_parts(store: BrowserStore, text: str, size: int = 32_000, pid: str = "1-1") -> None:
    """What storage.js sends for a long value: ``stored_part`` messages, in order."""
    parts = [text[i : i + size] for i in range(0, len(text), size)]
    for index, data in enumerate(parts):
        store._handle_custom_msg(
            {"type": "stored_part", "id": pid, "index": index, "count": len(parts), "data": data, "reason": "load"},
            [],
        )


def _old_big_progress(answers: int = 2_000) -> str:
    """A version 1 document as an older musteach saved it (answers as objects, up to 200 per skill)."""
    skills = ["grande", "chica", "pares", "juego", "punto", "jugada", "rank_order"]
    doc = {"schema": "musteach-progress", "schema_version": 1, "best_streak": 0, "skills": {}}
    for i in range(answers):
        skill = skills[i % len(skills)]
        review = {
            "id": f"{i:032x}",
            "at": (T0 + timedelta(minutes=i)).isoformat(),
            "correct": i % 3 != 0,
            "rating": 3 if i % 3 else 1,
            "ms": 4000,
        }
        doc["skills"].setdefault(skill, {"reviews": []})["reviews"].append(review)
    for rec in doc["skills"].values():  # version 1 folded all but the last 200 into the base
        rec["reviews"] = rec["reviews"][-200:]
    doc["best_streak"] = 2
    return json.dumps(doc, indent=None)


def test_a_long_progress_comes_from_the_browser_in_parts_and_goes_back_small():
    text = _old_big_progress()
    assert len(text) > 100_000
    quiz = PracticeQuiz(skills=["grande", "chica"], seed=1, store="browser")
    _send_in_parts(quiz.store, text)
    assert quiz.store.loaded and "could not be read" not in quiz.notice.value
    expected = Progress.from_json(text)
    assert quiz.progress == expected and quiz.progress.answered() == expected.answered()
    assert len(quiz.store.value) < 30_000, "written back compact and trimmed"
    assert json.loads(quiz.store.value)["schema_version"] == SCHEMA_VERSION


def test_progress_in_damaged_parts_is_kept_aside_and_reported(monkeypatch):
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="browser")
    sent = []
    monkeypatch.setattr(quiz.store, "send", lambda content, buffers=None: sent.append(content))
    store = quiz.store
    store._handle_custom_msg(
        {"type": "stored_part", "id": "a", "index": 0, "count": 3, "data": "{", "reason": "load"}, []
    )
    store._handle_custom_msg(
        {"type": "stored_part", "id": "a", "index": 2, "count": 3, "data": "}", "reason": "load"}, []
    )
    [msg] = sent
    assert msg == {"type": "set_aside", "name": msg["name"], "value": None}
    assert store.loaded and "could not be read" in quiz.notice.value and msg["name"] in quiz.notice.value
    answer(quiz, True)
    assert Progress.from_json(store.value).answered() == 1


def test_progress_too_big_for_the_browser_to_send_is_reported(monkeypatch):
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="browser")
    sent = []
    monkeypatch.setattr(quiz.store, "send", lambda content, buffers=None: sent.append(content))
    quiz.store._handle_custom_msg(
        {"type": "stored", "value": None, "reason": "load", "error": "", "too_big": 6_000_000}, []
    )
    [msg] = sent
    assert msg["type"] == "set_aside" and msg["value"] is None
    text = html.unescape(quiz.notice.value)
    assert "too large to be read (6,000,000 characters)" in text and msg["name"] in text
    assert quiz.store.loaded and "Looking for" not in quiz.storage_line.value


def test_progress_that_breaks_the_reader_in_another_way_is_still_reported(monkeypatch):
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="browser")
    monkeypatch.setattr(quiz.store, "send", lambda content, buffers=None: None)

    def boom(*_a, **_k):
        raise ValueError("unexpected")

    monkeypatch.setattr(storage_module.Progress, "from_json", boom)
    browser_says(quiz.store, '{"schema": "musteach-progress"}')
    assert "could not be read" in quiz.notice.value and quiz.store.loaded


def test_a_fake_best_streak_is_not_imported():
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="memory")
    answer(quiz, True)
    fake = Progress()
    fake.record("grande", True, at=T0)
    doc = fake.to_dict() | {"best_streak": 10**30}
    _upload(quiz, json.dumps(doc).encode(), "cheat.json")
    text = html.unescape(quiz.notice.value)
    assert "cheat.json could not be imported" in text and "'best_streak' is 1" in text and "unchanged" in text
    assert quiz.progress.best_streak == 1 and str(10**30) not in quiz.score.value
    assert quiz.errors == []


def test_an_import_that_breaks_the_reader_is_reported_not_silent(monkeypatch):
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="memory")

    def boom(*_a, **_k):
        raise ValueError("unexpected")

    monkeypatch.setattr(practice_module.Progress, "from_json", boom)
    _upload(quiz, b"{}", "odd.json")
    assert "odd.json could not be imported" in html.unescape(quiz.notice.value)
    assert quiz.upload.value == ()


def test_a_too_big_import_is_refused_kindly():
    quiz = PracticeQuiz(skills=["grande"], seed=1, store="memory")
    _upload(quiz, b" " * (practice_module.MAX_IMPORT_BYTES + 1), "huge.json")
    assert "huge.json could not be imported" in html.unescape(quiz.notice.value)
    assert "too big" in quiz.notice.value


def test_the_first_pick_uses_the_progress_the_browser_sends(isolated):
    """Issue 12 item 5: after a reload the first question is picked from the saved progress, so a skill
    practised before is not called "a new skill"."""
    quiz = PracticeQuiz(skills=["grande", "chica"], seed=1, store="browser")
    assert quiz.item.pick.reason == "new"  # nothing known yet: the browser has not answered
    saved = Progress()
    for i in range(4):
        saved.record("grande", True, at=datetime.now(UTC) - timedelta(days=30, minutes=i))
        saved.record("chica", True, at=datetime.now(UTC) - timedelta(days=30, minutes=i))
    browser_says(quiz.store, saved.to_json())
    assert quiz.item.pick.reason in ("due", "weak")
    assert "a new skill" not in quiz.status.value


# ----------------------------------------------------------------------------------------------
# Hints and a second try, as in every quiz (issue 12)
# ----------------------------------------------------------------------------------------------

MARKED = re.compile(r'data-card="(\w+)" data-marked="true"')


def test_practice_hint_then_second_try_scores_and_rates_like_the_quizzes():
    from musteach.teach.tutor import question_hints, retry_text

    quiz = PracticeQuiz(n=2, skills=["grande"], seed=5, store="memory")
    q = quiz.question
    step1, step2 = question_hints(q)
    assert not quiz.hint_button.disabled and "musteach-hint" in classes(quiz.hint_button)
    quiz.hint_button.click()
    assert step1.text in html.unescape(quiz.feedback.value) and not MARKED.search(quiz.picture.value)
    quiz.hint_button.click()
    assert step2.text in html.unescape(quiz.feedback.value) and quiz.hint_button.disabled
    assert set(MARKED.findall(quiz.picture.value)) == {q.hands[m.seat].cards[i].code for m in step2.marks for i in m.cards}
    wrong = next(s for s in range(4) if s != q.answer)
    quiz.answer_controls[wrong].click()
    fb = html.unescape(quiz.feedback.value)
    assert quiz.outcome is None and retry_text(q, wrong, hint_left=False) in fb and f"seat {q.answer} wins" not in fb
    assert quiz.answer_controls[wrong].disabled and quiz.answer_controls[wrong].button_style == "danger"
    assert not quiz.answer_controls[q.answer].disabled and quiz.progress.answered() == 0
    quiz.answer_controls[q.answer].click()
    assert quiz.outcome.correct and quiz.item.turn.attempt.points == 0.0  # second try: no star point (issue 23)
    (review,) = quiz.progress.record_of("grande").reviews
    assert not review.correct and review.rating == 1  # a second-try success is a lapse: Again
    quiz.next_button.click()
    assert not quiz.hint_button.disabled
    answer(quiz, True)  # clean: a full point
    done = html.unescape(quiz.feedback.value)
    assert "Round finished: 1 of 2 at the first try, 1 at the second, 0 shown (50%). ★☆☆ (1 of 2 points; 2 hints, 1 second try)." in done
    assert quiz.progress.record_of("grande").reviews[-1].rating == 3


@pytest.mark.parametrize("skill", ["jugada", "juego_total", "rank_order", "betting", "count"])
def test_every_practice_kind_hints_and_gives_one_more_try(skill):
    quiz = PracticeQuiz(n=3, skills=[skill], seed=3, store="memory")
    before = quiz.picture.value
    quiz.hint_button.click()
    quiz.hint_button.click()
    assert "Hint 2 of 2:" in quiz.feedback.value and quiz.hint_button.disabled
    if skill in ("jugada", "rank_order", "juego_total"):
        assert quiz.picture.value != before and MARKED.search(quiz.picture.value), "step 2 rings the deciding cards"
    _answer_once(quiz, right=False)
    assert quiz.outcome is None and "One more try." in html.unescape(quiz.feedback.value)
    _answer_once(quiz, right=True)
    assert quiz.outcome.correct and quiz.item.turn.attempt.points == 0.0
    assert quiz.progress.answered(skill) == 1 and quiz.progress.right(skill) == 0  # a lapse (issue 23)


def test_one_try_practice_and_a_plug_in_without_hints():
    quiz = PracticeQuiz(skills=["grande"], seed=5, store="memory", tries=1)
    answer(quiz, False)
    assert quiz.progress.answered("grande") == 1 and quiz.item.turn.attempt.wrong == 1
    toy = PracticeQuiz(sources=[*practice_module.SOURCES, ToySource()], skills=["toy.even"], seed=1, store="memory")
    assert toy.hint_button.disabled  # the tutor has no hints for a plug-in's questions
    q = toy.question
    toy.answer_controls[1 if q % 2 == 0 else 0].click()
    assert toy.outcome is None and "Look again. One more try." in toy.feedback.value
    toy.answer_controls[0 if q % 2 == 0 else 1].click()
    assert toy.outcome.correct and toy.progress.record_of("toy.even").reviews[-1].rating == 1  # a lapse
    with pytest.raises(QuizError, match="tries must be 1 or 2"):
        PracticeQuiz(store="memory", tries=3)
