"""Rules options (RULES.md §13): defaults, presets, variants and the errors that name a bad option."""

from __future__ import annotations

import dataclasses

import pytest

from musteach import PRESETS, Rules
from musteach.rules.errors import MusError, RulesError


def test_defaults_are_8_reyes_to_40():
    r = Rules()
    assert (r.kings, r.target, r.la_real, r.deje_timing) == (8, 40, False, "immediate")
    assert r.variant == "8reyes"
    assert r.amarracos_to_win == 8
    assert Rules(target=30).amarracos_to_win == 6


def test_rules_are_frozen_and_hashable():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.kings = 4  # type: ignore[misc]
    assert hash(r) == hash(Rules())
    assert {Rules(), Rules(kings=4)} == {PRESETS["8reyes"], PRESETS["4reyes"]}


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"kings": 5}, "kings must be 8 or 4, not 5"),
        ({"kings": True}, "kings must be 8 or 4, not True"),
        ({"kings": "8"}, "kings must be 8 or 4, not '8'"),
        ({"target": 45}, "target must be 30, 35 or 40, not 45"),
        ({"la_real": "yes"}, "la_real must be True or False, not 'yes'"),
        ({"la_real_figure": "rey"}, "not 'rey'"),
        ({"deje_timing": "later"}, "not 'later'"),
        ({"games_per_vaca": 0}, "games_per_vaca"),
        ({"vacas_per_match": 9}, "vacas_per_match"),
        ({"first_hand": "odd"}, "first_hand"),
        ({"senas": "wink"}, "senas"),
        ({"players": 6}, "6-player"),
    ],
)
def test_bad_option_is_named(options, named):
    with pytest.raises(RulesError) as e:
        Rules(**options)
    assert named in str(e.value)
    assert "RULES.md §13" in str(e.value)
    assert isinstance(e.value, MusError)


def test_presets_and_variants():
    assert Rules.preset("4reyes") == Rules(kings=4)
    assert Rules.preset("4 Reyes") == Rules(kings=4)
    assert Rules.preset("la-real").la_real is True
    assert Rules.preset("a30").target == 30
    assert Rules.from_variant("8reyes") == Rules()
    assert Rules.from_variant("4reyes").kings == 4
    assert Rules.from_variant(4) == Rules(kings=4)
    assert Rules.from_variant(None) == Rules()
    assert Rules.from_variant("4reyes", la_real=True) == Rules(kings=4, la_real=True)
    assert Rules(kings=4).variant == "4reyes"
    for name, rules in PRESETS.items():
        assert Rules.preset(name) == rules


def test_unknown_preset_and_option_are_named():
    with pytest.raises(RulesError, match="unknown rules preset '5reyes'"):
        Rules.preset("5reyes")
    with pytest.raises(RulesError, match="unknown rules option 'reyes'"):
        Rules().replace(reyes=4)
    with pytest.raises(RulesError, match="kings must be 8 or 4, not 3"):
        Rules.from_variant(3)


def test_replace_and_as_dict_round_trip():
    r = Rules().replace(kings=4, la_real=True, la_real_figure="any")
    assert (r.kings, r.la_real, r.la_real_figure) == (4, True, "any")
    assert Rules(**r.as_dict()) == r
    assert r.as_dict()["kings"] == 4
