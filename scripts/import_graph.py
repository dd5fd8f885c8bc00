"""Draw the project's imports between its own modules as Graphviz DOT, cycles in red.

Every import counts, also those inside functions and under ``TYPE_CHECKING`` (grimp, which
``lint-imports`` uses, reads them all). Run from the repository's root:

    python scripts/import_graph.py app > out/app_imports.dot && dot -Tsvg -O out/app_imports.dot
    python scripts/import_graph.py app mcts_lab games mcts_core --packages   # one box a package
    python scripts/import_graph.py app --folders    # app's modules grouped in a box a folder
    python scripts/import_graph.py app --depth 2    # one box an app folder (app.live, ...)

It prints the number of modules, imports and cycles to stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import grimp

PACKAGES = ("app", "mcts_lab", "games", "mcts_core")


def cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    sys.setrecursionlimit(10_000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("drawn", nargs="*", default=list(PACKAGES), help="packages to draw")
    parser.add_argument("--packages", action="store_true", help="one box per package")
    parser.add_argument("--depth", type=int, default=0, help="one box per name of this many parts")
    parser.add_argument("--folders", action="store_true", help="group modules in a box a folder")
    args = parser.parse_args()
    sys.path.insert(0, str(Path.cwd()))
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)

    depth = 1 if args.packages else args.depth

    def name(module: str) -> str:
        return ".".join(module.split(".")[:depth]) if depth else module

    def drawn(module: str) -> bool:
        return module.split(".")[0] in args.drawn and module not in PACKAGES

    edges: dict[str, set[str]] = {}
    for module in sorted(m for m in graph.modules if drawn(m)):
        edges.setdefault(name(module), set())
        for imported in graph.find_modules_directly_imported_by(module):
            if drawn(imported) and name(imported) != name(module):
                edges[name(module)].add(name(imported))
    touched = {w for targets in edges.values() for w in targets}
    for v in [v for v, targets in edges.items() if not targets and v not in touched]:
        del edges[v]  # a folder's door that imports nothing: no box
    loops = cycles(edges)
    in_loop = {v: i for i, c in enumerate(loops) for v in c}
    print(
        f"{len(edges)} modules, {sum(map(len, edges.values()))} imports, {len(loops)} cycles",
        file=sys.stderr,
    )
    for component in loops:
        print("  cycle:", " <-> ".join(sorted(component)), file=sys.stderr)
    print("digraph imports {\n  rankdir=TB; node [shape=box, fontname=Helvetica, fontsize=10];")
    folders: dict[str, list[str]] = {}
    for v in sorted(edges):
        folder = v.rsplit(".", 1)[0] if args.folders and v.count(".") >= 2 else ""
        folders.setdefault(folder, []).append(v)
    for i, (folder, members) in enumerate(sorted(folders.items())):
        if folder:
            print(f'  subgraph cluster_{i} {{ label="{folder}/"; style=rounded; color=grey60;')
        for v in members:
            print(f'  "{v}" [label="{v.rsplit(".", 1)[-1] if folder else v}"];')
        if folder:
            print("  }")
    for v in sorted(edges):
        for w in sorted(edges[v]):
            red = v in in_loop and in_loop[v] == in_loop.get(w)
            print(f'  "{v}" -> "{w}"' + (" [color=red, penwidth=2];" if red else ";"))
    print("}")


if __name__ == "__main__":
    main()
