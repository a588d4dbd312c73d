"""The end-of-game banner (musteach.teach.review): the winner's score first, and an órdago said as such."""

from __future__ import annotations

from musteach.play.bots import RuleBot, run
from musteach.play.game import Game, MusCall
from musteach.rules import Rules
from musteach.rules.betting import Action
from musteach.teach.review import review_game


def _ordago_game(seed: int) -> Game:
    """A game whose first hand is decided by an órdago: the mus is cut, an órdago is bet and seen (quiero) as
    soon as it is legal, and otherwise everybody plays the first legal action."""
    g = Game(Rules(games_per_vaca=1), seed=seed)
    while not g.hand.is_over and g.to_act is not None:
        seat = g.to_act.seat
        legal = g.legal_actions(seat)
        kinds = {a.kind: a for a in legal if isinstance(a, Action)}
        cut = [a for a in legal if isinstance(a, MusCall) and not a.wants]
        g.act(seat, kinds.get("ordago") or kinds.get("quiero") or (cut or legal)[0])
    return g


def _finished_games(seeds: range):
    """(game, result of the hand that ended it, its game number) for every game the rule bots finish."""
    for seed in seeds:
        g = Game(Rules(games_per_vaca=1), seed=seed)
        run(g, {s: RuleBot() for s in range(4)})
        for h in g.hands:
            if h.result is not None and h.result.game_over:
                yield g, h.result, h.game_number


def test_the_banner_puts_the_winners_score_first_and_names_a_deciding_ordago():
    seen = {"count": 0, "ordago": 0}
    for g, r, number in _finished_games(range(60)):
        review = review_game(g, 0, (), number)
        a, b = r.final_score["A"], r.final_score["B"]
        assert review.winner == r.game_winner and review.score == (a, b)
        if r.ordago:
            seen["ordago"] += 1
            assert "órdago" in review.banner and f"A {a}, B {b}" in review.banner
            assert " to " not in review.banner, "an órdago's score is not a win by stones"
        else:
            seen["count"] += 1
            won, lost = (a, b) if r.game_winner == "A" else (b, a)
            assert won >= lost and f"won it, {won} to {lost}" in review.banner
        assert ("your team" in review.banner) == (r.game_winner == "A")
    assert seen["count"] > 0, seen
    for seed in range(5):
        g = _ordago_game(seed)
        r = g.hand.result
        assert r is not None and r.ordago and r.game_over
        review = review_game(g, 1, (), 1)
        assert review.banner == (
            f"Game 1 is over: {'your team' if r.game_winner == 'B' else 'the opponents'} (team {r.game_winner}) won "
            f"it with the accepted órdago in {r.ended_at.split(':')[1].capitalize()}; the score stood at A 0, B 0."
        )
        assert r.total_sentence("B").startswith(f"Team {r.game_winner} won the game with the accepted órdago in ")
