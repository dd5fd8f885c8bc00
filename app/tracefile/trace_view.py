"""Open a tree or trace: any MCTS's file drawn, checked and stepped through (docs/app.md).

The sidebar's uploader (key ``trace_file``) reads an mcts-trace file (docs/trace_format.md;
at most :data:`mcts_lab.traces.MAX_FILE_BYTES`, Streamlit's ``server.maxUploadSize``).
While one is open, :func:`trace_screen` replaces the classroom screen: the file's tree in the
same tree view (hover, click to focus), Step / ◀ / ▶ and a slider over the file's iterations
(``trace_step``, ``trace_back``, ``trace_forward``, ``trace_iteration``), the narration of
the iteration shown from its record, and tabs: Why this path (the writer's terms), Anomalies
(``mcts-lab inspect``'s findings, also marked ⚠ on the tree), Board (a registered game named
in the file) and File (the header). **Close the file** (``trace_close``) returns to the live
search, which the file never touched.

Like the quiz and the lessons, this module writes its own session keys (``trace_*``); the file
is read and checked in the run after it is chosen (:func:`open_chosen_file`, with a progress
bar), and a bad file leaves one message and the previous state. The sidebar's **Run until**
calls :func:`on_run_until` while a file is open (``app/main.py`` hands it to the sidebar).
Nothing from the file is rendered as Markdown or HTML: labels go to the tree component as data
(``textContent``), tables as data frames, sentences escaped.
"""

from __future__ import annotations

import dataclasses
import html
import logging
from collections.abc import Callable
from types import ModuleType
from typing import IO, Any, cast

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app.components import ui
from app.components.tree_view import clicked_focus, render_tree
from app.drawing.boards import board_svg
from app.drawing.tree_layout import build_view
from app.drawing.tree_model import TreeView
from app.live.session import DEFAULTS
from app.tracefile.diff_view import diff_panel, listed, shown_rows
from app.words.c_sensitivity import flip_c
from app.words.c_sentence import flip_sentence
from app.words.i18n import N_, _, decimal, fixed, n_, percent
from app.words.narration import narrate_iteration
from app.words.record_words import narrate_record
from mcts_lab import traces
from mcts_lab.breakpoints.on_files import anomaly_position
from mcts_lab.inspect.inspection import inspect_trace
from mcts_lab.traces.replay import FileReplay

__all__ = [
    "active",
    "keep_live_widgets",
    "narration_lines",
    "on_run_until",
    "open_chosen_file",
    "trace_sidebar",
    "trace_screen",
]

TREE_HEIGHT = 450
TREE_BELOW = 270
MB = 1024 * 1024
_LOG = logging.getLogger(__name__)

#: Words kept in the session (``trace_error``, ``trace_stop``) are functions that make them
#: when shown, so a language chosen later shows them in that language.
Words = Callable[[], str]


def shown(kept: object) -> str:
    """A kept line (``trace_error``, ``trace_stop``) in the current language."""
    return str(kept()) if callable(kept) else str(kept)


def active() -> bool:
    """True while a file is open (the screen shows it instead of the live search)."""
    return st.session_state.get("trace_replay") is not None


def keep_live_widgets() -> None:
    """While a file is shown, keep the live screen's widget values: Streamlit forgets a
    widget's value in a run that does not draw it, and the classroom screen is not drawn.
    Called before any widget is drawn (a value may not be set after its widget)."""
    if not active():
        return
    for key in (*DEFAULTS, "autoplay_speed"):
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


# ------------------------------------------------------------------ the sidebar


def open_chosen_file() -> None:
    """In the run after a file was chosen in the uploader, before any widget is drawn: read,
    check (``inspect``) and replay it under a progress bar at the top of the page, then show
    it, or leave one sentence (in the sidebar) saying why it was not opened. (Before the
    widgets, so :func:`keep_live_widgets` keeps the live screen's values from this run on.)"""
    if st.session_state.get("trace_pending"):
        st.session_state["trace_pending"] = False
        _open_upload(st)


def trace_sidebar() -> None:
    """The uploader, the size it opens, and why the last file chosen was not opened."""
    sb = st.sidebar
    sb.header(_("Debug your own MCTS"))
    sb.file_uploader(
        _("Open a tree or trace"),
        type=["json", "jsonl"],
        key="trace_file",
        on_change=_on_upload,
        help=_(
            "An mcts-trace file (.json or .jsonl) from any MCTS: mcts-lab search --trace, "
            "OpenSpiel or mctx converted with mcts_lab.traces, your own writer. See "
            "docs/trace_format.md."
        ),
    )
    sb.caption(_("Files up to {mb} MB are opened.", mb=decimal(traces.MAX_FILE_BYTES // MB)))
    error = st.session_state.get("trace_error")
    if error:
        with sb:
            ui.notice_line("warning", shown(error))


def _on_upload() -> None:
    if st.session_state.get("trace_file") is None:  # the file was removed from the uploader
        _close()
        return
    # read in the script's run, where a progress bar can be drawn (open_chosen_file)
    st.session_state["trace_pending"] = True


#: The share of the progress bar for reading the file; checking and replaying take the rest.
_READ_SHARE = 0.75


def read_file(
    stream: IO[bytes], name: str, progress: Callable[[float, str], None]
) -> tuple[FileReplay, dict[str, Any]]:
    """What opening a file costs, in the app and in ``scripts/trace_open_benchmark.py``: the
    file read from ``stream`` as it is parsed (:func:`mcts_lab.traces.read`), checked
    (``inspect``) and replayed. ``progress(fraction, words)`` is told how far it is. Raises
    :class:`~mcts_lab.traces.TraceError` for a file that cannot be opened."""

    def reading(fraction: float) -> None:
        progress(
            _READ_SHARE * fraction,
            _("Reading {file}: {share}", file=_short(name, 40), share=percent(fraction)),
        )

    progress(0.0, _("Reading {file}", file=_short(name, 40)))
    trace = traces.read(stream, json_lines=True if name.endswith(".jsonl") else None,
                        progress=reading)  # fmt: skip
    progress(
        _READ_SHARE,
        n_(
            "Checking {n} node (inspect)",
            "Checking {n} nodes (inspect)",
            len(trace.nodes),
            n=decimal(len(trace.nodes)),
        ),
    )
    report = inspect_trace(trace)
    progress(0.95, _("Building the tree"))
    return FileReplay(trace), report


def _open_upload(where: DeltaGenerator | ModuleType) -> None:
    """Read, check and replay the uploaded file with a progress bar in ``where``; open it, or
    leave one sentence (``trace_error``) and the previous state."""
    upload = st.session_state.get("trace_file")
    if upload is None:
        return
    name = str(getattr(upload, "name", "file"))
    bar = where.progress(0.0, text=_("Reading {file}", file=_short(name, 40)))
    short = _short(name)
    try:
        size = int(getattr(upload, "size", 0))
        if size > traces.MAX_FILE_BYTES:
            st.session_state["trace_error"] = lambda: n_(
                "{file} was not opened: it has {size} MB; the app opens files up to {mb} MB "
                "({n} byte)",
                "{file} was not opened: it has {size} MB; the app opens files up to {mb} MB "
                "({n} bytes)",
                traces.MAX_FILE_BYTES,
                file=short,
                size=fixed(size / MB, 1),
                mb=decimal(traces.MAX_FILE_BYTES // MB),
                n=decimal(traces.MAX_FILE_BYTES),
            )
            return
        upload.seek(0)

        def progress(fraction: float, words: str) -> None:
            bar.progress(fraction, text=words)

        replay, report = read_file(upload, name, progress)
    except traces.TraceError as error:  # mcts_lab's reason (English, a developer's words)
        why = str(error)
        st.session_state["trace_error"] = lambda: _(
            "{file} was not opened: {error}", file=short, error=why
        )
        return
    except Exception:  # a bug of ours, not the file's: one line here, the traceback in the log
        _LOG.exception("opening a trace file failed")
        st.session_state["trace_error"] = lambda: _(
            "{file} could not be opened (see the log).", file=short
        )
        return
    finally:
        bar.empty()
    opened(name, replay, report)


def opened(name: str, replay: FileReplay, report: dict[str, Any]) -> None:
    """Show ``replay`` (a checked file) with its ``report``, at the replay's position."""
    st.session_state["trace_replay"] = replay
    st.session_state["trace_report"] = report
    st.session_state["trace_name"] = name
    st.session_state["trace_error"] = None
    st.session_state["trace_iteration"] = replay.position_index
    st.session_state["trace_focus"] = None
    st.session_state["trace_anomaly_shown"] = None
    st.session_state["trace_stop"] = None


def _short(text: str, chars: int = 60) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _close() -> None:
    for key in (
        "trace_replay",
        "trace_report",
        "trace_name",
        "trace_error",
        "trace_focus",
        "trace_anomaly_shown",
    ):
        st.session_state[key] = None


# ------------------------------------------------------------------ moving


def _replay() -> FileReplay:
    replay = st.session_state.get("trace_replay")
    assert isinstance(replay, FileReplay)
    return replay


def _go(target: int) -> None:
    replay = _replay()
    replay.goto(target)
    st.session_state["trace_iteration"] = replay.position_index
    st.session_state["trace_stop"] = None


def on_run_until() -> None:
    """The sidebar's **Run until** (``run_until_go``) while a file is open: the file moves on
    record by record, at most Step N's count (``iterations_per_click``), to the first
    iteration where the condition (``run_until``, ``run_until_arg``) holds over the file's
    recorded iterations (:func:`mcts_lab.breakpoints.on_files.run_until`; ``anomaly`` uses the
    file's own findings); a line (``trace_stop``) says where and why it stopped, or that it
    did not stop within N or the file."""
    from mcts_lab.breakpoints.conditions import BreakpointError
    from mcts_lab.breakpoints.on_files import run_until

    name = str(st.session_state.get("run_until") or "")
    if not name:
        st.session_state["trace_stop"] = lambda: _("Choose a condition to run until.")
        return
    argument = str(st.session_state.get("run_until_arg") or "").strip()[:80]
    text = f"{name}:{argument}" if argument else name
    n = max(1, int(st.session_state.get("iterations_per_click") or 1))
    replay = _replay()
    anomalies = (st.session_state.get("trace_report") or {}).get("anomalies") or []
    try:
        stop = run_until(replay, text, n, anomalies)
    except BreakpointError as error:  # mcts_lab's reason (English)
        why = str(error)
        st.session_state["trace_stop"] = lambda: _("Not run: {error}.", error=why)
        return
    except Exception:  # a bug of ours: one line here, the traceback in the log
        _LOG.exception("run until on a trace file failed")
        st.session_state["trace_iteration"] = replay.position_index
        st.session_state["trace_stop"] = lambda: _("Run until could not finish (see the log).")
        return
    st.session_state["trace_iteration"] = replay.position_index
    st.session_state["trace_stop"] = _stop_words(stop, text, n, replay.end)


def _stop_words(stop: Any, text: str, n: int, end: int) -> Words:
    """Where Run until stopped in the file, and why (made when shown; ``stop.reason`` is
    mcts_lab's, English; ``text`` the condition as written)."""
    at, reason, ran = stop.position, stop.reason, stop.ran
    if stop.already:
        return lambda: _(
            "{condition} holds already at iteration {n}: {reason}.",
            condition=text,
            n=decimal(at),
            reason=reason,
        )
    if reason is not None:
        return lambda: _(
            "Stopped at iteration {n}: {condition}: {reason}.",
            n=decimal(at),
            condition=text,
            reason=reason,
        )
    if at >= end:
        return lambda: _(
            "{condition} did not hold by the file's last iteration ({end}; {ran} run).",
            condition=text,
            end=decimal(end),
            ran=decimal(ran),
        )
    return lambda: n_(
        "{condition} did not hold within {n} iteration (now at {at}).",
        "{condition} did not hold within {n} iterations (now at {at}).",
        n,
        condition=text,
        n=decimal(n),
        at=decimal(at),
    )


def on_step() -> None:
    _go(_replay().position_index + 1)


def on_back() -> None:
    _go(_replay().position_index - 1)


def on_forward() -> None:
    _go(_replay().end)


def on_slider() -> None:
    _go(int(st.session_state["trace_iteration"]))


def on_close() -> None:
    # the uploader keeps showing the file (Streamlit does not let code clear it): its ✕
    # removes it, and another file opens on its own
    _close()


def on_unfocus() -> None:
    st.session_state["trace_focus"] = None


#: The anomalies listed with a Show button each (inspect lists at most 1,000; the counts say
#: how many each check found).
ANOMALY_ROWS = 100


def on_anomaly(i: int) -> None:
    """Show anomaly ``i`` of the report: its iteration (:func:`anomaly_position`; the end for
    a finding about the final tree) with its node focused in the tree."""
    items = (st.session_state.get("trace_report") or {}).get("anomalies") or []
    if not 0 <= i < len(items):
        return
    replay = _replay()
    item = items[i]
    position = anomaly_position(replay, item)
    _go(replay.end if position is None else position)
    node = item.get("node")
    root = replay.trace.nodes[replay.trace.root]["id"]
    st.session_state["trace_focus"] = None if node is None or node == root else int(node)
    st.session_state["trace_anomaly_shown"] = i


# ------------------------------------------------------------------ the screen


#: The file view's own style: an anomaly's words wrap whole beside its Show button.
STYLE = """<style>
.lab-anomaly {font-size: 0.85rem; line-height: 1.2rem; overflow-wrap: anywhere;
  padding: 0.1rem 0.25rem; border-radius: 0.25rem;}
.lab-anomaly-shown {background: #fef3c7;}
div[class*="st-key-trace_anomaly_row_"] {flex-wrap: nowrap !important;}
div[class*="st-key-trace_anomaly_row_"] > div:first-child {flex: 1 1 0 !important;
  min-width: 0 !important;}
.lab-stop {font-size: 0.9rem; margin: 0 0 0.3rem 0; color: #1e3a8a;}
</style>"""


def trace_screen() -> None:
    replay = _replay()
    report = st.session_state.get("trace_report") or {}
    st.html(STYLE)
    with st.container(key="trace_controls", horizontal=True, vertical_alignment="center"):
        can_step = replay.steppable
        st.button(
            _("Step"),
            key="trace_step",
            on_click=on_step,
            type="primary",
            disabled=not can_step or replay.position_index >= replay.end,
        )
        st.button("◀", key="trace_back", on_click=on_back, disabled=not can_step,
                  help=_("Back: the previous iteration"))  # fmt: skip
        st.button("▶", key="trace_forward", on_click=on_forward, disabled=not can_step,
                  help=_("Forward to the file's last iteration"))  # fmt: skip
        st.button(_("Close the file"), key="trace_close", on_click=on_close)
    if replay.steppable and replay.end > 0:
        st.slider(
            _("Iteration of the file"),
            0,
            replay.end,
            key="trace_iteration",
            on_change=on_slider,
            help=_("Drag to any iteration of the file: the tree as the file's search had it."),
        )
    _stats(replay, report)
    left, right = st.columns([3, 2], gap="small")
    with left, st.container(key="trace_tree"):
        _tree(replay, report)
    with right:
        with st.container(key="trace_narration"):
            stop = st.session_state.get("trace_stop")
            lines = [("lab-stop", shown(stop))] if stop else []
            st.html(
                "".join(
                    f'<p class="{css}">{html.escape(line)}</p>'
                    for css, line in [*lines, *narration_lines(replay)]
                )
            )
        _tabs(replay, report)
    diff_panel(replay.trace, st.session_state.get("trace_name") or "A")  # diff_view.py


def narration_lines(replay: FileReplay) -> list[tuple[str, str]]:
    """The narration of the iteration shown, as (CSS class, sentence) paragraphs: a record the
    lab's writer wrote reads word for word as the live run read (``app.words.narration``'s
    :func:`~app.words.narration.narrate_iteration` on the rebuilt trace, then, as on the live
    screen, how the root's choice depends on C, with the file's C and policy); any other
    record in :func:`~app.words.record_words.narrate_record`'s generic words."""
    trace = replay.trace
    record = replay.record()
    status = ""
    if not trace.records:
        status = n_(
            "A tree of {count} node without iteration records: hover for the numbers, click "
            "to focus.",
            "A tree of {count} nodes without iteration records: hover for the numbers, click "
            "to focus.",
            len(trace.nodes),
            count=decimal(len(trace.nodes)),
        )
    elif not replay.steppable:
        status = _(
            "The file's records start at iteration {n}, not 1: the final tree is shown.",
            n=trace.records[0]["iteration"],
        )
    elif record is None:
        status = n_(
            "The file holds {count} iteration. Press Step to replay the first: the tree grows "
            "as the file's search grew it.",
            "The file holds {count} iterations. Press Step to replay the first: the tree "
            "grows as the file's search grew it.",
            replay.end,
            count=decimal(replay.end),
        )
    if record is None:
        return [("lab-narration", status)]
    names = _player_names(replay)
    rebuilt = replay.iteration_trace()
    if rebuilt is None:
        view_of = lambda node_id: replay.views[trace.index[node_id]]  # noqa: E731
        return [("lab-narration", narrate_record(record, replay.label, view_of, names))]
    settings = trace.header.get("settings") or {}
    c = settings.get("c")
    c = float(c) if isinstance(c, (int, float)) and not isinstance(c, bool) else None
    policy = str(settings.get("tree_policy", "uct"))
    text = narrate_iteration(rebuilt, names, 0.0 if c is None else c, policy)
    lines = [("lab-narration", " ".join(text.split()))]  # one line, as the live screen shows it
    root_decision = rebuilt.decisions[0] if rebuilt.decisions else None
    if c is not None and root_decision is not None:
        flip = flip_c(root_decision, policy, c)
        if flip is not None:
            lines.append(("lab-flip", flip_sentence(flip)))
    return lines


def _stats(replay: FileReplay, report: dict[str, Any]) -> None:
    header = replay.trace.header
    writer = header.get("writer") or {}
    counts = report.get("anomaly_counts") or {}
    found = sum(counts.values())
    writer_name, game = writer.get("name"), header.get("game")
    # the cells of the file's statistics line, " · " between them
    parts = [
        # TRANSLATORS: the open file's name in the file view's statistics line
        _("file {name}", name=st.session_state.get("trace_name") or ""),
        # TRANSLATORS: who wrote the file (a program's name)
        _("by {writer}", writer=writer_name) if writer_name else _("by an unnamed writer"),
        _("game {game}", game=game) if game else _("game (not named)"),
        _("iteration {n} of {end}", n=decimal(replay.position_index), end=decimal(replay.end)),
        _(
            "nodes {n} of {total}",
            n=decimal(replay.attached),
            total=decimal(len(replay.trace.nodes)),
        ),
        n_("{count} anomaly", "{count} anomalies", found, count=decimal(found))
        if found
        else _("no anomalies"),
    ]
    st.html(f'<div class="lab-stats">{html.escape(" · ".join(parts))}</div>')


def _tree(replay: FileReplay, report: dict[str, Any]) -> None:
    clicked = clicked_focus("trace_tree_view")
    if clicked is not None:
        st.session_state["trace_focus"] = clicked
    focus = st.session_state.get("trace_focus")
    if focus is not None:
        st.button(_("Back to the root"), key="trace_unfocus", on_click=on_unfocus)
    path, new_id, changed = replay.marks()
    view = build_view(
        cast(Any, replay.search()),
        path_ids=path,
        new_id=new_id,
        changed_ids=changed,
        focus_id=focus if isinstance(focus, int) else None,
        player_names=_player_names(replay),
    )
    view = mark_anomalies(view, report.get("anomalies") or [])
    render_tree(view, key="trace_tree_view", height=TREE_HEIGHT, below=TREE_BELOW)


def _player_names(replay: FileReplay) -> tuple[str, str]:
    from games.registry import game_spec

    name = replay.trace.header.get("game")
    try:
        names = game_spec(str(name)).player_names if name else None
    except (ValueError, ImportError):
        names = None
    if names:
        return str(names[0]), str(names[1])
    return _("player 0"), _("player 1")


def mark_anomalies(view: TreeView, anomalies: list[dict[str, Any]]) -> TreeView:
    """The view with every node named by an anomaly labelled ⚠ and its findings in the
    tooltip."""
    by_node: dict[int, list[str]] = {}
    for item in anomalies:
        if item.get("node") is not None:
            by_node.setdefault(int(item["node"]), []).append(f"⚠ {item['kind']}: {item['detail']}")
    if not by_node:
        return view
    nodes = []
    for node in view.nodes:
        found = by_node.get(node.id) if node.id is not None else None
        if found:
            node = dataclasses.replace(
                node, label="⚠ " + node.label, tooltip=(*node.tooltip, *found[:3])
            )
        nodes.append(node)
    return dataclasses.replace(view, nodes=tuple(nodes), _by_id={})


#: The file view's tabs (shown translated: no code reads a tab back by its label; the kept
#: ``trace_tabs`` value is the label shown, so a test sets the English one).
TABS = (N_("Why this path"), N_("Anomalies"), N_("Board"), N_("File"))


def _tabs(replay: FileReplay, report: dict[str, Any]) -> None:
    tabs = st.tabs([_(name) for name in TABS], key="trace_tabs", on_change="rerun")
    draw = {
        "Why this path": lambda: _why(replay),
        "Anomalies": lambda: _anomalies(report),
        "Board": lambda: _board(replay),
        "File": lambda: _file(replay, report),
    }
    for name, tab in zip(TABS, tabs, strict=True):
        if tab.open:
            with tab, st.container(height=TREE_HEIGHT - 120, border=False):
                draw[name]()


def _why(replay: FileReplay) -> None:
    rows = replay.decision_rows()
    if not rows:
        st.caption(
            _(
                "The iteration shown has no selection terms in the file (a tree without "
                "records, the start, or a writer that gave none)."
            )
        )
        return
    st.caption(_("Each decision's children with the writer's own numbers (not recomputed)."))
    st.dataframe(shown_rows(rows), hide_index=True)


def _anomalies(report: dict[str, Any]) -> None:
    items = report.get("anomalies") or []
    if not items:
        st.caption(_("mcts-lab inspect found no anomaly in this file."))
        return
    counts = report.get("anomaly_counts") or {}
    rows = min(len(items), ANOMALY_ROWS)
    more = sum(counts.values()) - rows
    # each check's name (a code of docs/trace_format.md, not translated) and its count
    found = listed([f"{kind} {decimal(n)}" for kind, n in counts.items()])
    if more > 0:
        st.caption(
            _(
                "Found by the checks of docs/trace_format.md (also marked ⚠ on the tree): "
                "{counts}. A button shows the anomaly's iteration with its node focused; the "
                "first {n} are listed.",
                counts=found,
                n=decimal(rows),
            )
        )
    else:
        st.caption(
            _(
                "Found by the checks of docs/trace_format.md (also marked ⚠ on the tree): "
                "{counts}. A button shows the anomaly's iteration with its node focused.",
                counts=found,
            )
        )
    replay = _replay()
    shown_index = st.session_state.get("trace_anomaly_shown")
    for i, item in enumerate(items[:ANOMALY_ROWS]):
        iteration = anomaly_position(replay, item)
        node = item.get("node")
        with st.container(key=f"trace_anomaly_row_{i}", horizontal=True, gap="small",
                          vertical_alignment="top"):  # fmt: skip
            css = "lab-anomaly lab-anomaly-shown" if i == shown_index else "lab-anomaly"
            # the check's name and its detail are mcts_lab's (inspect's English prose)
            at_node = "" if node is None else " · " + _("node {id}", id=int(node))
            st.html(
                f'<div class="{css}"><b>{html.escape(str(item.get("kind")))}</b>'
                f"{html.escape(at_node)} · "
                f"{html.escape(str(item.get('detail', '')))}</div>",
                width="stretch",
            )
            st.button(
                # TRANSLATORS: a button beside an anomaly: show its iteration in the tree
                _("Show"),
                key=f"trace_anomaly_{i}",
                on_click=on_anomaly,
                args=(i,),
                help=_show_help(iteration, None if node is None else int(node)),
            )


def _show_help(iteration: int | None, node: int | None) -> str:
    """The help of an anomaly's Show button: where it goes."""
    if iteration is None:
        if node is None:
            return _("Show the final tree")
        return _("Show the final tree with node {id} focused", id=node)
    if node is None:
        return _("Show iteration {n}", n=decimal(iteration))
    return _("Show iteration {n} with node {id} focused", n=decimal(iteration), id=node)


def _board(replay: FileReplay) -> None:
    moves = replay.game_moves
    if moves is None:
        st.caption(_("The file names no registered game: the labels are the file's own."))
        return
    game, state = moves.game, moves.root_state
    if game.is_terminal(state):
        st.caption(_("The root position is already over."))
        return
    root = replay.root
    total = sum(child.visits for child in root.children) or 1
    stats = {}
    for child in root.children:
        action = moves.action(replay.trace.index[child.id])
        if action is not None and child.visits:
            stats[action] = (child.visits / total, child.mean(max(root.player, 0)))
    svg = board_svg(game, state, stats)
    if svg is None:
        st.code(game.format_state(state) or _("(start)"), language=None)
        return
    st.caption(_("The root position, with each move's share of the visits and Q so far."))
    st.image(svg, width="content")


def _file(replay: FileReplay, report: dict[str, Any]) -> None:
    header = dict(replay.trace.header)
    nodes, records = len(replay.trace.nodes), len(replay.trace.records)
    st.caption(
        # two counts: the nodes lead the sentence, so they decide its grammar
        n_(
            "{n} node, depth {depth}, {records} iteration records; inspect took {seconds} s.",
            "{n} nodes, depth {depth}, {records} iteration records; inspect took {seconds} s.",
            nodes,
            n=decimal(nodes),
            depth=report.get("depth"),
            records=decimal(records),
            seconds=fixed(float(report.get("seconds", 0)), 2),
        )
    )
    st.json(header, expanded=1)
