"""The checks of the screen in each offered language (issue 34: "?lang=es, de, zh-Hans, ar: the
screen after a Step has no English word from the English catalogue on it, numbers in the
language's format; Arabic right to left; at 1280x720 and 390x844"), and their pure test.

Run in Chromium by tests/browser/test_i18n_matrix_browser.py (no page of their own: issue 39's CI
budget), on each language's page on tic-tac-toe (``?game=tic_tac_toe&lang=TAG&seed=3&steps=3``:
the last of its 3 iterations traced, its narration shown, as after a Step) at its first tab, at
1280x720 and at 390x844:

(a) no English left (:func:`english_left`, run by the matrix's ``look`` at both sizes there):
    the words of 4+ letters of the page's visible text (``document.body.innerText`` and the
    components' drawn text in their shadow roots: the open tab, the narration, the sidebar, the
    tree's buttons) and of the tree component's own labels (its buttons' names and tooltips),
    both read by :data:`TEXTS`, checked against the English messages of
    ``app/locale/mcts_lab.pot``: a word in the English messages' words and not in the
    language's translations' words is English left, reported with the messages it may come
    from (the entries of the language's catalogue still empty, with their modules);
(b) numbers the language's way (:func:`number_problems`): a Q value with a decimal comma in es
    and de, none in zh-Hans and ar (Babel writes those with a point);
(c) Arabic (:data:`DIRECTIONS`): the narration's, the sidebar's and the tree legend's text run
    right to left (the legend's swatches at its lines' right end), the tree's SVG left to right;
(d) the layout holds (:func:`layout_problems`): the three step buttons on one row (all the
    controls on one row at 1280x720, at most two on a phone), no button label cut
    (``scrollWidth <= clientWidth``), no sideways scroll.

(b)-(d) and the pictures are :func:`screen_problems`: screenshots to out/languages/
(``TAG-WxH.png``, and a phone's page further down, ``TAG-390x844-below.png``), with the text
read beside them (``TAG-WxH.txt``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from app.words import i18n
from tests.browser_helpers import OUT

SHOTS = OUT / "languages"
LOCALE = Path(i18n.LOCALE_DIR)

#: Words that are rightly the same in a language as in English (lower case), kept short:
#: the method's acronyms, which every language's literature keeps (docs/translations.md's
#: glossaries), and German's loan words the glossary uses as the label ("Quiz").
SAME_EVERYWHERE = frozenset({"mcts", "puct"})
SAME_IN: dict[str, frozenset[str]] = {"de": frozenset({"quiz", "fast"})}  # "fast": almost

#: Streamlit's own words on the page, outside the app's catalogue: the skip link (shown on
#: keyboard focus only), the file uploader's limit line, and the Material icons' ligature names
#: (``keyboard_double_arrow_left``: drawn as an icon, read by innerText as a word). Streamlit
#: has no translation of its own (its request #1353 is open).
STREAMLIT_OWN = re.compile(
    r"Skip to main content|(?:Limit )?\S+ per file(?: • [A-Z, ]+)?|\b[a-z]+(?:_[a-z]+)+\b"
)

#: A word: 4 or more letters (any script; digits and "_" break it).
WORD = re.compile(r"[^\W\d_]{4,}")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")

#: The page's visible text and the tree component's own labels (aria labels and tooltips):
#: ``innerText`` does not enter a shadow root, so each component's root is read too.
TEXTS = """() => {
  const shown = [document.body.innerText];
  const labels = [];
  for (const host of document.querySelectorAll('*')) {
    const root = host.shadowRoot;
    if (!root) continue;
    for (const child of root.children) {
      // (a component's <style> child: its innerText is its CSS source, never drawn; one was
      // read once, the tree's stylesheet with its comments, as English on the en-XA page)
      if (['STYLE', 'SCRIPT', 'LINK', 'TEMPLATE'].includes(child.tagName)) continue;
      if (child.innerText !== undefined) shown.push(child.innerText);
    }
    for (const e of root.querySelectorAll('.tv-button, .tv-scroll > svg')) {
      labels.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '');
    }
  }
  return {shown: shown.join('\\n'), labels: labels.join('\\n')};
}"""

#: Directions: the narration's, the sidebar's, the tree's SVG's (in its shadow root) and the
#: tree's legend's, opened by its "?" button (the last of the tree's buttons): its lines'
#: direction, and ``swatch``: which side of its first line the swatch is on (``"right"`` in a
#: right-to-left line: it starts the line). The legend is closed again.
DIRECTIONS = """() => {
  const dir = (e) => e ? getComputedStyle(e).direction : null;
  let root = null;
  for (const host of document.querySelectorAll('.st-key-tree *')) {
    if (host.shadowRoot && host.shadowRoot.querySelector('.tv-scroll > svg')) {
      root = host.shadowRoot;
      break;
    }
  }
  const svg = root ? root.querySelector('.tv-scroll > svg') : null;
  const legend = root ? root.querySelector('.tv-legend') : null;
  let swatch = null;
  if (legend) {
    const buttons = root.querySelectorAll('.tv-button');
    buttons[buttons.length - 1].click();
    const row = legend.querySelector('.tv-legend-row');
    const [box, words] = [row.children[0], row.children[1]].map(e => e.getBoundingClientRect());
    swatch = box.left >= words.right - 1 ? 'right' : box.right <= words.left + 1 ? 'left' : null;
    buttons[buttons.length - 1].click();
  }
  return {
    narration: dir(document.querySelector('.lab-narration')),
    sidebar: dir(document.querySelector(
      'section[data-testid="stSidebar"] [data-testid="stMarkdownContainer"]')),
    tree: dir(svg),
    legend: dir(legend),
    swatch: swatch,
  };
}"""

#: Buttons and tabs whose label is cut: an element of a shown button wider inside than its
#: box (the components' buttons too, in their shadow roots).
CUT_LABELS = """() => {
  const cut = [];
  const roots = [document];
  for (const host of document.querySelectorAll('*')) {
    if (host.shadowRoot) roots.push(host.shadowRoot);
  }
  for (const root of roots) {
    for (const b of root.querySelectorAll('button, [role="tab"]')) {
      const r = b.getBoundingClientRect();
      // hidden: a touch screen's twin, a closed sidebar's (a phone's: off to the left)
      if (r.width === 0 || r.height === 0 || r.right <= 0 || r.left >= innerWidth) continue;
      for (const e of [b, ...b.querySelectorAll('*')]) {
        if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) {
          cut.push((b.innerText || b.getAttribute('aria-label') || '?').trim() + ' ('
            + e.scrollWidth + ' > ' + e.clientWidth + ')');
          break;
        }
      }
    }
  }
  return cut;
}"""

#: The middle of each shown control of the controls row, and of the three step buttons.
ROWS = """() => {
  const mid = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 ? r.top + r.height / 2 : null;
  };
  const controls = [...document.querySelectorAll('.st-key-controls > *')]
    .map(mid).filter(m => m !== null);
  const steps = ['step', 'step_n', 'phase_step'].map(k => {
    const b = [...document.querySelectorAll('.st-key-' + k + ' button')]
      .find(e => e.getBoundingClientRect().width > 0);
    return b ? mid(b) : null;
  });
  const main = document.querySelector('.stMain');
  return {controls, steps, page: document.documentElement.scrollWidth,
          main: main ? [main.scrollWidth, main.clientWidth] : null};
}"""


# ------------------------------------------------------------------ the catalogues' words


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}


def _ids(message: Any) -> list[str]:
    return [message.id] if isinstance(message.id, str) else [m for m in message.id if m]


def _strings(message: Any) -> list[str]:
    if message.fuzzy:  # left out by the app, as msgfmt does
        return []
    found = [message.string] if isinstance(message.string, str) else list(message.string)
    return [s for s in found if s]


@lru_cache(maxsize=1)
def english() -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """The English messages' words, and every message with where it is made."""
    with open(LOCALE / "mcts_lab.pot", "rb") as f:
        template = read_po(f)
    words: set[str] = set()
    where: list[tuple[str, str]] = []
    for message in template:
        if not message.id:
            continue
        places = ", ".join(sorted({path for path, _line in message.locations}))
        for text in _ids(message):
            words |= _words(text)
            where.append((text, places))
    return frozenset(words), tuple(where)


@lru_cache(maxsize=8)
def translated(tag: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of a language's translations, and its messages still without one (empty or
    fuzzy: the app shows them in English)."""
    locale = i18n.BY_TAG[tag].locale
    with open(LOCALE / locale / "LC_MESSAGES" / f"{i18n.DOMAIN}.po", "rb") as f:
        catalogue = read_po(f)
    words: set[str] = set()
    missing: set[str] = set()
    for message in catalogue:
        if not message.id:
            continue
        strings = _strings(message)
        for text in strings:
            words |= _words(text)
        if not strings:
            missing.update(_ids(message))
    return frozenset(words), frozenset(missing)


def english_left(tag: str, text: str) -> list[str]:
    """The English words in ``text`` (see the module's docstring), each with the line it is
    in and the messages it may come from: those of the language's catalogue still without a
    translation that hold the word (or, when none, the first that do: then the text was not
    made by ``_()`` in this language, e.g. a value kept in English)."""
    english_words, messages = english()
    own, missing = translated(tag)
    text = STREAMLIT_OWN.sub(" ", text)
    allowed = SAME_EVERYWHERE | SAME_IN.get(tag, frozenset())
    found: dict[str, str] = {}
    for line in text.splitlines():
        for word in WORD.findall(line):
            low = word.lower()
            if low in english_words and low not in own and low not in allowed:
                found.setdefault(low, line.strip()[:120])
    report = []
    for word, line in sorted(found.items()):
        holds = [(m, w) for m, w in messages if word in _words(m)]
        empty = [(m, w) for m, w in holds if m in missing]
        origin = "; ".join(f"{m[:70]!r} ({w})" for m, w in (empty or holds)[:3])
        state = "untranslated" if empty else "translated elsewhere"
        report.append(f"{word!r} in {line!r} <- {state}: {origin}")
    return report


# ------------------------------------------------------------------ numbers


DECIMAL_COMMA = re.compile(r"(?<![\d.,])[+-]?\d+,\d{1,2}(?![\d,.])")
DECIMAL_POINT = re.compile(r"(?<![\d.,])[+-]?\d+\.\d{1,2}(?![\d,.])")


def number_problems(tag: str, text: str) -> list[str]:
    """Numbers not written the language's way: es and de write a decimal comma (at least one
    Q value has one, none has a point); zh-Hans and ar a point (no comma)."""
    commas, points = DECIMAL_COMMA.findall(text), DECIMAL_POINT.findall(text)
    with i18n.language(tag):
        comma = i18n.fixed(0.5, 2) == "0,50"
    if comma:
        problems = [f"a decimal point in {tag}: {points[:8]}"] if points else []
        if not commas:
            problems.append(f"no number with a decimal comma in {tag}")
        return problems
    problems = [f"a decimal comma in {tag}: {commas[:8]}"] if commas else []
    if not points:
        problems.append(f"no number with a decimal point in {tag}")
    return problems


# ------------------------------------------------------------------ the pages


def layout_problems(page: Any, width: int) -> list[str]:
    """(d): the rows, cut labels and sideways scroll at this width."""
    rows = page.evaluate(ROWS)
    problems = []
    steps = rows["steps"]
    if None in steps or max(steps) - min(steps) > 8:
        problems.append(f"the step buttons are not on one row (their middles at {steps})")
    middles = sorted(rows["controls"])
    count = 1 + sum(1 for above, below in pairwise(middles) if below - above > 8)
    most = 1 if width >= 1000 else 2
    if count > most:
        problems.append(f"the controls take {count} rows, {most} at most ({middles})")
    if rows["page"] > width:
        problems.append(f"the page scrolls sideways: {rows['page']} > {width}")
    if rows["main"] and rows["main"][0] > rows["main"][1]:
        problems.append(f"the main area scrolls sideways: {rows['main']}")
    problems += [f"a label cut: {c}" for c in page.evaluate(CUT_LABELS)]
    return problems


#: The directions an Arabic page's parts run in: the drawing keeps its geometry, the legend's
#: words do not (issue 43).
RTL_DIRECTIONS = {
    "narration": "rtl",
    "sidebar": "rtl",
    "tree": "ltr",
    "legend": "rtl",
    "swatch": "right",
}


def screen_problems(page: Any, tag: str, width: int, height: int) -> list[str]:
    """(b), (c) and (d) on ``page``, a page in ``tag`` at ``width`` x ``height`` after a traced
    iteration (its narration shown); the screenshots and the text read written to
    out/languages/ first. (a) is the caller's: the matrix's ``look`` runs :func:`english_left`
    on the same text and labels (:data:`TEXTS`)."""
    page.mouse.move(2, 2)  # no tooltip in the picture
    page.wait_for_timeout(300)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{tag}-{width}x{height}.png"))
    if width < 600:  # a phone's page scrolls: the narration and the open tab below
        page.locator(".st-key-narration").first.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / f"{tag}-{width}x{height}-below.png"))
    texts = page.evaluate(TEXTS)
    shot = SHOTS / f"{tag}-{width}x{height}.txt"  # what was read, beside the picture
    shot.write_text(texts["shown"] + "\n\n--- labels\n" + texts["labels"], encoding="utf-8")
    problems = number_problems(tag, texts["shown"])
    if i18n.BY_TAG[tag].rtl:
        dirs = page.evaluate(DIRECTIONS)
        problems += [
            f"the {part}'s direction is {dirs[part]}, not {want}"
            for part, want in RTL_DIRECTIONS.items()
            if dirs[part] != want
        ]
    return problems + layout_problems(page, width)


# ------------------------------------------------------------------ the checks can fail


def test_the_english_check_finds_a_word_and_spares_the_translated_ones() -> None:
    """Pure (no browser): an English word of a message found with where it is made; the
    language's own words, numbers, move labels and the allowed acronyms spared."""
    assert english_left("de", "Schritt 100 · MCTS · a1 b2 · -0,40") == []
    left = english_left("de", "Schritt\nthe player whose move it was")
    assert any(r.startswith("'whose' in 'the player whose move it was'") for r in left), left
    assert any("app/" in r for r in left), left
    assert number_problems("de", "Q -0,40 N 5") == []
    assert number_problems("de", "Q -0.40") != []
    assert number_problems("ar", "Q -0.40") == []
    assert number_problems("ar", "Q -0,40") != []
