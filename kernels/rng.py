"""Explicit, schedule-independent random streams: xoshiro256** seeded through splitmix64.

A stream is a uint64[4] array carried through the kernels. Block `i` of a run with seed `s`
gets the stream `seed_stream(s, i)`, so results never depend on which thread ran which block.
"""
import numpy as np
from numba import uint64

from .jit import kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@kernel(forceinline=True)
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@kernel
def splitmix64(x):
    """One splitmix64 step: returns (next state, output). Used only to seed streams."""
    x = uint64(x) + _GOLDEN
    z = x
    z = (z ^ (z >> uint64(30))) * _MIX1
    z = (z ^ (z >> uint64(27))) * _MIX2
    return x, z ^ (z >> uint64(31))


@kernel
def seed_stream_into(rng, seed, block):
    """Fill `rng` (uint64[4]) with the stream of (seed, block): splitmix64 over a hash of both."""
    x, h = splitmix64(uint64(seed))
    x = h ^ (uint64(block) * _MIX2)
    for i in range(4):
        x, z = splitmix64(x)
        rng[i] = z


def seed_stream(seed: int, block: int = 0) -> np.ndarray:
    """A fresh uint64[4] stream for (seed, block)."""
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream_into(rng, np.uint64(seed % (1 << 64)), np.uint64(block))
    return rng


@kernel(forceinline=True)
def xoshiro(s0, s1, s2, s3):
    """One xoshiro256** step on a stream held in four words: (s0, s1, s2, s3, output). Kernels
    that draw many numbers keep the stream in locals this way (kernels.fastround)."""
    result = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return s0, s1, s2, s3, result


@kernel(forceinline=True)
def next_u64(rng):
    """xoshiro256**: next 64-bit output, advancing `rng` in place."""
    rng[0], rng[1], rng[2], rng[3], result = xoshiro(rng[0], rng[1], rng[2], rng[3])
    return result


@kernel(forceinline=True)
def scale(x, n):
    """A uniform integer in [0, n) from a 64-bit output x, 1 <= n < 2**32 (Lemire's
    multiply-shift on 32 bits; the bias is below n / 2**32, under 2e-8 for any deck-sized n)."""
    return np.int64(((x >> uint64(32)) * uint64(n)) >> uint64(32))


@kernel(forceinline=True)
def below(rng, n):
    """A uniform integer in [0, n) for 1 <= n < 2**32 (scale of the next output)."""
    return scale(next_u64(rng), n)


@kernel
def shuffle(a, lo, n, rng):
    """Fisher-Yates shuffle of a[lo:lo + n] in place (offsets, not a slice: views cost refcounts)."""
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        t = a[lo + i]
        a[lo + i] = a[lo + j]
        a[lo + j] = t
