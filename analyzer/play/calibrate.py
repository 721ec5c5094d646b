"""Are the advisor's P(win game) figures what they claim? `seasalt calibrate` (docs/calibration.md).

N games of a field are reviewed as `seasalt review` reviews one (game g is `seasalt review --seed
S+g` with the same options, so any game can be checked from outside); at each decision of the
reviewed seat the P(win game) of the choice made is kept, unweighted (measured on the review's
second half of the samples) and, with reading on, weighted by the round's history (the review's
`reading.win_game_chosen`). If such a P(win) is the chance to win given what the seat knows, its
successive values are a martingale: from any decision, its value at a later point chosen by what
is known then (the next decision, the next round's first decision, the end of the game) is on
average the same. The study measures those three steps from every decision (STEPS), each with a
95% interval clustered by game (a game's decisions are not independent), the Brier score and the
reliability table (predicted against won, by tenths).

Each finished game is kept in a journal (JSON lines: a header with the study's settings, then one
line per game with its decisions' figures), so an interrupted study resumes with `--resume` and
gives exactly the uninterrupted answer; the journal lives in the seasalt cache (deleted once the
output is written) unless --checkpoint names it. Memory holds a few numbers per decision.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import math
import os
import pathlib
import signal
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .. import __version__
from ..base.errors import RunInterrupted, SeasaltError
from ..numbers.estimates import cluster_mean, wilson
from ..render.calibrate_text import STEPS
from ..rules.policies import check_review_options, expert_meta, review_models, short_spec
from ..runs import checkpoint as ckpt
from ..runs.batches import max_jobs
from ..runs.spec import ONE_THREAD, Backend, RunSpec
from kernels.policy_slots import DEFAULT_TREMBLE

MAX_GAMES = 100_000
HEAD = "seasalt_calibrate"      # the journal's header key
BINS = 10                       # reliability bins: tenths of P(win)
FIELDS = ("round", "turn", "decision", "chosen", "p", "p_lo", "p_hi", "p_read", "p_read_lo",
          "p_read_hi", "ess")     # one decision in the journal, in this order
# Each step is measured from every decision, to a point chosen by what is known at that decision
# (the next decision; the next round's first decision; the end), so that an honest P(win)
# moves by 0 on average at each (optional stopping). Splitting the moves by what happens later
# (did the round go on?) would not be: see docs/calibration.md.


@dataclass(frozen=True)
class CalibrateSpec:
    """One calibration study: `games` games of `run` (its players, policies, seed, expansion,
    target and backend; game g is its seed + g), `seat`'s decisions judged on `samples` deals
    with hand reading `reading` ("own", a policy spec or "off") and `tremble`."""
    run: RunSpec
    games: int
    seat: int = 0
    samples: int = 500
    reading: str = "own"
    tremble: float | None = None

    @classmethod
    def build(cls, players: int, policies: Sequence[str], games: int, seed: int | None,
              seat: int = 0, samples: int = 500, reading: str = "own",
              tremble: float | None = None, expansion: str = "base", target: int | None = None,
              backend: Backend | None = None) -> "CalibrateSpec":
        """A checked spec (a bad value is a SeasaltError naming its parameter)."""
        if type(games) is not int or not 1 <= games <= MAX_GAMES:
            raise SeasaltError(f"games must be a whole number from 1 to {MAX_GAMES:,}, got "
                               f"{games!r}", param="games")
        run = RunSpec.build(players, "games", 1, policies, seed, expansion, target, backend)
        check_review_options(run, seat, samples, reading, tremble)
        if run.seed + games - 1 >= 2 ** 64:
            raise SeasaltError(f"seed + games must stay below 2**64 (game g is seed + g), got "
                               f"seed {run.seed}", param="seed")
        return cls(run, games, seat, samples, reading, tremble)

    def settings(self) -> dict:
        """What makes the study's answer: its journal's fingerprint (the thread count is not in
        it, since it does not change the answer)."""
        r = self.run
        return {"study": "calibrate", "players": r.players,
                "policies": [p.spec for p in r.policies], "seed": r.seed, "games": self.games,
                "seat": self.seat, "samples": self.samples, "reading": self.reading,
                "tremble": self.tremble, "expansion": r.expansion, "target": r.target}

    def game(self, g: int) -> RunSpec:
        """Game g's spec: `seasalt review --seed S+g` with the study's options, its advisor on
        one thread (the study runs games side by side; the figures do not depend on it)."""
        r = self.run
        return RunSpec.build(r.players, "games", 1, [p.spec for p in r.policies], r.seed + g,
                             r.expansion, r.target, ONE_THREAD)

    def threads(self) -> int:
        """Games reviewed at once: the backend's jobs (None: every core), at most the games."""
        return min(self.run.backend.jobs or max_jobs(), self.games)


def review_game_figures(spec: CalibrateSpec, g: int) -> dict:
    """Game g reviewed (analyzer.play.review.run) and reduced to the study's figures:
    whether the seat won outright and each decision's FIELDS."""
    from .review import ReviewSpec, run as review_run
    r = review_run(ReviewSpec(spec.game(g), spec.seat, spec.samples, reading=spec.reading,
                              tremble=spec.tremble))
    rows = []
    for x in r["decisions"]:
        p, read = x["win_game_chosen"], x.get("reading")
        q = read["win_game_chosen"] if read else None
        rows.append([x["round"], x["turn"], x["decision"], x["chosen"], p["rate"], *p["ci95"],
                     *((q["rate"], *q["ci95"], read["ess"]) if q else (None,) * 4)])
    summary = r["summary"]
    return {"game": g, "seed": spec.run.seed + g, "won": int(r["winners"] == [spec.seat]),
            "rounds": r["rounds_played"], "rows": rows,
            "luck": {k: summary[k] for k in game_figures()}}


def game_figures() -> tuple[str, ...]:
    """A game's figures of the review's summary kept in the journal: its luck and skill terms
    (analyzer.play.luck, imported with the engine) with their intervals, the result and the
    error rate."""
    from ..render.review_text import TERMS
    return (*(k + e for k in TERMS for e in ("", "_lo", "_hi")), "result", "error_rate")


# ---------------------------------------------------------------------------------------------
# The journal

def _fingerprint(settings: dict) -> str:
    from kernels import ENGINE_HASH
    text = json.dumps({"settings": settings, "version": __version__, "engine": ENGINE_HASH},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _line_check(fp: str, game: dict) -> str:
    body = json.dumps(game, sort_keys=True, allow_nan=False)
    return hashlib.sha256(f"{fp}/{body}".encode()).hexdigest()[:16]


class Journal:
    """The finished games of one study (module doc), in a file this process holds locked:
    `done` (the games read back on resume), `add(game)` appends one, `close()` releases it,
    `finish()` deletes a cache journal once the output is written. Another run of the same
    study while this one runs is refused (the lock), as the other studies' checkpoints are."""

    def __init__(self, spec: CalibrateSpec):
        b = spec.run.backend
        self.settings = spec.settings()
        self.fp = _fingerprint(self.settings)
        self.explicit = b.checkpoint is not None
        self.path = pathlib.Path(b.checkpoint) if self.explicit else \
            ckpt.default_dir() / f"calibrate-{self.fp[:20]}.jsonl"
        self.done: list[dict] = []
        self.fd = -1
        if b.resume:
            self._resume()
            return
        ckpt.prepare_dir(self.path, not self.explicit)
        replace = self._existing(b.restart)
        head = {HEAD: 1, "fingerprint": self.fp, "settings": self.settings,
                "version": __version__, "pid": os.getpid()}
        self.fd = ckpt.create_locked(self.path, head, replace,
                                     taken=lambda: self._existing(b.restart))

    def _existing(self, restart: bool) -> bool:
        """Raise unless a new study may take the path; True if a journal is there to replace."""
        p = self.path
        if p.is_symlink() or (p.exists() and not p.is_file()):
            raise SeasaltError(f"checkpoint {p} is not a regular file; give another "
                               f"--checkpoint FILE", param="checkpoint")
        if not p.exists():
            return False
        if ckpt.is_locked(p):
            raise SeasaltError(f"checkpoint {p} is in use by a study under way; wait for it, "
                               f"or give another --checkpoint FILE", param="checkpoint")
        if ckpt.read_head(p, HEAD) is None:
            raise SeasaltError(f"checkpoint {p} exists and is not a journal of seasalt "
                               f"calibrate; seasalt never overwrites it (give another "
                               f"--checkpoint FILE)", param="checkpoint")
        if not restart:
            raise SeasaltError(f"an earlier study of these options was interrupted, its games "
                               f"kept in {p}: add --resume to continue it, or --restart to "
                               f"start afresh", param="resume")
        return True

    def _resume(self) -> None:
        p = self.path
        if not (p.exists() or p.is_symlink()):
            raise SeasaltError(f"nothing to resume: checkpoint {p} does not exist",
                               param="resume")
        try:
            self.fd = os.open(p, os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as e:
            raise SeasaltError(f"checkpoint {p} cannot be opened ({e.strerror or e}); give the "
                               f"journal file itself", param="checkpoint") from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.close()
            raise SeasaltError(f"checkpoint {p} is in use by a study under way; wait for it",
                               param="checkpoint") from None
        with open(self.fd, "rb", closefd=False) as f:
            data = f.read()
        if data and not data.endswith(b"\n"):          # a line cut by a crash: dropped
            os.ftruncate(self.fd, data.rfind(b"\n") + 1)
            data = data[:data.rfind(b"\n") + 1]
        try:
            self._load(data.decode("utf-8", errors="replace").splitlines())
        except BaseException:
            self.close()
            raise

    def _load(self, lines: list[str]) -> None:
        head = self._parse(lines[0] if lines else "", 1)
        if head.get(HEAD) != 1:
            raise SeasaltError(f"{self.path} is not a journal of seasalt calibrate",
                               param="checkpoint")
        if head.get("fingerprint") != self.fp:
            theirs = head.get("settings") if isinstance(head.get("settings"), dict) else {}
            diff = [f"{k} {theirs.get(k)!r} there, {v!r} here" for k, v in self.settings.items()
                    if theirs.get(k) != v] or [f"written by seasalt {head.get('version')} or "
                                               f"another engine"]
            raise SeasaltError(f"checkpoint {self.path} is another study's: " + "; ".join(diff),
                               param="checkpoint")
        for n, text in enumerate(lines[1:], 2):
            obj = self._parse(text, n)
            game = {k: v for k, v in obj.items() if k != "check"}
            if obj.get("check") != _line_check(self.fp, game) or \
                    game.get("game") != len(self.done):
                raise SeasaltError(f"checkpoint {self.path}: line {n} is damaged (edited or "
                                   f"out of order); rerun with --restart", param="checkpoint")
            self.done.append(game)

    def _parse(self, text: str, n: int) -> dict:
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        if not isinstance(obj, dict):
            raise SeasaltError(f"checkpoint {self.path}: line {n} is damaged (not a JSON "
                               f"object); rerun with --restart", param="checkpoint")
        return obj

    def add(self, game: dict) -> None:
        line = json.dumps({**game, "check": _line_check(self.fp, game)}, sort_keys=True,
                          allow_nan=False) + "\n"
        try:
            ckpt.write_all(self.fd, line.encode())
        except OSError as e:
            raise SeasaltError(f"cannot write the checkpoint {self.path}: {e.strerror or e}; "
                               f"name another with --checkpoint FILE", param="checkpoint") from None
        self.done.append(game)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def finish(self) -> None:
        """The output is written: a cache journal is deleted, an explicit one kept."""
        if not self.explicit:
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass
        self.close()


# ---------------------------------------------------------------------------------------------
# The study

def run(spec: CalibrateSpec, progress: Callable[[int, int], None] | None = None
        ) -> tuple[dict, Journal]:
    """Every game reviewed (resuming from the journal; spec.threads() games at once, each
    written to the journal in order), then the figures. Returns the JSON-ready result and the
    journal; the caller writes its output, then calls journal.finish()."""
    journal = Journal(spec)
    start = len(journal.done)
    if progress is not None:
        progress(start, spec.games)
    pool = ThreadPoolExecutor(spec.threads())
    try:
        ahead = {g: pool.submit(review_game_figures, spec, g)
                 for g in range(start, min(start + 2 * spec.threads(), spec.games))}
        for g in range(start, spec.games):
            journal.add(ahead.pop(g).result())
            nxt = g + 2 * spec.threads()
            if nxt < spec.games:
                ahead[nxt] = pool.submit(review_game_figures, spec, nxt)
            if progress is not None:
                progress(g + 1, spec.games)
    except KeyboardInterrupt as e:
        signum = getattr(e, "signum", None)
        how = f"terminated by {signal.Signals(signum).name}" if signum else "interrupted"
        raise RunInterrupted(
            f"{how} after {len(journal.done):,} of {spec.games:,} games; they are kept in "
            f"{journal.path}: rerun the same command with --resume --seed {spec.run.seed}",
            str(journal.path), signum) from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)   # games under way end on their own
        journal.close()        # the games are all written: the file stays until finish()
    return result(spec, journal.done), journal


def result(spec: CalibrateSpec, games: Sequence[dict]) -> dict:
    """The study's JSON-ready answer: its settings and run record, and the figures for the
    unweighted P(win) and, with reading on, the weighted one."""
    figures = {"plain": figures_of(games, "p")}
    if spec.reading != "off":
        figures["read"] = figures_of(games, "p_read")
    return {**spec.settings(), "tremble": DEFAULT_TREMBLE if spec.tremble is None
            else spec.tremble, "version": __version__,
            **expert_meta(review_models(list(spec.run.policies), spec.run.players)),
            "game_seeds": f"game g is `seasalt review --seed {spec.run.seed}+g` with these "
                          "options",
            "decisions": sum(len(g["rows"]) for g in games),
            "won": sum(g["won"] for g in games), "figures": figures,
            "luck_and_skill": luck_over(games)}


def luck_over(games: Sequence[dict]) -> dict:
    """The seat's luck and skill terms (analyzer.play.luck) and its error rate, each a mean
    over the games with its 95% interval, and how many games' own 95% interval of the residual
    holds 0 (about 95% if the intervals are honest)."""
    kept = [g["luck"] for g in games if "luck" in g]
    out = {k: _interval([x[k] for x in kept], [1] * len(kept)) for k in game_figures()
           if not k.endswith(("_lo", "_hi"))}
    won = sum(int(x["result"]) for x in kept)
    lo, hi = wilson(won, len(kept))
    out["result"] = {"mean": won / max(len(kept), 1), "ci95": [lo, hi], "n": len(kept)}
    out["residual_covered"] = sum(x["residual_lo"] <= 0 <= x["residual_hi"] for x in kept)
    out["games"] = len(kept)
    return out


def _series(games: Sequence[dict], key: str) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """Per game: the rounds and P(win)s of its decisions (those that have `key`) and the
    result."""
    i, r = FIELDS.index(key), FIELDS.index("round")
    out = []
    for g in games:
        rows = [x for x in g["rows"] if x[i] is not None]
        out.append((np.array([x[r] for x in rows], dtype=np.int64),
                    np.array([x[i] for x in rows], dtype=np.float64), int(g["won"])))
    return out


def _interval(sums, counts) -> dict:
    m, lo, hi = cluster_mean(sums, counts)
    return {"mean": m, "ci95": [lo, hi], "n": int(sum(counts))}


def figures_of(games: Sequence[dict], key: str) -> dict:
    """The steps (each a mean over every decision with its interval clustered by game), the
    Brier score and the reliability table of the P(win)s `key` ("p" or "p_read")."""
    series = _series(games, key)
    sums = {k: [] for k, _, _ in STEPS}
    counts = {k: [] for k, _, _ in STEPS}
    bins_p = np.zeros((BINS, len(series)))
    bins_won = np.zeros((BINS, len(series)))
    bins_n = np.zeros((BINS, len(series)))
    brier_s = []
    for j, (rounds, p, won) in enumerate(series):
        n = len(p)
        after = np.append(p, won)                     # the P(win) after each decision's
        nxt = after[1:]
        # the first decision of a later round, or the result: index of the next round's start
        starts = np.searchsorted(rounds, rounds, side="right")
        round_end = after[starts]
        parts = {"next": nxt - p, "round_end": round_end - p, "result": won - p}
        for k in sums:
            sums[k].append(float(parts[k].sum()))
            counts[k].append(n)
        brier_s.append(float(((p - won) ** 2).sum()))
        b = np.minimum((p * BINS).astype(np.int64), BINS - 1)
        np.add.at(bins_p[:, j], b, p)
        np.add.at(bins_won[:, j], b, won)
        np.add.at(bins_n[:, j], b, 1)
    reliability = []
    for k in range(BINS):
        n = int(bins_n[k].sum())
        if n == 0:
            continue
        won = _interval(bins_won[k], bins_n[k])
        reliability.append({"bin": [k / BINS, (k + 1) / BINS], "decisions": n,
                            "games": int((bins_n[k] > 0).sum()),
                            "predicted": float(bins_p[k].sum() / n), "won": won["mean"],
                            "won_ci95": [min(max(x, 0.0), 1.0) for x in won["ci95"]]})
    return {"steps": {k: _interval(sums[k], counts[k]) for k, _, _ in STEPS},
            "brier": _interval(brier_s, counts["result"]), "reliability": reliability}


# ---------------------------------------------------------------------------------------------
# Text, tables and the plot

def decision_frame(spec: CalibrateSpec, games: Sequence[dict]):
    """One row per reviewed decision (tidy), with the game, its seed, the seat's result and the
    study's settings."""
    from ..render.tidy_frames import frame, join_specs
    rows = [{"game": g["game"], "game_seed": g["seed"], **dict(zip(FIELDS, x)), "won": g["won"]}
            for g in games for x in g["rows"]]
    s = spec.settings()
    meta = {"command": "calibrate", "seed": s["seed"], "players": s["players"],
            "policies": join_specs(s["policies"]), "seat": s["seat"], "samples": s["samples"],
            "reading": s["reading"], "expansion": s["expansion"], "target": s["target"]}
    return frame(rows, meta)


def reliability_figure(r: dict):
    """The reliability diagram: won against quoted P(win) by tenths, each with its 95%
    interval, the diagonal drawn; one series per P(win) measured."""
    from reports.charts import OKABE_ITO, new_figure, percent_axis
    fig, (ax,) = new_figure(size=(5.6, 5.2))
    ax.plot([0, 1], [0, 1], color="0.5", linewidth=1, linestyle="--", label="honest")
    labels = {"plain": "as printed (uniform deal)", "read": "weighted by the history"}
    for i, (key, f) in enumerate(r["figures"].items()):
        rel = f["reliability"]
        x = [e["predicted"] for e in rel]
        y = [e["won"] for e in rel]
        lo = [e["won"] - e["won_ci95"][0] if not math.isnan(e["won_ci95"][0]) else 0
              for e in rel]
        hi = [e["won_ci95"][1] - e["won"] if not math.isnan(e["won_ci95"][1]) else 0
              for e in rel]
        ax.errorbar(np.array(x) + (i - 0.5) * 0.006, y, yerr=[lo, hi], fmt="o-",
                    color=OKABE_ITO[i], capsize=3, markersize=4, label=labels[key])
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    percent_axis(ax)
    ax.xaxis.set_major_formatter(ax.yaxis.get_major_formatter())
    ax.set_xlabel("P(win game) quoted at a decision")
    ax.set_ylabel("games won (95% interval)")
    field = " against ".join(dict.fromkeys(short_spec(p) for p in r["policies"]))
    ax.set_title(f"Calibration: {field}, {r['players']} players, {r['games']:,} games")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="upper left")
    return fig
