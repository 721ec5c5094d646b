"""Every chart seasalt draws, registered once.

CHARTS are the charts of `seasalt report`, each with all it needs: the results table it draws
(analyzer.studies.report.detect), its title, the columns the file must have, how it is drawn, its
finding (words the intervals allow) and its table of numbers. analyzer.studies.report reads only
this list; a new statistic's chart is one `rates_by_players` line here.

STUDY_CHARTS are the charts of the studies' own pages: the guide's (analyzer.studies.guide_pages)
and the optimizer's `--chart`, drawn from the study's frames (their words and tables are the
page's). Every chart's files are written by `write_files`, the same for the report and the guide.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pandas as pd

from kernels.statistics import ROUND_STATS

from . import charts as ch
from . import findings as fi
from . import numbers as nu
from . import strategy as st


LC_MIN_CALLS = 200     # LAST CHANCE point totals with fewer calls are merged with their neighbours


@dataclass(frozen=True)
class ChartSpec:
    name: str
    table: str                     # the results table it draws (analyzer.studies.report.detect)
    title: str
    needs: tuple[str, ...]         # columns its files must have (numbers, unless in `text`)
    draw: Callable                 # the frame (a study chart: the study's frames) -> a Figure
    finding: Callable[[pd.DataFrame], str] | None = None    # a study chart: the page's words
    numbers: Callable | None = None
    per_file: bool = False         # one chart per file (else one over all files of the table)
    prepare: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    text: tuple[str, ...] = ()     # columns holding text that must not be empty
    title_param: bool = False      # "threshold" in the title is the swept parameter's name
    optional: bool = False         # drawn only from files that have its columns (a statistic
                                   # newer than some files): its columns are not required


def _merge_sparse(df: pd.DataFrame, min_calls: int) -> pd.DataFrame:
    from analyzer.render.tidy_frames import merge_sparse
    return merge_sparse(df, min_calls)


def _rate_columns(stat_name: str) -> list[tuple[str, str, str]]:
    """(label, value column, interval stem) of each bin of a rate of ROUND_STATS."""
    s = ROUND_STATS.by_name[stat_name]
    labels = [s.label(b) for b in range(s.bins)] if s.bins > 1 else [None]
    return [(lab or s.name, s.column.format(lab), s.interval_stem.format(lab))
            for lab in labels if s.bins == 1 or lab is not None]


def rates_by_players(name: str, stat_name: str, title: str, optional: bool = True) -> ChartSpec:
    """A chart, finding and table of a rate of ROUND_STATS (each of its bins) by player count,
    from `simulate --rounds --table seats` files (one per player count)."""
    cols = _rate_columns(stat_name)
    needs = ("players", "rounds") + tuple(c for _, v, st in cols
                                          for c in (v, f"{st}_lo", f"{st}_hi"))
    return ChartSpec(name, "seats", title, needs,
                     draw=lambda df: ch.rates_by_players(df, cols, title),
                     finding=lambda df: fi.rates_by_players(df, cols),
                     numbers=lambda df: nu.rates_by_players(df, cols), optional=optional)


CHARTS: tuple[ChartSpec, ...] = (
    ChartSpec("stop_threshold", "sweep", "Win rate by threshold",
              ("players", "swept", "games", "win_rate", "win_rate_lo", "win_rate_hi",
               "fair_share"), ch.stop_threshold, fi.best_threshold, nu.sweep_table,
              per_file=True, text=("swept",), title_param=True),
    ChartSpec("void_rate", "sweep", "Void rounds by threshold",
              ("players", "swept", "games", "void_rate", "void_rate_lo", "void_rate_hi"),
              ch.void_rate, fi.void_rate, nu.sweep_table, per_file=True, text=("swept",),
              title_param=True),
    ChartSpec("tournament", "tournament", "Tournament ranking",
              ("players", "games", "entrant", "spec", "win_rate", "win_rate_lo", "win_rate_hi",
               "fair_share"), ch.tournament, fi.tournament, nu.tournament_table, per_file=True,
              text=("spec",)),
    ChartSpec("last_chance", "last-chance", "LAST CHANCE by the caller's points",
              ("players", "rounds", "caller_points", "calls", "success", "success_lo",
               "success_hi"), lambda df: ch.last_chance(df),
              lambda df: fi.last_chance(df, LC_MIN_CALLS), nu.last_chance_table,
              prepare=lambda df: _merge_sparse(df, LC_MIN_CALLS)),
    ChartSpec("mermaids", "mermaids", "Mermaid payoff",
              ("players", "rounds", "mermaids", "round_points_mean", "round_points_lo",
               "round_points_hi", "mermaid_points_mean"), ch.mermaids, fi.mermaids,
              nu.mermaids_table),
    ChartSpec("round_length", "turns", "Round length", ("players", "rounds", "value", "count"),
              ch.round_length, fi.round_length, nu.histogram_table),
    ChartSpec("declarer_points", "declarer-points", "Declarer's points",
              ("players", "rounds", "value", "count"), ch.declarer_points, fi.declarer_points,
              nu.histogram_table),
    rates_by_players("round_ends", "end", "How rounds end", optional=False),
    rates_by_players("deck_low", "deck_low", "Rounds whose deck fell below 10 cards"),
    ChartSpec("seat_wins", "games", "Wins by seat",
              ("players", "games", "seat", "win_rate", "win_rate_lo", "win_rate_hi"),
              ch.seat_wins, fi.seat_wins, nu.seat_table, per_file=True),
)
BY_NAME = {c.name: c for c in CHARTS}


def table_columns(table: str) -> tuple[list[str], list[str], list[str]]:
    """(required columns, the numeric ones among them, numeric columns checked when present) of
    a results table: what its charts need."""
    need: list[str] = []
    optional: list[str] = []
    text: set[str] = set()
    for c in CHARTS:
        if c.table == table:
            into = optional if c.optional else need
            into += [x for x in c.needs if x not in into]
            text |= set(c.text)
    return need, [x for x in need if x not in text], [x for x in optional if x not in need]


def text_columns(table: str) -> list[str]:
    return sorted({x for c in CHARTS if c.table == table for x in c.text})


TABLE_NAMES = tuple(dict.fromkeys(c.table for c in CHARTS))


# ---------------------------------------------------------------------------------------------
# the studies' own charts: the guide's (its frames, prepared by analyzer.studies.guide_pages)
# and the optimizer's trace

def study_chart(name: str, title: str, draw: Callable, table: str = "guide") -> ChartSpec:
    """A chart of a study's page: `title` heads it on the page, `draw` makes it from the
    study's frames."""
    return ChartSpec(name, table, title, (), draw)


def _grid(name: str, against: str) -> ChartSpec:
    return study_chart(f"{name}_heatmap", against, lambda df: st.grid_heatmap(
        df, "last_chance_at", "stop_at", title=f"Win rate of one seat by stop_at and "
        f"last_chance_at,\n{against.lower()} (16 = never)"))


def _by_kind(name: str, head: str, label: str, chart_title: str,
             xlabel: str) -> tuple[ChartSpec, ...]:
    """A paired-values chart by kind, for the base game (`name`) and Extra Salt (`name`_extra)."""
    return tuple(study_chart(n, f"{head}, {deck}", lambda df, deck=deck: st.intervals(
        df.assign(grp=df["players"].astype(str) + " players"), label, "win_rate_diff",
        chart_title.format(deck), xlabel, group="grp", percent=True))
        for n, deck in ((name, "base game"), (f"{name}_extra", "Extra Salt")))


def _by_field(name: str, head: str, chart_title: str, xlabel: str) -> ChartSpec:
    """A paired experiment's differences by player count and choice (`label`), one colour per
    field of opponents (`against`: baseline, expert)."""
    return study_chart(name, head, lambda df: st.intervals(
        df.assign(row=df["players"].astype(str) + "p: " + df["label"]), "row", "win_rate_diff",
        chart_title, xlabel, group="against", percent=True, legend_below=True))


def _seats(name: str, title: str) -> ChartSpec:
    return study_chart(name, f"First seat, {title}", lambda df: st.intervals(
        df.assign(label=df["players"].astype(str) + "p " + df["player"] + ", seat "
                  + df["seat"].astype(str)), "label", "win_rate",
        f"Win rate by seat, identical players ({title}; seat 0 starts the game)", "win rate",
        percent=True, zero=False))


STUDY_CHARTS: tuple[ChartSpec, ...] = (
    _grid("grid", "Against baseline opponents"),
    _grid("grid_tuned", "Against tuned opponents"),
    _grid("grid_extra", "Extra Salt, against baseline opponents"),
    study_chart("last_chance_points", "LAST CHANCE success by the caller's points",
                lambda bins: st.rate_lines(
                    bins.assign(x=bins["points_from"]), "x", "success",
                    "LAST CHANCE success by the caller's card points",
                    "caller's card points at the call (merged bins start here)",
                    "calls won (% of calls)", min_n="sparse")),
    study_chart("last_chance_threshold", "LAST CHANCE by the caller's threshold",
                lambda df: st.rate_lines(
                    df, "last_chance_at", "last_chance_success",
                    "Success of the LAST CHANCE calls of one seat by its threshold",
                    "last_chance_at of the seat (stop_at = 7; baseline opponents)",
                    "its calls won (% of its calls)")),
    study_chart("tuned_matchups", "Tuned players against baseline and against threshold(7, 7)",
                lambda m: st.intervals(
                    m.assign(label=m["players"].astype(str) + "p: " + m["player"] + " vs "
                             + m["against"]), "label", "win_rate",
                    "One seat against the others (95% intervals)", "win rate of the one seat",
                    percent=True, zero=False)),
    study_chart("ibr_trace", "Iterated best response, 2 players", st.optimize_trace),
    study_chart("mermaid_values", "Mermaids", lambda mer: st.intervals(
        mer.assign(label=mer["players"].astype(str) + "p, mermaid #"
                   + (mer["given"] + 1).astype(str)), "label", "win_rate_diff",
        "What a mermaid in hand at a round's start is worth",
        "change in the chance to win the game (A - B)", percent=True)),
    *_by_kind("cards", "Card values", "kind",
              "One card of each kind in hand at a round's start ({})",
              "change in the chance to win the game (A - B)"),
    *(_by_field(n, f"Pairs, {deck}", f"Playing each pair kind instead of holding it ({deck})",
                "change in P(win the game), play - hold")
      for n, deck in (("pairs", "base game"), ("pairs_extra", "Extra Salt"))),
    study_chart("void_rounds", "Void rounds by everyone's threshold", lambda df: st.rate_lines(
        df, "stop_at", "void_rate", "Void rounds when every seat declares at the same threshold",
        "stop_at of every seat (card points)", "void rounds (% of rounds)", log=True)),
    _seats("seats", "base game"),
    _seats("seats_extra", "Extra Salt"),
    *(_by_field(f"choices_{q}", title, title, "change in P(win the game), choice - baseline")
      for q, title in (("draw", "Draw or take, and where the other card goes"),
                       ("steal", "Whom to steal from"),
                       ("colour", "Colour and mermaid chasing"))),
    study_chart("player_counts", "By the number of players", lambda df: st.intervals(
        df.assign(count=df["players"].astype(str) + " players"), "short", "value",
        "The same figures with 2, 3 and 4 players", "value (95% interval)", group="count",
        percent=True, legend_below=True)),
    study_chart("endings_last_chance", "How rounds end, by player", lambda df: st.intervals(
        df.assign(label=df["players"].astype(str) + " players"), "label", "last_chance_rate",
        "Rounds ended by LAST CHANCE when every seat plays the same player",
        "rounds ended by LAST CHANCE (won or lost)", group="field", percent=True,
        legend_below=True)),
    study_chart("luck_share", "Luck and skill, by the number of players",
                lambda df: st.intervals(
                    df.assign(count=df["players"].astype(str) + " players"), "short", "value",
                    "The expert among baseline players",
                    "share or points of P(win game) (95% interval)", group="count",
                    percent=True, legend_below=True)),
    study_chart("optimize_trace", "Optimizer trace", st.optimize_trace, table="optimize"),
)
STUDY = {c.name: c for c in STUDY_CHARTS}


def write_files(fig, folder, name: str, dpi: int) -> tuple[str, str]:
    """A chart's PNG and SVG, `name`.png and `name`.svg in `folder`: the file names."""
    from pathlib import Path
    png, svg = f"{name}.png", f"{name}.svg"
    fig.savefig(Path(folder) / png, dpi=dpi)
    fig.savefig(Path(folder) / svg)
    return png, svg
