"""The game protocol: everything the search knows about a game.

The search is typed against :class:`Game`, a trimmed version of OpenSpiel's game API: just what
Monte Carlo Tree Search needs, plus labels and position strings for the views. The rules live in
``games/`` (which re-exports this module as :mod:`games.base`); nothing here knows a game.

Conventions
-----------
- Two players, numbered 0 and 1. Player 0 moves first unless a game says otherwise. A player may
  decide several times in a row (a multi-action team turn): always ask ``current_player``.
- States are immutable and hashable (tuples, named tuples or frozen dataclasses).
- ``legal_actions`` returns actions in a stable, documented order (the search's "as listed"
  expansion order uses it).
- ``chance_outcomes(s, a)`` lists every outcome of playing ``a`` in ``s`` with its exact
  probability. A deterministic action has the single outcome ``(NO_CHANCE, 1.0)``; the search
  stores it as one edge from decision to decision (no chance node).
- ``returns`` are per player and only meaningful at terminal states: win 1, loss -1, draw 0.
- ``heuristic`` is per player, defined for any state, each entry in [-1, 1]: +1 means "as good as
  a won game for this player".
- Position strings round-trip: ``parse_state(format_state(s)) == s``. A malformed, illegal or
  impossible string raises ``PositionError`` (a ``ValueError``) whose message names the problem.

Optional fast path
------------------
A game may also define ``random_playout(state, rng, max_steps, stop_on_turn_change)`` (see
:class:`FastPlayout`). The search uses it for uniformly random rollouts instead of its generic
loop. It must consume ``rng`` exactly like the generic loop in :mod:`mcts_core.rollout` does (one
``rng.random()`` per action choice, ``int(r * len(legal))``; one more per chance node with more
than one outcome), so a search gives the same tree with or without the fast path.

A game whose positions can never repeat within one game (every move adds a stone, say) may set
``states_never_repeat = True``: the search then skips its loop guard, which hashes every state
on the selection path.

A game without chance (every action has the one outcome ``NO_CHANCE``) may set
``deterministic = True`` and define ``random_returns(state, rng)`` (see :class:`FastPlayout`):
the returns at the end of ``random_playout(state, rng, None, False)``, drawing identically but
recording nothing. With both, ``Search.run`` on plain UCT with random rollouts to the end runs
its one-loop fast path (docs/search.md, "The plain loop").

A game may also define ``exact_value(state, deadline)`` (see :class:`ExactSolver`): the
game-theoretic value of a state for the player to move, computed by a game-specific solver
(Connect Four's bitboard alpha-beta). :func:`mcts_lab.exact.exact_values` uses it below every
root move instead of its generic minimax; games without it are solved generically.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

__all__ = [
    "NO_CHANCE",
    "Action",
    "ExactSolver",
    "FastPlayout",
    "Game",
    "Outcome",
    "PositionError",
    "State",
]

State = Hashable
Action = Hashable
Outcome = Hashable

#: A game's own state type (tic-tac-toe's board tuple, gridiron's ``GridironState``): the
#: :class:`Game` protocol is typed on it, so a checker sees ``Game[TicTacToeState]`` take and
#: give that type; the search, which knows no game, holds a ``Game[Any]``.
S = TypeVar("S", bound=Hashable)

#: The single outcome of a deterministic action.
NO_CHANCE: Final = None


class PositionError(ValueError):
    """A position string a game cannot read (``Game.parse_state``): its message names what is
    wrong ("9 cells expected, got 8"). A ``ValueError``, so every ``except ValueError`` still
    catches it; the app catches it by name to say that the position, not a setting, is wrong."""


@runtime_checkable
class Game(Protocol[S]):
    """Rules of a two-player game with optional chance events, typed on its state type ``S``.
    See the module docstring."""

    name: str
    num_players: int

    def initial_state(self) -> S: ...

    def current_player(self, state: S) -> int:
        """The player (0 or 1) who decides in ``state``. Undefined for terminal states."""
        ...

    def legal_actions(self, state: S) -> Sequence[Any]: ...

    def chance_outcomes(self, state: S, action: Any) -> Sequence[tuple[Any, float]]: ...

    def next_state(self, state: S, action: Any, outcome: Any = NO_CHANCE) -> S: ...

    def is_terminal(self, state: S) -> bool: ...

    def returns(self, state: S) -> tuple[float, ...]: ...

    def heuristic(self, state: S) -> tuple[float, ...]: ...

    def action_label(self, state: S, action: Any) -> str: ...

    def outcome_label(self, state: S, action: Any, outcome: Any) -> str: ...

    def parse_state(self, text: str) -> S: ...

    def format_state(self, state: S) -> str: ...


class FastPlayout(Protocol):
    """Optional: a game-specific random playout, bit-for-bit equal to the generic one."""

    def random_playout(
        self,
        state: Any,
        rng: random.Random,
        max_steps: int | None,
        stop_on_turn_change: bool,
    ) -> tuple[Any, list[tuple[Any, Any]]]:
        """Play uniformly random actions from ``state``.

        Stops at a terminal state, after ``max_steps`` actions (``None``: no limit), or, when
        ``stop_on_turn_change`` is true, as soon as the player to move differs from the player
        to move in ``state``. Returns the final state and the ``(action, outcome)`` pairs played.
        """
        ...

    # Optional as well, for a game with ``deterministic = True``:
    # def random_returns(self, state, rng) -> tuple[float, ...]: the returns (a tuple) at the
    # end of ``random_playout(state, rng, None, False)``, with exactly the same draws.


@runtime_checkable
class ShortLabels(Protocol):
    """Optional: a move's label in a few characters (about 9), for the boxes of a drawn tree
    where the full :meth:`Game.action_label` would be cut; the full label stays in tooltips."""

    def short_action_label(self, state: Any, action: Any) -> str: ...


@runtime_checkable
class ShortOutcomeLabels(Protocol):
    """Optional: a chance outcome's label in a few characters (about 9), for the boxes of a
    drawn tree; the full :meth:`Game.outcome_label` stays in tooltips."""

    def short_outcome_label(self, state: Any, action: Any, outcome: Any) -> str: ...


class ExactSolver(Protocol):
    """Optional: a game-specific exact solver, used by :func:`mcts_lab.exact.exact_values`."""

    def exact_value(self, state: Any, deadline: float) -> float | None:
        """The game-theoretic value of ``state`` for ``current_player(state)``, in [-1, 1].

        Win 1, draw 0, loss -1 (the expected value where dice decide), with both players
        playing perfectly from ``state``; a terminal state gives its return for the player who
        would move. ``deadline`` is a :func:`time.monotonic` time: the solver must check it
        while it searches and return ``None`` soon after it passes, without an answer.
        """
        ...
