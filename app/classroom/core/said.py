"""The facts behind the class frame's words, and the words made from them in the reader's
language (issue 34: each phone in its own language while the projector speaks the teacher's).

Pure (no Streamlit). The teacher's page publishes the facts beside the finished text of its own
language (``app.classroom.core.frame.Frame``: ``said``, ``numbers``); a phone renders them with the
narration's own functions (:func:`app.words.narration.narrate_iteration`,
:func:`~app.words.narration.narrate_phase`, :func:`app.words.c_sentence.flip_sentence`) in the
language its run has set. Facts are plain JSON data: a trace as
:meth:`mcts_core.trace.IterationTrace.to_dict` writes it, a phase's result the same way.
Reading them back never fails: anything missing or malformed gives ``None`` and the phone shows
the teacher's text instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from app.classroom.core.records import ClassError, Poll
from app.quiz import records as _records
from app.words.c_sensitivity import flip_c
from app.words.c_sentence import flip_sentence
from app.words.i18n import N_, _, current_tag, decimal, n_
from app.words.narration import PhaseContext, narrate_iteration, narrate_phase
from mcts_core.trace import (
    Decision,
    IterationTrace,
    PathStep,
    evaluation_from_dict,
    expansion_from_dict,
    json_float,
    json_int,
    json_str,
    step_from_dict,
)

__all__ = [
    "START",
    "choice_text",
    "flip_facts",
    "narration_facts",
    "question_text",
    "refusal",
    "render_line",
    "render_numbers",
    "reveal_rows",
    "root_decision",
    "stats_facts",
    "summary_text",
    "tree_in_language",
    "tree_words_of",
    "why_text",
]

#: What the screen says before the first click (the same words as the teacher's screen).
START = (
    "Press Step to run one iteration of MCTS: select a path down the tree, expand one "
    "new node, simulate a game from it, and backpropagate the result up the path. "
    "Phase runs one of the four at a time."
)
_PHASES = ("select", "expand", "evaluate", "backpropagate")


# ----------------------------------------------------------------------- writing facts


def _step(step: PathStep) -> dict[str, Any]:
    data = asdict(step)
    data["type"] = "decision" if isinstance(step, Decision) else "chance"
    for child in data.get("children", ()):
        child["action"] = child["label"]  # (the game's action object: its label stands in)
    return data


def _trace(trace: IterationTrace) -> dict[str, Any]:
    return trace.to_dict()


def _result(phase: str, result: Any) -> Any:
    if phase == "select":
        return [_step(s) for s in result]
    if phase in ("expand", "evaluate"):
        return None if result is None else asdict(result)
    return _trace(result)


def narration_facts(
    trace: IterationTrace | None,
    phase: str | None,
    result: Any,
    context: PhaseContext | IterationTrace | None,
    names: Sequence[str],
    c: float,
    policy: str,
) -> dict[str, Any] | None:
    """The facts of one history entry's narration: a whole iteration's ``trace``, or one
    ``phase``'s ``result`` with its ``context`` (:func:`app.words.narration.narrate_phase`'s
    arguments), with the player names and the settings. ``None``: nothing to narrate from
    facts (a move played, a link opened: the teacher's text stands)."""
    try:
        if phase is not None:
            if phase not in _PHASES:
                return None
            ctx: Any = None
            if isinstance(context, IterationTrace):
                ctx = {"trace": _trace(context)}
            elif isinstance(context, PhaseContext):
                ctx = {
                    "path": [_step(s) for s in context.path],
                    "stop": context.stop,
                    "leaf_player": context.leaf_player,
                    "leaf_id": context.leaf_id,
                }
            return {
                "kind": "phase",
                "phase": phase,
                "result": _result(phase, result),
                "context": ctx,
                "names": list(names),
                "c": float(c),
                "policy": str(policy),
            }
        if trace is None:
            return None
        return {
            "kind": "iteration",
            "trace": _trace(trace),
            "names": list(names),
            "c": float(c),
            "policy": str(policy),
        }
    except (TypeError, ValueError, AttributeError):
        return None


def flip_facts(c: float, policy: str, at: int) -> dict[str, Any]:
    """The sentence on C of the narration's line ``at``'s root decision (the phone works the
    flip out again from the decision its facts carry)."""
    return {"kind": "flip", "line": at, "c": float(c), "policy": str(policy)}


def stats_facts(
    iteration: int, nodes: int, depth: int, rate: float, entry: int | None, last: int | None,
    what: str,
) -> dict[str, Any]:  # fmt: skip
    """The statistics line as numbers (``entry``/``last``: the history entry shown and the
    newest, ``None`` before the first click; ``what`` the entry's label as the teacher's
    screen wrote it)."""
    return {
        "iteration": int(iteration),
        "nodes": int(nodes),
        "depth": int(depth),
        "rate": float(rate),
        "entry": entry,
        "last": last,
        "what": str(what),
    }


# ----------------------------------------------------------------------- reading facts


_int, _float, _str = json_int, json_float, json_str  # the facts' values checked as a trace's
_read_trace = IterationTrace.from_dict


def _names(facts: Mapping[str, Any]) -> tuple[str, str]:
    """The players' names in the current language: the facts carry the game's own (English)
    names ("Home", "First"; X and O are marks), translated here with ``_()`` as
    ``app.live.session.player_names`` does for the teacher's screen (a frame of an older
    version carried the teacher's words: a name the catalogue does not know stays as it is)."""
    names = [_str(n) for n in facts["names"]]
    if len(names) != 2:
        raise ValueError(names)
    return _(names[0]), _(names[1])


def _context(d: Any) -> PhaseContext | IterationTrace | None:
    if d is None:
        return None
    if "trace" in d:
        return _read_trace(d["trace"])
    stop = _str(d["stop"])
    if stop not in ("untried", "new_outcome", "terminal", "proven", "repeat", "full"):
        raise ValueError(stop)
    return PhaseContext(
        tuple(step_from_dict(s) for s in d["path"]),
        stop,  # type: ignore[arg-type]
        _int(d["leaf_player"]),
        _int(d["leaf_id"]),
    )


def _phase_result(phase: str, d: Any) -> Any:
    if phase == "select":
        return tuple(step_from_dict(s) for s in d)
    if phase == "expand":
        return expansion_from_dict(d)
    if phase == "evaluate":
        return evaluation_from_dict(d)
    return _read_trace(d)


def root_decision(facts: Mapping[str, Any]) -> Decision | None:
    """The first decision of a narration's facts, as the teacher's screen finds it for the
    sentence on C: a whole iteration's path, a select phase's result, a backpropagate phase's
    trace; ``None`` otherwise, or when the facts do not read."""
    try:
        if facts.get("kind") == "iteration":
            steps: Sequence[PathStep] = _read_trace(facts["trace"]).path
        elif facts.get("kind") == "phase" and facts.get("phase") == "select":
            steps = _phase_result("select", facts["result"])
        elif facts.get("kind") == "phase" and facts.get("phase") == "backpropagate":
            steps = _read_trace(facts["result"]).path
        else:
            return None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None
    return next((s for s in steps if isinstance(s, Decision)), None)


def render_line(facts: object, lines_facts: Sequence[object] = ()) -> str | None:
    """One narration line made from its facts in the current language; ``None`` when the
    facts do not read (the teacher's text is shown then). ``lines_facts``: every line's facts
    (a flip's facts point at the line whose decision it is about)."""
    if not isinstance(facts, dict):
        return None
    kind = facts.get("kind")
    try:
        if kind == "start":
            return _(START)
        if kind == "iteration":
            trace = _read_trace(facts["trace"])
            return narrate_iteration(
                trace, _names(facts), _float(facts["c"]), _str(facts["policy"])
            )
        if kind == "phase":
            phase = _str(facts["phase"])
            if phase not in _PHASES:
                return None
            return narrate_phase(
                phase,
                _phase_result(phase, facts["result"]),
                _context(facts.get("context")),
                _names(facts),
                _float(facts["c"]),
                _str(facts["policy"]),
            )
        if kind == "flip":
            at = _int(facts["line"])
            about = lines_facts[at] if 0 <= at < len(lines_facts) else None
            decision = root_decision(about) if isinstance(about, dict) else None
            if decision is None:
                return None
            flip = flip_c(decision, _str(facts["policy"]), _float(facts["c"]))
            return flip_sentence(flip) if flip is not None else None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError):
        return None
    return None


def render_numbers(numbers: object) -> str | None:
    """The statistics line from its numbers in the current language (``None``: they do not
    read)."""
    if not isinstance(numbers, dict):
        return None
    try:
        rate = _float(numbers["rate"])
        entry, last = numbers.get("entry"), numbers.get("last")
        what_in = numbers.get("what_in")
        what = numbers.get("what")
        if isinstance(what_in, dict) and isinstance(what_in.get(current_tag()), str):
            what = what_in[current_tag()]
        if entry is None or last is None:
            where = _("no clicks yet")
        elif _int(entry) != _int(last):
            where = _(
                "entry {number} of {last}: {what} (history; Forward ▶ goes on)",
                number=decimal(entry),
                last=decimal(last),
                what=_str(what),
            )
        else:
            where = _(
                "entry {number} of {last}: {what}",
                number=decimal(entry),
                last=decimal(last),
                what=_str(what),
            )
        return _(
            "Iteration {iteration} · Nodes {nodes} · Depth {depth} · Iterations/s {rate} · {where}",
            iteration=decimal(_int(numbers["iteration"])),
            nodes=decimal(_int(numbers["nodes"])),
            depth=decimal(_int(numbers["depth"])),
            rate=decimal(round(rate)) if rate > 0 else "–",
            where=where,
        )
    except (KeyError, TypeError, ValueError):
        return None


# --------------------------------------------------------------------------- refusals


#: What any error that is not the class's own refusal says (the store away: an ``OSError``):
#: the reader's words, never the exception's name or address (the log keeps those).
STORE_AWAY = N_("the class store did not answer")


def refusal(error: BaseException) -> str:
    """What a failed class action says, in the current language: a :class:`ClassError`'s
    message with its values (whole numbers the language's way); another error (the store
    away: ``OSError``) :data:`STORE_AWAY`."""
    if not isinstance(error, ClassError):
        return _(STORE_AWAY)
    values = {
        name: decimal(value) if isinstance(value, int) and not isinstance(value, bool) else value
        for name, value in error.values.items()
    }
    try:
        count = error.values.get("n")
        if error.plural is not None and isinstance(count, int):
            return n_(error.message, error.plural, count, **values)
        return _(error.message, **values)
    except (KeyError, IndexError, ValueError):  # (a catalogue's placeholder gone wrong)
        return str(error)


# ------------------------------------------------------------------- a question's words


def _facts_for(facts: dict[str, Any] | None, poll: Poll) -> dict[str, Any] | None:
    """A question's facts from the frame when they are this poll's (its id and its choices)."""
    if not facts or facts.get("poll") != poll.id:
        return None
    options = facts.get("options")
    if not isinstance(options, list) or not set(poll.choices) <= {str(o) for o in options}:
        return None
    return facts


def question_text(facts: dict[str, Any] | None, poll: Poll) -> str:
    """The question in the current language from its facts (``app.quiz.records``), or the
    text the class's store keeps (the teacher's English)."""
    found = _facts_for(facts, poll)
    if found is None:
        return poll.text
    try:
        return _records.question_words(found, poll.text)
    except Exception:  # facts another replica wrote: the stored text then
        return poll.text


def choice_text(facts: dict[str, Any] | None, poll: Poll, choice: str) -> str:
    """How the answer ``choice`` (a stable value: what the store keeps) reads in this page's
    language."""
    found = _facts_for(facts, poll)
    if found is None:
        return choice
    try:
        return _records.choice_words(found, found["options"], choice)
    except Exception:  # facts another replica wrote: the stored value then
        return choice


def summary_text(facts: dict[str, Any] | None, poll: Poll) -> str:
    """What decided a revealed question, in the current language where the frame has its facts."""
    found = _facts_for(facts, poll)
    if found is None or "summary" not in found:
        return poll.summary
    try:
        return _records.summary_words(found, poll.summary)
    except Exception:  # facts another replica wrote: the stored summary then
        return poll.summary


def reveal_rows(facts: dict[str, Any] | None, poll: Poll) -> tuple[tuple[str, ...], ...]:
    """The revealed question's table of deciding numbers (a header row, then one row per
    item) in the current language, from the reveal's facts in the frame (``rows``: a spec per
    cell, ``app.quiz.records.rows_words``); ``()`` when the frame has none for this poll (a
    frame of an older version, another question) or they do not read."""
    found = _facts_for(facts, poll)
    if found is None or not isinstance(found.get("rows"), list) or not found["rows"]:
        return ()
    try:
        rows = _records.rows_words(found, ())
    except Exception:
        return ()
    if not all(isinstance(row, tuple) and len(row) == len(rows[0]) for row in rows):
        return ()
    return rows


def why_text(facts: dict[str, Any] | None, poll: Poll) -> str:
    """Why MCTS does what the revealed question asked about, in the current language (the
    reveal's facts carry the quiz kind's English message, ``Reveal.why``); ``""`` when none."""
    found = _facts_for(facts, poll)
    why = found.get("why") if found is not None else None
    if not isinstance(why, str) or not why:
        return ""
    try:
        return _(why)
    except (KeyError, IndexError, ValueError):  # (a catalogue's braces gone wrong)
        return why


# ------------------------------------------------------------------- the tree's words


def tree_words_of(tree: Mapping[str, Any]) -> dict[str, Any]:
    """The words of a drawn tree (``TreeView.to_dict()``) that change with the language: each
    box's label, numbers and tooltip by its key, the screen reader's summary and the players'
    names (the geometry, marks and heat are not words)."""
    nodes = {}
    for node in tree.get("nodes") or ():
        if isinstance(node, dict) and isinstance(node.get("key"), str):
            nodes[node["key"]] = [
                str(node.get("label", "")),
                [str(line) for line in node.get("lines") or ()],
                [str(line) for line in node.get("tooltip") or ()],
            ]
    return {
        "summary": str(tree.get("summary", "")),
        "player_names": [str(n) for n in tree.get("player_names") or ()][:2],
        "nodes": nodes,
    }


def tree_in_language(tree: dict[str, Any], words: object) -> dict[str, Any]:
    """The teacher's drawn tree with its words in the current language: ``words`` is the
    frame's ``tree_words`` (``{"lang": the teacher's tag, "in": {tag: tree_words_of(...)}}``),
    the geometry stays the teacher's. The teacher's words where the frame has none for this
    language (a frame of an older version, a tree drawn from an entry of the history before a
    class ran) or they do not read: never fails."""
    try:
        if not isinstance(words, dict) or not isinstance(words.get("in"), dict):
            return tree
        mine = words["in"].get(current_tag())
        if not isinstance(mine, dict) or not isinstance(mine.get("nodes"), dict):
            return tree
        by_key = mine["nodes"]
        nodes = []
        for node in tree.get("nodes") or ():
            said = by_key.get(node.get("key")) if isinstance(node, dict) else None
            if not (isinstance(said, list) and len(said) == 3):
                nodes.append(node)
                continue
            label, lines, tooltip = said
            if not (isinstance(label, str) and isinstance(lines, list)
                    and isinstance(tooltip, list)):  # fmt: skip
                nodes.append(node)
                continue
            nodes.append({**node, "label": label, "lines": [str(x) for x in lines],
                          "tooltip": [str(x) for x in tooltip]})  # fmt: skip
        shown = {**tree, "nodes": nodes}
        if isinstance(mine.get("summary"), str) and mine["summary"]:
            shown["summary"] = mine["summary"]
        names = mine.get("player_names")
        if isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) for n in names):
            shown["player_names"] = names
        return shown
    except (TypeError, AttributeError, ValueError):
        return tree
