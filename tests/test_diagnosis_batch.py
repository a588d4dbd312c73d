"""Mistake diagnosis in bulk (issue 16, item 1: ``musteach grade`` at 100,000 cases/s): ``diagnose_batch`` and the
command's bulk path give, answer for answer and word for word, what ``diagnose`` gives one case at a time, in
English and Spanish, 8 and 4 reyes, with answers planted to hit every mistake tag (RULES.md §1–§5)."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pytest

from musteach.cli import main
from musteach.commands.grade import grade_case
from musteach.i18n import speaking, translator
from musteach.rules.batch import array_to_codes, random_deals
from musteach.rules.cards import DECK
from musteach.rules.errors import MusError
from musteach.rules.lances import LANCES
from musteach.rules.options import Rules
from musteach.teach.diagnosis import MISTAKES, Reading, diagnose, read_hand, winner_under
from musteach.teach.diagnosis_batch import diagnose_batch

#: Hands that make the rarer readings matter: four kings of 8 reyes (R-R-3-3), four aces (A-2-A-2), four 7s.
QUADS = ([36, 37, 8, 9], [0, 1, 4, 5], [24, 25, 26, 27])


def random_cases(n: int, seed: int) -> tuple[np.ndarray, ...]:
    """``(hands, manos, lances, answers, kings)`` of n cases: random deals (one in eight with a seat holding
    four equal cards), random lance and kings, and answers that are random for half the cases (seat or -1)
    and, for the other half, the winner under a random mistaken reading (so that every tag comes up)."""
    rng = np.random.default_rng(seed)
    hands = random_deals(n, seed=rng)
    for i in np.flatnonzero(rng.random(n) < 1 / 8).tolist():
        quad = QUADS[rng.integers(len(QUADS))]
        rest = rng.permutation(np.setdiff1d(np.arange(40), quad))[:12]
        seat = rng.integers(4)
        cards = np.concatenate([rest[: 4 * seat], quad, rest[4 * seat :]])
        hands[i] = cards.reshape(4, 4)
    manos = rng.integers(0, 4, n)
    lances = rng.integers(0, 5, n)
    lances[rng.random(n) < 0.2] = 2  # more pares, where most readings differ
    kings = np.where(rng.random(n) < 0.25, 4, 8)
    answers = rng.integers(-1, 4, n)
    for i in np.flatnonzero(rng.random(n) < 0.5).tolist():
        reading = Reading.of(MISTAKES[rng.integers(len(MISTAKES))])
        hs = [[DECK[c] for c in hand] for hand in hands[i].tolist()]
        from musteach.rules.cards import Hand

        infos = [read_hand(Hand(h), reading, int(kings[i])) for h in hs]
        w = winner_under(infos, int(manos[i]), LANCES[lances[i]], reading)
        answers[i] = -1 if w is None else w
    return hands, manos, lances, answers, kings


def one_by_one(cases: tuple[np.ndarray, ...], lang: str) -> list[tuple]:
    hands, manos, lances, answers, kings = cases
    out = []
    for i in range(len(hands)):
        hs = [[DECK[c] for c in hand] for hand in hands[i].tolist()]
        a = None if answers[i] < 0 else int(answers[i])
        d = diagnose(hs, int(manos[i]), LANCES[lances[i]], a, Rules(kings=int(kings[i])), lang=lang)
        out.append((d.winner, d.correct, d.mistake, d.explanation, d.why_not))
    return out


def in_bulk(cases: tuple[np.ndarray, ...], lang: str) -> list[tuple]:
    hands, manos, lances, answers, kings = cases
    b = diagnose_batch(hands, manos, lances, answers, kings, lang=lang)
    winners = [None if w < 0 else w for w in b.winner.tolist()]
    return list(zip(winners, b.correct.tolist(), b.mistakes(), b.explanation, b.why_not, strict=True))


def agree(n: int, seed: int, lang: str) -> None:
    cases = random_cases(n, seed)
    want = one_by_one(cases, lang)
    got = in_bulk(cases, lang)
    assert {w[2] for w in want} == {*MISTAKES, None}, "the planted answers should hit every tag"
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"case {i}"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_bulk_diagnosis_is_word_for_word_the_one_by_one(lang):
    agree(1500, seed=16, lang=lang)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "es"])
def test_bulk_diagnosis_agrees_on_many_cases(lang):
    agree(20_000, seed=1616, lang=lang)


def test_bad_arrays_are_named():
    hands = random_deals(3, seed=1)
    with pytest.raises(MusError, match="answer at index 2"):
        diagnose_batch(hands, 0, 0, [0, 1, 4])
    with pytest.raises(MusError, match="unknown lance 'grand'"):
        diagnose_batch(hands, 0, "grand", 0)
    with pytest.raises(MusError, match="kings must be 8 or 4"):
        diagnose_batch(hands, 0, 0, 0, kings=6)
    hands[1, 2, 0] = hands[1, 0, 0]
    with pytest.raises(MusError, match="deal at index 1"):
        diagnose_batch(hands, 0, 0, 0)


# ----- the command: the bulk path gives what grade_case gives case by case -------------------------------------


def case_objects(cases: tuple[np.ndarray, ...], variants: bool) -> list[dict]:
    hands, manos, lances, answers, kings = cases
    out = []
    for h, m, la, a, k in zip(array_to_codes(hands), manos.tolist(), lances.tolist(), answers.tolist(), kings.tolist(),
                              strict=True):
        case = {"hands": h, "mano": m, "lance": LANCES[la].value, "answer": None if a < 0 else a}
        if variants and k == 4:
            case["variant"] = "4reyes"
        out.append(case)
    return out


def run_grade(monkeypatch, capsys, text: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["grade", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("lang", "shape"), [("en", "lines"), ("es", "lines"), ("en", "array"), ("es", "array")])
def test_the_command_writes_what_grade_case_gives(monkeypatch, capsys, lang, shape):
    objects = case_objects(random_cases(400, seed=7), variants=True)
    with speaking(lang):
        want = "".join(json.dumps(grade_case(c).to_dict(), ensure_ascii=False) + "\n" for c in objects)
    text = json.dumps(objects) if shape == "array" else "".join(json.dumps(c) + "\n" for c in objects)
    code, out, err = run_grade(monkeypatch, capsys, text, "--lang", lang)
    assert (code, err) == (0, "")
    assert out == want


def test_the_bulk_path_and_the_exact_path_agree(monkeypatch, capsys):
    """Irregular but good input (a lance name spelled otherwise, a variant with spaces, a blank line) goes the
    exact way; its lines are those of the bulk path."""
    objects = case_objects(random_cases(200, seed=8), variants=False)
    clean = "".join(json.dumps(c) + "\n" for c in objects)
    odd = [dict(c, lance=f" {c['lance'].upper()} ") if i % 3 == 0 else c for i, c in enumerate(objects)]
    irregular = "\n".join(json.dumps(c) for c in odd) + "\n\n"
    outs = [run_grade(monkeypatch, capsys, text, "--kings", "4") for text in (clean, irregular)]
    assert outs[0] == outs[1]
    assert outs[0][0] == 0 and outs[0][1].count("\n") == 200


@pytest.mark.parametrize(("field", "value"), [("answer", 10**30), ("mano", -(10**30)), ("answer", 1.0), ("mano", True)])
def test_clean_input_with_a_value_no_seat_names_the_case(monkeypatch, capsys, field, value):
    objects = case_objects(random_cases(5, seed=10), variants=False)
    objects[3][field] = value
    code, out, err = run_grade(monkeypatch, capsys, "".join(json.dumps(c) + "\n" for c in objects))
    assert (code, out) == (2, "")
    assert err.startswith(f"musteach grade: case 4: {field} must be a seat") and err.count("\n") == 1


@pytest.mark.parametrize("lang", ["en", "es"])
def test_clean_input_with_a_bad_case_names_the_first_one(monkeypatch, capsys, lang):
    objects = case_objects(random_cases(50, seed=9), variants=False)
    objects[30]["hands"][1][0] = objects[30]["hands"][0][0]  # a card dealt twice, later than a bad answer
    objects[12]["answer"] = 7
    code, out, err = run_grade(monkeypatch, capsys, "".join(json.dumps(c) + "\n" for c in objects), "--lang", lang)
    _ = translator(lang)
    assert (code, out) == (2, "")
    assert err == "musteach grade: {}: {}\n".format(
        _("case {n}", n=13), _("{what} must be a seat 0, 1, 2 or 3, not {value}", what="answer", value=7)
    )


def test_grade_lines_quote_a_sentence_as_json_does():
    """The output lines are json.dumps of each diagnosis, also when a sentence needs escapes."""
    from musteach.commands.grade import grade_lines
    from musteach.teach.diagnosis_batch import BatchDiagnosis

    d = BatchDiagnosis(
        np.array([0, -1, 2], np.int8),
        np.array([True, False, False]),
        np.array([-1, 0, 7], np.int8),
        ['Seat 0 "wins"', "tab\there", "back\\slash ñ"],
        [None, None, "line\nbreak"],
    )
    members = [*MISTAKES, None]
    want = "".join(
        json.dumps(
            {"correct": c, "winner": None if w < 0 else w, "mistake": None if m < 0 else members[m].value,
             "explanation": e, "why_not": y},
            ensure_ascii=False,
        )
        + "\n"
        for c, w, m, e, y in zip(d.correct.tolist(), d.winner.tolist(), d.mistake.tolist(), d.explanation, d.why_not,
                                 strict=True)
    )
    assert grade_lines(d) == want
    plain = BatchDiagnosis(d.winner, d.correct, d.mistake, ["a", "b", "ñ"], [None, "c", None])
    assert grade_lines(plain).splitlines()[1].endswith('"explanation": "b", "why_not": "c"}')
