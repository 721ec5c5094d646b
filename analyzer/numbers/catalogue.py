"""Estimates from summed counters, and their names in JSON and tidy frames, for every statistic
of the catalogue (kernels.statistics): one function from integer counters to (value, interval,
n) per kind, and one renderer per shape, so a new statistic needs no code here."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from kernels.statistics import (G_STATS, GAME_ROUND_STATS, GAME_STATS, ROUND_STATS,
                                ROUND_TABLES, Layout, Stat, Table)

from .estimates import mean_ci, paired_rate_diff, wilson

# the layouts of a games counter row (each with where it starts) and of a rounds row
GAME_LAYOUTS = ((GAME_STATS, 0), (GAME_ROUND_STATS, G_STATS))
ROUND_LAYOUTS = ((ROUND_STATS, 0),)
__all__ = ["Estimate", "GAME_LAYOUTS", "ROUND_LAYOUTS", "ROUND_TABLES", "ROTATION_COLUMNS",
           "Pooled", "counts", "estimates", "flat_row", "game_stat", "render", "seat_rows", "table_rows"]


def game_stat(name: str) -> Stat:
    """The statistic `name` of a games counter row (GAME_STATS or GAME_ROUND_STATS)."""
    for layout, _ in GAME_LAYOUTS:
        if name in layout.by_name:
            return layout.by_name[name]
    raise KeyError(name)


@dataclass(frozen=True)
class Pooled:
    """A column of tournament and sweep rows: a games statistic pooled over the seating
    rotations and the seats an entrant holds (analyzer.studies.rotation.aggregate makes every
    one the same way for its kind).

    `how`: count (the sum); rate (Wilson interval; `per` its denominator: "game" the games, for
    an event at most one seat has in a game; "" the seats played; or a count statistic, pooled
    over the same seats, a run-level one counted once per seat); mean (stratified over the
    rotations and seats, each cell's n the games or the count statistic `per`); fair (seats / P,
    the win rate of equally strong players); share (the win split among a game's winners).
    `text` is its header in text tables, `note` its meaning under them; `rows` and `text_in` say
    which studies carry it and show it ("t" tournaments, "s" sweeps)."""
    column: str
    stat: str
    how: str
    per: str = ""
    text: str = ""
    note: str = ""
    rows: str = "ts"
    text_in: str = "ts"

    @property
    def stem(self) -> str:
        """Where its interval goes: `stem`_lo, `stem`_hi."""
        return self.column.removesuffix("_mean")


# the columns of tournament and sweep rows, in their order (a per-seat statistic of the games
# layouts reaches both studies, their text and their JSON/CSV with a line here)
ROTATION_COLUMNS = (
    Pooled("wins", "wins", "count", text="wins", note="games won outright", text_in="t"),
    Pooled("win_rate", "wins", "rate", per="game", text="win rate [95%]",
           note="the share of games won outright"),
    Pooled("fair_share", "", "fair"),
    Pooled("shared_wins", "shared", "count"),
    Pooled("shared_rate", "shared", "rate", text="shared [95%]", note="games it shared",
           text_in="s"),
    Pooled("win_share", "wins", "share", text="win share [95%]",
           note="wins with each shared win split between its sharers"),
    Pooled("final_total_mean", "final_total", "mean", text="final total [95%]",
           note="mean final total per seat"),
    Pooled("void_rate", "void", "rate", per="rounds_played", text="void rounds [95%]",
           note="share of all rounds", rows="s"),
    Pooled("last_chance_per_round", "last_chance_calls", "rate", per="rounds_played",
           text="LAST CHANCE/round [95%]", note="its calls per round played", rows="s"),
    Pooled("last_chance_calls", "last_chance_calls", "count", rows="s"),
    Pooled("last_chance_success", "last_chance_won", "rate", per="last_chance_calls",
           text="LAST CHANCE won [95%]", note="share of its calls won", rows="s"),
    Pooled("mermaid_points_per_round_mean", "mermaid_points", "mean", per="scored",
           text="mermaid pts/round [95%]", note="its mermaid points per scored round", rows="s"),
    Pooled("rounds_per_game_mean", "rounds_per_game", "mean", text="rounds/game [95%]",
           rows="s"),
)


@dataclass(frozen=True)
class Estimate:
    """A statistic's estimates, arrays of shape (seats or 1, bins): `count` the raw counts (a
    mean's: its sums), `n` what they are of, `value` the rate or mean (NaN where n is 0), `lo`
    and `hi` its 95% interval (NaN where it has none)."""
    stat: Stat
    count: np.ndarray
    n: np.ndarray
    value: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


def _slots(c: np.ndarray, stat: Stat, at: int, rows: int) -> np.ndarray:
    shape = (stat.seat_slots, stat.bins)
    return np.asarray(c[at:at + stat.width], dtype=np.int64).reshape(shape)[:rows]


def counts(c: np.ndarray, layout: Layout, name: str, start: int = 0,
           part: str = "") -> np.ndarray:
    """The integer counters of one statistic (part "sq": its squares), shaped (seats or 1,
    bins), from a counter row whose `layout` begins at `start`."""
    s = layout.by_name[name]
    return _slots(c, s, start + layout.at(name, part), s.seat_slots)


def estimates(c: np.ndarray, layout: Layout, run_count: int, players: int,
              start: int = 0) -> dict[str, Estimate]:
    """Every statistic of `layout` from a summed counter row `c` (its slots from `start`)."""
    out: dict[str, Estimate] = {}
    for s in layout.stats:
        rows = players if s.seats else 1
        at = start + layout.offset[s.name]
        k = _slots(c, s, at, rows)
        if s.of:
            n = out[s.of].count
            n = np.broadcast_to(n, k.shape) if n.shape[0] == 1 else n
        else:
            n = np.full(k.shape, run_count, dtype=np.int64)
        value, lo, hi = (np.full(k.shape, np.nan) for _ in range(3))
        if s.kind == "count":
            value = k.astype(float)
        elif s.kind == "rate":
            for i in np.ndindex(k.shape):
                if n[i] > 0:
                    value[i] = k[i] / n[i]
                lo[i], hi[i] = wilson(int(k[i]), int(n[i]))
        elif s.kind == "mean":
            sq = _slots(c, s, at + s.width, rows) if s.squares else None
            for i in np.ndindex(k.shape):
                if sq is not None:
                    value[i], (lo[i], hi[i]) = mean_ci(float(k[i]), float(sq[i]), int(n[i]))
                elif n[i] > 0:
                    value[i] = float(k[i]) / n[i]
        elif s.kind == "rate_diff":
            b = _slots(c, s, at + s.width, rows)
            for i in np.ndindex(k.shape):
                value[i], lo[i], hi[i] = paired_rate_diff(int(k[i]), int(b[i]), int(n[i]))
        else:                                           # histogram: one row of bins
            x = np.arange(s.bins, dtype=np.float64)
            total = int(k.sum())
            m, (a, b) = mean_ci(float((x * k[0]).sum()), float((x ** 2 * k[0]).sum()), total)
            n = np.full((1, 1), total, dtype=np.int64)
            value, lo, hi = np.full((1, 1), m), np.full((1, 1), a), np.full((1, 1), b)
        out[s.name] = Estimate(s, k, n, value, lo, hi)
    return out


def flat_row(est: Mapping[str, Estimate]) -> dict:
    """One flat row of run-level estimates (one bin, no seats), in the catalogue's order: a
    count under its `column_count`, an estimate under its `column` with its interval."""
    row: dict = {}
    for e in est.values():
        s = e.stat
        if s.column_count:
            row[s.column_count] = int(e.count[0, 0])
        if s.column:
            row[s.column] = float(e.value[0, 0])
            row[f"{s.interval_stem}_lo"], row[f"{s.interval_stem}_hi"] = \
                float(e.lo[0, 0]), float(e.hi[0, 0])
    return row


# ---------------------------------------------------------------------------------------------
# JSON

def _num(x: float) -> float | None:
    return None if x != x else float(x)


def _ci(e: Estimate, i) -> list:
    return [_num(e.lo[i]), _num(e.hi[i])]


def _rate(e: Estimate, i) -> dict:
    return {"rate": _num(e.value[i]), "ci95": _ci(e, i)}


def _shaped(e: Estimate, cell):
    """A run-level value, a list per seat, or a dict by bin label."""
    s = e.stat
    if s.seats:
        return [cell((q, 0)) for q in range(e.count.shape[0])]
    if s.bins > 1:
        return {s.label(b): cell((0, b)) for b in range(s.bins) if s.label(b) is not None}
    return cell((0, 0))


def _keys(e: Estimate, cell) -> dict:
    """The JSON keys of one statistic, each value shaped by `cell` (a function of a value
    maker: see _shaped)."""
    s, out = e.stat, {}
    if s.json_count:
        out[s.json_count] = cell(lambda i: int(e.count[i]))
    if s.kind == "rate" and s.json == "":                 # inside a table's record: flattened
        out.update(cell(lambda i: _rate(e, i)))
    elif s.kind == "rate" and s.json:
        out[s.json] = cell(lambda i: _rate(e, i))
    elif s.kind == "mean" and s.json:
        out[f"{s.json}_mean"] = cell(lambda i: _num(e.value[i]))
        if s.squares:
            out[f"{s.json}_ci95"] = cell(lambda i: _ci(e, i))
    return out


def render(est: Mapping[str, Estimate], tables: tuple[Table, ...] = ()) -> dict:
    """The JSON-ready summary of estimates: every statistic under its own keys (per seat as
    lists, by bin as dicts), and the statistics of each table as one record per observed bin
    (observed: counted by the table's first statistic)."""
    out: dict = {}
    grouped = {s.name for t in tables if t.json for s in t.stats}
    for e in est.values():
        s = e.stat
        if s.name in grouped:
            continue
        if s.kind == "histogram":
            if s.summary:
                out[s.json_count] = int(e.n[0, 0])
                out[f"{s.json}_mean"] = _num(e.value[0, 0])
                out[f"{s.json}_ci95"] = _ci(e, (0, 0))
            out[f"{s.json}_hist"] = {str(b): int(v) for b, v in enumerate(e.count[0]) if v}
        else:
            out.update(_keys(e, lambda make, e=e: _shaped(e, make)))
    for t in tables:
        if not t.json:
            continue
        members = [est[s.name] for s in t.stats]
        recs = {}
        for b in range(members[0].stat.bins):
            if members[0].count[0, b]:
                recs[b] = {t.bin_column: b} if t.json_list else {}
                for e in members:
                    recs[b].update(_keys(e, lambda make, b=b: make((0, b))))
        out[t.json] = list(recs.values()) if t.json_list else {str(b): r for b, r in recs.items()}
    return out


# ---------------------------------------------------------------------------------------------
# tidy rows, read back from a JSON summary (so a saved summary gives the same frames)

def _columns(s: Stat, get, n: int, label: str | None, row: dict) -> None:
    """The columns of statistic `s` into `row`; get(key) reads its value in the summary, n is
    the run's count (the denominator of a rate that JSON does not carry)."""
    name = (lambda x: x.format(label)) if label is not None else (lambda x: x)
    if s.column_count:
        row[name(s.column_count)] = get(s.json_count)
    if s.column is None:
        return
    stem = name(s.interval_stem)
    if s.kind == "rate":
        if s.json is None:                 # counted, not in JSON: a rate of the run's count
            k = get(s.json_count)
            value, (lo, hi) = k / n, wilson(k, n)
        else:
            cell = get(s.json)
            value, (lo, hi) = cell["rate"], cell["ci95"]
    else:
        value = get(f"{s.json}_mean")
        if not s.squares:                  # a mean without interval (no squares counted)
            row[name(s.column)] = value
            return
        lo, hi = get(f"{s.json}_ci95")
    row[name(s.column)] = value
    row[f"{stem}_lo"], row[f"{stem}_hi"] = lo, hi


def seat_rows(r: Mapping, layouts, run_count: int) -> list[dict]:
    """One row per seat of summary `r`: every statistic of `layouts` with a column outside
    tables (a seat's own value; run-level ones repeated on every row)."""
    rows = []
    for q in range(r["players"]):
        row = {"seat": q, "spec": r["policies"][q]}
        for layout, _ in layouts:
            for s in layout.stats:
                if s.table or not (s.column or s.column_count):
                    continue
                for b in range(s.bins):
                    label = s.label(b) if s.bins > 1 else None
                    if s.bins > 1 and label is None:
                        continue
                    get = (lambda key, s=s, label=label: r[key][q] if s.seats else
                           r[key][label] if label is not None else r[key])
                    _columns(s, get, run_count, label, row)
        rows.append(row)
    return rows


def table_rows(r: Mapping, t: Table) -> list[dict]:
    """The rows of table `t` from summary `r` (a histogram: value, count, share)."""
    if not t.json:
        (s,) = t.stats
        hist = r[f"{s.json}_hist"]
        total = sum(hist.values())
        return [{t.bin_column: int(k), "count": v, "share": v / total} for k, v in hist.items()]
    recs = r[t.json]
    items = [(rec[t.bin_column], rec) for rec in recs] if t.json_list else \
        [(int(k), rec) for k, rec in recs.items()]
    also = {col: r[t.layout.by_name[name].json][label]["rate"] for col, name, label in t.also}
    rows = []
    for b, rec in items:
        row = {t.bin_column: int(b)}
        for s in t.stats:
            _columns(s, lambda key, rec=rec: rec if key == "" else rec[key], 0, None, row)
        row.update(also)
        rows.append(row)
    return rows
