"""A small stochastic game for testing chance nodes before the gridiron game: "Pig to 10".

Two players race to bank 10 points. On your turn you either ``roll`` a d6 or ``hold``. Rolling
a 1 loses the points gathered this turn and passes the turn; rolling 2-6 adds the face to this
turn's total and you decide again. Holding banks the turn total and passes the turn. The first to
reach 10 banked points wins. To guarantee an end, the game is a draw after 20 turns in all.

Actions: ``"roll"``, ``"hold"`` (hold only once something was gathered this turn). Outcomes of
``roll``: the faces 1..6, each with probability exactly 1/6. Position string:
``"<banked X>-<banked O>-<turn total>-<player to move>-<turns played>"``, e.g. ``"3-7-4-1-5"``.
"""

from __future__ import annotations

from typing import NamedTuple

NO_CHANCE = None
TARGET = 10
MAX_TURNS = 20
_ROLL = tuple((face, 1 / 6) for face in range(1, 7))
_HOLD = ((NO_CHANCE, 1.0),)


class PigState(NamedTuple):
    banked: tuple[int, int]
    turn_total: int
    to_move: int
    turns: int


class Pig:
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

    def chance_outcomes(self, s: PigState, a: str) -> tuple:
        return _ROLL if a == "roll" else _HOLD

    def next_state(self, s: PigState, a: str, o: object = NO_CHANCE) -> PigState:
        if a == "hold" or o == 1:
            banked = list(s.banked)
            if a == "hold":
                banked[s.to_move] += s.turn_total
            return PigState((banked[0], banked[1]), 0, 1 - s.to_move, s.turns + 1)
        assert isinstance(o, int)
        return PigState(s.banked, s.turn_total + o, s.to_move, s.turns)

    def is_terminal(self, s: PigState) -> bool:
        return max(s.banked) >= TARGET or s.turns >= MAX_TURNS

    def returns(self, s: PigState) -> tuple[float, float]:
        if s.banked[0] >= TARGET:
            return (1.0, -1.0)
        if s.banked[1] >= TARGET:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def heuristic(self, s: PigState) -> tuple[float, float]:
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
        parts = text.strip().split("-")
        if len(parts) != 5 or not all(p.isdigit() for p in parts):
            raise ValueError(f"position must be five numbers joined by '-', got {text!r}")
        x, o, total, player, turns = (int(p) for p in parts)
        if player not in (0, 1):
            raise ValueError(f"player to move must be 0 or 1, got {player}")
        return PigState((x, o), total, player, turns)

    def format_state(self, s: PigState) -> str:
        return f"{s.banked[0]}-{s.banked[1]}-{s.turn_total}-{s.to_move}-{s.turns}"
