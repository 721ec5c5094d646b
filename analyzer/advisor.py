"""Should I call LAST CHANCE here? Evaluate STOP, LAST CHANCE and playing on for a position, on
the same sampled deals (common random numbers), with 95% intervals and a recommendation."""
from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Sequence

import numba
import numpy as np

from kernels import advisor as ka
from kernels import cards as kc

from . import __version__
from .errors import SeasaltError
from .policies import policy_arrays, seat_policies
from .position import Position, describe, parse
from .simulate import max_jobs, new_seed
from .stats import mean_ci, wilson
from .warmup import watching

OPTIONS = ("stop", "last_chance", "play_on")
LABELS = {"stop": "STOP", "last_chance": "LAST CHANCE", "play_on": "play on"}
BATCH = 10_000
DEFAULT_SAMPLES = 100_000
MAX_SAMPLES = 10_000_000


@dataclass
class Advice:
    """The evaluation of one position: per option, estimates with 95% intervals."""
    options: dict[str, dict]
    recommendation: str
    reason: str
    samples: int
    meta: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"recommendation": self.recommendation, "reason": self.reason,
                "samples": self.samples, "options": self.options, **self.meta}

    def frame(self):
        """One row per option (pandas)."""
        import pandas as pd
        rows = []
        for name, o in self.options.items():
            row = {"option": name}
            for key, v in o.items():
                if isinstance(v, dict):
                    row[key] = v["mean"] if "mean" in v else v["rate"]
                    row[key + "_lo"], row[key + "_hi"] = v["ci95"]
                else:
                    row[key] = v
            rows.append(row)
        df = pd.DataFrame(rows)
        for k, v in self.meta.items():
            if not isinstance(v, (dict, list)):
                df[k] = v
        return df


def _summary(block: np.ndarray, target: bool, bet: bool) -> dict:
    """Estimates for one option from its per-sample rows (int64[n, NCOLS])."""
    n = block.shape[0]
    me = block[:, ka.C_ME].astype(np.float64)
    best = block[:, ka.C_BEST].astype(np.float64)
    out = {}
    for key, x in (("points", me), ("best_opponent_points", best), ("margin", me - best)):
        m, ci = mean_ci(float(x.sum()), float((x * x).sum()), n)
        out[key] = {"mean": m, "ci95": list(ci)}
    if bet:
        w = int(block[:, ka.C_WON].sum())
        out["win_bet"] = {"rate": w / n, "ci95": list(wilson(w, n))}
    if target:
        w = int(block[:, ka.C_GAME].sum())
        out["win_game"] = {"rate": w / n, "ci95": list(wilson(w, n))}
    return out


def _half_widths(options: dict) -> list[float]:
    return [(v["ci95"][1] - v["ci95"][0]) / 2 for o in options.values() for k, v in o.items()
            if k in ("win_bet", "win_game")]


def _recommend(options: dict, target: bool) -> tuple[str, str]:
    key = "win_game" if target else "margin"
    stat = "rate" if target else "mean"
    best = max(options, key=lambda k: options[k][key][stat])
    o = options[best]
    others = [k for k in options if k != best]

    def fmt(k):
        v = options[k][key]
        return (f"{100 * v[stat]:.1f}%" if target else f"{v[stat]:+.2f}")
    what = "chance to win the game" if target else "expected lead over the best opponent this round"
    reason = (f"{LABELS[best]} gives the best {what}: {fmt(best)} against "
              + " and ".join(f"{fmt(k)} for {LABELS[k]}" for k in others))
    if best == "last_chance":
        w = o["win_bet"]
        reason += f"; the bet is won {100 * w['rate']:.1f}% of the time"
    return best, reason + "."


@contextmanager
def _threads(n: int):
    """numba's thread count set to n for the block."""
    previous = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def advise(position: dict | Position, samples: int | None = None, precision: float | None = None,
           opponent: str = "baseline", me: str = "baseline", seed: int | None = None,
           jobs: int | None = None, play_on: bool = True, *,
           me_policy: str | None = None) -> Advice:
    """Evaluate a position (a JSON-like dict, see analyzer.position). Give `samples`, or a
    `precision`: sample until every reported probability has a 95% half-width below it.
    `opponent` and `me` are the players' specs, as `--opponent` and `--me` (`me_policy` is the
    old name of `me`)."""
    me_policy = me if me_policy is None else me_policy
    pos = position if isinstance(position, Position) else parse(position)
    if samples is not None and precision is not None:
        raise SeasaltError("give --samples or --precision, not both")
    if precision is None and samples is None:
        samples = DEFAULT_SAMPLES
    if samples is not None and not 1 <= samples <= MAX_SAMPLES:
        raise SeasaltError(f"--samples must be between 1 and {MAX_SAMPLES}, got {samples}")
    if precision is not None and not 0.0005 <= precision <= 0.5:
        raise SeasaltError(f"--precision must be between 0.0005 and 0.5, got {precision}")
    if jobs is not None and not 1 <= jobs <= max_jobs():
        raise SeasaltError(f"--jobs must be between 1 and {max_jobs()} (cores), got {jobs}")
    seed = new_seed() if seed is None else seed
    if not 0 <= seed < 2 ** 64:
        raise SeasaltError(f"--seed must be between 0 and 2**64-1, got {seed}")
    specs = [me_policy if q == pos.seat else opponent for q in range(pos.players)]
    pols = seat_policies(specs, pos.players)
    pk, pp = policy_arrays(pols)
    deck = kc.deck_types(pos.expansion)
    target = pos.target or 0
    totals = pos.totals if pos.totals is not None else np.zeros(4, dtype=np.int64)
    has_target = pos.target is not None

    t0 = time.perf_counter()
    chunks = []
    done = 0
    with watching() as compiling, _threads(jobs or max_jobs()):   # compiling is not speed
        while True:
            n = min(BATCH, samples - done) if samples is not None else BATCH
            out = np.zeros((n, ka.NOPTIONS, ka.NCOLS), dtype=np.int64)
            ka.evaluate(pos.template, pos.pool, pos.unknown_hand, pos.seat, pk, pp, deck, target,
                        totals, np.uint64(seed), done, play_on, out)
            chunks.append(out)
            done += n
            if samples is not None and done >= samples:
                break
            if precision is not None:
                allr = np.concatenate(chunks)
                opts = {name: _summary(allr[:, i], has_target, name == "last_chance")
                        for i, name in enumerate(OPTIONS) if play_on or name != "play_on"}
                if max(_half_widths(opts)) < precision or done >= MAX_SAMPLES:
                    break
    seconds = time.perf_counter() - t0 - compiling.seconds
    allr = np.concatenate(chunks)
    options = {name: _summary(allr[:, i], has_target, name == "last_chance")
               for i, name in enumerate(OPTIONS) if play_on or name != "play_on"}
    best, reason = _recommend(options, has_target)
    meta = {"position": describe(pos), "seed": seed, "opponent": pols[(pos.seat + 1) % pos.players].spec,
            "me_policy": pols[pos.seat].spec, "expansion": pos.expansion, "version": __version__,
            "precision": precision,
            "timing": {"seconds": seconds, "samples_per_second": done / seconds if seconds else None,
                       "jobs": jobs or max_jobs(), "compile_seconds": compiling.seconds}}
    return Advice(options, best, reason, done, meta)


def format_advice(a: Advice) -> str:
    """A readable table (at most 100 columns): one line per option."""
    from .tables import fit, mean_ci, rate_ci, wrap
    probs = [k for k in ("win_bet", "win_game") if any(k in o for o in a.options.values())]
    opts = list(a.options.values())
    cols = [(head, ">", [mean_ci(o[key]["mean"], o[key]["ci95"]) for o in opts])
            for head, key in (("your points", "points"), ("best opponent", "best_opponent_points"),
                              ("margin", "margin"))]
    chances = [("P(bet won)" if k == "win_bet" else "P(game won)", ">",
                [rate_ci(o[k]["rate"], *o[k]["ci95"], 1) if k in o else "-" for o in opts])
               for k in probs]
    # the figure the recommendation maximizes comes first: the game's chance, else the margin
    cols = chances[::-1] + cols if "win_game" in probs else cols + chances
    lines = [*wrap(a.meta["position"]),
             f"{a.samples:,} sampled deals, opponents: {a.meta['opponent']}", ""]
    lines += fit([("option", "<", [LABELS[n] for n in a.options])], cols, indent="")
    lines += [""] + wrap(f"recommendation: {LABELS[a.recommendation]}. {a.reason}")
    lines.append(f"seed {a.meta['seed']}, seasalt {a.meta['version']}, "
                 f"{a.meta['timing']['seconds']:.2f} s")
    return "\n".join(lines)
