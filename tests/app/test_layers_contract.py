"""The app's import contracts cannot go blind: every module of app/ is placed in the layers
contract (pyproject.toml's [tool.importlinter]), and every module that imports no Streamlit is
declared pure (a forbidden-streamlit contract names it). A module added to app/ and placed
nowhere fails here, not silently in ``lint-imports``, which checks only the modules it names.

A module's own imports are read (ast, every import statement in it, lazy ones too); what it
imports through another app module is that module's business.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"


def _contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def _modules() -> dict[str, Path]:
    """Every module of app/ by its dotted name (a package by its own name: its __init__)."""
    found = {}
    for path in sorted(APP.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _under(name: str, entries: set[str]) -> bool:
    """Whether ``name`` is one of ``entries`` or inside one of them."""
    return any(name == e or name.startswith(e + ".") for e in entries)


def _imports_streamlit(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if any(n == "streamlit" or n.startswith("streamlit.") for n in names):
            return True
    return False


def _app_layers() -> set[str]:
    (layers,) = [c for c in _contracts() if c["type"] == "layers" and c["layers"][0] == "app.main"]
    return {part.strip() for layer in layers["layers"] for part in layer.split("|")}


def _pure() -> tuple[set[str], set[str]]:
    """(packages and modules declared pure with what is inside them, doors declared pure
    alone: ``as_packages = false``)."""
    whole, alone = set(), set()
    for contract in _contracts():
        if contract["type"] == "forbidden" and "streamlit" in contract["forbidden_modules"]:
            target = alone if contract.get("as_packages") is False else whole
            target.update(m for m in contract["source_modules"] if m.startswith("app"))
    return whole, alone


def test_every_app_module_is_in_a_layer() -> None:
    layers = _app_layers()
    _, doors = _pure()
    assert layers, "the app's layers contract was not found"
    unplaced = [
        name
        for name in _modules()
        # a package split across layers is placed by its modules; its door (its __init__)
        # is named in the "package doors" contract
        if name != "app" and not _under(name, layers) and name not in doors
    ]
    assert not unplaced, f"app modules in no layer of pyproject's app layers contract: {unplaced}"


def test_every_app_module_without_streamlit_is_declared_pure() -> None:
    whole, alone = _pure()
    undeclared = [
        name
        for name, path in _modules().items()
        if not _imports_streamlit(path) and not _under(name, whole) and name not in alone
    ]
    assert not undeclared, f"app modules importing no streamlit, not declared pure: {undeclared}"


def test_the_contract_names_only_modules_that_exist() -> None:
    """A layer or a pure entry left behind by a move would check nothing."""
    modules = set(_modules())
    whole, alone = _pure()
    stale = sorted(e for e in _app_layers() | whole | alone if e not in modules)
    assert not stale, f"contract entries naming no app module: {stale}"


def test_a_module_placed_nowhere_is_found(tmp_path: Path) -> None:
    """The walk sees what it must: a Streamlit-free module outside every entry is reported
    by both checks' rules."""
    layers = _app_layers()
    whole, alone = _pure()
    stray = "app.stray_module"
    assert not _under(stray, layers) and not _under(stray, whole) and stray not in alone
    module = tmp_path / "stray_module.py"
    module.write_text("import json\n", encoding="utf-8")
    assert not _imports_streamlit(module)
    module.write_text("def f():\n    import streamlit.components.v1 as c\n", encoding="utf-8")
    assert _imports_streamlit(module)
