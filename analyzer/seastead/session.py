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
from .components import Components, Setup, load
from .players import parse_player, player_arrays
from .replay import Namer, describe, event_dicts
from .table import KINDS, Game, heuristic_choice

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
            bad = (sorted(set(body) - set(OPTIONS)) if isinstance(body, dict)
                   else ["(not an object)"])
            raise SeasaltError(f"Seastead game options: unknown {bad[0][:40]!r}; valid: "
                               f"{', '.join(OPTIONS)}")
        for key, kind, words in (("sides", str, "a text such as \"AAAA\""),
                                 ("solo", bool, "true or false"),
                                 ("opponent", str, "a player such as \"heuristic\"")):
            if key in body and not isinstance(body[key], kind):
                raise SeasaltError(f"Seastead game options: {key} must be {words}, got "
                                   f"{body[key]!r:.40}", param=key)
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
        """What the user sees now (Game.observation of seat 0), the decision and its options,
        the events of this round so far."""
        g = self.game
        d = g.decision()
        events = self._events()
        rounds = [k for k, e in enumerate(events) if e["event"] == "round"]
        out = {"seed": str(g.seed), "setup": g.setup.describe(), "bot": parse_player(self.bot).short,
               **g.observation(0), "log": [e["text"] for e in events[rounds[-1] if rounds else 0:]],
               "decision": None}
        if d is not None:
            out["decision"] = {"kind": KINDS[d.kind].replace("_", " "),
                               "options": [g.option_text(d, i) for i in range(len(d.options))]}
        return out
