"""Seastead runs: invariants after every action of many random games (checked by the engine
at every event and again here, independently, at random stopping points), the same answer for
a seed whatever the threads or backend, replay = game 0, and the CLI's conventions (tables of
at most 100 columns, strict --json, --out files with seed/setup/components/version, one
`error:` line and exit 2 for bad input)."""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.faces.cli import main
from analyzer.seastead.components import ICONS, Setup, from_dict, load
from analyzer.seastead.replay import event_dicts, is_swap, replay, trace_game
from analyzer.seastead.runs import simulate, tournament
from analyzer.seastead.scripted import Table
from analyzer.render.tidy_frames import read_frame
from analyzer.runs.spec import Backend
from kernels.seastead import layout as L

SEASALT = str(Path(sys.executable).with_name("seasalt"))
SETUPS = [Setup(), Setup(sides="BBBB"), Setup(sides="ABBA"), Setup(solo=True)]


@pytest.fixture(scope="module")
def comps():
    return load()


def census(s: np.ndarray, comps) -> dict:
    """Every counted thing, straight from the state (no engine code)."""
    solo = bool(s[L.SOLO])
    res = [int(s[L.SUPPLY + r] + s[L.RES + r] + s[L.RES + 4 + r]
               + sum(s[L.LOC_BOSSR + loc * 4 + r] for loc in range(24))) for r in range(4)]
    buildings = []
    for p in range(1 if solo else 2):
        on_tiles = sum(1 for loc in range(24) if s[L.LOC_OWN + loc] == p)
        board = 12 - sum(int(s[L.BUILT + p * 3 + t]) for t in range(3))
        buildings.append(on_tiles + board)
    if solo:
        buildings.append(sum(1 for loc in range(24) if s[L.LOC_OWN + loc] == L.BOSS)
                         + int(s[L.BOSS_LEFT]))
    ships = [int(s[L.SHIPS_HOME + p] + s[L.SHIPS_BOX + p]
                 + sum(1 for loc in range(24) if s[L.LOC_SHIP + loc] == p)) for p in range(2)]
    under = sum(1 for loc in range(24) if s[L.LOC_OWN + loc] >= 0 and s[L.LOC_SHIP + loc] >= 0)
    return {"resources": res, "buildings": buildings, "ships": ships, "ships_under_buildings": under,
            "cleanup": int(s[L.CLEAN_SUPPLY] + s[L.CLEAN] + s[L.CLEAN + 1]),
            "shortfall_only_when_empty": bool((s[L.SHORT] + s[L.SHORT + 1] == 0)
                                              or s[L.CLEAN_SUPPLY] == 0)}


def expected_census(solo: bool) -> dict:
    return {"resources": [10] * 4, "buildings": [12, 12], "ships": [4, 0 if solo else 4],
            "ships_under_buildings": 0,
            "cleanup": 20, "shortfall_only_when_empty": True}


@pytest.mark.parametrize("game", SETUPS, ids=lambda g: g.describe())
@pytest.mark.parametrize("players", [["random"], ["heuristic", "random"]])
def test_invariants_after_every_event_of_many_games(comps, game, players):
    players = players[:1] if game.solo else players
    for seed in range(40):
        s, tr = trace_game(comps, game, players, seed, check=True)
        assert tr[0, 2] == 0, f"seed {seed}: invariant {tr[0, 2]} broken at event {tr[0, 3]}"
        assert census(s, comps) == expected_census(game.solo)
        assert s[L.OVER] == 1 and s[L.TRIG_ROUND] >= 1 and s[L.ROUND] == s[L.TRIG_ROUND] + 1
        assert s[L.TRIGGER] == s[L.TRIGGER] & 15 and s[L.TRIGGER] > 0


def boss_double_builds_with_a_ship(events: list[dict]) -> int:
    """Dives in which the Boss built twice and a ship had to leave the first new building (the
    case where a ship used to stay under a Boss building)."""
    n, builds, moved_first = 0, 0, False
    for e in events:
        if e["event"] == "dive":
            builds, moved_first = 0, False
        elif e["event"] == "boss_build" and e["location"] >= 0:
            builds += 1
            n += builds == 2 and moved_first
        elif e["event"] in ("ship", "ship_box") and builds == 1:
            moved_first = True
    return n


def test_no_ship_under_a_building_after_any_action_of_300_random_solo_games(comps):
    """Every action of 300 random solo games ends with no ship on a built location (the
    engine's check mode runs settled_errors after each action), dives that build twice too."""
    checks = actions = cases = 0
    for seed in range(300):
        s, tr = trace_game(comps, Setup(solo=True), ["random"], seed, check=True)
        assert tr[0, 2] == 0, f"seed {seed}: invariant {tr[0, 2]} broken at event {tr[0, 3]}"
        checks += int(tr[0, 4])
        actions += int(s[L.ACTIONS])
        cases += boss_double_builds_with_a_ship(event_dicts(tr))
    assert checks == actions > 300
    assert cases > 0


@pytest.mark.parametrize("game", SETUPS, ids=lambda g: g.describe())
def test_independent_census_at_random_stopping_points(comps, game):
    rng = np.random.default_rng(5)
    for seed in range(30):
        t = Table(comps, seed, game)
        t.play([], stop_after=int(rng.integers(1, 40)))
        assert census(t.s, comps) == expected_census(game.solo), seed


@pytest.mark.parametrize("game", [Setup(), Setup(solo=True)], ids=lambda g: g.describe())
def test_a_display_of_all_sixteen_specialists_plays(comps, game):
    """The text's "vitrindeki 16 uzman kartından birini" read literally: every specialist face up
    (12 in solo), none left to refill the display with; games run with every invariant."""
    data = copy.deepcopy(comps.data)
    data["setup"]["specialist_display"] = 16
    big = from_dict(data, "sixteen.toml", "0" * 64)
    t = Table(big, 1, game)
    shown = [t.at("SPEC_DISP", d) for d in range(16)]
    assert len([x for x in shown if x >= 0]) == (12 if game.solo else 16)
    assert t.at("SPEC_DECK_LEN") == 0
    for seed in range(20):
        s, tr = trace_game(big, game, ["random"], seed, check=True)
        assert tr[0, 2] == 0 and s[L.OVER] == 1, seed


def without_timing(r: dict) -> dict:
    return {k: v for k, v in r.items() if k != "timing"}


def test_same_seed_same_answer_for_any_thread_count(comps):
    a = simulate(700, ["heuristic", "random"], 11, comps, Setup(sides="BBBB"),
                 backend=Backend(jobs=1))
    b = simulate(700, ["heuristic", "random"], 11, comps, Setup(sides="BBBB"),
                 backend=Backend(jobs=2))
    assert without_timing(a) == without_timing(b) and a["games"] == 700
    c = simulate(700, ["heuristic", "random"], 12, comps, Setup(sides="BBBB"),
                 backend=Backend(jobs=2))
    assert without_timing(c) != without_timing(a)


def test_replay_is_game_zero_of_the_simulation(comps):
    for seed in (3, 4):
        r = replay(seed, ["heuristic", "random"], comps)
        one = simulate(1, ["heuristic", "random"], seed, comps, backend=Backend(jobs=1))
        assert [s["score"]["mean"] for s in one["seats"]] == [x["total"] for x in r["scores"]]
        assert one["rounds"]["mean"] == r["rounds"]


def test_replay_text_names_the_demand_and_prints_spends_after_the_build_they_serve(comps):
    """The replay follows the demand tokens through every swap: each build's line names the
    resource the engine charged (its pay event), and a specialist spent before paying prints
    between the "builds" line and the "pays" line (ships it moves can then be read against the
    new building)."""
    builds = prepay = swaps = 0
    for seed in range(12):
        r = replay(seed, ["random"], comps, Setup(sides="BBBB"))
        assert r["events"][0]["event"] == "setup" and "demand: " in r["events"][0]["text"]
        open_build = None
        for e in r["events"]:
            if e["event"] == "build":
                open_build = e
            elif e["event"] == "pay":
                assert open_build["text"].endswith(f" {ICONS[e['resource']]}"), open_build
                assert e["location"] == open_build["location"]
                open_build = None
                builds += 1
            elif e["event"] == "spend" and e["window"] == L.WIN_PREPAY:
                assert open_build is not None, e
                prepay += 1
            swaps += is_swap(e)
    assert builds > 100 and prepay > 0 and swaps > 0


def test_summary_counts_add_up(comps):
    r = simulate(600, ["heuristic"], 2, comps, backend=Backend(jobs=2))
    n = r["games"]
    assert r["wins"][0]["count"] + r["wins"][1]["count"] + r["shared"]["count"] == n
    assert sum(r["rounds"]["hist"].values()) == n and r["untriggered_games"] == 0
    assert sum(v["count"] for v in r["tiebreaks"].values()) == n
    for s in r["seats"]:
        assert abs(sum(s["categories"][c]["mean"] for c in s["categories"]) - s["score"]["mean"]) < 1e-9
        lo, hi = s["score"]["ci95"]
        assert lo < s["score"]["mean"] < hi
    fp = r["first_player"]
    assert abs(fp["win_share"]["mean"] - (r["wins"][0]["count"] + r["shared"]["count"] / 2) / n) < 1e-12
    solo = simulate(300, ["random"], 2, comps, Setup(solo=True), backend=Backend(jobs=2))
    assert solo["solo"]["wins"]["count"] <= 300 and "wins" not in solo


def test_tournament_rotates_seats_and_shares_sum_to_one_per_game(comps):
    r = tournament(["heuristic", "random"], 200, 5, comps, backend=Backend(jobs=2))
    assert [x["games"] for x in r["rows"]] == [200, 200]
    assert abs(sum(x["win_share"] for x in r["rows"]) - 1) < 1e-12
    assert {tuple(x["seats"]) for x in r["runs"]} == {(0, 1), (1, 0)}
    assert r["rows"][0]["player"].startswith("heuristic")       # it beats the random player
    assert r["rows"][0]["win_share_lo"] > 0.5
    solo = tournament(["heuristic", "random"], 100, 5, comps, Setup(solo=True),
                      backend=Backend(jobs=2))
    assert [x["games"] for x in solo["rows"]] == [100, 100]


def test_progress_is_reported_to_the_end(comps):
    calls = []
    simulate(3000, ["random"], 1, comps, backend=Backend(jobs=2),
             progress=lambda d, t: calls.append((d, t)))
    assert calls[0] == (0, 3000) and calls[-1] == (3000, 3000)
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))


def test_checkpoint_resume_gives_the_same_result(comps, tmp_path):
    path = tmp_path / "run.ckpt"
    a = simulate(2000, ["heuristic"], 9, comps, backend=Backend(jobs=2, checkpoint=str(path)))
    b = simulate(2000, ["heuristic"], 9, comps,
                 backend=Backend(jobs=2, checkpoint=str(path), resume=True))
    assert without_timing(a) == without_timing(b) and b["timing"]["tasks_resumed"] == b["timing"]["tasks"]


def test_dask_local_cluster_gives_the_same_result(comps):
    pytest.importorskip("distributed")
    a = simulate(1200, ["heuristic", "random"], 4, comps, backend=Backend(jobs=2))
    b = simulate(1200, ["heuristic", "random"], 4, comps,
                 backend=Backend(jobs=1, scheduler="local"))
    assert without_timing(a) == without_timing(b) and b["timing"]["backend"] == "dask local"


# --- the command line ---------------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(main, ["seastead", *args], catch_exceptions=False)


def test_simulate_table_json_and_csv(tmp_path):
    r = run("simulate", "--games", "500", "--seed", "3")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert max(len(x) for x in lines) <= 100
    assert "INVENTED" in r.stdout and "seed 3" in r.stdout and "[" in r.stdout
    out = tmp_path / "sim.csv"
    r = run("simulate", "--games", "500", "--seed", "3", "--json", "--out", str(out), "--solo")
    d = json.loads(r.stdout, parse_constant=lambda x: pytest.fail(x))
    assert d["components_invented"] is True and d["seed"] == 3 and d["version"]
    df = read_frame(out)
    assert len(df) == 1 and {"seed", "setup", "components", "components_sha256", "version",
                             "win_rate_lo", "win_rate_hi", "boss_score_mean"} <= set(df.columns)
    assert df["components_invented"].all()


def test_json_is_the_same_for_one_and_two_threads():
    a = json.loads(run("simulate", "--games", "300", "--seed", "8", "--json", "-j", "1").stdout)
    b = json.loads(run("simulate", "--games", "300", "--seed", "8", "--json", "-j", "2").stdout)
    assert without_timing(a) == without_timing(b)


def test_tournament_replay_report_commands(tmp_path):
    r = run("tournament", "--player", "heuristic", "--player", "denier", "--player", "random",
            "--games", "200", "--seed", "1", "--out", str(tmp_path / "t.json"))
    assert r.exit_code == 0 and max(len(x) for x in r.stdout.splitlines()) <= 100
    assert len(read_frame(tmp_path / "t.json")) == 3
    r = run("replay", "--seed", "7", "--sides", "BBBB")
    assert r.exit_code == 0 and "dives" in r.stdout and "result:" in r.stdout
    assert max(len(x) for x in r.stdout.splitlines()) <= 100
    r = run("replay", "--seed", "7", "--json", "--out", str(tmp_path / "ev.csv"))
    d = json.loads(r.stdout)
    assert d["events"][-1]["event"] == "end" and len(read_frame(tmp_path / "ev.csv")) == len(d["events"])
    r = run("report", "--games", "300", "--seed", "2", "--out", str(tmp_path / "rep.csv"))
    assert r.exit_code == 0, r.stderr
    assert "first-player edge" in r.stdout and "solo" in r.stdout and "INVENTED" in r.stdout
    assert max(len(x) for x in r.stdout.splitlines()) <= 100


@pytest.mark.parametrize("args, words", [
    (["simulate", "--games", "0"], "--games must be between 1"),
    (["simulate", "--player", "wizard"], "unknown policy 'wizard'"),
    (["simulate", "--player", "heuristic(split=7)"], "out of range"),
    (["simulate", "--player", "random", "--player", "random", "--player", "random"], "one --player"),
    (["simulate", "--sides", "ABAA"], "at least 2 B"),
    (["simulate", "--solo", "--sides", "BBBB"], "A sides only"),
    (["simulate", "--out", "x.txt"], "unknown file type"),
    (["simulate", "--seed", "-1"], "--seed must be"),
    (["simulate", "--jobs", "99"], "--jobs must be"),
    (["tournament", "--player", "random"], "at least two"),
    (["replay", "--seed", "1", "--decree", "Census"], "only with B sides"),
    (["components", "--template", "--schema"], "at most one"),
])
def test_bad_input_is_one_error_line(args, words):
    r = CliRunner().invoke(main, ["seastead", *args])
    assert r.exit_code == 2 and r.stdout == "", (r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], r.stderr


def test_console_script_runs_a_seastead_simulation():
    r = subprocess.run([SEASALT, "seastead", "simulate", "--games", "200", "--seed", "1", "--json"],
                       capture_output=True, text=True, env={**os.environ})
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 200 and r.stderr == ""
