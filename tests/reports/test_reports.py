"""Charts from small fixed frames: what is drawn (lines, bands, error bars, labels, legends)."""
from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure

from reports import charts as ch
from reports import findings as fi
from reports.html import Chart, page


def sweep_rows():
    rows = []
    for p, base in ((2, 0.5), (3, 0.33)):
        for s, d in zip((7, 8, 9, 10), (0.0, 0.02, 0.05, -0.01)):
            rows.append({"stop_at": s, "players": p, "win_rate": base + d,
                         "win_rate_lo": base + d - 0.01, "win_rate_hi": base + d + 0.01,
                         "fair_share": 1 / p, "void_rate": 0.001 * s, "void_rate_lo": 0.0,
                         "void_rate_hi": 0.001 * s + 0.002, "games": 1000, "command": "sweep",
                         "seed": 1, "swept": "stop_at", "version": "0.1.0"})
    return pd.DataFrame(rows)


def last_chance_rows(players=(3,)):
    rows = []
    for p in players:
        for pts, s in ((10, 0.9), (11, 0.95), (12, 0.99)):
            rows.append({"caller_points": pts, "calls": 100, "won": int(100 * s), "success": s,
                         "success_lo": s - 0.05, "success_hi": min(1.0, s + 0.03), "players": p})
    return pd.DataFrame(rows)


def mermaid_rows(players=(3,)):
    rows = []
    for p in players:
        for m in range(4):
            rows.append({"mermaids": m, "player_rounds": 100, "round_points_mean": 4 + m,
                         "round_points_lo": 3.8 + m, "round_points_hi": 4.2 + m,
                         "mermaid_points_mean": 2.0 * m, "four_mermaid_rate": 0.0002,
                         "players": p})
    return pd.DataFrame(rows)


def hist_rows(players=(2, 3)):
    return pd.DataFrame([{"value": v, "count": c, "share": 0, "players": p}
                         for p in players for v, c in ((7, 50), (8, 30), (9, 20))])


def tournament_rows():
    return pd.DataFrame([
        {"rank": 1, "entrant": 1, "spec": "gambler(stop_at=7)", "win_rate": 0.4,
         "win_rate_lo": 0.37, "win_rate_hi": 0.43, "fair_share": 1 / 3, "players": 3},
        {"rank": 2, "entrant": 0, "spec": "baseline(stop_at=7)", "win_rate": 0.32,
         "win_rate_lo": 0.29, "win_rate_hi": 0.35, "fair_share": 1 / 3, "players": 3},
        {"rank": 3, "entrant": 2, "spec": "denier(stop_at=7)", "win_rate": 0.28,
         "win_rate_lo": 0.25, "win_rate_hi": 0.31, "fair_share": 1 / 3, "players": 3}])


def bands(ax):
    return [c for c in ax.collections if isinstance(c, PolyCollection)]


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def solid_lines(ax):
    return [l for l in ax.get_lines() if l.get_linestyle() == "-"]


def test_backend_and_no_pyplot_state():
    import matplotlib.pyplot as plt
    before = plt.get_fignums()
    fig = ch.stop_threshold(sweep_rows())
    assert isinstance(fig, Figure)
    assert plt.get_fignums() == before
    assert fig.get_layout_engine() is not None  # constrained layout: no overlapping text


def test_stop_threshold():
    fig = ch.stop_threshold(sweep_rows())
    ax = fig.axes[0]
    assert "stop_at" in ax.get_title()
    assert "stop_at" in ax.get_xlabel() and "points" in ax.get_xlabel()
    assert "%" in ax.get_ylabel()
    lines = solid_lines(ax)
    assert len(lines) == 2
    assert list(lines[0].get_xdata()) == [7, 8, 9, 10]
    assert len(bands(ax)) == 2
    dashed = [l for l in ax.get_lines() if l.get_linestyle() == "--"]
    assert sorted(round(l.get_ydata()[0], 3) for l in dashed) == [0.333, 0.5]
    assert legend_texts(ax) == ["2 players", "fair share, 2 players", "3 players",
                                "fair share, 3 players"]
    assert lines[0].get_color() != lines[1].get_color()
    assert lines[0].get_color().upper() in ch.OKABE_ITO


def test_void_rate():
    """One panel per player count, so no line hides under another, each scaled to its own
    upper ends."""
    fig = ch.void_rate(sweep_rows())
    assert "Void" in fig._suptitle.get_text()
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == ["2 players", "3 players"]
    for ax in axes:
        assert len(solid_lines(ax)) == 1 and len(bands(ax)) == 1
    assert axes[1].get_ylim()[1] >= 0.012 > axes[1].get_ylim()[1] / 1.2


@pytest.mark.parametrize("players", [(3,), (2, 3, 4)])
def test_last_chance(players):
    fig = ch.last_chance(last_chance_rows(players))
    ax, ax2 = fig.axes
    assert "LAST CHANCE" in ax.get_title()
    assert len(solid_lines(ax)) == len(players) and len(bands(ax)) == len(players)
    assert len(solid_lines(ax2)) == len(players) and len(bands(ax2)) == len(players)
    assert legend_texts(ax) == [f"{p} players" for p in players]
    assert "points" in ax.get_xlabel() and "points" in ax2.get_ylabel()
    # expected forfeit = (1 - success) x points
    assert list(solid_lines(ax2)[0].get_ydata()) == pytest.approx([1.0, 0.55, 0.12])


def test_last_chance_takes_a_list_of_frames():
    fig = ch.last_chance([last_chance_rows((2,)), last_chance_rows((4,))])
    assert legend_texts(fig.axes[0]) == ["2 players", "4 players"]


def test_mermaids():
    ax = ch.mermaids(mermaid_rows((2, 3))).axes[0]
    assert "four mermaids" in ax.get_title() and "0.020%" in ax.get_title()
    assert sum(isinstance(c, ErrorbarContainer) for c in ax.containers) == 2
    assert "mermaids held" in ax.get_xlabel() and "points" in ax.get_ylabel()
    texts = legend_texts(ax)
    assert len(texts) == 4 and "round points, 2 players" in texts


@pytest.mark.parametrize("fn,word", [(ch.round_length, "turns"),
                                     (ch.declarer_points, "points")])
def test_histograms(fn, word):
    ax = fn(hist_rows()).axes[0]
    lines = solid_lines(ax)
    assert len(lines) == 2 and len(bands(ax)) == 2
    assert list(lines[0].get_ydata()) == pytest.approx([0.5, 0.3, 0.2])
    assert word in ax.get_xlabel() and "%" in ax.get_ylabel()
    assert legend_texts(ax) == ["2 players (n=100)", "3 players (n=100)"]


def test_tournament():
    ax = ch.tournament(tournament_rows()).axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["denier", "baseline", "gambler"]
    assert sum(isinstance(c, ErrorbarContainer) for c in ax.containers) == 1
    assert "3 players" in ax.get_title()
    assert any(l.get_linestyle() == "--" for l in ax.get_lines())
    assert "win rate" in ax.get_xlabel()


def test_missing_column_is_a_chart_error():
    with pytest.raises(ch.ChartError, match="missing column success_lo"):
        ch.last_chance(last_chance_rows().drop(columns="success_lo"))


def test_findings():
    assert fi.best_threshold(sweep_rows()).startswith(
        "2 players, stop_at: 9 is best (win rate 55.0% [54.0, 56.0]), clear of the next, 8")
    assert "gambler ranks first with 40.0% ± 3.0%" in fi.tournament(tournament_rows())
    assert "lowest success 90.0% ± 5.0% at 10 points" in fi.last_chance(last_chance_rows())
    assert "mean round length 7.7 turns" in fi.round_length(hist_rows())
    assert "four-mermaid wins in 0.020%" in fi.mermaids(mermaid_rows())


def test_page_lists_images_and_metadata():
    html = page([Chart("a", "A <chart>", "a.png", "a.svg", "finding & more", ["results/x.csv"])],
                [{"file": "results/x.csv", "seed": 7}], "t")
    assert '<img src="a.png"' in html and "A &lt;chart&gt;" in html
    assert "finding &amp; more" in html and "<td>7</td>" in html
    assert 'data-images' in html


# --- the guide on a phone ----------------------------------------------------------------------

PHONE_PX = 340          # a 360 px screen less the page's margins: the width a chart is shown at


def test_the_heatmaps_numbers_are_legible_on_a_phone():
    """Each cell's number is at least 8.5 px high once the chart is scaled to a phone's width
    (three panels side by side made them about 6 px)."""
    from reports import strategy as st
    rows = [{"stop_at": s, "last_chance_at": lc, "players": p, "win_rate": 0.3 + 0.01 * (s + lc),
             "win_rate_lo": 0.29, "win_rate_hi": 0.31 + 0.01 * (s + lc)}
            for p in (2, 3, 4) for s in range(7, 15) for lc in range(s, 17)]
    fig = st.grid_heatmap(pd.DataFrame(rows), "last_chance_at", "stop_at")
    width_px = fig.get_figwidth() * 130                 # the guide writes its PNGs at 130 dpi
    numbers = [t for ax in fig.axes for t in ax.texts]
    assert numbers and len(numbers) == len(rows)
    smallest = min(t.get_fontsize() for t in numbers) * 130 / 72 * PHONE_PX / width_px
    assert smallest >= 8.5, smallest


def test_a_log_rate_axis_labels_its_ticks_apart():
    """0.01%, 0.1%, 1% ... on the void rounds' log axis, never the same label twice."""
    from reports import strategy as st
    df = pd.DataFrame([{"stop_at": s, "players": 2, "void_rate": r, "void_rate_lo": r / 2,
                        "void_rate_hi": r * 2} for s, r in ((7, 0.0), (15, 1e-4), (20, 1e-2),
                                                            (25, 0.5))])
    fig = st.rate_lines(df, "stop_at", "void_rate", "void", "stop_at", "void", log=True)
    ax = fig.axes[0]
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert len(labels) >= 4 and len(set(labels)) == len(labels), labels
    assert ch.percent_tick(1e-4) == "0.01%" and ch.percent_tick(0.5) == "50%"
