"""The statistics catalogue: every statistic a batch run counts, declared once.

Each `Stat` says what it measures (one line), its kind, whether it has one value per seat, its
bins (categories or histogram values) and what it is a rate or mean *of*. The kernels' counter
layouts (kernels.batch R_*/G_*, kernels.game GS_*) are generated from these tables the way the
card arrays are generated from kernels.cards; analyzer.numbers.catalogue turns summed counters into
estimates (value, interval, n) and names them in JSON, tidy frames and tables from the same
entries. Adding a statistic: an entry here, the line of kernel code that counts it, and (for a
report table) a line in reports.registry.

Kinds and their counter slots (`width` = bins, times MAX_PLAYERS when per seat):
- count: how many times (width slots).
- rate: how many of `of` (a count statistic, bin by bin; default: the run's rounds or games)
  had the event (width slots); Wilson interval.
- mean: sum and sum of squares of a value over `of` (2 x width slots; `squares=False`: the sum
  only, a mean without interval); normal interval.
- histogram: how many observations had each value 0 .. bins-1 (larger values in the last bin).
- rate_diff: the difference of two rates on the same cases (paired): how many of `of` counted
  for A and not B, then for B and not A (2 x width slots); normal interval for paired rates.

Naming (legacy JSON keys and columns are kept exactly): `json` is the estimate's key (a rate:
{"rate", "ci95"}; a mean: `json`_mean and `json`_ci95; a histogram: `json`_hist, and with
`summary` its n, mean and interval), `json_count` the key of the raw counts; `column` the
estimate's column in tidy frames (its interval in `stem`_lo, `stem`_hi; stem: the column
without a trailing _mean), `column_count` the counts' column. `{}` in a name is a bin's label.
Statistics with a `table` form a table of their own, one row per bin (tidy frames, --table).

Stat and Layout live in kernels/layouts.py (no game's files imported). The counter blocks of the
other drivers are declared with them next to the kernel that counts them, so that an edit of one
recompiles only that driver (kernels/__init__.py: a kernel is cached by the files it imports):
PAIRED_STATS in kernels/paired.py, ADVISOR_STATS and ADVISOR_PAIRED in kernels/advisor.py,
Seastead's STATS in kernels/seastead/batch.py.
"""
from __future__ import annotations

from dataclasses import dataclass

from .actions import PAIR_NAMES
from .layouts import KINDS, SEAT_SLOTS, Layout, Stat
from .state_layout import END_NAMES, MAX_PLAYERS, PLAYED_WIDTH, TRIO_SLOT

assert SEAT_SLOTS == MAX_PLAYERS, "a per-seat statistic has a slot for every seat"
__all__ = ["KINDS", "Layout", "Stat", "Table", "ROUND_STATS", "GAME_ROUND_STATS", "GAME_STATS",
           "G_STATS", "GAME_SIZE", "ROUND_TABLES", "HIST", "PLAYED_LABELS"]

HIST = 128            # histogram bins (values above clamp into the last bin)

# pairs played, by the effect they were played for (kernels.actions A_* codes), trios apart
PLAYED_LABELS = tuple({**PAIR_NAMES, TRIO_SLOT: "trio"}.get(a) for a in range(PLAYED_WIDTH))

# ---------------------------------------------------------------------------------------------
# independent rounds (simulate --rounds): one row of counters per block, kernels.batch R_*

ROUND_STATS = Layout("rounds", (
    Stat("end", "rate", "how rounds end (docs/rules.md, Ending a round: STOP, LAST CHANCE won or "
         "lost, an empty deck, four mermaids)", bins=len(END_NAMES), labels=(None,) + END_NAMES[1:],
         unit="rounds", json="end_rate", json_count="end", column="end_{}_rate", stem="end_{}"),
    Stat("seat_points", "mean", "round points scored per seat (0 in a four-mermaid round)",
         seats=True, unit="points", json="seat_points", column="round_points_mean"),
    Stat("turns", "mean", "turns per round", unit="turns", json="turns", column="turns_mean"),
    Stat("declarer_card_points", "histogram", "the declarer's card points when declaring "
         "(declared rounds)", bins=HIST, unit="points", json="declarer_card_points",
         json_count="declared_rounds", summary=True, table="declarer-points"),
    Stat("turns_hist", "histogram", "rounds by their number of turns", bins=HIST, unit="turns",
         json="turns", table="turns"),
    Stat("pairs_played", "count", "pairs played, by the effect they were played for (trios "
         "apart)", bins=len(PLAYED_LABELS), labels=PLAYED_LABELS, json_count="pairs_played"),
    Stat("last_chance_calls", "count", "LAST CHANCE calls by the caller's card points",
         bins=HIST, json_count="calls", column_count="calls", table="last-chance"),
    Stat("last_chance_won", "rate", "LAST CHANCE calls won (the caller's bet held), by the "
         "caller's card points", bins=HIST, of="last_chance_calls", json="", json_count="won",
         column="success", column_count="won", table="last-chance"),
    Stat("mermaid_rounds", "count", "player-rounds (scored rounds) ending with 0..4 mermaids "
         "in hand or on the table", bins=5, json_count="player_rounds",
         column_count="player_rounds", table="mermaids"),
    Stat("mermaid_round_points", "mean", "round points of those player-rounds, by mermaids "
         "held", bins=5, of="mermaid_rounds", unit="points", json="round_points",
         column="round_points_mean", table="mermaids"),
    Stat("mermaid_mermaid_points", "mean", "mermaid points (docs/rules.md, Scoring: card points) "
         "in them, by mermaids held", bins=5, of="mermaid_rounds", squares=False, unit="points",
         json="mermaid_points", column="mermaid_points_mean", table="mermaids"),
    Stat("deck_low", "rate", "rounds in which the deck fell below 10 cards", unit="rounds",
         json="deck_low_rate", json_count="deck_low_rounds", column="deck_low_rate"),
))

# ---------------------------------------------------------------------------------------------
# round statistics of full games, per game (kernels.game GS_*): play_game adds every round

GAME_ROUND_STATS = Layout("game rounds", (
    Stat("rounds_played", "count", "rounds played", json_count="rounds_played"),
    Stat("void", "rate", "rounds that end on an empty deck (void rounds, docs/rules.md, Ending a "
         "round)",
         of="rounds_played", unit="rounds", json="void_rate", json_count="void_rounds",
         column="void_rate"),
    Stat("turns_total", "mean", "turns per round", of="rounds_played", squares=False,
         unit="turns", json="turns_per_round"),
    Stat("scored", "count", "rounds scored (ended by STOP or LAST CHANCE)"),
    Stat("stop_calls", "count", "STOP calls per seat", seats=True, json_count="stop_calls",
         column_count="stop_calls"),
    Stat("last_chance_calls", "count", "LAST CHANCE calls per seat", seats=True,
         json_count="last_chance_calls", column_count="last_chance_calls"),
    Stat("last_chance_won", "rate", "LAST CHANCE calls won per seat", seats=True,
         of="last_chance_calls", json="last_chance_success", json_count="last_chance_won",
         column="last_chance_success", column_count="last_chance_won"),
    Stat("mermaid_points", "mean", "mermaid points (docs/rules.md, Scoring: card points) per seat "
         "at the end of scored rounds", seats=True, of="scored", unit="points",
         json="mermaid_points_per_round", column="mermaid_points_per_round_mean"),
    Stat("rounds_with_mermaids", "count", "scored rounds a seat ended holding a mermaid",
         seats=True, json_count="rounds_with_mermaids"),
))

# ---------------------------------------------------------------------------------------------
# full games (simulate --games, tournaments, sweeps): kernels.batch G_*, then GAME_ROUND_STATS

GAME_STATS = Layout("games", (
    Stat("wins", "rate", "games won outright per seat (four-mermaid wins included)", seats=True,
         unit="games", json="win_rate", json_count="wins", column="win_rate",
         column_count="wins"),
    Stat("shared", "rate", "games whose win a seat shared (a tie on the highest total)",
         seats=True, unit="games", json_count="shared_wins_by_seat", column="shared_rate",
         column_count="shared_wins"),
    Stat("shared_games", "count", "games ending in a shared win", json_count="shared_wins"),
    Stat("mermaid_wins", "count", "games won by four mermaids per seat", seats=True,
         json_count="mermaid_wins_by_seat", column_count="mermaid_wins"),
    Stat("mermaid_games", "count", "games ended by four mermaids", json_count="mermaid_wins"),
    Stat("rounds_per_game", "mean", "rounds per game", unit="rounds", json="rounds_per_game",
         column="rounds_per_game_mean"),
    Stat("final_total", "mean", "final game totals per seat", seats=True, unit="points",
         json="final_total", column="final_total_mean"),
))
G_STATS = GAME_STATS.size                       # the game-round block follows the game counters
GAME_SIZE = G_STATS + GAME_ROUND_STATS.size


@dataclass(frozen=True)
class Table:
    """A table of statistics sharing their bins (one row per bin): its --table name, the
    column that holds the bin, its JSON key (None: each statistic's own keys) and shape
    (records in a list, each with the bin under `bin_column`, or a dict keyed by the bin), and
    run-level rates repeated on every row (column, statistic, bin label)."""
    name: str
    layout: Layout
    bin_column: str
    meaning: str
    json: str | None = None
    json_list: bool = False
    also: tuple = ()

    @property
    def stats(self) -> tuple[Stat, ...]:
        return tuple(s for s in self.layout.stats if s.table == self.name)


ROUND_TABLES = (
    Table("last-chance", ROUND_STATS, "caller_points", "LAST CHANCE calls and success by the "
          "caller's card points at the call", json="last_chance_by_points"),
    Table("mermaids", ROUND_STATS, "mermaids", "payoff by mermaids held at the end of a scored "
          "round (per player-round)", json="mermaid_payoff", json_list=True,
          also=(("four_mermaid_rate", "end", "mermaids"),)),
    Table("turns", ROUND_STATS, "value", "round length in turns"),
    Table("declarer-points", ROUND_STATS, "value", "the declarer's card points when declaring"),
)
