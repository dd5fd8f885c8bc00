"""Words the screen shows that live outside ``app/`` (``games/``, ``mcts_lab/``, ``mcts_core/``:
the library and the CLI stay English), marked here for the catalogue so that the screen's
``_(text)`` finds a translation. ``tests/app/screen/test_screen_i18n.py`` checks these lists against
those packages: a game's new label or a new breakpoint lands here (or the test fails)."""

from __future__ import annotations

from app.words.i18n import N_

#: Each registered game's name (``GameSpec.label``; OpenSpiel's are its own).
GAME_LABELS: tuple[str, ...] = (
    N_("Tic-tac-toe"),
    N_("Connect Four"),
    N_("Gridiron"),
    N_("Nim"),
)

#: The players' names that are words (``GameSpec.player_names``; X and O are marks, the same
#: in every language), translated where the app reads them (``app.live.session.player_names``).
PLAYER_NAMES: tuple[str, ...] = (
    # TRANSLATORS: gridiron's two teams
    N_("Home"),
    N_("Away"),
    # TRANSLATORS: Nim's two players, the one who moves first and the other
    N_("First"),
    N_("Second"),
)

#: The games' options (``GameSpec.options``: gridiron's size and heuristic weights).
GAME_OPTION_LABELS: tuple[str, ...] = (
    N_("Size"),
    N_("Score"),
    N_("Ball possession"),
    N_("Carrier's closeness to scoring"),
    N_("Players down"),
)

#: Each game's help for the Root position box (``GameSpec.position_help``).
POSITION_HELPS: tuple[str, ...] = (
    N_("the game's position string; empty: the start"),
    N_("9 cells row by row from the top left: X, O or '.', e.g. X.O.X...."),
    N_("the columns played, 1-7, in order, e.g. 4453 (empty: start)"),
    N_("a gridiron position string (see docs/gridiron.md); empty: kick-off"),
    N_("the heaps joined by '-', '/', the player to move: 3-4-5/0 (empty: start)"),
    N_("OpenSpiel action ids played so far, joined by commas, e.g. 4,4,3 (empty: start)"),
)

#: The presets' one-line help (``mcts_lab.presets.PRESET_HELP``).
PRESET_HELPS: tuple[str, ...] = (
    N_(
        "the botbowl tutorial's search: UCB1 with Cp 0.707, values in [0, 1], listed "
        "expansion, random rollout to the end of the turn"
    ),
    N_("the strongest settings measured for the game (solver on; see docs/search.md)"),
)

#: Each Run until condition's meaning (``mcts_lab.breakpoints.conditions.BREAKPOINTS``' docs).
BREAKPOINT_DOCS: tuple[str, ...] = (
    N_(
        "another root move gets strictly more visits than the most-visited one (a tie "
        "keeps the favourite)"
    ),
    N_("the solver proves the root, or with :MOVE that root move (needs --solver)"),
    N_(
        "the most-visited root move is a best move by exact value (solved first, within "
        "--exact-seconds)"
    ),
    N_(
        "one of inspect's checks fires on the tree (every check that needs no iteration "
        "records, after every iteration; only the nodes the iteration changed are "
        "re-checked)"
    ),
    N_("the root move MOVE has at least K visits"),
    N_("the mean value of the root move MOVE changes sign (from the root mover's view)"),
)

#: The tree policies' names that are words (``TreePolicy.label``).
POLICY_LABELS: tuple[str, ...] = (N_("UCB1 (botbowl tutorial)"),)

#: Why A and B went out of sync (``mcts_lab.compare.records.SYNC_TEXT``).
SYNC_TEXTS: tuple[str, ...] = (
    N_("their paths differed"),
    N_("they drew different random numbers, e.g. different rollouts"),
    N_("the same leaf was valued differently, e.g. by shaping"),
    N_("the solver proved a node in one search only"),
)

#: The phases' names (``mcts_core.phases.Phase.label``: on the Phase button, in links' ``phase``).
# TRANSLATORS: the four phases of an MCTS iteration, as on the Phase button ("Phase: select")
PHASE_LABELS: tuple[str, ...] = (
    N_("select"),
    N_("expand"),
    N_("simulate"),
    N_("backpropagate"),
)
