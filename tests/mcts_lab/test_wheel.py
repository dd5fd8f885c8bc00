"""The wheel built from this checkout holds every package: it is unpacked and each subpackage
of mcts_core, games and mcts_lab is imported from it in a fresh interpreter that cannot see the
checkout (an editable install would hide a folder left out of ``[tool.setuptools]``), with the
data files the code reads (the trace schema, the position sets)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The top-level packages the wheel ships (pyproject's packages.find; the app is not one).
PACKAGED = ("mcts_core", "games", "mcts_lab")

#: Imports every package found in the unpacked wheel (cwd, put first on the path) and reports
#: where each came from and whether the data files load; run with -I, so neither the checkout
#: nor PYTHONPATH is seen (the editable install's finder comes after the path's).
_PROBE = """
import importlib, json, os, pkgutil, sys
sys.path.insert(0, os.getcwd())
found = {}
for top in sys.argv[1:]:
    package = importlib.import_module(top)
    found[top] = package.__file__
    for info in pkgutil.walk_packages(package.__path__, top + "."):
        if info.ispkg:
            found[info.name] = importlib.import_module(info.name).__file__
from mcts_lab import strength, traces
data = [bool(traces.schema()), bool(strength.load_positions("tic_tac_toe"))]
print(json.dumps({"packages": found, "data": data}))
"""


def _build(out: Path) -> Path:
    """The wheel of this checkout in ``out``: with the installed setuptools when it is new
    enough for pyproject's metadata, else in pip's isolated build environment."""
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)]
    if int(version("setuptools").split(".")[0]) >= 77:
        command.insert(4, "--no-build-isolation")
    subprocess.run(command, check=True, capture_output=True, timeout=240)
    (wheel,) = out.glob("mcts_lab-*.whl")
    return wheel


def test_the_wheel_imports_every_subpackage(tmp_path: Path) -> None:
    wheel = _build(tmp_path / "dist")
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(wheel).extractall(unpacked)
    tops = sorted(p.name for p in unpacked.iterdir() if (p / "__init__.py").exists())
    assert tops == sorted(PACKAGED)
    done = subprocess.run(
        [sys.executable, "-I", "-c", _PROBE, *PACKAGED],
        cwd=unpacked,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    packages = report["packages"]
    # every package folder of the checkout, imported from the unpacked wheel
    folders = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in PACKAGED
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert set(packages) == folders
    outside = {name: f for name, f in packages.items() if not f.startswith(str(unpacked))}
    assert not outside, outside
    assert report["data"] == [True, True]
