"""The rules core and ``musteach judge`` in Spanish (issue 17): the same facts in every language.

Each lance sentence is read back with the catalog itself: every msgid of the ``rules`` domain, and its Spanish
translation, becomes a pattern whose placeholders capture what was filled in. The seats a sentence names are
then compared with the structured result (the rule), in English and in Spanish.
"""

from __future__ import annotations

import io
import json
import re
import string
from functools import cache

import numpy as np
import pytest

from musteach.cli import add_lang_option, main, spoken
from musteach.i18n import speaking, translator
from musteach.locale import catalogs
from musteach.rules.batch import array_to_codes, explain_batch, random_deals
from musteach.rules.cards import parse_hands
from musteach.rules.errors import DuplicateCardError, LanguageError, MusError, RulesError, UnknownCardError
from musteach.rules.lances import Lance, LanceResult, evaluate, speaking_order
from musteach.rules.options import Rules

SEAT_FIELDS = ("seat", "other", "a", "b", "c", "d", "seats")


@cache
def rules_messages() -> tuple[tuple[str, str | None], ...]:
    """Every message of the rules domain, from the source: (msgid, its plural or None)."""
    return tuple(
        (m.id, None) if isinstance(m.id, str) else (m.id[0], m.id[1]) for m in catalogs.extract()["rules"] if m.id
    )


def rules_msgids() -> tuple[str, ...]:
    """Every msgid of the rules domain, singular and plural forms."""
    return tuple(x for pair in rules_messages() for x in pair if x)


def pattern(template: str) -> re.Pattern[str]:
    """A template as a regular expression: each placeholder a named group (a repeated one must match again)."""
    out, seen = [], set()
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name:
            out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
    return re.compile("".join(out) + r"\Z")


@cache
def sentence_patterns(lang: str) -> tuple[tuple[str, int, tuple[str, ...], re.Pattern[str]], ...]:
    """(msgid, literal length, literal stretches, pattern) of every lance sentence shape (they open with a
    capital), as translated in ``lang``; a plural shape once per count."""
    _ = translator(lang)
    shapes = []
    for msgid, plural in rules_messages():
        if not msgid[:1].isupper():
            continue
        templates = [_(msgid)] if plural is None else [_.ngettext(msgid, plural, n, seats="{seats}") for n in (1, 2)]
        for t in templates:
            stretches = tuple(sorted((text for text, *_ in string.Formatter().parse(t) if text), key=len, reverse=True))
            shapes.append((msgid, sum(map(len, stretches)), stretches, pattern(t)))
    return tuple(shapes)


def read_back(sentence: str, lang: str) -> dict[str, object]:
    """The seats a sentence names, by placeholder: ``{"seat": 2, "other": 1}``; ``"seats"`` as a tuple."""
    matches = [
        (literal, msgid, m)
        for msgid, literal, stretches, pat in sentence_patterns(lang)
        if all(text in sentence for text in stretches) and (m := pat.match(sentence))
    ]
    assert matches, f"no {lang} sentence shape matches {sentence!r}"
    _, msgid, m = max(matches, key=lambda x: x[0])  # the most specific shape: ", on the lower pair." over "."
    found: dict[str, object] = {"msgid": msgid}
    for key, value in m.groupdict().items():
        if key == "seats":
            found[key] = tuple(int(x) for x in re.findall(r"\d", value))
        elif key in SEAT_FIELDS:
            found[key] = int(value)
    return found


def named_by_rule(r: LanceResult) -> dict[str, object]:
    """The seats the sentence of ``r`` must name, from the structured result alone (RULES.md §2, §5)."""
    if r.winner is None:
        if r.lance is Lance.PUNTO:
            return {"seats": tuple(s for s in speaking_order(r.mano) if r.infos[s].is_juego)}
        return {}
    if r.tie_to_mano:
        best = r.infos[r.winner].key(r.lance)
        tied = [s for s in r.ranking if r.infos[s].key(r.lance) == best]
        return {"seat": r.winner, **dict(zip("abcd", tied, strict=False))}
    if len(r.ranking) > 1 and r.lance in (Lance.PARES, Lance.JUEGO) and not (
        r.lance is Lance.JUEGO and not r.infos[r.winner].la_real and r.infos[r.winner].total != 31
    ):
        return {"seat": r.winner, "other": r.ranking[1]}
    return {"seat": r.winner}


def random_results(n: int, seed: int) -> list[tuple[list[list[str]], int, Rules]]:
    rng = np.random.default_rng(seed)
    deals = array_to_codes(random_deals(n, seed=seed))
    manos = rng.integers(0, 4, n).tolist()
    kinds = [Rules(), Rules(kings=4), Rules(la_real=True), Rules(la_real=True, la_real_figure="sota_de_oros")]
    return [(deal, m, kinds[i % 4]) for i, (deal, m) in enumerate(zip(deals, manos, strict=True))]


def test_spanish_explanations_name_the_same_seats_as_the_english_and_as_the_rule() -> None:
    shapes_seen: set[str] = set()
    for hands, mano, rules in random_results(1000, seed=17):
        result = evaluate(hands, mano, rules)
        english, spanish = result.explanations("en"), result.explanations(lang="es")
        for r in result.results():
            en, es = read_back(english[r.lance.value], "en"), read_back(spanish[r.lance.value], "es")
            assert en["msgid"] == es["msgid"]  # the same sentence shape
            seats_en = {k: v for k, v in en.items() if k != "msgid"}
            seats_es = {k: v for k, v in es.items() if k != "msgid"}
            assert seats_en == seats_es == named_by_rule(r), (hands, mano, r.lance)
            shapes_seen.add(str(en["msgid"]))
    assert len(shapes_seen) >= 15  # grande and chica on several cards, pares, juego, punto, ties, nobody


def test_spanish_output_holds_no_english_sentence_of_the_rules_domain() -> None:
    # every literal stretch of an English msgid (3 words or more) that its Spanish translation does not keep
    es = translator("es")
    chunks = set()
    for msgid in rules_msgids():
        kept = es(msgid)
        for literal, *_ in string.Formatter().parse(msgid):
            text = literal.strip(" :;,.()")
            if len(text.split()) >= 3 and text not in kept:
                chunks.add(text)
    assert len(chunks) > 30
    said = []
    for hands, mano, rules in random_results(300, seed=3):
        result = evaluate(hands, mano, rules)
        said.extend(result.explanations("es").values())
        for r in result.results():
            said.extend(r.jugadas_in("es"))
    text = "\n".join(said)
    assert "{" not in text and "}" not in text  # every placeholder filled
    assert [c for c in chunks if c in text] == []


def test_explanation_property_follows_the_language_being_spoken() -> None:
    result = evaluate([["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"], ["1o", "1c", "4o", "5o"],
                       ["6c", "6e", "10o", "2b"]], mano=0)
    english = result.grande.explanation
    with speaking("es"):
        assert result.grande.explanation == result.grande.explain("es") == result.explanations()["grande"]
        assert result.pares.jugadas == ("par de reyes", "par de caballos", "par de ases", "par de seises")
    assert result.grande.explanation == english == result.grande.explain()
    assert result.pares.jugadas == ("par of kings", "par of caballos", "par of aces", "par of 6s")
    with pytest.raises(LanguageError, match='"xx"'):
        result.explanations("xx")


def test_batched_spanish_sentences_are_the_one_deal_sentences() -> None:
    deals = random_deals(400, seed=5)
    manos = np.random.default_rng(5).integers(0, 4, len(deals))
    said = explain_batch(deals, manos, lang="es")
    for i, (hands, mano) in enumerate(zip(array_to_codes(deals), manos.tolist(), strict=True)):
        assert {k: v[i] for k, v in said.items()} == evaluate(hands, mano).explanations("es")


def test_errors_speak_the_learners_language_and_name_the_bad_value() -> None:
    with pytest.raises(DuplicateCardError) as dup:
        parse_hands([["12o", "3c", "7e", "5b"], ["12o", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"], ["1e", "1b", "4b", "5e"]])
    assert str(dup.value) == "card 12o (rey de oros) is dealt twice: to seat 0 and seat 1"
    assert dup.value.message("es") == "la carta 12o (rey de oros) se reparte dos veces: al asiento 0 y al asiento 1"
    with pytest.raises(UnknownCardError) as unknown:
        parse_hands([["12o", "3c", "7e", "8b"], ["12c", "1c", "4o", "5o"], ["6c", "6e", "10o", "2b"], ["1e", "1b", "4b", "5e"]])
    assert str(unknown.value).startswith("seat 0: unknown card '8b'")
    assert unknown.value.message("es").startswith("asiento 0: carta desconocida '8b'")
    with pytest.raises(RulesError) as bad_rules:
        Rules(kings=5)
    assert bad_rules.value.message("es") == "kings debe ser 8 o 4 (reyes), no 5 (RULES.md §13)"
    with pytest.raises(MusError) as bad_lance:
        Lance.parse("envido")
    assert "'envido'" in bad_lance.value.message("es") and "lance desconocido" in bad_lance.value.message("es")


# ----- the command ------------------------------------------------------------------------------------------------


def judge_out(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["judge", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_judge_lang_es_keeps_keys_and_winners(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    deals = array_to_codes(random_deals(200, seed=11))
    manos = np.random.default_rng(11).integers(0, 4, len(deals)).tolist()
    text = "".join(json.dumps({"hands": h, "mano": m}) + "\n" for h, m in zip(deals, manos, strict=True))
    code_en, out_en, _ = judge_out(monkeypatch, capsys, text, "--explain")
    code_es, out_es, _ = judge_out(monkeypatch, capsys, text, "--explain", "--lang", "es")
    assert code_en == code_es == 0
    english = [json.loads(line) for line in out_en.splitlines()]
    spanish = [json.loads(line) for line in out_es.splitlines()]
    assert len(english) == len(spanish) == 200
    for en, es, hands, mano in zip(english, spanish, deals, manos, strict=True):
        assert list(en) == list(es) and list(en["explanations"]) == list(es["explanations"])
        assert {k: v for k, v in en.items() if k != "explanations"} == {k: v for k, v in es.items() if k != "explanations"}
        assert es["explanations"] == evaluate(hands, mano).explanations("es") != en["explanations"]
    # without --explain the language changes nothing
    assert judge_out(monkeypatch, capsys, text, "--lang", "es")[1] == judge_out(monkeypatch, capsys, text)[1]


def test_judge_errors_follow_lang(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    good = json.dumps({"hands": [["12o", "3c", "7e", "5b"], ["12c", "11o", "11c", "4e"], ["1o", "1c", "4o", "5o"],
                                 ["6c", "6e", "10o", "2b"]], "mano": 0})
    bad = good.replace('"2b"', '"8b"')
    code, out, err = judge_out(monkeypatch, capsys, f"{good}\n{bad}\n", "--lang", "es")
    assert (code, out) == (2, "")
    assert err == "musteach judge: reparto 2: asiento 3: carta desconocida '8b': se espera un código como '12o', 'Ro' o 'rey de oros'\n"
    code, out, err = judge_out(monkeypatch, capsys, f"{good}\n{bad}\n")
    assert code == 2 and err.startswith("musteach judge: deal 2: seat 3: unknown card '8b'")
    code, out, err = judge_out(monkeypatch, capsys, "{\n", "--lang", "es")
    assert code == 2 and "JSON no válido" in err and err.count("\n") == 1
    code, out, err = judge_out(monkeypatch, capsys, good, "--lang", "xx")
    assert (code, out) == (2, "")
    assert err.startswith('musteach judge: no language "xx"') and err.count("\n") == 1


def test_cli_lang_helpers_for_every_command() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_lang_option(parser)
    assert spoken(parser.parse_args([])) == "en"
    assert spoken(parser.parse_args(["--lang", "ES"])) == "es"
    assert spoken(argparse.Namespace()) == "en"  # a command without --lang speaks English
    with pytest.raises(LanguageError, match='"fr"'):
        spoken(parser.parse_args(["--lang", "fr"]))


def test_python_reasons_and_line_labels_follow_the_language(tmp_path, capsys) -> None:
    # the json module's and the OS's own reasons are said in Spanish too; English keeps Python's words
    assert main(["judge", "--lang", "es", str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "no existe el archivo o la carpeta" in err and "No such file" not in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("x\n")
    assert main(["count", "--lang", "es", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "línea 1" in err and "se esperaba un valor" in err and "Expecting" not in err and "line 1" not in err
    assert main(["count", str(bad)]) == 2
    assert "line 1: invalid JSON at column 1: Expecting value" in capsys.readouterr().err
