"""Breakpoints: conditions that end a run at the first iteration where they hold
(``mcts-lab search --until CONDITION``; the app's Step N can use the same registry).

One :class:`BreakpointKind` a condition in :data:`BREAKPOINTS`: its ``name``, the ``argument``
it takes (shown in help and errors), ``parse`` (the argument's text, checked against the
searched game and position, into a value; a bad one raises :class:`BreakpointError`),
``make`` (a factory: given the search as a :class:`SearchView`, the parsed argument and a
:class:`Context`, a *probe*, a callable asked after every iteration that returns the
condition's words when it holds and ``None`` otherwise), ``doc`` (one line) and what it needs
beyond the root's statistics: ``needs_records`` (every iteration's record: the live search
itself, or on a trace file the file's own ``inspect`` findings), ``needs_exact`` (the
position's exact values: a registered game) and ``needs_solver`` (proofs: the solver on).

:class:`SearchView` is what a probe reads of a search: the live :class:`~mcts_core.Search`
is one, and so is a trace file's replay (:class:`mcts_lab.breakpoints.on_files.FileView`).

:func:`parse_condition` reads ``NAME`` or ``NAME:ARGUMENT``; :func:`breakpoint_stop` turns
conditions into the ``should_stop`` callable ``Search.run`` polls (give it
``progress_every=1`` so it is asked after every iteration); once one holds, the callable
remembers which (``held``), why (``reason``) and at which iteration (``iteration``).

A probe is made when the run starts and compares with what it saw then: a change
(``favourite-changes``, ``q-sign-flips``) is a change from the tree as it was at that moment.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mcts_core import Search
from mcts_core.game import Action, Game, State
from mcts_core.policies import most_visited
from mcts_lab.common import action_index, signed_value

__all__ = [
    "BREAKPOINTS",
    "BreakpointError",
    "BreakpointKind",
    "BreakpointStop",
    "Condition",
    "Context",
    "RootMove",
    "SearchView",
    "breakpoint_stop",
    "make_probe",
    "find_move",
    "moves_listed",
    "parse_condition",
    "root_moves",
]

#: The largest K of ``visits:MOVE>=K`` (the search's own cap on iterations).
MAX_VISITS = 10_000_000

Probe = Callable[[], str | None]


class BreakpointError(ValueError):
    """A condition that cannot be used: an unknown name, a bad move or count, a game or
    setting it cannot hold in. Its message is one line."""


class MoveView(Protocol):
    """A root move as a probe reads it: the ``action`` in the view's game, its ``visits``,
    its mean value from ``player``'s view, and its proof (the returns, or ``None``)."""

    @property
    def action(self) -> Action: ...
    @property
    def visits(self) -> int: ...
    @property
    def proven(self) -> tuple[float, ...] | None: ...
    def mean(self, player: int) -> float: ...


class RootView(Protocol):
    """The searched root as a probe reads it: the player to move, visits, proof, and the
    moves tried so far (the same object for a move from one call to the next)."""

    @property
    def player(self) -> int: ...
    @property
    def visits(self) -> int: ...
    @property
    def proven(self) -> tuple[float, ...] | None: ...
    @property
    def children(self) -> Sequence[MoveView]: ...


class MovesView(Protocol):
    """The part of a game a condition reads: the root's legal moves and their labels."""

    @property
    def name(self) -> str: ...
    def is_terminal(self, state: State) -> bool: ...
    def legal_actions(self, state: State) -> Sequence[Action]: ...
    def action_label(self, state: State, action: Action) -> str: ...


class SettingsView(Protocol):
    """The settings a condition reads: the solver switch and the value range (``"unit"`` or
    ``"symmetric"``, for the sign of a mean)."""

    @property
    def solver(self) -> bool: ...
    @property
    def value_range(self) -> str: ...


class SearchView(Protocol):
    """What a breakpoint's probe reads of a search, read only: the live
    :class:`~mcts_core.Search` and a trace file's replay both are one. ``iterations``: the
    iterations run (a replay: the records applied)."""

    @property
    def root(self) -> RootView: ...
    @property
    def game(self) -> MovesView: ...
    @property
    def root_state(self) -> State: ...
    @property
    def config(self) -> SettingsView: ...
    @property
    def iterations(self) -> int: ...


@dataclass(frozen=True)
class Context:
    """What a probe may need besides the search: the budget of the exact values
    (``regret-zero``)."""

    exact_seconds: float = 2.0


@dataclass(frozen=True)
class BreakpointKind:
    """One condition of the registry (see the module docstring). The ``needs_*`` fields say
    what it reads beyond the root's statistics; a search or file without it refuses the
    condition with that reason (:func:`make_probe`,
    :func:`mcts_lab.breakpoints.on_files.run_until`)."""

    name: str
    argument: str
    parse: Callable[[str | None, MovesView, State], Any]
    make: Callable[[SearchView, Any, Context], Probe]
    doc: str
    needs_records: bool = False
    needs_exact: bool = False
    needs_solver: bool = False

    @property
    def syntax(self) -> str:
        return self.name + self.argument


@dataclass(frozen=True)
class Condition:
    """A parsed condition: the ``text`` given, its registry entry and its argument's value."""

    text: str
    kind: BreakpointKind
    argument: Any


# ------------------------------------------------------------------ moves of the root


@dataclass(frozen=True)
class RootMove:
    """A legal move of the searched position: its action, label and documented index."""

    action: Action
    label: str
    index: int


def root_moves(game: MovesView, state: State) -> list[RootMove]:
    """The legal moves of ``state`` in the game's order (none when the game is over)."""
    if game.is_terminal(state):
        return []
    return [
        RootMove(action, game.action_label(state, action), action_index(game, state, action))
        for action in game.legal_actions(state)
    ]


def find_move(text: str, moves: Sequence[RootMove]) -> RootMove | None:
    """The move of ``moves`` that ``text`` names: its label (as ``search`` prints it; case
    ignored when that is unambiguous) or, all digits, its index; ``None`` when none does.
    (Also used by :mod:`mcts_lab.breakpoints.watch` for the moves of an expression.)"""
    text = text.strip()
    for move in moves:
        if move.label == text:
            return move
    folded = [m for m in moves if m.label.casefold() == text.casefold()]
    if len(folded) == 1:
        return folded[0]
    if re.fullmatch(r"[0-9]+", text):
        for move in moves:
            if move.index == int(text):
                return move
    return None


def moves_listed(moves: Sequence[RootMove], most: int = 20) -> str:
    """The moves as ``label (index)``, the first ``most`` of them."""
    listed = ", ".join(f"{m.label} ({m.index})" for m in moves[:most])
    return listed + (f", ... ({len(moves)} moves)" if len(moves) > most else "")


def _move(text: str, game: MovesView, state: State) -> RootMove:
    """The root move ``text`` names (:func:`find_move`)."""
    moves = root_moves(game, state)
    if not moves:
        raise BreakpointError("the position is over: it has no moves")
    text = text.strip()
    if not text:
        raise BreakpointError("a move is missing after ':'")
    found = find_move(text, moves)
    if found is None:
        raise BreakpointError(
            f"{text!r} is not a legal move here (a label or an index): {moves_listed(moves)}"
        )
    return found


def _child(search: SearchView, action: Action) -> MoveView | None:
    """The root's child for ``action`` (``None`` until it is tried)."""
    for child in search.root.children:
        if child.action == action:
            return child
    return None


def _favourite(search: SearchView) -> MoveView | None:
    """The root's most-visited child (ties: the higher mean, then the earlier: the search's
    ``most_visited`` rule), or ``None`` before any move was tried."""
    children = search.root.children
    if not children:
        return None
    player = search.root.player
    visits = [c.visits for c in children]
    means = [c.mean(player) for c in children]
    return children[most_visited(visits, means)]


def _most_visited(search: SearchView, incumbent: MoveView | None) -> MoveView | None:
    """The favourite, kept on a tie: ``incumbent`` stays until another move has strictly
    more visits (the first move tried is the first favourite)."""
    children = search.root.children
    if not children:
        return None
    if incumbent is None:
        return children[0]
    top = max(children, key=lambda c: c.visits)  # the earliest of the most visited
    return top if top.visits > incumbent.visits else incumbent


def _visits_text(visits: int) -> str:
    return f"{visits:,} visit{'' if visits == 1 else 's'}"


def _label(search: SearchView, node: MoveView) -> str:
    return str(search.game.action_label(search.root_state, node.action))


# ------------------------------------------------------------------ the conditions


def _no_argument(name: str) -> Callable[[str | None, MovesView, State], None]:
    def parse(text: str | None, game: MovesView, state: State) -> None:
        if text is not None:
            raise BreakpointError(f"{name} takes no argument (got {text!r})")

    return parse


def _needs_move(name: str, form: str) -> Callable[[str | None, MovesView, State], RootMove]:
    def parse(text: str | None, game: MovesView, state: State) -> RootMove:
        if text is None:
            raise BreakpointError(f"{name} needs a move: {form}")
        return _move(text, game, state)

    return parse


def _favourite_changes(search: SearchView, _: None, context: Context) -> Probe:
    before = _favourite(search)

    def probe() -> str | None:
        nonlocal before
        now = _most_visited(search, before)
        if now is before or now is None:  # None: no move tried yet (a root's moves stay)
            return None
        old, before = before, now
        if old is None:
            return None  # the first move tried: there was no favourite to change
        return (
            f"the most-visited root move changed from {_label(search, old)} "
            f"({_visits_text(old.visits)}) to {_label(search, now)} ({_visits_text(now.visits)})"
        )

    return probe


def _parse_proven(text: str | None, game: MovesView, state: State) -> RootMove | None:
    return None if text is None else _move(text, game, state)


def _proven(search: SearchView, move: RootMove | None, context: Context) -> Probe:
    player = search.root.player
    words = {1: "win", 0: "draw", -1: "loss"}

    def result(proof: tuple[float, ...]) -> str:
        value = proof[player]
        return words[(value > 0) - (value < 0)]

    if move is None:

        def probe_root() -> str | None:
            proof = search.root.proven
            if proof is None:
                return None
            return f"the solver proved the root: a {result(proof)} for the player to move"

        return probe_root

    def probe_move() -> str | None:
        child = _child(search, move.action)
        proof = None if child is None else child.proven
        if proof is None:
            return None
        return f"the solver proved {move.label}: a {result(proof)} for the player to move"

    return probe_move


def _regret_zero(search: SearchView, _: None, context: Context) -> Probe:
    from mcts_lab.exact import VALUE_TOLERANCE, best_value, exact_values

    game = search.game
    assert isinstance(game, Game)  # needs_exact: a registered game's rules, not a file's moves
    values = exact_values(game, search.root_state, context.exact_seconds)
    best = best_value(values)
    if best is None:
        raise BreakpointError(
            "regret-zero needs the position's exact value, and it was not solved within "
            f"--exact-seconds {context.exact_seconds:g}"
        )

    def probe() -> str | None:
        favourite = _favourite(search)
        if favourite is None:
            return None
        value = values.get(favourite.action)
        if value is None or best - value >= VALUE_TOLERANCE:
            return None
        return (
            f"the most-visited root move {_label(search, favourite)} is a best move by exact "
            f"value ({value:+g}; regret 0)"
        )

    return probe


def _anomaly(search: SearchView, _: None, context: Context) -> Probe:
    from mcts_lab.inspect.incremental import AnomalyWatch

    if not isinstance(search, Search):  # the registry's needs_records: run_until answers files
        raise BreakpointError("anomaly needs the live search: it re-checks its tree's nodes")

    # only what each iteration changed is checked (the path's nodes and their children), with
    # the same stops as a whole re-check: mcts_lab/inspect/incremental.py says why
    return AnomalyWatch(search)


def _parse_visits(text: str | None, game: MovesView, state: State) -> tuple[RootMove, int]:
    form = "visits:MOVE>=K"
    if text is None or ">=" not in text:
        raise BreakpointError(f"visits needs a move and a count: {form}")
    move_text, _, count = text.rpartition(">=")
    count = count.strip()
    if not re.fullmatch(r"[0-9]+", count):
        raise BreakpointError(f"{form}: K must be a whole number, got {count!r}")
    k = int(count)
    if not 1 <= k <= MAX_VISITS:
        raise BreakpointError(f"{form}: K must be in [1, {MAX_VISITS:,}], got {k:,}")
    return _move(move_text, game, state), k


def _visits(search: SearchView, argument: tuple[RootMove, int], context: Context) -> Probe:
    move, k = argument

    def probe() -> str | None:
        child = _child(search, move.action)
        if child is None or child.visits < k:
            return None
        return f"{move.label} reached {child.visits:,} visits (>= {k:,})"

    return probe


def _q_sign_flips(search: SearchView, move: RootMove, context: Context) -> Probe:
    player = search.root.player
    value_range = search.config.value_range

    def signed_mean() -> float | None:
        child = _child(search, move.action)
        if child is None or not child.visits:
            return None
        return signed_value(child.mean(player), value_range)

    def sign(value: float | None) -> int:
        return 0 if value is None else (value > 0) - (value < 0)

    last = sign(signed_mean())  # the last sign that was not 0

    def probe() -> str | None:
        nonlocal last
        mean = signed_mean()
        now = sign(mean)
        if now == 0:
            return None
        before, last = last, now
        if before == 0 or before == now:
            return None
        return (
            f"{move.label}'s mean value turned {'positive' if now > 0 else 'negative'}: "
            f"{mean:+.6f} for the player to move"
        )

    return probe


#: Every condition, by name.
BREAKPOINTS: dict[str, BreakpointKind] = {
    kind.name: kind
    for kind in (
        BreakpointKind(
            "favourite-changes",
            "",
            _no_argument("favourite-changes"),
            _favourite_changes,
            "another root move gets strictly more visits than the most-visited one (a tie "
            "keeps the favourite)",
        ),
        BreakpointKind(
            "proven",
            "[:MOVE]",
            _parse_proven,
            _proven,
            "the solver proves the root, or with :MOVE that root move (needs --solver)",
            needs_solver=True,
        ),
        BreakpointKind(
            "regret-zero",
            "",
            _no_argument("regret-zero"),
            _regret_zero,
            "the most-visited root move is a best move by exact value (solved first, within "
            "--exact-seconds)",
            needs_exact=True,
        ),
        BreakpointKind(
            "anomaly",
            "",
            _no_argument("anomaly"),
            _anomaly,
            "one of inspect's checks fires on the tree (every check that needs no iteration "
            "records, after every iteration; only the nodes the iteration changed are re-checked)",
            needs_records=True,
        ),
        BreakpointKind(
            "visits",
            ":MOVE>=K",
            _parse_visits,
            _visits,
            "the root move MOVE has at least K visits",
        ),
        BreakpointKind(
            "q-sign-flips",
            ":MOVE",
            _needs_move("q-sign-flips", "q-sign-flips:MOVE"),
            _q_sign_flips,
            "the mean value of the root move MOVE changes sign (from the root mover's view)",
        ),
    )
}


def parse_condition(text: str, game: MovesView, state: State) -> Condition:
    """``NAME`` or ``NAME:ARGUMENT`` checked against the game and the searched position."""
    name, colon, argument = text.strip().partition(":")
    kind = BREAKPOINTS.get(name.strip())
    if kind is None:
        names = ", ".join(k.syntax for k in BREAKPOINTS.values())
        raise BreakpointError(f"unknown condition {name.strip()!r}; the conditions: {names}")
    return Condition(text, kind, kind.parse(argument if colon else None, game, state))


class BreakpointStop:
    """The ``should_stop`` of a run with breakpoints: True after the first iteration where
    a condition holds. ``held`` is that condition, ``reason`` its words and ``iteration`` the
    search's iteration count then (``None`` until one holds)."""

    def __init__(self, probes: list[tuple[Condition, Probe]], search: Search) -> None:
        self._probes = probes
        self._search = search
        self.held: Condition | None = None
        self.reason: str | None = None
        self.iteration: int | None = None

    def __call__(self) -> bool:
        found: tuple[Condition, str] | None = None
        for condition, probe in self._probes:  # every probe sees every iteration
            words = probe()
            if words is not None and found is None:
                found = (condition, words)
        if found is None:
            return False
        self.held, self.reason = found
        self.iteration = self._search.iterations
        return True


def breakpoint_stop(
    conditions: list[Condition], search: Search, context: Context | None = None
) -> BreakpointStop:
    """The ``should_stop`` for ``conditions`` over ``search`` (any condition holding stops).
    A condition that cannot hold in this search raises :class:`BreakpointError`."""
    context = context or Context()
    probes = [(c, make_probe(c, search, context)) for c in conditions]
    return BreakpointStop(probes, search)


def make_probe(condition: Condition, search: SearchView, context: Context) -> Probe:
    """``condition``'s probe over ``search``; a condition that needs the solver raises
    :class:`BreakpointError` when the search has none (nothing is ever proven there)."""
    kind = condition.kind
    if kind.needs_solver and not search.config.solver:
        raise BreakpointError(f"{kind.name} needs --solver: without the solver nothing is proven")
    return kind.make(search, condition.argument, context)
