"""The tuned players: for each player count, the threshold knobs that `seasalt optimize` found
against baseline opponents, with the exact command and seed that found them, the budget and
wall time, and the held-out measurement the optimizer reported.

analyzer.rules.policies registers them as `tuned2`, `tuned3` and `tuned4` (presets of threshold) and
`tuned`, which stands for the one of the player count in play. Their provenance files (the
held-out table, the trace and its chart) are in docs/optimize/.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tuned:
    players: int
    values: dict[str, float]        # the pick, every knob (canonical values)
    command: str                    # the optimize command that found it
    games: int                      # games the whole optimize run played
    seconds: float                  # its wall time on the shared 2-core machine
    heldout: tuple[float, float, float]    # win rate [95%] against baseline, report seeds
    heldout_start: tuple[float, float, float]   # the start's, on the same seeds
    heldout_games: int
    finding: str                    # how it differs from the baseline, in words

    def doc(self) -> str:
        lo, hi = self.heldout[1:]
        return (f"Tuned for {self.players} players against baseline opponents by `{self.command}` "
                f"({self.games:,} games, {self.seconds:.0f} s); held out: "
                f"{100 * self.heldout[0]:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of "
                f"{self.heldout_games:,} games won against baseline. {self.finding}")


def _pick(spec: str) -> dict[str, float]:
    """Knob values of a canonical threshold spec."""
    body = spec[spec.index("(") + 1:-1]
    return {k: float(v) for k, v in (kv.split("=") for kv in body.split(","))}


TUNED: dict[int, Tuned] = {
    2: Tuned(
        2, _pick("threshold(stop_at=7,last_chance_at=7,last_chance_margin=17,hand_value=0.31,"
                 "lc_max_players=3,lc_min_deck=6,take_at=0.5,mermaid_bonus=1.06,"
                 "colour_weight=0.21,play_fish=1,play_crab=1,play_lobster=1,play_steal=1,"
                 "play_lock=1,play_boat=1,steal_from=0,bury=0)"),
        "seasalt optimize --players 2 --policy \"threshold(stop_at=7,last_chance_at=7)\" "
        "--vs baseline --generations 25 --population 24 --games 3000 --finalists 6 "
        "--final-games 40000 --holdout-games 200000 --seed 2002",
        2_440_000, 370, (0.74415, 0.74223, 0.74606), (0.72681, 0.72485, 0.72876), 200_000,
        "Every declaration is a LAST CHANCE (from 7 points), so the margin and lc_* knobs "
        "never act; when choosing a card it adds about 1 to a mermaid's gain and 0.2 to a "
        "card of its largest colour (the colour bonus is paid on a won LAST CHANCE), and takes "
        "a pile top from a gain of 1 (as the baseline)."),
    3: Tuned(
        3, _pick("threshold(stop_at=7,last_chance_at=7,last_chance_margin=18,hand_value=1.13,"
                 "lc_max_players=4,lc_min_deck=0,take_at=0.75,mermaid_bonus=1.13,"
                 "colour_weight=0.16,play_fish=1,play_crab=1,play_lobster=1,play_steal=1,"
                 "play_lock=1,play_boat=1,steal_from=0,bury=0)"),
        "seasalt optimize --players 3 --policy \"threshold(stop_at=7,last_chance_at=7)\" "
        "--vs baseline --generations 25 --population 24 --games 3000 --finalists 6 "
        "--final-games 40000 --holdout-games 200000 --seed 2003",
        2_440_000, 465, (0.50002, 0.49783, 0.50221), (0.4822, 0.48001, 0.48439), 200_000,
        "Every declaration is a LAST CHANCE (from 7 points), so the margin and lc_* knobs "
        "never act; when choosing a card it adds about 1.1 to a mermaid's gain and 0.16 to a "
        "card of its largest colour, and takes a pile top from a gain of 1 (as the baseline)."),
    4: Tuned(
        4, _pick("threshold(stop_at=7,last_chance_at=7,last_chance_margin=16,hand_value=1.25,"
                 "lc_max_players=3,lc_min_deck=11,take_at=0.53,mermaid_bonus=-0.19,"
                 "colour_weight=0.19,play_fish=1,play_crab=1,play_lobster=0,play_steal=1,"
                 "play_lock=0,play_boat=1,steal_from=0,bury=0)"),
        "seasalt optimize --players 4 --policy \"threshold(stop_at=7,last_chance_at=7)\" "
        "--vs baseline --generations 25 --population 24 --games 3000 --finalists 6 "
        "--final-games 40000 --holdout-games 200000 --seed 2004",
        2_440_000, 708, (0.357925, 0.35583, 0.36003), (0.34294, 0.34086, 0.34502), 200_000,
        "Every declaration is a LAST CHANCE (from 7 points), so the margin and lc_* knobs "
        "never act; it adds 0.19 to a card of its largest colour and slightly less than its "
        "gain to a mermaid (-0.19: a mermaid ties lose to another card of the same gain), "
        "takes a pile top from a gain of 1 (as the baseline); play_lobster and play_lock are "
        "off but act only with Extra Salt."),
}
