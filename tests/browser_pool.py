"""Browser contexts and their pages used again, each as good as new: Chromium makes a context
in about 0.8 CPU-seconds (a fresh off-the-record profile: measured on this machine, with a
single renderer process as much as without), and a new page's first load of the app cost 1.8
CPU-seconds where the same page sent to it again cost 1.1 (its renderer process kept); the suite
opened hundreds.

:class:`ContextPool` stands for the Playwright ``Browser`` in the tests (the ``browser``
fixture): ``new_context`` and ``new_page`` give a context back from an earlier test, its pages
closed and its cookies cleared, which is all the state the app keeps in a browser (no local or
session storage; tests/browser/test_browser_pool.py checks it). A page a test closes (or leaves open
at its end) is kept at ``about:blank`` instead (its app's session ended, its scripts gone) as
its context's next ``new_page``, unless its test left something on it: a listener (``page.on``)
or a route; one kept a context. A context made with other
options than the size (a locale, a touch screen) is kept apart. Each page opens at the size asked
for. Contexts come back when the test (or, for a module's own pages, the module) that took them
ends, or when a test closes one; one that a test closed itself (``page.context.close()``) is
dropped.
"""

from __future__ import annotations

import functools
from typing import Any

#: Options that set a page's size, not the context's nature: given to each page, not the key.
_SIZE = ("viewport",)
#: The size of a page when none is asked for (Playwright's default).
PLAYWRIGHT_VIEWPORT = {"width": 1280, "height": 720}


class _Context:
    """A pooled context as the tests see it: ``close`` gives it back (its pages closed);
    everything else is the Playwright ``BrowserContext``'s."""

    def __init__(self, pool: ContextPool, real: Any, key: tuple[Any, ...]) -> None:
        self._pool, self._real, self._key = pool, real, key
        self.viewport: dict[str, int] | None = None
        self.closed = False
        self.spare: Any = None  # a page of an earlier test, at about:blank
        real.on("close", lambda _context: setattr(self, "closed", True))

    def new_page(self) -> Any:
        page, self.spare = self.spare, None
        if page is None or page.is_closed():
            page = self._real.new_page()
            page.close = functools.partial(self.park, page)  # (the tests close their pages)
        else:
            self._pool.pages_reused += 1
        if self.viewport is not None:
            page.set_viewport_size(self.viewport)
        return page

    def park(self, page: Any, **options: Any) -> None:
        """``page.close()``: the page kept at ``about:blank`` as this context's next page if it
        is clean and the context has none kept yet, closed otherwise."""
        if page is self.spare:
            return
        if self.spare is None and _clean(page):
            page.goto("about:blank")  # the app's session closed, its timers gone
            self.spare = page
        elif not page.is_closed():
            type(page).close(page, **options)

    def close(self) -> None:
        self._pool.give_back(self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class ContextPool:
    """The Playwright ``Browser`` of the tests, its contexts used again (see the module)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self._free: list[_Context] = []
        self._out: list[_Context] = []
        self.made = 0  # contexts Chromium made (for the record: the suite's count)
        self.reused = 0
        self.pages_reused = 0

    def new_context(self, **options: Any) -> _Context:
        """A context with no cookies and no pages, made with ``options`` (its pages open at
        ``viewport``)."""
        # a context made at another size serves this one: its pages open at the size asked
        # for, Playwright's own 1280x720 when none is (not the size the context was made at)
        viewport = options.get("viewport", PLAYWRIGHT_VIEWPORT)
        key = tuple(sorted((k, repr(v)) for k, v in options.items() if k not in _SIZE))
        found = next((c for c in self._free if c._key == key and not c.closed), None)
        if found is None:
            found = _Context(self, self._browser.new_context(**options), key)
            self.made += 1
        else:
            self._free.remove(found)
            self.reused += 1
        found.viewport = viewport
        self._out.append(found)
        return found

    def new_page(self, **options: Any) -> Any:
        """A page of its own (a context no other page of the test shares), at ``viewport``."""
        return self.new_context(**options).new_page()

    def taken(self) -> frozenset[int]:
        """The contexts out now (their ids), for :meth:`give_back_all_but`."""
        return frozenset(id(c) for c in self._out)

    def give_back_all_but(self, kept: frozenset[int]) -> None:
        """Every context out but those of ``kept`` (:meth:`taken` before a test) back."""
        for context in [c for c in self._out if id(c) not in kept]:
            self.give_back(context)

    def give_back(self, context: _Context) -> None:
        """``context`` back: its cookies cleared, its pages closed but one left clean, kept at
        ``about:blank`` for its next ``new_page`` (dropped if closed)."""
        if context in self._out:
            self._out.remove(context)
        if context.closed or context in self._free:
            return
        try:
            for page in list(context._real.pages):
                context.park(page)
            context._real.clear_cookies()
        except Exception:  # a context Chromium lost (a crash): not used again
            context.closed = True
            return
        self._free.append(context)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


#: What Playwright itself listens for on every page (its own bookkeeping, not a test's).
_PLAYWRIGHT_OWN = frozenset({"close", "crash"})


def _clean(page: Any) -> bool:
    """Whether ``page`` carries nothing of its test into the next: open, with no listener a
    test added (``page.on``) and no route. Read from Playwright's page object (private
    fields: a Playwright that moves them makes every page unclean, closed as before)."""
    try:
        impl = page._impl_obj
        return not page.is_closed() and set(impl._events) <= _PLAYWRIGHT_OWN and not impl._routes
    except AttributeError:
        return False
