"""`seasalt report`: bad inputs (one error line, exit 2, no directory) and a small end-to-end
report whose images all exist (and load in headless Chromium when it is installed)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.faces.cli import main
from analyzer.studies.report import run_demo_results
from analyzer.runs.spec import Backend


def run(*args):
    r = CliRunner().invoke(main, list(args), standalone_mode=True)
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("results")
    files = run_demo_results(d, seed=5, scale=0.02, backend=Backend(jobs=1))
    return d, files


def leftovers(parent: Path, name: str):
    return [p.name for p in parent.iterdir() if p.name.startswith(name) or
            p.name.startswith(f".{name}")]


def one_error(code, err):
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    return lines[0]


def test_missing_column(results, tmp_path):
    d, files = results
    sweep = pd.read_csv(d / "sweep-stop_at.csv").drop(columns="win_rate_lo")
    bad = tmp_path / "bad.csv"
    sweep.to_csv(bad, index=False)
    code, _, err = run("report", str(files[1]), str(bad), "--out", str(tmp_path / "rep"))
    assert one_error(code, err) == f"error: {bad}: missing column win_rate_lo"
    assert leftovers(tmp_path, "rep") == []


def test_malformed_column(results, tmp_path):
    d, _ = results
    df = pd.read_csv(d / "last-chance-3p.csv")
    df["success"] = df["success"].astype(object)
    df.loc[0, "success"] = "lots"
    bad = tmp_path / "lc.csv"
    df.to_csv(bad, index=False)
    code, _, err = run("report", str(bad), "--out", str(tmp_path / "rep"))
    line = one_error(code, err)
    assert f"{bad}: malformed column success" in line
    assert leftovers(tmp_path, "rep") == []


@pytest.mark.parametrize("content,ext", [("{not json", ".json"), ('"a\n', ".csv")])
def test_unreadable(tmp_path, content, ext):
    bad = tmp_path / f"bad{ext}"
    bad.write_text(content)
    code, _, err = run("report", str(bad), "--out", str(tmp_path / "rep"))
    assert one_error(code, err).startswith(f"error: {bad}: ")
    assert leftovers(tmp_path, "rep") == []


def test_no_such_file_and_no_command(tmp_path):
    code, _, err = run("report", str(tmp_path / "nope.csv"), "--out", str(tmp_path / "rep"))
    assert "no such file" in one_error(code, err)
    plain = tmp_path / "plain.csv"
    plain.write_text("a,b\n1,2\n")
    code, _, err = run("report", str(plain), "--out", str(tmp_path / "rep"))
    assert one_error(code, err) == f"error: {plain}: missing column command"
    assert leftovers(tmp_path, "rep") == []


def test_refuses_a_foreign_directory(results, tmp_path):
    _, files = results
    other = tmp_path / "rep"
    other.mkdir()
    (other / "keep.txt").write_text("mine")
    code, _, err = run("report", str(files[0]), "--out", str(other))
    assert "is not empty and it has no .seasalt-report.json (keep.txt)" in one_error(code, err)
    assert (other / "keep.txt").read_text() == "mine"


def build(results, out):
    _, files = results
    code, stdout, err = run("report", *map(str, files), "--out", str(out))
    assert code == 0, err
    return out / "index.html"


def test_end_to_end(results, tmp_path):
    index = build(results, tmp_path / "rep")
    html = index.read_text()
    srcs = re.findall(r'<img src="([^"]+)"', html)
    assert len(srcs) == 7
    for s in srcs:
        assert (index.parent / s).is_file()
        assert (index.parent / s.replace(".png", ".svg")).is_file()
    for href in re.findall(r'href="([^"]+)"', html):
        assert (index.parent / href).is_file()
    assert "3 players, stop_at:" in html and "seed" in html and "0.1.0" in html
    assert html.count('<table class="numbers">') == 7        # every chart with its numbers
    # a second run replaces the earlier report, leaving nothing else behind
    index = build(results, tmp_path / "rep")
    assert sorted(os.listdir(tmp_path)) == ["rep"]


def _chromium():
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed")
def test_every_image_renders_in_chromium(results, tmp_path):
    index = build(results, tmp_path / "rep")
    out = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         "--virtual-time-budget=10000", "--dump-dom", index.resolve().as_uri()],
        capture_output=True, text=True, timeout=120)
    body = re.search(r"<body[^>]*>", out.stdout)
    assert body, out.stderr[-2000:]
    assert 'data-images="loaded"' in body.group(0)
    assert 'data-image-count="7"' in body.group(0)
