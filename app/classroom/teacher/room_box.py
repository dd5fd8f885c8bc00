"""The teacher's boxes on the screen: the join box (the code in large type, the QR code of
the join address; container ``class_join``, key ``j`` shows and hides it) and the room box
(container ``class_room``): who joined and answered, **Reveal**, **Close the vote** and **Vote
again**, the results CSV, **End class**, and the names the teacher may remove."""

from __future__ import annotations

import html
import logging
from typing import Any

import segno
import streamlit as st

from app.classroom import ClassError, Room, Teacher
from app.classroom.core import said
from app.classroom.shared import (
    CLASS_CSS,
    bars_html,
    room,
    teacher,
)
from app.classroom.teacher import heat as class_heat
from app.classroom.teacher import vote
from app.classroom.teacher.start import on_end, on_end_ask, on_end_cancel, results_csv
from app.classroom.teacher.sync import (
    COUNTS_IN_QUIZ,
    PENDING,
    on_reveal_unmatched,
    resync,
    reveal_facts,
    unmatched_poll,
)
from app.inputs.public_url import public_base
from app.live import clicks
from app.live.session import notify, safe, session
from app.words.i18n import _, decimal, isolate, n_

_LOG = logging.getLogger(__name__)


#: The key that shows and hides the join box (a clicker has none: Page Down hides it).
JOIN_KEY = "j"

#: How often the teacher's room box counts again (seconds).
COUNT_SECONDS = 1.0


def join_url(code: str) -> str:
    """The address a student opens to join: the public base (never loopback when the machine
    has a LAN address) with ``?class=CODE``."""
    return f"{public_base(st.context.url)}?class={code}"


#: Session key: the round (poll id, round) whose Reveal made its click and the search's
#: iterations before it: a Reveal is one click.
REVEAL_MADE = "class_reveal_made"


def _on_reveal(click: Any, asked: tuple[str, int] | None) -> None:
    """Reveal: make the click the open round's question is about (``click``), once per round.
    The callback of a Reveal that comes again for a round whose click was made (a second
    press before the page showed the reveal, the same press delivered twice) does nothing: a
    second iteration would void the question it reveals ("2 iterations ran at once")."""
    iterations = session().search.iterations
    made = st.session_state.get(REVEAL_MADE)
    if asked is not None and made is not None and made[0] == asked and made[1] != iterations:
        _LOG.warning("Reveal of %s round %s again: its click was made", *asked)
        return
    st.session_state[REVEAL_MADE] = (asked, iterations)  # (the search before its click)
    click()


@safe
def _on_toggle_join() -> None:
    st.session_state["class_join_shown"] = not st.session_state.get("class_join_shown", False)


def join_box(found: Teacher) -> None:
    """The code in large type, the QR code of the join address and the address (container
    ``class_join``)."""
    url = join_url(found.code)
    qr = segno.make(url, error="m").svg_inline(scale=4, dark="#111111", light="#ffffff")
    # one message with the address and the code in their places (word order is the
    # language's); each placeholder is filled with a marker, the words escaped, then the
    # markers replaced by the address's and the code's own lines
    # TRANSLATORS: the join box on the projector; {url} and {code} are shown on lines of
    # their own in large type (the address, then the class code)
    marked = _(
        "Join on your phone: scan the code, or open {url} and type {code}",
        url="\x00url\x00",
        code="\x00code\x00",
    )
    url_line = (
        f'</p><p class="lab-class-url" dir="ltr">{html.escape(url)}</p><p class="lab-class-line">'
    )
    code_line = (
        f'</p><p class="lab-class-code" aria-label="{html.escape(_("class code"))}" dir="ltr">'
        f'{html.escape(found.code)}</p><p class="lab-class-line">'
    )
    words = html.escape(marked).replace("\x00url\x00", url_line).replace("\x00code\x00", code_line)
    with st.container(key="class_join", border=True):
        # the QR code's column as wide as its picture in the tree's place (about 480 px at
        # 1280x720): at [3, 1] the 150 px code and its caption overflowed the box
        left, right = st.columns([2, 1], vertical_alignment="center")
        left.html(
            CLASS_CSS
            + f'<p class="lab-class-line">{words}</p>'.replace('<p class="lab-class-line"></p>', "")
        )
        # an <img> of the SVG (st.html's sanitiser drops SVG), with the address as its text
        right.image(qr, caption=_("Scan to join"), width="stretch",
                    alt=_("QR code of {url}", url=url))  # fmt: skip


def room_box(click: Any) -> None:
    """The room (container ``class_room``): students connected, answers to the open round
    (never the distribution before the reveal), the teacher's buttons, and the last reveal's
    chart. ``click`` is the callback that makes the click a question waits for (Step)."""

    found = teacher()
    if found is None:
        return
    try:
        r = room()
        poll = r.store.current_poll(found.code)
    except OSError:
        st.session_state[PENDING] = True  # the count line brings the box back (resync)
        _live_room()  # (and says, in one line, that the store is away)
        return
    with st.container(key="class_room", border=True):
        _live_room()  # its own fragment: the count and the names follow the class every second
        with st.container(horizontal=True, gap="small", key="class_room_buttons"):
            open_round = poll is not None and not poll.revealed
            click = on_reveal_unmatched if unmatched_poll() else click
            asked = (poll.id, poll.round) if open_round and poll is not None else None
            st.button(_("Reveal"), key="class_reveal", on_click=_on_reveal,
                      args=(click, asked), disabled=not open_round,
                      help=_("Make the click the question is about and show the class's "
                             "answers with the numbers that decided it."))  # fmt: skip
            vote.close_button(open_round, st.session_state.get("presentation", False))
            st.button(_("Vote again"), key=vote.AGAIN_BUTTON, on_click=_on_again,
                      disabled=not open_round, shortcut=vote.AGAIN_KEY,
                      help=_("After discussion: a second round of the same question; the "
                             "reveal shows both rounds side by side (key: V)."))  # fmt: skip
            shown = st.session_state.get("class_join_shown", False)
            st.button(_("Hide join box") if shown else _("Join box"), key="class_join_toggle",
                      on_click=_on_toggle_join, shortcut=JOIN_KEY,
                      help=_("The join box (code, address and QR code) in the tree's place, "
                             "and back (key: J). A clicker's Page Down hides it."))  # fmt: skip
            presenting = st.session_state.get("presentation", False)
            st.download_button(_("CSV") if presenting else _("Results (CSV)"),
                               data=lambda: results_csv(found),
                               help=_("The class's results as CSV"),
                               file_name=f"class-{found.code}.csv", mime="text/csv",
                               key="class_results", on_click="ignore")  # fmt: skip
            # TRANSLATORS: the button that ends the class (it asks first)
            st.button(_("End"), key="class_end", on_click=on_end_ask,
                      help=_("End the class: no more joins or answers."))  # fmt: skip
        if st.session_state.get("class_end_ask"):
            with st.container(key="class_end_box", horizontal=True, gap="small"):
                ask = html.escape(_("End the class for everyone?"))
                stay = html.escape(_("The results stay under Past classes."))
                st.html(f'<p class="lab-class-line"><b>{ask}</b> {stay}</p>')
                st.button(_("End now"), key="class_end_confirm", type="primary", on_click=on_end)
                st.button(_("Keep going"), key="class_end_cancel", on_click=on_end_cancel)
        # The parts that come and go in a box of their own, not beside the count line: the
        # browser would keep a part this run left out (the names box after the last name
        # went) when the count's timed run comes between this run and its clean-up, as it
        # does for every box around the count line (app/screen/page.py says the same of the column)
        with st.container():
            try:
                vote.after_vote(r, found)  # the share right, the next step, the switch
                last = st.session_state.get("class_last_reveal")
                if last and last != st.session_state.get(COUNTS_IN_QUIZ):
                    rounds = [p for p in r.rounds(found.code, last) if p.revealed]
                    if rounds:
                        # the question and its answers in the teacher's language (facts)
                        facts = reveal_facts(last)
                        st.html(CLASS_CSS + bars_html(r, found.code, rounds, found.secret,
                                                      summary=False, facts=facts))  # fmt: skip
            except OSError:  # the store went away mid-box: one line, no traceback
                st.caption(_("The class store did not answer. This page tries again every second."))


def _live_part() -> None:
    """What follows the class every second, the teacher clicking nothing: the count line and,
    below it, the names box (a late join listed within a second; Remove reruns this part
    alone). On the projector the names' place stays empty: names are not projected.

    One timed fragment for both, not one each: each timed run costs the teacher's browser
    about 0.07 CPU-seconds (measured in Chromium), so two were 14% of a core while the class
    sits still."""
    if not _count_line():
        return  # the store away: the count line's one line says so
    if st.session_state.get("presentation", False):
        st.empty()  # the names' place, kept (a part left out is not always cleared: see _names)
    else:
        _names_part()


def _count_line() -> bool:
    """Students connected and, for the open round, how many answered (the counts only);
    False when there is no class or the store did not answer."""

    found = teacher()
    if found is None:
        return False
    try:
        count = room().count(found.code, vote.screen())
    except OSError:
        # the one line the projector shows while the store is away (room_box, the screen
        # and the question wait silently for it: PENDING)
        st.caption(_("The class store did not answer. This page tries again every second "
                     "and then sends what the class has not got."))  # fmt: skip
        return False
    except ClassError as error:
        st.caption(said.refusal(error))
        return False
    if st.session_state.get(PENDING):
        resync()
    words = n_("Class {code} · {n} connected", "Class {code} · {n} connected", count.connected,
               code=isolate(found.code), n=decimal(count.connected))  # fmt: skip
    poll = count.poll
    if poll is not None and not poll.revealed:
        words = vote.count_words(poll, count.answered, count.joined, 0, words)
        class_heat.follow_answers(poll, count.answered)  # the tree's counts follow the class
    elif count.joined != count.connected:
        words = n_("{line} ({n} joined)", "{line} ({n} joined)", count.joined, line=words,
                   n=decimal(count.joined))  # fmt: skip
    words = vote.count_words(None, 0, 0, count.lost, words)  # "2 lost" (never who)
    st.html(
        CLASS_CSS + f'<p class="lab-class-line lab-class-count"><b>{html.escape(words)}</b></p>'
    )
    return True


#: The count line and the names as one fragment, rerun every COUNT_SECONDS (in the screen's
#: fragment).
_live_room = st.fragment(run_every=COUNT_SECONDS)(_live_part)


def _names_part() -> None:
    """The names box of this session's class (:func:`_names`), or one line with the store
    away."""
    found = teacher()
    if found is None:
        return
    try:
        _names(room(), found)
    except OSError:
        st.caption(_("The class store did not answer. This page tries again every second."))


def _names(r: Room, found: Teacher) -> None:
    """The names, and removing one (a name a class should not see).

    Drawn in the same places with no names (the list says so, two empty places stand for the
    controls): each part is then replaced where it stands at every run, never left out. A part
    a run leaves out is removed by the browser's clean-up after the run, which skips boxes the
    count line's timed run touched in between (docs/architecture.md): with both cores busy the
    last removed name stayed listed in 2 of 4 runs of the Chromium test when the names box went
    with it; 0 of 6 since."""
    students = [s for s in r.store.students(found.code) if not s.removed]
    ids = [s.id for s in students]
    names = {s.id: s.name for s in students}
    # each name isolated for the bidi algorithm: right-to-left names keep the list's order
    listed = ", ".join(f"<bdi>{html.escape(s.name)}</bdi>" for s in students)
    with st.expander(_("Names ({n})", n=decimal(len(students)))):
        nobody = html.escape(_("No one has joined yet."))
        st.html(f'<p class="lab-class-line">{listed or nobody}</p>')
        if not ids:  # the controls' places, empty (a widget kept with no choices would keep
            st.empty()  # its empty value when the next name joins)
            st.empty()
            return
        # No name chosen at first, and none again after a removal: a click's run cut short by
        # the next timed run is run again with the click in it (Streamlit keeps a trigger
        # through an interrupted run), and the button's arguments are then the ones the cut
        # run drew: with the next name already chosen, one click took two names off the class
        # (seen in the Chromium test under a load of 36). Cleared, the second call has none.
        pick = st.selectbox(_("Name to remove"), ids, key="class_remove_name", index=None,
                            placeholder=_("Choose a name"),
                            format_func=lambda sid: names.get(sid, "?"))  # fmt: skip
        st.button(_("Remove this name"), key="class_remove", on_click=_on_remove, args=(pick,),
                  disabled=pick is None)  # fmt: skip


@safe
def _on_remove(student_id: str | None) -> None:
    st.session_state["class_remove_name"] = None  # one click, one name (see _names)
    found = teacher()
    if found is not None and student_id:
        try:
            room().remove_student(found.code, found.secret, student_id)
        except (ClassError, OSError) as error:
            notify("warning", _("The name was not removed: {error}", error=said.refusal(error)))


@safe
def _on_again() -> None:
    found = teacher()
    if found is None or not clicks.take(vote.AGAIN_BUTTON):
        return  # (the same click again: Streamlit replays a cut-short run's callbacks)
    try:
        room().vote_again(found.code, found.secret)
    except (ClassError, OSError) as error:
        notify("warning", said.refusal(error))
    st.session_state["class_published"] = ""  # students must see the new round
