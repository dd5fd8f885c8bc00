"""The Streamlit app driven through AppTest: every control and panel, bad input, query params."""

from __future__ import annotations

import gc
import html
import re

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from tests.app_helpers import (
    blocks,
    board_pictures,
    fresh,
    metric,
    narration,
    notes,
    tab,
    texts,
)

#: AppTest runs of the whole page: seconds each.
pytestmark = pytest.mark.slow


def test_first_screen() -> None:
    at = fresh()
    assert any('class="lab-title"><b>MCTS Lab</b>' in m.value for m in at.markdown)
    assert metric(at, "Iteration") == "0" and metric(at, "Nodes") == "1"
    for key in ("step", "step_n", "phase_step", "back", "forward", "reset", "play_best"):
        assert at.button(key=key) is not None
    for key in ("game", "position", "seed", "c", "policy", "iterations_per_click"):
        assert at.session_state[key] is not None


def test_step_shows_the_iteration() -> None:
    at = fresh()
    at.button(key="step").click().run()
    assert metric(at, "Iteration") == "1" and metric(at, "Nodes") == "2"  # no chance layer
    assert "untried" in narration(at)  # the root still had untried moves: no decision yet
    tab(at, "Backup")
    assert "Added node **#1**" in texts(at)
    for _ in range(9):
        at.button(key="step").click().run()
    tab(at, "Why this path")
    body = texts(at)
    assert "Depth 0 · node #0" in body  # the UCT table of a real decision
    assert "◀ chosen" in body
    assert at.latex and "sqrt" in at.latex[0].value
    tab(at, "Backup")
    assert "value added" in texts(at)  # the backpropagation table


def test_step_n_runs_iterations_per_click() -> None:
    at = fresh()
    at.number_input(key="iterations_per_click").set_value(250).run()
    at.button(key="step_n").click().run()
    assert metric(at, "Iteration") == "250"
    assert not at.exception
    assert not at.get("plotly_chart")  # charts are drawn only when their tab is open
    tab(at, "Charts")
    assert len(at.get("plotly_chart")) == 1  # the history chart


def test_phase_step_walks_the_four_phases() -> None:
    at = fresh()
    at.button(key="step_n").click().run()
    tab(at, "Backup")
    seen, told = [], []
    for name in ("select", "expand", "simulate", "backpropagate"):
        assert at.button(key="phase_step").label == f"Phase: {name}"
        at.button(key="phase_step").click().run()
        seen.append(next(i.value for i in at.info if i.value.startswith("Phase just run")))
        told.append(narration(at))
    assert [s.split("— ")[1][:1] for s in seen] == ["1", "2", "3", "4"]
    assert [t.split(":")[0].strip() for t in told] == [
        "Select", "Expand", "Simulate", "Backpropagate"
    ]  # fmt: skip
    assert metric(at, "Iteration") == "101"
    assert at.button(key="phase_step").label == "Phase: select"


def test_reset_empties_the_tree() -> None:
    at = fresh()
    at.button(key="step_n").click().run()
    at.button(key="reset").click().run()
    assert metric(at, "Iteration") == "0" and metric(at, "Nodes") == "1"


def test_bad_position_is_refused_and_the_old_one_kept() -> None:
    at = fresh()
    at.text_input(key="position").set_value("X.O.X....").run()
    at.button(key="step").click().run()
    at.text_input(key="position").set_value("OOOO").run()
    assert any("not used" in e and "9 cells" in e for e in notes(at, "error"))
    assert at.text_input(key="position").value == "X.O.X...."
    assert metric(at, "Iteration") == "1"  # the tree survived
    assert not at.exception


def test_a_reset_with_a_nonsense_setting_names_the_setting_and_keeps_the_tree() -> None:
    """Reset rebuilds from the sidebar: a setting it refuses (a ConfigError) is said to be a
    setting, not the position, and the tree it could not replace stays."""
    at = fresh()
    at.button(key="step_n").click().run()
    at.number_input(key="loss_value").set_value(5.0).run()  # refused: the search keeps its own
    at.button(key="reset").click().run()
    errors = notes(at, "error")
    assert any("A search setting is not valid" in e and "loss_value" in e for e in errors)
    assert not any("position" in e for e in errors)
    assert metric(at, "Iteration") == "100" and not at.exception


def test_connect_four_position_and_game_switch() -> None:
    at = fresh()
    at.selectbox(key="game").set_value("gridiron").run()
    assert at.session_state["c"] == 0.5 and at.session_state["rollout_depth"] == 0
    said = " ".join(notes(at, "info"))
    assert "C 1.4 -> 0.5" in said and "expansion order listed -> heuristic" in said
    assert "kick-off" in said and at.session_state["position"]  # starts after the kick-off
    at.selectbox(key="game").set_value("connect_four").run()
    assert at.session_state["c"] == 1.4 and "C 0.5 -> 1.4" in " ".join(notes(at, "info"))
    at.text_input(key="position").set_value("4453").run()
    assert "4453" in texts(at)
    at.text_input(key="position").set_value("44444444").run()
    assert any("column 4 is full" in e for e in notes(at, "error"))


def test_parameter_change_says_kept_or_rebuilt() -> None:
    at = fresh()
    at.button(key="step_n").click().run()
    at.slider(key="c").set_value(0.7).run()
    assert any("Tree kept" in s for s in notes(at, "success"))
    assert metric(at, "Iteration") == "100"
    at.toggle(key="solver").set_value(True).run()
    assert any("Tree rebuilt" in w for w in notes(at, "warning"))
    assert metric(at, "Iteration") == "0"


def test_nonsense_shaping_is_refused() -> None:
    at = fresh()
    at.button(key="step_n").click().run()
    at.number_input(key="loss_value").set_value(5.0).run()
    assert any("Setting not used" in e for e in notes(at, "error"))
    assert metric(at, "Iteration") == "100"


def test_history_scrubber_goes_back() -> None:
    at = fresh()
    for _ in range(3):
        at.button(key="step").click().run()
    at.slider(key="history_index").set_value(1).run()
    assert metric(at, "Iteration") == "1" and "entry 1 of 3" in texts(at)
    at.button(key="forward").click().run()
    assert metric(at, "Iteration") == "2" and "entry 2 of 3" in texts(at)
    at.button(key="back").click().run()
    at.button(key="back").click().run()  # stays at the first entry
    assert metric(at, "Iteration") == "1"
    for _ in range(2):
        at.button(key="forward").click().run()
    assert metric(at, "Iteration") == "3" and "entry 3 of 3" in texts(at)
    at.button(key="reset").click().run()
    at.button(key="step").click().run()
    assert "entry 1 of 1" in texts(at) and "dropped" not in texts(at)


def test_board_click_plays_and_refuses_illegal_moves() -> None:
    at = fresh()
    at.button(key="step_n").click().run()
    board = board_pictures(at)[0]
    assert 'font-weight="bold">1</text>' in board  # the principal variation, numbered
    assert any(c.value.startswith("Most visited line: 1. X ") for c in at.caption)
    assert any("Numbered discs: the principal variation" in c.value for c in at.caption)
    at.button(key="board_4").click().run()
    assert any("You played b2" in s and "Tree reuse" in s for s in notes(at, "success"))
    assert at.text_input(key="position").value == "....X...."
    assert at.button(key="board_4").disabled  # an occupied cell cannot be clicked


def test_play_best_against_random_reuses_the_tree() -> None:
    at = fresh()
    tab(at, "Play")
    at.radio(key="play_mode").set_value("MCTS vs random").run()
    at.button(key="step_n").click().run()
    at.button(key="play_best").click().run()
    played = [s for s in notes(at, "success") if "played" in s]
    assert any(p.startswith("MCTS played") for p in played)
    assert any(p.startswith("Random player played") for p in played)
    tab(at, "Board")
    assert "X to move" in texts(at)


def test_play_to_the_end_then_refuse() -> None:
    at = fresh(position="XX.OO....")
    tab(at, "Play")
    at.radio(key="play_mode").set_value("MCTS vs MCTS").run()
    at.button(key="play_best").click().run()
    assert any("Game over: X wins" in i for i in notes(at, "info"))
    at.button(key="step").click().run()
    assert any("nothing to search" in i for i in notes(at, "info"))
    assert not at.exception


def test_query_params_restore_and_fall_back() -> None:
    at = fresh(game="connect_four", position="4453", seed="7", c="0.9", policy="ucb1")
    assert at.session_state["game"] == "connect_four"
    assert at.session_state["seed"] == 7 and at.session_state["c"] == 0.9
    assert at.session_state["policy"] == "ucb1"
    bad = fresh(game="chess", seed="-4", c="abc", position="99")
    assert bad.session_state["game"] == "tic_tac_toe"
    assert bad.session_state["c"] == 1.4
    warnings = " ".join(notes(bad, "warning"))
    assert "game='chess'" in warnings and "c='abc'" in warnings and "position" in warnings


def test_printed_tree_and_downloads() -> None:
    at = fresh()
    at.button(key="step_n").click().run()
    tab(at, "Text")
    at.toggle(key="show_printed").set_value(True).run()
    printed = [c.value for c in at.code if c.value.startswith("<ActionNode")]
    assert printed and printed[0].startswith("<ActionNode id='0' p='max' visits='100'")


def test_the_graphviz_tab_works_without_dot(monkeypatch: pytest.MonkeyPatch) -> None:
    at = fresh()
    at.button(key="step_n").click().run()
    monkeypatch.setenv("PATH", "/nonexistent")  # Graphviz's dot cannot be found at run time
    tab(at, "Text")
    assert not at.exception
    assert any("dot is not installed" in c.value for c in at.caption)
    assert any("Drawn:" in c.value for c in at.caption)


def test_tree_focus_on_a_node() -> None:
    at = fresh()
    at.button(key="step_n").click().run()
    at.text_input(key="tree_focus").set_value("2").run()
    assert at.button(key="tree_unfocus") is not None
    tab(at, "Text")
    assert any("Drawn:" in c.value for c in at.caption)
    assert "Position at node #2" in texts(at)
    at.text_input(key="tree_focus").set_value("999999").run()
    assert any("not in the tree" in w for w in notes(at, "warning"))
    assert not at.exception
    at.button(key="tree_unfocus").click().run()
    assert at.session_state["tree_focus"] == ""


def test_gridiron_views() -> None:
    at = fresh(game="gridiron", seed="2")
    assert at.session_state["game"] == "gridiron"
    assert at.session_state["rollout_depth"] == 0  # the tutorial's best setting for gridiron
    assert at.session_state["expansion"] == "heuristic"
    assert "Home to move" in texts(at)  # the kick-off was played: home has real choices
    at.number_input(key="iterations_per_click").set_value(400).run()
    at.button(key="step_n").click().run()
    assert not at.exception
    pitch = board_pictures(at)
    assert pitch and pitch[0].startswith("<svg") and "H1" in pitch[0]  # the pitch
    tab(at, "Dice")
    for _ in range(6):
        at.button(key="step").click().run()
        if any("lab-dice" in b for b in blocks(at)):
            break
    dice = next(b for b in blocks(at) if "lab-dice" in b)
    assert "probability" in dice and "drew" in dice
    at.slider(key="w_ball").set_value(0.6).run()
    assert any("heuristic weights" in w for w in notes(at, "warning"))


def test_a_gridiron_position_of_another_size_switches_the_preset() -> None:
    three = "3_16-16_0_0-0_0_--0_H1_4,2,r~5,1,r~5,3,r~7,1,r~6,2,r~7,3,r"
    at = fresh(game="gridiron", position=three)  # a shared 3 v 3 link
    assert at.session_state["gridiron_size"] == 3 and three in texts(at)
    assert not notes(at, "warning")
    one = "1_8-8_0_0-0_0_--0_H1_2,1,r~5,1,r"
    at.text_input(key="position").set_value(one).run()  # typed on the 3 v 3 screen
    assert at.session_state["gridiron_size"] == 1 and one in texts(at)
    at.text_input(key="position").set_value("3_16-16_0").run()  # malformed: nothing changes
    assert at.session_state["gridiron_size"] == 1 and one in texts(at)
    assert any("not used" in e for e in notes(at, "error")) and not at.exception


def test_gridiron_play_against_random() -> None:
    at = fresh(game="gridiron", seed="1", iterations="50")
    tab(at, "Play")
    at.radio(key="play_mode").set_value("MCTS vs random").run()
    at.button(key="play_best").click().run()  # home's first action after the kick-off
    played = [s for s in notes(at, "success") if "played" in s]
    assert played[0].startswith("MCTS played")
    for _ in range(10):  # home acts until its turn ends; then the random away team replies
        if any(p.startswith("Random player played") for p in played):
            break
        at.button(key="play_best").click().run()
        played = [s for s in notes(at, "success") if "played" in s]
    assert any(p.startswith("Random player played") for p in played)
    assert not at.exception


def test_arena_tab_runs_and_plots() -> None:
    at = fresh(game="tic_tac_toe")
    tab(at, "Arena")
    at.toggle(key="show_arena").set_value(True).run()
    at.number_input(key="arena_games").set_value(2).run()
    at.number_input(key="arena_iterations").set_value(50).run()
    at.selectbox(key="arena_rollout").set_value("game").run()
    at.button(key="arena_run").click().run()
    assert not at.exception
    assert any("Home Wins" in c.value for c in at.code)
    assert any("Arena finished" in s.value for s in at.success)
    # the notes under the table, made in the app's words: in English as mcts-lab arena says them
    assert any(
        re.fullmatch(
            r"vs random; draws \d+ \(home \d+, away \d+\); losses \d+ \(home \d+, away \d+\); "
            r"\d+ decisions, mean root visits [\d,]+ \((tree reuse|fresh tree per decision)\); "
            r"[\d.]+ s",
            c.value,
        )
        for c in at.caption
    ), [c.value for c in at.caption]


def test_preset_picker_sets_the_search_and_a_change_by_hand_makes_it_custom() -> None:
    at = fresh()
    at.selectbox(key="preset").set_value("tutorial").run()
    assert not at.exception
    state = at.session_state
    assert (state["policy"], state["c"], state["value_range"]) == ("ucb1", 0.707, "unit")
    assert (state["horizon"], state["solver"]) == ("turn", False)
    at.button(key="step").click().run()
    assert metric(at, "Iteration") == "1"
    at.selectbox(key="preset").set_value("strong").run()
    assert at.session_state["solver"] is True and at.session_state["policy"] == "uct"
    at.slider(key="c").set_value(2.0).run()
    assert at.session_state["preset"] == "custom" and at.session_state["solver"] is True


def test_autoplay_steps_on_its_own_and_any_click_stops_it() -> None:
    at = fresh()
    at.toggle(key="autoplay").set_value(True).run()  # on: the screen rebuilds its timer
    assert not at.exception and at.session_state["autoplay"] is True
    first = int(metric(at, "Iteration"))
    assert first >= 1
    at.run()  # what the timer does: a rerun without a click
    assert int(metric(at, "Iteration")) == first + 1
    at.button(key="step").click().run()  # any click stops autoplay (and still steps once)
    assert at.session_state["autoplay"] is False
    stopped = int(metric(at, "Iteration"))
    at.run()
    assert int(metric(at, "Iteration")) == stopped


def test_a_stale_autoplay_on_after_a_click_does_not_restart_it(monkeypatch) -> None:
    """A click stops autoplay; the page's next timer tick may still carry the toggle as it last
    saw it (on): that "on" is undone. A deliberate "on" after the moment holds."""
    import app.live.session

    at = fresh()
    at.toggle(key="autoplay").set_value(True).run()
    at.button(key="reset").click().run()  # stops autoplay
    assert at.session_state["autoplay"] is False
    at.toggle(key="autoplay").set_value(True).run()  # the page's old value, at once
    assert at.session_state["autoplay"] is False and metric(at, "Iteration") == "0"
    monkeypatch.setattr(app.live.session, "AUTOPLAY_STALE_SECONDS", 0.0)  # the moment has passed
    at.toggle(key="autoplay").set_value(True).run()
    assert at.session_state["autoplay"] is True and int(metric(at, "Iteration")) >= 1


def test_a_link_rebuilds_its_tree() -> None:
    clicked = fresh(seed="3")
    for _ in range(5):
        clicked.button(key="step").click().run()
    nodes = metric(clicked, "Nodes")
    assert clicked.query_params["steps"] == ["5"] or clicked.query_params["steps"] == "5"
    opened = fresh(seed="3", steps="5")
    assert metric(opened, "Iteration") == "5" and metric(opened, "Nodes") == nodes
    bad = fresh(steps="9" * 40)
    assert metric(bad, "Iteration") == "0" and any("steps=" in w for w in notes(bad, "warning"))


def test_messages_quoting_user_text_are_plain_text() -> None:
    at = fresh(game="connect_four", position="[log in here](https://evil.example/login)")
    body = "\n".join(b for b in blocks(at) if 'class="lab-note' in b)
    assert "[log in here](https://ev…" in html.unescape(body)  # quoted (24 characters), escaped
    assert "<a " not in body and "](" in body  # never a live link
    img = fresh(game="connect_four", position="![t](http://host/track.png)")
    body = "\n".join(b for b in blocks(img) if 'class="lab-note' in b)
    assert "<img" not in body and "![t]" in body


def test_presentation_mode_hides_the_sidebar() -> None:
    at = fresh()
    at.toggle(key="presentation").set_value(True).run()
    assert not at.exception
    style = next(b for b in blocks(at) if b.startswith("<style>") and ".block-container" in b)
    assert 'section[data-testid="stSidebar"]' in style


SIDEBAR_KEYS = ("game", "position", "seed", "c", "policy", "expansion", "rollout", "solver")


def _intact(at: AppTest) -> None:
    """No exception, every sidebar control and step button drawn."""
    assert not at.exception
    widgets = {w.key for kind in ("selectbox", "text_input", "number_input", "slider", "toggle")
               for w in at.sidebar.get(kind)}  # fmt: skip
    assert set(SIDEBAR_KEYS) <= widgets
    for key in ("step", "step_n", "phase_step", "back", "forward", "reset", "play_best"):
        assert at.button(key=key) is not None


def _no_live_markdown(at: AppTest, needle: str) -> None:
    """``needle`` (from a hostile link) never reaches an element that renders Markdown."""
    for element in list(at.markdown) + list(at.caption) + list(at.warning) + list(at.error):
        assert needle not in element.value, element.value


@pytest.mark.parametrize(
    "query",
    [
        {"game": "gridiron", "position": "²_8-8_1_0-0_1_--0_-_2,1,r~5,1,r"},
        {"game": "gridiron", "position": "1_8-8_0_0-0_0_H²-3_H1_2,1,r~5,1,r"},
        {"game": "gridiron", "position": "1_٣-8_0_0-0_0_--0_-_2,1,r~5,1,r"},
        {"c": "10"},
        {"c": "1e3"},
        {"seed": "1_000"},
        {"seed": "٣"},
        {"iterations": "-5"},
        {"steps": "²"},
        {"policy": "<script>alert(1)</script>"},
    ],
)
def test_hostile_links_are_refused_without_harm(query: dict[str, str]) -> None:
    at = fresh(**query)
    _intact(at)
    warnings = notes(at, "warning")
    assert warnings and all(len(w) < 200 for w in warnings)
    assert at.session_state["c"] <= 5.0 and at.session_state["seed"] in (0, 1)


@pytest.mark.parametrize(
    "position",
    [
        "[session expired, log in here](https://evil.example/login)",
        "![t](http://evil.example/t.png)",
    ],
)
def test_links_with_markdown_never_render_it(position: str) -> None:
    at = fresh(game="connect_four", position=position)
    _intact(at)
    _no_live_markdown(at, "evil.example")
    tab(at, "Board")
    _no_live_markdown(at, "evil.example")


def test_an_overlong_link_value_is_refused_early() -> None:
    import time

    start = time.perf_counter()
    at = fresh(game="connect_four", position="4" * 100_000, seed="9" * 100_000)
    seconds = time.perf_counter() - start
    _intact(at)
    warnings = notes(at, "warning")
    assert any("too long" in w for w in warnings) and all(len(w) < 200 for w in warnings)
    print(f"\n100,000-character link values: page ready in {seconds:.2f} s")


def test_a_typed_focus_of_odd_digits_is_a_message() -> None:
    at = fresh()
    at.button(key="step_n").click().run()
    at.text_input(key="tree_focus").set_value("²").run()
    assert not at.exception
    assert any("type a node id" in w for w in notes(at, "warning"))


def test_a_session_tree_stops_at_the_app_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.inputs.widget_values

    monkeypatch.setattr(app.inputs.widget_values, "SESSION_MAX_NODES", 40)
    at = fresh()
    at.button(key="step_n").click().run()  # 100 iterations wanted; the cap stops it
    assert not at.exception
    assert any("This tree is full" in w for w in notes(at, "warning"))
    assert int(metric(at, "Nodes")) <= 40
    at.button(key="step").click().run()  # refused with the same message, nothing breaks
    assert not at.exception and int(metric(at, "Nodes")) <= 40


def test_the_server_wide_node_cap_refuses_growth(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.live.session
    import app.live.stepping

    at = fresh()
    gc.collect()  # earlier tests' searches go now, not mid-test (their nodes would free room)
    monkeypatch.setattr(app.live.stepping, "SERVER_MAX_NODES", app.live.session.server_nodes() + 50)
    at.button(key="step_n").click().run()  # under the cap when it starts
    assert metric(at, "Iteration") == "100"
    at.button(key="step").click().run()
    assert any("The server is full" in w for w in notes(at, "warning"))
    assert metric(at, "Iteration") == "100" and not at.exception
    at.button(key="reset").click().run()  # a reset frees this session's share
    at.button(key="step").click().run()
    assert metric(at, "Iteration") == "1"
