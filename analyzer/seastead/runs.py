"""Seastead runs: N games of one configuration, or a tournament of players in rotated seats,
reduced to JSON-ready summaries with 95% intervals.

A run is one or more batches (kernels.seastead.batch: blocks of GAME_BLOCK games, block b on
the random stream (seed, b)) run by analyzer.runs.backends.Runner, so threads, --jobs, a Dask
cluster and resumed checkpoints all give the same counters for a seed. Every summary is a pure
function of (components, setup, players, games, seed) except its `timing` entry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from kernels import SEASTEAD_HASH
from kernels.seastead import layout as L
from kernels.seastead.statistics import STATS

from .. import __version__
from ..runs.batches import Progress, TaskGrid
from ..runs.spec import Backend, as_backend
from ..base.errors import SeasaltError
from ..rules.policies import Policy
from ..studies.rotation import rotation_seed, split_games
from ..rules.limits import check_seed, run_seed
from ..numbers.catalogue import counts
from ..numbers.estimates import mean_ci, wilson
from .components import Components, Setup, load
from .players import player_arrays, seat_players

MAX_GAMES = 10 ** 12
CATEGORIES = L.CATEGORY_NAMES
TRIGGERS = L.TRIGGER_NAMES
BUILDINGS = L.BUILDING_NAMES


@dataclass(frozen=True, eq=False)
class SeasteadBatch(TaskGrid):
    """`count` Seastead games of one configuration on the streams of `seed` (a Runner batch)."""
    cp: np.ndarray          # compiled components (analyzer.seastead.components)
    cfg: np.ndarray         # the setup (Setup.array)
    pk: np.ndarray
    pp: np.ndarray
    count: int
    seed: int
    kind: str = "seastead"
    unit: str = "games"
    engine: str = "seastead"       # which driver: with a search seat "seastead-search"

    @property
    def block(self) -> int:
        from kernels.seastead import batch as sb
        return sb.GAME_BLOCK

    @property
    def width(self) -> int:
        from kernels.seastead import batch as sb
        return sb.G_SIZE

    def driver(self):
        """The games driver, imported on use (a Dask worker loads only Seastead's kernels)."""
        if self.engine == "seastead-search":
            from kernels.seastead import search_batch as ssb
            return ssb.run_games
        from kernels.seastead import batch as sb
        return sb.run_games

    def task_blocks(self) -> int:
        return 1 if self.engine == "seastead-search" else 16

    def code_hash(self) -> str:
        return SEASTEAD_HASH

    def args(self) -> tuple:
        return (self.cp, self.cfg, self.pk, self.pp, self.count, np.uint64(self.seed))

    def key(self) -> dict:
        return {"kind": self.kind, "cp": self.cp.tolist(), "cfg": self.cfg.tolist(),
                "pk": self.pk.tolist(), "pp": self.pp.tolist(), "count": self.count,
                "seed": self.seed}


@dataclass
class Planned:
    batch: SeasteadBatch
    players: list[Policy]
    setup: Setup


def check_run(games: int, seed: int, least: int = 1) -> None:
    if not (least <= games <= MAX_GAMES):
        raise SeasaltError(f"--games must be between {least} and {MAX_GAMES}, got {games}")
    check_seed(seed)


def plan(comps: Components, setup: Setup, players: Sequence[str], games: int,
         seed: int) -> Planned:
    cfg = setup.array(comps)
    check_run(games, seed)
    pols = seat_players(list(players), 1 if setup.solo else 2)
    pk, pp = player_arrays(pols)
    engine = "seastead-search" if (pk == L.P_SEARCH).any() else "seastead"
    return Planned(SeasteadBatch(comps.cp, cfg, pk, pp, games, int(seed), engine=engine), pols,
                   setup)


def _rate(k: int, n: int) -> dict:
    return {"count": int(k), "rate": k / n if n else None, "ci95": list(wilson(k, n))}


def _mean(total: float, sq: float, n: int) -> dict:
    m, ci = mean_ci(float(total), float(sq), n)
    return {"mean": m, "ci95": list(ci)}


def _counters(c: np.ndarray):
    """k(name, seat, bin, part): a counter of the summed row `c`, by its statistic's name in
    kernels.seastead.statistics.STATS (part "sq": a mean's squares)."""
    def k(name: str, seat: int = 0, b: int = 0, part: str = "") -> int:
        return int(counts(c, STATS, name, part=part)[seat, b])
    return k


def header(comps: Components, setup: Setup, seed: int, command: str) -> dict:
    return {"command": command, "seed": seed, "setup": setup.describe(), "solo": setup.solo,
            "sides": setup.sides.upper(), "decree": setup.decree, **comps.meta(),
            "components_label": comps.label, "version": __version__}


def summarize(planned: Planned, comps: Components, c: np.ndarray, timing: dict | None,
              command: str = "seastead simulate") -> dict:
    """The JSON-ready summary of a games batch from its summed counters."""
    k = _counters(c)
    n = k("games")
    solo = planned.setup.solo
    seats = 1 if solo else 2

    out = header(comps, planned.setup, planned.batch.seed, command)
    out.update({"games": n, "players": [p.spec for p in planned.players],
                "short": {p.spec: p.short for p in planned.players}})
    per_seat = []
    for q in range(seats):
        cats = {name: _mean(k("category", q, b), k("category", q, b, "sq"), n)
                for b, name in enumerate(CATEGORIES)}
        per_seat.append({
            "seat": q, "player": planned.players[q].spec,
            "score": _mean(k("total", q), k("total", q, part="sq"), n),
            "categories": cats,
            "dives_per_game": k("dives", q) / n,
            "builds_per_game": {b: k("builds", q, t) / n for t, b in enumerate(BUILDINGS)},
            "specialists_spent_per_game": k("spent", q) / n,
            "ship_bonuses_per_game": k("ship_bonus", q) / n,
            "extra_actions_per_game": k("extras", q) / n,
            "cleanup_shortfall_per_game": k("short", q) / n,
        })
    out["seats"] = per_seat
    hist = counts(c, STATS, "rounds_hist")[0]
    out["rounds"] = {**_mean(k("rounds"), k("rounds", part="sq"), n),
                     "hist": {str(i): int(v) for i, v in enumerate(hist) if v}}
    out["end_triggers"] = {name: _rate(k("trigger", 0, i), n) for i, name in enumerate(TRIGGERS)}
    out["untriggered_games"] = k("untriggered")
    if solo:
        out["solo"] = {
            "wins": _rate(k("wins", 0), n),
            "boss_score": _mean(k("boss"), k("boss", part="sq"), n),
            "boss_buildings_per_game": k("boss_built") / n,
            "margin": _mean(k("margin"), k("margin", part="sq"), n),
        }
    else:
        w0, w1, shared = k("wins", 0), k("wins", 1), k("shared")
        share0 = w0 + shared / 2                     # win share of the first player
        sq0 = w0 + shared / 4
        out["wins"] = [_rate(w0, n), _rate(w1, n)]
        out["shared"] = _rate(shared, n)
        edge = _mean(share0, sq0, n)
        edge = {"mean": edge["mean"] - 0.5, "ci95": [x - 0.5 for x in edge["ci95"]]}
        out["first_player"] = {"win_share": _mean(share0, sq0, n), "edge": edge,
                               "margin": _mean(k("margin"), k("margin", part="sq"), n)}
        out["tiebreaks"] = {name: _rate(k("tiebreak", 0, i), n) for i, name in
                            enumerate(("none", "buildings_left", "cleanup", "shared"))}
        out["decrees_per_game"] = k("decrees") / n
    if timing is not None:
        out["timing"] = timing
    return out


def _timing(outcome) -> dict:
    return {**outcome.timing,
            "games_per_second": outcome.units / outcome.seconds if outcome.seconds else None}


@dataclass(frozen=True)
class SeasteadRunSpec:
    """`games` Seastead games of one setup, validated once: the components, the setup, the
    seats' players (as given), the seed and the backend."""
    comps: Components
    setup: Setup
    players: tuple[str, ...]
    games: int
    seed: int
    backend: Backend

    @classmethod
    def build(cls, games: int, players: Sequence[str] = ("heuristic",), seed: int | None = None,
              components: str | Components | None = None, setup: Setup = Setup(),
              backend: Backend | None = None) -> "SeasteadRunSpec":
        """Check the setup against the components, the games, the seed and the players (a
        SeasaltError says what is wrong)."""
        comps = components if isinstance(components, Components) else load(components)
        backend = as_backend(backend)
        seed = run_seed(seed, backend.resume)
        plan(comps, setup, players, games, seed)
        return cls(comps, setup, tuple(players), games, seed, backend)


def simulate(games: int, players: Sequence[str] = ("heuristic",), seed: int | None = None,
             components: str | Components | None = None, setup: Setup = Setup(),
             backend: Backend | None = None, progress: Progress | None = None) -> dict:
    """`games` Seastead games: two players (seat 0 starts) or solo against the Boss, run on
    `backend` (analyzer.runs.spec.Backend; None: Backend())."""
    return run_games(SeasteadRunSpec.build(games, players, seed, components, setup, backend),
                     progress)


def run_games(spec: SeasteadRunSpec, progress: Progress | None = None) -> dict:
    """simulate() of a built spec, run on its backend."""
    planned = plan(spec.comps, spec.setup, spec.players, spec.games, spec.seed)
    outcome = spec.backend.runner(progress).run([planned.batch], {
        "command": "seastead simulate", "seed": spec.seed})
    return summarize(planned, spec.comps, outcome.counters[0], _timing(outcome))


@dataclass(frozen=True)
class SeasteadTournamentSpec:
    """A Seastead tournament, validated once: the components, the setup, the entrants (canonical
    specs), games per pair (solo: per entrant), the seed and the backend."""
    comps: Components
    setup: Setup
    entrants: tuple[str, ...]
    games: int
    seed: int
    backend: Backend

    @classmethod
    def build(cls, players: Sequence[str], games: int = 10_000, seed: int | None = None,
              components: str | Components | None = None, setup: Setup = Setup(),
              backend: Backend | None = None) -> "SeasteadTournamentSpec":
        """Check the entrants (2 to 8), the setup, the games and the seed."""
        comps = components if isinstance(components, Components) else load(components)
        backend = as_backend(backend)
        seed = run_seed(seed, backend.resume)
        specs = [seat_players([s], 1)[0].spec for s in players]
        if len(specs) < 2:
            raise SeasaltError(f"a tournament needs at least two --player entrants, got "
                               f"{len(specs)}")
        if len(specs) > 8:
            raise SeasaltError(f"at most 8 entrants, got {len(specs)}")
        setup.array(comps)
        check_run(games, seed, 1 if setup.solo else 2)
        return cls(comps, setup, tuple(specs), games, seed, backend)


def tournament(players: Sequence[str], games: int = 10_000, seed: int | None = None,
               components: str | Components | None = None, setup: Setup = Setup(),
               backend: Backend | None = None, progress: Progress | None = None) -> dict:
    """Entrants ranked by win share. Two players: every pair of entrants plays `games` games,
    split over both seatings (seating r on rotation_seed(seed, 2, r), the same for every pair:
    common random numbers). Solo: each entrant plays `games` games against the Boss on the
    same seed. Run on `backend` (analyzer.runs.spec.Backend; None: Backend())."""
    return run_tournament(SeasteadTournamentSpec.build(players, games, seed, components, setup,
                                                       backend), progress)


def run_tournament(spec: SeasteadTournamentSpec, progress: Progress | None = None) -> dict:
    """tournament() of a built spec, run on its backend."""
    comps, setup, specs, games, seed = spec.comps, spec.setup, list(spec.entrants), spec.games, \
        spec.seed
    plans: list[tuple[tuple[int, ...], Planned]] = []
    if setup.solo:
        for e, entrant in enumerate(specs):
            plans.append(((e,), plan(comps, setup, [entrant], games, seed)))
    else:
        for a in range(len(specs)):
            for b in range(a + 1, len(specs)):
                for r, n in enumerate(split_games(games, 2)):
                    seats = (a, b) if r == 0 else (b, a)
                    plans.append((seats, plan(comps, setup, [specs[seats[0]], specs[seats[1]]],
                                              n, rotation_seed(seed, 2, r))))
    runner = spec.backend.runner(progress)
    outcome = runner.run([p.batch for _, p in plans], {"command": "seastead tournament",
                                                       "seed": seed})
    rows = _rank(specs, plans, outcome.counters, setup.solo)
    out = header(comps, setup, seed, "seastead tournament")
    out.update({"games": games, "entrants": specs,
                "short": {s: seat_players([s], 1)[0].short for s in specs}, "rows": rows,
                "runs": [{"seats": list(seats), "seed": p.batch.seed, "games": p.batch.count}
                         for seats, p in plans],
                "timing": _timing(outcome)})
    return out


def _rank(specs: list[str], plans, counters, solo: bool) -> list[dict]:
    """Per entrant: games, win share (a shared win counts half; solo: wins against the Boss)
    with a normal 95% interval from its per-game shares, and mean score with its interval."""
    acc = {e: {"games": 0, "wins": 0, "shared": 0, "score": 0.0, "score_sq": 0.0,
               "first_wins": 0, "first_games": 0} for e in range(len(specs))}
    for (seats, _), c in zip(plans, counters):
        k = _counters(c)
        n = k("games")
        for q, e in enumerate(seats):
            a = acc[e]
            a["games"] += n
            a["wins"] += k("wins", q)
            a["shared"] += 0 if solo else k("shared")
            a["score"] += float(k("total", q))
            a["score_sq"] += float(k("total", q, part="sq"))
    rows = []
    for e, a in acc.items():
        n = a["games"]
        share = a["wins"] + a["shared"] / 2
        ws = _mean(share, a["wins"] + a["shared"] / 4, n)
        sc = _mean(a["score"], a["score_sq"], n)
        rows.append({"entrant": e, "player": specs[e], "games": n, "wins": a["wins"],
                     "shared": a["shared"], "win_share": ws["mean"],
                     "win_share_lo": ws["ci95"][0], "win_share_hi": ws["ci95"][1],
                     "score_mean": sc["mean"], "score_lo": sc["ci95"][0],
                     "score_hi": sc["ci95"][1]})
    rows.sort(key=lambda r: (-r["win_share"], r["entrant"]))
    for i, r in enumerate(rows, 1):
        r["rank"] = i
    return rows


__all__ = ["simulate", "tournament", "summarize", "SeasteadBatch"]
