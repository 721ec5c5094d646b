"""Seastead at the table: a game as its setup and the choices made so far, stopped at its next
decision (kernels.seastead.table); answered by a person, a bot or the advisor through one
`apply`.

    g = Game(load(), Setup(), seed=7)
    d = g.decision()                  # seat, kind, the legal options, the state at that moment
    g = g.apply(0)                    # play option 0; g.decision() is None once the game is over

A decision with one option is never asked (the engine plays it). A game is the same game for
the same setup, seed and choices: the seed drives the shuffles (the dive deck's layers, the
specialist, dock and decree decks), the choices every decision.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kernels.protocol import Decision, Values
from kernels.seastead import layout as L
from kernels.seastead.facts import FACTS

from ..base.errors import SeasaltError
from .components import BUILDINGS, ICONS, Components, Setup
from .replay import Namer, a_building

Row = tuple[int, int, int, int, int, int]       # (seat, kind, a, b, c, d)
KINDS = L.KIND_NAMES
CHUNK = 16                                      # redeals per kernel call (progress, interrupt)


@dataclass(frozen=True)
class Game:
    """A Seastead game at the table: components, setup, the seed of its shuffles, the choices."""
    comps: Components
    setup: Setup
    seed: int
    choices: tuple[Row, ...] = ()
    _stop: list = field(default_factory=list, init=False, repr=False, compare=False)

    def stream(self) -> np.ndarray:
        """The game's stream (kernels.rng.seed_stream(seed, 0): game 0 of `seastead simulate
        --seed S`), in the 8 words a table replay carries."""
        from kernels.rng import seed_stream
        rng = np.zeros(8, dtype=np.uint64)
        rng[:4] = seed_stream(self.seed, 0)
        return rng

    def params(self, model: np.ndarray | None = None) -> np.ndarray:
        """Every seat's parameters for a table replay: `model`'s rows (heuristic slots) or zeros,
        with P_ASK as the fallback once the choices are used up."""
        pp = np.zeros((2, L.MAX_PARAMS)) if model is None else model.astype(np.float64).copy()
        pp[:, L.H_FALLBACK] = L.P_ASK
        return pp

    def script(self, extra: int = 0) -> np.ndarray:
        """The choices as a P_SCRIPT script (players.py: a header row, then a row per choice;
        `extra` free rows more), int32 as the engine's own: one compiled game for both."""
        sc = np.zeros((1 + len(self.choices) + extra, 6), dtype=np.int32)
        if self.choices:
            sc[1:1 + len(self.choices)] = np.array(self.choices, dtype=np.int32)
        return sc

    def play(self, trace_rows: int = 0) -> tuple[Decision | None, np.ndarray, np.ndarray]:
        """(the decision the game stops at or None if it is over, the state then, the trace)."""
        from kernels.seastead.players import Asked
        from kernels.seastead.table import replay
        s = np.zeros(L.STATE_SIZE, dtype=np.int32)
        ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
        tr = np.zeros((trace_rows + 1 if trace_rows else 0, 5), dtype=np.int32)
        sc = self.script()
        sc[0, L.ASK_MODE] = L.ASK_STOP
        try:
            replay(s, self.comps.cp, self.setup.array(self.comps), self.params(), self.stream(),
                   tr, sc, ob)
            stop = None
        except Asked:
            n = int(sc[0, 5])
            stop = Decision(int(sc[0, 3]), int(sc[0, 4]), ob[:n].copy(), s.copy())
        if sc[0, 1] != 0 or int(sc[0, 0]) != len(self.choices):
            k = int(sc[0, 1] or sc[0, 0] + 1) - 1
            raise SeasaltError(f"choices[{k}] {self._row_text(k)} is not a legal option of the "
                               f"game at that point: remove it and the choices after it")
        return stop, s, tr

    def _row_text(self, k: int) -> str:
        if k >= len(self.choices):
            return "(none)"
        seat, kind, *rest = self.choices[k]
        name = KINDS[kind] if 0 <= kind < len(KINDS) else str(kind)
        return f"[{seat}, {name!r}, " + ", ".join(map(str, rest)) + "]"

    def decision(self) -> Decision | None:
        """The next decision, or None once the game is over (scored)."""
        if not self._stop:
            self._stop.append(self.play()[0])
        return self._stop[0]

    def apply(self, i: int) -> Game:
        """The game after the seat at the decision takes option i."""
        d = self.decision()
        if d is None:
            raise SeasaltError("the game is over: there is no decision to answer")
        if not 0 <= i < len(d.options):
            raise SeasaltError(f"option {i} does not exist: this {KINDS[d.kind]} decision has "
                               f"options 0 to {len(d.options) - 1}")
        return Game(self.comps, self.setup, self.seed, self.choices + (d.row(i),))

    # -- kernels.protocol.Position --
    facts = FACTS

    def option_text(self, d: Decision, i: int) -> str:
        return option_text(d, i, self.comps)

    def describe(self) -> str:
        d = self.decision()
        s = d.state if d is not None else self.final()
        return (f"in round {int(s[L.ROUND])}, after {len(self.choices)} choices of game "
                f"{self.seed} ({self.setup.describe()})")

    def result(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        s = self.final()
        if s[L.SOLO]:
            return (float(s[L.WIN]),), (float(s[L.TOTAL] - s[L.BOSS_SCORE]),)
        both = s[L.WIN] and s[L.WIN + 1]
        res = tuple(0.5 if both else float(s[L.WIN + q]) for q in range(2))
        return res, (float(s[L.TOTAL] - s[L.TOTAL + 1]), float(s[L.TOTAL + 1] - s[L.TOTAL]))

    def bot(self, d: Decision) -> int:
        """The default heuristic's option."""
        from .players import parse_player, player_arrays
        return heuristic_choice(self, d, player_arrays([parse_player("heuristic")] * 2)[1])

    def values(self, d: Decision, samples: int, seed: int, progress=None,
               model: np.ndarray | None = None) -> Values:
        """The compiled rollouts (option_values) on the stream seed_stream(seed, 0), every seat
        playing the heuristic with its row of `model` (default: the default heuristic)."""
        from kernels.rng import seed_stream
        if model is None:
            from .players import parse_player, player_arrays
            model = player_arrays([parse_player("heuristic")] * 2)[1]
        return option_values(self, d, model, samples, seed_stream(seed, 0), CHUNK, progress)

    def observation(self, seat: int) -> dict:
        """The board, reserves, displays and decree as every seat sees them (Seastead hides
        only the decks' orders); `seat` names itself "you"."""
        d = self.decision()
        s = d.state if d is not None else self.final()
        nm = Namer(self.comps, s)
        solo = self.setup.solo
        who = lambda q: "you" if q == seat else ("Boss" if solo else "bot")  # noqa: E731
        seats = [{"seat": q, "resources": {ICONS[r]: int(s[L.RES + q * L.NRES + r])
                                           for r in range(L.NRES)},
                  "cleanup": int(s[L.CLEAN + q]),
                  "built": {BUILDINGS[t]: int(s[L.BUILT + q * 3 + t]) for t in range(L.NTYPES)},
                  "specialists": [nm.spec(sp) for sp in range(L.NSPEC)
                                  if s[L.SPEC_HELD + q * L.NSPEC + sp] == 1],
                  "score": int(s[L.TOTAL + q]) if s[L.OVER] else None}
                 for q in range(1 if solo else 2)]
        tiles = []
        for f in range(L.NF):
            locs = []
            for i in range(L.NL):
                a = f * L.NL + i
                own, ship = int(s[L.LOC_OWN + a]), int(s[L.LOC_SHIP + a])
                building = (None if own < 0 else "Boss" if solo and own == L.BOSS else
                            f"{who(own)}: {BUILDINGS[int(s[L.LOC_TYPE + a])]}")
                locs.append({"location": nm.loc(a)[len(nm.tiles[f]) + 1:],    # "i (cost)"
                             "building": building, "ship": None if ship < 0 else who(ship)})
            tiles.append({"tile": nm.tiles[f], "demand": ICONS[nm.demand[f]],
                          "locked": f == nm.locked, "locations": locs})
        return {
            "round": int(s[L.ROUND]), "over": d is None, "seats": seats, "tiles": tiles,
            "docks": [nm.dock(int(s[L.DOCK_DISP + k])) for k in range(L.MAX_DISPLAY)
                      if s[L.DOCK_DISP + k] >= 0],
            "specialists": [nm.spec(int(s[L.SPEC_DISP + k])) for k in range(L.MAX_SPEC_DISPLAY)
                            if s[L.SPEC_DISP + k] >= 0],
            "decree": nm.decree(int(s[L.DECREE])) if s[L.USE_B] else None,
            "deck": int(s[L.DECK_LEN]), "choices": len(self.choices),
            "winners": [q for q in range(2) if s[L.WIN + q]] if d is None else None}

    def final(self) -> np.ndarray:
        """The scored state of a game that is over."""
        stop, s, _ = self.play()
        if stop is not None:
            raise SeasaltError("the game is not over: seat "
                               f"{stop.seat} has a {KINDS[stop.kind]} decision to make")
        return s


def option_text(d: Decision, i: int, comps: Components) -> str:
    """Option i of decision d in the game's words."""
    a, b, c, e = (int(v) for v in d.options[i])
    nm = Namer(comps, d.state)
    k = d.kind
    if k == L.K_ACTION:
        if a == L.ACT_DIVE:
            return "dive"
        if a == L.ACT_BUILD:
            r = ICONS[int(d.state[L.DEMAND + c // L.NL])]
            return f"build {a_building(b)} on {nm.loc(c)} for {e} {r}"
        return f"spend {nm.spec(b)} first"
    if k == L.K_SPLIT:
        return f"take half {a + 1} of {comps.dive_label(b)}"
    if k == L.K_WILD:
        return f"take {ICONS[a]}"
    if k == L.K_DOCK:
        return f"dock {nm.dock(e)} at {nm.tiles[b]} slot {c}"
    if k == L.K_SPEC:
        return f"take specialist {nm.spec(b)}"
    if k == L.K_SHIP:
        return f"place the ship on {nm.loc(a)}"
    if k == L.K_LOC_EFFECT:
        return f"{'apply' if a else 'skip'} the effect of {nm.loc(b)}"
    if k == L.K_SPEND:
        return "spend nothing" if a < 0 else f"spend {nm.spec(a)}"
    if k == L.K_MOVE_SHIP:
        return "move no ship" if a < 0 else f"move a ship from {nm.loc(a)} to {nm.loc(b)}"
    if k == L.K_MOVE_BUILDING:
        return ("move no building" if a < 0 else
                f"move the {BUILDINGS[c]} from {nm.loc(a)} to {nm.loc(b)}")
    if k == L.K_SWAP:
        return ("swap no demand tokens" if a < 0 else
                f"swap the demand of {nm.tiles[a]} and {nm.tiles[b]}, lock {nm.tiles[c]}")
    if k == L.K_REFRESH:
        return f"turn {nm.spec(a)} face up"
    if k == L.K_DECREE:
        return f"put {nm.decree(a)} in force, {nm.decree(b)} under the deck"
    if k == L.K_PORT_BONUS:
        return "decline the port bonus" if a < 0 else (
            f"take {c} cleanup for the dock at {nm.tiles[a]} slot {b}")
    return f"option {i}"


def heuristic_choice(game: Game, d: Decision, params: np.ndarray) -> int:
    """What a heuristic seat with `params` (float64[2, MAX_PARAMS]) takes at `d`."""
    from kernels.seastead.players import heuristic
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    ob[:len(d.options)] = d.options
    return int(heuristic(d.state.copy(), game.comps.cp, d.seat, d.kind, ob, len(d.options),
                         params.astype(np.float64)))


def option_values(game: Game, d: Decision, model: np.ndarray, rounds: int, stream: np.ndarray,
                  chunk: int = 0, progress=None, only: list[int] | None = None) -> Values:
    """Each option of `d` (or the options `only`, in that order) played to the end on `rounds`
    redeals, every seat playing the heuristic with its row of `model` after the option
    (kernels.seastead.table.rollouts); `stream` (uint64[4], the redeals' stream) is advanced."""
    from kernels.seastead.table import rollouts
    opts = np.array(range(len(d.options)) if only is None else only, dtype=np.int64)
    m = len(opts)
    total = Values(0, np.zeros((m, 2)), np.zeros((m, m)))
    s = np.zeros(L.STATE_SIZE, dtype=np.int32)
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    start = game.stream()[:4].copy()
    pp, cfg, sc = game.params(model), game.setup.array(game.comps), game.script()
    done, chunk = 0, chunk or rounds
    while done < rounds:
        out = np.zeros((min(chunk, rounds - done), m, 2))
        rollouts(s, game.comps.cp, cfg, pp, start, sc, d.seat, opts, stream, out, ob)
        total += Values.of(out)
        done += len(out)
        if progress is not None:
            progress(done, rounds)
    return total
