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

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from games.base import NO_CHANCE, Game
from games.gridiron_heuristic import GridironWeights, heuristic, way_to_endzone
from games.gridiron_pitch import (
    DIRECTIONS,
    DODGE_BASE,
    DOWN,
    MOVEMENT,
    PICKUP_BASE,
    PRESETS,
    READY,
    USED,
    GridironState,
    Pitch,
)
from games.gridiron_text import format_position, parse_position, render_pitch, size_of_position
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

_DETERMINISTIC = ((NO_CHANCE, 1.0),)


def _p_roll(target: int) -> float:
    """P(d6 >= target) where a 1 always fails and a 6 always succeeds."""
    return min(5, max(1, 7 - target)) / 6


class Gridiron(Pitch):
    """The rules, implementing :class:`games.base.Game`, played on a :class:`Pitch` of ``size``
    (its geometry, player labels and the views' helpers), valued by the heuristic of
    :mod:`games.gridiron_heuristic` with ``weights``; positions as text in
    :mod:`games.gridiron_text`."""

    name = "gridiron"
    num_players = 2

    def __init__(self, size: int = 1, weights: GridironWeights | None = None) -> None:
        super().__init__(size)
        self.weights = weights or GridironWeights()

    # ------------------------------------------------------------ protocol

    def initial_state(self) -> GridironState:
        """The away team kicks off to the home team."""
        return GridironState(
            self.size, (self.preset.turns,) * 2, 1, (0, 0), 1, -1, 0, (-1, -1), -1,
            self.setup_players(),
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
            for i in self.team_range(state.team):
                if players[i][2] == READY:
                    actions.append(("activate", i))
        else:
            x, y, _ = players[state.active]
            occupied = {(p[0], p[1]) for p in players}
            if state.moves_left > 0:
                squares = []
                for dx, dy in DIRECTIONS:
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < self.width and 0 <= ny < self.height and (nx, ny) not in occupied:
                        squares.append((nx, ny))
                actions.extend(("move", nx, ny) for nx, ny in sorted(squares))
            for j in self.team_range(1 - state.team):
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
        """Per player in [-1, 1]; home's value h, away's -h; terminal states: the returns.
        The terms: :func:`games.gridiron_heuristic.heuristic`."""
        if self.is_terminal(state):
            return self.returns(state)
        return heuristic(self, self.weights, state)

    def way_to_endzone(self, state: GridironState, carrier: int) -> int:
        """The carrier's shortest way to its scoring endzone, in squares, a dodge costing
        extra (:func:`games.gridiron_heuristic.way_to_endzone`)."""
        return way_to_endzone(self, state, carrier)

    # -------------------------------------------------------------- labels

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
        dodge = self.tackle_zone_count(state, state.active, *state.players[state.active][:2]) > 0
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
        if self.tackle_zone_count(state, state.active, *state.players[state.active][:2]) > 0:
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
        bx, by = self.landing(x, y, outcome[-1])
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
        """The position string (:func:`games.gridiron_text.format_position`)."""
        return format_position(self, state)

    def parse_state(self, text: str) -> GridironState:
        """A position string -> state; ``PositionError`` naming the problem
        (:func:`games.gridiron_text.parse_position`)."""
        return parse_position(self, text)

    def render(self, state: GridironState) -> str:
        """The pitch as text (:func:`games.gridiron_text.render_pitch`)."""
        return render_pitch(self, state)

    # ----------------------------------------------------------- internals

    def _dodge_target(self, state: GridironState, x: int, y: int) -> int:
        return DODGE_BASE + self.tackle_zone_count(state, state.active, x, y)

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
        dodge = self.tackle_zone_count(state, active, ax, ay) > 0
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
            p_pick = _p_roll(PICKUP_BASE + self.tackle_zone_count(state, active, x, y))
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
        bx, by = self.landing(x, y, direction)
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
        for i in self.team_range(team):
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
            active=-1, moves_left=0, ball=(-1, -1), carrier=-1, players=self.setup_players(),
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
            ball=(-1, -1), carrier=-1, players=self.setup_players(),
        )  # fmt: skip


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
