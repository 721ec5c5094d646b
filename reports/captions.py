"""Words for estimates that never claim more than their 95% intervals allow.

    rank([Estimate("7", .336, .330, .343), Estimate("10", .340, .333, .346)], "win rate")
    # '7 and 10 are tied at this precision (win rate 34.0% [33.3, 34.6] and 33.6% [33.0, 34.3];
    #  the 95% intervals overlap)'

* `rank`: the leader is named ("X is best") only when its interval lies above every other
  interval; otherwise every estimate whose interval overlaps the leader's is listed as tied.
* `difference`: a paired or separate difference with its interval: a direction ("worth
  +1.09 points") only when the interval excludes 0, else "no difference detected".
* `versus`: one estimate against a reference value (a fair share, a target): above, below, or
  not distinguishable from it.

Pure text from numbers: no engine, no pandas needed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence


@dataclass(frozen=True)
class Estimate:
    """A labelled estimate with its 95% interval (and optionally its sample size)."""
    label: str
    value: float
    lo: float
    hi: float
    n: int | None = None


def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def pct_ci(e: Estimate, digits: int = 1) -> str:
    return f"{pct(e.value, digits)} [{100 * e.lo:.{digits}f}, {100 * e.hi:.{digits}f}]"


def num_ci(e: Estimate, digits: int = 2, sign: bool = False) -> str:
    v = f"{e.value:+.{digits}f}" if sign else f"{e.value:.{digits}f}"
    return f"{v} [{e.lo:+.{digits}f}, {e.hi:+.{digits}f}]" if sign else \
        f"{v} [{e.lo:.{digits}f}, {e.hi:.{digits}f}]"


def overlap(a: Estimate, b: Estimate) -> bool:
    """Whether two 95% intervals overlap (the estimates are tied at this precision)."""
    return a.lo <= b.hi and b.lo <= a.hi


def join_words(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def tied_with_leader(estimates: Sequence[Estimate], higher: bool = True) -> list[Estimate]:
    """The leader (highest, or lowest if not `higher`) first, then every estimate whose interval
    overlaps the leader's, in order of value."""
    order = sorted(estimates, key=lambda e: -e.value if higher else e.value)
    lead = order[0]
    return [lead] + [e for e in order[1:] if overlap(lead, e)]


def rank(estimates: Sequence[Estimate], what: str, higher: bool = True,
         fmt: Callable[[Estimate], str] = pct_ci, subject: str = "") -> str:
    """One sentence about which estimate leads: "X is best" only when it is clear of all the
    others; "X, Y and Z are tied at this precision" when intervals overlap."""
    if not estimates:
        return f"no {what} to compare"
    head = f"{subject}: " if subject else ""
    if len(estimates) == 1:
        e = estimates[0]
        return f"{head}{e.label}: {what} {fmt(e)}"
    tied = tied_with_leader(estimates, higher)
    order = sorted(estimates, key=lambda e: -e.value if higher else e.value)
    word = "best" if higher else "lowest"
    if len(tied) == 1:
        lead, second = order[0], order[1]
        return (f"{head}{lead.label} is {word} ({what} {fmt(lead)}), clear of the next, "
                f"{second.label} ({fmt(second)})")
    shown = tied[:6]
    more = f" and {len(tied) - len(shown)} more" if len(tied) > len(shown) else ""
    return (f"{head}{join_words([e.label for e in shown])}{more} are tied at this precision "
            f"({what} {join_words([fmt(e) for e in shown])}; the 95% intervals overlap)")


def difference(e: Estimate, what: str, unit: str = "", digits: int = 2,
               percent: bool = False) -> str:
    """A difference with its interval: signed words only when the interval excludes 0."""
    if percent:
        d = max(0, digits - 1)
        text = (f"{100 * e.value:+.{d}f} percentage points [{100 * e.lo:+.{d}f}, "
                f"{100 * e.hi:+.{d}f}]")
    else:
        text = num_ci(e, digits, sign=True) + (f" {unit}" if unit else "")
    if e.lo > 0:
        return f"{e.label}: {what} up by {text}"
    if e.hi < 0:
        return f"{e.label}: {what} down by {text}"
    return f"{e.label}: no difference in {what} detected at this precision ({text})"


def versus(e: Estimate, reference: float, what: str, ref_name: str,
           fmt: Callable[[Estimate], str] = pct_ci) -> str:
    """An estimate against a reference value (a fair share, a target)."""
    if e.lo > reference:
        rel = f"above {ref_name}"
    elif e.hi < reference:
        rel = f"below {ref_name}"
    else:
        rel = f"not distinguishable from {ref_name}"
    return f"{e.label}: {what} {fmt(e)}, {rel} ({pct(reference)})"
