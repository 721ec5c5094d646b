"""seasalt from Python: the functions behind the `seasalt` command, under one name.

    import seasalt
    r = seasalt.simulate_rounds(3, 1_000_000, ["baseline(stop_at=8)"], seed=1)
    df = seasalt.sweep(["stop_at=7..14"], vs=["baseline"], players=[2, 3, 4], games=20_000, seed=1)

The code lives in the `analyzer` (runs, players, CLI), `kernels` (the compiled game) and
`reports` (charts) packages; `python -m seasalt` and `python -m analyzer` run the command line.
"""
from analyzer import __version__
from analyzer.advisor import advise
from analyzer.policies import REGISTRY as POLICIES, parse_policy
from analyzer.replay import replay
from analyzer.score import score_hand
from analyzer.simulate import simulate_games, simulate_rounds
from analyzer.sweep import sweep
from analyzer.tournament import tournament

__all__ = ["__version__", "advise", "POLICIES", "parse_policy", "replay", "score_hand",
           "simulate_games", "simulate_rounds", "sweep", "tournament"]
