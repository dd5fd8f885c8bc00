"""What the CLI and the app know of a game besides its rules: one frozen :class:`GameSpec`.

Every game module in ``games/`` ends with ``SPEC = GameSpec(...)``, and :mod:`games.registry`
lists the module once: that is the whole registration. The CLI and the app read the spec (player
names, position help, the board view, the play buttons, default settings, presets, constructor
options) and never branch on a game's name. OpenSpiel games get a spec built on the fly
(:func:`games.registry.game_spec`).

This module is plain data: it imports no game and nothing of the search or the app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Buttons", "GameOption", "GameSpec"]


@dataclass(frozen=True)
class Buttons:
    """One click-button per move, laid out as a grid (the app's Board tab).

    Attributes:
        columns: buttons per row.
        actions: every action a button can play, in reading order (left to right, top to
            bottom); a button is disabled while its action is not legal. The button's widget key
            is ``board_<action>`` (a stable key: docs/app.md).
        labels: one short text per action, in the same order; empty: the game's
            ``action_label``.
    """

    columns: int
    actions: tuple[Any, ...]
    labels: tuple[str, ...] = ()

    def label(self, game: Any, state: Any, action: Any) -> str:
        """The text on ``action``'s button."""
        if self.labels:
            return self.labels[self.actions.index(action)]
        return str(game.action_label(state, action))


@dataclass(frozen=True)
class GameOption:
    """A keyword of :attr:`GameSpec.make` that the app shows as a widget.

    Attributes:
        name: the keyword (``size``).
        key: the app's widget key (``gridiron_size``; stable, see docs/app.md).
        label: the widget's label.
        default: the value when nobody chose one.
        choices: the values of a select box (with ``labels`` for their texts, same order), or
            empty for a slider.
        labels: the select box's text per choice; empty: ``str(choice)``.
        slider: ``(low, high, step)`` of a slider (a float option).
        heuristic: True when the option only weighs the heuristic (the app keeps the position
            and rebuilds the tree); False when it makes another variant of the game (the app
            starts that variant from its opening).
    """

    name: str
    key: str
    label: str
    default: Any
    choices: tuple[Any, ...] = ()
    labels: tuple[str, ...] = ()
    slider: tuple[float, float, float] | None = None
    heuristic: bool = False

    def text(self, value: Any) -> str:
        """How a select box shows ``value``."""
        if self.labels and value in self.choices:
            return self.labels[self.choices.index(value)]
        return str(value)


def _no_options(text: str) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class GameSpec:
    """One game as the CLI and the app see it.

    Attributes:
        name: the name of ``--game``, the app's ``game`` widget and links (``tic_tac_toe``).
        label: the name people read (``Tic-tac-toe``).
        make: builds the rules, a :class:`games.base.Game`, from keyword options
            (``make(size=3)``); unknown or bad options raise ``TypeError`` / ``ValueError``.
        player_names: what players 0 and 1 are called (0 moves first).
        position_help: one line on the position string, for the app's position box.
        board_view: the name of a board picture in ``app/drawing/boards.py`` (``BOARDS``); ``None``:
            the generic view, the game's ``render(state)`` text (else its position string) and
            a table of the root's moves.
        buttons: the play buttons' layout, or ``None`` to pick a move from a list.
        indexed_by_action: True when an action is itself the documented number the CLI's JSON
            reports as ``action_index`` (a cell, a column, an OpenSpiel action id); False: the
            action's index in ``legal_actions``.
        multi_action_turns: True when a player's turn is several actions (the tree marks where
            a turn ends).
        settings: :class:`mcts_core.SearchConfig` fields the app sets when the game is picked
            (the others keep their defaults).
        presets: per preset name (``strong``), the ``SearchConfig`` fields it sets for this
            game; a preset not named here uses its game-independent fields
            (:mod:`mcts_lab.presets`).
        options: the keywords of ``make`` the app shows as widgets.
        options_of_position: the options a position string implies (a gridiron position names
            its size), so a pasted position switches to its variant; ``{}`` when it implies
            none or is malformed (parsing then reports the error).
    """

    name: str
    label: str
    make: Callable[..., Any]
    player_names: tuple[str, str] = ("Player 0", "Player 1")
    position_help: str = "the game's position string; empty: the start"
    board_view: str | None = None
    buttons: Buttons | None = None
    indexed_by_action: bool = False
    multi_action_turns: bool = False
    settings: Mapping[str, Any] = field(default_factory=dict)
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    options: tuple[GameOption, ...] = ()
    options_of_position: Callable[[str], dict[str, Any]] = _no_options

    def option(self, name: str) -> GameOption | None:
        """The option called ``name``, or ``None``."""
        return next((o for o in self.options if o.name == name), None)
