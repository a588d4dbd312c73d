"""The coach's grading (musteach.teach.grading): the best action is graded best, the figures agree."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musteach.play.actions import Declare, Discard, MusCall
from musteach.play.bots import RuleBot
from musteach.play.game import Game
from musteach.rules.betting import Action
from musteach.rules.errors import MusError
from musteach.teach.grading import GRADE_LIMITS, Grade, Method, grade_decision, grade_for


def _views(seed: int, steps: int):
    """Views of the seat to act at each decision of a game played by RuleBots."""
    g = Game(seed=seed)
    bot = RuleBot()
    out = []
    while len(out) < steps and not g.is_over:
        if g.hand.is_over:
            g.next_hand()
            continue
        t = g.to_act
        assert t is not None
        v = g.view(t.seat)
        out.append((v, v.legal))  # legal is read from the game now, before it moves on
        g.act(t.seat, bot.decide(v))
    return out


def test_grade_limits_are_ordered_and_monotone() -> None:
    limits = [x for _, x in GRADE_LIMITS]
    assert limits == sorted(limits)
    order = list(Grade)
    losses = [0.0, 0.1, 0.4, 0.5, 1.0, 1.1, 2.5, 2.6, 5.0]
    ranks = [order.index(grade_for(x)) for x in losses]
    assert ranks == sorted(ranks)
    assert grade_for(0.0) is Grade.BEST and grade_for(3.0) is Grade.BLUNDER
    with pytest.raises(MusError, match="-1"):
        grade_for(-1.0)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000), k=st.integers(0, 40))
def test_every_action_graded_consistently(seed: int, pick: int, k: int) -> None:
    v, legal = _views(seed, k + 1)[-1]
    action = legal[pick % len(legal)]
    gr = grade_decision(v, action, n=80)
    stones = [x.stones for x in gr.values]
    assert stones[1:] == sorted(stones[1:], reverse=True)  # the best leads, the others by their figures
    assert stones[0] == max(stones) or gr.too_close  # a best chosen on other deals, beaten here: too close
    assert any(x.action == gr.chosen.action for x in gr.values)
    assert gr.loss == pytest.approx(round(gr.values[0].stones - gr.chosen.stones, 1))
    assert gr.loss >= 0 and gr.grade is grade_for(gr.loss)
    best = grade_decision(v, gr.best.action, n=80)
    assert best.grade is Grade.BEST and best.loss == 0
    if isinstance(action, Declare):
        assert gr.method is Method.TRUTH
    elif isinstance(action, MusCall | Discard):
        assert gr.method is Method.EXACT_EN_PASO and gr.loss_error == 0
    else:
        assert isinstance(action, Action) and gr.method is Method.ROLLOUT and gr.samples > 0


def test_the_weaker_discard_loses_what_the_advisor_says() -> None:
    from musteach.odds import advise_discard

    v = next(v for v, _ in _views(5, 60) if v.phase.value == "discard")
    adv = advise_discard(v.hand, v.seat, v.mano, v.rules)
    worst = adv.ranked("balanced")[-1]
    gr = grade_decision(v, Discard(worst.discard))
    rate = gr.per_stone  # points of win chance a stone is worth at this score
    best = round(float(adv.best("balanced").balanced) * rate, 1)
    assert gr.loss == pytest.approx(best - round(float(worst.balanced) * rate, 1))
    assert gr.best.stones == best and gr.best.equivalent == round(best / rate, 1)


def test_a_betting_grade_is_reproducible_and_names_its_moment() -> None:
    v, legal = next((v, legal) for v, legal in _views(2, 80) if v.phase.is_betting)
    a = legal[0]
    g1, g2 = grade_decision(v, a, n=150), grade_decision(v, a, n=150)
    assert g1 == g2
    assert g1.moment.startswith(("before any bet", "given "))
    assert "deals" in g1.how() and "averaged" not in g1.how() and str(g1.samples) not in g1.how()


def test_grading_an_action_that_is_not_legal_raises() -> None:
    v = next(v for v, _ in _views(2, 80) if v.phase.is_betting and not (v.betting and v.betting.stakes))
    with pytest.raises(MusError, match="quiero"):
        grade_decision(v, Action("quiero"))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000), k=st.integers(0, 40))
def test_a_comment_states_its_figures_once_and_recommends_the_best(seed: int, pick: int, k: int) -> None:
    import re

    from musteach.teach.coach import action_words, coach_comment

    v, legal = _views(seed, k + 1)[-1]
    action = legal[pick % len(legal)]
    c = coach_comment(v, action)
    gr = c.grade
    assert gr is not None
    if isinstance(action, Declare):
        return
    assert c.advice == gr.best.action
    assert all(gr.best.stones >= x.stones for x in gr.values) or gr.too_close
    assert c.agreed == (gr.grade is Grade.BEST)
    # one unit: points of win chance, each figure with its stone equivalent
    figure = r"([+-]\d+\.\d) points? of win chance \(([+-]\d+\.\d) stones?\)"
    figures = [(float(x), float(y)) for x, y in re.findall(figure, c.text)]
    assert figures or gr.too_close, c.text
    for pts, stones in figures:
        assert stones == pytest.approx(round(pts / gr.per_stone, 1), abs=0.051)
    words = [g.article for g in Grade]
    if gr.too_close:  # never a tier, and the margin shown with its error ("about 0.4 ± 0.9 points")
        assert "Too close to call" in c.text and not any(w in c.text.lower() for w in words[1:])
        margin = float(re.findall(r"by about (\d+\.\d) ± \d+\.\d points? of win chance", c.text)[0])
        assert margin == pytest.approx(gr.loss if gr.loss else abs(gr.chosen.stones - gr.values[1].stones), abs=0.051)
        if gr.loss == 0 and gr.values[1].stones > gr.chosen.stones:  # the other action is the one ahead
            assert f"{action_words(gr.values[1].action)} is ahead of your" in c.text, c.text
        assert "lost" not in c.text
    elif gr.grade is Grade.BEST:
        assert figures[0][0] == gr.chosen.stones
    else:
        best, mine = figures[0][0], figures[1][0]
        assert (best, mine) == (gr.best.stones, gr.chosen.stones)
        lost = float(re.findall(r"(\d+\.\d) points? of win chance lost", c.text)[0])
        assert lost == pytest.approx(best - mine) == pytest.approx(gr.loss)
    if not gr.too_close and gr.grade is not Grade.BEST:
        assert gr.grade.article in c.text.lower() and gr.grade is grade_for(gr.loss)
    assert "averaged over" not in c.text
    assert "1 times" not in c.text
    assert not re.search(r"(?<![\d.])[+-]?1(\.0)? (stones|points)\b", c.text), "1 stone, 1 point: singular"


def test_odds_in_words_says_one_time() -> None:
    from musteach.odds import odds_in_words
    from musteach.play.bots import OddsBot
    from musteach.play.game import Game

    assert odds_in_words(0.1) == "about 1 time in 10"
    g = Game(seed=3)
    g.act(0, "no hay mus")
    reason = OddsBot().advise(g.view(0)).reason
    assert "1 times" not in reason


def test_a_4_reyes_mus_and_discard_are_graded_by_sampled_en_paso_values() -> None:
    from musteach.rules.options import Rules

    g = Game(Rules(kings=4), seed=7)
    v = g.view(g.to_act.seat)
    cut, mus = grade_decision(v, MusCall(False)), grade_decision(v, MusCall(True))
    assert cut.method is mus.method is Method.SAMPLED_EN_PASO
    assert {x.action for x in cut.values} == {MusCall(False), MusCall(True)}
    assert (cut.grade is Grade.BEST) != (mus.grade is Grade.BEST) or cut.best.stones == mus.best.stones
    while g.hand.phase.value == "mus":
        g.act(g.to_act.seat, "mus")
    v = g.view(g.to_act.seat)
    assert v.phase.value == "discard"
    gr = grade_decision(v, Discard(v.cards[:1]))
    assert gr.method is Method.SAMPLED_EN_PASO and len(gr.values) == 15
    assert grade_decision(v, gr.best.action).grade is Grade.BEST


def test_every_betting_figure_is_a_change_in_win_chance_near_the_end_or_not() -> None:
    from musteach.play.rollout import points_per_stone
    from musteach.teach.coach import coach_comment

    for start in ({"A": 35, "B": 33}, {"A": 0, "B": 0}):
        g = Game(seed=3, start_score=start)
        g.act(0, "no hay mus")
        while not g.hand.phase.is_betting:
            t = g.to_act
            g.act(t.seat, RuleBot().decide(g.view(t.seat)))
        v = g.view(g.to_act.seat)
        gr = grade_decision(v, Action("paso") if Action("paso") in v.legal else v.legal[0], n=120)
        us, them = v.team, "B" if v.team == "A" else "A"
        assert gr.per_stone == points_per_stone(v.live_score[us], v.live_score[them], v.rules.target)
        assert all(-100 <= x.stones <= 100 for x in gr.values)
        assert all(x.equivalent == pytest.approx(round(x.stones / gr.per_stone, 1), abs=0.051) for x in gr.values)
        assert gr.grade is grade_for(gr.loss)
        text = coach_comment(v, gr.action).text
        assert "points of win chance" in text and "stone" in text
