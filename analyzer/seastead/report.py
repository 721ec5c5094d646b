"""Seastead results for files and the short report: tidy DataFrames (every row with the seed,
setup, components and version), and the short report's figures (first-player edge, score by
category, end triggers, game length, solo win rate); their text is analyzer.render.seastead_text."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from kernels.seastead import layout as L

from ..render.tidy_frames import frame
from ..runs.spec import Backend
from .components import Components, Setup, load
from .runs import BUILDINGS, CATEGORIES, TRIGGERS, SeasteadRunSpec, run_games

PLURAL = dict(zip(L.BUILDING_NAMES, L.BUILDING_PLURALS))

# ---------------------------------------------------------------------------------------------
# tidy tables

def _frame_meta(r: dict) -> dict:
    return {"command": r["command"], "seed": r["seed"], "setup": r["setup"],
            "components": r["components"], "components_invented": r["components_invented"],
            "components_sha256": r["components_sha256"], "version": r["version"]}


def simulate_frame(r: dict) -> pd.DataFrame:
    """One row per seat: wins, score and categories with intervals, actions per game."""
    rows = []
    for q, s in enumerate(r["seats"]):
        wins = r["solo"]["wins"] if r["solo"] else r["wins"][q]
        row = {"seat": q, "player": s["player"], "games": r["games"], "wins": wins["count"],
               "win_rate": wins["rate"], "win_rate_lo": wins["ci95"][0],
               "win_rate_hi": wins["ci95"][1], "score_mean": s["score"]["mean"],
               "score_lo": s["score"]["ci95"][0], "score_hi": s["score"]["ci95"][1]}
        for c in CATEGORIES:
            d = s["categories"][c]
            row[f"{c}_mean"], (row[f"{c}_lo"], row[f"{c}_hi"]) = d["mean"], d["ci95"]
        row["rounds_mean"] = r["rounds"]["mean"]
        row["rounds_lo"], row["rounds_hi"] = r["rounds"]["ci95"]
        for t in TRIGGERS:
            d = r["end_triggers"][t]
            row[f"trigger_{t}_rate"], (row[f"trigger_{t}_lo"], row[f"trigger_{t}_hi"]) = \
                d["rate"], d["ci95"]
        row["dives_per_game"] = s["dives_per_game"]
        for b in BUILDINGS:
            row[f"{PLURAL[b]}_per_game"] = s["builds_per_game"][b]
        if r["solo"]:
            row["boss_score_mean"] = r["solo"]["boss_score"]["mean"]
            row["boss_score_lo"], row["boss_score_hi"] = r["solo"]["boss_score"]["ci95"]
        rows.append(row)
    return frame(rows, _frame_meta(r))


def tournament_frame(r: dict) -> pd.DataFrame:
    return frame(r["rows"], {**_frame_meta(r), "games_per_pair": r["games"]})


def replay_frame(r: dict) -> pd.DataFrame:
    rows = [{"n": i, **{k: v for k, v in e.items()}} for i, e in enumerate(r["events"])]
    return frame(rows, {k: v for k, v in _frame_meta(r).items()})


# ---------------------------------------------------------------------------------------------
# the short report

@dataclass(frozen=True)
class SeasteadReportSpec:
    """The short report, validated once: its two runs, a mirror match (`duel`) and a solo run
    against the Boss."""
    duel: SeasteadRunSpec
    solo: SeasteadRunSpec

    @classmethod
    def build(cls, games: int = 20_000, player: str = "heuristic",
              solo_player: str | None = None, seed: int = 1,
              components: str | Components | None = None, sides: str = "AAAA",
              backend: Backend | None = None) -> "SeasteadReportSpec":
        """`player` in both seats on `sides`, `solo_player` (default the same) alone."""
        comps = components if isinstance(components, Components) else load(components)
        return cls(SeasteadRunSpec.build(games, [player], seed, comps, Setup(sides=sides),
                                         backend),
                   SeasteadRunSpec.build(games, [solo_player or player], seed, comps,
                                         Setup(solo=True), backend))


def short_report(games: int = 20_000, player: str = "heuristic", solo_player: str | None = None,
                 seed: int = 1, components: str | Components | None = None, sides: str = "AAAA",
                 backend: Backend | None = None, progress=None) -> dict:
    """A mirror match of `player` in both seats and `solo_player` (default the same) against
    the Boss, with the headline figures; both runs on `backend` (None: Backend())."""
    return run(SeasteadReportSpec.build(games, player, solo_player, seed, components, sides,
                                        backend), progress)


def run(spec: SeasteadReportSpec, progress=None) -> dict:
    """short_report() of a built spec."""
    duel = run_games(spec.duel, progress)
    solo = run_games(spec.solo, progress)
    fp = duel["first_player"]
    rows = [{"figure": "first-player win share", **_vals(fp["win_share"])},
            {"figure": "first-player score margin", **_vals(fp["margin"])},
            *({"figure": f"score {c} (seat {q})", **_vals(s["categories"][c])}
              for q, s in enumerate(duel["seats"]) for c in CATEGORIES),
            *({"figure": f"end trigger {t}", **_vals(duel["end_triggers"][t])} for t in TRIGGERS),
            {"figure": "rounds per game", **_vals(duel["rounds"])},
            {"figure": "solo win rate", **_vals(solo["solo"]["wins"])},
            {"figure": "solo margin over the Boss", **_vals(solo["solo"]["margin"])}]
    return {"duel": duel, "solo": solo, "rows": rows}


def _vals(d: dict) -> dict:
    v = d["rate"] if "rate" in d else d["mean"]
    return {"value": v, "lo": d["ci95"][0], "hi": d["ci95"][1]}


def report_frame(rep: dict) -> pd.DataFrame:
    d = rep["duel"]
    return frame(rep["rows"], {**_frame_meta(d), "games": d["games"],
                               "player": d["players"][0], "solo_player": rep["solo"]["players"][0]})
