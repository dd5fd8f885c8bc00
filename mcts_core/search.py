"""The search: Monte Carlo Tree Search that runs one iteration at a time and explains it.

An iteration is four phases, each its own method (mctx: simulate, expand, backward):

1. ``_select``: from the root, pick a move at every fully expanded decision node with the tree
   policy (and draw an outcome where the move is a chance node), until a node that can grow (an
   untried action, or an outcome never drawn before), a terminal or proven node, or a repeated
   state.
2. ``_expand``: add the new node: the next untried action (its next decision, or its chance node
   and the outcome drawn), or the new outcome of a known chance node.
3. ``_evaluate``: value the new leaf: terminal returns, a proof, or a rollout (random,
   heuristic-greedy or epsilon-greedy, depth- or turn-limited) ending in returns or the heuristic.
4. ``_backpropagate``: add the leaf's per-player values to every node on the path; with the
   solver, propagate proven results upwards.

``step()`` runs one iteration and returns its :class:`~mcts_core.trace.IterationTrace`;
``select()``, ``expand()``, ``evaluate()`` and ``backpropagate()`` run the phases one at a time
for teaching; ``run()`` loops without recording traces (the fast path). Every random draw comes
from the search's own ``random.Random(seed)``, so the same seed gives the same tree.

The solver (:mod:`mcts_core.solver`), the tree queries (:mod:`mcts_core.queries`), building the
trace records (:mod:`mcts_core.tracing`), the rollouts (:mod:`mcts_core.rollout`), the run's
budget and the node cap (:mod:`mcts_core.limits`), the state cache
(:mod:`mcts_core.state_cache`), what a real move keeps of the tree (:mod:`mcts_core.reuse`) and
the benchmark's one-loop ``run()`` (:mod:`mcts_core.plain_loop`) live in their own modules; this
one runs the iterations.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable
from typing import Any, NoReturn

from mcts_core import queries
from mcts_core.config import FINAL_POLICIES, SearchConfig
from mcts_core.game import Game
from mcts_core.limits import NodeCapReached, RunResult, node_cap_message, run_limit
from mcts_core.nodes import (
    ActionNode,
    ChanceNode,
    Move,
    OutcomeNode,
    SolverNode,
    SolverOutcomeNode,
)
from mcts_core.phases import PHASES, Iteration, Phase, RunStop, Stop
from mcts_core.plain_loop import plain_loop_applies, run_plain
from mcts_core.policies import INVERSE_SQRT, TREE_POLICY_REGISTRY, make_value_mapping, softmax
from mcts_core.queries import ChildSummary
from mcts_core.reuse import UNSET, Reuse, kept_root, played_outcome
from mcts_core.rollout import action_score, generic_random_playout, guided_playout, sample_outcome
from mcts_core.solver import proof_label, propagate_proofs
from mcts_core.state_cache import CACHE_VISITS, replay_state
from mcts_core.trace import (
    Decision,
    Evaluation,
    Expansion,
    IterationTrace,
    PathStep,
)
from mcts_core.tracing import chance_step, decision, expansion, iteration_trace, rollout_steps

__all__ = [
    "CACHE_VISITS",
    "PHASES",
    "ChildSummary",
    "NodeCapReached",
    "Reuse",
    "RunResult",
    "Search",
    "proof_label",
]


class Search:
    """MCTS over a two-player game with chance, one iteration at a time.

    Args:
        game: rules implementing :class:`mcts_core.game.Game`.
        root_state: where the search starts (default: the game's initial state).
        config: a :class:`SearchConfig` (default settings when ``None``).
        seed: seeds the search's random generator; same seed, same tree.
    """

    def __init__(
        self,
        game: Game[Any],
        root_state: Any = None,
        config: SearchConfig | None = None,
        seed: int = 0,
    ) -> None:
        if getattr(game, "num_players", 2) != 2:
            raise ValueError(
                f"the search supports two-player games; {game.name} has {game.num_players} players"
            )
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ValueError(f"seed must be a whole number in [0, 2**63), got {seed!r}")
        self.game = game
        self.seed = seed
        self.config = config or SearchConfig()
        self._apply_config()
        self._reset(game.initial_state() if root_state is None else root_state)

    # ----------------------------------------------------------------- set-up

    def _apply_config(self) -> None:
        cfg = self.config
        self._value: Callable[[float], float] = make_value_mapping(
            win_value=cfg.win_value,
            draw_value=cfg.draw_value,
            loss_value=cfg.loss_value,
            value_range=cfg.value_range,
        )
        self._policy = TREE_POLICY_REGISTRY[cfg.tree_policy]
        # Shaped values of terminal returns, keyed by the returns tuple. Sharing the float
        # objects keeps leaf nodes small: a node visited once stores these very objects.
        self._terminal_values: dict[tuple[float, ...], tuple[float, float]] = {}
        # Plain UCT without recording is the benchmark's hot loop: it gets a fused loop.
        self._plain_uct = cfg.tree_policy == "uct" and cfg.min_visits <= 1 and not cfg.solver
        fast = getattr(self.game, "random_playout", None)
        self._fast_playout = fast if cfg.rollout == "random" else None
        # The loop guard hashes every state on the path: skip it where states cannot repeat.
        self._detect_repeats = cfg.detect_repeats and not getattr(
            self.game, "states_never_repeat", False
        )
        # The benchmark's configuration runs in one loop (mcts_core.plain_loop).
        self._random_returns = getattr(self.game, "random_returns", None)
        self._plain_loop = plain_loop_applies(self.game, cfg, self._detect_repeats)

    def _reset(self, root_state: Any) -> None:
        self.rng = random.Random(self.seed)
        self.root_state = root_state
        self._next_id = 0
        self.iterations = 0
        self.node_count = 0
        self.max_depth = 0
        self.node_cap_reached = False
        self._pending: Iteration | None = None
        # PUCT heuristic priors by node id, kept off the nodes so other policies pay nothing.
        self._heuristic_priors: dict[int, tuple[float, ...]] = {}
        self._action_tuples: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self.root = self._new_node(None, None, None, root_state)
        self.root.state = root_state

    def reconfigure(self, config: SearchConfig) -> bool:
        """Switch to ``config``. Returns True if the tree was kept, False if it was rebuilt.

        The tree is kept when only parameters that steer the rest of the search changed (C,
        policies, rollout settings, ...); a half-done iteration is then finished under the old
        settings first. Changing what values mean (shaping, solver, repeat detection) rebuilds
        the tree from the same root and seed.
        """
        old = self.config
        if config.keeps_tree_of(old):
            self._finish_pending()
            self.config = config
            self._apply_config()
            self.node_cap_reached = self.node_count >= config.max_nodes
            return True
        self.config = config
        self._apply_config()
        self._reset(self.root_state)
        return False

    def value_of_raw(self, raw: float) -> float:
        """A raw value (win 1, draw 0, loss -1) in the search's shaped, normalised range."""
        return self._value(raw)

    @property
    def value_width(self) -> float:
        """Width of the range Q lives in: 2 for [-1, 1], 1 for [0, 1]."""
        return 2.0 if self.config.value_range == "symmetric" else 1.0

    def _new_id(self) -> int:
        node_id = self._next_id
        self._next_id += 1
        self.node_count += 1
        return node_id

    def _new_node(
        self, parent: ActionNode | ChanceNode | None, action: Any, outcome: Any, state: Any
    ) -> ActionNode:
        game = self.game
        player = -1 if game.is_terminal(state) else game.current_player(state)
        # The smallest node that holds what this one needs: an outcome only below a chance
        # node (NO_CHANCE is None), a proof only with the solver on.
        node: ActionNode
        if self.config.solver:
            if outcome is None:
                node = SolverNode(self._new_id(), parent, action, player)
            else:
                node = SolverOutcomeNode(self._new_id(), parent, action, outcome, player)
            if player < 0:
                node.proven = tuple(game.returns(state))
        elif outcome is None:
            node = ActionNode(self._new_id(), parent, action, player)
        else:
            node = OutcomeNode(self._new_id(), parent, action, outcome, player)
        return node

    # ----------------------------------------------------------- public loop

    @property
    def next_phase(self) -> Phase:
        """The phase the next phase call runs: "select" unless an iteration is half done."""
        return self._pending.phase if self._pending else Phase.SELECT

    @property
    def tree_full(self) -> bool:
        """True when the tree holds ``max_nodes`` nodes: iterations that need a node stop."""
        return self.node_count >= self.config.max_nodes

    def step(self) -> IterationTrace:
        """Run one whole iteration (or finish the half-done one) and return its trace.

        Raises :class:`NodeCapReached` (nothing changed) when the tree is full and the
        iteration needed a new node.
        """
        it = self._pending
        if it is None:
            it = self._pending = self._select(record=True)
        if it.phase is Phase.EXPAND:
            self._expand(it)
        if it.phase is Phase.EVALUATE:
            self._evaluate(it)
        self._pending = None
        self._backpropagate(it)
        return iteration_trace(it, self.iterations, self.root.player)

    def select(self) -> tuple[PathStep, ...]:
        """Phase 1 alone: walk down the tree. Returns the decisions and chance steps taken."""
        if self._pending is not None:
            raise RuntimeError(f"the next phase is {self.next_phase}, not {Phase.SELECT}")
        it = self._select(record=True)
        self._pending = it
        return tuple(it.steps or ())

    def expand(self) -> Expansion | None:
        """Phase 2 alone: add the new node (``None`` when nothing is added: a terminal, proven
        or repeated leaf). Raises :class:`NodeCapReached` when the tree is full."""
        it = self._require_phase(Phase.EXPAND)
        self._expand(it)
        return it.expansion

    def evaluate(self) -> Evaluation:
        """Phase 3 alone: value the leaf (rollout, heuristic, returns or proof)."""
        it = self._require_phase(Phase.EVALUATE)
        self._evaluate(it)
        assert it.evaluation is not None
        return it.evaluation

    def backpropagate(self) -> IterationTrace:
        """Phase 4 alone: back the value up; completes the iteration and returns its trace."""
        it = self._require_phase(Phase.BACKPROPAGATE)
        self._pending = None
        self._backpropagate(it)
        return iteration_trace(it, self.iterations, self.root.player)

    def _require_phase(self, phase: Phase) -> Iteration:
        """The half-done iteration, which must be waiting for ``phase`` (not SELECT)."""
        it = self._pending
        if it is None or it.phase is not phase:
            raise RuntimeError(f"the next phase is {self.next_phase}, not {phase}")
        return it

    def _finish_pending(self) -> None:
        """Complete a half-done iteration (an iteration refused by the node cap is dropped)."""
        if self._pending is not None:
            with contextlib.suppress(NodeCapReached):
                self.step()

    def run(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        progress: Callable[[int], None] | None = None,
        progress_every: int = 100,
        should_stop: Callable[[], bool] | None = None,
    ) -> RunResult:
        """Run iterations without recording traces, until a budget is used up.

        Args:
            iterations: how many iterations (at most 10,000,000).
            seconds: wall-clock budget.
            progress: called with the number of iterations done every ``progress_every``.
            should_stop: polled every ``progress_every`` iterations; True cancels the run.

        A half-done iteration is finished first and counts as one. The run also stops when the
        solver proves the root, and when the tree is full and an iteration needs a new node.
        """
        limit = run_limit(iterations, seconds)
        done = 0
        stopped = RunStop.ITERATIONS
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        try:
            if self._pending is not None and limit > 0:
                self.step()
                done = 1
            if self._plain_loop and self._pending is None:
                # every iteration adds at most one node: stop the fast loop before the cap
                room = self.config.max_nodes - self.node_count
                done, stop = run_plain(
                    self,
                    done,
                    min(limit, done + max(room, 0)),
                    deadline,
                    progress,
                    progress_every,
                    should_stop,
                )
                if stop is not None:
                    stopped = stop
                    limit = done
            while done < limit:
                if deadline is not None and time.perf_counter() >= deadline:
                    stopped = RunStop.SECONDS
                    break
                if self.root.proven is not None:
                    stopped = RunStop.SOLVED  # more iterations could not change a proven root
                    break
                it = self._select(record=False)
                self._expand(it)
                self._evaluate(it)
                self._backpropagate(it)
                done += 1
                if done % progress_every == 0:
                    if progress is not None:
                        progress(done)
                    if should_stop is not None and should_stop():
                        stopped = RunStop.CANCELLED
                        break
        except NodeCapReached:
            stopped = RunStop.NODE_CAP
        elapsed = time.perf_counter() - start
        message = self.node_cap_message if stopped is RunStop.NODE_CAP else ""
        return RunResult(done, elapsed, stopped, message)

    @property
    def node_cap_message(self) -> str:
        """What a person reads when this tree is full."""
        return node_cap_message(self.config.max_nodes)

    # ---------------------------------------------------------------- phases

    def _select(self, record: bool) -> Iteration:
        """Descend from the root to a node that can grow, a terminal/proven node or a repeat.

        Once the tree is full, a node with untried actions is passed through like a fully
        expanded one (its existing moves compete); the selection stops as ``CAPPED`` only where
        a new node would be unavoidable.
        """
        game = self.game
        next_state = game.next_state
        rng = self.rng
        node = self.root
        state = self.root_state
        seen = {state} if self._detect_repeats else None
        it = Iteration([node], state, record, seen)
        path = it.path
        steps = it.steps
        full = self.node_count >= self.config.max_nodes
        # Plain UCT without recording is the benchmark's hot loop: the choice is inlined below.
        # It computes exactly what policies.uct and _choose compute, in the same order of
        # operations, and takes the same first maximum (the tests check that run() and step()
        # build identical trees).
        fused = steps is None and self._plain_uct
        c = self.config.c
        log = math.log
        sqrt = math.sqrt
        rsqrt = INVERSE_SQRT
        table_size = len(rsqrt)  # a node visited more often goes to _choose (same arithmetic)
        while True:
            if node.player < 0:
                it.stop = Stop.TERMINAL
                break
            if node.proven is not None:
                it.stop = Stop.PROVEN
                break
            actions = node.actions
            if actions is None:
                actions = self._init_actions(node, state)
            if len(node.children) < len(actions):
                if not full:
                    it.stop = Stop.EXPAND
                    break
                if not node.children:
                    it.stop = Stop.CAPPED
                    break
            if fused and node.visits < table_size:
                scale = c * sqrt(log(node.visits))
                best_score = -math.inf
                move = node.children[0]
                if node.player:
                    for other in node.children:
                        n = other.visits
                        score = other.value1 / n + scale * rsqrt[n]
                        if score > best_score:
                            best_score = score
                            move = other
                else:
                    for other in node.children:
                        n = other.visits
                        score = other.value0 / n + scale * rsqrt[n]
                        if score > best_score:
                            best_score = score
                            move = other
            else:
                move = self._choose(node, state, steps)
            child: ActionNode
            if type(move) is not ChanceNode:  # a deterministic action: one edge
                child = move  # type: ignore[assignment]
            else:
                action = move.action
                outcomes = game.chance_outcomes(state, action)
                outcome, probability = outcomes[sample_outcome(outcomes, rng)]
                sampled = move.child_for(outcome)
                if steps is not None:
                    steps.append(
                        chance_step(game, state, move, outcome, probability, len(outcomes), sampled)
                    )
                if sampled is None:
                    it.before = state
                    state = next_state(state, action, outcome)
                    it.stop = Stop.CAPPED if full else Stop.NEW_OUTCOME
                    it.chance = move
                    it.outcome = outcome
                    it.probability = probability
                    break
                child = sampled
            cached = child.state
            if cached is None:
                cached = next_state(state, child.action, child.outcome)
                if child.visits >= CACHE_VISITS:
                    child.state = cached
            state = cached
            node = child
            path.append(node)
            if seen is not None:
                if state in seen:
                    it.stop = Stop.REPEAT
                    break
                seen.add(state)
        it.state = state
        return it

    def _init_actions(self, node: ActionNode, state: Any) -> tuple[Any, ...]:
        """Fix the node's actions in expansion order (and PUCT heuristic priors if needed)."""
        cfg = self.config
        actions = tuple(self.game.legal_actions(state))
        scores: list[float] | None = None
        if cfg.expansion_order == "random":
            shuffled = list(actions)
            self.rng.shuffle(shuffled)
            actions = tuple(shuffled)
        elif cfg.expansion_order == "heuristic":
            raw = [action_score(self.game, state, a, node.player) for a in actions]
            order = sorted(range(len(actions)), key=lambda i: -raw[i])  # stable: ties listed
            actions = tuple(actions[i] for i in order)
            scores = [raw[i] for i in order]
        # Many nodes share the same action tuple (Connect Four has at most 128 distinct ones):
        # keep one copy of each instead of one per node.
        actions = self._action_tuples.setdefault(actions, actions)
        node.actions = actions
        if self._policy.needs_priors and cfg.prior == "heuristic":
            if scores is None:
                scores = [action_score(self.game, state, a, node.player) for a in actions]
            self._heuristic_priors[node.id] = tuple(softmax(scores))
        return actions

    def _priors(self, node: ActionNode, state: Any) -> tuple[float, ...]:
        """The PUCT priors of the node's moves tried so far, in expansion order."""
        cfg = self.config
        actions = node.actions
        assert actions is not None
        tried = len(node.children)
        if cfg.prior == "uniform":
            return (1.0 / len(actions),) * tried
        priors = self._heuristic_priors.get(node.id)
        if priors is None:  # the node was expanded under another policy: compute now
            scores = [action_score(self.game, state, a, node.player) for a in actions]
            priors = self._heuristic_priors[node.id] = tuple(softmax(scores))
        return priors[:tried]

    def _choose(self, node: ActionNode, state: Any, steps: list[PathStep] | None) -> Move:
        """Pick a move of a decision node by the tree policy; record every term.

        (Plain UCT without recording never comes here: :meth:`_select` inlines it.)
        """
        cfg = self.config
        player = node.player
        children = node.children
        visits = [move.visits for move in children]
        means = [move.mean(player) for move in children]
        proofs: list[tuple[float, ...] | None] | None = None
        if cfg.solver:
            proofs = [move.proven for move in children]
            for i, proof in enumerate(proofs):
                if proof is not None:
                    means[i] = self._value(proof[player])  # exact, not an estimate
        priors = self._priors(node, state) if self._policy.needs_priors else None
        bonuses = self._policy.bonus(node.visits, visits, priors, c=cfg.c)
        rule = cfg.tree_policy
        fewest = min(visits)
        if cfg.min_visits > 1 and fewest < cfg.min_visits:
            best = visits.index(fewest)
            rule = "min_visits"
        else:
            best = 0
            best_score = -math.inf
            for i, (q, bonus) in enumerate(zip(means, bonuses, strict=True)):
                if q + bonus > best_score:
                    best_score = q + bonus
                    best = i
        if steps is not None:
            steps.append(
                decision(
                    self.game,
                    node,
                    state,
                    rule=rule,
                    visits=visits,
                    values=means,
                    bonuses=bonuses,
                    priors=priors,
                    proofs=proofs,
                    chosen=best,
                )
            )
        return children[best]

    def _expand(self, it: Iteration) -> None:
        """Add the new node below the selected one (nothing at a terminal, proven or repeated
        leaf). When the node cap leaves no room, drop the iteration and raise
        :class:`NodeCapReached`."""
        it.phase = Phase.EVALUATE
        stop = it.stop
        if stop is not Stop.EXPAND and stop is not Stop.NEW_OUTCOME and stop is not Stop.CAPPED:
            return
        game = self.game
        parent = it.path[-1]
        state = it.state
        room = self.config.max_nodes - self.node_count
        chance: ChanceNode | None
        if stop is Stop.EXPAND:
            assert parent.actions is not None
            action = parent.actions[len(parent.children)]
            outcomes = game.chance_outcomes(state, action)
            if room < (1 if len(outcomes) == 1 else 2):
                self._refuse(it)
            if len(outcomes) == 1:
                chance = None
                outcome, probability = outcomes[0]
            else:
                chance = ChanceNode(self._new_id(), parent, action, len(outcomes))
                parent.children += (chance,)
                outcome, probability = outcomes[sample_outcome(outcomes, self.rng)]
            it.state = game.next_state(state, action, outcome)
        elif stop is Stop.NEW_OUTCOME:
            if room < 1:
                self._refuse(it)
            chance = it.chance
            assert chance is not None
            action, outcome, probability = chance.action, it.outcome, it.probability
            state = it.before
        else:
            self._refuse(it)
        child = self._new_node(chance or parent, action, outcome, it.state)
        if chance is None:
            parent.children += (child,)
        else:
            chance.children += (child,)
        it.path.append(child)
        depth = len(it.path) - 1
        if depth > self.max_depth:
            self.max_depth = depth
        if it.steps is not None:
            it.expansion = expansion(
                game, state, parent, chance, child, outcome, probability, stop is Stop.EXPAND
            )
        if it.seen is not None and it.state in it.seen:
            it.stop = Stop.REPEAT

    def _refuse(self, it: Iteration) -> NoReturn:
        """Drop an iteration the node cap leaves no room for (nothing was changed)."""
        self._pending = None
        self.node_cap_reached = True
        raise NodeCapReached(self.node_cap_message)

    def _evaluate(self, it: Iteration) -> None:
        """Value the leaf for both players and store the values to back up."""
        it.phase = Phase.BACKPROPAGATE
        game = self.game
        cfg = self.config
        state = it.state
        rollout: list[tuple[Any, Any]] = []
        leaf = it.path[-1]
        raw: tuple[float, ...]
        if leaf.player < 0:
            kind = "terminal"
            raw = tuple(game.returns(state))
        elif it.stop is Stop.PROVEN:
            kind = "proven"
            assert leaf.proven is not None
            raw = leaf.proven
        elif it.stop is Stop.REPEAT:
            kind = "repeat"
            raw = self._heuristic(state)
        elif cfg.rollout_depth == 0:
            kind = "heuristic"
            raw = self._heuristic(state)
        else:
            turn = cfg.rollout_horizon == "turn"
            if self._fast_playout is not None:
                end, rollout = self._fast_playout(state, self.rng, cfg.rollout_depth, turn)
            elif cfg.rollout == "random":
                end, rollout = generic_random_playout(
                    game, state, self.rng, cfg.rollout_depth, turn
                )
            else:
                epsilon = cfg.epsilon if cfg.rollout == "epsilon" else 0.0
                end, rollout = guided_playout(
                    game, state, self.rng, cfg.rollout_depth, turn, epsilon
                )
            if game.is_terminal(end):
                kind = "rollout"
                raw = tuple(game.returns(end))
            else:
                kind = "cutoff"
                raw = self._heuristic(end)
            if it.steps is not None:
                it.evaluation = Evaluation(
                    kind,
                    rollout_steps(game, state, rollout),
                    game.format_state(end),
                    raw,
                    self._values(raw, kind),
                )
        it.values = self._values(raw, kind)
        if it.steps is not None and it.evaluation is None:
            it.evaluation = Evaluation(kind, (), game.format_state(state), raw, it.values)

    def _heuristic(self, state: Any) -> tuple[float, ...]:
        weight = self.config.heuristic_weight
        return tuple(max(-1.0, min(1.0, weight * h)) for h in self.game.heuristic(state))

    def _values(self, raw: tuple[float, ...], kind: str) -> tuple[float, float]:
        if kind in ("terminal", "rollout", "proven"):
            values = self._terminal_values.get(raw)
            if values is None:
                values = (self._value(raw[0]), self._value(raw[1]))
                self._terminal_values[raw] = values
            return values
        return (self._value(raw[0]), self._value(raw[1]))

    def _backpropagate(self, it: Iteration) -> None:
        """Add the leaf values to every node on the path and propagate proofs."""
        v0, v1 = it.values
        for node in it.path:
            if node.visits:
                node.value0 += v0
                node.value1 += v1
            else:  # first visit: store the shared floats themselves (no new objects)
                node.value0 = v0
                node.value1 = v1
            node.visits += 1
        if self.config.solver:
            propagate_proofs(it.path)
        self.iterations += 1

    # ------------------------------------------------------------- reading

    def state_of(self, node: Move) -> Any:
        """The game state at ``node`` (for a chance node: the state where its action is taken),
        rebuilt by replaying moves from the nearest node above that caches its state."""
        return replay_state(self.game, node)

    def children_summary(self, node: ActionNode | None = None) -> list[ChildSummary]:
        """The moves of a decision node (default: the root) with visits and Q for its mover;
        a proven move's Q is its proven value (:func:`mcts_core.queries.children_summary`)."""
        return queries.children_summary(self, node)

    def best_child(self, policy: str | None = None) -> ChildSummary:
        """The root move the final-move policy picks; with the solver, the rule of
        :func:`mcts_core.solver.final_move_index` (proven win, no proven loss, a proven draw
        unless an unproven move is better with confidence)."""
        return queries.best_child(self, policy)

    def best_action(self, policy: str | None = None) -> Any:
        """The action the final-move policy picks at the root (see :meth:`best_child`)."""
        return self.best_child(policy).action

    def final_choices(self) -> dict[str, ChildSummary]:
        """Every final-move policy's pick side by side (they may disagree)."""
        return {name: self.best_child(name) for name in FINAL_POLICIES}

    def principal_variation(self, max_length: int = 50) -> list[Move]:
        """Most visited line from the root (:func:`mcts_core.queries.principal_variation`)."""
        return queries.principal_variation(self, max_length)

    def find_node(self, node_id: int) -> Move | None:
        """The node with this id in the current tree, or ``None``."""
        return queries.find_node(self.root, node_id)

    def preview_decision(self, node: ActionNode | None = None) -> Decision | None:
        """The decision the selection would take at ``node`` (default: the root) if it came
        there now: every child's terms and the child chosen, by the same code the next
        ``step()`` runs. Nothing in the tree changes (with PUCT's heuristic prior the priors
        are computed and kept, as the selection would).

        ``None`` where the selection would not choose among the node's children: the node ends
        the game, is proven, or still has an untried move while the tree has room (the
        selection stops there and the expansion adds that move).
        """
        node = self.root if node is None else node
        if node.player < 0 or node.proven is not None or not node.children:
            return None
        actions = node.actions
        if actions is None or (len(node.children) < len(actions) and not self.tree_full):
            return None
        steps: list[PathStep] = []
        self._choose(node, self.state_of(node), steps)
        chosen = steps[-1]
        assert isinstance(chosen, Decision)
        return chosen

    # --------------------------------------------------------- tree reuse

    def advance(self, action: Any, outcome: Any = UNSET) -> Reuse:
        """Play a real move at the root and keep the subtree below it.

        ``outcome`` may be left out for a deterministic action. Raises ``ValueError`` for an
        illegal action or an impossible outcome, leaving the search unchanged. A half-done
        iteration is finished first, so the kept tree is always consistent.
        """
        state = self.root_state
        outcome = played_outcome(self.game, state, action, outcome)
        self._finish_pending()
        new_state = self.game.next_state(state, action, outcome)
        before = self.node_count
        child = kept_root(self.root, action, outcome)
        self.root_state = new_state
        if child is None:
            self.node_count = 0
            self.root = self._new_node(None, None, None, new_state)
            self.max_depth = 0
        else:
            self.root = child
            self.node_count, self.max_depth = queries.subtree_size_and_depth(child)
        self.root.state = new_state
        self.node_cap_reached = False
        return Reuse(self.node_count, before - self.node_count, self.root.visits)
