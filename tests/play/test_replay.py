"""`seasalt replay`: one traced game told action by action. Checked against the game itself: every
round's end and scores are in the text, the running totals are the sums of the round scores, the
winner follows docs/rules.md, "A game" from those totals, the hands rebuilt from the events score
what the engine scored, and the game is game 0 of a batch run with the same seed."""
from __future__ import annotations

import json
import re

import pytest

from analyzer import __version__
from analyzer.base.errors import SeasaltError
from analyzer.play.replay import STREAM, TraceOverflow, replay
from analyzer.render.replay_text import format_replay
from analyzer.rules.score import score_hand
from analyzer.studies.simulate import simulate_games

CASES = [(seed, players, exp) for seed in (1, 7) for players in (2, 3, 4)
         for exp in ("base", "extra-salt")]


# The CLI helpers of test_cli.py: invoke `seasalt`, and check a one-line `error:` with exit 2.
from cli_helpers import assert_user_error, run  # noqa: E402


def expected_winners(r):
    """docs/rules.md, "A game" from the replay's own numbers."""
    last = r["rounds"][-1]
    if last["end"] == "mermaids":
        return [last["ender"]]
    totals = r["totals"]
    best = max(totals)
    pts = {s["seat"]: s["points"] for s in last["scores"]}
    tied = [q for q in range(r["players"]) if totals[q] == best]
    top = max(pts[q] for q in tied)
    return [q for q in tied if pts[q] == top]


@pytest.mark.parametrize("seed, players, expansion", CASES)
def test_replay_is_consistent_with_its_game(seed, players, expansion):
    r = replay(seed, players, expansion=expansion)
    assert r["stream"] == STREAM and r["version"] == __version__
    assert r["opening_piles_known"]
    running = [0] * players
    for i, rd in enumerate(r["rounds"], 1):
        assert rd["round"] == i
        assert rd["events"][-1]["event"] == "round_end"
        assert [e["event"] for e in rd["events"]].count("round_end") == 1
        for s in rd["scores"]:
            running[s["seat"]] += s["points"]
            # The hands and tables rebuilt from the events score what the engine scored.
            q = s["seat"]
            table = ",".join(c for group in rd["tables"][q] for c in group)
            got = score_hand(",".join(rd["hands"][q]), table, expansion)
            assert (got["card_points"], got["colour_bonus"]) == (s["card_points"], s["colour_bonus"])
        if rd["end"] in ("void", "mermaids"):
            assert rd["scores"] == []
        else:
            assert len(rd["scores"]) == players
        assert rd["totals"] == running
        # The first round starts with seat 0, each next one with the seat after the ender.
        assert rd["starter"] == (0 if i == 1 else (r["rounds"][i - 2]["ender"] + 1) % players)
    assert r["totals"] == running
    assert r["winners"] == expected_winners(r)
    target_reached = max(running) >= r["target"]
    assert target_reached or r["mermaid_win"]

    text = format_replay(r)
    assert text.count("round over:") == len(r["rounds"])
    for rd in r["rounds"]:
        assert f"ROUND {rd['round']}: seat {rd['starter']} starts" in text
        if rd["scores"]:
            assert "totals: " + ", ".join(f"seat {q} {v}" for q, v in enumerate(rd["totals"])) in text
    final = text.splitlines()[-2:]
    assert final[0].startswith(f"GAME OVER after {len(r['rounds'])} round")
    w = r["winners"]
    if len(w) == 1:
        assert f"seat {w[0]} wins" in final[0]
        if not r["mermaid_win"]:
            assert f"{r['totals'][w[0]]} points" in final[0]
    else:
        assert "share the win" in final[0]
    assert final[1] == "  final totals: " + ", ".join(f"seat {q} {v}" for q, v in enumerate(r["totals"]))


@pytest.mark.parametrize("seed, players", [(1, 2), (7, 3), (11, 4)])
def test_replay_is_game_0_of_a_batch_run_with_the_same_seed(seed, players):
    r = replay(seed, players, policies=["baseline(stop_at=9)"])
    g = simulate_games(players, 1, ["baseline(stop_at=9)"], seed=seed)
    assert [float(t) for t in r["totals"]] == g["final_total_mean"]
    assert g["rounds_per_game_mean"] == r["rounds_played"]
    won = [q for q in range(players) if g["wins"][q] or g["shared_wins_by_seat"][q]]
    assert won == r["winners"]


def test_opening_piles_match_what_is_first_taken_from_them():
    checked = 0
    for seed in range(10):
        r = replay(seed, 3)
        for rd in r["rounds"]:
            piles = [[rd["opening_piles"][0]], [rd["opening_piles"][1]]]
            for e in rd["events"]:
                if e["event"] == "discard":
                    piles[e["pile"]].append(e["card"])
                elif e["event"] == "take_pile":
                    assert piles[e["pile"]].pop() == e["card"]
                    checked += 1
                elif e["event"] == "crab_take" and e["card"] is not None:
                    piles[e["pile"]].remove(e["card"])
    assert checked > 20


def test_tie_breaks_and_shared_wins_are_explained():
    """Low targets make ties common: find a tie-break win and a shared win and read them (a shared
    win, a tie on total and on final-round points, comes about once in 300 four-player games to
    20; the search is bounded and fast, ~2 ms a game)."""
    seen = set()
    for seed in range(5000):
        r = replay(seed, 4, target=20)
        text = format_replay(r)
        totals = r["totals"]
        if len(r["winners"]) > 1:
            assert "share the win" in text
            seen.add("shared")
        elif not r["mermaid_win"] and totals.count(max(totals)) > 1:
            assert "tie-break on final-round points" in text
            seen.add("tie-break")
        if seen == {"shared", "tie-break"}:
            break
    assert seen == {"shared", "tie-break"}


def test_last_chance_and_effects_are_told():
    text = "\n".join(format_replay(replay(seed, 4, expansion="extra-salt")) for seed in (5, 150))
    for phrase in ("calls LAST CHANCE with", "reveals: ", "LAST CHANCE wins", "LAST CHANCE fails",
                   "final turn after LAST CHANCE", "searches pile", "steals [", "locks the others",
                   "locked: draws [", "jellyfish lock ends", "looks at the top", "boat: takes another turn",
                   "says STOP with"):
        assert phrase in text, phrase


def test_trace_overflow_is_a_clean_error():
    with pytest.raises(TraceOverflow) as e:
        replay(1, 2, capacity=50)
    assert isinstance(e.value, SeasaltError) and "trace" in str(e.value)
    # With no explicit capacity the buffer grows to fit: a long game (high target) still works.
    r = replay(1, 2, target=400)
    assert max(r["totals"]) >= 400 or r["mermaid_win"]


def test_cli_text_and_json():
    r = run("replay", "--seed", "7", "--players", "3")
    assert r.exit_code == 0 and r.stderr == ""
    assert r.stdout.startswith("seasalt replay: 3 players, seed 7 (stream kernels.rng.seed_stream(seed, 0))")
    assert "GAME OVER" in r.stdout
    j = run("replay", "--seed", "7", "--players", "3", "--json")
    d = json.loads(j.stdout)
    assert d == json.loads(json.dumps(replay(7, 3)))
    # Every action event has a human sentence.
    for rd in d["rounds"]:
        for e in rd["events"]:
            assert e["text"], e


def test_cli_policies_per_seat():
    r = run("replay", "--seed", "2", "--players", "2", "--policy", "baseline(stop_at=12)",
            "--policy", "baseline", "--json")
    d = json.loads(r.stdout)
    assert d["policies"] == ["baseline(stop_at=12,last_chance_at=10)", "baseline(stop_at=7,last_chance_at=10)"]
    # Seat 0 never says STOP below 12 card points.
    for rd in d["rounds"]:
        for e in rd["events"]:
            if e["event"] == "declare" and e["seat"] == 0:
                assert e["points"] >= 12


@pytest.mark.parametrize("args, words", [
    (["--players", "2"], ["--seed"]),
    (["--seed", "1"], ["--players"]),
    (["--seed", "1", "--players", "5"], ["--players"]),
    (["--seed", "-1", "--players", "2"], ["--seed"]),
    (["--seed", "1", "--players", "2", "--policy", "baseline(stop_at=x)"], ["not a number"]),
    (["--seed", "1", "--players", "3", "--policy", "baseline", "--policy", "baseline"], ["one per seat"]),
    (["--seed", "1", "--players", "2", "--expansion", "pepper"], ["pepper"]),
    (["--seed", "1", "--players", "2", "--target", "0"], ["--target"]),
])
def test_cli_errors(args, words):
    assert_user_error(run("replay", *args), *words)


def test_text_names_hidden_cards_in_brackets():
    text = format_replay(replay(3, 2))
    assert "cards in [brackets] were seen only by the player" in text
    assert re.search(r"keeps \[[a-z_:]+\], puts [a-z_:]+ on pile [AB]", text)


def test_a_reading_search_replay_is_game_0_of_its_batch_run():
    """A hand-reading search seat reads only the current round's events: the replay's trace
    holds the whole game, a batch run's one round, and the two play the same game (seed 5
    once read the last round's turns in the replay and ended 21-25 instead of 21-22)."""
    pols = ["search(samples=4,read=1)", "baseline"]
    for seed in (5, 6):
        r = replay(seed, 2, policies=pols, target=20)
        g = simulate_games(2, 1, pols, seed=seed, target=20)
        assert [float(t) for t in r["totals"]] == g["final_total_mean"], seed


def test_search_replay_is_game_0_and_shows_what_each_decision_weighed():
    """A search seat's replay is the game a `simulate --games 1` run plays with the same seed,
    and every one of its decisions lists the actions it weighed, exactly one chosen, with
    values that are chances of winning the game."""
    pols = ["search(samples=4)", "baseline"]
    r = replay(5, 2, policies=pols, target=12)
    g = simulate_games(2, 1, pols, seed=5, target=12)
    assert [float(t) for t in r["totals"]] == g["final_total_mean"]
    assert [q for q in range(2) if g["wins"][q] or g["shared_wins_by_seat"][q]] == r["winners"]
    decisions = [d for rd in r["rounds"] for d in rd["search_decisions"]]
    assert decisions and all(d["seat"] == 0 for d in decisions)
    for d in decisions:
        assert len(d["options"]) >= 2 and sum(o["chosen"] for o in d["options"]) == 1
        assert all(0.0 <= o["value"] <= 1.0 and o["deals"] == 4 for o in d["options"])
    # the chosen draw-step option is the draw the seat then made
    for rd in r["rounds"]:
        for d in rd["search_decisions"]:
            if d["decision"] == "draw":
                nxt = rd["events"][d["before_event"]]
                chosen = next(o for o in d["options"] if o["chosen"])
                took_pile = nxt["event"] == "take_pile"
                assert chosen["words"].startswith("take") == took_pile, (chosen, nxt)
    text = format_replay(r)
    assert "searches (draw" in text
    block = [ln for ln in text.splitlines() if ln.startswith("      ") and "%" in ln]
    assert block and max(map(len, block)) <= 100
