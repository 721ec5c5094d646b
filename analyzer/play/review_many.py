"""Several games of one player reviewed at once (`seasalt review --game A --game B`, or a folder
of game files): each game's review (analyzer.play.session.Game.review), then what they say
together: the error rate over all their decisions with a choice and its trend from game to game,
the kinds of decision that cost most, and the luck and skill over the games."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from .. import __version__
from ..base.errors import SeasaltError
from ..numbers.estimates import Z95
from ..runs.spec import Backend, as_backend
from ..render.review_text import TERMS
from .error_scale import place

MAX_GAMES = 1000
LUCK_TERMS = (*TERMS[:-1], "result")      # a game's terms but the residual, and its result


def game_files(paths: Sequence[str]) -> list[str]:
    """The game files named: each path a file, or a folder whose *.json entries are taken in
    name order (name them so that their order is the order they were played); an entry that
    is not a regular file is refused when it is read, as a named one is."""
    out: list[str] = []
    for p in paths:
        if Path(p).is_dir():
            found = sorted(str(f) for f in Path(p).glob("*.json"))   # read (checked) later
            if not found:
                raise SeasaltError(f"{p}: a folder without game files (*.json); give the game "
                                   "files `seasalt serve`'s Play view saves")
            out += found
        else:
            out.append(p)
    if len(out) > MAX_GAMES:
        raise SeasaltError(f"at most {MAX_GAMES:,} games at once, got {len(out):,}; review them "
                           "in parts")
    return out


@dataclass(frozen=True)
class GamesReviewSpec:
    """The user's decisions in one or more game files of the Play view, each reviewed as
    `seasalt review --game FILE` reviews it: the games read and checked when the spec is built
    (a bad file stops before any work), their names, the advisor's samples, the backend and the
    hand reading."""
    games: tuple
    names: tuple[str, ...]
    samples: int = 2000
    backend: Backend = field(default_factory=Backend)
    reading: str = "own"
    tremble: float | None = None

    @classmethod
    def build(cls, paths: Sequence[str], samples: int = 2000, backend: Backend | None = None,
              reading: str = "own", tremble: float | None = None) -> "GamesReviewSpec":
        """Read every file (or folder of files: game_files) and check the options."""
        from ..rules.limits import check_review
        from ..rules.policies import check_tremble
        from .position_input import read_game_file
        check_review(2, 0, samples)
        if tremble is not None:
            check_tremble(tremble)
        files = game_files(paths)
        data = [read_game_file(f) for f in files]
        from .session import Game                # the engine loads once every file is read
        games = tuple(Game.from_file(d, f) for d, f in zip(data, files))
        return cls(games, tuple(files), samples, as_backend(backend), reading, tremble)


def run(spec: GamesReviewSpec, progress: Callable[[int, int], None] | None = None
        ) -> list[dict]:
    """Each game's review, in the order of spec.names (combine says what they say together)."""
    reviews = []
    for i, g in enumerate(spec.games):
        reviews.append(g.review(spec.samples, backend=spec.backend, reading=spec.reading,
                                tremble=spec.tremble))
        if progress is not None:
            progress(i + 1, len(spec.games))
    return reviews


def _var(d: dict) -> float:
    """The variance of an estimate from its 95% interval."""
    return ((d["ci95"][1] - d["ci95"][0]) / (2 * Z95)) ** 2


def _pooled(means: Sequence[float], variances: Sequence[float]) -> dict:
    """The mean of independent estimates, its interval from their variances."""
    n = len(means)
    if n == 0:
        return {"mean": math.nan, "ci95": [math.nan, math.nan], "n": 0}
    m = sum(means) / n
    half = Z95 * math.sqrt(sum(variances)) / n
    return {"mean": m, "ci95": [m - half, m + half], "n": n}


def _across(values: Sequence[float]) -> dict:
    """The mean over games with its normal 95% interval (the games' spread)."""
    n = len(values)
    if n == 0:
        return {"mean": math.nan, "ci95": [math.nan, math.nan], "n": 0}
    m = sum(values) / n
    if n < 2:
        return {"mean": m, "ci95": [math.nan, math.nan], "n": n}
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return {"mean": m, "ci95": [m - Z95 * sd / math.sqrt(n), m + Z95 * sd / math.sqrt(n)],
            "n": n}


def trend(rates: Sequence[float]) -> dict | None:
    """The least-squares slope of the games' error rates against their order (points of P(win)
    per decision, per game), with its 95% interval; None with fewer than 3 games."""
    n = len(rates)
    if n < 3:
        return None
    xm, ym = (n - 1) / 2, sum(rates) / n
    sxx = sum((x - xm) ** 2 for x in range(n))
    b = sum((x - xm) * (y - ym) for x, y in enumerate(rates)) / sxx
    resid = sum((y - ym - b * (x - xm)) ** 2 for x, y in enumerate(rates))
    half = Z95 * math.sqrt(resid / (n - 2) / sxx)
    return {"slope": b, "ci95": [b - half, b + half], "games": n}


def combine(reviews: Sequence[dict], names: Sequence[str]) -> dict:
    """What the reviews say together (module doc), JSON-ready."""
    games, losses = [], []
    for name, r in zip(names, reviews):
        s = r["summary"]
        real = [d for d in r["decisions"] if len(d["options"]) > 1]
        losses += [(d["decision"], d["loss"]["mean"], _var(d["loss"])) for d in real]
        games.append({"file": name, "seed": r["seed"], "players": r["players"],
                      "seat": r["seat"], "over": r["over"], "decisions": len(real),
                      **{k: s[k] for k in ("error_rate", "error_rate_lo", "error_rate_hi")},
                      **({k: s[k] for k in (*LUCK_TERMS, "luck_lo", "luck_hi", "skill_lo",
                                             "skill_hi")} if r.get("luck") else {})})
    kinds = []
    for kind in dict.fromkeys(k for k, _, _ in losses):
        mine = [(m, v) for k, m, v in losses if k == kind]
        kinds.append({"decision": kind, "decisions": len(mine),
                      "total_loss": sum(m for m, _ in mine),
                      "mean_loss": _pooled([m for m, _ in mine], [v for _, v in mine])})
    kinds.sort(key=lambda k: -k["total_loss"])
    over = [g for g in games if "luck" in g]
    rate = _pooled([m for _, m, _ in losses], [v for *_, v in losses])
    return {"version": __version__, "samples": reviews[0]["samples"] if reviews else None,
            "games": games, "error_rate": rate,
            "scale": place(rate["mean"], *rate["ci95"], "baseline") if losses else None,
            "trend": trend([g["error_rate"] for g in games if g["decisions"]]),
            "kinds": kinds,
            "luck_and_skill": {k: _across([g[k] for g in over]) for k in LUCK_TERMS}}


