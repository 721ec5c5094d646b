"""Seastead review: every decision of a game, the choice made against the advice there.

Each reviewed decision is asked as `seasalt seastead advise` asks it of the game cut just before
it, with the same --samples, --seed and --model (so its best option is that advice's). The best
of several estimates is biased upward, so the loss (the best option's P(win game) minus the
choice's) is measured again on as many redeals of another stream, for those two options only,
with its paired 95% interval.

    spec = SeasteadReviewSpec.build(position, seats=(0,), samples=200)
    r = run(spec)                    # JSON-ready; analyzer.render.game_text writes its text
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from kernels.seastead import layout as L

from .. import __version__
from ..base.errors import SeasaltError
from .components import Components, Setup
from .players import parse_player, player_arrays, seat_players
from .position import game_of
from .table import KINDS, Game, heuristic_choice, option_text

def bot_game(comps: Components, setup: Setup, seed: int, players: Sequence[str]) -> Game:
    """Game 0 of `seed` (as `seastead replay --seed` plays it) played to its end by heuristic
    players, decision by decision."""
    pols = seat_players(list(players), 1 if setup.solo else 2)
    for p in pols:
        if p.info.kind != L.P_HEURISTIC:
            raise SeasaltError(f"--player {p.spec}: a review replays the game decision by "
                               f"decision, which a {p.info.name} seat cannot do yet; give "
                               f"heuristic players (heuristic, greedy, denier, builder, diver) "
                               f"or a game FILE")
    _, pp = player_arrays(pols)
    g = Game(comps, setup, seed)
    while (d := g.decision()) is not None:
        g = g.apply(heuristic_choice(g, d, pp))
    return g


@dataclass(frozen=True)
class SeasteadReviewSpec:
    """A checked review: the game (its choices are reviewed), the seats, the advice's budget."""
    game: Game
    seats: tuple[int, ...]
    samples: int
    seed: int                           # the redeals' seed: the game's own
    model: str
    where: str = "game"

    @classmethod
    def build(cls, game: dict | Game, seats: Sequence[int] = (), samples: int = 200,
              model: str = "heuristic", where: str = "game"):
        from .advice import SeasteadAdviceSpec
        g = game if isinstance(game, Game) else game_of(game, where)
        a = SeasteadAdviceSpec.build(g, samples, g.seed, model, where)   # the same checks
        players = 1 if g.setup.solo else 2
        for s in seats:
            if not isinstance(s, int) or not 0 <= s < players:
                raise SeasaltError(f"--seat must be between 0 and {players - 1}, got {s!r}",
                                   param="seat")
        return cls(g, tuple(sorted(set(seats))) or tuple(range(players)), a.samples, a.seed,
                   a.model, where)


def run(spec: SeasteadReviewSpec, progress: Callable[[int, int], None] | None = None) -> dict:
    """Every reviewed decision: the choice, the best option, the loss (best minus chosen
    P(win game), paired 95% interval; a choice that wins as often as the best is as good)."""
    from kernels.rng import seed_stream
    from .table import option_values
    g = spec.game
    _, model = player_arrays([parse_player(spec.model)] * 2)
    try:
        over = g.decision() is None                 # every choice is checked here
    except SeasaltError as e:
        raise SeasaltError(f"{spec.where} {e}") from None
    todo = [k for k, row in enumerate(g.choices) if row[0] in spec.seats]
    rows = []
    for j, k in enumerate(todo):
        cut = Game(g.comps, g.setup, g.seed, g.choices[:k])
        d = cut.decision()
        chosen = next(i for i in range(len(d.options)) if d.row(i) == tuple(g.choices[k]))
        v = option_values(cut, d, model, spec.samples, seed_stream(spec.seed, 0))
        best = v.best()
        # the best of several estimates is biased upward: the loss is measured again, on
        # redeals of another stream, for the two options only
        w = option_values(cut, d, model, spec.samples, seed_stream(spec.seed, 1),
                          only=[best, chosen])
        diff, lo, hi = w.diff(0, 1)
        rows.append({"choice": k, "seat": d.seat, "kind": KINDS[d.kind],
                     "round": int(d.state[L.ROUND]), "options": len(d.options),
                     "played": option_text(d, chosen, g.comps),
                     "played_row": list(g.choices[k][2:]),
                     "best": option_text(d, best, g.comps),
                     "best_row": [int(x) for x in d.options[best]],
                     "as_best": bool(v.sums[chosen, 0] == v.sums[best, 0]),
                     "win_played": w.rate(1), "win_best": w.rate(0),
                     "loss": {"diff": diff, "ci95": [lo, hi]}})
        if progress is not None:
            progress(j + 1, len(todo))
    result = None
    if over:
        s = g.final()
        result = {"totals": [int(s[L.TOTAL + q]) for q in range(s[L.PLAYERS])],
                  "winners": [q for q in range(2) if s[L.WIN + q]]}
    return {
        "command": "seastead review", "version": __version__, "seed": spec.seed,
        "samples": spec.samples, "model": spec.model,
        "model_label": parse_player(spec.model).short, "game_seed": g.seed,
        "setup": g.setup.describe(), "components": g.comps.label, "seats": list(spec.seats),
        "choices": len(g.choices), "over": over, "result": result,
        "reviewed": len(rows), "as_best": sum(r["as_best"] for r in rows),
        "clear_losses": sum(r["loss"]["ci95"][0] > 0 for r in rows),
        "decisions": rows,
    }
