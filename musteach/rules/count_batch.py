"""The count of many hands at once, with numpy: what :func:`~musteach.rules.count.count_case` gives, for N cases
(RULES.md §6–§8), and random cases to count (§7a).

A case is encoded as arrays: the deal (as :mod:`musteach.rules.batch` takes it), its mano, kings, target and start
score, and for each of the five lances (grande, chica, pares, juego, punto) the betting's :class:`BetKind`, its
amount (the accepted stake, or the deje of a refused bet) and the team of a refused bet. :func:`count_batch` judges
every deal with :func:`~musteach.rules.batch.evaluate_batch`, checks every betting against the deal (RULES.md §4),
and counts the dejes, then Grande, Chica, Pares and Juego/Punto, until a team reaches the target (§8). A case whose
betting breaks a rule is not counted: :attr:`CountBatch.counted` is False there, and :func:`count_case` names the
problem.

>>> import numpy as np
>>> from musteach.rules.batch import deals_to_array
>>> hands = deals_to_array([[["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"],
...                          ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]]])
>>> kinds = np.full((1, 5), BetKind.PASO)
>>> r = count_batch(hands, 0, kinds, np.zeros((1, 5)), np.zeros((1, 5)))
>>> r.stones[0].tolist(), r.final_score[0].tolist(), bool(r.juego_played[0])
([[1, 0], [0, 1], [3, 0], [5, 0]], [9, 1], True)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..i18n import Text
from ..lazy import lazy_module
from .batch import BATCH_LANCES, array_to_codes, evaluate_batch, random_deals
from .betting import TEAMS, BettingOutcome, deje
from .cards import RANKS
from .errors import BettingError, MusError
from .lances import info_from_ranks
from .options import Rules

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_module("numpy")

__all__ = [
    "BetKind",
    "CountBatch",
    "END_PHASE_NAMES",
    "EndPhase",
    "MAX_AMOUNT",
    "count_batch",
    "encode_outcome",
    "jugada_tables",
    "random_cases",
]


class BetKind(enum.IntEnum):
    """How a lance's betting ended, as one integer per lance (RULES.md §7a; see
    :class:`~musteach.rules.betting.BettingOutcome`). ``MISSING``: the case does not say (all passed, or no
    betting where there is none)."""

    MISSING = 0
    PASO = 1
    ACCEPTED = 2
    REJECTED = 3
    ORDAGO_ACCEPTED = 4
    NO_BET = 5


class EndPhase(enum.IntEnum):
    """Where a game ended during a hand (RULES.md §8): not at all, a deje in the betting, the count, an órdago."""

    NONE = 0
    BETTING = 1
    COUNT = 2
    ORDAGO = 3


#: The name ``ended_at`` gives each :class:`EndPhase` (RULES.md §7a).
END_PHASE_NAMES: dict[EndPhase, str] = {EndPhase.BETTING: "betting", EndPhase.COUNT: "count", EndPhase.ORDAGO: "ordago"}

_KIND_OF_TYPE: dict[str, BetKind] = {
    "paso": BetKind.PASO,
    "accepted": BetKind.ACCEPTED,
    "rejected": BetKind.REJECTED,
    "ordago_accepted": BetKind.ORDAGO_ACCEPTED,
    "no_bet": BetKind.NO_BET,
}

# An amount above this goes to the one-case count (exact whatever its size); the sums stay far inside int64.
MAX_AMOUNT = 10**12


def encode_outcome(outcome: BettingOutcome | None) -> tuple[BetKind, int, int]:
    """One lance's betting as ``(kind, amount, team)`` for :func:`count_batch`: amount in stones (the accepted
    stake, or the deje a refused bet pays; else 0), team 0 for A and 1 for B (the team whose refused bet pays the
    deje; else 0). None is :attr:`BetKind.MISSING`.

    >>> encode_outcome(BettingOutcome.rejected([2, 5, 10], "B"))
    (<BetKind.REJECTED: 3>, 5, 1)
    """
    if outcome is None:
        return BetKind.MISSING, 0, 0
    kind = _KIND_OF_TYPE[outcome.type]
    if kind is BetKind.ACCEPTED:
        assert outcome.stake is not None
        return kind, outcome.stake, 0
    if kind is BetKind.REJECTED:
        assert outcome.winner_team is not None
        return kind, outcome.deje, TEAMS.index(outcome.winner_team)
    return kind, 0, 0


@lru_cache(maxsize=2)
def jugada_tables(kings: int) -> tuple[np.ndarray, np.ndarray]:
    """``(pares, juego)``: two (10000,) uint8 arrays of the stones a hand's jugada is worth in the count (RULES.md
    §7): pares par 1, medias 2, duples 3; juego 31 = 3, other juego 2; 0 without it. Indexed by the hand's four
    rank positions ``card index >> 2`` read as one 4-digit number, in any order (see :func:`hand_ids`).
    Each of the 715 sets of ranks is read once by :func:`~musteach.rules.lances.info_from_ranks`."""
    positions = np.indices((10, 10, 10, 10), dtype=np.int16).reshape(4, -1).T
    ordered = np.sort(positions, axis=1)
    ids = ordered @ np.array([1000, 100, 10, 1], dtype=np.int16)
    _, first, spread = np.unique(ids, return_index=True, return_inverse=True)
    pares, juego = [], []
    for pos in ordered[first].tolist():
        info = info_from_ranks([RANKS[p] for p in pos], kings)
        pares.append(0 if info.pares is None else info.pares.value)
        juego.append(info.juego_value)
    spread = spread.reshape(-1)
    return np.array(pares, np.uint8)[spread], np.array(juego, np.uint8)[spread]


def hand_ids(hands: np.ndarray) -> np.ndarray:
    """(N, 4) int16: each seat's hand as the 4-digit number of its rank positions, for :func:`jugada_tables`."""
    pos = (hands >> 2).astype(np.int16)
    ids: np.ndarray = ((pos[..., 0] * 10 + pos[..., 1]) * 10 + pos[..., 2]) * 10 + pos[..., 3]
    return ids


@dataclass(frozen=True)
class CountBatch:
    """The count of N hands (RULES.md §7a, §8), as arrays indexed by case.

    counted: (N,) bool, False where a betting breaks a rule of §4 (betting where there is none, no_bet where
    there is a betting round) or an amount is too large for the arrays: the other fields are meaningless there,
    and :func:`~musteach.rules.count.count_case` names the problem (or counts it).
    juego_played: (N,) bool: the fourth lance is Juego, else Punto.
    stones: (N, 4, 2) int64: stones of each lance played (grande, chica, pares, juego or punto) to teams A, B:
    dejes and what the count adds; 0 for lances never reached. hand_total: (N, 2) their sums.
    final_score: (N, 2) the score after the hand (the start score after an accepted órdago).
    game_winner: (N,) int8, 0 for A, 1 for B, -1 while the game goes on.
    ended: (N,) :class:`EndPhase` values; ended_lance: (N,) int8, the lance played (0..3) where the game ended.
    """

    counted: np.ndarray
    juego_played: np.ndarray
    stones: np.ndarray
    hand_total: np.ndarray
    final_score: np.ndarray
    game_winner: np.ndarray
    ended: np.ndarray
    ended_lance: np.ndarray

    @classmethod
    def joined(cls, parts: Sequence[CountBatch]) -> CountBatch:
        """The counts of ``parts`` one after the other, as one :class:`CountBatch` (no case for no part)."""
        if not parts:
            no_case = np.zeros(0, bool)
            pairs = np.zeros((0, 2), np.int64)
            small = np.zeros(0, np.int8)
            return cls(no_case, no_case, np.zeros((0, 4, 2), np.int64), pairs, pairs, small, small, small)
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)))

    def rows(self, start: int, end: int) -> CountBatch:
        """Cases ``start`` to ``end`` (not included), as a :class:`CountBatch` of views."""
        return CountBatch(*(getattr(self, f.name)[start:end] for f in fields(self)))

    def ended_at(self, i: int) -> str | None:
        """Case ``i``'s ``ended_at``: None, ``"betting:chica"``, ``"count:pares"``, ``"ordago:grande"``..."""
        phase = EndPhase(int(self.ended[i]))
        if phase is EndPhase.NONE:
            return None
        return f"{END_PHASE_NAMES[phase]}:{self.lance_names(i)[int(self.ended_lance[i])]}"

    def lance_names(self, i: int) -> tuple[str, str, str, str]:
        """The names of case ``i``'s four lances played."""
        return ("grande", "chica", "pares", "juego" if self.juego_played[i] else "punto")

    def to_dict(self, i: int) -> dict[str, Any]:
        """Case ``i`` in the ``expected`` form of ``scoring.json``, as :meth:`CountResult.to_dict
        <musteach.rules.count.CountResult.to_dict>` gives it (no stones or hand_total after an accepted órdago)."""
        winner = int(self.game_winner[i])
        out: dict[str, Any] = {
            "game_over": winner >= 0,
            "game_winner": TEAMS[winner] if winner >= 0 else None,
            "ended_at": self.ended_at(i),
            "final_score": dict(zip(TEAMS, self.final_score[i].tolist(), strict=True)),
        }
        if self.ended[i] != EndPhase.ORDAGO:
            out["stones"] = {
                lance: dict(zip(TEAMS, pair, strict=True))
                for lance, pair in zip(self.lance_names(i), self.stones[i].tolist(), strict=True)
            }
            out["hand_total"] = dict(zip(TEAMS, self.hand_total[i].tolist(), strict=True))
        return out


def count_batch(
    hands: object,
    mano: object,
    kinds: object,
    amounts: object,
    teams: object,
    *,
    start_score: object = 0,
    target: object = None,
    kings: object = None,
    rules: Rules | None = None,
) -> CountBatch:
    """Count N hands at once, as :func:`~musteach.rules.count.count_hand` counts each (RULES.md §6–§8).

    hands: (N, 4, 4) card indexes (``hands[n, seat]``; see :mod:`musteach.rules.batch`), all different in a deal.
    mano: one seat 0..3, or (N,) seats. kinds, amounts, teams: (N, 5) per lance in the order grande, chica, pares,
    juego, punto: :class:`BetKind` values, stones (the accepted stake or the refused bet's deje) and the refused
    bet's team (0 A, 1 B); see :func:`encode_outcome`.
    start_score: (N, 2) stones of A and B before the hand (or one pair, or 0), each at least 0 and below the
    target. target: (N,) or one number of stones (None: ``rules.target``). kings: (N,) 8 or 4 (None:
    ``rules.kings``). rules: the other options (deje_timing, the punto bonuses, la real); default 8 reyes to 40.

    Returns a :class:`CountBatch`. Raises what :func:`~musteach.rules.batch.evaluate_batch` raises for bad hands
    or manos, and :class:`~musteach.rules.errors.BettingError` for arrays of the wrong shape, kings other than 8
    or 4, or a start score outside 0..target-1.
    """
    rules = rules or Rules()
    arr = np.ascontiguousarray(hands, dtype=np.uint8)
    n = arr.shape[0] if arr.ndim == 3 else -1
    manos = np.broadcast_to(np.asarray(mano, dtype=np.int8), (max(n, 0),))
    kind = _per_lance(kinds, n, "kinds")
    amount = _per_lance(amounts, n, "amounts")
    team = _per_lance(teams, n, "teams")
    deal_kings = np.broadcast_to(np.asarray(rules.kings if kings is None else kings, np.int64), (n,))
    goal = np.broadcast_to(np.asarray(rules.target if target is None else target, np.int64), (n,))
    start = np.broadcast_to(np.asarray(start_score, np.int64), (n, 2)).copy()
    if not np.isin(deal_kings, (8, 4)).all():
        raise BettingError(Text("kings must be 8 or 4 for each of the {n} deals (RULES.md §13)", n=n))
    if ((start < 0) | (start >= goal[:, None])).any():
        raise BettingError(Text("every start score must be whole stones ≥ 0 and below the target (RULES.md §8)"))

    wins, pares_value, juego_value = _judged(arr, manos, deal_kings, rules)
    juego_played = np.any(juego_value > 0, axis=1)
    kind, counted = _checked_kinds(kind, pares_value, juego_value, juego_played)
    counted &= np.all((amount >= 0) & (amount <= MAX_AMOUNT), axis=1)
    # the four lances played, in order: grande, chica, pares, then juego or punto

    def played(x: np.ndarray) -> list[np.ndarray]:
        return [x[:, 0], x[:, 1], x[:, 2], np.where(juego_played, x[:, 3], x[:, 4])]

    columns = [
        _Lance(k, a, t == 1, np.where(seat >= 0, seat & 1, -1).astype(np.int8))
        for k, a, t, seat in zip(played(kind), played(amount), played(team), played(wins), strict=True)
    ]
    values = (_team_sums(pares_value), _team_sums(np.where(juego_played[:, None], juego_value, 0)))
    return _count(columns, values, juego_played, start, goal, counted, rules)


def _judged(arr: np.ndarray, manos: np.ndarray, deal_kings: np.ndarray, rules: Rules) -> tuple[np.ndarray, ...]:
    """``(wins, pares, juego)``: (N, 5) winning seats of every lance (-1 none), and (N, 4) each seat's pares and
    juego values (see :func:`jugada_tables`), each deal under its own kings."""
    n = len(arr)
    wins = np.empty((n, 5), np.int8)
    pares_value = np.empty((n, 4), np.uint8)
    juego_value = np.empty((n, 4), np.uint8)
    for k in (8, 4):
        chosen = deal_kings == k
        if not chosen.any():
            continue
        every = bool(chosen.all())
        hands = arr if every else arr[chosen]
        got = evaluate_batch(hands, manos if every else manos[chosen], rules.replace(kings=k))
        pares_table, juego_table = jugada_tables(k)
        ids = hand_ids(hands)
        if every:
            return np.stack([got[name] for name in BATCH_LANCES], axis=1), pares_table[ids], juego_table[ids]
        wins[chosen] = np.stack([got[name] for name in BATCH_LANCES], axis=1)
        pares_value[chosen] = pares_table[ids]
        juego_value[chosen] = juego_table[ids]
    return wins, pares_value, juego_value


@dataclass(frozen=True)
class _Lance:
    """One lance played, for N cases: the betting's kind, amount and whether the refused bet was team B's, and
    the team winning the lance (0 A, 1 B, -1 nobody)."""

    kind: np.ndarray
    amount: np.ndarray
    by_b: np.ndarray
    winner: np.ndarray


def _per_lance(values: object, n: int, name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.int64)
    if arr.shape != (n, 5):
        raise BettingError(Text("{name} must have shape ({n}, 5): one per lance of each deal, not {shape}", name=name, n=n, shape=arr.shape))
    return arr


def _team_sums(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sums of seats 0 + 2 (team A) and 1 + 3 (team B), (N,) each."""
    v = values.astype(np.int64)
    return v[:, 0] + v[:, 2], v[:, 1] + v[:, 3]


def _checked_kinds(
    kind: np.ndarray, pares_value: np.ndarray, juego_value: np.ndarray, juego_played: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The kinds with MISSING resolved (paso, or no_bet where there is no betting round) and the (N,) mask of
    cases whose betting keeps the rules of §4, as :func:`~musteach.rules.count.resolve_betting` checks them."""
    kind = kind.copy()
    n = len(kind)
    ok = np.all((kind >= 0) & (kind <= max(BetKind)), axis=1)
    quiet = (kind == BetKind.MISSING) | (kind == BetKind.PASO) | (kind == BetKind.NO_BET)
    bettable = {}
    for col, values in ((2, pares_value), (3, juego_value)):
        holds = values > 0
        bettable[col] = (holds[:, 0] | holds[:, 2]) & (holds[:, 1] | holds[:, 3])
    always = np.ones(n, bool)
    played = {0: always, 1: always, 2: always, 3: juego_played, 4: ~juego_played}
    for col in range(5):
        betting = played[col] & bettable.get(col, always)
        # a lance with a betting round: no no_bet, and the unsaid is paso
        ok &= ~betting | (kind[:, col] != BetKind.NO_BET)
        kind[:, col] = np.where(betting & (kind[:, col] == BetKind.MISSING), BetKind.PASO, kind[:, col])
        # a lance played without a betting round, or not played: only paso, no_bet or nothing
        ok &= betting | quiet[:, col]
        kind[:, col] = np.where(~betting & played[col], BetKind.NO_BET, kind[:, col])
    return kind, ok


class _Tally:
    """The running count of N hands: each team's score, the stones of each lance, and where games ended."""

    def __init__(self, start: np.ndarray, goal: np.ndarray) -> None:
        n = len(start)
        self.a, self.b = start[:, 0].copy(), start[:, 1].copy()
        self.goal = goal
        self.stones = np.zeros((n, 4, 2), np.int64)
        self.going = np.ones(n, bool)
        self.winner = np.full(n, -1, np.int8)
        self.ended = np.zeros(n, np.int8)
        self.ended_lance = np.zeros(n, np.int8)

    def pay(self, k: int, stones: np.ndarray, to_b: np.ndarray) -> np.ndarray:
        """Add ``stones`` (0 where nothing is paid) in lance ``k`` to team B where ``to_b``, else A; returns
        where the team paid reaches the target."""
        for_b = np.where(to_b, stones, 0)
        for_a = stones - for_b
        self.a += for_a
        self.b += for_b
        self.stones[:, k, 0] += for_a
        self.stones[:, k, 1] += for_b
        return (stones > 0) & (np.where(to_b, self.b, self.a) >= self.goal)

    def finish(self, mask: np.ndarray, team: np.ndarray, phase: EndPhase, k: int) -> None:
        """The game ends where ``mask``, won by ``team`` (0 A, 1 B), in ``phase`` at lance ``k``."""
        if mask.any():
            self.winner[mask] = team[mask]
            self.ended[mask] = phase
            self.ended_lance[mask] = k
            self.going &= ~mask


def _count(
    lances: list[_Lance],
    values: tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    juego: np.ndarray,
    start: np.ndarray,
    goal: np.ndarray,
    counted: np.ndarray,
    rules: Rules,
) -> CountBatch:
    """The betting phase, then the count, lance by lance, for every case at once (RULES.md §6–§8)."""
    tally = _Tally(start, goal)
    # 1. The betting: a refused bet pays its deje at once; an accepted órdago ends the game (§6, §8).
    for k, lance in enumerate(lances):
        if rules.deje_timing == "immediate":
            refused = tally.going & (lance.kind == BetKind.REJECTED)
            if refused.any():
                reached = tally.pay(k, np.where(refused, lance.amount, 0), lance.by_b)
                tally.finish(reached, lance.by_b.astype(np.int8), EndPhase.BETTING, k)
        tally.finish(tally.going & (lance.kind == BetKind.ORDAGO_ACCEPTED), lance.winner, EndPhase.ORDAGO, k)
    # 2. The count, in order, until a team reaches the target (§7, §8).
    for k, lance in enumerate(lances):
        team, gained = _lance_pays(k, lance, values, juego, rules)
        gained = np.where(tally.going, gained, 0)
        tally.finish(tally.pay(k, gained, team == 1), team, EndPhase.COUNT, k)
    ordago = tally.ended == EndPhase.ORDAGO
    final = np.where(ordago[:, None], start, np.stack([tally.a, tally.b], axis=1))
    stones = tally.stones
    return CountBatch(counted, juego, stones, stones.sum(axis=1), final, tally.winner, tally.ended, tally.ended_lance)


def _lance_pays(
    k: int,
    lance: _Lance,
    values: tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    juego: np.ndarray,
    rules: Rules,
) -> tuple[np.ndarray, np.ndarray]:
    """``(team, stones)`` that lance ``k`` (0..3 of the lances played) adds in the count, by the table of RULES.md
    §7, as :func:`~musteach.rules.count.score_lance` reads it: team 0 A, 1 B, -1 nobody (then 0 stones)."""
    refused = lance.kind == BetKind.REJECTED
    accepted = lance.kind == BetKind.ACCEPTED
    deje = 0 if rules.deje_timing == "immediate" else lance.amount
    team = np.where(refused, lance.by_b.astype(np.int8), lance.winner)
    stake = np.where(accepted, lance.amount, 0)
    if k < 2:  # grande, chica: 1 en paso, the stake when accepted; a refused bet only its deje (timing 'end')
        return team, np.where(refused, deje, np.where(accepted, stake, 1))
    value_a, value_b = values[0] if k == 2 else values[1]
    own = np.where(team == 1, value_b, np.where(team == 0, value_a, 0))
    if k == 3:  # punto (when no juego) is worth 1 as a jugada: en paso, as a bonus of an accepted or refused bet
        bonus = np.where(refused, int(rules.punto_bonus_on_refusal), np.where(accepted, int(rules.punto_bonus_when_accepted), 1))
        own = np.where(juego, own, bonus)
    gained = np.where(refused, deje + own, stake + own)
    return np.where(gained > 0, team, -1), gained


# ----------------------------------------------------------------------------------------------
# Random cases (RULES.md §7a)
# ----------------------------------------------------------------------------------------------

def random_cases(
    n: int, seed: int | None = None, *, vectors: Sequence[Mapping[str, Any]] = (), every: int = 20
) -> list[dict[str, Any]]:
    """``n`` random cases in the ``scoring.json`` form (RULES.md §7a), each valid by the rules.

    Random deals in 8 and 4 reyes, random mano, target (40, 35 or 30) and start score (often near the target, so
    that games end in the betting and in the count), and random betting of every type the schema has: paso,
    accepted (as ``stake``, sometimes as a chain of ``stakes``), rejected with its chain of stakes (``"ordago"``
    may stand last) and winner_team, ordago_accepted, and no_bet where at most one team holds pares or juego
    (§4). After a betting that ends the game the later lances stay en paso. Now and then a played lance is left
    out (it counts as paso).
    vectors: cases mixed in as they are, one every ``every`` cases, in turn (such as the ``scoring.json`` vectors).
    seed: the same seed gives the same cases. The random cases' ids are ``"R1"``, ``"R2"``... by position.
    Raises :class:`~musteach.rules.errors.MusError` for ``n`` that is not a whole number ≥ 0.

    >>> cases = random_cases(3, seed=1)
    >>> sorted(cases[0])
    ['betting', 'hands', 'id', 'mano_seat', 'start_score', 'target', 'variant']
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise MusError(Text("n must be a whole number of cases >= 0, not {value}", value=repr(n)))
    rng = np.random.default_rng(seed)
    deals = random_deals(n, rng)
    kings = np.where(rng.random(n) < 0.7, 8, 4)
    values = np.empty((n, 2, 4), np.uint8)
    for k in (8, 4):
        chosen = kings == k
        ids = hand_ids(deals[chosen])
        values[chosen] = np.stack([table[ids] for table in jugada_tables(k)], axis=1)
    targets = rng.choice([40, 40, 35, 30], n)
    near = rng.random((n, 2)) < 0.35
    starts = np.where(near, targets[:, None] - rng.integers(1, 9, (n, 2)), rng.integers(0, 40, (n, 2)) % targets[:, None])
    draws = _Draws(
        rng.random((n, 4)).tolist(),
        np.minimum(rng.geometric(0.55, (n, 4)), 4).tolist(),
        np.cumsum(rng.integers(2, 7, (n, 4, 4)), axis=2).tolist(),
        (rng.random((n, 4)) < 0.2).tolist(),
        rng.integers(0, 5, (n, 4)).tolist(),
        rng.integers(0, 2, (n, 4)).tolist(),
    )
    codes = array_to_codes(deals)
    columns = zip(
        kings.tolist(), targets.tolist(), rng.integers(0, 4, n).tolist(), starts.tolist(), values.tolist(), codes, strict=True
    )
    out: list[dict[str, Any]] = []
    for i, (k, target, mano, start, seat_values, hands) in enumerate(columns):
        if vectors and i % every == every - 1:
            out.append(dict(vectors[(i // every) % len(vectors)]))
            continue
        out.append(
            {
                "id": f"R{i + 1}",
                "variant": f"{k}reyes",
                "target": target,
                "mano_seat": mano,
                "hands": {"0": hands[0], "1": hands[1], "2": hands[2], "3": hands[3]},
                "start_score": {"A": start[0], "B": start[1]},
                "betting": _random_betting(draws, i, seat_values, start, target),
            }
        )
    return out


@dataclass(frozen=True)
class _Draws:
    """The random numbers of :func:`random_cases`, drawn at once, as nested lists by case and lance played."""

    roll: list[list[float]]  # which betting
    size: list[list[int]]  # how many bets, 1..4
    totals: list[list[list[int]]]  # the successive bet totals, raising by 2..6
    ordago: list[list[bool]]  # whether a refused chain ends in an órdago
    cut: list[list[int]]  # how many bets come before that órdago
    team: list[list[int]]  # the team of a refused bet


def _random_betting(draws: _Draws, i: int, values: list[list[int]], start: list[int], target: int) -> dict[str, Any]:
    """A valid betting for case ``i``, whose seats' pares and juego values are ``values`` (2 x 4) (RULES.md §4, §6)."""
    pares, juego = ([v > 0 for v in row] for row in values)
    lances = ("grande", "chica", "pares", "juego" if any(juego) else "punto")
    bettable = (True, True, (pares[0] or pares[2]) and (pares[1] or pares[3]), (juego[0] or juego[2]) and (juego[1] or juego[3]))
    score = list(start)
    over = False
    betting: dict[str, Any] = {}
    for k, lance in enumerate(lances):
        if not (bettable[k] or lance == "punto"):
            betting[lance] = {"type": "no_bet"}
            continue
        entry = _random_outcome(draws, i, k, over)
        if entry is None:  # left out, which counts as paso
            continue
        betting[lance] = entry
        if entry["type"] == "rejected":
            team = draws.team[i][k]
            score[team] += deje(entry["stakes"])
            over = score[team] >= target
        elif entry["type"] == "ordago_accepted":
            over = True
    return betting


def _random_outcome(draws: _Draws, i: int, k: int, over: bool) -> dict[str, Any] | None:
    """Lance ``k``'s betting in case ``i`` from the draws: paso once the game is ``over``; None: left out."""
    roll = draws.roll[i][k]
    size = draws.size[i][k]
    chain: list[int | str] = [*draws.totals[i][k][:size]]
    if over or roll < 0.35:
        return {"type": "paso"}
    if roll < 0.55:
        many = size > 1 and roll < 0.42
        return {"type": "accepted", "stakes": chain} if many else {"type": "accepted", "stake": chain[-1]}
    if roll < 0.85:
        if draws.ordago[i][k]:
            chain = [*chain[: min(draws.cut[i][k], size)], "ordago"]
        return {"type": "rejected", "stakes": chain, "winner_team": TEAMS[draws.team[i][k]]}
    if roll < 0.93:
        return {"type": "ordago_accepted"}
    return None
