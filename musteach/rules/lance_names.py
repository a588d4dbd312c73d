"""The lances' names and the notation of ranks (RULES.md §1, §4): what both the judging of a deal
(:mod:`.lances`, which re-exports every name here) and its sentences (:mod:`.lance_words`) read, below both.

>>> Lance.parse("Grande").title, LANCES[-1], rank_tuple_text((12, 12, 7, 5)), SPEAKING_ORDERS[3]
('Grande', <Lance.PUNTO: 'punto'>, 'R-R-7-5', (3, 0, 1, 2))
"""

from __future__ import annotations

import enum
from functools import lru_cache

from ..i18n import N_, Term, Text
from .errors import MusError

__all__ = ["LANCES", "RANK_PLURALS", "SPEAKING_ORDERS", "Lance", "rank_letter", "rank_tuple_text"]


class Lance(enum.StrEnum):
    """The lances, in the order they are played and counted (RULES.md §4)."""

    __module__ = "musteach.rules.lances"  # its public home (reprs, pickles and the docs name it there)

    GRANDE = "grande"
    CHICA = "chica"
    PARES = "pares"
    JUEGO = "juego"
    PUNTO = "punto"

    @property
    def title(self) -> Term:  # type: ignore[override]  # a property in place of str.title(): Lance.GRANDE.title
        """The capitalised name, ``"Grande"``: a :class:`~musteach.i18n.Term` of kind ``"lance"``, so that a
        translation may say it as players do (``{lance:the}`` «la grande», ``{lance:at}`` «a pares»)."""
        return Term(self.value.capitalize(), "lance")

    @property
    def said(self) -> Term:
        """The name in lower case, ``"grande"``, as a :class:`~musteach.i18n.Term` with the same forms as
        :attr:`title`."""
        return Term(self.value, "lance", self.value.capitalize())

    @classmethod
    def parse(cls, name: str | Lance) -> Lance:
        """A lance from its name; raises :class:`~musteach.rules.errors.MusError` for an unknown name."""
        try:
            return cls(str(getattr(name, "value", name)).strip().lower())
        except ValueError:
            raise MusError(
                Text("unknown lance {name}: grande, chica, pares, juego or punto", name=repr(name))
            ) from None

    def __str__(self) -> str:
        return self.value


LANCES: tuple[Lance, ...] = tuple(Lance)

_LETTERS = {1: "A", 10: "S", 11: "C", 12: "R"}
#: Each rank's name in the plural, an English msgid translated where used (``"kings"``), by rank 1..12.
RANK_PLURALS: dict[int, str] = {
    1: N_("aces"),
    2: N_("2s"),
    3: N_("3s"),
    4: N_("4s"),
    5: N_("5s"),
    6: N_("6s"),
    7: N_("7s"),
    10: N_("sotas"),
    11: N_("caballos"),
    12: N_("kings"),
}

#: Each mano's speaking order (mano, mano+1, mano+2, mano+3: see :func:`~musteach.rules.lances.speaking_order`),
#: indexed by the mano seat (RULES.md §0, §2).
SPEAKING_ORDERS: tuple[tuple[int, int, int, int], ...] = tuple(
    (m, (m + 1) % 4, (m + 2) % 4, (m + 3) % 4) for m in range(4)
)


def rank_letter(rank: int) -> str:
    """The letter shown in hand notation: R, C, S, A or the digit (ranks already effective)."""
    return _LETTERS.get(rank, str(rank))


@lru_cache(maxsize=2048)
def rank_tuple_text(ranks: tuple[int, ...]) -> str:
    """Ranks (1..12, in hand order) in hand notation: ``rank_tuple_text((12, 12, 7, 5)) == "R-R-7-5"``."""
    return "-".join(rank_letter(r) for r in ranks)
