"""What ``judge``, ``count`` and ``grade`` share: how they name an input item, and a leading byte-order mark."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from musteach.cli import main
from musteach.commands import KNOWN_REASONS, UTF8_BOM, read_input_bytes
from musteach.i18n import translator

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
DEALS = [json.loads(line) for line in (VECTORS / "deals.jsonl").read_text(encoding="utf-8").splitlines()[:40]]
SCORING = json.loads((VECTORS / "scoring.json").read_text(encoding="utf-8"))

LANCES = ("grande", "chica", "pares", "juego", "punto")
# deals as judge reads them (the standard json.dumps shape), and grade cases made from them
JUDGE = "".join(json.dumps({"hands": d["hands"], "mano": d["mano"]}) + "\n" for d in DEALS)
GRADE = "".join(
    json.dumps({"hands": d["hands"], "mano": d["mano"], "lance": LANCES[i % 5], "answer": i % 4}) + "\n"
    for i, d in enumerate(DEALS)
)
# the same deals with Spanish card names: the exact per-item path, not the byte-level one
NAMES = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
SPANISH_JUDGE = "".join(
    json.dumps({"hands": [[f"{c[:-1]} de {NAMES[c[-1]]}" for c in h] for h in d["hands"]], "mano": d["mano"]}) + "\n"
    for d in DEALS[:5]
)
INPUTS = {
    "judge": JUDGE,
    "judge-names": SPANISH_JUDGE,
    "count": json.dumps(SCORING),
    "count-lines": "".join(json.dumps(c) + "\n" for c in SCORING),
    "grade": GRADE,
}


def _command(name: str) -> str:
    return name.split("-")[0]


def _run(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes, *args: str) -> tuple[int, str, str]:
    f = tmp_path / "input.json"
    f.write_bytes(data)
    status = main([*args, str(f)])
    out, err = capsys.readouterr()
    return status, out, err


# ----- each command names its items by their own noun ---------------------------------------------------------

GOOD = {
    "judge": {"hands": DEALS[0]["hands"], "mano": 0},
    "count": SCORING[0],
    "grade": {"hands": DEALS[0]["hands"], "mano": 0, "lance": "grande", "answer": 0},
}
BAD_HANDS = {"judge": {"hands": [], "mano": 0}, "grade": {"hands": [], "mano": 0, "lance": "grande", "answer": 0}}
LABELS = [
    ("judge", "en", "deal 2"),
    ("judge", "es", "reparto 2"),
    ("count", "en", "case 2"),
    ("count", "es", "caso 2"),
    ("grade", "en", "case 2"),
    ("grade", "es", "caso 2"),
]


@pytest.mark.parametrize(("command", "lang", "label"), LABELS)
def test_judge_names_deals_count_and_grade_name_cases(command, lang, label, tmp_path, capsys):
    """judge reads deals; count and grade read cases, and say so, in English and in Spanish."""
    bad = {"hands": {"0": "12o 12c 3o 7o"}, "mano_seat": 0} if command == "count" else BAD_HANDS[command]
    for text in (json.dumps([GOOD[command], bad]), json.dumps(GOOD[command]) + "\n" + json.dumps(bad) + "\n"):
        status, out, err = _run(capsys, tmp_path, text.encode(), command, "--lang", lang)
        assert (status, out) == (2, "")
        assert err.startswith(f"musteach {command}: {label}")
        assert err[len(f"musteach {command}: {label}")] in ": "  # "case 2: ..." or "case 2 (line 2): ..."


def test_a_bad_json_line_of_grade_is_a_case(tmp_path, capsys):
    text = json.dumps(GOOD["grade"]) + "\n\nnot json\n"
    for lang, label in (("en", "case 2 (line 3)"), ("es", "caso 2 (línea 3)")):
        status, _, err = _run(capsys, tmp_path, text.encode(), "grade", "--lang", lang)
        assert status == 2 and err.startswith(f"musteach grade: {label}: ")


# ----- a leading byte-order mark (Windows Notepad) ------------------------------------------------------------


def test_read_input_bytes_drops_one_leading_byte_order_mark(tmp_path, monkeypatch):
    f = tmp_path / "deals.jsonl"
    for data in (JUDGE.encode(), b"", b"{}"):
        f.write_bytes(UTF8_BOM + data)
        assert read_input_bytes(str(f)) == data
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(UTF8_BOM + data)))
        assert read_input_bytes("-") == data
        monkeypatch.setattr(sys, "stdin", io.StringIO((UTF8_BOM + data).decode()))  # a text stream without .buffer
        assert read_input_bytes("-") == data
    f.write_bytes(UTF8_BOM * 2 + b"{}")  # one mark only: a second is the input's
    assert read_input_bytes(str(f)) == UTF8_BOM + b"{}"
    f.write_bytes(b"{}\n" + UTF8_BOM + b"{}")
    assert read_input_bytes(str(f)) == b"{}\n" + UTF8_BOM + b"{}"


@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("options", [(), ("--lang", "es")], ids=["en", "es"])
def test_input_with_a_byte_order_mark_gets_the_same_verdicts(name, options, tmp_path, capsys):
    command = _command(name)
    data = INPUTS[name].encode()
    extra = ("--explain",) if command == "judge" and options else ()
    plain = _run(capsys, tmp_path, data, command, *options, *extra)
    assert plain[0] == 0 and plain[1] and plain[2] == ""
    assert _run(capsys, tmp_path, UTF8_BOM + data, command, *options, *extra) == plain
    if command == "count":
        for mode in ("--explain", "--check"):
            assert _run(capsys, tmp_path, UTF8_BOM + data, command, mode, *options) == _run(
                capsys, tmp_path, data, command, mode, *options
            )


def test_the_byte_level_paths_see_the_bytes_after_the_mark(tmp_path, capsys, monkeypatch):
    """judge's standard-shape reader and count's batched one take input with a mark, as they take it without."""
    import musteach.commands.count as count
    import musteach.commands.judge as judge

    seen: list[bytes] = []

    def spy(real):
        def wrapper(data: bytes):
            seen.append(data)
            got = real(data)
            assert got is not None  # the fast path took it
            return got

        return wrapper

    monkeypatch.setattr(judge, "standard_deals", spy(judge.standard_deals))
    monkeypatch.setattr(count, "batch_output", spy(count.batch_output))
    assert _run(capsys, tmp_path, UTF8_BOM + INPUTS["judge"].encode(), "judge")[0] == 0
    assert _run(capsys, tmp_path, UTF8_BOM + INPUTS["count"].encode(), "count")[0] == 0
    assert seen == [INPUTS["judge"].encode(), INPUTS["count"].encode()]


def test_a_mark_further_on_is_named_in_the_learners_language(tmp_path, capsys):
    """A second mark (two files joined with ``cat``) is refused, its line named, its reason translated."""
    data = JUDGE.encode().replace(b"\n", b"\n" + UTF8_BOM, 1)
    assert _run(capsys, tmp_path, data, "judge")[2].startswith("musteach judge: deal 2: invalid JSON at column 1:")
    status, out, err = _run(capsys, tmp_path, data, "judge", "--lang", "es")
    assert (status, out) == (2, "")
    reason = err.rstrip("\n").rsplit(": ", 1)[1]
    assert err.startswith("musteach judge: reparto 2: JSON no válido en la columna 1: ")
    assert reason == translator("es")("Unexpected UTF-8 BOM (decode using utf-8-sig)") != "Unexpected UTF-8 BOM (decode using utf-8-sig)"


BAD_JSON = [
    '{"a": "\\u12"}', '{"a": "\\x"}', '{"a": "\t"}', "\ufeff{}", "[1,]", '{"a": 1,}', '{"a" 1}', "[1 2]", "nul",
    '"abc', "{} x", "{'a': 1}", "",
]


@pytest.mark.parametrize("text", BAD_JSON)
def test_every_reason_the_json_reader_gives_is_translated(text):
    """The JSON reader's reasons that a message quotes are all listed, so that they are said in Spanish."""
    with pytest.raises(json.JSONDecodeError) as e:
        json.loads(text)
    assert e.value.msg in KNOWN_REASONS
    assert translator("es")(e.value.msg) != e.value.msg


@pytest.mark.parametrize("make", ["missing", "directory", "not a directory"])
def test_file_reasons_are_translated(make, tmp_path, capsys):
    path = {"missing": tmp_path / "nope", "directory": tmp_path, "not a directory": tmp_path / "f" / "x"}[make]
    (tmp_path / "f").write_text("{}", encoding="utf-8")
    assert main(["judge", "--lang", "es", str(path)]) == 2
    err = capsys.readouterr().err
    reason = err.rstrip("\n").rsplit(": ", 1)[1]
    assert err.startswith(f"musteach judge: no se puede leer {path}: ")
    assert reason in {translator("es")(r) for r in KNOWN_REASONS} - set(KNOWN_REASONS)


# ----- found by a cold test: an answer of -1, a lone surrogate, line ends inside strings -------------------------


def test_an_answer_of_minus_one_is_refused_as_the_exact_path_refuses_it(tmp_path, capsys):
    case = {**GOOD["grade"], "answer": -1}
    for text in (json.dumps(case) + "\n", GRADE + json.dumps(case) + "\n", json.dumps([case])):
        status, out, err = _run(capsys, tmp_path, text.encode(), "grade")
        assert (status, out) == (2, "")
        assert "answer must be a seat 0, 1, 2 or 3, not -1" in err
    null = {**GOOD["grade"], "answer": None}  # null is "nobody": graded
    status, out, _ = _run(capsys, tmp_path, (json.dumps(null) + "\n").encode(), "grade")
    assert status == 0 and json.loads(out)["correct"] is False


def test_a_lone_surrogate_in_an_id_is_written_as_its_json_escape(tmp_path, capsys):
    case = {**SCORING[0], "id": "\ud800"}  # json.dumps writes it escaped: "\ud800"
    status, out, err = _run(capsys, tmp_path, (json.dumps(case) + "\n").encode(), "count")
    assert (status, err) == (0, "")
    assert json.loads(out)["id"] == "\ud800"
    status, out, _ = _run(capsys, tmp_path, (json.dumps(case) + "\n").encode(), "count", "--explain")
    assert status == 0 and out.startswith("# \\ud800\n")


@pytest.mark.parametrize("inside", ["\x85", "\u2028", "\u2029"])
def test_characters_that_end_a_str_line_but_not_a_json_line(inside, tmp_path, capsys):
    cases = [{**c, "id": f"a{inside}b"} for c in SCORING[:2]]
    raw = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
    escaped = "".join(json.dumps(c) + "\n" for c in cases)
    status, out, err = _run(capsys, tmp_path, raw.encode(), "count")
    assert (status, err) == (0, "")
    assert out == _run(capsys, tmp_path, escaped.encode(), "count")[1]
    assert [json.loads(line)["id"] for line in out.split("\n")[:-1]] == [f"a{inside}b"] * 2
