"""The Link, in headless Chromium: it matches the tree on screen (its steps are the iterations
shown, also after clicks in the screen's fragment), it is an address students can open (not
loopback, no Present mode), and opening it shows the last iteration's path and narration.
A lesson link rebuilds the sender's tree, not the page's starting tree."""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Any

from tests.browser_helpers import BROWSER_TEST, click, open_page, stat, wait_idle

pytestmark = BROWSER_TEST


def narration(page: Any) -> str:
    return str(page.locator(".lab-narration").first.inner_text())


def _link(page: Any) -> str:
    page.locator(".st-key-link button").first.click()
    code = page.locator("[data-testid='stPopoverBody'] code, [data-testid='stCode'] code")
    code.first.wait_for(timeout=15_000)
    wait_idle(page)
    text = " ".join(code.first.inner_text().split())
    page.keyboard.press("Escape")
    return text.replace(" ", "")


def _params(link: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))


def test_the_link_matches_the_tree_and_replays_its_last_step(app_url: str, browser: Any) -> None:
    page = open_page(browser, f"{app_url}/?game=connect_four&seed=2&steps=10&presentation=1")
    for _ in range(3):
        click(page, "step")
    link = _link(page)
    params = _params(link)
    assert params["steps"] == str(stat(page, "Iteration")) == "13"
    assert "presentation" not in params
    host = urllib.parse.urlsplit(link).hostname
    assert host not in ("localhost", "127.0.0.1", None), link
    said = narration(page)
    other = open_page(browser, app_url + "/?" + urllib.parse.urlsplit(link).query)
    assert stat(other, "Iteration") == 13
    assert narration(other) == said  # the last iteration's narration, as the sender saw it
    assert other.locator(".st-key-tree .tv-edge-path").count() > 0  # the last path, drawn
    page.close()
    other.close()


def test_a_lesson_link_rebuilds_the_senders_tree(app_url: str, browser: Any) -> None:
    page = open_page(browser, f"{app_url}/?lesson=phases&page=1")
    start = stat(page, "Iteration")
    click(page, "step")
    click(page, "step")
    params = _params(_link(page))
    assert params["lesson"] == "phases" and params["steps"] == str(start + 2)
    other = open_page(browser, f"{app_url}/?" + urllib.parse.urlencode(params))
    assert stat(other, "Iteration") == start + 2
    assert narration(other) == narration(page)
    page.close()
    other.close()


def test_the_link_carries_the_senders_language_only_when_asked(app_url: str, browser: Any) -> None:
    page = open_page(browser, f"{app_url}/?lang=de&game=nim&seed=1")
    click(page, "step")
    assert "lang" not in _params(_link(page))  # each student's own browser's language
    page.locator(".st-key-link button").first.click()
    box = page.locator(".st-key-link_lang label").first  # "Open it in Deutsch"
    box.wait_for(timeout=15_000)
    box.click()
    code = page.locator("[data-testid='stPopoverBody'] code").first
    page.wait_for_function(
        "() => (document.querySelector(\"[data-testid='stPopoverBody'] code\") || {})"
        ".innerText?.includes('lang=de')",
        polling=100,
        timeout=15_000,
    )
    assert _params(" ".join(code.inner_text().split()).replace(" ", ""))["lang"] == "de"
    page.close()


# ------------------------------------------------------------------ the Export box (issue 44)

#: What a node of a tree drawing shows: its texts in order (label, lines, badges), its box's
#: fill and outline colours (``#rrggbb``).
Look = tuple[tuple[str, ...], str, str]

_BROWSER_NODES = """gs => gs.map(g => {
  const box = g.querySelector('rect.tv-box') || g.querySelector('polygon');
  return [g.getAttribute('data-key'), [...g.querySelectorAll('text')].map(t => t.textContent),
          box ? box.getAttribute('fill') : '', box ? box.getAttribute('stroke') : ''];
})"""


def _drawn(page: Any) -> dict[str, Look]:
    """The browser's drawing of the tree on screen, node by node."""
    nodes = page.locator(".st-key-tree g.tv-node").evaluate_all(_BROWSER_NODES)
    return {key: (tuple(texts), fill.lower(), stroke.lower()) for key, texts, fill, stroke in nodes}


def _pictured(svg: str, png: bytes, zoom: float) -> dict[str, Look]:
    """The exported picture node by node: its texts and outline as the SVG it was drawn from
    says, its fill as the PNG shows it (the commonest colour inside the box, at ``zoom``)."""
    import io
    import re
    import xml.etree.ElementTree as ET

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    tag = "{http://www.w3.org/2000/svg}"
    drawing = next(g for g in ET.fromstring(svg).iter(f"{tag}g") if g.get("class") == "tv-drawing")
    # scale(s) translate(dx, dy): a node's px in the picture is (x + dx) * s * zoom
    s, dx, dy = map(float, re.findall(r"-?[\d.]+", drawing.get("transform", "")))
    looks: dict[str, Look] = {}
    for g in drawing.iter(f"{tag}g"):
        if "tv-node" not in (g.get("class") or "").split():
            continue
        x, y = map(float, re.findall(r"-?[\d.]+", g.get("transform", "")))
        box = next((r for r in g.iter(f"{tag}rect") if r.get("class") == "tv-box"), None)
        texts = tuple("".join(t.itertext()) for t in g.iter(f"{tag}text"))
        fill = ""
        if box is not None:
            inset = 6 / s  # past the outline (at most 4.5 px) and the corners' curve
            w, h = float(box.get("width", 0)), float(box.get("height", 0))
            left, top = ((x + inset + dx) * s * zoom, (y + inset + dy) * s * zoom)
            right, bottom = ((x + w - inset + dx) * s * zoom, (y + h - inset + dy) * s * zoom)
            inside = image.crop((round(left), round(top), round(right), round(bottom)))
            count, colour = max(inside.getcolors(1 << 20) or [(0, (0, 0, 0))])
            fill = "#{:02x}{:02x}{:02x}".format(*colour)
        stroke = (box.get("stroke") if box is not None else "") or ""
        looks[g.get("data-key", "")] = (texts, fill, stroke.lower())
    return looks


def _differences(drawn: dict[str, Look], pictured: dict[str, Look]) -> list[str]:
    """Where the exported picture and the browser's drawing differ: a node in one only, or a
    node's texts, fill or outline."""
    found = [f"node {k} only in the browser" for k in drawn if k not in pictured]
    found += [f"node {k} only in the picture" for k in pictured if k not in drawn]
    found += [
        f"node {k}: browser {drawn[k]} != picture {look}"
        for k, look in pictured.items()
        if k in drawn and drawn[k] != look
    ]
    return found


def _choose(page: Any, key: str, option: str) -> None:
    box = page.locator(f".st-key-{key}").get_by_role("combobox").first
    box.click()
    page.get_by_role("option", name=option).first.click()
    wait_idle(page)


def test_the_export_box_downloads_the_screens_run_in_each_format(
    app_url: str, browser: Any
) -> None:
    """Each format downloads the run on the screen (a link's tree, then a Step: 2 slides), and
    the deck's tree picture is the browser's drawing of the same iteration (Present mode, as a
    slide frames it): the same nodes, texts and colours; a planted difference is found."""
    import io
    import re
    import zipfile

    from pptx import Presentation

    from app.components.export_box import FORMAT_NAMES
    from app.export import FORMATS, RunSpec, run_deck
    from app.export.pictures import svg_png
    from app.export.pptx_deck import ZOOM
    from app.inputs.widget_values import SESSION_MAX_NODES
    from mcts_core import SearchConfig

    # three empty squares: X's moves (blue), O's (red), won games (grey) all in view
    page = open_page(browser, f"{app_url}/?game=tic_tac_toe&position=XOXOXO...&seed=3&steps=7"
                     "&presentation=1")  # fmt: skip
    click(page, "step")  # iteration 8: the history shows 7 (the link's) and 8
    drawn = _drawn(page)
    page.locator(".st-key-export button").first.click()
    page.locator(".st-key-export_format").first.wait_for(timeout=15_000)
    wait_idle(page)
    files: dict[str, tuple[str, bytes]] = {}
    for fmt in FORMATS:
        _choose(page, "export_format", FORMAT_NAMES[fmt])
        page.locator(".st-key-export_go button").first.click()
        button = page.locator(".st-key-export_download button").first
        button.wait_for(timeout=60_000)
        with page.expect_download(timeout=30_000) as info:
            button.click()
        download = info.value
        files[fmt] = (download.suggested_filename, Path(download.path()).read_bytes())
    page.close()
    assert {f: name for f, (name, _) in files.items()} == {
        "pptx": "mcts-lab-tic_tac_toe-8-en.pptx", "pdf": "mcts-lab-tic_tac_toe-8-en.pdf",
        "gif": "mcts-lab-tic_tac_toe-8-en.gif", "apng": "mcts-lab-tic_tac_toe-8-en.png",
        "png": "mcts-lab-tic_tac_toe-8-en.zip",
    }  # fmt: skip
    assert files["pdf"][1].startswith(b"%PDF")
    assert files["gif"][1].startswith(b"GIF8") and files["apng"][1].startswith(b"\x89PNG")
    assert len(zipfile.ZipFile(io.BytesIO(files["png"][1])).namelist()) == 2
    deck = Presentation(io.BytesIO(files["pptx"][1]))
    assert len(deck.slides) == 1 + 2  # the title slide, then iterations 7 and 8
    pictures = {
        shape.image.blob for shape in deck.slides[2].shapes if getattr(shape, "image", None)
    }
    # the same run rebuilt here: its tree picture is one of the downloaded deck's pictures
    spec = RunSpec("tic_tac_toe", "XOXOXO...", seed=3, iterations=8, at=(8,),
                   config=SearchConfig(max_nodes=SESSION_MAX_NODES))  # fmt: skip
    svg = run_deck(spec).slides[0].tree_svg
    assert svg is not None
    png = svg_png(svg, ZOOM)
    assert png in pictures
    pictured = _pictured(svg, png, ZOOM)
    assert len(pictured) >= 4 and _differences(drawn, pictured) == []
    # planted in one node's group: a label changed, or its box recoloured (drawn again)
    key, (texts, _fill, _stroke) = next(iter(pictured.items()))
    start = svg.index(f'data-key="{key}"')
    end = svg.index("</g>", start)
    group = svg[start:end]
    for changed in (
        group.replace(f">{texts[0]}<", ">X z9<", 1),
        re.sub(r'(class="tv-box"[^>]*? fill=")[^"]*', r"\g<1>#ff00ff", group, count=1),
    ):
        assert changed != group
        planted = svg[:start] + changed + svg[end:]
        wrong = _differences(drawn, _pictured(planted, svg_png(planted, ZOOM), ZOOM))
        assert [line for line in wrong if line.startswith(f"node {key}:")], wrong
