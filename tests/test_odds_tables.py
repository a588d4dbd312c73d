"""The odds tables shipped in musteach/odds/data/ agree exactly with the enumeration (sampled rows)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from musteach import Rules
from musteach.odds import advise_discard, hand_odds
from musteach.odds.enumeration import count_deals, space
from musteach.odds.tables import KINGS, shipped_counts, shipped_table, table_path

SAMPLES = {8: 6, 4: 3}  # 4 reyes rows take up to a second each to count


def _sample(kings: int) -> list[tuple[int, int]]:
    """(hand row, distance from mano) pairs, a new sample each run (seeded by pytest-randomly when present)."""
    rng = random.Random()
    m = space(kings, None).m
    return [(rng.randrange(m), rng.randrange(4)) for _ in range(SAMPLES[kings])]


@pytest.mark.parametrize("kings", KINGS)
def test_every_hand_and_position_is_shipped(kings):
    data = shipped_table(kings)
    assert data is not None, f"{table_path(kings)} is missing: run `make tables`"
    sp = space(kings, None)
    assert np.array_equal(data["hands"], sp.M)
    assert data["team"].shape == (4, sp.m, 5) and data["seats"].shape == (4, sp.m, 5, 5)
    assert (data["deals"] == data["deals"][0, 0]).all()  # every hand leaves the same 36 unseen cards


@pytest.mark.parametrize("kings", KINGS)
def test_sampled_rows_equal_the_enumeration(kings):
    sp = space(kings, None)
    for row, pos0 in _sample(kings):
        me = tuple(int(v) for v in sp.M[row])
        pool = tuple(int(v) for v in sp.caps - sp.M[row])
        counted = count_deals.__wrapped__(kings, None, me, pool, pos0)
        assert shipped_counts(kings, me, pos0) == counted, (kings, me, pos0)


@pytest.mark.parametrize("kings", KINGS)
def test_hand_odds_from_the_table_equal_hand_odds_counted(kings, monkeypatch):
    import musteach.odds.hands as hands_module

    hand, seat, mano = "12o 3c 11e 1b", 2, 1
    shipped = hand_odds(hand, seat, mano, Rules(kings=kings), exact=True)
    monkeypatch.setattr(hands_module, "shipped_counts", lambda *_a: None)
    count_deals.cache_clear()
    counted = hand_odds(hand, seat, mano, Rules(kings=kings), exact=True)
    assert shipped == counted


def test_four_reyes_advisor_averages_the_shipped_odds():
    advice = advise_discard("12o 11c 7e 4b", seat=1, mano=0, rules=Rules(kings=4), exact=True)
    assert len(advice.options) == 15
    for option in advice.options:
        assert sum(r.probability for r in option.redraws) == 1
    # changing the 4 alone: the new hand's odds averaged over the redraw, each redraw's odds read through hand_odds
    one = next(o for o in advice.options if [c.code for c in o.discard] == ["4b"])
    keep = " ".join(c.code for c in one.keep)
    want = sum(
        r.probability * hand_odds(f"{keep} {_card_of(r.info.ranks, one)}", 1, 0, Rules(kings=4), exact=True).grande.team
        for r in one.redraws
    )
    assert one.win["grande"] == want


def _card_of(ranks, option):
    """A card of the one rank that the redraw adds to the kept cards."""
    kept = sorted(c.rank for c in option.keep)
    rest = list(ranks)
    for r in kept:
        rest.remove(r)
    (rank,) = rest
    for code in (f"{rank}o", f"{rank}c", f"{rank}e", f"{rank}b"):
        if code not in {c.code for c in option.discard} | {c.code for c in option.keep}:
            return code
    raise AssertionError(rank)
