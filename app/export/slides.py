"""The slides of a seeded run or of a lesson, every word in the deck's language.

A run (:func:`run_deck`): replayed from its seed, one slide per chosen iteration. What any slide
of the live search shows (:func:`search_slide`, a lesson's too): the title (the game, the
iteration, the phase), the tree as the app draws it (:func:`app.drawing.tree_layout.build_view`
with the projector's row, drawn by :mod:`app.export.tree_svg`), the app's narration, the UCT
rows of every decision on the path (:func:`app.drawing.figures.uct_rows`, each cell as the app's
table writes it), and the board with each root move's share of the visits
(:func:`app.drawing.boards.board_svg`).

A lesson (:func:`lesson_deck`): followed as the screen follows it, page by page and press by
press: each page's text slide; then, for each press, the state after it (:func:`search_slide`);
a page's question on a slide of its own before its presses and its reveal on one after them
(asked and graded by the app's quiz, ``app.quiz.ask`` and ``settle``: the reveal is what really
happened). In the lesson's translation for the deck's language (``lessons/<tag>/<name>.toml``).
The presses run as the app's buttons run them: Step (one traced iteration), Step N
(``iterations_per_click`` iterations, the last traced), Phase (the next phase alone, narrated by
``narrate_phase``), Back and Forward (the slide before or after in the page's history), Play
best (the favourite played; the tree kept below it), Run arena (the arena with the page's
settings).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.drawing.boards import board_svg, board_text
from app.drawing.figures import cell_text, column_name, uct_rows
from app.drawing.tree_dot import path_ids, phase_path
from app.drawing.tree_layout import PROJECTOR_ROW, build_view
from app.drawing.tree_model import TreeView
from app.export.records import Deck, ExportError, Progress, RunSpec, Slide, Table
from app.export.tree_svg import tree_svg
from app.lessons.reading import Lesson, Page, load_lessons, press_name, translated
from app.quiz import ArenaSetup, Question, Reveal, ask, settle
from app.words import i18n
from app.words.i18n import N_, _, decimal, n_
from app.words.narration import PHASE_NAMES, narrate_iteration, narrate_phase, selection_end
from games import GAME_NAMES, make_game
from games.base import AnyGame
from games.registry import game_spec, opening_state
from mcts_core import IterationTrace, Search
from mcts_core.config import SearchConfig
from mcts_core.nodes import ActionNode
from mcts_core.phases import PHASES, Phase
from mcts_core.queries import principal_variation
from mcts_lab import settings as search_settings
from mcts_lab.arena import ArenaResult, format_table, play_arena, rollout_config
from mcts_lab.exact import exact_values

__all__ = [
    "TREE_SIZE",
    "build_search",
    "game_title",
    "iteration_png",
    "lesson_deck",
    "page_config",
    "player_names",
    "run_deck",
    "search_slide",
    "short_titles",
    "slide_title",
]

#: The tree picture's size in px at the slide's 1280x720 scale (the left of a 16:9 slide; the
#: narration, the terms and the board take the right and the bottom).
TREE_SIZE = (760, 430)
#: The UCT columns a slide shows (the app's table's, less the ones for another setting): the
#: prior P only under a policy that has priors (PUCT), as the app leaves out an empty column.
#: The chosen move's row is marked by :attr:`Table.chosen` (drawn highlighted).
_TERMS = ("move", "n (before backup)", "Q", "prior P", "bonus", "Q + bonus")
#: The four phases in two words: a title with no room for their names one by one.
ALL_PHASES = N_("all four phases")


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


def short_phase(phase: str) -> str:
    """``phase`` as a short title says it: the four phases' names in a row (a Step ran them
    all) as "all four phases"; one phase's name as it is."""
    return _(ALL_PHASES) if phase == whole_iteration() else phase


def short_titles(game: AnyGame, iteration: int, phase: str, before: str = "") -> tuple[str, ...]:
    """The shorter forms of ``before + slide_title(...)``, shortest last: the phases in two
    words; then (after a lesson's page and press, ``before``) the game left out, since the page
    names it."""
    forms = []
    short = short_phase(phase)
    if short != phase:
        forms.append(before + slide_title(game, iteration, short))
    if before:
        # TRANSLATORS: a short exported slide's title: the search's iteration and its phase
        forms.append(before + _("iteration {n} · {phase}", n=decimal(iteration), phase=short))
    return tuple(forms)


def whole_iteration() -> str:
    """The four phases' names, in order: a Step ran them all."""
    return " → ".join(_(PHASE_NAMES[p.value]) for p in PHASES)


def _terms(trace: IterationTrace | None, names: Sequence[str]) -> tuple[Table, ...]:
    """The deciding terms: each decision on the path as the UCT table's rows, each cell as the
    app's table writes it (the language's numbers: "-0,424" in Spanish), the columns the app
    shows for the run's policy (the same for every decision of the path)."""
    if trace is None:
        return ()
    every = [uct_rows(d) for d in trace.decisions]
    keys = [k for k in _TERMS if any(r.get(k) not in (None, "") for rows in every for r in rows)]
    tables = []
    for depth, (d, rows) in enumerate(zip(trace.decisions, every, strict=True)):
        caption = _("Depth {depth} · node #{node}", depth=depth, node=d.node_id)
        # TRANSLATORS: after a decision's heading on a slide: who decides there
        who = _("{player} decides", player=names[d.player])
        by_score = sorted(range(len(d.children)), key=lambda i: -d.children[i].score)
        tables.append(
            Table(
                caption=f"{caption} · {who}",
                # (the page's soft hyphens out: a slide's layout breaks its own words)
                header=tuple(column_name(k).replace("\u00ad", "") for k in keys),
                rows=tuple(tuple(cell_text(r.get(k)) for k in keys) for r in rows),
                chosen=d.chosen,
                order=(d.chosen, *(i for i in by_score if i != d.chosen)),
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
    return tree_svg(view, *TREE_SIZE, proven_letters=letters, caption=(said,),
                    rtl=i18n.is_rtl())  # fmt: skip


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
    shorter: tuple[str, ...] = (),
) -> Slide:
    """A slide of the search as it is now: ``title`` (``shorter``: its shorter forms), the tree
    (the last ``trace`` marked), ``text`` (the narration), the deciding terms of ``trace`` and
    the board."""
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
        short_titles=shorter,
    )


def _settings_line(spec: RunSpec, search: Search) -> str:
    """The run's settings in one line (the deck's subtitle)."""
    config = spec.config
    start = spec.position or _("the start")
    return n_(
        "Position {position} · seed {seed} · {policy}, C = {c} · {n} iteration",
        "Position {position} · seed {seed} · {policy}, C = {c} · {n} iterations",
        spec.iterations,
        position=start,
        seed=spec.seed,
        policy=config.tree_policy.upper(),
        c=i18n.number_text(f"{config.c:g}"),
        n=decimal(spec.iterations),
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
                    shorter=short_titles(search.game, trace.iteration, phase),
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


# ----------------------------------------------------------------------------- a lesson


#: The screen's settings a lesson page starts from when it does not set them (the app's
#: sidebar defaults: app/live/session.py's DEFAULTS, held equal to SearchConfig's by
#: tests/mcts_lab/test_settings.py).
_SCREEN = {
    "iterations_per_click": 100,
    "seed": 0,
    "arena_games": 5,
    "arena_iterations": 100,
    "arena_rollout": "none",
    "arena_opponent": "random",
}
#: The exact values' time budget for an ``exact_best`` question (the quiz's own).
_EXACT_SECONDS = 20.0


def _field_value(kind: str, value: Any) -> Any:
    """A widget's value as its SearchConfig field wants it (a depth below 0: no limit)."""
    if kind == "number":
        return float(value)
    if kind in ("whole", "whole_or_none"):
        return None if kind == "whole_or_none" and int(value) < 0 else int(value)
    return value


def page_config(game: str, settings: Mapping[str, Any]) -> SearchConfig:
    """The search settings of a page: the defaults, the game's own (its registration's, as
    the app sets them when the game is picked), then the page's (by widget key)."""
    values: dict[str, Any] = dict(game_spec(game).settings)
    for row in search_settings.SETTINGS:
        if row.widget is not None and row.widget in settings:
            values[row.field] = _field_value(row.kind, settings[row.widget])
    return SearchConfig(**values)


class _Follow:
    """The lesson's screen as it goes: the search, the page's settings, the slides so far."""

    def __init__(self, lesson: Lesson, on_progress: Progress | None) -> None:
        self.lesson = lesson
        self.on_progress = on_progress
        self.slides: list[Slide] = []
        self.search: Search | None = None
        self.settings: dict[str, Any] = dict(_SCREEN)
        self.config = SearchConfig()
        self.game = ""
        self.arena: ArenaResult | None = None
        self.history: list[Slide] = []
        self.shown = -1  # the history entry on screen (Back / Forward move it)
        self.half: tuple[set[int], int | None] = (set(), None)  # a half-done iteration's marks
        self.expected = 2 * sum(1 + len(p.press) + 2 * bool(p.questions) for p in lesson.pages)

    def add(self, slide: Slide) -> None:
        self.slides.append(slide)
        if self.on_progress is not None:
            self.expected = max(self.expected, 2 * len(self.slides))
            self.on_progress(len(self.slides), self.expected)

    # ------------------------------------------------------------------ a page

    def page(self, number: int, page: Page) -> None:
        title = _("{lesson} · page {number}: {page}", lesson=self.lesson.title, number=number,
                  page=page.title)  # fmt: skip
        paragraphs = [" ".join(p.split()) for p in page.text.strip().split("\n\n") if p.strip()]
        self.add(Slide(kind="page", title=title, text="\n\n".join(paragraphs)))
        if page.setup is not None:
            self.set_up(page)
        if self.search is None:
            raise ExportError(f"lesson {self.lesson.name}: page {number} has no game set up")
        question = self.question(page)
        if question is not None:
            self.add(self.question_slide(page.title, question))
        trace: IterationTrace | None = None
        for press in page.press:
            trace = self.press(press, page.title) or trace
        if question is not None:
            reveal = settle(question, self.search, player_names(self.search.game), answer=None,
                            trace=trace, arena_result=self.arena)  # fmt: skip
            if reveal is not None:
                self.add(self.reveal_slide(page.title, reveal))

    def set_up(self, page: Page) -> None:
        setup = page.setup
        assert setup is not None
        self.settings = {**_SCREEN, **dict(setup.settings)}
        self.game = setup.game
        self.config = page_config(setup.game, setup.settings)
        size = setup.settings.get("gridiron_size")
        self.search = build_search(
            setup.game,
            setup.position,
            int(self.settings["seed"]),
            self.config,
            int(size) if size is not None else None,
        )
        if setup.steps:
            self.search.run(iterations=setup.steps)
        self.history, self.shown, self.arena = [], -1, None

    # ------------------------------------------------------------------ the quiz

    def question(self, page: Page) -> Question | None:
        if not page.questions or self.search is None:
            return None
        search = self.search
        arena = ArenaSetup(
            int(self.settings["arena_games"]), int(self.settings["arena_iterations"]),
            str(self.settings["arena_opponent"]), self.config.expansion_order, self.arena,
        )  # fmt: skip
        return ask(
            search, player_names(search.game), kinds=page.questions, depth=page.depth,
            arena=arena,
            exact=lambda: exact_values(search.game, search.root_state, _EXACT_SECONDS),
        )  # fmt: skip

    def question_slide(self, title: str, question: Question) -> Slide:
        options = "\n".join(f"• {question.option_words(o)}" for o in question.options)
        # TRANSLATORS: an exported slide's title: a lesson page's title, then "Question"
        return Slide(kind="question", title=_("{page} · Question", page=title),
                     text=f"{question.words()}\n\n{options}")  # fmt: skip

    def reveal_slide(self, title: str, reveal: Reveal) -> Slide:
        right = ", ".join(reveal.question.option_words(o) for o in reveal.correct)
        # TRANSLATORS: a reveal on an exported slide: the right answer(s)
        lines = [_("The answer: {answer}", answer=right), "", reveal.summary_words()]
        rows = reveal.rows_words()
        if rows:
            # each cell isolated: in Arabic a row reads cell by cell from the right, a signed
            # number keeps its sign in front ("a1 · 1 · +1.000" is not one left-to-right run)
            lines += [""] + [" · ".join(i18n.isolate(cell) for cell in row) for row in rows]
        if reveal.why_words():
            lines += ["", reveal.why_words()]
        # TRANSLATORS: an exported slide's title: a lesson page's title, then "Reveal"
        return Slide(kind="reveal", title=_("{page} · Reveal", page=title),
                     text="\n".join(lines))  # fmt: skip

    # ------------------------------------------------------------------ the presses

    def state(self, title: str, press: str, trace: IterationTrace | None, text: str,
              phase: str, marks: tuple[set[int], int | None] | None = None) -> None:  # fmt: skip
        assert self.search is not None
        game, n = self.search.game, self.search.iterations
        before = _("{page} · {press}", page=title, press=press) + " · "
        slide = search_slide(
            self.search, trace, kind="state", text=text, marks=marks,
            title=before + slide_title(game, n, phase),
            shorter=short_titles(game, n, phase, before),
        )  # fmt: skip
        self.history.append(slide)
        self.shown = len(self.history) - 1
        self.add(slide)

    def press(self, name: str, title: str) -> IterationTrace | None:
        search = self.search
        assert search is not None
        names = player_names(search.game)
        config = self.config
        said = press_name(name)
        if name == "Step":
            trace = search.step()
            self.state(title, said, trace, narrate_iteration(trace, names, config.c,
                       config.tree_policy), whole_iteration())  # fmt: skip
            return trace
        if name == "Step N":
            n = int(self.settings["iterations_per_click"])
            if n > 1:
                search.run(iterations=n - 1)
            trace = search.step()
            self.state(title, said, trace, narrate_iteration(trace, names, config.c,
                       config.tree_policy), whole_iteration())  # fmt: skip
            return trace
        if name == "Phase":
            return self.phase(title, said)
        if name in ("Back", "Forward"):
            self.shown = max(0, min(len(self.history) - 1, self.shown + (-1 if name == "Back"
                                                                       else 1)))  # fmt: skip
            if self.history:
                old = self.history[self.shown]
                self.add(replace(old, title=_("{page} · {press}", page=title, press=said),
                                 short_titles=()))  # fmt: skip
            return None
        if name == "Play best":
            action = search.best_action()
            search.advance(action, None)
            self.state(title, said, None, "", said)
            return None
        if name == "Run arena":
            self.run_arena(title, said)
            return None
        raise ExportError(f"lesson {self.lesson.name}: unknown press {name!r}")

    def phase(self, title: str, said: str) -> IterationTrace | None:
        search = self.search
        assert search is not None
        names = player_names(search.game)
        c, policy = self.config.c, self.config.tree_policy
        phase = search.next_phase
        name = _(PHASE_NAMES[phase.value])
        if phase is Phase.SELECT:
            path = search.select()
            context = selection_end(search, path)
            self.context = context
            ids = phase_path(path)
            self.half = (ids, None)
            self.state(title, said, None, narrate_phase(phase, path, context, names, c, policy),
                       name, marks=self.half)  # fmt: skip
            return None
        if phase is Phase.EXPAND:
            expansion = search.expand()
            new = expansion.node_id if expansion is not None else None
            self.half = (self.half[0] | ({new} if new is not None else set()), new)
            self.state(title, said, None, narrate_phase(phase, expansion, self.context, names,
                       c, policy), name, marks=self.half)  # fmt: skip
            return None
        if phase is Phase.EVALUATE:
            evaluation = search.evaluate()
            self.state(title, said, None, narrate_phase(phase, evaluation, self.context, names,
                       c, policy), name, marks=self.half)  # fmt: skip
            return None
        trace = search.backpropagate()
        self.state(title, said, trace, narrate_phase(phase, trace, trace, names, c, policy),
                   name)  # fmt: skip
        self.half = (set(), None)
        return trace

    def run_arena(self, title: str, said: str) -> None:
        search = self.search
        assert search is not None
        base = rollout_config(str(self.settings["arena_rollout"]))
        config = replace(self.config, rollout_depth=base.rollout_depth,
                         rollout_horizon=base.rollout_horizon)  # fmt: skip
        self.arena = play_arena(
            search.game, games=int(self.settings["arena_games"]),
            iterations=int(self.settings["arena_iterations"]), config=config,
            opponent=str(self.settings["arena_opponent"]), seed=int(self.settings["seed"]),
        )  # fmt: skip
        self.add(Slide(kind="state", title=_("{page} · {press}", page=title, press=said),
                       text=format_table(self.arena)))  # fmt: skip

    context: Any = None


def _find(name: str) -> Lesson:
    found, _errors = load_lessons()
    if name not in found:
        choices = ", ".join(found) or "none"
        raise ExportError(f"unknown lesson {name!r} (choose from {choices})")
    return found[name]


def lesson_deck(name: str, lang: str, on_progress: Progress | None) -> Deck:
    """The lesson ``name`` followed into slides in ``lang`` (module docstring)."""
    lesson = _find(name)
    with i18n.language(lang):
        shown = translated(lesson)
        follow = _Follow(shown, on_progress)
        for number, page in enumerate(shown.pages, start=1):
            follow.page(number, page)
        return Deck(title=shown.title, lang=lang, rtl=i18n.is_rtl(),
                    slides=tuple(follow.slides), subtitle=shown.summary)  # fmt: skip
