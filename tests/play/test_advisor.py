"""The advisor: position validation, answers known in closed form, interval coverage, the CLI."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyzer.play.advisor import advise
from analyzer.faces.cli import main
from analyzer.base.errors import SeasaltError
from analyzer.play.position import parse
from analyzer.runs.spec import Backend
from conftest import rest_of

HAND = ["sailor:pink", "sailor:orange", "captain"]   # 5 + 3 x 2 = 11 card points
POOL = ["mermaid", "shell:black", "penguin:pink"]     # the only cards the asker cannot place


def small_pool_position(**extra) -> dict:
    """Two players; every card is known except three: one is seat 1's only hand card, two are
    the deck. Seat 1 scores 1 with the mermaid (white 1), 0 with the shell, 1 with the penguin."""
    known = rest_of("base", HAND, POOL)
    pos = {"players": 2, "seat": 0, "hand": HAND,
           "opponents": [{"seat": 1, "hand_size": 1}],
           "piles": {"A": {"cards": known}, "B": {"size": 0}}, "deck": 2}
    pos.update(extra)
    return pos


def test_stop_expectation_is_the_exact_average_over_the_unknown_card():
    a = advise(small_pool_position(), samples=4000, seed=1, play_on=False)
    stop = a.options["stop"]
    assert stop["points"]["mean"] == 11 and stop["points"]["ci95"] == [11.0, 11.0]
    lo, hi = stop["best_opponent_points"]["ci95"]
    assert lo <= 2 / 3 <= hi
    lo, hi = stop["margin"]["ci95"]
    assert lo <= 11 - 2 / 3 <= hi


def test_stop_intervals_cover_the_truth_at_their_nominal_rate():
    """95% intervals over 60 seeds of 300 deals: about 57 should contain 2/3."""
    hits = 0
    for seed in range(60):
        a = advise(small_pool_position(), samples=300, seed=seed, play_on=False)
        lo, hi = a.options["stop"]["best_opponent_points"]["ci95"]
        hits += lo <= 2 / 3 <= hi
    assert 51 <= hits <= 60


def test_last_chance_with_an_unbeatable_hand_is_always_won():
    """Seat 1 has one card and one final turn: at most two cards, far below 11 points (the best
    two-card hands of this pool score 3: penguin + mermaid). The bet is always won and pays
    11 + colour bonus (2 sailors are pink/orange, captain light_orange: bonus 1)."""
    a = advise(small_pool_position(), samples=2000, seed=2)
    lc = a.options["last_chance"]
    assert lc["win_bet"]["rate"] == 1.0
    assert lc["points"]["mean"] == 12
    assert a.recommendation == "last_chance"


def test_same_seed_same_answer_for_any_jobs():
    one = advise(small_pool_position(), samples=3000, seed=5, backend=Backend(jobs=1)).to_dict()
    two = advise(small_pool_position(), samples=3000, seed=5, backend=Backend(jobs=2)).to_dict()
    one.pop("timing"), two.pop("timing")
    assert one == two


def test_the_samples_run_on_the_runner_with_the_same_answer_on_dask():
    """The advisor's samples are Runner batches (engine "advise", blocks by global sample
    index): a Dask cluster of worker processes gives the threads' answer, bit for bit."""
    pytest.importorskip("distributed")
    here = advise(small_pool_position(), samples=3000, seed=5, backend=Backend(jobs=2)).to_dict()
    there = advise(small_pool_position(), samples=3000, seed=5,
                   backend=Backend(jobs=2, scheduler="local")).to_dict()
    for d in (here, there):
        d.pop("timing")
    assert here == there


def test_an_interrupted_advice_keeps_nothing_that_blocks_the_next():
    from analyzer.base.errors import RunInterrupted
    calls = []

    def stop(done, total):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt
    with pytest.raises(RunInterrupted, match="this command keeps no checkpoint"):
        advise(small_pool_position(), samples=3000, seed=6, backend=Backend(jobs=1), progress=stop)
    again = advise(small_pool_position(), samples=3000, seed=6, backend=Backend(jobs=1)).to_dict()
    fresh = advise(small_pool_position(), samples=3000, seed=6, backend=Backend(jobs=2)).to_dict()
    again.pop("timing"), fresh.pop("timing")
    assert again == fresh


def test_precision_stops_when_every_probability_is_tight_enough():
    a = advise(small_pool_position(totals=[10, 30], target=40), precision=0.01, seed=3)
    for o in a.options.values():
        for k in ("win_bet", "win_game"):
            if k in o:
                assert (o[k]["ci95"][1] - o[k]["ci95"][0]) / 2 < 0.01


@pytest.mark.parametrize("change, words", [
    ({"hand": HAND + ["captain"]}, "2 x captain listed, only 1 exist"),
    ({"deck": 3}, "sizes do not add up"),
    ({"hand": ["sailor:pink", "captain"], "deck": 3}, "declaring needs at least 7"),
    ({"lock": 1}, "lock is in force"),
    ({"colour": 1}, "unknown key 'colour'"),
    ({"opponents": [{"seat": 1, "hand_size": 1, "known": "mermaid,shell:black"}]}, "2 known cards"),
    ({"hand": HAND + ["kraken"]}, "unknown card kind"),
    ({"opponents": []}, "seat 1 is missing"),
    ({"totals": [1, 2]}, "give both totals and target"),
])
def test_impossible_positions_are_named(change, words):
    pos = small_pool_position()
    pos.update(change)
    with pytest.raises(SeasaltError, match=words):
        parse(pos)


def test_cli_json_and_errors(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(small_pool_position()))
    r = CliRunner().invoke(main, ["advise", str(path), "--samples", "500", "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["recommendation"] == "last_chance" and d["samples"] == 500
    assert set(d["options"]) == {"stop", "last_chance", "play_on"}
    path.write_text("{not json")
    r = CliRunner().invoke(main, ["advise", str(path)])
    assert r.exit_code == 2 and r.stderr.startswith("error:") and len(r.stderr.splitlines()) == 1
    r = CliRunner().invoke(main, ["advise", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "cannot read" in r.stderr


FIRST_EDITION = __import__("pathlib").Path(__file__).parents[1] / "fixtures" / "advise_first_edition.json"


@pytest.mark.parametrize("name", sorted(json.loads(FIRST_EDITION.read_text())))
def test_todays_position_files_give_the_first_editions_advice(name):
    """The first edition's recorded answers (same files, seeds and samples): the same
    recommendation where the first edition ranked by the game too (the files with totals), and
    every option's estimates within sampling error of the old ones (the difference of two
    independent estimates, 99.9%). Where no deal can be impossible (nobody but the asker can
    hold four mermaids) the deals are drawn as before, so the round's numbers are the same to
    the last digit; P(win game) is not (the later rounds have their own streams since the
    third edition: kernels.advisor)."""
    import sys
    sys.path.insert(0, str(FIRST_EDITION.parents[2] / "scripts"))
    from record_fixtures import run
    entry = json.loads(FIRST_EDITION.read_text())[name]
    old, new = entry["output"], run(entry["argv"])
    if "win_game" in next(iter(old["options"].values())):
        assert new["recommendation"] == old["recommendation"]
    rejected = new["deals"]["impossible"] > 0
    for option, o in old["options"].items():
        for key, v in o.items():
            w = new["options"][option][key]
            if rejected or key == "win_game":
                if "mean" in v:
                    se = ((v["ci95"][1] - v["ci95"][0]) ** 2 + (w["ci95"][1] - w["ci95"][0]) ** 2) \
                         ** 0.5 / (2 * 1.96)
                    assert abs(w["mean"] - v["mean"]) <= 3.29 * se + 1e-12, (option, key)
                else:
                    n = old["samples"]
                    p = (v["rate"] + w["rate"]) / 2
                    assert abs(w["rate"] - v["rate"]) <= 3.29 * (2 * p * (1 - p) / n) ** 0.5 + 1e-12
            else:
                assert w == v, (option, key)


def test_counters_are_summed_in_the_kernel_and_add_up():
    """Sample i depends only on (seed, i) and the counters are integer sums: two runs of 1,500
    samples (the second starting at sample 1,500) add up exactly to one run of 3,000 on any
    number of threads, and the tally's size does not depend on the samples."""
    from analyzer.play.advisor import Evaluation, tally_deals as run
    from analyzer.rules.policies import policy_arrays, seat_policies
    from kernels import cards as kc
    pos = parse(small_pool_position(totals=[10, 30], target=40))
    pk, pp = policy_arrays(seat_policies(["baseline"], 2))
    ev = Evaluation(pos.template, pos.pool, pos.unknown_hand, pos.takes, pos.seat, pos.actions,
                    pk, pp, kc.deck_types("base"), pos.target, pos.totals)
    whole, _ = run(ev, 3000, None, 7, backend=Backend(jobs=2))
    a, _ = run(ev, 1500, None, 7, backend=Backend(jobs=1))
    b, _ = run(ev, 1500, None, 7, backend=Backend(jobs=2), first=1500)
    assert (whole.counts == a.counts + b.counts).all() and (whole.cross == a.cross + b.cross).all()
    assert whole.counts.shape == a.counts.shape == (len(pos.actions), 10)
    assert whole.n == 3000 and whole.raw == a.raw + b.raw
    small, _ = run(ev, 10, None, 7)
    assert small.counts.nbytes == whole.counts.nbytes and small.cross.nbytes == whole.cross.nbytes


THREE_MERMAIDS = __import__("pathlib").Path(__file__).parents[1] / "fixtures" / "positions" / "game" / \
    "three_mermaids_3p.json"


def test_a_small_chance_of_four_mermaids_does_not_outweigh_a_large_sure_gain():
    """Issue 23's position (3 players, 38 cards in the deck, three mermaids and a colony, a
    shark+swimmer pair: 7 points): playing on is the only way to four mermaids, but LAST CHANCE
    wins the bet almost always and with it the game more often. Without totals the advice is
    the first round of a new game to 35 and says so; the same totals and target given in the
    file are the same game, to the last digit."""
    pos = json.loads(THREE_MERMAIDS.read_text())
    a = advise(pos, samples=2000, seed=5)
    assert a.recommendation == "last_chance" and a.meta["distinguishable"]
    assert a.meta["game"] == {"totals": [0, 0, 0], "target": 35, "new_game": True,
                              "words": a.meta["game"]["words"]}
    o = a.options
    assert o["play_on"]["four_mermaids_you"]["rate"] > o["last_chance"]["four_mermaids_you"]["rate"]
    for k in ("stop", "play_on"):               # vs best: P(win game) paired, in its unit
        assert o[k]["vs_best"]["ci95"][1] < 0
        assert o[k]["vs_best"]["mean"] == pytest.approx(
            o[k]["win_game"]["rate"] - o["last_chance"]["win_game"]["rate"], abs=1e-12)
    given = advise({**pos, "totals": [0, 0, 0], "target": 35}, samples=2000, seed=5)
    assert given.options == a.options and not given.meta["game"]["new_game"]
    path = THREE_MERMAIDS
    r = CliRunner().invoke(main, ["advise", str(path), "--samples", "2000", "--seed", "5"])
    assert r.exit_code == 0, r.output
    assert "P(win game) as a new game to 35; give totals and target for a game in progress" in \
        " ".join(r.stdout.split())
    assert any(line.startswith("recommendation: LAST CHANCE.") for line in r.stdout.splitlines())


POSITION_FILES = sorted([*(THREE_MERMAIDS.parents[2].parent / "docs").glob("example_*.json"),
                         *THREE_MERMAIDS.parents[1].rglob("*.json")])


@pytest.mark.parametrize("path", POSITION_FILES, ids=lambda p: p.name)
def test_every_earlier_position_file_still_loads_and_is_ranked_by_the_game(path):
    """docs/example_*.json and every file of tests/fixtures/positions: advised, ranked by P(win
    game), from the file's totals or as a new game at the standard target."""
    from analyzer.play.position_input import load
    pos = load(str(path))
    a = advise(pos, samples=200, seed=1)
    ranked = [a.options[k]["win_game"]["rate"] for k in a.meta["ranking"]]
    assert ranked[0] == max(ranked) and a.recommendation == a.meta["ranking"][0]
    game = a.meta["game"]
    assert game["new_game"] == ("totals" not in pos)
    assert game["target"] == pos.get("target", {2: 40, 3: 35, 4: 30}[pos["players"]])
