"""Exact Seastead positions and scripted games, for tests and for anyone checking a rule.

    t = Table(comps, seed=1)                 # a set-up game (kernels.seastead.engine.setup)
    t.deck("shelf 5", 7)                     # the next dive cards, top first (index or label)
    t.resources(0, fish=3)                   # seat 0's reserve (the supply keeps the total)
    events = t.play([build(0, "port", 3), dock(0, tile=2), dive(1), split(1, 0)], stop_after=2)

A script is a list of rows (seat, decision kind, a, b, c, d) matched against the engine's legal
options (kernels.seastead.players.P_SCRIPT; ANY matches every value); decisions with a single
option are never asked. After the script, the seats play as `fallback` (a player spec such as
"heuristic(build_at=1)"). `play` checks every invariant at every event (and, after every
action, that no ship stands on a building) and fails if the script did not match or was not
used up.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from kernels.rng import seed_stream
from kernels.seastead import layout as L
from kernels.seastead.engine import final_score, play_on, setup
from kernels.seastead.invariants import settled_errors
from kernels.seastead.players import WILDCARD as ANY

from .components import BUILDINGS, ICONS, Components, Setup
from .replay import event_dicts

RES = {name: i for i, name in enumerate(ICONS)}
TYPE = {name: i for i, name in enumerate(BUILDINGS)}


def _res(r) -> int:
    return RES[r] if isinstance(r, str) else r


def _type(t) -> int:
    return TYPE[t] if isinstance(t, str) else t


# ---- script rows --------------------------------------------------------------------------------
def dive(p): return (p, L.K_ACTION, 0, ANY, ANY, ANY)
def build(p, t, loc): return (p, L.K_ACTION, 1, _type(t), loc, ANY)
def spend_first(p, sp): return (p, L.K_ACTION, 2, sp, ANY, ANY)      # before the action
def split(p, half): return (p, L.K_SPLIT, half, ANY, ANY, ANY)
def wild(p, r): return (p, L.K_WILD, _res(r), ANY, ANY, ANY)
def dock(p, tile=ANY, slot=ANY): return (p, L.K_DOCK, ANY, ANY, slot, tile)
def specialist(p, sp): return (p, L.K_SPEC, ANY, sp, ANY, ANY)
def ship(p, loc): return (p, L.K_SHIP, loc, ANY, ANY, ANY)
def loc_effect(p, apply=True): return (p, L.K_LOC_EFFECT, int(apply), ANY, ANY, ANY)
def spend(p, sp=-1): return (p, L.K_SPEND, sp, ANY, ANY, ANY)
def move_ship(p, a=-1, b=-1): return (p, L.K_MOVE_SHIP, a, b, ANY, ANY)
def move_building(p, a=-1, b=-1): return (p, L.K_MOVE_BUILDING, a, b, ANY, ANY)
def swap(p, f1=-1, f2=-1, lock=-1): return (p, L.K_SWAP, f1, f2, lock, ANY)
def refresh(p, sp): return (p, L.K_REFRESH, sp, ANY, ANY, ANY)
def decree(p, enter): return (p, L.K_DECREE, enter, ANY, ANY, ANY)
def port_bonus(p, f=-1, k=-1): return (p, L.K_PORT_BONUS, f, k, ANY, ANY)   # -1: decline


class ScriptError(AssertionError):
    pass


class Table:
    """A game state to arrange and play on, with the components it is played with."""

    def __init__(self, comps: Components, seed: int = 1, game: Setup = Setup(),
                 start: Iterable[tuple] = ()):
        self.comps = comps
        self.cp = comps.cp
        self.s = np.zeros(L.STATE_SIZE, dtype=np.int32)
        self.rng = seed_stream(seed, 0)
        self.ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
        pk, pp = self._players("random")
        sc = self._script(list(start))
        setup(self.s, self.cp, game.array(comps), pk, pp, self.rng, self._trace(), sc, self.ob)

    # -- arranging --
    def at(self, key: str, i: int = 0) -> int:
        return int(self.s[getattr(L, key) + i])

    def set(self, key: str, value: int, i: int = 0) -> None:
        self.s[getattr(L, key) + i] = value

    def deck(self, *cards: int) -> None:
        """Put these dive cards (indices) on top of the deck, the first on top, taking them from
        the deck or the discard pile; the deck's other cards stay below in their order."""
        deck = [int(x) for x in self.s[L.DECK:L.DECK + self.at("DECK_LEN")]]
        disc = [int(x) for x in self.s[L.DISC:L.DISC + self.at("DISC_LEN")]]
        for c in cards:
            (deck if c in deck else disc).remove(c)
        deck += list(reversed(cards))
        self.s[L.DECK:L.DECK + len(deck)] = deck
        self.set("DECK_LEN", len(deck))
        self.s[L.DISC:L.DISC + len(disc)] = disc
        self.set("DISC_LEN", len(disc))

    def resources(self, p: int, **counts: int) -> None:
        """Seat p's reserve; unnamed resources become 0. The supply gives or takes the difference."""
        for r, name in enumerate(ICONS[:L.NRES]):
            want = counts.get(name, 0)
            have = self.at("RES", p * L.NRES + r)
            self.set("SUPPLY", self.at("SUPPLY", r) - (want - have), r)
            self.set("RES", want, p * L.NRES + r)

    def demand(self, *resources: str, locked: int = 0) -> None:
        for f, r in enumerate(resources):
            self.set("DEMAND", _res(r), f)
        self.set("LOCKED", locked)

    def place(self, p: int, t, loc: int) -> None:
        """A building of seat p (the Boss: L.BOSS in solo) stands on loc."""
        t = _type(t)
        self.set("LOC_OWN", p, loc)
        if self.at("SOLO") and p == L.BOSS:
            self.set("LOC_TYPE", L.NTYPES, loc)
            self.set("BOSS_LEFT", self.at("BOSS_LEFT") - 1)
            self.set("BOSS_BUILT", self.at("BOSS_BUILT") + 1)
        else:
            self.set("LOC_TYPE", t, loc)
            self.set("BUILT", self.at("BUILT", p * 3 + t) + 1, p * 3 + t)

    def put_ship(self, q: int, loc: int) -> None:
        self.set("LOC_SHIP", q, loc)
        self.set("SHIPS_HOME", self.at("SHIPS_HOME", q) - 1, q)

    def specialists(self, display: list[int], held: dict[int, dict[int, int]] | None = None) -> None:
        """The specialist display (indices) and held cards {seat: {card: 1 face up, 2 spent}};
        every other card goes to the deck."""
        held = held or {}
        used = set(display) | {c for cards in held.values() for c in cards}
        deck = [c for c in range(L.NSPEC) if c not in used
                and (not self.at("SOLO") or self.cp[L.SP_SOLO + c])]
        self.s[L.SPEC_DECK:L.SPEC_DECK + len(deck)] = deck
        self.set("SPEC_DECK_LEN", len(deck))
        self.s[L.SPEC_DISP:L.SPEC_DISP + L.MAX_SPEC_DISPLAY] = -1
        self.s[L.SPEC_DISP:L.SPEC_DISP + len(display)] = display
        self.s[L.SPEC_HELD:L.SPEC_HELD + 2 * L.NSPEC] = 0
        for p, cards in held.items():
            for c, v in cards.items():
                self.set("SPEC_HELD", v, p * L.NSPEC + c)

    def docks(self, display: list[int], placed: dict[tuple[int, int], tuple[int, int]] | None = None,
              deck_top: list[int] = ()) -> None:
        """The dock display, placed tiles {(tile f, slot k): (dock tile, owner)} and the top of
        the dock deck (top first)."""
        placed = placed or {}
        used = set(display) | {d for d, _ in placed.values()} | set(deck_top)
        deck = [d for d in range(L.NDOCK) if d not in used] + list(reversed(deck_top))
        self.s[L.DOCK_DECK:L.DOCK_DECK + len(deck)] = deck
        self.set("DOCK_DECK_LEN", len(deck))
        self.s[L.DOCK_DISP:L.DOCK_DISP + L.MAX_DISPLAY] = -1
        self.s[L.DOCK_DISP:L.DOCK_DISP + len(display)] = display
        self.s[L.SLOT_TILE:L.SLOT_TILE + L.NF * L.MAX_SLOTS] = -1
        self.s[L.SLOT_OWN:L.SLOT_OWN + L.NF * L.MAX_SLOTS] = -1
        for (f, k), (d, owner) in placed.items():
            self.set("SLOT_TILE", d, f * L.MAX_SLOTS + k)
            self.set("SLOT_OWN", owner, f * L.MAX_SLOTS + k)

    def decrees(self, in_force: int, deck_top: list[int]) -> None:
        """The decree in force and the top of the decree deck (top first)."""
        others = [d for d in range(L.NDECREE) if d != in_force and d not in deck_top]
        deck = others + list(reversed(deck_top))
        self.s[L.DCK:L.DCK + len(deck)] = deck
        self.set("DCK_LEN", len(deck))
        self.set("DECREE", in_force)
        self.set("DCK_OUT", 0)

    def cleanup_supply(self, n: int) -> None:
        held = self.at("CLEAN") + self.at("CLEAN", 1)
        self.set("CLEAN_SUPPLY", n)
        self.cp = self.cp.copy()                  # the total changes with it
        self.cp[L.SU_CLEANUP] = n + held

    # -- playing --
    def _players(self, fallback: str):
        """Script players for both seats that play as `fallback` (a player spec, with its
        parameters) once their script is used up."""
        from .players import parse_player, player_arrays
        kinds, pp = player_arrays([parse_player(fallback)] * 2)
        pk = np.full(2, L.P_SCRIPT, dtype=np.int64)
        pp[:, L.H_FALLBACK] = kinds
        return pk, pp

    @staticmethod
    def _script(rows: list[tuple]) -> np.ndarray:
        sc = np.zeros((len(rows) + 1, 6), dtype=np.int32)
        for i, row in enumerate(rows, 1):
            sc[i] = row
        return sc

    def _trace(self) -> np.ndarray:
        tr = np.zeros((20_001, 5), dtype=np.int32)
        tr[0, 1] = 1
        return tr

    def errors(self) -> int:
        return int(settled_errors(self.s, self.cp))

    def play(self, script: list[tuple], stop_after: int = -1, fallback: str = "random") -> list[dict]:
        """Play on with `script`; stop unscored after `stop_after` actions (-1: to the end).
        Returns the events; raises ScriptError if a row did not match or was left unused, and
        AssertionError if an invariant broke."""
        pk, pp = self._players(fallback)
        sc = self._script(script)
        tr = self._trace()
        assert self.errors() == 0, f"arranged state breaks invariant {self.errors()}"
        play_on(self.s, self.cp, pk, pp, self.rng, tr, sc, self.ob, stop_after)
        events = event_dicts(tr)
        if sc[0, 1]:
            raise ScriptError(f"script row {sc[0, 1]} {tuple(sc[sc[0, 1]])} did not match; "
                              f"events so far: {events[-8:]}")
        if sc[0, 0] != len(script):
            raise ScriptError(f"only {sc[0, 0]} of {len(script)} script rows were used; "
                              f"events: {events[-8:]}")
        assert tr[0, 2] == 0, f"invariant {tr[0, 2]} broken at event {tr[0, 3]}: {events[tr[0, 3] - 3:tr[0, 3]]}"
        return events

    def score(self) -> list[dict]:
        """Final scoring of the state as it stands (the five categories, the winner)."""
        tr = self._trace()
        final_score(self.s, self.cp, tr)
        return event_dicts(tr)
