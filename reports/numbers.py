"""The numbers behind each report chart, as a table (headers, rows of text) for the page: every
chart of `seasalt report` is shown with the estimates and intervals it draws."""
from __future__ import annotations

import pandas as pd

from .charts import concat_frames, sweep_param


def _pct(x) -> str:
    return "" if pd.isna(x) else f"{100 * float(x):.2f}%" if float(x) < 0.01 else \
        f"{100 * float(x):.1f}%"


def _ci(r, key: str, mean: str | None = None) -> str:
    m = r[mean or key]
    return f"{_pct(m)} [{_pct(r[key + '_lo'])}, {_pct(r[key + '_hi'])}]"


def _n(r, key: str, d: int = 2) -> str:
    return f"{r[key + '_mean']:.{d}f} [{r[key + '_lo']:.{d}f}, {r[key + '_hi']:.{d}f}]"


def _v(v) -> str:
    v = float(v)
    return str(int(v)) if v.is_integer() else f"{v:g}"


def sweep_table(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    names = [n for n in str(df["swept"].dropna().iloc[0]).split(",") if n in df.columns] \
        if "swept" in df.columns and df["swept"].notna().any() else [sweep_param(df)]
    rows = [[str(int(r["players"]))] + [_v(r[n]) for n in names] +
            [_ci(r, "win_rate"), _ci(r, "void_rate"), f"{int(r['games']):,}"]
            for _, r in df.sort_values(["players"] + names).iterrows()]
    return ["players"] + names + ["win rate [95%]", "void rounds [95%]", "games"], rows


def last_chance_table(df) -> tuple[list[str], list[list[str]]]:
    df = concat_frames(df)
    pts = "points" if "points" in df.columns else "caller_points"
    rows = [[str(r.get("players", "")), str(r[pts]), f"{int(r['calls']):,}",
             _ci(r, "success")] for _, r in df.iterrows()]
    return ["players", "caller's points", "calls", "success [95%]"], rows


def mermaids_table(df) -> tuple[list[str], list[list[str]]]:
    df = concat_frames(df)
    rows = [[str(r.get("players", "")), str(int(r["mermaids"])), f"{int(r['player_rounds']):,}",
             _n(r, "round_points"), f"{r['mermaid_points_mean']:.2f}"]
            for _, r in df.iterrows()]
    return ["players", "mermaids held", "player-rounds", "round points [95%]",
            "mermaid points"], rows


def histogram_table(df) -> tuple[list[str], list[list[str]]]:
    df = concat_frames(df)
    out = []
    for p, g in (df.groupby("players", sort=True) if "players" in df.columns else [("", df)]):
        g = g.groupby("value")["count"].sum()
        n = g.sum()
        out += [[str(p), str(int(v)), f"{int(c):,}", _pct(c / n)] for v, c in g.items()]
    return ["players", "value", "rounds", "share"], out


def tournament_table(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    df = df.sort_values("win_rate", ascending=False)
    rows = [[str(r["spec"]), _ci(r, "win_rate"), _pct(r["fair_share"]), f"{int(r['games']):,}"
             if "games" in df.columns else ""] for _, r in df.iterrows()]
    return ["entrant", "win rate [95%]", "fair share", "games"], rows


def seat_table(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    rows = [[str(int(r["seat"])), _ci(r, "win_rate")] for _, r in df.sort_values("seat").iterrows()]
    return ["seat", "win rate [95%]"], rows


def rates_by_players(df, cols) -> tuple[list[str], list[list[str]]]:
    """One row per player count: each rate with its interval, and the rounds behind them."""
    from .charts import one_row_per_run
    df = one_row_per_run(concat_frames(df))
    rows = [[str(int(r["players"]))] + [_ci(r, st, v) for _, v, st in cols] +
            [f"{int(r['rounds']):,}"] for _, r in df.iterrows()]
    return ["players"] + [f"{lab.replace('_', ' ')} [95%]" for lab, _, _ in cols] + ["rounds"], rows
