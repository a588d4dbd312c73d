"""The count (*recuento*) of a whole hand, the end of a game, and keeping score (RULES.md §6–§10).

Give the four hands, the mano, the rules, the score before the hand and each lance's betting outcome
(the ``scoring.json`` form of RULES.md §7a, :class:`~musteach.rules.betting.BettingOutcome` values, or closed
:class:`~musteach.rules.betting.LanceBetting` states). Who wins each lance comes from the evaluator
(:func:`musteach.rules.lances.evaluate`); this module only adds up stones (*piedras*).
Scores in amarracos and the match (games, vacas) are in :mod:`.match`, re-exported here.

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
from dataclasses import dataclass, field
from typing import Any, Literal

from ..i18n import Text, speaking, translator
from .betting import (
    TEAMS,
    BettingOutcome,
    LanceBetting,
    chain_text,
    declarations,
    lances_played,
    stones_text,
)
from .errors import BettingError, RulesError, shown
from .lances import DealResult, Lance, LanceResult, evaluate, team_of
from .match import Match, describe_score, from_amarracos, is_dentro, to_amarracos
from .options import Rules

__all__ = [
    "CountResult",
    "CountStep",
    "EndPhaseName",
    "GameEnd",
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

#: The phases in which a game can end during a hand (RULES.md §8): a refused bet's deje, the count, an órdago.
EndPhaseName = Literal["betting", "count", "ordago"]
_END_PHASES: tuple[EndPhaseName, ...] = ("betting", "count", "ordago")


class GameEnd(str):
    """Where a game ended during a hand (RULES.md §7a, §8): its :attr:`phase` and its :attr:`lance`.

    phase: ``"betting"`` (a refused bet's deje reached the target), ``"count"`` (the count reached it) or
    ``"ordago"`` (an accepted órdago). It is also the ``scoring.json`` text ``"phase:lance"`` (a ``str``), so it
    compares, prints and serialises as that text. Raises :class:`RulesError` for an unknown phase or lance.

    >>> end = GameEnd("ordago", "grande")
    >>> end, end.phase, end.lance.title, end.is_ordago, end == "ordago:grande"
    ('ordago:grande', 'ordago', 'Grande', True, True)
    >>> GameEnd.parse("count:pares").lance
    <Lance.PARES: 'pares'>
    """

    __slots__ = ()

    def __new__(cls, phase: str, lance: Lance | str) -> GameEnd:
        if phase not in _END_PHASES:
            raise RulesError(Text("a game ends in {phases}, not {value} (RULES.md §8)", phases=", ".join(_END_PHASES), value=shown(phase)))
        return super().__new__(cls, f"{phase}:{Lance.parse(lance).value}")

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]  # str's takes no phase: rebuilt from both parts
        return (self.phase, self.lance.value)

    @classmethod
    def parse(cls, text: str) -> GameEnd:
        """A :class:`GameEnd` from its text ``"phase:lance"``; raises :class:`RulesError` naming a bad text."""
        phase, sep, lance = str(text).partition(":")
        if not sep:
            raise RulesError(Text("a game's end reads phase:lance, such as ordago:grande, not {value}", value=shown(text)))
        return cls(phase, lance)

    @property
    def phase(self) -> EndPhaseName:
        """``"betting"``, ``"count"`` or ``"ordago"``."""
        phase = self.partition(":")[0]
        assert phase in _END_PHASES
        return phase

    @property
    def lance(self) -> Lance:
        """The lance in which the game ended."""
        return Lance(self.partition(":")[2])

    @property
    def is_ordago(self) -> bool:
        """True when an accepted órdago decided the game (the score then stays where the hand began)."""
        return self.phase == "ordago"


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
    game_over, game_winner (``"A"``, ``"B"`` or None), ended_at (None or a :class:`GameEnd`, which reads
    ``"betting:chica"``, ``"count:pares"`` or ``"ordago:grande"``). steps: the :class:`CountStep` list, in order.
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
    ended_at: GameEnd | None
    steps: tuple[CountStep, ...]

    @property
    def explanation(self) -> list[str]:
        """Every step's sentence, in order."""
        return [s.text for s in self.steps]

    @property
    def ordago(self) -> bool:
        """True when an accepted órdago decided the game."""
        return self.ended_at is not None and self.ended_at.is_ordago

    def total_sentence(self, team: str | None = None, lang: str | None = None) -> str:
        """The hand's last line for a learner on ``team`` (``"A"``, ``"B"`` or None): the score after the hand,
        or, after an accepted órdago, who won the game and that the score stays where the hand began (§7a).
        lang: the language (None: the one being spoken, see :func:`musteach.i18n.speaking`).

        >>> r = count_case({"hands": {"0": "12o 12c 12e 7b", "1": "1o 1c 4e 5b", "2": "6o 6c 5e 4b",
        ...     "3": "7o 7c 10e 11b"}, "mano_seat": 0, "variant": "8reyes", "target": 40,
        ...     "start_score": {"A": 16, "B": 12}, "betting": {"grande": {"type": "ordago_accepted"}}})
        >>> r.total_sentence("B")
        'Team A won the game with the accepted órdago in Grande; the score stays at A 16, B 12, where the hand began (you are team B).'
        """
        _ = translator(lang)
        fa, fb = self.final_score["A"], self.final_score["B"]
        if self.ordago and self.ended_at is not None:
            lance = self.ended_at.lance
            said = {"winner": self.game_winner, "lance": lance.title, "a": fa, "b": fb}
            if team:
                return _(
                    "Team {winner} won the game with the accepted órdago in {lance}; the score stays at A {a}, B {b}, "
                    "where the hand began (you are team {team}).",
                    team=team,
                    **said,
                )
            return _(
                "Team {winner} won the game with the accepted órdago in {lance}; the score stays at A {a}, B {b}, "
                "where the hand began.",
                **said,
            )
        if team:
            return _("After this hand: team A {a}, team B {b} (you are team {team}).", a=fa, b=fb, team=team)
        return _("After this hand: team A {a}, team B {b}.", a=fa, b=fb)

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
        raise BettingError(
            Text("{where} must be {{'A': stones, 'B': stones}}, not {value} (RULES.md §7a)", where=where, value=shown(score))
        )
    extra = sorted(str(k) for k in score if k not in TEAMS)
    if extra:
        raise BettingError(
            Text("{where} has unknown team(s) {teams}: teams are A and B (RULES.md §0)", where=where, teams=", ".join(extra))
        )
    out: Score = {}
    for t in TEAMS:
        v = score.get(t, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise BettingError(Text("{where}.{team} must be a whole number of stones ≥ 0, not {value}", where=where, team=t, value=shown(v)))
        if v >= rules.target:
            raise BettingError(
                Text(
                    "{where}.{team} is {value}: team {team} has already won the game at {target} (RULES.md §8)",
                    where=where,
                    team=t,
                    value=shown(v),
                    target=rules.target,
                )
            )
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
        raise BettingError(Text("betting must be an object keyed by lance, not {value} (RULES.md §7a)", value=repr(betting)))
    played = lances_played(deal)
    decl = declarations(deal)
    names = {lance.value for lance in Lance}
    for k in betting:
        if k not in names:
            raise BettingError(Text("betting has an unknown lance {lance}: grande, chica, pares, juego or punto", lance=repr(k)))
    out: dict[str, BettingOutcome] = {}
    for lance in Lance:
        key = lance.value
        o = _given_outcome(lance, betting.get(key))
        if lance not in played:
            if o is not None and o.type not in ("paso", "no_bet"):
                raise BettingError(_not_played_text(lance, o))
            continue
        if lance in (Lance.PARES, Lance.JUEGO) and not decl[key].bettable:
            if o is not None and o.type not in ("paso", "no_bet"):
                raise BettingError(_no_round_text(lance, o, decl[key].holder_teams))
            out[key] = BettingOutcome.no_bet()
            continue
        if o is not None and o.type == "no_bet":
            raise BettingError(_round_text(lance))
        out[key] = o or BettingOutcome.paso()
    return out


def _given_outcome(lance: Lance, raw: Any) -> BettingOutcome | None:
    """The outcome given for ``lance`` (a dict, a :class:`BettingOutcome` or a closed :class:`LanceBetting`), or None."""
    key = lance.value
    if isinstance(raw, LanceBetting):
        if raw.outcome is None:
            raise BettingError(Text("betting.{lance}: the betting is not over yet (seat {seat} to speak)", lance=key, seat=raw.next_seat))
        if raw.lance is not lance:
            raise BettingError(Text("betting.{lance}: that betting state is for {other}", lance=key, other=raw.lance.title))
        raw = raw.outcome
    return None if raw is None else BettingOutcome.from_dict(raw, f"betting.{key}")


def _not_played_text(lance: Lance, o: BettingOutcome) -> Text:
    """Why a lance that is not played cannot have a bet (RULES.md §4)."""
    key = lance.value
    if lance is Lance.JUEGO:
        return Text(
            "betting.{lance} is {type}, but {lance} is not played: nobody has juego, so Punto is played "
            "instead (RULES.md §4)",
            lance=key,
            type=repr(o.type),
        )
    return Text(
        "betting.{lance} is {type}, but {lance} is not played: somebody has juego (RULES.md §4)",
        lance=key,
        type=repr(o.type),
    )


def _no_round_text(lance: Lance, o: BettingOutcome, holder_teams: tuple[str, ...]) -> Text:
    """Why Pares or Juego held by at most one team cannot have a bet (RULES.md §4)."""
    key = lance.value
    if holder_teams:
        return Text(
            "betting.{lance} is {type}, but only team {team} holds {lance}, so there is no betting: "
            "use no_bet (RULES.md §4)",
            lance=key,
            type=repr(o.type),
            team=holder_teams[0],
        )
    return Text(
        "betting.{lance} is {type}, but nobody holds {lance}, so there is no betting: use no_bet "
        "(RULES.md §4)",
        lance=key,
        type=repr(o.type),
    )


def _round_text(lance: Lance) -> Text:
    """Why a lance with a betting round cannot be ``no_bet`` (RULES.md §4)."""
    key = lance.value
    if lance in (Lance.PARES, Lance.JUEGO):
        return Text(
            "betting.{lance} is 'no_bet', but both teams hold {lance}, so there is a betting round: use paso "
            "if everybody passed (RULES.md §4)",
            lance=key,
        )
    return Text(
        "betting.{lance} is 'no_bet', but {title} always has a betting round: use paso if everybody passed "
        "(RULES.md §4)",
        lance=key,
        title=lance.title,
    )


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
    _ = translator()
    return _("(A {a}, B {b})", a=score["A"], b=score["B"])


def _breakdown(terms: list[tuple[str, int]]) -> tuple[int, str]:
    """The total of ``(name, stones)`` terms and its breakdown, ``"3 stones: the deje (1) + punto (2)"``, in words."""
    _ = translator()
    total = sum(v for _name, v in terms)
    parts = " + ".join(_("{term} ({stones})", term=name, stones=v) for name, v in terms)
    return total, _("{stones}: {terms}", stones=stones_text(total, _.lang), terms=parts)


def _jugada_term(seat: int, jugada: str) -> str:
    _ = translator()
    return _("seat {seat}'s {jugada}", seat=seat, jugada=jugada)


def _best(res: LanceResult) -> dict[str, object]:
    """The best hand of a lance as sentence parameters: ``seat`` and its ``jugada``."""
    w = res.winner
    assert w is not None
    return {"seat": w, "jugada": res.jugadas[w]}


def score_lance(
    deal: DealResult, lance: Lance, o: BettingOutcome, rules: Rules, *, lang: str | None = None
) -> tuple[str | None, int, str]:
    """What one lance adds in the count, by the table of RULES.md §7: ``(team, stones, sentence)``.

    deal: the judged deal; lance: a lance played in it; o: its betting outcome (as checked by
    :func:`resolve_betting`); rules: for ``deje_timing`` and the punto bonuses (RULES.md §13).
    team is ``"A"``, ``"B"`` or None when the lance scores nothing; stones are piedras; the sentence has no
    score at its end and is in ``lang`` (None: the language being spoken, :func:`musteach.i18n.speaking`). A deje already
    paid during the betting (``deje_timing="immediate"``) is not counted again; an accepted órdago is not
    counted at all (see :func:`count_hand`).

    >>> deal = evaluate([["12o", "12c", "3o", "7o"], ["1o", "1c", "4o", "5o"],
    ...                  ["11o", "11c", "10o", "1e"], ["6o", "6c", "5c", "4c"]], mano=0)
    >>> score_lance(deal, Lance.PARES, BettingOutcome.paso(), Rules())
    ('A', 3, "Pares: seat 0's medias of kings is best; en paso team A takes 3 stones: seat 0's medias of kings (2) + seat 2's par of caballos (1)")
    """
    with speaking(lang):
        return _score_lance(deal, lance, o, rules)


def _score_lance(deal: DealResult, lance: Lance, o: BettingOutcome, rules: Rules) -> tuple[str | None, int, str]:
    if o.type == "rejected":
        return _refused_lance(deal, lance, o, rules)
    if lance in (Lance.GRANDE, Lance.CHICA, Lance.PUNTO):
        return _best_hand_lance(deal, lance, o, rules)
    return _jugada_lance(deal, lance, o)


def _refused_lance(deal: DealResult, lance: Lance, o: BettingOutcome, rules: Rules) -> tuple[str | None, int, str]:
    """What a lance whose last bet was refused adds in the count: the deje if scored at the end, and the bettors'
    own pares, juego or punto (RULES.md §7)."""
    _ = translator()
    res = deal[lance]
    title = lance.title
    immediate = rules.deje_timing == "immediate"
    t = res.team
    bt = o.winner_team
    assert bt is not None
    terms: list[tuple[str, int]] = [] if immediate else [(_("the deje"), o.deje)]
    if lance in (Lance.PARES, Lance.JUEGO):
        terms += [(_jugada_term(s, j), v) for s, j, v in jugada_values(deal, lance, bt)]
    elif lance is Lance.PUNTO and rules.punto_bonus_on_refusal:
        terms.append(("punto", 1))
    said: dict[str, object] = {"lance": title, "team": bt, "deje": o.deje}
    if not terms:
        return None, 0, _(
            "{lance}: team {team}'s bet was refused and its deje of {deje} was taken during the betting; nothing "
            "more is counted",
            **said,
        )
    total, text = _breakdown(terms)
    said["stones"] = text
    if lance in (Lance.PARES, Lance.JUEGO) and t is not None and t != bt:
        best = {f"best_{k}": v for k, v in _best(res).items()}
        if immediate:
            return bt, total, _(
                "{lance}: team {team}'s bet was refused and its deje of {deje} was taken during the betting; team "
                "{team} also takes {stones} (its own, although seat {best_seat}'s {best_jugada} is best)",
                **said,
                **best,
            )
        return bt, total, _(
            "{lance}: team {team}'s bet was refused; team {team} takes {stones} (its own, although seat "
            "{best_seat}'s {best_jugada} is best)",
            **said,
            **best,
        )
    if immediate:
        return bt, total, _(
            "{lance}: team {team}'s bet was refused and its deje of {deje} was taken during the betting; team "
            "{team} also takes {stones}",
            **said,
        )
    return bt, total, _("{lance}: team {team}'s bet was refused; team {team} takes {stones}", **said)


def _best_hand_lance(deal: DealResult, lance: Lance, o: BettingOutcome, rules: Rules) -> tuple[str | None, int, str]:
    """What Grande, Chica or Punto pays the best hand: 1 en paso, else the accepted bet (RULES.md §7)."""
    _ = translator()
    res = deal[lance]
    title = lance.title
    w = res.winner
    t = res.team
    assert w is not None and t is not None
    if o.type == "paso":
        return t, 1, _("{lance}: seat {seat}'s {jugada} is best; en paso it pays 1 stone to team {team}", lance=title, team=t, **_best(res))
    stake = o.stake
    assert stake is not None
    if lance is Lance.PUNTO and rules.punto_bonus_when_accepted:
        total, text = _breakdown([(_("the accepted bet"), stake), ("punto", 1)])
        return t, total, _(
            "{lance}: seat {seat}'s {jugada} is best; team {team} takes {stones}", lance=title, team=t, stones=text, **_best(res)
        )
    return t, stake, _(
        "{lance}: seat {seat}'s {jugada} is best; the accepted bet pays {stones} to team {team}",
        lance=title,
        team=t,
        stones=stones_text(stake, _.lang),
        **_best(res),
    )


def _jugada_lance(deal: DealResult, lance: Lance, o: BettingOutcome) -> tuple[str | None, int, str]:
    """What Pares or Juego pays: the best team's jugadas, plus the accepted bet (RULES.md §7)."""
    _ = translator()
    res = deal[lance]
    title = lance.title
    w = res.winner
    t = res.team
    if w is None:
        return None, 0, _("{lance}: nobody holds {name}, so it scores nothing", lance=title, name=lance.value)
    assert t is not None
    vals = [(_jugada_term(s, j), v) for s, j, v in jugada_values(deal, lance, t)]
    if o.type == "no_bet":
        total, text = _breakdown(vals)
        return t, total, _(
            "{lance}: only team {team} holds {name} (no betting); team {team} takes {stones}",
            lance=title,
            team=t,
            name=lance.value,
            stones=text,
        )
    if o.type == "paso":
        total, text = _breakdown(vals)
        return t, total, _(
            "{lance}: seat {seat}'s {jugada} is best; en paso team {team} takes {stones}", lance=title, team=t, stones=text, **_best(res)
        )
    stake = o.stake
    assert stake is not None
    total, text = _breakdown([(_("the accepted bet"), stake), *vals])
    return t, total, _("{lance}: seat {seat}'s {jugada} is best; team {team} takes {stones}", lance=title, team=t, stones=text, **_best(res))


def count_hand(
    hands: DealResult | Sequence[Any],
    mano: int | None = None,
    rules: Rules | None = None,
    start_score: Mapping[str, int] | Sequence[int] | None = None,
    betting: Mapping[str, Any] | None = None,
    *,
    lang: str | None = None,
) -> CountResult:
    """Count a whole hand: dejes during the betting, then Grande, Chica, Pares, Juego/Punto (RULES.md §6–§8).

    hands: 4 hands of 4 cards indexed by seat (or a :class:`DealResult`, whose mano and rules are used).
    mano: the seat 0..3 that speaks first. rules: :class:`Rules` (default 8 reyes to 40).
    start_score: ``{"A": stones, "B": stones}`` before the hand (default 0-0), each below the target.
    betting: ``{lance: outcome}`` as in :func:`resolve_betting` (default: everybody passed).
    lang: the language of the steps' sentences (None: the one being spoken, see :func:`musteach.i18n.speaking`).

    The first team to reach ``rules.target`` wins at that instant: during the betting through a deje
    (``deje_timing="immediate"``) or during the count; nothing after that point is scored. An accepted
    órdago ends the game on the best hand of its lance (holders only for Pares/Juego); the dejes paid before
    it are kept in :attr:`CountResult.stones`, but the score stays where the hand began, from the órdago's
    step on.
    Returns a :class:`CountResult`. Raises :class:`~musteach.rules.errors.MusError` subclasses for bad cards,
    seats, scores or betting outcomes.
    """
    with speaking(lang):
        deal = _judged_deal(hands, mano, rules)
        rules = deal.rules
        start = check_score(start_score, rules)
        outcomes = resolve_betting(deal, betting)
        played = lances_played(deal)
        tally = _Tally(dict(start), {lance.value: {"A": 0, "B": 0} for lance in played}, start=dict(start))
        # 1. The betting, lance by lance; 2. unless the game ended there, the count (RULES.md §8).
        end = _betting_phase(deal, outcomes, played, rules, tally) or _count_phase(deal, outcomes, played, rules, tally)
    winner, ended_at = end if end is not None else (None, None)
    hand_total: Score = {t: sum(v[t] for v in tally.stones.values()) for t in TEAMS}
    final = dict(start) if ended_at is not None and ended_at.is_ordago else dict(tally.score)
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
_Ending = tuple[str, GameEnd]


@dataclass
class _Tally:
    """The running count of one hand: the game score, the stones per lance, and the steps so far.

    start: the score before the hand, which an accepted órdago restores (its dejes no longer count).
    """

    score: Score
    stones: dict[str, Score]
    steps: list[CountStep] = field(default_factory=list)
    start: Score = field(default_factory=dict)

    def add(self, phase: str, lance: Lance | None, team: str | None, n: int, text: str, why: str = "") -> None:
        """Score ``n`` stones to ``team`` in ``lance`` and record the step; its text ends with the new score."""
        if team is not None and n:
            assert lance is not None
            self.score[team] += n
            self.stones[lance.value][team] += n
        _ = translator()
        sentence = _("{sentence} {score}.", sentence=text, score=_score_str(self.score))
        self.steps.append(CountStep(phase, lance, team, n, self.pair(), sentence, why))

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
            raise BettingError(Text("mano {mano} differs from the judged deal's mano {deal_mano}", mano=mano, deal_mano=hands.mano))
        if rules is not None and rules != hands.rules:
            return evaluate(hands.hands, hands.mano, rules)
        return hands
    if mano is None:
        raise BettingError(Text("count_hand needs the mano seat (RULES.md §0)"))
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
    _ = translator()
    bt = o.winner_team
    assert bt is not None
    said = {"lance": lance.title, "team": bt, "chain": chain_text(o.stakes), "stones": stones_text(o.deje, _.lang)}
    if rules.deje_timing != "immediate":
        tally.note(
            "betting",
            lance,
            bt,
            _(
                "{lance} betting: team {team}'s bet ({chain}) was refused; its deje of {stones} is scored at the end, "
                "in the count (deje_timing 'end').",
                **said,
            ),
        )
        return None
    tally.add(
        "betting",
        lance,
        bt,
        o.deje,
        _("{lance} betting: team {team}'s bet ({chain}) was refused; team {team} takes the deje of {stones} at once", **said),
    )
    if tally.score[bt] < rules.target:
        return None
    tally.note(
        "end",
        lance,
        bt,
        _(
            "Team {team} reaches {score} of {target} with that deje and wins the game during the betting of {lance}; "
            "nothing else is played or counted (RULES.md §8).",
            team=bt,
            score=tally.score[bt],
            target=rules.target,
            lance=lance.title,
        ),
    )
    return bt, GameEnd("betting", lance)


def _accepted_ordago(deal: DealResult, lance: Lance, tally: _Tally) -> _Ending:
    """An accepted órdago: the hands are shown and the best hand of the lance wins the game (RULES.md §6).

    The game is decided by the órdago, not by stones: the dejes paid earlier in the hand no longer count, so from
    this step on the score is the one the hand began with (the dejes stay in the stones, for the record)."""
    res = deal[lance]
    assert res.winner is not None and res.team is not None
    tally.score = dict(tally.start)
    _ = translator()
    tally.note(
        "ordago",
        lance,
        res.team,
        _(
            "{lance} betting: the órdago was accepted, so the hands are shown at once: seat {seat}'s {jugada} is best, "
            "and team {team} wins the game; nothing else is counted (RULES.md §6).",
            lance=lance.title,
            team=res.team,
            **_best(res),
        ),
        res.explanation,
    )
    return res.team, GameEnd("ordago", lance)


def _count_phase(
    deal: DealResult, outcomes: Mapping[str, BettingOutcome], played: Sequence[Lance], rules: Rules, tally: _Tally
) -> _Ending | None:
    """The count, in order Grande, Chica, Pares, Juego/Punto, until a team reaches the target (RULES.md §7, §8)."""
    _ = translator()
    order = ", ".join(lance.title for lance in played)
    tally.note(
        "start",
        None,
        None,
        _("The betting is over: the hands are shown and the count goes {order} {score}.", order=order, score=_score_str(tally.score)),
    )
    for lance in played:
        team, n, text = _score_lance(deal, lance, outcomes[lance.value], rules)
        tally.add("count", lance, team, n, text, deal[lance].explanation)
        if team is not None and tally.score[team] >= rules.target:
            tally.note("end", lance, team, _won_in_count(played, lance, team, tally.score[team], rules.target))
            return team, GameEnd("count", lance)
    return None


def _won_in_count(played: Sequence[Lance], after: Lance, team: str, score: int, target: int) -> str:
    """The sentence of a game won in the count of ``after``, naming the lances it leaves uncounted."""
    _ = translator()
    later = [lance.title for lance in played[played.index(after) + 1 :]]
    said = {"team": team, "score": score, "target": target, "lance": after.title}
    if not later:
        return _(
            "Team {team} reaches {score} of {target} and wins the game during the count of {lance}; that was the last "
            "lance (RULES.md §8).",
            **said,
        )
    return _.ngettext(
        "Team {team} reaches {score} of {target} and wins the game during the count of {lance}; {later} is never "
        "counted (RULES.md §8).",
        "Team {team} reaches {score} of {target} and wins the game during the count of {lance}; {later} are never "
        "counted (RULES.md §8).",
        len(later),
        later=_.join(later),
        **said,
    )


def count_case(case: Mapping[str, Any], *, lang: str | None = None) -> CountResult:
    """Count one case in the ``scoring.json`` schema (RULES.md §7a).

    case: ``{"hands": {"0": [...], ...}, "mano_seat": 0, "variant": "8reyes", "target": 40,
    "start_score": {"A": 0, "B": 0}, "betting": {...}}``; ``id``, ``expected`` and ``why`` are ignored.
    ``hands`` may also be a list of 4 hands; an optional ``rules`` object changes other options
    (e.g. ``{"deje_timing": "end"}``). lang: the language of the sentences (None: the one being spoken).
    Raises :class:`MusError` subclasses naming the bad field.
    """
    with speaking(lang):
        return _count_case(case)


def _count_case(case: Mapping[str, Any]) -> CountResult:
    if not isinstance(case, Mapping):
        raise BettingError(Text("a case must be a JSON object, not {type}", type=type(case).__name__))
    hands_raw = case.get("hands")
    if isinstance(hands_raw, Mapping):
        keys = sorted(str(k) for k in hands_raw)
        if keys != ["0", "1", "2", "3"]:
            raise BettingError(Text("hands must have seats '0', '1', '2', '3', not {keys}", keys=str(keys)))
        hands = [hands_raw[k] if k in hands_raw else hands_raw[int(k)] for k in ("0", "1", "2", "3")]
    elif isinstance(hands_raw, Sequence) and not isinstance(hands_raw, str | bytes):
        hands = list(hands_raw)
    elif hands_raw is None:
        raise BettingError(
            Text("hands is missing: give the 4 hands by seat, {example}", example="{'0': [...], ..., '3': [...]}")
        )
    else:
        raise BettingError(Text("hands must be the 4 hands by seat, {example}, not {value}",
                                example="{'0': [...], ..., '3': [...]}", value=shown(hands_raw)))
    mano = case.get("mano_seat", case.get("mano"))
    if mano is None:
        raise BettingError(Text("mano_seat is missing (the seat that speaks first, RULES.md §0)"))
    options = case.get("rules") or {}
    if not isinstance(options, Mapping):
        raise RulesError(Text("rules must be an object of options, not {value}", value=repr(options)))
    options = dict(options)
    if "target" in case:
        options["target"] = case["target"]
    variant = case.get("variant")
    try:
        rules = Rules.from_variant(variant, **options)
    except TypeError:
        raise RulesError(Text("bad rules options {options}", options=repr(options))) from None
    return count_hand(hands, mano, rules, case.get("start_score"), case.get("betting"))
