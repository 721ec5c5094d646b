"""The calibration of an advisor that sees more than the seat (docs/calibration.md's diagnostic).

    python scripts/calibration_bound.py --games 400 --seed 20261206 --out docs/calibration-bound.json

`seasalt calibrate` measures how far the advisor's P(win game) is from honest when it deals the
unseen cards uniformly. This script reviews the same games (game g is `seasalt review --seed
S+g`, 2 players, baseline against baseline) three ways: as printed; with the seat's view also
holding the opponents' true hands (the bound of any hand reading, the deck's order unknown);
and with the whole state seen (only the players' own randomness and later deals unknown: the
advisor's continuation alone, which should be honest). Prints the figures of
analyzer.play.calibrate for each and writes them to --out as JSON with the seed, samples and
version (about 4 minutes for 400 games on 2 cores).
"""
from __future__ import annotations

import argparse
import json

import numpy as np

from analyzer import __version__
from analyzer.play.replay import traced_game
from analyzer.play.review import CAPACITY, _decisions, review_rows
from analyzer.rules.limits import DEFAULT_TARGETS
from analyzer.rules.policies import policy_arrays, seat_policies
from analyzer.runs.spec import Backend
from analyzer.play.calibrate import FIELDS, figures_of
from kernels import cards as kc


def game_figures(seed: int, samples: int, sees: str) -> dict:
    """One game's figures as review_game_figures gives them (the unweighted P(win) only)."""
    pk, pp = policy_arrays(seat_policies(["baseline"], 2))
    deck, full, target = kc.deck_types("base"), kc.copies_in("base").astype(np.int64), \
        DEFAULT_TARGETS[2]
    decisions, _ = _decisions(2, 0, deck, full, target, pk, pp, seed, sees=sees)
    winners = traced_game(2, deck, target, pk, pp, seed, CAPACITY)[4]
    rows, _ = review_rows(decisions, 0, pk, pp, deck, target, samples, seed, Backend(jobs=1))
    p = FIELDS.index("p")
    return {"won": int(winners[0] == 1 and sum(winners) == 1),
            "rows": [[x["round"] if f == "round" else x["win_game_chosen"]["rate"] if i == p
                      else None for i, f in enumerate(FIELDS)] for x in rows]}


def split_by_later(games: list[dict]) -> dict:
    """The moves of the P(win) split by what happened *after* each decision (the next decision
    in the same round, or in the next round; the last decision to the result), each a mean with
    its interval clustered by game: the split docs/calibration.md shows to be biased even for an
    honest P(win), since whether a round goes on depends on how the seat's chances moved."""
    from analyzer.numbers.estimates import cluster_mean
    sums: dict[str, list[float]] = {"within": [], "new_round": [], "last_to_result": []}
    counts: dict[str, list[int]] = {k: [] for k in sums}
    for g in games:
        r = np.array([x[0] for x in g["rows"]])
        p = np.array([x[FIELDS.index("p")] for x in g["rows"]])
        d, same = np.diff(p), r[1:] == r[:-1]
        for k, v in (("within", d[same]), ("new_round", d[~same]),
                     ("last_to_result", np.array([g["won"] - p[-1]]))):
            sums[k].append(float(v.sum()))
            counts[k].append(len(v))
    return {k: dict(zip(("mean", "lo", "hi"), cluster_mean(sums[k], counts[k]))) for k in sums}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=20261206)
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    result = {"seed": a.seed, "games": a.games, "samples": a.samples, "players": 2,
              "policies": ["baseline"], "version": __version__, "figures": {}}
    for name, sees in (("plain", ""), ("hands", "hands"), ("all", "all")):
        games = [game_figures(a.seed + g, a.samples, sees) for g in range(a.games)]
        f, split = figures_of(games, "p"), split_by_later(games)
        result["figures"][name] = {**f, "split_by_later": split}
        print(f"{name:6}", " ".join(f"{k} {v['mean']:+.4f} [{v['ci95'][0]:+.4f}, "
                                    f"{v['ci95'][1]:+.4f}]" for k, v in f["steps"].items()),
              f"brier {f['brier']['mean']:.4f}", "| split by what happened later:",
              " ".join(f"{k} {v['mean']:+.4f}" for k, v in split.items()),
              flush=True)
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(result, fh, indent=1)


if __name__ == "__main__":
    main()
