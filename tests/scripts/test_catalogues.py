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


PLANTED = """\
from app.words.i18n import N_, _

def box(code):
    # TRANSLATORS: a planted join line
    return f"<p>{_('and type, planted')}</p><p>{code}</p>"

LEGEND = _("{colour} corners, planted", colour=N_("planted blue"))
"""

RUN_TIME = """\
from app.words.i18n import _, n_

def line(name, n):
    said = _(f"Hello {name}, planted")
    said += _("Goodbye " + name)
    said += n_("{n} planted thing", "{n} planted things".replace("s", "z"), n)
    return said + _(LABEL) + _("{name} is fine", name=name)  # _(NAME): a constant marked N_

LABEL = "a constant"
"""


def test_the_walk_finds_calls_inside_f_strings_and_arguments(tmp_path: Path) -> None:
    """Babel's reader misses a call inside an f-string (one token before Python 3.12) and one
    inside another call's arguments; the syntax-tree walk finds both, so the check names the
    planted messages the catalogue lacks, each with its file and line."""
    module = tmp_path / "planted.py"
    module.write_text(PLANTED, encoding="utf-8")
    code, problems = cat.scan([module])
    assert problems == []
    assert {str(m.id) for m in code if m.id} == {
        "and type, planted",
        "{colour} corners, planted",
        "planted blue",
    }
    assert code["and type, planted"].auto_comments == ["TRANSLATORS: a planted join line"]
    missing = cat.check(code, ROOT / "tests" / "locale", ("es",))
    assert f"es: 'and type, planted' ({module}:5) is not in the catalogue" in missing
    assert f"es: 'planted blue' ({module}:7) is not in the catalogue" in missing


def test_check_fails_on_a_message_made_at_run_time(tmp_path: Path) -> None:
    """An f-string, ``+`` or ``.replace`` as the message: no catalogue can hold it; the check
    exits 1 with file:line, and leaves ``_(NAME)`` (a constant marked elsewhere) alone."""
    module = tmp_path / "run_time.py"
    module.write_text(RUN_TIME, encoding="utf-8")
    _, problems = cat.scan([module])
    assert [p.split(": ")[0] for p in problems] == [
        f"{module}:4",
        f"{module}:5",
        f"{module}:6",
    ]
    assert all("made at run time" in p for p in problems)
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "catalogues.py"), "check", "--source",
         str(module), "--locale-dir", str(ROOT / "tests" / "locale"), "--offered", "es"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 1
    assert f"{module}:4: _(f'Hello {{name}}, planted')" in run.stderr


def test_check_fails_where_babel_reads_a_message_the_walk_does_not(tmp_path: Path) -> None:
    """The two readers are compared: Babel glues ``_("a" if x else "b")`` into one message
    "ab" that the code never asks for; the walk takes no message from it, and the check
    names the line."""
    module = tmp_path / "glued.py"
    module.write_text('from app.words.i18n import _\n\nX = _("yes" if True else "no")\n')
    _, problems = cat.scan([module])
    assert problems == [
        f"{module}:3: 'yesno': Babel's reader finds it, the syntax-tree walk does not"
    ]


def test_the_apps_code_has_every_call_extracted() -> None:
    """The six messages inside f-strings of issue 43 are in the template now (the join box's
    "and type" is part of one whole sentence since), and no call in app/ is
    made at run time or missed by the walk."""
    code, problems = cat.scan([cat.SOURCE_DIR])
    assert problems == []
    join = "Join on your phone: scan the code, or open {url} and type {code}"
    for msgid in (join, "class code", "minimum-visits rule", "depth {depth}:"):
        assert msgid in code
    assert "+{n} more" in code and "= {value}" in code
