"""The coach's one unit, its tiers and its sentences (issue 25, items 3 and 5): every figure is a change in the
chance of winning the game with its stone equivalent; the tiers are defined once in that unit; equal values are
called equal; a blurred loss is "too close to call"; an órdago is never offered a raise; the review names
decisions as the live comments do; the rollouts weigh the deals by what was said."""

from __future__ import annotations

import re

import pytest

from musteach.play.actions import Discard, MusCall
from musteach.play.bots import RuleBot
from musteach.play.events import Phase
from musteach.play.game import Game
from musteach.play.odds_bot import sample_deals
from musteach.play.rollout import (
    TREMBLE,
    betting_values,
    heuristic_policy,
    points_per_stone,
    rollout_action,
    said_weights,
)
from musteach.rules.betting import ORDAGO, Action, LanceBetting
from musteach.rules.cards import parse_hand
from musteach.rules.errors import MusError
from musteach.rules.lances import Lance
from musteach.teach.coach import grade_sentence, turn_prompt
from musteach.teach.grading import (
    GRADE_LIMITS,
    ActionValue,
    DecisionGrade,
    Grade,
    Method,
    Unit,
    grade_decision,
    grade_for,
    is_too_close,
    tier_width,
)
from musteach.teach.review import DecisionRecord


def _betting_view(seed: int, *, facing: bool, start: dict[str, int] | None = None):
    """The first view of a seat facing (or not facing) a bet, in a game played by rule bots."""
    g = Game(seed=seed, start_score=start)
    bot = RuleBot()
    for _ in range(400):
        if g.is_over:
            break
        if g.hand.is_over:
            g.next_hand()
            continue
        t = g.to_act
        v = g.view(t.seat)
        if v.phase.is_betting and v.betting is not None and bool(v.betting.stakes) == facing:
            return g, v
        g.act(t.seat, bot.decide(v))
    raise AssertionError("no such decision")


def _grade(values: list[tuple[str, float]], chosen: str, loss_error: float) -> DecisionGrade:
    vals = tuple(ActionValue(Action.parse(a), x, 0.1, round(x / 1.7, 1)) for a, x in values)
    mine = next(v for v in vals if str(v.action) == chosen)
    loss = round(vals[0].stones - mine.stones, 1)
    return DecisionGrade(
        Phase.BET_GRANDE, Lance.GRANDE, mine.action, vals, mine, loss, loss_error, grade_for(loss), Method.ROLLOUT,
        "before any bet", 400, Unit.WIN_CHANCE, round(loss / 1.7, 1), 1.7, is_too_close(loss, loss_error),
    )  # fmt: skip


def test_the_tiers_are_defined_once_in_points_of_win_chance() -> None:
    limits = dict(GRADE_LIMITS)
    assert [g for g, _ in GRADE_LIMITS] == [Grade.BEST, Grade.GOOD, Grade.INACCURACY, Grade.MISTAKE]
    assert grade_for(limits[Grade.GOOD]) is Grade.GOOD and grade_for(limits[Grade.GOOD] + 0.1) is Grade.INACCURACY
    assert grade_for(limits[Grade.MISTAKE] + 0.1) is Grade.BLUNDER
    # the unit argument no longer changes the scale: one unit
    assert grade_for(2.0, Unit.STONES) is grade_for(2.0, Unit.WIN_CHANCE)
    assert tier_width(Grade.GOOD) == limits[Grade.GOOD]
    assert tier_width(Grade.MISTAKE) == pytest.approx(limits[Grade.MISTAKE] - limits[Grade.INACCURACY])
    with pytest.raises(MusError):
        grade_for(float("nan"))


def test_a_loss_whose_error_is_over_a_quarter_of_its_tier_is_too_close_to_call() -> None:
    width = tier_width(Grade.MISTAKE)
    assert not is_too_close(2.0, width / 4 - 0.01)
    assert is_too_close(2.0, width / 4 + 0.01)
    gr = _grade([("envido 2", 1.5), ("paso", -0.5)], "paso", width / 4 + 0.05)
    text = grade_sentence(gr)
    assert gr.too_close and text.startswith("Too close to call (Grande, before any bet): ")
    assert not any(g.article in text for g in Grade), text
    # the figure is shown as too close: the margin with its error, not a loss that reads as a tier
    err = f"{round(width / 4 + 0.05, 1):.1f}"
    assert f"envido 2 is ahead of your paso by about 2.0 ± {err} points of win chance (1.2 stones)." in text, text
    assert "lost" not in text and "worth" not in text
    sure = _grade([("envido 2", 1.5), ("paso", -0.5)], "paso", 0.05)
    assert grade_sentence(sure).startswith("A mistake (Grande, before any bet): ")


def test_no_sentence_contradicts_its_tier() -> None:
    """"2 points of win chance lost, 3.0 stones (a good move)" cannot be said: the tier follows the points."""
    for loss in (0.3, 0.9, 2.0, 6.0):
        gr = _grade([("envido 2", 1.0 + loss), ("paso", 1.0)], "paso", 0.0)
        text = grade_sentence(gr)
        assert gr.grade is grade_for(loss)
        assert text.startswith(gr.grade.article[:1].upper() + gr.grade.article[1:]), text
        pts = float(re.search(r"(\d+\.\d) points? of win chance lost", text)[1])  # type: ignore[index]
        assert grade_for(pts) is gr.grade


def test_equal_values_are_called_equal() -> None:
    gr = _grade([("quiero", -1.0), ("no quiero", -1.0)], "no quiero", 0.0)
    assert gr.loss == 0 and gr.equal_to is not None
    text = grade_sentence(gr)
    assert "no quiero and quiero are worth the same here" in text and "next best" not in text
    # through grade_decision: a tie with the best is listed first and called equal
    _g, v = _betting_view(1, facing=False)
    real = grade_decision(v, v.legal[0], n=60)
    if real.equal_to is not None and not real.too_close:  # too close to call wins over a tier
        assert "worth the same here" in grade_sentence(real)


def test_an_ordago_is_never_offered_a_raise() -> None:
    g, v = _betting_view(2, facing=False)
    lance = v.lance
    assert lance is not None and v.betting is not None
    g.act(v.seat, Action("ordago"))
    answer = g.view(g.to_act.seat)
    assert answer.betting is not None and answer.betting.current_stake == ORDAGO
    text = turn_prompt(answer)
    assert "quiero or no quiero" in text and "raise" not in text and "the other team" in text
    assert "más" not in turn_prompt(answer, lang="es")
    assert Action("reenvido", 2) not in answer.legal


def test_a_bet_is_named_by_the_team_that_made_it() -> None:
    g, v = _betting_view(2, facing=False)
    g.act(v.seat, Action("envido", 2))
    answer = g.view(g.to_act.seat)
    assert answer.betting is not None and answer.betting.betting_team != answer.team
    assert "the other team bet 2 stones" in turn_prompt(answer)
    gr = grade_decision(answer, Action("quiero"), n=60)
    assert gr.moment.startswith("given the opponents' bet of 2")
    # the bettor's partner never answers its own team's bet; if asked about it, the words say "your team"
    partner = g.view((v.seat + 2) % 4)
    assert partner.betting is not None and partner.betting.betting_team == partner.team
    assert "your team bet 2 stones" in turn_prompt(partner)


def test_the_review_names_a_discard_as_the_live_comment_does() -> None:
    g = Game(seed=5)
    for _ in range(4):
        g.act(g.to_act.seat, "mus")
    v = g.view(g.to_act.seat)
    assert v.phase is Phase.DISCARD
    d = Discard(v.cards[:2])
    gr = grade_decision(v, d)
    rec = DecisionRecord(v.game_number, v.hand_number, len(g.history), tuple(v.cards), gr, v.rules.kings)
    line, label = rec.line(), rec.replay_label()
    assert "discard " not in line and "discard " not in label, (line, label)
    assert "you said changing " in line and "changing " in label
    assert str(d) not in line


def test_4_reyes_discards_are_named_with_their_own_ranks() -> None:
    from musteach.teach.coach import action_words

    cards = list(parse_hand("3o 2c 12e 1b"))
    assert action_words(Discard(cards[:2])) == "changing R-A"
    assert action_words(Discard(cards[:2]), kings=4) == "changing 3-2"


def test_points_per_stone_is_what_a_stone_is_worth_now() -> None:
    assert points_per_stone(0, 0, 40) == pytest.approx(1.67, abs=0.01)
    assert points_per_stone(35, 35, 40) > points_per_stone(0, 0, 40) > points_per_stone(30, 10, 40)
    assert points_per_stone(40, 0, 40) == 0.05  # a decided game: the floor


def test_the_heuristic_policy_is_a_distribution_and_its_mode_is_the_rollout_action() -> None:
    b = LanceBetting.start(Lance.GRANDE, 0)
    live = {"A": 0, "B": 0}
    for u in (0.0, 0.3, 0.7, 0.9, 1.0):
        probs = heuristic_policy(b, 0, u, live, 40)
        assert sum(probs.values()) == pytest.approx(1.0)
        assert rollout_action(b, 0, u, live, 40) == max(probs, key=lambda a: probs[a])
    facing = b.act(0, Action("ordago"))
    probs = heuristic_policy(facing, 1, 0.5, live, 40)
    assert set(probs) <= {Action("quiero"), Action("no_quiero")}  # an órdago cannot be raised


def test_what_was_said_weighs_the_deals() -> None:
    """A bet from the other team makes its strong hands likelier: the deals giving the bettor a strong hand
    weigh more than those giving it a weak one (the old rollouts dealt them at random)."""
    g, v = _betting_view(2, facing=False)
    bettor = v.seat
    g.act(bettor, Action("envido", 2))
    answer = g.view(g.to_act.seat)
    deals = sample_deals(answer, 200, 0)
    w = said_weights(answer, deals)
    assert len(w) == len(deals) and min(w) >= TREMBLE**4 and max(w) <= 1.0
    from musteach.play.deals import rank_facts, rank_id

    pct = rank_facts(8).pct[0]
    strong = [x for x, d in zip(w, deals, strict=True) if pct[rank_id(d[bettor])] > 200]
    weak = [x for x, d in zip(w, deals, strict=True) if pct[rank_id(d[bettor])] < 60]
    assert strong and weak and sum(strong) / len(strong) > 3 * sum(weak) / len(weak)
    # no bet said yet: every deal weighs the same
    _g2, fresh = _betting_view(2, facing=False)
    if not fresh.bettings and fresh.betting is not None and not fresh.betting.steps:
        assert set(said_weights(fresh, sample_deals(fresh, 50, 0))) == {1.0}


def test_the_rollouts_take_a_policy_and_weights() -> None:
    _g, v = _betting_view(3, facing=True)
    seen: list[int] = []

    def always_refuse(view):  # a view policy: the strategy's signature
        seen.append(view.seat)
        return {a: (1.0 if a.kind in ("no_quiero", "paso") else 0.0) for a in view.legal}

    def only_first(view, deals):
        return [1.0] + [0.0] * (len(deals) - 1)

    vals = betting_values(v, n=40, policy=always_refuse, weights=only_first)
    assert vals.weights is not None and vals.weights[0] == 1.0 and vals.effective == pytest.approx(1.0)
    assert all(e == 0.0 for e in vals.errors)  # one deal counts: no spread
    assert all(m == r[0] for m, r in zip(vals.means, vals.rows, strict=True))
    quiero = vals.actions.index(Action("quiero"))
    raise_i = next((i for i, a in enumerate(vals.actions) if a.kind == "reenvido"), None)
    if raise_i is not None:  # the other team refuses our raise: we take the deje, whatever the cards
        assert len(set(vals.stone_rows[raise_i])) == 1  # type: ignore[index]
    assert seen and vals.rows[quiero]


def test_an_accepted_ordago_is_worth_the_chance_of_winning_its_lance() -> None:
    _g, v = _betting_view(3, facing=False)

    def accept_all(view):
        return {a: (1.0 if a.kind == "quiero" else 0.0) for a in view.legal}

    vals = betting_values(v, Action("ordago"), n=80, policy=accept_all, weights=lambda view, deals: [1.0] * len(deals))
    row = vals.rows[vals.actions.index(Action("ordago"))]
    assert set(row) <= {0.0, 100.0}  # the game is decided by the lance
    won = sum(1 for x in row if x == 100.0) / len(row)
    assert vals.means[vals.actions.index(Action("ordago"))] == pytest.approx(100 * won)


def test_a_mus_decision_is_graded_in_points_with_stone_equivalents() -> None:
    g = Game(seed=3)
    v = g.view(g.to_act.seat)
    gr = grade_decision(v, MusCall(True))
    assert gr.unit is Unit.WIN_CHANCE and gr.per_stone == pytest.approx(points_per_stone(0, 0, 40))
    assert all(x.equivalent == pytest.approx(round(x.stones / gr.per_stone, 1), abs=0.051) for x in gr.values)
    assert "one stone is worth 1.7 points now" in gr.how()


def test_the_rest_of_the_hand_is_what_the_count_adds_en_paso() -> None:
    from musteach.play.rollout import rest_of_hand
    from musteach.rules.cards import Card
    from musteach.rules.count import count_hand

    _g, v = _betting_view(4, facing=False)
    assert v.lance is Lance.GRANDE and not v.outcomes
    deals = sample_deals(v, 30, 0)
    rest = rest_of_hand(v, deals)
    us, them = v.team, "B" if v.team == "A" else "A"
    for deal, x in zip(deals, rest, strict=True):
        r = count_hand([[Card.from_index(i) for i in h] for h in deal], v.mano, v.rules)
        others = [lance for lance in r.stones if lance != "grande"]
        assert x == sum(r.stones[lance][us] - r.stones[lance][them] for lance in others)


def test_after_a_mus_the_other_seats_hands_weigh_as_kept_hands() -> None:
    from musteach.play.deals import rank_id
    from musteach.play.rollout import AFTER_MUS, after_mus_cell

    g = Game(seed=6)
    bot = RuleBot()
    for _ in range(4):
        g.act(g.to_act.seat, "mus")
    while g.hand.phase is Phase.DISCARD:
        t = g.to_act
        g.act(t.seat, bot.decide(g.view(t.seat)))
    while not g.hand.phase.is_betting:
        t = g.to_act
        g.act(t.seat, bot.decide(g.view(t.seat)))
    v = g.view(g.to_act.seat)
    assert any(any(c) for c in v.changes) and v.betting is not None and not v.betting.steps
    deals = sample_deals(v, 60, 0)
    w = said_weights(v, deals)
    for deal, x in zip(deals, w, strict=True):
        want = 1.0
        for s in range(4):
            if s != v.seat:
                gq, pv = after_mus_cell(rank_id(deal[s]), 8)
                want *= AFTER_MUS[gq][pv]
        assert x == pytest.approx(want)
    assert AFTER_MUS[0][0] < 1 < AFTER_MUS[3][1]  # a weak hand without pares is rare after a mus
