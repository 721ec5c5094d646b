"""The `seasalt` command line.

    seasalt score --hand "mermaid,shell:black,shell:grey" --table "boat:black,boat:yellow" [--json]
    seasalt simulate --players 2 --rounds 1000000 --policy baseline --seed 7 [--json]
    seasalt simulate --players 3 --games 10000 --policy baseline --policy "baseline(stop_at=9)" ...
    seasalt tournament --players 3 --policy baseline --policy "baseline(stop_at=9)" --games 30000
    seasalt sweep --sweep stop_at=7..14 --vs baseline --players 2,3,4 --games 20000 [--out t.csv]
    seasalt replay --seed 7 --players 3 [--json]
    seasalt advise position.json [--json]
    seasalt review --seed 7 --players 2 --seat 0 [--json] [--out review.csv]

A thin shell over analyzer.rules.score, .simulate, .tournament, .sweep, .replay, .advisor and
.review; analyzer.render.tidy_frames writes --out files.

Every mistake a user can make (bad cards, options, values, policy specs) ends with exactly one line
`error: ...` on stderr and exit status 2: no traceback, no click usage block, and nothing on stdout
(results are computed in full before anything is printed).
"""
from __future__ import annotations

import ast
import importlib
import json
import pathlib
import sys

import click

from .. import __version__
from . import options as opt
from ..render.output import json_safe as _json_safe, write_out as _write_out
from .options import backend_options
from ..base.errors import (RunFailed, RunInterrupted, SeasaltError, Terminated, flag_message,
                           one_line as _one_line)

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _error(message: str) -> int:
    click.echo(f"error: {_one_line(message)}", err=True)
    return EXIT_USAGE


# Commands defined in other files of analyzer/faces/, imported only when one of them runs (or
# its own --help is asked for), so that `seasalt --help` and `--version` start without the engine.
LAZY = {"advise": "play_cli", "replay": "play_cli", "review": "play_cli", "serve": "play_cli",
        "calibrate": "strategy_cli", "guide": "strategy_cli", "optimize": "strategy_cli",
        "train": "strategy_cli"}


def _help_of(name: str) -> str:
    """A lazy command's help, read from its function's docstring in its file (not imported)."""
    tree = ast.parse(pathlib.Path(__file__).with_name(f"{LAZY[name]}.py").read_text("utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return ast.get_docstring(node) or ""


class SeasaltGroup(click.Group):
    """A click group whose errors are one `error:` line and exit status 2 (the command line's
    contracts), and whose commands in LAZY are imported when they are used."""

    argv: list[str] | None = None       # the command line, while main() runs one

    def list_commands(self, ctx):
        return sorted({*self.commands, *LAZY})

    def get_command(self, ctx, name):
        if name in LAZY and name not in self.commands:
            self.add_command(getattr(importlib.import_module(f".{LAZY[name]}", __package__), name))
        cmd = self.commands.get(name)
        if cmd is not None and not hasattr(cmd, "bare_invoke"):
            cmd.bare_invoke = cmd.invoke
            cmd.invoke = lambda ctx, cmd=cmd: self._invoke(cmd, ctx)
        return cmd

    def _invoke(self, cmd: click.Command, ctx: click.Context):
        """Run a command, its options parsed (a bad one never loads the engine), with a status
        line while the engine compiles (first run only), then what it compiled."""
        if self.argv is None:               # library use: no status line
            return cmd.bare_invoke(ctx)
        from ..runs.compiling import notice
        with notice(args=self.argv):
            return cmd.bare_invoke(ctx)

    def format_commands(self, ctx, formatter):
        """The command list, a lazy command's line from its docstring without importing it."""
        commands = [(n, self.commands.get(n) or click.Command(n, help=_help_of(n)))
                    for n in self.list_commands(ctx)]
        commands = [(n, c) for n, c in commands if not c.hidden]
        limit = formatter.width - 6 - max(len(n) for n, _ in commands)
        with formatter.section("Commands"):
            formatter.write_dl([(n, c.get_short_help_str(limit)) for n, c in commands])

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:  # library use: behave like click, exceptions propagate
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        _terminate_like_ctrl_c()
        self.argv = list(sys.argv[1:] if args is None else args)
        try:
            rv = super().main(self.argv, prog_name, complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except SeasaltError as e:
            code = _error(flag_message(e))
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
            signum = getattr(cause, "signum", None)
            if isinstance(cause, RunInterrupted):     # a run's Ctrl-C: say where its work is
                click.echo(_one_line(cause.message), err=True)
            else:
                click.echo(f"error: {f'terminated by {cause}' if signum else 'interrupted'}",
                           err=True)
            code = 128 + signum if signum else EXIT_INTERRUPTED
        except Exception as e:
            if not _cache_unusable(e):
                raise
            code = _error(str(e))
        self.argv = None
        sys.exit(code)


def _cache_unusable(e: Exception) -> bool:
    """Whether `e` is the engine refusing a compile cache folder it cannot write
    (kernels.cache.CacheUnusable: a user's setting, with its fix in the message)."""
    cache = sys.modules.get("kernels.cache")
    return cache is not None and isinstance(e, getattr(cache, "CacheUnusable", ()))


def _terminate_like_ctrl_c() -> None:
    """SIGTERM and SIGHUP stop a command as Ctrl-C does (a run keeps and names its checkpoint),
    with exit status 128 + the signal."""
    import signal
    import threading

    def handler(signum, frame):
        raise Terminated(signum)
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if sig is not None and signal.getsignal(sig) is signal.SIG_DFL:
                signal.signal(sig, handler)


@click.group(cls=SeasaltGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="seasalt", message="%(prog)s %(version)s")
def main():
    """Monte Carlo strategy analyzer for Sea Salt & Paper (base game + Extra Salt).

    Cards are written kind[:colour], comma-separated, e.g. "crab:dark_blue,mermaid,shell:black"
    (the colour may be left out for single-colour kinds; dark-blue and dark_blue both work, and
    so do the names printed on the cards, such as "Shoal of Fish").

    The rules as the engine plays them: docs/rules.md. The players: 'seasalt policies' and
    docs/players.md. First run: the engine compiles once per machine, SIMULATE for simulate;
    'seasalt warmup' compiles it for every command up front, WARMUP.
    """


def _main_help() -> None:
    from ..render.compile_costs import SIMULATE_COST, WARMUP_COST
    main.help = main.help.replace("SIMULATE", SIMULATE_COST).replace("WARMUP", WARMUP_COST)


_main_help()


# ---------------------------------------------------------------------------------------------
# score

@main.command()
@click.option("--hand", required=True, metavar="CARDS", help="Cards in hand (revealed or not).")
@click.option("--table", default="", metavar="CARDS",
              help="Cards played on the table: pairs, and with Extra Salt trios (pair + starfish).")
@opt.expansion()
@opt.as_json()
def score(hand: str, table: str, expansion: str, as_json: bool) -> None:
    """Card points and colour bonus of one player's hand and table (the scoring of
    docs/rules.md).

    \b
    Example:
      seasalt score --hand "mermaid,shell:black,shell:grey,lighthouse,boat:yellow" \\
                    --table "boat:dark_blue,boat:dark_blue"
    """
    from ..rules.score import score_hand
    from ..render.text_tables import format_score

    result = score_hand(hand, table, expansion)
    click.echo(json.dumps(result, indent=2) if as_json else format_score(result))


# ---------------------------------------------------------------------------------------------
# policies

@main.command()
@click.argument("name", required=False, metavar="[NAME]")
@opt.as_json(help="Print the registry as JSON.")
@click.option("--markdown", is_flag=True,
              help="Print the reference section of docs/players.md (every policy's table).")
def policies(name: str | None, as_json: bool, markdown: bool) -> None:
    """The players: every policy and preset, or one policy's parameters with their defaults,
    ranges and meaning (docs/players.md describes each player in full).

    \b
    Examples:
      seasalt policies
      seasalt policies threshold
    """
    from ..rules import policy_docs as pd

    if as_json and markdown:
        raise SeasaltError("give --json or --markdown, not both")
    if markdown:
        if name:
            raise SeasaltError("--markdown prints every policy; leave out NAME")
        click.echo(pd.markdown())
    elif as_json:
        click.echo(json.dumps(pd.as_json(name), indent=2))
    else:
        click.echo(pd.detail(name) if name else pd.overview())


# ---------------------------------------------------------------------------------------------
# warmup

def _warmup_help(f):
    from ..render.compile_costs import WARMUP_COST
    f.__doc__ = f.__doc__.replace("COST", WARMUP_COST)
    return f


@main.command()
@_warmup_help
def warmup() -> None:
    """Compile the engine now, for every command: COST. Once per machine and seasalt version;
    later runs load it from the cache in about a second.

    Each kernel is shown on stderr as it compiles, with its time. Without this, the first run of
    each command compiles what it needs and says so on its status line.
    """
    import numba

    from ..render.text_tables import WIDTH, wrap
    from ..render.compile_costs import WARMUP_COST
    from ..runs.compiling import QUIET
    from .warmup import STEPS, warmup as run_warmup

    def err(text: str, nl: bool = True) -> None:
        click.echo(text, err=True, nl=nl)
        sys.stderr.flush()

    def begin(i: int, name: str) -> None:
        err(f"[{i + 1}/{len(STEPS)}] {name}")

    compiled = [0]

    def secs(seconds: float) -> str:
        return f"{seconds:.1f} s" if seconds < 10 else f"{seconds:.0f} s"

    def kernel(name: str, seconds: float | None) -> None:
        if seconds is None:
            compiled[0] += 1
            room = WIDTH - len("  compiling  ... 9999 s")
            err(f"  compiling {name if len(name) <= room else name[:room - 3] + '...'} ...",
                nl=False)
        else:
            err(f" {secs(seconds)}")

    def step_done(name: str, seconds: float) -> None:
        n, compiled[0] = compiled[0], 0
        err(f"  {name}: " + (f"{n} kernel{'s' * (n != 1)} compiled in {secs(seconds)}" if n
                             else "already compiled"))

    for line in wrap(f"seasalt warmup: compiling every kernel the commands use, if not cached "
                     f"yet; cold, {WARMUP_COST}"):
        err(line)
    QUIET.set()                     # the status line would cover the kernels' lines
    try:
        watch = run_warmup(step_done, kernel, begin)
    finally:
        QUIET.clear()
    where = numba.config.CACHE_DIR
    if watch.compiled:
        click.echo(f"compiled the engine for {len(STEPS)} commands in {secs(watch.seconds)}; "
                   f"later runs load it from {where}")
    else:
        click.echo(f"the engine was already compiled (cache: {where})")


# ---------------------------------------------------------------------------------------------
# simulate

def _emit_study(df, header: dict, out: str | None, as_json: bool, formatter) -> None:
    """A sweep's or tournament's output: the --out file, then JSON (header + rows) or the table."""
    if out is not None:
        _write_out(df, out)
    if as_json:
        from ..render.tidy_frames import records
        click.echo(json.dumps(_json_safe({**header, "rows": records(df)}), indent=2, allow_nan=False))
    else:
        click.echo(formatter(df, header))


def _table_titles() -> dict[str, str]:
    from ..render.text_tables import TABLE_TITLES
    return TABLE_TITLES


@main.command()
@opt.players(required=True)
@click.option("--rounds", type=int, metavar="N", help="Simulate N independent rounds.")
@click.option("--games", type=int, metavar="N", help="Simulate N full games to the target.")
@opt.policy(help="Player policy, e.g. baseline or \"baseline(stop_at=9,last_chance_at=12)\". "
                   "Once for every seat, or once per seat in seat order. Default: baseline. "
                   "'--policy help' (or seasalt policies) lists the players.")
@opt.run_options(seed_help=opt.RESULT_SEED_HELP,
                 target_help="Game target (with --games only). Default: 40/35/30 for 2/3/4 "
                             "players.")
@click.option("--table", default=None,
              type=opt.LazyChoice(_table_titles),
              help="A breakdown of a --rounds run: per seat, LAST CHANCE success by the caller's "
                   "points, payoff by mermaids held, or a histogram. Printed instead of the "
                   "summary, or written to --out (default there: seats).")
@backend_options
def simulate(players: int, rounds: int | None, games: int | None, policies: tuple[str, ...],
             seed: int | None, jobs: int | None, expansion: str, target: int | None,
             as_json: bool, out: str | None, table: str, scheduler: str | None,
             checkpoint: str | None, resume: bool, restart: bool) -> None:
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
    if table is not None and games is not None:
        raise SeasaltError("--table applies only to --rounds (games runs write one row per seat)")
    if out is not None:
        from ..render.tidy_frames import check_out
        check_out(out)

    from ..base.progress import ProgressLine
    from ..studies.simulate import run as run_simulation
    from ..render.text_tables import format_games, format_rounds

    unit, count = ("rounds", rounds) if rounds is not None else ("games", games)
    spec = opt.spec_of(players, unit, count, list(policies) or ["baseline"], seed, expansion,
                       target, opt.backend_of(jobs, scheduler, checkpoint, resume, restart))
    with ProgressLine(f"simulating {unit}") as progress:
        result = run_simulation(spec, progress)
    text = format_rounds(result) if rounds is not None else format_games(result)
    if out is not None:
        from ..render.tidy_frames import ROUNDS_TABLES, games_frame
        _write_out(ROUNDS_TABLES[table or "seats"](result) if rounds is not None else
                   games_frame(result), out)
    elif table is not None and not as_json:        # the breakdown in the terminal
        from ..render.text_tables import format_frame
        from ..render.tidy_frames import ROUNDS_TABLES
        text = format_frame(ROUNDS_TABLES[table](result), _table_titles()[table])
    click.echo(json.dumps(_json_safe(result), indent=2, allow_nan=False) if as_json else text)


# ---------------------------------------------------------------------------------------------
# tournament

@main.command()
@opt.players(help="Players per game: 2, 3 or 4. Default: the number of --policy.")
@opt.policy(required=True, help="An entrant (give 2 to P). With fewer entrants than seats, "
                                  "seats are filled by cycling through them.")
@click.option("--games", type=int, default=10_000, show_default=True, metavar="N",
              help="Games in all, over all seatings.")
@opt.run_options()
@backend_options
def tournament(players: int | None, policies: tuple[str, ...], games: int, seed: int | None,
               jobs: int | None, expansion: str, target: int | None, as_json: bool,
               out: str | None, scheduler: str | None, checkpoint: str | None,
               resume: bool, restart: bool) -> None:
    """Players against each other in rotated seats, ranked by win rate with 95% intervals.

    Every entrant sits in every seat equally often, so nobody gains from sitting first.
    Seats are rotated: the N games are split over the P seatings (N // P each, the first
    N % P one more), seating r on a seed derived from (S, P, r).

    \b
    Example:
      seasalt tournament --players 3 --policy baseline --policy "baseline(stop_at=9)" \\
                         --policy "baseline(stop_at=12)" --games 30000 --seed 1
    """
    from ..base.progress import ProgressLine
    from ..studies.tournament import TournamentSpec, run

    if out is not None:
        from ..render.tidy_frames import check_out
        check_out(out)
    from ..render.text_tables import format_tournament

    spec = TournamentSpec.build(policies, players, games, seed, expansion, target,
                                opt.backend_of(jobs, scheduler, checkpoint, resume, restart))
    with ProgressLine("tournament") as progress:
        df, header = run(spec, progress)
    _emit_study(df, header, out, as_json, format_tournament)


# ---------------------------------------------------------------------------------------------
# sweep

@main.command()
@click.option("--sweep", "sweeps", multiple=True, required=True, metavar="PARAM=LO..HI[:STEP]",
              help="A parameter of the swept player and its values: PARAM=LO..HI (step 1), "
                   "PARAM=LO..HI:STEP or PARAM=V1,V2,... Give one or two (a grid).")
@opt.policy("--policy", multiple=False, default="baseline", show_default=True,
              help="The swept player's base spec; the swept parameters replace its values "
                   "('--policy help' lists the players).")
@opt.vs(help="The field (every other seat). Several are cycled over the field seats. "
             "Default: baseline.")
@opt.players(type=str, default="2,3,4", show_default=True, metavar="P[,P...]",
             help="Player counts, comma-separated.")
@click.option("--games", type=int, default=20_000, show_default=True, metavar="N",
              help="Games per grid point and player count, over all seatings.")
@opt.run_options(target_help="Game target for every player count. Default: 40/35/30 for 2/3/4 "
                             "players.")
@backend_options
def sweep(sweeps: tuple[str, ...], policy: str, vs: tuple[str, ...], players: str, games: int,
          seed: int | None, jobs: int | None, expansion: str, target: int | None, as_json: bool,
          out: str | None, scheduler: str | None, checkpoint: str | None, resume: bool,
          restart: bool) -> None:
    """Win rate and final score of one seat's player over a grid of its parameters, against a
    fixed field, for each player count, with 95% intervals.

    The swept player sits in each seat in turn: the N games of a grid point are split over the
    P seatings (N // P each, the first N % P one more), seating r on a seed derived from
    (S, P, r). Every grid point uses the same seeds (common random numbers).

    \b
    Example (when to declare, and whether as STOP or LAST CHANCE; last_chance_at=99: never):
      seasalt sweep --sweep stop_at=7..10 --sweep last_chance_at=7,99 --policy threshold \\
                    --vs baseline --players 3 --games 20000 --seed 1
    """
    from ..base.progress import ProgressLine
    from ..studies.sweep import SweepSpec, run

    if out is not None:
        from ..render.tidy_frames import check_out
        check_out(out)
    spec = SweepSpec.build(list(sweeps), policy, list(vs) or ["baseline"], players, games, seed,
                           expansion, target,
                           opt.backend_of(jobs, scheduler, checkpoint, resume, restart))
    with ProgressLine("sweep") as progress:
        df, header = run(spec, progress)
    from ..rules.policies import parse_policy
    from ..render.text_tables import format_sweep
    docs = {p.name: p.doc for p in parse_policy(header["policy"]).info.params}
    _emit_study(df, header, out, as_json, lambda d, h: format_sweep(d, h, docs))


# ---------------------------------------------------------------------------------------------
# report

@main.command()
@click.argument("results", nargs=-1, metavar="RESULTS...")
@click.option("--out", required=True, metavar="DIR",
              help="Report directory (PNG + SVG per chart, index.html, results/). A new DIR is "
                   "built aside and renamed into place; an existing one (. included) must be "
                   "empty or hold only an earlier report's own files (its .seasalt-report.json "
                   "lists them): seasalt never deletes a file it did not write.")
@click.option("--demo", is_flag=True,
              help="Run a small built-in study (about 15 seconds) and report on it.")
@opt.seed(help="Seed of the --demo study.")
@opt.jobs(help="Threads for --demo. Default: all cores.")
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
    from ..studies import report as rp

    def log(text: str) -> None:
        from ..render.text_tables import wrap
        for line in wrap(text):
            click.echo(line, err=True)

    if demo:
        if results:
            raise SeasaltError("give either RESULTS files or --demo, not both")
        index = rp.demo(out, seed=rp.DEMO["seed"] if seed is None else seed,
                        backend=opt.backend_of(jobs), log=log)
    else:
        if seed is not None or jobs is not None:
            raise SeasaltError("--seed and --jobs apply only to --demo")
        index = rp.build_report(results, out, log=log)
    click.echo(f"wrote {index}", err=True)


# ---------------------------------------------------------------------------------------------
# seastead: a second game; its commands live in analyzer/faces/seastead_cli.py, imported on use

class _Seastead(click.Group):
    def _real(self) -> click.Group:
        from .seastead_cli import seastead
        return seastead

    def list_commands(self, ctx):
        return self._real().list_commands(ctx)

    def get_command(self, ctx, name):
        return self._real().get_command(ctx, name)


main.add_command(_Seastead("seastead", help=(
    "Seastead, a second game: simulate, tournament, replay, report, components, players. "
    "Results describe the components supplied; the shipped set is invented.")))


if __name__ == "__main__":
    main(prog_name="seasalt")
