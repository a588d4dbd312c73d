"""The discard advisor's per-position table is kept on disk between processes, and read back exactly."""

from __future__ import annotations

import pytest

from musteach.odds.cache import advisor_table, cache_path
from musteach.odds.enumeration import count_all_hands


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MUSTEACH_CACHE_DIR", str(tmp_path))
    advisor_table.cache_clear()
    yield tmp_path
    advisor_table.cache_clear()


def test_the_table_read_back_from_disk_equals_the_counted_one(cache_dir):
    counted = advisor_table(8, None, 1)
    files = list(cache_dir.glob("advisor-v*-8-None-1-*.json"))
    assert len(files) == 1
    advisor_table.cache_clear()
    assert advisor_table(8, None, 1) == counted
    assert advisor_table(8, None, 1) == count_all_hands(8, None, 1)


def test_a_damaged_cache_file_is_counted_again_and_rewritten(cache_dir):
    advisor_table(8, None, 2)
    (path,) = cache_dir.glob("advisor-v*-8-None-2-*.json")
    path.write_text("{not json", encoding="utf-8")
    advisor_table.cache_clear()
    assert advisor_table(8, None, 2) == count_all_hands(8, None, 2)
    assert path.read_text(encoding="utf-8").startswith("[[")


def test_the_disk_cache_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("MUSTEACH_CACHE_DIR", "off")
    assert cache_path(8, None, 0) is None
