"""Tiny games for testing the search core without the real games.

``Take``: n stones, players alternately take 1 or 2, whoever takes the last stone wins. The
mover wins exactly when n is not a multiple of 3 (take n mod 3), so every position is solved.

``CoinFlip``: one decision, then chance. Player 0 picks "safe" (a draw) or "gamble" (a fair
coin: heads wins, tails loses) or "bad" (a loaded coin, 1/4 win, 3/4 loss); then the game ends.

``Loop``: player 0 may "wait" (the state stays exactly the same, same player to move) or "go"
(ends the game in a draw). Exists only to test the repeated-state guard.
"""

from __future__ import annotations

from typing import Any

NO_CHANCE = None


class Take:
    name = "take"
    num_players = 2

    def __init__(self, stones: int = 7) -> None:
        self.stones = stones

    def initial_state(self) -> tuple[int, int]:
        return (self.stones, 0)

    def current_player(self, s: tuple[int, int]) -> int:
        return s[1]

    def legal_actions(self, s: tuple[int, int]) -> list[int]:
        return [a for a in (1, 2) if a <= s[0]]

    def chance_outcomes(self, s: Any, a: Any) -> list[tuple[Any, float]]:
        return [(NO_CHANCE, 1.0)]

    def next_state(self, s: tuple[int, int], a: int, o: Any = NO_CHANCE) -> tuple[int, int]:
        return (s[0] - a, 1 - s[1])

    def is_terminal(self, s: tuple[int, int]) -> bool:
        return s[0] == 0

    def returns(self, s: tuple[int, int]) -> tuple[float, float]:
        winner = 1 - s[1]  # the player who took the last stone
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def heuristic(self, s: tuple[int, int]) -> tuple[float, float]:
        return self.returns(s) if self.is_terminal(s) else (0.0, 0.0)

    def action_label(self, s: Any, a: int) -> str:
        return f"take {a}"

    def outcome_label(self, s: Any, a: Any, o: Any) -> str:
        return ""

    def parse_state(self, text: str) -> tuple[int, int]:
        stones, player = text.split(",")
        return (int(stones), int(player))

    def format_state(self, s: tuple[int, int]) -> str:
        return f"{s[0]},{s[1]}"


class CoinFlip:
    name = "coin_flip"
    num_players = 2
    ODDS = {
        "safe": [(NO_CHANCE, 1.0)],
        "gamble": [("heads", 0.5), ("tails", 0.5)],
        "bad": [("heads", 0.25), ("tails", 0.75)],
    }

    def initial_state(self) -> str:
        return "start"

    def current_player(self, s: str) -> int:
        return 0

    def legal_actions(self, s: str) -> list[str]:
        return ["safe", "gamble", "bad"]

    def chance_outcomes(self, s: str, a: str) -> list[tuple[Any, float]]:
        return self.ODDS[a]

    def next_state(self, s: str, a: str, o: Any = NO_CHANCE) -> str:
        return "draw" if a == "safe" else ("won" if o == "heads" else "lost")

    def is_terminal(self, s: str) -> bool:
        return s != "start"

    def returns(self, s: str) -> tuple[float, float]:
        return {"draw": (0.0, 0.0), "won": (1.0, -1.0), "lost": (-1.0, 1.0)}[s]

    def heuristic(self, s: str) -> tuple[float, float]:
        return self.returns(s) if self.is_terminal(s) else (0.0, 0.0)

    def action_label(self, s: str, a: str) -> str:
        return a

    def outcome_label(self, s: str, a: str, o: Any) -> str:
        return "" if o is None else str(o)

    def parse_state(self, text: str) -> str:
        return text

    def format_state(self, s: str) -> str:
        return s


class Loop:
    name = "loop"
    num_players = 2

    def initial_state(self) -> str:
        return "room"

    def current_player(self, s: str) -> int:
        return 0

    def legal_actions(self, s: str) -> list[str]:
        return ["wait", "go"]

    def chance_outcomes(self, s: str, a: str) -> list[tuple[Any, float]]:
        return [(NO_CHANCE, 1.0)]

    def next_state(self, s: str, a: str, o: Any = NO_CHANCE) -> str:
        return s if a == "wait" else "out"

    def is_terminal(self, s: str) -> bool:
        return s == "out"

    def returns(self, s: str) -> tuple[float, float]:
        return (0.0, 0.0)

    def heuristic(self, s: str) -> tuple[float, float]:
        return (0.5, -0.5) if s == "room" else (0.0, 0.0)

    def action_label(self, s: str, a: str) -> str:
        return a

    def outcome_label(self, s: str, a: str, o: Any) -> str:
        return ""

    def parse_state(self, text: str) -> str:
        return text

    def format_state(self, s: str) -> str:
        return s
