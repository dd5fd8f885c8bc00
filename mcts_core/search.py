"""The search: Monte Carlo Tree Search that runs one iteration at a time and explains it.

An iteration is four phases, each its own method (mctx: simulate, expand, backward):

1. ``_select``: from the root, pick a child at every fully expanded decision node with the tree
   policy and sample a chance outcome after every action, until a node that can grow (an untried
   action, or an outcome never drawn before), a terminal or proven node, or a repeated state.
2. ``_expand``: add one node: the next untried action's chance node and the outcome drawn, or
   the new outcome of a known action.
3. ``_evaluate``: value the new leaf: terminal returns, a proof, or a rollout (random,
   heuristic-greedy or epsilon-greedy, depth- or turn-limited) ending in returns or the heuristic.
4. ``_backpropagate``: add the leaf's per-player values to every node on the path; with the
   solver, propagate proven results upwards.

``step()`` runs one iteration and returns its :class:`~mcts_core.trace.IterationTrace`;
``select()``, ``expand()``, ``evaluate()`` and ``backpropagate()`` run the phases one at a time
for teaching; ``run()`` loops without recording traces (the fast path). Every random draw comes
from the search's own ``random.Random(seed)``, so the same seed gives the same tree.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mcts_core.config import SearchConfig
from mcts_core.nodes import ActionNode, ChanceNode
from mcts_core.policies import (
    FINAL_POLICY_FUNCTIONS,
    TREE_POLICY_FUNCTIONS,
    make_value_mapping,
    softmax,
)
from mcts_core.rollout import generic_random_playout, pick_index, sample_outcome
from mcts_core.trace import (
    ChanceStep,
    ChildTerms,
    Decision,
    Evaluation,
    Expansion,
    IterationTrace,
    NodeUpdate,
    PathStep,
    RolloutStep,
)

__all__ = ["Search", "ChildSummary", "RunResult", "Reuse", "PHASES", "proof_label"]

PHASES = ("select", "expand", "evaluate", "backpropagate")
_UNSET: Any = object()
_MAX_RUN_ITERATIONS = 10_000_000


@dataclass(frozen=True, slots=True)
class ChildSummary:
    """A child of a decision node as a final-move policy sees it.

    ``q`` is the mean value from the view of the player deciding at the parent; ``proven`` is
    "win", "draw" or "loss" for that player when the solver proved it.
    """

    node_id: int
    action: Any
    label: str
    visits: int
    q: float
    proven: str | None


@dataclass(frozen=True, slots=True)
class RunResult:
    """What ``Search.run`` did: iterations run, wall seconds, and why it stopped."""

    iterations: int
    seconds: float
    stopped: str  # "iterations", "seconds" or "solved" (the solver proved the root)
    message: str = ""


@dataclass(frozen=True, slots=True)
class Reuse:
    """What ``Search.advance`` kept of the tree after a real move."""

    kept_nodes: int
    discarded_nodes: int
    kept_visits: int

    @property
    def kept_share(self) -> float:
        total = self.kept_nodes + self.discarded_nodes
        return self.kept_nodes / total if total else 0.0


def proof_label(proven: tuple[float, ...] | None, player: int) -> str | None:
    """ "win", "draw" or "loss" for ``player`` of a proven result (``None`` if unproven)."""
    if proven is None or player < 0:
        return None
    value = proven[player]
    return "win" if value > 0 else "loss" if value < 0 else "draw"


class _Iteration:
    """Scratch state of one iteration while its phases run (not part of the public API)."""

    __slots__ = (
        "path",
        "state",
        "steps",
        "seen",
        "stop",
        "chance",
        "outcome",
        "probability",
        "expansion",
        "evaluation",
        "values",
        "note",
        "phase",
        "before",
    )

    def __init__(self, path: list[ActionNode], state: Any, record: bool, seen: set | None):
        self.path = path
        self.state = state
        self.steps: list[PathStep] | None = [] if record else None
        self.seen = seen
        self.stop = ""
        self.chance: ChanceNode | None = None
        self.outcome: Any = None
        self.probability = 1.0
        self.expansion: Expansion | None = None
        self.evaluation: Evaluation | None = None
        self.values: tuple[float, float] = (0.0, 0.0)
        self.note = ""
        self.phase = "expand"
        self.before: Any = None  # state before the chance step of a new outcome


class Search:
    """MCTS over a two-player game with chance, one iteration at a time.

    Args:
        game: rules implementing :class:`games.base.Game` (duck-typed; this package imports no
            game).
        root_state: where the search starts (default: the game's initial state).
        config: a :class:`SearchConfig` (default settings when ``None``).
        seed: seeds the search's random generator; same seed, same tree.
    """

    def __init__(
        self,
        game: Any,
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
        self._bonus = TREE_POLICY_FUNCTIONS[cfg.tree_policy]
        # Shaped values of terminal returns, keyed by the returns tuple. Sharing the float
        # objects keeps leaf nodes small: a node visited once stores these very objects.
        self._terminal_values: dict[tuple[float, ...], tuple[float, float]] = {}
        # Plain UCT without recording is the benchmark's hot loop: it gets a fused loop.
        self._plain_uct = cfg.tree_policy == "uct" and cfg.min_visits <= 1 and not cfg.solver
        fast = getattr(self.game, "random_playout", None)
        self._fast_playout = fast if cfg.rollout == "random" else None

    def _reset(self, root_state: Any) -> None:
        self.rng = random.Random(self.seed)
        self.root_state = root_state
        self._next_id = 0
        self.iterations = 0
        self.node_count = 0
        self.max_depth = 0
        self.node_cap_reached = False
        self._pending: _Iteration | None = None
        # PUCT heuristic priors by node id, kept off the nodes so other policies pay nothing.
        self._heuristic_priors: dict[int, tuple[float, ...]] = {}
        self._action_tuples: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self.root = self._new_action_node(None, None, root_state)

    def reconfigure(self, config: SearchConfig) -> bool:
        """Switch to ``config``. Returns True if the tree was kept, False if it was rebuilt.

        The tree is kept when only parameters that steer the rest of the search changed (C,
        policies, rollout settings, ...); changing what values mean (shaping, solver, repeat
        detection) rebuilds it from the same root and seed.
        """
        old = self.config
        self.config = config
        self._apply_config()
        if config.keeps_tree_of(old):
            return True
        self._reset(self.root_state)
        return False

    def _new_id(self) -> int:
        node_id = self._next_id
        self._next_id += 1
        self.node_count += 1
        return node_id

    def _new_action_node(self, parent: ChanceNode | None, outcome: Any, state: Any) -> ActionNode:
        game = self.game
        terminal = game.is_terminal(state)
        node = ActionNode(
            self._new_id(), parent, outcome, -1 if terminal else game.current_player(state)
        )
        if terminal and self.config.solver:
            node.proven = tuple(game.returns(state))
        return node

    # ----------------------------------------------------------- public loop

    @property
    def next_phase(self) -> str:
        """The phase the next phase call runs: "select" unless an iteration is half done."""
        return self._pending.phase if self._pending else "select"

    def step(self) -> IterationTrace:
        """Run one whole iteration (or finish the half-done one) and return its trace."""
        it = self._pending
        if it is None:
            it = self._select(record=True)
        if it.phase == "expand":
            self._expand(it)
        if it.phase == "evaluate":
            self._evaluate(it)
        self._pending = None
        return self._backpropagate(it)

    def select(self) -> tuple[PathStep, ...]:
        """Phase 1 alone: walk down the tree. Returns the decisions and chance steps taken."""
        self._require_phase("select")
        it = self._select(record=True)
        self._pending = it
        return tuple(it.steps or ())

    def expand(self) -> Expansion | None:
        """Phase 2 alone: add the new node (``None`` when nothing can be added)."""
        it = self._require_phase("expand")
        self._expand(it)
        return it.expansion

    def evaluate(self) -> Evaluation:
        """Phase 3 alone: value the leaf (rollout, heuristic, returns or proof)."""
        it = self._require_phase("evaluate")
        self._evaluate(it)
        assert it.evaluation is not None
        return it.evaluation

    def backpropagate(self) -> IterationTrace:
        """Phase 4 alone: back the value up; completes the iteration and returns its trace."""
        it = self._require_phase("backpropagate")
        self._pending = None
        return self._backpropagate(it)

    def _require_phase(self, phase: str) -> _Iteration:
        if self.next_phase != phase:
            raise RuntimeError(f"the next phase is {self.next_phase}, not {phase}")
        return self._pending  # type: ignore[return-value]

    def run(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        progress: Callable[[int], None] | None = None,
        progress_every: int = 100,
    ) -> RunResult:
        """Run iterations without recording traces, until either budget is used up.

        Args:
            iterations: how many iterations (at most 10,000,000).
            seconds: wall-clock budget.
            progress: called with the number of iterations done every ``progress_every``.
        """
        if iterations is None and seconds is None:
            raise ValueError("give iterations, seconds or both")
        if iterations is not None and (
            isinstance(iterations, bool)
            or not isinstance(iterations, int)
            or not 0 <= iterations <= _MAX_RUN_ITERATIONS
        ):
            raise ValueError(
                f"iterations must be a whole number in [0, {_MAX_RUN_ITERATIONS:,}], "
                f"got {iterations!r}"
            )
        if seconds is not None and not (isinstance(seconds, int | float) and 0 <= seconds <= 3600):
            raise ValueError(f"seconds must be between 0 and 3600, got {seconds!r}")
        if self._pending is not None:
            self.step()  # finish the half-done iteration first; it counts as one
            done = 1
        else:
            done = 0
        limit = _MAX_RUN_ITERATIONS if iterations is None else iterations
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        stopped = "iterations"
        while done < limit:
            if deadline is not None and time.perf_counter() >= deadline:
                stopped = "seconds"
                break
            if self.root.proven is not None:
                stopped = "solved"  # more iterations could not change a proven root
                break
            it = self._select(record=False)
            self._expand(it)
            self._evaluate(it)
            self._backpropagate(it)
            done += 1
            if progress is not None and done % progress_every == 0:
                progress(done)
        elapsed = time.perf_counter() - start
        message = ""
        if self.node_cap_reached:
            message = self.node_cap_message
        return RunResult(done, elapsed, stopped, message)

    @property
    def node_cap_message(self) -> str:
        return (
            f"The tree reached its cap of {self.config.max_nodes:,} nodes, so it stopped growing; "
            "iterations still refine the existing nodes. Raise max_nodes or play a move to "
            "free memory."
        )

    # ---------------------------------------------------------------- phases

    def _select(self, record: bool) -> _Iteration:
        """Descend from the root to a node that can grow, a terminal/proven node or a repeat."""
        game = self.game
        chance_outcomes = game.chance_outcomes
        rng = self.rng
        node = self.root
        state = self.root_state
        seen = {state} if self.config.detect_repeats else None
        it = _Iteration([node], state, record, seen)
        path = it.path
        steps = it.steps
        while True:
            if node.player < 0:
                it.stop = "terminal"
                break
            if node.proven is not None:
                it.stop = "proven"
                break
            actions = node.actions
            if actions is None:
                actions = self._init_actions(node, state)
            children = node.children
            if len(children) < len(actions):
                it.stop = "expand"
                break
            chance = self._choose(node, state, steps)
            action = chance.action
            outcomes = chance_outcomes(state, action)
            child: ActionNode | None
            if len(outcomes) == 1:  # deterministic: no draw (as sample_outcome), one child
                outcome, probability = outcomes[0]
                child = chance.children[0]
            else:
                outcome, probability = outcomes[sample_outcome(outcomes, rng)]
                child = chance.child_for(outcome)
            next_state = game.next_state(state, action, outcome)
            if steps is not None:
                steps.append(
                    ChanceStep(
                        node_id=chance.id,
                        action_label=game.action_label(state, action),
                        outcome_label=game.outcome_label(state, action, outcome),
                        probability=probability,
                        num_outcomes=len(outcomes),
                        child_id=None if child is None else child.id,
                    )
                )
            if child is None:
                it.before = state
                state = next_state
                it.stop = "new_outcome"
                it.chance = chance
                it.outcome = outcome
                it.probability = probability
                break
            state = next_state
            node = child
            path.append(node)
            if seen is not None:
                if state in seen:
                    it.stop = "repeat"
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
            raw = [self._action_score(state, a, node.player) for a in actions]
            order = sorted(range(len(actions)), key=lambda i: -raw[i])  # stable: ties listed
            actions = tuple(actions[i] for i in order)
            scores = [raw[i] for i in order]
        # Many nodes share the same action tuple (Connect Four has at most 128 distinct ones):
        # keep one copy of each instead of one per node.
        actions = self._action_tuples.setdefault(actions, actions)
        node.actions = actions
        if cfg.tree_policy == "puct" and cfg.prior == "heuristic":
            if scores is None:
                scores = [self._action_score(state, a, node.player) for a in actions]
            self._heuristic_priors[node.id] = tuple(softmax(scores))
        return actions

    def _action_score(self, state: Any, action: Any, player: int) -> float:
        """The mover's expected heuristic right after ``action`` (over its chance outcomes)."""
        game = self.game
        total = 0.0
        for outcome, probability in game.chance_outcomes(state, action):
            total += probability * game.heuristic(game.next_state(state, action, outcome))[player]
        return total

    def _priors(self, node: ActionNode, state: Any) -> tuple[float, ...]:
        cfg = self.config
        assert node.actions is not None
        if cfg.prior == "uniform":
            return (1.0 / len(node.actions),) * len(node.actions)
        priors = self._heuristic_priors.get(node.id)
        if priors is None:  # the node was expanded under another policy: compute now
            scores = [self._action_score(state, a, node.player) for a in node.actions]
            priors = self._heuristic_priors[node.id] = tuple(softmax(scores))
        return priors

    def _choose(self, node: ActionNode, state: Any, steps: list[PathStep] | None) -> ChanceNode:
        """Pick a child of a fully expanded node by the tree policy; record every term."""
        if steps is None and self._plain_uct:
            return self._choose_uct(node)
        cfg = self.config
        player = node.player
        children = node.children
        assert children is not None
        visits = [chance.visits for chance in children]
        means = [chance.mean(player) for chance in children]
        proofs: list[tuple[float, ...] | None] | None = None
        if cfg.solver:
            proofs = [chance.proven for chance in children]
            for i, proof in enumerate(proofs):
                if proof is not None:
                    means[i] = self._value(proof[player])  # exact, not an estimate
        priors = self._priors(node, state) if cfg.tree_policy == "puct" else None
        bonuses = self._bonus(node.visits, visits, priors, c=cfg.c)
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
            label = self.game.action_label
            terms = tuple(
                ChildTerms(
                    node_id=chance.id,
                    action=chance.action,
                    label=label(state, chance.action),
                    visits=visits[i],
                    q=means[i],
                    bonus=bonuses[i],
                    prior=None if priors is None else priors[i],
                    score=means[i] + bonuses[i],
                    proven=None if proofs is None else proof_label(proofs[i], player),
                )
                for i, chance in enumerate(children)
            )
            steps.append(Decision(node.id, player, node.visits, rule, terms, best))
        return children[best]

    def _choose_uct(self, node: ActionNode) -> ChanceNode:
        """:meth:`_choose` for plain UCT when nothing is recorded, fused into one loop.

        It computes exactly ``policies.uct`` and the same first-maximum argmax (the tests check
        that ``run`` and ``step`` build identical trees); it only avoids building lists.
        """
        player = node.player
        c = self.config.c
        log_n = math.log(node.visits)
        sqrt = math.sqrt
        best = None
        best_score = -math.inf
        for chance in node.children:
            kids = chance.children
            if len(kids) == 1:
                kid = kids[0]
                n = kid.visits
                w = kid.value1 if player else kid.value0
            else:
                n = 0
                w = 0.0
                for kid in kids:
                    n += kid.visits
                    w += kid.value1 if player else kid.value0
            score = w / n + c * sqrt(log_n / n)
            if score > best_score:
                best_score = score
                best = chance
        assert best is not None
        return best

    def _expand(self, it: _Iteration) -> None:
        """Add one node below the selected one (nothing at a terminal, proven or repeat leaf)."""
        it.phase = "evaluate"
        if it.stop not in ("expand", "new_outcome"):
            return
        needed = 2 if it.stop == "expand" else 1
        if self.node_count + needed > self.config.max_nodes:
            self.node_cap_reached = True
            it.note = (
                f"Node cap of {self.config.max_nodes:,} reached: the new position was evaluated "
                "but not added to the tree."
            )
            if it.stop == "expand":
                it.stop = "capped"  # evaluate the leaf itself; its state is it.state
            else:
                it.stop = "capped_outcome"  # it.state is the unstored outcome's state
            return
        game = self.game
        parent = it.path[-1]
        state = it.state
        if it.stop == "expand":
            assert parent.actions is not None
            action = parent.actions[len(parent.children)]
            outcomes = game.chance_outcomes(state, action)
            chance = ChanceNode(self._new_id(), parent, action, len(outcomes))
            parent.children += (chance,)
            outcome, probability = outcomes[sample_outcome(outcomes, self.rng)]
            it.state = game.next_state(state, action, outcome)
            new_action = True
        else:
            chance = it.chance  # type: ignore[assignment]
            action, outcome, probability = chance.action, it.outcome, it.probability
            state = it.before
            new_action = False
        child = self._new_action_node(chance, outcome, it.state)
        chance.children += (child,)
        it.path.append(child)
        depth = len(it.path) - 1
        if depth > self.max_depth:
            self.max_depth = depth
        if it.steps is not None:
            assert parent.actions is not None
            it.expansion = Expansion(
                parent_id=parent.id,
                chance_id=chance.id,
                node_id=child.id,
                new_action=new_action,
                action_label=game.action_label(state, action),
                outcome_label=game.outcome_label(state, action, outcome),
                probability=probability,
                untried=len(parent.actions) - len(parent.children),
            )
        if it.seen is not None and it.state in it.seen:
            it.stop = "repeat"

    def _evaluate(self, it: _Iteration) -> None:
        """Value the leaf for both players and store the values to back up."""
        it.phase = "backpropagate"
        game = self.game
        cfg = self.config
        state = it.state
        rollout: list[tuple[Any, Any]] = []
        if game.is_terminal(state):
            kind = "terminal"
            raw = tuple(game.returns(state))
        elif it.stop == "proven":
            kind = "proven"
            raw = it.path[-1].proven  # type: ignore[assignment]
        elif it.stop == "repeat":
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
                end, rollout = self._guided_playout(state, turn)
            if game.is_terminal(end):
                kind = "rollout"
                raw = tuple(game.returns(end))
            else:
                kind = "cutoff"
                raw = self._heuristic(end)
            if it.steps is not None:
                it.evaluation = Evaluation(
                    kind,
                    self._label_rollout(state, rollout),
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

    def _guided_playout(self, state: Any, stop_on_turn_change: bool) -> tuple[Any, list]:
        """A heuristic-greedy or epsilon-greedy rollout (one draw decides random vs greedy)."""
        game = self.game
        rng = self.rng
        cfg = self.config
        epsilon = cfg.epsilon if cfg.rollout == "epsilon" else 0.0
        played: list[tuple[Any, Any]] = []
        first_player = game.current_player(state)
        while not game.is_terminal(state):
            if cfg.rollout_depth is not None and len(played) >= cfg.rollout_depth:
                break
            player = game.current_player(state)
            if stop_on_turn_change and player != first_player:
                break
            legal = game.legal_actions(state)
            if epsilon > 0.0 and rng.random() < epsilon:
                action = legal[pick_index(rng, len(legal))]
            else:
                scores = [self._action_score(state, a, player) for a in legal]
                top = max(scores)
                best = [a for a, s in zip(legal, scores, strict=True) if s >= top - 1e-12]
                action = best[pick_index(rng, len(best))] if len(best) > 1 else best[0]
            outcomes = game.chance_outcomes(state, action)
            outcome = outcomes[sample_outcome(outcomes, rng)][0]
            played.append((action, outcome))
            state = game.next_state(state, action, outcome)
        return state, played

    def _label_rollout(self, state: Any, played: list[tuple[Any, Any]]) -> tuple[RolloutStep, ...]:
        game = self.game
        steps = []
        for action, outcome in played:
            steps.append(
                RolloutStep(
                    game.current_player(state),
                    game.action_label(state, action),
                    game.outcome_label(state, action, outcome),
                )
            )
            state = game.next_state(state, action, outcome)
        return tuple(steps)

    def _backpropagate(self, it: _Iteration) -> IterationTrace:
        """Add the leaf values to every node on the path; propagate proofs; build the trace."""
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
            self._propagate_proofs(it.path)
        self.iterations += 1
        if it.steps is None:
            return None  # type: ignore[return-value]  # run() ignores traces
        return self._trace(it)

    def _propagate_proofs(self, path: list[ActionNode]) -> None:
        """MCTS-Solver: a node is proven when a child is a proven win for its mover, or when
        every action is tried and proven (it takes the best). Stops at the first unproven."""
        for node in reversed(path):
            if node.proven is not None:
                continue
            proof = self._prove(node)
            if proof is None:
                return
            node.proven = proof

    @staticmethod
    def _prove(node: ActionNode) -> tuple[float, ...] | None:
        player = node.player
        if player < 0 or node.actions is None or not node.children:
            return None
        complete = len(node.children) == len(node.actions)
        best: tuple[float, ...] | None = None
        for chance in node.children:
            proof = chance.proven
            if proof is None:
                complete = False
                continue
            if proof[player] >= 1.0:
                return proof
            if best is None or proof[player] > best[player]:
                best = proof
        return best if complete else None

    def _trace(self, it: _Iteration) -> IterationTrace:
        updates: list[NodeUpdate] = []
        previous_player = max(self.root.player, 0)
        for depth, node in enumerate(it.path):
            view = previous_player
            added = it.values[view]
            if depth:
                chance = node.parent
                assert chance is not None
                updates.append(
                    NodeUpdate(
                        chance.id,
                        "chance",
                        chance.parent.player,
                        view,
                        added,
                        chance.visits,
                        chance.mean(view),
                        proof_label(chance.proven, view),
                    )
                )
            updates.append(
                NodeUpdate(
                    node.id,
                    "action",
                    node.player,
                    view,
                    added,
                    node.visits,
                    node.mean(view),
                    proof_label(node.proven, view),
                )
            )
            if node.player >= 0:
                previous_player = node.player
        assert it.evaluation is not None and it.steps is not None
        return IterationTrace(
            iteration=self.iterations,
            path=tuple(it.steps),
            expansion=it.expansion,
            leaf_id=it.path[-1].id,
            evaluation=it.evaluation,
            updates=tuple(updates),
            note=it.note or self._stop_note(it.stop),
        )

    @staticmethod
    def _stop_note(stop: str) -> str:
        if stop == "repeat":
            return (
                "The leaf's position already occurred on this path (a loop): it was valued "
                "by the heuristic and is not expanded."
            )
        if stop == "proven":
            return "The selection reached a proven node: its exact value was backed up."
        return ""

    # ------------------------------------------------------------- reading

    def state_of(self, node: ActionNode | ChanceNode) -> Any:
        """The game state at ``node`` (for a chance node: the state where its action is taken),
        rebuilt by replaying the actions and outcomes from the root."""
        moves = []
        current: ActionNode | None = node.parent if isinstance(node, ChanceNode) else node
        while current is not None and current.parent is not None:
            moves.append((current.parent.action, current.outcome))
            current = current.parent.parent
        state = self.root_state
        for action, outcome in reversed(moves):
            state = self.game.next_state(state, action, outcome)
        return state

    def children_summary(self, node: ActionNode | None = None) -> list[ChildSummary]:
        """The children of a decision node (default: the root) with visits and Q for its mover."""
        node = self.root if node is None else node
        if not node.children:
            return []
        state = self.state_of(node)
        player = node.player
        return [
            ChildSummary(
                node_id=chance.id,
                action=chance.action,
                label=self.game.action_label(state, chance.action),
                visits=chance.visits,
                q=chance.mean(player),
                proven=proof_label(chance.proven, player) if self.config.solver else None,
            )
            for chance in node.children
        ]

    def best_child(self, policy: str | None = None) -> ChildSummary:
        """The root child the final-move policy picks. With the solver, a proven win is taken
        and proven losses are avoided whenever another move exists."""
        policy = policy or self.config.final_policy
        if policy not in FINAL_POLICY_FUNCTIONS:
            raise ValueError(
                f"final policy must be one of {', '.join(FINAL_POLICY_FUNCTIONS)}; got {policy!r}"
            )
        children = self.children_summary()
        if not children:
            raise ValueError("the search has no moves to choose from yet: run some iterations")
        if self.config.solver:
            wins = [c for c in children if c.proven == "win"]
            if wins:
                return max(wins, key=lambda c: c.visits)
            safe = [c for c in children if c.proven != "loss"]
            children = safe or children
        index = FINAL_POLICY_FUNCTIONS[policy](
            [c.visits for c in children], [c.q for c in children]
        )
        return children[index]

    def best_action(self, policy: str | None = None) -> Any:
        """The action the final-move policy picks at the root (see :meth:`best_child`)."""
        return self.best_child(policy).action

    def final_choices(self) -> dict[str, ChildSummary]:
        """Every final-move policy's pick side by side (they may disagree)."""
        return {name: self.best_child(name) for name in FINAL_POLICY_FUNCTIONS}

    def principal_variation(self, max_length: int = 50) -> list[ActionNode | ChanceNode]:
        """Most-visited line from the root: action node, chance node, action node, ..."""
        line: list[ActionNode | ChanceNode] = [self.root]
        node = self.root
        while node.children and len(line) < 2 * max_length:
            chance = max(node.children, key=lambda c: c.visits)
            line.append(chance)
            node = max(chance.children, key=lambda n: n.visits)
            line.append(node)
        return line

    # --------------------------------------------------------- tree reuse

    def advance(self, action: Any, outcome: Any = _UNSET) -> Reuse:
        """Play a real move at the root and keep the subtree below it.

        ``outcome`` may be left out for a deterministic action. Raises ``ValueError`` for an
        illegal action or an impossible outcome, leaving the search unchanged.
        """
        game = self.game
        state = self.root_state
        if game.is_terminal(state):
            raise ValueError("the game is over at the root; no move can be played")
        legal = game.legal_actions(state)
        if action not in legal:
            raise ValueError(f"illegal move {action!r} at the root")
        outcomes = game.chance_outcomes(state, action)
        if outcome is _UNSET:
            if len(outcomes) != 1:
                raise ValueError(
                    f"move {game.action_label(state, action)} has {len(outcomes)} chance "
                    "outcomes; say which one happened"
                )
            outcome = outcomes[0][0]
        elif outcome not in [o for o, _ in outcomes]:
            raise ValueError(f"outcome {outcome!r} is not possible after that move")
        new_state = game.next_state(state, action, outcome)
        before = self.node_count
        self._pending = None
        chance = next((c for c in self.root.children if c.action == action), None)
        child = chance.child_for(outcome) if chance is not None else None
        self.root_state = new_state
        if child is None:
            self.node_count = 0
            self.root = self._new_action_node(None, None, new_state)
            self.max_depth = 0
        else:
            child.parent = None
            self.root = child
            self.node_count, self.max_depth = _subtree_size_and_depth(child)
        self.node_cap_reached = False
        return Reuse(self.node_count, before - self.node_count, self.root.visits)


def _subtree_size_and_depth(root: ActionNode) -> tuple[int, int]:
    """Number of nodes (action and chance) below and including ``root``, and the deepest
    action-node depth."""
    count = 0
    deepest = 0
    stack: list[tuple[ActionNode, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        deepest = max(deepest, depth)
        for chance in node.children:
            count += 1
            stack.extend((child, depth + 1) for child in chance.children)
    return count, deepest
