"""Seastead's effects, compiled: what a card, a decree or a specialist does (apply_effect and its
moves of buildings, demands, refreshes, decree draws), and when decrees fire and specialists are
spent. Built on kernels.seastead.board; the turns that use them are in kernels.seastead.engine."""
from ..jit import kernel
from . import layout as L
from .board import displace_ship, emit, gain_cleanup, move_ships, opt, take, take_any
from .players import choose


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
