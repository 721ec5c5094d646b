"""Record what today's commands print, so that a refactor can prove it changed nothing.

    python scripts/record_fixtures.py            # writes tests/fixtures/outputs.json
    python scripts/record_fixtures.py NAME...    # (re-)records only these entries

Each entry is one `seasalt` command line run in-process through the CLI with `--json` (or
`--out FILE.csv`), and its output with every wall-clock `timing` entry removed.
tests/faces/test_fixtures.py runs the same commands and compares. Re-record only when an output is
meant to change, and say why in the commit.
"""
from __future__ import annotations

import json
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
OUTPUTS = FIXTURES / "outputs.json"
POS = "tests/fixtures/positions"

# (name, argv). Every command is deterministic for its seed; sizes are small enough for the suite.
COMMANDS: list[tuple[str, list[str]]] = [
    ("rounds-2p", ["simulate", "-p", "2", "--rounds", "60000", "--seed", "1", "--json"]),
    ("rounds-3p-es-mixed", ["simulate", "-p", "3", "--rounds", "40000", "--seed", "2",
                            "--expansion", "extra-salt", "--policy", "baseline",
                            "--policy", "threshold(stop_at=9,bury=1)", "--policy", "gambler",
                            "--json"]),
    ("rounds-4p-mixed", ["simulate", "-p", "4", "--rounds", "30000", "--seed", "3",
                         "--policy", "denier", "--policy", "mermaid_hunter",
                         "--policy", "baseline(stop_at=8,last_chance_at=11)",
                         "--policy", "threshold(play_boat=0,play_crab=0,steal_from=2,take_at=0.5)",
                         "--json"]),
    ("rounds-2p-es-knobs", ["simulate", "-p", "2", "--rounds", "30000", "--seed", "9",
                            "--expansion", "extra-salt",
                            "--policy", "threshold(stop_at=7,last_chance_at=7,play_lock=0,play_lobster=0)",
                            "--policy", "threshold(colour_weight=1.5,mermaid_bonus=2,lc_min_deck=10,"
                                        "last_chance_margin=2)",
                            "--json"]),
    ("games-2p", ["simulate", "-p", "2", "--games", "6000", "--seed", "4", "--json"]),
    ("games-4p-es-mixed", ["simulate", "-p", "4", "--games", "3000", "--seed", "5",
                           "--expansion", "extra-salt", "--policy", "gambler", "--policy", "baseline",
                           "--policy", "denier", "--policy", "mermaid_hunter", "--json"]),
    ("games-3p-target", ["simulate", "-p", "3", "--games", "3000", "--seed", "6", "--target", "70",
                         "--policy", "threshold(stop_at=8,last_chance_at=8)", "--json"]),
    ("sweep-grid", ["sweep", "--sweep", "stop_at=7..9", "--sweep", "last_chance_at=7,10",
                    "--players", "2,4", "--games", "1200", "--seed", "1", "--json"]),
    ("sweep-es-field", ["sweep", "--sweep", "take_at=0..2", "--policy", "threshold",
                        "--vs", "gambler", "--vs", "baseline", "--players", "3", "--games", "1500",
                        "--seed", "2", "--expansion", "extra-salt", "--json"]),
    ("tournament-3p", ["tournament", "-p", "3", "--policy", "baseline", "--policy", "gambler",
                       "--policy", "denier", "--games", "3000", "--seed", "2", "--json"]),
    ("tournament-2p-es", ["tournament", "-p", "2", "--policy", "baseline",
                          "--policy", "threshold(stop_at=7,last_chance_at=7)", "--games", "4000",
                          "--seed", "3", "--expansion", "extra-salt", "--json"]),
    ("replay-3p", ["replay", "--seed", "7", "-p", "3", "--json"]),
    ("replay-2p-es", ["replay", "--seed", "11", "-p", "2", "--expansion", "extra-salt", "--json"]),
    ("replay-4p-es-mixed", ["replay", "--seed", "3", "-p", "4", "--policy", "gambler",
                            "--policy", "denier", "--policy", "mermaid_hunter", "--policy", "baseline",
                            "--expansion", "extra-salt", "--json"]),
    ("replay-2p-target", ["replay", "--seed", "5", "-p", "2", "--target", "15", "--json"]),
    ("advise-example", ["advise", "docs/example_position.json", "--samples", "20000", "--seed", "1",
                        "--json"]),
    ("advise-totals", ["advise", f"{POS}/totals_2p.json", "--samples", "20000", "--seed", "2",
                       "--json"]),
    ("advise-lock-es", ["advise", f"{POS}/lock_3p_extra.json", "--samples", "10000", "--seed", "3",
                        "--opponent", "gambler", "--me", "threshold(stop_at=9)", "--json"]),
    ("advise-4p-no-play-on", ["advise", f"{POS}/late_4p.json", "--samples", "10000", "--seed", "4",
                              "--no-play-on", "--json"]),
    # The search player (kernels.search): its rollouts, deals and decision log.
    ("tournament-2p-search", ["tournament", "-p", "2", "--policy", "search(samples=8)",
                              "--policy", "baseline", "--games", "24", "--seed", "5", "--json"]),
    ("tournament-3p-es-search", ["tournament", "-p", "3", "--policy", "search(samples=6)",
                                 "--policy", "gambler", "--policy", "baseline", "--games", "12",
                                 "--seed", "6", "--expansion", "extra-salt", "--json"]),
    ("replay-2p-search-read", ["replay", "--seed", "9", "-p", "2",
                               "--policy", "search(samples=8,read=1)", "--policy", "baseline",
                               "--json"]),
    # Seastead: plain, B sides with a decree deck, solo, the search player, a tournament, replays.
    ("seastead-2p", ["seastead", "simulate", "--games", "3000", "--seed", "1", "--json"]),
    ("seastead-B-mixed", ["seastead", "simulate", "--games", "2000", "--seed", "2", "--sides", "BBBB",
                          "--player", "greedy", "--player", "random", "--json"]),
    ("seastead-solo", ["seastead", "simulate", "--solo", "--games", "2000", "--seed", "3", "--json"]),
    ("seastead-search", ["seastead", "simulate", "--games", "40", "--seed", "4",
                         "--player", "search(rollouts=4,width=3)", "--player", "heuristic", "--json"]),
    ("seastead-tournament", ["seastead", "tournament", "--player", "heuristic", "--player", "denier",
                             "--games", "1000", "--seed", "5", "--json"]),
    ("seastead-replay-B", ["seastead", "replay", "--seed", "7", "--sides", "BBBB", "--json"]),
    ("seastead-replay-solo-search", ["seastead", "replay", "--seed", "8", "--solo",
                                     "--player", "search(rollouts=4,width=3)", "--json"]),
    ("csv-last-chance", ["simulate", "-p", "3", "--rounds", "30000", "--seed", "8",
                         "--table", "last-chance", "--out", "{tmp}/lc.csv"]),
    ("csv-mermaids", ["simulate", "-p", "2", "--rounds", "30000", "--seed", "8",
                      "--expansion", "extra-salt", "--table", "mermaids", "--out", "{tmp}/m.csv"]),
    ("csv-sweep", ["sweep", "--sweep", "stop_at=8,10", "--players", "3", "--games", "900",
                   "--seed", "4", "--out", "{tmp}/sweep.csv"]),
]


def strip_timing(obj):
    """The output without wall-clock entries (any key named `timing`)."""
    if isinstance(obj, dict):
        return {k: strip_timing(v) for k, v in obj.items() if k != "timing"}
    if isinstance(obj, list):
        return [strip_timing(v) for v in obj]
    return obj


def run(argv: list[str]):
    """Run one command in-process; its JSON output (stdout) or its --out CSV text."""
    from click.testing import CliRunner

    from analyzer.faces.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        args = [a.replace("{tmp}", tmp) for a in argv]
        result = CliRunner().invoke(main, args, catch_exceptions=False)
        if result.exit_code != 0:
            raise RuntimeError(f"seasalt {' '.join(args)} exited {result.exit_code}: {result.output}")
        if "--out" in args:
            return pathlib.Path(args[args.index("--out") + 1]).read_text()
        return strip_timing(json.loads(result.stdout))


def main() -> None:
    sys.path.insert(0, str(ROOT))
    import os
    os.chdir(ROOT)
    only = set(sys.argv[1:])
    unknown = only - {name for name, _ in COMMANDS}
    if unknown:
        sys.exit(f"record_fixtures: no such entry: {', '.join(sorted(unknown))}")
    out = json.loads(OUTPUTS.read_text()) if only else {}
    for name, argv in COMMANDS:
        if only and name not in only:
            continue
        print(f"{name}: seasalt {' '.join(argv)}", file=sys.stderr)
        out[name] = {"argv": argv, "output": run(argv)}
    OUTPUTS.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(only) or len(out)} fixtures to {OUTPUTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
