"""`seasalt guide` for a newcomer (issue 30, item 7): it says what it runs and shows its
progress and each chart on stderr even when stderr is not a terminal, its page fits a 1280 px
window (a long spec breaks instead of widening the table), and a --small guide's opening says
that its figures are not results."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.studies import guide_pages
from analyzer.faces.cli import main
from analyzer.studies.guide_pages import SMALL_WARNING, intro_lines
from analyzer.render.text_tables import WIDTH
from reports.guide_html import Figure, Section, Table, page

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def test_guide_shows_its_progress_and_each_chart(monkeypatch, tmp_path):
    calls = []

    def fake_build(spec, progress, log):
        calls.append(spec.scale)
        for done in range(0, 1001, 50):
            progress(done, 1000)
        log("chart grid_heatmap: Against baseline opponents: 2 players ...")
        log("chart seats: ...")
        return Path(spec.folder.path) / "index.html"
    monkeypatch.setattr(guide_pages, "run", fake_build)
    r = CliRunner().invoke(main, ["guide", "--out", str(tmp_path / "gd"), "--small"])
    assert r.exit_code == 0, r.stderr
    lines = r.stderr.splitlines()
    assert calls == ["small"] and max(len(x) for x in lines) <= WIDTH
    assert lines[0].startswith("seasalt guide: --small: every study at a tiny size")
    assert "guide: 1,000 games, rounds and paired deals to play" in lines
    tenths = [x for x in lines if x.endswith("of 1,000)")]
    assert [x.split()[1] for x in tenths] == [f"{10 * k}%" for k in range(1, 11)]
    assert lines[-3:] == ["guide: writing the page", "  chart grid_heatmap", "  chart seats"]
    assert r.stdout.strip() == f"wrote {tmp_path / 'gd' / 'index.html'}"


def test_a_small_guide_opens_by_saying_its_figures_are_not_results():
    found = ["2 players: tuned2 wins 70.0% [60.0, 80.0] of games against baseline opponents"]
    small = intro_lines("small", found)
    assert small[0] == SMALL_WARNING and "not results" in small[0]
    assert small[-1] == "Tiny sample, not a result: " + found[0]
    full = intro_lines("full", found)
    assert full[-1] == found[0] and not any("--small" in x for x in full)


def _chromium():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    return sync_api


def _scroll_width(sync_api, path: Path) -> int:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        pg = b.new_page(viewport={"width": 1280, "height": 800})
        pg.goto(path.resolve().as_uri())
        width = pg.evaluate("document.documentElement.scrollWidth")
        b.close()
    return width


def test_the_guide_page_fits_1280_px(tmp_path):
    """The committed guide and a page whose table holds long specs (no spaces) are no wider
    than a 1280 px window."""
    sync_api = _chromium()
    spec = "threshold(" + ",".join(f"knob_{i}={i}.25" for i in range(20)) + ")"
    table = Table(["search", "against", "pick", "win rate"], [["1", spec, spec, "70.0%"]] * 3,
                  "long specs", (1, 2))
    html = page("t", ["intro"], [Section("s", "S", ["p"], [], [Figure(
        "f", "F", "caption", table, "f.png", "f.svg")], [table])])
    (tmp_path / "index.html").write_text(html)
    assert _scroll_width(sync_api, tmp_path / "index.html") <= 1280
    assert _scroll_width(sync_api, ROOT / "docs" / "guide" / "index.html") <= 1280
