"""The `seasalt` command line: the score and simulate contracts of the command line, determinism
across --jobs, and one-line `error:` messages with exit status 2 for every kind of bad input."""
from __future__ import annotations

import io
import json
import re

import pytest

from analyzer import __version__
from analyzer.base.progress import ProgressLine
from analyzer.runs.batches import max_jobs
from cli_helpers import assert_user_error, cli, run, run_json, without_timing  # noqa: F401

EX14_HAND = ("mermaid,mermaid,shell:dark_blue,shell:light_blue,shell:black,octopus:light_blue,"
             "crab:dark_blue,crab:dark_blue,boat:dark_blue,lighthouse")
EX14_TABLE = "swimmer:dark_blue,shark:light_blue"
BASELINE = "baseline(stop_at=7,last_chance_at=10)"
ROUNDS, GAMES = 20_000, 300


# --- version and help ---------------------------------------------------------------------------

def test_version():
    r = run("--version")
    assert r.exit_code == 0 and __version__ in r.stdout


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["score", "--help"], ["simulate", "--help"], []])
def test_help(args):
    r = run(*args)
    assert r.exit_code == 0 and "Usage:" in r.stdout and r.stderr == ""


# --- score --------------------------------------------------------------------------------------

# docs/rules.md, "Scoring: card points" worked examples (hand, table, expansion, card points, colour
# bonus).
EXAMPLES = [
    ("mermaid,mermaid,crab:light_blue,boat:light_blue,shell:light_blue,octopus:light_blue,"
     "fish:green,shark:green,colony", "", "base", 7, 4),                                       # 1
    ("mermaid,mermaid,mermaid,shell:dark_blue,shell:black", "", "base", 7, 3),                 # 2
    ("mermaid,mermaid,crab:yellow,boat:yellow,octopus:yellow,fish:black,boat:black,shell:black",
     "", "base", 7, 3),                                                                        # 3
    ("lighthouse,boat:yellow", "boat:dark_blue,boat:dark_blue", "base", 4, 2),                 # 4
    ("colony,penguin:purple,penguin:light_orange,penguin:pink", "", "base", 11, 1),            # 5
    ("captain,sailor:pink", "", "base", 3, 1),                                                 # 6
    ("captain,sailor:pink,sailor:orange", "", "base", 11, 1),                                  # 6
    ("fish:dark_blue", "fish:black,fish:black", "base", 1, 2),                                 # 7
    ("starfish:dark_blue", "fish:dark_blue,fish:dark_blue", "extra-salt", 1, 3),               # 8
    ("starfish:dark_blue,starfish:light_blue,crab:dark_blue,crab:dark_blue,crab:black", "",
     "extra-salt", 3, 3),                                                                      # 9
    ("", "crab:black,crab:green,starfish:yellow", "extra-salt", 3, 1),                         # 10
    ("seahorse,sailor:pink,shell:black,shell:grey,octopus:yellow,octopus:green", "",
     "extra-salt", 10, 1),                                                                     # 11
    ("seahorse,colony,penguin:purple,penguin:pink", "", "extra-salt", 9, 1),                   # 12
    ("cast_of_crabs,crab:yellow,crab:yellow,lobster", "", "extra-salt", 3, 2),                 # 13
    (EX14_HAND, EX14_TABLE, "base", 15, 5),                                                    # 14
    ("swimmer:dark_blue,swimmer:black", "", "base", 0, 1),                                     # 15
]


@pytest.mark.parametrize("hand, table, expansion, points, bonus", EXAMPLES)
def test_score_rules_examples(hand, table, expansion, points, bonus):
    out = run_json("score", "--hand", hand, "--table", table, "--expansion", expansion)
    assert set(out) == {"card_points", "colour_bonus", "breakdown"}
    assert set(out["breakdown"]) == {"mermaids", "duos", "collections", "multipliers"}
    assert (out["card_points"], out["colour_bonus"]) == (points, bonus)
    assert sum(out["breakdown"].values()) == points


def test_score_example_14_breakdown():
    out = run_json("score", "--hand", EX14_HAND, "--table", EX14_TABLE)
    assert out == {"card_points": 15, "colour_bonus": 5,
                   "breakdown": {"mermaids": 8, "duos": 2, "collections": 4, "multipliers": 1}}


def test_score_text_output():
    r = run("score", "--hand", EX14_HAND, "--table", EX14_TABLE)
    assert r.exit_code == 0 and r.stderr == ""
    rows = dict(m.groups() for m in re.finditer(r"^\s*([a-z][a-z ]*?)\s+(\d+)$", r.stdout, re.M))
    assert rows == {"card points": "15", "colour bonus": "5", "mermaids": "8", "duos": "2",
                    "collections": "4", "multipliers": "1"}


def test_score_extra_salt_card_needs_the_expansion():
    hand = "seahorse,sailor:pink,shell:black,shell:grey"
    assert_user_error(run("score", "--hand", hand), "seahorse", "extra-salt")
    assert run_json("score", "--hand", hand, "--expansion", "extra-salt")["card_points"] == 7


@pytest.mark.parametrize("args, words", [
    (["score", "--hand", "squid"], ["squid"]),                                   # unknown kind
    (["score", "--hand", "crab:mauve"], ["mauve"]),                              # unknown colour
    (["score", "--hand", "crab:pink"], ["pink"]),                                # no such copy
    (["score", "--hand", "crab"], ["crab"]),                                     # colour needed
    (["score", "--hand", "crab:black,,crab:green"], []),                         # empty item
    (["score", "--hand", "mermaid,mermaid,mermaid", "--table", "mermaid,mermaid"], ["mermaid"]),
    (["score", "--hand", "boat:black", "--table", "boat:black,boat:black"], ["boat:black"]),
    (["score", "--hand", "mermaid", "--table", "crab:black"], ["illegal table"]),
    (["score", "--hand", "", "--table", "swimmer:black,swimmer:yellow"], ["illegal table"]),
    (["score", "--hand", "", "--table", "shell:black,shell:grey"], ["illegal table", "shell"]),
    (["score", "--hand", "", "--table", "boat:black,boat:black,starfish:yellow,starfish:dark_blue",
      "--expansion", "extra-salt"], ["illegal table", "starfish"]),
    (["score", "--hand", "mermaid", "--expansion", "pepper"], ["pepper"]),
    (["score"], ["--hand"]),                                                     # missing option
    (["score", "--hand"], ["--hand"]),                                           # missing value
    (["score", "--hand", "mermaid", "--jsn"], ["--jsn"]),                        # unknown option
    (["score", "--hand", "mermaid", "extra"], ["extra"]),                        # stray argument
    (["scroe", "--hand", "mermaid"], ["scroe"]),                                 # unknown command
    (["--bogus"], ["--bogus"]),
])
def test_score_user_errors(args, words):
    assert_user_error(run(*args), *words)


# --- simulate -----------------------------------------------------------------------------------

ROUND_KEYS = {"players", "rounds", "seed", "policies", "version", "end", "seat_points_mean",
              "declarer_card_points_mean", "declarer_card_points_hist", "turns_mean", "timing"}
GAME_KEYS = {"players", "games", "seed", "policies", "version", "wins", "shared_wins",
             "mermaid_wins", "rounds_per_game_mean", "final_total_mean", "timing"}
END_KEYS = {"stop", "last_chance_won", "last_chance_lost", "void", "mermaids"}


@pytest.fixture(scope="module")
def rounds_json() -> dict:
    return run_json("simulate", "--players", "2", "--rounds", str(ROUNDS), "--policy", "baseline",
                    "--seed", "11")


@pytest.fixture(scope="module")
def games_json() -> dict:
    return run_json("simulate", "--players", "3", "--games", str(GAMES), "--policy", "baseline",
                    "--seed", "11")


def test_simulate_rounds_contract(rounds_json):
    d = rounds_json
    assert ROUND_KEYS <= set(d)
    assert d["players"] == 2 and d["rounds"] == ROUNDS and d["seed"] == 11
    assert d["policies"] == [BASELINE, BASELINE] and d["version"] == __version__
    assert set(d["end"]) == END_KEYS
    assert sum(d["end"].values()) == ROUNDS
    assert len(d["seat_points_mean"]) == 2
    hist = {int(k): v for k, v in d["declarer_card_points_hist"].items()}
    assert min(hist) >= 7 and sum(hist.values()) <= ROUNDS
    assert 7 <= d["declarer_card_points_mean"] <= max(hist)
    assert d["turns_mean"] > 0 and "seconds" in d["timing"]


def test_simulate_games_contract(games_json):
    d = games_json
    assert GAME_KEYS <= set(d)
    assert d["players"] == 3 and d["games"] == GAMES and d["seed"] == 11
    assert d["policies"] == [BASELINE] * 3
    assert len(d["wins"]) == 3 and len(d["final_total_mean"]) == 3
    assert sum(d["wins"]) + d["shared_wins"] == GAMES
    assert 0 <= d["mermaid_wins"] <= sum(d["wins"])
    assert d["rounds_per_game_mean"] >= 1


def test_end_counts_add_up_for_four_players():
    d = run_json("simulate", "-p", "4", "--rounds", "5000", "--seed", "3", "--expansion", "extra-salt")
    assert sum(d["end"].values()) == 5000 and len(d["seat_points_mean"]) == 4
    assert d["expansion"] == "extra-salt"


def test_extra_salt_counts_locks_lobster_searches_and_trios():
    """Issue contract: with Extra Salt, simulate reports locks, lobster searches and trios. The
    baseline plays every swimmer+jellyfish and crab+lobster it can, and never a starfish."""
    d = run_json("simulate", "-p", "3", "--rounds", "5000", "--seed", "3", "--expansion", "extra-salt")
    es, played = d["extra_salt"], d["pairs_played"]
    assert es["locks"] == played["swimmer_jellyfish"] > 0
    assert es["lobster_searches"] == played["crab_lobster"] > 0
    assert es["trios"] == played["trio"] == 0
    assert es["per_round"]["locks"] == es["locks"] / 5000
    base = run_json("simulate", "-p", "3", "--rounds", "5000", "--seed", "3")
    assert "extra_salt" not in base
    assert base["pairs_played"]["swimmer_jellyfish"] == base["pairs_played"]["crab_lobster"] == 0
    assert base["pairs_played"]["crab"] > 0 and base["pairs_played"]["boat"] > 0


@pytest.mark.skipif(max_jobs() < 2, reason="needs two threads")
@pytest.mark.parametrize("mode, n", [("--rounds", ROUNDS), ("--games", GAMES)])
def test_simulate_same_result_for_any_jobs_and_rerun(mode, n):
    base = ["simulate", "--players", "2", mode, str(n), "--policy", "baseline", "--seed", "5"]
    one = run_json(*base, "--jobs", "1")
    two = run_json(*base, "--jobs", "2")
    again = run_json(*base, "--jobs", "2")
    assert one["timing"]["jobs"] == 1 and two["timing"]["jobs"] == 2
    assert without_timing(one) == without_timing(two) == without_timing(again)


def test_default_policy_spec_equals_canonical(rounds_json):
    spelled = run_json("simulate", "--players", "2", "--rounds", str(ROUNDS),
                       "--policy", BASELINE, "--seed", "11")
    assert without_timing(spelled) == without_timing(rounds_json)


def test_one_policy_per_seat():
    d = run_json("simulate", "-p", "2", "--games", "50", "--seed", "1",
                 "--policy", "baseline(stop_at=9)", "--policy", "baseline")
    assert d["policies"] == ["baseline(stop_at=9,last_chance_at=10)", BASELINE]


def test_target_is_used():
    d = run_json("simulate", "-p", "2", "--games", "50", "--seed", "1", "--target", "10")
    assert d["target"] == 10 and d["rounds_per_game_mean"] < 4


def test_seed_is_reported_when_not_given():
    d = run_json("simulate", "-p", "2", "--rounds", "100")
    assert isinstance(d["seed"], int) and d["seed"] >= 0


def test_simulate_rounds_text(rounds_json):
    r = run("simulate", "--players", "2", "--rounds", str(ROUNDS), "--seed", "11")
    assert r.exit_code == 0 and r.stderr == ""  # no progress line when stderr is not a terminal
    out = r.stdout
    for words in ("stop", "last chance won", "four mermaids", "[95%]", "seat 0", "seat 1",
                  "declarer", "turns per round", "seed 11", BASELINE, __version__):
        assert words in out, words
    stop_rate = rounds_json["end"]["stop"] / ROUNDS
    assert f"{100 * stop_rate:.1f}%" in out


def test_simulate_games_text(games_json):
    r = run("simulate", "--players", "3", "--games", str(GAMES), "--seed", "11")
    assert r.exit_code == 0 and r.stderr == ""
    for words in ("outright wins", "shared wins", "four-mermaid wins", "rounds per game",
                  "final total", "seat 2", "seed 11", "35 points"):
        assert words in r.stdout, words
    assert f"{games_json['wins'][0]:>14,}" in r.stdout


@pytest.mark.parametrize("args, words", [
    (["simulate", "--rounds", "10"], ["--players"]),
    (["simulate", "-p", "5", "--rounds", "10"], ["--players"]),
    (["simulate", "-p", "1", "--games", "10"], ["--players"]),
    (["simulate", "-p", "two", "--rounds", "10"], ["--players"]),
    (["simulate", "-p", "2"], ["--rounds", "--games"]),
    (["simulate", "-p", "2", "--rounds", "10", "--games", "10"], ["--rounds", "--games"]),
    (["simulate", "-p", "2", "--rounds", "0"], ["--rounds"]),
    (["simulate", "-p", "2", "--rounds", "-5"], ["--rounds"]),
    (["simulate", "-p", "2", "--rounds", "1e4"], ["--rounds"]),
    (["simulate", "-p", "2", "--games", "0"], ["--games"]),
    (["simulate", "-p", "2", "--rounds", "10", "--jobs", "0"], ["--jobs"]),
    (["simulate", "-p", "2", "--rounds", "10", "--jobs", "100000"], ["--jobs"]),
    (["simulate", "-p", "2", "--rounds", "10", "--jobs", "x"], ["--jobs"]),
    (["simulate", "-p", "2", "--rounds", "10", "--seed", "-1"], ["--seed"]),
    (["simulate", "-p", "2", "--rounds", "10", "--seed", str(2 ** 64)], ["--seed"]),
    (["simulate", "-p", "2", "--rounds", "10", "--seed", "abc"], ["--seed"]),
    (["simulate", "-p", "2", "--rounds", "10", "--policy", "greedy"], ["greedy"]),
    (["simulate", "-p", "2", "--rounds", "10", "--policy", "baseline(stop_at=x)"], ["stop_at"]),
    (["simulate", "-p", "2", "--rounds", "10", "--policy", "baseline(nope=1)"], ["nope"]),
    (["simulate", "-p", "2", "--rounds", "10", "--policy", "baseline(stop_at=500)"], ["stop_at"]),
    (["simulate", "-p", "2", "--rounds", "10", "--policy", "baseline("], ["baseline("]),
    (["simulate", "-p", "3", "--rounds", "10", "--policy", "baseline", "--policy", "baseline"],
     ["--policy"]),
    (["simulate", "-p", "2", "--rounds", "10", "--target", "20"], ["--target"]),
    (["simulate", "-p", "2", "--games", "10", "--target", "0"], ["--target"]),
    (["simulate", "-p", "2", "--rounds", "10", "--expansion", "pepper"], ["pepper"]),
])
def test_simulate_user_errors(args, words):
    assert_user_error(run(*args), *words)
    assert_user_error(run(*args, "--json"), *words)


# --- progress -----------------------------------------------------------------------------------

class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_draws_on_a_terminal_and_erases_itself():
    stream = _Tty()
    with ProgressLine("simulating rounds", stream=stream, delay=0, interval=0) as progress:
        progress(50, 100)
        progress(100, 100)
    text = stream.getvalue()
    assert "simulating rounds: 50/100 (50%)" in text and "100/100" in text
    assert "\n" not in text and text.endswith("\r")


def test_progress_line_status_shows_at_once_until_the_next_report():
    stream = _Tty()
    with ProgressLine("sweep", stream=stream, delay=60) as progress:
        progress.status("connecting to the Dask scheduler at tcp://h:8786")
        assert stream.getvalue() == "\rsweep: connecting to the Dask scheduler at tcp://h:8786"
    assert stream.getvalue().endswith("\r") and stream.getvalue().count("\r") == 3


def test_progress_line_is_silent_off_a_terminal_or_for_short_runs():
    pipe = io.StringIO()
    with ProgressLine("x", stream=pipe, delay=0, interval=0) as progress:
        progress(1, 2)
    tty = _Tty()
    with ProgressLine("x", stream=tty, delay=60) as progress:
        progress(1, 2)
    assert pipe.getvalue() == "" and tty.getvalue() == ""


# --- the installed console script ---------------------------------------------------------------

def test_console_script_score():
    p = cli("score", "--hand", EX14_HAND, "--table", EX14_TABLE, "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"card_points": 15, "colour_bonus": 5,
                                    "breakdown": {"mermaids": 8, "duos": 2, "collections": 4,
                                                  "multipliers": 1}}


@pytest.mark.parametrize("args", [
    ["score", "--hand", "seahorse,sailor:pink,shell:black,shell:grey"],
    ["simulate", "--players", "2", "--rounds", "10", "--target", "5", "--json"],
    ["simulate", "--players", "2", "--rounds", "ten"],
])
def test_console_script_error_is_one_line(args):
    p = cli(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert "Traceback" not in p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), p.stderr
