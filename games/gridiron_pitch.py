"""Gridiron's pitch: the position record, the size presets, the player statuses, and the
geometry of a pitch (squares, neighbours, tackle zones, set-up, player labels) that the rules
(:mod:`games.gridiron`), the heuristic (:mod:`games.gridiron_heuristic`), the position strings
(:mod:`games.gridiron_text`) and the app's board all read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from games.base import PositionError

__all__ = [
    "DIRECTIONS",
    "DODGE_BASE",
    "DODGE_SQUARES",
    "DOWN",
    "MOVEMENT",
    "PICKUP_BASE",
    "PRESETS",
    "READY",
    "STATUS_CHARS",
    "USED",
    "GridironState",
    "Pitch",
    "Preset",
]

READY, USED, DOWN = 0, 1, 2  # player status: can act, has acted / stood up this turn, knocked down
#: A player status's letter in a position string (READY, USED, DOWN).
STATUS_CHARS = "rud"
MOVEMENT = 3
DODGE_BASE = 3  # a dodge succeeds on 3+, one more per opponent tackle zone on the destination
PICKUP_BASE = 3  # a pickup succeeds on 3+, one more per opponent tackle zone there
#: The heuristic's price of a dodge, in squares: the carrier's way to the endzone counts each
#: step out of an opponent's tackle zone as this many extra squares (a 3+ to 5+ roll that
#: loses the ball when it fails is worth going around, but not at any cost).
DODGE_SQUARES = 2
#: The 8 directions (dx, dy) of a move, a tackle zone and a scattering ball (d8 order).
DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


@dataclass(frozen=True)
class Preset:
    """A size preset: pitch width and height (endzones included), turns per team, set-up
    squares of the home team (the away team's are mirrored)."""

    width: int
    height: int
    turns: int
    home_setup: tuple[tuple[int, int], ...]

    def away_setup(self) -> tuple[tuple[int, int], ...]:
        return tuple((self.width - 1 - x, y) for x, y in self.home_setup)


PRESETS = {
    1: Preset(8, 4, 8, ((2, 1),)),
    # 3 v 3 and 5 v 5 play Blood Bowl's 8 turns a half: with 4, a team that has to get past
    # a wall of tackle zones rarely has the time to score at all (see docs/gridiron.md)
    3: Preset(12, 5, 16, ((4, 1), (5, 2), (4, 3))),
    5: Preset(16, 9, 16, ((6, 2), (7, 3), (7, 4), (7, 5), (6, 6))),
}


class GridironState(NamedTuple):
    """A position.

    Attributes:
        size: the preset (1, 3 or 5).
        turns_left: turns each team still has (home, away).
        team: the team that decides now (0 home, 1 away).
        score: touchdowns (home, away).
        kickoff: 1 when ``team`` must kick off before play goes on, else 0.
        active: index of the activated player, or -1.
        moves_left: squares the active player may still move.
        ball: (x, y) of the ball, or (-1, -1) before a kick-off.
        carrier: index of the player holding the ball, or -1 (loose or not in play).
        players: per player (x, y, status); home players first, then away.
    """

    size: int
    turns_left: tuple[int, int]
    team: int
    score: tuple[int, int]
    kickoff: int
    active: int
    moves_left: int
    ball: tuple[int, int]
    carrier: int
    players: tuple[tuple[int, int, int], ...]


class Pitch:
    """The pitch of one size preset (1, 3 or 5): its squares, its players' labels and set-up, and
    what a position's geometry says (tackle zones, where a ball lands). The rules,
    :class:`games.gridiron.Gridiron`, are played on one."""

    def __init__(self, size: int = 1) -> None:
        if size not in PRESETS:
            raise ValueError(f"unknown size {size!r}: choose 1, 3 or 5")
        self.size = size
        self.preset = PRESETS[size]
        self.width = self.preset.width
        self.height = self.preset.height
        self.team_size = len(self.preset.home_setup)
        h = self.height
        #: the 8 neighbours of every square, as indices x * height + y
        self.neighbours = tuple(
            tuple(
                (x + dx) * h + y + dy
                for dx, dy in DIRECTIONS
                if 0 <= x + dx < self.width and 0 <= y + dy < h
            )
            for x in range(self.width)
            for y in range(h)
        )

    def player_label(self, index: int) -> str:
        """ "H1".."Hn" for home players, "A1".."An" for away players."""
        if index < self.team_size:
            return f"H{index + 1}"
        return f"A{index - self.team_size + 1}"

    def player_index(self, label: str) -> int:
        """The index of the player labelled ``label`` ("H1", "A2"); ``PositionError`` otherwise."""
        if (
            len(label) in (2, 3)
            and label[0] in "HA"
            and label[1:].isascii()
            and label[1:].isdigit()
        ):
            number = int(label[1:])
            if 1 <= number <= self.team_size:
                return number - 1 + (0 if label[0] == "H" else self.team_size)
        raise PositionError(
            f"unknown player {label!r}: use H1..H{self.team_size} or A1..A{self.team_size}"
        )

    def setup_players(self) -> tuple[tuple[int, int, int], ...]:
        """Every player ready on its set-up square (home first, then away)."""
        return tuple((x, y, READY) for x, y in self.preset.home_setup + self.preset.away_setup())

    def team_range(self, team: int) -> range:
        """Indices of ``team``'s players in ``state.players`` (0: home, 1: away)."""
        n = self.team_size
        return range(0, n) if team == 0 else range(n, 2 * n)

    def tackle_zone_count(self, state: GridironState, mover: int, x: int, y: int) -> int:
        """Standing opponents of ``mover`` adjacent to (x, y)."""
        opponents = self.team_range(1 if mover < self.team_size else 0)
        count = 0
        for j in opponents:
            ox, oy, status = state.players[j]
            if status != DOWN and abs(ox - x) <= 1 and abs(oy - y) <= 1:
                count += 1
        return count

    def landing(self, x: int, y: int, direction: int) -> tuple[int, int]:
        """Where a ball scattering from (x, y) in ``direction`` lands (clamped onto the pitch)."""
        dx, dy = DIRECTIONS[direction]
        return min(max(x + dx, 0), self.width - 1), min(max(y + dy, 0), self.height - 1)

    # ------------------------------------------------------ view helpers

    def players(self, state: GridironState) -> list[tuple[str, int, int, int, bool, bool]]:
        """(label, team, x, y, standing, used) for every player."""
        return [
            (self.player_label(i), 0 if i < self.team_size else 1, x, y, s != DOWN, s == USED)
            for i, (x, y, s) in enumerate(state.players)
        ]

    def ball(self, state: GridironState) -> tuple[int, int, str | None]:
        """(x, y, carrier label or None); (-1, -1, None) before a kick-off."""
        carrier = self.player_label(state.carrier) if state.carrier >= 0 else None
        return state.ball[0], state.ball[1], carrier

    def tackle_zones(self, state: GridironState, team: int) -> set[tuple[int, int]]:
        """Squares in the tackle zone of ``team``'s standing players."""
        zones = set()
        for i in self.team_range(team):
            x, y, status = state.players[i]
            if status != DOWN:
                for dx, dy in DIRECTIONS:
                    if 0 <= x + dx < self.width and 0 <= y + dy < self.height:
                        zones.add((x + dx, y + dy))
        return zones

    @property
    def endzones(self) -> tuple[int, int]:
        """Endzone columns: (where away scores, where home scores)."""
        return (0, self.width - 1)
