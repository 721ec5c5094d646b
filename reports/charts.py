"""Charts: one function per chart, a tidy DataFrame in (the tables of analyzer.render.tidy_frames, sweep and
tournament rows), a matplotlib Figure out.

Figures are built with `matplotlib.figure.Figure` (Agg canvas), never through pyplot, so nothing is
left in pyplot's global state; a caller saves them with `fig.savefig(path)`. No engine imports:
only pandas, numpy, matplotlib and, for the few intervals a chart makes itself (a histogram's
bands), analyzer.numbers.estimates.

    fig = stop_threshold(sweep_df)          # win rate by the swept parameter, one line per players
    fig.savefig("stop.png", dpi=150)

Every chart that shows an estimate shows its 95% interval (a band or error bars). Colours are the
Okabe-Ito palette (distinguishable with the common colour-vision deficiencies); each series also
gets its own marker, so the charts read in greyscale print too.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analyzer.numbers.estimates import wilson

# Okabe & Ito (2008), without black (kept for reference lines) and yellow (too light on white).
OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
SIZE = (7.0, 4.5)          # inches: prints at column width, 150 dpi gives ~1050 px
BAND_ALPHA = 0.2

#: Columns that describe a run, not a point estimate (skipped when guessing the swept parameter).
SWEEP_NON_PARAMS = {"players", "spec", "games", "wins", "fair_share", "field", "target", "command",
                    "seed", "policy", "swept", "expansion", "version"}


class ChartError(ValueError):
    """The frame cannot make this chart (a column is missing or the frame is empty)."""


# ---------------------------------------------------------------------------------------------
# helpers

def new_figure(ncols: int = 1, size=SIZE, nrows: int = 1) -> tuple[Figure, list]:
    """A figure of nrows x ncols panels (axes in reading order)."""
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, [ax for row in axes for ax in row]


def percent_tick(v: float, _pos=None) -> str:
    """A rate as a tick label with as many decimals as it needs to differ from its neighbours on
    a log scale (0.01%, 0.1%, 1%), never a row of "0%"."""
    import math
    if v == 0:
        return "0%"
    x = 100 * abs(v)
    digits = max(0, -math.floor(math.log10(x) + 1e-9))
    return f"{'-' if v < 0 else ''}{x:.{digits}f}%"


def series_style(i: int) -> dict:
    return {"color": OKABE_ITO[i % len(OKABE_ITO)], "marker": MARKERS[i % len(MARKERS)]}


def need_frame(df: pd.DataFrame | Sequence[pd.DataFrame], need: Iterable[str]) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        frames = list(df)
        if not frames:
            raise ChartError("no data")
        df = pd.concat(frames, ignore_index=True)
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise ChartError(f"missing column {missing[0]}")
    if df.empty:
        raise ChartError("no rows")
    return df


def concat_frames(df) -> pd.DataFrame:
    """One frame from a frame or a sequence of frames."""
    return df if isinstance(df, pd.DataFrame) else pd.concat(list(df), ignore_index=True)


def _by_players(df: pd.DataFrame):
    if "players" not in df.columns:
        yield 0, None, df
        return
    for i, (p, g) in enumerate(df.groupby("players", sort=True)):
        yield i, int(p), g


def _players_label(p) -> str:
    return "all" if p is None else f"{p} players"


def percent_axis(ax) -> None:
    from matplotlib.ticker import PercentFormatter
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))


def draw_band(ax, x, lo, hi, color) -> None:
    ax.fill_between(x, lo, hi, color=color, alpha=BAND_ALPHA, linewidth=0)


def sweep_param(df: pd.DataFrame) -> str:
    """The swept parameter of sweep rows: the `swept` column if it names one, else the first
    column that is not an estimate or metadata."""
    if "swept" in df.columns and df["swept"].notna().any():
        names = str(df["swept"].dropna().iloc[0]).split(",")
        if names and names[0] in df.columns:
            return names[0]
    for c in df.columns:
        if c not in SWEEP_NON_PARAMS and not c.endswith(("_lo", "_hi")):
            return c
    raise ChartError("missing column swept")


def _rate_by_param(df, y: str, title: str, ylabel: str, fair: bool) -> Figure:
    param = sweep_param(df)
    need = [param, "players", y, f"{y}_lo", f"{y}_hi"] + (["fair_share"] if fair else [])
    df = need_frame(df, need)
    fig, (ax,) = new_figure()
    for i, p, g in _by_players(df):
        g = g.sort_values(param)
        st = series_style(i)
        ax.plot(g[param], g[y], label=_players_label(p), linewidth=2, **st)
        draw_band(ax, g[param], g[f"{y}_lo"], g[f"{y}_hi"], st["color"])
        if fair:
            ax.axhline(float(g["fair_share"].iloc[0]), color=st["color"], linestyle="--",
                       linewidth=1, label=f"fair share, {p} players")
    ax.set_title(title)
    ax.set_xlabel(f"{param} (card points)" if param in ("stop_at", "last_chance_at") else param)
    ax.set_ylabel(ylabel)
    percent_axis(ax)
    values = sorted(df[param].unique())
    if len(values) <= 20 and all(float(v).is_integer() for v in values):
        ax.set_xticks(values)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", ncol=2 if fair else 1, loc="best")
    return fig


# ---------------------------------------------------------------------------------------------
# charts

def stop_threshold(df: pd.DataFrame) -> Figure:
    """Sweep rows: win rate of the swept player by the swept parameter (x), one line per player
    count with its 95% band, and a dashed fair-share line (1/players) per player count."""
    param = sweep_param(need_frame(df, ["players"]))
    return _rate_by_param(df, "win_rate", f"Win rate by {param} (95% bands)",
                          "win rate of the swept player (% of games)", fair=True)


def void_rate(df: pd.DataFrame) -> Figure:
    """Sweep rows: share of rounds that end void (nobody called, deck and piles ran out) by the
    swept parameter, one panel per player count (so no line hides another) with its 95% band,
    the y axis scaled to the panel's own upper ends."""
    param = sweep_param(need_frame(df, ["players"]))
    df = need_frame(df, [param, "players", "void_rate", "void_rate_lo", "void_rate_hi"])
    groups = list(_by_players(df))
    fig, axes = new_figure(len(groups), size=(3.6 * len(groups), 3.8))
    from matplotlib.ticker import PercentFormatter
    for ax, (i, p, g) in zip(axes, groups):
        g = g.sort_values(param)
        st = series_style(i)
        ax.plot(g[param], g["void_rate"], linewidth=2, **st)
        draw_band(ax, g[param], g["void_rate_lo"], g["void_rate_hi"], st["color"])
        top = float(g["void_rate_hi"].max())
        ax.set_ylim(0, max(top * 1.15, 1e-5))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=3 if top < 0.01 else 1))
        ax.set_title(_players_label(p), fontsize="medium")
        ax.set_xlabel(param)
        ax.grid(True, alpha=0.3)
        if float(g["void_rate"].max()) == 0:
            ax.text(0.5, 0.5, "no void round", transform=ax.transAxes, ha="center",
                    color="0.4")
    axes[0].set_ylabel("void rounds (% of rounds)")
    fig.suptitle(f"Void rounds by {param} (95% bands; each panel its own scale)")
    return fig


def last_chance(df: pd.DataFrame | Sequence[pd.DataFrame], min_calls: int = 1) -> Figure:
    """`last-chance` tables (one or several player counts): left, LAST CHANCE success by the
    caller's card points with 95% bands; right, the card points the caller expects to forfeit,
    (1 - success) x points (what is lost when the call fails; the colour bonus, kept either way,
    is not in the table), with the band carried over from the success interval."""
    merged = "points_mean" in getattr(df, "columns", [])
    key = "points_mean" if merged else "caller_points"
    df = need_frame(df, [key, "calls", "success", "success_lo", "success_hi"])
    df = df[df["calls"] >= min_calls]
    if df.empty:
        raise ChartError("no LAST CHANCE calls")
    fig, (ax, ax2) = new_figure(2, size=(10.0, 4.5))
    for i, p, g in _by_players(df):
        g = g.groupby(key, as_index=False).first().sort_values(key)
        st = series_style(i)
        x = g[key]
        ax.plot(x, g["success"], label=_players_label(p), linewidth=2, **st)
        draw_band(ax, x, g["success_lo"], g["success_hi"], st["color"])
        if "sparse" in g.columns and g["sparse"].any():
            sp = g[g["sparse"].astype(bool)]
            ax.scatter(sp[key], sp["success"], s=70, facecolor="white", edgecolor=st["color"],
                       zorder=4)
            for _, r in sp.iterrows():
                ax.annotate(f"n={int(r['calls'])}", (r[key], r["success"]), fontsize=7,
                            xytext=(3, -10), textcoords="offset points")
        risk = (1 - g["success"]) * x
        ax2.plot(x, risk, label=_players_label(p), linewidth=2, **st)
        draw_band(ax2, x, (1 - g["success_hi"]) * x, (1 - g["success_lo"]) * x, st["color"])
    ax.set_title("LAST CHANCE success by the caller's points")
    ax.set_xlabel("caller's card points at the call (points" + (
        "; merged bins at their calls' mean)" if merged else ")"))
    ax.set_ylabel("calls won (% of calls)")
    percent_axis(ax)
    ax2.set_title("Expected card points forfeited by calling")
    ax2.set_xlabel("caller's card points at the call (points)")
    ax2.set_ylabel("(1 - success) x points (points per call)")
    for a in (ax, ax2):
        a.grid(True, alpha=0.3)
        a.legend(fontsize="small")
    fig.suptitle("LAST CHANCE by the caller's card points (95% bands)")
    return fig


def mermaids(df: pd.DataFrame | Sequence[pd.DataFrame]) -> Figure:
    """`mermaids` tables (one or several player counts): mean round points (with 95% error bars)
    and mean mermaid points by the number of mermaids held at the end of the round; the rate of
    rounds won outright by four mermaids goes in the title."""
    df = need_frame(df, ["mermaids", "round_points_mean", "round_points_lo", "round_points_hi",
                     "mermaid_points_mean"])
    fig, (ax,) = new_figure()
    groups = list(_by_players(df))
    width = 0.8 / max(1, len(groups))
    rates = []
    for i, p, g in groups:
        g = g.sort_values("mermaids")
        st = series_style(i)
        x = g["mermaids"] + (i - (len(groups) - 1) / 2) * width * 0.5
        y = g["round_points_mean"]
        ax.errorbar(x, y, yerr=[y - g["round_points_lo"], g["round_points_hi"] - y],
                    capsize=3, linewidth=2, label=f"round points, {_players_label(p)}", **st)
        ax.plot(x, g["mermaid_points_mean"], linestyle=":", color=st["color"],
                marker=st["marker"], fillstyle="none",
                label=f"of which mermaid points, {_players_label(p)}")
        if "four_mermaid_rate" in g.columns:
            rates.append((p, float(g["four_mermaid_rate"].iloc[0])))
    ax.set_xticks(sorted(df["mermaids"].unique()))
    ax.set_xlabel("mermaids held at the end of the round (cards)")
    ax.set_ylabel("mean points per player-round (points)")
    title = "Mermaid payoff (95% error bars)"
    if rates:
        four = ", ".join(f"{r:.3%}" + (f" ({p}p)" if p is not None else "") for p, r in rates)
        title += f"\nrounds won by four mermaids: {four}"
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def _histogram(df, title: str, xlabel: str) -> Figure:
    df = need_frame(df, ["value", "count"])
    fig, (ax,) = new_figure()
    for i, p, g in _by_players(df):
        g = g.groupby("value", as_index=False)["count"].sum().sort_values("value")
        n = g["count"].sum()
        share = g["count"] / n
        lo, hi = np.array([wilson(int(k), int(n)) for k in g["count"]]).T
        st = series_style(i)
        ax.plot(g["value"], share, label=f"{_players_label(p)} (n={n:,})", linewidth=1.5,
                markersize=4, **st)
        draw_band(ax, g["value"], lo, hi, st["color"])
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of rounds (%)")
    percent_axis(ax)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def round_length(df: pd.DataFrame | Sequence[pd.DataFrame]) -> Figure:
    """`turns` tables: distribution of the number of turns per round, one line per player count,
    with 95% bands on each share."""
    return _histogram(df, "Round length (95% bands)", "turns in the round (turns)")


def declarer_points(df: pd.DataFrame | Sequence[pd.DataFrame]) -> Figure:
    """`declarer-points` tables: distribution of the declarer's card points when ending the
    round (STOP or LAST CHANCE), one line per player count, with 95% bands."""
    return _histogram(df, "Declarer's card points at the call (95% bands)",
                      "declarer's card points (points)")


def one_row_per_run(df: pd.DataFrame) -> pd.DataFrame:
    """The first row of each run of a per-seat table (its run-level columns repeat per seat)."""
    keys = [c for c in ("players", "seed", "rounds", "policies") if c in df.columns]
    return df.drop_duplicates(keys).sort_values("players")


def rates_by_players(df: pd.DataFrame | Sequence[pd.DataFrame], cols, title: str) -> Figure:
    """Per-seat round tables: rates (cols: (label, value column, interval stem)) by player
    count, grouped bars with 95% interval whiskers."""
    df = one_row_per_run(need_frame(df, ["players"] + [v for _, v, _ in cols]))
    fig, (ax,) = new_figure()
    width = 0.8 / max(1, len(df))
    x = np.arange(len(cols))
    for i, (_, r) in enumerate(df.iterrows()):
        y = np.array([float(r[v]) for _, v, _ in cols])
        lo = np.array([float(r[f"{st}_lo"]) for _, _, st in cols])
        hi = np.array([float(r[f"{st}_hi"]) for _, _, st in cols])
        st = series_style(i)
        ax.bar(x + i * width, y, width, color=st["color"], label=_players_label(int(r["players"])))
        ax.errorbar(x + i * width, y, yerr=[y - lo, hi - y], fmt="none", ecolor="black",
                    capsize=3, linewidth=1)
    ax.set_xticks(x + width * (len(df) - 1) / 2, [lab.replace("_", " ") for lab, _, _ in cols])
    ax.set_title(f"{title} (95% intervals)")
    ax.set_ylabel("share of rounds (%)")
    percent_axis(ax)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def tournament(df: pd.DataFrame) -> Figure:
    """Tournament rows: outright win rate per entrant with 95% interval bars, best at the top,
    and the fair share (1/players) as a dashed line."""
    df = need_frame(df, ["entrant", "spec", "win_rate", "win_rate_lo", "win_rate_hi"])
    df = df.sort_values("win_rate", ascending=True).reset_index(drop=True)
    fig, (ax,) = new_figure(size=(7.0, max(2.5, 1.0 + 0.6 * len(df))))
    y = np.arange(len(df))
    labels = entrant_labels(df["spec"])
    colours = [OKABE_ITO[i % len(OKABE_ITO)] for i in range(len(df))][::-1]
    ax.barh(y, df["win_rate"], color=colours, alpha=0.35)
    ax.errorbar(df["win_rate"], y, xerr=[df["win_rate"] - df["win_rate_lo"],
                                         df["win_rate_hi"] - df["win_rate"]],
                fmt="o", color="black", capsize=4, label="win rate, 95% interval")
    if "fair_share" in df.columns:
        ax.axvline(float(df["fair_share"].iloc[0]), color="black", linestyle="--", linewidth=1,
                   label="fair share")
    ax.set_yticks(y, labels)
    from matplotlib.ticker import PercentFormatter
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("outright win rate (% of games)")
    players = f", {int(df['players'].iloc[0])} players" if "players" in df.columns else ""
    ax.set_title(f"Tournament ranking{players} (95% intervals)")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize="small", loc="lower right")
    return fig


def seat_wins(df: pd.DataFrame) -> Figure:
    """`simulate --games` rows (one per seat): outright win rate by seat with 95% interval bars,
    and the fair share (1/players) as a dashed line: what sitting first is worth."""
    df = need_frame(df, ["seat", "win_rate", "win_rate_lo", "win_rate_hi"]).sort_values("seat")
    fig, (ax,) = new_figure()
    x = df["seat"].astype(int).to_numpy()
    ax.bar(x, df["win_rate"], color=[OKABE_ITO[i % len(OKABE_ITO)] for i in range(len(df))],
           alpha=0.35)
    ax.errorbar(x, df["win_rate"], yerr=[df["win_rate"] - df["win_rate_lo"],
                                         df["win_rate_hi"] - df["win_rate"]],
                fmt="o", color="black", capsize=4, label="win rate, 95% interval")
    ax.axhline(1 / len(df), color="black", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(x, [f"seat {q}" for q in x])
    percent_axis(ax)
    ax.set_ylabel("outright win rate (% of games)")
    players = f", {int(df['players'].iloc[0])} players" if "players" in df.columns else ""
    ax.set_title(f"Wins by seat{players} (95% intervals)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small", loc="lower right")
    return fig


def entrant_labels(specs) -> list[str]:
    """Axis labels for policy specs: the policy names when they differ, else shortened specs."""
    specs = [str(s) for s in specs]
    names = [s.split("(")[0] for s in specs]
    if len(set(names)) == len(names):
        return names
    return [short_label(s) for s in specs]


def short_label(spec: str, width: int = 28) -> str:
    """A policy spec short enough for an axis label: the name, then the first parameters."""
    spec = str(spec)
    return spec if len(spec) <= width else spec[: width - 3] + "..."



__all__ = ["ChartError", "OKABE_ITO", "sweep_param", "short_label"]
