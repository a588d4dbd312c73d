"""Explanations in bulk (issue 16): :func:`explain_batch` and ``musteach judge --explain`` give, word for word,
the sentences of the one-deal path (:func:`evaluate`, :attr:`LanceResult.explanation`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from musteach import DECK, Rules, evaluate
from musteach.cli import main
from musteach.commands import judge
from musteach.rules.batch import deals_to_array, explain_batch, explanation_table, random_deals
from musteach.rules.errors import DuplicateCardError, RulesError
from musteach.rules.lances import Lance, SentenceParts, lance_words

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
DEALS = [json.loads(line) for line in (VECTORS / "deals.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
RULE_SETS = [
    Rules(),
    Rules(kings=4),
    Rules(la_real=True),
    Rules(la_real=True, la_real_figure="sota_de_oros"),
    Rules(kings=4, la_real=True, la_real_figure="any"),
]


def one_by_one(hands: np.ndarray, manos: np.ndarray, rules: Rules, lang: str | None = None) -> dict[str, list[str]]:
    """The sentences of the one-deal path, lance by lance."""
    out: dict[str, list[str]] = {}
    for deal, mano in zip(hands.tolist(), manos.tolist(), strict=True):
        said = evaluate([[DECK[c] for c in hand] for hand in deal], mano, rules).explanations(lang)
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


@pytest.mark.parametrize("figure", ["sota", "sota_de_oros", "any"])
def test_4_reyes_la_real_in_spanish_word_for_word(figure: str) -> None:
    # 4 reyes, la real and Spanish: the Grande and Chica sentences come from templates cut in bulk, the others
    # from the one-deal sentence; both must say what evaluate() says
    rules = Rules(kings=4, la_real=True, la_real_figure=figure)
    hands = with_ties_and_la_real(2000, seed=5)
    manos = np.random.default_rng(5).integers(0, 4, len(hands))
    got = explain_batch(hands, manos, rules, lang="es")
    assert got == one_by_one(hands, manos, rules, "es")
    assert any("la real" in s for s in got["juego"])  # la real was tried
    assert any("gana la grande" in s for s in got["grande"])


def test_each_deal_its_own_kings_in_spanish_with_la_real() -> None:
    rules = Rules(la_real=True, la_real_figure="sota_de_oros")
    hands = with_ties_and_la_real(1500, seed=8)
    manos = np.random.default_rng(8).integers(0, 4, len(hands))
    kings = np.where(np.random.default_rng(8).random(len(hands)) < 0.5, 4, 8)
    got = explain_batch(hands, manos, rules, kings=kings, lang="es")
    for k in (8, 4):
        chosen = kings == k
        want = one_by_one(hands[chosen], manos[chosen], Rules(kings=k, la_real=True, la_real_figure="sota_de_oros"), "es")
        assert {lance: [s for s, c in zip(said, chosen, strict=True) if c] for lance, said in got.items()} == want


def test_the_table_gives_each_deal_its_sentence() -> None:
    hands = random_deals(3000, seed=3)
    manos = np.random.default_rng(3).integers(0, 4, len(hands))
    table = explanation_table(hands, manos, Rules(kings=4))
    listed = explain_batch(hands, manos, Rules(kings=4))
    for lance, (sentences, which) in table.items():
        assert [sentences[i] for i in which.tolist()] == listed[lance]
        if lance in ("grande", "chica", "pares"):  # juego and punto may list a sentence twice (the loser's seat
            assert len(sentences) == len(set(listed[lance]))  # is read only after a 31, seats in speaking order)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_cut_sentences_fill_as_format_does(lang: str) -> None:
    words = lance_words(lang)
    for lance in (Lance.GRANDE, Lance.CHICA):
        for card in range(4):
            for seat in range(4):
                parts = words.card_beats(lance, card, seat)
                assert set(parts.fields) == {"win", "lose"}
                filled = parts.fill_columns({"win": ["R-R-7-5", "A-A-4-5"], "lose": ["R-C-C-4", "A-2-7-C"]}, 2)
                want = [parts.template.format(seat=seat, win=w, lose=lo) for w, lo in (("R-R-7-5", "R-C-C-4"), ("A-A-4-5", "A-2-7-C"))]
                assert filled == want


@pytest.mark.parametrize(
    "template",
    [
        "Seat {seat} wins: {win} beats {lose}.",
        "{lose} loses to {win}, seat {seat:>3} wins {{braces}}",  # another order, a spec and braces
        "{win!r} by seat {seat}: {lose}",  # an open placeholder with a conversion: filled by str.format
        "Seat {seat} and nothing open",
    ],
)
def test_sentence_parts_of_any_template(template: str) -> None:
    parts = SentenceParts.cut(template, seat=2)
    wins, loses = ["R-R", "C'x", "A"], ['S"S', "6", ""]
    columns = {"win": wins, "lose": loses}
    assert parts.fill_columns(columns, 3) == [template.format(seat=2, win=w, lose=lo) for w, lo in zip(wins, loses, strict=True)]
    assert parts.fill(win="R", lose="S") == template.format(seat=2, win="R", lose="S")


def test_judge_explain_escapes_what_json_escapes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    strange = ['a "quoted" word', "a back\\slash", "a\nnew line\tand tab", "plain", "\x01 control"]

    def table(hands: object, *args: object, **kwargs: object) -> dict[str, tuple[list[str], np.ndarray]]:
        n = len(hands)  # type: ignore[arg-type]
        which = np.arange(n) % len(strange)
        return {lance.value: (strange, which) for lance in Lance}

    monkeypatch.setattr(judge, "explanation_table", table)
    f = tmp_path / "deals.jsonl"
    f.write_text("".join(json.dumps({"hands": d["hands"], "mano": d["mano"]}) + "\n" for d in DEALS[:12]), "utf-8")
    assert main(["judge", "--explain", str(f)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["explanations"]["pares"] for line in lines] == [strange[i % 5] for i in range(12)]


def test_judge_explain_4_reyes_la_real_in_spanish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = with_ties_and_la_real(300, seed=4)
    manos = np.random.default_rng(4).integers(0, 4, len(hands))
    f = tmp_path / "deals.jsonl"
    f.write_text(
        "".join(
            json.dumps({"hands": [[DECK[c].code for c in h] for h in deal], "mano": m}) + "\n"
            for deal, m in zip(hands.tolist(), manos.tolist(), strict=True)
        ),
        "utf-8",
    )
    assert main(["judge", "--explain", "--kings", "4", "--la-real", "--lang", "es", str(f)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rules = Rules(kings=4, la_real=True)
    for deal, m, line in zip(hands.tolist(), manos.tolist(), lines, strict=True):
        result = evaluate([[DECK[c] for c in h] for h in deal], m, rules)
        assert json.loads(line) == {**result.winners(), "explanations": result.explanations("es")}


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
