"""Policy kinds and where each policy's parameters sit in a seat's row of `pp`: one source for
the kernels that read them and the registry that names them (analyzer.rules.policies). Plain
integers, nothing compiled, so that listing the players or rejecting a bad one starts at once."""

# Kinds (a seat's entry of `pk`). A new compiled bot takes the next free number.
BASELINE = 0
THRESHOLD = 1     # kernels.heuristics
RANDOM = 2
SEARCH = 3        # external: the engine stops at its decision points (kernels.search)
EXTERNAL = 4      # external: a seat played from outside the kernels (analyzer.play.decisions)
EXPERT = 5        # kernels.expert: the player distilled from the search, its weights in pp
# The kinds the engine stops for instead of asking a chooser (kernels.policies.IS_EXTERNAL).
EXTERNAL_KINDS = (SEARCH, EXTERNAL)

# Baseline.
STOP_AT, LAST_CHANCE_AT = 0, 1

# Threshold (kernels.heuristics); its first two slots are the baseline's.
(T_STOP_AT, T_LAST_CHANCE_AT, T_LC_MARGIN, T_HAND_VALUE, T_LC_MAX_PLAYERS, T_LC_MIN_DECK,
 T_TAKE_AT, T_MERMAID_BONUS, T_COLOUR_WEIGHT, T_PLAY_FISH, T_PLAY_CRAB, T_PLAY_LOBSTER,
 T_PLAY_STEAL, T_PLAY_LOCK, T_PLAY_BOAT, T_STEAL_FROM, T_BURY) = range(17)

# Search (kernels.search). The rollout knobs are turned into the rollout players' own arrays
# (rpk / rpp) by analyzer.rules.policies.rollout_arrays.
S_SAMPLES, S_CONFIDENCE, S_CONTINUATIONS = 0, 1, 2
S_ROLLOUT_STOP_AT, S_ROLLOUT_LC_AT, S_MODEL_STOP_AT, S_MODEL_LC_AT = 3, 4, 5, 6
S_READ, S_TREMBLE = 7, 8        # hand reading (kernels.reading): on/off, the model's tremble
DEFAULT_TREMBLE = 0.05          # the reading model's tremble unless one is given
MIN_TREMBLE = 0.001
S_ROLLOUT_EXPERT, S_MODEL_EXPERT = 9, 10    # the expert as its rollout player / opponents' model

# Expert (kernels.expert): its weight blocks, in order.
N_CARD = 16
N_DECK = 8
N_PILE = 2
N_GIVE = 6
N_CTX = 16
N_PLAY_TYPES = 9             # end, the six pairs, STOP, LAST CHANCE
N_VICTIM = 3
W_CARD = 0
W_DECK = W_CARD + N_CARD
W_PILE = W_DECK + N_DECK
W_GIVE = W_PILE + N_PILE
W_PLAY = W_GIVE + N_GIVE
W_TRIO = W_PLAY + N_PLAY_TYPES * N_CTX
W_VICTIM = W_TRIO + 1
E_SIZE = W_VICTIM + N_VICTIM  # weights of one expert seat
# Block names and sizes, in weight order (for the weights file and the docs).
BLOCKS = (("card", N_CARD), ("deck", N_DECK), ("pile", N_PILE), ("give", N_GIVE),
          ("play", N_PLAY_TYPES * N_CTX), ("trio", 1), ("victim", N_VICTIM))

MAX_PARAMS = max(20, E_SIZE)   # parameter slots per seat, enough for every registered policy
