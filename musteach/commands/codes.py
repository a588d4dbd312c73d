"""Card codes read straight from the bytes of JSON input: the bulk paths of ``judge``, ``count`` and ``grade``.

Input written as ``json.dumps`` writes it, with card codes (``"12o"``, ``"3c"``), is read without decoding the
JSON: a table gives the card of every 2- and 3-byte code, and :func:`walk_codes` finds the 16 codes of many
deals at once, card by card, from where each deal's first code starts. Every caller first checks the bytes
between the codes (the skeleton), so that a code's bytes and places are all that is left to check here.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..lazy import lazy_module
from ..rules.cards import CARD_TEXTS

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_module("numpy")

__all__ = ["CODE_BYTES", "NO_CARD", "READ_PAST", "card_code_table", "card_key_table", "code_key", "walk_codes"]

#: Every byte a card code is made of (and a mano digit): deleting them from standard input leaves its skeleton.
CODE_BYTES = b"0123456789oceb"
#: The card index of what is not a card code.
NO_CARD = 255
#: Bytes a walk may read past the end of the text it walks (a text with empty or short codes puts the guessed
#: places of later codes up to 3 bytes a card too far): give :func:`walk_codes` that many zero bytes after it.
READ_PAST = 64

_THREE = 1 << 16  # where the 3-byte codes start in the table


@cache
def card_code_table() -> np.ndarray:
    """(131072,) uint8: the card index of a 2-byte code ``a b`` at ``a | b << 8``, and of a 3-byte code
    ``1 b c`` at ``(b | c << 8) + 65536``; :data:`NO_CARD` everywhere else. Letter codes (``"Ro"``) count too."""
    table = np.full(2 * _THREE, NO_CARD, np.uint8)
    for text, card in CARD_TEXTS.items():
        raw = text.encode("ascii", "replace")
        if len(raw) == 2:
            table[raw[0] | raw[1] << 8] = card.index
        elif len(raw) == 3 and raw[0] == ord("1"):
            table[(raw[1] | raw[2] << 8) + _THREE] = card.index
    return table


def walk_codes(u8: np.ndarray, first: np.ndarray, gaps: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray] | None:
    """``(cards, after)`` of c deals whose 16 quoted card codes lie in the bytes ``u8``: cards (16, c) uint8,
    card by card; after (c,) int64, the place of the quote closing each deal's last code. None when some code
    is not a card code (2 bytes, or 3 starting with "1", then the closing quote).

    first: (c,) the place of each deal's first code (after its opening quote); gaps: the 15 distances from one
    code's start to the next when the first has 2 bytes (a 3-byte code moves the next ones by one). ``u8``
    must hold :data:`READ_PAST` bytes after the last deal's text. The caller checks the rest of the text.
    """
    c = len(first)
    at = np.empty((16, c), np.int64)  # where each deal's k-th code starts
    three = np.empty((16, c), np.int64)  # 1 for a 3-byte code, else 0
    at[0] = first
    quote = ord('"')
    for k in range(16):
        np.not_equal(u8[at[k] + 2], quote, out=three[k], casting="unsafe")  # a 2-byte code's third byte is '"'
        if k < 15:
            np.add(at[k], three[k], out=at[k + 1])
            at[k + 1] += gaps[k]
    u16 = np.ndarray((len(u8) - 1,), "<u2", u8, 0, (1,))  # the two bytes at every place
    cards: np.ndarray = card_code_table()[u16[at + three] + (three << 16)]  # the last two bytes of a 3-byte code
    longer = at[three == 1]
    if (cards == NO_CARD).any() or (u8[longer] != ord("1")).any() or (u8[longer + 3] != quote).any():
        return None
    return cards, at[15] + three[15] + 2


def code_key(raw: bytes) -> int:
    """The key of a quoted card code in :func:`card_key_table`: the code's first three bytes as a little-endian
    number (a 2-byte code's third byte is its closing quote).

    >>> code_key(b'12o') == int.from_bytes(b'12o', 'little'), code_key(b'3c') == int.from_bytes(b'3c"', 'little')
    (True, True)
    """
    return int.from_bytes(raw + b'"' if len(raw) == 2 else raw, "little")


@cache
def card_key_table() -> np.ndarray:
    """(16777216,) uint8: for the three bytes at a card code's start, read as :func:`code_key` reads them, the
    card index plus one, plus 64 for a 3-byte code; 0 for bytes that do not start a quoted card code (the
    closing quote of a 3-byte code is not part of the key: the caller checks it). Letter codes count too.

    The table is 16 MB of zero pages but for the few that hold codes: reading it touches about 100 cache lines.
    """
    table = np.zeros(1 << 24, np.uint8)  # calloc'd: untouched pages stay shared zero pages
    for text, card in CARD_TEXTS.items():
        raw = text.encode("ascii", "replace")
        if len(raw) == 2 or (len(raw) == 3 and raw[0] == ord("1")):
            table[code_key(raw)] = card.index + 1 + (64 if len(raw) == 3 else 0)
    return table
