"""``musteach grade``: through the installed command (subprocess) and through musteach.cli.main in-process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from musteach.cli import main
from musteach.teach.diagnosis import diagnose

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
MUSTEACH = Path(sys.executable).with_name("musteach")
LANCE_CASES = json.loads((VECTORS / "lances.json").read_text(encoding="utf-8"))
KEYS = ["correct", "winner", "mistake", "explanation", "why_not"]

HANDS = [["3o", "3c", "7e", "4b"], ["12c", "11o", "7c", "6e"], ["1o", "5c", "6o", "10e"], ["4c", "5e", "6c", "7o"]]
CASES = [
    {"hands": HANDS, "mano": 0, "lance": "grande", "answer": 1},  # three_is_not_king
    {"hands": HANDS, "mano": 0, "lance": "grande", "answer": 0},  # right
    {"hands": HANDS, "mano": 0, "lance": "grande", "answer": 3},  # a slip
    {"hands": HANDS, "mano": 0, "lance": "punto", "answer": None},  # right: seat 0 has 31, so nobody
]


def grade(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(MUSTEACH), "grade", *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def jsonl(cases) -> str:
    return "".join(json.dumps(c) + "\n" for c in cases)


def test_grade_through_the_command_one_line_per_case(tmp_path):
    f = tmp_path / "answers.jsonl"
    f.write_text(jsonl(CASES), encoding="utf-8")
    p = grade(str(f))
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    got = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(got) == len(CASES)
    assert all(list(g) == KEYS for g in got)
    for case, out in zip(CASES, got, strict=True):
        assert out == diagnose(case["hands"], case["mano"], case["lance"], case["answer"]).to_dict()
    assert [(g["correct"], g["winner"], g["mistake"]) for g in got[:3]] == [
        (False, 0, "three_is_not_king"),
        (True, 0, None),
        (False, 0, None),
    ]
    assert got[1]["why_not"] is None and got[2]["why_not"] is not None


def test_stdin_dash_and_no_file_agree(tmp_path):
    text = jsonl(CASES)
    f = tmp_path / "a.jsonl"
    f.write_text(text, encoding="utf-8")
    outs = [grade(str(f)).stdout, grade("-", stdin=text).stdout, grade(stdin=text).stdout]
    assert outs[0] == outs[1] == outs[2] != ""


def test_judges_card_forms_and_lance_names_are_read(tmp_path, capsys):
    """Letter codes and Spanish names, as judge reads them; a lance name in any case (in-process)."""
    forms = [["3o", "tres de copas", "7e", "4b"], ["Rc", "Co", "siete de copas", "6e"], HANDS[2], HANDS[3]]
    f = tmp_path / "case.jsonl"
    f.write_text(jsonl([{"hands": forms, "mano": 0, "lance": " Grande ", "answer": 1}]), encoding="utf-8")
    assert main(["grade", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["winner"], out["mistake"]) == (0, "three_is_not_king")


def test_right_answers_for_every_checked_lance_case():
    """Each hand-checked case of lances.json, answered with its winner, is right and gets no tag; its
    "variant" picks the kings as judge does."""
    cases = [{**c, "answer": c["winner"]} for c in LANCE_CASES]
    p = grade(stdin=jsonl(cases))
    assert p.returncode == 0, p.stderr
    got = [json.loads(line) for line in p.stdout.splitlines()]
    assert [(g["correct"], g["winner"], g["mistake"], g["why_not"]) for g in got] == [
        (True, c["winner"], None, None) for c in LANCE_CASES
    ]


BAD = [
    ("", "no cases: the input is empty"),
    ("   \n\n", "no cases: the input is empty"),
    ('{"hands": 1', "invalid JSON"),
    (jsonl([{**CASES[0], "answer": 4}]), "case 1: answer must be a seat 0, 1, 2 or 3, not 4"),
    (jsonl([{**CASES[0], "answer": True}]), "case 1: answer must be a seat"),
    (jsonl([{**CASES[0], "answer": "1"}]), "case 1: answer must be a seat"),
    (jsonl([{k: v for k, v in CASES[0].items() if k != "answer"}]), "case 1: missing 'answer'"),
    (jsonl([{k: v for k, v in CASES[0].items() if k != "lance"}]), "case 1: missing 'lance'"),
    (jsonl([{**CASES[0], "lance": "grand"}]), "case 1: unknown lance 'grand'"),
    (jsonl([{**CASES[0], "lance": 3}]), "case 1: unknown lance 3"),
    (jsonl([CASES[0], {**CASES[0], "mano": 7}]), "case 2: mano must be a seat"),
    (jsonl([CASES[0], {**CASES[0], "hands": [HANDS[0], HANDS[0], HANDS[2], HANDS[3]]}]), "case 2: card 3o"),
    (jsonl([CASES[0], {**CASES[0], "hands": [["9o", "3c", "7e", "4b"], *HANDS[1:]]}]), "case 2: seat 0: unknown card '9o'"),
    (jsonl([CASES[0], {**CASES[0], "variant": "6reyes"}]), "case 2: unknown variant '6reyes'"),
    (jsonl([CASES[0], [1, 2]]), "case 2: expected an object"),
    (jsonl([CASES[0]]) + "not json\n", "case 2: invalid JSON"),
]


@pytest.mark.parametrize(("stdin", "message"), BAD, ids=[m for _, m in BAD])
def test_bad_input_exits_2_with_one_line_and_prints_nothing(stdin, message):
    p = grade(stdin=stdin)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith("musteach grade: ")
    assert message in p.stderr


def test_a_missing_file_is_named():
    p = grade("/nonexistent/answers.jsonl")
    assert p.returncode == 2 and "/nonexistent/answers.jsonl" in p.stderr and p.stdout == ""


def test_absurdly_nested_input_is_one_line_and_status_2(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    p = grade(str(deep))
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_grade_never_imports_the_jupyter_stack(tmp_path):
    f = tmp_path / "a.jsonl"
    f.write_text(jsonl(CASES), encoding="utf-8")
    code = f"import sys\nfrom musteach.cli import main\nmain(['grade', {str(f)!r}])\nprint(' '.join(sys.modules))"
    mods = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert "musteach.teach.diagnosis" in mods
    assert not {m for m in mods if m.split(".")[0] in {"ipywidgets", "IPython", "voila", "jupyter_server", "tornado"}}


def test_the_first_bad_case_is_named_even_before_a_bad_deal(capsys, monkeypatch):
    import io

    bad_deal = {**CASES[0], "hands": [HANDS[0], HANDS[0], HANDS[2], HANDS[3]]}
    no_lance = {k: v for k, v in CASES[1].items() if k != "lance"}
    monkeypatch.setattr(sys, "stdin", io.StringIO(jsonl([CASES[0], no_lance, bad_deal])))
    assert main(["grade"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "musteach grade: case 2: missing 'lance' (grande, chica, pares, juego or punto)\n"


def test_empty_card_codes_are_named_not_a_crash(tmp_path, capsys):
    """Hands in the standard shape whose codes are empty: the bulk reader hands them to the exact path."""
    empty = [["", "", "", ""]] * 4
    last_empty = [*HANDS[:3], [*HANDS[3][:3], ""]]
    for hands, seat in ((empty, 0), (last_empty, 3)):
        f = tmp_path / "case.jsonl"
        f.write_text(jsonl([CASES[1], {"hands": hands, "mano": 0, "lance": "grande", "answer": 0}]), encoding="utf-8")
        assert main(["grade", str(f)]) == 2
        err = capsys.readouterr().err
        assert f"case 2: seat {seat}: unknown card ''" in err
