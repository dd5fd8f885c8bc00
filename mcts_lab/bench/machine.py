"""The machine a benchmark ran on, named in its report: the CPU, the cores, the operating
system, Python and the versions of mcts-lab (with its git revision), numpy and OpenSpiel. Numbers
from another machine are not comparable."""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Mapping
from pathlib import Path

__all__ = ["cpu_model", "format_header", "machine_info", "openspiel_version"]


def cpu_model(cpuinfo: str | None = None) -> str | None:
    """The CPU's model name from ``/proc/cpuinfo`` (or the text given), else what
    :mod:`platform` knows; ``None`` when nothing names it."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            cpuinfo = ""
    for key in ("model name", "Model", "Hardware", "cpu model", "Processor"):
        for line in cpuinfo.splitlines():
            name, sep, value = line.partition(":")
            if sep and name.strip() == key and value.strip():
                return value.strip()
    return platform.processor() or None


def _operating_system() -> str:
    kernel = f"{platform.system()} {platform.release()} {platform.machine()}".strip()
    try:
        distribution = platform.freedesktop_os_release().get("PRETTY_NAME", "")
    except OSError:
        distribution = ""
    return f"{distribution}, {kernel}" if distribution else kernel


def _version(distribution: str) -> str | None:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - Python 3.8+ has it
        return None
    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def _revision() -> str | None:
    """``git describe --always --dirty`` of the checkout mcts_lab runs from (``-dirty``: the
    code measured has uncommitted changes), or ``None`` outside a git checkout."""
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


def openspiel_version() -> str | None:
    return _version("open_spiel")


def machine_info(*, openspiel: bool = False) -> dict[str, object]:
    """What the numbers were measured on: ``cpu`` (model), ``cores`` (logical CPUs),
    ``cores_usable`` (those this process may run on), ``os``, ``python`` (version),
    ``python_implementation``, ``mcts_lab`` (version), ``mcts_lab_revision`` (git), ``numpy``
    and, when compared, ``open_spiel`` (versions; ``None`` when unknown or not compared)."""
    try:
        usable: int | None = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = None
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "cores_usable": usable,
        "os": _operating_system(),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "mcts_lab": _version("mcts-lab"),
        "mcts_lab_revision": _revision(),
        "open_spiel": openspiel_version() if openspiel else None,
        "numpy": _version("numpy"),
    }


def format_header(machine: Mapping[str, object]) -> list[str]:
    """The machine and versions as two text lines."""

    def known(value: object) -> str:
        return "unknown" if value is None else str(value)

    cores = known(machine.get("cores"))
    usable = machine.get("cores_usable")
    if usable is not None and usable != machine.get("cores"):
        cores += f" ({usable} usable)"
    revision = machine.get("mcts_lab_revision")
    versions = [
        f"Python {known(machine.get('python'))} ({known(machine.get('python_implementation'))})",
        f"mcts-lab {known(machine.get('mcts_lab'))}" + (f" (git {revision})" if revision else ""),
    ]
    if machine.get("open_spiel") is not None:
        versions.append(f"open_spiel {machine['open_spiel']}")
    versions.append(f"numpy {known(machine.get('numpy'))}")
    return [
        f"machine: {known(machine.get('cpu'))}, {cores} cores, {known(machine.get('os'))}",
        "versions: " + ", ".join(versions),
    ]
