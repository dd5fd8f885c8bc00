"""Every kind of question, one module each (its ``ask``, its ``grade`` and its
:class:`~app.quiz.records.QuizKind` record ``KIND``). A new kind is one module and one line in
:data:`QUIZ_KINDS`."""

from __future__ import annotations

from app.quiz.kinds import (
    arena,
    backup,
    dice,
    dice_count,
    exact_best,
    expand,
    favourite,
    new_value,
    select,
)
from app.quiz.records import QuizKind

__all__ = ["QUIZ_KINDS"]

#: Every kind of question by name, in the order free quiz mode takes turns with them.
QUIZ_KINDS: dict[str, QuizKind] = {
    module.KIND.name: module.KIND
    for module in (
        select,
        new_value,
        favourite,
        expand,
        dice,
        exact_best,
        dice_count,
        backup,
        arena,
    )
}
