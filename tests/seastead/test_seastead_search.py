"""The Seastead search player (kernels.seastead.search): legal games with every invariant, the
same answer for a seed whatever the threads, decisions that depend only on what its seat can
see, and its strength against the heuristic with seats rotated (a small fixed-seed version
here; the README's figures come from the tournament it names)."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.seastead.components import Setup, load
from analyzer.seastead.players import parse_player, player_arrays
from analyzer.seastead.replay import replay, trace_game
from analyzer.seastead.runs import simulate, tournament
from analyzer.seastead.scripted import Table
from analyzer.runs.spec import Backend
from kernels.rng import seed_stream
from kernels.seastead import layout as L
from kernels.seastead.search_batch import search_plan

FAST = "search(rollouts=4,width=3)"


@pytest.fixture(scope="module")
def comps():
    return load()


@pytest.mark.parametrize("game, players", [
    (Setup(), [FAST, "heuristic"]), (Setup(), ["random", FAST]),
    (Setup(sides="BBBB"), [FAST, FAST]), (Setup(solo=True), [FAST])],
    ids=["2p-search-first", "2p-search-second", "B-both-search", "solo"])
def test_search_games_keep_every_invariant(comps, game, players):
    for seed in range(3):
        s, tr = trace_game(comps, game, players, seed, check=True)
        assert tr[0, 2] == 0, f"seed {seed}: invariant {tr[0, 2]} broken at event {tr[0, 3]}"
        assert s[L.OVER] == 1 and tr[0, 4] == s[L.ACTIONS] > 0


def test_same_seed_same_answer_for_any_thread_count(comps):
    a = simulate(130, [FAST, "heuristic"], 5, comps, backend=Backend(jobs=1))
    b = simulate(130, [FAST, "heuristic"], 5, comps, backend=Backend(jobs=2))
    strip = lambda r: {k: v for k, v in r.items() if k != "timing"}  # noqa: E731
    assert strip(a) == strip(b)
    r = replay(5, [FAST, "heuristic"], comps)
    assert r["events"][-1]["event"] == "end"


def hidden_shuffled(t: Table, keep_top: bool, seed: int) -> Table:
    """A copy of the position with every order its seats cannot see permuted: the dive deck
    within each group's run (the top card kept if asked), the specialist, dock, decree decks."""
    u = Table(t.comps, 1)
    u.s[:] = t.s
    rng = np.random.default_rng(seed)
    n = u.at("DECK_LEN")
    deck = u.s[L.DECK:L.DECK + n].copy()
    groups = [int(t.cp[L.DV_GROUP + c]) for c in deck]
    top = n - 1 if keep_top else n
    for g in set(groups):
        at = [i for i in range(top) if groups[i] == g]
        deck[at] = rng.permutation(deck[at])
    u.s[L.DECK:L.DECK + n] = deck
    for key, size in (("SPEC_DECK", "SPEC_DECK_LEN"), ("DOCK_DECK", "DOCK_DECK_LEN"),
                      ("DCK", "DCK_LEN")):
        lo, k = getattr(L, key), u.at(size)
        u.s[lo:lo + k] = rng.permutation(u.s[lo:lo + k])
    return u


def test_decisions_depend_only_on_what_the_seat_can_see(comps):
    """Permuting the unseen orders (decks) changes no searched action; the split, chosen once
    the card is revealed, may depend on that card only. Checked on 12 mid-game positions."""
    pk, pp = player_arrays([parse_player("search(rollouts=6)")] * 2)
    changed = dives = 0
    for seed in range(12):
        t = Table(comps, seed, Setup(sides="BBBB" if seed % 2 else "AAAA"))
        t.play([], stop_after=2 + 2 * (seed % 5), fallback="heuristic")
        p = t.at("ACTIONS") % 2
        plan = search_plan(t.s, t.cp, p, pp, seed_stream(99, seed)).tolist()
        same_top = hidden_shuffled(t, True, seed)
        other_top = hidden_shuffled(t, False, seed)
        changed += not np.array_equal(same_top.s, t.s)
        assert search_plan(same_top.s, t.cp, p, pp, seed_stream(99, seed)).tolist() == plan
        again = search_plan(other_top.s, t.cp, p, pp, seed_stream(99, seed)).tolist()
        assert [r for r in again if r[1] == L.K_ACTION] == [r for r in plan if r[1] == L.K_ACTION]
        dives += any(r[1] == L.K_SPLIT for r in plan)
    assert changed == 12 and dives > 0


def test_search_beats_the_heuristic_with_seats_rotated(comps):
    """A small fixed-seed version of the README's tournament: 60 games, 30 in each seat."""
    r = tournament([FAST, "heuristic"], 60, 3, comps, backend=Backend(jobs=1))
    top = r["rows"][0]
    assert top["player"] == parse_player(FAST).spec and top["win_share_lo"] > 0.6


@pytest.mark.slow
def test_the_docs_quote_the_search_tournaments(comps):
    """The README's and docs/seastead.md's figures are these tournaments' (2,000 games a pair,
    seed 1, seats rotated); the search player's interval is above 60% against both."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    page = (root / "docs" / "seastead.md").read_text(encoding="utf-8")
    for opponent in ("heuristic", "random"):
        r = tournament(["search", opponent], 2000, 1, comps, backend=Backend(jobs=1))
        top = r["rows"][0]
        assert top["player"] == parse_player("search").spec and top["win_share_lo"] > 0.6
        quoted = (f"{100 * top['win_share']:.1f}% [{100 * top['win_share_lo']:.1f}, "
                  f"{100 * top['win_share_hi']:.1f}]")
        assert quoted in readme and quoted in page, (opponent, quoted)
