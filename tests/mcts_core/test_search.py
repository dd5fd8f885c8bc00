"""The search core on tiny games whose answers are known."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from games.base import NO_CHANCE
from games.registry import make_game
from mcts_core import (
    ChanceStep,
    ConfigError,
    Decision,
    NodeCapReached,
    Search,
    SearchConfig,
    format_tree,
    tree_to_dict,
    tree_to_dot,
    tree_to_json,
)
from mcts_core.nodes import ActionNode, ChanceNode, OutcomeNode
from mcts_core.policies import make_value_mapping
from tests.toy_games import CoinFlip, Loop, Take


def walk(node: ActionNode | ChanceNode):
    """Every action node and chance node below ``node`` (depth first)."""
    yield node
    for child in node.children:
        yield from walk(child)


def snapshot(search: Search) -> list[tuple]:
    """The whole tree as comparable data: ids, visits and value sums."""
    return [(n.id, type(n).__name__, n.visits, n.value_sums) for n in walk(search.root)]


# ----------------------------------------------------------------- determinism


def test_same_seed_same_tree() -> None:
    a = Search(Take(11), seed=5)
    b = Search(Take(11), seed=5)
    a.run(iterations=300)
    b.run(iterations=300)
    assert snapshot(a) == snapshot(b)


def test_different_seed_different_tree() -> None:
    a = Search(Take(11), config=SearchConfig(expansion_order="random"), seed=1)
    b = Search(Take(11), config=SearchConfig(expansion_order="random"), seed=2)
    a.run(iterations=300)
    b.run(iterations=300)
    assert snapshot(a) != snapshot(b)


def test_step_and_run_build_the_same_tree() -> None:
    """Recording traces must not change what the search does."""
    a = Search(Take(11), seed=3)
    b = Search(Take(11), seed=3)
    for _ in range(200):
        a.step()
    b.run(iterations=200)
    assert snapshot(a) == snapshot(b)


@pytest.mark.parametrize(
    ("game_name", "iterations", "max_nodes"),
    [
        ("tic_tac_toe", 5_000, 500_000),  # root children pass 4,096 visits: the general choice
        ("connect_four", 1_500, 500_000),
        ("connect_four", 600, 400),  # the plain loop hands over to the general one at the cap
    ],
)
def test_the_plain_loop_builds_the_step_tree(
    game_name: str, iterations: int, max_nodes: int
) -> None:
    """``run()``'s one-loop path (plain UCT, random games to the end, no chance) takes the same
    draws and the same choices as the phase-by-phase ``step()``."""
    game = make_game(game_name)
    config = SearchConfig(c=1.4, max_nodes=max_nodes)
    a = Search(game, config=config, seed=4)
    b = Search(game, config=config, seed=4)
    assert b._plain_loop
    for _ in range(iterations):
        try:
            a.step()
        except NodeCapReached:
            break
    b.run(iterations=iterations // 3)
    b.run(iterations=iterations - iterations // 3)
    assert snapshot(a) == snapshot(b)
    assert (a.iterations, a.node_count, a.max_depth) == (b.iterations, b.node_count, b.max_depth)
    assert a.rng.random() == b.rng.random()


def test_the_plain_loop_is_only_for_its_settings() -> None:
    game = make_game("connect_four")
    assert Search(game, config=SearchConfig())._plain_loop
    for other in (
        {"rollout_horizon": "turn"},  # a rollout of one move, then the heuristic
        {"rollout_depth": 3},
        {"rollout": "epsilon"},
        {"solver": True},
        {"tree_policy": "puct"},
        {"min_visits": 3},
    ):
        assert not Search(game, config=SearchConfig(**other))._plain_loop, other
    assert not Search(make_game("gridiron"), config=SearchConfig())._plain_loop  # dice


def test_phases_one_by_one_equal_step() -> None:
    a = Search(CoinFlip(), seed=9)
    b = Search(CoinFlip(), seed=9)
    for _ in range(30):
        expected = a.step()
        assert b.next_phase == "select"
        b.select()
        assert b.next_phase == "expand"
        b.expand()
        assert b.next_phase == "evaluate"
        b.evaluate()
        assert b.next_phase == "backpropagate"
        got = b.backpropagate()
        assert got == expected
    assert snapshot(a) == snapshot(b)


def test_phase_out_of_order_is_refused() -> None:
    search = Search(Take(5), seed=0)
    with pytest.raises(RuntimeError, match="next phase is select"):
        search.expand()
    search.select()
    with pytest.raises(RuntimeError, match="next phase is expand"):
        search.select()
    trace = search.step()  # finishes the half-done iteration
    assert trace.iteration == 1
    assert search.next_phase == "select"


# ------------------------------------------------------------------ the tree


def test_ids_are_creation_order_and_no_chance_node_without_dice() -> None:
    search = Search(Take(9), seed=0)
    search.run(iterations=100)
    nodes = list(walk(search.root))
    assert sorted(n.id for n in nodes) == list(range(search.node_count))
    assert all(type(n) is ActionNode for n in nodes)  # deterministic moves are plain edges
    for node in nodes:
        for child in node.children:
            assert child.id > node.id
            assert child.parent is node


def test_chance_nodes_only_where_an_action_has_two_outcomes() -> None:
    search = Search(CoinFlip(), seed=0)
    search.run(iterations=300)
    kinds = {c.action: type(c) for c in search.root.children}
    assert kinds == {"safe": ActionNode, "gamble": ChanceNode, "bad": ChanceNode}
    for chance in (c for c in search.root.children if isinstance(c, ChanceNode)):
        assert chance.num_outcomes == 2
        # an outcome's decision node stores its outcome; a deterministic move's node does not
        assert all(type(k) is OutcomeNode and k.parent is chance for k in chance.children)
        assert {k.outcome for k in chance.children} <= {"heads", "tails"}
    assert search.root.children[0].outcome is NO_CHANCE


def test_each_iteration_adds_one_node() -> None:
    search = Search(Take(30), seed=0)
    for i in range(1, 20):
        search.step()
        assert search.node_count == 1 + i


def test_tic_tac_toe_100_iterations_make_at_most_101_nodes() -> None:
    from games.tic_tac_toe import TicTacToe

    search = Search(TicTacToe(), seed=0)
    search.run(iterations=100)
    assert search.node_count == len(list(walk(search.root))) <= 101


def test_visits_add_up() -> None:
    search = Search(CoinFlip(), seed=4)
    search.run(iterations=500)
    root = search.root
    assert root.visits == 500
    # the first iteration already expands the root, so every visit passed on to a child
    assert sum(c.visits for c in root.children) == 500
    for move in root.children:
        if isinstance(move, ChanceNode):
            assert move.visits == sum(k.visits for k in move.children)


def test_chance_frequencies_follow_probabilities() -> None:
    search = Search(CoinFlip(), config=SearchConfig(c=100.0), seed=1)  # explore evenly
    search.run(iterations=3000)
    bad = next(c for c in search.root.children if c.action == "bad")
    heads = bad.child_for("heads")
    assert heads is not None
    share = heads.visits / bad.visits
    assert abs(share - 0.25) < 0.05


def test_chance_trace_reports_exact_probability() -> None:
    search = Search(CoinFlip(), config=SearchConfig(c=100.0), seed=1)
    steps = [s for _ in range(50) for s in search.step().path if isinstance(s, ChanceStep)]
    probabilities = {(s.action_label, s.outcome_label): s.probability for s in steps}
    assert probabilities[("bad", "heads")] == 0.25
    assert probabilities[("bad", "tails")] == 0.75
    assert probabilities[("gamble", "heads")] == 0.5


def test_search_prefers_the_better_gamble() -> None:
    search = Search(CoinFlip(), seed=2)
    search.run(iterations=2000)
    assert search.best_action() == "safe" or search.best_action() == "gamble"
    values = {c.label: c.q for c in search.children_summary()}
    assert values["bad"] < values["gamble"] - 0.2
    assert values["bad"] < values["safe"] - 0.2


# --------------------------------------------------------------- the trace


def test_decision_terms_are_the_uct_formula_and_argmax() -> None:
    c = 0.9
    search = Search(Take(12), config=SearchConfig(c=c), seed=0)
    search.run(iterations=60)
    trace = search.step()
    decisions = trace.decisions
    assert decisions, "a fully expanded root must produce a decision"
    for d in decisions:
        for t in d.children:
            assert t.bonus == pytest.approx(c * math.sqrt(math.log(d.parent_visits) / t.visits))
            assert t.score == pytest.approx(t.q + t.bonus)
        best = max(range(len(d.children)), key=lambda i: (d.children[i].score, -i))
        assert d.chosen == best


def test_q_is_from_the_deciding_players_view() -> None:
    """Take 4: player 0 wins by taking 1 (leaving 3). Its Q must be high for player 0 at the
    root and the reply nodes (player 1 to move) must look bad from player 1's view."""
    search = Search(Take(4), config=SearchConfig(solver=False), seed=0)
    search.run(iterations=400)
    root_q = {c.label: c.q for c in search.children_summary()}
    assert root_q["take 1"] > root_q["take 2"]
    after = next(c for c in search.root.children if c.action == 1)
    assert isinstance(after, ActionNode) and after.player == 1
    replies = search.children_summary(after)
    assert all(r.q < 0 for r in replies)  # every reply loses for player 1


def test_ucb1_and_puct_bonus() -> None:
    for policy, formula in (
        ("ucb1", lambda N, n, p, c: 2 * c * math.sqrt(2 * math.log(N) / n)),
        ("puct", lambda N, n, p, c: c * p * math.sqrt(N) / (1 + n)),
    ):
        search = Search(Take(12), config=SearchConfig(tree_policy=policy, c=0.7), seed=0)
        search.run(iterations=40)
        for d in search.step().decisions:
            assert d.rule == policy
            for t in d.children:
                prior = t.prior if t.prior is not None else 0.0
                assert t.bonus == pytest.approx(formula(d.parent_visits, t.visits, prior, 0.7))


def test_min_visits_round_robin() -> None:
    search = Search(Take(20), config=SearchConfig(min_visits=5), seed=0)
    search.run(iterations=2)  # root expanded: two children with one visit each
    rules = []
    for _ in range(8):
        trace = search.step()
        rules.append(trace.decisions[0].rule)
    root_visits = [c.visits for c in search.root.children]
    assert root_visits == [5, 5]
    assert rules == ["min_visits"] * 8
    assert search.step().decisions[0].rule == "uct"  # every child has T visits now


def test_rollout_and_values_in_trace() -> None:
    search = Search(Take(10), seed=0)
    trace = search.step()
    ev = trace.evaluation
    assert ev.kind == "rollout"
    assert len(ev.rollout) >= 1
    assert ev.value in ((1.0, -1.0), (-1.0, 1.0))
    assert trace.path == ()  # the root is not fully expanded: no decision yet
    assert trace.expansion is not None and trace.expansion.node_id == 1
    assert trace.expansion.chance_id is None and trace.expansion.untried == 1
    views = [(u.node_id, u.kind, u.view) for u in trace.updates]
    assert views == [(0, "action", 0), (1, "action", 0)]


def test_chance_node_updates_sit_between_decisions() -> None:
    search = Search(CoinFlip(), seed=0)
    traces = [search.step() for _ in range(3)]
    gamble = traces[1]  # listed order: safe, then gamble (a chance node and its outcome)
    assert gamble.expansion is not None and gamble.expansion.chance_id == 2
    updates = [(u.node_id, u.kind) for u in gamble.updates]
    assert updates == [(0, "action"), (2, "chance"), (3, "action")]


def test_sign_flip_along_the_path() -> None:
    search = Search(Take(8), seed=0)
    search.run(iterations=50)
    trace = search.step()
    for update in trace.updates:
        assert update.added == trace.evaluation.value[update.view]
    assert {u.view for u in trace.updates} == {0, 1}


def test_heuristic_leaf_with_depth_zero() -> None:
    search = Search(Loop(), config=SearchConfig(rollout_depth=0, detect_repeats=False), seed=0)
    search.step()
    trace = search.step()
    assert trace.evaluation.kind in ("heuristic", "terminal")
    assert trace.evaluation.rollout == ()


def test_trace_to_dict_is_json_ready() -> None:
    import json

    search = Search(CoinFlip(), seed=0)
    search.run(iterations=10)
    data = search.step().to_dict()
    text = json.dumps(data)
    assert '"type": "decision"' in text and '"type": "chance"' in text


# ----------------------------------------------------------- value shaping


def test_value_mapping() -> None:
    symmetric = make_value_mapping(
        win_value=1.0, draw_value=0.0, loss_value=-1.0, value_range="symmetric"
    )
    assert [symmetric(r) for r in (1.0, 0.0, -1.0, 0.5)] == [1.0, 0.0, -1.0, 0.5]
    unit = make_value_mapping(win_value=1.0, draw_value=0.0, loss_value=-1.0, value_range="unit")
    assert [unit(r) for r in (1.0, 0.0, -1.0)] == [1.0, 0.5, 0.0]
    paranoid = make_value_mapping(
        win_value=1.0, draw_value=0.0, loss_value=-100.0, value_range="symmetric"
    )
    assert paranoid(1.0) == 1.0 and paranoid(-1.0) == -1.0
    assert paranoid(0.0) == pytest.approx(-1 + 2 * 100 / 101)  # a draw is almost a win
    assert paranoid(-0.5) == pytest.approx(-1 + 2 * 50 / 101)


def test_loss_of_minus_100_keeps_q_in_range() -> None:
    config = SearchConfig(loss_value=-100.0)
    search = Search(Take(10), config=config, seed=0)
    search.run(iterations=300)
    for node in walk(search.root):
        if node.visits:
            assert -1.0 - 1e-9 <= node.mean(0) <= 1.0 + 1e-9


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("c", -1.0, "c must be"),
        ("c", float("nan"), "c must be"),
        ("tree_policy", "ucbx", "tree_policy must be one of"),
        ("loss_value", 2.0, "loss_value"),
        ("draw_value", 5.0, "draw_value"),
        ("min_visits", -3, "min_visits"),
        ("rollout_depth", 1.5, "rollout_depth"),
        ("max_nodes", 10**12, "max_nodes"),
        ("epsilon", 1.5, "epsilon"),
    ],
)
def test_config_rejects_nonsense(field: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SearchConfig(**{field: value})


def test_config_from_dict_rejects_unknown_keys() -> None:
    with pytest.raises(ValueError, match="unknown search parameter"):
        SearchConfig.from_dict({"c": 1.0, "speed": 3})


def test_run_rejects_bad_budgets() -> None:
    search = Search(Take(5))
    with pytest.raises(ValueError):
        search.run()
    with pytest.raises(ValueError):
        search.run(iterations=-1)
    with pytest.raises(ValueError):
        search.run(iterations=10**9)


# ------------------------------------------------------------------ solver


@pytest.mark.parametrize("stones", [4, 5, 6, 7, 8, 9])
def test_solver_proves_take(stones: int) -> None:
    search = Search(Take(stones), config=SearchConfig(solver=True), seed=0)
    result = search.run(iterations=5000)
    mover_wins = stones % 3 != 0
    assert search.root.proven == ((1.0, -1.0) if mover_wins else (-1.0, 1.0))
    assert result.stopped == "solved"
    if mover_wins:
        assert search.best_action() == stones % 3
        assert search.best_child().proven == "win"
    else:
        assert {c.proven for c in search.children_summary()} == {"loss"}


def test_solver_marks_chance_nodes_only_when_all_outcomes_agree() -> None:
    search = Search(CoinFlip(), config=SearchConfig(solver=True), seed=0)
    search.run(iterations=200)
    proofs = {c.label: c.proven for c in search.children_summary()}
    assert proofs == {"safe": "draw", "gamble": None, "bad": None}


# ------------------------------------------------------- loops and the cap


def test_repeated_state_is_not_expanded() -> None:
    search = Search(Loop(), seed=0)
    traces = [search.step() for _ in range(40)]
    kinds = {t.evaluation.kind for t in traces}
    assert "repeat" in kinds
    repeated = next(c for c in search.root.children if c.action == "wait")
    assert repeated.children == ()  # never grown: the loop is cut
    assert any("already occurred" in t.note for t in traces)


def test_node_cap_stops_the_search_with_a_message() -> None:
    search = Search(Take(40), config=SearchConfig(max_nodes=21), seed=0)
    result = search.run(iterations=200)
    assert search.node_count == 21
    assert result.stopped == "node_cap"
    assert "cap of 21 nodes" in result.message
    assert search.root.visits == result.iterations < 200
    before = snapshot(search)
    with pytest.raises(NodeCapReached, match="cap of 21 nodes"):
        search.step()
    assert snapshot(search) == before and search.next_phase == "select"
    search.select()
    with pytest.raises(NodeCapReached):
        search.expand()
    assert snapshot(search) == before and search.next_phase == "select"


# -------------------------------------------------------------- tree reuse


def test_advance_keeps_the_subtree() -> None:
    search = Search(Take(10), seed=0)
    search.run(iterations=300)
    child = next(c for c in search.root.children if c.action == 1)
    visits, before = child.visits, search.node_count
    reuse = search.advance(1)
    assert search.root is child and search.root.parent is None
    assert reuse.kept_visits == visits
    assert reuse.kept_nodes + reuse.discarded_nodes == before
    assert search.root_state == (9, 1)
    assert len(list(walk(search.root))) == search.node_count == reuse.kept_nodes
    search.run(iterations=50)
    assert search.root.visits == visits + 50


def test_advance_rejects_illegal_moves_and_keeps_state() -> None:
    search = Search(CoinFlip(), seed=0)
    search.run(iterations=20)
    count = search.node_count
    with pytest.raises(ValueError, match="illegal move"):
        search.advance("fly")
    with pytest.raises(ValueError, match="say which one happened"):
        search.advance("gamble")
    with pytest.raises(ValueError, match="not possible"):
        search.advance("gamble", "edge")
    assert search.node_count == count
    reuse = search.advance("gamble", "heads")
    assert search.root_state == "won" and reuse.kept_nodes >= 1


def test_reconfigure_keeps_or_rebuilds() -> None:
    search = Search(Take(10), seed=0)
    search.run(iterations=100)
    assert search.reconfigure(SearchConfig(c=0.3)) is True
    assert search.root.visits == 100
    assert search.reconfigure(SearchConfig(c=0.3, loss_value=-5.0)) is False
    assert search.root.visits == 0 and search.node_count == 1


# -------------------------------------------------------- final policies


def test_final_policies_side_by_side() -> None:
    from mcts_core.policies import highest_value, most_visited, robust

    visits = [40, 38, 10, 5]
    values = [0.0, 0.5, 0.6, 0.1]
    assert most_visited(visits, values) == 0
    assert highest_value(visits, values) == 2
    assert robust(visits, values) == 1  # second on both counts beats first-and-last
    assert most_visited([5, 5], [0.1, 0.2]) == 1  # visits tie: value decides
    assert robust([9, 3], [0.8, 0.1]) == 0  # first on both


def test_best_action_needs_iterations() -> None:
    with pytest.raises(ValueError, match="run some iterations"):
        Search(Take(5)).best_action()


# ---------------------------------------------------------------- exports


def test_printed_tree_is_valid_xml() -> None:
    search = Search(CoinFlip(), seed=0)
    search.run(iterations=100)
    text = format_tree(search, max_depth=3, max_children=2)
    root = ET.fromstring(text)
    assert root.tag == "ActionNode" and root.get("p") == "max"
    assert root.get("visits") == "100"
    shown = list(root)
    assert len(shown) == 2  # limited to the 2 most visited children
    assert root.findall("ChanceNode")  # the dice moves keep the tutorial's chance layer
    assert any(n.get("probability") for n in root.iter("ActionNode"))
    safe = root.find("ActionNode[@action='safe']")  # a deterministic move: one edge
    assert safe is None or safe.get("outcome") is None


def test_printed_tree_escapes_labels() -> None:
    class Quoted(CoinFlip):
        def action_label(self, s: str, a: str) -> str:
            return f"<{a}> & 'q' \"dq\""

    search = Search(Quoted(), seed=0)
    search.run(iterations=10)
    root = ET.fromstring(format_tree(search))
    assert root.find("ChanceNode").get("action").startswith("<")  # round-trips through XML


def test_printed_tree_golden() -> None:
    search = Search(Take(3), seed=0)
    search.run(iterations=4)
    assert format_tree(search, max_depth=2) == "\n".join(
        [
            # Take 3 is lost for the mover: both first moves end in -1 for player 0 ("max")
            # unless player 1 errs (node 3: player 1 took 1, player 0 takes the last stone).
            # Deterministic moves nest the next decision directly: no chance layer.
            "<ActionNode id='0' p='max' visits='4' score='-0.5000' actions='2'>",
            "\t<ActionNode id='1' p='min' visits='3' score='-0.3333' actions='2' action='take 1'>",
            "\t\t<ActionNode id='3' p='max' visits='1' score='1.0000' actions='?' "
            "action='take 1'/>",
            "\t\t<ActionNode id='4' p='end' visits='1' score='-1.0000' actions='0' "
            "action='take 2'/>",
            "\t</ActionNode>",
            "\t<ActionNode id='2' p='min' visits='1' score='-1.0000' actions='?' action='take 2'/>",
            "</ActionNode>",
        ]
    )


def test_json_and_dot_exports() -> None:
    import json

    search = Search(CoinFlip(), seed=0)
    search.run(iterations=50)
    data = json.loads(tree_to_json(search))
    assert data == tree_to_dict(search)
    assert data["visits"] == 50 and data["kind"] == "action"
    assert {c["action"] for c in data["children"]} == {"safe", "gamble", "bad"}
    dot = tree_to_dot(search)
    assert dot.startswith("digraph mcts {") and dot.rstrip().endswith("}")
    assert "p=0.250" in dot or "p=0.750" in dot
    with pytest.raises(ValueError, match="max_depth"):
        format_tree(search, max_depth=-1)


def test_state_of_rebuilds_positions() -> None:
    search = Search(Take(10), seed=0)
    search.run(iterations=100)
    for node in walk(search.root):
        state = search.state_of(node)
        if isinstance(node, ActionNode) and node.parent is not None:
            assert state[0] < 10
    assert search.state_of(search.root) == (10, 0)


def test_deterministic_path_has_decisions_only() -> None:
    search = Search(Take(15), seed=0)
    search.run(iterations=100)
    trace = search.step()
    assert trace.path and all(isinstance(step, Decision) for step in trace.path)
    assert all(u.kind == "action" for u in trace.updates)
    assert trace.expansion is not None and trace.expansion.chance_id is None


def test_chance_steps_follow_their_decision_on_the_path() -> None:
    search = Search(CoinFlip(), config=SearchConfig(c=100.0), seed=3)
    search.run(iterations=50)
    for _ in range(20):
        path = search.step().path
        for i, step in enumerate(path):
            if isinstance(step, ChanceStep):
                assert isinstance(path[i - 1], Decision)
                assert step.num_outcomes == 2


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"c": -1.0}, "c must be a finite number"),
        ({"tree_policy": "nope"}, "tree_policy must be one of"),
        ({"rollout_depth": 2.5}, "rollout_depth must be a whole number"),
        ({"loss_value": 5.0}, "loss_value"),
    ],
)
def test_a_nonsense_setting_is_a_config_error(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as raised:
        SearchConfig(**settings)  # type: ignore[arg-type]
    assert isinstance(raised.value, ValueError)  # every ``except ValueError`` still catches it


def test_an_unknown_setting_and_a_nonsense_budget_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown search parameter"):
        SearchConfig.from_dict({"bogus": 1})
    search = Search(make_game("nim"), None, SearchConfig())
    with pytest.raises(ConfigError, match="iterations"):
        search.run(iterations=-1)
