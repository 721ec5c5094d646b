"""A round from a fresh shuffle, and a whole game (docs/rules.md, "A game"), compiled.

The thin layers over the engine (new_round, play_rounds, play_game, and engine.play_round) are
inlined into their callers at numba's IR level: each compiled function that links the engine
(kernels.engine.advance) re-optimizes it, so a layer that were its own function would cost a
whole engine's optimization for one call per round."""
from .cards import MAX_DECK, MERMAID, NKINDS
from .engine import play_round, reveal_top
from .events import DEAL, emit
from .jit import kernel
from .scoring import mermaid_total
from .statistics import GAME_ROUND_STATS
from .state import (AK, DECL, DECL_LAST_CHANCE, DECL_STOP, DECLARER, END, END_LC_WON,
                    END_MERMAIDS, END_VOID, ENDER, DECK_LEN, PILE, POINTS, SHUFFLED, TURNS,
                    flip_piles, load_deck)

# Round statistics that play_game adds into its `stats` array (int64[GS_SIZE]), offsets from
# the statistics catalogue (kernels.statistics GAME_ROUND_STATS; per seat where it says so).
_S = GAME_ROUND_STATS.at
GS_ROUNDS, GS_VOID, GS_TURNS, GS_SCORED = _S("rounds_played"), _S("void"), _S("turns_total"), \
    _S("scored")
GS_STOP, GS_LC, GS_LC_WON = _S("stop_calls"), _S("last_chance_calls"), _S("last_chance_won")
GS_MPTS, GS_MPTS_SQ = _S("mermaid_points"), _S("mermaid_points", "sq")
GS_MHELD = _S("rounds_with_mermaids")
GS_SIZE = GAME_ROUND_STATS.size


@kernel
def record_round(s, nplayers, stats):
    """Add the round just played in `s` to `stats` (see GS_*)."""
    stats[GS_ROUNDS] += 1
    stats[GS_TURNS] += s[TURNS]
    end = s[END]
    if end == END_VOID:
        stats[GS_VOID] += 1
    if s[DECL] == DECL_STOP:
        stats[GS_STOP + s[DECLARER]] += 1
    elif s[DECL] == DECL_LAST_CHANCE:
        stats[GS_LC + s[DECLARER]] += 1
        if end == END_LC_WON:
            stats[GS_LC_WON + s[DECLARER]] += 1
    if end != END_VOID and end != END_MERMAIDS:
        stats[GS_SCORED] += 1
        for q in range(nplayers):
            m = mermaid_total(s, q)
            stats[GS_MPTS + q] += m
            stats[GS_MPTS_SQ + q] += m * m
            if s[AK + q * NKINDS + MERMAID] > 0:
                stats[GS_MHELD + q] += 1


@kernel
def deal_round(s, nplayers, deck, starter, rng):
    """A fresh round of the cards of `deck` (any order; not modified), shuffled (lazily: the
    deck's order is drawn as cards are seen), piles A and B flipped, `starter` to play."""
    load_deck(s, nplayers, deck, starter)
    s[SHUFFLED] = 1
    reveal_top(s, 2, rng)
    flip_piles(s)


@kernel
def deal(s, nplayers, deck, starter, rng, tr):
    """deal_round, recorded in the trace `tr` as the round's first event (events.DEAL: the
    starter, the opening piles A and B, the deck's size), so a game is replayed from its one
    trace."""
    deal_round(s, nplayers, deck, starter, rng)
    emit(s, tr, DEAL, starter, s[PILE], s[PILE + MAX_DECK], s[DECK_LEN])


@kernel(inline="always")
def new_round(s, nplayers, deck, starter, pk, pp, rng, tr):
    """Deal a fresh round and play it (to its end with bots in every seat)."""
    deal(s, nplayers, deck, starter, rng, tr)
    return play_round(s, pk, pp, rng, tr)


@kernel
def settle_round(s, nplayers, target, totals, winners):
    """Add the round just played in `s` to the running totals (docs/rules.md, "A game"). Returns 0
    if the game goes on, 1 if a total reached the target (winners set: highest total, tie: most
    points in this round, still tied: shared), 2 if it ended on four mermaids (the holder wins)."""
    if s[END] == END_MERMAIDS:
        winners[s[ENDER]] = 1
        return 2
    best = -1
    for q in range(nplayers):
        totals[q] += s[POINTS + q]
        best = max(best, totals[q])
    if best < target:
        return 0
    best_round = -1
    for q in range(nplayers):
        if totals[q] == best:
            best_round = max(best_round, s[POINTS + q])
    for q in range(nplayers):
        if totals[q] == best and s[POINTS + q] == best_round:
            winners[q] = 1
    return 1


@kernel(inline="always")
def rounds_until_over(new, s, nplayers, deck, target, pk, pp, rng, tr, totals, winners, stats,
                      starter):
    """Play fresh rounds with `new` (new_round, or kernels.fastround.fast_round, which plays
    the same rounds for baseline seats and base-game cards) from `starter` on, adding to
    `totals`, until the game ends. Returns (rounds played, 1 if it ended on four mermaids)."""
    rounds = 0
    while True:
        new(s, nplayers, deck, starter, pk, pp, rng, tr)
        record_round(s, nplayers, stats)
        rounds += 1
        over = settle_round(s, nplayers, target, totals, winners)
        if over:
            return rounds, 1 if over == 2 else 0
        starter = (s[ENDER] + 1) % nplayers


@kernel(inline="always")
def play_rounds(s, nplayers, deck, target, pk, pp, rng, tr, totals, winners, stats, starter):
    """rounds_until_over with new_round."""
    return rounds_until_over(new_round, s, nplayers, deck, target, pk, pp, rng, tr, totals,
                             winners, stats, starter)


@kernel(inline="always")
def play_game(s, nplayers, deck, target, pk, pp, rng, tr, totals, winners, stats):
    """Play a game from zero (seat 0 starts) until a total reaches `target` or someone holds four
    mermaids. Writes final totals and a 0/1 winners mask (several 1s: a shared win) and adds
    every round to `stats` (GS_*). Returns (rounds played, 1 if it ended on four mermaids)."""
    return game_with(new_round, s, nplayers, deck, target, pk, pp, rng, tr, totals, winners,
                     stats)


@kernel(inline="always")
def game_with(new, s, nplayers, deck, target, pk, pp, rng, tr, totals, winners, stats):
    """play_game with the round function `new` (rounds_until_over)."""
    totals[:] = 0
    winners[:] = 0
    return rounds_until_over(new, s, nplayers, deck, target, pk, pp, rng, tr, totals, winners,
                             stats, 0)
