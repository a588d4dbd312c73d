"""The pictures: cards, hands, the table and a judged deal (musteach.draw.cards)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from musteach import DECK, Card, Hand, evaluate, parse_hands
from musteach.draw.cards import CARD_RATIO, TEAM_COLORS, card_html, card_svg, hand_html, hand_svg
from musteach.draw.table import deal_html, table_svg
from musteach.rules import Rules
from musteach.rules.errors import DuplicateCardError, HandSizeError, MusError, RulesError, SeatError, UnknownCardError
from musteach.rules.lances import team_of

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"
NS = "{http://www.w3.org/2000/svg}"


def _deals(n: int) -> list[dict]:
    out = []
    with open(VECTORS / "deals.jsonl", encoding="utf-8") as f:
        for line in f:
            out.append(json.loads(line))
            if len(out) == n:
                break
    return out


DEALS = _deals(40)
DEAL = DEALS[0]


def _all(root: ET.Element, tag: str) -> list[ET.Element]:
    return list(root.iter(NS + tag))


def _ids(root: ET.Element) -> list[str]:
    return [e.get("id") for e in root.iter() if e.get("id") is not None]


def _by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


# ----- cards ------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", DECK, ids=[c.code for c in DECK])
def test_every_card_is_an_svg_document_named_for_the_card(card: Card) -> None:
    root = ET.fromstring(card_svg(card))
    assert root.tag == NS + "svg"
    assert root.get("role") == "img"
    assert root.get("aria-label") == card.name
    assert root.get("data-card") == card.code
    title = root.find(NS + "title")
    assert title is not None and title.text == card.name
    assert root.get("viewBox") is not None
    assert _ids(root) == []


@pytest.mark.parametrize("card", DECK, ids=[c.code for c in DECK])
def test_rank_in_two_corners_and_figure_letter_or_pips(card: Card) -> None:
    root = ET.fromstring(card_svg(card))
    ranks = [t.text for t in _by_class(root, "musteach-rank")]
    assert ranks == [str(card.rank)] * 2
    figures = [t.text for t in _by_class(root, "musteach-figure")]
    pips = _by_class(root, "musteach-pip")
    if card.rank >= 10:
        assert figures == [{10: "S", 11: "C", 12: "R"}[card.rank]]
        assert pips == []
    else:
        assert figures == []
        assert len(pips) == card.rank


def test_the_four_suits_are_drawn_differently() -> None:
    bodies = {card_svg(Card(5, s)).split("</title>", 1)[1] for s in {c.suit for c in DECK}}
    assert len(bodies) == 4
    # and so are all 40 cards
    assert len({card_svg(c) for c in DECK}) == 40


def test_card_width_sets_the_size() -> None:
    root = ET.fromstring(card_svg("Ro", 120))
    assert float(root.get("width")) == 120
    assert float(root.get("height")) == pytest.approx(120 * CARD_RATIO, abs=0.01)
    default = ET.fromstring(card_svg("Ro"))
    assert float(default.get("width")) == 60


def test_card_accepts_codes_letter_codes_and_names() -> None:
    assert card_svg("12o") == card_svg("Ro") == card_svg("rey de oros") == card_svg(Card.parse("12o"))


def test_highlight_and_dim_change_the_card_and_stay_valid() -> None:
    plain, lit, dim = card_svg("7e"), card_svg("7e", highlight=True), card_svg("7e", dim=True)
    assert len({plain, lit, dim}) == 3
    for s in (lit, dim):
        assert ET.fromstring(s).get("aria-label") == "siete de espadas"
    assert any(g.get("opacity") for g in ET.fromstring(dim).iter(NS + "g"))
    assert not any(g.get("opacity") for g in ET.fromstring(plain).iter(NS + "g"))


@pytest.mark.parametrize("bad", ["8o", "13c", "xx", "", 12])
def test_bad_card_raises_unknown_card(bad: object) -> None:
    with pytest.raises(UnknownCardError):
        card_svg(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("width", [0, -5, float("nan"), "60", True])
def test_bad_width_raises_mus_error(width: object) -> None:
    with pytest.raises(MusError):
        card_svg("1o", width)  # type: ignore[arg-type]


def test_card_html_wraps_the_svg() -> None:
    html = card_html("1b")
    assert html.startswith("<span") and card_svg("1b") in html


# ----- hands ------------------------------------------------------------------------------------


def test_hand_svg_lists_the_cards_in_order() -> None:
    hand = Hand("12o 3c 7e 5b")
    root = ET.fromstring(hand_svg(hand))
    names = ", ".join(c.name for c in hand)
    assert root.get("aria-label") == names
    assert root.find(NS + "title").text == names
    assert root.get("data-hand") == "12o 3c 7e 5b"
    cards = _by_class(root, "musteach-card")
    assert [c.get("data-card") for c in cards] == ["12o", "3c", "7e", "5b"]
    xs = [float(c.get("x")) for c in cards]
    assert xs == sorted(xs) and len(set(xs)) == 4
    assert _ids(root) == []


def test_hand_label_and_highlight() -> None:
    root = ET.fromstring(hand_svg("1o 1c 4o 5o", label="Seat 2 & co", card_width=80))
    assert root.get("aria-label").startswith("Seat 2 & co: as de oros")
    assert any(t.text == "Seat 2 & co" for t in root.iter(NS + "text"))
    assert all(float(c.get("width")) == 80 for c in _by_class(root, "musteach-card"))
    assert hand_svg("1o 1c 4o 5o", highlight=True) != hand_svg("1o 1c 4o 5o")


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        ("12o 3c 7e", HandSizeError),
        ("12o 3c 7e 5b 6b", HandSizeError),
        ("12o 12o 7e 5b", DuplicateCardError),
        ("12o 9c 7e 5b", UnknownCardError),
    ],
)
def test_bad_hand_raises(bad: str, error: type[MusError]) -> None:
    with pytest.raises(error):
        hand_svg(bad)
    with pytest.raises(error):
        hand_html(bad)


# ----- the table --------------------------------------------------------------------------------


def _seats(root: ET.Element) -> dict[int, ET.Element]:
    return {int(g.get("data-seat")): g for g in _by_class(root, "musteach-seat")}


@pytest.mark.parametrize("deal", DEALS, ids=[str(i) for i in range(len(DEALS))])
def test_table_data_round_trips_to_the_deal(deal: dict) -> None:
    root = ET.fromstring(table_svg(deal["hands"], deal["mano"]))
    assert root.tag == NS + "svg"
    assert "musteach-table" in root.get("class").split()
    assert int(root.get("data-mano")) == deal["mano"]
    back = parse_hands(root.get("data-hands").split("|"))
    assert back == parse_hands(deal["hands"])
    assert root.get("data-hands") == "|".join(" ".join(h) for h in deal["hands"])
    # every card is drawn once, inside its own seat
    seats = _seats(root)
    for seat, hand in enumerate(deal["hands"]):
        assert [c.get("data-card") for c in _by_class(seats[seat], "musteach-card")] == hand
    assert _ids(root) == []


@pytest.mark.parametrize("mano", range(4))
def test_mano_and_postre_are_marked_on_the_right_seats(mano: int) -> None:
    root = ET.fromstring(table_svg(DEAL["hands"], mano))
    seats = _seats(root)
    assert sorted(seats) == [0, 1, 2, 3]
    postre = (mano + 3) % 4
    for seat, g in seats.items():
        words = {t.text for t in g.iter(NS + "text")}
        expected = "mano" if seat == mano else "postre" if seat == postre else ""
        assert g.get("data-role") == expected
        assert ("MANO" in words) == (seat == mano)
        assert ("POSTRE" in words) == (seat == postre)
        assert g.get("data-team") == team_of(seat)
        assert any((t.text or "").startswith(f"Seat {seat}") for t in g.iter(NS + "text"))
    assert f"seat {mano} is mano" in root.get("aria-label")


def test_seats_sit_bottom_right_top_left() -> None:
    root = ET.fromstring(table_svg(DEAL["hands"], 0))
    first = {s: _by_class(g, "musteach-card")[0] for s, g in _seats(root).items()}
    x = {s: float(c.get("x")) for s, c in first.items()}
    y = {s: float(c.get("y")) for s, c in first.items()}
    assert y[2] < y[1] == y[3] < y[0]
    assert x[3] < x[0] == x[2] < x[1]


def test_team_legend_and_colours() -> None:
    svg = table_svg(DEAL["hands"], 0)
    assert "Team A (seats 0 &amp; 2)" in svg and "Team B (seats 1 &amp; 3)" in svg
    root = ET.fromstring(svg)
    swatch = {e.get("data-team"): e.get("fill") for e in _by_class(root, "musteach-swatch")}
    assert set(swatch) == {"A", "B"} and swatch["A"] != swatch["B"]
    assert swatch == {t: c for t, (c, _) in TEAM_COLORS.items()}
    for seat, g in _seats(root).items():
        (panel,) = _by_class(g, "musteach-panel")
        assert panel.get("stroke") == swatch[team_of(seat)]


@pytest.mark.parametrize("lit", [0, 1, 2, 3, {1, 3}, (0, 2), frozenset()])
def test_highlight_marks_exactly_those_seats(lit: object) -> None:
    plain = table_svg(DEAL["hands"], 1)
    svg = table_svg(DEAL["hands"], 1, highlight=lit)
    want = {lit} if isinstance(lit, int) else set(lit)
    assert (svg != plain) == bool(want)
    seats = _seats(ET.fromstring(svg))
    for seat, g in seats.items():
        assert (g.get("data-highlight") == "true") == (seat in want)
        assert bool(_by_class(g, "musteach-glow")) == (seat in want)


def test_caption_rules_and_width() -> None:
    svg = table_svg(DEAL["hands"], 2, caption="Grande <&> chica", rules=Rules.preset("4reyes"), card_width=90)
    root = ET.fromstring(svg)
    assert any(t.text == "Grande <&> chica" for t in root.iter(NS + "text"))
    assert "4 reyes" in svg
    assert "8 reyes" in table_svg(DEAL["hands"], 2, rules=Rules())
    assert all(float(c.get("width")) == 90 for c in _by_class(root, "musteach-card"))
    assert float(root.get("width")) > float(ET.fromstring(table_svg(DEAL["hands"], 2)).get("width"))


def test_output_is_ascii_so_any_page_encoding_shows_it() -> None:
    caption = "Órdago · ¿quién gana?"
    svg = table_svg(DEAL["hands"], 0, caption=caption, rules=Rules())
    assert svg.isascii()
    root = ET.fromstring(svg)
    assert any(t.text == caption for t in root.iter(NS + "text"))
    assert any("".join(t.itertext()) == "Seat 0 · team A" for t in root.iter(NS + "text"))
    assert hand_svg("1o 1c 4o 5o", label=caption).isascii()
    assert deal_html(evaluate(DEAL["hands"], DEAL["mano"])).isascii()


def test_table_accepts_hand_objects() -> None:
    hands = [Hand(h) for h in DEAL["hands"]]
    assert table_svg(hands, 0) == table_svg(DEAL["hands"], 0)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"mano": 4}, SeatError),
        ({"mano": -1}, SeatError),
        ({"mano": True}, SeatError),
        ({"mano": "0"}, SeatError),
        ({"mano": 0, "highlight": 4}, SeatError),
        ({"mano": 0, "highlight": {0, 7}}, SeatError),
        ({"mano": 0, "highlight": "2"}, SeatError),
        ({"mano": 0, "card_width": 0}, MusError),
        ({"mano": 0, "rules": "8 reyes"}, RulesError),
    ],
)
def test_bad_table_arguments_raise(kwargs: dict, error: type[MusError]) -> None:
    with pytest.raises(error):
        table_svg(DEAL["hands"], **kwargs)


@pytest.mark.parametrize(
    ("hands", "error"),
    [
        (DEAL["hands"][:3], HandSizeError),
        ([*DEAL["hands"][:3], ["1o", "2o", "3o"]], HandSizeError),
        ([DEAL["hands"][0], *DEAL["hands"][:3]], DuplicateCardError),
        ([["8o", "1c", "1e", "1b"], *DEAL["hands"][1:]], UnknownCardError),
        ("12o 3c 7e 5b", HandSizeError),
    ],
)
def test_bad_deal_raises(hands: object, error: type[MusError]) -> None:
    with pytest.raises(error):
        table_svg(hands, 0)  # type: ignore[arg-type]


# ----- a judged deal ----------------------------------------------------------------------------


@pytest.mark.parametrize("deal", DEALS[:10], ids=[str(i) for i in range(10)])
def test_deal_html_shows_the_results_own_winners_and_reasons(deal: dict) -> None:
    result = evaluate(deal["hands"], deal["mano"])
    html = deal_html(result)
    root = ET.fromstring(html)  # well-formed, so it also embeds in XHTML
    tables = [e for e in root.iter() if "musteach-table" in (e.get("class") or "").split()]
    assert len(tables) == 1
    assert tables[0].get("data-hands") == "|".join(" ".join(h) for h in deal["hands"])
    assert tables[0].get("data-mano") == str(deal["mano"])
    assert not any(g.get("data-highlight") == "true" for g in _by_class(root, "musteach-seat"))
    rows = [tr for tr in root.iter("tr") if tr.get("data-lance")]
    assert [tr.get("data-lance") for tr in rows] == ["grande", "chica", "pares", "juego", "punto"]
    for tr, lr in zip(rows, result.results(), strict=True):
        cells = tr.findall("td")
        assert cells[0].text == lr.lance.title
        winner_text = "".join(cells[1].itertext())
        if lr.winner is None:
            assert winner_text == "nobody"
        else:
            assert winner_text == f"Seat {lr.winner} (team {lr.team})"
        assert cells[2].text == lr.explanation
    # the vectors agree with what is shown
    assert {
        tr.get("data-lance"): (int(tr.get("data-winner")) if tr.get("data-winner") else None) for tr in rows
    } == deal["winners"]


def test_deal_html_rejects_other_things() -> None:
    with pytest.raises(MusError):
        deal_html(DEAL["hands"])  # type: ignore[arg-type]


# ----- notebook hooks ---------------------------------------------------------------------------


def test_repr_hooks_return_the_markup() -> None:
    card = Card.parse("11c")
    assert card._repr_svg_() == card_svg(card)
    assert card_svg(card) in card._repr_html_()
    hand = Hand("12o 3c 7e 5b")
    assert hand._repr_svg_() == hand_svg(hand)
    assert hand_svg(hand) in hand._repr_html_()
    result = evaluate(DEAL["hands"], DEAL["mano"])
    assert result._repr_html_() == deal_html(result)
    ET.fromstring(card._repr_svg_())
    ET.fromstring(hand._repr_svg_())


_PIP = re.compile(r'<g class="musteach-pip" transform="translate\(([-\d.]+) ([-\d.]+)\)( rotate\([-\d.]+\))? scale\(([\d.]+)\)">')


def _pip_boxes(code: str) -> list[tuple[float, float, float, float, bool]]:
    """(left, top, right, bottom, turned) of each pip's body on the card (100 x 154 units): a round suit fills
    its square, a sword or a club is a bar 0.3 of its height wide."""
    card = Card.parse(code)
    long = card.suit.value in ("e", "b")
    boxes = []
    for x, y, turned, k in _PIP.findall(card_svg(code)):
        x, y, size = float(x), float(y), float(k) * 100
        half_w = size * (0.15 if long else 0.47)
        boxes.append((x - half_w, y - size / 2, x + half_w, y + size / 2, bool(turned)))
    return boxes


@pytest.mark.parametrize("code", [f"{r}{s}" for s in "oceb" for r in range(2, 8)])
def test_pips_are_apart_and_countable(code):
    # issue 14: the 3 de bastos drew its three clubs crossed in one bundle; every pip must stand apart, upright
    boxes = _pip_boxes(code)
    assert len(boxes) == int(code[:-1])
    assert not any(b[4] for b in boxes), f"{code}: a pip is turned"
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap = min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
            assert not overlap, f"{code}: pips at {a[:4]} and {b[:4]} overlap"
