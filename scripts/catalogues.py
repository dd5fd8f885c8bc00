"""The translation catalogues' pipeline (docs/translations.md), with Babel's Python API.

    python scripts/catalogues.py extract   # app/**.py -> app/locale/mcts_lab.pot
    python scripts/catalogues.py update    # the template -> each language's .po (made if missing)
    python scripts/catalogues.py update --only es   # one language's (a translator's own)
    python scripts/catalogues.py check     # CI: exit 1 and one line per problem

The messages are the calls ``_("...")``, ``n_("...", "...", n)`` and ``N_("...")`` (a constant
translated where it is shown) in app/ (the keywords ``_``, ``n_:1,2`` and ``N_``), and the quiz's
plural facts ``P("...", "...", n)`` (``app/quiz/words.py``; ``P:1,2``). ``check``
fails on a message in the code that the template lacks (run
``extract``), on a message missing from, or untranslated (or fuzzy) in, the catalogue of a
language offered to users (``app.words.i18n.OFFERED``; English is the source and has none),
and on a translation, in any catalogue, whose named placeholders differ from its message's.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir, extract_from_file
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

KEYWORDS = {"_": None, "n_": (1, 2), "N_": None, "P": (1, 2)}
SOURCE_DIR = ROOT / "app"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"

MessageId = str | tuple[str, str]


def extract(sources: Iterable[Path]) -> Catalog:
    """The messages of the code in ``sources`` (folders or files), with where each is used."""
    catalog = Catalog(domain=DOMAIN, project="MCTS Lab", fuzzy=False)
    for source in sources:
        if source.is_dir():
            found: Iterable[tuple[str, int, MessageId, list[str], str | None]] = (
                (str(Path(source.name) / name), line, msg, comments, ctx)
                for name, line, msg, comments, ctx in extract_from_dir(
                    source, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
                )
            )
        else:
            found = (
                (str(source.resolve().relative_to(ROOT)), line, msg, comments, ctx)
                for line, msg, comments, ctx in _file_messages(source)
            )
        for name, line, message, comments, context in found:
            catalog.add(message, locations=[(name, line)], auto_comments=comments, context=context)
    return catalog


def _file_messages(path: Path) -> Iterable[tuple[int, MessageId, list[str], str | None]]:
    return extract_from_file("python", str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",))


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
) -> list[str]:
    """One line per problem (see the module's docstring); ``[]`` when the catalogues are
    whole. ``offered`` are language tags; ``template`` the .pot to compare with the code."""
    problems: list[str] = []
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
    code = extract(sources)
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
        problems = check(code, args.locale_dir, offered, template if own else None)
        for line in problems:
            print(f"catalogues: {line}", file=sys.stderr)
        if problems:
            return 1
        print(f"catalogues: {len(code)} messages, whole in {', '.join(offered)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
