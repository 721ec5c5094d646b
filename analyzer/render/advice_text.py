"""The advisor's answers as text (`seasalt advise`): one advice, a robust answer over several
models, an answer with hand reading. Each reads the answer's own fields (analyzer.play's Advice
and Robust, whose `to_dict()` is the JSON of the same answer)."""
from __future__ import annotations

from .text_tables import fit, join_words, pct_digits, rate_ci, short_spec, wrap, wrap_spec


def advice_text(result) -> str:
    """The text of any answer of the advisor (analyzer.play.advice_spec.run)."""
    if hasattr(result, "advices"):
        return format_robust(result)
    if "reading" in result.meta:
        return format_read(result)
    return format_advice(result)


def format_advice(a) -> str:
    """A readable table (at most 100 columns): one line per option, the best first; what does
    not fit beside the actions goes to a second table (analyzer.render.text_tables.fit)."""
    m = a.meta
    opts = [a.options[k] for k in m["ranking"]]

    def rates(key):
        d = pct_digits(v for o in opts if key in o for v in (o[key]["rate"], *o[key]["ci95"]))
        return [rate_ci(o[key]["rate"], *o[key]["ci95"], d) if key in o else "-" for o in opts]
    cols = [("P(win game)", ">", rates("win_game"))]
    if any(o.get("four_mermaids_you", {}).get("rate") for o in opts):
        cols.append(("P(4 mermaids)", ">", rates("four_mermaids_you")))
    cols.append(("margin", ">", [_pm(o["margin"]) for o in opts]))
    cols.append(("vs best", ">", [_vs(o["vs_best"], i == 0) for i, o in enumerate(opts)]))
    if any("win_bet" in o for o in opts):
        cols.append(("P(bet won)", ">", rates("win_bet")))
    cols.append(("your points", ">", [_pm(o["points"], sign=False) for o in opts]))
    cols.append(("best opponent", ">", [_pm(o["best_opponent_points"], sign=False) for o in opts]))
    lines = wrap(a.description)
    lines += wrap(f"{a.samples:,} sampled deals; you: {short_spec(m['me_policy'])}, opponents: "
                  f"{short_spec(m['opponent'])}")
    if m["game"]["new_game"]:
        lines += wrap(f"P(win game) {m['game']['words']}")
    else:
        g = m["game"]
        lines += wrap(f"P(win game) from the totals {', '.join(map(str, g['totals']))} to "
                      f"{g['target']}")
    bad = m["deals"]["impossible"]
    if bad:
        share = m["deals"]["impossible_share"]
        lines += wrap(f"{bad:,} of {m['deals']['raw']:,} raw deals ({100 * share:.{pct_digits([share])}f}%) "
                      "gave someone four mermaids, which the rules exclude, and were drawn again")
    lines += [""] + fit([("action", "<", [o["words"] for o in opts])], cols, indent="")
    lines += [""] + wrap(f"recommendation: {a.explanation}")
    lines.append(f"seed {m['seed']}, seasalt {m['version']}, {m['timing']['seconds']:.2f} s")
    if m.get("calibration"):
        lines += wrap(" ".join(m["calibration"]["words"]))
    return "\n".join(lines)


def _pm(v: dict, sign: bool = True) -> str:
    """A mean with the half-width of its (symmetric) 95% interval: +8.11 ±0.02."""
    half = (v["ci95"][1] - v["ci95"][0]) / 2
    return f"{v['mean']:{'+' if sign else ''}.2f} ±{half:.2f}"


def _vs(d: dict, best: bool) -> str:
    """A paired difference to the best action in P(win game), in percentage points, with its
    half-width."""
    if best:
        return "best"
    half = (d["ci95"][1] - d["ci95"][0]) / 2
    return f"{100 * d['mean']:+.1f} ±{100 * half:.1f}"


def format_robust(r) -> str:
    """The robust table (at most 100 columns): per model pair the best action, its P(win game)
    with its interval and its lead over the runner-up; then the verdict."""
    rows = r.rows
    d = pct_digits(v for x in rows for v in (x["win_game"]["rate"], *x["win_game"]["ci95"]))
    lead = []
    for x in rows:
        if "vs_runner_up" not in x:
            lead.append("-")
            continue
        v = x["vs_runner_up"]
        half = (v["ci95"][1] - v["ci95"][0]) / 2
        lead.append(f"{-100 * v['mean']:+.1f} ±{100 * half:.1f}")
    keys = [("you", "<", [short_spec(x["me"]) for x in rows]),
            ("opponents", "<", [short_spec(x["opponent"]) for x in rows])]
    cols = [("best action", "<", [x["words"] for x in rows]),
            ("P(win game)", ">", [rate_ci(x["win_game"]["rate"], *x["win_game"]["ci95"], d)
                                  for x in rows]),
            ("vs next", ">", lead),
            ("next", "<", [x.get("runner_up_words", "-") for x in rows])]
    first = r.advices[0].meta
    n = r.meta["samples"]
    lines = wrap(r.description)
    lines += wrap(f"{join_words([f'{x:,}' for x in sorted(set(n))])} sampled deals per model, the "
                  f"same deals for every model (seed {r.meta['seed']})")
    game = first["game"]
    lines += wrap(f"P(win game) {game['words']}" if game["new_game"] else
                  f"P(win game) from the totals {', '.join(map(str, game['totals']))} to "
                  f"{game['target']}")
    lines += [""] + fit(keys, cols, indent="")
    lines += [""] + wrap(f"verdict: {r.verdict}")
    lines += wrap("vs next: the best action's P(win game) minus the runner-up's (next), in points "
                  "of %, with its 95% half-width")
    lines.append(f"seed {r.meta['seed']}, seasalt {r.meta['version']}, "
                 f"{sum(a.meta['timing']['seconds'] for a in r.advices):.2f} s")
    return "\n".join(lines)


def _rate(r: dict) -> str:
    return f"{100 * r['rate']:.1f}% [{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}]"


def fit_line(f: dict) -> str:
    """One opponent's model fit (analyzer.play.reading.model_fit) in a line."""
    models = " · ".join(f"{m['model'].split('(')[0]} {100 * m['share']:.0f}% "
                        f"[{100 * m['ci95'][0]:.0f}, {100 * m['ci95'][1]:.0f}]"
                        for m in f["models"])
    return "\n".join(wrap(f"seat {f['seat']}'s choices read as: {models}"))


def format_read(a) -> str:
    """The verdict with reading, the verdict without, and the effective sample size."""
    r = a.meta["reading"]
    w = r["without"]
    head = wrap_spec("reading the opponents as ", r["model"])
    head[-1] += (f" (tremble {r['tremble']}): {r['observations']} opponent "
                 f"turn{'s' if r['observations'] != 1 else ''} read; effective sample size "
                 f"{r['ess']:,.0f} of {r['samples']:,} deals")
    lines = [*head[:-1], *wrap(head[-1]), *map(fit_line, r["fit"]), "",
             f"{'option':<28} {'P(win game), reading':>28} {'without reading':>28}"]
    for k in a.meta["ranking"]:
        g = a.options[k]["win_game"]
        u = w["win_game"][k]
        lines.append(f"{a.options[k]['words'][:28]:<28} {_rate(g):>28} {_rate(u):>28}")
    lines += ["", f"with reading:    {a.recommendation} ({a.reason})",
              f"without reading: {w['recommendation']} ({w['reason']})"]
    if r["flips"]:
        lines.append("reading the opponents changes the verdict")
    lines.append(f"seed {a.meta['seed']}, {a.meta['timing']['seconds']:.2f} s")
    return "\n".join(lines)
