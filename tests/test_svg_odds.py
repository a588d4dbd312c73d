"""The odds bar chart (musteach.draw.odds): its numbers are hand_odds' numbers, its geometry matches them,
it is accessible (role, aria-label with the numbers) and bad input raises a MusError naming it."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musteach import DECK, Rules
from musteach.draw.odds import BAR_COLORS, NOBODY_WORDS, odds_bars_svg, odds_label, percent_text
from musteach.odds import hand_odds
from musteach.rules.errors import MusError

NS = {"s": "http://www.w3.org/2000/svg"}
LANCES = ("grande", "chica", "pares", "juego", "punto")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def rows(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-lance"): g for g in root.iter(f"{{{NS['s']}}}g") if g.get("class") == "musteach-odds-row"}


def seg_width(row: ET.Element, seg: str) -> float:
    rect = next((r for r in row.findall("s:rect", NS) if r.get("class") == f"musteach-bar-{seg}"), None)
    return 0.0 if rect is None else float(rect.get("width"))


@pytest.fixture(scope="module")
def odds():
    return hand_odds("12o 3c 11e 1b", seat=1, mano=0)


def test_root_is_an_accessible_image_without_ids(odds):
    svg = odds_bars_svg(odds.as_dict())
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("class") == "musteach-odds-bars"
    assert " id=" not in svg and not any("id" in el.attrib for el in root.iter())
    label = root.get("aria-label")
    assert label == odds_label(odds.as_dict())
    for lo in odds.lances():
        assert f"{lo.lance.title} {percent_text(lo.team)} (you {percent_text(lo.you)}" in label
    assert f"nobody holds pares {percent_text(odds.pares.nobody)}" in label
    assert f"nobody has juego {percent_text(odds.juego.nobody)}" in label
    assert root.find("s:title", NS).text == label


def test_each_row_shows_the_team_share_and_its_split(odds):
    root = parse(odds_bars_svg(odds.as_dict(), width=600))
    by_lance = rows(root)
    assert list(by_lance) == list(LANCES)
    for lo in odds.lances():
        row = by_lance[lo.lance.value]
        assert float(row.get("data-team")) == float(lo.team)
        assert float(row.get("data-nobody")) == float(lo.nobody)
        text = row.find("s:text[@class='musteach-odds-team']", NS).text
        assert text == percent_text(lo.team)
        widths = {seg: seg_width(row, seg) for seg in ("you", "partner", "opponents", "nobody")}
        full = sum(widths.values())
        assert full > 0
        shares = {"you": lo.you, "partner": lo.partner, "opponents": lo.opponents, "nobody": lo.nobody}
        for seg, share in shares.items():
            assert widths[seg] / full == pytest.approx(float(share), abs=0.002), (lo.lance, seg)


def test_segments_follow_the_asking_seat_not_seat_zero():
    o = hand_odds("12o 3c 11e 1b", seat=2, mano=3)
    row = rows(parse(odds_bars_svg(o)))["grande"]  # a HandOdds is accepted as well as its dict
    you = next(r for r in row.findall("s:rect", NS) if r.get("class") == "musteach-bar-you")
    assert float(you.get("data-share")) == float(o.grande.seats[2])
    assert you.get("fill") == BAR_COLORS["you"]


def test_nobody_segment_names_what_nobody_means():
    o = hand_odds("1o 4c 5e 6b", seat=0, mano=0)  # no pares, no juego: the grey shares are large
    svg = odds_bars_svg(o.as_dict())
    for lance in ("pares", "juego"):
        assert f"{lance.title()}, {NOBODY_WORDS[lance]}: {percent_text(o[lance].nobody)}" in svg
    juego = hand_odds("12o 11c 10e 1b")  # 31: Punto is never played
    root = parse(odds_bars_svg(juego.as_dict()))
    assert seg_width(rows(root)["punto"], "nobody") > 0 and seg_width(rows(root)["punto"], "you") == 0
    assert rows(root)["punto"].find("s:text[@class='musteach-odds-team']", NS).text == "0%"


def test_lances_title_and_legend_options(odds):
    svg = odds_bars_svg(odds.as_dict(), lances=["juego", "Grande"], title="Odds & ends", legend=False)
    root = parse(svg)
    assert list(rows(root)) == ["juego", "grande"]
    assert "Odds &amp; ends" in svg
    assert 'class="musteach-odds-legend"' not in svg
    assert 'class="musteach-odds-legend"' in odds_bars_svg(odds.as_dict())
    assert odds_label(odds.as_dict(), ["juego"]).startswith("Your team's chances per lance: Juego ")


@pytest.mark.parametrize(
    "p, text",
    [(0, "0%"), (1, "100%"), (0.004, "under 1%"), (0.996, "over 99%"), (0.5, "50%"), (0.9474, "95%"), (0.125, "12%")],
)
def test_percent_text(p, text):
    assert percent_text(p) == text


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), "lots", None])
def test_percent_text_refuses_non_probabilities(bad):
    with pytest.raises(MusError, match="from 0 to 1"):
        percent_text(bad)


def _broken(odds, edit):
    d = copy.deepcopy(odds.as_dict())
    edit(d)
    return d


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda d: d["lances"].pop("chica"), "no 'chica' entry"),
        (lambda d: d["lances"]["grande"].__setitem__("seats", [0.5, 0.5]), "4 probabilities"),
        (lambda d: d["lances"]["grande"].__setitem__("nobody", 0.3), "add up to"),
        (lambda d: d["lances"]["pares"]["seats"].__setitem__(0, 1.7), "pares seat 0"),
        (lambda d: d.__setitem__("seat", 4), "seat 0, 1, 2 or 3"),
    ],
)
def test_malformed_odds_raise_a_named_mus_error(odds, edit, match):
    with pytest.raises(MusError, match=re.escape(match)):
        odds_bars_svg(_broken(odds, edit))


def test_bad_arguments_raise(odds):
    with pytest.raises(MusError, match="width"):
        odds_bars_svg(odds.as_dict(), width=10)
    with pytest.raises(MusError, match="row_height"):
        odds_bars_svg(odds.as_dict(), row_height=True)
    with pytest.raises(MusError, match="as_dict"):
        odds_bars_svg([1, 2, 3])
    with pytest.raises(MusError, match="unknown lance"):
        odds_bars_svg(odds.as_dict(), lances=["mus"])
    with pytest.raises(MusError, match="at least one lance"):
        odds_bars_svg(odds.as_dict(), lances=[])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True),
    seat=st.integers(0, 3),
    mano=st.integers(0, 3),
    kings=st.sampled_from([8, 4]),
)
def test_any_hand_draws_full_bars_matching_its_odds(cards, seat, mano, kings):
    o = hand_odds(cards, seat, mano, Rules(kings=kings))
    root = parse(odds_bars_svg(o.as_dict(), width=400, row_height=20))
    for lo in o.lances():
        row = rows(root)[lo.lance.value]
        total = sum(seg_width(row, s) for s in ("you", "partner", "opponents", "nobody"))
        back = row.find("s:rect", NS)  # the first rect is the empty bar behind the segments: they fill it exactly
        assert total == pytest.approx(float(back.get("width")), abs=0.05)
        assert row.find("s:text[@class='musteach-odds-team']", NS).text == percent_text(lo.team)
