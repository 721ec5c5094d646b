"""The guide's sections, one per question players ask, each from its study's frame
(analyzer.studies.guide): a chart (reports.registry), the table of its numbers and its CSV, and
sentences from reports.captions, which never call an estimate best when its interval overlaps
another's. analyzer.studies.guide_pages puts them on the page."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import pandas as pd

from reports import captions as cap
from reports.registry import STUDY, write_files
from reports.guide_html import Figure, Section, Table

from . import guide as g
from ..render.text_tables import points_ci
from ..rules.policies import parse_policy, short_spec
from ..rules.tuned import TUNED

Log = Callable[[str], None] | None


def pct(x: float, d: int = 1) -> str:
    return f"{100 * x:.{d}f}%"


def rate(r, key: str = "win_rate", d: int = 1) -> str:
    return f"{100 * r[key]:.{d}f}% [{100 * r[key + '_lo']:.{d}f}, {100 * r[key + '_hi']:.{d}f}]"


def num(r, key: str, d: int = 2) -> str:
    return f"{r[key]:+.{d}f} [{r[key + '_lo']:+.{d}f}, {r[key + '_hi']:+.{d}f}]"


def points(r, key: str) -> str:
    """A change of P(win) in points of %, with its interval."""
    return points_ci(r[key], r[key + "_lo"], r[key + "_hi"])


def spread(r) -> str:
    """A game's luck spread in points, with its interval."""
    return f"{100 * r.luck_sd:.0f} [{100 * r.luck_sd_lo:.0f}, {100 * r.luck_sd_hi:.0f}]"


def est(r, label: str, key: str = "win_rate") -> cap.Estimate:
    return cap.Estimate(label, float(r[key]), float(r[key + "_lo"]), float(r[key + "_hi"]))


def lc_label(lc) -> str:
    return "never" if int(lc) == g.NEVER else str(int(lc))


class Writer:
    """Saves each chart (PNG + SVG) and each table (CSV) into the guide's directory."""

    def __init__(self, where: Path, log: Log):
        self.where = where
        self.log = log
        (where / "data").mkdir(exist_ok=True)

    def figure(self, name: str, frames, caption: str, table: Table) -> Figure:
        """Chart `name` of the registry (reports.registry.STUDY), drawn from `frames` (a frame,
        or a tuple of them), its files written; under its registered title on the page."""
        spec = STUDY[name]
        fig = spec.draw(*frames) if isinstance(frames, tuple) else spec.draw(frames)
        png, svg = write_files(fig, self.where, name, dpi=130)
        if self.log:
            self.log(f"chart {name}: {caption}")
        return Figure(name, spec.title, caption, table, png, svg)

    def data(self, name: str, df: pd.DataFrame) -> str:
        path = f"data/{name}.csv"
        df.to_csv(self.where / path, index=False)
        return path


# ---------------------------------------------------------------------------------------------
# sections

def grid_section(w: Writer, f: dict) -> Section:
    figures, findings = [], []
    for name, title, against in (("grid", "Against baseline opponents", "baseline"),
                                 ("grid_tuned", "Against tuned opponents", "tuned"),
                                 ("grid_extra", "Extra Salt, against baseline opponents",
                                  "baseline")):
        df = f[name]
        csv = w.data(name, df)
        words = []
        for p, gp in df.groupby("players", sort=True):
            ests = [est(r, f"({int(r.stop_at)}, {lc_label(r.last_chance_at)})")
                    for _, r in gp.iterrows()]
            words.append(cap.rank(ests, "win rate", subject=f"{p} players, (stop_at, "
                                                            f"last_chance_at)"))
        findings += [f"{title}: {x}" for x in words]
        never16 = df.assign(last_chance_at=df["last_chance_at"].where(
            df["last_chance_at"] != g.NEVER, 16))
        figures.append(w.figure(f"{name}_heatmap", never16, " ".join(words),
                                _grid_table(df, csv)))
    return Section("stop", "When to STOP and when to call LAST CHANCE", [
        "One seat plays threshold(stop_at=S, last_chance_at=L): it declares as soon as it has S "
        "card points, and the declaration is a LAST CHANCE when it has L points or more (L at or "
        "below S: every declaration is a LAST CHANCE; never: always STOP). The other seats play "
        "the opponents named; seats are rotated so nobody gains from sitting first. The "
        "baseline itself is (7, 10). Cells outlined in the chart, shaded in the table, are tied "
        "with the best cell at this precision (their 95% intervals overlap).",
    ], findings, figures)


def _grid_table(df: pd.DataFrame, csv: str) -> Table:
    rows, marked = [], set()
    lcs = sorted(df["last_chance_at"].unique())
    headers = ["players", "stop_at"] + [f"L={lc_label(x)}" for x in lcs]
    for p, gp in df.groupby("players", sort=True):
        top = gp.loc[gp["win_rate"].idxmax()]
        for s, gs in gp.groupby("stop_at", sort=True):
            row = [str(p), str(int(s))]
            for j, lc in enumerate(lcs):
                cell = gs[gs["last_chance_at"] == lc]
                if cell.empty:
                    row.append("")
                    continue
                r = cell.iloc[0]
                row.append(rate(r))
                if r["win_rate_hi"] >= top["win_rate_lo"]:
                    marked.add((len(rows), j + 2))
            rows.append(row)
    return Table(headers, rows, "win rate of the one seat [95% interval]; shaded: tied with the "
                 "best cell of its player count", (0,), marked, csv)


def last_chance_section(w: Writer, f: dict) -> Section:
    bins = f["last_chance_bins"]
    csv = w.data("last_chance_by_points", bins)
    words = []
    for p, gp in bins.groupby("players", sort=True):
        worst = gp.loc[gp["success"].idxmin()]
        best = gp.loc[gp["success"].idxmax()]
        words.append(f"{p} players: from {rate(worst, 'success')} at {worst['points']} points "
                     f"to {rate(best, 'success')} at {best['points']}")
    table = Table(["players", "caller's points", "calls", "won", "success [95%]"],
                  [[str(r.players), r.points, f"{r.calls:,}", f"{r.won:,}",
                    rate(r, "success")] for _, r in bins.iterrows()],
                  f"every seat plays {g.T77} (LAST CHANCE as soon as it has 7 points); point "
                  f"totals with fewer calls than the bin minimum are merged into their "
                  f"neighbours", (1,), set(), csv)
    fig1 = w.figure("last_chance_points", bins, "; ".join(words) + ".", table)
    grid = f["grid"]
    row7 = grid[(grid["stop_at"] == 7) & (grid["last_chance_at"] != g.NEVER)].copy()
    csv2 = w.data("last_chance_by_threshold", row7)
    words2 = []
    for p, gp in row7.groupby("players", sort=True):
        ests = [est(r, str(int(r.last_chance_at))) for _, r in gp.iterrows()]
        words2.append(cap.rank(ests, "win rate", subject=f"{p} players, last_chance_at"))
    table2 = Table(["players", "last_chance_at", "calls per round [95%]",
                    "calls won [95%]", "win rate [95%]"],
                   [[str(r["players"]), str(int(r["last_chance_at"])),
                     rate(r, "last_chance_per_round"), rate(r, "last_chance_success"),
                     rate(r)] for _, r in row7.iterrows()],
                   "from the grid study (stop_at = 7 row)", (), set(), csv2)
    fig2 = w.figure("last_chance_threshold", row7, " ".join(words2), table2)
    return Section("last-chance", "When LAST CHANCE pays, and at what point levels", [
        "A LAST CHANCE call is won when no opponent ends with more card points after their "
        "final turns; the caller then adds the colour bonus. Here every seat calls it as soon "
        "as it can (7 points), so calls at every level from 7 are seen. Hollow points are "
        "merged bins that still have few calls.",
    ], [], [fig1, fig2])


def tuned_section(w: Writer, f: dict) -> Section:
    m = f["matchups"]
    csv = w.data("matchups", m)
    findings, rows = [], []
    for p, gp in m.groupby("players", sort=True):
        for _, r in gp.iterrows():
            rr = r
            findings.append(cap.versus(est(rr, f"{p} players, {r.player} against "
                                                f"{r.against}"), 1 / p, "win rate",
                                       "the fair share"))
            rows.append([str(p), r.player, r.against, f"{r.games:,}", rate(rr),
                         pct(1 / p)])
    table = Table(["players", "one seat", "the other seats", "games", "win rate [95%]", "fair"],
                  rows, "seats rotated; seeds of this guide, never used by the optimizer",
                  (1, 2), set(), csv)
    fig1 = w.figure("tuned_matchups", m, "; ".join(findings) + ".", table)
    specs = []
    for p in g.PLAYERS:
        t = TUNED[p]
        specs.append([f"tuned{p}", short_spec(parse_policy(f"tuned{p}").spec), t.command,
                      f"{t.games:,}", f"{t.seconds:.0f} s", t.finding])
    spec_table = Table(["name", "spec (knobs not shown are the baseline's)", "found by",
                        "games", "wall time", "how it differs from the baseline"], specs,
                       "`tuned` picks tuned2, tuned3 or tuned4 by the player count; wall times "
                       "on the shared 2-core machine", (0, 1, 2, 5))
    return Section("tuned", "Tuned players: what is good against baseline and against "
                   "good players", [
                       "The tuned players were found by seasalt optimize (a noisy "
                       "cross-entropy search over every knob of the threshold player, common "
                       "random numbers within a generation, the pick measured on held-out "
                       "seeds). Here they are measured again on this guide's own seeds.",
                   ], findings, [fig1], [spec_table])


def ibr_section(w: Writer, f: dict, ibr: dict) -> Section:
    trace, held = f["ibr_trace"], f["ibr"]
    csv = w.data("ibr_heldout", held)
    w.data("ibr_trace", trace)
    rows, words = [], []
    for s in ibr["searches"]:
        prev = next((r for r in s["against"] if r["member"] == s["start"]), None)
        rows.append([str(s["iteration"] + 1), short_spec(s["start"]), s["pick_short"],
                     rate(prev) if prev else ""])
    st = ibr["settled"] or {"settled": False, "how": "one search only"}
    if st["settled"]:
        words.append(f"Settled at search {st['at'] + 1}: its pick {st['how']}; the policy "
                     f"{short_spec(st['policy'])} is a best response to itself within this "
                     f"family, at this precision and budget.")
    else:
        words.append(f"Not settled within {len(ibr['searches'])} searches: {st['how']}.")
    table = Table(["search", "against (previous pick)", "pick", "pick's win rate against it "
                   "[95%], held out"], rows, "2 players; each search starts from the previous "
                   "pick", (1, 2), set(), csv)
    return Section("ibr", "Iterated best response: toward an equilibrium of the family", [
        "Search 1 finds the best response to the baseline's play; search k the best response "
        "to the pick of search k-1, each from where the previous one ended. If a pick no "
        "longer beats its predecessor beyond the 95% interval, the sequence has settled.",
    ], words, [w.figure("ibr_trace", (trace, held), words[0], table)])


def values_section(w: Writer, f: dict) -> Section:
    figs, findings = [], []
    mer = f["mermaids"]
    csv = w.data("mermaid_values", mer)
    for _, r in mer.iterrows():
        rr = r
        findings.append(cap.difference(est(rr, f"{r.players} players, mermaid #{r.given + 1}",
                                            "win_rate_diff"), "P(win the game)", percent=True))
    rows = [[str(r.players), str(r.given + 1), f"{r.pairs:,}", num(r,
            "round_points_diff"), rate(r, "win_rate_diff", 1),
             rate(r, "win_rate_a"), rate(r, "win_rate_b")]
            for _, r in mer.iterrows()]
    headers = ["players", "mermaid #", "pairs", "round points (A - B) [95%]",
               "P(win) (A - B) [95%]", "P(win) with it", "P(win) without it"]
    figs.append(w.figure("mermaid_values", mer, "; ".join(findings) + ".", Table(headers, rows, "A: the seat starts the round "
                                             "with this mermaid; B: it stays in the deck", (),
                                             set(), csv)))
    for name in ("cards", "cards_extra"):
        df = f[name]
        csv = w.data(f"card_values_{'base' if name == 'cards' else 'extra_salt'}", df)
        words = []
        for p, gp in df.groupby("players", sort=True):
            ests = [est(r, r.kind, "win_rate_diff") for _, r in gp.iterrows()]
            words.append(cap.rank(ests, "added chance to win", subject=f"{p} players",
                                  fmt=lambda e: f"{100 * e.value:+.1f} pp [{100 * e.lo:+.1f}, "
                                                f"{100 * e.hi:+.1f}]"))
        rows = [[r.kind, str(r.players), f"{r.pairs:,}", f"{r.skipped:,}",
                 num(r, "round_points_diff"), rate(r, "win_rate_diff")]
                for _, r in df.iterrows()]
        figs.append(w.figure(name, df, " ".join(words),
            Table(["kind", "players", "pairs", "skipped", "round points (A - B) [95%]",
                   "P(win) (A - B) [95%]"], rows, "skipped: deals in which every copy was "
                   "already a pile top", (0,), set(), csv)))
    return Section("values", "What a mermaid and every other card are worth", [
        "Paired experiments: the same deal is played twice. In A the treated seat starts the "
        "round with one card of the kind in hand, taken from the deck; in B that card stays "
        "where it was in the deck. Everything else (the order of the other cards, the players' "
        "rules, the deals of the rest of the game) is the same, so A - B is the card's value: "
        "in round points and in the chance to win the whole game. Every seat plays baseline; "
        "the treated seat takes each seat in turn. The m-th mermaid: both arms start with "
        "m - 1 mermaids.",
    ], [x for x in findings if "mermaid #1" in x], figs)


def pairs_section(w: Writer, f: dict) -> Section:
    figs = []
    findings = []
    for name in ("pairs", "pairs_extra"):
        df = f[name]
        csv = w.data(f"pair_values_{'base' if name == 'pairs' else 'extra_salt'}", df)
        mine = []
        for (label, p), gp in df.groupby(["label", "players"], sort=False):
            ests = [est(r, f"against {r.against}", "win_rate_diff") for _, r in gp.iterrows()]
            said = "; ".join(cap.difference(e, "P(win the game)", percent=True) for e in ests)
            mine.append(f"{p} players, playing {label} pairs: {said}{fields_apart(ests)}")
        findings += mine
        rows = [[r.label, str(r.players), r.against, f"{r.pairs:,}", num(r,
                 "round_points_diff"), rate(r, "win_rate_diff"),
                 rate(r, "win_rate_a"), rate(r, "win_rate_b")]
                for _, r in df.iterrows()]
        figs.append(w.figure(name, df, "; ".join(mine) + ".",
            Table(["pair", "players", "against", "pairs", "round-1 points (play - hold) [95%]",
                   "P(win) (play - hold) [95%]", "P(win), playing", "P(win), holding"],
                  rows, "", (0, 2), set(), csv)))
    return Section("pairs", "Play a pair now, or keep it hidden?", [
        "A pair played at once does its effect and shows everyone its point; kept in hand it "
        "keeps its point hidden until the round ends. The treated seat plays the baseline "
        "(every pair played when it can be) in arm A, and the same player that holds that pair "
        "kind in arm B, on the same deals; in the base game against baseline opponents and "
        "against the expert (the player distilled from the search player), with Extra Salt "
        "against baseline opponents.",
    ], [], figs)


def void_section(w: Writer, f: dict) -> Section:
    df = f["void"]
    csv = w.data("void_rounds", df)
    words = []
    for p, gp in df.groupby("players", sort=True):
        first = gp[gp["void_rate_lo"] > 0.001]
        at = (f"void rounds pass 0.1% of rounds from stop_at {int(first['stop_at'].min())}"
              if not first.empty else "void rounds stay below 0.1% of rounds at every threshold")
        top = gp.loc[gp["stop_at"].idxmax()]
        words.append(f"{p} players: {at}; {rate(top, 'void_rate', 2)} when every seat waits "
                     f"for {int(top['stop_at'])}")
    table = Table(["players", "stop_at of every seat", "rounds", "void", "void rate [95%]"],
                  [[str(r.players), str(r.stop_at), f"{r.rounds:,}", f"{r.void:,}",
                    rate(r, "void_rate", 3)] for _, r in df.iterrows()], "", (),
                  set(), csv)
    return Section("void", "Void rounds: where they happen", [
        "A round is void when the deck runs out before anyone declares: nobody scores. Baseline "
        "players declare at 7, so they almost never see one; here every seat waits for the "
        "same number of points, which is where void rounds appear.",
    ], words, [w.figure("void_rounds", df, "; ".join(words) + ".", table)])


def seats_section(w: Writer, f: dict) -> Section:
    figs, findings = [], []
    for name, title in (("seats", "base game"), ("seats_extra", "Extra Salt")):
        df = f[name]
        csv = w.data(name, df)
        mine = [cap.versus(est(r, f"{r.players} players, {r.player} ({title}), first seat"),
                           1 / r.players, "win rate", "the fair share")
                for _, r in df[df["seat"] == 0].iterrows()]
        findings += mine
        figs.append(w.figure(name, df, "; ".join(mine) + ".",
            Table(["players", "player", "seat", "games", "win rate [95%]", "fair"],
                  [[str(r.players), r.player, str(r.seat), f"{r.games:,}",
                    rate(r), pct(r.fair_share)] for _, r in df.iterrows()],
                  "", (1,), set(), csv)))
    return Section("seats", "What sitting first is worth", [
        "Every seat plays the same player; seat 0 starts round 1 (later rounds are started by "
        "the player after the one who ended the previous round, docs/rules.md, \"A game\"). Any "
        "difference "
        "from the fair share is the seat's own edge.",
    ], findings, figs)


# The sections of the players' choices (guide.CHOICES): question -> (id, title, what it asks).
CHOICE_SECTIONS = {
    "draw": ("draw-or-take", "Draw two or take a known card, and which card to give away",
             "Taking the top of a discard pile is a known card; drawing two from the deck keeps "
             "the better one and puts the other on a pile for the next player. The baseline "
             "takes a top whose gain reaches 1 point and puts the card it does not keep on the "
             "smaller pile; the choices here take less or more often, or put that card on the "
             "pile with the better top, covering it from the next player (denial)."),
    "steal": ("steal", "Whom to steal from with a swimmer and a shark",
              "A swimmer and a shark steal a random card from an opponent's hand "
              "(docs/rules.md, \"Pair effects\"). The baseline steals from the opponent with "
              "the most cards; "
              "with 3 and 4 players the choice can also be the best visible table or the next "
              "player."),
    "colour": ("colour", "Which colour to collect, and mermaids",
               "The colour bonus is a player's largest colour count, scored when a LAST "
               "CHANCE is called (docs/rules.md, \"Ending a round\"); m mermaids score the m "
               "largest colour counts (\"Scoring: card points\"). The choices value a card of "
               "the largest colour, or a mermaid, a little more than the baseline does when "
               "choosing a card."),
}


def fields_apart(ests: list[cap.Estimate]) -> str:
    """Where the two fields' intervals do not overlap: whether they disagree (one finds an
    effect the other does not, or the opposite one) or agree on a larger effect in one."""
    if len(ests) != 2 or cap.overlap(*ests):
        return ""
    side = [1 if e.lo > 0 else -1 if e.hi < 0 else 0 for e in ests]
    if side[0] == side[1]:
        big = max(ests, key=lambda e: abs(e.value))
        return f" (a larger effect {big.label} at this precision)"
    return " (the two fields disagree at this precision)"


def choice_section(w: Writer, f: dict, question: str) -> Section:
    """One question of guide.CHOICES: each choice's paired difference in P(win the game)
    against baseline and against expert opponents, and where the two fields disagree."""
    sid, title, intro = CHOICE_SECTIONS[question]
    df = f["choices"][f["choices"]["question"] == question]
    csv = w.data(f"choices_{question}", df)
    words = []
    for (label, p), gp in df.groupby(["label", "players"], sort=False):
        ests = {r.against: est(r, f"against {r.against}", "win_rate_diff")
                for _, r in gp.iterrows()}
        said = "; ".join(cap.difference(e, "P(win)", percent=True) for e in ests.values())
        words.append(f"{p} players, {label}: {said}{fields_apart(list(ests.values()))}")
    table = Table(["choice", "players", "against", "pairs", "P(win) (choice - baseline) [95%]",
                   "P(win), choice", "P(win), baseline"],
                  [[r.label, str(r.players), r.against, f"{r.pairs:,}",
                    rate(r, "win_rate_diff"), rate(r, "win_rate_a"), rate(r, "win_rate_b")]
                   for _, r in df.iterrows()], "", (0, 2), set(), csv)
    return Section(sid, title, [
        intro, "Each choice is a paired experiment: one seat makes it in arm A and plays the "
        "baseline's decisions in arm B, on the same deals, against baseline opponents and "
        "against the expert (the player distilled from the search player, docs/players.md); "
        "the figure is the change in that seat's chance to win the game.",
    ], words, [w.figure(f"choices_{question}", df, "; ".join(words) + ".", table)])


def _endings_words(players: int, gp: pd.DataFrame) -> str:
    """Which fields end more than half of their rounds with LAST CHANCE, which fewer, and which
    cannot be told from half at this precision (each with its interval)."""
    def named(rows) -> str:
        return cap.join_words([f"{r.field} ({rate(r, 'last_chance_rate')})" for r in rows])
    rows = [r for _, r in gp.iterrows()]
    more = [r for r in rows if r.last_chance_rate_lo > 0.5]
    fewer = [r for r in rows if r.last_chance_rate_hi < 0.5]
    tied = [r for r in rows if r.last_chance_rate_lo <= 0.5 <= r.last_chance_rate_hi]
    said = ([f"LAST CHANCE ends more than half of the rounds of {named(more)}"] if more else []) \
        + ([f"fewer than half of those of {named(fewer)}"] if fewer else []) \
        + ([f"{named(tied)}: not distinguishable from half at this precision"] if tied else [])
    return f"{players} players: " + "; ".join(said)


def endings_section(w: Writer, f: dict) -> Section:
    df = f["endings"]
    csv = w.data("endings", df)
    words = [_endings_words(p, gp) for p, gp in df.groupby("players", sort=True)]
    words += [f"{r.players} players, {r.field}: {rate(r, 'void_rate')} of the rounds are void "
              f"(the deck runs out before anyone declares)"
              for _, r in df[df["void_rate_lo"] > 0.01].iterrows()]
    table = Table(["players", "every seat", "rounds", "STOP [95%]", "LAST CHANCE [95%]",
                   "LAST CHANCE lost", "void", "four mermaids"],
                  [[str(r.players), r.field, f"{r.rounds:,}", rate(r, "stop_rate"),
                    rate(r, "last_chance_rate"), rate(r, "last_chance_lost_rate"),
                    rate(r, "void_rate"), rate(r, "mermaids_rate")]
                   for _, r in df.iterrows()], "", (1,), set(), csv)
    return Section("endings", "Is STOP the normal ending?", [
        "The common advice is to end a round as soon as you can, with STOP. Here every seat "
        "plays the same player and each round is dealt afresh (every seat at 0 points); the "
        "table counts how the rounds end. The expert is the player distilled from the search "
        "player (docs/players.md); search(64) looks 64 sampled deals ahead at each decision "
        "and beats the baseline nine games in ten. LAST CHANCE counts calls won and lost; a "
        "lost call still ends the round.",
    ], words, [w.figure("endings_last_chance", df, "; ".join(words) + ".", table)])


def luck_figures(df: pd.DataFrame) -> pd.DataFrame:
    """The luck study's two figures by player count, long (figure, players, value, interval),
    for the chart."""
    rows = []
    for _, r in df.iterrows():
        for short, key in (("the cards' share of the swings", "luck_share"),
                           ("the expert's decisions, a game", "skill")):
            rows.append({"short": short, "players": int(r.players), "value": r[key],
                         "value_lo": r[f"{key}_lo"], "value_hi": r[f"{key}_hi"]})
    return pd.DataFrame(rows)


def _luck_words(r) -> str:
    """One player count's answer: the luck share, the edge (or that it cannot be told from 0),
    the spread of a game's luck."""
    edge = (f"its decisions add {points(r, 'skill')} points to its chance to win a game"
            if r.skill_lo > 0 else
            f"what its decisions add ({points(r, 'skill')} points a game) is not "
            f"distinguishable from 0 at this precision")
    return (f"{r.players} players: the cards make {rate(r, 'luck_share')} of what moves "
            f"{r.player}'s chance to win during a game among baseline players; {edge}, while "
            f"the cards swing a game by {spread(r)} points (standard deviation)")


def luck_section(w: Writer, f: dict) -> Section:
    df = f["luck"]
    csv = w.data("luck", df)
    words = [_luck_words(r) for _, r in df.iterrows()]
    by = {int(r.players): r for _, r in df.iterrows()}
    two, four = by.get(2), by.get(4)
    if two is not None and four is not None:
        words.append("the cards' share is " + (
            "larger with 4 players than with 2" if four.luck_share_lo > two.luck_share_hi else
            "smaller with 4 players than with 2" if four.luck_share_hi < two.luck_share_lo else
            "not distinguishable between 2 and 4 players at this precision"))
    table = Table(["players", "player", "games", "cards' share [95%]", "edge a game [95%]",
                   "luck's spread [95%]", "mean luck [95%]", "residual [95%]"],
                  [[str(r.players), r.player, f"{r.games:,}", rate(r, "luck_share"),
                    points(r, "skill"), spread(r), points(r, "luck"),
                    points(r, "residual")] for _, r in df.iterrows()], "", (1,), set(), csv)
    return Section("luck", "How much of a game is luck?", [
        "Every change of a player's chance to win the game is made either by the cards (the "
        "deal of a round, a draw from the deck, a random steal, a lobster's reveal) or by a "
        "decision. Here the expert (the strong player distilled from the search player) plays "
        "among baseline players, and each of its decisions is measured against what the "
        "baseline would have done in its place, by a referee who sees every hand but not the "
        "deck's order (docs/advisor.md, \"Luck and skill\"). The cards' share is the part of "
        "the squared changes of its chance over a game that the cards made (each change less "
        "its estimation noise); the edge is what its decisions add to its chance to win a "
        "game on average; the spread is how far a game's luck moves it (points of P(win)). "
        "The mean luck and the residual are 0 when the referee's values are honest.",
    ], words, [w.figure("luck_share", luck_figures(df), "; ".join(words) + ".", table)])


def player_counts(f: dict) -> pd.DataFrame:
    """The figures that change most with the number of players, gathered from the other
    studies' frames: one row per (figure, players) with its value and 95% interval."""
    rows = []

    def add(short: str, figure: str, df: pd.DataFrame, key: str, shift=lambda p: 0.0) -> None:
        for _, r in df.iterrows():
            s = shift(r.players)
            rows.append({"figure": figure, "short": short, "players": int(r.players),
                         "value": r[key] - s,
                         "value_lo": r[f"{key}_lo"] - s, "value_hi": r[f"{key}_hi"] - s})
    seats = f["seats"]
    add("first seat's edge", "the first seat's edge over its fair share (baseline players)",
        seats[(seats["seat"] == 0) & (seats["player"] == "baseline")], "win_rate",
        lambda p: 1 / p)
    bins = f["last_chance_bins"]
    add("LAST CHANCE at 7 won", "a LAST CHANCE called at 7 points is won",
        bins[bins["points_from"] == 7], "success")
    ends = f["endings"]
    add("expert ends with LAST CHANCE", "the expert's rounds that end with LAST CHANCE",
        ends[ends["field"] == "expert"], "last_chance_rate")
    mer = f["mermaids"]
    add("first mermaid's worth", "a first mermaid in hand at a round's start is worth",
        mer[mer["given"] == 0], "win_rate_diff")
    pairs = f["pairs"]
    add("swimmer+shark played",
        "playing swimmer+shark instead of holding it is worth (baseline opponents)",
        pairs[(pairs["label"] == "swimmer+shark") & (pairs["against"] == "baseline")],
        "win_rate_diff")
    return pd.DataFrame(rows)


def players_section(w: Writer, f: dict) -> Section:
    """How 2 players differ from 4: each gathered figure by player count, and whether its 2- and
    4-player intervals lie apart."""
    df = player_counts(f)
    csv = w.data("player_counts", df)
    words = []
    for figure, gp in df.groupby("figure", sort=False):
        by = {int(r.players): r for _, r in gp.iterrows()}
        each = ", ".join(f"{p} players {rate(r, 'value')}" for p, r in by.items())
        two, four = by.get(2), by.get(4)
        if two is None or four is None:
            words.append(f"{figure}: {each}")
            continue
        trend = ("higher with 4 players than with 2" if four.value_lo > two.value_hi else
                 "lower with 4 players than with 2" if four.value_hi < two.value_lo else
                 "2 and 4 players not distinguishable at this precision")
        words.append(f"{figure}: {each}; {trend}")
    table = Table(["figure", "players", "value [95%]"],
                  [[r.figure, str(r.players), rate(r, "value")] for _, r in df.iterrows()],
                  "", (0,), set(), csv)
    return Section("players", "How 2 players differ from 4", [
        "The same game plays differently at 2, 3 and 4 players: more opponents to outscore, "
        "more hands to steal from, fewer turns each. These are figures of the other sections "
        "gathered by player count; where the 2- and 4-player intervals lie apart, the words say "
        "which way it goes.",
    ], words, [w.figure("player_counts", df, "; ".join(words) + ".", table)])


def summary(f: dict) -> list[str]:
    out = []
    m = f["matchups"]
    for p in g.PLAYERS:
        mp = m[m["players"] == p]
        tb = mp[(mp["player"] == f"tuned{p}") & (mp["against"] == "baseline")]
        t7 = mp[(mp["player"] == "threshold(last_chance_at=7)") & (mp["against"] == "baseline")]
        h2h = mp[(mp["player"] == f"tuned{p}") & (mp["against"] == "threshold(last_chance_at=7)")]
        if tb.empty or t7.empty or h2h.empty:
            continue
        a, b, c = tb.iloc[0], t7.iloc[0], h2h.iloc[0]
        rel = ("above" if a["win_rate_lo"] > b["win_rate_hi"] else
               "tied at this precision with" if a["win_rate_hi"] >= b["win_rate_lo"] else "below")
        out.append(f"{p} players: tuned{p} wins {rate(a)} of games against baseline "
                   f"opponents, {rel} threshold(7, 7) ({rate(b)}); head to head against "
                   f"threshold(7, 7) opponents it wins {rate(c)} (fair share "
                   f"{pct(1 / p)}).")
    e = f.get("endings")
    by = {} if e is None else {(r.players, r.field): r for _, r in e.iterrows()}
    for p in g.PLAYERS:
        rows = [by.get((p, k)) for k in ("expert", "search(64)", "baseline")]
        if any(r is None for r in rows) or not all(r.last_chance_rate_lo > 0.5 for r in rows[:2]):
            continue                                # said only where the intervals show it
        expert, search, baseline = (rate(r, "last_chance_rate") for r in rows)
        out.append(f"{p} players: strong players end most rounds with LAST CHANCE, not STOP: the "
                   f"expert {expert} of its rounds, search(64) {search}, the baseline "
                   f"{baseline} (\"Is STOP the normal ending?\").")
    luck = f.get("luck")
    rows = [] if luck is None else [r for _, r in luck.iterrows()]
    if rows and all(r.skill_lo > 0 for r in rows):     # said only where the intervals show it
        out.append("The cards make " + cap.join_words(
            [f"{rate(r, 'luck_share')} with {r.players} players" for r in rows])
            + " of what moves a strong player's chance to win during a game, and its decisions "
            "still add " + cap.join_words([f"{points(r, 'skill')} points" for r in rows])
            + " to it over the baseline's (\"How much of a game is luck?\").")
    return out
