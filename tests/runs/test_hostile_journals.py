"""Study journals of `seasalt optimize` and `seasalt guide` (analyzer.runs.stages), issue 28 item 3
and the journal half of item 5: a study stopped in its first stage resumes; a hand-edited
counter, a damaged line (1e999, 10**30, deep nesting, a short vector), a symbolic link, a link
to /dev/zero and changed options are each one `error:` line that names the line or what
differs; the output is written before a cache journal is deleted. Then 25 more malformed
journals, each one line, exit 2, no traceback, nothing outside the run's folder touched."""
from __future__ import annotations

import dataclasses

import hashlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from analyzer.runs import stages
from analyzer.runs.spec import Backend
from hostile import SEASALT, cli, listing, make_sentinel, one_line

OPT = ["optimize", "--players", "2", "--knob", "stop_at=7..9", "--generations", "2",
       "--population", "4", "--games", "40", "--finalists", "2", "--final-games", "40",
       "--holdout-games", "60", "--seed", "3"]


def _timeless(text: str) -> str:
    return "\n".join(x for x in text.splitlines() if not x.startswith("time "))


@pytest.fixture(scope="module")
def journal(tmp_path_factory) -> tuple[list[bytes], str]:
    """A complete journal of OPT (its lines) and the uninterrupted run's output."""
    d = tmp_path_factory.mktemp("journal")
    p = cli(*OPT, "--checkpoint", d / "j.jsonl")
    assert p.returncode == 0, p.stderr
    return (d / "j.jsonl").read_bytes().splitlines(keepends=True), p.stdout


def _resign(line: bytes, **change) -> bytes:
    """A journal line with fields changed and its checksum recomputed (a careful forger)."""
    rec = json.loads(line)
    rec.update(change)
    fp = json.loads(_HEAD[0])["fingerprint"]
    rec["check"] = stages.line_check(fp, rec["stage"], rec["batches"], rec["counters"])
    return (json.dumps(rec) + "\n").encode()


_HEAD: list[bytes] = []


@pytest.fixture
def place(tmp_path, journal):
    """(run folder, sentinel folder); the sentinel is listed again after the test."""
    _HEAD[:] = journal[0][:1]
    run = tmp_path / "run"
    run.mkdir()
    sentinel = make_sentinel(tmp_path / "sentinel")
    before = listing(sentinel)
    yield run, sentinel
    assert listing(sentinel) == before


def _resume(run: Path, *extra) -> subprocess.CompletedProcess:
    return cli(*OPT, *extra, "--checkpoint", run / "j.jsonl", "--resume", cwd=run)


# --- item 3: stopped in the first stage ---------------------------------------------------------

def test_a_study_stopped_in_its_first_stage_resumes(tmp_path, journal):
    """The first generation is long (many tasks); Ctrl-C once its stage checkpoint holds a
    finished task and the journal no stage: --resume continues it to the uninterrupted answer,
    a plain rerun says --resume, not 'nothing to resume'."""
    big = [*OPT[:OPT.index("--games") + 1], "4000", *OPT[OPT.index("--games") + 2:]]
    ck = tmp_path / "j.jsonl"
    stage = tmp_path / "j.jsonl.stage"
    proc = subprocess.Popen([SEASALT, *big, "--checkpoint", str(ck), "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not (stage.exists() and stage.read_bytes().count(b"\n") >= 2):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the first stage never started"
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    assert ck.read_bytes().count(b"\n") == 1            # the header: no stage finished
    one_line(cli(*big, "--checkpoint", ck), "already exists", "--resume")
    again = cli(*big, "--checkpoint", ck, "--resume")
    assert again.returncode == 0, again.stderr
    fresh = cli(*big, "--checkpoint", tmp_path / "fresh.jsonl")
    assert _timeless(again.stdout) == _timeless(fresh.stdout)


def test_the_cache_journal_is_resumable_from_the_start(tmp_path, monkeypatch):
    """Without --checkpoint the journal exists from the start too (the rerun is told --resume)."""
    monkeypatch.setenv("SEASALT_CHECKPOINT_DIR", str(tmp_path / "cache"))
    s = stages.Staged({"x": 1}, {"command": "test", "seed": 1}, 10)
    assert s.path.exists() and s.path.read_bytes().count(b"\n") == 1
    s.close()
    with pytest.raises(stages.SeasaltError, match="--resume"):
        stages.Staged({"x": 1}, {"command": "test", "seed": 1}, 10)
    again = stages.Staged({"x": 1}, {"command": "test", "seed": 1}, 10,
                          backend=Backend(resume=True))
    again.finish()
    assert not again.path.exists()


# --- item 3: hand edits, symlinks, damage, changed options ---------------------------------------

def test_a_hand_edited_counter_is_refused(place, journal):
    run, _ = place
    lines = list(journal[0])
    rec = json.loads(lines[1])
    rec["counters"][0][0] += 1
    lines[1] = (json.dumps(rec) + "\n").encode()
    (run / "j.jsonl").write_bytes(b"".join(lines))
    one_line(_resume(run), "damaged at line 2", "checksum")


def test_a_symlinked_journal_is_refused_on_resume(place, journal):
    run, sentinel = place
    (sentinel / "j.jsonl").write_bytes(b"".join(journal[0]))
    os.symlink(sentinel / "j.jsonl", run / "j.jsonl")
    one_line(_resume(run), "symbolic link")
    (sentinel / "j.jsonl").unlink()


@pytest.mark.parametrize("counters", ["[[1e999]]", f"[[{10 ** 30}]]",
                                      "[" * 50_000 + "]" * 50_000, "short"])
def test_a_damaged_line_is_named(place, journal, counters):
    run, _ = place
    lines = list(journal[0])
    if counters == "short":           # checksum recomputed: only the length gives it away
        rec = json.loads(lines[2])
        lines[2] = _resign(lines[2], counters=[c[:-1] for c in rec["counters"]])
    else:
        rec = json.loads(lines[2])
        text = json.dumps(rec).replace(json.dumps(rec["counters"]), counters)
        lines[2] = (text + "\n").encode()
    (run / "j.jsonl").write_bytes(b"".join(lines))
    one_line(_resume(run), "damaged at line 3")


def test_changed_options_are_named(place, journal):
    run, _ = place
    (run / "j.jsonl").write_bytes(b"".join(journal[0]))
    line = one_line(cli(*[("5" if x == "3" and i == len(OPT) - 1 else x)
                          for i, x in enumerate(OPT)], "--checkpoint", run / "j.jsonl",
                        "--resume", cwd=run), "different run")
    assert "seed 3 there, 5 here" in line, line
    line = one_line(_resume(run, "--elite", "0.5"), "different run")
    assert "elite 0.25 there, 0.5 here" in line, line


def test_a_journal_resumes_to_the_same_answer(place, journal):
    run, _ = place
    (run / "j.jsonl").write_bytes(b"".join(journal[0][:2]) + journal[0][2][:30])
    p = _resume(run)
    assert p.returncode == 0, p.stderr
    assert _timeless(p.stdout) == _timeless(journal[1])


def test_output_that_cannot_be_written_keeps_the_cache_journal(tmp_path, monkeypatch):
    """The output fails to be written after all the work (a full disk, here an OSError from
    the command's writer): the study's cache journal is still there, so the rerun with --resume
    recomputes nothing, and only once its output is written is the journal deleted."""
    from analyzer.studies import optimize as opt
    monkeypatch.setenv("SEASALT_CHECKPOINT_DIR", str(tmp_path / "cache"))
    s = opt.OptimizeSpec.build(players=2, knobs=["stop_at=7..9"], generations=2, population=4,
                               games=40, finalists=2, final_games=40, holdout_games=60, seed=3)

    def full_disk(*_frames):
        raise OSError(28, "No space left on device")
    with pytest.raises(OSError):
        opt.run(s, write=full_disk)
    kept = list((tmp_path / "cache").glob("study-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_bytes().count(b"\n") == 5, kept
    written = []
    result, *_ = opt.run(dataclasses.replace(s, backend=Backend(resume=True)),
                         write=lambda *f: written.append(f))
    assert written and result["timing"]["stages_run"] == 0
    assert result["timing"]["stages_resumed"] == 4
    assert not list((tmp_path / "cache").glob("study-*.jsonl"))


# --- item 5: unbounded reads ------------------------------------------------------------------

def test_a_journal_linked_to_dev_zero_is_refused(place):
    run, _ = place
    os.symlink("/dev/zero", run / "j.jsonl")
    one_line(_resume(run), "symbolic link")


def test_dev_zero_itself_is_refused(place):
    run, _ = place
    one_line(cli(*OPT, "--checkpoint", "/dev/zero", "--resume", cwd=run), "not a regular file")


# --- 25 malformed journals ---------------------------------------------------------------------

def _edit(lines, i, f):
    lines = list(lines)
    lines[i] = f(lines[i])
    return b"".join(lines)


def _rec(i, **change):
    def f(line):
        rec = json.loads(line)
        rec.update(change)
        return (json.dumps(rec) + "\n").encode()
    return f


MALFORMED = {
    "empty": (lambda L: b"", "no header"),
    "torn header": (lambda L: L[0][:40], "no header"),
    "not json": (lambda L: b"hello\n", "not a seasalt study"),
    "a list header": (lambda L: b"[1, 2]\n", "not a seasalt study"),
    "a runner checkpoint": (lambda L: b'{"seasalt_checkpoint": 2}\n', "not a seasalt study"),
    "format 1": (lambda L: _edit(L, 0, _rec(0, seasalt_study=1)), "study format 1"),
    "format huge": (lambda L: _edit(L, 0, _rec(0, seasalt_study="x" * 5000)), "study format"),
    "another fingerprint": (lambda L: _edit(L, 0, _rec(0, fingerprint="0" * 64)),
                            "different run"),
    "deep header": (lambda L: b"[" * 100_000 + b"]" * 100_000 + b"\n", "not a seasalt study"),
    "binary": (lambda L: L[0] + b"\x00\xff\xfe garbage\n", "damaged at line 2"),
    "invalid utf-8": (lambda L: L[0] + b'{"stage": "\xff"}\n', "damaged at line 2"),
    "a number": (lambda L: L[0] + b"42\n", "damaged at line 2"),
    "no run id": (lambda L: _edit(L, 1, _rec(1, run=None)), "damaged at line 2"),
    "another run id": (lambda L: _edit(L, 1, _rec(1, run="f" * 16)), "another study"),
    "no checksum": (lambda L: _edit(L, 2, _rec(2, check=None)), "damaged at line 3"),
    "stage an int": (lambda L: _edit(L, 1, _rec(1, stage=7)), "damaged at line 2"),
    "counters a string": (lambda L: _edit(L, 1, _rec(1, counters="1,2")), "damaged at line 2"),
    "counter a float": (lambda L: _edit(L, 1, _rec(1, counters=[[1.5]])), "damaged at line 2"),
    "counter a bool": (lambda L: _edit(L, 1, _rec(1, counters=[[True]])), "damaged at line 2"),
    "counter over int64": (lambda L: _edit(L, 1, _rec(1, counters=[[2 ** 63]])),
                           "damaged at line 2"),
    "5000 digits": (lambda L: _edit(L, 1, lambda x: x.replace(b'"counters": [[',
                                                              b'"counters": [[' + b"9" * 5000
                                                              + b",")), "damaged at line 2"),
    "vectors missing": (lambda L: _edit(L, 1, lambda x: _resign(x, counters=[])),
                        "damaged at line 2"),
    "other batches": (lambda L: _edit(L, 1, lambda x: _resign(x, batches="0" * 64)),
                      "other batches"),
    "a stage twice": (lambda L: L[0] + L[1] + L[1], "damaged at line 3"),
    "nan": (lambda L: _edit(L, 1, lambda x: x.replace(b'"counters": [[', b'"counters": [[NaN,')),
            "damaged at line 2"),
    "a line over the limit": (lambda L: L[0] + b" " * (stages.LINE_LIMIT + 10) + b"\n",
                              "over 64 MiB"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_journals_are_one_line(place, journal, case):
    run, _ = place
    make, words = MALFORMED[case]
    (run / "j.jsonl").write_bytes(make(journal[0]))
    before = listing(run)
    one_line(_resume(run), words)
    if case != "empty" and case != "torn header":
        assert listing(run) == before            # a refused journal is left as it was


def test_a_directory_or_stage_link_is_refused(place, journal):
    run, sentinel = place
    (run / "j.jsonl").mkdir()
    one_line(_resume(run), "directory")
    one_line(cli(*OPT, "--checkpoint", run / "j.jsonl", cwd=run), "not a regular file")
    (run / "j.jsonl").rmdir()
    os.symlink(sentinel / "notes.txt", run / "j.jsonl.stage")
    one_line(cli(*OPT, "--checkpoint", run / "j.jsonl", cwd=run), "symbolic link")


def _interrupt_when(proc: subprocess.Popen, stage: Path, lines: int,
                    sig: int = signal.SIGINT) -> str:
    """`sig` (SIGINT: exit 130) once the stage checkpoint holds `lines` lines; the run's
    stderr."""
    deadline = time.monotonic() + 240
    while not (stage.exists() and stage.read_bytes().count(b"\n") >= lines):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the stage never got that far"
        time.sleep(0.01)
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + sig and "Traceback" not in err, (proc.returncode, err)
    return err


@pytest.mark.parametrize("command, sig", [
    (["optimize", "--players", "2", "--knob", "stop_at=7..9", "--generations", "2",
      "--population", "4", "--games", "400000", "--finalists", "2", "--final-games", "40",
      "--holdout-games", "60", "--seed", "3"], signal.SIGTERM),
    (["guide", "--small"], signal.SIGHUP)])
def test_sigterm_and_sighup_stop_a_study_as_they_stop_other_commands(tmp_path, command, sig):
    """SIGTERM or SIGHUP in a study's stage: exit 128 + the signal and "terminated by SIG...",
    as simulate, sweep and tournament say it (they said "interrupted", exit 130), the
    finished work kept and named."""
    ck, stage = tmp_path / "j.jsonl", tmp_path / "j.jsonl.stage"
    out = ["--out", str(tmp_path / "guide")] if command[0] == "guide" else []
    args = [SEASALT, *command, *out, "--checkpoint", str(ck), "--jobs", "1"]
    err = _interrupt_when(subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True), stage, 2, sig)
    line = [x for x in err.splitlines() if x.strip()][-1]       # after guide's heading
    assert line.startswith(f"terminated by {signal.Signals(sig).name} in "), line
    assert "interrupted" not in err
    assert str(ck) in line and "--resume" in line


def test_a_guide_stopped_in_its_first_stage_resumes(tmp_path):
    """The guide's first stage (all its studies but the best response) is most of its work: a
    guide stopped there is told --resume by a plain rerun, and --resume continues the stage's
    own checkpoint (stopped again, it holds more finished tasks than before: none redone)."""
    ck, stage = tmp_path / "g.jsonl", tmp_path / "g.jsonl.stage"
    args = [SEASALT, "guide", "--out", str(tmp_path / "guide"), "--small", "--checkpoint",
            str(ck), "--jobs", "1"]
    err = _interrupt_when(subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True), stage, 3)
    assert "interrupted in studies" in err and "--resume" in err, err
    kept = stage.read_bytes().count(b"\n")
    one_line(cli(*args[1:]), "already exists", "--resume")
    _interrupt_when(subprocess.Popen(args + ["--resume"], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True), stage, kept + 2)
    assert stage.read_bytes().count(b"\n") >= kept + 2
    assert not (tmp_path / "guide").exists()


def test_a_chart_that_cannot_be_written_is_refused_before_any_work(tmp_path):
    """--chart in a missing directory used to be a traceback after the whole run."""
    env = {**os.environ, "SEASALT_CHECKPOINT_DIR": str(tmp_path / "cache")}
    p = subprocess.run([SEASALT, *OPT, "--chart", str(tmp_path / "nowhere" / "c.png")],
                       capture_output=True, text=True, env=env, timeout=300)
    one_line(p, "--chart", "does not exist")
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").iterdir())
