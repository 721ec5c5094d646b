"""The first hour of a new user (issue 16): what a player does (`seasalt policies`), breakdowns
in the terminal, tables that fit 100 columns with one precision per column, identical sweep
rows explained, no silent loss of an interrupted run's work, the compile status, the position
template, and the ways to call seasalt."""
from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import numba
import pytest

from analyzer.runs import backends, compiling as warmup
from cli_helpers import refused_then_resumed, started
from analyzer.faces import warmup as warmup_steps
from analyzer.faces.cli import main
from analyzer.rules.policies import REGISTRY, format_value
from analyzer.seastead.players import REGISTRY as SEASTEAD
from analyzer.play.position_input import load
from analyzer.play.position_template import EXAMPLE, TEMPLATE, strip_comments
from analyzer.studies.simulate import simulate_games
from analyzer.render.text_tables import WIDTH, entrant_labels, identical_groups, pct_digits, rate_ci
from cli_helpers import SEASALT, assert_user_error, run, run_json, without_timing

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = [ROOT / "docs" / "example_position.json",
             *sorted((ROOT / "tests" / "fixtures" / "positions").glob("*.json"))]


def ok(*args) -> str:
    r = run(*args)
    assert r.exit_code == 0, r.stderr
    return r.stdout


# --- seasalt policies ---------------------------------------------------------------------------

def test_policies_lists_every_registered_policy():
    out = ok("policies")
    for name in REGISTRY:
        assert re.search(rf"^  {name}\s", out, re.M), name
    assert "seasalt policies NAME" in out and "docs/players.md" in out


def check_detail(command: list[str], info) -> None:
    """`command` (and its --json) shows the player's doc and every parameter's default, range
    and meaning."""
    out = ok(*command)
    flat = " ".join(out.split())
    assert " ".join(info.doc.split()) in flat
    params = out[out.index("\n  parameter "):] if info.params else ""     # the table
    for p in info.params:
        row = re.search(rf"^  {p.name}\s+(\S+)\s+(\S+)", params, re.M)
        assert row, (info.name, p.name)
        assert row.group(1).rstrip("*") == format_value(p.default)
        assert row.group(2).rstrip(",") == f"{format_value(p.low)}..{format_value(p.high)}"
        assert " ".join(p.doc.split()) in flat
    d = json.loads(ok(*command, "--json"))
    assert [(x["name"], x["default"]) for x in d[0]["params"]] == \
        [(p.name, p.default) for p in info.params]


@pytest.mark.parametrize("name", list(REGISTRY))
def test_policies_name_lists_every_parameter_with_default_range_and_meaning(name):
    check_detail(["policies", name], REGISTRY[name])


def test_presets_say_what_they_change():
    out = ok("policies", "gambler")
    assert "a preset of threshold" in out and "last_chance_margin" in out
    assert re.search(r"^  last_chance_margin\s+3\*", out, re.M)


@pytest.mark.parametrize("args", [
    ["simulate", "--policy", "help"], ["simulate", "-p", "2", "--rounds", "9", "--policy", "help"],
    ["tournament", "--policy", "help"], ["sweep", "--policy", "help"], ["sweep", "--vs", "help"],
    ["replay", "--policy", "help"], ["advise", "--opponent", "help"], ["advise", "--me", "list"],
])
def test_policy_help_prints_the_players(args):
    out = ok(*args)
    assert all(name in out for name in REGISTRY) and "seasalt policies NAME" in out


def test_unknown_policy_points_to_the_list():
    assert_user_error(run("policies", "nope"), "nope", "seasalt policies")
    assert_user_error(run("simulate", "-p", "2", "--rounds", "9", "--policy", "nope"),
                      "seasalt policies")
    assert_user_error(run("seastead", "simulate", "--player", "nope"), "nope",
                      "seasalt seastead players")


@pytest.mark.parametrize("name", list(SEASTEAD))
def test_seastead_players_lists_every_parameter_with_default_range_and_meaning(name):
    listing = ok("seastead", "players")
    assert all(re.search(rf"^  {n}\s", listing, re.M) for n in SEASTEAD)
    check_detail(["seastead", "players", name], SEASTEAD[name])


@pytest.mark.parametrize("args", [
    ["seastead", "simulate", "--player", "help"], ["seastead", "tournament", "--player", "help"],
    ["seastead", "replay", "--seed", "1", "--player", "help"],
    ["seastead", "report", "--player", "help"]])
def test_seastead_player_help_prints_the_players(args):
    out = ok(*args)
    assert all(name in out for name in SEASTEAD) and "seasalt seastead players NAME" in out


# --- breakdowns in the terminal -----------------------------------------------------------------

SIM = ["simulate", "-p", "3", "--rounds", "60000", "--seed", "4"]


def test_summary_has_mermaid_payoff_and_last_chance_lines():
    out = ok(*SIM)
    d = run_json(*SIM)
    calls = d["end"]["last_chance_won"] + d["end"]["last_chance_lost"]
    assert f"LAST CHANCE: {calls:,} calls, won" in out
    assert "mermaid payoff" in out
    for m in d["mermaid_payoff"]:
        assert re.search(rf"^\s+{m['mermaids']}\s+{m['player_rounds']:,}\s+"
                         rf"{m['round_points_mean']:.2f} ", out, re.M), m


@pytest.mark.parametrize("table, title", [
    ("last-chance", "LAST CHANCE calls and success"), ("mermaids", "payoff by mermaids"),
    ("turns", "round length"), ("declarer-points", "declarer's card points"),
    ("seats", "per seat")])
def test_table_without_out_prints_that_table(table, title):
    out = ok(*SIM, "--table", table)
    assert title in out and "rounds (seat 0 starts each round)" not in out   # not the summary
    d = run_json(*SIM)
    if table == "last-chance":
        for k, v in d["last_chance_by_points"].items():
            assert re.search(rf"^\s+{k}\s+{v['calls']:,}\s+{v['won']:,}\s", out, re.M), k
    if table == "turns":
        for k, v in d["turns_hist"].items():
            assert re.search(rf"^\s+{k}\s+{v:,}\s", out, re.M), k


def test_table_with_out_writes_it_and_prints_the_summary(tmp_path):
    out = ok(*SIM, "--table", "mermaids", "--out", str(tmp_path / "m.csv"))
    assert "seat 0 starts each round" in out
    assert (tmp_path / "m.csv").read_text().startswith("mermaids,")
    assert_user_error(run("simulate", "-p", "2", "--games", "10", "--table", "mermaids"),
                      "--table", "--rounds")


# --- 100 columns, one precision -----------------------------------------------------------------

LONG = "threshold(last_chance_margin=2,hand_value=1.5,lc_min_deck=10,take_at=0.5,play_crab=0)"
OUTPUTS = [
    ["simulate", "-p", "4", "--rounds", "20000", "--seed", "1", "--expansion", "extra-salt",
     "--policy", LONG, "--policy", "gambler", "--policy", "denier", "--policy", "mermaid_hunter"],
    ["simulate", "-p", "3", "--games", "600", "--seed", "1", "--policy", LONG],
    *[["simulate", "-p", "2", "--rounds", "20000", "--seed", "2", "--table", t]
      for t in ("seats", "last-chance", "mermaids", "turns", "declarer-points")],
    ["sweep", "--sweep", "last_chance_margin=0..2", "--sweep", "lc_min_deck=0,30",
     "--policy", LONG, "--vs", "gambler", "--vs", "mermaid_hunter", "--players", "3,4",
     "--games", "300", "--seed", "1"],
    ["tournament", "-p", "4", "--policy", LONG, "--policy", "gambler", "--policy",
     "threshold(play_boat=0,play_crab=0,steal_from=2,take_at=0.5,bury=1)", "--policy", "denier",
     "--games", "400", "--seed", "1"],
    ["tournament", "-p", "3", "--policy", "baseline", "--policy", "baseline", "--games", "300",
     "--seed", "1"],
    *[["advise", str(p), "--samples", "2000", "--seed", "1"] for p in POSITIONS],
    ["replay", "--seed", "3", "-p", "4", "--expansion", "extra-salt"],
    ["score", "--hand", "mermaid,crab:black", "--table", "boat:black,boat:yellow"],
    ["policies"], *[["policies", name] for name in REGISTRY], ["advise", "--template"],
    # Seastead: the same promise
    ["seastead", "simulate", "--games", "600", "--seed", "1"],
    ["seastead", "simulate", "--games", "600", "--seed", "1", "--sides", "BBBB",
     "--player", "heuristic(split=1,build_at=3,demand_weight=1.5)", "--player", "denier"],
    ["seastead", "simulate", "--games", "600", "--seed", "1", "--solo"],
    ["seastead", "tournament", "--player", "heuristic", "--player", "greedy", "--player",
     "heuristic(split=0,build_at=4,spend_at=-1,effect_weight=1.5)", "--player", "random",
     "--games", "200", "--seed", "1"],
    ["seastead", "replay", "--seed", "3", "--sides", "BBBB"],
    ["seastead", "report", "--games", "600", "--seed", "1"],
    ["seastead", "components"], ["seastead", "players"],
    *[["seastead", "players", name] for name in SEASTEAD],
]


@pytest.mark.parametrize("args", OUTPUTS, ids=lambda a: " ".join(a[:3]))
def test_every_text_output_fits_100_columns_with_one_precision(args):
    out = ok(*args)
    wide = [line for line in out.splitlines() if len(line) > WIDTH]
    assert not wide, wide
    for m in re.finditer(r"(\d+\.(\d+))% \[(\d+\.(\d+)), (\d+\.(\d+))\]", out):
        assert len(m.group(2)) == len(m.group(4)) == len(m.group(6)), m.group(0)


@pytest.mark.parametrize("command", main.list_commands(None) + [
    f"seastead {c}" for c in ("simulate", "tournament", "replay", "report", "components",
                              "players")])
def test_help_fits_100_columns(command):
    out = ok(*command.split(), "--help")
    assert max(len(line) for line in out.splitlines()) <= WIDTH


def test_precision_follows_the_column():
    assert pct_digits([0.5, 0.3]) == 1 and pct_digits([0.0, 0.0013]) == 2
    assert pct_digits([0.0, 0.0002]) == 3 and pct_digits([]) == 1
    assert rate_ci(0.0, 0.0, 0.00021) == "0.000% [0.000, 0.021]"     # not "0.0% - 0.021%"
    out = ok("sweep", "--sweep", "stop_at=7,8", "--players", "2", "--games", "600", "--seed", "3")
    void = [line for line in out.splitlines() if re.search(r"\d\.\d+% \[", line)]
    assert void


def test_tournament_rows_name_their_players():
    out = ok("tournament", "-p", "3", "--policy", "baseline", "--policy", "gambler",
             "--policy", "baseline", "--games", "300", "--seed", "2")
    assert re.search(r"^\s+\d\s+gambler\s", out, re.M)
    assert re.search(r"^\s+\d\s+baseline #0\s", out, re.M)
    assert re.search(r"^\s+\d\s+baseline #2\s", out, re.M)
    assert "#1" not in out
    long = entrant_labels([LONG, "gambler"])
    assert long[1] == "gambler" and long[0].endswith("...") and len(long[0]) <= 22


def test_identical_sweep_rows_are_explained():
    """last_chance_at 5, 6 and 7 are the same player (every declaration is at 7 points or more,
    so always a LAST CHANCE); 8 is not."""
    args = ["sweep", "--sweep", "last_chance_at=5..8", "--players", "2", "--games", "600",
            "--seed", "1"]
    out = ok(*args)
    note = " ".join(out[out.index("identical rows"):].split())
    assert "(last_chance_at=5) = (last_chance_at=6) = (last_chance_at=7)." in note
    assert "last_chance_at=8" not in note
    assert "call LAST CHANCE instead of STOP from this many card points" in note
    rows = json.loads(ok(*args, "--json"))["rows"]
    assert identical_groups(rows) == [[0, 1, 2]]
    assert "identical rows" not in ok("sweep", "--sweep", "stop_at=7..9", "--players", "2",
                                      "--games", "600", "--seed", "1")


# --- the advisor's position file ----------------------------------------------------------------

def test_template_is_a_commented_position_that_loads_as_printed(tmp_path):
    out = ok("advise", "--template")
    assert out == TEMPLATE and out.count("//") >= 8
    f = tmp_path / "pos.json"
    f.write_text(out)
    assert load(str(f)) == EXAMPLE == json.loads((ROOT / "docs/example_position.json").read_text())
    a = json.loads(ok("advise", str(f), "--samples", "500", "--seed", "1", "--json"))
    b = json.loads(ok("advise", "docs/example_position.json", "--samples", "500", "--seed", "1",
                      "--json"))
    assert without_timing(a) == without_timing(b)


def test_comments_are_stripped_outside_strings_only():
    assert json.loads(strip_comments('{"a": "x//y", // note\n "b": 1}')) == {"a": "x//y", "b": 1}
    assert json.loads(strip_comments('{"a": "q\\"//"}')) == {"a": 'q"//'}


def test_position_messages(tmp_path):
    assert_user_error(run("advise"), "POSITION", "--template")
    assert_user_error(run("advise", "x.json", "--template"), "--template")
    pos = dict(EXAMPLE, piles={"A": {"top": "octopus:grey"}, "B": {"size": 0}})
    f = tmp_path / "p.json"
    f.write_text(json.dumps(pos))
    assert_user_error(run("advise", str(f)), "pile A", "give its size")


def test_advise_takes_me_as_the_command_line_does():
    from analyzer.play.advisor import advise
    a = advise(EXAMPLE, samples=300, seed=1, me="gambler")
    b = advise(EXAMPLE, samples=300, seed=1, me_policy="gambler")
    default = advise(EXAMPLE, samples=1).meta["me_policy"]
    assert a.meta["me_policy"] == b.meta["me_policy"] != default
    assert a.options == b.options


# --- no silent loss of an interrupted run's work ------------------------------------------------

def _interrupt(args: list[str], env: dict, sig=signal.SIGINT, tasks: int = 1):
    """Start `seasalt ARGS`, send `sig` once its cache checkpoint holds `tasks` finished tasks;
    (process, stdout, stderr)."""
    p = started(args, env, tasks)
    p.send_signal(sig)
    out, err = p.communicate(timeout=300)
    return p, out, err


SWEEP = ["sweep", "--sweep", "stop_at=7,10", "--players", "2,3", "--games", "40000", "--seed", "8"]


def test_rerun_without_resume_refuses_and_keeps_the_work(tmp_path):
    env = dict(os.environ, SEASALT_CHECKPOINT_DIR=str(tmp_path))
    p, _, _ = _interrupt(SWEEP + ["--json"], env)
    assert p.returncode == 130
    (ck,) = tmp_path.glob("*.jsonl")
    kept = ck.read_bytes()
    again = subprocess.run([SEASALT, *SWEEP, "--json"], capture_output=True, text=True, env=env)
    assert again.returncode == 2 and again.stdout == ""
    line = again.stderr.strip()
    assert line.startswith("error: an earlier run") and "--resume" in line and "--restart" in line
    assert str(ck) in line and ck.read_bytes() == kept                  # nothing lost
    resumed = subprocess.run([SEASALT, *SWEEP, "--json", "--resume"], capture_output=True,
                             text=True, env=env)
    assert resumed.returncode == 0, resumed.stderr
    full = json.loads(ok(*SWEEP, "--json"))
    assert without_timing(json.loads(resumed.stdout)) == without_timing(full)
    assert json.loads(resumed.stdout)["timing"]["tasks_resumed"] >= 1


def test_restart_discards_the_interrupted_run(tmp_path, monkeypatch):
    monkeypatch.setenv("SEASALT_CHECKPOINT_DIR", str(tmp_path))
    from cli_helpers import stop_after
    from analyzer.base.errors import RunInterrupted
    kw = dict(players=2, games=20000, seed=8)
    with pytest.raises(RunInterrupted):
        simulate_games(**kw, progress=stop_after(1))
    args = ["simulate", "-p", "2", "--games", "20000", "--seed", "8", "--json"]
    assert_user_error(run(*args), "an earlier run", "--restart")
    r = run_json(*args, "--restart")
    assert r["timing"]["tasks_resumed"] == 0 and list(tmp_path.glob("*.jsonl")) == []
    assert without_timing(r) == without_timing(simulate_games(**kw))


def test_explicit_checkpoint_protection(tmp_path):
    ck = tmp_path / "run.ckpt"
    base = ["simulate", "-p", "2", "--games", "3000", "--seed", "5", "--checkpoint", str(ck)]
    ok(*base)
    assert_user_error(run(*base), "already exists", "--resume", "--restart")
    assert ok(*base, "--restart")
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    assert_user_error(run(*base[:-1], str(mine), "--restart"), "not a seasalt checkpoint")
    line = assert_user_error(run(*base[:-1], str(mine)), "not a seasalt checkpoint")
    assert "finished task" not in line                  # a CSV's lines are not tasks
    assert mine.read_text() == "my notes\n"
    assert_user_error(run(*base, "--resume", "--restart"), "not both")


def test_a_mismatch_names_what_differs(tmp_path):
    ck = tmp_path / "run.ckpt"
    ok("simulate", "-p", "2", "--games", "3000", "--seed", "5", "--checkpoint", str(ck))
    line = assert_user_error(run("simulate", "-p", "2", "--games", "4000", "--seed", "5",
                                 "--checkpoint", str(ck), "--resume"), "different run")
    assert "different run: games 3000 there, 4000 here; only the same" in line
    line = assert_user_error(run("simulate", "-p", "2", "--games", "3000", "--seed", "5",
                                 "--policy", "gambler", "--checkpoint", str(ck), "--resume"))
    assert "policies baseline baseline there, gambler gambler here" in line


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_stop_like_ctrl_c_and_name_the_kept_work(tmp_path, sig, code):
    env = dict(os.environ, SEASALT_CHECKPOINT_DIR=str(tmp_path))
    p, out, err = _interrupt(SWEEP, env, sig)
    assert p.returncode == code and out == ""
    (line,) = [x for x in err.splitlines() if x.strip()]
    (ck,) = tmp_path.glob("*.jsonl")
    assert line.startswith(f"terminated by {signal.Signals(sig).name} after ")
    assert str(ck) in line and "--resume --seed 8" in line and "Traceback" not in err


def test_seastead_runs_keep_their_work_like_the_others(tmp_path):
    """A real interrupted Seastead run: a second run on its checkpoint while it runs is refused
    naming it; afterwards a rerun without --resume refuses (naming --resume and --restart), and
    --resume completes to the uninterrupted result."""
    from analyzer.seastead.runs import simulate as seastead_simulate
    env = dict(os.environ, SEASALT_CHECKPOINT_DIR=str(tmp_path))
    args = ["seastead", "simulate", "--games", "60000", "--seed", "4", "--json"]
    # On one thread the run lasts twice as long (same tasks, same checkpoint: --jobs is not part
    # of a run's identity), so that the twin below, which needs a few seconds to start on a busy
    # machine, still finds it under way and the interrupt still finds it unfinished.
    p = started(args + ["--jobs", "1"], env)
    twin = subprocess.run([SEASALT, *args], capture_output=True, text=True, env=env)
    assert twin.returncode == 2 and f"pid {p.pid}" in twin.stderr, twin.stderr
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=300)
    (ck,) = tmp_path.glob("*.jsonl")
    assert p.returncode == 130 and str(ck) in err and "--resume --seed 4" in err
    r = json.loads(refused_then_resumed(args, env, ck).stdout)
    assert r["timing"]["tasks_resumed"] >= 1 and not ck.exists()
    assert without_timing(r) == without_timing(seastead_simulate(60000, seed=4))


# --- compiling ----------------------------------------------------------------------------------

class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _fresh_function():
    """A function numba has never compiled (a new closure each call): compiling it fires the
    same events as the engine's first use."""
    k = time.time_ns()

    @numba.njit
    def f(x):
        return x * 3 + k
    return f


def test_compile_watch_sees_compiling_and_not_cached_calls():
    f = _fresh_function()
    with warmup.watching() as w:
        f(2)
    assert w.compiled >= 1 and w.seconds > 0
    with warmup.watching() as w:
        f(3)                                     # compiled already: no event
    assert w.compiled == 0 and w.seconds == 0


def test_notice_shows_while_compiling_on_a_terminal_only():
    tty, pipe = _Tty(), io.StringIO()
    with warmup.notice(tty):
        _fresh_function()(1)
    with warmup.notice(pipe):
        _fresh_function()(1)
    text = tty.getvalue()
    assert "compiling the engine, first run here only" in text
    assert text.endswith("\r") and "\n" not in text and pipe.getvalue() == ""


def test_a_commands_notice_has_its_own_estimate_names_each_kernel_and_says_how_long():
    """A first advise compiles for about 73 s, not simulate's 14: its status line says so and
    names the kernel compiling; the line that stays says what was compiled and how long it took.
    Only on a terminal: a pipe gets the run's own output and nothing else."""
    from analyzer.render.compile_costs import COMPILE, first_run_key
    tty, pipe = _Tty(), io.StringIO()
    with warmup.notice(tty, args=["advise", "position.json", "--samples", "100"]):
        _fresh_function()(1)
    with warmup.notice(pipe, args=["advise", "position.json"]):
        _fresh_function()(1)
    text = tty.getvalue()
    estimate = COMPILE["first_run_s"]["advise"]
    assert f"compiling the engine for advise, first run here only (about {estimate} s): " in text
    assert "test_first_hour" in text                      # the kernel compiling: its name
    last = text.rstrip("\n").split("\r")[-1]
    assert last.startswith("compiled 1 kernel for advise in ") and text.endswith("\n")
    assert pipe.getvalue() == ""
    assert first_run_key(["simulate", "-p", "2"]) == "simulate"
    assert first_run_key(["simulate", "--policy", "random", "-p", "2"]) == "engine"
    assert first_run_key(["tournament", "--policy", "search(samples=8)"]) == "search"
    assert first_run_key(["seastead", "simulate"]) == "seastead"
    assert first_run_key(["report", "x.csv"]) is None


def test_a_first_run_does_not_count_compiling_in_its_speed(monkeypatch):
    real = backends._run_threads

    def compile_first(*args):
        _fresh_function()(1)
        return real(*args)
    monkeypatch.setattr(backends, "_run_threads", compile_first)
    # the run's own clock reads 0 at its start and 1000 afterwards: its seconds are those 1000
    # less the compiling the watch saw (no wall clock is asserted on)
    reads = iter([0.0])
    clock = types.SimpleNamespace(**{k: getattr(time, k) for k in dir(time) if not k.startswith("_")})
    clock.perf_counter = lambda: next(reads, 1000.0)
    monkeypatch.setattr(backends, "time", clock)
    r = simulate_games(2, 2000, seed=1)
    t = r["timing"]
    assert t["compile_seconds"] > 0                          # the fresh function compiled
    assert t["seconds"] == pytest.approx(1000 - t["compile_seconds"])
    assert t["games_per_second"] == pytest.approx(2000 / t["seconds"])
    from analyzer.render.text_tables import timing
    words = lambda t: " ".join(" ".join(timing(t, "games")).split())  # noqa: E731
    assert "compiling" not in words({**t, "compile_seconds": 0.1})
    assert "compiling the engine took another 56 s (first run only, not counted)" in \
        words({**t, "compile_seconds": 56.0})


def test_warmup_command():
    r = run("warmup")
    assert r.exit_code == 0, r.stderr
    assert "already compiled" in r.stdout or "compiled the engine" in r.stdout
    assert numba.config.CACHE_DIR in r.stdout
    steps = [line for line in r.stderr.splitlines() if line.startswith("[")]
    assert [line.split("] ", 1)[1] for line in steps] == [name for name, _ in warmup_steps.STEPS]
    assert steps[0].startswith(f"[1/{len(warmup_steps.STEPS)}] ")
    assert max(len(line) for line in r.stderr.splitlines()) <= WIDTH


def test_warmup_shows_each_kernel_as_it_compiles(monkeypatch):
    """Two steps, the first compiling two fresh kernels, the second none: each kernel has its
    line, written when it starts compiling (so a long compile is seen at once) and completed
    with its seconds, and every line fits 100 columns."""
    f, g = _fresh_function(), _fresh_function()

    def first():
        f(1), g(1)
    monkeypatch.setattr(warmup_steps, "STEPS",
                        [("tiny kernels", first), ("nothing new", lambda: f(2))])
    buffer = io.StringIO()
    import click
    real = click.echo

    def echo(message=None, file=None, nl=True, err=False, **kw):
        if err:
            buffer.write(f"{message}" + ("\n" if nl else ""))
        return real(message, file=file, nl=nl, err=err, **kw)
    monkeypatch.setattr(click, "echo", echo)
    marks = []
    real_kernel = warmup.CompileWatch.on_start

    def on_start(self, ev):
        real_kernel(self, ev)
        marks.append(buffer.getvalue())              # what the user sees as compiling begins
    monkeypatch.setattr(warmup.CompileWatch, "on_start", on_start)
    r = run("warmup")
    assert r.exit_code == 0, r.stderr
    err = buffer.getvalue()
    lines = err.splitlines()
    assert max(len(x) for x in lines) <= WIDTH
    kernels = [x for x in lines if x.startswith("  compiling ")]
    assert len(kernels) == 2 and all(re.fullmatch(r"  compiling test_first_hour\._fresh_function"
                                                  r"\.<locals>\.f \.\.\. \d+\.\d s", x)
                                     for x in kernels), kernels
    # each kernel's line is on the screen while it compiles (written before numba starts on it)
    assert sum(m.endswith("compiling test_first_hour._fresh_function.<locals>.f ...")
               for m in marks) == 2, marks
    assert "  tiny kernels: 2 kernels compiled in" in err
    assert "  nothing new: already compiled" in err
    assert lines.index("[1/2] tiny kernels") < lines.index(kernels[0]) < \
        lines.index("[2/2] nothing new")
    assert "compiled the engine for 2 commands" in r.stdout


def test_the_compile_figures_come_from_one_place():
    """docs/compile.md and --help quote analyzer.render.compile_costs.COMPILE's measured figures, word
    for word, and nothing says "about a minute" any more."""
    from analyzer.render.compile_costs import COMPILE, NOTICE, SIMULATE_COST, WARMUP_COST
    readme = " ".join((ROOT / "docs" / "compile.md").read_text().split())
    helps = " ".join(ok("--help").split()), " ".join(ok("warmup", "--help").split())
    assert WARMUP_COST in readme and SIMULATE_COST in readme
    assert all(WARMUP_COST in h for h in helps) and SIMULATE_COST in helps[0]
    assert SIMULATE_COST in NOTICE and len(NOTICE) + 4 <= WIDTH
    for figure in (COMPILE["warmup_wall_s"], COMPILE["warmup_cpu_s"], COMPILE["warmup_peak_gb"]):
        assert f"{figure}" in WARMUP_COST
    assert "about a minute" not in readme and not any("about a minute" in h for h in helps)


@pytest.mark.slow
def test_first_run_in_a_terminal_shows_the_compile_status(tmp_path):
    """A fresh compile cache, stderr a terminal: the status line comes at once, and the speed
    printed excludes the minute of compiling."""
    import pty
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    master, slave = pty.openpty()
    p = subprocess.Popen([SEASALT, "simulate", "-p", "2", "--rounds", "400000", "--seed", "1"],
                         stdout=subprocess.PIPE, stderr=slave, env=env, text=True)
    os.close(slave)
    seen = b""
    while p.poll() is None or True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    out = p.stdout.read()
    p.wait()
    assert b"compiling the engine for simulate, first run here only (about 14 s)" in seen
    assert re.search(rb"compiled \d+ kernels? for simulate in [\d.]+ s \(batch\.run_fast", seen)
    speed = int(re.search(r"([\d,]+) rounds/s", out).group(1).replace(",", ""))
    assert speed > 0 and "compiling the engine took another" in out


# --- ways to call seasalt -----------------------------------------------------------------------

@pytest.mark.parametrize("argv", [[sys.executable, "-m", "seasalt", "--version"],
                                  [sys.executable, "-m", "analyzer", "--version"]])
def test_python_dash_m(argv):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stdout.startswith("seasalt "), p.stderr


def test_import_seasalt():
    import seasalt
    assert seasalt.score_hand("Shoal of Fish,fish:black")["card_points"] == 1
    assert set(seasalt.__all__) <= set(dir(seasalt))


def test_wrote_lines_go_to_stderr(tmp_path):
    from click.testing import CliRunner
    d = tmp_path / "g.csv"
    r = CliRunner().invoke(main, ["simulate", "-p", "3", "--games", "300", "--seed", "1",
                                  "--out", str(d)])
    assert r.exit_code == 0 and "wrote 3 rows" in r.stderr and "wrote" not in r.stdout
    r = CliRunner().invoke(main, ["report", str(d), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0 and r.stdout == "" and "wrote " in r.stderr
    html = (tmp_path / "rep" / "index.html").read_text()
    assert "seat_wins.png" in html and "Wins by seat" in html


def test_report_explains_a_replay_file(tmp_path):
    f = tmp_path / "r.csv"
    ok("replay", "--seed", "1", "-p", "2", "--out", str(f))
    assert_user_error(run("report", str(f), "--out", str(tmp_path / "rep")),
                      "a replay", "has no chart")


@pytest.mark.parametrize("args", [
    ["seastead", "simulate", "--games", "200", "--seed", "1"], ["seastead", "replay", "--seed", "1"],
    ["seastead", "tournament", "--player", "heuristic", "--player", "random", "--games", "100"]])
def test_report_points_a_seastead_file_to_its_own_report(tmp_path, args):
    f = tmp_path / "s.csv"
    assert run(*args, "--out", str(f)).exit_code == 0
    assert_user_error(run("report", str(f), "--out", str(tmp_path / "rep")),
                      "a Seastead result", "seasalt seastead report")
    assert not (tmp_path / "rep").exists()
