"""The count of many hands at once (issue 16): :func:`musteach.rules.count_batch.count_batch` and the batched
default path of ``musteach count`` give exactly what :func:`musteach.rules.count.count_case` gives one case at a
time, on random cases of every kind and on every scoring.json vector; bad input still names the first bad case."""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from musteach.cli import main
from musteach.commands.count import batch_output, read_cases, result_line
from musteach.rules.batch import deals_to_array
from musteach.rules.betting import BettingOutcome
from musteach.rules.cards import CARD_TEXTS
from musteach.rules.count import count_case, count_hand
from musteach.rules.count_batch import BetKind, count_batch, encode_outcome, random_cases
from musteach.rules.errors import MusError
from musteach.rules.options import Rules

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
SCORING = json.loads((VECTORS / "scoring.json").read_text(encoding="utf-8"))
LANCES = ("grande", "chica", "pares", "juego", "punto")


def encoded(cases: list[dict]) -> dict:
    """The arrays of count_batch for scoring.json cases, built one by one from the schema's own readers."""
    kinds = [
        [encode_outcome(None if c["betting"].get(lance) is None else BettingOutcome.from_dict(c["betting"][lance])) for lance in LANCES]
        for c in cases
    ]
    arr = np.array(kinds, np.int64).reshape(len(cases), 5, 3)
    return {
        "hands": deals_to_array([[c["hands"][str(s)] for s in range(4)] for c in cases]),
        "mano": np.array([c["mano_seat"] for c in cases]),
        "kinds": arr[..., 0],
        "amounts": arr[..., 1],
        "teams": arr[..., 2],
        "start_score": np.array([[c["start_score"]["A"], c["start_score"]["B"]] for c in cases]),
        "target": np.array([c["target"] for c in cases]),
        "kings": np.array([Rules.from_variant(c["variant"]).kings for c in cases]),
    }


def batch_dicts(cases: list[dict], rules: Rules | None = None) -> list[dict]:
    a = encoded(cases)
    r = count_batch(
        a["hands"], a["mano"], a["kinds"], a["amounts"], a["teams"],
        start_score=a["start_score"], target=a["target"], kings=a["kings"], rules=rules,
    )
    assert r.counted.all()
    return [r.to_dict(i) for i in range(len(cases))]


def one_by_one(cases: list[dict], rules: Rules | None = None) -> list[dict]:
    out = []
    for c in cases:
        options = {} if rules is None else {
            "deje_timing": rules.deje_timing,
            "punto_bonus_when_accepted": rules.punto_bonus_when_accepted,
            "punto_bonus_on_refusal": rules.punto_bonus_on_refusal,
        }
        case_rules = Rules.from_variant(c["variant"], target=c["target"], **options)
        hands = [c["hands"][str(s)] for s in range(4)]
        out.append(count_hand(hands, c["mano_seat"], case_rules, c["start_score"], c["betting"]).to_dict())
    return out


# ----- count_batch against the one-case count ---------------------------------------------------------------------


def test_every_scoring_vector_counts_as_expected_in_bulk() -> None:
    assert batch_dicts(SCORING) == [c["expected"] for c in SCORING]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(deje_timing="end"), Rules(punto_bonus_when_accepted=False, punto_bonus_on_refusal=False)],
    ids=["default", "deje at the end", "no punto bonus"],
)
def test_count_batch_equals_count_hand_on_random_cases(rules: Rules) -> None:
    cases = random_cases(800, seed=11)
    assert batch_dicts(cases, rules) == one_by_one(cases, rules)


@pytest.mark.slow
def test_count_batch_equals_count_case_on_many_random_cases() -> None:
    cases = random_cases(20_000, seed=2024, vectors=SCORING)
    assert batch_dicts(cases) == [count_case(c).to_dict() for c in cases]


def test_a_betting_that_breaks_a_rule_is_not_counted() -> None:
    case = next(c for c in SCORING if c["id"] == "S01")  # only team A holds juego: no betting round there
    a = encoded([case, case, case])
    a["kinds"][1, 3] = BetKind.ACCEPTED  # betting on juego that only one team holds
    a["amounts"][1, 3] = 2
    a["kinds"][2, 0] = BetKind.NO_BET  # no_bet in grande, which always has a betting round
    r = count_batch(a["hands"], a["mano"], a["kinds"], a["amounts"], a["teams"], start_score=a["start_score"])
    assert r.counted.tolist() == [True, False, False]
    assert r.to_dict(0) == case["expected"]


def test_encode_outcome_reads_every_type() -> None:
    assert encode_outcome(BettingOutcome.accepted(5)) == (BetKind.ACCEPTED, 5, 0)
    assert encode_outcome(BettingOutcome.rejected(["ordago"], "A")) == (BetKind.REJECTED, 1, 0)
    assert encode_outcome(BettingOutcome.ordago_accepted()) == (BetKind.ORDAGO_ACCEPTED, 0, 0)
    assert encode_outcome(BettingOutcome.no_bet()) == (BetKind.NO_BET, 0, 0)
    assert encode_outcome(None) == (BetKind.MISSING, 0, 0)


# ----- the generator ---------------------------------------------------------------------------------------------


def test_random_cases_are_valid_varied_and_repeatable() -> None:
    cases = random_cases(800, seed=5, vectors=SCORING, every=10)
    assert cases == random_cases(800, seed=5, vectors=SCORING, every=10)
    assert cases != random_cases(800, seed=6, vectors=SCORING, every=10)
    results = [count_case(c) for c in cases]  # every case is valid by the rules: none raises
    types = Counter(b["type"] for c in cases for b in c["betting"].values())
    assert set(types) == {"paso", "accepted", "rejected", "ordago_accepted", "no_bet"}
    assert {c["variant"] for c in cases} == {"8reyes", "4reyes"}
    assert {c["target"] for c in cases} == {30, 35, 40}
    assert {c["mano_seat"] for c in cases} == {0, 1, 2, 3}
    assert any("ordago" in b.get("stakes", []) for c in cases for b in c["betting"].values())
    assert any(len(b.get("stakes", [])) > 2 for c in cases for b in c["betting"].values())
    assert any("stakes" in b for c in cases for b in c["betting"].values() if b["type"] == "accepted")
    ended = Counter(r.ended_at.split(":")[0] if r.ended_at else None for r in results)
    assert set(ended) == {None, "betting", "count", "ordago"}
    assert sum(c["id"].startswith("S") for c in cases) == 80  # a vector every 10 cases


def test_random_cases_refuses_a_bad_number() -> None:
    with pytest.raises(MusError, match="whole number of cases"):
        random_cases(-1)


# ----- the command: batched output equals the per-case output, byte for byte --------------------------------------


def per_case_output(text: str) -> str:
    """What the per-case path writes: json.dumps of result_line for each case, as before the batched path."""
    lines = []
    for label, case in read_cases(text):
        cid = case.get("id")
        lines.append(json.dumps(result_line(cid if cid is not None else label, count_case(case)), ensure_ascii=False))
    return "\n".join(lines) + "\n"


def run_count(text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["count", *args, "-"])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("layout", ["lines", "array"])
def test_the_command_writes_what_the_per_case_path_writes(layout: str, monkeypatch, capsys) -> None:
    cases = random_cases(1000, seed=7, vectors=SCORING)
    text = json.dumps(cases) if layout == "array" else "".join(json.dumps(c) + "\n" for c in cases)
    assert batch_output(text.encode()) is not None  # the batched path took it
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert out == per_case_output(text)


def test_one_case_and_cases_without_id_are_labelled_as_before(monkeypatch, capsys) -> None:
    cases = [{k: v for k, v in c.items() if k != "id"} for c in random_cases(3, seed=1)]
    for text in (json.dumps(cases[0]), "".join(json.dumps(c) + "\n" for c in cases), json.dumps(cases)):
        assert batch_output(text.encode()) is not None
        code, out, _ = run_count(text, monkeypatch, capsys)
        assert code == 0 and out == per_case_output(text)
    code, out, _ = run_count("".join(json.dumps(c) + "\n" for c in cases), monkeypatch, capsys, "--lang", "es")
    assert [json.loads(line)["id"] for line in out.splitlines()] == [f"caso {k} (línea {k})" for k in (1, 2, 3)]


def test_ids_needing_escapes_are_written_as_json_dumps_writes_them(monkeypatch, capsys) -> None:
    cases = random_cases(4, seed=3)
    for case, cid in zip(cases, ['say "hola"', "back\\slash", "tab\there", "ñandú ↔ 7"], strict=True):
        case["id"] = cid
    cases.append({**random_cases(1, seed=4)[0], "id": 17})
    text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
    code, out, _ = run_count(text, monkeypatch, capsys)
    assert code == 0 and out == per_case_output(text)


UNUSUAL = [
    ("another variant name", {"variant": "a30"}),
    ("rules options", {"rules": {"deje_timing": "end"}}),
    ("empty rules", {"rules": {}}),
    ("mano instead of mano_seat", "mano"),
    ("hands as a list", "hands list"),
    ("start score as a pair", "score pair"),
    ("a huge accepted stake", {"betting": {"grande": {"type": "accepted", "stake": 10**15}}}),
    ("an accented órdago", {"betting": {"grande": {"type": "rejected", "stakes": [2, "órdago"], "winner_team": "A"}}}),
    ("no target", "no target"),
    ("no betting", "no betting"),
]


@pytest.mark.parametrize(("name", "change"), UNUSUAL, ids=[u[0] for u in UNUSUAL])
def test_unusual_but_valid_cases_are_counted_as_before(name, change, monkeypatch, capsys) -> None:
    cases = random_cases(40, seed=9, vectors=SCORING, every=7)
    case = dict(cases[20])
    if change == "mano":
        case["mano"] = case.pop("mano_seat")
    elif change == "hands list":
        case["hands"] = [case["hands"][str(s)] for s in range(4)]
    elif change == "score pair":
        case["start_score"] = [case["start_score"]["A"], case["start_score"]["B"]]
    elif change == "no target":
        del case["target"]
        case["start_score"] = {"A": 0, "B": 0}
    elif change == "no betting":
        del case["betting"]
    else:
        case.update(change)
    cases[20] = case
    text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
    assert batch_output(text.encode()) is not None  # read in bulk; that one case counted on its own
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert out == per_case_output(text)


def test_the_first_bad_case_is_named_among_many_good_ones(monkeypatch, capsys) -> None:
    cases = random_cases(300, seed=13, vectors=SCORING)
    s01 = next(c for c in SCORING if c["id"] == "S01")  # only team A holds juego
    cases[120] = {**s01, "id": "bad-juego", "betting": {**s01["betting"], "juego": {"type": "accepted", "stake": 2}}}
    cases[200] = {**cases[200], "id": "bad-mano", "mano_seat": 7}
    text = "".join(json.dumps(c) + "\n" for c in cases)
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, out) == (2, "")
    assert err.startswith("musteach count: case 121 (line 121) (bad-juego): betting.juego is 'accepted', but only team A")
    assert err.count("\n") == 1
    code, out, err = run_count(text, monkeypatch, capsys, "--lang", "es")
    assert code == 2 and err.startswith("musteach count: caso 121 (línea 121) (bad-juego): ")
    cases[120] = random_cases(1, seed=1)[0]
    text = "".join(json.dumps(c) + "\n" for c in cases)
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, out) == (2, "")
    assert err == "musteach count: case 201 (line 201) (bad-mano): mano must be a seat 0, 1, 2 or 3, not 7\n"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"hands": {"0": ["1o", "1c", "1e", "1b"], "1": ["1o", "2c", "2e", "2b"], "2": ["3o", "3c", "3e", "3b"], "3": ["4o", "4c", "4e", "4b"]}}, "card 1o (as de oros) is dealt twice"),
        ({"start_score": {"A": 39, "B": 0}, "target": 30}, "already won the game"),
        ({"betting": {"chica": {"type": "rejected", "stakes": [2, 3], "winner_team": "B"}}}, "raises by 1"),
        ({"betting": {"grande": {"type": "accepted", "stake": "dos"}}}, "betting.grande"),
        ({"betting": {"grande": {"type": "paso", "stake": 2}}}, "unexpected field(s) stake"),
        ({"target": 45}, "target must be 30, 35 or 40"),
        ({"variant": "6reyes"}, "unknown rules preset"),
    ],
)
def test_bad_cases_are_named_as_on_the_per_case_path(change, words, monkeypatch, capsys) -> None:
    cases = random_cases(30, seed=21)
    cases[17] = {**cases[17], **change}
    text = json.dumps(cases)
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, out) == (2, "")
    with pytest.raises(MusError) as e:
        count_case(cases[17])
    assert err == f"musteach count: case 18 (R18): {e.value}\n"
    assert words in err


# ----- what the bulk reader vouches for, and what it sends to the per-case path -----------------------------------


def counted_one_by_one(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the cases that ``musteach count`` counts one by one (with count_case), as it counts them."""
    import musteach.commands.count as command

    ids: list[str] = []

    def counting(case):
        ids.append(case.get("id"))
        return count_case(case)

    monkeypatch.setattr(command, "count_case", counting)
    return ids


def test_clean_input_is_read_in_bulk_without_a_case_counted_on_its_own(monkeypatch, capsys) -> None:
    one_by_one_ids = counted_one_by_one(monkeypatch)
    cases = random_cases(600, seed=31, vectors=SCORING)
    text = "".join(json.dumps(c) + "\n" for c in cases)
    code, out, _ = run_count(text, monkeypatch, capsys)
    assert code == 0 and one_by_one_ids == []
    assert out == per_case_output(text)


ODD = [
    ("a card by its name", lambda c: c["hands"]["2"].__setitem__(1, "Rey de Oros")),
    ("a letter code", lambda c: c["hands"]["1"].__setitem__(0, "Ro")),
    ("lances in another order", lambda c: c.__setitem__("betting", dict(reversed(list(c["betting"].items()))))),
    ("a betting given as null", lambda c: c.__setitem__("betting", None)),
    ("an empty betting", lambda c: c.__setitem__("betting", {})),
    ("a lance given as null", lambda c: c["betting"].__setitem__("grande", None)),
    ("a long chain of raises", lambda c: c["betting"].__setitem__("grande", {"type": "accepted", "stakes": list(range(2, 80, 2))})),
    ("a start score as a pair", lambda c: c.__setitem__("start_score", [c["start_score"]["A"], c["start_score"]["B"]])),
]


@pytest.mark.parametrize(("name", "change"), ODD, ids=[o[0] for o in ODD])
def test_an_unusual_case_alone_goes_to_the_per_case_path(name, change, monkeypatch, capsys) -> None:
    one_by_one_ids = counted_one_by_one(monkeypatch)
    cases = random_cases(250, seed=37)
    for case in cases:
        if "grande" not in case["betting"] or case["betting"]["grande"]["type"] == "paso":  # all unsaid is paso
            continue
        break
    change(case)
    text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert out == per_case_output(text)
    assert set(one_by_one_ids) <= {case["id"]}  # the others were read in bulk (some changes it reads too)


def test_an_unknown_card_code_names_its_case_and_line(monkeypatch, capsys) -> None:
    cases = random_cases(300, seed=41)
    cases[250]["hands"]["3"][2] = "13o"
    text = "".join(json.dumps(c) + "\n" for c in cases)
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, out) == (2, "")
    with pytest.raises(MusError) as e:
        count_case(cases[250])
    assert err == f"musteach count: case 251 (line 251) (R251): {e.value}\n"
    assert "13o" in err


def test_large_input_read_in_two_halves_by_two_processes_counts_as_one(monkeypatch, capsys) -> None:
    import musteach.commands.count as command

    one_by_one_ids = counted_one_by_one(monkeypatch)
    cases = random_cases(400, seed=43, vectors=SCORING)
    card = CARD_TEXTS[cases[300]["hands"]["0"][0]]
    cases[300]["hands"]["0"][0] = next(t for t, c in CARD_TEXTS.items() if c == card and " de " in t)  # its name
    cases[350]["start_score"] = [cases[350]["start_score"]["A"], cases[350]["start_score"]["B"]]
    text = "".join(json.dumps(c) + "\n" for c in cases)
    monkeypatch.setattr(command, "SPLIT_BYTES", len(text) // 3)  # the second half holds cases 201-400
    assert len(command.clean_cases(text.encode())[0]) == 2
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert out == per_case_output(text)
    assert set(one_by_one_ids) <= {cases[300]["id"], cases[350]["id"]}
    cases[380]["mano_seat"] = 9  # a bad case in the second half is named as ever
    text = "".join(json.dumps(c) + "\n" for c in cases)
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, out) == (2, "")
    assert err == "musteach count: case 381 (line 381) (R381): mano must be a seat 0, 1, 2 or 3, not 9\n"


def test_cases_without_any_betting_are_counted_as_before(monkeypatch, capsys) -> None:
    cases = random_cases(6, seed=47)
    for case in cases:
        del case["betting"]
        case["start_score"] = {"A": 0, "B": 0}
    cases[2]["betting"] = None
    text = "".join(json.dumps(c) + "\n" for c in cases)
    assert batch_output(text.encode()) is not None
    code, out, err = run_count(text, monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert out == per_case_output(text)
