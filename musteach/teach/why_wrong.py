"""Why your answer is wrong: one sentence on the learner's own answer in the betting, count and señas quizzes.

The lance quizzes have :mod:`.diagnosis` (which misconception gives the learner's seat); these are its
matches for the other quizzes (issue 12). Each function takes the question's pure data and the learner's
normalised answer, and returns one or two sentences in the learner's terms; ``""`` for a right answer.
Pure Python, no Jupyter.

* :func:`why_betting_wrong`: stones taken during the betting (RULES.md §6).
* :func:`why_count_wrong`: stones per team and lance in the count (RULES.md §7, §8).
* :func:`why_meaning_wrong`: what a seña means (RULES.md §11).

>>> from musteach.rules.betting import BettingOutcome
>>> o = BettingOutcome.from_dict({"type": "rejected", "stakes": [2, 5], "winner_team": "B"})
>>> why_betting_wrong(o, {"A": 0, "B": 1}, {"A": 0, "B": 5})
'You gave team B the 5 stones of the bet that was refused; a refused bet pays what was agreed before it: 2.'
"""

from __future__ import annotations

from collections.abc import Mapping

from ..rules.betting import BettingOutcome
from ..rules.count import CountResult
from ..rules.lances import Lance
from ..rules.options import Rules
from ..rules.senas import get_sena, meaning

__all__ = ["why_betting_wrong", "why_count_wrong", "why_meaning_wrong"]


def _pair(d: Mapping[str, int]) -> str:
    return f"A {d.get('A', 0)}, B {d.get('B', 0)}"


def _other(team: str) -> str:
    return "B" if team == "A" else "A"


def why_betting_wrong(
    outcome: BettingOutcome,
    expected: Mapping[str, int],
    given: Mapping[str, int],
    rules: Rules | None = None,
    *,
    reveal: bool = True,
) -> str:
    """Why ``given`` (``{"A": n, "B": n}`` stones taken now) is not ``expected`` for a betting that ended
    with ``outcome`` (RULES.md §6); ``""`` when they are equal.

    reveal: False leaves out the right number of stones (for the message before a second try)."""
    exp = {t: expected.get(t, 0) for t in "AB"}
    got = {t: given.get(t, 0) for t in "AB"}
    if exp == got:
        return ""
    rules = rules or Rules()
    if outcome.type == "rejected":
        w = outcome.winner_team or "A"
        if rules.deje_timing != "immediate":
            return (
                f"You gave stones now ({_pair(got)}), but at this table dejes are scored at the end: "
                f"team {w}'s deje of {outcome.deje} waits for the count."
            )
        refused = outcome.stakes[-1] if outcome.stakes else None
        deje = f" of {outcome.deje}" if reveal else ""
        if got[_other(w)] > 0 and got[w] == 0:
            return (
                f"You gave the stones to team {_other(w)}, whose side refused; the team whose bet was refused "
                f"(team {w}) takes the deje{deje}."
            )
        if isinstance(refused, int) and got[w] == refused and refused != outcome.deje:
            agreed = f": {outcome.deje}" if reveal else " (1 for a first bet)"
            return (
                f"You gave team {w} the {refused} stones of the bet that was refused; a refused bet pays what "
                f"was agreed before it{agreed}."
            )
        if refused == "ordago" and got[w] > outcome.deje:
            agreed = f", {outcome.deje}" if reveal else ""
            return f"A refused órdago is not the game: team {w} takes only what was agreed before it{agreed}."
        if not reveal:
            return f"Team {w}'s last bet was refused: count again what was agreed before it."
        return f"Team {w}'s last bet was refused, so team {w} takes the deje of {outcome.deje} now, and nobody else."
    if outcome.type == "accepted":
        return (
            f"You moved stones now ({_pair(got)}), but an accepted bet pays nothing during the betting: "
            f"its {outcome.stake} stones go to the best hand in the count."
        )
    if outcome.type == "ordago_accepted":
        return (
            "You moved stones now, but an accepted órdago is settled by showing the hands: the best hand wins the game."
        )
    return "You moved stones now, but everybody passed: the lance is played en paso and scored in the count."


def _seat_bonus(result: CountResult, lance: Lance, seat: int) -> int:
    info = result.deal.infos[seat]
    if lance is Lance.PARES:
        return info.pares.value if info.pares else 0
    if lance is Lance.JUEGO:
        return info.juego_value
    return 0


def why_count_wrong(result: CountResult, given: Mapping[str, Mapping[str, int]], *, reveal: bool = True) -> str:
    """Why ``given`` (``{lance: {"A": n, "B": n}}``) is not the count ``result`` (RULES.md §7, §8): one
    sentence per wrong lance, in lance order; ``""`` when every lance is right.

    reveal: False leaves out the right stones (for the message before a second try)."""
    out: list[str] = []
    for lance in result.lances:
        exp = result.stones[lance.value]
        got = {t: given.get(lance.value, {}).get(t, 0) for t in "AB"}
        if got == {t: exp[t] for t in "AB"}:
            continue
        out.append(_why_lance(result, lance, exp, got, reveal))
    return " ".join(out)


def _why_lance(
    result: CountResult, lance: Lance, exp: Mapping[str, int], got: Mapping[str, int], reveal: bool = True
) -> str:
    name = lance.title
    winner = result.deal[lance].winner
    team = next((t for t in "AB" if exp[t] > 0), None)
    if team is None:
        return f"{name}: you gave {_pair(got)}, but nobody scores here."
    if got[team] == 0 and got[_other(team)] > 0:
        who = f"seat {winner}" if winner is not None else f"team {team}"
        return f"{name}: you gave the stones to team {_other(team)}, but {who} of team {team} holds the best hand."
    if lance in (Lance.PARES, Lance.JUEGO) and winner is not None:
        partner = (winner + 2) % 4
        bonus = _seat_bonus(result, lance, partner)
        if bonus and got[team] == exp[team] - bonus:
            return (
                f"{name}: you left out seat {partner}'s {bonus}; in the count every hand of the winning team "
                f"scores its own {lance.value}."
            )
    o = result.betting.get(lance.value)
    if o is not None and o.type == "paso" and lance in (Lance.GRANDE, Lance.CHICA) and got[team] == 0:
        return f"{name}: everybody passed, but the lance is still worth 1 stone en paso to the best hand."
    if o is not None and o.type == "rejected" and got[team] == exp[team] + o.deje:
        return f"{name}: you counted the deje of {o.deje} twice; it was taken during the betting and counts once."
    if not reveal:
        return f"{name}: {_pair(got)} is not the count; go through it again."
    return f"{name}: you gave {_pair(got)}, the count gives {_pair(exp)}."


def why_meaning_wrong(asked: str, picked: str, rules: Rules | None = None) -> str:
    """Why the meaning of seña ``picked`` is not what seña ``asked`` tells (both keys; RULES.md §11).

    Names the gesture the picked meaning belongs to, so the sentence cannot be read as the right meaning;
    ``""`` when they are the same. Raises :class:`~musteach.rules.senas.SenaError` for an unknown seña.
    """
    if asked == picked:
        return ""
    a, p = get_sena(asked, rules), get_sena(picked, rules)
    return f"You picked \u201c{meaning(p, rules)}\u201d, which is what '{p.gesture}' means, not '{a.gesture}'."
