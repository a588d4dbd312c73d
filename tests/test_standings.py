"""The shipped standing keys (musteach/rules/data) are what the rules give, for every rule set that changes a
hand's standing, and the batched evaluator reads them."""

from __future__ import annotations

import numpy as np
import pytest

from musteach.rules.options import Rules
from musteach.rules.standings import count_standing_keys, shipped_path, standing_keys, standing_rules


@pytest.mark.parametrize("rules", standing_rules(), ids=lambda r: shipped_path(r).stem)
def test_shipped_keys_are_the_counted_ones(rules: Rules) -> None:
    path = shipped_path(rules)
    assert path.exists(), f"{path.name} is missing: run python -m musteach.rules.standings"
    shipped = np.load(path)
    assert shipped.shape == (6, 10000)
    assert np.array_equal(shipped, count_standing_keys(rules))


def test_other_switches_read_the_same_keys() -> None:
    # the target, the betting switches and the señas do not change a hand's standing
    rules = Rules(kings=4, target=30, deje_timing="end", senas="off", la_real=True, la_real_figure="any")
    assert np.array_equal(standing_keys(rules), count_standing_keys(rules))


def test_the_eight_rule_sets_differ() -> None:
    tables = [np.load(shipped_path(r)).tobytes() for r in standing_rules()]
    assert len(set(tables)) == len(tables) == 8
