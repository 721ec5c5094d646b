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


if __name__ == "__main__":
    print(all_help(), end="")
