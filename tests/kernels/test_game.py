"""docs/rules.md, "A game" (game flow), the baseline (docs/players.md) "Game": totals, target,
tie-break, shared wins, four-mermaid wins and the starting player of each round.

`kernels.game.play_game` shuffles every round itself, so the game rules are checked on traced
random games: each game's events are cut into rounds and every "A game" rule is applied to them in
plain Python (who starts each round, what is added to the totals, when the game must end and
who must win), then compared with what play_game returned. Small targets make the tie-break
cases frequent; the test asserts that they really occurred.
"""
import numpy as np
import pytest

from analyzer.rules.policies import policy_arrays, seat_policies
from analyzer.rules.setups import decode
from analyzer.studies.simulate import simulate_games
from kernels import cards as kc
from kernels import state as ks
from kernels.game import GS_SIZE, play_game
from kernels.rng import seed_stream


def traced_game(players, target, seed, expansion="base"):
    pk, pp = policy_arrays(seat_policies(["baseline"], players))
    s = ks.new_state()
    tr = np.zeros((40_001, 5), dtype=np.int32)
    totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    rounds, mermaids = play_game(s, players, kc.deck_types(expansion), target, pk, pp,
                                 seed_stream(seed), tr, totals, winners,
                                 np.zeros(GS_SIZE, dtype=np.int64))
    return (int(rounds), int(mermaids), totals[:players].tolist(), winners[:players].tolist(),
            decode(tr))


def split_rounds(events):
    rounds, cur = [], []
    for e in events:
        cur.append(e)
        if e[0] == "round_end":
            rounds.append(cur)
            cur = []
    assert cur == [], "events after the last round"
    return rounds


def check_game(n, target, rounds, mermaids, totals, winners, events):
    """Apply docs/rules.md, "A game" to the traced rounds; return the kind of finish for coverage
    counts."""
    rs = split_rounds(events)
    assert len(rs) == rounds
    run = [0] * n
    starter = 0                                           # "A game": seat 0 starts round 1
    for k, r in enumerate(rs):
        last = k == len(rs) - 1
        turns = [e for e in r if e[0] == "turn"]
        assert turns[0][1] == starter, f"round {k} starts with seat {turns[0][1]}, not {starter}"
        _, ender, end, _ = r[-1]
        # "A game": who ended the round.
        if end in ("stop", "last_chance_won", "last_chance_lost"):
            assert [e[1] for e in r if e[0] == "declare"] == [ender]
        elif end == "void":
            assert turns[-1][1] == ender
        else:
            assert end == "mermaids" and r[-2] == ("mermaid_win", ender)
        pts = [0] * n
        for e in r:
            if e[0] == "score":
                pts[e[1]] = e[2]
        if end == "mermaids":                             # four mermaids: the holder wins, unscored
            assert last and mermaids == 1
            assert winners == [int(q == ender) for q in range(n)]
            return "mermaids"
        if end == "void":
            assert pts == [0] * n                         # "A game": a void round adds nothing
        run = [a + b for a, b in zip(run, pts)]
        if max(run) >= target:                            # "A game": the game ends after this round
            assert last, f"a total reached {max(run)} >= {target} but the game went on"
            assert totals == run and mermaids == 0
            best = max(run)
            tied = [q for q in range(n) if run[q] == best]
            best_round = max(pts[q] for q in tied)
            want = [int(q in tied and pts[q] == best_round) for q in range(n)]
            assert winners == want, f"totals {run}, final round {pts}"
            if sum(want) > 1:
                return "shared"
            return "tie-break" if len(tied) > 1 else "outright"
        assert not last, "the game stopped below the target"
        starter = (ender + 1) % n                         # left of the player who ended it
    raise AssertionError("no round")


@pytest.mark.parametrize("players,target,games", [(2, 12, 1500), (3, 12, 1500), (4, 12, 1500),
                                                  (4, 20, 700), (3, 35, 300)])
def test_game_rules_on_traced_games(players, target, games):
    """docs/rules.md, "A game" on every game: totals, target, winners (tie: most points in the final
    round, then shared), four-mermaid wins, and each round's starting player (seat 0, then the
    player after the one who ended the previous round)."""
    kinds = {"outright": 0, "tie-break": 0, "shared": 0, "mermaids": 0}
    for g in range(games):
        kinds[check_game(players, target, *traced_game(players, target, seed=1000 * players + g))] += 1
    assert kinds["outright"] > 0
    if target == 12:
        # The rule that decides ties must have been exercised, not just tolerated.
        assert kinds["tie-break"] > 0, kinds


def test_shared_wins_happen():
    """"A game": "If they are still tied, they share the win." (3-4 players, small targets: ties in
    both totals and final-round points occur, and every seat with them is a winner.)"""
    shared = 0
    for players in (3, 4):
        for g in range(1500):
            shared += check_game(players, 12, *traced_game(players, 12, seed=50_000 + g)) == "shared"
    assert shared > 0


def test_extra_salt_games():
    """"A game" with the 66-card deck."""
    for g in range(300):
        check_game(3, 20, *traced_game(3, 20, seed=70_000 + g, expansion="extra-salt"))


@pytest.mark.parametrize("players,target", [(2, 40), (3, 35), (4, 30)])
def test_simulate_games_default_targets(players, target):
    """"A game" targets 40 / 35 / 30 (the engine default by player count): every game has one
    winner or a shared win, and a non-mermaid game ends with some total >= the target (so the
    seats' mean final totals add up to at least target x the share of such games)."""
    games = 400
    out = simulate_games(players, games, seed=11)
    assert out["target"] == target and out["games"] == games
    assert sum(out["wins"]) + out["shared_wins"] == games
    assert sum(out["shared_wins_by_seat"]) >= 2 * out["shared_wins"]
    assert out["mermaid_wins"] == sum(out["mermaid_wins_by_seat"]) <= sum(out["wins"])
    non_mermaid = (games - out["mermaid_wins"]) / games
    assert sum(out["final_total_mean"]) >= target * non_mermaid
    assert out["rounds_per_game_mean"] >= 1


def test_double_points_variant_takes_longer():
    """"A game": the "double points" variant (80 for 2 players) is just a higher target: games last
    more rounds than to 40 (about twice as many)."""
    r40 = simulate_games(2, 300, seed=5, target=40)["rounds_per_game_mean"]
    r80 = simulate_games(2, 300, seed=5, target=80)["rounds_per_game_mean"]
    assert 1.5 * r40 < r80 < 2.5 * r40


@pytest.mark.parametrize("players,target", [(2, 40), (4, 30)])
def test_winner_reaches_the_target(players, target):
    """"A game": outside a four-mermaid win the winner's total is the highest and >= the target."""
    for g in range(300):
        rounds, mermaids, totals, winners, _ = traced_game(players, target, seed=90_000 + g)
        if mermaids:
            assert sum(winners) == 1
            continue
        for q in range(players):
            if winners[q]:
                assert totals[q] == max(totals) >= target
