"""The computed betting strategy (issue 25): the abstract tree follows the betting rules, CFR+ lowers its
regret and reaches near-zero exploitability on a small abstraction (checked against OpenSpiel's best
response), the shipped strategy is a distribution over legal actions, and a seat's decision depends only on
what it sees (RULES.md §4, §6, §11)."""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import pytest

from musteach.play.game import Game
from musteach.play.strategy import ACTION_OF, infoset, policy
from musteach.play.strategy.abstraction import lance_tree, sign_map
from musteach.play.strategy.solver import LanceData, LanceSolver, SolveParams, sample_lances, write_table
from musteach.play.strategy.table import StrategyTable, shipped_table
from musteach.rules.betting import LanceBetting

SMALL = SolveParams(ks=(5, 5, 4, 4, 5), needs=(10, 40), iters=20, first=2, deals=60_000, seed=3)


@functools.lru_cache(maxsize=1)
def small_data() -> dict[tuple[int, tuple[int, ...]], LanceData]:
    return {(d.li, d.participants): d for d in sample_lances(SMALL)}


# ----------------------------------------------------------------------------------------------
# The abstract tree is the betting of RULES.md §6
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("parts", [(0, 1, 2, 3), (0, 1), (1, 2), (0, 1, 3), (0, 2, 3)])
def test_tree_actions_are_legal_and_close_as_the_rules_do(parts: tuple[int, ...]) -> None:
    tree = lance_tree(parts)
    mano = 2  # positions are seats counted from mano
    start = LanceBetting.start("pares", mano=mano, participants=[(mano + p) % 4 for p in parts])
    seen = 0

    def walk(node: int, state: LanceBetting) -> None:
        nonlocal seen
        n = tree.nodes[node]
        if n.pos < 0:
            assert state.closed and state.outcome is not None
            kind = {"paso": "paso", "rejected": "rejected", "accepted": "accepted", "ordago": "ordago_accepted"}[n.kind]
            assert state.outcome.type == kind
            if n.kind == "rejected":
                assert state.outcome.deje == n.amount and state.outcome.winner_team == "AB"[(mano + n.team) % 2]
            if n.kind == "accepted":
                assert state.outcome.stakes[-1] == n.amount
            seen += 1
            return
        seat = (mano + n.pos) % 4
        assert not state.closed and state.to_act[0] == seat
        for sym, child in zip(n.actions, n.children, strict=True):
            walk(child, state.act(seat, ACTION_OF[sym]))

    walk(0, start)
    assert seen == sum(1 for n in tree.nodes if n.pos < 0)


# ----------------------------------------------------------------------------------------------
# The solver
# ----------------------------------------------------------------------------------------------


def test_chance_tables_are_distributions() -> None:
    for d in small_data().values():
        assert d.prob.shape == d.dims and abs(d.prob.sum() - 1.0) < 1e-9
        assert ((d.win_a >= 0) & (d.win_a <= 1)).all()
        for p in range(4):
            assert (d.dims[p] > 1) == (p in d.participants)
    # grande: each team wins about half the lances
    g = small_data()[(0, (0, 1, 2, 3))]
    assert 0.47 < float((g.prob * g.win_a).sum()) < 0.53


def test_regret_falls_and_exploitability_falls() -> None:
    s = LanceSolver(small_data()[(0, (0, 1, 2, 3))], (40, 40))
    s.run(3)
    early = s.exploitability()
    early_regret = sum(float(r.max(axis=2).sum()) for r in s.regrets) / s.t
    s.run(60)
    late = s.exploitability()
    late_regret = sum(float(r.max(axis=2).sum()) for r in s.regrets) / s.t
    assert late < early / 2
    assert late_regret < early_regret


def test_two_seat_lance_reaches_near_zero_exploitability() -> None:
    s = LanceSolver(small_data()[(2, (0, 1))], (40, 40))
    start = None
    for _ in range(300):
        s.iterate()
        if start is None:
            start = s.exploitability()
    assert start is not None and start > 0.002
    assert s.exploitability() < 0.0005  # win chance of the game: a hundredth of a stone at 0-0


def test_average_strategies_are_distributions() -> None:
    s = LanceSolver(small_data()[(3, (0, 1, 3))], (10, 22))
    s.run(10)
    for j in range(len(s.tree.decisions)):
        a = s.average(j)
        assert (a >= 0).all() and np.allclose(a.sum(axis=2), 1.0)


def test_each_context_is_solved_afresh() -> None:
    # a context warm-started from its neighbour's regrets kept the neighbour's órdagos (issue 25): by
    # default every context is solved from scratch, as if it were solved alone
    from musteach.play.strategy.solver import solve_all

    params = replace(SMALL, iters=8, first=1, deals=20_000)
    tables, _gains = solve_all(params, log=False, lances=(1,))
    d = sample_lances(params, (1,))[0]
    alone = LanceSolver(d, (params.needs[1], params.needs[0]), params.target)
    alone.run(params.iters)
    for j, arr in enumerate(tables["1|0123|2"]):
        assert np.allclose(arr, alone.average(j), atol=1e-6)


def test_a_coordinated_team_sees_its_partners_bucket() -> None:
    from musteach.play.strategy.solver import robust_strategy

    d = small_data()[(0, (0, 1, 2, 3))]
    s = LanceSolver(d, (40, 40), shared=1)
    s.run(20)
    k = d.dims[0]
    for j, n in enumerate(s.tree.decisions):
        pos = s.tree.nodes[n].pos
        a = s.average(j)
        assert a.shape[:2] == ((k, k) if pos % 2 == 1 else (k, 2))
        assert np.allclose(a.sum(axis=2), 1.0)
    # the coordinated team gains from seeing more: its value is at least the uncoordinated one's
    plain = LanceSolver(d, (40, 40))
    plain.run(20)
    assert 1 - s.value() >= 1 - plain.value() - 0.01
    # the robust strategy is a seat's table: own bucket, partner's seña bit, actions
    params = replace(SMALL, iters=5, first=1, robust=True)
    out = robust_strategy(d, (40, 40), params)
    for j, n in enumerate(s.tree.decisions):
        assert out[j].shape == (k, 2, len(s.tree.nodes[n].actions))
        assert np.allclose(out[j].sum(axis=2), 1.0, atol=1e-5)


def test_another_table_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    from pathlib import Path

    from musteach.play.strategy.table import TABLE_ENV, table_path

    other = Path(str(tmp_path)) / "other.bin"
    monkeypatch.setenv(TABLE_ENV, str(other))
    assert table_path() == other
    monkeypatch.delenv(TABLE_ENV)
    assert table_path().name == "strategy-8reyes.bin"


def test_sign_maps_mark_the_strong_buckets() -> None:
    # two kings or more is the top sixth of grande hands; 31 is one juego bucket
    assert sign_map(0, 12)[-1] == 1 and sign_map(0, 12)[0] == 0
    assert sum(sign_map(3, 10)) == 1


def test_the_solver_cuts_buckets_as_play_does() -> None:
    from musteach.play.strategy.abstraction import bucket
    from musteach.play.strategy.solver import _buckets

    for li, k in ((0, 12), (1, 12), (2, 8), (3, 10), (4, 10)):
        assert [bucket(p, li, k) for p in range(256)] == _buckets(np.arange(256), li, k, 8).tolist()


def test_openspiel_best_response_agrees_on_a_two_seat_lance() -> None:
    pyspiel = pytest.importorskip("pyspiel")  # the test extra installs open-spiel; `make install` has it
    from open_spiel.python import policy as os_policy
    from open_spiel.python.algorithms import exploitability

    data = small_data()[(2, (0, 1))]
    s = LanceSolver(data, (40, 40))
    s.run(40)
    game = _openspiel_lance(pyspiel, s)
    pol = os_policy.TabularPolicy(game)
    for state_key, row in pol.state_lookup.items():
        node, b, sign = (int(x) for x in state_key.split(":")[1:4])
        tree_node = s.tree.nodes[node]
        probs = s.average(tree_node.decision)[b, sign]
        pol.action_probability_array[row, :] = 0.0
        for a, p in enumerate(probs):
            pol.action_probability_array[row, a] = p
    nash_conv = exploitability.nash_conv(game, pol)
    ours = s.best_response(0) + s.best_response(1)
    assert nash_conv == pytest.approx(ours, abs=1e-6)


def _openspiel_lance(pyspiel: object, s: LanceSolver) -> object:
    """The two-seat lance of ``s`` (positions 0 and 1) as an OpenSpiel game: chance deals the joint buckets,
    then the abstract betting; the returns are mano's win chance minus a half (zero-sum)."""
    ps = pyspiel  # noqa: F841
    import pyspiel as sp

    d = s.data
    k = d.dims[0]
    tree = s.tree
    outcomes = [(b0 * d.dims[1] + b1, float(d.prob[b0, b1, 0, 0])) for b0 in range(k) for b1 in range(d.dims[1]) if d.prob[b0, b1, 0, 0] > 0]
    n_actions = max(len(n.actions) for n in tree.nodes)
    gtype = sp.GameType(
        short_name="mus_lance_test",
        long_name="Mus lance (test)",
        dynamics=sp.GameType.Dynamics.SEQUENTIAL,
        chance_mode=sp.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=sp.GameType.Information.IMPERFECT_INFORMATION,
        utility=sp.GameType.Utility.ZERO_SUM,
        reward_model=sp.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    info = sp.GameInfo(num_distinct_actions=n_actions, max_chance_outcomes=k * d.dims[1], num_players=2,
                       min_utility=-0.5, max_utility=0.5, utility_sum=0.0, max_game_length=20)

    class State(sp.State):  # type: ignore[misc,name-defined]
        def __init__(self, game: object) -> None:
            super().__init__(game)
            self.buckets: tuple[int, int] | None = None
            self.node = 0

        def current_player(self) -> int:
            if self.buckets is None:
                return int(sp.PlayerId.CHANCE)
            if tree.nodes[self.node].pos < 0:
                return int(sp.PlayerId.TERMINAL)
            return tree.nodes[self.node].pos

        def _legal_actions(self, player: int) -> list[int]:
            return list(range(len(tree.nodes[self.node].actions)))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return outcomes

        def _apply_action(self, action: int) -> None:
            if self.buckets is None:
                self.buckets = (action // d.dims[1], action % d.dims[1])
            else:
                self.node = tree.nodes[self.node].children[action]

        def is_terminal(self) -> bool:
            return self.buckets is not None and tree.nodes[self.node].pos < 0

        def returns(self) -> list[float]:
            if not self.is_terminal():
                return [0.0, 0.0]
            assert self.buckets is not None
            u = float(s._terminal[self.node][self.buckets[0], self.buckets[1], 0, 0]) - 0.5
            return [u, -u]

        def information_state_string(self, player: int | None = None) -> str:
            assert self.buckets is not None
            player = self.current_player() if player is None else player
            return f"p{player}:{self.node}:{self.buckets[player]}:0"

        def __str__(self) -> str:
            return f"{self.buckets}:{self.node}"

    class Game(sp.Game):  # type: ignore[misc,name-defined]
        def __init__(self, params: object = None) -> None:
            super().__init__(gtype, info, params or {})

        def new_initial_state(self) -> State:
            return State(self)

    sp.register_game(gtype, Game)
    return sp.load_game("mus_lance_test")


# ----------------------------------------------------------------------------------------------
# The shipped table and the policy
# ----------------------------------------------------------------------------------------------


def test_written_table_reads_back(tmp_path: object) -> None:
    from pathlib import Path

    s = LanceSolver(small_data()[(0, (0, 1, 2, 3))], (40, 40))
    s.run(5)
    tables = {"0|0123|3": [s.average(j) for j in range(len(s.tree.decisions))]}
    path = Path(str(tmp_path)) / "t.bin"
    write_table(path, SMALL, tables, {})
    t = StrategyTable(path)
    for j in (0, 7, len(s.tree.decisions) - 1):
        rows = t.rows(0, (0, 1, 2, 3), 3, j)
        want = s.average(j).reshape(-1, s.average(j).shape[2])
        assert np.allclose(np.array(rows), want, atol=0.01)


def _lance_views(seed: int, hands: list[str] | None = None, lance_steps: int = 6) -> list[object]:
    g = Game(seed=seed, hands=hands) if hands else Game(seed=seed)
    g.act(g.to_act.seat, "no hay mus")
    views = []
    for _ in range(lance_steps):
        t = g.to_act
        if t is None or g.hand.is_over:
            break
        v = g.view(t.seat)
        if v.betting is None:
            g.act(t.seat, v.legal[0])
            continue
        views.append(v)
        p = policy(v)
        g.act(t.seat, max(p, key=lambda a: (p[a], str(a))))
    return views


def test_policy_is_a_distribution_over_legal_actions() -> None:
    for seed in range(6):
        for v in _lance_views(seed, lance_steps=12):
            p = policy(v)  # type: ignore[arg-type]
            assert p and abs(sum(p.values()) - 1.0) < 1e-9
            assert all(x >= 0 for x in p.values())
            assert all(v.betting.can(v.seat, a) for a in p)  # type: ignore[attr-defined]


def test_decision_depends_only_on_what_the_seat_sees() -> None:
    # seat 0 (mano) holds the same cards; the other three hands differ completely
    mine = "12o 12c 1e 4b"
    one = [mine, "11o 11c 10e 7b", "5o 5c 6e 6b", "3o 2c 7e 7c"]
    two = [mine, "1o 1c 2e 2b", "4o 4c 10o 10c", "11e 11b 6o 6c"]
    a = Game(seed=1, hands=one)
    b = Game(seed=1, hands=two)
    for g in (a, b):
        g.act(0, "no hay mus")
    va, vb = a.view(0), b.view(0)
    assert infoset(va) == infoset(vb)
    assert policy(va) == policy(vb)
    # and another seat's different cards do change its own decision's information
    a.act(0, "paso")
    b.act(0, "paso")
    assert infoset(a.view(1)).bucket != infoset(b.view(1)).bucket


def test_shipped_table_covers_every_lance_and_context() -> None:
    t = shipped_table()
    n = len(t.needs) ** 2
    for ctx in range(n):
        for li in (0, 1, 4):
            assert t.has(li, (0, 1, 2, 3), ctx)
        assert t.has(2, (0, 1), ctx) and t.has(3, (0, 1, 2, 3), ctx)
    assert t.path.stat().st_size <= 20 * 2**20


def test_partner_sign_is_read_from_the_senas() -> None:
    from musteach.rules.senas import SENAS

    g = Game(seed=1, hands=["12o 5c 1e 4b", "11o 11c 10e 7b", "12c 12e 6e 6b", "3o 2c 7e 7c"])
    g.act(0, "no hay mus")
    v = g.view(0)
    assert infoset(v).sign == 0
    told = replace(v, partner_senas=(SENAS["morder_labio"],))  # the partner shows two kings
    assert infoset(told).sign == 1
    assert replace(v, partner_senas=(SENAS["lengua"],)) and infoset(replace(v, partner_senas=(SENAS["lengua"],))).sign == 0


def test_strong_level_plays_the_strategy_through_a_match() -> None:
    from musteach.play.bots import play_match
    from musteach.play.levels import LEGACY, make_bot
    from musteach.play.odds_bot import OddsBot
    from musteach.play.strategy.bot import StrategyBot

    strong, legacy = make_bot("strong", seed=1), make_bot(LEGACY, seed=1)
    assert isinstance(strong, StrategyBot) and type(legacy) is OddsBot
    g = play_match([strong, legacy, make_bot("strong", seed=1), make_bot(LEGACY, seed=1)], seed=2)
    assert g.is_over


def test_strong_level_says_why_in_the_learners_language() -> None:
    from musteach.i18n import speaking
    from musteach.play.strategy.bot import StrategyBot

    v = _lance_views(1)[0]
    bot = StrategyBot(seed=0)
    en = bot.advise(v)  # type: ignore[arg-type]
    with speaking("es"):
        es = bot.advise(v)  # type: ignore[arg-type]
    assert en.action == es.action and "computed strategy" in en.reason and "estrategia calculada" in es.reason
    searched = StrategyBot(seed=0, search=40).advise(v)  # type: ignore[arg-type]
    assert v.betting.can(v.seat, searched.action) and "chance of winning the game" in searched.reason  # type: ignore[attr-defined]


def test_after_mus_keeps_kings_and_pairs_and_changes_the_rest() -> None:
    from musteach.play.strategy.solver import after_mus

    rng = np.random.default_rng(7)
    order = np.argsort(rng.random((300, 40)), axis=1)
    hands = after_mus(order, 8)
    assert hands.shape == (300, 4, 4)
    assert all(len(set(h.ravel().tolist())) == 16 for h in hands)
    # seat 0 of the first order: a king (a 3 in 8 reyes is a rey) it held stays, and at least one card changed
    king = [c for c in order[0, :4] if (c >> 2) in (2, 9)]
    assert all(c in hands[0, 0] for c in king[:3])
    assert len(set(hands[0, 0].tolist()) - set(order[0, :4].tolist())) >= 1
    # after the mus, hands hold more kings than fresh ones
    kings_after = np.isin(hands >> 2, (2, 9)).sum()
    kings_before = np.isin(order[:, :16] >> 2, (2, 9)).sum()
    assert kings_after > kings_before


def test_ordago_within_moves_the_ordago_share_to_a_bet_of_stones() -> None:
    from musteach.play.strategy.bot import StrategyBot

    for v in _lance_views(3, lance_steps=12):
        p = policy(v)  # type: ignore[arg-type]
        a = StrategyBot(seed=1, ordago_within=10).advise(v).action  # type: ignore[arg-type]
        assert a.kind != "ordago" and v.betting.can(v.seat, a)  # type: ignore[attr-defined]
        assert p  # the strategy itself still weighs the órdago
