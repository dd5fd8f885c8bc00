"""The games' own words in the current language: a move's or a dice outcome's label as
``games/`` writes it (English, stable: the CLI and the traces use it) turned into the page's
language where it is SHOWN (pure: no Streamlit; docs/translations.md).

:func:`shown` knows each label shape of the built-in games by a regular expression with named
groups, mapped to a message with the same named placeholders: "take 3 from heap 1" is
``_("take {count} from heap {heap}", count="3", heap="1")``. Numbers, squares ("(3,2)",
"3,2"), player tokens ("H1", "A2") and cells ("a1") stay as they are. A label of an unknown
shape (OpenSpiel's, a file's) comes back unchanged, and in English every label does.

Never use :func:`shown` on a label that is a value or a key (a quiz answer stored, a session
key, a trace field): only on the text a user reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from app.words.i18n import N_, SOURCE, _, current_tag

_PLAYER = r"[HA]\d+"
_SQUARE = r"\(\d+,\d+\)"  # a full label's square: "(3,2)"
_BARE = r"\d+,\d+"  # a short label's square: "3,2"

#: Block dice faces (the full outcome label's words).
_BLOCK_FACES = {
    # TRANSLATORS: gridiron's block dice face: the attacking player falls
    "attacker down": N_("block: attacker down"),
    # TRANSLATORS: gridiron's block dice face: both players fall
    "both down": N_("block: both down"),
    # TRANSLATORS: gridiron's block dice face: the defender is pushed back one square
    "push": N_("block: push"),
    # TRANSLATORS: gridiron's block dice face: the defending player falls
    "defender down": N_("block: defender down"),
}
#: Block dice faces in a tree box (about 9 characters, ↓ = falls).
_SHORT_FACES = {
    # TRANSLATORS: gridiron, a tree box (about 9 characters): the attacker falls (↓)
    "att↓": N_("att↓"),
    # TRANSLATORS: gridiron, a tree box (about 9 characters): both players fall (↓)
    "both↓": N_("both↓"),
    # TRANSLATORS: gridiron, a tree box (about 9 characters): the defender is pushed back
    "push": N_("push"),
    # TRANSLATORS: gridiron, a tree box (about 9 characters): the defender falls (↓)
    "def↓": N_("def↓"),
}

#: Every whole label shape -> its message (the message's placeholders are the groups' names).
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        # Nim
        (r"take (?P<count>\d+) from heap (?P<heap>\d+)", N_("take {count} from heap {heap}")),
        # TRANSLATORS: Nim, a tree box (about 9 characters): take {count} from heap number {heap}
        (r"(?P<count>\d+) from h(?P<heap>\d+)", N_("{count} from h{heap}")),
        # Connect Four
        # TRANSLATORS: Connect Four, a move: drop a disc in column {column}
        (r"col (?P<column>\d+)", N_("col {column}")),
        # gridiron's moves
        # TRANSLATORS: gridiron, the move that starts a half: the kick-off
        (r"kick-off", N_("kick-off")),
        # TRANSLATORS: gridiron, the move that ends the team's turn
        (r"end turn", N_("end turn")),
        # TRANSLATORS: gridiron, {player} (H1, A2) is chosen to act now
        (rf"(?P<player>{_PLAYER}) acts", N_("{player} acts")),
        # TRANSLATORS: gridiron, {player} (H1, A2) stops acting (ends its activation)
        (rf"(?P<player>{_PLAYER}) stops", N_("{player} stops")),
        # TRANSLATORS: gridiron, {player} blocks (tackles) the opponent {target}
        (rf"(?P<player>{_PLAYER}) block (?P<target>{_PLAYER})", N_("{player} block {target}")),
        # TRANSLATORS: gridiron, {player} moves to the square {square}, written "(3,2)"
        (rf"(?P<player>{_PLAYER}) move to (?P<square>{_SQUARE})", N_("{player} move to {square}")),
        (
            rf"(?P<player>{_PLAYER}) dodge to (?P<square>{_SQUARE})",
            # TRANSLATORS: gridiron, {player} dodges out of a tackle zone to the square {square}
            N_("{player} dodge to {square}"),
        ),
        (
            rf"(?P<player>{_PLAYER}) pick up at (?P<square>{_SQUARE})",
            # TRANSLATORS: gridiron, {player} moves to {square} and picks the ball up there
            N_("{player} pick up at {square}"),
        ),
        (
            rf"(?P<player>{_PLAYER}) dodge and pick up at (?P<square>{_SQUARE})",
            # TRANSLATORS: gridiron, {player} dodges to {square} and picks the ball up there
            N_("{player} dodge and pick up at {square}"),
        ),
        # gridiron's moves in a tree box (about 9 characters)
        # TRANSLATORS: gridiron, a tree box (about 9 characters): block the opponent {target}
        (rf"block (?P<target>{_PLAYER})", N_("block {target}")),
        # TRANSLATORS: gridiron, a tree box (about 9 characters): dodge to the square {square}
        (rf"dodge (?P<square>{_BARE})", N_("dodge {square}")),
        # TRANSLATORS: gridiron, a tree box (about 9 characters): pick the ball up at {square}
        (rf"pick (?P<square>{_BARE})", N_("pick {square}")),
        # TRANSLATORS: gridiron, a tree box (about 9 characters): move to the square {square}
        (rf"to (?P<square>{_BARE})", N_("to {square}")),
        # gridiron's dice outcomes in a tree box (about 9 characters)
        # TRANSLATORS: gridiron, a tree box (about 9 characters): the kicked ball lands on {square}
        (rf"on (?P<square>{_BARE})", N_("on {square}")),
        # TRANSLATORS: gridiron, a tree box (about 9 characters): the outcome scores
        (r"touchdown", N_("touchdown")),
        # TRANSLATORS: gridiron, a tree box (about 9 characters): the player fell (failed a dodge)
        (r"fell", N_("fell")),
        # TRANSLATORS: gridiron, a tree box (about 9 characters): fell; the ball bounced to {square}
        (rf"fell (?P<square>{_BARE})", N_("fell {square}")),
        # TRANSLATORS: gridiron, a tree box (about 9 characters): the pick-up failed
        (r"drop", N_("drop")),
        # TRANSLATORS: gridiron, a tree box (about 9 characters): dropped, ball at {square}
        (rf"drop (?P<square>{_BARE})", N_("drop {square}")),
        # TRANSLATORS: gridiron, a tree box (about 9 characters): the dodge roll succeeded
        (r"dodge ok", N_("dodge ok")),
    )
)

#: The parts of a full outcome label (joined by ", ").
_PARTS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        # TRANSLATORS: gridiron's dice: the kicked ball lands on the square {square}, "(1,2)"
        (rf"ball lands on (?P<square>{_SQUARE})", N_("ball lands on {square}")),
        # TRANSLATORS: gridiron's dice: the dodge roll (needing {target} or more) succeeded
        (r"dodge (?P<target>\d+)\+ ok", N_("dodge {target}+ ok")),
        # TRANSLATORS: gridiron's dice: the dodge roll (needing {target} or more) failed
        (r"dodge (?P<target>\d+)\+ failed", N_("dodge {target}+ failed")),
        # TRANSLATORS: gridiron's dice: picking the ball up succeeded
        (r"pickup ok", N_("pickup ok")),
        # TRANSLATORS: gridiron's dice: picking the ball up failed
        (r"pickup failed", N_("pickup failed")),
        # TRANSLATORS: gridiron's dice: the loose ball bounces to the square {square}, "(1,2)"
        (rf"ball scatters to (?P<square>{_SQUARE})", N_("ball scatters to {square}")),
        # TRANSLATORS: gridiron's dice: the outcome scores for the home team
        (r"home touchdown", N_("home touchdown")),
        # TRANSLATORS: gridiron's dice: the outcome scores for the away team
        (r"away touchdown", N_("away touchdown")),
    )
)

_BLOCK = re.compile(r"block: (?P<face>attacker down|both down|push|defender down)")
_SHORT_BLOCK = re.compile(rf"(?P<face>att↓|both↓|push|def↓)(?: (?P<square>{_BARE}))?")


def _one(text: str, shapes: tuple[tuple[re.Pattern[str], str], ...]) -> str | None:
    for pattern, message in shapes:
        match = pattern.fullmatch(text)
        if match is not None:
            return _(message, **match.groupdict())
    return None


def _part(text: str) -> str | None:
    """One part of a full outcome label in the current language, or None when unknown."""
    block = _BLOCK.fullmatch(text)
    if block is not None:
        return _(_BLOCK_FACES[block["face"]])
    return _one(text, _PARTS)


def _short_block(text: str) -> str | None:
    match = _SHORT_BLOCK.fullmatch(text)
    if match is None:
        return None
    face = _(_SHORT_FACES[match["face"]])
    if match["square"] is None:
        return face
    # TRANSLATORS: gridiron, a tree box: a block's dice face ({result}: att↓, push) and the
    # square {square} the ball bounced to
    return _("{result} {square}", result=face, square=match["square"])


def _outcome(text: str) -> str | None:
    """A full outcome label ("dodge 3+ ok, pickup ok, home touchdown"): each part translated,
    joined by a message (the list's separator is the language's), or None if a part is unknown."""
    parts = text.split(", ")
    words = [_part(p) for p in parts]
    if any(w is None for w in words):
        return None
    joined = str(words[0])
    for word in words[1:]:
        # TRANSLATORS: gridiron's dice: outcomes of one roll listed ("dodge 3+ ok, pickup ok")
        joined = _("{outcomes}, {outcome}", outcomes=joined, outcome=word)
    return joined


_WAYS: tuple[Callable[[str], str | None], ...] = (
    lambda t: _one(t, _SHAPES),
    _short_block,
    _outcome,
)


def shown(label: str) -> str:
    """A game's English move or outcome label in the current language ("take 3 from heap 1" ->
    "toma 3 del montón 1" in Spanish); a label of an unknown shape comes back unchanged, and in
    English every label does."""
    if not label or current_tag() == SOURCE:
        return label  # English is the games' own words: no pattern to try (every rerun)
    for way in _WAYS:
        words = way(label)
        if words is not None:
            return words
    return label


def move_label(game: Any, state: object, action: object) -> str:
    """The label of ``action`` in ``state`` as a user reads it: the game's own label (English,
    ``games/``) in the current language. The one way every tab names a move (the Board's most
    visited line, Why this path's move column, the Charts legend, Play, the narration)."""
    return shown(str(game.action_label(state, action)))


#: A line of a game's board text that starts with a heap's name (Nim's ``render``).
_HEAP_LINE = re.compile(r"^heap (?P<heap>\d+):", re.MULTILINE)


def board_shown(text: str) -> str:
    """A game's board text (its ``render``: Nim's "heap 1: |||  3") with the game's words in
    the current language; the drawing's characters and numbers stay."""
    if current_tag() == SOURCE:
        return text
    # TRANSLATORS: Nim's board text: the name of heap number {heap} before its counters
    return _HEAP_LINE.sub(lambda m: _("heap {heap}:", heap=m.group("heap")), text)
