"""One Seastead game, action by action: `seasalt seastead replay --seed S`.

The game is kernels.seastead.engine.play_game (kernels.seastead.search_batch.play_any when a seat
is the search player) with a trace buffer, on the random stream kernels.rng.seed_stream(seed, 0):
block 0's stream, whose first game it is, so the replayed game is game 0 of `seastead simulate
--games N --seed S` with the same components, setup and players.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from kernels.seastead import layout as L

from ..base.errors import SeasaltError
from ..rules.limits import check_seed
from .components import ICONS, Components, Setup, load
from .players import player_arrays, seat_players
from .runs import BUILDINGS, CATEGORIES, TRIGGERS, header

CAPACITY = 20_000
BOSS_TYPE = L.NTYPES
OPS = {L.OP_GAIN: "gain", L.OP_CLEANUP: "cleanup", L.OP_DISCOUNT: "discount",
       L.OP_MOVE_SHIP: "move_ship", L.OP_MOVE_BUILDING: "move_building",
       L.OP_EXTRA_ACTION: "extra_action", L.OP_DECREE: "decree", L.OP_SWAP_DEMAND: "swap_demand",
       L.OP_REFRESH: "refresh"}
WINDOWS = ("before paying", "after the dive", "after the build", "on the opponent's build",
           "on the opponent's dive", "before choosing the action")


def trace_game(comps: Components, setup: Setup, players, seed: int,
               check: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(final state, trace) of game 0 of `seed`; `check` also checks the invariants at every
    event (trace header fields 2, 3: first error code and its event number)."""
    pols = seat_players(list(players), 1 if setup.solo else 2)
    pk, pp = player_arrays(pols)
    from kernels.rng import seed_stream          # the engine, once the options are checked
    from kernels.seastead.engine import play_game
    s = np.zeros(L.STATE_SIZE, dtype=np.int32)
    tr = np.zeros((CAPACITY + 1, 5), dtype=np.int32)
    tr[0, 1] = int(check)
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    sc = np.zeros((0, 6), dtype=np.int32)
    if (pk == L.P_SEARCH).any():               # compiled only when a game has a search seat
        from kernels.seastead.search_batch import play_any
        play_any(s, comps.cp, setup.array(comps), pk, pp, seed_stream(seed, 0), tr, sc, ob,
                 np.zeros(4, dtype=np.int64))
    else:
        play_game(s, comps.cp, setup.array(comps), pk, pp, seed_stream(seed, 0), tr, sc, ob)
    if tr[0, 0] > CAPACITY:
        raise SeasaltError(f"the game needed more than {CAPACITY} trace events")
    return s, tr


def a_building(t: int) -> str:
    name = BUILDINGS[t]
    return ("an " if name[0] in "aeiou" else "a ") + name


def is_swap(e: dict) -> bool:
    """A swap of two demand tokens (f1 * 10 + f2 with f1 < f2; the effect row that asks for the
    swap, "effect swap_demand 0 N", comes before it)."""
    return e["event"] == "effect" and e["op"] == L.OP_SWAP_DEMAND and e["a"] // 10 < e["a"] % 10


class Namer:
    """Names of the components and of the state's codes, for people; follows the demand tokens
    through the game (describe() updates them at every swap), starting from the demand at setup
    (the final demand with the game's swaps undone, last first)."""

    def __init__(self, comps: Components, s: np.ndarray, events: list[dict] = ()):
        self.c = comps
        self.s = s
        self.tiles = comps.names("flotilla")
        self.demand = [int(s[L.DEMAND + f]) for f in range(L.NF)]
        self.locked = int(s[L.LOCKED])
        for e in reversed(events):
            if is_swap(e):
                self.swap(e["a"])
            elif e["event"] == "setup":
                self.locked = e["locked"]

    def swap(self, pair: int) -> tuple[int, int]:
        f1, f2 = divmod(int(pair), 10)
        self.demand[f1], self.demand[f2] = self.demand[f2], self.demand[f1]
        return f1, f2

    def demand_text(self) -> str:
        return ", ".join(f"{self.tiles[f]} {ICONS[r]}" + (" (locked)" if f == self.locked else "")
                         for f, r in enumerate(self.demand))

    def loc(self, loc: int) -> str:
        if loc < 0:
            return "nowhere"
        f, i = divmod(int(loc), L.NL)
        side = "ab"[int(self.s[L.SIDE + f])]
        cost = self.c.data["flotilla"][f][side]["locations"][i]["cost"]
        return f"{self.tiles[f]} {i} ({cost})"

    def spec(self, i: int) -> str:
        return self.c.names("specialist")[i] if i >= 0 else "none"

    def decree(self, i: int) -> str:
        return self.c.names("decree")[i] if i >= 0 else "none"

    def dock(self, i: int) -> str:
        return self.c.names("dock")[i] if i >= 0 else "none"


def event_dicts(tr: np.ndarray) -> list[dict]:
    out = []
    for code, p, *vals in tr[1:int(tr[0, 0]) + 1].tolist():
        name, fields = L.EVENT_FIELDS[code]
        e = {"event": name, "seat": p}
        for f, v in zip(fields, vals):
            if f:
                e[f] = v
        out.append(e)
    return out


def describe(e: dict, nm: Namer, solo: bool) -> str:
    """One event as a sentence."""
    who = "Boss" if (solo and e["seat"] == L.BOSS) else f"seat {e['seat']}"
    k = e["event"]
    res = lambda r: ICONS[r]  # noqa: E731
    if k == "round":
        return f"-- round {e['round']}"
    if k == "setup":
        card = e["first_card"]
        start = (f"start card {nm.c.data['dive'][card]['group']} #{card} (discarded)"
                 if card >= 0 else "no start card (solo)")
        return (f"setup: {start}, decree {nm.decree(e['decree'])}\n"
                f"  demand: {nm.demand_text()}")
    if k == "dive":
        return f"{who} dives: {nm.c.dive_label(e['card'])}, takes half {e['half_taken'] + 1}"
    if k == "take":
        return f"  {who} takes {e['count']} {res(e['resource'])}" + (" (wild)" if e["wild"] else "")
    if k == "lost":
        return f"  {who}: {e['count']} {res(e['resource'])} lost (short supply or nowhere to go)"
    if k == "build":
        r = res(nm.demand[e["location"] // L.NL])
        return (f"{who} builds {a_building(e['type'])} on {nm.loc(e['location'])}: price "
                f"{e['price']} {r}")
    if k == "pay":
        return f"  {who} pays {e['count']} {res(e['resource'])}"
    if k == "dock":
        if e["tile"] < 0:
            return f"  {who}: no dock tile (no tile in the display or no free slot)"
        return f"  {who} docks {nm.dock(e['tile'])} at {nm.tiles[e['flotilla']]} slot {e['slot']}"
    if k == "specialist":
        return f"  {who} takes specialist {nm.spec(e['specialist'])}"
    if k == "ship":
        return f"  {who} places a ship on {nm.loc(e['location'])}"
    if k == "ship_box":
        return f"  {who}'s ship goes back to the box (no empty location)"
    if k == "ship_bonus":
        r = e["resource"]
        return f"  {who} (ship owner) takes {'nothing' if r < 0 else res(r)} for free"
    if k == "cleanup":
        text = f"  {who} takes {e['gained']} cleanup"
        if e["shortfall"]:
            text += f", {e['shortfall']} recorded as shortfall"
        return text + f" ({e['supply_left']} left)"
    if k == "row_bonus":
        return f"  {who}: row bonus ({BUILDINGS[e['type']]})"
    if k == "column_bonus":
        return f"  {who}: column bonus (column {e['column'] + 1})"
    if k == "spend":
        return f"  {who} spends {nm.spec(e['specialist'])} {WINDOWS[e['window']]}"
    if k == "location_effect":
        return f"  {who} {'applies' if e['applied'] else 'skips'} the location effect"
    if k == "effect":
        if is_swap(e):
            f1, f2 = nm.swap(e["a"])
            nm.locked = e["n"]
            return (f"    swap demand tokens: {nm.tiles[f1]} now {res(nm.demand[f1])}, "
                    f"{nm.tiles[f2]} now {res(nm.demand[f2])}; lock on {nm.tiles[e['n']]}")
        arg = f" {res(e['a'])}" if e["op"] == L.OP_GAIN else ""
        return f"    effect: {OPS[e['op']]}{arg} {e['n']}"
    if k == "decree":
        return (f"  {who}: decree {nm.decree(e['entering'])} in force (was "
                f"{nm.decree(e['replaced'])}); {nm.decree(e['under'])} under the deck")
    if k == "boss_resources":
        return f"  Boss puts {e['count']} {res(e['resource'])} on {nm.loc(e['location'])}"
    if k == "boss_build":
        return (f"  Boss builds on {nm.loc(e['location'])} ({e['returned']} resources return)"
                if e["location"] >= 0 else f"  Boss has no building left ({e['returned']} return)")
    if k == "trigger":
        names = [t for i, t in enumerate(TRIGGERS) if (e["conditions"] >> i) & 1]
        return f"  END TRIGGERED in round {e['round']}: {', '.join(names)}"
    if k == "score":
        if e["category"] == 5:
            return f"score: Boss {e['points']}"
        return f"score: {who} {CATEGORIES[e['category']]} {e['points']}"
    if k == "end":
        if solo:
            return "result: " + ("the player beats the Boss" if e["winner"] == 0 else "the Boss wins")
        tb = ("", " (tie-break: buildings left)", " (tie-break: cleanup)", " (all tied: shared)")
        w = "shared" if e["winner"] < 0 else f"seat {e['winner']} wins"
        return f"result: {w}{tb[e['tiebreak']]}"
    if k == "ship_move":
        return f"  {who} moves a ship from {nm.loc(e['from'])} to {nm.loc(e['to'])}"
    if k == "building_move":
        return (f"  {who} moves {a_building(e['type'])} from {nm.loc(e['from'])} to "
                f"{nm.loc(e['to'])}")
    if k == "refresh":
        return f"  {who} turns {nm.spec(e['specialist'])} face up again"
    if k == "reshuffle":
        return f"  the discard pile is shuffled into a new dive deck ({e['cards']} cards)"
    if k == "must_dive":
        return f"{who} has no legal build and must dive"
    return f"  {k} {e}"


@dataclass(frozen=True)
class SeasteadReplaySpec:
    """One Seastead game to replay, validated once: game 0 of `seed` with these components,
    setup and players (canonical, one per seat)."""
    comps: Components
    setup: Setup
    players: tuple
    seed: int

    @classmethod
    def build(cls, seed: int, players: Sequence[str] = ("heuristic",),
              components: str | Components | None = None,
              setup: Setup = Setup()) -> "SeasteadReplaySpec":
        """Check the seed, the setup against the components and the players."""
        check_seed(seed)
        comps = components if isinstance(components, Components) else load(components)
        setup.array(comps)
        return cls(comps, setup, tuple(seat_players(list(players), 1 if setup.solo else 2)),
                   seed)


def replay(seed: int, players: Sequence[str] = ("heuristic",),
           components: str | Components | None = None, setup: Setup = Setup()) -> dict:
    """Game 0 of `seed` as JSON-ready data: events (with their text), scores, result."""
    return run(SeasteadReplaySpec.build(seed, players, components, setup))


def run(spec: SeasteadReplaySpec) -> dict:
    """replay() of a built spec."""
    comps, setup, pols, seed = spec.comps, spec.setup, list(spec.players), spec.seed
    s, tr = trace_game(comps, setup, [p.spec for p in pols], seed)
    events = event_dicts(tr)
    nm = Namer(comps, s, events)
    for e in events:
        e["text"] = describe(e, nm, setup.solo)
    seats = 1 if setup.solo else 2
    out = header(comps, setup, seed, "seastead replay")
    out.update({
        "players": [p.spec for p in pols], "short": {p.spec: p.short for p in pols},
        "stream": "kernels.rng.seed_stream(seed, 0)",
        "rounds": int(s[L.ROUND]),
        "demand": [ICONS[int(s[L.DEMAND + f])] for f in range(L.NF)],
        "scores": [{"seat": q, **{c: int(s[L.SCORE + q * 5 + k]) for k, c in enumerate(CATEGORIES)},
                    "total": int(s[L.TOTAL + q])} for q in range(seats)],
        "winners": [q for q in range(2) if s[L.WIN + q]],
        "boss_score": int(s[L.BOSS_SCORE]) if setup.solo else None,
        "events": events,
    })
    return out
