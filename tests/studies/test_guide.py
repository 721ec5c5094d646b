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
from analyzer.studies import guide_pages, guide_sections, paired
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
                    "draw-or-take", "steal", "colour", "endings", "players", "how"):
        assert f'<section id="{section}">' in html
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "every id of the page once (a link finds its target)"


def test_endings_count_every_round_once(small):
    """How rounds end: every round ends exactly one way (STOP, LAST CHANCE won or lost, void,
    four mermaids) for each field and player count; the tuned players, whose last_chance_at is
    their stop_at, never call STOP (every declaration is a LAST CHANCE); the caption says where
    each field stands against half of the rounds without claiming past its interval."""
    df = pd.read_csv(small / "data" / "endings.csv")
    assert sorted(set(df["field"])) == sorted(name for name, _, _ in g.ENDING_FIELDS)
    assert sorted(set(df["players"])) == list(g.PLAYERS)
    ends = df["stop"] + df["last_chance_won"] + df["last_chance_lost"] + df["void"] + df["mermaids"]
    assert (ends == df["rounds"]).all()
    assert (df["last_chance"] == df["last_chance_won"] + df["last_chance_lost"]).all()
    assert (df["last_chance_rate_lo"] <= df["last_chance_rate"]).all()
    assert (df[df["field"] == "tuned"]["stop"] == 0).all()
    html = (small / "index.html").read_text()
    section = re.search(r'<section id="endings">(.*?)</section>', html, re.S).group(1)
    for _, r in df.iterrows():
        said = re.search(rf"<li>{r.players} players: (.*?)</li>", section, re.S).group(1)
        clause = next(c for c in said.split("; ")
                      if f"{r.field} ({100 * r.last_chance_rate:.1f}% [" in c)
        if r.last_chance_rate_lo > 0.5:
            assert clause.startswith("LAST CHANCE ends more than half"), clause
        elif r.last_chance_rate_hi < 0.5:
            assert clause.startswith("fewer than half"), clause
        else:
            assert clause.endswith("not distinguishable from half at this precision"), clause


def test_choices_are_paired_against_both_fields(small):
    """Each choice of guide.CHOICES is played by one seat against baseline and against the
    expert of the player count, the other arm the baseline's decisions; whom to steal from is
    asked only with 3 and 4 players (with 2 there is one opponent); the words say the fields
    disagree exactly where the two intervals do not overlap."""
    html = (small / "index.html").read_text()
    for question, (sid, _, _) in guide_sections.CHOICE_SECTIONS.items():
        df = pd.read_csv(small / "data" / f"choices_{question}.csv")
        asked = [(label, p) for q, label, counts, _ in g.CHOICES if q == question for p in counts]
        assert sorted(zip(df["label"], df["players"])) == sorted(asked * 2)
        for _, r in df.iterrows():
            assert r.field.startswith("baseline(" if r.against == "baseline" else f"expert{r.players}")
            assert r.b.startswith("threshold(") and r.a != r.b
        section = re.search(rf'<section id="{sid}">(.*?)</section>', html, re.S).group(1)
        for (label, p), gp in df.groupby(["label", "players"]):
            (lo1, hi1), (lo2, hi2) = gp[["win_rate_diff_lo", "win_rate_diff_hi"]].values
            said = re.search(rf"<li>{p} players, {re.escape(label)}: (.*?)</li>", section,
                             re.S).group(1)
            apart = hi1 < lo2 or hi2 < lo1
            same = (lo1 > 0 and lo2 > 0) or (hi1 < 0 and hi2 < 0)
            assert ("disagree" in said) == (apart and not same), said
            assert ("a larger effect against" in said) == (apart and same), said
    assert set(pd.read_csv(small / "data" / "choices_steal.csv")["players"]) == {3, 4}


def test_the_headline_says_strong_play_ends_with_last_chance_only_where_shown():
    """The guide's opening says strong players end most rounds with LAST CHANCE for a player
    count only when the expert's and search(64)'s intervals both lie above half."""
    def row(field, rate, lo, hi):
        return {"players": 2, "field": field, "last_chance_rate": rate,
                "last_chance_rate_lo": lo, "last_chance_rate_hi": hi}
    frames = {"matchups": pd.DataFrame(columns=["players", "player", "against"])}
    shown = pd.DataFrame([row("baseline", .04, .037, .043), row("expert", .8, .79, .81),
                          row("search(64)", .88, .87, .9)])
    lines = guide_sections.summary({**frames, "endings": shown})
    assert lines == ["2 players: strong players end most rounds with LAST CHANCE, not STOP: the "
                     "expert 80.0% [79.0, 81.0] of its rounds, search(64) 88.0% [87.0, 90.0], the "
                     "baseline 4.0% [3.7, 4.3] (\"Is STOP the normal ending?\")."]
    unsure = shown.assign(last_chance_rate_lo=[.03, .79, .45])
    assert guide_sections.summary({**frames, "endings": unsure}) == []


def test_pairs_are_played_or_held_against_both_fields_in_the_base_game(small):
    base = pd.read_csv(small / "data" / "pair_values_base.csv")
    extra = pd.read_csv(small / "data" / "pair_values_extra_salt.csv")
    assert set(base["against"]) == {"baseline", "expert"} and set(extra["against"]) == {"baseline"}
    for fld, rows in base.groupby("against"):
        assert len(rows) == len(g.PLAYERS) * len(paired.pair_specs("base"))
        assert all(s.startswith("baseline(" if fld == "baseline" else f"expert{p}")
                   for s, p in zip(rows["field"], rows["players"]))


def test_player_counts_gather_the_other_sections_figures(small):
    """How 2 players differ from 4: every figure for 2, 3 and 4 players, taken from the other
    studies (the first seat's edge is its win rate in seats.csv minus 1/P), and the words call a
    trend only where the 2- and 4-player intervals lie apart."""
    df = pd.read_csv(small / "data" / "player_counts.csv")
    assert all(sorted(gp["players"]) == [2, 3, 4] for _, gp in df.groupby("figure"))
    seats = pd.read_csv(small / "data" / "seats.csv")
    first = seats[(seats["seat"] == 0) & (seats["player"] == "baseline")].set_index("players")
    edge = df[df["short"] == "first seat's edge"].set_index("players")
    for p in (2, 3, 4):
        assert abs(edge.loc[p, "value"] - (first.loc[p, "win_rate"] - 1 / p)) < 1e-12
    html = (small / "index.html").read_text()
    section = re.search(r'<section id="players">(.*?)</section>', html, re.S).group(1)
    for figure, gp in df.groupby("figure"):
        two, four = gp.set_index("players").loc[2], gp.set_index("players").loc[4]
        said = re.search(rf"<li>{re.escape(figure)}: (.*?)</li>",
                         section.replace("&#x27;", "'"), re.S).group(1)
        if four.value_lo > two.value_hi:
            assert said.endswith("higher with 4 players than with 2"), said
        elif four.value_hi < two.value_lo:
            assert said.endswith("lower with 4 players than with 2"), said
        else:
            assert said.endswith("not distinguishable at this precision"), said


def test_two_fields_are_said_to_disagree_only_on_different_conclusions():
    from reports.captions import Estimate
    base = Estimate("against baseline", -0.061, -0.074, -0.048)
    assert guide_sections.fields_apart([base, Estimate("against expert", -0.05, -0.07, -0.03)]) == ""
    assert guide_sections.fields_apart([base, Estimate("against expert", -0.005, -0.016, 0.005)]) \
        == " (the two fields disagree at this precision)"
    assert guide_sections.fields_apart([base, Estimate("against expert", 0.02, 0.01, 0.03)]) \
        == " (the two fields disagree at this precision)"
    assert guide_sections.fields_apart([base, Estimate("against expert", -0.02, -0.03, -0.01)]) \
        == " (a larger effect against baseline at this precision)"


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
