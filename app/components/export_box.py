"""An export's box: a format, an Export button with a progress bar while the file is made, and
the file's download button; what to export and how are given, so the box knows no session and
no exporter (the run's box in the header, ``app/screen/run_export.py``; the lesson's, in the
lesson strip, ``app/lessons/lesson_view.py``).

Widget keys (a documented interface, docs/app.md): ``{prefix}_format`` (the format select),
``{prefix}_go`` (the Export button), ``{prefix}_download`` (the download button); the file made
is kept under ``{prefix}_file`` with the request it was made from, and offered only while the
request is the same (a Step after the export offers no stale file).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st

from app.components.ui import in_page_language, notice_line
from app.words.i18n import N_, _, percent

LOG = logging.getLogger("mcts_lab.app")

#: ``on_progress(done, total)``: ``done`` of ``total`` steps of the export finished.
Progress = Callable[[int, int], None]


#: Each format's words in the select (the run's box and the lesson's; an
#: exporter's format without words here is shown by its name).
FORMAT_NAMES: dict[str, str] = {
    "pptx": N_("PowerPoint deck (.pptx)"),
    "pdf": N_("PDF handout (.pdf)"),
    "gif": N_("Animation (.gif)"),
    "apng": N_("Animation (.png, APNG)"),
    "png": N_("PNG pictures (.zip)"),
}


@dataclass(frozen=True)
class ExportFile:
    """A file made by an export: its bytes, the name a download saves it as, its media type."""

    data: bytes
    file_name: str
    mime: str


#: Makes the file of a request in a format, reporting its progress; raises ``ValueError``
#: (the exporter's bad-input error) with one line of developer's words on a refused request.
Make = Callable[[object, str, Progress], ExportFile]


def export_box(
    prefix: str,
    formats: Sequence[str],
    request: object,
    make: Make,
) -> None:
    """The box's widgets, in the container it is called in (a popover). ``request`` is what
    the screen would export now (compared with ``==`` to the request of the file kept), or a
    ``str``: why there is nothing to export (one line; the button is then off).
    ``make(request, fmt, on_progress)`` makes the file."""
    s = st.session_state
    fmt = st.selectbox(
        # TRANSLATORS: the export box's select: the kind of file to make
        _("Format"),
        tuple(formats),
        key=f"{prefix}_format",
        format_func=in_page_language(lambda f: _(FORMAT_NAMES[f]) if f in FORMAT_NAMES else f),
    )
    nothing = request if isinstance(request, str) else None
    if nothing is not None:
        notice_line("info", nothing)
    # TRANSLATORS: the export box's button: make the file (a verb)
    go = st.button(_("Export"), key=f"{prefix}_go", disabled=nothing is not None, type="primary")
    kept = s.get(f"{prefix}_file")
    if go and nothing is None:
        bar = st.progress(0.0, text=_("Exporting…"))

        def progress(done: int, total: int) -> None:
            share = min(1.0, done / total) if total > 0 else 0.0
            # TRANSLATORS: the export's progress bar: the share done, e.g. "Exporting… 40 %"
            bar.progress(share, text=_("Exporting… {share}", share=percent(share)))

        try:
            made = make(request, str(fmt), progress)
        except Exception as error:  # a refusal (ValueError) or a writer's failure: one line
            if not isinstance(error, ValueError):
                LOG.exception("export %s failed", prefix)  # (the traceback: the server's log)
            kept = None
            s.pop(f"{prefix}_file", None)
            notice_line("error", _failed(error))
        else:
            kept = s[f"{prefix}_file"] = (request, str(fmt), made)
        finally:
            bar.empty()
    if kept is not None and kept[0] == request and kept[1] == fmt:
        file: ExportFile = kept[2]
        st.download_button(
            # TRANSLATORS: the export box's download button; {name}: the file's name
            _("Download {name}", name=file.file_name),
            data=file.data,
            file_name=file.file_name,
            mime=file.mime,
            key=f"{prefix}_download",
            on_click="ignore",  # a download changes nothing: no rerun
            icon=":material/download:",
        )


def _failed(error: Exception) -> str:
    """The one line an export that could not be made shows (the error's own words, a
    developer's, in English, inside the translated sentence)."""
    what = " ".join(str(error).split())[:200] or type(error).__name__
    return _("The file could not be made: {error}. The screen is unchanged.", error=what)
