"""What a lance quiz teaches: the :class:`Skill` practised, the instructive :class:`Kind` of question each
skill has (ties to mano, 3s as kings, duples against medias...), and the jugada answers (RULES.md §1, §4, §5).
"""

from __future__ import annotations

import enum

from ..i18n import N_, Text
from ..rules.lances import (
    Lance,
)
from ..rules.options import Rules
from .errors import QuizError

__all__ = ["JUGADA_CHOICES", "KINDS", "LANCE_SKILLS", "NOBODY", "Kind", "Skill", "kinds_for"]


class Skill(enum.StrEnum):
    """What a question practises.

    The five lance skills share their values with :class:`~musteach.rules.lances.Lance`.
    """

    GRANDE = "grande"
    CHICA = "chica"
    PARES = "pares"
    JUEGO = "juego"
    PUNTO = "punto"
    RANK_ORDER = "rank_order"
    JUGADA = "jugada"
    JUEGO_TOTAL = "juego_total"
    PUNTO_TOTAL = "punto_total"

    @property
    def lance(self) -> Lance | None:
        """The :class:`Lance` this skill asks about, or None for the one-hand and card skills."""
        try:
            return Lance(self.value)
        except ValueError:
            return None

    @classmethod
    def parse(cls, name: str | Skill | Lance) -> Skill:
        """A skill from its name or a :class:`Lance`; raises :class:`QuizError` for an unknown name."""
        text = str(getattr(name, "value", name)).strip().lower().replace("-", "_").replace(" ", "_")
        try:
            return cls(text)
        except ValueError:
            names = ", ".join(s.value for s in cls)
            raise QuizError(
                Text("unknown quiz skill {skill}: use one of {names}", skill=repr(name), names=names)
            ) from None

    def __str__(self) -> str:
        return self.value


LANCE_SKILLS: tuple[Skill, ...] = (Skill.GRANDE, Skill.CHICA, Skill.PARES, Skill.JUEGO, Skill.PUNTO)


class Kind(enum.StrEnum):
    """How a question's deal was chosen: uniformly at random, or built to teach one point."""

    UNIFORM = "uniform"
    TIE_TO_MANO = "tie_to_mano"  # the best hands are equal; the seat nearer mano wins (RULES.md §2)
    THREES_AS_KINGS = "threes_as_kings"  # a 3 decides it because it plays as a king (8 reyes, §1)
    TWOS_AS_ACES = "twos_as_aces"  # a 2 decides Chica because it plays as an ace (8 reyes, §1)
    DUPLES_VS_MEDIAS = "duples_vs_medias"  # duples (incl. four of a kind) meet medias (§5)
    THIRTY_ONE_VS_FORTY = "31_vs_40"  # one hand has 31, another 40: 31 wins (§5)
    NOBODY = "nobody"  # nobody holds pares / nobody has juego (§4)
    NEAR_31 = "near_31"  # a total of 29 to 33, either side of the juego line (§5)

    @classmethod
    def parse(cls, name: str | Kind) -> Kind:
        """A kind from its name; raises :class:`QuizError` for an unknown name."""
        try:
            return cls(str(getattr(name, "value", name)).strip().lower())
        except ValueError:
            names = ", ".join(k.value for k in cls)
            raise QuizError(
                Text("unknown question kind {kind}: use one of {names}", kind=repr(name), names=names)
            ) from None

    def __str__(self) -> str:
        return self.value


#: The instructive kinds each skill can produce (besides "uniform").
KINDS: dict[Skill, tuple[Kind, ...]] = {
    Skill.GRANDE: (Kind.TIE_TO_MANO, Kind.THREES_AS_KINGS),
    Skill.CHICA: (Kind.TIE_TO_MANO, Kind.TWOS_AS_ACES),
    Skill.PARES: (Kind.TIE_TO_MANO, Kind.THREES_AS_KINGS, Kind.DUPLES_VS_MEDIAS, Kind.NOBODY),
    Skill.JUEGO: (Kind.TIE_TO_MANO, Kind.THIRTY_ONE_VS_FORTY, Kind.NOBODY),
    Skill.PUNTO: (Kind.TIE_TO_MANO,),
    Skill.RANK_ORDER: (Kind.THREES_AS_KINGS,),
    Skill.JUGADA: (Kind.THREES_AS_KINGS, Kind.DUPLES_VS_MEDIAS),
    Skill.JUEGO_TOTAL: (Kind.THREES_AS_KINGS, Kind.NEAR_31),
    Skill.PUNTO_TOTAL: (Kind.THREES_AS_KINGS,),
}
_EIGHT_KINGS_ONLY = frozenset({Kind.THREES_AS_KINGS, Kind.TWOS_AS_ACES})

#: Values and labels of the jugada choices (RULES.md §5); the labels are English msgids, translated where used.
JUGADA_CHOICES: tuple[tuple[str, str], ...] = (
    ("par", N_("Par (one pair)")),
    ("medias", N_("Medias (three of a kind)")),
    ("duples", N_("Duples (two pairs)")),
    ("none", N_("No pares")),
)

#: The answer key of "who wins" when no seat wins the lance (nobody holds pares or juego).
NOBODY = "nobody"


def kinds_for(skill: Skill | str, rules: Rules | None = None) -> tuple[Kind, ...]:
    """The instructive kinds a skill can produce under some rules (3s-as-kings kinds need 8 reyes).

    >>> [k.value for k in kinds_for("grande", Rules(kings=4))]
    ['tie_to_mano']
    """
    rules = rules or Rules()
    return tuple(k for k in KINDS[Skill.parse(skill)] if rules.kings == 8 or k not in _EIGHT_KINGS_ONLY)
