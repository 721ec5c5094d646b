"""The advisor with hand reading (analyzer.play.reading): the advisor's samples (kernels.advisor)
sorted by their number of mismatches under a reading model (kernels.reading). Apart from
kernels/reading.py so that an edit of the advisor recompiles this file only, never the search
player (which reads hands too)."""
import numpy as np
from .jit import njit

from .advisor import W_SIZE, deal_position, evaluate
from .reading import OBS_SIZE, STACK_SIZE, bucket, mismatches, observe
from .rng import seed_stream_into
from .state import STATE_SIZE

# One sample per call, typed int64 as the advisor's own calls pass it: a literal 1 would compile
# kernels.advisor.evaluate a second time (about 10 CPU-seconds of a cold warmup).
ONE = np.int64(1)


@njit(cache=True, nogil=True)
def evaluate_read(template, pool, unknown_hand, takes, me, actions, pk, pp, deck, target, totals,
                  seed, first, n, tr, rk, rp, counts, cross, raw, nb):
    """kernels.advisor.evaluate for samples first .. first + n - 1, each sample's counters
    summed into the bucket m of its reading cost under the reading model rk/rp
    (kernels.reading.bucket; counts[m], cross[m], raw[m]; nb[m] counts the samples): the deal of
    sample i is drawn exactly as evaluate draws it (the stream (seed, i),
    kernels.advisor.deal_position) and then evaluated by evaluate itself, so the sum over the
    buckets is evaluate's own tally and the weighted tally (kernels.reading.bucket_weights,
    analyzer.play.reading) costs one more deal per sample. Integer sums: the same for any split
    of the samples."""
    obs = np.zeros(OBS_SIZE, dtype=np.int64)
    observe(template, tr, me, obs)
    d = np.empty(STATE_SIZE, dtype=np.int32)
    v = np.empty(STATE_SIZE, dtype=np.int32)
    w = np.zeros(W_SIZE, dtype=np.int64)
    stack = np.zeros(STACK_SIZE, dtype=np.int64)
    rng = np.empty(4, dtype=np.uint64)
    scratch = np.zeros(4, dtype=np.uint64)
    for i in range(first, first + n):
        seed_stream_into(rng, seed, i)
        m = 0
        if deal_position(d, template, pool, unknown_hand, takes, w, rng) > 0:
            m = bucket(mismatches(d, me, tr, obs, rk, rp, v, stack, scratch))
        nb[m] += 1
        evaluate(template, pool, unknown_hand, takes, me, actions, pk, pp, deck, target, totals,
                 seed, i, ONE, counts[m:m + 1], cross[m:m + 1], raw[m:m + 1])


@njit(cache=True, nogil=True)
def read_buckets(template, pool, unknown_hand, takes, me, seed, first, n, tr, rks, rps, out):
    """The reading-cost bucket (kernels.reading.bucket) of samples first .. first + n - 1, each
    drawn as evaluate draws it, under each model j (kinds rks[j], parameters rps[j]):
    out[i - first, j]; -1 for a sample with no possible deal. What analyzer.play.reading's
    model fit weighs: how well each model explains the same choices on the same deals."""
    obs = np.zeros(OBS_SIZE, dtype=np.int64)
    observe(template, tr, me, obs)
    d = np.empty(STATE_SIZE, dtype=np.int32)
    v = np.empty(STATE_SIZE, dtype=np.int32)
    w = np.zeros(W_SIZE, dtype=np.int64)
    stacks = np.zeros((rks.shape[0], STACK_SIZE), dtype=np.int64)     # one table per model
    rng = np.empty(4, dtype=np.uint64)
    scratch = np.zeros(4, dtype=np.uint64)
    for i in range(first, first + n):
        seed_stream_into(rng, seed, i)
        if deal_position(d, template, pool, unknown_hand, takes, w, rng) > 0:
            for j in range(rks.shape[0]):
                out[i - first, j] = bucket(mismatches(d, me, tr, obs, rks[j], rps[j], v,
                                                      stacks[j], scratch))
        else:
            for j in range(rks.shape[0]):
                out[i - first, j] = -1
