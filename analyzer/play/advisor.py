"""What should I do here? Every legal action of the asker's decision, played on the same sampled
deals (common random numbers) and continued by the players' models, with 95% intervals, paired
differences and a recommendation that says when the best two cannot be told apart.

    a = advise(load("position.json"), samples=100_000, seed=1)
    a.recommendation, a.options["last_chance"]["margin"], a.frame()

Every option is ranked by one criterion, the chance to win the game (a four-mermaid win is a
won game): from the position's running totals to its target, or, without them, as the first
round of a new game at the standard target (DEFAULT_TARGETS), which the advice says.
The deals are exactly uniform over what the position and the rules allow (kernels.advisor);
the counters are summed in the kernel, so memory does not grow with the samples and
`--precision` costs what its samples cost. `run` and `judge` evaluate any marked state, such as
a seat's view of a replayed game (analyzer.play.review).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from kernels import actions as kac
from kernels import advisor as ka
from kernels import cards as kc
from kernels import state as ks
from kernels.advisor import ADVISOR_PAIRED, ADVISOR_STATS

from .. import __version__
from ..rules.notation import card_name
from .calibration import caveat
from .decisions import describe_action, named_card
from ..render.review_text import compact
from ..base.errors import SeasaltError
from ..rules.policies import Policy, check_models, expert_meta, policy_arrays, seat_policies
from .position import Position, describe, parse, summary
from ..runs.batches import check_jobs, max_jobs
from .advise_batch import AdviseBatch, Evaluation, Tally, add_counters  # noqa: F401
from ..runs.spec import Backend, as_backend
from ..rules.limits import MAX_ADVISE_SAMPLES, check_budget, flag, run_seed
from ..rules.limits import DEFAULT_TARGETS
from ..render.text_tables import wrap
from ..runs.compiling import watching

# The declare decision's actions keep the first edition's names.
PLAY_IDS = {kac.A_STOP: "stop", kac.A_LAST_CHANCE: "last_chance", kac.A_END: "play_on"}
LABELS = {"stop": "STOP", "last_chance": "LAST CHANCE", "play_on": "play on (end the turn)"}
OPTIONS = ("stop", "last_chance", "play_on")     # the declare decision's (first edition)
BATCH = 10_000
DEFAULT_SAMPLES = 100_000
MAX_SAMPLES = MAX_ADVISE_SAMPLES


def tally_deals(ev: Evaluation, samples: int | None, precision: float | None, seed: int,
                backend: Backend | None = None, first: int = 0,
                report_rates: Callable[[Tally], list] | None = None,
                progress: Callable[[int, int], None] | None = None,
                stop: Callable[[], None] | None = None) -> tuple[Tally, float]:
    """Sum the counters of `samples` samples (or, with `precision`, chunks of BATCH until every
    rate from `report_rates` has a 95% half-width below it or MAX_SAMPLES), sample i on the
    stream (seed, first + i), on the Runner of `backend` (None: Backend(), threads).
    The first chunk is BATCH samples either way, so an impossible position is found out early.
    `stop` (the server's: a client gone, a time limit) is called before every chunk and may
    raise to end the run; with it the samples go in chunks of BATCH (the same sums: every sample
    is on its own stream), so no run goes on for long after it is told to stop.
    Returns the tally and the seconds it took."""
    backend = as_backend(backend)
    tally = Tally.empty(len(ev.actions))
    goal = samples if samples is not None else MAX_SAMPLES
    t0 = time.perf_counter()
    with watching() as compiling:      # compiling is not speed
        while tally.n < goal:
            if stop is not None:
                stop()
            chunked = precision is not None or tally.n == 0 or stop is not None
            n = min(BATCH if chunked else goal, goal - tally.n)
            done = tally.n
            step = None if progress is None else (lambda d, t: progress(done + d, goal))
            outcome = backend.runner(step).run(
                [AdviseBatch(ev, seed, first + tally.n, n)],
                {"command": "advise", "seed": seed, "first": first + tally.n, "samples": n},
                keep=False)
            add_counters(tally, outcome.counters[0])
            tally.n += n
            if tally.failed:
                break
            if progress is not None:
                progress(tally.n, goal)
            if precision is not None and report_rates is not None:
                if max(_half(r) for r in report_rates(tally)) < precision:
                    break
    tally.compile_seconds = compiling.seconds
    return tally, time.perf_counter() - t0 - compiling.seconds


def _half(rate: dict) -> float:
    return (rate["ci95"][1] - rate["ci95"][0]) / 2


# ---------------------------------------------------------------------------------------------
# Reading the tally: per action, and the recommendation

def action_id(s: np.ndarray, a: int) -> str:
    """A short stable name of action `a` at the decision point of `s` (JSON keys)."""
    d = int(s[ks.DEC])
    if d == kac.DEC_PLAY:
        base = a & kac.BASE_MASK
        if base in PLAY_IDS:
            return PLAY_IDS[base]
        trio = base >= kac.TRIO
        pair = kac.PAIR_NAMES[base - kac.TRIO if trio else base]
        return ("trio_" if trio else "play_") + pair
    if d == kac.DEC_DRAW:
        return "deck" if a == kac.SRC_DECK else f"pile_{'AB'[a - 1]}"
    if d == kac.DEC_VICTIM:
        return f"steal_from_{a}"
    if d == kac.DEC_CRAB_PILE and a < 2:
        return f"search_{'AB'[a]}"
    card = card_name(named_card(s, a))
    if d == kac.DEC_KEEP:
        return f"keep_{card}_discard_{'AB'[a >> 1]}"
    if d == kac.DEC_CRAB_PILE:
        return f"take_{card}_from_{'AB'[(a - 2) & 1]}"
    if d == kac.DEC_CRAB_CARD:
        return f"take_{card}"
    return f"keep_{card}"


def action_label(s: np.ndarray, a: int) -> str:
    """Action `a` in words (the declare decision's in the first edition's words)."""
    ident = action_id(s, a)
    return LABELS.get(ident, describe_action(s, a))


def summarize(tally: Tally, s: np.ndarray, actions: Sequence[int]) -> dict:
    """Per action (by action_id, in the order given): words and estimates with 95% intervals
    (judge adds `vs_best`, the paired difference to the best action in P(win the game))."""
    mermaids = any(tally.count(a, n) for a in range(len(actions))
                   for n in ("four_mermaids_you", "four_mermaids_opponent"))
    options = {}
    for a, act in enumerate(actions):
        o = {"action": int(act), "words": action_label(s, act)}
        for st in ADVISOR_STATS.stats:     # the catalogue's order; a bet only for LAST CHANCE
            if st.name == "win_bet" and not _is_last_chance(s, act):
                continue
            if st.name.startswith("four_mermaids") and not mermaids:
                continue
            o[st.name] = tally.estimate(a, st.name)
        options[action_id(s, act)] = o
    return options


def _is_last_chance(s: np.ndarray, act: int) -> bool:
    return int(s[ks.DEC]) == kac.DEC_PLAY and act & kac.BASE_MASK == kac.A_LAST_CHANCE


def rank(options: dict) -> int:
    """The index of the recommended action: the highest chance to win the game (the first of
    equal ones, in the order given)."""
    keys = list(options)
    return max(range(len(keys)), key=lambda a: options[keys[a]]["win_game"]["rate"])


def game_diff(tally: Tally, a: int, b: int) -> dict:
    """Paired difference (P(win game) of a - of b), with its 95% interval."""
    return tally.diff(a, b, "win_game")


def game_diff_cell(tally: Tally, a: int, b: int) -> tuple[float, float, int]:
    """The counters of game_diff: (sum, sum of squares, n) of the per-sample differences."""
    return tally.diff_cell(a, b, "win_game")


def _same_on_every_deal(tally: Tally, a: int, b: int) -> bool:
    """a and b won or lost the game together on every sample (a zero paired difference)."""
    lo, hi = (a, b) if a < b else (b, a)
    return int(tally.cross[lo, hi, ADVISOR_PAIRED.index("win_game")]) == 0


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def fmt_diff(d: dict) -> str:
    """A paired difference of chances with its interval, in percentage points."""
    return (f"{100 * d['mean']:+.1f} [{100 * d['ci95'][0]:+.1f}, {100 * d['ci95'][1]:+.1f}] "
            "points of %")


# ---------------------------------------------------------------------------------------------
# The advice

@dataclass
class Advice:
    """The evaluation of one position: per option, estimates with 95% intervals."""
    options: dict[str, dict]
    recommendation: str
    reason: str
    samples: int
    meta: dict = field(default_factory=dict)
    description: str = ""           # the position in one line, the hand included
    explanation: str = ""           # the recommendation in sentences

    def to_dict(self) -> dict:
        return {"recommendation": self.recommendation, "reason": self.reason,
                "samples": self.samples, "options": self.options, **self.meta}

    def frame(self):
        """One row per option (pandas), with the run's metadata on every row."""
        import pandas as pd
        rows = []
        for name, o in self.options.items():
            row = {"option": name}
            for key, v in o.items():
                if isinstance(v, dict):
                    row[key] = v["mean"] if "mean" in v else v["rate"]
                    row[key + "_lo"], row[key + "_hi"] = v["ci95"]
                else:
                    row[key] = v
            rows.append(row)
        df = pd.DataFrame(rows)
        for k, v in self.meta.items():
            if not isinstance(v, (dict, list)):
                df[k] = v
        return df


def _reported_rates(s: np.ndarray, actions: Sequence[int]):
    """The rates the advice reports (what --precision bounds)."""
    def rates(tally: Tally) -> list[dict]:
        out = []
        for a, act in enumerate(actions):
            if _is_last_chance(s, act):
                out.append(tally.estimate(a, "win_bet"))
            out.append(tally.estimate(a, "win_game"))
        return out
    return rates


def advise(position: dict | Position, samples: int | None = None, precision: float | None = None,
           opponent: str = "baseline", me: str = "baseline", seed: int | None = None,
           backend: Backend | None = None, play_on: bool = True, *,
           me_policy: str | None = None, progress: Callable[[int, int], None] | None = None,
           stop: Callable[[], None] | None = None) -> Advice:
    """Evaluate a position (a JSON-like dict, see analyzer.play.position). Give `samples`, or a
    `precision`: sample until every reported probability has a 95% half-width below it. `opponent`
    and `me` are the players' specs, as `--opponent` and `--me` (`me_policy` is the old name of
    `me`); `play_on=False` leaves out ending the turn at the play step. The samples run on the
    Runner of `backend` (analyzer.runs.spec.Backend; None: Backend(), threads here): Dask with its
    `scheduler` (a running scheduler's address pays; "local" starts a cluster for each chunk of a
    --precision run); no checkpoint is kept. `stop`: called between chunks of samples, may raise to
    end the run (analyzer.play.advisor.tally_deals)."""
    me_policy = me if me_policy is None else me_policy
    pos = position if isinstance(position, Position) else parse(position)
    check_budget(samples, precision)
    if precision is None and samples is None:
        samples = DEFAULT_SAMPLES
    flag(play_on, "play_on")
    backend = as_backend(backend)
    check_jobs(backend.jobs)
    seed = run_seed(seed)
    specs = [me_policy if q == pos.seat else opponent for q in range(pos.players)]
    pols = seat_policies(specs, pos.players)
    check_models(pols)
    pk, pp = policy_arrays(pols)
    s = pos.template
    actions = list(pos.actions)
    if not play_on and pos.decision == kac.DEC_PLAY:
        actions = [a for a in actions if a != kac.A_END]
        if len(actions) < 2:
            raise SeasaltError("--no-play-on leaves fewer than two options here",
                               page="without playing on there are fewer than two options here: "
                                    "tick \"evaluate playing on\"")
    rates = _reported_rates(s, actions)
    game = game_of(pos)
    ev = evaluation(pos, actions, pk, pp, game)
    tally, seconds = tally_deals(ev, samples, precision, seed, report_rates=rates,
                                 progress=progress, backend=backend, stop=stop)
    if tally.failed:
        raise impossible()
    verdict = judge(tally, s, actions)
    meta = advice_meta(pos, verdict, game, pols, seed,
                       {"precision": precision, "deals": deals_report(tally)},
                       timing(tally.n, seconds, backend.jobs,
                              compile_seconds=tally.compile_seconds))
    return Advice(verdict.options, verdict.best, verdict.reason, tally.n, meta,
                  describe(pos), verdict.explanation)


def evaluation(pos: Position, actions: Sequence[int], pk: np.ndarray, pp: np.ndarray,
               game: dict) -> Evaluation:
    """The kernels' inputs for the position's deals, the options `actions` and the game
    (game_of): seat arrays pk/pp, the deck of its expansion, the totals padded to MAX_PLAYERS."""
    totals = np.array(game["totals"] + [0] * (ks.MAX_PLAYERS - pos.players), np.int64)
    return Evaluation(pos.template, pos.pool, pos.unknown_hand, pos.takes, pos.seat,
                      list(actions), pk, pp, kc.deck_types(pos.expansion), game["target"],
                      totals)


def impossible() -> SeasaltError:
    """The error of a position whose every deal drawn was impossible."""
    return SeasaltError(f"no possible deal found in {ka.MAX_TRIES:,} tries: every deal drawn "
                        "gave someone all four mermaids, so the position looks impossible")


def timing(samples: int, seconds: float, jobs: int | None, **more) -> dict:
    """An answer's timing block: seconds, samples per second, threads (None: all cores)."""
    return {"seconds": seconds, "samples_per_second": samples / seconds if seconds else None,
            "jobs": jobs or max_jobs(), **more}


def advice_meta(pos: Position, verdict: "Verdict", game: dict, pols: Sequence[Policy],
                seed: int, extra: dict, times: dict) -> dict:
    """An advice's metadata, the same keys in the same order for every way of advising:
    the decision and verdict, game, position, seed, seats, expansion, version, then `extra`,
    the timing block `times` (timing) and the explanation (as lines, so that JSON fits 100
    columns too)."""
    others = [p.spec for q, p in enumerate(pols[:pos.players]) if q != pos.seat]
    return {"decision": pos.decision_name, **verdict.meta(), "game": game,
            "position": summary(pos), "hand": [card_name(t) for t in pos.hand()],
            "seed": seed, "opponent": pols[(pos.seat + 1) % pos.players].spec,
            "me_policy": pols[pos.seat].spec, "expansion": pos.expansion,
            "version": __version__, **expert_meta(pols), **extra,
            "calibration": caveat(pos.players, others, "reading" in extra), "timing": times,
            "explanation": wrap(verdict.explanation, 90, hang="")}


def game_of(pos: Position) -> dict:
    """The game the advice plays out: the position's totals and target, or a new game at the
    standard target (`new_game`, with the sentence that says so)."""
    if pos.target is not None:
        return {"totals": [int(x) for x in pos.totals[:pos.players]], "target": int(pos.target),
                "new_game": False, "words": None}
    target = DEFAULT_TARGETS[pos.players]
    return {"totals": [0] * pos.players, "target": target, "new_game": True,
            "words": f"as a new game to {target}; give totals and target for a game in "
                     "progress"}


def deals_report(tally: Tally) -> dict:
    """How many raw deals were drawn and how many of them were impossible (drawn again)."""
    bad = tally.raw - tally.n
    return {"raw": tally.raw, "impossible": bad,
            "impossible_share": bad / tally.raw if tally.raw else 0.0}


@dataclass
class Verdict:
    """The options of one decision ranked by P(win the game): the best, the runner-up and
    whether they differ."""
    options: dict
    best: str
    ranking: list[str]
    distinguishable: bool
    reason: str
    explanation: str

    def meta(self) -> dict:
        return {"objective": "win_game", "ranking": self.ranking,
                "runner_up": self.ranking[1] if len(self.ranking) > 1 else None,
                "distinguishable": self.distinguishable}


def judge(tally: Tally, s: np.ndarray, actions: Sequence[int]) -> Verdict:
    """Summarize every action and rank them by the chance to win the game, the best first;
    each option's `vs_best` is its paired difference to the best, in that unit."""
    options = summarize(tally, s, actions)
    best = rank(options)
    keys = list(options)
    order = sorted((a for a in range(len(keys)) if a != best),
                   key=lambda a: -options[keys[a]]["win_game"]["rate"])
    order.insert(0, best)
    for a in range(len(keys)):
        options[keys[a]]["vs_best"] = game_diff(tally, a, best)
    b = options[keys[best]]
    if len(keys) == 1:                  # every legal action is the same choice: forced
        reason = f"the only choice (forced): {pct(b['win_game']['rate'])} to win the game"
        text = (f"{b['words']}: the only choice here (forced). It gives "
                f"{pct(b['win_game']['rate'])} to win the game.")
        return Verdict(options, keys[best], keys, True, reason, text)
    runner = options[keys[order[1]]]
    gap = runner["vs_best"]
    apart = gap["ci95"][1] < 0
    reason = (f"best chance to win the game: {pct(b['win_game']['rate'])}, next "
              f"{pct(runner['win_game']['rate'])} ({compact(runner['words'].split(' (')[0])})")
    others = [f"{pct(options[keys[a]]['win_game']['rate'])} for {options[keys[a]]['words']}"
              for a in order[1:4]]
    if len(order) > 4:
        others.append(f"{len(order) - 4} more")
    text = (f"{b['words']}. It gives the best chance to win the game: "
            f"{pct(b['win_game']['rate'])} against "
            + (", ".join(others[:-1]) + " and " if len(others) > 1 else "") + others[-1])
    if "win_bet" in b:
        reason += f"; bet won {100 * b['win_bet']['rate']:.1f}%"
        text += f"; the bet is won {100 * b['win_bet']['rate']:.1f}% of the time"
    text += "."
    if not apart:
        if _same_on_every_deal(tally, best, order[1]):
            words = runner["words"][:1].upper() + runner["words"][1:]
            text += f" {words} does exactly as well on every deal (the same outcome)."
        else:
            text += (f" It is not distinguishable from {runner['words']} at {tally.n:,} samples: "
                     f"the difference is {fmt_diff(gap)}; more samples may separate them.")
    return Verdict(options, keys[best], [keys[a] for a in order], apart, reason, text)
