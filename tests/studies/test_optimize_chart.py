"""The optimizer's chart (issue 30, item 6): whole generations on the x axis, the held-out result
at a place labelled as such (not at a generation that does not exist), and a legend that covers
no marker."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports.strategy import optimize_trace


def _trace(generations: int, searches: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(1)
    rows, held = [], []
    for k in range(searches):
        for gen in range(generations):
            for c in range(6):
                s = 0.5 + 0.02 * gen + rng.normal(0, 0.02)
                rows.append(dict(iteration=k, stage="generation", generation=gen, score=s,
                                 score_lo=s - 0.02, score_hi=s + 0.02, centre=c == 0,
                                 elite=c < 2))
        for role, w in (("pick", 0.62), ("start", 0.5)):      # as results_frame writes them
            held.append(dict(iteration=k, role=role, games=10_000, wins=int(w * 10_000),
                             win_rate=w, win_rate_lo=w - 0.01, win_rate_hi=w + 0.01))
    return pd.DataFrame(rows), pd.DataFrame(held)


def _boxes(fig):
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    return r


@pytest.mark.parametrize("generations, searches", [(3, 1), (25, 1), (4, 3)])
def test_the_trace_has_whole_generations_and_a_held_out_place(generations, searches):
    trace, held = _trace(generations, searches)
    fig = optimize_trace(trace, held)
    (ax,) = fig.axes
    r = _boxes(fig)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    positions = list(ax.get_xticks())
    assert labels.count("held\nout") == searches
    gens = [int(x) for x in labels if x != "held\nout"]              # every other label a whole
    assert all(1 <= g <= generations for g in gens)                  # generation that exists
    assert 1 in gens and max(gens) >= 0.85 * generations            # labelled to the end
    # the pick's and the start's markers sit exactly on a "held out" tick
    held_x = {positions[i] for i, x in enumerate(labels) if x == "held\nout"}
    marks = [c for c in ax.containers if hasattr(c, "lines")]
    xs = {float(line.get_xdata()[0]) for c in marks for line in c.lines[:1] if line is not None}
    assert xs and xs <= held_x
    # the last generation's points are left of the held-out place of their search
    assert max(x for x in xs) > max(p for p, x in zip(positions, labels) if x != "held\nout")
    # the legend is outside the plotting area: it can cover no marker
    assert ax.get_legend() is None and len(fig.legends) == 1
    legend = fig.legends[0].get_window_extent(r)
    assert not legend.overlaps(ax.get_window_extent(r))
