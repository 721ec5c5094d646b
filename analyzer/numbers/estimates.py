"""Confidence intervals for the estimates seasalt reports (95% unless told otherwise)."""
from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial rate; (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # Exact ends at 0 and n successes (the formula leaves rounding noise such as 4e-19 there).
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and its standard error from a count, sum and sum of squares (NaN for n = 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    return (mean, math.sqrt(var / n))


def mean_ci(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, tuple[float, float]]:
    """Mean and normal-approximation interval from a count, sum and sum of squares."""
    mean, se = mean_se(total, total_sq, n)
    half = z * se
    return (mean, (mean - half, mean + half))


def stratified(cells: Sequence[tuple[int, float, float]], weights: Sequence[int] | None = None,
               z: float = Z95) -> tuple[float, float, float]:
    """(mean, lo, hi) over strata of fixed sizes, each (n, sum, sum of squares): the strata's
    means weighted by their sizes (or by `weights`), their standard errors combined (a
    stratified estimate)."""
    w = [c[0] for c in cells] if weights is None else list(weights)
    total = sum(w)
    if total == 0:
        return math.nan, math.nan, math.nan
    stats = [mean_se(s, sq, n) for n, s, sq in cells]
    mean = sum(wi * m for wi, (m, _) in zip(w, stats)) / total
    se = math.sqrt(sum((wi / total) ** 2 * e ** 2 for wi, (_, e) in zip(w, stats)))
    return mean, mean - z * se, mean + z * se


def sum_of_means(cells: Sequence[tuple[float, float, int]],
                 z: float = Z95) -> tuple[float, float, float]:
    """(total, lo, hi): the sum of independent means, each from its (sum, sum of squares, n);
    their variances add (the review's total loss over a game's decisions)."""
    stats = [mean_se(s, sq, n) for s, sq, n in cells]
    total = sum(m for m, _ in stats)
    half = z * math.sqrt(sum(e * e for _, e in stats))
    return total, total - half, total + half


def mean_of_rates(successes: Sequence[int], trials: Sequence[int],
                  z: float = Z95) -> tuple[float, float, float]:
    """(mean, lo, hi): the unweighted mean of independent binomial rates (a score over several
    matchups), with a normal interval from their summed variances."""
    rates = [k / n for k, n in zip(successes, trials)]
    m = len(rates)
    mean = sum(rates) / m
    var = sum(r * (1 - r) / n for r, n in zip(rates, trials)) / (m * m)
    half = z * math.sqrt(var)
    return mean, mean - half, mean + half


def paired_rate_diff(only_a: int, only_b: int, n: int,
                     z: float = Z95) -> tuple[float, float, float]:
    """(difference, lo, hi) of two rates measured on the same n cases (pairs): `only_a` cases
    count for A but not B, `only_b` for B but not A. The per-pair difference is -1, 0 or 1; its
    mean and variance come from those two counts (a normal interval for paired proportions)."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    d = (only_a - only_b) / n
    var = max(0.0, (only_a + only_b) / n - d * d) * n / max(1, n - 1)
    half = z * math.sqrt(var / n)
    return d, d - half, d + half


def weighted_mean_ci(w, n, s1, s2, z: float = Z95) -> tuple[float, float, float]:
    """(mean, lo, hi) of observations in buckets of equal weight: bucket i holds n[i]
    observations of weight w[i], their sum s1[i] and sum of squares s2[i] (numpy arrays); a
    normal interval from the weighted mean's variance (the hand reading's importance weights)."""
    total = float((w * n).sum())
    mean = float((w * s1).sum()) / total
    var = float((w * w * (s2 - 2 * mean * s1 + mean * mean * n)).sum()) / total ** 2
    half = z * math.sqrt(max(var, 0.0))
    return mean, mean - half, mean + half


def cluster_mean(sums: Sequence[float], counts: Sequence[float],
                 z: float = Z95) -> tuple[float, float, float]:
    """(mean, lo, hi) of observations grouped in independent clusters (a game's decisions),
    from each cluster's sum and count: the ratio sum/count, its variance the cluster-robust
    (sandwich) one, G/(G-1) * sum_g (S_g - m N_g)^2 / N^2, so that decisions of one game are
    not counted as independent. NaN without observations; no width with one cluster."""
    n = float(sum(counts))
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(sum(sums)) / n
    g = sum(1 for c in counts if c > 0)
    if g < 2:
        return m, math.nan, math.nan
    var = g / (g - 1) * sum((s - m * c) ** 2 for s, c in zip(sums, counts)) / (n * n)
    half = z * math.sqrt(var)
    return m, m - half, m + half


def holds(step: dict) -> bool:
    """Whether a step's 95% interval contains 0 (the martingale check passes; no interval, as
    with one game, does not)."""
    lo, hi = step["ci95"]
    return not (math.isnan(lo) or lo > 0 or hi < 0)
