"""`seasalt warmup`'s steps: each compiles (or loads) the kernels of one command by running it on a
tiny input through the command's own function. The list of commands lives here, with the command
line, so that the run machinery (analyzer.runs.compiling: what compiling costs, when it happens)
knows no command."""
from __future__ import annotations

from typing import Callable

from ..runs.compiling import CompileWatch, watching


# The steps of `seasalt warmup`: each compiles the kernels of one command on a tiny input.
# Baseline seats run kernels.fastround's round (one for the base game, one with Extra Salt), any
# other player the general engine (kernels.batch.run_rounds): each simulate step compiles all three.
def _rounds() -> None:
    from ..runs.spec import WARMUP
    from ..studies.simulate import simulate_rounds
    simulate_rounds(2, 1, seed=0, backend=WARMUP)
    simulate_rounds(2, 1, seed=0, backend=WARMUP, expansion="extra-salt")
    simulate_rounds(2, 1, ["random"], seed=0, backend=WARMUP)


def _games() -> None:
    from ..runs.spec import WARMUP
    from ..studies.simulate import simulate_games
    simulate_games(2, 1, seed=0, backend=WARMUP)
    simulate_games(2, 1, seed=0, backend=WARMUP, expansion="extra-salt")
    simulate_games(2, 1, ["random"], seed=0, backend=WARMUP)


def _score() -> None:
    from ..rules.score import score_hand
    score_hand("mermaid,crab:black", "boat:black,boat:yellow")


def _replay() -> None:
    from ..play.replay import replay
    replay(0, 2, ["baseline"], "base", None)


def _advise() -> None:
    from ..runs.spec import WARMUP
    from ..play.advice_spec import AdviceSpec, run
    from ..play.position_template import EXAMPLE
    run(AdviceSpec.build(EXAMPLE, samples=1, seed=0), WARMUP)


def _review() -> None:
    """review's traced game and both advisors (plain and reading), which advise --reading and
    the page's reading use too, and the reading's fit of each opponent to the models."""
    from ..runs.spec import WARMUP
    from ..play.advice_spec import AdviceSpec, run
    from ..play.position_template import EXAMPLE
    from ..play.review import review
    review(0, 2, samples=2, backend=WARMUP)
    read = dict(EXAMPLE, history=[                      # the example's last two turns
        {"seat": 1, "draw": "deck", "discard": "octopus:grey", "onto": "A"},
        {"seat": 0, "draw": "deck", "discard": "penguin:pink", "onto": "B"}])
    run(AdviceSpec.build(read, samples=1, seed=0), WARMUP)


def _search() -> None:
    from ..runs.spec import WARMUP
    from ..play.replay import replay
    from ..studies.simulate import simulate_rounds
    searcher = ["search(samples=1,continuations=1)", "baseline"]
    simulate_rounds(2, 1, searcher, seed=0, backend=WARMUP)
    replay(0, 2, searcher, "base", None)


def _seastead() -> None:
    from ..runs.spec import WARMUP
    from ..seastead.replay import replay as seastead_replay
    from ..seastead.runs import simulate as seastead_simulate
    seastead_simulate(1, seed=0, backend=WARMUP)
    seastead_simulate(1, ["search(rollouts=1)", "heuristic"], seed=0, backend=WARMUP)
    seastead_replay(0)
    from ..seastead.advice import SeasteadAdviceSpec, run as seastead_advise
    from ..seastead.position import EXAMPLE
    seastead_advise(SeasteadAdviceSpec.build(EXAMPLE, samples=1))
    from ..seastead.components import Setup, load
    from ..seastead.review import SeasteadReviewSpec, bot_game, run as seastead_review
    from ..seastead.table import Game
    g = bot_game(load(), Setup(), 0, ["heuristic"])
    seastead_review(SeasteadReviewSpec.build(Game(g.comps, g.setup, g.seed, g.choices[:3]),
                                             samples=1))


STEPS: list[tuple[str, Callable[[], None]]] = [
    ("simulate --rounds", _rounds), ("simulate --games, sweep, tournament", _games),
    ("score", _score), ("replay", _replay), ("advise", _advise),
    ("review, advise --reading", _review), ("the search player", _search),
    ("seastead", _seastead)]


def warmup(on_step: Callable[[str, float], None] | None = None,
           on_kernel: Callable[[str, float | None], None] | None = None,
           on_begin: Callable[[int, str], None] | None = None) -> CompileWatch:
    """Compile (or load) every kernel the commands use; `on_begin(index, name)` before each step,
    `on_kernel(name, None)` as each kernel starts compiling and `on_kernel(name, seconds)` when
    it is done, `on_step(name, seconds compiling)` after each step. The watch says how long
    compiling took in all."""
    with watching(on_kernel=on_kernel) as watch:
        for i, (name, step) in enumerate(STEPS):
            if on_begin is not None:
                on_begin(i, name)
            before = watch.seconds
            step()
            if on_step is not None:
                on_step(name, watch.seconds - before)
    return watch
