"""``musteach count``: every scoring vector through the command line, and bad input (RULES.md §7a)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from musteach.cli import main

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
SCORING_PATH = VECTORS / "scoring.json"
SCORING = json.loads(SCORING_PATH.read_text(encoding="utf-8"))
OUTPUT_KEYS = ["id", "stones", "hand_total", "final_score", "game_over", "game_winner", "ended_at"]


def _run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "musteach.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _expected_line(case: dict) -> dict:
    return {"id": case["id"], **case["expected"]}


def _check_lines(stdout: str) -> None:
    lines = [json.loads(line) for line in stdout.splitlines()]
    assert len(lines) == len(SCORING)
    for got, case in zip(lines, SCORING, strict=True):
        assert got == _expected_line(case), case["id"]
        assert list(got) == [k for k in OUTPUT_KEYS if k in got]  # documented key order
        if case["expected"].get("ended_at", "") and case["expected"]["ended_at"].startswith("ordago:"):
            assert "stones" not in got and "hand_total" not in got


def test_every_vector_through_the_command_line_file():
    p = _run(["count", str(SCORING_PATH)])
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    _check_lines(p.stdout)


def test_every_vector_as_jsonl_on_stdin():
    jsonl = "\n".join(json.dumps(c) for c in SCORING) + "\n"
    p = _run(["count", "-"], stdin=jsonl)
    assert p.returncode == 0, p.stderr
    _check_lines(p.stdout)


def test_in_process_and_stdin_default(capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(SCORING)))
    assert main(["count"]) == 0
    _check_lines(capsys.readouterr().out)


def test_check_mode(tmp_path, capsys):
    assert main(["count", "--check", str(SCORING_PATH)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{c['id']}: ok" for c in SCORING]
    wrong = json.loads(json.dumps(SCORING[:2]))
    wrong[1]["expected"]["final_score"]["A"] += 1
    f = tmp_path / "wrong.json"
    f.write_text(json.dumps(wrong), encoding="utf-8")
    assert main(["count", "--check", str(f)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{wrong[0]['id']}: ok"
    assert out[1].startswith(f"{wrong[1]['id']}: differs in final_score")


def test_explain_mode(capsys):
    assert main(["count", "--explain", str(SCORING_PATH)]) == 0
    out = capsys.readouterr().out
    assert "# S01\n" in out
    assert "Grande: seat 0's R-R-R-7 is best; en paso it pays 1 stone to team A (A 1, B 0)." in out


def test_a_case_without_id_is_labelled_by_number():
    case = {k: v for k, v in SCORING[0].items() if k != "id"}
    p = _run(["count", "-"], stdin=json.dumps(case))
    assert p.returncode == 0
    assert json.loads(p.stdout)["id"] == "case 1"


BAD = [
    ("[1, 2", "invalid JSON at line 1"),
    ('{"id": "a"}\n{oops\n', "line 2: invalid JSON"),
    ("", "no cases: the input is empty"),
    ("[]", "no cases"),
    (" [ ]\n", "no cases"),
    ("[3]", "case 1: a case must be a JSON object"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_unreadable_input_exits_2_with_one_line(text, message):
    p = _run(["count", "-"], stdin=text)
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr
    assert lines[0].startswith("musteach count: ") and message in lines[0]


def _variant(case_id: str, **changes) -> dict:
    case = json.loads(json.dumps(next(c for c in SCORING if c["id"] == case_id)))
    for path, value in changes.items():
        *head, last = path.split("__")
        d = case
        for k in head:
            d = d[k]
        if value is None:
            del d[last]
        else:
            d[last] = value
    return case


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (_variant("S02", betting__grande={"type": "accepted", "stake": 1}), "case 2 (S02): betting.grande: stake must be"),
        (_variant("S02", betting__chica={"type": "rejected", "stakes": [2, 3], "winner_team": "B"}), "raises by 1"),
        (_variant("S02", betting__juego={"type": "accepted", "stake": 2}), "only team A holds juego"),
        (_variant("S02", hands__3=["6o", "6c", "5c", "12o"]), "card 12o (rey de oros) is dealt twice"),
        (_variant("S02", hands__3=["6o", "6c", "5c"]), "seat 3: a hand holds 4 cards"),
        (_variant("S02", hands__3=["6o", "6c", "5c", "9o"]), "seat 3: unknown card '9o'"),
        (_variant("S02", mano_seat=4), "mano must be a seat 0, 1, 2 or 3"),
        (_variant("S02", mano_seat=None), "mano_seat is missing"),
        (_variant("S02", start_score={"A": 40, "B": 0}), "already won the game"),
        (_variant("S02", variant="6reyes"), "unknown rules preset"),
        (_variant("S02", betting__grande={"type": "maybe"}), "betting.grande.type must be one of"),
    ],
)
def test_bad_cases_exit_2_naming_the_case(case, message):
    text = json.dumps([SCORING[0], case])
    p = _run(["count", "-"], stdin=text)
    assert p.returncode == 2, p.stdout
    assert p.stdout == ""  # nothing half-printed
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr
    assert lines[0].startswith("musteach count: case 2 (S02): ")
    assert message in lines[0]


def test_missing_file_exits_2(tmp_path):
    p = _run(["count", str(tmp_path / "nope.json")])
    assert p.returncode == 2
    assert p.stderr.startswith("musteach count: cannot read") and "Traceback" not in p.stderr


@pytest.mark.parametrize("lang", ["en", "es"])
def test_missing_hands_shows_the_example_with_single_braces(lang, capsys):
    """A case without hands names the shape to give, written as JSON is: one brace, never ``{{``."""
    import io

    sys_stdin = io.StringIO("{}")
    orig = sys.stdin
    sys.stdin = sys_stdin
    try:
        assert main(["count", "--lang", lang]) == 2
    finally:
        sys.stdin = orig
    err = capsys.readouterr().err
    assert "{'0': [...], ..., '3': [...]}" in err
    assert "{{" not in err and "}}" not in err


@pytest.mark.parametrize("hands", ['"abcd"', "7", "true"])
def test_hands_of_the_wrong_type_are_named_not_called_missing(hands):
    p = _run(["count", "-"], stdin=f'{{"hands": {hands}, "mano": 0}}')
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "missing" not in p.stderr
    assert "hands must be the 4 hands by seat" in p.stderr and hands.strip('"') in p.stderr
