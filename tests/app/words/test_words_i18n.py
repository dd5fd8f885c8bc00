"""The narration and the words beside it, translatable (issue 34): every phase of 30 iterations of
each game narrated in the pseudo-language has no English outside ⟦ ⟧ but the game's own data
(player names, move and outcome labels), and numbers take the language's symbols."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from app.words import i18n
from app.words.exact import ExactAnswer, kept_sentence, verdict
from app.words.narration import (
    entropy_text,
    explain_n_convention,
    narrate_iteration,
    narrate_phase,
    selection_end,
)
from app.words.phrases import fmt, prob
from app.words.record_words import narrate_record
from games import make_game
from games.registry import game_choices, game_spec
from mcts_core import Search, SearchConfig
from mcts_core.trace import ChanceStep, Decision, IterationTrace
from tests.app_helpers import outside_pseudo

#: Not words: the formula's letters and names.
TERMS = {"UCT", "PUCT", "UCB"}
WORD = re.compile(r"[^\W\d_]{2,}")


def english_left(text: str, data: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` outside ⟦ ⟧ once the game's own data is taken out."""
    outside = outside_pseudo(text)
    for item in sorted({d for d in data if d}, key=len, reverse=True):
        outside = outside.replace(item, " ")
    return [w for w in WORD.findall(outside) if w not in TERMS]


def trace_data(trace: IterationTrace) -> set[str]:
    """The game's labels a trace carries (shown as they are: game data, not the app's words)."""
    data: set[str] = set()
    for step in trace.path:
        if isinstance(step, Decision):
            data.update(t.label for t in step.children)
        elif isinstance(step, ChanceStep):
            data.update((step.action_label, step.outcome_label))
    if trace.expansion is not None:
        data.update((trace.expansion.action_label, trace.expansion.outcome_label or ""))
    data.update(s.action_label for s in trace.evaluation.rollout)
    data.add(trace.note)
    return data


def playable_games() -> list[str]:
    names = []
    for name in game_choices():
        try:
            make_game(name)
        except Exception:  # an OpenSpiel game without OpenSpiel installed
            continue
        names.append(name)
    return names


def test_english_left_finds_a_planted_word() -> None:
    with i18n.language(i18n.PSEUDO):
        text = i18n._("{player} took {move}", player="X", move="a1") + " then more"
        wrapped = i18n._("nothing added")
    assert english_left(text, {"X", "a1"}) == ["then", "more"]
    assert english_left(wrapped) == []
    assert english_left("nothing added") == ["nothing", "added"]


CONFIGS = (
    SearchConfig(),
    SearchConfig(tree_policy="puct", solver=True),
    SearchConfig(min_visits=2, rollout_depth=2),
    SearchConfig(max_nodes=12),
)


@pytest.mark.parametrize("game", playable_games())
def test_every_phase_of_30_iterations_is_wrapped(game: str) -> None:
    names = tuple(game_spec(game).player_names)
    said = 0
    for config in CONFIGS:
        search = Search(make_game(game), None, config, seed=3)
        for _unused in range(30):
            try:
                path = search.select()
                context = selection_end(search, path)
                expansion = search.expand()
                evaluation = search.evaluate()
                trace = search.backpropagate()
            except Exception:  # the node cap stopped the search
                break
            data = trace_data(trace) | set(names)
            with i18n.language(i18n.PSEUDO):
                texts = [narrate_iteration(trace, names, 1.4, "uct")]
                for phase, result in (
                    ("select", path),
                    ("expand", expansion),
                    ("evaluate", evaluation),
                    ("backpropagate", trace),
                ):
                    for ctx in (context, trace, None):
                        texts.append(narrate_phase(phase, result, ctx, names, 1.4, "uct"))
            for text in texts:
                assert english_left(text, data) == [], text
                said += 1
    assert said >= 30 * 13


def test_record_exact_and_table_sentences_are_wrapped() -> None:
    record = {
        "path": [0, 1, 2],
        "decisions": [
            {"node": 0, "chosen": 1, "rule": "solver",
             "children": [{"node": 1, "q": 0.5, "bonus": 0.1, "score": 0.6}]},
        ],
        "expanded": [2],
        "leaf_value": 0.5,
        "evaluation": "rollout",
        "backup": [0, 1, 2],
    }  # fmt: skip
    answer = ExactAnswer({0: 1.0, 1: 0.0, 2: 1.0, 3: None}, {0: "a1", 1: "b1", 2: "c1", 3: "d1"})
    numeric = ExactAnswer({0: 0.5, 1: -0.25}, {0: "a1", 1: "b1"})
    with i18n.language(i18n.PSEUDO):
        texts = [
            narrate_record(record, lambda n: f"m{n}", lambda n: n % 2, ("X", "O")),
            narrate_record({"path": [0]}, str, lambda n: 0, ("X", "O")),
            str(verdict(answer, 1)),
            str(verdict(numeric, 1)),
            str(answer.budget_note()),
            answer.text(0),
            kept_sentence([]),
            kept_sentence([(1, 1.0)]),
            kept_sentence([(1, None)]),
            kept_sentence([(1, 0.0), (2, 1.0), (3, 0.0)]),
            kept_sentence([(1, 1.0), (2, 0.0)]),
            kept_sentence([(1, 0.0)]),
            entropy_text(),
            explain_n_convention(),
        ]
    data = {"m0", "m1", "m2", "rollout", "solver", "X", "O", "a1", "b1", "c1", "d1"}
    for text in texts:
        assert english_left(text, data) == [], text


def test_numbers_in_the_words_take_the_language_symbols() -> None:
    assert (fmt(0.25), prob(0.25)) == ("+0.250", "0.250")
    with i18n.language("es"):
        assert (fmt(0.25), prob(0.25), fmt(-0.0001)) == ("+0,250", "0,250", "+0,000")
        answer = ExactAnswer({0: 0.5, 1: -0.25}, {0: "a1", 1: "b1"})
        assert answer.text(0) == "+0,50"
        assert "0,75" in str(verdict(answer, 1))


# ------------------------------------------------------------------ drawing


def _no_tags(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_figures_boards_and_tree_words_are_wrapped() -> None:
    from app.drawing.boards import board_legend, stats_rows, tic_tac_toe_svg
    from app.drawing.figures import (
        history_figure,
        html_table,
        series_point,
        uct_table_html,
        update_rows,
    )
    from app.drawing.tree_dot import path_ids, tree_dot
    from app.drawing.tree_layout import build_view

    names = ("X", "O")
    game = make_game("tic_tac_toe")
    search = Search(game, None, SearchConfig(solver=True), seed=2)
    series = []
    for _unused in range(40):
        trace = search.step()
        series.append(series_point(search))
    labels = {t.label for d in trace.decisions for t in d.children}
    labels |= {game.action_label(game.initial_state(), a) for a in range(9)}
    data = labels | set(names) | {"k"}
    answer = ExactAnswer({0: 1.0, 1: 0.0}, {0: "a1", 1: "b1"})
    ids = path_ids(trace)
    with i18n.language(i18n.PSEUDO):
        texts = [
            _no_tags(uct_table_html(trace.decisions, names)),
            _no_tags(html_table(update_rows(trace, names))),
            _no_tags(html_table(stats_rows(game, search.root_state, {0: (0.5, 0.1)},
                                           exact=answer, favourite=1))),
            _no_tags(tic_tac_toe_svg(game, search.root_state, {0: (0.5, 0.1)}, exact=answer)),
            board_legend(game, exact=True),
            board_legend(make_game("gridiron")),
            board_legend(make_game("nim"), exact=True),
        ]  # fmt: skip
        fig = history_figure(series, [(1, 1.0), (2, 0.0)])
        texts += [str(axis.title.text) for axis in (fig.layout.xaxis, fig.layout.yaxis,
                  fig.layout.yaxis2, fig.layout.yaxis3, fig.layout.yaxis4)]  # fmt: skip
        texts += [str(t.name) for t in fig.data if t.name not in labels]
        view = build_view(search, path_ids=ids, new_id=None, changed_ids=ids, focus_id=None,
                          player_names=names)  # fmt: skip
        texts.append(view.describe())
        texts += [tip for node in view.nodes for tip in node.tooltip]
        texts += [node.label for node in view.nodes if node.kind in ("up",) or node.id == 0]
        dot = tree_dot(search, highlight=ids, player_names=names).dot
        texts += re.findall(r'label="([^"]*)"', dot)
    for text in texts:
        assert english_left(text.replace("\\n", " "), data) == [], text


def test_a_table_writes_its_numbers_the_languages_way() -> None:
    from app.drawing.figures import html_table

    rows = [{"node": "#3", "value added": -0.6, "visits now": 12, "mean now": 1.0, "q": "+0.333"}]
    assert "<td>-0.6</td>" in html_table(rows)  # English unchanged
    with i18n.language("de"):
        german = html_table(rows)
    assert "<td>-0,6</td>" in german and "<td>1,0</td>" in german and "<td>+0,333</td>" in german
    assert "<td>12</td>" in german and "<td>#3</td>" in german
