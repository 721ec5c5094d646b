"""How strong the search player is, how fast it decides, and how it plays.

    python scripts/search_study.py                                   # the README's study
    python scripts/search_study.py --budgets 8 --games 200 --players 2   # a quick look

Three parts, each printed as a table (and all of it written to --out as JSON and Markdown):

1. **Speed**: milliseconds per decision on one core (the deciding thread's CPU time), timed on
   SearchSeat.decide for every
   decision with two or more legal actions of seat 0 in `--timing-rounds` rounds against
   baseline (2 and 4 players). A decision with one legal action costs nothing and is not counted.
2. **Strength**: full games (analyzer.studies.sweep: seats rotated, common random numbers across
   budgets, 95% Wilson intervals) of `search(samples=B)` against three baseline opponents and
   against `threshold(stop_at=7,last_chance_at=7)`, the best simple rule known (it calls LAST
   CHANCE as soon as it has 7 points), at 2, 3 and 4 players.
3. **Style**: rounds in which every seat is the search player, next to rounds in which every
   seat is baseline: how rounds end (STOP, LAST CHANCE, void), the declarer's card points, pairs
   played per round (its interval by a Poisson approximation: the round counters keep sums, not
   squares) and turns per round.

The seed, the budgets, the games and the machine are recorded in the output.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

from analyzer import __version__
from analyzer.numbers.estimates import Z95
from analyzer.play.decisions import Round
from analyzer.rules.policies import parse_policy
from analyzer.base.progress import ProgressLine
from analyzer.play.search_seat import SearchSeat
from analyzer.runs.spec import Backend
from analyzer.studies.simulate import simulate_rounds
from analyzer.numbers.estimates import wilson
from analyzer.studies.sweep import sweep
from bench import cpu_model      # scripts/ is on the path when this script runs

OPPONENTS = ("baseline", "threshold(stop_at=7,last_chance_at=7)")


def decision_times(spec: str, players: int, rounds: int, seed: int) -> dict:
    """Milliseconds per decision (two or more legal actions) of a search seat 0 against
    baseline, one core, over `rounds` rounds played to their end through the Round API. CPU
    time of the deciding thread, so that other work on the machine does not inflate it."""
    times = []
    warm = Round.deal(players, seed=seed, seats=[None] + ["baseline"] * (players - 1))
    SearchSeat(warm, 0, spec, seed=seed).decide()       # loads the compiled kernels, untimed
    for r in range(rounds):
        rnd = Round.deal(players, seed=seed + r, seats=[None] + ["baseline"] * (players - 1))
        seat = SearchSeat(rnd, 0, spec, seed=seed + r)
        while not rnd.done:
            if len(rnd.legal()) > 1:
                t = time.thread_time()
                action, _ = seat.decide()
                times.append(time.thread_time() - t)
            else:
                action = rnd.legal()[0]
            rnd.apply(action)
    ms = np.array(times) * 1e3
    return {"spec": spec, "players": players, "rounds": rounds, "decisions": len(ms),
            "ms_mean": float(ms.mean()), "ms_p95": float(np.percentile(ms, 95)),
            "ms_max": float(ms.max()), "decisions_per_second": float(1e3 / ms.mean())}


def strength(budgets: list[int], players: list[int], games: int, seed: int, jobs: int | None
             ) -> list[dict]:
    """One row per opponent, player count and budget: win rate with its interval."""
    rows = []
    for opp in OPPONENTS:
        with ProgressLine(f"search vs {opp}") as progress:
            df = sweep([f"samples={','.join(map(str, budgets))}"], policy="search", vs=[opp],
                       players=players, games=games, seed=seed, backend=Backend(jobs=jobs),
                       progress=progress)
        for rec in df.to_dict("records"):
            rows.append({"opponent": opp, "players": int(rec["players"]),
                         "samples": int(rec["samples"]), "games": games,
                         "win_rate": rec["win_rate"], "win_rate_lo": rec["win_rate_lo"],
                         "win_rate_hi": rec["win_rate_hi"],
                         "win_share": rec["win_share"],
                         **{k: rec[k] for k in rec if k.startswith("last_chance")}})
    return rows


def style(spec: str, rounds: int, seed: int, jobs: int | None) -> list[dict]:
    """How rounds end and what is played when every seat is `spec`, 2 players."""
    out = {}
    for who in ("baseline", spec):
        with ProgressLine(f"style {who}") as progress:
            res = simulate_rounds(2, rounds, [who], seed=seed, backend=Backend(jobs=jobs),
                                  progress=progress)
        n = res["rounds"]
        ends = res["end"]
        declared = res["declared_rounds"]
        out[who] = {
            "rounds": n,
            "stop_share": ends.get("stop", 0) / n,
            "last_chance_share": sum(v for k, v in ends.items() if k.startswith("last_chance"))
                                 / n,
            "void_share": ends.get("void", 0) / n,
            "declared_rounds": declared,
            "declarer_card_points_mean": res["declarer_card_points_mean"],
            "declarer_card_points_ci95": res["declarer_card_points_ci95"],
            "pairs_per_round": sum(res["pairs_played"].values()) / n,
            "pairs_played": res["pairs_played"],
            "turns_mean": res["turns_mean"],
            "turns_ci95": res["turns_ci95"],
            "end": ends,
        }
    return [{"player": k, **v} for k, v in out.items()]


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def share(k: int, n: int) -> str:
    """k of n as a percentage with its 95% Wilson interval."""
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def tables(result: dict) -> str:
    """The study as Markdown tables (each within 100 columns)."""
    lines = [f"Search player study: seasalt {result['version']}, seed {result['seed']}, "
             f"{result['machine']}.", ""]
    if "speed" in result:
        lines += _speed(result)
    if "strength" in result:
        lines += _strength(result)
    if "style" in result:
        lines += _style(result)
    return "\n".join(lines) + "\n"


def _speed(result: dict) -> list[str]:
    lines = ["Speed (one core, CPU time; seat 0 against baseline; decisions with 2+ legal "
             "actions):", "",
             "| spec | players | decisions | ms/decision | p95 ms | decisions/s |",
             "|---|---:|---:|---:|---:|---:|"]
    for t in result["speed"]:
        lines.append(f"| `{t['spec']}` | {t['players']} | {t['decisions']} | {t['ms_mean']:.2f} "
                     f"| {t['ms_p95']:.2f} | {t['decisions_per_second']:,.0f} |")
    return lines + [""]


def _strength(result: dict) -> list[str]:
    lines = [f"Strength (full games, seats rotated, {result['games']} games per cell, "
             "95% intervals):", "",
             "| opponent | players | samples | win rate | interval |",
             "|---|---:|---:|---:|---|"]
    for r in result["strength"]:
        opp = "baseline" if r["opponent"] == "baseline" else "threshold(7,7)"
        lines.append(f"| {opp} | {r['players']} | {r['samples']} | {pct(r['win_rate'])} "
                     f"| [{pct(r['win_rate_lo'])}, {pct(r['win_rate_hi'])}] |")
    return lines + [""]


def _style(result: dict) -> list[str]:
    lines = [f"Style (2 players, every seat the same player, {result['style_rounds']} rounds):",
             "", "| player | STOP | LAST CHANCE | void | declarer points | pairs/round* | turns |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for s in result["style"]:
        lo, hi = s["declarer_card_points_ci95"]
        tlo, thi = s["turns_ci95"]
        n, ends = s["rounds"], s["end"]
        pairs = s["pairs_per_round"]
        half = Z95 * (pairs / n) ** 0.5            # Poisson approximation (module doc)
        lc = ends["last_chance_won"] + ends["last_chance_lost"]
        lines.append(f"| `{s['player']}` | {share(ends['stop'], n)} | {share(lc, n)} "
                     f"| {share(ends['void'], n)} | {s['declarer_card_points_mean']:.2f} "
                     f"[{lo:.2f}, {hi:.2f}] | {pairs:.2f} ± {half:.2f} "
                     f"| {s['turns_mean']:.1f} [{tlo:.1f}, {thi:.1f}] |")
    return lines + ["", "*pairs/round: 95% interval by a Poisson approximation (the counters "
                    "keep no per-round squares)."]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", default="16,64", help="samples per decision, comma-separated")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--games", type=int, default=2000, help="games per cell")
    ap.add_argument("--timing-rounds", type=int, default=20)
    ap.add_argument("--style-rounds", type=int, default=2000)
    ap.add_argument("--style-samples", type=int, default=None,
                    help="budget of the style part (default: the largest budget)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--parts", default="speed,strength,style")
    ap.add_argument("--out", default=None, help="write OUT.json and OUT.md")
    args = ap.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    players = [int(p) for p in args.players.split(",")]
    for b in budgets:
        parse_policy(f"search(samples={b})")          # a bad budget fails before any work
    result = {"version": __version__, "seed": args.seed, "games": args.games,
              "budgets": budgets, "players": players, "style_rounds": args.style_rounds,
              "machine": f"{cpu_model()}, {os.cpu_count()} cores, {platform.python_version()}"}
    parts = args.parts.split(",")
    if "speed" in parts:
        print("speed ...", file=sys.stderr)
        result["speed"] = [decision_times(f"search(samples={b})", p, args.timing_rounds,
                                          args.seed) for b in budgets for p in (2, 4)]
    if "strength" in parts:
        result["strength"] = strength(budgets, players, args.games, args.seed, args.jobs)
    if "style" in parts:
        style_b = args.style_samples or max(budgets)
        result["style"] = style(f"search(samples={style_b})", args.style_rounds, args.seed,
                                args.jobs)
    text = tables(result)
    print(text)
    if args.out:
        with open(args.out + ".json", "w") as f:
            json.dump(result, f, indent=1)
        with open(args.out + ".md", "w") as f:
            f.write(text)
        print(f"wrote {args.out}.json and {args.out}.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
