"""Pares and juego declared before their lances, and who takes part in each lance's betting (RULES.md §4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import Text, translator
from .errors import BettingError
from .lances import DealResult, Lance, speaking_order, team_of
from .options import Rules
from .stakes import TEAMS

__all__ = ["BETTABLE_BY_HOLDERS", "Declaration", "declarations", "lances_played", "participants"]

#: The lances bet only by the players who hold the jugada (RULES.md §4).
BETTABLE_BY_HOLDERS = (Lance.PARES, Lance.JUEGO)


# ----------------------------------------------------------------------------------------------
# Declarations and who takes part (RULES.md §4)
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Declaration:
    """Everybody's truthful "pares sí / no" or "juego sí / no" before that lance (RULES.md §4).

    lance: ``Lance.PARES`` or ``Lance.JUEGO``. mano: the seat that declares first.
    holds: 4 booleans indexed by seat. holder_teams: the teams with at least one holder.
    participants: the holders in speaking order if both teams hold (they bet), else ().
    texts: each seat's declaration in speaking order; summary: what follows from them.
    """

    lance: Lance
    mano: int
    holds: tuple[bool, bool, bool, bool]
    texts: tuple[str, ...]
    summary: str

    @property
    def holders(self) -> tuple[int, ...]:
        """Seats holding the jugada, in speaking order."""
        return tuple(s for s in speaking_order(self.mano) if self.holds[s])

    @property
    def holder_teams(self) -> tuple[str, ...]:
        """Teams with at least one holder, A before B."""
        return tuple(t for t in TEAMS if any(self.holds[s] for s in range(4) if team_of(s) == t))

    @property
    def bettable(self) -> bool:
        """True when both teams hold the jugada, so the holders bet (RULES.md §4)."""
        return len(self.holder_teams) == 2

    @property
    def participants(self) -> tuple[int, ...]:
        """Seats that speak in the betting: the holders if both teams hold, else nobody."""
        return self.holders if self.bettable else ()


def _deal(deal: DealResult | Sequence[Any], mano: int | None, rules: Rules | None) -> DealResult:
    if isinstance(deal, DealResult):
        return deal
    from .lances import evaluate

    if mano is None:
        raise BettingError(Text("give the mano seat along with the hands (RULES.md §0)"))
    return evaluate(deal, mano, rules)


def declarations(
    deal: DealResult | Sequence[Any], mano: int | None = None, rules: Rules | None = None, *, lang: str | None = None
) -> dict[str, Declaration]:
    """Every seat's "pares sí/no" and "juego sí/no", and who bets in those lances (RULES.md §4).

    deal: a :class:`~musteach.rules.lances.DealResult`, or 4 hands indexed by seat (then give ``mano``, ``rules``).
    lang: the language of the texts and summaries (None: the one being spoken).
    Returns ``{"pares": Declaration, "juego": Declaration}``.
    """
    d = _deal(deal, mano, rules)
    _ = translator(lang)
    out: dict[str, Declaration] = {}
    for lance in BETTABLE_BY_HOLDERS:
        if lance is Lance.PARES:
            holds = tuple(i.pares is not None for i in d.infos)
        else:
            holds = tuple(i.is_juego for i in d.infos)
        word = lance.value
        order = speaking_order(d.mano)
        texts = tuple(
            _("Seat {seat}: {lance} sí", seat=s, lance=word) if holds[s] else _("Seat {seat}: {lance} no", seat=s, lance=word)
            for s in order
        )
        holders = [s for s in order if holds[s]]
        teams = sorted({team_of(s) for s in holders})
        silent = [s for s in order if not holds[s]]
        if len(teams) == 2:
            who = _.join(str(s) for s in holders)
            if not silent:
                summary = _("Both teams hold {lance}: seats {seats} bet (RULES.md §4).", lance=word, seats=who)
            elif len(silent) == 1:
                summary = _(
                    "Both teams hold {lance}: seats {seats} bet; seat {silent} stays silent (RULES.md §4).",
                    lance=word,
                    seats=who,
                    silent=silent[0],
                )
            else:
                summary = _(
                    "Both teams hold {lance}: seats {seats} bet; seats {silent} stay silent (RULES.md §4).",
                    lance=word,
                    seats=who,
                    silent=_.join(str(s) for s in silent),
                )
        elif teams:
            summary = _(
                "Only team {team} holds {lance}: no betting; team {team} takes the lance in the count (RULES.md §4).",
                team=teams[0],
                lance=word,
            )
        elif lance is Lance.PARES:
            summary = _("Nobody holds pares: the lance scores nothing (RULES.md §4).")
        else:
            summary = _("Nobody has juego: Punto is played instead, with all four players (RULES.md §4).")
        out[word] = Declaration(lance, d.mano, (holds[0], holds[1], holds[2], holds[3]), texts, summary)
    return out


def lances_played(deal: DealResult) -> tuple[Lance, Lance, Lance, Lance]:
    """The four lances of a deal in order: Grande, Chica, Pares, then Juego, or Punto when nobody has juego."""
    last = Lance.JUEGO if any(i.is_juego for i in deal.infos) else Lance.PUNTO
    return (Lance.GRANDE, Lance.CHICA, Lance.PARES, last)


def participants(deal: DealResult, lance: Lance | str) -> tuple[int, ...]:
    """Seats that speak in a lance's betting, in speaking order (RULES.md §4).

    Grande and Chica: all four. Pares and Juego: the holders, when both teams hold it, else ().
    Punto: all four when nobody has juego, else () (it is not played).
    """
    lance = Lance.parse(lance)
    order = speaking_order(deal.mano)
    if lance in (Lance.GRANDE, Lance.CHICA):
        return order
    if lance is Lance.PUNTO:
        return () if any(i.is_juego for i in deal.infos) else order
    return declarations(deal)[lance.value].participants
