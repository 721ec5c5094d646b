"""The `seasalt optimize` and `seasalt guide` commands (registered by analyzer.faces.cli).

    seasalt optimize --players 2 --vs baseline --generations 20 --population 24 --seed 1
    seasalt optimize --players 2 --vs self --iterations 4 --seed 1          # iterated best response
    seasalt guide --out guide/ [--small]

Thin shells over analyzer.studies.optimize and analyzer.studies.guide, with the options of the other
studies (--seed, --jobs, --expansion, --target, --json, --out, --scheduler, --checkpoint, --resume).
"""
from __future__ import annotations

import json

import click

from . import options as opt
from ..render.output import json_safe, write_out
from ..render import text_tables as tb
from ..base.errors import SeasaltError
from ..rules.policies import short_spec
from ..studies.train import TrainSpec


def _check_chart(path: str | None) -> None:
    """A --chart path that can be written, checked before any work (a missing directory used
    to fail with a traceback after the whole run)."""
    if path is None:
        return
    if not path.lower().endswith((".png", ".svg")):
        raise SeasaltError(f"--chart {path!r}: give a .png or .svg file")
    import os
    from pathlib import Path
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise SeasaltError(f"--chart {path!r} is a directory")
    if not parent.is_dir():
        raise SeasaltError(f"--chart {path!r}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise SeasaltError(f"--chart {path!r}: directory {str(parent)!r} is not writable")


# The search's sizes: (option, default, metavar, help).
_SIZES = (("--generations", 20, "G", "Generations of each search."),
          ("--population", 24, "N", "Candidates per generation (the first is the distribution's "
                                     "centre)."),
          ("--games", 2000, "N", "Games per candidate and field member in a generation, over all "
                                 "seatings."),
          ("--elite", 0.25, "F", "Share of each generation that moves the distribution."),
          ("--finalists", 5, "K", "Specs measured on the selection seeds for the final pick."),
          ("--final-games", 20_000, "N", "Games per finalist and field member on the selection "
                                         "seeds."),
          ("--holdout-games", 100_000, "N", "Games per field member for the pick's report on "
                                            "seeds never used before."))


@click.command()
@opt.players(default=2, show_default=True, help="Players per game: 2, 3 or 4.")
@click.option("--knob", "knobs", multiple=True, metavar="PARAM=LO..HI|PARAM=V1,V2,...",
              help="A knob to search and its range (whole numbers where the registry says so) or "
                   "set of values; PARAM alone takes the default range. Repeat for several. "
                   "Default: every knob of the threshold family (see analyzer.studies.optimize).")
@click.option("--policy", default="threshold", show_default=True, metavar="SPEC",
              help="The player whose knobs are searched; its values are the starting point and "
                   "fix every knob not searched.")
@click.option("--vs", "vs", multiple=True, metavar="SPEC|self",
              help="A field member: the searched player plays against it in every other seat. "
                   "Repeat for several (the score is the mean win rate over them). 'self' is the "
                   "previous search's pick (iterated best response). Default: baseline.")
@opt.stack(*(click.option(name, type=type(default), default=default, show_default=True,
                          metavar=metavar, help=text) for name, default, metavar, text in _SIZES))
@click.option("--iterations", type=int, metavar="K",
              help="Searches in a row with 'self' in the field (default 4), each against the "
                   "pick of the one before.")
@opt.run_options(out_help="Also write the held-out results (the pick and the start against every "
                          "field member) as a tidy table to FILE: .csv, .json or .parquet.")
@click.option("--trace", metavar="FILE",
              help="Also write the trace (every candidate of every generation, the finalists) as a "
                   "tidy table to FILE: .csv, .json or .parquet.")
@click.option("--chart", metavar="FILE",
              help="Also draw the trace (scores by generation, the pick's held-out score) to FILE: "
                   ".png or .svg.")
@opt.backend_options
def optimize(players: int, knobs: tuple[str, ...], policy: str, vs: tuple[str, ...],
             generations: int, population: int, games: int, elite: float, finalists: int,
             final_games: int, holdout_games: int, iterations: int | None, seed: int | None,
             jobs: int | None, expansion: str, target: int | None, as_json: bool,
             out: str | None, trace: str | None, chart: str | None, scheduler: str | None,
             checkpoint: str | None, resume: bool, restart: bool) -> None:
    """Search a player's knobs for the best chance to win games against a field: a noisy
    cross-entropy method with common random numbers, the pick measured on held-out seeds.

    Each generation's candidates play on the same seeds; the finalists are compared on
    selection seeds, and the pick is reported on seeds never used before, next to the starting
    spec, with 95% intervals. With --vs self the searches run as iterated best response.

    \b
    Examples:
      seasalt optimize --players 2 --vs baseline --seed 1
      seasalt optimize --players 3 --knob stop_at=7..12 --knob last_chance_at=7..14 --seed 2
      seasalt optimize --players 2 --vs self --iterations 4 --games 1000 --seed 3
    """
    from ..studies.optimize import OptimizeSpec, run
    from ..base.progress import ProgressLine
    from ..render.tidy_frames import check_out

    for path in (out, trace):
        if path is not None:
            check_out(path)
    _check_chart(chart)
    backend = opt.backend_of(jobs, scheduler, checkpoint, resume, restart)
    s = OptimizeSpec.build(players, knobs, policy, list(vs) or ["baseline"], generations,
                           population, games, elite, finalists, final_games, holdout_games,
                           iterations, seed, expansion, target, backend)
    def write(result, results, trace_df) -> None:
        """The output files, written before the study's cache journal is deleted."""
        if out is not None:
            write_out(results, out)
        if trace is not None:
            write_out(trace_df, trace)
        if chart is not None:
            from reports.registry import STUDY
            from reports.strategy import save
            try:
                save(STUDY["optimize_trace"].draw(trace_df, results), chart)
            except OSError as e:
                raise SeasaltError(f"--chart {chart!r}: cannot write: {e.strerror or e}; the "
                                   f"finished work is kept: rerun the same command with --resume "
                                   f"--seed {s.seed}") from None
            click.echo(f"wrote {chart}", err=True)

    with ProgressLine("optimize") as progress:
        result, results, trace_df = run(s, progress, write)
    if as_json:
        click.echo(json.dumps(json_safe({**result, "trace": trace_df.drop(
            columns=["law"]).to_dict("records")}), indent=2, allow_nan=False))
    else:
        click.echo(format_optimize(result, trace_df))


def format_optimize(r: dict, trace) -> str:
    field = ", ".join("self" if m == "self" else short_spec(m) for m in r["field"])
    lines = tb.wrap(f"optimize {short_spec(r['policy'])}: {len(r['knobs'])} knob(s) against "
                    f"{field}; {r['players']} players, {r['generations']} generations x "
                    f"{r['population']} candidates x {r['games']:,} games (common random "
                    f"numbers per generation)")
    for f in r["searches"]:
        if r["iterations"] > 1:
            lines += ["", f"search {f['iteration'] + 1} of {r['iterations']}: against "
                          + ", ".join(short_spec(m) for m in f["field"])]
        gens = trace[(trace["iteration"] == f["iteration"]) & (trace["stage"] == "generation")]
        lines += ["", "  generation  centre score [95%]      best candidate [95%]   elite mean"]
        for g, rows in gens.groupby("generation", sort=True):
            centre = rows[rows["centre"]].iloc[0]
            best = rows.loc[rows["score"].idxmax()]
            elite = rows[rows["elite"]]["score"].mean()
            lines.append(f"  {g + 1:>10}  {_ci(centre, 'score'):<22}  {_ci(best, 'score'):<22} "
                         f"{tb.pct(elite):>7}")
        lines += ["", f"  finalists on the selection seeds ({r['final_games']:,} games per field "
                      f"member):"]
        for i, fin in enumerate(f["finalists"]):
            mark = "*" if fin["spec"] == f["pick"] else " "
            lines += tb.wrap_spec(f"  {mark} {tb.pct(fin['score'])} [{tb.pct(fin['score_lo'])}, "
                                  f"{tb.pct(fin['score_hi'])}]  ", short_spec(fin["spec"]))
        lines += [""] + tb.wrap_spec("  pick: ", f["pick_short"])
        lines += tb.wrap(f"  held out (report seed {f['report_seed']}, never used in the "
                         f"search; {r['holdout_games']:,} games per member, seats rotated):")
        cols = [("player", "<", []), ("against", "<", []), ("win rate [95%]", ">", []),
                ("fair", ">", [])]
        for role, rows in (("pick", f["against"]), ("start", f["start_against"])):
            for row in rows:
                cols[0][2].append(role)
                cols[1][2].append(short_spec(row["member"]))
                cols[2][2].append(f"{tb.pct(row['win_rate'])} [{tb.pct(row['win_rate_lo'])}, "
                                  f"{tb.pct(row['win_rate_hi'])}]")
                cols[3][2].append(tb.pct(row["fair_share"]))
        lines += tb.table(cols)
        lines += tb.wrap_spec("  start: ", short_spec(f["start"]))
    if r["settled"] is not None:
        st = r["settled"]
        lines.append("")
        if st["settled"]:
            lines += tb.wrap(f"iterated best response settled at search {st['at'] + 1}: its "
                             f"pick {st['how']}; the policy: {short_spec(st['policy'])}")
        else:
            lines += tb.wrap(f"iterated best response did not settle in {r['iterations']} "
                             f"searches: {st['how']}")
    t = r["timing"]
    lines += [""] + tb.wrap_spec("best: ", r["best"])
    lines += [f"seed {r['seed']}, {r['expansion']} deck, target {r['target']}, seasalt "
              f"{r['version']}",
              f"time {t['seconds']:.1f} s on {t['backend']}"
              + (f" ({t['jobs']} jobs)" if t["jobs"] else "") + f"; {t['stages_run']} stages "
              f"run" + (f", {t['stages_resumed']} resumed from the checkpoint"
                        if t["stages_resumed"] else "")]
    return "\n".join(line.rstrip() for line in lines)


def _ci(row, key: str) -> str:
    return f"{tb.pct(row[key])} [{tb.pct(row[key + '_lo'])}, {tb.pct(row[key + '_hi'])}]"


@click.command()
@click.option("--out", required=True, metavar="DIR",
              help="Guide directory (index.html, PNG + SVG per chart, data/*.csv, guide.json). "
                   "Built aside and moved into place; an existing DIR (. included) must be "
                   "empty or hold only an earlier guide's own files (its .seasalt-guide.json "
                   "lists them): seasalt never deletes a file it did not write.")
@opt.seed(default=1, show_default=True,
          help="Master seed; every study's seed is derived from it (listed in guide.json).")
@click.option("--small", is_flag=True,
              help="Every study at a tiny size (a minute or two; for tests and a first look): the "
                   "numbers then have wide intervals and the words say so.")
@opt.jobs()
@opt.backend_options
def guide(out: str, seed: int, small: bool, jobs: int | None, scheduler: str | None,
          checkpoint: str | None, resume: bool, restart: bool) -> None:
    """An HTML strategy guide: when to STOP and call LAST CHANCE, what cards and pairs are
    worth, void rounds, the first seat, tuned players and iterated best response, draw or
    take, whom to steal from, colours, how rounds end, how much of a game is luck and how 2
    players differ from 4, against baseline and expert opponents, base and Extra Salt, every
    number with its 95% interval.

    \b
    Example:
      seasalt guide --out guide/ --seed 1
    """
    from ..studies.guide import GuideSpec
    from ..base.progress import ProgressLine

    # the options first: the engine loads after
    spec = GuideSpec.build(out, seed, "small" if small else "full",
                           opt.backend_of(jobs, scheduler, checkpoint, resume, restart))
    from ..studies.guide_pages import run
    say = GuideProgress()
    intro = ("seasalt guide: " + ("--small: every study at a tiny size, for tests and a first "
                                  "look (the numbers say little)" if small else
                                  "every study at full size") + "; then the page and charts")
    with ProgressLine("guide") as line:
        say.tty = line.enabled

        def started() -> None:                 # said once the run is under way, so that an
            if intro not in say.said:          # error found before (a checkpoint already
                say.said.add(intro)            # there) stays a one-line message
                say.line(intro)

        def progress(done: int, total: int) -> None:
            started()
            line(done, total)
            say.progress(done, total)

        def log(text: str) -> None:
            started()
            line.close()                       # the charts' lines replace the progress line
            say.chart(text)
        index = run(spec, progress, log)
    click.echo(f"wrote {index}")


class GuideProgress:
    """`seasalt guide`'s lines on stderr: what it runs, then (when stderr is not a terminal,
    where the progress line does not show) a line at every tenth of the work, and one line per
    chart as the page is written; every line within 100 columns."""

    def __init__(self):
        self.tty = False
        self.tenth = -1
        self.charts = 0
        self.said: set[str] = set()

    def line(self, text: str) -> None:
        for part in tb.wrap(text):
            click.echo(part, err=True)

    def progress(self, done: int, total: int) -> None:
        tenth = 10 * done // total if total else 10
        if self.tty or tenth <= self.tenth:
            return
        first = self.tenth < 0
        self.tenth = tenth
        if first and done == 0:
            self.line(f"guide: {total:,} games, rounds and paired deals to play")
        elif first:
            self.line(f"guide: {done:,} of {total:,} already in the checkpoint")
        else:
            self.line(f"guide: {10 * tenth}% of the studies done ({done:,} of {total:,})")

    def chart(self, text: str) -> None:
        if not self.charts:
            self.line("guide: writing the page")
        self.charts += 1
        name = text.split(":", 1)[0]
        self.line(f"  {name}")


@click.command()
@click.option("--players", default="2,3,4", show_default=True, metavar="P[,P...]",
              help="Player counts to train an expert for (one weight vector each).")
@click.option("--generations", default=TrainSpec.generations, show_default=True, type=int,
              metavar="G",
              help="Generations of policy iteration (each the teacher of the next).")
@click.option("--games", default=TrainSpec.games, show_default=True, type=int, metavar="N",
              help="Teacher games per field and generation (self-play split between the base "
                   "game and Extra Salt; against each bot, split between the seats).")
@click.option("--samples", default=TrainSpec.samples, show_default=True, type=int, metavar="K",
              help="The teachers' deals per decision (the search player's samples).")
@click.option("--eval-games", default=TrainSpec.eval_games, show_default=True, type=int,
              metavar="N",
              help="Games measuring each generation against the one before and the baseline.")
@opt.seed(default=TrainSpec.seed, show_default=True,
          help="Seed of every teacher game and measurement.")
@click.option("--out", required=True, metavar="FILE",
              help="The weights file to write (JSON); the shipped one is "
                   "kernels/expert_weights.json in the package.")
@opt.jobs(help="Threads to use. Default: all cores.")
def train(players: str, generations: int, games: int, samples: int, eval_games: int, seed: int,
          out: str, jobs: int | None) -> None:
    """Train the expert player: search players teach it, generation after generation, and
    each generation is measured against the one before (docs/expert.md). The shipped weights
    are this command's defaults; the same seed writes the same file, whatever --jobs.

    \b
    Example (a small run, a few minutes):
      seasalt train --players 2 --generations 1 --games 40 --samples 16 --out weights.json
    """
    import os
    import time

    from pathlib import Path

    from ..rules.expert import WEIGHTS_FILE
    from ..studies.train import run as run_train

    try:
        counts = tuple(int(p) for p in players.split(","))
    except ValueError:
        raise SeasaltError(f"--players takes counts such as 2,3,4, got {players!r}") from None
    spec = TrainSpec.build(players=counts, generations=generations, games=games, samples=samples,
                           eval_games=eval_games, seed=seed, jobs=jobs or os.cpu_count() or 1)
    command = (f"seasalt train --players {players} --generations {generations} --games {games} "
               f"--samples {samples} --eval-games {eval_games} --seed {seed}")
    dest = Path(out)
    if dest.is_dir() or not dest.parent.is_dir() or not os.access(dest.parent or ".", os.W_OK):
        raise SeasaltError(f"--out {out!r}: give a file in an existing, writable folder")
    t0 = time.monotonic()

    def say(text: str) -> None:
        click.echo(f"train [{time.monotonic() - t0:6.0f} s] {text}", err=True)

    text, results = run_train(spec, command, say)
    tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, dest)                  # never a half-written weights file
    same = WEIGHTS_FILE.is_file() and WEIGHTS_FILE.read_text() == text
    click.echo(format_train(results))
    click.echo(f"wrote {out}" + (" (the same as the shipped weights)" if same else ""))


def format_train(results: dict) -> str:
    """Each generation's rows and strength, the shipped one marked, within 100 columns."""
    from ..studies.train import best
    def pct(t) -> str:
        return "-" if t is None else f"{100 * t[0]:.1f}% [{100 * t[1]:.1f}, {100 * t[2]:.1f}]"

    lines = [f"{'players':>7}  {'gen':>3}  {'rows':>9}  {'decisions':>9}  {'CPU s':>6}  "
             f"{'vs previous':<20}  {'vs baseline':<20}"]
    for p, gens in results.items():
        for g in gens:
            mark = " <- shipped" if g is best(gens) else ""
            lines.append(f"{p:>7}  {g.index:>3}  {g.rows:>9,}  {g.decisions:>9,}  "
                         f"{g.seconds:>6.0f}  {pct(g.vs_previous):<20}  {pct(g.vs_baseline):<20}"
                         f"{mark}")
    return "\n".join(lines)


@click.command()
@opt.players(default=2, show_default=True, help="Players per game: 2, 3 or 4.")
@opt.policy(callback=None, is_eager=False,
            help="The field: once for every seat, or once per seat. Default: baseline.")
@click.option("--games", type=int, default=400, show_default=True, metavar="N",
              help="Games reviewed; game g is `seasalt review --seed S+g` with these options.")
@click.option("--seat", type=int, default=0, show_default=True, metavar="Q",
              help="The seat whose decisions are judged.")
@click.option("--samples", type=int, default=500, show_default=True, metavar="N",
              help="Sampled deals per decision (the review's).")
@opt.reading(help="Also weigh each decision's deals by the round's history (as `seasalt review`): "
                  "each opponent read as its own policy by default, as MODEL if given; 'off' "
                  "for the unweighted P(win) only.")
@opt.tremble()
@opt.run_options(out_help="Also write one row per decision (its P(win)s and the game's result) "
                          "to FILE: .csv, .json or .parquet.")
@click.option("--chart", metavar="FILE",
              help="Also draw the reliability diagram to FILE: .png or .svg.")
@opt.checkpoint_options
def calibrate(players: int, policies: tuple[str, ...], games: int, seat: int, samples: int,
              reading: str | None, tremble: float | None, seed: int | None, jobs: int | None,
              expansion: str, target: int | None, as_json: bool, out: str | None,
              chart: str | None, checkpoint: str | None, resume: bool, restart: bool) -> None:
    """Check the advisor's P(win game) against what happens: review many games of a field and
    test its figures as a forecaster is tested (docs/calibration.md).

    At every decision of one seat, the P(win) of the choice made (as `seasalt review` prints
    it, and weighted by the round's history with reading on). An honest P(win) does not move
    on average, within a round or at a new round, and ends where the game does: the study
    gives each step with its 95% interval (clustered by game), the Brier score and the
    reliability table (quoted against won, by tenths).

    \b
    Examples:
      seasalt calibrate --players 2 --games 400 --seed 11
      seasalt calibrate --players 2 --reading off --games 400 --seed 11 --chart rel.png
    """
    from ..base.progress import ProgressLine
    from ..render.tidy_frames import check_out
    from ..render.calibrate_text import format_calibration
    from ..play.calibrate import CalibrateSpec, decision_frame, reliability_figure, run
    if out is not None:
        check_out(out)
    _check_chart(chart)
    spec = CalibrateSpec.build(players, list(policies) or ["baseline"], games, seed, seat,
                               samples, reading or "own", tremble, expansion, target,
                               opt.backend_of(jobs, None, checkpoint, resume, restart))
    with ProgressLine("calibrate") as progress:
        result, journal = run(spec, progress)
    if out is not None:
        write_out(decision_frame(spec, journal.done), out)
    if chart is not None:
        from reports.strategy import save
        try:
            save(reliability_figure(result), chart)
        except OSError as e:
            raise SeasaltError(f"--chart {chart!r}: cannot write: {e.strerror or e}; the games "
                               f"are kept: rerun the same command with --resume") from None
    journal.finish()
    click.echo(json.dumps(json_safe(result), indent=2, allow_nan=False) if as_json
               else format_calibration(result))
