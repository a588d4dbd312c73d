"""The command line's error contract for every input (issue 11): ``musteach judge`` and ``musteach count`` either
succeed with one output line per deal or case, or exit 2 with exactly one line on stderr and nothing on stdout;
never a traceback, never a silent exit 0. In-process through :func:`musteach.cli.main` for speed (hypothesis), and
a few cases through the installed command."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musteach import DECK
from musteach.cli import main

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
SCORING = json.loads((VECTORS / "scoring.json").read_text(encoding="utf-8"))
MUSTEACH = Path(sys.executable).with_name("musteach")
DEAL = {"hands": [["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"], ["1o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"]], "mano": 0}
HUGE = "7" * 4400  # more digits than Python turns into an int from text (4,300)
BIG = "7" * 4000  # fewer: a valid JSON integer that json reads, far beyond any seat or stake


def run_main(command: str, text: str, monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main([command, *args, "-"])
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_contract(command: str, code: int, out: str, err: str, items: int | None = None) -> None:
    """Exit 0 with output lines (one per item when known) and no stderr, or exit 2 with one line and no output."""
    assert code in (0, 2), (code, err)
    if code == 2:
        assert out == ""
        assert err.count("\n") == 1 and err.endswith("\n"), err
        assert err.startswith(f"musteach {command}: ") and "Traceback" not in err
    else:
        assert err == ""
        lines = out.splitlines()
        assert lines, "exit 0 must print something"
        if items is not None:
            assert len(lines) == items


# ----- the cases named in issue 11 --------------------------------------------------------------------------------

CARD_CODES = [c.code for c in DECK]


def deal_text(**changes: object) -> str:
    return json.dumps({**DEAL, **changes})


def with_card(seat: int, k: int, card: str) -> str:
    hands = [list(h) for h in DEAL["hands"]]
    hands[seat][k] = card
    return json.dumps({"hands": hands, "mano": 1}, ensure_ascii=False)


JUDGE_REFUSED = {
    "huge mano": (f'{{"hands": {json.dumps(DEAL["hands"])}, "mano": {HUGE}}}', "4,300 digits"),
    "big mano": (f'{{"hands": {json.dumps(DEAL["hands"])}, "mano": {BIG}}}', "mano must be a seat"),
    "huge card rank": (with_card(0, 0, "1" * 4400 + "o"), "unknown card"),
    "fullwidth digits": (with_card(0, 0, "１２ｏ"), "unknown card '１２ｏ'"),
    "arabic-indic digits": (with_card(0, 0, "١٢o"), "unknown card '١٢o'"),
    "superscript digits": (with_card(0, 0, "¹²o"), "unknown card '¹²o'"),
    "accented suit letter": (with_card(0, 0, "12ö"), "unknown card '12ö'"),
    "leading zero": (with_card(0, 0, "012o"), "unknown card '012o'"),
    "a hand as an object": (
        json.dumps({"hands": [{"12o": 1, "3c": 1, "7e": 1, "5b": 1}, *DEAL["hands"][1:]], "mano": 0}),
        "seat 0: a hand holds 4 cards",
    ),
    "empty": ("", "no deals"),
    "blank": ("  \n\t\n", "no deals"),
    "empty array": ("[]", "no deals"),
}


@pytest.mark.parametrize("name", list(JUDGE_REFUSED))
def test_judge_refuses_with_one_line(name, monkeypatch, capsys):
    text, words = JUDGE_REFUSED[name]
    code, out, err = run_main("judge", text, monkeypatch, capsys)
    assert_contract("judge", code, out, err)
    assert code == 2 and words in err


def test_spanish_names_with_accents_are_still_cards(monkeypatch, capsys):
    hands = [["as de espadas", "rey de oros", "7e", "5b"], ["12c", "11o", "11c", "4e"], ["1o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"]]
    accented = [["ás de espadas", "rey de oros", "7e", "5b"], *hands[1:]]
    code, out, err = run_main("judge", json.dumps({"hands": accented, "mano": 0}, ensure_ascii=False), monkeypatch, capsys)
    assert (code, err) == (0, "")
    code, plain, _ = run_main("judge", json.dumps({"hands": hands, "mano": 0}), monkeypatch, capsys)
    assert out == plain


def _case(**changes: object) -> dict:
    case = json.loads(json.dumps(SCORING[1]))
    case.update(changes)
    return case


COUNT_REFUSED = {
    "huge mano": (json.dumps(_case(mano_seat="HUGE")).replace('"HUGE"', HUGE), "4,300 digits"),
    "huge stake": (json.dumps(_case(betting={"grande": {"type": "accepted", "stake": "HUGE"}})).replace('"HUGE"', HUGE), "4,300 digits"),
    "huge start score": (json.dumps(_case(start_score={"A": "HUGE", "B": 0})).replace('"HUGE"', HUGE), "4,300 digits"),
    "big start score": (json.dumps(_case(start_score={"A": "BIG", "B": 0})).replace('"BIG"', BIG), "start_score"),
    "huge card rank": (json.dumps(_case(hands={"0": ["1" * 4400 + "o", "12c", "3o", "7o"], "1": ["1o", "1c", "4o", "5o"], "2": ["11o", "11c", "10o", "1e"], "3": ["6o", "6c", "5c", "4c"]})), "unknown card"),
    "fullwidth digits": (json.dumps(_case(hands={"0": ["１２ｏ", "12c", "3o", "7o"], "1": ["1o", "1c", "4o", "5o"], "2": ["11o", "11c", "10o", "1e"], "3": ["6o", "6c", "5c", "4c"]})), "unknown card"),
    "a hand as an object": (json.dumps(_case(hands={"0": {"12o": 0, "12c": 0, "3o": 0, "7o": 0}, "1": ["1o", "1c", "4o", "5o"], "2": ["11o", "11c", "10o", "1e"], "3": ["6o", "6c", "5c", "4c"]})), "a hand holds 4 cards"),
    "empty": ("", "no cases"),
    "empty array": ("[]", "no cases"),
}


@pytest.mark.parametrize("name", list(COUNT_REFUSED))
def test_count_refuses_with_one_line(name, monkeypatch, capsys):
    text, words = COUNT_REFUSED[name]
    code, out, err = run_main("count", text, monkeypatch, capsys)
    assert_contract("count", code, out, err)
    assert code == 2 and words in err, err


def test_a_big_but_readable_stake_keeps_the_contract(monkeypatch, capsys):
    """4,000 digits is a JSON integer Python reads: counted or refused, but in one line either way."""
    text = json.dumps(_case(betting={"grande": {"type": "accepted", "stake": "BIG"}})).replace('"BIG"', BIG)
    assert_contract("count", *run_main("count", text, monkeypatch, capsys), items=1)


# ----- hypothesis: any JSON, and deals or cases with any part replaced ---------------------------------------------

ODD_TEXT = st.sampled_from(["１２ｏ", "١٢o", "¹²o", "12ö", "012o", "8b", "Xo", "", " ", "rey de oros", "Ro", "12O", "HUGE", "BIG"])
SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.floats(allow_nan=False), st.text(max_size=6), ODD_TEXT
)
JSON = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20)
CARD = st.one_of(st.sampled_from(CARD_CODES), ODD_TEXT, JSON)
HAND = st.one_of(st.lists(CARD, min_size=4, max_size=4), st.lists(st.sampled_from(CARD_CODES), min_size=3, max_size=5), JSON)
DEAL_LIKE = st.fixed_dictionaries(
    {"hands": st.one_of(st.lists(HAND, min_size=4, max_size=4), JSON), "mano": st.one_of(st.integers(0, 3), SCALAR)},
    optional={"variant": st.one_of(st.sampled_from(["8reyes", "4reyes", " 4Reyes", "5reyes"]), SCALAR)},
)


def as_text(items: list, layout: str) -> str:
    if layout == "array":
        text = json.dumps(items, ensure_ascii=False)
    elif layout == "lines":
        text = "\n".join(json.dumps(x, ensure_ascii=False) for x in items) + "\n"
    else:
        text = json.dumps(items[0], ensure_ascii=False) if items else ""
    return text.replace('"HUGE"', HUGE).replace('"BIG"', BIG)


LAYOUT = st.sampled_from(["array", "lines", "one"])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(deals=st.lists(st.one_of(DEAL_LIKE, JSON, st.just(DEAL)), max_size=4), layout=LAYOUT, explain=st.booleans())
def test_judge_keeps_the_contract_for_any_input(deals, layout, explain, monkeypatch, capsys):
    text = as_text(deals, layout)
    code, out, err = run_main("judge", text, monkeypatch, capsys, *(["--explain"] if explain else []))
    expected_lines = (1 if layout == "one" else len(deals)) if deals else None
    assert_contract("judge", code, out, err, expected_lines)


@FUZZ
@given(deals=st.lists(st.sampled_from([DEAL, {**DEAL, "mano": 3}, {**DEAL, "variant": "4reyes"}]), min_size=1, max_size=5), layout=LAYOUT)
def test_good_deals_are_judged_alike_in_every_layout(deals, layout, monkeypatch, capsys):
    code, out, err = run_main("judge", as_text(deals, layout), monkeypatch, capsys)
    assert code == 0 and err == ""
    assert len(out.splitlines()) == (1 if layout == "one" else len(deals))


CASE_PART = st.sampled_from(["hands", "mano_seat", "variant", "target", "start_score", "betting", "rules"])


@FUZZ
@given(
    cases=st.lists(
        st.one_of(
            st.tuples(st.sampled_from(range(len(SCORING))), CASE_PART, JSON),
            st.tuples(st.sampled_from(range(len(SCORING))), st.sampled_from(["betting"]), st.dictionaries(st.sampled_from(["grande", "chica", "pares", "juego"]), st.fixed_dictionaries({"type": st.sampled_from(["accepted", "rejected", "paso", "ordago"]), "stake": SCALAR}), max_size=2)),
            JSON,
        ),
        max_size=3,
    ),
    layout=LAYOUT,
)
def test_count_keeps_the_contract_for_any_input(cases, layout, monkeypatch, capsys):
    items = []
    for c in cases:
        if isinstance(c, tuple):
            index, part, value = c
            items.append({**SCORING[index], part: value})
        else:
            items.append(c)
    code, out, err = run_main("count", as_text(items, layout), monkeypatch, capsys)
    assert_contract("count", code, out, err, (1 if layout == "one" else len(items)) if items else None)


# ----- through the installed command -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "text", "words"),
    [
        ("judge", JUDGE_REFUSED["huge mano"][0], "4,300 digits"),
        ("judge", "[]", "no deals"),
        ("judge", JUDGE_REFUSED["fullwidth digits"][0], "unknown card"),
        ("count", "[]", "no cases"),
        ("count", COUNT_REFUSED["huge stake"][0], "4,300 digits"),
    ],
)
def test_the_installed_command_keeps_the_contract(command, text, words):
    p = subprocess.run([str(MUSTEACH), command], input=text, capture_output=True, text=True, timeout=120, check=False)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr and words in p.stderr
