"""Fixtures the test modules share: the CLI runner, the running app and a headless Chromium.

Helpers that are not fixtures live beside this file: tests/app_helpers.py (AppTest) and
tests/browser_helpers.py (driving the page in Chromium).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app  # noqa: E402

from mcts_lab.cli import main  # noqa: E402
from tests.browser_pool import ContextPool  # noqa: E402

__all__ = ["CHROMIUM", "IDLE", "ROOT", "CliRunner", "run_async", "running_app"]

T = TypeVar("T")

#: ``cli("search", "--game", "nim", ...)`` runs ``mcts-lab`` in this process: (status, out, err).
CliRunner = Callable[..., tuple[int, str, str]]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each real-browser module in an xdist group of its own: with ``-n 4 --dist loadgroup``
    (pyproject's addopts) a module's tests run in order on one worker, keeping its
    module-scoped app server, Chromium and pages, while the workers share the modules
    between them and the rest of the suite beside them (one group for every browser test kept
    one worker on them for the whole run). A test that names its own group keeps it."""
    for item in items:
        if item.get_closest_marker("browser") is None:
            continue
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(f"browser:{item.path.stem}"))


@pytest.fixture(autouse=True)
def _real_main_module() -> Iterator[None]:
    """Each test ends with the real ``__main__`` module back in ``sys.modules``.

    Streamlit's script runner (every AppTest) makes the script it runs ``__main__`` and leaves
    it there; a process pool started later in the same run (the sweep's) then runs that script
    in every worker it spawns, and a script made by ``AppTest.from_function`` fails there
    (tests/app/drawing/test_tree_view.py before tests/mcts_lab/sweep/test_sweep.py: a broken
    pool)."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRunner:
    """Run the ``mcts-lab`` command line with these arguments and capture what it printed."""

    def run(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return run


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """The app, started once for the whole run on a free loopback port."""
    with running_app() as url:
        yield url


@pytest.fixture(scope="session")
def class_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The app over a class store of this run's own: (its URL, the store's URL), started once
    per worker for every class module it runs (tests/browser/test_class_browser.py, _summary,
    _tap): each start costs a few CPU-seconds. Each test starts its own class (a new code) in
    its own browser contexts (its own teacher's cookie and Past classes), so they share it."""
    store = f"sqlite:///{tmp_path_factory.mktemp('class') / 'classes.db'}"
    with running_app(env={"MCTS_LAB_STORE": store}) as url:
        yield url, store


@pytest.fixture(scope="session")
def _chromium() -> Iterator[ContextPool]:
    """One headless Chromium (Debian's) for the worker's whole run, its contexts used again
    (:class:`tests.browser_pool.ContextPool`): a start and its first page cost about 2
    CPU-seconds (the suite started one per module, 53 times), a context 0.8.

    Playwright's sync API keeps its event loop in this thread while the browser runs, so a
    test that runs asyncio code runs it in a thread of its own (``run_async``)."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield ContextPool(chromium)
        chromium.close()


@pytest.fixture(scope="module")
def browser(_chromium: ContextPool) -> Iterator[ContextPool]:
    """The worker's headless Chromium for one test module, as a Playwright ``Browser`` whose
    ``new_page`` and ``new_context`` give each a context of its own (no cookies, no pages).
    What the module's own fixtures opened goes back at its end, what a test opened at the
    test's end (``_contexts_back``): no page of one test (a teacher's timed count) runs on
    beside the next."""
    before = _chromium.taken()
    yield _chromium
    _chromium.give_back_all_but(before)


@pytest.fixture(autouse=True)
def _contexts_back(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test's contexts back in the pool when it ends (see ``browser``)."""
    if request.node.get_closest_marker("browser") is None or "browser" not in request.fixturenames:
        yield  # (not a browser test; a test may name a parameter "browser": a string)
        return
    pool: ContextPool = request.getfixturevalue("browser")
    before = pool.taken()
    yield
    pool.give_back_all_but(before)


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own: this thread may hold the running
    Chromium's event loop (the ``_chromium`` fixture), in which ``asyncio.run`` refuses."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
