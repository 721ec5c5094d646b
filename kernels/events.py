"""Trace events: what the engine records, action by action, when given a trace buffer.

A trace buffer is an int32 array of shape (capacity, 5). Row 0 is a header whose first field
counts the events written (also past capacity, so overflow is detectable); each later row is
(code, player, a, b, c). A zero-row buffer turns tracing off at one comparison per event.
With header field 1 set to 1 (check mode), every event also checks the state's invariants
(kernels.invariants) and header fields 2 and 3 keep the first error code and its event number. The meaning
of a, b, c for each code is in EVENT_FIELDS; card fields hold type ids (-1 for none). A round's
events start with its deal (seat: the starter), so a whole game's trace tells its rounds apart.
"""

from .jit import kernel, word

from .invariants import state_errors

TURN, KEEP, DISCARD, TAKE_PILE, TAKE_NOTHING, LOCKED_DRAW, PAIR, TRIO = range(8)
CRAB_TAKE, FISH_DRAW, STEAL, LOBSTER_KEEP, LOCK_ON, LOCK_OFF, EXTRA_TURN, DECLARE = range(8, 16)
REVEAL, MERMAID_WIN, ROUND_END, SCORE, DEAL = range(16, 21)

# name, and what a, b, c hold.
EVENT_FIELDS = (
    ("turn", ("locked", "final", "")),
    ("keep", ("card", "other", "")),           # drew from the deck, kept `card`
    ("discard", ("card", "pile", "")),
    ("take_pile", ("card", "pile", "")),
    ("take_nothing", ("", "", "")),
    ("locked_draw", ("card", "", "")),          # card -1: the deck was empty
    ("pair", ("card", "card2", "")),
    ("trio", ("card", "card2", "starfish")),
    ("crab_take", ("card", "pile", "")),        # card -1: both piles empty
    ("fish_draw", ("card", "", "")),            # card -1: deck empty
    ("steal", ("victim", "card", "")),          # victim -1: nobody to steal from
    ("lobster_keep", ("card", "seen", "")),     # card -1: deck empty
    ("lock_on", ("", "", "")),
    ("lock_off", ("", "", "")),
    ("extra_turn", ("", "", "")),
    ("declare", ("kind", "points", "")),        # kind: 1 STOP, 2 LAST CHANCE
    ("reveal", ("", "", "")),
    ("mermaid_win", ("", "", "")),
    ("round_end", ("end", "ender", "")),        # end: kernels.state.END_*
    ("score", ("points", "card_points", "bonus")),
    ("deal", ("card", "card2", "deck")),        # a round's start: piles A and B, the deck left
)
EVENT_NAMES = tuple(f[0] for f in EVENT_FIELDS)


@kernel(inline="always")
def emit(s, tr, code, p, a, b, c):
    """Append one event to the trace buffer `tr` (no-op with a zero-capacity buffer). Every
    field goes on as a plain int64, so that the many call sites share one compiled _emit."""
    _emit(s, tr, word(code), word(p), word(a), word(b), word(c))


@kernel(forceinline=True)
def _emit(s, tr, code, p, a, b, c):
    """Inlined by LLVM at every call site so that with tracing off an event costs one
    comparison, not a call passing both arrays; the recording itself stays out of line."""
    if tr.shape[0] != 0:
        record(s, tr, code, p, a, b, c)


@kernel
def record(s, tr, code, p, a, b, c):
    """emit() with a non-empty buffer: check the state if asked (check mode), store the event."""
    cap = tr.shape[0]
    if tr[0, 1] == 1 and tr[0, 2] == 0:
        err = state_errors(s)
        if err != 0:
            tr[0, 2] = err
            tr[0, 3] = tr[0, 0] + 1
    n = tr[0, 0] + 1
    if n < cap:
        tr[n, 0] = code
        tr[n, 1] = p
        tr[n, 2] = a
        tr[n, 3] = b
        tr[n, 4] = c
    tr[0, 0] = n
