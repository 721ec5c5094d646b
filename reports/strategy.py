"""Charts of the strategy studies (optimizer traces, grids, paired values, the guide's charts):
tidy DataFrames in, a matplotlib Figure out, like reports.charts (no engine imports).

Every estimate is drawn with its 95% interval (bands or error bars).
"""
from __future__ import annotations

import os
import tempfile

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.numbers.estimates import mean_of_rates

from .charts import (ChartError, OKABE_ITO, draw_band, new_figure, need_frame, percent_axis,
                     percent_tick, series_style)


def save(fig: Figure, path: str | os.PathLike, dpi: int = 150) -> None:
    """Write a figure (format from the extension) completely or not at all."""
    path = os.fspath(path)
    folder = os.path.dirname(path) or "."
    ext = os.path.splitext(path)[1]
    fd, tmp = tempfile.mkstemp(prefix=".seasalt-", suffix=ext, dir=folder)
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=dpi)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def optimize_trace(trace: pd.DataFrame, results: pd.DataFrame | None = None) -> Figure:
    """An optimizer trace: every candidate's score by generation (grey), the distribution's
    centre with its 95% band, the elites' mean; per search, the pick's held-out score against
    the field (and the start's) as a point with its interval after the last generation."""
    df = need_frame(trace, ["iteration", "stage", "generation", "score", "score_lo", "score_hi",
                        "centre", "elite"])
    gens = df[df["stage"] == "generation"]
    if gens.empty:
        raise ChartError("no generations in the trace")
    fig, (ax,) = new_figure(size=(7.0, 4.6))
    ngen = int(gens["generation"].max()) + 1
    span = ngen + 2                                   # x room per search: its generations, held out
    searches = gens["iteration"].nunique()
    every = max(1, -(-ngen * searches // 10))         # about ten generation labels in all
    ticks: list[tuple[float, str]] = []
    for k, g in gens.groupby("iteration", sort=True):
        x0 = int(k) * span
        ticks += [(x0 + i + 1, str(i + 1)) for i in range(ngen)
                  if i == 0 or ((i + 1) % every == 0 and i >= every / 2)
                  or (i == ngen - 1 and ngen % every >= max(1, every / 2))]
        ax.scatter(x0 + g["generation"] + 1, g["score"], s=8, color="0.6", alpha=0.6,
                   label="candidate" if k == 0 else None, zorder=1)
        c = g[g["centre"]].sort_values("generation")
        xs = x0 + c["generation"] + 1
        ax.plot(xs, c["score"], color=OKABE_ITO[0], linewidth=2, marker="o", markersize=3,
                label="centre of the distribution" if k == 0 else None, zorder=3)
        draw_band(ax, xs, c["score_lo"], c["score_hi"], OKABE_ITO[0])
        em = g[g["elite"]].groupby("generation")["score"].mean()
        ax.plot(x0 + em.index + 1, em.values, color=OKABE_ITO[1], linewidth=1.5,
                label="elite mean" if k == 0 else None, zorder=2)
        if results is not None and not results.empty:
            held = results[results["iteration"] == k]
            for role, colour, marker, label in (("pick", OKABE_ITO[2], "D", "pick, held out"),
                                                ("start", "black", "s", "start, held out")):
                r = held[held["role"] == role]
                if r.empty:
                    continue
                # the optimizer's own score: the mean win rate over the field members
                mean, lo, hi = mean_of_rates([int(x) for x in r["wins"]],
                                             [int(x) for x in r["games"]])
                ax.errorbar([x0 + ngen + 1], [mean],
                            yerr=[[mean - lo], [hi - mean]], fmt=marker, color=colour,
                            capsize=4, label=label if k == 0 else None, zorder=4)
            if not held.empty:
                ticks.append((x0 + ngen + 1, "held\nout"))
    # whole generations only, and the held-out result at a place of its own, not a generation
    ax.set_xticks([t for t, _ in ticks], [s for _, s in ticks])
    ax.set_xlim(0.3, (int(gens["iteration"].max()) + 1) * span - 0.3)
    ax.set_xlabel("generation" + (" (searches side by side)" if gens["iteration"].nunique() > 1
                                  else ""))
    ax.set_ylabel("score: mean win rate over the field")
    percent_axis(ax)
    ax.set_title("Optimizer trace (95% intervals)")
    ax.grid(True, alpha=0.3)
    fig.legend(fontsize="small", loc="outside lower center", ncol=3)   # below, over no marker
    return fig


HEATMAP_WIDTH = 4.6        # inches (150 dpi: 690 px)
HEATMAP_FONT = 9           # points: a cell's number


def grid_heatmap(df: pd.DataFrame, x: str, y: str, value: str = "win_rate",
                 title: str = "") -> Figure:
    """A two-parameter sweep as a heat map per player count (one panel each), every cell
    labelled with its rate; the cells tied with the best (overlapping intervals) are outlined."""
    df = need_frame(df, [x, y, "players", value, f"{value}_lo", f"{value}_hi"])
    counts = sorted(df["players"].unique())
    # one panel under another, each its own width: on a phone (the image scaled to about 340 px)
    # a cell's number is still about 9 px high (tests/reports/test_reports.py measures it)
    fig, axes = new_figure(1, size=(HEATMAP_WIDTH, 3.9 * len(counts)), nrows=len(counts))
    for ax, p in zip(axes, counts):
        g = df[df["players"] == p]
        xs, ys = sorted(g[x].unique()), sorted(g[y].unique())
        grid = np.full((len(ys), len(xs)), np.nan)
        for _, r in g.iterrows():
            grid[ys.index(r[y]), xs.index(r[x])] = r[value]
        im = ax.imshow(grid, origin="lower", cmap="viridis", aspect="auto")
        top = g.loc[g[value].idxmax()]
        for _, r in g.iterrows():
            i, j = ys.index(r[y]), xs.index(r[x])
            ax.text(j, i, f"{100 * r[value]:.1f}", ha="center", va="center", fontsize=HEATMAP_FONT,
                    color="white" if r[value] < np.nanmean(grid) else "black")
            if r[f"{value}_hi"] >= top[f"{value}_lo"]:
                ax.add_patch(_outline(j, i))
        ax.set_xticks(range(len(xs)), [_tick(v) for v in xs], fontsize=HEATMAP_FONT)
        ax.set_yticks(range(len(ys)), [_tick(v) for v in ys], fontsize=HEATMAP_FONT)
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        ax.set_title(f"{int(p)} players", fontsize="medium")
        fig.colorbar(im, ax=ax, shrink=0.8, fraction=0.05, pad=0.02,
                     format=lambda v, _: f"{100 * v:.0f}%")
    fig.suptitle(title or f"Win rate by {x} and {y}\n(outlined: tied with the best, 95%)",
                 fontsize="medium")
    return fig


def _outline(j: int, i: int):
    from matplotlib.patches import Rectangle
    return Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="red", linewidth=1.2)


def _tick(v) -> str:
    v = float(v)
    return str(int(v)) if v.is_integer() else f"{v:g}"


def intervals(df: pd.DataFrame, label: str, value: str, title: str, xlabel: str,
              group: str | None = None, percent: bool = False, zero: bool = True,
              legend_below: bool = False) -> Figure:
    """Estimates with 95% intervals as horizontal error bars, one row per `label` (grouped by
    `group`, one colour each), with a reference line at 0; the groups' legend inside the
    axes, or below them (`legend_below`: where bars reach every corner)."""
    df = need_frame(df, [label, value, f"{value}_lo", f"{value}_hi"])
    groups = [None] if group is None else list(dict.fromkeys(df[group]))
    labels = list(dict.fromkeys(df[label]))
    height = max(2.5, 0.32 * len(labels) * (1 + 0.25 * (len(groups) - 1)) + 1.2)
    fig, (ax,) = new_figure(size=(7.0, height))
    step = 0.8 / len(groups)
    for gi, gv in enumerate(groups):
        sub = df if gv is None else df[df[group] == gv]
        ys = np.array([labels.index(v) for v in sub[label]]) + (gi - (len(groups) - 1) / 2) * step
        st = series_style(gi)
        ax.errorbar(sub[value], ys, xerr=[sub[value] - sub[f"{value}_lo"],
                                          sub[f"{value}_hi"] - sub[value]],
                    fmt=st["marker"], color=st["color"], capsize=3,
                    label=None if gv is None else str(gv))
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    if zero:
        ax.axvline(0, color="black", linewidth=1)
    if percent:
        from matplotlib.ticker import PercentFormatter
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(True, axis="x", alpha=0.3)
    if group is not None and legend_below:
        fig.legend(*ax.get_legend_handles_labels(), fontsize="small", loc="outside lower center",
                   ncol=len(groups), frameon=False)
    elif group is not None:
        ax.legend(fontsize="small", loc="best")
    return fig


def rate_lines(df: pd.DataFrame, x: str, value: str, title: str, xlabel: str, ylabel: str,
               group: str = "players", log: bool = False, reference: float | None = None,
               min_n: str | None = None) -> Figure:
    """A rate by `x`, one line with its 95% band per `group`; points whose `min_n` column is
    marked small are drawn hollow."""
    df = need_frame(df, [x, value, f"{value}_lo", f"{value}_hi", group])
    fig, (ax,) = new_figure()
    for i, (gv, g) in enumerate(df.groupby(group, sort=True)):
        g = g.sort_values(x)
        st = series_style(i)
        name = f"{int(gv)} players" if group == "players" else str(gv)
        ax.plot(g[x], g[value], linewidth=2, label=name, **st)
        draw_band(ax, g[x], g[f"{value}_lo"], g[f"{value}_hi"], st["color"])
        if min_n is not None and min_n in g.columns:
            small = g[g[min_n]]
            ax.scatter(small[x], small[value], s=60, facecolor="white",
                       edgecolor=st["color"], zorder=4)
    if reference is not None:
        ax.axhline(reference, color="black", linestyle="--", linewidth=1)
    if log:
        ax.set_yscale("symlog", linthresh=1e-4)
    else:
        percent_axis(ax)
    if log:                  # 0.01%, 0.1%, 1%: ticks that differ (PercentFormatter said 0% thrice)
        from matplotlib.ticker import FuncFormatter
        ax.yaxis.set_major_formatter(FuncFormatter(percent_tick))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    return fig
