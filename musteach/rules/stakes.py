"""Stakes, teams and stones: the numbers of the betting (RULES.md §0 teams, §6 stakes and the deje, §7 stones).

A bet total is a whole number of stones or :data:`ORDAGO`; a lance's bets form a chain of totals, each raise
at least 2 more (:func:`check_stakes`). The team whose last bet is refused takes the :func:`deje`.

>>> chain_text(check_stakes([2, 5, "órdago"])), deje([2, 5, 10])
('2 → 5 → órdago', 5)
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Literal, TypeGuard

from ..i18n import N_, Text, translator
from .errors import BettingError

__all__ = [
    "ORDAGO",
    "TEAMS",
    "Stake",
    "Team",
    "as_team",
    "chain_text",
    "check_stakes",
    "deje",
    "fold_text",
    "is_whole",
    "other_team",
    "stake_chain",
    "stake_text",
    "stones_text",
]

#: The stake that stands for the whole game (RULES.md §6).
ORDAGO: Final = "ordago"


class Team(enum.StrEnum):
    """A team: A = seats 0 and 2, B = seats 1 and 3 (RULES.md §0). A ``str``: ``Team.A == "A"``, it hashes, formats
    and serialises as ``"A"``, and its repr is ``'A'``, so scores keyed by team read as they always did.

    >>> Team.A == "A", f"team {Team.B}", {Team.A: 1}, Team.A.other
    (True, 'team B', {'A': 1}, 'B')
    """

    A = "A"
    B = "B"

    def __repr__(self) -> str:
        return repr(self.value)

    @property
    def other(self) -> Team:
        """The opposing team."""
        return Team.B if self is Team.A else Team.A


#: The two teams: A = seats 0 and 2, B = seats 1 and 3 (RULES.md §0). Its members are :class:`Team` values; it is
#: typed as strings so that the scores built from it (``{t: 0 for t in TEAMS}``) stay ``dict[str, int]``.
TEAMS: tuple[str, str] = (Team.A, Team.B)

#: A bet total: a whole number of stones, or :data:`ORDAGO` (the whole game).
Stake = int | Literal["ordago"]


def other_team(team: str) -> Team:
    """The opposing team: ``other_team("A") == "B"``. Raises :class:`BettingError` for a name not A/B."""
    return as_team(team).other


def as_team(team: object) -> Team:
    """``team`` as a :class:`Team` (``"A"`` or ``"B"``). Raises :class:`BettingError` for anything else."""
    if not isinstance(team, str) or team not in TEAMS:
        raise BettingError(Text("a team is 'A' (seats 0, 2) or 'B' (seats 1, 3), not {team} (RULES.md §0)", team=repr(team)))
    return Team(team)


def fold_text(text: str) -> str:
    """``text`` as a player may type it, compared loosely: lower case, no accents, single spaces."""
    t = unicodedata.normalize("NFKD", str(text).strip().lower())
    return " ".join("".join(ch for ch in t if not unicodedata.combining(ch)).split())


def is_whole(v: object) -> TypeGuard[int]:
    """True for a whole number (an ``int`` that is not a ``bool``)."""
    return isinstance(v, int) and not isinstance(v, bool)


def stake_text(s: Stake) -> str:
    """A stake as a player says it: ``"5"`` or ``"órdago"`` (RULES.md §6)."""
    return "órdago" if s == ORDAGO else str(s)


def stones_text(n: int, lang: str | None = None) -> str:
    """A number of stones (piedras) in words: ``"1 stone"``, ``"5 stones"`` (RULES.md §7).

    lang: the language (None: the one being spoken, see :func:`musteach.i18n.speaking`).

    >>> stones_text(5, lang="es")
    '5 piedras'
    """
    return translator(lang).ngettext("{n} stone", "{n} stones", n)


def chain_text(stakes: Iterable[Stake]) -> str:
    """A chain of bet totals as players follow it: ``"2 → 5 → órdago"`` (RULES.md §6)."""
    return " → ".join(stake_text(s) for s in stakes)


def stake_chain(stakes: Stake | Sequence[Stake]) -> tuple[Stake, ...]:
    """One stake, or a chain of them, as a tuple: a text such as ``"ordago"`` is one stake, not its letters."""
    if isinstance(stakes, str | int):
        return (stakes,)
    return tuple(stakes)


_ORDAGO_RAISED = N_("{where}: an órdago can only be accepted or refused, not raised (RULES.md §6)")


def check_stakes(stakes: Iterable[object], where: str = "stakes") -> tuple[Stake, ...]:
    """Validate a chain of successive bet totals and return it as a tuple (RULES.md §6, §7a).

    stakes: bet totals in order, e.g. ``[2, 5, 10]``; ``"ordago"`` (or ``"órdago"``) may stand last.
    Each total is a whole number of stones: the first at least 2, each raise at least 2 more.
    Raises :class:`BettingError` naming the bad entry.

    >>> check_stakes([2, 4, "órdago"])
    (2, 4, 'ordago')
    >>> check_stakes([2, 3])
    Traceback (most recent call last):
    ...
    musteach.rules.errors.BettingError: stakes: 2 -> 3 raises by 1, but a raise is at least 2 more (RULES.md §6)
    """
    if isinstance(stakes, str | bytes | Mapping) or not isinstance(stakes, Iterable):
        raise BettingError(
            Text("{where} must be a list of bet totals such as [2, 5, 10], not {value} (RULES.md §7a)", where=where, value=repr(stakes))
        )
    out: list[Stake] = []
    for i, s in enumerate(stakes):
        if isinstance(s, str) and fold_text(s) == ORDAGO:
            if out and out[-1] == ORDAGO:
                raise BettingError(Text(_ORDAGO_RAISED, where=where))
            out.append(ORDAGO)
            continue
        if not is_whole(s):
            raise BettingError(
                Text("{where}[{i}] must be a whole number of stones or 'ordago', not {value} (RULES.md §7a)", where=where, i=i, value=repr(s))
            )
        prev = out[-1] if out else None
        if prev == ORDAGO:
            raise BettingError(Text(_ORDAGO_RAISED, where=where))
        if prev is None and s < 2:
            raise BettingError(Text("{where}: the first bet is at least 2 stones (envido), not {value} (RULES.md §6)", where=where, value=s))
        if isinstance(prev, int) and s - prev < 2:
            raise BettingError(
                Text(
                    "{where}: {before} -> {after} raises by {more}, but a raise is at least 2 more (RULES.md §6)",
                    where=where,
                    before=prev,
                    after=s,
                    more=s - prev,
                )
            )
        out.append(s)
    if not out:
        raise BettingError(Text("{where} is empty: a refused or accepted bet needs at least one bet (RULES.md §7a)", where=where))
    return tuple(out)


def deje(stakes: Iterable[object]) -> int:
    """Stones paid at once to the team whose last bet was refused (the *deje*, RULES.md §6).

    stakes: the successive bet totals of the lance, the last one refused.
    Returns 1 when only one bet was made (this includes a first-bet órdago), otherwise the previous
    total ``stakes[-2]``: what the refusing team had itself bet or covered. It never exceeds a stake.

    >>> deje([2]), deje([2, 5, 10]), deje([2, 4, 7, 12]), deje([2, "ordago"]), deje(["ordago"])
    (1, 5, 7, 2, 1)
    """
    chain = check_stakes(stakes)
    return 1 if len(chain) == 1 else int(chain[-2])
