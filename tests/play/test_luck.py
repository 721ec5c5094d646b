"""Luck and skill in a review (analyzer.play.luck): the game walked is the game played, the
referee knows every hand but not the deck's order, chance is counted only where cards were
revealed, and a player is charged only where it departs from its model."""
from __future__ import annotations

import numpy as np

from analyzer.play import luck
from analyzer.studies import referee
from analyzer.play.replay import traced_game
from analyzer.play.review import review
from analyzer.rules.policies import policy_arrays, seat_policies
from kernels import actions as kac
from kernels import cards as kc
from kernels import state as ks

DECK = kc.deck_types("base")


def _arrays(*specs: str):
    return policy_arrays(seat_policies(list(specs), len(specs)))


def test_the_walk_stops_at_every_seats_decision_of_the_played_game():
    """Every seat stopped at and answered by its own bot: the same trace and winners as the
    game the engine plays, and the points alternate between both seats."""
    pk, pp = _arrays("baseline", "random")
    points, _, winners, tr = referee.walk(2, DECK, 20, pk, pp, 11)
    game_tr, _, _, _, won = traced_game(2, DECK, 20, pk, pp, 11, referee.CAPACITY)
    n = int(tr[0, 0])
    assert int(game_tr[0, 0]) == n and np.array_equal(tr[1:n + 1], game_tr[1:n + 1])
    assert winners == [q for q in range(2) if won[q]]
    assert {p.actor for p in points} == {0, 1}
    assert points[0].chance_before and points[0].round == 1


def test_chance_is_where_cards_are_revealed():
    """A new round's first decision follows a deal; a draw from the deck reveals two cards; a
    decision that reveals nothing (STOP declared, a pile's top taken, a keep) is followed by
    no chance."""
    pk, pp = _arrays("baseline", "baseline")
    points, _, _, _ = referee.walk(2, DECK, 20, pk, pp, 4)
    for prev, p in zip(points, points[1:]):
        if p.round != prev.round:
            assert p.chance_before
        elif int(prev.state[ks.DEC]) == kac.DEC_DRAW:
            assert p.chance_before == (prev.action == kac.SRC_DECK)
        elif int(prev.state[ks.DEC]) == kac.DEC_KEEP:
            assert not p.chance_before


def test_the_referee_knows_every_hand_and_pile_but_not_the_decks_order():
    pk, pp = _arrays("baseline", "baseline")
    points, _, _, _ = referee.walk(2, DECK, 20, pk, pp, 4)
    full = np.bincount(DECK, minlength=kc.NTYPES).astype(np.int64)
    for p in points[::7]:
        view, pool = referee.referee_view(p.state, 0, full)
        s = p.state
        hands = slice(ks.HT, ks.HT + 2 * kc.NTYPES)
        assert np.array_equal(view[hands], s[hands])
        assert np.array_equal(view[ks.PILE_LEN:ks.PILE_LEN + 2], s[ks.PILE_LEN:ks.PILE_LEN + 2])
        n = int(s[ks.DECK_LEN])
        seen = 2 if int(s[ks.DEC]) == kac.DEC_KEEP else 0
        deck = sorted(int(c) for c in s[ks.DECK:ks.DECK + n - seen])
        assert sorted(pool.tolist()) == deck
        assert all(int(c) == ks.UNSEEN for c in view[ks.DECK:ks.DECK + n - seen])


def test_players_who_play_as_their_models_are_charged_nothing():
    """A seed review's models are the players' own policies: no decision term at all, skill
    and opponents exactly 0; every term left is luck, and the terms and the residual add up to
    the result (1 won outright, else 0)."""
    r = review(3, 2, ["baseline"], seat=0, samples=64, target=15)
    d, s = r["luck"], r["summary"]
    assert s["skill"] == s["opponents"] == 0.0
    assert d["counts"]["skill"] == d["counts"]["opponents"] == 0
    assert d["counts"]["luck"] == len(d["events"]) > 0
    assert s["result"] == float(r["winners"] == [0])
    total = s["start"] + s["luck"] + s["skill"] + s["opponents"] + s["residual"]
    assert abs(total - s["result"]) < 1e-9
    assert d["events"][0]["words"] == "round 1 dealt"
    for k in luck.TERMS:
        assert s[k + "_lo"] <= s[k] <= s[k + "_hi"]


def test_the_same_seed_gives_the_same_luck_whatever_the_threads():
    from analyzer.runs.spec import Backend
    a = review(6, 2, ["baseline"], seat=1, samples=48, target=12, backend=Backend(jobs=1))
    b = review(6, 2, ["baseline"], seat=1, samples=48, target=12, backend=Backend(jobs=2))
    assert a["luck"] == b["luck"]


def test_a_random_player_measured_against_baseline_loses_by_its_decisions():
    """Seat 0 plays at random; measured against the baseline as its model, its decisions
    (skill) cost it P(win) and the opponent, playing as its model, is charged nothing."""
    pk, pp = _arrays("random", "baseline")
    mk, mp = _arrays("baseline", "baseline")
    points, after, winners, _ = referee.walk(2, DECK, 15, pk, pp, 21)
    valuer = referee.Valuer(0, mk, mp, DECK, 15, 400, 21)
    d = luck.decompose(points, after, winners == [0], (0.5, 0.0), valuer, mk, mp, 21)
    assert d["counts"]["skill"] > 0 and d["counts"]["opponents"] == 0
    assert d["skill"]["ci95"][1] < 0


def test_the_model_of_a_random_player_spreads_over_the_legal_actions():
    pk, pp = _arrays("random", "random")
    points, _, _, _ = referee.walk(2, DECK, 15, pk, pp, 2)
    draw = next(p for p in points if int(p.state[ks.DEC]) == kac.DEC_DRAW
                and int(p.state[ks.PILE_LEN]) > 0 and int(p.state[ks.PILE_LEN + 1]) > 0)
    shares = referee.model_choices(draw.state, pk, pp, 5, 0)
    assert set(shares) == {kac.SRC_DECK, kac.SRC_DECK + 1, kac.SRC_DECK + 2}
    assert abs(sum(shares.values()) - 1) < 1e-12 and min(shares.values()) > 0.1


def test_a_page_game_is_walked_again_and_its_player_measured_against_the_baseline():
    """A game played on the page (here: at random) is walked again from its seed and the
    actions played; its review has the luck once the game is over, the user's decisions
    measured against the baseline (the page's model of the user) and the bot charged nothing."""
    import random
    from analyzer.play.session import Game
    g = Game(players=2, seed=9, target=15)
    rnd = random.Random(1)
    g.apply(rnd.choice(g.legal()))
    assert g.review(32)["luck"] is None                 # not over: no result to explain
    while not g.over:
        g.apply(rnd.choice(g.legal()))
    r = g.review(200)
    d = r["luck"]
    assert d["counts"]["skill"] > 0 and d["counts"]["opponents"] == 0
    assert d["skill"]["ci95"][1] < 0
    assert r["summary"]["result"] == float(g.view()["winners"] == [0])


def test_a_search_seat_is_reviewed_with_the_expert_as_its_model():
    """A game with a search seat is the game replay shows (the search's choices from its
    decision log); the search seat is played on by the expert, so its decisions (reviewed, or
    an opponent's) are measured against the expert's."""
    from analyzer.play.replay import replay
    specs = ["search(samples=16)", "baseline"]
    g = replay(5, 2, specs, target=15)
    for seat in (0, 1):
        r = review(5, 2, specs, seat=seat, samples=40, target=15)
        assert r["rounds_played"] == g["rounds_played"] and r["totals"] == g["totals"]
        assert r["models"][0].startswith("expert") and r["models"][1] == r["policies"][1]
        assert "expert_weights" in r            # the expert plays the search seat on
        assert r["decisions"] and all(d["chosen"] in d["options"] for d in r["decisions"])
        counts = r["luck"]["counts"]
        assert (counts["skill"] if seat == 0 else counts["opponents"]) > 0
        assert (counts["opponents"] if seat == 0 else counts["skill"]) == 0
