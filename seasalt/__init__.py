"""seasalt from Python: the functions behind the `seasalt` command, under one name.

    import seasalt
    r = seasalt.simulate_rounds(3, 1_000_000, ["baseline(stop_at=8)"], seed=1)
    df = seasalt.sweep(["stop_at=7..14"], vs=["baseline"], players=[2, 3, 4], games=20_000, seed=1)
    spec = seasalt.RunSpec.build(players=3, unit="games", count=20_000, seed=7)   # validated once
    r = seasalt.simulate(spec)                      # the command line's own path
    a = seasalt.advise(position, opponent="tuned", samples=20_000, seed=1)   # seasalt advise
    a = seasalt.run_advice(seasalt.AdviceSpec.build(position, robust=True))  # ... its own path
    df, header = seasalt.run(seasalt.TournamentSpec.build(["baseline", "tuned"], games=4000))

Every study has a spec and a run (seasalt.STUDIES): `seasalt.run(spec)` runs any of them, and
each spec class is here by its name (SweepSpec, ReviewSpec, SeasteadRunSpec, ...).

The code lives in the `analyzer` (runs, players, CLI), `kernels` (the compiled game) and
`reports` (charts) packages; `python -m seasalt` and `python -m analyzer` run the command line.
"""
from analyzer import __version__
from analyzer.base.errors import SeasaltError
from analyzer.play.advice_spec import AdviceSpec, advise, run as run_advice
from analyzer.rules.policies import REGISTRY as POLICIES, parse_policy
from analyzer.play.replay import replay
from analyzer.rules.score import score_hand
from analyzer.studies.simulate import run as simulate, simulate_games, simulate_rounds
from analyzer.studies.sweep import sweep
from analyzer.studies.tournament import tournament
from analyzer.runs.spec import Backend, RunSpec
from analyzer.faces.studies import STUDIES, run

_SPECS = {st.spec.split(":")[1]: st for st in STUDIES}


def __getattr__(name: str):
    """A study's spec class by its name (imported when first asked for)."""
    if name in _SPECS:
        return _SPECS[name].spec_class()
    raise AttributeError(f"module 'seasalt' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SPECS})


__all__ = ["__version__", "advise", "AdviceSpec", "Backend", "POLICIES", "parse_policy",
           "replay", "run", "RunSpec", "run_advice", "SeasaltError", "score_hand", "simulate",
           "simulate_games", "simulate_rounds", "STUDIES", "sweep", "tournament",
           *(n for n in _SPECS if n not in ("RunSpec", "AdviceSpec"))]
