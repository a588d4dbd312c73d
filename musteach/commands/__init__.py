"""Subcommands of the ``musteach`` command line (see :mod:`musteach.cli`), and the input reader they share.

Every subcommand reads its input the same way: :func:`read_input` gets the text of a file or of standard
input, and :func:`read_records` turns a JSON array, one JSON object or JSON Lines into :class:`Records`, the
items with their labels for messages (``"deal 3"``, ``"case 2 (line 4)"``). Bad JSON raises
:class:`~musteach.rules.errors.MusError` naming the line; so does a number of 4,300 digits or more.
"""

from __future__ import annotations

import codecs
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from ..i18n import N_, Text
from ..rules.errors import MusError

__all__ = [
    "KNOWN_REASONS",
    "Records",
    "UTF8_BOM",
    "decode_input",
    "json_decoder",
    "line_label",
    "msgspec_error",
    "read_input",
    "read_input_bytes",
    "read_records",
]

if TYPE_CHECKING:
    import msgspec


@cache
def json_decoder() -> msgspec.json.Decoder[Any]:
    """msgspec's JSON decoder, imported when first needed (``musteach judge`` on a standard file needs none)."""
    import msgspec

    return msgspec.json.Decoder()


def msgspec_error() -> type[Exception]:
    """msgspec's decoding error class, imported when first needed."""
    import msgspec

    return msgspec.MsgspecError


#: The UTF-8 byte-order mark that Windows Notepad writes at the start of a file: :func:`read_input_bytes` drops it.
UTF8_BOM = codecs.BOM_UTF8


def read_input_bytes(path: str) -> bytes:
    """The bytes of ``path``, or of standard input for ``"-"``, without one leading UTF-8 byte-order mark
    (:data:`UTF8_BOM`, as Windows Notepad writes), so that every reader of the input, the byte-level fast paths
    too, sees the same bytes with or without it. A second mark, or one further on, is left in place: the JSON
    reader then names its line. Raises :class:`MusError` naming the file.
    """
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)  # a test's io.StringIO has none
            data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8", "surrogatepass")
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise MusError(Text("cannot read {path}: {why}", path=path, why=reason_text(e.strerror))) from None
    return data[len(UTF8_BOM) :] if data.startswith(UTF8_BOM) else data


def decode_input(data: bytes, path: str) -> str:
    """``data`` read from ``path`` as text; raises :class:`MusError` naming the file, the line and the first
    byte that is not UTF-8 text (binary input too).

    >>> decode_input(b'{"mano": 0}\\n{"mano": \\xff}', "deals.jsonl")
    Traceback (most recent call last):
    ...
    musteach.rules.errors.MusError: cannot read deals.jsonl: line 2 is not UTF-8 text (byte 0xff at column 10)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        byte = f"0x{data[e.start]:02x}"
        if path == "-":
            raise MusError(
                Text(
                    "cannot read standard input: line {line} is not UTF-8 text (byte {byte} at column {column})",
                    line=line, byte=byte, column=column,
                )
            ) from None
        raise MusError(
            Text(
                "cannot read {path}: line {line} is not UTF-8 text (byte {byte} at column {column})",
                path=path, line=line, byte=byte, column=column,
            )
        ) from None


def read_input(path: str) -> str:
    """The text of ``path``, or of standard input for ``"-"``; raises :class:`MusError` naming the file."""
    return decode_input(read_input_bytes(path), path)


# The reasons Python's json module and the operating system give, so that a message quoting one can say it in
# the learner's language (:func:`reason_text`); a reason not listed stays as Python wrote it.
KNOWN_REASONS: tuple[str, ...] = (
    N_("Expecting value"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ',' delimiter"),
    N_("Expecting ':' delimiter"),
    N_("Extra data"),
    N_("Unterminated string starting at"),
    N_("Invalid control character at"),
    N_("Invalid \\escape"),
    N_("Invalid \\uXXXX escape"),
    N_("Unexpected UTF-8 BOM (decode using utf-8-sig)"),
    N_("Illegal trailing comma before end of object"),
    N_("Illegal trailing comma before end of array"),
    N_("No such file or directory"),
    N_("Permission denied"),
    N_("Is a directory"),
    N_("Not a directory"),
    N_("File name too long"),
    N_("Too many levels of symbolic links"),
)


def reason_text(reason: str | None) -> Text | str:
    """Python's own reason (a JSON or file error's), as a :class:`Text` when :data:`KNOWN_REASONS` has it, so
    that it is said in the learner's language; else as Python wrote it."""
    return Text(reason) if reason in KNOWN_REASONS else str(reason)


# The labels of an item, by noun: without and with its line number.
_LABELS: dict[str, tuple[str, str]] = {
    "deal": (N_("deal {number}"), N_("deal {number} (line {line})")),
    "case": (N_("case {number}"), N_("case {number} (line {line})")),
}


def line_label(line: int) -> Text:
    """``"line 4"`` (``"línea 4"`` in Spanish), for a message about a line of the input (see :func:`read_records`)."""
    return Text("line {line}", line=line)


@dataclass(frozen=True, slots=True)
class Records:
    """The items of an input, in order, and how to name each in a message.

    items: the decoded JSON values. lines: for JSON Lines, the line number (from 1) of each item; None for a
    JSON array or a single object. noun: ``"deal"`` or ``"case"``.
    """

    items: list[Any]
    lines: list[int] | None
    noun: str

    def label(self, i: int, always_line: bool = False, lang: str | None = None) -> str:
        """The label of item ``i`` (from 0): ``"deal 3"``, or ``"deal 3 (line 5)"`` when its line differs
        (with ``always_line``, whenever the input was JSON Lines), in ``lang`` (None: the language being
        spoken). :meth:`label_text` gives it as a :class:`~musteach.i18n.Text` for an error message."""
        return self.label_text(i, always_line).render(lang)

    def label_text(self, i: int, always_line: bool = False) -> Text:
        """:meth:`label` as a :class:`~musteach.i18n.Text`: ``raise MusError(Text("{label}: {reason}", ...))``."""
        k = i + 1
        short, long = _LABELS.get(self.noun, ("{noun} {number}", "{noun} {number} (line {line})"))
        if self.lines is None or (self.lines[i] == k and not always_line):
            return Text(short, noun=self.noun, number=k)
        return Text(long, noun=self.noun, number=k, line=self.lines[i])


def _loads(text: str) -> Any:
    """One JSON value: msgspec, or the json module (its messages, and NaN or 1e400, which msgspec refuses).
    Raises ValueError (json.JSONDecodeError for bad JSON, ValueError for 4,300 digits or more)."""
    try:
        return json_decoder().decode(text)
    except msgspec_error():
        return json.loads(text)


def _decode_error(label: Text | str | None, e: ValueError) -> MusError:
    """The error of an input that is not JSON: for the whole input (label None, the line and column named),
    or for the item or line ``label`` (the column named)."""
    if isinstance(e, json.JSONDecodeError):
        if label is None:
            return MusError(
                Text("invalid JSON at line {line}, column {column}: {why}", line=e.lineno, column=e.colno, why=reason_text(e.msg))
            )
        return MusError(
            Text("{label}: invalid JSON at column {column}: {why}", label=label, column=e.colno, why=reason_text(e.msg))
        )
    # int() refuses 4,300 digits or more (Python's limit on integer string conversion)
    if label is None:
        return MusError(Text("a number with 4,300 digits or more: not a seat, stake, score or card"))
    return MusError(Text("{label}: a number with 4,300 digits or more: not a seat, stake, score or card", label=label))


def read_records(
    text: str, noun: str, line_prefix: Callable[[int, str], Text | str] | None = None
) -> Records:
    """The items of a JSON array, one JSON object, or JSON Lines (one item a line, blank lines skipped).

    noun: ``"deal"`` or ``"case"``, for labels. line_prefix(line_number, label): what a message about a bad
    JSON line names, such as :func:`line_label` (a :class:`~musteach.i18n.Text`; default the item's label; a
    plain string ending in ``": "`` is read as the label and that ending).
    Returns :class:`Records` with no items for empty or blank text and for ``[]``: each command says "no …".
    Raises :class:`MusError` naming the line and column of invalid JSON, or the item holding a number of 4,300
    digits or more.

    >>> r = read_records('{"mano": 0}\\n\\n{"mano": 1}\\n', "deal")
    >>> r.items, [r.label(i) for i in range(2)]
    ([{'mano': 0}, {'mano': 1}], ['deal 1', 'deal 2 (line 3)'])
    """
    stripped = text.strip()
    if not stripped:
        return Records([], None, noun)
    if stripped[0] == "[":
        try:
            data = _loads(stripped)
        except ValueError as e:
            raise _decode_error(None, e) from None
        return Records(data if isinstance(data, list) else [data], None, noun)
    try:
        return Records([_loads(stripped)], None, noun)
    except ValueError:
        pass
    # JSON Lines end at "\n" alone (a "\r" before it is white space): str.splitlines() would also end a line at
    # characters that JSON strings may hold as they are (U+0085, U+2028, U+2029)
    lines = text.split("\n")
    numbers = [n for n, line in enumerate(lines, 1) if line and not line.isspace()]
    kept = lines if len(numbers) == len(lines) else [lines[n - 1] for n in numbers]
    try:
        decode = json_decoder().decode
        items: list[Any] | None = [decode(line) for line in kept]
    except msgspec_error():
        items = None
    if items is None:  # find the bad line and say what is wrong with it
        items = []
        for i, line in enumerate(kept):
            try:
                items.append(_loads(line))
            except ValueError as e:
                records = Records([], numbers, noun)
                where: Text | str = records.label_text(i)
                if line_prefix is not None:
                    where = line_prefix(numbers[i], records.label(i))
                    if isinstance(where, str) and where.endswith(": "):
                        where = where[:-2]
                raise _decode_error(where, e) from None
    return Records(items, numbers, noun)
