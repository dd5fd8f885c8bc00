"""What a lesson page claims, and the check of a claim against a run of the page.

A page's ``[page.expect]`` table states what its text promises (docs/lessons.md, "Claims"): a few
claim types, each a key with a value of a fixed shape, read and checked by
``app/lessons/reading.py`` like the rest of the file. ``tests/app/lessons/test_lessons.py`` opens
every page, runs its presses through the app (the same callbacks the buttons and the clicker run)
and hands each claim the run (:class:`PageRun`); :func:`failures` says, in a sentence each, which
claims the run contradicts. Claims about best play are checked against exact minimax
(:func:`mcts_lab.exact.exact_values`), never against the search's own numbers.

Pure Python (no Streamlit): the run is a record the caller fills in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from mcts_core import IterationTrace, Search
from mcts_core.game import State
from mcts_lab.exact import VALUE_TOLERANCE, exact_values

__all__ = [
    "AFTER_PRESSES",
    "ARENA_SIDES",
    "CLAIM_KEYS",
    "ONCE_SET_UP",
    "TAKEN",
    "PageRun",
    "failures",
]

#: Claims about the tree once the page is set up (before its presses), value: move labels
#: (one, or several separated by commas).
#: ``favourite``: the root's favourite (the final-move rule's pick).
#: ``proven``: the root moves the solver has proven (any result), in the tree's order.
#: ``lost``: the root moves that carry a loss badge (proven lost for the player to move).
#: ``best``: the root's truly best moves by exact minimax, in the game's order.
ONCE_SET_UP = ("favourite", "proven", "lost", "best")
#: Claims about what the page's presses did.
#: ``answer`` (a label): one of the right answers of the page's question.
#: ``taken`` (a list of :data:`TAKEN`): what the move the question's selection took is.
#: ``arena`` (one of :data:`ARENA_SIDES`): the side MCTS won more arena games on.
#: ``says`` (a list of texts): texts the screen shows after the presses (English).
AFTER_PRESSES = ("answer", "taken", "arena", "says")
CLAIM_KEYS = ONCE_SET_UP + AFTER_PRESSES
#: What a ``taken`` claim may say of the move selection took at the question's node:
#: "best": a truly best move for the player choosing there (exact minimax);
#: "highest Q": the highest Q among that node's moves (the move that looks best to that player).
TAKEN = ("best", "highest Q")
#: An ``arena`` claim: MCTS won more games as home, more as away, or as many.
ARENA_SIDES = ("home", "away", "even")
#: Time the exact values of one position may take in a check (tic-tac-toe: milliseconds).
EXACT_SECONDS = 20.0

Side = Literal["home", "away", "even"]  # (an ``arena`` claim's value)

#: A claim's value as read: text, or texts for ``taken`` and ``says``.
Claim = str | tuple[str, ...]


@dataclass(frozen=True)
class PageRun:
    """One page as the app ran it.

    Attributes:
        set_up: the search right after the page's set-up, before its presses (``None``: not
            looked at, or the page has no set-up); read before the presses change it.
        favourite, children: the root's favourite and its moves (label, proven result for the
            player to move or ``None``) at that moment.
        search: the live search after the presses.
        trace: the newest iteration's trace after the presses (``None``: none ran).
        depth: the page's select question's depth (0: the root).
        correct: the right answers of the page's question after the presses (empty: none).
        arena: (home wins, away wins) of the page's arena run, or ``None``.
        shown: every text on the screen after the presses, whitespace collapsed.
    """

    set_up: Search | None = None
    favourite: str = ""
    children: tuple[tuple[str, str | None], ...] = ()
    search: Search | None = None
    trace: IterationTrace | None = None
    depth: int = 0
    correct: tuple[str, ...] = ()
    arena: tuple[int, int] | None = None
    shown: str = ""


def labels(value: str) -> list[str]:
    """A claim's move labels: "a1, b2, a3" -> ["a1", "b2", "a3"]."""
    return [part.strip() for part in value.split(",") if part.strip()]


def failures(claims: Mapping[str, Claim], run: PageRun, when: str) -> list[str]:
    """The claims of ``when`` ("set up": :data:`ONCE_SET_UP`, "after": :data:`AFTER_PRESSES`)
    that ``run`` contradicts, one sentence each (empty: every claim holds)."""
    keys = ONCE_SET_UP if when == "set up" else AFTER_PRESSES
    found: list[str] = []
    for key in keys:
        if key in claims:
            wrong = _CHECKS[key](claims[key], run)
            if wrong:
                found.append(f"{key} = {claims[key]!r}: {wrong}")
    return found


def _favourite(value: str, run: PageRun) -> str:
    return "" if run.favourite == value else f"the favourite is {run.favourite}"


def _proven(value: str, run: PageRun) -> str:
    proven = [label for label, result in run.children if result is not None]
    return "" if proven == labels(value) else f"the proven moves are {', '.join(proven) or 'none'}"


def _lost(value: str, run: PageRun) -> str:
    lost = [label for label, result in run.children if result == "loss"]
    return "" if lost == labels(value) else f"the loss badges are on {', '.join(lost) or 'none'}"


def _exact_best(search: Search, state: State) -> list[str]:
    """The moves at ``state`` that are best for its player to move, by exact minimax."""
    game = search.game
    values = exact_values(game, state, seconds=EXACT_SECONDS)
    if any(v is None for v in values.values()):
        raise AssertionError(f"the exact values of {game.format_state(state)!r} took too long")
    top = max(v for v in values.values() if v is not None)
    return [
        game.action_label(state, action)
        for action, v in values.items()
        if v is not None and v >= top - VALUE_TOLERANCE
    ]


def _best(value: str, run: PageRun) -> str:
    assert run.set_up is not None, "a best claim needs the set-up search"
    best = _exact_best(run.set_up, run.set_up.root_state)
    return "" if best == labels(value) else f"the exact best moves are {', '.join(best)}"


def _answer(value: str, run: PageRun) -> str:
    return "" if value in run.correct else f"the right answer is {', '.join(run.correct) or 'none'}"


def _taken(value: Sequence[str], run: PageRun) -> str:
    search, trace = run.search, run.trace
    if search is None or trace is None or len(trace.decisions) <= run.depth:
        return f"no selection at depth {run.depth} ran"
    decision = trace.decisions[run.depth]
    chosen = decision.chosen_terms
    said: list[str] = []
    if "highest Q" in value:
        top = max(t.q for t in decision.children)
        if chosen.q < top - VALUE_TOLERANCE:
            said.append(f"{chosen.label} has Q {chosen.q:+.3f}, the highest is {top:+.3f}")
    if "best" in value:
        node = search.find_node(decision.node_id)
        assert node is not None, decision.node_id  # (the trace is the live tree's)
        state = search.state_of(node)
        best = _exact_best(search, state)
        if chosen.label not in best:
            said.append(f"{chosen.label} is not best (exact: {', '.join(best)})")
    return "; ".join(said)


def _arena(value: Side, run: PageRun) -> str:
    if run.arena is None:
        return "no arena ran"
    home, away = run.arena
    side = "home" if home > away else "away" if away > home else "even"
    return "" if side == value else f"MCTS won {home} games at home and {away} away"


def _says(value: Sequence[str], run: PageRun) -> str:
    missing = [text for text in value if " ".join(text.split()) not in run.shown]
    return "" if not missing else "the screen does not show " + ", ".join(map(repr, missing))


_CHECKS: dict[str, Any] = {
    "favourite": _favourite,
    "proven": _proven,
    "lost": _lost,
    "best": _best,
    "answer": _answer,
    "taken": _taken,
    "arena": _arena,
    "says": _says,
}
