"""Small helpers the CLI and the app share: building games and configs, reading children."""

from __future__ import annotations

from typing import Any

from games import make_game
from mcts_core import Search, SearchConfig

__all__ = ["build_game", "action_index", "signed_value", "children_rows"]


def build_game(name: str, size: int | None = None) -> Any:
    """The game called ``name``; ``size`` is the gridiron preset (ignored by other games)."""
    if name == "gridiron":
        return make_game(name, size=size or 1)
    return make_game(name)


def action_index(game: Any, state: Any, action: Any) -> int:
    """A number for an action: the action itself when it is an int (tic-tac-toe's cell, Connect
    Four's 0-based column), otherwise its index in the game's legal actions."""
    if isinstance(action, int) and not isinstance(action, bool):
        return action
    return list(game.legal_actions(state)).index(action)


def signed_value(q: float, config: SearchConfig) -> float:
    """A mean value in the search's range turned into [-1, 1] (unchanged for "symmetric")."""
    return q if config.value_range == "symmetric" else 2.0 * q - 1.0


def children_rows(search: Search) -> list[dict[str, Any]]:
    """The root's children as JSON-ready rows (value from the root mover's view in [-1, 1])."""
    game, state = search.game, search.root_state
    return [
        {
            "action": child.label,
            "action_index": action_index(game, state, child.action),
            "visits": child.visits,
            "value": round(signed_value(child.q, search.config), 6),
            "proven": child.proven,
        }
        for child in search.children_summary()
    ]
