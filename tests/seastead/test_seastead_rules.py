"""Seastead's rules, one scripted position each (docs/seastead-rules.md): exact decisions in,
exact events, reserves and scores out. The positions use the illustrative components, whose
values a reader can look up in analyzer/seastead/illustrative.toml:

    tile 0 Driftwood  locations 0-5   costs 2 3 5 3 4 6  (0 gain any, 2 cleanup 1, 3 gain fish,
                                                          5 cleanup 2 mandatory)
    tile 1 Rustheap   locations 6-11  costs 2 3 4 2 5 6  (7 gain metal, 8 discount 1,
                                                          9 cleanup 1, 10 gain any)
    tile 2 Kelpfield  locations 12-17 costs 3 2 4 4 5 6  (12 gain kelp, 14 move_ship,
                                                          15 cleanup 1, 17 gain any 2)
    tile 3 Old Pier   locations 18-23 costs 2 3 3 4 5 6  (18 cleanup 1, 19 gain artifact,
                                                          21 gain any, 22 cleanup 1)
    dock slots on every A side: slot 0 faces locations 0 3 1 4, slot 1 faces 1 4 2 5 (per tile)

Every play checks all invariants at every event (analyzer.seastead.scripted.Table.play).
"""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.seastead.components import Setup, load
from analyzer.seastead.scripted import (ScriptError, Table, build, decree, dive, dock, loc_effect,
                                        move_building, move_ship, port_bonus, refresh, ship, spend,
                                        spend_first, specialist, split, swap, wild)
from kernels.seastead import board as kboard, effects as keffects, engine as ke
from kernels.seastead import layout as L

FISH, ARTIFACT, KELP, METAL = range(4)
PORT, ACADEMY, SHIPYARD = range(3)
FOUNDER, TRAWLER, INVESTOR, AGENT, WRECKER = range(5)
NAVIGATOR, DIVER, SALVAGER, HARBOURMASTER, QUARTERMASTER = 6, 7, 8, 9, 10
COST = [2, 3, 5, 3, 4, 6, 2, 3, 4, 2, 5, 6, 3, 2, 4, 4, 5, 6, 2, 3, 3, 4, 5, 6]


@pytest.fixture(scope="module")
def comps():
    return load()


def table(comps, game: Setup = Setup(), seed: int = 1) -> Table:
    """A set-up game with empty reserves, demand fish/artifact/kelp/metal on tiles 0-3 (tile 3
    locked), specialist display Navigator, Diver, Salvager and dock display 0, 1, 2."""
    t = Table(comps, seed, game)
    for p in range(t.at("PLAYERS")):
        t.resources(p)
    t.demand("fish", "artifact", "kelp", "metal", locked=3)
    t.specialists([NAVIGATOR, DIVER, SALVAGER])
    t.docks([0, 1, 2], deck_top=[5])
    return t


def ev(events, *names):
    """The events whose name is in `names`, as (name, seat, fields...) tuples."""
    out = []
    for e in events:
        if e["event"] in names:
            out.append((e["event"], e["seat"], *[v for k, v in e.items()
                                                  if k not in ("event", "seat", "text")]))
    return out


def res(t, p):
    return [t.at("RES", p * 4 + r) for r in range(4)]


# --- dive ---------------------------------------------------------------------------------------

def test_dive_active_player_picks_the_half_the_opponent_gets_the_other(comps):
    t = table(comps)
    t.deck(5)                                  # shelf: [artifact artifact | fish kelp]
    events = t.play([split(0, 1)], stop_after=1)
    assert ev(events, "must_dive", "dive", "take") == [
        ("must_dive", 0),                      # no resources: no legal build
        ("dive", 0, 5, 1, L.SHELF),
        ("take", 0, FISH, 1, 0), ("take", 0, KELP, 1, 0),
        ("take", 1, ARTIFACT, 2, 0)]
    assert res(t, 0) == [1, 0, 1, 0] and res(t, 1) == [0, 2, 0, 0]
    assert t.at("DISC", t.at("DISC_LEN") - 1) == 5          # face up on the discard pile


def test_wild_icons_are_chosen_by_their_receiver(comps):
    t = table(comps)
    t.deck(4)                                  # [fish fish kelp | metal any]
    events = t.play([split(0, 0), wild(1, "artifact")], stop_after=1)
    assert ev(events, "take") == [("take", 0, FISH, 2, 0), ("take", 0, KELP, 1, 0),
                                  ("take", 1, METAL, 1, 0), ("take", 1, ARTIFACT, 1, 1)]


def test_short_supply_active_player_first_the_rest_is_lost(comps):
    t = table(comps)
    t.resources(1, kelp=9)                      # one kelp left in the supply
    t.deck(6)                                   # [kelp kelp metal | artifact any]
    events = t.play([split(0, 1), wild(0, "kelp")], stop_after=1)
    assert ev(events, "take", "lost") == [
        ("take", 0, ARTIFACT, 1, 0), ("take", 0, KELP, 1, 1),      # the active player first
        ("lost", 1, KELP, 2), ("take", 1, METAL, 1, 0)]
    assert t.at("SUPPLY", KELP) == 0 and res(t, 1) == [0, 0, 9, 1]


def test_a_wild_with_an_empty_supply_is_lost(comps):
    t = table(comps)
    t.resources(1, fish=10, artifact=10, kelp=10, metal=10)
    t.deck(3)                                   # [kelp artifact | any]
    events = t.play([split(0, 1)], stop_after=1)
    assert ev(events, "take", "lost") == [("lost", 0, L.ANY, 1), ("lost", 1, ARTIFACT, 1),
                                          ("lost", 1, KELP, 1)]


# --- build --------------------------------------------------------------------------------------

def test_build_pays_the_demanded_resource_then_building_effect_then_location_effect(comps):
    t = table(comps)
    t.resources(0, fish=5, kelp=3)
    events = t.play([build(0, "port", 2), dock(0, tile=1), loc_effect(0, True)], stop_after=1)
    assert ev(events, "build", "dock", "location_effect", "effect", "cleanup") == [
        ("build", 0, PORT, 2, 5),
        ("dock", 0, 1, 1, 0),                  # tile 1 on Driftwood's slot 1 (faces location 2)
        ("location_effect", 0, 2, 1),
        ("effect", 0, L.OP_CLEANUP, 0, 1), ("cleanup", 0, 1, 0, 19)]
    assert res(t, 0) == [0, 0, 3, 0] and t.at("SUPPLY", FISH) == 10
    assert t.at("BUILT", PORT) == 1 and t.at("LOC_OWN", 2) == 0 and t.at("LOC_TYPE", 2) == PORT
    assert [t.at("DOCK_DISP", d) for d in range(3)] == [0, 5, 2]      # refilled from the deck


def test_optional_location_effect_can_be_skipped_mandatory_cannot(comps):
    t = table(comps)
    t.resources(0, fish=9)
    t.play([build(0, "port", 2), dock(0, tile=0), loc_effect(0, False)], stop_after=1)
    assert t.at("CLEAN") == 0
    t = table(comps)
    t.resources(0, fish=9)
    events = t.play([build(0, "port", 5), dock(0, tile=0)], stop_after=1)   # cleanup 2, mandatory
    assert ("cleanup", 0, 2, 0, 18) in ev(events, "cleanup")


def test_legal_builds_are_exactly_what_the_rules_allow(comps):
    """Type with buildings left, location without a building, cost (value - ship - pending
    discount, never below 0) affordable in the tile's demanded resource."""
    t = table(comps)
    t.resources(0, fish=3, artifact=2, metal=6)
    t.place(1, "port", 0)
    t.place(0, "academy", 7)
    for i in range(4):
        t.place(0, "shipyard", 12 + i)         # no shipyard left on seat 0's board
    t.put_ship(1, 3)
    t.set("PEND_DISC", 1, 0)
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    n = ke.action_options(t.s, t.cp, 0, ob)
    got = {tuple(int(x) for x in row) for row in ob[1:n]}
    want = set()
    for loc in range(24):
        if loc in (0, 7, 12, 13, 14, 15):
            continue
        cost = max(0, COST[loc] - (1 if loc == 3 else 0) - 1)
        have = res(t, 0)[[FISH, ARTIFACT, KELP, METAL][loc // 6]]
        if have >= cost:
            for typ in (PORT, ACADEMY):
                want.add((1, typ, loc, cost))
    assert tuple(ob[0]) == (0, 0, 0, 0) and got == want


def test_the_leftmost_building_of_a_row_and_a_full_row_cannot_be_built(comps):
    """Buildings leave the board row by row, leftmost first: the board is the count built per
    type, and a type with all four built cannot be chosen."""
    t = table(comps)
    t.resources(0, artifact=10)
    for loc in (0, 1, 3, 4):
        t.place(0, "port", loc)
    with pytest.raises(ScriptError):
        t.play([build(0, "port", 6)], stop_after=1)
    t = table(comps)
    t.resources(0, artifact=10)
    t.place(0, "port", 0)
    t.play([build(0, "port", 6), dock(0, tile=0)], stop_after=1)
    assert t.at("BUILT", PORT) == 2 and 12 - 2 == kboard.board_left(t.s, 0)


def test_an_illegal_build_is_refused(comps):
    t = table(comps)
    t.resources(0, fish=2)
    t.place(1, "port", 0)
    with pytest.raises(ScriptError):           # occupied
        t.play([build(0, "academy", 0)], stop_after=1)
    t = table(comps)
    t.resources(0, fish=2)
    with pytest.raises(ScriptError):           # cost 3 in fish, only 2
        t.play([build(0, "academy", 1)], stop_after=1)


def test_ship_discount_owner_bonus_and_forced_move(comps):
    t = table(comps)
    t.resources(0, artifact=3)
    t.put_ship(1, 7)                           # seat 1's ship on Rustheap 1 (cost 3)
    events = t.play([build(0, "academy", 7), specialist(0, DIVER), loc_effect(0, True),
                     wild(1, "kelp"), ship(1, 9)], stop_after=1)
    assert ev(events, "build", "ship_bonus", "take", "ship") == [
        ("build", 0, ACADEMY, 7, 2),           # 3 - 1 for the ship
        ("take", 0, METAL, 1, 0),              # location effect: gain metal
        ("take", 1, KELP, 1, 1), ("ship_bonus", 1, KELP, 0),
        ("ship", 1, 9)]                         # moved to a cheapest empty location
    assert t.at("LOC_SHIP", 7) == -1 and t.at("LOC_SHIP", 9) == 1 and res(t, 0) == [0, 1, 0, 1]


def test_building_on_your_own_ship_gives_the_discount_and_no_bonus(comps):
    t = table(comps)
    t.resources(0, fish=1)
    t.put_ship(0, 0)
    events = t.play([build(0, "port", 0), dock(0, tile=0, slot=0), loc_effect(0, False),
                     ship(0, 6)], stop_after=1)
    assert ev(events, "build")[0][-1] == 1 and not ev(events, "ship_bonus")
    assert t.at("LOC_SHIP", 6) == 0


def test_cost_never_below_zero_and_pending_discount_is_used_up(comps):
    t = table(comps)
    t.resources(0, artifact=4, metal=0)
    t.put_ship(1, 9)                           # on Rustheap 3 (cost 2)
    t.set("PEND_DISC", 2, 0)                   # e.g. from a discount effect earlier
    events = t.play([build(0, "port", 9), dock(0, tile=0), loc_effect(0, False),
                     wild(1, "fish"), ship(1, 6)], stop_after=1)
    assert ev(events, "build")[0] == ("build", 0, PORT, 9, 0)
    assert t.at("PEND_DISC") == 0


def test_shipyard_ship_goes_to_a_cheapest_empty_location_of_the_chosen_tile(comps):
    t = table(comps)
    t.resources(0, fish=3)
    t.place(1, "port", 6)                      # Rustheap's cheapest (2) now built: 9 is left
    t.put_ship(1, 18)                          # Old Pier's 2 has a ship: 19 or 20 (3)
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    n = kboard.ship_options(t.s, t.cp, ob)
    assert sorted(int(x) for x in ob[:n, 0]) == [0, 9, 13, 19, 20]
    events = t.play([build(0, "shipyard", 1), ship(0, 20)], stop_after=1)
    assert ("ship", 0, 20) in ev(events, "ship") and t.at("SHIPS_HOME") == 3


def test_shipyard_with_no_empty_location_boxes_the_ship_for_a_cleanup(comps):
    t = table(comps)
    t.resources(0, metal=6)
    for loc in (0, 1, 2):
        t.put_ship(0, loc)
    for loc in (3, 4, 5, 6):
        t.put_ship(1, loc)
    for i, loc in enumerate(range(7, 19)):
        t.place(1, ("port", "academy", "shipyard")[i % 3], loc)
    for loc, typ in ((19, "port"), (20, "port"), (21, "academy"), (22, "academy")):
        t.place(0, typ, loc)
    events = t.play([build(0, "shipyard", 23)], stop_after=1)      # the last location
    assert ev(events, "ship_box", "cleanup", "trigger") == [
        ("ship_box", 0), ("cleanup", 0, 1, 0, 19),
        ("trigger", 0, L.TRIG_FULL | L.TRIG_BOARD, 1)]        # and seat 1's board is empty
    assert t.at("SHIPS_BOX") == 1 and t.at("SHIPS_HOME") == 0


# --- specialists --------------------------------------------------------------------------------

def test_academy_takes_a_specialist_from_the_display_which_is_refilled(comps):
    t = table(comps)
    t.resources(0, fish=3)
    top = t.at("SPEC_DECK", t.at("SPEC_DECK_LEN") - 1)
    events = t.play([build(0, "academy", 1), specialist(0, SALVAGER)], stop_after=1)
    assert ev(events, "specialist") == [("specialist", 0, SALVAGER)]
    assert t.at("SPEC_HELD", SALVAGER) == 1
    assert [t.at("SPEC_DISP", d) for d in range(3)] == [NAVIGATOR, DIVER, top]


def test_a_specialist_spent_before_paying_lowers_the_price_and_scores_nothing(comps):
    t = table(comps)
    t.resources(0, fish=4)
    t.specialists([NAVIGATOR, DIVER, SALVAGER], {0: {FOUNDER: 1}})      # Founder: discount 2
    events = t.play([build(0, "port", 4), spend(0, FOUNDER), dock(0, tile=0)], stop_after=1)
    assert ev(events, "build", "spend", "pay") == [("build", 0, PORT, 4, 4),
                                                   ("spend", 0, FOUNDER, L.WIN_PREPAY),
                                                   ("pay", 0, FISH, 2, 4)]   # 4 - 2
    assert t.at("SPEC_HELD", FOUNDER) == 2 and res(t, 0) == [2, 0, 0, 0]
    assert t.score() and t.at("SCORE", 3) == 0                          # spent: no points


def action_rows(t, p=0):
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    n = ke.action_options(t.s, t.cp, p, ob)
    return [tuple(int(x) for x in row) for row in ob[:n]]


def test_a_spend_before_the_action_makes_a_build_legal_and_the_heuristic_takes_it(comps):
    """"Sıranız geldiğinde dilediğiniz sırada": a face-up specialist may be spent before the
    action is chosen, and the forced dive is decided after it. Seat 0 has 1 fish; the cheapest
    fish location costs 2. Harbourmaster (discount 1, cleanup 1) is listed as an action; spent,
    it makes Driftwood 0 cost 1, and the heuristic, which prefers that build to a dive, builds."""
    t = table(comps)
    t.resources(0, fish=1)
    t.specialists([NAVIGATOR, DIVER, SALVAGER], {0: {HARBOURMASTER: 1}})
    assert action_rows(t) == [(L.ACT_DIVE, 0, 0, 0), (L.ACT_SPEND, HARBOURMASTER, 0, 0)]
    events = t.play([], stop_after=1, fallback="heuristic")
    assert ev(events, "must_dive", "spend", "build", "dive")[:2] == [
        ("spend", 0, HARBOURMASTER, L.WIN_BEFORE), ("build", 0, PORT, 0, 1)]
    assert not ev(events, "must_dive", "dive") and t.at("LOC_OWN", 0) == 0
    assert t.at("PEND_DISC") == 0 and t.at("SPEC_HELD", HARBOURMASTER) == 2
    t = table(comps)                           # the same position without the card: must dive
    t.resources(0, fish=1)
    events = t.play([], stop_after=1, fallback="heuristic")
    assert ev(events, "must_dive", "spend", "build")[:1] == [("must_dive", 0)]


def test_spends_before_the_action_are_scripted_and_the_forced_dive_comes_after_them(comps):
    """Scripted: spend Harbourmaster first; the build list is then made at the new prices; a
    spend that makes no build legal still leaves the dive forced (dive-only cards are not
    listed before the action: they serve the dive, after it)."""
    t = table(comps)
    t.resources(0, fish=1)
    t.specialists([NAVIGATOR, DIVER, SALVAGER], {0: {HARBOURMASTER: 1}})
    events = t.play([spend_first(0, HARBOURMASTER), build(0, "academy", 0),
                     specialist(0, NAVIGATOR), loc_effect(0, False)], stop_after=1)
    assert ev(events, "build") == [("build", 0, ACADEMY, 0, 1)]
    t = table(comps)
    t.specialists([NAVIGATOR, SALVAGER, QUARTERMASTER], {0: {HARBOURMASTER: 1, DIVER: 1}})
    assert action_rows(t) == [(L.ACT_DIVE, 0, 0, 0), (L.ACT_SPEND, HARBOURMASTER, 0, 0)]
    t.deck(5)
    events = t.play([spend_first(0, HARBOURMASTER), split(0, 0), spend(0)], stop_after=1)
    assert ev(events, "spend", "must_dive", "dive") == [
        ("spend", 0, HARBOURMASTER, L.WIN_BEFORE), ("must_dive", 0), ("dive", 0, 5, 0, L.SHELF)]


def test_investor_reacts_to_the_opponents_build_agent_to_the_opponents_dive(comps):
    t = table(comps)
    t.resources(0, fish=3)
    t.specialists([NAVIGATOR, DIVER, SALVAGER], {1: {INVESTOR: 1, AGENT: 1}})
    t.deck(0)                                  # [fish kelp | artifact]
    events = t.play([build(0, "port", 1), dock(0, tile=0),
                     spend(1, INVESTOR), wild(1, "metal"), wild(1, "metal"),   # on the build
                     dive(1), split(1, 0), spend(1)], stop_after=2)           # seat 1's dive
    assert ev(events, "spend") == [("spend", 1, INVESTOR, L.WIN_REACT_BUILD)]
    assert res(t, 1) == [1, 0, 1, 2]            # 2 metal from the Investor, then its dive
    t = table(comps)
    t.specialists([NAVIGATOR, DIVER, SALVAGER], {1: {AGENT: 1}})
    t.deck(0)
    events = t.play([split(0, 0), spend(1, AGENT), wild(1, "fish")], stop_after=1)
    assert ev(events, "spend") == [("spend", 1, AGENT, L.WIN_REACT_DIVE)]
    assert t.at("CLEAN", 1) == 1


def test_wrecker_moves_a_building_ship_there_moves_without_discount_or_bonus(comps):
    t = table(comps)
    t.resources(0, fish=3)
    t.place(0, "academy", 12)
    t.put_ship(1, 23)
    t.specialists([NAVIGATOR, DIVER, SALVAGER], {0: {WRECKER: 1}})
    events = t.play([build(0, "port", 1), spend(0), dock(0, tile=0),
                     spend(0, WRECKER), move_building(0, 12, 23), ship(1, 6)], stop_after=1)
    assert ev(events, "building_move", "ship", "ship_bonus", "location_effect") == [
        ("building_move", 0, 12, 23, ACADEMY), ("ship", 1, 6)]
    assert t.at("LOC_OWN", 12) == -1 and t.at("LOC_OWN", 23) == 0 and t.at("RES", 4) == 0


# --- bonuses ------------------------------------------------------------------------------------

def test_last_port_row_bonus_cleanup_per_matching_resource_at_most_three(comps):
    t = table(comps)
    t.resources(0, fish=8, artifact=5)
    for loc in (6, 7, 8):
        t.place(0, "port", loc)
    t.docks([2, 4, 5], {(1, 0): (0, 0), (1, 1): (3, 0)})   # Fish Market (fish), Museum Quay
    events = t.play([build(0, "port", 3), dock(0, tile=2), loc_effect(0, False),
                     port_bonus(0, 1, 0)], stop_after=1)
    assert ev(events, "row_bonus") == [("row_bonus", 0, PORT)]
    assert ev(events, "cleanup") == [("cleanup", 0, 3, 0, 17)]      # 5 fish left: capped at 3


def test_the_port_row_bonus_may_be_declined(comps):
    """"... 1 temizlik jetonu alabilirsiniz" (may take): with 3 cleanup tokens left, taking
    them would trigger the end; seat 0 declines, nothing is taken, the end is not triggered."""
    t = table(comps)
    t.resources(0, fish=8)
    for loc in (6, 7, 8):
        t.place(0, "port", loc)
    t.docks([2, 4, 5], {(1, 0): (0, 0)})                   # Fish Market (fish) is seat 0's
    t.cleanup_supply(3)
    t.play([build(0, "port", 3), dock(0, tile=2), loc_effect(0, False), port_bonus(0)],
           stop_after=1)
    assert t.at("CLEAN") == 0 and t.at("CLEAN_SUPPLY") == 3 and t.at("TRIG_ROUND") == -1
    t = table(comps)
    t.resources(0, fish=8)
    for loc in (6, 7, 8):
        t.place(0, "port", loc)
    t.docks([2, 4, 5], {(1, 0): (0, 0)})
    t.cleanup_supply(3)
    events = t.play([build(0, "port", 3), dock(0, tile=2), loc_effect(0, False),
                     port_bonus(0, 1, 0)], stop_after=1)
    assert ev(events, "cleanup", "trigger") == [("cleanup", 0, 3, 0, 0),
                                                ("trigger", 0, L.TRIG_CLEANUP, 1)]


def test_last_academy_row_bonus_refreshes_a_spent_specialist(comps):
    t = table(comps)
    t.resources(0, fish=3)
    for loc in (6, 7, 8):
        t.place(0, "academy", loc)
    t.specialists([NAVIGATOR, DIVER, SALVAGER], {0: {QUARTERMASTER: 2, FOUNDER: 2}})
    events = t.play([build(0, "academy", 1), specialist(0, DIVER), refresh(0, QUARTERMASTER),
                     spend(0)], stop_after=1)
    assert ev(events, "refresh") == [("refresh", 0, QUARTERMASTER)]
    assert t.at("SPEC_HELD", QUARTERMASTER) == 1 and t.at("SPEC_HELD", FOUNDER) == 2


def test_last_shipyard_row_bonus_moves_ships_freely(comps):
    t = table(comps)
    t.resources(0, fish=3)
    for loc in (6, 7, 8):
        t.place(0, "shipyard", loc)
    t.put_ship(0, 9)
    t.put_ship(0, 10)
    t.put_ship(0, 11)
    events = t.play([build(0, "shipyard", 1), ship(0, 0), move_ship(0, 9, 23),
                     move_ship(0, 10, 17), move_ship(0)], stop_after=1)
    assert ev(events, "ship_move") == [("ship_move", 0, 9, 23), ("ship_move", 0, 10, 17)]
    assert [t.at("LOC_SHIP", x) for x in (9, 10, 11, 17, 23)] == [-1, -1, 0, 0, 0]


def test_column_bonus_swaps_two_unlocked_demand_tokens_and_moves_the_lock(comps):
    t = table(comps)
    t.resources(0, fish=3)
    t.place(0, "port", 6)
    t.place(0, "academy", 7)
    events = t.play([build(0, "shipyard", 1), ship(0, 0), swap(0, 1, 2, 2)], stop_after=1)
    assert ev(events, "column_bonus") == [("column_bonus", 0, 0)]
    assert [t.at("DEMAND", f) for f in range(4)] == [FISH, KELP, ARTIFACT, METAL]
    assert t.at("LOCKED") == 2
    # the locked tile (now 2) cannot be part of the next swap
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    keffects.swap_demand(t.s, t.cp, 0, np.array([0, 0], dtype=np.int64), np.zeros((2, L.MAX_PARAMS)),
                   t.rng, np.zeros((0, 5), dtype=np.int32), np.zeros((0, 6), dtype=np.int32), ob)
    pairs = {(int(r[0]), int(r[1])) for r in ob[1:7]}
    assert tuple(ob[0, :3]) == (-1, -1, -1) and pairs == {(0, 1), (0, 3), (1, 3)}


# --- cleanup, the end, scoring ------------------------------------------------------------------

def test_cleanup_shortfall_is_recorded_and_triggers_the_end(comps):
    t = table(comps)
    t.resources(0, fish=6)
    t.cleanup_supply(1)
    events = t.play([build(0, "port", 5), dock(0, tile=0)], stop_after=1)
    assert ev(events, "cleanup", "trigger") == [
        ("cleanup", 0, 1, 1, 0), ("trigger", 0, L.TRIG_CLEANUP, 1)]
    assert t.at("CLEAN") == 1 and t.at("SHORT") == 1
    t.score()
    assert t.at("SCORE", 4) == 2               # the shortfall scores (setup value true)


@pytest.mark.parametrize("condition", ["depths", "board", "full", "cleanup"])
def test_an_end_trigger_finishes_the_round_then_one_more(comps, condition):
    t = table(comps)
    if condition == "depths":                  # one shelf card above the depths: dive it
        cards = [int(c) for c in t.s[L.DECK:L.DECK + t.at("DECK_LEN")]] + \
            [int(c) for c in t.s[L.DISC:L.DISC + t.at("DISC_LEN")]]
        deck = [16, 17, 18, 19, 4]
        disc = [c for c in cards if c not in deck]
        t.s[L.DECK:L.DECK + 5] = deck
        t.set("DECK_LEN", 5)
        t.s[L.DISC:L.DISC + len(disc)] = disc
        t.set("DISC_LEN", len(disc))
        script = [split(0, 0)]
    elif condition == "board":                 # 10 built, the 11th leaves one on the board
        t.resources(0, fish=3)
        for i, loc in enumerate((6, 7, 8, 9, 10, 12, 13, 14, 15, 16)):
            t.place(0, ("port", "academy", "shipyard")[i % 3], loc)
        script = [build(0, "academy", 1), specialist(0, DIVER)]
    elif condition == "full":                  # the sixth location of Driftwood
        t.resources(0, fish=3)
        for loc in (0, 2, 3, 4, 5):
            t.place(1, "port" if loc < 4 else "academy", loc)
        script = [build(0, "academy", 1), specialist(0, DIVER)]
    else:                                      # the last cleanup tokens
        t.resources(0, fish=6)
        t.cleanup_supply(2)
        script = [build(0, "port", 5), dock(0, tile=0)]
    events = t.play(script)
    trig = ev(events, "trigger")
    bit = {"depths": L.TRIG_DEPTHS, "board": L.TRIG_BOARD, "full": L.TRIG_FULL,
           "cleanup": L.TRIG_CLEANUP}[condition]
    assert trig == [("trigger", 0, bit, 1)]
    rounds = [e["round"] for e in events if e["event"] == "round"]
    assert rounds == [1, 2] and t.at("OVER") == 1
    start = next(i for i, e in enumerate(events) if e["event"] == "trigger")
    after = [e["seat"] for e in events[start:] if e["event"] in ("dive", "build")]
    assert after[:3] == [1, 0, 1]              # seat 1 in round 1, both seats in round 2


def test_final_scoring_five_categories(comps):
    t = table(comps)
    t.resources(0, fish=5, kelp=2)
    t.resources(1, fish=2)
    t.docks([2, 3, 4], {(0, 0): (0, 0), (0, 1): (1, 1)})   # Fish Market seat 0, Smokehouse seat 1
    t.place(0, "port", 0)                      # Fish Market section 1: port -> seat 0 +2
    t.place(1, "academy", 4)                   # Fish Market section 4: academy -> seat 1 +2
    t.place(0, "shipyard", 1)                  # Smokehouse section 1: any -> seat 0 +1
    t.place(1, "port", 2)                      # Smokehouse section 3: any -> seat 1 +1
    t.specialists([NAVIGATOR, DIVER, SALVAGER], {0: {FOUNDER: 1, TRAWLER: 2},
                                                  1: {QUARTERMASTER: 1}})
    t.set("CLEAN_SUPPLY", 18)
    t.set("CLEAN", 2, 0)
    events = t.score()
    scores = [[e["points"] for e in events if e["event"] == "score" and e["seat"] == q]
              for q in (0, 1)]
    assert scores == [[3, 3, 5, 2, 2], [2, 3, 9, 3, 0]]
    assert [t.at("TOTAL", q) for q in (0, 1)] == [15, 17]
    assert ev(events, "end") == [("end", 0, 1, 0)]
    assert res(t, 0) == [2, 0, 2, 0] and t.at("SUPPLY", FISH) == 10 - 2   # used fish returned


def test_tie_breaks_buildings_left_then_cleanup_then_shared(comps):
    def scored(seat0: list[int], seat1: list[int], cleanup=(0, 0), founder_for=None):
        """Ports on the given locations, cleanup tokens, and Founder (2 points) face up."""
        t = table(comps)
        for q, locs in enumerate((seat0, seat1)):
            for loc in locs:
                t.place(q, "port", loc)
            t.set("CLEAN", cleanup[q], q)
        t.set("CLEAN_SUPPLY", 20 - sum(cleanup))
        if founder_for is not None:
            t.specialists([NAVIGATOR, DIVER, SALVAGER], {founder_for: {FOUNDER: 1}})
        return ev(t.score(), "end")

    assert scored([4], [0]) == [("end", 0, 0, 0)]                  # 4 > 2
    assert scored([0], [6], (1, 1)) == [("end", 0, -1, 3)]        # 3 = 3, 11 = 11, 1 = 1: shared
    assert scored([4], [6, 9]) == [("end", 0, 0, 1)]              # 4 = 4: more buildings left
    assert scored([6], [18], (2, 0), founder_for=1) == [("end", 0, 0, 2)]   # 4 = 4: cleanup


# --- decrees (B sides) ----------------------------------------------------------------------------

def test_a_decree_trigger_draws_two_one_enters_one_goes_under(comps):
    t = table(comps, Setup(sides="BBBB"))
    t.decrees(in_force=2, deck_top=[7, 9])
    t.resources(0, fish=2)
    events = t.play([build(0, "port", 0), dock(0, tile=0, slot=0), decree(0, 9)], stop_after=1)
    assert ev(events, "decree") == [("decree", 0, 9, 7, 2)]   # in force before: Harbour Levy
    assert t.at("DECREE") == 9 and t.at("DCK") == 7 and t.at("DCK_OUT") == 1
    # Harbour Levy (a port: 1 cleanup) was in force when the port was chosen: it applies to it
    assert ev(events, "cleanup") == [("cleanup", 0, 1, 0, 19)]


def test_one_build_gets_one_decree_the_one_in_force_when_it_was_chosen(comps):
    """"Aynı anda yalnızca 1 ferman kartı geçerlidir": Public Works (builds cost 1 less) is in
    force when seat 0 chooses Driftwood B 0 (cost 2, draws decrees); Clean Seas (a build: 1
    cleanup) enters during the build and serves the next build, not this one."""
    t = table(comps, Setup(sides="BBBB"))
    t.decrees(in_force=1, deck_top=[5, 8])
    t.resources(0, fish=1, kelp=2)
    events = t.play([build(0, "port", 0), dock(0, tile=0, slot=0), decree(0, 5),
                     split(1, 0), build(0, "academy", 13), specialist(0, NAVIGATOR),
                     loc_effect(0, False)], stop_after=3)
    assert ev(events, "build", "decree", "cleanup") == [
        ("build", 0, PORT, 0, 1), ("decree", 0, 5, 8, 1),          # 2 - 1 (Public Works)
        ("build", 0, ACADEMY, 13, 2), ("cleanup", 0, 1, 0, 19)]     # Clean Seas, no discount


def test_decrees_in_force_change_costs_and_give_both_players_active_first(comps):
    t = table(comps, Setup(sides="BBBB"))
    t.decrees(in_force=1, deck_top=[])          # Public Works: builds cost 1 less
    t.resources(0, fish=2)                      # Driftwood B location 1 costs 3
    events = t.play([build(0, "port", 1), dock(0, tile=0), loc_effect(0, False)], stop_after=1)
    assert ev(events, "build")[0] == ("build", 0, PORT, 1, 2)
    t = table(comps, Setup(sides="BBBB"))
    t.decrees(in_force=0, deck_top=[])          # Tithe of Kelp: a dive gives both a kelp
    t.resources(1, kelp=9)
    t.deck(2)                                   # [artifact metal | fish]
    events = t.play([split(0, 1)], stop_after=1)
    assert ev(events, "take", "lost")[-2:] == [("take", 0, KELP, 1, 0), ("lost", 1, KELP, 1)]


# --- solo ---------------------------------------------------------------------------------------

def test_solo_boss_resources_then_a_building_on_the_second_delivery(comps):
    t = table(comps, Setup(solo=True))
    t.deck(5, 11)                              # [artifact artifact | fish kelp], then
    events = t.play([split(0, 0)], stop_after=1)   # [artifact kelp | fish fish]
    assert ev(events, "boss_resources") == [("boss_resources", 1, 0, FISH, 1),   # Driftwood 0 (2)
                                            ("boss_resources", 1, 13, KELP, 1)]  # Kelpfield 1 (2)
    events = t.play([dive(0), split(0, 0)], stop_after=2)        # 2 artifacts: could build
    assert ev(events, "boss_build", "boss_resources") == [("boss_build", 1, 0, 1)]
    assert t.at("LOC_OWN", 0) == L.BOSS and t.at("SUPPLY", FISH) == 10 and t.at("BOSS_LEFT") == 11
    t.score()
    assert t.at("BOSS_SCORE") == 20 + 3 * 1


def test_solo_one_dive_two_boss_buildings_moves_both_ships(comps):
    """A dive whose Boss half completes two locations builds twice; the player's ship under each
    new Boss building is moved at once (the Boss's orange ships are out of the game)."""
    t = table(comps, Setup(solo=True))
    for loc, r in ((0, FISH), (13, KELP)):       # first deliveries: Driftwood 0, Kelpfield 1
        t.set("LOC_BOSSN", 1, loc)
        t.set("LOC_BOSSR", 1, loc * 4 + r)
        t.set("SUPPLY", t.at("SUPPLY", r) - 1, r)
        t.put_ship(0, loc)
    t.deck(5)                                    # [artifact artifact | fish kelp]
    events = t.play([split(0, 0), ship(0, 6), ship(0, 18)], stop_after=1)
    assert ev(events, "boss_build", "ship") == [
        ("boss_build", L.BOSS, 0, 1), ("ship", 0, 6),       # Rustheap 0 (2)
        ("boss_build", L.BOSS, 13, 1), ("ship", 0, 18)]     # Old Pier 0 (2)
    assert [t.at("LOC_SHIP", loc) for loc in (0, 13, 6, 18)] == [-1, -1, 0, 0]
    assert t.at("BOSS_BUILT") == 2 and t.errors() == 0


def test_a_ship_under_a_building_breaks_the_settled_invariant(comps):
    t = table(comps)
    t.place(0, "port", 4)
    assert t.errors() == 0
    t.put_ship(1, 4)
    assert t.errors() == 9


def test_solo_setup_removes_depths_decrees_and_four_specialists(comps):
    t = Table(comps, 3, Setup(solo=True))
    cards = [int(c) for c in t.s[L.DECK:L.DECK + t.at("DECK_LEN")]]
    assert sorted(cards) == list(range(16)) and t.at("DECREE") == -1
    specs = set(int(c) for c in t.s[L.SPEC_DECK:L.SPEC_DECK + t.at("SPEC_DECK_LEN")]) | \
        {int(t.at("SPEC_DISP", d)) for d in range(3)}
    assert specs == set(range(4, 16)) and t.at("SHIPS_HOME", 1) == 0
    assert sum(res(t, 0)) == 3                 # 2 starting resources + 1 for solo


def test_solo_the_player_must_score_more_than_the_boss(comps):
    t = table(comps, Setup(solo=True))
    for loc in (6, 7, 8, 9, 10, 11):
        t.place(L.BOSS, "port", loc)           # 20 + 18 = 38
    for loc, typ in ((5, "port"), (17, "academy"), (23, "shipyard"), (4, "port"), (22, "academy"),
                     (16, "shipyard"), (21, "port")):
        t.place(0, typ, loc)                   # 6 + 6 + 6 + 4 + 5 + 5 + 4 = 36
    t.set("CLEAN", 2)
    t.set("CLEAN_SUPPLY", 18)
    assert ev(t.score(), "end") == [("end", 0, 1, 0)]                  # 38 = 38: the Boss
    t.set("CLEAN", 3)
    t.set("CLEAN_SUPPLY", 17)
    t.s[L.SCORE:L.SCORE + 10] = 0
    t.s[L.WIN:L.WIN + 2] = 0
    assert ev(t.score(), "end") == [("end", 0, 0, 0)]


def test_an_extra_action_is_taken_on_the_same_turn(comps):
    t = table(comps, Setup(sides="BBBB"))
    t.decrees(in_force=15, deck_top=[])         # Night Market: fires on dives only
    t.resources(0, artifact=5)                  # Rustheap B location 4 (10): cost 5, extra_action
    t.deck(0)
    events = t.play([build(0, "port", 10), dock(0, tile=0, slot=0), loc_effect(0, True),
                     split(0, 1)], stop_after=2)
    assert [(e["event"], e["seat"]) for e in events if e["event"] in ("build", "dive")] == [
        ("build", 0), ("dive", 0)]              # seat 0 again, before seat 1's turn
    assert t.at("EXTRAS") == 1 and t.at("ACTIONS") == 2


def test_the_shortfall_scores_only_if_the_components_say_so(comps):
    import copy
    from analyzer.seastead.components import from_dict
    data = copy.deepcopy(comps.data)
    data["setup"]["cleanup_shortfall_scores"] = False
    t = table(from_dict(data, "test", "0" * 64))
    t.resources(0, fish=6)
    t.cleanup_supply(1)
    t.play([build(0, "port", 5), dock(0, tile=0)], stop_after=1)   # cleanup 2: 1 taken, 1 short
    t.score()
    assert t.at("SHORT") == 1 and t.at("SCORE", 4) == 1
