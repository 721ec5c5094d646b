"""The search player (kernels.search, analyzer.play.search_seat): it samples only deals consistent
with what its seat has seen, its decision does not move when what it cannot see changes, and it runs
wherever a policy spec runs, deterministic for a seed."""
import random

import pytest

from analyzer.play.decisions import Round
from analyzer.play.search_seat import SearchSeat
from analyzer.studies.simulate import simulate_games, simulate_rounds
from analyzer.runs.spec import Backend
from kernels import cards as kc
from kernels import search as ksr
from kernels import state as ks
from kernels.invariants import state_errors
from kernels.rng import seed_stream

SPEC = "search(samples=12,continuations=2)"


def _mid_round(players, seed, expansion="base", turns=4):
    """A dealt round played at random (seat 0 from here, the others baseline) until seat 0
    faces a decision after at least `turns` turns; None if the round ended first."""
    rnd = random.Random(seed)
    r = Round.deal(players, seed=seed, expansion=expansion,
                   seats=[None] + ["baseline"] * (players - 1))
    while not r.done:
        if int(r.s[ks.TURNS]) >= turns and len(r.legal(copies=False)) >= 2:
            return r
        r.apply(rnd.choice(r.legal()))
    return None


def _hand(s, q):
    return s[ks.HT + q * kc.NTYPES:ks.HT + (q + 1) * kc.NTYPES].copy()


def test_deals_are_consistent_with_what_the_seat_knows():
    """Every sampled deal keeps every card in one place (the census and every incremental count
    of kernels.invariants), leaves the seat's own hand, every table, the pile tops and the
    sizes as they are, and gives each opponent the cards the seat saw it take."""
    checked = 0
    for seed in range(40):
        players = 2 + seed % 3
        r = _mid_round(players, seed, "extra-salt" if seed % 2 else "base")
        if r is None:
            continue
        seat = SearchSeat(r, 0, SPEC, seed=seed)
        ksr.update_knowledge(seat.know, 0, r.tr)
        s = r.s
        taken = {}
        for e in r.events():
            if e[0] == "take_pile" and e[1] != 0:
                taken.setdefault(e[1], []).append(e[2])
        rng = seed_stream(seed)
        for _ in range(5):
            err = ksr.determinize(seat.d, s, seat.know, 0, seat.full, seat.w, rng)
            d = seat.d
            assert err == 0 and state_errors(d) == 0
            assert (_hand(d, 0) == _hand(s, 0)).all()
            assert (d[ks.TT:ks.HK] == s[ks.TT:ks.HK]).all()
            for q in range(players):
                assert d[ks.HLEN + q] == s[ks.HLEN + q]
            for j in range(2):
                n = int(s[ks.PILE_LEN + j])
                assert d[ks.PILE_LEN + j] == n
                if n:
                    assert d[ks.PILE + j * kc.MAX_DECK + n - 1] == s[ks.PILE + j * kc.MAX_DECK + n - 1]
            assert d[ks.DECK_LEN] == s[ks.DECK_LEN]
            for q in range(1, players):
                known = seat.know[ksr.K_HAND + q * kc.NTYPES:ksr.K_HAND + (q + 1) * kc.NTYPES]
                assert (_hand(d, q) >= known).all()
                assert (_hand(s, q) >= known).all()      # what it knows is true
        checked += 1
    assert checked >= 30


def _other_deal(r, seed):
    """A copy of round r in which what seat 0 cannot see is different but consistent with all
    it saw: a card of an opponent's hand that it never saw arrive (not taken from a pile) swapped
    with a deck card, and the deck below the two top cards put in another order."""
    rnd = random.Random(seed)
    c = r.copy()
    s = c.s
    seen_types = set()          # cards seat 0 saw go into a hand: never swapped
    for e in r.events():
        if e[0] == "take_pile":
            seen_types.add(kc.type_id(*_kind_colour(e[2])))
        if e[0] == "steal" and e[3] is not None:
            seen_types.add(kc.type_id(*_kind_colour(e[3])))
    n = int(s[ks.DECK_LEN])
    keep_top = 2
    for q in range(1, int(s[ks.NPLAYERS])):
        hand = [t for t in range(kc.NTYPES) for _ in range(int(s[ks.HT + q * kc.NTYPES + t]))
                if t not in seen_types]
        deck = [i for i in range(n - keep_top) if int(s[ks.DECK + i]) not in seen_types]
        for t in hand:
            i = next((i for i in deck if int(s[ks.DECK + i]) != t), None)
            if i is not None and not s[ks.REVEALED + q]:
                u = int(s[ks.DECK + i])
                ks.lose_card(s, q, t)
                ks.gain_card(s, q, u)
                s[ks.DECK + i] = t
                break
    order = list(range(n - keep_top))
    rnd.shuffle(order)
    below = s[ks.DECK:ks.DECK + n - keep_top].copy()
    s[ks.DECK:ks.DECK + n - keep_top] = below[order]
    from kernels.scoring import refresh_points
    refresh_points(s, int(s[ks.NPLAYERS]))
    assert state_errors(s) == 0
    return c


def _kind_colour(name):
    kind, _, colour = name.partition(":")
    return kind, colour or kc.COLOURS[int(kc.TYPE_COLOUR[kc.KIND_FIRST_TYPE[kc.KINDS.index(kind)]])]


def test_the_decision_does_not_move_when_what_the_seat_cannot_see_changes():
    """docs/rules.md, "Hidden information": the same seed gives the same action and the same values
    for every action when the opponents' hidden hands and the deck order are replaced by another
    deal consistent with the seat's observations; a change the seat *can* see (its own hand) changes
    them."""
    compared = changed = 0
    for seed in range(30):
        r = _mid_round(2 + seed % 3, 100 + seed)
        if r is None or r.decision not in ("draw", "play"):
            continue
        other = _other_deal(r, seed)
        if (other.s[:ks.STATE_CORE] == r.s[:ks.STATE_CORE]).all():
            continue
        a1, w1 = SearchSeat(r.copy(), 0, SPEC, seed=7).decide()
        a2, w2 = SearchSeat(other, 0, SPEC, seed=7).decide()
        assert a1 == a2
        assert [(w["action"], w["value"]) for w in w1] == [(w["action"], w["value"]) for w in w2]
        compared += 1
        # Control: a change it can see (one card of its own hand swapped with a deck card)
        # moves the values, so the comparison above can fail.
        mine = r.copy()
        s = mine.s
        t = next(t for t in range(kc.NTYPES) if s[ks.HT + t] > 0)
        i = next(i for i in range(int(s[ks.DECK_LEN]) - 2) if int(s[ks.DECK + i]) != t)
        u = int(s[ks.DECK + i])
        ks.lose_card(s, 0, t)
        ks.gain_card(s, 0, u)
        s[ks.DECK + i] = t
        from kernels.scoring import refresh_points
        refresh_points(s, int(s[ks.NPLAYERS]))
        if len(mine.legal(copies=False)) == len(r.legal(copies=False)):
            _, w3 = SearchSeat(mine, 0, SPEC, seed=7).decide()
            changed += [w["value"] for w in w1] != [w["value"] for w in w3]
    assert compared >= 10 and changed >= compared // 2


def test_search_runs_as_a_policy_and_is_deterministic_for_a_seed():
    """simulate (rounds and games) with a search seat: same seed, same result on 1 or 2 threads."""
    one = simulate_games(2, 6, [SPEC, "baseline"], seed=3, backend=Backend(jobs=1))
    two = simulate_games(2, 6, [SPEC, "baseline"], seed=3, backend=Backend(jobs=2))
    assert one["wins"] == two["wins"] and one["final_total_mean"] == two["final_total_mean"]
    assert sum(one["wins"]) + one["shared_wins"] == 6
    r1 = simulate_rounds(3, 16, ["baseline", SPEC, "baseline"], seed=4, backend=Backend(jobs=1))
    r2 = simulate_rounds(3, 16, ["baseline", SPEC, "baseline"], seed=4, backend=Backend(jobs=2))
    assert r1["end"] == r2["end"] and r1["seat_points_mean"] == r2["seat_points_mean"]
    assert sum(r1["end"].values()) == 16


@pytest.mark.parametrize("budget", [1, 8])
def test_search_never_makes_an_illegal_move(budget):
    """Whole rounds with search seats in every seat (both expansions): every action the search
    chooses is accepted by the validating API and every card stays accounted for."""
    for seed in range(4):
        players = 2 + seed % 3
        r = Round.deal(players, seed=seed, expansion="extra-salt" if seed % 2 else "base",
                       check=True)
        seats = [SearchSeat(r, q, f"search(samples={budget},continuations=1)", seed=seed + q)
                 for q in range(players)]
        while not r.done:
            action, weighed = seats[r.player].decide()
            assert action in r.legal() or action in r.legal(copies=False)
            assert sum(w["chosen"] for w in weighed) == (1 if weighed else 0)
            r.apply(action)
