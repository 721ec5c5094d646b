"""A round from a fresh shuffle, and a whole game (RULES.md §8), compiled."""
from .jit import kernel

from .engine import play_round
from .engine import reveal_top
from .state import END_MERMAIDS, ENDER, POINTS, SHUFFLED, flip_piles, load_deck


@kernel
def new_round(s, nplayers, deck, starter, pk, pp, rng, tr):
    """Deal the cards of `deck` (any order; not modified) shuffled, and play one round."""
    load_deck(s, nplayers, deck, starter)
    s[SHUFFLED] = 1
    reveal_top(s, 2, rng)
    flip_piles(s)
    return play_round(s, pk, pp, rng, tr)


@kernel
def play_game(s, nplayers, deck, target, pk, pp, rng, tr, totals, winners):
    """Play rounds until a total reaches `target` or someone holds four mermaids.

    Writes final totals and a 0/1 winners mask (several 1s: a shared win). Returns
    (rounds played, 1 if the game ended on four mermaids else 0).
    """
    totals[:] = 0
    winners[:] = 0
    starter = 0
    rounds = 0
    while True:
        end = new_round(s, nplayers, deck, starter, pk, pp, rng, tr)
        rounds += 1
        if end == END_MERMAIDS:
            winners[s[ENDER]] = 1
            return rounds, 1
        best = -1
        for q in range(nplayers):
            totals[q] += s[POINTS + q]
            best = max(best, totals[q])
        if best >= target:
            # Highest total; tie: most points in this final round; still tied: shared.
            best_round = -1
            for q in range(nplayers):
                if totals[q] == best:
                    best_round = max(best_round, s[POINTS + q])
            for q in range(nplayers):
                if totals[q] == best and s[POINTS + q] == best_round:
                    winners[q] = 1
            return rounds, 0
        starter = (s[ENDER] + 1) % nplayers
