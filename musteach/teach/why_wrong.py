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

import enum
from collections.abc import Mapping

from ..i18n import N_, Translator, speaking, translator
from ..rules.betting import BettingOutcome
from ..rules.count import CountResult
from ..rules.lances import Lance, team_of
from ..rules.options import Rules
from ..rules.senas import get_sena, meaning

__all__ = [
    "BettingMistake",
    "CountMistake",
    "betting_mistake",
    "count_mistakes",
    "why_betting_wrong",
    "why_count_wrong",
    "why_meaning_wrong",
]


def _pair(d: Mapping[str, int]) -> str:
    return f"A {d.get('A', 0)}, B {d.get('B', 0)}"


def _other(team: str) -> str:
    return "B" if team == "A" else "A"


class BettingMistake(enum.StrEnum):
    """What a wrong answer to "which stones are taken now?" got wrong (RULES.md §6): a diagnosis tag."""

    DEJE_WAITS = "deje_waits_for_count"
    """Stones given now at a table where dejes are scored at the end."""
    DEJE_TO_REFUSERS = "deje_to_refusers"
    """The deje given to the side that refused."""
    REFUSED_BET_PAID = "refused_bet_paid"
    """The refused bet's own stake given, not what was agreed before it."""
    REFUSED_ORDAGO_PAID = "refused_ordago_paid"
    """More than the deje given for a refused órdago (as if it were the game)."""
    DEJE_FORGOTTEN = "deje_forgotten"
    """No stones given for a refused bet."""
    DEJE_MISCOUNTED = "deje_miscounted"
    """Another wrong number of stones for a refused bet."""
    ACCEPTED_PAID_NOW = "accepted_paid_now"
    """Stones moved now for an accepted bet (it is paid in the count)."""
    ORDAGO_PAID_NOW = "ordago_paid_now"
    """Stones moved now for an accepted órdago (the hands are shown instead)."""
    PASO_PAID_NOW = "paso_paid_now"
    """Stones moved now although everybody passed."""

    def __str__(self) -> str:
        return self.value


def betting_mistake(
    outcome: BettingOutcome, expected: Mapping[str, int], given: Mapping[str, int], rules: Rules | None = None
) -> BettingMistake | None:
    """The :class:`BettingMistake` behind ``given`` (``{"A": n, "B": n}`` stones taken now) for a betting that
    ended with ``outcome``, or None when it equals ``expected`` (RULES.md §6). :func:`why_betting_wrong` words it."""
    exp = {t: expected.get(t, 0) for t in "AB"}
    got = {t: given.get(t, 0) for t in "AB"}
    if exp == got:
        return None
    rules = rules or Rules()
    if outcome.type == "rejected":
        w = outcome.winner_team or "A"
        if rules.deje_timing != "immediate":
            return BettingMistake.DEJE_WAITS
        refused = outcome.stakes[-1] if outcome.stakes else None
        if got[_other(w)] > 0 and got[w] == 0:
            return BettingMistake.DEJE_TO_REFUSERS
        if isinstance(refused, int) and got[w] == refused and refused != outcome.deje:
            return BettingMistake.REFUSED_BET_PAID
        if refused == "ordago" and got[w] > outcome.deje:
            return BettingMistake.REFUSED_ORDAGO_PAID
        if got == {"A": 0, "B": 0}:
            return BettingMistake.DEJE_FORGOTTEN
        return BettingMistake.DEJE_MISCOUNTED
    if outcome.type == "accepted":
        return BettingMistake.ACCEPTED_PAID_NOW
    if outcome.type == "ordago_accepted":
        return BettingMistake.ORDAGO_PAID_NOW
    return BettingMistake.PASO_PAID_NOW


def why_betting_wrong(
    outcome: BettingOutcome,
    expected: Mapping[str, int],
    given: Mapping[str, int],
    rules: Rules | None = None,
    *,
    reveal: bool = True,
    lang: str | None = None,
) -> str:
    """Why ``given`` (``{"A": n, "B": n}`` stones taken now) is not ``expected`` for a betting that ended
    with ``outcome`` (RULES.md §6): the :func:`betting_mistake` in words; ``""`` when they are equal.

    reveal: False leaves out the right number of stones (for the message before a second try).
    lang: the language (None: the one being spoken)."""
    case = betting_mistake(outcome, expected, given, rules)
    if case is None:
        return ""
    got = {t: given.get(t, 0) for t in "AB"}
    _ = translator(lang)
    w = outcome.winner_team or "A"
    refused = outcome.stakes[-1] if outcome.stakes else None
    M = BettingMistake
    if case is M.DEJE_WAITS:
        return _(
            "You gave stones now ({given}), but at this table dejes are scored at the end: "
            "team {team}'s deje of {deje} waits for the count.",
            given=_pair(got),
            team=w,
            deje=outcome.deje,
        )
    if case is M.DEJE_TO_REFUSERS:
        if reveal:
            return _(
                "You gave the stones to team {other}, whose side refused; the team whose bet was refused "
                "(team {team}) takes the deje of {deje}.",
                other=_other(w),
                team=w,
                deje=outcome.deje,
            )
        return _(
            "You gave the stones to team {other}, whose side refused; the team whose bet was refused "
            "(team {team}) takes the deje.",
            other=_other(w),
            team=w,
        )
    if case is M.REFUSED_BET_PAID:
        if reveal:
            return _(
                "You gave team {team} the {refused} stones of the bet that was refused; a refused bet pays what "
                "was agreed before it: {deje}.",
                team=w,
                refused=refused,
                deje=outcome.deje,
            )
        return _(
            "You gave team {team} the {refused} stones of the bet that was refused; a refused bet pays what "
            "was agreed before it (1 for a first bet).",
            team=w,
            refused=refused,
        )
    if case is M.REFUSED_ORDAGO_PAID:
        if reveal:
            return _(
                "A refused órdago is not the game: team {team} takes only what was agreed before it, {deje}.",
                team=w,
                deje=outcome.deje,
            )
        return _("A refused órdago is not the game: team {team} takes only what was agreed before it.", team=w)
    if case in (M.DEJE_FORGOTTEN, M.DEJE_MISCOUNTED):
        if not reveal:
            return _("Team {team}'s last bet was refused: count again what was agreed before it.", team=w)
        return _(
            "Team {team}'s last bet was refused, so team {team} takes the deje of {deje} now, and nobody else.",
            team=w,
            deje=outcome.deje,
        )
    if case is M.ACCEPTED_PAID_NOW:
        return _(
            "You moved stones now ({given}), but an accepted bet pays nothing during the betting: "
            "its {stake} stones go to the best hand in the count.",
            given=_pair(got),
            stake=outcome.stake,
        )
    if case is M.ORDAGO_PAID_NOW:
        return _(
            "You moved stones now, but an accepted órdago is settled by showing the hands: the best hand wins the game."
        )
    return _("You moved stones now, but everybody passed: the lance is played en paso and scored in the count.")


def _seat_bonus(result: CountResult, lance: Lance, seat: int) -> int:
    info = result.deal.infos[seat]
    if lance is Lance.PARES:
        return info.pares.value if info.pares else 0
    if lance is Lance.JUEGO:
        return info.juego_value
    return 0


class CountMistake(enum.StrEnum):
    """What a wrong count of one lance got wrong (RULES.md §7, §8): a diagnosis tag."""

    NOBODY_SCORES = "stones_where_nobody_scores"
    """Stones given in a lance where nobody scores."""
    WRONG_TEAM = "stones_to_wrong_team"
    """The stones given to the team without the best hand."""
    PARTNER_LEFT_OUT = "partner_jugada_left_out"
    """The winner's partner's own pares or juego left out."""
    WINNER_LEFT_OUT = "winner_jugada_left_out"
    """The winner's own pares or juego left out (its partner's counted)."""
    JUGADAS_LEFT_OUT = "jugadas_left_out"
    """Every pares or juego of the winning team left out: only the bet counted (or nothing, en paso)."""
    STAKE_LEFT_OUT = "stake_left_out"
    """The accepted bet left out (the jugadas alone counted)."""
    STAKE_AS_PASO = "stake_as_paso"
    """1 stone given, as if the lance were passed, for an accepted bet."""
    DEJE_LEFT_OUT = "deje_left_out"
    """A deje that is scored at the end (this table's rule) left out of the count."""
    PASO_STONE_FORGOTTEN = "paso_stone_forgotten"
    """No stone for a Grande or Chica played en paso."""
    DEJE_TWICE = "deje_counted_twice"
    """A deje taken during the betting counted again."""
    MISCOUNTED = "lance_miscounted"
    """Another wrong number of stones in the lance."""

    def __str__(self) -> str:
        return self.value


def count_mistakes(result: CountResult, given: Mapping[str, Mapping[str, int]]) -> dict[Lance, CountMistake]:
    """The :class:`CountMistake` of every wrongly counted lance of ``result``, in lance order (empty when every
    lance is right; RULES.md §7, §8). :func:`why_count_wrong` words them."""
    out: dict[Lance, CountMistake] = {}
    for lance in result.lances:
        exp = result.stones[lance.value]
        got = {t: given.get(lance.value, {}).get(t, 0) for t in "AB"}
        if got != {t: exp[t] for t in "AB"}:
            out[lance] = _lance_mistake(result, lance, exp, got)
    return out


def _lance_mistake(result: CountResult, lance: Lance, exp: Mapping[str, int], got: Mapping[str, int]) -> CountMistake:
    """The mistake of one wrongly counted lance: nobody scores, the wrong team, a jugada left out, or a bet
    miscounted (in that order of reading), else a plain miscount."""
    team = next((t for t in "AB" if exp[t] > 0), None)
    if team is None:
        return CountMistake.NOBODY_SCORES
    if got[team] == 0 and got[_other(team)] > 0:
        return CountMistake.WRONG_TEAM
    return _jugada_mistake(result, lance, team, exp, got) or _bet_mistake(result, lance, team, exp, got) or CountMistake.MISCOUNTED


def _jugada_mistake(
    result: CountResult, lance: Lance, team: str, exp: Mapping[str, int], got: Mapping[str, int]
) -> CountMistake | None:
    """Pares and Juego: a hand's own jugada left out (the partner's, the winner's, or both), else None."""
    winner = result.deal[lance].winner
    if lance not in (Lance.PARES, Lance.JUEGO) or winner is None:
        return None
    partner, own = _seat_bonus(result, lance, (winner + 2) % 4), _seat_bonus(result, lance, winner)
    if partner and got[team] == exp[team] - partner:
        return CountMistake.PARTNER_LEFT_OUT
    if own and partner and got[team] == exp[team] - own:
        return CountMistake.WINNER_LEFT_OUT
    if own and got[team] == exp[team] - own - partner:
        return CountMistake.JUGADAS_LEFT_OUT
    return None


def _bet_mistake(
    result: CountResult, lance: Lance, team: str, exp: Mapping[str, int], got: Mapping[str, int]
) -> CountMistake | None:
    """The lance's betting miscounted: an accepted stake left out or counted as paso, a deje left out or counted
    twice, the paso stone forgotten; else None."""
    o = result.betting.get(lance.value)
    if o is None:
        return None
    if o.type == "accepted" and o.stake:
        if got[team] == exp[team] - o.stake:
            return CountMistake.STAKE_LEFT_OUT
        if lance in (Lance.GRANDE, Lance.CHICA, Lance.PUNTO) and got[team] == exp[team] - o.stake + 1:
            return CountMistake.STAKE_AS_PASO
    if o.type == "rejected" and result.rules.deje_timing != "immediate" and o.winner_team == team:
        if got[team] == exp[team] - o.deje:
            return CountMistake.DEJE_LEFT_OUT
    if o.type == "paso" and lance in (Lance.GRANDE, Lance.CHICA) and got[team] == 0:
        return CountMistake.PASO_STONE_FORGOTTEN
    if o.type == "rejected" and got[team] == exp[team] + o.deje:
        return CountMistake.DEJE_TWICE
    return None


def why_count_wrong(
    result: CountResult, given: Mapping[str, Mapping[str, int]], *, reveal: bool = True, lang: str | None = None
) -> str:
    """Why ``given`` (``{lance: {"A": n, "B": n}}``) is not the count ``result`` (RULES.md §7, §8): one
    sentence per wrong lance (its :func:`count_mistakes` tag in words), in lance order; ``""`` when every lance
    is right.

    reveal: False leaves out the right stones (for the message before a second try).
    lang: the language (None: the one being spoken)."""
    _ = translator(lang)
    out: list[str] = []
    for lance, case in count_mistakes(result, given).items():
        exp = result.stones[lance.value]
        got = {t: given.get(lance.value, {}).get(t, 0) for t in "AB"}
        out.append(_why_lance(_, result, lance, case, exp, got, reveal))
    return " ".join(out)


#: "every hand of the winning team scores its own ...", one sentence per lance that pays per hand (RULES.md §7).
_OWN_BONUS = {
    Lance.PARES: N_(
        "{lance}: you left out seat {seat}'s {bonus}; in the count every hand of the winning team scores its own pares."
    ),
    Lance.JUEGO: N_(
        "{lance}: you left out seat {seat}'s {bonus}; in the count every hand of the winning team scores its own juego."
    ),
}


def _why_lance(
    _: Translator,
    result: CountResult,
    lance: Lance,
    case: CountMistake,
    exp: Mapping[str, int],
    got: Mapping[str, int],
    reveal: bool = True,
) -> str:
    name = lance.title
    team = next((t for t in "AB" if exp[t] > 0), "A")
    if case is CountMistake.NOBODY_SCORES:
        return _("{lance}: you gave {given}, but nobody scores here.", lance=name, given=_pair(got))
    if case is CountMistake.WRONG_TEAM:
        return _why_wrong_team(_, result, lance, team)
    said = _why_jugadas(_, result, lance, case, team) or _why_bet(_, result, lance, case, team)
    if said:
        return said
    if not reveal:
        return _("{lance}: {given} is not the count; go through it again.", lance=name, given=_pair(got))
    return _(
        "{lance}: you gave {given}, the count gives {expected}.", lance=name, given=_pair(got), expected=_pair(exp)
    )


def why_meaning_wrong(asked: str, picked: str, rules: Rules | None = None, *, lang: str | None = None) -> str:
    """Why the meaning of seña ``picked`` is not what seña ``asked`` tells (both keys; RULES.md §11).

    Names the gesture the picked meaning belongs to, so the sentence cannot be read as the right meaning;
    ``""`` when they are the same. Raises :class:`~musteach.rules.senas.SenaError` for an unknown seña.
    lang: the language (None: the one being spoken).
    """
    if asked == picked:
        return ""
    _ = translator(lang)
    a, p = get_sena(asked, rules), get_sena(picked, rules)
    with speaking(_.lang):
        said = meaning(p, rules)
    return _(
        "You picked \u201c{meaning}\u201d, which is what '{picked}' means, not '{asked}'.",
        meaning=said,
        picked=p.gesture_text(_.lang),
        asked=a.gesture_text(_.lang),
    )


def _why_wrong_team(_: Translator, result: CountResult, lance: Lance, team: str) -> str:
    """:func:`_why_lance` for stones given to the wrong team: who holds the best hand, or who refused a bet."""
    name = lance.title
    winner = result.deal[lance].winner
    o = result.betting.get(lance.value)
    if winner is not None and team_of(winner) != team and o is not None and o.type == "rejected":
        # the best hand is the other team's, but that team refused this team's bet (RULES.md §6, §7)
        return _(
            "{lance}: you gave the stones to team {other}, but team {other} refused team {team}'s bet, so team "
            "{team} scores this lance, although seat {seat} holds the best hand.",
            lance=name,
            other=_other(team),
            seat=winner,
            team=team,
        )
    if winner is not None and team_of(winner) == team:
        return _(
            "{lance}: you gave the stones to team {other}, but seat {seat} of team {team} holds the best hand.",
            lance=name,
            other=_other(team),
            seat=winner,
            team=team,
        )
    return _(
        "{lance}: you gave the stones to team {other}, but team {team} holds the best hand.",
        lance=name,
        other=_other(team),
        team=team,
    )


def _why_jugadas(_: Translator, result: CountResult, lance: Lance, case: CountMistake, team: str) -> str:
    """:func:`_why_lance` for a jugada left out (the partner's, the winner's, or the team's), else ``""``."""
    name = lance.title
    winner = result.deal[lance].winner
    if case is CountMistake.PARTNER_LEFT_OUT:
        assert winner is not None
        partner = (winner + 2) % 4
        return _(_OWN_BONUS[lance], lance=name, seat=partner, bonus=_seat_bonus(result, lance, partner))
    if case is CountMistake.WINNER_LEFT_OUT:
        assert winner is not None
        return _(_OWN_BONUS[lance], lance=name, seat=winner, bonus=_seat_bonus(result, lance, winner))
    if case is CountMistake.JUGADAS_LEFT_OUT:
        assert winner is not None
        both = _seat_bonus(result, lance, winner) + _seat_bonus(result, lance, (winner + 2) % 4)
        return _(
            "{lance}: you left out team {team}'s jugadas ({bonus}); in the count every hand of the winning team "
            "scores its own {name}, besides any bet.",
            lance=name,
            team=team,
            bonus=both,
            name=lance.value,
        )
    return ""


def _why_bet(_: Translator, result: CountResult, lance: Lance, case: CountMistake, team: str) -> str:
    """:func:`_why_lance` for a bet miscounted (stake, deje, the paso stone), else ``""``."""
    name = lance.title
    o = result.betting.get(lance.value)
    if case is CountMistake.STAKE_LEFT_OUT and o is not None:
        return _(
            "{lance}: you left out the accepted bet of {stake}; it goes to the best hand in the count.",
            lance=name,
            stake=o.stake,
        )
    if case is CountMistake.STAKE_AS_PASO and o is not None:
        return _(
            "{lance}: you counted 1 stone as if everybody had passed, but the bet of {stake} was accepted and "
            "pays {stake}.",
            lance=name,
            stake=o.stake,
        )
    if case is CountMistake.DEJE_LEFT_OUT and o is not None:
        return _(
            "{lance}: you left out team {team}'s deje of {deje}; at this table dejes are scored in the count.",
            lance=name,
            team=team,
            deje=o.deje,
        )
    if case is CountMistake.PASO_STONE_FORGOTTEN:
        return _(
            "{lance}: everybody passed, but the lance is still worth 1 stone en paso to the best hand.", lance=name
        )
    if case is CountMistake.DEJE_TWICE and o is not None:
        return _(
            "{lance}: you counted the deje of {deje} twice; it was taken during the betting and counts once.",
            lance=name,
            deje=o.deje,
        )
    return ""
