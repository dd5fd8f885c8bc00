"""Every screen in the pseudo-language and the four languages, in one headless Chromium (issue
43's matrix): every registered game x every detail tab, the teacher's class screens (join box,
room box, reveal, switch table, summary) and the phone's pages (join, question, reveal, end),
at 1280x720 and 390x844, in each of five languages: ``en-XA`` (the pseudo-language: every
message of the catalogue comes back wrapped in ⟦ ⟧), es, de, zh-Hans and ar.

On every page, in every language:

- every visible text translated: in ``en-XA`` no visible text outside the brackets that is a
  word of the English catalogue (move notation, player tokens, numbers, acronyms and the user's
  own text are not catalogue words, or are listed in ``SPARED``); in the four languages no
  English word of the catalogue left (``english_left`` of tests/browser/test_languages_browser.py)
  and no game's move label in English where the language has its own words for it (``col 4``,
  ``H1 acts``: :func:`english_moves`). Planted sentences show both checks can fail;
- nothing cut, named one by one (:data:`LOOK`): a button's or a tab's label, any text that its
  box clips or cuts with an ellipsis, a text box's or a search box's value or placeholder wider
  than the box, and any box that scrolls sideways (the tree's drawing, code blocks and data
  grids aside: they pan by design); and no sideways scroll of the page.

On tic-tac-toe's first tab (:data:`SCREEN_GAME`: the language's screen of issue 34, its 3rd
iteration's narration shown), in each of the four languages at both sizes, its text checked at
each size and tests/browser/test_languages_browser.py's ``screen_problems`` too: numbers the
language's way, Arabic's directions (narration, sidebar and legend right to left, the tree's
drawing left to right), the step buttons and the controls' rows, no cut button label, no
sideways scroll, and the screenshots and text in out/languages/.

What it costs: one app server for the module (its own class store, the pseudo-language offered:
``MCTS_LAB_PSEUDO=1``; the shared ``app_url`` has neither); one browser context per language,
its one page going from game to game by the link (``?game=..&lang=..&steps=3``: no click's
rerun) and from tab to tab; the five languages' pages driven side by side, each waiting for its
own runs (counted from the page's WebSocket, :class:`tests.browser_helpers.Runs`, no fixed
sleep); both sizes measured on one load by resizing the window (the layout is CSS: the server
draws the same page at any width), each size one ``evaluate`` that reads the text, the cut
labels and the widths together. The class: one class, its teacher switching language at each
of its screens, a phone per language. Each part's time is printed (``-s``) and kept in
out/i18n_matrix.txt.
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
from tests.app.words.test_game_words import _has_word, _labels_of
from tests.browser.test_languages_browser import TEXTS, english, english_left, screen_problems
from tests.browser_helpers import BROWSER_TEST, OUT, Runs

pytestmark = BROWSER_TEST

GAMES = tuple(sorted(spec.name for spec in all_specs()))
SIZES = ((1280, 720), (390, 844))
LANGS = (i18n.PSEUDO, "es", "de", "zh-Hans", "ar")
#: The game whose first tab is each language's screen of tests/browser/test_languages_browser.py
#: (issue 34): looked at with its text at both sizes, and ``screen_problems`` run there.
SCREEN_GAME = "tic_tac_toe"
#: Catalogue words rightly left as they are: the app's name ("MCTS Lab") and acronyms.
SPARED = frozenset({"lab", "mcts", "uct", "ucb", "puct", "csv", "json", "graphviz", "dot", "svg"})
#: Streamlit's own text (the skip link, the uploader's button), Material icon names and a
#: formula's TeX commands (KaTeX keeps its source in the page: "\\text{...}").
STREAMLIT_OWN = re.compile(r"Skip to main content|Browse files|\b[a-z]+(?:_[a-z]+)+\b|\\[A-Za-z]+")
SEEN = OUT / "i18n_matrix"
BRACKETED = re.compile(r"⟦[^⟦⟧]*⟧")
WORD = re.compile(r"[A-Za-z]{3,}")

#: One look at the page at its present size, in one round trip, once the layout has settled
#: (two animation frames: a resize's observers and media queries have run; and the
#: transitions then moving have ended): ``text`` and
#: ``labels`` (the visible text and the tree's own labels, :data:`TEXTS`; only when asked),
#: ``cut`` (every element whose content does not fit, by its widget key and name: "[tree_focus]
#: 'Enfocar el nodo (id)' placeholder 117 > 108") and ``wide`` (the page's and the main
#: area's widths). Not cut: what a reader cannot see (no box, off the window: a closed
#: sidebar, a touch twin; screen-reader text of 1-3 px), and what pans by design (the tree's
#: drawing, code blocks, data grids).
LOOK = (
    """async (withText) => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  // a transition still moving (the sidebar closing as the window narrows: its boxes
  // half-way) ends first, within a second; endless ones (a spinner) are not waited for
  const moving = document.getAnimations().filter(a => a.playState === 'running'
    && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  if (moving.length) {
    await Promise.race([Promise.all(moving.map(a => a.finished.catch(() => null))),
                        new Promise(r => setTimeout(r, 1000))]);
    await new Promise(r => requestAnimationFrame(r));
  }
  const roots = [document];
  for (const host of document.querySelectorAll('*')) {
    if (host.shadowRoot) roots.push(host.shadowRoot);
  }
  const pans = '.tv-scroll, pre, [data-testid="stCode"], [data-testid="stDataFrame"], '
    + '[data-testid="stGraphVizChart"], [data-testid="stFullScreenFrame"] > div';
  const keyOf = (e) => {
    for (let a = e; a; a = a.parentElement || (a.getRootNode() || {}).host) {
      const k = [...(a.classList || [])].find(c => c.startsWith('st-key-'));
      if (k) return k.slice(7);
    }
    return '';
  };
  const nameOf = (e) => (e.getAttribute('aria-label') || e.getAttribute('placeholder')
    || (e.innerText || e.textContent || '').trim().split('\\n')[0] || e.tagName).slice(0, 50);
  const pen = document.createElement('canvas').getContext('2d');
  const cut = [];
  const said = new Set();
  const report = (e, what, inside, box) => {
    const key = keyOf(e);
    const line = (key ? '[' + key + '] ' : '') + JSON.stringify(nameOf(e)) + ' ' + what + ' '
      + Math.round(inside) + ' > ' + Math.round(box);
    if (!said.has(line)) { said.add(line); cut.push(line); }
  };
  for (const root of roots) {
    for (const e of root.querySelectorAll('*')) {
      if (e.closest('svg') || e.closest(pans) || ['SCRIPT', 'STYLE'].includes(e.tagName)) continue;
      const r = e.getBoundingClientRect();
      if (r.width < 4 || r.height < 4 || r.right <= 0 || r.left >= innerWidth) continue;
      const s = getComputedStyle(e);
      if (s.visibility === 'hidden') continue;
      if (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA') {
        const type = e.tagName === 'INPUT' ? (e.getAttribute('type') || 'text') : 'textarea';
        if (!['text', 'search', 'number', 'email', 'url'].includes(type)) continue;
        pen.font = s.font;
        const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
        const text = e.value || e.placeholder;
        const widest = Math.max(...text.split('\\n').map(t => pen.measureText(t).width));
        // a text area wraps its lines: only a word wider than the box is cut
        const cutIn = type === 'textarea'
          ? Math.max(0, ...text.split(/\\s+/).map(t => pen.measureText(t).width)) : widest;
        if (text && cutIn > room + 1) report(e, e.value ? 'value' : 'placeholder', cutIn, room);
        continue;
      }
      // an ellipsis shows at 1 px too wide; a box that clips hides its content's 2 px edge
      // without a letter's loss (KaTeX's 2 px struts: a formula 251 px in its 249 px box)
      const ellipsis = s.textOverflow === 'ellipsis';
      const clips = s.overflowX !== 'visible' || ellipsis;
      if (clips && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + (ellipsis ? 1 : 2)) {
        const scrolls = s.overflowX === 'auto' || s.overflowX === 'scroll';
        report(e, scrolls ? 'scrolls sideways' : 'cut', e.scrollWidth, e.clientWidth);
      } else if (['hidden', 'clip'].includes(s.overflowY) && e.clientHeight > 0
                 && e.scrollHeight > e.clientHeight + 3 && (e.innerText || '').trim()) {
        report(e, 'cut below', e.scrollHeight, e.clientHeight);  // lines a fixed height hides
      }
    }
  }
  const main = document.querySelector('.stMain');
  const read = withText ? ("""
    + TEXTS
    + """)() : {shown: '', labels: ''};
  return {cut, text: read.shown, labels: read.labels,
          wide: [document.documentElement.scrollWidth, main ? main.scrollWidth : 0,
                 main ? main.clientWidth : 0]};
}"""
)


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


@lru_cache(maxsize=8)
def _move_labels(game: str) -> tuple[str, ...]:
    """English move and outcome labels of ``game`` that hold a word ("col 4", "H1 acts", not
    "a1"), from 20 random playouts: the labels its pages can show."""
    return tuple(sorted(x for x in _labels_of(game, {}, 20, seed=1) if _has_word(x)))


@lru_cache(maxsize=64)
def _english_move_patterns(tag: str, game: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The labels of :func:`_move_labels` the language writes its own way, each as a pattern
    that finds it as a whole in a text."""
    from app.words.game_words import shown

    with i18n.language(tag):
        own = [x for x in _move_labels(game) if shown(x) != x]
    return tuple((x, re.compile(rf"(?<![\w(]){re.escape(x)}(?![\w)])")) for x in own)


def english_moves(tag: str, game: str, text: str) -> list[str]:
    """``game``'s move labels left in English in ``text`` of a page in ``tag``."""
    return sorted({x for x, pattern in _english_move_patterns(tag, game) if pattern.search(text)})


#: A web address on the page (the join box's): not words.
ADDRESS = re.compile(r"https?://\S+")


def text_problems(tag: str, game: str, text: str) -> list[str]:
    """What a page's visible text in ``tag`` has untranslated (see the module's docstring)."""
    text = ADDRESS.sub(" ", text)
    if tag == i18n.PSEUDO:
        return [f"unmarked {w!r}" for w in unmarked(text)]
    left = [f"English: {w}" for w in english_left(tag, text)]
    return left + [f"a move in English: {m!r}" for m in english_moves(tag, game, text)]


def fits(tag: str) -> bool:
    """Whether the cuts and the widths count in ``tag``: in the four languages. The
    pseudo-language's brackets and accents make every text longer than any language's: it
    tells what is translated, not what fits."""
    return tag != i18n.PSEUDO


def look(
    page: Any, tag: str, game: str, where: str, with_text: bool, hidden: tuple[str, ...] = ()
) -> list[str]:
    """One :data:`LOOK` at ``page`` and its problems, each starting with ``where``; the text
    checked without ``hidden`` (a class's code, the students' names: their own words)."""
    seen = page.evaluate(LOOK, with_text)
    width = page.viewport_size["width"]
    found = []
    if fits(tag):
        found += [f"cut: {c}" for c in seen["cut"]]
        page_w, main_w, main_box = seen["wide"]
        if page_w > width:
            found.append(f"the page scrolls sideways: {page_w} > {width}")
        if main_w > main_box:
            found.append(f"the main area scrolls sideways: {main_w} > {main_box}")
    if with_text:
        text = seen["text"] + "\n" + seen["labels"]
        for word in hidden:
            text = text.replace(word, " ")
        words = text_problems(tag, game, text)
        if words:  # what was read, for the reader of the failure
            SEEN.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^a-z0-9]+", "-", where.lower()).strip("-")
            (SEEN / f"{name}.txt").write_text(text, encoding="utf-8")
        found += words
    return [f"{where}: {f}" for f in found]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The module's app: its address and its class store's URL."""
    store = f"sqlite:///{tmp_path_factory.mktemp('matrix') / 'class.sqlite'}"
    with running_app(env={"MCTS_LAB_STORE": store, i18n.PSEUDO_ENV: "1"}) as found:
        yield found, store


#: Seconds each part of the matrix took in this run (written to out/i18n_matrix.txt).
SPENT: dict[str, float] = {}


def _spent(part: str, started: float) -> None:
    SPENT[part] = time.monotonic() - started
    print(f"\n{part}: {SPENT[part]:.1f} s")
    said = "\n".join(f"{k}: {v:.1f} s" for k, v in SPENT.items())
    OUT.mkdir(exist_ok=True)
    (OUT / "i18n_matrix.txt").write_text(
        f"{said}\ntotal: {sum(SPENT.values()):.1f} s\n", encoding="utf-8"
    )


def _said(problems: list[str], part: str) -> None:
    """The problems of a part kept in out/i18n_matrix/PART.txt (a long list reads better there)."""
    SEEN.mkdir(parents=True, exist_ok=True)
    (SEEN / f"{part}.txt").write_text("\n".join(problems) + "\n", encoding="utf-8")


class Lane:
    """One language's browser context and its one page, with its runs counted."""

    def __init__(self, browser: Any, tag: str, width: int = 1280, height: int = 720) -> None:
        self.tag = tag
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.runs = Runs(self.page)
        self.before = 0

    def go(self, address: str) -> None:
        """Open ``address`` (the page answers at once; :meth:`settled` waits for it)."""
        self.before = self.runs.done
        self.page.goto(address, wait_until="commit")

    def click(self, locator: Any) -> None:
        self.before = self.runs.done
        locator.click()

    def settled(self, selector: str = "g.tv-node") -> None:
        """After :meth:`go` or :meth:`click`: its run finished and ``selector`` drawn."""
        self.runs.wait(self.before)
        self.page.wait_for_selector(selector, timeout=60_000)

    def resize(self, width: int, height: int) -> None:
        self.page.set_viewport_size({"width": width, "height": height})


#: The games in two halves, each a test (and an xdist group) of its own: the whole matrix on
#: one worker took over 200 s under the suite's load, and the module's tests one after another
#: over 300 s, the last worker's tail.
HALVES = (GAMES[: len(GAMES) // 2], GAMES[len(GAMES) // 2 :])


@pytest.mark.parametrize(
    "games",
    [
        pytest.param(h, id="+".join(h), marks=pytest.mark.xdist_group(f"i18n:{h[0]}"))
        for h in HALVES
    ],
)
def test_every_game_and_tab_in_every_language(
    served: tuple[str, str], browser: Any, games: tuple[str, ...]
) -> None:
    """Each language (a page of its own) on ``games`` (a half of them) and every tab at both
    sizes: every
    visible text translated, no English move, nothing cut, no sideways scroll. Each tab is
    looked at in its first size with its text, and then in the other (they alternate: one
    resize a tab); tic-tac-toe's first tab with its text at both, and the language's screen
    checked there (``screen_problems``: numbers, Arabic's directions, rows, shots)."""
    started = time.monotonic()
    url = served[0]
    lanes = [Lane(browser, tag) for tag in LANGS]
    problems: list[str] = []
    try:
        for game in games:
            for lane in lanes:
                lane.go(f"{url}/?game={game}&lang={lane.tag}&seed=3&steps=3")
            for lane in lanes:
                lane.settled()
            for n, tab in enumerate(DETAIL_TABS):
                if n:
                    for lane in lanes:
                        lane.click(lane.page.locator("[role='tab']").nth(n))
                    for lane in lanes:
                        lane.settled()
                sizes = SIZES if n % 2 == 0 else SIZES[::-1]
                for k, (width, height) in enumerate(sizes):
                    sized = [lane for lane in lanes if k == 0 or fits(lane.tag)]
                    for lane in sized:
                        if lane.page.viewport_size["width"] != width:
                            lane.resize(width, height)
                    for lane in sized:
                        where = f"{lane.tag} {game} {tab} {width}x{height}"
                        screen = game == SCREEN_GAME and n == 0 and fits(lane.tag)
                        problems += look(lane.page, lane.tag, game, where, k == 0 or screen)
                        if screen:  # the language's screen: numbers, directions, rows, shots
                            found = screen_problems(lane.page, lane.tag, width, height)
                            problems += [f"{where}: {f}" for f in found]
                if game == GAMES[0] and n == 0:
                    problems += _planted(lanes[0].page, lanes[1].page)
    finally:
        for lane in lanes:
            lane.context.close()
    _spent(f"{'+'.join(games)} x tabs x languages x sizes", started)
    _said(problems, "games-" + "+".join(games))
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def _planted(pseudo: Any, spanish: Any) -> list[str]:
    """The checks can fail: an English sentence planted outside ⟦ ⟧, an English move and a
    placeholder too long for its box; each planted thing is taken away again."""
    plant = """([text, hint]) => {
      const p = document.createElement('p');
      p.id = 'planted'; p.innerText = text; document.body.append(p);
      const box = document.querySelector('.st-key-tree_focus input');
      if (box) { box.dataset.was = box.placeholder; box.placeholder = hint; }
    }"""
    unplant = """() => { document.getElementById('planted').remove();
      const box = document.querySelector('.st-key-tree_focus input');
      if (box) box.placeholder = box.dataset.was; }"""
    game = GAMES[0]
    pseudo.evaluate(plant, ["Selection starts at the root", "x"])
    found = look(pseudo, i18n.PSEUDO, game, "planted", with_text=True)
    pseudo.evaluate(unplant)
    spanish.evaluate(plant, [f"{_move_labels(game)[0]} then take the heap", "y" * 80])
    found_es = look(spanish, "es", game, "planted", with_text=True)
    spanish.evaluate(unplant)
    wanted = {
        "pseudo's unmarked sentence": {"'Selection'", "'root'"}
        <= set(re.findall(r"'\w+'", str(found))),
        "placeholder cut": any("[tree_focus]" in f and "placeholder" in f for f in found_es),
        "Spanish's English move": any("a move in English" in f for f in found_es),
        "Spanish's English words": any("English: 'heap'" in f for f in found_es),
    }
    return [f"the planted {what} was not found" for what, ok in wanted.items() if not ok]


#: The phones' names: no English catalogue word among them (the check takes them out anyway).
NAMES = dict(zip(LANGS, ("Ana", "Bea", "Cai", "Dag", "Eli"), strict=True))
PHONE = (390, 844)
SUBMIT = (
    "[data-testid='stBaseButton-secondaryFormSubmit'], "
    "[data-testid='stBaseButton-primaryFormSubmit']"
)
#: A phone's follow view after the reveal: its answer marked right or wrong.
MARKED = "() => /[✓✗]/.test((document.querySelector('.st-key-class_follow') || {}).innerText)"


def _switch_language(lane: Lane, tag: str) -> None:
    """The teacher's page in ``tag``, by the sidebar's ``language`` select (a whole run): the
    class goes on in the session."""
    page = lane.page
    # (after a look at 390 px the sidebar slides back in: the click waits for it to stand
    # still; scrolled into view first, or the list it opens closes again as the sidebar scrolls)
    # (a run that redraws the sidebar while the list is open closes it, as it would under a
    # teacher's finger: the list opened again, as the teacher would)
    name = i18n.BY_TAG[tag].name if tag in i18n.BY_TAG else tag
    option = page.locator("[role='option']", has_text=re.compile(f"^{re.escape(name)}$")).first
    for _attempt in range(6):
        page.locator(".st-key-language").first.scroll_into_view_if_needed()
        page.locator(".st-key-language button[aria-haspopup='listbox']").first.click()
        try:
            option.wait_for(timeout=5_000)
            break
        except Exception:  # (Playwright's TimeoutError: the list closed again)
            continue
    before = lane.runs.whole
    option.click()
    lane.runs.wait(before, whole=True)
    lane.tag = tag


def _class_look(
    lane: Lane, where: str, sizes: tuple[tuple[int, int], ...], hidden: tuple[str, ...]
) -> list[str]:
    """A class page at each of ``sizes`` (its text checked at the first), the window back at
    the first size."""
    found = []
    for k, (width, height) in enumerate(sizes):
        if lane.page.viewport_size["width"] != width:
            lane.resize(width, height)
        where_now = f"{where} {lane.tag} {width}x{height}"
        found += look(lane.page, lane.tag, "tic_tac_toe", where_now, k == 0, hidden)
    if lane.page.viewport_size["width"] != sizes[0][0]:
        lane.resize(*sizes[0])
    return found


def _teacher_screen(teacher: Lane, where: str, hidden: tuple[str, ...]) -> list[str]:
    """The teacher's screen in each language (from the one it is in: no switch spent), at
    1280x720 and 390x844."""
    order = list(LANGS) if LANGS.index(teacher.tag) == 0 else list(LANGS[::-1])
    found = []
    for tag in order:
        if teacher.tag != tag:
            _switch_language(teacher, tag)
        found += _class_look(teacher, where, SIZES, hidden)
    return found


def _press(teacher: Lane, key: str) -> None:
    """The teacher presses the room box's button ``key``; when it is not there, the failure
    says what the room box showed instead (and the page is saved as a screenshot)."""
    button = teacher.page.locator(f".st-key-{key} button:visible").first
    try:
        button.wait_for(timeout=30_000)
    except Exception as error:  # (Playwright's TimeoutError)
        room = teacher.page.locator(".st-key-class_room")
        shown = room.first.inner_text(timeout=5_000) if room.count() else "no room box"
        OUT.mkdir(parents=True, exist_ok=True)
        teacher.page.screenshot(path=str(OUT / f"no_{key}.png"))
        raise AssertionError(f"no {key} button; the room box showed: {shown!r}") from error
    button.click()


def _answer(phone: Lane, index: int) -> None:
    """The phone answers the open question with its choice ``index``."""
    labels = phone.page.locator(".st-key-class_answer [role='radiogroup'] label")
    labels.first.wait_for(timeout=60_000)
    phone.click(labels.nth(index))
    phone.runs.wait(phone.before)


def _answered(store: Any, code: str, round_: int, count: int) -> None:
    """Wait until ``count`` answers of the class's open question's round ``round_`` are in."""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        poll = store.current_poll(code)
        if poll is not None and len(store.answers(code, poll.id, round_)) >= count:
            return
        time.sleep(0.1)
    raise AssertionError(f"{count} answers of round {round_} never arrived")


def test_the_class_screens_in_every_language(served: tuple[str, str], browser: Any) -> None:
    """One class: its teacher (1280x720 and 390x844) on the join box and room box, the reveal
    of a second round with its switch table, and the summary, in each language; a phone per
    language (both sizes) on its join page, the question, the second round, the reveal and the
    end. Every visible text translated, nothing cut, no sideways scroll."""
    from app.classroom.core.store import open_store

    started = time.monotonic()
    url, store_url = served
    store = open_store(store_url)
    teacher = Lane(browser, i18n.PSEUDO)
    phones = {tag: Lane(browser, tag, *PHONE) for tag in LANGS}
    phone_sizes = (PHONE, SIZES[0])
    problems: list[str] = []
    try:
        teacher.go(f"{url}/?lang={i18n.PSEUDO}&lesson=exploration&page=1")
        teacher.settled()
        teacher.click(teacher.page.locator(".st-key-class_start button").first)
        teacher.page.wait_for_selector(".lab-class-code", timeout=60_000)
        code = teacher.page.locator(".lab-class-code").first.inner_text().strip()
        hidden = (code, *NAMES.values())
        for tag, phone in phones.items():
            phone.go(f"{url}/?class={code}&lang={tag}")
        for tag, phone in phones.items():
            phone.settled(".st-key-class_name input")
            problems += _class_look(phone, "phone join", phone_sizes, hidden)
            phone.page.locator(".st-key-class_name input").fill(NAMES[tag])
            phone.page.locator(SUBMIT).first.click()
        for phone in phones.values():
            phone.page.wait_for_selector(".st-key-class_answer [role='radiogroup']", timeout=60_000)
            problems += _class_look(phone, "phone question", phone_sizes, hidden)
            _answer(phone, 0)
        _answered(store, code, 1, len(phones))
        problems += _teacher_screen(teacher, "join box and room box", hidden)

        _press(teacher, "class_again")
        for phone in phones.values():  # round 2: another answer, so the switch table counts
            phone.page.wait_for_selector(".st-key-class_round_banner", timeout=60_000)
            problems += _class_look(phone, "phone round 2", phone_sizes, hidden)
            _answer(phone, 1)
        _answered(store, code, 2, len(phones))
        _press(teacher, "class_reveal")
        teacher.page.wait_for_selector(".st-key-class_switch", timeout=60_000)
        problems += _teacher_screen(teacher, "reveal and switch table", hidden)
        for phone in phones.values():
            phone.page.wait_for_function(MARKED, polling=100, timeout=60_000)
            problems += _class_look(phone, "phone reveal", phone_sizes, hidden)

        teacher.page.locator(".st-key-class_end button:visible").first.click()
        teacher.page.locator(".st-key-class_end_confirm button:visible").first.click()
        teacher.page.wait_for_selector(".st-key-class_summary", timeout=60_000)
        problems += _teacher_screen(teacher, "summary", hidden)
        for phone in phones.values():
            phone.page.wait_for_selector(".st-key-class_my_summary", timeout=60_000)
            problems += _class_look(phone, "phone end", phone_sizes, hidden)
    finally:
        store.close()
        for lane in (teacher, *phones.values()):
            lane.context.close()
    _spent("class screens x languages x sizes", started)
    _said(problems, "class")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
