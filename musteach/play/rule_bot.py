"""RuleBot: plays by thresholds on simple measures of its hand's strength in each lance, and reads its
partner's señas (RULES.md §3–§6, §11).
"""

from __future__ import annotations

from ..rules.betting import ORDAGO, Action
from ..rules.lances import Lance, effective_rank
from ..rules.senas import Sena
from .game import Declare, Discard, GameAction, MusCall, View
from .policy import (
    bet,
    effective_ranks,
    is_legal_bet,
    keep_to_discard,
    true_senas,
)

__all__ = ["RuleBot"]


# ----------------------------------------------------------------------------------------------
# RuleBot's strength in each lance (0..1 from its own cards and its partner's señas; RULES.md §4, §11)
# ----------------------------------------------------------------------------------------------


def _ranks_high_to_low(view: View) -> list[int]:
    return sorted(effective_ranks(view.cards, view.rules), reverse=True)


def _grande_strength(view: View, senas: frozenset[str]) -> float:
    eff = _ranks_high_to_low(view)
    kings = eff.count(12)
    s = [0.1, 0.4, 0.7, 0.9, 0.97][kings]
    if kings in (1, 2) and eff[kings] == 11:
        s += 0.08
    if senas & {"morder_labio_lado", "morder_labio_dos_veces", "solomillo"}:
        s = max(s, 0.85)
    elif "morder_labio" in senas:
        s = max(s, 0.65) + (0.1 if kings >= 1 else 0)
    return s


def _chica_strength(view: View, senas: frozenset[str]) -> float:
    eff = _ranks_high_to_low(view)
    aces = eff.count(1)
    s = [0.1, 0.4, 0.7, 0.9, 0.97][aces]
    if aces in (1, 2) and eff[3 - aces] == 4:
        s += 0.08
    if senas & {"lengua_lado", "lengua_dos_veces"}:
        s = max(s, 0.85)
    elif "lengua" in senas:
        s = max(s, 0.65) + (0.1 if aces >= 1 else 0)
    return s


def _pares_strength(view: View, senas: frozenset[str]) -> float:
    p = view.info.pares
    if p is None:
        s = 0.0
    elif p.kind == "duples":
        s = 0.85 + (0.1 if p.high == 12 else 0)
    elif p.kind == "medias":
        s = 0.6 + (0.2 if p.high >= 11 else 0)
    else:
        s = {12: 0.45, 11: 0.35, 10: 0.3}.get(p.high, 0.2)
    if "cejas" in senas:
        s = max(s, 0.85)
    elif senas & {"labios_torcidos", "morder_labio_lado", "lengua_lado"}:
        s = max(s, 0.65)
    return s


def _juego_strength(view: View, senas: frozenset[str]) -> float:
    info = view.info
    s = {31: 0.85, 32: 0.6, 40: 0.45}.get(info.total, 0.3) if info.is_juego else 0.0
    return max(s, 0.85) if "guino" in senas else s


def _punto_strength(view: View, senas: frozenset[str]) -> float:
    t = view.info.total
    s = 0.8 if t == 30 else 0.65 if t == 29 else 0.5 if t == 28 else 0.3
    return max(s, 0.8) if "hombros" in senas else s


_STRENGTH = {
    Lance.GRANDE: _grande_strength,
    Lance.CHICA: _chica_strength,
    Lance.PARES: _pares_strength,
    Lance.JUEGO: _juego_strength,
    Lance.PUNTO: _punto_strength,
}


# ----------------------------------------------------------------------------------------------
# RuleBot
# ----------------------------------------------------------------------------------------------


class RuleBot:
    """Plays by thresholds on simple measures of hand strength (RULES.md §3–§6, §11).

    Strength per lance is a number from 0 to 1: kings for Grande, aces for Chica, the kind and rank of
    pares, 31 and the juego order, the punto total; mano adds a little (it wins ties). A partner's
    seña (two kings, duples, 31...) raises the team's strength. It opens a bet at ``bet`` or more,
    accepts at ``accept`` or more, raises at ``raise_`` and says órdago only with a (nearly) sure lance.
    In the mus it cuts with a good hand (duples, medias, 31, or pares with juego) or after ``max_mus``
    rounds; it keeps kings, pairs and aces when it changes cards. Its señas are :func:`musteach.rules.senas.best_senas`.
    """

    def __init__(self, *, bet: float = 0.7, accept: float = 0.5, raise_: float = 0.85, max_mus: int = 3, name: str = "RuleBot"):
        self.bet_at, self.accept_at, self.raise_at, self.max_mus = bet, accept, raise_, max_mus
        self.name = name

    # strength ----------------------------------------------------------------------------------
    def strength(self, view: View, lance: Lance | str) -> float:
        """The team's strength in ``lance`` from 0 to 1 (own cards, position, partner's señas)."""
        lance = Lance.parse(lance)
        senas = frozenset(s.key for s in view.partner_senas)
        mano_bonus = 0.05 if view.position == 0 else (0.02 if view.position == 1 else 0.0)
        return min(_STRENGTH[lance](view, senas) + mano_bonus, 1.0)

    # decisions ---------------------------------------------------------------------------------
    def signals(self, view: View) -> tuple[Sena, ...]:
        """Up to two true señas (:func:`~musteach.play.policy.true_senas`)."""
        return true_senas(view)

    def decide(self, view: View) -> GameAction:
        """The action for ``view``'s phase (see the class docstring)."""
        phase = view.phase
        if phase == "mus":
            return MusCall(not self._cut(view))
        if phase == "discard":
            return self.discard(view)
        if phase.startswith("declare:"):
            return next(a for a in view.legal if isinstance(a, Declare))
        lance = view.lance
        assert lance is not None and view.betting is not None
        return self._bet_action(view, self.strength(view, lance))

    def _cut(self, view: View) -> bool:
        info = view.info
        p = info.pares
        eff = effective_ranks(view.cards, view.rules)
        if view.mus_round > self.max_mus:
            return True
        if p is not None and p.kind in ("duples", "medias"):
            return True
        if info.total == 31 or (info.is_juego and p is not None):
            return True
        if eff.count(12) >= 3 or eff.count(1) >= 3:
            return True
        return p is not None and p.high == 12 and eff.count(12) >= 2 and view.position == 0

    def discard(self, view: View) -> Discard:
        """Keep kings and pairs (and aces when there is no king, or two of them); throw the rest."""
        eff = {c: effective_rank(c.rank, view.rules.kings) for c in view.cards}
        counts: dict[int, int] = {}
        for r in eff.values():
            counts[r] = counts.get(r, 0) + 1
        keep = [c for c in view.cards if eff[c] == 12 or counts[eff[c]] >= 2]
        aces = [c for c in view.cards if eff[c] == 1]
        if (not keep or len(aces) >= 2) and len(keep) + len(aces) <= 3:
            keep += [c for c in aces if c not in keep]
        if not keep:  # keep one figure towards 31
            figs = [c for c in view.cards if eff[c] >= 10]
            keep = figs[:1]
        return keep_to_discard(view, keep[:3] if len(keep) >= 4 else keep)

    def _bet_action(self, view: View, s: float) -> Action:
        b = view.betting
        assert b is not None
        if not b.stakes:
            if s >= 0.97 and is_legal_bet(view, bet("ordago")) and view.to_go[view.team] <= 10:
                return bet("ordago")
            if s >= self.bet_at:
                return bet("envido", 2 if s < self.raise_at else 3)
            return bet("paso")
        stake = b.current_stake
        if stake == ORDAGO:
            return bet("quiero") if s >= max(0.8, self.raise_at) else bet("no_quiero")
        if s >= self.raise_at and len(b.stakes) < 3 and is_legal_bet(view, bet("reenvido", 2)):
            return bet("reenvido", 2)
        need = self.accept_at + (0.1 if int(stake) >= 5 else 0)  # type: ignore[arg-type]
        return bet("quiero") if s >= need else bet("no_quiero")
