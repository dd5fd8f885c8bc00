"""Find tic-tac-toe traps for plain UCT: positions where a short search prefers a losing move.

    python scripts/find_trap.py [--low 100] [--high 800] [--seeds 10] [--top 10]

For every position of the packaged set (one per symmetry class, every move's exact value known,
mcts_lab/positions/tic_tac_toe.json), runs the default search (UCT, C = 1.4, random rollouts)
with each seed for ``--low`` iterations and counts the seeds whose favourite is a losing move
while a better one exists; then goes on to ``--high`` iterations and counts the seeds whose
favourite is a best move. Prints the positions that trap the most seeds. Lesson 5
(lessons/traps.toml) uses the top one.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources

from games import make_game
from mcts_core import Search, SearchConfig


def main(low: int, high: int, seeds: int, top: int) -> None:
    game = make_game("tic_tac_toe")
    text = resources.files("mcts_lab").joinpath("positions/tic_tac_toe.json").read_text()
    found = []
    for entry in json.loads(text)["positions"]:
        values = {int(k): float(v) for k, v in entry["values"].items()}
        best = max(values.values())
        if best <= -1 or min(values.values()) > -1:
            continue  # lost whatever O does, or no losing move to fall for
        state = game.parse_state(entry["position"])
        trapped = fixed = 0
        for seed in range(seeds):
            search = Search(game, state, SearchConfig(), seed=seed)
            search.run(iterations=low)
            trapped += values[search.best_action()] == -1
            search.run(iterations=high - low)
            fixed += values[search.best_action()] == best
        found.append((trapped, fixed, entry["position"], values))
    found.sort(key=lambda item: (-item[0], -item[1], item[2]))
    print(f"position   trapped at {low} (of {seeds} seeds)   best at {high}   exact values")
    for trapped, fixed, position, values in found[:top]:
        print(f"{position}  {trapped:>10}  {fixed:>22}   {values}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--low", type=int, default=100, help="iterations of the short search")
    parser.add_argument("--high", type=int, default=800, help="iterations of the long search")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    main(args.low, args.high, args.seeds, args.top)
