"""Every command's `--help`, word for word as recorded in tests/fixtures/help.txt: moving code
between files (issue 24) must not change what a user reads. After a deliberate change of a help
text, record it again with `python tests/faces/test_help.py > tests/fixtures/help.txt`."""
from __future__ import annotations

import json
from pathlib import Path

import click
from click.testing import CliRunner

from analyzer.faces.cli import main

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "help.txt"


def all_help() -> str:
    """`seasalt --help` and the help of every command and subcommand, 100 columns wide, each
    under a `=== seasalt NAME` line with its exit status."""
    runner = CliRunner()
    out = []

    def walk(cmd: click.Command, path: list[str]) -> None:
        r = runner.invoke(main, path[1:] + ["--help"], prog_name="seasalt", terminal_width=100)
        out.append("=== " + " ".join(path) + "\n" + r.output + f"[exit {r.exit_code}]\n")
        if isinstance(cmd, click.Group):
            ctx = click.Context(cmd)
            for name in cmd.list_commands(ctx):
                walk(cmd.get_command(ctx, name), path + [name])

    walk(main, ["seasalt"])
    return "".join(out) + "\n"


def test_every_help_is_as_recorded():
    assert all_help() == RECORDED.read_text(encoding="utf-8")


def test_the_recording_covers_every_command():
    """25 help texts: the group, its 16 commands and Seastead's 8 subcommands (a new command is
    recorded, not silently skipped)."""
    names = [line for line in RECORDED.read_text(encoding="utf-8").splitlines()
             if line.startswith("=== ")]
    assert len(names) == 25 and "=== seasalt calibrate" in names


def test_the_version_the_help_and_a_wrong_command_start_without_the_engine():
    """`seasalt --version`, `seasalt --help` and an unknown command answer through the installed
    script without importing numba, numpy or the kernels: they start in a blink."""
    import re
    import shutil
    import subprocess
    import sys
    script = shutil.which("seasalt", path=str(Path(sys.executable).parent))
    assert script, "the seasalt script is installed with the project"
    for args, code in ((["--version"], 0), (["--help"], 0), (["nosuch"], 2)):
        r = subprocess.run([sys.executable, "-X", "importtime", script, *args],
                           capture_output=True, text=True)
        assert r.returncode == code, (args, r.stderr[-500:])
        loaded = set(re.findall(r"\|\s+(numba|numpy|kernels)$", r.stderr, re.M))
        assert not loaded, (args, loaded)
    r = subprocess.run([sys.executable, "-X", "importtime", script, "simulate", "--players", "2",
                        "--rounds", "10", "--seed", "1"], capture_output=True, text=True)
    assert r.returncode == 0 and re.search(r"\|\s+numba$", r.stderr, re.M)   # the probe sees



def test_a_compiled_engine_is_loaded_without_numbas_compiler_registries():
    """A command whose kernels are all in the compile cache loads them without numba importing
    the typing and lowering registries it needs only to compile (numba.np.linalg among them),
    and answers exactly as the run that compiled or loaded them first."""
    import re
    import shutil
    import subprocess
    import sys
    script = shutil.which("seasalt", path=str(Path(sys.executable).parent))
    args = [script, "simulate", "--players", "3", "--rounds", "2000", "--seed", "5", "--json"]
    first = subprocess.run([sys.executable, *args], capture_output=True, text=True)
    again = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True,
                           text=True)
    assert first.returncode == again.returncode == 0, again.stderr[-500:]
    assert re.search(r"\|\s+kernels\.batch$", again.stderr, re.M)
    assert not re.search(r"\|\s+numba\.np\.linalg$", again.stderr, re.M)
    strip = lambda out: {k: v for k, v in json.loads(out).items() if k != "timing"}
    assert strip(first.stdout) == strip(again.stdout)

# Option mistakes, one or more per command: each is caught before the engine (numba) loads.
BAD_OPTIONS = [
    ["policies", "nosuch"], ["simulate", "-p", "9", "--rounds", "5"],
    ["simulate", "-p", "2", "--rounds", "5", "--policy", "nosuch"],
    ["simulate", "-p", "2", "--rounds", "5", "--jobs", "99"],
    ["simulate", "-p", "2", "--games", "5", "--target", "0"],
    ["sweep", "-p", "2", "--sweep", "nosuch=1..2"],
    ["tournament", "--policy", "baseline"], ["replay", "--seed", "1", "-p", "2", "--policy", "x"],
    ["replay", "--game", "nosuch.json"], ["review", "--seed", "1", "-p", "2", "--seat", "5"],
    ["review", "--seed", "1", "-p", "2", "--tremble", "5"],
    ["review", "--seed", "1", "-p", "2", "--reading", "nosuch"], ["advise", "nosuch.json"],
    ["advise", "POSITION", "--samples", "0"], ["advise", "POSITION", "--opponent", "nosuch"],
    ["advise", "POSITION", "--jobs", "99"], ["calibrate", "-p", "2", "--seat", "7"],
    ["guide", "--out", "GUIDE", "--jobs", "0"], ["optimize", "-p", "9"],
    ["train", "--out", "t.json", "--players", "9"], ["score", "--hand", "nosuch"],
    ["serve", "--port", "-1"], ["seastead", "simulate", "--games", "0"],
    ["seastead", "replay", "--seed", "-1"], ["seastead", "tournament", "--player", "nosuch"],
]


def test_listing_the_players_and_every_option_mistake_start_without_the_engine(tmp_path):
    """`seasalt policies` lists the players, and a mistake in any command's options is one
    `error:` line with exit status 2, all without importing numba: the options are checked
    before the engine loads."""
    import re
    import shutil
    import subprocess
    import sys
    from analyzer.play.position_template import TEMPLATE
    script = shutil.which("seasalt", path=str(Path(sys.executable).parent))
    position = tmp_path / "position.json"
    position.write_text(TEMPLATE)
    cases = [(["policies"], 0), (["policies", "threshold"], 0)] + [(a, 2) for a in BAD_OPTIONS]
    for args, code in cases:
        args = [str(position) if a == "POSITION" else str(tmp_path / "guide") if a == "GUIDE"
                else a for a in args]
        r = subprocess.run([sys.executable, "-X", "importtime", script, *args], cwd=tmp_path,
                           capture_output=True, text=True)
        said = [x for x in r.stderr.splitlines() if not x.startswith("import time:")]
        assert r.returncode == code, (args, said[-3:])
        assert code == 0 or (len(said) == 1 and said[0].startswith("error: ")), (args, said)
        assert not re.search(r"\|\s+numba$", r.stderr, re.M), args


if __name__ == "__main__":
    print(all_help(), end="")
