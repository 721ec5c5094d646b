"""Seastead results for people and files: text tables (at most 100 columns), tidy DataFrames
(every row with the seed, setup, components and version), and the short report (first-player
edge, score by category, end triggers, game length, solo win rate) whose sentences claim only
what the intervals allow."""
from __future__ import annotations

import pandas as pd

from ..render.text_tables import (cut_labels, entrant_labels, pct, pct_digits, rate_ci, rate_column, table,
                      timing, wrap)
from ..render.tidy_frames import frame
from ..runs.spec import Backend
from .components import Components, Setup, load
from .players import parse_player
from .runs import BUILDINGS, CATEGORIES, TRIGGERS, interval_words, simulate

PLURAL = {"port": "ports", "academy": "academies", "shipyard": "shipyards"}


def _pct(x) -> str:
    return pct(x, 1)


def _rate(d: dict, digits: int | None = None) -> str:
    """`39.6% [37.5, 41.8]`, rare events with more digits (analyzer.render.text_tables.pct_digits)."""
    return rate_ci(d["rate"], *d["ci95"], digits)


def _rates(ds: list[dict]) -> list[str]:
    """A column of rates, all with one precision."""
    digits = pct_digits(v for d in ds for v in (d["rate"], *d["ci95"]))
    return [_rate(d, digits) for d in ds]


def _mean(d: dict, digits: int = 2) -> str:
    m, (lo, hi) = d["mean"], d["ci95"]
    return f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _pm(d: dict) -> str:
    m, (lo, hi) = d["mean"], d["ci95"]
    return f"{m:.2f}±{(hi - lo) / 2:.2f}"


def _meta_lines(r: dict) -> list[str]:
    lines = [f"components: {r['components_label']}",
             f"seed {r['seed']}, components sha256 {r['components_sha256'][:12]}, "
             f"seasalt {r['version']}"]
    return lines + (timing(r["timing"], "games") if "timing" in r else [])


def solo_note(r: dict, lowest_win: float) -> list[str]:
    """What every solo figure carries: with invented components the Boss's strength is invented
    too; and a player whose win rate is at least 99% (the interval's lower end) makes solo
    trivial, which the reader should see before reading any solo figure as a challenge."""
    out = []
    if lowest_win >= 0.99:
        out.append("  the Boss wins under 1% of these games: with these components solo is trivial")
    if r["components_invented"]:
        out.append("  (INVENTED components: the Boss's strength here says nothing about the box)")
    return out


def format_simulate(r: dict) -> str:
    n = r["games"]
    lines = [f"Seastead: {n:,} games, {r['setup']}" + ("" if r["solo"] else
                                                      "; seat 0 starts every round"), ""]
    seats = r["seats"]
    if r["solo"]:
        so = r["solo"]
        lines += [f"  the player beats the Boss in {_rate(so['wins'])} of games",
                  f"  player score {_mean(seats[0]['score'])}, Boss score {_mean(so['boss_score'])}"
                  f" ({so['boss_buildings_per_game']:.2f} Boss buildings per game)",
                  f"  margin over the Boss {_mean(so['margin'])}"]
        lines += solo_note(r, so["wins"]["ci95"][0]) + [""]
    else:
        fp = r["first_player"]
        lines += table([
            ("seat", ">", [str(s["seat"]) for s in seats]),
            ("player", "<", [_short(s["player"]) for s in seats]),
            ("outright wins [95%]", ">", _rates(r["wins"])),
            ("score [95%]", ">", [_mean(s["score"]) for s in seats]),
        ])
        lines += ["", f"  shared wins {_rate(r['shared'])}",
                  f"  first player's win share {_mean(fp['win_share'], 4)}: "
                  + interval_words(fp["edge"]["ci95"], "the first player has the edge",
                                   "the second player has the edge"),
                  f"  score margin seat 0 - seat 1: {_mean(fp['margin'])}", ""]
    lines += ["  score by category (mean ± 95% half-width)"]
    lines += table([("seat", ">", [str(s["seat"]) for s in seats])]
                    + [(c.replace("_", " "), ">", [_pm(s["categories"][c]) for s in seats])
                       for c in CATEGORIES])
    lines += ["", "  end triggered with (several can hold at once)"]
    lines += table([("condition", "<", [t.replace("_", " ") for t in TRIGGERS]),
                     ("games", ">", [f"{r['end_triggers'][t]['count']:,}" for t in TRIGGERS]),
                     ("rate [95%]", ">", _rates([r["end_triggers"][t] for t in TRIGGERS]))])
    lines += ["", f"  rounds per game {_mean(r['rounds'])}", "  per game"]
    lines += table([("seat", ">", [str(s["seat"]) for s in seats]),
                     ("dives", ">", [f"{s['dives_per_game']:.2f}" for s in seats])]
                    + [(PLURAL[b], ">", [f"{s['builds_per_game'][b]:.2f}" for s in seats])
                       for b in BUILDINGS]
                    + [("spent", ">", [f"{s['specialists_spent_per_game']:.2f}" for s in seats]),
                       ("ship bonus", ">", [f"{s['ship_bonuses_per_game']:.2f}" for s in seats]),
                       ("extra", ">", [f"{s['extra_actions_per_game']:.2f}" for s in seats]),
                       ("shortfall", ">", [f"{s['cleanup_shortfall_per_game']:.2f}" for s in seats])])
    if not r["solo"]:
        tb = r["tiebreaks"]
        lines += ["", f"  decided by: totals {_pct(tb['none']['rate'])}, buildings left "
                      f"{_pct(tb['buildings_left']['rate'])}, cleanup {_pct(tb['cleanup']['rate'])},"
                      f" shared {_pct(tb['shared']['rate'])}",
                  f"  decrees entered per game {r['decrees_per_game']:.2f}"]
    lines += [""] + wrap("players: " + ", ".join(f"seat {q} {_short(p)}" for q, p in
                                                 enumerate(r["players"]))
                         + " (parameters not shown are at their defaults)")
    lines += _meta_lines(r)
    return "\n".join(line.rstrip() for line in lines)


def _short(spec: str) -> str:
    return parse_player(spec).short


def format_tournament(r: dict) -> str:
    rows = r["rows"]
    what = ("each entrant against the Boss" if r["solo"] else
            "every pair of entrants, both seatings")
    lines = [f"Seastead tournament, {r['setup']}",
             f"{r['games']:,} games per {'entrant' if r['solo'] else 'pair'} ({what})", ""]
    names = entrant_labels(r["entrants"], _short)
    lines += table([
        ("rank", ">", [str(x["rank"]) for x in rows]),
        ("player", "<", [names[x["entrant"]] for x in rows]),
        ("games", ">", [f"{x['games']:,}" for x in rows]),
        ("wins", ">", [f"{x['wins']:,}" for x in rows]),
        ("win share [95%]", ">", rate_column(rows, "win_share")),
        ("score [95%]", ">", [f"{x['score_mean']:.2f} [{x['score_lo']:.2f}, {x['score_hi']:.2f}]"
                              for x in rows]),
    ])
    lines += ["", "  win share: wins" + ("" if r["solo"] else " with shared wins counted half")
              + (" against the Boss" if r["solo"] else "; fair share 50%")]
    if r["solo"]:
        lines += solo_note(r, min(x["win_share_lo"] for x in rows))
    lines += cut_labels(r["entrants"], names, _short)
    lines += _meta_lines(r)
    return "\n".join(line.rstrip() for line in lines)


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

def short_report(games: int = 20_000, player: str = "heuristic", solo_player: str | None = None,
                 seed: int = 1, components: str | Components | None = None, sides: str = "AAAA",
                 backend: Backend | None = None, progress=None) -> dict:
    """A mirror match of `player` in both seats and `solo_player` (default the same) against
    the Boss, with the headline figures; both runs on `backend` (None: Backend())."""
    comps = components if isinstance(components, Components) else load(components)
    duel = simulate(games, [player], seed, comps, Setup(sides=sides), backend, progress)
    solo = simulate(games, [solo_player or player], seed, comps, Setup(solo=True), backend,
                    progress)
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


def format_short_report(rep: dict) -> str:
    d, so = rep["duel"], rep["solo"]
    fp = d["first_player"]
    edge_words = interval_words(fp["edge"]["ci95"], "the first player has an edge",
                                "the second player has an edge")
    lines = [f"Seastead report: {d['games']:,} games of {_short(d['players'][0])} against itself "
             f"({d['setup']}),",
             f"  {so['games']:,} solo games of {_short(so['players'][0])}",
             f"components: {d['components_label']}",
             "  (results describe these components, not the published game unless they are its "
             "cards)", "",
             f"first-player edge: win share {_mean(fp['win_share'], 4)}, {edge_words}",
             f"  score margin of the first player {_mean(fp['margin'])} points", "",
             "score by category (both seats, mean ± 95% half-width):"]
    lines += table([("seat", ">", ["0", "1"])]
                    + [(c.replace("_", " "), ">", [_pm(s["categories"][c]) for s in d["seats"]])
                       for c in CATEGORIES]
                    + [("total", ">", [_pm(s["score"]) for s in d["seats"]])])
    lines += ["", "end triggers (share of games; several can fire together):"]
    lines += ["  " + ", ".join(f"{t.replace('_', ' ')} {_rate(d['end_triggers'][t])}"
                               for t in TRIGGERS[:2]),
              "  " + ", ".join(f"{t.replace('_', ' ')} {_rate(d['end_triggers'][t])}"
                               for t in TRIGGERS[2:])]
    lines += ["", f"game length: {_mean(d['rounds'])} rounds",
              f"solo: the player beats the Boss in {_rate(so['solo']['wins'])} of games",
              f"  margin over the Boss {_mean(so['solo']['margin'])} points"]
    lines += solo_note(so, so["solo"]["wins"]["ci95"][0]) + [
              "",
              f"seed {d['seed']}, components sha256 {d['components_sha256'][:12]}, "
             f"seasalt {d['version']}"]
    return "\n".join(line.rstrip() for line in lines)


def report_frame(rep: dict) -> pd.DataFrame:
    d = rep["duel"]
    return frame(rep["rows"], {**_frame_meta(d), "games": d["games"],
                               "player": d["players"][0], "solo_player": rep["solo"]["players"][0]})
