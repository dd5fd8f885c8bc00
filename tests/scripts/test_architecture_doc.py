"""docs/architecture.md stays true: its map names every package folder, and the limits it states
(modules a folder, lines of code a module, modules at mcts_lab's top level) hold for the code
(scripts/code_size.py measures them)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import code_size  # noqa: E402

DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def stated(pattern: str) -> int:
    """The number the doc states in the one sentence ``pattern`` matches."""
    found = re.findall(pattern, DOC)
    assert len(found) == 1, f"the doc states {pattern!r} {len(found)} times"
    return int(found[0])


def test_the_map_names_every_package_folder_and_module() -> None:
    folders = [f"{folder.relative_to(ROOT).as_posix()}/" for folder in code_size.package_folders()]
    assert [f for f in folders if f not in DOC] == [], "folders docs/architecture.md does not name"
    unnamed = [
        path.relative_to(ROOT).as_posix()
        for path in code_size.modules()
        if path.name != "__init__.py" and not re.search(rf"\b{re.escape(path.stem)}(\.py)?\b", DOC)
    ]
    assert unnamed == [], "modules docs/architecture.md does not name"


def test_no_folder_holds_more_modules_than_the_doc_says() -> None:
    limit = stated(r"No package folder holds more than (\d+) modules")
    flat = {ROOT / "mcts_lab", ROOT / "mcts_core", ROOT / "games"}  # their tops, as it says
    full = {
        folder.relative_to(ROOT).as_posix(): code_size.folder_modules(folder)
        for folder in code_size.package_folders()
        if folder not in flat
    }
    assert {f: n for f, n in full.items() if n > limit} == {}


def test_no_module_is_longer_than_the_doc_says() -> None:
    limit = stated(r"No module is over (\d+) lines of code")
    long = {
        path.relative_to(ROOT).as_posix(): size
        for path in code_size.modules()
        if (size := code_size.code_lines(path)) > limit
    }
    assert long == {}


def test_mcts_lab_top_level_holds_what_the_doc_says() -> None:
    limit = stated(r"`mcts_lab/`'s top level holds at most (\d+) modules")
    assert code_size.folder_modules(ROOT / "mcts_lab") <= limit


def test_code_lines_leave_out_docstrings_comments_and_blanks(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        '"""Doc.\n\nMore doc."""\n\n# a comment\nx = 1  # why\n\n\ndef f() -> int:\n'
        '    """Its doc."""\n    return (\n        x\n    )\n',
        encoding="utf-8",
    )
    assert code_size.code_lines(module) == 5  # x = 1, def, return (, x, )
