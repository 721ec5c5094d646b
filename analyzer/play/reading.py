"""The advisor that reads hands (issue 25): a position's public history, the deals weighted by
how likely an opponent model makes the choices seen in it (kernels.reading), and the verdict
with and without reading, with the effective sample size.

    a = advise_read(obj, model="baseline", samples=20_000, seed=1)
    a.recommendation, a.meta["reading"]["without"]["recommendation"], a.meta["reading"]["ess"]

A position's `history` is the round's public turns so far, oldest first, the asker's current
turn last:

    "history": [{"seat": 1, "draw": "B", "card": "swimmer:black"},
                {"seat": 0, "draw": "A", "card": "sailor:orange"}]

each turn: `seat`; `draw`: "deck" (with `discard`, the card put down, and `onto`, "A" or "B"),
"A" or "B" (with `card`, the card taken), or "locked" (a locked turn's forced draw);
optionally `pairs`: the pairs played, in order, each "card+card" ("card+card+starfish" for a
trio), with `crab_pile` ("A"/"B") for a crab pair's search and `victim` (a seat) for
swimmer+shark; optionally `declare`: "stop" or "last_chance". Boat extra turns are not
written in a history (an error says so). kernels.reading says which of these choices are read
(every choice of each opponent in the round, from the last crab search on) and how.

Every sample is the advisor's own (kernels.advisor: deal i on the stream (seed, i)), so the
verdict without reading is exactly `advise` with the same seed and samples; with reading, each
deal weighs kernels.reading.cost_weight of its reading cost (tremble per choice read that the
model would not have made on it, (1 + tremble) / 2 per kept deck card only one draw order
explains; the best explanation of the cards the opponents kept out of sight) and
every estimate is the self-normalized weighted mean, its 95% interval by the delta method:
var = sum w_i^2 (x_i - mean)^2 / (sum w_i)^2, from the integer sums of each bucket m (exact
and the same for any thread count). The effective sample size (sum w)^2 / sum w^2 is reported,
and which player each opponent's choices fit (model_fit: the baseline, tuned and expert players
and the model read, as shares of their likelihood on the same deals).
"""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

import numpy as np

from kernels import advisor as ka
from kernels.advisor import ADVISOR_PAIRED, ADVISOR_STATS
from kernels import cards as kc
from kernels import events as ev
from kernels import reading as kr
from kernels import reading_advisor as kra
from kernels import policy_slots as slots
from kernels import state as ks

from .advisor import (Advice, Evaluation, Tally, advice_meta, evaluation, game_of, impossible,
                      judge, timing)
from .history_rules import check_history
from .position_input import file_card
from ..base.errors import SeasaltError
from ..rules.policies import check_tremble, policy_arrays, seat_policies
from .position import Position, describe, parse
from ..rules.limits import run_seed
from ..runs.batches import check_jobs, max_jobs
from ..runs.spec import Backend, as_backend
from ..numbers.estimates import weighted_mean_ci

BLOCK = 256                      # samples per block (the sums do not depend on it)
DEFAULT_SAMPLES = 20_000
BUCKETS = kr.BUCKETS
_TURN_KEYS = {"seat", "draw", "card", "discard", "onto", "pairs", "crab_pile", "victim",
              "declare"}
_PAIR_EVENTS = {"fish": ev.FISH_DRAW, "crab": ev.CRAB_TAKE, "lobster": ev.LOBSTER_KEEP,
                "steal": ev.STEAL}


def _pile(v, where: str) -> int:
    if v not in ("A", "B"):
        raise SeasaltError(f"history: {where} must be \"A\" or \"B\", got {v!r}")
    return "AB".index(v)


def history_trace(history, players: int, seat: int, expansion: str = "base") -> np.ndarray:
    """The trace rows (kernels.events) of a position's `history` (module doc). Hidden cards
    (kept from the deck, found by a crab, a fish, a steal) are written as card 0: the reading
    never looks at them (kernels.reading)."""
    if not isinstance(history, list) or not history:
        raise SeasaltError("history must be a non-empty list of turns, oldest first")
    rows = []
    for k, turn in enumerate(history):
        where = f"history turn {k + 1}"
        if not isinstance(turn, dict):
            raise SeasaltError(f"{where}: a turn is an object with seat, draw, ...")
        extra = set(turn) - _TURN_KEYS
        if extra:
            raise SeasaltError(f"{where}: unknown key {sorted(extra)[0]!r}")
        q = turn.get("seat")
        if not isinstance(q, int) or isinstance(q, bool) or not 0 <= q < players:
            raise SeasaltError(f"{where}: seat must be 0 to {players - 1}, got {q!r}")
        draw = turn.get("draw")
        rows.append((ev.TURN, q, 1 if draw == "locked" else 0, 0, 0))
        if draw == "deck":
            if "discard" in turn:
                c = file_card(turn["discard"], f"{where}: discard", expansion)
                rows.append((ev.KEEP, q, 0, c, 0))
                rows.append((ev.DISCARD, q, c, _pile(turn.get("onto"), f"{where}: onto"), 0))
            else:
                rows.append((ev.KEEP, q, 0, -1, 0))        # the deck's last card
        elif draw in ("A", "B"):
            if "card" not in turn:
                raise SeasaltError(f"{where}: a pile draw names the card taken (card)")
            rows.append((ev.TAKE_PILE, q, file_card(turn["card"], f"{where}: card", expansion),
                         "AB".index(draw), 0))
        elif draw == "locked":
            rows.append((ev.LOCKED_DRAW, q, 0, 0, 0))
        else:
            raise SeasaltError(f'{where}: draw must be "deck", "A", "B" or "locked", got {draw!r}')
        pairs = turn.get("pairs", []) or []
        if not isinstance(pairs, list):
            raise SeasaltError(f"{where}: pairs is a list of \"card+card\"")
        for p in pairs:
            cards = [file_card(c.strip(), f"{where}: pairs", expansion) for c in str(p).split("+")]
            if len(cards) not in (2, 3):
                raise SeasaltError(f"{where}: a pair is card+card (card+card+starfish), got {p!r}")
            kinds = sorted(kc.KINDS[kc.TYPE_KIND[c]] for c in cards[:2])
            effect = {("crab", "crab"): "crab", ("boat", "boat"): "boat", ("fish", "fish"): "fish",
                      ("shark", "swimmer"): "steal", ("crab", "lobster"): "lobster",
                      ("jellyfish", "swimmer"): "lock"}.get(tuple(kinds))
            if effect is None:
                raise SeasaltError(f"{where}: {p!r} is not a legal pair")
            if len(cards) == 3:
                rows.append((ev.TRIO, q, cards[0], cards[1], cards[2]))
                continue
            rows.append((ev.PAIR, q, cards[0], cards[1], 0))
            if effect == "boat":
                raise SeasaltError(f"{where}: boat extra turns cannot be written in a history; "
                                   "start the history after that turn")
            if effect == "crab":
                rows.append((ev.CRAB_TAKE, q, 0, _pile(turn.get("crab_pile", "A"),
                                                       f"{where}: crab_pile"), 0))
            elif effect == "steal":
                victim = turn.get("victim", (q + 1) % players)
                if not isinstance(victim, int) or not 0 <= victim < players or victim == q:
                    raise SeasaltError(f"{where}: victim must be another seat, got {victim!r}")
                rows.append((ev.STEAL, q, victim, 0, 0))
            elif effect in _PAIR_EVENTS:
                rows.append((_PAIR_EVENTS[effect], q, 0, 0, 0))
            else:
                rows.append((ev.LOCK_ON, q, 0, 0, 0))
        decl = turn.get("declare")
        if decl is not None:
            if decl not in ("stop", "last_chance"):
                raise SeasaltError(f'{where}: declare must be "stop" or "last_chance"')
            rows.append((ev.DECLARE, q, ks.DECL_STOP if decl == "stop" else ks.DECL_LAST_CHANCE,
                         0, 0))
    if history[-1].get("seat") != seat:
        raise SeasaltError(f"history: the last turn must be the asker's (seat {seat}), the one "
                           "being played")
    tr = np.zeros((len(rows) + 1, 5), dtype=np.int32)
    tr[0, 0] = len(rows)
    tr[1:] = rows
    return tr


@dataclass
class WeightedTally:
    """The bucketed counters of evaluate_read read as weighted estimates (module doc); the
    interface of analyzer.play.advisor.Tally, so that judge() ranks the options with it."""
    bcounts: np.ndarray         # int64[BUCKETS, actions, NCOUNTERS]
    bcross: np.ndarray          # int64[BUCKETS, actions, actions, NCROSS]
    nb: np.ndarray              # int64[BUCKETS] samples per bucket
    tremble: float

    @property
    def counts(self) -> np.ndarray:
        return self.bcounts.sum(axis=0)

    @property
    def cross(self) -> np.ndarray:
        return self.bcross.sum(axis=0)

    @property
    def n(self) -> int:
        return int(self.nb.sum())

    @property
    def w(self) -> np.ndarray:
        return kr.bucket_weights(self.tremble)

    @property
    def ess(self) -> float:
        w = self.w
        total = float((w * self.nb).sum())
        return total * total / float((w * w * self.nb).sum()) if total else 0.0

    def _bucket(self, a: int, name: str, part: str = "") -> np.ndarray:
        return self.bcounts[:, a, ADVISOR_STATS.at(name, part)].astype(float)

    def count(self, a: int, name: str, part: str = "") -> int:
        """Action a's counter of statistic `name` over every bucket (unweighted)."""
        return int(self._bucket(a, name, part).sum())

    def estimate(self, a: int, name: str) -> dict:
        """Action a's weighted mean or rate of statistic `name` (as Tally.estimate)."""
        s1 = self._bucket(a, name)
        if ADVISOR_STATS.by_name[name].kind == "mean":
            m, lo, hi = weighted_mean_ci(self.w, self.nb, s1, self._bucket(a, name, "sq"))
            return {"mean": m, "ci95": [lo, hi]}
        m, lo, hi = weighted_mean_ci(self.w, self.nb, s1, s1)       # 0/1: squares = sums
        return {"rate": m, "ci95": [max(0.0, lo), min(1.0, hi)]}

    def diff(self, a: int, b: int, name: str) -> dict:
        """The weighted paired difference of statistic `name` (ADVISOR_PAIRED), a minus b."""
        lo, hi = (a, b) if a < b else (b, a)
        m, l, h = weighted_mean_ci(self.w, self.nb, self._bucket(a, name) - self._bucket(b, name),
                                   self.bcross[:, lo, hi, ADVISOR_PAIRED.index(name)].astype(float))
        return {"mean": m, "ci95": [l, h]}

    def plain(self) -> Tally:
        """Every sample with the same weight: the advisor's own tally."""
        return Tally(self.counts, self.cross, n=self.n)


def observations(s: np.ndarray, tr: np.ndarray, seat: int) -> int:
    """How many of the opponents' turns in the trace `tr` seat `seat` reads (kernels.reading)."""
    return int(kr.observe(s, tr, seat, kr.new_obs()))


FIT_MODELS = ("baseline", "tuned", "expert")   # the models every read opponent is fitted to
FIT_DEALS = 5_000                               # at most this many of the answer's deals


def model_fit(ev: Evaluation, tr: np.ndarray, model: str, tremble: float, seed: int,
              samples: int, jobs: int | None) -> list[dict]:
    """How well each model (the one read, then FIT_MODELS) explains each read opponent's
    choices: per seat, each model's share of the evidence, its likelihood averaged over the
    same deals (the answer's first FIT_DEALS), with equal prior weights (the chance that the
    seat plays as that model if it plays as one of them), a 95% interval by the delta method.
    One row per opponent with something read, its models by share."""
    s, me, players = ev.template, ev.seat, int(ev.template[ks.NPLAYERS])
    obs = kr.new_obs()
    kr.observe(s, tr, me, obs)
    seats = [q for q in range(players) if q != me and obs[q * kr.OBS_WIDTH + kr.O_FIRST] > 0]
    specs = [model] + [m for m in FIT_MODELS if m != model]
    pols = [seat_policies([m], players)[0] for m in specs]
    specs = list(dict.fromkeys(p.spec for p in pols))      # "tuned" may be the model read
    if not seats:
        return []
    rows = [(q, spec) for q in seats for spec in specs]
    rks = np.full((len(rows), players), slots.RANDOM, np.int64)     # RANDOM: not read
    rps = np.zeros((len(rows), players, slots.MAX_PARAMS))
    for j, (q, spec) in enumerate(rows):
        kinds, params = policy_arrays(seat_policies([spec], players))
        rks[j, q], rps[j, q] = kinds[q], params[q]
    n = min(samples, FIT_DEALS)
    out = np.empty((n, len(rows)), np.int64)
    threads = jobs or max_jobs()

    def one(k):
        for lo in range(k * BLOCK, n, threads * BLOCK):
            hi = min(lo + BLOCK, n)
            kra.read_buckets(s, ev.pool, ev.unknown_hand, ev.takes, me, np.uint64(seed), lo,
                             hi - lo, tr, rks, rps, out[lo:hi])

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(one, range(threads)))
    w = kr.bucket_weights(tremble)[out[out[:, 0] >= 0]]
    fit = []
    for q in seats:
        cols = [j for j, (seat, _) in enumerate(rows) if seat == q]
        fit.append({"seat": q, "deals": len(w),
                    "models": _shares(w[:, cols], [rows[j][1] for j in cols])})
    return fit


def _shares(w: np.ndarray, specs: list[str]) -> list[dict]:
    """Each column's share of the column means of w (deals x models), with the delta method's
    95% interval from the columns' covariance over the deals; by share, largest first."""
    z = w.mean(axis=0)
    total = z.sum()
    cov = (np.cov(w, rowvar=False).reshape(len(specs), len(specs)) if len(w) > 1 else
           np.full((len(specs), len(specs)), np.inf))            # one deal: no interval
    out = []
    for a, spec in enumerate(specs):
        g = np.full(len(specs), -z[a] / total ** 2)        # d share_a / d z_b
        g[a] += 1 / total
        with np.errstate(invalid="ignore"):
            half = 1.96 * float(np.sqrt(max(g @ cov @ g, 0.0) / len(w)))
        share = float(z[a] / total)
        out.append({"model": spec, "share": share,
                    "ci95": [max(0.0, share - half), min(1.0, share + half)]})
    return sorted(out, key=lambda m: -m["share"])


def read_tally(ev: Evaluation, tr: np.ndarray, rk: np.ndarray, rp: np.ndarray, tremble: float,
               seed: int, first: int, samples: int, jobs: int | None,
               stop: Callable[[], None] | None = None,
               progress: Callable[[int, int], None] | None = None) -> WeightedTally:
    """The advisor's samples first .. first + samples - 1 of `ev` (the stream (seed, i) of
    kernels.advisor, so `.plain()` is advisor.tally_deals' tally of the same samples), bucketed by
    their mismatches with the reading model rk/rp of every seat on the trace `tr`, on `jobs`
    threads of this process (None: all cores). `stop` (the server's) is called before every
    block and may raise to end the run; `progress(done, samples)` is called as blocks finish.
    Raises when no possible deal is found."""
    threads = jobs or max_jobs()
    na = len(ev.actions)
    actions = np.array(ev.actions, dtype=np.int64)
    done, lock = [0], threading.Lock()

    def one(k):
        """Thread k's share: every threads-th block from block k, summed into its own
        counters (integer sums: the totals do not depend on the split; memory flat in samples)."""
        c = np.zeros((BUCKETS, na, ka.NCOUNTERS), np.int64)
        x = np.zeros((BUCKETS, na, na, ka.NCROSS), np.int64)
        r = np.zeros((BUCKETS, 2), np.int64)
        nb = np.zeros(BUCKETS, np.int64)
        for lo in range(k * BLOCK, samples, threads * BLOCK):
            if stop is not None:
                stop()
            kra.evaluate_read(ev.template, ev.pool, ev.unknown_hand, ev.takes, ev.seat, actions,
                              ev.pk, ev.pp, ev.deck, ev.target, ev.totals, np.uint64(seed),
                              first + lo, min(BLOCK, samples - lo), tr, rk, rp, c, x, r, nb)
            if progress is not None:
                with lock:
                    done[0] += min(BLOCK, samples - lo)
                    progress(done[0], samples)
        return c, x, r, nb

    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(one, range(threads)))
    if int(sum(p[2][:, 1].sum() for p in parts)):
        raise impossible()
    return WeightedTally(sum(p[0] for p in parts), sum(p[1] for p in parts),
                         sum(p[3] for p in parts), float(tremble))


def _verdict_summary(v) -> dict:
    return {"recommendation": v.best, "ranking": v.ranking,
            "distinguishable": v.distinguishable, "reason": v.reason,
            "win_game": {k: o["win_game"] for k, o in v.options.items()}}


def advise_read(position: dict | Position, model: str = "baseline", tremble: float =
                kr.DEFAULT_TREMBLE, samples: int = 20_000, seed: int | None = None,
                opponent: str = "baseline", me: str = "baseline", backend: Backend | None = None,
                history=None, stop: Callable[[], None] | None = None,
                progress: Callable[[int, int], None] | None = None) -> Advice:
    """The advice with reading (module doc): the position's `history` (or `history`, trace
    rows or a history list) read with `model` for every opponent, on threads of this process
    (`backend.jobs` of them; None: Backend(), all cores). Returns the advice of the
    weighted deals; meta["reading"] holds the verdict without reading, the ESS, the model,
    the tremble and the observations read."""
    pos = position if isinstance(position, Position) else parse(position)
    if history is None:
        history = pos.source.get("history")
    if history is None:
        raise SeasaltError("reading needs the round's public history: give the position a "
                           "'history' (docs/advisor.md)")
    if isinstance(history, np.ndarray):
        tr = history
    else:
        tr = history_trace(history, pos.players, pos.seat, pos.expansion)
        check_history(tr, pos)                  # before any deal: the rules and the position
    check_tremble(tremble)
    if not 1 <= samples <= 10_000_000:
        raise SeasaltError(f"samples must be between 1 and 10000000, got {samples}")
    jobs = as_backend(backend).jobs
    check_jobs(jobs)
    seed = run_seed(seed)
    pols = seat_policies([me if q == pos.seat else opponent for q in range(pos.players)],
                         pos.players)
    pk, pp = policy_arrays(pols)
    rk, rp = policy_arrays(seat_policies([model], pos.players))
    s = pos.template
    actions = list(pos.actions)
    game = game_of(pos)
    ev = evaluation(pos, actions, pk, pp, game)
    t0 = time.perf_counter()
    tally = read_tally(ev, tr, rk, rp, tremble, seed, 0, samples, jobs, stop, progress)
    nobs = observations(s, tr, pos.seat)
    read = judge(tally, s, list(actions))
    plain = judge(tally.plain(), s, list(actions))
    spec = seat_policies([model], pos.players)[0].spec
    fit = model_fit(ev, tr, spec, tremble, seed, samples, jobs)
    seconds = time.perf_counter() - t0
    reading = {"model": spec, "tremble": tremble, "fit": fit,
               "observations": nobs, "ess": tally.ess, "samples": tally.n,
               "mismatch_samples": [int(v) for v in tally.nb],
               "flips": read.best != plain.best, "without": _verdict_summary(plain)}
    meta = advice_meta(pos, read, game, pols, seed, {"reading": reading},
                       timing(tally.n, seconds, jobs))
    return Advice(read.options, read.best, read.reason, tally.n, meta, describe(pos),
                  read.explanation)
