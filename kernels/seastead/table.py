"""Seastead at the table: a game driven to its next decision point by replaying its choices.

A game at the table is its setup (components, configuration, the stream of its shuffles) and the
choices made so far: rows (seat, kind, a, b, c, d) of the decisions asked, in order. `replay`
plays it again from the setup with every seat a script player whose fallback is players.P_ASK:
in ASK_STOP mode the engine raises players.Asked at the first decision after the choices, with
the state and the option rows as they are then; a game whose choices reach its end returns
scored. A person, a bot or the advisor answers by appending a row: one way in for every seat.

`rollouts` values that decision's options for its seat as the search player values an action
(kernels.seastead.search.evaluate): per round, one redeal of what no seat sees at the decision
(players.ask's ASK_BRANCH, on the stream carried from round to round) and each option played on
it to the end with every seat's heuristic, the same redeal and stream for every option.
"""
import numpy as np

from ..jit import njit
from . import layout as L
from .engine import play_game
from .search import margin, result


@njit(cache=True)
def replay(s, cp, cfg, pp, rng, tr, sc, ob):
    """The game from its setup with every seat playing the script `sc` (pp's fallbacks: P_ASK)."""
    play_game(s, cp, cfg, np.full(2, L.P_SCRIPT, np.int64), pp, rng, tr, sc, ob)


@njit(cache=True)
def rollouts(s, cp, cfg, pp, start, sc, p, opts, stream, out, ob):
    """out[r, j] = (p's result: 1 a win, 0.5 shared, 0 a loss; p's score margin) on redeal r for
    option opts[j] of the decision the script `sc` leads to, r < out.shape[0]. `start` is the
    game's stream, `stream` the redeals' (uint64[4], advanced in place: rounds run in chunks
    are the rounds run at once)."""
    rng = np.zeros(8, dtype=np.uint64)
    tr = np.zeros((0, 5), dtype=np.int32)
    pk = np.full(2, L.P_SCRIPT, np.int64)
    for r in range(out.shape[0]):
        for j in range(opts.shape[0]):
            rng[:4] = start
            rng[4:] = stream
            sc[0, 0] = 0
            sc[0, 1] = 0
            sc[0, L.ASK_MODE] = L.ASK_BRANCH
            sc[0, L.ASK_ARG] = opts[j]
            play_game(s, cp, cfg, pk, pp, rng, tr, sc, ob)
            out[r, j, 0] = result(s, p)
            out[r, j, 1] = margin(s, p)
        stream[:] = rng[4:]
