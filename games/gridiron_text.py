"""Gridiron's positions as text: the position string (``format_position``, ``parse_position``,
``size_of_position``) and the pitch drawn in characters (``render_pitch``).

The string's fields are described in :func:`format_position` and docs/gridiron.md.
"""

from __future__ import annotations

from games.base import PositionError
from games.gridiron_pitch import DOWN, MOVEMENT, PRESETS, STATUS_CHARS, GridironState, Pitch

__all__ = ["format_position", "parse_position", "render_pitch", "size_of_position"]


def format_position(pitch: Pitch, state: GridironState) -> str:
    """``size_turnsH-turnsA_team_scoreH-scoreA_kickoff_active-moves_ball_players``.

    ``active`` is a player label or ``-``; ``ball`` is ``x,y``, a carrier label (``H1``) or
    ``-`` (before a kick-off); ``players`` are ``x,y,s`` joined by ``~`` with ``s`` one of
    ``r`` (ready), ``u`` (used this turn), ``d`` (down); home players first. Example, the
    start of a 1 v 1 game (before the kick-off): ``1_8-8_1_0-0_1_--0_-_2,1,r~5,1,r``.
    """
    active = "-" if state.active < 0 else pitch.player_label(state.active)
    if state.carrier >= 0:
        ball = pitch.player_label(state.carrier)
    elif state.ball[0] < 0:
        ball = "-"
    else:
        ball = f"{state.ball[0]},{state.ball[1]}"
    players = "~".join(f"{x},{y},{STATUS_CHARS[s]}" for x, y, s in state.players)
    return (
        f"{state.size}_{state.turns_left[0]}-{state.turns_left[1]}_{state.team}_"
        f"{state.score[0]}-{state.score[1]}_{state.kickoff}_{active}-{state.moves_left}_"
        f"{ball}_{players}"
    )


def parse_position(pitch: Pitch, text: str) -> GridironState:
    """A position string -> state; ``PositionError`` naming the problem."""
    if not isinstance(text, str):
        raise PositionError(f"position must be a string, got {type(text).__name__}")
    parts = text.strip().split("_")
    if len(parts) != 8:
        raise PositionError(f"a gridiron position has 8 fields separated by '_', got {len(parts)}")
    size_text, turns_text, team_text, score_text, kick_text, active_text, ball_text, \
        players_text = parts  # fmt: skip
    size = _int(size_text, "size")
    if size != pitch.size:
        if size not in PRESETS:
            raise PositionError(f"unknown size {size}: choose 1, 3 or 5")
        raise PositionError(
            f"this is a {size} v {size} position; the game is {pitch.size} v {pitch.size}"
        )
    turns = _pair(turns_text, "turns left")
    if not all(0 <= t <= pitch.preset.turns for t in turns):
        raise PositionError(f"turns left must be in 0..{pitch.preset.turns}, got {turns_text}")
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
        raise PositionError(f"active field must be 'player-moves' or '--0', got {active_text!r}")
    active_label, moves_text = active_text.rsplit("-", 1)
    moves_left = _int(moves_text, "moves left")
    if not 0 <= moves_left <= MOVEMENT:
        raise PositionError(f"moves left must be in 0..{MOVEMENT}, got {moves_left}")
    raw_players = players_text.split("~")
    if len(raw_players) != 2 * pitch.team_size:
        raise PositionError(
            f"{pitch.size} v {pitch.size} needs {2 * pitch.team_size} players, got "
            f"{len(raw_players)}"
        )
    players = []
    seen: dict[tuple[int, int], str] = {}
    for i, raw in enumerate(raw_players):
        label = pitch.player_label(i)
        fields = raw.split(",")
        if len(fields) != 3 or fields[2] not in STATUS_CHARS:
            raise PositionError(f"player {label} must be 'x,y,s' with s in r/u/d, got {raw!r}")
        x, y = _int(fields[0], f"{label} x"), _int(fields[1], f"{label} y")
        if not (0 <= x < pitch.width and 0 <= y < pitch.height):
            raise PositionError(f"player {label} off the pitch at ({x},{y})")
        if (x, y) in seen:
            raise PositionError(f"two players on ({x},{y}): {seen[(x, y)]} and {label}")
        seen[(x, y)] = label
        players.append((x, y, STATUS_CHARS.index(fields[2])))
    active = -1
    if active_label != "-":
        active = pitch.player_index(active_label)
        if (active < pitch.team_size) != (team == 0):
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
        if not (0 <= ball[0] < pitch.width and 0 <= ball[1] < pitch.height):
            raise PositionError(f"ball off the pitch at ({ball[0]},{ball[1]})")
    else:
        carrier = pitch.player_index(ball_text)
        if players[carrier][2] == DOWN:
            raise PositionError(f"ball carrier {ball_text} is down")
        if players[carrier][0] == (pitch.width - 1 if carrier < pitch.team_size else 0):
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


def render_pitch(pitch: Pitch, state: GridironState) -> str:
    """The pitch as text: H/A standing players (lower case when down), o the ball, * a
    carrier, | marks the endzone columns."""
    grid = [["." for _ in range(pitch.width)] for _ in range(pitch.height)]
    if state.ball[0] >= 0 and state.carrier < 0:
        grid[state.ball[1]][state.ball[0]] = "o"
    for i, (x, y, status) in enumerate(state.players):
        mark = "H" if i < pitch.team_size else "A"
        if status == DOWN:
            mark = mark.lower()
        if i == state.carrier:
            mark = "*" if i < pitch.team_size else "+"
        grid[y][x] = mark
    lines = ["|" + " ".join(row[1:-1]).join([row[0] + " ", " " + row[-1]]) + "|"
             for row in grid]  # fmt: skip
    home, away = state.score
    header = f"score {home}-{away}, turns left {state.turns_left}, team {state.team} to act"
    return "\n".join([header, *lines])


def size_of_position(text: str) -> dict[str, int]:
    """``{"size": n}`` when a position string's first field names a preset, else ``{}``
    (parsing reports what is wrong with it)."""
    first = text.strip().split("_", 1)[0]
    ok = first.isascii() and first.isdigit() and len(first) <= 2  # "²".isdigit() is true
    return {"size": int(first)} if ok and int(first) in PRESETS else {}


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
