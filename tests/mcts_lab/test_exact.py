"""The exact answer (mcts_lab/exact.py), the position sets and the value-preserving rate."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

from games.connect_four import ConnectFour
from games.gridiron import Gridiron
from games.tic_tac_toe import TicTacToe
from mcts_lab.exact import best_value, exact_values, regret
from mcts_lab.strength import (
    POSITION_SETS,
    ExactPosition,
    load_positions,
    value_preserving_rate,
)
from tests.conftest import CliRunner
from tests.dice_game import LoopGame

ROOT = Path(__file__).resolve().parents[2]
TTT = TicTacToe()
C4 = ConnectFour()


# ---------------------------------------------------------------- a plain reference


def reference_values(game: Any, state: Any, key: Any = None) -> dict[Any, float]:
    """Each action's value for the player to move at ``state``: plain expectiminimax, no
    pruning, memoised on ``key(state)`` (default the state)."""
    key = key or (lambda s: s)
    memo: dict[Any, float] = {}

    def value(s: Any) -> float:  # player 0's view
        if game.is_terminal(s):
            return float(game.returns(s)[0])
        k = key(s)
        if k not in memo:
            values = [action(s, a) for a in game.legal_actions(s)]
            memo[k] = max(values) if game.current_player(s) == 0 else min(values)
        return memo[k]

    def action(s: Any, a: Any) -> float:
        return sum(p * value(game.next_state(s, a, o)) for o, p in game.chance_outcomes(s, a))

    sign = 1.0 if game.current_player(state) == 0 else -1.0
    return {a: sign * action(state, a) for a in game.legal_actions(state)}


def _c4_key(s: Any) -> tuple[int, int]:
    return (s.me, s.mask)


def _approx(values: dict[Any, float | None]) -> dict[Any, float | None]:
    return {a: None if v is None else pytest.approx(v, abs=1e-9) for a, v in values.items()}


# ---------------------------------------------------------------- tic-tac-toe


def test_tic_tac_toe_empty_board_every_first_move_draws_instantly() -> None:
    # within the default budget (2 s of wall clock): a move not solved in time would be None
    values = exact_values(TTT, TTT.initial_state())
    assert values == {cell: 0.0 for cell in range(9)}


def test_tic_tac_toe_win_in_one() -> None:
    state = TTT.parse_state("XX.OO....")  # X to move: c1 wins; a1..c3 let O win at c2
    values = exact_values(TTT, state)
    assert values == {2: 1.0, 5: 0.0, 6: -1.0, 7: -1.0, 8: -1.0}


def test_tic_tac_toe_trap_position_from_the_movers_view() -> None:
    state = TTT.parse_state("X..X.OO..")
    assert TTT.current_player(state) == 0  # X to move (two stones each)
    assert exact_values(TTT, state) == {1: -1.0, 2: 0.0, 4: -1.0, 7: -1.0, 8: 0.0}
    # O's view, one move later: after X blocks at c1, O's values
    after = TTT.next_state(state, 2)
    assert TTT.current_player(after) == 1
    values = exact_values(TTT, after)
    assert max(values.values()) == 0.0 and values == reference_values(TTT, after)


@pytest.mark.slow
def test_tic_tac_toe_every_reachable_position_equals_plain_minimax() -> None:
    seen: dict[str, Any] = {}
    stack = [TTT.initial_state()]
    while stack:
        state = stack.pop()
        if state.board not in seen:
            seen[state.board] = state
            if not TTT.is_terminal(state):
                stack.extend(TTT.next_state(state, a) for a in TTT.legal_actions(state))
    assert len(seen) == 5478
    for state in seen.values():
        if not TTT.is_terminal(state):
            assert exact_values(TTT, state) == reference_values(TTT, state), state.board


def test_a_finished_position_has_no_moves() -> None:
    assert exact_values(TTT, TTT.parse_state("XXXOO....")) == {}


# ---------------------------------------------------------------- Connect Four


@pytest.mark.parametrize(
    "moves",
    [
        "6163535574273443177236667265237",  # draws and wins
        "7213662216254437572123436535755",
        "234236174537655433752162112237",
        "7311515721137155233246673757",
        "11324714656237122145163375544",
        "14172416522223546344253574766731516357163",  # one cell left
    ],
)
def test_connect_four_late_positions_equal_plain_minimax(moves: str) -> None:
    C4._exact_table = {}  # a cold table: the answer must not depend on earlier calls
    state = C4.parse_state(moves)
    assert exact_values(C4, state) == reference_values(C4, state, _c4_key)


@pytest.mark.slow
def test_connect_four_random_late_positions_equal_plain_minimax() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 8:
        state = C4.initial_state()
        for _ in range(rng.randint(27, 33)):
            state = C4.next_state(state, rng.choice(C4.legal_actions(state)))
            if C4.is_terminal(state):
                break
        if C4.is_terminal(state):
            continue
        assert exact_values(C4, state) == reference_values(C4, state, _c4_key), state.moves
        checked += 1


def test_connect_four_fast_solver_agrees_with_the_generic_search() -> None:
    class Plain(ConnectFour):
        exact_value = None  # no fast path: the generic alpha-beta runs

    state = C4.parse_state("7311515721137155233246673757")
    assert exact_values(Plain(), state, seconds=30) == exact_values(C4, state)


def test_connect_four_fast_path_reports_the_movers_value() -> None:
    state = C4.parse_state("112233")  # X to move wins at col 4
    assert C4.exact_value(state, time.monotonic() + 1) == 1.0
    values = exact_values(C4, state, seconds=0.2)
    assert values[3] == 1.0
    over = C4.parse_state("1122334")  # X has won; O would move
    assert C4.exact_value(over, time.monotonic() + 1) == -1.0


def test_connect_four_twenty_stones_within_the_default_budget() -> None:
    state = C4.parse_state("57771314744647214415")  # from the packaged set
    values = exact_values(C4, state)  # every move solved within the default budget (else None)
    assert values == {0: -1.0, 1: 1.0, 2: 1.0, 4: -1.0, 5: 1.0, 6: -1.0}


# ---------------------------------------------------------------- time budget


@pytest.mark.parametrize(
    ("game", "position"),
    [(C4, ""), (C4, "44"), (Gridiron(1), None), (Gridiron(3), None)],
)
def test_the_budget_gives_none_quickly(game: Any, position: str | None) -> None:
    if isinstance(game, ConnectFour):
        game._exact_table = {}
    state = game.initial_state() if position is None else game.parse_state(position)
    start = time.perf_counter()
    values = exact_values(game, state, seconds=0.3)
    elapsed = time.perf_counter() - start
    # it stops at its deadline instead of solving (minutes): the slack over 0.3 s is for a
    # loaded machine (0.62 s seen with two test workers and eight agents on two cores)
    assert elapsed < 2.0, elapsed
    assert values and all(v is None for v in values.values())
    assert list(values) == list(game.legal_actions(state))


def test_a_move_ending_the_game_is_valued_even_after_the_deadline() -> None:
    state = C4.parse_state("112233")
    values = exact_values(C4, state, seconds=0)
    assert values[3] == 1.0


def test_bad_budget() -> None:
    with pytest.raises(ValueError, match="seconds"):
        exact_values(TTT, TTT.initial_state(), seconds=-1)


def test_a_cycle_gives_none_instead_of_looping() -> None:
    game = LoopGame(2)
    values = exact_values(game, game.initial_state(), seconds=1)
    assert values == {"advance": None, "wait": None}


# ---------------------------------------------------------------- chance: expectimax


def test_gridiron_last_turn_by_hand() -> None:
    game = Gridiron(1)
    # home's last turn of the game, 0-0: H1 carries the ball on (6,1), one step from the
    # endzone (column 7), with A1 next to him on (5,1). Any step needs a dodge.
    state = game.parse_state("1_1-0_0_0-0_0_H1-3_H1_6,1,r~5,1,r")
    values = {game.action_label(state, a): v for a, v in exact_values(game, state).items()}
    third = 1 / 3
    # straight into the endzone: a 3+ dodge (no tackle zone there) scores: 4/6; else 0-0
    for y in (0, 1, 2):
        assert values[f"H1 dodge to (7,{y})"] == pytest.approx(2 * third)
    # (6,0) is in A1's tackle zone: a 4+ dodge (1/2), then a 3+ dodge into the endzone
    assert values["H1 dodge to (6,0)"] == pytest.approx(0.5 * 2 * third)
    # (5,0): 4+ (1/2), then (6,0) at 4+ (1/2), then the endzone at 3+ (2/3)
    assert values["H1 dodge to (5,0)"] == pytest.approx(0.25 * 2 * third)
    # a block ends the activation: no score this turn
    assert values["H1 block A1"] == 0.0
    assert values["end turn"] == 0.0
    assert regret(values, "H1 block A1") == pytest.approx(2 * third)
    # one level up, before the activation
    before = game.parse_state("1_1-0_0_0-0_0_--0_H1_6,1,r~5,1,r")
    assert list(exact_values(game, before).values()) == [pytest.approx(2 * third), 0.0]


@pytest.mark.slow
def test_gridiron_both_last_turns_equal_plain_expectimax() -> None:
    game = Gridiron(1)
    # away's last turn, then home's: the ball loose between the two players
    state = game.parse_state("1_1-1_1_0-0_0_--0_4,2_3,1,r~5,1,r")
    assert exact_values(game, state, seconds=20) == _approx(reference_values(game, state))


@pytest.mark.parametrize(
    "position",
    [
        "1_1-1_1_0-0_0_--0_A1_3,1,r~4,1,r",  # away carries; home's last turn can block
        "1_1-0_0_0-1_0_--0_H1_4,1,r~5,2,r",  # 0-1: the carrier must get past A1 to draw
    ],
)
def test_gridiron_expectimax_with_pruning_equals_plain_expectimax(position: str) -> None:
    game = Gridiron(1)
    state = game.parse_state(position)
    assert exact_values(game, state, seconds=20) == _approx(reference_values(game, state))


# ---------------------------------------------------------------- regret


def test_regret() -> None:
    values: dict[Any, float | None] = {1: -1.0, 2: 0.0, 4: -1.0, 7: -1.0, 8: 0.0}
    assert regret(values, 2) == 0.0
    assert regret(values, 7) == 1.0
    assert regret(values, 5) is None  # not a move
    assert regret({0: 1.0, 1: None}, 0) == 0.0  # a win is the most there is
    assert regret({0: 0.0, 1: None}, 0) is None  # the unknown move may be better
    assert regret({0: 1.0, 1: None}, 1) is None
    assert regret({0: 0.5, 1: 0.25}, 1) == 0.25
    assert best_value({0: 0.0, 1: None}) is None
    assert best_value({}) is None


# ---------------------------------------------------------------- the CLI


def test_cli_exact_json(cli: CliRunner) -> None:
    args = ("search", "--game", "tic_tac_toe", "--position", "X..X.OO..", "--iterations", "200")
    status, out, err = cli(*args, "--seed", "2", "--json", "--exact")
    assert status == 0 and err == ""
    data = json.loads(out)
    exact = {c["action_index"]: c["exact"] for c in data["children"]}
    assert exact == {1: -1.0, 2: 0.0, 4: -1.0, 7: -1.0, 8: 0.0}
    expected = 0.0 if exact[data["best_action_index"]] == 0.0 else 1.0
    assert data["regret"] == expected
    # without --exact nothing changes
    status, out, _ = cli(*args, "--seed", "2", "--json")
    plain = json.loads(out)
    assert "regret" not in plain and all("exact" not in c for c in plain["children"])
    assert {k: v for k, v in data.items() if k not in ("regret", "seconds",
            "iterations_per_second", "children")} == {
        k: v for k, v in plain.items() if k not in ("seconds", "iterations_per_second", "children")
    }  # fmt: skip


def test_cli_exact_unknown_is_null(cli: CliRunner) -> None:
    status, out, _ = cli(
        "search", "--game", "connect_four", "--iterations", "50", "--json",
        "--exact", "--exact-seconds", "0.2",
    )  # fmt: skip
    assert status == 0
    data = json.loads(out)
    assert data["regret"] is None
    assert data["children"] and all(c["exact"] is None for c in data["children"])


def test_cli_exact_text(cli: CliRunner) -> None:
    status, out, _ = cli(
        "search", "--game", "tic_tac_toe", "--position", "X..X.OO..",
        "--iterations", "200", "--exact",
    )  # fmt: skip
    assert status == 0
    assert "regret" in out
    header = next(line for line in out.splitlines() if line.startswith("move"))
    assert "exact" in header
    row = next(line for line in out.splitlines() if line.startswith("b2 "))
    assert "-1.000" in row


def test_cli_exact_with_a_positions_file(cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "positions.txt"
    path.write_text("X..X.OO..\nXXXOO....\n")
    status, out, _ = cli(
        "search", "--game", "tic_tac_toe", "--positions-file", str(path),
        "--iterations", "50", "--exact",
    )  # fmt: skip
    assert status == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["regret"] is not None and all(c["exact"] is not None for c in first["children"])
    assert second["regret"] is None and second["children"] == []


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "x"])
def test_cli_bad_exact_seconds(cli: CliRunner, seconds: str) -> None:
    status, out, err = cli("search", "--game", "tic_tac_toe", "--exact", "--exact-seconds", seconds)
    assert status == 2 and out == ""
    assert err.startswith("mcts-lab: error:") and err.count("\n") == 1


# ---------------------------------------------------------------- position sets


def test_position_sets_are_packaged() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "positions/*.json" in config["tool"]["setuptools"]["package-data"]["mcts_lab"]
    for name in POSITION_SETS:
        assert (ROOT / "mcts_lab" / "positions" / f"{name}.json").is_file()


def test_tic_tac_toe_set() -> None:
    positions = load_positions("tic_tac_toe")
    # every position with a losing move, every symmetric version (431 classes)
    assert len(positions) == 3191
    assert len({p.position for p in positions}) == 3191
    for p in positions:
        state = TTT.parse_state(p.position)
        assert not TTT.is_terminal(state)
        assert set(p.values) == set(TTT.legal_actions(state))
        assert min(p.values.values()) < p.best
    for p in positions[::150]:
        assert exact_values(TTT, TTT.parse_state(p.position)) == p.values


def test_connect_four_set() -> None:
    positions = load_positions("connect_four")
    assert len(positions) == 100
    for p in positions:
        state = C4.parse_state(p.position)
        assert not C4.is_terminal(state) and 15 <= len(p.position) <= 37
        assert set(p.values) == set(C4.legal_actions(state))
        assert min(p.values.values()) < p.best
    for p in positions[::25]:
        assert exact_values(C4, C4.parse_state(p.position), seconds=10) == p.values


def test_unknown_position_set() -> None:
    with pytest.raises(ValueError, match="no position set"):
        load_positions("gridiron")


# ---------------------------------------------------------------- value-preserving rate


def test_value_preserving_rate_counts_searches() -> None:
    positions = [
        ExactPosition("XX.OO....", {2: 1.0, 5: -1.0, 6: -1.0, 7: -1.0, 8: -1.0}),
        {"position": "X..X.OO..", "values": {"1": -1, "2": 0, "4": -1, "7": -1, "8": 0}},
    ]
    result = value_preserving_rate("tic_tac_toe", positions, {"solver": True}, 300, [0, 1, 2])
    assert result.searches == 6 and result.positions == 2
    assert result.preserved + len(result.misses) == 6
    assert 0.0 <= result.rate <= 1.0
    assert result.to_dict()["rate"] == result.rate
    assert result.config["solver"] is True
    # one iteration is no better than the first listed move: a1 loses at X..X.OO..
    weak = value_preserving_rate("tic_tac_toe", positions[1:], {}, 1, [0])
    assert weak.rate == 0.0 and weak.misses[0].chosen == 1 and weak.misses[0].best == 0.0


def test_value_preserving_rate_bad_input() -> None:
    with pytest.raises(ValueError):
        value_preserving_rate("tic_tac_toe", [], {"c": -1.0}, 10, [0])
    with pytest.raises(ValueError, match="seed"):
        value_preserving_rate("tic_tac_toe", [], {}, 10, [])


def test_measure_strength_script() -> None:
    command = [
        sys.executable, str(ROOT / "scripts" / "measure_strength.py"), "--game", "tic_tac_toe",
        "--iterations", "50", "--preset", "strong", "--set", "c=0.8", "--seeds", "1",
        "--limit", "10", "--json",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    data = json.loads(done.stdout)
    assert data["searches"] == 10 and data["config"]["c"] == 0.8
    assert data["config"]["solver"] is True  # from the preset
    assert 0.0 <= data["rate"] <= 1.0
