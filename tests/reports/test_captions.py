"""The caption writer never claims more than the 95% intervals allow: no "best" where intervals
overlap, a clear winner named when its interval lies above all the others."""
from __future__ import annotations

import pandas as pd

from reports import captions as cap
from reports import findings as fi

E = cap.Estimate


def test_overlapping_intervals_claim_no_best():
    # the report's old overclaim: 10 "best" for 3 players while 7 is inside its interval
    text = cap.rank([E("7", .336, .330, .343), E("10", .340, .333, .346),
                     E("12", .249, .243, .255)], "win rate")
    assert "best" not in text
    assert text.startswith("10 and 7 are tied at this precision")
    assert "12" not in text                     # clear of the leader: not tied
    assert "34.0% [33.3, 34.6]" in text and "33.6% [33.0, 34.3]" in text


def test_touching_intervals_count_as_tied():
    text = cap.rank([E("a", .50, .48, .52), E("b", .46, .44, .48)], "win rate")
    assert "best" not in text and "tied" in text


def test_clear_winner_is_named():
    text = cap.rank([E("7", .736, .730, .743), E("10", .617, .610, .624),
                     E("9", .551, .544, .558)], "win rate")
    assert text.startswith("7 is best (win rate 73.6% [73.0, 74.3]), clear of the next, 10")


def test_lowest_when_lower_is_better():
    text = cap.rank([E("a", .1, .09, .11), E("b", .3, .28, .32)], "loss", higher=False)
    assert text.startswith("a is lowest")


def test_many_tied_are_counted():
    ests = [E(str(i), .5, .4, .6) for i in range(9)]
    text = cap.rank(ests, "win rate")
    assert "and 3 more are tied" in text and "best" not in text


def test_difference_words_follow_the_interval():
    assert "up by +1.09 [+1.01, +1.17] points" in cap.difference(E("m", 1.09, 1.01, 1.17),
                                                                   "round points", "points")
    assert "down by" in cap.difference(E("m", -0.5, -0.7, -0.3), "round points")
    text = cap.difference(E("m", 0.01, -0.02, 0.04), "P(win)", percent=True)
    assert "no difference" in text and "up" not in text and "down" not in text
    assert "+1.0 percentage points [-2.0, +4.0]" in text


def test_versus_a_reference():
    assert "above the fair share" in cap.versus(E("s", .52, .51, .53), .5, "win rate",
                                                "the fair share")
    assert "below" in cap.versus(E("s", .45, .44, .46), .5, "win rate", "the fair share")
    assert "not distinguishable" in cap.versus(E("s", .5, .49, .51), .5, "win rate", "it")


def _sweep(points):
    return pd.DataFrame([{"stop_at": s, "players": 3, "win_rate": v, "win_rate_lo": lo,
                          "win_rate_hi": hi, "fair_share": 1 / 3, "swept": "stop_at"}
                         for s, v, lo, hi in points])


def test_report_finding_says_tied_not_best():
    """The report's sentence for the README's old 3-player reading: 7 and 10 tied."""
    text = fi.best_threshold(_sweep([(7, .336, .330, .343), (10, .340, .333, .346),
                                     (11, .279, .273, .285)]))
    assert "best" not in text and "10 and 7 are tied at this precision" in text


def test_report_finding_names_a_clear_best():
    text = fi.best_threshold(_sweep([(7, .50, .49, .51), (10, .62, .61, .63)]))
    assert "10 is best" in text


def test_two_parameter_sweep_labels_both():
    df = pd.DataFrame([{"stop_at": s, "last_chance_at": l, "players": 2, "win_rate": v,
                        "win_rate_lo": v - .01, "win_rate_hi": v + .01, "fair_share": .5,
                        "swept": "stop_at,last_chance_at"}
                       for s, l, v in ((7, 7, .73), (7, 10, .50), (8, 8, .65))])
    assert fi.best_threshold(df).startswith("2 players, stop_at, last_chance_at: 7, 7 is best")


def test_void_finding_calls_rare_rare():
    df = pd.DataFrame([{"stop_at": s, "players": 2, "void_rate": 0.0, "void_rate_lo": 0.0,
                        "void_rate_hi": 0.0002, "swept": "stop_at"} for s in (7, 8)])
    assert "rare at every stop_at" in fi.void_rate(df)
