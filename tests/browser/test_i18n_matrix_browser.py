"""Every screen in the pseudo-language and the four languages, in one headless Chromium (issue
43's matrix): every registered game x every detail tab, the teacher's class screens (join box,
room box, reveal) and the phone's pages (join, question, reveal), at 1280x720 and 390x844.

- ``?lang=en-XA`` (the pseudo-language: every message of the catalogue comes back wrapped in
  ⟦ ⟧): no visible text outside the brackets that is a word of the English catalogue (move
  notation, player tokens, numbers, acronyms and the user's own text are not catalogue words,
  or are listed in ``SPARED``); a planted unmarked sentence shows the check can fail;
- es, de, zh-Hans and ar on the same games and tabs at 1280x720: no label cut and no
  sideways scroll (the checks of tests/browser/test_languages_browser.py).

One app server for the module, with its own class store and the pseudo-language offered
(``MCTS_LAB_PSEUDO=1``): the shared ``app_url`` has neither, and the class's screens need a
store. Its time is printed (``-s``) and kept in out/i18n_matrix.txt.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from app_server import running_app

from app.inputs.tabs import DETAIL_TABS
from app.words import i18n
from games.registry import all_specs
from tests.browser.test_languages_browser import CUT_LABELS, TEXTS, english
from tests.browser_helpers import BROWSER_TEST, OUT, click, wait_idle
from tests.class_pages import wait_text

pytestmark = BROWSER_TEST

GAMES = tuple(sorted(spec.name for spec in all_specs()))
SIZES = ((1280, 720), (390, 844))
LANGS = ("es", "de", "zh-Hans", "ar")
#: Catalogue words rightly left as they are: the app's name ("MCTS Lab") and acronyms.
SPARED = frozenset({"lab", "mcts", "uct", "ucb", "puct", "csv", "json", "graphviz", "dot", "svg"})
#: Streamlit's own text (the skip link, the uploader's button), Material icon names and a
#: formula's TeX commands (KaTeX keeps its source in the page: "\\text{...}").
STREAMLIT_OWN = re.compile(r"Skip to main content|Browse files|\b[a-z]+(?:_[a-z]+)+\b|\\[A-Za-z]+")
SEEN = OUT / "i18n_matrix"
BRACKETED = re.compile(r"⟦[^⟦⟧]*⟧")
WORD = re.compile(r"[A-Za-z]{3,}")


@lru_cache(maxsize=1)
def catalogue_words() -> frozenset[str]:
    """The English catalogue's words of 3+ letters, lower case (``english()``: 4+ letters
    and where each comes from; here the short ones too: "and", "the", "col")."""
    pot = Path(i18n.LOCALE_DIR) / "mcts_lab.pot"
    ids = re.findall(r'^msgid(?:_plural)? "(.*)"$', pot.read_text(encoding="utf-8"), re.M)
    words = {w.lower() for text in ids for w in WORD.findall(re.sub(r"\{[^{}]*\}", " ", text))}
    return frozenset(words - SPARED) | frozenset(w for w in english()[0] if len(w) >= 3)


def unmarked(text: str) -> list[str]:
    """The English catalogue words of ``text`` outside ⟦ ⟧ (nested brackets taken whole)."""
    text = STREAMLIT_OWN.sub(" ", text)
    while BRACKETED.search(text):
        text = BRACKETED.sub(" ", text)
    words = catalogue_words()
    return sorted({w for w in WORD.findall(text) if w.lower() in words and w.lower() not in SPARED})


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = tmp_path_factory.mktemp("matrix") / "class.sqlite"
    env = {"MCTS_LAB_STORE": f"sqlite:///{store}", i18n.PSEUDO_ENV: "1"}
    with running_app(env=env) as found:
        yield found


#: Seconds each part of the matrix took in this run (written to out/i18n_matrix.txt).
SPENT: dict[str, float] = {}


def _spent(part: str, started: float) -> None:
    SPENT[part] = time.monotonic() - started
    said = "\n".join(f"{k}: {v:.1f} s" for k, v in SPENT.items())
    OUT.mkdir(exist_ok=True)
    (OUT / "i18n_matrix.txt").write_text(
        f"{said}\ntotal: {sum(SPENT.values()):.1f} s\n", encoding="utf-8"
    )


def _open(browser: Any, address: str, width: int, height: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(address)
    page.wait_for_selector("g.tv-node, .st-key-class_code input", timeout=60_000)
    wait_idle(page)
    return page


def _text(page: Any) -> str:
    return str(page.evaluate(TEXTS)["shown"])


def _sideways(page: Any, width: int) -> list[str]:
    wide = page.evaluate(
        "() => { const m = document.querySelector('.stMain');"
        " return [document.documentElement.scrollWidth, m ? m.scrollWidth : 0,"
        " m ? m.clientWidth : 0]; }"
    )
    problems = [f"the page scrolls sideways: {wide[0]} > {width}"] if wide[0] > width else []
    if wide[1] > wide[2]:
        problems.append(f"the main area scrolls sideways: {wide[1]} > {wide[2]}")
    return problems


def _tabs(page: Any, where: str, check: Any) -> list[str]:
    """``check(page, where)`` on every detail tab, opened by its place (its title is in the
    page's language)."""
    problems = []
    tabs = page.locator("[role='tab']")
    assert tabs.count() == len(DETAIL_TABS), where
    for i, name in enumerate(DETAIL_TABS):
        tabs.nth(i).click()
        wait_idle(page, 150)
        problems += check(page, f"{where} {name}")
    return problems


def _pseudo_check(page: Any, where: str) -> list[str]:
    text = _text(page)
    found = [f"{where}: unmarked {w!r}" for w in unmarked(text)]
    if found:  # what was read, for the reader of the failure
        SEEN.mkdir(parents=True, exist_ok=True)
        (SEEN / f"{re.sub(r'[^a-z0-9]+', '-', where.lower())}.txt").write_text(text, "utf-8")
    return found


@pytest.mark.parametrize(("width", "height"), SIZES, ids=lambda v: str(v))
def test_every_game_and_tab_in_the_pseudo_language(
    url: str, browser: Any, width: int, height: int
) -> None:
    started = time.monotonic()
    problems: list[str] = []
    for game in GAMES:
        # three iterations by the link (?steps=3): no click's rerun per page
        address = f"{url}/?game={game}&lang={i18n.PSEUDO}&seed=3&steps=3"
        page = _open(browser, address, width, height)
        try:
            problems += _tabs(page, f"{game} {width}x{height}", _pseudo_check)
            if game == GAMES[0]:  # the check can fail: a sentence planted outside ⟦ ⟧
                page.evaluate(
                    "() => { const p = document.createElement('p');"
                    " p.innerText = 'Selection starts at the root'; document.body.append(p); }"
                )
                assert {"Selection", "starts", "root"} <= set(unmarked(_text(page)))
        finally:
            page.close()
    _spent(f"pseudo games {width}x{height}", started)
    assert not problems, "\n".join(problems)


def _layout_check(width: int) -> Any:
    def check(page: Any, where: str) -> list[str]:
        cut = [f"{where}: a label cut: {c}" for c in page.evaluate(CUT_LABELS)]
        return cut + [f"{where}: {p}" for p in _sideways(page, width)]

    return check


@pytest.mark.parametrize("tag", LANGS)
def test_every_game_and_tab_fits_in_the_language(url: str, browser: Any, tag: str) -> None:
    """Each language on one game (every game in one language at least, turn by turn), every
    tab, at both sizes: no label cut, no sideways scroll."""
    started = time.monotonic()
    problems: list[str] = []
    game = GAMES[LANGS.index(tag) % len(GAMES)]
    for width, height in SIZES:
        page = _open(browser, f"{url}/?game={game}&lang={tag}&seed=3&steps=3", width, height)
        try:
            problems += _tabs(page, f"{tag} {game} {width}x{height}", _layout_check(width))
        finally:
            page.close()
    _spent(f"{tag} {game}", started)
    assert not problems, "\n".join(problems)


def _phone_join(browser: Any, url: str, code: str, tag: str, width: int, height: int) -> Any:
    phone = _open(browser, f"{url}/?class={code}&lang={tag}", width, height)
    phone.locator(".st-key-class_name input").fill("Ana")
    phone.locator("[data-testid='stBaseButton-secondaryFormSubmit'],"
                  " [data-testid='stBaseButton-primaryFormSubmit']").first.click()  # fmt: skip
    phone.wait_for_selector(".st-key-class_follow", timeout=30_000)
    wait_idle(phone)
    return phone


@pytest.mark.parametrize(("width", "height"), SIZES, ids=lambda v: str(v))
def test_the_class_screens_in_the_pseudo_language(
    url: str, browser: Any, width: int, height: int
) -> None:
    """The teacher's join box, room box and reveal, and a phone's join page, question and
    reveal: nothing unmarked, no sideways scroll."""
    started = time.monotonic()
    problems: list[str] = []
    query = f"lang={i18n.PSEUDO}&lesson=exploration&page=1"
    teacher = _open(browser, f"{url}/?{query}", 1280, 720)
    try:
        teacher.locator(".st-key-class_start button").first.click()
        teacher.wait_for_selector(".lab-class-code", timeout=30_000)
        wait_idle(teacher)
        code = teacher.locator(".lab-class-code").first.inner_text().strip()
        problems += [
            f"join box: unmarked {w!r}" for w in unmarked(_text(teacher).replace(code, ""))
        ]
        phone = _open(browser, f"{url}/?class={code}&lang={i18n.PSEUDO}", width, height)
        problems += [f"phone join: unmarked {w!r}" for w in unmarked(_text(phone))]
        phone.close()
        phone = _phone_join(browser, url, code, i18n.PSEUDO, width, height)
        try:
            wait_text(phone, ".st-key-class_question", "⟦")
            said = _text(phone).replace(code, "").replace("Ana", "")
            problems += [f"phone question: unmarked {w!r}" for w in unmarked(said)]
            problems += [f"phone question: {p}" for p in _sideways(phone, width)]
            phone.locator(".st-key-class_answer [role='radiogroup'] label").first.click()
            wait_idle(phone)
            wait_text(teacher, ".lab-class-count", "1")
            click(teacher, "class_reveal")
            said = _text(teacher).replace(code, "").replace("Ana", "")
            problems += [f"room box and reveal: unmarked {w!r}" for w in unmarked(said)]
            phone.wait_for_timeout(2_000)
            wait_idle(phone)
            said = _text(phone).replace(code, "").replace("Ana", "")
            problems += [f"phone reveal: unmarked {w!r}" for w in unmarked(said)]
            problems += [f"phone reveal: {p}" for p in _sideways(phone, width)]
        finally:
            phone.close()
    finally:
        teacher.close()
    _spent(f"pseudo class {width}x{height}", started)
    assert not problems, "\n".join(problems)
