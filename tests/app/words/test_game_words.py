"""The games' move and outcome labels in the page's language (:mod:`app.words.game_words`,
issue 34): English unchanged, every label shape the games write known (a new shape in games/
fails here), an unknown label unchanged."""

from __future__ import annotations

import itertools
import random
import re
from functools import cache
from typing import Any

import pytest

from app.words import i18n
from app.words.game_words import shown
from games.registry import all_specs, make_game


def _every_game() -> tuple[tuple[str, dict[str, Any]], ...]:
    """(game name, options) of every built-in game of the registry, once for every combination
    of its options with choices (gridiron's sizes): the labels a game writes may depend on them
    (a 3 v 3 pitch has players H1..H3)."""
    games: list[tuple[str, dict[str, Any]]] = []
    for spec in all_specs():
        choices = [[(o.name, value) for value in o.choices] for o in spec.options if o.choices]
        games.extend((spec.name, dict(combo)) for combo in itertools.product(*choices))
    return tuple(games)


GAMES = _every_game()
PLAYOUTS = 300


def test_every_game_and_size_is_played() -> None:
    """The list above reaches every registered game and each gridiron size."""
    assert {name for name, _ in GAMES} == {spec.name for spec in all_specs()}
    assert ("gridiron", {"size": 5}) in GAMES


def _labels_of(name: str, options: dict[str, Any], playouts: int, seed: int) -> set[str]:
    game = make_game(name, **options)
    rng = random.Random(seed)
    labels: set[str] = set()
    for _unused in range(playouts):
        state = game.initial_state()
        steps = 0
        while not game.is_terminal(state) and steps < 400:
            actions = list(game.legal_actions(state))
            for a in actions:
                labels.add(game.action_label(state, a))
                if hasattr(game, "short_action_label"):
                    labels.add(game.short_action_label(state, a))
            action = rng.choice(actions)
            outcomes = list(game.chance_outcomes(state, action))
            for o, _p in outcomes:
                labels.add(game.outcome_label(state, action, o))
                if hasattr(game, "short_outcome_label"):
                    labels.add(game.short_outcome_label(state, action, o))
            outcome = rng.choices([o for o, _p in outcomes], [p for _o, p in outcomes])[0]
            state = game.next_state(state, action, outcome)
            steps += 1
    labels.discard("")
    return labels


@cache
def every_label() -> frozenset[str]:
    """The labels of every position reached in 300 random playouts of each game."""
    labels: set[str] = set()
    for i, (name, options) in enumerate(GAMES):
        labels |= _labels_of(name, dict(options), PLAYOUTS, seed=i)
    return frozenset(labels)


#: What a label may keep in English: player tokens (H1, A2), cells (a1), a Nim box's h1.
_TOKEN = re.compile(r"\b(?:[HA]\d+|[a-z]\d+)\b")
_WORD = re.compile(r"[A-Za-z]{2,}|\b[A-Za-z]\b")


def _has_word(label: str) -> bool:
    return _WORD.search(_TOKEN.sub(" ", label)) is not None


def test_english_labels_unchanged() -> None:
    labels = every_label()
    assert len(labels) > 100  # every game's shapes were reached
    with i18n.language("en"):
        changed = {x: shown(x) for x in labels if shown(x) != x}
    assert not changed


def test_every_label_shape_known() -> None:
    """A label with a word in it must change in the pseudo-language: a new label shape in
    games/ that game_words does not know fails here."""
    with i18n.language(i18n.PSEUDO):
        unknown = sorted(x for x in every_label() if _has_word(x) and shown(x) == x)
    assert not unknown, f"label shapes app/words/game_words.py does not know: {unknown[:20]}"


def test_the_check_finds_an_unknown_shape() -> None:
    """The check above can fail: a planted label of a new shape is left unchanged."""
    with i18n.language(i18n.PSEUDO):
        assert shown("H1 leaps to (3,2)") == "H1 leaps to (3,2)"
        assert _has_word("H1 leaps to (3,2)")
        assert not _has_word("a1") and not _has_word("H1")


@pytest.mark.parametrize(
    "label",
    [
        "take 3 from heap 1",
        "3 from h1",
        "col 4",
        "kick-off",
        "end turn",
        "H1 acts",
        "A2 stops",
        "H1 move to (3,2)",
        "H2 dodge and pick up at (4,1)",
        "block A2",
        "to 3,2",
        "dodge 3+ ok, pickup failed, ball scatters to (4,2), away touchdown",
        "block: defender down, ball scatters to (1,2)",
        "def↓ 3,2",
        "drop 4,2",
        "ball lands on (1,2)",
    ],
)
def test_pseudo_keeps_the_tokens(label: str) -> None:
    with i18n.language(i18n.PSEUDO):
        words = shown(label)
    assert words != label
    assert i18n.PSEUDO_OPEN in words
    for token in re.findall(r"[HA]\d+|\(\d+,\d+\)|\d+,\d+|\d+", label):
        assert token in words


def test_unknown_labels_unchanged() -> None:
    with i18n.language(i18n.PSEUDO):
        odd = ("a1", "x(0,2)", "Roll", "pig stop", "", "take 3 from heap", "dodge 3+ ok, jump")
        for label in odd:
            assert shown(label) == label


def test_spanish_words() -> None:
    with i18n.language("es"):
        assert shown("take 3 from heap 1") != "take 3 from heap 1"
        assert "3" in shown("take 3 from heap 1")


# --------------------------------------------------------- where labels are shown


def _searched(name: str, options: dict[str, int], iterations: int) -> tuple[object, list[object]]:
    from mcts_core import Search

    search = Search(make_game(name, **options), seed=3)
    traces = [search.step() for _unused in range(iterations)]
    return search, traces


@pytest.mark.parametrize("name, options", [("gridiron", {"size": 1}), ("nim", {})])
def test_the_tree_and_the_narration_show_labels_in_the_language(
    name: str, options: dict[str, int]
) -> None:
    """The tree's boxes and tooltips and the narration's moves go through shown(): in the
    pseudo-language no English label word is left in them (H1, (3,2), numbers are kept)."""
    from app.drawing.tree_dot import path_ids
    from app.drawing.tree_layout import build_view
    from app.words.narration import narrate_iteration

    search, traces = _searched(name, options, 60)
    english_words = {
        w for label in every_label() for w in re.findall(r"[A-Za-z]{3,}", _TOKEN.sub(" ", label))
    }
    assert {"heap", "from"} <= english_words or {"acts", "kick"} & english_words
    with i18n.language(i18n.PSEUDO):
        view = build_view(
            search,  # type: ignore[arg-type]
            path_ids=path_ids(traces[-1]),  # type: ignore[arg-type]
            new_id=None,
            changed_ids=set(),
            focus_id=None,
            player_names=("Home", "Away"),
        )
        boxes = [n.label for n in view.nodes] + ["\n".join(n.tooltip) for n in view.nodes]
        said = [narrate_iteration(t, ("Home", "Away"), 1.4, "uct") for t in traces]  # type: ignore[arg-type]
    for text in boxes + said:
        outside = re.sub(r"⟦[^⟧]*⟧", " ", text)
        left = set(re.findall(r"[A-Za-z]{3,}", outside)) & english_words
        assert not left, (left, text)


@pytest.mark.parametrize("name", sorted({name for name, _options in GAMES}))
def test_every_tab_names_a_game_s_moves_in_the_language(name: str) -> None:
    """Issue 43: on every registered game, the places a tab shows a move (the Board's most
    visited line and board text, Why this path's move column, the Charts legend and chosen-move
    axis, Play's move buttons) say it in the page's language: in the pseudo-language no English
    word of a label is left outside ⟦ ⟧ (move notation and player tokens aside)."""
    from app.drawing.boards import board_text
    from app.drawing.figures import history_figure, series_point, uct_rows
    from app.live.history import pv_labels
    from app.words.game_words import move_label

    options = dict(next(o for n, o in GAMES if n == name))
    search, traces = _searched(name, options, 40)
    game, root = search.game, search.root_state  # type: ignore[attr-defined]
    english_words = {
        w for label in every_label() for w in re.findall(r"[A-Za-z]{3,}", _TOKEN.sub(" ", label))
    } | {"heap"}
    series = [series_point(search)]  # type: ignore[arg-type]
    with i18n.language(i18n.PSEUDO):
        places = {
            "most visited line": [shown(label) for _player, label in pv_labels(search)],  # type: ignore[arg-type]
            "board text": [board_text(game, root)],
            "why this path": [
                str(row["move"])
                for trace in traces
                for decision in trace.decisions  # type: ignore[attr-defined]
                for row in uct_rows(decision)
            ],
            "charts": [
                str(t.name) + " " + " ".join(str(y) for y in (t.y or ()))
                for t in history_figure(series).data
                if t.name is not None
            ],
            "play": [move_label(game, root, a) for a in game.legal_actions(root)],
        }
    for place, texts in places.items():
        for text in texts:
            outside = re.sub(r"⟦[^⟧]*⟧", " ", text)
            left = set(re.findall(r"[A-Za-z]{3,}", outside)) & english_words
            assert not left, (place, left, text)
    # (the check can fail: a label shown as the game writes it)
    raw = game.action_label(root, next(iter(game.legal_actions(root))))
    assert name == "tic_tac_toe" or set(re.findall(r"[A-Za-z]{3,}", raw)) & english_words
