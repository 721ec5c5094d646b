"""The rules of Seastead (docs/seastead-rules.md), compiled: setup, rounds of one action each,
dives and builds with every bonus, effects, the solo Boss, the end and the final scoring.

Every kernel takes the state `s` and the components `cp` (kernels.seastead.layout). A choice
the rules leave to a player is a decision point: the engine lists the legal options as rows of
the buffer `ob` (int32[MAX_OPTS, 4], fields per kind in layout.K_*) and asks
kernels.seastead.players.choose for one. `pk`, `pp` are the seats' player kinds and parameters,
`rng` a kernels.rng stream, `tr` a trace buffer (kernels.events format: zero rows = off), `sc`
a script of choices (players.P_SCRIPT). Everything else here is rules.
"""
from ..jit import kernel, word
from ..rng import below, shuffle
from . import layout as L
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


# ---------------------------------------------------------------------------------------------
# effects

@kernel
def return_boss_resources(s, cp, loc, tr):
    """Resources the Boss left on `loc` go back to the supply; returns how many."""
    n = 0
    for r in range(L.NRES):
        v = s[L.LOC_BOSSR + loc * L.NRES + r]
        s[L.SUPPLY + r] += v
        s[L.LOC_BOSSR + loc * L.NRES + r] = 0
        n += v
    s[L.LOC_BOSSN + loc] = 0
    return n


@kernel(inline="always")
def move_building(s, cp, q, mask, pk, pp, rng, tr, sc, ob):
    """Move one of q's buildings whose type is in `mask` (bit 1 << type) to an empty location
    (q may decline). No location effect; a ship there is moved by its owner, with no discount
    and no owner's bonus."""
    n = opt(ob, 0, -1, -1, -1, 0)
    for a in range(L.NLOC):
        if (s[L.LOC_OWN + a] == q and (mask >> s[L.LOC_TYPE + a]) & 1
                and not (s[L.PREPAY] and a == s[L.BUILD_LOC])):
            for b in range(L.NLOC):
                if s[L.LOC_OWN + b] < 0:
                    n = opt(ob, n, a, b, s[L.LOC_TYPE + a], 0)
    if n == 1:
        return
    i = choose(s, cp, q, L.K_MOVE_BUILDING, ob, n, pk, pp, rng, sc)
    if i == 0:
        return
    a = ob[i, 0]
    b = ob[i, 1]
    s[L.LOC_OWN + b] = q
    s[L.LOC_TYPE + b] = s[L.LOC_TYPE + a]
    s[L.LOC_OWN + a] = -1
    s[L.LOC_TYPE + a] = -1
    return_boss_resources(s, cp, b, tr)
    emit(s, cp, tr, L.E_BUILDING_MOVE, q, a, b, s[L.LOC_TYPE + b])
    displace_ship(s, cp, b, pk, pp, rng, tr, sc, ob)


@kernel
def swap_demand(s, cp, q, pk, pp, rng, tr, sc, ob):
    """q may swap two unlocked demand tokens, then lock one of them (the old lock opens)."""
    n = opt(ob, 0, -1, -1, -1, 0)
    lk = s[L.LOCKED]
    for f1 in range(L.NF):
        for f2 in range(f1 + 1, L.NF):
            if f1 != lk and f2 != lk:
                n = opt(ob, n, f1, f2, f1, 0)
                n = opt(ob, n, f1, f2, f2, 0)
    i = choose(s, cp, q, L.K_SWAP, ob, n, pk, pp, rng, sc)
    if i == 0:
        return
    f1 = ob[i, 0]
    f2 = ob[i, 1]
    t = s[L.DEMAND + f1]
    s[L.DEMAND + f1] = s[L.DEMAND + f2]
    s[L.DEMAND + f2] = t
    s[L.LOCKED] = ob[i, 2]
    emit(s, cp, tr, L.E_EFFECT, q, L.OP_SWAP_DEMAND, f1 * 10 + f2, ob[i, 2])


@kernel
def refresh(s, cp, q, pk, pp, rng, tr, sc, ob):
    """q turns one spent specialist face up again."""
    n = 0
    for sp in range(L.NSPEC):
        if s[L.SPEC_HELD + q * L.NSPEC + sp] == 2:
            n = opt(ob, n, sp, 0, 0, 0)
    if n == 0:
        return
    sp = ob[choose(s, cp, q, L.K_REFRESH, ob, n, pk, pp, rng, sc), 0]
    s[L.SPEC_HELD + q * L.NSPEC + sp] = 1
    emit(s, cp, tr, L.E_REFRESH, q, sp, 0, 0)


@kernel(inline="always")
def draw_decree(s, cp, q, pk, pp, rng, tr, sc, ob):
    """Draw two decrees: q puts one in force (the old one leaves the game), the other under
    the deck. With one card left it enters; with none nothing happens."""
    if s[L.USE_B] == 0:
        return
    m = min(2, s[L.DCK_LEN])
    if m == 0:
        return
    top = s[L.DCK + s[L.DCK_LEN] - 1]
    enter, under = top, -1
    if m == 2:
        second = s[L.DCK + s[L.DCK_LEN] - 2]
        n = opt(ob, 0, top, second, 0, 0)
        n = opt(ob, n, second, top, 0, 0)
        i = choose(s, cp, q, L.K_DECREE, ob, n, pk, pp, rng, sc)
        enter, under = ob[i, 0], ob[i, 1]
    s[L.DCK_LEN] -= m
    if under >= 0:
        for i in range(s[L.DCK_LEN], 0, -1):
            s[L.DCK + i] = s[L.DCK + i - 1]
        s[L.DCK] = under
        s[L.DCK_LEN] += 1
    old = s[L.DECREE]
    if old >= 0:
        s[L.DCK_OUT] += 1
    s[L.DECREE] = enter
    s[L.DECREES_IN] += 1
    emit(s, cp, tr, L.E_DECREE, q, enter, under, old)


@kernel(inline="always")
def apply_effect(s, cp, q, op, a, n, pk, pp, rng, tr, sc, ob):
    """One effect row (layout.OP_*) for player q."""
    emit(s, cp, tr, L.E_EFFECT, q, op, a, n)
    if op == L.OP_GAIN:
        if a == L.ANY:
            for _ in range(n):
                take_any(s, cp, q, pk, pp, rng, tr, sc, ob)
        else:
            take(s, cp, tr, q, a, n, 0)
    elif op == L.OP_CLEANUP:
        gain_cleanup(s, cp, tr, q, n)
    elif op == L.OP_DISCOUNT:
        if s[L.PREPAY] == 1 and s[L.CUR] == q:
            s[L.COST_DISC] += n          # the build being paid for
        else:
            s[L.PEND_DISC + q] += n      # q's next build
    elif op == L.OP_MOVE_SHIP:
        move_ships(s, cp, q, n, pk, pp, rng, tr, sc, ob)
    elif op == L.OP_MOVE_BUILDING:
        for _ in range(n):
            move_building(s, cp, q, a, pk, pp, rng, tr, sc, ob)
    elif op == L.OP_EXTRA_ACTION:
        s[L.EXTRA + q] += n
    elif op == L.OP_DECREE:
        for _ in range(n):
            draw_decree(s, cp, q, pk, pp, rng, tr, sc, ob)
    elif op == L.OP_SWAP_DEMAND:
        for _ in range(n):
            swap_demand(s, cp, q, pk, pp, rng, tr, sc, ob)
    elif op == L.OP_REFRESH:
        for _ in range(n):
            refresh(s, cp, q, pk, pp, rng, tr, sc, ob)


@kernel
def apply_list(s, cp, q, lid, skip_discount, pk, pp, rng, tr, sc, ob):
    """Every row of effect list `lid` for q, in order (discount rows left out if asked)."""
    for r in range(cp[L.EF_LEN + lid]):
        base = L.EF + (lid * L.MAX_EFFECTS + r) * 3
        if skip_discount and cp[base] == L.OP_DISCOUNT:
            continue
        apply_effect(s, cp, q, cp[base], cp[base + 1], cp[base + 2], pk, pp, rng, tr, sc, ob)


# ---------------------------------------------------------------------------------------------
# decrees and specialists

@kernel
def decree_matches(cp, d, on, t):
    """Does decree d (-1: none) fire on this event (ON_DIVE with t = -1, or a build of type t)?"""
    if d < 0:
        return False
    when = cp[L.DC_ON + d]
    if on == L.ON_DIVE:
        return when == L.ON_DIVE
    return when == L.ON_BUILD or when == L.ON_PORT + t


@kernel(inline="always")
def decree_discount(s, cp, t):
    """Discount the decree in force gives a build of type t."""
    if not decree_matches(cp, s[L.DECREE], L.ON_BUILD, t):
        return 0
    lid = L.LIST_DECREE + s[L.DECREE]
    d = 0
    for r in range(cp[L.EF_LEN + lid]):
        base = L.EF + (lid * L.MAX_EFFECTS + r) * 3
        if cp[base] == L.OP_DISCOUNT:
            d += cp[base + 2]
    return d


@kernel
def fire_decree(s, cp, d, on, t, p, pk, pp, rng, tr, sc, ob):
    """Decree d, the one in force when the dive or build was chosen (decision 20: a decree drawn
    during a build applies from the next action on), on a dive (t = -1) or a build of type t by
    p: p, then with WHO_BOTH the other player (the active player takes from the supply first).
    A build decree's discount is not applied here: it is in the build's price."""
    if not decree_matches(cp, d, on, t):
        return
    lid = L.LIST_DECREE + d
    build = on != L.ON_DIVE
    apply_list(s, cp, p, lid, build, pk, pp, rng, tr, sc, ob)
    if cp[L.DC_WHO + d] == L.WHO_BOTH and s[L.SOLO] == 0:
        apply_list(s, cp, 1 - p, lid, build, pk, pp, rng, tr, sc, ob)


@kernel
def usable(cp, sp, win):
    """May a face-up specialist sp be spent in window `win` (layout.WIN_*)? Before the action
    and in a build: the cards used in builds (decision 13)."""
    if win == L.WIN_PREPAY or win == L.WIN_AFTER_BUILD or win == L.WIN_BEFORE:
        return (cp[L.SP_USE + sp] & L.USE_BUILD) != 0
    if win == L.WIN_AFTER_DIVE:
        return (cp[L.SP_USE + sp] & L.USE_DIVE) != 0
    if win == L.WIN_REACT_BUILD:
        return cp[L.SP_REACT + sp] == L.REACT_BUILD
    return cp[L.SP_REACT + sp] == L.REACT_DIVE


@kernel
def spend_window(s, cp, q, win, pk, pp, rng, tr, sc, ob):
    """q may spend face-up specialists usable in window `win`, one at a time, until q stops."""
    for _ in range(L.NSPEC):
        n = opt(ob, 0, -1, win, 0, 0)
        for sp in range(L.NSPEC):
            if s[L.SPEC_HELD + q * L.NSPEC + sp] == 1 and usable(cp, sp, win):
                n = opt(ob, n, sp, win, 0, 0)
        if n == 1:
            return
        sp = ob[choose(s, cp, q, L.K_SPEND, ob, n, pk, pp, rng, sc), 0]
        if sp < 0:
            return
        spend(s, cp, q, sp, win, pk, pp, rng, tr, sc, ob)


@kernel
def spend(s, cp, q, sp, win, pk, pp, rng, tr, sc, ob):
    """q turns face-up specialist sp face down and applies its effects."""
    s[L.SPEC_HELD + q * L.NSPEC + sp] = 2
    s[L.SPENT + q] += 1
    emit(s, cp, tr, L.E_SPEND, q, sp, win, 0)
    apply_list(s, cp, q, L.LIST_SPEC + sp, False, pk, pp, rng, tr, sc, ob)


# ---------------------------------------------------------------------------------------------
# the end

@kernel(inline="always")
def end_conditions(s, cp):
    """Bits (layout.TRIG_*) of the end conditions that hold now."""
    bits = 0
    for f in range(L.NF):
        full = True
        for i in range(L.NL):
            if s[L.LOC_OWN + f * L.NL + i] < 0:
                full = False
        if full:
            bits |= L.TRIG_FULL
    for p in range(s[L.PLAYERS]):
        if board_left(s, p) <= 1:
            bits |= L.TRIG_BOARD
    if s[L.SOLO] == 1:
        if s[L.BOSS_LEFT] <= 1:
            bits |= L.TRIG_BOARD
        if s[L.DECK_LEN] == 0:
            bits |= L.TRIG_DEPTHS
    elif s[L.DECK_LEN] > 0 and cp[L.DV_GROUP + s[L.DECK + s[L.DECK_LEN] - 1]] == L.DEPTHS:
        bits |= L.TRIG_DEPTHS
    if s[L.CLEAN_SUPPLY] == 0:
        bits |= L.TRIG_CLEANUP
    return bits


@kernel
def check_end(s, cp, tr):
    """Trigger the end the first time a condition holds (this round finishes, one more is played)."""
    if s[L.TRIG_ROUND] >= 0:
        return
    bits = end_conditions(s, cp)
    if bits:
        s[L.TRIGGER] = bits
        s[L.TRIG_ROUND] = s[L.ROUND]
        emit(s, cp, tr, L.E_TRIGGER, s[L.CUR], bits, s[L.ROUND], 0)


# ---------------------------------------------------------------------------------------------
# dive

@kernel(inline="always")
def boss_receive(s, cp, card, half, pk, pp, rng, tr, sc, ob):
    """Solo: the Boss's half. Each resource type goes to the cheapest empty location (no
    building; lowest index on a tie) of the tile demanding it: the first time it stays there,
    the second time the resources there return and a Boss building is placed. A ship under a
    new Boss building is moved by its owner at once (decision 34), so one dive that makes the
    Boss build twice moves both ships."""
    base = L.DV_HALF + (card * 2 + half) * 5
    for r in range(L.NRES):
        n = cp[base + r]
        if n == 0:
            continue
        f = flotilla_of(s, r)
        loc = -1
        best = 99
        for i in range(L.NL):
            a = f * L.NL + i
            if s[L.LOC_OWN + a] < 0 and loc_cost(s, cp, a) < best:
                best = loc_cost(s, cp, a)
                loc = a
        if loc < 0:
            emit(s, cp, tr, L.E_LOST, L.BOSS, r, n, 0)
            continue
        if s[L.LOC_BOSSN + loc] == 0:
            t = min(n, s[L.SUPPLY + r])
            s[L.SUPPLY + r] -= t
            s[L.LOC_BOSSR + loc * L.NRES + r] += t
            s[L.LOC_BOSSN + loc] = 1
            emit(s, cp, tr, L.E_BOSS_RES, L.BOSS, loc, r, t)
            if t < n:
                emit(s, cp, tr, L.E_LOST, L.BOSS, r, n - t, 0)
        else:
            back = return_boss_resources(s, cp, loc, tr)
            built = s[L.BOSS_LEFT] > 0
            if built:
                s[L.LOC_OWN + loc] = L.BOSS
                s[L.LOC_TYPE + loc] = L.NTYPES      # a Boss building has no type
                s[L.BOSS_LEFT] -= 1
                s[L.BOSS_BUILT] += 1
            emit(s, cp, tr, L.E_BOSS_BUILD, L.BOSS, loc if built else -1, back, 0)
            if built:
                displace_ship(s, cp, loc, pk, pp, rng, tr, sc, ob)
    if cp[base + L.ANY] > 0:
        emit(s, cp, tr, L.E_LOST, L.BOSS, L.ANY, cp[base + L.ANY], 0)


@kernel(inline="always")
def dive(s, cp, p, pk, pp, rng, tr, sc, ob):
    """Reveal the top dive card; p chooses the half p takes, the other player (the Boss in
    solo) gets the other half; the card goes to the discard pile."""
    if s[L.DECK_LEN] == 0:
        for i in range(s[L.DISC_LEN]):
            s[L.DECK + i] = s[L.DISC + i]
        s[L.DECK_LEN] = s[L.DISC_LEN]
        s[L.DISC_LEN] = 0
        shuffle(s, L.DECK, s[L.DECK_LEN], rng)
        s[L.RESHUFFLES] += 1
        emit(s, cp, tr, L.E_RESHUFFLE, p, s[L.DECK_LEN], 0, 0)
        if s[L.DECK_LEN] == 0:
            return
    decree = s[L.DECREE]
    s[L.DECK_LEN] -= 1
    card = s[L.DECK + s[L.DECK_LEN]]
    s[L.DISC + s[L.DISC_LEN]] = card      # face up beside the deck (step 5; no rule reads it)
    s[L.DISC_LEN] += 1
    n = opt(ob, 0, 0, card, 0, 0)
    n = opt(ob, n, 1, card, 0, 0)
    h = ob[choose(s, cp, p, L.K_SPLIT, ob, n, pk, pp, rng, sc), 0]
    emit(s, cp, tr, L.E_DIVE, p, card, h, cp[L.DV_GROUP + card])
    take_set(s, cp, p, L.DV_HALF + (card * 2 + h) * 5, pk, pp, rng, tr, sc, ob)
    if s[L.SOLO] == 1:
        boss_receive(s, cp, card, 1 - h, pk, pp, rng, tr, sc, ob)
    else:
        take_set(s, cp, 1 - p, L.DV_HALF + (card * 2 + 1 - h) * 5, pk, pp, rng, tr, sc, ob)
    s[L.DIVES + p] += 1
    fire_decree(s, cp, decree, L.ON_DIVE, -1, p, pk, pp, rng, tr, sc, ob)


# ---------------------------------------------------------------------------------------------
# build

@kernel
def build_cost(s, cp, p, t, loc):
    """What p pays to build type t on loc before specialists: the location's value, minus 1 for
    a ship there, p's pending discount and the decree's, never below 0."""
    c = loc_cost(s, cp, loc) - s[L.PEND_DISC + p] - decree_discount(s, cp, t)
    if s[L.LOC_SHIP + loc] >= 0:
        c -= 1
    return max(0, c)


@kernel
def action_options(s, cp, p, ob):
    """Row 0 dive; then every legal build (type with buildings left, location without a
    building, cost affordable in the demanded resource), then every face-up specialist p may
    spend before choosing (decision 11: a spend can make a build legal)."""
    n = opt(ob, 0, L.ACT_DIVE, 0, 0, 0)
    for t in range(L.NTYPES):
        if s[L.BUILT + p * 3 + t] >= L.PER_TYPE:
            continue
        for loc in range(L.NLOC):
            if s[L.LOC_OWN + loc] >= 0:
                continue
            c = build_cost(s, cp, p, t, loc)
            if s[L.RES + p * L.NRES + s[L.DEMAND + loc // L.NL]] >= c:
                n = opt(ob, n, L.ACT_BUILD, t, loc, c)
    for sp in range(L.NSPEC):
        if s[L.SPEC_HELD + p * L.NSPEC + sp] == 1 and usable(cp, sp, L.WIN_BEFORE):
            n = opt(ob, n, L.ACT_SPEND, sp, 0, 0)
    return n


@kernel(inline="always")
def take_dock(s, cp, p, loc, pk, pp, rng, tr, sc, ob):
    """Port: a dock tile from the display onto a free dock slot of the port's tile that touches
    the port's location; the display is refilled. Nothing if there is no tile or no slot."""
    f = loc // L.NL
    n = 0
    for d in range(cp[L.SU_DOCK_DISPLAY]):
        tile = s[L.DOCK_DISP + d]
        if tile < 0:
            continue
        for k in range(L.MAX_SLOTS):
            if s[L.SLOT_TILE + f * L.MAX_SLOTS + k] >= 0:
                continue
            touches = False
            for j in range(4):
                if slot_loc(s, cp, f, k, j) == loc:
                    touches = True
            if touches:
                n = opt(ob, n, d, f, k, tile)
    if n == 0:
        emit(s, cp, tr, L.E_DOCK, p, -1, -1, f)
        return
    i = choose(s, cp, p, L.K_DOCK, ob, n, pk, pp, rng, sc)
    d, k, tile = ob[i, 0], ob[i, 2], ob[i, 3]
    s[L.SLOT_TILE + f * L.MAX_SLOTS + k] = tile
    s[L.SLOT_OWN + f * L.MAX_SLOTS + k] = p
    s[L.DOCK_DISP + d] = -1
    if s[L.DOCK_DECK_LEN] > 0:
        s[L.DOCK_DECK_LEN] -= 1
        s[L.DOCK_DISP + d] = s[L.DOCK_DECK + s[L.DOCK_DECK_LEN]]
    emit(s, cp, tr, L.E_DOCK, p, tile, k, f)


@kernel(inline="always")
def take_specialist(s, cp, p, pk, pp, rng, tr, sc, ob):
    """Academy: a specialist from the display, face up; the display is refilled."""
    n = 0
    for d in range(cp[L.SU_SPEC_DISPLAY]):
        if s[L.SPEC_DISP + d] >= 0:
            n = opt(ob, n, d, s[L.SPEC_DISP + d], 0, 0)
    if n == 0:
        emit(s, cp, tr, L.E_SPEC, p, -1, 0, 0)
        return
    i = choose(s, cp, p, L.K_SPEC, ob, n, pk, pp, rng, sc)
    d, sp = ob[i, 0], ob[i, 1]
    s[L.SPEC_HELD + p * L.NSPEC + sp] = 1
    s[L.SPEC_DISP + d] = -1
    if s[L.SPEC_DECK_LEN] > 0:
        s[L.SPEC_DECK_LEN] -= 1
        s[L.SPEC_DISP + d] = s[L.SPEC_DECK + s[L.SPEC_DECK_LEN]]
    emit(s, cp, tr, L.E_SPEC, p, sp, 0, 0)


@kernel(inline="always")
def port_bonus(s, cp, p, pk, pp, rng, tr, sc, ob):
    """Last port: p may choose one own dock tile and take 1 cleanup token per resource p holds
    of its resource (at most the dock maximum), or decline (row 0: taking can end the game)."""
    n = opt(ob, 0, -1, -1, 0, 0)
    for f in range(L.NF):
        for k in range(L.MAX_SLOTS):
            tile = s[L.SLOT_TILE + f * L.MAX_SLOTS + k]
            if tile >= 0 and s[L.SLOT_OWN + f * L.MAX_SLOTS + k] == p:
                g = min(s[L.RES + p * L.NRES + cp[L.DK_RES + tile]], cp[L.SU_DOCK_MAX])
                n = opt(ob, n, f, k, g, 0)
    if n == 1:
        return
    g = ob[choose(s, cp, p, L.K_PORT_BONUS, ob, n, pk, pp, rng, sc), 2]
    if g > 0:
        gain_cleanup(s, cp, tr, p, g)


@kernel(inline="always")
def build(s, cp, p, t, loc, pk, pp, rng, tr, sc, ob):
    """p builds type t (the leftmost of its row) on loc: the building is placed and its price
    fixed (event build), specialists may be spent before paying (lowering it), pay (event pay),
    building effect, location effect, the decree in force when the build was chosen, the ship
    there (owner's bonus, forced move), row bonus, column bonus."""
    f = loc // L.NL
    cols = columns_done(s, p)
    decree = s[L.DECREE]                    # the decree in force when the build is chosen
    r = s[L.DEMAND + f]                     # the price is fixed when the build is chosen
    cost = build_cost(s, cp, p, t, loc)
    s[L.PEND_DISC + p] = 0
    s[L.LOC_OWN + loc] = p
    s[L.LOC_TYPE + loc] = t
    s[L.BUILT + p * 3 + t] += 1
    return_boss_resources(s, cp, loc, tr)
    emit(s, cp, tr, L.E_BUILD, p, t, loc, cost)
    s[L.BUILD_LOC] = loc
    s[L.PREPAY] = 1
    s[L.COST_DISC] = 0
    spend_window(s, cp, p, L.WIN_PREPAY, pk, pp, rng, tr, sc, ob)
    s[L.PREPAY] = 0
    cost = max(0, cost - s[L.COST_DISC])
    s[L.COST_DISC] = 0
    pay(s, p, r, cost)
    emit(s, cp, tr, L.E_PAY, p, r, cost, loc)
    if t == L.PORT:
        take_dock(s, cp, p, loc, pk, pp, rng, tr, sc, ob)
    elif t == L.ACADEMY:
        take_specialist(s, cp, p, pk, pp, rng, tr, sc, ob)
    else:
        s[L.SHIPS_HOME + p] -= 1
        place_ship(s, cp, p, pk, pp, rng, tr, sc, ob)
    lid = loc_list(s, loc)
    if cp[L.EF_LEN + lid] > 0:
        apply = 1
        if cp[L.FL_MAND + side_base(s, f) * L.NL + loc % L.NL] == 0:
            n = opt(ob, 0, 1, loc, 0, 0)
            n = opt(ob, n, 0, loc, 0, 0)
            apply = ob[choose(s, cp, p, L.K_LOC_EFFECT, ob, n, pk, pp, rng, sc), 0]
        emit(s, cp, tr, L.E_LOC_EFFECT, p, loc, apply, 0)
        if apply:
            apply_list(s, cp, p, lid, False, pk, pp, rng, tr, sc, ob)
    fire_decree(s, cp, decree, L.ON_BUILD, t, p, pk, pp, rng, tr, sc, ob)
    q = s[L.LOC_SHIP + loc]
    if q >= 0:
        if q != p:
            s[L.SHIP_BONUS + q] += 1
            r = take_any(s, cp, q, pk, pp, rng, tr, sc, ob)
            emit(s, cp, tr, L.E_SHIP_BONUS, q, r, p, 0)
        displace_ship(s, cp, loc, pk, pp, rng, tr, sc, ob)
    if s[L.BUILT + p * 3 + t] == L.PER_TYPE:
        emit(s, cp, tr, L.E_ROW, p, t, 0, 0)
        if t == L.PORT:
            port_bonus(s, cp, p, pk, pp, rng, tr, sc, ob)
        elif t == L.ACADEMY:
            refresh(s, cp, p, pk, pp, rng, tr, sc, ob)
        else:
            move_ships(s, cp, p, 4 * L.NSHIPS, pk, pp, rng, tr, sc, ob)
    if columns_done(s, p) > cols:
        emit(s, cp, tr, L.E_COLUMN, p, cols, 0, 0)
        swap_demand(s, cp, p, pk, pp, rng, tr, sc, ob)


# ---------------------------------------------------------------------------------------------
# turns, setup, scoring, the game

@kernel
def one_action(s, cp, p, pk, pp, rng, tr, sc, ob):
    """Spends chosen among the action options (each re-lists the options), then dive or build
    (a dive if no build is legal after them), then the spend window and, in a two-player game,
    the opponent's reaction window; then the end check."""
    kind, t, loc, builds = L.ACT_DIVE, 0, 0, 0
    for k in range(L.NSPEC + 1):
        n = action_options(s, cp, p, ob)
        builds = 0
        for j in range(n):
            if ob[j, 0] == L.ACT_BUILD:
                builds += 1
        if k == L.NSPEC:
            n = 1 + builds                  # spends (the last rows) end here: refresh loops
        i = choose(s, cp, p, L.K_ACTION, ob, n, pk, pp, rng, sc)
        kind, t, loc = ob[i, 0], ob[i, 1], ob[i, 2]
        if kind != L.ACT_SPEND:
            break
        spend(s, cp, p, t, L.WIN_BEFORE, pk, pp, rng, tr, sc, ob)
    if kind == L.ACT_DIVE and builds == 0:
        emit(s, cp, tr, L.E_MUST_DIVE, p, 0, 0, 0)
    other = 1 - p
    if kind == L.ACT_DIVE:
        dive(s, cp, p, pk, pp, rng, tr, sc, ob)
        check_end(s, cp, tr)
        spend_window(s, cp, p, L.WIN_AFTER_DIVE, pk, pp, rng, tr, sc, ob)
        if s[L.SOLO] == 0:
            spend_window(s, cp, other, L.WIN_REACT_DIVE, pk, pp, rng, tr, sc, ob)
    else:
        build(s, cp, p, t, loc, pk, pp, rng, tr, sc, ob)
        check_end(s, cp, tr)
        spend_window(s, cp, p, L.WIN_AFTER_BUILD, pk, pp, rng, tr, sc, ob)
        if s[L.SOLO] == 0:
            spend_window(s, cp, other, L.WIN_REACT_BUILD, pk, pp, rng, tr, sc, ob)
    s[L.ACTIONS] += 1
    check_end(s, cp, tr)
    check_action(s, cp, tr)


@kernel(inline="always")
def take_turn(s, cp, p, pk, pp, rng, tr, sc, ob):
    """p's action, then any extra actions p earned during it (begin_turn, one_action while
    another_action: the turn's steps, which kernels.seastead.search drives the same way)."""
    begin_turn(s, p)
    one_action(s, cp, p, pk, pp, rng, tr, sc, ob)
    while another_action(s, p):
        one_action(s, cp, p, pk, pp, rng, tr, sc, ob)
    s[L.EXTRA + p] = 0


@kernel
def begin_turn(s, p):
    s[L.CUR] = p
    s[L.EXTRA + p] = 0
    s[L.TURN_ACTIONS] = 0


@kernel
def another_action(s, p):
    """Does p take an extra action now (at most 8 a turn)? Counts it if so."""
    if s[L.EXTRA + p] <= 0 or s[L.TURN_ACTIONS] >= 8:
        return False
    s[L.EXTRA + p] -= 1
    s[L.EXTRAS + p] += 1
    s[L.TURN_ACTIONS] += 1
    return True


@kernel
def begin_round(s, cp, tr):
    s[L.ROUND] += 1
    emit(s, cp, tr, L.E_ROUND, 0, s[L.ROUND], 0, 0)


@kernel
def last_round_done(s):
    """After a round: is the game over (the round after the one that triggered the end)?"""
    return s[L.TRIG_ROUND] >= 0 and s[L.ROUND] >= s[L.TRIG_ROUND] + 1


@kernel
def deal_group(s, cp, group, rng):
    """Put the dive cards of `group` on top of the deck, shuffled."""
    lo = s[L.DECK_LEN]
    for c in range(L.NDIVE):
        if cp[L.DV_GROUP + c] == group:
            s[L.DECK + s[L.DECK_LEN]] = c
            s[L.DECK_LEN] += 1
    shuffle(s, L.DECK + lo, s[L.DECK_LEN] - lo, rng)


@kernel
def setup(s, cp, cfg, pk, pp, rng, tr, sc, ob):
    """A new game. cfg: [solo, side of tile 0..3 (0 A, 1 B), starting decree or -1 random]."""
    s[:] = 0
    for base, size in ((L.LOC_OWN, L.NLOC), (L.LOC_TYPE, L.NLOC), (L.LOC_SHIP, L.NLOC),
                       (L.SLOT_TILE, L.NF * L.MAX_SLOTS), (L.SLOT_OWN, L.NF * L.MAX_SLOTS),
                       (L.SPEC_DISP, L.MAX_SPEC_DISPLAY), (L.DOCK_DISP, L.MAX_DISPLAY)):
        for i in range(size):
            s[base + i] = -1
    s[L.DECREE] = -1
    s[L.TRIG_ROUND] = -1
    solo = cfg[0]
    s[L.SOLO] = solo
    s[L.PLAYERS] = 1 if solo else 2
    for f in range(L.NF):
        s[L.SIDE + f] = cfg[1 + f]
        if cfg[1 + f] == 1:
            s[L.USE_B] = 1
    for r in range(L.NRES):
        s[L.SUPPLY + r] = cp[L.SU_RES_PER_TYPE]
        s[L.DEMAND + r] = r
    shuffle(s, L.DEMAND, L.NF, rng)
    s[L.LOCKED] = below(rng, L.NF)
    s[L.CLEAN_SUPPLY] = cp[L.SU_CLEANUP]
    s[L.SHIPS_HOME] = L.NSHIPS
    s[L.SHIPS_HOME + 1] = 0 if solo else L.NSHIPS
    s[L.BOSS_LEFT] = L.NBUILD if solo else 0
    if not solo:
        deal_group(s, cp, L.DEPTHS, rng)
    deal_group(s, cp, L.SHELF, rng)
    deal_group(s, cp, L.SHALLOWS, rng)
    first = -1
    if not solo:        # the start card: its arrow names the start player (seat 0), then discarded
        s[L.DECK_LEN] -= 1
        first = s[L.DECK + s[L.DECK_LEN]]
        s[L.DISC] = first
        s[L.DISC_LEN] = 1
    for sp in range(L.NSPEC):
        if not solo or cp[L.SP_SOLO + sp]:
            s[L.SPEC_DECK + s[L.SPEC_DECK_LEN]] = sp
            s[L.SPEC_DECK_LEN] += 1
    shuffle(s, L.SPEC_DECK, s[L.SPEC_DECK_LEN], rng)
    for d in range(cp[L.SU_SPEC_DISPLAY]):
        if s[L.SPEC_DECK_LEN] > 0:
            s[L.SPEC_DECK_LEN] -= 1
            s[L.SPEC_DISP + d] = s[L.SPEC_DECK + s[L.SPEC_DECK_LEN]]
    for k in range(L.NDOCK):
        s[L.DOCK_DECK + k] = k
    s[L.DOCK_DECK_LEN] = L.NDOCK
    shuffle(s, L.DOCK_DECK, L.NDOCK, rng)
    for d in range(cp[L.SU_DOCK_DISPLAY]):
        s[L.DOCK_DECK_LEN] -= 1
        s[L.DOCK_DISP + d] = s[L.DOCK_DECK + s[L.DOCK_DECK_LEN]]
    if s[L.USE_B]:
        chosen = cfg[5]
        for k in range(L.NDECREE):
            if k != chosen:
                s[L.DCK + s[L.DCK_LEN]] = k
                s[L.DCK_LEN] += 1
        shuffle(s, L.DCK, s[L.DCK_LEN], rng)
        if chosen < 0:
            s[L.DCK_LEN] -= 1
            chosen = s[L.DCK + s[L.DCK_LEN]]
        s[L.DECREE] = chosen
    emit(s, cp, tr, L.E_SETUP, 0, first, s[L.LOCKED], s[L.DECREE])
    for p in range(s[L.PLAYERS]):
        take_set(s, cp, p, L.SU_START + 5 * p, pk, pp, rng, tr, sc, ob)
    if solo:
        take_set(s, cp, 0, L.SU_SOLO_EXTRA, pk, pp, rng, tr, sc, ob)


@kernel
def final_score(s, cp, tr):
    """The five categories of the score pad, in order, then the winner and the tie-breaks
    (more buildings left on the board, then more cleanup); in solo the Boss's score."""
    n = s[L.PLAYERS]
    for p in range(n):
        # 1. own dock tiles: 1 point per matching resource, at most SU_DOCK_MAX per tile, each
        # resource counted once (used resources return to the supply)
        for r in range(L.NRES):
            cap = 0
            for f in range(L.NF):
                for k in range(L.MAX_SLOTS):
                    tile = s[L.SLOT_TILE + f * L.MAX_SLOTS + k]
                    if tile >= 0 and s[L.SLOT_OWN + f * L.MAX_SLOTS + k] == p and cp[L.DK_RES + tile] == r:
                        cap += cp[L.SU_DOCK_MAX]
            used = min(cap, s[L.RES + p * L.NRES + r])
            s[L.SCORE + p * 5] += used
            pay(s, p, r, used)
    # 2. every dock tile's marked sections: the owner of a matching building scores its points
    for f in range(L.NF):
        for k in range(L.MAX_SLOTS):
            tile = s[L.SLOT_TILE + f * L.MAX_SLOTS + k]
            if tile < 0:
                continue
            for j in range(4):
                need = cp[L.DK_SEC + tile * 4 + j]
                loc = slot_loc(s, cp, f, k, j)
                if need < 0 or loc < 0:
                    continue
                q = s[L.LOC_OWN + loc]
                if q < 0 or q >= n:
                    continue
                if need == L.SECTION_ANY or s[L.LOC_TYPE + loc] == need:
                    s[L.SCORE + q * 5 + 1] += cp[L.DK_PTS + tile]
    for p in range(n):
        # 3. locations, 4. face-up specialists, 5. cleanup tokens (and the recorded shortfall)
        for loc in range(L.NLOC):
            if s[L.LOC_OWN + loc] == p:
                s[L.SCORE + p * 5 + 2] += loc_cost(s, cp, loc)
        for sp in range(L.NSPEC):
            if s[L.SPEC_HELD + p * L.NSPEC + sp] == 1:
                s[L.SCORE + p * 5 + 3] += cp[L.SP_PTS + sp]
        s[L.SCORE + p * 5 + 4] = s[L.CLEAN + p] + (s[L.SHORT + p] if cp[L.SU_SHORT_SCORES] else 0)
        tot = 0
        for c in range(5):
            tot += s[L.SCORE + p * 5 + c]
            emit(s, cp, tr, L.E_SCORE, p, c, s[L.SCORE + p * 5 + c], 0)
        s[L.TOTAL + p] = tot
    if s[L.SOLO]:
        s[L.BOSS_SCORE] = cp[L.SU_BOSS_BASE] + cp[L.SU_BOSS_PER] * s[L.BOSS_BUILT]
        emit(s, cp, tr, L.E_SCORE, L.BOSS, 5, s[L.BOSS_SCORE], 0)
        w = 0 if s[L.TOTAL] > s[L.BOSS_SCORE] else 1
        s[L.WIN + w] = 1
        emit(s, cp, tr, L.E_END, 0, w, 0, 0)
        return
    a, b = s[L.TOTAL], s[L.TOTAL + 1]
    tb = 0
    if a == b:
        a, b = board_left(s, 0), board_left(s, 1)
        tb = 1
        if a == b:
            a, b = s[L.SCORE + 4], s[L.SCORE + 9]
            tb = 2
            if a == b:
                tb = 3
    s[L.TIEBREAK] = tb
    if a >= b:
        s[L.WIN] = 1
    if b >= a:
        s[L.WIN + 1] = 1
    emit(s, cp, tr, L.E_END, 0, -1 if a == b else (0 if a > b else 1), tb, 0)


@kernel(inline="always")
def play_on(s, cp, pk, pp, rng, tr, sc, ob, stop_after):
    """Play rounds on from `s` (set up, at a round boundary) to the end and score it; seat 0
    starts every round. With stop_after >= 0, stop unscored (OVER stays 0) after the turn in
    which the game's action count reached stop_after, so a test can inspect the state."""
    n = s[L.PLAYERS]
    for _ in range(L.MAX_ROUNDS):
        begin_round(s, cp, tr)
        for p in range(n):
            take_turn(s, cp, p, pk, pp, rng, tr, sc, ob)
            if 0 <= stop_after <= s[L.ACTIONS]:
                return
        if last_round_done(s):
            break
    s[L.OVER] = 1
    final_score(s, cp, tr)


@kernel
def play_game(s, cp, cfg, pk, pp, rng, tr, sc, ob):
    """A whole game from setup to final scoring."""
    setup(s, cp, cfg, pk, pp, rng, tr, sc, ob)
    play_on(s, cp, pk, pp, rng, tr, sc, ob, -1)


# ---------------------------------------------------------------------------------------------
# invariants (tests, check mode)

@kernel
def state_errors(s, cp):
    """0 if `s` is consistent; else the first broken invariant: 1 resources (supply + reserves +
    Boss resources = the per-type count, none negative), 2 buildings (12 per player on the board
    or on tiles; the Boss's 12), 3 ships (4 per player at home, on tiles or boxed), 4 cleanup
    tokens (supply + held = the total; a shortfall only once the supply is empty), 5 dive cards,
    6 specialists, 7 dock tiles, 8 decrees (each exactly once)."""
    for r in range(L.NRES):
        t = s[L.SUPPLY + r]
        if t < 0:
            return 1
        for p in range(2):
            if s[L.RES + p * L.NRES + r] < 0:
                return 1
            t += s[L.RES + p * L.NRES + r]
        for loc in range(L.NLOC):
            t += s[L.LOC_BOSSR + loc * L.NRES + r]
        if t != cp[L.SU_RES_PER_TYPE]:
            return 1
    for p in range(s[L.PLAYERS]):
        for t in range(L.NTYPES):
            on = 0
            for loc in range(L.NLOC):
                if s[L.LOC_OWN + loc] == p and s[L.LOC_TYPE + loc] == t:
                    on += 1
            if on != s[L.BUILT + p * 3 + t] or on > L.PER_TYPE:
                return 2
        ships = s[L.SHIPS_HOME + p] + s[L.SHIPS_BOX + p]
        for loc in range(L.NLOC):
            if s[L.LOC_SHIP + loc] == p:
                ships += 1
        if ships != L.NSHIPS or s[L.SHIPS_HOME + p] < 0:
            return 3
    if s[L.SOLO]:
        on = 0
        for loc in range(L.NLOC):
            if s[L.LOC_OWN + loc] == L.BOSS:
                on += 1
        if on != s[L.BOSS_BUILT] or on + s[L.BOSS_LEFT] != L.NBUILD:
            return 2
    c = s[L.CLEAN_SUPPLY] + s[L.CLEAN] + s[L.CLEAN + 1]
    if c != cp[L.SU_CLEANUP] or s[L.CLEAN_SUPPLY] < 0 or s[L.SHORT] < 0 or s[L.SHORT + 1] < 0:
        return 4
    if (s[L.SHORT] > 0 or s[L.SHORT + 1] > 0) and s[L.CLEAN_SUPPLY] != 0:
        return 4
    want = 0
    for c in range(L.NDIVE):
        if not (s[L.SOLO] and cp[L.DV_GROUP + c] == L.DEPTHS):
            want |= 1 << c
    got = 0
    for i in range(s[L.DECK_LEN]):
        got |= 1 << s[L.DECK + i]
    for i in range(s[L.DISC_LEN]):
        got |= 1 << s[L.DISC + i]
    if got != want or s[L.DECK_LEN] + s[L.DISC_LEN] != _popcount(want):
        return 5
    want = 0
    for sp in range(L.NSPEC):
        if not s[L.SOLO] or cp[L.SP_SOLO + sp]:
            want |= 1 << sp
    got = 0
    k = s[L.SPEC_DECK_LEN]
    for i in range(s[L.SPEC_DECK_LEN]):
        got |= 1 << s[L.SPEC_DECK + i]
    for d in range(L.MAX_SPEC_DISPLAY):
        if s[L.SPEC_DISP + d] >= 0:
            got |= 1 << s[L.SPEC_DISP + d]
            k += 1
    for p in range(2):
        for sp in range(L.NSPEC):
            if s[L.SPEC_HELD + p * L.NSPEC + sp] != 0:
                got |= 1 << sp
                k += 1
    if got != want or k != _popcount(want):
        return 6
    got = 0
    k = s[L.DOCK_DECK_LEN]
    for i in range(s[L.DOCK_DECK_LEN]):
        got |= 1 << s[L.DOCK_DECK + i]
    for d in range(L.MAX_DISPLAY):
        if s[L.DOCK_DISP + d] >= 0:
            got |= 1 << s[L.DOCK_DISP + d]
            k += 1
    for i in range(L.NF * L.MAX_SLOTS):
        if s[L.SLOT_TILE + i] >= 0:
            got |= 1 << s[L.SLOT_TILE + i]
            k += 1
    if got != (1 << L.NDOCK) - 1 or k != L.NDOCK:
        return 7
    if s[L.USE_B]:
        if s[L.DCK_LEN] + (1 if s[L.DECREE] >= 0 else 0) + s[L.DCK_OUT] != L.NDECREE:
            return 8
    return 0


@kernel
def settled_errors(s, cp):
    """state_errors, then what holds once an action is over (during a build or a move the ship
    under the new building is still there, the rules move it "after the build is complete"):
    9, a ship on a location with a building (anyone's, the Boss's too)."""
    err = state_errors(s, cp)
    if err != 0:
        return err
    for loc in range(L.NLOC):
        if s[L.LOC_OWN + loc] >= 0 and s[L.LOC_SHIP + loc] >= 0:
            return 9
    return 0


@kernel(inline="always")
def check_action(s, cp, tr):
    """Check mode (tr[0, 1] == 1), after every action: settled_errors, the first error kept
    with the number of the action's last event (tr[0, 2], tr[0, 3]); tr[0, 4] counts checks."""
    if tr.shape[0] == 0 or tr[0, 1] != 1:
        return
    tr[0, 4] += 1
    if tr[0, 2] == 0:
        err = settled_errors(s, cp)
        if err != 0:
            tr[0, 2] = err
            tr[0, 3] = tr[0, 0]


@kernel
def _popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n
