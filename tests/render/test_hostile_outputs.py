"""No file outside the output is ever touched (issue 28, items 1-2): every command that writes a
folder (report, guide) follows analyzer.base.outdir's rule. Each test first sets up the exact scenario
of the defect, then checks a sentinel tree beside the folder is byte for byte what it was."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from analyzer.base import outdir
from analyzer.base.errors import SeasaltError
from analyzer.studies.report import run_demo_results
from analyzer.runs.spec import Backend

from cli_helpers import cli, one_line as refused


def tree(d: Path) -> dict[str, bytes | str]:
    """Every entry below d: a file's bytes, a link's target, a folder's marker."""
    out: dict[str, bytes | str] = {}
    for p in sorted(d.rglob("*")):
        rel = str(p.relative_to(d))
        out[rel] = (f"-> {os.readlink(p)}" if p.is_symlink() else
                    "<dir>" if p.is_dir() else p.read_bytes())
    return out


@pytest.fixture(scope="module")
def sweep(tmp_path_factory) -> str:
    return str(run_demo_results(tmp_path_factory.mktemp("results"), seed=5, scale=0.02,
                                backend=Backend(jobs=1))[0])


@pytest.fixture
def sentinel(tmp_path) -> Path:
    s = tmp_path / "sentinel"
    (s / "deep").mkdir(parents=True)
    (s / "victim.txt").write_text("do not delete\n")
    (s / "deep" / "stop_threshold.png").write_bytes(b"\x89PNG mine")
    return s


def test_a_manifest_listing_paths_outside_deletes_nothing(sweep, tmp_path, sentinel):
    """Item 1: a received report whose manifest lists ../victim.txt and an absolute path."""
    rep = tmp_path / "rep"
    assert cli("report", sweep, "--out", str(rep)).returncode == 0
    m = json.loads((rep / ".seasalt-report.json").read_text())
    m["files"] += ["../sentinel/victim.txt", str(sentinel / "deep" / "stop_threshold.png"),
                   "results/../../sentinel/victim.txt"]
    (rep / ".seasalt-report.json").write_text(json.dumps(m))
    before, mine = tree(sentinel), tree(rep)
    refused(cli("report", sweep, "--out", str(rep)), "not a path inside", "--out")
    assert tree(sentinel) == before and tree(rep) == mine


@pytest.mark.parametrize("bad", ["{not json", "[]", '{"generator": "seasalt report"}',
                                 '{"generator": "seasalt guide", "files": []}',
                                 '{"generator": "seasalt report", "files": [3]}',
                                 '{"generator": "seasalt report", "files": ["a/./b"]}',
                                 '{"generator": "seasalt report", "files": [""]}',
                                 "[" * 100000])
def test_a_damaged_manifest_proves_nothing(sweep, tmp_path, sentinel, bad):
    rep = tmp_path / "rep"
    assert cli("report", sweep, "--out", str(rep)).returncode == 0
    (rep / ".seasalt-report.json").write_text(bad)
    before, mine = tree(sentinel), tree(rep)
    refused(cli("report", sweep, "--out", str(rep)), "is not empty")
    assert tree(sentinel) == before and tree(rep) == mine


def test_without_a_manifest_the_users_csv_and_chart_named_images_stay(sweep, tmp_path):
    """Item 1, second half: no name pattern decides; an index.html with the generator tag and
    files named like a report's are the user's until a manifest proves otherwise."""
    d = tmp_path / "mine"
    (d / "results").mkdir(parents=True)
    (d / "results" / "my-runs.csv").write_text("a,b\n1,2\n")
    (d / "stop_threshold.png").write_bytes(b"my picture")
    (d / "index.html").write_text('<meta name="generator" content="seasalt report">')
    before = tree(d)
    refused(cli("report", sweep, "--out", str(d)), "no .seasalt-report.json", "index.html")
    assert tree(d) == before


def test_a_symlinked_folder_inside_is_removed_as_a_link_only(sweep, tmp_path, sentinel):
    """A manifest may list a name that is now a link to elsewhere: the link goes, never what it
    points at."""
    rep = tmp_path / "rep"
    assert cli("report", sweep, "--out", str(rep)).returncode == 0
    for p in sorted((rep / "results").iterdir()):
        p.unlink()
    (rep / "results").rmdir()
    (rep / "results").symlink_to(sentinel)             # results -> the sentinel folder
    before = tree(sentinel)
    assert cli("report", sweep, "--out", str(rep)).returncode == 0
    assert tree(sentinel) == before
    assert (rep / "results").is_dir() and not (rep / "results").is_symlink()


@pytest.mark.parametrize("case", ["notes beside a guide", "a project with a copied guide page"])
def test_guide_never_replaces_a_folder_by_its_generator_tag(tmp_path, case):
    """Item 2: the guide's generator tag in index.html is no proof; refused before any work."""
    d = tmp_path / "g"
    d.mkdir()
    (d / "index.html").write_text('<meta name="generator" content="seasalt guide">')
    if case == "notes beside a guide":
        (d / "notes.txt").write_text("my notes")
    else:
        (d / "src").mkdir()
        (d / "src" / "main.py").write_text("print(1)\n")
        (d / "README.md").write_text("# mine\n")
    before = tree(d)
    refused(cli("guide", "--out", str(d), "--small"), "no .seasalt-guide.json")
    assert tree(d) == before


def _build(files: dict[str, str]):
    def build(tmp: Path) -> None:
        for rel, text in files.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(text)
    return build


def test_out_dot_builds_and_rebuilds_in_place(tmp_path, monkeypatch, sentinel):
    """`--out .` works for every folder writer: the rule builds inside and moves in."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    before = tree(sentinel)
    outdir.write(outdir.check(".", "seasalt guide"), _build({"index.html": "1", "data/a.csv": "a"}))
    outdir.write(outdir.check(".", "seasalt guide"), _build({"index.html": "2", "b.png": "b"}))
    assert tree(here) == {".seasalt-guide.json": tree(here)[".seasalt-guide.json"],
                          "b.png": b"b", "index.html": b"2"}
    assert sorted(os.listdir(tmp_path)) == ["here", "sentinel"] and tree(sentinel) == before
    (here / "mine.txt").write_text("x")
    with pytest.raises(SeasaltError, match="mine.txt"):
        outdir.check(".", "seasalt guide")


def test_a_file_that_appears_during_the_run_stops_the_install(tmp_path):
    """The long run (a guide is hours) ends by looking again: a file put there meanwhile stays,
    nothing is replaced, and the new output is kept where it was built."""
    d = tmp_path / "g"
    outdir.write(outdir.check(d, "seasalt guide"), _build({"index.html": "old"}))
    folder = outdir.check(d, "seasalt guide")
    (d / "late.txt").write_text("mine")
    with pytest.raises(SeasaltError, match="late.txt appeared") as e:
        outdir.write(folder, _build({"index.html": "new"}))
    assert (d / "late.txt").read_text() == "mine" and (d / "index.html").read_text() == "old"
    kept = [p for p in d.iterdir() if p.name.startswith(outdir.TMP_PREFIX)]
    assert len(kept) == 1 and str(kept[0]) in str(e.value)
    assert (kept[0] / "index.html").read_text() == "new"


def test_a_failed_build_leaves_the_folder_as_it_was(tmp_path):
    d = tmp_path / "g"
    outdir.write(outdir.check(d, "seasalt guide"), _build({"index.html": "old"}))
    before = tree(d)

    def broken(tmp: Path) -> None:
        (tmp / "index.html").write_text("half")
        raise SeasaltError("no")
    with pytest.raises(SeasaltError, match="no"):
        outdir.write(outdir.check(d, "seasalt guide"), broken)
    assert tree(d) == before
    with pytest.raises(SeasaltError, match="no"):
        outdir.write(outdir.check(tmp_path / "new", "seasalt guide"), broken)
    assert sorted(os.listdir(tmp_path)) == ["g"]


@pytest.mark.parametrize("path,ok", [("a.png", True), ("results/x.csv", True), ("", False),
                                     ("/etc/passwd", False), ("../x", False), ("a/../b", False),
                                     ("./a", False), ("a//b", False), ("a\\b", False),
                                     ("..", False), (".", False), (3, False), ("a/", False)])
def test_manifest_paths_are_relative_normalised_and_inside(path, ok):
    assert outdir.safe_path(path) is ok
