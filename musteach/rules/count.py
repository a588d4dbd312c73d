"""The count (*recuento*) of a whole hand, the end of a game, and keeping score (RULES.md §6–§10).

Give the four hands, the mano, the rules, the score before the hand and each lance's betting outcome
(the ``scoring.json`` form of RULES.md §7a, :class:`~musteach.rules.betting.BettingOutcome` values, or closed
:class:`~musteach.rules.betting.LanceBetting` states). Who wins each lance comes from the evaluator
(:func:`musteach.rules.lances.evaluate`); this module only adds up stones (*piedras*).

>>> hands = [["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"], ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]]
>>> r = count_hand(hands, mano=0)
>>> r.stones
{'grande': {'A': 1, 'B': 0}, 'chica': {'A': 0, 'B': 1}, 'pares': {'A': 3, 'B': 0}, 'juego': {'A': 5, 'B': 0}}
>>> r.final_score, r.game_over
({'A': 9, 'B': 1}, False)
>>> r.explanation[1]
"Grande: seat 0's R-R-R-7 is best; en paso it pays 1 stone to team A (A 1, B 0)."

A deje that reaches the target wins the game during the betting (RULES.md §8):

>>> r = count_hand(hands, 0, start_score={"A": 38, "B": 39},
...                betting={"grande": {"type": "rejected", "stakes": [2], "winner_team": "B"}})
>>> r.game_winner, r.ended_at, r.final_score
('B', 'betting:grande', {'A': 38, 'B': 40})

Scores in amarracos (1 amarraco = 5 stones, RULES.md §9):

>>> describe_score(37)
'7 amarracos and 2 piedras (37 stones): dentro, 3 to go'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .betting import (
    TEAMS,
    BettingOutcome,
    LanceBetting,
    declarations,
    lances_played,
    other_team,
    stake_text,
    stones_text,
)
from .errors import BettingError, RulesError, shown
from .lances import DealResult, Lance, LanceResult, evaluate, team_of
from .options import Rules

__all__ = [
    "CountResult",
    "CountStep",
    "Match",
    "Score",
    "check_score",
    "count_case",
    "count_hand",
    "describe_score",
    "from_amarracos",
    "is_dentro",
    "jugada_values",
    "resolve_betting",
    "score_lance",
    "to_amarracos",
]

Score = dict[str, int]


@dataclass(frozen=True, slots=True)
class CountStep:
    """One step of a hand's scoring, in the order it happens (RULES.md §8).

    phase: ``"betting"`` (a deje paid at once, or an órdago), ``"count"`` (one lance counted),
    ``"start"`` (the count begins) or ``"end"`` (the game is won).
    lance: the lance, or None. team: the team scoring, or None. stones: stones scored in this step.
    score: the game score after the step, ``(A, B)``.
    text: one sentence for learners; why: the evaluator's reason for the best hand, when relevant.
    """

    phase: str
    lance: Lance | None
    team: str | None
    stones: int
    score: tuple[int, int]
    text: str
    why: str = ""


@dataclass(frozen=True)
class CountResult:
    """The count of one hand (RULES.md §7, §7a, §8).

    deal: the judged :class:`~musteach.rules.lances.DealResult`. rules: the rules used.
    lances: the four lances played (Grande, Chica, Pares, then Juego or Punto).
    betting: each lance's :class:`~musteach.rules.betting.BettingOutcome`, keyed by lance name.
    start_score, final_score: ``{"A": stones, "B": stones}`` before and after the hand. The final score is
    not capped: the lance that carries a team over the target is counted whole. After an accepted órdago
    the score no longer matters and ``final_score`` stays at ``start_score`` (RULES.md §7a).
    stones: ``{lance: {"A": n, "B": n}}``: dejes paid in the betting plus what the count adds; lances not
    reached because the game ended score 0. hand_total: the sum of ``stones`` per team.
    game_over, game_winner (``"A"``, ``"B"`` or None), ended_at (None, ``"betting:chica"``, ``"count:pares"``
    or ``"ordago:grande"``). steps: the :class:`CountStep` list, in order.
    """

    deal: DealResult
    rules: Rules
    lances: tuple[Lance, ...]
    betting: dict[str, BettingOutcome]
    start_score: Score
    stones: dict[str, Score]
    hand_total: Score
    final_score: Score
    game_over: bool
    game_winner: str | None
    ended_at: str | None
    steps: tuple[CountStep, ...]

    @property
    def explanation(self) -> list[str]:
        """Every step's sentence, in order."""
        return [s.text for s in self.steps]

    @property
    def ordago(self) -> bool:
        """True when an accepted órdago decided the game."""
        return bool(self.ended_at and self.ended_at.startswith("ordago:"))

    def total_sentence(self, team: str | None = None) -> str:
        """The hand's last line for a learner on ``team`` (``"A"``, ``"B"`` or None): the score after the hand,
        or, after an accepted órdago, who won the game and that the score stays where the hand began (§7a).

        >>> r = count_case({"hands": {"0": "12o 12c 12e 7b", "1": "1o 1c 4e 5b", "2": "6o 6c 5e 4b",
        ...     "3": "7o 7c 10e 11b"}, "mano_seat": 0, "variant": "8reyes", "target": 40,
        ...     "start_score": {"A": 16, "B": 12}, "betting": {"grande": {"type": "ordago_accepted"}}})
        >>> r.total_sentence("B")
        'Team A won the game with the accepted órdago in Grande; the score stays at A 16, B 12, where the hand began (you are team B).'
        """
        you = f" (you are team {team})" if team else ""
        fa, fb = self.final_score["A"], self.final_score["B"]
        if self.ordago and self.ended_at is not None:
            lance = Lance(self.ended_at.split(":", 1)[1])
            return (
                f"Team {self.game_winner} won the game with the accepted órdago in {lance.title}; the score stays at "
                f"A {fa}, B {fb}, where the hand began{you}."
            )
        return f"After this hand: team A {fa}, team B {fb}{you}."

    def to_dict(self) -> dict[str, Any]:
        """The ``expected`` form of ``scoring.json`` (RULES.md §7a). An órdago case has no stones/hand_total."""
        out: dict[str, Any] = {
            "game_over": self.game_over,
            "game_winner": self.game_winner,
            "ended_at": self.ended_at,
            "final_score": dict(self.final_score),
        }
        if not self.ordago:
            out["stones"] = {k: dict(v) for k, v in self.stones.items()}
            out["hand_total"] = dict(self.hand_total)
        return out


# ----------------------------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------------------------


def check_score(score: Mapping[str, Any] | Sequence[int] | None, rules: Rules, where: str = "start_score") -> Score:
    """A game score checked against the rules: ``{"A": stones, "B": stones}`` (RULES.md §7a, §8).

    score: a mapping by team, a pair ``(A, B)``, or None for 0-0. where: the field name used in messages.
    Each team's stones are a whole number ≥ 0 and below ``rules.target`` (else the game is already won).
    Returns a fresh dict. Raises :class:`~musteach.rules.errors.BettingError` naming the field and value.
    """
    if score is None:
        return {"A": 0, "B": 0}
    if isinstance(score, Sequence) and not isinstance(score, str | bytes) and len(score) == 2:
        score = {"A": score[0], "B": score[1]}
    if not isinstance(score, Mapping):
        raise BettingError(f"{where} must be {{'A': stones, 'B': stones}}, not {shown(score)} (RULES.md §7a)")
    extra = sorted(str(k) for k in score if k not in TEAMS)
    if extra:
        raise BettingError(f"{where} has unknown team(s) {', '.join(extra)}: teams are A and B (RULES.md §0)")
    out: Score = {}
    for t in TEAMS:
        v = score.get(t, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise BettingError(f"{where}.{t} must be a whole number of stones ≥ 0, not {shown(v)}")
        if v >= rules.target:
            raise BettingError(f"{where}.{t} is {shown(v)}: team {t} has already won the game at {rules.target} (RULES.md §8)")
        out[t] = v
    return out


def resolve_betting(
    deal: DealResult, betting: Mapping[str, Any] | None = None
) -> dict[str, BettingOutcome]:
    """Each played lance's :class:`BettingOutcome`, checked against the deal (RULES.md §4, §7a).

    betting: ``{lance: outcome}``; an outcome is the ``scoring.json`` dict, a :class:`BettingOutcome` or a
    closed :class:`LanceBetting`. A missing lance counts as all passed (``no_bet`` where there is no betting).
    Pares / Juego held by at most one team must be ``no_bet`` (``paso`` is read as no_bet); betting on them
    is an error, and so is ``no_bet`` for a lance with a betting round. The lance not played (Juego when
    nobody has juego, else Punto) may only appear as ``paso`` / ``no_bet``.
    Raises :class:`BettingError` naming the lance and what is wrong.
    """
    betting = {} if betting is None else betting
    if not isinstance(betting, Mapping):
        raise BettingError(f"betting must be an object keyed by lance, not {betting!r} (RULES.md §7a)")
    played = lances_played(deal)
    decl = declarations(deal)
    names = {lance.value for lance in Lance}
    for k in betting:
        if k not in names:
            raise BettingError(f"betting has an unknown lance {k!r}: grande, chica, pares, juego or punto")
    out: dict[str, BettingOutcome] = {}
    for lance in Lance:
        key = lance.value
        raw = betting.get(key)
        if isinstance(raw, LanceBetting):
            if raw.outcome is None:
                raise BettingError(f"betting.{key}: the betting is not over yet (seat {raw.next_seat} to speak)")
            if raw.lance is not lance:
                raise BettingError(f"betting.{key}: that betting state is for {raw.lance.title}")
            raw = raw.outcome
        o = None if raw is None else BettingOutcome.from_dict(raw, f"betting.{key}")
        if lance not in played:
            if o is not None and o.type not in ("paso", "no_bet"):
                why = "nobody has juego, so Punto is played instead" if lance is Lance.JUEGO else "somebody has juego"
                raise BettingError(f"betting.{key} is {o.type!r}, but {key} is not played: {why} (RULES.md §4)")
            continue
        if lance in (Lance.PARES, Lance.JUEGO):
            d = decl[key]
            if not d.bettable:
                if o is not None and o.type not in ("paso", "no_bet"):
                    held = f"only team {d.holder_teams[0]} holds {key}" if d.holder_teams else f"nobody holds {key}"
                    raise BettingError(
                        f"betting.{key} is {o.type!r}, but {held}, so there is no betting: use no_bet (RULES.md §4)"
                    )
                out[key] = BettingOutcome.no_bet()
                continue
        if o is not None and o.type == "no_bet":
            why = (
                f"both teams hold {key}, so there is a betting round: use paso if everybody passed"
                if lance in (Lance.PARES, Lance.JUEGO)
                else f"{lance.title} always has a betting round: use paso if everybody passed"
            )
            raise BettingError(f"betting.{key} is 'no_bet', but {why} (RULES.md §4)")
        out[key] = o or BettingOutcome.paso()
    return out


def jugada_values(deal: DealResult, lance: Lance | str, team: str) -> list[tuple[int, str, int]]:
    """The pares or juego values of a team's players: ``[(seat, jugada, stones), ...]`` (RULES.md §7).

    Pares: par 1, medias 2, duples 3; Juego: 31 = 3, other juego 2. Players without it are left out.
    """
    lance = Lance.parse(lance)
    out: list[tuple[int, str, int]] = []
    for s in range(4):
        if team_of(s) != team:
            continue
        info = deal.infos[s]
        if lance is Lance.PARES and info.pares is not None:
            out.append((s, info.pares.describe(), info.pares.value))
        elif lance is Lance.JUEGO and info.is_juego:
            out.append((s, info.jugada(Lance.JUEGO), info.juego_value))
    return out


# ----------------------------------------------------------------------------------------------
# The count
# ----------------------------------------------------------------------------------------------


def _score_str(score: Score) -> str:
    return f"(A {score['A']}, B {score['B']})"


def _breakdown(terms: list[tuple[str, int]]) -> tuple[int, str]:
    total = sum(v for _, v in terms)
    return total, f"{stones_text(total)}: " + " + ".join(f"{name} ({v})" for name, v in terms)


def _best(res: LanceResult) -> str:
    w = res.winner
    assert w is not None
    return f"seat {w}'s {res.jugadas[w]} is best"


def score_lance(
    deal: DealResult, lance: Lance, o: BettingOutcome, rules: Rules
) -> tuple[str | None, int, str]:
    """What one lance adds in the count, by the table of RULES.md §7: ``(team, stones, sentence)``.

    deal: the judged deal; lance: a lance played in it; o: its betting outcome (as checked by
    :func:`resolve_betting`); rules: for ``deje_timing`` and the punto bonuses (RULES.md §13).
    team is ``"A"``, ``"B"`` or None when the lance scores nothing; stones are piedras; the sentence has no
    score at its end. A deje already paid during the betting (``deje_timing="immediate"``) is not counted
    again; an accepted órdago is not counted at all (see :func:`count_hand`).

    >>> deal = evaluate([["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"],
    ...                  ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]], mano=0)
    >>> score_lance(deal, Lance.PARES, BettingOutcome.paso(), Rules())
    ('A', 3, "Pares: seat 0's medias of kings is best; en paso team A takes 3 stones: seat 0's medias of kings (2) + seat 2's par of caballos (1)")
    """
    res = deal[lance]
    title = lance.title
    immediate = rules.deje_timing == "immediate"
    w = res.winner
    t = res.team
    if o.type == "rejected":
        bt = o.winner_team
        assert bt is not None
        terms: list[tuple[str, int]] = [] if immediate else [("the deje", o.deje)]
        if lance in (Lance.PARES, Lance.JUEGO):
            terms += [(f"seat {s}'s {j}", v) for s, j, v in jugada_values(deal, lance, bt)]
        elif lance is Lance.PUNTO and rules.punto_bonus_on_refusal:
            terms.append(("punto", 1))
        head = f"{title}: team {bt}'s bet was refused"
        if immediate:
            head += f" and its deje of {o.deje} was taken during the betting"
        if not terms:
            return None, 0, f"{head}; nothing more is counted"
        total, text = _breakdown(terms)
        own = ""
        if lance in (Lance.PARES, Lance.JUEGO) and t is not None and t != bt:
            own = f" (its own, although {_best(res)})"
        more = " also" if immediate else ""
        return bt, total, f"{head}; team {bt}{more} takes {text}{own}"
    if lance in (Lance.GRANDE, Lance.CHICA, Lance.PUNTO):
        assert w is not None and t is not None
        if o.type == "paso":
            return t, 1, f"{title}: {_best(res)}; en paso it pays 1 stone to team {t}"
        stake = o.stake
        assert stake is not None
        if lance is Lance.PUNTO and rules.punto_bonus_when_accepted:
            total, text = _breakdown([("the accepted bet", stake), ("punto", 1)])
            return t, total, f"{title}: {_best(res)}; team {t} takes {text}"
        return t, stake, f"{title}: {_best(res)}; the accepted bet pays {stones_text(stake)} to team {t}"
    # pares / juego
    if w is None:
        return None, 0, f"{title}: nobody holds {lance.value}, so it scores nothing"
    assert t is not None
    vals = [(f"seat {s}'s {j}", v) for s, j, v in jugada_values(deal, lance, t)]
    if o.type == "no_bet":
        total, text = _breakdown(vals)
        return t, total, f"{title}: only team {t} holds {lance.value} (no betting); team {t} takes {text}"
    if o.type == "paso":
        total, text = _breakdown(vals)
        return t, total, f"{title}: {_best(res)}; en paso team {t} takes {text}"
    stake = o.stake
    assert stake is not None
    total, text = _breakdown([("the accepted bet", stake), *vals])
    return t, total, f"{title}: {_best(res)}; team {t} takes {text}"


def count_hand(
    hands: DealResult | Sequence[Any],
    mano: int | None = None,
    rules: Rules | None = None,
    start_score: Mapping[str, int] | Sequence[int] | None = None,
    betting: Mapping[str, Any] | None = None,
) -> CountResult:
    """Count a whole hand: dejes during the betting, then Grande, Chica, Pares, Juego/Punto (RULES.md §6–§8).

    hands: 4 hands of 4 cards indexed by seat (or a :class:`DealResult`, whose mano and rules are used).
    mano: the seat 0..3 that speaks first. rules: :class:`Rules` (default 8 reyes to 40).
    start_score: ``{"A": stones, "B": stones}`` before the hand (default 0-0), each below the target.
    betting: ``{lance: outcome}`` as in :func:`resolve_betting` (default: everybody passed).

    The first team to reach ``rules.target`` wins at that instant: during the betting through a deje
    (``deje_timing="immediate"``) or during the count; nothing after that point is scored. An accepted
    órdago ends the game on the best hand of its lance (holders only for Pares/Juego).
    Returns a :class:`CountResult`. Raises :class:`~musteach.rules.errors.MusError` subclasses for bad cards,
    seats, scores or betting outcomes.
    """
    deal = _judged_deal(hands, mano, rules)
    rules = deal.rules
    start = check_score(start_score, rules)
    outcomes = resolve_betting(deal, betting)
    played = lances_played(deal)
    tally = _Tally(dict(start), {lance.value: {"A": 0, "B": 0} for lance in played})
    # 1. The betting, lance by lance; 2. unless the game ended there, the count (RULES.md §8).
    end = _betting_phase(deal, outcomes, played, rules, tally) or _count_phase(deal, outcomes, played, rules, tally)
    winner, ended_at = end if end is not None else (None, None)
    hand_total = {t: sum(v[t] for v in tally.stones.values()) for t in TEAMS}
    final = dict(start) if ended_at and ended_at.startswith("ordago:") else dict(tally.score)
    return CountResult(
        deal=deal,
        rules=rules,
        lances=played,
        betting={lance.value: outcomes[lance.value] for lance in played},
        start_score=start,
        stones=tally.stones,
        hand_total=hand_total,
        final_score=final,
        game_over=ended_at is not None,
        game_winner=winner,
        ended_at=ended_at,
        steps=tuple(tally.steps),
    )


#: How a game ended during a hand: ``(winning team, ended_at)``, ended_at as in :attr:`CountResult.ended_at`.
_Ending = tuple[str, str]


@dataclass
class _Tally:
    """The running count of one hand: the game score, the stones per lance, and the steps so far."""

    score: Score
    stones: dict[str, Score]
    steps: list[CountStep] = field(default_factory=list)

    def add(self, phase: str, lance: Lance | None, team: str | None, n: int, text: str, why: str = "") -> None:
        """Score ``n`` stones to ``team`` in ``lance`` and record the step; its text ends with the new score."""
        if team is not None and n:
            assert lance is not None
            self.score[team] += n
            self.stones[lance.value][team] += n
        self.steps.append(CountStep(phase, lance, team, n, self.pair(), f"{text} {_score_str(self.score)}.", why))

    def note(self, phase: str, lance: Lance | None, team: str | None, text: str, why: str = "") -> None:
        """Record a step that scores nothing; ``text`` is the whole sentence."""
        self.steps.append(CountStep(phase, lance, team, 0, self.pair(), text, why))

    def pair(self) -> tuple[int, int]:
        """The score as ``(A, B)``."""
        return (self.score["A"], self.score["B"])


def _judged_deal(hands: DealResult | Sequence[Any], mano: int | None, rules: Rules | None) -> DealResult:
    """The deal to count: ``hands`` judged under ``rules`` (a judged deal is judged again only for other rules)."""
    if isinstance(hands, DealResult):
        if mano is not None and mano != hands.mano:
            raise BettingError(f"mano {mano} differs from the judged deal's mano {hands.mano}")
        if rules is not None and rules != hands.rules:
            return evaluate(hands.hands, hands.mano, rules)
        return hands
    if mano is None:
        raise BettingError("count_hand needs the mano seat (RULES.md §0)")
    return evaluate(hands, mano, rules)


def _betting_phase(
    deal: DealResult, outcomes: Mapping[str, BettingOutcome], played: Sequence[Lance], rules: Rules, tally: _Tally
) -> _Ending | None:
    """The betting, lance by lance: dejes are paid at once (or noted for the count, deje_timing 'end');
    an accepted órdago ends everything (RULES.md §6, §8). Returns how the game ended, if it did."""
    for lance in played:
        o = outcomes[lance.value]
        if o.type == "rejected":
            end = _refused_bet(lance, o, rules, tally)
            if end is not None:
                return end
        elif o.type == "ordago_accepted":
            return _accepted_ordago(deal, lance, tally)
    return None


def _refused_bet(lance: Lance, o: BettingOutcome, rules: Rules, tally: _Tally) -> _Ending | None:
    """A refused bet: its team takes the deje at once, which may win the game (RULES.md §6, §8)."""
    bt = o.winner_team
    assert bt is not None
    title = lance.title
    chain = " → ".join(stake_text(s) for s in o.stakes)
    if rules.deje_timing != "immediate":
        tally.note(
            "betting",
            lance,
            bt,
            f"{title} betting: team {bt}'s bet ({chain}) was refused; its deje of {stones_text(o.deje)} "
            f"is scored at the end, in the count (deje_timing 'end').",
        )
        return None
    tally.add(
        "betting",
        lance,
        bt,
        o.deje,
        f"{title} betting: team {bt}'s bet ({chain}) was refused; team {bt} takes the deje of "
        f"{stones_text(o.deje)} at once",
    )
    if tally.score[bt] < rules.target:
        return None
    tally.note(
        "end",
        lance,
        bt,
        f"Team {bt} reaches {tally.score[bt]} of {rules.target} with that deje and wins the game during the "
        f"betting of {title}; nothing else is played or counted (RULES.md §8).",
    )
    return bt, f"betting:{lance.value}"


def _accepted_ordago(deal: DealResult, lance: Lance, tally: _Tally) -> _Ending:
    """An accepted órdago: the hands are shown and the best hand of the lance wins the game (RULES.md §6)."""
    res = deal[lance]
    assert res.winner is not None and res.team is not None
    tally.note(
        "ordago",
        lance,
        res.team,
        f"{lance.title} betting: the órdago was accepted, so the hands are shown at once: {_best(res)}, and "
        f"team {res.team} wins the game; nothing else is counted (RULES.md §6).",
        res.explanation,
    )
    return res.team, f"ordago:{lance.value}"


def _count_phase(
    deal: DealResult, outcomes: Mapping[str, BettingOutcome], played: Sequence[Lance], rules: Rules, tally: _Tally
) -> _Ending | None:
    """The count, in order Grande, Chica, Pares, Juego/Punto, until a team reaches the target (RULES.md §7, §8)."""
    order = ", ".join(lance.title for lance in played)
    tally.note(
        "start",
        None,
        None,
        f"The betting is over: the hands are shown and the count goes {order} {_score_str(tally.score)}.",
    )
    for lance in played:
        team, n, text = score_lance(deal, lance, outcomes[lance.value], rules)
        tally.add("count", lance, team, n, text, deal[lance].explanation)
        if team is not None and tally.score[team] >= rules.target:
            tally.note(
                "end",
                lance,
                team,
                f"Team {team} reaches {tally.score[team]} of {rules.target} and wins the game during the count of "
                f"{lance.title}; {_never_counted(played, lance)} (RULES.md §8).",
            )
            return team, f"count:{lance.value}"
    return None


def _never_counted(played: Sequence[Lance], after: Lance) -> str:
    """The lances after ``after`` that the end of the game leaves uncounted, in words."""
    later = [lance.title for lance in played[played.index(after) + 1 :]]
    if not later:
        return "that was the last lance"
    return f"{', '.join(later[:-1]) + ' and ' if len(later) > 1 else ''}{later[-1]} {'is' if len(later) == 1 else 'are'} never counted"


def count_case(case: Mapping[str, Any]) -> CountResult:
    """Count one case in the ``scoring.json`` schema (RULES.md §7a).

    case: ``{"hands": {"0": [...], ...}, "mano_seat": 0, "variant": "8reyes", "target": 40,
    "start_score": {"A": 0, "B": 0}, "betting": {...}}``; ``id``, ``expected`` and ``why`` are ignored.
    ``hands`` may also be a list of 4 hands; an optional ``rules`` object changes other options
    (e.g. ``{"deje_timing": "end"}``). Raises :class:`MusError` subclasses naming the bad field.
    """
    if not isinstance(case, Mapping):
        raise BettingError(f"a case must be a JSON object, not {type(case).__name__}")
    hands_raw = case.get("hands")
    if isinstance(hands_raw, Mapping):
        keys = sorted(str(k) for k in hands_raw)
        if keys != ["0", "1", "2", "3"]:
            raise BettingError(f"hands must have seats '0', '1', '2', '3', not {keys}")
        hands = [hands_raw[k] if k in hands_raw else hands_raw[int(k)] for k in ("0", "1", "2", "3")]
    elif isinstance(hands_raw, Sequence) and not isinstance(hands_raw, str | bytes):
        hands = list(hands_raw)
    else:
        raise BettingError("hands is missing: give the 4 hands by seat, {'0': [...], ..., '3': [...]}")
    mano = case.get("mano_seat", case.get("mano"))
    if mano is None:
        raise BettingError("mano_seat is missing (the seat that speaks first, RULES.md §0)")
    options = case.get("rules") or {}
    if not isinstance(options, Mapping):
        raise RulesError(f"rules must be an object of options, not {options!r}")
    options = dict(options)
    if "target" in case:
        options["target"] = case["target"]
    variant = case.get("variant")
    try:
        rules = Rules.from_variant(variant, **options)
    except TypeError:
        raise RulesError(f"bad rules options {options!r}") from None
    return count_hand(hands, mano, rules, case.get("start_score"), case.get("betting"))


# ----------------------------------------------------------------------------------------------
# Amarracos and dentro (RULES.md §9)
# ----------------------------------------------------------------------------------------------


def _check_stones(stones: object) -> int:
    if isinstance(stones, bool) or not isinstance(stones, int) or stones < 0:
        raise BettingError(f"a score is a whole number of stones ≥ 0, not {stones!r}")
    return stones


def to_amarracos(stones: int) -> tuple[int, int]:
    """``(amarracos, piedras)`` for a score in stones: 1 amarraco = 5 stones (RULES.md §9).

    >>> to_amarracos(37), to_amarracos(40)
    ((7, 2), (8, 0))
    """
    return divmod(_check_stones(stones), 5)


def from_amarracos(amarracos: int, piedras: int = 0) -> int:
    """Stones for ``amarracos`` and loose ``piedras``: ``from_amarracos(7, 2) == 37`` (RULES.md §9)."""
    return 5 * _check_stones(amarracos) + _check_stones(piedras)


def is_dentro(stones: int, rules: Rules | None = None) -> bool:
    """True when a team is *dentro* ("inside"): 5 or fewer stones from the target, not yet there (RULES.md §9)."""
    target = (rules or Rules()).target
    return target - 5 <= _check_stones(stones) < target


def describe_score(stones: int, rules: Rules | None = None) -> str:
    """A score in amarracos and piedras, with *dentro* when it applies (RULES.md §9).

    >>> describe_score(0), describe_score(6), describe_score(40)
    ('0 stones', '1 amarraco and 1 piedra (6 stones)', '8 amarracos (40 stones): game won')
    >>> from musteach import Rules
    >>> describe_score(25, Rules(target=30))
    '5 amarracos (25 stones): dentro, 5 to go'
    """
    rules = rules or Rules()
    a, p = to_amarracos(stones)
    parts = []
    if a:
        parts.append(f"{a} amarraco" + ("s" if a != 1 else ""))
    if p:
        parts.append(f"{p} piedra" + ("s" if p != 1 else ""))
    text = f"{' and '.join(parts)} ({stones_text(stones)})" if parts else stones_text(stones)
    if stones >= rules.target:
        return f"{text}: game won"
    if is_dentro(stones, rules):
        return f"{text}: dentro, {rules.target - stones} to go"
    return text


# ----------------------------------------------------------------------------------------------
# Games, vacas and the match (RULES.md §8, §10)
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match:
    """A match's score: stones in the current game, games in the current vaca, vacas (RULES.md §8, §10).

    A game is won by the first team to reach ``rules.target`` stones (then the score goes back to 0-0);
    ``rules.games_per_vaca`` games win a vaca (then games go back to 0-0); ``rules.vacas_per_match`` vacas
    win the match. Frozen: every method returns a new :class:`Match`.

    >>> m = Match(Rules(games_per_vaca=2)).add_stones("A", 38).add_stones("A", 5)
    >>> m.score, m.games, m.vacas, m.winner
    ({'A': 0, 'B': 0}, {'A': 1, 'B': 0}, {'A': 0, 'B': 0}, None)
    >>> m = Match(Rules(games_per_vaca=2)).win_game("A").win_game("B").win_game("A")
    >>> m.vacas, m.winner
    ({'A': 1, 'B': 0}, 'A')
    """

    rules: Rules = field(default_factory=Rules)
    stones: tuple[int, int] = (0, 0)
    game_wins: tuple[int, int] = (0, 0)
    vaca_wins: tuple[int, int] = (0, 0)
    winner: str | None = None
    events: tuple[str, ...] = ()

    @property
    def score(self) -> Score:
        """Stones in the current game: ``{"A": n, "B": n}``."""
        return {"A": self.stones[0], "B": self.stones[1]}

    @property
    def games(self) -> Score:
        """Games won in the current vaca."""
        return {"A": self.game_wins[0], "B": self.game_wins[1]}

    @property
    def vacas(self) -> Score:
        """Vacas won in the match."""
        return {"A": self.vaca_wins[0], "B": self.vaca_wins[1]}

    @property
    def over(self) -> bool:
        """True once a team has won the match."""
        return self.winner is not None

    def _check(self, team: str) -> int:
        if self.over:
            raise BettingError(f"the match is over: team {self.winner} won it")
        other_team(team)
        return TEAMS.index(team)

    def add_stones(self, team: str, n: int) -> Match:
        """``team`` scores ``n`` stones; reaching the target wins the game (RULES.md §8)."""
        i = self._check(team)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BettingError(f"stones scored must be a whole number ≥ 0, not {n!r} (nobody loses stones, RULES.md §12)")
        s = list(self.stones)
        s[i] += n
        m = replace(self, stones=(s[0], s[1]))
        if s[i] >= self.rules.target:
            return m.win_game(team, f"with {s[i]} stones")
        return m

    def win_game(self, team: str, how: str = "") -> Match:
        """``team`` wins the current game (reaching the target, or an accepted órdago); the score resets to 0-0."""
        i = self._check(team)
        g = list(self.game_wins)
        g[i] += 1
        v = list(self.vaca_wins)
        events = [*self.events, f"Team {team} wins a game{' ' + how if how else ''}."]
        winner = None
        if g[i] >= self.rules.games_per_vaca:
            v[i] += 1
            events.append(f"Team {team} wins a vaca ({g[0]}-{g[1]} in games).")
            g = [0, 0]
            if v[i] >= self.rules.vacas_per_match:
                winner = team
                events.append(f"Team {team} wins the match ({v[0]}-{v[1]} in vacas).")
        return replace(
            self, stones=(0, 0), game_wins=(g[0], g[1]), vaca_wins=(v[0], v[1]), winner=winner, events=tuple(events)
        )

    def after_hand(self, result: CountResult) -> Match:
        """The match after a counted hand: stones, or a game won and perhaps a vaca (RULES.md §8, §10).

        ``result`` must start from this match's score.

        Raises :class:`BettingError` when ``result.start_score`` is not the current score.
        """
        if self.over:
            raise BettingError(f"the match is over: team {self.winner} won it")
        if result.start_score != self.score:
            raise BettingError(
                f"that hand starts at {_score_str(result.start_score)}, but the game stands at {_score_str(self.score)}"
            )
        if result.game_over:
            assert result.game_winner is not None
            how = "by órdago" if result.ordago else f"({result.final_score['A']}-{result.final_score['B']})"
            return self.win_game(result.game_winner, how)
        f = result.final_score
        return replace(self, stones=(f["A"], f["B"]))

    def describe(self) -> str:
        """The match in words, with each team's stones in amarracos."""
        if self.over:
            return f"Team {self.winner} has won the match (vacas {self.vaca_wins[0]}-{self.vaca_wins[1]})."
        parts = [f"Team {t}: {describe_score(self.stones[i], self.rules)}" for i, t in enumerate(TEAMS)]
        games = f"games {self.game_wins[0]}-{self.game_wins[1]} (first to {self.rules.games_per_vaca} takes the vaca)"
        vacas = f"vacas {self.vaca_wins[0]}-{self.vaca_wins[1]} (first to {self.rules.vacas_per_match} takes the match)"
        return "; ".join(parts) + f"; {games}; {vacas}."

