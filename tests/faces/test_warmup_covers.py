"""`seasalt warmup` compiles everything the commands use: after it, on a fresh numba cache, no
command compiles anything (issue 29; stop 39 found `advise --reading`, `review` and a replay
with a search player compiling 3-15 CPU-s each after a warmup). A full cold compile (about 3
CPU-minutes), so it runs on request: python -m pytest -m slow tests/faces/test_warmup_covers.py"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import SEASALT

ROOT = Path(__file__).resolve().parents[2]

# Each command as a user types it, run in one process with numba's compile events counted.
COMMANDS = [
    "simulate --rounds 20 -p 2 --seed 1",
    "simulate --games 5 -p 3 --expansion extra-salt --seed 1",
    "simulate --rounds 20 -p 4 --policy random --seed 1",
    "simulate --rounds 20 -p 2 --policy tuned --seed 1",
    "simulate --games 5 -p 2 --policy expert --seed 1",
    "score --hand mermaid,crab:black --table boat:black,boat:yellow",
    "advise docs/example_position.json --samples 50 --seed 1",
    "advise docs/example_draw.json --samples 50 --seed 1",
    "advise docs/example_reading.json --reading baseline --samples 50 --seed 1",
    "review --seed 7 -p 2 --seat 0 --samples 20",
    "replay --seed 1 -p 2",
    "replay --seed 1 -p 2 --policy search(samples=4,read=1) --policy baseline",
    "tournament -p 2 --games 4 --policy baseline --policy search(samples=4) --seed 1",
    "tournament -p 2 --games 4 --policy expert --policy search_expert(samples=4) --seed 1",
    "sweep --sweep stop_at=7,8 -p 2 --games 10 --seed 1",
    "seastead simulate --games 2 --seed 1",
    "seastead replay --seed 1",
    "seastead advise docs/example_seastead_position.json --samples 8 --seed 1",
    "seastead review --seed 1 --seat 0 --samples 2",
]

PROBE = r"""
import json, sys
from numba.core import event
from click.testing import CliRunner
from analyzer.faces.cli import main
from analyzer.play.session import Game

class Names(event.Listener):
    def __init__(self): self.names = []
    def on_start(self, ev): self.names.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev): pass

def play():
    g = Game(2, seed=3)
    for _ in range(6):
        g.apply(g.legal()[0])
    g.hint(samples=4, seed=1)

out = {}
for c in json.loads(sys.argv[1]) + ["the play session (Game: moves, a hint)"]:
    names = Names()
    with event.install_listener("numba:compile", names):
        if c.startswith("the play session"):
            play()
            code = 0
        else:
            code = CliRunner().invoke(main, c.split()).exit_code
    out[c] = [code, names.names]
print(json.dumps(out))
"""


@pytest.mark.slow
def test_after_warmup_no_command_compiles(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    w = subprocess.run([SEASALT, "warmup"], env=env, capture_output=True, text=True, timeout=1800)
    assert w.returncode == 0, w.stderr[-2000:]
    r = subprocess.run([sys.executable, "-c", PROBE, json.dumps(COMMANDS)], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    result = json.loads(r.stdout.strip().splitlines()[-1])
    assert {c: code for c, (code, _) in result.items()} == {c: 0 for c in result}
    assert {c: names for c, (_, names) in result.items() if names} == {}
