"""The discard advisor's per-position table is kept on disk between processes, and read back exactly."""

from __future__ import annotations

import pytest

from musteach.odds import exact as odds


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MUSTEACH_CACHE_DIR", str(tmp_path))
    odds._all_hands.cache_clear()
    yield tmp_path
    odds._all_hands.cache_clear()


def test_the_table_read_back_from_disk_equals_the_counted_one(cache_dir):
    counted = odds._all_hands(8, None, 1)
    files = list(cache_dir.glob("advisor-v*-8-None-1-*.json"))
    assert len(files) == 1
    odds._all_hands.cache_clear()
    assert odds._all_hands(8, None, 1) == counted
    assert odds._all_hands(8, None, 1) == odds._count_all_hands(8, None, 1)


def test_a_damaged_cache_file_is_counted_again_and_rewritten(cache_dir):
    odds._all_hands(8, None, 2)
    (path,) = cache_dir.glob("advisor-v*-8-None-2-*.json")
    path.write_text("{not json", encoding="utf-8")
    odds._all_hands.cache_clear()
    assert odds._all_hands(8, None, 2) == odds._count_all_hands(8, None, 2)
    assert path.read_text(encoding="utf-8").startswith("[[")


def test_the_disk_cache_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("MUSTEACH_CACHE_DIR", "off")
    assert odds._cache_path(8, None, 0) is None
