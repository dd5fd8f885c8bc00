"""Two toy games for testing the search without the real games.

``Pig`` ("Pig to 10") has chance nodes with exact probabilities, so chance handling can be tested
before (and independently of) the gridiron game. ``LoopGame`` has a no-op action whose next state
equals the current state, so the search's repeated-state guard can be tested.

Both implement :class:`games.base.Game`; values are per player (index 0 and 1), win 1, loss -1,
draw 0.
"""

from __future__ import annotations

from typing import NamedTuple

from games.base import NO_CHANCE, PositionError

__all__ = ["Pig", "PigState", "LoopGame", "LoopState", "TARGET", "MAX_TURNS"]

#: Banked points that win Pig.
TARGET = 10
#: Pig ends in a draw after this many turns in all (both players), so every game ends.
MAX_TURNS = 20
_ROLL = tuple((face, 1 / 6) for face in range(1, 7))
_DETERMINISTIC = ((NO_CHANCE, 1.0),)


class PigState(NamedTuple):
    """A Pig position.

    Attributes:
        banked: points banked by player 0 and player 1.
        turn_total: points gathered in the current turn, not yet banked (0 or at least 2).
        to_move: the player whose turn it is (always ``turns % 2``).
        turns: turns finished so far, both players together (0..MAX_TURNS).
    """

    banked: tuple[int, int]
    turn_total: int
    to_move: int
    turns: int


class Pig:
    """Pig to 10: a dice race with a push-your-luck decision.

    On your turn you either ``roll`` a d6 or ``hold``. Rolling a 1 loses the points gathered this
    turn and passes the turn; rolling 2-6 adds the face to the turn total and you decide again.
    Holding banks the turn total and passes the turn. The first to bank 10 points wins; after
    ``MAX_TURNS`` turns in all the game is a draw.

    Actions: ``"roll"`` and ``"hold"``, in that order; ``hold`` only once something was gathered
    this turn. Outcomes of ``roll``: the faces 1..6, each with probability exactly 1/6; ``hold``
    is deterministic. Position string: ``"<banked 0>-<banked 1>-<turn total>-<to move>-<turns>"``,
    e.g. ``"3-7-4-1-5"``.
    """

    name = "pig"
    num_players = 2

    def initial_state(self) -> PigState:
        return PigState((0, 0), 0, 0, 0)

    def current_player(self, s: PigState) -> int:
        return s.to_move

    def legal_actions(self, s: PigState) -> list[str]:
        if self.is_terminal(s):
            return []
        return ["roll", "hold"] if s.turn_total else ["roll"]

    def chance_outcomes(self, s: PigState, a: str) -> tuple[tuple[int | None, float], ...]:
        return _ROLL if a == "roll" else _DETERMINISTIC

    def next_state(self, s: PigState, a: str, o: object = NO_CHANCE) -> PigState:
        if a == "hold" or o == 1:
            banked = list(s.banked)
            if a == "hold":
                banked[s.to_move] += s.turn_total
            return PigState((banked[0], banked[1]), 0, 1 - s.to_move, s.turns + 1)
        if not isinstance(o, int) or not 2 <= o <= 6:
            raise ValueError(f"roll needs a face 1-6 as its outcome, got {o!r}")
        return PigState(s.banked, s.turn_total + o, s.to_move, s.turns)

    def is_terminal(self, s: PigState) -> bool:
        return max(s.banked) >= TARGET or s.turns >= MAX_TURNS

    def returns(self, s: PigState) -> tuple[float, float]:
        """(player 0, player 1): win 1, loss -1, draw 0; (0, 0) while the game is on."""
        if s.banked[0] >= TARGET:
            return (1.0, -1.0)
        if s.banked[1] >= TARGET:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def heuristic(self, s: PigState) -> tuple[float, float]:
        """Player 0's lead (banked, plus the turn total of whoever is rolling) over ``TARGET``,
        clipped to [-0.9, 0.9]; player 1 gets the negation. Terminal states: the returns."""
        if self.is_terminal(s):
            return self.returns(s)
        lead = s.banked[0] - s.banked[1]
        lead += s.turn_total if s.to_move == 0 else -s.turn_total
        h = max(-0.9, min(0.9, lead / TARGET))
        return (h, -h)

    def action_label(self, s: PigState, a: str) -> str:
        return a

    def outcome_label(self, s: PigState, a: str, o: object) -> str:
        return "" if o is None else f"rolled {o}"

    def parse_state(self, text: str) -> PigState:
        """A position string -> state; ``PositionError`` naming what is wrong or impossible."""
        parts = text.strip().split("-")
        if len(parts) != 5 or not all(p.isascii() and p.isdigit() for p in parts):
            raise PositionError(f"position must be five numbers joined by '-', got {text!r}")
        if any(len(p) > 1 and p[0] == "0" for p in parts):
            raise PositionError(f"numbers must not have leading zeros, got {text!r}")
        x, o, total, player, turns = (int(p) for p in parts)
        if player not in (0, 1):
            raise PositionError(f"player to move must be 0 or 1, got {player}")
        if turns > MAX_TURNS:
            raise PositionError(f"{turns} turns played, but the game ends after {MAX_TURNS}")
        if player != turns % 2:
            raise PositionError(
                f"after {turns} turns player {turns % 2} moves, not player {player}"
            )
        if total == 1:
            raise PositionError("a turn total of 1 is impossible: rolling a 1 ends the turn")
        banked = (x, o)
        if banked[player] >= TARGET:
            raise PositionError(f"player {player} has {banked[player]} banked but is still to move")
        state = PigState(banked, total, player, turns)
        if self.is_terminal(state) and total:
            raise PositionError(f"the game is over but a turn total of {total} is still open")
        return state

    def format_state(self, s: PigState) -> str:
        return f"{s.banked[0]}-{s.banked[1]}-{s.turn_total}-{s.to_move}-{s.turns}"


class LoopState(NamedTuple):
    """A LoopGame position.

    Attributes:
        counters: how far player 0 and player 1 have advanced (0..target).
        to_move: the player who decides.
    """

    counters: tuple[int, int]
    to_move: int


class LoopGame:
    """A counter race with a true no-op, for testing the search's repeated-state guard.

    The player to move chooses ``advance`` (their counter goes up by 1 and the turn passes) or
    ``wait``: the next state is *identical* to the current one, same counters and same player to
    move, so ``wait`` is a cycle of length one. The first counter to reach ``target`` wins.

    Random playouts still end with probability 1 (every step advances with probability 1/2; the
    game ends after at most ``2 * target - 1`` advances), so the battery's bounded random games
    apply to it unchanged. Player 0 moves first and is never behind, so it is the one who
    reaches the target: the game exists for its cycle, not to be played well.

    Actions: ``"advance"``, ``"wait"``, in that order. Position string:
    ``"<counter 0>-<counter 1>-<to move>"``, e.g. ``"2-1-0"``.
    """

    name = "loop"
    num_players = 2

    def __init__(self, target: int = 3) -> None:
        if target < 1:
            raise ValueError(f"target must be at least 1, got {target}")
        self.target = target

    def initial_state(self) -> LoopState:
        return LoopState((0, 0), 0)

    def current_player(self, s: LoopState) -> int:
        return s.to_move

    def legal_actions(self, s: LoopState) -> list[str]:
        return [] if self.is_terminal(s) else ["advance", "wait"]

    def chance_outcomes(self, s: LoopState, a: str) -> tuple[tuple[None, float]]:
        return _DETERMINISTIC

    def next_state(self, s: LoopState, a: str, o: object = NO_CHANCE) -> LoopState:
        if a == "wait":
            return s  # the no-op: nothing changes, not even the player to move
        counters = list(s.counters)
        counters[s.to_move] += 1
        return LoopState((counters[0], counters[1]), 1 - s.to_move)

    def is_terminal(self, s: LoopState) -> bool:
        return max(s.counters) >= self.target

    def returns(self, s: LoopState) -> tuple[float, float]:
        """(player 0, player 1): the player who reached the target wins; (0, 0) before."""
        if s.counters[0] >= self.target:
            return (1.0, -1.0)
        if s.counters[1] >= self.target:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def heuristic(self, s: LoopState) -> tuple[float, float]:
        """Player 0's lead over ``target``, times 0.9; player 1 gets the negation."""
        if self.is_terminal(s):
            return self.returns(s)
        h = 0.9 * (s.counters[0] - s.counters[1]) / self.target
        return (h, -h)

    def action_label(self, s: LoopState, a: str) -> str:
        return a

    def outcome_label(self, s: LoopState, a: str, o: object) -> str:
        return ""

    def parse_state(self, text: str) -> LoopState:
        """A position string -> state; ``PositionError`` naming what is wrong or impossible."""
        parts = text.strip().split("-")
        if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
            raise PositionError(f"position must be three numbers joined by '-', got {text!r}")
        if any(len(p) > 1 and p[0] == "0" for p in parts):
            raise PositionError(f"numbers must not have leading zeros, got {text!r}")
        a, b, player = (int(p) for p in parts)
        if player not in (0, 1):
            raise PositionError(f"player to move must be 0 or 1, got {player}")
        # players alternate advancing, player 0 first: a - b is 0 (0 to move) or 1 (1 to move)
        if a - b != player:
            raise PositionError(f"counters {a} and {b} are impossible with player {player} to move")
        if b >= self.target:
            # player 0 is never behind, so it reaches the target first and the game stops
            raise PositionError(f"player 1 cannot reach the target {self.target}")
        if a > self.target:
            raise PositionError(f"counters cannot pass the target {self.target}")
        return LoopState((a, b), player)

    def format_state(self, s: LoopState) -> str:
        return f"{s.counters[0]}-{s.counters[1]}-{s.to_move}"
