"""The fast path of ``musteach judge`` (issue 16): input in the standard shape is read as bytes with numpy, and
anything else falls back to the exact per-deal path. Whatever bytes it accepts must read exactly as JSON reads
them; a file one byte away from the standard shape is either read the same or left to the exact path."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musteach.commands import read_records
from musteach.commands.judge import judge_records, standard_deals
from musteach.rules.batch import array_to_codes, random_deals
from musteach.rules.errors import MusError


def standard_file(n: int, seed: int) -> bytes:
    hands = random_deals(n, seed=seed)
    manos = np.random.default_rng(seed).integers(0, 4, n).tolist()
    lines = [json.dumps({"hands": h, "mano": m}) for h, m in zip(array_to_codes(hands), manos, strict=True)]
    return ("\n".join(lines) + "\n").encode()


def exact(data: bytes) -> tuple[list[list[int]], list[int]] | None:
    """The cards and manos the exact path reads, or None when it refuses the input."""
    try:
        _, hands, manos, _ = judge_records(read_records(data.decode("utf-8"), "deal"))
    except (ValueError, UnicodeDecodeError):
        return None
    return hands.reshape(len(hands), 16).tolist(), manos.tolist()


def test_standard_file_is_read_fast_and_as_json_reads_it() -> None:
    data = standard_file(3000, seed=5)  # several steps of the reader
    got = standard_deals(data)
    assert got is not None
    assert (got[0].tolist(), got[1].tolist()) == exact(data)
    without_newline = standard_deals(data[:-1])
    assert without_newline is not None and (without_newline[0] == got[0]).all()


def test_other_shapes_fall_back() -> None:
    data = standard_file(3, seed=1)
    assert standard_deals(data.replace(b", ", b",")) is None  # compact JSON
    assert standard_deals(data.replace(b"\n", b"\r\n")) is None
    assert standard_deals(data + b"\n") is None  # a blank line
    last = data.rindex(b'"mano": ') + len(b'"mano": ')
    assert standard_deals(data[:last] + b"4}\n") is None
    assert standard_deals(data[:last] + b"-1}\n") is None
    first_card = data.index(b'"', 12) + 1  # after the first card's closing quote
    assert standard_deals(b'{"hands": [["as de oros' + data[first_card - 1 :]) is None
    assert standard_deals(b"[" + data.replace(b"}\n{", b"}, {").rstrip() + b"]") is None


@settings(max_examples=400, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(0, 10**6),
    st.data(),
)
def test_one_byte_changed_is_read_exactly_or_left_to_the_exact_path(n: int, seed: int, data: st.DataObject) -> None:
    raw = bytearray(standard_file(n, seed))
    at = data.draw(st.integers(0, len(raw) - 1))
    how = data.draw(st.sampled_from(["replace", "insert", "delete"]))
    byte = data.draw(st.sampled_from([*b'"{}[],: \n\\0123456789abcosSRCAe', 0xC3]))
    if how == "replace":
        raw[at] = byte
    elif how == "insert":
        raw.insert(at, byte)
    else:
        del raw[at]
    got = standard_deals(bytes(raw))
    if got is not None:  # read as JSON reads it; a card dealt twice is left to evaluate_batch's check
        repeated = any(len(set(row)) < 16 for row in got[0].tolist())
        assert repeated or (got[0].tolist(), got[1].tolist()) == exact(bytes(raw))


def test_empty_or_short_codes_fall_back_without_reading_past_the_input() -> None:
    data = standard_file(2, seed=3)
    codes = [b'"' + code + b'"' for code in (b"12o", b"3c", b"1o")]
    for code in codes:
        for short in (b'""', b'"1"', b'"o"', b'"1234o"'):
            last = data.rindex(code) if code in data else -1
            if last < 0:
                continue
            changed = data[:last] + short + data[last + len(code) :]
            assert standard_deals(changed) is None
            assert standard_deals(changed.rstrip(b"\n")) is None
    skeleton_only = b'{"hands": [["", "", "", ""], ["", "", "", ""], ["", "", "", ""], ["", "", "", ""]], "mano": 2}\n'
    assert standard_deals(skeleton_only) is None


def test_many_deals_are_judged_in_two_halves_as_in_one() -> None:
    from musteach.commands.judge import judge_input
    from musteach.rules.batch import evaluate_batch

    n = 70_000  # over the two-thread threshold
    data = standard_file(n, seed=9)
    winners, hands, manos, _ = judge_input(data, "deals.jsonl")
    got = evaluate_batch(hands, manos)
    assert (winners == np.stack([got[k] for k in ("grande", "chica", "pares", "juego", "punto")], axis=1)).all()
    lines = data.split(b"\n")
    repeated = lines[n - 2]  # made to deal its first card twice: late in the second half
    first = repeated.index(b'[["') + 3
    code = repeated[first : repeated.index(b'"', first)]
    second = repeated.index(b'"', repeated.index(b'"', first) + 1) + 1
    lines[n - 2] = repeated[:second] + code + repeated[repeated.index(b'"', second) :]
    try:
        judge_input(b"\n".join(lines), "deals.jsonl")
    except ValueError as e:
        assert str(e).startswith(f"deal {n - 1}: ")
    else:
        raise AssertionError("a card dealt twice was not named")


def test_a_mapped_file_is_read_as_its_bytes(tmp_path: Path) -> None:
    from musteach.commands.judge import judge_input, mapped_input

    data = standard_file(50, seed=4)
    path = tmp_path / "deals.jsonl"
    for text in (data, data[:-1], data.replace(b", ", b",")):  # the fast path, no last newline, the exact path
        path.write_bytes(text)
        mapped = mapped_input(str(path))
        assert not isinstance(mapped, bytes)  # a regular file is mapped, not read
        assert [a.tolist() for a in judge_input(mapped, str(path))] == [a.tolist() for a in judge_input(text, "x")]
    path.write_bytes(b"")
    assert mapped_input(str(path)) == b""  # nothing to map: read
    with pytest.raises(MusError, match="cannot read"):
        mapped_input(str(tmp_path / "missing.jsonl"))
    with pytest.raises(MusError, match="cannot read"):
        mapped_input(str(tmp_path))  # a folder


def test_the_command_line_collects_garbage_again_after_a_command(tmp_path: Path) -> None:
    import gc

    from musteach.cli import main

    path = tmp_path / "deals.jsonl"
    path.write_bytes(standard_file(3, seed=2))
    assert gc.isenabled()
    assert main(["judge", str(path)]) == 0
    assert gc.isenabled()
    assert main(["judge", str(tmp_path / "missing.jsonl")]) == 2
    assert gc.isenabled()
