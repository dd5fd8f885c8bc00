"""The ``arena`` question: will MCTS win more arena games at home or away? Graded by the
arena's next run (asked only on a lesson page)."""

from __future__ import annotations

from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal


def ask(a: AskContext) -> Question | None:
    arena = a.arena
    if arena is None:
        return None
    text = (
        f"The arena: {arena.games} games with MCTS as home (moving first), {arena.games} as "
        f"away, against a {arena.opponent} player, {arena.iterations} iterations a move, "
        f"'{arena.expansion}' order. On which side will MCTS win more?"
    )
    options = ["Home", "Away", "The same number"]
    return a.question("arena", text, options, "arena", result_id=id(arena.result))


def grade(g: GradeContext) -> Reveal:
    result = g.arena_result
    home, away = int(result.home_wins), int(result.away_wins)
    correct = "Home" if home > away else "Away" if away > home else "The same number"
    games = int(result.games_per_side)
    summary = (
        f"MCTS won {home} of {games} games at home and {away} of {games} away "
        f"({result.home_draws} and {result.away_draws} draws)."
    )
    rows = (
        ("side", "wins", "draws", "losses"),
        ("home", str(home), str(result.home_draws), str(result.home_losses)),
        ("away", str(away), str(result.away_draws), str(result.away_losses)),
    )
    return g.reveal((correct,), summary, rows)


KIND = QuizKind(
    "arena",
    why=(
        "The arena plays whole games with the sidebar's settings, as home (moving first) "
        "and as away. With the 'listed' expansion order the search tries moves towards "
        "larger x first, which is forward for home and backward for away: the botbowl "
        "tutorial's asymmetry. With few games, luck decides much of the difference; the "
        "README's 40-game table is steadier."
    ),
    wait_hint="the arena",
    ask=ask,
    grade=grade,
)
