"""Decision points and actions: what a player can be asked, and how an answer is written.

The engine (kernels.engine) runs a round until a player must choose among at least two legal actions
(docs/rules.md, "A turn" to "Ending a round"; a choice the rules force is made by the engine), and
writes the kind of choice into the state's DEC slot. An action is one integer whose meaning depends
on the kind:

    DEC_DRAW       SRC_DECK (draw two from the deck), SRC_PILE_A, SRC_PILE_B (take that top)
    DEC_KEEP       keep + 2 * pile: keep 0 keeps the first card drawn, 1 the second; the other
                   goes onto pile 0 (A) or 1 (B)
    DEC_PLAY       A_END, A_STOP, A_LAST_CHANCE, or a pair A_FISH .. A_BOAT (+ TRIO: the pair
                   and a starfish, no effect). The copies may be named: pair_action(...);
                   without them the first copies in docs/rules.md, "The cards" order are played
    DEC_CRAB_PILE  the pile to search, 0 (A) or 1 (B); a player who remembers the piles may
                   name the card at once: 2 + pile + 2 * index (= choosing the pile, then it)
    DEC_CRAB_CARD  the index of the card taken in the searched pile, 0 = bottom
    DEC_LOBSTER    the index of the card kept among the revealed deck cards, 0 = top
    DEC_VICTIM     the seat to steal from

DEC_START is a round state at the start of the current player's turn that has not been run
yet; DEC_DONE a round that is over.
"""
import numpy as np

from .cards import PAIR_KINDS, PAIRS

(DEC_START, DEC_DRAW, DEC_KEEP, DEC_PLAY, DEC_CRAB_PILE, DEC_CRAB_CARD, DEC_LOBSTER,
 DEC_VICTIM, DEC_DONE) = range(9)
DEC_NAMES = ("start", "draw", "keep", "play", "crab_pile", "crab_card", "lobster", "victim",
             "done")

# Stages of a round, what the engine runs next after an action (kernels.engine.act): the start
# of a turn, its draw step, its play step, its end; PH_DECIDE: a decision point (DEC), which
# the seat's bot answers (engine.answer); PH_STOP: an external seat's decision or the end.
PH_STOP, PH_TURN, PH_DRAW, PH_PLAY, PH_END, PH_DECIDE = range(6)

# Draw sources.
SRC_DECK, SRC_PILE_A, SRC_PILE_B = 0, 1, 2

# Play-step actions. A trio is the pair's action plus TRIO (a starfish joins, no effect).
A_END, A_FISH, A_CRAB, A_LOBSTER, A_STEAL, A_LOCK, A_BOAT, A_STOP, A_LAST_CHANCE = range(9)
TRIO = 16
PAIR_ACTIONS = (A_FISH, A_CRAB, A_LOBSTER, A_STEAL, A_LOCK, A_BOAT)   # kernels.cards PAIRS order
PAIR_NAMES = {a: effect for a, (effect, _k1, _k2) in zip(PAIR_ACTIONS, PAIRS)}

# The kinds of each pair action (kernels.cards PAIRS, the one table of pair legality), as arrays
# for the kernels.
PAIR_KIND1 = np.zeros(A_BOAT + 1, dtype=np.uint8)   # uint8: see state.KIND_OF
PAIR_KIND2 = np.zeros(A_BOAT + 1, dtype=np.uint8)
for _a, (_k1, _k2) in zip(PAIR_ACTIONS, PAIR_KINDS):
    PAIR_KIND1[_a], PAIR_KIND2[_a] = _k1, _k2

# Copies in a play action: card type + 1 in bytes 1, 2 and 3 (0: the first copy in "The cards"
# order).
COPY_SHIFT1, COPY_SHIFT2, COPY_SHIFT3 = 8, 16, 24
BASE_MASK = 0xFF


def pair_action(action: int, t1: int, t2: int, starfish: int = -1) -> int:
    """A play action naming its copies: pair types t1, t2 and, for a trio, the starfish type."""
    out = action | ((t1 + 1) << COPY_SHIFT1) | ((t2 + 1) << COPY_SHIFT2)
    if starfish >= 0:
        out |= (starfish + 1) << COPY_SHIFT3
    return out
