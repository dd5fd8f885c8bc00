"""Board pictures (SVG strings) with the search's statistics on top, one view per kind of board.

A view takes the game, a state, ``stats`` ({action: (visit share, Q)} for the moves at the
root, Q from the mover's view) and ``pv`` (the principal variation's decisions from this state:
(player, action) pairs, first the move now) and returns an SVG string. The PV is drawn as
numbered discs in the colour of the player who makes that move, as engine GUIs do. With
``exact`` (an :class:`app.words.exact.ExactAnswer`, the ``exact`` toggle) each move also shows its
exact value ("= win", green where it is a best move), and ``favourite`` (the search's current
choice) gets a red outline when perfect play says it is worse than a best move.

A game names its view in its registration (``GameSpec.board_view``, :mod:`games.registry`);
``BOARDS`` maps view names to views and ``LEGENDS`` says in words what each picture's marks
mean. A game without a view is shown by the generic one: its ``render`` text (else its position
string) and a table of the root's moves (:func:`board_text`, :func:`stats_rows`). The play
buttons' layout comes from the registration too (``GameSpec.buttons``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.drawing.palette import BLUE, CLASS, RED, RIGHT, YELLOW
from app.drawing.tree_model import Heat
from app.words.exact import ExactAnswer
from app.words.game_words import shown
from app.words.i18n import N_, _, fixed, percent
from games.registry import game_spec
from mcts_core.game import Action

__all__ = [
    "BOARDS",
    "board_svg",
    "board_legend",
    "board_text",
    "LEGENDS",
    "tic_tac_toe_svg",
    "connect_four_svg",
    "gridiron_svg",
    "button_layout",
    "button_label",
    "stats_rows",
    "EXACT_LEGEND",
]

Stats = dict[Action, tuple[float, float]]
#: The class's answers per root move (``class_heat``: app/drawing/tree_heat.py).
ClassHeat = Mapping[Action, Heat]
Line = Sequence[tuple[int, Any]]  # the PV's decisions: (player who moves, action)
PV_LENGTH = 6  # numbered discs on a board: more would hide the statistics under them

_X = BLUE.strong  # the players' colours: app/drawing/palette.py (the tree's boxes use the same)
_O = RED.strong
_YELLOW = YELLOW.stone  # Connect Four's X stones
_BEST = "#15803d"  # an exact value that is a best move's
_WORSE = "#b91c1c"  # an exact value worse than the best, and the wrong favourite's outline
_UNKNOWN = "#6b7280"
_MARK = "#ef4444"  # the wrong favourite's outline: bright, to stand out on a blue board too


def _open(width: int, height: int) -> str:
    """An <svg> of its natural size (shown as an image, scaled down to its column if needed)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">'
    )


def _heat(share: float) -> str:
    """A grey whose strength shows the visit share (0..1): neutral, because every colour of
    the app means one thing (orange is the tree's last path; app/drawing/palette.py)."""
    alpha = 0.06 + 0.44 * max(0.0, min(1.0, share))
    return f"rgba(100,116,139,{alpha:.2f})"


def _pv_disc(x: float, y: float, number: int, colour: str, r: float = 10) -> str:
    """A numbered disc: the ``number``-th move of the principal variation, in its player's
    colour."""
    return (
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}" stroke="#ffffff" '
        f'stroke-width="2"/><text x="{x}" y="{y + r * 0.42}" font-size="{r * 1.2:.0f}" '
        f'text-anchor="middle" fill="#ffffff" font-weight="bold">{number}</text>'
    )


def _exact_colour(exact: ExactAnswer, action: Action) -> str:
    if exact.values.get(action) is None or exact.best is None:
        return _UNKNOWN
    return _BEST if exact.is_best(action) else _WORSE


def _exact_text(x: float, y: float, exact: ExactAnswer, action: Action, size: int) -> str:
    """A move's exact value ("= win"), green for a best move, red for a worse one."""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="middle" font-weight="bold" '
        # TRANSLATORS: under a move on the board: its exact value, "= win"
        f'fill="{_exact_colour(exact, action)}">{_escape(_("= {value}", value=exact.text(action)))}'
        "</text>"
    )


def _wrong(exact: ExactAnswer | None, favourite: Action) -> bool:
    return exact is not None and favourite is not None and exact.wrong(favourite)


def _class_mark(x: float, y: float, width: float, heat: Heat) -> str:
    """The class's answers on a move (``class_heat``): a teal bar as long as its share of the
    class over ``width``, the count in a badge at its left end and, after the reveal, a ✓ for
    a right move: the number and the mark say it, not the colour alone. Nothing for a move
    nobody chose (unless it was right)."""
    if heat.count == 0 and not heat.right:
        return ""  # nobody chose it: nothing to read (as on the tree)
    bar = max(0.0, min(1.0, heat.share)) * (width - 26)
    parts = [
        f'<rect x="{x + 24}" y="{y - 4}" width="{bar:.1f}" height="8" rx="2" fill="{CLASS}" '
        f'class="class-heat-bar"/>',
        f'<rect x="{x}" y="{y - 9}" width="22" height="18" rx="9" fill="{CLASS}" '
        'stroke="#ffffff" stroke-width="1.5"/>',
        f'<text x="{x + 11}" y="{y + 4.5}" font-size="12" font-weight="bold" '
        f'text-anchor="middle" fill="#ffffff" class="class-heat-count">{heat.count}</text>',
    ]
    if heat.right:
        parts.append(
            f'<text x="{x + width - 4}" y="{y + 6}" font-size="16" font-weight="bold" '
            f'text-anchor="end" fill="{RIGHT}" class="class-heat-right">✓</text>'
        )
    return "".join(parts)


def _right_ring(x: float, y: float, width: float, height: float) -> str:
    """A revealed right move's ring (with its ✓: :func:`_class_mark`)."""
    return (
        f'<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="4" fill="none" '
        f'stroke="{RIGHT}" stroke-width="4" class="class-heat-ring"/>'
    )


def _outline(x: float, y: float, width: float, height: float) -> str:
    """The wrong favourite's mark: a thick red outline on a white halo (seen on any board)."""
    box = f'x="{x}" y="{y}" width="{width}" height="{height}" fill="none" rx="3"'
    return (
        f'<rect {box} stroke="#ffffff" stroke-width="8"/>'
        f'<rect {box} class="exact-wrong" stroke="{_MARK}" stroke-width="5"/>'
    )


def tic_tac_toe_svg(
    game: Any,
    state: object,
    stats: Stats,
    pv: Line = (),
    *,
    exact: ExactAnswer | None = None,
    favourite: Action | None = None,
    heat: ClassHeat | None = None,
) -> str:
    """3x3 board; every empty cell with a move shows its visit share and Q (and its exact value);
    the PV's cells carry their move numbers; ``heat``: the class's answers on each move's cell
    (:func:`_class_mark` along its foot)."""
    size = 90
    lift = 4 if exact is not None else 0  # room for the exact value's line
    wrong = _wrong(exact, favourite)
    parts = [_open(3 * size, 3 * size)]
    board = game.format_state(state)
    for cell in range(9):
        x, y = (cell % 3) * size, (cell // 3) * size
        fill = "#ffffff"
        if cell in stats:
            fill = _heat(stats[cell][0])
        parts.append(
            f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}" '
            'stroke="#374151" stroke-width="2"/>'
        )
        if wrong and cell == favourite:  # under the texts: the cell's name stays readable
            parts.append(_outline(x + 4, y + 4, size - 8, size - 8))
        mark = board[cell]
        if mark != ".":
            colour = _X if mark == "X" else _O
            parts.append(
                f'<text x="{x + size / 2}" y="{y + size / 2 + 18}" font-size="52" '
                f'text-anchor="middle" fill="{colour}" font-weight="bold">{mark}</text>'
            )
        elif cell in stats:
            share, q = stats[cell]
            parts.append(
                f'<text x="{x + size / 2}" y="{y + 38 - lift}" font-size="20" '
                f'text-anchor="middle" fill="#111827">{percent(share)}</text>'
            )
            parts.append(
                f'<text x="{x + size / 2}" y="{y + 62 - 2 * lift}" font-size="14" '
                f'text-anchor="middle" fill="#374151">Q {fixed(q, 2, signed=True)}</text>'
            )
        if mark == "." and exact is not None and cell in exact.values:
            parts.append(_exact_text(x + size / 2, y + 79, exact, cell, 14))
        parts.append(
            f'<text x="{x + 5}" y="{y + 14}" font-size="10" fill="#9ca3af">'
            f"{game.action_label(state, cell)}</text>"
        )
    for number, (player, cell) in enumerate(pv[:PV_LENGTH], start=1):
        x, y = (cell % 3) * size, (cell // 3) * size
        parts.append(_pv_disc(x + size - 14, y + 14, number, _X if player == 0 else _O))
    for tapped, mark in (heat or {}).items():
        if isinstance(tapped, int) and 0 <= tapped < 9:
            x, y = (tapped % 3) * size, (tapped // 3) * size
            if mark.right:
                parts.append(_right_ring(x + 3, y + 3, size - 6, size - 6))
            parts.append(_class_mark(x + 5, y + size - 12, size - 10, mark))
    parts.append("</svg>")
    return "".join(parts)


def connect_four_svg(
    game: Any,
    state: object,
    stats: Stats,
    pv: Line = (),
    *,
    exact: ExactAnswer | None = None,
    favourite: Action | None = None,
    heat: ClassHeat | None = None,
) -> str:
    """7x6 board; under each column the visit share and Q of dropping a stone there (and its
    exact value); the PV's stones where they would land, numbered; ``heat``: a row under that
    with the class's answers on each column (:func:`_class_mark`)."""
    cell = 52
    rows = game.render(state).splitlines()  # top row first
    n_rows, n_cols = len(rows), len(rows[0].split())
    below = 46 if exact is None else 64  # the shares' strip (one more line for exact values)
    strip = n_rows * cell + below  # where the class's row starts (``heat``)
    width, height = n_cols * cell, strip + (26 if heat else 0)
    parts = [
        _open(width, height),
        f'<rect x="0" y="0" width="{width}" height="{n_rows * cell}" fill="#1e3a8a" rx="6"/>',
    ]
    for r, line in enumerate(rows):
        for c, mark in enumerate(line.split()):
            colour = {"X": _YELLOW, "O": _O}.get(mark, "#ffffff")
            parts.append(
                f'<circle cx="{c * cell + cell / 2}" cy="{r * cell + cell / 2}" '
                f'r="{cell / 2 - 5}" fill="{colour}"/>'
            )
    filled = [sum(line.split()[c] != "." for line in rows) for c in range(n_cols)]
    for number, (player, column) in enumerate(pv[:PV_LENGTH], start=1):
        if filled[column] >= n_rows:
            break
        row = n_rows - 1 - filled[column]  # from the top, where the stone would land
        filled[column] += 1
        colour = YELLOW.strong if player == 0 else _O
        parts.append(
            _pv_disc(column * cell + cell / 2, row * cell + cell / 2, number, colour, r=14)
        )
    for c in range(n_cols):
        x = c * cell + cell / 2
        if c in stats:
            share, q = stats[c]
            parts.append(
                f'<rect x="{c * cell + 2}" y="{n_rows * cell + 2}" width="{cell - 4}" '
                f'height="{below - 4}" fill="{_heat(share)}" rx="4"/>'
            )
            parts.append(
                f'<text x="{x}" y="{n_rows * cell + 19}" font-size="14" '
                f'text-anchor="middle">{percent(share)}</text>'
            )
            parts.append(
                f'<text x="{x}" y="{n_rows * cell + 37}" font-size="11" '
                f'text-anchor="middle" fill="#374151">{fixed(q, 2, signed=True)}</text>'
            )
        if exact is not None and c in exact.values:
            parts.append(_exact_text(x, n_rows * cell + 56, exact, c, 12))
    if isinstance(favourite, int) and _wrong(exact, favourite):
        parts.append(_outline(favourite * cell + 4, 4, cell - 8, height - 8))
    for column, mark in (heat or {}).items():
        if isinstance(column, int) and 0 <= column < n_cols:
            if mark.right:
                parts.append(_right_ring(column * cell + 2, 2, cell - 4, height - 4))
            parts.append(_class_mark(column * cell + 3, strip + 13, cell - 6, mark))
    parts.append("</svg>")
    return "".join(parts)


def gridiron_svg(
    game: Any,
    state: object,
    stats: Stats,
    pv: Line = (),
    *,
    exact: ExactAnswer | None = None,
    favourite: Action | None = None,
    heat: ClassHeat | None = None,
) -> str:
    """The pitch (``heat`` is not drawn: a move here is several actions, the tree shows the
    class's answers): endzones shaded, tackle zones tinted (blue home, red away), players as
    numbered discs (hollow when down, faded when used), the ball, and for the root's move
    actions the visit share (and exact value) on the destination square. Other root actions
    are listed below."""
    cell = 44
    width, height = game.width * cell, game.height * cell
    notes = _non_move_stats(game, state, stats)
    wrong = _wrong(exact, favourite)
    parts = [_open(width, height + 18 * len(notes) + 6)]
    home_zone, away_zone = game.tackle_zones(state, 0), game.tackle_zones(state, 1)
    for x in range(game.width):
        for y in range(game.height):
            fill = "#dcfce7"
            if x in game.endzones:
                fill = "#bbf7d0" if x == 0 else "#bfdbfe"
            parts.append(
                f'<rect x="{x * cell}" y="{y * cell}" width="{cell}" height="{cell}" '
                f'fill="{fill}" stroke="#86efac"/>'
            )
            if (x, y) in home_zone:
                parts.append(
                    f'<rect x="{x * cell}" y="{y * cell}" width="{cell}" '
                    f'height="{cell}" fill="rgba(37,99,235,0.10)"/>'
                )
            if (x, y) in away_zone:
                parts.append(
                    f'<rect x="{x * cell}" y="{y * cell}" width="{cell}" '
                    f'height="{cell}" fill="rgba(220,38,38,0.10)"/>'
                )
    for action, (share, _q) in stats.items():
        if isinstance(action, tuple) and action[0] == "move":
            x, y = action[1], action[2]
            parts.append(
                f'<rect x="{x * cell + 2}" y="{y * cell + 2}" width="{cell - 4}" '
                f'height="{cell - 4}" fill="{_heat(share)}" rx="4"/>'
            )
            lift = 0 if exact is None else 6
            parts.append(
                f'<text x="{x * cell + cell / 2}" y="{y * cell + cell / 2 + 4 - lift}" '
                f'font-size="11" text-anchor="middle">{percent(share)}</text>'
            )
            if exact is not None:
                parts.append(
                    f'<text x="{x * cell + cell / 2}" y="{y * cell + cell / 2 + 14}" '
                    f'font-size="10" text-anchor="middle" font-weight="bold" '
                    f'fill="{_exact_colour(exact, action)}">{exact.text(action)}</text>'
                )
            if wrong and action == favourite:
                parts.append(_outline(x * cell + 4, y * cell + 4, cell - 8, cell - 8))
    bx, by, carrier = game.ball(state)
    for label, team, x, y, standing, used in game.players(state):
        colour = _X if team == 0 else _O
        cx, cy = x * cell + cell / 2, y * cell + cell / 2
        fill = colour if standing else "#ffffff"
        opacity = "0.55" if used and standing else "1"
        parts.append(
            f'<circle cx="{cx}" cy="{cy}" r="{cell / 2 - 6}" fill="{fill}" '
            f'stroke="{colour}" stroke-width="3" opacity="{opacity}"/>'
        )
        parts.append(
            f'<text x="{cx}" y="{cy + 4}" font-size="11" text-anchor="middle" '
            f'fill="{"#ffffff" if standing else colour}">{label}</text>'
        )
        if carrier == label:
            parts.append(
                f'<circle cx="{cx + 12}" cy="{cy - 12}" r="6" fill="#92400e" stroke="#fff"/>'
            )
    if bx >= 0 and carrier is None:
        parts.append(
            f'<ellipse cx="{bx * cell + cell / 2}" cy="{by * cell + cell / 2}" rx="8" '
            'ry="6" fill="#92400e" stroke="#fff" stroke-width="2"/>'
        )
    for number, (player, action) in enumerate(pv[:PV_LENGTH], start=1):
        if action[0] == "move":  # squares only: activations and blocks are in the PV text
            x, y = action[1] * cell + cell - 9, action[2] * cell + 9
            parts.append(_pv_disc(x, y, number, "#2563eb" if player == 0 else "#dc2626", r=8))
    for i, (action, label, share, q) in enumerate(notes):
        text = _(
            "{move}: {share} of visits, Q {q}",
            move=label, share=percent(share), q=fixed(q, 2, signed=True),
        )  # fmt: skip
        colour = "#111827"
        if exact is not None:
            text = _("{text}, exact {value}", text=text, value=exact.text(action))
        if wrong and action == favourite:
            text = _("✗ {text} (worse than the best)", text=text)
            colour = _WORSE
        parts.append(
            f'<text x="4" y="{height + 16 + 18 * i}" font-size="12" fill="{colour}">'
            f"{_escape(text)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _non_move_stats(game: Any, state: object, stats: Stats) -> list[tuple[Any, str, float, float]]:
    rows = [
        (a, shown(game.action_label(state, a)), s, q)
        for a, (s, q) in stats.items()
        if not (isinstance(a, tuple) and a[0] == "move")
    ]
    return sorted(rows, key=lambda r: -r[2])


#: View name (``GameSpec.board_view``) -> the view (keywords ``exact`` and ``favourite``).
BOARDS: dict[str, Callable[..., str]] = {
    "tic_tac_toe": tic_tac_toe_svg,
    "connect_four": connect_four_svg,
    "gridiron": gridiron_svg,
}

_STATS_LEGEND = N_(
    "Grey shading and %: each move's share of the root's visits. Q: the value the search expects "
    "for the player to move (+1 a win, -1 a loss). Numbered discs: the principal "
    "variation (the most visited line), 1 = the move now, in the colour of the player who "
    "would play it."
)
_TEXT_LEGEND = N_(
    "The board is the game's own text. The table lists the moves the search has tried: each "
    "move's share of the root's visits and Q, the value the search expects for the player to "
    "move (+1 a win, -1 a loss)."
)
#: What the exact values and the red outline mean (added to the legend while they show).
EXACT_LEGEND = N_(
    "= win / draw / loss: the move's exact value under perfect play, for the player to move "
    "(a number where dice decide: the expected value, +1 a sure win; ? = not worked out within "
    "the time budget), green for a best move, red for a worse one. Red outline: the search's "
    "favourite when perfect play says it is worse than the best move."
)
#: View name -> what its picture's colours and marks mean.
#: (English, each sentence a message: translated where shown, :func:`board_legend`.)
_VIEW_LEGENDS: dict[str, str] = {
    "tic_tac_toe": N_("Blue X, red O, as the tree's boxes of their moves."),
    "connect_four": N_(
        "Yellow X, red O, as the tree's boxes of their moves; the shares sit under their columns."
    ),
    "gridiron": N_(
        "Blue discs: Home players, red: Away (H1, A1...), as the tree's boxes of their moves; "
        "a hollow disc is a player knocked down, a faded one has acted this turn; the brown oval "
        "is the ball (a small brown dot on a player: he carries it). Tinted squares: tackle "
        "zones (blue Home's, red Away's), where a move out needs a dodge roll. Home scores in the "
        "right-hand endzone, Away in the left."
    ),
}
LEGENDS: dict[str, str] = {
    view: _STATS_LEGEND + " " + extra for view, extra in _VIEW_LEGENDS.items()
}


def _spec(game: Any) -> Any:
    """The game's registration, or ``None`` for a game built outside the registry."""
    try:
        return game_spec(game.name)
    except ValueError:
        return None


def board_svg(
    game: Any,
    state: object,
    stats: Stats,
    pv: Line = (),
    *,
    exact: ExactAnswer | None = None,
    favourite: Action | None = None,
    heat: ClassHeat | None = None,
) -> str | None:
    """The game's board picture, or ``None`` when its registration names no view (then show
    :func:`board_text` and :func:`stats_rows`). ``exact`` adds each move's exact value and
    ``favourite`` is outlined in red when it is worse than a best move; ``heat`` (root move ->
    the class's answers, ``class_heat``) draws each move's count and share and a revealed
    right move's ✓."""
    spec = _spec(game)
    renderer = BOARDS.get(spec.board_view) if spec is not None and spec.board_view else None
    if renderer is None:
        return None
    return renderer(game, state, stats, pv, exact=exact, favourite=favourite, heat=heat or None)


def board_legend(game: Any, exact: bool = False) -> str:
    """What the board's colours and marks mean, in words (the generic view's for games
    without a view); with ``exact``, what the exact values and the red outline mean too."""
    spec = _spec(game)
    view = spec.board_view if spec is not None else None
    if view and view in _VIEW_LEGENDS:
        # TRANSLATORS: two legends of a board, one after the other
        legend = _("{first} {second}", first=_(_STATS_LEGEND), second=_(_VIEW_LEGENDS[view]))
    else:
        legend = _(_TEXT_LEGEND)
    if exact:
        return _("{first} {second}", first=legend, second=_(EXACT_LEGEND))
    return legend


def board_text(game: Any, state: object) -> str:
    """The generic view's board: the game's ``render`` text, else its position string."""
    render = getattr(game, "render", None)
    if render is not None:
        return str(render(state))
    # TRANSLATORS: the board of a game whose start position writes as nothing
    return game.format_state(state) or _("(start)")


def stats_rows(
    game: Any,
    state: object,
    stats: Stats,
    *,
    exact: ExactAnswer | None = None,
    favourite: Action | None = None,
) -> list[dict[str, object]]:
    """The generic view's table: each move the root tried, most visited first, with its share
    of the root's visits and Q (the mover's view). With ``exact``, an ``exact`` column, the
    untried moves after the tried ones, and a mark on a wrong favourite."""
    ordered = sorted(stats.items(), key=lambda item: -item[1][0])
    rows: list[dict[str, object]] = [
        {
            "move": shown(game.action_label(state, action)),
            "visits": percent(share),
            "Q": fixed(q, 3, signed=True),
        }
        for action, (share, q) in ordered
    ]
    if exact is None:
        return rows
    actions = [action for action, _unused in ordered]
    untried = [action for action in exact.values if action not in stats]
    rows += [{"move": shown(game.action_label(state, a)), "visits": "-", "Q": ""} for a in untried]
    wrong = _wrong(exact, favourite)
    for row, action in zip(rows, actions + untried, strict=True):
        row["exact"] = exact.text(action)
        row["mark"] = (
            _("✗ the favourite: worse than the best") if wrong and action == favourite else ""
        )
    return rows


def button_label(game: Any, state: object, action: Action) -> str:
    """Short text for a move's button (Connect Four columns are numbered 1..7)."""
    spec = _spec(game)
    if spec is None or spec.buttons is None:
        return shown(str(game.action_label(state, action)))
    return str(spec.buttons.label(game, state, action))


def button_layout(game: Any) -> tuple[int, list[Any]] | None:
    """How to lay out one click-button per move: (columns, actions in reading order), or
    ``None`` for games whose moves are picked from a list instead."""
    spec = _spec(game)
    if spec is None or spec.buttons is None:
        return None
    return spec.buttons.columns, list(spec.buttons.actions)
