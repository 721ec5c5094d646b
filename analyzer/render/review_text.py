"""A review's text (`seasalt review`): the decisions' table within 100 columns, the costliest
decisions, where reading the hands changes the choice, and the luck and skill table; an action's
words made short. From the review's JSON-ready dict alone (analyzer.play.review)."""
from __future__ import annotations

from pathlib import Path

from ..rules.limits import DEFAULT_TARGETS
from .text_tables import WIDTH, points_ci, table, wrap

COMPACT = ((", the other onto pile ", ", discard on "), ("take pile A's top ", "take A's "),
           ("take pile B's top ", "take B's "), ("draw two from the deck", "draw from the deck"))


def compact(words: str) -> str:
    """An action's words made short (the review's table, the advice's one-line reason)."""
    for long, short in COMPACT:
        words = words.replace(long, short)
    return words


TERMS = ("start", "luck", "skill", "opponents", "residual")

WHAT = {"start": "before the first deal", "luck": "deals, draws, steals, reveals",
        "skill": "the seat's decisions vs its model",
        "opponents": "theirs vs their models", "residual": "estimation noise",
        "result": "1 won outright, else 0"}


def format_luck(r: dict, top: int = 3) -> list[str]:
    """A review's luck and skill (`r["luck"]`) as a table within 100 columns, and the biggest
    swings of luck."""
    d, q = r.get("luck"), r["seat"]
    if not d:
        return []
    counts = d["counts"]
    rows = [(k, d[k]) for k in TERMS[:-1]] + [("residual", d["residual"])]
    lines = [""] + wrap(f"seat {q}'s chance to win the game from before the deal to the result "
                        "(points of %; a referee's view: every hand known, not the deck's order; "
                        "docs/advisor.md, \"Luck and skill\"):")
    lines += table([
        ("term", "<", [k for k, _ in rows] + ["result"]),
        ("change", ">", [f"{100 * v['mean']:.1f}" if k == "start" else f"{100 * v['mean']:+.1f}"
                         for k, v in rows] + [f"{100 * d['result']:.0f}"]),
        ("95% interval", "<", [_interval(v, k != "start") for k, v in rows]
         + ["won" if d["result"] else "not won"]),
        ("events", ">", ["", str(counts["luck"]), str(counts["skill"]), str(counts["opponents"]),
                         "", ""]),
        ("what", "<", [WHAT[k] for k, _ in rows] + [WHAT["result"]])], indent="  ")
    swings = sorted((e for e in d["events"] if e["kind"] == "chance"),
                    key=lambda e: -abs(e["change"]))[:top]
    if swings:
        lines += wrap("biggest swings of luck: " + "; ".join(
            f"round {e['round']}, turn {e['turn']}, {e['words']} {100 * e['change']:+.1f}"
            for e in swings) + ".", indent="  ", hang="    ")
    return lines


def _interval(v: dict, sign: bool) -> str:
    f = "+.1f" if sign else ".1f"
    return f"[{100 * v['ci95'][0]:{f}}, {100 * v['ci95'][1]:{f}}]"


def _pct(r: dict) -> str:
    return f"{100 * r['rate']:.1f}%"


def _loss(d: dict) -> str:
    half = (d["ci95"][1] - d["ci95"][0]) / 2
    return f"{100 * d['mean']:+.1f} ±{100 * half:.1f}"


def format_review(r: dict) -> str:
    """The review as a table (at most 100 columns) and the costliest decisions."""
    q = r["seat"]
    lines = wrap(f"seasalt review: seat {q} of a {r['players']}-player game, seed {r['seed']}, "
                 f"{r['expansion']} deck, game to {r['target']} points, seasalt {r['version']}")
    for p, spec in enumerate(r["policies"]):
        lines += wrap(f"seat {p}: {spec}", indent="  ")
    played_on = "the players' own policies" + (
        "" if r.get("models", r["policies"]) == r["policies"] else
        " (a search seat's by the expert, distilled from it)")
    lines += wrap(f"Each decision: {r['samples']:,} sampled deals of what seat {q} could not see, "
                  f"every action continued by {played_on} and valued by the chance "
                  "to win the game; the advisor chooses on half of them, P(win) and the loss "
                  "(the advisor's choice's P(win) minus the choice made's, in points of %, with "
                  "its 95% half-width) are measured on the other half.")
    if r.get("reading"):
        lines += wrap("read: the P(win) of the choice made with the deals weighted by the round's "
                      "history (the opponents' hands read as below); P(win) deals the unseen "
                      "cards uniformly.")
    rows = r["decisions"]
    cols = [("round", ">", [str(x["round"]) for x in rows]),
            ("turn", ">", [str(x["turn"]) for x in rows]),
            ("decision", "<", [x["decision"] for x in rows]),
            ("choice", "<", [compact(x["chosen_words"]) for x in rows]),
            ("P(win)", ">", [_pct(x["win_game_chosen"]) for x in rows]),
            *([("read", ">", [_pct(x["reading"]["win_game_chosen"]) if "reading" in x else ""
                              for x in rows])] if r.get("reading") else []),
            ("advisor", "<", ["forced" if len(x["options"]) == 1 else "same"
                              if x["chosen"] == x["advisor"] else compact(x["advisor_words"])
                              for x in rows]),
            ("loss", ">", [_loss(x["loss"]) for x in rows])]
    if rows:
        lines += [""] + _fit_words(cols)
    else:
        lines += ["", f"seat {q} had no decision with two or more actions"]
    s = r["summary"]
    lines += [""]
    if s["costliest"]:
        lines.append(f"costliest decisions of seat {q}:")
        for k, i in enumerate(s["costliest"], 1):
            x = rows[i]
            lines += wrap(f"{k}. round {x['round']}, turn {x['turn']}, {x['decision']}: "
                          f"{x['chosen_words']} (P(win) {_pct(x['win_game_chosen'])}); "
                          "the advisor: "
                          f"{x['advisor_words']} ({_pct(x['win_game_advisor'])}); loss "
                          f"{_loss(x['loss'])}" + ("" if x["worse"] else
                                                   " (not distinguishable from 0)"),
                          hang="     ")
    lines += _reading_lines(r)
    t = s["total_loss"]
    lines += wrap(f"over {s['decisions']} decisions seat {q} chose as the advisor would in "
                  f"{s['same_as_advisor']}; {s['distinguishably_worse']} choices were "
                  f"distinguishably worse; the losses add up to {_loss(t)} points of P(win) "
                  f"(each measured from where the game stood): an error rate of "
                  f"{100 * s['error_rate']:+.2f} [{100 * s['error_rate_lo']:+.2f}, "
                  f"{100 * s['error_rate_hi']:+.2f}] points a decision with a choice "
                  f"({s['error_rate_decisions']}).")
    if r.get("scale"):
        lines += wrap(" ".join(r["scale"]["words"]), hang="    ")
    lines += format_luck(r)
    lines += wrap(f"game over after {r['rounds_played']} rounds"
                  + (" (four mermaids)" if r["mermaid_win"] else "") + ": totals "
                  + ", ".join(f"seat {p} {v}" for p, v in enumerate(r["totals"]))
                  + f"; `{r.get('replay') or replay_command(r)}` shows every action.")
    if r.get("calibration"):
        lines += wrap(" ".join(r["calibration"]["words"]))
    return "\n".join(lines)


def _reading_lines(r: dict) -> list[str]:
    """Where reading the opponents' hands changes the advisor's choice (review's `reading`)."""
    if r.get("reading") is None:
        return []
    rows, flips = r["decisions"], r["summary"]["reading_flips"]
    read = [x["reading"] for x in rows if "reading" in x]
    model = "as " + ("their own policies" if r["reading"]["model"] == "own"
                     else r["reading"]["model"])
    ess = sorted(x["ess"] for x in read)
    lines = wrap(f"reading the opponents' hands {model} (tremble {r['reading']['tremble']}; "
                 f"{sum(x['observations'] > 0 for x in read)} of {len(read)} decisions had a "
                 "choice to read; effective sample size from "
                 f"{ess[0] if ess else 0:,.0f} to {ess[-1] if ess else 0:,.0f} of "
                 f"{read[0]['samples'] if read else 0:,}) changes the advisor's choice at "
                 f"{len(flips)} of {len(rows)} decisions" + (":" if flips else "."))
    for i in flips:
        x = rows[i]
        lines += wrap(f"round {x['round']}, turn {x['turn']}, {x['decision']}: "
                      f"{x['reading']['advisor_words']} "
                      f"({_pct(x['reading']['win_game_advisor'])} weighted) instead of "
                      f"{x['advisor_words']}" + ("" if x["reading"]["distinguishable"] else
                                                 " (the weighted runner-up within its interval)")
                      + f"; effective sample size {x['reading']['ess']:,.0f}",
                      indent="  ", hang="    ")
    return lines


def replay_command(r: dict) -> str:
    """The `seasalt replay` command line of the reviewed game."""
    from ..rules.policies import short_spec
    specs = [short_spec(p) for p in r["policies"]]
    cmd = f"seasalt replay --seed {r['seed']} -p {r['players']}"
    if set(specs) != {"baseline"}:
        cmd += "".join(f" --policy '{p}'" if "(" in p else f" --policy {p}"
                       for p in (specs[:1] if len(set(specs)) == 1 else specs))
    if r["expansion"] != "base":
        cmd += f" --expansion {r['expansion']}"
    if r["target"] != DEFAULT_TARGETS[r["players"]]:
        cmd += f" --target {r['target']}"
    return cmd


def _wrap_clauses(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width`, broken after a comma where it can be (so "discard on
    A" stays whole), the lines after the first indented by two."""
    import textwrap
    lines: list[str] = []
    clauses = text.split(", ")
    for i, clause in enumerate(clauses):
        prefix = "  " if lines else ""
        room = width - (i < len(clauses) - 1)      # a comma may follow it on its line
        if lines and len(lines[-1]) + 2 + len(clause) <= room:
            lines[-1] += ", " + clause
        elif len(prefix + clause) <= room:
            if lines:
                lines[-1] += ","
            lines.append(prefix + clause)
        else:
            if lines:
                lines[-1] += ","
            lines += textwrap.wrap(clause, room, initial_indent=prefix, subsequent_indent="  ",
                                   break_on_hyphens=False)
    return lines


def _clause_width(text: str) -> int:
    """The widest clause of `text` with its comma: the narrowest column that breaks none."""
    clauses = text.split(", ")
    return max(len(x) + (i < len(clauses) - 1) for i, x in enumerate(clauses))


def _fit_words(cols: list[tuple]) -> list[str]:
    """The table within WIDTH columns: the two word columns (choice, advisor) share what the
    others leave; a longer text goes on under itself (indented), never cut, so the pile a card
    goes to is always shown."""
    widths = [max(len(h), *(len(c) for c in cells)) for h, _, cells in cols]
    names = [h for h, _, _ in cols]
    c, a = names.index("choice"), names.index("advisor")
    room = max(20, WIDTH - sum(w for i, w in enumerate(widths) if i not in (c, a))
               - 2 * (len(cols) - 1))
    first = min(widths[c], room // 2)
    limit = {c: first, a: min(widths[a], room - first)}
    need = {i: max(_clause_width(t) for t in cols[i][2]) for i in (c, a)}
    for i, j in ((c, a), (a, c)):        # room from the other column, so no clause is broken
        give = min(max(0, need[i] - limit[i]), max(0, limit[j] - need[j]),
                   widths[i] - limit[i])
        limit[i], limit[j] = limit[i] + give, limit[j] - give
    nrows = len(cols[0][2])
    expanded: list[list[str]] = [[] for _ in cols]
    for row in range(nrows):
        parts = {}
        for i, (_, _, cells) in enumerate(cols):
            text = cells[row]
            parts[i] = ([text] if i not in limit or len(text) <= limit[i] else
                        _wrap_clauses(text, limit[i]))
        height = max(len(v) for v in parts.values())
        for i in range(len(cols)):
            expanded[i] += parts[i] + [""] * (height - len(parts[i]))
    return table([(h, align, expanded[i]) for i, (h, align, _) in enumerate(cols)], indent="")


def _est(g: dict, key: str) -> dict:
    return {"mean": g[key], "ci95": [g[key + "_lo"], g[key + "_hi"]]}


def _pts(d: dict, digits: int = 2) -> str:
    return points_ci(d["mean"], *d["ci95"], digits)


def format_many(c: dict) -> str:
    """The games together as text within 100 columns: a line per game, the decision kinds by
    what they cost, the error rate's trend, the luck and skill over the games."""
    gs = c["games"]
    lines = wrap(f"seasalt review: {len(gs)} game{'s' * (len(gs) != 1)}, {c['samples']:,} "
                 "sampled deals per decision, "
                 f"seasalt {c['version']}; points of P(win game), 95% intervals")
    lines += wrap("games: " + "; ".join(f"{i} {Path(g['file']).name} (seed {g['seed']})"
                                        for i, g in enumerate(gs, 1)), hang="    ")
    lines += [""] + table([
        ("game", ">", [str(i) for i in range(1, len(gs) + 1)]),
        ("decisions", ">", [str(g["decisions"]) for g in gs]),
        ("error rate", "<", [_pts(_est(g, "error_rate")) for g in gs]),
        ("luck", "<", [_pts(_est(g, "luck"), 1) if "luck" in g else "-" for g in gs]),
        ("skill", "<", [_pts(_est(g, "skill"), 1) if "luck" in g else "-" for g in gs]),
        ("result", "<", [("won" if g["result"] else "not won") if "luck" in g else "not over"
                         for g in gs])], indent="")
    e = c["error_rate"]
    lines += [""] + wrap(f"error rate over the {e['n']:,} decisions with a choice: {_pts(e)} "
                         "points a decision (the mean loss against the advisor's choice).")
    if c.get("scale"):
        lines += wrap("On " + " ".join(c["scale"]["words"]), hang="    ")
    t = c["trend"]
    if t is not None:
        lo, hi = t["ci95"]
        way = ("falling" if hi < 0 else "rising" if lo > 0 else
               "no trend distinguishable at this precision")
        lines += wrap(f"from game to game: {way} ({100 * t['slope']:+.3f} [{100 * lo:+.3f}, "
                      f"{100 * hi:+.3f}] points a decision per game, {t['games']} games).")
    lines += [""] + table([
        ("decision", "<", [k["decision"] for k in c["kinds"]]),
        ("decisions", ">", [str(k["decisions"]) for k in c["kinds"]]),
        ("loss in all", ">", [f"{100 * k['total_loss']:+.1f}" for k in c["kinds"]]),
        ("loss a decision", "<", [_pts(k["mean_loss"]) for k in c["kinds"]])], indent="")
    ls = c["luck_and_skill"]
    n = ls["luck"]["n"]
    if n:
        won = round(ls["result"]["mean"] * n)
        lines += [""] + wrap(f"over the {n} finished games, a game's mean (docs/advisor.md, "
                             "\"Luck and skill\"): " + "; ".join(
                                 f"{k} {_pts(ls[k], 1)}" for k in TERMS[:-1])
                             + f"; won {won} of {n}.")
    return "\n".join(lines)
