"""Quiz mode: predict, then reveal. One question about what the next click will do, answered
before the click, revealed after it with the numbers that decided it.

Pure Python (no Streamlit): :func:`ask` builds a question from the live search,
:func:`settle` grades it once its moment has come, and :class:`QuizState` keeps the session's
score. ``app/quiz_view.py`` draws them. Every answer comes from what really happened: the
selection question is graded by the step's own trace (the tree's UCT numbers decide it, and
:meth:`mcts_core.search.Search.preview_decision` is only used to know which node's children
to offer), the dice question by the game's exact probabilities, the "is it best?" question by
:func:`mcts_lab.exact.exact_values`, the arena question by the arena's games.

Texts are plain strings for a student who knows only what MCTS is; the view escapes them.

The kinds (:data:`QUIZ_KINDS`, one :class:`QuizKind` record each: name, why text, wait hint,
asker, grader; the names are what lesson files use):

- ``select``: which move will selection take at the root (or at depth d)?
- ``expand``: which untried move will the expansion add?
- ``new_value``: will the new node's simulated value be good or bad for the player moving there?
- ``backup``: what will backpropagation add to the root's move on the path (sign flips)?
- ``favourite``: after the next click, will the root's favourite move change?
- ``exact_best``: after the next click, is the search's favourite really a best move?
- ``dice``: which outcome of a chance node is the most likely?
- ``dice_count``: how often should that outcome have come up by now?
- ``arena``: will MCTS win more arena games at home or away?
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from app.narration import fmt
from mcts_core import ChanceNode, Decision, Evaluation, Expansion, IterationTrace, Search
from mcts_core.nodes import ActionNode, Move
from mcts_core.trace import PathStep

__all__ = [
    "KINDS",
    "QUIZ_KINDS",
    "QuizKind",
    "FREE_KINDS",
    "ArenaSetup",
    "Progress",
    "Question",
    "QuizState",
    "Reveal",
    "WAIT_HINTS",
    "ask",
    "predicted_path",
    "remember_search",
    "same_search",
    "settle",
]

Trigger = Literal["iteration", "click", "arena"]
Verdict = Literal["right", "wrong", "unanswered", "dropped"]

#: Exact values are looked for at most this long per root position (then cached).
QUIZ_EXACT_SECONDS = 0.5
#: At most this many answers to pick from (the right one always among them).
MAX_OPTIONS = 10
#: Nodes looked at when looking for a chance node to ask about.
DICE_SEARCH_NODES = 5_000


@dataclass(frozen=True)
class Question:
    """One question, asked about the search as it was at ``iteration``.

    Attributes:
        kind: one of :data:`KINDS`.
        text: the question, plain text.
        options: the answers to pick from (labels, unique).
        iteration: the search's iteration count when asked.
        phase: the search's next phase when asked: the answer locks once it moves on.
        trigger: "iteration" (graded by the trace of iteration ``iteration + 1``), "click" (by
            the tree after the next click that grows it) or "arena" (by the next arena run).
        root: the root position when asked (a move played makes the question void).
        data: what grading needs (node ids, the favourite, probabilities, ...).
    """

    kind: str
    text: str
    options: tuple[str, ...]
    iteration: int
    phase: str
    trigger: Trigger
    root: str
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Reveal:
    """A graded question.

    Attributes:
        question: what was asked.
        answer: the student's answer (``None``: not answered).
        correct: the right option(s).
        verdict: "right", "wrong", "unanswered" or "dropped" (the question no longer applied:
            ``summary`` says why; it does not count).
        summary: what happened, with the numbers that decided it (one or two sentences).
        why: the explanation for a student who knows only what MCTS is.
        rows: a small table of the deciding numbers: a header row, then one row per item.
        marked: the index of the row to highlight (the move taken, ...), or ``None``.
    """

    question: Question
    answer: str | None
    correct: tuple[str, ...]
    verdict: Verdict
    summary: str
    why: str = ""
    rows: tuple[tuple[str, ...], ...] = ()
    marked: int | None = None


@dataclass
class QuizState:
    """The quiz of one session: the open question, the last reveal and the score."""

    pending: Question | None = None
    reveal: Reveal | None = None
    right: int = 0
    answered: int = 0
    unanswered: int = 0
    counter: int = 0  # questions asked: free mode takes turns with the kinds by it
    kinds: tuple[str, ...] | None = None  # a lesson page's kinds (None: free mode)
    depth: int | None = None  # a lesson page's selection depth
    search_ref: Any = None  # weakref to the Search the pending question was asked on

    def record(self, reveal: Reveal) -> None:
        """Count a graded question and keep it as the last reveal."""
        self.reveal = reveal
        self.pending = None
        if reveal.verdict == "right":
            self.right += 1
            self.answered += 1
        elif reveal.verdict == "wrong":
            self.answered += 1
        elif reveal.verdict == "unanswered":
            self.unanswered += 1

    @property
    def score_text(self) -> str:
        text = f"Score {self.right} of {self.answered}"
        if self.unanswered:
            text += f" ({self.unanswered} not answered)"
        return text


@dataclass(frozen=True)
class Progress:
    """The half-done iteration's phases so far (from the history): what a question asked in
    the middle of an iteration may build on."""

    path: tuple[PathStep, ...] | None = None
    expansion: Expansion | None = None
    evaluation: Evaluation | None = None


@dataclass(frozen=True)
class ArenaSetup:
    """The arena as it would run now, and the last result (any object; a new object is a new
    run)."""

    games: int
    iterations: int
    opponent: str
    expansion: str
    result: Any = None


# ---------------------------------------------------------------------- reading the tree


@dataclass(frozen=True)
class PredictedPath:
    """Where the next selection goes, as far as it is decided now.

    Attributes:
        decisions: the decisions it will take, root first (their ``chosen`` is the move).
        end: the node it stops at, when that is certain (``None`` when a die decides the way
            on, or the tree is full).
        stop: why it stops at ``end``: "untried", "terminal", "proven", "dice" or "full".
    """

    decisions: tuple[Decision, ...]
    end: ActionNode | None
    stop: str


def predicted_path(search: Search, max_depth: int = 60) -> PredictedPath:
    """The next selection's path, decided by the tree's numbers now (no change to the tree).

    Selection is deterministic at decision nodes (the first maximum of Q + bonus); a chance
    node draws its outcome at random, so the prediction ends there."""
    node = search.root
    decisions: list[Decision] = []
    for _ in range(max_depth):
        if node.player < 0:
            return PredictedPath(tuple(decisions), node, "terminal")
        if node.proven is not None:
            return PredictedPath(tuple(decisions), node, "proven")
        decision = search.preview_decision(node)
        if decision is None:
            if search.tree_full:
                return PredictedPath(tuple(decisions), None, "full")
            return PredictedPath(tuple(decisions), node, "untried")
        decisions.append(decision)
        move = node.children[decision.chosen]
        if isinstance(move, ChanceNode):
            return PredictedPath(tuple(decisions), None, "dice")
        node = move
    return PredictedPath(tuple(decisions), None, "full")


def _untried(search: Search, node: ActionNode) -> list[tuple[Any, str]]:
    """The node's untried moves with labels, in the game's own order."""
    state = search.state_of(node)
    game = search.game
    tried = {move.action for move in node.children}
    return [(a, game.action_label(state, a)) for a in game.legal_actions(state) if a not in tried]


def _describe_node(search: Search, path: Sequence[Decision], names: Sequence[str]) -> str:
    if not path:
        return "at the root"
    moves = ", ".join(f"{_who(names, d.player)} {d.chosen_terms.label}" for d in path)
    return f"after {moves}"


def _who(names: Sequence[str], player: int) -> str:
    return names[player] if 0 <= player < len(names) else f"player {player}"


def favourite(search: Search) -> tuple[Any, str, int] | None:
    """The root's favourite (the final-move rule's pick): action, label, visits."""
    if not search.root.children:
        return None
    best = search.best_child()
    return best.action, best.label, best.visits


def _visits(n: int) -> str:
    return f"{n:,} visit{'' if n == 1 else 's'}"


def _even_point(search: Search) -> float:
    """The backed-up value of a draw: above it is good for a player, below it bad."""
    return search.value_of_raw(0.0)


# ---------------------------------------------------------------------------- asking


def ask(
    search: Search,
    names: Sequence[str],
    *,
    kinds: Sequence[str] | None = None,
    counter: int = 0,
    depth: int | None = None,
    progress: Progress | None = None,
    arena: ArenaSetup | None = None,
    exact: Callable[[], dict[Any, float | None] | None] | None = None,
) -> Question | None:
    """A question about what the next click will do, or ``None`` when none fits now.

    Args:
        search: the live search.
        names: the players' names.
        kinds: the kinds allowed (default :data:`FREE_KINDS`); the first that fits, starting
            at ``counter`` and taking turns, is asked.
        counter: questions asked so far (free mode takes turns with the kinds by it).
        depth: the selection question's depth (default: 0, or 1 on every other turn).
        progress: the half-done iteration's phases so far (asking mid-iteration).
        arena: the arena's settings and last result (the arena question).
        exact: returns the root's exact values (or ``None``: not known in time), called only
            for the ``exact_best`` question.
    """
    wanted = tuple(kinds) if kinds is not None else FREE_KINDS
    if not wanted:
        return None
    if search.game.is_terminal(search.root_state):
        return None
    start = counter % len(wanted)
    for i in range(len(wanted)):
        kind = wanted[(start + i) % len(wanted)]
        if kind not in QUIZ_KINDS:
            continue
        question = QUIZ_KINDS[kind].ask(
            _Ask(search, tuple(names), counter, depth, progress or Progress(), arena, exact)
        )
        if question is not None:
            return question
    return None


@dataclass(frozen=True)
class _Ask:
    search: Search
    names: tuple[str, ...]
    counter: int
    depth: int | None
    progress: Progress
    arena: ArenaSetup | None
    exact: Callable[[], dict[Any, float | None] | None] | None

    def question(self, kind: str, text: str, options: Sequence[str], trigger: Trigger,
                 **data: Any) -> Question | None:  # fmt: skip
        unique = tuple(dict.fromkeys(options))
        if len(unique) < 2:
            return None  # nothing to choose: not a question
        search = self.search
        return Question(
            kind=kind,
            text=text,
            options=unique,
            iteration=search.iterations,
            phase=str(search.next_phase),
            trigger=trigger,
            root=search.game.format_state(search.root_state),
            data=data,
        )


def _at_select(a: _Ask) -> bool:
    return str(a.search.next_phase) == "select"


def _ask_select(a: _Ask) -> Question | None:
    if not _at_select(a):
        return None
    path = predicted_path(a.search)
    if not path.decisions:
        return None
    if a.depth is not None:
        depth = a.depth
    else:  # free mode: the root, and on every other turn one level deeper when possible
        depth = 1 if a.counter % 2 and len(path.decisions) > 1 else 0
    if depth >= len(path.decisions):
        return None
    decision = path.decisions[depth]
    who = _who(a.names, decision.player)
    if depth == 0:
        text = f"Selection starts at the root ({who} to move). Which move will it take next?"
    else:
        before = ", then ".join(
            f"{_who(a.names, d.player)} {d.chosen_terms.label}" for d in path.decisions[:depth]
        )
        text = f"Selection will go {before}. Then {who} chooses at depth {depth}: which move?"
    return a.question(
        "select",
        text,
        [t.label for t in decision.children],
        "iteration",
        node_id=decision.node_id,
        depth=depth,
    )


def _ask_expand(a: _Ask) -> Question | None:
    if not _at_select(a):
        return None
    path = predicted_path(a.search)
    if path.end is None or path.stop != "untried":
        return None
    untried = _untried(a.search, path.end)
    if len(untried) > MAX_OPTIONS:
        return None
    who = _who(a.names, path.end.player)
    where = _describe_node(a.search, path.decisions, a.names)
    text = (
        f"Selection will stop {where}, where {who} has untried moves. Which one will the "
        f"expansion add ('{a.search.config.expansion_order}' order)?"
    )
    return a.question(
        "expand", text, [label for _, label in untried], "iteration", node_id=path.end.id
    )


def _ask_new_value(a: _Ask) -> Question | None:
    if not _at_select(a):
        return None
    search = a.search
    path = predicted_path(search)
    if path.end is None or path.stop != "untried":
        return None
    node = path.end
    who = _who(a.names, node.player)
    where = _describe_node(search, path.decisions, a.names)
    cfg = search.config
    how = (
        "the heuristic judges it"
        if cfg.rollout_depth == 0
        else "one random game is played from it"
        if cfg.rollout == "random"
        else "one game is played on from it"
    )
    text = (
        f"Next, {who} gets a new move {where}, and {how}. Will the result be good or bad for {who}?"
    )
    options = [f"Good for {who}", "Even (like a draw)", f"Bad for {who}"]
    return a.question("new_value", text, options, "iteration", node_id=node.id, player=node.player)


def _ask_backup(a: _Ask) -> Question | None:
    search = a.search
    if str(search.next_phase) != "backpropagate":
        return None
    evaluation = a.progress.evaluation
    if evaluation is None:
        return None
    first = _first_move(a.progress, search)
    if first is None:
        return None
    node_id, label, chooser = first
    values = evaluation.value
    other = 1 - chooser
    if abs(values[chooser] - values[other]) < 1e-9:
        return None  # the same number either way: nothing to predict
    result = (
        _result_words(evaluation.raw, a.names)
        if evaluation.kind in ("terminal", "rollout", "proven")
        else "the heuristic's value"
    )
    text = (
        f"Simulated: {result}, {fmt(values[0])} for {a.names[0]}, {fmt(values[1])} for "
        f"{a.names[1]}. What will the backup add to {label}, {_who(a.names, chooser)}'s move "
        "at the root?"
    )
    options = sorted({fmt(values[chooser]), fmt(values[other])}, reverse=True)
    return a.question("backup", text, options, "iteration", node_id=node_id, label=label,
                      chooser=chooser)  # fmt: skip


def _first_move(progress: Progress, search: Search) -> tuple[int, str, int] | None:
    """The root's move on the half-done iteration's path: node id, label, who chose it."""
    path = progress.path or ()
    if path and isinstance(path[0], Decision):
        terms = path[0].chosen_terms
        return terms.node_id, terms.label, path[0].player
    expansion = progress.expansion
    if expansion is not None and expansion.parent_id == search.root.id:
        node_id = expansion.chance_id if expansion.chance_id is not None else expansion.node_id
        return node_id, expansion.action_label, search.root.player
    return None


def _result_words(raw: Sequence[float], names: Sequence[str]) -> str:
    if len(raw) >= 2 and raw[0] != raw[1]:
        return f"a win for {_who(names, 0 if raw[0] > raw[1] else 1)}"
    return "a draw"


def _ask_favourite(a: _Ask) -> Question | None:
    if not _at_select(a):
        return None
    fav = favourite(a.search)
    if fav is None or len(a.search.root.children) < 2:
        return None
    _, label, visits = fav
    text = (
        f"The favourite (the move the search would play now) is {label}, {_visits(visits)}. "
        "After your next click (Step or Step N), will it change?"
    )
    options = [f"No, still {label}", "Yes, another move"]
    return a.question("favourite", text, options, "click", label=label, action=fav[0])


def _ask_exact_best(a: _Ask) -> Question | None:
    if not _at_select(a) or a.exact is None or len(a.search.root.children) < 2:
        return None
    values = a.exact()
    if not values or any(v is None for v in values.values()):
        return None
    known = [v for v in values.values() if v is not None]
    if max(known) - min(known) < 1e-9:
        return None  # every move is as good: the question would be empty
    text = (
        "After your next click (Step or Step N), will the search's favourite be a truly best "
        "move, as perfect play (exact minimax) says?"
    )
    options = ["Yes, a best move", "No, a worse move"]
    return a.question("exact_best", text, options, "click", values=dict(values))


def _chance_node(search: Search) -> ChanceNode | None:
    """The most visited chance node with two or more outcomes (breadth first, bounded)."""
    best: ChanceNode | None = None
    queue: deque[Move] = deque([search.root])
    seen = 0
    while queue and seen < DICE_SEARCH_NODES:
        node = queue.popleft()
        seen += 1
        if (
            isinstance(node, ChanceNode)
            and node.visits
            and (best is None or node.visits > best.visits)
        ):
            best = node
        queue.extend(node.children)
    return best


def _dice_facts(search: Search, chance: ChanceNode) -> tuple[str, list[tuple[str, float]]]:
    state = search.state_of(chance)
    game = search.game
    outcomes = [
        (game.outcome_label(state, chance.action, o) or str(o), p)
        for o, p in game.chance_outcomes(state, chance.action)
    ]
    return game.action_label(state, chance.action), outcomes


def _ask_dice(a: _Ask) -> Question | None:
    if not _at_select(a):
        return None
    chance = _chance_node(a.search)
    if chance is None:
        return None
    action, outcomes = _dice_facts(a.search, chance)
    top = max(p for _, p in outcomes)
    likely = [label for label, p in outcomes if p >= top - 1e-12]
    others = [label for label, p in outcomes if p < top - 1e-12]
    if not others:
        return None  # all equally likely: nothing to find
    shown = set(likely[:MAX_OPTIONS] + others[: max(0, 4 - len(likely))])
    options = [label for label, _ in outcomes if label in shown]
    text = (
        f"{action} (node #{chance.id}) needs dice: {len(outcomes)} outcomes. Which of these "
        "is the most likely?"
    )
    return a.question("dice", text, options, "click", node_id=chance.id, correct=likely)


def _ask_dice_count(a: _Ask) -> Question | None:
    if not _at_select(a):
        return None
    chance = _chance_node(a.search)
    if chance is None or chance.visits < 4:
        return None
    action, outcomes = _dice_facts(a.search, chance)
    label, p = max(outcomes, key=lambda item: item[1])
    n = chance.visits
    expected = n * p
    guesses = [round(expected), round(n / len(outcomes)), n, round(expected / 2), 0]
    options: list[int] = []
    for g in guesses:
        if g not in options:
            options.append(g)
    options = sorted(options[:4])
    nearest = min(options, key=lambda g: abs(g - expected))
    text = (
        f"The dice of {action} (node #{chance.id}) were rolled {n} times so far. About how "
        f"often should '{label}' have come up?"
    )
    return a.question(
        "dice_count",
        text,
        [f"about {g}" for g in options],
        "click",
        node_id=chance.id,
        outcome=label,
        probability=p,
        rolls=n,
        correct=f"about {nearest}",
    )


def _ask_arena(a: _Ask) -> Question | None:
    arena = a.arena
    if arena is None:
        return None
    text = (
        f"The arena: {arena.games} games with MCTS as home (moving first), {arena.games} as "
        f"away, against a {arena.opponent} player, {arena.iterations} iterations a move, "
        f"'{arena.expansion}' order. On which side will MCTS win more?"
    )
    options = ["Home", "Away", "The same number"]
    return a.question("arena", text, options, "arena", result_id=id(arena.result))




# --------------------------------------------------------------------------- grading


def settle(
    question: Question,
    search: Search,
    names: Sequence[str],
    *,
    answer: str | None,
    trace: IterationTrace | None,
    arena_result: Any = None,
) -> Reveal | None:
    """Grade ``question`` if its moment has come, else ``None`` (still open).

    Args:
        question: the open question.
        search: the live search (the same one the question was asked on: the caller checks).
        names: the players' names.
        answer: the student's pick (``None``: none).
        trace: the newest history entry's trace (the iteration just finished, if any).
        arena_result: the session's last arena result (the arena question).
    """
    if search.game.format_state(search.root_state) != question.root:
        return _dropped(question, answer, "a move was played, so the tree has a new root")
    if search.iterations < question.iteration:
        return _dropped(question, answer, "the tree was rebuilt")
    if question.trigger == "arena":
        if id(arena_result) == question.data["result_id"] or arena_result is None:
            return None
        return _grade_arena(question, answer, arena_result)
    if search.iterations == question.iteration:
        return None  # the click has not come yet (or the iteration is half done)
    if question.trigger == "iteration":
        target = question.iteration + 1
        if search.iterations != target or trace is None or trace.iteration != target:
            return _dropped(
                question,
                answer,
                f"{search.iterations - question.iteration:,} iterations ran at once (Step N), "
                "and the question was about one",
            )
    grade = QUIZ_KINDS[question.kind].grade
    assert grade is not None  # only the arena question has no grader: it returned above
    return grade(question, search, tuple(names), answer, trace)


def _verdict(answer: str | None, correct: Sequence[str]) -> Verdict:
    if answer is None:
        return "unanswered"
    return "right" if answer in correct else "wrong"


def _dropped(question: Question, answer: str | None, reason: str) -> Reveal:
    return Reveal(question, answer, (), "dropped", f"That question no longer applies: {reason}.")


def _grade_select(q: Question, search: Search, names: tuple[str, ...], answer: str | None,
                  trace: IterationTrace | None) -> Reveal:  # fmt: skip
    assert trace is not None
    decision = next((d for d in trace.decisions if d.node_id == q.data["node_id"]), None)
    if decision is None:
        return _dropped(q, answer, "the selection did not pass that node")
    chosen = decision.chosen_terms
    who = _who(names, decision.player)
    rows: list[tuple[str, ...]] = [("move", "n before", "Q", "bonus", "Q + bonus")]
    rows += [(t.label, str(t.visits), fmt(t.q), fmt(t.bonus), fmt(t.score))
             for t in decision.children]  # fmt: skip
    if decision.rule == "min_visits":
        summary = (
            f"Selection took {chosen.label}: it had the fewest visits ({chosen.visits}), and "
            "the minimum-visits rule gives every move its visits before the formula counts."
        )
    elif decision.rule == "solver" or chosen.proven:
        summary = f"Selection took {chosen.label}: the solver proved it a {chosen.proven}."
    else:
        others = [t for i, t in enumerate(decision.children) if i != decision.chosen]
        runner = max(others, key=lambda t: t.score) if others else None
        summary = (
            f"{who} took {chosen.label}: Q {fmt(chosen.q)} + bonus {fmt(chosen.bonus)} = "
            f"{fmt(chosen.score)}, the largest"
        )
        if runner is not None:
            tie = " (a tie: the first listed wins)" if runner.score == chosen.score else ""
            summary += f"; next was {runner.label} with {fmt(runner.score)}{tie}"
        summary += "."
    return Reveal(q, answer, (chosen.label,), _verdict(answer, (chosen.label,)), summary,
                  _why(q), tuple(rows), decision.chosen)  # fmt: skip


def _grade_expand(q: Question, search: Search, names: tuple[str, ...], answer: str | None,
                  trace: IterationTrace | None) -> Reveal:  # fmt: skip
    assert trace is not None
    expansion = trace.expansion
    if expansion is None or expansion.parent_id != q.data["node_id"]:
        return _dropped(q, answer, "the expansion happened elsewhere")
    label = expansion.action_label
    order = search.config.expansion_order
    summary = (
        f"It added {label} (node #{expansion.node_id}), by the '{order}' expansion order; "
        f"{expansion.untried} move{'' if expansion.untried == 1 else 's'} there still untried."
    )
    return Reveal(q, answer, (label,), _verdict(answer, (label,)), summary, _why(q))


def _grade_new_value(q: Question, search: Search, names: tuple[str, ...], answer: str | None,
                     trace: IterationTrace | None) -> Reveal:  # fmt: skip
    assert trace is not None
    expansion = trace.expansion
    if expansion is None or expansion.parent_id != q.data["node_id"]:
        return _dropped(q, answer, "the new node was added elsewhere")
    player = int(q.data["player"])
    who = _who(names, player)
    evaluation = trace.evaluation
    value = evaluation.value[player]
    even = _even_point(search)
    if value > even + 1e-9:
        correct = f"Good for {who}"
    elif value < even - 1e-9:
        correct = f"Bad for {who}"
    else:
        correct = "Even (like a draw)"
    if evaluation.kind == "rollout":
        how = (
            f"the rollout played {len(evaluation.rollout)} random move"
            f"{'' if len(evaluation.rollout) == 1 else 's'} to the end: "
            + _result_words(evaluation.raw, names)
        )
    elif evaluation.kind == "terminal":
        how = f"the move ends the game: {_result_words(evaluation.raw, names)}"
    elif evaluation.kind == "cutoff":
        how = "the rollout stopped at its limit and the heuristic judged the position"
    else:
        how = "the heuristic judged the new position"
    summary = (
        f"{who} played {expansion.action_label}; {how}. Value for {who}: {fmt(value)} "
        f"(a draw is worth {fmt(even)}), so the answer is: {correct}."
    )
    rows = (("player", "value brought back"),) + tuple(
        (_who(names, p), fmt(evaluation.value[p])) for p in range(len(evaluation.value))
    )
    return Reveal(q, answer, (correct,), _verdict(answer, (correct,)), summary, _why(q),
                  rows, player)  # fmt: skip


def _grade_backup(q: Question, search: Search, names: tuple[str, ...], answer: str | None,
                  trace: IterationTrace | None) -> Reveal:  # fmt: skip
    assert trace is not None
    update = next((u for u in trace.updates if u.node_id == q.data["node_id"]), None)
    if update is None:
        return _dropped(q, answer, "that node was not on the path")
    correct = fmt(update.added)
    chooser = _who(names, update.view)
    summary = (
        f"It added {correct} to {q.data['label']}: that node counts for {chooser}, who chose "
        f"it. Its Q is now {fmt(update.mean)} after {update.visits} visits."
    )
    rows: list[tuple[str, ...]] = [("node", "counted for", "added", "Q now")]
    marked = None
    for i, u in enumerate(trace.updates):
        if u.node_id == update.node_id:
            marked = i
        rows.append((f"#{u.node_id}", _who(names, u.view), fmt(u.added), fmt(u.mean)))
    return Reveal(q, answer, (correct,), _verdict(answer, (correct,)), summary, _why(q),
                  tuple(rows), marked)  # fmt: skip


def _grade_favourite(q: Question, search: Search, names: tuple[str, ...], answer: str | None,
                     trace: IterationTrace | None) -> Reveal:  # fmt: skip
    fav = favourite(search)
    assert fav is not None  # the root had children when asked and keeps them
    same = fav[0] == q.data["action"]
    correct = q.options[0] if same else q.options[1]
    ran = search.iterations - q.iteration
    summary = (
        f"After {ran:,} more iteration{'' if ran == 1 else 's'} the favourite is {fav[1]} "
        f"({_visits(fav[2])}): {'unchanged' if same else 'it changed from ' + q.data['label']}."
    )
    rows, marked = _root_rows(search, fav[0])
    return Reveal(q, answer, (correct,), _verdict(answer, (correct,)), summary, _why(q),
                  rows, marked)  # fmt: skip


def _root_rows(
    search: Search, marked_action: Any, exact: dict[Any, float | None] | None = None
) -> tuple[tuple[tuple[str, ...], ...], int | None]:
    """The root's moves, most visited first: move, visits, Q (and the exact value)."""
    children = sorted(search.children_summary(), key=lambda c: -c.visits)
    header: tuple[str, ...] = ("move", "visits", "Q")
    if exact is not None:
        header += ("perfect play",)
    rows: list[tuple[str, ...]] = [header]
    marked = None
    for i, c in enumerate(children):
        row: tuple[str, ...] = (c.label, f"{c.visits:,}", fmt(c.q))
        if exact is not None:
            row += (_exact_words(exact.get(c.action)),)
        rows.append(row)
        if c.action == marked_action:
            marked = i
    return tuple(rows), marked


def _exact_words(value: float | None) -> str:
    if value is None:
        return "?"
    if value >= 1 - 1e-9:
        return "win"
    if value <= -1 + 1e-9:
        return "loss"
    if abs(value) < 1e-9:
        return "draw"
    return fmt(value)


def _grade_exact_best(q: Question, search: Search, names: tuple[str, ...], answer: str | None,
                      trace: IterationTrace | None) -> Reveal:  # fmt: skip
    values: dict[Any, float | None] = q.data["values"]
    fav = favourite(search)
    assert fav is not None
    known = [v for v in values.values() if v is not None]
    best = max(known)
    mine = values.get(fav[0])
    is_best = mine is not None and mine >= best - 1e-9
    correct = q.options[0] if is_best else q.options[1]
    best_moves = [
        c.label
        for c in search.children_summary()
        if (value := values.get(c.action)) is not None and value >= best - 1e-9
    ]
    summary = (
        f"After {search.iterations:,} iterations the favourite is {fav[1]} ({_visits(fav[2])}); "
        f"perfect play says it is a {_exact_words(mine)}"
    )
    if is_best:
        summary += ", as good as any move."
    else:
        summary += f", while {', '.join(best_moves)} {'is a' if len(best_moves) == 1 else 'are'}"
        summary += f" {_exact_words(best)}{'' if len(best_moves) == 1 else 's'}."
    rows, marked = _root_rows(search, fav[0], values)
    return Reveal(q, answer, (correct,), _verdict(answer, (correct,)), summary, _why(q),
                  rows, marked)  # fmt: skip


def _dice_rows(search: Search, node_id: int) -> tuple[tuple[tuple[str, ...], ...], int, str]:
    """Every outcome of the chance node now: probability, expected count, times drawn."""
    chance = search.find_node(node_id)
    if not isinstance(chance, ChanceNode):
        return (), 0, ""
    state = search.state_of(chance)
    game = search.game
    drawn = {child.outcome: child.visits for child in chance.children}
    rows: list[tuple[str, ...]] = [("outcome", "probability", "expected", "came up")]
    for outcome, p in game.chance_outcomes(state, chance.action):
        label = game.outcome_label(state, chance.action, outcome) or str(outcome)
        rows.append((label, f"{p:.3f}", f"{p * chance.visits:.1f}", f"{drawn.get(outcome, 0):,}"))
    return tuple(rows), chance.visits, game.action_label(state, chance.action)


def _grade_dice(q: Question, search: Search, names: tuple[str, ...], answer: str | None,
                trace: IterationTrace | None) -> Reveal:  # fmt: skip
    correct = tuple(q.data["correct"])
    rows, rolls, action = _dice_rows(search, q.data["node_id"])
    if not rows:
        return _dropped(q, answer, "that chance node left the tree")
    top = next(r for r in rows[1:] if r[0] == correct[0])
    summary = (
        f"'{correct[0]}' has probability {top[1]}: after {rolls:,} rolls of {action} it should "
        f"have come up about {top[2]} times, and it came up {top[3]}."
    )
    marked = next(i for i, r in enumerate(rows[1:]) if r[0] == correct[0])
    return Reveal(q, answer, correct, _verdict(answer, correct), summary, _why(q), rows,
                  marked)  # fmt: skip


def _grade_dice_count(q: Question, search: Search, names: tuple[str, ...], answer: str | None,
                      trace: IterationTrace | None) -> Reveal:  # fmt: skip
    correct = (str(q.data["correct"]),)
    p, n = float(q.data["probability"]), int(q.data["rolls"])
    rows, rolls, _ = _dice_rows(search, q.data["node_id"])
    if not rows:
        return _dropped(q, answer, "that chance node left the tree")
    row = next(r for r in rows[1:] if r[0] == q.data["outcome"])
    summary = (
        f"'{q.data['outcome']}' has probability {p:.3f}, so {n:,} rolls x {p:.3f} = "
        f"{n * p:.1f} expected. Now, after {rolls:,} rolls, it has come up {row[3]} times "
        f"(expected {row[2]})."
    )
    marked = next(i for i, r in enumerate(rows[1:]) if r[0] == q.data["outcome"])
    return Reveal(q, answer, correct, _verdict(answer, correct), summary, _why(q), rows,
                  marked)  # fmt: skip


def _grade_arena(q: Question, answer: str | None, result: Any) -> Reveal:
    home, away = int(result.home_wins), int(result.away_wins)
    correct = "Home" if home > away else "Away" if away > home else "The same number"
    games = int(result.games_per_side)
    summary = (
        f"MCTS won {home} of {games} games at home and {away} of {games} away "
        f"({result.home_draws} and {result.away_draws} draws)."
    )
    rows = (
        ("side", "wins", "draws", "losses"),
        ("home", str(home), str(result.home_draws), str(result.home_losses)),
        ("away", str(away), str(result.away_draws), str(result.away_losses)),
    )
    return Reveal(q, answer, (correct,), _verdict(answer, (correct,)), summary, _why(q), rows)

# --------------------------------------------------------------------------- the kinds

Grader = Callable[[Question, Search, tuple[str, ...], str | None, IterationTrace | None], Reveal]


@dataclass(frozen=True)
class QuizKind:
    """One kind of question: a new kind is one record in :data:`QUIZ_KINDS`.

    Attributes:
        name: what lesson files call it (``questions = [...]``).
        why: the paragraph shown with the answer: why MCTS does what the question asked about.
        wait_hint: what a lesson page's question waits for when it cannot be asked yet.
        ask: the question now, or ``None`` when none fits the search.
        grade: the answer once the click has come; ``None`` for the arena question, which
            :func:`settle` grades from the arena's result.
    """

    name: str
    why: str
    wait_hint: str
    ask: Callable[[_Ask], Question | None]
    grade: Grader | None


#: Both dice questions explain the same thing.
DICE_WHY = (
    "A chance node stands for dice. Each time the search passes through it, it draws an outcome "
    "with its exact probability, so after n rolls an outcome of probability p should have come up "
    "about n x p times. The counts wander around that, less and less as n grows."
)

#: Every kind of question, in the order free quiz mode takes turns with them.
QUIZ_KINDS: dict[str, QuizKind] = {
    kind.name: kind
    for kind in (
        QuizKind(
            "select",
            why=(
                "At every node, selection adds two numbers for each move: Q, the average result of "
                "the simulations through it so far (from the view of the player choosing there), "
                "and an exploration bonus that is large for moves tried rarely and shrinks with "
                "every visit. It takes the move with the largest sum, so a move wins by looking "
                "good or by being unexplored. C sets how much the bonus counts."
            ),
            wait_hint=(
                "a node whose moves were all tried (press Step until the root has tried them all)"
            ),
            ask=_ask_select,
            grade=_grade_select,
        ),
        QuizKind(
            "new_value",
            why=(
                "Simulation values the new node: a rollout plays the game to the end with random "
                "moves (or the heuristic judges the position without playing on). One random game "
                "is noisy: a strong move can lose it and a weak one can win it. MCTS trusts the "
                "average of many."
            ),
            wait_hint="a new node to be added on the next path (not a finished game)",
            ask=_ask_new_value,
            grade=_grade_new_value,
        ),
        QuizKind(
            "favourite",
            why=(
                "The favourite is the move the search would play now (by its final-move rule, "
                "normally the most visited move). One iteration adds one visit somewhere, so the "
                "favourite changes only when two moves are close; many iterations can overturn it."
            ),
            wait_hint="two or more moves tried at the root (press Step)",
            ask=_ask_favourite,
            grade=_grade_favourite,
        ),
        QuizKind(
            "expand",
            why=(
                "Selection stops at a node with a move never tried; expansion adds one such move "
                "as a new node. Which one depends on the expansion order: 'listed' takes the moves "
                "in the game's own order, 'random' in a shuffled order, 'heuristic' the most "
                "promising first."
            ),
            wait_hint="a node with untried moves on the next path (at most 10 of them)",
            ask=_ask_expand,
            grade=_grade_expand,
        ),
        QuizKind(
            "dice",
            why=DICE_WHY,
            wait_hint="a chance node in the tree (a move with dice)",
            ask=_ask_dice,
            grade=_grade_dice,
        ),
        QuizKind(
            "exact_best",
            why=(
                "MCTS estimates each move by sampling games. With few iterations, a move whose "
                "refutation is one precise reply can look good, because random games rarely find "
                "that reply. Exact minimax checks every reply, so it knows which moves are truly "
                "best; more iterations (or the solver, which proves wins and losses) bring MCTS to "
                "the same answer."
            ),
            wait_hint="exact values of every root move, found within half a second",
            ask=_ask_exact_best,
            grade=_grade_exact_best,
        ),
        QuizKind(
            "dice_count",
            why=DICE_WHY,
            wait_hint="a chance node rolled at least 4 times",
            ask=_ask_dice_count,
            grade=_grade_dice_count,
        ),
        QuizKind(
            "backup",
            why=(
                "Backpropagation adds the simulation's value to every node on the path. Each node "
                "counts it from the view of the player who chose the move into it, so one result "
                "is + for one player and - for the other: the sign flips wherever the player to "
                "move changes. That is how one tree serves both players, each picking what is best "
                "for itself."
            ),
            wait_hint="the backpropagate phase (press Phase until the button says backpropagate)",
            ask=_ask_backup,
            grade=_grade_backup,
        ),
        QuizKind(
            "arena",
            why=(
                "The arena plays whole games with the sidebar's settings, as home (moving first) "
                "and as away. With the 'listed' expansion order the search tries moves towards "
                "larger x first, which is forward for home and backward for away: the botbowl "
                "tutorial's asymmetry. With few games, luck decides much of the difference; the "
                "README's 40-game table is steadier."
            ),
            wait_hint="the arena",
            ask=_ask_arena,
            grade=None,
        ),
    )
}
KINDS: tuple[str, ...] = tuple(QUIZ_KINDS)
#: The kinds free quiz mode asks (the arena question only comes with a lesson page).
FREE_KINDS: tuple[str, ...] = tuple(k for k in KINDS if k != "arena")
#: What a lesson page's question waits for, by kind.
WAIT_HINTS: dict[str, str] = {kind.name: kind.wait_hint for kind in QUIZ_KINDS.values()}


def _why(question: Question) -> str:
    return QUIZ_KINDS[question.kind].why



def same_search(state: QuizState, search: Search) -> bool:
    """True when the open question was asked on this very search object."""
    ref = state.search_ref
    return ref is not None and ref() is search


def remember_search(state: QuizState, search: Search) -> None:
    state.search_ref = weakref.ref(search)
