"""Seastead players: names, parameters and defaults of the compiled choosers
(kernels.seastead.players), parsed from specs such as `heuristic(split=1,build_at=3)` with the
same grammar as Sea Salt & Paper's policies (analyzer.rules.policies)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from kernels.seastead import layout as L

from ..base.errors import SeasaltError
from ..rules.policies import Param, Policy, PolicyInfo, parse_policy

_HEURISTIC = (
    Param("split", L.H_SPLIT, 2, 0, 2,
          "dive split: 0 greedy (the half worth most to me), 1 denial (leave the opponent the "
          "half worth least to them), 2 weighted (mine minus deny x theirs)"),
    Param("deny", L.H_DENY, 0.5, 0, 5, "weight of the opponent's half in the weighted split",
          integer=False),
    Param("build_at", L.H_BUILD_AT, 2.0, -10, 20,
          "build when the best legal build scores at least this, else dive", integer=False),
    Param("location", L.H_LOCATION, 2, 0, 2,
          "build score: 0 the location's points, 1 cheapness (6 - cost paid), 2 points minus "
          "half the cost paid; plus effect_weight per effect and 0.5 for a column's progress"),
    Param("demand_weight", L.H_DEMAND_W, 0.5, 0, 10,
          "extra worth of a resource some tile with room demands", integer=False),
    Param("dock_weight", L.H_DOCK_W, 0.5, 0, 10,
          "extra worth of a resource my dock tiles can still score", integer=False),
    Param("spend_at", L.H_SPEND_AT, 1, -1, 10,
          "spend a specialist at its first chance if it is worth at most this many end points "
          "(-1: never)"),
    Param("effect_weight", L.H_EFFECT_W, 0.3, -5, 5,
          "build score per effect of the location", integer=False),
)

REGISTRY: dict[str, PolicyInfo] = {
    "random": PolicyInfo("random", L.P_RANDOM, "Uniform among the legal options at every decision."),
    "heuristic": PolicyInfo(
        "heuristic", L.P_HEURISTIC,
        "Scores every option and takes the best: the dive split (greedy, denial or weighted), "
        "build versus dive (build_at), the location (location), resource worth by demand and "
        "own dock tiles; takes the specialist with most points, spends cheap ones (before the "
        "action when it would otherwise dive).", _HEURISTIC),
}


def _preset(name: str, doc: str, **defaults: float) -> PolicyInfo:
    params = tuple(replace(p, default=defaults.get(p.name, p.default)) for p in _HEURISTIC)
    return PolicyInfo(name, L.P_HEURISTIC, f"{doc} (= heuristic with " + ", ".join(
        f"{k}={v}" for k, v in defaults.items()) + ")", params)


_SEARCH = _HEURISTIC + (
    Param("rollouts", L.S_ROLLOUTS, 16, 1, 1000,
          "games played to the end from each kept option, each on its own redeal of the "
          "unseen cards (the same redeals for every option)"),
    Param("width", L.S_WIDTH, 6, 1, 72,
          "builds searched: the ones its heuristic scores best (the dive and the spends always)"),
)
REGISTRY["search"] = PolicyInfo(
    "search", L.P_SEARCH,
    "Searches each action, and each dive's split once the card is seen, by rollouts: every kept "
    "option is played to the end on redeals of what the seat cannot see (deck orders), all "
    "seats then playing its heuristic; plays the option that wins most (P(win)). Its other "
    "decisions, and its rollouts, use the heuristic parameters.", _SEARCH)


REGISTRY.update({
    "greedy": _preset("greedy", "Takes the dive half worth most to itself", split=0),
    "denier": _preset("denier", "Leaves the opponent the dive half worth least to them", split=1),
    "builder": _preset("builder", "Builds whenever it can", build_at=-10),
    "diver": _preset("diver", "Dives unless a build is worth a lot", build_at=4),
})
DEFAULT = "heuristic"


LISTER = "seasalt seastead players"


def parse_player(spec: str) -> Policy:
    return parse_policy(spec, REGISTRY, LISTER)


def listing():
    """The players for `seasalt seastead players` (analyzer.rules.policy_docs)."""
    from ..rules.policy_docs import Listing
    return Listing(REGISTRY, LISTER, "--player", "--player", "heuristic(split=1,build_at=3)",
                   "docs/seastead.md describes the game's players.")


def player_arrays(players: list[Policy]) -> tuple[np.ndarray, np.ndarray]:
    """(kinds int64[2], params float64[2, MAX_PARAMS]) for the kernels; solo has one player,
    seat 1 (the Boss) is a random chooser that is never asked."""
    if not 1 <= len(players) <= 2:
        raise SeasaltError(f"expected 1 or 2 players, got {len(players)}")
    kinds = np.zeros(2, dtype=np.int64)
    params = np.zeros((2, L.MAX_PARAMS), dtype=np.float64)
    for q, pl in enumerate(players):
        kinds[q] = pl.info.kind
        for name, value in pl.values:
            params[q, pl.info.param(name).slot] = value
    return kinds, params


def seat_players(specs: list[str] | tuple[str, ...], seats: int) -> list[Policy]:
    """One spec for every seat, or one per seat."""
    specs = list(specs) or [DEFAULT]
    if len(specs) == 1:
        specs = specs * seats
    if len(specs) != seats:
        raise SeasaltError(f"give one --player for every seat or one per seat: got {len(specs)} "
                           f"for {seats} seat{'s' if seats != 1 else ''}")
    return [parse_player(s) for s in specs]
