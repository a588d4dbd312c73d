"""The coach's seat models (issue 25): each seat at the table is modelled by its own level, in the beliefs
(what was said, weighed by that level's betting) and in the rollouts (the lance played out as that level
plays it)."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from musteach.play.bots import run
from musteach.play.deals import rank_id
from musteach.play.game import Game
from musteach.play.levels import Level, make_bot
from musteach.play.odds_bot import sample_deals
from musteach.play.rollout import betting_values, posterior_deals
from musteach.play.rule_bot import RuleBot
from musteach.play.seat_models import BotModel, StrategyModel, keepable, log_weights, model_for, seat_models
from musteach.play.view import View
from musteach.rules.betting import Action
from musteach.rules.errors import MusError
from musteach.teach.coach import coach_comment
from musteach.teach.grading import grade_decision


def club_decision(want: str, lance: str = "grande", seeds: range = range(40)) -> View:
    """The first betting decision in ``lance`` of a game of four club players where the seat to act faces
    ``want`` ("open": no bet yet; "envido": an opponent's envido)."""
    for seed in seeds:
        g = Game(seed=seed)
        bots = {s: make_bot(Level.CLUB) for s in range(4)}
        while not g.is_over:
            run(g, bots, stop_at=range(4), hands=1)
            if g.hand.is_over:
                if g.is_over:
                    break
                g.next_hand()
                continue
            t = g.to_act
            assert t is not None
            v = g.view(t.seat)
            b = v.betting
            if v.lance is not None and v.lance.value == lance and b is not None and v.phase.is_betting:
                steps = [s for s in b.steps if s.action is not None]
                if want == "open" and not b.stakes and Action("envido", 2) in v.legal:
                    return v
                if want == "envido" and len(steps) == 1 and steps[0].action.kind == "envido":  # type: ignore[union-attr]
                    if steps[0].seat is not None and steps[0].seat % 2 != t.seat % 2:
                        return v
            g.act(t.seat, bots[t.seat].decide(v))
    raise AssertionError("no such decision in these games")


def test_each_level_is_its_own_model_and_bad_names_are_refused() -> None:
    m = seat_models("club", 1)
    assert [x.name for x in m.models] == ["club", "strong", "club", "club"]
    assert isinstance(m.models[0], BotModel) and isinstance(m.models[1], StrategyModel)
    assert seat_models("rule", 0).level == "club" and seat_models("odds", 0).level == "strong"
    assert [x.name for x in seat_models("beginner", 2, own="beginner").models] == ["beginner"] * 4
    with pytest.raises(MusError, match="'expert'"):
        seat_models("expert", 0)
    with pytest.raises(MusError, match="7"):
        seat_models("club", 7)
    with pytest.raises(MusError, match="'expert'"):
        model_for("expert")


def test_the_club_bot_keeps_kings_pairs_and_aces() -> None:
    assert keepable((12, 12)) and keepable((5, 5, 12)) and keepable((1,)) and keepable((11,))
    assert not keepable((5, 7)) and not keepable((12, 6))
    club = model_for("club")
    two_kings = rank_id([36, 37, 16, 20])  # R R 5 6 (index >> 2: 9 is the rey)
    nothing = rank_id([16, 20, 24, 28])  # 5 6 7 sota
    assert club.prior(two_kings, 2, 8) > club.prior(nothing, 2, 8)
    strong = model_for("strong")  # the strong level keeps its kings and pares too (measured in self-play)
    assert strong.prior(two_kings, 2, 8) > strong.prior(nothing, 2, 8)


def test_club_beliefs_read_an_envido_as_the_club_player_bets() -> None:
    v = club_decision("envido")
    b = v.betting
    assert b is not None
    bettor = next(s.seat for s in b.steps if s.action is not None)
    assert bettor is not None
    deals = sample_deals(v, 300, seed=2)
    club = seat_models("club", v.seat)
    logs = log_weights(v, deals, club)
    model = club.models[bettor]
    strength = [float(model.key(v, bettor, d, b) or 0.0) for d in deals]  # type: ignore[arg-type]
    w = [math.exp(x) for x in logs]
    weighted = sum(wi * s for wi, s in zip(w, strength, strict=True)) / sum(w)
    plain = sum(strength) / len(strength)
    assert weighted > plain + 0.05  # the envido says the club bettor is strong in grande
    # a deal where the club bettor would have said just this envido weighs more than one where it would not
    said = next(s.action for s in b.steps if s.action is not None)
    assert said is not None
    bot = RuleBot()
    lo, hi = (bot.bet_at, bot.raise_at) if said.amount == 2 else (bot.raise_at, 2.0)
    fits = [lo <= s < hi for s in strength]
    opened = [x for x, f in zip(logs, fits, strict=True) if f and math.isfinite(x)]
    other = [x for x, f in zip(logs, fits, strict=True) if not f and math.isfinite(x)]
    assert opened and other
    assert sum(opened) / len(opened) > sum(other) / len(other) + 1.0


def test_the_rollouts_play_the_lance_as_the_club_players_do() -> None:
    v = club_decision("open")
    b = v.betting
    assert b is not None
    seats = seat_models("club", v.seat)
    vals = betting_values(v, n=200, seed=3, seats=seats)
    assert vals == betting_values(v, n=200, seed=3, seats=seats)  # reproducible
    assert vals.stone_rows is not None
    row = vals.stone_rows[vals.actions.index(Action("envido", 2))]
    deals, _w = posterior_deals(v, 200, 3, seats)  # the deals it weighed
    opponents = [s for s in b.participants if s % 2 != v.seat % 2]
    checked = 0
    accept = RuleBot().accept_at
    for deal, stones in zip(deals, row, strict=True):
        strengths = [float(seats.models[s].key(v, s, deal, b)) for s in opponents]  # type: ignore[arg-type]
        if all(x < accept for x in strengths):  # both club opponents refuse the envido: our deje of 1 stone
            assert stones == 1.0
            checked += 1
    assert checked >= 10


def test_the_coach_grades_for_the_table_it_sits_at() -> None:
    v = club_decision("open")
    a = Action("paso")
    club = grade_decision(v, a, seats="club")
    strong = grade_decision(v, a, seats="strong")
    assert club.values != strong.values  # the same decision is worth something else against club players
    c = coach_comment(v, a, level="club")
    assert c.grade is not None and c.grade.values == club.values
    with pytest.raises(MusError, match="'expert'"):
        coach_comment(v, a, level="expert")


def test_fitting_deals_meet_the_declarations_and_senas_the_pool_rarely_meets() -> None:
    from musteach.play.seat_models import fits_public, fitting_deals

    checked = 0
    for lance in ("juego", "pares"):
        v = club_decision("open", lance)
        deals = fitting_deals(v, 200, seed=1)
        assert deals == fitting_deals(v, 200, seed=1) and len(deals) == 200
        own = tuple(sorted(c.index for c in v.cards))
        for d in deals:
            assert d[v.seat] == own and len({c for h in d for c in h}) == 16
        assert all(fits_public(v, d) for d in deals)
        checked += any(v.declared.get(k) for k in ("pares", "juego"))
    assert checked


def test_the_partner_bot_shows_exactly_its_two_best_senas() -> None:
    from dataclasses import replace

    from musteach.play.seat_models import TREMBLE, fitting_deals, shown_senas, shows_senas
    from musteach.rules.senas import SENAS

    base = club_decision("open")
    own = {c.index for c in base.cards}
    partner = (base.seat + 2) % 4
    weak = tuple(sorted(next(i for i in range(40) if i >> 2 == r and i not in own) for r in (3, 4, 5, 6)))  # 4 5 6 7
    keys = shown_senas(rank_id(weak), 8, "standard")
    assert keys  # even a hand of nothing has its seña (ciego)
    v = replace(base, partner_senas=tuple(SENAS[k] for k in keys))
    deals = fitting_deals(v, 100, seed=4)
    assert all(shows_senas(v, d) for d in deals)
    assert all(set(shown_senas(rank_id(d[partner]), 8, "standard")) == set(keys) for d in deals)
    # a partner holding three kings would have shown them: such a deal weighs TREMBLE as much at most
    kings = [i for i in range(40) if i >> 2 in (2, 9) and i not in own]  # treses and reyes: the 8 kings
    rich = tuple(sorted([*kings[:3], next(i for i in range(40) if i >> 2 == 4 and i not in own)]))
    rest = [i for i in range(40) if i not in own and i not in rich]
    hands = [tuple(sorted(own))] * 4
    hands[partner] = rich
    others = [s for s in range(4) if s not in (v.seat, partner)]
    hands[others[0]], hands[others[1]] = tuple(rest[:4]), tuple(rest[4:8])
    rich_deal = (hands[0], hands[1], hands[2], hands[3])
    assert not shows_senas(v, rich_deal)
    club = seat_models("club", v.seat)
    quiet = replace(v, bettings={}, betting=None, changes=(), mus_calls=())  # nothing said: only the señas count
    assert log_weights(quiet, [rich_deal], club)[0] <= math.log(TREMBLE)
    assert log_weights(quiet, [deals[0]], club)[0] == 0.0



def strong_decisions(seeds: range = range(100_000, 100_040)) -> Iterator[tuple[Game, View]]:
    """Every betting decision of games of four strong players (señas shown, as at the table), in order."""
    for seed in seeds:
        g = Game(seed=seed)
        bots = {s: make_bot(Level.STRONG, seed=s) for s in range(4)}
        shown: set[tuple[int, int]] = set()
        while not g.is_over:
            run(g, bots, stop_at=range(4), hands=1)
            if g.hand.is_over:
                if g.is_over:
                    break
                g.next_hand()
                continue
            h = g.hand
            if h.cards_final:
                for seat in h.order:
                    if (h.number, seat) not in shown:
                        shown.add((h.number, seat))
                        for sena in bots[seat].signals(g.view(seat)):
                            if g.can_signal(seat, sena):
                                g.signal(seat, sena)
            t = g.to_act
            assert t is not None
            v = g.view(t.seat)
            if v.betting is not None and v.lance is not None:
                yield g, v
            g.act(t.seat, bots[t.seat].decide(v))


def ordago_answers(lance: str) -> Iterator[tuple[Game, View]]:
    """The decisions of :func:`strong_decisions` that answer an órdago in ``lance``."""
    for g, v in strong_decisions():
        b = v.betting
        if v.lance is not None and v.lance.value == lance and b is not None and b.stakes and b.current_stake == "ordago":
            yield g, v


def test_the_strategy_model_draws_as_the_strong_level_does() -> None:
    """The strong level leaves out the strategy's rare actions and draws from the rest in proportion: the
    model's probabilities are those (summing to 1), from the bettor's own view and from another seat's view
    rebuilt with the real hands (checked on the first decisions where some action is left out)."""
    from musteach.play.seat_models import seat_view
    from musteach.play.strategy import policy
    from musteach.play.strategy.bot import PURIFY

    m = StrategyModel()
    checked = 0
    for g, v in strong_decisions():
        raw = policy(v)
        kept = {a: p for a, p in raw.items() if p >= PURIFY}
        if not kept or len(kept) == len([p for p in raw.values() if p > 0]):
            continue
        probs = m.probs(v)
        assert probs is not None
        assert math.isclose(sum(probs.values()), 1.0)
        assert set(probs) == set(kept)
        for a, p in kept.items():
            assert math.isclose(probs[a], p / sum(kept.values()))
        deal = tuple(tuple(sorted(c.index for c in g.view(s).cards)) for s in range(4))
        other = g.view((v.seat + 1) % 4)
        assert v.betting is not None
        assert m.probs(seat_view(other, v.seat, deal, v.betting)) == probs  # type: ignore[arg-type]
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_facing_an_ordago_the_deals_carry_what_it_says() -> None:
    """An órdago in pares says much about the bettor's hand: on each of the first answers to one, the deals
    the coach weighs (posterior_deals) give the bettor a hand the strong level bets órdago with nearly
    always (the capped weights of the few such deals among 400 random ones could leave a third or more of
    the weight on hands that never bet it), and many different ones."""
    from musteach.play.seat_models import seat_view

    m = StrategyModel()
    checked = 0
    for _g, v in ordago_answers("pares"):
        b = v.betting
        assert b is not None
        at = max(i for i, st in enumerate(b.steps) if st.action is not None and st.action.kind == "ordago")
        bettor = b.steps[at].seat
        assert bettor is not None
        before = b.start(b.lance, b.mano, b.participants, b.rules)
        for st in b.steps[:at]:
            assert st.seat is not None and st.action is not None
            before = before.act(st.seat, st.action)

        def bets_it(deal: tuple[tuple[int, ...], ...]) -> bool:
            probs = m.probs(seat_view(v, bettor, deal, before))  # type: ignore[arg-type]  # noqa: B023
            return probs is not None and probs.get(Action("ordago"), 0.0) > 0

        deals, w = posterior_deals(v, 400, 0, seat_models("strong", v.seat))
        assert sum(x for d, x in zip(deals, w, strict=True) if bets_it(d)) >= 0.9
        assert len(deals) == len(set(deals)) >= 20 and math.isclose(sum(w), 1.0)
        checked += 1
        if checked == 12:
            break
    assert checked == 12
