"""The OpenSpiel adapter (``games/openspiel_game.py``): cross-checks against our own rules, the
search on a chance game and a bigger board, the shared battery, the CLI and the app.

Skipped when ``pyspiel`` is not installed (the ``[openspiel]`` extra).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'")

from games import GAME_NAMES, game_spec, make_game
from games.openspiel_game import START, OpenSpielState
from games.registry import OPENSPIEL_EXAMPLES, game_choices
from mcts_core import ChanceNode, PositionError, Search, SearchConfig
from mcts_lab.cli import main
from mcts_lab.common import action_index, build_game
from tests.battery import CHECKS

PIG = "openspiel:pig(winscore=20)"
BREAKTHROUGH = "openspiel:breakthrough(rows=5,columns=5)"


# ------------------------------------------------------------ ours against OpenSpiel's rules


def _board(text: str) -> list[str]:
    """A board as rows of ``x``, ``o`` and ``.``, top row first, from either renderer."""
    return [line.replace(" ", "").lower() for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(("name", "games"), [("tic_tac_toe", 300), ("connect_four", 150)])
def test_ours_and_openspiels_agree_along_random_games(name: str, games: int) -> None:
    """Tic-tac-toe cells and Connect Four columns are numbered alike in both (OpenSpiel's
    action id = our cell 0..8 row-major from the top left / our 0-based column): at every
    position of many random games both list the same legal moves, the same player to move,
    the same board, the same end, and the same returns."""
    ours, theirs = make_game(name), make_game(f"openspiel:{name}")
    rng = random.Random(7)
    ends = set()
    for _ in range(games):
        mine, other = ours.initial_state(), theirs.initial_state()
        while True:
            assert _board(ours.render(mine)) == _board(theirs.render(other))
            assert ours.is_terminal(mine) == theirs.is_terminal(other)
            if ours.is_terminal(mine):
                assert ours.returns(mine) == theirs.returns(other)
                assert theirs.returns(other) == theirs.openspiel_returns(other)
                ends.add(ours.returns(mine))
                break
            assert ours.current_player(mine) == theirs.current_player(other)
            legal = list(ours.legal_actions(mine))
            assert legal == theirs.legal_actions(other) == other.pystate.legal_actions()
            action = legal[rng.randrange(len(legal))]
            mine, other = ours.next_state(mine, action), theirs.next_state(other, action)
    assert ends == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}  # wins for each side and draws seen


def test_our_nim_and_openspiels_agree_along_random_games() -> None:
    """OpenSpiel numbers Nim's moves ``(take - 1) * piles + pile``; ours are ``(heap, take)``
    pairs (OpenSpiel plays misère Nim unless told otherwise): mapped, both list the same moves,
    the same player, the same end and returns."""
    ours, theirs = make_game("nim"), make_game("openspiel:nim(pile_sizes=3;4;5,is_misere=false)")
    rng = random.Random(3)
    ends = set()
    for _ in range(200):
        mine, other = ours.initial_state(), theirs.initial_state()
        while not ours.is_terminal(mine):
            assert not theirs.is_terminal(other)
            assert ours.current_player(mine) == theirs.current_player(other)
            ids = {
                (count - 1) * 3 + heap: (heap, count) for heap, count in ours.legal_actions(mine)
            }
            assert sorted(ids) == theirs.legal_actions(other)
            action = rng.choice(sorted(ids))
            mine, other = ours.next_state(mine, ids[action]), theirs.next_state(other, action)
        assert theirs.is_terminal(other) and ours.returns(mine) == theirs.returns(other)
        ends.add(ours.returns(mine))
    assert ends == {(1.0, -1.0), (-1.0, 1.0)}


def test_positions_are_openspiel_histories() -> None:
    ours, theirs = make_game("connect_four"), make_game("openspiel:connect_four")
    state = theirs.parse_state("3,3,4,2")  # our "4453": 1-based columns there
    assert theirs.format_state(state) == "3,3,4,2" and state.pystate.history() == [3, 3, 4, 2]
    assert _board(theirs.render(state)) == _board(ours.render(ours.parse_state("4453")))
    assert theirs.parse_state(" 3, 3 ,4,2 ") == state and theirs.parse_state("") == (
        theirs.initial_state()
    )


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("openspiel:tic_tac_toe", "4,4", "action 4 is not legal at index 1"),
        ("openspiel:tic_tac_toe", "4,x", "'x' at index 1 is not an OpenSpiel action id"),
        ("openspiel:tic_tac_toe", "-1", "not an OpenSpiel action id"),
        ("openspiel:tic_tac_toe", "4,²", "not an OpenSpiel action id"),
        ("openspiel:tic_tac_toe", "0,3,1,4,2,5", "the game is over before action 5 at index 5"),
        (PIG, "0", "stops at a chance node"),
        (PIG, "0,6", "action 6 is not legal at index 1"),
    ],
)
def test_bad_positions_are_refused(name: str, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_game(name).parse_state(text)


def test_a_bad_position_is_a_position_error() -> None:
    with pytest.raises(PositionError, match="not an OpenSpiel action id"):
        make_game("openspiel:tic_tac_toe").parse_state("4,x")


def test_states_are_immutable_values() -> None:
    game = make_game("openspiel:tic_tac_toe")
    start = game.initial_state()
    child = game.next_state(start, 4)
    assert start.history == () and str(start.pystate).count(".") == 9  # left alone
    assert child == game.parse_state("4") and hash(child) == hash(game.parse_state("4"))
    assert child != start and isinstance(child, OpenSpielState)


# ------------------------------------------------------------------ chance


def test_pig_chance_is_explicit_with_exact_odds() -> None:
    game = make_game(PIG)
    start = game.initial_state()
    assert [game.action_label(start, a) for a in game.legal_actions(start)] == ["roll", "stop"]
    outcomes = game.chance_outcomes(start, 0)
    assert [o for o, _ in outcomes] == [(face,) for face in range(6)]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    assert game.outcome_label(start, 0, (3,)) == "Roll 4"
    assert game.chance_outcomes(start, 1) == [(None, 1.0)]  # stop: deterministic
    assert game.format_state(game.next_state(start, 0, (3,))) == "0,3"
    with pytest.raises(ValueError, match="give its outcome"):
        game.next_state(start, 0)


@pytest.mark.slow
def test_a_game_that_starts_with_chance_starts_with_one_move() -> None:
    """maedn opens with a die roll: our start has one legal action whose outcomes are the die."""
    game = make_game("openspiel:maedn")
    start = game.initial_state()
    assert game.legal_actions(start) == [START] and game.current_player(start) == 0
    outcomes = game.chance_outcomes(start, START)
    assert len(outcomes) == 6 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    after = game.next_state(start, START, outcomes[2][0])
    assert game.format_state(after) == "2" and game.parse_state("2") == after
    for check in CHECKS:
        check(game, range(3))


def test_the_search_runs_on_pig_with_chance_nodes() -> None:
    game = make_game(PIG)
    search = Search(game, game.initial_state(), SearchConfig(), seed=3)
    search.run(iterations=400)
    roll = next(c for c in search.root.children if isinstance(c, ChanceNode))
    assert roll.action == 0 and roll.num_outcomes == 6
    assert {child.outcome for child in roll.children} == {(face,) for face in range(6)}
    shares = [child.visits / roll.visits for child in roll.children]
    assert all(0.05 < share < 0.35 for share in shares), shares  # drawn with their odds
    assert search.best_child().label in ("roll", "stop")


def test_the_search_runs_on_breakthrough_5x5() -> None:
    game = make_game(BREAKTHROUGH)
    state = game.initial_state()
    search = Search(game, state, SearchConfig(), seed=1)
    search.run(iterations=600)
    best = search.best_child()
    assert best.action in game.legal_actions(state) and search.node_count > 500
    assert action_index(game, state, best.action) == best.action  # the OpenSpiel action id
    # play it out, the search against random: the game ends
    rng = random.Random(0)
    while not game.is_terminal(state):
        if game.current_player(state) == 0:
            search = Search(game, state, SearchConfig(), seed=2)
            search.run(iterations=60)
            move = search.best_child().action
        else:
            legal = game.legal_actions(state)
            move = legal[rng.randrange(len(legal))]
        state = game.next_state(state, move)
    assert game.returns(state) in ((1.0, -1.0), (-1.0, 1.0))


# ------------------------------------------------------------------ the shared battery


#: Every check applies: the adapter has states that round-trip through position strings, exact
#: chance, terminal returns, a heuristic (zero: OpenSpiel has none, within [-1, 1]) and a fast
#: random playout that draws like the generic one.
@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
@pytest.mark.parametrize("name", OPENSPIEL_EXAMPLES)
def test_openspiel_games_pass_the_battery(name: str, check: Callable[[Any, range], None]) -> None:
    check(make_game(name), range(12))


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("openspiel:kuhn_poker", "hides information"),
        ("openspiel:goofspiel", "move simultaneously"),
        ("openspiel:pig(players=3)", "it has 3 players, not 2"),
        ("openspiel:nonsense", "OpenSpiel has no game 'nonsense'"),
        ("openspiel:pig(foo=3)", "Unknown parameter 'foo'"),
        ("openspiel:pig(winscore=x)", "Wrong type for parameter winscore"),
        ("openspiel:pig(winscore=20", "Missing closing bracket"),
        ("openspiel:", "needs a game string"),
    ],
)
def test_unsearchable_games_are_refused_with_a_reason(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_game(name)


# ------------------------------------------------------------------ the CLI


def test_cli_searches_an_openspiel_game(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["search", "--game", BREAKTHROUGH, "--iterations", "200", "--seed", "1", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == BREAKTHROUGH and data["position"] == ""
    legal = make_game(BREAKTHROUGH).legal_actions(make_game(BREAKTHROUGH).initial_state())
    assert data["best_action_index"] in legal
    assert sorted(c["action_index"] for c in data["children"]) == sorted(legal)
    assert main(["search", "--game", PIG, "--position", "0,3", "--iterations", "100"]) == 0
    assert "Scores" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("chess", "invalid choice: 'chess' (choose from tic_tac_toe, connect_four, gridiron"),
        (
            "chess",
            "or openspiel:NAME with an OpenSpiel game string, e.g. openspiel:pig(winscore=20)",
        ),
        ("openspiel:nonsense", "OpenSpiel has no game 'nonsense'"),
        ("openspiel:kuhn_poker", "hides information"),
        ("openspiel:pig(foo=3)", "Unknown parameter 'foo'"),
    ],
)
def test_cli_refuses_bad_games_in_one_line(game: str, message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcts_lab.cli", "search", "--game", game],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("mcts-lab: error: argument --game: ") and message in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr  # OpenSpiel's own printout is kept away
    assert "..." not in done.stderr  # nothing of the message was cut


def test_build_game_and_registry_read_openspiel_names() -> None:
    game = build_game(PIG)
    assert game.name == PIG and game_spec(PIG).indexed_by_action
    assert game_spec(PIG).label == "OpenSpiel: pig(winscore=20)"
    assert game_choices() == GAME_NAMES + OPENSPIEL_EXAMPLES


# ------------------------------------------------------------------ the app


@pytest.mark.slow
def test_app_plays_an_openspiel_game_from_a_link() -> None:
    pytest.importorskip("streamlit")
    from tests.app_helpers import fresh, tab, texts

    at = fresh(game=PIG, seed="1", iterations="50")
    assert at.session_state["game"] == PIG
    assert "OpenSpiel: pig(winscore=20)" in at.selectbox(key="game").options  # labels
    at.button(key="step_n").click().run()
    assert not at.exception
    tab(at, "Board")
    board = [c.value for c in at.code]
    assert any("Scores: 0 0" in text for text in board)  # OpenSpiel's text of the board
    assert "roll" in texts(at) and "Q" in texts(at)  # the generic view's table of moves
    at.selectbox(key="move_pick").set_value(1).run()  # stop
    at.button(key="play_move").click().run()
    assert not at.exception and at.session_state["position"] == "1"
