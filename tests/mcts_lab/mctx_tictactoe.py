"""A real mctx search (``gumbel_muzero_policy`` on CPU) on tic-tac-toe, written in JAX here, for
the tests of ``traces.from_mctx``. Needs ``mctx`` (and so ``jax``): the tests skip without it.

No network: every prior is uniform over the legal moves and every unfinished state is valued
0, so the values come from finished games alone. A state is ``(board, to_move, done, value)``:
the board's cells 1 (X), -1 (O) or 0, ``to_move`` 1 or -1, ``done`` once a line is made or the
board is full, ``value`` the result from the view of ``to_move`` there. mctx searches past the
end of a game (the ``recurrent_fn`` is called below a finished state like anywhere else); the
two usual ways of writing one:

- ``"value"``: rewards 0 and discount -1 everywhere (the two-player convention), a finished
  state valued by its result from the view of the player to move (a loss: the last mover won);
  below it the state stays finished, the player to move alternates and the value flips with
  it, so every visit of the finished game backs up its result.
- ``"reward"`` (pgx's AlphaZero example): the move that ends the game pays its result to its
  mover as the reward with discount 0 and value 0; below a finished state reward 0,
  discount 0, value 0.

``wrong``: a finished game scored from the wrong side (a win valued as a loss), the bug a
correct converter must still let ``inspect`` find.
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import mctx
import numpy as np

LINES = jnp.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8],
                   [0, 4, 8], [2, 4, 6]])  # fmt: skip


def _won(board: jax.Array, player: jax.Array) -> jax.Array:
    return jnp.any(jnp.all(board[LINES] == player, axis=-1))


def _logits(board: jax.Array, done: jax.Array) -> jax.Array:
    # uniform over the empty cells; past the end of the game, uniform over every action
    masked = jnp.where(board == 0, 0.0, -1e9)
    return jnp.where(done, jnp.zeros(9), masked)


def _step(state: dict[str, jax.Array], action: jax.Array, convention: str, wrong: Any) -> Any:
    board, to_move, done, value = state["board"], state["to_move"], state["done"], state["value"]
    played = board.at[action].set(to_move)
    won = _won(played, to_move)
    now_done = won | jnp.all(played != 0)
    result = jnp.where(won, 1.0, 0.0)  # for the mover, to_move
    result = jnp.where(wrong, -result, result)
    if convention == "value":
        new_value = jnp.where(done, -value, jnp.where(now_done, -result, 0.0))
        reward, discount = jnp.zeros(()), -jnp.ones(())
        net_value = new_value
    else:
        new_value = jnp.zeros(())
        reward = jnp.where(done, 0.0, jnp.where(now_done, result, 0.0))
        discount = jnp.where(done | now_done, 0.0, -1.0)
        net_value = jnp.zeros(())
    after = {
        "board": jnp.where(done, board, played),
        "to_move": -to_move,
        "done": done | now_done,
        "value": new_value,
    }
    return after, reward, discount, net_value


def search(
    position: str, *, simulations: int, seed: int, convention: str = "value", wrong: bool = False
) -> Any:
    """``gumbel_muzero_policy``'s output of one search at ``position`` (the lab's string:
    ``X``, ``O``, ``.`` row by row from the top; X moves first)."""
    assert convention in ("value", "reward"), convention
    cells = [{"X": 1, "O": -1, ".": 0}[c] for c in position]
    to_move = 1 if cells.count(1) == cells.count(-1) else -1
    root_state = {
        "board": jnp.array([cells], dtype=jnp.int32),
        "to_move": jnp.array([to_move], dtype=jnp.int32),
        "done": jnp.array([False]),
        "value": jnp.zeros((1,)),
    }
    run = _policy(convention, simulations)
    return run(jax.random.PRNGKey(seed), root_state, jnp.array(wrong))


@functools.cache
def _policy(convention: str, simulations: int) -> Any:
    """The search compiled once per convention and simulation count (``wrong`` is the
    ``params`` mctx hands to the ``recurrent_fn``)."""

    def recurrent_fn(wrong: Any, rng: Any, action: jax.Array, state: Any) -> Any:
        after, reward, discount, value = jax.vmap(lambda s, a: _step(s, a, convention, wrong))(
            state, action
        )
        output = mctx.RecurrentFnOutput(
            reward=reward,
            discount=discount,
            prior_logits=jax.vmap(_logits)(after["board"], after["done"]),
            value=value,
        )
        return output, after

    def run(key: Any, root_state: Any, wrong: Any) -> Any:
        board = root_state["board"]
        root = mctx.RootFnOutput(
            prior_logits=jax.vmap(_logits)(board, root_state["done"]),
            value=jnp.zeros((1,)),
            embedding=root_state,
        )
        return mctx.gumbel_muzero_policy(
            params=wrong,
            rng_key=key,
            root=root,
            recurrent_fn=recurrent_fn,
            num_simulations=simulations,
            invalid_actions=board != 0,
            max_num_considered_actions=9,
        )

    return jax.jit(run)


def finished_flags(output: Any) -> np.ndarray:
    """The embeddings' ``done`` [B, N]: the nodes at or below a finished game."""
    return np.asarray(output.search_tree.embeddings["done"])
