"""The `seasalt` command line.

    seasalt score --hand "mermaid,shell:black,shell:grey" --table "boat:black,boat:yellow" [--json]
    seasalt simulate --players 2 --rounds 1000000 --policy baseline --seed 7 [--json]
    seasalt simulate --players 3 --games 10000 --policy baseline --policy "baseline(stop_at=9)" ...
    seasalt tournament --players 3 --policy baseline --policy "baseline(stop_at=9)" --games 30000
    seasalt sweep --sweep stop_at=7..14 --vs baseline --players 2,3,4 --games 20000 [--out t.csv]
    seasalt replay --seed 7 --players 3 [--json]
    seasalt advise position.json [--json]
    seasalt review --seed 7 --players 2 --seat 0 [--json] [--out review.csv]

A thin shell over analyzer.score, .simulate, .tournament, .sweep, .replay, .advisor and .review;
analyzer.tidy writes --out files.

Every mistake a user can make (bad cards, options, values, policy specs) ends with exactly one line
`error: ...` on stderr and exit status 2: no traceback, no click usage block, and nothing on stdout
(results are computed in full before anything is printed).
"""
from __future__ import annotations

import json
import sys

import click

from . import __version__
from . import cli_options as opt
from .cli_output import json_safe as _json_safe, write_out as _write_out
from .cli_options import backend_options, policy_help  # noqa: F401 (used by other CLIs)
from .errors import RunFailed, RunInterrupted, SeasaltError, Terminated
from .runspec import check_jobs
from .tables import TABLE_TITLES

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _error(message: str) -> int:
    click.echo(f"error: {_one_line(message)}", err=True)
    return EXIT_USAGE


# Library parameter -> command-line flag, for the errors that name a parameter (SeasaltError.param).
FLAGS = {"players": "--players", "seed": "--seed", "target": "--target", "rounds": "--rounds",
         "games": "--games", "pairs": "--pairs", "final_games": "--final-games",
         "holdout_games": "--holdout-games", "seat": "--seat", "samples": "--samples",
         "jobs": "--jobs"}


def flag_message(e: SeasaltError) -> str:
    """The error as the command line says it: its leading parameter name becomes the flag."""
    message, param = str(e), getattr(e, "param", None)
    if param in FLAGS and message.startswith(param):
        return FLAGS[param] + message[len(param):]
    return message


class SeasaltGroup(click.Group):
    """A click group whose errors are one `error:` line and exit status 2 (DESIGN.md contracts)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:  # library use: behave like click, exceptions propagate
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        from .warmup import notice
        _terminate_like_ctrl_c()
        try:
            with notice():      # a status line while the engine compiles (first run only)
                rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
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
        sys.exit(code)


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
    from .warmup import SIMULATE_COST, WARMUP_COST
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
    from .score import score_hand
    from .tables import format_score

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
    from . import policy_docs as pd

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
    from .warmup import WARMUP_COST
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

    from .tables import WIDTH, wrap
    from .warmup import QUIET, STEPS, WARMUP_COST, warmup as run_warmup

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
        from .tidy import records
        click.echo(json.dumps(_json_safe({**header, "rows": records(df)}), indent=2, allow_nan=False))
    else:
        click.echo(formatter(df, header))


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
              type=click.Choice(list(TABLE_TITLES)),
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
        from .tidy import check_out
        check_out(out)

    from .progress import ProgressLine
    from .simulate import simulate_games, simulate_rounds
    from .tables import format_games, format_rounds

    common = dict(players=players, policies=list(policies) or ["baseline"], seed=seed, jobs=jobs,
                  expansion=expansion, scheduler=scheduler, checkpoint=checkpoint, resume=resume,
                  restart=restart)
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
        _write_out(ROUNDS_TABLES[table or "seats"](result) if rounds is not None else
                   games_frame(result), out)
    elif table is not None and not as_json:        # the breakdown in the terminal
        from .tables import format_frame
        from .tidy import ROUNDS_TABLES
        text = format_frame(ROUNDS_TABLES[table](result), TABLE_TITLES[table])
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
    from .progress import ProgressLine
    from .tournament import run_tournament

    if out is not None:
        from .tidy import check_out
        check_out(out)
    from .tables import format_tournament

    with ProgressLine("tournament") as progress:
        df, header = run_tournament(list(policies), players, games, seed, jobs, expansion, target,
                                    progress, scheduler, checkpoint, resume, restart)
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
                               resume, restart)
    from .policies import parse_policy
    from .tables import format_sweep
    docs = {p.name: p.doc for p in parse_policy(header["policy"]).info.params}
    _emit_study(df, header, out, as_json, lambda d, h: format_sweep(d, h, docs))


# ---------------------------------------------------------------------------------------------
# replay

@main.command()
@opt.seed(help="The game's seed: it is game 0 of `simulate --games N --seed S` "
               "with the same players, policies, expansion and target.")
@opt.players()
@opt.policy(help="Player policy: once for every seat, or once per seat. Default: baseline. "
                   "'--policy help' lists the players.")
@opt.expansion()
@opt.target()
@click.option("--game", "game_path", metavar="FILE",
              help="Replay a game played in `seasalt serve`'s Play view (its game file: seed, "
                   "players and the user's every action) instead.")
@opt.as_json(help="Print the game as one JSON object: rounds, events (with their text), scores.")
@opt.out(help="Also write the events as a tidy table (one row per event) to FILE: .csv, "
              ".json or .parquet.")
def replay(seed: int | None, players: int | None, policies: tuple[str, ...], expansion: str,
           target: int | None, game_path: str | None, as_json: bool, out: str | None) -> None:
    """One game, action by action: who drew what and from where, which pairs were played and
    what they did, who declared, how the bet resolved, round scores and the winner.

    The game is played on the random stream kernels.rng.seed_stream(S, 0). Cards only one
    player saw are shown in [brackets] (the replay shows everything).

    \b
    Examples:
      seasalt replay --seed 7 --players 3
      seasalt replay --game seasalt-game-7.json
    """
    from .replay import format_replay, replay as play, replay_frame

    if game_path is not None:
        if seed is not None or players is not None or policies or target is not None:
            raise SeasaltError("--game FILE gives the game: leave out --seed, --players, "
                               "--policy and --target")
    elif seed is None or players is None:
        raise SeasaltError("give --seed and --players (or --game FILE)")
    if out is not None:
        from .tidy import check_out
        check_out(out)
    if game_path is not None:
        from .play import load_game
        r = load_game(game_path).record()
    else:
        r = play(seed, players, list(policies) or ["baseline"], expansion, target)
    if out is not None:
        _write_out(replay_frame(r), out)
    from .tables import wrap_text
    click.echo(json.dumps(_json_safe(r), indent=2, allow_nan=False) if as_json else
               wrap_text(format_replay(r)))


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
    from . import report as rp

    def log(text: str) -> None:
        from .tables import wrap
        for line in wrap(text):
            click.echo(line, err=True)

    if demo:
        if results:
            raise SeasaltError("give either RESULTS files or --demo, not both")
        index = rp.demo(out, seed=rp.DEMO["seed"] if seed is None else seed, jobs=jobs, log=log)
    else:
        if seed is not None or jobs is not None:
            raise SeasaltError("--seed and --jobs apply only to --demo")
        index = rp.build_report(results, out, log=log)
    click.echo(f"wrote {index}", err=True)


# ---------------------------------------------------------------------------------------------
# advise

@main.command()
@click.argument("position", metavar="POSITION", required=False)
@click.option("--template", is_flag=True,
              help="Print a commented position file to start from (seasalt advise --template > "
                   "pos.json), then stop.")
@click.option("--samples", type=int, metavar="N",
              help="Sampled deals of the hidden cards (default 100000 unless --precision).")
@click.option("--precision", type=float, metavar="X",
              help="Sample until every reported probability has a 95% half-width below X.")
@opt.policy("--opponent", "--opponents", "opponent",
            help="Opponent model for their turns ('--opponent help' lists the players). Several "
                 "(repeated, or SPEC,SPEC): one answer per model and a verdict. Default: "
                 "baseline.")
@opt.policy("--me", "me",
            help="Your own model after this decision (the rest of your turn, later turns, the "
                 "rest of the game); several as for --opponent. Default: baseline.")
@click.option("--robust", is_flag=True,
              help="Ask several models: opponents baseline, tuned, gambler and denier, you "
                   "baseline and tuned (where --opponent or --me names none), 20000 samples "
                   "each unless --samples; one line per model and a verdict.")
@opt.seed(help="Random seed. Default: fresh, printed.")
@opt.jobs(help=opt.THREADS_HELP)
@click.option("--no-play-on", "no_play_on", is_flag=True,
              help="At the play step, leave out ending the turn (faster).")
@click.option("--reading", metavar="MODEL",
              help="Read the opponents' hands with this model from the position's 'history' "
                   "(analyzer/reading.py): deals weighted by how likely MODEL makes the choices "
                   "seen; the verdict with and without reading. Default: the --opponent model "
                   "when the position has a history, 'off' to leave it out.")
@click.option("--tremble", type=float, default=None, metavar="X",
              help="Reading: the weight of a deal per seen choice the model would not make "
                   "(default 0.05; 1: no reading).")
@opt.as_json()
def advise(position: str | None, template: bool, samples: int | None, precision: float | None,
           opponent: tuple[str, ...], me: tuple[str, ...], robust: bool, seed: int | None,
           jobs: int | None, no_play_on: bool, reading: str | None, tremble: float | None,
           as_json: bool) -> None:
    """What should I do here? POSITION is a JSON file (- for standard input) describing what
    you know at the table and which decision you face (draw, keep, play, crab, lobster, steal);
    'seasalt advise --template' prints one to edit (comments after // are allowed), docs/advisor.md
    has the format. Every legal action is played on the same sampled deals and ranked by the
    chance to win the game (from the file's totals and target, else as a new game).

    \b
    Example:
      seasalt advise --template > position.json
      seasalt advise position.json --precision 0.005
    """
    if template:
        if position is not None:
            raise SeasaltError("--template prints a position file; leave out POSITION")
        from .position_template import TEMPLATE
        click.echo(TEMPLATE, nl=False)
        return
    if position is None:
        raise SeasaltError("give a POSITION file (or - for standard input); seasalt advise "
                           "--template prints one to start from")
    from .advisor import format_advice
    from .position import load
    from .progress import ProgressLine
    from .robust import Robust, advise_models, format_robust

    pos = load(position)
    if reading != "off" and (reading is not None or isinstance(pos, dict) and "history" in pos):
        from .reading import advise_cli
        click.echo(advise_cli(pos, reading, tremble, opponent, me, robust, samples, precision,
                              seed, jobs, no_play_on, as_json))
        return
    with ProgressLine("advise") as progress:
        result = advise_models(pos, opponent, me, robust, samples=samples, precision=precision,
                               seed=seed, jobs=jobs, play_on=not no_play_on, progress=progress)
    if as_json:
        click.echo(json.dumps(_json_safe(result.to_dict()), indent=2, allow_nan=False))
    else:
        click.echo(format_robust(result) if isinstance(result, Robust) else format_advice(result))


# ---------------------------------------------------------------------------------------------
# serve: the advisor in a browser (analyzer/web)

@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but localhost opens the advisor to the network.")
@click.option("--port", default=8765, show_default=True, type=int, help="Port (0: any free one).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
def serve(host: str, port: int, open_browser: bool) -> None:
    """Start the advisor's web page and JSON API and print its URL.

    \b
    The page: click the cards you see, press Advise. The API:
      curl -H 'Content-Type: application/json' --data-binary @position.json \\
           'http://127.0.0.1:8765/api/advise?samples=100000&seed=1'
    prints what `seasalt advise position.json --samples 100000 --seed 1 --json` prints.
    """
    from .web.server import serve as run_server
    run_server(host, port, open_browser)


# ---------------------------------------------------------------------------------------------
# review

@main.command()
@opt.seed(help="The game's seed (the game of `seasalt replay --seed S` with the same options).")
@opt.players()
@opt.policy(callback=None, is_eager=False,
              help="Player policy: once for every seat, or once per seat. Default: baseline.")
@click.option("--replay", "replay_path", metavar="FILE",
              help="Review the game of a `seasalt replay --json` file instead (its seed, players, "
                   "policies, expansion and target; its events are checked).")
@click.option("--game", "game_path", metavar="FILE",
              help="Review the user's decisions in a game of `seasalt serve`'s Play view (its "
                   "game file) instead.")
@click.option("--seat", type=int, default=0, show_default=True, metavar="Q",
              help="The seat whose decisions are reviewed.")
@click.option("--samples", type=int, default=2000, show_default=True, metavar="N",
              help="Sampled deals per decision.")
@opt.expansion()
@opt.target()
@opt.jobs(help=opt.THREADS_HELP)
@opt.as_json(help="Print the review as one JSON object.")
@opt.out(help="Also write one row per decision to FILE: .csv, .json or .parquet.")
def review(seed: int | None, players: int | None, policies: tuple[str, ...],
           replay_path: str | None, game_path: str | None, seat: int, samples: int,
           expansion: str, target: int | None, jobs: int | None, as_json: bool,
           out: str | None) -> None:
    """A game reviewed as a chess engine reviews one: at every decision of one seat, what the
    advisor would choose from what that seat knew, and what the choice made cost in the chance
    to win the game (with its 95% interval); then the seat's costliest decisions.

    \b
    Examples:
      seasalt review --seed 7 --players 2 --seat 0
      seasalt replay --seed 7 -p 3 --json > game.json; seasalt review --replay game.json --seat 2
      seasalt review --game seasalt-game-7.json
    """
    from .progress import ProgressLine
    from .review import format_review, load_replay, review as run_review, review_frame
    check_jobs(jobs)     # before a --replay FILE is read
    game = None
    if game_path is not None:
        if seed is not None or players is not None or policies or target is not None or \
                replay_path is not None or seat != 0:
            raise SeasaltError("--game FILE gives the game and the seat reviewed (the user's): "
                               "leave out --seed, --players, --policy, --target, --replay and "
                               "--seat")
        from .play import load_game
        played = load_game(game_path)
        if out is not None:
            from .tidy import check_out
            check_out(out)
        with ProgressLine("review"):
            r = played.review(samples, jobs=jobs)
        if out is not None:
            _write_out(review_frame(r), out)
        click.echo(json.dumps(_json_safe(r), indent=2, allow_nan=False) if as_json
                   else format_review(r))
        return
    if replay_path is not None:
        if seed is not None or players is not None or policies or target is not None:
            raise SeasaltError("--replay FILE gives the game: leave out --seed, --players, "
                               "--policy and --target")
        game = load_replay(replay_path)
        seed, players, policies = game["seed"], game["players"], tuple(game["policies"])
        expansion, target = game["expansion"], game["target"]
    elif seed is None or players is None:
        raise SeasaltError("give --seed and --players (or --replay FILE)")
    if out is not None:
        from .tidy import check_out
        check_out(out)
    with ProgressLine("review") as progress:
        r = run_review(seed, players, list(policies) or ["baseline"], seat, expansion, target,
                       samples, jobs, progress, replay_file=game)
    if out is not None:
        _write_out(review_frame(r), out)
    click.echo(json.dumps(_json_safe(r), indent=2, allow_nan=False) if as_json else format_review(r))


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
    "Seastead, a second game: simulate, tournament, replay, report, components, players. "
    "Results describe the components supplied; the shipped set is invented.")))


# ---------------------------------------------------------------------------------------------
# optimize and guide: analyzer/strategy_cli.py

from .strategy_cli import guide as _guide, optimize as _optimize  # noqa: E402 (uses the above)

main.add_command(_optimize)
main.add_command(_guide)

if __name__ == "__main__":
    main(prog_name="seasalt")
