"""How big the project's modules and folders are, as docs/architecture.md states them.

A module's size is its lines of code: the lines that hold a token of code, leaving out
docstrings (a module's, a class's, a function's), comments and blank lines. A folder's size is
the number of modules directly in it (``__init__.py`` aside).

python scripts/code_size.py            the ten largest modules and the fullest folders
python scripts/code_size.py --all      every module
"""

from __future__ import annotations

import argparse
import ast
import io
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The packages the architecture doc's limits are about.
PACKAGES = ("app", "mcts_lab", "mcts_core", "games")
_NOT_CODE = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
}


def _docstring_lines(tree: ast.Module) -> set[int]:
    """The line numbers of every docstring in ``tree``."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        first = node.body[0] if node.body else None
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def code_lines(path: Path) -> int:
    """Lines of code of one module: docstrings, comments and blank lines left out."""
    source = path.read_text(encoding="utf-8")
    docs = _docstring_lines(ast.parse(source))
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in _NOT_CODE:
            continue
        lines.update(n for n in range(token.start[0], token.end[0] + 1) if n not in docs)
    return len(lines)


def modules(root: Path = ROOT) -> Iterator[Path]:
    """Every module of the packages, sorted."""
    for package in PACKAGES:
        yield from sorted((root / package).rglob("*.py"))


def package_folders(root: Path = ROOT) -> list[Path]:
    """Every folder of the packages that is a package (holds an ``__init__.py``)."""
    return sorted(p.parent for package in PACKAGES for p in (root / package).rglob("__init__.py"))


def folder_modules(folder: Path) -> int:
    """Modules directly in ``folder``, its ``__init__.py`` aside."""
    return sum(1 for p in folder.glob("*.py") if p.name != "__init__.py")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="every module, not the ten largest")
    args = parser.parse_args(argv)
    sizes = sorted(((code_lines(p), p.relative_to(ROOT)) for p in modules()), reverse=True)
    for size, path in sizes if args.all else sizes[:10]:
        print(f"{size:5d}  {path}")
    folders = sorted((folder_modules(f), f.relative_to(ROOT)) for f in package_folders())
    print()
    for count, folder in folders[::-1][:5]:
        print(f"{count:5d} modules  {folder}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
