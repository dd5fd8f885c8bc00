"""The narration (app/words/narration.py): sentences from real searches carry the right live
numbers,
every unusual leaf is said plainly, and the values of C where a choice flips are checked by brute
force against the policy's own bonus function."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterator

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.drawing.figures import decision_entropy
from app.words.c_sensitivity import CFlip, exploration_coefficients, flip_c, flip_points
from app.words.c_sentence import flip_sentence
from app.words.narration import (
    ENTROPY_TEXT,
    WORD_BUDGET,
    explain_n_convention,
    narrate_iteration,
    narrate_phase,
    selection_end,
)
from app.words.phrases import fmt
from games import GAME_NAMES, game_spec, make_game
from mcts_core import Search, SearchConfig
from mcts_core.policies import TREE_POLICY_REGISTRY
from mcts_core.trace import (
    ChanceStep,
    ChildTerms,
    Decision,
    Evaluation,
    IterationTrace,
    NodeUpdate,
)
from tests.toy_games import Loop

XO = ("X", "O")
HOME_AWAY = ("Home", "Away")
#: Every registered game's player names, as the app shows them.
NAMES = {name: game_spec(name).player_names for name in GAME_NAMES}


def traces(game: str, config: SearchConfig, n: int, seed: int = 1, **options: object):
    g = make_game(game, **options)
    search = Search(g, None, config, seed=seed)
    return [search.step() for _ in range(n)]


def runner_up(d: Decision) -> ChildTerms:
    """The best other child by score, first in order on a tie (computed here independently)."""
    others = [t for i, t in enumerate(d.children) if i != d.chosen]
    top = max(t.score for t in others)
    return next(t for t in others if t.score == top)


def words(text: str) -> int:
    return len(text.split())


# ----------------------------------------------------------------- formatting


def test_numbers_have_one_format() -> None:
    assert fmt(1 / 3) == "+0.333"
    assert fmt(-1.0) == "-1.000"
    assert fmt(-0.0) == "+0.000"
    assert fmt(-0.0001) == "+0.000"
    assert fmt(2.1679) == "+2.168"


# ------------------------------------------------------------- whole iterations


def test_first_iteration_stops_at_the_root_with_untried_moves() -> None:
    (trace,) = traces("tic_tac_toe", SearchConfig(c=1.4), 1)
    assert trace.decisions == ()
    text = narrate_iteration(trace, XO, 1.4, "uct")
    assert "selection stopped at the root because it has untried moves" in text
    assert trace.expansion is not None
    assert f"added X's move {trace.expansion.action_label}" in text
    leaf = trace.updates[-1]
    assert f"{fmt(leaf.added)} for X at the new node and at the root" in text


def test_tic_tac_toe_step_names_choice_runner_up_margin_and_values() -> None:
    checked = 0
    for trace in traces("tic_tac_toe", SearchConfig(c=1.4), 80, seed=2):
        if not trace.decisions:
            continue
        d = trace.decisions[0]
        t, u = d.chosen_terms, runner_up(d)
        text = narrate_iteration(trace, XO, 1.4, "uct")
        assert text.startswith("Select: ")
        for phase in ("; expand: ", ". Simulate: ", "; backpropagate: "):
            assert phase in text
        who = XO[d.player]
        assert f"{who} took {t.label} (Q {fmt(t.q)} plus bonus {fmt(t.bonus)}" in text
        assert f"= {fmt(t.score)})" in text
        margin = t.score - u.score
        if margin == 0.0:
            assert f"tied with {u.label}" in text
        else:
            assert f"over runner-up {u.label}" in text
            assert fmt(u.score) in text
            by = "by less than 0.0005" if margin < 0.0005 else f"by {fmt(margin)}"
            assert by in text
        leaf = trace.updates[-1]
        assert f"{fmt(leaf.added)} for {XO[leaf.view]} at the new node" in text
        others = [x for x in trace.updates[:-1] if x.view != leaf.view]
        if others:
            assert f"{fmt(others[0].added)} for {XO[others[0].view]}" in text
        if len(trace.decisions) > 1:
            more = len(trace.decisions) - 1
            noun = "decision" if more == 1 else "decisions"
            assert f"then {more} more {noun} to depth {len(trace.decisions)}" in text
        assert words(text) <= WORD_BUDGET + 10, text
        checked += 1
    assert checked > 50


def test_connect_four_steps_summarise_deep_paths() -> None:
    deep = 0
    for trace in traces("connect_four", SearchConfig(c=1.4), 400, seed=5):
        text = narrate_iteration(trace, XO, 1.4, "uct")
        assert words(text) <= WORD_BUDGET + 20, text
        if len(trace.decisions) >= 3:
            deep += 1
            d = trace.decisions[0]
            assert f"X took {d.chosen_terms.label} (Q {fmt(d.chosen_terms.q)}" in text
            assert f"more decisions to depth {len(trace.decisions)}" in text
        if trace.evaluation.kind == "rollout":
            n = len(trace.evaluation.rollout)
            raw = trace.evaluation.raw
            result = (
                "a draw" if raw[0] == raw[1] else f"a win for {XO[0 if raw[0] > raw[1] else 1]}"
            )
            moves = "move" if n == 1 else "moves"
            assert f"a rollout of {n} {moves} ended in {result}" in text
    assert deep > 10


def test_gridiron_step_names_dice_with_their_probabilities() -> None:
    seen_expansion_dice = seen_path_dice = 0
    for trace in traces("gridiron", SearchConfig(c=1.4), 300, seed=1):
        text = narrate_iteration(trace, HOME_AWAY, 1.4, "uct")
        exp = trace.expansion
        if exp is not None and exp.chance_id is not None:
            seen_expansion_dice += 1
            drew = f"{exp.outcome_label} (probability {exp.probability:.3f})"
            if exp.new_action:
                assert (
                    f"added {HOME_AWAY[trace.updates[-1].view]}'s move {exp.action_label}, "
                    + (f"and the dice gave {drew}")
                    in text
                )
            else:
                assert f"added the new dice outcome of {exp.action_label}: {drew}" in text
        drawn = [s for s in trace.chance_steps if s.child_id is not None]
        if drawn:
            seen_path_dice += 1
            # named with its probability, or counted when the sentence is long
            count = f"{len(drawn)} dice roll"
            full = f"{drawn[0].outcome_label} (probability {drawn[0].probability:.3f})"
            assert full in text or count in text, text
        assert words(text) <= 110, text
    assert seen_expansion_dice and seen_path_dice


def test_gridiron_root_kick_off_is_called_forced_and_the_real_choice_is_narrated() -> None:
    found = False
    for trace in traces("gridiron", SearchConfig(c=1.4), 60, seed=1):
        ds = trace.decisions
        if len(ds) >= 2 and len(ds[0].children) == 1 and len(ds[1].children) > 1:
            text = narrate_iteration(trace, HOME_AWAY, 1.4, "uct")
            assert "kick-off" in text and "at depth 1 " in text
            assert f"took {ds[1].chosen_terms.label} (Q {fmt(ds[1].chosen_terms.q)}" in text
            found = True
    assert found


def test_puct_priors_and_ucb1_are_narrated() -> None:
    config = SearchConfig(c=1.0, tree_policy="puct", prior="heuristic")
    for path, context, *_ in run_phases("tic_tac_toe", config, 60, seed=3):
        if path:
            d = path[0]
            assert isinstance(d, Decision)
            t, u = d.chosen_terms, runner_up(d)
            assert t.prior is not None and u.prior is not None
            text = narrate_phase("select", path, context, XO, 1.0, "puct")
            assert f"plus bonus {fmt(t.bonus)} (prior {t.prior:.3f}) = {fmt(t.score)}" in text
            assert f"(prior {u.prior:.3f})" in text
    for trace in traces("tic_tac_toe", SearchConfig(c=0.7, tree_policy="ucb1"), 40, seed=3)[12:]:
        t = trace.decisions[0].chosen_terms
        assert f"plus bonus {fmt(t.bonus)}" in narrate_iteration(trace, XO, 0.7, "ucb1")


def test_min_visits_rule_is_said() -> None:
    config = SearchConfig(c=1.0, min_visits=3)
    hits = 0
    for trace in traces("tic_tac_toe", config, 40, seed=4):
        if trace.decisions and trace.decisions[0].rule == "min_visits":
            d = trace.decisions[0]
            text = narrate_iteration(trace, XO, 1.0, "uct")
            assert f"took {d.chosen_terms.label} by the minimum-visits rule" in text
            assert f"(n = {d.chosen_terms.visits})" in text
            assert flip_c(d, "uct", 1.0) is None
            assert flip_sentence(d, "uct", 1.0).startswith("C did not matter")
            hits += 1
    assert hits


def test_terminal_and_proven_leaves_with_the_solver() -> None:
    game = make_game("tic_tac_toe")
    search = Search(game, game.parse_state("XX.OO...."), SearchConfig(solver=True), seed=0)
    texts = [narrate_iteration(search.step(), XO, 1.4, "uct") for _ in range(4)]
    # c1 is the first move listed: its new node ends the game and proves the root
    assert "added X's move c1" in texts[0]
    assert "the new position ends the game in a win for X" in texts[0]
    assert "+1.000 for X at the new node and at the root" in texts[0]
    assert "the root is now proven, a win for X" in texts[0]
    for text in texts[1:]:
        assert (
            "selection stopped at the root because the root is already proven (a win for X)" in text
        )
        assert "Simulate: the root is proven: a win for X" in text
        assert "nothing added" in text


def test_terminal_leaf_reached_again_without_the_solver() -> None:
    game = make_game("tic_tac_toe")
    search = Search(game, game.parse_state("XX.OO...."), SearchConfig(c=1.0), seed=0)
    found = False
    for _ in range(40):
        trace = search.step()
        if trace.expansion is None and trace.evaluation.kind == "terminal":
            text = narrate_iteration(trace, XO, 1.0, "uct")
            assert "expand: nothing added, the game is over at the leaf" in text
            assert "the leaf ends the game in a win for X" in text
            assert "+1.000 for X at the leaf" in text
            found = True
    assert found


def test_repeated_state_is_called_a_loop() -> None:
    search = Search(Loop(), None, SearchConfig(c=1.0), seed=0)
    trace_list = [search.step() for _ in range(5)]
    first = narrate_iteration(trace_list[0], ("P0", "P1"), 1.0, "uct")
    assert "added P0's move wait" in first
    assert "the new position repeats a position on this path (a loop)" in first
    again = next(t for t in trace_list if t.expansion is None and t.evaluation.kind == "repeat")
    text = narrate_iteration(again, ("P0", "P1"), 1.0, "uct")
    assert "expand: nothing added." in text
    assert f"heuristic valued it at {fmt(again.evaluation.value[0])} for P0" in text
    assert again.note not in text  # said in the narration's own words


def test_node_cap_and_unknown_notes() -> None:
    (trace,) = [t for t in traces("tic_tac_toe", SearchConfig(c=1.4), 12) if t.decisions][:1]
    capped = dataclasses.replace(trace, expansion=None, note="The tree is full: raise max_nodes.")
    text = narrate_iteration(capped, XO, 1.4, "uct")
    assert "expand: nothing added, the tree is full (node cap)" in text
    assert text.endswith(" The tree is full: raise max_nodes.")


# --------------------------------------------------------------------- phases


def run_phases(game: str, config: SearchConfig, n: int, seed: int = 1) -> Iterator[tuple]:
    g = make_game(game)
    search = Search(g, None, config, seed=seed)
    for _ in range(n):
        path = search.select()
        context = selection_end(search, path)
        expansion = search.expand()
        evaluation = search.evaluate()
        trace = search.backpropagate()
        yield path, context, expansion, evaluation, trace


@pytest.mark.parametrize("game", GAME_NAMES)
def test_phase_narrations_lead_with_the_phase_and_agree_with_the_trace(game: str) -> None:
    names = NAMES[game]
    for path, context, expansion, evaluation, trace in run_phases(game, SearchConfig(), 60):
        select = narrate_phase("select", path, context, names, 1.4, "uct")
        expand = narrate_phase("expand", expansion, context, names, 1.4, "uct")
        simulate = narrate_phase("evaluate", evaluation, context, names, 1.4, "uct")
        backup = narrate_phase("backpropagate", trace, context, names, 1.4, "uct")
        assert select.startswith("Select: ")
        assert expand.startswith("Expand: ")
        assert simulate.startswith("Simulate: ")
        assert backup.startswith("Backpropagate: ")
        assert narrate_phase("simulate", evaluation, context, names, 1.4, "uct") == simulate
        # the finished trace tells the same story as the context read from the tree
        assert narrate_phase("select", path, trace, names, 1.4, "uct") == select
        assert narrate_phase("expand", expansion, trace, names, 1.4, "uct") == expand
        assert context.stop in ("untried", "new_outcome")
        if path:
            depth = sum(isinstance(s, Decision) for s in path)
            assert f"it stopped at depth {depth}" in select or "not in the tree yet" in select
            d = next((x for x in trace.decisions if len(x.children) > 1), trace.decisions[0])
            assert fmt(d.chosen_terms.score) in select
        else:
            assert "selection stopped at the root because it has untried moves" in select
        if expansion is not None:
            assert f"as node {expansion.node_id}" in expand
            assert expansion.action_label in expand
        for p, v in enumerate(evaluation.value):
            assert f"{fmt(v)} for {names[p]}" in simulate
        visits = trace.updates[0].visits
        assert f"The root now has {visits} visit{'s' if visits > 1 else ''}." in backup
        assert "from the view of the player who moved into it" in backup or len(trace.updates) == 1
        # no context: still a sentence, just less said
        assert narrate_phase("select", path, None, names, 1.4, "uct").startswith("Select: ")
        assert narrate_phase("expand", expansion, None, names, 1.4, "uct").startswith("Expand: ")


def test_phase_names_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown phase"):
        narrate_phase("rollout", None, None, XO, 1.0, "uct")


def test_selection_end_reads_terminal_proven_and_loop_stops() -> None:
    game = make_game("tic_tac_toe")
    search = Search(game, game.parse_state("XX.OO...."), SearchConfig(solver=True), seed=0)
    for _ in range(3):
        search.step()
    path = search.select()
    context = selection_end(search, path)
    assert path == () and context.stop == "proven"
    assert narrate_phase("select", path, context, XO, 1.4, "uct") == (
        "Select: selection stopped at the root because the root is already proven."
    )
    expand = narrate_phase("expand", search.expand(), context, XO, 1.4, "uct")
    assert expand == "Expand: nothing added, the root is proven so its value is known exactly; " + (
        "simulate comes next."
    )
    search.step()

    plain = Search(game, game.parse_state("XX.OO...."), SearchConfig(c=1.0), seed=0)
    stops = set()
    for _ in range(30):
        path = plain.select()
        context = selection_end(plain, path)
        stops.add(context.stop)
        if context.stop == "terminal":
            text = narrate_phase("select", path, context, XO, 1.0, "uct")
            assert text.endswith("it stopped at depth 1, a position where the game is over.")
            assert narrate_phase("expand", plain.expand(), context, XO, 1.0, "uct") == (
                "Expand: nothing added, the game is over at the leaf; simulate comes next."
            )
        plain.step()
    assert {"untried", "terminal"} <= stops

    loop = Search(Loop(), None, SearchConfig(c=1.0), seed=0)
    contexts = []
    for _ in range(5):
        path = loop.select()
        contexts.append((path, selection_end(loop, path)))
        loop.step()
    repeat = [(p, c) for p, c in contexts if c.stop == "repeat"]
    assert repeat
    path, context = repeat[0]
    assert "a position already seen on this path (a loop)" in narrate_phase(
        "select", path, context, ("P0", "P1"), 1.0, "uct"
    )


def test_new_dice_outcome_in_the_selection() -> None:
    found = False
    for path, context, expansion, _, _ in run_phases("gridiron", SearchConfig(), 200):
        if context.stop == "new_outcome":
            last = path[-1]
            assert isinstance(last, ChanceStep) and last.child_id is None
            text = narrate_phase("select", path, context, HOME_AWAY, 1.4, "uct")
            assert "the dice drew an outcome not in the tree yet" in text
            assert f"{last.outcome_label} (probability {last.probability:.3f})" in text
            assert expansion is not None and not expansion.new_action
            expand = narrate_phase("expand", expansion, context, HOME_AWAY, 1.4, "uct")
            assert f"added the new dice outcome of {expansion.action_label}" in expand
            found = True
    assert found


# --------------------------------------------------------------- plain text

MARKUP = re.compile(r"[*_`<>#\[\]|~$\\]")


def test_output_is_plain_text_and_labels_pass_through_verbatim() -> None:
    (trace,) = [t for t in traces("tic_tac_toe", SearchConfig(c=1.4), 12) if t.decisions][:1]
    nasty = ["**b1**", "<b>x</b>", "`c`", "$x_1$", "[a](b)", "# h", "a|b", "~~s~~", "\\n"]
    d = trace.decisions[0]
    children = tuple(
        dataclasses.replace(t, label=nasty[i % len(nasty)]) for i, t in enumerate(d.children)
    )
    weird = dataclasses.replace(trace, path=(dataclasses.replace(d, children=children),))
    names = ("<X>", "*O*")
    text = narrate_iteration(weird, names, 1.4, "uct")
    chosen = children[d.chosen].label
    assert chosen in text  # verbatim: not escaped, not stripped
    own = text
    for label in [*nasty, *names]:
        own = own.replace(label, "")
    assert not MARKUP.search(own), own
    # and over real narrations of every kind, our own words carry no markup characters
    for game, config in (
        ("tic_tac_toe", SearchConfig(solver=True)),
        ("connect_four", SearchConfig(tree_policy="puct", prior="heuristic")),
        ("gridiron", SearchConfig(rollout_depth=3)),
    ):
        for t in traces(game, config, 80):
            assert not MARKUP.search(narrate_iteration(t, NAMES[game], 1.4, config.tree_policy))
            if t.decisions:
                assert not MARKUP.search(flip_sentence(t.decisions[0], config.tree_policy, 1.4))
    assert not MARKUP.search(explain_n_convention() + ENTROPY_TEXT)


# ------------------------------------------------------------------ flipping C


def argmax_at(d: Decision, policy: str, c: float) -> int:
    """The search's own choice at C = ``c``: the policy's bonus function, first maximum."""
    tree_policy = TREE_POLICY_REGISTRY[policy]
    priors = [t.prior for t in d.children] if tree_policy.needs_priors else None
    bonuses = tree_policy.bonus(d.parent_visits, [t.visits for t in d.children], priors, c=c)
    best, best_score = 0, -math.inf
    for i, (t, b) in enumerate(zip(d.children, bonuses, strict=True)):
        if t.q + b > best_score:
            best, best_score = i, t.q + b
    return best


def check_flips(d: Decision, policy: str, c: float) -> int:
    """Brute-force check of every flip of ``d``; returns how many flips were checked."""
    assert argmax_at(d, policy, c) == d.chosen
    flips = flip_points(d, policy, c)
    for f in flips:
        x = f.c_flip
        eps = 1e-7 * max(1.0, x)
        assert d.children[f.runner_up_index].label == f.runner_up_label
        if f.direction == "raise":
            assert argmax_at(d, policy, x + eps) == f.runner_up_index, (f, d)
            assert argmax_at(d, policy, max(x - eps, 0.0)) == d.chosen or x - eps < 0
            if x - eps > c:  # nothing else changes the choice on the way up
                for y in (c + (x - c) * k / 8 for k in range(8)):
                    assert argmax_at(d, policy, y) == d.chosen
        elif x == 0.0:
            assert argmax_at(d, policy, 0.0) == f.runner_up_index, (f, d)
            assert argmax_at(d, policy, eps) == d.chosen
        else:
            assert argmax_at(d, policy, x - eps) == f.runner_up_index, (f, d)
            assert argmax_at(d, policy, x + eps) == d.chosen
            if x + eps < c:
                for y in (x + (c - x) * k / 8 for k in range(1, 9)):
                    assert argmax_at(d, policy, y) == d.chosen
    directions = [f.direction for f in flips]
    if "raise" not in directions:  # the choice holds for every larger C
        for y in (c, c + 1, 2 * c + 5, 100.0, 1e4):
            assert argmax_at(d, policy, y) == d.chosen, (d, y)
    if "lower" not in directions:  # ... and for every smaller one
        for y in (0.0, c / 3, c / 2):
            assert argmax_at(d, policy, y) == d.chosen, (d, y)
    nearest = flip_c(d, policy, c)
    if flips:
        assert nearest is not None and nearest in flips
        assert abs(nearest.c_flip - c) == min(abs(f.c_flip - c) for f in flips)
    else:
        assert nearest is None
    return len(flips)


@pytest.mark.parametrize("policy", ["uct", "ucb1", "puct"])
@pytest.mark.slow
def test_flip_c_by_brute_force_on_real_searches(policy: str) -> None:
    checked = flipped = 0
    for game in ("tic_tac_toe", "connect_four", "gridiron"):
        for c in (0.0, 0.4, 1.4, 3.0):
            config = SearchConfig(c=c, tree_policy=policy, prior="heuristic")
            for seed in (1, 2):
                for trace in traces(game, config, 150, seed=seed):
                    for d in trace.decisions:
                        if len(d.children) < 2:
                            continue
                        coefficients = exploration_coefficients(d, policy)
                        assert coefficients is not None
                        for t, b in zip(d.children, coefficients, strict=True):
                            assert math.isclose(t.bonus, c * b, rel_tol=1e-12, abs_tol=1e-12)
                        flipped += check_flips(d, policy, c)
                        checked += 1
    assert checked > 1000 and flipped > 500


def test_flip_c_at_c_zero_uses_the_formula_not_the_bonus() -> None:
    config = SearchConfig(c=0.0)
    for trace in traces("tic_tac_toe", config, 60, seed=2)[10:]:
        d = trace.decisions[0]
        assert all(t.bonus == 0.0 for t in d.children)
        assert any(b > 0 for b in exploration_coefficients(d, "uct") or [])
        check_flips(d, "uct", 0.0)


@st.composite
def decisions(draw: st.DrawFn) -> tuple[Decision, str, float]:
    policy = draw(st.sampled_from(["uct", "ucb1", "puct"]))
    k = draw(st.integers(2, 7))
    visits = draw(st.lists(st.integers(1, 40), min_size=k, max_size=k))
    qs = draw(st.lists(st.integers(-8, 8), min_size=k, max_size=k))
    raw_priors = draw(st.lists(st.integers(1, 9), min_size=k, max_size=k))
    priors = [p / sum(raw_priors) for p in raw_priors]
    c = draw(st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.4, 2.0, 5.0]))
    parent = sum(visits) + draw(st.integers(0, 3))
    tree_policy = TREE_POLICY_REGISTRY[policy]
    used = priors if tree_policy.needs_priors else None
    bonuses = tree_policy.bonus(parent, visits, used, c=c)
    children = tuple(
        ChildTerms(
            node_id=i + 1,
            action=i,
            label=f"m{i}",
            visits=visits[i],
            q=qs[i] / 8,
            bonus=bonuses[i],
            prior=None if used is None else used[i],
            score=qs[i] / 8 + bonuses[i],
        )
        for i in range(k)
    )
    scores = [t.score for t in children]
    chosen = scores.index(max(scores))
    # Brute force needs events it can tell apart: no two slopes equal in exact arithmetic but
    # not in floats (PUCT's 3/22 / 12 against 9/22 / 36: rounding, not a flip), and no two
    # different crossing points closer than the probe's step.
    b = tree_policy.bonus(parent, visits, used, c=1.0)
    inputs = [(visits[i], None if used is None else used[i]) for i in range(k)]
    for i in range(k):
        for j in range(i):
            if inputs[i] != inputs[j]:  # different inputs: slopes clearly apart or a redraw
                assume(abs(b[i] - b[j]) > 1e-9 * max(b[i], b[j]))
    crossings = sorted(
        {
            round((qs[i] - qs[j]) / 8 / (b[j] - b[i]), 9)
            for i in range(k)
            for j in range(k)
            if b[j] > b[i]
        }
    )
    assume(all(y - x > 1e-5 * max(1.0, y) for x, y in zip(crossings, crossings[1:], strict=False)))
    return Decision(0, 0, parent, policy, children, chosen), policy, c


@settings(max_examples=400, deadline=None)
@given(decisions())
@pytest.mark.slow
def test_flip_c_by_brute_force_on_generated_decisions(case: tuple[Decision, str, float]) -> None:
    d, policy, c = case
    check_flips(d, policy, c)


def make_decision(qs: list[float], visits: list[int], chosen: int, c: float) -> Decision:
    bonuses = TREE_POLICY_REGISTRY["uct"].bonus(sum(visits), visits, None, c=c)
    children = tuple(
        ChildTerms(i, i, f"c{i + 1}", n, q, b, None, q + b)
        for i, (q, n, b) in enumerate(zip(qs, visits, bonuses, strict=True))
    )
    return Decision(0, 0, sum(visits), "uct", children, chosen)


def test_flip_sentences() -> None:
    # c1: best Q, most visits; c2: worse Q, fewer visits (a bigger bonus): raising C flips it
    d = make_decision([0.5, 0.0], [10, 2], 0, 1.0)
    f = flip_c(d, "uct", 1.0)
    assert isinstance(f, CFlip) and f.direction == "raise" and f.runner_up_label == "c2"
    raise_c2 = f"Raise C above {f.c_flip:.2f} and c2 would be chosen instead."
    assert flip_sentence(d, "uct", 1.0) == raise_c2
    assert flip_sentence(f) == raise_c2  # the flip alone says the same
    assert flip_sentence(None) == ""
    with pytest.raises(TypeError):
        flip_sentence(d)
    # the same children at a C that already picks c2: lowering flips it back
    c = f.c_flip * 1.5
    d2 = make_decision([0.5, 0.0], [10, 2], 1, c)
    g = flip_c(d2, "uct", c)
    assert g is not None and g.direction == "lower" and g.runner_up_label == "c1"
    assert math.isclose(g.c_flip, f.c_flip)
    assert (
        flip_sentence(d2, "uct", c)
        == f"Lower C below {g.c_flip:.2f} and c1 would be chosen instead."
    )
    # best Q and the biggest bonus: no C changes it
    d3 = make_decision([0.5, 0.0], [2, 10], 0, 1.0)
    assert flip_c(d3, "uct", 1.0) is None
    assert flip_sentence(d3, "uct", 1.0).startswith("No value of C changes this choice: c1")
    # both directions: the nearest first, the other after it
    d4 = make_decision([0.0, 0.3, -0.4], [4, 20, 1], 0, 1.0)
    flips = flip_points(d4, "uct", 1.0)
    assert [x.direction for x in flips] == ["lower", "raise"]
    sentence = flip_sentence(d4, "uct", 1.0)
    assert "c2" in sentence and "c3" in sentence and sentence.count(";") == 1
    # a tie at C = 0 goes to the first in order: setting C to 0 gives c1
    d5 = make_decision([0.2, 0.2], [10, 2], 1, 1.0)
    zero = [x for x in flip_points(d5, "uct", 1.0) if x.direction == "lower"]
    assert zero and zero[0].c_flip == 0.0 and zero[0].runner_up_label == "c1"
    assert "Set C to 0 and c1 would be chosen instead" in flip_sentence(d5, "uct", 1.0)
    # one child, or a rule that is not the formula
    one = make_decision([0.1], [3], 0, 1.0)
    assert flip_c(one, "uct", 1.0) is None
    assert "only move" in flip_sentence(one, "uct", 1.0)
    solver = dataclasses.replace(d, rule="solver")
    assert flip_c(solver, "uct", 1.0) is None
    assert flip_sentence(solver, "uct", 1.0).startswith("C did not matter")


def test_flip_sentence_uses_more_decimals_when_two_would_read_as_the_current_c() -> None:
    d = make_decision([0.5, 0.0], [10, 2], 0, 1.0)
    f = flip_c(d, "uct", 1.0)
    assert f is not None
    c = f.c_flip - 0.001  # just below the flip: two decimals would read the same
    d = make_decision([0.5, 0.0], [10, 2], 0, c)
    sentence = flip_sentence(d, "uct", c)
    number = re.search(r"above (\d+\.\d+)", sentence)
    assert number is not None and number.group(1) != f"{c:.2f}"


# ------------------------------------------------------------------ the tables


def test_n_convention_matches_the_trace() -> None:
    text = explain_n_convention()
    assert "before this iteration's backup" in text and "after it" in text
    for trace in traces("tic_tac_toe", SearchConfig(c=1.4), 40, seed=6)[10:]:
        d = trace.decisions[0]
        after = {u.node_id: u.visits for u in trace.updates}
        assert after[d.node_id] == d.parent_visits + 1  # N before, updates after
        assert after[d.chosen_terms.node_id] == d.chosen_terms.visits + 1  # n before


def test_entropy_text_matches_the_units_of_the_tables() -> None:
    for k in (3, 9):
        even = Decision(
            0,
            0,
            k * 4,
            "uct",
            tuple(ChildTerms(i, i, str(i), 4, 0.0, 0.0, None, 0.0) for i in range(k)),
            0,
        )
        assert f"{decision_entropy(even):.2f} for {k} moves" in ENTROPY_TEXT
    one = Decision(0, 0, 5, "uct", (ChildTerms(1, 1, "a", 5, 0.0, 0.0, None, 0.0),), 0)
    assert decision_entropy(one) == 0.0 and "0 means every visit went to one move" in ENTROPY_TEXT


def test_unit_value_range_shows_complements_not_sign_flips() -> None:
    config = SearchConfig(c=0.5, value_range="unit")
    for trace in traces("tic_tac_toe", config, 30, seed=1)[9:]:
        text = narrate_iteration(trace, XO, 0.5, "uct")
        leaf = trace.updates[-1]
        assert f"{fmt(leaf.added)} for {XO[leaf.view]}" in text
        assert "-" not in re.sub(r"[a-z]-[a-z]", "", text.split("backpropagate:")[1])


def test_handmade_trace_at_the_root() -> None:
    evaluation = Evaluation("heuristic", (), "s", (0.25, -0.25), (0.25, -0.25))
    trace = IterationTrace(
        1,
        (),
        None,
        0,
        evaluation,
        (NodeUpdate(0, "action", 0, 0, 0.25, 1, 0.25),),
    )
    text = narrate_iteration(trace, XO, 1.0, "uct")
    assert "the heuristic valued the root at +0.250 for X" in text
    assert text.endswith("backpropagate: +0.250 for X at the root.")
    assert "selection stopped at the root: the tree is full (node cap)" in text


def test_an_expansion_names_the_player_deciding_at_the_expanded_node() -> None:
    """A file's iteration (its values from the "node" view: the leaf's view is its own mover's,
    not the one who moved into it) names the mover from the file's player of the expanded
    node (issue 41: "added X's move b3" for O's move)."""
    game = make_game("tic_tac_toe")
    search = Search(game, game.initial_state(), SearchConfig(), seed=0)
    trace = search.step()
    assert trace.expansion is not None and trace.updates[0].player == 0
    names = ("X", "O")
    said = narrate_phase("expand", trace.expansion, trace, names, 1.4, "uct")
    assert "X's move" in said
    leaf = dataclasses.replace(trace.updates[-1], view=1)  # the leaf's own mover's view
    node_view = dataclasses.replace(trace, updates=(*trace.updates[:-1], leaf))
    assert narrate_phase("expand", trace.expansion, node_view, names, 1.4, "uct") == said
