"""Seastead's board, compiled: the small helpers every rule uses (events, the components' tables,
the option buffer), resources and cleanup tokens, and the ships (docs/seastead-rules.md). The
rules built on them are in kernels.seastead.effects and kernels.seastead.engine; the conventions
(`s`, `cp`, `ob`, `pk`, `pp`, `rng`, `tr`, `sc`) are kernels.seastead.engine's."""
from ..jit import kernel, word
from . import layout as L
from .invariants import state_errors
from .players import choose


# ---------------------------------------------------------------------------------------------
# small helpers

@kernel(inline="always")
def emit(s, cp, tr, code, p, a, b, c):
    """Append one event (code, player, a, b, c) to `tr` (_emit with plain int64 fields: one
    compiled version for every call site, not one per mix of integer types and constants)."""
    _emit(s, cp, tr, word(code), word(p), word(a), word(b), word(c))


@kernel
def _emit(s, cp, tr, code, p, a, b, c):
    """emit(); in check mode (tr[0, 1] == 1) also check the state's invariants, keeping the
    first error code and its event number."""
    if tr.shape[0] == 0:
        return
    if tr[0, 1] == 1 and tr[0, 2] == 0:
        err = state_errors(s, cp)
        if err != 0:
            tr[0, 2] = err
            tr[0, 3] = tr[0, 0] + 1
    n = tr[0, 0] + 1
    if n < tr.shape[0]:
        tr[n, 0] = code
        tr[n, 1] = p
        tr[n, 2] = a
        tr[n, 3] = b
        tr[n, 4] = c
    tr[0, 0] = n


@kernel
def side_base(s, f):
    """Index of tile f's face-up side in the [tile][side] component tables."""
    return f * 2 + s[L.SIDE + f]


@kernel
def loc_cost(s, cp, loc):
    """The printed value of a location: its cost and its points."""
    return cp[L.FL_COST + side_base(s, loc // L.NL) * L.NL + loc % L.NL]


@kernel(inline="always")
def loc_list(s, loc):
    return L.LIST_LOC + side_base(s, loc // L.NL) * L.NL + loc % L.NL


@kernel
def slot_loc(s, cp, f, k, j):
    """Location under section j of dock slot k of tile f (-1: none)."""
    v = cp[L.FL_SLOT + (side_base(s, f) * L.MAX_SLOTS + k) * 4 + j]
    return -1 if v < 0 else f * L.NL + v


@kernel(inline="always")
def flotilla_of(s, r):
    """The tile whose demand token asks for resource r."""
    for f in range(L.NF):
        if s[L.DEMAND + f] == r:
            return f
    return -1


@kernel(inline="always")
def opt(ob, n, a, b, c, d):
    """Write option row n; returns n + 1 (_opt with plain int64s: one compiled version)."""
    return _opt(ob, word(n), word(a), word(b), word(c), word(d))


@kernel
def _opt(ob, n, a, b, c, d):
    ob[n, 0] = a
    ob[n, 1] = b
    ob[n, 2] = c
    ob[n, 3] = d
    return n + 1


@kernel
def board_left(s, p):
    return L.NBUILD - s[L.BUILT + p * 3] - s[L.BUILT + p * 3 + 1] - s[L.BUILT + p * 3 + 2]


@kernel
def columns_done(s, p):
    return min(s[L.BUILT + p * 3], s[L.BUILT + p * 3 + 1], s[L.BUILT + p * 3 + 2])


# ---------------------------------------------------------------------------------------------
# resources and cleanup tokens

@kernel
def take(s, cp, tr, p, r, n, wild):
    """p takes n of resource r from the supply: only what is there, the rest is lost."""
    if n <= 0:
        return
    t = min(n, s[L.SUPPLY + r])
    s[L.SUPPLY + r] -= t
    s[L.RES + p * L.NRES + r] += t
    if t > 0:
        emit(s, cp, tr, L.E_TAKE, p, r, t, wild)
    if t < n:
        emit(s, cp, tr, L.E_LOST, p, r, n - t, 0)


@kernel
def take_any(s, cp, p, pk, pp, rng, tr, sc, ob):
    """p takes one resource of their choice among those the supply still has."""
    n = 0
    for r in range(L.NRES):
        if s[L.SUPPLY + r] > 0:
            n = opt(ob, n, r, 0, 0, 0)
    if n == 0:
        emit(s, cp, tr, L.E_LOST, p, L.ANY, 1, 0)
        return -1
    r = ob[choose(s, cp, p, L.K_WILD, ob, n, pk, pp, rng, sc), 0]
    take(s, cp, tr, p, r, 1, 1)
    return r


@kernel
def take_set(s, cp, p, base, pk, pp, rng, tr, sc, ob):
    """p takes the resource set cp[base:base + 5] (counts of fish, artifact, kelp, metal, any):
    the fixed icons first, then one choice per "any" icon."""
    for r in range(L.NRES):
        take(s, cp, tr, p, r, cp[base + r], 0)
    for _ in range(cp[base + L.ANY]):
        take_any(s, cp, p, pk, pp, rng, tr, sc, ob)


@kernel
def pay(s, p, r, n):
    s[L.RES + p * L.NRES + r] -= n
    s[L.SUPPLY + r] += n


@kernel
def gain_cleanup(s, cp, tr, p, n):
    """p takes n cleanup tokens; what the supply lacks is recorded as p's shortfall."""
    t = min(n, s[L.CLEAN_SUPPLY])
    s[L.CLEAN_SUPPLY] -= t
    s[L.CLEAN + p] += t
    s[L.SHORT + p] += n - t
    emit(s, cp, tr, L.E_CLEANUP, p, t, n - t, s[L.CLEAN_SUPPLY])


# ---------------------------------------------------------------------------------------------
# ships

@kernel(inline="always")
def ship_options(s, cp, ob):
    """Rows (location) for placing a ship: on each tile, its cheapest empty locations (no
    building, no ship). Returns the number of rows."""
    n = 0
    for f in range(L.NF):
        best = 99
        for i in range(L.NL):
            loc = f * L.NL + i
            if s[L.LOC_OWN + loc] < 0 and s[L.LOC_SHIP + loc] < 0:
                best = min(best, loc_cost(s, cp, loc))
        for i in range(L.NL):
            loc = f * L.NL + i
            if (s[L.LOC_OWN + loc] < 0 and s[L.LOC_SHIP + loc] < 0
                    and loc_cost(s, cp, loc) == best):
                n = opt(ob, n, loc, 0, 0, 0)
    return n


@kernel
def place_ship(s, cp, q, pk, pp, rng, tr, sc, ob):
    """q's ship goes to the cheapest empty location of a tile q chooses; with none anywhere it
    goes back to the box and q takes 1 cleanup token. Returns the location or -1."""
    n = ship_options(s, cp, ob)
    if n == 0:
        s[L.SHIPS_BOX + q] += 1
        emit(s, cp, tr, L.E_SHIP_BOX, q, 0, 0, 0)
        gain_cleanup(s, cp, tr, q, 1)
        return -1
    loc = ob[choose(s, cp, q, L.K_SHIP, ob, n, pk, pp, rng, sc), 0]
    s[L.LOC_SHIP + loc] = q
    emit(s, cp, tr, L.E_SHIP, q, loc, 0, 0)
    return loc


@kernel
def displace_ship(s, cp, loc, pk, pp, rng, tr, sc, ob):
    """A building now stands on the ship at `loc`: its owner must move it by the placement rule."""
    q = s[L.LOC_SHIP + loc]
    if q < 0:
        return
    s[L.LOC_SHIP + loc] = -1
    place_ship(s, cp, q, pk, pp, rng, tr, sc, ob)


@kernel
def move_ships(s, cp, q, limit, pk, pp, rng, tr, sc, ob):
    """Up to `limit` free moves of q's ships, one by one, to empty locations (q may stop)."""
    for _ in range(limit):
        n = opt(ob, 0, -1, -1, 0, 0)
        for a in range(L.NLOC):
            if s[L.LOC_SHIP + a] == q and not (s[L.PREPAY] and a == s[L.BUILD_LOC]):
                for b in range(L.NLOC):
                    if s[L.LOC_OWN + b] < 0 and s[L.LOC_SHIP + b] < 0:
                        n = opt(ob, n, a, b, 0, 0)
        if n == 1:
            return
        i = choose(s, cp, q, L.K_MOVE_SHIP, ob, n, pk, pp, rng, sc)
        if i == 0:
            return
        a = ob[i, 0]
        b = ob[i, 1]
        s[L.LOC_SHIP + a] = -1
        s[L.LOC_SHIP + b] = q
        emit(s, cp, tr, L.E_SHIP_MOVE, q, a, b, 0)
