"""The app's colours, one meaning each, in one place.

A colour says one thing everywhere (the tree, the boards, the A/B tab, the legends):

- a **player's colour** (blue / red; Connect Four's yellow / red, its stones' colours) marks that
  player: their stones and marks on the board, their moves in the principal variation's discs,
  and in the tree the boxes of *their* moves (whose view the box's Q is from; the root: the
  player to move there). In the tree the players also differ by shape (square corners for the
  first player, round ones for the second), for readers who cannot tell the colours apart;
- **orange**: the last selection path (also thicker);
- **green**: the node the last iteration added (also a double outline) and, on a board, a best
  move's exact value;
- **purple**: the principal variation's numbered badges in the tree (the most visited line;
  A's and B's trees alike);
- **amber**: a chance node (also a diamond) and its outcomes' probabilities;
- **teal**: the class's answers drawn on the tree and the board (``class_heat``: a move's
  share of the class as its shade, with the count in a badge: never the colour alone);
- **grey**: the game is over (a terminal position), folded boxes, proven results (a dark badge
  whose letter, W / D / L, says the result).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import AnyGame
from games.registry import game_spec

__all__ = [
    "BLUE",
    "RED",
    "YELLOW",
    "PlayerColour",
    "player_colours",
    "PATH",
    "NEW",
    "PV",
    "CHANCE_FILL",
    "CHANCE_STROKE",
    "TERMINAL_FILL",
    "TERMINAL_STROKE",
    "PROVEN",
    "TEXT",
    "CLASS",
    "RIGHT",
]


@dataclass(frozen=True)
class PlayerColour:
    """One player's colour.

    Attributes:
        name: the colour in words ("blue"), for legends.
        strong: marks, outlines, the PV discs (white text on it reads: contrast >= 3:1).
        fill: a tree box's light background (black text on it reads).
        stone: a stone on a board (Connect Four's yellow is brighter than its outline).
    """

    name: str
    strong: str
    fill: str
    stone: str


BLUE = PlayerColour("blue", "#2563eb", "#dbeafe", "#2563eb")
RED = PlayerColour("red", "#dc2626", "#fee2e2", "#dc2626")
YELLOW = PlayerColour("yellow", "#a16207", "#fef9c3", "#facc15")

#: Board view name (``GameSpec.board_view``) -> its players' colours, when not blue / red.
_BY_VIEW: dict[str, tuple[PlayerColour, PlayerColour]] = {"connect_four": (YELLOW, RED)}

PATH = "#f59e0b"
NEW = "#16a34a"
PV = "#7c3aed"
CHANCE_FILL = "#fef3c7"
CHANCE_STROKE = "#b45309"
TERMINAL_FILL = "#e5e7eb"
TERMINAL_STROKE = "#6b7280"
PROVEN = "#374151"
TEXT = "#111827"
CLASS = "#0e7490"  # white text on it: 5.4:1
RIGHT = "#166534"  # a revealed right answer's ✓ (white on it: 7.1:1), as in the class's bars


def player_colours(game: AnyGame) -> tuple[PlayerColour, PlayerColour]:
    """The colours of ``game``'s two players (player 0, player 1): its board's, blue and red
    unless its board view says otherwise; blue and red for a game outside the registry."""
    try:
        view = game_spec(game.name).board_view
    except (ValueError, AttributeError):
        view = None
    return _BY_VIEW.get(view or "", (BLUE, RED))
