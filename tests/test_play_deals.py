"""The strong level's and the coach's numpy-free sampling (musteach.play.deals, musteach.play.tables) draws
the same deals, judges them as the batched evaluator does and adds its figures in numpy's order; the shipped
hand values are the sampler's (issue 16: a lesson kernel never loads numpy)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from musteach import Rules
from musteach.odds.space import hand_space
from musteach.play.deals import (
    POOL_ROWS,
    POOL_SEED,
    POOL_WIDTH,
    deal_pool,
    keys_for,
    pairwise_mean,
    pairwise_std,
    pairwise_sum,
    pool_start,
    rank_facts,
    rank_id,
)
from musteach.play.odds_bot import VALUE_SEED, hand_value
from musteach.play.tables import KINGS, measure_bins, reference_bins, shipped_values, values_path
from musteach.rules.batch import evaluate_batch, random_deals
from musteach.rules.cards import RANKS
from musteach.rules.lances import info_from_ranks


def test_pool_start_draws_what_numpy_draws():
    rng = random.Random()
    seeds = [0, 1, 2**32 - 1, 2**32, 2**64 + 3] + [rng.getrandbits(32) for _ in range(400)] + [rng.getrandbits(90) for _ in range(50)]
    for seed in seeds:
        for size in (POOL_ROWS, 7, 2**31 + 5):
            assert pool_start(seed, size) == int(np.random.default_rng(seed).integers(size)), (seed, size)


def test_pairwise_sums_are_numpys_to_the_bit():
    rng = random.Random()
    for _ in range(300):
        n = rng.randrange(1, 2500)
        xs = [rng.random() * 10 ** rng.randrange(-3, 4) * rng.choice((1, -1)) for _ in range(n)]
        arr = np.array(xs)
        assert pairwise_sum(xs) == float(arr.sum())
        assert pairwise_mean(xs) == float(arr.mean())
        if n > 1:
            assert pairwise_std(xs, ddof=1) == float(arr.std(ddof=1))


def test_the_shipped_pool_is_the_seeded_numpy_pool():
    rows = np.argsort(np.random.default_rng(POOL_SEED).random((POOL_ROWS, 36)), axis=1)[:, :POOL_WIDTH]
    assert deal_pool() == rows.astype(np.uint8).tobytes()


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(kings=4), *(Rules(kings=k, la_real=True, la_real_figure=f) for k in (8, 4) for f in ("sota", "any", "sota_de_oros"))],
    ids=lambda r: f"{r.kings}-{r.la_real_figure if r.la_real else 'no-real'}",
)
def test_sampled_deals_are_judged_as_the_batched_evaluator_judges_them(rules):
    deals = random_deals(3000, seed=random.randrange(1 << 30))
    # la real is rare: make a quarter of the deals hold 7-7-7 and a sota (the sota de oros in half of those)
    for i in range(0, len(deals), 4):
        seat = i % 4
        hand = [24, 25, 26, 28 + (i // 4) % 2]  # 7o 7c 7e and the sota de oros (28) or de copas (29)
        used = {c for s in range(4) if s != seat for c in deals[i, s]} & set(hand)
        if not used:
            deals[i, seat] = hand
    manos = np.arange(len(deals)) % 4
    batch = evaluate_batch(deals, manos, rules)
    keys = keys_for(rules)
    for i, deal in enumerate(deals.tolist()):
        assert keys.winners(deal, int(manos[i])) == tuple(int(batch[name][i]) for name in batch), (deal, manos[i])
    for mano in range(4):  # a lance at a time, over many deals
        sel = manos == mano
        for li, name in enumerate(batch):
            assert keys.lance_winners(deals[sel].tolist(), mano, li) == batch[name][sel].tolist(), (mano, name)


@pytest.mark.parametrize("kings", (8, 4))
def test_rank_facts_read_each_hand(kings):
    facts = rank_facts(kings)
    for _ in range(300):
        cards = random.sample(range(40), 4)
        info = info_from_ranks([RANKS[c >> 2] for c in cards], kings)
        i = rank_id(cards)
        assert facts.pares_value[i] == (info.pares.value if info.pares else 0)
        assert facts.juego_value[i] == info.juego_value
        assert facts.flags[i] == (info.pares is not None) | (info.is_juego << 1)
        assert facts.infos[facts.multiset[i]].ranks == info.ranks
    # percentiles order the hands as their keys do (stronger in grande, higher percentile)
    r4, r0 = rank_id([36, 37, 38, 39]), rank_id([0, 1, 4, 8])
    assert facts.pct[0][r4] > 250 > facts.pct[0][r0]


@pytest.mark.parametrize("kings", KINGS)
def test_the_shipped_values_are_the_samplers(kings):
    hs = hand_space(kings, None)
    assert values_path(kings).exists(), f"{values_path(kings)} is missing: run `make tables`"
    for _ in range(3):
        row, pos = random.randrange(hs.m), random.randrange(4)
        shipped = shipped_values(kings, pos)
        assert shipped is not None and len(shipped) == hs.m
        assert shipped[row] == hand_value(hs.hands[row], pos, Rules(kings=kings), 1000, VALUE_SEED)
    assert reference_bins(kings) == tuple(tuple(r) for r in measure_bins(kings))


def test_write_tables_samples_what_is_shipped() -> None:
    """``python -m musteach.play.write_tables`` (moved out of tables.py, issue 24) samples the shipped rows."""
    from musteach.odds.space import hand_space
    from musteach.play.odds_bot import hand_value
    from musteach.play.write_tables import sampled_values
    from musteach.rules.options import Rules

    hands = hand_space(8, None).hands
    for i in (0, 57, len(hands) - 1):
        assert hand_value(hands[i], 2, Rules(kings=8), 1000, 0) == shipped_values(8, 2)[i]
    assert len(sampled_values(Rules(kings=4), 0, n=3)) == len(hand_space(4, None).hands)


def test_block_ids_read_the_same_ids_as_the_block_table() -> None:
    """The compact 16-bit tables behind block_ids give every pool row's rank ids as the dict did."""
    import random
    from array import array

    from musteach.play.deals import POOL_ROWS, block_ids, block_table, pool_blocks

    table = block_table()
    for seed in range(3):
        others = list(range(40))
        random.Random(seed).shuffle(others)
        blocks = pool_blocks(others[:36], 0, POOL_ROWS)
        assert block_ids(blocks) == array("H", map(table.__getitem__, blocks))
        assert block_ids(list(blocks[:9])) == array("H", map(table.__getitem__, blocks[:9]))
