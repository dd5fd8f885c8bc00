"""A lesson followed as the screen follows it, page by page and press by press, into slides: each
page's text slide; then, for each press, the state after it (the tree, the narration, the
terms, the board: :func:`app.export.run_slides.search_slide`); a page's question on a slide of its
own before its presses and its reveal on one after them (asked and graded by the app's quiz,
``app.quiz.ask`` and ``settle``: the reveal is what really happened). In the lesson's
translation for the deck's language (``lessons/<tag>/<name>.toml``) and the app's words.

The presses run as the app's buttons run them: Step (one traced iteration), Step N
(``iterations_per_click`` iterations, the last traced), Phase (the next phase alone,
narrated by ``narrate_phase``), Back and Forward (the slide before or after in the page's
history), Play best (the favourite played; the tree kept below it), Run arena (the arena
with the page's settings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from app.export.records import Deck, ExportError, Progress, Slide
from app.export.run_slides import (
    build_search,
    player_names,
    search_slide,
    slide_title,
    whole_iteration,
)
from app.lessons.reading import Lesson, Page, load_lessons, press_name, translated
from app.quiz import ArenaSetup, Question, Reveal, ask, settle
from app.words import i18n
from app.words.i18n import _
from app.words.narration import PHASE_NAMES, narrate_iteration, narrate_phase, selection_end
from mcts_core import IterationTrace, Search
from mcts_core.config import SearchConfig
from mcts_core.phases import Phase
from mcts_lab import settings as search_settings
from mcts_lab.arena import ArenaResult, format_table, play_arena, rollout_config
from mcts_lab.exact import exact_values

__all__ = ["lesson_deck", "page_config"]

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
    from games.registry import game_spec

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
            lines += [""] + [" · ".join(row) for row in rows]
        if reveal.why_words():
            lines += ["", reveal.why_words()]
        # TRANSLATORS: an exported slide's title: a lesson page's title, then "Reveal"
        return Slide(kind="reveal", title=_("{page} · Reveal", page=title),
                     text="\n".join(lines))  # fmt: skip

    # ------------------------------------------------------------------ the presses

    def state(self, title: str, press: str, trace: IterationTrace | None, text: str,
              phase: str, marks: tuple[set[int], int | None] | None = None) -> None:  # fmt: skip
        assert self.search is not None
        slide = search_slide(
            self.search, trace, kind="state", text=text, marks=marks,
            title=_("{page} · {press}", page=title, press=press) + " · "
            + slide_title(self.search.game, self.search.iterations, phase),
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
                self.add(replace(old, title=_("{page} · {press}", page=title, press=said)))
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
            ids = _phase_path(path)
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


def _phase_path(steps: Any) -> set[int]:
    """The nodes a selection phase marked: the path's nodes and the children it chose (the
    app's history marks the same: app/live/history.py ``_phase_path``)."""
    ids = {0}
    for step in steps:
        ids.add(step.node_id)
        chosen = getattr(step, "chosen_terms", None)
        if chosen is not None:
            ids.add(chosen.node_id)
        child = getattr(step, "child_id", None)
        if child is not None:
            ids.add(child)
    return ids


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
