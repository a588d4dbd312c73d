"""Explanations in bulk (issue 16): :func:`explain_batch` and ``musteach judge --explain`` give, word for word,
the sentences of the one-deal path (:func:`evaluate`, :attr:`LanceResult.explanation`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from musteach import DECK, Rules, evaluate
from musteach.cli import main
from musteach.rules.batch import deals_to_array, explain_batch, random_deals
from musteach.rules.errors import DuplicateCardError, RulesError

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
DEALS = [json.loads(line) for line in (VECTORS / "deals.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
RULE_SETS = [
    Rules(),
    Rules(kings=4),
    Rules(la_real=True),
    Rules(la_real=True, la_real_figure="sota_de_oros"),
    Rules(kings=4, la_real=True, la_real_figure="any"),
]


def one_by_one(hands: np.ndarray, manos: np.ndarray, rules: Rules) -> dict[str, list[str]]:
    """The sentences of the one-deal path, lance by lance."""
    out: dict[str, list[str]] = {}
    for deal, mano in zip(hands.tolist(), manos.tolist(), strict=True):
        said = evaluate([[DECK[c] for c in hand] for hand in deal], mano, rules).explanations()
        for lance, text in said.items():
            out.setdefault(lance, []).append(text)
    return out


def with_ties_and_la_real(n: int, seed: int) -> np.ndarray:
    """Random deals, a third of them with seats 0 and 2 given the same ranks (ties to mano) and some seats
    given 7-7-7-sota (la real)."""
    hands = random_deals(n, seed=seed).copy()
    rng = np.random.default_rng(seed)
    tie = rng.random(n) < 0.33
    # the same ranks in another suit: card index = rank position * 4 + suit
    hands[tie, 2] = (hands[tie, 0] & ~np.uint8(3)) | ((hands[tie, 0] + 1) & 3)
    real = rng.random(n) < 0.1
    hands[real, 1] = [24, 25, 26, 28]  # 7o 7c 7e and the sota de oros
    keep = np.array([len(set(d.reshape(-1).tolist())) == 16 for d in hands])
    return hands[keep]


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_the_labelled_deals_word_for_word(rules: Rules) -> None:
    hands = deals_to_array([d["hands"] for d in DEALS])
    manos = np.array([d["mano"] for d in DEALS])
    assert explain_batch(hands, manos, rules) == one_by_one(hands, manos, rules)


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_ties_and_la_real_word_for_word(rules: Rules) -> None:
    hands = with_ties_and_la_real(3000, seed=11)
    manos = np.random.default_rng(11).integers(0, 4, len(hands))
    got = explain_batch(hands, manos, rules)
    assert got == one_by_one(hands, manos, rules)
    assert any("nearer mano" in s or "is mano" in s for s in got["grande"])  # ties were tried


def test_each_deal_its_own_kings() -> None:
    hands = deals_to_array([d["hands"] for d in DEALS[:400]])
    manos = np.array([d["mano"] for d in DEALS[:400]])
    kings = np.where(np.arange(400) % 3 == 0, 4, 8)
    got = explain_batch(hands, manos, Rules(), kings=kings)
    for k in (8, 4):
        chosen = kings == k
        want = one_by_one(hands[chosen], manos[chosen], Rules(kings=k))
        assert {lance: [s for s, c in zip(said, chosen, strict=True) if c] for lance, said in got.items()} == want


def test_bad_input_is_named() -> None:
    hands = deals_to_array([d["hands"] for d in DEALS[:3]])
    hands[2, 3, 0] = hands[2, 0, 0]
    with pytest.raises(DuplicateCardError, match="deal at index 2"):
        explain_batch(hands, 0)
    with pytest.raises(RulesError, match="kings must be 8 or 4"):
        explain_batch(hands[:2], 0, kings=[8, 5])


def test_judge_explain_matches_evaluate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "deals.jsonl"
    f.write_text("".join(json.dumps({"hands": d["hands"], "mano": d["mano"]}) + "\n" for d in DEALS), "utf-8")
    assert main(["judge", "--explain", str(f)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(DEALS)
    for d, line in zip(DEALS, lines, strict=True):
        result = evaluate(d["hands"], d["mano"])
        assert json.loads(line) == {**result.winners(), "explanations": result.explanations()}


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS[:2], ids=str)
def test_100000_random_deals_word_for_word(rules: Rules) -> None:
    hands = random_deals(100_000, seed=2024)
    manos = np.random.default_rng(2024).integers(0, 4, len(hands))
    assert explain_batch(hands, manos, rules) == one_by_one(hands, manos, rules)
