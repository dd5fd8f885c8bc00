"""Gridiron rules from written-out positions, with exact probabilities (docs/gridiron.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.gridiron import DOWN, READY, USED, Gridiron, GridironWeights

ONE = Gridiron(1)
THREE = Gridiron(3)


def outcomes(game: Gridiron, text: str, action: tuple) -> dict:
    state = game.parse_state(text)
    listed = game.chance_outcomes(state, action)
    assert abs(sum(p for _, p in listed) - 1) < 1e-12
    return dict(listed)


def test_start_and_kick_off() -> None:
    state = ONE.initial_state()
    assert ONE.format_state(state) == "1_8-8_1_0-0_1_--0_-_2,1,r~5,1,r"
    assert ONE.current_player(state) == 1 and ONE.legal_actions(state) == [("kick",)]
    landing = ONE.chance_outcomes(state, ("kick",))
    # the home half without its endzone: columns 1-3, rows 0-3, minus H1's square (2,1)
    assert len(landing) == 11 and all(p == pytest.approx(1 / 11) for _, p in landing)
    after = ONE.next_state(state, ("kick",), (1, 0))
    assert after.team == 0 and after.ball == (1, 0) and after.carrier == -1


def test_dodge_out_of_two_tackle_zones() -> None:
    # H1 on (5,2) between A1 (6,1) and A2 (6,3); stepping to (6,2) lands in both tackle zones:
    # 3+ plus 2 = 5+, so 2/6 succeed.
    text = "3_8-8_0_0-0_0_H1-3_9,4_5,2,r~0,0,r~0,4,r~6,1,r~6,3,r~11,2,r"
    odds = outcomes(THREE, text, ("move", 6, 2))
    assert odds == {(1, None, None): pytest.approx(2 / 6), (0, None, None): pytest.approx(4 / 6)}
    state = THREE.parse_state(text)
    assert THREE.action_label(state, ("move", 6, 2)) == "H1 dodge to (6,2)"
    assert THREE.outcome_label(state, ("move", 6, 2), (1, None, None)) == "dodge 5+ ok"
    # a dodge to a square outside every tackle zone: 3+, 4/6
    assert outcomes(THREE, text, ("move", 4, 2))[(1, None, None)] == pytest.approx(4 / 6)


def test_failed_dodge_is_a_turnover() -> None:
    text = "1_8-8_0_0-0_0_H1-3_0,0_3,1,r~4,1,r"
    state = ONE.parse_state(text)
    after = ONE.next_state(state, ("move", 2, 1), (0, None, None))
    assert after.players[0] == (2, 1, DOWN)
    assert after.team == 1 and after.turns_left == (7, 8) and after.active == -1
    assert after.players[1][2] == READY  # the away player is ready for its turn


def test_pickup_odds_with_a_tackle_zone_and_the_scatter() -> None:
    # H1 (1,1) moves onto the ball at (2,2), next to A1 (3,2): pickup 4+ (3/6); a failure
    # scatters the ball in one of 8 directions (3/6 x 1/8 each) and ends the turn.
    text = "1_8-8_0_0-0_0_H1-3_2,2_1,1,r~3,2,r"
    odds = outcomes(ONE, text, ("move", 2, 2))
    assert odds[(None, 1, None)] == pytest.approx(Fraction(3, 6))
    assert [odds[(None, 0, d)] for d in range(8)] == [pytest.approx(3 / 48)] * 8
    state = ONE.parse_state(text)
    ok = ONE.next_state(state, ("move", 2, 2), (None, 1, None))
    assert ok.carrier == 0 and ok.ball == (2, 2) and ok.moves_left == 2
    dropped = ONE.next_state(state, ("move", 2, 2), (None, 0, 1))  # direction 1: (0,-1)
    assert dropped.ball == (2, 1) and dropped.carrier == -1 and dropped.team == 1


def test_block_knocks_the_carrier_down_and_scatters_the_ball() -> None:
    text = "1_8-8_0_0-0_0_H1-3_A1_3,1,r~4,1,r"
    odds = outcomes(ONE, text, ("block", 1))
    assert odds[(0, None)] == pytest.approx(1 / 6)  # attacker down
    assert odds[(2, None)] == pytest.approx(2 / 6)  # push
    assert [odds[(1, d)] for d in range(8)] == [pytest.approx(1 / 48)] * 8  # both down
    assert [odds[(3, d)] for d in range(8)] == [pytest.approx(2 / 48)] * 8  # defender down
    state = ONE.parse_state(text)
    after = ONE.next_state(state, ("block", 1), (3, 4))  # defender down, ball to the right
    assert after.players[1] == (4, 1, DOWN) and after.players[0] == (3, 1, USED)
    assert after.ball == (5, 1) and after.carrier == -1 and after.team == 0
    assert ONE.outcome_label(state, ("block", 1), (3, 4)) == (
        "block: defender down, ball scatters to (5,1)"
    )
    pushed = ONE.next_state(state, ("block", 1), (2, None))
    assert pushed.players[1] == (5, 1, READY) and pushed.ball == (5, 1) and pushed.carrier == 1
    fell = ONE.next_state(state, ("block", 1), (0, None))
    assert fell.players[0][2] == DOWN and fell.team == 1  # attacker down: turnover


def test_touchdown_scores_and_restarts() -> None:
    text = "1_8-8_0_0-0_0_H1-3_H1_6,1,r~2,2,r"
    state = ONE.parse_state(text)
    assert ONE.chance_outcomes(state, ("move", 7, 1)) == [(None, 1.0)]
    after = ONE.next_state(state, ("move", 7, 1))
    assert after.score == (1, 0) and after.turns_left == (7, 8)
    assert after.kickoff == 1 and after.team == 0  # the scorer kicks off to the other team
    assert after.players == ((2, 1, READY), (5, 1, READY)) and after.carrier == -1
    # scoring beats standing one step from the endzone (though the opponent gets the ball)
    assert ONE.heuristic(after)[0] > ONE.heuristic(state)[0]


def test_down_players_stand_up_next_turn_and_cannot_act() -> None:
    text = "1_8-8_1_0-0_0_--0_0,0_2,1,d~5,1,u"
    after = ONE.next_state(ONE.parse_state(text), ("end_turn",))
    assert after.team == 0 and after.players[0] == (2, 1, USED)
    assert ONE.legal_actions(after) == [("end_turn",)]


def test_half_time_and_the_last_turn() -> None:
    half = ONE.next_state(ONE.parse_state("1_4-5_1_0-0_0_--0_0,0_2,2,r~6,2,r"), ("end_turn",))
    assert half.turns_left == (4, 4) and half.kickoff == 1 and half.team == 0
    assert half.players == ((2, 1, READY), (5, 1, READY))
    end = ONE.next_state(ONE.parse_state("1_0-1_1_1-0_0_--0_3,0_2,1,r~5,1,r"), ("end_turn",))
    assert ONE.is_terminal(end) and ONE.returns(end) == (1.0, -1.0)
    assert ONE.legal_actions(end) == []


def test_action_order_runs_left_to_right() -> None:
    state = ONE.parse_state("1_8-8_0_0-0_0_H1-3_0,3_2,1,r~6,1,r")
    moves = [a for a in ONE.legal_actions(state) if a[0] == "move"]
    assert moves == sorted(moves)  # x first: the tutorial's left-to-right expansion
    assert ONE.legal_actions(state)[-2:] == [("end_activation",), ("end_turn",)]


def test_heuristic_is_zero_sum_and_weighted() -> None:
    state = ONE.parse_state("1_8-8_0_0-0_0_--0_H1_5,1,r~1,1,r")
    h = ONE.heuristic(state)
    assert h[0] == -h[1] and 0 < h[0] < 1
    greedy = Gridiron(1, weights=GridironWeights(ball=0.0, distance=0.0, down=0.0))
    assert greedy.heuristic(state) == (0.0, -0.0)


def test_three_a_side_plays_eight_turns_a_half() -> None:
    assert THREE.initial_state().turns_left == (16, 16)
    last = THREE.parse_state("3_8-9_1_0-0_0_--0_0,0_4,1,r~5,2,r~4,3,r~7,1,r~6,2,r~7,3,r")
    assert THREE.next_state(last, ("end_turn",)).turns_left == (8, 8)  # half-time


@pytest.mark.parametrize(
    ("players", "squares"),
    [
        ("2,2,r~0,0,r~0,4,r~1,0,r~1,4,r~0,2,r", 9),  # an open pitch: 9 columns to cross
        ("5,2,r~0,0,r~0,4,r~6,1,r~1,4,r~0,2,r", 6 + 2),  # one dodge out of A1's zone
        ("4,2,r~0,0,r~0,4,r~7,1,r~7,3,r~0,2,r", 7 + 3 * 2),  # a wall: three dodges
        ("4,2,r~0,0,r~0,4,r~7,1,d~7,3,r~0,2,r", 7),  # A1 down: a free way over the top
        ("0,0,r~1,0,r~1,1,r~0,1,r~5,4,r~6,4,r", 2 * 12),  # boxed in by team-mates
    ],
)
def test_way_to_endzone_counts_each_dodge_as_two_squares(players: str, squares: int) -> None:
    state = THREE.parse_state(f"3_16-16_0_0-0_0_--0_H1_{players}")
    assert THREE.way_to_endzone(state, 0) == squares


def test_heuristic_values_a_clear_way_and_the_time_to_use_it() -> None:
    def h(turns: str, players: str) -> float:
        return THREE.heuristic(THREE.parse_state(f"3_{turns}_0_0-0_0_--0_H1_{players}"))[0]

    wall = "4,2,r~0,0,r~0,4,r~7,1,r~7,3,r~0,2,r"
    gap = "4,2,r~0,0,r~0,4,r~7,1,d~7,3,r~0,2,r"
    assert h("16-16", gap) > h("16-16", wall)  # knocking a defender down opens a way
    # the same carrier with 1 turn left before half-time cannot score: worth less than with 5,
    # in either half
    assert h("9-9", wall) < h("13-13", wall)
    assert h("1-1", wall) < h("5-5", wall)
    assert h("9-9", wall) == pytest.approx(h("1-1", wall))


def test_every_step_towards_a_loose_ball_counts() -> None:
    values = [
        THREE.heuristic(
            THREE.parse_state(f"3_16-16_0_0-0_0_--0_6,2_{x},2,r~0,0,r~0,4,r~10,0,r~10,4,r~11,2,r")
        )[0]
        for x in (1, 2, 3, 4, 5)
    ]
    assert values == sorted(values) and len(set(values)) == 5
    assert values[0] < 0 < values[-1]  # from away's ball to home's


def test_picking_up_the_ball_pays_even_behind_a_wall() -> None:
    wall = "5,2,r~4,3,r~7,1,r~6,2,r~7,3,r"  # H2, H3 and the away line, far from the ball
    loose = THREE.parse_state(f"3_15-15_0_0-0_0_H1-3_1,1_2,0,r~{wall}")
    held = THREE.next_state(loose, ("move", 1, 1), (None, 1, None))
    assert held.carrier == 0
    assert THREE.heuristic(held)[0] > THREE.heuristic(loose)[0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1_8-8_0", "8 fields"),
        ("4_8-8_0_0-0_0_--0_0,0_2,1,r~5,1,r", "unknown size 4"),
        ("1_8-8_0_0-0_0_--0_0,0_9,1,r~5,1,r", r"player H1 off the pitch at \(9,1\)"),
        ("1_8-8_0_0-0_0_--0_0,0_2,1,r~2,1,r", r"two players on \(2,1\)"),
        ("1_8-8_0_0-0_0_--0_A1_2,1,r~5,1,d", "ball carrier A1 is down"),
        ("1_8-8_2_0-0_0_--0_0,0_2,1,r~5,1,r", "team to move"),
        ("1_8-8_0_0-0_0_A1-3_0,0_2,1,r~5,1,r", "not on the team to move"),
        ("1_8-8_0_0-0_0_--0_0,0_2,1,x~5,1,r", "s in r/u/d"),
        ("1_9-8_0_0-0_0_--0_0,0_2,1,r~5,1,r", "turns left"),
        ("1_8-8_0_0-0_0_--0_-_2,1,r~5,1,r", "no kick-off is due"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ONE.parse_state(text)


def test_size_presets() -> None:
    assert (THREE.width, THREE.height, THREE.team_size) == (12, 5, 3)
    five = Gridiron(5)
    assert (five.width, five.height, five.team_size) == (16, 9, 5)
    with pytest.raises(ValueError, match="unknown size 2"):
        Gridiron(2)
    labels = [p[0] for p in five.players(five.initial_state())]
    assert labels == ["H1", "H2", "H3", "H4", "H5", "A1", "A2", "A3", "A4", "A5"]
