"""Fixed offsets of Seastead's two flat int32 arrays, and the codes the kernels share.

`cp` (components) is read-only: dive cards, flotilla tiles (both sides), dock tiles,
specialists, decrees, setup values and a table of effect rows, as analyzer.seastead.components
compiles them from a components file. `s` (state) is one game: supply, reserves, the four
flotillas, decks and displays, decisions' scratch values. Plain module-level integers, so numba
folds every offset to a constant.
"""

# Component counts (validated by analyzer.seastead.components).
NDIVE, NSPEC, NDECREE, NDOCK = 20, 16, 16, 12
NF, NL = 4, 6                  # flotilla tiles, locations per tile side
NLOC = NF * NL                 # locations on the table: tile f, location i is f * NL + i
MAX_SLOTS = 4                  # dock slots per tile side
MAX_DISPLAY = 6                # dock tiles face up
MAX_SPEC_DISPLAY = NSPEC       # specialists face up: the text's "16 ... in the display" fits
NRES = 4                       # fish, artifact, kelp, metal; ANY = 4 on dive cards and effects
ANY = 4
NTYPES = 3                     # port, academy, shipyard
PORT, ACADEMY, SHIPYARD = 0, 1, 2
BUILDING_NAMES = ("port", "academy", "shipyard")
BUILDING_PLURALS = ("ports", "academies", "shipyards")
PER_TYPE = 4                   # buildings of each type per player
NBUILD = NTYPES * PER_TYPE     # 12
NSHIPS = 4
MAX_EFFECTS = 8                # effect rows per location, specialist or decree
SECTION_ANY = 3                # dock section needing any building; -1 no requirement
BOSS = 1                       # in solo the Boss owns seat 1's buildings

SHALLOWS, SHELF, DEPTHS = 0, 1, 2

# Effect operations (one row: op, a, n).
(OP_GAIN, OP_CLEANUP, OP_DISCOUNT, OP_MOVE_SHIP, OP_MOVE_BUILDING, OP_EXTRA_ACTION, OP_DECREE,
 OP_SWAP_DEMAND, OP_REFRESH) = range(1, 10)
NOPS = 10

# Specialist use (when its owner may spend it on their turn) and reactions.
USE_DIVE, USE_BUILD, USE_BOTH = 1, 2, 3
REACT_NONE, REACT_BUILD, REACT_DIVE = 0, 1, 2
# Decree triggers and who they serve.
ON_BUILD, ON_PORT, ON_ACADEMY, ON_SHIPYARD, ON_DIVE = 1, 2, 3, 4, 5
WHO_ACTIVE, WHO_BOTH = 0, 1


def offsets(spec):
    """{name: offset} and the total size of consecutive (name, size) fields."""
    out, at = {}, 0
    for name, size in spec:
        out[name] = at
        at += size
    return out, at


# ---- components -------------------------------------------------------------------------------
_CP, CP_SIZE = offsets([
    ("DV_GROUP", NDIVE),                   # SHALLOWS / SHELF / DEPTHS
    ("DV_HALF", NDIVE * 2 * 5),            # [card][half][fish, artifact, kelp, metal, any]
    ("FL_COST", NF * 2 * NL),              # [tile][side][location] cost = points, 2..6
    ("FL_MAND", NF * 2 * NL),              # 1: the location effect is mandatory
    ("FL_SLOT", NF * 2 * MAX_SLOTS * 4),   # [tile][side][slot][section] location index, -1 unused
    ("DK_RES", NDOCK),                     # resource scored by the dock tile
    ("DK_SEC", NDOCK * 4),                 # building type per section, SECTION_ANY, -1 unmarked
    ("DK_PTS", NDOCK),                     # points per matched building
    ("SP_PTS", NSPEC), ("SP_USE", NSPEC), ("SP_REACT", NSPEC), ("SP_SOLO", NSPEC),
    ("DC_ON", NDECREE), ("DC_WHO", NDECREE),
    ("SU_START", 2 * 5),                   # starting resources of the first and second player
    ("SU_SOLO_EXTRA", 5),                  # extra starting resources in solo
    ("SU_SPEC_DISPLAY", 1), ("SU_DOCK_DISPLAY", 1), ("SU_CLEANUP", 1), ("SU_RES_PER_TYPE", 1),
    ("SU_DOCK_MAX", 1), ("SU_BOSS_BASE", 1), ("SU_BOSS_PER", 1), ("SU_SHORT_SCORES", 1),
    ("EF_LEN", 80),                        # effect lists: rows used by list l
    ("EF", 80 * MAX_EFFECTS * 3),          # [list][row][op, a, n]
])
# Effect list ids: location i of tile f, side sd is LIST_LOC + (f * 2 + sd) * NL + i; then the
# specialists and the decrees.
MAX_LISTS = 80
LIST_LOC, LIST_SPEC, LIST_DECREE = 0, NF * 2 * NL, NF * 2 * NL + NSPEC
globals().update({k: v for k, v in _CP.items()})

# ---- state ------------------------------------------------------------------------------------
_S, STATE_SIZE = offsets([
    ("PLAYERS", 1), ("SOLO", 1), ("CUR", 1), ("ROUND", 1), ("TRIGGER", 1), ("TRIG_ROUND", 1),
    ("OVER", 1), ("DECK_LEN", 1), ("DISC_LEN", 1), ("DECREE", 1), ("DCK_LEN", 1), ("DCK_OUT", 1),
    ("LOCKED", 1), ("CLEAN_SUPPLY", 1), ("SPEC_DECK_LEN", 1), ("DOCK_DECK_LEN", 1),
    ("ACTIONS", 1), ("TURN_ACTIONS", 1), ("RESHUFFLES", 1), ("BOSS_LEFT", 1), ("PREPAY", 1), ("COST_DISC", 1), ("BUILD_LOC", 1), ("USE_B", 1),
    ("SIDE", NF), ("DEMAND", NF),
    ("SUPPLY", NRES), ("RES", 2 * NRES), ("CLEAN", 2), ("SHORT", 2), ("BUILT", 2 * NTYPES),
    ("SHIPS_HOME", 2), ("SHIPS_BOX", 2), ("PEND_DISC", 2), ("EXTRA", 2),
    ("LOC_OWN", NLOC), ("LOC_TYPE", NLOC), ("LOC_SHIP", NLOC), ("LOC_BOSSN", NLOC),
    ("LOC_BOSSR", NLOC * NRES),
    ("SLOT_TILE", NF * MAX_SLOTS), ("SLOT_OWN", NF * MAX_SLOTS),
    ("DECK", NDIVE), ("DISC", NDIVE),
    ("SPEC_DECK", NSPEC), ("SPEC_DISP", MAX_SPEC_DISPLAY), ("SPEC_HELD", 2 * NSPEC),
    ("DOCK_DECK", NDOCK), ("DOCK_DISP", MAX_DISPLAY),
    ("DCK", NDECREE),
    # results and statistics of the game
    ("SCORE", 2 * 5), ("TOTAL", 2), ("WIN", 2), ("TIEBREAK", 1), ("BOSS_SCORE", 1),
    ("DIVES", 2), ("SPENT", 2), ("SHIP_BONUS", 2), ("EXTRAS", 2), ("DECREES_IN", 1),
    ("BOSS_BUILT", 1),
])
globals().update({k: v for k, v in _S.items()})

# End-trigger bits (TRIGGER holds those true when the end was first triggered).
TRIG_FULL, TRIG_BOARD, TRIG_DEPTHS, TRIG_CLEANUP = 1, 2, 4, 8
TRIGGER_NAMES = ("flotilla_full", "one_building_left", "depths_visible", "cleanup_exhausted")
MAX_ROUNDS = 150               # a safety net only: every game triggers its end long before

# Scoring categories, in the order of the score pad.
CATEGORY_NAMES = ("dock_resources", "dock_buildings", "locations", "specialists", "cleanup")

# ---- decisions --------------------------------------------------------------------------------
# Kinds of decision point, with the fields (a, b, c, d) of each option row.
(K_ACTION,        # (0 dive | 1 build, type, location, cost | 2 spend, specialist, 0, 0)
 K_SPLIT,         # (half the active player takes, dive card, 0, 0)
 K_WILD,          # (resource, 0, 0, 0) for one "any" icon
 K_DOCK,          # (display index, tile f, slot k, dock tile)
 K_SPEC,          # (display index, specialist, 0, 0)
 K_SHIP,          # (location, 0, 0, 0): where a ship goes (cheapest empty on its tile)
 K_LOC_EFFECT,    # (1 apply | 0 skip, location, 0, 0)
 K_SPEND,         # (specialist | -1 none, window, 0, 0)
 K_MOVE_SHIP,     # (from, to, 0, 0); (-1, -1) stop
 K_MOVE_BUILDING,  # (from, to, type, 0); (-1, -1, -1) keep
 K_SWAP,          # (f1, f2, locked, 0); (-1, -1, -1) keep
 K_REFRESH,       # (specialist, 0, 0, 0)
 K_DECREE,        # (decree entering, decree going under, 0, 0)
 K_PORT_BONUS,    # (tile f, slot k, cleanup gained, 0); (-1, -1, 0, 0) decline
 ) = range(14)
KIND_NAMES = ("action", "split", "wild", "dock", "specialist", "ship", "location_effect",
              "spend", "move_ship", "move_building", "swap", "refresh", "decree", "port_bonus")
MAX_OPTS = 256

# K_ACTION option kinds (field a).
ACT_DIVE, ACT_BUILD, ACT_SPEND = 0, 1, 2

# Spend windows (WIN_BEFORE: listed among the action options, before the action is chosen).
WIN_PREPAY, WIN_AFTER_DIVE, WIN_AFTER_BUILD, WIN_REACT_BUILD, WIN_REACT_DIVE, WIN_BEFORE = range(6)

# Player kinds (analyzer.seastead.players owns names and parameters).
P_RANDOM, P_HEURISTIC, P_SCRIPT, P_SEARCH, P_ASK = 0, 1, 2, 3, 4
# A P_ASK seat (a script's fallback at the table: kernels.seastead.table) does what the script's
# header field ASK_MODE says at its first decision: ASK_STOP raises players.Asked there (the state
# and the options left as they are, the seat, kind and count in the header), ASK_BRANCH redeals
# what no seat sees, switches to the stream in rng[4:8] and plays option ASK_ARG; then (and with
# ASK_OFF) it plays the heuristic with its parameters.
ASK_MODE, ASK_ARG = 2, 3                 # script header fields (0, 1: rows used, first error)
ASK_OFF, ASK_STOP, ASK_BRANCH = 0, 1, 2
MAX_PARAMS = 12
# Heuristic parameter slots.
(H_SPLIT, H_DENY, H_BUILD_AT, H_LOCATION, H_DEMAND_W, H_DOCK_W, H_SPEND_AT,
 H_EFFECT_W) = range(8)
# Search parameter slots (the search player's own decisions outside its searches, and its
# rollouts, use the heuristic's slots above).
S_ROLLOUTS, S_WIDTH = 8, 9
H_FALLBACK = MAX_PARAMS - 1    # script players: the kind that plays once the script runs out
#                                (a slot of its own: the fallback's parameters are the others)

# ---- trace events (code, player, a, b, c) ------------------------------------------------------
(E_ROUND, E_DIVE, E_TAKE, E_LOST, E_BUILD, E_DOCK, E_SPEC, E_SHIP, E_SHIP_BOX, E_SHIP_BONUS,
 E_CLEANUP, E_ROW, E_COLUMN, E_SPEND, E_LOC_EFFECT, E_EFFECT, E_DECREE, E_BOSS_RES, E_BOSS_BUILD,
 E_TRIGGER, E_SCORE, E_END, E_SHIP_MOVE, E_BUILDING_MOVE, E_REFRESH, E_RESHUFFLE, E_SETUP,
 E_MUST_DIVE, E_PAY) = range(29)
EVENT_FIELDS = (
    ("round", ("round", "", "")),
    ("dive", ("card", "half_taken", "group")),
    ("take", ("resource", "count", "wild")),          # resources from the supply
    ("lost", ("resource", "count", "")),              # short supply: not taken
    ("build", ("type", "location", "price")),         # chosen: the price before spends
    ("dock", ("tile", "slot", "flotilla")),           # tile -1: none taken
    ("specialist", ("specialist", "", "")),
    ("ship", ("location", "", "")),
    ("ship_box", ("", "", "")),
    ("ship_bonus", ("resource", "builder", "")),
    ("cleanup", ("gained", "shortfall", "supply_left")),
    ("row_bonus", ("type", "", "")),
    ("column_bonus", ("column", "", "")),
    ("spend", ("specialist", "window", "")),
    ("location_effect", ("location", "applied", "")),
    ("effect", ("op", "a", "n")),
    ("decree", ("entering", "under", "replaced")),
    ("boss_resources", ("location", "resource", "count")),
    ("boss_build", ("location", "returned", "")),
    ("trigger", ("conditions", "round", "")),
    ("score", ("category", "points", "")),
    ("end", ("winner", "tiebreak", "")),               # winner -1: shared; in solo 1 = the Boss
    ("ship_move", ("from", "to", "")),
    ("building_move", ("from", "to", "type")),
    ("refresh", ("specialist", "", "")),
    ("reshuffle", ("cards", "", "")),
    ("setup", ("first_card", "locked", "decree")),
    ("must_dive", ("", "", "")),
    ("pay", ("resource", "count", "location")),       # what the build cost after spends
)
EVENT_NAMES = tuple(f[0] for f in EVENT_FIELDS)
