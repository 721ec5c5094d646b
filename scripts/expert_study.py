"""How strong and how fast the shipped expert is (docs/expert.md's tables).

    python scripts/expert_study.py                      # the docs' study (about 15 minutes)
    python scripts/expert_study.py --games 400 --search-games 0 --players 2   # a quick look

1. **Strength against bots**: one expert seat against the others all one bot (baseline, the
   tuned player of the count, threshold(7, 7)), every seat in turn (analyzer.studies.train.match:
   the same function `seasalt train` measures generations with), 95% Wilson intervals.
2. **Strength against the search player** (2 players): a tournament of the expert against
   search(samples=16), seats rotated.
3. **Speed**: rounds a second on one thread of the expert in every seat against the baseline in
   every seat, best of `--repeats`, compiled before timing; and milliseconds per decision of
   search_expert against the knob-tuned search at 64 deals (scripts/search_study.py's timing:
   the deciding thread's CPU time, seat 0 against baseline, 2 players).

Everything printed is also written to --out as JSON with the seed, the weights file's hash, the
version and the machine.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

from analyzer import __version__
from analyzer.rules.expert import weights_hash
from analyzer.runs.spec import ONE_THREAD
from analyzer.studies.simulate import simulate_rounds
from analyzer.studies.tournament import tournament
from analyzer.studies.train import match
from search_study import decision_times     # scripts/ is on the path when this script runs

BOTS = ("baseline", "tuned", "threshold(stop_at=7,last_chance_at=7)")
KNOB_SEARCH = ("search(samples=64,rollout_stop_at=8,rollout_last_chance_at=8,model_stop_at=7,"
               "model_last_chance_at=7)")


def say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def pct(t) -> str:
    return f"{100 * t[0]:.1f}% [{100 * t[1]:.1f}, {100 * t[2]:.1f}]"


def rounds_per_second(policy: str, rounds: int, repeats: int) -> float:
    simulate_rounds(2, 100, [policy], seed=1, backend=ONE_THREAD)          # compiled first
    best = 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        simulate_rounds(2, rounds, [policy], seed=r + 2, backend=ONE_THREAD)
        best = max(best, rounds / (time.perf_counter() - t0))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--games", type=int, default=4000, help="games per bot cell")
    ap.add_argument("--search-games", type=int, default=1000, help="2 players, 0 to skip")
    ap.add_argument("--rounds", type=int, default=200_000, help="rounds per speed timing")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--decision-rounds", type=int, default=20, help="rounds per search timing")
    ap.add_argument("--seed", type=int, default=20261206)
    ap.add_argument("--out", default="expert_study.json")
    a = ap.parse_args()
    out = {"version": __version__, "expert_weights": weights_hash(), "seed": a.seed,
           "games": a.games, "machine": f"{platform.processor() or platform.machine()}, "
           f"{os.cpu_count()} cores", "strength": [], "speed": {}}
    for p in (int(x) for x in a.players.split(",")):
        for i, bot in enumerate(BOTS):
            say(f"{p} players: expert against {bot}")
            r = match("expert", bot, p, a.games, a.seed + 10 * p + i)
            out["strength"].append({"players": p, "against": bot, "games": a.games,
                                    "win_rate": r[0], "ci95": [r[1], r[2]], "fair": 1 / p})
            print(f"{p} players  expert vs {bot:<38} {pct(r)}  (fair {100 / p:.0f}%)")
    if a.search_games:
        say("2 players: expert against search(samples=16)")
        df = tournament(["expert", "search(samples=16)"], 2, a.search_games, a.seed + 99)
        row = df[df["entrant"] == 0].iloc[0]
        r = (row["win_rate"], row["win_rate_lo"], row["win_rate_hi"])
        out["strength"].append({"players": 2, "against": "search(samples=16)",
                                "games": a.search_games, "win_rate": r[0], "ci95": [r[1], r[2]],
                                "fair": 0.5})
        print(f"2 players  expert vs {'search(samples=16)':<38} {pct(r)}  (fair 50%)")
    say("speed: rounds a second on one thread, 2 players")
    for pol in ("expert", "baseline"):
        out["speed"][pol] = rounds_per_second(pol, a.rounds, a.repeats)
    ratio = out["speed"]["expert"] / out["speed"]["baseline"]
    print(f"speed: expert {out['speed']['expert']:,.0f} rounds/s, baseline "
          f"{out['speed']['baseline']:,.0f} rounds/s on one thread ({ratio:.2f}x)")
    say("speed: milliseconds per decision of search_expert and the knob-tuned search")
    for spec in ("search_expert(samples=64)", KNOB_SEARCH):
        t = decision_times(spec, 2, a.decision_rounds, a.seed)
        out["speed"][spec] = t
        print(f"{spec[:40]:<40} {t['ms_mean']:.2f} ms a decision ({t['decisions']} decisions)")
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    say(f"wrote {a.out}")


if __name__ == "__main__":
    main()
