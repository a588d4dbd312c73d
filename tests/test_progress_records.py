"""The learner's record as records (issue 23): each answer, run, step, game and setting has an id, a kind and a
time; stores merge records, never overwrite them; an older store is upgraded; two kernels writing one file lose
nothing; lesson 10's step is done by a game; the opponents' level is kept."""

from __future__ import annotations

import json
import multiprocessing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from musteach.teach.path import lesson_map
from musteach.teach.progress import (
    OPPONENTS_LEVEL,
    SCHEMA_VERSION,
    FileStore,
    MemoryStore,
    Progress,
    ProgressError,
    Record,
    RecordKind,
    add_record_sink,
    new_id,
    remove_record_sink,
)

T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)


def full_progress() -> Progress:
    p = Progress()
    p.record("grande", True, at=T0, ms=3000, tries=1)
    p.record("pares", False, at=T0 + timedelta(seconds=5), tries="shown", diagnosis="duples_over_medias")
    p.record_run("04-pares", "jugada", [1.0, 0.5], 2, hints=1, retries=1, at=T0 + timedelta(seconds=9))
    p.record_game(12, 2.4, True, level="beginner", at=T0 + timedelta(minutes=3), review={"game_number": 1})
    p.record_step("04-pares", "pares", "run1", seed=7, n=10, q=0, given=2, at=T0 + timedelta(minutes=4))
    p.set_setting(OPPONENTS_LEVEL, "strong", at=T0 + timedelta(minutes=5))
    return p


def test_every_record_has_an_id_a_kind_a_time_and_a_version_and_is_plain_json():
    p = full_progress()
    recs = p.records()
    assert sorted(r.kind for r in recs) == ["answer", "answer", "game", "run", "setting", "step"]
    for r in recs:
        d = json.loads(r.to_json())
        assert set(d) == {"v", "kind", "id", "at", "data"} and d["v"] == 1 and d["id"] == r.id
        assert Record.from_json(r.to_json()) == r
    answer = next(r for r in recs if r.kind == RecordKind.ANSWER and r.data["skill"] == "pares")
    assert answer.data["tries"] == "shown" and answer.data["diagnosis"] == "duples_over_medias"
    assert Progress.from_records(recs) == p
    assert Progress.from_json(p.to_json()) == p


@pytest.mark.parametrize(
    "raw, word",
    [
        ({"v": 2, "kind": "answer", "id": "a", "at": T0.isoformat(), "data": {}}, "version"),
        ({"v": 1, "kind": "oops", "id": "a", "at": T0.isoformat(), "data": {}}, "kind"),
        ({"v": 1, "kind": "answer", "id": "", "at": T0.isoformat(), "data": {}}, "id"),
        ({"v": 1, "kind": "answer", "id": "a", "at": "yesterday", "data": {}}, "at"),
        ({"v": 1, "kind": "answer", "id": "a", "at": T0.isoformat(), "data": []}, "data"),
    ],
)
def test_a_bad_record_is_refused_naming_the_bad_field(raw, word):
    with pytest.raises(ProgressError, match=word):
        Record.from_dict(raw)


def test_answer_records_keep_tries_and_diagnosis_and_refuse_bad_ones():
    p = Progress()
    p.record("grande", True, at=T0, tries=2, diagnosis="tie_to_mano")
    doc = json.loads(p.to_json())
    assert doc["skills"]["grande"]["reviews"][0][4:] == [2, "tie_to_mano"]
    with pytest.raises(ProgressError, match="tries"):
        p.record("grande", True, tries=3)


def test_two_copies_each_adding_records_merge_without_loss():
    base = full_progress()
    a, b = base.copy(), base.copy()
    ra = a.record_run("04-pares", "jugada", [1.0] * 10, 3)
    rb = b.record_run("04-pares", "pares", [1.0] * 10, 3)
    merged = a.merge(b)
    assert {ra.id, rb.id} <= {r.id for r in merged.runs}
    assert merged.best_stars("04-pares", "jugada") == 3 and merged.best_stars("04-pares", "pares") == 3


def test_records_applied_one_by_one_give_the_same_progress():
    p = full_progress()
    q = Progress()
    for r in reversed(p.records()):
        q.apply([r])
    assert q == p


def test_a_run_in_progress_is_kept_step_by_step_and_dropped_once_finished():
    p = Progress()
    run = new_id()
    p.record_step("04-pares", "pares", run, seed=11, n=10, q=0, given=1, at=T0)
    p.record_step("04-pares", "pares", run, seed=11, n=10, q=1, given=None, hints=1, at=T0 + timedelta(seconds=3))
    steps = Progress.from_json(p.to_json()).open_run("04-pares", "pares")
    assert [s.data["q"] for s in steps] == [0, 1] and steps[1].data["hints"] == 1 and steps[0].data["seed"] == 11
    assert p.open_run("04-pares", "jugada") == ()
    # a newer run of the same quiz replaces the older one
    later = Progress()
    later.record_step("04-pares", "pares", "run2", seed=5, n=10, q=0, given=3, at=T0 + timedelta(minutes=1))
    assert {s.data["run"] for s in p.merge(later).open_run("04-pares", "pares")} == {"run2"}
    p.record_run("04-pares", "pares", [1.0] * 10, 3, run_id=run)
    assert p.open_run("04-pares", "pares") == () and Progress.from_json(p.to_json()).steps == ()


def test_the_latest_setting_wins_in_any_merge_order():
    a, b = Progress(), Progress()
    a.set_setting(OPPONENTS_LEVEL, "beginner", at=T0)
    b.set_setting(OPPONENTS_LEVEL, "strong", at=T0 + timedelta(seconds=1))
    assert a.merge(b).setting(OPPONENTS_LEVEL) == b.merge(a).setting(OPPONENTS_LEVEL) == "strong"
    assert Progress().setting(OPPONENTS_LEVEL, "club") == "club"
    assert Progress.from_json(a.to_json()).setting(OPPONENTS_LEVEL) == "beginner"


def test_a_reset_is_a_record_too():
    p = full_progress()
    reset = Progress.reset(T0 + timedelta(minutes=4, seconds=30))
    after = Progress.from_records([*p.records(), *reset.records()])
    assert after.answered() == 0 and after.runs == () and after.games == () and after.steps == ()
    assert after.setting(OPPONENTS_LEVEL) == "strong"  # chosen after the reset


def test_every_saved_record_goes_through_the_one_sink_once():
    seen: list[str] = []

    def sink(records):
        seen.extend(r.id for r in records)

    add_record_sink(sink)
    try:
        store = MemoryStore()
        p = Progress()
        review = p.record("grande", True)
        store.save(p)
        store.save(p)  # nothing new: no record twice
        run = p.record_run("03-grande-chica", "grande", [1.0], 3)
        store.save(p)
    finally:
        remove_record_sink(sink)
    assert seen == [review.id, run.id]


# ----- an older store is upgraded ------------------------------------------------------------

#: A progress file exactly as today's main (schema version 3) writes it.
V3_DOCUMENT = {
    "schema": "musteach-progress",
    "schema_version": 3,
    "best_streak": 2,
    "skills": {
        "grande": {
            "reviews": [["2025-03-01T18:00:00+00:00", 3, 4000, "a1"], ["2025-03-01T18:01:00+00:00", 3, None, "a2"]]
        },
        "pares": {"reviews": [["2025-03-01T18:02:00+00:00", 1, 9000, "a3"]]},
    },
    "runs": [
        ["2025-03-01T18:05:00+00:00", "r1", "04-pares", "jugada", 9.5, 10, 3, 0, 1],
        ["2025-03-01T18:09:00+00:00", "r2", "04-pares", "pares", 7.0, 10, 2, 2, 0],
    ],
    "games": [["g1", "2025-03-01T18:30:00+00:00", 14, 3.2, True, "club"]],
    "folded_runs": {"03-grande-chica/grande": [3, 4]},
}


def test_a_version_3_file_is_upgraded_on_load_keeping_everything(tmp_path: Path):
    path = tmp_path / "progress.json"
    path.write_text(json.dumps(V3_DOCUMENT), encoding="utf-8")
    store = FileStore(path)
    p = store.load()
    assert p.answered() == 3 and p.right() == 2 and p.best_streak == 2
    assert p.best_stars("04-pares", "jugada") == 3 and p.best_stars("04-pares", "pares") == 2
    assert p.best_stars("03-grande-chica", "grande") == 3 and p.runs_done("03-grande-chica", "grande") == 4
    assert [g.id for g in p.games] == ["g1"] and p.games[0].level == "club"
    assert {r.id for r in p.records()} == {"a1", "a2", "a3", "r1", "r2", "g1"}
    p.record("grande", True, tries=1)
    store.save(p)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["schema_version"] == SCHEMA_VERSION == 4
    again = store.load()
    assert again.answered() == 4 and {"a1", "a2", "a3", "r1", "r2", "g1"} <= again.record_ids()
    assert again.folded_runs == {"03-grande-chica/grande": (3, 4)}


def test_a_version_3_browser_store_is_upgraded_into_records(monkeypatch):
    from musteach_widgets.storage import BrowserStore

    store = BrowserStore()
    sent: list[dict] = []
    monkeypatch.setattr(store, "send", lambda msg, buffers=None: sent.append(msg))
    store._handle_custom_msg({"type": "stored", "value": json.dumps(V3_DOCUMENT), "reason": "load", "error": ""}, [])
    assert store.loaded and store.progress.answered() == 3
    puts = [rid for m in sent if m.get("type") == "put" for rid, _ in m["records"]]
    assert sorted(puts) == ["a1", "a2", "a3", "g1", "r1", "r2"]  # each kept under its own key now
    assert json.loads(store.value)["schema_version"] == SCHEMA_VERSION


def test_browser_records_from_another_writer_are_merged_and_never_written_back(monkeypatch):
    from musteach_widgets.storage import BrowserStore

    other = Progress()
    other_run = other.record_run("04-pares", "pares", [1.0] * 10, 3)
    mine = Progress()
    my_run = mine.record_run("04-pares", "jugada", [1.0] * 10, 3)
    store = BrowserStore()
    sent: list[dict] = []
    monkeypatch.setattr(store, "send", lambda msg, buffers=None: sent.append(msg))
    items = [r.to_json() for r in other.records()]
    store._handle_custom_msg({"type": "records", "items": [*items, "{oops"], "reason": "load"}, [])
    store._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    assert store.unreadable_records == 1
    merged = store.save(mine)
    assert {other_run.id, my_run.id} <= {r.id for r in merged.runs}
    puts = [rid for m in sent if m.get("type") == "put" for rid, _ in m["records"]]
    assert puts == [my_run.id]
    snapshot = Progress.from_json(store.value)
    assert snapshot.best_stars("04-pares", "pares") == 3 and snapshot.best_stars("04-pares", "jugada") == 3


def test_two_stores_of_one_page_share_what_each_saves(monkeypatch):
    from musteach_widgets.storage import BrowserStore

    a, b = BrowserStore(), BrowserStore()
    for s in (a, b):
        monkeypatch.setattr(s, "send", lambda msg, buffers=None: None)
        s._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    pa, pb = a.load(), b.load()
    run_a = pa.record_run("04-pares", "jugada", [1.0] * 10, 3)
    a.save(pa)
    run_b = pb.record_run("04-pares", "pares", [1.0] * 10, 2)
    saved = b.save(pb)
    assert {run_a.id, run_b.id} <= {r.id for r in saved.runs}
    assert {run_a.id, run_b.id} <= {r.id for r in Progress.from_json(b.value).runs}


# ----- two kernels writing one file ----------------------------------------------------------


def _kernel(path: str, who: int, n: int, start: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    store = FileStore(path)
    start.wait()
    for i in range(n):
        p = store.load() if i % 3 == 0 else Progress()  # some saves start from a stale copy, some from nothing
        p.record("grande" if who else "chica", bool(i % 2), at=T0 + timedelta(seconds=i, milliseconds=who))
        if i % 5 == 4:
            p.record_run("03-grande-chica", "grande" if who else "chica", [1.0] * 10, 3)
        store.save(p)


def test_two_kernels_writing_one_file_at_once_lose_nothing(tmp_path: Path):
    path = tmp_path / "progress.json"
    n = 25
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [ctx.Process(target=_kernel, args=(str(path), who, n, start)) for who in (0, 1)]
    for proc in procs:
        proc.start()
    start.set()
    for proc in procs:
        proc.join(120)
        assert proc.exitcode == 0
    p = FileStore(path).load()
    assert p.answered("chica") == n and p.answered("grande") == n
    assert p.runs_done("03-grande-chica", "chica") == n // 5 and p.runs_done("03-grande-chica", "grande") == n // 5


# ----- lesson 10 and the opponents' level ----------------------------------------------------


@pytest.mark.parametrize("level", ["beginner", "club", "strong", "odds"])
def test_a_finished_game_at_any_level_completes_lesson_10(level):
    p = Progress()
    before = {s.lesson.name: s for s in lesson_map(p)}["10-play"]
    assert not before.done
    p.record_game(10, 1.5, False, level=level)
    stop = {s.lesson.name: s for s in lesson_map(Progress.from_json(p.to_json()))}["10-play"]
    assert stop.done and stop.games == 1 and "1 game played" in stop.status_text


def test_the_best_game_keeps_its_review():
    p = Progress()
    p.record_game(10, 3.0, False, at=T0, review={"game_number": 1})
    p.record_game(10, 1.0, True, at=T0 + timedelta(minutes=5), review={"game_number": 2})
    again = Progress.from_json(p.to_json())
    best = again.best_game()
    assert best is not None and best.review == {"game_number": 2}
    assert [g.review for g in again.games if g is not best] == [None]  # only the best one's review is kept


def test_the_opponents_level_is_kept_like_the_rest_of_the_progress(tmp_path: Path):
    from musteach_widgets.table import PlayTable

    store = FileStore(tmp_path / "progress.json")
    table = PlayTable(seed=3, bot="club", store=store, background=False)
    table.level_choice.value = "beginner"
    assert store.load().setting(OPPONENTS_LEVEL) == "beginner"
    again = PlayTable(seed=3, bot="club", store=FileStore(tmp_path / "progress.json"), background=False)
    assert again.bot_kind == "beginner" and again.level_choice.value == "beginner"


def test_the_browser_forgets_the_steps_of_a_finished_run_and_nothing_else(monkeypatch):
    from musteach_widgets.storage import BrowserStore

    kept = Progress()
    done_steps = [
        kept.record_step("04-pares", "pares", "runx", seed=1, n=2, q=q, given=q, at=T0 + timedelta(seconds=q))
        for q in range(2)
    ]
    open_step = kept.record_step("04-pares", "jugada", "runy", seed=2, n=2, q=0, given="par", at=T0)
    items = [r.to_json() for r in (*done_steps, open_step)]
    store = BrowserStore()
    sent: list[dict] = []
    monkeypatch.setattr(store, "send", lambda msg, buffers=None: sent.append(msg))
    store._handle_custom_msg({"type": "records", "items": items, "reason": "load"}, [])
    store._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    assert not [m for m in sent if m["type"] == "forget"]  # both runs still in progress
    p = store.load()
    p.record_run("04-pares", "pares", [1.0, 1.0], 3, run_id="runx")
    store.save(p)
    forgotten = [i for m in sent if m["type"] == "forget" for i in m["ids"]]
    assert sorted(forgotten) == sorted(s.id for s in done_steps)
    assert [s.id for s in store.load().open_run("04-pares", "jugada")] == [open_step.id]


def test_the_browser_forgets_the_steps_of_a_run_replaced_by_a_later_one(monkeypatch):
    from musteach_widgets.storage import BrowserStore

    p = Progress()
    old = p.record_step("04-pares", "pares", "old", seed=1, n=2, q=0, given=1, at=T0)
    new = p.record_step("04-pares", "pares", "new", seed=1, n=2, q=0, given=1, at=T0 + timedelta(seconds=5))
    store = BrowserStore()
    sent: list[dict] = []
    monkeypatch.setattr(store, "send", lambda msg, buffers=None: sent.append(msg))
    store._handle_custom_msg({"type": "records", "items": [old.to_json(), new.to_json()], "reason": "load"}, [])
    store._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    assert [i for m in sent if m["type"] == "forget" for i in m["ids"]] == [old.id]


def test_the_opponents_level_kept_in_the_browser_comes_back_after_a_reload(monkeypatch):
    from musteach_widgets.storage import BrowserStore
    from musteach_widgets.table import PlayTable

    kept = Progress()
    kept.set_setting(OPPONENTS_LEVEL, "beginner")
    store = BrowserStore()
    monkeypatch.setattr(store, "send", lambda msg, buffers=None: None)
    table = PlayTable(seed=3, bot="club", store=store, background=False)
    assert table.bot_kind == "club"  # the page is drawn before the browser has answered
    store._handle_custom_msg({"type": "records", "items": [r.to_json() for r in kept.records()], "reason": "load"}, [])
    store._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    assert table.bot_kind == "beginner" and table.level_choice.value == "beginner" and not table.errors
    settings = [r for r in store.progress.records() if r.kind == RecordKind.SETTING]
    assert [r for r in settings if r.data["name"] == OPPONENTS_LEVEL] == list(kept.settings.values())
    assert store.progress.setting("table_game") == table.session.saved_game()  # and the match in progress


def test_a_reset_saved_to_the_browser_is_a_record_that_empties_every_copy(monkeypatch):
    from musteach_widgets.storage import BrowserStore

    store = BrowserStore()
    sent: list[dict] = []
    monkeypatch.setattr(store, "send", lambda msg, buffers=None: sent.append(msg))
    items = [r.to_json() for r in full_progress().records()]
    store._handle_custom_msg({"type": "records", "items": items, "reason": "load"}, [])
    store._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    store.save(Progress.reset())
    put = [Record.from_json(text) for m in sent if m["type"] == "put" for _, text in m["records"]]
    assert [r.kind for r in put] == [RecordKind.RESET]
    everything = Progress.from_records([*(Record.from_json(i) for i in items), *put])
    assert everything.answered() == 0 and everything.runs == () and everything.games == ()


def test_the_pages_load_is_answered_and_a_copy_of_it_is_read_once(monkeypatch):
    """The page sends its load (records, then "stored", with a load id) again until the kernel answers
    {"type": "loaded"} (storage.js): each copy is answered, only the first is read (a quiz would re-pick its
    question on every copy)."""
    from musteach_widgets.storage import BrowserStore

    kept = Progress()
    kept.record_run("04-pares", "pares", [1.0] * 10, 3)
    store = BrowserStore()
    sent: list[dict] = []
    heard: list[Progress] = []
    store.on_change(heard.append)
    monkeypatch.setattr(store, "send", lambda msg, buffers=None: sent.append(msg))
    items = [r.to_json() for r in kept.records()]
    for _copy in range(3):
        store._handle_custom_msg({"type": "records", "items": items, "reason": "load", "load": "L1"}, [])
        store._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": "", "load": "L1"}, [])
    assert store.loaded and store.progress.best_stars("04-pares", "pares") == 3
    assert [m for m in sent if m["type"] == "loaded"] == [{"type": "loaded", "load": "L1"}] * 3
    assert len(heard) == 1, "the listeners hear the load once"
    # a page without the handshake (an older storage.js) is read as before, and gets no answer
    old = BrowserStore()
    old_sent: list[dict] = []
    monkeypatch.setattr(old, "send", lambda msg, buffers=None: old_sent.append(msg))
    old._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    assert old.loaded and not [m for m in old_sent if m["type"] == "loaded"]


def test_a_load_in_parts_is_answered_after_its_last_part(monkeypatch):
    from musteach_widgets.storage import BrowserStore

    text = Progress().to_json()
    store = BrowserStore()
    sent: list[dict] = []
    monkeypatch.setattr(store, "send", lambda msg, buffers=None: sent.append(msg))
    half = len(text) // 2
    for _copy in range(2):
        for index, data in enumerate((text[:half], text[half:])):
            store._handle_custom_msg({"type": "stored_part", "id": "p", "index": index, "count": 2, "data": data,
                                      "reason": "load", "load": "L2"}, [])
    assert store.loaded and not store.notices
    assert [m for m in sent if m["type"] == "loaded"] == [{"type": "loaded", "load": "L2"}] * 2
