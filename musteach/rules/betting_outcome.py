"""How a lance's betting ended: :class:`BettingOutcome`, the ``scoring.json`` "betting" record (RULES.md §6, §7a)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import Text, translator
from .errors import BettingError
from .stakes import ORDAGO, Stake, Team, as_team, chain_text, check_stakes, deje, is_whole, stake_chain, stones_text

__all__ = ["OUTCOME_TYPES", "BettingOutcome"]

#: Outcome types of a lance's betting, as in ``scoring.json`` (RULES.md §7a).
OUTCOME_TYPES: tuple[str, ...] = ("paso", "accepted", "rejected", "ordago_accepted", "no_bet")


# ----------------------------------------------------------------------------------------------
# Outcome of a lance's betting (the scoring.json "betting" schema, RULES.md §7a)
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BettingOutcome:
    """How a lance's betting ended (RULES.md §6, §7a).

    type: one of :data:`OUTCOME_TYPES`:
      ``"paso"`` everybody passed (the lance is *en paso*); ``"accepted"`` the last bet was seen (quiero)
      for :attr:`stake` stones; ``"rejected"`` the last bet, made by ``winner_team``, was refused and that
      team takes the :attr:`deje` at once; ``"ordago_accepted"`` showdown now, the best hand of the lance
      wins the game; ``"no_bet"`` pares or juego held by at most one team (no betting round).
    stakes: the successive bet totals (``"ordago"`` may stand last); empty for paso / no_bet.
    winner_team: for ``"rejected"``, the team whose bet was refused and who takes the deje.

    >>> o = BettingOutcome.from_dict({"type": "rejected", "stakes": [2, "ordago"], "winner_team": "B"})
    >>> o.deje, o.describe()
    (2, "team B's bet (2 → órdago) was refused: team B takes the deje of 2 stones")
    >>> BettingOutcome.from_dict({"type": "accepted", "stake": 1})
    Traceback (most recent call last):
    ...
    musteach.rules.errors.BettingError: betting: stake must be a whole number of stones ≥ 2 (envido is 2), not 1 (RULES.md §6, §7a)
    """

    type: str
    stakes: tuple[Stake, ...] = ()
    winner_team: Team | str | None = None

    def __post_init__(self) -> None:
        t = self.type
        if t not in OUTCOME_TYPES:
            raise BettingError(
                Text("unknown betting type {type}: use {types} (RULES.md §7a)", type=repr(t), types=", ".join(OUTCOME_TYPES))
            )
        stakes = tuple(self.stakes)
        if t in ("paso", "no_bet"):
            if stakes or self.winner_team is not None:
                raise BettingError(Text("a {type} betting has no stakes and no winner team (RULES.md §7a)", type=repr(t)))
        elif t == "ordago_accepted":
            stakes = check_stakes(stakes) if stakes else (ORDAGO,)
            if stakes[-1] != ORDAGO:
                raise BettingError(Text("an 'ordago_accepted' betting must end with the órdago (RULES.md §7a)"))
            if self.winner_team is not None:
                raise BettingError(Text("an accepted órdago has no winner team before the hands are shown (RULES.md §6)"))
        else:
            stakes = check_stakes(stakes)
            if t == "accepted":
                if stakes[-1] == ORDAGO:
                    raise BettingError(Text("an accepted órdago is the type 'ordago_accepted', not 'accepted' (RULES.md §7a)"))
                if self.winner_team is not None:
                    raise BettingError(Text("an accepted bet has no winner team: the best hand takes it in the count"))
            else:
                object.__setattr__(self, "winner_team", as_team(self.winner_team))  # validates A / B
        object.__setattr__(self, "stakes", stakes)

    # --- constructors -------------------------------------------------------------------------
    @classmethod
    def paso(cls) -> BettingOutcome:
        """Everybody passed."""
        return cls("paso")

    @classmethod
    def no_bet(cls) -> BettingOutcome:
        """No betting round: pares or juego held by at most one team."""
        return cls("no_bet")

    @classmethod
    def accepted(cls, stake: Stake | Sequence[Stake]) -> BettingOutcome:
        """A bet of ``stake`` stones accepted (or a whole chain of totals whose last one was accepted)."""
        return cls("accepted", stake_chain(stake))

    @classmethod
    def rejected(cls, stakes: Stake | Sequence[Stake], winner_team: str) -> BettingOutcome:
        """The last of ``stakes`` (one stake, or the chain of totals), bet by ``winner_team``, was refused.

        >>> BettingOutcome.rejected("ordago", "A").deje  # a first-bet órdago refused
        1
        """
        return cls("rejected", stake_chain(stakes), winner_team)

    @classmethod
    def ordago_accepted(cls, stakes: Stake | Sequence[Stake] = ORDAGO) -> BettingOutcome:
        """An órdago was accepted: the best hand of the lance wins the game."""
        return cls("ordago_accepted", stake_chain(stakes))

    # --- schema -----------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | BettingOutcome, where: str = "betting") -> BettingOutcome:
        """Read the ``scoring.json`` form (RULES.md §7a); raises :class:`BettingError` naming the bad field."""
        if isinstance(data, BettingOutcome):
            return data
        if not isinstance(data, Mapping):
            raise BettingError(
                Text("{where} must be an object such as {{'type': 'paso'}}, not {value} (RULES.md §7a)", where=where, value=repr(data))
            )
        t = data.get("type")
        if t not in OUTCOME_TYPES:
            raise BettingError(
                Text(
                    "{where}.type must be one of {types}, not {value} (RULES.md §7a)",
                    where=where,
                    types=", ".join(OUTCOME_TYPES),
                    value=repr(t),
                )
            )
        allowed = {"type"} | {"accepted": {"stake", "stakes"}, "rejected": {"stakes", "winner_team"}}.get(t, set())
        extra = sorted(set(data) - allowed)
        if extra:
            raise BettingError(
                Text(
                    "{where}: unexpected field(s) {fields} for type {type} (RULES.md §7a)",
                    where=where,
                    fields=", ".join(extra),
                    type=repr(t),
                )
            )
        try:
            if t == "accepted":
                if "stake" not in data and "stakes" not in data:
                    raise BettingError(Text("an accepted bet needs its stake (RULES.md §7a)"))
                stake = data.get("stake")
                stakes = list(data["stakes"]) if "stakes" in data else [stake]
                if stake is not None and stakes[-1] != stake:
                    raise BettingError(Text("stake {stake} is not the last of stakes {stakes}", stake=repr(stake), stakes=repr(stakes)))
                last = stakes[-1]
                if not is_whole(last) or last < 2:
                    raise BettingError(
                        Text("stake must be a whole number of stones ≥ 2 (envido is 2), not {value} (RULES.md §6, §7a)", value=repr(last))
                    )
                return cls("accepted", check_stakes(stakes, "stakes"))
            if t == "rejected":
                if "stakes" not in data or "winner_team" not in data:
                    raise BettingError(Text("a rejected bet needs 'stakes' and 'winner_team' (RULES.md §7a)"))
                return cls("rejected", tuple(check_stakes(data["stakes"], "stakes")), data["winner_team"])
            return cls(t)
        except BettingError as e:
            if str(e).startswith(where):
                raise
            raise BettingError(Text("{where}: {problem}", where=where, problem=e.text or str(e))) from None

    def to_dict(self) -> dict[str, Any]:
        """The ``scoring.json`` form: ``{"type": "accepted", "stake": 5}`` etc. (RULES.md §7a)."""
        if self.type == "accepted":
            return {"type": "accepted", "stake": self.stake}
        if self.type == "rejected":
            return {"type": "rejected", "stakes": list(self.stakes), "winner_team": self.winner_team}
        return {"type": self.type}

    # --- derived ----------------------------------------------------------------------------
    @property
    def stake(self) -> int | None:
        """The accepted stake in stones (``"accepted"`` only), else None."""
        return int(self.stakes[-1]) if self.type == "accepted" else None

    @property
    def deje(self) -> int:
        """Stones the ``winner_team`` takes at once for a refused bet (``"rejected"`` only), else 0."""
        return deje(self.stakes) if self.type == "rejected" else 0

    @property
    def bettors(self) -> str | None:
        """Alias of ``winner_team``: the team whose refused bet pays the deje."""
        return self.winner_team

    def describe(self, lang: str | None = None) -> str:
        """A short phrase: ``"everybody passed (en paso)"``, ``"bet of 5 accepted"``...

        lang: the language (None: the one being spoken, see :func:`musteach.i18n.speaking`).
        """
        _ = translator(lang)
        if self.type == "paso":
            return _("everybody passed (en paso)")
        if self.type == "no_bet":
            return _("no betting (at most one team holds the jugada)")
        if self.type == "accepted":
            return _("bet of {stake} accepted", stake=self.stake)
        if self.type == "ordago_accepted":
            return _("órdago accepted")
        return _(
            "team {team}'s bet ({chain}) was refused: team {team} takes the deje of {stones}",
            team=self.winner_team,
            chain=chain_text(self.stakes),
            stones=stones_text(self.deje, _.lang),
        )
