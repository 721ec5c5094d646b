"""The rules of Seastead (docs/seastead-rules.md), compiled: setup, rounds of one action each,
dives and builds with every bonus, the solo Boss, the end and the final scoring; the board's
helpers, resources and ships are in kernels.seastead.board, effects, decrees and specialists in
kernels.seastead.effects, the invariants in kernels.seastead.invariants.

Every kernel takes the state `s` and the components `cp` (kernels.seastead.layout). A choice
the rules leave to a player is a decision point: the engine lists the legal options as rows of
the buffer `ob` (int32[MAX_OPTS, 4], fields per kind in layout.K_*) and asks
kernels.seastead.players.choose for one. `pk`, `pp` are the seats' player kinds and parameters,
`rng` a kernels.rng stream, `tr` a trace buffer (kernels.events format: zero rows = off), `sc`
a script of choices (players.P_SCRIPT). Everything else here is rules.
"""
from ..jit import kernel, once
from ..rng import below, shuffle
from . import layout as L
from .board import (board_left, columns_done, displace_ship, emit, flotilla_of, gain_cleanup,
                    loc_cost, loc_list, move_ships, opt, pay, place_ship, side_base, slot_loc,
                    take_any, take_set)
from .effects import (apply_list, decree_discount, fire_decree, refresh, return_boss_resources,
                      spend, spend_window, swap_demand, usable)
from .invariants import check_action
from .players import choose


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


@once
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


@once
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


@once
@kernel
def play_game(s, cp, cfg, pk, pp, rng, tr, sc, ob):
    """A whole game from setup to final scoring."""
    setup(s, cp, cfg, pk, pp, rng, tr, sc, ob)
    play_on(s, cp, pk, pp, rng, tr, sc, ob, -1)
