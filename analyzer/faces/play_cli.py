"""The commands of one game at a time: `seasalt replay`, `advise`, `serve` and `review`
(registered by analyzer.faces.cli). Thin shells over analyzer.play (replay, advisor, robust,
review, session) and the web page (analyzer.faces.web)."""
from __future__ import annotations

import json
from pathlib import Path

import click

from . import options as opt
from ..base.errors import SeasaltError
from ..render.output import json_safe, write_out
from ..runs.batches import check_jobs


# ---------------------------------------------------------------------------------------------
# replay

@click.command()
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
    if game_path is not None:
        if seed is not None or players is not None or policies or target is not None:
            raise SeasaltError("--game FILE gives the game: leave out --seed, --players, "
                               "--policy and --target")
    elif seed is None or players is None:
        raise SeasaltError("give --seed and --players (or --game FILE)")
    if out is not None:
        from ..render.tidy_frames import check_out
        check_out(out)
    if game_path is not None:
        from ..play.position_input import read_game_file
        data = read_game_file(game_path)           # before the engine loads: a bad file is quick
        from ..play.session import Game
        r = Game.from_file(data, game_path).record()
    else:
        from ..play.game_spec import ReplaySpec
        spec = ReplaySpec.build(players, list(policies) or ["baseline"], seed, expansion, target)
        from ..play.replay import run
        r = run(spec)
    from ..play.replay import replay_frame
    from ..render.replay_text import format_replay
    if out is not None:
        write_out(replay_frame(r), out)
    from ..render.text_tables import wrap_text
    click.echo(json.dumps(json_safe(r), indent=2, allow_nan=False) if as_json else
               wrap_text(format_replay(r)))


# ---------------------------------------------------------------------------------------------
# advise

@click.command()
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
              help="Ask several models: opponents baseline, tuned, gambler, denier and expert, "
                   "you baseline, tuned and expert (where --opponent or --me names none), 20000 "
                   "samples "
                   "each unless --samples; one line per model and a verdict.")
@opt.seed(help="Random seed. Default: fresh, printed.")
@opt.jobs(help=opt.THREADS_HELP)
@click.option("--no-play-on", "no_play_on", is_flag=True,
              help="At the play step, leave out ending the turn (faster).")
@opt.reading()
@opt.tremble()
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
        from ..play.position_template import TEMPLATE
        click.echo(TEMPLATE, nl=False)
        return
    if position is None:
        raise SeasaltError("give a POSITION file (or - for standard input); seasalt advise "
                           "--template prints one to start from")
    from ..play.advice_spec import AdviceSpec, run
    from ..play.position_input import load
    pos = load(position)                     # file and options checked before the engine loads
    backend = opt.backend_of(jobs)
    spec = AdviceSpec.build(pos, opponent, me, robust, reading, tremble, samples, precision, seed,
                            not no_play_on)
    from ..base.progress import ProgressLine
    from ..render.advice_text import advice_text
    with ProgressLine("advise") as progress:
        result = run(spec, backend, progress)
    if as_json:
        click.echo(json.dumps(json_safe(result.to_dict()), indent=2, allow_nan=False))
    else:
        click.echo(advice_text(result))


# ---------------------------------------------------------------------------------------------
# serve: the advisor in a browser (analyzer/faces/web)

@click.command()
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

@click.command()
@opt.seed(help="The game's seed (the game of `seasalt replay --seed S` with the same options).")
@opt.players()
@opt.policy(callback=None, is_eager=False,
              help="Player policy: once for every seat, or once per seat. Default: baseline.")
@click.option("--replay", "replay_path", metavar="FILE",
              help="Review the game of a `seasalt replay --json` file instead (its seed, players, "
                   "policies, expansion and target; its events are checked).")
@click.option("--game", "game_paths", metavar="FILE", multiple=True,
              help="Review the user's decisions in a game of `seasalt serve`'s Play view (its "
                   "game file) instead. Several --game, or a folder of game files, are "
                   "reviewed together: each game's line, the error rate over them and its trend, "
                   "the costliest kinds of decision, luck and skill.")
@click.option("--seat", type=int, default=0, show_default=True, metavar="Q",
              help="The seat whose decisions are reviewed.")
@click.option("--samples", type=int, default=2000, show_default=True, metavar="N",
              help="Sampled deals per decision.")
@opt.expansion()
@opt.target()
@opt.jobs(help=opt.THREADS_HELP)
@opt.reading(help="Also read the opponents' hands at every decision from the round so far "
                  "(analyzer/play/reading.py): the advisor's choice with the deals weighted by "
                  "how likely MODEL makes the choices seen, where it differs. Default: each "
                  "opponent read as its own policy; 'off' to leave it out.")
@opt.tremble()
@opt.as_json(help="Print the review as one JSON object.")
@opt.out(help="Also write one row per decision to FILE: .csv, .json or .parquet.")
def review(seed: int | None, players: int | None, policies: tuple[str, ...],
           replay_path: str | None, game_paths: tuple[str, ...], seat: int, samples: int,
           expansion: str, target: int | None, jobs: int | None, reading: str | None,
           tremble: float | None, as_json: bool, out: str | None) -> None:
    """A game reviewed as a chess engine reviews one: at every decision of one seat, what the
    advisor would choose from what that seat knew, and what the choice made cost in the chance
    to win the game (with its 95% interval); then the seat's costliest decisions.

    \b
    Examples:
      seasalt review --seed 7 --players 2 --seat 0
      seasalt replay --seed 7 -p 3 --json > game.json; seasalt review --replay game.json --seat 2
      seasalt review --game seasalt-game-7.json
      seasalt review --game my-games/
    """
    from ..base.progress import ProgressLine
    from ..play.replay_file import load_replay
    check_jobs(jobs)     # before a --replay FILE is read
    game = None
    if game_paths:
        if seed is not None or players is not None or policies or target is not None or \
                replay_path is not None or seat != 0:
            raise SeasaltError("--game FILE gives the game and the seat reviewed (the user's): "
                               "leave out --seed, --players, --policy, --target, --replay and "
                               "--seat")
        if out is not None:
            from ..render.tidy_frames import check_out
            check_out(out)
        from ..play.review_many import GamesReviewSpec, run as review_games
        spec = GamesReviewSpec.build(game_paths, samples, opt.backend_of(jobs), reading or "own",
                                     tremble)
        with ProgressLine("review") as progress:
            reviews = review_games(spec, progress)
        if len(game_paths) > 1 or Path(game_paths[0]).is_dir():
            _emit_many(reviews, list(spec.names), as_json, out)
            return
        from ..play.review import review_frame
        from ..render.review_text import format_review
        if out is not None:
            write_out(review_frame(reviews[0]), out)
        click.echo(json.dumps(json_safe(reviews[0]), indent=2, allow_nan=False) if as_json
                   else format_review(reviews[0]))
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
        from ..render.tidy_frames import check_out
        check_out(out)
    from ..play.game_spec import ReviewSpec
    spec = ReviewSpec.build(players, list(policies) or ["baseline"], seed, seat, samples,
                            expansion, target, opt.backend_of(jobs), reading or "own", tremble,
                            game)
    from ..play.review import review_frame, run
    from ..render.review_text import format_review
    with ProgressLine("review") as progress:
        r = run(spec, progress)
    if out is not None:
        write_out(review_frame(r), out)
    click.echo(json.dumps(json_safe(r), indent=2, allow_nan=False) if as_json else format_review(r))


def _emit_many(reviews: list[dict], names: list[str], as_json: bool, out: str | None) -> None:
    """`seasalt review --game A --game B` (or --game DIR): what the games say together."""
    from ..play.review import review_frame
    from ..play.review_many import combine
    from ..render.review_text import format_many
    c = combine(reviews, names)
    if out is not None:
        import pandas as pd
        write_out(pd.concat([review_frame(r).assign(file=n) for r, n in zip(reviews, names)],
                            ignore_index=True), out)
    click.echo(json.dumps(json_safe(c), indent=2, allow_nan=False) if as_json
               else format_many(c))
