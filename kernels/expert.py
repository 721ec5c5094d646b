"""EXPERT: a fast player distilled from the search player (docs/expert.md).

At every decision point it scores each legal action (legal_actions without copies) with a
linear function of features of that action, read from its seat's parameter row `w` (the
policy's weights: analyzer.rules.expert loads them from the package's weights file), and
takes the best (ties: the first listed). The features see what its seat may see (docs/rules.md,
Hidden information): its own hand, the tables, hand sizes, the piles (remembered, as the
baseline's crab pick), the deck's size and the cards it has just drawn or revealed.

Blocks of weights (offsets below):
- CARD: what a card is worth to the player when it takes one (a pile top, a kept card, a
  crab's or a lobster's pick): its card-point gain, mermaid and colour terms, the pairs it
  completes, collections and multipliers, each also against the player's points and the deck;
- DECK: drawing two from the deck instead of taking a pile top, against the situation;
- PILE: taking a pile top (beside the card's worth): the pile's size;
- GIVE: the card left for the others when keeping one of two (and the pile it covers);
- PLAY: one row per play-step action type (end the turn, each pair, STOP, LAST CHANCE) over
  the situation: points (and bins of them), the lead over the tables the player can see,
  the opponents' hand sizes, the deck, a final turn, the player count;
- VICTIM: whom to steal from.

Being linear in its weights, an action's features are its scores under unit weights
(`features`): the training data and the player read one function.
"""
import numpy as np

from .actions import (A_LAST_CHANCE, A_STOP, BASE_MASK, DEC_CRAB_CARD, DEC_CRAB_PILE, DEC_DRAW,
                      DEC_KEEP, DEC_LOBSTER, DEC_PLAY, SRC_DECK, TRIO)
from .cards import (BOAT, CRAB, FISH, IS_DUO_KIND, KIND_CATEGORY, LOBSTER, MAX_DECK, MERMAID,
                    NKINDS, SEAHORSE, STARFISH, TYPE_COLOUR, TYPE_KIND)
from .jit import kernel
from .legal import current, legal_actions
from .policy_slots import (BLOCKS, E_SIZE, N_CARD, N_CTX, N_DECK, N_GIVE,  # noqa: F401
                           N_PILE, N_PLAY_TYPES, N_VICTIM, W_CARD, W_DECK, W_GIVE, W_PILE,
                           W_PLAY, W_TRIO, W_VICTIM)
from .scoring import MULT_PARTNER, colour_bonus, gain, held_pairs, points
from .state import (AK, COL, CRAB_PILE, CSTRIDE, DEC, DECK, DECK_LEN, DECL, DECL_LAST_CHANCE,
                    HK, HLEN, LEGAL, NPAIRS, NPLAYERS, PILE, PILE_LEN, TURNS)

# Per kind: 1 collector, 2 multiplier, 0 otherwise.
KIND_ROLE = np.array([1 if c == "collector" else 2 if c == "multiplier" else 0
                      for c in KIND_CATEGORY], dtype=np.int64)
# Generic worth of a card to anyone (what leaving it to the others gives away): mermaid 3,
# multiplier and collector 2, other 1.
STATIC_WORTH = np.array([3 if k == MERMAID else 2 if KIND_ROLE[k] else 1
                         for k in range(NKINDS)], dtype=np.int64)


@kernel(forceinline=True)
def _table_points(s, q):
    """Card points anyone can see on q's table: 1 per pair or trio, 2 per starfish there."""
    return s[NPAIRS + q] + 2 * (s[AK + q * NKINDS + STARFISH] - s[HK + q * NKINDS + STARFISH])


@kernel(forceinline=True)
def card_score(s, p, t, w, pts, cb, held):
    """What card type t is worth to p taking it (the CARD block of `w`); pts, cb, held: p's card
    points, colour bonus and held pairs now (computed once per decision)."""
    k = TYPE_KIND[t]
    g = float(gain(s, p, t))
    col = s[COL + p * CSTRIDE + TYPE_COLOUR[t]] + 1
    pairs = held_pairs(s, p, k) - held
    v = w[W_CARD] * g + w[W_CARD + 1] * g * (pts >= 7) + w[W_CARD + 2] * g * s[DECK_LEN] / 30.0
    if k == MERMAID:
        v += w[W_CARD + 3] + w[W_CARD + 4] * s[AK + p * NKINDS + MERMAID]
    if col > cb:
        v += w[W_CARD + 5]
    v += w[W_CARD + 6] * col / 10.0
    if pairs > 0:
        if k == FISH:
            v += w[W_CARD + 7]
        elif k == CRAB and s[HK + p * NKINDS + CRAB] % 2 == 1:
            v += w[W_CARD + 8]                      # two crabs
        elif k == CRAB or k == LOBSTER:
            v += w[W_CARD + 9]                      # crab and lobster
        elif k == BOAT:
            v += w[W_CARD + 10]
        else:
            v += w[W_CARD + 11]                     # swimmer, shark, jellyfish
    elif IS_DUO_KIND[k]:
        v += w[W_CARD + 12]                         # a duo card that pairs with nothing yet
    role = KIND_ROLE[k]
    if role == 1:
        v += w[W_CARD + 13] * (s[AK + p * NKINDS + k] + 1) / 5.0
    elif role == 2 and s[AK + p * NKINDS + MULT_PARTNER[k]] == 0:
        v += w[W_CARD + 14]                         # a multiplier with nothing to multiply yet
    if k == STARFISH or k == SEAHORSE:
        v += w[W_CARD + 15]
    return v


@kernel(forceinline=True)
def _top(s, j):
    return s[PILE + j * MAX_DECK + s[PILE_LEN + j] - 1]


@kernel(forceinline=True)
def draw_score(s, p, a, w, pts, cb, held):
    """Drawing two from the deck (a = SRC_DECK) or taking the top of pile a - 1."""
    if a != SRC_DECK:
        j = a - 1
        return (card_score(s, p, _top(s, j), w, pts, cb, held) + w[W_PILE]
                + w[W_PILE + 1] * s[PILE_LEN + j] / 10.0)
    return (w[W_DECK] + w[W_DECK + 1] * pts / 10.0 + w[W_DECK + 2] * s[DECK_LEN] / 30.0
            + w[W_DECK + 3] * s[HLEN + p] / 10.0 + w[W_DECK + 4] * s[AK + p * NKINDS + MERMAID]
            + w[W_DECK + 5] * cb / 10.0 + w[W_DECK + 6] * (pts >= 7)
            + w[W_DECK + 7] * (s[NPLAYERS] - 2))


@kernel(forceinline=True)
def give_score(s, p, other, j, w):
    """The GIVE block: card type `other` left on pile j when keeping the other drawn card."""
    ko = TYPE_KIND[other]
    v = w[W_GIVE] * (ko == MERMAID) + w[W_GIVE + 1] * STATIC_WORTH[ko]
    v += w[W_GIVE + 2] * gain(s, p, other)
    m = s[PILE_LEN + j]
    if m > 0:
        top = _top(s, j)
        v += w[W_GIVE + 3] * gain(s, p, top) + w[W_GIVE + 4] * (TYPE_KIND[top] == MERMAID)
    return v + w[W_GIVE + 5] * m / 10.0


@kernel(forceinline=True)
def keep_score(s, p, a, w, pts, cb, held):
    """Keep card a & 1 of the two drawn (0: the first), the other onto pile a >> 1."""
    n = s[DECK_LEN]
    kept = s[DECK + n - 1 - (a & 1)]
    other = s[DECK + n - 2 + (a & 1)]
    return card_score(s, p, kept, w, pts, cb, held) + give_score(s, p, other, a >> 1, w)


@kernel(forceinline=True)
def play_type(a):
    """The PLAY row of a play-step action: 0 end, 1-6 the pairs (A_FISH .. A_BOAT), 7 STOP,
    8 LAST CHANCE."""
    b = a & BASE_MASK
    if b >= TRIO:
        b -= TRIO
    if b == A_STOP:
        return 7
    if b == A_LAST_CHANCE:
        return 8
    return b                                  # A_END = 0, A_FISH .. A_BOAT = 1 .. 6


@kernel(forceinline=True)
def play_context(s, p, pts, cb):
    """The situation the PLAY rows weigh (N_CTX values, the first the constant 1)."""
    n = s[NPLAYERS]
    best_table = 0
    most_cards = 0
    cards = 0
    for i in range(1, n):
        q = (p + i) % n
        best_table = max(best_table, _table_points(s, q))
        most_cards = max(most_cards, s[HLEN + q])
        cards += s[HLEN + q]
    return (1.0, pts / 10.0, 1.0 * (pts == 7), 1.0 * (pts == 8), 1.0 * (pts == 9),
            1.0 * (pts >= 10), (pts - best_table) / 10.0, most_cards / 10.0, cards / 10.0,
            s[DECK_LEN] / 30.0, s[HLEN + p] / 10.0, cb / 10.0,
            1.0 * (s[DECL] == DECL_LAST_CHANCE), 1.0 * (n == 3), 1.0 * (n == 4), s[TURNS] / 20.0)


@kernel(forceinline=True)
def play_score(a, w, ctx):
    """A play-step action: its row of the PLAY block over the situation `ctx` (play_context)."""
    r = W_PLAY + play_type(a) * N_CTX
    v = 0.0
    for i in range(N_CTX):
        v += w[r + i] * ctx[i]
    if (a & BASE_MASK) >= TRIO:
        v += w[W_TRIO]
    return v


@kernel(forceinline=True)
def victim_score(s, p, q, w):
    n = s[NPLAYERS]
    return (w[W_VICTIM] * s[HLEN + q] / 10.0 + w[W_VICTIM + 1] * _table_points(s, q) / 10.0
            + w[W_VICTIM + 2] * (q == (p + 1) % n))


@kernel(forceinline=True)
def best_crab_card(s, p, j, w, pts, cb, held):
    """(index from the bottom, score) of the card of pile j the expert would take, tie nearest
    the top."""
    base = PILE + j * MAX_DECK
    best = -1
    best_v = -1e300
    for i in range(s[PILE_LEN + j] - 1, -1, -1):
        v = card_score(s, p, s[base + i], w, pts, cb, held)
        if v > best_v:
            best_v = v
            best = i
    return best, best_v


@kernel(forceinline=True)
def take_score(s, p, d, a, w, pts, cb, held):
    """The expert's score of legal action `a` at a decision `d` other than the play step (a
    crab search's pile by the best card in it), given p's points, colour bonus and held pairs."""
    if d == DEC_DRAW:
        return draw_score(s, p, a, w, pts, cb, held)
    if d == DEC_KEEP:
        return keep_score(s, p, a, w, pts, cb, held)
    if d == DEC_CRAB_CARD:
        return card_score(s, p, s[PILE + s[CRAB_PILE] * MAX_DECK + a], w, pts, cb, held)
    if d == DEC_CRAB_PILE:
        return best_crab_card(s, p, a, w, pts, cb, held)[1]
    if d == DEC_LOBSTER:
        return card_score(s, p, s[DECK + s[DECK_LEN] - 1 - a], w, pts, cb, held)
    return victim_score(s, p, a, w)


@kernel
def expert_action(s, w):
    """The expert's action at the current decision point of s, with weights `w` (its seat's
    parameter row): the legal action of highest score, ties to the first listed; a crab search
    names its pile and card at once (kernels.actions: 2 + pile + 2 * index). What every action
    shares (points, colour bonus, held pairs, the play step's situation) is read once."""
    p = current(s)
    d = s[DEC]
    n = legal_actions(s, False)
    best = s[LEGAL]
    best_v = -1e300
    pts = points(s, p)
    cb = colour_bonus(s, p)
    if d == DEC_PLAY:
        ctx = play_context(s, p, pts, cb)
        for i in range(n):
            a = s[LEGAL + i]
            v = play_score(a, w, ctx)
            if v > best_v:
                best_v = v
                best = a
        return best
    held = held_pairs(s, p, -1)
    for i in range(n):
        a = s[LEGAL + i]
        v = take_score(s, p, d, a, w, pts, cb, held)
        if v > best_v:
            best_v = v
            best = a
    if d == DEC_CRAB_PILE:
        return 2 + best + 2 * best_crab_card(s, p, best, w, pts, cb, held)[0]
    return best


@kernel
def action_score(s, p, a, w):
    """The expert's score of legal action `a` at the decision point of s (what expert_action
    compares; its features are this function's values under unit weights)."""
    pts = points(s, p)
    cb = colour_bonus(s, p)
    if s[DEC] == DEC_PLAY:
        return play_score(a, w, play_context(s, p, pts, cb))
    return take_score(s, p, s[DEC], a, w, pts, cb, held_pairs(s, p, -1))


@kernel
def features(s, p, a, unit, out):
    """out[i] = the score of action a under the i-th unit weight vector: the action's features
    (the score is linear in the weights). `unit` is scratch of E_SIZE floats."""
    for i in range(E_SIZE):
        unit[i] = 0.0
    for i in range(E_SIZE):
        unit[i] = 1.0
        out[i] = action_score(s, p, a, unit)
        unit[i] = 0.0
