"""Pure figure builders: trace -> table rows and formulas, history, arena and sweep -> plotly
figures (the tree as Graphviz DOT is :mod:`app.drawing.tree_dot`).

Nothing here touches Streamlit, so every builder is unit-tested on its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TypedDict

import plotly.graph_objects as go

from app.words.exact import ExactAnswer
from app.words.game_words import shown
from app.words.i18n import LRI, N_, PDI, _, fixed, n_, number_text, percent
from app.words.phrases import result_word
from mcts_core import Decision, IterationTrace, Search
from mcts_core.game import Action, ShortLabels, ShortOutcomeLabels
from mcts_core.nodes import ChanceNode
from mcts_core.policies import FORMULAS, visit_entropy
from mcts_lab.arena import ArenaResult
from mcts_lab.breakpoints.watch import RootStats, Watch, search_stats
from mcts_lab.inspect.statistics_checks import chi_square_sf  # the one chi-square tail: inspect's
from mcts_lab.sweep.stats import SweepResult

__all__ = [
    "cell_text",
    "uct_rows",
    "uct_table_html",
    "formulas_latex",
    "html_table",
    "formula_latex",
    "update_rows",
    "rollout_rows",
    "chance_move",
    "chance_rows",
    "chi_square_p",
    "series_point",
    "watch_figure",
    "history_figure",
    "arena_figure",
    "chance_figure",
]


#: The tables' columns: each row's key (stable, read by code and tests) -> its header as shown
#: (translated by :func:`html_table`; a key not here is shown as it is).
COLUMN_NAMES: dict[str, str] = {
    # TRANSLATORS: a table column: the child the selection chose ("◀ chosen")
    "chosen": N_("chosen"),
    "move": N_("move"),
    "n (before backup)": N_("n (before backup)"),
    "Q": "Q",
    # TRANSLATORS: a table column: the move's value under perfect play
    "exact": N_("exact"),
    # TRANSLATORS: a table column: the exploration bonus of the formula
    "bonus": N_("bonus"),
    "Q + bonus": N_("Q + bonus"),
    "prior P": N_("prior P"),
    # TRANSLATORS: a table column: a proven result (win, draw, loss)
    "proven": N_("proven"),
    "node": N_("node"),
    # TRANSLATORS: a table column: whose view the value is from (a player's name)
    "view of": N_("view of"),
    "value added": N_("value added"),
    "visits now": N_("visits now"),
    "mean now": N_("mean now"),
    "#": "#",
    "player": N_("player"),
    # TRANSLATORS: a table column: the dice's outcome of a rollout move
    "dice": N_("dice"),
    # TRANSLATORS: a table column: an outcome of a dice roll
    "outcome": N_("outcome"),
    "probability": N_("probability"),
    # TRANSLATORS: a table column: how many times the search drew the outcome
    "drawn": N_("drawn"),
    # TRANSLATORS: a table column: the expected number of draws
    "expected": N_("expected"),
    "value": N_("value"),
    # TRANSLATORS: a table column: the move's share of the root's visits
    "visits": N_("visits"),
    # TRANSLATORS: a table column: a mark on the search's favourite when it is wrong
    "mark": N_("mark"),
}

#: A node's kind in the backup table ("#3 (action)").
_NODE_KINDS = {"action": N_("action"), "chance": N_("chance")}


def column_name(key: str) -> str:
    """A table column's header in the current language (a key not in
    :data:`COLUMN_NAMES` as it is)."""
    name = COLUMN_NAMES.get(key)
    return key if name is None else _(name)


def uct_rows(decision: Decision, exact: ExactAnswer | None = None) -> list[dict[str, object]]:
    """One row per child of a decision: visits, Q (deciding player's view), bonus, total, and
    with ``exact`` (the root's decision only) each move's exact value ("win", "?")."""
    rows = []
    for i, terms in enumerate(decision.children):
        rows.append(
            {
                # TRANSLATORS: the mark on the chosen child in the selection table
                "chosen": _("◀ chosen") if i == decision.chosen else "",
                "move": shown(terms.label),
                "n (before backup)": terms.visits,
                # one number format for every value column: signed, 3 decimals
                "Q": f"{terms.q:+.3f}",
                "exact": "" if exact is None else exact.text(terms.action),
                "bonus": f"{terms.bonus:+.3f}",
                "Q + bonus": f"{terms.score:+.3f}",
                "prior P": None if terms.prior is None else f"{terms.prior:.3f}",
                "proven": result_word(terms.proven) if terms.proven else "",
            }
        )
    return rows


def html_table(
    rows: Sequence[Mapping[str, object]],
    highlight: int | None = None,
    titles: Mapping[str, str] | None = None,
    compact: bool = False,
) -> str:
    """A small static HTML table (lighter for the browser than an interactive data grid).

    ``titles`` maps a column's key to the key of the row's text shown as that cell's tooltip
    (a short label's full words); those keys are not columns. ``compact``: one line a row, 18 px
    apart instead of 24 (a table that must fit a short box whole)."""
    if not rows:
        return ""
    titles = titles or {}
    hidden = set(titles.values())
    # Columns that are empty in every row (e.g. priors under UCT) are left out.
    keys = [k for k in rows[0] if k not in hidden and any(row[k] not in (None, "") for row in rows)]
    head = "".join(f"<th>{_html(column_name(k))}</th>" for k in keys)
    body = []
    for i, row in enumerate(rows):
        style = ' style="background:#fef3c7;font-weight:600"' if i == highlight else ""
        cells = "".join(_td(row[k], row.get(titles[k]) if k in titles else None) for k in keys)
        body.append(f"<tr{style}>{cells}</tr>")
    tight = ";line-height:1.2;white-space:nowrap" if compact else ""
    return (
        f'<table class="mcts-table{" lab-compact" if compact else ""}" '
        f'style="font-size:0.85rem;border-collapse:collapse{tight}">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _td(value: object, title: object) -> str:
    """A cell, with ``title`` as its tooltip when given and not the cell's own text."""
    text = cell_text(value)
    if title in (None, "", text):
        return f"<td>{_html(text)}</td>"
    return f'<td title="{_html(title)}">{_html(text)}</td>'


def cell_text(value: object) -> str:
    """A table cell's text as the app's tables show it; a number (or a number's text,
    "+0.333") with the language's symbols ("0,6" in German; English unchanged): what an exported
    slide's tables show too."""
    if value is None:
        return ""
    return number_text(str(value)) if not isinstance(value, bool) else str(value)


def _html(value: object) -> str:
    return (
        str(value)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def uct_table_html(
    decisions: Sequence[Decision],
    player_names: Sequence[str],
    exact: ExactAnswer | None = None,
) -> str:
    """Every decision of a selection path as one HTML table: a heading row per decision (depth,
    node, who decides, N, visit entropy), then each child's n, Q (deciding player's view),
    bonus and total, the chosen child highlighted. ``exact`` (the root's exact answer, given
    only when the first decision is at the current root) adds an ``exact`` column to the
    first table; deeper decisions have none."""
    parts = []
    for depth, d in enumerate(decisions):
        who = _html(player_names[d.player])
        heading = _("Depth {depth} · node #{node}", depth=depth, node=d.node_id)
        said = _(
            "{player} decides, N = {n} before this backup, Q from {player}'s view, visit "
            "entropy {entropy} (of at most {most})",
            player=who, n=d.parent_visits, entropy=fixed(decision_entropy(d), 2),
            most=fixed(math.log(max(1, len(d.children))), 2),
        )  # fmt: skip
        # TRANSLATORS: after a decision's heading: the child was taken by the minimum-visits rule
        rule = f" · <i>{_html(_('minimum-visits rule'))}</i>" if d.rule == "min_visits" else ""
        parts.append(
            f"<p style='margin:0.6rem 0 0.2rem 0'><b>{_html(heading)}</b> — {said}{rule}</p>"
        )
        rows = uct_rows(d, exact if depth == 0 else None)
        parts.append(f'<div style="overflow-x:auto">{html_table(rows, highlight=d.chosen)}</div>')
    return "".join(parts)


def formulas_latex(decisions: Sequence[Decision], policy: str, c: float) -> str:
    """The formula of every decision with the chosen child's numbers: its depth on a line, the
    formula below it and, on the next line, "= " its numbers (one line each was 392-442 px in
    es, de and zh-Hans, wider than the 320 px tab at 1280x720: issue 43)."""
    lines = []
    for depth, d in enumerate(decisions):
        # TRANSLATORS: LaTeX \text: starts a decision's formula lines ("depth 0:"); no braces
        lines.append(rf"&\text{{{_('depth {depth}:', depth=depth)}}}")
        formula, equals, numbers = formula_latex(d, policy, c).partition(r" \;=\; ")
        lines.append(rf"&\quad {formula}")
        if equals:
            lines.append(rf"&\quad \;=\; {numbers}")
    return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"


def formula_latex(decision: Decision, policy: str, c: float) -> str:
    """The decision's formula with the chosen child's live numbers substituted."""
    t = decision.chosen_terms
    n_parent = decision.parent_visits
    if decision.rule == "min_visits":
        # TRANSLATORS: LaTeX: translate the words inside \text{{ }} only (braces are doubled)
        return _(
            r"\text{{minimum visits: a child had fewer than }}T\text{{ visits, so the least "
            r"visited (n={visits})}}\text{{ was taken without the formula}}",
            visits=t.visits,
        )
    q, score, c_text = _tex(f"{t.q:+.3f}"), _tex(f"{t.score:+.3f}"), _tex(f"{c:g}")
    if policy == "ucb1":
        live = (
            rf"{q} + 2\cdot{c_text}\sqrt{{\frac{{2\ln {n_parent}}}{{{t.visits}}}}}"
            rf" = {score}"
        )
    elif policy == "puct":
        prior = _tex(f"{t.prior if t.prior is not None else 0.0:.3f}")
        live = (
            rf"{q} + {c_text}\cdot{prior}\cdot\frac{{\sqrt{{{n_parent}}}}}"
            rf"{{1+{t.visits}}} = {score}"
        )
    elif policy == "uct":
        live = rf"{q} + {c_text}\sqrt{{\frac{{\ln {n_parent}}}{{{t.visits}}}}} = {score}"
    else:  # a policy added to the registry: its formula, then Q + bonus with the numbers
        live = rf"{q} + {_tex(f'{t.bonus:.3f}')} = {score}"
    return rf"{FORMULAS[policy]} \;=\; {live}"


def _tex(text: str) -> str:
    """A number of the formula in the language's symbols, as the table beside it writes it
    ("+1,000" in es and de, not "+1.000"): a decimal comma braced so that LaTeX sets no space
    after it, no direction marks (the formula runs left to right in every language)."""
    return number_text(text).replace(LRI, "").replace(PDI, "").replace(",", "{,}")


def decision_entropy(decision: Decision) -> float:
    """Visit entropy of a decision in nats (0: all visits on one move)."""
    return visit_entropy([t.visits for t in decision.children])


def update_rows(trace: IterationTrace, player_names: Sequence[str]) -> list[dict[str, object]]:
    """The backpropagation, root first: each node's value added and new mean, from the view of
    the player who chose the move into it (so the sign flips between players)."""
    return [
        {
            "node": _(
                "#{node} ({kind})",
                node=u.node_id,
                kind=_(_NODE_KINDS[u.kind]) if u.kind in _NODE_KINDS else u.kind,
            ),
            "view of": player_names[u.view],
            "value added": round(u.added, 4),
            "visits now": u.visits,
            "mean now": round(u.mean, 4),
            "proven": u.proven or "",
        }
        for u in trace.updates
    ]


def rollout_rows(trace: IterationTrace, player_names: Sequence[str]) -> list[dict[str, object]]:
    """The rollout's moves in order."""
    return [
        {
            "#": i + 1,
            "player": player_names[step.player],
            "move": shown(step.action_label),
            "dice": shown(step.outcome_label),
        }
        for i, step in enumerate(trace.evaluation.rollout)
    ]


class ChanceRow(TypedDict):
    """One outcome of a chance node (:func:`chance_rows`)."""

    outcome: str  # its label in the current language's words: the tree box's few characters
    label: str  # its full label in the current language's words (the outcome cell's tooltip)
    probability: float  # exact, rounded to 4 places
    drawn: int  # times the search drew it
    expected: float  # probability x the chance node's visits
    value: float | None  # mean from the chooser's view; None: never drawn


def chance_rows(search: Search, chance: ChanceNode) -> list[ChanceRow]:
    """Every outcome of a chance node: exact probability, times drawn, expected count, value
    (mean from the view of the player who chose the action)."""
    game = search.game
    state = search.state_of(chance)
    total = chance.visits
    player = chance.player
    by_outcome = {child.outcome: child for child in chance.children}
    rows: list[ChanceRow] = []
    for outcome, p in game.chance_outcomes(state, chance.action):
        child = by_outcome.get(outcome)
        visits = child.visits if child else 0
        label = shown(game.outcome_label(state, chance.action, outcome)) or str(outcome)
        rows.append(
            {
                "outcome": _short_outcome(game, state, chance.action, outcome) or label,
                "label": label,
                "probability": round(p, 4),
                "drawn": visits,
                "expected": round(p * total, 2),
                "value": None if child is None or not visits else round(child.mean(player), 4),
            }
        )
    return rows


def chance_move(search: Search, chance: ChanceNode) -> tuple[str, str]:
    """The move whose dice a chance node rolls, in the current language's words: as its tree
    box says it ("pick 1,1", the game's short form, else its full label) and in full ("H1 pick
    up at (1,1)")."""
    game = search.game
    state = search.state_of(chance)
    full = shown(str(game.action_label(state, chance.action)))
    if not isinstance(game, ShortLabels):
        return full, full
    return shown(str(game.short_action_label(state, chance.action))) or full, full


def _short_outcome(game: object, state: object, action: object, outcome: object) -> str:
    """An outcome in the tree box's few characters ("drop 2,0"), in the current language's
    words; "" when the game has no short form (its full label is short enough)."""
    if not isinstance(game, ShortOutcomeLabels):
        return ""
    return shown(str(game.short_outcome_label(state, action, outcome)))


def chi_square_p(observed: Sequence[int], probabilities: Sequence[float]) -> float | None:
    """p-value of Pearson's chi-square test that ``observed`` counts follow ``probabilities``
    (``None`` with fewer than 2 outcomes or no draws). Small p: the sample looks unlikely."""
    total = sum(observed)
    cells = [(o, p * total) for o, p in zip(observed, probabilities, strict=True) if p > 0]
    if total == 0 or len(cells) < 2:
        return None
    statistic = sum((o - e) ** 2 / e for o, e in cells)
    return chi_square_sf(statistic, len(cells) - 1)


def chance_figure(rows: list[ChanceRow]) -> go.Figure:
    """Observed vs expected draws of each outcome."""
    labels = [r["outcome"] for r in rows]
    fig = go.Figure(
        [
            go.Bar(name=column_name("drawn"), x=labels, y=[r["drawn"] for r in rows]),
            go.Bar(name=column_name("expected"), x=labels, y=[r["expected"] for r in rows]),
        ]
    )
    fig.update_layout(barmode="group", height=260, margin=dict(l=10, r=10, t=10, b=10))
    return fig


# ---------------------------------------------------------------- history


class SeriesPoint(TypedDict):
    """One kept point of the history's charts (:func:`series_point`)."""

    iteration: int
    children: dict[str, tuple[int, float]]  # move label -> (visits, Q from the mover's view)
    best: str | None  # the label of the move the search would play (None: no move yet)
    best_action: Action | None  # that move (the regret line's input)
    root: RootStats  # what the watch expressions read


def series_point(search: Search) -> SeriesPoint:
    """The root's children at this moment: {move label: (visits, Q)} and the move the search
    would play (``best``, its label; ``best_action``, the action: the regret line's input);
    ``root``, the root's statistics the watch expressions read (:func:`watch_figure`)."""
    children = search.children_summary()
    best = search.best_child() if children else None
    return {
        "iteration": search.iterations,
        "children": {c.label: (c.visits, c.q) for c in children},
        "best": best.label if best is not None else None,
        "best_action": best.action if best is not None else None,
        "root": search_stats(search),
    }


def watch_figure(watches: Sequence[Watch], series: Sequence[SeriesPoint]) -> go.Figure:
    """One line per watch expression over the kept points of the history (``series``, each
    with its ``root`` statistics), named by the expression; an undefined value is a gap."""
    palette = ("#2563eb", "#dc2626", "#16a34a", "#f59e0b", "#7c3aed", "#0891b2", "#db2777",
               "#65a30d", "#ea580c", "#111827")  # fmt: skip
    points = [p for p in series if "root" in p]
    xs = [p["iteration"] for p in points]
    traces = [
        go.Scatter(
            x=xs,
            y=[w.value(p["root"]) for p in points],
            name=w.text,
            mode="lines",
            line_color=palette[i % len(palette)],
            connectgaps=False,
        )
        for i, w in enumerate(watches)
    ]
    fig = go.Figure(traces)
    fig.update_layout(
        height=300, margin=dict(l=10, r=10, t=30, b=10), xaxis=dict(title=_("iteration")),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0),
    )  # fmt: skip
    return fig


def _by_move(series: Sequence[SeriesPoint], index: int) -> dict[str, tuple[list[int], list[float]]]:
    lines: dict[str, tuple[list[int], list[float]]] = {}
    for point in series:
        for label, stats in point["children"].items():
            xs, ys = lines.setdefault(label, ([], []))
            xs.append(point["iteration"])
            ys.append(stats[index])
    return lines


def history_figure(
    series: Sequence[SeriesPoint],
    regret: Sequence[tuple[int, float | None]] | None = None,
) -> go.Figure:
    """One figure, three stacked panels sharing the iteration axis: visits per root move, Q per
    root move (root player's view) and the move the final-move policy would play. One figure
    with hand-set axis domains (not ``make_subplots``, which costs ~15 ms a rerun) keeps the page
    quick to redraw after every click.

    ``regret`` ((iteration, regret) pairs, :func:`app.words.exact.regret_points`) adds a fourth
    panel
    at the bottom: the exact value the favourite gives away at each point (0: a best move; a
    gap where it is not known)."""
    palette = ("#2563eb", "#dc2626", "#16a34a", "#f59e0b", "#7c3aed", "#0891b2", "#db2777",
               "#65a30d", "#ea580c")  # fmt: skip
    visits, values = _by_move(series, 0), _by_move(series, 1)
    traces = []
    for i, label in enumerate(visits):
        colour = palette[i % len(palette)]
        xs, ys = visits[label]
        traces.append(go.Scatter(x=xs, y=ys, name=shown(label), mode="lines", legendgroup=label,
                                 line_color=colour, yaxis="y3"))  # fmt: skip
        xs, ys = values[label]
        traces.append(go.Scatter(x=xs, y=ys, name=shown(label), mode="lines", legendgroup=label,
                                 line_color=colour, showlegend=False, yaxis="y2"))  # fmt: skip
    points = [(p, best) for p in series if (best := p["best"]) is not None]
    chosen = [shown(best) for _p, best in points]  # (the language's words for the moves)
    traces.append(go.Scatter(x=[p["iteration"] for p, _best in points], y=chosen,
                             mode="lines+markers", line_shape="hv", name=_("chosen"),
                             line_color="#111827", showlegend=False, yaxis="y"))  # fmt: skip
    if regret is None:
        fig = go.Figure(traces)
        fig.update_layout(
            height=560, margin=dict(l=10, r=10, t=30, b=10),
            xaxis=dict(title=_("iteration"), anchor="y"),
            yaxis=dict(domain=[0.0, 0.2], title=_("chosen move"), type="category"),
            yaxis2=dict(domain=[0.27, 0.6], title=_("Q (root player)"), anchor="x"),
            yaxis3=dict(domain=[0.67, 1.0], title=_("visits"), anchor="x"),
        )  # fmt: skip
        return fig
    for trace in traces:  # the regret panel takes the bottom: the others move up one axis
        trace.update(yaxis={"y": "y2", "y2": "y3", "y3": "y4"}[trace.yaxis])
    traces.append(go.Scatter(x=[i for i, __ in regret], y=[r for __, r in regret],
                             name=_("regret"),
                             mode="lines+markers", line_shape="hv", line_color="#b91c1c",
                             showlegend=False, connectgaps=False, yaxis="y"))  # fmt: skip
    fig = go.Figure(traces)
    top = max([r for __, r in regret if r is not None], default=0.0)
    fig.update_layout(
        height=680, margin=dict(l=10, r=10, t=30, b=10),
        xaxis=dict(title=_("iteration"), anchor="y"),
        yaxis=dict(domain=[0.0, 0.14], title=_("regret"), range=[-0.05, max(1.0, top) * 1.1],
                   zeroline=True),
        yaxis2=dict(domain=[0.2, 0.36], title=_("chosen move"), type="category", anchor="x"),
        yaxis3=dict(domain=[0.42, 0.68], title=_("Q (root player)"), anchor="x"),
        yaxis4=dict(domain=[0.74, 1.0], title=_("visits"), anchor="x"),
    )  # fmt: skip
    return fig


def arena_figure(result: ArenaResult) -> go.Figure:
    """Wins, draws and losses of MCTS as home and as away (an ``ArenaResult``)."""
    sides = [_("MCTS as home"), _("MCTS as away")]
    fig = go.Figure(
        [
            go.Bar(name=_("wins"), x=sides, y=[result.home_wins, result.away_wins],
                   marker_color="#16a34a"),
            go.Bar(name=_("draws"), x=sides, y=[result.home_draws, result.away_draws],
                   marker_color="#9ca3af"),
            go.Bar(name=_("losses"), x=sides, y=[result.home_losses, result.away_losses],
                   marker_color="#dc2626"),
        ]
    )  # fmt: skip
    title = n_(
        "{n} game per side vs {opponent}", "{n} games per side vs {opponent}",
        result.games_per_side, opponent=result.opponent,
    )  # fmt: skip
    fig.update_layout(barmode="stack", height=280, margin=dict(l=10, r=10, t=30, b=10),
                      title=title, yaxis_title=_("games"))  # fmt: skip
    return fig


_SIDES = {"home": N_("MCTS as home"), "away": N_("MCTS as away")}


def sweep_figure(result: SweepResult) -> go.Figure:
    """MCTS's win rate per swept value (a ``SweepResult``), as home and as away, each with its
    95% Wilson interval as an error bar; values a stopped sweep never reached are left out."""
    from mcts_lab.sweep.sweeps import wilson_interval

    fig = go.Figure()
    for side, colour in (("home", "#2563eb"), ("away", "#ea580c")):
        labels, rates, above, below = [], [], [], []
        for value in result.results:
            rates_of = getattr(value, side)
            if not rates_of.games:
                continue
            low, high = wilson_interval(rates_of.wins, rates_of.games)
            labels.append(
                f"{value.value:g}" if isinstance(value.value, float) else str(value.value)
            )
            rates.append(rates_of.win_rate)
            above.append(high - rates_of.win_rate)
            below.append(rates_of.win_rate - low)
        fig.add_trace(
            go.Scatter(
                x=labels, y=rates, name=_(_SIDES[side]), mode="markers+lines",
                marker_color=colour,
                error_y=dict(type="data", array=above, arrayminus=below, visible=True),
            )
        )  # fmt: skip
    fig.update_layout(
        height=280, margin=dict(l=10, r=10, t=40, b=10), yaxis=dict(range=[-0.02, 1.05]),
        title=dict(text=_("win rate by {param}, {level} intervals", param=result.param,
                          level=percent(0.95)), font=dict(size=13)),
        scattermode="group", scattergap=0.7,  # home and away side by side at each value
        xaxis_title=result.param, yaxis_title=_("win rate"), xaxis_type="category",
        legend=dict(orientation="h", y=-0.3),
    )  # fmt: skip
    return fig
