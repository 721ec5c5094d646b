"""A game reviewed as a chess engine reviews one: `seasalt review --seed S --players P --seat Q`.

The game is `seasalt replay`'s for the same seed, players, policies, expansion and target (game 0 of
`simulate --games N --seed S`): kernels.game's rounds, seat Q's decisions stopped at (an external
seat) and answered by Q's own bot as the engine would (kernels.policies.bot_choice), so the game
does not change; the review checks that its trace equals replay's. At each of Q's decisions with two
or more actions, the advisor (analyzer.play.advisor) ranks every action by the chance to win the
game, from what Q knows at that moment (kernels.search's knowledge, read from the trace: Q's hand,
everything public, the cards it saw opponents take, the piles as laid down until an opponent's crab
search) - never from the true hidden cards. Every action is played on the same sampled deals and
continued by the players' own policies. The advisor chooses on the first half of the samples; every
figure reported is measured on the second half, so that the *loss* of Q's choice (the advisor's
choice's P(win) minus Q's, a paired difference with its 95% interval) is not inflated by picking the
best of noisy estimates on the deals it is measured on (it can come out negative). Deal i of
decision t is drawn on the stream (seed, t * 2**32 + i); the measuring half starts at t * 2**32 +
2**31.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from kernels import actions as kac
from kernels import cards as kc
from kernels import search as ksr
from kernels import state as ks
from kernels.engine import play_round, step
from kernels.game import deal, settle_round
from kernels.legal import legal_actions
from kernels.policies import EXTERNAL, SEARCH, bot_choice
from kernels import reading as kr
from kernels.rng import seed_stream

from .. import __version__
from .advisor import (Evaluation, action_id, game_diff, game_diff_cell, judge, tally_deals,
                      summarize)
from .calibration import caveat
from .error_scale import place
from ..studies.referee import Valuer, walk
from .luck import decompose, flat, start_value
from .practice import seen
from .decisions import DECISION_WORDS
from .reading import observations, read_tally
from ..numbers.estimates import sum_of_means
from ..base.errors import SeasaltError
from ..rules.policies import (check_models, expert_meta, policy_arrays, reading_models,
                              review_models, rollout_arrays, seat_policies)
from .position import decision_actions
from .game_spec import ReplaySpec, ReviewSpec
from .replay import chosen_actions, game_events, play_search, traced_game
from .replay import run as replay_run
from .replay_file import check_replay_file
from ..runs.spec import Backend, as_backend
from ..rules.limits import check_review

CAPACITY = 200_000          # trace events of one game (a game of bots uses a few thousand)
SPACING = 1 << 32           # sample streams of decision t start at t * SPACING


@dataclass
class ReviewedDecision:
    """One decision of the reviewed seat, as it saw it: enough to evaluate it later."""
    round: int
    turn: int
    totals: list[int]
    kind: int
    chosen: int
    template: np.ndarray
    pool: np.ndarray
    unknown: np.ndarray
    actions: list[int]
    trace: np.ndarray | None = None     # the round's trace up to the decision (hand reading)


def _decisions(players, seat, deck, full, target, pk, pp, seed, sees: str = "",
               answer: Callable[[np.ndarray, int], int] | None = None,
               external: Sequence[int] = ()) -> tuple[list[ReviewedDecision], np.ndarray]:
    """Play the game with `seat` external, answered by its bot as the engine would (a seat of
    `external`, a search player's, by answer(state, seat)); collect the seat's decisions (its
    view) and return them with the game's trace. `sees` (the
    calibration study's diagnostic, scripts/calibration_bound.py): "hands", the seat's view
    also holds the opponents' true hands (the bound any hand reading can reach); "all", the
    view is the whole state, the deck's order included."""
    ext = pk.copy()
    ext[seat] = EXTERNAL
    s = ks.new_state()
    view = ks.new_state()
    rng = seed_stream(seed, 0)
    tr = np.zeros((CAPACITY + 1, 5), dtype=np.int32)
    know = np.zeros(ksr.K_SIZE, dtype=np.int64)
    w = np.zeros(ksr.W_INT, dtype=np.int64)
    totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    out: list[ReviewedDecision] = []
    starter, rnd = 0, 0
    while True:
        rnd += 1
        deal(s, players, deck, starter, rng, tr)
        ksr.reset_knowledge(know, s, tr)
        play_round(s, ext, pp, rng, tr)
        while int(s[ks.DEC]) != kac.DEC_DONE:
            if int(tr[0, 0]) >= CAPACITY:
                raise SeasaltError(f"the game needs more than {CAPACITY:,} trace events; review "
                                   "a shorter game (a lower --target)")
            if int(s[ks.CUR]) != seat:              # another search seat: its own choice
                step(s, answer(s, int(s[ks.CUR])), ext, pp, rng, tr)
                continue
            ksr.update_knowledge(know, seat, tr)
            if int(s[ks.DEC]) == kac.DEC_CRAB_CARD:
                know[ksr.K_DEPTH + int(s[ks.CRAB_PILE])] = 0     # it looks through the pile
            chosen = answer(s, seat) if seat in external else int(bot_choice(s, pk, pp, rng)[0])
            if sees:
                for q in range(players):
                    if q != seat:
                        know[ksr.K_HAND + q * kc.NTYPES:ksr.K_HAND + (q + 1) * kc.NTYPES] = \
                            s[ks.HT + q * kc.NTYPES:ks.HT + (q + 1) * kc.NTYPES]
            m = int(ksr.mark_known(view, s, know, seat, full, w))
            if sees == "all":
                view[:], m = s, 0
                w[ksr.W_UNK:ksr.W_UNK + ks.MAX_PLAYERS] = 0
            sizes = s[ks.HLEN:ks.HLEN + ks.MAX_PLAYERS].astype(np.int64)
            actions = decision_actions(view, sizes)
            chosen_view = _in_view(view, chosen, actions)
            if chosen_view not in actions:
                actions.append(chosen_view)
            if len(actions) >= 2:
                out.append(ReviewedDecision(rnd, int(s[ks.TURNS]) + 1, totals[:players].tolist(),
                                     int(s[ks.DEC]), chosen_view, view.copy(),
                                     w[ksr.W_POOL:ksr.W_POOL + m].copy(),
                                     w[ksr.W_UNK:ksr.W_UNK + ks.MAX_PLAYERS].copy(), actions,
                                     trace_so_far(tr)))
            step(s, chosen, ext, pp, rng, tr)
        if settle_round(s, players, target, totals, winners):
            if int(tr[0, 0]) > CAPACITY:
                raise SeasaltError(f"the game needs more than {CAPACITY:,} trace events; review "
                                   "a shorter game (a lower --target)")
            return out, tr
        starter = (int(s[ks.ENDER]) + 1) % players


def search_answers(chosen: Sequence[int]) -> Callable[[np.ndarray, int], int]:
    """answer(state, seat) for the search seats of a game: the only legal action of a forced
    decision (the search does not weigh it), else the next of `chosen` (replay.chosen_actions)."""
    moves = iter(chosen)

    def answer(s: np.ndarray, _seat: int) -> int:
        if int(legal_actions(s, False)) == 1:
            return int(s[ks.LEGAL])
        return next(moves)
    return answer


def trace_so_far(tr: np.ndarray) -> np.ndarray:
    """A copy of the rows a trace holds now (its header row first): what the table has seen,
    for the hand reading of a decision taken now."""
    return tr[:int(tr[0, 0]) + 1].copy()


def _in_view(view: np.ndarray, a: int, actions: list[int]) -> int:
    """The chosen action as the seat's view can name it: a crab pick of a card the seat has
    forgotten (an UNSEEN slot of its view) is the search of that pile, whose card the bot then
    picks on the true pile as it did."""
    if int(view[ks.DEC]) == kac.DEC_CRAB_PILE and a >= 2:
        j, i = (a - 2) & 1, (a - 2) >> 1
        if int(view[ks.PILE + j * kc.MAX_DECK + i]) < 0:
            return j
        card = int(view[ks.PILE + j * kc.MAX_DECK + i])
        for b in actions:            # the same card nearer the top: the same choice
            if b >= 2 and (b - 2) & 1 == j and int(view[ks.PILE + j * kc.MAX_DECK + ((b - 2) >> 1)]) == card:
                return b
    return a


def review(seed: int, players: int, policies: Sequence[str] = ("baseline",), seat: int = 0,
           expansion: str = "base", target: int | None = None, samples: int = 2000,
           backend: Backend | None = None, progress: Callable[[int, int], None] | None = None,
           replay_file: dict | None = None, reading: str = "own",
           tremble: float | None = None) -> dict:
    """Review seat `seat`'s decisions in the game of (seed, players, policies, expansion,
    target) (module doc), the advisor's samples on `backend` (None: Backend()); `reading` and
    `tremble` as ReviewSpec's. Returns a JSON-ready dict: every decision with the advisor's
    choice, the loss of the choice made and all options, and a summary of the costliest
    ones."""
    return run(ReviewSpec.build(players, policies, seed, seat, samples, expansion, target,
                                backend, reading, tremble, replay_file), progress)


def run(rs: ReviewSpec, progress: Callable[[int, int], None] | None = None) -> dict:
    """review() of a built spec: its game's game 0, the advisor's samples on the game's backend.
    With `reading` ("own": each opponent read as its own policy; a policy spec: every opponent
    read as it; "off") each decision's deals are also weighted by the round's history so far
    (analyzer.play.reading; `tremble` None: its default) and the row says what the advisor would
    choose reading the hands. `model` plays the reviewed seat on instead of its own policy (the
    error-rate scale reviews every player against one model)."""
    spec, seat, samples, reading, tremble = rs.game, rs.seat, rs.samples, rs.reading, rs.tremble
    model, replay_file = rs.model, rs.replay_file
    players, backend = spec.players, spec.backend
    check_review(players, seat, samples)
    seed, expansion, target, pols = spec.seed, spec.expansion, spec.target, list(spec.policies)
    model_pols = review_models(pols, players)      # a search seat played on by the expert
    if model is not None:
        model_pols[seat] = seat_policies([model], players)[0]
    check_models(model_pols)
    pk, pp = policy_arrays(pols)
    mk, mp = policy_arrays(model_pols)
    models, about, tremble = reading_models(reading, tremble, mk, mp, players)
    deck = kc.deck_types(expansion)
    searchers = [q for q, p in enumerate(pols) if p.info.kind == SEARCH]
    if searchers:                   # the game as replay plays it, the search seats' choices
        game_tr, _, _, _, winners, log = play_search(players, deck, target, pk, pp,
                                                      *rollout_arrays(pols), seed, CAPACITY)
        chosen = chosen_actions(log)
    else:
        game_tr, _, _, _, winners = traced_game(players, deck, target, pk, pp, seed, CAPACITY)
        chosen = []
    decisions, tr = _decisions(players, seat, deck, kc.copies_in(expansion).astype(np.int64),
                               target, pk, pp, seed, answer=search_answers(chosen),
                               external=searchers)
    n = int(tr[0, 0])
    if int(game_tr[0, 0]) != n or not np.array_equal(tr[1:n + 1], game_tr[1:n + 1]):
        raise RuntimeError("the reviewed game differs from the game the players play")
    if replay_file is not None:
        check_replay_file(replay_file, replay_run(ReplaySpec(spec)))
    points, chance_after, won, walked = walk(players, deck, target, pk, pp, seed,
                                             search_answers(chosen), searchers)
    if int(walked[0, 0]) != n or not np.array_equal(walked[1:n + 1], game_tr[1:n + 1]):
        raise RuntimeError("the game walked for its luck differs from the game the players play")
    total = len(decisions) + len(points)
    rows, cells = review_rows(decisions, seat, mk, mp, deck, target, samples, seed, backend,
                              None if progress is None else lambda d, _t: progress(d, total),
                              reading=models, tremble=tremble)
    start = start_value(players, [p.spec for p in model_pols], seat, expansion, target, seed,
                        backend)
    luck = decompose(points, chance_after, won == [seat], start,
                     Valuer(seat, mk, mp, deck, target, samples, seed), mk, mp, seed,
                     None if progress is None else
                     lambda d, _t: progress(len(decisions) + d, total))
    summary = {**review_summary(rows, cells), **flat(luck)}
    events = game_events(tr)
    ends = [e for e in events if e["event"] == "round_end"]
    totals = [0] * players
    for e in events:
        if e["event"] == "score":
            totals[e["seat"]] += e["points"]
    return {
        "seed": seed, "players": players, "policies": [p.spec for p in pols],
        "models": [p.spec for p in model_pols], "seat": seat,
        "expansion": expansion, "target": target, "samples": samples, "version": __version__,
        **expert_meta([*pols, *model_pols]),
        "stream": "decision t, deal i: kernels.rng.seed_stream(seed, t * 2**32 + i)",
        "rounds_played": len(ends), "totals": totals,
        "winners": [q for q in range(players) if winners[q]],
        "mermaid_win": ends[-1]["end"] == "mermaids" if ends else False,
        "reading": about, "calibration": review_caveat(players, seat, [p.spec for p in pols],
                                                       about is not None),
        "decisions": rows, "summary": summary, "luck": luck,
        "scale": scale_of(summary, model_pols[seat].spec),
    }


def scale_of(summary: dict, model: str) -> dict | None:
    """Where the review's error rate sits on seasalt's scale (analyzer.play.error_scale)."""
    return place(summary["error_rate"], summary["error_rate_lo"], summary["error_rate_hi"],
                 model)


def review_caveat(players: int, seat: int, specs: Sequence[str], read: bool) -> dict | None:
    """The measured drift of a review's P(win) against its opponents (`specs`: every seat's;
    analyzer.play.calibration), the weighted one's where reading is on."""
    return caveat(players, [p for q, p in enumerate(specs) if q != seat], read)


def review_rows(decisions: Sequence[ReviewedDecision], seat: int, pk: np.ndarray, pp: np.ndarray,
                deck: np.ndarray, target: int, samples: int, seed: int,
                backend: Backend | None = None, progress: Callable[[int, int], None] | None = None,
                stop: Callable[[], None] | None = None,
                reading: tuple[np.ndarray, np.ndarray] | None = None,
                tremble: float = kr.DEFAULT_TREMBLE) -> tuple[list[dict], list[tuple]]:
    """Every decision evaluated (module doc: the advisor chooses on the first half of the
    samples, everything is measured on the second; decision t on streams from t * SPACING);
    `pk`/`pp` are the models that play on (the seat's own and the others'). With `reading`
    (the models rk/rp the opponents are read with), the choosing half of a decision that has
    its `trace` is drawn by analyzer.play.reading (its unweighted tally is exactly
    advisor.tally_deals', so the advisor's choice does not change) and each row also says the choice
    weighted by the history. Returns the rows and, for review_summary, each loss's counters
    (sum, sum of squares, n)."""
    rows, cells = [], []
    jobs = as_backend(backend).jobs
    for t, dec in enumerate(decisions):
        ev = Evaluation(dec.template, dec.pool, dec.unknown, np.zeros((0, 3), np.int64), seat,
                        dec.actions, pk, pp, deck, target,
                        np.array(dec.totals + [0] * (ks.MAX_PLAYERS - len(dec.totals)),
                                 dtype=np.int64))
        n = samples - samples // 2
        read = None
        if reading is not None and dec.trace is not None:
            weighted = read_tally(ev, dec.trace, *reading, tremble, seed, t * SPACING, n, jobs,
                                  stop)
            choose = weighted.plain()
            read = (weighted, observations(dec.template, dec.trace, seat))
        else:
            choose, _ = tally_deals(ev, n, None, seed, backend, first=t * SPACING, stop=stop)
        measure, _ = tally_deals(ev, samples // 2, None, seed, backend,
                                 first=t * SPACING + SPACING // 2, stop=stop)
        row, cell = _row(dec, judge(choose, dec.template, dec.actions), choose.n, measure)
        row["seen"] = seen(dec.template, seat, dec.totals)
        if read is not None:
            row["reading"] = _reading(dec, row, *read)
        rows.append(row)
        cells.append(cell)
        if progress is not None:
            progress(t + 1, len(decisions))
    return rows, cells


def _row(dec: ReviewedDecision, verdict, chose_on: int, measure) -> tuple[dict, tuple]:
    """One reviewed decision: the advisor's choice made on the first half of the samples, every
    estimate (P(win), margin, the loss) measured on the second half, so that the loss of the
    choice made is not inflated by choosing the best of noisy estimates on the same deals."""
    s = dec.template
    keys = [action_id(s, a) for a in dec.actions]
    chosen = action_id(s, dec.chosen)
    o = summarize(measure, s, dec.actions)
    best = verdict.best
    b, c = keys.index(best), keys.index(chosen)
    for a, k in enumerate(keys):
        o[k]["vs_advisor"] = game_diff(measure, a, b)
    if best == chosen:
        loss, cell = {"mean": 0.0, "ci95": [0.0, 0.0]}, (0.0, 0.0, measure.n)
    else:
        d = game_diff(measure, b, c)
        loss, cell = {"mean": d["mean"], "ci95": d["ci95"]}, game_diff_cell(measure, b, c)
    return {
        "round": dec.round, "turn": dec.turn, "decision": kac.DEC_NAMES[dec.kind],
        "decision_words": DECISION_WORDS[kac.DEC_NAMES[dec.kind]][0],
        "question": DECISION_WORDS[kac.DEC_NAMES[dec.kind]][1],
        "totals": dec.totals, "chosen": chosen, "chosen_words": o[chosen]["words"],
        "advisor": best, "advisor_words": o[best]["words"],
        "win_game_chosen": o[chosen]["win_game"], "win_game_advisor": o[best]["win_game"],
        "loss": loss, "worse": loss["ci95"][0] > 0,
        "samples": {"choose": chose_on, "measure": measure.n},
        "options": {k: {"words": v["words"], "win_game": v["win_game"], "margin": v["margin"],
                        "vs_advisor": v["vs_advisor"]} for k, v in o.items()},
    }, cell


def _reading(dec: ReviewedDecision, row: dict, weighted, observed: int) -> dict:
    """What the advisor chooses on the choosing half weighted by the history (its choice, the
    weighted P(win) of it and of the choice made, whether it differs from the unweighted
    choice, the effective sample size and the opponents' choices read)."""
    v = judge(weighted, dec.template, dec.actions)
    return {"advisor": v.best, "advisor_words": v.options[v.best]["words"],
            "win_game_advisor": v.options[v.best]["win_game"],
            "win_game_chosen": v.options[row["chosen"]]["win_game"],
            "flips": v.best != row["advisor"],
            "distinguishable": v.distinguishable,
            "observations": observed, "ess": weighted.ess, "samples": weighted.n}


def review_summary(rows: list[dict], cells: Sequence[tuple], top: int = 5) -> dict:
    """The costliest decisions (by estimated loss), the total loss with its interval (the sum
    of independent estimates from each loss's counters, `cells` of review_rows: variances add),
    how many choices were distinguishably worse, and the error rate: the mean loss over the
    decisions with a real choice (not forced), with its interval."""
    total, lo, hi = sum_of_means(cells)
    real = [c for r, c in zip(rows, cells) if len(r["options"]) > 1]
    k = max(len(real), 1)
    rate = [x / k for x in sum_of_means(real)] if real else [0.0, 0.0, 0.0]
    order = sorted(range(len(rows)), key=lambda i: -rows[i]["loss"]["mean"])
    return {"decisions": len(rows), "same_as_advisor": sum(r["chosen"] == r["advisor"] for r in rows),
            "distinguishably_worse": sum(r["worse"] for r in rows),
            "total_loss": {"mean": total, "ci95": [lo, hi]},
            "error_rate": rate[0], "error_rate_lo": rate[1], "error_rate_hi": rate[2],
            "error_rate_decisions": len(real),
            "costliest": [i for i in order[:top] if rows[i]["loss"]["mean"] > 0],
            "reading_flips": [i for i, r in enumerate(rows) if r.get("reading", {}).get("flips")]}


def _reading_columns(read: dict | None) -> dict:
    """A reviewed row's hand-reading columns (empty without reading)."""
    if read is None:
        return {}
    return {"reading_advisor": read["advisor"],
            "reading_win_game_chosen": read["win_game_chosen"]["rate"],
            "reading_win_game_chosen_lo": read["win_game_chosen"]["ci95"][0],
            "reading_win_game_chosen_hi": read["win_game_chosen"]["ci95"][1],
            "reading_flips": read["flips"],
            "reading_ess": read["ess"], "reading_observations": read["observations"]}


def review_frame(r: dict):
    """One row per reviewed decision (tidy), every row with the game's seed, configuration,
    the reviewed seat, the samples and the version."""
    from ..render.tidy_frames import frame, join_specs
    rows = []
    for x in r["decisions"]:
        rows.append({
            "round": x["round"], "turn": x["turn"], "decision": x["decision"],
            "chosen": x["chosen"], "chosen_words": x["chosen_words"],
            "advisor": x["advisor"], "advisor_words": x["advisor_words"],
            "win_game_chosen": x["win_game_chosen"]["rate"],
            "win_game_chosen_lo": x["win_game_chosen"]["ci95"][0],
            "win_game_chosen_hi": x["win_game_chosen"]["ci95"][1],
            "win_game_advisor": x["win_game_advisor"]["rate"],
            "win_game_advisor_lo": x["win_game_advisor"]["ci95"][0],
            "win_game_advisor_hi": x["win_game_advisor"]["ci95"][1],
            "loss": x["loss"]["mean"], "loss_lo": x["loss"]["ci95"][0],
            "loss_hi": x["loss"]["ci95"][1], "worse": x["worse"],
            "totals": json.dumps(x["totals"]),
            **_reading_columns(x.get("reading")),
        })
    meta = {"command": "review", "seed": r["seed"], "players": r["players"],
            "policies": join_specs(r["policies"]), "seat": r["seat"], "expansion": r["expansion"],
            "target": r["target"], "samples": r["samples"], "version": r["version"]}
    return frame(rows, meta)
