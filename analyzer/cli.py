"""The `seasalt` command line.

    seasalt score --hand "mermaid,shell:black,shell:grey" --table "boat:black,boat:yellow" [--json]
    seasalt simulate --players 2 --rounds 1000000 --policy baseline --seed 7 [--json]
    seasalt simulate --players 3 --games 10000 --policy baseline --policy "baseline(stop_at=9)" ...
    seasalt tournament --players 3 --policy baseline --policy "baseline(stop_at=9)" --games 30000
    seasalt sweep --sweep stop_at=7..14 --vs baseline --players 2,3,4 --games 20000 [--out t.csv]
    seasalt replay --seed 7 --players 3 [--json]

A thin shell over analyzer.score, .simulate, .tournament, .sweep and .replay; analyzer.tidy
writes --out files.

Every mistake a user can make (bad cards, options, values, policy specs) ends with exactly one line
`error: ...` on stderr and exit status 2: no traceback, no click usage block, and nothing on stdout
(results are computed in full before anything is printed).
"""
from __future__ import annotations

import json
import math
import sys

import click

from . import __version__
from .errors import RunFailed, RunInterrupted, SeasaltError
from .policies import short_spec

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _error(message: str) -> int:
    click.echo(f"error: {_one_line(message)}", err=True)
    return EXIT_USAGE


class SeasaltGroup(click.Group):
    """A click group whose errors are one `error:` line and exit status 2 (DESIGN.md contracts)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:  # library use: behave like click, exceptions propagate
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except SeasaltError as e:
            code = _error(str(e))
        except RunFailed as e:
            _error(str(e))
            code = EXIT_FAILED
        except click.exceptions.NoArgsIsHelpError as e:  # bare `seasalt`: show the help
            click.echo(e.ctx.get_help())
            code = 0
        except click.ClickException as e:
            message = e.format_message()
            ctx = getattr(e, "ctx", None)
            if isinstance(e, click.UsageError) and ctx is not None:
                message = f"{_one_line(message)} (see '{ctx.command_path} --help')"
            code = _error(message)
        except click.exceptions.Abort as e:
            cause = e.__cause__
            if isinstance(cause, RunInterrupted):     # a run's Ctrl-C: say where its work is
                click.echo(_one_line(cause.message), err=True)
            else:
                click.echo("error: interrupted", err=True)
            code = EXIT_INTERRUPTED
        sys.exit(code)


@click.group(cls=SeasaltGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="seasalt", message="%(prog)s %(version)s")
def main():
    """Monte Carlo strategy analyzer for Sea Salt & Paper (base game + Extra Salt).

    Cards are written kind[:colour], comma-separated, e.g. "crab:dark_blue,mermaid,shell:black"
    (the colour may be left out for single-colour kinds; dark-blue and dark_blue both work).
    """


# ---------------------------------------------------------------------------------------------
# score

_EXPANSION_HELP = "Card set: base (58 cards) or extra-salt (66 cards)."


@main.command()
@click.option("--hand", required=True, metavar="CARDS", help="Cards in hand (revealed or not).")
@click.option("--table", default="", metavar="CARDS",
              help="Cards played on the table: pairs, and with Extra Salt trios (pair + starfish).")
@click.option("--expansion", default="base", show_default=True, metavar="base|extra-salt",
              help=_EXPANSION_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def score(hand: str, table: str, expansion: str, as_json: bool) -> None:
    """Card points and colour bonus of one player's hand and table (RULES.md §7).

    \b
    Example:
      seasalt score --hand "mermaid,shell:black,shell:grey,lighthouse,boat:yellow" \\
                    --table "boat:dark_blue,boat:dark_blue"
    """
    from .score import score_hand

    result = score_hand(hand, table, expansion)
    click.echo(json.dumps(result, indent=2) if as_json else format_score(result))


def format_score(result: dict) -> str:
    b = result["breakdown"]
    rows = [
        ("card points", result["card_points"]),
        ("  mermaids", b["mermaids"]),
        ("  duos", b["duos"]),
        ("  collections", b["collections"]),
        ("  multipliers", b["multipliers"]),
        ("colour bonus", result["colour_bonus"]),
    ]
    return "\n".join(f"{name:<16}{value:>4}" for name, value in rows) + \
        "\n(the colour bonus is paid only when a round ends in LAST CHANCE)"


# ---------------------------------------------------------------------------------------------
# simulate

_JOBS_HELP = "Threads to use (worker processes with --scheduler local). Default: all cores."


def _quiet_dask(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """With --scheduler, Dask's own log stays silent for the whole process: failures end in
    one `error:` line (analyzer.backends)."""
    if value is not None:
        try:
            import distributed  # noqa: F401  (its loggers exist once it is imported)
        except ImportError:
            return value        # the run says how to install it
        from .backends import quiet_dask_logs
        quiet_dask_logs()
    return value


def backend_options(f):
    """--scheduler, --checkpoint and --resume (analyzer.backends.Runner)."""
    f = click.option("--resume", is_flag=True,
                     help="Continue an interrupted run: give the same command, options and --seed; "
                          "only the tasks its checkpoint lacks are computed.")(f)
    f = click.option("--checkpoint", metavar="FILE",
                     help="Keep finished tasks in FILE as the run goes (it survives crashes); with "
                          "--resume, continue from it. Default: a file in the seasalt cache, "
                          "deleted when the run completes.")(f)
    f = click.option("--scheduler", metavar="local|tcp://HOST:PORT", callback=_quiet_dask,
                     help="Run on Dask: 'local' starts worker processes here (--jobs of them), an "
                          "address uses a running dask scheduler. Same results as without. "
                          "Needs pip install 'seasalt[dask]'. Default: threads in this process.")(f)
    return f


_OUT_HELP = ("Also write the results as a tidy table (one row per seat, entrant or grid point, each "
             "with the seed, configuration and version) to FILE: .csv, .json or .parquet "
             "(parquet needs pyarrow). Written completely or not at all.")


def _emit_study(df, header: dict, out: str | None, as_json: bool, formatter) -> None:
    """A sweep's or tournament's output: the --out file, then JSON (header + rows) or the table."""
    if out is not None:
        _write_out(df, out)
    if as_json:
        from .tidy import records
        click.echo(json.dumps(_json_safe({**header, "rows": records(df)}), indent=2, allow_nan=False))
    else:
        click.echo(formatter(df, header))


def _write_out(df, out: str) -> None:
    from .tidy import write_frame
    path = write_frame(df, out)
    click.echo(f"wrote {len(df)} row{'s' if len(df) != 1 else ''} to {path}", err=True)

@main.command()
@click.option("--players", "-p", type=int, required=True, metavar="P", help="Players: 2, 3 or 4.")
@click.option("--rounds", type=int, metavar="N", help="Simulate N independent rounds.")
@click.option("--games", type=int, metavar="N", help="Simulate N full games to the target.")
@click.option("--policy", "policies", multiple=True, metavar="SPEC",
              help="Player policy, e.g. baseline or \"baseline(stop_at=9,last_chance_at=12)\". "
                   "Once for every seat, or once per seat in seat order. Default: baseline.")
@click.option("--seed", type=int, metavar="S",
              help="Random seed (0 to 2**64-1); the same seed gives the same result for any --jobs "
                   "or --scheduler. "
                   "Default: a fresh seed, printed with the results.")
@click.option("--jobs", "-j", type=int, metavar="J", help=_JOBS_HELP)
@click.option("--expansion", default="base", show_default=True, metavar="base|extra-salt",
              help=_EXPANSION_HELP)
@click.option("--target", type=int, metavar="T",
              help="Game target (with --games only). Default: 40/35/30 for 2/3/4 players.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--out", metavar="FILE", help=_OUT_HELP)
@click.option("--table", default="seats", show_default=True,
              type=click.Choice(["seats", "last-chance", "mermaids", "turns", "declarer-points"]),
              help="Which tidy table --out writes for --rounds: per seat, LAST CHANCE success by "
                   "the caller's points, payoff by mermaids held, or a histogram.")
@backend_options
def simulate(players: int, rounds: int | None, games: int | None, policies: tuple[str, ...],
             seed: int | None, jobs: int | None, expansion: str, target: int | None,
             as_json: bool, out: str | None, table: str, scheduler: str | None,
             checkpoint: str | None, resume: bool) -> None:
    """Simulate many rounds or games and report end rates, points and wins with 95% intervals.

    \b
    Examples:
      seasalt simulate --players 2 --rounds 1000000 --policy baseline --seed 1
      seasalt simulate --players 3 --games 20000 --policy baseline --json
    """
    if (rounds is None) == (games is None):
        raise SeasaltError("give exactly one of --rounds N or --games N")
    if target is not None and games is None:
        raise SeasaltError("--target applies only to --games")
    if table != "seats" and games is not None:
        raise SeasaltError("--table applies only to --rounds (games runs write one row per seat)")
    if out is not None:
        from .tidy import check_out
        check_out(out)

    from .progress import ProgressLine
    from .simulate import simulate_games, simulate_rounds

    common = dict(players=players, policies=list(policies) or ["baseline"], seed=seed, jobs=jobs,
                  expansion=expansion, scheduler=scheduler, checkpoint=checkpoint, resume=resume)
    if rounds is not None:
        with ProgressLine("simulating rounds") as progress:
            result = simulate_rounds(rounds=rounds, progress=progress, **common)
        text = format_rounds(result)
    else:
        with ProgressLine("simulating games") as progress:
            result = simulate_games(games=games, target=target, progress=progress, **common)
        text = format_games(result)
    if out is not None:
        from .tidy import ROUNDS_TABLES, games_frame
        _write_out(ROUNDS_TABLES[table](result) if rounds is not None else games_frame(result), out)
    click.echo(json.dumps(_json_safe(result), indent=2, allow_nan=False) if as_json else text)


def _json_safe(obj):
    """NaN and infinities (an empty histogram's mean) become null, so the output is strict JSON."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_json_safe(v) for v in obj]
    return obj


def _pct(x: float) -> str:
    """A rate as a percentage, with more digits for rare events (0.015%, not 0.0%); n/a for an
    undefined rate (no cases)."""
    if x is None or x != x:
        return "n/a"
    v = 100 * x
    digits = 1 if v == 0 or v >= 1 else 2 if v >= 0.1 else 3
    return f"{v:.{digits}f}%"


def _num(x: float | None, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    return f"{x:.{digits}f}"


def _mean_ci(mean: float, ci, digits: int = 2) -> str:
    return f"{_num(mean, digits)} [{_num(ci[0], digits)}, {_num(ci[1], digits)}]"


def _rate_row(label: str, count: int, rate: dict) -> str:
    lo, hi = rate["ci95"]
    interval = f"{_pct(lo)} - {_pct(hi)}"
    return f"  {label:<16}{count:>14,}  {_pct(rate['rate']):>7}   {interval:<18}"


_END_LABELS = {
    "stop": "stop",
    "last_chance_won": "last chance won",
    "last_chance_lost": "last chance lost",
    "void": "void",
    "mermaids": "four mermaids",
}


def _footer(r: dict, unit: str) -> list[str]:
    pols = r["policies"]
    if len(set(pols)) == 1:
        policy_line = f"policy: {pols[0]} (every seat)"
    else:
        policy_line = "policies: " + ", ".join(f"seat {q} {p}" for q, p in enumerate(pols))
    return [
        policy_line,
        f"seed {r['seed']}, {r['expansion']} deck, seasalt {r['version']}",
        _timing_line(r["timing"], unit),
    ]


def format_rounds(r: dict) -> str:
    n = r["rounds"]
    lines = [f"{r['players']} players, {n:,} rounds (seat 0 starts each round)", "",
             f"  {'round end':<16}{'rounds':>14}  {'rate':>7}   95% interval"]
    for key, count in r["end"].items():
        lines.append(_rate_row(_END_LABELS.get(key, key), count, r["end_rate"][key]))
    lines += ["", "  round points per seat (mean, 95% interval)"]
    for q, (m, ci) in enumerate(zip(r["seat_points_mean"], r["seat_points_ci95"])):
        lines.append(f"  seat {q:<11}{_mean_ci(m, ci):>30}")
    lines += ["", f"  declarer's card points when declaring: "
                  f"{_mean_ci(r['declarer_card_points_mean'], r['declarer_card_points_ci95'])}"
                  f" over {r['declared_rounds']:,} declared rounds"]
    hist = {int(k): v for k, v in r["declarer_card_points_hist"].items()}
    total = sum(hist.values())
    if total:
        shown = [f"{k}: {_pct(v / total)}" for k, v in sorted(hist.items()) if v / total >= 0.01]
        lines.append("    " + ", ".join(shown) + ("  (values under 1% left out)"
                                                   if len(shown) < len(hist) else ""))
    lines.append(f"  turns per round: {_mean_ci(r['turns_mean'], r['turns_ci95'])}")
    played = ", ".join(f"{k.replace('_', '+')} {v / n:.3f}" for k, v in r["pairs_played"].items()
                       if v or k not in ("crab_lobster", "swimmer_jellyfish", "trio"))
    lines.append(f"  pairs played per round: {played}")
    if "extra_salt" in r:
        es = r["extra_salt"]
        lines.append(f"  Extra Salt: {es['locks']:,} locks, {es['lobster_searches']:,} lobster "
                     f"searches, {es['trios']:,} trios")
    lines += [""] + _footer(r, "rounds")
    return "\n".join(line.rstrip() for line in lines)


def format_games(r: dict) -> str:
    n = r["games"]
    lines = [f"{r['players']} players, {n:,} games to {r['target']} points", "",
             f"  {'seat':<16}{'outright wins':>14}  {'rate':>7}   {'95% interval':<18}"
             "final total (mean, 95% interval)"]
    for q, (w, rate) in enumerate(zip(r["wins"], r["win_rate"])):
        row = _rate_row(f"seat {q}", w, rate)
        lines.append(row + _mean_ci(r['final_total_mean'][q], r['final_total_ci95'][q]))
    by_seat = lambda key: ", ".join(f"seat {q} {v:,}" for q, v in enumerate(r[key]))  # noqa: E731
    lines += [
        "",
        f"  shared wins: {r['shared_wins']:,} games ({_pct(r['shared_wins'] / n)}); by seat: "
        f"{by_seat('shared_wins_by_seat')} (not in the outright wins)",
        f"  four-mermaid wins: {r['mermaid_wins']:,} games ({_pct(r['mermaid_wins'] / n)}); by seat: "
        f"{by_seat('mermaid_wins_by_seat')} (part of the outright wins)",
        f"  rounds per game: {_mean_ci(r['rounds_per_game_mean'], r['rounds_per_game_ci95'])}",
        "",
    ]
    lines += _footer(r, "games")
    return "\n".join(line.rstrip() for line in lines)



# ---------------------------------------------------------------------------------------------
# tables shared by tournament and sweep

def _table(columns: list[tuple[str, str, list[str]]], indent: str = "  ") -> list[str]:
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


def _rate_ci(rows, key: str) -> list[str]:
    return [f"{_pct(r[key])} [{_pct(r[key + '_lo'])}, {_pct(r[key + '_hi'])}]" for r in rows]


def _num_ci(rows, key: str, mean_key: str | None = None, digits: int = 2) -> list[str]:
    m = mean_key or f"{key}_mean"
    return [f"{_num(r[m], digits)} [{_num(r[key + '_lo'], digits)}, {_num(r[key + '_hi'], digits)}]"
            for r in rows]


def _timing_line(t: dict, unit: str, count: int | None = None) -> str:
    """`time 1.23 s on 2 threads, 812,000 rounds/s`, naming a Dask backend and resumed tasks."""
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
    return text


_SEED_HELP = ("Random seed (0 to 2**64-1); the same seed gives the same table for any --jobs or "
              "--scheduler. "
              "Default: a fresh seed, printed with the results.")
_ROTATION_NOTE = ("Seats are rotated: the N games are split over the P seatings (N // P each, the "
                  "first N % P one more), seating r on a seed derived from (S, P, r).")


# ---------------------------------------------------------------------------------------------
# tournament

@main.command()
@click.option("--players", "-p", type=int, metavar="P",
              help="Players per game: 2, 3 or 4. Default: the number of --policy.")
@click.option("--policy", "policies", multiple=True, required=True, metavar="SPEC",
              help="An entrant (give 2 to P). With fewer entrants than seats, seats are filled by "
                   "cycling through them.")
@click.option("--games", type=int, default=10_000, show_default=True, metavar="N",
              help="Games in all, over all seatings.")
@click.option("--seed", type=int, metavar="S", help=_SEED_HELP)
@click.option("--jobs", "-j", type=int, metavar="J", help=_JOBS_HELP)
@click.option("--expansion", default="base", show_default=True, metavar="base|extra-salt",
              help=_EXPANSION_HELP)
@click.option("--target", type=int, metavar="T", help="Game target. Default: 40/35/30 for 2/3/4 players.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--out", metavar="FILE", help=_OUT_HELP)
@backend_options
def tournament(players: int | None, policies: tuple[str, ...], games: int, seed: int | None,
               jobs: int | None, expansion: str, target: int | None, as_json: bool,
               out: str | None, scheduler: str | None, checkpoint: str | None,
               resume: bool) -> None:
    """Players against each other in rotated seats, ranked by win rate with 95% intervals.

    Every entrant sits in every seat equally often, so nobody gains from sitting first.
    Seats are rotated: the N games are split over the P seatings (N // P each, the first
    N % P one more), seating r on a seed derived from (S, P, r).

    \b
    Example:
      seasalt tournament --players 3 --policy baseline --policy "baseline(stop_at=9)" \\
                         --policy "baseline(stop_at=12)" --games 30000 --seed 1
    """
    from .progress import ProgressLine
    from .tournament import run_tournament

    if out is not None:
        from .tidy import check_out
        check_out(out)
    with ProgressLine("tournament") as progress:
        df, header = run_tournament(list(policies), players, games, seed, jobs, expansion, target,
                                    progress, scheduler, checkpoint, resume)
    _emit_study(df, header, out, as_json, format_tournament)


def format_tournament(df, h: dict) -> str:
    rows = df.to_dict("records")
    p = h["players"]
    per = sorted({r["games"] for r in h["rotation_runs"]}, reverse=True)
    lines = [f"tournament: {p} players, {h['games']:,} games to {h['target']} points, seats rotated "
             f"({p} seatings of {' or '.join(f'{g:,}' for g in per)} games)", ""]
    label = [f"#{r['entrant']} {short_spec(r['spec'])}" for r in rows]
    lines += _table([
        ("rank", ">", [str(r["rank"]) for r in rows]),
        ("player", "<", label),
        ("seats", ">", [str(r["seats"]) for r in rows]),
        ("wins", ">", [f"{r['wins']:,}" for r in rows]),
        ("win rate [95%]", ">", _rate_ci(rows, "win_rate")),
        ("fair", ">", [_pct(r["fair_share"]) for r in rows]),
        ("shared", ">", [f"{r['shared_wins']:,}" for r in rows]),
        ("win share [95%]", ">", _rate_ci(rows, "win_share")),
        ("final total [95%]", ">", _num_ci(rows, "final_total")),
    ])
    lines += [
        "",
        "  win rate: games won outright; fair: the win rate of equally strong players (seats / P);",
        "  win share: wins with each shared win split between its sharers; final total: mean per seat.",
        f"  rounds per game: {_mean_ci(h['rounds_per_game_mean'], h['rounds_per_game_ci95'])}",
        "",
        "entrants: " + ", ".join(f"#{i} {short_spec(s)}" for i, s in enumerate(h["entrants"]))
        + " (parameters not shown are at their defaults)",
        f"seed {h['seed']} (seating r: seed derived from ({h['seed']}, {p}, r)), {h['expansion']} deck, "
        f"seasalt {h['version']}",
        _timing_line(h["timing"], "games", h["games"]),
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# sweep

@main.command()
@click.option("--sweep", "sweeps", multiple=True, required=True, metavar="PARAM=LO..HI[:STEP]",
              help="A parameter of the swept player and its values: PARAM=LO..HI (step 1), "
                   "PARAM=LO..HI:STEP or PARAM=V1,V2,... Give one or two (a grid).")
@click.option("--policy", default="baseline", show_default=True, metavar="SPEC",
              help="The swept player's base spec; the swept parameters replace its values.")
@click.option("--vs", "vs", multiple=True, metavar="SPEC",
              help="The field (every other seat). Several are cycled over the field seats. "
                   "Default: baseline.")
@click.option("--players", "-p", default="2,3,4", show_default=True, metavar="P[,P...]",
              help="Player counts, comma-separated.")
@click.option("--games", type=int, default=20_000, show_default=True, metavar="N",
              help="Games per grid point and player count, over all seatings.")
@click.option("--seed", type=int, metavar="S", help=_SEED_HELP)
@click.option("--jobs", "-j", type=int, metavar="J", help=_JOBS_HELP)
@click.option("--expansion", default="base", show_default=True, metavar="base|extra-salt",
              help=_EXPANSION_HELP)
@click.option("--target", type=int, metavar="T",
              help="Game target for every player count. Default: 40/35/30 for 2/3/4 players.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--out", metavar="FILE", help=_OUT_HELP)
@backend_options
def sweep(sweeps: tuple[str, ...], policy: str, vs: tuple[str, ...], players: str, games: int,
          seed: int | None, jobs: int | None, expansion: str, target: int | None, as_json: bool,
          out: str | None, scheduler: str | None, checkpoint: str | None, resume: bool) -> None:
    """Win rate and final score of one seat's player over a grid of its parameters, against a
    fixed field, for each player count, with 95% intervals.

    The swept player sits in each seat in turn: the N games of a grid point are split over the
    P seatings (N // P each, the first N % P one more), seating r on a seed derived from
    (S, P, r). Every grid point uses the same seeds (common random numbers).

    \b
    Example (the STOP threshold study):
      seasalt sweep --sweep stop_at=7..14 --vs baseline --players 2,3,4 --games 20000 --seed 1
    """
    from .progress import ProgressLine
    from .sweep import run_sweep

    if out is not None:
        from .tidy import check_out
        check_out(out)
    with ProgressLine("sweep") as progress:
        df, header = run_sweep(list(sweeps), policy, list(vs) or ["baseline"], players, games,
                               seed, jobs, expansion, target, progress, scheduler, checkpoint,
                               resume)
    _emit_study(df, header, out, as_json, format_sweep)


def format_sweep(df, h: dict) -> str:
    names = h["swept"]
    lines = [f"sweep of {' x '.join(names)} for {short_spec(h['policy'])} in one seat against "
             f"{', '.join(short_spec(v) for v in h['vs'])} in the others; {h['games']:,} games per point and player "
             f"count, seats rotated"]
    for p in h["players"]:
        rows = df[df["players"] == p].to_dict("records")
        if not rows:
            continue
        lines += ["", f"{p} players (target {rows[0]['target']}; fair share {_pct(1 / p)})"]
        cols = [(n, ">", [str(r[n]) for r in rows]) for n in names]
        cols += [
            ("win rate [95%]", ">", _rate_ci(rows, "win_rate")),
            ("shared [95%]", ">", _rate_ci(rows, "shared_rate")),
            ("win share [95%]", ">", _rate_ci(rows, "win_share")),
            ("final total [95%]", ">", _num_ci(rows, "final_total")),
            ("rounds/game [95%]", ">", _num_ci(rows, "rounds_per_game")),
        ]
        lines += _table(cols)
        cols = [(n, ">", [str(r[n]) for r in rows]) for n in names]
        cols += [
            ("void rounds [95%]", ">", _rate_ci(rows, "void_rate")),
            ("LAST CHANCE/round [95%]", ">", _rate_ci(rows, "last_chance_per_round")),
            ("LAST CHANCE won [95%]", ">", _rate_ci(rows, "last_chance_success")),
            ("mermaid pts/round [95%]", ">", _num_ci(rows, "mermaid_points_per_round")),
        ]
        lines += [""] + _table(cols)
    lines += [
        "",
        "  win rate: games the swept player won outright; shared: games it shared; win share: wins "
        "with shared wins split.",
        "  void rounds: share of all rounds; LAST CHANCE/round: the swept player's calls per round "
        "played, won: share of its calls won; mermaid pts: its mermaid points per scored round.",
        f"seed {h['seed']} (seating r of P players: seed derived from ({h['seed']}, P, r), the same "
        f"for every grid point), {h['expansion']} deck, seasalt {h['version']}",
        _timing_line(h["timing"], "games", h["games"] * len(df)),
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# replay

@main.command()
@click.option("--seed", type=int, required=True, metavar="S",
              help="The game's seed: it is game 0 of `simulate --games N --seed S` with the same "
                   "players, policies, expansion and target.")
@click.option("--players", "-p", type=int, required=True, metavar="P", help="Players: 2, 3 or 4.")
@click.option("--policy", "policies", multiple=True, metavar="SPEC",
              help="Player policy: once for every seat, or once per seat. Default: baseline.")
@click.option("--expansion", default="base", show_default=True, metavar="base|extra-salt",
              help=_EXPANSION_HELP)
@click.option("--target", type=int, metavar="T", help="Game target. Default: 40/35/30 for 2/3/4 players.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the game as one JSON object: rounds, events (with their text), scores.")
@click.option("--out", metavar="FILE",
              help="Also write the events as a tidy table (one row per event) to FILE: .csv, "
                   ".json or .parquet.")
def replay(seed: int, players: int, policies: tuple[str, ...], expansion: str, target: int | None,
           as_json: bool, out: str | None) -> None:
    """One game, action by action: who drew what and from where, which pairs were played and
    what they did, who declared, how the bet resolved, round scores and the winner.

    The game is played on the random stream kernels.rng.seed_stream(S, 0). Cards only one
    player saw are shown in [brackets] (the replay shows everything).

    \b
    Example:
      seasalt replay --seed 7 --players 3
    """
    from .replay import format_replay, replay as play, replay_frame

    if out is not None:
        from .tidy import check_out
        check_out(out)
    r = play(seed, players, list(policies) or ["baseline"], expansion, target)
    if out is not None:
        _write_out(replay_frame(r), out)
    click.echo(json.dumps(_json_safe(r), indent=2, allow_nan=False) if as_json else format_replay(r))


if __name__ == "__main__":
    main()


# ---------------------------------------------------------------------------------------------
# report

@main.command()
@click.argument("results", nargs=-1, metavar="RESULTS...")
@click.option("--out", required=True, metavar="DIR",
              help="Report directory (PNG + SVG per chart, index.html, results/). Built aside and "
                   "renamed into place; an existing DIR is replaced only if it is empty or an "
                   "earlier seasalt report.")
@click.option("--demo", is_flag=True,
              help="Run a small built-in study (about a minute) and report on it.")
@click.option("--seed", type=int, metavar="S", help="Seed of the --demo study.")
@click.option("--jobs", "-j", type=int, metavar="J", help="Threads for --demo. Default: all cores.")
def report(results: tuple[str, ...], out: str, demo: bool, seed: int | None,
           jobs: int | None) -> None:
    """Charts and an index.html from saved results (files written by sweep, tournament or
    simulate --out), or from a built-in demo study.

    \b
    Examples:
      seasalt sweep --sweep stop_at=7..14 --players 2,3,4 --games 20000 --out sweep.csv
      seasalt report sweep.csv --out report/
      seasalt report --demo --out demo-report/
    """
    from . import report as rp

    def log(text: str) -> None:
        click.echo(text, err=True)

    if demo:
        if results:
            raise SeasaltError("give either RESULTS files or --demo, not both")
        index = rp.demo(out, seed=rp.DEMO["seed"] if seed is None else seed, jobs=jobs, log=log)
    else:
        if seed is not None or jobs is not None:
            raise SeasaltError("--seed and --jobs apply only to --demo")
        index = rp.build_report(results, out, log=log)
    click.echo(f"wrote {index}")


# ---------------------------------------------------------------------------------------------
# advise

@main.command()
@click.argument("position", metavar="POSITION")
@click.option("--samples", type=int, metavar="N",
              help="Sampled deals of the hidden cards (default 100000 unless --precision).")
@click.option("--precision", type=float, metavar="X",
              help="Sample until every reported probability has a 95% half-width below X.")
@click.option("--opponent", default="baseline", show_default=True, metavar="SPEC",
              help="Opponent model for their turns.")
@click.option("--me", "me_policy", default="baseline", show_default=True, metavar="SPEC",
              help="Your own model for your later turns (play on, rest of the game).")
@click.option("--seed", type=int, metavar="S", help="Random seed. Default: fresh, printed.")
@click.option("--jobs", "-j", type=int, metavar="J", help="Threads to use. Default: all cores.")
@click.option("--no-play-on", "no_play_on", is_flag=True,
              help="Evaluate only STOP and LAST CHANCE (faster).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def advise(position: str, samples: int | None, precision: float | None, opponent: str,
           me_policy: str, seed: int | None, jobs: int | None, no_play_on: bool,
           as_json: bool) -> None:
    """Should I STOP, call LAST CHANCE or play on? POSITION is a JSON file (- for standard input)
    describing what you know at the table; see the README for the format.

    \b
    Example:
      seasalt advise position.json --precision 0.005
    """
    from .advisor import advise as run_advice, format_advice
    from .position import load

    result = run_advice(load(position), samples=samples, precision=precision, opponent=opponent,
                        me_policy=me_policy, seed=seed, jobs=jobs, play_on=not no_play_on)
    if as_json:
        click.echo(json.dumps(_json_safe(result.to_dict()), indent=2, allow_nan=False))
    else:
        click.echo(format_advice(result))


# ---------------------------------------------------------------------------------------------
# seastead: a second game; its commands live in analyzer/seastead/cli.py, imported on use

class _Seastead(click.Group):
    def _real(self) -> click.Group:
        from .seastead.cli import seastead
        return seastead

    def list_commands(self, ctx):
        return self._real().list_commands(ctx)

    def get_command(self, ctx, name):
        return self._real().get_command(ctx, name)


main.add_command(_Seastead("seastead", help=(
    "Seastead, a second game: simulate, tournament, replay, report, components. Results "
    "describe the components supplied; the shipped set is invented.")))


# ---------------------------------------------------------------------------------------------
# optimize and guide: analyzer/strategy_cli.py

from .strategy_cli import guide as _guide, optimize as _optimize  # noqa: E402 (uses the above)

main.add_command(_optimize)
main.add_command(_guide)
