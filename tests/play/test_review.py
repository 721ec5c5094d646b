"""`seasalt review`: the reviewed game is the replayed game, the advisor sees only what the
seat knew, the loss of a choice is measured against the best action on the same deals, and
the command's outputs (text, --json, --out CSV, errors)."""
from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.faces.cli import main
from analyzer.play.replay import replay
from analyzer.play.review import _decisions, review
from analyzer.render.review_text import format_review
from kernels import cards as kc
from kernels import state as ks
from analyzer.rules.policies import policy_arrays, seat_policies
from analyzer.runs.spec import Backend


def test_the_reviewed_game_is_the_replayed_game():
    """Same seed and options: the review's game has the replay's rounds and totals, and every
    decision of the seat is one the seat faced (its choice is one of the options)."""
    r = review(5, 2, ["baseline"], seat=1, samples=60, target=15)
    g = replay(5, 2, ["baseline"], target=15)
    assert r["rounds_played"] == g["rounds_played"] and r["totals"] == g["totals"]
    assert r["decisions"]
    for d in r["decisions"]:
        assert d["chosen"] in d["options"] and d["advisor"] in d["options"]
        assert len(d["options"]) >= 2
        if d["chosen"] == d["advisor"]:
            assert d["loss"]["mean"] == 0


def test_the_seat_sees_only_what_it_knows():
    """At every reviewed decision, every card is either placed in the seat's view or in the pool
    of cards it cannot place, exactly once, and the pool fills exactly the view's blanks."""
    pols = seat_policies(["baseline", "random"], 2)
    pk, pp = policy_arrays(pols)
    deck = kc.deck_types("base")
    full = kc.copies_in("base").astype(np.int64)
    decisions, _ = _decisions(2, 0, deck, full, 20, pk, pp, 3)
    assert decisions
    for d in decisions:
        v = d.template
        census = np.bincount(d.pool, minlength=kc.NTYPES)
        for j in range(2):
            base = ks.PILE + j * kc.MAX_DECK
            cards = v[base:base + int(v[ks.PILE_LEN + j])]
            census += np.bincount(cards[cards >= 0], minlength=kc.NTYPES)
        n = int(v[ks.DECK_LEN])
        deck_cards = v[ks.DECK:ks.DECK + n]
        census += np.bincount(deck_cards[deck_cards >= 0], minlength=kc.NTYPES)
        for q in range(2):
            census += v[ks.HT + q * kc.NTYPES:ks.HT + (q + 1) * kc.NTYPES]
            census += v[ks.TT + q * kc.NTYPES:ks.TT + (q + 1) * kc.NTYPES]
        assert (census == full).all()                # every card placed or in the pool, once
        blanks = int(d.unknown.sum()) + int((deck_cards < 0).sum()) + sum(
            int((v[ks.PILE + j * kc.MAX_DECK:ks.PILE + j * kc.MAX_DECK
                   + int(v[ks.PILE_LEN + j])] < 0).sum()) for j in range(2))
        assert blanks == len(d.pool)


def test_a_random_seat_loses():
    """The random player's choices cost it, distinguishably, P(win) in total (the review
    measures what a choice is worth), and each loss is the measured difference between the
    advisor's choice and the choice made."""
    r = review(2, 2, ["random", "random"], seat=0, samples=1000, target=15)
    assert r["summary"]["total_loss"]["ci95"][0] > 0
    for d in r["decisions"]:
        if d["chosen"] == d["advisor"]:
            assert d["loss"] == {"mean": 0.0, "ci95": [0.0, 0.0]}
        else:
            gap = d["win_game_advisor"]["rate"] - d["win_game_chosen"]["rate"]
            assert abs(d["loss"]["mean"] - gap) < 1e-12
            assert d["options"][d["chosen"]]["vs_advisor"]["mean"] == pytest.approx(-gap)


def test_review_is_deterministic_for_any_jobs():
    one = review(4, 3, ["baseline"], seat=2, samples=80, target=12, backend=Backend(jobs=1))
    two = review(4, 3, ["baseline"], seat=2, samples=80, target=12, backend=Backend(jobs=2))
    assert one == two


def test_review_cli_text_json_csv(tmp_path):
    runner = CliRunner()
    out = tmp_path / "review.csv"
    r = runner.invoke(main, ["review", "--seed", "7", "-p", "2", "--seat", "0", "--samples", "100",
                             "--target", "15", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "costliest decisions" in r.stdout or "no decision" in r.stdout or "chose as" in r.stdout
    assert all(len(line) <= 100 for line in r.stdout.splitlines())
    rows = list(csv.DictReader(out.open()))
    j = runner.invoke(main, ["review", "--seed", "7", "-p", "2", "--seat", "0", "--samples", "100",
                             "--target", "15", "--json"])
    assert j.exit_code == 0
    d = json.loads(j.stdout)
    assert len(rows) == len(d["decisions"]) and rows[0]["seed"] == "7"
    assert {"loss", "loss_lo", "loss_hi", "advisor", "chosen", "version", "policies",
            "reading_advisor", "reading_flips", "reading_ess"} <= set(rows[0])
    assert "effective sample size" in r.stdout        # the hand reading's line
    assert all(len(line) <= 100 for line in j.stdout.splitlines())


def test_review_from_a_replay_file(tmp_path):
    runner = CliRunner()
    g = runner.invoke(main, ["replay", "--seed", "3", "-p", "3", "--target", "10", "--json"])
    path = tmp_path / "game.json"
    path.write_text(g.stdout)
    r = runner.invoke(main, ["review", "--replay", str(path), "--seat", "1", "--samples", "50",
                             "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["seed"] == 3
    game = json.loads(g.stdout)
    game["rounds"][0]["events"][1]["seat"] = 2         # an edited file is not that game
    path.write_text(json.dumps(game))
    bad = runner.invoke(main, ["review", "--replay", str(path), "--seat", "1", "--samples", "50"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error:") and "differ" in bad.stderr


def _without_reading(r: dict) -> dict:
    """The review minus what hand reading adds (the top-level model, the rows' reading, the
    summary's list of decisions where it changes the choice, the measured drift quoted for the
    weighted figures rather than the printed ones)."""
    r = json.loads(json.dumps(r))
    r.pop("reading")
    r.pop("calibration")
    r["summary"].pop("reading_flips")
    for d in r["decisions"]:
        d.pop("reading", None)
    return r


def test_reading_adds_to_the_review_and_changes_nothing_else():
    """Reading the opponents (issue 25) draws the choosing half through the hand reading, whose
    unweighted tally is the advisor's own: every other figure of the review is the same as with
    reading off. Each row reads the round so far: its effective sample size is at most the
    choosing half (every deal weighs at most 1) and equals it when nothing was read; with
    tremble 1 every deal weighs the same, so the weighted choice is the advisor's everywhere."""
    plain = review(6, 3, ["baseline", "threshold(stop_at=8)", "baseline"], seat=1, samples=120,
                   target=12, reading="off")
    read = review(6, 3, ["baseline", "threshold(stop_at=8)", "baseline"], seat=1, samples=120,
                  target=12)
    assert plain["reading"] is None and "reading" not in plain["decisions"][0]
    assert _without_reading(read) == _without_reading(plain)
    assert (plain["calibration"]["figures"], read["calibration"]["figures"]) == ("plain", "read")
    rows = [d["reading"] for d in read["decisions"]]
    assert all(x["samples"] == 60 and x["ess"] <= 60 + 1e-9 for x in rows)
    assert all(x["ess"] == pytest.approx(60) for x in rows if x["observations"] == 0)
    assert any(x["observations"] > 0 for x in rows) and any(x["ess"] < 59 for x in rows)
    assert read["summary"]["reading_flips"] == [i for i, x in enumerate(rows) if x["flips"]]
    flat = review(6, 3, ["baseline", "threshold(stop_at=8)", "baseline"], seat=1, samples=120,
                  target=12, tremble=1.0)
    assert not flat["summary"]["reading_flips"]
    assert all(x["ess"] == pytest.approx(60) for x in (d["reading"] for d in flat["decisions"]))


@pytest.mark.parametrize("args, words", [
    (["--seed", "1", "-p", "2", "--seat", "2"], "--seat must be a seat"),
    (["--seed", "1"], "give --seed and --players"),
    (["--seed", "1", "-p", "2", "--samples", "1"], "--samples must be"),
    (["--replay", "missing.json"], "cannot read"),
    (["--seed", "1", "-p", "2", "--out", "x.txt"], "out"),
    (["--seed", "1", "-p", "2", "--reading", "nobody"], "unknown policy"),
    (["--seed", "1", "-p", "2", "--tremble", "0"], "--tremble must be"),
])
def test_review_errors(args, words):
    r = CliRunner().invoke(main, ["review", *args])
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error:") and words in r.stderr and len(r.stderr.splitlines()) == 1


def test_a_forced_decision_is_reviewed_as_forced():
    """A decision whose legal actions are all one choice (seed 70081: a crab search whose only
    card is a mermaid) is shown as forced, with no loss, instead of ending the review."""
    r = review(70081, 2, ["random"], seat=0, samples=20, backend=Backend(jobs=1))
    forced = [x for x in r["decisions"] if len(x["options"]) == 1]
    assert forced and all(x["chosen"] == x["advisor"] and x["loss"]["mean"] == 0 for x in forced)
    rows = [line for line in format_review(r).splitlines() if " forced " in line]
    assert len(rows) == len(forced)


def test_advise_says_a_forced_decision_has_nothing_to_decide(tmp_path):
    """The same kind of position given to advise (a crab search through a pile that holds one
    mermaid): one error line saying there is nothing to decide and why, exit status 2."""
    import pathlib
    pos = json.loads((pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "positions" /
                      "decisions" / "crab.json").read_text())
    pos.update(hand="crab:dark_blue", deck=46)
    pos["piles"]["A"] = {"cards": "mermaid"}
    path = tmp_path / "forced.json"
    path.write_text(json.dumps(pos))
    r = CliRunner().invoke(main, ["advise", str(path), "--samples", "100"])
    assert r.exit_code == 2
    assert r.output.strip() == ("error: nothing to decide at this crab search: the pile searched "
                                "holds only one kind of card")


def test_the_error_rate_is_the_mean_loss_of_the_real_choices():
    """The error rate is the mean of the rows' losses over the decisions with two or more
    options (a forced one, here a crab search through a lone mermaid, is left out), with an
    interval around it, printed in the text."""
    r = review(70081, 2, ["random"], seat=0, samples=40)
    real = [x for x in r["decisions"] if len(x["options"]) > 1]
    s = r["summary"]
    assert s["error_rate_decisions"] == len(real) < len(r["decisions"])
    assert s["error_rate"] == pytest.approx(sum(x["loss"]["mean"] for x in real) / len(real))
    assert s["error_rate_lo"] < s["error_rate"] < s["error_rate_hi"]
    assert f"an error rate of {100 * s['error_rate']:+.2f}" in " ".join(format_review(r).split())
