"""Reading and writing the mcts-trace format (docs/trace_format.md), within stated limits.

A file is one JSON object (``.json``) or JSON Lines (``.jsonl``: the header on the first line,
then one node or iteration record per line). :func:`load` checks it against the JSON Schema in
``mcts_lab/schema/trace-v1.schema.json`` and then the structure the schema cannot state (unique
ids, one root, parents that exist, no cycle, paths that follow the tree), and returns a
:class:`Trace`. Anything wrong raises :class:`TraceError` with one line naming the first
problem (the line of a JSON Lines file, the field).

Limits, so a hostile or broken file costs bounded time and memory: the file's size
(``max_bytes``, :data:`MAX_FILE_BYTES` by default, the app's upload limit), at most
:data:`MAX_NODES` nodes and :data:`MAX_RECORDS` iteration records; strings are bounded by the
schema's ``maxLength``. The file is never evaluated, only parsed as JSON (NaN and Infinity are
refused).

The header is checked with the ``jsonschema`` package. Nodes and records, which can number in
the hundreds of thousands, are checked against the same schema's ``$defs`` by
:func:`check_value`, a small checker of the keywords the schema uses (jsonschema takes about
0.3 ms a node, half a minute for a 100,000-node tree); a test keeps the two in agreement.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import IO, Any, NoReturn, Protocol

from mcts_lab.traces.shapes import SchemaRule

__all__ = [
    "FORMAT",
    "VERSION",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "MAX_RECORDS",
    "Trace",
    "TraceError",
    "check_value",
    "load",
    "loads",
    "parse",
    "read",
    "schema",
    "write",
    "dumps",
]

FORMAT = "mcts-trace"
VERSION = 1
#: The largest file read (bytes): 100 MB, what the app opens (its own check; Streamlit's
#: ``server.maxUploadSize`` is set above it so a bigger file reaches that check and its sentence).
MAX_FILE_BYTES = 100 * 1024 * 1024
#: The most nodes a file may hold.
MAX_NODES = 1_000_000
#: The most iteration records a file may hold.
MAX_RECORDS = 1_000_000
#: The keys a header may carry besides nodes and trace (the schema's properties).
_BODY_KEYS = ("nodes", "trace")


class TraceError(ValueError):
    """The file is unreadable or not of the format; the message names the first problem."""


@dataclass(frozen=True)
class Trace:
    """A checked trace file.

    Attributes:
        header: everything but the nodes and the iteration records (format, game, position,
            settings, seed, iterations, writer, players, values, visit_rule, and any extra key
            the writer added).
        nodes: the node objects, in file order, as read.
        records: the iteration records, in file order (empty for a tree alone).
        index: node id -> position in ``nodes``.
        children: per node position, the positions of its children in file order.
        root: the position of the root (the one node whose ``parent`` is null).
    """

    header: dict[str, Any]
    nodes: list[dict[str, Any]]
    records: list[dict[str, Any]]
    index: dict[int, int]
    children: list[list[int]]
    root: int
    depth: list[int] = field(repr=False, default_factory=list)

    def node(self, node_id: int) -> dict[str, Any]:
        """The node with id ``node_id`` (``KeyError`` if there is none)."""
        return self.nodes[self.index[node_id]]

    def document(self) -> dict[str, Any]:
        """The whole file as one JSON-ready dict (header, ``nodes``, ``trace``)."""
        doc = dict(self.header)
        doc["nodes"] = self.nodes
        if self.records:
            doc["trace"] = self.records
        return doc


# ------------------------------------------------------------------ the schema


@cache
def schema() -> SchemaRule:
    """The JSON Schema of format version 1 (``mcts_lab/schema/trace-v1.schema.json``)."""
    text = resources.files("mcts_lab").joinpath("schema/trace-v1.schema.json").read_text("utf-8")
    loaded: SchemaRule = json.loads(text)
    return loaded


class _SchemaError(Protocol):
    """What :func:`_check_header` reads of a ``jsonschema.ValidationError``."""

    message: str
    absolute_path: Iterable[str | int]


class _Validator(Protocol):
    """What :func:`_check_header` calls of a ``jsonschema`` validator."""

    def iter_errors(self, instance: object) -> Iterator[_SchemaError]: ...


@cache
def _header_validator() -> _Validator:
    import jsonschema

    header_schema = dict(schema())
    header_schema["properties"] = {
        k: v for k, v in schema()["properties"].items() if k not in _BODY_KEYS
    }
    header_schema["required"] = [k for k in schema()["required"] if k not in _BODY_KEYS]
    validator: _Validator = jsonschema.Draft202012Validator(header_schema)
    return validator


_TYPES: dict[str, tuple[type, ...]] = {
    "integer": (int, float),
    "number": (int, float),
    "string": (str,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def check_value(value: object, rule: SchemaRule, where: str) -> str | None:
    """The first way ``value`` breaks ``rule`` (a part of :func:`schema` using the keywords
    ``$ref`` to ``#/$defs/...``, ``type``, ``enum``, ``const``, ``oneOf``, ``required``,
    ``properties``, ``items``, ``minItems``, ``maxItems``, ``minimum``, ``maximum``,
    ``maxLength``), as "``where``: problem"; ``None`` when it fits. Each rule is compiled
    once into a plain function (about 2 microseconds a node)."""
    problem = _compiled(rule)(value)
    if problem is None:
        return None
    sub, template, culprit = problem
    return f"{where}{sub}: " + template.replace("{v}", _short(culprit))


# A problem is (where below the checked value, a message template, the offending value): the
# template's "{v}" is filled in only when the problem is reported (oneOf tries options that
# fail on every valid value; quoting each would cost more than the check).
_Problem = tuple[str, str, object]
_Check = Callable[[object], "_Problem | None"]
_COMPILED: dict[int, _Check] = {}


def _compiled(rule: SchemaRule) -> _Check:
    check = _COMPILED.get(id(rule))
    if check is None:
        check = _COMPILED[id(rule)] = _compile(rule)
    return check


def _compile(rule: SchemaRule) -> _Check:
    if "$ref" in rule:
        return _compiled(schema()["$defs"][rule["$ref"].rsplit("/", 1)[1]])
    parts: list[_Check] = []
    if "oneOf" in rule:
        options = [_compiled(option) for option in rule["oneOf"]]

        def one_of(value: object) -> _Problem | None:
            if sum(option(value) is None for option in options) != 1:
                return "", "{v} is not valid", value
            return None

        return one_of
    kinds = rule.get("type")
    if kinds is not None:
        names = [kinds] if isinstance(kinds, str) else list(kinds)
        allowed = tuple(t for name in names if name != "boolean" for t in _TYPES[name])
        integral_floats = "integer" in names and "number" not in names
        wanted = " or ".join(names)

        def of_type(value: object) -> _Problem | None:
            # bool is an int in Python, not in JSON; 2.0 is an integer in JSON Schema
            if isinstance(value, bool):
                fits = "boolean" in names
            elif isinstance(value, float) and integral_floats:
                fits = value.is_integer()
            else:
                fits = isinstance(value, allowed)
            return None if fits else ("", "{v} is not of type " + wanted, value)

        parts.append(of_type)
    if "enum" in rule:
        choices = rule["enum"]
        parts.append(lambda v: None if v in choices else ("", f"{{v}} is not one of {choices}", v))
    if "const" in rule:
        const = rule["const"]
        parts.append(lambda v: None if v == const else ("", f"{{v}} is not {const!r}", v))
    low, high = rule.get("minimum"), rule.get("maximum")
    if low is not None or high is not None:

        def bounded(value: object) -> _Problem | None:
            if isinstance(value, int | float) and not isinstance(value, bool):
                if low is not None and value < low:
                    return "", f"{{v}} is less than the minimum of {low}", value
                if high is not None and value > high:
                    return "", f"{{v}} is greater than the maximum of {high}", value
            return None

        parts.append(bounded)
    if "maxLength" in rule:
        longest = rule["maxLength"]

        def short_enough(value: object) -> _Problem | None:
            if isinstance(value, str) and len(value) > longest:
                return "", f"a string of {len(value):,} characters (at most {longest:,})", None
            return None

        parts.append(short_enough)
    required = tuple(rule.get("required", ()))
    properties = {key: _compiled(sub) for key, sub in rule.get("properties", {}).items()}
    if required or properties:

        def fields(value: object) -> _Problem | None:
            if not isinstance(value, dict):
                return None
            for key in required:
                if key not in value:
                    return "", f"{key!r} is a required property", None
            for key, item in value.items():
                check = properties.get(key)
                if check is not None:
                    problem = check(item)
                    if problem is not None:
                        return f".{key}{problem[0]}", problem[1], problem[2]
            return None

        parts.append(fields)
    fewest, most = rule.get("minItems"), rule.get("maxItems")
    items = _compiled(rule["items"]) if "items" in rule else None
    if fewest is not None or most is not None or items is not None:

        def array(value: object) -> _Problem | None:
            if not isinstance(value, list):
                return None
            if fewest is not None and len(value) < fewest:
                return "", f"needs at least {fewest} item(s)", None
            if most is not None and len(value) > most:
                return "", f"has more than {most} items", None
            if items is not None:
                for i, item in enumerate(value):
                    problem = items(item)
                    if problem is not None:
                        return f"[{i}]{problem[0]}", problem[1], problem[2]
            return None

        parts.append(array)

    def check_all(value: object) -> _Problem | None:
        for part in parts:
            problem = part(value)
            if problem is not None:
                return problem
        return None

    general = parts[0] if len(parts) == 1 else check_all
    if set(rule) <= _SCALAR_KEYWORDS and "type" in rule:
        return _fast_scalar(rule, general)
    return general


_SCALAR_KEYWORDS = frozenset({"type", "minimum", "maximum", "maxLength", "enum", "const"})
_EXACT_TYPES: dict[str, tuple[type, ...]] = {
    "integer": (int,),
    "number": (int, float),
    "string": (str,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _fast_scalar(rule: SchemaRule, general: _Check) -> _Check:
    """One closure for a scalar rule: the common case (exactly the types ``json`` produces,
    in bounds) passes with a few comparisons; anything else goes to ``general``, which
    decides and words the problem."""
    kinds = [rule["type"]] if isinstance(rule["type"], str) else list(rule["type"])
    exact = frozenset(t for name in kinds for t in _EXACT_TYPES[name])
    low, high = rule.get("minimum"), rule.get("maximum")
    longest = rule.get("maxLength")
    choices = rule.get("enum")
    has_const, const = "const" in rule, rule.get("const")

    # Any: the dispatch is on type(value), which mypy does not follow to narrow value
    def check(value: Any) -> _Problem | None:
        kind = type(value)
        if kind not in exact:
            return general(value)
        if kind is int or kind is float:
            if (low is not None and value < low) or (high is not None and value > high):
                return general(value)
        elif kind is str and longest is not None and len(value) > longest:
            return general(value)
        if (choices is not None and value not in choices) or (has_const and value != const):
            return general(value)
        return None

    return check


def _short(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# ------------------------------------------------------------------ reading


def _refuse_constant(name: str) -> NoReturn:
    raise TraceError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    """A JSON number as a float, refused when no float holds it (``-1e400`` would read as
    minus infinity, which no JSON output can carry)."""
    value = float(text)
    if not math.isfinite(value):
        raise TraceError(f"the number {text[:40]} is beyond what a float holds (about 1.8e308)")
    return value


def _json(text: str, line: int | None) -> object:
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        at = line if line is not None else error.lineno
        raise TraceError(f"line {at}: not valid JSON ({error.msg})") from None
    except RecursionError:
        raise TraceError(f"line {line or 1}: JSON nested too deeply") from None


def load(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> Trace:
    """Read and check a trace file (``.jsonl`` as JSON Lines, anything else as one JSON
    object). Raises :class:`TraceError` naming the first problem."""
    try:
        size = os.path.getsize(path)
        if size > max_bytes:
            raise TraceError(f"the file has {size:,} bytes; at most {max_bytes:,} are read")
        with open(path, "rb") as handle:
            return read(handle, json_lines=os.fspath(path).endswith(".jsonl"),
                        max_bytes=max_bytes)  # fmt: skip
    except OSError as error:
        raise TraceError(f"cannot read {os.fspath(path)!r}: {error.strerror}") from None


#: How often :func:`read` reports its progress: every this many lines of a JSON Lines file.
PROGRESS_LINES = 2_000


def read(
    stream: IO[bytes],
    *,
    json_lines: bool | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    progress: Callable[[float], None] | None = None,
) -> Trace:
    """:func:`load` for an open binary stream (a file, an upload), read as it is parsed: a
    JSON Lines file line by line, never held as one text (its objects are what stays in
    memory), one JSON object whole. ``progress(fraction)`` (0 to 1, the share of the bytes
    parsed) is called every :data:`PROGRESS_LINES` lines of a JSON Lines file, and before and
    after the parse of one object. ``json_lines=None`` guesses as :func:`loads` does. The
    stream is read from its current position to its end, at most ``max_bytes``."""
    start = stream.tell() if stream.seekable() else 0
    if stream.seekable():
        size = stream.seek(0, os.SEEK_END) - start
        stream.seek(start)
        if size > max_bytes:
            raise TraceError(f"the file has {size:,} bytes; at most {max_bytes:,} are read")
    else:
        size = max_bytes
    report = progress or (lambda fraction: None)
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", newline=None)
    try:
        # the first line with text (and the blank lines before it), then, to guess the
        # kind, the next line with text: JSON Lines when the first is a whole object
        head: list[str] = []
        firsts: list[str] = []
        while len(firsts) < (1 if json_lines is False else 2):
            line = text.readline(max_bytes + 1)
            head.append(line)
            if not line:
                break
            if line.strip():
                firsts.append(line)
        if json_lines is None:
            json_lines = len(firsts) == 2 and _whole_object(firsts[0])
        if not json_lines:
            report(0.0)
            whole = "".join(head) + text.read(max_bytes + 1)
            if len(whole) > max_bytes:
                raise TraceError(
                    f"the file has over {max_bytes:,} bytes; at most {max_bytes:,} are read"
                )
            doc = _json(whole, None)
            del whole
            report(0.5)
            if not isinstance(doc, dict):
                raise TraceError("line 1: the file is not a JSON object")
            trace = parse(doc)
            report(1.0)
            return trace
        read_chars = 0

        def lines() -> Iterator[str]:
            nonlocal read_chars
            for number, line in enumerate(itertools.chain(head, text), start=1):
                read_chars += len(line)
                if read_chars > max_bytes:
                    raise TraceError(f"line {number}: the file has more than {max_bytes:,} bytes")
                if number % PROGRESS_LINES == 0:
                    report(min(1.0, read_chars / max(size, 1)))
                yield line

        trace = _parse_lines(lines())
        report(1.0)
        return trace
    except UnicodeDecodeError as error:
        raise TraceError(f"not UTF-8 text ({error.reason})") from None
    finally:
        text.detach()  # the caller's stream stays open


def loads(
    data: bytes | str, *, json_lines: bool | None = None, max_bytes: int = MAX_FILE_BYTES
) -> Trace:
    """:func:`load` for the file's contents. ``json_lines=None`` guesses: JSON Lines when the
    first line is a whole JSON object and more lines follow."""
    if len(data) > max_bytes:
        raise TraceError(f"the file has {len(data):,} bytes; at most {max_bytes:,} are read")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise TraceError(f"not UTF-8 text (byte {error.start:,})") from None
    if json_lines is None:
        first, _, rest = data.lstrip().partition("\n")
        json_lines = bool(rest.strip()) and _whole_object(first)
    if not json_lines:
        doc = _json(data, None)
        if not isinstance(doc, dict):
            raise TraceError("line 1: the file is not a JSON object")
        return parse(doc)
    return _parse_lines(data.splitlines())


def _whole_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def _parse_lines(text: Iterable[str]) -> Trace:
    """A JSON Lines file's lines (with or without their line ends), one at a time."""
    header: dict[str, Any] | None = None
    nodes: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    lines: dict[tuple[str, int], int] = {}
    defs = schema()["$defs"]
    for number, line in enumerate(text, start=1):
        if not line.strip():
            continue
        item = _json(line, number)
        if not isinstance(item, dict):
            raise TraceError(f"line {number}: not a JSON object")
        if header is None:
            header = item
            _check_header(header, f"line {number}")
            continue
        if "iteration" in item:
            problem = check_value(item, defs["iteration"], f"line {number}: iteration record")
            records.append(item)
            lines[("record", len(records) - 1)] = number
        else:
            problem = check_value(item, defs["node"], f"line {number}: node")
            nodes.append(item)
            lines[("node", len(nodes) - 1)] = number
        if problem:
            raise TraceError(problem)
        if len(nodes) > MAX_NODES or len(records) > MAX_RECORDS:
            raise TraceError(f"line {number}: more than {MAX_NODES:,} nodes or records")
    if header is None:
        raise TraceError("line 1: the file is empty")
    if not nodes:
        raise TraceError("the file has no node lines")

    def where(kind: str, i: int) -> str:
        return f"line {lines[(kind, i)]}: "

    return _build(header, nodes, records, where)


def _check_header(header: Mapping[str, object], where: str) -> None:
    if header.get("format") != FORMAT:
        raise TraceError(
            f"{where}: field format: not an {FORMAT} file (format is missing)"
            if "format" not in header
            else f"{where}: field format: {_short(header['format'])}, not {FORMAT!r}"
        )
    if header.get("version") != VERSION:
        raise TraceError(
            f"{where}: field version: {_short(header.get('version'))}; this reader knows "
            f"version {VERSION}"
        )
    body = {k: v for k, v in header.items() if k not in _BODY_KEYS}
    error = next(iter(_header_validator().iter_errors(body)), None)
    if error is not None:
        name = ".".join(str(p) for p in error.absolute_path) or "header"
        message = error.message if len(error.message) <= 120 else error.message[:117] + "..."
        raise TraceError(f"{where}: field {name}: {message}")


def parse(doc: Mapping[str, object]) -> Trace:
    """Check a parsed JSON document and return its :class:`Trace`."""
    _check_header(doc, "line 1")
    nodes = doc.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        raise TraceError("field nodes: a list of at least one node is required")
    records = doc.get("trace", [])
    if not isinstance(records, list):
        raise TraceError("field trace: not a list")
    if len(nodes) > MAX_NODES:
        raise TraceError(f"field nodes: {len(nodes):,} nodes; at most {MAX_NODES:,} are read")
    if len(records) > MAX_RECORDS:
        raise TraceError(f"field trace: {len(records):,} records; at most {MAX_RECORDS:,}")
    defs = schema()["$defs"]
    for i, node in enumerate(nodes):
        problem = check_value(node, defs["node"], f"field nodes[{i}]")
        if problem:
            raise TraceError(problem)
    for i, record in enumerate(records):
        problem = check_value(record, defs["iteration"], f"field trace[{i}]")
        if problem:
            raise TraceError(problem)
    header = {k: v for k, v in doc.items() if k not in _BODY_KEYS}
    return _build(
        header,
        nodes,
        records,
        lambda kind, i: f"field {'nodes' if kind == 'node' else 'trace'}[{i}]: ",
    )


def _build(
    header: dict[str, Any],
    nodes: list[dict[str, Any]],
    records: list[dict[str, Any]],
    where: Callable[[str, int], str],
) -> Trace:
    """Index the nodes and check what the schema cannot: unique ids, one root, parents that
    exist, every node reachable from the root (no cycle), paths and decisions that follow
    parent links, ids in records that exist."""
    index: dict[int, int] = {}
    for i, node in enumerate(nodes):
        if node["id"] in index:
            raise TraceError(f"{where('node', i)}id {node['id']} appears twice")
        index[node["id"]] = i
    roots = [i for i, node in enumerate(nodes) if node["parent"] is None]
    if len(roots) != 1:
        raise TraceError(f"the tree needs exactly one root (parent null), found {len(roots)}")
    children: list[list[int]] = [[] for _ in nodes]
    for i, node in enumerate(nodes):
        parent = node["parent"]
        if parent is None:
            continue
        if parent not in index:
            raise TraceError(f"{where('node', i)}parent {parent} is not a node id")
        children[index[parent]].append(i)
    root = roots[0]
    depth = [-1] * len(nodes)
    depth[root] = 0
    stack = [root]
    reached = 1
    while stack:
        at = stack.pop()
        for child in children[at]:
            depth[child] = depth[at] + 1
            reached += 1
            stack.append(child)
    if reached != len(nodes):
        stray = next(i for i, d in enumerate(depth) if d < 0)
        raise TraceError(
            f"{where('node', stray)}node {nodes[stray]['id']} is not below the root "
            "(its parent links form a cycle)"
        )
    for r, record in enumerate(records):
        path = record["path"]
        for step, node_id in enumerate(path):
            if node_id not in index:
                raise TraceError(f"{where('record', r)}path[{step}]: {node_id} is not a node id")
            if step and nodes[index[node_id]]["parent"] != path[step - 1]:
                raise TraceError(
                    f"{where('record', r)}path[{step}]: node {node_id} is not a child of "
                    f"{path[step - 1]}"
                )
        if path[0] != nodes[root]["id"]:
            raise TraceError(f"{where('record', r)}path[0]: {path[0]} is not the root")
        for key in ("expanded", "backup", "decisions"):
            for j, item in enumerate(record.get(key, ())):
                node_id = item if isinstance(item, int) else item["node"]
                if node_id not in index:
                    raise TraceError(f"{where('record', r)}{key}[{j}]: {node_id} is not a node id")
        for j, choice in enumerate(record.get("decisions", ())):
            for key in ("chosen",):
                if choice[key] not in index:
                    raise TraceError(
                        f"{where('record', r)}decisions[{j}].{key}: {choice[key]} is not a node id"
                    )
    return Trace(header, nodes, records, index, children, root, depth)


# ------------------------------------------------------------------ writing


def dumps(doc: Mapping[str, object], *, json_lines: bool = False) -> str:
    """The document as the file's text: one JSON object, or JSON Lines (header, then one line
    per node, then one per iteration record)."""
    if not json_lines:
        return json.dumps(doc, separators=(",", ":"), allow_nan=False) + "\n"
    header = {k: v for k, v in doc.items() if k not in _BODY_KEYS}
    nodes, records = doc["nodes"], doc.get("trace", ())
    assert isinstance(nodes, Iterable) and isinstance(records, Iterable)
    lines = [json.dumps(header, allow_nan=False)]
    lines += [json.dumps(node, allow_nan=False) for node in nodes]
    lines += [json.dumps(record, allow_nan=False) for record in records]
    return "\n".join(lines) + "\n"


def write(doc: Mapping[str, object] | Trace, path: str | os.PathLike[str]) -> None:
    """Write a document (or a :class:`Trace`) to ``path``: JSON Lines when the name ends in
    ``.jsonl``, one JSON object otherwise. The document is checked first (``TraceError``)."""
    if isinstance(doc, Trace):
        doc = doc.document()
    parse(doc)
    text = dumps(doc, json_lines=os.fspath(path).endswith(".jsonl"))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
