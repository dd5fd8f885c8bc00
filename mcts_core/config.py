"""Search configuration: every knob of the search in one frozen dataclass.

Values and whose view they are from
-----------------------------------
A game reports raw values per player: terminal returns (win 1, draw 0, loss -1) and a heuristic
in [-1, 1]. The search turns a raw value ``r`` of one player into the number it backs up in two
documented steps (see :func:`mcts_core.policies.make_value_mapping`):

1. *Shaping*: ``r = 1`` becomes ``win_value``, ``r = 0`` becomes ``draw_value``, ``r = -1``
   becomes ``loss_value``, linearly in between (separately on each side of 0). A heuristic value
   is first multiplied by ``heuristic_weight`` and clipped to [-1, 1]. With ``loss_value=-100``
   the search becomes "paranoid": it flees any line where the opponent can win (Game AI Pro 3,
   ch. 28).
2. *Normalisation*: shaped values are mapped linearly from [loss_value, win_value] onto the range
   the tree policy expects: [-1, 1] (``value_range="symmetric"``, the default; a win is +1) or
   [0, 1] (``"unit"``, the textbook UCB1 convention the botbowl tutorial uses).

So every Q the search shows is in the chosen range, from the view of the player deciding at the
node it belongs to.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal, get_args

from mcts_core.policies import FINAL_POLICY_FUNCTIONS, TREE_POLICY_REGISTRY


class ConfigError(ValueError):
    """A search setting (a ``SearchConfig`` field) or a run's budget out of its range or not of
    its kind; the message names the setting and the range. A ``ValueError``, so every ``except
    ValueError`` still catches it; the app catches it by name to say that a setting, not the
    position, is wrong."""


__all__ = [
    "ConfigError",
    "SearchConfig",
    "Prior",
    "ExpansionOrder",
    "RolloutPolicy",
    "RolloutHorizon",
    "ValueRange",
    "FinalPolicy",
    "TREE_POLICIES",
    "PRIORS",
    "EXPANSION_ORDERS",
    "ROLLOUT_POLICIES",
    "ROLLOUT_HORIZONS",
    "VALUE_RANGES",
    "FINAL_POLICIES",
    "TREE_KEEPING_FIELDS",
]

Prior = Literal["uniform", "heuristic"]
ExpansionOrder = Literal["listed", "random", "heuristic"]
RolloutPolicy = Literal["random", "heuristic", "epsilon"]
RolloutHorizon = Literal["game", "turn"]
ValueRange = Literal["symmetric", "unit"]
FinalPolicy = Literal["most_visited", "highest_value", "robust"]

# The tree policies come from their registry, so adding one is one edit in policies.py; the
# other choices are closed sets and typed as Literals (the tuples below are what the CLI and the
# app offer, read from those types).
TREE_POLICIES: tuple[str, ...] = tuple(TREE_POLICY_REGISTRY)
PRIORS: tuple[Prior, ...] = get_args(Prior)
EXPANSION_ORDERS: tuple[ExpansionOrder, ...] = get_args(ExpansionOrder)
ROLLOUT_POLICIES: tuple[RolloutPolicy, ...] = get_args(RolloutPolicy)
ROLLOUT_HORIZONS: tuple[RolloutHorizon, ...] = get_args(RolloutHorizon)
VALUE_RANGES: tuple[ValueRange, ...] = get_args(ValueRange)
FINAL_POLICIES: tuple[FinalPolicy, ...] = get_args(FinalPolicy)
assert set(FINAL_POLICIES) == set(FINAL_POLICY_FUNCTIONS)

#: Fields that change only how the search goes on, not what the existing statistics mean: a new
#: config that differs from the old one only in these can keep the tree. Any other change
#: (value shaping, solver, repeat detection) makes old statistics meaningless, so the tree is
#: rebuilt.
TREE_KEEPING_FIELDS = frozenset(
    {
        "c",
        "tree_policy",
        "prior",
        "min_visits",
        "expansion_order",
        "rollout",
        "epsilon",
        "rollout_depth",
        "rollout_horizon",
        "final_policy",
        "max_nodes",
    }
)


@dataclass(frozen=True)
class SearchConfig:
    """All parameters of a search. Invalid values raise ``ValueError`` naming the field.

    Attributes:
        c: exploration constant. UCT: ``Q + c*sqrt(ln N / n)``; the tutorial's UCB1:
            ``Q + 2*c*sqrt(2 ln N / n)`` (c is its Cp); PUCT: ``Q + c*P*sqrt(N)/(1+n)``.
        tree_policy: a key of :data:`mcts_core.policies.TREE_POLICY_REGISTRY`: "uct", "ucb1"
            (the botbowl tutorial's form) or "puct".
        prior: PUCT priors: "uniform" (1/k for k legal actions) or "heuristic" (softmax of the
            mover's heuristic after each action, temperature 0.5).
        min_visits: T, the visits every child gets (round robin) before the formula applies
            (Game AI Pro 3, ch. 28). 0 or 1 switch it off.
        expansion_order: the order untried actions are expanded: "listed" (the game's order),
            "random" (shuffled by the search's generator) or "heuristic" (best first for the
            mover, by the expected heuristic after the action).
        rollout: action choice in rollouts: "random", "heuristic" (greedy on the mover's
            heuristic after each action, ties broken at random) or "epsilon" (random with
            probability ``epsilon``, otherwise greedy).
        epsilon: the random share of the epsilon-greedy rollout, in [0, 1].
        rollout_depth: maximum actions per rollout; ``None`` plays to the end (or horizon), 0
            evaluates the leaf with the heuristic without any rollout.
        rollout_horizon: "game" (play to the end) or "turn" (stop when the player to move
            changes: the end of a multi-action team turn).
        win_value, draw_value, loss_value: evaluation shaping, see the module docstring. Need
            ``loss_value <= draw_value <= win_value`` and ``loss_value < win_value``.
        heuristic_weight: factor on the heuristic at a non-terminal leaf (0 treats every cut-off
            as a draw), result clipped to [-1, 1] before shaping.
        value_range: "symmetric" ([-1, 1]) or "unit" ([0, 1]); see the module docstring.
        final_policy: how ``best_action`` picks: "most_visited" (ties by value),
            "highest_value" (ties by visits) or "robust" (best combined rank of both).
        solver: MCTS-Solver: proven wins/losses/draws propagate up the tree and are used exactly.
        detect_repeats: stop the selection at a state that already occurred on the current path
            (loop guard) and evaluate it with the heuristic instead of descending forever.
        max_nodes: node cap. Once the tree is full, selection goes on through the existing
            nodes, and the first iteration that would have to add a node is not counted: the
            search stops there and says so (see :class:`mcts_core.search.NodeCapReached`).
    """

    c: float = 1.4
    tree_policy: str = "uct"
    prior: Prior = "uniform"
    min_visits: int = 0
    expansion_order: ExpansionOrder = "listed"
    rollout: RolloutPolicy = "random"
    epsilon: float = 0.1
    rollout_depth: int | None = None
    rollout_horizon: RolloutHorizon = "game"
    win_value: float = 1.0
    draw_value: float = 0.0
    loss_value: float = -1.0
    heuristic_weight: float = 1.0
    value_range: ValueRange = "symmetric"
    final_policy: FinalPolicy = "most_visited"
    solver: bool = False
    detect_repeats: bool = True
    max_nodes: int = 500_000

    def __post_init__(self) -> None:
        _choice("tree_policy", self.tree_policy, TREE_POLICIES)
        _choice("prior", self.prior, PRIORS)
        _choice("expansion_order", self.expansion_order, EXPANSION_ORDERS)
        _choice("rollout", self.rollout, ROLLOUT_POLICIES)
        _choice("rollout_horizon", self.rollout_horizon, ROLLOUT_HORIZONS)
        _choice("value_range", self.value_range, VALUE_RANGES)
        _choice("final_policy", self.final_policy, FINAL_POLICIES)
        _finite("c", self.c, low=0.0, high=1e6)
        _finite("epsilon", self.epsilon, low=0.0, high=1.0)
        _finite("heuristic_weight", self.heuristic_weight, low=0.0, high=1e6)
        for name in ("win_value", "draw_value", "loss_value"):
            _finite(name, getattr(self, name), low=-1e9, high=1e9)
        if not self.loss_value < self.win_value:
            raise ConfigError(
                f"loss_value ({self.loss_value}) must be below win_value ({self.win_value})"
            )
        if not self.loss_value <= self.draw_value <= self.win_value:
            raise ConfigError(
                f"draw_value ({self.draw_value}) must lie between loss_value "
                f"({self.loss_value}) and win_value ({self.win_value})"
            )
        _whole("min_visits", self.min_visits, low=0, high=1_000_000)
        _whole("max_nodes", self.max_nodes, low=2, high=100_000_000)
        if self.rollout_depth is not None:
            _whole("rollout_depth", self.rollout_depth, low=0, high=1_000_000)
        for name in ("solver", "detect_repeats"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be true or false, got {getattr(self, name)!r}")

    def to_dict(self) -> dict[str, Any]:
        """The config as a plain JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> SearchConfig:
        """Build a config from a dict; unknown keys raise ``ValueError``."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ConfigError(f"unknown search parameter(s): {', '.join(unknown)}")
        return cls(**values)

    def keeps_tree_of(self, old: SearchConfig) -> bool:
        """True when a tree built under ``old`` stays meaningful under this config."""
        changed = {f.name for f in fields(self) if getattr(self, f.name) != getattr(old, f.name)}
        return changed <= TREE_KEEPING_FIELDS


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ConfigError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")


def _finite(name: str, value: object, *, low: float, high: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value) or not low <= value <= high:
        raise ConfigError(f"{name} must be a finite number in [{low:g}, {high:g}], got {value!r}")


def check_count(name: str, value: object, low: int, high: int) -> None:
    """Refuse anything but a whole number (not a bool) in [``low``, ``high``], naming it: the one
    check of an iteration count (``Search.run``, ``mcts_lab.compare.searches``)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{name} must be a whole number in [{low:,}, {high:,}], got {value!r}")


def _whole(name: str, value: object, *, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low:,} and {high:,}, got {value:,}")
