"""`seasalt guide --out DIR`: an HTML strategy guide that answers the players' questions with
numbers, every statement with its 95% interval and words that claim no more than it allows.

    guide_pages.build_guide("guide/", seed=1)            # the full guide (SCALES["full"])
    guide_pages.build_guide("guide-small/", seed=1, scale="small")   # the same, tiny (tests)

The studies (each a batch list run through one Staged study: progress, --checkpoint /
--resume, --scheduler; seeds derived from the master seed by study, analyzer.studies.rotation):

* **grid**: one seat's `threshold(stop_at=S,last_chance_at=L)` against baseline opponents,
  S = 7..14, L = S..15 and 99 (never; L at or below S is the same player as L = S: every
  declaration is then a LAST CHANCE), 2, 3 and 4 players, seats rotated; again against tuned
  opponents, and with Extra Salt.
* **matchups**: the tuned player of each count against baseline and against
  threshold(stop_at=7,last_chance_at=7), and the other way round.
* **values**: paired experiments (analyzer.studies.paired): each card kind and the 1st/2nd/3rd mermaid
  in hand at a round's start, playing each pair kind instead of holding it (in the base game
  against baseline and against expert opponents).
* **void rounds**: rounds in which every seat declares at S points (S = 7..25).
* **LAST CHANCE**: rounds in which every seat calls LAST CHANCE as soon as it has 7 points:
  success by the caller's points; sparse point totals merged into a bin with enough calls.
* **first seat**: games of identical players, win rate by seat.
* **choices**: paired experiments of one seat's choices (draw or take, whom to steal from,
  colour and mermaid chasing) against baseline and against expert opponents.
* **endings**: rounds in which every seat plays the same player (baseline, tuned, the expert, the
  search player at 64 samples): how they end, STOP, LAST CHANCE won or lost, void, four mermaids.
* **luck**: games of the expert among baseline players, each split into luck and skill
  (analyzer.studies.luck_share): how much of what moves a player's chances is the cards.
* **iterated best response** (2 players): analyzer.studies.optimize with the field `self`.

The page, the charts (PNG + SVG), every table as CSV (data/) and guide.json (the commands,
seeds, version and timing) are written by analyzer.base.outdir's rule: built aside, moved into DIR,
and an existing DIR only replaced where its manifest (.seasalt-guide.json) proves it ours.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from kernels import ENGINE_HASH

from .. import __version__
from ..base import outdir
from . import optimize as opt
from . import luck_share, paired
from ..base.errors import SeasaltError
from ..rules.expert import weights_hash
from ..rules.policies import parse_policy, short_spec
from .rotation import derive_seed, plan_rotations, rotation_runs
from ..rules.limits import PLAYER_COUNTS, check_seed
from ..numbers.estimates import wilson
from ..runs.batches import Progress
from ..runs.spec import Backend, as_backend
from .simulate import plan_games, plan_rounds, summarize_games, summarize_rounds
from ..runs.stages import Staged
from .sweep import sweep_row
from ..render.tidy_frames import merge_sparse

T77 = "threshold(stop_at=7,last_chance_at=7)"
PLAYERS = PLAYER_COUNTS
NEVER = 99
GENERATOR = "seasalt guide"


@dataclass(frozen=True)
class Scale:
    """Sample sizes of every study (games, pairs or rounds per cell)."""
    grid: int
    grid_tuned: int
    grid_extra: int
    matchup: int
    matchup_extra: int
    pairs: int
    pairs_extra: int
    mermaid_pairs: int
    void_rounds: int
    lc_rounds: int
    seat_games: int
    seat_games_extra: int
    ending_rounds: int
    ending_search_rounds: int
    choice_pairs: int
    luck_games: int
    luck_samples: int
    ibr: dict = field(default_factory=dict)
    stop_values: tuple[int, ...] = tuple(range(7, 15))
    void_values: tuple[int, ...] = (7, 9, 11, 13, 15, 17, 19, 21, 23, 25)
    lc_min_calls: int = 400


SCALES = {
    "full": Scale(grid=10_000, grid_tuned=4_000, grid_extra=4_000, matchup=100_000,
                  matchup_extra=30_000, pairs=10_000, pairs_extra=5_000, mermaid_pairs=20_000,
                  void_rounds=100_000, lc_rounds=500_000, seat_games=100_000,
                  seat_games_extra=50_000, ending_rounds=20_000, ending_search_rounds=2_000,
                  choice_pairs=10_000, luck_games=400, luck_samples=400,
                  ibr={"generations": 12, "population": 16, "games": 1500, "finalists": 4,
                       "final_games": 10_000, "holdout_games": 40_000, "iterations": 4}),
    "small": Scale(grid=60, grid_tuned=30, grid_extra=30, matchup=300, matchup_extra=120,
                   pairs=40, pairs_extra=20, mermaid_pairs=60, void_rounds=600,
                   lc_rounds=2000, seat_games=120, seat_games_extra=60, ending_rounds=200,
                   ending_search_rounds=4, choice_pairs=20, luck_games=2, luck_samples=16,
                   ibr={"generations": 2, "population": 4, "games": 40, "finalists": 2,
                        "final_games": 60, "holdout_games": 100, "iterations": 2},
                   stop_values=(7, 8), void_values=(7, 15), lc_min_calls=20),
}
# The seed of each study: derive_seed(master seed, key).
STUDY_KEYS = {"grid": 1, "grid_tuned": 2, "grid_extra": 3, "matchups": 4, "matchups_extra": 5,
              "cards": 6, "cards_extra": 7, "mermaids": 8, "pairs": 9, "pairs_extra": 10,
              "void": 11, "last_chance": 12, "seats": 13, "seats_extra": 14, "ibr": 15,
              "endings": 16, "choices": 17, "luck": 18}
IBR_KNOBS = ("stop_at=7..14", "last_chance_at=7..15", "last_chance_margin=-5..20",
             "hand_value=0..3", "take_at=-2..8", "mermaid_bonus=-2..8", "colour_weight=-2..4")


def tuned(players: int) -> str:
    return parse_policy("tuned", players=players).spec


# ---------------------------------------------------------------------------------------------
# studies: batches now, a frame once their counters are in

@dataclass
class Study:
    """A named study: its batches and how to turn their counters into a tidy frame."""
    name: str
    batches: list
    finish: Callable[[list[np.ndarray]], pd.DataFrame]


def grid_cells(stop_values: Sequence[int]) -> list[tuple[int, int]]:
    """(stop_at, last_chance_at) pairs: L = S..15 and NEVER for each S (L below S would be the
    same player as L = S)."""
    return [(s, lc) for s in stop_values for lc in list(range(s, 16)) + [NEVER]]


def grid_study(name: str, seed: int, games: int, expansion: str,
               field_of: Callable[[int], str], stop_values: Sequence[int]) -> Study:
    cells = []
    for p in PLAYERS:
        field_p = [parse_policy(field_of(p), players=p).spec] * (p - 1)
        for s, lc in grid_cells(stop_values):
            spec = parse_policy(f"threshold(stop_at={s},last_chance_at={lc})").spec
            cells.append((p, s, lc, spec, field_p,
                          plan_rotations([spec] + field_p, games, seed, expansion)))
    return Study(name, [r.batch for *_, rots in cells for r in rots],
                 lambda counters: _sweep_frame(name, cells, counters, expansion, seed))


def matchup_study(name: str, seed: int, games: int, expansion: str,
                  pairs: Sequence[tuple[int, str, str]]) -> Study:
    """(players, spec in one seat, field spec in the others) per row."""
    cells = []
    for p, spec, fld in pairs:
        spec = parse_policy(spec, players=p).spec
        field_p = [parse_policy(fld, players=p).spec] * (p - 1)
        cells.append((p, None, None, spec, field_p,
                      plan_rotations([spec] + field_p, games, seed, expansion)))
    return Study(name, [r.batch for *_, rots in cells for r in rots],
                 lambda counters: _sweep_frame(name, cells, counters, expansion, seed))


def _sweep_frame(name, cells, counters, expansion, seed) -> pd.DataFrame:
    rows, i = [], 0
    for p, s, lc, spec, field_p, rots in cells:
        runs = rotation_runs(rots, counters[i:i + len(rots)], {})
        i += len(rots)
        values = {} if s is None else {"stop_at": s, "last_chance_at": lc}
        row = sweep_row(runs, values, spec, field_p, None)
        row["player"] = short_spec(spec)
        row["against"] = short_spec(field_p[0])
        rows.append(row)
    return _meta(pd.DataFrame(rows), name, seed, expansion)


def paired_study(name: str, experiments: Sequence[paired.Experiment], seed: int,
                 expansion: str) -> Study:
    def finish(counters):
        rows, i = [], 0
        for e in experiments:
            rows.append(paired.summarize(e, counters[i:i + len(e.batches)]))
            i += len(e.batches)
        return _meta(pd.DataFrame(rows).drop(columns=["seed", "version", "expansion"]), name,
                     seed, expansion)
    return Study(name, [b for e in experiments for b in e.batches], finish)


def rounds_study(name: str, seed: int, expansion: str,
                 cases: Sequence[tuple[dict, int, list[str], int]],
                 row_of: Callable[[dict, dict], list[dict]]) -> Study:
    """(labels, players, specs, rounds) per case; `row_of(labels, summary)` gives its rows."""
    planned = [(labels, plan_rounds(p, n, specs, derive_seed(seed, p), expansion))
               for labels, p, specs, n in cases]

    def finish(counters):
        rows = []
        for (labels, pl), c in zip(planned, counters):
            rows += row_of(labels, summarize_rounds(pl, c, {}))
        return _meta(pd.DataFrame(rows), name, seed, expansion)
    return Study(name, [pl.batch for _, pl in planned], finish)


def seat_study(name: str, seed: int, expansion: str, cases: Sequence[tuple[int, str]],
               games: int) -> Study:
    planned = [(p, spec, plan_games(p, games, [parse_policy(spec, players=p).spec],
                                    derive_seed(seed, p), expansion, None))
               for p, spec in cases]

    def finish(counters):
        rows = []
        for (p, spec, pl), c in zip(planned, counters):
            r = summarize_games(pl, c, {})
            for q in range(p):
                lo, hi = r["win_rate"][q]["ci95"]
                rows.append({"players": p, "player": short_spec(r["policies"][q]),
                             "seat": q, "games": r["games"], "wins": r["wins"][q],
                             "win_rate": r["win_rate"][q]["rate"], "win_rate_lo": lo,
                             "win_rate_hi": hi, "fair_share": 1 / p})
        return _meta(pd.DataFrame(rows), name, seed, expansion)
    return Study(name, [pl.batch for *_, pl in planned], finish)


def _meta(df: pd.DataFrame, name: str, seed: int, expansion: str) -> pd.DataFrame:
    df = df.copy()
    df["study"] = name
    df["seed"] = seed
    df["expansion"] = expansion
    df["version"] = __version__
    return df


def void_rows(labels: dict, r: dict) -> list[dict]:
    v = r["end_rate"]["void"]
    return [{**labels, "players": r["players"], "rounds": r["rounds"],
             "void": r["end"]["void"], "void_rate": v["rate"], "void_rate_lo": v["ci95"][0],
             "void_rate_hi": v["ci95"][1]}]


# How rounds end, by field: the baseline, the tuned player, the expert and the search player, each
# playing every seat (name, spec, which rounds size of the Scale).
ENDING_FIELDS = (("baseline", "baseline", "ending_rounds"), ("tuned", "tuned", "ending_rounds"),
                 ("expert", "expert", "ending_rounds"),
                 ("search(64)", "search(samples=64)", "ending_search_rounds"))
ENDINGS = ("stop", "last_chance_won", "last_chance_lost", "void", "mermaids")

# The players' choices, each a paired experiment: the treated seat plays `a` in arm A and the
# threshold player (the baseline's decisions) in arm B, on the same deals, against each field:
# (question, label, player counts, a). The question names the guide's section.
CHOICES = (
    ("draw", "take a pile top only from a gain of 3 (draw more)", PLAYERS, "threshold(take_at=3)"),
    ("draw", "take a pile top from a gain of -1 (take more)", PLAYERS, "threshold(take_at=-1)"),
    ("draw", "put the card not kept on the better top (deny)", PLAYERS, "threshold(bury=1)"),
    ("steal", "steal from the best visible table", (3, 4), "threshold(steal_from=1)"),
    ("steal", "steal from the next player", (3, 4), "threshold(steal_from=2)"),
    ("colour", "add 1 to a card of the largest colour", PLAYERS, "threshold(colour_weight=1)"),
    ("colour", "add 2 to a mermaid", PLAYERS, "threshold(mermaid_bonus=2)"),
)
CHOICE_FIELDS = ("baseline", "expert")


def choice_experiments(seed: int, pairs: int) -> list[paired.Experiment]:
    """CHOICES against each field (the expert of the player count), `pairs` deals each."""
    out = []
    for question, label, counts, a in CHOICES:
        for p in counts:
            for fld in CHOICE_FIELDS:
                e = paired.plan_policy(p, a, "threshold", pairs, seed,
                                       parse_policy(fld, players=p).spec, "base", None, label)
                e.row.update(question=question, against=fld)
                out.append(e)
    return out


def ending_rows(labels: dict, r: dict) -> list[dict]:
    """One row: how the rounds ended (each ending's rate with its 95% interval; last_chance is
    won + lost)."""
    row = {**labels, "players": r["players"], "rounds": r["rounds"],
           "player": short_spec(r["policies"][0])}
    counts = dict(r["end"], last_chance=r["end"]["last_chance_won"] + r["end"]["last_chance_lost"])
    for k in ENDINGS[:1] + ("last_chance",) + ENDINGS[1:]:
        lo, hi = wilson(counts[k], r["rounds"])
        row.update({k: counts[k], f"{k}_rate": counts[k] / r["rounds"], f"{k}_rate_lo": lo,
                    f"{k}_rate_hi": hi})
    return [row]


def lc_rows(labels: dict, r: dict) -> list[dict]:
    return [{**labels, "players": r["players"], "rounds": r["rounds"],
             "caller_points": int(k), "calls": v["calls"], "won": v["won"]}
            for k, v in r["last_chance_by_points"].items()]


def studies(seed: int, sc: Scale) -> list[Study]:
    """Every study of the guide but the iterated best response, at scale `sc`."""
    def sd(name: str) -> int:
        return derive_seed(seed, STUDY_KEYS[name])
    s = [
        grid_study("grid", sd("grid"), sc.grid, "base", lambda p: "baseline",
                   sc.stop_values),
        grid_study("grid_tuned", sd("grid_tuned"), sc.grid_tuned, "base", tuned,
                   sc.stop_values),
        grid_study("grid_extra", sd("grid_extra"), sc.grid_extra, "extra-salt",
                   lambda p: "baseline", sc.stop_values),
        matchup_study("matchups", sd("matchups"), sc.matchup, "base",
                      [(p, a, b) for p in PLAYERS for a, b in
                       (("tuned", "baseline"), (T77, "baseline"), ("tuned", T77),
                        (T77, "tuned"), ("baseline", "tuned"))]),
        matchup_study("matchups_extra", sd("matchups_extra"), sc.matchup_extra, "extra-salt",
                      [(p, a, b) for p in PLAYERS for a, b in
                       (("tuned", "baseline"), (T77, "baseline"), ("tuned", T77))]),
    ]
    for name, expansion, n in (("cards", "base", sc.pairs),
                               ("cards_extra", "extra-salt", sc.pairs_extra)):
        es = [paired.plan_card(p, k, n, sd(name), "baseline", expansion)
              for p in PLAYERS for k in paired.kinds_of(expansion)]
        s.append(paired_study(name, es, sd(name), expansion))
    s.append(paired_study("mermaids", [
        paired.plan_card(p, "mermaid", sc.mermaid_pairs, sd("mermaids"), "baseline", "base",
                         None, m - 1) for p in PLAYERS for m in (1, 2, 3)],
        sd("mermaids"), "base"))
    for name, expansion, n, fields in (
            ("pairs", "base", sc.pairs, CHOICE_FIELDS),
            ("pairs_extra", "extra-salt", sc.pairs_extra, ("baseline",))):
        es = []
        for fld in fields:                  # the base game's also against the expert
            for p in PLAYERS:
                for label, a, b in paired.pair_specs(expansion):
                    e = paired.plan_policy(p, a, b, n, sd(name), parse_policy(fld, players=p).spec,
                                           expansion, None, label)
                    e.row["against"] = fld
                    es.append(e)
        s.append(paired_study(name, es, sd(name), expansion))
    s.append(rounds_study("void", sd("void"), "base",
                          [({"stop_at": v}, p, [f"baseline(stop_at={v})"], sc.void_rounds)
                           for p in PLAYERS for v in sc.void_values], void_rows))
    s.append(rounds_study("last_chance", sd("last_chance"), "base",
                          [({"callers": T77}, p, [T77], sc.lc_rounds) for p in PLAYERS],
                          lc_rows))
    s.append(seat_study("seats", sd("seats"), "base",
                        [(p, spec) for spec in ("baseline", "tuned") for p in PLAYERS],
                        sc.seat_games))
    s.append(seat_study("seats_extra", sd("seats_extra"), "extra-salt",
                        [(p, "baseline") for p in PLAYERS], sc.seat_games_extra))
    s.append(paired_study("choices", choice_experiments(sd("choices"), sc.choice_pairs),
                          sd("choices"), "base"))
    s.append(rounds_study("endings", sd("endings"), "base",
                          [({"field": name}, p, [parse_policy(spec, players=p).spec],
                            getattr(sc, size))
                           for p in PLAYERS for name, spec, size in ENDING_FIELDS], ending_rows))
    luck = luck_share.plan(sd("luck"), sc.luck_games, sc.luck_samples, PLAYERS)
    s.append(Study("luck", luck, lambda counters: _meta(luck_share.frame(luck, counters), "luck",
                                                          sd("luck"), "base")))
    return s


def ibr_settings(seed: int, sc: Scale) -> opt.OptimizeSpec:
    """Iterated best response for 2 players from the baseline's play (threshold defaults)."""
    return opt.OptimizeSpec.build(players=2, knobs=IBR_KNOBS, policy="threshold", vs=[opt.SELF],
                                  seed=derive_seed(seed, STUDY_KEYS["ibr"]), **sc.ibr)


# ---------------------------------------------------------------------------------------------
# running

@dataclass(frozen=True)
class GuideSpec:
    """A guide to write, validated once: its folder (checked before any work, see check_dest),
    seed, scale (a key of SCALES) and backend."""
    folder: outdir.OutFolder
    seed: int
    scale: str
    backend: Backend

    @classmethod
    def build(cls, out: str | os.PathLike, seed: int = 1, scale: str = "full",
              backend: Backend | None = None) -> "GuideSpec":
        """Check the folder, the scale and the seed (a SeasaltError names what is wrong)."""
        folder = check_dest(out)
        if scale not in SCALES:
            raise SeasaltError(f"unknown guide scale {scale!r}; valid: {', '.join(SCALES)}")
        check_seed(seed)
        return cls(folder, seed, scale, as_backend(backend))


def run_studies(spec: GuideSpec, progress: Progress | None = None,
                write: Callable[[dict], object] | None = None) -> dict:
    """Every study's frame (by name), the iterated best response and the run's metadata, run on
    the spec's backend. `write(result)` (the pages) runs before the study's cache journal is
    deleted, so pages that cannot be written (a full disk) lose no work: the rerun with
    --resume has it all."""
    seed, scale, backend = spec.seed, spec.scale, spec.backend
    sc = SCALES[scale]
    plan = studies(seed, sc)
    ibr = ibr_settings(seed, sc)
    total = sum(b.count for st in plan for b in st.batches) + opt.planned_games(ibr)
    t0 = time.perf_counter()
    staged = Staged({"guide": scale, "seed": seed}, {"command": "guide", "seed": seed}, total,
                    backend, progress)
    with staged:
        batches = [b for st in plan for b in st.batches]
        counters = staged.run("studies", batches)
        frames, i = {}, 0
        for st in plan:
            frames[st.name] = st.finish(counters[i:i + len(st.batches)])
            i += len(st.batches)
        trace: list[dict] = []
        searches = opt.run_searches(ibr, staged, trace)
        ibr_result = opt.summarize(ibr, searches, staged.timing())
        frames["ibr_trace"] = opt.trace_frame(ibr, trace)
        frames["ibr"] = opt.results_frame(ibr, searches)
        frames["last_chance_bins"] = merge_sparse(frames["last_chance"], sc.lc_min_calls)
        result = {"frames": frames, "ibr": ibr_result, "scale": scale, "seed": seed,
                  "sizes": sc, "seconds": time.perf_counter() - t0, "timing": staged.timing(),
                  "units": total}
        if write is not None:
            result["written"] = write(result)
        staged.finish()
    return result


def command_line(seed: int, scale: str) -> str:
    return f"seasalt guide --out DIR --seed {seed}" + (" --small" if scale == "small" else "")


def check_dest(out: str | os.PathLike) -> outdir.OutFolder:
    """DIR must be new, empty, or hold only an earlier guide's files as its manifest proves
    (analyzer.base.outdir). Checked before any work."""
    return outdir.check(out, GENERATOR)


def metadata(result: dict, command: str) -> dict:
    """guide.json: what was run, with which seeds and version, and how long it took."""
    sizes = result["sizes"]
    return {"generator": GENERATOR, "command": command, "seed": result["seed"],
            "scale": result["scale"], "version": __version__, "engine": ENGINE_HASH,
            "sizes": {k: v for k, v in sizes.__dict__.items()},
            "study_seeds": {name: derive_seed(result["seed"], key)
                            for name, key in STUDY_KEYS.items()},
            "expert_weights": weights_hash(),    # the expert plays in several studies
            "units": result["units"], "seconds": result["seconds"],
            "timing": result["timing"], "tuned": {p: tuned(p) for p in PLAYERS}}


def write_json(path: Path, obj: dict) -> None:
    path.write_text(json.dumps(obj, indent=2, default=str), encoding="utf-8")
