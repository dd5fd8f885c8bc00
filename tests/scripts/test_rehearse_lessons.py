"""scripts/rehearse_lessons.py without a browser: its languages (``--lang``), the names of its
screenshots and rows (English's as they always were), and the clicker's state it reads instead
of words (``data-clicker-*`` on the projector's text slide and strip, the same in every
language). Its run in Chromium: .ci/run's last lines, tests/browser/test_projector_browser.py."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import rehearse_lessons as rl  # noqa: E402

from app.words import i18n  # noqa: E402
from tests.app_helpers import blocks, fresh  # noqa: E402


def test_lang_names_every_offered_language_once_in_order() -> None:
    assert rl.languages(["en"]) == ["en"]
    assert rl.languages(["de", "ar", "de"]) == ["de", "ar"]
    assert rl.languages(["all"]) == list(i18n.OFFERED)
    assert rl.languages(["de", "all"])[:2] == ["de", "en"]
    assert rl.languages(["klingon"]) is None
    assert rl.languages(["en-XA"]) is None  # (the pseudo-language is never offered)


def test_english_names_and_rows_are_as_before_other_languages_carry_their_tag() -> None:
    out = Path("out/rehearsal")
    assert rl.shot(out, "en", "phases-2-text.png") == str(out / "phases-2-text.png")
    assert rl.shot(out, "de", "phases-2-text.png") == str(out / "de-phases-2-text.png")
    assert rl.lang_query("en") == "" and rl.lang_query("zh-Hans") == "&lang=zh-Hans"
    row = rl.PageRow("phases", 2, text_min_px=18.4, labels_min_px=14.3, round_trip="newest")
    assert row.cells()[:4] == ["phases", "1280x720", "2", "whole, 18.4 px"]
    assert row.cells()[5:8] == ["in view", "14.3", "newest"]
    assert rl.table([row]).splitlines()[0].startswith("| lesson | size | page | text |")
    assert rl.PageRow("phases", 2, "ar").cells()[0] == "phases [ar]"


def test_main_refuses_a_language_not_offered_and_a_class_not_in_english(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv in (["--lang", "xx"], ["--class", "2", "--lang", "de"]):
        with pytest.raises(SystemExit) as stop:
            rl.main(argv)
        assert stop.value.code == 2
    assert "--class rehearses in English only" in capsys.readouterr().err


def clicker_state(at: object) -> dict[str, str]:
    """The ``data-clicker-*`` attributes of the projector's slide or strip (one of them)."""
    found = [b for b in blocks(at) if "data-clicker-next" in b]  # type: ignore[arg-type]
    assert len(found) == 1, found
    return dict(re.findall(r'data-clicker-(\w+)="([^"]*)"', found[0]))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "en-XA"])
def test_the_clicker_state_is_on_the_page_in_no_language(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lesson phases, page 2 (its presses, then the next page), on the projector: the text
    slide says Page Down shows the screen; each Page Down moves the state on, in words of no
    language (the pseudo-language's page has the same attributes as English's)."""
    monkeypatch.setenv(i18n.PSEUDO_ENV, "1")
    from app.lessons.reading import load_lessons

    page = load_lessons()[0]["phases"].pages[1]
    pages = str(len(load_lessons()[0]["phases"].pages))
    at = fresh(lang=lang, lesson="phases", page="2", presentation="1")
    state = clicker_state(at)
    assert state == {"next": "screen", "page": "2", "pages": pages, "slide": "text", "done": "0"}
    seen = [state]
    for _press in range(len(page.press) + 1):
        at.button(key="clicker_next").click().run()
        assert not at.exception
        seen.append(clicker_state(at))
    assert [s["next"] for s in seen] == ["screen"] + ["press"] * len(page.press) + [
        "tab" if page.setup is not None and page.setup.tab else "page"
    ]
    assert [s["done"] for s in seen[1:]] == [str(n) for n in range(len(page.press) + 1)]
    assert all(s["slide"] == "screen" for s in seen[1:])
