"""Make the position sets with exact values in ``mcts_lab/positions/`` (see mcts_lab/strength.py).

    python scripts/make_positions.py [--game tic_tac_toe|connect_four|all] [--seed 1]
                                     [--count 100] [--out-dir mcts_lab/positions]

tic-tac-toe: every reachable position that is not over and where at least one move loses
value (a move's exact value below the best move's): 3,191 positions (431 classes under the
board's 8 symmetries). Every symmetric version is kept: the search expands moves in a listed
order and breaks ties by position, so it can play one version of a position right and its
mirror image wrong. Deterministic.

Connect Four: ``--count`` positions from "random-ish" games, seeded. Each game picks a length
of 15 to 37 stones (uniform) and plays it with a player who takes an immediate win, blocks an
immediate win of the opponent, never plays right under one, and otherwise picks uniformly at
random (pure random play mostly reaches positions where one side already threatens to win).
A position is kept when the game is not over, the player to move cannot win at once (trivial),
no earlier kept position has the same stones, the exact solver values every move within
``--budget`` seconds (10 by default; most take well under 1), and some move loses value.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.connect_four import ConnectFour, ConnectFourState  # noqa: E402
from games.tic_tac_toe import TicTacToe, TicTacToeState  # noqa: E402
from mcts_lab.exact import exact_values  # noqa: E402
from mcts_lab.strength import ExactPosition  # noqa: E402

# The 8 symmetries of the 3x3 board, as cell permutations (new cell i comes from cell p[i]).
_TTT_SYMMETRIES = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8),
    (6, 3, 0, 7, 4, 1, 8, 5, 2),
    (8, 7, 6, 5, 4, 3, 2, 1, 0),
    (2, 5, 8, 1, 4, 7, 0, 3, 6),
    (2, 1, 0, 5, 4, 3, 8, 7, 6),
    (6, 7, 8, 3, 4, 5, 0, 1, 2),
    (0, 3, 6, 1, 4, 7, 2, 5, 8),
    (8, 5, 2, 7, 4, 1, 6, 3, 0),
)
STONES = (15, 37)


def tic_tac_toe_set() -> dict[str, Any]:
    game = TicTacToe()
    seen: dict[str, TicTacToeState] = {}
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        if state.board in seen:
            continue
        seen[state.board] = state
        if not game.is_terminal(state):
            stack.extend(game.next_state(state, a) for a in game.legal_actions(state))
    positions: list[ExactPosition] = []
    classes: set[str] = set()
    for board in sorted(seen):
        state = seen[board]
        if game.is_terminal(state):
            continue
        values = exact_values(game, state, seconds=60)
        known = {a: v for a, v in values.items() if v is not None}
        assert len(known) == len(values), board
        if max(known.values()) == min(known.values()):
            continue
        positions.append(ExactPosition(board, known))
        classes.add(min("".join(board[i] for i in p) for p in _TTT_SYMMETRIES))
    print(
        f"tic_tac_toe: {len(seen) - sum(game.is_terminal(s) for s in seen.values())} positions "
        f"not over, {len(positions)} where a move loses value ({len(classes)} up to symmetry)",
        file=sys.stderr,
    )
    return {
        "game": "tic_tac_toe",
        "description": (
            "Every reachable tic-tac-toe position that is not over and where at least one move "
            f"loses value: {len(positions)} positions, every symmetric version of each of the "
            f"{len(classes)} classes under the board's 8 symmetries (a search may treat the "
            "versions differently)."
        ),
        "made_by": "python scripts/make_positions.py --game tic_tac_toe",
        "values": _VALUES_DOC,
        "positions": [p.to_dict() for p in positions],
    }


def _random_ish_move(game: ConnectFour, state: ConnectFourState, rng: random.Random) -> int:
    """An immediate win; else a block of the opponent's immediate win; else a random move
    that does not hand the opponent an immediate win (any move when every one does)."""
    legal = game.legal_actions(state)
    children = {a: game.next_state(state, a) for a in legal}
    for a, child in children.items():
        if child.result == 1:
            return a
    # the opponent's immediate wins: columns where their stone would win now
    passed = state._replace(me=state.me ^ state.mask)  # as if the player to move passed
    blocks = [a for a in legal if game.next_state(passed, a).result == 1]
    if blocks:
        return blocks[0]
    safe = [
        a
        for a, child in children.items()
        if not any(game.next_state(child, b).result == 1 for b in game.legal_actions(child))
    ]
    return rng.choice(safe or legal)


def connect_four_set(seed: int, count: int, budget: float) -> dict[str, Any]:
    game = ConnectFour()
    rng = random.Random(seed)
    positions: list[ExactPosition] = []
    seen: set[tuple[int, int]] = set()
    tried = over = trivial = repeated = timed_out = no_loss = 0
    solve_times: list[float] = []
    while len(positions) < count:
        tried += 1
        stones = rng.randint(*STONES)
        state = game.initial_state()
        for _ in range(stones):
            state = game.next_state(state, _random_ish_move(game, state, rng))
            if state.result:
                break
        if state.result:
            over += 1
            continue
        if any(game.next_state(state, a).result == 1 for a in game.legal_actions(state)):
            trivial += 1
            continue
        if (state.me, state.mask) in seen:
            repeated += 1
            continue
        seen.add((state.me, state.mask))
        start = time.perf_counter()
        values = exact_values(game, state, seconds=budget)
        solve_times.append(time.perf_counter() - start)
        if any(v is None for v in values.values()):
            timed_out += 1
            continue
        known = {a: v for a, v in values.items() if v is not None}
        if max(known.values()) == min(known.values()):
            no_loss += 1
            continue
        positions.append(ExactPosition(state.moves, known))
    solve_times.sort()
    print(
        f"connect_four: {tried} games tried: {over} over early, {trivial} with a win in one, "
        f"{repeated} repeated, {timed_out} not solved in {budget:g} s, {no_loss} where no move "
        f"loses value; kept {len(positions)}. Solve time per position: median "
        f"{solve_times[len(solve_times) // 2]:.2f} s, max {solve_times[-1]:.2f} s",
        file=sys.stderr,
    )
    return {
        "game": "connect_four",
        "description": (
            f"{count} Connect Four positions of {STONES[0]} to {STONES[1]} stones from "
            f"random-ish games (random.Random({seed})): each game picks its length uniformly "
            "and is played by a player who takes an immediate win, blocks the opponent's, "
            "never plays right under one and otherwise moves uniformly at random. Kept: not "
            "over, no win in one for the player to move, new stones, every move solved, and "
            "some move loses value."
        ),
        "made_by": f"python scripts/make_positions.py --game connect_four --seed {seed} "
        f"--count {count} --budget {budget:g}",
        "values": _VALUES_DOC,
        "positions": [p.to_dict() for p in positions],
    }


_VALUES_DOC = (
    "per position, every legal move's exact value for the player to move (1 win, 0 draw, "
    "-1 loss), keyed by the action index: the cell 0..8 (tic-tac-toe), the 0-based column "
    "0..6 (Connect Four)"
)


def _write(data: dict[str, Any], out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{data['game']}.json"
    lines = ",\n".join("    " + json.dumps(p) for p in data["positions"])
    head = {k: v for k, v in data.items() if k != "positions"}
    text = json.dumps(head, indent=2)[:-2] + ',\n  "positions": [\n' + lines + "\n  ]\n}\n"
    json.loads(text)  # what we write must read back
    path.write_text(text, encoding="utf-8")
    print(f"wrote {len(data['positions'])} positions to {path}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("tic_tac_toe", "connect_four", "all"), default="all")
    parser.add_argument("--seed", type=int, default=1, help="Connect Four's seed (default 1)")
    parser.add_argument("--count", type=int, default=100, help="Connect Four positions (100)")
    parser.add_argument(
        "--budget", type=float, default=10.0, help="seconds to solve one position (10)"
    )
    parser.add_argument("--out-dir", type=Path, default=ROOT / "mcts_lab" / "positions")
    args = parser.parse_args()
    if args.game in ("tic_tac_toe", "all"):
        _write(tic_tac_toe_set(), args.out_dir)
    if args.game in ("connect_four", "all"):
        _write(connect_four_set(args.seed, args.count, args.budget), args.out_dir)


if __name__ == "__main__":
    main()
