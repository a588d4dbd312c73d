"""Señas: the catalogue, which señas truthfully fit a hand, and their drawn faces (RULES.md §11, §13)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musteach.draw.senas import catalogue_html, sena_html, sena_svg
from musteach.rules import Rules
from musteach.rules.cards import DECK, Hand
from musteach.rules.errors import IllegalActionError, MusError
from musteach.rules.senas import (
    CONTEXTS,
    SENAS,
    SenaError,
    best_senas,
    catalogue,
    catalogue_keys,
    check_sena,
    get_sena,
    is_truthful,
    meaning,
    senas_for,
)

SVG = "{http://www.w3.org/2000/svg}"


def _facts(hand: Hand, kings: int) -> dict[str, object]:
    """The hand's facts computed here, independently of musteach.rules.lances (RULES.md §1, §5)."""

    def eff(r: int) -> int:
        if kings == 8 and r == 3:
            return 12
        if kings == 8 and r == 2:
            return 1
        return r

    ranks = [eff(c.rank) for c in hand]
    counts = Counter(ranks)
    total = sum(10 if r >= 10 else r for r in ranks)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4 or shape[:2] == [2, 2]:
        kind = "duples"
    elif shape[0] == 3:
        kind = "medias"
    elif shape[0] == 2:
        kind = "par"
    else:
        kind = None
    trio = next((r for r, n in counts.items() if n == 3), None)
    return {"kings": counts[12], "aces": counts[1], "total": total, "kind": kind, "trio": trio, "ranks": ranks}


def _expected(hand: Hand, rules: Rules, context: str) -> set[str]:
    f = _facts(hand, rules.kings)
    juego = f["total"] >= 31
    out = set()
    out |= {"morder_labio"} if f["kings"] == 2 else set()
    out |= {"morder_labio_lado"} if f["kings"] == 3 else set()
    out |= {"morder_labio_dos_veces"} if f["kings"] == 4 else set()
    out |= {"lengua"} if f["aces"] == 2 else set()
    out |= {"lengua_lado"} if f["aces"] == 3 else set()
    out |= {"lengua_dos_veces"} if f["aces"] == 4 else set()
    if f["kind"] == "medias" and (context in ("after_grande", "punto") or f["trio"] == 12):
        out.add("labios_torcidos")
    out |= {"cejas"} if f["kind"] == "duples" else set()
    out |= {"guino"} if f["total"] == 31 else set()
    out |= {"morritos"} if juego and f["total"] != 31 else set()
    out |= {"hombros"} if f["total"] == 30 else set()
    out |= {"hombro"} if f["total"] == 29 else set()
    out |= {"girar_cabeza"} if f["kind"] else set()
    if rules.senas == "kiss_three_kings" and sorted(f["ranks"]) == [1, 12, 12, 12]:
        out.add("solomillo")
    if not out:
        out.add("ciego")
    return out


hands = st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True).map(Hand)
rule_sets = st.sampled_from([Rules(), Rules(kings=4), Rules(senas="kiss_three_kings"), Rules(kings=4, senas="kiss_three_kings")])


@settings(max_examples=400, deadline=None)
@given(hands, rule_sets, st.sampled_from(CONTEXTS))
def test_senas_for_are_exactly_the_true_ones(hand, rules, context):
    got = {s.key for s in senas_for(hand, rules, context)}
    assert got == _expected(hand, rules, context)
    for key in got:
        assert is_truthful(key, hand, rules, context)
        assert check_sena(key, hand, rules, context).key == key
    for key in set(catalogue_keys(rules)) - got - {"inclinar_cabeza", "levantar_cabeza"}:
        assert not is_truthful(key, hand, rules, context)
        with pytest.raises(SenaError, match="truthful"):
            check_sena(key, hand, rules, context)


@settings(max_examples=200, deadline=None)
@given(hands, rule_sets)
def test_best_senas_are_true_and_informative(hand, rules):
    best = best_senas(hand, rules)
    fits = {s.key for s in senas_for(hand, rules)}
    assert 1 <= len(best) <= 2
    assert {s.key for s in best} <= fits
    if fits - {"girar_cabeza", "ciego"}:  # something more precise than plain pares / ciego exists
        assert best[0].key not in ("girar_cabeza", "ciego")


def test_examples_from_rules_11():
    assert {s.key for s in senas_for("12o 3c 7e 5b")} == {"morder_labio", "morritos", "girar_cabeza"}  # 3 = king
    assert "morder_labio" not in {s.key for s in senas_for("12o 3c 7e 5b", Rules(kings=4))}  # not in 4 reyes
    assert {s.key for s in senas_for("12o 12c 1e 1b")} >= {"cejas", "morder_labio", "lengua"}
    assert [s.key for s in senas_for("12o 11c 10e 1b")] == ["guino"]  # 31, no pares
    assert [s.key for s in senas_for("4o 5c 6e 7b")] == ["ciego"]  # 22, nothing
    assert [s.key for s in senas_for("12o 11c 6e 4b")] == ["hombros"]  # punto 30: ciego not allowed
    assert [s.key for s in senas_for("12o 11c 5e 4b")] == ["hombro"]  # punto 29
    # plain medias only after Grande; medias of kings at any time (FEM)
    assert "labios_torcidos" not in {s.key for s in senas_for("5o 5c 5e 4b", context="lances")}
    assert "labios_torcidos" in {s.key for s in senas_for("5o 5c 5e 4b", context="after_grande")}
    assert "labios_torcidos" in {s.key for s in senas_for("12o 12c 3e 4b", context="lances")}


def test_catalogue_sets():
    std = catalogue_keys(Rules())
    kiss = catalogue_keys(Rules(senas="kiss_three_kings"))
    assert "solomillo" not in std and "solomillo" in kiss
    assert set(std) <= set(kiss)
    assert catalogue(Rules(senas="off")) == ()
    assert catalogue("off") == () and senas_for("12o 12c 1e 1b", Rules(senas="off")) == ()
    with pytest.raises(SenaError, match="unknown set"):
        catalogue("secret")
    for s in SENAS.values():
        assert s.gesture and s.meaning and s.kind in ("hand", "intent")
        with pytest.raises(AttributeError):
            s.meaning = "x"  # frozen


def test_get_sena_and_meaning():
    assert get_sena("dos reyes").key == "morder_labio"
    assert get_sena("Duples").key == "cejas"
    assert get_sena("2 reyes").key == "morder_labio"  # the odds engine's name
    assert get_sena(SENAS["guino"]) is SENAS["guino"]
    with pytest.raises(SenaError, match="unknown seña 'pestañeo'"):
        get_sena("pestañeo")
    with pytest.raises(SenaError, match="not used at this table"):
        get_sena("solomillo", Rules())
    with pytest.raises(SenaError, match="senas='off'"):
        get_sena("guino", Rules(senas="off"))
    assert isinstance(SenaError("x"), IllegalActionError) and isinstance(SenaError("x"), MusError)
    assert meaning("guino") == "31 (the best juego)"
    assert "three kings and an ace" in meaning("morritos", "kiss_three_kings")
    assert "three kings and an ace" in meaning("solomillo")


def test_check_sena_names_the_seat_and_rule():
    with pytest.raises(SenaError) as e:
        check_sena("lengua", "12o 12c 5e 4b", seat=3)
    msg = str(e.value)
    assert "seat 3" in msg and "two aces" in msg and "RULES.md §11" in msg
    with pytest.raises(SenaError, match="ciego"):
        check_sena("ciego", "12o 11c 6e 4b")  # punto 30 can be signalled
    with pytest.raises(SenaError, match="after Grande"):
        check_sena("labios_torcidos", "5o 5c 5e 4b", context="lances")
    with pytest.raises(SenaError, match="context"):
        senas_for("5o 5c 5e 4b", context="dessert")
    assert check_sena("inclinar_cabeza", "4o 5c 6e 7b").kind == "intent"  # an intention is not about the cards


@pytest.mark.parametrize("key", list(SENAS))
def test_every_sena_has_a_face(key):
    sena = SENAS[key]
    svg = sena_svg(sena, width=90)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    label = root.get("aria-label")
    assert label == f"{sena.gesture}: {sena.meaning}"
    assert root.find(f"{SVG}title").text == label
    assert root.get("width") == "90" and root.get("data-sena") == key
    assert all(el.get("id") is None for el in root.iter())
    assert len(list(root.iter())) > 10  # a drawn face, not an empty frame
    # the picture changes with the gesture
    others = {sena_svg(k) for k in SENAS if k != key}
    assert sena_svg(sena) not in others
    assert sena._repr_svg_() == sena_svg(sena)


def test_sena_face_labels_follow_the_set_and_bad_widths_fail():
    assert "three kings and an ace" in sena_svg("morritos", rules="kiss_three_kings")
    with pytest.raises(MusError, match="width"):
        sena_svg("guino", width=0)
    with pytest.raises(SenaError):
        sena_svg("bostezo")
    html = catalogue_html(Rules())
    assert html.count("<svg") == len(catalogue(Rules()))
    assert "not used" in catalogue_html(Rules(senas="off"))
    assert "<figcaption" in sena_html("cejas") and "duples" in sena_html("cejas")
