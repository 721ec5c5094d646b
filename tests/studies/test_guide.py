"""seasalt guide: the small guide through the console script, every chart with its table and
data file, the record of commands, seeds and version, the same numbers for the same seed, and
the page in a real headless Chromium (every image loads, every chart has a table, no console
error)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analyzer import __version__
from analyzer.studies import guide as g
from analyzer.studies import guide_pages
from analyzer.base.errors import SeasaltError
from analyzer.render.tidy_frames import merge_sparse

CHROMIUM = "/usr/bin/chromium"
SEASALT = str(Path(sys.executable).with_name("seasalt"))


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("guide") / "guide"
    r = subprocess.run([SEASALT, "guide", "--out", str(out), "--small", "--seed", "3"],
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"wrote {out / 'index.html'}"
    return out


def test_every_chart_has_its_table_and_files(small):
    html = (small / "index.html").read_text()
    figures = re.findall(r"<figure id=\"([^\"]+)\">(.*?)</figure>", html, re.S)
    assert len(figures) >= 14
    for name, body in figures:
        assert "<table>" in body, name
        src = re.search(r'<img src="([^"]+)"', body).group(1)
        assert (small / src).stat().st_size > 0 and (small / src.replace(".png", ".svg")).exists()
        for csv in re.findall(r'href="(data/[^"]+\.csv)"', body):
            assert len(pd.read_csv(small / csv)) > 0
    for section in ("stop", "last-chance", "tuned", "ibr", "values", "pairs", "void", "seats",
                    "how"):
        assert f'<section id="{section}">' in html


def test_it_records_commands_seeds_and_version(small):
    meta = json.loads((small / "guide.json").read_text())
    assert meta["command"] == "seasalt guide --out DIR --seed 3 --small"
    assert meta["version"] == __version__ and meta["seed"] == 3 and meta["scale"] == "small"
    assert set(meta["study_seeds"]) == set(g.STUDY_KEYS)
    assert meta["tuned"]["2"].startswith("tuned2(")
    html = (small / "index.html").read_text()
    assert "seasalt guide --out DIR --seed 3 --small" in html and __version__ in html


def test_small_words_claim_no_winner(small):
    """At this tiny size every grid cell is tied with others: the page must say so."""
    html = (small / "index.html").read_text()
    assert "are tied at this precision" in html
    for sentence in re.findall(r"[^.;]*\bis best\b[^.;]*", html):
        assert "clear of the next" in sentence


def test_same_seed_same_numbers(small, tmp_path):
    again = tmp_path / "again"
    guide_pages.build_guide(again, seed=3, scale="small")
    for csv in sorted((small / "data").glob("*.csv")):
        assert (again / "data" / csv.name).read_text() == csv.read_text(), csv.name


def test_refuses_a_foreign_directory(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(SeasaltError, match="is not empty and it has no .seasalt-guide.json"):
        g.check_dest(tmp_path)
    r = subprocess.run([SEASALT, "guide", "--out", str(tmp_path), "--small"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 2 and r.stderr.startswith("error: ") and r.stdout == ""
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_sparse_last_chance_bins_are_merged():
    df = pd.DataFrame({"players": 2, "caller_points": [7, 8, 9, 10, 17, 18],
                       "calls": [500, 300, 120, 90, 2, 1], "won": [400, 250, 110, 85, 2, 1]})
    m = merge_sparse(df, 200)
    assert list(m["points"]) == ["7", "8", "9+"]
    assert list(m["calls"]) == [500, 300, 213] and not m["sparse"].any()
    assert m["success_lo"].iloc[2] < m["success"].iloc[2] < m["success_hi"].iloc[2]


def _chromium_ok() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return os.access(CHROMIUM, os.X_OK)


@pytest.mark.skipif(not _chromium_ok(), reason="needs playwright and /usr/bin/chromium")
def test_guide_in_headless_chromium(small):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto((small / "index.html").resolve().as_uri())
        page.wait_for_function("document.body.getAttribute('data-images') !== null")
        body = page.locator("body")
        assert body.get_attribute("data-images") == "loaded"
        n = int(body.get_attribute("data-figures"))
        assert n >= 14 and int(body.get_attribute("data-figures-with-tables")) == n
        assert int(body.get_attribute("data-image-count")) == n
        widths = page.eval_on_selector_all("img", "els => els.map(e => e.naturalWidth)")
        assert min(widths) > 0
        if os.environ.get("SEASALT_SCREENSHOTS"):
            page.screenshot(path=os.environ["SEASALT_SCREENSHOTS"], full_page=False)
        browser.close()
    assert errors == []
