"""Nim: heaps of counters; take any number from one heap; whoever takes the last counter wins.

The smallest full game in the lab, written as the example of ``docs/adding_a_game.md``.

- A state is the heaps and the player to move (0 moves first). The default start is 3, 4, 5.
- An action is ``(heap, count)``: take ``count`` (1..the heap's size) from heap ``heap`` (0-based).
  Legal actions are listed heap by heap, counts ascending. Labels read ``take 2 from heap 1``
  (heaps numbered from 1, as people count), ``2 from h1`` in a drawn tree's boxes.
- Whoever takes the last counter wins (normal play): when every heap is empty the player to move
  has lost. No chance, no draws.
- Position strings: the heaps joined by ``-``, a ``/`` and the player to move: ``"3-4-5/0"`` is
  the start, ``"0-1-1/1"`` player 1 to move with two heaps of one. At most 8 heaps of at most
  20 counters each.
- Heuristic: Bouton's theorem says the player to move wins with perfect play exactly when the
  heaps' XOR (the nim-sum) is not zero; the heuristic says so at half strength, ``(+0.5, -0.5)``
  from the mover's side, so a finished game still counts more than the theory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from games.base import NO_CHANCE, Game, PositionError
from games.spec import GameSpec

__all__ = ["SPEC", "Nim", "NimState", "MAX_HEAPS", "MAX_HEAP"]

MAX_HEAPS = 8
MAX_HEAP = 20
_DETERMINISTIC = ((NO_CHANCE, 1.0),)


class NimState(NamedTuple):
    """A position.

    Attributes:
        heaps: the counters left on each heap.
        to_move: 0 or 1; when every heap is empty, the player who lost.
    """

    heaps: tuple[int, ...]
    to_move: int


class Nim:
    """The rules, implementing :class:`games.base.Game`. ``heaps``: the start's heap sizes."""

    name = "nim"
    num_players = 2
    #: Every move takes a counter, so no position repeats within a game.
    states_never_repeat = True

    def __init__(self, heaps: tuple[int, ...] = (3, 4, 5)) -> None:
        self.start = _checked(tuple(heaps))

    def initial_state(self) -> NimState:
        return NimState(self.start, 0)

    def current_player(self, state: NimState) -> int:
        return state.to_move

    def legal_actions(self, state: NimState) -> list[tuple[int, int]]:
        """Heap by heap, counts ascending (none once every heap is empty)."""
        return [(h, n) for h, size in enumerate(state.heaps) for n in range(1, size + 1)]

    def chance_outcomes(
        self, state: NimState, action: tuple[int, int]
    ) -> tuple[tuple[object, float], ...]:
        return _DETERMINISTIC

    def next_state(
        self, state: NimState, action: tuple[int, int], outcome: object = NO_CHANCE
    ) -> NimState:
        heap, count = action
        heaps = list(state.heaps)
        heaps[heap] -= count
        return NimState(tuple(heaps), 1 - state.to_move)

    def is_terminal(self, state: NimState) -> bool:
        return not any(state.heaps)

    def returns(self, state: NimState) -> tuple[float, float]:
        """Win 1, loss -1: the player to move at the end has lost (the other took the last
        counter); ``(0, 0)`` while the game is on."""
        if any(state.heaps):
            return (0.0, 0.0)
        return (-1.0, 1.0) if state.to_move == 0 else (1.0, -1.0)

    def heuristic(self, state: NimState) -> tuple[float, float]:
        """The nim-sum's verdict at half strength (terminal states: the returns)."""
        if self.is_terminal(state):
            return self.returns(state)
        nim_sum = 0
        for size in state.heaps:
            nim_sum ^= size
        mover = 0.5 if nim_sum else -0.5
        return (mover, -mover) if state.to_move == 0 else (-mover, mover)

    def action_label(self, state: NimState, action: tuple[int, int]) -> str:
        heap, count = action
        return f"take {count} from heap {heap + 1}"

    def short_action_label(self, state: NimState, action: tuple[int, int]) -> str:
        """``2 from h1``: the label in a drawn tree's box (the full one is in its tooltip)."""
        heap, count = action
        return f"{count} from h{heap + 1}"

    def outcome_label(self, state: NimState, action: tuple[int, int], outcome: object) -> str:
        return ""

    def parse_state(self, text: str) -> NimState:
        """``"3-4-5/0"`` -> state; ``PositionError`` naming what is wrong."""
        heaps_text, slash, player_text = text.strip().partition("/")
        if not slash:
            raise PositionError(f"a nim position is heaps/player, e.g. 3-4-5/0; got {text!r}")
        if player_text not in ("0", "1"):
            raise PositionError(f"the player to move must be 0 or 1, got {player_text!r}")
        heaps = []
        for i, part in enumerate(heaps_text.split("-")):
            if not (part.isascii() and part.isdigit()) or (len(part) > 1 and part[0] == "0"):
                raise PositionError(f"heap {i + 1} must be a whole number without leading zeros")
            heaps.append(int(part))
        try:
            return NimState(_checked(tuple(heaps)), int(player_text))
        except ValueError as error:  # too many heaps, a heap too big: the position's fault
            raise PositionError(str(error)) from None

    def format_state(self, state: NimState) -> str:
        return "-".join(map(str, state.heaps)) + f"/{state.to_move}"

    def render(self, state: NimState) -> str:
        """One line per heap: its number, a bar per counter and the count."""
        return "\n".join(
            f"heap {h + 1}: {'|' * size:<{MAX_HEAP}} {size}" for h, size in enumerate(state.heaps)
        )


def _checked(heaps: tuple[int, ...]) -> tuple[int, ...]:
    if not 1 <= len(heaps) <= MAX_HEAPS:
        raise ValueError(f"nim needs 1 to {MAX_HEAPS} heaps, got {len(heaps)}")
    for i, size in enumerate(heaps):
        if not 0 <= size <= MAX_HEAP:
            raise ValueError(f"heap {i + 1} holds {size}: use 0 to {MAX_HEAP} counters")
    return heaps


#: The registration the CLI and the app read (:mod:`games.registry`).
SPEC = GameSpec(
    name="nim",
    label="Nim",
    make=Nim,
    player_names=("First", "Second"),
    position_help="the heaps joined by '-', '/', the player to move: 3-4-5/0 (empty: start)",
)


if TYPE_CHECKING:  # the rules meet the Game protocol, typed on this game's state (mypy checks)
    _RULES: Game[NimState] = Nim()
