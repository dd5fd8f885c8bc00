"""The translation catalogues' pipeline (docs/translations.md), with Babel's Python API.

    python scripts/catalogues.py extract   # app/**.py -> app/locale/mcts_lab.pot
    python scripts/catalogues.py update    # the template -> each language's .po (made if missing)
    python scripts/catalogues.py update --only es   # one language's (a translator's own)
    python scripts/catalogues.py check     # CI: exit 1 and one line per problem

The messages are the calls ``_("...")``, ``n_("...", "...", n)`` and ``N_("...")`` (a constant
translated where it is shown) in app/ (the keywords ``_``, ``n_:1,2`` and ``N_``), and the quiz's
plural facts ``P("...", "...", n)`` (``app/quiz/words.py``; ``P:1,2``) and the class core's plural
refusals ``Nn_("...", "...")`` (``app/classroom/core/room.py``; ``Nn_:1,2``). They are found by
walking each module's syntax tree (``ast``): a call inside an f-string or inside another call's
arguments is found too, where Babel's token reader misses it (Python 3.11 reads an f-string as
one token). Babel's extractor is kept as a second reader: a message it finds that the walk does
not is a gap in the walk. ``check`` fails on a message in the code that the template lacks (run
``extract``), on a call whose message is made at run time (an f-string, ``+``, ``%`` or
``.format`` as the argument: no catalogue can hold it; ``_(NAME)`` of a constant marked ``N_``
elsewhere is fine), on a message missing from, or untranslated (or fuzzy) in, the catalogue of a
language offered to users (``app.words.i18n.OFFERED``; English is the source and has none),
and on a translation, in any catalogue, whose named placeholders differ from its message's.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import os
import sys
import tokenize
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.words.i18n import (  # noqa: E402
    BY_TAG,
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    OFFERED,
    SOURCE,
    placeholders,
)

KEYWORDS = {"_": None, "n_": (1, 2), "N_": None, "P": (1, 2), "Nn_": (1, 2)}
COMMENT_TAG = "TRANSLATORS:"
SOURCE_DIR = ROOT / "app"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"

MessageId = str | tuple[str, str]


def extract(sources: Iterable[Path]) -> Catalog:
    """The messages of the code in ``sources`` (folders or files), with where each is used."""
    return scan(sources)[0]


def scan(sources: Iterable[Path]) -> tuple[Catalog, list[str]]:
    """The messages of the code in ``sources`` (folders or files), and one line per call whose
    message cannot be extracted or that the syntax-tree walk misses where Babel's reader finds
    it."""
    catalog = Catalog(domain=DOMAIN, project="MCTS Lab", fuzzy=False)
    problems: list[str] = []
    for source in sources:
        for path in _python_files(source):
            name = _shown_path(source, path)
            messages, unextractable = _calls(path, name)
            problems += unextractable
            for line, message, comments in messages:
                catalog.add(message, locations=[(name, line)], auto_comments=comments)
    return catalog, problems


def _python_files(source: Path) -> Iterable[Path]:
    """``source`` itself, or a folder's modules: each folder's files by name, then its
    subfolders by name (Babel's order, so that the template keeps its order)."""
    if not source.is_dir():
        yield source
        return
    for folder, subfolders, files in os.walk(source):
        subfolders.sort()
        yield from (Path(folder) / f for f in sorted(files) if f.endswith(".py"))


def _shown_path(source: Path, path: Path) -> str:
    """``path`` as the template names it: from the folder's name (``app/...``), or from the
    repository's root for a file given alone."""
    if source.is_dir():
        return str(Path(source.name) / path.relative_to(source))
    resolved = path.resolve()
    return str(resolved.relative_to(ROOT)) if resolved.is_relative_to(ROOT) else str(path)


Found = tuple[int, MessageId, list[str]]  # line, message, translator comments


def _keyword(call: ast.Call) -> str | None:
    """The extraction keyword ``call`` is made with (``_(...)`` or ``i18n._(...)``), if any."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name if name in KEYWORDS else None


def _made_at_run_time(node: ast.expr) -> bool:
    """An argument whose text is built when the line runs: an f-string, ``+`` or ``%``,
    ``.format(...)``: its message differs from any the catalogue could hold."""
    if isinstance(node, ast.JoinedStr | ast.BinOp):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "join", "replace")
    )


def _calls(path: Path, name: str) -> tuple[list[Found], list[str]]:
    """Every keyword call in the module at ``path``, f-strings and other calls' arguments
    included: its line (the first string's, as Babel counts), message and translator comments
    (Babel's where its reader finds the call, else the ``# TRANSLATORS:`` lines right above);
    and one line per call whose message is made at run time or that the walk misses."""
    text = path.read_text(encoding="utf-8")
    with contextlib.redirect_stderr(io.StringIO()):  # its f-string warning: said below
        babel = [
            (line, message if isinstance(message, str) else (message[0], message[1]), comments)
            for line, message, comments, _ in extract_from_file(
                "python", str(path), keywords=KEYWORDS, comment_tags=(COMMENT_TAG,)
            )
        ]
    babel_comments = {(line, message): comments for line, message, comments in babel}
    own_comments = _translator_comments(text)
    read: list[Found] = []  # the calls Babel's reader finds too
    missed: list[Found] = []  # the calls only the walk finds
    problems: list[str] = []
    run_time: set[int] = set()  # the lines of the calls said to be made at run time
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if not isinstance(node, ast.Call) or (keyword := _keyword(node)) is None:
            continue
        count = 2 if KEYWORDS[keyword] else 1
        args = node.args[:count]
        texts = [a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if len(texts) == count:
            line = args[0].lineno
            message: MessageId = texts[0] if count == 1 else (texts[0], texts[1])
            comments = babel_comments.get((line, message))
            if comments is not None:
                read.append((line, message, comments))
            else:
                own = own_comments.get(line - 1) or own_comments.get(node.lineno - 1) or []
                missed.append((line, message, own))
        elif not args or any(_made_at_run_time(a) for a in args):
            run_time.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            shown = ast.unparse(node)
            shown = shown if len(shown) <= 80 else shown[:77] + "..."
            problems.append(
                f"{name}:{node.lineno}: {shown}: a message made at run time cannot be in a "
                "catalogue: write the text whole, with named placeholders"
            )
    walked = Counter(message for _, message, _ in read + missed)
    for line, message, _ in babel:
        if walked[message] > 0:
            walked[message] -= 1
        elif line not in run_time:  # Babel takes a piece of such a call's text
            problems.append(
                f"{name}:{line}: {message!r}: Babel's reader finds it, the syntax-tree walk "
                "does not"
            )
    # Babel's reader hands a comment above a call it cannot see to the next call it sees
    taken = {comment for _, _, comments in missed for comment in comments}
    found = [(line, m, [c for c in comments if c not in taken]) for line, m, comments in read]
    return sorted(found + missed, key=lambda f: f[0]), problems


def _translator_comments(text: str) -> dict[int, list[str]]:
    """Each ``# TRANSLATORS:`` comment with the comment lines right below it, by the line it
    ends on (a call on the next line takes it)."""
    blocks: dict[int, list[str]] = {}
    last, block = -2, None
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type != tokenize.COMMENT:
            continue
        line, value = tok.start[0], tok.string[1:].strip()
        if block is not None and line == last + 1:
            block.append(value)
        elif value.startswith(COMMENT_TAG):
            block = [value]
        else:
            block = None
            continue
        last = line
        blocks[line] = block
    return {line: block for line, block in blocks.items() if line + 1 not in blocks}


def _read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, domain=DOMAIN)


def _write(path: Path, catalog: Catalog) -> bool:
    """Write ``catalog`` as a .po/.pot file unless only its creation date would change (no
    churn in the history); True when written."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=False)
    new = buffer.getvalue()
    if path.exists() and _undated(path.read_bytes()) == _undated(new):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(new)
    return True


def _undated(text: bytes) -> list[bytes]:
    return [line for line in text.splitlines() if not line.startswith(b'"POT-Creation-Date:')]


def catalogue_path(locale_dir: Path, locale: str) -> Path:
    return locale_dir / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def update(template: Catalog, locale_dir: Path, locales: Sequence[str]) -> list[Path]:
    """Each language's catalogue brought to the template (new messages empty, gone ones kept
    as obsolete, changed ones fuzzy); a missing one is made. The paths written."""
    written = []
    for locale in locales:
        path = catalogue_path(locale_dir, locale)
        catalog = _read(path) if path.exists() else Catalog(locale=locale, domain=DOMAIN)
        catalog.update(template, update_header_comment=False)
        _write(path, catalog)
        written.append(path)
    return written


def _ids(catalog: Catalog) -> dict[str, Message]:
    return {str(m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}


def _placeholder_problems(where: str, message: Message) -> list[str]:
    if isinstance(message.id, str):
        want = placeholders(message.id)
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        return [
            f"{where}: {message.id!r}: placeholders {sorted(placeholders(s))} in the "
            f"translation, {sorted(want)} in the message"
            for s in forms
            if s and placeholders(s) != want
        ]
    singular, plural = message.id[0], message.id[1]
    allowed = placeholders(singular) | placeholders(plural)
    needed = placeholders(plural) - {"n"}  # a form may say "one" instead of {n}
    forms = list(message.string) if not isinstance(message.string, str) else [message.string]
    return [
        f"{where}: {singular!r}: placeholders {sorted(placeholders(s))} in a plural form, "
        f"{sorted(allowed)} in the message"
        for s in forms
        if s and not needed <= placeholders(s) <= allowed
    ]


def _untranslated(message: Message) -> bool:
    forms = [message.string] if isinstance(message.string, str) else list(message.string)
    return message.fuzzy or not forms or any(not s for s in forms)


def check(
    code: Catalog,
    locale_dir: Path,
    offered: Sequence[str],
    template: Path | None = None,
    unextractable: Sequence[str] = (),
) -> list[str]:
    """One line per problem (see the module's docstring); ``[]`` when the catalogues are
    whole. ``offered`` are language tags; ``template`` the .pot to compare with the code;
    ``unextractable`` the calls ``scan`` could not take a message from."""
    problems: list[str] = list(unextractable)
    in_code = _ids(code)
    if template is not None:
        pot = _ids(_read(template)) if template.exists() else {}
        for msgid in in_code.keys() - pot.keys():
            problems.append(f"{template.name}: lacks {msgid!r} (run: catalogues.py extract)")
    for tag in offered:
        if tag == SOURCE:
            continue
        path = catalogue_path(locale_dir, BY_TAG[tag].locale)
        if not path.exists():
            problems.append(f"{tag}: no catalogue at {path}")
            continue
        entries = _ids(_read(path))
        for msgid, message in in_code.items():
            entry = entries.get(msgid)
            if entry is None:
                where = ", ".join(f"{f}:{n}" for f, n in message.locations)
                problems.append(f"{tag}: {msgid!r} ({where}) is not in the catalogue")
            elif _untranslated(entry):
                problems.append(f"{tag}: {msgid!r} has no translation")
    for path in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        locale = path.parents[1].name
        for message in _read(path):
            if message.id:
                problems.extend(_placeholder_problems(locale, message))
    return sorted(problems)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("extract", "update", "check"))
    parser.add_argument("--source", type=Path, action="append", help="default: app/")
    parser.add_argument("--locale-dir", type=Path, default=LOCALE_DIR)
    parser.add_argument(
        "--offered", nargs="*", choices=list(BY_TAG), help="check these tags (default: OFFERED)"
    )
    parser.add_argument(
        "--only", nargs="*", choices=list(BY_TAG), help="update only these tags' catalogues"
    )
    args = parser.parse_args(argv)
    sources = args.source or [SOURCE_DIR]
    template = args.locale_dir / f"{DOMAIN}.pot"
    code, unextractable = scan(sources)
    if args.command == "extract":
        _write(template, code)
        print(f"{template.relative_to(ROOT)}: {len(code)} messages")
    elif args.command == "update":
        locales = [
            lang.locale
            for lang in LANGUAGES
            if lang.tag != SOURCE and (args.only is None or lang.tag in args.only)
        ]
        for path in update(code, args.locale_dir, locales):
            print(path.relative_to(ROOT))
    else:
        offered = OFFERED if args.offered is None else tuple(args.offered)
        # the template is the app's: another folder (tests/locale) is checked against the code
        own = args.locale_dir.resolve() == LOCALE_DIR
        problems = check(code, args.locale_dir, offered, template if own else None, unextractable)
        for line in problems:
            print(f"catalogues: {line}", file=sys.stderr)
        if problems:
            return 1
        print(f"catalogues: {len(code)} messages, whole in {', '.join(offered)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
