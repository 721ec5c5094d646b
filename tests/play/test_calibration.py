"""The advisor's caveat: the drift `seasalt calibrate` measured against a field, quoted where
that field is asked about (advise, review, the page), in words its intervals allow."""
from __future__ import annotations

import json

from click.testing import CliRunner

from analyzer.faces.cli import main
from analyzer.play import calibration as cal
from analyzer.rules.policies import parse_policy

BASELINE = parse_policy("baseline").spec


def _study(players, spec, round_end, result, games=400):
    steps = {"round_end": round_end, "result": result}
    return {"players": players, "policies": [spec] * players, "games": games, "seed": 9,
            "figures": {"plain": {"steps": {k: {"mean": m, "ci95": [lo, hi]}
                                            for k, (m, lo, hi) in steps.items()}}}}


def test_the_caveat_names_only_the_steps_whose_interval_left_zero(monkeypatch):
    """A fall of 2.0 [1.3, 2.6] points from a decision to the next round's start and results 5.4
    [1.4, 9.4] points below the P(win) are both said, with their sizes in points; a step whose
    interval holds 0 is not said; a field with no step outside 0, or never measured, gets no
    caveat."""
    monkeypatch.setattr(cal, "studies", lambda: {
        "a": _study(2, BASELINE, (-0.0197, -0.0264, -0.013), (-0.0539, -0.0937, -0.0142), 2000),
        "b": _study(3, BASELINE, (0.011, 0.006, 0.016), (-0.01, -0.03, 0.01)),
        "c": _study(4, BASELINE, (0.001, -0.001, 0.003), (0.01, -0.02, 0.04))})
    two = " ".join(cal.caveat(2, [BASELINE])["words"])
    assert two == ("Measured against these opponents (2,000 games of seasalt calibrate; "
                   "docs/calibration.md): from a decision, this P(win) had fallen 2.0 [1.3, "
                   "2.6] points on average by the next round's start, and games were won 5.4 "
                   "[1.4, 9.4] points less often than it said.")
    three = " ".join(cal.caveat(3, [BASELINE, BASELINE])["words"])
    assert "risen 1.1 [0.6, 1.6] points" in three and "games were won" not in three
    assert cal.caveat(4, [BASELINE] * 3) is None
    assert cal.caveat(2, [parse_policy("random").spec]) is None
    assert all(len(line) <= 90 for line in cal.caveat(2, [BASELINE])["words"])


def test_the_shipped_studies_are_complete():
    """Every shipped study says its players, field, games and seed, and gives each step of the
    unweighted P(win) a mean inside its 95% interval."""
    studies = cal.studies()
    assert any(s["players"] == 2 and s["policies"] == [BASELINE] * 2 for s in studies.values())
    for s in studies.values():
        assert s["games"] >= 400 and isinstance(s["seed"], int)
        for step in s["figures"]["plain"]["steps"].values():
            lo, hi = step["ci95"]
            assert lo <= step["mean"] <= hi


def test_advise_and_review_quote_the_measured_drift(tmp_path):
    """advise on the example position (2 players, baseline opponents) carries the caveat of the
    shipped 2-player baseline study, in its JSON and at the end of its text; review does, with
    the weighted figures where it reads hands."""
    want = cal.caveat(2, [BASELINE])
    assert want is not None
    r = CliRunner().invoke(main, ["advise", "docs/example_position.json", "--samples", "400",
                                  "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["calibration"] == want
    t = CliRunner().invoke(main, ["advise", "docs/example_position.json", "--samples", "400",
                                  "--seed", "1"])
    assert " ".join(t.stdout.split()).endswith(" ".join(" ".join(want["words"]).split()))
    v = CliRunner().invoke(main, ["review", "--seed", "3", "-p", "2", "--samples", "20",
                                  "--target", "10", "--json"])
    assert json.loads(v.stdout)["calibration"] == cal.caveat(2, [BASELINE], read=True)
    off = CliRunner().invoke(main, ["review", "--seed", "3", "-p", "2", "--samples", "20",
                                    "--target", "10", "--json", "--reading", "off"])
    assert json.loads(off.stdout)["calibration"] == want


def test_the_docs_tables_are_the_shipped_files():
    """docs/calibration.md's tables are written from analyzer/play/calibration.json and
    docs/calibration-bound.json (scripts/calibration_study.py rewrites them)."""
    from pathlib import Path
    doc = Path(__file__).resolve().parents[2] / "docs" / "calibration.md"
    text = doc.read_text(encoding="utf-8")
    bound = json.loads(cal.BOUND.read_text(encoding="utf-8"))
    assert cal.refresh(text, cal.studies(), bound) == text, \
        "docs/calibration.md is out of date: python scripts/calibration_study.py"
    first = next(iter(cal.studies().values()))["figures"]["plain"]["steps"]["round_end"]
    assert f"{100 * first['mean']:+.2f} [{100 * first['ci95'][0]:+.2f}," in text
