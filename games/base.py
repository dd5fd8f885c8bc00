"""The game protocol every game in MCTS Lab implements: :mod:`mcts_core.game`, re-exported.

The protocol lives beside the search that is typed against it (``mcts_core`` knows no game);
the rules in this package import it from here. See :mod:`mcts_core.game` for the conventions
(players, states, chance outcomes, returns, heuristic, position strings) and the optional fast
paths. ``pick_index`` and ``sample_outcome`` (:mod:`mcts_core.rollout`) are how the search
draws a move and a chance outcome: a game's fast ``random_playout`` must draw the same way.
"""

from typing import Any

from mcts_core.game import NO_CHANCE, Action, FastPlayout, Game, Outcome, PositionError, State
from mcts_core.rollout import pick_index, sample_outcome

__all__ = [
    "NO_CHANCE",
    "Action",
    "AnyGame",
    "FastPlayout",
    "Game",
    "Outcome",
    "PositionError",
    "State",
    "pick_index",
    "sample_outcome",
]

#: A game of any state type, as the search and the app hold one (``Search.game``,
#: ``make_game``'s): its methods are the :class:`Game` protocol's, its states opaque.
AnyGame = Game[Any]
