"""Parameter sweeps: one seat's player over a grid of one or two parameters, against a fixed field.

    df = sweep(["stop_at=7..14"], policy="baseline", vs=["baseline"], players=(2, 3, 4),
               games=20_000, seed=1)

For every grid point and player count P, the swept player (the base spec `policy` with the grid
point's values) and P - 1 field players (`vs`, one spec for all or several cycled over the field
seats) play `games` games in all, with the swept player in each seat in turn: the P rotations of
analyzer.studies.rotation, `games // P` games each (the first `games % P` rotations one more),
rotation r on the seed `rotation_seed(seed, P, r)`. The seeds do not depend on the grid point, so
all points of one player count play on the same random streams (common random numbers).

A sweep is written `PARAM=LO..HI` (step 1), `PARAM=LO..HI:STEP`, or `PARAM=V1,V2,...`; parameter
names, whole-number rules and ranges come from the policy registry (analyzer.rules.policies).

Each row (one per grid point and player count) reports the swept player's outright win rate,
shared-win rate, win share and mean final total (analyzer.studies.rotation explains each and its 95%
interval), the field's fair share 1/P, and the rounds per game.
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

import pandas as pd

from .. import __version__
from ..base.errors import SeasaltError
from ..rules.policies import Policy, expert_meta, format_value, parse_policy, resolve
from .rotation import (Asked, aggregate, default_target, rotated_specs, rotation_runs,
                       rotations)
from ..runs.spec import Backend, RunSpec
from ..rules.limits import PLAYER_COUNTS, whole
from ..runs.batches import Progress
from ..render.tidy_frames import frame, join_specs

MAX_POINTS = 1000
_RANGE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^=]+?)\s*$")
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_LOHI = re.compile(rf"^({_NUM})\s*\.\.\s*({_NUM})(?:\s*:\s*({_NUM}))?$")

SWEEP_HELP = "PARAM=LO..HI, PARAM=LO..HI:STEP or PARAM=V1,V2,..."


def parse_number(text: str, where: str, option: str = "--sweep", expected: str = SWEEP_HELP) -> float:
    """A finite number from an option's text, or a SeasaltError naming the option."""
    try:
        v = float(text)
    except ValueError:
        raise SeasaltError(f"{option} {where!r}: {text.strip()!r} is not a number; expected "
                           f"{expected}") from None
    if not math.isfinite(v):
        raise SeasaltError(f"{option} {where!r}: {text.strip()!r} is not a finite number")
    return v


def parse_sweep(text: str, base: Policy) -> tuple[str, list[float]]:
    """`PARAM=LO..HI[:STEP]` or `PARAM=V1,V2,...` for a parameter of `base`'s policy:
    (name, values). Every value is checked by the policy's own parser (range, whole numbers)."""
    m = _RANGE.match(text)
    if not m:
        raise SeasaltError(f"cannot parse --sweep {text!r}; expected {SWEEP_HELP}, e.g. stop_at=7..14")
    name, body = m.group(1), m.group(2)
    try:
        p = base.info.param(name)          # unknown parameter: names the valid ones
    except SeasaltError as e:
        raise SeasaltError(f"--sweep {text!r}: {e}") from None
    r = _LOHI.match(body)
    if r:
        lo, hi = parse_number(r.group(1), text), parse_number(r.group(2), text)
        step = parse_number(r.group(3), text) if r.group(3) else 1.0
        if step <= 0:
            raise SeasaltError(f"--sweep {text!r}: STEP must be positive; expected {SWEEP_HELP}")
        if hi < lo:
            raise SeasaltError(f"--sweep {text!r}: HI must be at least LO")
        for v in (lo, hi):
            if not (p.low <= v <= p.high):
                raise SeasaltError(f"--sweep {text!r}: {name}={format_value(v)} is out of range for "
                                   f"{base.info.name}: valid {format_value(p.low)} to {format_value(p.high)}")
        count = int(math.floor((hi - lo) / step + 1e-9)) + 1
        if count > MAX_POINTS:
            raise SeasaltError(f"--sweep {text!r}: {count} values, at most {MAX_POINTS}")
        values = [round(lo + i * step, 12) for i in range(count)]
    elif ".." in body:
        raise SeasaltError(f"cannot parse --sweep {text!r}; expected {SWEEP_HELP}")
    else:
        values = [parse_number(v, text) for v in body.split(",")]
        if len(values) > MAX_POINTS:
            raise SeasaltError(f"--sweep {text!r}: {len(values)} values, at most {MAX_POINTS}")
        if len(set(values)) != len(values):
            raise SeasaltError(f"--sweep {text!r}: a value is repeated")
    for v in values:
        if not (p.low <= v <= p.high):
            raise SeasaltError(f"--sweep {text!r}: {name}={format_value(v)} is out of range for "
                               f"{base.info.name}: valid {format_value(p.low)} to {format_value(p.high)}")
        if p.integer and not float(v).is_integer():
            raise SeasaltError(f"--sweep {text!r}: {name} must be a whole number, got {format_value(v)}"
                               + ("; use a whole STEP" if r else ""))
        try:
            with_value(base, {name: v})   # and everything else the policy parser checks
        except SeasaltError as e:
            raise SeasaltError(f"--sweep {text!r}: {e}") from None
    return name, values


def with_value(base: Policy, values: dict[str, float]) -> Policy:
    """`base` with some parameters replaced, validated by analyzer.rules.policies.parse_policy."""
    merged = dict(base.values)
    merged.update(values)
    args = ",".join(f"{k}={format_value(v)}" for k, v in merged.items())
    return parse_policy(f"{base.info.name}({args})")


def parse_players(players: str | int | Iterable[int]) -> list[int]:
    """`2,3,4`, a single count, or an iterable of counts; each 2, 3 or 4, no repeats."""
    if isinstance(players, str):
        items = [x.strip() for x in players.split(",")]
        try:
            out = [int(x) for x in items]
        except ValueError:
            raise SeasaltError(f"players must be a comma-separated list of 2, 3, 4, "
                               f"got {players!r}", param="players") from None
    elif isinstance(players, Iterable):
        out = [whole(x, "players") for x in players]
    else:
        out = [whole(players, "players")]
    if not out or any(p not in PLAYER_COUNTS for p in out):
        raise SeasaltError(f"players must be 2, 3 or 4 (a comma-separated list), got "
                           f"{','.join(map(str, out)) or 'nothing'}", param="players")
    if len(set(out)) != len(out):
        raise SeasaltError(f"players lists a player count twice: {','.join(map(str, out))}",
                           param="players")
    return out


def plan(sweeps: Sequence[str], policy: str = "baseline") -> tuple[Policy, list[str], list[tuple]]:
    """(base policy, swept parameter names, grid of value tuples)."""
    base = parse_policy(policy)
    if isinstance(sweeps, str):
        sweeps = [sweeps]
    if not 1 <= len(sweeps) <= 2:
        raise SeasaltError(f"give one or two --sweep PARAM=..., got {len(sweeps)}")
    parsed = [parse_sweep(s, base) for s in sweeps]
    names = [n for n, _ in parsed]
    if len(set(names)) != len(names):
        raise SeasaltError(f"--sweep {names[0]} is given twice")
    grid = list(itertools.product(*(v for _, v in parsed)))
    if len(grid) > MAX_POINTS:
        raise SeasaltError(f"the grid has {len(grid)} points, at most {MAX_POINTS}")
    return base, names, grid


@dataclass(frozen=True)
class Grid:
    """A sweep's own words, checked: the base policy, the swept parameters and their grid, the
    player counts and the field (--vs, parsed); `points` are the swept player at each grid point
    and `lineups` the one lineup of each player count that its RunSpec is built from (the swept
    player at the first point in slot 0, the field cycled over the other slots)."""
    base: Policy
    names: list[str]
    values: list[tuple]
    counts: list[int]
    field: list[Policy]
    points: list[Policy]
    lineups: list[list[Policy]]


def grid_of(sweeps: Sequence[str], policy: str = "baseline", vs: Sequence[str] = ("baseline",),
            players: str | int | Iterable[int] = PLAYER_COUNTS) -> Grid:
    """The Grid of a sweep's --sweep, --policy, --vs and --players (a SeasaltError names what
    does not fit)."""
    base, names, grid = plan(sweeps, policy)
    counts = parse_players(players)
    vs = list(vs) if not isinstance(vs, str) else [vs]
    if not vs:
        vs = ["baseline"]
    field = [parse_policy(s) for s in vs]
    if len(field) > min(counts) - 1:
        raise SeasaltError(f"{len(field)} --vs specs do not fit the {min(counts) - 1} field seat(s) "
                           f"of {min(counts)} players; give one for all, or at most that many")
    points = [with_value(base, dict(zip(names, values))) for values in grid]
    lineups = [[resolve(points[0], p)] + [resolve(field[i % len(field)], p) for i in range(p - 1)]
               for p in counts]
    return Grid(base, names, grid, counts, field, points, lineups)


@dataclass(frozen=True)
class SweepSpec:
    """A sweep, validated once: its Grid, the rotated run of each player count's lineup (one
    seed: rotation.rotated_specs) and the expansion and target as asked."""
    grid: Grid
    runs: tuple[RunSpec, ...]
    asked: Asked

    @classmethod
    def build(cls, sweeps: Sequence[str], policy: str = "baseline",
              vs: Sequence[str] = ("baseline",), players: str | int | Iterable[int] = PLAYER_COUNTS,
              games: int = 20_000, seed: int | None = None, expansion: str = "base",
              target: int | None = None, backend: Backend | None = None) -> "SweepSpec":
        """Check the grid, the field, the player counts and the runs (a SeasaltError names what
        does not fit)."""
        grid = grid_of(sweeps, policy, vs, players)
        return cls(grid, tuple(rotated_specs(grid.lineups, games, seed, expansion, target,
                                             backend)), Asked(expansion, target))


def run_sweep(sweeps: Sequence[str], policy: str = "baseline", vs: Sequence[str] = ("baseline",),
              players: str | int | Iterable[int] = PLAYER_COUNTS, games: int = 20_000,
              seed: int | None = None, backend: Backend | None = None,
              expansion: str = "base", target: int | None = None,
              progress: Progress | None = None) -> tuple[pd.DataFrame, dict]:
    """The sweep's DataFrame and a header (metadata, timing). All grid points, player counts and
    seatings run as one batch list on `backend` (analyzer.runs.spec.Backend; None: Backend())."""
    return run(SweepSpec.build(sweeps, policy, vs, players, games, seed, expansion, target,
                               backend), progress)


def run(sw: SweepSpec, progress: Progress | None = None) -> tuple[pd.DataFrame, dict]:
    """run_sweep of a built spec: every grid point in slot 0 of each player count's rotated run,
    all run as one batch list on their backend."""
    grid, specs, asked = sw.grid, sw.runs, sw.asked
    names, base = grid.names, grid.base
    seed, games = specs[0].seed, specs[0].count
    runner = specs[0].backend.runner(progress)
    runner.check()
    cells = []        # (spec, field, grid values, swept policy, planned rotations)
    for spec in specs:
        field_p = list(spec.policies[1:])
        for values, pol in zip(grid.values, grid.points):
            cells.append((spec, [f.spec for f in field_p], values, pol,
                          rotations(replace(spec, policies=(resolve(pol, spec.players),
                                                            *field_p)))))
    batches = [r.batch for *_, planned in cells for r in planned]
    outcome = runner.run(batches, {
        "command": "sweep", "sweep": [f"{n}={','.join(format_value(v) for v in sorted(set(g[i] for g in grid.values)))}"
                                      for i, n in enumerate(names)],
        "policy": base.short, "vs": [f.short for f in grid.field], "players": grid.counts,
        "games": games, "expansion": asked.expansion, "target": asked.target, "seed": seed})
    rows = []
    first = 0             # index of the cell's first batch
    for spec, field_p, values, pol, planned in cells:
        runs = rotation_runs(planned, outcome.counters[first:first + len(planned)], outcome.timing)
        first += len(planned)
        rows.append(sweep_row(runs, dict(zip(names, values)), pol.spec, field_p, spec.target))
    meta = {"command": "sweep", "seed": seed, "policy": base.spec, "swept": ",".join(names),
            "expansion": specs[0].expansion, "version": __version__,
            **expert_meta([p for *_, planned in cells for r in planned for p in r.policies])}
    df = frame(rows, meta)
    header = dict(meta)
    header.update({
        "swept": names,
        "grid": [list(map(_value, g)) for g in grid.values],
        "players": grid.counts,
        "games": games,
        "vs": [f.spec for f in grid.field],
        "best": best_points(df, names),
        "timing": {**outcome.timing, "games_per_second":
                   outcome.units / outcome.seconds if outcome.seconds else None},
    })
    return df, header


def best_points(df: pd.DataFrame, names: Sequence[str]) -> dict[str, str]:
    """Per player count, the sentence that says what to conclude: the grid point with the
    highest win rate and every point tied with it at this precision (95% intervals overlapping),
    or that it is clear of the next. Rows with identical estimates (the same play) count once."""
    from reports.captions import Estimate, rank
    from ..render.text_tables import identical_groups, value
    out = {}
    for p, gp in df.groupby("players", sort=True):
        rows = gp.to_dict("records")
        later = {i for g in identical_groups(rows) for i in g[1:]}
        points = [Estimate("(" + ", ".join(f"{n}={value(r[n])}" for n in names) + ")",
                           r["win_rate"], r["win_rate_lo"], r["win_rate_hi"])
                  for i, r in enumerate(rows) if i not in later]
        out[str(p)] = rank(points, "win rate")
    return out


def sweep_row(runs: list, values: dict[str, float], spec: str, field_p: Sequence[str],
              target: int | None) -> dict:
    """One row of a sweep: the grid values, then the swept player's (slot 0 of the rotated
    runs) win and round figures against `field_p`, each with its 95% interval."""
    p = len(runs[0].seats)
    me = aggregate(runs, [0] + [1] * (p - 1), 2, study="s")[0]
    row = {n: _value(v) for n, v in values.items()}
    row.update({"players": p, "spec": spec})
    row.update({k: v for k, v in me.items() if k not in ("entrant", "seats")})
    row.update({"field": join_specs(field_p), "target": default_target(p, target)})
    return row


def _value(v: float) -> int | float:
    return int(v) if float(v).is_integer() else float(v)


def sweep(sweeps: Sequence[str], policy: str = "baseline", vs: Sequence[str] = ("baseline",),
          players: str | int | Iterable[int] = PLAYER_COUNTS, games: int = 20_000,
          seed: int | None = None, backend: Backend | None = None, expansion: str = "base",
          target: int | None = None, progress: Progress | None = None) -> pd.DataFrame:
    """One row per grid point and player count (see the module doc)."""
    df, header = run_sweep(sweeps, policy, vs, players, games, seed, backend, expansion, target,
                           progress)
    df.attrs["header"] = {k: v for k, v in header.items() if k != "timing"}
    return df
