"""Seastead advice: at any decision of a game at the table (analyzer.seastead.table), every
option valued by P(win game) for the seat deciding, with 95% intervals.

Each option is played on `samples` redeals of what no seat sees at that moment (the dive deck
within its layers, the specialist, dock and decree decks), every seat then playing the rollout
model (a heuristic player); the same redeals for every option. It is the search player's
evaluation (kernels.seastead.search), asked at any decision and of every option: at the start of
an action, with the search player's redeal stream and rollouts, the best option is the one it
plays (kernels.seastead.table's tests check it).

    spec = SeasteadAdviceSpec.build(position, samples=400, seed=1)
    answer = run(spec)               # JSON-ready; analyzer.render.game_text writes its text
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from kernels.seastead import layout as L

from ..base.errors import SeasaltError
from ..rules.limits import check_seed, whole
from .players import parse_player, player_arrays
from .position import game_of
from .table import Game

MAX_SAMPLES = 1_000_000


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
    """The advice as JSON-ready data (analyzer.play.any_game.advise, every option valued by the
    compiled rollouts with the spec's model), with the game's seed, setup and components."""
    from ..play.any_game import advise
    g = spec.game
    try:
        d = g.decision()
    except SeasaltError as e:
        raise SeasaltError(f"{spec.where} {e}") from None
    if d is None:
        raise SeasaltError("the game is over after these choices: remove the last ones to ask "
                           "about a decision")
    _, model = player_arrays([parse_player(spec.model)] * 2)
    label = parse_player(spec.model).short
    r = advise(g, spec.samples, spec.seed, progress, rollout=label,
               values=lambda d, n, seed, progress: g.values(d, n, seed, progress, model))
    return {"command": "seastead advise", **r, "model": spec.model, "model_label": label,
            "game_seed": g.seed, "setup": g.setup.describe(), "components": g.comps.label,
            "choices": len(g.choices)}
