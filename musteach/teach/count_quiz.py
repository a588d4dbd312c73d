"""Pure logic for the betting quiz and the count quiz (RULES.md §6–§8); no Jupyter import.

Betting quiz: "given this betting sequence, who takes how many stones now?" (the deje, RULES.md §6).

>>> q = betting_question(3, kind="rejected")
>>> q.answer == {t: q.state.outcome.deje if t == q.state.outcome.winner_team else 0 for t in "AB"}
True
>>> g = q.grade(q.answer)
>>> g.correct, g.headline
(True, 'Right!')

Count quiz: "type each team's stones per lance" for a whole hand (RULES.md §7, §8).

>>> c = count_question(5)
>>> list(c.answer) == [lance.value for lance in c.result.lances]
True
>>> c.grade(c.answer).correct
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import Text, speaking, translator
from ..rules.betting import TEAMS, LanceBetting, lances_played, random_betting, start_betting
from ..rules.cards import Hand, deal
from ..rules.count import CountResult, count_hand
from ..rules.errors import MusError
from ..rules.lances import DealResult, Lance, evaluate
from ..rules.options import Rules
from . import labels
from .mistakes import Diagnosed, diagnose_betting, diagnose_count
from .verdict import Verdict
from .why_wrong import why_betting_wrong, why_count_wrong

__all__ = [
    "BettingQuestion",
    "CountAnswerError",
    "CountQuestion",
    "MAX_TYPED_STONES",
    "QuizGrade",
    "TypedStonesError",
    "read_typed_stones",
    "said_lines",
    "betting_question",
    "count_question",
    "grade_betting",
    "grade_count",
]

BETTING_KINDS = ("rejected", "accepted", "paso", "ordago_accepted")


class CountAnswerError(MusError):
    """An answer to a betting or count quiz that is not stones per team (e.g. a negative number)."""


#: The grade of a betting or count answer: a :class:`~musteach.teach.verdict.Verdict` whose ``wrong`` names the
#: parts answered wrongly and whose ``steps`` explain it step by step (the name is kept for older code).
QuizGrade = Verdict


#: The most stones a box accepts: far more than one hand can give.
MAX_TYPED_STONES = 999


class TypedStonesError(CountAnswerError):
    """Something typed in a stones box that is not a number of stones (shown as a hint; nothing is scored)."""


def read_typed_stones(text: str, where: str) -> int:
    """A whole number of stones (0..:data:`MAX_TYPED_STONES`) from what a learner typed in a box for
    ``where`` (``"team A"``, in the learner's language); raises :class:`TypedStonesError` with a friendly
    sentence otherwise (RULES.md §7).

    >>> read_typed_stones(" 3 ", "team A")
    3
    """
    t = str(text).strip()
    if not t:
        raise TypedStonesError(
            Text("the box for {where} is empty: type a number of stones (0 if they take none).", where=where)
        )
    if re.fullmatch(r"-\s*\d+", t):
        raise TypedStonesError(
            Text("{where}: {value} is negative, but nobody loses stones in Mus; type 0 or more.", where=where, value=t)
        )
    if not re.fullmatch(r"\d+", t):
        raise TypedStonesError(
            Text("{where}: type a whole number such as 0, 2 or 5, not {value}.", where=where, value=repr(t))
        )
    v = int(t)
    if v > MAX_TYPED_STONES:
        raise TypedStonesError(
            Text(
                "{where}: {value} is far more stones than a hand gives; type a number from 0 to {most}.",
                where=where, value=v, most=MAX_TYPED_STONES,
            )
        )  # fmt: skip
    return v


def _rng(seed: random.Random | int | None) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def _stones_answer(answer: Any, where: str) -> dict[str, int]:
    """``{"A": n, "B": n}`` from a mapping or an (A, B) pair; raises :class:`CountAnswerError`."""
    if isinstance(answer, Mapping):
        extra = sorted(str(k) for k in answer if k not in TEAMS)
        if extra:
            raise CountAnswerError(
                Text("{where}: unknown team(s) {teams}; teams are A and B", where=where, teams=", ".join(extra))
            )
        pairs = [(t, answer.get(t, 0)) for t in TEAMS]
    elif isinstance(answer, Sequence) and not isinstance(answer, str | bytes) and len(answer) == 2:
        pairs = list(zip(TEAMS, answer, strict=True))
    else:
        raise CountAnswerError(
            Text("{where}: give stones per team as {{'A': n, 'B': n}}, not {value}", where=where, value=repr(answer))
        )
    out: dict[str, int] = {}
    for t, v in pairs:
        if isinstance(v, str) and v.strip().isdigit():
            v = int(v.strip())
        if isinstance(v, str) and not v.strip():
            v = 0
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise CountAnswerError(
                Text("{where}: team {team}'s stones must be a whole number ≥ 0, not {value}", where=where, team=t, value=repr(v))
            )
        out[t] = v
    return out


def _pair(d: Mapping[str, int]) -> str:
    return f"A {d['A']}, B {d['B']}"


# ----------------------------------------------------------------------------------------------
# Betting quiz
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BettingQuestion:
    """A betting sequence to read; the answer is the stones each team takes *now* (RULES.md §6).

    state: the closed :class:`~musteach.rules.betting.LanceBetting` (its steps explain the answer).
    lines: the sequence as plain lines, ``"Seat 0: envido 2"`` (no answer in them).
    prompt: the question. answer: ``{"A": n, "B": n}``: the deje for a refused bet when dejes are scored
    at once, else 0 and 0 (an accepted or passed lance is settled in the count).
    """

    state: LanceBetting
    lines: tuple[str, ...]
    prompt: str
    answer: dict[str, int]

    @property
    def lance(self) -> Lance:
        return self.state.lance

    @property
    def mano(self) -> int:
        return self.state.mano

    def diagnosis(self, given: Any) -> Diagnosed | None:
        """The diagnosis of ``given`` (:func:`~musteach.teach.mistakes.diagnose_betting`; RULES.md §6), or None when it is
        right; raises like :meth:`grade`."""
        return diagnose_betting(self, given)

    def grade(self, answer: Any) -> Verdict:
        """Same as :func:`grade_betting`."""
        return grade_betting(self, answer)


def _lines(state: LanceBetting) -> tuple[str, ...]:
    _ = translator()
    return tuple(_("Seat {seat}: {action}", seat=s.seat, action=str(s.action)) for s in state.steps if s.seat is not None)


def said_lines(bettings: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """What each seat said in each lance's betting, as a table row words it (``"seat 0: envido 2"``), in the
    language being spoken: the closed :class:`LanceBetting` of each lance, keyed by lance name (other values are
    skipped). RULES.md §6."""
    _ = translator()
    return {
        k: tuple(_(labels.SEAT_SAID, seat=s.seat, action=s.action) for s in v.steps if s.seat is not None)
        for k, v in bettings.items()
        if isinstance(v, LanceBetting)
    }


def betting_question(
    seed: random.Random | int | None = None,
    *,
    kind: str | None = None,
    lance: Lance | str | None = None,
    mano: int | None = None,
    participants: Sequence[int] | None = None,
    rules: Rules | None = None,
    lang: str | None = None,
) -> BettingQuestion:
    """A random legal betting sequence and its answer (same seed, same question), its words in ``lang``
    (None: the language being spoken, :func:`musteach.i18n.speaking`).

    kind: the outcome wanted: ``"rejected"``, ``"accepted"``, ``"paso"``, ``"ordago_accepted"``, or None
    (mostly rejected, since that is where stones move at once). lance: default random among Grande, Chica,
    Pares, Juego. participants: the seats speaking (default: all four for Grande/Chica, a random set of
    holders on both teams for Pares/Juego). Raises :class:`CountAnswerError` for an unknown kind.
    """
    with speaking(lang):
        return _betting_question(seed, kind, lance, mano, participants, rules)


def _holders_of_both_teams(rng: random.Random) -> list[int]:
    """Random seats holding pares or juego, on both teams (so that they bet, RULES.md §4)."""
    while True:
        seats = [s for s in range(4) if rng.random() < 0.7]
        if {s % 2 for s in seats} == {0, 1}:
            return seats


def _betting_of_kind(fresh: LanceBetting, kind: str, rng: random.Random) -> LanceBetting:
    """A random betting from ``fresh`` that ends as ``kind`` (an outcome type), in up to 500 tries."""
    for _ in range(500):
        bet_chance = 0.15 if kind == "paso" else 0.9
        state = random_betting(fresh, rng, ordago=True, bet_chance=bet_chance)
        assert state.outcome is not None
        if state.outcome.type == kind:
            return state
    raise CountAnswerError(Text("could not build a {kind} betting question", kind=repr(kind)))  # pragma: no cover


def _betting_question(
    seed: random.Random | int | None,
    kind: str | None,
    lance: Lance | str | None,
    mano: int | None,
    participants: Sequence[int] | None,
    rules: Rules | None,
) -> BettingQuestion:
    rng = _rng(seed)
    rules = rules or Rules()
    if kind is None:
        kind = rng.choice(("rejected", "rejected", "rejected", "accepted", "paso"))
    if kind not in BETTING_KINDS:
        raise CountAnswerError(
            Text("unknown betting question kind {kind}: use {kinds}", kind=repr(kind), kinds=", ".join(BETTING_KINDS))
        )
    lance = Lance.parse(lance) if lance is not None else rng.choice((Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO))
    mano = rng.randrange(4) if mano is None else mano
    if participants is None and lance in (Lance.PARES, Lance.JUEGO):
        participants = _holders_of_both_teams(rng)
    state = _betting_of_kind(LanceBetting.start(lance, mano, participants, rules), kind, rng)
    o = state.outcome
    assert o is not None
    answer = {"A": 0, "B": 0}
    if o.type == "rejected" and rules.deje_timing == "immediate":
        answer[o.winner_team] = o.deje  # type: ignore[index]
    _ = translator()
    who = ", ".join(_("seat {seat}", seat=s) for s in state.participants)
    prompt = _(
        "{lance} betting, mano seat {mano} (team A = seats 0 and 2, team B = seats 1 and 3; speaking: {who}). "
        "How many stones does each team take now, during the betting?",
        lance=lance.title, mano=mano, who=who,
    )  # fmt: skip
    return BettingQuestion(state, _lines(state), prompt, answer)


def grade_betting(question: BettingQuestion, answer: Any) -> Verdict:
    """Grade stones-now per team (``{"A": n, "B": n}`` or ``(a, b)``) with the step-by-step reasons.

    Raises :class:`CountAnswerError` for an answer that is not whole stones per team. The words are in the
    language being spoken (:func:`musteach.i18n.speaking`).
    """
    _ = translator()
    given = _stones_answer(answer, _("answer"))
    exp = question.answer
    wrong = tuple(t for t in TEAMS if given[t] != exp[t])
    o = question.state.outcome
    assert o is not None
    steps = list(question.state.texts())
    if o.type == "rejected":
        if question.state.rules.deje_timing == "immediate":
            rule = _(
                "A refused bet pays 1 stone if it was the first bet, otherwise the previous total: here team "
                "{team} takes {deje} now (RULES.md §6).",
                team=o.winner_team, deje=o.deje,
            )  # fmt: skip
        else:
            rule = _(
                "With dejes scored at the end, nobody takes stones now; team {team}'s deje of {deje} waits for the count.",
                team=o.winner_team, deje=o.deje,
            )  # fmt: skip
    elif o.type == "accepted":
        rule = _(
            "An accepted bet moves no stones now: the best {lance} takes {stake} in the count (RULES.md §7).",
            lance=question.lance.said, stake=o.stake,
        )  # fmt: skip
    elif o.type == "ordago_accepted":
        rule = _("An accepted órdago moves no stones: the best hand of the lance wins the whole game (RULES.md §6).")
    else:
        rule = _("Everybody passed: no stones now; the lance is decided en paso in the count (RULES.md §7).")
    steps.append(rule)
    if wrong:  # the learner's own answer, last (issue 12)
        steps.append(why_betting_wrong(o, exp, given, question.state.rules))
    if not wrong:
        headline = _("Right!")
    else:
        headline = _("Not quite: the answer is {answer}, you said {given}.", answer=_pair(exp), given=_pair(given))
    return Verdict(not wrong, dict(exp), given, " ".join(steps), None, headline, tuple(steps), wrong)


# ----------------------------------------------------------------------------------------------
# Count quiz
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CountQuestion:
    """A whole hand to count: the answer is each team's stones per lance (RULES.md §7, §8).

    deal: the judged deal (hands by seat, mano, rules). start_score: the game score before the hand.
    bettings: each played lance's closed :class:`LanceBetting`, keyed by lance name.
    betting_lines: the same as plain lines per lance (``"Seat 0: envido 2"``; ``()`` when nobody bet).
    result: the :class:`~musteach.rules.count.CountResult`; answer: ``{lance: {"A": n, "B": n}}``.
    """

    deal: DealResult
    start_score: dict[str, int]
    bettings: dict[str, LanceBetting]
    betting_lines: dict[str, tuple[str, ...]]
    result: CountResult

    @property
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        return self.deal.hands

    @property
    def mano(self) -> int:
        return self.deal.mano

    @property
    def answer(self) -> dict[str, dict[str, int]]:
        return {k: dict(v) for k, v in self.result.stones.items()}

    @property
    def prompt(self) -> str:
        """The question, in the language being spoken (:func:`musteach.i18n.speaking`)."""
        r = self.result
        _ = translator()
        return _(
            "Mano is seat {mano}; the score is {score} (game to {target}). "
            "Count the hand: how many stones does each team take in {lances}?",
            mano=self.mano, score=_pair(self.start_score), target=r.rules.target,
            lances=", ".join(lc.title for lc in r.lances),
        )  # fmt: skip

    def diagnosis(self, given: Any) -> Diagnosed | None:
        """The diagnosis of ``given`` (:func:`~musteach.teach.mistakes.diagnose_count`; RULES.md §7, §8), or None when it is
        right; raises like :meth:`grade`."""
        return diagnose_count(self, given)

    def grade(self, answer: Any) -> Verdict:
        """Same as :func:`grade_count`."""
        return grade_count(self, answer)


def count_question(
    seed: random.Random | int | None = None,
    *,
    rules: Rules | None = None,
    start_score: Mapping[str, int] | None = None,
    near_end: bool = False,
    allow_ordago: bool = False,
    lang: str | None = None,
) -> CountQuestion:
    """A random deal with random legal betting in every lance, and its count (same seed, same question).

    start_score: the score before the hand (default 0-0, or near the target when ``near_end``, so that the
    game may end part-way). allow_ordago: whether an accepted órdago may end the hand (default: no).
    lang: the language of the betting lines (None: the one being spoken).
    """
    rng = _rng(seed)
    rules = rules or Rules()
    d = evaluate(deal(rng), rng.randrange(4), rules)
    if start_score is None:
        if near_end:
            start_score = {t: rng.randrange(rules.target - 8, rules.target) for t in TEAMS}
        else:
            start_score = {"A": 0, "B": 0}
    bettings: dict[str, LanceBetting] = {}
    for lance in lances_played(d):
        fresh = start_betting(d, lance, rules)
        for _ in range(200):
            b = random_betting(fresh, rng, bet_chance=0.4)
            if allow_ordago or b.outcome is None or b.outcome.type != "ordago_accepted":
                break
        bettings[lance.value] = b
    result = count_hand(d, start_score=start_score, betting=bettings)
    with speaking(lang):
        lines = {k: _lines(b) for k, b in bettings.items()}
    return CountQuestion(d, dict(result.start_score), bettings, lines, result)


def grade_count(question: CountQuestion, answer: Any) -> Verdict:
    """Grade ``{lance: {"A": n, "B": n}}`` (a missing lance or team counts as 0) against the count.

    Returns a :class:`~musteach.teach.verdict.Verdict` whose ``wrong`` names the lances answered wrongly and whose ``steps``
    are the count's explanation. Raises :class:`CountAnswerError` for an answer of the wrong shape. The words
    are in the language being spoken (:func:`musteach.i18n.speaking`).
    """
    _ = translator()
    if not isinstance(answer, Mapping):
        raise CountAnswerError(
            Text("give stones per lance as {{lance: {{'A': n, 'B': n}}}}, not {value}", value=repr(answer))
        )
    expected = question.answer
    extra = sorted(str(k) for k in answer if k not in expected)
    if extra:
        raise CountAnswerError(Text("answer names lance(s) not played in this hand: {lances}", lances=", ".join(extra)))
    given = {k: _stones_answer(answer.get(k, {}), k) for k in expected}
    wrong = tuple(k for k in expected if given[k] != expected[k])
    if not wrong:
        headline = _("Right!")
    else:
        parts = [
            _("{lance} is {answer}, not {given}", lance=Lance(k).title, answer=_pair(expected[k]), given=_pair(given[k]))
            for k in wrong
        ]
        headline = _("Not quite: {parts}.", parts="; ".join(parts))
    steps = tuple(question.result.explanation)
    if wrong:  # the learner's own answer, last (issue 12)
        steps += (why_count_wrong(question.result, given),)
    return Verdict(not wrong, expected, given, " ".join(steps), None, headline, steps, wrong)

