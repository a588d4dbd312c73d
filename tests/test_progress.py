"""The practice progress model (musteach.teach.progress): FSRS scheduling per skill, choosing the next skill,
mastery, JSON round trips, merging, and the file store (atomic writes, corrupt files, two writers)."""

from __future__ import annotations

import collections
import json
import multiprocessing
import os
import random
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Rating, State
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musteach import MusError
from musteach.teach import progress as pm
from musteach.teach.progress import (
    FileStore,
    MemoryStore,
    Progress,
    ProgressError,
    ProgressSchemaError,
    choose_skill,
    rating_for,
    skill_weights,
)

T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
SKILLS = ["grande", "chica", "pares", "juego", "punto", "jugada"]


def at(minutes: float = 0, days: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, days=days)


# ----------------------------------------------------------------------------------------------
# FSRS per skill
# ----------------------------------------------------------------------------------------------


def test_a_failed_skill_comes_back_sooner_than_a_passed_one():
    p = Progress()
    p.record("grande", False, at=at())
    p.record("chica", True, at=at())
    assert p.due("grande") < p.due("chica")
    assert p.due("grande") - at() == timedelta(minutes=1)  # FSRS's first learning step
    assert p.due("chica") - at() == timedelta(minutes=10)


def test_intervals_grow_for_a_skill_answered_well_and_stay_short_for_one_answered_badly():
    p = Progress()
    now = at()
    for _ in range(6):  # one practice session a day, each skill answered once when due
        p.record("chica", True, at=max(now, p.due("chica")) if not p.is_new("chica") else now)
        p.record("grande", False, at=max(now, p.due("grande")) if not p.is_new("grande") else now)
        now += timedelta(days=1)
    good, bad = p.card("chica"), p.card("grande")
    assert good.state is State.Review and bad.state is not State.Review
    assert good.due - good.last_review >= timedelta(days=3)
    assert bad.due - bad.last_review <= timedelta(minutes=10)
    assert p.retrievability("chica", now) > 0.5


def test_ratings_again_good_and_easy_on_a_fast_streak():
    p = Progress()
    assert rating_for(p, "jugada", False, 1000) is Rating.Again
    assert rating_for(p, "jugada", True, 1000) is Rating.Good  # no streak yet
    p.record("jugada", True, at=at(0), ms=2000)
    p.record("jugada", True, at=at(1), ms=2000)
    assert p.skill_streak("jugada") == 2
    assert rating_for(p, "jugada", True, 2000) is Rating.Easy  # makes 3 in a row, fast
    assert rating_for(p, "jugada", True, pm.FAST_MS + 1) is Rating.Good  # too slow for Easy
    assert rating_for(p, "jugada", True, None) is Rating.Good  # time unknown
    r = p.record("jugada", True, at=at(2), ms=1500)
    assert r.rating == Rating.Easy
    r = p.record("jugada", False, at=at(3), ms=1500)
    assert r.rating == Rating.Again and p.skill_streak("jugada") == 0


def test_record_refuses_bad_input_with_a_named_error():
    p = Progress()
    with pytest.raises(ProgressError, match="skill name"):
        p.record("Grande!", True, at=at())
    with pytest.raises(ProgressError, match="timezone-aware"):
        p.record("grande", True, at=datetime(2025, 1, 1))
    with pytest.raises(ProgressError, match="cannot be rated"):
        p.record("grande", False, at=at(), rating=Rating.Good)
    with pytest.raises(ProgressError, match="True or False"):
        p.record("grande", 1, at=at())  # type: ignore[arg-type]
    assert isinstance(ProgressError("x"), MusError) and p.answered() == 0


# ----------------------------------------------------------------------------------------------
# Choosing the next skill
# ----------------------------------------------------------------------------------------------


def simulate(weak: set[str], picks: int, seed: int, step=timedelta(seconds=30)) -> tuple[Progress, list[str]]:
    """A learner who gets ``weak`` skills wrong and the others right, answering every 30 seconds."""
    p, rng, now, last, seen = Progress(), random.Random(seed), at(), None, []
    for _ in range(picks):
        pick = choose_skill(p, SKILLS, now, rng=rng, last=last)
        p.record(pick.skill, pick.skill not in weak, at=now, ms=4000)
        seen.append(pick.skill)
        last, now = pick.skill, now + step
    return p, seen


@pytest.mark.parametrize("seed", range(5))
def test_weak_skills_come_up_more_often_and_new_ones_are_not_starved(seed):
    p, seen = simulate({"pares"}, 240, seed)
    counts = collections.Counter(seen)
    assert set(counts) == set(SKILLS)
    first = {s: seen.index(s) for s in SKILLS}
    assert max(first.values()) < 30, f"a new skill waited too long: {first}"
    others = [counts[s] for s in SKILLS if s != "pares"]
    assert counts["pares"] > 1.5 * max(others), counts
    assert p.mastery("pares", at(days=0.2)) == 0.0
    assert all(p.mastery(s, at(minutes=120)) == 1.0 for s in SKILLS if s != "pares")


def test_the_weights_favour_overdue_and_weak_skills():
    p = Progress()
    p.record("grande", True, at=at(0))
    p.record("chica", False, at=at(0))
    for i in range(5):
        p.record("pares", True, at=at(i))
    now = at(30)  # everything is due by now
    w = skill_weights(p, ["grande", "chica", "pares", "punto"], now)
    assert w["punto"].reason == "new" and w["chica"].reason == "weak"
    assert w["chica"].weight > w["grande"].weight > w["pares"].weight
    # just after the answers, nothing is due: the skills wait ("ahead") with small weights
    soon = skill_weights(p, ["grande", "chica", "pares"], at(5.5))
    assert soon["grande"].reason == "ahead" and soon["grande"].weight < 0.25
    assert soon["chica"].reason in ("weak", "due")  # failed at 0: due after one minute
    # the skill just asked is seldom asked again at once
    again = skill_weights(p, ["grande", "chica"], now, last="chica")
    assert again["chica"].weight == pytest.approx(w["chica"].weight * 0.1)


def test_new_skills_keep_a_quarter_of_the_chances_however_much_is_due():
    p = Progress()
    skills = [f"s{i}" for i in range(10)] + ["fresh"]
    for s in skills[:-1]:
        p.record(s, False, at=at(0))
    w = skill_weights(p, skills, at(days=3))
    total = sum(x.weight for x in w.values())
    assert w["fresh"].reason == "new" and w["fresh"].weight / total == pytest.approx(pm.NEW_SHARE)


def test_choose_skill_is_reproducible_and_refuses_no_skills():
    p = Progress()
    a = [choose_skill(p, SKILLS, at(), rng=random.Random(3)).skill for _ in range(3)]
    b = [choose_skill(p, SKILLS, at(), rng=random.Random(3)).skill for _ in range(3)]
    assert a == b
    with pytest.raises(ProgressError, match="no skills"):
        choose_skill(p, [], at())


# ----------------------------------------------------------------------------------------------
# Mastery, streaks, totals
# ----------------------------------------------------------------------------------------------


def test_mastery_needs_five_right_and_fades_with_time():
    p = Progress()
    assert p.mastery("juego", at()) == 0.0
    for i in range(4):
        p.record("juego", True, at=at(i * 15))
    assert p.mastery("juego", at(60)) == pytest.approx(4 / 5)
    p.record("juego", True, at=at(60))
    assert p.mastery("juego", at(61)) == 1.0
    later = p.mastery("juego", at(days=60))
    assert 0 < later < 1.0, "retrievability fades the bar"
    for i in range(5):
        p.record("juego", False, at=at(days=60, minutes=i))
    assert p.mastery("juego", at(days=60, minutes=10)) == pytest.approx(0.5, abs=0.05)


def test_streak_best_streak_and_totals_across_skills():
    p = Progress()
    answers = [("grande", True), ("chica", True), ("pares", True), ("grande", False), ("juego", True), ("punto", True)]
    for i, (s, ok) in enumerate(answers):
        p.record(s, ok, at=at(i))
    assert p.streak == 2 and p.best_streak == 3
    assert (p.answered(), p.right(), p.answered("grande"), p.right("grande")) == (6, 5, 2, 1)


# ----------------------------------------------------------------------------------------------
# JSON, merging, the history limit
# ----------------------------------------------------------------------------------------------

answer_lists = st.lists(
    st.tuples(st.sampled_from(SKILLS), st.booleans(), st.integers(0, 60 * 24 * 30)), min_size=0, max_size=25
)


def build(answers) -> Progress:
    p = Progress()
    for s, ok, minute in answers:
        p.record(s, ok, at=at(minute))
    return p


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer_lists, answer_lists)
def test_json_round_trip_and_merge_lose_nothing(a, b):
    pa, pb = build(a), build(b)
    text = pa.to_json()
    back = Progress.from_json(text)
    assert back == pa and back.to_json() == text
    for s in SKILLS:
        assert back.card(s).to_dict() == pa.card(s).to_dict()
    merged = pa.merge(pb)
    assert merged.review_ids() == pa.review_ids() | pb.review_ids()
    assert merged == pb.merge(pa)
    assert merged.merge(pa) == merged and merged.merge(merged) == merged
    assert merged.best_streak >= max(pa.best_streak, pb.best_streak)
    # the merged card is the card of all answers replayed in time order
    replay = build(sorted(a + b, key=lambda x: x[2]))
    for s in SKILLS:
        assert merged.answered(s) == replay.answered(s)
        assert merged.right(s) == replay.right(s)


def test_a_long_history_is_folded_into_the_base_without_changing_the_card():
    p, reviews = Progress(), []
    rng = random.Random(5)
    for i in range(pm.HISTORY_LIMIT + 50):
        reviews.append(p.record("pares", rng.random() < 0.7, at=at(i * 7), ms=3000))
    rec = p.skills["pares"]
    assert len(rec.reviews) == pm.HISTORY_LIMIT and rec.base_answered == 50
    assert p.answered("pares") == len(reviews) and p.right("pares") == sum(r.correct for r in reviews)
    # every answer replayed through FSRS with no limit gives the very same card
    card = pm.SkillRecord("pares").card()
    for r in reviews:
        card, _ = pm.SCHEDULER.review_card(card, Rating(r.rating), review_datetime=r.at, review_duration=r.ms)
    assert p.card("pares").to_dict() == card.to_dict()
    back = Progress.from_json(p.to_json())
    assert back == p and back.card("pares").to_dict() == p.card("pares").to_dict()
    # a copy that never saw the last 10 answers merges in without loss
    older = Progress.from_json(p.to_json())
    p.record("pares", True, at=at(days=30))
    assert p.merge(older).answered("pares") == len(reviews) + 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{oops", "not valid JSON"),
        ("[1, 2]", "not a musteach progress file"),
        ('{"schema": "something-else", "schema_version": 1}', "not a musteach progress file"),
        ('{"schema": "musteach-progress", "schema_version": "1"}', "'schema_version' must be a whole number"),
        ('{"schema": "musteach-progress", "schema_version": 1, "skills": []}', "'skills' must be an object"),
        ('{"schema": "musteach-progress", "schema_version": 1, "skills": {"Bad Skill": {}}}', "skill name"),
        (
            '{"schema": "musteach-progress", "schema_version": 1, "skills": {"grande": {"reviews": '
            '[{"id": "a", "at": "yesterday", "correct": true, "rating": 3}]}}}',
            "skill 'grande', review 1: 'at' must be a date and time",
        ),
        (
            '{"schema": "musteach-progress", "schema_version": 1, "skills": {"grande": {"reviews": '
            '[{"id": "a", "at": "2025-01-01T00:00:00+00:00", "correct": true, "rating": 7}]}}}',
            "'rating' must be 1",
        ),
        (
            '{"schema": "musteach-progress", "schema_version": 1, "skills": {"grande": {"reviews": '
            '[{"id": "a", "at": "2025-01-01T00:00:00", "correct": true, "rating": 3}]}}}',
            "needs a time zone",
        ),
        (
            '{"schema": "musteach-progress", "schema_version": 1, "skills": {"grande": {"reviews": [], '
            '"base": {"card": {}, "answered": 3, "right": 4, "until": "2025-01-01T00:00:00+00:00"}}}}',
            "4 right answers out of only 3",
        ),
    ],
)
def test_bad_documents_raise_a_named_progress_error(text, message):
    with pytest.raises(ProgressError, match=message):
        Progress.from_json(text)


@pytest.mark.parametrize(("version", "word"), [(0, "older"), (pm.SCHEMA_VERSION + 1, "newer")])
def test_another_schema_version_is_a_schema_error(version, word):
    doc = Progress().to_dict() | {"schema_version": version}
    with pytest.raises(ProgressSchemaError, match=word) as e:
        Progress.from_dict(doc)
    assert e.value.version == version


def test_unknown_skills_are_kept_for_a_later_version():
    p = Progress()
    p.record("senas.duples", True, at=at())
    back = Progress.from_json(p.to_json())
    assert back.answered("senas.duples") == 1


# ----------------------------------------------------------------------------------------------
# The file store
# ----------------------------------------------------------------------------------------------


def test_file_store_round_trip_atomic_and_versioned(tmp_path):
    path = tmp_path / "data" / "progress.json"
    store = FileStore(path)
    assert store.load() == Progress() and not path.parent.exists(), "loading creates nothing"
    p = Progress()
    p.record("grande", True, at=at(0))
    p.record("chica", False, at=at(1))
    saved = store.save(p)
    assert saved == p
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["schema"] == "musteach-progress" and doc["schema_version"] == pm.SCHEMA_VERSION
    assert FileStore(path).load() == p
    assert sorted(x.name for x in path.parent.iterdir()) == ["progress.json", "progress.json.lock"]
    assert store.notices == []


def test_default_path_is_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("MUSTEACH_PROGRESS_FILE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert pm.default_progress_path() == tmp_path / "musteach" / "progress.json"
    monkeypatch.setenv("MUSTEACH_PROGRESS_FILE", str(tmp_path / "elsewhere.json"))
    assert FileStore().path == tmp_path / "elsewhere.json"


def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "progress.json"
    store = FileStore(path)
    p = Progress()
    p.record("grande", True, at=at(0))
    store.save(p)
    before = path.read_bytes()
    p.record("chica", True, at=at(1))

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space"):
        store.save(p)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [x.name for x in tmp_path.iterdir() if x.suffix == ".tmp"] == []


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b'{"schema": "musteach-progress", "schema_version": 1, "skills": {"gra', "damaged"),
        (b"", "damaged"),
        (b"\xff\xfe not text", "damaged"),
        (json.dumps(Progress().to_dict() | {"schema_version": 0}).encode(), "another version"),
        (json.dumps(Progress().to_dict() | {"schema_version": 9}).encode(), "another version"),
    ],
)
def test_a_corrupt_or_outdated_file_is_set_aside_and_reported(tmp_path, content, why):
    path = tmp_path / "progress.json"
    path.write_bytes(content)
    store = FileStore(path)
    assert store.load() == Progress()
    assert not path.exists()
    [aside] = store.set_aside_paths
    assert aside.name.startswith("progress.json.corrupt-") and aside.read_bytes() == content, "nothing is lost"
    [notice] = store.notices
    assert why in notice and aside.name in notice
    # practice goes on: the next save writes a good file next to the one set aside
    p = Progress()
    p.record("grande", True, at=at())
    store.save(p)
    assert FileStore(path).load() == p and aside.read_bytes() == content


def test_a_file_damaged_between_saves_is_set_aside_and_the_progress_in_memory_kept(tmp_path):
    path = tmp_path / "progress.json"
    store = FileStore(path)
    p = Progress()
    p.record("grande", True, at=at())
    p = store.save(p)
    path.write_text("garbage", encoding="utf-8")
    p.record("chica", True, at=at(1))
    p = store.save(p)
    assert FileStore(path).load().answered() == 2 and len(store.set_aside_paths) == 1 and store.notices


def _writer(path: str, skill: str, n: int, out: str) -> None:
    """One notebook practising: record an answer, save (merge with the file), keep the merged progress."""
    store = FileStore(path)
    p = store.load()
    ids = []
    for i in range(n):
        ids.append(p.record(skill, i % 3 != 0, at=at(i)).id)
        p = store.save(p)
    Path(out).write_text("\n".join(ids), encoding="utf-8")


def test_two_processes_saving_at_once_lose_nothing(tmp_path):
    path = tmp_path / "progress.json"
    ctx = multiprocessing.get_context("fork")
    procs = [
        ctx.Process(target=_writer, args=(str(path), skill, 40, str(tmp_path / f"{skill}.ids")))
        for skill in ("grande", "chica", "pares")
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(120)
        assert proc.exitcode == 0
    final = FileStore(path).load()
    for skill in ("grande", "chica", "pares"):
        ids = set((tmp_path / f"{skill}.ids").read_text(encoding="utf-8").split())
        assert len(ids) == 40 and ids <= final.review_ids()
        assert final.answered(skill) == 40
    assert final.answered() == 120


def test_threads_saving_at_once_lose_nothing(tmp_path):
    path = tmp_path / "progress.json"
    threads = [
        threading.Thread(target=_writer, args=(str(path), skill, 25, str(tmp_path / f"{skill}.ids")))
        for skill in ("juego", "punto", "jugada", "rank_order")
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    final = FileStore(path).load()
    assert final.answered() == 100
    for skill in ("juego", "punto", "jugada", "rank_order"):
        assert set((tmp_path / f"{skill}.ids").read_text(encoding="utf-8").split()) <= final.review_ids()


def test_memory_store_merges_and_keeps_nothing_on_disk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = MemoryStore()
    a, b = Progress(), Progress()
    a.record("grande", True, at=at(0))
    b.record("chica", True, at=at(1))
    store.save(a)
    assert store.save(b).answered() == 2 and store.load().answered() == 2
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------------------------
# Small, bounded progress; version 1 migration; validation of counts
# ----------------------------------------------------------------------------------------------


def _long_progress(skills: int, per_skill: int) -> Progress:
    """A progress with ``per_skill`` answers on each of ``skills`` skills (built fast, through the model)."""
    rng = random.Random(3)
    records = {}
    for k in range(skills):
        reviews = []
        for n in range(per_skill):
            right = rng.random() < 0.8
            rating = rng.choice((3, 3, 4)) if right else 1
            reviews.append(pm.Review(at(minutes=n * 60 + k), f"{k:02d}{n:014x}", right, rating, rng.randrange(30_000)))
        records[f"skill{k}"] = pm.SkillRecord(f"skill{k}").with_reviews(reviews)
    return Progress(records)


def test_a_long_practice_stays_small_and_keeps_its_totals():
    p = _long_progress(11, 10_000)
    text = p.to_json()
    assert len(text.encode("utf-8")) < 60_000, f"{len(text):,} bytes"
    assert all(len(rec.reviews) == pm.HISTORY_LIMIT for rec in p.skills.values())
    back = Progress.from_json(text)
    assert back == p and back.answered() == 110_000 and back.right() == p.right()
    assert back.streak == p.streak and back.best_streak == p.best_streak
    for s in p.skills:
        assert back.card(s).to_dict() == p.card(s).to_dict() and back.mastery(s, at(days=500)) == p.mastery(
            s, at(days=500)
        )


def _as_version_1(p: Progress, extra: dict[str, list[dict]] | None = None) -> dict:
    """``p`` written as schema version 1 did (answers as objects), with ``extra`` older answers per skill."""
    doc = p.to_dict() | {"schema_version": 1}
    for name, rec in doc["skills"].items():
        reviews = [r.to_dict() for r in p.skills[name].reviews]
        rec["reviews"] = (extra or {}).get(name, []) + reviews
    return doc


def test_a_version_1_document_is_migrated_not_set_aside():
    p = Progress()
    for i in range(3):
        p.record("grande", i != 1, at=at(i), ms=2000)
    back = Progress.from_dict(_as_version_1(p))
    assert back == p and back.to_dict()["schema_version"] == pm.SCHEMA_VERSION
    assert Progress.from_json(back.to_json()) == p


def test_a_long_version_1_history_is_trimmed_without_losing_totals():
    p, reviews = Progress(), []
    rng = random.Random(8)
    for i in range(200):  # version 1 kept up to 200 answers a skill
        reviews.append(p.record("pares", rng.random() < 0.6, at=at(i * 7), ms=3000))
    doc = {
        "schema": pm.SCHEMA,
        "schema_version": 1,
        "best_streak": p.best_streak,
        "skills": {"pares": {"reviews": [r.to_dict() for r in reviews]}},
    }
    back = Progress.from_json(json.dumps(doc, indent=1))
    rec = back.skills["pares"]
    assert len(rec.reviews) == pm.HISTORY_LIMIT and rec.base_answered == 200 - pm.HISTORY_LIMIT
    assert back.answered("pares") == 200 and back.right("pares") == sum(r.correct for r in reviews)
    assert back.card("pares").to_dict() == p.card("pares").to_dict()
    assert back.best_streak == p.best_streak
    assert len(back.to_json()) < len(json.dumps(doc)) / 3


@pytest.mark.parametrize("best", [10**30, 4])
def test_a_best_streak_longer_than_every_answer_is_refused(best):
    p = Progress()
    for i in range(3):
        p.record("grande", True, at=at(i))
    doc = p.to_dict() | {"best_streak": best}
    with pytest.raises(ProgressError, match=f"'best_streak' is {best}, more than the 3 answers"):
        Progress.from_dict(doc)
    assert Progress.from_dict(p.to_dict() | {"best_streak": 3}).best_streak == 3


@pytest.mark.parametrize(
    ("review", "message"),
    [
        (["2025-01-01T00:00:00+00:00", 3, None], "must be a list"),
        (["not a time", 3, None, "a"], "'at' must be a date and time"),
        (["2025-01-01T00:00:00+00:00", True, None, "a"], "'rating' must be 1"),
        (["2025-01-01T00:00:00+00:00", 3, -5, "a"], "'ms' must be"),
        (["2025-01-01T00:00:00+00:00", 3, None, ""], "'id' must be"),
        ({"id": "a", "at": "2025-01-01T00:00:00+00:00", "correct": True, "rating": 3}, "must be a list"),
    ],
)
def test_bad_compact_answers_raise_a_named_progress_error(review, message):
    doc = {"schema": pm.SCHEMA, "schema_version": pm.SCHEMA_VERSION, "skills": {"grande": {"reviews": [review]}}}
    with pytest.raises(ProgressError, match=message):
        Progress.from_dict(doc)


def test_base_counts_must_be_sane():
    p = _long_progress(1, pm.HISTORY_LIMIT + 5)
    doc = p.to_dict()
    base = doc["skills"]["skill0"]["base"]
    for bad, message in ((-1, "'answered' must be a whole number"), (10**30, None)):
        broken = json.loads(json.dumps(doc))
        broken["skills"]["skill0"]["base"]["answered"] = bad
        if message:
            with pytest.raises(ProgressError, match=message):
                Progress.from_dict(broken)
    broken = json.loads(json.dumps(doc))
    broken["skills"]["skill0"]["base"]["right"] = base["answered"] + 1
    with pytest.raises(ProgressError, match="right answers out of only"):
        Progress.from_dict(broken)
    broken = json.loads(json.dumps(doc))
    broken["skills"]["skill0"]["base"]["until"] = "last week"
    with pytest.raises(ProgressError, match="base 'until' must be a date and time"):
        Progress.from_dict(broken)


def test_a_record_caches_its_card_per_scheduler_settings_not_per_object_id():
    """The card cache is keyed by the scheduler's settings: another scheduler (even one that reuses a freed
    object's id) gets its own card, and a scheduler with the same settings shares the cached one."""
    from fsrs import Scheduler

    reviews = [pm.Review(at(minutes=60 * k), f"{k:016x}", True, Rating.Good, 1000) for k in range(3)]
    record = pm.SkillRecord("pares").with_reviews(reviews)
    default = record.card()
    for k in range(20):  # freed schedulers' ids are reused: each new one must still get its own card
        other = Scheduler(desired_retention=(0.97, 0.8)[k % 2], enable_fuzzing=False)
        fresh = pm.SkillRecord("pares").with_reviews(reviews).card(other)
        assert record.card(other).due == fresh.due
        del other
    assert record.card(Scheduler(desired_retention=0.97, enable_fuzzing=False)).due != default.due
    assert record.card(Scheduler(enable_fuzzing=False)).due == default.due


def test_games_section_round_trips_merges_and_names_the_best_game():
    from datetime import datetime


    t = datetime(2026, 1, 2, 10, 0, tzinfo=UTC)
    a = Progress()
    g1 = a.record_game(20, 4.0, True, level="club", at=t)
    b = Progress.from_json(a.to_json())
    assert b.games == (g1,) and b == a
    g2 = b.record_game(10, 1.0, False, level="strong", at=t)
    merged = a.merge(b)
    assert merged.games == tuple(sorted((g1, g2), key=lambda g: g.id)), "same time: by id"
    assert merged.best_game() == g2 and g2.error_rate == pytest.approx(0.1)
    assert "games" not in Progress().to_dict(), "a progress without games keeps the old document"
    with pytest.raises(ProgressError, match="decisions"):
        Progress.from_dict({**a.to_dict(), "games": [["x", t.isoformat(), -1, 0.0, True, ""]]})
