"""The score picture: amarracos, stones and dentro (musteach.draw.stones, RULES.md §9)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from musteach import Rules
from musteach.draw.stones import stones_label, stones_svg, team_stones_text
from musteach.rules.count import is_dentro, to_amarracos
from musteach.rules.errors import BettingError, MusError, RulesError

NS = {"svg": "http://www.w3.org/2000/svg"}


def team_group(svg: str, team: str) -> ET.Element:
    root = ET.fromstring(svg)
    groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "musteach-team-score"]
    assert [g.get("data-team") for g in groups] == ["A", "B"]
    return groups["AB".index(team)]


def counters(group: ET.Element, cls: str) -> int:
    return sum(1 for el in group.iter() if el.get("class") == cls)


def test_root_is_an_accessible_image_without_ids():
    svg = stones_svg(13, 37)
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("role") == "img" and root.get("class") == "musteach-stones"
    assert root.get("aria-label") == stones_label(13, 37)
    assert root.find("svg:title", NS).text == root.get("aria-label")
    assert (root.get("data-score-a"), root.get("data-score-b"), root.get("data-target")) == ("13", "37", "40")
    assert not [el for el in root.iter() if "id" in el.attrib], "no ids, so many pictures fit in one page"


def test_label_words():
    assert stones_label(13, 0) == "Team A: 2 amarracos and 3 stones (13); Team B: 0 amarracos and 0 stones (0). Game to 40."
    assert team_stones_text(5) == "1 amarraco and 0 stones (5)"
    assert team_stones_text(1) == "0 amarracos and 1 stone (1)"
    assert team_stones_text(35) == "7 amarracos and 0 stones (35), dentro, 5 to go"
    assert team_stones_text(34) == "6 amarracos and 4 stones (34)"
    assert team_stones_text(40) == "8 amarracos and 0 stones (40), game won"
    assert team_stones_text(25, Rules(target=30)).endswith("dentro, 5 to go")


@pytest.mark.parametrize("score", range(0, 46))
def test_counters_match_the_score(score):
    amarracos, piedras = to_amarracos(score)
    assert 5 * amarracos + piedras == score and 0 <= piedras <= 4
    svg = stones_svg(score, 44 - score if score <= 44 else 0)
    g = team_group(svg, "A")
    assert counters(g, "musteach-amarraco") == amarracos
    assert counters(g, "musteach-piedra") == piedras
    assert g.get("data-amarracos") == str(amarracos) and g.get("data-piedras") == str(piedras)
    # every amarraco counter is marked with its worth
    marks = [el.find("svg:text", NS).text for el in g.iter() if el.get("class") == "musteach-amarraco"]
    assert marks == ["5"] * amarracos
    # empty slots: a game of 40 has 8 amarraco places and 4 for loose stones
    slots = counters(g, "musteach-slot")
    assert slots == max(8, amarracos) - amarracos + 4 - piedras


@pytest.mark.parametrize("target", [30, 35, 40])
def test_dentro_and_won_flags(target):
    rules = Rules(target=target)
    for score in range(0, target + 3):
        g = team_group(stones_svg(score, 0, rules), "A")
        assert g.get("data-dentro") == ("true" if target - 5 <= score < target else "false"), score
        assert (g.get("data-dentro") == "true") == is_dentro(score, rules)
        assert g.get("data-won") == ("true" if score >= target else "false")
        text = ET.tostring(g, encoding="unicode")
        assert ("DENTRO" in text) == (g.get("data-dentro") == "true")
        assert ("GAME WON" in text) == (score >= target)
    # the slots follow the target: 6, 7 or 8 amarracos make a game
    g = team_group(stones_svg(0, 0, rules), "B")
    assert counters(g, "musteach-slot") == target // 5 + 4
    assert f"Game to {target} = {target // 5} amarracos" in stones_svg(0, 0, rules)


def test_a_very_large_final_score_is_drawn_as_one_counter():
    svg = stones_svg(120, 3)
    g = team_group(svg, "A")
    assert counters(g, "musteach-amarraco") == 1 and "×24" in ET.tostring(g, encoding="unicode")
    assert "24 amarracos and 0 stones (120), game won" in stones_label(120, 3)


def test_width_scales_the_picture():
    small, big = ET.fromstring(stones_svg(1, 2, width=260)), ET.fromstring(stones_svg(1, 2, width=520))
    assert float(big.get("width")) == 2 * float(small.get("width"))
    assert float(big.get("height")) == pytest.approx(2 * float(small.get("height")), abs=0.02)
    assert small.get("viewBox") == big.get("viewBox")


@pytest.mark.parametrize("bad", [-1, 2.5, True, "7", None])
def test_bad_scores_name_the_team_and_value(bad):
    with pytest.raises(BettingError, match=r"team B's score must be a whole number of stones ≥ 0, not"):
        stones_svg(3, bad)
    with pytest.raises(BettingError, match="team A"):
        stones_svg(bad, 3)


def test_bad_rules_and_width():
    with pytest.raises(RulesError):
        stones_svg(1, 2, rules={"target": 40})
    for w in (0, 50, "wide", True):
        with pytest.raises(MusError, match="width"):
            stones_svg(1, 2, width=w)
