"""The A/B tab: B's settings, the first divergence of A and B, both root summaries and B's
tree (the pair itself, and how it follows A, is :mod:`app.live.ab`)."""

from __future__ import annotations

import html

import streamlit as st

from app.components import ui
from app.components.tree_view import render_tree
from app.drawing.figures import html_table
from app.drawing.tree_layout import build_view
from app.inputs.language_choice import chosen
from app.live import ab, history, session
from app.live.ab import on_b_change, on_toggle, stale
from app.live.session import Pair
from app.screen.sidebar import choice_format
from app.words.game_words import move_label
from app.words.i18n import N_, _, decimal, fixed, n_, number_text, percent
from mcts_core import Search
from mcts_core.config import ROLLOUT_POLICIES, TREE_POLICIES
from mcts_lab.compare.records import SYNC_TEXT  # the compare report's own sync sentences

#: B's drawn tree in the A/B tab: its height (px) and the rows drawn.
B_TREE_HEIGHT = 320
B_TREE_LEVELS = 4


def _show(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def summary_rows(a: Search, b: Search) -> list[dict[str, str]]:
    """One row per root move: its share of the root's visits and Q (the mover's view) under A
    and B; ★ marks each search's favourite (``best_action()``)."""
    game, root = a.game, a.root_state
    stats_a, stats_b = history.root_stats(a), history.root_stats(b)
    fav_a = a.best_action() if a.root.children else None
    fav_b = b.best_action() if b.root.children else None
    rows = []
    for action in game.legal_actions(root):
        cells = {_("move"): move_label(game, root, action)}
        for side, stats, fav in (("A", stats_a, fav_a), ("B", stats_b, fav_b)):
            share, q = stats.get(action, (None, None))
            star = "★" if action == fav else ""
            # TRANSLATORS: a column head: the share of the root's visits under search A or B
            cells[_("{side} share", side=side)] = "" if share is None else star + percent(share)
            cells[_("{side} Q", side=side)] = "" if q is None else fixed(q, 2, signed=True)
        rows.append(cells)
    return rows


def divergence_lines(pair: Pair) -> list[str]:
    """What the lockstep found: the first divergence and its explanation
    (``mcts_lab.compare.searches``'s own), or "no divergence yet", and when the two searches went
    out of sync."""
    lockstep = pair.lockstep
    found = lockstep.first_divergence
    if found is None and lockstep.differences and pair.b.iterations > ab.LOCKSTEP_LIMIT:
        lines = [
            n_(
                "No divergence in the first {n} iteration: the lockstep stopped looking there "
                "(each iteration it looks at records both traces).",
                "No divergence in the first {n} iterations: the lockstep stopped looking there "
                "(each iteration it looks at records both traces).",
                ab.LOCKSTEP_LIMIT,
                n=decimal(ab.LOCKSTEP_LIMIT),
            )
        ]
    elif found is None:
        lines = [
            n_(
                "No divergence yet after {count} iteration.",
                "No divergence yet after {count} iterations.",
                pair.b.iterations,
                count=decimal(pair.b.iterations),
            )
        ]
    else:
        # {kind} and {term}: mcts-lab compare's own words (the CLI's, English)
        lines = [
            _(
                "First divergence: iteration {iteration}, depth {depth} ({kind}; deciding "
                "term: {term}).",
                iteration=decimal(found.iteration),
                depth=found.depth,
                kind=found.kind,
                term=found.deciding_term,
            ),
            found.explanation,
        ]
    if lockstep.first_out_of_sync is not None and (
        found is None or lockstep.first_out_of_sync < found.iteration
    ):
        reason = _(SYNC_TEXT[lockstep.out_of_sync_reason or "path"])
        lines.append(
            _(
                "Out of sync from iteration {iteration}: {reason}.",
                iteration=decimal(lockstep.first_out_of_sync),
                reason=reason,
            )
        )
    return lines


HELP = N_(
    "A is the sidebar's search. B searches the same position with the same seed and the "
    "settings in the B popover; every Step and Step N also steps B by as many iterations. Until "
    "their paths part both trees are identical, so the first divergence has one cause."
)
_CSS = ".lab-ab th, .lab-ab td {padding: 0 0.45rem 0 0; text-align: right}"
_LINE = '<p style="font-size:0.85rem;line-height:1.2rem;margin:0.2rem 0">{}</p>'


@ui.guarded
def ab_panel() -> None:
    """The A/B tab, compact for its ~330 px column: the toggle and B's settings on one row,
    the first divergence, both root summaries in one table, then the explanation."""
    ab.restore()
    s = st.session_state
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.toggle(_("A/B lockstep"), key="ab", on_change=on_toggle, help=_(HELP))
        if s["ab"]:
            # the policy and rollout by their values (uct, random): as the CLI's flags
            b_says = dict(c=number_text(f"{float(s['ab_c']):g}"), policy=s["ab_policy"],
                          rollout=s["ab_rollout"])  # fmt: skip
            label = (
                _("B: C {c}, {policy}, {rollout}, solver", **b_says)
                if s["ab_solver"]
                else _("B: C {c}, {policy}, {rollout}", **b_says)
            )
            with st.popover(label, help=_("B's settings (the rest are A's)"), key="ab_b"):
                st.number_input(_("B: C"), 0.0, 5.0, step=0.1, key="ab_c", on_change=on_b_change)
                st.selectbox(_("B: tree policy"), TREE_POLICIES, key="ab_policy",
                             on_change=on_b_change)  # fmt: skip
                st.selectbox(_("B: rollout"), ROLLOUT_POLICIES, key="ab_rollout",
                             on_change=chosen("ab_rollout", on_b_change),
                             format_func=choice_format())  # fmt: skip
                st.toggle(_("B: solver"), key="ab_solver", on_change=on_b_change)
    if not s["ab"]:
        ui.help_text(_(HELP))
        return
    lab = session.session()
    pair = lab.ab
    if pair is None:
        st.caption(_("B is built at the next Step."))
        return
    differences = pair.lockstep.differences
    # the settings by their field names (c, tree_policy): as mcts-lab compare writes them
    differ = (
        _(
            "A / B differ in: {differences}",
            differences=", ".join(
                f"{name} {_show(a)} / {_show(b)}" for name, (a, b) in differences.items()
            ),
        )
        if differences
        else _("A and B have the same settings: their paths must never part.")
    )
    why = stale(pair, lab.search)
    if why is not None:
        # {why}: the live session's words for what changed (app.live.ab.stale)
        said = why[0].upper() + why[1:]
        ui.notice_line("info", _("{why}: the next Step starts A and B again.", why=said))
        return
    if pair.note:
        ui.notice_line("warning", pair.note)
    lines = divergence_lines(pair)
    favourites = []
    for side, search in (("A", pair.lockstep.a), ("B", pair.b)):
        if search.root.children:
            best = search.best_action()
            favourites.append(f"{side} {move_label(search.game, search.root_state, best)}")
    st.html(
        f"<style>{_CSS}</style>"
        + _LINE.format(html.escape(differ))
        + _LINE.format(f"<b>{html.escape(lines[0])}</b>")
        + _LINE.format(
            html.escape(
                n_(
                    "{count} iteration each; favourite ★: {favourites}",
                    "{count} iterations each; favourite ★: {favourites}",
                    pair.b.iterations,
                    count=decimal(pair.b.iterations),
                    favourites=", ".join(favourites) or _("none yet"),
                )
            )
        )
        + f'<div class="lab-ab">{html_table(summary_rows(pair.lockstep.a, pair.b))}</div>'
        + "".join(_LINE.format(html.escape(line)) for line in lines[1:])
    )
    _b_tree(pair.b)


def _b_tree(b: Search) -> None:
    """B's tree, drawn like the main drawing (A's) beside it: the two trees side by side on
    the screen, B's most visited line in numbered purple badges, as in A's (orange means one
    thing, the last selection path: app/drawing/palette.py)."""
    view = build_view(
        b,
        path_ids=set(),
        new_id=None,
        changed_ids=set(),
        focus_id=None,
        player_names=session.player_names(),
        max_levels=B_TREE_LEVELS,
        max_children=2,
        root_children=4,  # the tab's column is about a third of the main drawing's width
    )
    st.caption(_("B's tree (A's is the main drawing); numbered purple badges: B's most visited "
                 "line, as in A's."))  # fmt: skip
    render_tree(view, key="ab_tree", height=B_TREE_HEIGHT)
