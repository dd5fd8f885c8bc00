"""The glossaries of docs/translations.md hold: each checked MCTS term is written as its
language's glossary row writes it, in every catalogue message whose English has the term and on
every translated lesson page whose English page has it (issue 43).

The renderings are read from the tables (a row's "English | translation | note"; a row may
name several terms, "selection / expansion / ...", matched part by part). Every rendering a
cell lists is accepted ("simulación (rollout); partida simulada": both), and a note's "the act:
X" names one more (Chinese 回传 is the backed-up value, 反向传播 the act), and so does an
Arabic plural given as "(ج. ...)" (عقدة صدفة, ج. عقد صدفة). Other inflection is allowed
by comparing stems: a Latin-script word longer than 6 letters loses its last 4 (retropropagación
and retropropagar share "retropropaga"), an Arabic word its article ال (الاختيار is found in
اختيارًا).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "translations.md"
LOCALES = {"es": "es", "de": "de", "zh-Hans": "zh_Hans", "ar": "ar"}
HEADINGS = {"es": "(es)", "de": "(de)", "zh-Hans": "(zh-Hans)", "ar": "(ar)"}

# The MCTS terms held everywhere: the four phases and the words a lesson teaches with.
CHECKED = (
    "selection",
    "expansion",
    "simulation",
    "backpropagation",
    "backup",
    "exploration",
    "exploitation",
    "iteration",
    "chance node",
    "regret",
    "win rate",
)

# Messages whose English names a term the translation leaves to its label: the narration's
# phase line starts with the phase's name ("Selektion: an der Wurzel angehalten ..."), the
# message being what follows it.
EXCEPTIONS = ("selection stopped at the root",)


def glossary(tag: str, doc: str | None = None) -> dict[str, set[str]]:
    """Each English term of ``tag``'s glossary table and the renderings its row accepts."""
    text = DOC.read_text(encoding="utf-8") if doc is None else doc
    start = next(i for i, line in enumerate(text.splitlines()) if line.startswith("### ") and
                 line.endswith(HEADINGS[tag]))  # fmt: skip
    terms: dict[str, set[str]] = {}
    for line in text.splitlines()[start + 1 :]:
        if line.startswith("### "):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| ") or len(cells) < 2 or cells[0] in ("English", "---"):
            continue
        english, rendered = cells[0], cells[1]
        note = cells[2] if len(cells) > 2 else ""
        acts = re.findall(r"the act: ([^;,\"(]+)", note)
        for term, forms in zip(english.split(" / "), rendered.split(" / "), strict=False):
            names = [n.strip().lower() for n in re.sub(r"\(.*?\)", "", term).split(",")]
            accepted = _renderings(forms) | {a.strip() for a in acts}
            for name in filter(None, names):
                terms.setdefault(name, set()).update(accepted)
    return terms


def _renderings(cell: str) -> set[str]:
    """The renderings a cell lists, and an Arabic plural it gives as "(ج. ...)"."""
    plurals = set(re.findall(r"ج\. ([^)]+)\)", cell))
    plain = re.sub(r"[(（].*?[)）]", "", cell)
    return {p.strip() for p in re.split(r"[;；,，、]", plain) if p.strip()} | plurals


def _stems(rendering: str) -> list[str]:
    words = rendering.split()
    if re.search(r"[\u0600-\u06ff]", rendering):
        return [w.removeprefix("ال") for w in words]
    if re.search(r"[a-zA-Z]", rendering):
        return [w[: max(6, len(w) - 4)].lower() for w in words]
    return [rendering]


def uses(text: str, renderings: Iterable[str]) -> bool:
    """``text`` writes one of ``renderings`` (by stems: inflected forms count)."""
    folded = text.replace("\u00ad", "").lower()  # a soft hyphen is a break, not a letter
    return any(all(s.lower() in folded for s in _stems(r)) for r in renderings)


def _has(english: str, term: str) -> bool:
    """``english`` names ``term`` (word-bounded; a placeholder such as ``{regret}`` is not)."""
    words = re.sub(r"\{\w*\}", "", english)
    return re.search(rf"\b{re.escape(term)}", words, re.IGNORECASE) is not None


def slips(tag: str, catalog: Catalog, terms: dict[str, set[str]]) -> list[str]:
    """One line per message whose English has a checked term that its translation lacks."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        if any(e in ids[0] for e in EXCEPTIONS):
            continue
        for term in CHECKED:
            if term in terms and _has(ids[-1], term) and not uses(" ".join(forms), terms[term]):
                found.append(f"{tag}: {term!r} -> {sorted(terms[term])}: {ids[0][:60]!r}")
    return found


def lesson_slips(tag: str, terms: dict[str, set[str]]) -> list[str]:
    """One line per translated lesson page whose English page has a term its text lacks."""
    found = []
    for path in sorted((ROOT / "lessons" / tag).glob("*.toml")):
        english = tomllib.loads((ROOT / "lessons" / path.name).read_text(encoding="utf-8"))
        pages = tomllib.loads(path.read_text(encoding="utf-8")).get("pages", {})
        for number, page in pages.items():
            source = english["page"][int(number) - 1]
            said = f"{page.get('title', '')} {page.get('text', '')}"
            for term in CHECKED:
                wrote = f"{source['title']} {source['text']}"
                if term in terms and _has(wrote, term) and not uses(said, terms[term]):
                    found.append(f"{path.relative_to(ROOT)} page {number}: {term!r}")
    return found


@pytest.mark.parametrize("tag", list(LOCALES))
def test_every_checked_term_has_a_glossary_row(tag: str) -> None:
    assert set(CHECKED) <= set(glossary(tag)), set(CHECKED) - set(glossary(tag))


@pytest.mark.parametrize("tag", list(LOCALES))
def test_the_catalogue_and_the_lessons_follow_the_glossary(tag: str) -> None:
    path = ROOT / "app" / "locale" / LOCALES[tag] / "LC_MESSAGES" / "mcts_lab.po"
    with path.open("rb") as f:
        catalog = read_po(f)
    terms = glossary(tag)
    assert slips(tag, catalog, terms) + lesson_slips(tag, terms) == []


def test_a_planted_slip_is_found() -> None:
    """German "zurücktragen" for the backup, Chinese 回传 where the table lists only 反向传播,
    an Arabic misspelt phase: each is named; the inflected forms pass."""
    catalog = Catalog(locale="de")
    catalog.add("nothing to back up, backup done", "Backpropagation fertig")
    catalog.add("the backup adds {value}", "das Ergebnis wird zurückgetragen: {value}")
    catalog.add("{n} iterations", "{n} Iterationen")
    assert slips("de", catalog, glossary("de")) == [
        "de: 'backup' -> ['Backpropagation']: 'the backup adds {value}'"
    ]
    doc = DOC.read_text(encoding="utf-8").replace("| the act: 反向传播 |", "| |")
    zh = Catalog(locale="zh_Hans")
    zh.add("What will the backup add?", "回传会加上多少？")
    assert slips("zh-Hans", zh, glossary("zh-Hans")) == []  # 回传 is listed
    zh.add("Selection will go {moves}.", "选将依次经过 {moves}。")
    assert slips("zh-Hans", zh, glossary("zh-Hans", doc)) == [
        "zh-Hans: 'selection' -> ['选择']: 'Selection will go {moves}.'"
    ]
    ar = Catalog(locale="ar")
    ar.add("the simulation ended", "انتهت المحاكاات")
    ar.add("by selection", "بالاختيار")
    assert slips("ar", ar, glossary("ar")) == [
        "ar: 'simulation' -> ['المحاكاة']: 'the simulation ended'"
    ]
