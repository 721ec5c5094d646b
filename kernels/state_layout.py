"""The round state's layout: the offsets of kernels/state.py's flat int32 array, its
declaration and round-end codes. Plain numbers, nothing compiled: the statistics' catalogue, the
tables and the checks of a command's options read them without loading the engine."""
import numpy as np

from .actions import A_BOAT
from .cards import MAX_DECK, NKINDS, NTYPES, TYPE_COLOUR, TYPE_KIND

MAX_PLAYERS = 4
UNSEEN = -1       # in a seat's view: a pile or deck slot whose card the seat does not know

# Declarations and round ends.
DECL_NONE, DECL_STOP, DECL_LAST_CHANCE = 0, 1, 2
END_NONE, END_STOP, END_LC_WON, END_LC_LOST, END_VOID, END_MERMAIDS = 0, 1, 2, 3, 4, 5
END_NAMES = ("none", "stop", "last_chance_won", "last_chance_lost", "void", "mermaids")

# Scalars.
NPLAYERS = 0      # players in the round
CUR = 1           # the player whose turn it is
DECK_LEN = 2      # cards in the deck
PILE_LEN = 3      # 2 entries: cards in pile A, pile B
DECL = 5          # DECL_* of this round
DECLARER = 6      # seat of the declarer, -1 if none
DECL_POINTS = 7   # declarer's card points when declaring
LOCK = 8          # seat of the caster of an active jellyfish lock, -1 if none
END = 9           # END_* once the round is over
ENDER = 10        # seat whose turn ended the round (declarer, void emptier, mermaid holder)
TURNS = 11        # whole turns taken this round (boat extra turns are part of a turn)
DEC = 12          # the decision the current player faces (kernels.actions.DEC_*)
STARTER = 13      # seat that started the round
SHUFFLED = 14     # 1: the deck's order is unknown, each draw takes a uniformly random card
CRAB_PILE = 15    # the pile being searched at DEC_CRAB_CARD
NSCALARS = 16

# Colour counts are stored 16 to a player (11 used, the rest stay 0) so that loops over them
# are one vector operation. GX[p][x] is the number of p's colours holding more than x cards
# (no colour holds 16): the sum of the m largest colour counts is sum_x min(m, GX[x]), and one
# more card of colour c raises it exactly when GX[count(c)] < m (PERFORMANCE_NOTES' G[x]).
CSTRIDE = 16

# Arrays (offsets into the flat state).
DECK = NSCALARS                           # MAX_DECK type ids, top = DECK[DECK_LEN - 1]
PILE = DECK + MAX_DECK                    # 2 stacks of MAX_DECK, top = last
HT = PILE + 2 * MAX_DECK                  # hand counts by type   [player][type]
TT = HT + MAX_PLAYERS * NTYPES            # table counts by type  [player][type]
HK = TT + MAX_PLAYERS * NTYPES            # hand counts by kind   [player][kind]
AK = HK + MAX_PLAYERS * NKINDS            # hand+table by kind    [player][kind]
COL = AK + MAX_PLAYERS * NKINDS           # hand+table by colour  [player][CSTRIDE]
GX = COL + MAX_PLAYERS * CSTRIDE          # colours holding more than x cards [player][x < CSTRIDE]
HLEN = GX + MAX_PLAYERS * CSTRIDE         # hand size             [player]
NPAIRS = HLEN + MAX_PLAYERS               # pairs and trios on the table [player]
REVEALED = NPAIRS + MAX_PLAYERS           # hand revealed (LAST CHANCE)  [player]
POINTS = REVEALED + MAX_PLAYERS           # round points scored   [player]
PTS = POINTS + MAX_PLAYERS                # current card points, cached [player]
PLAYED = PTS + MAX_PLAYERS                # pairs played this round by action (actions.A_*),
                                          # trios at index TRIO_SLOT
TRIO_SLOT = A_BOAT + 1                    # after the last pair action
PLAYED_WIDTH = TRIO_SLOT + 1
STATE_CORE = PLAYED + PLAYED_WIDTH        # the round itself ends here; what follows is scratch
LEGAL = STATE_CORE                        # legal actions written by engine.legal_actions
MAX_LEGAL = 384                           # more than any position can have (327 with every copy)
STATE_SIZE = LEGAL + MAX_LEGAL

# Kind and colour of each type for compiled code, as uint8: LLVM then knows a kind or colour
# read from them is small and non-negative, so indices built from it need no negative-index
# wraparound (an llvm.assume on a value loaded from a constant table is folded away too early).
KIND_OF = TYPE_KIND.astype(np.uint8)
COLOUR_OF = TYPE_COLOUR.astype(np.uint8)
