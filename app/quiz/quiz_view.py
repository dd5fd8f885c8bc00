"""The quiz on the classroom screen: the open question under the narration, the last answer
revealed with its numbers, the score (the logic is in :mod:`app.quiz`).

Before each click the screen asks one question about what the click will do (widget
``quiz_answer``, a row of pills); the click happens; the next run of the screen grades the
question against what the click really did and shows the reveal above the next question.
Everything here is plain text in escaped HTML: labels come from the games, never Markdown.
The words are made when drawn, in the current language, from the question's and the reveal's
facts (:mod:`app.quiz.words`); the answers' values stay the English options (the pills'
``format_func`` shows them translated).
"""

from __future__ import annotations

import html
import re

import streamlit as st

from app.live import exact_cache, session
from app.quiz import (
    MISCONCEPTIONS,
    QUIZ_EXACT_SECONDS,
    WAIT_HINTS,
    ArenaSetup,
    ClassCounts,
    Progress,
    Question,
    QuizState,
    Reveal,
    ask,
    remember_search,
    same_search,
    settle,
    wait_hint_words,
)
from app.quiz.records import dropped
from app.quiz.words import M
from app.words import i18n
from app.words.i18n import N_, _
from app.words.phrases import comma_list
from mcts_core import Evaluation, Expansion, Search
from mcts_core.game import Action
from mcts_core.phases import Phase
from mcts_core.trace import PathStep

#: A class's reveal table with more rows than this leaves out the answers nobody chose (one
#: line names them): the class's own answers and the right one stay whole on a projector.
FOLD_ROWS = 5
LINE_CHARS = 46  # characters per line of the quiz's smaller type in the narrowest column
#: The quiz's own styles (one block, scoped by its classes).
QUIZ_CSS = """
<style>
.lab-quiz {font-size: 0.85rem; line-height: 1.15rem; border-top: 1px solid #ddd;
  padding-top: 0.25rem;}
.lab-quiz p {margin: 0 0 0.2rem 0;}
.lab-quiz .lab-score {color: #555;}
.lab-quiz .lab-right {color: #166534; font-weight: 600;}
.lab-quiz .lab-wrong {color: #9a3412; font-weight: 600;}
.lab-quiz .lab-plain {color: #555; font-weight: 600;}
.lab-quiz table {border-collapse: collapse; font-size: 0.78rem; line-height: 1.0rem; margin: 0;}
.lab-quiz td, .lab-quiz th {padding: 0 0.3rem; text-align: right; white-space: nowrap;}
.lab-quiz td:first-child, .lab-quiz th:first-child {text-align: left; white-space: normal;}
.lab-quiz th {white-space: normal; vertical-align: bottom;}
.lab-quiz tr.lab-mark {background: #ffedd5; font-weight: 600;}
.lab-quiz .lab-rows {max-height: 5.1rem; max-width: 100%; overflow: auto; display: inline-block;}
.lab-quiz-numbers {border-top: none; padding-top: 0;}
.lab-quiz details summary {cursor: pointer; color: #1d4ed8;}
.lab-quiz .lab-ask {font-weight: 600;}
.lab-quiz .lab-rows.lab-rows-whole {max-height: none;}
.lab-quiz td.lab-class-cell {text-align: left;}
.lab-qbar {display: inline-block; height: 0.6rem; background: #1d4ed8; vertical-align: middle;}
.lab-qbar-2 {background: repeating-linear-gradient(45deg, #1d4ed8 0 3px, #93c5fd 3px 6px);}
</style>
"""

#: Presentation mode (a projector): the question and its answers in projector type (18.4 px:
#: ``div.lab-quiz p`` outweighs the page's own paragraph size), the reveal's table whole (no
#: scroll box: the class reads every row) and its "Why?" open, both at 16 px so that the reveal
#: fits beside the tree at 1024x768.
PRESENTATION_QUIZ_CSS = """
<style>
div.lab-quiz, div.lab-quiz p {font-size: 1.15rem; line-height: 1.45rem;}
.lab-quiz table {font-size: 1.0rem; line-height: 1.15rem;}
.lab-quiz .lab-rows {max-height: none; overflow: visible;}
.lab-quiz details, div.lab-quiz p.lab-why {font-size: 1.0rem; line-height: 1.25rem;}
.lab-quiz .lab-rows {margin: 0.15rem 0;}
.st-key-quiz_answer button, .st-key-quiz_answer button p {font-size: 1.15rem !important;}
</style>
"""
#: The reveal alone on the projector (:func:`reveal_alone`) takes the narration's place: the
#: narration tells the same choice in more words (and comes back with the next question), so
#: the reveal's verdict, table and why are whole beside the tree at 1024x768 (440 px tall).
#: The narration's empty box takes back the column's 16 px gap below it (a negative margin:
#: the box stays, 0 px tall, where scripts/rehearse_lessons.py looks for it): in German the
#: why ended at y 773 of 768 with that gap above the reveal.
REVEAL_ALONE_CSS = """
<style>
[data-testid="stColumn"]:has(.lab-reveal-alone) .st-key-narration
  {max-height: 0 !important; overflow: hidden;}
[data-testid="stColumn"]:has(.lab-reveal-alone) :has(> .st-key-narration)
  {margin-bottom: -1rem;}
.lab-reveal-alone {border-top: none; padding-top: 0;}
</style>
"""
#: Session key: the reveal the class has read in Present mode with a lesson (the clicker's Page
#: Down showed the next question after it); any newer reveal shows alone first.
READ = "quiz_reveal_read"


def quiz() -> QuizState:
    """The session's quiz (made on first use)."""
    lab = session.session()
    if lab.quiz is None:
        lab.quiz = QuizState()
    return lab.quiz


def prepare() -> bool:
    """Settle the open question against what the last click did and ask the next one (both
    at most once per click: a second call changes nothing); whether the quiz asks now (on,
    and autoplay off). Called before :func:`quiz_panel` by a screen that must act on the
    reveal first (a class's poll is revealed before the panel draws its counts)."""
    if not st.session_state["quiz"]:
        if session.session().quiz is not None:
            quiz().pending = None  # a question left open while the quiz is off: forgotten
        return False
    box = quiz()
    if st.session_state["autoplay"]:  # no time to answer: the quiz waits, nothing counts
        box.pending = None
        return False
    search = session.session().search
    names = session.player_names()
    _settle(box, search, names)
    if box.pending is None:
        question = ask(
            search,
            names,
            kinds=box.kinds,
            counter=box.counter,
            depth=box.depth if box.kinds is None else box.depth or 0,  # a lesson: the root
            progress=_progress(),
            arena=_arena_setup(box),
            exact=_exact,
        )
        if question is not None:
            box.pending = question
            box.counter += 1
            remember_search(box, search)
            st.session_state["quiz_answer"] = None  # a new question starts unanswered
    return True


def _clicker_mode() -> bool:
    """Present mode with a lesson open: the clicker drives the screen (app.lessons.clicker)."""
    s = st.session_state
    return bool(s["presentation"]) and bool(s.get("lesson"))


def reveal_alone() -> bool:
    """Whether the last reveal is on the projector alone (Present mode with a lesson): its
    verdict, deciding numbers and why whole, the next question held back until the clicker's
    Page Down (:func:`show_question`). The reveal is the moment the class looks at."""
    box = session.session().quiz
    return (
        _clicker_mode()
        and bool(st.session_state["quiz"])
        and box is not None
        and box.reveal is not None
        and box.reveal.verdict != "dropped"
        and st.session_state.get(READ) is not box.reveal
    )


def question_waits() -> bool:
    """Whether a question waits behind the reveal on the projector (Page Down shows it)."""
    return reveal_alone() and quiz().pending is not None


def show_question() -> None:
    """The clicker's Page Down after a reveal: the reveal read, its next question shown."""
    st.session_state[READ] = quiz().reveal


def quiz_panel(class_counts: ClassCounts | None = None, in_class: bool = False) -> int:
    """Settle the open question, ask the next (:func:`prepare`), draw both; returns about how
    many lines it took (0 when the quiz is off). ``class_counts``: a class's answers to the
    question revealed now, shown in its table of deciding numbers; ``in_class``: the teacher's
    screen of a class (in Present mode the class answers: no pills of the teacher's own)."""
    if not prepare():
        if not st.session_state["quiz"]:
            return 0
        text = _("The quiz waits while autoplay runs: stop it to get a question.")
        st.html(
            QUIZ_CSS + f'<div class="lab-quiz"><p class="lab-plain">{html.escape(text)}</p></div>'
        )
        return _lines(text)
    return _draw(quiz(), session.session().search, class_counts, in_class)


def _settle(box: QuizState, search: Search, names: tuple[str, str]) -> None:
    question = box.pending
    if question is None:
        return
    if not same_search(box, search):
        reason = M(N_("the tree was rebuilt (Reset, a new position or new settings)"))
        box.record(dropped(question, None, reason))
        return
    lab = session.session()
    trace = lab.history[-1].trace if lab.history else None
    answer = st.session_state.get("quiz_answer")
    reveal = settle(
        question,
        search,
        names,
        answer=answer if answer in question.options else None,
        trace=trace,
        arena_result=lab.arena,
    )
    if reveal is not None:
        box.record(reveal)


def _progress() -> Progress:
    """The half-done iteration's phases so far, read from the newest history entries."""
    path: tuple[PathStep, ...] | None = None
    expansion: Expansion | None = None
    evaluation: Evaluation | None = None
    for entry in reversed(session.session().history):
        if entry.phase not in (Phase.SELECT, Phase.EXPAND, Phase.EVALUATE):
            break
        result = entry.phase_result
        if entry.phase is Phase.SELECT:
            path = result if isinstance(result, tuple) else ()
        elif entry.phase is Phase.EXPAND:
            expansion = result if isinstance(result, Expansion) else None
        else:
            evaluation = result if isinstance(result, Evaluation) else None
        if entry.phase is Phase.SELECT:
            break
    return Progress(path, expansion, evaluation)


def _arena_setup(box: QuizState) -> ArenaSetup | None:
    if box.kinds is None or "arena" not in box.kinds:
        return None
    s = st.session_state
    return ArenaSetup(
        games=int(s["arena_games"]),
        iterations=int(s["arena_iterations"]),
        opponent=str(s["arena_opponent"]),
        expansion=str(s["expansion"]),
        result=session.session().arena,
    )


def _exact() -> dict[Action, float | None] | None:
    """The root's exact values within the quiz's budget, from the session's one cache of exact
    answers (shared with the ``exact`` toggle's views)."""
    answer = exact_cache.solved_exact(QUIZ_EXACT_SECONDS)
    return None if answer is None else dict(answer.values)


# ----------------------------------------------------------------------------- drawing


def _draw(box: QuizState, search: Search, class_counts: ClassCounts | None, in_class: bool) -> int:
    """Top to bottom: the score and the last answer's verdict, the open question, its answers
    (pills), then what happened with the deciding numbers and "Why?". The question and its
    answers come before the numbers so that they stay on screen when space is short.

    On the projector the reveal comes first, whole ("Why?" open): with a lesson (the clicker)
    it is alone until Page Down shows the next question (:func:`reveal_alone`), which then
    comes alone with the score; without one the question follows it.

    With ``class_counts`` (a class answered the revealed question) the verdict is the class's
    share right and the table gains the class's counts beside each answer and shows whole; in
    a class in Present mode the teacher's own pills are left out: the class answers."""
    presenting = st.session_state["presentation"]
    css = QUIZ_CSS + (PRESENTATION_QUIZ_CSS if presenting else "")
    alone = presenting and reveal_alone()
    reveal = box.reveal
    if presenting and _clicker_mode() and reveal is not None and not alone:
        reveal = None  # the class has read it: the next question's turn, alone
    parts = [css, '<div class="lab-quiz">']
    score = ""
    counts = class_counts
    if counts is not None and (reveal is None or not counts.fit(reveal)):
        counts = None
    if (box.answered or box.unanswered) and counts is None and not alone:
        score = f'<span class="lab-score">{html.escape(box.score_text)} · </span>'
    lines = 0
    if reveal is not None:
        verdict = _verdict_html(reveal) if counts is None else _class_verdict_html(reveal, counts)
        if alone and reveal.verdict != "dropped":  # one block: the verdict leads the numbers
            alone_css = css + REVEAL_ALONE_CSS
            numbers = _numbers_html(reveal, counts, brief=counts is not None, whole=True,
                                    lead=verdict)  # fmt: skip
            st.html(alone_css + f'<div class="lab-quiz lab-reveal-alone">{numbers}</div>')
            # (its next question: on the clicker's next Page Down)
            return _lines(reveal.summary_words()) + 2 + len(reveal.rows)
        parts.append(f"<p>{score}{verdict}</p>")
        lines += _lines(box.score_text + re.sub(r"<[^>]+>", "", verdict))
        score = ""
    if presenting and reveal is not None and reveal.verdict != "dropped":
        # the projector: the reveal first and whole, the next question after it
        st.html("".join(parts) + "</div>")
        parts = [css, '<div class="lab-quiz lab-quiz-numbers">']
        lines += _reveal_numbers(reveal, counts, presenting, css)
    question = box.pending
    if question is not None:
        asked = _("Question: {question}", question=question.words())
        parts.append(
            f'<p class="lab-ask" data-kind="{html.escape(question.kind)}">{score}'
            f"{html.escape(asked)}</p>"
        )
        lines += _lines(asked)
    else:
        wanted = [k for k in box.kinds or () if k in WAIT_HINTS]
        hint = wait_hint_words(wanted[0]) if wanted else ""
        for kind in wanted[1:]:  # a list of hints: the separator is the language's
            # TRANSLATORS: joins what a lesson page's questions wait for: "{hints}; {hint}"
            hint = _("{hints}; {hint}", hints=hint, hint=wait_hint_words(kind))
        text = (
            _("This page's question waits for {hint}.", hint=hint)
            if hint
            else _("No question fits the tree right now (is the game over at the root?).")
        )
        parts.append(f'<p class="lab-plain">{score}{html.escape(text)}</p>')
        lines += _lines(text)
    parts.append("</div>")
    st.html("".join(parts))
    if question is not None and not (presenting and in_class):
        locked = question.trigger != "arena" and (
            str(search.next_phase) != question.phase or search.iterations != question.iteration
        )
        shown = question  # (the lambda below keeps the question it was drawn for)
        st.pills(
            _("Your answer"),
            question.options,  # the values: English, stable (session state, the class's store)
            key="quiz_answer",
            # game labels, shown as they are (never Markdown); words in the current language
            format_func=lambda option: plain_label(shown.option_words(option)),
            label_visibility="collapsed",
            wrap=True,
            disabled=locked,
            help=_("Pick your prediction, then click: the next screen reveals the answer.")
            if not locked
            else _("The iteration has begun: the answer is locked until it ends."),
        )
        lines += 2 + sum(len(question.option_words(o)) + 4 for o in question.options) // LINE_CHARS
    if not presenting and reveal is not None and reveal.verdict != "dropped":
        lines += _reveal_numbers(reveal, counts, presenting, css)
    return lines


def _reveal_numbers(reveal: Reveal, counts: ClassCounts | None, presenting: bool,
                    css: str) -> int:  # fmt: skip
    """What happened and the numbers that decided it (on the projector whole, "Why?" open);
    the lines they take."""
    # a class on the projector: the table alone (the narration below says what happened,
    # and "Why?" is a click away in the quiz of one's own): the screen's height is short
    brief = presenting and counts is not None
    numbers = _numbers_html(reveal, counts, brief, whole=presenting)
    st.html(css + f'<div class="lab-quiz lab-quiz-numbers">{numbers}</div>')
    rows = len(reveal.rows) if counts is not None or presenting else min(4, len(reveal.rows))
    return _lines(reveal.summary_words()) + 2 + rows


def plain_label(text: str) -> str:
    """A label for a widget that reads Markdown (``st.pills``): every Markdown character
    escaped, so ``*``, ``_``, ``[x](y)`` or ``:red[...]`` show as typed."""
    return _MARKDOWN.sub(r"\\\1", str(text))


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$=])")


def answers_words(question: Question, answers: tuple[str, ...] | list[str]) -> str:
    """Answers (option values) in words, joined: "a1 or b2" (the right answers)."""
    words = [question.option_words(a) for a in answers]
    text = words[0] if words else ""
    for word in words[1:]:
        # TRANSLATORS: joins right answers: "a1 or b2"
        text = _("{answers} or {answer}", answers=text, answer=word)
    return text


def _verdict_html(reveal: Reveal) -> str:
    """Right or wrong, and the answer, in one line (a dropped question: why)."""
    correct = answers_words(reveal.question, reveal.correct)
    if reveal.verdict == "right":
        text = _("✓ Right: {answer}.", answer=correct)
        return f'<span class="lab-right">{html.escape(text)}</span>'
    if reveal.verdict == "wrong":
        said = reveal.question.option_words(reveal.answer or "")
        text = _("✗ Not this time: you said {said}, the answer was {answer}.", said=said,
                 answer=correct)  # fmt: skip
        return f'<span class="lab-wrong">{html.escape(text)}</span>' + mistake_html(
            reveal.misconception_of(reveal.answer)
        )
    if reveal.verdict == "unanswered":
        text = _("No answer given: it was {answer}.", answer=correct)
        return f'<span class="lab-plain">{html.escape(text)}</span>'
    return f'<span class="lab-plain">{html.escape(reveal.summary_words())}</span>'


def mistake_html(mistake: str | None) -> str:
    """One short line naming a wrong answer's misconception and its lesson page (as words: a
    link would leave this tree), or nothing."""
    found = MISCONCEPTIONS.get(mistake or "")
    if found is None:
        return ""
    text = _("A common mistake: {mistake} (lesson {page}).", mistake=found.name,
             page=found.pointer.words)  # fmt: skip
    return (
        f'<br><span class="lab-plain lab-mistake" data-misconception="{html.escape(found.id)}">'
        f"{html.escape(text)}</span>"
    )


def _class_verdict_html(reveal: Reveal, counts: ClassCounts) -> str:
    """The class's share right and the answer, in one line (the teacher's screen)."""
    right, answered = counts.right(reveal.correct)
    correct = answers_words(reveal.question, reveal.correct)
    if answered:
        text = _("Class: {right} of {answered} right ({share}); the answer was {answer}.",
                 right=i18n.decimal(right), answered=i18n.decimal(answered),
                 share=i18n.percent(right / answered), answer=correct)  # fmt: skip
    else:
        text = _("Class: {right} of {answered} right; the answer was {answer}.",
                 right=i18n.decimal(right), answered=i18n.decimal(answered),
                 answer=correct)  # fmt: skip
    return f'<span class="lab-plain">{html.escape(text)}</span>'


def _class_td(counts: tuple[int, ...], most: int) -> str:
    """One answer's class counts: a bar per round (round 2 striped) and the numbers."""
    bars = "".join(
        f'<span class="lab-qbar lab-qbar-{min(n + 1, 2)}" style="width:{3 * c / most:.2f}rem">'
        "</span>"
        for n, c in enumerate(counts)
    )
    return f'<td class="lab-class-cell">{bars} {" → ".join(str(c) for c in counts)}</td>'


def _numbers_html(reveal: Reveal, counts: ClassCounts | None = None, brief: bool = False,
                  whole: bool = False, lead: str = "") -> str:  # fmt: skip
    """What happened, the table of deciding numbers (with the class's counts, whole, when
    given), and the explanation under "Why?" (``brief``: the table alone; ``whole``: the
    projector's, the table whole and "Why?" open; ``lead``: the verdict's HTML, said first in
    the summary's paragraph, and the why a paragraph of its own: the projector's reveal alone,
    in as few lines as it can take)."""
    # TRANSLATORS: the label before the last question's summary: "Last question: It added ..."
    label = _("Last question:")
    summary = html.escape(reveal.summary_words())
    if lead:
        body = f"<p>{lead} {summary}</p>" if not brief else f"<p>{lead}</p>"
    elif brief:
        body = ""
    else:
        body = f'<p><span class="lab-score">{html.escape(label)} </span>{summary}</p>'

    if reveal.rows:
        # the values (English: the answers' keys) and their words in the current language
        header, *rows = reveal.rows
        header_words, *rows_words = reveal.rows_words()
        most = max([1, *(c for n in (counts.counts.values() if counts else ()) for c in n)])
        heads = [html.escape(h) for h in header_words]
        if counts is not None:
            if len(counts.rounds) > 1:
                # TRANSLATORS: round {n} of a class's vote, short, in a table's header: "r1"
                rounds = _("r{n}", n=i18n.decimal(counts.rounds[0]))
                for n in counts.rounds[1:]:
                    # TRANSLATORS: one round after another in a header, "r1 → r2" (an arrow
                    # that points the way the language reads)
                    rounds = _(
                        "{rounds} → {round}", rounds=rounds, round=_("r{n}", n=i18n.decimal(n))
                    )
                # TRANSLATORS: a table's header: the class's answers in each round, "class r1 → r2"
                heads.append(html.escape(_("class {rounds}", rounds=rounds)))
            else:
                # TRANSLATORS: a table's header: how many of the class chose each answer
                heads.append(html.escape(_("class")))
        cells = "".join(f"<th>{h}</th>" for h in heads)
        shown = list(enumerate(zip(rows, rows_words, strict=True)))
        folded: list[str] = []
        if counts is not None and len(rows) > FOLD_ROWS:  # a class's reveal: what it said
            keep = [
                i == reveal.marked or row[0] in reveal.correct or any(counts.counts.get(row[0], ()))
                for i, (row, _words) in shown
            ]
            folded = [words[0] for (_i, (_row, words)), k in zip(shown, keep, strict=True)
                      if not k]  # fmt: skip
            shown = [item for item, k in zip(shown, keep, strict=True) if k]
        body_rows = "".join(
            ('<tr class="lab-mark">' if i == reveal.marked else "<tr>")
            + "".join(f"<td>{html.escape(c)}</td>" for c in words)
            + (_class_td(counts.counts.get(row[0], ()), most) if counts is not None else "")
            + "</tr>"
            for i, (row, words) in shown
        )
        if folded:
            nobody = _("Nobody chose {answers}", answers=comma_list(folded))
            body_rows += f'<tr><td colspan="{len(heads)}">{html.escape(nobody)}</td></tr>'
        # a scroll box a keyboard can reach (tabindex), named for a screen reader; whole when
        # it carries the class's answers (a reveal that hid the right answer misleads a class)
        whole_rows = " lab-rows-whole" if counts is not None or whole else ""
        named = html.escape(_("the deciding numbers"), quote=True)
        body += (
            f'<div class="lab-rows{whole_rows}" tabindex="0" role="region" aria-label="{named}">'
            f"<table><tr>{cells}</tr>{body_rows}</table></div>"
        )
    if reveal.why and lead:
        why = html.escape(_("Why?"))
        body += f'<p class="lab-why"><b>{why}</b> {html.escape(reveal.why_words())}</p>'
    elif reveal.why and not brief:
        why = html.escape(_("Why?"))
        opened = " open" if whole else ""
        body += (
            f"<details{opened}><summary>{why}</summary>{html.escape(reveal.why_words())}</details>"
        )
    return body


def _lines(text: str) -> int:
    return -(-len(text) // LINE_CHARS)


def after_screen() -> None:
    """Rerun the screen when something drawn below the quiz answered its question (the arena
    runs inside its tab, after the quiz was drawn), so the answer shows at once."""
    if not st.session_state["quiz"]:
        return
    box = quiz()
    question = box.pending
    if question is not None and question.trigger == "arena":
        arena = session.session().arena
        if arena is not None and id(arena) != question.data.get("result_id"):
            st.rerun()  # (a whole rerun: an arena run is rare and slow anyway)
