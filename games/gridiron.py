"""Gridiron: a small dice-based take on Blood Bowl, with chance nodes and multi-action turns.

The rules are written out in ``docs/gridiron.md``; this docstring is the short version.

- Presets: ``size=1`` (1 v 1 on 8x4, 8 turns each), ``size=3`` (3 v 3 on 12x5, 16 turns each),
  ``size=5`` (5 v 5 on 16x9, 16 turns each). Columns 0 and W-1 are the endzones: home (player 0)
  scores in column W-1, away (player 1) in column 0.
- A team turn is a sequence of actions: activate a player, move it one square at a time (8
  directions, 3 squares), block an adjacent standing opponent (ends the activation), end the
  activation, end the turn. Each player activates once per turn.
- Dice (all d6 unless said): a dodge (leaving a square next to a standing opponent) and a pickup
  (moving onto the loose ball) succeed on 3+, one more per opponent tackle zone on the
  destination square; a 1 always fails and a 6 always succeeds. The block die: attacker down
  (1/6), both down (1/6), push (2/6), defender down (2/6). A loose ball scatters one square in one
  of 8 directions (d8, 1/8 each). The kick-off lands uniformly on a free square of the receiving
  half. A failed dodge or pickup, or the attacker going down, is a turnover.
- A knocked-down player stands up at the start of their team's next turn and cannot act in it.
- After half the turns, half-time: players reset and home kicks off to away.
- A touchdown is scored as soon as a ball carrier stands in the endzone where his team scores,
  however he got there: moving with the ball, picking it up there, pushed there by a block,
  catching a scattered ball there, standing up on the ball there; in either team's turn. It
  ends the turn under way; players are reset and the scoring team kicks off to the other team.
  A touchdown in the other team's turn costs the scorer its next turn of the half. A carrier
  who goes down drops the ball (no touchdown). Most touchdowns after all turns wins.

States are named tuples of ints (fast to copy, hashable). Actions are small tuples:
``("kick",)``, ``("activate", i)``, ``("move", x, y)``, ``("block", j)``, ``("end_activation",)``,
``("end_turn",)`` where ``i``/``j`` index ``state.players`` (home first, then away).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from games.base import NO_CHANCE, Game, PositionError
from games.spec import GameOption, GameSpec

__all__ = [
    "SPEC",
    "Gridiron",
    "GridironState",
    "GridironWeights",
    "PRESETS",
    "READY",
    "USED",
    "DOWN",
]

#: An action: a tuple whose first item names it ("end", "move", "block", ...; see legal_actions).
Action = tuple[Any, ...]

READY, USED, DOWN = 0, 1, 2  # player status: can act, has acted / stood up this turn, knocked down
_STATUS_CHARS = "rud"
MOVEMENT = 3
DODGE_BASE = 3  # a dodge succeeds on 3+, one more per opponent tackle zone on the destination
PICKUP_BASE = 3  # a pickup succeeds on 3+, one more per opponent tackle zone there
#: The heuristic's price of a dodge, in squares: the carrier's way to the endzone counts each
#: step out of an opponent's tackle zone as this many extra squares (a 3+ to 5+ roll that
#: loses the ball when it fails is worth going around, but not at any cost).
DODGE_SQUARES = 2
_DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_DETERMINISTIC = ((NO_CHANCE, 1.0),)


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


@dataclass(frozen=True)
class GridironWeights:
    """Weights of the heuristic (the botbowl tutorial's ``simple_heuristic`` in spirit).

    Attributes:
        score: per touchdown of difference.
        ball: for holding the ball (the opponent holding it counts the same, negatively).
        distance: for how close the ball carrier is to scoring (see ``Gridiron.heuristic``).
        down: per knocked-down player, as a share of the team.
    """

    score: float = 1.0
    ball: float = 0.1
    distance: float = 0.8
    down: float = 0.15


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


def _p_roll(target: int) -> float:
    """P(d6 >= target) where a 1 always fails and a 6 always succeeds."""
    return min(5, max(1, 7 - target)) / 6


class Gridiron:
    """The rules, implementing :class:`games.base.Game`."""

    name = "gridiron"
    num_players = 2

    def __init__(self, size: int = 1, weights: GridironWeights | None = None) -> None:
        if size not in PRESETS:
            raise ValueError(f"unknown size {size!r}: choose 1, 3 or 5")
        self.size = size
        self.preset = PRESETS[size]
        self.width = self.preset.width
        self.height = self.preset.height
        self.team_size = len(self.preset.home_setup)
        self.weights = weights or GridironWeights()
        h = self.height
        # the 8 neighbours of every square, as indices x * height + y
        self._neighbours = tuple(
            tuple(
                (x + dx) * h + y + dy
                for dx, dy in _DIRECTIONS
                if 0 <= x + dx < self.width and 0 <= y + dy < h
            )
            for x in range(self.width)
            for y in range(h)
        )

    # ------------------------------------------------------------ protocol

    def initial_state(self) -> GridironState:
        """The away team kicks off to the home team."""
        return GridironState(
            self.size, (self.preset.turns,) * 2, 1, (0, 0), 1, -1, 0, (-1, -1), -1,
            self._setup(),
        )  # fmt: skip

    def current_player(self, state: GridironState) -> int:
        return state.team

    def is_terminal(self, state: GridironState) -> bool:
        return state.turns_left[0] == 0 and state.turns_left[1] == 0

    def returns(self, state: GridironState) -> tuple[float, float]:
        home, away = state.score
        if home > away:
            return (1.0, -1.0)
        if away > home:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def score(self, state: GridironState) -> tuple[int, int]:
        """Touchdowns (home, away)."""
        return state.score

    def legal_actions(self, state: GridironState) -> list[Action]:
        """In this order: the kick-off; activations by player; for the active player its moves
        (squares by x, then y: left to right, as the botbowl tutorial expands), blocks (by
        target), end activation; end turn last."""
        if self.is_terminal(state):
            return []
        if state.kickoff:
            return [("kick",)]
        actions: list[Action] = []
        players = state.players
        if state.active < 0:
            for i in self._team_range(state.team):
                if players[i][2] == READY:
                    actions.append(("activate", i))
        else:
            x, y, _ = players[state.active]
            occupied = {(p[0], p[1]) for p in players}
            if state.moves_left > 0:
                squares = []
                for dx, dy in _DIRECTIONS:
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < self.width and 0 <= ny < self.height and (nx, ny) not in occupied:
                        squares.append((nx, ny))
                actions.extend(("move", nx, ny) for nx, ny in sorted(squares))
            for j in self._team_range(1 - state.team):
                jx, jy, status = players[j]
                if status != DOWN and abs(jx - x) <= 1 and abs(jy - y) <= 1:
                    actions.append(("block", j))
            actions.append(("end_activation",))
        actions.append(("end_turn",))
        return actions

    def chance_outcomes(self, state: GridironState, action: Action) -> list[tuple[object, float]]:
        kind = action[0]
        if kind == "kick":
            squares = self._kick_squares(state)
            return [((x, y), 1 / len(squares)) for x, y in squares]
        if kind == "move":
            return self._move_outcomes(state, action[1], action[2])
        if kind == "block":
            return self._block_outcomes(state, action[1])
        return list(_DETERMINISTIC)

    def next_state(
        self, state: GridironState, action: Action, outcome: object = NO_CHANCE
    ) -> GridironState:
        kind = action[0]
        if kind == "kick":
            assert isinstance(outcome, tuple)
            return state._replace(
                kickoff=0, team=self._next_team(state.team, state.turns_left), ball=outcome,
                carrier=-1,
            )  # fmt: skip
        if kind == "activate":
            return state._replace(active=action[1], moves_left=MOVEMENT)
        if kind == "end_activation":
            return self._end_activation(state)
        if kind == "end_turn":
            return self._end_turn(self._end_activation(state) if state.active >= 0 else state)
        if kind == "move":
            return self._resolve_move(state, action[1], action[2], outcome)
        return self._resolve_block(state, action[1], outcome)

    def heuristic(self, state: GridironState) -> tuple[float, float]:
        """Per player in [-1, 1]; home's value h, away's -h (terminal states: the returns).

        ``h = 0.95 * tanh(raw)``, where ``raw`` (from home's side) adds up, with the weights
        of :class:`GridironWeights`:

        - ``score`` x (home touchdowns - away touchdowns);
        - for a ball carrier, signed by its team: ``ball + distance x closeness``, where
          ``closeness = max(0, 1 - to_go / (2 x span))`` (1 in the endzone, 1/2 a pitch length
          away; ``span = width - 1``),
          ``to_go`` is the carrier's shortest way to the endzone around the other players with
          every dodge on it counting ``DODGE_SQUARES`` extra squares, and ``closeness`` halves
          for every 3 squares (a turn's move) the carrier is short of reaching the endzone
          before half-time, when possession is lost;
        - for a loose ball: ``lead x (ball + distance x (1 - columns / (2 x span))) / 2`` with
          ``lead = (d_away - d_home) / (d_away + d_home)``, ``d`` the distance from each team's
          nearest standing player to the ball, and ``columns`` from the ball to the scoring
          endzone of the team that is closer;
        - ``down`` x (away players down - home players down) / team size.
        """
        if self.is_terminal(state):
            return self.returns(state)
        w = self.weights
        raw = w.score * (state.score[0] - state.score[1])
        players = state.players
        span = self.width - 1
        if state.carrier >= 0:
            raw += self._carrier_value(state)
        elif state.ball[0] >= 0:
            bx, by = state.ball
            nearest = [float(self.width), float(self.width)]
            for i, (x, y, status) in enumerate(players):
                if status != DOWN:
                    team = 0 if i < self.team_size else 1
                    nearest[team] = min(nearest[team], max(abs(x - bx), abs(y - by)))
            # whoever stands closer is likelier to get it, and every step towards it counts
            # (a tanh of the difference saturated: players stopped going for the ball). It is
            # worth half of what holding it there on an empty pitch would be, so picking it up
            # pays even behind a wall of tackle zones (a ball lay untouched next to a player
            # for a whole half when a loose ball was valued like a held one).
            lead = (nearest[1] - nearest[0]) / (nearest[1] + nearest[0])
            columns = span - bx if lead >= 0 else bx  # to the closer team's scoring endzone
            raw += 0.5 * lead * (w.ball + w.distance * (1 - columns / (2 * span)))
        down = [0, 0]
        for i, (_, _, status) in enumerate(players):
            if status == DOWN:
                down[0 if i < self.team_size else 1] += 1
        raw += w.down * (down[1] - down[0]) / self.team_size
        h = 0.95 * math.tanh(raw)
        return (h, -h)

    def _carrier_value(self, state: GridironState) -> float:
        """The ball carrier's part of the heuristic's ``raw``, from home's side."""
        w = self.weights
        carrier = state.carrier
        home = carrier < self.team_size
        team = 0 if home else 1
        span = self.width - 1
        to_go = self.way_to_endzone(state, carrier)
        # squares the carrier can still move before half-time: what is left of the turn
        # under way, then MOVEMENT a turn
        turns = self._turns_left_in_half(state, team)
        reach = MOVEMENT * turns
        if state.team == team:
            reach -= MOVEMENT
            if carrier == state.active:
                reach += state.moves_left
            elif state.players[carrier][2] == READY:
                reach += MOVEMENT
        short = max(0, to_go - reach)
        closeness = max(0.0, 1 - to_go / (2 * span)) * 0.5 ** (short / MOVEMENT)
        value = w.ball + w.distance * closeness
        return float(value if home else -value)

    def way_to_endzone(self, state: GridironState, carrier: int) -> int:
        """The carrier's shortest way to its scoring endzone, in squares: Dijkstra over free
        squares, where leaving a square in a standing opponent's tackle zone (a dodge) costs
        ``DODGE_SQUARES`` extra. ``2 x width`` when every way is blocked."""
        h = self.height
        home = carrier < self.team_size
        goal_x = self.width - 1 if home else 0
        neighbours = self._neighbours
        blocked: set[int] = set()
        marked: set[int] = set()
        for i, (px, py, status) in enumerate(state.players):
            blocked.add(px * h + py)
            if status != DOWN and (i < self.team_size) != home:
                marked.update(neighbours[px * h + py])
        x, y, _ = state.players[carrier]
        start = x * h + y
        best = {start: 0}
        heap = [(0, start)]
        while heap:
            cost, square = heapq.heappop(heap)
            if square // h == goal_x:
                return cost
            if cost > best[square]:
                continue  # a stale entry: the square was reached more cheaply since
            step = 1 + DODGE_SQUARES if square in marked else 1
            for nxt in neighbours[square]:
                if nxt not in blocked and cost + step < best.get(nxt, 1 << 30):
                    best[nxt] = cost + step
                    heapq.heappush(heap, (cost + step, nxt))
        return 2 * self.width

    def _turns_left_in_half(self, state: GridironState, team: int) -> int:
        """Turns ``team`` still has before half-time or the end (the one under way included)."""
        half = self.preset.turns // 2
        left = state.turns_left[team]
        first_half = state.turns_left[0] > half or state.turns_left[1] > half
        return left - half if first_half else left

    # -------------------------------------------------------------- labels

    def player_label(self, index: int) -> str:
        """ "H1".."Hn" for home players, "A1".."An" for away players."""
        if index < self.team_size:
            return f"H{index + 1}"
        return f"A{index - self.team_size + 1}"

    def action_label(self, state: GridironState, action: Action) -> str:
        kind = action[0]
        if kind == "kick":
            return "kick-off"
        # "acts" and "stops": one name in the tree's boxes and in the narration (issue 31)
        if kind == "activate":
            return f"{self.player_label(action[1])} acts"
        if kind == "end_activation":
            return f"{self.player_label(state.active)} stops"
        if kind == "end_turn":
            return "end turn"
        who = self.player_label(state.active)
        if kind == "block":
            return f"{who} block {self.player_label(action[1])}"
        x, y = action[1], action[2]
        dodge = self._tackle_zones(state, state.active, *state.players[state.active][:2]) > 0
        pickup = state.carrier < 0 and state.ball == (x, y)
        verb = "dodge to" if dodge else "move to"
        if pickup:
            verb = "dodge and pick up at" if dodge else "pick up at"
        return f"{who} {verb} ({x},{y})"

    def short_action_label(self, state: GridironState, action: Action) -> str:
        """At most 9 characters for a tree box: "H1 acts", "to 3,2", "dodge 1,2", "pick 3,2"."""
        kind = action[0]
        if kind == "activate":
            return f"{self.player_label(action[1])} acts"
        if kind == "end_activation":
            return f"{self.player_label(state.active)} stops"
        if kind == "block":
            return f"block {self.player_label(action[1])}"
        if kind != "move":
            return self.action_label(state, action)
        x, y = action[1], action[2]
        if self._tackle_zones(state, state.active, *state.players[state.active][:2]) > 0:
            return f"dodge {x},{y}"
        if state.carrier < 0 and state.ball == (x, y):
            return f"pick {x},{y}"
        return f"to {x},{y}"

    def outcome_label(self, state: GridironState, action: Action, outcome: object) -> str:
        if outcome is NO_CHANCE:
            return ""
        kind = action[0]
        if kind == "kick":
            assert isinstance(outcome, tuple)
            return f"ball lands on ({outcome[0]},{outcome[1]})"
        assert isinstance(outcome, tuple)
        if kind == "move":
            dodge, pickup, direction = outcome
            parts = []
            if dodge is not None:
                target = self._dodge_target(state, action[1], action[2])
                parts.append(f"dodge {target}+ ok" if dodge else f"dodge {target}+ failed")
            if pickup is not None:
                parts.append("pickup ok" if pickup else "pickup failed")
            if direction is not None:
                parts.append(f"ball scatters to ({self._scatter_label(state, action, outcome)})")
            return ", ".join(parts) + self._touchdown_label(state, action, outcome)
        face, direction = outcome
        text = {0: "attacker down", 1: "both down", 2: "push", 3: "defender down"}[face]
        label = f"block: {text}"
        if direction is not None:
            label += f", ball scatters to ({self._scatter_label(state, action, outcome)})"
        return label + self._touchdown_label(state, action, outcome)

    def short_outcome_label(self, state: GridironState, action: Action, outcome: object) -> str:
        """At most 9 characters for a tree box: "on 1,1" (a kick), "dodge ok", "fell",
        "pickup ok", "drop 4,2" (a failed pick-up, the ball scattered to 4,2), "push",
        "def↓ 3,2" (a block), "touchdown"; the full label: :meth:`outcome_label`."""
        if outcome is NO_CHANCE:
            return ""
        assert isinstance(outcome, tuple)
        if action[0] == "kick":
            return f"on {outcome[0]},{outcome[1]}"
        if self._touchdown_label(state, action, outcome):
            return "touchdown"
        where = ""
        if outcome[-1] is not None:  # the ball scattered: where it came to rest
            where = self._scatter_label(state, action, outcome).replace(" ", "")
        if action[0] == "move":
            dodge, pickup, _ = outcome
            if dodge is not None and not dodge:
                return f"fell {where}".strip()
            if pickup is not None:
                return "pickup ok" if pickup else f"drop {where}".strip()
            return "dodge ok"
        face = outcome[0]
        text = {0: "att↓", 1: "both↓", 2: "push", 3: "def↓"}[face]
        return f"{text} {where}".strip()

    def _scatter_label(self, state: GridironState, action: Action, outcome: tuple[Any, ...]) -> str:
        """The square a scattering ball lands on (worked out here: after a touchdown the
        next state has no ball on the pitch)."""
        if action[0] == "move":
            x, y = action[1], action[2]
        else:
            attacker, target = state.active, action[1]
            x, y, _ = state.players[attacker if state.carrier == attacker else target]
        bx, by = self._landing(x, y, outcome[-1])
        return f"{bx},{by}"

    def _touchdown_label(self, state: GridironState, action: Action, outcome: object) -> str:
        """The label's ending when the outcome scores (", home touchdown" or ", away
        touchdown"), else the empty string."""
        score = self.next_state(state, action, outcome).score
        if score == state.score:
            return ""
        return ", home touchdown" if score[0] > state.score[0] else ", away touchdown"

    # --------------------------------------------------------- positions

    def format_state(self, state: GridironState) -> str:
        """``size_turnsH-turnsA_team_scoreH-scoreA_kickoff_active-moves_ball_players``.

        ``active`` is a player label or ``-``; ``ball`` is ``x,y``, a carrier label (``H1``) or
        ``-`` (before a kick-off); ``players`` are ``x,y,s`` joined by ``~`` with ``s`` one of
        ``r`` (ready), ``u`` (used this turn), ``d`` (down); home players first. Example, the
        start of a 1 v 1 game (before the kick-off): ``1_8-8_1_0-0_1_--0_-_2,1,r~5,1,r``.
        """
        active = "-" if state.active < 0 else self.player_label(state.active)
        if state.carrier >= 0:
            ball = self.player_label(state.carrier)
        elif state.ball[0] < 0:
            ball = "-"
        else:
            ball = f"{state.ball[0]},{state.ball[1]}"
        players = "~".join(f"{x},{y},{_STATUS_CHARS[s]}" for x, y, s in state.players)
        return (
            f"{state.size}_{state.turns_left[0]}-{state.turns_left[1]}_{state.team}_"
            f"{state.score[0]}-{state.score[1]}_{state.kickoff}_{active}-{state.moves_left}_"
            f"{ball}_{players}"
        )

    def parse_state(self, text: str) -> GridironState:
        """A position string -> state; ``PositionError`` naming the problem."""
        if not isinstance(text, str):
            raise PositionError(f"position must be a string, got {type(text).__name__}")
        parts = text.strip().split("_")
        if len(parts) != 8:
            raise PositionError(
                f"a gridiron position has 8 fields separated by '_', got {len(parts)}"
            )
        size_text, turns_text, team_text, score_text, kick_text, active_text, ball_text, \
            players_text = parts  # fmt: skip
        size = _int(size_text, "size")
        if size != self.size:
            if size not in PRESETS:
                raise PositionError(f"unknown size {size}: choose 1, 3 or 5")
            raise PositionError(
                f"this is a {size} v {size} position; the game is {self.size} v {self.size}"
            )
        turns = _pair(turns_text, "turns left")
        if not all(0 <= t <= self.preset.turns for t in turns):
            raise PositionError(f"turns left must be in 0..{self.preset.turns}, got {turns_text}")
        team = _int(team_text, "team")
        if team not in (0, 1):
            raise PositionError(f"team to move must be 0 (home) or 1 (away), got {team}")
        score = _pair(score_text, "score")
        if min(score) < 0:
            raise PositionError(f"scores cannot be negative: {score_text}")
        kickoff = _int(kick_text, "kick-off flag")
        if kickoff not in (0, 1):
            raise PositionError(f"kick-off flag must be 0 or 1, got {kickoff}")
        if "-" not in active_text:
            raise PositionError(
                f"active field must be 'player-moves' or '--0', got {active_text!r}"
            )
        active_label, moves_text = active_text.rsplit("-", 1)
        moves_left = _int(moves_text, "moves left")
        if not 0 <= moves_left <= MOVEMENT:
            raise PositionError(f"moves left must be in 0..{MOVEMENT}, got {moves_left}")
        raw_players = players_text.split("~")
        if len(raw_players) != 2 * self.team_size:
            raise PositionError(
                f"{self.size} v {self.size} needs {2 * self.team_size} players, got "
                f"{len(raw_players)}"
            )
        players = []
        seen: dict[tuple[int, int], str] = {}
        for i, raw in enumerate(raw_players):
            label = self.player_label(i)
            fields = raw.split(",")
            if len(fields) != 3 or fields[2] not in _STATUS_CHARS:
                raise PositionError(f"player {label} must be 'x,y,s' with s in r/u/d, got {raw!r}")
            x, y = _int(fields[0], f"{label} x"), _int(fields[1], f"{label} y")
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise PositionError(f"player {label} off the pitch at ({x},{y})")
            if (x, y) in seen:
                raise PositionError(f"two players on ({x},{y}): {seen[(x, y)]} and {label}")
            seen[(x, y)] = label
            players.append((x, y, _STATUS_CHARS.index(fields[2])))
        active = -1
        if active_label != "-":
            active = self._index(active_label)
            if (active < self.team_size) != (team == 0):
                raise PositionError(f"active player {active_label} is not on the team to move")
            if players[active][2] == DOWN:
                raise PositionError(f"active player {active_label} is down")
        carrier = -1
        ball = (-1, -1)
        if ball_text == "-":
            if not kickoff:
                raise PositionError("the ball is off the pitch but no kick-off is due")
        elif "," in ball_text:
            ball = _pair(ball_text, "ball", sep=",")
            if not (0 <= ball[0] < self.width and 0 <= ball[1] < self.height):
                raise PositionError(f"ball off the pitch at ({ball[0]},{ball[1]})")
        else:
            carrier = self._index(ball_text)
            if players[carrier][2] == DOWN:
                raise PositionError(f"ball carrier {ball_text} is down")
            if players[carrier][0] == (self.width - 1 if carrier < self.team_size else 0):
                raise PositionError(
                    f"ball carrier {ball_text} stands in the endzone where his team scores: "
                    "that touchdown is scored at once"
                )
            ball = players[carrier][:2]
        if kickoff and (active >= 0 or ball_text != "-"):
            raise PositionError("during a kick-off no player is active and the ball is '-'")
        return GridironState(
            size, turns, team, score, kickoff, active, moves_left, ball, carrier, tuple(players)
        )

    def _index(self, label: str) -> int:
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

    def render(self, state: GridironState) -> str:
        """The pitch as text: H/A standing players (lower case when down), o the ball, * a
        carrier, | marks the endzone columns."""
        grid = [["." for _ in range(self.width)] for _ in range(self.height)]
        if state.ball[0] >= 0 and state.carrier < 0:
            grid[state.ball[1]][state.ball[0]] = "o"
        for i, (x, y, status) in enumerate(state.players):
            mark = "H" if i < self.team_size else "A"
            if status == DOWN:
                mark = mark.lower()
            if i == state.carrier:
                mark = "*" if i < self.team_size else "+"
            grid[y][x] = mark
        lines = ["|" + " ".join(row[1:-1]).join([row[0] + " ", " " + row[-1]]) + "|"
                 for row in grid]  # fmt: skip
        home, away = state.score
        header = f"score {home}-{away}, turns left {state.turns_left}, team {state.team} to act"
        return "\n".join([header, *lines])

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
        for i in self._team_range(team):
            x, y, status = state.players[i]
            if status != DOWN:
                for dx, dy in _DIRECTIONS:
                    if 0 <= x + dx < self.width and 0 <= y + dy < self.height:
                        zones.add((x + dx, y + dy))
        return zones

    @property
    def endzones(self) -> tuple[int, int]:
        """Endzone columns: (where away scores, where home scores)."""
        return (0, self.width - 1)

    # ----------------------------------------------------------- internals

    def _setup(self) -> tuple[tuple[int, int, int], ...]:
        return tuple((x, y, READY) for x, y in self.preset.home_setup + self.preset.away_setup())

    def _team_range(self, team: int) -> range:
        n = self.team_size
        return range(0, n) if team == 0 else range(n, 2 * n)

    def _tackle_zones(self, state: GridironState, mover: int, x: int, y: int) -> int:
        """Standing opponents of ``mover`` adjacent to (x, y)."""
        opponents = self._team_range(1 if mover < self.team_size else 0)
        count = 0
        for j in opponents:
            ox, oy, status = state.players[j]
            if status != DOWN and abs(ox - x) <= 1 and abs(oy - y) <= 1:
                count += 1
        return count

    def _dodge_target(self, state: GridironState, x: int, y: int) -> int:
        return DODGE_BASE + self._tackle_zones(state, state.active, x, y)

    def _kick_squares(self, state: GridironState) -> list[tuple[int, int]]:
        receiving = 1 - state.team
        half = (
            range(1, self.width // 2) if receiving == 0 else range(self.width // 2, self.width - 1)
        )
        occupied = {(p[0], p[1]) for p in state.players}
        return [(x, y) for x in half for y in range(self.height) if (x, y) not in occupied]

    def _move_outcomes(self, state: GridironState, x: int, y: int) -> list[tuple[object, float]]:
        active = state.active
        ax, ay, _ = state.players[active]
        dodge = self._tackle_zones(state, active, ax, ay) > 0
        pickup = state.carrier < 0 and state.ball == (x, y)
        if not dodge and not pickup:
            return list(_DETERMINISTIC)
        outcomes: list[tuple[object, float]] = []
        p_ok = 1.0
        if dodge:
            p_ok = _p_roll(self._dodge_target(state, x, y))
            if state.carrier == active:  # falls with the ball: it scatters from (x, y)
                outcomes.extend(((0, None, d), (1 - p_ok) / 8) for d in range(8))
            else:
                outcomes.append(((0, None, None), 1 - p_ok))
        dodge_flag = 1 if dodge else None
        if pickup:
            p_pick = _p_roll(PICKUP_BASE + self._tackle_zones(state, active, x, y))
            outcomes.append(((dodge_flag, 1, None), p_ok * p_pick))
            outcomes.extend(((dodge_flag, 0, d), p_ok * (1 - p_pick) / 8) for d in range(8))
        else:
            outcomes.append(((1, None, None), p_ok))
        return outcomes

    def _block_outcomes(self, state: GridironState, target: int) -> list[tuple[object, float]]:
        attacker = state.active
        carrier = state.carrier
        outcomes: list[tuple[object, float]] = []
        for face, p in ((0, 1 / 6), (1, 1 / 6), (2, 2 / 6), (3, 2 / 6)):
            falls = {0: (attacker,), 1: (attacker, target), 2: (), 3: (target,)}[face]
            if carrier >= 0 and carrier in falls:
                outcomes.extend(((face, d), p / 8) for d in range(8))
            else:
                outcomes.append(((face, None), p))
        return outcomes

    def _landing(self, x: int, y: int, direction: int) -> tuple[int, int]:
        """Where a ball scattering from (x, y) in ``direction`` lands (clamped onto the pitch)."""
        dx, dy = _DIRECTIONS[direction]
        return min(max(x + dx, 0), self.width - 1), min(max(y + dy, 0), self.height - 1)

    def _scatter(
        self,
        state: GridironState,
        players: list[tuple[int, int, int]],
        x: int,
        y: int,
        direction: int,
        fumbler: int = -1,
    ) -> tuple[tuple[int, int], int]:
        """The ball bounces from (x, y) one square in ``direction`` (clamped onto the pitch);
        a standing player on the landing square catches it, except ``fumbler`` (the player
        who just failed to pick it up: a bounce clamped back onto his square leaves the ball
        loose at his feet). Returns (ball, carrier)."""
        bx, by = self._landing(x, y, direction)
        for i, (px, py, status) in enumerate(players):
            if (px, py) == (bx, by) and status != DOWN and i != fumbler:
                return (bx, by), i
        return (bx, by), -1

    def _resolve_move(self, state: GridironState, x: int, y: int, outcome: object) -> GridironState:
        active = state.active
        players = list(state.players)
        players[active] = (x, y, players[active][2])
        ball, carrier = state.ball, state.carrier
        if carrier == active:
            ball = (x, y)
        moves_left = state.moves_left - 1
        if outcome is NO_CHANCE:
            dodge = pickup = direction = None
        else:
            dodge, pickup, direction = outcome  # type: ignore[misc]
        if dodge == 0:  # failed dodge: down in the new square, turnover
            players[active] = (x, y, DOWN)
            if carrier == active:  # a carrier who falls (in an endzone too) drops the ball
                assert direction is not None
                ball, carrier = self._scatter(state, players, x, y, direction)
            return self._turnover(
                state._replace(
                    players=tuple(players), ball=ball, carrier=carrier, active=-1, moves_left=0
                )
            )
        if pickup == 0:  # failed pickup: the ball scatters, turnover
            assert direction is not None
            players[active] = (x, y, USED)
            ball, carrier = self._scatter(state, players, x, y, direction, fumbler=active)
            return self._turnover(
                state._replace(
                    players=tuple(players), ball=ball, carrier=carrier, active=-1, moves_left=0
                )
            )
        if pickup == 1:
            carrier = active
            ball = (x, y)
        after = state._replace(
            players=tuple(players), ball=ball, carrier=carrier, moves_left=moves_left
        )
        return self._touchdown_if_scored(after) or after

    def _resolve_block(self, state: GridironState, target: int, outcome: object) -> GridironState:
        assert isinstance(outcome, tuple)
        face, direction = outcome
        attacker = state.active
        players = list(state.players)
        ax, ay, _ = players[attacker]
        tx, ty, _ = players[target]
        ball, carrier = state.ball, state.carrier
        if face == 2:  # push: one square straight away, if free and on the pitch
            px, py = tx + (tx > ax) - (tx < ax), ty + (ty > ay) - (ty < ay)
            free = all((p[0], p[1]) != (px, py) for p in players)
            loose_ball_there = carrier < 0 and ball == (px, py)
            if 0 <= px < self.width and 0 <= py < self.height and free and not loose_ball_there:
                players[target] = (px, py, players[target][2])
                if carrier == target:
                    ball = (px, py)
        if face in (1, 3):
            players[target] = (tx, ty, DOWN)
        if face in (0, 1):
            players[attacker] = (ax, ay, DOWN)
        else:
            players[attacker] = (ax, ay, USED)
        if direction is not None:
            fallen = attacker if carrier == attacker else target
            fx, fy, _ = players[fallen]
            ball, carrier = self._scatter(state, players, fx, fy, direction)
        after = state._replace(
            players=tuple(players), ball=ball, carrier=carrier, active=-1, moves_left=0
        )
        # a carrier pushed into the endzone where his team scores, or a scattered ball caught
        # there, scores at the end of the block (even in the other team's turn)
        if face in (0, 1):  # the attacker went down: turnover
            return self._turnover(after)
        return self._touchdown_if_scored(after) or after

    def _end_activation(self, state: GridironState) -> GridironState:
        if state.active < 0:
            return state
        players = list(state.players)
        x, y, status = players[state.active]
        if status != DOWN:
            players[state.active] = (x, y, USED)
        return state._replace(players=tuple(players), active=-1, moves_left=0)

    def _end_turn(self, state: GridironState) -> GridironState:
        """The team's turn ends: count it; the other team's players get ready and its
        knocked-down players stand up (used: they cannot act this turn)."""
        turns = list(state.turns_left)
        turns[state.team] -= 1
        if turns[0] == 0 and turns[1] == 0:  # the last turn of the game: nobody stands up
            return state._replace(turns_left=(0, 0), active=-1, moves_left=0)
        half = self.preset.turns // 2
        if turns[0] == turns[1] == half:
            return self._half_time(state)
        team = self._next_team(state.team, (turns[0], turns[1]))
        players = list(state.players)
        carrier = state.carrier
        for i in self._team_range(team):
            x, y, status = players[i]
            if status == DOWN:
                players[i] = (x, y, USED)
                if carrier < 0 and state.ball == (x, y):
                    carrier = i  # standing up on the ball takes it
            else:
                players[i] = (x, y, READY)
        started = state._replace(
            turns_left=(turns[0], turns[1]),
            team=team,
            players=tuple(players),
            active=-1,
            moves_left=0,
            carrier=carrier,
        )
        # standing up on the ball in the endzone where his team scores: a touchdown at the
        # start of the team's turn (which it uses up)
        return self._touchdown_if_scored(started) or started

    def _turnover(self, state: GridironState) -> GridironState:
        """The turn ends after a failed roll, unless the ball scattered into the hands of a
        player standing where his team scores: then that touchdown ends it."""
        return self._touchdown_if_scored(state) or self._end_turn(state)

    def _touchdown_if_scored(self, state: GridironState) -> GridironState | None:
        """The touchdown if the ball carrier stands in the endzone where his team scores (the
        state after it), else None. Carriers always stand: a player who goes down drops the
        ball. Checked after every action and roll, in either team's turn."""
        carrier = state.carrier
        if carrier < 0:
            return None
        home = carrier < self.team_size
        if state.players[carrier][0] != (self.width - 1 if home else 0):
            return None
        return self._touchdown(state, 0 if home else 1)

    @staticmethod
    def _next_team(team: int, turns_left: tuple[int, int]) -> int:
        """Turns alternate; a team with no turns left is skipped."""
        return team if turns_left[1 - team] == 0 and turns_left[team] > 0 else 1 - team

    def _touchdown(self, state: GridironState, scorer: int) -> GridironState:
        """Score, end the turn under way, reset the players; the scorer kicks off next.

        A touchdown in the other team's turn (``scorer != state.team``: a carrier pushed into
        the endzone, a scattered ball caught there) also costs the scorer its next turn of the
        half, if it has one (Blood Bowl moves the scorer's turn marker for the celebration), so
        the turns still alternate: the scorer kicks off to the team whose turn it was, which
        plays next."""
        score = list(state.score)
        score[scorer] += 1
        turns = list(state.turns_left)
        half = self.preset.turns // 2
        first_half = turns[0] > half or turns[1] > half
        turns[state.team] = max(0, turns[state.team] - 1)
        if scorer != state.team and turns[scorer] > (half if first_half else 0):
            turns[scorer] -= 1
        reset = state._replace(
            score=(score[0], score[1]), turns_left=(turns[0], turns[1]), team=scorer, kickoff=1,
            active=-1, moves_left=0, ball=(-1, -1), carrier=-1, players=self._setup(),
        )  # fmt: skip
        if turns[0] == 0 and turns[1] == 0:
            return reset._replace(kickoff=0)  # the game is over: no kick-off
        if turns[0] == turns[1] == half:
            return self._half_time(reset)
        return reset

    def _half_time(self, state: GridironState) -> GridironState:
        """Half the turns played: players back on their set-up squares and the home team
        kicks off to the away team (who received nothing in the first half)."""
        half = self.preset.turns // 2
        return state._replace(
            turns_left=(half, half), team=0, kickoff=1, active=-1, moves_left=0,
            ball=(-1, -1), carrier=-1, players=self._setup(),
        )  # fmt: skip


def _int(text: str, what: str) -> int:
    """A whole number in ASCII digits ("-" allowed first): ``int()`` alone would take "1_000",
    " 7" or Arabic-Indic digits, and ``str.isdigit()`` lets "²" through to a failing ``int``."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        raise PositionError(f"{what} must be a whole number, got {text[:24]!r}")
    return int(text)


def _pair(text: str, what: str, sep: str = "-") -> tuple[int, int]:
    parts = text.split(sep)
    if len(parts) != 2:
        raise PositionError(f"{what} must be two numbers joined by {sep!r}, got {text!r}")
    return _int(parts[0], what), _int(parts[1], what)


# ------------------------------------------------------------------ registration


def make_gridiron(
    size: int = 1, weights: GridironWeights | None = None, **weight: float
) -> Gridiron:
    """The game from the registry's flat options: ``size`` and ``weights`` as for
    :class:`Gridiron`, or single heuristic weights by their :class:`GridironWeights` field name
    (``score=2.0``: the app's sliders)."""
    if weight:
        weights = replace(weights or GridironWeights(), **weight)
    return Gridiron(size=size, weights=weights)


def size_of_position(text: str) -> dict[str, int]:
    """``{"size": n}`` when a position string's first field names a preset, else ``{}``
    (parsing reports what is wrong with it)."""
    first = text.strip().split("_", 1)[0]
    ok = first.isascii() and first.isdigit() and len(first) <= 2  # "²".isdigit() is true
    return {"size": int(first)} if ok and int(first) in PRESETS else {}


def _weight(name: str, label: str, high: float) -> GameOption:
    default = getattr(GridironWeights(), name)
    return GameOption(name, f"w_{name}", label, default, slider=(0.0, high, 0.05), heuristic=True)


#: The arena's measurements (README): no rollout, the heuristic order, little exploration.
_BEST = {"rollout_depth": 0, "expansion_order": "heuristic", "c": 0.5}

#: The registration the CLI and the app read (:mod:`games.registry`).
SPEC = GameSpec(
    name="gridiron",
    label="Gridiron",
    make=make_gridiron,
    player_names=("Home", "Away"),
    position_help="a gridiron position string (see docs/gridiron.md); empty: kick-off",
    board_view="gridiron",
    multi_action_turns=True,
    settings=_BEST,
    presets={"strong": _BEST},
    options=(
        GameOption(
            name="size",
            key="gridiron_size",
            label="Size",
            default=1,
            choices=tuple(PRESETS),
            labels=tuple(f"{n} v {n}" for n in PRESETS),
        ),
        _weight("score", "Score", 3.0),
        _weight("ball", "Ball possession", 2.0),
        _weight("distance", "Carrier's closeness to scoring", 2.0),
        _weight("down", "Players down", 2.0),
    ),
    options_of_position=size_of_position,
)


if TYPE_CHECKING:  # the rules meet the Game protocol, typed on this game's state (mypy checks)
    _RULES: Game[GridironState] = Gridiron()
