"""The three levels of opponents (musteach.play.levels): legal play, true señas, a whole match each."""

from __future__ import annotations

import pytest

from musteach.play.bots import play_match
from musteach.play.levels import BeginnerBot, Level, make_bot
from musteach.play.odds_bot import OddsBot
from musteach.play.rule_bot import RuleBot
from musteach.rules.errors import MusError
from musteach.rules.senas import senas_for


def test_each_level_has_its_bot() -> None:
    assert isinstance(make_bot("beginner"), BeginnerBot)
    assert type(make_bot(Level.CLUB)) is RuleBot
    assert isinstance(make_bot("Strong"), OddsBot)
    with pytest.raises(MusError, match="'expert'"):
        make_bot("expert")


@pytest.mark.parametrize(("a", "b"), [(Level.BEGINNER, Level.CLUB), (Level.CLUB, Level.STRONG)])
def test_neighbouring_levels_play_a_whole_match_legally_with_true_senas(a: Level, b: Level) -> None:
    # run() raises on any illegal action; Game.signal on any seña not true of the cards
    g = play_match([make_bot(a), make_bot(b), make_bot(a), make_bot(b)], seed=3)
    assert g.is_over and g.winner in ("A", "B")
    made = [(e.seat, e.record) for e in g.history if e.kind.value == "signal"]
    assert made, "the bots make señas"


def test_the_beginner_ignores_its_partners_senas() -> None:
    from dataclasses import replace

    from musteach.play.game import Game

    g = Game(seed=2)
    g.act(0, "no hay mus")
    v = g.view(0)
    some = senas_for(g.hand.cards(2), g.rules, g.hand.sena_context)
    told = replace(v, partner_senas=tuple(some))
    beginner, club = BeginnerBot(), RuleBot()
    assert beginner.strength(told, "grande") == beginner.strength(v, "grande")
    if any(s.key in ("morder_labio_lado", "morder_labio_dos_veces", "solomillo", "morder_labio") for s in some):
        assert club.strength(told, "grande") >= club.strength(v, "grande")
