"""A seeded run replayed, one slide per chosen iteration, and what any slide of the live search
shows (:func:`search_slide`, the lesson deck's too): the title (the game, the iteration, the
phase), the tree as the app draws it (:func:`app.drawing.tree_layout.build_view` with the
projector's row, drawn by :mod:`app.export.tree_svg`), the app's narration, the UCT rows of
every decision on the path (:func:`app.drawing.figures.uct_rows`), and the board with each root
move's share of the visits (:func:`app.drawing.boards.board_svg`), every word in the deck's
language.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.drawing.boards import board_svg, board_text
from app.drawing.figures import column_name, uct_rows
from app.drawing.tree_dot import path_ids
from app.drawing.tree_layout import PROJECTOR_ROW, build_view
from app.drawing.tree_model import TreeView
from app.export.records import Deck, ExportError, Progress, RunSpec, Slide, Table
from app.export.tree_svg import tree_svg
from app.words import i18n
from app.words.i18n import _, decimal
from app.words.narration import PHASE_NAMES, narrate_iteration
from games import GAME_NAMES, make_game
from games.base import AnyGame
from games.registry import game_spec, opening_state
from mcts_core import IterationTrace, Search
from mcts_core.nodes import ActionNode
from mcts_core.phases import PHASES
from mcts_core.queries import principal_variation

__all__ = [
    "TREE_SIZE",
    "build_search",
    "game_title",
    "iteration_png",
    "player_names",
    "run_deck",
    "search_slide",
    "slide_title",
]

#: The tree picture's size in px at the slide's 1280x720 scale (the left of a 16:9 slide; the
#: narration, the terms and the board take the right and the bottom).
TREE_SIZE = (760, 430)
#: The UCT columns a slide shows (the app's table's, less the ones for another setting).
#: The chosen move's row is marked by :attr:`Table.chosen` (drawn highlighted).
_TERMS = ("move", "n (before backup)", "Q", "bonus", "Q + bonus")


def player_names(game: AnyGame) -> tuple[str, str]:
    """The players' names in the current language (the app's ``player_names``)."""
    first, second = game_spec(game.name).player_names
    return _(first), _(second)


def game_title(game: AnyGame) -> str:
    """The game's name in the current language."""
    return _(game_spec(game.name).label)


def build_search(game_name: str, position: str, seed: int, config: object,
                 size: int | None = None) -> Search:  # fmt: skip
    """A fresh search of ``game_name`` from ``position`` ("" = its opening, rolled with
    ``seed`` as in the app); :class:`ExportError` on an unknown game or a bad position."""
    if game_name not in GAME_NAMES:
        raise ExportError(f"unknown game {game_name!r} (choose from {', '.join(GAME_NAMES)})")
    spec = game_spec(game_name)
    option = spec.option("size")
    try:
        game = make_game(game_name, size=size) if option and size is not None else (
            make_game(game_name))  # fmt: skip
        state = game.parse_state(position) if position else opening_state(game, seed)
    except (ValueError, TypeError) as error:
        text = " ".join(str(error).split())[:200]
        raise ExportError(f"bad position for {game_name}: {text}") from None
    return Search(game, state, config, seed=seed)  # type: ignore[arg-type]


def slide_title(game: AnyGame, iteration: int, phase: str) -> str:
    """The title: the game, the iteration and the phase, in the current language."""
    # TRANSLATORS: an exported slide's title: the game, the search's iteration, the phase
    # (e.g. "Connect Four · iteration 12 · select → expand → simulate → backpropagate")
    return _("{game} · iteration {n} · {phase}", game=game_title(game), n=decimal(iteration),
             phase=phase)  # fmt: skip


def whole_iteration() -> str:
    """The four phases' names, in order: a Step ran them all."""
    return " → ".join(_(PHASE_NAMES[p.value]) for p in PHASES)


def _terms(trace: IterationTrace | None, names: Sequence[str]) -> tuple[Table, ...]:
    """The deciding terms: each decision on the path as the UCT table's rows."""
    if trace is None:
        return ()
    tables = []
    for depth, d in enumerate(trace.decisions):
        rows = uct_rows(d)
        caption = _("Depth {depth} · node #{node}", depth=depth, node=d.node_id)
        # TRANSLATORS: after a decision's heading on a slide: who decides there
        who = _("{player} decides", player=names[d.player])
        tables.append(
            Table(
                caption=f"{caption} · {who}",
                header=tuple(column_name(k) for k in _TERMS),
                rows=tuple(tuple(str(r.get(k) or "") for k in _TERMS) for r in rows),
                chosen=d.chosen,
            )
        )
    return tuple(tables)


def _board(search: Search) -> tuple[str | None, str]:
    """The board at the root with each root move's share of the visits and Q (the mover's
    view) and the principal variation; a game without a board picture: its text."""
    children = search.children_summary()
    total = sum(c.visits for c in children) or 1
    stats = {c.action: (c.visits / total, c.q) for c in children}
    pv = [
        (move.parent.player, move.action)
        for move in principal_variation(search)[1:]
        if isinstance(move.parent, ActionNode)
    ]
    svg = board_svg(search.game, search.root_state, stats, pv)
    if svg is not None:
        return svg, ""
    return None, board_text(search.game, search.root_state)


def tree_view(
    search: Search,
    trace: IterationTrace | None,
    top_k: int = 3,
    levels: int = 6,
    marks: tuple[set[int], int | None] | None = None,
) -> TreeView:
    """The app's layout of the tree after ``trace`` (its path, new node and changed nodes
    marked; ``marks``: a half-done iteration's path and new node instead), with the
    projector's row of the top's moves."""
    path, new_id = marks if marks is not None else (path_ids(trace), None)
    if trace is not None and trace.expansion is not None:
        new_id = trace.expansion.node_id
    changed = {u.node_id for u in trace.updates} if trace is not None else set()
    return build_view(
        search,
        path_ids=path,
        new_id=new_id,
        changed_ids=changed,
        focus_id=None,
        player_names=player_names(search.game),
        max_children=top_k,
        max_levels=levels,
        row_width=PROJECTOR_ROW,
    )


def tree_picture(view: TreeView) -> str:
    """The tree's SVG at the slide's scale, with the proven badges' letters and how much of
    the tree is drawn, in the current language."""
    letters = {"win": _("W"), "draw": _("D"), "loss": _("L")}
    said = i18n.n_(
        "{drawn} of {count} node drawn",
        "{drawn} of {count} nodes drawn",
        view.total,
        drawn=decimal(view.drawn),
        count=decimal(view.total),
    )
    return tree_svg(view, *TREE_SIZE, proven_letters=letters, caption=(said,))


def search_slide(
    search: Search,
    trace: IterationTrace | None,
    *,
    title: str,
    text: str,
    kind: str = "iteration",
    top_k: int = 3,
    levels: int = 6,
    marks: tuple[set[int], int | None] | None = None,
) -> Slide:
    """A slide of the search as it is now: ``title``, the tree (the last ``trace`` marked),
    ``text`` (the narration), the deciding terms of ``trace`` and the board."""
    view = tree_view(search, trace, top_k, levels, marks)
    board, board_words = _board(search)
    return Slide(
        kind="state" if kind == "state" else "iteration",
        title=title,
        text=text,
        tree_svg=tree_picture(view),
        board_svg=board,
        board_text=board_words,
        tables=_terms(trace, player_names(search.game)),
        iteration=search.iterations,
        narration=text,
    )


def _settings_line(spec: RunSpec, search: Search) -> str:
    """The run's settings in one line (the deck's subtitle)."""
    config = spec.config
    start = spec.position or _("the start")
    return _(
        "Position {position} · seed {seed} · {policy}, C = {c} · {iterations} iterations",
        position=start,
        seed=spec.seed,
        policy=config.tree_policy.upper(),
        c=i18n.number_text(f"{config.c:g}"),
        iterations=decimal(spec.iterations),
    )


def run_deck(spec: RunSpec, lang: str, on_progress: Progress | None) -> Deck:
    """The run of ``spec`` replayed, one :func:`search_slide` per chosen iteration, in
    ``lang``; ``on_progress(k, 2 * slides)`` after the k-th slide."""
    with i18n.language(lang):
        search = build_search(spec.game, spec.position, spec.seed, spec.config, spec.size)
        chosen = spec.chosen
        wanted = set(chosen)
        names = player_names(search.game)
        config = spec.config
        slides: list[Slide] = []
        phase = whole_iteration()
        for _i in range(spec.iterations):
            if search.game.is_terminal(search.root_state):
                raise ExportError("the position is over: there is nothing to search")
            trace = search.step()
            if trace.iteration not in wanted:
                continue
            text = narrate_iteration(trace, names, config.c, config.tree_policy)
            slides.append(
                search_slide(
                    search,
                    trace,
                    title=slide_title(search.game, trace.iteration, phase),
                    text=text,
                    top_k=spec.tree_top_k,
                    levels=spec.tree_levels,
                )
            )
            if on_progress is not None:
                on_progress(len(slides), 2 * len(chosen))
            if len(slides) == len(chosen):
                break
        return Deck(
            title=_("{game}: a search, step by step", game=game_title(search.game)),
            lang=lang,
            rtl=i18n.is_rtl(),
            slides=tuple(slides),
            subtitle=_settings_line(spec, search),
        )


def iteration_png(spec: RunSpec, iteration: int, lang: str) -> bytes:
    """The tree picture of the run's ``iteration`` as a PNG (what every format draws)."""
    from app.export.pictures import svg_png

    one = RunSpec(
        game=spec.game, position=spec.position, seed=spec.seed, config=spec.config,
        iterations=iteration, at=(iteration,), size=spec.size, tree_top_k=spec.tree_top_k,
        tree_levels=spec.tree_levels,
    )  # fmt: skip
    deck = run_deck(one, lang, None)
    svg = deck.slides[0].tree_svg
    assert svg is not None
    return svg_png(svg)
