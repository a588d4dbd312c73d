"""Betting, the count, señas and the ``count`` / ``grade`` commands in Spanish (issue 17, domain ``betting``).

English stays word for word (tests/test_betting.py, tests/test_count.py and the CLI tests keep passing); here:
the domain's catalog is complete, Spanish output holds no English sentence of the domain, and both languages
state the same facts (seats, stones, scores, winners).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from musteach.i18n import speaking
from musteach.locale import catalogs
from musteach.rules.betting import LanceBetting, play_betting, stones_text
from musteach.rules.count import Match, count_case, count_hand, describe_score
from musteach.rules.errors import IllegalActionError, MusError
from musteach.rules.options import Rules
from musteach.rules.senas import SENAS, SenaError, check_sena, meaning

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
SCORING_PATH = VECTORS / "scoring.json"
SCORING = json.loads(SCORING_PATH.read_text(encoding="utf-8"))
D1 = [["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"], ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]]


def _english_pieces() -> list[str]:
    """The English words of every msgid of the domain that its Spanish does not keep: each stretch between
    placeholders of at least three words (shorter stretches, such as "seat ", also occur in Spanish-looking text
    by chance)."""
    return sorted(catalogs.unshared_pieces("betting", min_words=3, strip=" :;,.()"))


ENGLISH = _english_pieces()


def _assert_spanish(lines: list[str]) -> None:
    assert lines
    for line in lines:
        assert "{" not in line and "}" not in line, line  # every placeholder filled
        for piece in ENGLISH:
            assert piece not in line, f"English {piece!r} in {line!r}"


def test_the_betting_domain_is_fully_translated() -> None:
    problems = [p for p in catalogs.check() if p.startswith("es/betting.po")]
    assert problems == []
    assert len(catalogs.read("es", "betting")) > 150
    assert len(ENGLISH) > 100  # the check below has teeth


@pytest.mark.parametrize("case", SCORING, ids=[c["id"] for c in SCORING])
def test_scoring_vectors_count_the_same_in_both_languages(case: dict) -> None:
    en = count_case(case, lang="en")
    es = count_case(case, lang="es")
    assert es.to_dict() == en.to_dict() == case["expected"]  # same stones, winners, scores
    assert [(s.phase, s.lance, s.team, s.stones, s.score) for s in es.steps] == [
        (s.phase, s.lance, s.team, s.stones, s.score) for s in en.steps
    ]
    _assert_spanish(es.explanation)
    assert es.explanation != en.explanation
    for e, s in zip(en.explanation, es.explanation, strict=True):
        score = re.search(r"\(A \d+, B \d+\)\.$", e)  # a step that scores ends with the score, in both
        assert (score is None) == (re.search(r"\(A \d+, B \d+\)\.$", s) is None)
        if score:
            assert s.endswith(score.group())
    for team in ("A", None):
        assert es.total_sentence(team, lang="es") != en.total_sentence(team, lang="en")
        _assert_spanish([es.total_sentence(team, lang="es")])


def test_count_lines_read_as_spanish() -> None:
    r = count_hand(D1, 0, lang="es")
    assert r.explanation[0].startswith("Se han acabado los envites")
    assert "en paso vale 1 piedra para la pareja A (A 1, B 0)." in r.explanation[1]
    assert r.total_sentence("B") == "After this hand: team A 9, team B 1 (you are team B)."  # the language spoken now
    assert r.total_sentence("B", lang="es") == "Tras esta ronda: pareja A 9, pareja B 1 (tú eres la pareja B)."
    with speaking("es"):
        assert count_hand(D1, 0).explanation == r.explanation
    assert count_hand(D1, 0).explanation[0].startswith("The betting is over")


def test_betting_steps_and_declarations_in_spanish() -> None:
    with speaking("es"):
        b = LanceBetting.start("grande", mano=0).envido(0).reenvido(1, 3).reenvido(0, 5).no_quiero(1).no_quiero(3)
        texts = b.texts()
        desc = b.outcome.describe() if b.outcome else ""
    _assert_spanish([*texts, desc])
    assert texts[0] == "El mano (0) dice envido 2: el envite es de 2; contesta la pareja B."
    assert texts[-1] == "El postre (3) dice no quiero. La pareja B no quiere: la pareja A se lleva ya el deje de 5 piedras."
    en = LanceBetting.start("grande", mano=0).envido(0).reenvido(1, 3).reenvido(0, 5).no_quiero(1).no_quiero(3)
    assert len(en.texts()) == len(texts) and en.outcome == b.outcome


def test_an_illegal_action_says_why_in_spanish() -> None:
    with pytest.raises(IllegalActionError) as err:
        play_betting("chica", 0, [(0, "quiero")], lang="es")
    e = err.value
    assert str(e) == "action 1: seat 0 cannot say quiero: there is no bet to accept (RULES.md §6)"  # English kept
    assert e.message("es") == "acción 1: el asiento 0 no puede decir quiero: no hay ningún envite que querer (RULES.md §6)"
    with speaking("es"):
        assert e.message() == e.message("es")
    # a closed betting names how it ended, in the learner's language (the quiz feedback)
    b = LanceBetting.start("grande", mano=0).envido(0).quiero(1)
    with pytest.raises(IllegalActionError) as err:
        b.envido(2)
    assert "(se ha querido el envite de 2)" in err.value.message("es")
    assert "(the bet of 2 was accepted)" in str(err.value)
    _assert_spanish([err.value.message("es")])


def test_bad_count_input_is_named_in_spanish() -> None:
    with pytest.raises(MusError) as err:
        count_hand(D1, 0, start_score={"A": 40, "B": 0})
    assert "start_score.A is 40" in str(err.value)
    assert err.value.message("es").startswith("start_score.A es 40: la pareja A ya ha ganado el chico a 40")
    with pytest.raises(MusError) as err:
        count_hand(D1, 0, betting={"grande": {"type": "accepted", "stake": 1}})
    _assert_spanish([err.value.message("es")])


def test_amarracos_dentro_and_the_match_in_spanish() -> None:
    assert describe_score(37, lang="es") == "7 amarracos y 2 piedras (37 piedras): dentro, faltan 3"
    assert describe_score(6, lang="es") == "1 amarraco y 1 piedra (6 piedras)"
    assert describe_score(40, lang="es") == "8 amarracos (40 piedras): chico ganado"
    assert describe_score(37) == "7 amarracos and 2 piedras (37 stones): dentro, 3 to go"
    assert stones_text(1, "es") == "1 piedra"
    with speaking("es"):
        m = Match(Rules(games_per_vaca=2, vacas_per_match=2)).add_stones("A", 41).add_stones("A", 40).add_stones("B", 37)
    assert m.events == ("La pareja A gana un chico con 41 piedras.", "La pareja A gana un chico con 40 piedras.",
                        "La pareja A gana una vaca (2-0 en chicos).")
    _assert_spanish([m.describe("es")])
    assert m.describe("es").startswith("Pareja A: 0 piedras; pareja B: 7 amarracos y 2 piedras (37 piedras): dentro, faltan 3; chicos 0-0")
    assert m.describe().startswith("Team A: 0 stones; Team B: 7 amarracos and 2 piedras (37 stones): dentro, 3 to go; games 0-0")


def test_senas_catalogue_in_spanish() -> None:
    for s in SENAS.values():
        assert s.gesture_text("es") != s.gesture and s.meaning_text("es") not in ("", None)
        _assert_spanish([s.gesture_text("es"), meaning(s, lang="es"), s.notes_text("es")])
    assert meaning("guino", lang="es") == "31 (el mejor juego)"
    with pytest.raises(SenaError) as err:
        check_sena("cejas", "12o 12c 5e 4b", seat=2)
    assert err.value.message("es") == (
        "el asiento 2 no puede hacer la seña «Levantar las cejas»: con R-R-5-4 no hay duples (dos pares, "
        "o cuatro iguales); una seña debe ser verdadera (RULES.md §11)"
    )


def test_an_accepted_ordago_voids_the_dejes_in_the_score_lines() -> None:
    # a deje paid at once in Grande, then the órdago accepted in Chica: the game is decided by the órdago, so
    # the score shown from the órdago's step on is the one the hand began with (the deje stays in the stones)
    r = count_hand(
        D1,
        0,
        start_score={"A": 10, "B": 20},
        betting={"grande": {"type": "rejected", "stakes": [2, 4], "winner_team": "B"}, "chica": {"type": "ordago_accepted"}},
    )
    assert [s.phase for s in r.steps] == ["betting", "ordago"]
    assert r.steps[0].score == (10, 22)
    assert r.steps[-1].score == (10, 20) == (r.final_score["A"], r.final_score["B"])
    assert r.stones["grande"] == {"A": 0, "B": 2}
    # an órdago with no deje before it leaves the score as it was, too
    r = count_hand(D1, 0, start_score={"A": 10, "B": 20}, betting={"grande": {"type": "ordago_accepted"}})
    assert r.steps[-1].score == (10, 20)


# ----------------------------------------------------------------------------------------------
# The commands
# ----------------------------------------------------------------------------------------------


def _run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "musteach.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_count_command_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    from musteach.cli import main

    assert main(["count", "--lang", "es", str(SCORING_PATH)]) == 0
    es = capsys.readouterr().out
    assert main(["count", str(SCORING_PATH)]) == 0
    assert capsys.readouterr().out == es  # the JSON lines are the same facts under the same keys
    assert main(["count", "--lang", "es", "--explain", str(SCORING_PATH)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line and not line.startswith("#")]
    _assert_spanish(lines)
    assert sum(len(count_case(c).explanation) for c in SCORING) == len(lines)
    assert main(["count", "--lang", "es", "--check", str(SCORING_PATH)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{c['id']}: bien" for c in SCORING]


def test_count_command_errors_follow_the_language() -> None:
    bad = json.dumps({"id": "X1", "hands": {"0": "12o 12c 3o 7o"}, "mano_seat": 0})
    p = _run(["count", "--lang", "es"], stdin=bad)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines() == [
        "musteach count: caso 1 (X1): hands debe tener los asientos '0', '1', '2', '3', no ['0']"
    ]
    p = _run(["count"], stdin=bad)
    assert p.returncode == 2 and p.stderr == "musteach count: case 1 (X1): hands must have seats '0', '1', '2', '3', not ['0']\n"
    p = _run(["count", "--lang", "xx", str(SCORING_PATH)])
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.splitlines()) == 1 and '"xx"' in p.stderr


GRADE_CASES = [
    {"hands": D1, "mano": 0, "lance": "grande", "answer": 1},
    {"hands": D1, "mano": 0, "lance": "chica", "answer": None},
    {"hands": D1, "mano": 0, "lance": "pares", "answer": 0},
]


def test_grade_command_in_spanish() -> None:
    from musteach.teach.diagnosis import diagnose

    stdin = "\n".join(json.dumps(c) for c in GRADE_CASES)
    en, es = _run(["grade"], stdin=stdin), _run(["grade", "--lang", "es"], stdin=stdin)
    assert en.returncode == es.returncode == 0, es.stderr
    en_rows = [json.loads(line) for line in en.stdout.splitlines()]
    es_rows = [json.loads(line) for line in es.stdout.splitlines()]
    assert [list(r) for r in es_rows] == [list(r) for r in en_rows]  # the same keys, in order
    for e, s, case in zip(en_rows, es_rows, GRADE_CASES, strict=True):
        assert (s["correct"], s["winner"], s["mistake"]) == (e["correct"], e["winner"], e["mistake"])
        with speaking("es"):  # the explanations are the ones the tutor writes in Spanish
            assert s == diagnose(case["hands"], case["mano"], case["lance"], case["answer"]).to_dict()


def test_grade_command_errors_follow_the_language() -> None:
    stdin = json.dumps({"hands": D1, "mano": 0, "answer": 1})
    p = _run(["grade", "--lang", "es"], stdin=stdin)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines() == ["musteach grade: caso 1: falta 'lance' (grande, chica, pares, juego o punto)"]
    p = _run(["grade", "--lang", "xx"], stdin=stdin)
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1 and '"xx"' in p.stderr
