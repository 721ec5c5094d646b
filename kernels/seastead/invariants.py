"""Seastead's invariants, compiled (tests and check mode): every component in exactly one place,
counts within their bounds (state_errors), the settled state between actions (settled_errors), and
the check after each action (check_action). kernels.seastead.board's emit runs state_errors on
every event when a trace asks for check mode."""
from . import layout as L
from ..jit import kernel


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
