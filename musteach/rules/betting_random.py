"""Random legal betting, for quizzes and tests (RULES.md §6)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .bet_actions import Action
from .stakes import ORDAGO

if TYPE_CHECKING:  # the state is only read and acted on here; betting.py re-exports this module
    from .betting import LanceBetting

__all__ = ["random_betting"]


def random_betting(
    state: LanceBetting,
    rng: random.Random | int | None = None,
    *,
    max_raises: int = 3,
    ordago: bool = True,
    bet_chance: float = 0.35,
) -> LanceBetting:
    """Play random legal actions from ``state`` until the betting closes (for quizzes and tests).

    rng: a :class:`random.Random` or a seed. max_raises: raises allowed after the first bet.
    ordago: whether órdago may be said. bet_chance: chance that a player bets rather than passes.
    """
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    raises = 0
    while not state.closed:
        seats = state.to_act
        seat = seats[0] if len(seats) == 1 or rng.random() < 0.7 else rng.choice(seats)
        if not state.stakes:
            if rng.random() < bet_chance:
                a = Action("ordago") if ordago and rng.random() < 0.08 else Action("envido", rng.choice((2, 2, 2, 3, 4, 5)))
            else:
                a = Action("paso")
        else:
            r = rng.random()
            can_raise = raises < max_raises and state.current_stake != ORDAGO
            if r < 0.4:
                a = Action("quiero")
            elif r < 0.75 or not can_raise:
                a = Action("no_quiero")
            elif ordago and rng.random() < 0.12:
                a = Action("ordago")
                raises += 1
            else:
                a = Action("reenvido", rng.choice((2, 2, 3, 5)))
                raises += 1
        state = state.act(seat, a)
    return state
