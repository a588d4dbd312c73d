"""The hand-checked vectors of ../shared/vectors, through every path: evaluate, winners() and the batch.

lances.json: one lance per case, rules from its "variant". deals.jsonl: all five winners, 8 reyes.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from musteach import Card, Lance, Rules, evaluate, winners
from musteach.rules.batch import deals_to_array, evaluate_batch

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
LANCE_CASES = json.loads((VECTORS / "lances.json").read_text(encoding="utf-8"))
DEALS = [json.loads(line) for line in (VECTORS / "deals.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
LANCE_NAMES = [lance.value for lance in Lance]


def _indexes(hands):
    return [[Card.parse(c).index for c in h] for h in hands]


def test_vectors_are_there():
    assert len(LANCE_CASES) >= 60
    assert len(DEALS) >= 2000
    assert {c["variant"] for c in LANCE_CASES} == {"8reyes", "4reyes"}
    assert {c["lance"] for c in LANCE_CASES} == set(LANCE_NAMES)


@pytest.mark.parametrize("case", LANCE_CASES, ids=[c["id"] for c in LANCE_CASES])
def test_lance_case(case):
    rules = Rules.from_variant(case["variant"])
    result = evaluate(case["hands"], case["mano"], rules)
    got = result[case["lance"]]
    assert got.winner == case["winner"], case["why"]
    fast = winners(_indexes(case["hands"]), case["mano"], rules.kings)
    assert fast[LANCE_NAMES.index(case["lance"])] == case["winner"]


@pytest.mark.parametrize("variant", ["8reyes", "4reyes"])
def test_lance_cases_batched(variant):
    cases = [c for c in LANCE_CASES if c["variant"] == variant]
    res = evaluate_batch(deals_to_array([c["hands"] for c in cases]), np.array([c["mano"] for c in cases]), Rules.from_variant(variant))
    for i, c in enumerate(cases):
        expected = -1 if c["winner"] is None else c["winner"]
        assert res[c["lance"]][i] == expected, (c["id"], c["why"])


@pytest.mark.parametrize("deal", DEALS, ids=[f"deal{i + 1:04d}" for i in range(len(DEALS))])
def test_deal(deal):
    assert evaluate(deal["hands"], deal["mano"]).winners() == deal["winners"]
    fast = winners(_indexes(deal["hands"]), deal["mano"])
    assert dict(zip(LANCE_NAMES, fast, strict=True)) == deal["winners"]


def test_deals_batched():
    res = evaluate_batch(deals_to_array([d["hands"] for d in DEALS]), np.array([d["mano"] for d in DEALS]))
    for lance in LANCE_NAMES:
        expected = np.array([-1 if d["winners"][lance] is None else d["winners"][lance] for d in DEALS])
        assert (res[lance] == expected).all(), lance
