"""The Seastead search player: flat Monte Carlo over determinizations, valued by P(win).

At the start of each of its actions the searching seat lists the action's options (the dive,
the legal builds, the specialists it may spend first: engine.action_options), keeps the dive,
the spends and the `width` builds its heuristic scores best, and plays `rollouts` games to the
end from each kept option: the seat plays the option, then every seat plays the heuristic with
the searcher's parameters (its model of everyone). Each rollout first redeals what the seat
cannot see (determinize): the dive deck's order within each group's layer (the whole deck once
it has been reshuffled), the specialist, dock and decree decks. Every option is played on the
same redeals and random streams (common random numbers). The option with the most wins (a shared
win counts half) is played; the mean score margin breaks ties, then the option listed first.
Having chosen a dive, it sees the revealed card, as a player does, and searches the split the
same way (the rest of the deck redealt). Every other decision is its heuristic's.

The real game is driven here (play_searched, with the engine's turn steps): a searching seat
plays as a script player whose script holds the searched choices, its heuristic as the
fallback. No kernel here allocates: the caller passes the work arrays (search_batch.play_any).
"""
from ..jit import kernel
from ..rng import next_u64
from . import engine as E
from . import layout as L
from .hidden import determinize
from .players import build_score

SCRIPT_ROWS = 4                 # header, at most 2 searched choices, a closing row
SKIP = -9                       # a pruned option (cand[i, 0])
ST_DECISIONS, ST_ROLLOUTS, ST_ACTIONS = 0, 1, 2      # stats: searches, rollouts, actions


@kernel
def set_script(sc, n):
    """Rows 1..n of `sc` are its script (header: none used, no error); the rows after them name
    no seat, so a decision asked once they are used up ends the script (the fallback plays)."""
    sc[0, 0] = 0
    sc[0, 1] = 0
    for i in range(n + 1, sc.shape[0]):
        sc[i, 0] = -1
        sc[i, 1] = -1


@kernel
def script_row(sc, i, p, kind, a, b, c, d):
    sc[i, 0] = p
    sc[i, 1] = kind
    sc[i, 2] = a
    sc[i, 3] = b
    sc[i, 4] = c
    sc[i, 5] = d


@kernel(inline="always")
def put_on_top(s, card):
    """The dive card `card` back on top of the deck (it was there: the revealed card)."""
    top = s[L.DECK_LEN] - 1
    for i in range(s[L.DECK_LEN]):
        if s[L.DECK + i] == card:
            s[L.DECK + i] = s[L.DECK + top]
            s[L.DECK + top] = card
            return


@kernel(inline="always")
def result(s, p):
    """p's result of a scored game: 1 a win, 0.5 a shared win, 0 a loss."""
    if s[L.SOLO]:
        return 1.0 if s[L.WIN] else 0.0
    if s[L.WIN + p] and s[L.WIN + 1 - p]:
        return 0.5
    return 1.0 if s[L.WIN + p] else 0.0


@kernel(inline="always")
def margin(s, p):
    if s[L.SOLO]:
        return 1.0 * (s[L.TOTAL] - s[L.BOSS_SCORE])
    return 1.0 * (s[L.TOTAL + p] - s[L.TOTAL + 1 - p])


@kernel(inline="always")
def finish(s, cp, p, pk, pp, rng, tr, sc, ob):
    """From the start of one of p's actions to the end of the game, scored: the action, p's
    extra actions, the round's later seats, the rounds left."""
    E.one_action(s, cp, p, pk, pp, rng, tr, sc, ob)
    while E.another_action(s, p):
        E.one_action(s, cp, p, pk, pp, rng, tr, sc, ob)
    s[L.EXTRA + p] = 0
    for q in range(p + 1, s[L.PLAYERS]):
        E.take_turn(s, cp, q, pk, pp, rng, tr, sc, ob)
    if E.last_round_done(s):
        s[L.OVER] = 1
        E.final_score(s, cp, tr)
    else:
        E.play_on(s, cp, pk, pp, rng, tr, sc, ob, -1)


@kernel
def evaluate(s, cp, p, kind, nfirst, m, top, rounds, pk, pp, rng, w0, w1, cand, val, scr, r0,
             r1, ob, trn, stats):
    """val[i] = (wins, margin sum) of option row i < m of `cand` (SKIP rows left out) over
    `rounds` redeals of `s`: the rollout's script is scr's rows 1..nfirst (set by the caller),
    then (p, kind, cand[i]). top >= 0: that dive card stays on top of the redealt deck."""
    for i in range(m):
        val[i, 0] = 0.0
        val[i, 1] = 0.0
    for _ in range(rounds):
        for k in range(L.STATE_SIZE):
            w0[k] = s[k]
        determinize(w0, cp, rng, 0)
        if top >= 0:
            put_on_top(w0, top)
        for k in range(4):
            r0[k] = next_u64(rng)
        for i in range(m):
            if cand[i, 0] == SKIP:
                continue
            for k in range(L.STATE_SIZE):
                w1[k] = w0[k]
            for k in range(4):
                r1[k] = r0[k]
            set_script(scr, nfirst + 1)
            script_row(scr, nfirst + 1, p, kind, cand[i, 0], cand[i, 1], cand[i, 2], cand[i, 3])
            finish(w1, cp, p, pk, pp, r1, trn, scr, ob)
            val[i, 0] += result(w1, p)
            val[i, 1] += margin(w1, p)
            stats[ST_ROLLOUTS] += 1
    stats[ST_DECISIONS] += 1


@kernel
def best(cand, val, m):
    """The kept row with the most wins; then the larger margin; then the first."""
    b = -1
    for i in range(m):
        if cand[i, 0] == SKIP:
            continue
        if b < 0 or val[i, 0] > val[b, 0] or (val[i, 0] == val[b, 0] and val[i, 1] > val[b, 1]):
            b = i
    return b


@kernel(inline="always")
def prune(s, cp, p, pp, cand, val, n, width):
    """Mark as SKIP the builds among the n action options beyond the `width` its heuristic
    scores best (the first listed on a tie); the dive and the spends stay."""
    for i in range(n):
        if cand[i, 0] == L.ACT_BUILD:
            val[i, 1] = build_score(s, cp, p, cand[i, 1], cand[i, 2], cand[i, 3], pp)
    for i in range(n):
        if cand[i, 0] != L.ACT_BUILD:
            continue
        above = 0
        for j in range(n):
            if cand[j, 0] == L.ACT_BUILD and (val[j, 1] > val[i, 1]
                                               or (val[j, 1] == val[i, 1] and j < i)):
                above += 1
        val[i, 0] = 1.0 if above < width else 0.0
    for i in range(n):
        if cand[i, 0] == L.ACT_BUILD and val[i, 0] == 0.0:
            cand[i, 0] = SKIP


@kernel(inline="always")
def searched_action(s, cp, p, pk, pp, rng, tr, sc, ob, pkr, ppr, w0, w1, cand, val, scr, r0,
                    r1, ob2, trn, stats):
    """One action of searching seat p: plan it into the game's script `sc`, play it."""
    plan(s, cp, p, pp, rng, sc, pkr, ppr, w0, w1, cand, val, scr, r0, r1, ob2, trn, stats)
    E.one_action(s, cp, p, pk, pp, rng, tr, sc, ob)


@kernel(inline="always")
def plan(s, cp, p, pp, rng, sc, pkr, ppr, w0, w1, cand, val, scr, r0, r1, ob2, trn, stats):
    """Search the action of seat p (if there is a choice), then the split of a dive (with the
    card that will be revealed: the seat sees it before choosing); write them as the script
    `sc` (rows (p, kind, option)); returns the number of rows. `s` is not changed."""
    for q in range(2):
        for k in range(L.MAX_PARAMS):
            ppr[q, k] = pp[p, k]                # p's heuristic is its model of every seat
        ppr[q, L.H_FALLBACK] = L.P_HEURISTIC
    rounds = int(pp[p, L.S_ROLLOUTS])
    n = E.action_options(s, cp, p, cand)
    a, b, c, d = L.ACT_DIVE, 0, 0, 0
    rows = 0
    if n > 1:
        prune(s, cp, p, pp, cand, val, n, int(pp[p, L.S_WIDTH]))
        set_script(scr, 0)
        evaluate(s, cp, p, L.K_ACTION, 0, n, -1, rounds, pkr, ppr, rng, w0, w1, cand, val, scr,
                 r0, r1, ob2, trn, stats)
        i = best(cand, val, n)
        a, b, c, d = cand[i, 0], cand[i, 1], cand[i, 2], cand[i, 3]
        rows = 1
        script_row(sc, 1, p, L.K_ACTION, a, b, c, d)
    if a == L.ACT_DIVE and s[L.DECK_LEN] > 0:
        top = s[L.DECK + s[L.DECK_LEN] - 1]     # revealed before the split is chosen
        set_script(scr, rows)
        if rows:
            script_row(scr, 1, p, L.K_ACTION, a, b, c, d)
        cand[0, 0], cand[0, 1], cand[0, 2], cand[0, 3] = 0, top, 0, 0
        cand[1, 0], cand[1, 1], cand[1, 2], cand[1, 3] = 1, top, 0, 0
        evaluate(s, cp, p, L.K_SPLIT, rows, 2, top, rounds, pkr, ppr, rng, w0, w1, cand, val,
                 scr, r0, r1, ob2, trn, stats)
        h = best(cand, val, 2)
        rows += 1
        script_row(sc, rows, p, L.K_SPLIT, h, top, 0, 0)
    set_script(sc, rows)
    stats[ST_ACTIONS] += 1
    return rows


@kernel(inline="always")
def play_searched(s, cp, cfg, kinds, pk, pp, rng, tr, sc, ob, pkr, ppr, w0, w1, cand, val, scr,
                  r0, r1, ob2, trn, stats):
    """A whole game in which the seats whose given kind (`kinds`) is P_SEARCH search their
    actions and splits. pk: the game's kinds (a searching seat is a script player), pkr: the
    rollouts' (every seat a script player, the searched rows matching only the searcher); pp:
    every seat's parameters, a searching seat's heuristic slots and S_*, H_FALLBACK heuristic.
    Rounds and turns as engine.play_on and engine.take_turn play them."""
    set_script(sc, 0)
    E.setup(s, cp, cfg, pk, pp, rng, tr, sc, ob)
    for _ in range(L.MAX_ROUNDS):
        E.begin_round(s, cp, tr)
        for p in range(s[L.PLAYERS]):
            if kinds[p] != L.P_SEARCH:
                E.take_turn(s, cp, p, pk, pp, rng, tr, sc, ob)
                continue
            E.begin_turn(s, p)
            searched_action(s, cp, p, pk, pp, rng, tr, sc, ob, pkr, ppr, w0, w1, cand, val, scr,
                            r0, r1, ob2, trn, stats)
            while E.another_action(s, p):
                searched_action(s, cp, p, pk, pp, rng, tr, sc, ob, pkr, ppr, w0, w1, cand, val,
                                scr, r0, r1, ob2, trn, stats)
            s[L.EXTRA + p] = 0
        if E.last_round_done(s):
            break
    s[L.OVER] = 1
    E.final_score(s, cp, tr)
