"""One-line findings computed from the same tidy frames the charts draw (no engine imports).

    best_threshold(sweep_df)   # "3 players, stop_at: 10 and 7 are tied at this precision (...)"

Every comparison goes through reports.captions: a point is called best only when its 95%
interval is clear of all the others.
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from . import captions as cap
from .charts import concat_frames as _concat, need_frame, entrant_labels, sweep_param


def _pm(mid: float, lo: float, hi: float) -> str:
    """'34.0% ± 0.7%' (the half-width of the interval; the larger side if it is lopsided)."""
    half = max(mid - lo, hi - mid)
    return f"{mid:.1%} ± {half:.1%}"




def _v(v) -> str:
    v = float(v)
    return str(int(v)) if v.is_integer() else f"{v:g}"


def swept_names(df: pd.DataFrame) -> list[str]:
    """The swept parameters of sweep rows (one or two)."""
    if "swept" in df.columns and df["swept"].notna().any():
        names = [n for n in str(df["swept"].dropna().iloc[0]).split(",") if n in df.columns]
        if names:
            return names
    return [sweep_param(df)]


def best_threshold(df: pd.DataFrame) -> str:
    """Per player count, which grid point leads: named only when its interval is clear of every
    other point's, else the points tied with it at this precision (reports.captions.rank)."""
    names = swept_names(df)
    parts = []
    for p, g in df.groupby("players", sort=True):
        ests = [cap.Estimate(", ".join(_v(r[n]) for n in names), r["win_rate"],
                             r["win_rate_lo"], r["win_rate_hi"]) for _, r in g.iterrows()]
        parts.append(cap.rank(ests, "win rate", subject=f"{int(p)} players, {', '.join(names)}")
                     + f" (fair share {g['fair_share'].iloc[0]:.1%})")
    return "; ".join(parts)


RARE = 0.001      # void rounds below this share (upper 95% end) are called rare


def void_rate(df: pd.DataFrame) -> str:
    """Where void rounds happen in a sweep: "rare" when every point's interval stays below
    RARE, else the lowest and highest points with their intervals."""
    param = sweep_param(df)
    parts = []
    for p, g in df.groupby("players", sort=True):
        worst = g.loc[g["void_rate"].idxmax()]
        if g["void_rate_hi"].max() < RARE:
            parts.append(f"{int(p)} players: void rounds are rare at every {param} (at most "
                         f"{worst['void_rate']:.3%}, 95% up to {g['void_rate_hi'].max():.3%} of "
                         f"rounds): the swept seat and its opponents declare before the deck "
                         f"runs out")
            continue
        low = g.loc[g["void_rate"].idxmin()]
        parts.append(f"{int(p)} players: from {low['void_rate']:.2%} [{low['void_rate_lo']:.2%}, "
                     f"{low['void_rate_hi']:.2%}] of rounds at {param} = {_v(low[param])} to "
                     f"{worst['void_rate']:.2%} [{worst['void_rate_lo']:.2%}, "
                     f"{worst['void_rate_hi']:.2%}] at {_v(worst[param])}")
    return "; ".join(parts)


def last_chance(df, min_calls: int = 100) -> str:
    """Success by the caller's points: the range of point totals seen, the lowest success
    among totals with at least `min_calls` calls, and how many calls were in sparse totals."""
    df = _concat(df)
    parts = []
    groups = df.groupby("players", sort=True) if "players" in df.columns else [(None, df)]
    for p, g in groups:
        who = f"{int(p)} players" if p is not None else "all"
        pts = g["points"] if "points" in g.columns else g["caller_points"].astype(int).astype(str)
        full = g[g["calls"] >= min_calls]
        if full.empty:
            parts.append(f"{who}: {int(g['calls'].sum()):,} calls, fewer than {min_calls} at "
                         f"every point total")
            continue
        worst = full.loc[full["success"].idxmin()]
        sparse = int(g.loc[g["calls"] < min_calls, "calls"].sum())
        text = (f"{who}: {int(g['calls'].sum()):,} calls from {pts.iloc[0]} to "
                f"{pts.iloc[-1]} points, lowest success "
                f"{_pm(worst['success'], worst['success_lo'], worst['success_hi'])} at "
                f"{pts.loc[worst.name]} points")
        if sparse:
            text += f" ({sparse:,} calls at totals with fewer than {min_calls} each)"
        parts.append(text)
    return "; ".join(parts)


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


def rates_by_players(df, cols) -> str:
    """Each rate (cols: (label, value column, interval stem)) by player count, with its
    interval; rare events (an upper end below 0.1%) are said to be rare."""
    from .charts import one_row_per_run
    df = one_row_per_run(_concat(df))
    parts = []
    for label, v, st in cols:
        each = [f"{int(r['players'])}p {_pm(r[v], r[f'{st}_lo'], r[f'{st}_hi'])}"
                for _, r in df.iterrows()]
        rare = (df[f"{st}_hi"] < 0.001).all()
        parts.append(f"{label.replace('_', ' ')}: {', '.join(each)}" + (" (rare)" if rare else ""))
    return "; ".join(parts)
