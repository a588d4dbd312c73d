"""Rules options: every switch of RULES.md §13, as one frozen value.

>>> Rules().kings, Rules().target
(8, 40)
>>> Rules.preset("4reyes").kings
4
>>> Rules(kings=5)
Traceback (most recent call last):
...
musteach.rules.errors.RulesError: kings must be 8 or 4, not 5 (RULES.md §13)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from ..i18n import N_, Text
from .errors import RulesError

__all__ = ["PRESETS", "Rules", "check_rules"]

DejeTiming = Literal["immediate", "end"]
FirstHand = Literal["normal", "mus_corrido"]
LaRealFigure = Literal["sota", "any", "sota_de_oros"]
SenasSet = Literal["standard", "kiss_three_kings", "off"]


@dataclass(frozen=True, slots=True)
class Rules:
    """The table's rules (RULES.md §13). The default is 8 reyes to 40.

    kings: 8 (3 = rey, 2 = as, RULES.md §1) or 4 ("Musín": 3 and 2 keep their natural rank and value).
    target: stones (piedras) to win a game: 40, 35 or 30 (§8, §13).
    la_real: 7-7-7-sota beats every other 31 in Juego (§5, §13); ``la_real_figure`` says which figure counts.
    punto_bonus_when_accepted: an accepted Punto pays stake + 1 (§7).
    punto_bonus_on_refusal: a refused Punto bet pays deje + 1 in the count (§7).
    deje_timing: "immediate" (a refused bet is scored at once and can end the game, §6, §8) or "end".
    games_per_vaca: games a team must win to take a vaca (2 = best of 3, 3 = best of 5; §10).
    vacas_per_match: vacas a team must win to take the match (1 = the match is one vaca; §10).
    first_hand: "normal" or "mus_corrido" (*mus corrido y sin señas* in a game's first hand, §3).
    senas: "standard" (FEM set), "kiss_three_kings" (the kiss means 3 kings + ace) or "off" (§11).
    allow_out_of_turn_first_bet: any player may open the betting before those ahead have spoken (§13).
    players: 4 (two pairs). The rare 2- and 6-player games are not supported.

    Raises :class:`RulesError` naming the option for a value outside these.
    """

    kings: int = 8
    target: int = 40
    la_real: bool = False
    la_real_figure: LaRealFigure = "sota"
    punto_bonus_when_accepted: bool = True
    punto_bonus_on_refusal: bool = True
    deje_timing: DejeTiming = "immediate"
    games_per_vaca: int = 2
    vacas_per_match: int = 1
    first_hand: FirstHand = "normal"
    senas: SenasSet = "standard"
    allow_out_of_turn_first_bet: bool = False
    players: int = 4

    def __post_init__(self) -> None:
        def need(ok: bool, msgid: str, **params: object) -> None:
            if not ok:
                raise RulesError(Text(msgid, **params))

        def is_int(v: Any) -> bool:
            return isinstance(v, int) and not isinstance(v, bool)

        need(
            is_int(self.kings) and self.kings in (8, 4),
            N_("kings must be 8 or 4, not {value} (RULES.md §13)"), value=repr(self.kings),
        )
        need(
            is_int(self.target) and self.target in (30, 35, 40),
            N_("target must be 30, 35 or 40, not {value} (RULES.md §13)"), value=repr(self.target),
        )
        for name in ("la_real", "punto_bonus_when_accepted", "punto_bonus_on_refusal", "allow_out_of_turn_first_bet"):
            v = getattr(self, name)
            need(
                isinstance(v, bool),
                N_("{option} must be True or False, not {value} (RULES.md §13)"), option=name, value=repr(v),
            )
        need(
            self.la_real_figure in ("sota", "any", "sota_de_oros"),
            N_("la_real_figure must be 'sota', 'any' or 'sota_de_oros', not {value} (RULES.md §13)"), value=repr(self.la_real_figure),
        )
        need(
            self.deje_timing in ("immediate", "end"),
            N_("deje_timing must be 'immediate' or 'end', not {value} (RULES.md §13)"), value=repr(self.deje_timing),
        )
        for name in ("games_per_vaca", "vacas_per_match"):
            v = getattr(self, name)
            need(
                is_int(v) and 1 <= v <= 5,
                N_("{option} must be a whole number from 1 to 5, not {value} (RULES.md §13)"), option=name, value=repr(v),
            )
        need(
            self.first_hand in ("normal", "mus_corrido"),
            N_("first_hand must be 'normal' or 'mus_corrido', not {value} (RULES.md §13)"), value=repr(self.first_hand),
        )
        need(
            self.senas in ("standard", "kiss_three_kings", "off"),
            N_("senas must be 'standard', 'kiss_three_kings' or 'off', not {value} (RULES.md §13)"), value=repr(self.senas),
        )
        need(
            self.players == 4,
            N_("players must be 4 (two pairs); {value}-player Mus is not supported (RULES.md §13)"), value=repr(self.players),
        )

    @property
    def variant(self) -> str:
        """``"8reyes"`` or ``"4reyes"``, the variant names used in ``../shared/vectors``."""
        return f"{self.kings}reyes"

    @property
    def amarracos_to_win(self) -> int:
        """The target in amarracos (1 amarraco = 5 stones, RULES.md §9): 8 for 40."""
        return self.target // 5

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; unknown option names raise :class:`RulesError`."""
        known = {f.name for f in fields(self)}
        for k in changes:
            if k not in known:
                raise RulesError(
                    Text("unknown rules option {option}; options are {options}", option=repr(k), options=", ".join(sorted(known)))
                )
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """The options as a plain dict (JSON-ready)."""
        return asdict(self)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named preset from :data:`PRESETS` (``"8reyes"``, ``"4reyes"``, ``"a30"``…).

        Raises :class:`RulesError` for an unknown name.
        """
        key = str(name).strip().lower().replace(" ", "").replace("-", "").replace("_", "")
        for pname, rules in PRESETS.items():
            if key == pname.replace("_", "").replace("-", ""):
                return rules
        raise RulesError(Text("unknown rules preset {name}; presets are {presets}", name=repr(name), presets=", ".join(PRESETS)))

    @classmethod
    def from_variant(cls, variant: str | int | None, **changes: Any) -> Rules:
        """Rules from a vector's ``"variant"`` (``"8reyes"``, ``"4reyes"``, or 8 / 4), with changes."""
        if variant is None:
            return cls(**changes)
        if isinstance(variant, int) and not isinstance(variant, bool):
            return cls(kings=variant, **changes)
        return cls.preset(str(variant)).replace(**changes)


#: Named presets. "8reyes" is the default game; the others change one habit each.
PRESETS: dict[str, Rules] = {
    "8reyes": Rules(),
    "4reyes": Rules(kings=4),
    "a30": Rules(target=30),
    "la_real": Rules(la_real=True),
    "casual": Rules(deje_timing="end"),
    "reglamento": Rules(games_per_vaca=3, vacas_per_match=2),
    "primera_corrida": Rules(first_hand="mus_corrido"),
    "sin_senas": Rules(senas="off"),
}


def check_rules(rules: object) -> Rules:
    """``rules`` itself when it is a :class:`Rules`, the default (8 reyes to 40) for None (RULES.md §13).

    Raises :class:`RulesError` naming anything else, e.g. a preset name given where a Rules is needed.
    """
    if rules is None:
        return PRESETS["8reyes"]
    if not isinstance(rules, Rules):
        raise RulesError(
            Text("rules must be a musteach Rules, not {value} (use Rules(kings=4) for 4 reyes)", value=repr(rules))
        )
    return rules
