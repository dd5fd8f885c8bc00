"""Any two-player OpenSpiel game behind :class:`games.base.Game` (the ``[openspiel]`` extra).

``make_game("openspiel:pig(winscore=20)")`` loads OpenSpiel's game string with
``pyspiel.load_game`` and wraps it:

- **Which games.** Two players, sequential moves, perfect information (the search sees the whole
  state, so a poker game would let it peek at the cards), and chance, if any, given with exact
  probabilities (``EXPLICIT_STOCHASTIC``). Anything else is refused with a ``ValueError`` that
  says why. Zero-sum or not, the returns become win / draw / loss by comparing the two players'
  OpenSpiel returns at the end: the higher one wins (1, -1), equal is a draw (0, 0). That is
  exact for OpenSpiel's win/loss games and, for a general-sum game, plays to beat the other
  player (the margin is lost; :meth:`OpenSpielGame.openspiel_returns` gives the raw numbers).
- **States.** An :class:`OpenSpielState` is the action history (every action, the chance
  outcomes included) plus the ``pyspiel`` state it leads to. Equality and hash are the history
  alone, so states are immutable and hashable as the protocol asks; :meth:`next_state` clones the
  ``pyspiel`` state and never changes its input. Our states are decision points or terminal
  positions, never OpenSpiel chance nodes.
- **Chance.** OpenSpiel's chance nodes become our chance outcomes with their exact
  probabilities: the outcomes of playing ``a`` are the chance actions that follow it until the
  next decision, as a tuple (usually one die: ``(3,)``), with the product of their
  probabilities (``state.chance_outcomes()``). A game that starts with chance (dealing, an
  opening roll) starts with one legal action, :data:`START`, whose outcomes are those chance
  actions.
- **Actions** are OpenSpiel's action ids (ints), in OpenSpiel's ``legal_actions()`` order, and
  they are the ``action_index`` the CLI reports. Labels are ``action_to_string``.
- **Positions** are the history as OpenSpiel action ids joined by commas, ``4,4,3`` (``""``:
  the start), the same numbers as ``state.history()``. A history that stops at a chance node
  is refused: add the outcome.
- **Board**: ``render`` is OpenSpiel's ``str(state)``. The heuristic is 0 for both players
  (OpenSpiel has none): use rollouts.
"""

from __future__ import annotations

import functools
import os
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.base import NO_CHANCE, PositionError, pick_index, sample_outcome
from games.spec import GameSpec

__all__ = [
    "MAX_CHANCE_OUTCOMES",
    "START",
    "OpenSpielGame",
    "OpenSpielState",
    "load_openspiel",
    "openspiel_spec",
]

PREFIX = "openspiel:"
#: The one action of a start that is a chance node (OpenSpiel's action ids are >= 0).
START = -1
#: Chance outcomes of one move at most (a chain of chance nodes multiplies them).
MAX_CHANCE_OUTCOMES = 10_000
_MAX_ACTION_DIGITS = 12
_DETERMINISTIC = ((NO_CHANCE, 1.0),)
_WIN0, _WIN1, _DRAW = (1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)


@dataclass(frozen=True)
class OpenSpielState:
    """A position: the action history and the ``pyspiel`` state it leads to.

    Attributes:
        history: every action from the start, chance outcomes included (OpenSpiel's
            ``state.history()``).
        pystate: the ``pyspiel.State`` after ``history``; never changed in place, and not part
            of equality or the hash.
    """

    history: tuple[int, ...]
    pystate: Any = field(compare=False, repr=False)


def _quietly(work: Callable[[], Any]) -> Any:
    """Run ``work`` with file descriptor 2 pointed away: OpenSpiel prints every error it raises
    on stderr (an unknown game's message lists all 80+ games), and the CLI promises one line."""
    with tempfile.TemporaryFile() as sink:
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        try:
            return work()
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


@functools.cache
def load_openspiel(game_string: str) -> Any:
    """``pyspiel.load_game(game_string)`` once per string, checked to be a game we can search.

    Raises ``ValueError`` naming the problem: pyspiel missing, an unknown game, bad
    parameters, or a game that is not two-player, sequential, perfect-information with exact
    chance.
    """
    try:
        import pyspiel
    except ImportError:
        raise ValueError(
            "OpenSpiel is not installed: pip install open_spiel (or pip install -e '.[openspiel]')"
        ) from None
    short = game_string.split("(", 1)[0].strip()
    if short not in pyspiel.registered_names():
        raise ValueError(
            f"OpenSpiel has no game {short!r} (pyspiel.registered_names() lists them; e.g. "
            "tic_tac_toe, connect_four, pig, breakthrough)"
        )
    try:
        game = _quietly(lambda: pyspiel.load_game(game_string))
    except pyspiel.SpielError as error:
        raise ValueError(f"OpenSpiel cannot load {game_string!r}: {_one_line(error)}") from None
    kind = game.get_type()
    why = []
    if game.num_players() != 2:
        why.append(f"it has {game.num_players()} players, not 2")
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        why.append("its players move simultaneously")
    if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        why.append("it hides information (the search would see it all)")
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        why.append("its chance is sampled, without exact probabilities")
    if why:
        raise ValueError(
            f"the OpenSpiel game {game_string!r} cannot be searched here: {'; '.join(why)}. Use a "
            "two-player, sequential, perfect-information game"
        )
    return game


class OpenSpielGame:
    """The rules of one OpenSpiel game, implementing :class:`games.base.Game`.

    ``name`` is ``openspiel:`` + the game string. See the module docstring for how states,
    chance, actions, returns and positions map.
    """

    num_players = 2
    #: Every action lengthens the history, so no state repeats within a game.
    states_never_repeat = True

    def __init__(self, game_string: str) -> None:
        self.game_string = game_string.strip()
        self.name = PREFIX + self.game_string
        self.pygame = load_openspiel(self.game_string)

    # ------------------------------------------------------------------ the protocol

    def initial_state(self) -> OpenSpielState:
        return OpenSpielState((), self.pygame.new_initial_state())

    def _chance_start(self, state: OpenSpielState) -> bool:
        return not state.history and state.pystate.is_chance_node()

    def current_player(self, state: OpenSpielState) -> int:
        """0 or 1; 0 for a chance start (whoever starts sets the dice rolling), and 0 at a
        terminal state (undefined there)."""
        player = state.pystate.current_player()
        return player if player >= 0 else 0

    def legal_actions(self, state: OpenSpielState) -> list[int]:
        """OpenSpiel's ``legal_actions()`` (ascending ids); ``[START]`` at a chance start."""
        if self._chance_start(state):
            return [START]
        if state.pystate.is_terminal():
            return []
        return list(state.pystate.legal_actions())

    def _after(self, state: OpenSpielState, action: int) -> Any:
        """The ``pyspiel`` state after ``action`` (a copy; ``state`` is left alone)."""
        child = state.pystate.clone()
        if action != START or not self._chance_start(state):
            child.apply_action(action)
        return child

    def chance_outcomes(self, state: OpenSpielState, action: int) -> list[tuple[Any, float]]:
        """``[(NO_CHANCE, 1.0)]`` when a decision or the end follows ``action``; else every chain
        of chance actions up to the next decision, as a tuple, with its exact probability."""
        after = self._after(state, action)
        if not after.is_chance_node():
            return list(_DETERMINISTIC)
        return [(chain, p) for chain, p, _ in _chance_chains(after)]

    def next_state(
        self, state: OpenSpielState, action: int, outcome: Any = NO_CHANCE
    ) -> OpenSpielState:
        after = self._after(state, action)
        history = state.history if action == START else (*state.history, action)
        if not after.is_chance_node():
            if outcome is not NO_CHANCE:
                raise ValueError(f"action {action} has no chance outcome, got {outcome!r}")
            return OpenSpielState(history, after)
        if not isinstance(outcome, tuple) or not outcome:
            raise ValueError(f"action {action} is followed by chance: give its outcome")
        for chance_action in outcome:
            if not after.is_chance_node():
                raise ValueError(f"outcome {outcome!r} is longer than the chance that follows")
            if chance_action not in dict(after.chance_outcomes()):
                raise ValueError(f"chance outcome {chance_action} is not possible here")
            after.apply_action(chance_action)
        if after.is_chance_node():
            raise ValueError(f"outcome {outcome!r} stops at a chance node")
        return OpenSpielState(history + outcome, after)

    def is_terminal(self, state: OpenSpielState) -> bool:
        return bool(state.pystate.is_terminal())

    def returns(self, state: OpenSpielState) -> tuple[float, float]:
        """Win 1, loss -1, draw 0 by comparing OpenSpiel's two returns; ``(0, 0)`` while on."""
        if not state.pystate.is_terminal():
            return _DRAW
        first, second = state.pystate.returns()
        return _WIN0 if first > second else _WIN1 if second > first else _DRAW

    def openspiel_returns(self, state: OpenSpielState) -> tuple[float, float]:
        """OpenSpiel's own returns of the two players (margins kept)."""
        first, second = state.pystate.returns()
        return (float(first), float(second))

    def heuristic(self, state: OpenSpielState) -> tuple[float, float]:
        """The returns at the end, else 0 for both: OpenSpiel games come without a heuristic."""
        return self.returns(state)

    def action_label(self, state: OpenSpielState, action: int) -> str:
        if action == START:
            return "start (chance)"
        return str(state.pystate.action_to_string(state.pystate.current_player(), action))

    def outcome_label(self, state: OpenSpielState, action: int, outcome: Any) -> str:
        if outcome is NO_CHANCE:
            return ""
        after = self._after(state, action)
        labels = []
        for chance_action in outcome:
            labels.append(str(after.action_to_string(after.current_player(), chance_action)))
            after.apply_action(chance_action)
        return ", ".join(labels)

    def parse_state(self, text: str) -> OpenSpielState:
        """OpenSpiel action ids joined by commas (``4,4,3``; ``""``: the start) -> state.

        Raises ``PositionError`` naming the first bad entry: not a number, an action that is not
        legal there (or a chance outcome that cannot happen), a move after the end, or a
        history that stops at a chance node.
        """
        if not isinstance(text, str):
            raise PositionError(f"position must be a string, got {type(text).__name__}")
        text = text.strip()
        state = self.initial_state()
        if not text:
            return state
        pystate = state.pystate.clone()
        for i, part in enumerate(text.split(",")):
            part = part.strip()
            if not (part.isascii() and part.isdigit()) or len(part) > _MAX_ACTION_DIGITS:
                raise PositionError(
                    f"{part!r} at index {i} is not an OpenSpiel action id (0, 1, ...)"
                )
            action = int(part)
            if pystate.is_terminal():
                raise PositionError(f"the game is over before action {action} at index {i}")
            if pystate.is_chance_node():
                legal = [a for a, p in pystate.chance_outcomes() if p > 0]
            else:
                legal = list(pystate.legal_actions())
            if action not in legal:
                shown = ", ".join(map(str, legal[:12])) + (", ..." if len(legal) > 12 else "")
                raise PositionError(f"action {action} is not legal at index {i} (legal: {shown})")
            pystate.apply_action(action)
        if pystate.is_chance_node():
            raise PositionError("the history stops at a chance node: add the chance outcome")
        return OpenSpielState(tuple(int(a) for a in pystate.history()), pystate)

    def format_state(self, state: OpenSpielState) -> str:
        return ",".join(map(str, state.history))

    def render(self, state: OpenSpielState) -> str:
        """OpenSpiel's text of the state (``str(state)``)."""
        return str(state.pystate)

    # ------------------------------------------------------------------ fast path

    def random_playout(
        self,
        state: OpenSpielState,
        rng: random.Random,
        max_steps: int | None,
        stop_on_turn_change: bool,
    ) -> tuple[OpenSpielState, list[tuple[Any, Any]]]:
        """:func:`mcts_core.rollout.generic_random_playout` on one ``pyspiel`` state played in
        place (the same draws and result, one clone instead of one per move)."""
        played: list[tuple[Any, Any]] = []
        if state.pystate.is_terminal():
            return state, played
        first = self.current_player(state)
        if self._chance_start(state):  # the lone START, drawn for as the generic loop does
            if max_steps == 0:
                return state, played
            pick_index(rng, 1)
            outcomes = self.chance_outcomes(state, START)
            outcome = outcomes[sample_outcome(outcomes, rng)][0]
            played.append((START, outcome))
            state = self.next_state(state, START, outcome)
        pystate = state.pystate.clone()
        history = list(state.history)
        while not pystate.is_terminal():
            if max_steps is not None and len(played) >= max_steps:
                break
            if stop_on_turn_change and pystate.current_player() != first:
                break
            legal = pystate.legal_actions()
            action = legal[pick_index(rng, len(legal))]
            pystate.apply_action(action)
            history.append(action)
            if pystate.is_chance_node():
                chains = _chance_chains(pystate)
                pick = sample_outcome([(chain, p) for chain, p, _ in chains], rng)
                chain, _, pystate = chains[pick]
                history.extend(chain)
                played.append((action, chain))
            else:
                played.append((action, NO_CHANCE))
        return OpenSpielState(tuple(history), pystate), played


def _chance_chains(pystate: Any) -> list[tuple[tuple[int, ...], float, Any]]:
    """Every chain of chance actions from the chance node ``pystate`` to the next decision or
    the end: (the chain, its probability, the ``pyspiel`` state after it), in OpenSpiel's
    order. ``ValueError`` past ``MAX_CHANCE_OUTCOMES``."""
    chains: list[tuple[tuple[int, ...], float, Any]] = []
    pending: list[tuple[tuple[int, ...], float, Any]] = [((), 1.0, pystate)]
    while pending:
        chain, p, node = pending.pop(0)
        if not node.is_chance_node():
            chains.append((chain, p, node))
            continue
        for action, q in node.chance_outcomes():
            if q > 0:
                child = node.clone()
                child.apply_action(action)
                pending.append(((*chain, action), p * q, child))
        if len(pending) + len(chains) > MAX_CHANCE_OUTCOMES:
            raise ValueError(
                f"more than {MAX_CHANCE_OUTCOMES:,} chance outcomes follow one move: too many "
                "to list with their probabilities"
            )
    return chains


def openspiel_spec(name: str) -> GameSpec:
    """The spec of ``openspiel:<game string>`` (``ValueError`` if it cannot be loaded)."""
    game_string = name[len(PREFIX) :].strip() if name.startswith(PREFIX) else name.strip()
    if not game_string:
        raise ValueError("openspiel: needs a game string, e.g. openspiel:tic_tac_toe")
    load_openspiel(game_string)  # fail early, with the reason

    def make() -> OpenSpielGame:
        return OpenSpielGame(game_string)

    return GameSpec(
        name=PREFIX + game_string,
        label=f"OpenSpiel: {game_string}",
        make=make,
        position_help="OpenSpiel action ids played so far, joined by commas, e.g. 4,4,3 "
        "(empty: start)",
        indexed_by_action=True,
    )
