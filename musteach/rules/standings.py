"""Every hand's standing in every lance, as the batched evaluator reads it (RULES.md §1, §2, §4, §5, §13).

An ordered hand is one of 10**4 tuples of rank positions (``index >> 2`` of its four cards, in card order).
For each lance, :func:`standing_keys` gives every such tuple its rank among the lance's distinct keys (the
order of :meth:`HandInfo.key <musteach.rules.lances.HandInfo.key>`), times 4; 0 for a hand that takes no part.
Only three switches change a hand's standing: ``kings``, ``la_real`` and ``la_real_figure``. The keys of all
8 such rule sets are shipped in ``musteach/rules/data`` (``python -m musteach.rules.standings`` writes them; a
test checks each against :func:`count_standing_keys`), so that ``musteach judge`` does not work them out at
every start.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..lazy import lazy_module
from .cards import RANKS
from .lances import LANCES, HandInfo, Lance, info_from_ranks, la_real_by_ranks
from .options import LaRealFigure, Rules

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_module("numpy")

__all__ = ["DATA", "count_standing_keys", "shipped_path", "standing_keys", "standing_rules", "write_standing_keys"]

#: The folder of the shipped keys.
DATA = Path(__file__).with_name("data")


def standing_rules() -> list[Rules]:
    """The 8 rule sets that differ in some hand's standing: 8 or 4 reyes, without la real or with each figure."""
    figures: tuple[tuple[bool, LaRealFigure], ...] = ((False, "sota"), (True, "sota"), (True, "any"), (True, "sota_de_oros"))
    return [Rules(kings=kings, la_real=la_real, la_real_figure=figure) for kings in (8, 4) for la_real, figure in figures]


def shipped_path(rules: Rules) -> Path:
    """The file of ``rules``' shipped keys (it exists for every rule set of :func:`standing_rules`)."""
    real = f"-la-real-{rules.la_real_figure.replace('_', '-')}" if rules.la_real else ""
    return DATA / f"standings-{rules.kings}reyes{real}.npy"


def count_standing_keys(rules: Rules) -> np.ndarray:
    """(6, 10000) int16: rows 0..4 the keys of grande, chica, pares, juego and punto of every rank tuple (see
    the module docstring); row 5 holds, at [5, 0], the juego key of la real when only the sota de oros makes
    it (its cards, not its ranks, decide), else 0. Worked out from :class:`~musteach.rules.lances.HandInfo`."""
    # A hand's standing depends on its sorted ranks: the keys are worked out once per sorted rank tuple (at
    # most 715), then spread over the 10,000 rank tuples in card order.
    positions = np.indices((10, 10, 10, 10), dtype=np.int8).reshape(4, -1).T  # (10000, 4) rank positions
    sorted_ids = np.sort(positions, axis=1).astype(np.int32) @ np.array([1000, 100, 10, 1], dtype=np.int32)
    _, first_hid, spread = np.unique(sorted_ids, return_index=True, return_inverse=True)
    infos: list[HandInfo] = []
    for pos in positions[first_hid].tolist():
        raw = tuple(RANKS[p] for p in pos)
        info = info_from_ranks(raw, rules.kings)
        if la_real_by_ranks(raw, rules.kings, rules.la_real_figure if rules.la_real else None):
            info = HandInfo(info.ranks, info.pares, info.total, True)
        infos.append(info)
    out = np.zeros((6, 10000), np.int16)
    for row, lance in enumerate(LANCES):
        raw_keys = [i.key(lance) for i in infos]
        distinct = sorted({k for k in raw_keys if k != ()})
        if lance is Lance.JUEGO and rules.la_real and rules.la_real_figure == "sota_de_oros":
            distinct.append(HandInfo((7, 7, 7, 10), None, 31, True).key(lance))
            out[5, 0] = len(distinct) * 4
        dense = {k: i + 1 for i, k in enumerate(distinct)}
        out[row] = np.array([dense.get(k, 0) * 4 for k in raw_keys], dtype=np.int16)[spread.reshape(-1)]
    return out


def standing_keys(rules: Rules) -> np.ndarray:
    """:func:`count_standing_keys` of ``rules``, read from the shipped file when there is one."""
    key = Rules(kings=rules.kings, la_real=rules.la_real, la_real_figure=rules.la_real_figure)
    path = shipped_path(key)
    if path.exists():
        shipped: np.ndarray = np.load(path)
        return shipped
    return count_standing_keys(rules)


def write_standing_keys(folder: Path = DATA) -> list[Path]:
    """Write the keys of every rule set of :func:`standing_rules` into ``folder``; returns the files."""
    written = []
    for rules in standing_rules():
        path = folder / shipped_path(rules).name
        np.save(path, count_standing_keys(rules), allow_pickle=False)
        written.append(path)
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Write the shipped standing keys (musteach/rules/data).")
    parser.parse_args()
    for written in write_standing_keys():
        print(written)
