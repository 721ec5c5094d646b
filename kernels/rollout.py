"""Rounds played on by bots for the search player and the advisor: from a decision (`play_on`)
and afresh (`next_round`), by kernels.fastround when every seat is the baseline, else by the
general engine. Both give the same state and stream (tests/kernels/test_fastround.py), so the
choice changes only the speed; `fast_seats` makes it once per decision or per run."""
from .actions import PH_DECIDE, PH_STOP
from .engine import act, step
from .fastround import (FIRST_EXTRA, continue_round, continue_round_extra, fast_round,
                        fast_round_extra)
from .game import new_round
from .jit import kernel
from .policies import BASELINE, bot_choice
from .scoring import UNKNOWN


@kernel(inline="always")
def fast_seats(nplayers, pk, counts):
    """(fast, extra): every seat of pk is the baseline, and the round's cards (`counts`, copies
    by type) include Extra Salt's."""
    fast = True
    for q in range(nplayers):
        fast = fast and pk[q] == BASELINE
    extra = False
    for t in range(FIRST_EXTRA, counts.shape[0]):
        extra = extra or counts[t] > 0
    return fast, extra


@kernel(inline="always")
def play_on(s, a, pk, pp, rng, tr, fast, extra):
    """Apply action a at s's decision point and let the bots of pk/pp play the round to its
    end (kernels.engine.step; when `fast`, engine.act then fastround.continue_round from the
    stage it reached). `tr` must be a zero-row trace."""
    if not fast:
        step(s, a, pk, pp, rng, tr)
        return
    stage = act(s, a, UNKNOWN, rng, tr)
    while stage == PH_DECIDE:               # a decision the action led to (a crab's pile ...):
        b, g = bot_choice(s, pk, pp, rng)   # its bot answers (compiled calls, not inlined:
        stage = act(s, b, g, rng, tr)       # they are rare here, and inlined cost compiling)
    if stage == PH_STOP:
        return                              # (the action ended the round)
    if extra:
        continue_round_extra(s, pp, rng, stage)
    else:
        continue_round(s, pp, rng, stage)


@kernel(inline="always")
def next_round(s, nplayers, deck, starter, pk, pp, rng, tr, fast, extra):
    """kernels.game.new_round, by fastround when `fast`."""
    if not fast:
        return new_round(s, nplayers, deck, starter, pk, pp, rng, tr)
    if extra:
        return fast_round_extra(s, nplayers, deck, starter, pk, pp, rng, tr)
    return fast_round(s, nplayers, deck, starter, pk, pp, rng, tr)
