"""The odds tables shipped in musteach/odds/data/ agree exactly with the enumeration (sampled rows)."""

from __future__ import annotations

import random

import pytest

from musteach import Rules
from musteach.odds import advise_discard, hand_odds
from musteach.odds.enumeration import count_deals, space
from musteach.odds.space import hand_space
from musteach.odds.tables import KINGS, ROW, shipped_counts, shipped_table, table_path

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
    assert data.hands == tuple(tuple(row) for row in sp.M.tolist()) == hand_space(kings, None).hands
    assert len(data.cells) == 4 * sp.m * ROW  # every hand at every distance from mano
    deals = {data.counts(pos0, i).deals for pos0 in range(4) for i in range(sp.m)}
    assert len(deals) == 1  # every hand leaves the same 36 unseen cards


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


def test_reading_the_shipped_odds_loads_no_numpy():
    """A lesson that shows odds, advice or a coach without counting deals keeps its kernel light (issue 16)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from musteach import Rules\n"
        "from musteach.odds import advise_discard, hand_odds\n"
        "import musteach.teach.coach, musteach.play.bots, musteach.rules.batch\n"
        "o = hand_odds('12o 3c 11e 1b', seat=2, mano=1, rules=Rules(kings=4))\n"
        "a = advise_discard('12o 11c 7e 4b', aim='grande')\n"
        "print(o.grande.team, a.best().describe(), 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[-1] == "False", out
    assert float(out[0]) == hand_odds("12o 3c 11e 1b", seat=2, mano=1, rules=Rules(kings=4)).grande.team


def test_a_table_of_another_version_is_refused(tmp_path):
    from musteach.odds.tables import read_table

    bad = tmp_path / "counts-8reyes.bin"
    bad.write_bytes(b"MUSODDS0" + bytes(24))
    with pytest.raises(ValueError, match="not an odds table"):
        read_table(bad)
