"""Causal values by paired experiments: the same deals played twice with one difference, so the
difference of the outcomes is the value of that one thing, with a paired 95% interval.

    df = card_values(players=2, pairs=20_000, seed=1)         # every card kind at a round's start
    df = mermaid_values(players=3, pairs=20_000, seed=1)      # the 1st, 2nd, 3rd mermaid in hand
    df = pair_play_values(players=4, pairs=20_000, seed=1)    # playing each pair kind vs holding it

What is compared (kernels.paired has the exact procedure):

* **A card at the start of a round** (`card_values`, `mermaid_values`): round 1 of a game is
  dealt and its deck ordered; in arm A the treated seat starts the round holding one copy of the
  kind (taken from the deck), in arm B that copy stays where it was in the deck. Everything else
  (the other cards' order, the players, the rest of the game's deals) is the same. The value is
  A - B: in the treated seat's round points, and in its chance to win the game (outright). The
  treated seat cycles through the seats (pair i: seat i mod P; seat 0 starts round 1), so the
  value is averaged over seating. For the m-th mermaid both arms start with m - 1 mermaids.
* **Playing a pair now instead of holding it** (`pair_play_values`): the treated seat plays
  threshold with every pair switch on (the baseline's play) in arm A and the same player
  holding that pair kind (`play_fish=0`, ...) in arm B; the other seats play the field.
* **A policy against another** (`policy_values`): any two specs for the treated seat.

Rows carry the estimates `round_points_diff`, `win_rate_diff` (each with `_lo`, `_hi`), the
arms' own win rates and round points, `pairs` used and `skipped` (deals whose deck held too few
copies), and the run's metadata (seed, players, policies, expansion, version). Every run goes
through analyzer.runs.backends.Runner (or a Staged study): threads or Dask, checkpoints, progress.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from kernels import cards as kc

from .. import __version__
from ..runs.batches import Progress, TaskGrid
from ..runs.spec import Backend, as_backend
from ..rules.notation import check_expansion
from ..base.errors import SeasaltError
from ..rules.policies import parse_policy, policy_arrays, seat_policies
from .rotation import default_target, derive_seed, split_games
from ..rules.limits import check_count, check_players, check_seed, run_seed
from ..numbers.catalogue import estimates, flat_row
from ..render.tidy_frames import frame

PAIR_SWITCHES = {"fish": "play_fish", "crab": "play_crab", "boat": "play_boat",
                 "swimmer+shark": "play_steal", "crab+lobster": "play_lobster",
                 "swimmer+jellyfish": "play_lock"}
EXTRA_SALT_SWITCHES = {"crab+lobster", "swimmer+jellyfish"}


@dataclass(frozen=True, eq=False)
class PairedBatch(TaskGrid):
    """`count` pairs of one paired experiment on the streams of `seed` (a Runner batch)."""
    players: int
    deck: np.ndarray
    count: int
    target: int
    mode: int               # kernels.paired.MODE_CARD or MODE_POLICY
    card_kind: int          # the kind moved into the hand (MODE_CARD), else -1
    given: int              # copies of it in the hand in both arms (MODE_CARD)
    seat: int               # the treated seat, or -1: pair i treats seat i mod P
    pka: np.ndarray
    ppa: np.ndarray
    pkb: np.ndarray
    ppb: np.ndarray
    seed: int
    kind: str = "paired"
    unit: str = "pairs"
    engine: str = "paired"

    @property
    def block(self) -> int:
        from kernels import paired as pkn
        return pkn.PAIR_BLOCK

    @property
    def width(self) -> int:
        from kernels import paired as pkn
        return pkn.P_SIZE

    def driver(self):
        from kernels import paired as pkn
        return pkn.run_pairs

    def task_blocks(self) -> int:
        return 16

    def args(self) -> tuple:
        return (self.mode, self.card_kind, self.given, self.seat, self.players, self.deck,
                self.count, self.target, self.pka, self.ppa, self.pkb, self.ppb,
                np.uint64(self.seed))

    def key(self) -> dict:
        return {"kind": self.kind, "players": self.players, "deck": self.deck.tolist(),
                "count": self.count, "target": self.target, "mode": self.mode,
                "card_kind": self.card_kind, "given": self.given, "seat": self.seat,
                "pka": self.pka.tolist(), "ppa": self.ppa.tolist(), "pkb": self.pkb.tolist(),
                "ppb": self.ppb.tolist(), "seed": self.seed}


@dataclass
class Experiment:
    """One row to be: what it measures, and its batches."""
    row: dict
    batches: list[PairedBatch]


def _check(players: int, pairs: int, seed: int) -> None:
    check_players(players)
    check_count(pairs, "pairs", players, high=10 ** 10, high_text="10**10")
    check_seed(seed)


def kinds_of(expansion: str) -> list[str]:
    """The card kinds of a deck, in catalogue order."""
    deck = kc.deck_types(expansion)
    present = {int(kc.TYPE_KIND[t]) for t in deck}
    return [k for i, k in enumerate(kc.KINDS) if i in present]


def plan_card(players: int, kind: str, pairs: int, seed: int, policy: str = "baseline",
              expansion: str = "base", target: int | None = None, given: int = 0) -> Experiment:
    """Arm A: the treated seat starts round 1 with `given` + 1 cards of `kind`; arm B: `given`."""
    from kernels import paired as pkn      # compiled: loaded when a study is planned
    expansion = check_expansion(expansion)
    _check(players, pairs, seed)
    if kind not in kinds_of(expansion):
        raise SeasaltError(f"unknown card kind {kind!r} for the {expansion} deck; valid: "
                           f"{', '.join(kinds_of(expansion))}")
    copies = int(sum(kc.TYPE_KIND[t] == kc.KINDS.index(kind) for t in kc.deck_types(expansion)))
    if not 0 <= given < copies:
        raise SeasaltError(f"{kind}: there are {copies} in the deck, so 0 to {copies - 1} can be "
                           f"given to both arms, not {given}")
    pols = seat_policies([policy], players)
    pk, pp = policy_arrays(pols)
    tgt = default_target(players, target)
    batch = PairedBatch(players, kc.deck_types(expansion), pairs, tgt, pkn.MODE_CARD,
                        kc.KINDS.index(kind), given, -1, pk, pp, pk, pp, seed)
    return Experiment({"experiment": "card", "kind": kind, "given": given, "players": players,
                       "policy": pols[0].spec, "expansion": expansion, "target": tgt,
                       "seed": seed}, [batch])


def plan_policy(players: int, a: str, b: str, pairs: int, seed: int,
                field: str = "baseline", expansion: str = "base", target: int | None = None,
                label: str = "") -> Experiment:
    """The treated seat plays `a` in arm A and `b` in arm B; every other seat plays `field`.
    One batch per treated seat (pairs split as the rotations of analyzer.studies.rotation), seat r on
    the seed derived from (seed, P, r)."""
    from kernels import paired as pkn      # compiled: loaded when a study is planned
    expansion = check_expansion(expansion)
    _check(players, pairs, seed)
    pa, pb, pf = parse_policy(a), parse_policy(b), parse_policy(field)
    tgt = default_target(players, target)
    batches = []
    for r, n in enumerate(split_games(pairs, players)):
        pka, ppa = policy_arrays([pa if q == r else pf for q in range(players)])
        pkb, ppb = policy_arrays([pb if q == r else pf for q in range(players)])
        batches.append(PairedBatch(players, kc.deck_types(expansion), n, tgt, pkn.MODE_POLICY,
                                   -1, 0, r, pka, ppa, pkb, ppb, derive_seed(seed, players, r)))
    return Experiment({"experiment": "policy", "label": label, "a": pa.spec, "b": pb.spec,
                       "field": pf.spec, "players": players, "expansion": expansion,
                       "target": tgt, "seed": seed}, batches)


def summarize(e: Experiment, counters: Sequence[np.ndarray]) -> dict:
    """The experiment's row: paired differences and each arm's figures, with 95% intervals
    (every column from kernels.paired.PAIRED_STATS)."""
    from kernels import paired as pkn
    c = np.sum(np.stack(counters), axis=0)
    row = dict(e.row)
    row.update(flat_row(estimates(c, pkn.PAIRED_STATS, 0, 1)))
    row["version"] = __version__
    return row


@dataclass(frozen=True)
class PairedSpec:
    """Paired experiments run together (each planned and checked by plan_card or plan_policy),
    on one backend."""
    experiments: tuple[Experiment, ...]
    backend: Backend

    @classmethod
    def build(cls, experiments: Sequence[Experiment],
              backend: Backend | None = None) -> "PairedSpec":
        """At least one planned experiment, and the backend (None: Backend())."""
        experiments = tuple(experiments)
        if not experiments or not all(isinstance(e, Experiment) for e in experiments):
            raise SeasaltError("give one or more experiments planned by plan_card or plan_policy",
                               param="experiments")
        return cls(experiments, as_backend(backend))


def run(spec: PairedSpec, progress: Progress | None = None) -> pd.DataFrame:
    """Every experiment's row (one Runner run for all of them, on the spec's backend)."""
    experiments = spec.experiments
    batches = [b for e in experiments for b in e.batches]
    runner = spec.backend.runner(progress)
    outcome = runner.run(batches, {"command": "paired", "seed": experiments[0].row["seed"]})
    rows, i = [], 0
    for e in experiments:
        rows.append(summarize(e, outcome.counters[i:i + len(e.batches)]))
        i += len(e.batches)
    return frame(rows, {"command": "paired"})


def card_values(players: int = 2, kinds: Sequence[str] | None = None, pairs: int = 20_000,
                seed: int | None = None, policy: str = "baseline", expansion: str = "base",
                target: int | None = None, backend: Backend | None = None,
                progress: Progress | None = None) -> pd.DataFrame:
    """The value of starting a round with one card of each kind (see the module doc), run on
    `backend` (None: Backend())."""
    seed = run_seed(seed)
    kinds = kinds_of(check_expansion(expansion)) if kinds is None else list(kinds)
    return run(PairedSpec.build([plan_card(players, k, pairs, seed, policy, expansion, target)
                                 for k in kinds], backend), progress)


def mermaid_values(players: int = 2, pairs: int = 20_000, seed: int | None = None,
                   policy: str = "baseline", expansion: str = "base", target: int | None = None,
                   counts: Sequence[int] = (1, 2, 3), backend: Backend | None = None,
                   progress: Progress | None = None) -> pd.DataFrame:
    """The value of the m-th mermaid in hand at a round's start, for m in `counts`, run on
    `backend` (None: Backend())."""
    seed = run_seed(seed)
    return run(PairedSpec.build([plan_card(players, "mermaid", pairs, seed, policy, expansion,
                                           target, m - 1) for m in counts], backend), progress)


def pair_specs(expansion: str = "base") -> list[tuple[str, str, str]]:
    """(pair, spec playing it, spec holding it) for every pair kind of the deck."""
    out = []
    for name, knob in PAIR_SWITCHES.items():
        if name in EXTRA_SALT_SWITCHES and expansion != "extra-salt":
            continue
        out.append((name, "threshold", f"threshold({knob}=0)"))
    return out


def pair_play_values(players: int = 2, pairs: int = 20_000, seed: int | None = None,
                     field: str = "baseline", expansion: str = "base",
                     target: int | None = None, backend: Backend | None = None,
                     progress: Progress | None = None) -> pd.DataFrame:
    """Playing each pair kind when it can be played instead of holding it (see the module doc),
    run on `backend` (None: Backend())."""
    seed = run_seed(seed)
    expansion = check_expansion(expansion)
    return run(PairedSpec.build([plan_policy(players, a, b, pairs, seed, field, expansion, target,
                                             name) for name, a, b in pair_specs(expansion)],
                                backend), progress)
