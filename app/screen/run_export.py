"""The header's Export box, beside the Link: the run on the screen as a slide deck, a handout,
an animation or PNG frames (``app/export``), in the page's language.

What it exports is what the Link would rebuild (:func:`app.live.state.replay_params`: the
game, the root of the entry shown, the seed, the search settings, the iterations from that
root), drawn with the screen's drawing settings, one slide per iteration the history shows up
to the entry on screen (:func:`history_iterations`), or every iteration when asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import streamlit as st

from app import export
from app.components.export_box import ExportFile, Progress, export_box
from app.export import FORMATS, MEDIA_TYPES, SUFFIXES, ExportError, RunSpec
from app.export.records import MAX_SLIDES
from app.inputs.widget_values import config_from_widgets
from app.live import history, session, state
from app.live.session import HistoryEntry
from app.words.i18n import _, current_tag, decimal, n_
from games.registry import game_spec
from mcts_core import ConfigError
from mcts_core.phases import Phase

#: Which iterations become slides (``export_iterations``'s values): those the history shows,
#: or every one from the first.
WHICH = ("history", "every")


@dataclass(frozen=True)
class RunExport:
    """What the Export box sends to the exporter: the run (``spec``) and the language its
    words are in (an offered tag, the page's)."""

    spec: RunSpec
    lang: str


def history_iterations(
    entries: Iterable[HistoryEntry], shown: HistoryEntry | None, steps: int
) -> tuple[int, ...]:
    """The iterations the history shows, counted from the root of the entry on screen: each
    finished iteration's count (a Step's, Step N's last, a link's or a played move's tree) of
    the entries up to ``shown`` with the same root, and ``steps`` (the tree on screen, as
    the Link rebuilds it); increasing, each in 1..``steps``, the latest ``MAX_SLIDES``. A
    half-done iteration's entries (Phase: select, expand, simulate) add none: their tree is
    the last finished one's."""
    chosen = {steps} if steps >= 1 else set()
    if shown is not None:
        chosen |= {
            e.root_visits
            for e in entries
            if e.number <= shown.number
            and e.position == shown.position
            and e.phase in (None, Phase.BACKPROPAGATE)
            and 1 <= e.root_visits <= steps
        }
    return tuple(sorted(chosen))[-MAX_SLIDES:]


def run_request(which: str = "history") -> RunExport | str:
    """The run on the screen as an export request, or why there is none (one line, in
    words): nothing run yet, settings that make no search, too many slides."""
    s = st.session_state
    params = state.replay_params()  # what the Link rebuilds: the entry shown, from its root
    steps = int(params.get("steps", "0"))
    if steps < 1:
        return _("Nothing to export yet: press Step to run an iteration first.")
    if which == "every" and steps > MAX_SLIDES:
        return n_(
            "Every iteration would be {n} slide, more than {max}: export the history's "
            "iterations instead.",
            "Every iteration would be {n} slides, more than {max}: export the history's "
            "iterations instead.",
            steps,
            n=decimal(steps),
            max=decimal(MAX_SLIDES),
        )
    at = () if which == "every" else history_iterations(
        session.session().history, history.current_entry(), steps
    )  # fmt: skip
    game = str(s["game"])
    size = game_spec(game).option("size")
    try:
        spec = RunSpec(
            game=game,
            position=params.get("position", ""),
            seed=int(s["seed"]),
            config=config_from_widgets(),
            iterations=steps,
            at=at,
            size=int(s[size.key]) if size is not None else None,
            tree_top_k=int(s["tree_top_k"]),
            tree_levels=int(s["tree_levels"]),
        )
    except (ConfigError, ExportError) as error:
        return _("This run cannot be exported: {error}", error=error)
    return RunExport(spec, current_tag())


def _make(request: object, fmt: str, on_progress: Progress) -> ExportFile:
    assert isinstance(request, RunExport)
    spec = request.spec
    # (through the package: the writers' libraries load on the first export, not with the app)
    data = export.export_run(spec, fmt, request.lang, on_progress)
    name = f"mcts-lab-{spec.game}-{spec.iterations}-{request.lang}{SUFFIXES[fmt]}"
    return ExportFile(data, name, MEDIA_TYPES[fmt])


def export_popover(file_open: bool = False) -> None:
    """The Export popover (key ``export``) beside the Link: drawn only while open, from the
    screen as it is then (the header is outside the screen's fragment). ``file_open``: a
    trace file is on the screen instead of the live search (nothing of it to export)."""
    # TRANSLATORS: the header's button that opens the export box (a noun or a verb)
    box = st.popover(_("Export"), key="export", on_change="rerun",
                     help=_("This run as slides, a handout, an animation or pictures"))  # fmt: skip
    if not box.open:
        return
    with box:
        if file_open:
            request: RunExport | str = _(
                "The export takes the live search: close the open file first."
            )
        else:
            which = st.radio(
                # TRANSLATORS: the export box's choice: which iterations become slides
                _("Slides"),
                WHICH,
                key="export_iterations",
                format_func=_which_words(),
            )
            request = run_request(str(which))
        if isinstance(request, RunExport):
            st.caption(_chosen_words(request.spec))
        export_box("export", FORMATS, request, _make)


def _which_words() -> Callable[[str], str]:
    """The slides' choice in words, in this run's language (the radio's ``format_func``)."""
    words = {
        # TRANSLATORS: the export's slides: one per iteration the history (the clicks) shows
        "history": _("The iterations of the history, up to the entry shown"),
        # TRANSLATORS: the export's slides: one per iteration from the first
        "every": _("Every iteration from the first"),
    }
    return lambda which: words.get(which, which)


def _chosen_words(spec: RunSpec) -> str:
    """What the export will draw, in one line: the slides' count and iterations."""
    chosen = spec.chosen
    shown = ", ".join(decimal(n) for n in chosen[:8]) + (", …" if len(chosen) > 8 else "")
    # TRANSLATORS: under the export box's choice; {n}: the iterations the run replays
    return n_(
        "{count} slide: iteration {iterations} (the run's {n} iterations replayed from its seed)",
        "{count} slides: iterations {iterations} (the run's {n} iterations replayed from its seed)",
        len(chosen),
        count=decimal(len(chosen)),
        iterations=shown,
        n=decimal(spec.iterations),
    )
