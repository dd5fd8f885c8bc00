"""The ``arena`` question: will MCTS win more arena games at home or away? Graded by the
arena's next run (asked only on a lesson page)."""

from __future__ import annotations

from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.quiz.words import M, P, name, plain
from app.words.i18n import N_

# TRANSLATORS: an answer to the arena question: MCTS wins more games at home (moving first)
HOME = N_("Home")
# TRANSLATORS: an answer to the arena question: MCTS wins more games away (moving second)
AWAY = N_("Away")
# TRANSLATORS: an answer to the arena question: as many wins at home as away
SAME = N_("The same number")


def ask(a: AskContext) -> Question | None:
    arena = a.arena
    if arena is None:
        return None
    text = P(
        "The arena: {games} game with MCTS as home (moving first), {games} as away, "
        "against a {opponent} player, {iterations} iterations a move, '{expansion}' "
        "order. On which side will MCTS win more?",
        "The arena: {games} games with MCTS as home (moving first), {games} as away, "
        "against a {opponent} player, {iterations} iterations a move, '{expansion}' "
        "order. On which side will MCTS win more?",
        arena.games,
        games=plain(arena.games),
        opponent=name(arena.opponent),
        iterations=plain(arena.iterations),
        expansion=name(arena.expansion),
    )
    options = [M(HOME), M(AWAY), M(SAME)]
    return a.question("arena", text, options, "arena", result_id=id(arena.result))


def grade(g: GradeContext) -> Reveal:
    result = g.arena_result
    assert result is not None  # (graded once a new result came: app.quiz.grade)
    home, away = int(result.home_wins), int(result.away_wins)
    correct = HOME if home > away else AWAY if away > home else SAME
    games = int(result.games_per_side)
    summary = P(
        "MCTS won {home} of {games} game at home and {away} of {games} away "
        "({home_draws} and {away_draws} draws).",
        "MCTS won {home} of {games} games at home and {away} of {games} away "
        "({home_draws} and {away_draws} draws).",
        games,
        home=plain(home),
        games=plain(games),
        away=plain(away),
        home_draws=plain(result.home_draws),
        away_draws=plain(result.away_draws),
    )
    rows = (
        # TRANSLATORS: the arena's table: column headers, then its rows "home" and "away"
        (M(N_("side")), M(N_("wins")), M(N_("draws")), M(N_("losses"))),
        (M(N_("home")), plain(home), plain(result.home_draws), plain(result.home_losses)),
        (M(N_("away")), plain(away), plain(result.away_draws), plain(result.away_losses)),
    )
    return g.reveal((correct,), summary, rows)


KIND = QuizKind(
    "arena",
    why=N_(
        "The arena plays whole games with the sidebar's settings, as home (moving first) "
        "and as away. With the 'listed' expansion order the search tries moves towards "
        "larger x first, which is forward for home and backward for away: the botbowl "
        "tutorial's asymmetry. With few games, luck decides much of the difference; the "
        "README's 40-game table is steadier."
    ),
    wait_hint=N_("the arena"),
    ask=ask,
    grade=grade,
)
