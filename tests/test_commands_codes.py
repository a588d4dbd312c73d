"""The card codes that judge, count and grade read straight from bytes (musteach.commands.codes)."""

from __future__ import annotations

import itertools
import json

import numpy as np

from musteach.commands.codes import NO_CARD, READ_PAST, TEXT_WIDTH, TextCodes, card_code_table, walk_codes
from musteach.rules.batch import array_to_codes, random_deals
from musteach.rules.cards import CARD_TEXTS, DECK


def code_of(text: str) -> int:
    raw = text.encode()
    return raw[0] | raw[1] << 8 if len(raw) == 2 else (raw[1] | raw[2] << 8) + (1 << 16)


def test_the_table_knows_every_short_card_text_and_nothing_else() -> None:
    table = card_code_table()
    short = {t: c.index for t, c in CARD_TEXTS.items() if len(t) == 2 or (len(t) == 3 and t[0] == "1")}
    assert {code_of(t) for t in short} == set(np.flatnonzero(table != NO_CARD).tolist())
    assert all(table[code_of(t)] == index for t, index in short.items())
    assert {card.index for card in DECK} == set(short.values())


def test_walk_reads_the_codes_json_writes() -> None:
    hands = random_deals(500, seed=11)
    texts = [json.dumps(h).encode() for h in array_to_codes(hands)]  # [["12o", "3c", ...], [...], ...]
    data = b"".join(texts)
    ends = np.cumsum([len(t) for t in texts])
    starts = ends - [len(t) for t in texts]
    at = tuple(3 + 6 * k + 2 * (k // 4) for k in range(16))
    gaps = tuple(b - a for a, b in itertools.pairwise(at))
    got = walk_codes(np.frombuffer(data + bytes(READ_PAST), np.uint8), starts + at[0], gaps)
    assert got is not None
    cards, closing = got
    assert (cards.T == hands.reshape(-1, 16)).all()
    assert (closing + len(b'"]]') == ends).all()
    bad = data.replace(b'"3c"', b'"3x"', 1)
    if bad != data:
        assert walk_codes(np.frombuffer(bad + bytes(READ_PAST), np.uint8), starts + at[0], gaps) is None


def test_text_codes_read_each_distinct_text_once_and_never_mistake_one_for_another() -> None:
    rng = np.random.default_rng(3)
    # many short texts alike but for a byte or two (as start scores and bettings are), some of them repeated
    pool = [f'{{"A": {a}, "B": {b}}}'.encode() for a in range(40) for b in range(40)]
    pool += [f'"grande": {{"type": "rejected", "stakes": [{a}, {b}], "winner_team": "A"}}'.encode() for a in range(30) for b in range(30)]
    pool += [b"x" * 96, b"y" * 97, b""]  # the widest text read, one too wide, an empty one
    read: list[bytes] = []
    codes = TextCodes(lambda text: read.append(text) or len(read))
    seen: dict[bytes, int] = {}
    for _ in range(3):  # the codes are kept from call to call
        texts = [pool[i] for i in rng.integers(0, len(pool), 4000)]
        data = b"".join(texts)
        lengths = np.array([len(t) for t in texts])
        got = codes.codes(np.frombuffer(data + bytes(TEXT_WIDTH), np.uint8), np.cumsum(lengths) - lengths, lengths)
        for text, code in zip(texts, got.tolist(), strict=True):
            if len(text) > TEXT_WIDTH:
                assert code == -1
            else:
                assert code == seen.setdefault(text, code) and read[code - 1] == text
    assert len(read) == len(set(read))  # each text read once
