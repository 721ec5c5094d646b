"""A Seastead game against a bot, decision by decision (`seasalt serve`'s Seastead view): the
user's seat answers its decisions, the bot's are answered by its heuristic, every rule is the
engine's (analyzer.seastead.table.Game). The view shows what every seat sees: the board, the
reserves, the displays, the decree, the size of the dive deck, never its order.
"""
from __future__ import annotations

import secrets

from kernels.seastead import layout as L

from ..base.errors import SeasaltError
from ..rules.limits import check_seed
from .advice import option_text
from .components import BUILDINGS, ICONS, Components, Setup, load
from .players import parse_player, player_arrays
from .replay import Namer, describe, event_dicts
from .table import Game, heuristic_choice

TRACE_ROWS = 20_000
OPTIONS = ("seed", "sides", "solo", "opponent")


class Session:
    """The user plays seat 0 (seat 0 starts every round); the bot, a heuristic player, seat 1
    (in solo the Boss, whose rules need no decisions)."""

    def __init__(self, seed: int | None = None, sides: str = "AAAA", solo: bool = False,
                 opponent: str = "heuristic", comps: Components | None = None):
        self.comps = comps or load()
        setup = Setup(bool(solo), sides, None)
        setup.array(self.comps)
        bot = parse_player(opponent)
        if bot.info.kind != L.P_HEURISTIC:
            raise SeasaltError(f"opponent {opponent!r}: the bot is a heuristic player (heuristic, "
                               f"greedy, denier, builder, diver or one with parameters)",
                               param="opponent")
        self.bot = bot.spec
        _, self.bot_params = player_arrays([bot, bot])
        seed = secrets.randbelow(2 ** 63) if seed is None else check_seed(seed)
        self.game = Game(self.comps, setup, seed)
        self._bots()

    @classmethod
    def from_body(cls, body: dict | None) -> "Session":
        body = body or {}
        if not isinstance(body, dict) or set(body) - set(OPTIONS):
            bad = sorted(set(body) - set(OPTIONS)) if isinstance(body, dict) else ["(not an object)"]
            raise SeasaltError(f"Seastead game options: unknown {bad[0][:40]!r}; valid: "
                               f"{', '.join(OPTIONS)}")
        seed = body.get("seed")
        if isinstance(seed, str):       # its digits: JavaScript rounds numbers over 2**53
            if not (seed.isascii() and seed.isdigit()) or len(seed) > 20:
                raise SeasaltError(f"seed must be a whole number from 0 to 2**64-1, got "
                                   f"{seed!r:.40}", param="seed")
            body = {**body, "seed": int(seed)}
        return cls(**body)

    def _bots(self) -> None:
        """The bot answers until the user has a decision or the game is over."""
        while (d := self.game.decision()) is not None and d.seat != 0:
            self.game = self.game.apply(heuristic_choice(self.game, d, self.bot_params))

    def apply(self, option: int) -> None:
        d = self.game.decision()
        if d is None:
            raise SeasaltError("the game is over: start a new one")
        if not isinstance(option, int) or isinstance(option, bool):
            raise SeasaltError(f"send {{\"option\": N}}, N a whole number, got {option!r:.40}")
        self.game = self.game.apply(option)
        self._bots()

    def game_file(self) -> dict:
        """The game as a position file (`seasalt seastead advise FILE` and `review --game`)."""
        g = self.game
        return {"seed": g.seed, "sides": g.setup.sides, "solo": g.setup.solo,
                "choices": [[r[0], L.KIND_NAMES[r[1]], *r[2:]] for r in g.choices]}

    def _events(self) -> list[dict]:
        _, s, tr = self.game.play(TRACE_ROWS)
        events = event_dicts(tr)
        nm = Namer(self.comps, s, events)
        for e in events:
            e["text"] = describe(e, nm, self.game.setup.solo)
        return events

    def view(self) -> dict:
        """What the user sees now: the seats, the board, the displays, the decision and its
        options, the events of this round so far."""
        g = self.game
        d = g.decision()
        s = d.state if d is not None else g.final()
        nm = Namer(self.comps, s)
        events = self._events()
        rounds = [k for k, e in enumerate(events) if e["event"] == "round"]
        seats = []
        for q in range(1 if g.setup.solo else 2):
            seats.append({
                "seat": q, "who": "you" if q == 0 else f"bot ({parse_player(self.bot).short})",
                "resources": {ICONS[r]: int(s[L.RES + q * L.NRES + r]) for r in range(L.NRES)},
                "cleanup": int(s[L.CLEAN + q]),
                "built": {BUILDINGS[t]: int(s[L.BUILT + q * 3 + t]) for t in range(L.NTYPES)},
                "specialists": [nm.spec(sp) for sp in range(L.NSPEC)
                                if s[L.SPEC_HELD + q * L.NSPEC + sp] == 1],
                "score": int(s[L.TOTAL + q]) if s[L.OVER] else None})
        tiles = []
        for f in range(L.NF):
            locs = []
            for i in range(L.NL):
                a = f * L.NL + i
                own, ship = int(s[L.LOC_OWN + a]), int(s[L.LOC_SHIP + a])
                locs.append({"location": nm.loc(a)[len(nm.tiles[f]) + 1:],     # "i (cost)"
                             "building": None if own < 0 else (
                                 "Boss" if g.setup.solo and own == L.BOSS else
                                 f"{'you' if own == 0 else 'bot'}: "
                                 f"{BUILDINGS[int(s[L.LOC_TYPE + a])]}"),
                             "ship": None if ship < 0 else ("you" if ship == 0 else "bot")})
            tiles.append({"tile": nm.tiles[f], "demand": ICONS[nm.demand[f]],
                          "locked": f == nm.locked, "locations": locs})
        out = {
            "seed": str(g.seed), "setup": g.setup.describe(), "round": int(s[L.ROUND]),
            "over": d is None, "seats": seats, "tiles": tiles,
            "docks": [nm.dock(int(s[L.DOCK_DISP + k])) for k in range(L.MAX_DISPLAY)
                      if s[L.DOCK_DISP + k] >= 0],
            "specialists": [nm.spec(int(s[L.SPEC_DISP + k])) for k in range(L.MAX_SPEC_DISPLAY)
                            if s[L.SPEC_DISP + k] >= 0],
            "decree": nm.decree(int(s[L.DECREE])) if s[L.USE_B] else None,
            "deck": int(s[L.DECK_LEN]), "choices": len(g.choices),
            "log": [e["text"] for e in events[rounds[-1] if rounds else 0:]],
            "decision": None}
        if d is not None:
            out["decision"] = {"kind": d.kind_name.replace("_", " "),
                               "options": [option_text(d, i, self.comps)
                                           for i in range(len(d.options))]}
        else:
            out["winners"] = [q for q in range(2) if s[L.WIN + q]]
        return out
