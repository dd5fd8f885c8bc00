"""MCTS Lab's search core: Monte Carlo Tree Search one iteration at a time, knowing no game."""

from mcts_core.config import SearchConfig
from mcts_core.nodes import ActionNode, ChanceNode
from mcts_core.printing import format_tree, tree_to_dict, tree_to_dot, tree_to_json
from mcts_core.search import PHASES, ChildSummary, Reuse, RunResult, Search
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
    "Decision",
    "Evaluation",
    "Expansion",
    "IterationTrace",
    "NodeUpdate",
    "PHASES",
    "Reuse",
    "RolloutStep",
    "RunResult",
    "Search",
    "SearchConfig",
    "format_tree",
    "tree_to_dict",
    "tree_to_dot",
    "tree_to_json",
]
