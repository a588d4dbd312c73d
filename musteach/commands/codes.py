"""Card codes read straight from the bytes of JSON input: the bulk paths of ``judge``, ``count`` and ``grade``.

Input written as ``json.dumps`` writes it, with card codes (``"12o"``, ``"3c"``), is read without decoding the
JSON. Two tables give the card of a code from its bytes:
- :func:`card_code_table` (a code's last two bytes), for :func:`walk_codes`, which finds the 16 codes of many
  deals at once, card by card, from where each deal's first code starts; its callers (``grade``, ``count``)
  check the bytes between the codes (the skeleton) themselves;
- :func:`card_key_table` (a code's first three bytes, its length too), for ``judge``'s reader, which checks the
  bytes between the codes as it reads them.
:class:`TextCodes` gives short texts (a start score, one lance's betting) integer codes, each read once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from ..lazy import lazy_module
from ..rules.cards import CARD_TEXTS

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_module("numpy")

__all__ = [
    "CODE_BYTES",
    "NO_CARD",
    "READ_PAST",
    "TEXT_WIDTH",
    "TextCodes",
    "card_code_table",
    "card_key_table",
    "code_key",
    "walk_code_places",
    "walk_codes",
]

#: Every byte a card code is made of (and a mano digit): deleting them from the input leaves its skeleton.
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
    got = walk_code_places(u8, first, gaps)
    if got is None:
        return None
    cards, at, three = got
    return cards, at[15] + three[15] + 2


def walk_code_places(
    u8: np.ndarray, first: np.ndarray, gaps: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`walk_codes` with the places of the codes: ``(cards, at, three)``, each (16, c): the card indexes,
    where each code starts, and 1 for a 3-byte code (else 0). None when some code is not a card code."""
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
    return cards, at, three


#: The widest text a :class:`TextCodes` reads (a multiple of 8 bytes).
TEXT_WIDTH = 96
_WORDS = TEXT_WIDTH // 8


class TextCodes:
    """The integer codes of many short texts (a start score, one lance's betting), read from byte ranges at once;
    each distinct text is read once, by ``read`` (``bytes -> int``), and its code kept for later calls.

    Each range is read as a row of 8-byte words, zeros after its end; rows are looked up by a hash of their words
    among the texts already read, and every row is compared with the text found, so that two different texts are
    never taken for one.

    >>> codes = TextCodes(len)
    >>> u8 = np.frombuffer(b"paso accepted paso" + bytes(TEXT_WIDTH), np.uint8)
    >>> codes.codes(u8, np.array([0, 5, 14]), np.array([4, 8, 4])).tolist()
    [4, 8, 4]
    """

    def __init__(self, read: Callable[[bytes], int]) -> None:
        self.read = read
        self.hashes = np.zeros(0, np.uint64)  # of the texts read, in increasing order
        self.words = np.zeros((0, _WORDS), np.uint64)  # their words, in the same order
        self.sizes = np.zeros(0, np.int64)
        self.known = np.zeros(0, np.int64)  # their codes

    def codes(self, u8: np.ndarray, starts: np.ndarray, lengths: np.ndarray, unread: int = -1) -> np.ndarray:
        """(m,) int64: the code of the text of each range ``u8[starts[i] : starts[i] + lengths[i]]``, or ``unread``
        for a range wider than :data:`TEXT_WIDTH` bytes (or of a negative length), or (never seen) a text whose
        hash is another's. ``u8`` must hold :data:`TEXT_WIDTH` bytes after the last range."""
        fits = (lengths >= 0) & (lengths <= TEXT_WIDTH)
        at = np.where(fits, starts, 0)
        size = np.where(fits, lengths, 0)
        width = max(1, -(-int(size.max(initial=0)) // 8))  # words a row: as many as the widest range needs
        u64 = np.ndarray((len(u8) - 7,), "<u8", u8, 0, (1,))  # the eight bytes at every place
        rows = np.lib.stride_tricks.as_strided(u64, (len(u8) - TEXT_WIDTH, width), (1, 8), writeable=False)
        words = rows[at]  # (m, width): a copy
        words &= _masks()[size, :width]
        hashes = _hashes(words, size)
        place = np.minimum(np.searchsorted(self.hashes, hashes), max(len(self.hashes) - 1, 0))
        new = ~(self.hashes[place] == hashes) if len(self.hashes) else np.ones(len(hashes), bool)
        if new.any():
            self._learn(u8, at[new], size[new], hashes[new], words[new])
            place = np.searchsorted(self.hashes, hashes)
        same = (self.hashes[place] == hashes) & (self.sizes[place] == size)
        same &= (self.words[place, :width] == words).all(axis=1) & fits
        return np.where(same, self.known[place], unread)

    def _learn(self, u8: np.ndarray, at: np.ndarray, size: np.ndarray, hashes: np.ndarray, words: np.ndarray) -> None:
        """Read the texts of new hashes (the first range of each; ``words`` as in :meth:`codes`) and keep them
        in order."""
        _, first = np.unique(hashes, return_index=True)
        texts = [u8[a : a + n].tobytes() for a, n in zip(at[first].tolist(), size[first].tolist(), strict=True)]
        rows = np.zeros((len(first), _WORDS), np.uint64)
        rows[:, : words.shape[1]] = words[first]
        order = np.argsort(np.concatenate([self.hashes, hashes[first]]), kind="stable")
        self.hashes = np.concatenate([self.hashes, hashes[first]])[order]
        self.words = np.concatenate([self.words, rows])[order]
        self.sizes = np.concatenate([self.sizes, size[first]])[order]
        self.known = np.concatenate([self.known, np.fromiter(map(self.read, texts), np.int64, len(texts))])[order]


@cache
def _masks() -> np.ndarray:
    """(TEXT_WIDTH + 1, TEXT_WIDTH / 8) uint64: for a text of n bytes, the bits of each word that it fills."""
    kept = np.clip(np.arange(TEXT_WIDTH + 1)[:, None] - np.arange(0, TEXT_WIDTH, 8), 0, 8).astype(np.uint64)
    return np.where(kept == 8, np.uint64(2**64 - 1), (np.uint64(1) << (kept << np.uint64(3))) - np.uint64(1))


def _hashes(words: np.ndarray, size: np.ndarray) -> np.ndarray:
    """(m,) uint64: a hash of each row of words (m, w) and its text's size in bytes: each word salted by its
    place and mixed (the finalizer of splitmix64), then summed."""
    x = words ^ _salts()[: words.shape[1]]
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    hashes: np.ndarray = x.sum(axis=1, dtype=np.uint64) ^ size.astype(np.uint64)
    return hashes


@cache
def _salts() -> np.ndarray:
    """(TEXT_WIDTH / 8,) uint64: a salt for each place of a word in a text."""
    return np.arange(1, _WORDS + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)


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
