"""Seastead's results as text (at most 100 columns): simulate, tournament, the short report and
a replay, a review, from their JSON-ready results (analyzer.seastead.runs, .report, .replay,
.review), whose words claim only what the intervals allow."""
from __future__ import annotations

import math
from typing import Mapping, Sequence

from kernels.seastead import layout as L

from .text_tables import (WIDTH, cut_labels, entrant_labels, pct, pct_digits, points_ci, rate_ci,
                          rate_column, table, timing, wrap)

CATEGORIES = L.CATEGORY_NAMES
TRIGGERS = L.TRIGGER_NAMES
BUILDINGS = L.BUILDING_NAMES


def interval_words(ci: Sequence[float], positive: str, negative: str, zero: float = 0.0) -> str:
    """What an interval allows one to say about its sign, and nothing more."""
    lo, hi = ci
    if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return "undetermined"
    if lo > zero:
        return positive
    if hi < zero:
        return negative
    return "not distinguishable from zero at this precision"


PLURAL = dict(zip(L.BUILDING_NAMES, L.BUILDING_PLURALS))


def _pct(x) -> str:
    return pct(x, 1)


def _rate(d: dict, digits: int | None = None) -> str:
    """`39.6% [37.5, 41.8]`, rare events with more digits (text_tables.pct_digits)."""
    return rate_ci(d["rate"], *d["ci95"], digits)


def _rates(ds: list[dict]) -> list[str]:
    """A column of rates, all with one precision."""
    digits = pct_digits(v for d in ds for v in (d["rate"], *d["ci95"]))
    return [_rate(d, digits) for d in ds]


def _mean(d: dict, digits: int = 2) -> str:
    m, (lo, hi) = d["mean"], d["ci95"]
    return f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _pm(d: dict) -> str:
    m, (lo, hi) = d["mean"], d["ci95"]
    return f"{m:.2f}±{(hi - lo) / 2:.2f}"


def _meta_lines(r: dict) -> list[str]:
    lines = [f"components: {r['components_label']}",
             f"seed {r['seed']}, components sha256 {r['components_sha256'][:12]}, "
             f"seasalt {r['version']}"]
    return lines + (timing(r["timing"], "games") if "timing" in r else [])


def solo_note(r: dict, lowest_win: float) -> list[str]:
    """What every solo figure carries: with invented components the Boss's strength is invented
    too; and a player whose win rate is at least 99% (the interval's lower end) makes solo
    trivial, which the reader should see before reading any solo figure as a challenge."""
    out = []
    if lowest_win >= 0.99:
        out.append("  the Boss wins under 1% of these games: with these components solo is trivial")
    if r["components_invented"]:
        out.append("  (INVENTED components: the Boss's strength here says nothing about the box)")
    return out


def format_simulate(r: dict) -> str:
    n = r["games"]
    lines = [f"Seastead: {n:,} games, {r['setup']}" + ("" if r["solo"] else
                                                      "; seat 0 starts every round"), ""]
    seats = r["seats"]
    if r["solo"]:
        so = r["solo"]
        lines += [f"  the player beats the Boss in {_rate(so['wins'])} of games",
                  f"  player score {_mean(seats[0]['score'])}, Boss score {_mean(so['boss_score'])}"
                  f" ({so['boss_buildings_per_game']:.2f} Boss buildings per game)",
                  f"  margin over the Boss {_mean(so['margin'])}"]
        lines += solo_note(r, so["wins"]["ci95"][0]) + [""]
    else:
        fp = r["first_player"]
        lines += table([
            ("seat", ">", [str(s["seat"]) for s in seats]),
            ("player", "<", [_short(r, s["player"]) for s in seats]),
            ("outright wins [95%]", ">", _rates(r["wins"])),
            ("score [95%]", ">", [_mean(s["score"]) for s in seats]),
        ])
        lines += ["", f"  shared wins {_rate(r['shared'])}",
                  f"  first player's win share {_mean(fp['win_share'], 4)}: "
                  + interval_words(fp["edge"]["ci95"], "the first player has the edge",
                                   "the second player has the edge"),
                  f"  score margin seat 0 - seat 1: {_mean(fp['margin'])}", ""]
    lines += ["  score by category (mean ± 95% half-width)"]
    lines += table([("seat", ">", [str(s["seat"]) for s in seats])]
                    + [(c.replace("_", " "), ">", [_pm(s["categories"][c]) for s in seats])
                       for c in CATEGORIES])
    lines += ["", "  end triggered with (several can hold at once)"]
    lines += table([("condition", "<", [t.replace("_", " ") for t in TRIGGERS]),
                     ("games", ">", [f"{r['end_triggers'][t]['count']:,}" for t in TRIGGERS]),
                     ("rate [95%]", ">", _rates([r["end_triggers"][t] for t in TRIGGERS]))])
    lines += ["", f"  rounds per game {_mean(r['rounds'])}", "  per game"]
    lines += table([("seat", ">", [str(s["seat"]) for s in seats]),
                     ("dives", ">", [f"{s['dives_per_game']:.2f}" for s in seats])]
                    + [(PLURAL[b], ">", [f"{s['builds_per_game'][b]:.2f}" for s in seats])
                       for b in BUILDINGS]
                    + [("spent", ">", [f"{s['specialists_spent_per_game']:.2f}" for s in seats]),
                       ("ship bonus", ">", [f"{s['ship_bonuses_per_game']:.2f}" for s in seats]),
                       ("extra", ">", [f"{s['extra_actions_per_game']:.2f}" for s in seats]),
                       ("shortfall", ">", [f"{s['cleanup_shortfall_per_game']:.2f}"
                                           for s in seats])])
    if not r["solo"]:
        tb = r["tiebreaks"]
        lines += ["", f"  decided by: totals {_pct(tb['none']['rate'])}, buildings left "
                      f"{_pct(tb['buildings_left']['rate'])}, cleanup "
                      f"{_pct(tb['cleanup']['rate'])},"
                      f" shared {_pct(tb['shared']['rate'])}",
                  f"  decrees entered per game {r['decrees_per_game']:.2f}"]
    lines += [""] + wrap("players: " + ", ".join(f"seat {q} {_short(r, p)}" for q, p in
                                                 enumerate(r["players"]))
                         + " (parameters not shown are at their defaults)")
    lines += _meta_lines(r)
    return "\n".join(line.rstrip() for line in lines)


def _short(r: dict, spec: str) -> str:
    """A player's short form, as its result names it (`short`)."""
    return r["short"].get(spec, spec)


def format_tournament(r: dict) -> str:
    rows = r["rows"]
    what = ("each entrant against the Boss" if r["solo"] else
            "every pair of entrants, both seatings")
    lines = [f"Seastead tournament, {r['setup']}",
             f"{r['games']:,} games per {'entrant' if r['solo'] else 'pair'} ({what})", ""]
    names = entrant_labels(r["entrants"], lambda s: _short(r, s))
    lines += table([
        ("rank", ">", [str(x["rank"]) for x in rows]),
        ("player", "<", [names[x["entrant"]] for x in rows]),
        ("games", ">", [f"{x['games']:,}" for x in rows]),
        ("wins", ">", [f"{x['wins']:,}" for x in rows]),
        ("win share [95%]", ">", rate_column(rows, "win_share")),
        ("score [95%]", ">", [f"{x['score_mean']:.2f} [{x['score_lo']:.2f}, {x['score_hi']:.2f}]"
                              for x in rows]),
    ])
    lines += ["", "  win share: wins" + ("" if r["solo"] else " with shared wins counted half")
              + (" against the Boss" if r["solo"] else "; fair share 50%")]
    if r["solo"]:
        lines += solo_note(r, min(x["win_share_lo"] for x in rows))
    lines += cut_labels(r["entrants"], names, lambda s: _short(r, s))
    lines += _meta_lines(r)
    return "\n".join(line.rstrip() for line in lines)


def format_short_report(rep: dict) -> str:
    d, so = rep["duel"], rep["solo"]
    fp = d["first_player"]
    edge_words = interval_words(fp["edge"]["ci95"], "the first player has an edge",
                                "the second player has an edge")
    lines = [f"Seastead report: {d['games']:,} games of {_short(d, d['players'][0])} against "
             f"itself "
             f"({d['setup']}),",
             f"  {so['games']:,} solo games of {_short(so, so['players'][0])}",
             f"components: {d['components_label']}",
             "  (results describe these components, not the published game unless they are its "
             "cards)", "",
             f"first-player edge: win share {_mean(fp['win_share'], 4)}, {edge_words}",
             f"  score margin of the first player {_mean(fp['margin'])} points", "",
             "score by category (both seats, mean ± 95% half-width):"]
    lines += table([("seat", ">", ["0", "1"])]
                    + [(c.replace("_", " "), ">", [_pm(s["categories"][c]) for s in d["seats"]])
                       for c in CATEGORIES]
                    + [("total", ">", [_pm(s["score"]) for s in d["seats"]])])
    lines += ["", "end triggers (share of games; several can fire together):"]
    lines += ["  " + ", ".join(f"{t.replace('_', ' ')} {_rate(d['end_triggers'][t])}"
                               for t in TRIGGERS[:2]),
              "  " + ", ".join(f"{t.replace('_', ' ')} {_rate(d['end_triggers'][t])}"
                               for t in TRIGGERS[2:])]
    lines += ["", f"game length: {_mean(d['rounds'])} rounds",
              f"solo: the player beats the Boss in {_rate(so['solo']['wins'])} of games",
              f"  margin over the Boss {_mean(so['solo']['margin'])} points"]
    lines += solo_note(so, so["solo"]["wins"]["ci95"][0]) + [
              "",
              f"seed {d['seed']}, components sha256 {d['components_sha256'][:12]}, "
             f"seasalt {d['version']}"]
    return "\n".join(line.rstrip() for line in lines)


def format_replay(r: dict) -> str:
    lines = [f"Seastead replay: seed {r['seed']}, {r['setup']}",
             "players: " + ", ".join(f"seat {q} {_short(r, p)}"
                                     for q, p in enumerate(r["players"])),
             f"components: {r['components_label']}", ""]
    lines += [e["text"] for e in r["events"]]
    lines.append("")
    lines.append(f"{'seat':<6}" + "".join(f"{c:>16}" for c in CATEGORIES) + f"{'total':>8}")
    for sc in r["scores"]:
        lines.append(f"{sc['seat']:<6}" + "".join(f"{sc[c]:>16}" for c in CATEGORIES)
                     + f"{sc['total']:>8}")
    if r["boss_score"] is not None:
        lines.append(f"Boss: {r['boss_score']}")
    lines.append(f"seasalt {r['version']}; the game is game 0 of `seasalt seastead simulate "
                 f"--seed {r['seed']}` with the same options")
    return "\n".join(lines)


def seastead_review_text(r: Mapping) -> str:
    """The decisions where the choice lost P(win game) against the advice's best beyond the
    loss's paired interval, costliest first; then the counts."""
    seats = ", ".join(map(str, r["seats"]))
    lines = wrap(f"Seastead review: game {r['game_seed']} ({r['setup']}), {r['choices']} choices"
                 + (", to its end" if r["over"] else ", not finished")
                 + f"; seat{'s' if len(r['seats']) > 1 else ''} {seats}", WIDTH)
    lines += wrap(f"Each decision asked as `seastead advise --seed {r['seed']}` asks it "
                  f"({r['samples']:,} redeals per option, every seat then playing "
                  f"{r['model_label']}). Loss: the best option's P(win game) minus the choice's, "
                  f"in points, measured again on {r['samples']:,} other redeals of the two (the "
                  f"best of several estimates is biased upward), with its paired 95% interval.",
                  WIDTH)
    off = [d for d in r["decisions"] if not d["as_best"]]
    clear = sorted((d for d in off if d["loss"]["ci95"][0] > 0),
                   key=lambda d: (-d["loss"]["diff"], d["choice"]))
    for d in clear:
        loss = points_ci(d["loss"]["diff"], *d["loss"]["ci95"])
        lines += [""] + wrap(f"#{d['choice']}, round {d['round']}, seat {d['seat']}'s "
                             f"{d['kind'].replace('_', ' ')} ({d['options']} options): loss "
                             f"{loss}", WIDTH)
        lines += wrap(f"played: {d['played']} ({100 * d['win_played']:.1f}%); best: "
                      f"{d['best']} ({100 * d['win_best']:.1f}%)", WIDTH, indent="    ")
    lines += [""] + wrap(
        f"{r['reviewed']} decisions reviewed: {r['as_best']} won as often as the best option; "
        f"{len(off)} less often, {len(clear)} of them beyond their interval (above, costliest "
        f"first) and {len(off) - len(clear)} by amounts their intervals hold (listed with "
        f"--json).", WIDTH)
    if r["result"]:
        res = r["result"]
        lines += wrap(f"result: scores {', '.join(map(str, res['totals']))}; "
                      f"winner{'s' if len(res['winners']) > 1 else ''} seat "
                      f"{' and '.join(map(str, res['winners']))}", WIDTH)
    lines.append(f"seasalt {r['version']}")
    return "\n".join(lines)
