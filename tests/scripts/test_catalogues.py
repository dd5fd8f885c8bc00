"""scripts/catalogues.py: the app's catalogues pass the CI check (fast), and the check fails,
one line each, on a message missing from an offered language, an entry without translation, a
fuzzy one, a placeholder that differs, and a template behind the code."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import catalogues as cat  # noqa: E402

C_SENTENCE = ROOT / "app" / "words" / "c_sentence.py"


def test_the_apps_catalogues_pass_the_check() -> None:
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "catalogues.py"), "check"],
        capture_output=True,
        text=True,
        check=False,
    )
    took = time.perf_counter() - start
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("catalogues: ")
    assert "whole in en, es, de, zh-Hans, ar" in run.stdout
    print(f"\ncatalogues.py check: {took:.1f} s")  # a number to read, not a timed assertion


def test_the_test_spanish_catalogue_is_whole_for_the_wrapped_module() -> None:
    code = cat.extract([C_SENTENCE])
    assert len(code) >= 15
    assert cat.check(code, ROOT / "tests" / "locale", ("es",)) == []


PO = """\
msgid ""
msgstr ""
"Language: es\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "{move} is the only move here, so no value of C changes the choice."
msgstr "{jugada} es la única jugada aquí."

msgid "No value of C can be worked out for this choice."
msgstr ""

#, fuzzy
msgid "C did not matter here: a proven result decided."
msgstr "C no importó aquí."
"""


def test_check_names_each_problem(tmp_path: Path) -> None:
    po = tmp_path / "es" / "LC_MESSAGES" / "mcts_lab.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO, encoding="utf-8")
    code = cat.extract([C_SENTENCE])
    template = tmp_path / "mcts_lab.pot"
    stale = cat.extract([])  # a template with no message: every message of the code is new
    assert cat._write(template, stale)
    assert not cat._write(template, cat.extract([]))  # only the date would change: not written
    problems = cat.check(code, tmp_path, ("es",), template)
    placeholder = [p for p in problems if "placeholders" in p]
    assert placeholder == [
        "es: '{move} is the only move here, so no value of C changes the choice.': "
        "placeholders ['jugada'] in the translation, ['move'] in the message"
    ]
    assert "es: 'No value of C can be worked out for this choice.' has no translation" in problems
    assert "es: 'C did not matter here: a proven result decided.' has no translation" in problems
    missing = [p for p in problems if p.endswith("is not in the catalogue")]
    assert len(missing) == len(code) - 3
    assert any(
        "'Raise C above {c} and {move} would be chosen instead' (app/words/c_sentence.py:" in p
        for p in missing
    )
    assert sum("lacks" in p for p in problems) == len(code)
    # not offered: only the placeholders are checked
    assert cat.check(code, tmp_path, ("en",)) == placeholder


def test_update_keeps_translations_and_adds_new_messages(tmp_path: Path) -> None:
    po = tmp_path / "es" / "LC_MESSAGES" / "mcts_lab.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO, encoding="utf-8")
    code = cat.extract([C_SENTENCE])
    cat.update(code, tmp_path, ["es", "de"])
    es = cat._ids(cat._read(po))
    assert es["{move} is the only move here, so no value of C changes the choice."].string
    assert set(cat._ids(code)) <= set(es)
    de = tmp_path / "de" / "LC_MESSAGES" / "mcts_lab.po"
    assert set(cat._ids(cat._read(de))) == set(cat._ids(code))
