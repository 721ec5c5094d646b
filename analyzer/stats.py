"""Confidence intervals for the estimates seasalt reports (95% unless told otherwise)."""
from __future__ import annotations

import math

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


def mean_ci(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, tuple[float, float]]:
    """Mean and normal-approximation interval from a count, sum and sum of squares."""
    if n <= 0:
        return (math.nan, (math.nan, math.nan))
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return (mean, (mean - half, mean + half))
