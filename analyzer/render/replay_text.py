"""A replayed game's text (`seasalt replay`, and a Play game file's record): every round's
actions, a search seat's weighed options, the scores and who won. From the game's JSON-ready dict
alone (analyzer.play.replay)."""
from __future__ import annotations

from kernels import search as ksr


def winner_text(r: dict) -> str:
    totals, winners = r["totals"], r["winners"]
    last = r["rounds"][-1]
    if r["mermaid_win"]:
        return f"seat {winners[0]} wins at once with four mermaids (round {last['round']})"
    best = max(totals)
    tied = [q for q in range(r["players"]) if totals[q] == best]
    pts = {s["seat"]: s["points"] for s in last["scores"]}
    if len(winners) > 1:
        return (f"seats {' and '.join(map(str, winners))} share the win: {best} points each and "
                f"{pts[winners[0]]} points each in the final round")
    w = winners[0]
    if len(tied) > 1:
        others = ", ".join(f"seat {q} {pts[q]}" for q in tied if q != w)
        return (f"seat {w} wins: tied on {best} points, and the tie-break on final-round points "
                f"goes to seat {w} ({pts[w]} against {others})")
    return f"seat {w} wins with {best} points (target {r['target']})"


def format_replay(r: dict) -> str:
    n = r["players"]
    pols = r["policies"]
    lines = [f"seasalt replay: {n} players, seed {r['seed']} (stream {r['stream']}), "
             f"{r['expansion']} deck, game to {r['target']} points, seasalt {r['version']}"]
    for q in range(n):
        lines.append(f"  seat {q}: {pols[q]}")
    lines.append("  cards in [brackets] were seen only by the player who took them "
                 "(this replay shows everything)")
    for rd in r["rounds"]:
        lines.append("")
        piles = rd["opening_piles"]
        lines.append(f"ROUND {rd['round']}: seat {rd['starter']} starts; "
                     f"pile A {piles[0]}, pile B {piles[1]}; "
                     f"{rd['deck']} cards in the deck")
        scores = []
        weighed = {}
        for dec in rd.get("search_decisions", []):
            weighed.setdefault(dec["before_event"], []).append(dec)
        for i, e in enumerate(rd["events"]):
            searched = i in weighed             # its lines stand between this event and the last
            for dec in weighed.get(i, []):
                lines += _weighed_lines(dec)
            name, text = e["event"], e["text"]
            if not text:
                continue
            if name == "turn":
                lines.append(f"  {text}")
            elif name in ("round_end", "lock_off", "mermaid_win"):
                lines.append(f"  {text}")
            elif name == "score":           # scores come before round_end in the trace
                scores.append(f"    {text}")
            elif not searched and (name == "discard" or (
                    name in ("crab_take", "fish_draw", "steal", "lobster_keep", "lock_on")
                    and lines[-1].startswith("      "))):
                lines[-1] += ", " + text if name == "discard" else ": " + text
            else:
                lines.append(f"      {text}")
        lines += scores
        if rd["scores"]:
            lines.append("    totals: " + ", ".join(f"seat {q} {v}"
                                                   for q, v in enumerate(rd["totals"])))
    totals = ", ".join(f"seat {q} {v}" for q, v in enumerate(r["totals"]))
    played = "{} round{}".format(r["rounds_played"], "s" if r["rounds_played"] != 1 else "")
    if not r.get("over", True):         # a Play game file saved before the game ended
        lines += ["", f"GAME UNFINISHED: {played} finished, round {r['rounds'][-1]['round']} in "
                      f"play when the file was saved ({len(r['actions'])} actions of the user)",
                  f"  totals so far: {totals}"]
    elif not r["winners"]:
        lines += ["", f"GAME STOPPED after {played} without a winner", f"  final totals: {totals}"]
    else:
        lines += ["", f"GAME OVER after {played}: {winner_text(r)}", f"  final totals: {totals}"]
    return "\n".join(lines)


def _weighed_lines(dec: dict) -> list[str]:
    """A search seat's decision: every action it weighed with its estimated chance of winning
    the game (95% half-width), the chosen one marked >; a reading search says the effective
    sample size of its weighted deals."""
    deals = dec["options"][0]["deals"]
    out = [f"      seat {dec['seat']} searches ({dec['decision']}, {deals:,} deals; "
           f"estimated P(win game), 95%):"]
    if "ess" in dec:
        out.append(f"        (read: the deals drawn by weight from {ksr.READ_CANDIDATES * deals:,} "
                   f"candidates, effective sample size {dec['ess']:.1f})")
    for o in sorted(dec["options"], key=lambda o: -o["value"]):
        mark = ">" if o["chosen"] else " "
        note = "  (its rollout player's choice)" if o["rollout_choice"] else ""
        words = o["words"] if len(o["words"]) <= 44 else o["words"][:41] + "..."
        out.append(f"      {mark} {words:<44} {100 * o['value']:5.1f}% ± "
                   f"{196 * o['se']:4.1f}{note}")
    return out
