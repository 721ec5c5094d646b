"""scripts/search_study.py at a tiny scale: every part runs and its tables hold what the JSON says."""
from __future__ import annotations

import json
import pathlib
import sys

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "scripts"


def test_study_runs_every_part_small(tmp_path, capsys):
    sys.path.insert(0, str(SCRIPTS))
    try:
        import search_study
    finally:
        sys.path.remove(str(SCRIPTS))
    out = tmp_path / "study"
    assert search_study.main(["--budgets", "2,4", "--players", "2", "--games", "6",
                              "--timing-rounds", "1", "--style-rounds", "20", "--seed", "3",
                              "--out", str(out)]) == 0
    res = json.loads((tmp_path / "study.json").read_text())
    assert {(r["opponent"], r["samples"]) for r in res["strength"]} == {
        (o, b) for o in search_study.OPPONENTS for b in (2, 4)}
    for r in res["strength"]:
        assert r["win_rate_lo"] <= r["win_rate"] <= r["win_rate_hi"] and r["games"] == 6
    assert all(t["decisions"] > 0 and t["ms_mean"] > 0 for t in res["speed"])
    for st in res["style"]:
        assert sum(st["end"].values()) == st["rounds"] == 20
    text = (tmp_path / "study.md").read_text()
    assert text.strip() == capsys.readouterr().out.strip()
    assert "search(samples=4)" in text and "threshold(7,7)" in text
