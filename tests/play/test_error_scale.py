"""The error-rate scale (analyzer.play.error_scale): a review's error rate placed among seasalt's
own players by intervals, and the shipped scale's order (scripts/error_scale.py measured it)."""
from __future__ import annotations

import pytest

from analyzer.play import error_scale

FAKE = {"players": 2, "against": "baseline", "model": "baseline", "games": 100, "samples": 2000,
        "scale": [{"player": "random", "error_rate": 0.012, "ci95": [0.011, 0.013], "games": 100},
                  {"player": "baseline", "error_rate": 0.009, "ci95": [0.008, 0.010], "games": 100},
                  {"player": "search", "error_rate": 0.002, "ci95": [0.001, 0.003], "games": 100}]}


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(error_scale, "load", lambda: FAKE)


@pytest.mark.parametrize("rate, where", [
    ((0.0095, 0.0092, 0.0098), "not distinguishable from baseline."),
    ((0.0095, 0.0070, 0.0115), "not distinguishable from baseline or random."),
    ((0.005, 0.004, 0.006), "between search and baseline."),
    ((0.0005, 0.0, 0.0008), "below every player of the scale (the lowest: search)."),
    ((0.02, 0.015, 0.025), "above every player of the scale (the highest: random).")])
def test_a_rate_is_placed_by_its_interval(fake, rate, where):
    p = error_scale.place(*rate)
    text = " ".join(p["words"])
    assert text.endswith("this error rate is " + where) and p["comparable"]
    assert text.index("search +0.20") < text.index("random +1.20")     # lowest first
    assert max(map(len, p["words"])) < 60


def test_another_model_is_another_yardstick(fake):
    p = error_scale.place(0.009, 0.008, 0.010, "expert2(samples=1)")
    assert not p["comparable"] and "plays the seat on with expert2" in " ".join(p["words"])


def test_the_shipped_scale_orders_the_players_it_was_measured_on():
    """Random above baseline above the search player at 256 samples, intervals apart (the
    measurement scripts/error_scale.py made and the review quotes)."""
    s = {r["player"]: r for r in error_scale.load()["scale"]}
    assert s["random"]["ci95"][0] > s["baseline"]["ci95"][1]
    assert s["baseline"]["ci95"][0] > s["search(samples=256)"]["ci95"][1]
    assert all(r["games"] >= 100 for r in s.values())
