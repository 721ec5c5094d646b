"""A counter block's declaration: statistics (`Stat`: what it measures, its kind, bins, per seat
or not) and their offsets in an int64 counter row (`Layout`). Shared by both games' kernels and
imports nothing of either; kernels/statistics.py explains the kinds and names and declares Sea
Salt & Paper's blocks, analyzer/numbers/catalogue.py makes every estimate from them."""
from __future__ import annotations

from dataclasses import dataclass

KINDS = ("count", "rate", "mean", "histogram", "rate_diff")
SEAT_SLOTS = 4         # a per-seat statistic's slots unless it says (Sea Salt & Paper's seats)


@dataclass(frozen=True)
class Stat:
    name: str
    kind: str
    meaning: str
    seats: bool | int = False          # per seat: True, SEAT_SLOTS slots; a number, that many
    bins: int = 1
    labels: tuple | None = None        # a name per bin (None: not shown); default: the index
    of: str = ""                       # denominator statistic (a count); "": the run's count
    squares: bool = True               # mean: sums of squares counted (an interval)
    unit: str = ""
    json: str | None = None
    json_count: str | None = None
    summary: bool = False              # histogram: its n, mean and interval in JSON too
    column: str | None = None
    column_count: str | None = None
    stem: str | None = None
    table: str | None = None           # a table of its own, one row per bin (see tables below)

    @property
    def seat_slots(self) -> int:
        """Its rows: one per seat slot when per seat, else 1."""
        return SEAT_SLOTS if self.seats is True else int(self.seats) or 1

    @property
    def width(self) -> int:
        return self.bins * self.seat_slots

    @property
    def slots(self) -> int:
        two = (self.kind == "mean" and self.squares) or self.kind == "rate_diff"
        return self.width * (2 if two else 1)

    @property
    def interval_stem(self) -> str | None:
        if self.stem is not None or self.column is None:
            return self.stem
        return self.column[:-5] if self.column.endswith("_mean") else self.column

    def label(self, b: int) -> str | None:
        return str(b) if self.labels is None else self.labels[b]


class Layout:
    """Counter offsets of one table of statistics, in declaration order."""

    def __init__(self, name: str, stats: tuple[Stat, ...], start: int = 0):
        self.name = name
        self.stats = stats
        self.by_name = {s.name: s for s in stats}
        assert len(self.by_name) == len(stats), f"{name}: a statistic is declared twice"
        self.offset: dict[str, int] = {}
        at = start
        for s in stats:
            assert s.kind in KINDS, s
            assert not s.of or self.by_name[s.of].kind == "count", s
            self.offset[s.name] = at
            at += s.slots
        self.size = at - start

    def at(self, name: str, part: str = "") -> int:
        """The first slot of `name` (part "sq": a mean's squares; "b": a rate_diff's B-only)."""
        s = self.by_name[name]
        return self.offset[name] + (s.width if part in ("sq", "b") else 0)
