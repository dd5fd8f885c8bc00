"""Gridiron's heuristic: how good a position is for each team short of the end, with the
weights of :class:`GridironWeights` (the app's sliders), and the ball carrier's shortest way to
the endzone it reads (:func:`way_to_endzone`).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from games.gridiron_pitch import DODGE_SQUARES, DOWN, MOVEMENT, READY, GridironState, Pitch

__all__ = ["GridironWeights", "heuristic", "way_to_endzone"]


@dataclass(frozen=True)
class GridironWeights:
    """Weights of the heuristic (the botbowl tutorial's ``simple_heuristic`` in spirit).

    Attributes:
        score: per touchdown of difference.
        ball: for holding the ball (the opponent holding it counts the same, negatively).
        distance: for how close the ball carrier is to scoring (see :func:`heuristic`).
        down: per knocked-down player, as a share of the team.
    """

    score: float = 1.0
    ball: float = 0.1
    distance: float = 0.8
    down: float = 0.15


def heuristic(pitch: Pitch, weights: GridironWeights, state: GridironState) -> tuple[float, float]:
    """Per player in [-1, 1] at a position that is not over; home's value h, away's -h.

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
    w = weights
    raw = w.score * (state.score[0] - state.score[1])
    players = state.players
    span = pitch.width - 1
    if state.carrier >= 0:
        raw += _carrier_value(pitch, weights, state)
    elif state.ball[0] >= 0:
        bx, by = state.ball
        nearest = [float(pitch.width), float(pitch.width)]
        for i, (x, y, status) in enumerate(players):
            if status != DOWN:
                team = 0 if i < pitch.team_size else 1
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
            down[0 if i < pitch.team_size else 1] += 1
    raw += w.down * (down[1] - down[0]) / pitch.team_size
    h = 0.95 * math.tanh(raw)
    return (h, -h)


def _carrier_value(pitch: Pitch, weights: GridironWeights, state: GridironState) -> float:
    """The ball carrier's part of the heuristic's ``raw``, from home's side."""
    w = weights
    carrier = state.carrier
    home = carrier < pitch.team_size
    team = 0 if home else 1
    span = pitch.width - 1
    to_go = way_to_endzone(pitch, state, carrier)
    # squares the carrier can still move before half-time: what is left of the turn
    # under way, then MOVEMENT a turn
    turns = _turns_left_in_half(pitch, state, team)
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


def way_to_endzone(pitch: Pitch, state: GridironState, carrier: int) -> int:
    """The carrier's shortest way to its scoring endzone, in squares: Dijkstra over free
    squares, where leaving a square in a standing opponent's tackle zone (a dodge) costs
    ``DODGE_SQUARES`` extra. ``2 x width`` when every way is blocked."""
    h = pitch.height
    home = carrier < pitch.team_size
    goal_x = pitch.width - 1 if home else 0
    neighbours = pitch.neighbours
    blocked: set[int] = set()
    marked: set[int] = set()
    for i, (px, py, status) in enumerate(state.players):
        blocked.add(px * h + py)
        if status != DOWN and (i < pitch.team_size) != home:
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
    return 2 * pitch.width


def _turns_left_in_half(pitch: Pitch, state: GridironState, team: int) -> int:
    """Turns ``team`` still has before half-time or the end (the one under way included)."""
    half = pitch.preset.turns // 2
    left = state.turns_left[team]
    first_half = state.turns_left[0] > half or state.turns_left[1] > half
    return left - half if first_half else left
