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


# --------------------------------------------------------------------------------------------
# Touchdowns however the carrier gets there (docs/gridiron.md, "When a touchdown is scored").
# Home scores in column W-1 (7 in 1 v 1, 11 in 3 v 3), away in column 0.


def scoring_odds(game: Gridiron, text: str, action: tuple) -> tuple[Fraction, dict]:
    """The exact probability that ``action`` scores, and the scoring outcomes -> next state."""
    state = game.parse_state(text)
    scoring = {}
    total = Fraction(0)
    for outcome, p in game.chance_outcomes(state, action):
        after = game.next_state(state, action, outcome)
        if after.score != state.score:
            scoring[outcome] = after
            total += Fraction(p).limit_denominator(10_000)
    return total, scoring


def test_a_carrier_pushed_into_his_scoring_endzone_scores_in_the_other_teams_turn() -> None:
    # home's turn: H1 (2,1) blocks the away carrier A1 (1,1); a push (2/6) moves A1 onto (0,1),
    # where away scores. Away scores in home's turn: home's turn is over, away's celebration
    # costs it its next turn (7-7), and away kicks off to home, who plays next.
    text = "1_8-8_0_0-0_0_H1-3_A1_2,1,r~1,1,r"
    p, scoring = scoring_odds(ONE, text, ("block", 1))
    assert p == Fraction(1, 3) and list(scoring) == [(2, None)]
    after = scoring[(2, None)]
    assert ONE.format_state(after) == "1_7-7_1_0-1_1_--0_-_2,1,r~5,1,r"
    state = ONE.parse_state(text)
    assert ONE.outcome_label(state, ("block", 1), (2, None)) == "block: push, away touchdown"
    received = ONE.next_state(after, ("kick",), (1, 0))
    assert received.team == 0 and received.turns_left == (7, 7)  # home receives and plays
    ended = ONE.next_state(received, ("end_turn",))
    assert ended.team == 1 and ended.turns_left == (6, 7)  # then the turns alternate again
    # a diagonal push into the endzone scores too
    assert scoring_odds(ONE, "1_8-8_0_0-0_0_H1-3_A1_2,2,r~1,1,r", ("block", 1))[0] == Fraction(1, 3)


def test_a_push_blocked_by_a_player_in_the_endzone_does_not_score() -> None:
    # A2 stands on (0,2), behind the carrier A1 (1,2): the push cannot move A1 and scores
    # nothing. Only A1 going down (defender down 2/6, both down 1/6) with the ball scattering
    # onto A2 (direction 3, 1/8) scores for away: 3/6 x 1/8 = 1/16.
    three = "3_16-16_0_0-0_0_H1-3_A1_2,2,r~5,2,r~4,3,r~1,2,r~0,2,r~7,3,r"
    p, scoring = scoring_odds(THREE, three, ("block", 3))
    assert p == Fraction(1, 16) and sorted(scoring) == [(1, 3), (3, 3)]
    pushed = THREE.next_state(THREE.parse_state(three), ("block", 3), (2, None))
    assert pushed.players[3] == (1, 2, READY) and pushed.carrier == 3 and pushed.score == (0, 0)


def test_a_carrier_pushed_into_his_own_endzone_does_not_score() -> None:
    # A1 carries on (6,1); H1 pushes it onto (7,1): home's scoring endzone, A1's own
    text = "1_8-8_0_0-0_0_H1-3_A1_5,1,r~6,1,r"
    p, _ = scoring_odds(ONE, text, ("block", 1))
    assert p == 0
    pushed = ONE.next_state(ONE.parse_state(text), ("block", 1), (2, None))
    assert pushed.players[1] == (7, 1, READY) and pushed.carrier == 1 and pushed.score == (0, 0)
    assert pushed.team == 0 and pushed.turns_left == (8, 8)  # no turnover: home plays on


def test_a_carrier_who_falls_in_the_endzone_drops_the_ball_then_scores_standing_up_on_it() -> None:
    # H1 carries on (6,1) next to A1 (5,1) and dodges into the endzone at (7,1) (3+: 4/6 scores).
    # A failed dodge (2/6) leaves him down there and the ball scatters: no touchdown (a carrier
    # who goes down drops the ball), and no standing player is near to catch it.
    text = "1_8-8_0_0-0_0_H1-3_H1_6,1,r~5,1,r"
    p, scoring = scoring_odds(ONE, text, ("move", 7, 1))
    assert p == Fraction(2, 3) and list(scoring) == [(1, None, None)]
    state = ONE.parse_state(text)
    label = ONE.outcome_label(state, ("move", 7, 1), (1, None, None))
    assert label == "dodge 3+ ok, home touchdown"
    # direction 4 (+1, 0) is clamped back onto (7,1): the ball lies under H1 (2/6 x 1/8 = 1/24)
    odds = dict(ONE.chance_outcomes(state, ("move", 7, 1)))
    assert Fraction(odds[(0, None, 4)]).limit_denominator(1000) == Fraction(1, 24)
    fell = ONE.next_state(state, ("move", 7, 1), (0, None, 4))
    assert ONE.format_state(fell) == "1_7-8_1_0-0_0_--0_7,1_7,1,d~5,1,r"
    assert ONE.outcome_label(state, ("move", 7, 1), (0, None, 4)) == (
        "dodge 3+ failed, ball scatters to (7,1)"
    )
    # when home's next turn starts, H1 stands up on the ball in his scoring endzone: a standing
    # carrier there scores at once, using up that turn; home kicks off to away
    after = ONE.next_state(fell, ("end_turn",))
    assert ONE.format_state(after) == "1_6-7_0_1-0_1_--0_-_2,1,r~5,1,r"
    assert ONE.next_state(after, ("kick",), (5, 0)).team == 1


def test_standing_up_on_the_ball_in_the_own_endzone_does_not_score() -> None:
    # A1 down on the ball at (7,1), away's own endzone: it takes the ball, nothing more
    after = ONE.next_state(ONE.parse_state("1_8-8_0_0-0_0_--0_7,1_2,1,u~7,1,d"), ("end_turn",))
    assert after.carrier == 1 and after.score == (0, 0) and after.team == 1


def test_a_scattered_ball_caught_in_the_endzone_scores_even_after_a_turnover() -> None:
    # 3 v 3, home's turn: H1 (9,2) blocks the away carrier A1 (10,2). H2 (11,1) and H3 (11,3)
    # stand in home's scoring endzone, A2 (11,2) in the same column (away's own endzone).
    # A1 down (defender down 2/6, both down 1/6) scatters the ball from (10,2); landing on H2 or
    # H3 (2 of 8 directions) is a home touchdown: (2/6 + 1/6) x 2/8 = 1/8, even with H1 down
    # too (both down: a turnover, but the touchdown is scored and ends the turn the same way).
    text = "3_16-16_0_0-0_0_H1-3_A1_9,2,r~11,1,r~11,3,r~10,2,r~11,2,r~2,2,r"
    p, scoring = scoring_odds(THREE, text, ("block", 3))
    assert p == Fraction(1, 8)
    assert sorted(scoring) == [(1, 2), (1, 7), (3, 2), (3, 7)]
    for after in scoring.values():  # home's own turn: it is used, home kicks off to away
        assert after.score == (1, 0) and after.turns_left == (15, 16)
        assert after.team == 0 and after.kickoff == 1
    state = THREE.parse_state(text)
    assert THREE.outcome_label(state, ("block", 3), (1, 7)) == (
        "block: both down, ball scatters to (11,3), home touchdown"
    )
    # A2 catching it in its own endzone (direction 4) scores nothing; home plays on
    caught = THREE.next_state(state, ("block", 3), (3, 4))
    assert caught.carrier == 4 and caught.score == (0, 0) and caught.team == 0


def test_the_defender_catching_the_ball_in_its_scoring_endzone_scores_in_the_other_turn() -> None:
    # H1 (2,1) steps onto the ball at (1,1), next to A1 standing in column 0 (away's scoring
    # endzone): pickup 4+ (3/6). A failed pickup scattering onto A1 (direction 3, 1/8) is an
    # away touchdown in home's turn: 3/6 x 1/8 = 1/16. Home's turn is over and away's next
    # one is spent (7-7); away kicks off to home.
    text = "1_8-8_0_0-0_0_H1-3_1,1_2,1,r~0,1,r"
    p, scoring = scoring_odds(ONE, text, ("move", 1, 1))
    assert p == Fraction(1, 16) and list(scoring) == [(None, 0, 3)]
    assert ONE.format_state(scoring[(None, 0, 3)]) == "1_7-7_1_0-1_1_--0_-_2,1,r~5,1,r"
    assert ONE.outcome_label(ONE.parse_state(text), ("move", 1, 1), (None, 0, 3)) == (
        "pickup failed, ball scatters to (0,1), away touchdown"
    )


def test_a_fumbled_ball_bouncing_back_is_not_caught_by_the_fumbler() -> None:
    # H1 picks up the ball in the endzone corner (7,0): 3+ scores (4/6). Of a failure's 8
    # directions, 3 are clamped back onto (7,0): the ball stays loose at H1's feet (a failed
    # pickup never catches its own ball), so the chance of a touchdown stays 4/6.
    text = "1_8-8_0_0-0_0_H1-3_7,0_6,1,r~2,2,r"
    p, scoring = scoring_odds(ONE, text, ("move", 7, 0))
    assert p == Fraction(2, 3) and list(scoring) == [(None, 1, None)]
    state = ONE.parse_state(text)
    assert ONE.outcome_label(state, ("move", 7, 0), (None, 1, None)) == "pickup ok, home touchdown"
    for direction in (1, 2, 4):
        after = ONE.next_state(state, ("move", 7, 0), (None, 0, direction))
        assert after.ball == (7, 0) and after.carrier == -1 and after.team == 1
        assert after.players[0] == (7, 0, USED)


def test_a_touchdown_in_the_other_turn_at_half_time_and_at_the_end() -> None:
    # away's last turn of the first half: A1 pushes the home carrier into (7,1). Home has no
    # turn of this half left to spend, so the half ends: home kicks off to away.
    half = "1_4-5_1_0-0_0_A1-3_H1_6,1,r~5,1,r"
    p, scoring = scoring_odds(ONE, half, ("block", 0))
    assert p == Fraction(1, 3)
    assert ONE.format_state(scoring[(2, None)]) == "1_4-4_0_1-0_1_--0_-_2,1,r~5,1,r"
    # home's last turn of the game: away scores when pushed into (0,1), and the game is over
    last = "1_1-0_0_0-0_0_H1-3_A1_2,1,r~1,1,r"
    p, scoring = scoring_odds(ONE, last, ("block", 1))
    end = scoring[(2, None)]
    assert p == Fraction(1, 3) and ONE.is_terminal(end) and ONE.returns(end) == (-1.0, 1.0)


def test_standing_up_on_the_ball_after_the_last_turn_ends_the_game() -> None:
    # away's last turn: A1 fails a dodge into its scoring endzone and the ball lands on him;
    # home's last turn then ends, and with no turns left nobody stands up to score: the game
    # is over (it used to count a turn below zero and never end)
    state = ONE.parse_state("1_1-1_1_1-0_0_A1-1_A1_2,2,r~1,1,r")
    state = ONE.next_state(state, ("move", 0, 0), (0, None, 0))
    assert ONE.format_state(state) == "1_1-0_0_1-0_0_--0_0,0_2,2,r~0,0,d"
    ((outcome, _),) = ONE.chance_outcomes(state, ("end_turn",))
    end = ONE.next_state(state, ("end_turn",), outcome)
    assert end.turns_left == (0, 0) and ONE.is_terminal(end)
    assert end.score == (1, 0) and ONE.returns(end) == (1.0, -1.0)  # home kept its lead


def test_a_carrier_standing_in_his_scoring_endzone_is_refused() -> None:
    with pytest.raises(ValueError, match="H1 stands in the endzone where his team scores"):
        ONE.parse_state("1_8-8_0_0-0_0_--0_H1_7,1,r~2,2,r")
    ONE.parse_state("1_8-8_0_0-0_0_--0_H1_0,1,r~2,2,r")  # his own endzone is fine


@pytest.mark.parametrize(
    ("game", "text"),
    [
        (ONE, "1_8-8_0_0-0_0_H1-3_A1_2,1,r~1,1,r"),
        (ONE, "1_4-5_1_0-0_0_A1-3_H1_6,1,r~5,1,r"),
        (ONE, "1_8-8_0_0-0_0_H1-3_H1_6,1,r~5,1,r"),
        (THREE, "3_16-16_0_0-0_0_H1-3_A1_9,2,r~11,1,r~11,3,r~10,2,r~11,2,r~2,2,r"),
    ],
)
def test_random_play_from_the_scoring_positions_keeps_the_turns_in_step(
    game: Gridiron, text: str
) -> None:
    # random games from the positions above (touchdowns in either team's turn among them):
    # every game ends, no carrier ever stands where his team scores, and the teams' turns never
    # drift more than one apart (a touchdown in the other team's turn costs the scorer a turn)
    import random

    scores_seen = set()
    for seed in range(60):
        rng = random.Random(seed)
        state = game.parse_state(text)
        for _ in range(5000):
            if game.is_terminal(state):
                break
            action = rng.choice(game.legal_actions(state))
            listed = game.chance_outcomes(state, action)
            outcome = rng.choices([o for o, _ in listed], [p for _, p in listed])[0]
            before = state
            state = game.next_state(state, action, outcome)
            assert abs(state.turns_left[0] - state.turns_left[1]) <= 1, game.format_state(state)
            # parse_state refuses a carrier standing where his team scores
            assert game.parse_state(game.format_state(state)) == state
            if state.score != before.score:
                scores_seen.add(before.team == (0 if state.score[0] > before.score[0] else 1))
        assert game.is_terminal(state)
    assert False in scores_seen  # some touchdowns were scored in the other team's turn


@pytest.mark.parametrize("size", [1, 3])
def test_short_outcome_labels_fit_a_tree_box_and_say_the_outcome(size: int) -> None:
    """Every outcome a search meets gets at most 9 characters that say what the full label
    says: the kick's square, a fall, a dropped ball and where it went, a block's face."""
    from games.registry import opening_state
    from mcts_core import Search
    from mcts_core.nodes import ChanceNode

    game = Gridiron(size=size)
    pairs: dict[str, str] = {}
    for seed in range(2):
        search = Search(game, opening_state(game, seed), seed=seed)
        search.run(iterations=500)
        stack = [search.root]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            if isinstance(node, ChanceNode):
                state = search.state_of(node.parent)
                for child in node.children:
                    short = game.short_outcome_label(state, node.action, child.outcome)
                    pairs[game.outcome_label(state, node.action, child.outcome)] = short
    assert pairs
    for full, short in pairs.items():
        assert 0 < len(short) <= 9, (full, short)
        if "touchdown" in full:
            assert short == "touchdown"
            continue
        if "scatters to (" in full:  # the square the ball came to rest on
            assert short.endswith(full.rsplit("(", 1)[1].rstrip(")").replace(" ", "")), full
        if full.startswith("block: "):
            face = {"attacker down": "att↓", "both down": "both↓", "push": "push",
                    "defender down": "def↓"}  # fmt: skip
            assert short.startswith(face[full[7:].split(",")[0]]), (full, short)
        elif full.split(",")[0].startswith("dodge") and full.split(",")[0].endswith("failed"):
            assert short.startswith("fell"), (full, short)
        elif "pickup failed" in full:
            assert short.startswith("drop"), (full, short)
        elif full.startswith("ball lands on ("):
            assert short == "on " + full[15:-1].replace(" ", "")


def _words(label: str) -> set[str]:
    return set(label.replace("(", "").replace(")", "").split())


def test_a_move_has_one_name_in_the_tree_and_in_the_narration() -> None:
    """The tree's box (the short label) uses the full label's words, never others: the tree said
    "H1 acts" and the narration "H1 activate" for one move (issue 31), "H1 stops" and "H1 end
    activation" for another. Every action of random 3 v 3 games, from the kick-off on."""
    import random

    rng = random.Random(5)
    seen: set[str] = set()
    for _ in range(20):
        state = THREE.initial_state()
        while not THREE.is_terminal(state):
            for action in THREE.legal_actions(state):
                short, full = (
                    THREE.short_action_label(state, action),
                    THREE.action_label(state, action),
                )
                assert _words(short) <= _words(full), (short, full)
                seen.add(action[0])
            action = rng.choice(THREE.legal_actions(state))
            outcomes = THREE.chance_outcomes(state, action)
            state = THREE.next_state(state, action, outcomes[rng.randrange(len(outcomes))][0])
    assert {"activate", "end_activation", "move", "end_turn"} <= seen
