"""Results as readable text: the tables and summaries the CLI prints, every line at most WIDTH
(100) columns.

* Columns of a study table that do not fit beside the key columns (grid values, the player) go
  to a further table that repeats the keys (`fit`), so nothing is cut.
* A column of rates has one precision for every cell, interval ends included, chosen by the
  column's largest value (`pct_digits`): `0.27% [0.14, 0.53]`, never `0.0% - 0.000%`.
* Prose lines (notes, footers) are wrapped (`wrap`).
"""
from __future__ import annotations

import math
import re
import textwrap
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from ..numbers.estimates import wilson
from ..numbers.catalogue import (GAME_LAYOUTS, ROTATION_COLUMNS, ROUND_LAYOUTS, ROUND_TABLES,
                                 Pooled)

if TYPE_CHECKING:        # pandas is only handed in (importing it costs half a second)
    import pandas as pd


def short_spec(spec: str) -> str:
    from ..rules.policies import short_spec as short
    return short(spec)

WIDTH = 100
Column = tuple[str, str, list[str]]      # (header, "<" or ">", cells)


# ---------------------------------------------------------------------------------------------
# numbers

def _finite(x) -> bool:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


def pct_digits(values: Iterable[float | None]) -> int:
    """Decimals for percentages of these fractions: 1, or 2 or 3 when the largest is below 1%
    or 0.1% (rare events keep their digits)."""
    top = max((100 * v for v in values if _finite(v)), default=0.0)
    return 1 if top == 0 or top >= 1 else 2 if top >= 0.1 else 3


def pct(x: float | None, digits: int | None = None, sign: bool = True) -> str:
    """A fraction as a percentage (n/a when undefined)."""
    if not _finite(x):
        return "n/a"
    d = pct_digits([x]) if digits is None else digits
    return f"{100 * x:.{d}f}" + ("%" if sign else "")


def rate_ci(rate: float | None, lo: float | None, hi: float | None,
            digits: int | None = None) -> str:
    """`72.8% [71.2, 74.4]`: one precision for the rate and its interval."""
    d = pct_digits([rate, lo, hi]) if digits is None else digits
    if not _finite(rate):
        return "n/a"
    return f"{pct(rate, d)} [{pct(lo, d, False)}, {pct(hi, d, False)}]"


def points_ci(mean: float, lo: float, hi: float, digits: int = 1, sign: bool = True) -> str:
    """A P(win) (or its change) in points of %: `+1.2 [+0.9, +1.5]`, every number signed unless
    `sign` is false; the interval left out where it has no ends."""
    f = f"+.{digits}f" if sign else f".{digits}f"
    if not (_finite(lo) and _finite(hi)):
        return f"{100 * mean:{f}}"
    return f"{100 * mean:{f}} [{100 * lo:{f}}, {100 * hi:{f}}]"


def num(x: float | None, digits: int = 2) -> str:
    return f"{x:.{digits}f}" if _finite(x) else "n/a"


def mean_ci(mean: float | None, ci: Sequence[float | None], digits: int = 2) -> str:
    return f"{num(mean, digits)} [{num(ci[0], digits)}, {num(ci[1], digits)}]"


def rate_column(rows: Sequence[Mapping], key: str) -> list[str]:
    """Cells `rate [lo, hi]` of `key`, `key_lo`, `key_hi`, all with the column's precision."""
    d = pct_digits(v for r in rows for v in (r[key], r[key + "_lo"], r[key + "_hi"]))
    return [rate_ci(r[key], r[key + "_lo"], r[key + "_hi"], d) for r in rows]


def num_column(rows: Sequence[Mapping], key: str, mean_key: str | None = None,
               digits: int = 2) -> list[str]:
    m = mean_key or f"{key}_mean"
    return [mean_ci(r[m], (r[key + "_lo"], r[key + "_hi"]), digits) for r in rows]


def value(v) -> str:
    """A grid value as typed: 7, not 7.0."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


# ---------------------------------------------------------------------------------------------
# layout

def table(columns: Sequence[Column], indent: str = "  ") -> list[str]:
    """Rows of a text table from (header, '<' or '>', cells) columns."""
    widths = [max(len(h), *(len(c) for c in cells)) if cells else len(h) for h, _, cells in columns]
    out = []
    nrows = len(columns[0][2]) if columns else 0
    for i in range(-1, nrows):
        parts = []
        for (h, align, cells), w in zip(columns, widths):
            text = h if i < 0 else cells[i]
            parts.append(text.ljust(w) if align == "<" else text.rjust(w))
        out.append((indent + "  ".join(parts)).rstrip())
    return out


def _width(col: Column) -> int:
    return max(len(col[0]), *(len(c) for c in col[2])) if col[2] else len(col[0])


def fit(keys: Sequence[Column], values: Sequence[Column], width: int = WIDTH,
        indent: str = "  ") -> list[str]:
    """`keys` + `values` as one table, or as several (each repeating the keys, a blank line
    between) when they would be wider than `width`."""
    base = len(indent) + sum(_width(k) + 2 for k in keys)
    groups: list[list[Column]] = [[]]
    used = base
    for col in values:
        w = _width(col) + 2
        if groups[-1] and used + w - 2 > width:
            groups.append([])
            used = base
        groups[-1].append(col)
        used += w
    out: list[str] = []
    for g in groups:
        if out:
            out.append("")
        out += table([*keys, *g], indent)
    return out


def wrap(text: str, width: int = WIDTH, indent: str = "", hang: str = "    ") -> list[str]:
    """One prose line as lines of at most `width` columns; continuation lines indented by
    `indent + hang`."""
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + hang,
                         break_on_hyphens=False, break_long_words=False) or [""]


def wrap_text(text: str, width: int = WIDTH) -> str:
    """Every line of `text` longer than `width` wrapped, continuation lines indented 4 more than
    the line itself (for prose outputs such as a replay)."""
    out = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
        else:
            indent = line[:len(line) - len(line.lstrip())]
            out += wrap(line.strip(), width, indent)
    return "\n".join(out)


def timing(t: Mapping, unit: str, count: int | None = None) -> list[str]:
    """`time 1.23 s on 2 threads, 812,000 rounds/s`, naming a Dask backend, resumed tasks and a
    first run's compiling (which the speed excludes)."""
    jobs = t.get("jobs")
    backend = t.get("backend", "threads")
    where = (f"{jobs} thread{'s' if jobs != 1 else ''}" if backend == "threads" else
             f"{backend} ({jobs} worker thread{'s' if jobs != 1 else ''})")
    speed = t.get(f"{unit}_per_second")
    text = f"time {t['seconds']:.2f} s on {where}" + (f", {speed:,.0f} {unit}/s" if speed else "")
    if count is not None:
        text += f" ({count:,} {unit})"
    if t.get("tasks_resumed"):
        text += f"; {t['tasks_resumed']:,} of {t['tasks']:,} tasks resumed from a checkpoint"
    if (t.get("compile_seconds") or 0) >= 0.5:
        text += (f"; compiling the engine took another {t['compile_seconds']:.0f} s (first run "
                 f"only, not counted)")
    return wrap(text, hang="     ")


# ---------------------------------------------------------------------------------------------
# score

def format_score(result: Mapping) -> str:
    b = result["breakdown"]
    rows = [
        ("card points", result["card_points"]),
        ("  mermaids", b["mermaids"]),
        ("  duos", b["duos"]),
        ("  collections", b["collections"]),
        ("  multipliers", b["multipliers"]),
        ("colour bonus", result["colour_bonus"]),
    ]
    return "\n".join(f"{name:<16}{v:>4}" for name, v in rows) + \
        "\n(the colour bonus is paid only when a round ends in LAST CHANCE)"


# ---------------------------------------------------------------------------------------------
# simulate

END_LABELS = {
    "stop": "stop",
    "last_chance_won": "last chance won",
    "last_chance_lost": "last chance lost",
    "void": "void",
    "mermaids": "four mermaids",
}


def wrap_spec(prefix: str, spec: str, width: int = WIDTH) -> list[str]:
    """`prefix + spec`, broken after commas of the spec when wider than `width`."""
    lines, cur = [], prefix
    for part in re.split(r"(?<=,)", spec):
        if len(cur) + len(part) > width and cur.strip():
            lines.append(cur)
            cur = " " * (len(prefix) + 4)
        cur += part
    return lines + [cur]


def _footer(r: Mapping, unit: str) -> list[str]:
    pols = r["policies"]
    if len(set(pols)) == 1:
        lines = wrap_spec("policy: ", pols[0])
        lines[-1] += " (every seat)" if len(lines[-1]) <= WIDTH - 13 else ""
    else:
        lines = ["policies:"] + [x for q, p in enumerate(pols)
                                 for x in wrap_spec(f"  seat {q}: ", p)]
    return [*lines, f"seed {r['seed']}, {r['expansion']} deck, seasalt {r['version']}",
            *timing(r["timing"], unit)]


def _rate_rows(label_head: str, count_head: str, items: list[tuple[str, int, dict]],
               extra: tuple[str, list[str]] | None = None) -> list[str]:
    cols = [(label_head, "<", [lab for lab, _, _ in items]),
            (count_head, ">", [f"{n:,}" for _, n, _ in items]),
            ("rate [95%]", ">", [rate_ci(x["rate"], *x["ci95"]) for _, _, x in items])]
    if extra:
        cols.append((extra[0], ">", extra[1]))
    return table(cols)


def format_rounds(r: Mapping) -> str:
    n = r["rounds"]
    lines = [f"{r['players']} players, {n:,} rounds (seat 0 starts each round)", ""]
    lines += _rate_rows("round end", "rounds",
                        [(END_LABELS.get(k, k), c, r["end_rate"][k]) for k, c in r["end"].items()])
    lines += ["", "  round points per seat (mean [95%]; void and four-mermaid rounds count 0)"]
    lines += table([("", "<", [f"seat {q}" for q in range(r["players"])]),
                    ("points [95%]", ">", [mean_ci(m, ci) for m, ci in
                                            zip(r["seat_points_mean"], r["seat_points_ci95"])])],
                   indent="    ")
    decl = mean_ci(r["declarer_card_points_mean"], r["declarer_card_points_ci95"])
    lines += [""] + wrap(f"  declarer's card points when declaring: {decl} over "
                         f"{r['declared_rounds']:,} declared rounds")
    hist = {int(k): v for k, v in r["declarer_card_points_hist"].items()}
    total = sum(hist.values())
    if total:
        shown = [f"{k}: {pct(v / total, 1)}" for k, v in sorted(hist.items()) if v / total >= 0.01]
        lines += wrap("    " + ", ".join(shown) + ("  (values under 1% left out)"
                                                   if len(shown) < len(hist) else ""))
    lines += last_chance_lines(r) + mermaid_lines(r)
    lines.append(f"  turns per round: {mean_ci(r['turns_mean'], r['turns_ci95'])}")
    played = ", ".join(f"{k.replace('_', '+')} {v / n:.3f}" for k, v in r["pairs_played"].items()
                       if v or k not in ("crab_lobster", "swimmer_jellyfish", "trio"))
    lines += wrap(f"  pairs played per round: {played}")
    if "extra_salt" in r:
        es = r["extra_salt"]
        lines += wrap(f"  Extra Salt: {es['locks']:,} locks, {es['lobster_searches']:,} lobster "
                      f"searches, {es['trios']:,} trios")
    lines += catalogue_lines(r, ROUND_LAYOUTS, shown={"turns", "seat_points"})
    lines += [""] + _footer(r, "rounds")
    return "\n".join(line.rstrip() for line in lines)


def catalogue_lines(r: Mapping, layouts, shown: set[str]) -> list[str]:
    """A line for every rate or mean of the catalogue (kernels.statistics) that the layout
    above does not show, in the catalogue's words, with its interval (per seat: one per seat)."""
    out = []
    for layout, _ in layouts:
        for s in layout.stats:
            if s.name in shown or s.table or s.bins > 1 or not s.json:
                continue
            if s.kind == "rate":
                cell = lambda x: rate_ci(x["rate"], *x["ci95"])     # noqa: E731
                values = r[s.json]
            elif s.kind == "mean" and s.squares:
                cell = lambda x: mean_ci(*x)                       # noqa: E731
                values = (list(zip(r[f"{s.json}_mean"], r[f"{s.json}_ci95"])) if s.seats else
                          (r[f"{s.json}_mean"], r[f"{s.json}_ci95"]))
            elif s.kind == "mean":
                cell, values = num, r[f"{s.json}_mean"]
            else:
                continue
            text = (", ".join(f"seat {q} {cell(v)}" for q, v in enumerate(values)) if s.seats
                    else cell(values))
            out += wrap(f"  {s.meaning}: {text}")
    return out


def last_chance_lines(r: Mapping) -> list[str]:
    """LAST CHANCE success overall and where it is lowest (`--table last-chance` has it all)."""
    won, lost = r["end"].get("last_chance_won", 0), r["end"].get("last_chance_lost", 0)
    calls = won + lost
    if not calls:
        return ["", "  LAST CHANCE: never called"]
    lo, hi = wilson(won, calls)
    text = f"  LAST CHANCE: {calls:,} calls, won {rate_ci(won / calls, lo, hi)}"
    by = [(int(k), v) for k, v in r.get("last_chance_by_points", {}).items() if v["calls"] >= 100]
    if by:
        k, v = min(by, key=lambda kv: kv[1]["rate"])
        text += f"; lowest at {k} points: {rate_ci(v['rate'], *v['ci95'])} of {v['calls']:,} calls"
    return [""] + wrap(text + " (--table last-chance: by the caller's points)")


def mermaid_lines(r: Mapping) -> list[str]:
    """Mean round points by mermaids held at the end of a scored round."""
    rows = r.get("mermaid_payoff") or []
    if not rows:
        return []
    out = ["", "  mermaid payoff: round points by mermaids held at the end of a scored round"]
    out += table([
        ("mermaids", ">", [str(m["mermaids"]) for m in rows]),
        ("player-rounds", ">", [f"{m['player_rounds']:,}" for m in rows]),
        ("round points [95%]", ">", [mean_ci(m["round_points_mean"], m["round_points_ci95"])
                                     for m in rows]),
        ("mermaid points", ">", [num(m["mermaid_points_mean"]) for m in rows]),
    ], indent="    ")
    return out


def format_games(r: Mapping) -> str:
    n = r["games"]
    lines = [f"{r['players']} players, {n:,} games to {r['target']} points", ""]
    lines += _rate_rows("", "outright wins",
                        [(f"seat {q}", w, x)
                         for q, (w, x) in enumerate(zip(r["wins"], r["win_rate"]))],
                        ("final total [95%]", [mean_ci(m, ci) for m, ci in
                                               zip(r["final_total_mean"], r["final_total_ci95"])]))
    by_seat = lambda key: ", ".join(f"seat {q} {v:,}" for q, v in enumerate(r[key]))  # noqa: E731
    lines += [""]
    lines += wrap(f"  shared wins: {r['shared_wins']:,} games ({pct(r['shared_wins'] / n)}); by "
                  f"seat: {by_seat('shared_wins_by_seat')} (not in the outright wins)")
    lines += wrap(f"  four-mermaid wins: {r['mermaid_wins']:,} games "
                  f"({pct(r['mermaid_wins'] / n)}); by seat: {by_seat('mermaid_wins_by_seat')} "
                  f"(part of the outright wins)")
    lines.append("  rounds per game: "
                 f"{mean_ci(r['rounds_per_game_mean'], r['rounds_per_game_ci95'])}")
    lines += catalogue_lines(r, GAME_LAYOUTS, shown={"rounds_per_game", "wins", "final_total"})
    lines.append("")
    lines += _footer(r, "games")
    return "\n".join(line.rstrip() for line in lines)


# ---------------------------------------------------------------------------------------------
# --table without --out: a tidy frame as text

_META = {"command", "seed", "players", "expansion", "policies", "rounds", "games", "target",
         "version", "spec"}
TABLE_TITLES = {"seats": "round points and round ends per seat",
                **{t.name: t.meaning for t in ROUND_TABLES}}


def _is_rate(name: str) -> bool:
    return any(w in name for w in ("rate", "success", "share"))


def format_frame(df: pd.DataFrame, title: str) -> str:
    """A tidy frame of analyzer.render.tidy_frames as text: its data columns, each estimate with its
    interval (`x`, `x_lo`, `x_hi` become one cell), rates as percentages; metadata once above."""
    rows = df.to_dict("records")
    first = rows[0] if rows else {}
    cols = [c for c in df.columns if c not in _META]
    cells: list[Column] = []
    for c in cols:
        if c.endswith("_lo") or c.endswith("_hi"):
            continue
        base = next((b for b in (c, c.removesuffix("_mean"), c.removesuffix("_rate"))
                     if f"{b}_lo" in df.columns and f"{b}_hi" in df.columns), None)
        if base is not None and _is_rate(c):
            d = pct_digits(v for r in rows for v in (r[c], r[base + "_lo"], r[base + "_hi"]))
            cells.append((f"{base} [95%]", ">", [rate_ci(r[c], r[base + "_lo"], r[base + "_hi"], d)
                                                 for r in rows]))
        elif base is not None:
            cells.append((f"{base} [95%]", ">", num_column(rows, base, c)))
        elif _is_rate(c):
            d = pct_digits(r[c] for r in rows)
            cells.append((c, ">", [pct(r[c], d) for r in rows]))
        else:
            cells.append((c, ">", [f"{r[c]:,}" if isinstance(r[c], int) else
                                   num(r[c]) if isinstance(r[c], float) else str(r[c])
                                   for r in rows]))
    unit = "rounds" if "rounds" in first else "games"
    head = (f"{title}: {first.get('players')} players, {first.get(unit, 0):,} {unit}, seed "
            f"{first.get('seed')}, {first.get('expansion')} deck, seasalt {first.get('version')}")
    lines = wrap(head) + [""]
    if not rows:
        return "\n".join(lines + ["  (no rows)"])
    same = [c for c in cells[1:] if len(rows) > 1 and len(set(c[2])) == 1]   # said once, below
    lines += fit(cells[:1], [c for c in cells[1:] if c not in same])
    if same:
        lines += ["", "  the same in every row:"]
        lines += table([("", "<", [h for h, _, _ in same]), ("", ">", [c[0] for _, _, c in same])],
                       indent="    ")[1:]
    return "\n".join(line.rstrip() for line in lines)


# ---------------------------------------------------------------------------------------------
# tournament and sweep

LABEL_MAX = 22


def entrant_labels(specs: Sequence[str], shorten=None) -> list[str]:
    """Display names of entrants: the short spec (`shorten`, default Sea Salt & Paper's
    short_spec), `#i` added when two are the same, cut to LABEL_MAX characters (the table's
    notes then give the full specs: cut_labels)."""
    short = [(shorten or short_spec)(s) for s in specs]
    out = []
    for i, s in enumerate(short):
        tag = f" #{i}" if short.count(s) > 1 else ""
        if len(s) + len(tag) > LABEL_MAX:
            s = s[:LABEL_MAX - len(tag) - 3] + "..."
        out.append(s + tag)
    return out


def cut_labels(specs: Sequence[str], names: Sequence[str], shorten=None) -> list[str]:
    """Note lines giving the full spec of every entrant whose label was cut."""
    cut = [(n, (shorten or short_spec)(s)) for s, n in zip(specs, names) if n.endswith("...")]
    return [""] + wrap("players: " + "; ".join(f"{n} = {s}" for n, s in cut)) if cut else []


def format_tournament(df: pd.DataFrame, h: Mapping) -> str:
    rows = df.to_dict("records")
    p = h["players"]
    per = sorted({r["games"] for r in h["rotation_runs"]}, reverse=True)
    lines = wrap(f"tournament: {p} players, {h['games']:,} games to {h['target']} points, seats "
                 f"rotated ({p} seatings of {' or '.join(f'{g:,}' for g in per)} games)") + [""]
    names = entrant_labels(h["entrants"])
    keys = [("rank", ">", [str(r["rank"]) for r in rows]),
            ("player", "<", [names[r["entrant"]] for r in rows])]
    uneven = len({r["seats"] for r in rows}) > 1     # else one fair share for all, said above
    if not uneven:
        lines[-1:] = [f"fair share {pct(rows[0]['fair_share'], 1)} each (the win rate of equally "
                      f"strong players)", ""]
    shown = rotation_text("t")
    lines += fit(keys, [
        *([("seats", ">", [str(r["seats"]) for r in rows]),
           ("fair", ">", [pct(r["fair_share"], 1) for r in rows])] if uneven else []),
        *(pooled_column(rows, c) for c in shown)])
    lines += [""]
    lines += wrap("  " + rotation_notes(shown) + ("; fair: the win rate of equally strong players "
                  "(seats / P)" if uneven else "") + f"; {sum(r['shared_wins'] for r in rows):,} "
                  "shared seat-wins in all.", hang="  ")
    lines.append("  rounds per game: "
                 f"{mean_ci(h['rounds_per_game_mean'], h['rounds_per_game_ci95'])}")
    lines += cut_labels(h["entrants"], names)
    lines += [""] + wrap("players' parameters not shown are at their defaults (seasalt policies "
                         "NAME lists them)")
    lines += wrap(f"seed {h['seed']} (seating r: seed derived from ({h['seed']}, {p}, r)), "
                  f"{h['expansion']} deck, seasalt {h['version']}")
    lines += timing(h["timing"], "games", h["games"])
    return "\n".join(line.rstrip() for line in lines)


def rotation_text(study: str) -> list[Pooled]:
    """The columns of ROTATION_COLUMNS that `study` ("t", "s") carries and shows in text."""
    return [c for c in ROTATION_COLUMNS if c.text and study in c.text_in and study in c.rows]


def pooled_column(rows: Sequence[Mapping], c: Pooled) -> Column:
    """A text column of rotation column `c`: a count, or an estimate with its interval."""
    if c.how == "count":
        cells = [f"{r[c.column]:,}" for r in rows]
    elif c.how == "mean":
        cells = num_column(rows, c.stem, c.column)
    else:
        cells = rate_column(rows, c.column)
    return (c.text, ">", cells)


def rotation_notes(cols: Sequence[Pooled]) -> str:
    """What the shown columns mean, in the catalogue's words."""
    return "; ".join(f"{c.text.removesuffix(' [95%]')}: {c.note}" for c in cols if c.note)


def identical_groups(rows: Sequence[Mapping]) -> list[list[int]]:
    """Groups (2 or more) of rows whose estimates are all equal: their grid values changed no
    decision (the points share their random streams, so different play gives different
    numbers)."""
    def key(r):
        return tuple(r.get(k) if not (isinstance(r.get(k), float) and math.isnan(r[k])) else "nan"
                     for k in (c.column for c in ROTATION_COLUMNS if c.how != "fair") if k in r)
    groups: dict[tuple, list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault(key(r), []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def _same_note(rows: Sequence[Mapping], names: Sequence[str], docs: Mapping[str, str]) -> list[str]:
    groups = identical_groups(rows)
    if not groups:
        return []
    def point(i):
        return ", ".join(f"{n}={value(rows[i][n])}" for n in names)
    text = ("  identical rows: " + "; ".join(" = ".join(f"({point(i)})" for i in g) for g in groups)
            + ". The player makes the same decisions at these values (every point plays the same "
              "deals), so the difference between them has no effect: ")
    text += "; ".join(f"{n}: {docs[n]}" for n in names if n in docs) + "."
    return wrap(text, hang="  ")


def format_sweep(df: pd.DataFrame, h: Mapping, docs: Mapping[str, str] | None = None) -> str:
    """`docs`: the meaning of each swept parameter (policy registry), quoted when rows are
    identical."""
    names = h["swept"]
    lines = wrap(f"sweep of {' x '.join(names)} for {short_spec(h['policy'])} in one seat against "
                 f"{', '.join(short_spec(v) for v in h['vs'])} in the others; {h['games']:,} games "
                 f"per point and player count, seats rotated")
    shown = rotation_text("s")
    for p in h["players"]:
        rows = df[df["players"] == p].to_dict("records")
        if not rows:
            continue
        lines += ["", f"{p} players (target {rows[0]['target']}; fair share {pct(1 / p, 1)})"]
        if len(rows) > 1 and str(p) in h.get("best", {}):
            lines += wrap(f"  best: {h['best'][str(p)]}", hang="    ")
        keys = [(n, ">", [value(r[n]) for r in rows]) for n in names]
        lines += fit(keys, [pooled_column(rows, c) for c in shown])
        note = _same_note(rows, names, docs or {})
        if note:
            lines += [""] + note
    lines += [""]
    lines += wrap(f"  the swept player's figures: {rotation_notes(shown)}.",
                  hang="  ")
    lines += wrap(f"seed {h['seed']} (seating r of P players: seed derived from ({h['seed']}, P, "
                  f"r), the same for every grid point), {h['expansion']} deck, seasalt "
                  f"{h['version']}")
    lines += timing(h["timing"], "games", h["games"] * len(df))
    return "\n".join(line.rstrip() for line in lines)


def join_words(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
