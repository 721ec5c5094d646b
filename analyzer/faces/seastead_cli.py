"""`seasalt seastead ...`: the Seastead commands (simulate, tournament, replay, report,
components), with the conventions of the Sea Salt & Paper commands: tables or --json, --out
files, seeds, 95% intervals, progress on long runs, --scheduler/--checkpoint/--resume, and one
`error:` line with exit status 2 for bad input (one per problem for a components file)."""
from __future__ import annotations

import json
import sys
import textwrap

import click

from . import options as opt
from .options import backend_options, policy_help
from ..render.output import json_safe as _json_safe, write_out as _write_out
from ..base.errors import SeasaltError
from ..seastead.components import SCHEMA, ComponentsError, Setup, illustrative_text, load

_COMPONENTS_HELP = ("Components file (.toml or .json; see `seasalt seastead components "
                    "--template`). Default: the shipped illustrative set, which is INVENTED.")
_PLAYER_HELP = ("Player, e.g. heuristic, random, denier or \"heuristic(split=1,build_at=3)\": once "
                "for both seats or once per seat (seat 0 starts). Default: heuristic. "
                "'seasalt seastead players' (or --player help) lists them.")


def _player_help(ctx: click.Context, param: click.Parameter, value):
    """--player help: the Seastead players, as `seasalt seastead players` prints them."""
    from ..seastead.players import listing
    return policy_help(ctx, param, value, listing())


def _components(path: str | None):
    """The components set, or every problem of the file on its own `error:` line, exit 2."""
    try:
        return load(path)
    except ComponentsError as e:
        for p in e.problems:
            click.echo(f"error: {' '.join(p.split())}", err=True)
        sys.exit(2)


def _from_file(path: str, build):
    """build(the position file's JSON); each problem of the components file it names on its
    own `error:` line, exit 2."""
    from ..seastead.position import read_position
    try:
        return build(read_position(path))
    except ComponentsError as e:
        for p in e.problems:
            click.echo(f"error: {path} field 'components': {' '.join(p.split())}", err=True)
        sys.exit(2)


def game_options(f):
    """--components, --solo, --sides, --decree."""
    f = click.option("--decree", metavar="NAME",
                     help="Starting decree (B sides; advanced rules). Default: drawn at random.")(f)
    f = click.option("--sides", default="AAAA", show_default=True, metavar="SIDES",
                     help="Side of each flotilla tile, in the components' order: AAAA, BBBB (with "
                          "decrees), or a mix with at least two B.")(f)
    f = click.option("--solo", is_flag=True,
                     help="Solo mode against the Rebel Seastead (A sides, no Depths, decrees or "
                          "solo = false specialists).")(f)
    f = click.option("--components", "components", metavar="FILE", help=_COMPONENTS_HELP)(f)
    return f


def _emit(result: dict, as_json: bool, text: str, out: str | None, df_of) -> None:
    if out is not None:
        _write_out(df_of(result), out)
    click.echo(json.dumps(_json_safe(result), indent=2, allow_nan=False) if as_json else text)


def _check_out(out: str | None) -> None:
    if out is not None:
        from ..render.tidy_frames import check_out
        check_out(out)


@click.group()
def seastead():
    """Seastead (WizKids, 2020), a second game: results describe the components supplied.

    The shipped components are INVENTED (no public source lists the cards); transcribe your
    box with `seasalt seastead components --template > mybox.toml` and use --components.
    """


@seastead.command()
@click.option("--games", type=int, default=10_000, show_default=True, metavar="N")
@click.option("--player", "players", multiple=True, metavar="SPEC", help=_PLAYER_HELP,
              callback=_player_help)
@game_options
@opt.seed(help=opt.RESULT_SEED_HELP)
@opt.jobs(help="Threads (worker processes with --scheduler local). Default: all cores.")
@opt.as_json()
@opt.out(help="Also write one row per seat to FILE (.csv, .json, .parquet), with seed, setup, "
              "components, version.")
@backend_options
def simulate(games, players, components, solo, sides, decree, seed, jobs, as_json, out,
             scheduler, checkpoint, resume, restart):
    """Play N games and report wins, the first player's edge, score by category, end
    triggers, game length and actions, with 95% intervals (solo: the win rate against the Boss).

    \b
    Examples:
      seasalt seastead simulate --games 20000 --seed 1
      seasalt seastead simulate --player heuristic --player denier --sides BBBB --seed 2
      seasalt seastead simulate --solo --player "heuristic(build_at=1)" --json
    """
    from ..base.progress import ProgressLine
    from ..render.seastead_text import format_simulate
    from ..seastead.report import simulate_frame
    from ..seastead.runs import SeasteadRunSpec, run_games

    spec = SeasteadRunSpec.build(games, list(players), seed, _components(components),
                                 Setup(solo, sides, decree),
                                 opt.backend_of(jobs, scheduler, checkpoint, resume, restart))
    _check_out(out)
    with ProgressLine("seastead games") as progress:
        r = run_games(spec, progress)
    _emit(r, as_json, format_simulate(r), out, simulate_frame)


@seastead.command()
@click.option("--player", "players", multiple=True, required=True, metavar="SPEC",
              callback=_player_help,
              help="An entrant (give 2 to 8); 'seasalt seastead players' lists them.")
@click.option("--games", type=int, default=10_000, show_default=True, metavar="N",
              help="Games per pair of entrants, split over both seatings (solo: per entrant).")
@game_options
@opt.seed(help=opt.RESULT_SEED_HELP)
@opt.jobs(help="Threads. Default: all cores.")
@opt.as_json()
@opt.out(help="Also write one row per entrant to FILE.")
@backend_options
def tournament(players, games, components, solo, sides, decree, seed, jobs, as_json, out,
               scheduler, checkpoint, resume, restart):
    """Entrants ranked by win share with 95% intervals: every pair plays N games, half with
    each entrant starting (seating r on a seed derived from (S, 2, r)); with --solo each
    entrant plays N games against the Boss.

    \b
    Example:
      seasalt seastead tournament --player heuristic --player greedy --player denier --seed 1
    """
    from ..base.progress import ProgressLine
    from ..render.seastead_text import format_tournament
    from ..seastead.report import tournament_frame
    from ..seastead.runs import SeasteadTournamentSpec, run_tournament

    spec = SeasteadTournamentSpec.build(list(players), games, seed, _components(components),
                                        Setup(solo, sides, decree),
                                        opt.backend_of(jobs, scheduler, checkpoint, resume,
                                                       restart))
    _check_out(out)
    with ProgressLine("seastead tournament") as progress:
        r = run_tournament(spec, progress)
    _emit(r, as_json, format_tournament(r), out, tournament_frame)


@seastead.command()
@opt.seed(required=True,
          help="The game's seed: game 0 of `seastead simulate --seed S` with the same options.")
@click.option("--player", "players", multiple=True, metavar="SPEC", help=_PLAYER_HELP,
              callback=_player_help)
@game_options
@opt.as_json(help="Print the game as one JSON object.")
@opt.out(help="Also write the events (one row each) to FILE.")
def replay(seed, players, components, solo, sides, decree, as_json, out):
    """One game, action by action: dives and splits, builds and what they paid, docks,
    specialists, ships, bonuses, decrees, the Boss, the end trigger and the scores.

    \b
    Example:
      seasalt seastead replay --seed 7
    """
    from ..render.seastead_text import format_replay
    from ..seastead.replay import SeasteadReplaySpec, run
    from ..seastead.report import replay_frame

    spec = SeasteadReplaySpec.build(seed, list(players), _components(components),
                                    Setup(solo, sides, decree))
    _check_out(out)
    r = run(spec)
    _emit(r, as_json, format_replay(r), out, replay_frame)


@seastead.command()
@click.option("--games", type=int, default=20_000, show_default=True, metavar="N",
              help="Games of the mirror match and of the solo run.")
@click.option("--player", default="heuristic", show_default=True, metavar="SPEC",
              callback=_player_help, help="The player of both seats.")
@click.option("--solo-player", metavar="SPEC", callback=_player_help,
              help="The solo player. Default: --player.")
@click.option("--components", "components", metavar="FILE", help=_COMPONENTS_HELP)
@click.option("--sides", default="AAAA", show_default=True, metavar="SIDES",
              help="Sides of the two-player games.")
@opt.seed(default=1, show_default=True, help="Random seed.")
@opt.jobs(help="Threads. Default: all cores.")
@opt.as_json()
@opt.out(help="Also write the figures (one row each) to FILE.")
def report(games, player, solo_player, components, sides, seed, jobs, as_json, out):
    """The short report: first-player edge, score by category, end triggers, game length and
    solo win rate, each with its 95% interval, for one player against itself and alone.

    \b
    Example:
      seasalt seastead report --games 20000 --seed 1
    """
    from ..base.progress import ProgressLine
    from ..render.seastead_text import format_short_report
    from ..seastead.report import SeasteadReportSpec, report_frame, run

    spec = SeasteadReportSpec.build(games, player, solo_player, seed, _components(components),
                                    sides, opt.backend_of(jobs))
    _check_out(out)
    with ProgressLine("seastead report") as progress:
        rep = run(spec, progress)
    _emit(rep, as_json, format_short_report(rep), out, report_frame)


@seastead.command()
@click.argument("name", required=False, metavar="[NAME]")
@opt.as_json(help="Print the players as JSON.")
def players(name: str | None, as_json: bool) -> None:
    """The Seastead players: every player and preset, or one player's parameters with their
    defaults, ranges and meaning.

    \b
    Examples:
      seasalt seastead players
      seasalt seastead players heuristic
    """
    from ..rules import policy_docs as pd
    from ..seastead.players import listing

    if as_json:
        click.echo(json.dumps(pd.as_json(name, listing()), indent=2))
    else:
        click.echo(pd.detail(name, listing()) if name else pd.overview(listing()))


@seastead.command()
@click.option("--components", "components", metavar="FILE",
              help="Check this file: its summary, or every problem on its own `error:` line "
                   "(exit status 2). Default: the shipped illustrative set.")
@click.option("--template", is_flag=True,
              help="Print a complete, commented components file to copy and fill in (the "
                   "illustrative set, whose values are invented).")
@click.option("--schema", is_flag=True, help="Print the file format as a JSON Schema.")
@opt.as_json(help="Print the checked data as JSON.")
def components(components, template, schema, as_json):
    """Check a components file, or print the template or the schema.

    \b
    Examples:
      seasalt seastead components --template > mybox.toml
      seasalt seastead components --components mybox.toml
    """
    if template + schema + as_json > 1:
        raise SeasaltError("give at most one of --template, --schema and --json")
    if template:
        if components is not None:
            raise SeasaltError("--template prints the shipped file; drop --components")
        click.echo(illustrative_text(), nl=False)
        return
    if schema:
        click.echo(json.dumps(SCHEMA, indent=2))
        return
    comps = _components(components)
    if as_json:
        click.echo(json.dumps({**comps.meta(), "data": comps.data}, indent=2))
        return
    d = comps.data
    groups = {g: sum(1 for c in d["dive"] if c["group"] == g) for g in ("shallows", "shelf", "depths")}
    lines = [f"{comps.source}: valid", f"  {comps.label}",
             f"  dive cards: {len(d['dive'])} ({', '.join(f'{n} {g}' for g, n in groups.items())})",
             f"  flotilla tiles: {', '.join(comps.names('flotilla'))}",
             f"  dock tiles: {len(d['dock'])}; specialists: {len(d['specialist'])} "
             f"({sum(1 for s in d['specialist'] if not s.get('solo', True))} left out in solo); "
             f"decrees: {len(d['decree'])}",
             f"  sha256 {comps.sha256}"]
    lines += textwrap.wrap("setup: " + ", ".join(f"{k} {v}" for k, v in d["setup"].items()),
                           98, initial_indent="  ", subsequent_indent="    ")
    click.echo("\n".join(lines))


@seastead.command()
@click.argument("position", required=False, metavar="FILE")
@click.option("--samples", type=int, default=400, show_default=True, metavar="N",
              help="Redeals of the unseen decks per option (each option is played on the same "
                   "ones).")
@opt.seed(default=1, show_default=True,
          help="Seed of the redeals (the game's own seed is the file's 'seed').")
@click.option("--model", default="heuristic", show_default=True, metavar="SPEC",
              callback=_player_help,
              help="The player every seat is after the option: a heuristic player, e.g. denier "
                   "or \"heuristic(build_at=1)\".")
@click.option("--template", is_flag=True,
              help="Print a commented position file to copy and edit, and exit.")
@opt.as_json(help="Print the advice as one JSON object.")
def advise(position, samples, seed, model, template, as_json):
    """What to choose at the next decision of a Seastead game: every option's P(win game), with
    its 95% interval, when it is played to the end on redeals of what no seat sees.

    FILE is the game so far: its seed, setup and the choices made (`--template` shows one).
    Every kind of decision is answered: the action, a dive's split, wild resources, docks,
    specialists, ships, location effects, spends, moves, demand swaps, decrees, the port bonus.

    \b
    Examples:
      seasalt seastead advise --template > position.json
      seasalt seastead advise position.json --samples 2000 --seed 3
    """
    from ..base.progress import ProgressLine
    from ..render.game_text import game_advice_text
    from ..seastead.advice import SeasteadAdviceSpec, run
    from ..seastead.position import TEMPLATE

    if template:
        if position is not None:
            raise SeasaltError("--template prints a position to start from; drop FILE")
        click.echo(TEMPLATE, nl=False)
        return
    if position is None:
        raise SeasaltError("give a position FILE (start from `seasalt seastead advise "
                           "--template > position.json`)")
    spec = _from_file(position, lambda data: SeasteadAdviceSpec.build(data, samples, seed, model,
                                                                     position))
    with ProgressLine("seastead advice") as progress:
        r = run(spec, progress)
    click.echo(json.dumps(_json_safe(r), indent=2, allow_nan=False) if as_json
               else game_advice_text(r))


@seastead.command()
@opt.seed(help="The game's seed: game 0 of `seastead replay --seed S` with the same options, "
               "played decision by decision by heuristic players.")
@click.option("--player", "players", multiple=True, metavar="SPEC", help=_PLAYER_HELP,
              callback=_player_help)
@game_options
@click.option("--game", "game_file", metavar="FILE",
              help="Review this game instead: a position file of `seastead advise` (its seed, "
                   "setup and choices; `seastead advise --template` shows one).")
@click.option("--seat", "seats", type=int, multiple=True, metavar="Q",
              help="A seat whose decisions are reviewed (repeatable). Default: every seat.")
@click.option("--samples", type=int, default=200, show_default=True, metavar="N",
              help="Redeals per option at each decision (and again for the loss).")
@click.option("--model", default="heuristic", show_default=True, metavar="SPEC",
              callback=_player_help,
              help="The player every seat is after an option: a heuristic player.")
@opt.as_json(help="Print the review as one JSON object.")
def review(seed, players, components, solo, sides, decree, game_file, seats, samples, model,
           as_json):
    """Every decision of a Seastead game against the advice there: the best option by P(win
    game), and what the choice made lost (with its 95% interval).

    \b
    Examples:
      seasalt seastead review --seed 7 --seat 0
      seasalt seastead review --game position.json --samples 400
    """
    from ..base.progress import ProgressLine
    from ..render.seastead_text import seastead_review_text
    from ..seastead.review import SeasteadReviewSpec, bot_game, run
    from ..seastead.table import Game

    if (seed is None) == (game_file is None):
        raise SeasaltError("give the game one way: --seed S (a game of heuristic players) or "
                           "--game FILE")
    if game_file is not None:
        if players or components or solo or sides != "AAAA" or decree:
            raise SeasaltError("--game FILE holds the game's setup and choices: drop --player, "
                               "--components, --solo, --sides and --decree")
        spec = _from_file(game_file, lambda data: SeasteadReviewSpec.build(
            data, seats, samples, model, game_file))
    else:
        from ..rules.limits import check_seed
        comps = _components(components)
        setup = Setup(solo, sides, decree)
        setup.array(comps)
        SeasteadReviewSpec.build(Game(comps, setup, check_seed(seed)), seats, samples, model)
        with ProgressLine("seastead game") as progress:
            progress.status("playing the game")
            game = bot_game(comps, setup, seed, list(players))
        spec = SeasteadReviewSpec.build(game, seats, samples, model, f"game {seed}")
    with ProgressLine("seastead review") as progress:
        r = run(spec, progress)
    click.echo(json.dumps(_json_safe(r), indent=2, allow_nan=False) if as_json
               else seastead_review_text(r))
