"""MCTS Lab's search core: Monte Carlo Tree Search one iteration at a time, knowing no game."""

from mcts_core.config import ConfigError, SearchConfig
from mcts_core.game import NO_CHANCE, Game, PositionError
from mcts_core.nodes import ActionNode, ChanceNode, Move
from mcts_core.phases import Phase, RunStop, Stop
from mcts_core.printing import format_tree, tree_to_dict, tree_to_dot, tree_to_json
from mcts_core.search import PHASES, ChildSummary, NodeCapReached, Reuse, RunResult, Search
from mcts_core.trace import (
    ChanceStep,
    ChildTerms,
    Decision,
    Evaluation,
    Expansion,
    IterationTrace,
    NodeUpdate,
    RolloutStep,
)

__all__ = [
    "ActionNode",
    "ChanceNode",
    "ChanceStep",
    "ChildSummary",
    "ChildTerms",
    "ConfigError",
    "Decision",
    "Evaluation",
    "Expansion",
    "Game",
    "IterationTrace",
    "Move",
    "NO_CHANCE",
    "NodeCapReached",
    "NodeUpdate",
    "PHASES",
    "PositionError",
    "Phase",
    "Reuse",
    "RolloutStep",
    "RunResult",
    "RunStop",
    "Search",
    "SearchConfig",
    "Stop",
    "format_tree",
    "tree_to_dict",
    "tree_to_dot",
    "tree_to_json",
]
