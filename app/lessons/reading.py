"""Guided lessons: TOML files a teacher writes (format: docs/lessons.md), read and checked here.

Pure Python (no Streamlit): :func:`load_lessons` reads every ``*.toml`` in the lesson folders
(``lessons/`` and the folders in ``MCTS_LAB_LESSONS``), checks each against the format, and
returns the lessons with one message per file it could not use. A message names the file and
the line: TOML syntax errors carry tomllib's line and column; for a value that breaks the
format, the line is found where the key is written. ``app/lessons/lesson_view.py`` draws a lesson
and
applies its pages.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from app.inputs.links import (
    ARENA_GAMES_RANGE,
    ARENA_ITERATIONS_RANGE,
    ITERATIONS_RANGE,
    SEED_RANGE,
)
from app.inputs.tabs import LESSON_TABS
from app.lessons import claims
from app.quiz import KINDS
from app.words import i18n
from app.words.i18n import N_, _
from games import GAME_NAMES, make_game
from mcts_lab import settings as search_settings
from mcts_lab.arena import OPPONENTS, ROLLOUTS

__all__ = [
    "LESSON_DIR",
    "PRESSES",
    "PRESS_WORDS",
    "SETTINGS",
    "Lesson",
    "LessonError",
    "Page",
    "Setup",
    "lesson_dirs",
    "load_lesson",
    "load_lessons",
    "press_name",
    "press_text",
    "student_text",
    "translated",
    "translation_error",
    "translation_path",
]

ROOT = Path(__file__).resolve().parents[2]
#: The lessons that come with MCTS Lab.
LESSON_DIR = ROOT / "lessons"
#: More lesson folders, separated by the path separator (":" on Linux).
LESSONS_ENV = "MCTS_LAB_LESSONS"
#: A lesson's name is its file's name without ``.toml``: what ``?lesson=NAME`` says.
NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
MAX_FILE_BYTES = 200_000
MAX_PAGES = 40
MAX_TEXT_CHARS = 4_000
MAX_PRESSES = 50
MAX_STEPS = 200_000  # a page's prepared tree, as a link's (app.inputs.links.MAX_LINK_STEPS)

#: What a page's ``[page.expect]`` may claim (``app/lessons/claims.py``, checked by
#: tests/app/lessons/test_lessons.py against a run of the page).
EXPECT_KEYS = claims.CLAIM_KEYS

#: The buttons a page may tell the student to press: name -> widget key.
PRESSES: dict[str, str] = {
    "Step": "step",
    "Step N": "step_n",
    "Phase": "phase_step",
    "Back": "back",
    "Forward": "forward",
    "Reset": "reset",
    "Play best": "play_best",
    "Run arena": "arena_run",
}


class LessonError(ValueError):
    """A lesson file that cannot be used; the message names the file and the line."""


# ------------------------------------------------------------------------ settings


#: A setting's value as a lesson file gives it (a TOML scalar, once checked).
SettingValue = bool | int | float | str


def _whole(low: int, high: int) -> Callable[[object], int]:
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"a whole number {low:,}..{high:,}")
        return value

    return check


def _number(low: float, high: float) -> Callable[[object], float]:
    def check(value: object) -> float:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            raise ValueError(f"a number {low:g}..{high:g}")
        return float(value)

    return check


def _one_of(options: Iterable[SettingValue]) -> Callable[[object], SettingValue]:
    allowed = tuple(options)

    def check(value: object) -> SettingValue:
        if value not in allowed or isinstance(value, bool) != isinstance(allowed[0], bool):
            raise ValueError("one of " + ", ".join(str(o) for o in allowed))
        return value

    return check


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("true or false")
    return value


@dataclass(frozen=True)
class Setting:
    """A setting a page may set: the widget key it sets and how its value is checked."""

    key: str
    check: Callable[[object], SettingValue]


def _search_setting_check(row: search_settings.Setting) -> Callable[[object], SettingValue]:
    """How a page's value for a search setting is checked: its kind, within its row's range."""
    if row.kind == "switch":
        return _flag
    if row.kind == "choice":
        return _one_of(row.choices)
    assert row.bounds is not None, row  # a number with a widget has its range
    low, high = row.bounds
    if row.kind == "number":
        return _number(low, high)
    return _whole(int(low), int(high))


#: The settings of a page's ``[page.setup]`` (besides game, position and steps), by the name a
#: lesson file uses. The ranges are the sidebar's; every search setting with a sidebar widget
#: is set by its widget key (its row in ``mcts_lab/settings.py``).
SETTINGS: dict[str, Setting] = {
    "gridiron_size": Setting("gridiron_size", _one_of((1, 3, 5))),
    "seed": Setting("seed", _whole(*SEED_RANGE)),
    **{
        row.widget: Setting(row.widget, _search_setting_check(row))
        for row in search_settings.SETTINGS
        if row.widget is not None
    },
    "iterations": Setting("iterations_per_click", _whole(*ITERATIONS_RANGE)),
    "arena_games": Setting("arena_games", _whole(*ARENA_GAMES_RANGE)),
    "arena_iterations": Setting("arena_iterations", _whole(*ARENA_ITERATIONS_RANGE)),
    "arena_rollout": Setting("arena_rollout", _one_of(ROLLOUTS)),
    "arena_opponent": Setting("arena_opponent", _one_of(OPPONENTS)),
}


# ---------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Setup:
    """How a page sets up the screen before the student acts.

    Attributes:
        game: the game (a name in ``games.GAME_NAMES``).
        position: the root position string ("" = the game's opening).
        steps: seeded iterations run when the page opens (the tree the page starts from).
        settings: widget key -> value; every search setting not named here is its default.
        tab: the detail tab to open, or ``None``.
    """

    game: str
    position: str = ""
    steps: int = 0
    settings: Mapping[str, SettingValue] = field(default_factory=dict)
    tab: str | None = None


@dataclass(frozen=True)
class Page:
    """One page: what the student reads, the screen it sets up, what to press, what is asked.

    Attributes:
        title: a short title.
        text: plain text (paragraphs separated by blank lines; never Markdown or HTML).
        setup: the set-up, or ``None``: the page goes on with the tree as it is.
        press: the buttons to press, in order (names from :data:`PRESSES`).
        questions: the quiz kinds the page asks (``app.quiz.KINDS``); empty: no question.
        depth: the selection question's depth (``None``: the root).
        expect: what the page's text claims, by claim type (``app/lessons/claims.py``: labels
            as text, ``taken`` and ``says`` as tuples), checked by the tests.
    """

    title: str
    text: str
    setup: Setup | None = None
    press: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()
    depth: int | None = None
    expect: Mapping[str, claims.Claim] = field(default_factory=dict)


@dataclass(frozen=True)
class Lesson:
    name: str
    title: str
    summary: str
    order: int
    pages: tuple[Page, ...]
    path: str
    #: The file read (absolute): its translations are ``<folder>/<tag>/<name>.toml`` beside it.
    file: str = ""
    #: A translated lesson's English (:func:`translated` starts from it); ``None``: English.
    english: Lesson | None = field(default=None, compare=False, repr=False)


# ---------------------------------------------------------------------------- reading


def lesson_dirs(environ: Mapping[str, str] | None = None) -> list[Path]:
    """The lesson folders: ``lessons/``, then those named in ``MCTS_LAB_LESSONS``."""
    env = os.environ if environ is None else environ
    extra = [Path(p) for p in env.get(LESSONS_ENV, "").split(os.pathsep) if p.strip()]
    return [LESSON_DIR, *extra]


def load_lessons(dirs: Iterable[Path] | None = None) -> tuple[dict[str, Lesson], list[str]]:
    """Every usable lesson by name (sorted by ``order``, then name) and one message per
    file that could not be used (naming the file and, where it can, the line)."""
    found: dict[str, Lesson] = {}
    errors: list[str] = []
    for folder in lesson_dirs() if dirs is None else dirs:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                stat = path.stat()
                lesson = _cached_lesson(str(path), stat.st_mtime_ns, stat.st_size)
            except LessonError as error:
                errors.append(str(error))
                continue
            except OSError as error:
                errors.append(f"{_shown(path)}: cannot be read ({error.strerror})")
                continue
            if lesson.name in found:
                errors.append(f"{_shown(path)}: the name {lesson.name!r} is taken by another file")
                continue
            found[lesson.name] = lesson
    ordered = sorted(found.values(), key=lambda lesson: (lesson.order, lesson.name))
    return {lesson.name: lesson for lesson in ordered}, errors


@functools.lru_cache(maxsize=64)
def _cached_lesson(path: str, mtime_ns: int, size: int) -> Lesson:
    del mtime_ns, size  # the cache key: a changed file is read again
    return load_lesson(Path(path))


def load_lesson(path: Path) -> Lesson:
    """Read and check one lesson file; :class:`LessonError` names the file and the line."""
    shown = _shown(path)
    name = path.stem
    if not NAME_PATTERN.fullmatch(name):
        raise LessonError(
            f"{shown}: the file name must be lower-case letters, digits, _ or - "
            "(at most 40): it is the lesson's name in links"
        )
    text, data = _parsed(path, shown, "a lesson")
    return _Reader(shown, text, name, str(path.resolve())).lesson(data)


def _parsed(path: Path, shown: str, what: str) -> tuple[str, dict[str, object]]:
    """A lesson file's (or a translation's) text and its TOML; :class:`LessonError` when it is
    too long, not UTF-8 or not TOML (with the line)."""
    raw = path.read_bytes()
    if len(raw) > MAX_FILE_BYTES:
        raise LessonError(f"{shown}: {len(raw):,} bytes is too long for {what}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        bad_line = raw[: error.start].count(b"\n") + 1
        raise LessonError(f"{shown}, line {bad_line}: not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        where = re.search(r"\(at line (\d+), column (\d+)\)", message)
        at = f", line {where.group(1)}" if where else ""
        raise LessonError(f"{shown}{at}: {message}") from None
    return text, data


def _shown(path: Path) -> str:
    """A path as a message shows it: relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


@dataclass
class _Reader:
    """Checks a parsed lesson; knows the file's text to find the line of a bad value."""

    shown: str
    text: str
    name: str
    file: str = ""

    def fail(self, message: str, key: str | None = None, page: int | None = None,
             table: str | None = None) -> LessonError:  # fmt: skip
        line = self.line_of(key, page, table)
        where = f", line {line}" if line else ""
        on_page = f"page {page}: " if page is not None else ""
        return LessonError(f"{self.shown}{where}: {on_page}{message}")

    def line_of(self, key: str | None, page: int | None, table: str | None) -> int | None:
        """The line where ``key`` is written (in page ``page``'s ``table``, when given)."""
        lines = self.text.splitlines()
        start, end = 0, len(lines)
        if page is not None:
            headers = [
                i for i, line in enumerate(lines) if re.match(r"\s*\[\[\s*page\s*\]\]", line)
            ]
            if page - 1 < len(headers):
                start = headers[page - 1]
                end = headers[page] if page < len(headers) else len(lines)
            if key is None:
                return start + 1
        if table is not None:
            for i in range(start, end):
                if re.match(rf"\s*\[\s*page\.{table}\s*\]", lines[i]) or re.match(
                    rf"\s*{table}\s*=", lines[i]
                ):
                    start = i
                    break
        if key is None:
            return None
        found = _key_line(lines, start, end, key)
        if found is not None:
            return found
        return start + 1 if page is not None else None

    def lesson(self, data: Mapping[str, object]) -> Lesson:
        unknown = set(data) - {"title", "summary", "order", "page"}
        for key in sorted(unknown):
            raise self.fail(
                f"unknown key {key!r} (a lesson has title, summary, order and [[page]])", key
            )
        title = self.string(data, "title", None, required=True, limit=120)
        summary = self.string(data, "summary", None, limit=600)
        order = data.get("order", 100)
        if isinstance(order, bool) or not isinstance(order, int):
            raise self.fail("order must be a whole number", "order")
        pages = data.get("page")
        if not isinstance(pages, list) or not pages:
            raise self.fail("a lesson needs at least one [[page]]")
        if len(pages) > MAX_PAGES:
            raise self.fail(f"{len(pages)} pages is too many (at most {MAX_PAGES})")
        read = tuple(self.page(page, i) for i, page in enumerate(pages, start=1))
        if read[0].setup is None:
            raise self.fail("the first page needs a [page.setup] (at least its game)", page=1)
        return Lesson(self.name, title, summary, order, read, self.shown, self.file)

    def string(self, data: Mapping[str, object], key: str, page: int | None, *,
               required: bool = False, limit: int = MAX_TEXT_CHARS) -> str:  # fmt: skip
        value = data.get(key)
        if value is None:
            if required:
                raise self.fail(f"{key} is missing", None, page)
            return ""
        if not isinstance(value, str):
            raise self.fail(f"{key} must be text in quotes", key, page)
        if len(value) > limit:
            raise self.fail(f"{key} is {len(value):,} characters (at most {limit:,})", key, page)
        return value

    def page(self, data: object, number: int) -> Page:
        if not isinstance(data, dict):
            raise self.fail("a page must be a table ([[page]])", page=number)
        known = {"title", "text", "setup", "press", "questions", "depth", "expect"}
        for key in sorted(set(data) - known):
            raise self.fail(
                f"unknown key {key!r} (a page has {', '.join(sorted(known))})", key, number
            )
        title = self.string(data, "title", number, required=True, limit=120)
        text = self.string(data, "text", number, required=True)
        press = self.names(data, "press", number, tuple(PRESSES), MAX_PRESSES)
        questions = self.names(data, "questions", number, KINDS, len(KINDS))
        depth = data.get("depth")
        if depth is not None and (
            isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 20
        ):
            raise self.fail("depth must be a whole number 0..20", "depth", number)
        if depth is not None and "select" not in questions:
            raise self.fail("depth is the 'select' question's depth: add it to questions",
                            "depth", number)  # fmt: skip
        setup = None if "setup" not in data else self.setup(data["setup"], number)
        expect = self.claims(data.get("expect", {}), number, press, questions)
        return Page(title, text, setup, press, questions, depth, expect)

    def claims(self, data: object, page: int, press: tuple[str, ...],
               questions: tuple[str, ...]) -> dict[str, claims.Claim]:  # fmt: skip
        """A page's ``[page.expect]``: each claim of :data:`claims.CLAIM_KEYS` in its shape."""
        if not isinstance(data, dict):
            raise self.fail("expect must be a table ([page.expect])", "expect", page)
        read: dict[str, claims.Claim] = {}
        for key, value in data.items():
            if key not in claims.CLAIM_KEYS:
                raise self.fail(f"unknown expect key {key!r} ({', '.join(claims.CLAIM_KEYS)})",
                                key, page, "expect")  # fmt: skip
            if key in ("taken", "says"):
                if (
                    not isinstance(value, list)
                    or not value
                    or not all(isinstance(v, str) and v.strip() for v in value)
                ):
                    raise self.fail(f'expect.{key} must be a list of texts in quotes, e.g. '
                                    f'["{"best" if key == "taken" else "Q +1.000"}"]', key, page,
                                    "expect")  # fmt: skip
                if key == "taken":
                    for v in value:
                        if v not in claims.TAKEN:
                            raise self.fail(f"expect.taken: {v[:30]!r} is not one of "
                                            f"{', '.join(claims.TAKEN)}", key, page,
                                            "expect")  # fmt: skip
                read[key] = tuple(value)
                continue
            if not isinstance(value, str) or not value.strip():
                raise self.fail(f"expect.{key} must be text in quotes", key, page, "expect")
            if key == "arena" and value not in claims.ARENA_SIDES:
                raise self.fail(f"expect.arena: {value[:30]!r} is not one of "
                                f"{', '.join(claims.ARENA_SIDES)}", key, page,
                                "expect")  # fmt: skip
            read[key] = value
        if "answer" in read and not questions:
            raise self.fail("expect.answer needs a question (questions = [...])", "answer",
                            page, "expect")  # fmt: skip
        if "taken" in read and ("select" not in questions or not press):
            raise self.fail("expect.taken is about the select question's move: add "
                            '"select" to questions and a press', "taken", page,
                            "expect")  # fmt: skip
        if "arena" in read and "Run arena" not in press:
            raise self.fail('expect.arena needs a press of "Run arena"', "arena", page,
                            "expect")  # fmt: skip
        if "says" in read and not press:
            raise self.fail("expect.says is what the presses show: add a press", "says", page,
                            "expect")  # fmt: skip
        return read

    def names(self, data: Mapping[str, object], key: str, page: int, allowed: tuple[str, ...],
              limit: int) -> tuple[str, ...]:  # fmt: skip
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(f'{key} must be a list of names in quotes, e.g. ["{allowed[0]}"]',
                            key, page)  # fmt: skip
        if len(value) > limit:
            raise self.fail(f"{key} lists {len(value)} (at most {limit})", key, page)
        for name in value:
            if name not in allowed:
                raise self.fail(f"{key}: {name[:30]!r} is not one of {', '.join(allowed)}",
                                key, page)  # fmt: skip
        return tuple(value)

    def setup(self, data: object, page: int) -> Setup:
        if not isinstance(data, dict):
            raise self.fail("setup must be a table ([page.setup])", "setup", page)
        game = data.get("game")
        if game is None:
            raise self.fail("setup needs a game", None, page, "setup")
        if game not in GAME_NAMES:
            raise self.fail(f"setup: game must be one of {', '.join(GAME_NAMES)}", "game", page,
                            "setup")  # fmt: skip
        settings: dict[str, SettingValue] = {}
        for key, value in data.items():
            if key in ("game", "position", "steps", "tab"):
                continue
            setting = SETTINGS.get(key)
            if setting is None:
                raise self.fail(
                    f"setup: unknown setting {key!r} (game, position, steps, tab, "
                    + ", ".join(SETTINGS)
                    + ")",
                    key,
                    page,
                    "setup",
                )
            try:
                settings[setting.key] = setting.check(value)
            except ValueError as error:
                raise self.fail(f"setup: {key} = {_toml(value)}: use {error}", key, page,
                                "setup") from None  # fmt: skip
        position = data.get("position", "")
        if not isinstance(position, str) or len(position) > 300:
            raise self.fail("setup: position must be text in quotes (at most 300 characters)",
                            "position", page, "setup")  # fmt: skip
        if position:
            options = {}
            if "gridiron_size" in settings:
                options["size"] = settings["gridiron_size"]
            try:
                make_game(game, **options).parse_state(position)
            except ValueError as error:
                raise self.fail(f"setup: position {position[:30]!r} is not a {game} position: "
                                f"{error}", "position", page, "setup") from None  # fmt: skip
        try:
            steps = _whole(0, MAX_STEPS)(data.get("steps", 0))
        except ValueError as error:
            raise self.fail(f"setup: steps: use {error}", "steps", page, "setup") from None
        tab = data.get("tab")
        if tab is not None and tab not in LESSON_TABS:
            raise self.fail(f"setup: tab must be one of {', '.join(LESSON_TABS)}", "tab", page,
                            "setup")  # fmt: skip
        return Setup(game, position, steps, settings, tab)


# ------------------------------------------------------------------------ translations

#: What a translation carries: the words (the page's set-up, presses, questions and expect
#: are the English file's).
TRANSLATION_KEYS = ("title", "summary", "pages")
TRANSLATION_PAGE_KEYS = ("title", "text")


@dataclass(frozen=True)
class _Words:
    """A translation's words: "" where it gives none (English then)."""

    title: str
    summary: str
    pages: Mapping[int, tuple[str, str]]  # page number -> (title, text)


def translation_path(lesson: Lesson, tag: str) -> Path | None:
    """Where ``lesson``'s translation into ``tag`` is: ``<folder>/<tag>/<name>.toml`` beside
    the English file (``None``: a lesson not read from a file)."""
    if not lesson.file or tag not in i18n.BY_TAG:
        return None
    english = Path(lesson.file)
    return english.parent / tag / english.name


def translated(lesson: Lesson, tag: str | None = None) -> Lesson:
    """``lesson`` in the language ``tag`` (``None``: the current language of
    :mod:`app.words.i18n`): its title, summary and pages' title and text from the translation
    ``<folder>/<tag>/<name>.toml``, English wherever the translation gives none (page by page,
    field by field), and English throughout when there is no translation or it cannot be used
    (:func:`translation_error` says why). The pseudo-language ``en-XA`` wraps every text in
    ⟦ ⟧ (tests). Read once per file version (cached by modification time and size)."""
    return _translation(lesson, tag)[0]


def translation_error(lesson: Lesson, tag: str | None = None) -> str | None:
    """Why ``lesson``'s translation into ``tag`` (``None``: the current language) is not used,
    naming the file and the line, or ``None`` (used, or none written)."""
    return _translation(lesson, tag)[1]


def _translation(lesson: Lesson, tag: str | None) -> tuple[Lesson, str | None]:
    tag = i18n.current_tag() if tag is None else tag
    lesson = lesson.english or lesson  # (a translated lesson: from its English again)
    if tag == i18n.PSEUDO:
        return _pseudo(lesson), None
    if tag == i18n.SOURCE:
        return lesson, None
    path = translation_path(lesson, tag)
    if path is None:
        return lesson, None
    try:
        stat = path.stat()
    except OSError:
        return lesson, None  # not translated (yet): English
    words = _cached_words(str(path), stat.st_mtime_ns, stat.st_size, len(lesson.pages))
    if isinstance(words, str):
        return lesson, words
    return _with_words(lesson, words), None


@functools.lru_cache(maxsize=128)
def _cached_words(path: str, mtime_ns: int, size: int, pages: int) -> _Words | str:
    """The translation's words, or the message saying why it cannot be used (kept too: a
    broken file is not read again on every run)."""
    del mtime_ns, size  # the cache key: a changed file is read again
    try:
        return load_translation(Path(path), pages)
    except LessonError as error:
        return str(error)
    except OSError as error:
        return f"{_shown(Path(path))}: cannot be read ({error.strerror})"


def load_translation(path: Path, pages: int) -> _Words:
    """Read and check a translation of a lesson of ``pages`` pages; :class:`LessonError`
    names the file and the line, as a lesson's do."""
    shown = _shown(path)
    text, data = _parsed(path, shown, "a translation")
    return _TranslationReader(shown, text, path.stem, str(path)).words(data, pages)


class _TranslationReader(_Reader):
    """Checks a parsed translation: only words, on pages the English lesson has."""

    def words(self, data: Mapping[str, object], count: int) -> _Words:
        for key in sorted(set(data) - set(TRANSLATION_KEYS)):
            raise self.fail(
                f"unknown key {key!r} (a translation has title, summary and [pages.N] with "
                "title and text; the rest is the English file's)",
                key,
            )
        title = self.string(data, "title", None, limit=120)
        summary = self.string(data, "summary", None, limit=600)
        pages = data.get("pages", {})
        if not isinstance(pages, dict):
            raise self.fail("pages must be tables [pages.1], [pages.2], ...", "pages")
        read: dict[int, tuple[str, str]] = {}
        for key, page in pages.items():
            number = int(key) if key.isascii() and key.isdigit() else 0
            if not 1 <= number <= count:
                line = self.line_of(None, number, None) if number else None
                where = f", line {line}" if line else ""
                raise LessonError(
                    f"{self.shown}{where}: [pages.{key[:20]}]: the English lesson has pages 1 "
                    f"to {count}"
                )
            if not isinstance(page, dict):
                raise self.fail(f"pages.{number} must be a table ([pages.{number}])", None,
                                number)  # fmt: skip
            for unknown in sorted(set(page) - set(TRANSLATION_PAGE_KEYS)):
                raise self.fail(
                    f"unknown key {unknown!r} (a translated page has title and text; the "
                    "rest is the English file's)",
                    unknown,
                    number,
                )
            read[number] = (
                self.string(page, "title", number, limit=120),
                self.string(page, "text", number),
            )
        return _Words(title, summary, read)

    def line_of(self, key: str | None, page: int | None, table: str | None) -> int | None:
        """The line where ``key`` is written (in ``[pages.N]`` when a page is given)."""
        del table
        lines = self.text.splitlines()
        start, end = 0, len(lines)
        if page is not None:
            header = re.compile(rf'\s*\[\s*pages\s*\.\s*"?0*{page}"?\s*\]')
            starts = [i for i, line in enumerate(lines) if header.match(line)]
            if starts:
                start = starts[0]
                later = [i for i in range(start + 1, len(lines)) if re.match(r"\s*\[", lines[i])]
                end = later[0] if later else len(lines)
            if key is None:
                return start + 1 if starts else None
        if key is None:
            return None
        found = _key_line(lines, start, end, key)
        if found is not None:
            return found
        own_table = re.compile(rf'\s*\[\s*pages\s*\.\s*"?0*{page}"?\s*\.\s*{re.escape(key)}\s*\]')
        for i, line in enumerate(lines):  # a table of its own: [pages.1.setup]
            if page is not None and own_table.match(line):
                return i + 1
        return start + 1 if page is not None else None


def _with_words(lesson: Lesson, words: _Words) -> Lesson:
    """``lesson`` with the translation's words where it gives them."""
    pages = []
    for number, page in enumerate(lesson.pages, start=1):
        title, text = words.pages.get(number, ("", ""))
        pages.append(
            replace(
                page, title=title.strip() or page.title, text=text if text.strip() else page.text
            )
        )
    return replace(
        lesson,
        english=lesson,
        title=words.title.strip() or lesson.title,
        summary=words.summary if words.summary.strip() else lesson.summary,
        pages=tuple(pages),
    )


def _pseudo_text(text: str) -> str:
    """Each paragraph of a page's text in the pseudo-language (its own ⟦ ⟧)."""
    return "\n\n".join(i18n.pseudo(p) for p in text.strip().split("\n\n") if p.strip())


def _pseudo(lesson: Lesson) -> Lesson:
    """The lesson in ``en-XA``: every word it shows wrapped, so a test sees which lesson
    text skipped :func:`translated`."""
    return replace(
        lesson,
        english=lesson,
        title=i18n.pseudo(lesson.title),
        summary=_pseudo_text(lesson.summary) if lesson.summary else "",
        pages=tuple(
            replace(page, title=i18n.pseudo(page.title), text=_pseudo_text(page.text))
            for page in lesson.pages
        ),
    )


def _key_line(lines: list[str], start: int, end: int, key: str) -> int | None:
    """The 1-based line of ``key = ...`` (or of ``key`` inside an inline table) among
    ``lines[start:end]``, or ``None``: where a file's error points."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=|[{{,]\s*{re.escape(key)}\s*=")
    for i in range(start, end):
        if pattern.search(lines[i]):
            return i + 1
    return None


def _toml(value: object) -> str:
    """A value as a lesson file writes it (shortened): strings quoted, numbers as they are."""
    if isinstance(value, str):
        return repr(value[:30] + ("…" if len(value) > 30 else ""))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)[:30]


#: The buttons' names as the screen's buttons say them (the same messages: a lesson's "press
#: Step" names the button the student sees, in every language).
PRESS_WORDS: dict[str, str] = {
    # TRANSLATORS: the button that runs one iteration (the screen's Step button).
    "Step": N_("Step"),
    # TRANSLATORS: the button that runs N iterations at once (the screen shows "Step 200"); a
    # lesson says "press Step N".
    "Step N": N_("Step N"),
    # TRANSLATORS: the button that runs one phase of an iteration (the screen's "Phase: select").
    "Phase": N_("Phase"),
    # TRANSLATORS: the history's button: back one entry.
    "Back": N_("Back"),
    # TRANSLATORS: the history's button: forward one entry.
    "Forward": N_("Forward"),
    "Reset": N_("Reset"),
    "Play best": N_("Play best"),
    "Run arena": N_("Run arena"),
}


def press_name(name: str) -> str:
    """A button a page presses (a name of :data:`PRESSES`), as the screen's button says it in
    the current language."""
    return _(PRESS_WORDS.get(name, name))


def press_text(press: Iterable[str]) -> str:
    """The presses in words, in the current language: "Phase x4, then Step"."""
    groups: list[tuple[str, int]] = []
    for name in press:
        if groups and groups[-1][0] == name:
            groups[-1] = (name, groups[-1][1] + 1)
        else:
            groups.append((name, 1))
    said = ""
    for name, n in groups:
        # TRANSLATORS: a button pressed n times in a row: "Phase x4".
        one = _("{button} x{n}", button=press_name(name), n=n) if n > 1 else press_name(name)
        # TRANSLATORS: what a lesson page asks to press, in order: "Phase x4, then Step".
        said = _("{presses}, then {press}", presses=said, press=one) if said else one
    return said


#: What a student's page says instead of the lesson's instructions to whoever drives the screen
#: (a student's page has no buttons, tabs or sidebar): "then press Step" -> "then the teacher
#: presses Step", "the Board tab" -> "the Board tab on the projector".
_FOR_STUDENTS = (
    (re.compile(r"\b([Tt]hen|[Aa]nswer, then|and) press\b"), r"\1 the teacher presses"),
    (re.compile(r"\bBefore you press\b"), "Before the teacher presses"),
    (re.compile(r"\bPress\b"), "The teacher presses"),
    (re.compile(r"\bOpen (the \w+ tab)\b"), r"Look at \1"),
    (re.compile(r'\b([Tt]he tab "[^"]+")'), r"\1 on the projector"),
    (
        re.compile(r"\b([Tt]he (?:Board|Dice|Why this path|Backup|Arena) tab)\b"),
        r"\1 on the projector",
    ),
    (re.compile(r"\b[Tt]he sidebar's\b"), "The teacher's setting"),
)


def student_text(text: str) -> str:
    """A lesson page's text as a student's page shows it: the instructions to whoever drives
    the screen said as what the teacher does (:data:`_FOR_STUDENTS`)."""
    for pattern, words in _FOR_STUDENTS:
        text = pattern.sub(words, text)
    return text
