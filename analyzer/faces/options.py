"""The command-line options several commands share, each declared once.

    @opt.players()                      # one option, its usual help
    @opt.policy("--opponent", multiple=False)   # a policy option of another name
    @opt.seed(help="The game's seed ...", required=True)   # the same option, its own words
    @opt.run_options(target_help=...)   # --seed --jobs --expansion --target --json --out
    @opt.backend_options                # --scheduler --checkpoint --resume --restart
    backend = opt.backend_of(jobs, scheduler, checkpoint, resume, restart)   # in the command
    spec = opt.spec_of(players, "games", games, policies, seed, expansion, target, backend)

Each factory returns a click option; keyword arguments replace its defaults (help, required,
default, metavar, ...) where a command legitimately says more or less. `backend_of` is the one
place the command line turns its --jobs and backend flags into the Backend every study takes;
`spec_of` is where it builds the RunSpec of one run (simulate, replay, review); the other studies'
commands build their own spec with its `build` (TournamentSpec.build, SweepSpec.build, ...).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

import click

if TYPE_CHECKING:
    from ..runs.spec import Backend, RunSpec


def seed_help(what: str) -> str:
    """The help of --seed for a command whose output is `what` (a table, a result)."""
    return (f"Random seed (0 to 2**64-1); the same seed gives the same {what} for any --jobs or "
            "--scheduler. Default: a fresh seed, printed with the results.")


SEED_HELP = seed_help("table")
RESULT_SEED_HELP = seed_help("result")
JOBS_HELP = "Threads to use (worker processes with --scheduler local). Default: all cores."
THREADS_HELP = "Threads to use. Default: all cores."
EXPANSION_HELP = "Card set: base (58 cards) or extra-salt (66 cards)."
TARGET_HELP = "Game target. Default: 40/35/30 for 2/3/4 players."
JSON_HELP = "Print the result as one JSON object."
OUT_HELP = ("Also write the results as a tidy table (one row per seat, entrant or grid point, each "
            "with the seed, configuration and version) to FILE: .csv, .json or .parquet "
            "(parquet needs pyarrow). Written completely or not at all.")
_HELP_WORDS = {"help", "list", "?"}


def policy_help(ctx: click.Context, param: click.Parameter, value, listing=None):
    """A --policy (or --vs, --opponent, --me) of `help`: print the players and stop
    (`listing`: another game's players, analyzer.rules.policy_docs.Listing)."""
    values = value if isinstance(value, tuple) else (value,)
    if any(isinstance(v, str) and v.strip().lower() in _HELP_WORDS for v in values):
        from ..rules.policy_docs import SSP, overview
        click.echo(overview(listing or SSP))
        ctx.exit(0)
    return value


def _quiet_dask(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """With --scheduler, Dask's own log stays silent for the whole process: failures end in
    one `error:` line (analyzer.runs.backends)."""
    if value is not None:
        try:
            import distributed  # noqa: F401  (its loggers exist once it is imported)
        except ImportError:
            return value        # the run says how to install it
        from ..runs.backends import quiet_dask_logs
        quiet_dask_logs()
    return value


class LazyChoice(click.Choice):
    """A click.Choice whose choices are asked for when first needed (a --help or a value), so
    that defining the command imports nothing heavy."""

    def __init__(self, choices: Callable[[], Sequence[str]], case_sensitive: bool = True):
        self._choices = choices
        self.case_sensitive = case_sensitive

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(self._choices())


def _option(*decls: str, **defaults) -> Callable[..., Callable]:
    """A factory of one click option: `factory(*other_names, **changes)` with its names or some
    settings replaced."""
    def make(*names: str, **changes) -> Callable:
        return click.option(*(names or decls), **{**defaults, **changes})
    return make


players = _option("--players", "-p", type=int, metavar="P", help="Players: 2, 3 or 4.")
seed = _option("--seed", type=int, metavar="S", help=SEED_HELP)
jobs = _option("--jobs", "-j", type=int, metavar="J", help=JOBS_HELP)
expansion = _option("--expansion", default="base", show_default=True, metavar="base|extra-salt",
                    help=EXPANSION_HELP)
target = _option("--target", type=int, metavar="T", help=TARGET_HELP)
as_json = _option("--json", "as_json", is_flag=True, help=JSON_HELP)
out = _option("--out", metavar="FILE", help=OUT_HELP)
policy = _option("--policy", "policies", multiple=True, metavar="SPEC", callback=policy_help,
                   is_eager=True)
vs = _option("--vs", "vs", multiple=True, metavar="SPEC", callback=policy_help, is_eager=True)
reading = _option("--reading", metavar="MODEL",
                  help="Read the opponents' hands with this model from the position's 'history' "
                       "(analyzer/play/reading.py): deals weighted by how likely MODEL makes the "
                       "choices seen; the verdict with and without reading. Default: the "
                       "--opponent model when the position has a history, 'off' to leave it out.")
tremble = _option("--tremble", type=float, default=None, metavar="X",
                  help="Reading: the weight of a deal per seen choice the model would not make "
                       "(default 0.05; 1: no reading).")


def stack(*options: Callable) -> Callable:
    """Several options as one decorator, listed in `--help` in the order given."""
    def apply(f):
        for o in reversed(options):
            f = o(f)
        return f
    return apply


def run_options(seed_help: str = SEED_HELP, target_help: str = TARGET_HELP,
                out_help: str | None = OUT_HELP) -> Callable:
    """--seed, --jobs, --expansion, --target, --json and (unless out_help is None) --out: the
    options of every Monte Carlo study."""
    return stack(seed(help=seed_help), jobs(), expansion(), target(help=target_help), as_json(),
                 *([out(help=out_help)] if out_help is not None else []))


checkpoint_options = stack(
    click.option("--checkpoint", metavar="FILE",
                 help="Keep finished tasks in FILE as the run goes (it survives crashes); with "
                      "--resume, continue from it. Default: a file in the seasalt cache, "
                      "deleted when the run completes."),
    click.option("--resume", is_flag=True,
                 help="Continue an interrupted run: give the same command, options and --seed; "
                      "only the tasks its checkpoint lacks are computed."),
    click.option("--restart", is_flag=True,
                 help="Discard the checkpoint an interrupted run of this command left (or the "
                      "--checkpoint FILE) and start afresh. Without it, a run whose checkpoint "
                      "exists refuses to start."))
checkpoint_options.__doc__ = "--checkpoint, --resume and --restart (a study that resumes)."
backend_options = stack(
    click.option("--scheduler", metavar="local|tcp://HOST:PORT", callback=_quiet_dask,
                 help="Run on Dask: 'local' starts worker processes here (--jobs of them), an "
                      "address uses a running dask scheduler. Same results as without. "
                      "Needs pip install 'seasalt[dask]'. Default: threads in this process."),
    checkpoint_options)
backend_options.__doc__ = ("--scheduler, --checkpoint, --resume and --restart "
                           "(analyzer.runs.backends.Runner).")


def backend_of(jobs: int | None = None, scheduler: str | None = None,
               checkpoint: str | None = None, resume: bool = False,
               restart: bool = False) -> "Backend":
    """The Backend of a command's --jobs, --scheduler, --checkpoint, --resume and --restart (the
    one place the command line builds one; a command without some of them leaves them out).
    --jobs is checked against the cores here, before the command loads the engine."""
    from ..runs.batches import check_jobs
    from ..runs.spec import Backend
    backend = Backend(jobs, scheduler, checkpoint, resume, restart)
    check_jobs(jobs)
    return backend


def spec_of(players: int, unit: str, count: int, policies: Sequence[str], seed: int | None,
            expansion: str, target: int | None = None, backend: "Backend | None" = None
            ) -> "RunSpec":
    """The RunSpec of one run from a command's values (RunSpec.build: a bad value is a
    SeasaltError naming its parameter, which the command line turns into its flag)."""
    from ..runs.spec import RunSpec
    return RunSpec.build(players, unit, count, policies, seed, expansion, target, backend)
