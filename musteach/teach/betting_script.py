"""Betting as a lesson writes it: ``"0 envido, 1 3 más, 0 no quiero"`` or ``[(0, "envido"), (1, "quiero")]``,
read into ``(seat, action)`` pairs and played from a lance's start with every rule checked (RULES.md §4, §6).

>>> read_betting_script(Lance.GRANDE, "0 envido, seat 1: quiero")
[(0, 'envido'), (1, 'quiero')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..i18n import Text
from ..rules.betting import Action, BettingOutcome, LanceBetting, start_betting
from ..rules.count import CountResult
from ..rules.errors import IllegalActionError
from ..rules.lances import DealResult, Lance
from ..rules.options import Rules

__all__ = ["lance_that_ended_game", "play_betting_script", "read_betting_script"]

_ITEM = re.compile(r"(?:seat\s*)?(\d)\s*:?\s+(.+)", flags=re.IGNORECASE)


def read_betting_script(lance: Lance, given: str | Sequence[Any]) -> list[tuple[int, Action | str]]:
    """``(seat, action)`` pairs from ``"0 envido, 1 3 más, 0 no quiero"`` (items split on ``,`` or ``;``,
    each ``seat action``, ``seat: action`` or ``seat N action``) or from a sequence of pairs (kept as given;
    the betting checks seats and actions when it plays them).

    Raises :class:`~musteach.rules.errors.IllegalActionError` naming the lance, the item's number and the
    bad item.
    """
    if isinstance(given, str):
        pairs: list[tuple[int, Action | str]] = []
        for i, item in enumerate(re.split(r"[,;]", given), 1):
            item = item.strip()
            if not item:
                continue
            m = _ITEM.fullmatch(item)
            if not m:
                raise IllegalActionError(
                    Text(
                        "{lance} betting, action {i}: write each action as 'seat action', e.g. '0 envido', not {item}",
                        lance=lance.title, i=i, item=repr(item),
                    )
                )  # fmt: skip
            pairs.append((int(m.group(1)), m.group(2)))
        return pairs
    out = []
    for i, pair in enumerate(given, 1):
        if isinstance(pair, str) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise IllegalActionError(
                Text(
                    "{lance} betting, action {i}: expected a (seat, action) pair, not {pair}",
                    lance=lance.title, i=i, pair=repr(pair),
                )
            )  # fmt: skip
        out.append((pair[0], pair[1]))
    return out


def play_betting_script(
    deal: DealResult, lance: Lance, given: object, rules: Rules
) -> LanceBetting | BettingOutcome | Mapping[str, Any]:
    """A lance's betting from a script (:func:`read_betting_script`), played from the start and checked, or
    an outcome given as it is (a :class:`~musteach.rules.betting.LanceBetting`,
    :class:`~musteach.rules.betting.BettingOutcome` or its dict, checked by the count).

    Raises :class:`~musteach.rules.errors.IllegalActionError` naming the lance: an illegal action, or a
    betting that is not over (RULES.md §6).
    """
    if isinstance(given, LanceBetting | BettingOutcome | Mapping):
        return given
    if not isinstance(given, str | Sequence):
        raise IllegalActionError(
            Text("{lance} betting: expected text or (seat, action) pairs, not {given}", lance=lance.title, given=repr(given))
        )
    state = start_betting(deal, lance, rules)
    try:
        state = state.play(read_betting_script(lance, given))
    except IllegalActionError as e:
        why: Text | str = e.text if e.text is not None else str(e)  # the error's own words, in the same language
        raise IllegalActionError(Text("{lance} betting: {error}", lance=lance.title, error=why)) from None
    if not state.closed:
        raise IllegalActionError(
            Text(
                "{lance} betting is not over: seat {seat} must still speak (RULES.md §6)",
                lance=lance.title, seat=state.next_seat,
            )
        )  # fmt: skip
    return state


def lance_that_ended_game(result: CountResult) -> Lance | None:
    """The lance whose betting ended the game (a deje reaching the target, or an accepted órdago), so that
    the lances after it were never played; None when the game was not ended in the betting (RULES.md §6, §8)."""
    end = result.ended_at
    return end.lance if end is not None and end.phase in ("betting", "ordago") else None
