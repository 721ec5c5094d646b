"""Every command's `--help`, word for word as recorded in tests/fixtures/help.txt: moving code
between files (issue 24) must not change what a user reads. After a deliberate change of a help
text, record it again with `python tests/faces/test_help.py > tests/fixtures/help.txt`."""
from __future__ import annotations

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
    """23 help texts: the group, its 16 commands and Seastead's 6 subcommands (a new command is
    recorded, not silently skipped)."""
    names = [line for line in RECORDED.read_text(encoding="utf-8").splitlines()
             if line.startswith("=== ")]
    assert len(names) == 23 and "=== seasalt calibrate" in names


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


if __name__ == "__main__":
    print(all_help(), end="")
