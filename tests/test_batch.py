"""The batched evaluator (musteach.rules.batch): same answers as the one-deal path, dealing, conversions, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from musteach import DECK, Card, Rules, evaluate, winners
from musteach.rules.batch import (
    BATCH_LANCES,
    array_to_codes,
    check_batch,
    deal_to_array,
    deals_to_array,
    evaluate_batch,
    random_deals,
)
from musteach.rules.errors import DuplicateCardError, HandSizeError, MusError, RulesError, SeatError, UnknownCardError


def _one_deal(hands: np.ndarray, mano: int, rules: Rules) -> tuple[int, ...]:
    """evaluate() on one deal of the array, None as -1."""
    res = evaluate([[DECK[i] for i in h] for h in hands.tolist()], mano, rules).winners()
    return tuple(-1 if w is None else w for w in res.values())


def _stacked(res: dict[str, np.ndarray]) -> np.ndarray:
    return np.stack([res[lance] for lance in BATCH_LANCES], axis=1)


def thin_deals(n: int, ranks: list[int], seed: int) -> np.ndarray:
    """n deals from a deck thinned to some rank positions: ties, duples, la real become common."""
    rng = np.random.default_rng(seed)
    cards = np.array([r * 4 + s for r in ranks for s in range(4)], dtype=np.uint8)
    keys = rng.random((n, len(cards)))
    return cards[np.argsort(keys, axis=1)[:, :16]].reshape(n, 4, 4)


@pytest.mark.slow
@pytest.mark.parametrize("kings", [8, 4])
def test_batch_agrees_with_evaluate_on_100000_deals(kings):
    """50,000 random deals per variant through evaluate() (100,000 in all), all five lances, random manos."""
    rules = Rules(kings=kings)
    n = 50_000
    hands = random_deals(n, seed=kings)
    manos = np.random.default_rng(kings + 100).integers(0, 4, n)
    got = _stacked(evaluate_batch(hands, manos, rules))
    assert got.dtype == np.int8 and got.shape == (n, 5)
    for i in range(n):
        expected = _one_deal(hands[i], int(manos[i]), rules)
        if tuple(got[i]) != expected:
            pytest.fail(f"deal {i}: batch {tuple(got[i])} != evaluate {expected}: {array_to_codes(hands[i])}")


@pytest.mark.slow  # an agreement run: CI=true runs it (tests/conftest.py)
@pytest.mark.parametrize("kings", [8, 4])
def test_batch_agrees_with_fast_winners_on_100000_deals(kings):
    n = 100_000
    hands = random_deals(n, seed=10 + kings)
    manos = np.random.default_rng(kings).integers(0, 4, n)
    got = _stacked(evaluate_batch(hands, manos, Rules(kings=kings))).tolist()
    for h, m, g in zip(hands.tolist(), manos.tolist(), got, strict=True):
        assert tuple(-1 if w is None else w for w in winners(h, m, kings)) == tuple(g)


@pytest.mark.slow  # an agreement run: CI=true runs it (tests/conftest.py)
@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(kings=4),
        Rules(la_real=True),
        Rules(kings=4, la_real=True),
        Rules(la_real=True, la_real_figure="any"),
        Rules(la_real=True, la_real_figure="sota_de_oros"),
        Rules(kings=4, la_real=True, la_real_figure="sota_de_oros"),
    ],
    ids=lambda r: f"{r.variant}-{'la_real-' + r.la_real_figure if r.la_real else 'plain'}",
)
def test_batch_agrees_on_thin_decks_and_la_real(rules):
    """Thinned decks (7s, sotas, caballos, kings, 3s, aces): ties, medias, duples and la real are frequent."""
    # 7s, sotas, caballos, kings, 3s, aces; then a 16-card deck of 7s, sotas, aces and kings (all dealt)
    hands = np.concatenate([thin_deals(3000, ranks=[0, 2, 6, 7, 8, 9], seed=1), thin_deals(1000, ranks=[0, 6, 7, 9], seed=2)])
    manos = np.random.default_rng(2).integers(0, 4, len(hands))
    got = _stacked(evaluate_batch(hands, manos, rules))
    la_real_seen = 0
    for i in range(len(hands)):
        result = evaluate([[DECK[c] for c in h] for h in hands[i].tolist()], int(manos[i]), rules)
        la_real_seen += any(info.la_real for info in result.infos)
        expected = tuple(-1 if w is None else w for w in result.winners().values())
        assert tuple(got[i]) == expected, (i, array_to_codes(hands[i]), int(manos[i]))
    if rules.la_real:
        # the thinned decks really exercise la real (rarer when it must be the sota de oros)
        assert la_real_seen > (5 if rules.la_real_figure == "sota_de_oros" else 20)


def test_ties_go_to_the_seat_nearer_mano():
    hands = deal_to_array([["12o", "11o", "10o", "1o"], ["4o", "4c", "5o", "5c"], ["6o", "6c", "7o", "7c"], ["12c", "11c", "10c", "1c"]])
    expected_juego = {0: 0, 1: 3, 2: 3, 3: 3}  # seats 0 and 3 hold 31: 3 speaks before 0 unless 0 is mano
    for mano, seat in expected_juego.items():
        assert evaluate_batch(hands, mano)["juego"][0] == seat
    manos = np.array([0, 1, 2, 3])
    res = evaluate_batch(np.repeat(hands[None], 4, axis=0), manos)
    assert res["juego"].tolist() == [0, 3, 3, 3]
    assert res["punto"].tolist() == [-1, -1, -1, -1]


def test_nobody_takes_part_gives_minus_one():
    hands = deal_to_array([["4o", "5o", "6o", "1o"], ["4c", "5c", "6c", "1c"], ["12o", "11o", "7e", "2b"], ["12e", "11e", "6e", "1b"]])
    res = evaluate_batch(hands, 0)
    assert {k: int(v[0]) for k, v in res.items()} == {"grande": 2, "chica": 0, "pares": -1, "juego": -1, "punto": 2}


def test_scalar_mano_equals_array_mano_and_unvalidated_path():
    hands = random_deals(5000, seed=3)
    for m in range(4):
        a = _stacked(evaluate_batch(hands, m))
        b = _stacked(evaluate_batch(hands, np.full(len(hands), m)))
        c = _stacked(evaluate_batch(hands, np.int64(m), validate=False))
        d = _stacked(evaluate_batch(hands.astype(np.int64), [m] * len(hands)))
        assert (a == b).all() and (a == c).all() and (a == d).all()


def test_shapes_and_empty_batch():
    res = evaluate_batch(np.zeros((0, 4, 4), dtype=np.uint8), 0)
    assert list(res) == list(BATCH_LANCES) == ["grande", "chica", "pares", "juego", "punto"]
    assert all(v.shape == (0,) and v.dtype == np.int8 for v in res.values())
    one = evaluate_batch(random_deals(1, seed=5)[0], 2)  # a single (4, 4) deal
    assert all(v.shape == (1,) for v in one.values())


# ----- dealing ----------------------------------------------------------------------------------------------------


def test_random_deals_are_valid_and_reproducible():
    d = random_deals(20_000, seed=42)
    assert d.shape == (20_000, 4, 4) and d.dtype == np.uint8
    flat = np.sort(d.reshape(-1, 16), axis=1)
    assert (np.diff(flat.astype(int), axis=1) > 0).all()  # 16 different cards in every deal
    assert flat.max() <= 39
    assert (random_deals(20_000, seed=42) == d).all()
    assert (random_deals(20_000, seed=np.random.default_rng(42)) == d).all()
    assert not (random_deals(1000, seed=43) == d[:1000]).all()
    check_batch(d)  # passes the validator


def test_random_deals_are_uniform():
    d = random_deals(100_000, seed=9)
    # each card is dealt with probability 16/40, to each seat with 4/40 and to each slot with 1/40
    per_card = np.bincount(d.reshape(-1), minlength=40) / len(d)
    assert np.abs(per_card - 0.4).max() < 0.01
    per_seat_card = np.stack([np.bincount(d[:, s].reshape(-1), minlength=40) for s in range(4)]) / len(d)
    assert np.abs(per_seat_card - 0.1).max() < 0.01
    per_slot = np.stack([np.bincount(d[:, 3, 3], minlength=40), np.bincount(d[:, 0, 0], minlength=40)]) / len(d)
    assert np.abs(per_slot - 0.025).max() < 0.005


def test_random_deals_bad_count():
    assert random_deals(0, seed=1).shape == (0, 4, 4)
    for bad in (-1, 2.5, "10", True):
        with pytest.raises(MusError, match="number of deals"):
            random_deals(bad)


# ----- conversions ------------------------------------------------------------------------------------------------


def test_conversions_round_trip():
    deal = [["12o", "3c", "7e", "5b"], ["Rc", "caballo de oros", "11c", "4e"], ["1o", "1c", "4o", "5o"], "6c 6e 10o 2b"]
    arr = deal_to_array(deal)
    assert arr.dtype == np.uint8 and arr.shape == (4, 4)
    assert arr[0].tolist() == [Card.parse(c).index for c in deal[0]]
    assert array_to_codes(arr) == [["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"], ["1o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"]]
    batch = random_deals(50, seed=8)
    assert (deals_to_array(array_to_codes(batch)) == batch).all()


def test_conversion_errors_name_the_deal():
    good = [["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"], ["1o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"]]
    bad = [good[0], good[1], good[2], ["6c", "6e", "10o", "9b"]]
    with pytest.raises(UnknownCardError, match=r"deal at index 1: seat 3: unknown card '9b'"):
        deals_to_array([good, bad])
    with pytest.raises(DuplicateCardError, match=r"deal at index 2: card 12o \(rey de oros\) is dealt twice: to seat 0 and seat 1"):
        deals_to_array([good, good, [good[0], ["12o", "11o", "11c", "4e"], good[2], good[3]]])
    with pytest.raises(UnknownCardError, match="unknown card index 40"):
        array_to_codes([[0, 1, 2, 40]])
    with pytest.raises(HandSizeError):
        array_to_codes([[0, 1, 2]])


# ----- bad input to the batch -------------------------------------------------------------------------------------


def _valid(n=10, seed=0):
    return random_deals(n, seed=seed).astype(np.int64)


def test_bad_shape():
    with pytest.raises(HandSizeError, match=r"shape \(N, 4, 4\).*not \(10, 4, 3\)"):
        evaluate_batch(_valid()[:, :, :3], 0)
    with pytest.raises(HandSizeError, match=r"not \(4,\)"):
        evaluate_batch([1, 2, 3, 4], 0)
    with pytest.raises(HandSizeError):
        evaluate_batch([[[0, 1, 2, 3]], [[4, 5]]], 0)  # ragged


def test_bad_card_index_names_deal_seat_and_index():
    h = _valid()
    h[7, 2, 1] = 40
    with pytest.raises(UnknownCardError, match=r"deal at index 7, seat 2: unknown card index 40: expected 0..39"):
        evaluate_batch(h, 0)
    h[7, 2, 1] = -3
    with pytest.raises(UnknownCardError, match=r"deal at index 7, seat 2: unknown card index -3"):
        check_batch(h)
    u = random_deals(10, seed=0)
    u[4, 0, 0] = 200  # uint8 input
    with pytest.raises(UnknownCardError, match=r"deal at index 4, seat 0: unknown card index 200"):
        evaluate_batch(u, 0)
    with pytest.raises(UnknownCardError, match="float64"):
        evaluate_batch(_valid().astype(float), 0)


def test_card_dealt_twice_names_deal_card_and_seats():
    h = random_deals(70_000, seed=1)
    h[69_000, 3, 2] = h[69_000, 1, 0]  # a later chunk
    card = DECK[int(h[69_000, 1, 0])]
    with pytest.raises(DuplicateCardError) as e:
        evaluate_batch(h, 0)
    assert str(e.value) == f"deal at index 69000: card {card.code} ({card.name}) is dealt twice: to seat 1 and seat 3"
    h = _valid()
    h[3, 2, 3] = h[3, 2, 0]
    card = DECK[int(h[3, 2, 0])]
    with pytest.raises(DuplicateCardError, match=rf"deal at index 3: seat 2: card {card.code} .* appears twice in the hand"):
        check_batch(h)


def test_bad_mano_names_the_deal_and_seat():
    with pytest.raises(SeatError, match="mano must be a seat 0, 1, 2 or 3, not 4"):
        evaluate_batch(_valid(), 4)
    manos = np.zeros(10, dtype=int)
    manos[6] = -1
    with pytest.raises(SeatError, match="deal at index 6: mano must be a seat 0, 1, 2 or 3, not -1"):
        evaluate_batch(_valid(), manos)
    with pytest.raises(SeatError, match=r"array of 10 seats.*not shape \(9,\)"):
        evaluate_batch(_valid(), manos[:9])
    with pytest.raises(SeatError, match="float64"):
        evaluate_batch(_valid(), manos.astype(float))
    with pytest.raises(SeatError, match="not true"):
        evaluate_batch(_valid(), True)


def test_bad_rules():
    with pytest.raises(RulesError, match="rules must be a musteach Rules"):
        evaluate_batch(_valid(), 0, {"kings": 4})
