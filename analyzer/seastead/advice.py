"""Seastead advice: at any decision of a game at the table (analyzer.seastead.table), every
option valued by P(win game) for the seat deciding, with 95% intervals.

Each option is played on `samples` redeals of what no seat sees at that moment (the dive deck
within its layers, the specialist, dock and decree decks), every seat then playing the rollout
model (a heuristic player); the same redeals for every option. It is the search player's
evaluation (kernels.seastead.search), asked at any decision and of every option: at the start of
an action, with the search player's redeal stream and rollouts, the best option is the one it
plays (kernels.seastead.table's tests check it).

    spec = SeasteadAdviceSpec.build(position, samples=400, seed=1)
    answer = run(spec)               # JSON-ready; analyzer.render.seastead_text writes its text
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from kernels.seastead import layout as L

from .. import __version__
from ..base.errors import SeasaltError
from ..numbers.estimates import wilson
from ..rules.limits import check_seed, whole
from .components import BUILDINGS, ICONS, Components
from .players import parse_player, player_arrays
from .replay import Namer, a_building
from .position import game_of
from .table import Decision, Game

MAX_SAMPLES = 1_000_000
CHUNK = 16                                   # redeals per kernel call (progress, interrupt)


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


@dataclass(frozen=True)
class SeasteadAdviceSpec:
    """A checked question: the game (its decision is asked), the budget, the seed of the
    redeals, the rollout model (a heuristic player for every seat)."""
    game: Game
    samples: int
    seed: int
    model: str
    where: str = "position"             # what a mistake in the choices is reported against

    @classmethod
    def build(cls, position: dict | Game, samples: int = 400, seed: int = 1,
              model: str = "heuristic", where: str = "position") -> "SeasteadAdviceSpec":
        samples = whole(samples, "samples")
        if not 1 <= samples <= MAX_SAMPLES:
            raise SeasaltError(f"--samples must be between 1 and {MAX_SAMPLES:,}, got {samples}",
                               param="samples")
        pol = parse_player(model)
        if pol.info.kind != L.P_HEURISTIC:
            raise SeasaltError(f"--model must be a heuristic player (heuristic, greedy, denier, "
                               f"builder, diver or one with parameters), got {model!r}",
                               param="model")
        game = position if isinstance(position, Game) else game_of(position, where)
        return cls(game, samples, check_seed(seed), pol.spec, where)


def run(spec: SeasteadAdviceSpec, progress: Callable[[int, int], None] | None = None) -> dict:
    """The advice as JSON-ready data: the decision, every option's P(win game) with its
    interval, its difference from the best option's with the paired interval (the same redeals),
    its mean margin; the best option (most wins, then margin, then listed first)."""
    from kernels.rng import seed_stream
    from .table import option_values
    g = spec.game
    try:
        d = g.decision()
    except SeasaltError as e:
        raise SeasaltError(f"{spec.where} {e}") from None
    if d is None:
        raise SeasaltError("the game is over after these choices: remove the last ones to ask "
                           "about a decision")
    _, model = player_arrays([parse_player(spec.model)] * 2)
    v = option_values(g, d, model, spec.samples, seed_stream(spec.seed, 0), CHUNK, progress)
    n, best = spec.samples, v.best()
    options = []
    for i in range(len(d.options)):
        lo, hi = wilson(float(v.sums[i, 0]), n)
        diff, dlo, dhi = v.diff(i, best)
        options.append({"option": i, "row": [int(x) for x in d.options[i]],
                        "text": option_text(d, i, g.comps),
                        "win_game": {"rate": v.rate(i), "ci95": [lo, hi]},
                        "vs_best": {"diff": diff, "ci95": [dlo, dhi]},
                        "margin_mean": float(v.sums[i, 1]) / n})
    order = sorted(range(len(options)),
                   key=lambda i: (i != best, -v.sums[i, 0], -v.sums[i, 1], i))
    return {
        "command": "seastead advise", "version": __version__, "seed": spec.seed,
        "samples": n, "model": spec.model, "model_label": parse_player(spec.model).short,
        "game_seed": g.seed, "setup": g.setup.describe(),
        "components": g.comps.label, "choices": len(g.choices),
        "decision": {"seat": d.seat, "kind": d.kind_name, "round": int(d.state[L.ROUND]),
                     "options": len(d.options)},
        "best": best, "ranking": order, "options": options,
        "choice_row": [d.seat, d.kind_name, *options[best]["row"]],
    }
