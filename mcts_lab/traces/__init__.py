"""Search trees and traces from any MCTS, in one documented format (docs/trace_format.md).

- :func:`load` / :func:`write`: read (and check) or write an mcts-trace file; :func:`read`
  reads an open stream as it parses it (the app's upload, with its progress).
- :func:`from_search`: the lab's own search; :func:`header`: the fields every run's JSON
  output shares.
- :func:`from_openspiel`: the tree OpenSpiel's ``MCTSBot.mcts_search(state)`` returns.
- :func:`from_mctx`: an ``mctx.Tree``'s arrays (read as NumPy; no JAX needed).
- :class:`Recorder`: called by your own Python MCTS as it runs, writes a trace.

:mod:`mcts_lab.inspect.inspection` reads a loaded :class:`Trace` and finds what is wrong in it.
"""

from mcts_lab.traces.foreign import from_mctx, from_openspiel
from mcts_lab.traces.format import (
    FORMAT,
    MAX_FILE_BYTES,
    MAX_NODES,
    MAX_RECORDS,
    VERSION,
    Trace,
    TraceError,
    dumps,
    load,
    loads,
    parse,
    read,
    schema,
    write,
)
from mcts_lab.traces.lab import from_search, header
from mcts_lab.traces.recorder import Recorder

__all__ = [
    "FORMAT",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "MAX_RECORDS",
    "VERSION",
    "Recorder",
    "Trace",
    "TraceError",
    "dumps",
    "from_mctx",
    "from_openspiel",
    "from_search",
    "header",
    "load",
    "loads",
    "parse",
    "read",
    "schema",
    "write",
]
