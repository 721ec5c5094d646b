"""The advisor's evaluation as a Runner batch: what kernels.advisor.evaluate needs for one
decision (Evaluation), its integer sums over samples (Tally), and the batch of samples with its
own driver and block size (AdviseBatch), so that the run layer computes it as any other."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from kernels import advisor as ka
from kernels.advisor import ADVISOR_PAIRED, ADVISOR_STATS

from ..numbers.estimates import mean_ci, wilson
from ..runs.batches import TaskGrid


# ---------------------------------------------------------------------------------------------
# The evaluation: counters summed over samples

@dataclass
class Tally:
    """Integer sums over the samples of an evaluation (kernels.advisor counters)."""
    counts: np.ndarray          # int64[actions, NCOUNTERS]
    cross: np.ndarray           # int64[actions, actions, NCROSS], pairs a < b
    n: int = 0
    raw: int = 0                # raw deals drawn (n + the impossible ones drawn again)
    failed: int = 0             # samples that found no possible deal
    compile_seconds: float = 0.0    # spent compiling kernels during the run (not speed)

    @classmethod
    def empty(cls, na: int) -> "Tally":
        return cls(np.zeros((na, ka.NCOUNTERS), np.int64), np.zeros((na, na, ka.NCROSS), np.int64))

    def count(self, a: int, name: str, part: str = "") -> int:
        """Action a's counter of statistic `name` (kernels.statistics ADVISOR_STATS)."""
        return int(self.counts[a, ADVISOR_STATS.at(name, part)])

    def estimate(self, a: int, name: str) -> dict:
        """Action a's mean ({"mean", "ci95"}) or rate ({"rate", "ci95"}) of statistic `name`."""
        k = self.count(a, name)
        if ADVISOR_STATS.by_name[name].kind == "mean":
            m, ci = mean_ci(float(k), float(self.count(a, name, "sq")), self.n)
            return {"mean": m, "ci95": list(ci)}
        return {"rate": k / self.n if self.n else 0.0, "ci95": list(wilson(k, self.n))}

    def diff_cell(self, a: int, b: int, name: str) -> tuple[float, float, int]:
        """(sum, sum of squares, n) of (value of a - value of b) over the samples (paired), for
        a statistic of ADVISOR_PAIRED."""
        lo, hi = (a, b) if a < b else (b, a)
        return (float(self.count(a, name) - self.count(b, name)),
                float(self.cross[lo, hi, ADVISOR_PAIRED.index(name)]), self.n)

    def diff(self, a: int, b: int, name: str) -> dict:
        """Mean of (value of a - value of b) over the samples, with its 95% interval (paired)."""
        m, ci = mean_ci(*self.diff_cell(a, b, name))
        return {"mean": m, "ci95": list(ci)}


@dataclass
class Evaluation:
    """What the kernel needs for one decision (kernels.advisor.evaluate)."""
    template: np.ndarray
    pool: np.ndarray
    unknown_hand: np.ndarray
    takes: np.ndarray
    seat: int
    actions: list[int]
    pk: np.ndarray
    pp: np.ndarray
    deck: np.ndarray
    target: int
    totals: np.ndarray


# Samples per block of an advise batch (part of its seed plan: block b holds samples
# first + b * ADVISE_BLOCK onwards); a task is 4 blocks.
ADVISE_BLOCK = 256


def run_advise_blocks(template, pool, unknown_hand, takes, seat, actions, pk, pp, deck, target,
                      totals, seed, first, count, block_lo, out):
    """Blocks block_lo .. block_lo + out.shape[0] - 1 of an advise batch into the rows of out
    (kernels.advisor.evaluate; a last partial block separately, so that every row is exactly
    its block). GIL-free: the Runner (analyzer.runs.backends) runs several calls at once on its
    threads."""
    na, nb = actions.shape[0], out.shape[0]
    lo = block_lo * ADVISE_BLOCK
    hi = min((block_lo + nb) * ADVISE_BLOCK, count)
    full = (hi - lo) // ADVISE_BLOCK
    for b0, b1 in ((0, full), (full, nb)):
        if b1 <= b0:
            continue
        s0 = lo + b0 * ADVISE_BLOCK
        n = min(lo + b1 * ADVISE_BLOCK, hi) - s0
        counts = np.zeros((b1 - b0, na, ka.NCOUNTERS), np.int64)
        cross = np.zeros((b1 - b0, na, na, ka.NCROSS), np.int64)
        raw = np.zeros((b1 - b0, 2), np.int64)
        ka.evaluate(template, pool, unknown_hand, takes, seat, actions, pk, pp, deck, target,
                    totals, seed, first + s0, n, counts, cross, raw)
        out[b0:b1] = np.concatenate([counts.reshape(b1 - b0, -1), cross.reshape(b1 - b0, -1),
                                     raw], axis=1)


@dataclass(frozen=True, eq=False)
class AdviseBatch(TaskGrid):
    """Samples first .. first + count - 1 of one evaluation on the streams of `seed`: a Runner
    batch (engine "advise"). Block b holds samples first + b * ADVISE_BLOCK onwards, so the counters
    are the same for any --jobs, backend or task order."""
    ev: Evaluation
    seed: int
    first: int
    count: int
    kind: str = "advise"
    unit: str = "samples"
    engine: str = "advise"
    block = ADVISE_BLOCK

    @property
    def width(self) -> int:
        return counter_width(len(self.ev.actions))

    def driver(self) -> Callable:
        return run_advise_blocks

    def task_blocks(self) -> int:
        return 4

    def args(self) -> tuple:
        ev = self.ev
        return (ev.template, ev.pool, ev.unknown_hand, ev.takes, ev.seat,
                np.array(ev.actions, dtype=np.int64), ev.pk, ev.pp, ev.deck, ev.target,
                ev.totals, np.uint64(self.seed), self.first, self.count)

    def key(self) -> dict:
        ev = self.ev
        return {"kind": self.kind, "seed": self.seed, "first": self.first, "count": self.count,
                "seat": ev.seat, "actions": list(ev.actions), "target": ev.target,
                **{k: np.asarray(getattr(ev, k)).tolist()
                   for k in ("template", "pool", "unknown_hand", "takes", "pk", "pp", "deck",
                             "totals")}}


def counter_width(na: int) -> int:
    """Counters of one block: per action, per pair of actions, then raw deals and failures."""
    return na * ka.NCOUNTERS + na * na * ka.NCROSS + 2


def add_counters(tally: Tally, c: np.ndarray) -> None:
    """Summed block counters (counter_width layout) into a tally."""
    na = tally.counts.shape[0]
    k = na * ka.NCOUNTERS
    tally.counts += c[:k].reshape(tally.counts.shape)
    tally.cross += c[k:k + na * na * ka.NCROSS].reshape(tally.cross.shape)
    tally.raw += int(c[-2])
    tally.failed += int(c[-1])
