"""One-line findings computed from the same tidy frames the charts draw (no engine imports).

    best_threshold(sweep_df)   # "best stop_at for 3 players: 10, win rate 34.0% ± 0.7%; ..."
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from .charts import _frame, entrant_labels, sweep_param


def _pm(mid: float, lo: float, hi: float) -> str:
    """'34.0% ± 0.7%' (the half-width of the interval; the larger side if it is lopsided)."""
    half = max(mid - lo, hi - mid)
    return f"{mid:.1%} ± {half:.1%}"


def _concat(df) -> pd.DataFrame:
    return df if isinstance(df, pd.DataFrame) else pd.concat(list(df), ignore_index=True)


def best_threshold(df: pd.DataFrame) -> str:
    param = sweep_param(df)
    parts = []
    for p, g in df.groupby("players", sort=True):
        best = g.loc[g["win_rate"].idxmax()]
        v = best[param]
        v = int(v) if float(v).is_integer() else v
        parts.append(f"best {param} for {int(p)} players: {v}, win rate "
                     f"{_pm(best['win_rate'], best['win_rate_lo'], best['win_rate_hi'])} "
                     f"(fair share {best['fair_share']:.1%})")
    return "; ".join(parts)


def void_rate(df: pd.DataFrame) -> str:
    param = sweep_param(df)
    parts = []
    for p, g in df.groupby("players", sort=True):
        worst = g.loc[g["void_rate"].idxmax()]
        v = worst[param]
        v = int(v) if float(v).is_integer() else v
        parts.append(f"{int(p)} players: at most {worst['void_rate']:.2%} of rounds void "
                     f"(at {param} = {v}, 95% up to {worst['void_rate_hi']:.2%})")
    return "; ".join(parts)


def last_chance(df, min_calls: int = 100) -> str:
    df = _concat(df)
    parts = []
    groups = df.groupby("players", sort=True) if "players" in df.columns else [(None, df)]
    for p, g in groups:
        g = g[g["calls"] >= min_calls]
        if g.empty:
            continue
        worst = g.loc[g["success"].idxmin()]
        who = f"{int(p)} players" if p is not None else "all"
        parts.append(f"{who}: {int(g['calls'].sum()):,} calls, lowest success "
                     f"{_pm(worst['success'], worst['success_lo'], worst['success_hi'])} "
                     f"at {int(worst['caller_points'])} points")
    return "; ".join(parts) or f"fewer than {min_calls} LAST CHANCE calls at every point total"


def mermaids(df) -> str:
    df = _concat(df)
    parts = []
    groups = df.groupby("players", sort=True) if "players" in df.columns else [(None, df)]
    for p, g in groups:
        g = g.sort_values("mermaids")
        lo, hi = g.iloc[0], g.iloc[-1]
        who = f"{int(p)} players" if p is not None else "all"
        text = (f"{who}: {hi['round_points_mean']:.2f} points per round with "
                f"{int(hi['mermaids'])} mermaids against {lo['round_points_mean']:.2f} with "
                f"{int(lo['mermaids'])}")
        if "four_mermaid_rate" in g.columns:
            text += f", four-mermaid wins in {g['four_mermaid_rate'].iloc[0]:.3%} of rounds"
        parts.append(text)
    return "; ".join(parts)


def _hist(df, what: str, unit: str) -> str:
    df = _concat(df)
    parts = []
    groups = df.groupby("players", sort=True) if "players" in df.columns else [(None, df)]
    for p, g in groups:
        g = g.groupby("value")["count"].sum()
        n = g.sum()
        mean = (g.index.to_series() * g).sum() / n
        mode = g.idxmax()
        who = f"{int(p)} players" if p is not None else "all"
        parts.append(f"{who}: mean {what} {mean:.1f} {unit}, most often {int(mode)} "
                     f"({g.max() / n:.1%} of {n:,} rounds)")
    return "; ".join(parts)


def round_length(df) -> str:
    return _hist(df, "round length", "turns")


def declarer_points(df) -> str:
    return _hist(df, "declarer's points", "points")


def tournament(df: pd.DataFrame) -> str:
    df = df.sort_values("win_rate", ascending=False)
    names = entrant_labels(df["spec"])
    best = df.iloc[0]
    text = (f"{names[0]} ranks first with {_pm(best['win_rate'], best['win_rate_lo'], best['win_rate_hi'])} "
            f"of games won")
    if len(df) > 1:
        second = df.iloc[1]
        sep = best["win_rate_lo"] > second["win_rate_hi"]
        text += (f", {'clearly' if sep else 'not clearly'} ahead of {names[1]} "
                 f"({_pm(second['win_rate'], second['win_rate_lo'], second['win_rate_hi'])})")
    if "fair_share" in df.columns:
        text += f"; fair share {df['fair_share'].iloc[0]:.1%}"
    return text


def seat_wins(df: pd.DataFrame) -> str:
    """Which seats win more or less than the fair share, as far as the intervals tell."""
    df = df.sort_values("seat")
    fair = 1 / len(df)
    parts = []
    for _, r in df.iterrows():
        if r["win_rate_lo"] > fair:
            how = "above"
        elif r["win_rate_hi"] < fair:
            how = "below"
        else:
            how = "tied with"
        rate = _pm(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"])
        tied = " at this precision" if how == "tied with" else ""
        parts.append(f"seat {int(r['seat'])} {rate} ({how} the fair share {fair:.1%}{tied})")
    return "; ".join(parts)


FINDINGS = {
    "stop_threshold": best_threshold,
    "void_rate": void_rate,
    "last_chance": last_chance,
    "mermaids": mermaids,
    "round_length": round_length,
    "declarer_points": declarer_points,
    "tournament": tournament,
    "seat_wins": seat_wins,
}
