"""Cards, hands and their notation (RULES.md §0, §1): round trips, accents and case, bad input, dealing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from musteach import DECK, RANKS, Card, Hand, Suit, deal, parse_card, parse_hand, parse_hands
from musteach.rules.errors import DuplicateCardError, HandSizeError, MusError, UnknownCardError

cards = st.sampled_from(DECK)


def test_deck_has_forty_distinct_cards_rank_major():
    assert len(DECK) == 40
    assert len(set(DECK)) == 40
    assert {c.rank for c in DECK} == set(RANKS) == {1, 2, 3, 4, 5, 6, 7, 10, 11, 12}
    assert all(DECK[c.index] == c for c in DECK)
    assert [c.index for c in DECK] == list(range(40))
    # rank-major: four consecutive indexes share a rank, so index >> 2 is the rank position
    assert all(c.index >> 2 == RANKS.index(c.rank) for c in DECK)


@given(cards)
def test_every_notation_round_trips(card):
    assert Card.parse(card.code) == card
    assert Card.parse(card.letter_code) == card
    assert Card.parse(card.name) == card
    assert Card.from_index(card.index) == card
    assert parse_card(card) is card
    assert str(card) == card.code


@given(cards, st.sampled_from([str.upper, str.lower, str.title, lambda s: f"  {s}  "]))
def test_case_and_spaces_do_not_matter(card, change):
    assert Card.parse(change(card.name)) == card
    assert Card.parse(change(card.letter_code)) == card
    assert Card.parse(change(card.code)) == card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("12o", 12, Suit.OROS),
        ("Ro", 12, Suit.OROS),
        ("rey de oros", 12, Suit.OROS),
        ("Rey de Oros", 12, Suit.OROS),
        ("REY  DE  OROS", 12, Suit.OROS),
        ("ás de bastos", 1, Suit.BASTOS),
        ("As de Bastos", 1, Suit.BASTOS),
        ("Ab", 1, Suit.BASTOS),
        ("1b", 1, Suit.BASTOS),
        ("caballo de copas", 11, Suit.COPAS),
        ("Cc", 11, Suit.COPAS),
        ("sota de espadas", 10, Suit.ESPADAS),
        ("Se", 10, Suit.ESPADAS),
        ("Je", 10, Suit.ESPADAS),
        ("Kc", 12, Suit.COPAS),
        ("siete de copas", 7, Suit.COPAS),
        ("tres de espadas", 3, Suit.ESPADAS),
        ("dos de oros", 2, Suit.OROS),
        ("7 de bastos", 7, Suit.BASTOS),
    ],
)
def test_parse_examples(text, rank, suit):
    assert Card.parse(text) == Card(rank, suit)


def test_written_forms():
    c = Card(11, Suit.COPAS)
    assert (c.code, c.letter_code, c.name) == ("11c", "Cc", "caballo de copas")
    assert Card(1, Suit.BASTOS).letter_code == "Ab"
    assert Card(7, Suit.BASTOS).letter_code == "7b"
    assert Suit.parse("Oros") is Suit.OROS
    assert Suit.parse("swords") is Suit.ESPADAS
    assert [s.english for s in Suit] == ["coins", "cups", "swords", "clubs"]


@pytest.mark.parametrize("text", ["8o", "9c", "13o", "0e", "12x", "R", "", "rey de nada", "ocho de oros", "Zo"])
def test_unknown_card_text_is_named(text):
    with pytest.raises(UnknownCardError) as e:
        Card.parse(text)
    assert repr(text) in str(e.value)


@pytest.mark.parametrize("value", [12, None, 3.5, ["12o"]])
def test_non_text_card_is_rejected(value):
    with pytest.raises(UnknownCardError, match="unknown card"):
        Card.parse(value)


@pytest.mark.parametrize("rank", [0, 8, 9, 13, True])
def test_card_rank_outside_the_deck(rank):
    with pytest.raises(UnknownCardError, match=repr(rank)):
        Card(rank, Suit.OROS)


def test_card_needs_a_suit():
    with pytest.raises(UnknownCardError, match="suit"):
        Card(12, "o")


@pytest.mark.parametrize("i", [-1, 40, 100])
def test_from_index_out_of_range(i):
    with pytest.raises(UnknownCardError, match=str(i)):
        Card.from_index(i)


def test_unknown_card_error_is_a_value_error():
    assert issubclass(UnknownCardError, MusError)
    assert issubclass(MusError, ValueError)


def test_hand_from_text_list_and_cards():
    h = Hand("12o 3c 7e 1b")
    assert h.codes() == ("12o", "3c", "7e", "1b")
    assert Hand("12o, 3c, 7e, 1b") == h
    assert Hand(["Ro", "tres de copas", "7e", "Ab"]) == h
    assert Hand(list(h)) == h
    assert parse_hand(h) is h
    assert len(h) == 4 and h[0] == Card(12, Suit.OROS)
    assert str(h) == "12o 3c 7e 1b"
    assert repr(h) == "Hand('12o 3c 7e 1b')"


@pytest.mark.parametrize("text", ["12o 3c 7e", "12o 3c 7e 1b 5o", ""])
def test_hand_size_error_shows_the_hand(text):
    with pytest.raises(HandSizeError) as e:
        Hand(text)
    n = len(text.split())
    assert f"not {n}" in str(e.value)
    assert f"[{text}]" in str(e.value)


def test_hand_that_is_not_a_sequence():
    with pytest.raises(HandSizeError, match="None"):
        Hand(None)


def test_duplicate_card_in_a_hand_is_named():
    with pytest.raises(DuplicateCardError, match=r"card 12o \(rey de oros\) appears twice"):
        Hand("12o 3c Ro 1b")


def test_parse_hands_checks_the_whole_deal():
    hs = parse_hands(["12o 3c 7e 1b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 2b"])
    assert [str(h) for h in hs] == ["12o 3c 7e 1b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 2b"]
    with pytest.raises(DuplicateCardError, match=r"card 7e \(siete de espadas\) is dealt twice: to seat 0 and seat 2"):
        parse_hands(["12o 3c 7e 1b", "12c 11o 11c 4e", "1o 7e 4o 5o", "6c 6e 10o 2b"])
    with pytest.raises(HandSizeError, match="not 3 hands"):
        parse_hands(["12o 3c 7e 1b", "12c 11o 11c 4e", "1o 1c 4o 5o"])
    with pytest.raises(HandSizeError, match="not a text"):
        parse_hands("12o 3c 7e 1b")
    with pytest.raises(UnknownCardError, match=r"seat 3: unknown card '8b'"):
        parse_hands(["12o 3c 7e 1b", "12c 11o 11c 4e", "1o 1c 4o 5o", "6c 6e 10o 8b"])
    with pytest.raises(HandSizeError, match="seat 1: a hand holds 4 cards, not 2"):
        parse_hands(["12o 3c 7e 1b", "12c 11o", "1o 1c 4o 5o", "6c 6e 10o 2b"])


@given(st.permutations(range(40)))
def test_any_sixteen_distinct_cards_make_a_deal(order):
    idx = order[:16]
    hs = parse_hands([[DECK[i].code for i in idx[k : k + 4]] for k in (0, 4, 8, 12)])
    assert [c.index for h in hs for c in h] == list(idx)


def test_seeded_dealing_is_reproducible():
    first = deal(2024)
    assert deal(2024) == first
    assert deal(random.Random(2024)) == first
    cards_dealt = [c for h in first for c in h]
    assert len(cards_dealt) == 16 and len(set(cards_dealt)) == 16
    assert len({deal(s) for s in range(20)}) == 20  # different seeds, different deals
