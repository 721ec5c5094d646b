"""seasalt optimize: the search space from the registry, the sampling law, common random
numbers within a generation, the documented seed plan (the held-out report recomputed from
its seed), the pick rule, iterated best response, --checkpoint / --resume, Dask and the CLI."""
from __future__ import annotations

import json

import numpy as np
import pytest

from analyzer.studies import optimize as opt
from analyzer.base.errors import SeasaltError
from analyzer.rules.policies import parse_policy
from analyzer.studies.rotation import aggregate, derive_seed, plan_rotations, rotation_runs
from analyzer.runs.backends import Runner
from analyzer.runs.spec import Backend

from cli_helpers import assert_user_error, run

BASE = parse_policy("threshold")
BASELINE = parse_policy("baseline").spec
TINY = dict(players=2, knobs=["stop_at=7..10", "last_chance_at=7..12", "mermaid_bonus=-1..3",
                              "bury=0,1"],
            generations=2, population=5, games=60, finalists=3, final_games=80,
            holdout_games=120, seed=11)


def without_timing(r: dict) -> dict:
    return {k: v for k, v in r.items() if k not in ("timing", "frames")}


@pytest.fixture(scope="module")
def tiny():
    return opt.optimize(**TINY)


# --- the space -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, knob", [
    ("stop_at=7..14", opt.Knob("stop_at", 7, 14, (), True)),
    ("take_at=-1.5..3", opt.Knob("take_at", -1.5, 3, (), False)),
    ("steal_from=0,2", opt.Knob("steal_from", 0, 2, (0, 2), True)),
    ("bury", opt.Knob("bury", 0, 1, (0, 1), True)),           # the default range
])
def test_parse_knob(text, knob):
    assert opt.parse_knob(text, BASE) == knob


@pytest.mark.parametrize("text, words", [
    ("stop=7..9", ["no parameter 'stop'"]),
    ("stop_at=7..101", ["out of range"]),
    ("stop_at=7.5..9", ["whole number"]),
    ("stop_at=9..7", ["HI must be above LO"]),
    ("stop_at=7", ["at least two values"]),
    ("stop_at=7,7", ["repeated"]),
    ("stop_at=7..x", ["cannot parse"]),
])
def test_bad_knobs(text, words):
    with pytest.raises(SeasaltError) as e:
        opt.parse_knob(text, BASE)
    for w in words:
        assert w in str(e.value)


def test_default_space_is_every_threshold_knob():
    space = opt.parse_space([], BASE)
    assert [k.name for k in space] == [p.name for p in BASE.info.params]
    with pytest.raises(SeasaltError, match="no default search space"):
        opt.parse_space([], parse_policy("random"))


def test_distribution_samples_inside_the_space_and_moves_to_the_elites():
    knobs = [opt.parse_knob(t, BASE) for t in ("stop_at=7..14", "hand_value=0..3", "bury=0,1")]
    law = opt.Distribution(knobs, dict(BASE.values))
    rng = np.random.default_rng(1)
    for _ in range(200):
        pt = law.sample(rng)
        assert 7 <= pt["stop_at"] <= 14 and float(pt["stop_at"]).is_integer()
        assert 0 <= pt["hand_value"] <= 3 and pt["bury"] in (0, 1)
    assert law.centre() == {"stop_at": 7, "hand_value": 1.0, "bury": 0}
    for _ in range(10):
        law.update([{"stop_at": 12, "hand_value": 2.5, "bury": 1}] * 3)
    assert law.centre() == {"stop_at": 12, "hand_value": 2.5, "bury": 1}
    assert law.spread["stop_at"] == opt.INTEGER_SPREAD_FLOOR      # never stops exploring
    assert min(law.probs["bury"]) >= opt.CATEGORY_FLOOR / (1 + opt.CATEGORY_FLOOR) - 1e-12


def test_settings_are_checked():
    with pytest.raises(SeasaltError, match="--iterations needs 'self'"):
        opt.OptimizeSpec.build(iterations=3)
    with pytest.raises(SeasaltError, match="--population"):
        opt.OptimizeSpec.build(population=2)
    with pytest.raises(SeasaltError, match="--elite"):
        opt.OptimizeSpec.build(population=4, elite=0.9)
    with pytest.raises(SeasaltError, match="games must be between 2"):
        opt.OptimizeSpec.build(games=1)
    with pytest.raises(SeasaltError, match="given twice"):
        opt.OptimizeSpec.build(vs=["baseline", "baseline(stop_at=7)"])


# --- common random numbers and the seed plan -----------------------------------------------------

def test_candidates_of_a_generation_share_their_seeds():
    s = opt.OptimizeSpec.build(**{**TINY, "seed": 5})
    mu = opt.matchups(s, ["threshold", "threshold(stop_at=9)"], [BASELINE], 60, 123)
    seeds = [[r.batch.seed for r in rots] for per in mu.planned for rots in per]
    assert seeds[0] == seeds[1]                                    # same streams, every seating
    assert len(set(seeds[0])) == 2                                 # one per rotation


def test_pick_and_report_follow_the_seed_plan(tiny):
    f = tiny["searches"][0]
    best = max(f["finalists"], key=lambda x: x["score"])
    assert f["pick"] == best["spec"] == tiny["best"]
    # the held-out report, recomputed from its documented seed (S, 3, k)
    assert f["report_seed"] == derive_seed(TINY["seed"], 3, 0)
    s = opt.OptimizeSpec.build(**TINY)
    rots = plan_rotations([f["pick"], BASELINE], s.holdout_games, f["report_seed"])
    out = Runner().run([r.batch for r in rots], {"command": "test"})
    me = aggregate(rotation_runs(rots, out.counters, {}), [0, 1], 2)[0]
    row = f["against"][0]
    assert (row["member"], row["wins"], row["games"]) == (BASELINE, me["wins"], me["games"])
    assert row["win_rate_lo"] == me["win_rate_lo"]
    # the start is measured on the same report seeds
    assert f["start_against"][0]["games"] == s.holdout_games


def test_trace_has_every_candidate(tiny):
    tr = tiny["frames"]["trace"]
    gens = tr[tr["stage"] == "generation"]
    assert len(gens) == TINY["generations"] * TINY["population"]
    assert gens.groupby("generation")["centre"].sum().tolist() == [1, 1]
    assert gens.groupby("generation")["elite"].sum().tolist() == [2, 2]
    sel = tr[tr["stage"] == "selection"]
    assert len(sel) == TINY["finalists"] and sel["elite"].sum() == 1
    assert set(tr["seed"]) == {TINY["seed"]} and "version" in tr.columns


def test_same_seed_same_answer_for_any_jobs(tiny):
    again = opt.optimize(**TINY, backend=Backend(jobs=1))
    assert without_timing(again) == without_timing(tiny)
    assert again["frames"]["trace"].equals(tiny["frames"]["trace"])


def test_resume_continues_from_the_journal(tiny, tmp_path):
    ck = tmp_path / "opt.ckpt"
    first = opt.optimize(**TINY, backend=Backend(checkpoint=str(ck)))
    assert without_timing(first) == without_timing(tiny) and ck.exists()
    lines = ck.read_text().splitlines(keepends=True)
    stages = len(lines) - 1
    assert stages == TINY["generations"] + 2
    with pytest.raises(SeasaltError, match="already exists"):
        opt.optimize(**TINY, backend=Backend(checkpoint=str(ck)))
    ck.write_text("".join(lines[:3]) + lines[3][:20])              # two stages and a torn line
    again = opt.optimize(**TINY, backend=Backend(checkpoint=str(ck), resume=True))
    assert without_timing(again) == without_timing(tiny)
    assert again["timing"]["stages_resumed"] == 2
    assert again["timing"]["stages_run"] == stages - 2
    with pytest.raises(SeasaltError, match="different run"):
        opt.optimize(**{**TINY, "seed": 12}, backend=Backend(checkpoint=str(ck), resume=True))


def test_iterated_best_response_plays_the_previous_pick():
    r = opt.optimize(**{**TINY, "vs": ["self"], "iterations": 2})
    s0, s1 = r["searches"]
    assert s0["field"] == [parse_policy("threshold").spec]
    assert s1["start"] == s0["pick"] and s1["field"] == [s0["pick"]]
    assert r["best"] == s1["pick"] and r["settled"] is not None


def test_settle_rule():
    def search(start, pick, lo):
        return {"start": start, "pick": pick,
                "against": [{"member": start, "win_rate_lo": lo}]}
    assert opt.settle([search("a", "b", 0.55), search("b", "c", 0.52)], 0.5)["settled"] is False
    st = opt.settle([search("a", "b", 0.55), search("b", "c", 0.49)], 0.5)
    assert st["settled"] and st["at"] == 1 and st["policy"] == "b"
    st = opt.settle([search("a", "b", 0.55), search("b", "a", 0.6)], 0.5)
    assert st["settled"] and "repeats" in st["how"]


def test_dask_gives_the_threads_answer(tiny):
    pytest.importorskip("distributed")
    small = {**TINY, "generations": 1}
    here = opt.optimize(**small)
    there = opt.optimize(**small, backend=Backend(scheduler="local", jobs=2))
    assert without_timing(there) == without_timing(here)
    assert there["timing"]["backend"] == "dask local"


# --- the command line ----------------------------------------------------------------------------

def test_cli_prints_the_pick_and_writes_its_files(tmp_path):
    args = ["optimize", "--players", "2", "--knob", "stop_at=7..9", "--generations", "1",
            "--population", "4", "--games", "40", "--finalists", "2", "--final-games", "40",
            "--holdout-games", "60", "--seed", "3"]
    r = run(*args, "--out", str(tmp_path / "held.csv"), "--trace", str(tmp_path / "t.csv"),
            "--chart", str(tmp_path / "t.png"))
    assert r.exit_code == 0, r.stderr
    assert "pick:" in r.stdout and "held out (report seed" in r.stdout and "best:" in r.stdout
    for name in ("held.csv", "t.csv", "t.png"):
        assert (tmp_path / name).stat().st_size > 0
    j = json.loads(run(*args, "--json").stdout)
    assert j["best"].startswith("threshold(") and j["trace"] and j["seed"] == 3


@pytest.mark.parametrize("extra, words", [
    (["--knob", "stop_at=7..200"], ["error:", "out of range"]),
    (["--iterations", "3"], ["needs 'self'"]),
    (["--chart", "x.gif"], [".png or .svg"]),
    (["--vs", "nobody"], ["unknown policy"]),
    (["--players", "5"], ["--players"]),
])
def test_cli_errors(extra, words):
    assert_user_error(run("optimize", "--generations", "1", "--population", "4", "--games",
                          "40", *extra), *words)


def test_the_search_player_as_a_field_member():
    """A tiny budget: the search player costs far more per game than the bots."""
    r = opt.optimize(players=2, knobs=["stop_at=7..9"], vs=["search(samples=2,continuations=1)"],
                     generations=1, population=4, games=4, finalists=2, final_games=4,
                     holdout_games=4, seed=2)
    row = r["searches"][0]["against"][0]
    assert row["member"].startswith("search(samples=2") and row["games"] == 4


def test_an_earlier_journal_needs_resume_or_restart(tiny, tmp_path):
    ck = tmp_path / "opt.ckpt"
    opt.optimize(**TINY, backend=Backend(checkpoint=str(ck)))
    with pytest.raises(SeasaltError, match="--restart to discard it"):
        opt.optimize(**TINY, backend=Backend(checkpoint=str(ck)))
    with pytest.raises(SeasaltError, match="not both"):
        opt.optimize(**TINY, backend=Backend(checkpoint=str(ck), resume=True, restart=True))
    again = opt.optimize(**TINY, backend=Backend(checkpoint=str(ck), restart=True))
    assert without_timing(again) == without_timing(tiny)
    assert again["timing"]["stages_resumed"] == 0
