"""`seasalt optimize`: a noisy cross-entropy search over a player's knobs for the best chance to
win whole games against a field, with the final pick measured on held-out seeds.

    result = optimize(players=2, vs=["baseline"], generations=20, population=24, games=2000,
                      seed=1)
    result["best"]          # the canonical spec of the pick

The method (cross-entropy method, CEM, with common random numbers):

* **Space**: knobs of the base policy (`policy`, default threshold), each `PARAM=LO..HI` (whole
  numbers or reals, as the registry says) or `PARAM=V1,V2,...` (a set of values); by default
  every knob of the threshold family with the range of DEFAULT_SPACE.
* **A generation**: `population` candidates are drawn from the current distribution (per knob:
  a normal law rounded and clipped to its range, or probabilities over its values); candidate 0
  is the distribution's centre (mean, or the most likely value). Every candidate plays `games`
  games against each field member (the candidate in one seat, the member in every other, seats
  rotated as in analyzer.studies.rotation) on the generation's seeds, the same for every candidate
  (common random numbers: their differences are less noisy than their separate intervals say).
  The score is the mean outright win rate over the field members.
* **Update**: the best `elite` fraction moves the distribution (smoothed by `SMOOTHING`): means
  and spreads towards the elites', probabilities towards their frequencies, with floors so the
  search never stops exploring.
* **Final pick**: `finalists` specs (the last centre and the best candidates of the last three
  generations) play `final_games` games each on *selection* seeds; the best of them is the pick.
  It is then measured on *report* seeds, never used before, against every field member
  (`holdout_games` games each), next to the starting spec on the same seeds.
* **Field**: a list of specs; `self` stands for the previous pick (iterated best response): with
  `self`, `iterations` searches run one after another, search k against the pick of search k-1
  (the first against the starting spec), each starting from that pick. The sequence, each pick's
  held-out win rate against the one before, and whether it settles (a pick no longer beats its
  predecessor beyond its interval, or repeats an earlier pick) are in the result.

Seeds: everything derives from the master seed S by analyzer.studies.rotation.derive_seed: the sampler
of search k from (S, 0, k), generation g of search k plays on (S, 1, k, g), selection on
(S, 2, k), the report on (S, 3, k); each of these is the master seed of analyzer.studies.rotation's
rotated seatings. The run is a Staged study (analyzer.runs.stages): progress over all of it,
--checkpoint / --resume per generation (and per task inside one) and --scheduler.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field as dc_field
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from .. import __version__
from ..base.errors import SeasaltError
from ..rules.policies import Policy, format_value, parse_policy
from .rotation import (aggregate, default_target, derive_seed, plan_rotations,
                       rotation_runs)
from ..rules.limits import check_count, check_players, check_target, run_seed
from ..runs.batches import Progress
from ..runs.spec import Backend, as_backend
from ..runs.stages import Staged
from ..numbers.estimates import mean_of_rates
from .sweep import parse_number as sweep_number
from ..render.tidy_frames import frame

SELF = "self"
SMOOTHING = 0.7            # weight of the elites in each update
CATEGORY_FLOOR = 0.03      # least probability of any value of a set knob
SPREAD_FLOOR = 0.03        # least spread of a range knob, as a share of its range ...
INTEGER_SPREAD_FLOOR = 0.5  # ... and at least this for whole-number knobs
MAX_POPULATION = 1000
MAX_GENERATIONS = 1000

# Search ranges of the threshold family's knobs (the registry's ranges are the legal ones, much
# wider than any sensible play); a set of values for the switches.
DEFAULT_SPACE: dict[str, str] = {
    "stop_at": "7..16",
    "last_chance_at": "7..20",
    "last_chance_margin": "-5..20",
    "hand_value": "0..3",
    "lc_max_players": "2..4",
    "lc_min_deck": "0..40",
    "take_at": "-2..8",
    "mermaid_bonus": "-2..8",
    "colour_weight": "-2..4",
    "play_fish": "0,1",
    "play_crab": "0,1",
    "play_lobster": "0,1",
    "play_steal": "0,1",
    "play_lock": "0,1",
    "play_boat": "0,1",
    "steal_from": "0,1,2",
    "bury": "0,1",
}
KNOB_HELP = "PARAM=LO..HI or PARAM=V1,V2,..."
_KNOB = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+?)\s*$")
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_LOHI = re.compile(rf"^({_NUM})\s*\.\.\s*({_NUM})$")


@dataclass(frozen=True)
class Knob:
    """One searched parameter: a range [low, high] (whole numbers if `integer`) or a set."""
    name: str
    low: float = 0.0
    high: float = 0.0
    values: tuple[float, ...] = ()
    integer: bool = True

    @property
    def is_set(self) -> bool:
        return bool(self.values)

    def text(self) -> str:
        if self.is_set:
            return f"{self.name}={','.join(format_value(v) for v in self.values)}"
        return f"{self.name}={format_value(self.low)}..{format_value(self.high)}"


def parse_number(text: str, where: str) -> float:
    return sweep_number(text, where, "--knob", KNOB_HELP)


def parse_knob(text: str, base: Policy) -> Knob:
    """`PARAM=LO..HI` or `PARAM=V1,V2,...` for a parameter of `base`'s policy, checked against
    the registry (names, ranges, whole numbers); `PARAM` alone takes DEFAULT_SPACE's range."""
    if "=" not in text and text.strip() in DEFAULT_SPACE:
        text = f"{text.strip()}={DEFAULT_SPACE[text.strip()]}"
    m = _KNOB.match(text)
    if not m:
        raise SeasaltError(f"cannot parse --knob {text!r}; expected {KNOB_HELP}, e.g. "
                           f"stop_at=7..14")
    name, body = m.group(1), m.group(2)
    try:
        p = base.info.param(name)
    except SeasaltError as e:
        raise SeasaltError(f"--knob {text!r}: {e}") from None
    r = _LOHI.match(body)
    if r:
        lo, hi = parse_number(r.group(1), text), parse_number(r.group(2), text)
        if hi <= lo:
            raise SeasaltError(f"--knob {text!r}: HI must be above LO (a single value is not a "
                               f"search; set it in --policy)")
        values: tuple[float, ...] = (lo, hi)
    elif ".." in body:
        raise SeasaltError(f"cannot parse --knob {text!r}; expected {KNOB_HELP}")
    else:
        values = tuple(parse_number(v, text) for v in body.split(","))
        if len(values) < 2:
            raise SeasaltError(f"--knob {text!r}: give at least two values (a single value is "
                               f"not a search; set it in --policy)")
        if len(set(values)) != len(values):
            raise SeasaltError(f"--knob {text!r}: a value is repeated")
    for v in values:
        if not (p.low <= v <= p.high):
            raise SeasaltError(f"--knob {text!r}: {name}={format_value(v)} is out of range for "
                               f"{base.info.name}: valid {format_value(p.low)} to {format_value(p.high)}")
        if p.integer and not float(v).is_integer():
            raise SeasaltError(f"--knob {text!r}: {name} must be a whole number, got {format_value(v)}")
    if r:
        return Knob(name, values[0], values[1], (), p.integer)
    return Knob(name, min(values), max(values), tuple(values), p.integer)


def parse_space(knobs: Sequence[str], base: Policy) -> list[Knob]:
    """The searched knobs: those given, or every knob of DEFAULT_SPACE the policy has."""
    if not knobs:
        knobs = [n for n in DEFAULT_SPACE if n in {p.name for p in base.info.params}]
        if not knobs:
            raise SeasaltError(f"policy {base.info.name!r} has no default search space; give the "
                               f"knobs to search with --knob {KNOB_HELP}")
    out = [parse_knob(k, base) for k in knobs]
    names = [k.name for k in out]
    for n in names:
        if names.count(n) > 1:
            raise SeasaltError(f"--knob {n} is given twice")
    return out


# ---------------------------------------------------------------------------------------------
# the sampling distribution

class Distribution:
    """Independent per-knob laws: normal (mean, spread) for a range, probabilities for a set."""

    def __init__(self, knobs: Sequence[Knob], start: dict[str, float]):
        self.knobs = list(knobs)
        self.mean: dict[str, float] = {}
        self.spread: dict[str, float] = {}
        self.probs: dict[str, np.ndarray] = {}
        for k in self.knobs:
            v = float(start[k.name])
            if k.is_set:
                if v in k.values:
                    p = np.full(len(k.values), 0.4 / max(1, len(k.values) - 1))
                    p[k.values.index(v)] = 0.6
                else:
                    p = np.full(len(k.values), 1 / len(k.values))
                self.probs[k.name] = p / p.sum()
            else:
                self.mean[k.name] = min(max(v, k.low), k.high)
                self.spread[k.name] = (k.high - k.low) / 4

    def _round(self, k: Knob, v: float) -> float:
        v = min(max(v, k.low), k.high)
        return float(round(v)) if k.integer else round(v, 2)

    def centre(self) -> dict[str, float]:
        """The centre: the mean (rounded) of a range, the likeliest value of a set."""
        return {k.name: (float(k.values[int(np.argmax(self.probs[k.name]))]) if k.is_set
                         else self._round(k, self.mean[k.name])) for k in self.knobs}

    def sample(self, rng: np.random.Generator) -> dict[str, float]:
        out = {}
        for k in self.knobs:
            if k.is_set:
                out[k.name] = float(k.values[int(rng.choice(len(k.values), p=self.probs[k.name]))])
            else:
                out[k.name] = self._round(k, rng.normal(self.mean[k.name], self.spread[k.name]))
        return out

    def update(self, elites: Sequence[dict[str, float]]) -> None:
        a = SMOOTHING
        for k in self.knobs:
            xs = np.array([e[k.name] for e in elites], dtype=np.float64)
            if k.is_set:
                freq = np.array([(xs == v).mean() for v in k.values])
                p = (1 - a) * self.probs[k.name] + a * freq
                p = np.maximum(p, CATEGORY_FLOOR)
                self.probs[k.name] = p / p.sum()
            else:
                floor = SPREAD_FLOOR * (k.high - k.low)
                if k.integer:
                    floor = max(floor, INTEGER_SPREAD_FLOOR)
                self.mean[k.name] = (1 - a) * self.mean[k.name] + a * float(xs.mean())
                self.spread[k.name] = max(floor, (1 - a) * self.spread[k.name]
                                          + a * float(xs.std()))

    def describe(self) -> dict[str, object]:
        """The law of every knob (for the trace): mean and spread, or probabilities."""
        out: dict[str, object] = {}
        for k in self.knobs:
            if k.is_set:
                out[k.name] = {format_value(v): round(float(p), 4)
                               for v, p in zip(k.values, self.probs[k.name])}
            else:
                out[k.name] = {"mean": round(self.mean[k.name], 4),
                               "spread": round(self.spread[k.name], 4)}
        return out


# ---------------------------------------------------------------------------------------------
# evaluation

@dataclass(frozen=True)
class OptimizeSpec:
    """Everything an optimize run depends on, validated once (`build`), and its backend."""
    players: int
    base: Policy
    knobs: tuple[Knob, ...]
    field: tuple[str, ...]          # canonical specs, SELF for the previous pick
    generations: int
    population: int
    games: int
    elite: float
    finalists: int
    final_games: int
    holdout_games: int
    iterations: int
    seed: int
    expansion: str
    target: int | None
    backend: Backend = dc_field(default_factory=Backend)

    @property
    def n_elite(self) -> int:
        return max(2, int(round(self.elite * self.population)))

    def key(self) -> dict:
        return {"players": self.players, "policy": self.base.spec,
                "knobs": [k.text() for k in self.knobs], "field": list(self.field),
                "generations": self.generations, "population": self.population,
                "games": self.games, "elite": self.elite, "finalists": self.finalists,
                "final_games": self.final_games, "holdout_games": self.holdout_games,
                "iterations": self.iterations, "seed": self.seed, "expansion": self.expansion,
                "target": self.target}

    @classmethod
    def build(cls, players: int = 2, knobs: Sequence[str] = (), policy: str = "threshold",
              vs: Sequence[str] = ("baseline",), generations: int = 20, population: int = 24,
              games: int = 2000, elite: float = 0.25, finalists: int = 5,
              final_games: int = 20_000, holdout_games: int = 100_000,
              iterations: int | None = None, seed: int | None = None, expansion: str = "base",
              target: int | None = None, backend: Backend | None = None) -> "OptimizeSpec":
        """Validated (SeasaltError for anything a user can get wrong); `backend` (None: Backend())
        also says whether the run resumes: a resumed run names its seed."""
        check_players(players)
        base = parse_policy(policy)
        space = parse_space(list(knobs), base)
        vs = [vs] if isinstance(vs, str) else list(vs)
        field = tuple(SELF if v.strip() == SELF else parse_policy(v, players=players).spec
                      for v in (vs or ["baseline"]))
        if len(set(field)) != len(field):
            raise SeasaltError("a --vs field member is given twice")
        if iterations is None:
            iterations = 4 if SELF in field else 1
        if SELF not in field and iterations != 1:
            raise SeasaltError("--iterations needs 'self' in the field (--vs self): without it "
                               "every search is the same")
        if not 1 <= iterations <= 50:
            raise SeasaltError(f"--iterations must be between 1 and 50, got {iterations}")
        if not 1 <= generations <= MAX_GENERATIONS:
            raise SeasaltError(f"--generations must be between 1 and {MAX_GENERATIONS}, got "
                               f"{generations}")
        if not 4 <= population <= MAX_POPULATION:
            raise SeasaltError(f"--population must be between 4 and {MAX_POPULATION}, got "
                               f"{population}")
        if not 0 < elite < 1 or max(2, int(round(elite * population))) >= population:
            raise SeasaltError(f"--elite must be a fraction between 0 and 1 that leaves some of "
                               f"the --population out, got {elite}")
        if not 1 <= finalists <= population:
            raise SeasaltError(f"--finalists must be between 1 and --population ({population}), "
                               f"got {finalists}")
        backend = as_backend(backend)
        seed = run_seed(seed, backend.resume)
        for n, what in ((games, "games"), (final_games, "final_games"),
                        (holdout_games, "holdout_games")):
            check_count(n, what, players, "one game per seating", 10 ** 9, "10**9")
        check_target(target, players)
        from ..rules.notation import check_expansion
        expansion = check_expansion(expansion)
        return cls(players, base, tuple(space), field, generations, population, games, elite,
                   finalists, final_games, holdout_games, iterations, seed, expansion, target,
                   backend)


def spec_of(base: Policy, values: dict[str, float]) -> str:
    """The canonical spec of `base` with some knobs set."""
    merged = dict(base.values)
    merged.update(values)
    return parse_policy(f"{base.info.name}(" + ",".join(f"{k}={format_value(v)}" for k, v in
                                                        merged.items()) + ")").spec


@dataclass
class Matchups:
    """Specs against field members on one seed: the planned rotations of every pair."""
    specs: list[str]
    members: list[str]
    games: int
    seed: int
    planned: list[list[list]]        # [spec][member] -> planned rotations

    def batches(self) -> list:
        return [r.batch for per in self.planned for rots in per for r in rots]

    def results(self, counters: Sequence[np.ndarray]) -> list[list[dict]]:
        """Per spec, per member: the spec's aggregate (analyzer.studies.rotation.aggregate) in slot 0."""
        out, i = [], 0
        for per in self.planned:
            row = []
            for rots in per:
                runs = rotation_runs(rots, counters[i:i + len(rots)], {})
                i += len(rots)
                p = len(rots)
                row.append(aggregate(runs, [0] + [1] * (p - 1), 2)[0])
            out.append(row)
        return out


def matchups(s: OptimizeSpec, specs: Sequence[str], members: Sequence[str], games: int,
             seed: int) -> Matchups:
    planned = [[plan_rotations([spec] + [m] * (s.players - 1), games, seed, s.expansion,
                               s.target) for m in members] for spec in specs]
    return Matchups(list(specs), list(members), games, seed, planned)


def score(per_member: Sequence[dict]) -> tuple[float, float, float]:
    """The mean outright win rate over the field members, with its 95% interval."""
    return mean_of_rates([r["wins"] for r in per_member], [r["games"] for r in per_member])


# ---------------------------------------------------------------------------------------------
# the run

def planned_games(s: OptimizeSpec) -> int:
    """Games the whole run plays (for progress)."""
    m = len(s.field)
    per_search = (s.generations * s.population * s.games * m + s.finalists * s.final_games * m
                  + 2 * s.holdout_games * m)
    return s.iterations * per_search


def run(s: OptimizeSpec, progress: Progress | None = None,
        write: Callable[[dict, pd.DataFrame, pd.DataFrame], None] | None = None
        ) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """(result, results frame, trace frame) of an optimize run (see the module doc), its stages
    on the spec's backend. `write`
    (the command's output files) runs before the study's cache journal is deleted, so output
    that cannot be written (a full disk) loses no work: the rerun with --resume has it all."""
    describe = {"command": "optimize", "seed": s.seed, "players": s.players}
    staged = Staged(s.key(), describe, planned_games(s), s.backend, progress)
    trace_rows: list[dict] = []
    with staged:
        searches = run_searches(s, staged, trace_rows)
        result = summarize(s, searches, staged.timing())
        out = result, results_frame(s, searches), trace_frame(s, trace_rows)
        if write is not None:
            write(*out)
        staged.finish()
    return out


def run_searches(s: OptimizeSpec, staged: Staged, trace: list[dict]) -> list[dict]:
    """The searches of a run as stages of `staged` (one, or `iterations` with `self`); every
    candidate's row is appended to `trace`."""
    searches = []
    previous = s.base.spec
    for k in range(s.iterations):
        field = list(dict.fromkeys(previous if m == SELF else m for m in s.field))
        found = _search(s, staged, k, field, previous, trace)
        searches.append(found)
        previous = found["pick"]
    return searches


def _search(s: OptimizeSpec, staged: Staged, k: int, field: list[str], start_spec: str,
            trace: list[dict]) -> dict:
    """One CEM search against `field`, starting from `start_spec`; its pick and measurements."""
    start = dict(parse_policy(start_spec).values)
    law = Distribution(s.knobs, start)
    rng = np.random.default_rng(derive_seed(s.seed, 0, k))
    base = s.base
    seen: list[tuple[float, int, str]] = []          # (score, generation, spec) of candidates
    for g in range(s.generations):
        centre = law.centre()
        points = [centre] + [law.sample(rng) for _ in range(s.population - 1)]
        specs = [spec_of(base, pt) for pt in points]
        mu = matchups(s, specs, field, s.games, derive_seed(s.seed, 1, k, g))
        res = mu.results(staged.run(f"search {k} generation {g}", mu.batches()))
        scores = [score(r) for r in res]
        order = sorted(range(len(points)), key=lambda i: (-scores[i][0], i))
        elite = set(order[:s.n_elite])
        law_before = law.describe()
        law.update([points[i] for i in order[:s.n_elite]])
        for i, (pt, spec, sc, r) in enumerate(zip(points, specs, scores, res)):
            trace.append({"iteration": k, "stage": "generation", "generation": g,
                          "candidate": i, "centre": i == 0, "elite": i in elite,
                          "spec": parse_policy(spec).short, "score": sc[0],
                          "score_lo": sc[1], "score_hi": sc[2],
                          "games": sum(x["games"] for x in r), **pt})
            seen.append((sc[0], g, spec))
        trace[-len(points)]["law"] = str(law_before)
    # finalists: the last centre, then the best candidates of the last three generations
    finalists = [spec_of(base, law.centre())]
    recent = sorted((x for x in seen if x[1] >= s.generations - 3), key=lambda x: -x[0])
    for _, _, spec in recent:
        if len(finalists) >= s.finalists:
            break
        if spec not in finalists:
            finalists.append(spec)
    mu = matchups(s, finalists, field, s.final_games, derive_seed(s.seed, 2, k))
    res = mu.results(staged.run(f"search {k} selection", mu.batches()))
    scores = [score(r) for r in res]
    best = max(range(len(finalists)), key=lambda i: (scores[i][0], -i))
    for i, (spec, sc, r) in enumerate(zip(finalists, scores, res)):
        trace.append({"iteration": k, "stage": "selection", "generation": s.generations,
                      "candidate": i, "centre": i == 0, "elite": i == best,
                      "spec": parse_policy(spec).short,
                      "score": sc[0], "score_lo": sc[1], "score_hi": sc[2],
                      "games": sum(x["games"] for x in r),
                      **{kn.name: dict(parse_policy(spec).values)[kn.name] for kn in s.knobs}})
    pick = finalists[best]
    # the report: the pick and the start on seeds never used before
    mu = matchups(s, [pick, start_spec], field, s.holdout_games, derive_seed(s.seed, 3, k))
    res = mu.results(staged.run(f"search {k} report", mu.batches()))
    return {"iteration": k, "field": field, "start": start_spec, "pick": pick,
            "finalists": [{"spec": f, "score": sc[0], "score_lo": sc[1], "score_hi": sc[2]}
                          for f, sc in zip(finalists, scores)],
            "against": res[0], "start_against": res[1],
            "report_seed": derive_seed(s.seed, 3, k)}


def _against(rows: Sequence[dict], members: Sequence[str]) -> list[dict]:
    keys = ("games", "wins", "win_rate", "win_rate_lo", "win_rate_hi", "fair_share",
            "win_share", "win_share_lo", "win_share_hi")
    return [{"member": m, **{k: r[k] for k in keys}} for m, r in zip(members, rows)]


def summarize(s: OptimizeSpec, searches: list[dict], timing: dict) -> dict:
    """The JSON-ready result of a run's searches."""
    fair = 1 / s.players
    out_searches = []
    for f in searches:
        sc = score(f["against"])
        st = score(f["start_against"])
        out_searches.append({
            "iteration": f["iteration"], "field": f["field"], "start": f["start"],
            "pick": f["pick"], "pick_short": parse_policy(f["pick"]).short,
            "finalists": f["finalists"], "report_seed": f["report_seed"],
            "score": {"rate": sc[0], "ci95": [sc[1], sc[2]]},
            "start_score": {"rate": st[0], "ci95": [st[1], st[2]]},
            "against": _against(f["against"], f["field"]),
            "start_against": _against(f["start_against"], f["field"]),
        })
    settled = None
    if SELF in s.field and len(searches) > 1:
        settled = settle(out_searches, fair)
    return {
        "command": "optimize", "seed": s.seed, "players": s.players, "expansion": s.expansion,
        "target": default_target(s.players, s.target), "policy": s.base.spec,
        "knobs": [k.text() for k in s.knobs], "field": list(s.field),
        "generations": s.generations, "population": s.population, "games": s.games,
        "elite": s.elite, "finalists": s.finalists, "final_games": s.final_games,
        "holdout_games": s.holdout_games, "iterations": s.iterations,
        "best": searches[-1]["pick"], "best_short": parse_policy(searches[-1]["pick"]).short,
        "searches": out_searches, "settled": settled, "version": __version__,
        "timing": timing,
    }


def settle(searches: Sequence[dict], fair: float) -> dict:
    """Whether iterated best response settled: the first search whose pick does not beat the
    previous pick beyond its 95% interval (its win rate interval reaches the fair share), or
    whose pick repeats an earlier one."""
    picks = [searches[0]["start"]] + [f["pick"] for f in searches]
    for i, f in enumerate(searches):
        if f["pick"] in picks[:i + 1]:
            return {"settled": True, "at": i, "how": "repeats an earlier pick",
                    "policy": f["pick"]}
        row = previous_row(f)
        if row is not None and row["win_rate_lo"] <= fair:
            return {"settled": True, "at": i, "how": "no longer beats the previous pick beyond "
                    "its 95% interval", "policy": f["start"]}
    return {"settled": False, "at": None, "how": "every pick beat the one before beyond its "
            "95% interval", "policy": None}


def previous_row(search: dict) -> dict | None:
    """The held-out row of a search's pick against the previous pick (the `self` member)."""
    for r in search["against"]:
        if r["member"] == search["start"]:
            return r
    return None


def results_frame(s: OptimizeSpec, searches: list[dict]) -> pd.DataFrame:
    """Held-out rows: per search, the pick and the start against every field member."""
    rows = []
    for f in searches:
        for role, spec, res in (("pick", f["pick"], f["against"]),
                                ("start", f["start"], f["start_against"])):
            for m, r in zip(f["field"], res):
                rows.append({"iteration": f["iteration"], "role": role, "spec": spec,
                             "member": m, "report_seed": f["report_seed"],
                             **{k: r[k] for k in ("games", "wins", "win_rate", "win_rate_lo",
                                                  "win_rate_hi", "fair_share", "win_share",
                                                  "win_share_lo", "win_share_hi")}})
    return frame(rows, _meta(s))


def trace_frame(s: OptimizeSpec, rows: list[dict]) -> pd.DataFrame:
    """Trace rows: every candidate of every generation, then the finalists."""
    for r in rows:
        r.setdefault("law", "")
    return frame(rows, _meta(s))


def _meta(s: OptimizeSpec) -> dict:
    return {"command": "optimize", "seed": s.seed, "players": s.players,
            "expansion": s.expansion, "target": default_target(s.players, s.target),
            "policy": s.base.spec, "version": __version__}


def optimize(players: int = 2, knobs: Sequence[str] = (), policy: str = "threshold",
             vs: Sequence[str] = ("baseline",), generations: int = 20, population: int = 24,
             games: int = 2000, elite: float = 0.25, finalists: int = 5,
             final_games: int = 20_000, holdout_games: int = 100_000,
             iterations: int | None = None, seed: int | None = None,
             backend: Backend | None = None, expansion: str = "base", target: int | None = None,
             progress: Progress | None = None) -> dict:
    """Run the optimizer (see the module doc) on `backend` (None: Backend()); the result dict,
    with `frames` (results, trace)."""
    s = OptimizeSpec.build(players, knobs, policy, vs, generations, population, games, elite,
                           finalists, final_games, holdout_games, iterations, seed, expansion,
                           target, backend)
    result, results, trace = run(s, progress)
    result["frames"] = {"results": results, "trace": trace}
    return result
