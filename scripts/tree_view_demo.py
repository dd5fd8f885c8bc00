"""A small page showing the browser tree (app/components/tree_view.py) on a search, with Step
buttons.

    streamlit run scripts/tree_view_demo.py

URL parameters: ``game`` (``tic_tac_toe`` default, ``connect_four``, ``gridiron`` for the 1 v 1
game, ``hostile`` for a toy game whose move labels are HTML and Markdown), ``steps`` (iterations
run before the first drawing, default 0) and ``seed``. A click on a box focuses the drawing there;
the page prints the focus and what :func:`render_tree` returned (the browser test reads both).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import streamlit as st  # noqa: E402

from app.components.tree_view import clicked_focus, render_tree  # noqa: E402
from app.drawing.tree_dot import path_ids  # noqa: E402
from app.drawing.tree_layout import build_view  # noqa: E402
from games import make_game  # noqa: E402
from mcts_core import IterationTrace, Search  # noqa: E402

HOSTILE_LABELS = ("<img src=x onerror=alert(1)>", "**bold**", "take 3 </text><script>")


class Hostile:
    """Take-away (7 stones, take 1, 2 or 3; whoever takes the last stone wins) with move labels
    that would be HTML or Markdown if anything rendered them as such."""

    name = "hostile"
    num_players = 2

    def initial_state(self) -> tuple[int, int]:
        return (7, 0)

    def current_player(self, s: tuple[int, int]) -> int:
        return s[1]

    def legal_actions(self, s: tuple[int, int]) -> list[int]:
        return [a for a in (1, 2, 3) if a <= s[0]]

    def chance_outcomes(self, s: Any, a: Any) -> list[tuple[Any, float]]:
        return [(None, 1.0)]

    def next_state(self, s: tuple[int, int], a: int, o: Any = None) -> tuple[int, int]:
        return (s[0] - a, 1 - s[1])

    def is_terminal(self, s: tuple[int, int]) -> bool:
        return s[0] == 0

    def returns(self, s: tuple[int, int]) -> tuple[float, float]:
        return (1.0, -1.0) if s[1] == 1 else (-1.0, 1.0)  # the player who just took won

    def heuristic(self, s: tuple[int, int]) -> tuple[float, float]:
        return self.returns(s) if self.is_terminal(s) else (0.0, 0.0)

    def action_label(self, s: Any, a: int) -> str:
        return HOSTILE_LABELS[a - 1]

    def outcome_label(self, s: Any, a: Any, o: Any) -> str:
        return ""

    def parse_state(self, text: str) -> tuple[int, int]:
        stones, player = text.split(",")
        return (int(stones), int(player))

    def format_state(self, s: tuple[int, int]) -> str:
        return f"{s[0]},{s[1]}"


def new_search(game: str, seed: int) -> Search:
    if game == "hostile":
        return Search(Hostile(), seed=seed)  # type: ignore[arg-type]
    if game == "gridiron":
        return Search(make_game("gridiron", size=1), seed=seed)
    return Search(make_game(game), seed=seed)


st.set_page_config(page_title="MCTS Lab: tree view demo", layout="wide")
params = st.query_params
game = params.get("game", "tic_tac_toe")
if game not in ("tic_tac_toe", "connect_four", "gridiron", "hostile"):
    game = "tic_tac_toe"
seed = int(params.get("seed", "1")) if str(params.get("seed", "1")).isdigit() else 1
s = st.session_state
if "search" not in s:
    s.search = new_search(game, seed)
    s.trace = None
    s.focus = None
    s.returned = None
    steps = str(params.get("steps", "0"))
    for _ in range(int(steps) if steps.isdigit() else 0):
        s.trace = s.search.step()

search: Search = s.search
names = ("Home", "Away") if game == "gridiron" else ("X", "O")

clicked = clicked_focus("tree")  # a click in the last run, read before the view is built
if clicked is not None:
    s.focus = None if clicked == search.root.id else clicked

st.markdown("### Tree view demo")
cols = st.columns([1, 1, 1, 6])
if cols[0].button("Step", key="step"):
    s.trace = search.step()
if cols[1].button("Step 10", key="step_10"):
    for _ in range(10):
        s.trace = search.step()
if cols[2].button("Root", key="unfocus"):
    s.focus = None

trace: IterationTrace | None = s.trace
view = build_view(
    search,
    path_ids=path_ids(trace),
    new_id=trace.expansion.node_id if trace is not None and trace.expansion else None,
    changed_ids={u.node_id for u in trace.updates} if trace is not None else set(),
    focus_id=s.focus,
    player_names=names,
)
returned = render_tree(view, key="tree", height=420)
if returned is not None:
    s.returned = returned
st.markdown(
    f"Iterations: **{search.iterations}** · nodes: **{search.node_count}** · "
    f"drawing: {view.width:.0f} x {view.height:.0f} px · "
    f"focus: **{'root' if s.focus is None else s.focus}** · "
    f"last click returned: **{s.returned}**"
)
