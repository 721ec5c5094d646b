"""Compiled Seastead players: choosers called at the engine's decision points.

`choose(s, cp, p, kind, ob, n, pk, pp, rng, sc)` returns the index of one of the n option rows
of `ob` (fields per kind in layout.K_*). A decision with one option is never asked. Kinds
(analyzer.seastead.players owns names, parameters and defaults):

* P_RANDOM: uniform among the legal options.
* P_HEURISTIC: scores every option with the parameters pp[p] (layout.H_*) and takes the best
  (the first on a tie): the dive split (greedy, denial or weighted), build versus dive (the
  best build's score against `build_at`; a cheap specialist is spent first when it would
  dive), the location choice, and simple rules elsewhere.
* P_SCRIPT: plays the rows of the script `sc` (int32[1 + n, 6]: header row [rows used, first
  row that did not match]; rows (seat, kind, a, b, c, d), -99 matching any field) in order; a
  row that does not match a legal option is recorded in the header, and once the script is used
  up or broken the seat plays as the kind pp[p, H_FALLBACK].
* P_SEARCH: asked here only outside its searches, it plays its heuristic; its actions and
  splits are searched by the game driver (kernels.seastead.search, via search_batch.play_any).
* P_ASK: a script's fallback at the table (kernels.seastead.table): stops the game at the first
  decision after the script (`ask`), or branches a rollout there. The table's games and the
  engine's share one compiled game (a table's script is int32 too); `ask` is compiled once
  and only declared in it.
"""

from ..jit import kernel, once
from ..rng import below, next_u64
from . import layout as L
from .hidden import determinize

WILDCARD = -99


class Asked(Exception):
    """A P_ASK seat's decision after its script, in ASK_STOP mode: the game stops there, with the
    state `s` and the option rows `ob` as they are and the script header holding (rows used,
    error, mode, seat, kind, option count)."""


@kernel(inline="always")
def script_pick(p, kind, ob, n, sc):
    """The option matching the script's next row, or -1 (script over, or an error recorded)."""
    if sc.shape[0] == 0 or sc[0, 1] != 0:
        return -1
    row = sc[0, 0] + 1
    if row >= sc.shape[0]:
        return -1
    if sc[row, 0] != p or sc[row, 1] != kind:
        sc[0, 1] = row
        return -1
    for i in range(n):
        ok = True
        for j in range(4):
            if sc[row, 2 + j] != WILDCARD and sc[row, 2 + j] != ob[i, j]:
                ok = False
        if ok:
            sc[0, 0] = row
            return i
    sc[0, 1] = row
    return -1


@kernel
def empty_at(s, f):
    """Locations without a building on tile f."""
    n = 0
    for i in range(L.NL):
        if s[L.LOC_OWN + f * L.NL + i] < 0:
            n += 1
    return n


@kernel
def worth(s, cp, p, r, pp):
    """What one resource r is worth to p: 1, plus demand_weight if the tile demanding it has an
    empty location, plus dock_weight while p's dock tiles of r can still score more."""
    v = 1.0
    for f in range(L.NF):
        if s[L.DEMAND + f] == r and empty_at(s, f) > 0:
            v += pp[p, L.H_DEMAND_W]
    cap = 0
    for i in range(L.NF * L.MAX_SLOTS):
        tile = s[L.SLOT_TILE + i]
        if tile >= 0 and s[L.SLOT_OWN + i] == p and cp[L.DK_RES + tile] == r:
            cap += cp[L.SU_DOCK_MAX]
    if s[L.RES + p * L.NRES + r] < cap:
        v += pp[p, L.H_DOCK_W]
    return v


@kernel
def half_value(s, cp, p, card, h, pp):
    """Worth of half h of a dive card to p (an "any" icon is worth p's best resource)."""
    base = L.DV_HALF + (card * 2 + h) * 5
    v = 0.0
    best = 0.0
    for r in range(L.NRES):
        w = worth(s, cp, p, r, pp)
        v += w * cp[base + r]
        best = max(best, w)
    return v + best * cp[base + L.ANY]


@kernel(inline="always")
def half_count(cp, card, h):
    base = L.DV_HALF + (card * 2 + h) * 5
    n = 0
    for r in range(5):
        n += cp[base + r]
    return n


@kernel
def build_score(s, cp, p, t, loc, cost, pp):
    """The heuristic's value of building type t on loc for `cost` resources."""
    f = loc // L.NL
    pts = cp[L.FL_COST + (f * 2 + s[L.SIDE + f]) * L.NL + loc % L.NL]
    mode = int(pp[p, L.H_LOCATION])
    if mode == 0:
        v = 1.0 * pts                       # the most points
    elif mode == 1:
        v = 6.0 - cost                      # the cheapest
    else:
        v = pts - 0.5 * cost                # points for the price
    lid = L.LIST_LOC + (f * 2 + s[L.SIDE + f]) * L.NL + loc % L.NL
    v += pp[p, L.H_EFFECT_W] * cp[L.EF_LEN + lid]
    low = min(s[L.BUILT + p * 3], s[L.BUILT + p * 3 + 1], s[L.BUILT + p * 3 + 2])
    if s[L.BUILT + p * 3 + t] == low:
        v += 0.5                            # progresses a column
    return v


@kernel(inline="always")
def heuristic_action(s, cp, p, ob, n, pp):
    """The best build if it scores more than build_at; else a specialist it would spend at its
    first chance anyway (points <= spend_at), spent before the action since it may make a build
    legal or better; else the dive (row 0)."""
    best = 0
    best_v = pp[p, L.H_BUILD_AT]
    for i in range(n):
        if ob[i, 0] == L.ACT_BUILD:
            v = build_score(s, cp, p, ob[i, 1], ob[i, 2], ob[i, 3], pp)
            if v > best_v:
                best_v = v
                best = i
    if best > 0:
        return best
    for i in range(n):
        if ob[i, 0] == L.ACT_SPEND and cp[L.SP_PTS + ob[i, 1]] <= pp[p, L.H_SPEND_AT]:
            return i
    return 0


@kernel(inline="always")
def heuristic(s, cp, p, kind, ob, n, pp):
    if kind == L.K_ACTION:
        return heuristic_action(s, cp, p, ob, n, pp)
    best = 0
    best_v = -1e18
    for i in range(n):
        a, b, c, d = ob[i, 0], ob[i, 1], ob[i, 2], ob[i, 3]
        v = 0.0
        if kind == L.K_SPLIT:
            mine = half_value(s, cp, p, b, a, pp)
            if s[L.SOLO]:
                theirs = 1.0 * half_count(cp, b, 1 - a)
            else:
                theirs = half_value(s, cp, 1 - p, b, 1 - a, pp)
            mode = int(pp[p, L.H_SPLIT])
            if mode == 0:
                v = mine
            elif mode == 1:
                v = -theirs
            else:
                v = mine - pp[p, L.H_DENY] * theirs
        elif kind == L.K_WILD:
            v = worth(s, cp, p, a, pp) - 0.01 * s[L.RES + p * L.NRES + a]
        elif kind == L.K_DOCK:
            v = min(s[L.RES + p * L.NRES + cp[L.DK_RES + d]], cp[L.SU_DOCK_MAX]) + 0.1 * cp[L.DK_PTS + d]
        elif kind == L.K_SPEC:
            v = cp[L.SP_PTS + b]
        elif kind == L.K_SHIP:
            v = s[L.RES + p * L.NRES + s[L.DEMAND + a // L.NL]]
        elif kind == L.K_LOC_EFFECT:
            v = a
        elif kind == L.K_SPEND:
            if a < 0:
                v = 0.0
            else:
                v = 1.0 if cp[L.SP_PTS + a] <= pp[p, L.H_SPEND_AT] else -1.0
        elif kind == L.K_MOVE_SHIP:
            if a >= 0:
                v = (s[L.RES + p * L.NRES + s[L.DEMAND + b // L.NL]]
                     - s[L.RES + p * L.NRES + s[L.DEMAND + a // L.NL]] - 0.5)
        elif kind == L.K_MOVE_BUILDING:
            if a >= 0:
                fa, fb = a // L.NL, b // L.NL
                v = (cp[L.FL_COST + (fb * 2 + s[L.SIDE + fb]) * L.NL + b % L.NL]
                     - cp[L.FL_COST + (fa * 2 + s[L.SIDE + fa]) * L.NL + a % L.NL] - 0.5)
        elif kind == L.K_SWAP:
            if a >= 0:
                # p's reserve of the resource each tile would demand, weighted by its free room
                before = (empty_at(s, a) * s[L.RES + p * L.NRES + s[L.DEMAND + a]]
                          + empty_at(s, b) * s[L.RES + p * L.NRES + s[L.DEMAND + b]])
                after = (empty_at(s, a) * s[L.RES + p * L.NRES + s[L.DEMAND + b]]
                         + empty_at(s, b) * s[L.RES + p * L.NRES + s[L.DEMAND + a]])
                v = after - before - 0.5
        elif kind == L.K_REFRESH:
            v = cp[L.SP_PTS + a]
        elif kind == L.K_PORT_BONUS:
            v = c
        if v > best_v:
            best_v = v
            best = i
    return best


@once
@kernel
def ask(s, cp, kind, n, p, rng, sc):
    """A P_ASK seat's decision (layout.ASK_*): stop the game here, or branch a rollout here (the
    decks redealt with the stream rng[4:8], then the game's stream becomes 4 draws of it, as
    kernels.seastead.search.evaluate does at an action's start); -1: the seat plays its
    heuristic. Compiled once (`once`): the engine's libraries only declare it."""
    if sc.shape[0] == 0:
        return -1
    mode = sc[0, L.ASK_MODE]
    if mode == L.ASK_STOP:
        sc[0, 3] = p
        sc[0, 4] = kind
        sc[0, 5] = n
        raise Asked
    if mode == L.ASK_BRANCH:
        sc[0, L.ASK_MODE] = L.ASK_OFF
        branch = rng[4:8]
        determinize(s, cp, branch, 2 if kind == L.K_DECREE else 0)
        for k in range(4):
            rng[k] = next_u64(branch)
        return sc[0, L.ASK_ARG]
    return -1


@kernel
def choose(s, cp, p, kind, ob, n, pk, pp, rng, sc):
    """Index of the option seat p takes among the n rows of `ob` (see the module doc)."""
    if n <= 1:
        return 0
    k = pk[p]
    if k == L.P_SCRIPT:
        i = script_pick(p, kind, ob, n, sc)
        if i >= 0:
            return i
        k = int(pp[p, L.H_FALLBACK])
        if k == L.P_ASK:
            i = ask(s, cp, kind, n, p, rng, sc)
            if i >= 0:
                return i
            k = L.P_HEURISTIC
    if k == L.P_HEURISTIC or k == L.P_SEARCH:
        return heuristic(s, cp, p, kind, ob, n, pp)     # a search seat outside its searches
    return below(rng, n)
