"""Robust advice: one position advised under several models of the players (`--opponent` and
`--me` with several specs, or `--robust`'s set), on the same deals (the same seed: the deals do
not depend on the models), and a verdict that says whether the best action depends on them.

    r = advise_robust(load("position.json"), opponents=["baseline", "tuned"], samples=20_000)
    r.verdict          # "LAST CHANCE under every model" or "depends: STOP against baseline, ..."

Each model's answer is a whole analyzer.play.advisor.advise (P(win game) with its interval); the
verdict claims a difference between models only in the words of each model's own advice (a
best action not distinguishable from its runner-up is said to be so).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from .advisor import Advice, advise
from ..base.errors import SeasaltError
from ..rules.policies import check_models, models, seat_policies, split_models  # noqa: F401
from ..runs.spec import Backend
from .position import Position, parse
from ..render.text_tables import join_words, short_spec

# --robust: the models asked when the user names none (each costs one advice).
ROBUST_OPPONENTS = ("baseline", "tuned", "gambler", "denier", "expert")
ROBUST_ME = ("baseline", "tuned", "expert")
ROBUST_SAMPLES = 20_000            # per model, unless --samples or --precision
MAX_MODELS = 16                    # model pairs in one robust advice


def advise_models(position: dict | Position, opponents: Sequence[str] = (),
                  mes: Sequence[str] = (), robust: bool = False, **options) -> Advice | Robust:
    """The one way `seasalt advise` and `POST /api/advise` read their models: one advice for
    one model per side, a robust one for several (or `robust`, whose sets fill a side that
    names none). `opponents`/`mes`: option values, each one spec or several (SPEC,SPEC)."""
    opps = models(opponents) or (list(ROBUST_OPPONENTS) if robust else ["baseline"])
    own = models(mes) or (list(ROBUST_ME) if robust else ["baseline"])
    if robust or len(opps) > 1 or len(own) > 1:
        return advise_robust(position, opps, own, **options)
    return advise(position, opponent=opps[0], me=own[0], **options)


@dataclass
class Robust:
    """One advice per (your model, opponents' model), and the verdict over them."""
    advices: list[Advice]
    rows: list[dict]
    verdict: str
    meta: dict = field(default_factory=dict)
    description: str = ""

    def to_dict(self) -> dict:
        return {"verdict": self.verdict, "same_everywhere": self.meta["same_everywhere"],
                "rows": self.rows, **self.meta,
                "advice": [a.to_dict() for a in self.advices]}


def advise_robust(position: dict | Position, opponents: Sequence[str] = ("baseline",),
                  mes: Sequence[str] = ("baseline",), samples: int | None = None,
                  precision: float | None = None, seed: int | None = None,
                  backend: Backend | None = None, play_on: bool = True,
                  progress: Callable[[int, int], None] | None = None,
                  stop: Callable[[], None] | None = None) -> Robust:
    """Advise `position` under every pair (your model, opponents' model) on the same seed;
    `samples` per pair (default ROBUST_SAMPLES unless `precision`)."""
    pos = position if isinstance(position, Position) else parse(position)
    pairs = [(m, o) for m in mes for o in opponents]
    if len(pairs) > MAX_MODELS:
        raise SeasaltError(f"{len(pairs)} model pairs ({len(mes)} for you x {len(opponents)} "
                           f"for the opponents); at most {MAX_MODELS}")
    for m, o in pairs:                          # every spec checked before any runs
        check_models(seat_policies([m if q == pos.seat else o for q in range(pos.players)],
                                   pos.players))
    if samples is None and precision is None:
        samples = ROBUST_SAMPLES
    advices = []
    for k, (m, o) in enumerate(pairs):
        step = None if progress is None else \
            (lambda d, t, k=k: progress(k * t + d, len(pairs) * t))
        a = advise(pos, samples=samples, precision=precision, opponent=o, me=m, seed=seed,
                   backend=backend, play_on=play_on, progress=step, stop=stop)
        seed = a.meta["seed"]                  # a fresh seed once, then the same deals
        advices.append(a)
    rows = [_row(a) for a in advices]
    verdict = _verdict(rows, len(mes) > 1, len(opponents) > 1)
    first = advices[0].meta
    meta = {"seed": seed, "samples": [a.samples for a in advices], "decision": first["decision"],
            "position": first["position"], "game": first["game"], "version": first["version"],
            "same_everywhere": len({r["best"] for r in rows}) == 1,
            "models": {"me": [a.meta["me_policy"] for a in advices[::len(opponents)]],
                       "opponents": [a.meta["opponent"] for a in advices[:len(opponents)]]}}
    return Robust(advices, rows, verdict, meta, advices[0].description)


def _row(a: Advice) -> dict:
    """One model pair's answer: its best action with P(win game) and the gap to its runner-up."""
    m = a.meta
    best = a.options[a.recommendation]
    row = {"me": m["me_policy"], "opponent": m["opponent"], "best": a.recommendation,
           "words": best["words"], "win_game": best["win_game"],
           "runner_up": m["runner_up"], "distinguishable": m["distinguishable"]}
    if m["runner_up"] is not None:
        row["runner_up_words"] = a.options[m["runner_up"]]["words"]
        row["vs_runner_up"] = a.options[m["runner_up"]]["vs_best"]
    return row


def _verdict(rows: list[dict], vary_me: bool, vary_opp: bool) -> str:
    """'X under every model', or 'depends: X against a and b, Y against c' naming the side whose
    model decides (the opponents', yours, or else each pair); the rows whose best action is not
    distinguishable from their runner-up are named."""
    bests = list(dict.fromkeys(r["best"] for r in rows))
    words = {r["best"]: r["words"] for r in rows}
    if len(bests) == 1:
        text = f"{words[bests[0]]} under every model"
    else:
        side = _deciding_side(rows, vary_me, vary_opp)
        parts = []
        lead = {"opponent": "against ", "me": "if you play on as ", "pair": "for "}[side]
        for b in bests:
            who = list(dict.fromkeys(_who(r, side) for r in rows if r["best"] == b))
            parts.append(f"{words[b]} {lead}{join_words(who)}")
        text = "depends: " + ", ".join(parts)
        if side == "opponent" and vary_me:
            text += " (whichever way you play on)"
        elif side == "me" and vary_opp:
            text += " (against every opponents' model)"
    close = [r for r in rows if not r["distinguishable"] and r["runner_up"] is not None]
    if close:
        text += ("; not distinguishable from the runner-up for " +
                 join_words([f"{_who(r, 'pair')} ({r['runner_up_words']})" for r in close]))
    return text + "."


def _deciding_side(rows: list[dict], vary_me: bool, vary_opp: bool) -> str:
    """'opponent' if the opponents' model alone decides the best action, 'me' if yours alone
    does, else 'pair'."""
    for side, varies in (("opponent", vary_opp), ("me", vary_me)):
        best: dict[str, set] = {}
        for r in rows:
            best.setdefault(r[side], set()).add(r["best"])
        if varies and all(len(b) == 1 for b in best.values()):
            return side
    return "pair"


def _who(row: dict, side: str) -> str:
    """The model(s) of a row: the opponents', yours, or both."""
    me, opp = short_spec(row["me"]), short_spec(row["opponent"])
    return {"opponent": opp, "me": me}.get(side, f"you {me} with opponents {opp}")
