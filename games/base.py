"""The game protocol every game in MCTS Lab implements: :mod:`mcts_core.game`, re-exported.

The protocol lives beside the search that is typed against it (``mcts_core`` knows no game);
the rules in this package import it from here. See :mod:`mcts_core.game` for the conventions
(players, states, chance outcomes, returns, heuristic, position strings) and the optional fast
paths.
"""

from mcts_core.game import NO_CHANCE, Action, FastPlayout, Game, Outcome, State

__all__ = ["NO_CHANCE", "Action", "FastPlayout", "Game", "Outcome", "State"]
