"""What the hints and the count diagnosis claim, checked against the evaluator, in each language (issue 28, item 5).

Each test builds a deal where a hint sentence's rule applies, asks the evaluator (RULES.md §2, §4, §5) who wins,
and checks that the sentence, in English and in Spanish, states the rule the evaluator plays: the words that carry
the rule are there, the words of a wrong rule are not.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from musteach.rules.cards import DECK, Hand
from musteach.rules.count import count_hand
from musteach.rules.lances import Lance, effective_rank, evaluate, point_value, team_of
from musteach.rules.options import Rules
from musteach.teach.hints import lance_hints
from musteach.teach.why_wrong import why_count_wrong

LANGS = ("en", "es")


def _step1(hands: list[str], lance: str, lang: str, rules: Rules | None = None) -> str:
    return lance_hints(hands, 0, lance, rules, lang=lang)[0].text


def _deals(n: int, seed: int) -> list[list[str]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rnd.sample(DECK, 16)
        out.append([" ".join(str(c) for c in cards[i * 4 : i * 4 + 4]) for i in range(4)])
    return out


# ----- Grande and Chica: card by card from the top (Grande) or the bottom (Chica) ------------------------------


@pytest.mark.parametrize("kings", [4, 8])
def test_grande_and_chica_compare_card_by_card_as_the_hint_says(kings: int) -> None:
    rules = Rules(kings=kings)
    for hands in _deals(200, kings):
        deal = evaluate(hands, 0, rules)
        ranks = [sorted((effective_rank(c.rank, kings) for c in Hand.parse(h).cards), reverse=True) for h in hands]
        order = (0, 1, 2, 3)  # mano 0: nearer mano first, so max() keeps the nearer seat on a tie
        assert deal[Lance.GRANDE].winner == max(order, key=lambda s: ranks[s])
        assert deal[Lance.CHICA].winner == min(order, key=lambda s: ranks[s][::-1])
    hands = _deals(1, 1)[0]
    said = {lang: (_step1(hands, "grande", lang), _step1(hands, "chica", lang)) for lang in LANGS}
    assert "highest card first" in said["en"][0] and "next one down" in said["en"][0]
    assert "lowest card first" in said["en"][1] and "lower card wins" in said["en"][1]
    assert "carta más alta" in said["es"][0] and "hacia abajo" in said["es"][0]
    assert "carta más baja" in said["es"][1] and "Gana la carta más baja" in said["es"][1]


def test_eight_reyes_hints_read_3s_as_kings_and_2s_as_aces() -> None:
    hands = ["3o 12c 7e 4b", "2o 1c 5o 6e", "10o 11e 4c 5c", "7c 6c 5e 4e"]
    eight, four = Rules(kings=8), Rules(kings=4)
    assert effective_rank(3, 8) == effective_rank(12, 8) and effective_rank(2, 8) == effective_rank(1, 8)
    assert evaluate(hands, 0, eight).infos[0].pares is not None  # the 3 pairs with the king
    assert evaluate(hands, 0, eight).infos[1].pares is not None  # the 2 pairs with the ace
    assert evaluate(hands, 0, four).infos[0].pares is None
    for lance, en, es in [
        ("grande", "every 3 is a king", "cada 3 es un rey"),
        ("chica", "every 2 is an ace", "cada 2 es un as"),
        ("pares", "a 3 pairs with a king and a 2 with an ace", "un 3 se empareja con un rey y un 2 con un as"),
        ("juego", "a 3 counts 10 (a king) and a 2 counts 1 (an ace)", "el 3 vale 10 (es un rey) y el 2 vale 1"),
        ("punto", "a 3 counts 10 (a king) and a 2 counts 1 (an ace)", "el 3 vale 10 (es un rey) y el 2 vale 1"),
    ]:
        assert en in _step1(hands, lance, "en", eight) and es in _step1(hands, lance, "es", eight)
        # with 4 reyes a 3 is a 3 and a 2 a 2: the hint says nothing of 8 reyes
        assert "8 reyes" not in _step1(hands, lance, "en", four) and "8 reyes" not in _step1(hands, lance, "es", four)


# ----- Pares: the kind first, then the rank of the pair, never the loose cards --------------------------------


def test_pares_hint_says_the_higher_pair_wins_not_the_higher_card() -> None:
    # seat 0: a par of 5s with a king beside it; seat 1: a par of sotas, whose highest card is lower than a king
    hands = ["5o 5c 12o 1e", "10o 10c 4e 6b", "7o 6c 4o 1b", "7e 6o 4c 1c"]
    deal = evaluate(hands, 0, Rules(kings=4))
    assert deal[Lance.PARES].winner == 1, "the higher pair wins, whatever the other cards"
    # kinds: medias of 4s beat a par of kings, duples of 5s and 4s beat medias of kings
    assert evaluate(["4o 4c 4e 1b", "12o 12c 7o 6o", "5e 6e 7e 1c", "5b 6b 7b 1e"], 0, Rules(kings=4))[Lance.PARES].winner == 0
    assert evaluate(["5o 5c 4e 4b", "12o 12c 12e 6o", "1o 6e 7e 1c", "7c 6b 7b 1e"], 0, Rules(kings=4))[Lance.PARES].winner == 0
    en, es = (_step1(hands, "pares", lang, Rules(kings=4)) for lang in LANGS)
    assert "Duples beat medias, medias beat a par" in en and "the higher rank wins" in en
    assert "duples ganan a las medias y las medias al par" in es
    assert "gana el de cartas más altas" in es and "sin mirar las cartas sueltas" in es
    assert "carta más alta" not in es, "the mistake lesson 4 warns against: the highest loose card does not count"


# ----- Juego and Punto: what a card counts, the order of juego, Punto only without juego ----------------------


@pytest.mark.parametrize("kings", [4, 8])
def test_juego_hint_counts_cards_as_the_evaluator(kings: int) -> None:
    assert [point_value(r, kings) for r in (12, 11, 10, 7, 6, 5, 4, 1)] == [10, 10, 10, 7, 6, 5, 4, 1]
    assert point_value(3, kings) == (10 if kings == 8 else 3) and point_value(2, kings) == (1 if kings == 8 else 2)
    hands = ["3o 12c 7e 4b", "2o 1c 5o 6e", "10o 11e 4c 5c", "7c 6c 5e 4e"]
    for lang in LANGS:
        said = _step1(hands, "juego", lang, Rules(kings=kings))
        assert ("3, C" not in said) and ("2s 1" not in said) and ("los 2 valen 1" not in said)
        assert ("8 reyes" in said) == (kings == 8)


def test_juego_order_is_the_hints_order() -> None:
    # each pair of neighbours in the hint's order 31, 32, 40, 37 ... 33, the better one seat 1, the worse one seat
    # 0 (nearer mano, so it would win a tie): the evaluator gives the lance to seat 1 every time
    def hand(total: int, suit: str, spare: str) -> str:
        return f"12{suit} 11{suit} 10{suit} " + (f"12{spare}" if total == 40 else f"{total - 30}{suit}")

    rules = Rules(kings=4)
    order = [31, 32, 40, 37, 36, 35, 34, 33]
    for better, worse in pairwise(order):
        hands = [hand(worse, "e", "b"), hand(better, "o", "c"), "4c 5c 6c 7c", "4b 5b 6b 7b"]
        deal = evaluate(hands, 0, rules)
        assert deal.infos[1].total == better and deal.infos[0].total == worse
        assert deal[Lance.JUEGO].winner == 1, (better, worse)
        for lang in LANGS:
            assert "31, 32, 40, 37, 36, 35, 34, 33" in _step1(hands, "juego", lang, rules)


def test_punto_is_not_played_when_somebody_has_juego_and_the_highest_total_wins() -> None:
    rules = Rules(kings=4)
    with_juego = ["12o 11o 10o 1o", "7o 6o 5o 4o", "4e 5e 6c 7c", "1c 1b 4c 5b"]
    assert evaluate(with_juego, 0, rules)[Lance.PUNTO].winner is None
    without = ["12o 11o 1o 1e", "7o 6o 5o 4o", "4e 5e 6c 1c", "1b 2b 4c 5b"]
    deal = evaluate(without, 0, rules)
    assert deal[Lance.PUNTO].winner == max(range(4), key=lambda s: (deal.infos[s].total, -s))
    en, es = (_step1(without, "punto", lang, rules) for lang in LANGS)
    assert "Punto is not played" in en and "the highest total wins" in en
    assert "no se juega al punto" in es and "gana la suma más alta" in es


# ----- step 2: the card that decides, and a tie to the seat nearer mano ----------------------------------------


def test_card_decides_names_the_first_card_that_differs() -> None:
    hands = ["12o 11c 7e 4b", "12c 12e 7o 6e", "1o 5c 6o 10e", "4c 5e 6c 7c"]
    deal = evaluate(hands, 0, Rules(kings=4))
    assert deal[Lance.GRANDE].winner == 1
    en = lance_hints(hands, 0, "grande", Rules(kings=4), lang="en")[1].text
    es = lance_hints(hands, 0, "grande", Rules(kings=4), lang="es")[1].text
    assert "the second card decides, R against C" in en
    assert "decide la segunda carta, R contra C" in es


def test_a_tie_goes_to_the_seat_nearer_mano_in_both_languages() -> None:
    hands = ["4o 5o 6o 7o", "12o 12c 7e 6e", "12e 12b 7c 6c", "4c 5c 6b 7b"]  # seats 1 and 2: the same cards
    for mano, nearer in [(0, 1), (2, 2), (1, 1)]:
        deal = evaluate(hands, mano, Rules(kings=4))
        assert deal[Lance.GRANDE].winner == nearer
        en = lance_hints(hands, mano, "grande", Rules(kings=4), lang="en")[1].text
        es = lance_hints(hands, mano, "grande", Rules(kings=4), lang="es")[1].text
        assert f"seat {nearer} is nearer mano" in en
        assert f"el asiento {nearer} está más cerca de la mano" in es


# ----- the count's diagnosis: the team of the best hand, and a refused bet ---------------------------------------


HANDS = [["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"], ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]]


def test_count_diagnosis_names_the_team_of_the_best_hand() -> None:
    r = count_hand(HANDS, mano=0)
    best = r.deal[Lance.PARES].winner
    assert best == 0 and team_of(best) == "A" and r.stones["pares"]["A"] > 0
    given = {**r.stones, "pares": {"A": 0, "B": 3}}
    en = why_count_wrong(r, given, lang="en")
    es = why_count_wrong(r, given, lang="es")
    assert "but seat 0 of team A holds the best hand" in en
    assert "el asiento 0, de la pareja A" in es


def test_count_diagnosis_after_a_refused_bet_names_who_refused_not_a_wrong_team() -> None:
    # team B bet pares and team A refused: team B scores pares, although seat 0 (team A) has the best pares
    r = count_hand(HANDS, mano=0, betting={"pares": {"type": "rejected", "stakes": [2], "winner_team": "B"}})
    assert r.deal[Lance.PARES].winner == 0 and team_of(0) == "A"
    assert r.stones["pares"]["B"] > 0 and r.stones["pares"]["A"] == 0
    given = {**r.stones, "pares": {"A": 3, "B": 0}}
    en = why_count_wrong(r, given, lang="en")
    es = why_count_wrong(r, given, lang="es")
    assert "seat 0 of team B" not in en  # the old sentence put the best hand in the team that scored
    assert "team A refused team B's bet" in en and "seat 0 holds the best hand" in en
    assert "de la pareja B" not in es.split("aunque")[1]
    assert "la pareja A no ha querido el envite de la pareja B" in es


# ----- one hand: the order of the cards, its jugada ----------------------------------------------------------


@pytest.mark.parametrize("kings", [4, 8])
def test_rank_hint_gives_the_evaluators_order(kings: int) -> None:
    from musteach.teach.hints import rank_hints

    # the order the hint states, highest first, as faces (a 3 with 8 reyes ranks as a king, a 2 as an ace)
    stated = [12, 11, 10, 7, 6, 5, 4, 1] if kings == 8 else [12, 11, 10, 7, 6, 5, 4, 3, 2, 1]
    faces = sorted({effective_rank(r, kings) for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)}, reverse=True)
    assert faces == stated
    en, es = (rank_hints(["1o", "4c"], Rules(kings=kings), lang=lang)[0].text for lang in LANGS)
    if kings == 8:
        assert "then 7 down to 4, then the aces" in en and "a 3 ranks as a king and a 2 as an ace" in en
        assert "del 7 al 4 y después los ases" in es
    else:  # the old hint said "7 down to 4" with 4 reyes too, leaving out the 3 and the 2
        assert "then 7 down to 2, then the aces" in en and "8 reyes" not in en
        assert "del 7 al 2 y después los ases" in es


def test_jugada_hint_names_the_kinds_as_the_evaluator() -> None:
    from musteach.rules.lances import analyse
    from musteach.teach.hints import hand_hints

    four = Rules(kings=4)
    kinds = {h: analyse(Hand.parse(h), four).pares for h in ("12o 12c 7e 4b", "12o 12c 12e 4b", "12o 12c 4e 4b", "5o 5c 5e 5b")}
    assert [p.kind if p else None for p in kinds.values()] == ["par", "medias", "duples", "duples"]
    en, es = (hand_hints("12o 12c 7e 4b", "jugada", four, lang=lang)[0].text for lang in LANGS)
    assert "two of a rank is a par, three medias, two pairs (or four alike) duples" in en
    assert "dos iguales son par, tres son medias, y dos pares (o cuatro iguales) son duples" in es


# ----- the betting: what a refused bet pays now ----------------------------------------------------------------


@pytest.mark.parametrize(("stakes", "pays"), [([2], 1), ([2, 5], 2), ([2, 5, 10, 20], 10)])
def test_refused_bet_hint_says_what_the_deje_is(stakes: list[int], pays: int) -> None:
    from musteach.rules.betting import BettingOutcome, LanceBetting, deje
    from musteach.teach.hints import betting_hints

    assert deje(stakes) == pays  # one stone for a refused first bet, else the bet that stood before
    o = BettingOutcome.from_dict({"type": "rejected", "stakes": stakes, "winner_team": "A"})
    b = LanceBetting.start("grande", mano=0).envido(0, stakes[0])
    for i, s in enumerate(stakes[1:], start=1):
        b = b.reenvido(i % 2, s - stakes[i - 1])
    last = (len(stakes) - 1) % 2  # seat 0 and seat 1 take turns to bet; the other team refuses, both seats
    for seat in (1, 3) if last == 0 else (2, 0):
        b = b.no_quiero(seat)
    assert b.outcome is not None and b.outcome.deje == o.deje == pays
    en, es = (betting_hints(b, lang=lang)[1] for lang in LANGS)
    assert en.total == es.total == pays
    assert "one stone when the refused bet was the first one" in en.text
    assert "the bet that stood before the refused raise" in en.text
    assert "Es una piedra si el envite no querido era el primero" in es.text
