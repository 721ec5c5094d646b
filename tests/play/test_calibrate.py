"""`seasalt calibrate`: the martingale steps and reliability computed as defined, each game the
review of seed S+g, the same answer whatever the threads or an interruption, and the command's
outputs and errors."""
from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from analyzer.base.errors import RunInterrupted, SeasaltError
from analyzer.faces.cli import main
from analyzer.numbers.estimates import cluster_mean
from analyzer.play.review import review
from analyzer.runs.spec import Backend
from analyzer.play.calibrate import FIELDS, CalibrateSpec, figures_of, run as run_calibrate
from analyzer.render.calibrate_text import format_calibration

SMALL = dict(samples=40, target=12)


def _row(rnd: int, p: float) -> list:
    """A journal row with only the round and the unweighted P(win) set."""
    return [{"round": rnd, "p": p}.get(f) for f in FIELDS]


def test_cluster_mean_is_the_ratio_with_the_sandwich_variance():
    """Two clusters (sums 1 and 3 over 2 and 2 observations): mean 1, variance
    2/1 * ((1-2)^2 + (3-2)^2) / 4^2 = 0.25, so the 95% half-width is 1.96 * 0.5."""
    m, lo, hi = cluster_mean([1.0, 3.0], [2, 2])
    assert m == 1.0
    assert hi - m == pytest.approx(1.959963984540054 * 0.5)
    assert m - lo == pytest.approx(hi - m)
    assert math.isnan(cluster_mean([1.0], [2])[1])          # one game: no width


def test_the_steps_are_measured_from_every_decision():
    """Game 0 (won): rounds 1 (0.5 -> 0.6 -> 0.7) and 2 (0.4 -> 0.9); game 1 (lost): round 1
    (0.2 -> 0.2). To the next decision (the result after the last): +.1 +.1 -.3 +.5 +.1 and
    0 -.2, mean 0.3/7; to the round's end (the next round's first decision, else the result):
    -.1 -.2 -.3 +.6 +.1 and -.2 -.2, mean -0.3/7; to the result: .5 .4 .3 .6 .1 and -.2 -.2,
    mean 1.5/7; Brier the mean squared distance of the seven P(win)s to their game's result."""
    games = [{"game": 0, "won": 1, "rows": [_row(1, .5), _row(1, .6), _row(1, .7), _row(2, .4),
                                           _row(2, .9)]},
             {"game": 1, "won": 0, "rows": [_row(1, .2), _row(1, .2)]}]
    f = figures_of(games, "p")
    st = f["steps"]
    assert st["next"]["mean"] == pytest.approx(0.3 / 7) and st["next"]["n"] == 7
    assert st["round_end"]["mean"] == pytest.approx(-0.3 / 7)
    assert st["result"]["mean"] == pytest.approx(1.5 / 7)
    brier = (.25 + .16 + .09 + .36 + .01 + .04 + .04) / 7
    assert f["brier"]["mean"] == pytest.approx(brier)
    bins = {tuple(b["bin"]): b for b in f["reliability"]}
    assert bins[(0.2, 0.3)]["decisions"] == 2 and bins[(0.2, 0.3)]["won"] == 0
    assert bins[(0.9, 1.0)]["won"] == 1 and bins[(0.9, 1.0)]["predicted"] == pytest.approx(.9)


def test_each_game_is_the_review_of_its_seed():
    """Game g's figures are `seasalt review --seed S+g`'s: the P(win) of the choice made, and
    the weighted one of its reading, decision by decision; the result is whether the seat won
    outright."""
    spec = CalibrateSpec.build(2, ["baseline"], 2, 300, **SMALL,
                               backend=Backend(jobs=1, checkpoint=None))
    from analyzer.play.calibrate import review_game_figures
    for g in range(2):
        fig = review_game_figures(spec, g)
        r = review(300 + g, 2, ["baseline"], samples=40, target=12, backend=Backend(jobs=1))
        assert fig["won"] == int(r["winners"] == [0])
        assert [x[FIELDS.index("p")] for x in fig["rows"]] == \
            [d["win_game_chosen"]["rate"] for d in r["decisions"]]
        assert [x[FIELDS.index("p_read")] for x in fig["rows"]] == \
            [d["reading"]["win_game_chosen"]["rate"] for d in r["decisions"]]


def test_the_answer_does_not_depend_on_threads_or_an_interruption(tmp_path):
    """One thread, two threads and a run interrupted after one game and resumed give the same
    figures; the interruption names the journal and --resume."""
    def spec(jobs, name, resume=False):
        return CalibrateSpec.build(2, ["baseline"], 3, 77, **SMALL, backend=Backend(
            jobs=jobs, checkpoint=str(tmp_path / name), resume=resume))
    one, _ = run_calibrate(spec(1, "a"))
    two, _ = run_calibrate(spec(2, "b"))
    assert one == two

    def stop_after_one(done, total):
        if done == 1:
            raise KeyboardInterrupt
    with pytest.raises(RunInterrupted, match=r"after 1 of 3 games.*--resume"):
        run_calibrate(spec(2, "c"), stop_after_one)
    resumed, journal = run_calibrate(spec(2, "c", resume=True))
    assert resumed == one and len(journal.done) == 3


def test_a_journal_refuses_another_study_and_a_damaged_line(tmp_path):
    """An existing journal is neither overwritten without --restart nor resumed by a study of
    other options; an edited game line is refused with its line number."""
    path = tmp_path / "j.jsonl"

    def spec(seed=5, **kw):
        return CalibrateSpec.build(2, ["baseline"], 1, seed, **SMALL,
                                   backend=Backend(jobs=1, checkpoint=str(path), **kw))
    run_calibrate(spec())
    with pytest.raises(SeasaltError, match="add --resume to continue it, or --restart"):
        run_calibrate(spec())
    with pytest.raises(SeasaltError, match="another study's: seed 5 there, 6 here"):
        run_calibrate(spec(6, resume=True))
    lines = path.read_text().splitlines()
    edited = lines[1].replace('"won": 0', '"won": 1') if '"won": 0' in lines[1] else \
        lines[1].replace('"won": 1', '"won": 0')
    path.write_text(lines[0] + "\n" + edited + "\n")
    with pytest.raises(SeasaltError, match="line 2 is damaged"):
        run_calibrate(spec(resume=True))


def test_calibrate_command_prints_the_steps_and_writes_its_files(tmp_path):
    """The text names each step and the reliability table within 100 columns; --json holds
    the same figures; --out has one row per decision; the chart is a PNG; the cache journal is
    gone once the output is written."""
    out, chart = tmp_path / "rows.csv", tmp_path / "rel.png"
    args = ["calibrate", "--games", "2", "--seed", "41", "--samples", "40", "--target", "12"]
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    res = CliRunner().invoke(main, args + ["--out", str(out), "--chart", str(chart)], env=env)
    assert res.exit_code == 0, res.output
    text = res.output
    for words in ("to the next decision", "to the round's end", "to the result", "Brier score",
                  "P(win) quoted", "weighted by the round's history"):
        assert words in text
    assert max(len(line) for line in text.splitlines()) <= 100
    assert chart.read_bytes()[:4] == b"\x89PNG"
    import pandas as pd
    rows = pd.read_csv(out)
    j = CliRunner().invoke(main, args + ["--json"], env=env)
    r = json.loads(j.output)
    assert len(rows) == r["decisions"] and set(r["figures"]) == {"plain", "read"}
    assert sorted(rows["game_seed"].unique()) == [41, 42]
    assert not list((tmp_path / "cache").rglob("calibrate-*.jsonl"))
    assert format_calibration(r) in text


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "games must be a whole number from 1"),
    (["--seat", "2"], "seat must be a seat of the game"),
    (["--samples", "1"], "samples must be between 2"),
    (["--reading", "nobody"], "nobody"),
    (["--chart", "x.txt"], "give a .png or .svg file"),
])
def test_bad_options_are_one_line_errors(args, message, tmp_path):
    res = CliRunner().invoke(main, ["calibrate", "--seed", "1", *args],
                             env={"XDG_CACHE_HOME": str(tmp_path)})
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]


def test_a_real_interrupt_keeps_the_games_and_resume_finishes_the_same_study(tmp_path):
    """SIGINT to a running `seasalt calibrate`: exit 130, one line naming the journal and
    `--resume --seed`; a rerun without --resume refuses (exit 2) and keeps the journal; with
    --resume it completes to exactly the uninterrupted study's figures."""
    import os
    import signal
    from cli_helpers import refused_then_resumed, started
    env = dict(os.environ, SEASALT_CHECKPOINT_DIR=str(tmp_path / "ck"))
    args = ["calibrate", "--games", "60", "--seed", "5", "--samples", "40", "--target", "12",
            "--json"]
    p = started(args, env, tasks=3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    (journal,) = (tmp_path / "ck").glob("calibrate-*.jsonl")
    (line,) = [x for x in err.splitlines() if x.strip()]
    assert p.returncode == 130 and out == "" and "Traceback" not in err
    assert line.startswith("interrupted after ") and str(journal) in line
    assert line.endswith("--resume --seed 5")
    resumed = refused_then_resumed(args, env, journal)
    assert not journal.exists()                      # the output is written: the cache's goes
    whole, _ = run_calibrate(CalibrateSpec.build(2, ["baseline"], 60, 5, **SMALL, backend=Backend(
        checkpoint=str(tmp_path / "whole.jsonl"))))
    assert json.loads(resumed.stdout)["figures"] == json.loads(json.dumps(whole))["figures"]


def test_the_study_gives_each_luck_and_skill_term_over_its_games(tmp_path):
    """Each term's mean over the games is the mean of the games' own reviews (`seasalt review
    --seed S+g`), the result the share of games won outright; the text shows the table."""
    from analyzer.play.review import ReviewSpec, run
    spec = CalibrateSpec.build(2, ["baseline"], 3, 91, **SMALL,
                               backend=Backend(jobs=1, checkpoint=str(tmp_path / "j")))
    r, _ = run_calibrate(spec)
    games = [run(ReviewSpec(spec.game(g), 0, spec.samples))["summary"] for g in range(3)]
    f = r["luck_and_skill"]
    assert f["games"] == 3
    for k in ("start", "luck", "skill", "opponents", "residual", "error_rate", "result"):
        assert abs(f[k]["mean"] - sum(x[k] for x in games) / 3) < 1e-12, k
    assert f["residual_covered"] == sum(x["residual_lo"] <= 0 <= x["residual_hi"] for x in games)
    assert "luck (the cards)" in format_calibration(r)
