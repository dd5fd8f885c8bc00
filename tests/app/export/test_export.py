"""Exports read back (issue 44): the deck opened with python-pptx, the handout's text extracted
with pypdf, the animation's frames counted, every text compared with the app's own narration in
the chosen language; the tree's type at the projector's size; bad input refused in one line."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from PIL import Image

pptx = pytest.importorskip("pptx")
pypdf = pytest.importorskip("pypdf")

from app.export import (  # noqa: E402
    ExportError,
    RunSpec,
    export_run,
    iteration_png,
    lesson_deck,
    run_deck,
    write_deck,
)
from app.export.tree_svg import MIN_TEXT_PX  # noqa: E402
from app.words import i18n  # noqa: E402
from app.words.narration import narrate_iteration  # noqa: E402
from games.registry import game_spec, make_game  # noqa: E402
from mcts_core import Search  # noqa: E402
from mcts_core.config import SearchConfig  # noqa: E402
from tests.conftest import CliRunner  # noqa: E402

SPEC = RunSpec(game="connect_four", position="44", seed=3, iterations=12, at=(1, 8, 9, 12))


def narrations(spec: RunSpec, lang: str) -> dict[int, str]:
    """The app's narration of each chosen iteration, made here from a search of our own."""
    game = make_game(spec.game)
    search = Search(game, game.parse_state(spec.position), spec.config, seed=spec.seed)
    said = {}
    with i18n.language(lang):
        names = tuple(i18n._(n) for n in game_spec(spec.game).player_names)
        for _ in range(spec.iterations):
            trace = search.step()
            if trace.iteration in spec.at:
                said[trace.iteration] = narrate_iteration(
                    trace, (names[0], names[1]), spec.config.c, spec.config.tree_policy
                )
    return said


def flat(text: str) -> str:
    return " ".join(text.split())


def shape_text(slide: object, name: str) -> str:
    found = [s for s in slide.shapes if s.name == name]  # type: ignore[attr-defined]
    assert len(found) == 1, name
    return "\n".join(p.text for p in found[0].text_frame.paragraphs)


def test_deck_holds_each_iteration_with_its_narration_and_pictures() -> None:
    deck = pptx.Presentation(io.BytesIO(export_run(SPEC, "pptx", "es")))
    slides = list(deck.slides)
    assert len(slides) == 1 + len(SPEC.at)  # the title slide, then one slide an iteration
    said = narrations(SPEC, "es")
    for slide, iteration in zip(slides[1:], SPEC.at, strict=True):
        assert shape_text(slide, "Narration") == said[iteration]
        assert f"iteración {iteration} ·" in shape_text(slide, "Title")
        pictures = {s.name for s in slide.shapes if s.shape_type == 13}  # MSO_SHAPE_TYPE.PICTURE
        assert pictures == {"Tree", "Board"}
    # iteration 8 has a decision at the root: its terms are an editable table
    tables = [s for s in slides[2].shapes if s.has_table]
    assert tables and tables[0].table.cell(1, 0).text == "jugada"


def test_handout_text_is_the_narration_two_iterations_a_page() -> None:
    reader = pypdf.PdfReader(io.BytesIO(export_run(SPEC, "pdf", "de")))
    assert len(reader.pages) == 2
    text = flat(" ".join(page.extract_text() for page in reader.pages))
    for iteration, narration in narrations(SPEC, "de").items():
        assert flat(narration) in text, iteration


def test_gif_of_thirty_connect_four_iterations() -> None:
    data = export_run(RunSpec(game="connect_four", iterations=30), "gif")
    assert len(data) < 5 * 1024 * 1024
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF" and gif.n_frames == 30 and gif.info["loop"] == 0


def test_png_frames_and_apng() -> None:
    deck = run_deck(RunSpec(game="tic_tac_toe", iterations=3), "en")
    with zipfile.ZipFile(io.BytesIO(write_deck(deck, "png"))) as archive:
        names = archive.namelist()
        assert names == ["slide-001.png", "slide-002.png", "slide-003.png"]
        with Image.open(io.BytesIO(archive.read(names[0]))) as frame:
            assert frame.size == (1280, 720)
    with Image.open(io.BytesIO(write_deck(deck, "apng"))) as apng:
        assert apng.n_frames == 3


def test_tree_type_is_readable_at_the_projectors_size() -> None:
    deck = run_deck(RunSpec(game="connect_four", iterations=40, at=(40,)), "en")
    svg = deck.slides[0].tree_svg or ""
    scale = float(re.search(r'transform="scale\(([0-9.]+)\)', svg).group(1))  # type: ignore[union-attr]
    inside = svg[svg.index('class="tv-drawing"') :]
    sizes = [float(s) for s in re.findall(r'font-size="([0-9.]+)"', inside)]
    assert min(sizes) * scale >= MIN_TEXT_PX
    # the root and every one of its moves are drawn
    assert svg.count('data-key="n0"') == 1
    assert len(re.findall(r'class="tv-node tv-p0" transform=[^>]*data-key="n\d+"', svg)) >= 7
    with Image.open(io.BytesIO(iteration_png(SPEC, 8))) as picture:
        assert picture.size == (760, 430)


def test_lesson_deck_every_page_and_press_in_spanish() -> None:
    deck = lesson_deck("exploration", "es")
    kinds = [s.kind for s in deck.slides]
    assert kinds.count("page") == 3 and kinds.count("state") == 3
    assert kinds.count("question") == kinds.count("reveal") == 3
    shown = pptx.Presentation(io.BytesIO(write_deck(deck, "pptx")))
    slides = list(shown.slides)[1:]
    assert len(slides) == len(deck.slides)
    for slide, made in zip(slides, deck.slides, strict=True):
        assert shape_text(slide, "Narration") == made.text
    assert "página 1" in shape_text(slides[0], "Title")


def test_arabic_deck_runs_right_to_left() -> None:
    deck = run_deck(RunSpec(game="tic_tac_toe", iterations=2), "ar")
    assert deck.rtl
    shown = pptx.Presentation(io.BytesIO(write_deck(deck, "pptx")))
    narration = [s for s in list(shown.slides)[1].shapes if s.name == "Narration"][0]
    paragraph = narration.text_frame.paragraphs[0]._p
    assert paragraph.pPr.get("rtl") == "1"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--game", "chess", "--format", "pptx"], "invalid choice: 'chess'"),
        (["--game", "tic_tac_toe", "--at", "0,2", "--format", "gif"], "--at: iteration 0"),
        (["--game", "tic_tac_toe", "--format", "doc"], "unknown format 'doc'"),
        (["--game", "tic_tac_toe", "--format", "pdf", "--lang", "xx"], "unknown language 'xx'"),
        (["--lesson", "nope", "--format", "pdf"], "unknown lesson 'nope'"),
        (["--game", "tic_tac_toe", "--position", "XXXXXXXXXZ", "--format", "gif"], "bad position"),
        (["--game", "tic_tac_toe", "--iterations", "500", "--format", "gif"], "--every K"),
    ],
)
def test_bad_input_is_one_line(cli: CliRunner, tmp_path: Path, argv: list[str], said: str) -> None:
    status, out, err = cli("export", *argv, "--out", str(tmp_path / "x"))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mcts-lab: error: ") and said in err
    assert not (tmp_path / "x").exists()


def test_cli_json_summary(cli: CliRunner, tmp_path: Path) -> None:
    out_file = tmp_path / "run.gif"
    status, out, _err = cli("export", "--game", "tic_tac_toe", "--iterations", "6", "--every",
                            "4", "--out", str(out_file), "--json")  # fmt: skip
    assert status == 0
    summary = json.loads(out)
    assert summary["format"] == "gif" and summary["iterations"] == [4, 6]
    assert summary["slides"] == 2 and summary["bytes"] == out_file.stat().st_size


def test_bad_spec_is_refused_early() -> None:
    with pytest.raises(ExportError, match="outside the run"):
        RunSpec(game="tic_tac_toe", iterations=5, at=(6,))
    with pytest.raises(ExportError, match="unknown game"):
        run_deck(RunSpec(game="go", config=SearchConfig()), "en")
