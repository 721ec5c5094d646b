"""The advisor's deals are exactly the deals the position and the rules allow, uniformly: the
sampler (kernels.advisor.deal_position) against exact enumeration of every arrangement of the
unknown cards, and the advisor's averages against the exact averages over every possible deal.

Enumeration: every permutation of the pool's physical cards into the blanks (hands, `?` pile
slots, unknown deck slots: kernels.deals' order), each crab take's candidates with equal weight,
and every position of a card known to be in the deck among the deck's slots; a deal where
someone holds four mermaids is impossible and dropped. With 8 or fewer unknown cards that is at
most 8! arrangements.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from analyzer.play.advisor import advise
from analyzer.play.position import impossible_share, parse
from conftest import rest_of
from kernels import actions as kac
from kernels import advisor as kad
from kernels import cards as kc
from kernels import state as ks
from kernels.deals import UNSEEN
from kernels.engine import step
from kernels.rng import seed_stream
from kernels.scoring import refresh_points
from analyzer.rules.policies import policy_arrays, seat_policies

Z999 = 3.2905   # two-sided 99.9%: the tolerance of every comparison with an exact value


TYPES = np.arange(kc.NTYPES)


def _hand(s, q):
    return tuple(np.repeat(TYPES, s[ks.HT + q * kc.NTYPES:ks.HT + (q + 1) * kc.NTYPES]).tolist())


def _pile(s, j):
    base = ks.PILE + j * kc.MAX_DECK
    return tuple(s[base:base + int(s[ks.PILE_LEN + j])].tolist())


def _summary(s, players):
    """What a deal decides: every hand, both piles, the deck's cards (its order is drawn later)."""
    deck = tuple(sorted(s[ks.DECK:ks.DECK + int(s[ks.DECK_LEN])].tolist()))
    return tuple(_hand(s, q) for q in range(players)) + (_pile(s, 0), _pile(s, 1), deck)


def _slots(pos):
    """The blanks in fill order: ('hand', q), ('pile', j, i), ('deck', i)."""
    t = pos.template
    out = [("hand", q) for q in range(pos.players) for _ in range(int(pos.unknown_hand[q]))]
    for j in range(2):
        for i in range(int(t[ks.PILE_LEN + j])):
            if t[ks.PILE + j * kc.MAX_DECK + i] == UNSEEN:
                out.append(("pile", j, i))
    for i in range(int(t[ks.DECK_LEN])):
        if t[ks.DECK + i] == UNSEEN:
            out.append(("deck", i))
    return out


def _fill(pos, order):
    s = pos.template.copy()
    for slot, card in zip(_slots(pos), order):
        if slot[0] == "hand":
            ks.gain_card(s, slot[1], card)
        elif slot[0] == "pile":
            s[ks.PILE + slot[1] * kc.MAX_DECK + slot[2]] = card
        else:
            s[ks.DECK + slot[1]] = card
    return s


def _pick_orders(takes):
    """Sequences of (index taken, candidates it was chosen among) for a pile's takes in order
    (each take: one of the bottom `among` cards not taken before it)."""
    def rec(k, removed):
        if k == len(takes):
            yield []
            return
        cands = [i for i in range(takes[k][1]) if i not in removed]
        for i in cands:
            for rest in rec(k + 1, removed | {i}):
                yield [(i, len(cands))] + rest
    yield from rec(0, frozenset())


def exact_deals(pos, keep_impossible=False):
    """{summary: probability} over the possible deals (the summary of _summary; with
    `keep_impossible`, over every arrangement, as a sampler that ignored the rules would draw),
    and the share of arrangements that were impossible. Card lists, not states, for speed."""
    t = pos.template
    players = pos.players
    hands0 = [list(_hand(t, q)) for q in range(players)]
    piles0 = [list(_pile(t, j)) for j in range(2)]
    deck0 = [int(c) for c in t[ks.DECK:ks.DECK + int(t[ks.DECK_LEN])]]
    tables = [int(t[ks.TT + q * kc.NTYPES + kc.KIND_FIRST_TYPE[kc.MERMAID]]) for q in range(players)]
    slots = _slots(pos)
    takes = [tuple(int(v) for v in row) for row in pos.takes]
    pile_takes = [[(q, among) for q, j, among in takes if j == pile] for pile in range(2)]
    mermaid = int(kc.KIND_FIRST_TYPE[kc.MERMAID])
    dist = Counter()
    bad = 0.0
    perms = math.factorial(len(pos.pool))
    for order in itertools.permutations(pos.pool.tolist()):
        hands = [h[:] for h in hands0]
        piles = [p[:] for p in piles0]
        deck = deck0[:]
        for slot, card in zip(slots, order):
            if slot[0] == "hand":
                hands[slot[1]].append(card)
            elif slot[0] == "pile":
                piles[slot[1]][slot[2]] = card
            else:
                deck[slot[1]] = card
        outcomes = [(hands, piles, 1.0)]
        for j in range(2):
            if not pile_takes[j]:
                continue
            nxt = []
            for hs, ps, wt in outcomes:
                for picks in _pick_orders(pile_takes[j]):
                    h2 = [h[:] for h in hs]
                    weight = wt
                    for (q, _), (i, c) in zip(pile_takes[j], picks):
                        h2[q].append(ps[j][i])
                        weight /= c
                    gone = {i for i, _ in picks}
                    p2 = [p[:] for p in ps]
                    p2[j] = [c for i, c in enumerate(ps[j]) if i not in gone]
                    nxt.append((h2, p2, weight))
            outcomes = nxt
        for hs, ps, wt in outcomes:
            if any(h.count(mermaid) + tables[q] == 4 for q, h in enumerate(hs)):
                bad += wt / perms
                if not keep_impossible:
                    continue
            key = tuple(tuple(sorted(h)) for h in hs) + (tuple(ps[0]), tuple(ps[1]),
                                                         tuple(sorted(deck)))
            dist[key] += wt / perms
    total = sum(dist.values())
    return {k: v / total for k, v in dist.items()}, bad


def _possible(s, players):
    return all(s[ks.AK + q * kc.NKINDS + kc.MERMAID] < 4 for q in range(players))


def sampled_deals(pos, n, seed):
    d = ks.new_state()
    w = np.zeros(kad.W_SIZE, dtype=np.int64)
    counts = Counter()
    raw = 0
    rng = seed_stream(seed)
    for _ in range(n):
        raw += int(kad.deal_position(d, pos.template, pos.pool, pos.unknown_hand, pos.takes, w, rng))
        counts[_summary(d, pos.players)] += 1
    return counts, raw


def _chi2_bound(df):
    """The 99.9% quantile of chi-square with df degrees of freedom (Wilson-Hilferty)."""
    z = 3.0902
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def knowledge_position():
    """Three players, 8 cards the asker cannot place, every kind of knowledge at once: seat 1
    is known to hold three mermaids (the fourth is unknown), took one of the bottom three cards
    of pile A with a crab (one of them not remembered), pile B has a forgotten card, and one of
    the deck's three cards is known."""
    hand = ["sailor:pink", "captain", "colony"]
    known1 = ["mermaid", "mermaid", "mermaid"]
    pile_a = ["?", "shell:green", "octopus:grey", "crab:black"]
    pile_b_top = "penguin:purple"
    deck_known = ["fish:green"]
    pool = ["mermaid", "shell:black", "penguin:pink", "fish:black", "boat:black", "boat:yellow",
            "shark:green", "swimmer:black"]
    listed = hand + known1 + [c for c in pile_a if c != "?"] + [pile_b_top] + deck_known + pool
    rest = rest_of("base", listed)
    return {"players": 3, "seat": 0, "decision": "draw", "hand": hand,
            "opponents": [{"seat": 1, "hand_size": 6, "known": known1},     # + 1 taken + 2
                          {"seat": 2, "hand_size": 2}],
            "piles": {"A": {"cards": pile_a, "crab_taken": [{"seat": 1, "among": 3}]},
                      "B": {"cards": rest + ["?", pile_b_top]}},
            "deck": {"size": 3, "known": deck_known}}


def test_the_knowledge_position_is_what_it_says():
    pos = parse(knowledge_position())
    assert len(pos.pool) == 8 and sorted(pos.unknown_hand[:3]) == [0, 2, 2]
    assert pos.takes.tolist() == [[1, 0, 3]]
    assert int(pos.template[ks.PILE_LEN]) == 4            # as remembered, the taken card included
    assert pos.deck == 3


PROJECTIONS = {"seat 1's hand": lambda k: k[1], "seat 2's hand": lambda k: k[2],
               "pile A": lambda k: k[3], "pile B": lambda k: k[4], "deck": lambda k: k[5],
               "seats 1 and 2": lambda k: (k[1], k[2])}


def _chi2(exact, got, n, part):
    p, g = Counter(), Counter()
    for k, v in exact.items():
        p[part(k)] += v
    for k, v in got.items():
        g[part(k)] += v
    return sum((g.get(c, 0) - n * q) ** 2 / (n * q) for c, q in p.items()), len(p)


def test_deals_match_exact_enumeration():
    """40,000 sampled deals against the exact distribution over every possible deal: a
    chi-square test (99.9% bound) of each part of the deal, nothing impossible ever dealt, and
    the share of raw deals rejected equal to the impossible share. Control: the same samples
    fail against the distribution of a sampler that ignores the four-mermaid rule."""
    pos = parse(knowledge_position())
    exact, bad = exact_deals(pos)
    assert 0.05 < bad < 0.5                # the rule matters here: seat 1 would hold four
    n = 40_000
    got, raw = sampled_deals(pos, n, seed=11)
    assert set(got) <= set(exact)          # nothing impossible or inconsistent is ever dealt
    for name, part in PROJECTIONS.items():
        chi2, cells = _chi2(exact, got, n, part)
        assert cells > 1 and chi2 < _chi2_bound(cells - 1), (name, chi2, cells)
    rejected = (raw - n) / raw
    half = Z999 * math.sqrt(bad * (1 - bad) / raw)
    assert abs(rejected - bad) < half
    careless, _ = exact_deals(pos, keep_impossible=True)
    chi2, cells = _chi2(careless, got, n, PROJECTIONS["seat 1's hand"])
    assert chi2 > 10 * _chi2_bound(cells - 1)


def test_the_impossible_share_formula_is_the_enumeration():
    """Without crab takes the share of impossible deals has a closed form (analyzer.play.position)."""
    obj = knowledge_position()
    obj["piles"]["A"] = {"cards": ["shell:green", "octopus:grey", "crab:black"]}
    obj["opponents"][0]["hand_size"] = 6        # 3 known + 3 unknown
    obj["deck"] = {"size": 3, "known": ["fish:green"]}
    pos = parse(obj)
    _, bad = exact_deals(pos)
    assert math.isclose(impossible_share(pos), bad, rel_tol=1e-12)


def eval_position():
    """Two players at the asker's play step, 6 cards the asker cannot place: one in seat 1's
    hand (it is known to hold three mermaids: the fourth mermaid is one of the six), two
    forgotten cards of pile B, three of the deck's four cards (the fourth is known)."""
    hand = ["sailor:pink", "sailor:orange", "captain"]           # 11 card points
    known1 = ["mermaid", "mermaid", "mermaid"]
    pool = ["mermaid", "shell:black", "penguin:pink", "fish:black", "octopus:green", "crab:grey"]
    deck_known = ["shell:green"]
    b_top = "octopus:grey"
    rest = rest_of("base", hand + known1 + pool + deck_known + [b_top])
    return {"players": 2, "seat": 0, "hand": hand,
            "opponents": [{"seat": 1, "hand_size": 4, "known": known1}],
            "piles": {"A": {"cards": rest}, "B": {"cards": ["?", "?", b_top]}},
            "deck": {"size": 4, "known": deck_known}}


def exact_values(pos):
    """Exact expected (margin, bet won) of every option over every possible deal: each deal in
    every deck order (the baseline players are deterministic on an ordered deck)."""
    pk, pp = policy_arrays(seat_policies(["baseline"], pos.players))
    acts = {"stop": kac.A_STOP, "last_chance": kac.A_LAST_CHANCE, "play_on": kac.A_END}
    sums = {k: [0.0, 0.0] for k in acts}
    total = 0.0
    tr = np.zeros((0, 5), dtype=np.int32)
    for order in itertools.permutations(pos.pool.tolist()):
        s = _fill(pos, order)
        if not _possible(s, pos.players):
            continue
        n = int(s[ks.DECK_LEN])
        deck = [int(t) for t in s[ks.DECK:ks.DECK + n]]
        known, unknown = deck[0], deck[1:]          # the known card sits in slot 0
        for at in range(n):                          # the known card in every deck position
            x = s.copy()
            x[ks.DECK:ks.DECK + n] = unknown[:at] + [known] + unknown[at:]
            x[ks.SHUFFLED] = 0
            refresh_points(x, pos.players)
            total += 1
            for k, a in acts.items():
                y = x.copy()
                step(y, a, pk, pp, seed_stream(0), tr)
                sums[k][0] += int(y[ks.POINTS]) - int(y[ks.POINTS + 1])
                sums[k][1] += int(y[ks.END]) == ks.END_LC_WON
    return {k: (v[0] / total, v[1] / total) for k, v in sums.items()}


def test_advisor_averages_equal_exact_enumeration():
    """Each option's expected margin (and LAST CHANCE's bet won) from 30,000 samples equals the
    exact average over every possible deal, within its 99.9% interval."""
    pos = parse(eval_position())
    exact = exact_values(pos)
    a = advise(pos, samples=30_000, seed=4)
    for k, (margin, bet) in exact.items():
        m = a.options[k]["margin"]
        half = (m["ci95"][1] - m["ci95"][0]) / 2 * Z999 / 1.96
        assert abs(m["mean"] - margin) <= half + 1e-9, (k, m, margin)
        if k == "last_chance":
            r = a.options[k]["win_bet"]["rate"]
            assert abs(r - bet) <= Z999 * math.sqrt(max(bet * (1 - bet), 1e-9) / a.samples) + 1e-9
    assert a.meta["deals"]["impossible"] > 0


def four_mermaid_position(**extra):
    """The issue's position: seat 1 is known to hold three mermaids and one more card; the
    fourth mermaid is one of the three cards the asker cannot place (two are the deck)."""
    hand = ["sailor:pink", "sailor:orange", "captain"]
    known1 = ["mermaid", "mermaid", "mermaid"]
    pool = ["mermaid", "shell:black", "penguin:pink"]
    rest = rest_of("base", hand, known1, pool)
    pos = {"players": 2, "seat": 0, "hand": hand,
           "opponents": [{"seat": 1, "hand_size": 4, "known": known1}],
           "piles": {"A": {"cards": rest}, "B": {"size": 0}}, "deck": 2}
    pos.update(extra)
    return pos


def test_the_four_mermaid_position_is_a_won_bet():
    """In every possible deal seat 1 holds a shell or a penguin besides its mermaids, and one
    final turn cannot take it past 11 card points: the bet is always won, LAST CHANCE is best.
    A third of the raw deals (the fourth mermaid in seat 1's hand) are rejected."""
    a = advise(four_mermaid_position(), samples=6000, seed=1)
    assert a.options["last_chance"]["win_bet"]["rate"] == 1.0
    assert a.recommendation == "last_chance"
    assert impossible_share(parse(four_mermaid_position())) == pytest.approx(1 / 3)
    d = a.meta["deals"]
    share = d["impossible"] / d["raw"]
    assert abs(share - 1 / 3) < Z999 * math.sqrt(2 / 9 / d["raw"])
