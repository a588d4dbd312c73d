"""``musteach judge``: through the installed command (subprocess) and through musteach.cli.main in-process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from musteach import Rules, evaluate
from musteach.cli import main

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
MUSTEACH = Path(sys.executable).with_name("musteach")  # the venv's console script
DEALS = [json.loads(line) for line in (VECTORS / "deals.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
LANCE_CASES = json.loads((VECTORS / "lances.json").read_text(encoding="utf-8"))

DEAL = {"hands": [["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"], ["1o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"]], "mano": 0}


def judge(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(MUSTEACH), "judge", *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def lines_of(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_console_script_exists():
    assert MUSTEACH.exists()


def test_deals_vectors_through_the_command():
    p = judge(str(VECTORS / "deals.jsonl"))
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    got = lines_of(p.stdout)
    assert got == [d["winners"] for d in DEALS]
    assert list(got[0]) == ["grande", "chica", "pares", "juego", "punto"]


def test_lances_vectors_through_the_command_json_array():
    """lances.json is a JSON array; each case's "variant" picks 8 or 4 reyes; extra keys are ignored."""
    p = judge(str(VECTORS / "lances.json"))
    assert p.returncode == 0, p.stderr
    got = lines_of(p.stdout)
    assert len(got) == len(LANCE_CASES)
    for case, out in zip(LANCE_CASES, got, strict=True):
        assert out[case["lance"]] == case["winner"], case["id"]


def test_json_array_jsonl_single_object_and_stdin_agree(tmp_path):
    deals = [{"hands": d["hands"], "mano": d["mano"]} for d in DEALS[:40]]
    expected = [d["winners"] for d in DEALS[:40]]
    array = tmp_path / "deals.json"
    array.write_text(json.dumps(deals, indent=2), encoding="utf-8")
    jsonl = tmp_path / "deals.jsonl"
    jsonl.write_text("\n".join(json.dumps(d) for d in deals) + "\n\n", encoding="utf-8")
    assert lines_of(judge(str(array)).stdout) == expected
    assert lines_of(judge(str(jsonl)).stdout) == expected
    assert lines_of(judge("-", stdin=jsonl.read_text()).stdout) == expected
    assert lines_of(judge(stdin=array.read_text()).stdout) == expected
    one = judge(stdin=json.dumps(deals[0], indent=2))  # one pretty-printed object
    assert lines_of(one.stdout) == expected[:1]


@pytest.mark.parametrize("text", ["", "\n", "  \n\t\n", "[]", " [ ] \n"])
def test_input_without_deals_says_no_deals(text, monkeypatch, capsys):
    """Issue 11: empty, blank or ``[]`` input is not a silent success."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["judge"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("musteach judge: no deals") and captured.err.count("\n") == 1


def test_explain_adds_the_sentences():
    p = judge("--explain", stdin=json.dumps(DEAL))
    assert p.returncode == 0, p.stderr
    (out,) = lines_of(p.stdout)
    result = evaluate(DEAL["hands"], DEAL["mano"])
    assert out == {**result.winners(), "explanations": result.explanations()}
    assert out["explanations"]["grande"] == "Seat 0 wins Grande: R-R-7-5 beats R-C-C-4 on the second card."


def test_kings_flag_and_variant_override():
    case = next(c for c in LANCE_CASES if c["id"] == "C04")  # 4 reyes: a 2 is not an ace
    deal = {"hands": case["hands"], "mano": case["mano"]}
    eight = lines_of(judge(stdin=json.dumps(deal)).stdout)[0]["chica"]
    four = lines_of(judge("--kings", "4", stdin=json.dumps(deal)).stdout)[0]["chica"]
    assert four == case["winner"] == evaluate(case["hands"], case["mano"], Rules(kings=4)).chica.winner
    assert eight == evaluate(case["hands"], case["mano"]).chica.winner != four
    # a deal's variant wins over the flag
    assert lines_of(judge("--kings", "4", stdin=json.dumps({**deal, "variant": "8reyes"})).stdout)[0]["chica"] == eight
    assert lines_of(judge(stdin=json.dumps({**deal, "variant": "4reyes"})).stdout)[0]["chica"] == four


def test_la_real_flag():
    deal = {"hands": [["12o", "11o", "10o", "1o"], ["7o", "7c", "7e", "10c"], ["4e", "5e", "6e", "1e"], ["4c", "5c", "6c", "1c"]], "mano": 0}
    assert lines_of(judge(stdin=json.dumps(deal)).stdout)[0]["juego"] == 0
    p = judge("--la-real", "--explain", stdin=json.dumps(deal))
    (out,) = lines_of(p.stdout)
    assert out["juego"] == 1
    assert "la real" in out["explanations"]["juego"]


def _bad(deal_text: str) -> str:
    """Two good deals, then the bad one as deal 3."""
    return json.dumps(DEAL) + "\n" + json.dumps({**DEAL, "mano": 2}) + "\n" + deal_text + "\n"


def _hands_with(seat: int, hand: list[str]) -> str:
    hands = [list(h) for h in DEAL["hands"]]
    hands[seat] = hand
    return json.dumps({"hands": hands, "mano": 1})


BAD_INPUTS = {
    "unknown card": (_hands_with(3, ["6c", "6e", "10o", "8b"]), ["deal 3", "seat 3", "'8b'"]),
    "dealt twice": (_hands_with(3, ["6c", "6e", "10o", "12o"]), ["deal 3", "12o", "seat 0 and seat 3"]),
    "twice in a hand": (_hands_with(2, ["1o", "1o", "4o", "5o"]), ["deal 3", "seat 2", "1o", "twice"]),
    "three cards": (_hands_with(1, ["12c", "11o", "11c"]), ["deal 3", "seat 1", "[12c 11o 11c]"]),
    "three hands": (json.dumps({"hands": DEAL["hands"][:3], "mano": 0}), ["deal 3", "not 3 hands"]),
    "mano 4": (json.dumps({**DEAL, "mano": 4}), ["deal 3", "mano", "not 4"]),
    "mano text": (json.dumps({**DEAL, "mano": "0"}), ["deal 3", "mano", "\"0\""]),
    "no mano": (json.dumps({"hands": DEAL["hands"]}), ["deal 3", "missing 'mano'"]),
    "no hands": (json.dumps({"mano": 0}), ["deal 3", "missing 'hands'"]),
    "variant": (json.dumps({**DEAL, "variant": "5reyes"}), ["deal 3", "'5reyes'"]),
    "bad json": ('{"hands": [', ["deal 3", "invalid JSON"]),
    "not an object": ("[1, 2]", ["deal 3", "expected an object"]),
    "hands not a list": (json.dumps({"hands": 5, "mano": 0}), ["deal 3", "'hands'"]),
}


@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line(name, monkeypatch, capsys):
    """In-process (fast): status 2, one line naming deal 3 and what is wrong, nothing on stdout."""
    text, words = BAD_INPUTS[name]
    monkeypatch.setattr(sys, "stdin", io.StringIO(_bad(text)))
    assert main(["judge"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing is judged when any deal is bad
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("musteach judge: deal 3")
    for w in words:
        assert w in lines[0]


@pytest.mark.parametrize("name", ["unknown card", "dealt twice", "mano 4", "bad json", "three cards", "variant"])
def test_bad_input_through_the_command_has_no_traceback(name):
    text, words = BAD_INPUTS[name]
    p = judge(stdin=_bad(text))
    assert p.returncode == 2
    assert p.stdout == ""
    assert "Traceback" not in p.stderr
    assert len(p.stderr.splitlines()) == 1
    assert p.stderr.startswith("musteach judge: deal 3") and all(w in p.stderr for w in words)


def test_bad_json_array_and_missing_file():
    p = judge(stdin='[{"hands": []},')
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1 and "invalid JSON" in p.stderr
    p = judge(stdin=json.dumps([DEAL, {**DEAL, "mano": 9}]))
    assert p.returncode == 2 and p.stderr.strip() == "musteach judge: deal 2: mano must be a seat 0, 1, 2 or 3, not 9"
    p = judge("/nonexistent/deals.jsonl")
    assert p.returncode == 2
    assert p.stderr.strip() == "musteach judge: cannot read /nonexistent/deals.jsonl: No such file or directory"


# ----- in-process, through musteach.cli.main -----------------------------------------------------------------------


def test_main_reads_a_file(tmp_path, capsys):
    f = tmp_path / "d.jsonl"
    f.write_text("\n".join(json.dumps({"hands": d["hands"], "mano": d["mano"]}) for d in DEALS[:25]), encoding="utf-8")
    assert main(["judge", str(f)]) == 0
    out = capsys.readouterr().out
    assert lines_of(out) == [d["winners"] for d in DEALS[:25]]


def test_main_reads_stdin_with_explain(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps([DEAL, {**DEAL, "variant": "4reyes"}])))
    assert main(["judge", "--explain", "-"]) == 0
    first, second = lines_of(capsys.readouterr().out)
    assert first["explanations"] == evaluate(DEAL["hands"], 0).explanations()
    assert second["explanations"] == evaluate(DEAL["hands"], 0, Rules(kings=4)).explanations()


def test_main_bad_input_returns_2(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(_bad(_hands_with(0, ["12o", "3c", "7e", "Xo"]))))
    assert main(["judge"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "musteach judge: deal 3: seat 0: unknown card 'Xo': expected a code such as '12o', 'Ro' or 'rey de oros'\n"


@pytest.mark.parametrize("command", ["judge", "grade", "count"])
def test_input_that_is_not_utf8_names_the_line(tmp_path, capsys, command):
    f = tmp_path / "deals.jsonl"
    f.write_bytes(json.dumps(DEAL).encode() + b"\n" + json.dumps(DEAL).encode()[:12] + b"\xff\xfe\n")
    assert main([command, str(f)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"musteach {command}: cannot read {f}: line 2 is not UTF-8 text (byte 0xff at column 13)\n"
