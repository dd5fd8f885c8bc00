"""The session's cache of exact answers (solved once per game and root position) and the
verdict on a history entry's favourite."""

from __future__ import annotations

import streamlit as st

from app.live.session import HistoryEntry, session
from app.words import exact

#: Root positions whose exact answers a session keeps (one per position played, at most).
EXACT_CACHE = 32


def exact_answer(position: str | None = None) -> exact.ExactAnswer | None:
    """The exact values of the root's moves at ``position`` (default: the current root), or
    ``None`` when the ``exact`` toggle is off or the game is over there.

    Worked out once per game and position within ``app.words.exact.EXACT_SECONDS`` and kept in the
    session, so only the first view that shows them after a new root pays; a Step click after
    that pays a dictionary lookup. Views call this as they draw, never a callback.
    """
    if not st.session_state["exact"]:
        return None
    return solved_exact(exact.EXACT_SECONDS, position)


def solved_exact(seconds: float, position: str | None = None) -> exact.ExactAnswer | None:
    """The exact answer at ``position`` (default: the current root) within ``seconds``, or
    ``None`` when the game is over there; whatever the ``exact`` toggle says (the quiz asks
    too). One cache per session for every caller: a kept answer serves a request whose budget
    is no larger than its own, or any request once every move is solved."""
    lab = session()
    search = lab.search
    game = search.game
    position = lab.position if position is None else position
    key = (game.name, position)
    answer = lab.exact.get(key)
    if answer is not None and (answer.seconds >= seconds or None not in answer.values.values()):
        return answer
    root = search.root_state if position == lab.position else game.parse_state(position)
    if game.is_terminal(root):
        return None
    labels = {a: str(game.action_label(root, a)) for a in game.legal_actions(root)}
    answer = exact.solve(game, root, labels, seconds)
    if len(lab.exact) >= EXACT_CACHE:
        lab.exact.clear()
    lab.exact[key] = answer
    return answer


def exact_verdict(entry: HistoryEntry | None) -> str | None:
    """The sentence that says the search's favourite is wrong at the entry shown (``None``
    when ``exact`` is off, the favourite is a best move, or it is not known). The newest entry
    reads the live favourite (the toggle may have gone on since it was written)."""
    if entry is None or not st.session_state["exact"]:
        return None
    lab = session()
    search = lab.search
    favourite = entry.favourite
    if entry.number == lab.entries_written and entry.position == lab.position:
        favourite = search.best_action() if search.root.children else None
    if favourite is None:
        return None
    answer = exact_answer(entry.position)
    return None if answer is None else exact.verdict(answer, favourite)
