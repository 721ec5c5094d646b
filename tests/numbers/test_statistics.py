"""The statistics catalogue (kernels.statistics) is the one source of the counter layouts, the
JSON keys, the tidy columns and the report's tables: checked against the kernels' offsets, a
run's summary, and a rules reader's expectations for the deck-low statistic."""
from __future__ import annotations

import pandas as pd
import pytest

from analyzer.studies.report import build_report
from analyzer.studies.simulate import simulate_rounds
from analyzer.numbers.catalogue import estimates
from analyzer.render.tidy_frames import ROUNDS_TABLES, write_frame
from analyzer.runs.spec import Backend
from kernels import batch, game
from kernels.statistics import GAME_ROUND_STATS, GAME_STATS, ROUND_STATS, ROUND_TABLES


@pytest.mark.parametrize("layout, size", [(ROUND_STATS, batch.R_SIZE),
                                          (GAME_STATS, batch.G_STATS),
                                          (GAME_ROUND_STATS, game.GS_SIZE)])
def test_layouts_are_contiguous_and_are_the_kernels(layout, size):
    at = 0
    for s in layout.stats:
        assert layout.offset[s.name] == at, s.name
        at += s.slots
    assert at == layout.size == size
    assert batch.G_SIZE == batch.G_STATS + game.GS_SIZE


@pytest.fixture(scope="module")
def never_declaring():
    """Every seat waits for 100 card points: rounds run until the deck is empty (void)."""
    return simulate_rounds(2, 300, ["baseline(stop_at=100,last_chance_at=100)"], seed=3,
                           backend=Backend(jobs=1))


def test_a_void_round_is_a_round_whose_deck_fell_below_10(never_declaring):
    r = never_declaring
    assert r["end"]["void"] + r["end"]["mermaids"] == r["rounds"] > 0
    assert r["deck_low_rounds"] >= r["end"]["void"]
    assert r["deck_low_rate"]["rate"] == r["deck_low_rounds"] / r["rounds"]
    lo, hi = r["deck_low_rate"]["ci95"]
    assert lo <= r["deck_low_rate"]["rate"] <= hi


def test_every_statistic_is_in_the_json_and_the_seats_table(never_declaring):
    r = never_declaring
    df = ROUNDS_TABLES["seats"](r)
    grouped = {s.name for t in ROUND_TABLES if t.json for s in t.stats}
    for s in ROUND_STATS.stats:
        if s.name in grouped:
            assert any(t.json in r for t in ROUND_TABLES if t.name == s.table)
            continue
        keys = {"rate": [s.json], "mean": [f"{s.json}_mean"], "histogram": [f"{s.json}_hist"],
                "count": []}[s.kind] + ([s.json_count] if s.json_count else [])
        assert all(k in r for k in keys if k), (s.name, keys)
        if s.table is None and s.column and "{}" not in s.column:
            assert s.column in df.columns and f"{s.interval_stem}_lo" in df.columns
    assert set(ROUNDS_TABLES) == {"seats"} | {t.name for t in ROUND_TABLES}


def test_estimates_are_counts_over_their_denominator():
    import numpy as np
    c = np.zeros(ROUND_STATS.size, dtype=np.int64)
    c[batch.R_LC_HIST + 9] = 40
    c[batch.R_LC_WON_HIST + 9] = 30
    c[batch.R_DECK_LOW] = 5
    est = estimates(c, ROUND_STATS, 50, 2)
    assert est["last_chance_won"].value[0, 9] == 0.75
    assert est["deck_low"].value[0, 0] == 0.1
    assert est["deck_low"].lo[0, 0] < 0.1 < est["deck_low"].hi[0, 0]


def test_report_draws_the_rates_of_seats_tables_and_skips_those_older_files_lack(tmp_path):
    files = []
    for p in (2, 3):
        r = simulate_rounds(p, 2000, seed=p, backend=Backend(jobs=1))
        files.append(write_frame(ROUNDS_TABLES["seats"](r), tmp_path / f"seats-{p}p.csv"))
    build_report(files, tmp_path / "report")
    page = (tmp_path / "report" / "index.html").read_text()
    for chart in ("round_ends", "deck_low"):
        assert (tmp_path / "report" / f"{chart}.png").is_file()
        assert f"{chart}.png" in page
    old = pd.read_csv(files[0]).drop(columns=["deck_low_rate", "deck_low_rate_lo",
                                                 "deck_low_rate_hi"])
    old.to_csv(tmp_path / "old-seats-2p.csv", index=False)
    build_report([tmp_path / "old-seats-2p.csv"], tmp_path / "old")
    assert (tmp_path / "old" / "round_ends.png").is_file()
    assert not (tmp_path / "old" / "deck_low.png").exists()


def test_a_mean_without_squares_has_no_interval_columns():
    """The mermaid payoff's mean mermaid points has no interval (no squares counted), so its
    table has no empty _lo/_hi columns; round points, which have one, do."""
    df = ROUNDS_TABLES["mermaids"](simulate_rounds(2, 2000, seed=1, backend=Backend(jobs=1)))
    assert {"mermaid_points_mean", "round_points_lo", "round_points_hi"} <= set(df.columns)
    assert not {"mermaid_points_lo", "mermaid_points_hi"} & set(df.columns)


def test_a_paired_block_reads_as_its_rows_and_a_rate_difference_is_paired():
    """kernels.paired's block, declared with the catalogue's types: its slots are the kernel's
    P_* offsets, and a paired row made by the one estimates function: 10 pairs, q won in A only
    3 times and in B only once, so the win-rate difference is (3 - 1) / 10 with the paired
    interval of estimates.paired_rate_diff; a mean difference is the mean of the differences."""
    import numpy as np
    from analyzer.numbers.catalogue import flat_row
    from analyzer.numbers.estimates import mean_ci, paired_rate_diff
    from kernels import paired as kp
    layout = kp.PAIRED_STATS
    assert layout.size == kp.P_SIZE
    assert (kp.P_ONLY_A, kp.P_ONLY_B) == (layout.at("win_diff"), layout.at("win_diff", "b"))
    c = np.zeros(layout.size, dtype=np.int64)
    c[kp.P_N], c[kp.P_ONLY_A], c[kp.P_ONLY_B], c[kp.P_WIN_A] = 10, 3, 1, 6
    c[kp.P_DIFF], c[kp.P_DIFF_SQ] = 7, 25
    row = flat_row(estimates(c, layout, 0, 1))
    assert row["pairs"] == 10 and row["win_rate_a"] == 0.6
    d, lo, hi = paired_rate_diff(3, 1, 10)
    assert (row["win_rate_diff"], row["win_rate_diff_lo"], row["win_rate_diff_hi"]) == (d, lo, hi)
    assert d == pytest.approx(0.2)
    m, (mlo, mhi) = mean_ci(7.0, 25.0, 10)
    assert (row["round_points_diff"], row["round_points_diff_lo"]) == (m, mlo)
    assert list(row)[:5] == ["pairs", "skipped", "round_points_diff", "round_points_diff_lo",
                             "round_points_diff_hi"]
